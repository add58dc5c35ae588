//! Oriented rectangles: the footprint of a base (GEO-1), and the segments that make up its edges.

use crate::error::{GeoError, check_finite};
use crate::pose::Pose;
use crate::tolerance::MIN_SIZE_CM;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// One of the four edges of a base or unit rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Edge {
    Front,
    Right,
    Rear,
    Left,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::Front, Edge::Right, Edge::Rear, Edge::Left];

    /// Outward normal of this edge in the rectangle's local frame.
    pub fn local_normal(self) -> Vec2 {
        match self {
            Edge::Front => Vec2::Y,
            Edge::Right => Vec2::X,
            Edge::Rear => Vec2::NEG_Y,
            Edge::Left => Vec2::NEG_X,
        }
    }

    /// The edge on the other side of the rectangle.
    pub fn opposite(self) -> Edge {
        match self {
            Edge::Front => Edge::Rear,
            Edge::Rear => Edge::Front,
            Edge::Left => Edge::Right,
            Edge::Right => Edge::Left,
        }
    }
}

/// A straight segment between two table points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Segment {
    pub a: Vec2,
    pub b: Vec2,
}

impl Segment {
    pub const fn new(a: Vec2, b: Vec2) -> Self {
        Self { a, b }
    }
    pub fn midpoint(&self) -> Vec2 {
        (self.a + self.b) * 0.5
    }
    pub fn length(&self) -> f32 {
        self.a.distance(self.b)
    }
    pub fn direction(&self) -> Vec2 {
        (self.b - self.a).normalize_or_zero()
    }
    /// Closest point of the segment to `p`.
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        let ab = self.b - self.a;
        let len2 = ab.length_squared();
        if len2 <= f32::EPSILON {
            return self.a;
        }
        let t = ((p - self.a).dot(ab) / len2).clamp(0.0, 1.0);
        self.a + ab * t
    }
    pub fn distance_to_point(&self, p: Vec2) -> f32 {
        self.closest_point(p).distance(p)
    }
    pub fn to_parry(&self) -> parry2d::shape::Segment {
        parry2d::shape::Segment::new(self.a, self.b)
    }
}

/// An oriented rectangle. `pose.pos` is its centre, `half` its half-extents: `half.x` across the
/// front (half the width W), `half.y` front to back (half the depth D).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    pub pose: Pose,
    pub half: Vec2,
}

/// A rectangle with its axes worked out once: every query below makes the same arithmetic as
/// [`Pose::to_local`](crate::Pose::to_local), [`Rect::corners`], [`Rect::edge`] and
/// [`Rect::closest_point`], so the answers are bit for bit those of the plain methods, without a
/// sine and cosine per point (they were most of the cost of a distance).
#[derive(Debug, Clone, Copy)]
pub struct Placed {
    pub pos: Vec2,
    pub right: Vec2,
    pub facing: Vec2,
    pub half: Vec2,
}

impl Placed {
    #[inline]
    pub fn of(r: &Rect) -> Self {
        let (right, facing) = r.pose.axes();
        Self {
            pos: r.pose.pos,
            right,
            facing,
            half: r.half,
        }
    }

    #[inline]
    pub fn local(&self, p: Vec2) -> Vec2 {
        let d = p - self.pos;
        Vec2::new(d.dot(self.right), d.dot(self.facing))
    }

    #[inline]
    pub fn corners(&self) -> [Vec2; 4] {
        local_corners(self.half).map(|l| self.pos + l.x * self.right + l.y * self.facing)
    }

    /// [`Rect::edge`], given the corners.
    #[inline]
    pub fn edge_of(corners: &[Vec2; 4], e: Edge) -> Segment {
        let [fl, fr, rr, rl] = *corners;
        match e {
            Edge::Front => Segment::new(fl, fr),
            Edge::Right => Segment::new(fr, rr),
            Edge::Rear => Segment::new(rr, rl),
            Edge::Left => Segment::new(rl, fl),
        }
    }

    /// [`Rect::closest_point`].
    #[inline]
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        let l = self.local(p);
        let c = Vec2::new(
            l.x.clamp(-self.half.x, self.half.x),
            l.y.clamp(-self.half.y, self.half.y),
        );
        self.pos + c.x * self.right + c.y * self.facing
    }
}

/// A rectangle's corners in [`Rect::corners`]' order, counter-clockwise as
/// [`Rect::ccw_corners`] gives them.
#[inline]
pub(crate) fn ccw_of(corners: &[Vec2; 4]) -> [Vec2; 4] {
    let [fl, fr, rr, rl] = *corners;
    [fl, rl, rr, fr]
}

