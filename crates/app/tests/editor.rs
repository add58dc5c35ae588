//! The table editor's promise: every edit is checked by the ruleset's own loader before it is
//! taken, so no file the editor writes fails validation, and a lesson keeps its script.

use proptest::prelude::*;
use sandtable_app::rulesets::Rulesets;
use sandtable_engine::DataDirs;
use sandtable_engine::editor::{AnyEditor, Edit};
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use sandtable_engine::scenario_script::ObjectiveSpec;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn dirs() -> DataDirs {
    DataDirs::under(&root().join("assets"))
}

fn open(rel: &str) -> Box<dyn AnyEditor> {
    Rulesets::default()
        .0
        .open_editor(&root().join(rel), &dirs())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A fresh temporary folder, removed with what the test wrote in it when dropped.
fn temp() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("sandtable-editor-")
        .tempdir()
        .unwrap()
}

const KINDS: [TerrainKind; 6] = [
    TerrainKind::Grove,
    TerrainKind::Hill,
    TerrainKind::Marsh,
    TerrainKind::Lake,
    TerrainKind::Obstacle,
    TerrainKind::WheatField,
];

/// A random edit, most of them plausible, some not (off the table, on top of units, tiny).
#[derive(Debug, Clone)]
enum Op {
    AddTerrain(usize, (f32, f32), (f32, f32), f32),
    MoveTerrain(usize, (f32, f32)),
    TurnTerrain(usize, f32, f32),
    RemoveTerrain(usize),
    MovePiece(usize, (f32, f32), f32),
    RemovePiece(usize),
    AddObjective((f32, f32), f32),
    Zone(usize, f32),
    Undo,
    Redo,
}

fn op() -> impl Strategy<Value = Op> {
    let at = (-10.0f32..130.0, -10.0f32..130.0);
    prop_oneof![
        (
            0..KINDS.len(),
            at.clone(),
            (0.5f32..40.0, 0.5f32..40.0),
            0.0f32..360.0
        )
            .prop_map(|(k, c, s, r)| Op::AddTerrain(k, c, s, r)),
        (0usize..20, at.clone()).prop_map(|(i, c)| Op::MoveTerrain(i, c)),
        (0usize..20).prop_map(Op::RemoveTerrain),
        (0usize..20, -180.0f32..180.0, 0.3f32..2.5).prop_map(|(i, t, g)| Op::TurnTerrain(i, t, g)),
        (0usize..40, at.clone(), 0.0f32..360.0).prop_map(|(i, c, f)| Op::MovePiece(i, c, f)),
        (0usize..40).prop_map(Op::RemovePiece),
        (at, 1.0f32..20.0).prop_map(|(c, r)| Op::AddObjective(c, r)),
        (0usize..2, 5.0f32..70.0).prop_map(|(s, d)| Op::Zone(s, d)),
        Just(Op::Undo),
        Just(Op::Redo),
    ]
}

fn run(ed: &mut dyn AnyEditor, op: &Op) {
    let (w, d) = ed.table();
    let edit = match op {
        Op::AddTerrain(k, c, s, r) => Some(Edit::AddTerrain(TerrainSpec {
            kind: KINDS[*k],
            name: Some("Added".into()),
            shape: ShapeSpec::Rect {
                center: *c,
                size: *s,
                rotation: *r,
            },
        })),
        Op::MoveTerrain(i, c) => ed.terrain().get(*i % ed.terrain().len().max(1)).map(|t| {
            let mut t = t.clone();
            if let ShapeSpec::Rect { center, .. } = &mut t.shape {
                *center = *c;
            }
            Edit::SetTerrain(*i % ed.terrain().len(), t)
        }),
        Op::TurnTerrain(i, turn, grow) => {
            ed.terrain().get(*i % ed.terrain().len().max(1)).map(|t| {
                let mut t = t.clone();
                t.shape = sandtable_engine::editor::scaled(
                    &sandtable_engine::editor::rotated(&t.shape, *turn),
                    *grow,
                );
                Edit::SetTerrain(*i % ed.terrain().len(), t)
            })
        }
        Op::RemoveTerrain(i) => {
            (!ed.terrain().is_empty()).then(|| Edit::RemoveTerrain(*i % ed.terrain().len()))
        }
        Op::MovePiece(i, c, f) => {
            ed.pieces()
                .get(*i % ed.pieces().len().max(1))
                .map(|p| Edit::PlacePiece {
                    id: p.id.clone(),
                    position: *c,
                    facing: *f,
                })
        }
        Op::RemovePiece(i) => ed
            .pieces()
            .get(*i % ed.pieces().len().max(1))
            .map(|p| Edit::RemovePiece(p.id.clone())),
        Op::AddObjective(c, r) => Some(Edit::AddObjective(ObjectiveSpec {
            id: format!("added-{}", ed.objectives().len()),
            name: "Added".into(),
            position: *c,
            radius: *r,
            vp: 2,
            held_by: None,
        })),
        Op::Zone(s, depth) => Some(Edit::SetDeployment(
            *s,
            Some(ShapeSpec::Rect {
                center: (
                    w / 2.0,
                    if *s == 0 {
                        depth / 2.0
                    } else {
                        d - depth / 2.0
                    },
                ),
                size: (w, *depth),
                rotation: 0.0,
            }),
        )),
        Op::Undo => {
            ed.undo();
            None
        }
        Op::Redo => {
            ed.redo();
            None
        }
    };
    if let Some(e) = edit {
        let before = ed.text();
        if ed.apply(e).is_err() {
            assert_eq!(ed.text(), before, "a refused edit changed the scenario");
        }
    }
}

