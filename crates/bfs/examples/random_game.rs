//! Plays a random legal game and prints what happened, one line per event: a quick look at the
//! rules in action. `cargo run -p sandtable-bfs --example random_game -- [seed]`

use sandtable_bfs::candidates::candidates;
use sandtable_bfs::{BattleSetup, Bfs, Event, load_scenario};
use sandtable_engine::Session;
use std::path::Path;

fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios/01-mill-ford-skirmish.ron"),
        &root.join("assets/armies"),
    )
    .expect("default scenario");
    let mut s = Session::<Bfs>::new(BattleSetup::from(&loaded), seed).expect("setup");
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for _ in 0..5000 {
        let c = candidates(s.state());
        if c.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        // Prefer doing something over ending the phase.
        let pick = if c.len() > 1 && !rng.is_multiple_of(4) {
            c[1 + (rng >> 8) as usize % (c.len() - 1)].clone()
        } else {
            c[0].clone()
        };
        let names: Vec<String> = s.state().units.iter().map(|u| u.name.clone()).collect();
        let events = s.submit(pick.clone()).expect("legal").to_vec();
        println!("> {pick:?}");
        for e in events {
            let line = match &e {
                Event::Volley(v) => format!(
                    "  volley {} -> {}: {} hits, {} SP",
                    match v.shooter {
                        sandtable_bfs::event::Piece::Unit(t) => names[t.index()].clone(),
                        sandtable_bfs::event::Piece::Commander(c) => format!("commander {}", c.0),
                    },
                    match v.target {
                        sandtable_bfs::event::Piece::Unit(t) => names[t.index()].clone(),
                        sandtable_bfs::event::Piece::Commander(c) => format!("commander {}", c.0),
                    },
                    v.hits,
                    v.sp_lost
                ),
                Event::Melee(m) => format!(
                    "  melee r{} {} -> {}: {} hits, {} SP",
                    m.round,
                    names[m.attacker.index()],
                    names[m.target.index()],
                    m.hits,
                    m.sp_lost
                ),
                Event::CombatResolved(r) => format!(
                    "  resolution r{}: {} vs {}, winner {:?} by {}",
                    r.round, r.sides[0].total, r.sides[1].total, r.winner, r.margin
                ),
                other => format!("  {other:?}").chars().take(200).collect(),
            };
            println!("{line}");
        }
    }
}
