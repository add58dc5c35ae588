//! Movement (BFS-MOV) and maneuvers (BFS-MAN).

mod support;

use sandtable_bfs::command::{MoveStep, PivotCorner, TurnKind};
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{Formation, OrderKind};
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use support::*;

fn haiduks_alone() -> Game {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (20.0, 100.0), 180.0),
    ]);
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    g
}

/// A rectangle of ground of `kind`, `rotation` clockwise degrees as in a scenario.
fn ground(
    kind: sandtable_engine::scenario::TerrainKind,
    center: (f32, f32),
    size: (f32, f32),
    rotation: f32,
) -> sandtable_engine::scenario::TerrainSpec {
    sandtable_engine::scenario::TerrainSpec {
        kind,
        name: Some("ground".into()),
        shape: sandtable_engine::scenario::ShapeSpec::Rect {
            center,
            size,
            rotation,
        },
    }
}

/// Four bases of haiduks `files` wide, front at y = 43 facing north, with `terrain` about them
/// and a Move order, side A moving; Swedish reiters far off.
fn haiduks_by(terrain: Vec<sandtable_engine::scenario::TerrainSpec>, files: u8) -> Game {
    let s = setup(
        &[
            unit("haiduks", 0, "haiduks", 4, files, (60.0, 43.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (20.0, 100.0), 180.0),
        ],
        terrain,
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    g
}

fn mv(g: &Game, steps: Vec<MoveStep>) -> Result<(), sandtable_engine::RuleError> {
    Bfs::legal(
        g,
        &Command::Move {
            unit: id(g, "haiduks"),
            steps,
        },
    )
}

/// BFS-MOV-6: forward up to the Move; backward costs double, so at most half the Move.
#[test]
fn bfs_mov_6_backward_costs_double() {
    let g = haiduks_alone();
    assert!(mv(&g, vec![MoveStep::Forward(10.0)]).is_ok());
    assert_eq!(
        mv(&g, vec![MoveStep::Forward(10.5)]).unwrap_err().rule,
        "BFS-MOV-6"
    );
    assert!(mv(&g, vec![MoveStep::Backward(5.0)]).is_ok());
    assert_eq!(
        mv(&g, vec![MoveStep::Backward(5.5)]).unwrap_err().rule,
        "BFS-MOV-6"
    );
    assert!(
        mv(&g, vec![MoveStep::Forward(4.0), MoveStep::Backward(3.0)]).is_ok(),
        "4 + 2×3 = 10"
    );
}

/// BFS-MOV-14: a wheel costs the travel of the corner diagonally opposite the pivot. The book's
/// example: that corner travels 5 cm, leaving 5 of a 10 cm Move.
#[test]
fn bfs_mov_14_wheel_costs_the_far_corners_arc() {
    let g = haiduks_alone();
    // 4 infantry bases in line: 16 × 2 cm; the diagonal is √(16² + 2²) ≈ 16.125 cm.
    let radius = (16.0f32 * 16.0 + 2.0 * 2.0).sqrt();
    let degrees = (5.0 / radius).to_degrees();
    let wheel = MoveStep::Wheel {
        pivot: PivotCorner::FrontLeft,
        degrees,
    };
    assert!(mv(&g, vec![wheel, MoveStep::Forward(4.99)]).is_ok());
    let err = mv(&g, vec![wheel, MoveStep::Forward(5.1)]).unwrap_err();
    assert_eq!(err.rule, "BFS-MOV-6");
    let mut g2 = g.clone();
    let e = run(
        &mut g2,
        Command::Move {
            unit: id(&g, "haiduks"),
            steps: vec![wheel],
        },
    );
    let cost = e
        .iter()
        .find_map(|x| {
            if let sandtable_bfs::Event::Moved { cost_cm, .. } = x {
                Some(*cost_cm)
            } else {
                None
            }
        })
        .unwrap();
    assert!((cost - 5.0).abs() < 1e-3, "{cost}");
}

/// BFS-MOV-7: no closer than 2 cm to an enemy unless charging or fleeing, checked along the path.
#[test]
fn bfs_mov_7_two_centimetre_rule() {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 48.0), 180.0),
    ]);
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    assert!(
        mv(&g, vec![MoveStep::Forward(6.0)]).is_ok(),
        "ends exactly 2 cm away"
    );
    let err = mv(&g, vec![MoveStep::Forward(7.0)]).unwrap_err();
    assert_eq!(err.rule, "BFS-MOV-7");
    assert!(
        err.message.contains("Blocked after 6.0 cm"),
        "{}",
        err.message
    );
}

