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
use crate::vocab::{RuleError, TerrainKind};
use sandtable_geometry::Vec2;
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
    /// Choices that differ only by where they act on the table share a group ("Grove 15×15
    /// cm"), so a person picks the group and clicks the table instead of reading a long list.
    pub group: Option<String>,
    /// Where on the table (cm) the choice acts, for such groups.
    pub at: Option<(f32, f32)>,
}

/// One line of the sequence's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupLine {
    pub text: String,
    pub rule: String,
    /// The faces rolled, if any.
    pub dice: Vec<u8>,
}

/// The table as a seat may see it during the sequence, in table centimetres: what the app draws.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SetupTable {
    pub size: (f32, f32),
    pub terrain: Vec<(TerrainKind, Vec<Vec2>)>,
    /// Deployment areas known so far, by seat.
    pub zones: Vec<(u8, Vec<Vec2>)>,
    /// Every base this seat may see, by seat.
    pub bases: Vec<(u8, [Vec2; 4])>,
    /// Objectives: centre and control radius.
    pub objectives: Vec<(Vec2, f32)>,
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
    /// The table so far as this seat may see it.
    fn table(&self, seat: u8) -> SetupTable;
    /// The finished battle as scenario text the ruleset's loader reads, once ready.
    fn scenario_text(&self) -> Option<String>;
    /// The sequence so far, to resume later (all of it: keep it from the other seat).
    fn save_text(&self) -> String;
}

/// One row of an army list's card, as a force builder offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardRow {
    /// The row's id on the card.
    pub key: String,
    /// Where it sits on the card ("Core, FSP 4", "FSP 6", "Additional").
    pub section: String,
    pub name: String,
    /// Its profile and bases, in words.
    pub detail: String,
    /// Bases it may field (both 0 for a commander).
    pub min_bases: u8,
    pub max_bases: u8,
    /// Every force fields it.
    pub required: bool,
}

/// A force being built: which list, its name, the rows taken with their bases, and a better
/// commander if one is bought.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForceDraft {
    pub list: String,
    pub name: String,
    pub picks: Vec<(String, u8)>,
    pub upgrade: Option<String>,
    /// The Commander's own name, if the force gives one.
    pub commander_name: Option<String>,
    /// Units' own names, by row id, where the force gives them.
    pub names: Vec<(String, String)>,
}

/// What the ruleset makes of a draft: its values in words, what breaks the card (each with its
/// rule), and the file text to save.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForceReport {
    pub lines: Vec<String>,
    pub problems: Vec<String>,
    pub text: String,
}

/// A ruleset's force builder: its army lists' cards, and the values of a force as it is built.
pub trait ForceBuilder: Send + Sync {
    /// Lists with a card to build from: (id, name and period).
    fn lists(&self) -> Vec<(String, String)>;
    fn rows(&self, list: &str) -> Vec<CardRow>;
    /// Better commanders on the card: (id, label).
    fn upgrades(&self, list: &str) -> Vec<(String, String)>;
    fn report(&self, draft: &ForceDraft) -> ForceReport;
    /// Reads a force file back into a draft.
    fn read(&self, path: &Path, text: &str) -> Result<ForceDraft, LoadError>;
    /// The draft's units as the scenario section's own text, for the table editor.
    fn scenario_units(&self, draft: &ForceDraft) -> Result<String, String>;
}

/// Starts a sequence from two force files, with the data folders, a seed and the names of the
/// optional rules to play ([`PreBattleEntry::options`]).
pub type StartSequence = fn(
    &[&Path; 2],
    &crate::files::DataDirs,
    u64,
    &[String],
) -> Result<Box<dyn PreBattle>, LoadError>;

/// Resumes a sequence from its saved text.
pub type ResumeSequence =
    fn(&Path, &str, &crate::files::DataDirs) -> Result<Box<dyn PreBattle>, LoadError>;

/// A ruleset's pre-battle sequence, erased, for the registry of a program.
#[derive(Clone, Copy)]
pub struct PreBattleEntry {
    /// The ruleset's id, as scenario files name it.
    pub ruleset: &'static str,
    pub start: StartSequence,
    pub resume: ResumeSequence,
    /// The optional rules its sequence offers, off unless named at the start: (name, what
    /// players call it).
    pub options: &'static [(&'static str, &'static str)],
    /// Its force builder over the army lists of a data folder.
    pub builder: fn(&crate::files::DataDirs) -> Box<dyn ForceBuilder>,
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
