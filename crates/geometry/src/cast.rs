//! Exact continuous collision for straight moves (GEO-9) and wheels (GEO-10): the first moment a
//! moving convex shape comes within `gap` of an obstacle polygon.
//!
//! parry2d's `cast_shapes` is iterative (GJK) and only translates; the rules need the same question
//! for rotations about a corner and a well-defined answer when a unit *starts* within the gap
//! (BFS-MOV-7: "a unit that starts within 2 cm may move if the move does not bring it any
//! closer"). The first time two polygons come within `gap` of each other is always a vertex of one
//! reaching the outward `gap`-offset of an edge of the other, or two vertices reaching `gap` of each
//! other; every such event is solved in closed form (ray or circle against segment or circle), so
//! the answer is exact and a cast can never tunnel through a thin base.
//!
//! A shape that starts closer than `gap` is held to its starting distance instead: it may slide
//! along or move away, never closer. A shape that starts overlapping may only move away.

use crate::prim;
use crate::tolerance::{AREA_EPS_CM2, CAST_START_SLACK_CM, DIR_SLACK, GRAZE_CM, PARAM_SLACK};
use glam::Vec2;

/// Where a cast stops: `at` is a distance (cm) for a translation and an angle (radians, always
/// positive, in the direction of rotation) for a rotation; `point` is the touching point on the
/// obstacle side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub at: f32,
    pub point: Vec2,
}

/// A polygon for casting: CCW vertices and whether it is convex.
#[derive(Debug, Clone, Copy)]
pub struct CastShape<'a> {
    pub verts: &'a [Vec2],
    pub convex: bool,
}

#[inline]
fn outward(e: Vec2) -> Vec2 {
    // CCW polygon: the outward normal of an edge is its right perpendicular.
    let l = e.length();
    if l <= f32::MIN_POSITIVE {
        Vec2::ZERO
    } else {
        Vec2::new(e.y, -e.x) / l
    }
}

/// Distance between a convex polygon `a` and any simple polygon `b` (0 when they touch or overlap).
pub fn shape_distance(a: CastShape, b: CastShape) -> f32 {
    if b.convex {
        return prim::convex_distance(a.verts, b.verts);
    }
    if a.verts.iter().any(|p| prim::point_in_polygon(*p, b.verts))
        || b.verts.iter().any(|p| prim::point_in_polygon(*p, a.verts))
    {
        return 0.0;
    }
    prim::polygon_boundary_distance(a.verts, b.verts)
}

/// Do the interiors of a convex `a` and a simple polygon `b` overlap by more than a sliver?
pub fn shapes_overlap(a: CastShape, b: CastShape) -> bool {
    if b.convex {
        return prim::convex_overlap(a.verts, b.verts, 1e-4);
    }
    prim::signed_area(&prim::clip_by_convex(b.verts, a.verts)) > AREA_EPS_CM2
}

/// For a contact cast (no gap), a vertex of the mover that meets the fixed polygon exactly at one
/// of its corners is a collision only if the two shapes' interiors would overlap right after: the
/// corners are sharp, so "crossing an edge's line at its end" can be a base sliding past a friend's
/// corner along its side. Both corners are cones; after a small motion `u` of the mover they
/// overlap unless some line through the corner still separates them, i.e. unless a separating
/// normal `m` (`m · fixed rays ≥ 0`, `m · mover rays ≤ 0`) has `m · u ≤ 0`. Only the extreme
/// separating normals (perpendiculars of the four rays) need checking. Reflex corners count as
/// collisions (conservative).
fn corner_collides(mover: &[Vec2], j: usize, fixed: &[Vec2], i: usize, s: f32, u: Vec2) -> bool {
    let n = fixed.len();
    let e_len = (fixed[(i + 1) % n] - fixed[i]).length();
    let k = if s * e_len < GRAZE_CM {
        i
    } else if (1.0 - s) * e_len < GRAZE_CM {
        (i + 1) % n
    } else {
        return true; // inside the edge: a plain crossing
    };
    let m = mover.len();
    let (fp, fc, fnx) = (fixed[(k + n - 1) % n], fixed[k], fixed[(k + 1) % n]);
    let (mp, mc, mnx) = (mover[(j + m - 1) % m], mover[j], mover[(j + 1) % m]);
    if prim::orient(fp, fc, fnx) <= 0.0 || prim::orient(mp, mc, mnx) <= 0.0 {
        return true;
    }
    let rays_f = [
        (fp - fc).normalize_or_zero(),
        (fnx - fc).normalize_or_zero(),
    ];
    let rays_m = [
        (mp - mc).normalize_or_zero(),
        (mnx - mc).normalize_or_zero(),
    ];
    let tol = 1e-5;
    for r in rays_f.iter().chain(rays_m.iter()) {
        for cand in [r.perp(), -r.perp()] {
            let feasible = rays_f.iter().all(|b| cand.dot(*b) >= -tol)
                && rays_m.iter().all(|a| cand.dot(*a) <= tol);
            if feasible && cand.dot(u) <= DIR_SLACK * u.length() {
                return false; // this line through the corner keeps separating them
            }
        }
    }
    // Every separating line is crossed (or none exists: they overlap already).
    true
}

