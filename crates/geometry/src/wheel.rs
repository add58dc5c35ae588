//! Wheels (BFS-MOV-13/14, GEO-10, AMB-4): the whole unit rotates about a front corner. The cost is
//! the arc the reference corner travels, `|θ| · |Q − P|`, with Q the corner diagonally opposite the
//! pivot (the literal reading, default) or the outer front corner ([`WheelReference::OuterFront`],
//! the reading suggested by the alignment example). Backward wheels cost at the backward rate
//! (AMB-5). Collisions are checked continuously along the arc (exact, closed-form, in the crate's `cast` module), which is
//! stricter than GEO-10's 0.25 cm sub-steps.

use crate::cast::{self, CastShape};
use crate::contact::Corner;
use crate::error::{GeoError, check_finite, check_non_negative, check_point};
use crate::movement::{Blocker, Body, MoveCost, Obstacles, internal_gap};
use crate::pose::Pose;
use crate::rect::Rect;
use crate::scene::Scene;
use crate::tolerance::{ARC_SUBSTEP_CM, CONTACT_GAP};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The front corner a wheel pivots on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pivot {
    FrontLeft,
    FrontRight,
}

impl Pivot {
    pub fn corner(self) -> Corner {
        match self {
            Pivot::FrontLeft => Corner::FrontLeft,
            Pivot::FrontRight => Corner::FrontRight,
        }
    }

    /// The pivot's position on a frame rectangle.
    pub fn point(self, frame: &Rect) -> Vec2 {
        match self {
            Pivot::FrontLeft => frame.front_left(),
            Pivot::FrontRight => frame.front_right(),
        }
    }
}

/// Forward wheels carry the free end forward; backward wheels carry it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WheelSense {
    Forward,
    Backward,
}

/// Which corner's travel a wheel costs (AMB-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum WheelReference {
    /// The corner diagonally opposite the pivot (BFS-MOV-14, literal reading). Default.
    #[default]
    DiagonalOpposite,
    /// The other front corner (the alignment example's "wheel with the other corner").
    OuterFront,
}

/// A wheel: about which corner, which way, and how far (`angle ≥ 0`, radians).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Wheel {
    pub pivot: Pivot,
    pub sense: WheelSense,
    pub angle: f32,
}

impl Wheel {
    /// The rotation sign (counter-clockwise positive): forward about FL turns left (θ > 0),
    /// forward about FR turns right (θ < 0); backward the opposite (GEO-10).
    pub fn sign(pivot: Pivot, sense: WheelSense) -> f32 {
        match (pivot, sense) {
            (Pivot::FrontLeft, WheelSense::Forward) | (Pivot::FrontRight, WheelSense::Backward) => {
                1.0
            }
            _ => -1.0,
        }
    }

    /// The signed rotation angle.
    pub fn theta(&self) -> f32 {
        Self::sign(self.pivot, self.sense) * self.angle
    }

    fn check(&self) -> Result<(), GeoError> {
        check_non_negative("wheel angle", self.angle)?;
        if self.angle > core::f32::consts::TAU {
            return Err(GeoError::OutOfRange {
                what: "wheel angle",
                why: format!("{} rad is more than a turn", self.angle),
            });
        }
        Ok(())
    }
}

/// `|Q − P|`: the radius of the reference corner's arc.
pub fn wheel_radius(
    frame: &Rect,
    pivot: Pivot,
    reference: WheelReference,
) -> Result<f32, GeoError> {
    frame.check("unit frame")?;
    Ok(radius_unchecked(frame, pivot, reference))
}

fn radius_unchecked(frame: &Rect, pivot: Pivot, reference: WheelReference) -> f32 {
    let w = 2.0 * frame.half.x;
    let d = 2.0 * frame.half.y;
    match reference {
        WheelReference::DiagonalOpposite => (w * w + d * d).sqrt(),
        WheelReference::OuterFront => {
            let _ = pivot;
            w
        }
    }
}

/// Allowance a wheel costs: arc length of the reference corner, at the forward or backward rate.
pub fn wheel_cost(
    frame: &Rect,
    wheel: &Wheel,
    reference: WheelReference,
    cost: MoveCost,
) -> Result<f32, GeoError> {
    frame.check("unit frame")?;
    wheel.check()?;
    let rate = match wheel.sense {
        WheelSense::Forward => cost.forward,
        WheelSense::Backward => cost.backward,
    };
    Ok(wheel.angle * radius_unchecked(frame, wheel.pivot, reference) * rate)
}

