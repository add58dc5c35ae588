//! Criterion benches for the rules engine (issue 5 target: a random-legal 6-turn Task Force game
//! and its replay within 20 ms; issue 15: a Division battle's replay within 50 ms). The baseline
//! in the same run is the Skirmish battle, so the figures can be compared as a ratio on a noisy
//! machine.

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable_bfs::candidates::candidates;
use sandtable_bfs::{BattleSetup, Bfs, BfsSession, load_scenario};
use sandtable_engine::{Ruleset, Session};
use std::hint::black_box;
use std::path::Path;

fn setup(file: &str) -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios").join(file),
        &root.join("assets/armies"),
    )
    .expect("scenario");
    BattleSetup::from(&loaded)
}

/// A whole battle with every decision a uniform pick among the legal candidates (a fixed
/// xorshift, so every run plays the same battle).
fn random_battle(setup: &BattleSetup, seed: u64) -> BfsSession {
    let mut session = Session::<Bfs>::new(setup.clone(), seed).expect("setup");
    let mut state = seed | 1;
    while Bfs::prompt(session.state()).seat.is_some() {
        let options = candidates(session.state());
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let pick = options[(state % options.len() as u64) as usize].clone();
        session.submit(pick).expect("candidates are legal");
    }
    session
}

fn battles(c: &mut Criterion) {
    for (name, file) in [
        ("skirmish", "01-mill-ford-skirmish.ron"),
        ("task_force", "02-warka-task-force.ron"),
        ("division", "04-division-sobota.ron"),
    ] {
        let s = setup(file);
        c.bench_function(&format!("random_legal_battle_{name}"), |b| {
            b.iter(|| black_box(random_battle(&s, 7)))
        });
        let save = random_battle(&s, 7).to_save();
        c.bench_function(&format!("replay_{name}"), |b| {
            b.iter(|| black_box(Session::<Bfs>::from_save(save.clone(), "bench").expect("replays")))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = battles
}
criterion_main!(benches);
