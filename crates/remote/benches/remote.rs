//! Criterion benches for remote play: a whole Task Force battle by email replayed and checked
//! (`pbem verify`), against the plain replay of the same commands in a session in the same run
//! (the ratio is the cost of the checks: signatures, commitments, stand-ins, public hashes).

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::{Ruleset, Seat};
use sandtable_remote::play_out::play_out;
use sandtable_remote::verify::verify;
use sandtable_remote::{Entropy, Identity};
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

/// A random player (a fixed xorshift), from its seat's view.
fn random(
    seed: u64,
) -> impl FnMut(&<Bfs as Ruleset>::State, Seat) -> Option<<Bfs as Ruleset>::Command> {
    let mut x = seed | 1;
    move |view, _| {
        let c = Bfs::candidates(view);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        c.get((x % c.len().max(1) as u64) as usize).cloned()
    }
}

fn benches(c: &mut Criterion) {
    let setup = setup("02-warka-task-force.ron");
    let mut files = Vec::new();
    let (mut a, mut b) = (random(3), random(4));
    let peers = play_out::<Bfs>(
        setup.clone(),
        [
            Identity::from_secret([1; 32]),
            Identity::from_secret([2; 32]),
        ],
        [Entropy::seeded(3, 0), Entropy::seeded(3, 1)],
        [&mut a, &mut b],
        |i, _, bytes| files.push((format!("turn-{i:04}.ron"), bytes.to_vec())),
    )
    .expect("the battle plays out");
    let session = peers[0].ledger().session().expect("began").clone();
    println!(
        "task force by email: {} files, {} commands",
        files.len(),
        session.len()
    );
    let mut grp = c.benchmark_group("task_force");
    grp.bench_function("pbem_verify", |bch| {
        bch.iter(|| black_box(verify::<Bfs>(&files).expect("verifies")))
    });
    // The same commands replayed in a session, the stirs included: the baseline.
    grp.bench_function("session_replay_baseline", |bch| {
        bch.iter(|| {
            let save = session.to_save();
            black_box(sandtable_engine::Session::<Bfs>::from_save(save, "bench").expect("replays"))
        })
    });
    grp.finish();
}

criterion_group! {
    name = remote;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(remote);