const SCENARIOS: [&str; 4] = [
    "scenarios/01-mill-ford-skirmish.ron",
    "scenarios/02-warka-task-force.ron",
    "scenarios/tutorial/01-dice-and-tests.ron",
    "scenarios/10-rossbach-brigade-action.ron",
];

/// 24 cases unless `PROPTEST_CASES` asks for more (or fewer): each edit reloads the scenario.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// Random edits, then save, then validate: never a problem.
    #[test]
    fn no_file_the_editor_writes_fails_validation(
        which in 0..SCENARIOS.len(),
        ops in proptest::collection::vec(op(), 1..25),
    ) {
        let mut ed = open(SCENARIOS[which]);
        for o in &ops {
            run(ed.as_mut(), o);
        }
        let dir = temp();
        let path = dir.path().join(format!("edited-{which}.ron"));
        ed.save(&path).unwrap();
        let problems = Rulesets::default().0.check_file(&path, &dirs());
        prop_assert!(problems.is_empty(), "{problems:?}\nafter {ops:?}");
    }
}

/// Moving a piece onto another is refused with the loader's reason; undo and redo walk the
/// edits; a lesson saved from the editor keeps its steps.
#[test]
fn edits_are_checked_undone_and_lessons_kept() {
    let mut ed = open("scenarios/01-mill-ford-skirmish.ron");
    let a = ed.pieces()[0].clone();
    let b = ed
        .pieces()
        .iter()
        .find(|p| !p.leader && p.id != a.id)
        .unwrap()
        .clone();
    let err = ed
        .apply(Edit::PlacePiece {
            id: a.id.clone(),
            position: b.position,
            facing: b.facing,
        })
        .unwrap_err();
    assert!(err.iter().any(|e| e.contains("overlaps")), "{err:?}");
    assert!(!ed.changed());
    ed.apply(Edit::AddTerrain(TerrainSpec {
        kind: TerrainKind::Grove,
        name: Some("Copse".into()),
        shape: ShapeSpec::Rect {
            center: (60.0, 60.0),
            size: (10.0, 10.0),
            rotation: 0.0,
        },
    }))
    .unwrap();
    let n = ed.terrain().len();
    assert!(ed.changed() && ed.can_undo());
    assert!(ed.undo());
    assert_eq!(ed.terrain().len(), n - 1);
    assert!(ed.redo());
    assert_eq!(ed.terrain().len(), n);

    let mut lesson = open("scenarios/tutorial/03-orders-and-command-points.ron");
    let p = lesson.pieces().iter().find(|p| !p.leader).unwrap().clone();
    lesson
        .apply(Edit::PlacePiece {
            id: p.id.clone(),
            position: (p.position.0 + 1.0, p.position.1),
            facing: p.facing,
        })
        .unwrap();
    let dir = temp();
    let path = dir.path().join("lesson.ron");
    lesson.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("lesson: Some(") && text.contains("steps:"),
        "the lesson was lost"
    );
    assert!(Rulesets::default().0.check_file(&path, &dirs()).is_empty());
}

