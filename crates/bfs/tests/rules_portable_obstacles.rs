//! Portable obstacles: kobylicas, caltrops and chevaux de frise (BFS-OBS).

mod support;

use sandtable_bfs::event::Piece;

use sandtable_bfs::command::{MoveStep, SpecialManeuver};
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::Side;
use sandtable_bfs::portable::{Carried, PortableKind};
use sandtable_bfs::scenario_spec::GameLevel;
use sandtable_bfs::shooting::{FireStage, plan_volley};
use sandtable_bfs::state::{MoraleLevel, OrderKind};
use sandtable_bfs::{BattleSetup, Bfs, Command, Game};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::{OptionValue, ShapeSpec, TerrainKind, TerrainSpec};
use sandtable_geometry::Vec2;
use support::*;

/// Haiduks (side A, 3 bases in line, front at y = 40 facing north) carrying `kind`; Swedish
/// musketeers 20 cm north of them, facing south. `fortifications`: the scenario allows them.
fn carrying(
    kind: PortableKind,
    elements: u8,
    level: GameLevel,
    fortifications: bool,
) -> BattleSetup {
    let mut s = setup(
        &[
            unit("haiduks", 0, "haiduks", 3, 3, (60.0, 40.0), 0.0),
            unit("musketeers", 1, "musketeers", 3, 3, (60.0, 60.0), 180.0),
        ],
        vec![],
    );
    s.scenario.rules.forces[0].units[0].carries = Some(Carried { kind, elements });
    s.scenario.rules.level = level;
    if fortifications {
        s.scenario
            .options
            .insert("field_fortifications".into(), OptionValue::Bool(true));
    }
    s
}

fn game_carrying(kind: PortableKind, elements: u8) -> Game {
    Bfs::setup(&carrying(kind, elements, GameLevel::Skirmish, true), 1).unwrap()
}

/// BFS-OBS-1, -2, -5, -8: what may be carried, checked when the scenario loads.
#[test]
fn bfs_obs_1_2_5_8_what_a_unit_may_carry() {
    let refused = |s: BattleSetup| Bfs::setup(&s, 1).unwrap_err();
    let e = refused(carrying(
        PortableKind::Kobylica,
        3,
        GameLevel::Skirmish,
        false,
    ));
    assert!(e.contains("BFS-OBS-1"), "{e}");
    let e = refused(carrying(
        PortableKind::Caltrops,
        1,
        GameLevel::Skirmish,
        true,
    ));
    assert!(e.contains("BFS-OBS-1"), "{e}");
    let e = refused(carrying(
        PortableKind::Kobylica,
        2,
        GameLevel::Skirmish,
        true,
    ));
    assert!(e.contains("BFS-OBS-2"), "{e}");
    let e = refused(carrying(
        PortableKind::Caltrops,
        2,
        GameLevel::TaskForce,
        true,
    ));
    assert!(e.contains("BFS-OBS-5"), "{e}");
    let e = refused(carrying(
        PortableKind::ChevauxDeFrise,
        4,
        GameLevel::Skirmish,
        true,
    ));
    assert!(e.contains("BFS-OBS-8"), "{e}");
    assert!(
        Bfs::setup(
            &carrying(PortableKind::Kobylica, 3, GameLevel::Division, false),
            1
        )
        .is_ok()
    );
    assert!(
        Bfs::setup(
            &carrying(PortableKind::Caltrops, 1, GameLevel::TaskForce, true),
            1
        )
        .is_ok()
    );
}

/// BFS-OBS-3: carrying kobylicas the haiduks (Move 10) move 5 cm at most and shoot 1 die a
/// base instead of 2.
#[test]
fn bfs_obs_3_carrying_slows_the_unit_and_its_fire() {
    let mut g = game_carrying(PortableKind::Kobylica, 3);
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let h = id(&g, "haiduks");
    let go = |d: f32| Command::Move {
        unit: h,
        steps: vec![MoveStep::Forward(d)],
    };
    assert!(Bfs::legal(&g, &go(5.0)).is_ok());
    assert_eq!(Bfs::legal(&g, &go(5.1)).unwrap_err().rule, "BFS-MOV-6");
    let scene = sandtable_bfs::geo::scene(&g);
    let plan = plan_volley(&g, &scene, h, FireStage::AfterMovement).expect("a volley");
    assert_eq!(plan.groups[0].spec.dice_per_base, vec![1, 1, 1]);
}