/// The largest wheel angle an allowance buys: `A / (|Q − P| · rate)` (GEO-10).
pub fn max_wheel_angle(
    frame: &Rect,
    pivot: Pivot,
    sense: WheelSense,
    allowance: f32,
    reference: WheelReference,
    cost: MoveCost,
) -> Result<f32, GeoError> {
    frame.check("unit frame")?;
    check_non_negative("allowance", allowance)?;
    let rate = match sense {
        WheelSense::Forward => cost.forward,
        WheelSense::Backward => cost.backward,
    };
    crate::error::check_positive("cost rate", rate)?;
    Ok(allowance / (radius_unchecked(frame, pivot, reference) * rate))
}

/// Cost of a rotation about an arbitrary point `c` (the alignment wheel about the first contact
/// point, GEO-10 "general pivot", GEO-12): `|θ| · max |corner − c|` over the measured corners — all
/// four for [`WheelReference::DiagonalOpposite`], the front two for
/// [`WheelReference::OuterFront`].
pub fn pivot_cost(
    frame: &Rect,
    c: Vec2,
    theta: f32,
    reference: WheelReference,
) -> Result<f32, GeoError> {
    frame.check("unit frame")?;
    check_point("pivot", c)?;
    check_finite("angle", &[theta])?;
    Ok(theta.abs() * pivot_radius(frame, c, reference))
}

pub(crate) fn pivot_radius(frame: &Rect, c: Vec2, reference: WheelReference) -> f32 {
    let cs = frame.corners();
    let n = match reference {
        WheelReference::DiagonalOpposite => 4,
        WheelReference::OuterFront => 2,
    };
    cs[..n].iter().map(|p| p.distance(c)).fold(0.0, f32::max)
}

/// The result of a wheel or other rotation.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WheelOutcome {
    /// The pivot point on the table.
    pub pivot: Vec2,
    /// Signed angle actually turned (counter-clockwise positive).
    pub theta: f32,
    /// What stopped it short, if anything.
    pub blocked: Option<Blocker>,
}

impl WheelOutcome {
    /// A rectangle (frame or base) after the rotation.
    pub fn apply(&self, r: &Rect) -> Rect {
        r.rotated_about(self.pivot, self.theta)
    }
}

/// Axis-aligned bounds of every base corner's arc about `pivot` through `theta`.
fn swept_bounds(bases: &[Rect], pivot: Vec2, theta: f32) -> (Vec2, Vec2) {
    use core::f32::consts::{FRAC_PI_2, TAU};
    let mut lo = Vec2::splat(f32::INFINITY);
    let mut hi = Vec2::splat(f32::NEG_INFINITY);
    let rot = Vec2::from_angle(theta);
    for b in bases {
        for c in b.corners() {
            let r = c - pivot;
            let end = pivot + rot.rotate(r);
            lo = lo.min(c).min(end);
            hi = hi.max(c).max(end);
            let rho = r.length();
            let a0 = r.y.atan2(r.x);
            for k in 0..4 {
                let axis = k as f32 * FRAC_PI_2;
                // Angle from a0 to the axis direction, in the direction of rotation.
                let delta = if theta >= 0.0 {
                    (axis - a0).rem_euclid(TAU)
                } else {
                    (a0 - axis).rem_euclid(TAU)
                };
                if delta <= theta.abs() {
                    let p = pivot + Vec2::from_angle(axis) * rho;
                    lo = lo.min(p);
                    hi = hi.max(p);
                }
            }
        }
    }
    (lo, hi)
}

