//! Criterion benches for the computer player (issue 7 targets: one decision at Task Force scale
//! within 100 ms; a whole 6-turn AI-against-AI Task Force battle within 1 s). The random player's
//! decision in the same position is the baseline of the same run; issue 17 adds the frozen
//! `baseline` player's decision and the levels, among them the general's decision where a charge
//! is on offer (each charge played out with sampled dice); issue 20 the coach's word on a
//! planned charge in that position.

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable_ai::battle::play;
use sandtable_ai::bfs::BfsEvaluation;
use sandtable_ai::{AiPlayer, Level, PlayerKind, RandomPlayer, SearchPlayer};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{BattleSetup, Bfs, Game, load_scenario};
use sandtable_engine::Player;
use sandtable_engine::{Ruleset, Session};
use std::hint::black_box;
use std::path::Path;

fn task_force() -> BattleSetup {
    scenario("02-warka-task-force.ron")
}

fn scenario(file: &str) -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load_scenario(
        &root.join("scenarios").join(file),
        &root.join("assets/armies"),
    )
    .expect("scenario");
    BattleSetup::from(&loaded)
}

/// The view of whoever decides at the first Movement Phase decision of turn 2, both sides played
/// by the AI until then: a position with every unit still to move.
fn movement_decision(setup: &BattleSetup) -> Game {
    decision_where(setup, |s| {
        s.turn.number == 2 && matches!(s.turn.phase, Phase::Movement { charge: None, .. })
    })
}

/// The view of whoever decides at the first Movement Phase decision with a charge on offer.
fn charge_decision(setup: &BattleSetup) -> Game {
    decision_where(setup, |s| {
        matches!(s.turn.phase, Phase::Movement { charge: None, .. })
            && Bfs::candidates(s)
                .iter()
                .any(|c| matches!(c, sandtable_bfs::command::Command::DeclareCharge { .. }))
    })
}

/// The view of whoever decides at the first position where `stop` holds, both sides played by
/// the AI until then.
fn decision_where(setup: &BattleSetup, stop: impl Fn(&Game) -> bool) -> Game {
    let mut session = Session::<Bfs>::new(setup.clone(), 3).expect("setup");
    let mut players = [
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 1).unwrap(),
        AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::AI, 2).unwrap(),
    ];
    loop {
        let seat = Bfs::prompt(session.state())
            .seat
            .expect("the battle is still on");
        let s = session.state();
        if stop(s) {
            return Bfs::view(s, seat);
        }
        let cmd = players[seat as usize]
            .choose_from(s, seat)
            .expect("a command");
        session.submit(cmd).expect("legal");
    }
}

fn decisions(c: &mut Criterion) {
    let setup = task_force();
    let view = movement_decision(&setup);
    c.bench_function("ai_decision_task_force_movement", |b| {
        b.iter(|| black_box(SearchPlayer::<Bfs, BfsEvaluation>::new(1).decide(&view)))
    });
    c.bench_function("random_decision_task_force_movement", |b| {
        b.iter(|| black_box(Player::<Bfs>::choose(&mut RandomPlayer::new(1), &view, 0)))
    });
    c.bench_function("baseline_decision_task_force_movement", |b| {
        b.iter(|| {
            let mut p = AiPlayer::<Bfs, BfsEvaluation>::new(PlayerKind::Baseline, 1).unwrap();
            black_box(Player::<Bfs>::choose(&mut p, &view, 0))
        })
    });
    // The veteran is `ai_decision_task_force_movement` above (the default level).
    for level in [Level::Recruit, Level::General] {
        c.bench_function(
            &format!("ai_{}_decision_task_force_movement", level.name()),
            |b| {
                b.iter(|| {
                    black_box(
                        SearchPlayer::<Bfs, BfsEvaluation>::new(1)
                            .at_level(level)
                            .decide(&view),
                    )
                })
            },
        );
    }
    // The book's largest level: 27 units a side (issue 15's target: 150 ms).
    let division = movement_decision(&scenario("04-division-sobota.ron"));
    c.bench_function("ai_decision_division_movement", |b| {
        b.iter(|| black_box(SearchPlayer::<Bfs, BfsEvaluation>::new(1).decide(&division)))
    });
    let charge = charge_decision(&setup);
    // The coach (issue 20) on a planned charge, against the decision in the same position: it
    // ranks only the charging unit's options, but plays each charge out with sampled dice.
    let seat = Bfs::deciding(&charge).expect("someone decides");
    let planned = Bfs::candidates(&charge)
        .into_iter()
        .find(|c| matches!(c, sandtable_bfs::command::Command::DeclareCharge { .. }))
        .expect("a charge");
    c.bench_function("coach_task_force_charge", |b| {
        b.iter(|| {
            black_box(SearchPlayer::<Bfs, BfsEvaluation>::new(1).coach(&charge, seat, &planned))
        })
    });
    for level in [Level::Veteran, Level::General] {
        c.bench_function(
            &format!("ai_{}_decision_task_force_charge", level.name()),
            |b| {
                b.iter(|| {
                    black_box(
                        SearchPlayer::<Bfs, BfsEvaluation>::new(1)
                            .at_level(level)
                            .decide(&charge),
                    )
                })
            },
        );
    }
}

fn battles(c: &mut Criterion) {
    let setup = task_force();
    c.bench_function("ai_vs_ai_battle_task_force", |b| {
        b.iter(|| {
            black_box(
                play::<Bfs, BfsEvaluation>(setup.clone(), 5, [PlayerKind::AI, PlayerKind::AI])
                    .expect("plays"),
            )
        })
    });
    c.bench_function("random_vs_random_battle_task_force", |b| {
        b.iter(|| {
            black_box(
                play::<Bfs, BfsEvaluation>(
                    setup.clone(),
                    5,
                    [PlayerKind::Random, PlayerKind::Random],
                )
                .expect("plays"),
            )
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = decisions, battles
}
criterion_main!(benches);
