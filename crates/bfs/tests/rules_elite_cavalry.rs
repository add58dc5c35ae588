//! Elite Cavalry (BFS-SPC-10), rules revision 13: a Close Order unit that moves and marches like
//! an Open Order one and ends its move in Close Order; shot at −1 and its Impetus capped at +1
//! while it holds a Charge order, unless it declares a Close Order charge for +2.

mod support;

use sandtable_bfs::command::{MoveStep, PivotCorner, TurnKind};
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{Side, UnitId};
use sandtable_bfs::preview::{Preview, preview};
use sandtable_bfs::profile::SpecialRule;
use sandtable_bfs::shooting::{FireStage, plan_volley};
use sandtable_bfs::state::{Formation, OrderKind};
use sandtable_bfs::turn::CombatStage;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use support::*;

const CM: f32 = 0.01;

/// Three bases of winged hussars (Move 20/+20) in a Line, the middle of their front at
/// (60, 40) facing north, with `order`; Swedish musketeers 30 cm ahead, facing them. The
/// hussars carry Elite Cavalry when `elite`; the battle is played under `revision`.
fn hussars(elite: bool, order: OrderKind, revision: u32) -> Game {
    with_hussars(
        &[
            unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 40.0), 0.0),
            unit("musketeers", 1, "musketeers", 3, 3, (60.0, 70.0), 180.0),
        ],
        elite,
        order,
        revision,
    )
}

/// A game of `units` under `revision`, the winged hussars carrying Elite Cavalry when `elite`,
/// the unit "hussars" holding `order`, in side A's Movement Phase.
fn with_hussars(units: &[Placed], elite: bool, order: OrderKind, revision: u32) -> Game {
    let mut s = setup(units, vec![]);
    s.rules_revision = revision;
    if elite {
        for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
            if p.id == "winged-hussars" {
                p.special_rules.push(SpecialRule::EliteCavalry);
            }
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "hussars", Some(order));
    at_movement(&mut g, Side::A, false);
    g
}

fn elite() -> Game {
    hussars(true, OrderKind::Move, sandtable_bfs::revision::CURRENT)
}

fn mv(unit: UnitId, steps: Vec<MoveStep>) -> Command {
    Command::Move { unit, steps }
}

/// The plan's cost (its tightest base), or the refusal's rule.
fn cost(g: &Game, cmd: &Command) -> Result<f32, String> {
    match preview(g, cmd) {
        Ok(Preview::Move(p)) => Ok(p.cost),
        Ok(other) => panic!("not a move: {other:?}"),
        Err(e) => Err(e.rule),
    }
}

fn close(cost: f32, want: f32) {
    assert!((cost - want).abs() < CM, "cost {cost}, want {want}");
}

/// BFS-SPC-10: Elite Cavalry moves like Open Order. A sideways shift of 5 cm, which a close-order
/// unit cannot make, costs each base 5 cm and leaves the Line as it was, 3 files wide; the same
/// hussars without the rule, or under revision 12, are refused it.
#[test]
fn bfs_spc_10_elite_cavalry_shifts_as_open_order_and_stays_in_close_order() {
    let mut g = elite();
    let h = id(&g, "hussars");
    let shift = mv(
        h,
        vec![MoveStep::Shift {
            dx: 5.0,
            dy: 0.0,
            degrees: 0.0,
        }],
    );
    close(cost(&g, &shift).unwrap(), 5.0);
    let before: Vec<_> = g.unit(h).bases.iter().map(|b| b.center()).collect();
    run(&mut g, shift.clone());
    let u = g.unit(h);
    assert_eq!(u.formation, Formation::Close { files: 3 });
    for (b, was) in u.bases.iter().zip(&before) {
        assert!((b.center().x - was.x - 5.0).abs() < CM && (b.center().y - was.y).abs() < CM);
    }
    assert_eq!(u.flags.maneuvers, 0);

    for g in [
        hussars(false, OrderKind::Move, sandtable_bfs::revision::CURRENT),
        hussars(true, OrderKind::Move, 12),
    ] {
        let refused = Bfs::legal(&g, &mv(h, shift_steps())).unwrap_err().rule;
        assert_ne!(refused, "BFS-SPC-10");
        assert!(Bfs::legal(&g, &Command::CloseOrderCharge { unit: h }).is_err());
    }
}