/// The corners of a rectangle of half-size `half` in its own frame, in [`Rect::corners`]'
/// order: front-left, front-right, rear-right, rear-left.
#[inline]
pub(crate) fn local_corners(half: Vec2) -> [Vec2; 4] {
    let h = half;
    [
        Vec2::new(-h.x, h.y),
        Vec2::new(h.x, h.y),
        Vec2::new(h.x, -h.y),
        Vec2::new(-h.x, -h.y),
    ]
}

impl Rect {
    /// Unchecked constructor for values already known to be sane.
    pub const fn new(pose: Pose, half: Vec2) -> Self {
        Self { pose, half }
    }

    /// From a centre, a full size `(width, depth)` and a pose angle; refuses nonsense input.
    pub fn try_new(center: Vec2, size: Vec2, angle: f32) -> Result<Self, GeoError> {
        check_finite("rectangle", &[center.x, center.y, size.x, size.y, angle])?;
        if size.x < MIN_SIZE_CM || size.y < MIN_SIZE_CM {
            return Err(GeoError::Degenerate {
                what: "rectangle",
                why: format!("size {} × {} cm is too small", size.x, size.y),
            });
        }
        Ok(Self {
            pose: Pose::try_new(center, angle)?,
            half: size * 0.5,
        })
    }

    /// Checks a rectangle built with the unchecked constructor (or deserialised): finite numbers and
    /// a size of at least [`MIN_SIZE_CM`] each way. Every public function of the crate that takes a
    /// rectangle calls this first.
    #[inline]
    pub fn check(&self, what: &'static str) -> Result<(), GeoError> {
        // The common case in one pass of comparisons (a NaN or an infinity fails them all);
        // every hot query calls this, so only a bad rectangle pays for finding the fault.
        let m = crate::tolerance::MAX_COORD_CM;
        let p = self.pose.pos;
        if p.x.abs() <= m
            && p.y.abs() <= m
            && self.pose.angle.abs() <= m
            && self.half.x.abs() <= m
            && self.half.y.abs() <= m
            && self.half.x * 2.0 >= MIN_SIZE_CM
            && self.half.y * 2.0 >= MIN_SIZE_CM
        {
            return Ok(());
        }
        self.fault(what)
    }

    /// What is wrong with a rectangle that [`Self::check`] refused.
    #[cold]
    fn fault(&self, what: &'static str) -> Result<(), GeoError> {
        check_finite(
            what,
            &[
                self.pose.pos.x,
                self.pose.pos.y,
                self.pose.angle,
                self.half.x,
                self.half.y,
            ],
        )?;
        if self.half.x * 2.0 < MIN_SIZE_CM || self.half.y * 2.0 < MIN_SIZE_CM {
            return Err(GeoError::Degenerate {
                what,
                why: format!(
                    "size {} × {} cm is too small",
                    self.half.x * 2.0,
                    self.half.y * 2.0
                ),
            });
        }
        Ok(())
    }

    /// A rectangle whose front edge's midpoint is at `front_mid`, facing `pose_angle`.
    pub fn from_front_mid(front_mid: Vec2, size: Vec2, pose_angle: f32) -> Self {
        let p = Pose::new(front_mid, pose_angle);
        let center = p.to_world(Vec2::new(0.0, -size.y * 0.5));
        Self::new(Pose::new(center, pose_angle), size * 0.5)
    }

    pub fn center(&self) -> Vec2 {
        self.pose.pos
    }
    pub fn size(&self) -> Vec2 {
        self.half * 2.0
    }
    pub fn facing(&self) -> Vec2 {
        self.pose.facing()
    }
    pub fn area(&self) -> f32 {
        4.0 * self.half.x * self.half.y
    }

    /// Corners in the order front-left, front-right, rear-right, rear-left (clockwise).
    pub fn corners(&self) -> [Vec2; 4] {
        self.pose.to_world_n(local_corners(self.half))
    }

    pub fn front_left(&self) -> Vec2 {
        self.pose.to_world(Vec2::new(-self.half.x, self.half.y))
    }
    pub fn front_right(&self) -> Vec2 {
        self.pose.to_world(Vec2::new(self.half.x, self.half.y))
    }
    pub fn rear_left(&self) -> Vec2 {
        self.pose.to_world(Vec2::new(-self.half.x, -self.half.y))
    }
    pub fn rear_right(&self) -> Vec2 {
        self.pose.to_world(Vec2::new(self.half.x, -self.half.y))
    }

