//! [`Files`]: how a ruleset reads its files — scenarios (in every format it still accepts),
//! saves, and data of its own such as army lists — with errors that name the file, the line and
//! column or the entity at fault.

use crate::data_file;
use crate::problem::LoadError;
use crate::ruleset::Ruleset;
use crate::scenario::{RulesSection, Scenario};
use crate::session::{SaveError, SaveFile};
use std::path::{Path, PathBuf};

/// Where a ruleset finds the data a scenario refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataDirs {
    /// Army lists (`assets/armies`).
    pub armies: PathBuf,
    /// Rule help (`assets/help`).
    pub help: PathBuf,
    /// Forces built from the army lists (`assets/forces`).
    pub forces: PathBuf,
}

impl DataDirs {
    /// The folders under one assets folder.
    pub fn under(assets: &Path) -> Self {
        Self {
            armies: assets.join("armies"),
            help: assets.join("help"),
            forces: assets.join("forces"),
        }
    }
}

pub trait Files: Ruleset {
    /// The ruleset's own section of the scenario file.
    type Section: RulesSection;

    /// Reads, migrates and checks the scenario in `text` (read from `path`), with the data it
    /// refers to, into a setup ready to play.
    fn load_scenario(path: &Path, text: &str, dirs: &DataDirs) -> Result<Self::Setup, LoadError>;

    /// The scenario a setup was made from (centimetres, current format).
    fn scenario(setup: &Self::Setup) -> &Scenario<Self::Section>;

    /// The same setup cut to `turns` turns.
    fn with_turn_limit(setup: Self::Setup, turns: u32) -> Self::Setup;

    /// Parses a save, migrating older formats. The default reads the current one.
    fn parse_save(
        path: &Path,
        text: &str,
    ) -> Result<SaveFile<Self::Setup, Self::Command>, SaveError> {
        Ok(data_file::parse_ron(path, text)?)
    }

    /// The first words of the other files this ruleset reads (`"ArmyList"`), for telling files
    /// apart.
    fn other_files() -> &'static [&'static str] {
        &[]
    }

    /// Checks one of those files.
    fn check_other(path: &Path, _kind: &str, _dirs: &DataDirs) -> Result<(), LoadError> {
        Err(LoadError::Io {
            file: path.to_path_buf(),
            message: "not a file this ruleset reads".into(),
        })
    }
}

/// The first word of a data file (its RON struct name), skipping comments: what it holds.
pub fn first_word(text: &str) -> String {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.split_once('\n').map_or("", |x| x.1);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.split_once("*/").map_or("", |x| x.1);
        } else if let Some(r) = rest.strip_prefix("#![") {
            rest = r.split_once(']').map_or("", |x| x.1);
        } else {
            break;
        }
    }
    rest.chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_word_skips_comments() {
        assert_eq!(first_word("// a\n/* b */ Scenario(x: 1)"), "Scenario");
        assert_eq!(first_word("#![enable(implicit_some)]\nSave("), "Save");
        assert_eq!(first_word("(x: 1)"), "");
    }
}
