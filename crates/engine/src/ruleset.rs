//! The seam between the engine (and the app, CLI and AI) and a ruleset.
//!
//! A ruleset is a pure, deterministic function of its state: `prompt` says who must decide what,
//! `legal` refuses what the rules forbid (naming the rule), `preview` shows costs and odds without
//! changing anything, `execute` applies a command and returns the events, and `view` removes what a
//! seat may not see. All randomness lives in the state, so replaying the commands reproduces the
//! game exactly.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// A player's seat: 0 or 1, in scenario side order.
pub type Seat = u8;

/// What the game is waiting for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    pub turn: u32,
    pub phase: String,
    pub step: String,
    /// Who must decide next; `None` once the game is over.
    pub seat: Option<Seat>,
    /// What is expected, in plain words.
    pub expected: String,
    /// True when the deciding seat's screen would show its own secrets, so a hot-seat screen must
    /// be handed over before it is shown.
    pub secret: bool,
}

/// A refused command: the rule that refuses it and a sentence a newcomer understands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{message} ({rule})")]
pub struct RuleError {
    pub rule: String,
    pub message: String,
}

impl RuleError {
    pub fn new(rule: &str, message: impl Into<String>) -> Self {
        Self {
            rule: rule.to_string(),
            message: message.into(),
        }
    }
}

pub trait Ruleset {
    /// The whole game, secrets and dice included.
    type State: Clone + Debug + Serialize + DeserializeOwned;
    type Command: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    type Event: Clone + Debug + Serialize;
    type Preview: Debug;
    /// What a save must hold to rebuild the opening position (scenario and army lists).
    type Setup: Clone + Debug + Serialize + DeserializeOwned;

    /// Identifier written in scenario and save files.
    const ID: &'static str;

    fn setup(setup: &Self::Setup, seed: u64) -> Result<Self::State, String>;
    fn prompt(state: &Self::State) -> Prompt;
    fn legal(state: &Self::State, cmd: &Self::Command) -> Result<(), RuleError>;
    fn preview(state: &Self::State, cmd: &Self::Command) -> Result<Self::Preview, RuleError>;
    /// Applies a legal command; refuses an illegal one without changing the state.
    fn execute(state: &mut Self::State, cmd: &Self::Command)
    -> Result<Vec<Self::Event>, RuleError>;
    /// The state as `seat` may see it: the other seat's secrets and the dice stream removed.
    fn view(state: &Self::State, seat: Seat) -> Self::State;
}
