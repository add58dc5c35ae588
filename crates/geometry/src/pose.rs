//! Position and facing of something on the table.

use crate::error::{GeoError, check_finite};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A rigid placement: `pos` in table cm, `angle` the counter-clockwise rotation (radians) that
/// carries the local frame (+y forward, +x right) onto the table. `angle == 0` faces +y (north).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
pub struct Pose {
    pub pos: Vec2,
    pub angle: f32,
}

impl Pose {
    pub const fn new(pos: Vec2, angle: f32) -> Self {
        Self { pos, angle }
    }

    /// Validated constructor.
    pub fn try_new(pos: Vec2, angle: f32) -> Result<Self, GeoError> {
        check_finite("pose", &[pos.x, pos.y, angle])?;
        Ok(Self {
            pos,
            angle: normalize_angle(angle),
        })
    }

    /// From a compass bearing in degrees, as scenario files write it: 0 faces north (+y),
    /// 90 faces east (+x), clockwise.
    pub fn from_bearing_deg(pos: Vec2, bearing_deg: f32) -> Self {
        Self {
            pos,
            angle: normalize_angle(-bearing_deg.to_radians()),
        }
    }

    /// The compass bearing in degrees, in `[0, 360)`.
    pub fn bearing_deg(&self) -> f32 {
        let b = (-self.angle).to_degrees().rem_euclid(360.0);
        if b >= 359.9995 { 0.0 } else { b }
    }

    /// Unit vector the figures face (`f` in the digests).
    #[inline]
    pub fn facing(&self) -> Vec2 {
        let (s, c) = self.angle.sin_cos();
        Vec2::new(-s, c)
    }

    /// Unit vector to the right of the facing (`r` in the digests).
    #[inline]
    pub fn right(&self) -> Vec2 {
        let (s, c) = self.angle.sin_cos();
        Vec2::new(c, s)
    }

    /// `(right, facing)` from one sine and cosine: the same vectors as [`Self::right`] and
    /// [`Self::facing`], for code that needs both (the trigonometry is most of its cost).
    #[inline]
    pub fn axes(&self) -> (Vec2, Vec2) {
        let (s, c) = self.angle.sin_cos();
        (Vec2::new(c, s), Vec2::new(-s, c))
    }

    /// Local (x right, y forward) to table coordinates.
    #[inline]
    pub fn to_world(&self, local: Vec2) -> Vec2 {
        let (r, f) = self.axes();
        self.pos + local.x * r + local.y * f
    }

    /// [`Self::to_world`] of several points, with one sine and cosine.
    #[inline]
    pub fn to_world_n<const N: usize>(&self, local: [Vec2; N]) -> [Vec2; N] {
        let (r, f) = self.axes();
        local.map(|l| self.pos + l.x * r + l.y * f)
    }

    /// Table coordinates to local (x right, y forward).
    #[inline]
    pub fn to_local(&self, world: Vec2) -> Vec2 {
        let d = world - self.pos;
        let (r, f) = self.axes();
        Vec2::new(d.dot(r), d.dot(f))
    }

    /// A local direction to a table direction.
    #[inline]
    pub fn dir_to_world(&self, local: Vec2) -> Vec2 {
        let (r, f) = self.axes();
        local.x * r + local.y * f
    }

    /// Moved by a table-frame vector.
    #[inline]
    pub fn translated(&self, d: Vec2) -> Self {
        Self {
            pos: self.pos + d,
            angle: self.angle,
        }
    }

    /// Rotated by `theta` (radians, counter-clockwise) about a table point.
    pub fn rotated_about(&self, pivot: Vec2, theta: f32) -> Self {
        let rel = Vec2::from_angle(theta).rotate(self.pos - pivot);
        Self {
            pos: pivot + rel,
            angle: normalize_angle(self.angle + theta),
        }
    }

    /// The parry2d placement of a shape whose local frame is this pose's.
    #[inline]
    pub fn to_parry(&self) -> parry2d::math::Pose {
        parry2d::math::Pose::new(self.pos, self.angle)
    }
}

/// An angle folded into `(-π, π]`.
pub fn normalize_angle(a: f32) -> f32 {
    use core::f32::consts::{PI, TAU};
    let mut r = a.rem_euclid(TAU);
    if r > PI {
        r -= TAU;
    }
    r
}

/// Signed smallest rotation from direction `a` to direction `b` (radians, counter-clockwise positive).
pub fn signed_angle(a: Vec2, b: Vec2) -> f32 {
    a.perp_dot(b).atan2(a.dot(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::f32::consts::FRAC_PI_2;

    #[test]
    fn bearing_zero_faces_north_and_ninety_faces_east() {
        let p = Pose::from_bearing_deg(Vec2::ZERO, 0.0);
        assert!((p.facing() - Vec2::Y).length() < 1e-6);
        assert!((p.right() - Vec2::X).length() < 1e-6);
        let e = Pose::from_bearing_deg(Vec2::ZERO, 90.0);
        assert!((e.facing() - Vec2::X).length() < 1e-6);
        assert!((e.right() + Vec2::Y).length() < 1e-6);
        assert!((e.bearing_deg() - 90.0).abs() < 1e-4);
    }

    #[test]
    fn local_world_round_trip() {
        let p = Pose::new(Vec2::new(10.0, 5.0), 0.7);
        let w = p.to_world(Vec2::new(2.0, -3.0));
        assert!((p.to_local(w) - Vec2::new(2.0, -3.0)).length() < 1e-5);
    }

    #[test]
    fn rotation_about_pivot() {
        let p = Pose::new(Vec2::new(1.0, 0.0), 0.0);
        let q = p.rotated_about(Vec2::ZERO, FRAC_PI_2);
        assert!((q.pos - Vec2::new(0.0, 1.0)).length() < 1e-6);
        assert!((q.angle - FRAC_PI_2).abs() < 1e-6);
    }

    #[test]
    fn refuses_nan() {
        assert!(Pose::try_new(Vec2::new(f32::NAN, 0.0), 0.0).is_err());
        assert!(Pose::try_new(Vec2::ZERO, f32::INFINITY).is_err());
    }
}
