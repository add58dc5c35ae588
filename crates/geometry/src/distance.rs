//! Distances between shapes (GEO-2): the 2 cm rule, command range (GEO-15), charge priority, range.
//!
//! `Distance(A, B)` is the minimum Euclidean distance between closest points, 0 when the shapes
//! touch or overlap (§0.1). Rectangle pairs go through `parry2d::query::distance` as GEO-2 says;
//! [`rect_distance_exact`] is the crate's own version, used in hot loops and checked
//! against parry in the tests.

use crate::error::{GeoError, check_point};
use crate::polygon::Polygon;
use crate::prim;
use crate::rect::{Placed, Rect, Segment};
use glam::Vec2;

/// Minimum distance between two rectangles (GEO-2), via parry2d.
pub fn distance(a: &Rect, b: &Rect) -> Result<f32, GeoError> {
    a.check("first rectangle")?;
    b.check("second rectangle")?;
    let d = parry2d::query::distance(
        &a.pose.to_parry(),
        &a.to_cuboid(),
        &b.pose.to_parry(),
        &b.to_cuboid(),
    )
    .map_err(|_| GeoError::Degenerate {
        what: "rectangle pair",
        why: "parry2d cannot measure it".into(),
    })?
    .distance;
    if d.is_finite() {
        Ok(d.max(0.0))
    } else {
        Err(GeoError::NonFinite { what: "distance" })
    }
}

/// The closest points `(on a, on b)` of two separated rectangles, or `None` when they touch or
/// overlap (the closest points are then not unique).
pub fn closest_points(a: &Rect, b: &Rect) -> Result<Option<(Vec2, Vec2)>, GeoError> {
    a.check("first rectangle")?;
    b.check("second rectangle")?;
    let r = parry2d::query::closest_points(
        &a.pose.to_parry(),
        &a.to_cuboid(),
        &b.pose.to_parry(),
        &b.to_cuboid(),
        f32::MAX,
    )
    .map_err(|_| GeoError::Degenerate {
        what: "rectangle pair",
        why: "parry2d cannot measure it".into(),
    })?;
    Ok(match r {
        parry2d::query::ClosestPoints::WithinMargin(p, q) => Some((p, q)),
        _ => None,
    })
}

/// The crate's own exact rectangle distance (no parry): 0 when the interiors overlap or the
/// boundaries touch, otherwise the smallest vertex–edge distance. Agrees with [`distance`] to
/// rounding; cheaper, so the hot loops use it.
pub fn rect_distance_exact(a: &Rect, b: &Rect) -> Result<f32, GeoError> {
    a.check("first rectangle")?;
    b.check("second rectangle")?;
    Ok(rect_distance_unchecked(a, b))
}

/// Do the interiors of two rectangles overlap (by more than rounding, 1e-4 cm)? Touching is not
/// overlapping.
pub fn overlaps(a: &Rect, b: &Rect) -> Result<bool, GeoError> {
    a.check("first rectangle")?;
    b.check("second rectangle")?;
    Ok(prim::convex_overlap(
        &a.ccw_corners(),
        &b.ccw_corners(),
        1e-4,
    ))
}

/// Unchecked [`rect_distance_exact`]. For separated convex shapes the closest pair always has a
/// corner of one on the other, so eight corner-to-rectangle distances (each a clamp in the
/// rectangle's frame) give the distance; a separating-axis test catches crossings where no corner
/// is inside the other rectangle.
#[inline]
pub(crate) fn rect_distance_unchecked(a: &Rect, b: &Rect) -> f32 {
    let (fa, fb) = (Placed::of(a), Placed::of(b));
    placed_distance(&fa, &fa.corners(), &fb, &fb.corners())
}

/// [`rect_distance_unchecked`] of two placed rectangles and their corners.
#[inline]
fn placed_distance(fa: &Placed, ca: &[Vec2; 4], fb: &Placed, cb: &[Vec2; 4]) -> f32 {
    let mut d2 = f32::INFINITY;
    for c in ca {
        d2 = d2.min(fb.point_d2(*c));
    }
    for c in cb {
        d2 = d2.min(fa.point_d2(*c));
    }
    if d2 > 0.0 && !(fa.separates(cb) || fb.separates(ca)) {
        return 0.0;
    }
    d2.sqrt()
}

impl Placed {
    /// Squared distance from `p` to the rectangle (0 inside).
    #[inline]
    fn point_d2(&self, p: Vec2) -> f32 {
        let q = self.local(p).abs() - self.half;
        q.max(Vec2::ZERO).length_squared()
    }

    /// Do `other`'s corners all lie beyond one of this rectangle's edges (touching counts)?
    #[inline]
    fn separates(&self, other: &[Vec2; 4]) -> bool {
        let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
        for c in other {
            let l = self.local(*c);
            lo = lo.min(l);
            hi = hi.max(l);
        }
        let h = self.half;
        lo.x >= h.x || hi.x <= -h.x || lo.y >= h.y || hi.y <= -h.y
    }
}