    /// An edge as a segment, running clockwise around the rectangle.
    pub fn edge(&self, e: Edge) -> Segment {
        let [fl, fr, rr, rl] = self.corners();
        match e {
            Edge::Front => Segment::new(fl, fr),
            Edge::Right => Segment::new(fr, rr),
            Edge::Rear => Segment::new(rr, rl),
            Edge::Left => Segment::new(rl, fl),
        }
    }

    /// Outward normal of an edge, in table coordinates.
    pub fn edge_normal(&self, e: Edge) -> Vec2 {
        self.pose.dir_to_world(e.local_normal())
    }

    /// Is `p` inside or on the boundary (within `eps`)?
    pub fn contains(&self, p: Vec2, eps: f32) -> bool {
        let l = self.pose.to_local(p);
        l.x.abs() <= self.half.x + eps && l.y.abs() <= self.half.y + eps
    }

    /// Closest point of the rectangle (boundary or inside) to `p`.
    pub fn closest_point(&self, p: Vec2) -> Vec2 {
        // `to_local`, clamp, `to_world`, with one sine and cosine.
        let (r, f) = self.pose.axes();
        let d = p - self.pose.pos;
        let l = Vec2::new(d.dot(r), d.dot(f));
        let c = Vec2::new(
            l.x.clamp(-self.half.x, self.half.x),
            l.y.clamp(-self.half.y, self.half.y),
        );
        self.pose.pos + c.x * r + c.y * f
    }

    /// Distance from `p` to the rectangle (0 inside).
    pub fn distance_to_point(&self, p: Vec2) -> f32 {
        self.closest_point(p).distance(p)
    }

    /// The rectangle as a polygon, corners counter-clockwise (front-left, rear-left, rear-right,
    /// front-right), the orientation the polygon routines expect.
    pub fn ccw_corners(&self) -> [Vec2; 4] {
        ccw_of(&self.corners())
    }

    /// Axis-aligned bounds `(min, max)`.
    pub fn aabb(&self) -> (Vec2, Vec2) {
        let cs = self.corners();
        let mut lo = cs[0];
        let mut hi = cs[0];
        for c in &cs[1..] {
            lo = lo.min(*c);
            hi = hi.max(*c);
        }
        (lo, hi)
    }

    /// The same rectangle moved by a table vector.
    pub fn translated(&self, d: Vec2) -> Self {
        Self {
            pose: self.pose.translated(d),
            half: self.half,
        }
    }

    /// The same rectangle rotated about a table point.
    pub fn rotated_about(&self, pivot: Vec2, theta: f32) -> Self {
        Self {
            pose: self.pose.rotated_about(pivot, theta),
            half: self.half,
        }
    }

    /// parry2d shape for this rectangle (use with [`Pose::to_parry`] of `self.pose`).
    pub fn to_cuboid(&self) -> parry2d::shape::Cuboid {
        parry2d::shape::Cuboid::new(self.half)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_of_north_facing_base() {
        let r = Rect::try_new(Vec2::new(10.0, 10.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        let [fl, fr, rr, rl] = r.corners();
        assert_eq!(fl, Vec2::new(8.0, 11.0));
        assert_eq!(fr, Vec2::new(12.0, 11.0));
        assert_eq!(rr, Vec2::new(12.0, 9.0));
        assert_eq!(rl, Vec2::new(8.0, 9.0));
        assert_eq!(r.edge_normal(Edge::Front), Vec2::Y);
    }

    #[test]
    fn from_front_mid_places_centre_behind_the_front() {
        let r = Rect::from_front_mid(Vec2::new(0.0, 0.0), Vec2::new(4.0, 3.0), 0.0);
        assert!((r.center() - Vec2::new(0.0, -1.5)).length() < 1e-6);
    }

    #[test]
    fn refuses_degenerate_and_nan() {
        assert!(Rect::try_new(Vec2::ZERO, Vec2::new(0.0, 2.0), 0.0).is_err());
        assert!(Rect::try_new(Vec2::new(f32::NAN, 0.0), Vec2::ONE, 0.0).is_err());
    }

    #[test]
    fn closest_point_and_distance() {
        let r = Rect::try_new(Vec2::ZERO, Vec2::new(4.0, 2.0), 0.0).unwrap();
        assert!((r.distance_to_point(Vec2::new(5.0, 0.0)) - 3.0).abs() < 1e-6);
        assert_eq!(r.distance_to_point(Vec2::new(0.5, 0.5)), 0.0);
    }
}
