//! The set of shapes on the table for one batch of queries: every base (tagged with its unit id and
//! side) and every terrain piece, with a parry2d BVH over each so that vision, line-of-fire and
//! movement queries only test nearby shapes.
//!
//! The scene knows nothing of rules: "which bases block this sight line", "which are enemies" and
//! "how close may I come" are predicates the caller passes to each query. A scene is cheap to build
//! (hundreds of bases in well under a millisecond), so the rules crate builds one per query batch
//! (e.g. per activation) rather than keeping it in sync.
//!
//! [`BroadPhase::Naive`] switches every query to "test everything" — same answers, for benchmarks
//! and cross-checks.

use crate::contact::contact;
use crate::error::GeoError;
use crate::prim;
use crate::rect::{Edge, Rect};
use crate::scene_terrain::terrain_occluder;
use crate::terrain::TerrainPiece;
use crate::tolerance::CONTACT_EPS;
use glam::Vec2;
use parry2d::bounding_volume::Aabb;
use parry2d::partitioning::{Bvh, BvhBuildStrategy};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

pub(crate) use crate::scene_terrain::TerrainOccluder;

/// One base on the table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SceneBase {
    pub rect: Rect,
    /// The caller's opaque unit id.
    pub unit: u32,
    /// The caller's side (player) number.
    pub side: u8,
}

/// Which spatial index the queries use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum BroadPhase {
    /// parry2d `Bvh` over the bases' and pieces' bounding boxes.
    #[default]
    Bvh,
    /// No index: every query tests every shape (all pairs). Same answers, slower.
    Naive,
}

/// A unit as the scene sees it: its id, side, bases and bounds.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitEntry {
    pub id: u32,
    pub side: u8,
    first: u32,
    count: u32,
    /// Axis-aligned bounds of all its bases.
    pub lo: Vec2,
    pub hi: Vec2,
}

/// A base as a sight blocker: its box in its own frame, shrunk by [`CONTACT_EPS`] on free sides (a
/// line that only grazes it is clear, GEO-5) and grown by [`CONTACT_EPS`] on sides it shares with
/// another base of its unit (so a line cannot slip along the seam between two touching bases).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SightBox {
    c: Vec2,
    r: Vec2,
    f: Vec2,
    lo: Vec2,
    hi: Vec2,
}

impl SightBox {
    /// Corners (counter-clockwise) of the box shrunk by `inset` on every side, if anything is
    /// left.
    pub(crate) fn inset_corners(&self, inset: f32) -> Option<[Vec2; 4]> {
        let lo = self.lo + Vec2::splat(inset);
        let hi = self.hi - Vec2::splat(inset);
        if hi.x <= lo.x || hi.y <= lo.y {
            return None;
        }
        let w = |x: f32, y: f32| self.c + self.r * x + self.f * y;
        Some([w(lo.x, lo.y), w(hi.x, lo.y), w(hi.x, hi.y), w(lo.x, hi.y)])
    }

    /// Does the segment `[a, b]` pass through the box's interior?
    #[inline]
    pub(crate) fn blocks(&self, a: Vec2, b: Vec2) -> bool {
        let da = a - self.c;
        let db = b - self.c;
        let la = Vec2::new(da.dot(self.r), da.dot(self.f));
        let lb = Vec2::new(db.dot(self.r), db.dot(self.f));
        match prim::clip_segment_to_box(la, lb, self.lo, self.hi) {
            Some((t0, t1)) => (t1 - t0) * (lb - la).length() > 1e-6,
            None => false,
        }
    }
}

/// A node of the unit tree: bounds and either two children or one unit (index into
/// [`Scene::units`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct UnitNode {
    pub lo: Vec2,
    pub hi: Vec2,
    /// `Ok(unit index)` for a leaf, `Err((left, right))` node indices otherwise.
    pub kind: Result<u32, (u32, u32)>,
}

