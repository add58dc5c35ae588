//! The scenarios the start screen offers: every `*.ron` in `scenarios/` (battles),
//! `scenarios/solo/` and `scenarios/tutorial/`, opened through the registry (so every ruleset's
//! scenarios are listed) and checked.

use crate::paths::DataPaths;
use crate::rulesets::Rulesets;
use bevy::prelude::Resource;
use sandtable_engine::LoadError;
use sandtable_engine::registry::Variant;
use sandtable_engine::scenario::ScenarioInfo;
use std::path::PathBuf;

/// A scenario as the start screen lists it.
#[derive(Debug, Clone)]
pub struct Listed {
    pub info: ScenarioInfo,
    /// The ruleset's name ("By Fire and Sword").
    pub ruleset: &'static str,
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub path: PathBuf,
    pub result: Result<Listed, LoadError>,
}

impl Entry {
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
        let mut entries: Vec<Entry> = files
            .into_iter()
            .map(|p| Entry {
                result: rulesets
                    .0
                    .open_scenario(&p, &paths.dirs, Variant::default())
                    .map(|g| Listed {
                        info: g.info().clone(),
                        ruleset: g.ruleset_name(),
                    }),
                path: p,
            })
            .collect();
        entries.sort_by_key(|e| match &e.result {
            Ok(l) => (0, l.info.menu_order),
            Err(_) => (1, 0),
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
