//! Obstacles: crossing them (BFS-TER-5, BFS-MAN-15, BFS-MAN-16) and the cover they give
//! (BFS-TER-13, BFS-TER-27, BFS-TER-32).

mod support;

use sandtable_bfs::command::{MoveStep, SpecialManeuver};
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::Side;
use sandtable_bfs::shooting::{FireStage, plan_volley};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use support::*;

/// A fence 1 cm thick along y = 52 (y 51.5..52.5), x 30..90.
fn fence(kind: TerrainKind) -> TerrainSpec {
    TerrainSpec {
        kind,
        name: Some("fence".into()),
        shape: ShapeSpec::Strip {
            points: vec![(30.0, 52.0), (90.0, 52.0)],
            width: 1.0,
        },
    }
}

/// `who` of side A with its front against the fence's south side, facing north; musketeers of
/// side B 20 cm north of it, facing south.
fn at_the_fence(who: &'static str, kind: TerrainKind) -> Game {
    let s = setup(
        &[
            unit("us", 0, who, 3, 3, (60.0, 51.5), 0.0),
            unit("musketeers", 1, "musketeers", 3, 3, (60.0, 72.5), 180.0),
        ],
        vec![fence(kind)],
    );
    Bfs::setup(&s, 1).unwrap()
}

fn moved_cost(events: &[Event]) -> f32 {
    events
        .iter()
        .find_map(|e| match e {
            Event::Moved { cost_cm, .. } => Some(*cost_cm),
            _ => None,
        })
        .expect("moved")
}

/// BFS-MAN-16, BFS-TER-5: infantry (bases 2 cm deep) crosses a 1 cm fence by moving 3 cm, every
/// base entirely across, and pays 2 cm for the maneuver: 5 cm in all. Cavalry (3 cm deep) moves
/// 4 cm and pays 5: 9 cm.
#[test]
fn bfs_man_16_crossing_costs_the_distance_and_the_maneuver() {
    for (who, depth, manoeuvre) in [("haiduks", 2.0, 2.0), ("pancerni", 3.0, 5.0)] {
        let mut g = at_the_fence(who, TerrainKind::Obstacle);
        set_order(&mut g, "us", Some(OrderKind::Move));
        at_movement(&mut g, Side::A, false);
        let us = id(&g, "us");
        let events = run(
            &mut g,
            Command::Move {
                unit: us,
                steps: vec![MoveStep::CrossObstacle],
            },
        );
        let across = 1.0 + depth;
        assert!(
            (moved_cost(&events) - (across + manoeuvre)).abs() < 0.02,
            "{who}: {}",
            moved_cost(&events)
        );
        for b in &g.unit(us).bases {
            let rear = b.center().y - b.half.y;
            assert!(
                rear >= 52.5 - 1e-3,
                "{who}: a base is not across: rear at {rear}"
            );
        }
        assert_eq!(g.unit(us).flags.maneuvers, 1);
    }
}