fn shift_steps() -> Vec<MoveStep> {
    vec![MoveStep::Shift {
        dx: 5.0,
        dy: 0.0,
        degrees: 0.0,
    }]
}

/// BFS-SPC-10: wheel and turn costs are ignored as in Open Order, but no part of a base goes
/// beyond its Move. A 45° wheel forward of the 12 cm Line about its front right corner costs the
/// path of the farthest corner, √(12² + 3²) × π/4 = 9.71 cm, and counts no maneuver. A turn left:
/// each base turns about its centre (its corners 2.5 cm out, 2.5 × π/2 = 3.93 cm) and goes
/// straight to its place in the Line turned about its middle (the outer ones √32 = 5.66 cm): at
/// most 9.58 cm, and it is still a Line of 3, now facing west. An about face: each base turns
/// in place, 2.5 × π = 7.85 cm, and the Line faces south.
#[test]
fn bfs_spc_10_wheels_and_turns_cost_only_the_corners_path() {
    let g = elite();
    let h = id(&g, "hussars");
    let wheel = mv(
        h,
        vec![MoveStep::Wheel {
            pivot: PivotCorner::FrontRight,
            degrees: 45.0,
        }],
    );
    close(
        cost(&g, &wheel).unwrap(),
        (12.0f32.powi(2) + 3.0f32.powi(2)).sqrt() * std::f32::consts::FRAC_PI_4,
    );
    let mut w = g.clone();
    run(&mut w, wheel);
    assert_eq!(w.unit(h).flags.maneuvers, 0);
    assert_eq!(w.unit(h).formation, Formation::Close { files: 3 });

    let turn = mv(h, vec![MoveStep::Turn(TurnKind::Left)]);
    close(
        cost(&g, &turn).unwrap(),
        2.5 * std::f32::consts::FRAC_PI_2 + 32.0f32.sqrt(),
    );
    let mut t = g.clone();
    run(&mut t, turn);
    let u = t.unit(h);
    assert_eq!(u.formation, Formation::Close { files: 3 });
    assert_eq!(u.flags.maneuvers, 0);
    let facing = sandtable_bfs::geo::frame_of(&u.bases).facing();
    assert!(
        (facing.x + 1.0).abs() < 1e-3 && facing.y.abs() < 1e-3,
        "{facing:?}"
    );

    let about = mv(h, vec![MoveStep::Turn(TurnKind::About)]);
    close(cost(&g, &about).unwrap(), 2.5 * std::f32::consts::PI);
    let mut a = g.clone();
    run(&mut a, about);
    assert_eq!(a.unit(h).formation, Formation::Close { files: 3 });
    let facing = sandtable_bfs::geo::frame_of(&a.unit(h).bases).facing();
    assert!((facing.y + 1.0).abs() < 1e-3, "{facing:?}");
}

/// BFS-SPC-10, the book's Example 1: a wide Line narrows by moving its bases straight to their
/// places. From 3 files to 2 the two left bases keep their places and the right one goes to the
/// middle of the second rank, √(6² + 3²) = 6.71 cm; no maneuver is counted.
#[test]
fn bfs_spc_10_narrowing_sets_each_base_straight_at_its_place() {
    let mut g = elite();
    let h = id(&g, "hussars");
    let narrow = mv(h, vec![MoveStep::Frontage(-1)]);
    close(cost(&g, &narrow).unwrap(), 45.0f32.sqrt());
    run(&mut g, narrow);
    assert_eq!(g.unit(h).formation, Formation::Close { files: 2 });
    assert_eq!(g.unit(h).flags.maneuvers, 0);
}

/// BFS-SPC-10: a move must leave the unit in Close Order: one base pushed 2 cm ahead of the
/// others is refused under the rule's ID, as is a base turned in place.
#[test]
fn bfs_spc_10_the_move_ends_in_close_order() {
    let g = elite();
    let h = id(&g, "hussars");
    for step in [
        MoveStep::ShiftBase {
            base: 0,
            dx: 0.0,
            dy: 2.0,
            degrees: 0.0,
        },
        MoveStep::ShiftBase {
            base: 2,
            dx: 0.0,
            dy: 0.0,
            degrees: 30.0,
        },
    ] {
        assert_eq!(cost(&g, &mv(h, vec![step])).unwrap_err(), "BFS-SPC-10");
    }
    // Moved one by one, all 4 cm ahead, they stand in a Line again.
    let each: Vec<MoveStep> = (0..3)
        .map(|base| MoveStep::ShiftBase {
            base,
            dx: 0.0,
            dy: 4.0,
            degrees: 0.0,
        })
        .collect();
    close(cost(&g, &mv(h, each)).unwrap(), 4.0);
}