fn build_unit_tree(units: &[UnitEntry]) -> Vec<UnitNode> {
    fn build(units: &[UnitEntry], idx: &mut [u32], nodes: &mut Vec<UnitNode>) -> u32 {
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for &i in idx.iter() {
            lo = lo.min(units[i as usize].lo);
            hi = hi.max(units[i as usize].hi);
        }
        let me = nodes.len() as u32;
        nodes.push(UnitNode {
            lo,
            hi,
            kind: Ok(idx[0]),
        });
        if idx.len() > 1 {
            let ext = hi - lo;
            let centre = |i: &u32| (units[*i as usize].lo + units[*i as usize].hi) * 0.5;
            if ext.x >= ext.y {
                idx.sort_by(|a, b| centre(a).x.total_cmp(&centre(b).x));
            } else {
                idx.sort_by(|a, b| centre(a).y.total_cmp(&centre(b).y));
            }
            let mid = idx.len() / 2;
            let (l, r) = idx.split_at_mut(mid);
            let a = build(units, l, nodes);
            let b = build(units, r, nodes);
            nodes[me as usize].kind = Err((a, b));
        }
        me
    }
    let mut nodes = Vec::with_capacity(units.len() * 2);
    if !units.is_empty() {
        let mut idx: Vec<u32> = (0..units.len() as u32).collect();
        build(units, &mut idx, &mut nodes);
    }
    nodes
}

/// Bases, units and terrain with their broad phase.
pub struct Scene {
    bases: Vec<SceneBase>,
    boxes: Vec<SightBox>,
    units: Vec<UnitEntry>,
    /// Per unit (same order as `units`): its bases' union as one sight box, when they tile a
    /// rectangle exactly (a full close-order formation) — a single convex occluder for culling.
    unit_solids: Vec<Option<SightBox>>,
    /// Bounding-volume tree over units, for near-first occlusion-culled vision queries.
    unit_tree: Vec<UnitNode>,
    unit_bases: Vec<u32>,
    /// The terrain with its occluders and tree, shared by every scene of one table.
    prepared: Arc<PreparedTerrain>,
    bvh: Bvh,
    broad: BroadPhase,
}

/// A table's terrain ready for scenes: the pieces (checked), each piece's sight occluders for the
/// culling and a BVH over them. Terrain changes far less often than the bases, so the rules crate
/// prepares it once and shares it ([`Scene::with_terrain`]); building occluders (cutting concave
/// pieces into convex parts) costs more than all the bases of a scene together.
pub struct PreparedTerrain {
    pieces: Vec<TerrainPiece>,
    /// Per terrain piece that blocks sight: its shrunk convex parts, occluders for culling.
    occluders: Vec<Option<TerrainOccluder>>,
    bvh: Bvh,
}

impl PreparedTerrain {
    /// Checks every piece and prepares them.
    pub fn new(pieces: Vec<TerrainPiece>) -> Result<Self, GeoError> {
        for t in &pieces {
            t.check()?;
        }
        let occluders = pieces.iter().map(terrain_occluder).collect();
        let leaves: Vec<Aabb> = pieces
            .iter()
            .map(|t| t.polygon.aabb())
            .map(|(l, h)| aabb_of(l, h))
            .collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
        Ok(Self {
            pieces,
            occluders,
            bvh,
        })
    }

    pub fn pieces(&self) -> &[TerrainPiece] {
        &self.pieces
    }
}

impl core::fmt::Debug for PreparedTerrain {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PreparedTerrain")
            .field("pieces", &self.pieces.len())
            .finish()
    }
}

impl core::fmt::Debug for Scene {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scene")
            .field("bases", &self.bases.len())
            .field("units", &self.units.len())
            .field("terrain", &self.prepared.pieces.len())
            .field("broad", &self.broad)
            .finish()
    }
}

#[inline]
fn aabb_of(lo: Vec2, hi: Vec2) -> Aabb {
    Aabb::new(lo, hi)
}

