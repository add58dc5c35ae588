//! The scenario maps the sequence deploys on (BFS-SCN-48): house data in
//! `assets/bfs/scenario-maps.ron`, built into the program, since the book's own maps are not in
//! the sources.

use super::book::BookScenario;
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use sandtable_engine::scenario_script::ObjectiveSpec;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Who defends: the roles the map gives the two sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Roles {
    /// Both sides deploy alike; the first side's edge is the map's "defender" edge.
    Meeting,
    /// The Weaker player defends (and the Stronger when FSP are equal and the roll says so).
    WeakerDefends,
    /// The Weaker player attacks.
    WeakerAttacks,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioMaps {
    pub notice: String,
    pub maps: Vec<ScenarioMap>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioMap {
    pub scenario: BookScenario,
    pub roles: Roles,
    pub turns: u32,
    /// Depth of the defender's deployment area from its own edge, cm.
    pub defender_depth: f32,
    /// Depth of the attacker's deployment area from its own edge, cm.
    pub attacker_depth: f32,
    /// Terrain the scenario needs, placed before the players' elements (BFS-SCN-22).
    #[serde(default)]
    pub obligatory: Vec<MapTerrain>,
    #[serde(default)]
    pub objectives: Vec<MapObjective>,
    pub briefing: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapTerrain {
    pub kind: TerrainKind,
    pub name: String,
    /// In map coordinates (fractions of the table), sizes and widths in cm.
    pub shape: ShapeSpec,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapObjective {
    pub name: String,
    pub at: (f32, f32),
    pub radius: f32,
    pub vp: u32,
    /// Held by the defender at the start.
    #[serde(default)]
    pub held_by_defender: bool,
}

/// The maps built into the program.
pub fn maps() -> &'static ScenarioMaps {
    static MAPS: OnceLock<ScenarioMaps> = OnceLock::new();
    MAPS.get_or_init(|| {
        ron::from_str(include_str!("../../../../assets/bfs/scenario-maps.ron"))
            .expect("assets/bfs/scenario-maps.ron parses (checked by a test)")
    })
}

pub fn map(s: BookScenario) -> &'static ScenarioMap {
    maps()
        .maps
        .iter()
        .find(|m| m.scenario == s)
        .expect("every book scenario has a map (checked by a test)")
}

/// Turns map coordinates into table centimetres. The defender's edge is the south edge
/// (y = 0) when `defender_south`, else the north edge, the map turned half round.
#[derive(Debug, Clone, Copy)]
pub struct MapFrame {
    pub width: f32,
    pub depth: f32,
    pub defender_south: bool,
}

impl MapFrame {
    pub fn point(&self, (fx, fy): (f32, f32)) -> (f32, f32) {
        if self.defender_south {
            (fx * self.width, fy * self.depth)
        } else {
            ((1.0 - fx) * self.width, (1.0 - fy) * self.depth)
        }
    }

    pub fn shape(&self, s: &ShapeSpec) -> ShapeSpec {
        match s {
            ShapeSpec::Rect {
                center,
                size,
                rotation,
            } => ShapeSpec::Rect {
                center: self.point(*center),
                size: *size,
                rotation: *rotation,
            },
            ShapeSpec::Polygon(points) => {
                ShapeSpec::Polygon(points.iter().map(|p| self.point(*p)).collect())
            }
            ShapeSpec::Strip { points, width } => ShapeSpec::Strip {
                points: points.iter().map(|p| self.point(*p)).collect(),
                width: *width,
            },
        }
    }

    pub fn terrain(&self, t: &MapTerrain) -> TerrainSpec {
        TerrainSpec {
            kind: t.kind,
            name: Some(t.name.clone()),
            shape: self.shape(&t.shape),
        }
    }

    pub fn objective(&self, o: &MapObjective, id: usize, defender: usize) -> ObjectiveSpec {
        ObjectiveSpec {
            id: format!("objective-{}", id + 1),
            name: o.name.clone(),
            position: self.point(o.at),
            radius: o.radius,
            vp: o.vp,
            held_by: o.held_by_defender.then_some(defender),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every book scenario (BFS-SCN-52) has exactly one map, and the maps file parses.
    #[test]
    fn bfs_scn_52_every_scenario_has_a_map() {
        for s in BookScenario::ALL {
            assert_eq!(
                maps().maps.iter().filter(|m| m.scenario == s).count(),
                1,
                "{s:?}"
            );
        }
        for m in &maps().maps {
            assert!(m.turns >= 1 && m.defender_depth > 0.0 && m.attacker_depth > 0.0);
            for t in &m.obligatory {
                assert!(
                    sandtable_engine::scenario_check::check_shape(
                        &MapFrame {
                            width: 120.0,
                            depth: 120.0,
                            defender_south: true
                        }
                        .shape(&t.shape)
                    )
                    .is_empty(),
                    "{:?} {}",
                    m.scenario,
                    t.name
                );
            }
        }
    }

    /// The village and crossing scenarios carry their obligatory terrain (BFS-SCN-22, -52).
    #[test]
    fn bfs_scn_52_obligatory_terrain() {
        let kinds = |s| -> Vec<TerrainKind> { map(s).obligatory.iter().map(|t| t.kind).collect() };
        assert_eq!(
            kinds(BookScenario::DefendTheVillage),
            [TerrainKind::BuiltUpArea]
        );
        assert_eq!(
            kinds(BookScenario::AttackOnAVillage),
            [TerrainKind::BuiltUpArea]
        );
        for s in [
            BookScenario::DefendTheCrossing,
            BookScenario::CaptureTheCrossing,
        ] {
            assert_eq!(
                kinds(s),
                [TerrainKind::River, TerrainKind::Bridge, TerrainKind::Ford]
            );
        }
    }
}