/// BFS-TER-4, BFS-TER-27: a plain move forward stops at the fence; a unit turned more than 15°
/// from it must square up first (AMB-19); guns never cross.
#[test]
fn bfs_ter_27_obstacles_are_crossed_only_by_the_maneuver() {
    let mut g = at_the_fence("haiduks", TerrainKind::Obstacle);
    set_order(&mut g, "us", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let us = id(&g, "us");
    let forward = Bfs::legal(
        &g,
        &Command::Move {
            unit: us,
            steps: vec![MoveStep::Forward(3.0)],
        },
    )
    .unwrap_err();
    assert_eq!(forward.rule, "BFS-TER-4", "{}", forward.message);
    // Turned 30°: refused.
    let frame = sandtable_bfs::geo::unit_frame(g.unit(us));
    let pivot = frame.center();
    for b in &mut g.unit_mut(us).bases {
        *b = b.rotated_about(pivot, 30f32.to_radians());
    }
    let skew = sandtable_bfs::obstacle::crossing(&g, us, &g.unit(us).bases.clone());
    assert!(skew.is_err());
}

/// BFS-MAN-15: with a Defense order, one Special Maneuver takes every base across.
#[test]
fn bfs_man_15_a_defending_unit_crosses_with_a_special_maneuver() {
    let mut g = at_the_fence("haiduks", TerrainKind::Obstacle);
    set_order(&mut g, "us", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    let us = id(&g, "us");
    run(
        &mut g,
        Command::Maneuver {
            unit: us,
            maneuvers: vec![SpecialManeuver::CrossObstacle],
        },
    );
    assert!(
        g.unit(us)
            .bases
            .iter()
            .all(|b| b.center().y - b.half.y >= 52.5 - 1e-3)
    );
    assert_eq!(g.unit(us).flags.special_maneuvers, 1);
}

/// BFS-TER-27, BFS-TER-13, BFS-TER-32: musketeers shooting at infantry touching a fence: −1 for
/// cover, and the haiduks' Armor 3 is raised to 4 (to 6 behind field fortifications); cavalry
/// gets cover behind a fence but not behind fortifications.
#[test]
fn bfs_ter_27_cover_and_armor_behind_an_obstacle() {
    for (who, kind, cover, raise) in [
        ("haiduks", TerrainKind::Obstacle, true, 1),
        ("haiduks", TerrainKind::Fortification, true, 3),
        ("pancerni", TerrainKind::Fortification, false, 0),
    ] {
        let g = at_the_fence(who, kind);
        let (us, them) = (id(&g, "us"), id(&g, "musketeers"));
        let scene = sandtable_bfs::geo::scene(&g);
        let plan = plan_volley(&g, &scene, them, FireStage::AfterMovement).expect("a volley");
        assert_eq!(plan.target, sandtable_bfs::event::Piece::Unit(us));
        let group = &plan.groups[0];
        let cover_mod = group
            .spec
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-TER-27" && m.delta == -1);
        assert_eq!(cover_mod, cover, "{who} behind {kind:?}");
        let armor: i32 = group
            .armor_mods
            .iter()
            .filter(|m| m.rule.starts_with("BFS-TER"))
            .map(|m| m.delta)
            .sum();
        assert_eq!(armor, raise, "{who} behind {kind:?}");
    }
}

/// BFS-TER-27, BFS-TER-11: defending a fence against infantry on its far side gives Advantage
/// (+1) and costs the attacker −1 to hit; the defenders' Armor is 4 in the fight across it. (No
/// charge reaches across an obstacle yet: the units are placed.)
#[test]
fn bfs_ter_27_defending_an_obstacle_by_position() {
    let mut g = at_the_fence("haiduks", TerrainKind::Obstacle);
    set_order(&mut g, "us", Some(OrderKind::Defense));
    let (us, them) = (id(&g, "us"), id(&g, "musketeers"));
    // The musketeers step up to the fence's north side.
    let up = sandtable_geometry::Vec2::new(0.0, -20.0);
    for b in &mut g.unit_mut(them).bases {
        *b = b.translated(up);
    }
    let adv = sandtable_bfs::ground::advantage(&g, us, &[them]).expect("Advantage");
    assert_eq!((adv.rule.as_str(), adv.delta), ("BFS-TER-27", 1));
    assert_eq!(
        sandtable_bfs::ground::attack_penalty(&g, them, us).map(|m| m.delta),
        Some(-1)
    );
    assert_eq!(
        sandtable_bfs::obstacle::armor_raise(&g, us, them, false).map(|m| m.delta),
        Some(1)
    );
    assert!(sandtable_bfs::ground::advantage(&g, them, &[us]).is_none());
}

/// The unit's menu offers the crossing when its front touches an obstacle squarely.
#[test]
fn bfs_man_16_the_menu_offers_the_crossing() {
    use sandtable_bfs::present::menu::menu;
    use sandtable_bfs::present::table::unit_piece;
    use sandtable_engine::present::MenuChoices;
    let mut g = at_the_fence("haiduks", TerrainKind::Obstacle);
    set_order(&mut g, "us", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let us = id(&g, "us");
    let m = menu(&g, 0, Some(unit_piece(us)), None, &MenuChoices::default());
    let cross = m
        .items
        .iter()
        .find(|i| i.label == "Cross the obstacle ahead")
        .expect("offered");
    assert!(Bfs::legal(&g, &cross.command).is_ok());
}

/// BFS-TER-17, BFS-TER-18: a river is impassable except at its bridge (crossed as a road, at full
/// Move) and its ford (a stream: difficult ground, half Move); a lake is impassable.
#[test]
fn bfs_ter_17_18_rivers_cross_at_bridges_and_fords_lakes_never() {
    let strip = |kind, from: f32, to: f32| TerrainSpec {
        kind,
        name: None,
        shape: ShapeSpec::Strip {
            points: vec![(from, 60.0), (to, 60.0)],
            width: 8.0,
        },
    };
    let s = setup(
        &[
            unit("bridge", 0, "haiduks", 3, 3, (30.0, 55.0), 0.0),
            unit("ford", 0, "haiduks", 3, 3, (90.0, 55.0), 0.0),
            unit("river", 0, "haiduks", 3, 3, (60.0, 55.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![
            strip(TerrainKind::River, 0.0, 20.0),
            strip(TerrainKind::Bridge, 20.0, 40.0),
            strip(TerrainKind::River, 40.0, 80.0),
            strip(TerrainKind::Ford, 80.0, 100.0),
            strip(TerrainKind::Lake, 100.0, 120.0),
        ],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    for k in ["bridge", "ford", "river"] {
        set_order(&mut g, k, Some(OrderKind::Move));
    }
    at_movement(&mut g, Side::A, false);
    let forward = |g: &Game, key: &str, d: f32| {
        Bfs::legal(
            g,
            &Command::Move {
                unit: id(g, key),
                steps: vec![MoveStep::Forward(d)],
            },
        )
    };
    // Haiduks move 10 cm: the full 10 over the bridge.
    assert!(forward(&g, "bridge", 10.0).is_ok());
    // Into the ford they may go at most half their Move, 5 cm in all (BFS-TER-2).
    assert!(forward(&g, "ford", 5.0).is_ok());
    assert_eq!(forward(&g, "ford", 6.0).unwrap_err().rule, "BFS-TER-2");
    // The river stops them.
    assert_eq!(forward(&g, "river", 2.0).unwrap_err().rule, "BFS-TER-4");
    let lake = g
        .terrain
        .iter()
        .find(|t| t.kind == TerrainKind::Lake)
        .unwrap();
    let p = g.unit_profile(id(&g, "river"));
    assert_eq!(
        sandtable_bfs::geo::terrain_class(lake.kind, p),
        sandtable_bfs::geo::TerrainClass::Impassable
    );
}
