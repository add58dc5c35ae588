//! Charges (BFS-CHG): targets, countercharges, failed charges, the obligation to charge.

mod support;

use sandtable_bfs::command::Reaction;
use sandtable_bfs::event::{Event, TestKind};
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::state::{MoraleLevel, OrderKind, PendingOrder};
use sandtable_bfs::turn::{CombatStage, Phase};
use sandtable_bfs::{Bfs, Command};
use sandtable_engine::Ruleset;
use support::*;

/// BFS-CHG-3/4: the closest enemy within the Basic Move must be charged; a commander with the
/// charger in range may pay 1 CP for another target.
#[test]
fn bfs_chg_3_closest_target_and_bfs_chg_4_paying_for_another() {
    let mut g = game(&[
        unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 40.0), 0.0),
        unit("near", 1, "reiters", 3, 3, (56.0, 52.0), 180.0),
        unit("far", 1, "musketeers", 4, 4, (72.0, 56.0), 180.0),
    ]);
    set_order(&mut g, "hussars", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let (h, near, far) = (id(&g, "hussars"), id(&g, "near"), id(&g, "far"));
    let err = Bfs::legal(
        &g,
        &Command::DeclareCharge {
            unit: h,
            target: far,
            pay: None,
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-CHG-3");
    assert!(
        Bfs::legal(
            &g,
            &Command::DeclareCharge {
                unit: h,
                target: near,
                pay: None
            }
        )
        .is_ok()
    );
    // The commander is in the far corner: out of range, so he cannot pay.
    assert_eq!(
        Bfs::legal(
            &g,
            &Command::DeclareCharge {
                unit: h,
                target: far,
                pay: Some(CommanderId(0))
            }
        )
        .unwrap_err()
        .rule,
        "BFS-CHG-4"
    );
    g.commander_mut(CommanderId(0)).base = g
        .commander(CommanderId(0))
        .base
        .translated(sandtable_geometry::Vec2::new(50.0, 25.0));
    assert!(
        Bfs::legal(
            &g,
            &Command::DeclareCharge {
                unit: h,
                target: far,
                pay: Some(CommanderId(0))
            }
        )
        .is_ok()
    );
}

/// BFS-CHG-22 example 1: reiters charge pancerni 30 cm away; both have 20 cm Basic Moves; the
/// halfway line is 15 cm from each, both move 15 cm and meet in the Movement Phase.
#[test]
fn bfs_chg_22_example_1_countercharge_meets_halfway() {
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 70.0), 180.0),
    ]);
    let (p, r) = (id(&g, "pancerni"), id(&g, "reiters"));
    set_order(&mut g, "reiters", Some(OrderKind::Charge));
    g.unit_mut(p).pending_order = Some(PendingOrder {
        kind: Some(OrderKind::Charge),
        issued_by: Some(CommanderId(0)),
        face_up: false,
    });
    at_movement(&mut g, Side::B, false);
    run(
        &mut g,
        Command::DeclareCharge {
            unit: r,
            target: p,
            pay: None,
        },
    );
    assert!(
        matches!(
            &g.turn.phase,
            Phase::Movement {
                charge: Some(_),
                ..
            }
        ),
        "the pancerni are asked"
    );
    assert_eq!(Bfs::prompt(&g).seat, Some(0));
    let e = run(
        &mut g,
        Command::React {
            unit: p,
            reaction: Reaction::Countercharge,
        },
    );
    let moved: Vec<(sandtable_bfs::UnitId, f32, Option<sandtable_bfs::UnitId>)> = e
        .iter()
        .filter_map(|x| {
            if let Event::ChargeMoved {
                unit,
                distance_cm,
                contact,
                ..
            } = x
            {
                Some((*unit, *distance_cm, *contact))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(moved[0].0, p, "the countercharger moves first");
    assert!((moved[0].1 - 15.0).abs() < 0.01, "{moved:?}");
    assert_eq!(moved[1].0, r);
    assert!((moved[1].1 - 15.0).abs() < 0.01, "{moved:?}");
    assert!(moved.iter().any(|m| m.2.is_some()), "they meet");
    assert_eq!(
        g.unit(p).order,
        Some(OrderKind::Charge),
        "revealed by the countercharge"
    );
}

/// BFS-CHG-22, the case checked against the book: 38 cm apart with 20 cm Basic Moves, the
/// halfway line is 19 cm from each; both move 19 cm and meet on it — the countercharger never
/// past the line (it once moved 19.5 cm and the charger 18.5 cm).
#[test]
fn bfs_chg_22_both_move_19_cm_and_meet_on_the_halfway_line() {
    let (g, p, r, e) = countercharged(40.0, 78.0);
    let moved = charge_moves(&e);
    assert_eq!(moved.len(), 2, "{moved:?}");
    assert_eq!((moved[0].0, moved[1].0), (p, r));
    assert!((moved[0].1 - 19.0).abs() < 0.01, "{moved:?}");
    assert!((moved[1].1 - 19.0).abs() < 0.01, "{moved:?}");
    let gap =
        sandtable_geometry::distance::set_distance(&g.unit(p).bases, &g.unit(r).bases).unwrap();
    assert!(gap < 0.01, "they meet: {gap}");
}

/// Pancerni (side A, front at `pancerni_y`, facing north) with a face-down Charge order are
/// charged by reiters (side B, front at `reiters_y`, facing south) and countercharge: the game
/// after it, the two units and the reaction's events.
fn countercharged(
    pancerni_y: f32,
    reiters_y: f32,
) -> (
    sandtable_bfs::Game,
    sandtable_bfs::UnitId,
    sandtable_bfs::UnitId,
    Vec<Event>,
) {
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, pancerni_y), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, reiters_y), 180.0),
    ]);
    let (p, r) = (id(&g, "pancerni"), id(&g, "reiters"));
    set_order(&mut g, "reiters", Some(OrderKind::Charge));
    g.unit_mut(p).pending_order = Some(PendingOrder {
        kind: Some(OrderKind::Charge),
        issued_by: Some(CommanderId(0)),
        face_up: false,
    });
    at_movement(&mut g, Side::B, false);
    run(
        &mut g,
        Command::DeclareCharge {
            unit: r,
            target: p,
            pay: None,
        },
    );
    let e = run(
        &mut g,
        Command::React {
            unit: p,
            reaction: Reaction::Countercharge,
        },
    );
    (g, p, r, e)
}

