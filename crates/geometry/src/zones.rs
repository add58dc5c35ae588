//! A unit's front, flank and rear zones (BFS-FOV-1, GEO-4) and "most of the unit in a zone"
//! (GEO-14, AMB-23).
//!
//! The zone boundaries are rays from the four unit corners. The digest proposes rays at 45°
//! outward (AMB-2), which makes the front zone the 90° field of fire (BFS-SHO-3) and the horse-archer
//! arc exactly three zones; the alternative reading, the rectangle's diagonals extended beyond the
//! corners, is kept behind [`ZoneScheme::ExtendedDiagonals`].
//!
//! Each zone is the intersection of three half-planes, so areas are found by clipping against them
//! exactly, with no large truncation distance (GEO-4 suggests one; [`zone_polygon`] still gives it
//! for drawing).

use crate::error::GeoError;
use crate::prim;
use crate::rect::{Edge, Placed, Rect};
use crate::tolerance::AREA_EPS_CM2;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// One of the four zones around a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Zone {
    Front,
    Right,
    Rear,
    Left,
}

impl Zone {
    pub const ALL: [Zone; 4] = [Zone::Front, Zone::Right, Zone::Rear, Zone::Left];

    /// The edge of the unit that faces this zone (BFS-CHG-19: "front zone → front edge …").
    pub fn edge(self) -> Edge {
        match self {
            Zone::Front => Edge::Front,
            Zone::Right => Edge::Right,
            Zone::Rear => Edge::Rear,
            Zone::Left => Edge::Left,
        }
    }

    pub fn is_flank(self) -> bool {
        matches!(self, Zone::Left | Zone::Right)
    }

    fn index(self) -> usize {
        self as usize
    }

    /// Tie-break rank for GEO-14 (lower wins): front > rear > flank (left before right).
    fn tie_rank(self) -> u8 {
        match self {
            Zone::Front => 0,
            Zone::Rear => 1,
            Zone::Left => 2,
            Zone::Right => 3,
        }
    }
}

/// How the zone boundaries leave the unit corners (AMB-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ZoneScheme {
    /// Proposed: rays at 45° outward from the facing at every corner (`±r ± f`).
    #[default]
    Rays45,
    /// Alternative: the rectangle's diagonals, extended outward beyond the corners.
    ExtendedDiagonals,
}

impl ZoneScheme {
    /// Ray direction at the front-right corner in the unit frame, components `(along r, along f)`,
    /// both positive; the other corners mirror it.
    fn ray(self, half: Vec2) -> Vec2 {
        match self {
            ZoneScheme::Rays45 => Vec2::ONE,
            ZoneScheme::ExtendedDiagonals => half,
        }
    }
}

/// The zone of a point around `frame` (the unit rectangle, or a base for Open Order), or `None`
/// for a point inside the rectangle. Points on a diagonal boundary belong to the front or rear zone
/// (GEO-4); points on a side edge belong to that flank.
pub fn zone_of_point(frame: &Rect, p: Vec2, scheme: ZoneScheme) -> Result<Option<Zone>, GeoError> {
    frame.check("unit rectangle")?;
    crate::error::check_point("point", p)?;
    Ok(zone_of_point_unchecked(frame, p, scheme))
}

pub(crate) fn zone_of_point_unchecked(frame: &Rect, p: Vec2, scheme: ZoneScheme) -> Option<Zone> {
    zone_of_local(frame.pose.to_local(p), frame.half, scheme)
}

/// [`zone_of_point`] about a rectangle placed once (the same arithmetic, without a sine and
/// cosine per point): for callers that ask about many points, such as the computer's judgement
/// of every pair of units in every position.
pub fn zone_of_placed_point(frame: &Placed, p: Vec2, scheme: ZoneScheme) -> Option<Zone> {
    zone_of_local(frame.local(p), frame.half, scheme)
}

