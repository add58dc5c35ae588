//! Every event in words, for the battle log, the dice panel and the CLI. A ruleset narrates its
//! own events ([`crate::Present::narrate`]); the app only lays the words and dice out.

use crate::present::PieceId;
use crate::roll::Modifier;
use serde::{Deserialize, Serialize};

/// How a log line stands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LineStyle {
    #[default]
    Plain,
    /// A new turn.
    Heading,
    /// A new phase: quieter than the rest.
    Aside,
}

/// One event in words, as one seat may read it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Narration {
    /// One line; rule IDs in it become links.
    pub text: String,
    pub style: LineStyle,
    /// Set when this event begins turn `n`: the log numbers the lines after it.
    pub turn_began: Option<u32>,
    /// The pieces it concerns (the log can be filtered by piece).
    pub pieces: Vec<PieceId>,
    /// The dice behind it, for the dice panel.
    pub dice: Option<DiceReport>,
}

impl Narration {
    pub fn line(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            ..Self::default()
        }
    }
}

/// One die as rolled, and whether it counts as a success.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieFace {
    pub value: u32,
    pub success: bool,
}

/// One roll of one or more dice with everything that decided what it needed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct RollReport {
    /// "2 base(s), effective range, 12.0 cm: 4 dice, need 5 or less (base 4)".
    pub label: String,
    pub modifiers: Vec<Modifier>,
    /// Other lines with rule IDs: dice added or removed, pipeline notes.
    pub notes: Vec<String>,
    pub faces: Vec<DieFace>,
    /// A second roll of some dice (long range), with why.
    pub reroll: Option<(String, Vec<DieFace>)>,
    /// "→ 2 success(es)".
    pub result: String,
}

/// The dice of one event for the dice panel.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DiceReport {
    /// "Hussar banner fires at the musketeers".
    pub heading: String,
    /// "Defender's Fire — carbines".
    pub detail: String,
    pub rolls: Vec<RollReport>,
    /// The outcome in strong words: "2 hit(s), 1 Strength point(s) lost".
    pub outcome: Vec<String>,
}
