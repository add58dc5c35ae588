//! Commanders with units: joining (BFS-CDR-12), leaving (BFS-CDR-14), riding with the unit and
//! escaping its destruction (BFS-CDR-15), the risk in its Armor tests (BFS-CDR-11) and what his
//! fall costs (BFS-CDR-18).

mod support;

use sandtable_bfs::attachment;
use sandtable_bfs::command::MoveStep;
use sandtable_bfs::event::{Event, TestKind};
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::state::{Game, OrderKind, UnitStatus};
use sandtable_bfs::{Bfs, Command};
use sandtable_engine::Ruleset;
use sandtable_geometry::{Pose, Rect, Vec2};
use support::*;

const COLONEL: CommanderId = CommanderId(0);

/// Haiduks and pancerni of side A with a Move order, the Polish colonel 10 cm behind the haiduks,
/// side A moving.
fn colonel_behind_his_men() -> Game {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (40.0, 40.0), 0.0),
        unit("pancerni", 0, "pancerni", 3, 3, (80.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 100.0), 180.0),
    ]);
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    set_order(&mut g, "pancerni", Some(OrderKind::Move));
    let c = g.commander_mut(COLONEL);
    c.base = Rect::new(Pose::new(Vec2::new(40.0, 26.5), 0.0), c.base.half);
    at_movement(&mut g, Side::A, false);
    g
}

fn attach(g: &mut Game, key: &str) {
    let u = id(g, key);
    g.commander_mut(COLONEL).attached_to = Some(u);
    g.unit_mut(u).attached = Some(COLONEL);
}

#[test]
fn bfs_cdr_12_a_commander_joins_a_unit_within_his_move_and_it_moves_no_more() {
    let mut g = colonel_behind_his_men();
    let haiduks = id(&g, "haiduks");
    let events = run(
        &mut g,
        Command::JoinUnit {
            commander: COLONEL,
            unit: haiduks,
        },
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::CommanderMoved { joined: Some(u), .. } if *u == haiduks
    )));
    assert_eq!(g.commander(COLONEL).attached_to, Some(haiduks));
    assert_eq!(g.unit(haiduks).attached, Some(COLONEL));
    let refused = Bfs::legal(
        &g,
        &Command::Move {
            unit: haiduks,
            steps: vec![MoveStep::Forward(2.0)],
        },
    );
    assert!(refused.is_err(), "the unit moves no more this turn");
    // He rides with it: his base sits just behind its rear rank.
    let frame = sandtable_bfs::geo::unit_frame(g.unit(haiduks));
    let c = g.commander(COLONEL).base.center();
    assert!((c.x - frame.center().x).abs() < 0.01, "{c:?}");
    assert!(c.y < frame.center().y - frame.half.y, "{c:?}");
}

#[test]
fn bfs_cdr_12_who_may_not_be_joined() {
    let mut g = colonel_behind_his_men();
    let (pancerni, reiters, haiduks) = (id(&g, "pancerni"), id(&g, "reiters"), id(&g, "haiduks"));
    // The pancerni are 40 cm away: beyond his Move of 20 cm.
    let far = attachment::check_join(&g, COLONEL, pancerni).unwrap_err();
    assert_eq!(far.rule, "BFS-CDR-12");
    assert!(far.message.contains("beyond his Move"), "{}", far.message);
    // Never an enemy unit.
    assert!(attachment::check_join(&g, COLONEL, reiters).is_err());
    // Not a unit with a Charge order not yet in contact.
    set_order(&mut g, "haiduks", Some(OrderKind::Charge));
    let charging = attachment::check_join(&g, COLONEL, haiduks).unwrap_err();
    assert!(
        charging.message.contains("Charge order"),
        "{}",
        charging.message
    );
    // Not after he has moved.
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    run(
        &mut g,
        Command::MoveCommander {
            commander: COLONEL,
            steps: vec![MoveStep::Forward(2.0)],
        },
    );
    assert!(attachment::check_join(&g, COLONEL, haiduks).is_err());
}