/// BFS-SPC-10: it marches like an Open Order unit, so a Line may march without forming a Column
/// (BFS-MOV-15 refuses the same Line without the rule). The enemy is put 60 cm off (BFS-AMV-2).
#[test]
fn bfs_spc_10_marches_from_a_line() {
    let march = |elite: bool| {
        let mut g = hussars(elite, OrderKind::Move, sandtable_bfs::revision::CURRENT);
        let m = id(&g, "musketeers");
        for b in g.unit_mut(m).bases.iter_mut() {
            *b = b.translated(sandtable_geometry::Vec2::new(0.0, 40.0));
        }
        let h = id(&g, "hussars");
        Bfs::legal(&g, &mv(h, vec![MoveStep::March, MoveStep::Forward(25.0)])).map_err(|e| e.rule)
    };
    assert_eq!(march(true), Ok(()));
    assert_eq!(march(false), Err("BFS-MOV-15".to_string()));
}

/// The to-hit modifiers the musketeers' volley at the hussars carries for Open Order.
fn open_order_penalty(g: &Game) -> i32 {
    let scene = sandtable_bfs::geo::scene(g);
    let plan =
        plan_volley(g, &scene, id(g, "musketeers"), FireStage::AfterMovement).expect("a volley");
    plan.groups[0]
        .spec
        .modifiers
        .iter()
        .filter(|m| m.rule == "BFS-SPC-10" || m.rule == "BFS-SHO-8")
        .map(|m| m.delta)
        .sum()
}

/// BFS-SPC-10: while it holds a Charge order, all shooting at it is at −1, as if it were in Open
/// Order; not with a Move order, not after it declared a Close Order charge, and not without
/// the rule.
#[test]
fn bfs_spc_10_shot_at_minus_one_while_it_holds_a_charge_order() {
    let now = sandtable_bfs::revision::CURRENT;
    let charging = hussars(true, OrderKind::Charge, now);
    assert_eq!(open_order_penalty(&charging), -1);
    assert_eq!(open_order_penalty(&hussars(true, OrderKind::Move, now)), 0);
    assert_eq!(
        open_order_penalty(&hussars(false, OrderKind::Charge, now)),
        0
    );
    let mut declared = charging.clone();
    let h = id(&declared, "hussars");
    run(&mut declared, Command::CloseOrderCharge { unit: h });
    assert_eq!(open_order_penalty(&declared), 0);

    // In contact by its charge, before the First Round: still −1, for its target's Defender's
    // Fire; once it has fought, no longer.
    let mut contact = charging.clone();
    let m = id(&contact, "musketeers");
    let gap =
        sandtable_geometry::distance::set_distance(&contact.unit(h).bases, &contact.unit(m).bases)
            .unwrap();
    for b in contact.unit_mut(h).bases.iter_mut() {
        *b = b.translated(sandtable_geometry::Vec2::new(0.0, gap));
    }
    contact.unit_mut(h).charge = Some(sandtable_bfs::state::ChargeState {
        target: m,
        countercharge: false,
        start_distance: 30.0,
        straight_run: 30.0,
        contact: true,
        struck: None,
        carried_over: false,
        pursuit: false,
        through_field: false,
    });
    set_order(&mut contact, "musketeers", Some(OrderKind::Defense));
    let defenders_fire = |g: &Game| {
        let scene = sandtable_bfs::geo::scene(g);
        plan_volley(g, &scene, m, FireStage::DefendersFire)
            .expect("a volley")
            .groups[0]
            .spec
            .modifiers
            .iter()
            .filter(|x| x.rule == "BFS-SPC-10")
            .map(|x| x.delta)
            .sum::<i32>()
    };
    assert_eq!(defenders_fire(&contact), -1);
    contact.unit_mut(h).flags.fought = true;
    assert_eq!(defenders_fire(&contact), 0);
}

