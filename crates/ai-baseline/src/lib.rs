//! The computer opponent as it played on 2026-11-26 (commit e7630d5), frozen as the player
//! named `baseline`, so that every later AI can be measured against the same opponent
//! (issue 17: "clearly beats today's AI").
//!
//! **Do not improve this crate.** It is a copy of `sandtable-ai`'s search, travel fields and the
//! two rulesets' evaluations at that commit, with their tests removed (they stay with the live
//! AI). Change it only where the rules crates' API changes under it, and then so that it plays
//! the same: a baseline that drifts measures nothing. The rules themselves may change under it
//! (a new rules revision); that is the game changing, not the player.

// Tools the live AI uses to explain itself are copied along but unused here.
#![allow(dead_code)]

mod bfs;
mod evaluate;
mod field;
mod napoleonic;
mod search;

use sandtable_engine::Player;

/// The frozen player of By Fire and Sword.
pub fn bfs_player(seed: u64) -> impl Player<sandtable_bfs::Bfs> + 'static {
    search::SearchPlayer::<sandtable_bfs::Bfs, bfs::BfsEvaluation>::new(seed)
}

/// The frozen player of the Napoleonic quick-reference rules.
pub fn napoleonic_player(seed: u64) -> impl Player<sandtable_napoleonic::Napoleonic> + 'static {
    search::SearchPlayer::<sandtable_napoleonic::Napoleonic, napoleonic::NapEvaluation>::new(seed)
}
