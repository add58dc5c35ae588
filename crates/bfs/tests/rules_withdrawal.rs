//! Withdrawing through friends, and Disorganization spreading (BFS-PSY-18).

mod support;

use sandtable_bfs::event::Event;
use sandtable_bfs::flight::withdraw;
use sandtable_bfs::state::{Game, MoraleLevel};
use sandtable_geometry::Vec2;
use sandtable_geometry::distance::set_distance;
use support::*;

/// Pancerni (Move 20: a withdrawal of 10 cm) with their front at y = 40 facing north, haiduks
/// (bases 2 cm deep) 2 cm behind them.
fn pancerni_before_haiduks() -> Game {
    let g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("haiduks", 0, "haiduks", 3, 3, (60.0, 35.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
    ]);
    let p = id(&g, "pancerni");
    let rear = g
        .unit(p)
        .bases
        .iter()
        .map(|b| b.center().y - b.half.y)
        .fold(f32::MAX, f32::min);
    assert!(
        (rear - 37.0).abs() < 0.01,
        "pancerni bases are 3 cm deep: rear at {rear}"
    );
    g
}

fn tests_of(events: &[Event]) -> Vec<(sandtable_bfs::UnitId, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Test(t) if t.rule == "BFS-PSY-18" => Some((t.unit.unwrap(), t.roll.passed)),
            _ => None,
        })
        .collect()
}

/// BFS-PSY-18: neither Disorganized, the pancerni withdraw their full 10 cm straight through
/// the haiduks, and nobody tests.
#[test]
fn bfs_psy_18_withdrawing_through_good_friends() {
    let mut g = pancerni_before_haiduks();
    let (p, h) = (id(&g, "pancerni"), id(&g, "haiduks"));
    let mut events = Vec::new();
    let went = withdraw(&mut g, p, Vec2::new(0.0, -1.0), "test", &mut events);
    assert!((went - 10.0).abs() < 0.01, "{went}");
    assert!(tests_of(&events).is_empty());
    let gap = set_distance(&g.unit(p).bases, &g.unit(h).bases).unwrap();
    assert!(gap > 0.01, "clear of the haiduks: {gap}");
}

/// BFS-PSY-18: Disorganized, the pancerni stop in contact with the haiduks (2 cm), and the
/// haiduks test Skill: a 9 against Skill 5 fails, and they are Disorganized too.
#[test]
fn bfs_psy_18_a_disorganized_unit_stops_and_spreads_it() {
    let mut g = pancerni_before_haiduks();
    let (p, h) = (id(&g, "pancerni"), id(&g, "haiduks"));
    g.unit_mut(p).morale = MoraleLevel::Disorganized;
    g.dice.script([9]);
    let mut events = Vec::new();
    let went = withdraw(&mut g, p, Vec2::new(0.0, -1.0), "test", &mut events);
    assert!((went - 2.0).abs() < 0.01, "{went}");
    assert_eq!(tests_of(&events), vec![(h, false)]);
    assert_eq!(g.unit(h).morale, MoraleLevel::Disorganized);
}

/// BFS-PSY-18: withdrawing into Disorganized haiduks, the pancerni stop and test themselves: a
/// 1 passes against Skill 4.
#[test]
fn bfs_psy_18_into_a_disorganized_friend_the_withdrawing_unit_tests() {
    let mut g = pancerni_before_haiduks();
    let (p, h) = (id(&g, "pancerni"), id(&g, "haiduks"));
    g.unit_mut(h).morale = MoraleLevel::Disorganized;
    g.dice.script([1]);
    let mut events = Vec::new();
    let went = withdraw(&mut g, p, Vec2::new(0.0, -1.0), "test", &mut events);
    assert!((went - 2.0).abs() < 0.01, "{went}");
    assert_eq!(tests_of(&events), vec![(p, true)]);
    assert_eq!(g.unit(p).morale, MoraleLevel::Good);
}
