//! Straight moves (BFS-MOV-5/6/7, GEO-9): a unit's bases translated along ±facing, stopped by the
//! first obstacle at the gap the caller asks for (2 cm from enemies unless charging or fleeing, 0
//! from friends and impassable terrain), checked along the whole path (AMB-45), never only at the
//! end. Backward distance costs double (AMB-5).

use crate::cast::{self, CastShape};
use crate::error::{GeoError, check_finite, check_non_negative};
use crate::rect::Rect;
use crate::scene::{Scene, SceneBase};
use crate::terrain::TerrainPiece;
use crate::tolerance::CONTACT_GAP;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// BFaS default gap to enemies for a unit that is neither charging nor fleeing (BFS-MOV-7).
pub const ENEMY_GAP_CM: f32 = 2.0;

/// Something that moves rigidly: its frame rectangle (the unit rectangle of a close-order unit, or
/// the base itself) gives the facing, corners and pivots; its bases are what collides.
#[derive(Debug, Clone, Copy)]
pub struct Body<'a> {
    pub frame: Rect,
    pub bases: &'a [Rect],
}

impl<'a> Body<'a> {
    pub fn new(frame: Rect, bases: &'a [Rect]) -> Self {
        Self { frame, bases }
    }

    /// Checks the frame and every base, and that there is at least one base.
    pub fn check(&self) -> Result<(), GeoError> {
        self.frame.check("unit frame")?;
        if self.bases.is_empty() {
            return Err(GeoError::Degenerate {
                what: "body",
                why: "no bases".into(),
            });
        }
        for b in self.bases {
            b.check("base")?;
        }
        Ok(())
    }
}

/// What a moving body must keep clear of, and by how much (the caller's rules).
pub trait Obstacles {
    /// The gap (cm) to keep from this base, or `None` to ignore it (the mover's own bases, a
    /// friend it may pass through). A gap of 0 means "may touch": the body stops in contact
    /// ([`CONTACT_GAP`] short), never overlapping. A negative gap means "raw contact": stop only
    /// where the shapes would start to overlap (used for the unit an alignment pivots against).
    fn base_gap(&self, b: &SceneBase) -> Option<f32>;
    /// The gap to keep from a terrain piece, or `None`.
    fn terrain_gap(&self, t: &TerrainPiece) -> Option<f32>;
    /// An upper bound of every gap returned (sizes the broad-phase query).
    fn max_gap(&self) -> f32;
    /// Measure how near a corner passes another the old way, which could miss two corners
    /// meeting almost head on (`cast::translate_as`): only so that battles recorded
    /// before the fix replay as they were played.
    fn legacy_corner_rounding(&self) -> bool {
        false
    }
}

/// The usual policy by side: ignore the mover's own unit, keep `enemy_gap` from the other sides'
/// bases and `friend_gap` from its own side's, and `impassable_gap` from impassable terrain.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SidePolicy {
    pub mover_unit: u32,
    pub mover_side: u8,
    pub enemy_gap: Option<f32>,
    pub friend_gap: Option<f32>,
    pub impassable_gap: Option<f32>,
}

impl SidePolicy {
    /// An ordinary move: 2 cm from enemies (BFS-MOV-7), contact allowed with friends and
    /// impassable terrain but not overlap.
    pub fn moving(mover_unit: u32, mover_side: u8) -> Self {
        Self {
            mover_unit,
            mover_side,
            enemy_gap: Some(ENEMY_GAP_CM),
            friend_gap: Some(0.0),
            impassable_gap: Some(0.0),
        }
    }

    /// A charging or fleeing move: the first enemy touched is the contact (GEO-9).
    pub fn charging(mover_unit: u32, mover_side: u8) -> Self {
        Self {
            enemy_gap: Some(0.0),
            ..Self::moving(mover_unit, mover_side)
        }
    }

    pub fn with_friend_gap(mut self, g: Option<f32>) -> Self {
        self.friend_gap = g;
        self
    }
}

impl Obstacles for SidePolicy {
    fn base_gap(&self, b: &SceneBase) -> Option<f32> {
        if b.unit == self.mover_unit {
            None
        } else if b.side == self.mover_side {
            self.friend_gap
        } else {
            self.enemy_gap
        }
    }
    fn terrain_gap(&self, t: &TerrainPiece) -> Option<f32> {
        if t.impassable {
            self.impassable_gap
        } else {
            None
        }
    }
    fn max_gap(&self) -> f32 {
        [self.enemy_gap, self.friend_gap, self.impassable_gap]
            .into_iter()
            .flatten()
            .fold(0.0, f32::max)
    }
}

