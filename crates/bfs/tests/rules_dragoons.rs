//! Dragoons (BFS-SPC-9): mounting and dismounting, horse holders, and fighting on horseback.

mod support;

use sandtable_bfs::command::{MoveStep, SpecialManeuver};
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::{Bfs, Command, Game, UnitId};
use sandtable_engine::Ruleset;
use support::*;

/// Polish dragoons, `bases` of them in one rank, front on y = 30 facing north, as `profile`, with
/// `order`, in the Poles' Movement Phase; Swedish musketeers 15 cm in front of them.
fn dragoons(profile: &'static str, bases: u8, order: OrderKind) -> (Game, UnitId) {
    let mut g = game(&[
        unit("dragoons", 0, profile, bases, bases, (40.0, 30.0), 0.0),
        unit("musketeers", 1, "musketeers", 4, 4, (40.0, 45.0), 180.0),
    ]);
    set_order(&mut g, "dragoons", Some(order));
    at_movement(&mut g, Side::A, false);
    let d = id(&g, "dragoons");
    (g, d)
}

fn front_y(g: &Game, u: UnitId) -> f32 {
    g.unit(u)
        .bases
        .iter()
        .map(|b| b.pose.pos.y + b.half.y)
        .fold(f32::MIN, f32::max)
}

fn maneuver(unit: UnitId, m: SpecialManeuver) -> Command {
    Command::Maneuver {
        unit,
        maneuvers: vec![m],
    }
}

/// BFS-SPC-9: with a Defense order, dismounting is a Special Maneuver: the unit takes its foot
/// profile (infantry, 4 × 2 cm bases, the front edge where it was) and keeps one base in four
/// holding the horses; a later turn it mounts again, back to 4 × 3 cm cavalry bases.
#[test]
fn bfs_spc_9_dismount_and_mount_again_with_a_defense_order() {
    let (mut g, d) = dragoons("polish-dragoons-mounted", 2, OrderKind::Defense);
    assert!(sandtable_bfs::dragoons::mounted(&g, d));
    run(
        &mut g,
        maneuver(d, SpecialManeuver::Dismount { keep_horses: true }),
    );
    assert_eq!(g.unit_profile(d).id, "polish-dragoons");
    assert!(!sandtable_bfs::dragoons::mounted(&g, d));
    assert_eq!(g.unit(d).bases.len(), 2);
    assert!(
        g.unit(d)
            .bases
            .iter()
            .all(|b| (b.half.y - 1.0).abs() < 1e-4)
    );
    assert!((front_y(&g, d) - 30.0).abs() < 0.01, "{}", front_y(&g, d));
    assert_eq!(sandtable_bfs::dragoons::holders(&g, d), 1);
    // The next turn it mounts again.
    g.unit_mut(d).flags = Default::default();
    run(&mut g, maneuver(d, SpecialManeuver::Mount));
    assert_eq!(g.unit_profile(d).id, "polish-dragoons-mounted");
    assert!(
        g.unit(d)
            .bases
            .iter()
            .all(|b| (b.half.y - 1.5).abs() < 1e-4)
    );
    assert!((front_y(&g, d) - 30.0).abs() < 0.01);
    assert_eq!(g.unit(d).dismounted, None);
}

/// BFS-SPC-9: horses sent away are gone for good, and a unit deployed on foot came without
/// them; horse holders attacked in close combat fight on foot, and the unit never mounts again.
#[test]
fn bfs_spc_9_who_may_mount_again() {
    let (mut g, d) = dragoons("polish-dragoons-mounted", 2, OrderKind::Defense);
    run(
        &mut g,
        maneuver(d, SpecialManeuver::Dismount { keep_horses: false }),
    );
    g.unit_mut(d).flags = Default::default();
    let e = Bfs::legal(&g, &maneuver(d, SpecialManeuver::Mount)).unwrap_err();
    assert_eq!(e.rule, "BFS-SPC-9");
    assert!(e.message.contains("never mounts again"), "{}", e.message);

    let (g, d) = dragoons("polish-dragoons", 2, OrderKind::Defense);
    let e = Bfs::legal(&g, &maneuver(d, SpecialManeuver::Mount)).unwrap_err();
    assert!(e.message.contains("on foot"), "{}", e.message);

    let (mut g, d) = dragoons("polish-dragoons-mounted", 2, OrderKind::Defense);
    run(
        &mut g,
        maneuver(d, SpecialManeuver::Dismount { keep_horses: true }),
    );
    // The musketeers come into contact with the dragoons' front.
    let m = id(&g, "musketeers");
    let dy = 30.0 - (g.unit(m).bases[0].pose.pos.y - g.unit(m).bases[0].half.y);
    g.unit_mut(m)
        .bases
        .iter_mut()
        .for_each(|b| b.pose.pos.y += dy);
    let mut events = Vec::new();
    sandtable_bfs::dragoons::horses_lost(&mut g, &mut events);
    assert_eq!(sandtable_bfs::dragoons::holders(&g, d), 0);
}

/// BFS-SPC-9, AMB-77: with a Move order the change is a Movement Maneuver paying the cost of the
/// state before it: 5 cm from horseback.
#[test]
fn bfs_spc_9_dismounting_with_a_move_order_costs_five_cm() {
    let (g, d) = dragoons("polish-dragoons-mounted", 2, OrderKind::Move);
    let plan = sandtable_bfs::phases::movement::check_move(
        &g,
        d,
        &[MoveStep::Dismount { keep_horses: true }],
    )
    .unwrap();
    assert!((plan.cost - 5.0).abs() < 1e-4);
    assert_eq!(plan.maneuvers, 1);
    let mut g = g;
    run(
        &mut g,
        Command::Move {
            unit: d,
            steps: vec![MoveStep::Dismount { keep_horses: true }],
        },
    );
    assert_eq!(g.unit_profile(d).id, "polish-dragoons");
    // Not as part of a longer move here.
    let (g, d) = dragoons("polish-dragoons-mounted", 2, OrderKind::Move);
    assert!(
        Bfs::legal(
            &g,
            &Command::Move {
                unit: d,
                steps: vec![MoveStep::Forward(2.0), MoveStep::Mount],
            },
        )
        .is_err()
    );
}

/// BFS-SPC-9: horse holders do not shoot (4 dismounted bases, 1 holding the horses: 3 fire), and
/// dragoons on horseback fight at −1 Skill.
#[test]
fn bfs_spc_9_horse_holders_do_not_shoot_and_riders_fight_at_minus_one() {
    let (mut g, d) = dragoons("polish-dragoons-mounted", 4, OrderKind::Defense);
    assert!(sandtable_bfs::dragoons::mounted_penalty(&g, d).is_some_and(|m| m.delta == -1));
    run(
        &mut g,
        maneuver(d, SpecialManeuver::Dismount { keep_horses: true }),
    );
    assert!(sandtable_bfs::dragoons::mounted_penalty(&g, d).is_none());
    let firing = |g: &Game| {
        let scene = sandtable_bfs::geo::scene(g);
        sandtable_bfs::shooting::plan_volley(
            g,
            &scene,
            d,
            sandtable_bfs::shooting::FireStage::DefendersFire,
        )
        .map_or(0, |p| p.groups.iter().map(|gr| gr.bases).sum::<u32>())
    };
    assert_eq!(firing(&g), 3);
    g.unit_mut(d).dismounted = None;
    assert_eq!(firing(&g), 4);
}
