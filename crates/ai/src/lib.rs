//! Computer players for any ruleset on the engine's seam. Every player sees only its seat's view
//! and decides by choosing among commands the rules accept, so it can never cheat or play an
//! illegal move.
//!
//! - [`ScriptedPlayer`]: the ruleset's fixed preferences, fully predictable (demos, screenshots);
//! - [`RandomPlayer`]: a uniform choice among legal commands (the baseline);
//! - [`PassivePlayer`]: standing orders, else the choice that decides nothing (tutorials);
//! - [`SearchPlayer`]: a one-ply search with a node budget, judged by the ruleset's
//!   [`Evaluate`] (the computer opponent), at a [`Level`]; chancy commands (a charge) are
//!   played out with sampled dice at the top level, and it says why it chose ([`Reasoning`],
//!   `Evaluate::why`);
//! - the frozen `baseline` ([`PlayerKind::Baseline`]): the opponent of 2026-11-26, kept in
//!   `sandtable-ai-baseline` as the yardstick.
//!
//! The search, the players, the battle loop and the travel fields know no ruleset; each ruleset's
//! evaluation lives in a module of its own ([`bfs`] for By Fire and Sword, [`napoleonic`] for the
//! Napoleonic quick-reference rules).

pub mod battle;
pub mod bfs;
pub mod evaluate;
pub mod field;
pub mod napoleonic;
pub mod passive;
pub mod player;
pub mod random;
pub mod scripted;
pub mod search;
pub mod setup;

pub use evaluate::{Chosen, Evaluate, Reasoning};
pub use passive::PassivePlayer;
pub use player::{AiPlayer, PlayerKind, any_player};
pub use random::RandomPlayer;
pub use scripted::ScriptedPlayer;
pub use search::{Level, SearchPlayer};
