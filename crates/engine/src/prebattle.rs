//! The seam for a ruleset's pre-battle sequence: from two forces to a scenario (for By Fire and
//! Sword, BFS-SCN-9 steps A–J).
//!
//! A sequence is a deterministic state machine with its own seeded dice, like a battle: a seat
//! makes a [`SetupChoice`] from the menu the ruleset offers, the ruleset applies it and reports
//! what happened in [`SetupLine`]s, each with its rule and dice. What a seat may see of the other
//! side's secret choices (hidden deployment, units set aside) is the ruleset's to decide, through
//! [`PreBattle::log`] and [`PreBattle::summary`]. The app, the CLI and the computer players reach a
//! sequence only through this trait and the [`PreBattleEntry`] a ruleset registers.

use crate::problem::LoadError;
use crate::vocab::RuleError;
use std::path::Path;

/// Where the sequence stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupStep {
    /// The step as players say it ("Roll the scenario").
    pub title: String,
    /// Its rule ID.
    pub rule: String,
    /// What happens in it, in a sentence or two.
    pub explain: String,
    /// The seat to decide next; `None` once the battle is ready.
    pub to_act: Option<u8>,
}

/// One choice open to a seat.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupChoice {
    /// What [`PreBattle::choose`] takes back (the ruleset's own encoding).
    pub key: String,
    /// The menu label.
    pub label: String,
    pub rule: String,
    /// Why the rules refuse it now, if they do; refused choices are shown, not offered.
    pub refused: Option<String>,
    /// How much a computer player likes it (higher is better): the ruleset's sensible default,
    /// which the computer players use to choose among the same candidates a person sees.
    pub computer_score: i32,
}

/// One line of the sequence's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupLine {
    pub text: String,
    pub rule: String,
    /// The faces rolled, if any.
    pub dice: Vec<u8>,
}

/// A ruleset's pre-battle sequence.
pub trait PreBattle: Send {
    fn step(&self) -> SetupStep;
    /// Every choice of this seat's menu now, refused ones included with their reason.
    fn choices(&self, seat: u8) -> Vec<SetupChoice>;
    /// Applies a choice; the new lines of the record this seat may see.
    fn choose(&mut self, seat: u8, key: &str) -> Result<Vec<SetupLine>, RuleError>;
    /// The record so far, as this seat may see it.
    fn log(&self, seat: u8) -> Vec<SetupLine>;
    /// The state of things (forces, scenario, effects, terrain) as this seat may see it.
    fn summary(&self, seat: u8) -> Vec<String>;
    /// The finished battle as scenario text the ruleset's loader reads, once ready.
    fn scenario_text(&self) -> Option<String>;
    /// The sequence so far, to resume later (all of it: keep it from the other seat).
    fn save_text(&self) -> String;
}

/// Starts a sequence from two force files, with the data folders and a seed.
pub type StartSequence =
    fn(&[&Path; 2], &crate::files::DataDirs, u64) -> Result<Box<dyn PreBattle>, LoadError>;

/// Resumes a sequence from its saved text.
pub type ResumeSequence =
    fn(&Path, &str, &crate::files::DataDirs) -> Result<Box<dyn PreBattle>, LoadError>;

/// A ruleset's pre-battle sequence, erased, for the registry of a program.
#[derive(Clone, Copy)]
pub struct PreBattleEntry {
    /// The ruleset's id, as scenario files name it.
    pub ruleset: &'static str,
    /// The folder (under the data folder) where its forces are kept.
    pub forces_dir: &'static str,
    pub start: StartSequence,
    pub resume: ResumeSequence,
}

/// Picks a key from the offered choices: a seat's player, person or computer.
pub type Chooser<'a> = &'a mut dyn FnMut(&dyn PreBattle, &[SetupChoice]) -> String;

/// Plays a sequence to its end with two chooser functions (one per seat), for the CLI and tests;
/// a chooser returns the key to choose from the offered (not refused) choices. Gives up after
/// `max_steps` choices, naming where it stood.
pub fn run_to_end(
    seq: &mut dyn PreBattle,
    choosers: &mut [Chooser<'_>; 2],
    max_steps: usize,
) -> Result<usize, String> {
    for n in 0..max_steps {
        let step = seq.step();
        let Some(seat) = step.to_act else {
            return Ok(n);
        };
        let offered: Vec<SetupChoice> = seq
            .choices(seat)
            .into_iter()
            .filter(|c| c.refused.is_none())
            .collect();
        if offered.is_empty() {
            return Err(format!(
                "{} ({}): nothing is open to seat {}",
                step.title,
                step.rule,
                seat + 1
            ));
        }
        let key = (choosers[seat as usize & 1])(seq, &offered);
        seq.choose(seat, &key)
            .map_err(|e| format!("{} ({}): {}", step.title, e.rule, e.message))?;
    }
    Err(format!(
        "the sequence did not end within {max_steps} choices (at {})",
        seq.step().title
    ))
}
