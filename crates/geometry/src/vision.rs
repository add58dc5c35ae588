//! Field of vision (BFS-FOV-2..5, GEO-5, AMB-3).
//!
//! A viewer sees the closed half-plane ahead of its front edge (180°) or everything (360°). A
//! target unit is visible when some sight line joins a sample point `o` on the viewer's front edge
//! (any edge for 360°) to a sample point `p` on one of the target's bases inside that region
//! without passing through a blocking shape. Samples follow GEO-5: the two front corners, the
//! midpoint and the point closest to the target; on the target base its corners, edge midpoints
//! and closest point (for a base straddling the viewer's front line, the corners of the part
//! inside the region). The bases of the viewer and of the target never block; which other bases
//! block is the caller's predicate (BFaS: enemies, and friends not in Open Order); terrain blocks
//! by its [`SightBlock`]. A line that only grazes a blocker within
//! [`CONTACT_EPS`](crate::tolerance::CONTACT_EPS) is clear.
//!
//! [`visible_units`] answers for a whole table at once; with the BVH broad phase it skips the units
//! and sight lines the crate's occlusion horizons certify hidden (the `occlusion` module, walked by
//! `vision_walk`), which never changes an answer, sight lines included. [`visible_units_many`] does
//! it for many viewers, optionally on several threads.

use crate::error::GeoError;
use crate::occlusion::{Horizon, MAX_STATIONS, Origin};
use crate::prim;
use crate::rect::{Edge, Placed, Rect};
use crate::scene::{Scene, SceneBase, UnitEntry};
use crate::terrain::{SightBlock, blocks_sight};
use crate::vision_walk::culled_walk;
use glam::Vec2;
use serde::{Deserialize, Serialize};

pub use crate::sight_arc::VisionArc;

/// Who looks: the viewer unit's id in the scene, its "eyes" (the unit rectangle of a close-order
/// unit, or each base of an Open Order or Non-standard unit) and its arc.
#[derive(Debug, Clone, Copy)]
pub struct Viewer<'a> {
    pub unit: u32,
    pub eyes: &'a [Rect],
    pub arc: VisionArc,
}

/// A clear sight line, from the viewer to a point of the target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SightLine {
    pub from: Vec2,
    pub to: Vec2,
}

/// Is `p` inside an eye's vision region?
pub fn in_region(eye: &Rect, arc: VisionArc, p: Vec2) -> Result<bool, GeoError> {
    eye.check("viewer")?;
    crate::error::check_point("point", p)?;
    Ok(match arc {
        VisionArc::All360 => true,
        VisionArc::Front180 => {
            (p - eye.front_left()).dot(eye.facing()) >= -crate::tolerance::LIMIT_EPS
        }
    })
}

/// Closest points `(on segment, on rect)` between a segment and a rectangle placed once, with
/// its corners.
fn closest_segment_placed(a: Vec2, b: Vec2, r: &Placed, corners: &[Vec2; 4]) -> (Vec2, Vec2) {
    let mut best = (a, r.closest_point(a));
    let mut bd = best.0.distance_squared(best.1);
    let cb = r.closest_point(b);
    let d = b.distance_squared(cb);
    if d < bd {
        best = (b, cb);
        bd = d;
    }
    for &c in corners {
        let q = prim::closest_on_segment(c, a, b);
        let d = q.distance_squared(c);
        if d < bd {
            best = (q, c);
            bd = d;
        }
    }
    // The segment may cross the rectangle: then any crossing point is at distance 0.
    if bd > 0.0 {
        let la = r.local(a);
        let lb = r.local(b);
        if let Some((t0, _)) = prim::clip_segment_to_box(la, lb, -r.half, r.half) {
            let p = a + (b - a) * t0;
            best = (p, p);
        }
    }
    best
}

const RECENT: usize = 8;

