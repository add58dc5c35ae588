//! Charge geometry (BFS-CHG-13..22): which face of the target is struck (GEO-14), the forward
//! wheel to face it and the straight move to contact (GEO-11), reachability with a budget
//! (BFS-CHG-6 item 7, AMB-25) and the units on a charge's path (AMB-26). The alignment wheel
//! (GEO-12), the countercharge halfway line (GEO-13, AMB-27) and the readings live in
//! [`crate::charge_align`], [`crate::charge_halfway`] and [`crate::charge_params`]; they are
//! re-exported here.

use crate::error::{GeoError, check_non_negative, check_point};
use crate::movement::{Blocker, Body, Obstacles, cast_body};
use crate::pose::signed_angle;
use crate::prim;
use crate::rect::{Edge, Rect, Segment};
use crate::scene::Scene;
use crate::wheel::{Pivot, Wheel, WheelOutcome, WheelSense};
use crate::zones::{Zone, ZoneScheme, zone_shares};
use glam::Vec2;
use serde::{Deserialize, Serialize};

pub use crate::charge_align::{Alignment, align};
pub use crate::charge_halfway::{HalfwayLine, halfway_line, travel_to_line};
pub use crate::charge_params::{ChargeParams, FACING_MARGIN_CM};

/// The zone of the target holding most of the charger (GEO-14, BFS-CHG-18), to be evaluated at
/// the start of each charge movement part and stored by the caller.
pub fn charge_zone(
    target_frame: &Rect,
    charger_frame: &Rect,
    scheme: ZoneScheme,
) -> Result<Option<Zone>, GeoError> {
    Ok(zone_shares(target_frame, core::slice::from_ref(charger_frame), scheme)?.majority())
}

/// Does the charger's forward strip (the area its front edge sweeps moving straight ahead), shrunk
/// by `margin` at each side, meet the segment `edge`?
pub fn faces_edge(charger_frame: &Rect, edge: &Segment, margin: f32) -> Result<bool, GeoError> {
    charger_frame.check("charger")?;
    check_point("edge start", edge.a)?;
    check_point("edge end", edge.b)?;
    check_non_negative("margin", margin)?;
    Ok(faces_unchecked(charger_frame, edge, margin))
}

fn faces_unchecked(f: &Rect, edge: &Segment, margin: f32) -> bool {
    let hw = (f.half.x - margin).max(0.0);
    let la = f.pose.to_local(edge.a);
    let lb = f.pose.to_local(edge.b);
    let tol = 1e-4;
    prim::clip_segment_to_box(
        la,
        lb,
        Vec2::new(-hw - tol, f.half.y - tol),
        Vec2::new(hw + tol, 1.0e7),
    )
    .is_some()
}

/// A forward wheel that makes the charger face the struck edge, or the fallback.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FacingWheel {
    /// `angle == 0` when the charger already faces the edge.
    pub wheel: Wheel,
    /// `false` when no forward wheel of up to half a turn makes it face the edge: the wheel then
    /// only brings the front parallel to the edge (BFS-CHG-14 proposal).
    pub faces: bool,
}

/// Angles `φ` (signed rotation) at which `a cos φ + b sin φ = c`.
fn solve_cos(a: f32, b: f32, c: f32, out: &mut Vec<f32>) {
    let rho = (a * a + b * b).sqrt();
    if rho <= 1e-9 || c.abs() > rho {
        return;
    }
    let base = b.atan2(a);
    let d = (c / rho).clamp(-1.0, 1.0).acos();
    out.push(base + d);
    out.push(base - d);
}

