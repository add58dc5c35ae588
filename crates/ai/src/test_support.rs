//! What the crate's unit tests share: the default battle at its start.

use sandtable_bfs::state::Game;
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::Session;
use std::path::Path;

/// The default battle (`scenarios/01-mill-ford-skirmish.ron`) before its first command.
pub fn default_battle() -> Game {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios/01-mill-ford-skirmish.ron"),
        &root.join("assets/armies"),
    )
    .expect("the default scenario loads");
    Session::<Bfs>::new(BattleSetup::from(&loaded), 1)
        .expect("setup")
        .state()
        .clone()
}
