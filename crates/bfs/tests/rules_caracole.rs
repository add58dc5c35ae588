//! The Caracole (BFS-SPC-4), rules revision 13: the first rank rides up to 10 cm out and fires in
//! Defender's Fire, the second and third ranks fire in Shooting after Movement from the first
//! rank's ranges, fire at the unit is at −1, a charge calls the first rank back, and it rides
//! back after the Combat Phase.

mod support;

use sandtable_bfs::command::MoveStep;
use sandtable_bfs::event::{Event, Piece, VolleyReport};
use sandtable_bfs::ids::{Side, UnitId};
use sandtable_bfs::profile::SpecialRule;
use sandtable_bfs::shooting::{FireStage, plan_volley};
use sandtable_bfs::state::{MoraleLevel, OrderKind};
use sandtable_bfs::turn::CombatStage;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use sandtable_geometry::Rect;
use support::*;

const CM: f32 = 0.01;

/// Winged hussars (side A, pistols of 5 cm) with the Caracole rule and a Defense order: 4 bases
/// 2 wide, so 2 ranks, the middle of their front at (60, 40) facing north; `enemy` (side B) with
/// the middle of its front at (60, `enemy_front`) facing south. Side A's Movement Phase, rules
/// revision `revision`.
fn hussars_facing(enemy: &'static str, enemy_front: f32, revision: u32) -> Game {
    hussars_deep(4, enemy, enemy_front, revision)
}

/// As [`hussars_facing`], with `bases` hussars 2 wide.
fn hussars_deep(bases: u8, enemy: &'static str, enemy_front: f32, revision: u32) -> Game {
    with_caracole(
        &[
            unit("hussars", 0, "winged-hussars", bases, 2, (60.0, 40.0), 0.0),
            unit("enemy", 1, enemy, 3, 3, (60.0, enemy_front), 180.0),
        ],
        revision,
    )
}

/// A game of `units` under `revision`, the winged hussars given the Caracole rule and the unit
/// "hussars" a Defense order, in side A's Movement Phase.
fn with_caracole(units: &[Placed], revision: u32) -> Game {
    let mut s = setup(units, vec![]);
    s.rules_revision = revision;
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "winged-hussars" {
            p.special_rules.push(SpecialRule::Caracole);
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "hussars", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    g
}

fn now() -> u32 {
    sandtable_bfs::revision::CURRENT
}

/// The hussars' bases whose front edge lies at `y`.
fn rank_at(g: &Game, h: UnitId, y: f32) -> Vec<Rect> {
    g.unit(h)
        .bases
        .iter()
        .filter(|b| (b.center().y + 1.5 - y).abs() < CM)
        .copied()
        .collect()
}

fn volleys_of(events: &[Event], shooter: UnitId) -> Vec<&VolleyReport> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Volley(v) if v.shooter == Piece::Unit(shooter) => Some(v),
            _ => None,
        })
        .collect()
}

/// BFS-SPC-4: the first rank rides 10 cm straight out and fires in Defender's Fire; the ranks
/// behind stay. 13 cm from the musketeers, the front rides to 3 cm of them: inside the pistols'
/// 5 cm, 2 bases, 2 dice. In Shooting after Movement the second and third ranks fire, 4 bases,
/// at the first rank's 3 cm. After the Combat Phase the first rank is home.
#[test]
fn bfs_spc_4_the_first_rank_rides_out_fires_and_the_rear_ranks_follow() {
    let mut g = hussars_deep(6, "musketeers", 53.0, now());
    let h = id(&g, "hussars");
    let home = g.unit(h).bases.clone();
    run(
        &mut g,
        Command::Caracole {
            unit: h,
            distance: 10.0,
        },
    );
    assert_eq!(rank_at(&g, h, 50.0).len(), 2, "the first rank rode 10 cm");
    assert_eq!(rank_at(&g, h, 37.0).len(), 2, "the second rank stayed");
    assert_eq!(rank_at(&g, h, 34.0).len(), 2, "the third rank stayed");
    assert!(g.unit(h).flags.activated);

    at_combat(&mut g, CombatStage::DefendersFire);
    let df = run(&mut g, Command::Continue);
    let first = volleys_of(&df, h);
    assert_eq!(first.len(), 1, "{df:?}");
    assert_eq!(first[0].groups.iter().map(|g| g.bases).sum::<u32>(), 2);
    assert!((first[0].groups[0].distance_cm - 3.0).abs() < CM);

    run(&mut g, Command::Continue); // Close Combat: nothing.
    let sam = run(&mut g, Command::Continue);
    let rear = volleys_of(&sam, h);
    assert_eq!(rear.len(), 1, "{sam:?}");
    assert_eq!(rear[0].groups.iter().map(|g| g.bases).sum::<u32>(), 4);
    assert!((rear[0].groups[0].distance_cm - 3.0).abs() < CM);
    // Back home after the Combat Phase.
    let u = g.unit(h);
    assert!(u.caracole.is_none());
    for (b, was) in u.bases.iter().zip(&home) {
        assert!(b.center().distance(was.center()) < CM);
    }
}

