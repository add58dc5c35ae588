//! Criterion benches for the computer player on the Napoleonic brigade action (issue 13: decide
//! within 100 ms at that scale). The decisions measured are the first activation of period 2
//! (every unit still to act, the most candidates) for each side; the random player's decision in
//! the same position is the baseline of the same run.

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable_ai::napoleonic::NapEvaluation;
use sandtable_ai::{AiPlayer, PlayerKind, RandomPlayer, SearchPlayer};
use sandtable_engine::files::{DataDirs, Files};
use sandtable_engine::{Player, Ruleset, Session};
use sandtable_napoleonic::state::Phase;
use sandtable_napoleonic::{Game, NapSetup, Napoleonic};
use std::hint::black_box;
use std::path::Path;

fn brigade_action() -> NapSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join("scenarios/10-rossbach-brigade-action.ron");
    let text = std::fs::read_to_string(&path).expect("scenario");
    Napoleonic::load_scenario(&path, &text, &DataDirs::under(&root.join("assets"))).expect("loads")
}

/// The view of whoever decides at the first activation of period 2, the AI playing both sides.
fn activation_decision(setup: &NapSetup) -> Game {
    let mut session = Session::<Napoleonic>::new(setup.clone(), 3).expect("setup");
    let mut players = [
        AiPlayer::<Napoleonic, NapEvaluation>::new(PlayerKind::AI, 1).unwrap(),
        AiPlayer::<Napoleonic, NapEvaluation>::new(PlayerKind::AI, 2).unwrap(),
    ];
    loop {
        let seat = Napoleonic::prompt(session.state())
            .seat
            .expect("the battle is on");
        let s = session.state();
        if s.period == 2
            && matches!(s.phase, Phase::Activation(a) if a.current.is_none() && a.left == 2)
        {
            return Napoleonic::view(s, seat);
        }
        let cmd = players[seat as usize]
            .choose_from(s, seat)
            .expect("a command");
        session.submit(cmd).expect("legal");
    }
}

fn decisions(c: &mut Criterion) {
    let setup = brigade_action();
    let view = activation_decision(&setup);
    c.bench_function("ai_decision_napoleonic_activation", |b| {
        b.iter(|| black_box(SearchPlayer::<Napoleonic, NapEvaluation>::new(1).decide(&view)))
    });
    c.bench_function("random_decision_napoleonic_activation", |b| {
        b.iter(|| {
            black_box(Player::<Napoleonic>::choose(
                &mut RandomPlayer::new(1),
                &view,
                0,
            ))
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = decisions
}
criterion_main!(benches);
