//! Issue 19: every shipped scenario's table reads at a glance. Each scenario is opened as the app
//! opens it, seen from each seat, fitted into the battle screen's table area as at start, and its
//! names laid out as `table::draw` lays them out: no name may cover another or a base, leader or
//! marker, and most names must find a spot (the rest show on hover).

use bevy::prelude::Vec2;
use sandtable_app::paths::DataPaths;
use sandtable_app::rulesets::Rulesets;
use sandtable_app::table::label_layout::{Box2, layout};
use sandtable_app::table::label_plan::label_plan;
use sandtable_app::table::view::{TableArea, TableView};
use sandtable_engine::registry::Variant;
use std::path::{Path, PathBuf};

fn overlaps(a: &Box2, b: &Box2) -> bool {
    a.0.x < b.1.x && b.0.x < a.1.x && a.0.y < b.1.y && b.0.y < a.1.y
}

fn shipped_scenarios(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["scenarios", "scenarios/solo", "scenarios/tutorial"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ron") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_name_covers_another_or_a_base_in_any_shipped_scenario() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let paths = DataPaths::under(&root);
    let rulesets = Rulesets::default();
    // The battle screen at 1280 × 800: the phase bar above, the side panel right, the log below.
    let area = TableArea {
        min: Vec2::new(0.0, 48.0),
        max: Vec2::new(1280.0 - 330.0, 800.0 - 150.0),
        measured: true,
    };
    let (mut names, mut shown) = (0usize, 0usize);
    let scenarios = shipped_scenarios(&root);
    assert!(scenarios.len() >= 15, "{} scenarios", scenarios.len());
    for path in &scenarios {
        let game = rulesets
            .0
            .open_scenario(path, &paths.dirs, Variant::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for seat in 0..2 {
            let scene = game.scene(seat);
            let mut view = TableView::default();
            view.fit(Vec2::new(scene.size.x, scene.size.y), area, 24.0);
            let (labels, blockers) = label_plan(&scene);
            let requests: Vec<_> = labels.iter().map(|l| l.request.clone()).collect();
            let spots = layout(&requests, &blockers.boxes, blockers.table, view.px_per_cm);
            // What a name must keep off, taken from the scene itself (not from the plan): every
            // base, leader and marker.
            let mut keep_off: Vec<Box2> = Vec::new();
            for p in &scene.pieces {
                for r in &p.bases {
                    let (lo, hi) = r.aabb();
                    keep_off.push((Vec2::new(lo.x, lo.y), Vec2::new(hi.x, hi.y)));
                }
                for t in &p.tokens {
                    let (c, h) = (Vec2::new(t.at.x, t.at.y), Vec2::splat(t.size * 0.5));
                    keep_off.push((c - h, c + h));
                }
            }
            let mut placed: Vec<(Box2, &str)> = Vec::new();
            for (label, spot) in labels.iter().zip(&spots) {
                names += 1;
                let Some((at, short)) = spot else { continue };
                shown += 1;
                let size = if *short {
                    label.request.short_px.expect("a short form")
                } else {
                    label.request.size_px
                };
                let h = size * 0.5 / view.px_per_cm;
                let b = (*at - h, *at + h);
                for base in &keep_off {
                    assert!(
                        !overlaps(&b, base),
                        "{} seat {seat}: \"{}\" covers a base or marker at {base:?}",
                        path.display(),
                        label.full
                    );
                }
                for (other, name) in &placed {
                    assert!(
                        !overlaps(&b, other),
                        "{} seat {seat}: \"{}\" covers \"{name}\"",
                        path.display(),
                        label.full
                    );
                }
                placed.push((b, &label.full));
            }
        }
    }
    // Hidden names show when their piece is hovered or selected; most must show at once.
    assert!(
        shown * 10 >= names * 9,
        "only {shown} of {names} names found a spot"
    );
    eprintln!("{shown} of {names} names shown at the fitted zoom");
}

/// Markers (orders, status, crews, Battalions) sit beside their units: in every shipped scenario,
/// from each seat, no marker covers a base or leader of any piece.
#[test]
fn no_marker_covers_a_base_in_any_shipped_scenario() {
    use sandtable_geometry::{Pose, Rect};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let paths = DataPaths::under(&root);
    let rulesets = Rulesets::default();
    let mut failures = Vec::new();
    for path in &shipped_scenarios(&root) {
        let game = rulesets
            .0
            .open_scenario(path, &paths.dirs, Variant::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for seat in 0..2 {
            let scene = game.scene(seat);
            for p in &scene.pieces {
                for t in &p.tokens {
                    let m = Rect::new(
                        Pose::new(sandtable_geometry::Vec2::new(t.at.x, t.at.y), 0.0),
                        sandtable_geometry::Vec2::splat(t.size * 0.5),
                    );
                    for q in &scene.pieces {
                        if q.bases
                            .iter()
                            .any(|b| sandtable_engine::scenario_check::rects_overlap(&m, b))
                        {
                            failures.push(format!(
                                "{} seat {seat}: {}'s \"{}\" covers {}",
                                path.display(),
                                p.label,
                                t.text,
                                q.label
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