/// BFS-SPC-4: while the unit caracoles, fire at it is at −1, as at Open Order.
#[test]
fn bfs_spc_4_fire_at_a_caracoling_unit_is_at_minus_one() {
    let penalty = |g: &Game| {
        let scene = sandtable_bfs::geo::scene(g);
        plan_volley(g, &scene, id(g, "enemy"), FireStage::AfterMovement)
            .expect("a volley")
            .groups[0]
            .spec
            .modifiers
            .iter()
            .filter(|m| m.rule == "BFS-SPC-4" || m.rule == "BFS-SHO-8")
            .map(|m| m.delta)
            .sum::<i32>()
    };
    let mut g = hussars_facing("musketeers", 53.0, now());
    assert_eq!(penalty(&g), 0);
    let h = id(&g, "hussars");
    run(
        &mut g,
        Command::Caracole {
            unit: h,
            distance: 10.0,
        },
    );
    assert_eq!(penalty(&g), -1);
}

/// BFS-SPC-4: who may caracole: a Defense order, 2 ranks or more, good order, open ground, at most
/// 10 cm, the rule, and rules revision 13.
#[test]
fn bfs_spc_4_who_may_caracole() {
    let try_it = |g: &Game, d: f32| {
        let h = id(g, "hussars");
        Bfs::legal(
            g,
            &Command::Caracole {
                unit: h,
                distance: d,
            },
        )
        .map_err(|e| e.rule)
    };
    let g = hussars_facing("musketeers", 80.0, now());
    assert_eq!(try_it(&g, 10.0), Ok(()));
    assert_eq!(try_it(&g, 10.5), Err("BFS-SPC-4".into()));
    let mut moving = g.clone();
    set_order(&mut moving, "hussars", Some(OrderKind::Move));
    assert_eq!(try_it(&moving, 10.0), Err("BFS-SPC-4".into()));
    let mut shaken = g.clone();
    let h = id(&shaken, "hussars");
    shaken.unit_mut(h).morale = MoraleLevel::Disorganized;
    assert_eq!(try_it(&shaken, 10.0), Err("BFS-SPC-4".into()));
    assert_eq!(
        try_it(&hussars_facing("musketeers", 80.0, 12), 10.0),
        Err("BFS-SPC-4".into())
    );
    // Without the rule.
    let mut plain = g.clone();
    let h = id(&plain, "hussars");
    let p = plain.unit(h).profile;
    plain.profiles[p.index()]
        .special_rules
        .retain(|r| *r != SpecialRule::Caracole);
    assert_eq!(try_it(&plain, 10.0), Err("BFS-SPC-4".into()));
    // In contact with the enemy.
    let close = hussars_facing("musketeers", 40.0, now());
    let h = id(&close, "hussars");
    let why = Bfs::legal(
        &close,
        &Command::Caracole {
            unit: h,
            distance: 2.0,
        },
    )
    .unwrap_err();
    assert!(
        why.rule == "BFS-SPC-4" && why.message.contains("in contact"),
        "{why:?}"
    );
    // One rank: a Line 4 wide.
    let line = with_caracole(
        &[
            unit("hussars", 0, "winged-hussars", 4, 4, (60.0, 40.0), 0.0),
            unit("enemy", 1, "musketeers", 3, 3, (60.0, 100.0), 180.0),
        ],
        now(),
    );
    assert_eq!(try_it(&line, 10.0), Err("BFS-SPC-4".into()));
    // A caracole is the unit's move: once, and no move after it.
    let mut done = g.clone();
    let h = id(&done, "hussars");
    run(
        &mut done,
        Command::Caracole {
            unit: h,
            distance: 5.0,
        },
    );
    assert!(try_it(&done, 5.0).is_err());
    assert!(
        Bfs::legal(
            &done,
            &Command::Move {
                unit: h,
                steps: vec![MoveStep::Forward(1.0)]
            }
        )
        .is_err()
    );
}

