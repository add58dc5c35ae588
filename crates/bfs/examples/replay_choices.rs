//! Replays a property-test failure: `--example replay_choices -- SEED c1,c2,...`, printing every
//! command and event so a failing case can be read step by step.

use sandtable_bfs::candidates::candidates;
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::Session;
use std::path::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let choices: Vec<u16> = args
        .next()
        .unwrap_or_default()
        .split(',')
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    let limit: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(400);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios/01-mill-ford-skirmish.ron"),
        &root.join("assets/armies"),
    )
    .expect("scenario");
    let mut s = Session::<Bfs>::new(BattleSetup::from(&loaded), seed).expect("setup");
    for i in 0..limit {
        let c = candidates(s.state());
        if c.is_empty() || choices.is_empty() {
            break;
        }
        let pick = c[choices[i % choices.len()] as usize % c.len()].clone();
        println!("#{i} > {pick:?}");
        match s.submit(pick) {
            Ok(events) => {
                for e in events {
                    println!("    {e:?}");
                }
            }
            Err(e) => {
                println!("    REFUSED: {e}");
                break;
            }
        }
    }
}