/// BFS-SPC-10: its Impetus is at most +1 as an Open Order charger's, though its +20 Additional
/// Move would give +2 (BFS-CC-14); a Close Order charge declared gives it +2.
#[test]
fn bfs_spc_10_impetus_plus_one_or_plus_two_with_a_close_order_charge() {
    let now = sandtable_bfs::revision::CURRENT;
    // The Impetus the combat gives the hussars, from what their Move and formation would give.
    let impetus = |g: &Game| {
        let h = id(g, "hussars");
        let by_move =
            sandtable_bfs::close_combat::impetus_bonus(g.unit_profile(h), g.unit(h).formation);
        assert_eq!(by_move, 2, "+20 Additional Move in close order");
        sandtable_bfs::elite_cavalry::impetus(g, h, by_move)
    };
    let mut g = hussars(true, OrderKind::Charge, now);
    assert_eq!(impetus(&g), 1);
    assert_eq!(impetus(&hussars(false, OrderKind::Charge, now)), 2);
    let h = id(&g, "hussars");
    run(&mut g, Command::CloseOrderCharge { unit: h });
    assert_eq!(impetus(&g), 2);
}

/// BFS-SPC-10: the Close Order charge is declared at the start of the Movement Phase, by Elite
/// Cavalry holding a Charge order, once: refused with a Move order, without the rule, twice, and
/// after the unit has charged.
#[test]
fn bfs_spc_10_who_may_declare_a_close_order_charge() {
    let now = sandtable_bfs::revision::CURRENT;
    let declare = |g: &Game| {
        let h = id(g, "hussars");
        Bfs::legal(g, &Command::CloseOrderCharge { unit: h }).map_err(|e| e.rule)
    };
    let mut g = hussars(true, OrderKind::Charge, now);
    assert_eq!(declare(&g), Ok(()));
    assert!(declare(&hussars(true, OrderKind::Move, now)).is_err());
    assert!(declare(&hussars(false, OrderKind::Charge, now)).is_err());
    let h = id(&g, "hussars");
    let m = id(&g, "musketeers");
    let mut twice = g.clone();
    run(&mut twice, Command::CloseOrderCharge { unit: h });
    assert!(declare(&twice).is_err());
    run(
        &mut g,
        Command::DeclareCharge {
            unit: h,
            target: m,
            pay: None,
        },
    );
    assert!(declare(&g).is_err());
}

/// Winged hussars, 4 bases in a Line (16 cm), Elite Cavalry with a Charge order, 10 cm from 2
/// bases of reiters (8 cm wide) facing them; side A's Movement Phase. `close`: a Close Order
/// charge declared first.
fn hussars_charging_reiters(close: bool) -> (Game, UnitId, UnitId) {
    let mut g = with_hussars(
        &[
            unit("hussars", 0, "winged-hussars", 4, 4, (60.0, 40.0), 0.0),
            unit("reiters", 1, "reiters", 2, 2, (60.0, 50.0), 180.0),
        ],
        true,
        OrderKind::Charge,
        sandtable_bfs::revision::CURRENT,
    );
    let (h, r) = (id(&g, "hussars"), id(&g, "reiters"));
    if close {
        run(&mut g, Command::CloseOrderCharge { unit: h });
    }
    charge_and_stand(&mut g, h, r, None);
    (g, h, r)
}

/// The hussars' bases that touch part of the reiters' front edge (x 56..64, y 50), not a
/// corner only.
fn on_the_front(g: &Game, h: UnitId) -> usize {
    g.unit(h)
        .bases
        .iter()
        .filter(|b| {
            let (lo, hi) = (b.center().x - b.half.x, b.center().x + b.half.x);
            let front = b.center().y + b.half.y;
            (front - 50.0).abs() < CM && hi.min(64.0) - lo.max(56.0) > CM
        })
        .count()
}

