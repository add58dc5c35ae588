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
        let before = s.state().clone();
        match s.submit(pick) {
            Ok(events) => {
                for e in events {
                    println!("    {e:?}");
                }
                // Report the first overlap between two units, with their gap before the command.
                let g = s.state();
                let live: Vec<_> = g
                    .units
                    .iter()
                    .filter(|u| u.status == sandtable_bfs::state::UnitStatus::OnTable)
                    .collect();
                for (k, a) in live.iter().enumerate() {
                    for b in &live[k + 1..] {
                        if a.bases.iter().any(|x| {
                            b.bases
                                .iter()
                                .any(|y| sandtable_engine::scenario_check::rects_overlap(x, y))
                        }) {
                            let gap = sandtable_geometry::distance::set_distance(
                                &before.unit(a.id).bases,
                                &before.unit(b.id).bases,
                            )
                            .unwrap_or(-1.0);
                            println!("!! OVERLAP {} / {} (gap before: {gap:.4})", a.name, b.name);
                            println!(
                                "   before {:?}\n   after  {:?}\n   other  {:?}",
                                before.unit(a.id).bases,
                                a.bases,
                                b.bases
                            );
                            return;
                        }
                    }
                }
            }
            Err(e) => {
                println!("    REFUSED: {e}");
                break;
            }
        }
    }
}
