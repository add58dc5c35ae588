//! A force built from an army list's card (BFS-LST-1..3), kept as a RON file, and the values the
//! pre-battle sequence needs from it: Force Strength Points (BFS-LST-1), Force Value and its loss
//! chart (BFS-VIC-1..3), and Reconnaissance Points (BFS-SCN-35).
//!
//! ```ron
//! SkirmishForce(
//!   format: 1,
//!   name: "Sosiński's banners",
//!   army_list: "polish-lithuanian-1655",
//!   units: [Pick(card: "hussars", bases: 3), Pick(card: "pancerni", bases: 4)],
//!   additional: [Pick(card: "wagons", bases: 1)],
//! )
//! ```

use crate::army_list::ArmyList;
use crate::force_card::{ExtraKind, ForceCard};
use crate::profile::{SpecialRule, UnitKind, UnitProfile};
use crate::scenario_spec::{CommanderRank, CommanderSpec, ForceSpec, FormationSpec, UnitSpec};
use sandtable_engine::data_file;
use sandtable_engine::{LoadError, Problem};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

pub const FORCE_FORMAT: u32 = 1;

/// A force file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "SkirmishForce")]
pub struct ForceFile {
    pub format: u32,
    pub name: String,
    /// The army list (a file in `assets/armies/`) whose card the force is built from.
    pub army_list: String,
    /// Units from the card's levels, each with its bases (black and the grey ones bought).
    pub units: Vec<Pick>,
    /// Additional commanders and units from the right of the card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional: Vec<Pick>,
    /// A better Skirmish Force Commander from the card's notes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander_upgrade: Option<String>,
    /// The Skirmish Force Commander's own name; the card's title when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander_name: Option<String>,
}

/// One row of the card taken into the force.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pick {
    /// The row's id on the card.
    pub card: String,
    /// Bases fielded (0 for an additional commander).
    #[serde(default)]
    pub bases: u8,
    /// The unit's own name; the card row's when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// What the sequence needs to know of a force (BFS-SCN-9 step A).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForceSummary {
    /// Force Strength Points (BFS-LST-1).
    pub fsp: u32,
    /// FSP of the highest card level fielded.
    pub level_fsp: u32,
    /// Bases, commanders excluded, plus the Skirmish Force Commander's CP (BFS-VIC-1, A-9).
    pub force_value: u32,
    /// Upper bounds of the Minor, Acceptable, Heavy and Very heavy bands (BFS-VIC-3).
    pub thresholds: [u32; 4],
    /// Reconnaissance Points (BFS-SCN-35).
    pub reconnaissance_points: u32,
    /// The Skirmish Force Commander's Command Points.
    pub command_points: u8,
    pub bases: u32,
    pub units: usize,
    /// A Small Skirmish Force: by its card, or at 4 FSP or less (BFS-SCN-17).
    pub small: bool,
    /// A Defensive Skirmish Force (BFS-SCN-16).
    pub defensive: bool,
}

/// One unit of the force as it will deploy.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterUnit {
    pub id: String,
    pub name: String,
    pub profile: String,
    pub bases: u8,
}

/// One commander of the force.
#[derive(Debug, Clone, PartialEq)]
pub struct RosterCommander {
    pub id: String,
    pub name: String,
    pub profile: String,
    pub command_points: u8,
    pub chief: bool,
}

/// A force checked against its list: every value the sequence and the battle need.
#[derive(Debug, Clone, PartialEq)]
pub struct Force {
    pub file: ForceFile,
    pub summary: ForceSummary,
    pub commanders: Vec<RosterCommander>,
    pub units: Vec<RosterUnit>,
}