/// Candidate signed rotations about `pivot` at which the facing condition can change.
fn facing_events(f: &Rect, pivot: Vec2, edge: &Segment, margin: f32, out: &mut Vec<f32>) {
    let hw = (f.half.x - margin).max(0.0);
    let hd = f.half.y;
    let r0 = f.pose.right();
    let f0 = f.pose.facing();
    let k = f.center() - pivot;
    let (kx, ky) = (k.dot(r0), k.dot(f0));
    for q in [edge.a, edge.b] {
        let d = q - pivot;
        let (a, b) = (d.dot(r0), d.dot(f0));
        // x(φ) = a cos φ + b sin φ − kx = ±hw
        solve_cos(a, b, kx + hw, out);
        solve_cos(a, b, kx - hw, out);
        // y(φ) = −a sin φ + b cos φ − ky = hd  ⇔  b cos φ + (−a) sin φ = ky + hd
        solve_cos(b, -a, ky + hd, out);
    }
    // The strip's two front corners, moving on circles about the pivot, crossing the edge.
    for sx in [-hw, hw] {
        let s0 = f.pose.to_world(Vec2::new(sx, hd));
        let rho = s0.distance(pivot);
        if rho <= 1e-6 {
            continue;
        }
        let w = edge.a - pivot;
        let e = edge.b - edge.a;
        let qa = e.length_squared();
        if qa <= f32::MIN_POSITIVE {
            continue;
        }
        let qb = e.dot(w);
        let qc = w.length_squared() - rho * rho;
        let disc = qb * qb - qa * qc;
        if disc < 0.0 {
            continue;
        }
        let a0 = (s0 - pivot).y.atan2((s0 - pivot).x);
        for t in [(-qb - disc.sqrt()) / qa, (-qb + disc.sqrt()) / qa] {
            if (-1e-6..=1.0 + 1e-6).contains(&t) {
                let x = edge.a + e * t - pivot;
                out.push(x.y.atan2(x.x) - a0);
            }
        }
    }
}

/// The smallest forward wheel, about either front corner, after which the charger faces the
/// target's edge for `zone` (GEO-11), without wheeling from the target's front or rear zone into
/// a flank zone (BFS-CHG-18). If none exists within half a turn, the forward wheel that makes the
/// front parallel to the edge, marked `faces: false`.
pub fn facing_wheel(
    charger_frame: &Rect,
    target_frame: &Rect,
    zone: Zone,
    params: &ChargeParams,
) -> Result<FacingWheel, GeoError> {
    charger_frame.check("charger")?;
    target_frame.check("target")?;
    check_non_negative("facing margin", params.facing_margin)?;
    let edge = target_frame.edge(zone.edge());
    let margin = params.facing_margin.min(charger_frame.half.x * 0.5);
    if faces_unchecked(charger_frame, &edge, margin) {
        return Ok(FacingWheel {
            wheel: Wheel {
                pivot: Pivot::FrontLeft,
                sense: WheelSense::Forward,
                angle: 0.0,
            },
            faces: true,
        });
    }
    let mut best: Option<Wheel> = None;
    let mut events = Vec::with_capacity(24);
    for pivot in [Pivot::FrontLeft, Pivot::FrontRight] {
        let p = pivot.point(charger_frame);
        let sign = Wheel::sign(pivot, WheelSense::Forward);
        events.clear();
        facing_events(charger_frame, p, &edge, margin, &mut events);
        let mut mags: Vec<f32> = events
            .iter()
            .map(|phi| (sign * phi).rem_euclid(core::f32::consts::TAU))
            .filter(|t| *t > 0.0 && *t <= core::f32::consts::PI)
            .collect();
        mags.sort_by(f32::total_cmp);
        for t in mags {
            if best.is_some_and(|b| b.angle <= t) {
                break;
            }
            let after = charger_frame.rotated_about(p, sign * t);
            if !faces_unchecked(&after, &edge, margin * 0.999) {
                continue;
            }
            if !zone.is_flank()
                && charge_zone(target_frame, &after, params.zones)?.is_some_and(|z| z.is_flank())
            {
                continue;
            }
            best = Some(Wheel {
                pivot,
                sense: WheelSense::Forward,
                angle: t,
            });
            break;
        }
    }
    if let Some(w) = best {
        return Ok(FacingWheel {
            wheel: w,
            faces: true,
        });
    }
    let phi = signed_angle(
        charger_frame.facing(),
        -target_frame.edge_normal(zone.edge()),
    );
    let pivot = if phi >= 0.0 {
        Pivot::FrontLeft
    } else {
        Pivot::FrontRight
    };
    Ok(FacingWheel {
        wheel: Wheel {
            pivot,
            sense: WheelSense::Forward,
            angle: phi.abs(),
        },
        faces: false,
    })
}