/// Rotates `body` about the table point `pivot` by up to `theta` (signed), stopping at the first
/// obstacle (GEO-10 collision checking, GEO-12 alignment).
pub fn rotate_body(
    scene: &Scene,
    body: &Body,
    pivot: Vec2,
    theta: f32,
    obstacles: &impl Obstacles,
) -> Result<WheelOutcome, GeoError> {
    body.check()?;
    check_point("pivot", pivot)?;
    check_finite("angle", &[theta])?;
    if theta.abs() > core::f32::consts::TAU {
        return Err(GeoError::OutOfRange {
            what: "rotation",
            why: format!("{theta} rad is more than a turn"),
        });
    }
    if theta == 0.0 {
        return Ok(WheelOutcome {
            pivot,
            theta: 0.0,
            blocked: None,
        });
    }
    let sign = theta.signum();
    let mut best = theta.abs();
    let mut blocker = None;
    let (lo, hi) = swept_bounds(body.bases, pivot, theta);
    let m = Vec2::splat(obstacles.max_gap() + CONTACT_GAP);
    for b in body.bases {
        let poly = b.ccw_corners();
        let mover = CastShape {
            verts: &poly,
            convex: true,
        };
        scene.for_each_base_in_aabb(lo - m, hi + m, |i| {
            let sb = &scene.bases()[i];
            if let Some(g) = obstacles.base_gap(sb) {
                let ob = sb.rect.ccw_corners();
                if let Some(h) = cast::rotate(
                    mover,
                    pivot,
                    sign,
                    best,
                    CastShape {
                        verts: &ob,
                        convex: true,
                    },
                    internal_gap(g),
                ) && (h.at < best || blocker.is_none())
                {
                    best = h.at;
                    blocker = Some(Blocker::Base {
                        index: i,
                        unit: sb.unit,
                        point: h.point,
                    });
                }
            }
            true
        });
        scene.for_each_terrain_in_aabb(lo - m, hi + m, |i| {
            let t = &scene.terrain()[i];
            if let Some(g) = obstacles.terrain_gap(t) {
                let shape = CastShape {
                    verts: t.polygon.vertices(),
                    convex: t.polygon.is_convex(),
                };
                if let Some(h) = cast::rotate(mover, pivot, sign, best, shape, internal_gap(g))
                    && (h.at < best || blocker.is_none())
                {
                    best = h.at;
                    blocker = Some(Blocker::Terrain {
                        index: i,
                        id: t.id,
                        point: h.point,
                    });
                }
            }
            true
        });
    }
    // Safety net for tangential starts (a base already touching an obstacle as the rotation
    // begins): the exact events can miss them, so the end pose is verified and, if it would
    // overlap, the angle is backed off by bisection to the largest clear one.
    if best > 0.0 && ends_overlapping(scene, body, pivot, sign * best, obstacles) {
        let (mut lo, mut hi) = (0.0f32, best);
        for _ in 0..24 {
            let mid = 0.5 * (lo + hi);
            if ends_overlapping(scene, body, pivot, sign * mid, obstacles) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        best = lo;
        if blocker.is_none() {
            blocker = first_overlap(scene, body, pivot, sign * hi, obstacles);
        }
    }
    Ok(WheelOutcome {
        pivot,
        theta: sign * best,
        blocked: blocker,
    })
}

/// Would the body, rotated by `theta` about `pivot`, overlap an obstacle it must not enter?
fn ends_overlapping(
    scene: &Scene,
    body: &Body,
    pivot: Vec2,
    theta: f32,
    obstacles: &impl Obstacles,
) -> bool {
    first_overlap(scene, body, pivot, theta, obstacles).is_some()
}

/// The first obstacle the rotated body overlaps (interiors, not mere contact).
fn first_overlap(
    scene: &Scene,
    body: &Body,
    pivot: Vec2,
    theta: f32,
    obstacles: &impl Obstacles,
) -> Option<Blocker> {
    let mut found = None;
    for b in body.bases {
        let r = b.rotated_about(pivot, theta);
        let poly = r.ccw_corners();
        let shape = CastShape {
            verts: &poly,
            convex: true,
        };
        let (lo, hi) = r.aabb();
        scene.for_each_base_in_aabb(lo, hi, |i| {
            let sb = &scene.bases()[i];
            if obstacles.base_gap(sb).is_some() {
                let ob = sb.rect.ccw_corners();
                if crate::cast::shapes_overlap(
                    shape,
                    CastShape {
                        verts: &ob,
                        convex: true,
                    },
                ) {
                    found = Some(Blocker::Base {
                        index: i,
                        unit: sb.unit,
                        point: sb.rect.center(),
                    });
                    return false;
                }
            }
            true
        });
        if found.is_some() {
            return found;
        }
        scene.for_each_terrain_in_aabb(lo, hi, |i| {
            let t = &scene.terrain()[i];
            if obstacles.terrain_gap(t).is_some() {
                let shape_t = CastShape {
                    verts: t.polygon.vertices(),
                    convex: t.polygon.is_convex(),
                };
                if crate::cast::shapes_overlap(shape, shape_t) {
                    found = Some(Blocker::Terrain {
                        index: i,
                        id: t.id,
                        point: r.center(),
                    });
                    return false;
                }
            }
            true
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Performs a wheel about a front corner of the body's frame (GEO-10).
pub fn wheel(
    scene: &Scene,
    body: &Body,
    wheel: &Wheel,
    obstacles: &impl Obstacles,
) -> Result<WheelOutcome, GeoError> {
    wheel.check()?;
    body.check()?;
    rotate_body(
        scene,
        body,
        wheel.pivot.point(&body.frame),
        wheel.theta(),
        obstacles,
    )
}

/// Poses of the frame along a rotation, spaced so that no corner moves more than
/// [`ARC_SUBSTEP_CM`] between two of them (GEO-10), ending exactly at `theta`: for drawing a wheel
/// preview, or for callers that check their own constraints per step.
pub fn arc_poses(frame: &Rect, pivot: Vec2, theta: f32) -> Result<Vec<Pose>, GeoError> {
    frame.check("unit frame")?;
    check_point("pivot", pivot)?;
    check_finite("angle", &[theta])?;
    let rho = frame
        .corners()
        .iter()
        .map(|c| c.distance(pivot))
        .fold(0.0, f32::max);
    let steps = ((theta.abs() * rho / ARC_SUBSTEP_CM).ceil() as usize).clamp(1, 100_000);
    Ok((1..=steps)
        .map(|k| {
            frame
                .pose
                .rotated_about(pivot, theta * k as f32 / steps as f32)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::SidePolicy;
    use crate::scene::SceneBase;
    use core::f32::consts::{FRAC_PI_2, PI};

    fn line_frame() -> Rect {
        // 3 infantry bases: 12 × 2, front edge y = 0, x ∈ [0, 12].
        Rect::try_new(Vec2::new(6.0, -1.0), Vec2::new(12.0, 2.0), 0.0).unwrap()
    }

    fn line_bases() -> Vec<Rect> {
        (0..3)
            .map(|i| {
                Rect::try_new(
                    Vec2::new(2.0 + 4.0 * i as f32, -1.0),
                    Vec2::new(4.0, 2.0),
                    0.0,
                )
                .unwrap()
            })
            .collect()
    }

    #[test]
    fn bfs_mov_14_reference_corner_travels_five_of_ten() {
        // Move 10: a wheel whose reference corner travels 5 cm leaves 5 cm. For the 12 × 2 line
        // the diagonal is √148 ≈ 12.166, so θ = 5 / √148 and the cost is exactly 5.
        let f = line_frame();
        let theta = 5.0 / 148f32.sqrt();
        let w = Wheel {
            pivot: Pivot::FrontLeft,
            sense: WheelSense::Forward,
            angle: theta,
        };
        let c = wheel_cost(
            &f,
            &w,
            WheelReference::DiagonalOpposite,
            MoveCost::default(),
        )
        .unwrap();
        assert!((c - 5.0).abs() < 1e-5);
        let left = 10.0 - c;
        assert!((left - 5.0).abs() < 1e-5);
        // The reference corner (RR, diagonally opposite FL) really travels an arc of 5 cm.
        let rr = f.rear_right();
        let after = f.rotated_about(f.front_left(), w.theta());
        assert!(
            (after.rear_right().distance(rr) - 2.0 * 148f32.sqrt() * (theta / 2.0).sin()).abs()
                < 1e-4
        );
        // With the outer-front option the radius is the width, 12.
        let c = wheel_cost(&f, &w, WheelReference::OuterFront, MoveCost::default()).unwrap();
        assert!((c - 12.0 * theta).abs() < 1e-5);
        // Max angle for an allowance of 10 and back: 10 / √148.
        let m = max_wheel_angle(
            &f,
            Pivot::FrontLeft,
            WheelSense::Forward,
            10.0,
            WheelReference::default(),
            MoveCost::default(),
        )
        .unwrap();
        assert!((m - 10.0 / 148f32.sqrt()).abs() < 1e-6);
        // A backward wheel costs double.
        let b = Wheel {
            sense: WheelSense::Backward,
            ..w
        };
        assert!(
            (wheel_cost(&f, &b, WheelReference::default(), MoveCost::default()).unwrap() - 10.0)
                .abs()
                < 1e-5
        );
    }

    #[test]
    fn forward_wheel_directions() {
        let f = line_frame();
        // Forward about FL: counter-clockwise, the FR corner goes north.
        let w = Wheel {
            pivot: Pivot::FrontLeft,
            sense: WheelSense::Forward,
            angle: 0.2,
        };
        assert!(f.rotated_about(f.front_left(), w.theta()).front_right().y > 0.0);
        // Forward about FR: clockwise, the FL corner goes north.
        let w = Wheel {
            pivot: Pivot::FrontRight,
            sense: WheelSense::Forward,
            angle: 0.2,
        };
        assert!(f.rotated_about(f.front_right(), w.theta()).front_left().y > 0.0);
    }

    #[test]
    fn wheel_is_stopped_by_an_enemy_at_two_cm_and_by_contact_when_charging() {
        // Enemy base x ∈ [10, 14], y ∈ [3, 5]: FR (12, 0) on its radius-12 circle reaches y = 3 at
        // θ = asin(3/12) when allowed to touch; with the 2 cm rule it stops earlier.
        let f = line_frame();
        let bases = line_bases();
        let mut v: Vec<SceneBase> = bases
            .iter()
            .map(|r| SceneBase {
                rect: *r,
                unit: 1,
                side: 0,
            })
            .collect();
        let enemy = Rect::try_new(Vec2::new(12.0, 4.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        v.push(SceneBase {
            rect: enemy,
            unit: 2,
            side: 1,
        });
        let s = Scene::new(v, vec![]).unwrap();
        let body = Body::new(f, &bases);
        let w = Wheel {
            pivot: Pivot::FrontLeft,
            sense: WheelSense::Forward,
            angle: FRAC_PI_2,
        };
        let out = wheel(&s, &body, &w, &SidePolicy::charging(1, 0)).unwrap();
        assert!((out.theta - (3.0f32 / 12.0).asin()).abs() < 2e-3, "{out:?}");
        assert_eq!(out.blocked.and_then(|b| b.unit()), Some(2));
        let moved = out.apply(&bases[2]);
        let d = crate::distance::rect_distance_unchecked(&moved, &enemy);
        assert!(d > 0.0 && d <= crate::tolerance::CONTACT_EPS, "{d}");
        let out2 = wheel(&s, &body, &w, &SidePolicy::moving(1, 0)).unwrap();
        assert!(out2.theta < out.theta);
        let d = crate::distance::rect_distance_unchecked(&out2.apply(&bases[2]), &enemy);
        assert!((d - 2.0).abs() < 1e-3, "{d}");
        // Wheeling forward about FR (clockwise) swings the front edge up toward the enemy's RL
        // corner (10, 3), 3.6 cm from the pivot: after 0.2 rad the edge is still
        // |(−cos 0.2, sin 0.2) × (−2, 3)| ≈ 2.54 cm from it, free; by 0.5 rad it would be 1.68 cm.
        let w = Wheel {
            pivot: Pivot::FrontRight,
            sense: WheelSense::Forward,
            angle: 0.2,
        };
        let out = wheel(&s, &body, &w, &SidePolicy::moving(1, 0)).unwrap();
        assert!(
            out.blocked.is_none() && (out.theta + 0.2).abs() < 1e-6,
            "{out:?}"
        );
        let w = Wheel { angle: 0.5, ..w };
        let out = wheel(&s, &body, &w, &SidePolicy::moving(1, 0)).unwrap();
        assert!(out.blocked.is_some() && out.theta > -0.5);
    }

    #[test]
    fn wheel_there_and_back_returns_the_pose() {
        let f = line_frame();
        let w = Wheel {
            pivot: Pivot::FrontRight,
            sense: WheelSense::Forward,
            angle: 0.7,
        };
        let p = w.pivot.point(&f);
        let there = f.rotated_about(p, w.theta());
        // The pivot stays put, so wheeling back about the same point restores the frame.
        assert!((w.pivot.point(&there) - p).length() < 1e-5);
        let back = there.rotated_about(p, -w.theta());
        assert!(
            (back.center() - f.center()).length() < 1e-5
                && (back.pose.angle - f.pose.angle).abs() < 1e-6
        );
    }

    #[test]
    fn general_pivot_and_arc_poses() {
        let f = line_frame();
        // About the middle of the front edge (6, 0) the farthest corners are the rear ones at
        // √(36 + 4) = √40.
        let c = pivot_cost(
            &f,
            Vec2::new(6.0, 0.0),
            0.1,
            WheelReference::DiagonalOpposite,
        )
        .unwrap();
        assert!((c - 0.1 * 40f32.sqrt()).abs() < 1e-5);
        let c = pivot_cost(&f, Vec2::new(6.0, 0.0), 0.1, WheelReference::OuterFront).unwrap();
        assert!((c - 0.6).abs() < 1e-5);
        let poses = arc_poses(&f, f.front_left(), PI / 4.0).unwrap();
        // The farthest corner is 12.166 from the pivot: the arc π/4 · 12.166 ≈ 9.55 cm needs 39 steps.
        assert_eq!(
            poses.len(),
            ((PI / 4.0 * 148f32.sqrt()) / ARC_SUBSTEP_CM).ceil() as usize
        );
        assert!((poses.last().unwrap().angle - PI / 4.0).abs() < 1e-6);
        assert!(
            wheel_cost(
                &f,
                &Wheel {
                    pivot: Pivot::FrontLeft,
                    sense: WheelSense::Forward,
                    angle: f32::NAN
                },
                WheelReference::default(),
                MoveCost::default()
            )
            .is_err()
        );
    }
}
