//! `setup`: the ruleset's pre-battle sequence run headless, from two force files to a scenario
//! file that `validate` accepts and `simulate` plays.

use sandtable_engine::prebattle::{PreBattle, PreBattleEntry, SetupChoice, run_to_end};
use sandtable_engine::registry::{FileKind, Variant};
use sandtable_engine::{DataDirs, Registry, data_file};
use std::path::{Path, PathBuf};

pub struct Setup<'a> {
    pub forces: [&'a Path; 2],
    pub seed: u64,
    pub players: &'a str,
    /// Optional rules of the sequence to play (e.g. `choice_of_effects`).
    pub options: &'a [String],
    pub out: &'a Path,
    pub log: bool,
    pub json: bool,
}

/// One seat's player: a computer player by name, or a file of choices, one key a line, taken in
/// order (`file:PATH`).
enum SeatPlayer {
    Computer(sandtable_ai::setup::SetupChooser),
    Scripted { path: PathBuf, keys: Vec<String> },
}

fn seat_player(spec: &str, seed: u64) -> Result<SeatPlayer, String> {
    if let Some(path) = spec.strip_prefix("file:") {
        let path = PathBuf::from(path);
        let text = data_file::read_text(&path).map_err(|e| e.to_string())?;
        let mut keys: Vec<String> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with("//"))
            .map(str::to_string)
            .collect();
        keys.reverse();
        return Ok(SeatPlayer::Scripted { path, keys });
    }
    sandtable_ai::setup::setup_chooser(spec, seed).map(SeatPlayer::Computer)
}

pub fn run(
    registry: &Registry,
    entries: &[PreBattleEntry],
    dirs: &DataDirs,
    opts: Setup,
) -> Result<(), String> {
    // The first force file names the ruleset by its first word (a file only one ruleset reads).
    let text = data_file::read_text(opts.forces[0]).map_err(|e| e.to_string())?;
    let ruleset = match registry.kind_of(&text) {
        Some(FileKind::Other { ruleset, .. }) => ruleset,
        _ => {
            return Err(format!(
                "{}: not a force file of any ruleset this program knows",
                opts.forces[0].display()
            ));
        }
    };
    let entry = entries
        .iter()
        .find(|e| e.ruleset == ruleset)
        .ok_or_else(|| format!("the {ruleset} ruleset has no pre-battle sequence"))?;
    let specs: Vec<&str> = opts.players.split(',').map(str::trim).collect();
    if specs.len() != 2 {
        return Err(format!(
            "--players needs two players, one a side (e.g. ai,random); got \"{}\"",
            opts.players
        ));
    }
    let mut seats = [
        seat_player(specs[0], opts.seed ^ 0xA11CE)?,
        seat_player(specs[1], opts.seed ^ 0xB0B)?,
    ];
    let mut seq = (entry.start)(&opts.forces, dirs, opts.seed, opts.options)
        .map_err(|e| e.lines().join("\n"))?;
    let mut failures = [None, None];
    let result = {
        let [a, b] = &mut seats;
        let [fa, fb] = &mut failures;
        let mut ca = chooser(a, fa);
        let mut cb = chooser(b, fb);
        run_to_end(seq.as_mut(), &mut [&mut ca, &mut cb], 10_000)
    };
    if let Some(f) = failures.into_iter().flatten().next() {
        return Err(f);
    }
    result?;
    let scenario = seq
        .scenario_text()
        .ok_or("the sequence ended without a battle")?;
    let header = format!(
        "// Set up by `sandtable-cli setup` from {} and {}, seed {}, players {}{}.\n",
        opts.forces[0].display(),
        opts.forces[1].display(),
        opts.seed,
        opts.players,
        if opts.options.is_empty() {
            String::new()
        } else {
            format!(", optional rules {}", opts.options.join(", "))
        }
    );
    // The scenario must load like any other before it takes the place of anything at --out: it
    // is checked beside it first, then moved into place.
    let mut checking = opts.out.as_os_str().to_owned();
    checking.push(".checking");
    let checking = PathBuf::from(checking);
    data_file::write_atomic(&checking, &format!("{header}{scenario}\n"))
        .map_err(|e| format!("{}: cannot write: {e}", checking.display()))?;
    let game = match registry.open_scenario(&checking, dirs, Variant::default()) {
        Ok(g) => g,
        Err(e) => {
            let _ = std::fs::remove_file(&checking);
            return Err(format!(
                "the sequence set up a battle the loader refuses (nothing written): {}",
                e.lines().join("; ")
            ));
        }
    };
    std::fs::rename(&checking, opts.out)
        .map_err(|e| format!("{}: cannot write: {e}", opts.out.display()))?;
    let name = game.info().name.clone();
    if opts.json {
        let report = serde_json::json!({
            "scenario": name,
            "out": opts.out.display().to_string(),
            "record": seq.log(0).len(),
        });
        println!("{report}");
    } else {
        if opts.log {
            // The whole record, as both seats see it once the battle is ready.
            for line in seq.log(0) {
                let dice = if line.dice.is_empty() {
                    String::new()
                } else {
                    format!(
                        " [dice {}]",
                        line.dice
                            .iter()
                            .map(u8::to_string)
                            .collect::<Vec<_>>()
                            .join(" ")
                    )
                };
                println!("{} ({}){dice}", line.text, line.rule);
            }
        }
        println!("{name}: written to {}", opts.out.display());
    }
    Ok(())
}

/// A seat's player as the engine's chooser; a scripted seat that runs out of keys, or names one
/// not offered, falls back to nothing and records why.
fn chooser<'a>(
    seat: &'a mut SeatPlayer,
    failure: &'a mut Option<String>,
) -> impl FnMut(&dyn PreBattle, &[SetupChoice]) -> String + 'a {
    move |seq, offered| match seat {
        SeatPlayer::Computer(c) => c(seq, offered),
        SeatPlayer::Scripted { path, keys } => match keys.pop() {
            Some(k) => k,
            None => {
                failure.get_or_insert(format!(
                    "{}: no choice left for \"{}\"",
                    path.display(),
                    seq.step().title
                ));
                String::new()
            }
        },
    }
}