/// Who moved in a charge, and how far, in order.
fn charge_moves(events: &[Event]) -> Vec<(sandtable_bfs::UnitId, f32)> {
    events
        .iter()
        .filter_map(|x| match x {
            Event::ChargeMoved {
                unit, distance_cm, ..
            } => Some((*unit, *distance_cm)),
            _ => None,
        })
        .collect()
}

/// BFS-CHG-22 example 2: 50 cm apart, each moves 20 cm in the Movement Phase leaving a 10 cm gap;
/// in the Close Combat stage each moves another 5 cm and they meet.
#[test]
fn bfs_chg_22_example_2_countercharge_completes_in_the_additional_move() {
    let (mut g, p, r, e) = countercharged(30.0, 80.0);
    let moved: Vec<f32> = charge_moves(&e).into_iter().map(|m| m.1).collect();
    assert_eq!(moved.len(), 2);
    assert!(moved.iter().all(|d| (d - 20.0).abs() < 0.01), "{moved:?}");
    let gap =
        sandtable_geometry::distance::set_distance(&g.unit(p).bases, &g.unit(r).bases).unwrap();
    assert!((gap - 10.0).abs() < 0.01, "{gap}");
    at_combat(&mut g, CombatStage::CloseCombat);
    g.dice.script(std::iter::repeat_n(9, 40));
    let e = run(&mut g, Command::Continue);
    let add: Vec<(f32, bool)> = e
        .iter()
        .take_while(|x| !matches!(x, Event::Melee(_)))
        .filter_map(|x| {
            if let Event::ChargeMoved {
                distance_cm,
                contact,
                ..
            } = x
            {
                Some((*distance_cm, contact.is_some()))
            } else {
                None
            }
        })
        .collect();
    assert!(
        add.iter().any(|(_, c)| *c),
        "they meet in the Additional Move: {add:?}"
    );
    // Each moves another 5 cm: the countercharger to the halfway line, the charger onto it.
    assert_eq!(add.len(), 2, "{add:?}");
    assert!(add.iter().all(|(d, _)| (d - 5.0).abs() < 0.01), "{add:?}");
    assert!(
        e.iter()
            .any(|x| matches!(x, Event::Melee(m) if m.round == 1))
    );
}