/// BFS-SPC-10, the book's example of the charge: Elite Cavalry charges base by base as Open
/// Order does, each base straight at an enemy base and never touching by a corner only. Against
/// Close Order cavalry 2 bases wide, 3 of its bases can be brought into contact, not 4: the 4
/// hussars end 3 abreast on the reiters' front (x 54..66, 2, 4 and 2 cm of it each) with the
/// fourth behind, a Line of 3. A Close Order charge strikes as a block: the middle 2 bases touch,
/// the outer two only by their corners.
#[test]
fn bfs_spc_10_the_charge_brings_three_bases_against_two() {
    let (g, h, _) = hussars_charging_reiters(false);
    assert_eq!(on_the_front(&g, h), 3, "{:?}", g.unit(h).bases);
    assert_eq!(g.unit(h).formation, Formation::Close { files: 3 });
    let mut xs: Vec<f32> = g
        .unit(h)
        .bases
        .iter()
        .filter(|b| (b.center().y + b.half.y - 50.0).abs() < CM)
        .map(|b| b.center().x)
        .collect();
    xs.sort_by(f32::total_cmp);
    for (x, want) in xs.iter().zip([56.0, 60.0, 64.0]) {
        assert!((x - want).abs() < CM, "{xs:?}");
    }
    let (block, h, _) = hussars_charging_reiters(true);
    assert_eq!(on_the_front(&block, h), 2, "{:?}", block.unit(h).bases);
}

/// BFS-SPC-10: at the start of each Movement Phase the unit may declare a Close Order charge, so
/// also in the enemy's, before it answers the enemy's charge with a countercharge. The hussars,
/// with a Charge order, are charged by reiters in side B's Movement Phase: asked to react, they
/// may declare it, then countercharge with +2 Impetus.
#[test]
fn bfs_spc_10_a_countercharge_may_be_a_close_order_charge() {
    let mut g = with_hussars(
        &[
            unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 40.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 58.0), 180.0),
        ],
        true,
        OrderKind::Charge,
        sandtable_bfs::revision::CURRENT,
    );
    let (h, r) = (id(&g, "hussars"), id(&g, "reiters"));
    set_order(&mut g, "reiters", Some(OrderKind::Charge));
    at_movement(&mut g, Side::B, true);
    // Not before it is asked.
    assert!(Bfs::legal(&g, &Command::CloseOrderCharge { unit: h }).is_err());
    run(
        &mut g,
        Command::DeclareCharge {
            unit: r,
            target: h,
            pay: None,
        },
    );
    run(&mut g, Command::CloseOrderCharge { unit: h });
    assert!(g.unit(h).flags.close_order_charge);
    run(
        &mut g,
        Command::React {
            unit: h,
            reaction: sandtable_bfs::vocab::Reaction::Countercharge,
        },
    );
    let by_move =
        sandtable_bfs::close_combat::impetus_bonus(g.unit_profile(h), g.unit(h).formation);
    assert_eq!(sandtable_bfs::elite_cavalry::impetus(&g, h, by_move), 2);
    assert!(g.unit(h).charge.as_ref().is_some_and(|c| c.countercharge));
}

/// BFS-SPC-10, the book's Example 3: bases that cannot close in during the Movement Phase may do
/// so in the Additional Move. The hussars' Line (x 46..62) charges reiters 2 bases wide (x 56..64)
/// 19.8 cm ahead: the block strikes with 2 bases; the third place on the front (x 62..66) is
/// 25.5 cm from where the farthest base set out, beyond its 20 cm, so nothing closes in yet. In
/// the Close Combat stage's Additional Move (+20 cm) it does: 3 bases on the reiters' front.
#[test]
fn bfs_spc_10_the_last_bases_close_in_with_the_additional_move() {
    let mut g = with_hussars(
        &[
            unit("hussars", 0, "winged-hussars", 4, 4, (54.0, 40.0), 0.0),
            unit("reiters", 1, "reiters", 2, 2, (60.0, 59.8), 180.0),
        ],
        true,
        OrderKind::Charge,
        sandtable_bfs::revision::CURRENT,
    );
    let (h, r) = (id(&g, "hussars"), id(&g, "reiters"));
    let on_front = |g: &Game| {
        g.unit(h)
            .bases
            .iter()
            .filter(|b| {
                let (lo, hi) = (b.center().x - b.half.x, b.center().x + b.half.x);
                (b.center().y + b.half.y - 59.8).abs() < CM && hi.min(64.0) - lo.max(56.0) > CM
            })
            .count()
    };
    charge_and_stand(&mut g, h, r, None);
    assert_eq!(on_front(&g), 2, "{:?}", g.unit(h).bases);
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    let closed = events.iter().any(|e| {
        matches!(e, Event::ChargeMoved { unit, description, .. }
        if *unit == h && description.contains("3 abreast"))
    });
    assert!(closed, "{events:?}");
}
