//! By Fire and Sword's section of the scenario file: the game level (BFS-ORG-7) and, for each
//! side, its army list, commanders with their ranks and command points, regiments with their
//! motivation, and units by profile, formation and position.
//!
//! ```ron
//! rules: Bfs(
//!   level: Skirmish,
//!   forces: [
//!     Force(army_list: "polish-lithuanian-1655", commanders: [ … ], units: [ … ]),
//!     Force(army_list: "swedish-1655", commanders: [ … ], units: [ … ]),
//!   ],
//! ),
//! ```

use sandtable_engine::Problem;
use sandtable_engine::scenario::{PieceSpec, RulesSection, Scenario};
use sandtable_engine::scenario_check::{MAX_BASES_PER_UNIT, MAX_UNITS_PER_SIDE};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// A By Fire and Sword scenario.
pub type BfsScenario = Scenario<BfsRules>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Bfs")]
pub struct BfsRules {
    pub level: GameLevel,
    /// One force per side, in side order.
    pub forces: Vec<ForceSpec>,
    /// The side (by index) with the Initiative in turn 1, who keeps it or hands it over as the
    /// winner of a roll would (A-22): the Weaker side of the pre-battle sequence (BFS-SCN-15).
    /// Absent, turn 1's Initiative is bid and rolled as usual.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_initiative: Option<usize>,
    /// Additional Effects of the pre-battle sequence that strike in turn 1, each by the side it
    /// strikes (BFS-SCN-28, -33).
    #[serde(default, skip_serializing_if = "PreBattleEffects::is_empty")]
    pub pre_battle: PreBattleEffects,
}

/// Effects of the pre-battle sequence the battle plays, one entry per copy, naming a side by
/// index: the side struck (a random unit of it is picked with the battle's dice when it
/// strikes), or the side holding the marker.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreBattleEffects {
    /// March Losses: at the start of turn 1's Orders Phase (BFS-SCN-28).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub march_losses: Vec<usize>,
    /// Panic: at the start of turn 1's Movement Phase (BFS-SCN-33).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub panic: Vec<usize>,
    /// Chaos: the side struck, at the start of turn 1's Movement Phase after Panic (BFS-SCN-45).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chaos: Vec<usize>,
    /// Fatigue: the side struck (BFS-SCN-25).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fatigue: Vec<usize>,
    /// Exhaustion: the side struck (BFS-SCN-26).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exhaustion: Vec<usize>,
    /// Enthusiasm: the side whose Commander holds the marker (BFS-SCN-27).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enthusiasm: Vec<usize>,
    /// Confusion: the side that bought it, once a copy (BFS-SCN-44).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub confusion: Vec<usize>,
    /// Big Mouthed Prisoner: the side that learned the enemy's plans; in turn 1 the enemy issues
    /// its orders first, face up (BFS-SCN-38).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub big_mouthed_prisoner: Vec<usize>,
    /// Decisive Moment: the side that may reroll its Initiative die once (BFS-SCN-37).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisive_moment: Vec<usize>,
    /// Cut Off the Retreat: the side whose fled bases test at the end (BFS-SCN-47).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cut_off_retreat: Vec<usize>,
    /// Unexpected Reinforcements: the side whose lost units may return, once a copy
    /// (BFS-SCN-32).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unexpected_reinforcements: Vec<usize>,
}

impl PreBattleEffects {
    pub fn is_empty(&self) -> bool {
        self.march_losses.is_empty()
            && self.panic.is_empty()
            && self.chaos.is_empty()
            && self.confusion.is_empty()
            && self.enthusiasm.is_empty()
            && self.fatigue.is_empty()
            && self.exhaustion.is_empty()
            && self.big_mouthed_prisoner.is_empty()
            && self.decisive_moment.is_empty()
            && self.cut_off_retreat.is_empty()
            && self.unexpected_reinforcements.is_empty()
    }
}

/// A force's units as the table editor adds them to a side (`RulesSection::add_units`, made by
/// the force builder's `scenario_units`): the army list they come from, which must be the
/// side's, and the units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "ForceUnits")]
pub struct ForceUnits {
    pub army_list: String,
    pub units: Vec<UnitSpec>,
}

/// What the Robbers' pillage cost a unit (BFS-SPC-28): SP lost at the start of turn 1's Orders
/// Phase, which may not be reorganized in turn 1, and whether it has no free turn-1 order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pillage {
    #[serde(default)]
    pub sp: u8,
    #[serde(default)]
    pub no_free_order: bool,
}

/// Game level (BFS-ORG-7); some rules depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameLevel {
    Skirmish,
    TaskForce,
    Division,
}

