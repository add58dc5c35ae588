//! Terrain pieces: polygons with the flags the geometry needs (does it block sight, is it
//! impassable). What a piece *is* (wood, river, hill) and what it costs belongs to the rules crate;
//! the geometry answers where shapes and paths are relative to it (BFS-GEOC-7): which pieces a base
//! is in, which it crosses while moving, and the length of a path inside each piece.

use crate::error::{GeoError, check_point};
use crate::polygon::Polygon;
use crate::prim;
use crate::rect::{Rect, Segment};
use crate::tolerance::{AREA_EPS_CM2, CONTACT_EPS, PATH_MARGIN_CM};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// How a piece treats a line of sight (GEO-5) or of fire (GEO-7).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub enum SightBlock {
    /// Does not block (open ground, a stream, a low hill the rules treat elsewhere).
    #[default]
    Clear,
    /// Blocks any line that passes through its interior (grazing within [`CONTACT_EPS`] is clear).
    Blocks,
    /// Lets a line through while at most this many cm of it lie inside the piece, e.g. the 5 cm one
    /// may see into or out of a wood (BFS-TER-23/24).
    BlocksBeyond(f32),
    /// A rise of ground: blocks a line through its interior unless the line starts or ends on
    /// it. A hill hides what is behind it, but whoever stands on it sees over it and is seen
    /// (BFS-TER-9, BFS-TER-20).
    Rise,
}

/// A terrain piece on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TerrainPiece {
    /// The caller's id, reported back by queries.
    pub id: u32,
    pub polygon: Polygon,
    pub sight: SightBlock,
    /// Moves and wheels may not enter it (GEO-9).
    pub impassable: bool,
}

impl TerrainPiece {
    /// A piece that neither blocks sight nor movement; set the flags with the builders.
    pub fn new(id: u32, polygon: Polygon) -> Self {
        Self {
            id,
            polygon,
            sight: SightBlock::Clear,
            impassable: false,
        }
    }

    pub fn with_sight(mut self, sight: SightBlock) -> Self {
        self.sight = sight;
        self
    }

    pub fn with_impassable(mut self, impassable: bool) -> Self {
        self.impassable = impassable;
        self
    }

    /// Checks the flags (the polygon validated itself when built).
    pub fn check(&self) -> Result<(), GeoError> {
        if let SightBlock::BlocksBeyond(d) = self.sight {
            crate::error::check_non_negative("sight depth", d)?;
        }
        Ok(())
    }

    /// Is `p` in the piece (boundary within [`CONTACT_EPS`] included)?
    pub fn contains_point(&self, p: Vec2) -> Result<bool, GeoError> {
        check_point("point", p)?;
        Ok(self.polygon.contains(p))
    }

    /// Area (cm²) of `r` inside the piece.
    pub fn overlap_area(&self, r: &Rect) -> Result<f32, GeoError> {
        r.check("rectangle")?;
        Ok(overlap_area_unchecked(&self.polygon, r))
    }

    /// Is `r` outside, partly inside or wholly inside the piece? "In terrain" is any overlap of
    /// more than a sliver (BFS-GEOC-7: area > 0).
    pub fn overlap(&self, r: &Rect) -> Result<Overlap, GeoError> {
        let a = self.overlap_area(r)?;
        Ok(if a <= AREA_EPS_CM2 {
            Overlap::Outside
        } else if a >= r.area() - AREA_EPS_CM2.max(r.area() * 1e-5) {
            Overlap::Inside
        } else {
            Overlap::Partial
        })
    }

    /// Length (cm) of the segment inside the piece: a movement path for terrain penalties.
    pub fn path_length_inside(&self, s: &Segment) -> Result<f32, GeoError> {
        check_point("path start", s.a)?;
        check_point("path end", s.b)?;
        Ok(length_inside(&self.polygon, s.a, s.b, PATH_MARGIN_CM))
    }