/// A policy from two closures and a bound.
pub struct ObstacleFns<B, T> {
    pub base: B,
    pub terrain: T,
    pub max_gap: f32,
    /// See [`Obstacles::legacy_corner_rounding`].
    pub legacy_corner_rounding: bool,
}

impl<B: Fn(&SceneBase) -> Option<f32>, T: Fn(&TerrainPiece) -> Option<f32>> Obstacles
    for ObstacleFns<B, T>
{
    fn base_gap(&self, b: &SceneBase) -> Option<f32> {
        (self.base)(b)
    }
    fn terrain_gap(&self, t: &TerrainPiece) -> Option<f32> {
        (self.terrain)(t)
    }
    fn max_gap(&self) -> f32 {
        self.max_gap
    }
    fn legacy_corner_rounding(&self) -> bool {
        self.legacy_corner_rounding
    }
}

/// The movement budget rates (AMB-5): 1 cm forward costs `forward`, 1 cm backward costs
/// `backward`; wheels use the same factors by their sense.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MoveCost {
    pub forward: f32,
    pub backward: f32,
}

impl Default for MoveCost {
    /// BFS-MOV-6: backward movement costs double.
    fn default() -> Self {
        Self {
            forward: 1.0,
            backward: 2.0,
        }
    }
}

impl MoveCost {
    /// Cost of a straight move of signed length `s` (positive forward).
    pub(crate) fn of_move(&self, s: f32) -> f32 {
        if s >= 0.0 {
            s * self.forward
        } else {
            -s * self.backward
        }
    }

    /// The longest straight move an allowance buys, forward or backward (`Move/2` backward).
    pub fn max_distance(&self, allowance: f32, backward: bool) -> Result<f32, GeoError> {
        check_non_negative("allowance", allowance)?;
        let rate = if backward {
            self.backward
        } else {
            self.forward
        };
        crate::error::check_positive("cost rate", rate)?;
        Ok(allowance / rate)
    }
}

/// What stopped a move, a wheel or a charge.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Blocker {
    /// A base of the scene (index into [`Scene::bases`]) and its unit.
    Base {
        index: usize,
        unit: u32,
        point: Vec2,
    },
    /// A terrain piece (index into [`Scene::terrain`]) and its id.
    Terrain { index: usize, id: u32, point: Vec2 },
}

impl Blocker {
    pub fn point(&self) -> Vec2 {
        match self {
            Blocker::Base { point, .. } | Blocker::Terrain { point, .. } => *point,
        }
    }
    pub fn unit(&self) -> Option<u32> {
        match self {
            Blocker::Base { unit, .. } => Some(*unit),
            Blocker::Terrain { .. } => None,
        }
    }
}

/// The result of [`move_straight`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MoveOutcome {
    /// Signed distance actually moved along the facing (negative backward).
    pub travelled: f32,
    /// Table vector every base moved by.
    pub delta: Vec2,
    /// What stopped it short, if anything.
    pub blocked: Option<Blocker>,
    /// Allowance spent, at the given rates.
    pub cost: f32,
}

impl MoveOutcome {
    pub fn frame_after(&self, frame: &Rect) -> Rect {
        frame.translated(self.delta)
    }
}

#[inline]
pub(crate) fn internal_gap(g: f32) -> f32 {
    if g < 0.0 {
        0.0
    } else if g < CONTACT_GAP {
        CONTACT_GAP
    } else {
        g
    }
}