impl GameLevel {
    /// The level as players say it.
    pub fn name(self) -> &'static str {
        match self {
            GameLevel::Skirmish => "Skirmish",
            GameLevel::TaskForce => "Task Force",
            GameLevel::Division => "Division",
        }
    }
}

/// One side's force.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Force")]
pub struct ForceSpec {
    /// Identifier of the army list (a file in `assets/armies/`) whose profiles the units use.
    pub army_list: String,
    pub commanders: Vec<CommanderSpec>,
    #[serde(default)]
    pub regiments: Vec<RegimentSpec>,
    pub units: Vec<UnitSpec>,
    /// Units merged into squadrons when they deploy (BFS-SQN-2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub squadrons: Vec<crate::squadron::SquadronSpec>,
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

impl CommanderRank {
    /// The rank as players say it.
    pub fn name(self) -> &'static str {
        match self {
            Self::CommanderInChief => "Commander-in-Chief",
            Self::Senior => "Senior Commander",
            Self::Regimental => "Regimental Commander",
            Self::Second => "2nd in Command",
            Self::Third => "3rd in Command",
        }
    }
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
    /// The deputy Commander-in-Chief, whose loss costs every regiment of his side a Breaking
    /// Point (Division level, BFS-PSY-26).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deputy: bool,
    /// Struck by Cowardly Commander in the pre-battle sequence (BFS-SCN-30).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub coward: bool,
    /// A Regimental commander's first Instruction, at Division level (BFS-ORD-11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction: Option<crate::vocab::OrderKind>,
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
    /// One of the Division's Main Forces: their loss costs the other regiments a Breaking Point
    /// (BFS-PSY-26).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub main_force: bool,
    /// An Allied Regiment: wiped out at the end of the turn its side's Commander-in-Chief falls
    /// (BFS-PSY-30).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allied: bool,
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
    /// Portable obstacles it carries from the start (BFS-OBS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carries: Option<crate::portable::Carried>,
    /// The building (a `Building` terrain piece, by its name) the unit holds from the start as
    /// its garrison (BFS-TER-29); its `position` is then not used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garrison: Option<String>,
    /// A medium gun deployed with an additional crew base behind it (BFS-ART-18).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub additional_crew: bool,
    /// A medium gun dug in on its fortified base where it deploys (BFS-ART-19).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fortified: bool,
    /// Special rules the pre-battle sequence gave this unit beyond its profile's: the Additional
    /// Effect Insubordination (BFS-SCN-29).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_rules: Vec<crate::profile::SpecialRule>,
    /// Held back in Reserves by the pre-battle sequence (`reserve` is then true), and how it
    /// comes on: Delay (BFS-SCN-31) or Outmaneuver (BFS-SCN-46).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed: Option<crate::delay::Delay>,
    /// What the Robbers' pillage cost the unit before the battle (BFS-SPC-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pillage: Option<Pillage>,
}

impl RulesSection for BfsRules {
    fn pieces(&self) -> Vec<PieceSpec> {
        let mut out = Vec::new();
        for (side, f) in self.forces.iter().enumerate() {
            out.extend(f.commanders.iter().map(|c| PieceSpec {
                id: c.id.clone(),
                side,
                leader: true,
                reserve: false,
            }));
            out.extend(f.units.iter().map(|u| PieceSpec {
                id: u.id.clone(),
                side,
                leader: false,
                reserve: u.reserve,
            }));
        }
        out
    }

    fn scale_lengths(&mut self, f: f32) {
        for force in &mut self.forces {
            for c in &mut force.commanders {
                c.position = (c.position.0 * f, c.position.1 * f);
            }
            for u in &mut force.units {
                u.position = (u.position.0 * f, u.position.1 * f);
            }
        }
    }

    fn scale_label(&self) -> String {
        format!("{} level", self.level.name())
    }

    fn piece_place(&self, id: &str) -> Option<((f32, f32), f32)> {
        self.forces.iter().find_map(|f| {
            f.units
                .iter()
                .find(|u| u.id == id)
                .map(|u| (u.position, u.facing))
                .or_else(|| {
                    f.commanders
                        .iter()
                        .find(|c| c.id == id)
                        .map(|c| (c.position, c.facing))
                })
        })
    }

    fn place_piece(&mut self, id: &str, position: (f32, f32), facing: f32) -> bool {
        for f in &mut self.forces {
            if let Some(u) = f.units.iter_mut().find(|u| u.id == id) {
                (u.position, u.facing) = (position, facing);
                return true;
            }
            if let Some(c) = f.commanders.iter_mut().find(|c| c.id == id) {
                (c.position, c.facing) = (position, facing);
                return true;
            }
        }
        false
    }

