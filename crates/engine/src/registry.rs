//! The rulesets a program knows. The app and the CLI each build one [`Registry`] in the one file
//! where they name rulesets; everything else reaches a ruleset through it: opening a scenario or a
//! save picks the ruleset the file names, and computer players come from the entry.

use crate::data_file;
use crate::dynamic::{AnyGame, TypedGame};
use crate::files::{DataDirs, Files, first_word};
use crate::help::RuleHelp;
use crate::player::AnyPlayer;
use crate::presenter::Present;
use crate::problem::LoadError;
use crate::ruleset::Ruleset;
use crate::scenario::ScenarioHeader;
use crate::session::{SaveError, Session};
use crate::teach::Teach;
use serde::Deserialize;
use std::path::Path;

/// Makes a computer player of this ruleset from its name ("ai", "random", "passive"…) and seed.
pub type PlayerMaker = fn(&str, u64) -> Result<Box<dyn AnyPlayer>, String>;

/// Opens a scenario file of this ruleset (path, its text, the data folders, the variant).
pub type ScenarioOpener =
    fn(&Path, &str, &DataDirs, Variant) -> Result<Box<dyn AnyGame>, LoadError>;

/// Opens a save of this ruleset (path, its text).
pub type SaveOpener = fn(&Path, &str) -> Result<Box<dyn AnyGame>, SaveError>;

/// One ruleset, erased: what opening its files and making its players takes.
#[derive(Clone, Copy)]
pub struct RulesetEntry {
    pub id: &'static str,
    pub name: &'static str,
    pub help_file: &'static str,
    other_files: fn() -> &'static [&'static str],
    open_scenario: ScenarioOpener,
    open_save: SaveOpener,
    check_other: fn(&Path, &str, &DataDirs) -> Result<(), LoadError>,
    open_editor: crate::editor::OpenEditor,
    players: PlayerMaker,
}

impl RulesetEntry {
    /// The entry for ruleset `R`, whose computer players `players` makes.
    pub fn new<R: Ruleset + Present + Teach + Files>(players: PlayerMaker) -> Self {
        Self {
            id: R::ID,
            name: R::NAME,
            help_file: R::help_file(),
            other_files: R::other_files,
            open_scenario: open_scenario::<R>,
            open_save: open_save::<R>,
            check_other: R::check_other,
            open_editor: crate::editor::open::<R>,
            players,
        }
    }

    pub fn player(&self, kind: &str, seed: u64) -> Result<Box<dyn AnyPlayer>, String> {
        (self.players)(kind, seed)
    }
}

/// How a battle opened from a scenario may differ from the file: fewer turns (the CLI's
/// `--turns`), other dice (`--seed`, or a fresh seed for a hot-seat battle).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Variant {
    pub turns: Option<u32>,
    pub seed: Option<u64>,
}

fn open_scenario<R: Ruleset + Present + Teach + Files>(
    path: &Path,
    text: &str,
    dirs: &DataDirs,
    variant: Variant,
) -> Result<Box<dyn AnyGame>, LoadError> {
    let mut setup = R::load_scenario(path, text, dirs)?;
    if let Some(t) = variant.turns {
        setup = R::with_turn_limit(setup, t);
    }
    let scenario = R::scenario(&setup);
    let info = scenario.info();
    let seed = variant.seed.unwrap_or(scenario.seed);
    let session = Session::<R>::new(setup, seed).map_err(|why| LoadError::Semantic {
        file: path.to_path_buf(),
        problems: vec![crate::Problem::new("battle", why)],
    })?;
    Ok(Box::new(TypedGame::new(session, info)))
}

fn open_save<R: Ruleset + Present + Teach + Files>(
    path: &Path,
    text: &str,
) -> Result<Box<dyn AnyGame>, SaveError> {
    let save = R::parse_save(path, text)?;
    let session = Session::<R>::from_save(save, &path.display().to_string())?;
    let info = R::scenario(session.setup()).info();
    Ok(Box::new(TypedGame::new(session, info)))
}

/// Just enough of a save to know its ruleset.
#[derive(Deserialize)]
#[serde(rename = "Save")]
struct SaveHeader {
    ruleset: String,
}

/// What a data file is, from its first word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileKind {
    Scenario,
    Save,
    /// A ruleset's own file (an army list), with the ruleset that reads it.
    Other {
        ruleset: &'static str,
        word: String,
    },
}

/// The rulesets this program knows.
#[derive(Clone)]
pub struct Registry {
    entries: Vec<RulesetEntry>,
}

impl Registry {
    pub fn new(entries: Vec<RulesetEntry>) -> Self {
        Self { entries }
    }

    pub fn entries(&self) -> &[RulesetEntry] {
        &self.entries
    }

    pub fn get(&self, id: &str) -> Option<&RulesetEntry> {
        self.entries.iter().find(|e| e.id == id)
    }

