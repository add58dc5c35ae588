//! The scenario file: one battle. A part every table game shares (the table and its unit of
//! length, terrain, the sides and their edges, objectives, scripts, lesson steps, options) and a
//! section the ruleset owns (`rules`: By Fire and Sword's army lists, ranks and game level, say).
//!
//! ```ron
//! Scenario(
//!   format: 2, name: "…", ruleset: "bfs",
//!   table: (width: 120.0, depth: 120.0),
//!   turn_limit: 6, seed: 1656,
//!   terrain: [ Terrain(kind: Forest, shape: Polygon([…])) ],
//!   sides: [ Side(name: "Polish-Lithuanian", home_edge: South), Side(…) ],
//!   rules: ( … the ruleset's own section … ),
//! )
//! ```
//!
//! Lengths are in the table's unit (centimetres unless `table` says `unit: Inches`); the loader
//! turns them into centimetres, the program's unit inside. Facings are compass bearings in
//! degrees (0 = facing north, i.e. towards the far edge from the south side; 90 = east).
//!
//! Format 1 files (everything in one shape, written before the split) are still read: each
//! ruleset migrates its own.

use crate::problem::Problem;
use crate::scenario_script::{LessonSpec, ObjectiveSpec, ScriptRule};
use crate::vocab::LengthUnit;
pub use crate::vocab::{ShapeSpec, TerrainKind};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Debug;

/// Current scenario format. Files must say which format they were written for.
pub const SCENARIO_FORMAT: u32 = 2;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario<S> {
    pub format: u32,
    pub name: String,
    /// Ruleset identifier, e.g. `"bfs"` for By Fire and Sword.
    pub ruleset: String,
    /// Shown on the start screen before the battle.
    #[serde(default)]
    pub briefing: String,
    pub table: TableSpec,
    /// Number of game turns.
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
    /// Control markers worth Victory Points.
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
    /// What the ruleset owns: its forces and their organisation.
    pub rules: S,
}

/// A ruleset's own section of the scenario file.
pub trait RulesSection:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The pieces the section places, for the shared checks of objectives, scripts and lessons
    /// that name them.
    fn pieces(&self) -> Vec<PieceSpec>;
    /// Multiplies every length of the section by `factor` (inches to centimetres).
    fn scale_lengths(&mut self, factor: f32);
    /// Checks of the section that need no data files, each naming its entity.
    fn check(&self, scenario: &Scenario<Self>) -> Vec<Problem>;
    /// "Skirmish level", "Brigade action": what the start screen says of its size.
    fn scale_label(&self) -> String;
    /// Where a piece stands and faces, for the table editor; `None` where the section does not
    /// let the editor move it.
    fn piece_place(&self, _id: &str) -> Option<((f32, f32), f32)> {
        None
    }
    /// Moves a piece (the table editor); false if there is no such piece to move.
    fn place_piece(&mut self, _id: &str, _position: (f32, f32), _facing: f32) -> bool {
        false
    }
    /// Takes a piece off the scenario (the table editor); false if it cannot.
    fn remove_piece(&mut self, _id: &str) -> bool {
        false
    }
    /// Adds units given as the section's own text (from the ruleset's force builder) to side
    /// `side`, in a row from `anchor` facing `facing` (the table editor); ids are made unique.
    fn add_units(
        &mut self,
        _side: usize,
        _text: &str,
        _anchor: (f32, f32),
        _facing: f32,
    ) -> Result<(), String> {
        Err("this ruleset's scenarios take no units from the editor".into())
    }
}

/// A piece a ruleset's section places, as the shared checks see it.
#[derive(Debug, Clone, PartialEq)]
pub struct PieceSpec {
    pub id: String,
    pub side: usize,
    /// A leader (commander) rather than a unit.
    pub leader: bool,
    /// Held off the table until a script brings it on.
    pub reserve: bool,
}

fn default_seed() -> u64 {
    1
}
fn default_order() -> i32 {
    100
}

