//! Scenario format 1, written before the scenario file was split into a shared part and the
//! ruleset's section: each side held its army list, commanders, regiments and units, and the game
//! level stood at the top. Files (and saves holding such a scenario) are still read and migrated.

use crate::scenario_spec::{
    BfsRules, BfsScenario, CommanderSpec, ForceSpec, GameLevel, RegimentSpec, UnitSpec,
};
use sandtable_engine::scenario::{
    OptionValue, Scenario, ScenarioKind, SideSpec, TableEdge, TableSpec, TerrainSpec,
};
use sandtable_engine::scenario_script::{LessonSpec, ObjectiveSpec, ScriptRule};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scenario")]
pub struct ScenarioV1 {
    pub format: u32,
    pub name: String,
    pub ruleset: String,
    #[serde(default)]
    pub briefing: String,
    pub table: TableSpec,
    pub level: GameLevel,
    pub turn_limit: u32,
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(default)]
    pub terrain: Vec<TerrainSpec>,
    pub sides: Vec<SideV1>,
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    #[serde(default = "default_order")]
    pub menu_order: i32,
    #[serde(default)]
    pub kind: ScenarioKind,
    #[serde(default)]
    pub objectives: Vec<ObjectiveSpec>,
    #[serde(default)]
    pub script: Vec<ScriptRule>,
    #[serde(default)]
    pub debriefing: String,
    #[serde(default)]
    pub lesson: Option<LessonSpec>,
}

fn default_seed() -> u64 {
    1
}
fn default_order() -> i32 {
    100
}

/// A side of format 1: the shared part and the force in one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Side")]
pub struct SideV1 {
    pub name: String,
    pub army_list: String,
    pub home_edge: TableEdge,
    pub commanders: Vec<CommanderSpec>,
    #[serde(default)]
    pub regiments: Vec<RegimentSpec>,
    pub units: Vec<UnitSpec>,
}

impl ScenarioV1 {
    /// The same scenario in the current format. A format-1 file says `format: 1`; anything else
    /// is kept, so the format check still refuses it.
    pub fn migrate(self) -> BfsScenario {
        let format = if self.format == 1 {
            sandtable_engine::scenario::SCENARIO_FORMAT
        } else {
            self.format
        };
        let (sides, forces) = self
            .sides
            .into_iter()
            .map(|s| {
                (
                    SideSpec {
                        name: s.name,
                        home_edge: s.home_edge,
                        deployment: None,
                    },
                    ForceSpec {
                        army_list: s.army_list,
                        commanders: s.commanders,
                        regiments: s.regiments,
                        units: s.units,
                        squadrons: Vec::new(),
                    },
                )
            })
            .unzip();
        Scenario {
            format,
            name: self.name,
            ruleset: self.ruleset,
            briefing: self.briefing,
            table: self.table,
            turn_limit: self.turn_limit,
            seed: self.seed,
            terrain: self.terrain,
            sides,
            options: self.options,
            menu_order: self.menu_order,
            kind: self.kind,
            objectives: self.objectives,
            script: self.script,
            debriefing: self.debriefing,
            lesson: self.lesson,
            rules: BfsRules {
                level: self.level,
                forces,
                first_initiative: None,
                pre_battle: Default::default(),
            },
        }
    }
}
