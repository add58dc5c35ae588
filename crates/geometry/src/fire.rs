//! Shooting geometry: field of fire (BFS-SHO-3/4, GEO-6), line of fire with its clearance
//! (BFS-SHO-6/7, GEO-7) and range bands (BFS-SHO-12, GEO-8, AMB-42).

use crate::distance::segment_rect_unchecked;
use crate::error::{GeoError, check_non_negative, check_point};
use crate::rect::{Edge, Rect};
use crate::scene::{Scene, SceneBase};
use crate::terrain::{SightBlock, length_inside};
use crate::tolerance::{CONTACT_EPS, LIMIT_EPS};
use crate::zones::{Zone, ZoneScheme, area_in_zone};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// BFaS line-of-fire clearance: the line must pass at least 1 cm from every blocker (BFS-SHO-6).
pub const LOF_CLEARANCE_CM: f32 = 1.0;

/// A flank, for the cavalry-bow arc.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FlankSide {
    Left,
    Right,
}

/// A field of fire in terms of the shooter's zones (GEO-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum FireArc {
    /// 90° to the front: the front zone (BFS-SHO-3).
    #[default]
    Front,
    /// Cavalry with bows, 270°: front, one flank and rear (BFS-SHO-4). The digest proposes
    /// excluding the right flank (AMB-12); `excluded` keeps the other reading available.
    CavalryBow { excluded: FlankSide },
    /// Front and both flanks (the other reading of AMB-12).
    FrontAndFlanks,
    /// Both flanks and nothing else: a war wagon fires from its long sides, never from its
    /// ends (BFS-WAG-15).
    Flanks,
}

impl FireArc {
    /// The BFaS cavalry-bow arc as proposed: the right flank excluded.
    pub const CAVALRY_BOW: FireArc = FireArc::CavalryBow {
        excluded: FlankSide::Right,
    };

    /// The zones the arc covers.
    pub fn zones(self) -> &'static [Zone] {
        match self {
            FireArc::Front => &[Zone::Front],
            FireArc::CavalryBow {
                excluded: FlankSide::Right,
            } => &[Zone::Front, Zone::Left, Zone::Rear],
            FireArc::CavalryBow {
                excluded: FlankSide::Left,
            } => &[Zone::Front, Zone::Right, Zone::Rear],
            FireArc::FrontAndFlanks => &[Zone::Front, Zone::Left, Zone::Right],
            FireArc::Flanks => &[Zone::Left, Zone::Right],
        }
    }
}

/// Is the target base in the field of fire of `frame` (the unit rectangle for close order, per
/// AMB-43; each base for Open Order)? A base is in if any part of it, more than a sliver, lies in
/// one of the arc's zones (GEO-6).
pub fn in_field_of_fire(
    frame: &Rect,
    arc: FireArc,
    scheme: ZoneScheme,
    target: &Rect,
) -> Result<bool, GeoError> {
    frame.check("shooter")?;
    target.check("target")?;
    let poly = target.ccw_corners();
    Ok(arc
        .zones()
        .iter()
        .any(|z| area_in_zone(frame, *z, scheme, &poly) > crate::tolerance::AREA_EPS_CM2))
}

/// The zone of the shooter (per base) that a target base is mostly in, for choosing the edge a
/// horse archer shoots from (GEO-7).
pub fn fire_zone(
    shooting_base: &Rect,
    scheme: ZoneScheme,
    target: &Rect,
) -> Result<Option<Zone>, GeoError> {
    shooting_base.check("shooting base")?;
    target.check("target")?;
    Ok(crate::zones::zone_shares(shooting_base, core::slice::from_ref(target), scheme)?.majority())
}

/// Where a line of fire and the range are measured from: the midpoint of the shooting base's
/// front edge, or (horse archers, BFS-SHO-7/12) of the edge facing the zone the target is in.
pub fn fire_origin(shooting_base: &Rect, zone: Zone) -> Result<Vec2, GeoError> {
    shooting_base.check("shooting base")?;
    Ok(shooting_base.edge(zone.edge()).midpoint())
}

/// Range from `origin` to a target unit (GEO-8): the distance to the closest point of its nearest
/// base. Returns `(distance, index of that base in target_bases, closest point)`.
pub fn range_to(origin: Vec2, target_bases: &[Rect]) -> Result<(f32, usize, Vec2), GeoError> {
    check_point("origin", origin)?;
    let mut best: Option<(f32, usize, Vec2)> = None;
    for (i, r) in target_bases.iter().enumerate() {
        r.check("target base")?;
        let c = r.closest_point(origin);
        let d = c.distance(origin);
        if best.is_none_or(|(bd, _, _)| d < bd) {
            best = Some((d, i, c));
        }
    }
    best.ok_or(GeoError::Degenerate {
        what: "target",
        why: "no bases".into(),
    })
}

/// A range band (AMB-42: upper bounds inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RangeBand {
    Effective,
    Long,
    OutOfRange,
}

