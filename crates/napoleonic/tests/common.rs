//! Shared helpers for the Napoleonic rules tests.
#![allow(dead_code)]

use sandtable_engine::files::{DataDirs, Files};
use sandtable_napoleonic::{Game, NapSetup, Napoleonic};
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn dirs() -> DataDirs {
    DataDirs::under(&root().join("assets"))
}

pub fn setup(name: &str) -> NapSetup {
    let path = root().join("scenarios/napoleonic").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    match Napoleonic::load_scenario(&path, &text, &dirs()) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.lines().join("\n")),
    }
}

pub fn battle() -> NapSetup {
    setup("01-brigade-action.ron")
}

pub fn game(seed: u64) -> Game {
    use sandtable_engine::Ruleset;
    Napoleonic::setup(&battle(), seed).unwrap()
}
