//! Opponents for By Fire and Sword. Every player sees only its seat's view and decides by choosing
//! among commands the rules accept, so it can never cheat or play an illegal move.

pub mod scripted;

pub use scripted::ScriptedPlayer;