/// The band of a measured range: `d ≤ effective` is Effective, `effective < d ≤ long` is Long,
/// beyond is out of range. Weapons with one value (pistol, javelins) pass `long = None`.
pub fn range_band(d: f32, effective: f32, long: Option<f32>) -> Result<RangeBand, GeoError> {
    check_non_negative("range", d)?;
    check_non_negative("effective range", effective)?;
    if let Some(l) = long {
        check_non_negative("long range", l)?;
        if l < effective {
            return Err(GeoError::OutOfRange {
                what: "long range",
                why: format!("{l} is shorter than {effective}"),
            });
        }
    }
    Ok(if d <= effective + LIMIT_EPS {
        RangeBand::Effective
    } else if long.is_some_and(|l| d <= l + LIMIT_EPS) {
        RangeBand::Long
    } else {
        RangeBand::OutOfRange
    })
}

/// A clear line of fire.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FireLine {
    pub from: Vec2,
    pub to: Vec2,
    /// Index (into the scene's bases) of the target base it reaches.
    pub target_base: usize,
}

/// Line of fire (GEO-7) from `origin` on the shooting base (scene index `shooter_base`) to any
/// base of unit `target`: a segment to a sample point of a target base (corners, edge midpoints,
/// closest point) that stays at least `clearance` from every blocker. The target's bases and the
/// shooting base itself never block; other bases block when `blocks` says so (BFaS, AMB-13: every
/// base of other units, friends in Open Order included for firearms; the shooter's own bases only
/// when it is in Open Order). Sight-blocking terrain needs the same clearance; "see up to x cm into
/// it" terrain blocks once more than x cm of the line are inside.
pub fn line_of_fire<F: Fn(&SceneBase) -> bool>(
    scene: &Scene,
    shooter_base: usize,
    origin: Vec2,
    target: u32,
    clearance: f32,
    blocks: F,
) -> Result<Option<FireLine>, GeoError> {
    check_point("origin", origin)?;
    check_non_negative("clearance", clearance)?;
    if shooter_base >= scene.bases().len() {
        return Err(GeoError::OutOfRange {
            what: "shooter base",
            why: format!("index {shooter_base}"),
        });
    }
    let idx = scene.unit_base_indices(target);
    if idx.is_empty() {
        return Err(GeoError::OutOfRange {
            what: "target",
            why: format!("unit {target} is not in the scene"),
        });
    }
    let bases = scene.bases();
    let mut samples: Vec<(Vec2, usize)> = Vec::with_capacity(idx.len() * 9);
    // Closest points first: they are the likeliest to be clear and the ones players measure.
    let mut order: Vec<usize> = idx.iter().map(|&i| i as usize).collect();
    order.sort_by(|&a, &b| {
        bases[a]
            .rect
            .distance_to_point(origin)
            .total_cmp(&bases[b].rect.distance_to_point(origin))
    });
    for &bi in &order {
        let r = &bases[bi].rect;
        samples.push((r.closest_point(origin), bi));
        let c = r.corners();
        for k in 0..4 {
            samples.push((c[k], bi));
            samples.push(((c[k] + c[(k + 1) % 4]) * 0.5, bi));
        }
    }
    let need = clearance - LIMIT_EPS;
    for (p, bi) in samples {
        let mut clear = true;
        scene.for_each_base_near_segment(origin, p, clearance, |i| {
            let sb = &bases[i];
            if i != shooter_base
                && sb.unit != target
                && blocks(sb)
                && segment_rect_unchecked(origin, p, &sb.rect) < need
            {
                clear = false;
                return false;
            }
            true
        });
        if clear {
            let terrain = scene.terrain();
            scene.for_each_terrain_near_segment(origin, p, clearance, |i| {
                let t = &terrain[i];
                let blocked = match t.sight {
                    SightBlock::Clear => false,
                    SightBlock::Blocks => {
                        crate::distance::segment_polygon_unchecked(origin, p, &t.polygon) < need
                    }
                    SightBlock::BlocksBeyond(x) => {
                        length_inside(&t.polygon, origin, p, 0.5 * CONTACT_EPS) > x + CONTACT_EPS
                    }
                    SightBlock::Rise => {
                        crate::terrain::rise_blocks(&t.polygon, origin, p, |poly, a, b| {
                            crate::distance::segment_polygon_unchecked(a, b, poly) < need
                                && length_inside(poly, a, b, 0.5 * CONTACT_EPS) > CONTACT_EPS
                        })
                    }
                };
                clear = !blocked;
                !blocked
            });
        }
        if clear {
            return Ok(Some(FireLine {
                from: origin,
                to: p,
                target_base: bi,
            }));
        }
    }
    Ok(None)
}

