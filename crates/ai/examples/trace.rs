//! Plays one battle between two players and prints it in words:
//! `cargo run -p sandtable-ai --example trace -- SEED ai,random`.

use sandtable_ai::{Player, PlayerKind};
use sandtable_bfs::{BattleSetup, Bfs, load_scenario, narrate};
use sandtable_engine::{Ruleset, Session};
use std::path::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let kinds: Vec<PlayerKind> = args
        .next()
        .unwrap_or_else(|| "ai,random".into())
        .split(',')
        .map(|s| s.parse().expect("player"))
        .collect();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios/01-mill-ford-skirmish.ron"),
        &root.join("assets/armies"),
    )
    .expect("scenario");
    let mut s = Session::<Bfs>::new(BattleSetup::from(&loaded), seed).expect("setup");
    let mut players = [
        Player::new(kinds[0], seed * 31 + 1),
        Player::new(kinds[1], seed * 37 + 2),
    ];
    while let Some(seat) = Bfs::prompt(s.state()).seat {
        let cmd = players[seat as usize]
            .choose(s.state(), seat)
            .expect("a command");
        let events = s.submit(cmd).expect("legal").to_vec();
        for e in events {
            println!("[{}] {}", seat, narrate::describe(s.state(), &e));
        }
    }
}