impl ForceFile {
    /// Everything that breaks the list's card, each naming its rule.
    pub fn problems(&self, list: &ArmyList) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.format != FORCE_FORMAT {
            out.push(Problem::new(
                "format",
                format!(
                    "this program reads force format {FORCE_FORMAT}, the file says {}",
                    self.format
                ),
            ));
        }
        if self.army_list != list.id {
            out.push(Problem::new(
                "army_list",
                format!(
                    "names \"{}\", checked against \"{}\"",
                    self.army_list, list.id
                ),
            ));
        }
        let Some(card) = &list.card else {
            out.push(Problem::new(
                "army_list",
                format!(
                    "\"{}\" has no Skirmish Force card to build from (BFS-LST-3)",
                    list.id
                ),
            ));
            return out;
        };
        let mut seen = BTreeSet::new();
        for p in &self.units {
            let who = format!("unit \"{}\"", p.card);
            if !seen.insert(p.card.as_str()) {
                out.push(Problem::new(
                    who.clone(),
                    "is picked twice: each row of the card is one unit (BFS-LST-3)",
                ));
            }
            match card.unit(&p.card) {
                None => out.push(Problem::new(
                    who,
                    if card.extra(&p.card).is_some() {
                        "is an additional unit: list it under `additional` (BFS-LST-3)".to_string()
                    } else {
                        format!("is not on the card of \"{}\" (BFS-LST-3)", list.id)
                    },
                )),
                Some((_, row)) => {
                    let most = row.bases + row.optional_bases;
                    if p.bases < row.bases.max(1) || p.bases > most {
                        out.push(Problem::new(
                            who,
                            format!(
                                "fields {} bases; the card gives {} black and {} grey (BFS-LST-3)",
                                p.bases, row.bases, row.optional_bases
                            ),
                        ));
                    }
                }
            }
        }
        // The core is fielded whole (BFS-LST-3 item 3).
        if let Some(core) = card.levels.first() {
            for row in core.units.iter().filter(|r| r.bases > 0) {
                if !seen.contains(row.id.as_str()) {
                    out.push(Problem::new(
                        format!("unit \"{}\"", row.id),
                        "is in the core, which every force fields whole (BFS-LST-3)",
                    ));
                }
            }
        }
        // A level's units need units of the level below (BFS-LST-3 item 5).
        let fielded = |level: usize| {
            card.levels[level]
                .units
                .iter()
                .any(|r| seen.contains(r.id.as_str()))
        };
        for level in 2..card.levels.len() {
            if fielded(level) && !fielded(level - 1) {
                out.push(Problem::new(
                    format!("level FSP {}", card.levels[level].fsp),
                    format!(
                        "its units need some of the FSP {} level first (BFS-LST-3)",
                        card.levels[level - 1].fsp
                    ),
                ));
            }
        }
        let level_fsp = level_fsp(card, &seen);
        let mut extras = BTreeSet::new();
        for p in &self.additional {
            let who = format!("additional \"{}\"", p.card);
            if !extras.insert(p.card.as_str()) {
                out.push(Problem::new(who.clone(), "is picked twice"));
            }
            let Some(e) = card.extra(&p.card) else {
                out.push(Problem::new(
                    who,
                    format!(
                        "is not among the additional units and commanders of \"{}\" (BFS-LST-3)",
                        list.id
                    ),
                ));
                continue;
            };
            if e.from_fsp > level_fsp {
                out.push(Problem::new(
                    who.clone(),
                    format!(
                        "comes with the FSP {} level; this force fields FSP {level_fsp} (BFS-LST-3)",
                        e.from_fsp
                    ),
                ));
            }
            match &e.what {
                ExtraKind::Commander { .. } if p.bases != 0 => {
                    out.push(Problem::new(who, "is a commander: give it no bases"))
                }
                ExtraKind::Unit {
                    min_bases,
                    max_bases,
                    ..
                } if p.bases < *min_bases || p.bases > *max_bases => out.push(Problem::new(
                    who,
                    format!(
                        "fields {} bases; the card allows {min_bases} to {max_bases} (BFS-LST-3)",
                        p.bases
                    ),
                )),
                _ => {}
            }
        }
        if let Some(u) = &self.commander_upgrade
            && !card.commander_upgrades.iter().any(|c| &c.id == u)
        {
            out.push(Problem::new(
                "commander_upgrade",
                format!("\"{u}\" is not among the card's commanders (BFS-LST-3)"),
            ));
        }
        out
    }

    /// The force checked against its list, or what is wrong with it.
    pub fn resolve(&self, list: &ArmyList) -> Result<Force, Vec<Problem>> {
        let problems = self.problems(list);
        if !problems.is_empty() {
            return Err(problems);
        }
        let card = list.card.as_ref().expect("checked: the list has a card");
        let picked: BTreeSet<&str> = self.units.iter().map(|p| p.card.as_str()).collect();
        let level = level_fsp(card, &picked);
        let mut fsp = level;
        let mut units = Vec::new();
        let mut commanders = Vec::new();
        let upgrade = self
            .commander_upgrade
            .as_ref()
            .and_then(|u| card.commander_upgrades.iter().find(|c| &c.id == u));
        let chief_cp = upgrade.map_or(card.commander.command_points, |u| u.command_points);
        fsp += upgrade.map_or(0, |u| u.fsp);
        commanders.push(RosterCommander {
            id: "commander".into(),
            name: self
                .commander_name
                .clone()
                .unwrap_or_else(|| card.commander.name.clone()),
            profile: card.commander.profile.clone(),
            command_points: chief_cp,
            chief: true,
        });
        let mut rp = 0u32;
        for p in &self.units {
            let (_, row) = card.unit(&p.card).expect("checked");
            let grey = p.bases.saturating_sub(row.bases) as u32;
            if grey > 0 && row.optional_bases_per_fsp > 0 {
                fsp += grey.div_ceil(row.optional_bases_per_fsp as u32);
            }
            let profile = list.profile(&row.profile).expect("checked");
            rp += reconnaissance_points(profile, p.bases, true);
            units.push(RosterUnit {
                id: p.card.clone(),
                name: p.name.clone().unwrap_or_else(|| row.name.clone()),
                profile: row.profile.clone(),
                bases: p.bases,
            });
        }
        for p in &self.additional {
            let e = card.extra(&p.card).expect("checked");
            fsp += e.fsp;
            match &e.what {
                ExtraKind::Commander {
                    profile,
                    command_points,
                } => commanders.push(RosterCommander {
                    id: p.card.clone(),
                    name: p.name.clone().unwrap_or_else(|| e.name.clone()),
                    profile: profile.clone(),
                    command_points: *command_points,
                    chief: false,
                }),
                ExtraKind::Unit { profile, .. } => {
                    let prof = list.profile(profile).expect("checked");
                    // All the additional units of one row count as one unit (BFS-SCN-35).
                    rp += reconnaissance_points(prof, p.bases, true);
                    units.push(RosterUnit {
                        id: p.card.clone(),
                        name: p.name.clone().unwrap_or_else(|| e.name.clone()),
                        profile: profile.clone(),
                        bases: p.bases,
                    });
                }
            }
        }
        let bases: u32 = units.iter().map(|u| u.bases as u32).sum();
        let force_value = bases + chief_cp as u32;
        let summary = ForceSummary {
            fsp,
            level_fsp: level,
            force_value,
            thresholds: crate::victory::thresholds(force_value),
            reconnaissance_points: rp,
            command_points: chief_cp,
            bases,
            units: units.len(),
            small: card.small || fsp <= 4,
            defensive: card.defensive,
        };
        Ok(Force {
            file: self.clone(),
            summary,
            commanders,
            units,
        })
    }
}

