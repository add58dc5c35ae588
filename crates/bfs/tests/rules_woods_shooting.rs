//! Shooting out of a wood (BFS-TER-23 forest, BFS-TER-24 grove; rules revision 15): only the
//! first rank shoots, and a base inside the wood but not on its edge shoots at −1; and through a
//! wood (rules revision 16): a line of fire crossing one costs −1.

mod support;

use sandtable_bfs::Game;
use sandtable_bfs::profile::SpecialRule;
use sandtable_bfs::shooting::ranks::RankVolley;
use sandtable_bfs::shooting::{Fire, FireStage, VolleyPlan};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::{BattleSetup, Bfs};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use support::*;

/// A wood whose south edge runs along y = `south` (from x = 40 to 80), reaching north to y = 80.
fn wood(kind: TerrainKind, south: f32) -> TerrainSpec {
    TerrainSpec {
        kind,
        name: Some(format!("{kind:?}")),
        shape: ShapeSpec::Polygon(vec![
            (40.0, south),
            (80.0, south),
            (80.0, 80.0),
            (40.0, 80.0),
        ]),
    }
}

/// Swedish musketeers (side B) of `bases` bases 2 wide, their front's middle at (60, 65) facing
/// south, given `rule`, under a Defense order, 25 cm from 4 haiduks facing them; `terrain`
/// around them.
fn musketeers(bases: u8, rule: Option<SpecialRule>, terrain: Vec<TerrainSpec>) -> Game {
    let mut s: BattleSetup = setup(
        &[
            unit("musketeers", 1, "musketeers", bases, 2, (60.0, 65.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        ],
        terrain,
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "musketeers" {
            p.special_rules.extend(rule);
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "musketeers", Some(OrderKind::Defense));
    g
}

fn volley(g: &Game) -> VolleyPlan {
    sandtable_bfs::preview::volley(g, id(g, "musketeers"), FireStage::DefendersFire)
        .expect("the haiduks are in range and in sight")
}

/// How many bases fire, and how many of them take each modifier of `rule`.
fn bases_and_penalised(plan: &VolleyPlan, rule: &str) -> (u32, u32) {
    let all = plan.groups.iter().map(|g| g.bases).sum();
    let penalised = plan
        .groups
        .iter()
        .filter(|g| {
            g.spec
                .modifiers
                .iter()
                .any(|m| m.rule == rule && m.delta == -1)
        })
        .map(|g| g.bases)
        .sum();
    (all, penalised)
}

/// BFS-TER-24: a Salvo unit in two ranks fires with both in the open, with its first rank only
/// out of a grove, even with its front on the grove's edge (which spares it the −1).
#[test]
fn bfs_ter_24_only_the_first_rank_shoots_out_of_a_grove() {
    let open = musketeers(4, Some(SpecialRule::Salvo), vec![]);
    let plan = volley(&open);
    assert_eq!(plan.fire, Fire::Ranks(RankVolley::Salvo));
    assert_eq!(bases_and_penalised(&plan, "BFS-TER-24"), (4, 0));

    let in_grove = musketeers(
        4,
        Some(SpecialRule::Salvo),
        vec![wood(TerrainKind::Grove, 65.0)],
    );
    let plan = volley(&in_grove);
    assert_eq!(plan.fire, Fire::Weapon, "no Salvo out of a grove");
    assert_eq!(
        bases_and_penalised(&plan, "BFS-TER-24"),
        (2, 0),
        "the first rank, on the grove's edge: no penalty"
    );
    assert!(
        sandtable_bfs::ground::first_rank_only(&in_grove, id(&in_grove, "musketeers"))
            .is_some_and(|why| why.contains("BFS-TER-24"))
    );
}

/// BFS-TER-23: a unit whose front touches the forest's edge shoots out of it with no penalty; 2 cm
/// inside (sight still reaches 5 cm out, BFS-TER-9) every base takes −1.
#[test]
fn bfs_ter_23_shooting_from_inside_a_forest_but_not_from_its_edge() {
    let on_edge = musketeers(2, None, vec![wood(TerrainKind::Forest, 65.0)]);
    assert_eq!(bases_and_penalised(&volley(&on_edge), "BFS-TER-23"), (2, 0));
    let inside = musketeers(2, None, vec![wood(TerrainKind::Forest, 63.0)]);
    let plan = volley(&inside);
    assert_eq!(bases_and_penalised(&plan, "BFS-TER-23"), (2, 2));
    assert_eq!(plan.groups.len(), 1, "one group, both bases at −1");
    // The open: no penalty.
    let open = musketeers(2, None, vec![]);
    assert_eq!(bases_and_penalised(&volley(&open), "BFS-TER-23"), (2, 0));
}

/// BFS-TER-23 with BFS-TER-10: within one unit some bases may take the penalty and others not.
/// The forest's edge steps back 2 cm at x = 59: the western base's front lies on the edge, the
/// eastern one's 2 cm inside; the two roll in separate groups, only the eastern at −1.
#[test]
fn bfs_ter_23_the_penalty_falls_base_by_base() {
    let stepped = TerrainSpec {
        kind: TerrainKind::Forest,
        name: Some("Stepped forest".into()),
        shape: ShapeSpec::Polygon(vec![
            (40.0, 65.0),
            (59.0, 65.0),
            (59.0, 63.0),
            (80.0, 63.0),
            (80.0, 80.0),
            (40.0, 80.0),
        ]),
    };
    let g = musketeers(2, None, vec![stepped]);
    let plan = volley(&g);
    assert_eq!(bases_and_penalised(&plan, "BFS-TER-23"), (2, 1));
    let m = g.unit(id(&g, "musketeers"));
    let east: Vec<bool> = m
        .bases
        .iter()
        .map(|b| sandtable_bfs::ground::shooting_from_inside_a_wood(&g, b).is_some())
        .collect();
    assert_eq!(east.iter().filter(|x| **x).count(), 1, "{east:?}");
    for (b, inside) in m.bases.iter().zip(&east) {
        assert_eq!(*inside, b.center().x > 60.0, "only the eastern base");
    }
}

/// Battles recorded before rules revision 15 shot from a wood as from open ground: a Salvo, and
/// no penalty from inside.
#[test]
fn before_revision_15_a_wood_changed_nothing_for_the_shooter() {
    let mut g = musketeers(
        4,
        Some(SpecialRule::Salvo),
        vec![wood(TerrainKind::Forest, 63.0)],
    );
    g.info.options.rules_revision = 14;
    let plan = volley(&g);
    assert_eq!(plan.fire, Fire::Ranks(RankVolley::Salvo));
    assert_eq!(bases_and_penalised(&plan, "BFS-TER-23"), (4, 0));
}

/// A strip of wood 3 cm deep from y = 50 to 53, between x = `west` and `east`: the musketeers at
/// y = 65 see and shoot through it at the haiduks at y = 40 (sight reaches 5 cm into a wood,
/// BFS-TER-9).
fn strip(kind: TerrainKind, west: f32, east: f32) -> TerrainSpec {
    TerrainSpec {
        kind,
        name: Some(format!("{kind:?} strip")),
        shape: ShapeSpec::Polygon(vec![(west, 50.0), (east, 50.0), (east, 53.0), (west, 53.0)]),
    }
}

/// BFS-TER-24 (the quick reference: "Shooting at Bases in this terrain or through this terrain:
/// −1"): every base whose line of fire runs through a grove takes −1; a grove beside the lines
/// costs nothing.
#[test]
fn bfs_ter_24_shooting_through_a_grove() {
    let across = musketeers(2, None, vec![strip(TerrainKind::Grove, 30.0, 90.0)]);
    let plan = volley(&across);
    assert_eq!(bases_and_penalised(&plan, "BFS-TER-24"), (2, 2));
    let penalties: i32 = plan.groups[0]
        .spec
        .modifiers
        .iter()
        .filter(|m| m.rule.starts_with("BFS-TER-2"))
        .map(|m| m.delta)
        .sum();
    assert_eq!(penalties, -1, "one −1 for the grove: {:?}", plan.groups);
    let beside = musketeers(2, None, vec![strip(TerrainKind::Grove, 75.0, 90.0)]);
    assert_eq!(bases_and_penalised(&volley(&beside), "BFS-TER-24"), (2, 0));
}

/// BFS-TER-23: the quick reference gives the same −1 for shooting through a forest (the digest
/// lists only the shot at a target in one; the source wins).
#[test]
fn bfs_ter_23_shooting_through_a_forest() {
    let across = musketeers(2, None, vec![strip(TerrainKind::Forest, 30.0, 90.0)]);
    assert_eq!(bases_and_penalised(&volley(&across), "BFS-TER-23"), (2, 2));
}

/// BFS-TER-24 with BFS-SHO-17: a target standing wholly in the grove is in cover, −1; the 2 cm
/// of grove the line crosses in front of it are the same grove, not a second −1.
#[test]
fn bfs_ter_24_a_target_in_the_grove_is_in_cover_not_shot_through() {
    let grove = TerrainSpec {
        kind: TerrainKind::Grove,
        name: Some("Grove round the haiduks".into()),
        shape: ShapeSpec::Polygon(vec![(30.0, 20.0), (90.0, 20.0), (90.0, 42.0), (30.0, 42.0)]),
    };
    let g = musketeers(2, None, vec![grove]);
    let plan = volley(&g);
    assert_eq!(bases_and_penalised(&plan, "BFS-TER-24"), (2, 0));
    assert_eq!(bases_and_penalised(&plan, "BFS-SHO-17"), (2, 2));
}

/// A Salvo's second rank fires along the first rank's lines (BFS-SPC-29), so through the grove
/// with it: all four bases at −1.
#[test]
fn bfs_ter_24_a_salvo_through_a_grove_costs_both_ranks() {
    let g = musketeers(
        4,
        Some(SpecialRule::Salvo),
        vec![strip(TerrainKind::Grove, 30.0, 90.0)],
    );
    let plan = volley(&g);
    assert_eq!(plan.fire, Fire::Ranks(RankVolley::Salvo));
    assert_eq!(bases_and_penalised(&plan, "BFS-TER-24"), (4, 4));
}

/// Battles recorded before rules revision 16 shot through a wood's corner for nothing.
#[test]
fn before_revision_16_a_line_through_a_wood_cost_nothing() {
    let mut g = musketeers(2, None, vec![strip(TerrainKind::Grove, 30.0, 90.0)]);
    g.info.options.rules_revision = 15;
    assert_eq!(bases_and_penalised(&volley(&g), "BFS-TER-24"), (2, 0));
}