/// Casts every base of `body` along `dir` (unit) up to `max`, returning the first stop.
pub(crate) fn cast_body(
    scene: &Scene,
    body: &Body,
    dir: Vec2,
    max: f32,
    obstacles: &impl Obstacles,
) -> (f32, Option<Blocker>) {
    let mut best = max;
    let mut blocker = None;
    let m = Vec2::splat(obstacles.max_gap() + CONTACT_GAP);
    for b in body.bases {
        let poly = b.ccw_corners();
        let mover = CastShape {
            verts: &poly,
            convex: true,
        };
        let (lo0, hi0) = b.aabb();
        let lo = lo0.min(lo0 + dir * max) - m;
        let hi = hi0.max(hi0 + dir * max) + m;
        scene.for_each_base_in_aabb(lo, hi, |i| {
            let sb = &scene.bases()[i];
            if let Some(g) = obstacles.base_gap(sb) {
                let ob = sb.rect.ccw_corners();
                if let Some(h) = cast::translate_as(
                    obstacles.legacy_corner_rounding(),
                    mover,
                    dir,
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
        scene.for_each_terrain_in_aabb(lo, hi, |i| {
            let t = &scene.terrain()[i];
            if let Some(g) = obstacles.terrain_gap(t) {
                let shape = CastShape {
                    verts: t.polygon.vertices(),
                    convex: t.polygon.is_convex(),
                };
                if let Some(h) = cast::translate_as(
                    obstacles.legacy_corner_rounding(),
                    mover,
                    dir,
                    best,
                    shape,
                    internal_gap(g),
                ) && (h.at < best || blocker.is_none())
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
    (best, blocker)
}

/// Moves `body` straight along its frame's facing by `distance` (negative: backward), stopping at
/// the first obstacle (GEO-9). The distance spent is costed at `cost` rates.
pub fn move_straight(
    scene: &Scene,
    body: &Body,
    distance: f32,
    obstacles: &impl Obstacles,
    cost: MoveCost,
) -> Result<MoveOutcome, GeoError> {
    body.check()?;
    check_finite("move distance", &[distance])?;
    if distance == 0.0 {
        return Ok(MoveOutcome {
            travelled: 0.0,
            delta: Vec2::ZERO,
            blocked: None,
            cost: 0.0,
        });
    }
    let sign = distance.signum();
    let dir = body.frame.facing() * sign;
    let (t, blocked) = cast_body(scene, body, dir, distance.abs(), obstacles);
    let travelled = sign * t;
    Ok(MoveOutcome {
        travelled,
        delta: dir * t,
        blocked,
        cost: cost.of_move(travelled),
    })
}

/// Moves `body` along any direction (Open Order bases, commanders, a fleeing unit's free path):
/// the same cast as [`move_straight`] with an explicit table vector.
pub fn move_along(
    scene: &Scene,
    body: &Body,
    delta: Vec2,
    obstacles: &impl Obstacles,
) -> Result<MoveOutcome, GeoError> {
    body.check()?;
    crate::error::check_point("move", delta)?;
    let len = delta.length();
    if len == 0.0 {
        return Ok(MoveOutcome {
            travelled: 0.0,
            delta: Vec2::ZERO,
            blocked: None,
            cost: 0.0,
        });
    }
    let dir = delta / len;
    let (t, blocked) = cast_body(scene, body, dir, len, obstacles);
    Ok(MoveOutcome {
        travelled: t,
        delta: dir * t,
        blocked,
        cost: t,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::polygon::Polygon;

    fn base(x: f32, y: f32) -> Rect {
        Rect::try_new(Vec2::new(x, y), Vec2::new(4.0, 2.0), 0.0).unwrap()
    }

    /// A 3-base line of unit 1 (side 0) with its front edge on y = 0, x ∈ [0, 12].
    fn line() -> (Rect, Vec<Rect>) {
        let frame = Rect::try_new(Vec2::new(6.0, -1.0), Vec2::new(12.0, 2.0), 0.0).unwrap();
        (
            frame,
            vec![base(2.0, -1.0), base(6.0, -1.0), base(10.0, -1.0)],
        )
    }

    fn scene_with(extra: Vec<SceneBase>, terrain: Vec<TerrainPiece>) -> Scene {
        let (_, bases) = line();
        let mut v: Vec<SceneBase> = bases
            .into_iter()
            .map(|rect| SceneBase {
                rect,
                unit: 1,
                side: 0,
            })
            .collect();
        v.extend(extra);
        Scene::new(v, terrain).unwrap()
    }

    #[test]
    fn ten_cm_forward_is_free_and_costs_ten() {
        let s = scene_with(vec![], vec![]);
        let (frame, bases) = line();
        let out = move_straight(
            &s,
            &Body::new(frame, &bases),
            10.0,
            &SidePolicy::moving(1, 0),
            MoveCost::default(),
        )
        .unwrap();
        assert_eq!(out.travelled, 10.0);
        assert!(out.blocked.is_none());
        assert_eq!(out.cost, 10.0);
        // Backward: 4 cm cost 8 (BFS-MOV-6).
        let out = move_straight(
            &s,
            &Body::new(frame, &bases),
            -4.0,
            &SidePolicy::moving(1, 0),
            MoveCost::default(),
        )
        .unwrap();
        assert_eq!(out.cost, 8.0);
        assert_eq!(MoveCost::default().max_distance(10.0, true).unwrap(), 5.0);
    }

    #[test]
    fn stops_two_cm_from_an_enemy_unless_charging() {
        // An enemy base with its rear edge at y = 8, over the middle of the line.
        let enemy = SceneBase {
            rect: base(6.0, 9.0),
            unit: 9,
            side: 1,
        };
        let s = scene_with(vec![enemy], vec![]);
        let (frame, bases) = line();
        let body = Body::new(frame, &bases);
        let out = move_straight(
            &s,
            &body,
            10.0,
            &SidePolicy::moving(1, 0),
            MoveCost::default(),
        )
        .unwrap();
        // 8 cm to contact, minus 2 cm.
        assert!((out.travelled - 6.0).abs() < 1e-4, "{out:?}");
        assert_eq!(out.blocked.and_then(|b| b.unit()), Some(9));
        let out = move_straight(
            &s,
            &body,
            10.0,
            &SidePolicy::charging(1, 0),
            MoveCost::default(),
        )
        .unwrap();
        assert!((out.travelled - (8.0 - CONTACT_GAP)).abs() < 1e-4);
        // Stopped in contact, not overlapping.
        let moved = bases[1].translated(out.delta);
        let d = crate::distance::rect_distance_unchecked(&moved, &enemy.rect);
        assert!(d > 0.0 && d <= crate::tolerance::CONTACT_EPS);
    }

    #[test]
    fn friends_and_impassable_terrain_stop_at_contact() {
        let friend = SceneBase {
            rect: base(10.0, 5.0),
            unit: 2,
            side: 0,
        }; // rear edge y = 4
        let rock = TerrainPiece::new(
            3,
            Polygon::new(vec![
                Vec2::new(-5.0, 3.0),
                Vec2::new(1.0, 3.0),
                Vec2::new(1.0, 6.0),
                Vec2::new(-5.0, 6.0),
            ])
            .unwrap(),
        )
        .with_impassable(true);
        let s = scene_with(vec![friend], vec![rock]);
        let (frame, bases) = line();
        let out = move_straight(
            &s,
            &Body::new(frame, &bases),
            10.0,
            &SidePolicy::moving(1, 0),
            MoveCost::default(),
        )
        .unwrap();
        assert!(
            (out.travelled - (3.0 - CONTACT_GAP)).abs() < 1e-4,
            "{out:?}"
        );
        assert!(matches!(out.blocked, Some(Blocker::Terrain { id: 3, .. })));
        // Ignoring friends (passing through is another rule) and with no rock: free.
        let s2 = scene_with(vec![friend], vec![]);
        let p = SidePolicy::moving(1, 0).with_friend_gap(None);
        let out = move_straight(
            &s2,
            &Body::new(frame, &bases),
            10.0,
            &p,
            MoveCost::default(),
        )
        .unwrap();
        assert_eq!(out.travelled, 10.0);
    }

    #[test]
    fn naive_and_bvh_agree_and_bad_input_is_refused() {
        let enemy = SceneBase {
            rect: base(6.0, 9.0),
            unit: 9,
            side: 1,
        };
        let s = scene_with(vec![enemy], vec![]);
        let n = scene_with(vec![enemy], vec![]).with_broad_phase(crate::scene::BroadPhase::Naive);
        let (frame, bases) = line();
        let body = Body::new(frame, &bases);
        let a = move_straight(
            &s,
            &body,
            10.0,
            &SidePolicy::moving(1, 0),
            MoveCost::default(),
        )
        .unwrap();
        let b = move_straight(
            &n,
            &body,
            10.0,
            &SidePolicy::moving(1, 0),
            MoveCost::default(),
        )
        .unwrap();
        assert_eq!(a, b);
        assert!(
            move_straight(
                &s,
                &body,
                f32::NAN,
                &SidePolicy::moving(1, 0),
                MoveCost::default()
            )
            .is_err()
        );
        assert!(
            move_straight(
                &s,
                &Body::new(frame, &[]),
                1.0,
                &SidePolicy::moving(1, 0),
                MoveCost::default()
            )
            .is_err()
        );
        let out = move_along(&s, &body, Vec2::new(0.0, 10.0), &SidePolicy::moving(1, 0)).unwrap();
        assert!((out.travelled - 6.0).abs() < 1e-4);
    }
}
