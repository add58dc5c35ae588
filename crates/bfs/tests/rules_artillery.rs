//! Artillery (BFS-ART, BFS-SPC-1): cannonball and case-shot, their dice and the choice between
//! them, the crews that are destroyed rather than flee, Quick Loading, the organ gun, and guns
//! that limber, move and march.

mod support;

use sandtable_bfs::artillery::Ammunition;
use sandtable_bfs::command::{MoveStep, SpecialManeuver};
use sandtable_bfs::event::{Band, Event};
use sandtable_bfs::ids::Side;
use sandtable_bfs::profile::UnitProfile;
use sandtable_bfs::shooting::{self, FireStage};
use sandtable_bfs::state::{MoraleLevel, OrderKind, UnitStatus};
use sandtable_bfs::turn::CombatStage;
use sandtable_bfs::weapons::RangedWeapon;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use support::*;

/// A game of `units` with the profile `profile` changed by `edit`.
fn edited(units: &[Placed], profile: &str, edit: impl Fn(&mut UnitProfile)) -> Game {
    let mut s = setup(units, vec![]);
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == profile {
            edit(p);
        }
    }
    Bfs::setup(&s, 1).unwrap()
}

/// Arms an artillery profile with another gun of the table, with its Shooting and Move.
fn armed_with(p: &mut UnitProfile, gun: sandtable_bfs::artillery::Gun) {
    let s = gun.stats();
    p.ranged = Some(RangedWeapon::Gun(gun));
    p.shooting = s.shooting;
    p.movement.basic = s.moves_as.moves_cm().0.unwrap_or(0.0);
}

