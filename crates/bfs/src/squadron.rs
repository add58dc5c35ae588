//! Squadrons (BFS-SQN-1..5): identical units of one regiment merged when they are deployed into
//! one larger unit, for one order and one casualty track, and the Morale bonus of its size. The
//! scenario names them (`squadrons` in a force); from deployment on the squadron is a unit like
//! any other (BFS-SQN-3), so nothing but the setup needs to know.
//!
//! Our army lists give one profile per troop type, so "identical units" means units of the same
//! profile; units of one type whose Skill, Morale or equipment differ (BFS-SQN-4's lowest-value
//! rule) need profiles the lists do not have yet. Pike and shot battalions (BFS-SQN-6) come with
//! the special rules of the issue "BFaS in full (2)".

use crate::army_list::ArmyList;
use crate::deploy::deployment_rects;
use crate::profile::{SpecialRule, UnitKind, UnitProfile};
use crate::scenario_spec::{ForceSpec, UnitSpec};
use sandtable_engine::Problem;
use sandtable_geometry::formation::{self, FormationKind};
use sandtable_geometry::{Rect, Vec2};
use serde::{Deserialize, Serialize};

/// Most bases in a squadron of cavalry or dragoons, and of infantry (BFS-SQN-1).
pub const MAX_MOUNTED_BASES: u32 = 6;
pub const MAX_FOOT_BASES: u32 = 12;

/// A squadron as the scenario declares it: the units, deployed side by side or one behind the
/// other so that together they stand as a Line or Column.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SquadronSpec {
    /// The squadron's unit id from deployment on (scripts and objectives name it).
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    /// The ids of the units it is made of.
    pub units: Vec<String>,
}

/// A squadron ready to deploy: its members' bases together, and its files.
#[derive(Debug, Clone, PartialEq)]
pub struct Deployed {
    pub bases: Vec<Rect>,
    pub files: u8,
}

/// The member units of `sq` in the force, in the order the squadron names them.
fn members<'a>(force: &'a ForceSpec, sq: &SquadronSpec) -> Vec<Option<&'a UnitSpec>> {
    sq.units
        .iter()
        .map(|id| force.units.iter().find(|u| &u.id == id))
        .collect()
}

/// Is this unit one of the force's squadrons' members?
pub fn in_a_squadron(force: &ForceSpec, unit: &str) -> bool {
    force
        .squadrons
        .iter()
        .any(|s| s.units.iter().any(|u| u == unit))
}

/// Where the squadron's bases stand, checked as the rules demand (BFS-SQN-1, -4, -5).
pub fn deploy(
    force: &ForceSpec,
    army: &ArmyList,
    sq: &SquadronSpec,
) -> Result<(Deployed, &'static str), String> {
    let units = members(force, sq);
    if units.len() < 2 {
        return Err("a squadron is made of at least two units".into());
    }
    let mut found = Vec::new();
    for (id, u) in sq.units.iter().zip(&units) {
        match u {
            Some(u) => found.push(*u),
            None => return Err(format!("no unit \"{id}\" in this force")),
        }
    }
    for id in &sq.units {
        let squadrons = force
            .squadrons
            .iter()
            .filter(|s| s.units.contains(id))
            .count();
        if squadrons > 1 || sq.units.iter().filter(|x| *x == id).count() > 1 {
            return Err(format!("unit \"{id}\" is named twice"));
        }
    }
    let first = found[0];
    if found.iter().any(|u| u.profile != first.profile) {
        return Err("its units must be identical: the same profile (BFS-SQN-4)".into());
    }
    if found.iter().any(|u| u.regiment != first.regiment) {
        return Err("its units must come from the same regiment (BFS-SQN-4)".into());
    }
    if found.iter().any(|u| u.reserve) {
        return Err("squadrons are formed on deployment; a reserve cannot join one".into());
    }
    let p: &UnitProfile = army
        .profile(&first.profile)
        .ok_or_else(|| format!("unknown profile \"{}\"", first.profile))?;
    for rule in [SpecialRule::Independent, SpecialRule::CommandedMusketeers] {
        if p.has(rule) {
            return Err(format!("{rule:?} units may not form squadrons (BFS-SQN-5)"));
        }
    }
    let (cap, rule) = match p.kind {
        UnitKind::Cavalry | UnitKind::Dragoons => (MAX_MOUNTED_BASES, "BFS-SQN-1"),
        UnitKind::Infantry => (MAX_FOOT_BASES, "BFS-SQN-1"),
        other => return Err(format!("{other:?} squadrons are not played yet")),
    };
    let total: u32 = found.iter().map(|u| u.bases as u32).sum();
    if total > cap {
        return Err(format!(
            "{total} bases: a squadron of {:?} has at most {cap} ({rule})",
            p.kind
        ));
    }
    let bases: Vec<Rect> = found
        .iter()
        .flat_map(|u| {
            deployment_rects(
                u.formation,
                u.bases,
                p.base_size(),
                Vec2::new(u.position.0, u.position.1),
                u.facing,
            )
        })
        .collect();
    let c = formation::classify(&bases, 0.05).map_err(|e| e.to_string())?;
    match (c.kind, c.order) {
        (FormationKind::Line | FormationKind::Column, Some(order)) => Ok((
            Deployed {
                bases,
                files: order.frame.files as u8,
            },
            "BFS-SQN-2",
        )),
        _ => Err(
            "its units must be deployed together as one Line or Column: side by side, or one \
             behind the other, facing the same way (BFS-SQN-2)"
                .into(),
        ),
    }
}

/// Every squadron of the force checked, each fault named by its squadron.
pub fn problems(force: &ForceSpec, army: &ArmyList) -> Vec<Problem> {
    force
        .squadrons
        .iter()
        .filter_map(|sq| {
            deploy(force, army, sq)
                .err()
                .map(|why| Problem::new(format!("squadron \"{}\"", sq.id), why))
        })
        .collect()
}