/// Separating axes of two rectangles: do their interiors overlap? (The distance above makes the
/// same test inline.)
#[cfg(test)]
pub(crate) fn rects_overlap(a: &Rect, b: &Rect) -> bool {
    let (fa, fb) = (Placed::of(a), Placed::of(b));
    !(fa.separates(&fb.corners()) || fb.separates(&fa.corners()))
}

/// Distance between two sets of rectangles: the minimum over pairs (GEO-2 "for units, take the
/// minimum over bases"). Used for "within X cm" between units and for command range (GEO-15).
pub fn set_distance(a: &[Rect], b: &[Rect]) -> Result<f32, GeoError> {
    if a.is_empty() || b.is_empty() {
        return Err(GeoError::Degenerate {
            what: "shape set",
            why: "no rectangles".into(),
        });
    }
    for r in a.iter().chain(b) {
        r.check("rectangle")?;
    }
    // Each rectangle's axes and corners once, not once per pair.
    let placed = |set: &[Rect]| -> Vec<(Placed, [Vec2; 4])> {
        set.iter()
            .map(|r| {
                let p = Placed::of(r);
                let c = p.corners();
                (p, c)
            })
            .collect()
    };
    let (pa, pb) = (placed(a), placed(b));
    let mut best = f32::INFINITY;
    for (fa, ca) in &pa {
        for (fb, cb) in &pb {
            best = best.min(placed_distance(fa, ca, fb, cb));
        }
    }
    Ok(best)
}

/// The index of the rectangle of `set` nearest to `r`, with its distance (first on ties).
pub fn nearest_in_set(r: &Rect, set: &[Rect]) -> Result<(usize, f32), GeoError> {
    r.check("rectangle")?;
    let mut best: Option<(usize, f32)> = None;
    for (i, x) in set.iter().enumerate() {
        x.check("rectangle")?;
        let d = rect_distance_unchecked(r, x);
        if best.is_none_or(|(_, bd)| d < bd) {
            best = Some((i, d));
        }
    }
    best.ok_or(GeoError::Degenerate {
        what: "shape set",
        why: "no rectangles".into(),
    })
}

/// Distance from a point to a rectangle (0 inside), with the closest point: GEO-8's
/// `project_point` for range measurement.
pub fn point_rect(p: Vec2, r: &Rect) -> Result<(f32, Vec2), GeoError> {
    check_point("point", p)?;
    r.check("rectangle")?;
    let c = r.closest_point(p);
    Ok((c.distance(p), c))
}

/// Minimum distance from a segment to a rectangle (0 when it crosses or touches it). Line-of-fire
/// clearance (GEO-7) uses this.
pub fn segment_rect(s: &Segment, r: &Rect) -> Result<f32, GeoError> {
    check_point("segment start", s.a)?;
    check_point("segment end", s.b)?;
    r.check("rectangle")?;
    Ok(segment_rect_unchecked(s.a, s.b, r))
}

/// Unchecked [`segment_rect`].
#[inline]
pub(crate) fn segment_rect_unchecked(a: Vec2, b: Vec2, r: &Rect) -> f32 {
    // In the rectangle's frame the rectangle is the box [-half, half].
    let la = r.pose.to_local(a);
    let lb = r.pose.to_local(b);
    if prim::clip_segment_to_box(la, lb, -r.half, r.half).is_some() {
        return 0.0;
    }
    let c = [
        Vec2::new(-r.half.x, -r.half.y),
        Vec2::new(r.half.x, -r.half.y),
        Vec2::new(r.half.x, r.half.y),
        Vec2::new(-r.half.x, r.half.y),
    ];
    let mut d = f32::INFINITY;
    for i in 0..4 {
        d = d.min(prim::segment_segment_distance(la, lb, c[i], c[(i + 1) % 4]));
    }
    d
}

/// Minimum distance from a segment to a polygon (0 when it crosses, touches or lies inside it).
pub fn segment_polygon(s: &Segment, poly: &Polygon) -> Result<f32, GeoError> {
    check_point("segment start", s.a)?;
    check_point("segment end", s.b)?;
    Ok(segment_polygon_unchecked(s.a, s.b, poly))
}

/// Unchecked [`segment_polygon`].
pub(crate) fn segment_polygon_unchecked(a: Vec2, b: Vec2, poly: &Polygon) -> f32 {
    if prim::point_in_polygon(a, poly.vertices()) {
        return 0.0;
    }
    let mut d = f32::INFINITY;
    for (p, q) in poly.edges() {
        d = d.min(prim::segment_segment_distance(a, b, p, q));
        if d == 0.0 {
            break;
        }
    }
    d
}

/// Minimum distance from a rectangle to a polygon (0 when they overlap or touch).
pub fn rect_polygon(r: &Rect, poly: &Polygon) -> Result<f32, GeoError> {
    r.check("rectangle")?;
    Ok(rect_polygon_unchecked(r, poly))
}