    fn entry_for(&self, path: &Path, id: &str) -> Result<&RulesetEntry, String> {
        self.get(id).ok_or_else(|| {
            let known: Vec<&str> = self.entries.iter().map(|e| e.id).collect();
            format!(
                "{}: ruleset \"{id}\" is not one this program knows ({})",
                path.display(),
                known.join(", ")
            )
        })
    }

    /// What the file in `text` holds.
    pub fn kind_of(&self, text: &str) -> Option<FileKind> {
        let word = first_word(text);
        match word.as_str() {
            "Scenario" => Some(FileKind::Scenario),
            "Save" => Some(FileKind::Save),
            _ => self.entries.iter().find_map(|e| {
                (e.other_files)()
                    .contains(&word.as_str())
                    .then(|| FileKind::Other {
                        ruleset: e.id,
                        word: word.clone(),
                    })
            }),
        }
    }

    /// Opens a scenario for play: read, checked, set up, as the file says or in a `variant`.
    pub fn open_scenario(
        &self,
        path: &Path,
        dirs: &DataDirs,
        variant: Variant,
    ) -> Result<Box<dyn AnyGame>, LoadError> {
        let (text, entry) = self.scenario_entry(path)?;
        (entry.open_scenario)(path, &text, dirs, variant)
    }

    /// A scenario file's text and the entry of the ruleset it names.
    fn scenario_entry(&self, path: &Path) -> Result<(String, &RulesetEntry), LoadError> {
        let text = data_file::read_text(path)?;
        let header: ScenarioHeader = data_file::parse_ron(path, &text)?;
        let entry =
            self.entry_for(path, &header.ruleset)
                .map_err(|message| LoadError::Semantic {
                    file: path.to_path_buf(),
                    problems: vec![crate::Problem::new("ruleset", message)],
                })?;
        Ok((text, entry))
    }

    /// Opens a save: every command replayed and checked, and the state hash.
    pub fn open_save(&self, path: &Path) -> Result<Box<dyn AnyGame>, SaveError> {
        let text = data_file::read_text(path)?;
        let header: SaveHeader = data_file::parse_ron(path, &text)?;
        let entry = self
            .entry_for(path, &header.ruleset)
            .map_err(|why| SaveError::Invalid {
                file: path.display().to_string(),
                why,
            })?;
        (entry.open_save)(path, &text)
    }

    /// Every problem with one file (scenario, save, or a ruleset's own), as report lines.
    pub fn check_file(&self, path: &Path, dirs: &DataDirs) -> Vec<String> {
        let text = match data_file::read_text(path) {
            Ok(t) => t,
            Err(e) => return e.lines(),
        };
        let result = match self.kind_of(&text) {
            Some(FileKind::Scenario) => self
                .open_scenario(path, dirs, Variant::default())
                .map(|_| ())
                .map_err(|e| e.lines().join("\n")),
            Some(FileKind::Save) => self.open_save(path).map(|_| ()).map_err(|e| e.to_string()),
            Some(FileKind::Other { ruleset, word }) => self
                .entry_for(path, ruleset)
                .map_err(|e| e.to_string())
                .and_then(|e| (e.check_other)(path, &word, dirs).map_err(|e| e.lines().join("\n"))),
            None => {
                let mut words = vec!["Scenario(…)".to_string(), "Save(…)".to_string()];
                for e in &self.entries {
                    words.extend((e.other_files)().iter().map(|w| format!("{w}(…)")));
                }
                Err(format!(
                    "{}:1:1: not a Sandtable file: expected {}",
                    path.display(),
                    words.join(", ")
                ))
            }
        };
        match result {
            Ok(()) => Vec::new(),
            Err(e) => e.lines().map(str::to_string).collect(),
        }
    }

    /// Opens a scenario in the table editor of the ruleset it names.
    pub fn open_editor(
        &self,
        path: &Path,
        dirs: &DataDirs,
    ) -> Result<Box<dyn crate::editor::AnyEditor>, LoadError> {
        let (text, entry) = self.scenario_entry(path)?;
        (entry.open_editor)(path, &text, dirs)
    }

    /// Every registered ruleset's rule help as one book; files that cannot be read are named.
    pub fn help(&self, dirs: &DataDirs) -> (RuleHelp, Vec<String>) {
        let mut books = Vec::new();
        let mut problems = Vec::new();
        for e in &self.entries {
            match RuleHelp::load(&dirs.help.join(e.help_file)) {
                Ok(b) => books.push(b),
                Err(err) => problems.extend(err.lines()),
            }
        }
        (RuleHelp::merge(books), problems)
    }

    /// A computer player for the ruleset `id`.
    pub fn player(&self, id: &str, kind: &str, seed: u64) -> Result<Box<dyn AnyPlayer>, String> {
        self.get(id)
            .ok_or_else(|| format!("ruleset \"{id}\" is not registered"))?
            .player(kind, seed)
    }
}