/// An eye placed once per target: its frame, its corners, and where the ends and midpoint of
/// each of its edges lie among the horizon's stations.
struct EyeFrame {
    placed: Placed,
    corners: [Vec2; 4],
    /// Per edge, in [`Edge::ALL`] order: the places of its start, its midpoint and its end.
    places: [[Option<Origin>; 3]; 4],
}

impl EyeFrame {
    fn new(eye: &Rect, arc: VisionArc, hz: Option<(&Horizon, usize)>) -> Self {
        let placed = Placed::of(eye);
        let corners = placed.corners();
        let mut places = [[None; 3]; 4];
        if let Some((h, k)) = hz {
            for (i, e) in Edge::ALL.into_iter().enumerate() {
                if arc == VisionArc::Front180 && e != Edge::Front {
                    continue;
                }
                let s = Placed::edge_of(&corners, e);
                places[i] = [s.a, s.midpoint(), s.b].map(|o| h.origin_of(k, e, o));
            }
        }
        Self {
            placed,
            corners,
            places,
        }
    }
}

impl SightCtx {
    #[inline]
    fn remember(&mut self, i: usize) {
        let n = self.n_recent;
        let pos = self.recent[..n]
            .iter()
            .position(|&x| x == i)
            .unwrap_or(n.min(RECENT - 1));
        let mut k = pos;
        while k > 0 {
            self.recent[k] = self.recent[k - 1];
            k -= 1;
        }
        self.recent[0] = i;
        if pos == n && n < RECENT {
            self.n_recent += 1;
        }
    }
}

/// Per-query scratch: sample buffers and the last blockers found (tested first next time, since
/// the same enemy line tends to hide everything behind it).
pub(crate) struct SightCtx {
    /// Most recently useful blockers, most recent first.
    recent: [usize; RECENT],
    n_recent: usize,
    /// The terrain piece that last blocked a line (`usize::MAX`: none), tested before the bases.
    recent_terrain: usize,
    origins: Vec<Vec2>,
    /// Per origin: where it lies among the horizon's stations (`None`: no horizon).
    oplaces: Vec<Option<Origin>>,
    targets: Vec<Vec2>,
    /// Per target point and horizon station: its bin and squared distance.
    tbins: Vec<(u32, f32)>,
    clip_a: Vec<Vec2>,
    clip_b: Vec<Vec2>,
    /// The viewer's eyes, placed for the target at hand.
    frames: Vec<EyeFrame>,
}

impl SightCtx {
    pub(crate) fn new() -> Self {
        Self {
            recent: [0; RECENT],
            n_recent: 0,
            recent_terrain: usize::MAX,
            origins: Vec::with_capacity(16),
            oplaces: Vec::with_capacity(16),
            targets: Vec::with_capacity(32),
            tbins: Vec::with_capacity(32),
            clip_a: Vec::with_capacity(8),
            clip_b: Vec::with_capacity(8),
            frames: Vec::with_capacity(1),
        }
    }
}

/// Is the open segment `[a, b]` free of blockers? Bases of `viewer` and `target` never block.
pub(crate) fn segment_clear<F: Fn(&SceneBase) -> bool>(
    scene: &Scene,
    ctx: &mut SightCtx,
    a: Vec2,
    b: Vec2,
    viewer: u32,
    target: u32,
    blocks: &F,
) -> bool {
    let bases = scene.bases();
    let candidate = |i: usize| {
        let sb = &bases[i];
        sb.unit != viewer && sb.unit != target && blocks(sb)
    };
    for k in 0..ctx.n_recent {
        let i = ctx.recent[k];
        if candidate(i) && scene.sight_box(i).blocks(a, b) {
            if k > 0 {
                ctx.remember(i);
            }
            return false;
        }
    }
    let terrain = scene.terrain();
    if let Some(t) = terrain.get(ctx.recent_terrain)
        && t.sight != SightBlock::Clear
        && blocks_sight(t, a, b)
    {
        return false;
    }
    let mut clear = true;
    let mut hit = None;
    scene.for_each_base_near_segment(a, b, 0.0, |i| {
        if candidate(i) && scene.sight_box(i).blocks(a, b) {
            clear = false;
            hit = Some(i);
            return false;
        }
        true
    });
    if !clear {
        if let Some(i) = hit {
            ctx.remember(i);
        }
        return false;
    }
    let mut hit = None;
    scene.for_each_terrain_near_segment(a, b, 0.0, |i| {
        let t = &terrain[i];
        if t.sight != SightBlock::Clear && blocks_sight(t, a, b) {
            hit = Some(i);
            clear = false;
            return false;
        }
        true
    });
    if let Some(i) = hit {
        ctx.recent_terrain = i;
    }
    clear
}