/// The zone of a point given in the frame's own coordinates (`l`), about half-extents `h`.
fn zone_of_local(l: Vec2, h: Vec2, scheme: ZoneScheme) -> Option<Zone> {
    let s = scheme.ray(h);
    let u = l.x.abs() - h.x; // beyond the side line
    if l.y >= h.y && (l.y - h.y) * s.x >= u * s.y {
        return Some(Zone::Front);
    }
    if l.y <= -h.y && (-l.y - h.y) * s.x >= u * s.y {
        return Some(Zone::Rear);
    }
    let w = l.y.abs() - h.y;
    if u >= 0.0 && u * s.y > w * s.x {
        return Some(if l.x > 0.0 { Zone::Right } else { Zone::Left });
    }
    None
}

/// The three half-planes `(point on boundary, inward normal)` whose intersection is the zone.
pub fn zone_halfplanes(
    frame: &Rect,
    zone: Zone,
    scheme: ZoneScheme,
) -> Result<[(Vec2, Vec2); 3], GeoError> {
    frame.check("unit rectangle")?;
    Ok(halfplanes_unchecked(frame, zone, scheme))
}

fn halfplanes_unchecked(frame: &Rect, zone: Zone, scheme: ZoneScheme) -> [(Vec2, Vec2); 3] {
    let h = frame.half;
    let s = scheme.ray(h);
    let [fl, fr, rr, rl] = frame.corners();
    let pose = &frame.pose;
    // Inward normals in the local frame; each ray line's normal points into the zone.
    let (local, pts): ([Vec2; 3], [Vec2; 3]) = match zone {
        // y ≥ hd; (y−hd)·sx ≥ (x−hw)·sy; (y−hd)·sx ≥ (−x−hw)·sy
        Zone::Front => (
            [Vec2::Y, Vec2::new(-s.y, s.x), Vec2::new(s.y, s.x)],
            [fl, fr, fl],
        ),
        Zone::Rear => (
            [Vec2::NEG_Y, Vec2::new(-s.y, -s.x), Vec2::new(s.y, -s.x)],
            [rl, rr, rl],
        ),
        // x ≥ hw; (x−hw)·sy ≥ (y−hd)·sx; (x−hw)·sy ≥ (−y−hd)·sx
        Zone::Right => (
            [Vec2::X, Vec2::new(s.y, -s.x), Vec2::new(s.y, s.x)],
            [fr, fr, rr],
        ),
        Zone::Left => (
            [Vec2::NEG_X, Vec2::new(-s.y, -s.x), Vec2::new(-s.y, s.x)],
            [fl, fl, rl],
        ),
    };
    [
        (pts[0], pose.dir_to_world(local[0])),
        (pts[1], pose.dir_to_world(local[1])),
        (pts[2], pose.dir_to_world(local[2])),
    ]
}

/// The zone as a convex quadrilateral truncated `reach` cm out along its boundary rays (GEO-4's
/// polygon), counter-clockwise: for drawing, or for callers that want a bounded polygon.
pub fn zone_polygon(
    frame: &Rect,
    zone: Zone,
    scheme: ZoneScheme,
    reach: f32,
) -> Result<[Vec2; 4], GeoError> {
    frame.check("unit rectangle")?;
    crate::error::check_positive("zone reach", reach)?;
    let s = scheme.ray(frame.half).normalize();
    let p = &frame.pose;
    let d = |x: f32, y: f32| p.dir_to_world(Vec2::new(x, y)) * reach;
    let [fl, fr, rr, rl] = frame.corners();
    Ok(match zone {
        Zone::Front => [fl, fr, fr + d(s.x, s.y), fl + d(-s.x, s.y)],
        Zone::Right => [fr, rr, rr + d(s.x, -s.y), fr + d(s.x, s.y)],
        Zone::Rear => [rr, rl, rl + d(-s.x, -s.y), rr + d(s.x, -s.y)],
        Zone::Left => [rl, fl, fl + d(-s.x, s.y), rl + d(-s.x, -s.y)],
    })
}