#[test]
fn bfs_cdr_14_he_leaves_before_the_unit_moves_from_its_middle() {
    let mut g = colonel_behind_his_men();
    attach(&mut g, "haiduks");
    let haiduks = id(&g, "haiduks");
    let middle = sandtable_bfs::geo::unit_frame(g.unit(haiduks)).center();
    run(
        &mut g,
        Command::LeaveUnit {
            commander: COLONEL,
            steps: vec![MoveStep::Forward(10.0)],
        },
    );
    assert_eq!(g.commander(COLONEL).attached_to, None);
    assert_eq!(g.unit(haiduks).attached, None);
    let at = g.commander(COLONEL).base.center();
    assert!(
        (at - (middle + Vec2::new(0.0, 10.0))).length() < 0.01,
        "{at:?}"
    );
    // The unit may still move.
    run(
        &mut g,
        Command::Move {
            unit: haiduks,
            steps: vec![MoveStep::Forward(2.0)],
        },
    );
    // Once the unit has moved, he may not leave it.
    let mut g = colonel_behind_his_men();
    attach(&mut g, "haiduks");
    run(
        &mut g,
        Command::Move {
            unit: haiduks,
            steps: vec![MoveStep::Forward(2.0)],
        },
    );
    let late = attachment::check_leave(&g, COLONEL, &[MoveStep::Forward(10.0)]).unwrap_err();
    assert_eq!(late.rule, "BFS-CDR-14");
}

/// More than one "0" in the unit's Armor tests: one Skill test for two zeros, two for three; a
/// failed test removes him and every friendly unit within 20 cm tests Morale, his own included.
#[test]
fn bfs_cdr_11_zeros_in_the_armor_tests_put_him_at_risk() {
    let mut g = colonel_behind_his_men();
    attach(&mut g, "haiduks");
    let haiduks = id(&g, "haiduks");
    // One zero: no test, no die rolled.
    let mut events = Vec::new();
    g.dice.script([]);
    assert!(!attachment::risk_to_attached(
        &mut g,
        haiduks,
        &[10, 3, 7],
        &mut events
    ));
    assert!(events.is_empty());
    // Three zeros: two tests, both passed (Skill 5).
    g.dice.script([5, 1]);
    assert!(!attachment::risk_to_attached(
        &mut g,
        haiduks,
        &[10, 10, 10],
        &mut events
    ));
    assert_eq!(g.dice.scripted_left(), 0);
    let tests = events
        .iter()
        .filter(
            |e| matches!(e, Event::Test(t) if t.kind == TestKind::Skill && t.rule == "BFS-CDR-11"),
        )
        .count();
    assert_eq!(tests, 2);
    assert_eq!(g.commander(COLONEL).status, UnitStatus::OnTable);
    // Two zeros, the test failed: he falls; the haiduks (the only unit within 20 cm) test Morale.
    let mut events = Vec::new();
    g.dice.script([6, 1]);
    assert!(attachment::risk_to_attached(
        &mut g,
        haiduks,
        &[10, 10],
        &mut events
    ));
    assert_eq!(g.commander(COLONEL).status, UnitStatus::Destroyed);
    assert_eq!(g.unit(haiduks).attached, None);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::CommanderLost { killed: true, .. }))
    );
    let morale: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Test(t) if t.kind == TestKind::Morale => Some(t.unit),
            _ => None,
        })
        .collect();
    assert_eq!(morale, vec![Some(haiduks)], "the pancerni are 28 cm away");
    assert_eq!(g.dice.scripted_left(), 0);
}

/// His unit destroyed around him: a Skill test at −2 (5 − 2 = 3). Passed, he gets away within
/// his Move and has no CP this turn or the next; failed, he is killed.
#[test]
fn bfs_cdr_15_escaping_a_destroyed_unit() {
    for (die, killed) in [(3u8, false), (4, true)] {
        let mut g = colonel_behind_his_men();
        attach(&mut g, "haiduks");
        let haiduks = id(&g, "haiduks");
        g.commander_mut(COLONEL).cp = 2;
        g.unit_mut(haiduks).status = UnitStatus::Destroyed;
        let before = g.commander(COLONEL).base.center();
        g.dice.script([die]);
        let mut events = Vec::new();
        attachment::keep_with_units(&mut g, &mut events);
        let c = g.commander(COLONEL);
        assert_eq!(c.attached_to, None);
        if killed {
            assert_eq!(c.status, UnitStatus::Destroyed, "die {die}");
        } else {
            assert_eq!(c.status, UnitStatus::OnTable);
            assert_eq!(c.cp, 0);
            assert_eq!(c.stunned_until_turn, g.turn.number + 1);
            let moved = (c.base.center() - before).length();
            assert!(moved <= 20.0 + 0.01, "within his Move: {moved}");
        }
    }
}

