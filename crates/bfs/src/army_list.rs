//! Army lists: a named set of unit and commander profiles for one force (BFS-LST).
//!
//! The book publishes its army lists elsewhere (BFS-LST-11), so the lists shipped in `assets/armies`
//! are house data, and each file says so in its `notice`.

use crate::profile::{UnitKind, UnitProfile};
use sandtable_engine::data_file;
use sandtable_engine::{LoadError, Problem};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub const ARMY_LIST_FORMAT: u32 = 1;

/// Most profiles one list may hold: real lists have a few dozen.
pub const MAX_PROFILES: usize = 1000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyList {
    pub format: u32,
    pub id: String,
    pub name: String,
    /// Years of service the list covers (BFS-LST-3).
    pub period: String,
    /// Where the values come from; house data says so here.
    pub notice: String,
    pub profiles: Vec<UnitProfile>,
    /// The list's Skirmish Force card, from which forces are built (BFS-LST-3); lists without
    /// one only lend their profiles to hand-written scenarios.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<crate::force_card::ForceCard>,
}

impl ArmyList {
    pub fn profile(&self, id: &str) -> Option<&UnitProfile> {
        self.profiles.iter().find(|p| p.id == id)
    }

    /// Everything wrong with the list's content.
    pub fn problems(&self) -> Vec<Problem> {
        let mut out = Vec::new();
        if self.format != ARMY_LIST_FORMAT {
            out.push(Problem::new(
                "format",
                format!(
                    "this program reads army list format {ARMY_LIST_FORMAT}, the file says {}",
                    self.format
                ),
            ));
        }
        if self.id.trim().is_empty() {
            out.push(Problem::new("id", "the army list needs an id"));
        }
        if self.profiles.len() > MAX_PROFILES {
            out.push(Problem::new(
                "profiles",
                format!(
                    "{} profiles; the limit is {MAX_PROFILES}",
                    self.profiles.len()
                ),
            ));
            return out;
        }
        let mut ids = BTreeSet::new();
        for p in &self.profiles {
            let who = format!("profile \"{}\"", p.id);
            if !ids.insert(p.id.as_str()) {
                out.push(Problem::new(who.clone(), "is defined twice"));
            }
            for m in p.problems() {
                out.push(Problem::new(who.clone(), m));
            }
        }
        // Dragoons' two forms name each other, one mounted and one on foot (BFS-SPC-9).
        for p in self.profiles.iter().filter(|p| p.other_form.is_some()) {
            let who = format!("profile \"{}\"", p.id);
            let other = p.other_form.as_deref().unwrap_or_default();
            match self.profiles.iter().find(|q| q.id == other) {
                None => out.push(Problem::new(
                    who,
                    format!("names \"{other}\" as its other form, and the list has no such profile"),
                )),
                Some(q) if q.other_form.as_deref() != Some(p.id.as_str()) => out.push(Problem::new(
                    who,
                    format!("\"{other}\" does not name it back as its other form"),
                )),
                Some(q)
                    if !(p.has(crate::profile::SpecialRule::Dragoons)
                        && q.has(crate::profile::SpecialRule::Dragoons))
                        || (p.kind == UnitKind::Dragoons) == (q.kind == UnitKind::Dragoons) =>
                {
                    out.push(Problem::new(
                        who,
                        "dragoons' two forms both have the Dragoons rule, one of kind Dragoons (mounted) and one on foot",
                    ))
                }
                Some(_) => {}
            }
        }
        if let Some(card) = &self.card {
            out.extend(card.problems(self));
        }
        if !self.profiles.iter().any(|p| p.kind == UnitKind::Commander) {
            out.push(Problem::new(
                "profiles",
                "the list has no Commander profile",
            ));
        }
        out
    }
}

/// Loads and checks one army list file.
pub fn load_army_list(path: &Path) -> Result<ArmyList, LoadError> {
    let list: ArmyList = data_file::read_ron(path)?;
    let problems = list.problems();
    if problems.is_empty() {
        Ok(list)
    } else {
        Err(LoadError::Semantic {
            file: path.to_path_buf(),
            problems,
        })
    }
}

/// Loads every `*.ron` army list in a folder, sorted by file name. Lists that fail to load are
/// returned as errors beside the good ones.
pub fn load_army_lists(dir: &Path) -> (Vec<(PathBuf, ArmyList)>, Vec<LoadError>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let mut paths: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "ron"))
            .collect(),
        Err(e) => {
            bad.push(LoadError::Io {
                file: dir.to_path_buf(),
                message: format!("cannot list army lists: {e}"),
            });
            return (good, bad);
        }
    };
    paths.sort();
    for p in paths {
        match load_army_list(&p) {
            Ok(l) => good.push((p, l)),
            Err(e) => bad.push(e),
        }
    }
    (good, bad)
}
