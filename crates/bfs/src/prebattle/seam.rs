//! The BFaS sequence behind the engine's pre-battle seam: menus as keyed choices, the record
//! and the state of things as each seat may see them, saves as the forces, the seed and the
//! choices made.

use super::{Choice, PreBattle, Step};
use crate::army_list::{ArmyList, load_army_list};
use crate::force::ForceFile;
use crate::ids::Side;
use sandtable_engine::data_file;
use sandtable_engine::prebattle::{
    PreBattle as Seam, SetupChoice, SetupLine, SetupStep, SetupTable,
};
use sandtable_engine::scenario_geometry::shape_polygons;
use sandtable_engine::{DataDirs, LoadError, Problem, RuleError};
use sandtable_geometry::Vec2;
use serde::{Deserialize, Serialize};
use std::path::Path;

pub const SEQUENCE_FORMAT: u32 = 1;

/// A saved sequence: everything needed to replay it. It holds both sides' choices, hidden
/// deployment included, so it is kept by the program, never given to a seat.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "PreBattle")]
struct Saved {
    format: u32,
    lists: [ArmyList; 2],
    forces: [ForceFile; 2],
    seed: u64,
    /// The optional rules the sequence plays ([`OPTIONS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    options: Vec<String>,
    made: Vec<(Side, Choice)>,
}

/// The optional rules BFaS's sequence offers: (name, what players call it).
pub const OPTIONS: &[(&str, &str)] = &[(
    "choice_of_effects",
    "Choice of Effects: one Additional Effect in three is chosen, not rolled (BFS-OPT-4)",
)];