    /// The first fraction `t ∈ [0, 1]` of a rotation of `r` about `pivot` by `theta` (signed,
    /// counter-clockwise positive) at which `r` meets the piece: `0` when it already touches it,
    /// `None` when the whole rotation keeps clear. Exact, from [`crate::cast::rotate`]; this is
    /// how a wheel finds the slowing ground it reaches on its way, not only where it ends
    /// (BFS-TER-2/3).
    pub fn wheel_entry(&self, r: &Rect, pivot: Vec2, theta: f32) -> Result<Option<f32>, GeoError> {
        self.wheel_entry_as(false, r, pivot, theta)
    }

    /// [`Self::wheel_entry`], or with `legacy` as it answered before a rectangle that already
    /// overlapped the piece by a sliver was caught: the cast sees an overlapping shape only
    /// leave, so a base whose corner poked a hundredth of a cm into a wood, turning about its
    /// own centre deep into it, met nothing (found by the property tests at 20 000 cases).
    /// Kept only so that battles recorded before the fix replay.
    pub fn wheel_entry_as(
        &self,
        legacy: bool,
        r: &Rect,
        pivot: Vec2,
        theta: f32,
    ) -> Result<Option<f32>, GeoError> {
        r.check("rectangle")?;
        check_point("pivot", pivot)?;
        crate::error::check_finite("angle", &[theta])?;
        if theta == 0.0 {
            return Ok(None);
        }
        if !legacy && overlap_area_unchecked(&self.polygon, r) > 0.0 {
            return Ok(Some(0.0));
        }
        let corners = r.ccw_corners();
        // The sweep stays within the disc about the pivot through the farthest corner: a piece
        // whose box keeps out of the disc's box is never met (most pieces, most wheels).
        let reach = corners
            .iter()
            .map(|c| c.distance_squared(pivot))
            .fold(0.0f32, f32::max)
            .sqrt()
            + crate::tolerance::CONTACT_EPS;
        let (lo, hi) = self.polygon.aabb();
        if pivot.x + reach < lo.x
            || pivot.y + reach < lo.y
            || pivot.x - reach > hi.x
            || pivot.y - reach > hi.y
        {
            return Ok(None);
        }
        let hit = crate::cast::rotate(
            crate::cast::CastShape {
                verts: &corners,
                convex: true,
            },
            pivot,
            theta.signum(),
            theta.abs(),
            crate::cast::CastShape {
                verts: self.polygon.vertices(),
                convex: self.polygon.is_convex(),
            },
            0.0,
        );
        Ok(hit.map(|h| (h.at / theta.abs()).clamp(0.0, 1.0)))
    }