/// The Swedish 12 pdr (side B) 60 cm in front of 4 bases of haiduks standing `files` wide and
/// facing `facing`.
fn twelve_pounder_at_haiduks(files: u8, facing: f32) -> Game {
    game(&[
        unit("gun", 1, "twelve-pounder", 1, 1, (60.0, 100.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, files, (60.0, 40.0), facing),
    ])
}

fn gun_dice(g: &Game) -> (Ammunition, Vec<u32>, Band) {
    let plan = sandtable_bfs::preview::volley(g, id(g, "gun"), FireStage::DefendersFire)
        .expect("the gun has a target");
    assert_eq!(plan.groups.len(), 1);
    (
        plan.ammunition().expect("a gun names its load"),
        plan.groups[0].spec.dice_per_base.clone(),
        plan.groups[0].band,
    )
}

/// BFS-ART-4: a cannonball rolls the gun's dice (3 for the 12 pdr) but no more than the ranks of
/// a Close Order target fired on from its front; from a flank always the full dice; at 60 cm it
/// is Effective range (65 cm) and beyond case-shot's 50 cm.
#[test]
fn bfs_art_4_cannonball_dice_are_capped_by_the_ranks_from_the_front() {
    let line_2 = twelve_pounder_at_haiduks(2, 0.0);
    assert_eq!(
        gun_dice(&line_2),
        (Ammunition::Cannonball, vec![2], Band::Effective),
        "2 ranks"
    );
    let column = twelve_pounder_at_haiduks(1, 0.0);
    assert_eq!(gun_dice(&column).1, vec![3], "4 ranks: the full 3 dice");
    let line_1 = twelve_pounder_at_haiduks(4, 0.0);
    assert_eq!(gun_dice(&line_1).1, vec![1], "one rank");
    // The same one-rank line turned to face east: the gun stands on its flank.
    let flank = twelve_pounder_at_haiduks(4, 90.0);
    assert_eq!(gun_dice(&flank).1, vec![3], "the full dice from the flank");
}

/// BFS-ART-1, BFS-ART-4, BFS-SHO-8: a gun shot at is a one-base Open Order unit: a cannonball
/// rolls 1 die at it, needing Skill − 1.
#[test]
fn bfs_art_1_a_gun_is_a_one_base_open_order_target() {
    let g = game(&[
        unit("gun", 1, "twelve-pounder", 1, 1, (60.0, 100.0), 180.0),
        unit("falconet", 0, "falconet", 1, 1, (60.0, 40.0), 0.0),
    ]);
    let plan = sandtable_bfs::preview::volley(&g, id(&g, "gun"), FireStage::DefendersFire)
        .expect("a target");
    assert_eq!(plan.groups[0].spec.dice_per_base, vec![1]);
    assert!(
        plan.groups[0]
            .spec
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-SHO-8" && m.delta == -1)
    );
}

/// BFS-ART-5 and BFS-ART-3: the book's regimental gun at haiduks 20 cm away fires case-shot, 2
/// dice at Effectiveness 3 with no reroll (one band, A-6), because the rules' odds give it more
/// than cannonball's 1 die; at 40 cm, beyond case-shot's 30 cm, it fires cannonball at
/// Effectiveness 8.
#[test]
fn bfs_art_5_case_shot_within_its_range_cannonball_beyond() {
    let at = |gap: f32| {
        game(&[
            unit("gun", 1, "regimental-gun", 1, 1, (60.0, 50.0 + gap), 180.0),
            unit("haiduks", 0, "haiduks", 4, 2, (60.0, 50.0), 0.0),
        ])
    };
    let near = at(20.0);
    let plan =
        sandtable_bfs::preview::volley(&near, id(&near, "gun"), FireStage::DefendersFire).unwrap();
    let g = &plan.groups[0];
    assert_eq!(plan.ammunition().unwrap(), Ammunition::CaseShot);
    assert_eq!(g.spec.dice_per_base, vec![2]);
    assert_eq!(g.spec.reroll, sandtable_bfs::dice::Reroll::None);
    assert_eq!(
        g.armor_mods.iter().map(|m| m.delta).collect::<Vec<_>>(),
        vec![-3]
    );
    let far = at(40.0);
    let plan =
        sandtable_bfs::preview::volley(&far, id(&far, "gun"), FireStage::DefendersFire).unwrap();
    assert_eq!(plan.ammunition().unwrap(), Ammunition::Cannonball);
    assert_eq!(plan.groups[0].spec.dice_per_base, vec![1]);
    assert_eq!(
        plan.groups[0]
            .armor_mods
            .iter()
            .map(|m| m.delta)
            .collect::<Vec<_>>(),
        vec![-8]
    );
}

/// The regimental gun with a Defense order and the haiduks 20 cm away, in Defender's Fire.
fn regimental_gun_in_defenders_fire() -> Game {
    let mut g = game(&[
        unit("gun", 1, "regimental-gun", 1, 1, (60.0, 70.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 2, (60.0, 50.0), 0.0),
    ]);
    set_order(&mut g, "gun", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::DefendersFire);
    g
}

/// BFS-ART-6: case-shot that takes 1 Strength point off the haiduks (no base lost) makes them
/// test Morale. Dice: 2 and 9 to hit (Skill 4: one hit), 5 for the armor (Armor 3 − 3: no save),
/// 3 for the Morale test (passed).
#[test]
fn bfs_art_6_a_unit_that_loses_strength_to_case_shot_tests_morale() {
    let mut g = regimental_gun_in_defenders_fire();
    g.dice.script([2, 9, 5, 3]);
    let events = run(&mut g, Command::Continue);
    let volley = events
        .iter()
        .find_map(|e| match e {
            Event::Volley(v) => Some(v),
            _ => None,
        })
        .expect("the gun fires");
    assert!(volley.weapon.contains("case-shot"), "{}", volley.weapon);
    assert_eq!(volley.sp_lost, 1);
    let haiduks = id(&g, "haiduks");
    assert_eq!(g.unit(haiduks).casualty_markers, 1);
    assert!(
        events.iter().any(
            |e| matches!(e, Event::Test(t) if t.rule == "BFS-ART-6" && t.unit == Some(haiduks))
        ),
        "a Morale test for the case-shot"
    );
    assert_eq!(g.dice.scripted_left(), 0);
}

/// BFS-ART-7: a light gun with a Defense order that fired in Defender's Fire fires again in
/// Shooting after Movement; the Swedish 12 pdr, a heavy gun, does not.
#[test]
fn bfs_art_7_quick_loading_fires_twice_under_a_defense_order() {
    let mut g = regimental_gun_in_defenders_fire();
    g.dice.script([9, 9]);
    run(&mut g, Command::Continue);
    let gun = id(&g, "gun");
    assert!(g.unit(gun).flags.shot);
    assert!(shooting::shoots_in(&g, gun, FireStage::AfterMovement));
    let plan = sandtable_bfs::preview::volley(&g, gun, FireStage::AfterMovement).unwrap();
    assert!(
        plan.groups[0].spec.modifiers.is_empty(),
        "no −1 for the second shot"
    );

    let mut heavy = game(&[
        unit("gun", 1, "twelve-pounder", 1, 1, (60.0, 70.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 2, (60.0, 50.0), 0.0),
    ]);
    set_order(&mut heavy, "gun", Some(OrderKind::Defense));
    at_combat(&mut heavy, CombatStage::DefendersFire);
    heavy.dice.script([9, 9, 9, 9]);
    run(&mut heavy, Command::Continue);
    let gun = id(&heavy, "gun");
    assert!(heavy.unit(gun).flags.shot);
    assert!(!shooting::shoots_in(&heavy, gun, FireStage::AfterMovement));
}

/// BFS-ART-10: the organ gun fires case-shot at effective range (3 + 1 dice) and never in the
/// turn after it fired.
#[test]
fn bfs_art_10_the_organ_gun_fires_every_second_turn() {
    let mut g = edited(
        &[
            unit("gun", 1, "regimental-gun", 1, 1, (60.0, 70.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 2, (60.0, 50.0), 0.0),
        ],
        "regimental-gun",
        |p| armed_with(p, sandtable_bfs::artillery::Gun::OrganGun),
    );
    let gun = id(&g, "gun");
    let plan = sandtable_bfs::preview::volley(&g, gun, FireStage::DefendersFire).unwrap();
    assert_eq!(plan.ammunition().unwrap(), Ammunition::CaseShot);
    assert_eq!(plan.groups[0].spec.dice_per_base, vec![4]);
    set_order(&mut g, "gun", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::DefendersFire);
    g.turn.number = 1;
    g.dice.script([9, 9, 9, 9]);
    run(&mut g, Command::Continue);
    assert_eq!(g.unit(gun).gun.unwrap().last_fired_turn, Some(1));
    assert!(
        !shooting::shoots_in(&g, gun, FireStage::AfterMovement),
        "no Quick Loading for the organ gun"
    );
    g.unit_mut(gun).flags = Default::default();
    g.turn.number = 2;
    assert!(!shooting::shoots_in(&g, gun, FireStage::DefendersFire));
    g.turn.number = 3;
    assert!(shooting::shoots_in(&g, gun, FireStage::DefendersFire));
}

/// BFS-ART-1: gun crews never become Disorganized nor flee: sent to either, they are destroyed.
#[test]
fn bfs_art_1_crews_are_destroyed_instead_of_disorganized() {
    for to in [MoraleLevel::Disorganized, MoraleLevel::Flight] {
        let mut g = regimental_gun_in_defenders_fire();
        let gun = id(&g, "gun");
        let mut events = Vec::new();
        sandtable_bfs::flight::apply_level(&mut g, gun, to, "a test", None, &mut events);
        assert_eq!(g.unit(gun).status, UnitStatus::Destroyed);
        assert!(g.unit(gun).bases.is_empty());
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::UnitDestroyed { rule, .. } if rule == "BFS-ART-1"))
        );
    }
}

/// BFS-ART-16 and BFS-ART-12: limbering a light gun is 1 Special Maneuver; limbered, it moves
/// 15 cm under a Move order and cannot fire; manhandled it moves 10 cm. The 12 pdr (moving as a
/// medium gun) needs 2 Special Maneuvers and moves 5 cm manhandled.
#[test]
fn bfs_art_16_limbered_guns_move_at_the_horses_pace_and_cannot_fire() {
    let mut g = game(&[
        unit("gun", 1, "regimental-gun", 1, 1, (60.0, 100.0), 180.0),
        unit("big", 1, "twelve-pounder", 1, 1, (30.0, 100.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 2, (60.0, 20.0), 0.0),
    ]);
    set_order(&mut g, "gun", Some(OrderKind::Defense));
    set_order(&mut g, "big", Some(OrderKind::Defense));
    at_movement(&mut g, Side::B, false);
    let gun = id(&g, "gun");
    let limber = |unit| Command::Maneuver {
        unit,
        maneuvers: vec![SpecialManeuver::Limber],
    };
    assert!(shooting::shoots_in(&g, gun, FireStage::DefendersFire));
    run(&mut g, limber(gun));
    assert!(g.unit(gun).gun.unwrap().limbered);
    assert_eq!(g.unit(gun).flags.special_maneuvers, 1);
    assert!(!shooting::shoots_in(&g, gun, FireStage::DefendersFire));
    let big = id(&g, "big");
    run(&mut g, limber(big));
    assert_eq!(g.unit(big).flags.special_maneuvers, 2);

    // Next turn, under Move orders.
    let forward = |unit, d: f32| Command::Move {
        unit,
        steps: vec![MoveStep::Forward(d)],
    };
    for (limbered, d, ok) in [(true, 15.0, true), (true, 15.5, false), (false, 10.0, true)] {
        let mut n = g.clone();
        n.unit_mut(gun).flags = Default::default();
        n.unit_mut(gun).gun.as_mut().unwrap().limbered = limbered;
        n.unit_mut(gun).order = Some(OrderKind::Move);
        let legal = sandtable_bfs::phases::check(&n, &forward(gun, d));
        assert_eq!(legal.is_ok(), ok, "limbered {limbered}, {d} cm: {legal:?}");
    }
    let mut n = g.clone();
    n.unit_mut(big).flags = Default::default();
    n.unit_mut(big).gun.as_mut().unwrap().limbered = false;
    n.unit_mut(big).order = Some(OrderKind::Move);
    assert!(sandtable_bfs::phases::check(&n, &forward(big, 5.0)).is_ok());
    assert!(sandtable_bfs::phases::check(&n, &forward(big, 6.0)).is_err());
}

/// BFS-ART-15: a manhandled gun never marches.
#[test]
fn bfs_art_15_manhandled_guns_never_march() {
    let mut g = game(&[
        unit("gun", 1, "regimental-gun", 1, 1, (60.0, 100.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 2, (60.0, 20.0), 0.0),
    ]);
    set_order(&mut g, "gun", Some(OrderKind::Move));
    at_movement(&mut g, Side::B, false);
    let err = sandtable_bfs::phases::check(
        &g,
        &Command::Move {
            unit: id(&g, "gun"),
            steps: vec![MoveStep::March, MoveStep::Forward(10.0)],
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-ART-15");
}

/// BFS-ART-13: a gun that moves as a heavy gun is not manhandled with a Special Maneuver; with a
/// Move order it is manhandled 2 cm, and only in open ground (not in a rye field).
#[test]
fn bfs_art_13_heavy_guns_are_not_manhandled_by_special_maneuver() {
    let mut g = edited(
        &[
            unit("gun", 1, "twelve-pounder", 1, 1, (60.0, 100.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 2, (60.0, 20.0), 0.0),
        ],
        "twelve-pounder",
        |p| armed_with(p, sandtable_bfs::artillery::Gun::DemiCulverin),
    );
    set_order(&mut g, "gun", Some(OrderKind::Defense));
    at_movement(&mut g, Side::B, false);
    let err = sandtable_bfs::phases::check(
        &g,
        &Command::Maneuver {
            unit: id(&g, "gun"),
            maneuvers: vec![SpecialManeuver::ChangePosition {
                dx: 0.0,
                dy: 2.0,
                degrees: 0.0,
            }],
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-ART-13");

    // With a Move order it is manhandled 2 cm, in open ground only.
    let forward = |g: &Game| Command::Move {
        unit: id(g, "gun"),
        steps: vec![MoveStep::Forward(2.0)],
    };
    set_order(&mut g, "gun", Some(OrderKind::Move));
    assert!(sandtable_bfs::phases::check(&g, &forward(&g)).is_ok());
    let field = sandtable_engine::scenario::TerrainSpec {
        kind: sandtable_engine::scenario::TerrainKind::WheatField,
        name: Some("Rye".into()),
        shape: sandtable_engine::scenario::ShapeSpec::Rect {
            center: (60.0, 100.0),
            size: (20.0, 20.0),
            rotation: 0.0,
        },
    };
    let mut s = setup(
        &[
            unit("gun", 1, "twelve-pounder", 1, 1, (60.0, 100.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 2, (60.0, 20.0), 0.0),
        ],
        vec![field],
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "twelve-pounder" {
            armed_with(p, sandtable_bfs::artillery::Gun::DemiCulverin);
        }
    }
    let mut rough = Bfs::setup(&s, 1).unwrap();
    set_order(&mut rough, "gun", Some(OrderKind::Move));
    at_movement(&mut rough, Side::B, false);
    let err = sandtable_bfs::phases::check(&rough, &forward(&rough)).unwrap_err();
    assert_eq!(err.rule, "BFS-ART-13");
}

/// BFS-ART-1 and BFS-ART-9 in the data: an artillery profile must have 1 SP, its gun's Shooting
/// and its manhandled Move, and only artillery names a gun.
#[test]
fn bfs_art_1_artillery_profiles_are_checked_against_the_gun_table() {
    let lists = armies();
    let gun = lists
        .iter()
        .flat_map(|l| &l.profiles)
        .find(|p| p.id == "regimental-gun")
        .unwrap()
        .clone();
    assert!(gun.problems().is_empty(), "{:?}", gun.problems());
    let mut bad = gun.clone();
    bad.strength = 3;
    bad.shooting = 2;
    bad.movement.basic = 15.0;
    let problems = bad.problems();
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("BFS-ART-1")));
    assert!(problems.iter().any(|p| p.contains("BFS-ART-9")));
    assert!(problems.iter().any(|p| p.contains("BFS-ART-12")));
    let mut not_artillery = gun;
    not_artillery.kind = sandtable_bfs::profile::UnitKind::Infantry;
    assert!(
        not_artillery
            .problems()
            .iter()
            .any(|p| p.contains("not artillery"))
    );
}

/// BFS-ART-3: the owner chooses the load in his Movement Phase, free, once a turn: cannonball at
/// haiduks 20 cm away although the crew would fire case-shot; case-shot within its 30 cm, and
/// cannonball beyond it whatever was chosen. The organ gun loads by range, and no one loads out
/// of turn.
#[test]
fn bfs_art_3_the_owner_chooses_the_load() {
    let at = |gap: f32| {
        let mut g = game(&[
            unit("gun", 1, "regimental-gun", 1, 1, (60.0, 50.0 + gap), 180.0),
            unit("haiduks", 0, "haiduks", 4, 2, (60.0, 50.0), 0.0),
        ]);
        at_movement(&mut g, Side::B, false);
        g
    };
    let load = |g: &mut Game, ammunition| {
        let unit = id(g, "gun");
        let events = run(g, Command::Load { unit, ammunition });
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-ART-3"))
        );
    };
    let fired = |g: &Game| {
        sandtable_bfs::preview::volley(g, id(g, "gun"), FireStage::DefendersFire)
            .unwrap()
            .ammunition()
            .unwrap()
    };
    let mut near = at(20.0);
    assert_eq!(fired(&near), Ammunition::CaseShot, "the crew's choice");
    load(&mut near, Some(Ammunition::Cannonball));
    assert_eq!(fired(&near), Ammunition::Cannonball);
    // Once a turn: a second choice is refused until the next turn.
    let gun = id(&near, "gun");
    let again = Command::Load {
        unit: gun,
        ammunition: Some(Ammunition::CaseShot),
    };
    assert!(sandtable_bfs::phases::check(&near, &again).is_err());
    near.unit_mut(gun).flags = Default::default();
    load(&mut near, Some(Ammunition::CaseShot));
    assert_eq!(fired(&near), Ammunition::CaseShot);
    near.unit_mut(gun).flags = Default::default();
    assert!(
        sandtable_bfs::phases::check(
            &near,
            &Command::Load {
                unit: gun,
                ammunition: Some(Ammunition::CaseShot)
            }
        )
        .is_err(),
        "already loaded so"
    );
    let mut far = at(40.0);
    load(&mut far, Some(Ammunition::CaseShot));
    assert_eq!(
        fired(&far),
        Ammunition::Cannonball,
        "beyond case-shot range"
    );

    // Not in the other side's Movement Phase, nor in the Combat Phase.
    let mut other = at(20.0);
    at_movement(&mut other, Side::A, false);
    let cmd = Command::Load {
        unit: id(&other, "gun"),
        ammunition: Some(Ammunition::Cannonball),
    };
    assert!(sandtable_bfs::phases::check(&other, &cmd).is_err());
    at_combat(&mut other, CombatStage::DefendersFire);
    assert!(sandtable_bfs::phases::check(&other, &cmd).is_err());

    let mut organ = edited(
        &[
            unit("gun", 1, "regimental-gun", 1, 1, (60.0, 70.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 2, (60.0, 50.0), 0.0),
        ],
        "regimental-gun",
        |p| armed_with(p, sandtable_bfs::artillery::Gun::OrganGun),
    );
    at_movement(&mut organ, Side::B, false);
    let err = sandtable_bfs::phases::check(
        &organ,
        &Command::Load {
            unit: id(&organ, "gun"),
            ammunition: Some(Ammunition::Cannonball),
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-ART-10");
}

/// BFS-TER-26 and BFS-OBS-10 for guns (BFS-ART-21): −1 to hit a target wholly in a ploughed
/// field, where the balls cannot bounce; one die more at a unit carrying chevaux de frise.
#[test]
fn bfs_art_21_ploughed_fields_and_chevaux_de_frise() {
    use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
    let units = [
        unit("gun", 1, "twelve-pounder", 1, 1, (60.0, 100.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 2, (60.0, 40.0), 0.0),
    ];
    let field = TerrainSpec {
        kind: TerrainKind::PloughedField,
        name: Some("Ploughland".into()),
        shape: ShapeSpec::Rect {
            center: (60.0, 36.0),
            size: (30.0, 20.0),
            rotation: 0.0,
        },
    };
    let g = Bfs::setup(&setup(&units, vec![field]), 1).unwrap();
    let plan = sandtable_bfs::preview::volley(&g, id(&g, "gun"), FireStage::DefendersFire).unwrap();
    assert!(
        plan.groups[0]
            .spec
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-TER-26" && m.delta == -1),
        "{:?}",
        plan.groups[0].spec.modifiers
    );

    let mut g = game(&units);
    let plain =
        sandtable_bfs::preview::volley(&g, id(&g, "gun"), FireStage::DefendersFire).unwrap();
    assert!(plain.groups[0].spec.modifiers.is_empty());
    assert_eq!(plain.groups[0].spec.plan().dice, 2, "2 ranks");
    let h = id(&g, "haiduks");
    g.unit_mut(h).carries = Some(sandtable_bfs::portable::Carried {
        kind: sandtable_bfs::portable::PortableKind::ChevauxDeFrise,
        elements: 2,
    });
    let plan = sandtable_bfs::preview::volley(&g, id(&g, "gun"), FireStage::DefendersFire).unwrap();
    assert_eq!(plan.groups[0].spec.plan().dice, 3, "one die more");
}

/// BFS-ART-2: an Artillery Commander touching the regimental gun has its missed shot rolled
/// again, once a turn, and the second roll stands: case-shot misses with 9 and 9, hits with 2
/// on the second roll (9 misses), the armor die 5 fails (Armor 3 − 3), and the haiduks pass
/// their Morale test for the case-shot with 3. Without him, or a second time in the same turn,
/// the miss stands.
#[test]
fn bfs_art_2_an_artillery_commander_has_a_missed_shot_rolled_again() {
    use sandtable_bfs::profile::SpecialRule;
    let with_commander = |joined: bool| {
        let mut g = edited(
            &[
                unit("gun", 1, "regimental-gun", 1, 1, (60.0, 70.0), 180.0),
                unit("haiduks", 0, "haiduks", 4, 2, (60.0, 50.0), 0.0),
            ],
            "commander",
            |p| p.special_rules.push(SpecialRule::ArtilleryCommander),
        );
        set_order(&mut g, "gun", Some(OrderKind::Defense));
        at_combat(&mut g, CombatStage::DefendersFire);
        let c = g.commanders.iter().find(|c| c.side == Side::B).unwrap().id;
        // Standing against the gun's rear edge (y 74), or 10 cm away.
        let y = if joined { 75.5 } else { 85.5 };
        let base = g.commander(c).base;
        g.commander_mut(c).base = sandtable_geometry::Rect::new(
            sandtable_geometry::Pose::from_bearing_deg(
                sandtable_geometry::Vec2::new(60.0, y),
                180.0,
            ),
            base.half,
        );
        (g, c)
    };
    let volley = |events: &[Event]| {
        events
            .iter()
            .find_map(|e| match e {
                Event::Volley(v) => Some(v.clone()),
                _ => None,
            })
            .expect("the gun fires")
    };
    let (mut g, c) = with_commander(true);
    g.dice.script([9, 9, 2, 9, 5, 3]);
    let v = volley(&run(&mut g, Command::Continue));
    assert_eq!(v.sp_lost, 1);
    assert!(
        v.notes.iter().any(|n| n.contains("BFS-ART-2")),
        "{:?}",
        v.notes
    );
    assert_eq!(g.commander(c).gun_reroll_turn, Some(g.turn.number));
    assert_eq!(g.dice.scripted_left(), 0);
    // The same turn again: no second reroll.
    let gun = id(&g, "gun");
    assert_eq!(
        sandtable_bfs::artillery::commander_for_reroll(&g, gun),
        None
    );

    let (mut alone, _) = with_commander(false);
    alone.dice.script([9, 9]);
    let v = volley(&run(&mut alone, Command::Continue));
    assert_eq!(v.hits, 0);
    assert!(v.notes.is_empty());
}

/// The gun's menu in its side's Movement Phase offers its loads (BFS-ART-3) and, under a
/// Defense order, limbering (BFS-ART-16), each legal; once limbered it offers unlimbering.
#[test]
fn bfs_art_16_the_menu_offers_loads_and_the_limber() {
    use sandtable_bfs::present::menu::menu;
    use sandtable_bfs::present::table::unit_piece;
    use sandtable_engine::present::MenuChoices;
    let mut g = game(&[
        unit("gun", 1, "regimental-gun", 1, 1, (60.0, 100.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 2, (60.0, 20.0), 0.0),
    ]);
    set_order(&mut g, "gun", Some(OrderKind::Defense));
    at_movement(&mut g, Side::B, false);
    let gun = id(&g, "gun");
    let labels = |g: &Game| {
        let m = menu(g, 1, Some(unit_piece(gun)), None, &MenuChoices::default());
        for i in &m.items {
            if i.label.starts_with("Fire ") || i.label.contains("limber") {
                assert!(Bfs::legal(g, &i.command).is_ok(), "{} is legal", i.label);
            }
        }
        m.items.into_iter().map(|i| i.label).collect::<Vec<_>>()
    };
    let offered = labels(&g);
    for want in [
        "Fire cannonball (free)",
        "Fire case-shot within its range (free)",
        "Limber the gun (1 S-M)",
    ] {
        assert!(offered.iter().any(|l| l == want), "{want} in {offered:?}");
    }
    assert!(
        !offered
            .iter()
            .any(|l| l.starts_with("Fire the crew's choice")),
        "already the crew's choice"
    );
    run(
        &mut g,
        Command::Maneuver {
            unit: gun,
            maneuvers: vec![SpecialManeuver::Limber],
        },
    );
    g.unit_mut(gun).flags = Default::default();
    let offered = labels(&g);
    assert!(
        offered.iter().any(|l| l == "Unlimber the gun (1 S-M)"),
        "{offered:?}"
    );
}

/// BFS-ART-18: a medium gun deployed with an additional crew base: the crew (1 SP) takes the
/// gun's first loss, so 1 SP lost leaves the gun on the table and 2 SP destroy it. Only medium
/// guns have one, and one for every two medium guns of a force (checked when the scenario loads).
#[test]
fn bfs_art_18_the_additional_crew_takes_the_first_loss() {
    use sandtable_bfs::load::check_scenario;
    let units = [
        unit("gun", 1, "regimental-gun", 1, 1, (60.0, 70.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 2, (60.0, 20.0), 0.0),
    ];
    let octave = |p: &mut UnitProfile| armed_with(p, sandtable_bfs::artillery::Gun::Octave);
    let build = |crew: bool, medium: bool| {
        let mut s = setup(&units, vec![]);
        for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
            if p.id == "regimental-gun" && medium {
                octave(p);
            }
        }
        s.scenario.rules.forces[1].units[0].additional_crew = crew;
        s
    };
    let s = build(true, true);
    assert!(check_scenario(&s.scenario, &s.armies).is_empty());
    let mut g = Bfs::setup(&s, 1).unwrap();
    let gun = id(&g, "gun");
    assert!(g.unit(gun).gun.unwrap().additional_crew);
    let mut events = Vec::new();
    let lost = sandtable_bfs::losses::apply(
        &mut g,
        gun,
        1,
        sandtable_bfs::losses::LossCause::Shooting,
        "a test",
        &mut events,
    );
    assert_eq!(lost, 0);
    assert_eq!(g.unit(gun).status, UnitStatus::OnTable);
    assert!(!g.unit(gun).gun.unwrap().additional_crew);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-ART-18"))
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    sandtable_bfs::losses::apply(
        &mut g,
        gun,
        2,
        sandtable_bfs::losses::LossCause::Shooting,
        "a test",
        &mut Vec::new(),
    );
    assert_eq!(g.unit(gun).status, UnitStatus::Destroyed);

    // A light gun has none; and one medium gun allows one crew base, not two.
    let light = build(true, false);
    let problems = check_scenario(&light.scenario, &light.armies);
    assert!(
        problems.iter().any(|p| p.message.contains("BFS-ART-18")),
        "{problems:?}"
    );
    assert_eq!(sandtable_bfs::artillery::additional_crew_allowed(1), 1);
    assert_eq!(sandtable_bfs::artillery::additional_crew_allowed(2), 1);
    assert_eq!(sandtable_bfs::artillery::additional_crew_allowed(3), 2);
    assert_eq!(sandtable_bfs::artillery::additional_crew_allowed(4), 2);
}

/// The field-of-fire overlay of a gun draws its case-shot reach (BFS-ART-5) inside its
/// cannonball bands: three outlines, the case-shot one 30 cm out for the regimental gun.
#[test]
fn bfs_art_5_the_fire_overlay_shows_case_shot_range() {
    use sandtable_bfs::present::shapes::shapes;
    use sandtable_bfs::present::table::unit_piece;
    use sandtable_engine::present::{Outline, Tone};
    let g = game(&[
        unit("gun", 1, "regimental-gun", 1, 1, (60.0, 100.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 2, (60.0, 20.0), 0.0),
    ]);
    let gun = id(&g, "gun");
    let drawn = shapes(&g, 1, Some(unit_piece(gun)), &["fire"]);
    let tones: Vec<Tone> = drawn.iter().map(|s| s.tone).collect();
    assert_eq!(
        tones,
        vec![Tone::ReachClose, Tone::ReachNear, Tone::ReachFar]
    );
    // The case-shot outline's far edge: 30 cm beyond the gun's front edge (y 100, facing south).
    let Outline::Line(pts) = &drawn[0].outline else {
        panic!("a line")
    };
    assert!((pts[2].y - 70.0).abs() < 0.01, "{pts:?}");
}

/// A Swedish regimental gun armed as the Brandenburg 8 pdr (a medium gun), dug in on its
/// fortified base where it stands (front on y = 60, facing south), with a Defense order;
/// Polish haiduks 20 cm in front of it and pancerni 10 cm off its front.
fn dug_in_gun() -> (Game, sandtable_bfs::UnitId) {
    let mut g = edited(
        &[
            unit("gun", 1, "regimental-gun", 1, 1, (60.0, 60.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
            unit("pancerni", 0, "pancerni", 2, 2, (30.0, 50.0), 0.0),
        ],
        "regimental-gun",
        |p| armed_with(p, sandtable_bfs::artillery::Gun::Brandenburg8Pdr),
    );
    let gun = id(&g, "gun");
    g.unit_mut(gun).emplacement = Some(g.unit(gun).bases[0]);
    set_order(&mut g, "gun", Some(OrderKind::Defense));
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    (g, gun)
}

/// BFS-ART-19: a gun on its fortified base has Armor 6 and costs shooters a further −1; with a
/// Defense order cavalry strikes it at −2, as infantry defending an obstacle; it cannot pivot;
/// moved off its base, it loses all of it.
#[test]
fn bfs_art_19_a_gun_on_its_fortified_base() {
    let (mut g, gun) = dug_in_gun();
    assert!(sandtable_bfs::fortified_gun::dug_in(&g, gun));
    let haiduks = id(&g, "haiduks");
    let scene = sandtable_bfs::geo::scene(&g);
    let plan = shooting::plan_volley(&g, &scene, haiduks, FireStage::DefendersFire).unwrap();
    let group = &plan.groups[0];
    assert!(
        group
            .spec
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-ART-19" && m.delta == -1),
        "{:?}",
        group.spec.modifiers
    );
    let raise: i32 = group
        .armor_mods
        .iter()
        .filter(|m| m.rule == "BFS-ART-19")
        .map(|m| m.delta)
        .sum();
    assert_eq!(group.armor_base + raise, 6);
    let pancerni = id(&g, "pancerni");
    let hit = sandtable_bfs::ground::attack_penalty(&g, pancerni, gun).expect("a penalty");
    assert_eq!(hit.delta, -2);
    at_movement(&mut g, Side::B, false);
    let e = Bfs::legal(
        &g,
        &Command::Maneuver {
            unit: gun,
            maneuvers: vec![SpecialManeuver::Turn(
                sandtable_bfs::command::TurnKind::Left,
            )],
        },
    )
    .unwrap_err();
    assert_eq!(e.rule, "BFS-ART-19", "{}", e.message);
    // Off its base by 1 cm: an ordinary gun again.
    g.unit_mut(gun).bases[0].pose.pos.x += 1.0;
    assert!(!sandtable_bfs::fortified_gun::dug_in(&g, gun));
    assert!(sandtable_bfs::ground::attack_penalty(&g, pancerni, gun).is_none());
}
