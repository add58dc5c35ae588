//! Marching (BFS-MOV-15, BFS-AMV-2, BFS-CDR-4).

mod support;

use sandtable_bfs::command::MoveStep;
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::shooting::{FireStage, shoots_in};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use sandtable_geometry::Vec2;
use support::*;

/// `who` (side A, `files` files of 3 bases) at x = 60 with its front at y = 40 facing north,
/// a Move order, side A moving; Swedish musketeers facing it with their front at `enemy_y`.
fn marching(who: &'static str, files: u8, enemy_y: f32, terrain: Vec<TerrainSpec>) -> Game {
    let s = setup(
        &[
            unit("us", 0, who, 3, files, (60.0, 40.0), 0.0),
            unit("them", 1, "musketeers", 3, 3, (60.0, enemy_y), 180.0),
        ],
        terrain,
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "us", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    g
}

fn march(g: &Game, steps: &[MoveStep]) -> Result<(), String> {
    let mut all = vec![MoveStep::March];
    all.extend_from_slice(steps);
    Bfs::legal(
        g,
        &Command::Move {
            unit: id(g, "us"),
            steps: all,
        },
    )
    .map_err(|e| e.rule)
}

/// BFS-AMV-2: marching adds 5 cm to infantry's Move (haiduks: 10 + 5) and 10 cm to cavalry's
/// (pancerni: 20 + 10).
#[test]
fn bfs_amv_2_march_adds_5_cm_for_infantry_and_10_for_cavalry() {
    let g = marching("haiduks", 1, 110.0, vec![]);
    assert_eq!(march(&g, &[MoveStep::Forward(15.0)]), Ok(()));
    assert_eq!(
        march(&g, &[MoveStep::Forward(15.1)]).unwrap_err(),
        "BFS-MOV-6"
    );
    let g = marching("pancerni", 1, 110.0, vec![]);
    assert_eq!(march(&g, &[MoveStep::Forward(30.0)]), Ok(()));
    assert_eq!(
        march(&g, &[MoveStep::Forward(30.1)]).unwrap_err(),
        "BFS-MOV-6"
    );
}

/// BFS-MOV-15: a Line does not march; it may form a Column and march, or march in Column and
/// then form a Line, but not Line → Column → march → Line (unless the scenario takes the other
/// reading, `march_between_reforms`).
#[test]
fn bfs_mov_15_who_marches_in_which_formation() {
    let g = marching("haiduks", 3, 110.0, vec![]);
    assert_eq!(
        march(&g, &[MoveStep::Forward(5.0)]).unwrap_err(),
        "BFS-MOV-15"
    );
    let to_column = [MoveStep::Frontage(-1), MoveStep::Frontage(-1)];
    let mut column_then_march = to_column.to_vec();
    column_then_march.push(MoveStep::Forward(5.0));
    assert_eq!(march(&g, &column_then_march), Ok(()));
    let mut there_and_back = column_then_march.clone();
    there_and_back.push(MoveStep::Frontage(1));
    assert_eq!(march(&g, &there_and_back).unwrap_err(), "BFS-MOV-15");
    let mut lenient = g.clone();
    lenient.info.options.march_between_reforms = true;
    assert_eq!(march(&lenient, &there_and_back), Ok(()));
    let g = marching("haiduks", 1, 110.0, vec![]);
    assert_eq!(
        march(&g, &[MoveStep::Forward(5.0), MoveStep::Frontage(1)]),
        Ok(())
    );
}

/// BFS-AMV-2: no march within 20 cm of an enemy: with the musketeers 25 cm ahead the haiduks
/// march 4 cm (21 cm left) but not 6 cm (19 cm); 19 cm away they do not march at all.
#[test]
fn bfs_amv_2_never_within_20_cm_of_the_enemy() {
    let g = marching("haiduks", 1, 65.0, vec![]);
    assert_eq!(march(&g, &[MoveStep::Forward(4.0)]), Ok(()));
    assert_eq!(
        march(&g, &[MoveStep::Forward(6.0)]).unwrap_err(),
        "BFS-AMV-2"
    );
    let g = marching("haiduks", 1, 59.0, vec![]);
    assert_eq!(
        march(&g, &[MoveStep::Backward(1.0)]).unwrap_err(),
        "BFS-AMV-2"
    );
}

fn strip(kind: TerrainKind) -> TerrainSpec {
    TerrainSpec {
        kind,
        name: Some(format!("{kind:?}")),
        shape: ShapeSpec::Rect {
            center: (60.0, 50.0),
            size: (20.0, 4.0),
            rotation: 0.0,
        },
    }
}

/// BFS-AMV-2: a march goes over open ground or along a road: across a wheat field 8 cm ahead it
/// is refused; along a road it is not.
#[test]
fn bfs_amv_2_open_ground_and_roads_only() {
    let g = marching("haiduks", 1, 110.0, vec![strip(TerrainKind::WheatField)]);
    assert_eq!(
        march(&g, &[MoveStep::Forward(15.0)]).unwrap_err(),
        "BFS-AMV-2"
    );
    assert_eq!(march(&g, &[MoveStep::Forward(7.0)]), Ok(()));
    let g = marching("haiduks", 1, 110.0, vec![strip(TerrainKind::Road)]);
    assert_eq!(march(&g, &[MoveStep::Forward(15.0)]), Ok(()));
}

/// BFS-AMV-2: Open Order units march without forming a Column (the cossacks: 20 + 10 cm).
#[test]
fn bfs_amv_2_open_order_marches_as_it_stands() {
    let g = marching("cossack-cavalry", 3, 110.0, vec![]);
    assert_eq!(march(&g, &[MoveStep::Forward(30.0)]), Ok(()));
}

/// BFS-AMV-2: a unit that marched does not shoot that turn.
#[test]
fn bfs_amv_2_no_shooting_after_a_march() {
    let mut g = marching("haiduks", 1, 90.0, vec![]);
    let us = id(&g, "us");
    run(
        &mut g,
        Command::Move {
            unit: us,
            steps: vec![MoveStep::March, MoveStep::Forward(10.0)],
        },
    );
    assert!(g.unit(us).flags.marched);
    assert!(!shoots_in(&g, us, FireStage::AfterMovement));
}

/// BFS-CDR-4: a commander marches (mounted: 20 + 10 cm) even within 20 cm of the enemy, and a
/// lone enemy commander does not stop a unit from marching.
#[test]
fn bfs_cdr_4_commanders_march_near_the_enemy() {
    let mut g = marching("haiduks", 1, 110.0, vec![]);
    // Our colonel at (30, 40) facing north, the musketeers moved 15 cm east of his path.
    let colonel = CommanderId(0);
    let c = g.commander(colonel).base;
    g.commander_mut(colonel).base = c.translated(Vec2::new(30.0, 40.0) - c.center());
    let them = id(&g, "them");
    let shift = Vec2::new(45.0, 60.0) - sandtable_bfs::geo::frame_of(&g.unit(them).bases).center();
    for b in &mut g.unit_mut(them).bases {
        *b = b.translated(shift);
    }
    let go = |d: f32| Command::MoveCommander {
        commander: colonel,
        steps: vec![MoveStep::March, MoveStep::Forward(d)],
    };
    assert!(
        Bfs::legal(&g, &go(30.0)).is_ok(),
        "{:?}",
        Bfs::legal(&g, &go(30.0))
    );
    assert_eq!(Bfs::legal(&g, &go(30.1)).unwrap_err().rule, "BFS-MOV-6");
    // The Swedish colonel 8 cm beside the haiduks does not stop their march.
    let mut g = marching("haiduks", 1, 110.0, vec![]);
    let swede = CommanderId(1);
    let s = g.commander(swede).base;
    g.commander_mut(swede).base = s.translated(Vec2::new(70.0, 48.0) - s.center());
    assert_eq!(march(&g, &[MoveStep::Forward(5.0)]), Ok(()));
}

/// A forest `width` cm wide and 6 deep, centred on (60, 50) across the unit's way north.
fn forest_across(width: f32) -> TerrainSpec {
    TerrainSpec {
        kind: TerrainKind::Forest,
        name: Some("Wood".into()),
        shape: ShapeSpec::Rect {
            center: (60.0, 50.0),
            size: (width, 6.0),
            rotation: 0.0,
        },
    }
}

/// A road 3 cm wide running north along x = 60, under the middle of the unit.
fn north_road() -> TerrainSpec {
    TerrainSpec {
        kind: TerrainKind::Road,
        name: Some("Road".into()),
        shape: ShapeSpec::Strip {
            points: vec![(60.0, 20.0), (60.0, 80.0)],
            width: 3.0,
        },
    }
}

/// BFS-TER-22: a road through a wood overrides it, for marching and for moving. A Column whose
/// middle is on the road marches and moves through the wood; beside the road it may not; battles
/// recorded before rules revision 4 refused both.
#[test]
fn bfs_ter_22_a_road_through_a_wood_lets_a_column_march_through() {
    let wood = forest_across(30.0);
    let road = north_road();
    let g = marching("haiduks", 1, 110.0, vec![wood.clone(), road.clone()]);
    assert_eq!(march(&g, &[MoveStep::Forward(15.0)]), Ok(()));
    // An ordinary move along the road is not slowed by the wood either: the haiduks' full
    // 10 cm, where the wood alone would stop them at its edge (BFS-TER-2).
    let ordinary = |g: &Game| {
        Bfs::legal(
            g,
            &Command::Move {
                unit: id(g, "us"),
                steps: vec![MoveStep::Forward(10.0)],
            },
        )
        .map_err(|e| e.rule)
    };
    assert_eq!(ordinary(&g), Ok(()));
    let mut old = g.clone();
    old.info.options.rules_revision = 3;
    assert!(march(&old, &[MoveStep::Forward(15.0)]).is_err());
    assert_eq!(ordinary(&old).unwrap_err(), "BFS-TER-2");
    // 5 cm off the road the Column's middle is in the wood.
    let mut beside = g.clone();
    let us = id(&beside, "us");
    for b in beside.unit_mut(us).bases.iter_mut() {
        *b = b.translated(Vec2::new(5.0, 0.0));
    }
    assert!(march(&beside, &[MoveStep::Forward(15.0)]).is_err());
    assert_eq!(ordinary(&beside).unwrap_err(), "BFS-TER-2");
}

/// BFS-TER-22 for Open Order: a copse 3.6 cm wide stands on the road before the middle cossack
/// base. Riding on the road, the cossacks shift their full 20 cm, the middle base through the
/// copse; without the road it stops them at its edge (very difficult ground for cavalry).
#[test]
fn bfs_ter_22_an_open_order_base_on_the_road_rides_through_the_wood() {
    let copse = forest_across(3.6);
    let road = north_road();
    let ride = |g: &Game| {
        Bfs::legal(
            g,
            &Command::Move {
                unit: id(g, "us"),
                steps: vec![MoveStep::Shift {
                    dx: 0.0,
                    dy: 20.0,
                    degrees: 0.0,
                }],
            },
        )
        .map_err(|e| e.rule)
    };
    let g = marching("cossack-cavalry", 3, 110.0, vec![copse.clone(), road]);
    let middle = g.unit(id(&g, "us")).bases[1].center();
    assert!((middle.x - 60.0).abs() < 0.01, "{middle:?}");
    assert_eq!(ride(&g), Ok(()));
    let no_road = marching("cossack-cavalry", 3, 110.0, vec![copse]);
    assert_eq!(ride(&no_road).unwrap_err(), "BFS-TER-3");
}
