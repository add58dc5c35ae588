//! Squadrons (BFS-SQN-1..5): identical units of one regiment merged at deployment.

mod support;

use sandtable_bfs::load::check_scenario;
use sandtable_bfs::morale::{MoraleCause, morale_modifiers};
use sandtable_bfs::squadron::SquadronSpec;
use sandtable_bfs::state::Formation;
use sandtable_bfs::{BattleSetup, Bfs};
use sandtable_engine::Ruleset;
use support::*;

/// Swedish units of side B, given as (key, profile, front-middle x), 3 bases in line facing
/// south at y = 60, with a squadron of the first `n` of them.
fn swedes(units: &[(&'static str, &'static str, f32)], n: usize) -> BattleSetup {
    let placed: Vec<Placed> = units
        .iter()
        .map(|(k, p, x)| unit(k, 1, p, 3, 3, (*x, 60.0), 180.0))
        .chain([unit("poles", 0, "pancerni", 3, 3, (60.0, 20.0), 0.0)])
        .collect();
    let mut s = setup(&placed, vec![]);
    s.scenario.rules.forces[1].squadrons = vec![SquadronSpec {
        id: "squadron".into(),
        name: Some("Reiter squadron".into()),
        units: units.iter().take(n).map(|u| u.0.to_string()).collect(),
    }];
    s
}

fn problem(s: &BattleSetup) -> Option<String> {
    check_scenario(&s.scenario, &s.armies)
        .into_iter()
        .find(|p| p.entity == "squadron \"squadron\"")
        .map(|p| p.message)
}

/// BFS-SQN-2, BFS-SQN-3: two reiter banners side by side (12 cm fronts, touching) deploy as one
/// unit of 6 bases in a line of 6 files, and the 6 bases give it +1 Morale (BFS-PSY-4).
#[test]
fn bfs_sqn_2_two_banners_side_by_side_become_one_unit() {
    let s = swedes(&[("r1", "reiters", 54.0), ("r2", "reiters", 66.0)], 2);
    assert_eq!(problem(&s), None);
    let g = Bfs::setup(&s, 1).unwrap();
    assert!(g.units.iter().all(|u| u.key != "r1" && u.key != "r2"));
    let sq = id(&g, "squadron");
    let u = g.unit(sq);
    assert_eq!((u.bases.len(), u.bases_at_start), (6, 6));
    assert_eq!(u.formation, Formation::Close { files: 6 });
    assert_eq!(u.name, "Reiter squadron");
    let mods = morale_modifiers(&g, sq, &MoraleCause::Shooting);
    assert!(
        mods.iter().any(|m| m.rule == "BFS-PSY-4" && m.delta == 1),
        "{mods:?}"
    );
}

/// BFS-SQN-1: at most 6 bases of cavalry.
#[test]
fn bfs_sqn_1_at_most_six_bases_of_cavalry() {
    let s = swedes(
        &[
            ("r1", "reiters", 42.0),
            ("r2", "reiters", 54.0),
            ("r3", "reiters", 66.0),
        ],
        3,
    );
    let why = problem(&s).expect("refused");
    assert!(why.contains("at most 6"), "{why}");
}

/// BFS-SQN-4: only identical units; BFS-SQN-2: deployed together as one Line or Column.
#[test]
fn bfs_sqn_4_identical_units_deployed_together() {
    let mixed = swedes(&[("r1", "reiters", 54.0), ("f1", "finnish-horse", 66.0)], 2);
    assert!(problem(&mixed).expect("refused").contains("identical"));
    let apart = swedes(&[("r1", "reiters", 40.0), ("r2", "reiters", 80.0)], 2);
    assert!(problem(&apart).expect("refused").contains("Line or Column"));
    let alone = swedes(&[("r1", "reiters", 54.0), ("r2", "reiters", 66.0)], 1);
    assert!(problem(&alone).expect("refused").contains("at least two"));
}