/// Area (cm²) of a CCW polygon inside one zone of `frame`.
pub(crate) fn area_in_zone(frame: &Rect, zone: Zone, scheme: ZoneScheme, poly: &[Vec2]) -> f32 {
    let mut a: Vec<Vec2> = poly.to_vec();
    let mut b = Vec::with_capacity(poly.len() + 3);
    for (o, n) in halfplanes_unchecked(frame, zone, scheme) {
        prim::clip_halfplane(&a, o, n, &mut b);
        core::mem::swap(&mut a, &mut b);
        if a.is_empty() {
            return 0.0;
        }
    }
    prim::signed_area(&a).max(0.0)
}

/// Does `r` reach into the zone by more than a sliver ([`AREA_EPS_CM2`])? GEO-6's test of a
/// target base against a field-of-fire zone.
pub fn rect_in_zone(
    frame: &Rect,
    zone: Zone,
    scheme: ZoneScheme,
    r: &Rect,
) -> Result<bool, GeoError> {
    frame.check("unit rectangle")?;
    r.check("rectangle")?;
    Ok(area_in_zone(frame, zone, scheme, &r.ccw_corners()) > AREA_EPS_CM2)
}

/// Areas of a shape in each of the four zones, and the zone with most of it (GEO-14).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ZoneShares {
    /// Area (cm²) per zone, in [`Zone::ALL`] order.
    pub areas: [f32; 4],
}

impl ZoneShares {
    pub fn area(&self, z: Zone) -> f32 {
        self.areas[z.index()]
    }

    /// The zone holding the largest area; ties within [`AREA_EPS_CM2`] go front > rear > flank
    /// (left before right). `None` when the shape lies wholly inside the rectangle.
    pub fn majority(&self) -> Option<Zone> {
        let mut best: Option<Zone> = None;
        for z in Zone::ALL {
            let a = self.area(z);
            if a <= AREA_EPS_CM2 {
                continue;
            }
            best = match best {
                None => Some(z),
                Some(b) => {
                    let ab = self.area(b);
                    if a > ab + AREA_EPS_CM2
                        || ((a - ab).abs() <= AREA_EPS_CM2 && z.tie_rank() < b.tie_rank())
                    {
                        Some(z)
                    } else {
                        Some(b)
                    }
                }
            };
        }
        best
    }
}