/// Does the segment `a + t·d`, `t ∈ [0, 1]`, touch the box `[lo, hi]`?
#[inline]
pub(crate) fn segment_hits_aabb(a: Vec2, d: Vec2, lo: Vec2, hi: Vec2) -> bool {
    let mut t0 = 0.0f32;
    let mut t1 = 1.0f32;
    for (p, v, l, h) in [(a.x, d.x, lo.x, hi.x), (a.y, d.y, lo.y, hi.y)] {
        if v.abs() < 1e-12 {
            if p < l || p > h {
                return false;
            }
        } else {
            let inv = 1.0 / v;
            let (mut x, mut y) = ((l - p) * inv, (h - p) * inv);
            if x > y {
                core::mem::swap(&mut x, &mut y);
            }
            t0 = t0.max(x);
            t1 = t1.min(y);
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

impl Scene {
    /// Builds a scene. Every base's rectangle is validated and every unit's bases must share one
    /// side. Base indices in every answer are indices into `bases` as given.
    pub fn new(bases: Vec<SceneBase>, terrain: Vec<TerrainPiece>) -> Result<Self, GeoError> {
        Self::with_terrain(bases, Arc::new(PreparedTerrain::new(terrain)?))
    }

    /// [`Scene::new`] on terrain already prepared (and shared with other scenes of the table).
    pub fn with_terrain(
        bases: Vec<SceneBase>,
        terrain: Arc<PreparedTerrain>,
    ) -> Result<Self, GeoError> {
        Self::with_terrain_after(bases, terrain, None)
    }

    /// [`Scene::with_terrain`], reusing what `previous` worked out for each unit whose bases are
    /// exactly the same (its seams and its solid box: the same inputs give the same answers).
    /// Between two positions of one battle most units have not moved, and their seams are most
    /// of the cost of a scene.
    pub fn with_terrain_after(
        bases: Vec<SceneBase>,
        terrain: Arc<PreparedTerrain>,
        previous: Option<&Scene>,
    ) -> Result<Self, GeoError> {
        for b in &bases {
            b.rect.check("scene base")?;
        }
        // Group base indices by unit id.
        let mut order: Vec<u32> = (0..bases.len() as u32).collect();
        order.sort_by_key(|&i| (bases[i as usize].unit, i));
        let mut units: Vec<UnitEntry> = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            let b = &bases[i as usize];
            let (lo, hi) = b.rect.aabb();
            match units.last_mut() {
                Some(u) if u.id == b.unit => {
                    if u.side != b.side {
                        return Err(GeoError::Degenerate {
                            what: "scene",
                            why: format!(
                                "unit {} has bases on sides {} and {}",
                                b.unit, u.side, b.side
                            ),
                        });
                    }
                    u.count += 1;
                    u.lo = u.lo.min(lo);
                    u.hi = u.hi.max(hi);
                }
                _ => units.push(UnitEntry {
                    id: b.unit,
                    side: b.side,
                    first: k as u32,
                    count: 1,
                    lo,
                    hi,
                }),
            }
        }
        // Per unit, the same unit in `previous` with the very same bases (side and rects, in
        // order), if any.
        let same_before: Vec<Option<&UnitEntry>> = units
            .iter()
            .map(|u| {
                let p = previous?;
                let pu = p.unit(u.id)?;
                let now = &order[u.first as usize..(u.first + u.count) as usize];
                let then = p.entry_base_indices(pu);
                (pu.side == u.side
                    && now.len() == then.len()
                    && now
                        .iter()
                        .zip(then)
                        .all(|(&a, &b)| bases[a as usize].rect == p.bases[b as usize].rect))
                .then_some(pu)
            })
            .collect();
        let boxes = Self::sight_boxes(&bases, &units, &order, |k| {
            let (p, pu) = (previous?, same_before[k]?);
            Some(
                p.entry_base_indices(pu)
                    .iter()
                    .map(|&b| p.boxes[b as usize])
                    .collect(),
            )
        });
        let unit_solids = units
            .iter()
            .enumerate()
            .map(|(k, u)| match (previous, same_before[k]) {
                (Some(p), Some(pu)) => p
                    .units
                    .binary_search_by_key(&pu.id, |x| x.id)
                    .ok()
                    .and_then(|i| p.unit_solids[i]),
                _ => Self::solid_of(&bases, &order, u),
            })
            .collect();
        let unit_tree = build_unit_tree(&units);
        let leaves: Vec<Aabb> = bases
            .iter()
            .map(|b| b.rect.aabb())
            .map(|(l, h)| aabb_of(l, h))
            .collect();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, &leaves);
        Ok(Self {
            bases,
            boxes,
            units,
            unit_solids,
            unit_tree,
            unit_bases: order,
            prepared: terrain,
            bvh,
            broad: BroadPhase::Bvh,
        })
    }

    /// The union of a unit's bases as one sight box, if they all face the same way and tile their
    /// common bounding rectangle exactly (areas add up and no two overlap).
    fn solid_of(bases: &[SceneBase], order: &[u32], u: &UnitEntry) -> Option<SightBox> {
        let idx = &order[u.first as usize..(u.first + u.count) as usize];
        let first = &bases[idx[0] as usize].rect;
        let pose = first.pose;
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        let mut area = 0.0;
        for &i in idx {
            let r = &bases[i as usize].rect;
            if crate::pose::normalize_angle(r.pose.angle - pose.angle).abs()
                > crate::tolerance::PARALLEL_EPS_RAD
            {
                return None;
            }
            for c in r.corners() {
                let l = pose.to_local(c);
                lo = lo.min(l);
                hi = hi.max(l);
            }
            area += r.area();
        }
        let ext = hi - lo;
        if (ext.x * ext.y - area).abs() > 1e-3 * area.max(1.0) {
            return None;
        }
        for (k, &i) in idx.iter().enumerate() {
            for &j in &idx[k + 1..] {
                if prim::convex_overlap(
                    &bases[i as usize].rect.ccw_corners(),
                    &bases[j as usize].rect.ccw_corners(),
                    1e-3,
                ) {
                    return None;
                }
            }
        }
        let half = ext * 0.5;
        let shrink = Vec2::splat(CONTACT_EPS.min(0.25 * half.x.min(half.y)));
        Some(SightBox {
            c: pose.to_world((lo + hi) * 0.5),
            r: pose.right(),
            f: pose.facing(),
            lo: -half + shrink,
            hi: half - shrink,
        })
    }

    /// Every base's sight box; `reuse(k)` gives unit `k`'s boxes (in its base order) when they
    /// are already known.
    fn sight_boxes(
        bases: &[SceneBase],
        units: &[UnitEntry],
        order: &[u32],
        reuse: impl Fn(usize) -> Option<Vec<SightBox>>,
    ) -> Vec<SightBox> {
        let mut boxes: Vec<SightBox> = bases
            .iter()
            .map(|b| {
                let h = b.rect.half;
                let shrink = Vec2::splat(CONTACT_EPS.min(0.25 * h.x.min(h.y)));
                SightBox {
                    c: b.rect.pose.pos,
                    r: b.rect.pose.right(),
                    f: b.rect.pose.facing(),
                    lo: -h + shrink,
                    hi: h - shrink,
                }
            })
            .collect();
        // Seams: an edge covered along its whole length by other bases of the same unit grows.
        for (k, u) in units.iter().enumerate() {
            let idx = &order[u.first as usize..(u.first + u.count) as usize];
            if idx.len() < 2 {
                continue;
            }
            if let Some(known) = reuse(k) {
                for (&i, b) in idx.iter().zip(known) {
                    boxes[i as usize] = b;
                }
                continue;
            }
            for &i in idx {
                let mut covered = [0.0f32; 4];
                let (ilo, ihi) = bases[i as usize].rect.aabb();
                for &j in idx {
                    if i == j {
                        continue;
                    }
                    // Only bases whose boxes touch can share an edge (most pairs of a unit do not).
                    let (jlo, jhi) = bases[j as usize].rect.aabb();
                    if jlo.x > ihi.x + CONTACT_EPS
                        || jlo.y > ihi.y + CONTACT_EPS
                        || ilo.x > jhi.x + CONTACT_EPS
                        || ilo.y > jhi.y + CONTACT_EPS
                    {
                        continue;
                    }
                    if let Ok(c) = contact(&bases[i as usize].rect, &bases[j as usize].rect) {
                        for ec in c.edge_contacts() {
                            covered[ec.edge_a as usize] += ec.length;
                        }
                    }
                }
                let r = &bases[i as usize].rect;
                let bx = &mut boxes[i as usize];
                for e in Edge::ALL {
                    let len = r.edge(e).length();
                    if covered[e as usize] >= len - CONTACT_EPS {
                        match e {
                            Edge::Front => bx.hi.y = r.half.y + CONTACT_EPS,
                            Edge::Rear => bx.lo.y = -r.half.y - CONTACT_EPS,
                            Edge::Right => bx.hi.x = r.half.x + CONTACT_EPS,
                            Edge::Left => bx.lo.x = -r.half.x - CONTACT_EPS,
                        }
                    }
                }
            }
        }
        boxes
    }

    /// The same scene answering through another broad phase.
    pub fn with_broad_phase(mut self, broad: BroadPhase) -> Self {
        self.broad = broad;
        self
    }

    pub fn broad_phase(&self) -> BroadPhase {
        self.broad
    }

    pub fn bases(&self) -> &[SceneBase] {
        &self.bases
    }

    pub fn terrain(&self) -> &[TerrainPiece] {
        &self.prepared.pieces
    }

    /// The prepared terrain, to build another scene on the same table.
    pub fn prepared_terrain(&self) -> &Arc<PreparedTerrain> {
        &self.prepared
    }

    /// Units, sorted by id.
    pub fn units(&self) -> &[UnitEntry] {
        &self.units
    }

    pub fn unit(&self, id: u32) -> Option<&UnitEntry> {
        self.units
            .binary_search_by_key(&id, |u| u.id)
            .ok()
            .map(|k| &self.units[k])
    }

    /// Indices (into [`Self::bases`]) of a unit's bases, in input order.
    pub fn unit_base_indices(&self, id: u32) -> &[u32] {
        match self.unit(id) {
            Some(u) => &self.unit_bases[u.first as usize..(u.first + u.count) as usize],
            None => &[],
        }
    }

    /// Indices of a unit entry's bases.
    pub fn entry_base_indices(&self, u: &UnitEntry) -> &[u32] {
        &self.unit_bases[u.first as usize..(u.first + u.count) as usize]
    }

    /// A unit's base rectangles.
    pub fn unit_rects(&self, id: u32) -> impl Iterator<Item = &Rect> + '_ {
        self.unit_base_indices(id)
            .iter()
            .map(move |&i| &self.bases[i as usize].rect)
    }

    pub(crate) fn sight_box(&self, i: usize) -> &SightBox {
        &self.boxes[i]
    }

    pub(crate) fn unit_solid(&self, unit_index: usize) -> Option<&SightBox> {
        self.unit_solids[unit_index].as_ref()
    }

    pub(crate) fn terrain_occluder(&self, i: usize) -> Option<&TerrainOccluder> {
        self.prepared.occluders[i].as_ref()
    }

    pub(crate) fn unit_tree(&self) -> &[UnitNode] {
        &self.unit_tree
    }

    /// Calls `f` with the index of every base whose bounding box meets `[lo, hi]`; `f` returns
    /// `false` to stop early.
    pub(crate) fn for_each_base_in_aabb(
        &self,
        lo: Vec2,
        hi: Vec2,
        mut f: impl FnMut(usize) -> bool,
    ) {
        match self.broad {
            BroadPhase::Bvh => {
                let q = aabb_of(lo, hi);
                for i in self.bvh.intersect_aabb(&q) {
                    if !f(i as usize) {
                        return;
                    }
                }
            }
            BroadPhase::Naive => {
                for i in 0..self.bases.len() {
                    if !f(i) {
                        return;
                    }
                }
            }
        }
    }

    /// Calls `f` with every base whose bounding box, grown by `margin`, the segment `[a, b]` meets
    /// (all bases for the naive broad phase); `f` returns `false` to stop early.
    pub(crate) fn for_each_base_near_segment(
        &self,
        a: Vec2,
        b: Vec2,
        margin: f32,
        mut f: impl FnMut(usize) -> bool,
    ) {
        match self.broad {
            BroadPhase::Bvh => {
                let d = b - a;
                let m = Vec2::splat(margin);
                let it = self
                    .bvh
                    .leaves(|n| segment_hits_aabb(a, d, n.mins() - m, n.maxs() + m));
                for i in it {
                    if !f(i as usize) {
                        return;
                    }
                }
            }
            BroadPhase::Naive => {
                for i in 0..self.bases.len() {
                    if !f(i) {
                        return;
                    }
                }
            }
        }
    }

    /// Terrain pieces whose bounding box meets `[lo, hi]` (all of them for the naive phase).
    pub(crate) fn for_each_terrain_in_aabb(
        &self,
        lo: Vec2,
        hi: Vec2,
        mut f: impl FnMut(usize) -> bool,
    ) {
        match self.broad {
            BroadPhase::Bvh => {
                let q = aabb_of(lo, hi);
                for i in self.prepared.bvh.intersect_aabb(&q) {
                    if !f(i as usize) {
                        return;
                    }
                }
            }
            BroadPhase::Naive => {
                for i in 0..self.prepared.pieces.len() {
                    if !f(i) {
                        return;
                    }
                }
            }
        }
    }

    /// Terrain pieces whose bounding box, grown by `margin`, the segment `[a, b]` meets.
    pub(crate) fn for_each_terrain_near_segment(
        &self,
        a: Vec2,
        b: Vec2,
        margin: f32,
        mut f: impl FnMut(usize) -> bool,
    ) {
        match self.broad {
            BroadPhase::Bvh => {
                let d = b - a;
                let m = Vec2::splat(margin);
                for i in self
                    .prepared
                    .bvh
                    .leaves(|n| segment_hits_aabb(a, d, n.mins() - m, n.maxs() + m))
                {
                    if !f(i as usize) {
                        return;
                    }
                }
            }
            BroadPhase::Naive => {
                for i in 0..self.prepared.pieces.len() {
                    if !f(i) {
                        return;
                    }
                }
            }
        }
    }

    /// Indices of the bases whose bounding boxes meet the box `[lo, hi]` (a broad-phase query;
    /// the caller tests the shapes).
    pub fn bases_in_aabb(&self, lo: Vec2, hi: Vec2) -> Result<Vec<usize>, GeoError> {
        crate::error::check_point("box corner", lo)?;
        crate::error::check_point("box corner", hi)?;
        let mut out = Vec::new();
        self.for_each_base_in_aabb(lo.min(hi), lo.max(hi), |i| {
            out.push(i);
            true
        });
        out.sort_unstable();
        Ok(out)
    }

    /// Indices of the bases that come within `margin` of the segment `[a, b]` (exact test after
    /// the broad phase), e.g. what a line of fire must keep clear of.
    pub fn bases_near_segment(
        &self,
        a: Vec2,
        b: Vec2,
        margin: f32,
    ) -> Result<Vec<usize>, GeoError> {
        crate::error::check_point("segment start", a)?;
        crate::error::check_point("segment end", b)?;
        crate::error::check_non_negative("margin", margin)?;
        let mut out = Vec::new();
        self.for_each_base_near_segment(a, b, margin, |i| {
            if crate::distance::segment_rect_unchecked(a, b, &self.bases[i].rect)
                <= margin + crate::tolerance::LIMIT_EPS
            {
                out.push(i);
            }
            true
        });
        out.sort_unstable();
        Ok(out)
    }

    /// Indices of the terrain pieces a rectangle overlaps by more than a sliver, with the area.
    pub fn terrain_under(&self, r: &Rect) -> Result<Vec<(usize, f32)>, GeoError> {
        r.check("rectangle")?;
        let (lo, hi) = r.aabb();
        let mut out = Vec::new();
        self.for_each_terrain_in_aabb(lo, hi, |i| {
            let a = crate::terrain::overlap_area_unchecked(&self.prepared.pieces[i].polygon, r);
            if a > crate::tolerance::AREA_EPS_CM2 {
                out.push((i, a));
            }
            true
        });
        out.sort_by_key(|x| x.0);
        Ok(out)
    }

    /// The bases within `radius` of a point, as indices (e.g. "every base within 5 cm of the
    /// exploding wagon", BFS-WAG-11).
    pub fn bases_within(&self, p: Vec2, radius: f32) -> Result<Vec<usize>, GeoError> {
        crate::error::check_point("point", p)?;
        crate::error::check_non_negative("radius", radius)?;
        let mut out = Vec::new();
        let m = Vec2::splat(radius);
        self.for_each_base_in_aabb(p - m, p + m, |i| {
            if self.bases[i].rect.distance_to_point(p) <= radius + crate::tolerance::LIMIT_EPS {
                out.push(i);
            }
            true
        });
        out.sort_unstable();
        Ok(out)
    }

    /// The bases within `radius` of a rectangle (distance between shapes, GEO-2), as indices.
    pub fn bases_near_rect(&self, r: &Rect, radius: f32) -> Result<Vec<usize>, GeoError> {
        r.check("rectangle")?;
        crate::error::check_non_negative("radius", radius)?;
        let (lo, hi) = r.aabb();
        let m = Vec2::splat(radius);
        let mut out = Vec::new();
        self.for_each_base_in_aabb(lo - m, hi + m, |i| {
            if crate::distance::rect_distance_unchecked(r, &self.bases[i].rect)
                <= radius + crate::tolerance::LIMIT_EPS
            {
                out.push(i);
            }
            true
        });
        out.sort_unstable();
        Ok(out)
    }

    /// Distance between two units (nearest bases) if it is at most `limit` (plus the shared
    /// slack), else `None`: the same distance as [`Self::unit_distance`], skipping the exact
    /// measurement for units (and base pairs) whose bounding boxes are already farther apart.
    pub fn unit_distance_within(
        &self,
        a: u32,
        b: u32,
        limit: f32,
    ) -> Result<Option<f32>, GeoError> {
        crate::error::check_non_negative("limit", limit)?;
        let (Some(ua), Some(ub)) = (self.unit(a), self.unit(b)) else {
            return Err(GeoError::OutOfRange {
                what: "unit id",
                why: format!("unit {a} or {b} is not in the scene"),
            });
        };
        // Bounding-box gaps are lower bounds of the distance; the margin covers rounding.
        let far = |alo: Vec2, ahi: Vec2, blo: Vec2, bhi: Vec2, d: f32| {
            let g = (blo - ahi).max(alo - bhi).max(Vec2::ZERO);
            g.length() > d + 1e-3
        };
        if far(
            ua.lo,
            ua.hi,
            ub.lo,
            ub.hi,
            limit + crate::tolerance::LIMIT_EPS,
        ) {
            return Ok(None);
        }
        let mut d = f32::INFINITY;
        for &i in self.entry_base_indices(ua) {
            let ra = &self.bases[i as usize].rect;
            let (alo, ahi) = ra.aabb();
            for &j in self.entry_base_indices(ub) {
                let rb = &self.bases[j as usize].rect;
                let (blo, bhi) = rb.aabb();
                if !far(alo, ahi, blo, bhi, d) {
                    d = d.min(crate::distance::rect_distance_unchecked(ra, rb));
                }
            }
        }
        Ok((d <= limit + crate::tolerance::LIMIT_EPS).then_some(d))
    }

    /// Distance between two units (nearest bases, GEO-2/GEO-15).
    pub fn unit_distance(&self, a: u32, b: u32) -> Result<f32, GeoError> {
        let ia = self.unit_base_indices(a);
        let ib = self.unit_base_indices(b);
        if ia.is_empty() || ib.is_empty() {
            return Err(GeoError::OutOfRange {
                what: "unit id",
                why: format!("unit {a} or {b} is not in the scene"),
            });
        }
        let mut d = f32::INFINITY;
        for &i in ia {
            for &j in ib {
                d = d.min(crate::distance::rect_distance_unchecked(
                    &self.bases[i as usize].rect,
                    &self.bases[j as usize].rect,
                ));
            }
        }
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sb(x: f32, y: f32, unit: u32, side: u8) -> SceneBase {
        SceneBase {
            rect: Rect::try_new(Vec2::new(x, y), Vec2::new(4.0, 2.0), 0.0).unwrap(),
            unit,
            side,
        }
    }

    /// A scene built after another reuses the seams and solid boxes of units that did not move,
    /// and gives exactly what a fresh build gives, for moved and unmoved units alike.
    #[test]
    fn a_scene_built_after_another_equals_a_fresh_one() {
        let line = |x: f32, y: f32, unit: u32, side: u8| {
            (0..3)
                .map(|k| sb(x + 4.0 * k as f32, y, unit, side))
                .collect::<Vec<_>>()
        };
        let mut first = line(0.0, 0.0, 1, 0);
        first.extend(line(0.0, 10.0, 2, 1));
        first.extend(line(20.0, 0.0, 3, 0));
        let terrain = Arc::new(PreparedTerrain::new(vec![]).unwrap());
        let a = Scene::with_terrain(first.clone(), terrain.clone()).unwrap();
        // Unit 2 moves; unit 3 changes side (it is another unit now), unit 1 stays.
        let mut second = line(0.0, 0.0, 1, 0);
        second.extend(line(1.0, 12.0, 2, 1));
        second.extend(line(20.0, 0.0, 3, 1));
        let fresh = Scene::with_terrain(second.clone(), terrain.clone()).unwrap();
        let after = Scene::with_terrain_after(second, terrain, Some(&a)).unwrap();
        let key = |b: &SightBox| (b.c, b.r, b.f, b.lo, b.hi);
        let boxes = |s: &Scene| s.boxes.iter().map(key).collect::<Vec<_>>();
        assert_eq!(boxes(&after), boxes(&fresh));
        let solids = |s: &Scene| {
            s.unit_solids
                .iter()
                .map(|o| o.as_ref().map(key))
                .collect::<Vec<_>>()
        };
        assert_eq!(solids(&after), solids(&fresh));
        assert!(
            solids(&fresh).iter().all(|s| s.is_some()),
            "lines are solid"
        );
    }

    #[test]
    fn groups_units_and_refuses_mixed_sides() {
        let s = Scene::new(
            vec![sb(0.0, 0.0, 5, 0), sb(20.0, 0.0, 2, 1), sb(4.0, 0.0, 5, 0)],
            vec![],
        )
        .unwrap();
        assert_eq!(s.units().len(), 2);
        assert_eq!(s.unit_base_indices(5), &[0, 2]);
        assert_eq!(s.unit(2).unwrap().side, 1);
        assert!(s.unit(9).is_none());
        assert!(Scene::new(vec![sb(0.0, 0.0, 5, 0), sb(4.0, 0.0, 5, 1)], vec![]).is_err());
        // 16 − 2 − 2 = 12 cm between the unit at x ∈ [-2, 6] and the one at x ∈ [18, 22].
        assert!((s.unit_distance(5, 2).unwrap() - 12.0).abs() < 1e-5);
        assert_eq!(
            s.unit_distance_within(5, 2, 12.0).unwrap(),
            Some(s.unit_distance(5, 2).unwrap())
        );
        assert_eq!(s.unit_distance_within(5, 2, 11.9).unwrap(), None);
        assert!(s.unit_distance_within(5, 9, 1.0).is_err());
    }

    #[test]
    fn broad_phases_agree() {
        let mut v = Vec::new();
        for i in 0..50 {
            v.push(sb(
                (i % 10) as f32 * 6.0,
                (i / 10) as f32 * 5.0,
                i,
                (i % 2) as u8,
            ));
        }
        let s = Scene::new(v.clone(), vec![]).unwrap();
        let n = Scene::new(v, vec![])
            .unwrap()
            .with_broad_phase(BroadPhase::Naive);
        for (p, r) in [
            (Vec2::new(10.0, 10.0), 5.0),
            (Vec2::new(30.0, 0.0), 1.0),
            (Vec2::new(-50.0, 0.0), 3.0),
        ] {
            assert_eq!(s.bases_within(p, r).unwrap(), n.bases_within(p, r).unwrap());
        }
        let probe = Rect::try_new(Vec2::new(12.0, 12.0), Vec2::new(4.0, 4.0), 0.5).unwrap();
        assert_eq!(
            s.bases_near_rect(&probe, 2.0).unwrap(),
            n.bases_near_rect(&probe, 2.0).unwrap()
        );
        let hits = s
            .bases_near_segment(Vec2::new(-5.0, 0.0), Vec2::new(100.0, 0.0), 0.0)
            .unwrap();
        assert_eq!(hits, (0..10).collect::<Vec<_>>());
        assert_eq!(
            hits,
            n.bases_near_segment(Vec2::new(-5.0, 0.0), Vec2::new(100.0, 0.0), 0.0)
                .unwrap()
        );
        assert_eq!(
            s.bases_in_aabb(Vec2::new(-1.0, -1.0), Vec2::new(1.0, 1.0))
                .unwrap(),
            vec![0]
        );
        assert!(
            s.bases_near_segment(Vec2::new(f32::NAN, 0.0), Vec2::ZERO, 0.0)
                .is_err()
        );
    }

    #[test]
    fn seams_between_touching_bases_block_but_free_edges_graze() {
        // Two bases of one unit side by side: x ∈ [-2, 2] and [2, 6], y ∈ [-1, 1].
        let s = Scene::new(vec![sb(0.0, 0.0, 1, 0), sb(4.0, 0.0, 1, 0)], vec![]).unwrap();
        let along_seam = (Vec2::new(2.0, -10.0), Vec2::new(2.0, 10.0));
        assert!(
            s.sight_box(0).blocks(along_seam.0, along_seam.1)
                || s.sight_box(1).blocks(along_seam.0, along_seam.1)
        );
        // Along the unit's outer front edge: grazing, clear.
        let along_front = (Vec2::new(-10.0, 1.0), Vec2::new(10.0, 1.0));
        assert!(!s.sight_box(0).blocks(along_front.0, along_front.1));
        assert!(!s.sight_box(1).blocks(along_front.0, along_front.1));
        // Two bases of different units touching the same way: the seam is clear (they are
        // separate blockers; the gap between units is theirs to keep).
        let t = Scene::new(vec![sb(0.0, 0.0, 1, 0), sb(4.0, 0.0, 2, 0)], vec![]).unwrap();
        assert!(
            !t.sight_box(0).blocks(along_seam.0, along_seam.1)
                && !t.sight_box(1).blocks(along_seam.0, along_seam.1)
        );
    }
}