/// BFS-CHG-24: a charger that fails to reach the enemy takes a Skill test; failing it is
/// Disorganized and, being cavalry, withdraws.
#[test]
fn bfs_chg_24_failed_charge_skill_test() {
    for (face, disorganized) in [(9u8, true), (2, false)] {
        let mut g = game(&[
            unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 20.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 70.0), 180.0),
        ]);
        let (h, r) = (id(&g, "hussars"), id(&g, "reiters"));
        set_order(&mut g, "hussars", Some(OrderKind::Charge));
        at_movement(&mut g, Side::A, false);
        run(
            &mut g,
            Command::DeclareCharge {
                unit: h,
                target: r,
                pay: None,
            },
        );
        at_combat(&mut g, CombatStage::CloseCombat);
        g.dice.script([face]);
        let e = run(&mut g, Command::Continue);
        let t = e
            .iter()
            .find_map(|x| {
                if let Event::Test(t) = x {
                    Some(t)
                } else {
                    None
                }
            })
            .expect("a Skill test");
        assert_eq!(t.kind, TestKind::Skill);
        assert_eq!(t.roll.target, 5);
        assert_eq!(g.unit(h).morale == MoraleLevel::Disorganized, disorganized);
        if disorganized {
            assert!(
                e.iter()
                    .any(|x| matches!(x, Event::Withdrew { unit, .. } if *unit == h)),
                "cavalry withdraw"
            );
        } else {
            assert!(
                g.unit(h).charge.as_ref().is_some_and(|c| c.carried_over),
                "keeps its charge into the next turn"
            );
        }
    }
}

/// BFS-CHG-27: a unit with a Charge order and an enemy in view must charge before the phase ends.
#[test]
fn bfs_chg_27_a_charge_order_must_be_carried_out() {
    let mut g = game(&[
        unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 70.0), 180.0),
    ]);
    set_order(&mut g, "hussars", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    assert_eq!(
        Bfs::legal(&g, &Command::EndMovement).unwrap_err().rule,
        "BFS-CHG-27"
    );
}

/// BFS-PSY-7: a one-base unit that would be Disorganized flees instead; a bigger unit drops one
/// level.
#[test]
fn bfs_psy_7_one_base_units_flee_instead() {
    let g = game(&[
        unit("lone", 1, "reiters", 1, 1, (60.0, 50.0), 180.0),
        unit("three", 1, "reiters", 3, 3, (20.0, 50.0), 180.0),
        unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 10.0), 0.0),
    ]);
    // Failed by 2: one level down.
    let roll = sandtable_bfs::dice::TestRoll {
        base_target: 5,
        modifiers: vec![],
        target: 5,
        face: Some(7),
        passed: false,
        failed_by: 2,
        rerolled: None,
    };
    assert_eq!(
        sandtable_bfs::morale::level_after(&g, id(&g, "lone"), &roll),
        MoraleLevel::Flight
    );
    assert_eq!(
        sandtable_bfs::morale::level_after(&g, id(&g, "three"), &roll),
        MoraleLevel::Disorganized
    );
}