/// Can one eye see one target base? Returns the first clear sight line.
#[allow(clippy::too_many_arguments)]
fn eye_sees_base<F: Fn(&SceneBase) -> bool>(
    scene: &Scene,
    ctx: &mut SightCtx,
    eye: &EyeFrame,
    arc: VisionArc,
    base: &Rect,
    viewer: u32,
    target: u32,
    blocks: &F,
    hz: Option<(&Horizon, usize)>,
) -> Option<SightLine> {
    let placed = Placed::of(base);
    let corners = placed.corners();
    // The part of the target base inside the region.
    let poly = crate::rect::ccw_of(&corners);
    let (facing, front_left) = (eye.placed.facing, eye.corners[0]);
    ctx.clip_a.clear();
    match arc {
        VisionArc::All360 => ctx.clip_a.extend_from_slice(&poly),
        VisionArc::Front180 => {
            let f = facing;
            prim::clip_halfplane(
                &poly,
                front_left - f * crate::tolerance::LIMIT_EPS,
                f,
                &mut ctx.clip_b,
            );
            if ctx.clip_b.is_empty() {
                return None;
            }
            core::mem::swap(&mut ctx.clip_a, &mut ctx.clip_b);
        }
    }
    // Origins and the closest pair first, each with where it lies among the horizon's stations.
    ctx.origins.clear();
    ctx.oplaces.clear();
    let place_of = |e: Edge, o: Vec2| hz.and_then(|(h, k)| h.origin_of(k, e, o));
    let (_, pc) = match arc {
        VisionArc::Front180 => {
            let fe = Placed::edge_of(&eye.corners, Edge::Front);
            let (oc, pc) = closest_segment_placed(fe.a, fe.b, &placed, &corners);
            ctx.origins.extend([oc, fe.a, fe.b, fe.midpoint()]);
            let [a, mid, b] = eye.places[0];
            ctx.oplaces.extend([place_of(Edge::Front, oc), a, b, mid]);
            (oc, pc)
        }
        VisionArc::All360 => {
            let mut best: Option<(Vec2, Vec2, f32, Edge)> = None;
            for e in Edge::ALL {
                let s = Placed::edge_of(&eye.corners, e);
                let (o, p) = closest_segment_placed(s.a, s.b, &placed, &corners);
                let d = o.distance_squared(p);
                if best.is_none_or(|(_, _, bd, _)| d < bd) {
                    best = Some((o, p, d, e));
                }
            }
            let (oc, pc, _, ec) = best.unwrap_or((eye.placed.pos, base.center(), 0.0, Edge::Front));
            ctx.origins.push(oc);
            ctx.oplaces.push(place_of(ec, oc));
            for (i, e) in Edge::ALL.into_iter().enumerate() {
                let s = Placed::edge_of(&eye.corners, e);
                let [a, mid, _] = eye.places[i];
                ctx.origins.extend([s.a, s.midpoint()]);
                ctx.oplaces.extend([a, mid]);
            }
            (oc, pc)
        }
    };
    ctx.targets.clear();
    let in_reg = |p: Vec2| match arc {
        VisionArc::All360 => true,
        VisionArc::Front180 => (p - front_left).dot(facing) >= -crate::tolerance::LIMIT_EPS,
    };
    if in_reg(pc) {
        ctx.targets.push(pc);
    }
    let n = ctx.clip_a.len();
    for k in 0..n {
        let v = ctx.clip_a[k];
        let w = ctx.clip_a[(k + 1) % n];
        ctx.targets.push(v);
        ctx.targets.push((v + w) * 0.5);
    }
    // Per station: is the whole base certified hidden from it? And the target points' bins,
    // from every station at once when the horizon allows it.
    let mut spans = [None; MAX_STATIONS];
    let np = hz.map_or(0, |(h, _)| h.station_count());
    if let Some((h, _)) = hz {
        h.rect_spans(&corners, &mut spans);
        // Filled in per target point when first needed (`u32::MAX`: not yet).
        ctx.tbins.clear();
        ctx.tbins.resize(ctx.targets.len() * np, (u32::MAX, 0.0));
    }
    let (mut known, mut hidden) = (0u64, 0u64);
    for oi in 0..ctx.origins.len() {
        let o = ctx.origins[oi];
        let place = hz.map(|(h, _)| h).zip(ctx.oplaces[oi]);
        match place {
            Some((h, Origin::At(j))) => {
                let bit = 1u64 << j;
                if known & bit == 0 {
                    known |= bit;
                    if spans[j].is_some_and(|s| h.span_hidden(j, s)) {
                        hidden |= bit;
                    }
                }
                if hidden & bit != 0 {
                    continue;
                }
            }
            Some((h, Origin::Between(j))) => {
                let shared = |j: usize| spans[j].and_then(|s| h.span_shared(j, s));
                if shared(j).is_some_and(|x| shared(j + 1) == Some(x)) {
                    continue;
                }
            }
            None => {}
        }
        let mut tried = usize::MAX;
        for pi in 0..ctx.targets.len() {
            let p = ctx.targets[pi];
            if let Some((h, at)) = place {
                let bins = &mut ctx.tbins[pi * np..(pi + 1) * np];
                if bins[0].0 == u32::MAX {
                    h.bins(p, bins);
                }
                let certified = match at {
                    Origin::At(j) => h.point_hidden(j, bins[j]),
                    Origin::Between(j) => h.point_hidden_between(j, bins[j], bins[j + 1]),
                };
                if certified {
                    continue;
                }
            }
            if segment_clear(scene, ctx, o, p, viewer, target, blocks) {
                return Some(SightLine { from: o, to: p });
            }
            // Blocked. If the blocker just met hides the whole base from `o` (every corner is in
            // its shadow, and the shadow from a point is convex), no other sample from `o` can
            // get through: skip to the next origin.
            if ctx.n_recent > 0 && ctx.recent[0] != tried {
                let x = ctx.recent[0];
                tried = x;
                let sb = &scene.bases()[x];
                if sb.unit != viewer
                    && sb.unit != target
                    && blocks(sb)
                    && corners.iter().all(|c| scene.sight_box(x).blocks(o, *c))
                {
                    break;
                }
            }
        }
    }
    None
}

