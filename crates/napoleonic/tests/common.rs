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
    let path = root().join("scenarios").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    match Napoleonic::load_scenario(&path, &text, &dirs()) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.lines().join("\n")),
    }
}

pub fn battle() -> NapSetup {
    setup("10-rossbach-brigade-action.ron")
}

pub fn game(seed: u64) -> Game {
    use sandtable_engine::Ruleset;
    Napoleonic::setup(&battle(), seed).unwrap()
}

/// A unit for a test table: scenario id, profile, side (0 French, 1 Austrian), front centre in
/// inches, facing, formation (RON name).
pub struct Place<'a> {
    pub id: &'a str,
    pub profile: &'a str,
    pub side: u8,
    pub at: (f32, f32),
    pub facing: f32,
    pub formation: &'a str,
}

pub fn place<'a>(
    id: &'a str,
    profile: &'a str,
    side: u8,
    at: (f32, f32),
    facing: f32,
    formation: &'a str,
) -> Place<'a> {
    Place {
        id,
        profile,
        side,
        at,
        facing,
        formation,
    }
}

/// A 72" × 48" open table with these units, each side's leader beside its first unit, and the
/// given terrain lines (RON `Terrain(...)` entries) and options.
pub fn table_with(units: &[Place], terrain: &str, options: &str) -> Game {
    use sandtable_engine::Ruleset;
    let mut sides = [String::new(), String::new()];
    let mut leader = [(36.0, 2.0), (36.0, 46.0)];
    let mut first = [true, true];
    for u in units {
        let s = u.side as usize;
        if first[s] {
            leader[s] = (u.at.0 + 1.0, u.at.1 + if s == 0 { -3.0 } else { 3.0 });
            first[s] = false;
        }
        sides[s].push_str(&format!(
            "Unit(id: \"{}\", profile: \"{}\", position: ({}, {}), facing: {}, formation: {}),\n",
            u.id, u.profile, u.at.0, u.at.1, u.facing, u.formation
        ));
    }
    let text = format!(
        r#"Scenario(
  format: 2, name: "Test", ruleset: "napoleonic",
  table: (width: 72.0, depth: 48.0, unit: Inches), turn_limit: 12, seed: 1,
  terrain: [{terrain}],
  sides: [Side(name: "French", home_edge: South), Side(name: "Austrian", home_edge: North)],
  options: {{{options}}},
  rules: Napoleonic(forces: [
    Force(list: "nap-french-1809", brigades: [Brigade(id: "b1", name: "First", leader: Leader(id: "l1", name: "Leader one", position: ({}, {})), units: [{}])]),
    Force(list: "nap-austrian-1809", brigades: [Brigade(id: "b2", name: "Second", leader: Leader(id: "l2", name: "Leader two", position: ({}, {})), units: [{}])]),
  ]),
)"#,
        leader[0].0, leader[0].1, sides[0], leader[1].0, leader[1].1, sides[1]
    );
    let path = root().join("scenarios/test.ron");
    let setup = match Napoleonic::load_scenario(&path, &text, &dirs()) {
        Ok(s) => s,
        Err(e) => panic!("{}", e.lines().join("\n")),
    };
    Napoleonic::setup(&setup, 1).unwrap()
}

/// Skips the bid: `a` is side A and activating.
pub fn activation(g: &mut Game, a: u8) {
    use sandtable_napoleonic::state::{Activation, Phase};
    g.side_a = a;
    g.phase = Phase::Activation(Activation {
        side: a,
        left: 2,
        current: None,
        a_done: false,
    });
}

pub fn unit(g: &Game, key: &str) -> sandtable_napoleonic::UnitId {
    g.find_unit(key).unwrap_or_else(|| panic!("no unit {key}"))
}

/// Inches to table centimetres.
pub fn at(x: f32, y: f32) -> sandtable_geometry::Vec2 {
    sandtable_geometry::Vec2::new(x, y) * sandtable_napoleonic::INCH
}