/// The enemy base a charge first touched.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ChargeContact {
    pub unit: u32,
    /// Index into the scene's bases.
    pub base: usize,
    /// First contact point (on the enemy), the alignment pivot (GEO-12).
    pub point: Vec2,
    /// Whether contact came during the wheel (else during the straight move).
    pub during_wheel: bool,
}

/// The result of [`simulate_charge`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ChargeOutcome {
    pub zone: Zone,
    /// The target's edge to be struck.
    pub edge: Edge,
    /// The facing wheel planned (angle 0 if none needed).
    pub planned: FacingWheel,
    /// The rotation performed (may be short of the plan: budget or collision).
    pub wheel: WheelOutcome,
    /// Straight distance moved after the wheel.
    pub travelled: f32,
    /// Allowance spent (wheel + straight).
    pub cost: f32,
    /// First enemy base touched, if any (the target or an incidental contact, BFS-CHG-11).
    pub contact: Option<ChargeContact>,
    /// A friend or impassable terrain that stopped it (a narrowing M-M is the caller's choice,
    /// BFS-CHG-17).
    pub blocked: Option<Blocker>,
    /// The charger's frame at the end.
    pub frame_after: Rect,
}

impl ChargeOutcome {
    /// Did the charge touch unit `target`?
    pub fn reached(&self, target: u32) -> bool {
        self.contact.is_some_and(|c| c.unit == target)
    }

    /// A rectangle of the charger (frame or base) moved as the charge moved it.
    pub fn apply(&self, r: &Rect) -> Rect {
        let rotated = self.wheel.apply(r);
        let dir = self.frame_after.facing();
        rotated.translated(dir * self.travelled)
    }
}

