//! `validate`: the same loaders the app uses, one report line per problem.

use crate::files::{Kind, kind_of};
use sandtable_bfs::army_list::load_army_list;
use sandtable_bfs::{Bfs, load_scenario};
use sandtable_engine::{LoadError, Session, data_file};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn run(files: &[PathBuf], armies: &Path) -> ExitCode {
    let mut bad = 0;
    for f in files {
        let problems = check(f, armies);
        if problems.is_empty() {
            eprintln!("{}: ok", f.display());
        } else {
            bad += 1;
            for p in problems {
                println!("{p}");
            }
        }
    }
    if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Every problem with one file, as report lines.
pub fn check(path: &Path, armies: &Path) -> Vec<String> {
    let text = match data_file::read_text(path) {
        Ok(t) => t,
        Err(e) => return e.lines(),
    };
    let kind = kind_of(&text);
    let result: Result<(), String> = match kind {
        Some(Kind::Scenario) => load_scenario(path, armies)
            .map(|_| ())
            .map_err(|e: LoadError| e.lines().join("\n")),
        Some(Kind::ArmyList) => load_army_list(path)
            .map(|_| ())
            .map_err(|e| e.lines().join("\n")),
        Some(Kind::Save) => Session::<Bfs>::load(path)
            .map(|_| ())
            .map_err(|e| e.to_string()),
        None => Err(format!(
            "{}:1:1: not a Sandtable file: expected Scenario(…), ArmyList(…) or Save(…)",
            path.display()
        )),
    };
    match result {
        Ok(()) => Vec::new(),
        Err(e) => e.lines().map(str::to_string).collect(),
    }
}