    /// The first fraction of a straight move by `delta` at which any of `rects` meets the piece
    /// ([`Self::swept_intervals`]), `None` when none does: where a move reaches the ground
    /// (BFS-TER-2/3). A rectangle whose swept box misses the piece's is skipped unmeasured.
    pub fn first_entry_moving<'r>(
        &self,
        rects: impl IntoIterator<Item = &'r Rect>,
        delta: Vec2,
    ) -> Option<f32> {
        let (plo, phi) = self.polygon.aabb();
        rects
            .into_iter()
            .filter_map(|r| {
                let (lo, hi) = r.aabb();
                let (lo, hi) = (lo.min(lo + delta), hi.max(hi + delta));
                if plo.x > hi.x || plo.y > hi.y || phi.x < lo.x || phi.y < lo.y {
                    return None;
                }
                self.swept_intervals(r, delta).ok()?.first().map(|iv| iv.0)
            })
            .reduce(f32::min)
    }

    /// The first fraction of a rotation about `pivot` by `theta` at which any of `rects` meets
    /// the piece ([`Self::wheel_entry`]), `None` when none does.
    pub fn first_entry_turning<'r>(
        &self,
        rects: impl IntoIterator<Item = &'r Rect>,
        pivot: Vec2,
        theta: f32,
    ) -> Option<f32> {
        self.first_entry_turning_as(false, rects, pivot, theta)
    }

    /// [`Self::first_entry_turning`], `legacy` as in [`Self::wheel_entry_as`].
    pub fn first_entry_turning_as<'r>(
        &self,
        legacy: bool,
        rects: impl IntoIterator<Item = &'r Rect>,
        pivot: Vec2,
        theta: f32,
    ) -> Option<f32> {
        rects
            .into_iter()
            .filter_map(|r| self.wheel_entry_as(legacy, r, pivot, theta).ok().flatten())
            .reduce(f32::min)
    }

    /// Parameter intervals `t ∈ [0, 1]` during which `r` moved by `t · delta` overlaps the piece,
    /// sorted and merged. Exact: the piece is split into triangles, and `r` overlaps a triangle
    /// exactly while `t · delta` lies in the (convex) Minkowski difference of the two.
    pub fn swept_intervals(&self, r: &Rect, delta: Vec2) -> Result<Vec<(f32, f32)>, GeoError> {
        r.check("rectangle")?;
        check_point("move", delta)?;
        let rc = r.corners();
        let v = self.polygon.vertices();
        let mut out: Vec<(f32, f32)> = Vec::new();
        let mut pts: Vec<Vec2> = Vec::with_capacity(12);
        for tri in self.polygon.triangles() {
            pts.clear();
            for &i in tri {
                for c in &rc {
                    pts.push(v[i] - *c);
                }
            }
            let hull = prim::convex_hull(&mut pts);
            if let Some((t0, t1)) = prim::clip_segment_to_convex(Vec2::ZERO, delta, &hull)
                && t1 > t0
            {
                out.push((t0, t1));
            }
        }
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f32, f32)> = Vec::with_capacity(out.len());
        for (a, b) in out {
            match merged.last_mut() {
                Some(last) if a <= last.1 + 1e-6 => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        Ok(merged)
    }

    /// Distance (cm) that `r` travels, moved straight by `delta`, while overlapping the piece.
    pub fn swept_length_inside(&self, r: &Rect, delta: Vec2) -> Result<f32, GeoError> {
        let len = delta.length();
        Ok(self
            .swept_intervals(r, delta)?
            .iter()
            .map(|(a, b)| (b - a) * len)
            .sum())
    }
}

/// Where a rectangle is relative to a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Overlap {
    Outside,
    Partial,
    Inside,
}

pub(crate) fn overlap_area_unchecked(poly: &Polygon, r: &Rect) -> f32 {
    let (lo, hi) = poly.aabb();
    let (rlo, rhi) = r.aabb();
    if rhi.x < lo.x || rhi.y < lo.y || rlo.x > hi.x || rlo.y > hi.y {
        return 0.0;
    }
    prim::signed_area(&prim::clip_by_convex(poly.vertices(), &r.ccw_corners())).max(0.0)
}

/// How far the segment `[a, b]` runs inside `poly` (cm), a graze along its boundary (within half
/// of [`CONTACT_EPS`]) not counted: a line of fire "through" a wood (BFS-TER-23/24) runs a
/// stretch of it inside, one along its edge does not.
pub fn segment_length_inside(poly: &Polygon, a: Vec2, b: Vec2) -> Result<f32, GeoError> {
    check_point("segment start", a)?;
    check_point("segment end", b)?;
    Ok(length_inside(poly, a, b, 0.5 * CONTACT_EPS))
}

/// How far along `[a, b]` it crosses the edge `[p, q]`, a crossing at the edge's very end
/// included: rounding may put a line through a vertex a hair outside both edges that meet there,
/// and without it a line entering a piece at a corner and leaving by an edge counted as never
/// inside (a sight line through a wood's corner, found by the property tests at 40 000 cases).
/// A crossing counted twice, or one that is only a touch, does no harm: the stretches between
/// crossings are judged by their middles.
fn crossing_param(a: Vec2, b: Vec2, p: Vec2, q: Vec2) -> Option<f32> {
    /// Slack on each segment's parameter, far above the rounding of table coordinates.
    const SLACK: f32 = 1e-4;
    prim::segment_crossing_param_within(a, b, p, q, SLACK)
}

