//! The alignment wheel after a charge's first contact (BFS-CHG-19, GEO-12): the charger turns
//! about the contact point until its front is flush with the struck edge. It is a move of its
//! own, made after [`simulate_charge`](crate::charge::simulate_charge), so it sits apart from the
//! charge.

use crate::charge_params::ChargeParams;
use crate::error::{GeoError, check_non_negative, check_point};
use crate::movement::{Body, Obstacles};
use crate::pose::signed_angle;
use crate::scene::Scene;
use crate::wheel::{WheelOutcome, pivot_radius, rotate_body};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The result of [`align`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Alignment {
    /// The full signed rotation that would make the front flush with the struck edge.
    pub needed: f32,
    /// What was done (about the contact point).
    pub outcome: WheelOutcome,
    /// Allowance spent.
    pub cost: f32,
    /// Whether the front is now flush (within a thousandth of a radian).
    pub complete: bool,
}

/// The alignment wheel (BFS-CHG-19, GEO-12): rotate the charger about the first contact point `c`
/// so that it faces into the struck edge (`facing = −edge_normal`), as far as `allowance` pays for
/// (general-pivot cost), stopping at any other contact (BFS-CHG-16). Obstacles should let enemies
/// be touched; the struck unit (`target`) may stay in contact but is never dug into.
#[allow(clippy::too_many_arguments)]
pub fn align(
    scene: &Scene,
    body: &Body,
    c: Vec2,
    edge_normal: Vec2,
    target: u32,
    allowance: f32,
    params: &ChargeParams,
    obstacles: &impl Obstacles,
) -> Result<Alignment, GeoError> {
    body.check()?;
    check_point("contact point", c)?;
    check_point("edge normal", edge_normal)?;
    check_non_negative("allowance", allowance)?;
    if edge_normal.length() < 1e-6 {
        return Err(GeoError::Degenerate {
            what: "edge normal",
            why: "zero vector".into(),
        });
    }
    let needed = signed_angle(body.frame.facing(), -edge_normal.normalize());
    let radius = pivot_radius(&body.frame, c, params.reference);
    let rate = params.cost.forward;
    let max = if radius * rate > 0.0 {
        allowance / (radius * rate)
    } else {
        f32::INFINITY
    };
    let theta = needed.signum() * needed.abs().min(max);
    // The struck unit touches at c and the rotation turns about c: it may stay in contact (a
    // corner at c slides round it by far less than the contact tolerance) but never overlap, so
    // it is a raw-contact obstacle. If c is not on the struck edge the rotation stops where it
    // would dig in (the caller then narrows or fights as it stands).
    struct Except<'a, O: Obstacles> {
        inner: &'a O,
        target: u32,
    }
    impl<O: Obstacles> Obstacles for Except<'_, O> {
        fn base_gap(&self, b: &crate::scene::SceneBase) -> Option<f32> {
            if b.unit == self.target {
                Some(-1.0)
            } else {
                self.inner.base_gap(b)
            }
        }
        fn terrain_gap(&self, t: &crate::terrain::TerrainPiece) -> Option<f32> {
            self.inner.terrain_gap(t)
        }
        fn max_gap(&self) -> f32 {
            self.inner.max_gap()
        }
    }
    let outcome = rotate_body(
        scene,
        body,
        c,
        theta,
        &Except {
            inner: obstacles,
            target,
        },
    )?;
    let cost = outcome.theta.abs() * radius * rate;
    let complete = (outcome.theta - needed).abs() < 1e-3;
    Ok(Alignment {
        needed,
        outcome,
        cost,
        complete,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::SidePolicy;
    use crate::rect::{Edge, Rect};
    use core::f32::consts::PI;

    use crate::test_support::{line, scene};

    #[test]
    fn alignment_about_the_contact_point() {
        // A charger turned 10° clockwise (its front-left corner highest) strikes the target's
        // front edge (y = 10, target facing south) with that corner; the alignment rotation is
        // +10° about the contact point.
        let t = -10f32.to_radians();
        let (cf0, cb0) = line(0.0, 0.0, t);
        // Place it so that its FL corner touches y = 10 − CONTACT_GAP.
        let dy = 10.0 - crate::tolerance::CONTACT_GAP - cf0.front_left().y;
        let cf = cf0.translated(Vec2::new(0.0, dy));
        let cb: Vec<Rect> = cb0
            .iter()
            .map(|r| r.translated(Vec2::new(0.0, dy)))
            .collect();
        let (tf, tb) = line(cf.front_left().x + 2.0, 11.0, PI);
        let s = scene(&[(1, 0, &cb), (2, 1, &tb)]);
        let c = Vec2::new(cf.front_left().x, 10.0);
        let a = align(
            &s,
            &Body::new(cf, &cb),
            c,
            tf.edge_normal(Edge::Front),
            2,
            20.0,
            &ChargeParams::default(),
            &SidePolicy::charging(1, 0),
        )
        .unwrap();
        assert!((a.needed + t).abs() < 1e-5, "{a:?}");
        assert!(a.complete);
        // Cost: |θ| times the farthest corner from c (the rear-right, √(12² + 2²) away, nearly).
        let r = cf
            .corners()
            .iter()
            .map(|p| p.distance(c))
            .fold(0.0, f32::max);
        assert!((a.cost - t.abs() * r).abs() < 1e-3);
        // With little allowance it stops part-way.
        let a = align(
            &s,
            &Body::new(cf, &cb),
            c,
            tf.edge_normal(Edge::Front),
            2,
            1.0,
            &ChargeParams::default(),
            &SidePolicy::charging(1, 0),
        )
        .unwrap();
        assert!(!a.complete && (a.cost - 1.0).abs() < 1e-4);
    }

    #[test]
    fn alignment_never_digs_into_the_struck_unit() {
        let no_overlap = |a: &Alignment, cb: &[Rect], tb: &[Rect]| {
            for b in cb {
                for t in tb {
                    let moved = a.outcome.apply(b);
                    assert!(!crate::distance::rects_overlap(&moved, t), "{a:?}");
                }
            }
        };
        // Full alignment, contact on the struck edge: flush, touching, not overlapping.
        let t = -10f32.to_radians();
        let (cf0, cb0) = line(0.0, 0.0, t);
        let dy = 10.0 - crate::tolerance::CONTACT_GAP - cf0.front_left().y;
        let cf = cf0.translated(Vec2::new(0.0, dy));
        let cb: Vec<Rect> = cb0
            .iter()
            .map(|r| r.translated(Vec2::new(0.0, dy)))
            .collect();
        let (tf, tb) = line(cf.front_left().x + 2.0, 11.0, PI);
        let s = scene(&[(1, 0, &cb), (2, 1, &tb)]);
        let c = Vec2::new(cf.front_left().x, 10.0);
        let p = ChargeParams::default();
        let pol = SidePolicy::charging(1, 0);
        let body = Body::new(cf, &cb);
        let a = align(&s, &body, c, tf.edge_normal(Edge::Front), 2, 50.0, &p, &pol).unwrap();
        assert!(a.complete, "{a:?}");
        no_overlap(&a, &cb, &tb);
        // The charger's front now lies along the target's front: x from c to c + 12 against the
        // target's c − 4 to c + 8, so the two left bases touch along their edges and the right
        // one at its corner (x = c + 8).
        let touching = cb
            .iter()
            .filter(|b| {
                tb.iter().any(|t| {
                    crate::distance::rect_distance_unchecked(&a.outcome.apply(b), t)
                        <= crate::tolerance::CONTACT_EPS
                })
            })
            .count();
        assert_eq!(touching, 3);
        // Asked to align to the target's *rear* edge (normal pointing the other way) from this
        // contact, it would have to turn ~170° through the target: it stops, without overlap.
        let a = align(&s, &body, c, tf.edge_normal(Edge::Rear), 2, 500.0, &p, &pol).unwrap();
        assert!(!a.complete);
        no_overlap(&a, &cb, &tb);
    }
}