    /// Units from a force ([`ForceUnits`]), in a row from `anchor` along the row's right hand,
    /// each a Line of its own frontage with 3 cm between them. The force's army list must be the
    /// side's.
    fn add_units(
        &mut self,
        side: usize,
        text: &str,
        anchor: (f32, f32),
        facing: f32,
    ) -> Result<(), String> {
        let ForceUnits { army_list, units } =
            ron::from_str(text).map_err(|e| format!("the units cannot be read: {e}"))?;
        if side >= self.forces.len() {
            return Err(format!("there is no side {}", side + 1));
        }
        if army_list != self.forces[side].army_list {
            return Err(format!(
                "the force is of the army list \"{army_list}\"; side {} fields \"{}\"",
                side + 1,
                self.forces[side].army_list
            ));
        }
        let taken: std::collections::BTreeSet<String> = self
            .forces
            .iter()
            .flat_map(|f| {
                f.units
                    .iter()
                    .map(|u| u.id.clone())
                    .chain(f.commanders.iter().map(|c| c.id.clone()))
                    .chain(f.squadrons.iter().map(|s| s.id.clone()))
            })
            .collect();
        let force = &mut self.forces[side];
        let (s, c) = facing.to_radians().sin_cos();
        // Along the row: the unit's right hand when it faces `facing`.
        let along = (c, -s);
        let mut offset = 0.0f32;
        let mut used = taken;
        for mut u in units {
            let mut id = u.id.clone();
            let mut n = 2;
            while used.contains(&id) {
                id = format!("{}-{n}", u.id);
                n += 1;
            }
            used.insert(id.clone());
            let files = match u.formation {
                FormationSpec::Line { files } => files.max(1) as f32,
                FormationSpec::Column => 1.0,
                FormationSpec::OpenOrder => u.bases as f32 * 1.25,
            };
            let width = files * 4.0;
            offset += width * 0.5;
            u.id = id;
            u.position = (anchor.0 + along.0 * offset, anchor.1 + along.1 * offset);
            u.facing = facing;
            u.regiment = None;
            offset += width * 0.5 + 3.0;
            force.units.push(u);
        }
        Ok(())
    }

    fn remove_piece(&mut self, id: &str) -> bool {
        for f in &mut self.forces {
            let before = f.units.len() + f.commanders.len();
            f.units.retain(|u| u.id != id);
            f.commanders.retain(|c| c.id != id);
            if f.units.len() + f.commanders.len() < before {
                return true;
            }
        }
        false
    }