/// BFS-TER-3: cavalry charging into a forest (very difficult terrain for it) stops after 5 cm.
#[test]
fn bfs_ter_3_a_charge_into_woods_is_slowed() {
    use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
    let wood = TerrainSpec {
        kind: TerrainKind::Forest,
        name: Some("wood".into()),
        shape: ShapeSpec::Rect {
            center: (60.0, 60.0),
            size: (40.0, 24.0),
            rotation: 0.0,
        },
    };
    // The wood spans y 48-72; the musketeers' front is 4 cm inside it (visible: sight reaches 5 cm
    // into woods), 6 cm from the hussars, who enter the wood after 2 cm.
    let (d, contact, e) = hussars_charge_musketeers(wood, 52.0);
    assert!(
        e.iter()
            .any(|x| matches!(x, Event::Ruling { rule, .. } if rule == "BFS-TER-3")),
        "{e:?}"
    );
    assert!(d <= 5.0 + 1e-3, "{d}");
    assert_eq!(
        contact, None,
        "6 cm away but only 5 cm of movement in the wood: it does not reach them"
    );
}

/// Hussars (front at y = 46, facing north) with a Charge order declare a charge at musketeers
/// facing them with their front at `musketeers_y`, `ground` about: the first Movement Phase
/// charge move (distance, contact) and every event.
fn hussars_charge_musketeers(
    ground: sandtable_engine::scenario::TerrainSpec,
    musketeers_y: f32,
) -> (f32, Option<sandtable_bfs::UnitId>, Vec<Event>) {
    let s = setup(
        &[
            unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 46.0), 0.0),
            unit(
                "musketeers",
                1,
                "musketeers",
                4,
                4,
                (60.0, musketeers_y),
                180.0,
            ),
        ],
        vec![ground],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    let (h, m) = (id(&g, "hussars"), id(&g, "musketeers"));
    set_order(&mut g, "hussars", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let e = run(
        &mut g,
        Command::DeclareCharge {
            unit: h,
            target: m,
            pay: None,
        },
    );
    let (d, contact) = e
        .iter()
        .find_map(|x| match x {
            Event::ChargeMoved {
                distance_cm,
                contact,
                ..
            } => Some((*distance_cm, *contact)),
            _ => None,
        })
        .expect("a charge move");
    (d, contact, e)
}

/// The charge of [`hussars_charge_musketeers`] at musketeers 15 cm off, across a strip of forest
/// (very difficult for cavalry) whose near edge lies `ahead` cm in front of the hussars.
fn charge_across_a_strip(ahead: f32) -> (f32, Option<sandtable_bfs::UnitId>, Vec<Event>) {
    use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
    let strip = TerrainSpec {
        kind: TerrainKind::Forest,
        name: Some("spinney".into()),
        shape: ShapeSpec::Rect {
            center: (60.0, 46.0 + ahead + 0.3),
            size: (30.0, 0.6),
            rotation: 0.0,
        },
    };
    hussars_charge_musketeers(strip, 61.0)
}

/// BFS-TER-3 (rules revision 14): a charge meets the ground on its way, not only where it ends.
/// A strip of forest 0.6 cm deep lies between the hussars and the musketeers 15 cm off. Reached
/// after 3 cm, it caps the move at 5 cm, though the whole charge would have ended clear of it;
/// reached after 8 cm, more than the cap, it stops the hussars at its edge.
#[test]
fn bfs_ter_3_a_charge_across_a_strip_of_forest_is_slowed() {
    // The hussars' ride from the strip `ahead` cm off: how far, and the BFS-TER-3 ruling saying so.
    for (ahead, travelled, says) in [
        (3.0, 5.0, "stops after 5.0 cm"),
        (8.0, 8.0, "stops at the edge"),
    ] {
        let (d, contact, e) = charge_across_a_strip(ahead);
        assert!((d - travelled).abs() < 0.01, "{ahead} cm off: {d}");
        assert_eq!(contact, None);
        assert!(
            e.iter().any(|x| matches!(x, Event::Ruling { rule, text } if rule == "BFS-TER-3" && text.contains(says))),
            "{e:?}"
        );
    }
}