/// FSP of the highest level from which the force fields a unit (the core's at least).
fn level_fsp(card: &ForceCard, picked: &BTreeSet<&str>) -> u32 {
    card.levels
        .iter()
        .enumerate()
        .filter(|(i, l)| *i == 0 || l.units.iter().any(|u| picked.contains(u.id.as_str())))
        .map(|(_, l)| l.fsp)
        .max()
        .unwrap_or(0)
}

/// A unit's Reconnaissance Points (BFS-SCN-35): 1 a base of cavalry or dragoons (A-9), and the
/// best one of its rules' bonuses (they do not stack): Scouts 2; Light Cavalry, Skirmishers,
/// Dragoons or Highlanders 1.
pub fn reconnaissance_points(profile: &UnitProfile, bases: u8, counts_as_unit: bool) -> u32 {
    let mounted = matches!(profile.kind, UnitKind::Cavalry | UnitKind::Dragoons)
        || profile.has(SpecialRule::Dragoons);
    let per_base = if mounted { bases as u32 } else { 0 };
    let bonus = if !counts_as_unit {
        0
    } else if profile.has(SpecialRule::Scouts) {
        2
    } else if [
        SpecialRule::LightCavalry,
        SpecialRule::Skirmishers,
        SpecialRule::Dragoons,
        SpecialRule::Highlanders,
    ]
    .iter()
    .any(|r| profile.has(*r))
    {
        1
    } else {
        0
    };
    per_base + bonus
}

