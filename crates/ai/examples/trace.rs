//! Plays one battle between two players and prints it in words:
//! `cargo run -p sandtable-ai --example trace -- SEED ai,random` (`SCENARIO=…` for another battle).

mod common;

use sandtable_bfs::{Bfs, narrate};
use sandtable_engine::{Ruleset, Session};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let kinds = common::kinds(args.next());
    let setup = common::default_setup();
    let mut s = Session::<Bfs>::new(setup, seed).expect("setup");
    let mut players = common::players(&kinds, seed);
    // `LIMIT=N` stops after N commands, printing each (to see a battle that does not end).
    let limit: usize = std::env::var("LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let mut n = 0;
    while let Some(seat) = Bfs::prompt(s.state()).seat {
        n += 1;
        if n > limit {
            break;
        }
        let cmd = players[seat as usize]
            .choose_from(s.state(), seat)
            .expect("a command");
        if limit != usize::MAX {
            println!("[{seat}] {cmd:?}");
        }
        let events = s.submit(cmd).expect("legal").to_vec();
        for e in events {
            println!("[{}] {}", seat, narrate::describe(s.state(), &e));
        }
    }
}
