//! What the examples share: the default battle, the players named on the command line, and
//! their seeds (the same in every example, so a battle seen in `tally` can be traced).

// Each example uses part of this module.
#![allow(dead_code)]

use sandtable_ai::bfs::BfsEvaluation;
use sandtable_ai::{AiPlayer, PlayerKind};
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use std::path::Path;

/// The default battle, `scenarios/01-mill-ford-skirmish.ron`, or the one `$SCENARIO` names
/// (relative to the repository's root).
pub fn default_setup() -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file =
        std::env::var("SCENARIO").unwrap_or_else(|_| "scenarios/01-mill-ford-skirmish.ron".into());
    let loaded = load_scenario(&root.join(file), &root.join("assets/armies")).expect("scenario");
    BattleSetup::from(&loaded)
}

/// Players from a command-line argument such as `ai,random` (that one when absent).
pub fn kinds(arg: Option<String>) -> Vec<PlayerKind> {
    arg.unwrap_or_else(|| "ai,random".into())
        .split(',')
        .map(|s| s.parse().expect("player"))
        .collect()
}

/// The two players of battle `seed`.
pub fn players(kinds: &[PlayerKind], seed: u64) -> [AiPlayer<Bfs, BfsEvaluation>; 2] {
    [
        AiPlayer::new(kinds[0], seed * 31 + 1).unwrap(),
        AiPlayer::new(kinds[1], seed * 37 + 2).unwrap(),
    ]
}