fn centroid(v: &[Vec2]) -> Vec2 {
    v.iter().copied().sum::<Vec2>() / v.len().max(1) as f32
}

/// Effective gap against one obstacle, or `Err(blocked_now)` when the shapes already overlap.
fn effective_gap(
    a: CastShape,
    b: CastShape,
    gap: f32,
    away: impl Fn(Vec2) -> bool,
) -> Result<f32, bool> {
    let d0 = shape_distance(a, b);
    if d0 <= 0.0 && shapes_overlap(a, b) {
        // Overlapping already (bad state): allow only moves that leave.
        return Err(!away(centroid(a.verts) - centroid(b.verts)));
    }
    Ok(gap.min(d0))
}

/// First distance `t ∈ [0, max]` at which `a` moved by `t · dir` (`dir` a unit vector) comes within
/// `gap` of `b`, entering. `None` when it never does within `max`.
pub fn translate(a: CastShape, dir: Vec2, max: f32, b: CastShape, gap: f32) -> Option<Hit> {
    translate_as(false, a, dir, max, b, gap)
}

/// [`translate`], or with `legacy` as it measured before two corners meeting almost head on were
/// caught (the distance of a corner from another's path taken as a difference of squares, which
/// loses the thousandths of a cm that matter): kept only so that battles recorded before the fix
/// replay.
pub fn translate_as(
    legacy: bool,
    a: CastShape,
    dir: Vec2,
    max: f32,
    b: CastShape,
    gap: f32,
) -> Option<Hit> {
    let g = match effective_gap(a, b, gap, |sep| sep.dot(dir) >= 0.0) {
        Ok(g) => g,
        Err(true) => {
            return Some(Hit {
                at: 0.0,
                point: centroid(a.verts),
            });
        }
        Err(false) => return None,
    };
    let mut best: Option<Hit> = None;
    let mut consider = |t: f32, point: Vec2| {
        if t >= -CAST_START_SLACK_CM && t <= max && best.is_none_or(|h| t < h.at) {
            best = Some(Hit {
                at: t.max(0.0),
                point,
            });
        }
    };
    // Vertex of `a` against an offset edge of `b`, and vertex of `b` (moving by −dir) against an
    // offset edge of `a`.
    for (mover, fixed, d, on_b) in [
        (a.verts, b.verts, dir, true),
        (b.verts, a.verts, -dir, false),
    ] {
        let n = fixed.len();
        for i in 0..n {
            let e = fixed[(i + 1) % n] - fixed[i];
            let nrm = outward(e);
            let approach = d.dot(nrm);
            if approach > -DIR_SLACK {
                continue; // parallel (within rounding) or leaving: never an entering event
            }
            let p0 = fixed[i] + nrm * g;
            let den = d.perp_dot(e);
            if den == 0.0 {
                continue;
            }
            for (j, &v) in mover.iter().enumerate() {
                let w = p0 - v;
                let t = w.perp_dot(e) / den;
                let s = w.perp_dot(d) / den;
                if (-PARAM_SLACK..=1.0 + PARAM_SLACK).contains(&s)
                    && (g > GRAZE_CM || corner_collides(mover, j, fixed, i, s, d))
                {
                    let touch = if on_b {
                        fixed[i] + e * s.clamp(0.0, 1.0)
                    } else {
                        v
                    };
                    consider(t, touch);
                }
            }
        }
    }
    // Vertex against vertex at distance g.
    if g > 0.0 {
        for &va in a.verts {
            for &vb in b.verts {
                let w = vb - va;
                let proj = w.dot(dir);
                if proj <= 0.0 {
                    continue; // not approaching
                }
                // The distance from `vb` to the line `va` runs along, as a cross product: the
                // difference of squares loses the few thousandths of a cm that matter when the
                // two corners meet almost head on (found by the property tests: a charge ran a
                // base into a friend's corner).
                let perp2 = if legacy {
                    w.length_squared() - proj * proj
                } else {
                    let perp = w.perp_dot(dir);
                    perp * perp
                };
                let disc = g * g - perp2;
                // A tangent (or nearly) only grazes the gap circle: not an entering event.
                if disc > GRAZE_CM * GRAZE_CM {
                    consider(proj - disc.sqrt(), vb);
                }
            }
        }
    }
    best
}