fn check_viewer(v: &Viewer) -> Result<(), GeoError> {
    if v.eyes.is_empty() {
        return Err(GeoError::Degenerate {
            what: "viewer",
            why: "no eyes (frame or bases)".into(),
        });
    }
    for e in v.eyes {
        e.check("viewer eye")?;
    }
    Ok(())
}

/// Does the viewer see unit `target` (GEO-5)? Returns a clear sight line if so.
pub fn sees<F: Fn(&SceneBase) -> bool>(
    scene: &Scene,
    viewer: &Viewer,
    target: u32,
    blocks: F,
) -> Result<Option<SightLine>, GeoError> {
    check_viewer(viewer)?;
    if scene.unit(target).is_none() {
        return Err(GeoError::OutOfRange {
            what: "target",
            why: format!("unit {target} is not in the scene"),
        });
    }
    let mut ctx = SightCtx::new();
    Ok(sees_with(scene, &mut ctx, viewer, target, &blocks, None))
}

pub(crate) fn sees_with<F: Fn(&SceneBase) -> bool>(
    scene: &Scene,
    ctx: &mut SightCtx,
    viewer: &Viewer,
    target: u32,
    blocks: &F,
    hz: Option<&Horizon>,
) -> Option<SightLine> {
    if target == viewer.unit {
        return None;
    }
    let bases = scene.bases();
    let mut frames = core::mem::take(&mut ctx.frames);
    frames.clear();
    frames.extend(
        viewer
            .eyes
            .iter()
            .enumerate()
            .map(|(k, eye)| EyeFrame::new(eye, viewer.arc, hz.map(|h| (h, k)))),
    );
    let mut seen = None;
    'bases: for &bi in scene.unit_base_indices(target) {
        let base = &bases[bi as usize].rect;
        for (k, eye) in frames.iter().enumerate() {
            if let Some(l) = eye_sees_base(
                scene,
                ctx,
                eye,
                viewer.arc,
                base,
                viewer.unit,
                target,
                blocks,
                hz.map(|h| (h, k)),
            ) {
                seen = Some(l);
                break 'bases;
            }
        }
    }
    ctx.frames = frames;
    seen
}