    /// Identifiers, regiments, commanders and units: what needs no army list.
    fn check(&self, s: &Scenario<Self>) -> Vec<Problem> {
        let mut out = Vec::new();
        let mut p = |entity: String, message: String| out.push(Problem::new(entity, message));
        if self.forces.len() != s.sides.len() {
            p(
                "rules".into(),
                format!(
                    "lists {} forces for {} sides: give one force per side, in side order",
                    self.forces.len(),
                    s.sides.len()
                ),
            );
        }
        let table = (s.table.width, s.table.depth);
        let mut ids: BTreeMap<String, String> = BTreeMap::new();
        let mut claim = |id: &str, what: String, p: &mut dyn FnMut(String, String)| {
            if id.trim().is_empty() {
                p(what, "has an empty id".into());
            } else if let Some(prev) = ids.get(id) {
                p(what, format!("id \"{id}\" is already used by {prev}"));
            } else {
                ids.insert(id.to_string(), what);
            }
        };
        let on_table = |x: f32, y: f32| {
            x.is_finite()
                && y.is_finite()
                && (0.0..=table.0).contains(&x)
                && (0.0..=table.1).contains(&y)
        };

        let mut garrisoned: BTreeSet<String> = BTreeSet::new();
        for (si, side) in self.forces.iter().enumerate() {
            let side_name = format!(
                "side #{} \"{}\"",
                si + 1,
                s.sides.get(si).map_or("", |x| x.name.as_str())
            );
            let regiments: BTreeSet<&str> = side.regiments.iter().map(|r| r.id.as_str()).collect();
            for r in &side.regiments {
                claim(&r.id, format!("regiment \"{}\"", r.id), &mut p);
                if self.level == GameLevel::Division && r.motivation_percent.is_none() {
                    p(
                        format!("regiment \"{}\"", r.id),
                        "a Division-level regiment needs its motivation coefficient, motivation_percent (BFS-PSY-25)".into(),
                    );
                }
                if let Some(m) = r.motivation_percent
                    && !(1..=100).contains(&m)
                {
                    p(
                        format!("regiment \"{}\"", r.id),
                        format!("motivation {m}% is outside 1..100%"),
                    );
                }
                if !side
                    .commanders
                    .iter()
                    .any(|c| c.regiment.as_deref() == Some(r.id.as_str()))
                {
                    p(
                        format!("regiment \"{}\"", r.id),
                        "has no commander: give one commander `regiment: Some(\"…\")`".into(),
                    );
                }
            }
            let chiefs = side
                .commanders
                .iter()
                .filter(|c| c.rank == CommanderRank::CommanderInChief)
                .count();
            if chiefs != 1 {
                p(
                    side_name.clone(),
                    format!("needs exactly one CommanderInChief, has {chiefs}"),
                );
            }
            // At Division level the Commander-in-Chief is the one Senior Commander (BFS-CMD-5,
            // AMB-32).
            if self.level == GameLevel::Division
                && let Some(c) = side
                    .commanders
                    .iter()
                    .find(|c| c.rank == CommanderRank::Senior)
            {
                p(
                    format!("commander \"{}\"", c.id),
                    "at Division level the Commander-in-Chief is the only Senior commander (BFS-CMD-5)".into(),
                );
            }
            for c in &side.commanders {
                let who = format!("commander \"{}\"", c.id);
                claim(&c.id, who.clone(), &mut p);
                if !on_table(c.position.0, c.position.1) {
                    p(
                        who.clone(),
                        format!(
                            "position ({}, {}) is off the {}×{} cm table",
                            c.position.0, c.position.1, table.0, table.1
                        ),
                    );
                }
                if !c.facing.is_finite() {
                    p(who.clone(), "facing is not a number".into());
                }
                if c.command_points > 20 {
                    p(
                        who.clone(),
                        format!(
                            "{} command points is more than the 20 allowed",
                            c.command_points
                        ),
                    );
                }
                match (&c.regiment, c.rank) {
                    (Some(r), _) if !regiments.contains(r.as_str()) => p(
                        who.clone(),
                        format!("commands regiment \"{r}\", which this side does not have"),
                    ),
                    (
                        None,
                        CommanderRank::Regimental | CommanderRank::Second | CommanderRank::Third,
                    ) => p(
                        who.clone(),
                        format!("is a {:?} commander but names no regiment", c.rank),
                    ),
                    _ => {}
                }
            }
            if side.units.is_empty() {
                p(side_name.clone(), "has no units".into());
            }
            if side.units.len() > MAX_UNITS_PER_SIDE {
                p(
                    side_name.clone(),
                    format!(
                        "has {} units; the limit is {MAX_UNITS_PER_SIDE}",
                        side.units.len()
                    ),
                );
            }
            let fortifications = matches!(
                s.options.get("field_fortifications"),
                Some(sandtable_engine::scenario::OptionValue::Bool(true))
            );
            for u in &side.units {
                let who = format!("unit \"{}\"", u.id);
                claim(&u.id, who.clone(), &mut p);
                if let Some(b) = &u.garrison {
                    match crate::building::spec_capacity(s, b) {
                        None => p(
                            who.clone(),
                            format!(
                                "garrisons \"{b}\", which is not a building of this scenario (BFS-TER-29)"
                            ),
                        ),
                        Some(cap) if u.bases as u32 > cap => p(
                            who.clone(),
                            format!("has {} bases; \"{b}\" holds {cap} (BFS-TER-29)", u.bases),
                        ),
                        Some(_) if u.reserve => {
                            p(who.clone(), "a reserve cannot start in a building".into())
                        }
                        Some(_) => {
                            if !garrisoned.insert(b.clone()) {
                                p(
                                    who.clone(),
                                    format!(
                                        "\"{b}\" already has a garrison: one unit per building (BFS-TER-29)"
                                    ),
                                );
                            }
                        }
                    }
                }
                if let Some(c) = &u.carries
                    && let Err(why) =
                        crate::portable::check_carried(c, u.bases, self.level, fortifications)
                {
                    p(who.clone(), why);
                }
                if let Some(r) = &u.regiment
                    && !regiments.contains(r.as_str())
                {
                    p(
                        who.clone(),
                        format!("belongs to regiment \"{r}\", which this side does not have"),
                    );
                }
                if u.bases == 0 || u.bases > MAX_BASES_PER_UNIT {
                    p(
                        who.clone(),
                        format!("{} bases is outside 1..{MAX_BASES_PER_UNIT}", u.bases),
                    );
                }
                if let FormationSpec::Line { files } = u.formation
                    && (files == 0 || files > u.bases)
                {
                    p(
                        who.clone(),
                        format!(
                            "a Line of {files} files needs 1..{} files for {} bases",
                            u.bases, u.bases
                        ),
                    );
                }
                if !(u.position.0.is_finite() && u.position.1.is_finite() && u.facing.is_finite()) {
                    p(who.clone(), "position or facing is not a number".into());
                }
            }
        }
        out
    }
}