/// BFS-MAN-9 as a Movement Maneuver (BFS-MAN-8): infantry two ranks deep (4 cm) turning 90°
/// becomes a Column; it costs 2 cm (BFS-MAN-6) and counts against Skill (BFS-MAN-4).
#[test]
fn bfs_man_9_turning_infantry_two_deep_makes_a_column() {
    let mut g = game(&[
        unit("musketeers", 1, "musketeers", 4, 2, (60.0, 90.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 4, (20.0, 20.0), 0.0),
    ]);
    set_order(&mut g, "musketeers", Some(OrderKind::Move));
    at_movement(&mut g, Side::B, false);
    let m = id(&g, "musketeers");
    let e = run(
        &mut g,
        Command::Move {
            unit: m,
            steps: vec![MoveStep::Turn(TurnKind::Left), MoveStep::Forward(8.0)],
        },
    );
    let cost = e
        .iter()
        .find_map(|x| {
            if let sandtable_bfs::Event::Moved { cost_cm, .. } = x {
                Some(*cost_cm)
            } else {
                None
            }
        })
        .unwrap();
    assert!((cost - 10.0).abs() < 1e-3, "2 cm maneuver + 8 cm: {cost}");
    assert_eq!(g.unit(m).formation, Formation::Close { files: 1 });
    assert_eq!(g.unit(m).flags.maneuvers, 1);
}

/// BFS-MAN-4: a Skill 4 unit may make 2 maneuvers a turn, not 3.
#[test]
fn bfs_man_4_maneuvers_limited_by_skill() {
    let mut g = game(&[
        unit("musketeers", 1, "musketeers", 4, 2, (60.0, 90.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 4, (20.0, 20.0), 0.0),
    ]);
    set_order(&mut g, "musketeers", Some(OrderKind::Move));
    at_movement(&mut g, Side::B, false);
    let m = id(&g, "musketeers");
    let three = vec![
        MoveStep::Turn(TurnKind::About),
        MoveStep::Turn(TurnKind::About),
        MoveStep::Turn(TurnKind::About),
    ];
    assert_eq!(
        Bfs::legal(
            &g,
            &Command::Move {
                unit: m,
                steps: three
            }
        )
        .unwrap_err()
        .rule,
        "BFS-MAN-4"
    );
}

/// BFS-MOV-3 and BFS-ORD-8/9: one activation per unit; Defense and No Order units do not move.
#[test]
fn bfs_mov_3_one_activation_and_orders_decide_what_moves() {
    let mut g = haiduks_alone();
    let h = id(&g, "haiduks");
    run(
        &mut g,
        Command::Move {
            unit: h,
            steps: vec![MoveStep::Forward(3.0)],
        },
    );
    assert_eq!(
        mv(&g, vec![MoveStep::Forward(3.0)]).unwrap_err().rule,
        "BFS-MOV-3"
    );
    let mut g = haiduks_alone();
    g.unit_mut(h).order = Some(OrderKind::Defense);
    assert_eq!(
        mv(&g, vec![MoveStep::Forward(3.0)]).unwrap_err().rule,
        "BFS-ORD-8"
    );
    g.unit_mut(h).order = None;
    assert_eq!(
        mv(&g, vec![MoveStep::Forward(3.0)]).unwrap_err().rule,
        "BFS-ORD-9"
    );
    // BFS-PSY-20: with no order it may withdraw half its Move towards its own edge.
    let e = run(&mut g, Command::Withdraw { unit: h });
    assert!(e.iter().any(|x| matches!(x, sandtable_bfs::Event::Withdrew { distance_cm, .. } if (*distance_cm - 5.0).abs() < 1e-3)));
}

/// BFS-TER-2: difficult terrain halves the Move once the unit is in it.
#[test]
fn bfs_ter_2_difficult_terrain_halves_the_move() {
    use sandtable_engine::scenario::TerrainKind;
    let g = haiduks_by(
        vec![ground(TerrainKind::Forest, (60.0, 55.0), (30.0, 20.0), 0.0)],
        4,
    );
    // The wood starts 2 cm ahead: the haiduks may enter (2 < 5) but move 5 cm in all.
    assert!(mv(&g, vec![MoveStep::Forward(5.0)]).is_ok());
    let err = mv(&g, vec![MoveStep::Forward(6.0)]).unwrap_err();
    assert_eq!(err.rule, "BFS-TER-2");
}

/// BFS-TER-3: a wheel that sweeps through very difficult ground is capped at 5 cm from the
/// moment it reaches it, even when it ends clear of it. A small marsh lies ahead of the
/// haiduks' left end, where a wheel on the front-right corner reaches it after 10° (2.8 cm of
/// the far corner's travel) and leaves it about 20°: the wheel may go on, but 5 cm in all.
#[test]
fn bfs_ter_3_a_wheel_through_a_marsh_is_capped_even_when_it_ends_clear() {
    use sandtable_engine::scenario::TerrainKind;
    // The front edge (y = 43, x 52-68) turns about (68, 43); 15 cm along it, 10° round.
    let at = |deg: f32| {
        let a = deg.to_radians();
        (68.0 - 15.0 * a.cos(), 43.0 + 15.0 * a.sin())
    };
    let (cx, cy) = at(10.0);
    let g = haiduks_by(
        vec![ground(
            TerrainKind::Marsh,
            (cx + 0.3, cy + 0.3),
            (0.6, 0.6),
            0.0,
        )],
        4,
    );
    // The far corner's arc: the diagonal of 16 × 2 cm, BFS-MOV-14.
    let radius = (16.0f32 * 16.0 + 2.0 * 2.0).sqrt();
    let wheel_cm = |cm: f32| MoveStep::Wheel {
        pivot: PivotCorner::FrontRight,
        degrees: (cm / radius).to_degrees(),
    };
    // Short of the marsh the whole 10 cm Move is free: 2 cm of wheel, then 3 cm back (6 cm).
    assert!(mv(&g, vec![wheel_cm(2.0), MoveStep::Backward(3.0)]).is_ok());
    // Through it: 5 cm in all, to 0.01 cm.
    assert!(mv(&g, vec![wheel_cm(4.99)]).is_ok());
    assert_eq!(mv(&g, vec![wheel_cm(5.01)]).unwrap_err().rule, "BFS-TER-3");
    // 30° ends clear of the marsh (its rear edge left it near 20°) yet used 8.4 cm.
    let clear = MoveStep::Wheel {
        pivot: PivotCorner::FrontRight,
        degrees: 30.0,
    };
    let err = mv(&g, vec![clear]).unwrap_err();
    assert_eq!(err.rule, "BFS-TER-3", "{err:?}");
    // The same wheel where no marsh lies is the ordinary 8.4 cm of a 10 cm Move.
    let open = haiduks_by(vec![], 4);
    assert!(mv(&open, vec![clear]).is_ok());
}

/// BFS-TER-2: a maneuver that puts a base in difficult ground reaches it as it begins. Haiduks
/// 2 files wide (8 cm) beside a wood that starts 0.5 cm off their right flank: widening to 3
/// files (2 cm, BFS-MAN-12) puts the new file in it. After 3 cm on open ground the widening
/// brings the move to the wood's cap of 5 cm (half the Move); after 6 cm the unit has moved
/// more than 5 cm when it reaches the wood, and must stop at its edge.
#[test]
fn bfs_ter_2_a_frontage_change_into_a_wood_is_slowed() {
    use sandtable_engine::scenario::TerrainKind;
    let g = haiduks_by(
        vec![ground(TerrainKind::Forest, (70.0, 50.0), (11.0, 30.0), 0.0)],
        2,
    );
    // Straight ahead the wood is never met: the whole Move.
    assert!(mv(&g, vec![MoveStep::Forward(10.0)]).is_ok());
    // Widened first: in the wood from the start of the move, 5 cm in all.
    assert!(mv(&g, vec![MoveStep::Frontage(1), MoveStep::Forward(3.0)]).is_ok());
    assert_eq!(
        mv(&g, vec![MoveStep::Frontage(1), MoveStep::Forward(3.1)])
            .unwrap_err()
            .rule,
        "BFS-TER-2"
    );
    // Widened after 3 cm: 5 cm in all; after 6 cm: too late to enter.
    assert!(mv(&g, vec![MoveStep::Forward(3.0), MoveStep::Frontage(1)]).is_ok());
    assert_eq!(
        mv(&g, vec![MoveStep::Forward(3.1), MoveStep::Frontage(1)])
            .unwrap_err()
            .rule,
        "BFS-TER-2"
    );
    let late = mv(&g, vec![MoveStep::Forward(6.0), MoveStep::Frontage(1)]).unwrap_err();
    assert_eq!(late.rule, "BFS-TER-2");
    assert!(late.message.contains("must stop at the edge"), "{late:?}");
}

/// BFS-TER-3 with BFS-AMV-4: a Column following its head meets the ground the head's path
/// crosses, even when the whole Column has passed it by the end. Haiduks in a Column one base
/// wide (4 × 8 cm) with a strip of marsh 0.2–0.8 cm ahead: 9 cm straight on leaves every base
/// clear of it, but the head reached it after 0.2 cm, so the move is capped at 5 cm, as the
/// same 9 cm taken as a plain step already was.
#[test]
fn bfs_ter_3_a_column_following_its_head_meets_the_ground_on_its_path() {
    use sandtable_engine::scenario::TerrainKind;
    let g = haiduks_by(
        vec![ground(TerrainKind::Marsh, (60.0, 43.5), (6.0, 0.6), 0.0)],
        1,
    );
    let bend = |then: f32| MoveStep::Bend {
        pivot: PivotCorner::FrontLeft,
        degrees: 0.0,
        then,
    };
    assert_eq!(
        mv(&g, vec![MoveStep::Forward(9.0)]).unwrap_err().rule,
        "BFS-TER-3"
    );
    assert!(mv(&g, vec![bend(5.0)]).is_ok());
    assert_eq!(mv(&g, vec![bend(9.0)]).unwrap_err().rule, "BFS-TER-3");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48), ..Default::default() })]

    /// BFS-TER-2/3: with nothing but slowing ground about, a longer step straight ahead or back
    /// is never legal where a shorter one is refused, nor a Column's longer run after its head,
    /// nor a longer march (BFS-AMV-2).
    #[test]
    fn bfs_ter_3_a_longer_step_is_never_freer_than_a_shorter_one(
        marsh in proptest::prelude::any::<bool>(),
        x in 44.0f32..76.0,
        y in 30.0f32..60.0,
        w in 0.5f32..12.0,
        h in 0.5f32..12.0,
        rotation in 0.0f32..180.0,
        files in 1u8..=4,
        how in 0u8..4,
    ) {
        use sandtable_engine::scenario::TerrainKind;
        let files = if how == 2 { 1 } else { files };
        let kind = if marsh { TerrainKind::Marsh } else { TerrainKind::Forest };
        let g = haiduks_by(vec![ground(kind, (x, y), (w, h), rotation)], files);
        let mut refused: Option<(f32, String)> = None;
        for k in 1..=30 {
            let d = 0.5 * k as f32;
            let steps = match how {
                0 => vec![MoveStep::Forward(d)],
                1 => vec![MoveStep::Backward(d * 0.5)],
                2 => vec![MoveStep::Bend { pivot: PivotCorner::FrontLeft, degrees: 0.0, then: d }],
                // A march: the Move and 5 cm more, over open ground only (BFS-AMV-2).
                _ => vec![MoveStep::March, MoveStep::Forward(d)],
            };
            match mv(&g, steps) {
                Ok(()) => {
                    if let Some((at, why)) = &refused {
                        proptest::prop_assert!(false, "{at} cm refused ({why}) but {d} cm allowed");
                    }
                }
                Err(e) => {
                    refused.get_or_insert((d, format!("{}: {}", e.rule, e.message)));
                }
            }
        }
    }

    /// BFS-TER-2/3 and BFS-MOV-14: with nothing but slowing ground about, a wider wheel never
    /// becomes legal where a narrower one on the same corner is refused. It sweeps the narrower
    /// one's path and more, meets the same ground no later, and costs more. (Rules revision 14:
    /// before it a pancerni banner could not wheel 30° beside a marsh, but could wheel 60°.)
    #[test]
    fn bfs_ter_3_a_wider_wheel_is_never_freer_than_a_narrower_one(
        marsh in proptest::prelude::any::<bool>(),
        x in 44.0f32..76.0,
        y in 36.0f32..60.0,
        w in 0.5f32..12.0,
        h in 0.5f32..12.0,
        rotation in 0.0f32..180.0,
        files in 1u8..=4,
        left in proptest::prelude::any::<bool>(),
    ) {
        use sandtable_engine::scenario::TerrainKind;
        let kind = if marsh { TerrainKind::Marsh } else { TerrainKind::Forest };
        let g = haiduks_by(vec![ground(kind, (x, y), (w, h), rotation)], files);
        let pivot = if left { PivotCorner::FrontLeft } else { PivotCorner::FrontRight };
        let mut refused: Option<(f32, String)> = None;
        for k in 1..=45 {
            let degrees = 2.0 * k as f32;
            match mv(&g, vec![MoveStep::Wheel { pivot, degrees }]) {
                Ok(()) => {
                    if let Some((at, why)) = &refused {
                        proptest::prop_assert!(false, "{at}° refused ({why}) but {degrees}° allowed");
                    }
                }
                Err(e) => {
                    refused.get_or_insert((degrees, format!("{}: {}", e.rule, e.message)));
                }
            }
        }
    }
}