/// Every unit of the scene the viewer sees, among those `want` accepts (e.g. the enemy units), as
/// `(unit id, sight line)`, in unit-id order.
///
/// With the BVH broad phase the scene's units are walked near-first and pruned by occlusion
/// culling (the crate's `occlusion` module); with [`BroadPhase::Naive`](crate::scene::BroadPhase)
/// every unit is tested exhaustively. Both give the same answer, sight lines included.
pub fn visible_units<W: Fn(&UnitEntry) -> bool, F: Fn(&SceneBase) -> bool>(
    scene: &Scene,
    viewer: &Viewer,
    want: W,
    blocks: F,
) -> Result<Vec<(u32, SightLine)>, GeoError> {
    check_viewer(viewer)?;
    let mut ctx = SightCtx::new();
    let mut out = Vec::new();
    visible_into(scene, &mut ctx, viewer, &want, &blocks, &mut out);
    Ok(out)
}

/// [`visible_units`] for many viewers, spread over `threads` threads (`1`: all on the calling
/// thread, no thread started). `want(i, u)`: does viewer `i` (an index into `viewers`) want unit
/// `u`; `blocks(i, b)`: does base `b` block viewer `i`'s sight. The answers, one list per viewer in
/// order, are those of [`visible_units`].
pub fn visible_units_many<W, F>(
    scene: &Scene,
    viewers: &[Viewer],
    want: W,
    blocks: F,
    threads: usize,
) -> Result<Vec<Vec<(u32, SightLine)>>, GeoError>
where
    W: Fn(usize, &UnitEntry) -> bool + Sync,
    F: Fn(usize, &SceneBase) -> bool + Sync,
{
    for v in viewers {
        check_viewer(v)?;
    }
    let n = viewers.len();
    let threads = threads.clamp(1, n.max(1));
    // Viewers are dealt round-robin, which balances crowded and empty parts of the table.
    let run = |t: usize| {
        let mut ctx = SightCtx::new();
        (t..n)
            .step_by(threads)
            .map(|i| {
                let mut out = Vec::new();
                visible_into(
                    scene,
                    &mut ctx,
                    &viewers[i],
                    &|u| want(i, u),
                    &|b| blocks(i, b),
                    &mut out,
                );
                out
            })
            .collect::<Vec<_>>()
    };
    let mut parts = if threads == 1 {
        vec![run(0)]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (1..threads).map(|t| s.spawn(move || run(t))).collect();
            let mut parts = vec![run(0)];
            for h in handles {
                match h.join() {
                    Ok(p) => parts.push(p),
                    Err(e) => std::panic::resume_unwind(e),
                }
            }
            parts
        })
    };
    let mut iters: Vec<_> = parts.iter_mut().map(|p| p.drain(..)).collect();
    Ok((0..n)
        .map(|i| iters[i % threads].next().unwrap_or_default())
        .collect())
}

