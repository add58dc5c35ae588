//! Prints the melee edge table of the default battle at its start:
//! `cargo run -p sandtable-ai --example matchups`.

mod common;

use sandtable_ai::bfs::eval::Matchups;
use sandtable_bfs::Bfs;
use sandtable_bfs::ids::Side;
use sandtable_engine::Session;

fn main() {
    let setup = common::default_setup();
    let s = Session::<Bfs>::new(setup, 1).expect("setup");
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
