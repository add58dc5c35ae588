//! Prints the melee edge table of the default battle at its start:
//! `cargo run -p sandtable-ai --example matchups`.

use sandtable_ai::eval::Matchups;
use sandtable_bfs::ids::Side;
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::Session;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios/01-mill-ford-skirmish.ron"),
        &root.join("assets/armies"),
    )
    .expect("scenario");
    let s = Session::<Bfs>::new(BattleSetup::from(&loaded), 1).expect("setup");
    let g = s.state();
    let m = Matchups::new(g, Side::A);
    for a in g.units_on_table(Side::A) {
        for b in g.units_on_table(Side::B) {
            println!(
                "{:>28} vs {:<28} {:+.2} / {:+.2}",
                a.name,
                b.name,
                m.edge(a.id, b.id),
                m.edge(b.id, a.id)
            );
        }
    }
}