/// Length of `[a, b]` inside the polygon, counting only stretches whose middle is more than
/// `margin` from the boundary (so a line running along an edge, or clipping a corner by less than
/// `margin`, counts as outside). Path lengths use [`PATH_MARGIN_CM`].
pub(crate) fn length_inside(poly: &Polygon, a: Vec2, b: Vec2, margin: f32) -> f32 {
    let (lo, hi) = poly.aabb();
    if a.x.max(b.x) < lo.x || a.y.max(b.y) < lo.y || a.x.min(b.x) > hi.x || a.y.min(b.y) > hi.y {
        return 0.0;
    }
    // Crossing parameters; a stack buffer covers every sensible piece without allocating.
    let mut buf = [0.0f32; 48];
    let mut n = 2usize;
    buf[1] = 1.0;
    let mut spill: Vec<f32> = Vec::new();
    for (p, q) in poly.edges() {
        if let Some(t) = crossing_param(a, b, p, q) {
            if n < buf.len() {
                buf[n] = t;
                n += 1;
            } else {
                spill.push(t);
            }
        }
    }
    if spill.is_empty() {
        inside_between(poly, a, b, margin, &mut buf[..n])
    } else {
        spill.extend_from_slice(&buf[..n]);
        inside_between(poly, a, b, margin, &mut spill)
    }
}

fn inside_between(poly: &Polygon, a: Vec2, b: Vec2, margin: f32, ts: &mut [f32]) -> f32 {
    ts.sort_by(f32::total_cmp);
    let len = a.distance(b);
    let mut inside = 0.0;
    for w in ts.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        if t1 - t0 <= 0.0 {
            continue;
        }
        let m = a + (b - a) * (0.5 * (t0 + t1));
        if prim::point_in_polygon(m, poly.vertices()) && poly.boundary_distance(m) > margin {
            inside += (t1 - t0) * len;
        }
    }
    inside
}

/// Does this piece block the sight segment `[a, b]` (GEO-5)?
pub(crate) fn blocks_sight(piece: &TerrainPiece, a: Vec2, b: Vec2) -> bool {
    match piece.sight {
        SightBlock::Clear => false,
        SightBlock::Blocks => length_inside_exceeds(&piece.polygon, a, b, 0.5 * CONTACT_EPS, 0.0),
        SightBlock::BlocksBeyond(d) => {
            length_inside_exceeds(&piece.polygon, a, b, 0.5 * CONTACT_EPS, d + CONTACT_EPS)
        }
        SightBlock::Rise => rise_blocks(&piece.polygon, a, b, |poly, a, b| {
            length_inside_exceeds(poly, a, b, 0.5 * CONTACT_EPS, 0.0)
        }),
    }
}

/// A rise blocks `[a, b]` when neither end stands on it and `crosses` says the line passes
/// through it (the caller's measure of crossing: sight or fire).
pub(crate) fn rise_blocks(
    poly: &Polygon,
    a: Vec2,
    b: Vec2,
    crosses: impl Fn(&Polygon, Vec2, Vec2) -> bool,
) -> bool {
    !poly.contains(a) && !poly.contains(b) && crosses(poly, a, b)
}

