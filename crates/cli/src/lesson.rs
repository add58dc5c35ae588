//! `sandtable-cli lesson`: a scripted learner plays a lesson with detours (see
//! `sandtable_engine::lesson_drill`), and the lesson must still reach its end.

use sandtable_engine::files::DataDirs;
use sandtable_engine::lesson_drill::{DrillReport, drill};
use sandtable_engine::registry::Variant;
use sandtable_engine::{AnyGame, Registry};
use serde::Serialize;
use std::path::Path;

/// How to drill the lessons.
pub struct Options {
    pub detours: u32,
    pub seed: u64,
    /// Dice seed instead of the lesson's own, to check that no step waits on one roll.
    pub dice: Option<u64>,
    pub json: bool,
}

#[derive(Serialize)]
struct Line<'a> {
    lesson: String,
    finished: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    stalled_at: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'a str>,
    #[serde(flatten)]
    report: &'a DrillReport,
}

/// The opponent the lesson names: the computer, or a side that only does what it is told.
fn opponent_kind(game: &dyn AnyGame) -> &'static str {
    match game.info().lesson.as_ref().map(|l| l.opponent.as_str()) {
        Some("computer") => "ai",
        _ => "passive",
    }
}

/// Drills one lesson; `Ok(true)` when it reached its end.
fn one(registry: &Registry, file: &Path, dirs: &DataDirs, o: &Options) -> Result<bool, String> {
    let variant = Variant {
        seed: o.dice,
        ..Default::default()
    };
    let game = registry
        .open_scenario(file, dirs, variant)
        .map_err(|e| e.to_string())?;
    if game.lesson().is_none() {
        return Err(format!(
            "{}: not a lesson (it has no `lesson`)",
            file.display()
        ));
    }
    let kind = opponent_kind(&*game);
    let ruleset = game.ruleset();
    let mut make = || registry.player(ruleset, kind, o.seed ^ 0x5EED);
    let result = drill(&*game, &mut make, o.detours, o.seed);
    let name = file.display().to_string();
    let (finished, line) = match &result {
        Ok(r) => (
            true,
            Line {
                lesson: name,
                finished: true,
                stalled_at: None,
                step: None,
                why: None,
                report: r,
            },
        ),
        Err(s) => (
            false,
            Line {
                lesson: name,
                finished: false,
                stalled_at: Some(s.step),
                step: Some(&s.title),
                why: Some(&s.why),
                report: &s.report,
            },
        ),
    };
    if o.json {
        println!(
            "{}",
            serde_json::to_string(&line).map_err(|e| e.to_string())?
        );
    } else {
        let r = line.report;
        let tail = format!(
            "{} steps passed, {} commands; {} detours ({} taken back, {} \"Back one step\"), {} steps ended by a branch",
            r.visited, r.commands, r.detours, r.taken_back, r.backs, r.branches
        );
        match &result {
            Ok(_) => println!("{}: finished: {tail}", line.lesson),
            Err(s) => println!("{}: {s}; {tail}", line.lesson),
        }
    }
    Ok(finished)
}

/// Drills every file; an error names the lessons that stalled.
pub fn run(
    registry: &Registry,
    files: &[std::path::PathBuf],
    dirs: &DataDirs,
    o: &Options,
) -> Result<(), String> {
    let mut stalled = Vec::new();
    for f in files {
        if !one(registry, f, dirs, o)? {
            stalled.push(f.display().to_string());
        }
    }
    if stalled.is_empty() {
        Ok(())
    } else {
        Err(format!("lessons that stalled: {}", stalled.join(", ")))
    }
}