/// The app's editor as a person uses it: add terrain with a click, move a unit by a drag
/// (snapped), delete, undo, save among their scenarios, and the file validates.
#[test]
fn the_app_editor_adds_moves_deletes_and_saves() {
    use sandtable_app::editor::{Selection, TableEditor, Tool};
    let paths = sandtable_app::paths::DataPaths::under(&root());
    let rulesets = Rulesets::default();
    let mut ed = TableEditor::default();
    ed.open(
        &rulesets,
        &paths,
        &root().join("scenarios/01-mill-ford-skirmish.ron"),
    );
    let n = ed.editor.as_ref().unwrap().terrain().len();
    ed.tool = Tool::AddTerrain;
    ed.kind = 0; // a grove
    ed.size = (12.0, 12.0);
    ed.click((20.2, 95.7));
    assert_eq!(
        ed.editor.as_ref().unwrap().terrain().len(),
        n + 1,
        "{:?}",
        ed.notice
    );
    // Snapped to the centimetre.
    let added = ed.editor.as_ref().unwrap().terrain()[n].clone();
    assert_eq!(sandtable_engine::editor::middle(&added.shape), (20.0, 96.0));
    // Select a unit where it stands and drag it 3.3 cm east: it lands 3 cm east.
    ed.tool = Tool::Select;
    let unit = ed
        .editor
        .as_ref()
        .unwrap()
        .pieces()
        .iter()
        .find(|p| !p.leader)
        .unwrap()
        .clone();
    let c = unit.bases[0]
        .iter()
        .fold((0.0, 0.0), |a, v| (a.0 + v.x / 4.0, a.1 + v.y / 4.0));
    ed.click(c);
    assert_eq!(ed.selected, Some(Selection::Piece(unit.id.clone())));
    ed.drag_selected(3.3, 0.0);
    let moved = ed
        .editor
        .as_ref()
        .unwrap()
        .pieces()
        .iter()
        .find(|p| p.id == unit.id)
        .unwrap()
        .clone();
    assert!(
        (moved.position.0 - (unit.position.0 + 3.3).round()).abs() < 1e-4,
        "{:?}",
        ed.notice
    );
    // Delete the grove, then undo it back.
    ed.selected = Some(Selection::Terrain(n));
    ed.delete_selected();
    assert_eq!(ed.editor.as_ref().unwrap().terrain().len(), n);
    assert!(ed.editor.as_mut().unwrap().undo());
    assert_eq!(ed.editor.as_ref().unwrap().terrain().len(), n + 1);
    let dir = temp();
    let saved = ed.save_as(&dir.path().join("own"), "My Mill Ford").unwrap();
    assert!(saved.ends_with("my-mill-ford.ron"));
    assert!(rulesets.0.check_file(&saved, &dirs()).is_empty());
}

/// Units from a force: the border patrol's four units join the Polish side of the Mill Ford in a
/// row along its own edge, with ids of their own, and the table still validates; a force of
/// another army list for that side is refused with the loader's reason.
#[test]
fn the_editor_adds_a_forces_units_to_a_side() {
    use sandtable_app::editor::TableEditor;
    use sandtable_app::setup::BattleSetup;
    let paths = sandtable_app::paths::DataPaths::under(&root());
    let rulesets = Rulesets::default();
    let dir = temp();
    let setup = BattleSetup::new(
        &paths,
        &sandtable_app::rulesets::PreBattleRulesets::default(),
        dir.path().join("no-own-forces"),
    );
    let mut ed = TableEditor::default();
    ed.open(
        &rulesets,
        &paths,
        &root().join("scenarios/01-mill-ford-skirmish.ron"),
    );
    let before = ed.editor.as_ref().unwrap().pieces().len();
    let polish = root().join("assets/forces/polish-border-patrol.ron");
    let text = setup.scenario_units(&polish).unwrap();
    assert!(ed.add_units(0, &text), "{:?}", ed.notice);
    let e = ed.editor.as_ref().unwrap();
    assert_eq!(e.pieces().len(), before + 4);
    assert!(
        e.pieces().iter().any(|p| p.id == "pancerni-2"),
        "a fresh id for the second pancerni"
    );
    // The Swedes' side takes no Polish units, not even the wagons both lists name alike.
    let swedes = ed.add_units(1, &text);
    let notice = ed.notice.clone().unwrap_or_default();
    assert!(!swedes && notice.contains("Refused"), "{notice}");
    assert!(notice.contains("army list"), "{notice}");
    let saved = ed
        .save_as(&dir.path().join("own-tables"), "Mill Ford reinforced")
        .unwrap();
    assert!(rulesets.0.check_file(&saved, &dirs()).is_empty());
}