/// BFS-OBS-3: a unit forced to flee leaves its kobylicas behind.
#[test]
fn bfs_obs_3_lost_when_the_unit_flees() {
    let mut g = game_carrying(PortableKind::Kobylica, 3);
    let h = id(&g, "haiduks");
    let mut events = Vec::new();
    sandtable_bfs::flight::flee(&mut g, h, Vec2::new(0.0, -1.0), 20.0, "test", &mut events);
    assert_eq!(g.unit(h).carries, None);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-OBS-3"))
    );
}

fn set_up(g: &mut Game) -> Vec<Event> {
    set_order(g, "haiduks", Some(OrderKind::Defense));
    at_movement(g, Side::A, false);
    let h = id(g, "haiduks");
    run(
        g,
        Command::Maneuver {
            unit: h,
            maneuvers: vec![SpecialManeuver::SetUpObstacles],
        },
    )
}

/// Modifiers as (reason, value).
type Mods = Vec<(String, i32)>;

/// The armor and to-hit modifiers of the musketeers' volley at the haiduks.
fn volley_mods(g: &Game) -> (Mods, Mods) {
    let scene = sandtable_bfs::geo::scene(g);
    let plan =
        plan_volley(g, &scene, id(g, "musketeers"), FireStage::AfterMovement).expect("a volley");
    assert_eq!(plan.target, Piece::Unit(id(g, "haiduks")));
    let gp = &plan.groups[0];
    (
        gp.spec
            .modifiers
            .iter()
            .map(|m| (m.rule.to_string(), m.delta))
            .collect(),
        gp.armor_mods
            .iter()
            .map(|m| (m.rule.to_string(), m.delta))
            .collect(),
    )
}

/// BFS-OBS-3, BFS-OBS-4: set up with 2 Special Maneuvers, the kobylicas stand against the front
/// of each base (4 × 1.5 cm) as obstacles; the haiduks' Armor 3 rises to 4 against the
/// musketeers' fire, but they get no cover (no −1 to hit).
#[test]
fn bfs_obs_4_kobylicas_on_the_table() {
    let mut g = game_carrying(PortableKind::Kobylica, 3);
    let h = id(&g, "haiduks");
    set_up(&mut g);
    let pieces: Vec<_> = g
        .terrain
        .iter()
        .filter(|t| t.kind == TerrainKind::Kobylica)
        .collect();
    assert_eq!(pieces.len(), 3);
    for p in &pieces {
        let ys: Vec<f32> = p.polygons[0].iter().map(|v| v.y).collect();
        let (lo, hi) = ys
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), y| (a.min(*y), b.max(*y)));
        assert!(
            (lo - 40.0).abs() < 0.01 && (hi - 41.5).abs() < 0.01,
            "{lo}..{hi}"
        );
    }
    assert_eq!(g.unit(h).carries, None);
    assert_eq!(g.unit(h).flags.special_maneuvers, 2);
    let (to_hit, armor) = volley_mods(&g);
    assert!(!to_hit.iter().any(|(r, _)| r == "BFS-TER-27"), "{to_hit:?}");
    assert!(armor.contains(&("BFS-TER-27".into(), 1)), "{armor:?}");
}

/// BFS-OBS-9, BFS-OBS-10: chevaux de frise go up with 1 Special Maneuver; firearms shooting
/// through them count the haiduks' Armor 1 lower, and so they do while the haiduks carry them.
#[test]
fn bfs_obs_10_chevaux_de_frise_make_firearms_deadlier() {
    let g = game_carrying(PortableKind::ChevauxDeFrise, 3);
    let (_, armor) = volley_mods(&g);
    assert!(armor.contains(&("BFS-OBS-10".into(), -1)), "{armor:?}");
    let mut g = g;
    set_up(&mut g);
    assert_eq!(g.unit(id(&g, "haiduks")).flags.special_maneuvers, 1);
    assert_eq!(
        g.terrain
            .iter()
            .filter(|t| t.kind == TerrainKind::ChevauxDeFrise)
            .count(),
        3
    );
    let (to_hit, armor) = volley_mods(&g);
    assert!(armor.contains(&("BFS-OBS-10".into(), -1)), "{armor:?}");
    assert!(!to_hit.iter().any(|(r, _)| r == "BFS-TER-27"), "{to_hit:?}");
}