/// Simulates one charge movement part (GEO-11): forward wheel to face the struck edge, then
/// straight ahead until first contact, spending at most `budget` (the Basic Move in the Movement
/// Phase, the Additional Move in the Close Combat stage). `obstacles` should let enemies be touched
/// (gap 0). `zone` is the stored majority zone for this part, or `None` to compute it now.
/// Reachability for BFS-CHG-6 item 7 is `simulate_charge(.., basic_move, ..)?.reached(target)`.
#[allow(clippy::too_many_arguments)]
pub fn simulate_charge(
    scene: &Scene,
    body: &Body,
    charger: u32,
    target: u32,
    target_frame: &Rect,
    zone: Option<Zone>,
    budget: f32,
    params: &ChargeParams,
    obstacles: &impl Obstacles,
) -> Result<ChargeOutcome, GeoError> {
    body.check()?;
    target_frame.check("target frame")?;
    check_non_negative("budget", budget)?;
    let side = scene
        .unit(charger)
        .map(|u| u.side)
        .ok_or(GeoError::OutOfRange {
            what: "charger",
            why: format!("unit {charger} is not in the scene"),
        })?;
    if scene.unit(target).is_none() {
        return Err(GeoError::OutOfRange {
            what: "target",
            why: format!("unit {target} is not in the scene"),
        });
    }
    let zone = match zone {
        Some(z) => z,
        None => {
            charge_zone(target_frame, &body.frame, params.zones)?.ok_or(GeoError::Degenerate {
                what: "charge",
                why: "the charger lies inside the target's rectangle".into(),
            })?
        }
    };
    let planned = facing_wheel(&body.frame, target_frame, zone, params)?;
    let radius = crate::wheel::wheel_radius(&body.frame, planned.wheel.pivot, params.reference)?;
    let rate = params.cost.forward;
    let affordable = if radius * rate > 0.0 {
        budget / (radius * rate)
    } else {
        f32::INFINITY
    };
    let angle = planned.wheel.angle.min(affordable);
    let w = Wheel {
        angle,
        ..planned.wheel
    };
    let classify = |b: Blocker, during_wheel: bool| -> (Option<ChargeContact>, Option<Blocker>) {
        match b {
            Blocker::Base { index, unit, point } if scene.bases()[index].side != side => (
                Some(ChargeContact {
                    unit,
                    base: index,
                    point,
                    during_wheel,
                }),
                None,
            ),
            other => (None, Some(other)),
        }
    };
    let wheel_out = crate::wheel::wheel(scene, body, &w, obstacles)?;
    let wheel_cost = wheel_out.theta.abs() * radius * rate;
    let frame_w = wheel_out.apply(&body.frame);
    let mut out = ChargeOutcome {
        zone,
        edge: zone.edge(),
        planned,
        wheel: wheel_out,
        travelled: 0.0,
        cost: wheel_cost,
        contact: None,
        blocked: None,
        frame_after: frame_w,
    };
    if let Some(b) = wheel_out.blocked {
        (out.contact, out.blocked) = classify(b, true);
        return Ok(out);
    }
    if angle < planned.wheel.angle {
        return Ok(out); // the wheel carries over (BFS-CHG-14)
    }
    let remaining = (budget - wheel_cost).max(0.0);
    if remaining <= 0.0 || rate <= 0.0 {
        return Ok(out);
    }
    let rotated: Vec<Rect> = body.bases.iter().map(|r| wheel_out.apply(r)).collect();
    let moved = Body::new(frame_w, &rotated);
    let (t, blocked) = cast_body(scene, &moved, frame_w.facing(), remaining / rate, obstacles);
    out.travelled = t;
    out.cost = wheel_cost + t * rate;
    out.frame_after = frame_w.translated(frame_w.facing() * t);
    if let Some(b) = blocked {
        (out.contact, out.blocked) = classify(b, false);
    }
    Ok(out)
}

