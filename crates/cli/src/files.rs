//! Finding data and telling data files apart.

use std::path::{Path, PathBuf};

/// The army lists folder: given, or `assets/armies` in the current folder or beside the program.
pub fn armies_dir(given: Option<&Path>) -> PathBuf {
    if let Some(g) = given {
        return g.to_path_buf();
    }
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
        .map(|c| c.join("assets/armies"))
        .find(|p| p.is_dir())
        .unwrap_or_else(|| PathBuf::from("assets/armies"))
}

/// What a data file holds, judged by its first word (RON struct name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Scenario,
    ArmyList,
    Save,
}

/// The file's kind from its text: the first identifier that is not in a comment.
pub fn kind_of(text: &str) -> Option<Kind> {
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
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    match word.as_str() {
        "Scenario" => Some(Kind::Scenario),
        "ArmyList" => Some(Kind::ArmyList),
        "Save" => Some(Kind::Save),
        _ => None,
    }
}
