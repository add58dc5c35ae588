//! Charging a lone commander (BFS-CDR-7's charge half, BFS-CDR-8).

mod support;

use sandtable_bfs::command::CommanderReaction;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::{Bfs, Command, Game, UnitId};
use sandtable_engine::Ruleset;
use sandtable_geometry::{Pose, Rect, Vec2};
use support::*;

/// The Swedish commander (side B).
const SWEDE: CommanderId = CommanderId(1);

/// Pancerni (side A, front middle at (60, 40) facing north) with a Charge order, side A moving;
/// Swedish musketeers far off at y = 110; the Swedish commander alone, his base's middle at
/// (60, `at_y`) facing south.
fn charge_at(at_y: f32) -> (Game, UnitId) {
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("musketeers", 1, "musketeers", 3, 3, (60.0, 110.0), 180.0),
    ]);
    set_order(&mut g, "pancerni", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let half = g.commander(SWEDE).base.half;
    g.commander_mut(SWEDE).base =
        Rect::new(Pose::from_bearing_deg(Vec2::new(60.0, at_y), 180.0), half);
    let p = id(&g, "pancerni");
    (g, p)
}

fn charge(p: UnitId) -> Command {
    Command::ChargeCommander {
        unit: p,
        commander: SWEDE,
    }
}

fn answer(reaction: CommanderReaction) -> Command {
    Command::CommanderReacts {
        commander: SWEDE,
        reaction,
    }
}

/// BFS-CDR-7, BFS-CDR-9: he stands; the pancerni charge into contact and their bases touching him
/// strike with their close-combat dice at their Skill; each hit is tested against his Armor, and
/// an unsaved hit makes him test Skill. Whatever the dice, the strike's arithmetic holds.
#[test]
fn bfs_cdr_7_a_lone_commander_charged_is_struck_by_the_bases_that_reach_him() {
    let (mut g, p) = charge_at(52.0);
    assert_eq!(Bfs::legal(&g, &charge(p)), Ok(()));
    run(&mut g, charge(p));
    assert_eq!(Bfs::prompt(&g).seat, Some(Side::B.0), "the Swedes answer");
    assert!(Bfs::prompt(&g).expected.contains("BFS-CDR-8"));
    let events = run(&mut g, answer(CommanderReaction::Stand));
    let strike = events
        .iter()
        .find_map(|e| match e {
            Event::CommanderStruck(s) => Some(s.clone()),
            _ => None,
        })
        .expect("the pancerni reach him and strike");
    let prof = g.unit_profile(p);
    let group = &strike.groups[0];
    assert!(group.bases >= 1);
    assert_eq!(group.roll.plan.dice, group.bases * prof.close_combat as u32);
    assert_eq!(group.roll.plan.target, prof.skill as i32);
    assert_eq!(strike.hits, group.roll.successes);
    let saved: u32 = strike.armor.iter().map(|a| a.saved).sum();
    assert_eq!(strike.sp_lost, strike.hits - saved);
    let skill_tests = events
        .iter()
        .filter(|e| matches!(e, Event::Test(t) if t.cause.contains("cut down")))
        .count();
    if strike.sp_lost == 0 {
        assert_eq!(skill_tests, 0);
        let d = sandtable_geometry::distance::set_distance(
            &g.unit(p).bases,
            std::slice::from_ref(&g.commander(SWEDE).base),
        )
        .unwrap();
        assert!(d > 2.0 - 0.01, "unhurt, he makes way to 2 cm: {d}");
    } else {
        assert!(
            skill_tests >= 1,
            "an unsaved hit: a Skill test to escape or fall"
        );
    }
    assert!(g.unit(p).flags.charged && g.unit(p).flags.activated);
}

