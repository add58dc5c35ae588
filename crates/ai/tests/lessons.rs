//! Every tutorial lesson played through the rules engine to its end by the scripted learner of
//! `sandtable_engine::lesson_drill` (what `sandtable-cli lesson` runs): first as the steps ask,
//! then, as a property over seeds, straying from them (detours the lesson takes back, "Back one
//! step", either branch a step leaves open) and with the dice rolled from other seeds, so that no
//! step waits on one roll falling one way. `PROPTEST_CASES` sets the number of seeds (CI uses a
//! modest count).

use proptest::prelude::*;
use sandtable_engine::files::DataDirs;
use sandtable_engine::lesson_drill::drill;
use sandtable_engine::registry::Variant;
use sandtable_engine::{Registry, RulesetEntry};
use std::path::{Path, PathBuf};

fn registry() -> Registry {
    Registry::new(vec![
        RulesetEntry::new::<sandtable_bfs::Bfs>(
            sandtable_ai::any_player::<sandtable_bfs::Bfs, sandtable_ai::bfs::BfsEvaluation>,
        ),
        RulesetEntry::new::<sandtable_napoleonic::Napoleonic>(
            sandtable_ai::any_player::<
                sandtable_napoleonic::Napoleonic,
                sandtable_ai::napoleonic::NapEvaluation,
            >,
        ),
    ])
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn lesson_files() -> Vec<PathBuf> {
    let dir = root().join("scenarios/tutorial");
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

/// Drills one lesson; the error names the lesson and the step where it stalled.
fn drill_lesson(
    registry: &Registry,
    path: &Path,
    detours: u32,
    seed: u64,
    dice: Option<u64>,
) -> Result<sandtable_engine::lesson_drill::DrillReport, String> {
    let dirs = DataDirs::under(&root().join("assets"));
    let game = registry
        .open_scenario(
            path,
            &dirs,
            Variant {
                seed: dice,
                ..Default::default()
            },
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let kind = match game.info().lesson.as_ref().map(|l| l.opponent.as_str()) {
        Some("computer") => "ai",
        _ => "passive",
    };
    let ruleset = game.ruleset();
    let mut make = || registry.player(ruleset, kind, seed ^ 7);
    drill(&*game, &mut make, detours, seed).map_err(|s| {
        format!(
            "{} (seed {seed}, dice {dice:?}, detours {detours}): {s}",
            path.display()
        )
    })
}

#[test]
fn every_lesson_can_be_played_to_its_end() {
    let registry = registry();
    let files = lesson_files();
    let mut failures = Vec::new();
    for f in &files {
        match drill_lesson(&registry, f, 0, 1, None) {
            Ok(r) => {
                println!("{}: {} steps completed", f.display(), r.visited);
                assert_eq!(r.detours, 0);
            }
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        files.len() >= 8,
        "the tutorial track has {} lessons, at least 8 wanted",
        files.len()
    );
}

/// A detour the learner makes is taken back (or, if routine, kept), and the lesson still ends.
#[test]
fn detours_are_taken_back_and_counted() {
    let registry = registry();
    let f = root().join("scenarios/tutorial/05-charges-and-reactions.ron");
    let r = drill_lesson(&registry, &f, 6, 11, None).expect("the lesson ends");
    assert_eq!(r.detours, 6, "{r:?}");
    assert!(
        r.taken_back + r.backs >= 4,
        "most detours are taken back: {r:?}"
    );
}

/// A lesson opened on its own dice, with the passive player for the other side.
fn open_lesson(
    registry: &Registry,
    file: &str,
) -> (
    Box<dyn sandtable_engine::AnyGame>,
    Box<dyn sandtable_engine::AnyPlayer>,
) {
    let dirs = DataDirs::under(&root().join("assets"));
    let game = registry
        .open_scenario(&root().join(file), &dirs, Variant::default())
        .expect("the lesson opens");
    let opponent = registry
        .player(game.ruleset(), "passive", 1)
        .expect("a player");
    (game, opponent)
}

/// One action of a learner who does as asked, or of the other side: "Next" while the learner
/// reads (returns true), else what "Show me" would play, or the other side's command.
fn act_as_asked(
    game: &mut dyn sandtable_engine::AnyGame,
    opponent: &mut dyn sandtable_engine::AnyPlayer,
) -> bool {
    if game.lesson().is_some_and(|l| l.reading()) {
        game.lesson_next();
        return true;
    }
    let cmd = match game.prompt().seat {
        Some(0) => game.lesson_guide().expect("a way on"),
        Some(s) => opponent.choose(&game.snapshot(), s).expect("a command"),
        None => panic!("the battle ended"),
    };
    game.submit(&cmd).expect("legal");
    false
}

/// "Back one step" returns to the step before with the battle as it was when that step began.
#[test]
fn back_one_step_returns_the_battle_to_where_the_step_began() {
    let registry = registry();
    let (mut game, mut opponent) = open_lesson(
        &registry,
        "scenarios/tutorial/03-orders-and-command-points.ron",
    );
    let mut began = Vec::new();
    while game.lesson().is_some_and(|l| l.progress.step < 3) {
        if act_as_asked(&mut *game, &mut *opponent) {
            began.push((
                game.lesson().unwrap().progress.step,
                game.len(),
                game.hash(),
            ));
        }
    }
    let step_now = game.lesson().unwrap().progress.step;
    assert!(game.lesson_back(), "there is a step to go back to");
    let (step, len, hash) = began
        .iter()
        .rev()
        .find(|(s, _, _)| *s < step_now)
        .cloned()
        .expect("an earlier step");
    let l = game.lesson().unwrap();
    assert_eq!(l.progress.step, step);
    assert!(!l.progress.done);
    assert_eq!(
        game.len(),
        len,
        "the commands since that step began are taken back"
    );
    assert_eq!(game.hash(), hash, "the battle is as it was");
}

/// The learner's own undo (Ctrl+Z) of the command that ended a step opens that step again.
#[test]
fn undoing_the_command_that_ended_a_step_opens_it_again() {
    let registry = registry();
    let (mut game, mut opponent) = open_lesson(
        &registry,
        "scenarios/tutorial/03-orders-and-command-points.ron",
    );
    // Play until a step that asks for a command is done by the learner's command.
    loop {
        let read = act_as_asked(&mut *game, &mut *opponent);
        if !read && game.lesson().unwrap().progress.done {
            break;
        }
    }
    let step = game.lesson().unwrap().progress.step;
    assert!(game.undo(0), "the learner's order is free to take back");
    let l = game.lesson().unwrap();
    assert_eq!(l.progress.step, step);
    assert!(!l.progress.done, "the step is open again");
    assert!(
        !game.can_redo(),
        "no redo replays a command the lesson would not see"
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24),
        ..ProptestConfig::default()
    })]

    /// Every lesson reaches its end with six detours, on the lesson's dice or on other dice.
    #[test]
    fn every_lesson_survives_detours_and_other_dice(seed in any::<u64>(), other_dice in any::<bool>()) {
        let registry = registry();
        let dice = other_dice.then_some(seed.rotate_left(17));
        for f in lesson_files() {
            let r = drill_lesson(&registry, &f, 6, seed, dice);
            prop_assert!(r.is_ok(), "{}", r.err().unwrap_or_default());
        }
    }
}
