//! The scenario file: one battle, described the same way for every ruleset.
//!
//! A scenario names its ruleset and holds what is on the table at the start: its size, the terrain
//! pieces, and for each side the commanders, regiments and units (by profile name from the side's
//! army list). Distances are centimetres; facings are compass bearings in degrees (0 = facing
//! north, i.e. towards the far edge from the south side; 90 = east).
//!
//! The ruleset resolves profile names and checks what needs its rules (base sizes, overlaps).

use crate::scenario_script::{LessonSpec, ObjectiveSpec, ScriptRule};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Current scenario format. Files must say which format they were written for.
pub const SCENARIO_FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub format: u32,
    pub name: String,
    /// Ruleset identifier, e.g. `"bfs"` for By Fire and Sword.
    pub ruleset: String,
    /// Shown on the start screen before the battle.
    #[serde(default)]
    pub briefing: String,
    pub table: TableSpec,
    pub level: GameLevel,
    /// Number of game turns (BFS-SCN-3: 6 unless the scenario says otherwise).
    pub turn_limit: u32,
    /// Seed of the dice for this battle; a save stores it with the commands.
    #[serde(default = "default_seed")]
    pub seed: u64,
    #[serde(default)]
    pub terrain: Vec<TerrainSpec>,
    pub sides: Vec<SideSpec>,
    /// Named rule options (optional rules and "proposed resolutions"), interpreted by the ruleset.
    #[serde(default)]
    pub options: BTreeMap<String, OptionValue>,
    /// Lower sorts first on the start screen (the default battle uses 0).
    #[serde(default = "default_order")]
    pub menu_order: i32,
    /// What this file is for: a battle, a solo scenario, or a tutorial lesson.
    #[serde(default)]
    pub kind: ScenarioKind,
    /// Control markers worth Victory Points (BFS-SCN-6/7).
    #[serde(default)]
    pub objectives: Vec<ObjectiveSpec>,
    /// Scripted events: triggers and what they do.
    #[serde(default)]
    pub script: Vec<ScriptRule>,
    /// Shown when the battle is over, after the result.
    #[serde(default)]
    pub debriefing: String,
    /// The guided steps of a tutorial.
    #[serde(default)]
    pub lesson: Option<LessonSpec>,
}

fn default_seed() -> u64 {
    1
}
fn default_order() -> i32 {
    100
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ScenarioKind {
    #[default]
    Battle,
    Solo,
    Tutorial,
}

/// Size of the playing area in cm. BFaS recommends 120 × 120 (BFS-SCN-2).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Table")]
pub struct TableSpec {
    pub width: f32,
    pub depth: f32,
}

/// Game level (BFS-ORG-7); some rules depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameLevel {
    Skirmish,
    TaskForce,
    Division,
}

/// A rule option's value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    Bool(bool),
    Number(f64),
    Text(String),
}

/// The four table edges. South is the edge at y = 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TableEdge {
    North,
    East,
    South,
    West,
}

/// Kinds of terrain piece (BFS-TER-15's master table).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerrainKind {
    /// Dense woods (BFS-TER-23).
    Forest,
    /// Light woods (BFS-TER-24).
    Grove,
    /// Gentle slopes (BFS-TER-20).
    Hill,
    /// Steep slopes and cliffs (BFS-TER-21).
    SteepHill,
    /// Wheat field or tall steppe grass (BFS-TER-25).
    WheatField,
    /// Ploughed field or soft ground (BFS-TER-26).
    PloughedField,
    /// Stream (BFS-TER-16).
    Stream,
    /// River (BFS-TER-17); impassable except at fords and bridges.
    River,
    Ford,
    Bridge,
    /// Lake (BFS-TER-18).
    Lake,
    /// Swamp or marsh (BFS-TER-19).
    Marsh,
    /// Road (BFS-TER-22).
    Road,
    /// Fences, low walls, narrow ditches (BFS-TER-27).
    Obstacle,
    /// Built-up area (BFS-TER-28).
    BuiltUpArea,
    /// A single building (BFS-TER-29..31).
    Building,
    /// Field fortifications (BFS-TER-32).
    Fortification,
}

/// A terrain piece on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Terrain")]
pub struct TerrainSpec {
    pub kind: TerrainKind,
    #[serde(default)]
    pub name: Option<String>,
    pub shape: ShapeSpec,
}

/// The outline of a terrain piece, in table cm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ShapeSpec {
    /// A rectangle given by its centre, its size and a rotation in degrees (clockwise).
    Rect {
        center: (f32, f32),
        size: (f32, f32),
        #[serde(default)]
        rotation: f32,
    },
    /// A simple polygon, listed in order around its edge.
    Polygon(Vec<(f32, f32)>),
    /// A strip of constant width along a polyline: roads, streams, rivers, hedges.
    Strip { points: Vec<(f32, f32)>, width: f32 },
}

/// One side of the battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Side")]
pub struct SideSpec {
    pub name: String,
    /// Identifier of the army list (a file in `assets/armies/`) whose profiles the units use.
    pub army_list: String,
    /// The side's own table edge, towards which it withdraws and flees (GEO-19).
    pub home_edge: TableEdge,
    pub commanders: Vec<CommanderSpec>,
    #[serde(default)]
    pub regiments: Vec<RegimentSpec>,
    pub units: Vec<UnitSpec>,
}

/// Commander ranks, highest first (BFS-CMD-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CommanderRank {
    /// Commander-in-Chief of the force (a Senior Commander).
    CommanderInChief,
    /// Another Senior Commander.
    Senior,
    /// Regimental Commander (Junior).
    Regimental,
    /// Regimental 2nd in command (Junior).
    Second,
    /// Regimental 3rd in command (Junior).
    Third,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Commander")]
pub struct CommanderSpec {
    pub id: String,
    pub name: String,
    pub rank: CommanderRank,
    /// Command points restored each Initiative Phase (BFS-INI-1).
    pub command_points: u8,
    /// Commander profile in the side's army list.
    #[serde(default = "default_commander_profile")]
    pub profile: String,
    /// Centre of the commander's base.
    pub position: (f32, f32),
    #[serde(default)]
    pub facing: f32,
    /// The regiment he commands, for Junior commanders.
    #[serde(default)]
    pub regiment: Option<String>,
}

fn default_commander_profile() -> String {
    "commander".into()
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Regiment")]
pub struct RegimentSpec {
    pub id: String,
    pub name: String,
    /// Motivation coefficient in percent (Division level, BFS-PSY-25).
    #[serde(default)]
    pub motivation_percent: Option<u32>,
}

/// Formation at deployment (BFS-FRM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FormationSpec {
    /// A Line `files` bases wide (a short last rank is allowed).
    Line { files: u8 },
    /// One base wide.
    Column,
    /// Open Order: bases 1 cm apart in one rank (BFS-OO).
    OpenOrder,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Unit")]
pub struct UnitSpec {
    pub id: String,
    /// Shown on the table; defaults to the profile's name.
    #[serde(default)]
    pub name: Option<String>,
    pub profile: String,
    #[serde(default)]
    pub regiment: Option<String>,
    pub formation: FormationSpec,
    pub bases: u8,
    /// Midpoint of the unit's front edge.
    pub position: (f32, f32),
    /// Compass bearing the unit faces, degrees.
    pub facing: f32,
    /// Held off the table until a script brings it on (BFS-SCN-50), at `position`.
    #[serde(default)]
    pub reserve: bool,
}