/// `length_inside(poly, a, b, margin) > limit` (for `limit ≥ 0`), with the very same arithmetic,
/// stopping as soon as the answer is known: the length is a sum of non-negative stretches taken
/// in order, so once a partial sum exceeds `limit` the whole does; a stretch's middle is deep
/// unless some edge comes within `margin` of it.
pub(crate) fn length_inside_exceeds(
    poly: &Polygon,
    a: Vec2,
    b: Vec2,
    margin: f32,
    limit: f32,
) -> bool {
    let (lo, hi) = poly.aabb();
    if a.x.max(b.x) < lo.x || a.y.max(b.y) < lo.y || a.x.min(b.x) > hi.x || a.y.min(b.y) > hi.y {
        return 0.0 > limit;
    }
    let mut buf = [0.0f32; 48];
    let mut n = 2usize;
    buf[1] = 1.0;
    let mut spill: Vec<f32> = Vec::new();
    for (p, q) in poly.edges() {
        if let Some(t) = crossing_param(a, b, p, q) {
            if n < buf.len() {
                buf[n] = t;
                n += 1;
            } else {
                spill.push(t);
            }
        }
    }
    let ts: &mut [f32] = if spill.is_empty() {
        &mut buf[..n]
    } else {
        spill.extend_from_slice(&buf[..n]);
        &mut spill
    };
    ts.sort_by(f32::total_cmp);
    let len = a.distance(b);
    let v = poly.vertices();
    let k = v.len();
    let mut inside = 0.0;
    for w in ts.windows(2) {
        let (t0, t1) = (w[0], w[1]);
        if t1 - t0 <= 0.0 {
            continue;
        }
        let m = a + (b - a) * (0.5 * (t0 + t1));
        // `boundary_distance(m) > margin`, an edge at a time (a NaN distance, which `min`
        // skips there, is skipped here too).
        let deep = (0..k).all(|i| {
            let d = prim::point_segment_distance(m, v[i], v[(i + 1) % k]);
            d > margin || d.is_nan()
        });
        if deep && prim::point_in_polygon(m, v) {
            inside += (t1 - t0) * len;
            if inside > limit {
                return true;
            }
        }
    }
    inside > limit
}

/// The pieces a rectangle overlaps by more than a sliver, with the area inside each, as
/// `(index into pieces, area)`.
pub fn pieces_under(pieces: &[TerrainPiece], r: &Rect) -> Result<Vec<(usize, f32)>, GeoError> {
    r.check("rectangle")?;
    Ok(pieces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let a = overlap_area_unchecked(&p.polygon, r);
            (a > AREA_EPS_CM2).then_some((i, a))
        })
        .collect())
}

/// The length of a path segment inside each piece it enters, as `(index into pieces, length)`.
pub fn path_lengths(pieces: &[TerrainPiece], s: &Segment) -> Result<Vec<(usize, f32)>, GeoError> {
    check_point("path start", s.a)?;
    check_point("path end", s.b)?;
    Ok(pieces
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let l = length_inside(&p.polygon, s.a, s.b, PATH_MARGIN_CM);
            (l > 0.0).then_some((i, l))
        })
        .collect())
}

