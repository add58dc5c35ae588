//! Passing through friendly units (BFS-AMV-3).

mod support;

use sandtable_bfs::command::MoveStep;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{MoraleLevel, OrderKind};
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use support::*;

/// Haiduks (fronts at y = 40, 2 cm deep) with pancerni 5 cm behind them, both facing north; the
/// pancerni have a Move order and side A is moving.
fn pancerni_behind_haiduks() -> Game {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 3, 3, (60.0, 40.0), 0.0),
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 35.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
    ]);
    set_order(&mut g, "pancerni", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    g
}

/// The pancerni ride 12 cm straight through the haiduks and clear them; then both take a Skill
/// test: the pancerni pass (1 against Skill 4), the haiduks fail (9 against Skill 5) and are
/// Disorganized.
#[test]
fn bfs_amv_3_through_friends_both_test_skill() {
    let mut g = pancerni_behind_haiduks();
    let (haiduks, pancerni) = (id(&g, "haiduks"), id(&g, "pancerni"));
    g.dice.script([1, 9]);
    let events = run(
        &mut g,
        Command::Move {
            unit: pancerni,
            steps: vec![MoveStep::Forward(12.0)],
        },
    );
    let moved = events
        .iter()
        .find_map(|e| match e {
            Event::Moved { description, .. } => Some(description.clone()),
            _ => None,
        })
        .unwrap();
    assert!(moved.contains("through"), "{moved}");
    let tests: Vec<(Option<sandtable_bfs::UnitId>, bool)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Test(t) if t.rule == "BFS-AMV-3" => Some((t.unit, t.roll.passed)),
            _ => None,
        })
        .collect();
    assert_eq!(tests, vec![(Some(pancerni), true), (Some(haiduks), false)]);
    assert_eq!(g.unit(haiduks).morale, MoraleLevel::Disorganized);
    assert_eq!(g.unit(pancerni).morale, MoraleLevel::Good);
    assert_eq!(g.dice.scripted_left(), 0);
}

/// The whole unit must get through in the one move: it may not end on top of them; and nobody
/// passes through a Disorganized unit.
#[test]
fn bfs_amv_3_all_the_way_through_and_never_through_the_disorganized() {
    let g = pancerni_behind_haiduks();
    let pancerni = id(&g, "pancerni");
    let halfway = Bfs::legal(
        &g,
        &Command::Move {
            unit: pancerni,
            steps: vec![MoveStep::Forward(6.0)],
        },
    )
    .unwrap_err();
    assert_eq!(halfway.rule, "BFS-AMV-3", "{}", halfway.message);
    let mut g = pancerni_behind_haiduks();
    let haiduks = id(&g, "haiduks");
    g.unit_mut(haiduks).morale = MoraleLevel::Disorganized;
    let blocked = Bfs::legal(
        &g,
        &Command::Move {
            unit: pancerni,
            steps: vec![MoveStep::Forward(12.0)],
        },
    )
    .unwrap_err();
    assert_eq!(blocked.rule, "BFS-AMV-3", "{}", blocked.message);
    assert!(
        blocked.message.contains("Disorganized"),
        "{}",
        blocked.message
    );
}