/// BFS-CDR-8 (AMB-95): he Breaks Off his full Move straight away from the charger and faces it
/// again; the pancerni's Basic Move no longer reaches him and strikes nothing.
#[test]
fn bfs_cdr_8_a_commander_breaks_off_his_full_move_away() {
    let (mut g, p) = charge_at(52.0);
    let before = g.commander(SWEDE).base.center();
    let reach = g.profile(g.commander(SWEDE).profile).movement.basic;
    run(&mut g, charge(p));
    let events = run(&mut g, answer(CommanderReaction::BreakOff));
    let after = g.commander(SWEDE).base;
    assert!(
        (after.center().distance(before) - reach).abs() < 0.01,
        "he rides his Move of {reach} cm: {:?} → {:?}",
        before,
        after.center()
    );
    assert!(
        (after.center().x - 60.0).abs() < 0.01,
        "straight away from the pancerni"
    );
    assert!(
        (after.pose.bearing_deg() - 180.0).abs() < 0.01,
        "facing the charger again"
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::CommanderStruck(_)))
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ChargeMoved { unit, .. } if *unit == p))
    );
}

/// BFS-CDR-7: only the closest target, only within 30 cm, only within the Basic Move; BFS-CDR-8:
/// joining a unit takes him out of the charger's sight, and the charger may choose again.
#[test]
fn bfs_cdr_7_closest_within_30_cm_and_bfs_cdr_8_joining_a_unit() {
    let (g, p) = charge_at(75.0);
    let e = Bfs::legal(&g, &charge(p)).unwrap_err();
    assert_eq!(e.rule, "BFS-CDR-7");
    assert!(e.message.contains("farther than 30 cm"), "{}", e.message);
    // A nearer enemy unit it could reach comes first.
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("musketeers", 1, "musketeers", 3, 3, (60.0, 50.0), 180.0),
    ]);
    set_order(&mut g, "pancerni", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let half = g.commander(SWEDE).base.half;
    g.commander_mut(SWEDE).base =
        Rect::new(Pose::from_bearing_deg(Vec2::new(80.0, 58.0), 180.0), half);
    let p = id(&g, "pancerni");
    assert_eq!(Bfs::legal(&g, &charge(p)).unwrap_err().rule, "BFS-CDR-7");
    // With the musketeers off to the side, within his Move, he may join them in answer.
    let mut g2 = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("musketeers", 1, "musketeers", 3, 3, (38.0, 60.0), 180.0),
    ]);
    set_order(&mut g2, "pancerni", Some(OrderKind::Charge));
    at_movement(&mut g2, Side::A, false);
    g2.commander_mut(SWEDE).base =
        Rect::new(Pose::from_bearing_deg(Vec2::new(58.0, 52.0), 180.0), half);
    let p = id(&g2, "pancerni");
    assert_eq!(Bfs::legal(&g2, &charge(p)), Ok(()));
    run(&mut g2, charge(p));
    let m = id(&g2, "musketeers");
    run(&mut g2, answer(CommanderReaction::Join(m)));
    assert_eq!(g2.commander(SWEDE).attached_to, Some(m));
    let u = g2.unit(p);
    assert!(
        !u.flags.charged && !u.flags.activated,
        "the pancerni may choose again"
    );
    assert_eq!(
        u.order,
        Some(OrderKind::Charge),
        "it sees the musketeers: it keeps its order"
    );
    // An older battle never offers the charge.
    let (mut old, p) = charge_at(52.0);
    old.info.options.rules_revision = 4;
    assert_eq!(Bfs::legal(&old, &charge(p)).unwrap_err().rule, "BFS-CDR-7");
}

/// BFS-SCN-30: a cowardly commander charged must avoid the charge: he may not stand, nor run to
/// a unit (he joins none); he rides away.
#[test]
fn bfs_scn_30_a_coward_charged_must_ride_away() {
    let (mut g, p) = charge_at(52.0);
    g.commander_mut(SWEDE).coward = true;
    run(&mut g, charge(p));
    let stand = Bfs::legal(&g, &answer(CommanderReaction::Stand)).unwrap_err();
    assert_eq!(stand.rule, "BFS-SCN-30");
    let m = id(&g, "musketeers");
    let join = Bfs::legal(&g, &answer(CommanderReaction::Join(m))).unwrap_err();
    assert_eq!(join.rule, "BFS-SCN-30");
    assert_eq!(Bfs::legal(&g, &answer(CommanderReaction::BreakOff)), Ok(()));
}