/// The pieces a rectangle crosses (overlaps at some point) while moved straight by `delta`, with the
/// distance travelled while overlapping each, as `(index into pieces, length)`.
pub fn pieces_crossed(
    pieces: &[TerrainPiece],
    r: &Rect,
    delta: Vec2,
) -> Result<Vec<(usize, f32)>, GeoError> {
    let mut out = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        let l = p.swept_length_inside(r, delta)?;
        let touched_at_rest = l == 0.0 && overlap_area_unchecked(&p.polygon, r) > AREA_EPS_CM2;
        if l > 0.0 || touched_at_rest {
            out.push((i, l));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sight line entering a wood through one of its corners (to rounding) and leaving by the
    /// far edge runs some 5.3 cm inside it; the crossing at the corner used to fall between the
    /// two edges meeting there, and the line counted as clear (found at 40 000 cases).
    #[test]
    fn a_line_entering_through_a_corner_runs_inside() {
        let poly = Polygon::new(vec![
            Vec2::new(5.862917, 16.317474),
            Vec2::new(7.195635, 21.13659),
            Vec2::new(-0.51494807, 23.268936),
            Vec2::new(-1.847666, 18.449821),
        ])
        .unwrap();
        let (a, b) = (
            Vec2::new(-2.3523822, 41.04779),
            Vec2::new(1.6853862, 1.9787003),
        );
        let inside = segment_length_inside(&poly, a, b).unwrap();
        assert!((5.0..5.5).contains(&inside), "{inside}");
        let wood = TerrainPiece::new(0, poly).with_sight(SightBlock::Blocks);
        assert!(blocks_sight(&wood, a, b));
    }

    /// A 4 × 2 base whose corner pokes 0.01 cm into a 10 cm wood, turning 90° about its own
    /// centre, sweeps a corner a good 1.2 cm into it: met at once. The cast alone saw the
    /// overlapping base only leave the wood (the legacy answer, kept for old battles).
    #[test]
    fn a_base_a_sliver_inside_meets_the_ground_at_once() {
        let piece = TerrainPiece::new(0, square(0.0, 0.0, 10.0));
        let base = Rect::new(
            crate::Pose::new(Vec2::new(-1.99, -0.99), 0.0),
            Vec2::new(2.0, 1.0),
        );
        assert!(piece.overlap_area(&base).unwrap() > 0.0);
        let quarter = 90f32.to_radians();
        assert_eq!(
            piece.wheel_entry(&base, base.center(), quarter).unwrap(),
            Some(0.0)
        );
        assert_eq!(
            piece
                .wheel_entry_as(true, &base, base.center(), quarter)
                .unwrap(),
            None
        );
    }

    /// A rod 2 cm long and 0.2 cm wide, from 9 to 11 cm out along 30°, swung 60° clockwise about
    /// the origin towards ground below the x axis: its inner corner on the leading side,
    /// `9 (cos φ, sin φ) − 0.1 (−sin φ, cos φ)`, reaches y = 0 at `tan φ = 0.1 / 9`, after
    /// `30° − atan(0.1 / 9)` of the 60°.
    #[test]
    fn a_wheel_meets_ground_where_its_sweep_first_touches_it() {
        let piece = TerrainPiece::new(0, square(5.0, -10.0, 10.0));
        let a = 30f32.to_radians();
        let rod = Rect::new(
            crate::Pose::new(Vec2::new(a.cos(), a.sin()) * 10.0, a),
            Vec2::new(1.0, 0.1),
        );
        let t = piece
            .wheel_entry(&rod, Vec2::ZERO, -60f32.to_radians())
            .unwrap()
            .unwrap();
        let want = (30.0 - (0.1f32 / 9.0).atan().to_degrees()) / 60.0;
        assert!((t - want).abs() < 1e-4, "{t} against {want}");
        // Stopping short of it, turning away from it, or far from it: never met.
        assert_eq!(
            piece
                .wheel_entry(&rod, Vec2::ZERO, -29f32.to_radians())
                .unwrap(),
            None
        );
        assert_eq!(
            piece
                .wheel_entry(&rod, Vec2::ZERO, 60f32.to_radians())
                .unwrap(),
            None
        );
        let far = TerrainPiece::new(1, square(50.0, 50.0, 5.0));
        assert_eq!(
            far.wheel_entry(&rod, Vec2::ZERO, -60f32.to_radians())
                .unwrap(),
            None
        );
    }

    fn square(x0: f32, y0: f32, s: f32) -> Polygon {
        Polygon::new(vec![
            Vec2::new(x0, y0),
            Vec2::new(x0 + s, y0),
            Vec2::new(x0 + s, y0 + s),
            Vec2::new(x0, y0 + s),
        ])
        .unwrap()
    }

    fn wood() -> TerrainPiece {
        TerrainPiece::new(7, square(0.0, 0.0, 10.0)).with_sight(SightBlock::BlocksBeyond(5.0))
    }

    /// A line of fire cutting a 10 cm wood's corner diagonally runs 2 × √2 cm inside it; one
    /// along its edge runs none (BFS-TER-23/24's "through").
    #[test]
    fn a_line_through_a_corner_and_one_along_an_edge() {
        let w = square(0.0, 0.0, 10.0);
        let through =
            segment_length_inside(&w, Vec2::new(7.0, -1.0), Vec2::new(11.0, 3.0)).unwrap();
        assert!((through - 2.0 * 2f32.sqrt()).abs() < 1e-3, "{through}");
        let along = segment_length_inside(&w, Vec2::new(-5.0, 0.0), Vec2::new(15.0, 0.0)).unwrap();
        assert_eq!(along, 0.0);
        assert!(segment_length_inside(&w, Vec2::new(f32::NAN, 0.0), Vec2::ZERO).is_err());
    }

    #[test]
    fn base_in_and_partly_in_a_wood() {
        let w = wood();
        let inside = Rect::try_new(Vec2::new(5.0, 5.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        assert_eq!(w.overlap(&inside).unwrap(), Overlap::Inside);
        // Centred on the east edge: half of its 8 cm² inside.
        let half = Rect::try_new(Vec2::new(10.0, 5.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        assert!((w.overlap_area(&half).unwrap() - 4.0).abs() < 1e-4);
        assert_eq!(w.overlap(&half).unwrap(), Overlap::Partial);
        // Touching the edge from outside: not in it.
        let touching = Rect::try_new(Vec2::new(12.0, 5.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        assert_eq!(w.overlap(&touching).unwrap(), Overlap::Outside);
        assert_eq!(
            pieces_under(std::slice::from_ref(&w), &half).unwrap().len(),
            1
        );
    }

    #[test]
    fn path_length_through_a_square_and_an_l() {
        let w = wood();
        // From (-5, 5) to (15, 5): 10 cm inside.
        let s = Segment::new(Vec2::new(-5.0, 5.0), Vec2::new(15.0, 5.0));
        assert!((w.path_length_inside(&s).unwrap() - 10.0).abs() < 1e-4);
        // Diagonal corner to corner: 10√2.
        let d = Segment::new(Vec2::new(-1.0, -1.0), Vec2::new(11.0, 11.0));
        assert!((w.path_length_inside(&d).unwrap() - 200f32.sqrt()).abs() < 1e-3);
        // Along the boundary: 0.
        let edge = Segment::new(Vec2::new(-5.0, 0.0), Vec2::new(15.0, 0.0));
        assert_eq!(w.path_length_inside(&edge).unwrap(), 0.0);
        // An L (foot y ∈ [0, 1], x ∈ [0, 4]; upright x ∈ [0, 1], y ∈ [0, 4]): the line y = 0.5
        // runs 4 cm inside (the foot), the line y = 3 only 1 cm (the upright).
        let l = TerrainPiece::new(
            1,
            Polygon::new(vec![
                Vec2::new(0.0, 0.0),
                Vec2::new(4.0, 0.0),
                Vec2::new(4.0, 1.0),
                Vec2::new(1.0, 1.0),
                Vec2::new(1.0, 4.0),
                Vec2::new(0.0, 4.0),
            ])
            .unwrap(),
        );
        let y3 = Segment::new(Vec2::new(-2.0, 3.0), Vec2::new(6.0, 3.0));
        assert!((l.path_length_inside(&y3).unwrap() - 1.0).abs() < 1e-4);
        let y05 = Segment::new(Vec2::new(-2.0, 0.5), Vec2::new(6.0, 0.5));
        assert!((l.path_length_inside(&y05).unwrap() - 4.0).abs() < 1e-4);
        assert_eq!(path_lengths(&[w, l], &y05).unwrap().len(), 2);
    }

    #[test]
    fn swept_base_through_a_wood() {
        let w = wood();
        // A 4×2 base (y ∈ [4, 6]) moving east from x ∈ [-10, -6] by 30 cm. It overlaps the wood
        // while its east edge is past x = 0 and its west edge before x = 10: from t·30 = 6 to
        // t·30 = 20, i.e. 14 cm of its move.
        let r = Rect::try_new(Vec2::new(-8.0, 5.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        let iv = w.swept_intervals(&r, Vec2::new(30.0, 0.0)).unwrap();
        assert_eq!(iv.len(), 1);
        assert!((iv[0].0 * 30.0 - 6.0).abs() < 1e-3 && (iv[0].1 * 30.0 - 20.0).abs() < 1e-3);
        assert!((w.swept_length_inside(&r, Vec2::new(30.0, 0.0)).unwrap() - 14.0).abs() < 1e-3);
        // Passing north of it: nothing.
        let north = r.translated(Vec2::new(0.0, 20.0));
        assert!(
            pieces_crossed(&[w], &north, Vec2::new(30.0, 0.0))
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn early_exit_length_test_agrees_with_the_length() {
        let l = Polygon::new(vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 4.0),
            Vec2::new(0.0, 4.0),
        ])
        .unwrap();
        let mut k = 0u32;
        for i in 0..40 {
            for j in 0..40 {
                let a = Vec2::new(-2.0 + 0.21 * i as f32, -1.5);
                let b = Vec2::new(6.0 - 0.2 * j as f32, 5.5 - 0.05 * i as f32);
                let len = length_inside(&l, a, b, 0.5 * CONTACT_EPS);
                for limit in [0.0, 0.5, 1.0, 2.0, 3.5] {
                    assert_eq!(
                        length_inside_exceeds(&l, a, b, 0.5 * CONTACT_EPS, limit),
                        len > limit,
                        "{a} {b} {limit}"
                    );
                    k += (len > limit) as u32;
                }
            }
        }
        assert!(k > 1000);
    }

    /// A hill hides what is behind it from an eye off it (BFS-TER-20); an eye on it sees over
    /// it, and a target on it is seen (BFS-TER-9).
    #[test]
    fn sight_over_a_rise() {
        let hill = TerrainPiece::new(3, square(0.0, 0.0, 10.0)).with_sight(SightBlock::Rise);
        let (west, east) = (Vec2::new(-5.0, 5.0), Vec2::new(15.0, 5.0));
        assert!(
            blocks_sight(&hill, west, east),
            "across the hill, both off it"
        );
        assert!(
            !blocks_sight(&hill, Vec2::new(2.0, 5.0), east),
            "from the hill"
        );
        assert!(
            !blocks_sight(&hill, west, Vec2::new(8.0, 5.0)),
            "to a target on it"
        );
        assert!(!blocks_sight(&hill, west, Vec2::new(-5.0, 15.0)), "past it");
        assert!(
            !blocks_sight(&hill, Vec2::new(-5.0, 10.0), Vec2::new(15.0, 10.0)),
            "along its edge: grazing is clear"
        );
    }

    #[test]
    fn sight_through_woods() {
        let w = wood();
        // 4 cm inside the wood: allowed (≤ 5 cm).
        assert!(!blocks_sight(&w, Vec2::new(-5.0, 5.0), Vec2::new(4.0, 5.0)));
        // 10 cm inside: blocked.
        assert!(blocks_sight(&w, Vec2::new(-5.0, 5.0), Vec2::new(15.0, 5.0)));
        let hill = TerrainPiece::new(2, square(0.0, 0.0, 10.0)).with_sight(SightBlock::Blocks);
        assert!(blocks_sight(
            &hill,
            Vec2::new(-5.0, 5.0),
            Vec2::new(1.0, 5.0)
        ));
        // Grazing the edge is clear.
        assert!(!blocks_sight(
            &hill,
            Vec2::new(-5.0, 10.0),
            Vec2::new(15.0, 10.0)
        ));
        assert!(
            TerrainPiece::new(3, square(0.0, 0.0, 1.0))
                .with_sight(SightBlock::BlocksBeyond(-1.0))
                .check()
                .is_err()
        );
    }
}
