//! Every tutorial lesson played through the rules engine to its end: the learner's side gives,
//! at each step, a command that meets the step's goal (as the lesson's "Show me" button would),
//! the other side plays as the lesson says, and every step must complete.

use sandtable_ai::bfs::BfsEvaluation;
use sandtable_ai::napoleonic::NapEvaluation;
use sandtable_ai::{AiPlayer, Evaluate, PlayerKind};
use sandtable_bfs::Bfs;
use sandtable_engine::files::{DataDirs, Files};
use sandtable_engine::scenario::ScenarioHeader;
use sandtable_engine::scenario_script::Goal;
use sandtable_engine::teach::{Progress, Teach, guide};
use sandtable_engine::{Ruleset, Session, data_file};
use sandtable_napoleonic::Napoleonic;
use std::path::{Path, PathBuf};

/// Most commands a single step may take before the lesson is judged stuck.
const STEP_LIMIT: usize = 600;

fn lesson_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/tutorial");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "ron"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Plays the lesson with the ruleset its file names.
fn play_lesson(path: &Path) -> Result<usize, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let header: ScenarioHeader = data_file::parse_ron(path, &text).map_err(|e| e.to_string())?;
    match header.ruleset.as_str() {
        "bfs" => play::<Bfs, BfsEvaluation>(path, &text),
        "napoleonic" => play::<Napoleonic, NapEvaluation>(path, &text),
        other => Err(format!("no ruleset \"{other}\"")),
    }
}

fn play<R: Ruleset + Teach + Files, E: Evaluate<R> + 'static>(
    path: &Path,
    text: &str,
) -> Result<usize, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let setup = R::load_scenario(path, text, &DataDirs::under(&root.join("assets")))
        .map_err(|e| e.lines().join("; "))?;
    let scenario = R::scenario(&setup);
    let lesson = scenario.lesson.clone().ok_or("not a lesson")?;
    let learner = lesson.learner as u8;
    let kind: PlayerKind = if lesson.opponent == "computer" {
        PlayerKind::AI
    } else {
        PlayerKind::Passive
    };
    let mut opponent = AiPlayer::<R, E>::new(kind, 7)?;
    let seed = scenario.seed;
    let mut session = Session::<R>::new(setup, seed)?;
    for (i, step) in lesson.steps.iter().enumerate() {
        if step.until == Goal::Read {
            continue;
        }
        let mut progress = Progress {
            step: i,
            ..Default::default()
        };
        let mut n = 0;
        while !progress.done {
            n += 1;
            if n > STEP_LIMIT {
                return Err(format!(
                    "step {} \"{}\" did not complete in {STEP_LIMIT} commands",
                    i + 1,
                    step.title
                ));
            }
            let state = session.state();
            let Some(seat) = R::prompt(state).seat else {
                return Err(format!(
                    "the battle ended before step {} \"{}\" completed",
                    i + 1,
                    step.title
                ));
            };
            let by_learner = seat == learner;
            let cmd = if by_learner {
                guide::<R>(&R::view(state, seat), &step.until, learner)
                    .ok_or_else(|| format!("step {}: no command for the learner", i + 1))?
            } else {
                opponent
                    .choose_from(state, seat)
                    .ok_or_else(|| format!("step {}: no command for the opponent", i + 1))?
            };
            let before = state.clone();
            let events = session
                .submit(cmd.clone())
                .map_err(|e| format!("step {}: {cmd:?} refused: {e}", i + 1))?
                .to_vec();
            progress.record::<R>(
                &step.until,
                &before,
                &cmd,
                session.state(),
                &events,
                by_learner,
            );
        }
    }
    Ok(lesson.steps.len())
}

#[test]
fn every_lesson_can_be_played_to_its_end() {
    let files = lesson_files();
    let mut failures = Vec::new();
    for f in &files {
        match play_lesson(f) {
            Ok(steps) => println!("{}: {steps} steps completed", f.display()),
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        files.len() >= 8,
        "the tutorial track has {} lessons, at least 8 wanted",
        files.len()
    );
}
