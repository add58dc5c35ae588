//! Saving and loading battles in the platform's data folder: an autosave after every action
//! (written atomically, the previous one kept as `autosave.prev.ron`), saves on Ctrl+S, the list
//! of saves on Ctrl+O, and resuming an unfinished battle from the start screen. A damaged save is
//! refused with its reason and left untouched.

use crate::battle::Battle;
use crate::rulesets::Rulesets;
use bevy::prelude::*;
use sandtable_engine::Registry;
use std::path::{Path, PathBuf};

/// Where saves go.
#[derive(Resource, Debug, Clone)]
pub struct SaveDir(pub PathBuf);

impl SaveDir {
    pub fn autosave(&self) -> PathBuf {
        self.0.join("autosave.ron")
    }
    pub fn previous_autosave(&self) -> PathBuf {
        self.0.join("autosave.prev.ron")
    }
}

/// Writes the autosave. The new file is complete on disk before the old one is kept aside as
/// `autosave.prev.ron`, so a kill at any moment leaves the latest acknowledged command loadable.
pub fn autosave(dir: &SaveDir, battle: &Battle) -> Result<(), String> {
    let text = battle.game.save_text()?;
    sandtable_engine::data_file::write_atomic_keeping_previous(
        &dir.autosave(),
        &dir.previous_autosave(),
        &text,
    )
    .map_err(|e| format!("cannot write {}: {e}", dir.autosave().display()))
}

/// A save named after the scenario, the turn and the time.
pub fn save_as(dir: &SaveDir, battle: &Battle) -> Result<PathBuf, String> {
    let slug = crate::paths::slug(&battle.game.info().name, "battle");
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let path = dir.0.join(format!(
        "{}-turn{}-{secs}.ron",
        slug.trim_matches('-'),
        battle.prompt().turn
    ));
    let text = battle.game.save_text()?;
    sandtable_engine::data_file::write_atomic(&path, &text)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Loads a save into a battle, or says why it cannot be loaded.
pub fn load(registry: &Registry, path: &Path) -> Result<Battle, String> {
    let game = registry.open_save(path).map_err(|e| e.to_string())?;
    Ok(Battle::new(game, path.to_path_buf()))
}

/// The saves in the folder, newest first.
pub fn list(dir: &SaveDir) -> Vec<PathBuf> {
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(&dir.0)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                // Regular files only: a named pipe or a folder called `x.ron` is no save.
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
                .map(|p| {
                    (
                        std::fs::metadata(&p)
                            .and_then(|m| m.modified())
                            .unwrap_or(std::time::UNIX_EPOCH),
                        p,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    files.into_iter().map(|f| f.1).collect()
}

/// Autosaves whenever the battle changed.
pub fn autosave_on_change(
    battle: Option<Res<Battle>>,
    dir: Res<SaveDir>,
    mut last: Local<Option<usize>>,
) {
    let Some(battle) = battle else {
        *last = None;
        return;
    };
    // A remote battle is kept in its own folder (`crate::remote`); a save of one side's
    // knowledge would resume as something else.
    if battle.remote.is_some() {
        return;
    }
    let n = battle.game.len();
    if *last == Some(n) {
        return;
    }
    if (last.is_some() || n > 0)
        && let Err(e) = autosave(&dir, &battle)
    {
        warn!("autosave failed: {e}");
    }
    *last = Some(n);
}

/// An unfinished battle the start screen offers to resume: the autosave, or the one before it when
/// the autosave is damaged (the damaged file is left as it is).
#[derive(Resource, Debug, Clone, Default)]
pub struct ResumeOffer {
    pub path: Option<PathBuf>,
    /// "Skirmish at the Mill Ford (1656), turn 3".
    pub title: String,
    /// Why the newest autosave could not be offered, if it could not.
    pub problem: Option<String>,
}

impl ResumeOffer {
    pub fn scan(dir: &SaveDir, rulesets: &Rulesets) -> Self {
        // Temporary files of a write that was killed half-way are of no use to anyone.
        sandtable_engine::data_file::remove_stale_temps(&dir.0);
        let mut offer = Self::default();
        for path in [dir.autosave(), dir.previous_autosave()] {
            if !path.is_file() {
                continue;
            }
            match load(&rulesets.0, &path) {
                Ok(b) if !b.is_over() => {
                    offer.title = format!("{}, turn {}", b.game.info().name, b.prompt().turn);
                    offer.path = Some(path);
                    return offer;
                }
                // A finished battle is nothing to resume.
                Ok(_) => return offer,
                Err(e) => {
                    offer.problem.get_or_insert(format!(
                        "{} cannot be loaded and is left as it is: {e}",
                        path.display()
                    ));
                }
            }
        }
        offer
    }
}
