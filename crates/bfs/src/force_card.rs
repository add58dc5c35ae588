//! The Skirmish Force card of an army list (BFS-LST-2, BFS-LST-3): what a force must field, what it
//! may add level by level, and what each choice costs in Force Strength Points (BFS-LST-1).
//!
//! The book prints its cards in the army-list books, not in the rulebook (BFS-LST-11), so the
//! cards in `assets/armies/` are house data shaped like the book's: a core with its Commander
//! (BFS-LST-3 item 3), levels of higher FSP whose units need units of the level below (item 5),
//! grey optional bases bought per the card's notes (items 4 and 7), and additional commanders and
//! units on the right of the card (item 6).

use crate::army_list::ArmyList;
use crate::profile::UnitKind;
use sandtable_engine::Problem;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// One army list's Skirmish Force card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceCard {
    /// The Skirmish Force Commander of the core: his Command Points are the scroll icons
    /// (BFS-LST-3 item 3).
    pub commander: CardCommander,
    /// FSP levels, lowest first: the first is the core every force fields whole (item 3), each
    /// later one adds units for its higher FSP (item 5).
    pub levels: Vec<CardLevel>,
    /// Additional commanders and units, each available from a level (item 6).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional: Vec<CardExtra>,
    /// A better Skirmish Force Commander, bought per the card's notes (item 7).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commander_upgrades: Vec<CommanderUpgrade>,
    /// A Defensive Skirmish Force (BFS-SCN-16).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defensive: bool,
    /// A Small Skirmish Force by its list (BFS-SCN-17); any force of 4 FSP or less is one anyway.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub small: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardCommander {
    pub name: String,
    /// The commander profile in the list.
    pub profile: String,
    pub command_points: u8,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardLevel {
    /// The force's FSP when this is the highest level it fields.
    pub fsp: u32,
    pub units: Vec<CardUnit>,
}

/// One row of the card: one unit (BFS-LST-3 item 4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardUnit {
    /// Unique on the card; forces name their picks by it.
    pub id: String,
    pub name: String,
    pub profile: String,
    /// Black silhouettes: bases included in the level's FSP. A core unit with none is optional.
    pub bases: u8,
    /// Grey silhouettes: optional bases, bought per `optional_bases_per_fsp`.
    #[serde(default)]
    pub optional_bases: u8,
    /// How many grey bases one FSP buys (the card's notes); 0 means they are free.
    #[serde(default)]
    pub optional_bases_per_fsp: u8,
}

/// A row on the right of the card (BFS-LST-3 item 6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardExtra {
    pub id: String,
    pub name: String,
    /// The lowest level (by its FSP) a force must field to take it.
    pub from_fsp: u32,
    /// Its cost in FSP; black bases on the right of the card are free (0).
    pub fsp: u32,
    pub what: ExtraKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ExtraKind {
    /// An additional commander with his Command Points.
    Commander { profile: String, command_points: u8 },
    /// An additional unit of up to `max_bases` bases (at least `min_bases`).
    Unit {
        profile: String,
        min_bases: u8,
        max_bases: u8,
    },
}

/// A better Skirmish Force Commander (BFS-LST-3 item 7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommanderUpgrade {
    pub id: String,
    pub name: String,
    pub command_points: u8,
    pub fsp: u32,
}

impl ForceCard {
    /// Every row by id: (level index, row).
    pub fn unit(&self, id: &str) -> Option<(usize, &CardUnit)> {
        self.levels
            .iter()
            .enumerate()
            .find_map(|(i, l)| l.units.iter().find(|u| u.id == id).map(|u| (i, u)))
    }

    pub fn extra(&self, id: &str) -> Option<&CardExtra> {
        self.additional.iter().find(|e| e.id == id)
    }

    /// Everything wrong with the card against its own list's profiles.
    pub fn problems(&self, list: &ArmyList) -> Vec<Problem> {
        let mut out = Vec::new();
        let profile_of_kind = |id: &str, commander: bool| match list.profile(id) {
            None => Some(format!(
                "names profile \"{id}\", which the list does not have"
            )),
            Some(p) if (p.kind == UnitKind::Commander) != commander => Some(format!(
                "profile \"{id}\" is {}a commander",
                if commander { "not " } else { "" }
            )),
            Some(_) => None,
        };
        if let Some(m) = profile_of_kind(&self.commander.profile, true) {
            out.push(Problem::new("card commander", m));
        }
        if self.levels.is_empty() {
            out.push(Problem::new(
                "card",
                "a card needs at least its core level (BFS-LST-3)",
            ));
        }
        if self
            .levels
            .first()
            .is_some_and(|core| core.units.iter().all(|u| u.bases == 0))
        {
            out.push(Problem::new(
                "card core",
                "the core needs at least one unit every force fields (black bases, BFS-LST-3)",
            ));
        }
        // The Skirmish Force Commander's id in a force.
        let mut ids = BTreeSet::from(["commander"]);
        let mut last_fsp = None;
        for l in &self.levels {
            if last_fsp.is_some_and(|f| f >= l.fsp) {
                out.push(Problem::new(
                    format!("card level {} FSP", l.fsp),
                    "levels must rise in FSP (BFS-LST-3 item 5)",
                ));
            }
            last_fsp = Some(l.fsp);
            for u in &l.units {
                let who = format!("card unit \"{}\"", u.id);
                if !ids.insert(u.id.as_str()) {
                    out.push(Problem::new(who.clone(), "is on the card twice"));
                }
                if let Some(m) = profile_of_kind(&u.profile, false) {
                    out.push(Problem::new(who.clone(), m));
                }
                if u.bases as u32 + u.optional_bases as u32 == 0 {
                    out.push(Problem::new(who, "has no bases, black or grey"));
                }
            }
        }
        for e in &self.additional {
            let who = format!("card additional \"{}\"", e.id);
            if !ids.insert(e.id.as_str()) {
                out.push(Problem::new(who.clone(), "is on the card twice"));
            }
            if !self.levels.iter().any(|l| l.fsp == e.from_fsp) {
                out.push(Problem::new(
                    who.clone(),
                    format!(
                        "is available from FSP {}, which is no level of the card",
                        e.from_fsp
                    ),
                ));
            }
            match &e.what {
                ExtraKind::Commander { profile, .. } => {
                    if let Some(m) = profile_of_kind(profile, true) {
                        out.push(Problem::new(who, m));
                    }
                }
                ExtraKind::Unit {
                    profile,
                    min_bases,
                    max_bases,
                } => {
                    if let Some(m) = profile_of_kind(profile, false) {
                        out.push(Problem::new(who.clone(), m));
                    }
                    if *min_bases == 0 || min_bases > max_bases {
                        out.push(Problem::new(who, "needs 1 ≤ min_bases ≤ max_bases"));
                    }
                }
            }
        }
        for u in &self.commander_upgrades {
            if u.command_points <= self.commander.command_points {
                out.push(Problem::new(
                    format!("card commander upgrade \"{}\"", u.id),
                    "must give more Command Points than the core commander",
                ));
            }
        }
        out
    }
}