/// Unchecked [`rect_polygon`].
pub(crate) fn rect_polygon_unchecked(r: &Rect, poly: &Polygon) -> f32 {
    let c = r.ccw_corners();
    if c.iter()
        .any(|p| prim::point_in_polygon(*p, poly.vertices()))
        || poly.vertices().first().is_some_and(|v| r.contains(*v, 0.0))
    {
        return 0.0;
    }
    prim::polygon_boundary_distance(&c, poly.vertices())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f32, y: f32, w: f32, d: f32, a: f32) -> Rect {
        Rect::try_new(Vec2::new(x, y), Vec2::new(w, d), a).unwrap()
    }

    #[test]
    fn parallel_bases_two_cm_apart() {
        // Two 4×2 infantry bases, centres 4 cm apart north–south: gap = 4 − 1 − 1 = 2 cm.
        let a = rect(0.0, 0.0, 4.0, 2.0, 0.0);
        let b = rect(0.0, 4.0, 4.0, 2.0, 0.0);
        assert!((distance(&a, &b).unwrap() - 2.0).abs() < 1e-5);
        assert!((rect_distance_exact(&a, &b).unwrap() - 2.0).abs() < 1e-6);
        let (p, q) = closest_points(&a, &b).unwrap().unwrap();
        assert!((p.y - 1.0).abs() < 1e-5 && (q.y - 3.0).abs() < 1e-5);
    }

    #[test]
    fn corner_to_corner_diagonal() {
        // Base b is 3 cm east and 4 cm north of a's front-right corner: distance 5 (3-4-5).
        let a = rect(0.0, 0.0, 4.0, 2.0, 0.0); // FR corner (2, 1)
        let b = rect(2.0 + 3.0 + 2.0, 1.0 + 4.0 + 1.0, 4.0, 2.0, 0.0); // its RL corner (5, 5)
        assert!((distance(&a, &b).unwrap() - 5.0).abs() < 1e-5);
        assert!((rect_distance_exact(&a, &b).unwrap() - 5.0).abs() < 1e-5);
    }

    #[test]
    fn touching_and_overlapping_are_zero() {
        let a = rect(0.0, 0.0, 4.0, 2.0, 0.0);
        let touching = rect(4.0, 0.0, 4.0, 2.0, 0.0);
        let overlapping = rect(1.0, 0.5, 4.0, 2.0, 0.4);
        assert!(distance(&a, &touching).unwrap() < 1e-5);
        assert_eq!(rect_distance_exact(&a, &touching).unwrap(), 0.0);
        assert!(!overlaps(&a, &touching).unwrap());
        assert!(overlaps(&a, &overlapping).unwrap());
        assert_eq!(distance(&a, &overlapping).unwrap(), 0.0);
        assert_eq!(rect_distance_unchecked(&a, &overlapping), 0.0);
        assert!(closest_points(&a, &overlapping).unwrap().is_none());
    }

    #[test]
    fn command_distance_bfs_cmd_7_style() {
        // A commander's 2×2 base at the origin and a unit whose nearest base is 60 cm away
        // (BFS-CMD-7: at 60 cm a General's 4 CP arrive as 3).
        let cmd = rect(0.0, 0.0, 2.0, 2.0, 0.0);
        let unit = [
            rect(1.0 + 60.0 + 2.0, 0.0, 4.0, 2.0, 0.0),
            rect(1.0 + 64.0 + 2.0, 0.0, 4.0, 2.0, 0.0),
        ];
        assert!((set_distance(&[cmd], &unit).unwrap() - 60.0).abs() < 1e-4);
        let (i, d) = nearest_in_set(&cmd, &unit).unwrap();
        assert_eq!(i, 0);
        assert!((d - 60.0).abs() < 1e-4);
    }

    #[test]
    fn segment_and_polygon_distances() {
        let r = rect(0.0, 0.0, 4.0, 2.0, 0.0);
        // A horizontal segment 1.5 cm above the front edge (y = 1): clearance 1.5.
        let s = Segment::new(Vec2::new(-10.0, 2.5), Vec2::new(10.0, 2.5));
        assert!((segment_rect(&s, &r).unwrap() - 1.5).abs() < 1e-6);
        let through = Segment::new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0));
        assert_eq!(segment_rect(&through, &r).unwrap(), 0.0);
        let poly = Polygon::from_rect(&r).unwrap();
        assert!((segment_polygon(&s, &poly).unwrap() - 1.5).abs() < 1e-6);
        let far = rect(10.0, 0.0, 2.0, 2.0, 0.0);
        assert!((rect_polygon(&far, &poly).unwrap() - 7.0).abs() < 1e-6);
        assert!((point_rect(Vec2::new(5.0, 0.0), &r).unwrap().0 - 3.0).abs() < 1e-6);
    }

    #[test]
    fn refuses_bad_input() {
        let bad = Rect::new(crate::Pose::new(Vec2::new(f32::NAN, 0.0), 0.0), Vec2::ONE);
        let ok = rect(0.0, 0.0, 1.0, 1.0, 0.0);
        assert!(distance(&bad, &ok).is_err());
        assert!(set_distance(&[], &[ok]).is_err());
        let flat = Rect::new(crate::Pose::default(), Vec2::new(1.0, 0.0));
        assert!(distance(&ok, &flat).is_err());
    }
}