/// Angle of `p` about `c`.
#[inline]
fn ang(c: Vec2, p: Vec2) -> f32 {
    let d = p - c;
    d.y.atan2(d.x)
}

/// Intersections of the circle (`c`, `rho`) with the segment `[p0, p0 + e]`.
fn circle_segment(c: Vec2, rho: f32, p0: Vec2, e: Vec2, out: &mut [Vec2; 2]) -> usize {
    let w = p0 - c;
    let a = e.length_squared();
    if a <= f32::MIN_POSITIVE {
        return 0;
    }
    let b = e.dot(w);
    let cc = w.length_squared() - rho * rho;
    let disc = b * b - a * cc;
    if disc < 0.0 {
        return 0;
    }
    let sq = disc.sqrt();
    let mut k = 0;
    for s in [(-b - sq) / a, (-b + sq) / a] {
        if (-PARAM_SLACK..=1.0 + PARAM_SLACK).contains(&s) {
            out[k] = p0 + e * s;
            k += 1;
        }
    }
    k
}

/// Intersections of two circles.
fn circle_circle(c0: Vec2, r0: f32, c1: Vec2, r1: f32, out: &mut [Vec2; 2]) -> usize {
    let d = c1 - c0;
    let dist2 = d.length_squared();
    let dist = dist2.sqrt();
    if dist <= f32::MIN_POSITIVE || dist > r0 + r1 || dist < (r0 - r1).abs() {
        return 0;
    }
    let a = (r0 * r0 - r1 * r1 + dist2) / (2.0 * dist);
    let h = (r0 * r0 - a * a).max(0.0).sqrt();
    let m = c0 + d * (a / dist);
    let perp = Vec2::new(-d.y, d.x) / dist;
    out[0] = m + perp * h;
    out[1] = m - perp * h;
    2
}

