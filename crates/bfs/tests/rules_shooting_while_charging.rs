//! Shooting while Charging (BFS-CC-6, BFS-SPC-31, BFS-WPN-6): step 3 of the Close Combat stage,
//! after Reaction Fire and before the First Round, with dice fixed where the outcome matters.

mod support;

use sandtable_bfs::event::Piece;

use sandtable_bfs::Command;
use sandtable_bfs::event::{Event, MeleeReport, VolleyReport};
use sandtable_bfs::ids::Side;
use sandtable_bfs::profile::{SpecialRule, UnitProfile};
use sandtable_bfs::state::{MoraleLevel, OrderKind};
use sandtable_bfs::weapons::RangedWeapon;
use sandtable_bfs::{Bfs, Game};
use sandtable_engine::Ruleset;
use support::*;

/// Swedish reiters (side B), their profile changed by `edit`, 15 cm in front of pancerni: they
/// charge, strike in the Movement Phase, and the game stands at the Close Combat stage.
fn reiters_charge_pancerni(edit: impl Fn(&mut UnitProfile)) -> Game {
    let mut s = setup(
        &[
            unit("pancerni", 0, "pancerni", 3, 3, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 65.0), 180.0),
        ],
        vec![],
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "reiters" {
            edit(p);
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    let (pancerni, reiters) = (id(&g, "pancerni"), id(&g, "reiters"));
    set_order(&mut g, "reiters", Some(OrderKind::Charge));
    at_movement(&mut g, Side::B, false);
    let struck = run(
        &mut g,
        Command::DeclareCharge {
            unit: reiters,
            target: pancerni,
            pay: None,
        },
    );
    assert!(
        struck
            .iter()
            .any(|e| matches!(e, Event::ChargeMoved { contact: Some(t), .. } if *t == pancerni)),
        "contact in the Movement Phase: 15 cm of 20"
    );
    run(&mut g, Command::EndMovement);
    run(&mut g, Command::EndMovement);
    run(&mut g, Command::Continue); // Defender's Fire: nobody has a Defense order
    g
}

fn volleys_while_charging(events: &[Event]) -> Vec<&VolleyReport> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Volley(v) if v.stage == "Shooting while Charging" => Some(v),
            _ => None,
        })
        .collect()
}

/// Reiters with the rule and Shooting 2: 1 die per base whatever the Shooting value (3 dice, not
/// 6), at Skill 4 − 1 for shooting in contact = 3; the pistol hit that the pancerni fail to save
/// lands before the First Round.
#[test]
fn bfs_cc_6_a_charger_with_the_rule_shoots_one_die_per_base_at_skill_minus_one() {
    let mut g = reiters_charge_pancerni(|p| {
        p.shooting = 2;
        p.special_rules.push(SpecialRule::ShootingWhileCharging);
    });
    let (pancerni, reiters) = (id(&g, "pancerni"), id(&g, "reiters"));
    g.dice.script([
        3, 4, 10, // three dice at 3: one hit
        9,  // pancerni armor 5: failed, 1 SP
    ]);
    let events = run(&mut g, Command::Continue);
    let v = volleys_while_charging(&events);
    assert_eq!(v.len(), 1, "one volley: {events:#?}");
    let v = v[0];
    assert_eq!(
        (v.shooter, v.target),
        (Piece::Unit(reiters), Piece::Unit(pancerni))
    );
    assert_eq!(v.groups.len(), 1);
    let plan = &v.groups[0].roll.plan;
    assert_eq!(plan.dice, 3, "1 die per base (BFS-CC-6)");
    assert_eq!(plan.target, 3, "Skill 4, −1 in contact (BFS-SHO-19)");
    assert!(plan.modifiers.iter().any(|m| m.delta == -1));
    assert_eq!((v.hits, v.sp_lost), (1, 1));
    // The volley's loss is on the table before the First Round's blows.
    let volley_at = events.iter().position(|e| matches!(e, Event::Volley(_)));
    let loss_at = events
        .iter()
        .position(|e| matches!(e, Event::Losses { unit, sp: 1, .. } if *unit == pancerni));
    let melee_at = events.iter().position(|e| matches!(e, Event::Melee(_)));
    assert!(volley_at < loss_at && loss_at < melee_at, "{events:#?}");
}

/// Units with thrown weapons always count as having the rule for them (BFS-WPN-6).
#[test]
fn bfs_wpn_6_javelins_always_shoot_while_charging() {
    let mut g = reiters_charge_pancerni(|p| p.ranged = Some(RangedWeapon::Javelins));
    let events = run(&mut g, Command::Continue);
    let v = volleys_while_charging(&events);
    assert_eq!(v.len(), 1, "{events:#?}");
    assert_eq!(v[0].weapon, "Javelins");
    assert_eq!(v[0].groups[0].roll.plan.dice, 3);
}

/// Without the rule (the house reiters' pistols) the charger does not shoot (BFS-SPC-31).
#[test]
fn bfs_spc_31_without_the_rule_a_charger_does_not_shoot() {
    let mut g = reiters_charge_pancerni(|_| {});
    let events = run(&mut g, Command::Continue);
    assert!(volleys_while_charging(&events).is_empty());
    assert!(events.iter().any(|e| matches!(e, Event::Melee(_))));
}

/// A target that loses a base to the volley and flees is not fought in the First Round, but is
/// pursued as if the charger had won a combat (BFS-CC-6, BFS-CC-28).
#[test]
fn bfs_cc_6_a_target_that_flees_from_the_volley_is_pursued_without_a_first_round() {
    let mut g =
        reiters_charge_pancerni(|p| p.special_rules.push(SpecialRule::ShootingWhileCharging));
    let (pancerni, reiters) = (id(&g, "pancerni"), id(&g, "reiters"));
    let per_base = g.unit_profile(pancerni).strength;
    g.unit_mut(pancerni).casualty_markers = per_base - 1;
    g.dice.script([
        1, 9, 9,  // one hit
        9,  // armor failed: the last SP of a base
        10, // Morale 5 − 1: failed by 6 or more → Flight
    ]);
    let events = run(&mut g, Command::Continue);
    assert!(
        events.iter().any(
            |e| matches!(e, Event::Losses { unit, bases_removed: 1, .. } if *unit == pancerni)
        ),
        "{events:#?}"
    );
    assert_eq!(g.unit(pancerni).morale, MoraleLevel::Flight);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Melee(MeleeReport { round: 1, .. }))),
        "no First Round: {events:#?}"
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Pursued { unit, .. } if *unit == reiters)),
        "the reiters pursue: {events:#?}"
    );
}
