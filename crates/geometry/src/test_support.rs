//! Fixtures the geometry's unit tests share: a three-base line and a scene of units.

use crate::rect::Rect;
use crate::scene::{Scene, SceneBase};
use glam::Vec2;

/// A 3-base line centred at `(x, y)` facing `a`; returns its frame and bases.
pub fn line(x: f32, y: f32, a: f32) -> (Rect, Vec<Rect>) {
    let frame = Rect::try_new(Vec2::new(x, y), Vec2::new(12.0, 2.0), a).unwrap();
    let bases = (-1..=1)
        .map(|k| {
            Rect::new(
                crate::Pose::new(
                    frame.pose.to_world(Vec2::new(4.0 * k as f32, 0.0)),
                    frame.pose.angle,
                ),
                Vec2::new(2.0, 1.0),
            )
        })
        .collect();
    (frame, bases)
}

/// A scene of units given as (unit id, side, bases), without terrain.
pub fn scene(units: &[(u32, u8, &[Rect])]) -> Scene {
    let mut v = Vec::new();
    for (id, side, rs) in units {
        for r in rs.iter() {
            v.push(SceneBase {
                rect: *r,
                unit: *id,
                side: *side,
            });
        }
    }
    Scene::new(v, vec![]).unwrap()
}
