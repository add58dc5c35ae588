//! `autosave-stress` (hidden; for the kill test of `tests/kill.rs`): plays a battle with random
//! players and autosaves after every command exactly as the app does (the new autosave complete
//! on disk before the old one is kept aside), printing `ack N` once the autosave holding N
//! commands is written. Started again on the same folder, it resumes from the autosave (cleaning
//! up what a killed write left behind), so a test can kill it at any moment and check that every
//! acknowledged command survives.

use crate::game::summary;
use sandtable_engine::registry::Variant;
use sandtable_engine::{DataDirs, Registry, data_file};
use std::io::Write;
use std::path::Path;

pub fn run(
    registry: &Registry,
    dirs: &DataDirs,
    scenario: &Path,
    folder: &Path,
    commands: usize,
) -> Result<(), String> {
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    data_file::remove_stale_temps(folder);
    let autosave = folder.join("autosave.ron");
    let previous = folder.join("autosave.prev.ron");
    let mut game = if autosave.is_file() {
        registry.open_save(&autosave).map_err(|e| e.to_string())?
    } else {
        registry
            .open_scenario(scenario, dirs, Variant::default())
            .map_err(|e| e.to_string())?
    };
    game.as_battle();
    let mut seats = [
        registry.player(game.ruleset(), "random", 1 + game.len() as u64)?,
        registry.player(game.ruleset(), "random", 2 + game.len() as u64)?,
    ];
    let out = std::io::stdout();
    while game.len() < commands {
        let Some(seat) = game.prompt().seat else {
            break;
        };
        let cmd = seats[seat.min(1) as usize]
            .choose(&game.snapshot(), seat)
            .ok_or("no legal command")?;
        game.submit(&cmd).map_err(|e| e.to_string())?;
        let text = game.save_text()?;
        data_file::write_atomic_keeping_previous(&autosave, &previous, &text)
            .map_err(|e| format!("{}: {e}", autosave.display()))?;
        let mut o = out.lock();
        let _ = writeln!(
            o,
            "ack {} {}",
            game.len(),
            summary(game.as_ref()).state_hash
        );
        let _ = o.flush();
    }
    Ok(())
}
