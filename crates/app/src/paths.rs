//! Where the program finds its data (scenarios, army lists) and keeps its saves.

use std::path::{Path, PathBuf};

/// The folders the program reads from.
#[derive(Debug, Clone, bevy::prelude::Resource)]
pub struct DataPaths {
    pub scenarios: PathBuf,
    /// Army lists and rule help, where each ruleset finds its own files.
    pub dirs: sandtable_engine::DataDirs,
}

impl DataPaths {
    /// `root` if given; otherwise the first folder holding `scenarios/` among: the current folder,
    /// the program's folder and its ancestors (so `cargo run` and an installed copy both work).
    pub fn locate(root: Option<&Path>) -> Self {
        let root = root.map(Path::to_path_buf).unwrap_or_else(find_root);
        Self {
            scenarios: root.join("scenarios"),
            dirs: sandtable_engine::DataDirs::under(&root.join("assets")),
        }
    }
}

fn find_root() -> PathBuf {
    let mut candidates = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        candidates.push(cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).map(Path::to_path_buf));
    }
    candidates.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."));
    candidates
        .into_iter()
        .find(|c| c.join("scenarios").is_dir() && c.join("assets/armies").is_dir())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The platform's data folder for saves (e.g. `~/.local/share/sandtable` on Linux).
pub fn saves_dir() -> PathBuf {
    directories::ProjectDirs::from("org", "Sandtable", "sandtable")
        .map(|d| d.data_dir().join("saves"))
        .unwrap_or_else(|| PathBuf::from("saves"))
}