impl Force {
    /// The force as a scenario's side, every piece at `(0, 0)` until it deploys.
    pub fn to_spec(&self, list: &ArmyList) -> ForceSpec {
        ForceSpec {
            army_list: list.id.clone(),
            commanders: self
                .commanders
                .iter()
                .map(|c| CommanderSpec {
                    id: c.id.clone(),
                    name: c.name.clone(),
                    // At Skirmish level every commander may order every unit (BFS-LST-14).
                    rank: if c.chief {
                        CommanderRank::CommanderInChief
                    } else {
                        CommanderRank::Senior
                    },
                    command_points: c.command_points,
                    profile: c.profile.clone(),
                    position: (0.0, 0.0),
                    facing: 0.0,
                    regiment: None,
                    deputy: false,
                    coward: false,
                    instruction: None,
                })
                .collect(),
            regiments: Vec::new(),
            units: self
                .units
                .iter()
                .map(|u| UnitSpec {
                    id: u.id.clone(),
                    name: Some(u.name.clone()),
                    profile: u.profile.clone(),
                    regiment: None,
                    formation: default_formation(list.profile(&u.profile), u.bases),
                    bases: u.bases,
                    position: (0.0, 0.0),
                    facing: 0.0,
                    reserve: false,
                    carries: None,
                    garrison: None,
                    additional_crew: false,
                    fortified: false,
                    extra_rules: Vec::new(),
                    delayed: None,
                    pillage: None,
                })
                .collect(),
            squadrons: Vec::new(),
        }
    }
}

/// A Line three bases wide for horse and four for foot; wagons and guns in a Column.
pub fn default_formation(profile: Option<&UnitProfile>, bases: u8) -> FormationSpec {
    // Rabble stands no wider than deep (BFS-SPC-25): the widest such Line.
    if profile.is_some_and(|p| p.has(crate::profile::SpecialRule::Rabble)) {
        let files = (1..=bases.max(1))
            .rev()
            .find(|f| crate::rabble::allowed(Some(*f), bases as usize))
            .unwrap_or(1);
        return FormationSpec::Line { files };
    }
    match profile.map(|p| p.kind) {
        Some(UnitKind::Wagon) | Some(UnitKind::Artillery) => FormationSpec::Column,
        Some(UnitKind::Cavalry) | Some(UnitKind::Dragoons) => FormationSpec::Line {
            files: bases.clamp(1, 3),
        },
        _ => FormationSpec::Line {
            files: bases.clamp(1, 4),
        },
    }
}

/// Reads a force file and checks it against the army lists given (by id).
pub fn load_force(path: &Path, lists: &[ArmyList]) -> Result<Force, LoadError> {
    let file: ForceFile = data_file::read_ron(path)?;
    let Some(list) = lists.iter().find(|l| l.id == file.army_list) else {
        return Err(LoadError::Semantic {
            file: path.to_path_buf(),
            problems: vec![Problem::new(
                "army_list",
                format!("no army list \"{}\" is installed", file.army_list),
            )],
        });
    };
    file.resolve(list).map_err(|problems| LoadError::Semantic {
        file: path.to_path_buf(),
        problems,
    })
}
