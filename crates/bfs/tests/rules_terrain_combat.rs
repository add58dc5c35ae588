//! The ground in combat (BFS-TER-6, BFS-TER-11..14 and the terrain entries BFS-TER-16..28):
//! Advantage, the attacker's to-hit penalty, Armor raised, Open Order discipline, who cannot
//! shoot from water, Impetus lost in fields.

mod support;

use sandtable_bfs::Command;
use sandtable_bfs::event::Event;
use sandtable_bfs::ground;
use sandtable_bfs::shooting::{FireStage, shoots_in};
use sandtable_bfs::state::{Formation, OrderKind};
use sandtable_bfs::turn::CombatStage;
use sandtable_bfs::{Bfs, Game};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use support::*;

/// A 30 × 20 cm piece spanning x 45..75, y 30..50: it holds wholly a 3-base line whose front is
/// on its north edge, y = 50 (the bases reach back to y = 48 or 47), and nothing north of it.
fn patch(kind: TerrainKind) -> TerrainSpec {
    TerrainSpec {
        kind,
        name: Some(format!("{kind:?}")),
        shape: ShapeSpec::Rect {
            center: (60.0, 40.0),
            size: (30.0, 20.0),
            rotation: 0.0,
        },
    }
}

/// `defender` (side A, Poles) on the patch facing north at y = 50, `attacker` (side B, Swedes)
/// front to front with it, off the patch.
fn on_patch(kind: TerrainKind, defender: &'static str, attacker: &'static str) -> Game {
    let s = setup(
        &[
            unit("defender", 0, defender, 3, 3, (60.0, 50.0), 0.0),
            unit("attacker", 1, attacker, 3, 3, (60.0, 50.0), 180.0),
        ],
        vec![patch(kind)],
    );
    Bfs::setup(&s, 1).unwrap()
}

fn armor_raise(g: &Game, key: &str) -> i32 {
    ground::armor_raise(g, id(g, key)).map_or(0, |m| m.delta)
}

/// BFS-TER-13: a forest raises infantry to Armor 6 (haiduks 3 → 6) and anyone else to 4, or +1
/// when already that high (pancerni 5 → 6); a grove raises to 3 (reiters 4: nothing), Open
/// Order infantry to 5; a built-up area raises infantry to 4.
#[test]
fn bfs_ter_13_armor_raised_by_woods_and_villages() {
    let g = on_patch(TerrainKind::Forest, "haiduks", "reiters");
    assert_eq!(
        armor_raise(&g, "defender"),
        3,
        "infantry in a forest: 3 → 6"
    );
    let g = on_patch(TerrainKind::Forest, "pancerni", "reiters");
    assert_eq!(
        armor_raise(&g, "defender"),
        1,
        "cavalry with Armor 5 in a forest: +1"
    );
    let g = on_patch(TerrainKind::Grove, "cossack-cavalry", "reiters");
    assert_eq!(
        armor_raise(&g, "defender"),
        0,
        "Armor 3 in a grove: already 3"
    );
    let mut g = on_patch(TerrainKind::Grove, "haiduks", "reiters");
    assert_eq!(
        armor_raise(&g, "defender"),
        0,
        "close-order infantry in a grove: 3"
    );
    let d = id(&g, "defender");
    g.unit_mut(d).formation = Formation::OpenOrder;
    assert_eq!(
        armor_raise(&g, "defender"),
        2,
        "Open Order infantry in a grove: 3 → 5"
    );
    let g = on_patch(TerrainKind::BuiltUpArea, "haiduks", "reiters");
    assert_eq!(
        armor_raise(&g, "defender"),
        1,
        "infantry in a village: 3 → 4"
    );
    let g = on_patch(TerrainKind::BuiltUpArea, "pancerni", "reiters");
    assert_eq!(
        armor_raise(&g, "defender"),
        0,
        "cavalry in a village: nothing"
    );
}

