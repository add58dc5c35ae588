//! The countercharge halfway line (BFS-CHG-22, GEO-13, AMB-27): the line midway between two
//! fronts and how far a unit must move to reach it. Plain segment geometry that needs nothing of
//! the charge move, so it sits apart from it.

use crate::error::{GeoError, check_point};
use crate::prim;
use crate::rect::Segment;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The countercharge halfway line (GEO-13): the perpendicular bisector of the segment joining the
/// closest points of the two front edges. `normal` points from the first front toward the second.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HalfwayLine {
    pub point: Vec2,
    pub normal: Vec2,
}

impl HalfwayLine {
    /// Signed distance of `p` from the line, positive on the second unit's side.
    pub fn signed_distance(&self, p: Vec2) -> f32 {
        (p - self.point).dot(self.normal)
    }
}

/// Closest points of two segments (first on `a`).
fn closest_segments(a: &Segment, b: &Segment) -> (Vec2, Vec2) {
    let mut best = (a.a, b.closest_point(a.a));
    let mut bd = best.0.distance_squared(best.1);
    for (p, q) in [
        (a.b, b.closest_point(a.b)),
        (a.closest_point(b.a), b.a),
        (a.closest_point(b.b), b.b),
    ] {
        let d = p.distance_squared(q);
        if d < bd {
            best = (p, q);
            bd = d;
        }
    }
    best
}

/// The halfway line between two fronts (GEO-13). Refuses fronts that already touch or cross.
pub fn halfway_line(front_a: &Segment, front_b: &Segment) -> Result<HalfwayLine, GeoError> {
    for p in [front_a.a, front_a.b, front_b.a, front_b.b] {
        check_point("front edge", p)?;
    }
    if prim::segments_intersect(front_a.a, front_a.b, front_b.a, front_b.b) {
        return Err(GeoError::Degenerate {
            what: "fronts",
            why: "they touch or cross".into(),
        });
    }
    let (a, b) = closest_segments(front_a, front_b);
    let d = b - a;
    if d.length() < crate::tolerance::CONTACT_EPS {
        return Err(GeoError::Degenerate {
            what: "fronts",
            why: "they are in contact".into(),
        });
    }
    Ok(HalfwayLine {
        point: (a + b) * 0.5,
        normal: d.normalize(),
    })
}

/// How far a unit must move straight along `facing` for its front edge to touch the line (the
/// nearest point of the front reaching it). `None` if moving that way never reaches it; 0 if the
/// front already touches or crosses it.
pub fn travel_to_line(
    front: &Segment,
    facing: Vec2,
    line: &HalfwayLine,
) -> Result<Option<f32>, GeoError> {
    check_point("front edge", front.a)?;
    check_point("front edge", front.b)?;
    check_point("facing", facing)?;
    let f = facing.normalize_or_zero();
    if f == Vec2::ZERO {
        return Err(GeoError::Degenerate {
            what: "facing",
            why: "zero vector".into(),
        });
    }
    // Which side the unit is on, and the direction toward the line.
    let mid = line.signed_distance(front.midpoint());
    let toward = if mid <= 0.0 {
        line.normal
    } else {
        -line.normal
    };
    let da = (line.point - front.a).dot(toward);
    let db = (line.point - front.b).dot(toward);
    let gap = da.min(db);
    if gap <= 0.0 {
        return Ok(Some(0.0));
    }
    let rate = f.dot(toward);
    if rate <= 1e-6 {
        return Ok(None);
    }
    Ok(Some(gap / rate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfs_chg_22_halfway_lines() {
        // Reiters and pancerni 30 cm apart, fronts parallel and facing: the line is 15 cm from each.
        let a = Segment::new(Vec2::new(-6.0, 0.0), Vec2::new(6.0, 0.0));
        let b = Segment::new(Vec2::new(6.0, 30.0), Vec2::new(-6.0, 30.0));
        let l = halfway_line(&a, &b).unwrap();
        assert!((l.signed_distance(Vec2::ZERO) + 15.0).abs() < 1e-5);
        assert_eq!(travel_to_line(&a, Vec2::Y, &l).unwrap(), Some(15.0));
        assert_eq!(travel_to_line(&b, Vec2::NEG_Y, &l).unwrap(), Some(15.0));
        // 50 cm apart: each moves 20 (its Basic Move), leaving 10; the new line is 5 from each.
        let a2 = Segment::new(Vec2::new(-6.0, 20.0), Vec2::new(6.0, 20.0));
        let b2 = Segment::new(Vec2::new(6.0, 30.0), Vec2::new(-6.0, 30.0));
        let l2 = halfway_line(&a2, &b2).unwrap();
        assert!((travel_to_line(&a2, Vec2::Y, &l2).unwrap().unwrap() - 5.0).abs() < 1e-5);
        // Moving away never reaches it.
        assert_eq!(travel_to_line(&a, Vec2::NEG_Y, &l).unwrap(), None);
        // Touching fronts have no halfway line.
        assert!(
            halfway_line(&a, &Segment::new(Vec2::new(6.0, 0.0), Vec2::new(10.0, 5.0))).is_err()
        );
    }
}
