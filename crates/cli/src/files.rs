//! Finding data: the assets folder beside the program or in the current folder.

use sandtable_engine::DataDirs;
use std::path::{Path, PathBuf};

/// The data folders: army lists from `--armies` if given, the rest under `assets/` in the
/// current folder or beside the program.
pub fn data_dirs(armies: Option<&Path>) -> DataDirs {
    let mut candidates = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        candidates.push(cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        candidates.extend(exe.ancestors().skip(1).map(Path::to_path_buf));
    }
    candidates.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let assets = candidates
        .into_iter()
        .map(|c| c.join("assets"))
        .find(|p| p.is_dir())
        .unwrap_or_else(|| PathBuf::from("assets"));
    let mut dirs = DataDirs::under(&assets);
    if let Some(a) = armies {
        dirs.armies = a.to_path_buf();
    }
    dirs
}