impl<S: RulesSection> Scenario<S> {
    /// The same battle cut to `turns` turns (the CLI's `simulate --turns`). Script rules that wait
    /// for a later turn could never fire, so they are dropped rather than refused.
    pub fn with_turn_limit(mut self, turns: u32) -> Self {
        use crate::scenario_script::Trigger;
        self.turn_limit = turns;
        self.script
            .retain(|r| !matches!(r.when, Trigger::TurnBegins(n) if n > turns));
        self
    }

    /// Turns every length into centimetres (a file written in inches says so in `table`).
    pub fn into_centimetres(mut self) -> Self {
        let f = match self.table.unit {
            LengthUnit::Centimetres => return self,
            LengthUnit::Inches => LengthUnit::CM_PER_INCH,
        };
        self.table.width *= f;
        self.table.depth *= f;
        self.table.unit = LengthUnit::Centimetres;
        for t in &mut self.terrain {
            t.shape.scale(f);
        }
        for s in &mut self.sides {
            if let Some(d) = &mut s.deployment {
                d.scale(f);
            }
        }
        for o in &mut self.objectives {
            o.position = (o.position.0 * f, o.position.1 * f);
            o.radius *= f;
        }
        for r in &mut self.script {
            if let crate::scenario_script::Trigger::SideEntersArea { area, .. } = &mut r.when {
                area.scale(f);
            }
        }
        self.rules.scale_lengths(f);
        self
    }

    /// What the start screen and the app show of the scenario.
    pub fn info(&self) -> ScenarioInfo {
        ScenarioInfo {
            name: self.name.clone(),
            ruleset: self.ruleset.clone(),
            briefing: self.briefing.clone(),
            debriefing: self.debriefing.clone(),
            kind: self.kind,
            menu_order: self.menu_order,
            sides: self.sides.iter().map(|s| s.name.clone()).collect(),
            turn_limit: self.turn_limit,
            table: (self.table.width, self.table.depth),
            scale: self.rules.scale_label(),
            seed: self.seed,
            lesson: self.lesson.clone(),
        }
    }
}

/// What the app shows of a scenario without knowing its ruleset.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioInfo {
    pub name: String,
    pub ruleset: String,
    pub briefing: String,
    pub debriefing: String,
    pub kind: ScenarioKind,
    pub menu_order: i32,
    pub sides: Vec<String>,
    pub turn_limit: u32,
    /// Width and depth, cm.
    pub table: (f32, f32),
    /// "Skirmish level": the ruleset's word for the battle's size.
    pub scale: String,
    pub seed: u64,
    pub lesson: Option<LessonSpec>,
}

impl ScenarioInfo {
    /// The name of side `seat`, or "side N".
    pub fn side_name(&self, seat: u8) -> String {
        self.sides
            .get(seat as usize)
            .cloned()
            .unwrap_or_else(|| format!("side {}", seat + 1))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum ScenarioKind {
    #[default]
    Battle,
    Solo,
    Tutorial,
}

/// Size of the playing area, in `unit` (centimetres unless said otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Table")]
pub struct TableSpec {
    pub width: f32,
    pub depth: f32,
    /// The unit every length of the file is written in.
    #[serde(default, skip_serializing_if = "is_cm")]
    pub unit: LengthUnit,
}

fn is_cm(u: &LengthUnit) -> bool {
    *u == LengthUnit::Centimetres
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

/// A terrain piece on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Terrain")]
pub struct TerrainSpec {
    pub kind: TerrainKind,
    #[serde(default)]
    pub name: Option<String>,
    pub shape: ShapeSpec,
}

/// One side of the battle, as every ruleset knows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Side")]
pub struct SideSpec {
    pub name: String,
    /// The side's own table edge, towards which it withdraws and flees.
    pub home_edge: TableEdge,
    /// Where the side may deploy, when the scenario says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment: Option<ShapeSpec>,
}

/// Just enough of a file to tell what it is and which ruleset reads it.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename = "Scenario")]
pub struct ScenarioHeader {
    pub format: u32,
    pub ruleset: String,
}
