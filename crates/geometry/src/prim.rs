//! Exact low-level primitives on points, segments and polygons that the rule-level modules share.
//!
//! They take already-validated input (the public entry points check it) and never panic. Polygons
//! are slices of vertices; "CCW" means counter-clockwise in the table frame (x right, y north).

use glam::Vec2;

/// Distance from `p` to the segment `[a, b]`.
#[inline]
pub fn point_segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    closest_on_segment(p, a, b).distance(p)
}

/// Closest point of the segment `[a, b]` to `p`.
#[inline]
pub fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 <= f32::MIN_POSITIVE {
        return a;
    }
    let t = ((p - a).dot(ab) / len2).clamp(0.0, 1.0);
    a + ab * t
}

/// Orientation of `c` relative to the directed line `a → b`: > 0 left, < 0 right, 0 on it.
#[inline]
pub fn orient(a: Vec2, b: Vec2, c: Vec2) -> f32 {
    (b - a).perp_dot(c - a)
}

/// Do the closed segments `[a0, a1]` and `[b0, b1]` share a point?
pub fn segments_intersect(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> bool {
    let d1 = orient(b0, b1, a0);
    let d2 = orient(b0, b1, a1);
    let d3 = orient(a0, a1, b0);
    let d4 = orient(a0, a1, b1);
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    let on = |p: Vec2, q: Vec2, r: Vec2, d: f32| {
        d == 0.0
            && r.x >= p.x.min(q.x)
            && r.x <= p.x.max(q.x)
            && r.y >= p.y.min(q.y)
            && r.y <= p.y.max(q.y)
    };
    on(b0, b1, a0, d1) || on(b0, b1, a1, d2) || on(a0, a1, b0, d3) || on(a0, a1, b1, d4)
}

/// Minimum distance between the segments `[a0, a1]` and `[b0, b1]` (0 when they cross).
pub fn segment_segment_distance(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> f32 {
    if segments_intersect(a0, a1, b0, b1) {
        return 0.0;
    }
    point_segment_distance(a0, b0, b1)
        .min(point_segment_distance(a1, b0, b1))
        .min(point_segment_distance(b0, a0, a1))
        .min(point_segment_distance(b1, a0, a1))
}

/// Parameter `t` where the segment `p(t) = a0 + t (a1 - a0)`, `t ∈ [0, 1]`, crosses the segment
/// `[b0, b1]`, if it does so at a single point.
pub fn segment_crossing_param(a0: Vec2, a1: Vec2, b0: Vec2, b1: Vec2) -> Option<f32> {
    segment_crossing_param_within(a0, a1, b0, b1, 0.0)
}

/// [`segment_crossing_param`], accepting a crossing up to `slack` (a fraction of each segment)
/// beyond either end; the parameter returned is clamped to `[0, 1]`.
pub fn segment_crossing_param_within(
    a0: Vec2,
    a1: Vec2,
    b0: Vec2,
    b1: Vec2,
    slack: f32,
) -> Option<f32> {
    let r = a1 - a0;
    let s = b1 - b0;
    let denom = r.perp_dot(s);
    if denom.abs() <= f32::EPSILON * r.length() * s.length() {
        return None;
    }
    let q = b0 - a0;
    let t = q.perp_dot(s) / denom;
    let u = q.perp_dot(r) / denom;
    let within = |x: f32| (-slack..=1.0 + slack).contains(&x);
    (within(t) && within(u)).then(|| t.clamp(0.0, 1.0))
}

/// Signed area of a polygon (positive when counter-clockwise).
pub fn signed_area(poly: &[Vec2]) -> f32 {
    let n = poly.len();
    if n < 3 {
        return 0.0;
    }
    let mut s = 0.0;
    for i in 0..n {
        s += poly[i].perp_dot(poly[(i + 1) % n]);
    }
    0.5 * s
}

/// Is `p` strictly inside the polygon (even-odd rule)? Points exactly on the boundary may go either
/// way; callers that care use a distance test.
pub fn point_in_polygon(p: Vec2, poly: &[Vec2]) -> bool {
    let n = poly.len();
    let mut inside = false;
    let mut j = n.wrapping_sub(1);
    for i in 0..n {
        let (a, b) = (poly[i], poly[j]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

/// Distance from `p` to the boundary of a polygon.
pub fn point_boundary_distance(p: Vec2, poly: &[Vec2]) -> f32 {
    let n = poly.len();
    let mut d = f32::INFINITY;
    for i in 0..n {
        d = d.min(point_segment_distance(p, poly[i], poly[(i + 1) % n]));
    }
    d
}

/// Keeps the part of `poly` where `(q - origin) · normal >= 0` (Sutherland–Hodgman, one plane).
pub fn clip_halfplane(poly: &[Vec2], origin: Vec2, normal: Vec2, out: &mut Vec<Vec2>) {
    out.clear();
    let n = poly.len();
    if n == 0 {
        return;
    }
    for i in 0..n {
        let cur = poly[i];
        let nxt = poly[(i + 1) % n];
        let dc = (cur - origin).dot(normal);
        let dn = (nxt - origin).dot(normal);
        if dc >= 0.0 {
            out.push(cur);
        }
        if (dc >= 0.0) != (dn >= 0.0) {
            let t = dc / (dc - dn);
            out.push(cur + (nxt - cur) * t);
        }
    }
}

/// Clips any simple polygon `subject` by a convex CCW polygon `clip` (Sutherland–Hodgman). The
/// result may contain degenerate zero-width spikes when `subject` is not convex, but its area is
/// exact, which is all the callers use.
pub fn clip_by_convex(subject: &[Vec2], clip: &[Vec2]) -> Vec<Vec2> {
    let mut cur: Vec<Vec2> = subject.to_vec();
    let mut tmp = Vec::with_capacity(subject.len() + 4);
    let n = clip.len();
    for i in 0..n {
        let a = clip[i];
        let b = clip[(i + 1) % n];
        // Inward normal of a CCW edge is its left perpendicular.
        let normal = (b - a).perp();
        clip_halfplane(&cur, a, normal, &mut tmp);
        core::mem::swap(&mut cur, &mut tmp);
        if cur.is_empty() {
            break;
        }
    }
    cur
}

/// Liang–Barsky: the parameter interval `[t0, t1] ⊂ [0, 1]` of the segment `p0 + t (p1 - p0)` that
/// lies inside the axis-aligned box `[lo, hi]`, if any.
#[inline]
pub fn clip_segment_to_box(p0: Vec2, p1: Vec2, lo: Vec2, hi: Vec2) -> Option<(f32, f32)> {
    let d = p1 - p0;
    let mut t0 = 0.0f32;
    let mut t1 = 1.0f32;
    for (pc, dc, l, h) in [(p0.x, d.x, lo.x, hi.x), (p0.y, d.y, lo.y, hi.y)] {
        if dc == 0.0 {
            if pc < l || pc > h {
                return None;
            }
        } else {
            let inv = 1.0 / dc;
            let (mut a, mut b) = ((l - pc) * inv, (h - pc) * inv);
            if a > b {
                core::mem::swap(&mut a, &mut b);
            }
            t0 = t0.max(a);
            t1 = t1.min(b);
            if t0 > t1 {
                return None;
            }
        }
    }
    Some((t0, t1))
}

/// Parameter interval of the segment `p0 + t (p1 - p0)`, `t ∈ [0, 1]`, inside a convex CCW polygon
/// (Cyrus–Beck).
pub fn clip_segment_to_convex(p0: Vec2, p1: Vec2, poly: &[Vec2]) -> Option<(f32, f32)> {
    let d = p1 - p0;
    let mut t0 = 0.0f32;
    let mut t1 = 1.0f32;
    let n = poly.len();
    for i in 0..n {
        let a = poly[i];
        let b = poly[(i + 1) % n];
        let inward = (b - a).perp();
        let num = (p0 - a).dot(inward);
        let den = d.dot(inward);
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else {
            let t = -num / den;
            if den > 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return None;
            }
        }
    }
    Some((t0, t1))
}

/// Convex hull (CCW, no collinear points) of a small point set (Andrew's monotone chain).
pub fn convex_hull(points: &mut [Vec2]) -> Vec<Vec2> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    let n = points.len();
    if n < 3 {
        return points.to_vec();
    }
    let mut hull: Vec<Vec2> = Vec::with_capacity(2 * n);
    for &p in points.iter() {
        while hull.len() >= 2 && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    let lower = hull.len() + 1;
    for &p in points.iter().rev().skip(1) {
        while hull.len() >= lower && orient(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop();
    hull
}

/// Separating-axis overlap test of two convex CCW polygons: `true` when their interiors overlap by
/// more than `slack` along every axis (touching, or overlapping by less than `slack`, is `false`).
pub fn convex_overlap(a: &[Vec2], b: &[Vec2], slack: f32) -> bool {
    fn separated(a: &[Vec2], b: &[Vec2], slack: f32) -> bool {
        let n = a.len();
        for i in 0..n {
            let p = a[i];
            let e = a[(i + 1) % n] - p;
            let len = e.length();
            if len <= f32::MIN_POSITIVE {
                continue;
            }
            // Outward normal of a CCW edge is its right perpendicular.
            let out = Vec2::new(e.y, -e.x) / len;
            let mut min_b = f32::INFINITY;
            for q in b {
                min_b = min_b.min((*q - p).dot(out));
            }
            if min_b >= -slack {
                return true;
            }
        }
        false
    }
    !(separated(a, b, slack) || separated(b, a, slack))
}

/// Minimum distance between two convex polygons (0 when they overlap or touch).
pub fn convex_distance(a: &[Vec2], b: &[Vec2]) -> f32 {
    if convex_overlap(a, b, 0.0) {
        return 0.0;
    }
    polygon_boundary_distance(a, b)
}

/// Minimum distance between the boundaries of two polygons (vertex–edge pairs both ways, plus
/// crossing edges). For disjoint polygons this is their distance.
pub fn polygon_boundary_distance(a: &[Vec2], b: &[Vec2]) -> f32 {
    let (na, nb) = (a.len(), b.len());
    let mut d = f32::INFINITY;
    for i in 0..na {
        let (a0, a1) = (a[i], a[(i + 1) % na]);
        for j in 0..nb {
            let (b0, b1) = (b[j], b[(j + 1) % nb]);
            d = d.min(segment_segment_distance(a0, a1, b0, b1));
            if d == 0.0 {
                return 0.0;
            }
        }
    }
    d
}

/// Ear-clipping triangulation of a simple CCW polygon. Returns vertex index triples.
pub fn triangulate(poly: &[Vec2]) -> Vec<[usize; 3]> {
    let n = poly.len();
    let mut idx: Vec<usize> = (0..n).collect();
    let mut tris = Vec::with_capacity(n.saturating_sub(2));
    let mut guard = 0usize;
    while idx.len() > 3 && guard < 4 * n * n {
        guard += 1;
        let m = idx.len();
        let mut clipped = false;
        for k in 0..m {
            let (ia, ib, ic) = (idx[(k + m - 1) % m], idx[k], idx[(k + 1) % m]);
            let (a, b, c) = (poly[ia], poly[ib], poly[ic]);
            if orient(a, b, c) <= 0.0 {
                continue; // reflex or flat corner
            }
            let mut contains = false;
            for &j in &idx {
                if j == ia || j == ib || j == ic {
                    continue;
                }
                let p = poly[j];
                if orient(a, b, p) >= 0.0 && orient(b, c, p) >= 0.0 && orient(c, a, p) >= 0.0 {
                    contains = true;
                    break;
                }
            }
            if !contains {
                tris.push([ia, ib, ic]);
                idx.remove(k);
                clipped = true;
                break;
            }
        }
        if !clipped {
            // Only flat corners left (collinear vertices): drop one and go on.
            if let Some(k) = (0..idx.len()).find(|&k| {
                let m = idx.len();
                orient(
                    poly[idx[(k + m - 1) % m]],
                    poly[idx[k]],
                    poly[idx[(k + 1) % m]],
                ) == 0.0
            }) {
                idx.remove(k);
            } else {
                break;
            }
        }
    }
    if idx.len() == 3 && orient(poly[idx[0]], poly[idx[1]], poly[idx[2]]) > 0.0 {
        tris.push([idx[0], idx[1], idx[2]]);
    }
    tris
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x0: f32, y0: f32, s: f32) -> [Vec2; 4] {
        [
            Vec2::new(x0, y0),
            Vec2::new(x0 + s, y0),
            Vec2::new(x0 + s, y0 + s),
            Vec2::new(x0, y0 + s),
        ]
    }

    #[test]
    fn segment_distances() {
        // Parallel horizontal segments 3 cm apart.
        let d = segment_segment_distance(
            Vec2::ZERO,
            Vec2::X * 4.0,
            Vec2::new(1.0, 3.0),
            Vec2::new(2.0, 3.0),
        );
        assert!((d - 3.0).abs() < 1e-6);
        // Crossing segments.
        assert_eq!(
            segment_segment_distance(
                Vec2::ZERO,
                Vec2::ONE,
                Vec2::new(0.0, 1.0),
                Vec2::new(1.0, 0.0)
            ),
            0.0
        );
        // Touching at an endpoint counts as intersecting.
        assert!(segments_intersect(
            Vec2::ZERO,
            Vec2::X,
            Vec2::X,
            Vec2::new(1.0, 5.0)
        ));
    }

    #[test]
    fn areas_and_clipping() {
        let a = sq(0.0, 0.0, 2.0);
        assert!((signed_area(&a) - 4.0).abs() < 1e-6);
        // Unit square overlap of two 2×2 squares offset by (1, 1): area 1.
        let b = sq(1.0, 1.0, 2.0);
        let c = clip_by_convex(&a, &b);
        assert!((signed_area(&c) - 1.0).abs() < 1e-6);
        // L-shaped (non-convex) subject clipped by a square: area of the L inside it.
        let l = [
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 4.0),
            Vec2::new(0.0, 4.0),
        ];
        // Clip by the square [0,2]²: the L covers [0,2]×[0,1] ∪ [0,1]×[1,2] = 2 + 1 = 3.
        let c = clip_by_convex(&l, &sq(0.0, 0.0, 2.0));
        assert!((signed_area(&c) - 3.0).abs() < 1e-5);
    }

    #[test]
    fn liang_barsky() {
        // Horizontal segment from x=-1 to x=3 through the box [0,2]×[0,1] at y=0.5: t ∈ [0.25, 0.75].
        let (t0, t1) = clip_segment_to_box(
            Vec2::new(-1.0, 0.5),
            Vec2::new(3.0, 0.5),
            Vec2::ZERO,
            Vec2::new(2.0, 1.0),
        )
        .unwrap();
        assert!((t0 - 0.25).abs() < 1e-6 && (t1 - 0.75).abs() < 1e-6);
        assert!(
            clip_segment_to_box(
                Vec2::new(-1.0, 2.0),
                Vec2::new(3.0, 2.0),
                Vec2::ZERO,
                Vec2::ONE
            )
            .is_none()
        );
        let (t0, t1) = clip_segment_to_convex(
            Vec2::new(-1.0, 0.5),
            Vec2::new(3.0, 0.5),
            &sq(0.0, 0.0, 2.0),
        )
        .unwrap();
        assert!((t0 - 0.25).abs() < 1e-6 && (t1 - 0.75).abs() < 1e-6);
    }

    #[test]
    fn hull_and_overlap() {
        let mut pts = vec![Vec2::ZERO, Vec2::X, Vec2::ONE, Vec2::Y, Vec2::splat(0.5)];
        let h = convex_hull(&mut pts);
        assert_eq!(h.len(), 4);
        assert!(signed_area(&h) > 0.0);
        assert!(convex_overlap(&sq(0.0, 0.0, 2.0), &sq(1.0, 1.0, 2.0), 0.0));
        // Touching squares do not overlap.
        assert!(!convex_overlap(&sq(0.0, 0.0, 2.0), &sq(2.0, 0.0, 2.0), 0.0));
        assert!((convex_distance(&sq(0.0, 0.0, 2.0), &sq(5.0, 0.0, 2.0)) - 3.0).abs() < 1e-6);
    }

    #[test]
    fn triangulates_an_l() {
        let l = [
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 4.0),
            Vec2::new(0.0, 4.0),
        ];
        let t = triangulate(&l);
        assert_eq!(t.len(), 4);
        let area: f32 = t
            .iter()
            .map(|[a, b, c]| signed_area(&[l[*a], l[*b], l[*c]]))
            .sum();
        assert!((area - 7.0).abs() < 1e-5);
        assert!(point_in_polygon(Vec2::new(0.5, 3.0), &l));
        assert!(!point_in_polygon(Vec2::new(2.0, 2.0), &l));
    }
}