/// First angle `θ ∈ [0, max_angle]` at which `a`, rotated about `pivot` by `sign · θ` (`sign` +1
/// counter-clockwise, −1 clockwise), comes within `gap` of `b`, entering.
pub fn rotate(
    a: CastShape,
    pivot: Vec2,
    sign: f32,
    max_angle: f32,
    b: CastShape,
    gap: f32,
) -> Option<Hit> {
    use core::f32::consts::TAU;
    let sign = if sign < 0.0 { -1.0 } else { 1.0 };
    let g = match effective_gap(a, b, gap, |sep| {
        // Velocity of a's centroid under the rotation.
        let c = centroid(a.verts) - pivot;
        sep.dot(Vec2::new(-c.y, c.x) * sign) >= 0.0
    }) {
        Ok(g) => g,
        Err(true) => {
            return Some(Hit {
                at: 0.0,
                point: centroid(a.verts),
            });
        }
        Err(false) => return None,
    };
    let mut best: Option<Hit> = None;
    let mut consider = |theta: f32, rho: f32, point: Vec2| {
        let slack = if rho > 0.0 {
            CAST_START_SLACK_CM / rho
        } else {
            0.0
        };
        let mut th = theta.rem_euclid(TAU);
        if th > TAU - slack {
            th = 0.0;
        }
        if th <= max_angle && best.is_none_or(|h| th < h.at) {
            best = Some(Hit { at: th, point });
        }
    };
    let mut pts = [Vec2::ZERO; 2];
    // (1) a vertex of `a` on its circle meets an offset edge of `b`; (2) a vertex of `b`, rotating
    // the other way in a's frame, meets an offset edge of `a`.
    for (mover, fixed, s, on_b) in [
        (a.verts, b.verts, sign, true),
        (b.verts, a.verts, -sign, false),
    ] {
        let n = fixed.len();
        for i in 0..n {
            let e = fixed[(i + 1) % n] - fixed[i];
            let nrm = outward(e);
            let p0 = fixed[i] + nrm * g;
            for (j, &v) in mover.iter().enumerate() {
                let rho = v.distance(pivot);
                if rho <= f32::MIN_POSITIVE {
                    continue; // the pivot itself does not move
                }
                let k = circle_segment(pivot, rho, p0, e, &mut pts);
                let a0 = ang(pivot, v);
                for &x in &pts[..k] {
                    let r = x - pivot;
                    let vel = Vec2::new(-r.y, r.x) * s;
                    if vel.dot(nrm) > -DIR_SLACK * rho {
                        continue;
                    }
                    if g <= GRAZE_CM {
                        let sp = (x - p0).dot(e) / e.length_squared();
                        // The mover's corner cone, carried to the event pose.
                        let th = ang(pivot, x) - ang(pivot, v);
                        let rot = Vec2::from_angle(th);
                        let moved: [Vec2; 3] = {
                            let m = mover.len();
                            let at = |q: Vec2| pivot + rot.rotate(q - pivot);
                            [at(mover[(j + m - 1) % m]), at(v), at(mover[(j + 1) % m])]
                        };
                        if !corner_collides(&moved, 1, fixed, i, sp, vel) {
                            continue;
                        }
                    }
                    let theta = s * (ang(pivot, x) - a0);
                    let touch = if on_b { x - nrm * g } else { v };
                    consider(theta, rho, touch);
                }
            }
        }
    }
    // (3) vertex against vertex at distance g.
    if g > 0.0 {
        for &va in a.verts {
            let rho = va.distance(pivot);
            if rho <= f32::MIN_POSITIVE {
                continue;
            }
            let a0 = ang(pivot, va);
            for &vb in b.verts {
                let k = circle_circle(pivot, rho, vb, g, &mut pts);
                for &x in &pts[..k] {
                    let r = x - pivot;
                    let vel = Vec2::new(-r.y, r.x) * sign;
                    if vel.dot(x - vb) > -DIR_SLACK * rho * g {
                        continue;
                    }
                    consider(sign * (ang(pivot, x) - a0), rho, vb);
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rect::Rect;
    use core::f32::consts::{FRAC_PI_2, PI};

    fn r(x: f32, y: f32, w: f32, d: f32, a: f32) -> [Vec2; 4] {
        Rect::try_new(Vec2::new(x, y), Vec2::new(w, d), a)
            .unwrap()
            .ccw_corners()
    }
    fn s(v: &[Vec2]) -> CastShape<'_> {
        CastShape {
            verts: v,
            convex: true,
        }
    }

    #[test]
    fn straight_into_a_base_front_on() {
        // Mover front edge at y = 1, obstacle rear edge at y = 11: contact after 10 cm,
        // stopping 2 cm short after 8 cm.
        let a = r(0.0, 0.0, 4.0, 2.0, 0.0);
        let b = r(0.0, 12.0, 4.0, 2.0, 0.0);
        let h = translate(s(&a), Vec2::Y, 100.0, s(&b), 0.0).unwrap();
        assert!((h.at - 10.0).abs() < 1e-4);
        let h = translate(s(&a), Vec2::Y, 100.0, s(&b), 2.0).unwrap();
        assert!((h.at - 8.0).abs() < 1e-4);
        assert!(translate(s(&a), Vec2::Y, 7.0, s(&b), 2.0).is_none());
        assert!(translate(s(&a), Vec2::NEG_Y, 100.0, s(&b), 2.0).is_none());
    }

    /// Two corners meeting almost head on, 17 cm away: the gap circle must still catch it (the
    /// difference of squares lost it, and a charge ran a base into a friend's corner).
    #[test]
    fn corners_meeting_head_on_from_afar_are_caught() {
        use crate::pose::Pose;
        use crate::rect::Rect;
        let mk = |x: f32, y: f32, a: f32| {
            Rect::new(Pose::new(Vec2::new(x, y), a), Vec2::new(2.0, 1.5)).ccw_corners()
        };
        let a = mk(88.09543, 13.423523, 0.09184909);
        let b = mk(88.792854, 34.4987, 0.7667172);
        let dir = Vec2::new(-0.09184909f32.sin(), 0.09184909f32.cos());
        let h = translate(s(&a), dir, 18.86, s(&b), 0.005).expect("it hits");
        assert!((h.at - 16.9975).abs() < 0.01, "{h:?}");
    }

    #[test]
    fn corner_gap_uses_the_circle() {
        // The mover's FR corner (2, 1) runs north 1 cm left of the obstacle's RL corner (3, 11).
        // With a 2 cm gap the corner circle is reached √(2² − 1²) = √3 cm before they draw level,
        // i.e. after 10 − √3 cm.
        let a = r(0.0, 0.0, 4.0, 2.0, 0.0);
        let b = r(5.0, 12.0, 4.0, 2.0, 0.0); // RL corner (3, 11)
        let h = translate(s(&a), Vec2::Y, 100.0, s(&b), 2.0).unwrap();
        assert!((h.at - (10.0 - 3f32.sqrt())).abs() < 1e-4, "{h:?}");
        // Contact (gap 0) never happens: it slides past 1 cm away.
        assert!(translate(s(&a), Vec2::Y, 100.0, s(&b), 0.0).is_none());
    }

    #[test]
    fn starting_within_the_gap_may_not_come_closer() {
        let a = r(0.0, 0.0, 4.0, 2.0, 0.0);
        let b = r(0.0, 3.0, 4.0, 2.0, 0.0); // 1 cm ahead
        assert_eq!(translate(s(&a), Vec2::Y, 5.0, s(&b), 2.0).unwrap().at, 0.0);
        assert!(translate(s(&a), Vec2::NEG_Y, 5.0, s(&b), 2.0).is_none());
        // Sliding sideways keeps the same 1 cm: allowed until the corner circles (after 4 cm the
        // bases no longer face each other and the distance grows).
        assert!(translate(s(&a), Vec2::X, 10.0, s(&b), 2.0).is_none());
        // Touching side by side, moving forward along the friend: free.
        let f = r(4.0, 0.0, 4.0, 2.0, 0.0);
        assert!(translate(s(&a), Vec2::Y, 10.0, s(&f), 0.0).is_none());
        // Wheeling forward about its front-right corner, which touches the friend, the base swings
        // into it at once; wheeling the other way (clockwise about FL) it leaves.
        assert_eq!(
            rotate(s(&a), Vec2::new(2.0, 1.0), 1.0, 1.0, s(&f), 0.0)
                .unwrap()
                .at,
            0.0
        );
        assert!(rotate(s(&a), Vec2::new(-2.0, 1.0), -1.0, 1.0, s(&f), 0.0).is_none());
        // Moving into it: blocked at once.
        assert_eq!(translate(s(&a), Vec2::X, 10.0, s(&f), 0.0).unwrap().at, 0.0);
    }

    #[test]
    fn thin_obstacle_is_not_tunnelled() {
        let a = r(0.0, 0.0, 4.0, 2.0, 0.0);
        let wall = r(0.0, 20.0, 40.0, 0.01, 0.3);
        let h = translate(s(&a), Vec2::Y, 100.0, s(&wall), 0.0).unwrap();
        assert!(h.at > 10.0 && h.at < 25.0);
    }

    #[test]
    fn rotation_about_front_left_hits_base_ahead() {
        // A 12×2 line, FL corner at (0, 0) (centre (6, −1)), wheels left (counter-clockwise) about
        // FL. An obstacle occupies x ∈ [10, 14], y ∈ [3, 5]. The FR corner (12, 0) swings on a
        // circle of radius 12 and reaches y = 3 at x = √(144 − 9) ≈ 11.62 ∈ [10, 14], at
        // θ = asin(3/12); the obstacle's RL corner (10, 3) would only meet the front edge later,
        // at atan2(3, 10).
        let a = r(6.0, -1.0, 12.0, 2.0, 0.0);
        let b = r(12.0, 4.0, 4.0, 2.0, 0.0);
        let h = rotate(s(&a), Vec2::ZERO, 1.0, FRAC_PI_2, s(&b), 0.0).unwrap();
        assert!((h.at - (3.0f32 / 12.0).asin()).abs() < 1e-4, "{h:?}");
        // Clockwise about FL the front swings down, away from it.
        assert!(rotate(s(&a), Vec2::ZERO, -1.0, FRAC_PI_2, s(&b), 0.0).is_none());
    }

    #[test]
    fn rotation_edge_meets_obstacle_corner() {
        // The obstacle spans x ∈ [5, 9], y ∈ [2, 4], over the line's front edge; rotating
        // counter-clockwise about FL (0, 0), the front edge (the segment at angle θ, 12 long) first
        // meets the obstacle's RR corner (9, 2) (|(9,2)| ≈ 9.2 < 12) at θ = atan2(2, 9), before the
        // RL corner (5, 2) at atan2(2, 5).
        let a = r(6.0, -1.0, 12.0, 2.0, 0.0);
        let b = r(7.0, 3.0, 4.0, 2.0, 0.0);
        let h = rotate(s(&a), Vec2::ZERO, 1.0, PI, s(&b), 0.0).unwrap();
        assert!((h.at - 2.0f32.atan2(9.0)).abs() < 1e-4, "{h:?}");
        assert!((h.point - Vec2::new(9.0, 2.0)).length() < 1e-4);
    }

    #[test]
    fn rotation_with_gap_meets_the_vertex_circle() {
        // The obstacle's RR corner V is at (0, 14), straight north of the pivot. The FR corner
        // (|FR| = 12) grazes it at θ = π/2, 2 cm away, without coming closer; the line's RR corner
        // (12, −2), radius √148, comes within 2 cm later, where its circle meets the circle of
        // radius 2 about V: along the axis a = (148 − 4 + 196) / 28, across h = √(148 − a²), so
        // θ = atan2(a, h) − atan2(−2, 12).
        let a = r(6.0, -1.0, 12.0, 2.0, 0.0);
        let b = r(-2.0, 15.0, 4.0, 2.0, 0.0);
        let h = rotate(s(&a), Vec2::ZERO, 1.0, PI, s(&b), 2.0).unwrap();
        let ax = (148.0 - 4.0 + 196.0) / 28.0f32;
        let hx = (148.0 - ax * ax).sqrt();
        let expect = ax.atan2(hx) - (-2.0f32).atan2(12.0);
        assert!(expect > FRAC_PI_2);
        assert!((h.at - expect).abs() < 1e-3, "{h:?} vs {expect}");
        // With a 2.5 cm gap the FR corner itself comes within reach before π/2.
        let h = rotate(s(&a), Vec2::ZERO, 1.0, PI, s(&b), 2.5).unwrap();
        assert!(h.at < FRAC_PI_2);
    }

    #[test]
    fn concave_obstacle() {
        // A U-shaped wall open to the south; a base moving north inside the U hits the bottom of
        // its north bar: inner edge at y = 10.
        let u = vec![
            Vec2::new(-10.0, -10.0),
            Vec2::new(-8.0, -10.0),
            Vec2::new(-8.0, 10.0),
            Vec2::new(8.0, 10.0),
            Vec2::new(8.0, -10.0),
            Vec2::new(10.0, -10.0),
            Vec2::new(10.0, 12.0),
            Vec2::new(-10.0, 12.0),
        ];
        let a = r(0.0, 0.0, 4.0, 2.0, 0.0);
        let cu = CastShape {
            verts: &u,
            convex: false,
        };
        let h = translate(s(&a), Vec2::Y, 100.0, cu, 0.0).unwrap();
        assert!((h.at - 9.0).abs() < 1e-4);
        let h = translate(s(&a), Vec2::X, 100.0, cu, 0.5).unwrap();
        assert!((h.at - 5.5).abs() < 1e-4);
    }

    #[test]
    fn overlapping_start_only_leaves() {
        let a = r(0.0, 0.0, 4.0, 2.0, 0.0);
        let b = r(0.0, 1.0, 4.0, 2.0, 0.0);
        assert_eq!(translate(s(&a), Vec2::Y, 5.0, s(&b), 0.0).unwrap().at, 0.0);
        assert!(translate(s(&a), Vec2::NEG_Y, 5.0, s(&b), 0.0).is_none());
    }
}