/// BFS-SPC-4: a charge declared at a caracoling unit calls the first rank back at once; if the
/// charge reaches it all the same, it fights as Disorganized, with Poor Tactical Discipline.
#[test]
fn bfs_spc_4_a_charge_calls_the_first_rank_back() {
    let mut g = hussars_facing("reiters", 62.0, now());
    let h = id(&g, "hussars");
    let r = id(&g, "enemy");
    let home = g.unit(h).bases.clone();
    run(
        &mut g,
        Command::Caracole {
            unit: h,
            distance: 10.0,
        },
    );
    set_order(&mut g, "enemy", Some(OrderKind::Charge));
    at_movement(&mut g, Side::B, true);
    let events = charge_and_stand(&mut g, r, h, None);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ruling { rule, text }
            if rule == "BFS-SPC-4" && text.contains("interrupted"))),
        "{events:?}"
    );
    for (b, was) in g.unit(h).bases.iter().zip(&home) {
        assert!(b.center().distance(was.center()) < CM);
    }
    assert!(sandtable_bfs::caracole::disordered(&g, h));
    assert!(!sandtable_bfs::caracole::riding_out(&g, h));

    // The reiters reach it in their Additional Move: the hussars fight as Disorganized, with Poor
    // Tactical Discipline.
    at_combat(&mut g, CombatStage::DefendersFire);
    run(&mut g, Command::Continue);
    let fight = run(&mut g, Command::Continue);
    let resolved = fight
        .iter()
        .find_map(|e| match e {
            Event::CombatResolved(r) => Some(r),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no combat: {fight:?}"));
    let hussars = resolved
        .sides
        .iter()
        .find(|s| s.units.contains(&h))
        .expect("the hussars fight");
    assert!(
        hussars
            .modifiers
            .iter()
            .any(|m| m.delta == -1 && m.reason.contains("Poor Tactical Discipline")),
        "{:?}",
        hussars.modifiers
    );
}

/// BFS-SPC-4: the place the first rank left is held as the unit's: no other unit's move may end
/// in it. Light cavalry (Open Order, side A) beside the hussars may not shift into it.
#[test]
fn bfs_spc_4_no_other_unit_ends_in_the_place_the_first_rank_left() {
    let mut g = with_caracole(
        &[
            unit("hussars", 0, "winged-hussars", 4, 2, (60.0, 40.0), 0.0),
            unit("cossacks", 0, "cossack-cavalry", 1, 1, (72.0, 40.0), 0.0),
            unit("enemy", 1, "musketeers", 3, 3, (60.0, 53.0), 180.0),
        ],
        now(),
    );
    set_order(&mut g, "cossacks", Some(OrderKind::Move));
    let h = id(&g, "hussars");
    let c = id(&g, "cossacks");
    let into_the_gap = Command::Move {
        unit: c,
        steps: vec![MoveStep::Shift {
            dx: -10.0,
            dy: 0.0,
            degrees: 0.0,
        }],
    };
    assert!(
        Bfs::legal(&g, &into_the_gap).is_err(),
        "the hussars stand there"
    );
    run(
        &mut g,
        Command::Caracole {
            unit: h,
            distance: 10.0,
        },
    );
    assert_eq!(
        Bfs::legal(&g, &into_the_gap).map_err(|e| e.rule),
        Err("BFS-SPC-4".into())
    );
    // The whole ground the rank rode across is held, not only where it stood.
    let further_in = Command::Move {
        unit: c,
        steps: vec![MoveStep::Shift {
            dx: -10.0,
            dy: 5.0,
            degrees: 0.0,
        }],
    };
    assert_eq!(
        Bfs::legal(&g, &further_in).map_err(|e| e.rule),
        Err("BFS-SPC-4".into())
    );
}

/// BFS-SPC-4: the range of enemy fire is measured to the first rank while it is out. Musketeers
/// on the hussars' right, facing west, the middle of their front (x = 66) 2 cm from the second
/// rank's flank: 2.00 cm before the caracole. Once the first rank has ridden 10 cm out (y 47 to
/// 50), the nearest range is from the northern musketeer base's front midpoint (66, 39.5) to the
/// rank's corner (64, 47): √(2² + 7.5²) = 7.76 cm.
#[test]
fn bfs_spc_4_enemy_fire_measures_to_the_first_rank() {
    let mut g = with_caracole(
        &[
            unit("hussars", 0, "winged-hussars", 4, 2, (60.0, 40.0), 0.0),
            unit("enemy", 1, "musketeers", 3, 3, (66.0, 35.5), 270.0),
        ],
        now(),
    );
    let range = |g: &Game| {
        let scene = sandtable_bfs::geo::scene(g);
        plan_volley(g, &scene, id(g, "enemy"), FireStage::AfterMovement)
            .expect("a volley")
            .groups
            .iter()
            .map(|x| x.distance)
            .fold(f32::INFINITY, f32::min)
    };
    assert!((range(&g) - 2.0).abs() < CM, "{}", range(&g));
    let h = id(&g, "hussars");
    run(
        &mut g,
        Command::Caracole {
            unit: h,
            distance: 10.0,
        },
    );
    let want = (2.0f32 * 2.0 + 7.5 * 7.5).sqrt();
    assert!(
        (range(&g) - want).abs() < CM,
        "{} against {want}",
        range(&g)
    );
}
