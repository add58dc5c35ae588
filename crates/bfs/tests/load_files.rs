//! Loading scenario files: every shipped scenario loads, and every file in `bad-scenarios/` is
//! refused with a message that names the file and the line and column or the entity at fault.

use sandtable_bfs::{load_scenario, new_game};
use sandtable_engine::scenario::ScenarioHeader;
use sandtable_engine::{LoadError, data_file};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
fn armies() -> PathBuf {
    root().join("assets/armies")
}
fn bad(name: &str) -> LoadError {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bad-scenarios")
        .join(name);
    load_scenario(&path, &armies()).expect_err(&format!("{name} should be refused"))
}
fn message(e: &LoadError) -> String {
    e.lines().join("\n")
}

/// Other rulesets' scenarios share the folder; the header says whose a file is.
fn is_bfs_scenario(path: &Path) -> bool {
    let text = data_file::read_text(path).unwrap();
    let header: ScenarioHeader =
        data_file::parse_ron(path, &text).unwrap_or_else(|e| panic!("{e}"));
    header.ruleset == sandtable_bfs::RULESET_ID
}

#[test]
fn every_shipped_scenario_loads_and_sets_up() {
    let mut count = 0;
    for entry in std::fs::read_dir(root().join("scenarios")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") && is_bfs_scenario(&path) {
            let loaded = load_scenario(&path, &armies()).unwrap_or_else(|e| panic!("{e}"));
            let game = new_game(&loaded).unwrap();
            assert_eq!(game.sides.len(), 2);
            assert!(!game.units.is_empty());
            count += 1;
        }
    }
    assert!(count >= 1);
}

#[test]
fn minimal_good_file_loads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/good-minimal.ron");
    let loaded = load_scenario(&path, &armies()).unwrap_or_else(|e| panic!("{e}"));
    let game = new_game(&loaded).unwrap();
    // Force Value = 3 bases + 3 CP of the force commander (BFS-VIC-1).
    assert_eq!(game.sides[0].force_value, 6);
}

#[test]
fn syntax_error_names_file_line_and_column() {
    let e = bad("syntax-missing-comma.ron");
    match &e {
        LoadError::Syntax { line, col, .. } => {
            // The comma is missing at the end of line 7 (`level: Skirmish`): the parser notices at
            // the next field, line 8.
            assert_eq!(*line, 8, "{}", message(&e));
            assert!(*col >= 1);
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
    let first = &e.lines()[0];
    assert!(first.contains("syntax-missing-comma.ron:8:"), "{first}");
}

#[test]
fn unknown_field_is_a_syntax_error_naming_the_field() {
    let m = message(&bad("unknown-field.ron"));
    assert!(m.contains("turns_per_hour"), "{m}");
    assert!(m.contains("unknown-field.ron:9:"), "{m}");
}

#[test]
fn number_out_of_range_is_refused_with_its_position() {
    let e = bad("number-out-of-range.ron");
    assert!(matches!(e, LoadError::Syntax { line: 27, .. }), "{e:?}");
}

#[test]
fn nan_is_refused() {
    let m = message(&bad("nan-position.ron"));
    assert!(
        m.contains("unit \"reiters\"") && m.contains("not a number"),
        "{m}"
    );
}

fn semantic(name: &str, entity: &str, fragment: &str) {
    let e = bad(name);
    let m = message(&e);
    assert!(matches!(e, LoadError::Semantic { .. }), "{name}: {m}");
    assert!(
        e.lines()
            .iter()
            .any(|l| l.contains(name) && l.contains(entity) && l.contains(fragment)),
        "{name}: expected a line naming {entity} with \"{fragment}\", got:\n{m}"
    );
}

#[test]
fn semantic_errors_name_the_entity() {
    semantic(
        "unknown-profile.ron",
        "unit \"reiters\"",
        "unknown profile \"dragons\"",
    );
    semantic(
        "unit-off-table.ron",
        "unit \"reiters\"",
        "off the 120×120 cm table",
    );
    semantic(
        "overlapping-bases.ron",
        "unit \"hussars\"",
        "overlaps unit \"reiters\"",
    );
    semantic(
        "regiment-without-commander.ron",
        "regiment \"lonely\"",
        "has no commander",
    );
    semantic("duplicate-id.ron", "unit \"hussars\"", "already used");
    semantic("self-crossing-polygon.ron", "terrain #1", "edges cross");
    semantic("wrong-format.ron", "format", "reads scenario format 2");
    semantic(
        "unknown-army-list.ron",
        "side \"Swedes\"",
        "army list \"martian-1655\" not found",
    );
    semantic(
        "unknown-option.ron",
        "option \"wheel_refrence\"",
        "unknown option",
    );
    semantic("wrong-ruleset.ron", "ruleset", "\"chess\"");
    semantic("too-many-files.ron", "unit \"reiters\"", "Line of 5 files");
    semantic(
        "two-commanders-in-chief.ron",
        "side #2",
        "exactly one CommanderInChief",
    );
    semantic(
        "instruction-at-skirmish.ron",
        "commander \"pl-cmd\"",
        "BFS-ORD-11",
    );
    semantic(
        "unit-profile-is-commander.ron",
        "unit \"reiters\"",
        "is a Commander",
    );
    // A lesson's branches are checked like its steps (issue 20).
    semantic(
        "lesson-bad-branch.ron",
        "lesson step 4 \"Keep the Initiative\", branch 1",
        "goes to \"nowhere\", which no step of this lesson is called",
    );
    semantic(
        "lesson-bad-branch.ron",
        "branch 1",
        "\"Sleepy\" is no state name",
    );
}

#[test]
fn every_bad_file_is_refused_and_covered_here() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad-scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let err = load_scenario(&path, &armies()).expect_err(&path.display().to_string());
        assert!(!err.lines().is_empty());
        n += 1;
    }
    assert_eq!(n, 19, "a new bad file needs an assertion above");
}

#[test]
fn hostile_bytes_never_panic() {
    let dir = std::env::temp_dir().join(format!("sandtable-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "garbage.ron",
            (0..4096u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect(),
        ),
        ("not-utf8.ron", b"Scenario(name: \"\xc3\x28\")".to_vec()),
        (
            "deep.ron",
            ("Scenario(sides: ".to_string() + &"[".repeat(5000) + &"]".repeat(5000) + ")")
                .into_bytes(),
        ),
        ("empty.ron", Vec::new()),
        ("huge-string.ron", {
            let mut v = b"Scenario(format: 1, name: \"".to_vec();
            v.extend(std::iter::repeat_n(b'a', 30 * 1024 * 1024));
            v.extend(b"\")");
            v
        }),
    ];
    for (name, bytes) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let err = load_scenario(&path, &armies()).expect_err(name);
        assert!(!err.to_string().is_empty(), "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