/// BFS-OBS-5: carried caltrops are the carrying side's secret.
#[test]
fn bfs_obs_5_carried_caltrops_are_secret() {
    let g = Bfs::setup(
        &carrying(PortableKind::Caltrops, 1, GameLevel::TaskForce, true),
        1,
    )
    .unwrap();
    let h = id(&g, "haiduks");
    assert!(
        sandtable_bfs::view::view(&g, Side::A)
            .unit(h)
            .carries
            .is_some()
    );
    assert!(
        sandtable_bfs::view::view(&g, Side::B)
            .unit(h)
            .carries
            .is_none()
    );
}

/// A strip of caltrops across x 40..80 at y 45..47.
fn caltrops() -> TerrainSpec {
    TerrainSpec {
        kind: TerrainKind::Caltrops,
        name: Some("caltrops".into()),
        shape: ShapeSpec::Rect {
            center: (60.0, 46.0),
            size: (40.0, 2.0),
            rotation: 0.0,
        },
    }
}

/// BFS-OBS-7: caltrops stop horses: pancerni 5 cm short of them cannot ride through (they would
/// cross them only by the maneuver), and riding up to them they test Skill: a "0" fails (Disorganized) and costs
/// 1 SP. Haiduks walk through, but may not march through.
#[test]
fn bfs_obs_7_caltrops_hinder_cavalry_only() {
    let s = setup(
        &[
            unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![caltrops()],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "pancerni", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let p = id(&g, "pancerni");
    let through = Command::Move {
        unit: p,
        steps: vec![MoveStep::Forward(12.0)],
    };
    assert_eq!(Bfs::legal(&g, &through).unwrap_err().rule, "BFS-TER-4");
    g.dice.script([10]);
    let events = run(
        &mut g,
        Command::Move {
            unit: p,
            steps: vec![MoveStep::Forward(4.95)],
        },
    );
    let test = events.iter().find_map(|e| match e {
        Event::Test(t) if t.rule == "BFS-OBS-7" => Some(t.roll.passed),
        _ => None,
    });
    assert_eq!(test, Some(false));
    assert_eq!(g.unit(p).morale, MoraleLevel::Disorganized);
    assert_eq!(g.unit(p).casualty_markers, 1);

    let s = setup(
        &[
            unit("haiduks", 0, "haiduks", 3, 1, (60.0, 40.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![caltrops()],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let h = id(&g, "haiduks");
    let walk = Command::Move {
        unit: h,
        steps: vec![MoveStep::Forward(10.0)],
    };
    assert!(Bfs::legal(&g, &walk).is_ok(), "{:?}", Bfs::legal(&g, &walk));
    let march = Command::Move {
        unit: h,
        steps: vec![MoveStep::March, MoveStep::Forward(10.0)],
    };
    assert_eq!(Bfs::legal(&g, &march).unwrap_err().rule, "BFS-AMV-2");
}

/// BFS-OBS-7: cavalry charging into caltrops is stopped by them and tests Skill there.
#[test]
fn bfs_obs_7_a_charge_into_caltrops() {
    let s = setup(
        &[
            unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
            unit("musketeers", 1, "musketeers", 3, 3, (60.0, 52.0), 180.0),
        ],
        vec![caltrops()],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "pancerni", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let (p, m) = (id(&g, "pancerni"), id(&g, "musketeers"));
    g.dice.script([1]);
    let mut events = run(
        &mut g,
        Command::DeclareCharge {
            unit: p,
            target: m,
            pay: None,
        },
    );
    if !events
        .iter()
        .any(|e| matches!(e, Event::ChargeMoved { .. }))
    {
        // The musketeers answer first; then the charge moves.
        let react = sandtable_bfs::candidates::candidates(&g)
            .into_iter()
            .find(|c| matches!(c, Command::React { .. }))
            .expect("a reaction");
        events = run(&mut g, react);
    }
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Test(t) if t.rule == "BFS-OBS-7" && t.roll.passed)),
        "{events:#?}"
    );
}

/// BFS-OBS-6: infantry within 5 cm clears caltrops with 2 Special Maneuvers; cavalry cannot.
#[test]
fn bfs_obs_6_infantry_clears_caltrops() {
    for (who, clears) in [("haiduks", true), ("pancerni", false)] {
        let s = setup(
            &[
                unit("us", 0, who, 3, 3, (60.0, 42.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
            ],
            vec![caltrops()],
        );
        let mut g = Bfs::setup(&s, 1).unwrap();
        set_order(&mut g, "us", Some(OrderKind::Defense));
        at_movement(&mut g, Side::A, false);
        let us = id(&g, "us");
        let clear = Command::Maneuver {
            unit: us,
            maneuvers: vec![SpecialManeuver::ClearObstacles],
        };
        if clears {
            run(&mut g, clear);
            assert!(!g.terrain.iter().any(|t| t.kind == TerrainKind::Caltrops));
            assert_eq!(g.unit(us).flags.special_maneuvers, 2);
        } else {
            assert_eq!(Bfs::legal(&g, &clear).unwrap_err().rule, "BFS-OBS-11");
        }
    }
}

/// BFS-OBS-11: the haiduks take up the chevaux de frise they set up (1 Special Maneuver), but
/// not while an enemy touches them.
#[test]
fn bfs_obs_11_chevaux_taken_up_again() {
    let mut g = game_carrying(PortableKind::ChevauxDeFrise, 3);
    let h = id(&g, "haiduks");
    set_up(&mut g);
    g.unit_mut(h).flags = Default::default();
    let clear = Command::Maneuver {
        unit: h,
        maneuvers: vec![SpecialManeuver::ClearObstacles],
    };
    // The musketeers come up against the chevaux: nobody may remove them now.
    let mut blocked = g.clone();
    let m = id(&blocked, "musketeers");
    let front = blocked
        .unit(m)
        .bases
        .iter()
        .map(|b| b.center().y - b.half.y)
        .fold(f32::MAX, f32::min);
    let shift = Vec2::new(0.0, 41.5 - front);
    for b in &mut blocked.unit_mut(m).bases {
        *b = b.translated(shift);
    }
    assert_eq!(Bfs::legal(&blocked, &clear).unwrap_err().rule, "BFS-OBS-11");
    run(&mut g, clear);
    assert!(
        !g.terrain
            .iter()
            .any(|t| t.kind == TerrainKind::ChevauxDeFrise)
    );
    assert_eq!(
        g.unit(h).carries,
        Some(Carried {
            kind: PortableKind::ChevauxDeFrise,
            elements: 3
        })
    );
    assert_eq!(g.unit(h).flags.special_maneuvers, 1);
}

/// BFS-OBS-9, BFS-OBS-3: chevaux de frise go up as the last step of a move, for the Movement
/// Maneuver's 2 cm: carrying them the haiduks move 5 cm, so 3 cm forward and the set-up fit,
/// 3.5 cm do not. Kobylicas never go up during a move.
#[test]
fn bfs_obs_9_chevaux_set_up_at_the_end_of_a_move() {
    let mut g = game_carrying(PortableKind::ChevauxDeFrise, 3);
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let h = id(&g, "haiduks");
    let go = |d: f32| Command::Move {
        unit: h,
        steps: vec![MoveStep::Forward(d), MoveStep::SetUpObstacles],
    };
    assert_eq!(Bfs::legal(&g, &go(3.5)).unwrap_err().rule, "BFS-MOV-6");
    let early = Command::Move {
        unit: h,
        steps: vec![MoveStep::SetUpObstacles, MoveStep::Forward(1.0)],
    };
    assert_eq!(Bfs::legal(&g, &early).unwrap_err().rule, "BFS-OBS-9");
    run(&mut g, go(3.0));
    let pieces: Vec<_> = g
        .terrain
        .iter()
        .filter(|t| t.kind == TerrainKind::ChevauxDeFrise)
        .collect();
    assert_eq!(pieces.len(), 3);
    for p in &pieces {
        let lo = p.polygons[0].iter().map(|v| v.y).fold(f32::MAX, f32::min);
        assert!(
            (lo - 43.0).abs() < 0.01,
            "against the new front at y = 43: {lo}"
        );
    }
    assert_eq!(g.unit(h).carries, None);

    let mut g = game_carrying(PortableKind::Kobylica, 3);
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let kob = Command::Move {
        unit: h,
        steps: vec![MoveStep::SetUpObstacles],
    };
    assert_eq!(Bfs::legal(&g, &kob).unwrap_err().rule, "BFS-OBS-3");
}
