//! The Napoleonic section of a scenario file (`rules: Napoleonic(forces: […])`): each side's force
//! list and its brigades, each with a leader and its units placed on the table. Positions are the
//! front centre of a unit (a leader's base centre), in the file's unit (inches for this ruleset).

use crate::vocab::Formation;
use sandtable_engine::Problem;
use sandtable_engine::scenario::{PieceSpec, RulesSection, Scenario};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Units on one side: more is not a brigade action.
pub const MAX_UNITS_PER_SIDE: usize = 60;

pub type NapScenario = Scenario<NapRules>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Napoleonic", deny_unknown_fields)]
pub struct NapRules {
    /// One per side, in side order.
    pub forces: Vec<ForceSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Force", deny_unknown_fields)]
pub struct ForceSpec {
    /// The force file (`assets/armies/<list>.ron`) the profiles come from.
    pub list: String,
    pub brigades: Vec<BrigadeSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Brigade", deny_unknown_fields)]
pub struct BrigadeSpec {
    pub id: String,
    pub name: String,
    pub leader: LeaderSpec,
    pub units: Vec<UnitSpec>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Leader", deny_unknown_fields)]
pub struct LeaderSpec {
    pub id: String,
    pub name: String,
    pub position: (f32, f32),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Unit", deny_unknown_fields)]
pub struct UnitSpec {
    pub id: String,
    pub profile: String,
    #[serde(default)]
    pub name: Option<String>,
    /// The middle of the unit's front edge.
    pub position: (f32, f32),
    /// Compass bearing the unit faces, degrees (0 = north).
    #[serde(default)]
    pub facing: f32,
    pub formation: Formation,
    /// Figures at the start, if fewer than the profile's.
    #[serde(default)]
    pub figures: Option<u32>,
}

impl RulesSection for NapRules {
    fn pieces(&self) -> Vec<PieceSpec> {
        let mut out = Vec::new();
        for (side, f) in self.forces.iter().enumerate() {
            for b in &f.brigades {
                out.push(PieceSpec {
                    id: b.leader.id.clone(),
                    side,
                    leader: true,
                    reserve: false,
                });
                out.extend(b.units.iter().map(|u| PieceSpec {
                    id: u.id.clone(),
                    side,
                    leader: false,
                    reserve: false,
                }));
            }
        }
        out
    }

    fn piece_place(&self, id: &str) -> Option<((f32, f32), f32)> {
        self.forces.iter().flat_map(|f| &f.brigades).find_map(|b| {
            if b.leader.id == id {
                return Some((b.leader.position, 0.0));
            }
            b.units
                .iter()
                .find(|u| u.id == id)
                .map(|u| (u.position, u.facing))
        })
    }

    fn place_piece(&mut self, id: &str, position: (f32, f32), facing: f32) -> bool {
        for b in self.forces.iter_mut().flat_map(|f| &mut f.brigades) {
            if b.leader.id == id {
                b.leader.position = position;
                return true;
            }
            if let Some(u) = b.units.iter_mut().find(|u| u.id == id) {
                (u.position, u.facing) = (position, facing);
                return true;
            }
        }
        false
    }

    fn remove_piece(&mut self, id: &str) -> bool {
        for b in self.forces.iter_mut().flat_map(|f| &mut f.brigades) {
            let before = b.units.len();
            b.units.retain(|u| u.id != id);
            if b.units.len() < before {
                return true;
            }
        }
        false
    }

    fn scale_lengths(&mut self, f: f32) {
        for force in &mut self.forces {
            for b in &mut force.brigades {
                b.leader.position = (b.leader.position.0 * f, b.leader.position.1 * f);
                for u in &mut b.units {
                    u.position = (u.position.0 * f, u.position.1 * f);
                }
            }
        }
    }

    fn scale_label(&self) -> String {
        let brigades: usize = self.forces.iter().map(|f| f.brigades.len()).sum();
        format!("Brigade action, {brigades} brigades")
    }

    /// Identifiers, brigades and positions: what needs no force file.
    fn check(&self, s: &Scenario<Self>) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.forces.len() != 2 || s.sides.len() != 2 {
            out.push(Problem::new(
                "rules",
                format!(
                    "lists {} forces for {} sides: this ruleset is played by two sides, one force each",
                    self.forces.len(),
                    s.sides.len()
                ),
            ));
        }
        let (w, d) = (s.table.width, s.table.depth);
        let on_table = |p: (f32, f32)| {
            p.0.is_finite()
                && p.1.is_finite()
                && (0.0..=w).contains(&p.0)
                && (0.0..=d).contains(&p.1)
        };
        let mut ids: BTreeMap<String, String> = BTreeMap::new();
        let mut claim = |id: &str, what: &str, out: &mut Vec<Problem>| {
            if id.trim().is_empty() {
                out.push(Problem::new(what, "has an empty id"));
            } else if let Some(prev) = ids.get(id) {
                out.push(Problem::new(
                    what,
                    format!("id \"{id}\" is already used by {prev}"),
                ));
            } else {
                ids.insert(id.to_string(), what.to_string());
            }
        };
        for (si, force) in self.forces.iter().enumerate() {
            let side = format!("side #{}", si + 1);
            if force.list.contains(['/', '\\']) || force.list.starts_with('.') {
                out.push(Problem::new(
                    side.clone(),
                    format!("force list name \"{}\" must be a plain name", force.list),
                ));
            }
            let units: usize = force.brigades.iter().map(|b| b.units.len()).sum();
            if units == 0 {
                out.push(Problem::new(side.clone(), "has no units"));
            }
            if units > MAX_UNITS_PER_SIDE {
                out.push(Problem::new(
                    side.clone(),
                    format!("has {units} units; the limit is {MAX_UNITS_PER_SIDE}"),
                ));
            }
            for b in &force.brigades {
                claim(&b.id, &format!("brigade \"{}\"", b.id), &mut out);
                let who = format!("leader \"{}\"", b.leader.id);
                claim(&b.leader.id, &who, &mut out);
                if !on_table(b.leader.position) {
                    out.push(Problem::new(who, "is off the table"));
                }
                for u in &b.units {
                    let who = format!("unit \"{}\"", u.id);
                    claim(&u.id, &who, &mut out);
                    if !on_table(u.position) {
                        out.push(Problem::new(who.clone(), "is off the table"));
                    }
                    if !u.facing.is_finite() {
                        out.push(Problem::new(who.clone(), "facing is not a number"));
                    }
                    if u.figures == Some(0) {
                        out.push(Problem::new(who.clone(), "starts with no figures"));
                    }
                }
            }
        }
        out
    }
}