fn visible_into<W: Fn(&UnitEntry) -> bool, F: Fn(&SceneBase) -> bool>(
    scene: &Scene,
    ctx: &mut SightCtx,
    viewer: &Viewer,
    want: &W,
    blocks: &F,
    out: &mut Vec<(u32, SightLine)>,
) {
    if scene.broad_phase() == crate::scene::BroadPhase::Naive {
        for u in scene.units() {
            if u.id == viewer.unit || !want(u) {
                continue;
            }
            if let Some(l) = sees_with(scene, ctx, viewer, u.id, blocks, None) {
                out.push((u.id, l));
            }
        }
        return;
    }
    culled_walk(
        scene,
        viewer.unit,
        viewer.eyes,
        viewer.arc,
        want,
        blocks,
        |target, hz| {
            if let Some(l) = sees_with(scene, ctx, viewer, target, blocks, hz) {
                out.push((target, l));
            }
        },
    );
    out.sort_by_key(|x| x.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::Polygon;
    use crate::terrain::TerrainPiece;

    fn b(x: f32, y: f32, a: f32) -> Rect {
        Rect::try_new(Vec2::new(x, y), Vec2::new(4.0, 2.0), a).unwrap()
    }

    /// Viewer: unit 1 (side 0), a 12 × 2 line with its front edge on y = 0, x ∈ [-6, 6].
    fn viewer_bases() -> Vec<SceneBase> {
        (0..3)
            .map(|i| SceneBase {
                rect: b(-4.0 + 4.0 * i as f32, -1.0, 0.0),
                unit: 1,
                side: 0,
            })
            .collect()
    }
    fn viewer_frame() -> Rect {
        Rect::try_new(Vec2::new(0.0, -1.0), Vec2::new(12.0, 2.0), 0.0).unwrap()
    }
    fn enemies_and_closed_friends(s: &SceneBase) -> bool {
        s.side != 0 || s.unit != 77 // unit 77 stands for a friend in Open Order
    }

    #[test]
    fn sees_ahead_not_behind() {
        let mut v = viewer_bases();
        v.push(SceneBase {
            rect: b(0.0, 20.0, 0.0),
            unit: 2,
            side: 1,
        });
        v.push(SceneBase {
            rect: b(0.0, -20.0, 0.0),
            unit: 3,
            side: 1,
        });
        let s = Scene::new(v, vec![]).unwrap();
        let eyes = [viewer_frame()];
        let viewer = Viewer {
            unit: 1,
            eyes: &eyes,
            arc: VisionArc::Front180,
        };
        assert!(
            sees(&s, &viewer, 2, enemies_and_closed_friends)
                .unwrap()
                .is_some()
        );
        assert!(
            sees(&s, &viewer, 3, enemies_and_closed_friends)
                .unwrap()
                .is_none()
        );
        let all = Viewer {
            arc: VisionArc::All360,
            ..viewer
        };
        assert!(
            sees(&s, &all, 3, enemies_and_closed_friends)
                .unwrap()
                .is_some()
        );
        let vis = visible_units(&s, &viewer, |u| u.side == 1, enemies_and_closed_friends).unwrap();
        assert_eq!(vis.iter().map(|x| x.0).collect::<Vec<_>>(), vec![2]);
    }

    #[test]
    fn a_wider_unit_in_between_hides_but_open_order_friends_do_not() {
        // Blocker: a friendly 20 × 2 block at y ∈ [9, 11], x ∈ [-10, 10] (5 bases, unit 5). Target:
        // enemy base at y = 20. Every line from the front edge (x ∈ [-6, 6], y = 0) to the target
        // (x ∈ [-2, 2], y ∈ [19, 21]) crosses y = 10 within |x| ≤ 6 < 10: hidden.
        let mut v = viewer_bases();
        for i in 0..5 {
            v.push(SceneBase {
                rect: b(-8.0 + 4.0 * i as f32, 10.0, 0.0),
                unit: 5,
                side: 0,
            });
        }
        v.push(SceneBase {
            rect: b(0.0, 20.0, 0.0),
            unit: 2,
            side: 1,
        });
        let eyes = [viewer_frame()];
        let viewer = Viewer {
            unit: 1,
            eyes: &eyes,
            arc: VisionArc::Front180,
        };
        let s = Scene::new(v.clone(), vec![]).unwrap();
        assert!(
            sees(&s, &viewer, 2, enemies_and_closed_friends)
                .unwrap()
                .is_none()
        );
        // The same block in Open Order does not block.
        for x in v.iter_mut().filter(|x| x.unit == 5) {
            x.unit = 77;
        }
        let s = Scene::new(v, vec![]).unwrap();
        assert!(
            sees(&s, &viewer, 2, enemies_and_closed_friends)
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn sight_through_a_gap_and_along_a_seam() {
        // Two blockers with a 2 cm gap between them at x ∈ [-1, 1]: the target behind is seen.
        let mut v = viewer_bases();
        v.push(SceneBase {
            rect: b(-3.0, 10.0, 0.0),
            unit: 5,
            side: 1,
        });
        v.push(SceneBase {
            rect: b(3.0, 10.0, 0.0),
            unit: 6,
            side: 1,
        });
        v.push(SceneBase {
            rect: b(0.0, 20.0, 0.0),
            unit: 2,
            side: 1,
        });
        let eyes = [viewer_frame()];
        let viewer = Viewer {
            unit: 1,
            eyes: &eyes,
            arc: VisionArc::Front180,
        };
        let s = Scene::new(v.clone(), vec![]).unwrap();
        let line = sees(&s, &viewer, 2, enemies_and_closed_friends)
            .unwrap()
            .unwrap();
        assert!(line.from.x.abs() <= 6.0 + 1e-4 && line.from.y.abs() < 1e-4);
        // Close the gap with one unit of two touching bases at x ∈ [-4, 0] and [0, 4]: the seam at
        // x = 0 lines up with the target's centre and the viewer's midpoint, yet does not let
        // sight through.
        let mut v = viewer_bases();
        v.push(SceneBase {
            rect: b(-2.0, 10.0, 0.0),
            unit: 5,
            side: 1,
        });
        v.push(SceneBase {
            rect: b(2.0, 10.0, 0.0),
            unit: 5,
            side: 1,
        });
        v.push(SceneBase {
            rect: Rect::try_new(Vec2::new(0.0, 20.0), Vec2::new(1.0, 1.0), 0.0).unwrap(),
            unit: 2,
            side: 1,
        });
        let s = Scene::new(v, vec![]).unwrap();
        assert!(
            sees(&s, &viewer, 2, enemies_and_closed_friends)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn terrain_blocks_and_woods_allow_five_cm() {
        let mut v = viewer_bases();
        v.push(SceneBase {
            rect: b(0.0, 30.0, 0.0),
            unit: 2,
            side: 1,
        });
        let hill = Polygon::new(vec![
            Vec2::new(-40.0, 10.0),
            Vec2::new(40.0, 10.0),
            Vec2::new(40.0, 15.0),
            Vec2::new(-40.0, 15.0),
        ])
        .unwrap();
        let eyes = [viewer_frame()];
        let viewer = Viewer {
            unit: 1,
            eyes: &eyes,
            arc: VisionArc::Front180,
        };
        let s = Scene::new(
            v.clone(),
            vec![TerrainPiece::new(1, hill.clone()).with_sight(SightBlock::Blocks)],
        )
        .unwrap();
        assert!(
            sees(&s, &viewer, 2, enemies_and_closed_friends)
                .unwrap()
                .is_none()
        );
        // A 5 cm deep wood crossed straight on: exactly 5 cm inside, visible.
        let s = Scene::new(
            v.clone(),
            vec![TerrainPiece::new(1, hill.clone()).with_sight(SightBlock::BlocksBeyond(5.0))],
        )
        .unwrap();
        assert!(
            sees(&s, &viewer, 2, enemies_and_closed_friends)
                .unwrap()
                .is_some()
        );
        let s = Scene::new(
            v,
            vec![TerrainPiece::new(1, hill).with_sight(SightBlock::BlocksBeyond(4.0))],
        )
        .unwrap();
        assert!(
            sees(&s, &viewer, 2, enemies_and_closed_friends)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn half_plane_is_closed_and_straddling_bases_count() {
        // A base straddling the front line, to the side: part of it is ahead, so it is seen.
        let mut v = viewer_bases();
        v.push(SceneBase {
            rect: b(20.0, 0.0, 0.3),
            unit: 2,
            side: 1,
        });
        let s = Scene::new(v, vec![]).unwrap();
        let eyes = [viewer_frame()];
        let viewer = Viewer {
            unit: 1,
            eyes: &eyes,
            arc: VisionArc::Front180,
        };
        let l = sees(&s, &viewer, 2, enemies_and_closed_friends)
            .unwrap()
            .unwrap();
        assert!(l.to.y >= -1e-3);
        assert!(in_region(&viewer_frame(), VisionArc::Front180, Vec2::new(100.0, 0.0)).unwrap());
        assert!(!in_region(&viewer_frame(), VisionArc::Front180, Vec2::new(0.0, -0.1)).unwrap());
    }

    #[test]
    fn many_viewers_on_threads_match_one_by_one() {
        let mut v = viewer_bases();
        for (i, x) in [-20.0f32, 0.0, 20.0].iter().enumerate() {
            v.push(SceneBase {
                rect: b(*x, 20.0, 0.3 * i as f32),
                unit: 2 + i as u32,
                side: 1,
            });
        }
        v.push(SceneBase {
            rect: b(0.0, 10.0, 0.0),
            unit: 9,
            side: 0,
        });
        let s = Scene::new(v, vec![]).unwrap();
        let frames = [viewer_frame(), b(0.0, 20.0, 0.0), b(20.0, 20.0, 0.3)];
        let viewers: Vec<Viewer> = [1u32, 3, 4]
            .iter()
            .zip(&frames)
            .map(|(u, f)| Viewer {
                unit: *u,
                eyes: core::slice::from_ref(f),
                arc: VisionArc::All360,
            })
            .collect();
        let one: Vec<_> = viewers
            .iter()
            .map(|vw| visible_units(&s, vw, |_| true, |_| true).unwrap())
            .collect();
        for threads in [0, 1, 2, 5] {
            let many = visible_units_many(&s, &viewers, |_, _| true, |_, _| true, threads).unwrap();
            assert_eq!(many, one, "{threads} threads");
        }
        assert!(
            visible_units_many(&s, &[], |_, _| true, |_, _| true, 2)
                .unwrap()
                .is_empty()
        );
        let bad = [Viewer {
            unit: 1,
            eyes: &[],
            arc: VisionArc::Front180,
        }];
        assert!(visible_units_many(&s, &bad, |_, _| true, |_, _| true, 2).is_err());
    }

    #[test]
    fn refuses_empty_viewer() {
        let s = Scene::new(viewer_bases(), vec![]).unwrap();
        let viewer = Viewer {
            unit: 1,
            eyes: &[],
            arc: VisionArc::Front180,
        };
        assert!(sees(&s, &viewer, 2, |_| true).is_err());
    }
}
