//! Criterion benches for the geometry crate (issue 4 targets): every unit's field of vision and
//! legal charge targets with reachability, broad phase (parry2d BVH) against naive (all pairs) in
//! the same run, at Task Force scale and 10×; and one wheel/move preview with collisions.

use criterion::{Criterion, criterion_group, criterion_main};
use sandtable_geometry::charge::{ChargeParams, simulate_charge};
use sandtable_geometry::movement::{Body, MoveCost, SidePolicy, move_straight};
use sandtable_geometry::vision::{Viewer, VisionArc, visible_units, visible_units_many};
use sandtable_geometry::wheel::{Pivot, Wheel, WheelSense, wheel};
use sandtable_geometry::{BroadPhase, Scene};
use std::hint::black_box;

#[path = "support/scenes.rs"]
mod scenes;
use scenes::{GenScene, generate};

const BASIC_MOVE: f32 = 20.0;

fn arc_of(u: &scenes::GenUnit) -> VisionArc {
    if u.all_round {
        VisionArc::All360
    } else {
        VisionArc::Front180
    }
}

/// Every unit: the enemy units it sees (GEO-5), and for each seen enemy within its Basic Move a
/// charge simulation (wheel to face + straight move, GEO-11) to decide reachability.
/// Returns (sightings, charge candidates, reachable) so nothing is optimised away.
pub fn fov_and_charges(g: &GenScene, scene: &Scene) -> (usize, usize, usize) {
    let mut sightings = Vec::with_capacity(g.units.len());
    for u in &g.units {
        let eyes = [u.frame];
        let viewer = Viewer {
            unit: u.id,
            eyes: &eyes,
            arc: arc_of(u),
        };
        let side = u.side;
        sightings.push(visible_units(scene, &viewer, |e| e.side != side, |_| true).expect("valid"));
    }
    charges(g, scene, &sightings)
}

/// The same, vision spread over `threads` threads ([`visible_units_many`]).
pub fn fov_and_charges_threads(
    g: &GenScene,
    scene: &Scene,
    threads: usize,
) -> (usize, usize, usize) {
    let eyes: Vec<[sandtable_geometry::Rect; 1]> = g.units.iter().map(|u| [u.frame]).collect();
    let viewers: Vec<Viewer> = g
        .units
        .iter()
        .zip(&eyes)
        .map(|(u, e)| Viewer {
            unit: u.id,
            eyes: e,
            arc: arc_of(u),
        })
        .collect();
    let sides: Vec<u8> = g.units.iter().map(|u| u.side).collect();
    let sightings = visible_units_many(
        scene,
        &viewers,
        |i, e| e.side != sides[i],
        |_, _| true,
        threads,
    )
    .expect("valid");
    charges(g, scene, &sightings)
}

/// The charge half: for each sighting within the Basic Move (base-to-base), a charge simulation.
fn charges(
    g: &GenScene,
    scene: &Scene,
    sightings: &[Vec<(u32, sandtable_geometry::vision::SightLine)>],
) -> (usize, usize, usize) {
    let params = ChargeParams::default();
    let (mut seen, mut cands, mut reach) = (0, 0, 0);
    for (u, vis) in g.units.iter().zip(sightings) {
        seen += vis.len();
        let body = Body::new(u.frame, &u.bases);
        let policy = SidePolicy::charging(u.id, u.side);
        for &(t, _) in vis {
            // Only units within the Basic Move need the exact distance (the naive run measures
            // every pair, as it always did).
            let d = if scene.broad_phase() == BroadPhase::Naive {
                Some(scene.unit_distance(u.id, t).expect("valid"))
            } else {
                scene
                    .unit_distance_within(u.id, t, BASIC_MOVE)
                    .expect("valid")
            };
            if d.is_none_or(|d| d > BASIC_MOVE) {
                continue;
            }
            cands += 1;
            let target = &g.units[t as usize];
            let out = simulate_charge(
                scene,
                &body,
                u.id,
                t,
                &target.frame,
                None,
                BASIC_MOVE,
                &params,
                &policy,
            );
            if out.is_ok_and(|o| o.reached(t)) {
                reach += 1;
            }
        }
    }
    (seen, cands, reach)
}

/// A drag preview: a 30° forward wheel then a 10 cm straight move, both with collisions.
pub fn preview(g: &GenScene, scene: &Scene, who: usize) -> f32 {
    let u = &g.units[who];
    let body = Body::new(u.frame, &u.bases);
    let policy = SidePolicy::moving(u.id, u.side);
    let w = Wheel {
        pivot: Pivot::FrontLeft,
        sense: WheelSense::Forward,
        angle: 30f32.to_radians(),
    };
    let out = wheel(scene, &body, &w, &policy).expect("valid");
    let frame = out.apply(&u.frame);
    let bases: Vec<_> = u.bases.iter().map(|b| out.apply(b)).collect();
    let m = move_straight(
        scene,
        &Body::new(frame, &bases),
        10.0,
        &policy,
        MoveCost::default(),
    )
    .expect("valid");
    out.theta + m.travelled
}

/// The unit with the most bases within 15 cm: the busiest place for a drag preview.
fn busiest(g: &GenScene, scene: &Scene) -> usize {
    let mut best = (0, 0);
    for (i, u) in g.units.iter().enumerate() {
        let n = scene
            .bases_near_rect(&u.frame, 15.0)
            .map(|v| v.len())
            .unwrap_or(0);
        if n > best.1 {
            best = (i, n);
        }
    }
    best.0
}

fn benches(c: &mut Criterion) {
    for (label, g) in [
        ("task_force", generate(1, 0x5A4D_7AB1)),
        ("division", scenes::division(0x5A4D_7AB1)),
        ("x10", generate(10, 0x5A4D_7AB1)),
    ] {
        let scene = g.scene();
        let naive = g.scene().with_broad_phase(BroadPhase::Naive);
        let a = fov_and_charges(&g, &scene);
        let b = fov_and_charges(&g, &naive);
        assert_eq!(a, b, "broad phase and naive must agree");
        assert_eq!(
            a,
            fov_and_charges_threads(&g, &scene, 2),
            "threads must agree"
        );
        eprintln!(
            "{label}: {} units, {} bases, {} terrain; sightings {}, charge candidates {}, reachable {}",
            g.units.len(),
            scene.bases().len(),
            scene.terrain().len(),
            a.0,
            a.1,
            a.2
        );
        let mut grp = c.benchmark_group(label);
        grp.bench_function("scene_build", |bch| bch.iter(|| black_box(g.scene())));
        grp.bench_function("fov_charges_bvh", |bch| {
            bch.iter(|| black_box(fov_and_charges(&g, &scene)))
        });
        grp.bench_function("fov_charges_bvh_2threads", |bch| {
            bch.iter(|| black_box(fov_and_charges_threads(&g, &scene, 2)))
        });
        grp.bench_function("fov_charges_build_and_bvh", |bch| {
            bch.iter(|| {
                let s = g.scene();
                black_box(fov_and_charges(&g, &s))
            })
        });
        grp.bench_function("fov_charges_naive", |bch| {
            bch.iter(|| black_box(fov_and_charges(&g, &naive)))
        });
        let who = busiest(&g, &scene);
        grp.bench_function("drag_preview_bvh", |bch| {
            bch.iter(|| black_box(preview(&g, &scene, who)))
        });
        grp.bench_function("drag_preview_naive", |bch| {
            bch.iter(|| black_box(preview(&g, &naive, who)))
        });
        grp.finish();
    }
}

criterion_group! {
    name = geometry;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(geometry);