/// The selected commander's menu offers joining the units within his Move, and leaving the one he
/// is with (what the app shows; it draws whatever the ruleset hands it).
#[test]
fn bfs_cdr_12_14_the_commander_menu_offers_join_and_leave() {
    use sandtable_bfs::present::menu::menu;
    use sandtable_bfs::present::table::commander_piece;
    use sandtable_engine::present::MenuChoices;
    let g = colonel_behind_his_men();
    let m = menu(
        &g,
        0,
        Some(commander_piece(COLONEL)),
        None,
        &MenuChoices::default(),
    );
    let labels: Vec<&str> = m.items.iter().map(|i| i.label.as_str()).collect();
    assert!(
        labels.iter().any(|l| l.starts_with("Join haiduks")),
        "{labels:?}"
    );
    assert!(
        !labels.iter().any(|l| l.contains("pancerni")),
        "out of reach: {labels:?}"
    );
    let mut g = colonel_behind_his_men();
    attach(&mut g, "haiduks");
    let m = menu(
        &g,
        0,
        Some(commander_piece(COLONEL)),
        None,
        &MenuChoices::default(),
    );
    let leave = m
        .items
        .iter()
        .find(|i| i.label.starts_with("Leave haiduks"))
        .expect("a Leave item");
    assert!(Bfs::legal(&g, &leave.command).is_ok());
}

/// BFS-CDR-5: an enemy unit ends its move 1 cm from a lone commander; he rides clear at once to
/// more than 2 cm from it, by the shortest way (straight away from it).
#[test]
fn bfs_cdr_5_a_lone_commander_makes_way_for_the_enemy() {
    let mut g = colonel_behind_his_men();
    // The reiters' front rank stands 1 cm north of the colonel's base (north edge at y = 28).
    let reiters = id(&g, "reiters");
    let frame = sandtable_bfs::geo::unit_frame(g.unit(reiters));
    let front = frame.center().y - frame.half.y;
    let shift = Vec2::new(40.0 - frame.center().x, 29.0 - front);
    for b in &mut g.unit_mut(reiters).bases {
        *b = b.translated(shift);
    }
    let before = g.commander(COLONEL).base.center();
    let mut events = Vec::new();
    attachment::make_way(&mut g, &mut events);
    let after = g.commander(COLONEL).base;
    let gap = sandtable_geometry::distance::set_distance(
        std::slice::from_ref(&after),
        &g.unit(reiters).bases,
    )
    .unwrap();
    assert!(gap > 2.0 && gap < 2.1, "{gap}");
    assert!((after.center().x - before.x).abs() < 0.01, "straight back");
    assert!(after.center().y < before.y);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-CDR-5"))
    );
}

/// BFS-CDR-3: a unit may not end its move on a friendly commander's spot unless he joins it;
/// BFS-CDR-6: friends who flee or withdraw over him push him out of their way.
#[test]
fn bfs_cdr_3_6_friends_and_the_commanders_spot() {
    let mut g = colonel_behind_his_men();
    let haiduks = id(&g, "haiduks");
    let c = g.commander_mut(COLONEL);
    c.base = Rect::new(Pose::new(Vec2::new(40.0, 44.0), 0.0), c.base.half);
    let onto = Bfs::legal(
        &g,
        &Command::Move {
            unit: haiduks,
            steps: vec![MoveStep::Forward(4.0)],
        },
    )
    .unwrap_err();
    assert_eq!(onto.rule, "BFS-CDR-3", "{}", onto.message);
    // A flight carried the haiduks over him: he makes way, out of every base.
    let over = Vec2::new(0.0, 5.0);
    for b in &mut g.unit_mut(haiduks).bases {
        *b = b.translated(over);
    }
    let mut events = Vec::new();
    attachment::make_way(&mut g, &mut events);
    let at = g.commander(COLONEL).base;
    assert!(
        g.unit(haiduks)
            .bases
            .iter()
            .all(|b| !sandtable_engine::scenario_check::rects_overlap(b, &at))
    );
    let moved = (at.center() - Vec2::new(40.0, 44.0)).length();
    assert!(
        moved > 0.0 && moved <= 4.0,
        "out by the shortest way: {moved}"
    );
}