/// How much of the rectangles `shape` (a charger's unit rectangle, or its bases) lies in each zone
/// of `frame` (GEO-14: "clip the charger's rectangle polygon against each of the four zones").
pub fn zone_shares(
    frame: &Rect,
    shape: &[Rect],
    scheme: ZoneScheme,
) -> Result<ZoneShares, GeoError> {
    frame.check("unit rectangle")?;
    if shape.is_empty() {
        return Err(GeoError::Degenerate {
            what: "shape",
            why: "no rectangles".into(),
        });
    }
    let mut areas = [0.0f32; 4];
    for r in shape {
        r.check("rectangle")?;
        let poly = r.ccw_corners();
        for z in Zone::ALL {
            areas[z.index()] += area_in_zone(frame, z, scheme, &poly);
        }
    }
    Ok(ZoneShares { areas })
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f32::consts::FRAC_PI_2;

    /// A 12 × 2 cm line (3 infantry bases) centred on the origin, facing north.
    fn unit() -> Rect {
        Rect::try_new(Vec2::ZERO, Vec2::new(12.0, 2.0), 0.0).unwrap()
    }

    #[test]
    fn point_zones_with_45_degree_rays() {
        let u = unit(); // corners (±6, ±1)
        let z = |x, y| zone_of_point(&u, Vec2::new(x, y), ZoneScheme::Rays45).unwrap();
        assert_eq!(z(0.0, 5.0), Some(Zone::Front));
        // 3 cm right of the FR corner and 3 cm up: on the 45° ray → front (GEO-4 tie rule).
        assert_eq!(z(9.0, 4.0), Some(Zone::Front));
        assert_eq!(z(9.01, 4.0), Some(Zone::Right));
        assert_eq!(z(10.0, 0.0), Some(Zone::Right));
        assert_eq!(z(-10.0, 0.0), Some(Zone::Left));
        assert_eq!(z(0.0, -3.0), Some(Zone::Rear));
        assert_eq!(z(-9.0, -4.0), Some(Zone::Rear));
        assert_eq!(z(0.0, 0.0), None);
    }

    #[test]
    fn extended_diagonals_differ() {
        let u = unit(); // diagonal direction (6, 1): shallow
        let z = |x, y, s| zone_of_point(&u, Vec2::new(x, y), s).unwrap();
        // (9, 4): relative to FR (3, 3). 45° → front; diagonal slope 1/6 → 3·6 ≥ 3·1 → front too.
        assert_eq!(
            z(9.0, 4.0, ZoneScheme::ExtendedDiagonals),
            Some(Zone::Front)
        );
        // (12, 1.5): relative to FR (6, 0.5). 45° → right; diagonal: 0.5·6 = 3 ≥ 6·1 = 6? no → right.
        assert_eq!(
            z(12.0, 1.5, ZoneScheme::ExtendedDiagonals),
            Some(Zone::Right)
        );
        // (8, 2): relative to FR (2, 1). 45° → right (1 < 2); diagonal: 1·6 = 6 ≥ 2·1 → front.
        assert_eq!(z(8.0, 2.0, ZoneScheme::Rays45), Some(Zone::Right));
        assert_eq!(
            z(8.0, 2.0, ZoneScheme::ExtendedDiagonals),
            Some(Zone::Front)
        );
    }

    #[test]
    fn zones_follow_rotation() {
        // The same unit turned to face east: "front" is now +x.
        let u = Rect::try_new(Vec2::ZERO, Vec2::new(12.0, 2.0), -FRAC_PI_2).unwrap();
        assert_eq!(
            zone_of_point(&u, Vec2::new(5.0, 0.0), ZoneScheme::Rays45).unwrap(),
            Some(Zone::Front)
        );
        assert_eq!(
            zone_of_point(&u, Vec2::new(0.0, 10.0), ZoneScheme::Rays45).unwrap(),
            Some(Zone::Left)
        );
    }

    #[test]
    fn majority_by_clipping() {
        let target = unit();
        // A 4×3 cavalry base straddling the front-right 45° ray: centred on (8, 3) it spans
        // x ∈ [6, 10], y ∈ [1.5, 4.5]; relative to FR (6, 1): u ∈ [0, 4], v ∈ [0.5, 3.5]. The front
        // part is v ≥ u: ∫_{0.5}^{3.5} v dv = (3.5² − 0.5²)/2 = 6 of its 12 cm²; the rest is right.
        let charger = Rect::try_new(Vec2::new(8.0, 3.0), Vec2::new(4.0, 3.0), 0.0).unwrap();
        let s = zone_shares(&target, &[charger], ZoneScheme::Rays45).unwrap();
        assert!((s.area(Zone::Front) - 6.0).abs() < 1e-4, "{:?}", s);
        assert!((s.area(Zone::Right) - 6.0).abs() < 1e-4);
        // Exactly half and half: the tie goes to the front.
        assert_eq!(s.majority(), Some(Zone::Front));
        // Move it 0.5 cm right: more in the flank.
        let charger = charger.translated(Vec2::new(0.5, 0.0));
        let s = zone_shares(&target, &[charger], ZoneScheme::Rays45).unwrap();
        assert_eq!(s.majority(), Some(Zone::Right));
        assert!((s.areas.iter().sum::<f32>() - 12.0).abs() < 1e-3);
    }

    #[test]
    fn rect_in_zone_and_polygons() {
        let u = unit();
        let ahead = Rect::try_new(Vec2::new(0.0, 10.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        assert!(rect_in_zone(&u, Zone::Front, ZoneScheme::Rays45, &ahead).unwrap());
        assert!(!rect_in_zone(&u, Zone::Rear, ZoneScheme::Rays45, &ahead).unwrap());
        // Polygons are CCW and share their inner edge with the rectangle.
        for z in Zone::ALL {
            let p = zone_polygon(&u, z, ZoneScheme::Rays45, 100.0).unwrap();
            assert!(prim::signed_area(&p) > 0.0);
        }
        assert!(zone_polygon(&u, Zone::Front, ZoneScheme::Rays45, f32::NAN).is_err());
    }
}
