//! A whole game played by picking the first legal candidate, to see the turn machine run.

use sandtable_bfs::candidates::candidates;
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::Session;
use std::path::Path;

#[test]
fn a_game_runs_to_the_end() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios/01-mill-ford-skirmish.ron"),
        &root.join("assets/armies"),
    )
    .unwrap();
    let mut s = Session::<Bfs>::new(BattleSetup::from(&loaded), 7).unwrap();
    let mut n = 0;
    let mut rng = 12345u64;
    while n < 3000 {
        let c = candidates(s.state());
        if c.is_empty() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let pick = c[(rng >> 33) as usize % c.len()].clone();
        s.submit(pick.clone())
            .unwrap_or_else(|e| panic!("{pick:?}: {e}"));
        n += 1;
    }
    eprintln!(
        "{n} commands, phase {:?}, turn {}",
        s.state().turn.phase.title(),
        s.state().turn.number
    );
    assert!(
        matches!(s.state().turn.phase, sandtable_bfs::turn::Phase::GameOver),
        "stuck at {:?}",
        s.state().turn.phase
    );
}
