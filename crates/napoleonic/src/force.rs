//! House forces: the sheet has no army lists, so each side's units come from a force file in
//! `assets/armies` (`Force(id: …, profiles: […])`), checked when a scenario loads.

use crate::vocab::{Arm, CavWeight, Rating, Weapon};
use sandtable_engine::{LoadError, Problem, data_file};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;

/// The force file format this program reads.
pub const FORCE_FORMAT: u32 = 1;
/// More profiles than this in one file is not a force list.
pub const MAX_PROFILES: usize = 500;

/// Something a unit is trained or equipped for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Trait {
    /// "R" class firers (NQ-FIRE-3 +1).
    Rifles,
    /// Two-rank training (NQ-FIRE-3 +2).
    TwoRankTrained,
    /// Untrained, green, cossack, landwehr or militia-type (NQ-MOR-4 +1 to the reform roll).
    MilitiaLike,
    /// May form skirmish order (light infantry, light cavalry).
    Skirmishers,
}

/// One kind of unit a force fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Profile", deny_unknown_fields)]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub arm: Arm,
    pub rating: Rating,
    /// Figures (1 figure = 30 men); for a battery, its crew figures.
    pub figures: u32,
    /// Small arms; infantry default to muskets, cavalry to carbines, batteries have none.
    #[serde(default)]
    pub weapon: Option<Weapon>,
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// The morale number, if not the house number for the rating (G7).
    #[serde(default)]
    pub morale: Option<u32>,
}

impl Profile {
    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }

    /// The unit's small arm, if it has one.
    pub fn small_arm(&self) -> Option<Weapon> {
        match self.arm {
            Arm::Artillery { .. } => None,
            Arm::Cavalry(_) => self.weapon.or(Some(Weapon::Carbine)),
            Arm::Infantry => self.weapon.or(Some(Weapon::Musket)),
        }
    }
}

/// A force file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Force", deny_unknown_fields)]
pub struct ForceList {
    pub format: u32,
    pub id: String,
    pub name: String,
    pub profiles: Vec<Profile>,
}

impl ForceList {
    pub fn profile(&self, id: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.id == id)
    }

    /// Every check of the file's contents, each naming its profile.
    pub fn check(&self) -> Vec<Problem> {
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
        if self.profiles.len() > MAX_PROFILES {
            out.push(Problem::new(
                "profiles",
                format!("{} profiles; at most {MAX_PROFILES}", self.profiles.len()),
            ));
            return out;
        }
        let mut seen = BTreeSet::new();
        for p in &self.profiles {
            let who = format!("profile \"{}\"", p.id);
            if p.id.trim().is_empty() {
                out.push(Problem::new(who.clone(), "has an empty id"));
            } else if !seen.insert(p.id.clone()) {
                out.push(Problem::new(who.clone(), "id is used twice"));
            }
            if !(1..=200).contains(&p.figures) {
                out.push(Problem::new(
                    who.clone(),
                    format!("{} figures; give 1 to 200", p.figures),
                ));
            }
            if let Some(m) = p.morale
                && m > 40
            {
                out.push(Problem::new(
                    who.clone(),
                    format!("morale number {m}; at most 40"),
                ));
            }
            match p.arm {
                Arm::Artillery {
                    guns, howitzers, ..
                } => {
                    if guns == 0 && howitzers == 0 || guns as u32 + howitzers as u32 > 24 {
                        out.push(Problem::new(
                            who.clone(),
                            "a battery needs 1 to 24 pieces (guns and howitzers)",
                        ));
                    }
                    if !matches!(p.rating, Rating::A | Rating::B) {
                        out.push(Problem::new(
                            who.clone(),
                            "batteries are rated A or B on this sheet (NQ-MOV-4)",
                        ));
                    }
                    if p.weapon.is_some() {
                        out.push(Problem::new(who.clone(), "a battery has no small arms"));
                    }
                }
                Arm::Cavalry(CavWeight::Heavy) if p.has(Trait::Skirmishers) => {
                    out.push(Problem::new(who.clone(), "heavy cavalry does not skirmish"));
                }
                _ => {}
            }
        }
        out
    }
}

/// Reads and checks a force file.
pub fn load_force(path: &Path) -> Result<ForceList, LoadError> {
    let list: ForceList = data_file::read_ron(path)?;
    let problems = list.check();
    if problems.is_empty() {
        Ok(list)
    } else {
        Err(LoadError::Semantic {
            file: path.to_path_buf(),
            problems,
        })
    }
}