/// The units "on the path" of a charge (BFS-CHG-8, AMB-26): those with a base that the charger's
/// bases overlap or come within `reach` of while it wheels by `theta` about `pivot` and then moves
/// straight ahead `distance` (its Basic + Additional Move), ignoring where it would actually stop.
/// `consider` picks the candidate bases (e.g. enemies). Sorted unit ids.
#[allow(clippy::too_many_arguments)]
pub fn units_on_path<F: Fn(&crate::scene::SceneBase) -> bool>(
    scene: &Scene,
    body: &Body,
    pivot: Vec2,
    theta: f32,
    distance: f32,
    reach: f32,
    consider: F,
) -> Result<Vec<u32>, GeoError> {
    use crate::cast::{self, CastShape};
    body.check()?;
    check_point("pivot", pivot)?;
    crate::error::check_finite("angle", &[theta])?;
    check_non_negative("distance", distance)?;
    check_non_negative("reach", reach)?;
    let rot = Vec2::from_angle(theta);
    let facing = Vec2::from_angle(theta).rotate(body.frame.facing());
    // Bounds of everything swept: the whole circle of the wheel plus the straight part.
    let rmax = body
        .bases
        .iter()
        .flat_map(|b| b.corners())
        .map(|c| c.distance(pivot))
        .fold(0.0, f32::max);
    let (mut lo, mut hi) = (pivot - Vec2::splat(rmax), pivot + Vec2::splat(rmax));
    for b in body.bases {
        for c in b.corners() {
            let e = pivot + rot.rotate(c - pivot);
            lo = lo.min(e + facing * distance);
            hi = hi.max(e + facing * distance);
        }
    }
    let m = Vec2::splat(reach + crate::tolerance::CONTACT_GAP);
    let mut found: Vec<u32> = Vec::new();
    let g = reach.max(crate::tolerance::CONTACT_GAP);
    scene.for_each_base_in_aabb(lo - m, hi + m, |i| {
        let sb = &scene.bases()[i];
        if !consider(sb) || found.contains(&sb.unit) {
            return true;
        }
        let ob = sb.rect.ccw_corners();
        let obstacle = CastShape {
            verts: &ob,
            convex: true,
        };
        let on = body.bases.iter().any(|b| {
            let poly = b.ccw_corners();
            let mover = CastShape {
                verts: &poly,
                convex: true,
            };
            if crate::distance::rect_distance_unchecked(b, &sb.rect) <= g {
                return true;
            }
            if theta != 0.0
                && cast::rotate(mover, pivot, theta.signum(), theta.abs(), obstacle, g).is_some()
            {
                return true;
            }
            let turned = b.rotated_about(pivot, theta);
            let tp = turned.ccw_corners();
            crate::distance::rect_distance_unchecked(&turned, &sb.rect) <= g
                || cast::translate(
                    CastShape {
                        verts: &tp,
                        convex: true,
                    },
                    facing,
                    distance,
                    obstacle,
                    g,
                )
                .is_some()
        });
        if on {
            found.push(sb.unit);
        }
        true
    });
    found.sort_unstable();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::SidePolicy;
    use core::f32::consts::{FRAC_PI_2, PI};

    fn base(x: f32, y: f32, a: f32) -> Rect {
        Rect::try_new(Vec2::new(x, y), Vec2::new(4.0, 2.0), a).unwrap()
    }

    use crate::test_support::{line, scene};

    #[test]
    fn straight_charge_head_on() {
        // Charger front y = 0 (centre y = −1), target facing south with its front at y = 15.
        let (cf, cb) = line(0.0, -1.0, 0.0);
        let (tf, tb) = line(0.0, 16.0, PI);
        let s = scene(&[(1, 0, &cb), (2, 1, &tb)]);
        let out = simulate_charge(
            &s,
            &Body::new(cf, &cb),
            1,
            2,
            &tf,
            None,
            20.0,
            &ChargeParams::default(),
            &SidePolicy::charging(1, 0),
        )
        .unwrap();
        assert_eq!(out.zone, Zone::Front);
        assert_eq!(out.planned.wheel.angle, 0.0);
        assert!(out.reached(2));
        assert!((out.travelled - 15.0).abs() < 0.01, "{out:?}");
        // With a Basic Move of 14 it does not reach.
        let short = simulate_charge(
            &s,
            &Body::new(cf, &cb),
            1,
            2,
            &tf,
            None,
            14.0,
            &ChargeParams::default(),
            &SidePolicy::charging(1, 0),
        )
        .unwrap();
        assert!(!short.reached(2) && (short.travelled - 14.0).abs() < 1e-4);
    }

    #[test]
    fn wheel_to_face_an_offset_target() {
        // Target line facing south, front edge y = 20, x ∈ [24, 36], well right of the charger's
        // strip x ∈ [-6, 6]. In the target's frame (facing south, its right pointing west) the
        // charger's centre is 30 cm to its right and 22 cm ahead: u = 30 − 6 = 24 beyond the side
        // line against v = 22 − 1 = 21 beyond the front, so mostly in the right flank zone, and
        // the edge to strike is the target's right (west-facing) edge.
        let (cf, cb) = line(0.0, -1.0, 0.0);
        let (tf, tb) = line(30.0, 21.0, PI);
        let s = scene(&[(1, 0, &cb), (2, 1, &tb)]);
        let z = charge_zone(&tf, &cf, ZoneScheme::Rays45).unwrap().unwrap();
        assert_eq!(z, Zone::Right);
        let fw = facing_wheel(&cf, &tf, z, &ChargeParams::default()).unwrap();
        assert!(fw.faces);
        // Turning right (clockwise) about FR: the wheel is about the front-right corner.
        assert_eq!(fw.wheel.pivot, Pivot::FrontRight);
        assert!(fw.wheel.angle > 0.0 && fw.wheel.angle < FRAC_PI_2);
        let after = cf.rotated_about(cf.front_right(), fw.wheel.theta());
        assert!(faces_edge(&after, &tf.edge(Edge::Right), FACING_MARGIN_CM * 0.99).unwrap());
        // Slightly less wheel does not face it.
        let less = cf.rotated_about(cf.front_right(), fw.wheel.theta() * 0.98);
        assert!(!faces_edge(&less, &tf.edge(Edge::Right), FACING_MARGIN_CM).unwrap());
        let out = simulate_charge(
            &s,
            &Body::new(cf, &cb),
            1,
            2,
            &tf,
            Some(z),
            60.0,
            &ChargeParams::default(),
            &SidePolicy::charging(1, 0),
        )
        .unwrap();
        assert!(out.reached(2), "{out:?}");
        assert!(out.cost <= 60.0 + 1e-3);
    }

    #[test]
    fn incidental_contact_and_friends_in_the_way() {
        let (cf, cb) = line(0.0, -1.0, 0.0);
        let (tf, tb) = line(0.0, 21.0, PI);
        // Another enemy unit in between, at y ∈ [9, 11].
        let other = [base(0.0, 10.0, PI)];
        let s = scene(&[(1, 0, &cb), (2, 1, &tb), (3, 1, &other)]);
        let out = simulate_charge(
            &s,
            &Body::new(cf, &cb),
            1,
            2,
            &tf,
            None,
            30.0,
            &ChargeParams::default(),
            &SidePolicy::charging(1, 0),
        )
        .unwrap();
        assert!(!out.reached(2));
        assert_eq!(out.contact.map(|c| c.unit), Some(3));
        // A friend there instead: blocked, no contact.
        let s = scene(&[(1, 0, &cb), (2, 1, &tb), (3, 0, &other)]);
        let out = simulate_charge(
            &s,
            &Body::new(cf, &cb),
            1,
            2,
            &tf,
            None,
            30.0,
            &ChargeParams::default(),
            &SidePolicy::charging(1, 0),
        )
        .unwrap();
        assert!(out.contact.is_none() && out.blocked.is_some());
    }

    #[test]
    fn units_on_the_path() {
        // Charger front y = 0, x ∈ [-6, 6], charging 30 cm north. Enemy A straight ahead at
        // y ∈ [20, 22]; enemy B 1.5 cm right of the swept strip (x ∈ [7.5, 11.5]); enemy C 5 cm right;
        // enemy D behind the charger.
        let (cf, cb) = line(0.0, -1.0, 0.0);
        let a = [base(0.0, 21.0, PI)];
        let b = [base(9.5, 15.0, PI)];
        let c = [base(13.0, 15.0, PI)];
        let d = [base(0.0, -10.0, PI)];
        let s = scene(&[(1, 0, &cb), (2, 1, &a), (3, 1, &b), (4, 1, &c), (5, 1, &d)]);
        let body = Body::new(cf, &cb);
        let on =
            units_on_path(&s, &body, cf.front_left(), 0.0, 30.0, 2.0, |x| x.side == 1).unwrap();
        assert_eq!(on, vec![2, 3]);
        // Wheeling left first (15° about FL) swings the path away from B.
        let on = units_on_path(
            &s,
            &body,
            cf.front_left(),
            15f32.to_radians(),
            30.0,
            2.0,
            |x| x.side == 1,
        )
        .unwrap();
        assert!(!on.contains(&3) && !on.contains(&4));
        assert!(units_on_path(&s, &body, cf.front_left(), 0.0, -1.0, 2.0, |_| true).is_err());
    }
}
