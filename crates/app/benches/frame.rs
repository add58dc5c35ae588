//! Criterion bench of the app's per-frame CPU time (issue 6 goal: ≤ 3 ms with 1,000 bases and all
//! overlays on), headless: the game plugins' systems (input, table interaction, overlay cache,
//! the computer seat, autosave check) run by `App::update` on a generated battle of 250 units
//! (1,000 bases) with a unit selected and every overlay on. Rendering is not in this figure: it
//! needs a GPU (see docs/performance.md). The same run times recomputing all overlays after a
//! change, which happens once per command, not per frame.

use bevy::prelude::*;
use criterion::{Criterion, criterion_group, criterion_main};
use sandtable_app::args::Args;
use sandtable_app::battle::Battle;
use sandtable_app::table::input::Selected;
use sandtable_app::table::overlays::{Overlays, lines};
use std::hint::black_box;

#[path = "../tests/support/mod.rs"]
mod support;
use support::headless_app;

/// A battle of `per_side` four-base units a side, in ranks facing each other.
fn big_scenario(folder: &std::path::Path, per_side: usize) -> std::path::PathBuf {
    let cols = 25;
    let mut sides = String::new();
    for (side, (name, list, edge, facing, y0, dy, profile, chief)) in [
        (
            "Polish-Lithuanian",
            "polish-lithuanian-1655",
            "South",
            0.0,
            20.0,
            10.0,
            "haiduks",
            "sosinski",
        ),
        (
            "Swedish",
            "swedish-1655",
            "North",
            180.0,
            240.0,
            -10.0,
            "musketeers",
            "schwelick",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let mut units = String::new();
        for i in 0..per_side {
            let (c, r) = (i % cols, i / cols);
            let x = 20.0 + c as f32 * 22.0;
            let y = y0 + r as f32 * dy;
            units += &format!(
                "Unit(id: \"u{side}-{i}\", profile: \"{profile}\", formation: Line(files: 4), bases: 4, position: ({x}, {y}), facing: {facing}),\n"
            );
        }
        let cy = if side == 0 { 5.0 } else { 255.0 };
        sides += &format!(
            "Side(name: \"{name}\", army_list: \"{list}\", home_edge: {edge}, commanders: [Commander(id: \"{chief}\", name: \"{chief}\", rank: CommanderInChief, command_points: 3, position: (280.0, {cy}), facing: {facing})], units: [{units}]),\n"
        );
    }
    let ron = format!(
        "Scenario(format: 1, name: \"Frame bench\", ruleset: \"bfs\", table: (width: 580.0, depth: 260.0), level: TaskForce, turn_limit: 6, terrain: [Terrain(kind: Forest, shape: Rect(center: (290.0, 130.0), size: (40.0, 20.0)))], sides: [{sides}])"
    );
    let path = folder.join("frame-bench.ron");
    std::fs::write(&path, ron).expect("write the bench scenario");
    path
}

fn app_with(scenario: std::path::PathBuf) -> App {
    headless_app(Args {
        scenario: Some(scenario),
        ..Default::default()
    })
}

fn frame(c: &mut Criterion) {
    let folder = support::temp_folder("frame-bench");
    let mut app = app_with(big_scenario(folder.path(), 125));
    support::keep_with(&mut app, folder);
    app.world_mut().resource_mut::<Battle>().lift_curtain();
    let (first, all) = {
        let b = app.world().resource::<Battle>();
        let bases: usize = b.scene.pieces.iter().map(|u| u.bases.len()).sum();
        assert_eq!(
            bases,
            1000 + 2,
            "the bench battle has 1,000 bases and 2 commanders"
        );
        let all = Overlays(b.game.overlays().iter().map(|o| o.id).collect());
        (b.scene.pieces[0].id, all)
    };
    app.world_mut().resource_mut::<Selected>().0 = Some(first);
    *app.world_mut().resource_mut::<Overlays>() = all.clone();
    app.update();
    c.bench_function("app_frame_1000_bases_all_overlays", |b| {
        b.iter(|| app.update())
    });
    let battle = app.world().resource::<Battle>().clone();
    let draft = sandtable_app::table::draft::Draft::default();
    c.bench_function("overlays_rebuild_1000_bases", |b| {
        b.iter(|| black_box(lines(&battle, Some(first), &all, &draft)))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = frame
}
criterion_main!(benches);
