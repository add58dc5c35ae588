//! Reforming (BFS-MAN-13).

mod support;

use sandtable_bfs::command::SpecialManeuver;
use sandtable_bfs::ids::Side;
use sandtable_bfs::shooting::{FireStage, shoots_in};
use sandtable_bfs::state::{Formation, Game, OrderKind};
use sandtable_bfs::{Bfs, Command};
use sandtable_engine::Ruleset;
use support::*;

/// Haiduks (Skill 5, Move 10) in a Line of 3 files, 2 ranks (6 bases), front at y = 40 facing
/// north, with a Defense order; side A moving.
fn haiduks() -> Game {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 6, 3, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
    ]);
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    g
}

fn reform(files: u8, degrees: f32) -> impl Fn(&Game) -> Command {
    move |g| Command::Maneuver {
        unit: id(g, "haiduks"),
        maneuvers: vec![SpecialManeuver::Reform { files, degrees }],
    }
}

/// BFS-MAN-13: the haiduks reform into 2 files facing east (turned 90° clockwise) about the
/// middle base of their front rank, which stays where it stands; the rest file in behind it.
/// They use both Special Maneuvers and may not shoot this turn.
#[test]
fn bfs_man_13_reform_into_any_formation_and_facing() {
    let mut g = haiduks();
    let h = id(&g, "haiduks");
    let before = g.unit(h).bases.clone();
    let anchor = before
        .iter()
        .min_by(|a, b| {
            let front = |r: &sandtable_geometry::Rect| (r.center().x - 60.0).abs() - r.center().y;
            front(a).total_cmp(&front(b))
        })
        .copied()
        .unwrap();
    let two_files = reform(2, -90.0)(&g);
    assert!(
        Bfs::legal(&g, &two_files).is_ok(),
        "{:?}",
        Bfs::legal(&g, &two_files)
    );
    run(&mut g, two_files);
    let u = g.unit(h);
    assert_eq!(u.formation, Formation::Close { files: 2 });
    assert!(
        u.bases
            .iter()
            .any(|b| b.center().distance(anchor.center()) < 0.01),
        "the anchor base stays where it stood"
    );
    for b in &u.bases {
        assert!(
            (b.facing().x - 1.0).abs() < 0.01,
            "faces east: {:?}",
            b.facing()
        );
    }
    assert_eq!(u.flags.special_maneuvers, 2);
    assert!(u.flags.reformed);
    assert!(!shoots_in(&g, h, FireStage::AfterMovement));
}

/// BFS-MAN-13: no base may move further than its Move: a Column of 6 haiduks turned about
/// puts the last base more than 10 cm from where it stood.
#[test]
fn bfs_man_13_no_base_beyond_its_move() {
    let g = haiduks();
    let e = Bfs::legal(&g, &reform(1, 180.0)(&g)).unwrap_err();
    assert_eq!(e.rule, "BFS-MAN-13", "{}", e.message);
}

/// BFS-MAN-13, BFS-MAN-5: reforming takes both Special Maneuvers, so it is the only one, and a
/// unit of Skill 3 or less (1 Special Maneuver) cannot reform.
#[test]
fn bfs_man_13_both_special_maneuvers() {
    let g = haiduks();
    let h = id(&g, "haiduks");
    let with_turn = Command::Maneuver {
        unit: h,
        maneuvers: vec![
            SpecialManeuver::Reform {
                files: 3,
                degrees: 0.0,
            },
            SpecialManeuver::Turn(sandtable_bfs::command::TurnKind::About),
        ],
    };
    assert_eq!(Bfs::legal(&g, &with_turn).unwrap_err().rule, "BFS-MAN-5");
    let mut g = haiduks();
    let pid = g.unit(h).profile;
    g.profiles[pid.index()].skill = 3;
    assert_eq!(
        Bfs::legal(&g, &reform(3, 90.0)(&g)).unwrap_err().rule,
        "BFS-MAN-5"
    );
}

/// BFS-MAN-13, BFS-CCW-4: reformed pikemen count as having no order this turn, so their pikes
/// no longer stop a charger's Impetus as a Defense order's would.
#[test]
fn bfs_man_13_reformed_pikes_do_not_stop_impetus() {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 3, 3, (60.0, 40.0), 0.0),
        unit("pikes", 1, "pikemen", 4, 2, (60.0, 80.0), 180.0),
    ]);
    set_order(&mut g, "pikes", Some(OrderKind::Defense));
    let p = id(&g, "pikes");
    assert!(sandtable_bfs::close_combat::polearms_stop_impetus(
        &g, p, true
    ));
    g.unit_mut(p).flags.reformed = true;
    assert!(!sandtable_bfs::close_combat::polearms_stop_impetus(
        &g, p, true
    ));
}
