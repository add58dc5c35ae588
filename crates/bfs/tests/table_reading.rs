//! What the table shows of each unit at a glance (issue 19): its troop type's symbol and what it
//! has suffered.

mod support;

use sandtable_bfs::Bfs;
use sandtable_bfs::present::table::status_markers;
use sandtable_bfs::state::MoraleLevel;
use sandtable_engine::present::Emblem;
use sandtable_engine::{Present, Ruleset};
use support::*;

/// Each unit's symbol follows its kind and weapons: hussars and reiters are horse, cossacks light
/// horse, haiduks shot, Swedish pikemen pikes; the list's dragoons fight dismounted with muskets
/// (an infantry profile), so they show as shot.
#[test]
fn every_unit_shows_its_troop_type() {
    let g = game(&[
        unit("hussars", 0, "winged-hussars", 3, 3, (20.0, 20.0), 0.0),
        unit("cossacks", 0, "cossack-cavalry", 3, 3, (40.0, 20.0), 0.0),
        unit("haiduks", 0, "haiduks", 3, 3, (60.0, 20.0), 0.0),
        unit("dragoons", 0, "polish-dragoons", 2, 2, (80.0, 20.0), 0.0),
        unit("pikes", 1, "pikemen", 3, 3, (40.0, 90.0), 180.0),
        unit("reiters", 1, "reiters", 3, 3, (70.0, 90.0), 180.0),
    ]);
    let scene = Bfs::table(&Bfs::view(&g, 0), 0);
    let emblem = |key: &str| {
        scene
            .pieces
            .iter()
            .find(|p| p.key == key)
            .and_then(|p| p.emblem)
    };
    assert_eq!(emblem("hussars"), Some(Emblem::Cavalry));
    assert_eq!(emblem("cossacks"), Some(Emblem::LightCavalry));
    assert_eq!(emblem("haiduks"), Some(Emblem::Shot));
    assert_eq!(emblem("dragoons"), Some(Emblem::Shot));
    assert_eq!(emblem("pikes"), Some(Emblem::Pikes));
    assert_eq!(emblem("reiters"), Some(Emblem::Cavalry));
}

/// A unit as it began, within its commander's range, shows no status; one beyond it is out of
/// command; one that lost a base, carries casualty markers and is Disorganized shows all three,
/// and every seat sees them.
#[test]
fn what_a_unit_has_suffered_is_marked_beside_it() {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 20.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 90.0), 180.0),
    ]);
    let h = id(&g, "haiduks");
    // Its colonel stands at (4, 4), 55 cm from it, beyond his 40 cm range (BFS-CMD-3).
    assert_eq!(status_markers(&g, g.unit(h)), vec!["OoC"]);
    let colonel = g
        .commanders
        .iter()
        .position(|c| c.side == g.unit(h).side)
        .unwrap();
    g.commanders[colonel].base = g.commanders[colonel]
        .base
        .translated(sandtable_geometry::Vec2::new(50.0, 0.0));
    assert!(status_markers(&g, g.unit(h)).is_empty());
    {
        let u = g.unit_mut(h);
        u.bases.pop();
        u.bases_destroyed += 1;
        u.casualty_markers = 2;
        u.morale = MoraleLevel::Disorganized;
    }
    assert_eq!(status_markers(&g, g.unit(h)), vec!["3/4", "×2", "Dz"]);
    let other = Bfs::table(&Bfs::view(&g, 1), 1);
    let tokens: Vec<&str> = other
        .pieces
        .iter()
        .find(|p| p.key == "haiduks")
        .unwrap()
        .tokens
        .iter()
        .map(|t| t.text.as_str())
        .collect();
    for m in ["3/4", "×2", "Dz"] {
        assert!(tokens.contains(&m), "{tokens:?}");
    }
}