/// BFS-TER-6: a unit half in a wood gets no Armor raise and no Advantage from it.
#[test]
fn bfs_ter_6_half_in_a_wood_gets_nothing_from_it() {
    let half = TerrainSpec {
        kind: TerrainKind::Forest,
        name: None,
        shape: ShapeSpec::Rect {
            center: (50.0, 45.0),
            size: (20.0, 20.0),
            rotation: 0.0,
        },
    };
    let s = setup(
        &[
            unit("defender", 0, "haiduks", 3, 3, (60.0, 50.0), 0.0),
            unit("attacker", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
        ],
        vec![half],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "defender", Some(OrderKind::Defense));
    let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
    let f = ground::footing(&g, d);
    assert!(f.partly(TerrainKind::Forest) && !f.wholly(TerrainKind::Forest));
    assert_eq!(armor_raise(&g, "defender"), 0);
    assert!(ground::advantage(&g, d, &[a]).is_none());
}

/// BFS-TER-12, BFS-TER-28: infantry in a village has Advantage against horse, +2 with a Defense
/// Order against cavalry only, +1 without; none against infantry.
#[test]
fn bfs_ter_12_advantage_in_a_village() {
    let mut g = on_patch(TerrainKind::BuiltUpArea, "haiduks", "reiters");
    let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
    let m = ground::advantage(&g, d, &[a]).expect("Advantage");
    assert_eq!((m.rule.as_str(), m.delta), ("BFS-TER-28", 1));
    set_order(&mut g, "defender", Some(OrderKind::Defense));
    assert_eq!(ground::advantage(&g, d, &[a]).unwrap().delta, 2);
    assert!(
        ground::advantage(&g, a, &[d]).is_none(),
        "the attacker has none"
    );
    let g = on_patch(TerrainKind::BuiltUpArea, "haiduks", "musketeers");
    let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
    assert!(
        ground::advantage(&g, d, &[a]).is_none(),
        "not against infantry"
    );
}

/// BFS-TER-16, BFS-TER-19, BFS-TER-20: the bank over the stream, firm ground over the swamp, the
/// hill over the plain, whatever the Order.
#[test]
fn bfs_ter_16_19_20_advantage_of_the_bank_firm_ground_and_the_hill() {
    // The reiters stand in the water: the cavalry on the bank has Advantage over them.
    let s = setup(
        &[
            unit("defender", 0, "pancerni", 3, 3, (60.0, 50.0), 0.0),
            unit("attacker", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
        ],
        vec![TerrainSpec {
            kind: TerrainKind::Stream,
            name: None,
            shape: ShapeSpec::Rect {
                center: (60.0, 55.0),
                size: (40.0, 10.0),
                rotation: 0.0,
            },
        }],
    );
    let g = Bfs::setup(&s, 1).unwrap();
    let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
    assert_eq!(ground::advantage(&g, d, &[a]).unwrap().rule, "BFS-TER-16");
    assert!(ground::advantage(&g, a, &[d]).is_none());

    let g = on_patch(TerrainKind::Marsh, "pancerni", "reiters");
    let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
    assert_eq!(ground::advantage(&g, a, &[d]).unwrap().rule, "BFS-TER-19");
    assert!(ground::advantage(&g, d, &[a]).is_none());

    let g = on_patch(TerrainKind::Hill, "pancerni", "reiters");
    let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
    let m = ground::advantage(&g, d, &[a]).unwrap();
    assert_eq!((m.rule.as_str(), m.delta), ("BFS-TER-20", 1));
}

/// BFS-TER-11: attacking a unit that defends ground giving it Advantage costs −1 to hit, −2 for
/// cavalry attacking infantry; nothing without the Defense Order.
#[test]
fn bfs_ter_11_attacking_good_ground_costs_to_hit() {
    let mut g = on_patch(TerrainKind::BuiltUpArea, "haiduks", "reiters");
    let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
    assert!(
        ground::attack_penalty(&g, a, d).is_none(),
        "no Defense Order"
    );
    set_order(&mut g, "defender", Some(OrderKind::Defense));
    assert_eq!(ground::attack_penalty(&g, a, d).unwrap().delta, -2);
    let mut g = on_patch(TerrainKind::Hill, "haiduks", "musketeers");
    set_order(&mut g, "defender", Some(OrderKind::Defense));
    let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
    assert_eq!(ground::attack_penalty(&g, a, d).unwrap().delta, -1);
}

/// BFS-TER-14: Open Order counts as Poor Tactical Discipline only on open ground and fields.
#[test]
fn bfs_ter_14_open_order_discipline_by_terrain() {
    for (kind, ptd) in [
        (TerrainKind::Forest, false),
        (TerrainKind::Grove, false),
        (TerrainKind::WheatField, true),
        (TerrainKind::PloughedField, true),
    ] {
        let mut g = on_patch(kind, "haiduks", "reiters");
        let d = id(&g, "defender");
        g.unit_mut(d).formation = Formation::OpenOrder;
        assert_eq!(ground::open_order_is_undisciplined(&g, d), ptd, "{kind:?}");
    }
}

/// BFS-TER-16, BFS-TER-19: infantry standing in a stream or a swamp cannot shoot.
#[test]
fn bfs_ter_16_19_no_shooting_from_the_water() {
    for kind in [TerrainKind::Stream, TerrainKind::Marsh] {
        let mut g = on_patch(kind, "haiduks", "reiters");
        set_order(&mut g, "defender", Some(OrderKind::Move));
        let d = id(&g, "defender");
        assert!(
            ground::cannot_shoot_from(&g, d).is_some(),
            "{kind:?}: {:?}",
            ground::cannot_shoot_from(&g, d)
        );
        assert!(!shoots_in(&g, d, FireStage::AfterMovement));
    }
    let mut g = on_patch(TerrainKind::Grove, "haiduks", "reiters");
    set_order(&mut g, "defender", Some(OrderKind::Move));
    assert!(ground::cannot_shoot_from(&g, id(&g, "defender")).is_none());
}

/// BFS-TER-25, BFS-TER-26: cavalry in a wheat or ploughed field cannot build up speed.
#[test]
fn bfs_ter_25_26_no_impetus_through_fields() {
    for (kind, rule) in [
        (TerrainKind::WheatField, "BFS-TER-25"),
        (TerrainKind::PloughedField, "BFS-TER-26"),
    ] {
        let g = on_patch(kind, "pancerni", "reiters");
        assert_eq!(ground::stops_impetus(&g, id(&g, "defender")), Some(rule));
    }
}

/// The whole Close Combat stage: haiduks defending a village against reiters get +2 in the
/// Combat Resolution, and the reiters strike at −2 (BFS-TER-11, BFS-TER-12, BFS-TER-28).
#[test]
fn bfs_ter_12_a_village_fight_counts_the_ground() {
    let mut g = on_patch(TerrainKind::BuiltUpArea, "haiduks", "reiters");
    set_order(&mut g, "defender", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = sandtable_bfs::Bfs::execute(&mut g, &Command::Continue).unwrap();
    let resolved = events
        .iter()
        .find_map(|e| match e {
            Event::CombatResolved(r) => Some(r),
            _ => None,
        })
        .expect("a combat");
    let poles = &resolved.sides[0];
    assert!(
        poles
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-TER-28" && m.delta == 2),
        "{poles:?}"
    );
    let reiters_blow = events
        .iter()
        .find_map(|e| match e {
            Event::Melee(m) if m.attacker == id(&g, "attacker") => Some(m),
            _ => None,
        })
        .expect("the reiters strike");
    assert!(
        reiters_blow.groups[0]
            .roll
            .plan
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-TER-11" && m.delta == -2)
    );
}

/// BFS-TER-21: infantry on a steep slope takes a Skill test before every move (haiduks, Skill
/// 5): a 6 fails and the unit stays put for the phase; a 5 passes and it moves.
#[test]
fn bfs_ter_21_a_steep_slope_demands_a_skill_test_for_every_move() {
    use sandtable_bfs::command::MoveStep;
    use sandtable_bfs::ids::Side;
    for (die, moves) in [(6u8, false), (5, true)] {
        let mut g = on_patch(TerrainKind::SteepHill, "haiduks", "reiters");
        let (d, a) = (id(&g, "defender"), id(&g, "attacker"));
        // The reiters are out of the way.
        let far = sandtable_geometry::Vec2::new(0.0, 40.0);
        for b in &mut g.unit_mut(a).bases {
            *b = b.translated(far);
        }
        set_order(&mut g, "defender", Some(OrderKind::Move));
        at_movement(&mut g, Side::A, false);
        let before = g.unit(d).bases.clone();
        let move_back = Command::Move {
            unit: d,
            steps: vec![MoveStep::Backward(2.0)],
        };
        let preview = sandtable_bfs::preview::preview(&g, &move_back).unwrap();
        assert!(format!("{preview:?}").contains("BFS-TER-21"), "{preview:?}");
        g.dice.script([die]);
        let events = run(&mut g, move_back);
        assert!(events.iter().any(|e| matches!(
            e,
            Event::Test(t) if t.rule == "BFS-TER-21" && t.roll.passed == moves
        )));
        assert_eq!(g.unit(d).bases != before, moves, "die {die}");
        assert!(g.unit(d).flags.activated);
    }
}

/// BFS-TER-7: a gun or wagon entering a stream (here 2 cm ahead of it; bogging-down ground for
/// it) tests Skill first;
/// failed, it may not move. (No shipped list has guns yet: a pancerni profile stands in, made
/// artillery.)
#[test]
fn bfs_ter_7_guns_may_bog_down_entering_a_stream() {
    use sandtable_bfs::command::MoveStep;
    use sandtable_bfs::ids::Side;
    use sandtable_bfs::profile::UnitKind;
    let stream = TerrainSpec {
        kind: TerrainKind::Stream,
        name: None,
        shape: ShapeSpec::Rect {
            center: (60.0, 55.0),
            size: (40.0, 6.0),
            rotation: 0.0,
        },
    };
    let mut s = setup(
        &[
            unit("gun", 0, "pancerni", 1, 1, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![stream],
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "pancerni" {
            p.kind = UnitKind::Artillery;
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "gun", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let gun = id(&g, "gun");
    let before = g.unit(gun).bases.clone();
    g.dice.script([10]);
    let events = run(
        &mut g,
        Command::Move {
            unit: gun,
            steps: vec![MoveStep::Forward(3.0)],
        },
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Test(t) if t.rule == "BFS-TER-7" && !t.roll.passed
    )));
    assert_eq!(g.unit(gun).bases, before, "bogged down");
}

/// BFS-TER-9, BFS-TER-20: a hill between two units hides each from the other; a unit on the hill
/// sees over it, and is seen.
#[test]
fn bfs_ter_20_a_hill_hides_what_is_behind_it() {
    use sandtable_bfs::sight::visible_enemies;
    let hill = TerrainSpec {
        kind: TerrainKind::Hill,
        name: None,
        shape: ShapeSpec::Rect {
            center: (60.0, 60.0),
            size: (40.0, 16.0),
            rotation: 0.0,
        },
    };
    // Haiduks south of the hill facing north, reiters north of it facing south.
    let s = setup(
        &[
            unit("haiduks", 0, "haiduks", 3, 3, (60.0, 45.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 75.0), 180.0),
        ],
        vec![hill],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    let (h, r) = (id(&g, "haiduks"), id(&g, "reiters"));
    let scene = sandtable_bfs::geo::scene(&g);
    assert!(
        visible_enemies(&g, &scene, h).is_empty(),
        "the hill hides the reiters"
    );
    assert!(visible_enemies(&g, &scene, r).is_empty(), "and the haiduks");
    // The haiduks climb onto the hill (their bases 2 cm inside its south edge at y = 52).
    let up = sandtable_geometry::Vec2::new(0.0, 11.0);
    for b in &mut g.unit_mut(h).bases {
        *b = b.translated(up);
    }
    let scene = sandtable_bfs::geo::scene(&g);
    assert_eq!(
        visible_enemies(&g, &scene, h),
        vec![r],
        "from the hill they see over it"
    );
    assert_eq!(
        visible_enemies(&g, &scene, r),
        vec![h],
        "and are seen on it"
    );
}

/// BFS-TER-25: winged hussars (Additional Move +20) charging out of a wheat field are held to
/// +10: 20 + 10 = 30 cm, 2 cm short of reiters 32 cm away, which out of the field they would reach.
/// The charge's preview says so before it is declared.
#[test]
fn bfs_ter_25_a_field_caps_the_additional_move_at_ten() {
    use sandtable_bfs::ids::Side;
    let wheat = TerrainSpec {
        kind: TerrainKind::WheatField,
        name: None,
        shape: ShapeSpec::Rect {
            center: (60.0, 27.0),
            size: (30.0, 10.0),
            rotation: 0.0,
        },
    };
    for (terrain, reaches) in [(vec![wheat], false), (vec![], true)] {
        let s = setup(
            &[
                unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 30.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 62.0), 180.0),
            ],
            terrain,
        );
        let mut g = Bfs::setup(&s, 1).unwrap();
        let (h, r) = (id(&g, "hussars"), id(&g, "reiters"));
        set_order(&mut g, "hussars", Some(OrderKind::Charge));
        at_movement(&mut g, Side::A, false);
        let declare = Command::DeclareCharge {
            unit: h,
            target: r,
            pay: None,
        };
        // The preview promises what the charge will do: no contact through the field.
        match Bfs::preview(&g, &declare).unwrap() {
            sandtable_bfs::preview::Preview::Charge(c) => {
                assert!(!c.reaches, "32 cm is beyond the Basic Move");
                assert_eq!(
                    c.reaches_with_additional, reaches,
                    "the preview, BFS-TER-25"
                );
            }
            other => panic!("a charge preview, got {other:?}"),
        }
        let mut events = run(&mut g, declare);
        events.extend(run(&mut g, Command::EndMovement));
        events.extend(run(&mut g, Command::EndMovement));
        events.extend(run(&mut g, Command::Continue));
        events.extend(run(&mut g, Command::Continue));
        let capped = events
            .iter()
            .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-TER-25"));
        assert_eq!(capped, !reaches);
        let contact = events.iter().any(
            |e| matches!(e, Event::ChargeMoved { unit, contact: Some(t), .. } if *unit == h && *t == r),
        );
        assert_eq!(contact, reaches, "{events:#?}");
    }
}
