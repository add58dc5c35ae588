//! Times every decision of the first player in one battle and prints the slowest by phase:
//! `SCENARIO=… cargo run --release -p sandtable-ai --example decision_times -- SEED PLAYERS`.
//! The criterion benches time fixed positions; this finds the slowest positions of a battle.

mod common;

use sandtable_bfs::Bfs;
use sandtable_engine::{Ruleset, Session};
use std::collections::BTreeMap;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let kinds = common::kinds(args.next());
    let mut s = Session::<Bfs>::new(common::default_setup(), seed).expect("setup");
    let mut players = common::players(&kinds, seed);
    // Per phase name: (decisions, total seconds, slowest seconds).
    let mut by_phase: BTreeMap<String, (usize, f64, f64)> = BTreeMap::new();
    while let Some(seat) = Bfs::prompt(s.state()).seat {
        let phase = format!("{:?}", s.state().turn.phase);
        let phase = phase
            .split([' ', '{', '('])
            .next()
            .unwrap_or("")
            .to_string();
        let t = Instant::now();
        let cmd = players[seat as usize]
            .choose_from(s.state(), seat)
            .expect("a command");
        let dt = t.elapsed().as_secs_f64();
        if seat == 0 {
            let e = by_phase.entry(phase).or_insert((0, 0.0, 0.0));
            e.0 += 1;
            e.1 += dt;
            e.2 = e.2.max(dt);
        }
        s.submit(cmd).expect("legal");
    }
    for (phase, (n, total, slowest)) in by_phase {
        println!(
            "{phase:16} {n:4} decisions, mean {:7.2} ms, slowest {:7.2} ms",
            1e3 * total / n as f64,
            1e3 * slowest
        );
    }
}
