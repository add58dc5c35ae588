//! The scenarios the start screen offers: every `*.ron` in `scenarios/` (battles),
//! `scenarios/solo/` and `scenarios/tutorial/`, and the player's own in the data folder's
//! `scenarios/`, opened through the registry (so every ruleset's scenarios are listed) and
//! checked, in groups by kind and ruleset.

use crate::paths::DataPaths;
use crate::preview::Preview;
use crate::rulesets::Rulesets;
use bevy::prelude::Resource;
use sandtable_engine::LoadError;
use sandtable_engine::registry::Variant;
use sandtable_engine::scenario::{ScenarioInfo, ScenarioKind};
use std::path::PathBuf;

/// A scenario as the start screen lists it.
#[derive(Debug, Clone)]
pub struct Listed {
    pub info: ScenarioInfo,
    /// The ruleset's name ("By Fire and Sword").
    pub ruleset: &'static str,
    /// The opening table as both sides see it, for the thumbnail.
    pub preview: Preview,
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub path: PathBuf,
    pub result: Result<Listed, LoadError>,
    /// From the player's own scenarios folder, not shipped with the program.
    pub own: bool,
}

/// The groups of the start screen, in order: what the program ships by kind and ruleset, then
/// the player's own scenarios, then those that cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    Shipped(u8, &'static str),
    Own,
    Broken,
}

impl Group {
    /// The heading the start screen shows above the group.
    pub fn heading(&self) -> String {
        match self {
            Group::Shipped(0, ruleset) => format!("Battles · {ruleset}"),
            Group::Shipped(1, ruleset) => format!("Solo scenarios · {ruleset}"),
            Group::Shipped(_, ruleset) => format!("Tutorial: learn to play · {ruleset}"),
            Group::Own => "Your own scenarios".into(),
            Group::Broken => "Cannot be loaded".into(),
        }
    }
}

impl Entry {
    pub fn group(&self) -> Group {
        match &self.result {
            Err(_) => Group::Broken,
            Ok(_) if self.own => Group::Own,
            Ok(l) => Group::Shipped(
                match l.info.kind {
                    ScenarioKind::Battle => 0,
                    ScenarioKind::Solo => 1,
                    ScenarioKind::Tutorial => 2,
                },
                l.ruleset,
            ),
        }
    }

    pub fn title(&self) -> String {
        match &self.result {
            Ok(l) => l.info.name.clone(),
            Err(_) => self
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }
}

/// Scenarios in menu order (good ones by ruleset, `menu_order` then file name; broken ones last).
#[derive(Resource, Debug, Clone, Default)]
pub struct Catalogue {
    pub entries: Vec<Entry>,
    /// A problem with the folder itself.
    pub folder_error: Option<String>,
}

impl Catalogue {
    pub fn scan(paths: &DataPaths, rulesets: &Rulesets) -> Self {
        let ron_files = |dir: &std::path::Path| -> std::io::Result<Vec<PathBuf>> {
            Ok(std::fs::read_dir(dir)?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "ron"))
                .collect())
        };
        let mut files: Vec<PathBuf> = match ron_files(&paths.scenarios) {
            Ok(f) => f,
            Err(e) => {
                return Self {
                    entries: Vec::new(),
                    folder_error: Some(format!("cannot read {}: {e}", paths.scenarios.display())),
                };
            }
        };
        // Solo scenarios and lessons live in their own folders; either may be missing.
        for sub in ["solo", "tutorial"] {
            files.extend(ron_files(&paths.scenarios.join(sub)).unwrap_or_default());
        }
        files.sort();
        let mut own = paths
            .own
            .as_deref()
            .and_then(|d| ron_files(d).ok())
            .unwrap_or_default();
        own.sort();
        let open = |p: PathBuf, own: bool| Entry {
            result: rulesets
                .0
                .open_scenario(&p, &paths.dirs, Variant::default())
                .map(|g| Listed {
                    info: g.info().clone(),
                    ruleset: g.ruleset_name(),
                    preview: Preview::public(&g.scene(0), &g.scene(1)),
                }),
            path: p,
            own,
        };
        let mut entries: Vec<Entry> = files
            .into_iter()
            .map(|p| open(p, false))
            .chain(own.into_iter().map(|p| open(p, true)))
            .collect();
        entries.sort_by_key(|e| {
            let order = e.result.as_ref().map_or(0, |l| l.info.menu_order);
            (e.group(), order)
        });
        Self {
            entries,
            folder_error: None,
        }
    }

    /// The scenario the start screen offers first: the default battle.
    pub fn default_entry(&self) -> Option<&Entry> {
        self.entries.iter().find(|e| e.result.is_ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_scenario_comes_first() {
        let cat = Catalogue::scan(&DataPaths::locate(None), &Rulesets::default());
        let first = cat.default_entry().expect("a scenario");
        assert!(
            first.path.ends_with("01-mill-ford-skirmish.ron"),
            "{}",
            first.path.display()
        );
    }
}
