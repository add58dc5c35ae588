//! The whole-table vision walk: the scene's units visited nearest first over the unit tree,
//! skipping those the occlusion horizons (the `occlusion` module) certify hidden. It only decides
//! which units to test and in what order; the sight test itself is [`crate::vision`]'s, passed in.

use crate::occlusion::Horizon;
use crate::prim;
use crate::rect::Rect;
use crate::scene::{Scene, SceneBase, UnitEntry};
use crate::sight_arc::VisionArc;
use glam::Vec2;

/// A convex polygon (counter-clockwise) prepared for box tests: its bounds and, per edge, a point
/// and the outward normal.
struct Hull {
    lo: Vec2,
    hi: Vec2,
    edges: Vec<(Vec2, Vec2)>,
}

impl Hull {
    fn new(pts: &[Vec2]) -> Self {
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for p in pts {
            lo = lo.min(*p);
            hi = hi.max(*p);
        }
        let n = pts.len();
        let edges = (0..n)
            .map(|i| {
                let e = pts[(i + 1) % n] - pts[i];
                (pts[i], Vec2::new(e.y, -e.x))
            })
            .collect();
        Self { lo, hi, edges }
    }

    /// Does the box `[lo, hi]` meet the polygon? Separating axes: the box's, then the polygon's
    /// edge normals (against each, the box corner farthest back).
    #[inline]
    fn meets_box(&self, lo: Vec2, hi: Vec2) -> bool {
        if hi.x < self.lo.x || hi.y < self.lo.y || lo.x > self.hi.x || lo.y > self.hi.y {
            return false;
        }
        self.edges.iter().all(|&(a, out)| {
            let c = Vec2::new(
                if out.x > 0.0 { lo.x } else { hi.x },
                if out.y > 0.0 { lo.y } else { hi.y },
            );
            (c - a).dot(out) <= 0.0
        })
    }
}

/// A subtree small enough (about a unit or two across) to be worth an occlusion test.
#[inline]
fn node_small(node: &crate::scene::UnitNode) -> bool {
    let e = node.hi - node.lo;
    e.x.max(e.y) <= 20.0
}

/// The near-first, occlusion-culled walk over the unit tree (see the `occlusion` module).
///
/// The viewer is unit `viewer` looking with `eyes` over `arc`. The walk calls `test(unit, horizon)`
/// for every unit other than the viewer that `want` accepts and that it cannot certify hidden,
/// nearest first, with `horizon` holding the occluders met so far; when the eyes are too many for
/// a horizon it calls `test(unit, None)` for every such unit, in unit order. The sight test
/// itself, and what to do with its answer, is the caller's.
pub(crate) fn culled_walk<W: Fn(&UnitEntry) -> bool, F: Fn(&SceneBase) -> bool>(
    scene: &Scene,
    viewer: u32,
    eyes: &[Rect],
    arc: VisionArc,
    want: &W,
    blocks: &F,
    mut test: impl FnMut(u32, Option<&Horizon>),
) {
    use crate::occlusion::box_distance2;
    use std::cmp::Reverse;
    let tree = scene.unit_tree();
    if tree.is_empty() {
        return;
    }
    let hz0 = Horizon::new(scene, eyes, arc);
    let Some(mut hz) = hz0 else {
        // Too many eyes for a horizon: every unit, exactly.
        for u in scene.units() {
            if u.id != viewer && want(u) {
                test(u.id, None);
            }
        }
        return;
    };
    let m = hz.center();
    // Every sample line runs from an eye to a wanted unit's base, so it stays inside the hull of
    // the eyes and the wanted units' bounding box: what keeps out of that hull cannot block any
    // line that matters, nor be a target.
    let (mut wlo, mut whi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    for u in scene.units() {
        if u.id != viewer && want(u) {
            wlo = wlo.min(u.lo);
            whi = whi.max(u.hi);
        }
    }
    if wlo.x > whi.x {
        return;
    }
    let mut pts: Vec<Vec2> = eyes.iter().flat_map(|e| e.corners()).collect();
    pts.extend([wlo, Vec2::new(whi.x, wlo.y), whi, Vec2::new(wlo.x, whi.y)]);
    let hull = Hull::new(&prim::convex_hull(&mut pts));
    let relevant = |lo: Vec2, hi: Vec2| hull.meets_box(lo, hi);
    // Terrain occluders join the horizon in distance order, as the walk reaches them.
    let mut terrain: Vec<(f32, u32)> = (0..scene.terrain().len())
        .filter(|&i| scene.terrain_occluder(i).is_some())
        .filter_map(|i| {
            let (lo, hi) = scene.terrain()[i].polygon.aabb();
            relevant(lo, hi).then(|| (box_distance2(m, lo, hi), i as u32))
        })
        .collect();
    terrain.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut next_terrain = 0;
    let bases = scene.bases();
    // Best-first: a min-heap on squared box distance (non-negative floats order as their bits).
    let mut heap: std::collections::BinaryHeap<Reverse<(u32, u32)>> =
        std::collections::BinaryHeap::with_capacity(64);
    heap.push(Reverse((0, 0)));
    while let Some(Reverse((dbits, n))) = heap.pop() {
        let d2 = f32::from_bits(dbits);
        while let Some(&(td, ti)) = terrain.get(next_terrain)
            && td <= d2
        {
            next_terrain += 1;
            let poly = &scene.terrain()[ti as usize].polygon;
            let (lo, hi) = poly.aabb();
            // A hidden occluder casts no shadow its own occluders do not already cast.
            if !hz.behind(lo, hi) && !hz.poly_hidden(poly.vertices()) {
                hz.add_terrain(ti as usize);
            }
        }
        let node = &tree[n as usize];
        if hz.behind(node.lo, node.hi) || !relevant(node.lo, node.hi) {
            continue;
        }
        // Inner nodes are tested while small enough to fit behind something; a unit is tested on
        // its own outline below.
        if node.kind.is_err() && node_small(node) && hz.box_hidden(node.lo, node.hi) {
            continue;
        }
        match node.kind {
            Err((a, b)) => {
                for c in [a, b] {
                    let cn = &tree[c as usize];
                    heap.push(Reverse((box_distance2(m, cn.lo, cn.hi).to_bits(), c)));
                }
            }
            Ok(ui) => {
                let ui = ui as usize;
                let u = &scene.units()[ui];
                if u.id == viewer {
                    continue;
                }
                let idx = scene.entry_base_indices(u);
                let hidden = match hz.unit_hull(ui) {
                    Some(hull) => hz.rect_hidden(&hull),
                    None => idx
                        .iter()
                        .all(|&bi| hz.rect_hidden(&bases[bi as usize].rect.corners())),
                };
                if hidden {
                    // Neither seen nor worth adding as an occluder.
                    continue;
                }
                if want(u) {
                    test(u.id, Some(&hz));
                }
                if scene.unit_solid(ui).is_some()
                    && idx.iter().all(|&bi| blocks(&bases[bi as usize]))
                {
                    hz.add_unit(ui);
                } else {
                    for &bi in idx {
                        if blocks(&bases[bi as usize]) {
                            hz.add_base(bi as usize);
                        }
                    }
                }
            }
        }
    }
}
