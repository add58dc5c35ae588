//! Opponents for By Fire and Sword. Every player sees only its seat's view and decides by choosing
//! among commands the rules accept, so it can never cheat or play an illegal move.
//!
//! - [`ScriptedPlayer`]: fixed preferences, fully predictable (demos, screenshots, tests);
//! - [`RandomPlayer`]: a uniform choice among legal commands (the baseline);
//! - [`SearchPlayer`]: evaluation plus a one-ply search with a node budget (the computer opponent).

pub mod aim;
pub mod battle;
pub mod eval;
pub mod passive;
pub mod player;
pub mod random;
pub mod scripted;
pub mod search;
pub mod standing;
#[cfg(test)]
mod test_support;
pub mod travel;

pub use passive::PassivePlayer;
pub use player::{Player, PlayerKind};
pub use random::RandomPlayer;
pub use scripted::ScriptedPlayer;
pub use search::SearchPlayer;
