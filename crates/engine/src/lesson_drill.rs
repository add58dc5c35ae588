//! A scripted learner that plays a lesson the way a real one might: mostly as the steps ask, but
//! making a given number of commands the step did not ask for (detours, which the lesson takes
//! back), sometimes pressing "Back one step", and taking whichever branch a step leaves open at
//! random. The lesson must still reach its end: `sandtable-cli lesson` and the lesson property
//! test run it. Any ruleset, through [`AnyGame`].

use crate::dynamic::{AnyCommand, AnyGame};
use crate::player::AnyPlayer;
use crate::ruleset::Seat;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde::Serialize;

/// Most commands one step may take before the lesson is judged stalled.
pub const STEP_LIMIT: usize = 600;

/// How a drilled lesson went.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DrillReport {
    /// Steps in the lesson, and steps passed ("Next" pressed; a step gone back to and passed
    /// again counts twice).
    pub steps: usize,
    pub visited: usize,
    /// Commands in force at the end.
    pub commands: usize,
    /// Detours made, and how many of them the lesson took back (the rest were routine or on a
    /// free step).
    pub detours: u32,
    pub taken_back: u32,
    /// "Back one step" pressed.
    pub backs: u32,
    /// Steps that ended by a branch rather than their own goal.
    pub branches: u32,
}

/// Where a lesson stalled.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Stall {
    /// The step, counted from 1.
    pub step: usize,
    pub title: String,
    pub why: String,
    pub report: DrillReport,
}

impl std::fmt::Display for Stall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "stalled at step {} \"{}\": {}",
            self.step, self.title, self.why
        )
    }
}

fn pick(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// Plays `game`'s lesson to its end. `opponent()` makes the other side's player (called twice:
/// once for a dry run that counts the learner's decisions, once for the real one); `detours`
/// commands the step did not ask for are made at decisions drawn with `seed`.
pub fn drill(
    game: &dyn AnyGame,
    opponent: &mut dyn FnMut() -> Result<Box<dyn AnyPlayer>, String>,
    detours: u32,
    seed: u64,
) -> Result<DrillReport, Stall> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // The dry run: how many decisions the learner makes when it does as asked.
    let mut dry = game.clone_box();
    let mut dry_opponent = opponent().map_err(|why| stall(&*dry, why, DrillReport::default()))?;
    let decisions = play(&mut *dry, &mut *dry_opponent, &[], &mut rng.clone())?.1;
    let mut at: Vec<usize> = Vec::new();
    while at.len() < (detours as usize).min(decisions) {
        let k = pick(&mut rng, decisions);
        if !at.contains(&k) {
            at.push(k);
        }
    }
    at.sort_unstable();
    let mut real = game.clone_box();
    let mut real_opponent = opponent().map_err(|why| stall(&*real, why, DrillReport::default()))?;
    play(&mut *real, &mut *real_opponent, &at, &mut rng).map(|(r, _)| r)
}

fn stall(game: &dyn AnyGame, why: String, report: DrillReport) -> Stall {
    let (step, title) = game
        .lesson()
        .map(|l| {
            (
                l.progress.step + 1,
                l.step().map(|s| s.title.clone()).unwrap_or_default(),
            )
        })
        .unwrap_or((0, String::new()));
    Stall {
        step,
        title,
        why,
        report,
    }
}

/// The learner's loop. Returns the report and how many decisions the learner made.
fn play(
    game: &mut dyn AnyGame,
    opponent: &mut dyn AnyPlayer,
    detour_at: &[usize],
    rng: &mut ChaCha8Rng,
) -> Result<(DrillReport, usize), Stall> {
    let Some(lesson) = game.lesson() else {
        return Err(stall(
            game,
            "the scenario has no lesson".into(),
            DrillReport::default(),
        ));
    };
    let learner: Seat = lesson.learner();
    let mut report = DrillReport {
        steps: lesson.spec.steps.len(),
        ..Default::default()
    };
    let mut decision = 0usize;
    // Detours owed: a decision drawn for one where none could be made passes it on.
    let mut owed = 0usize;
    let mut on_step = (usize::MAX, 0usize);
    while let Some(lesson) = game.lesson() {
        if lesson.finished() {
            break;
        }
        let (step, done) = (lesson.progress.step, lesson.progress.done);
        if on_step.0 != step {
            on_step = (step, 0);
        }
        on_step.1 += 1;
        if on_step.1 > STEP_LIMIT {
            return Err(stall(
                game,
                format!("no progress in {STEP_LIMIT} commands"),
                report,
            ));
        }
        let reading = lesson.reading();
        let by_branch = done
            && lesson
                .trail
                .last()
                .is_some_and(|v| matches!(v.ended, Some(Some(_))));
        let deciding = game.prompt().seat;
        let learner_turn = reading || deciding == Some(learner);
        if learner_turn {
            owed += detour_at.iter().filter(|&&k| k == decision).count();
            decision += 1;
            if owed > 0 && detour(game, learner, rng, &mut report) {
                owed -= 1;
                continue;
            }
        }
        if reading {
            report.branches += by_branch as u32;
            game.lesson_next();
            report.visited += 1;
            continue;
        }
        let Some(seat) = deciding else {
            return Err(stall(
                game,
                "the battle ended before the step was done".into(),
                report,
            ));
        };
        let cmd = if seat == learner {
            let choices = game.lesson_choices();
            if choices.len() > 1 {
                // The step leaves a choice (its goal or a branch's): take any.
                Some(choices[pick(rng, choices.len())].clone())
            } else {
                game.lesson_guide()
            }
        } else {
            opponent.choose(&game.snapshot(), seat)
        };
        let Some(cmd) = cmd else {
            return Err(stall(
                game,
                format!("seat {seat} found no command to give"),
                report,
            ));
        };
        if let Err(e) = game.submit(&cmd) {
            return Err(stall(
                game,
                format!("seat {seat}'s command was refused: {e}"),
                report,
            ));
        }
    }
    report.commands = game.len();
    Ok((report, decision))
}

/// One detour: most often a legal command the step did not ask for, sometimes "Back one step".
/// False when none could be made here.
fn detour(
    game: &mut dyn AnyGame,
    learner: Seat,
    rng: &mut ChaCha8Rng,
    report: &mut DrillReport,
) -> bool {
    if pick(rng, 4) == 0 && game.lesson_back() {
        report.backs += 1;
        report.detours += 1;
        return true;
    }
    let guide = game.lesson_guide();
    let asked: Vec<AnyCommand> = game.lesson_choices();
    let options: Vec<AnyCommand> = game
        .candidates(learner)
        .into_iter()
        .filter(|c| guide.as_ref() != Some(c) && !asked.contains(c))
        .collect();
    if options.is_empty() {
        return false;
    }
    let cmd = &options[pick(rng, options.len())];
    let len = game.len();
    let detours_before = detours_on_trail(game);
    if game.submit(cmd).is_err() {
        return false;
    }

    report.detours += 1;
    if detours_on_trail(game) > detours_before || game.len() == len {
        report.taken_back += 1;
    }
    true
}

fn detours_on_trail(game: &dyn AnyGame) -> u32 {
    game.lesson()
        .map(|l| l.trail.iter().map(|v| v.detours).sum())
        .unwrap_or(0)
}