/// Switches the named optional rules on; an unknown name is refused with the ones there are.
pub fn apply_options(seq: &mut PreBattle, options: &[String]) -> Result<(), String> {
    for o in options {
        match o.as_str() {
            "choice_of_effects" => seq.choice_of_effects = true,
            other => {
                return Err(format!(
                    "no optional rule \"{other}\" in the pre-battle sequence; there is: {}",
                    OPTIONS
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    Ok(())
}

fn options_of(seq: &PreBattle) -> Vec<String> {
    let mut out = Vec::new();
    if seq.choice_of_effects {
        out.push("choice_of_effects".to_string());
    }
    out
}

/// The BFaS pre-battle sequence as the engine's seam sees it.
pub struct BfsPreBattle(pub PreBattle);

impl BfsPreBattle {
    pub fn new(lists: [ArmyList; 2], forces: [ForceFile; 2], seed: u64) -> Result<Self, String> {
        PreBattle::new(lists, forces, seed).map(Self)
    }
}

fn seat(s: u8) -> Side {
    Side(s.min(1))
}

/// Whether a seat may read a line: its own secret lines, and everyone's once the battle is
/// ready (the deployments are on the table then).
fn visible(s: &PreBattle, e: &super::Entry, seat: Side) -> bool {
    s.step == Step::Ready || e.only.is_none_or(|only| only == seat)
}

fn line(e: &super::Entry) -> SetupLine {
    SetupLine {
        text: e.text.clone(),
        rule: e.rule.clone(),
        dice: e.dice.clone(),
    }
}

impl Seam for BfsPreBattle {
    fn step(&self) -> SetupStep {
        let s = &self.0;
        let (title, rule, explain) = match &s.step {
            Step::RollScenario => (
                "Roll the scenario",
                "BFS-SCN-9",
                "The Weaker side rolls for the scenario on the table its strength and the forces' natures call for; with equal FSP one die decides.",
            ),
            Step::PickScenario => (
                "Choose the scenario",
                "BFS-SCN-12",
                "Pick one of the scenarios rolled whose value is within the FSP difference.",
            ),
            Step::Fortifications => (
                "Fortifications",
                "BFS-SCN-13",
                "Decide how many field fortification elements to dig: each pair is worth 1 FSP.",
            ),
            Step::RollEffects => (
                "Additional Effects",
                "BFS-SCN-14",
                "The FSP still between the forces are paid in Additional Effects against the Stronger side, rolled one by one.",
            ),
            Step::GoodOrBadDay => (
                "Good or Bad Day",
                "BFS-SCN-34",
                "Give your Commander 1 CP more, or the enemy's 1 CP less, for the battle.",
            ),
            Step::PlaceTerrain(_) => (
                "Set up the terrain",
                "BFS-SCN-20",
                "Place one element in turn, at least 10 cm from the others (obstacles need only not touch); one Atypical element at most.",
            ),
            Step::ChoiceOfTerrain => (
                "Choice of Terrain",
                "BFS-SCN-34",
                "Add, remove or move one element, now that the edges are known.",
            ),
            Step::Reconnaissance => (
                "Reconnaissance",
                "BFS-SCN-36",
                "The side with more Reconnaissance Points buys effects with the difference.",
            ),
            Step::Deploy(_) => (
                "Deploy",
                "BFS-SCN-48",
                "Place every unit and commander in your deployment area; the other side sees them once both have deployed.",
            ),
            Step::Ready => (
                "Ready",
                "BFS-SCN-15",
                "The battle is set up and ready to fight.",
            ),
            Step::RobbersPick => (
                "Robbers",
                "BFS-SPC-28",
                "The Robbers' pillage cost their force: pick the Robbers unit that loses 1 SP.",
            ),
        };
        SetupStep {
            title: title.into(),
            rule: rule.into(),
            explain: explain.into(),
            to_act: s.to_act().map(|s| s.0),
        }
    }

    fn choices(&self, seat_index: u8) -> Vec<SetupChoice> {
        self.0
            .offers(seat(seat_index))
            .into_iter()
            .map(|o| {
                let place = o.placement();
                SetupChoice {
                    key: ron::to_string(&o.choice).expect("choices serialise"),
                    label: o.label,
                    rule: o.rule.into(),
                    refused: o.refused,
                    computer_score: o.score,
                    group: place.as_ref().map(|p| p.0.clone()),
                    at: place.map(|p| p.1),
                }
            })
            .collect()
    }

    fn choose(&mut self, seat_index: u8, key: &str) -> Result<Vec<SetupLine>, RuleError> {
        let choice: Choice = ron::from_str(key)
            .map_err(|e| RuleError::new("BFS-SCN-9", format!("That choice cannot be read: {e}")))?;
        let before = self.0.log.len();
        self.0.apply(seat(seat_index), choice)?;
        let me = seat(seat_index);
        Ok(self.0.log[before..]
            .iter()
            .filter(|e| visible(&self.0, e, me))
            .map(line)
            .collect())
    }

    fn log(&self, seat_index: u8) -> Vec<SetupLine> {
        let me = seat(seat_index);
        self.0
            .log
            .iter()
            .filter(|e| visible(&self.0, e, me))
            .map(line)
            .collect()
    }

    fn summary(&self, seat_index: u8) -> Vec<String> {
        let s = &self.0;
        let me = seat(seat_index);
        let mut out = Vec::new();
        for side in Side::BOTH {
            let f = &s.forces[side.index()];
            out.push(format!(
                "{}{}: {} FSP, Force Value {}, {} RP, {} units",
                f.file.name,
                if side == me { " (you)" } else { "" },
                f.summary.fsp,
                f.summary.force_value,
                f.summary.reconnaissance_points,
                f.units.len()
            ));
        }
        if let Some(b) = s.scenario {
            out.push(format!(
                "Scenario: {} (value {})",
                b.name(),
                s.scenario_value
            ));
        }
        if !s.effects.is_empty() {
            out.push(format!(
                "Additional Effects: {}",
                s.effects
                    .iter()
                    .map(|t| t.effect.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        out.push(format!(
            "Terrain: {} elements{}",
            s.elements.len(),
            if s.elements_left > 0 {
                format!(", {} to place", s.elements_left)
            } else {
                String::new()
            }
        ));
        for side in Side::BOTH {
            let shown = side == me || s.step == Step::Ready;
            if let Some(d) = &s.deployed[side.index()] {
                out.push(if shown {
                    format!("{} deployed {} pieces", s.name(side), d.len())
                } else {
                    format!("{} has deployed (hidden until you have)", s.name(side))
                });
            }
        }
        out
    }

    fn table(&self, seat_index: u8) -> SetupTable {
        let s = &self.0;
        let me = seat(seat_index);
        let mut t = SetupTable {
            size: s.table,
            ..Default::default()
        };
        for e in &s.elements {
            for poly in shape_polygons(&e.spec.shape) {
                t.terrain.push((e.spec.kind, poly));
            }
        }
        for side in Side::BOTH {
            if let Some(shape) = s.zone_shape(side) {
                for poly in shape_polygons(&shape) {
                    t.zones.push((side.0, poly));
                }
            }
            let shown = side == me || s.step == Step::Ready;
            if shown {
                for r in s.deployed_rects(side) {
                    t.bases.push((side.0, r.ccw_corners()));
                }
            }
        }
        if let (Some(map), Some(frame)) = (s.map(), s.frame()) {
            for o in &map.objectives {
                let (x, y) = frame.point(o.at);
                t.objectives.push((Vec2::new(x, y), o.radius));
            }
        }
        t
    }

    fn scenario_text(&self) -> Option<String> {
        let scenario = self.0.scenario()?;
        let pretty = ron::ser::PrettyConfig::new().struct_names(true);
        ron::ser::to_string_pretty(&scenario, pretty).ok()
    }

    fn save_text(&self) -> String {
        let s = &self.0;
        let saved = Saved {
            format: SEQUENCE_FORMAT,
            lists: s.lists.clone(),
            forces: [s.forces[0].file.clone(), s.forces[1].file.clone()],
            seed: s.seed,
            options: options_of(s),
            made: s.made.clone(),
        };
        let pretty = ron::ser::PrettyConfig::new().struct_names(true);
        ron::ser::to_string_pretty(&saved, pretty).expect("a sequence serialises")
    }
}

/// Starts a sequence from two force files; each names its army list, found in the armies
/// folder. Errors name the file at fault.
pub fn start_files(
    paths: &[&Path; 2],
    dirs: &DataDirs,
    seed: u64,
    options: &[String],
) -> Result<Box<dyn Seam>, LoadError> {
    let mut lists = Vec::new();
    let mut files = Vec::new();
    for path in paths {
        let file: ForceFile = data_file::read_ron(path)?;
        let semantic = |problems| LoadError::Semantic {
            file: path.to_path_buf(),
            problems,
        };
        if file.army_list.contains(['/', '\\']) || file.army_list.starts_with('.') {
            return Err(semantic(vec![Problem::new(
                "army_list",
                "must be a plain name",
            )]));
        }
        let list_path = dirs.armies.join(format!("{}.ron", file.army_list));
        if !list_path.is_file() {
            return Err(semantic(vec![Problem::new(
                "army_list",
                format!(
                    "no army list \"{}\" (looked for {})",
                    file.army_list,
                    list_path.display()
                ),
            )]));
        }
        let list = load_army_list(&list_path)?;
        file.resolve(&list).map_err(semantic)?;
        lists.push(list);
        files.push(file);
    }
    let lists: [ArmyList; 2] = lists.try_into().expect("two lists");
    let files: [ForceFile; 2] = files.try_into().expect("two forces");
    let mut seq = BfsPreBattle::new(lists, files, seed).map_err(|why| LoadError::Semantic {
        file: paths[0].to_path_buf(),
        problems: vec![Problem::new("forces", why)],
    })?;
    apply_options(&mut seq.0, options).map_err(|why| LoadError::Semantic {
        file: paths[0].to_path_buf(),
        problems: vec![Problem::new("options", why)],
    })?;
    Ok(Box::new(seq))
}

/// Resumes a saved sequence, replaying its choices.
pub fn resume_text(path: &Path, text: &str, _dirs: &DataDirs) -> Result<Box<dyn Seam>, LoadError> {
    let saved: Saved = data_file::parse_ron(path, text)?;
    let semantic = |why: String| LoadError::Semantic {
        file: path.to_path_buf(),
        problems: vec![Problem::new("sequence", why)],
    };
    if saved.format != SEQUENCE_FORMAT {
        return Err(semantic(format!(
            "this program reads sequence format {SEQUENCE_FORMAT}, the file says {}",
            saved.format
        )));
    }
    for l in &saved.lists {
        let ps = l.problems();
        if !ps.is_empty() {
            return Err(LoadError::Semantic {
                file: path.to_path_buf(),
                problems: ps,
            });
        }
    }
    let mut seq = PreBattle::new(saved.lists, saved.forces, saved.seed).map_err(semantic)?;
    apply_options(&mut seq, &saved.options).map_err(semantic)?;
    seq.replay(&saved.made).map_err(semantic)?;
    Ok(Box::new(BfsPreBattle(seq)))
}

/// The entry a program registers for BFaS's sequence.
pub fn entry() -> sandtable_engine::prebattle::PreBattleEntry {
    sandtable_engine::prebattle::PreBattleEntry {
        ruleset: crate::RULESET_ID,
        start: start_files,
        resume: resume_text,
        options: OPTIONS,
        builder: super::builder::builder,
    }
}