/// The midpoint of the front edge, the default origin (BFS-SHO-6).
pub fn front_midpoint(base: &Rect) -> Result<Vec2, GeoError> {
    base.check("shooting base")?;
    Ok(base.edge(Edge::Front).midpoint())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(x: f32, y: f32) -> Rect {
        Rect::try_new(Vec2::new(x, y), Vec2::new(4.0, 2.0), 0.0).unwrap()
    }

    #[test]
    fn bfs_sho_20_ranges() {
        // Arquebus 10/20: 10 cm is Effective (inclusive), 18 cm Long, 20 Long, 20.1 out.
        assert_eq!(
            range_band(10.0, 10.0, Some(20.0)).unwrap(),
            RangeBand::Effective
        );
        assert_eq!(range_band(18.0, 10.0, Some(20.0)).unwrap(), RangeBand::Long);
        assert_eq!(range_band(20.0, 10.0, Some(20.0)).unwrap(), RangeBand::Long);
        assert_eq!(
            range_band(20.1, 10.0, Some(20.0)).unwrap(),
            RangeBand::OutOfRange
        );
        // Pistol 5: one band.
        assert_eq!(range_band(6.0, 5.0, None).unwrap(), RangeBand::OutOfRange);
        assert!(range_band(f32::NAN, 5.0, None).is_err());
        assert!(range_band(1.0, 10.0, Some(5.0)).is_err());
        // Measured from the front-edge midpoint (0, 1) of a base at the origin to a target base
        // whose nearest edge is 10 cm ahead: y = 11.
        let shooter = b(0.0, 0.0);
        let o = front_midpoint(&shooter).unwrap();
        let (d, i, p) = range_to(o, &[b(30.0, 12.0), b(1.0, 12.0)]).unwrap();
        assert_eq!(i, 1);
        assert!((d - 10.0).abs() < 1e-5 && (p - Vec2::new(0.0, 11.0)).length() < 1e-5);
    }

    #[test]
    fn arcs() {
        let u = Rect::try_new(Vec2::ZERO, Vec2::new(12.0, 2.0), 0.0).unwrap();
        let ahead = b(0.0, 15.0);
        let left = b(-20.0, 0.0);
        let right = b(20.0, 0.0);
        let behind = b(0.0, -15.0);
        let s = ZoneScheme::Rays45;
        assert!(in_field_of_fire(&u, FireArc::Front, s, &ahead).unwrap());
        assert!(!in_field_of_fire(&u, FireArc::Front, s, &left).unwrap());
        let bow = FireArc::CAVALRY_BOW;
        assert!(in_field_of_fire(&u, bow, s, &left).unwrap());
        assert!(in_field_of_fire(&u, bow, s, &behind).unwrap());
        assert!(!in_field_of_fire(&u, bow, s, &right).unwrap());
        let other = FireArc::CavalryBow {
            excluded: FlankSide::Left,
        };
        assert!(in_field_of_fire(&u, other, s, &right).unwrap());
        assert!(!in_field_of_fire(&u, other, s, &left).unwrap());
        // A base straddling the 45° boundary is in the 90° arc (any part counts).
        let corner = b(9.0, 3.0);
        assert!(in_field_of_fire(&u, FireArc::Front, s, &corner).unwrap());
        // Horse archers: shooting at something on the left uses the left edge's midpoint.
        assert_eq!(fire_zone(&b(0.0, 0.0), s, &left).unwrap(), Some(Zone::Left));
        assert!(
            (fire_origin(&b(0.0, 0.0), Zone::Left).unwrap() - Vec2::new(-2.0, 0.0)).length() < 1e-6
        );
    }

    #[test]
    fn line_of_fire_needs_a_two_cm_gap() {
        // Shooter base at the origin (front midpoint (0, 1)); target base centred at (0, 21).
        // Two blocking bases at y = 11 leave a gap centred on x = 0.
        let mk = |gap: f32| {
            let half = gap / 2.0;
            Scene::new(
                vec![
                    SceneBase {
                        rect: b(0.0, 0.0),
                        unit: 1,
                        side: 0,
                    },
                    SceneBase {
                        rect: b(-half - 2.0, 11.0),
                        unit: 3,
                        side: 0,
                    },
                    SceneBase {
                        rect: b(half + 2.0, 11.0),
                        unit: 4,
                        side: 1,
                    },
                    SceneBase {
                        rect: b(0.0, 21.0),
                        unit: 2,
                        side: 1,
                    },
                ],
                vec![],
            )
            .unwrap()
        };
        let o = Vec2::new(0.0, 1.0);
        // A 2 cm gap: the straight line up the middle is exactly 1 cm from both.
        let s = mk(2.0);
        let l = line_of_fire(&s, 0, o, 2, LOF_CLEARANCE_CM, |_| true)
            .unwrap()
            .unwrap();
        assert_eq!(l.target_base, 3);
        // 1.8 cm: no line keeps 1 cm from both (every target point is behind the gap).
        let s = mk(1.8);
        assert!(
            line_of_fire(&s, 0, o, 2, LOF_CLEARANCE_CM, |_| true)
                .unwrap()
                .is_none()
        );
        // If the left blocker does not count (say it were the shooter's own close-order base), a
        // line to the target's left half passes more than 1 cm from the right blocker.
        let l = line_of_fire(&s, 0, o, 2, LOF_CLEARANCE_CM, |x| x.side != 0)
            .unwrap()
            .unwrap();
        assert!(l.to.x < 0.0);
        // Without the clearance (bows shooting overhead are the rules crate's business) the
        // middle line is fine.
        assert!(line_of_fire(&s, 0, o, 2, 0.5, |_| true).unwrap().is_some());
        assert!(line_of_fire(&s, 9, o, 2, 1.0, |_| true).is_err());
    }
}
