//! The seam between the engine (and the app, CLI and AI) and a ruleset: the front door every
//! ruleset implements and the only one anything above the rules may use.
//!
//! Three traits, one concern each:
//!
//! - [`Ruleset`]: the rules themselves. A pure, deterministic function of the state: `prompt`
//!   says who must decide what, `legal` refuses what the rules forbid (naming the rule),
//!   `preview` shows costs and odds without changing anything, `execute` applies a command and
//!   returns the events, `view` removes what a seat may not see, `candidates` lists what a
//!   computer player may choose from. All randomness lives in the state, so replaying the
//!   commands reproduces the game exactly.
//! - [`crate::Present`]: what the app draws and offers (the table, menus, shapes, previews,
//!   narration, cards), described by the ruleset and drawn, never computed, by the app.
//! - [`crate::Teach`]: what lessons, guides and simple players need (names of commands and events,
//!   the move that waits, the scripted choice).
//!
//! [`crate::dynamic`] erases them behind one handle for the app; `docs/rulesets.md` shows how a
//! ruleset plugs in.

use crate::dice::Dice;
use crate::present::Outcome;
pub use crate::vocab::{RuleError, Seat};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// What the game is waiting for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    pub turn: u32,
    /// The battle's last turn, when it has one.
    #[serde(default)]
    pub turn_limit: Option<u32>,
    pub phase: String,
    pub step: String,
    /// Who must decide next; `None` once the game is over.
    pub seat: Option<Seat>,
    /// What is expected, in plain words (rule IDs in it become links).
    pub expected: String,
    /// True when the deciding seat's screen would show its own secrets, so a hot-seat screen must
    /// be handed over before it is shown.
    pub secret: bool,
}

/// The rules of one game.
pub trait Ruleset: Sized + Send + Sync + 'static {
    /// The whole game, secrets and dice included.
    type State: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Command: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;
    type Event: Clone + Debug + Serialize + Send + Sync + 'static;
    type Preview: Debug;
    /// What a save must hold to rebuild the opening position (scenario and army lists).
    type Setup: Clone + Debug + Serialize + DeserializeOwned + Send + Sync + 'static;

    /// Identifier written in scenario and save files.
    const ID: &'static str;
    /// The ruleset's name as players know it.
    const NAME: &'static str;

    fn setup(setup: &Self::Setup, seed: u64) -> Result<Self::State, String>;
    fn prompt(state: &Self::State) -> Prompt;
    /// The seat that decides now (`None` once nobody does): the prompt's seat. A session asks
    /// it around every command, replays included; a ruleset whose prompt is costly to word
    /// answers it directly.
    fn deciding(state: &Self::State) -> Option<Seat> {
        Self::prompt(state).seat
    }
    fn legal(state: &Self::State, cmd: &Self::Command) -> Result<(), RuleError>;
    fn preview(state: &Self::State, cmd: &Self::Command) -> Result<Self::Preview, RuleError>;
    /// Applies a legal command; refuses an illegal one without changing the state.
    fn execute(state: &mut Self::State, cmd: &Self::Command)
    -> Result<Vec<Self::Event>, RuleError>;
    /// The state as `seat` may see it: the other seat's secrets and the dice stream removed. The
    /// only judge of secrecy: menus, shapes, cards and computer players all start from it.
    fn view(state: &Self::State, seat: Seat) -> Self::State;
    /// The commands the deciding seat may choose from, for computer players (continuous choices
    /// such as move distances are sampled). Every one is legal.
    fn candidates(state: &Self::State) -> Vec<Self::Command>;

    /// Does the state hold a secret that one seat may see and the other not (a face-down order,
    /// a placed bid)? Then a hot-seat screen changing hands must fall behind a curtain.
    fn holds_secrets(state: &Self::State) -> bool;
    /// Does this event turn up something one side could not know before: a bid, a face-down
    /// order? A seat cannot take back, without the other's consent, a command that led to one.
    /// (A command that drew a die counts as revealing whatever its events say.)
    fn reveals(event: &Self::Event) -> bool;
    /// The game's dice, so that a consented take-back can re-draw them.
    fn dice_mut(state: &mut Self::State) -> &mut Dice;
    /// The result, once the battle is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;

    /// Remote play (`docs/remote.md`): the secret `cmd`, legal in `state`, keeps from the other
    /// seat until the rules turn it up (a face-down order, a bid), or `None` for a command whose
    /// whole content the other seat sees. The other side's machine never receives such a
    /// command before then: it gets a commitment and executes the [`Secret::stand_in`].
    fn secret(state: &Self::State, cmd: &Self::Command) -> Option<Secret<Self::Command>> {
        let _ = (state, cmd);
        None
    }
    /// Why a battle that opens on `state` cannot be played remotely yet, if it cannot: a
    /// secret the other seat's machine would need to check a command.
    fn remote_refusal(state: &Self::State) -> Option<String> {
        let _ = state;
        None
    }
    /// The keys of the secrets ([`Secret::keys`]) that `event` turns up; `before` is the state
    /// before the command that produced it.
    fn opened_by(before: &Self::State, event: &Self::Event) -> Vec<String> {
        let _ = (before, event);
        Vec::new()
    }
}

/// What a secret command shows the other seat until it is turned up.
#[derive(Debug, Clone, PartialEq)]
pub struct Secret<C> {
    /// Name the secret among those not yet turned up ("order:u12", "bid:1"; a group order names
    /// each unit's): it is opened when an event names any of them ([`Ruleset::opened_by`]).
    pub keys: Vec<String>,
    /// A legal command with the same public effect (the marker placed, the points spent) and
    /// a fixed content in place of the secret one. Executed in its place by the other seat's
    /// machine; no part of the state that seat may see may depend on which it was.
    pub stand_in: C,
}
