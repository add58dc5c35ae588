//! Deployment by the scenario's map (BFS-SCN-48): each side's area, where its units may stand,
//! the layouts offered, and the Forced March made after both sides deploy (BFS-SCN-39).

use super::{PreBattle, terrain_setup};
use crate::deploy::deployment_rects;
use crate::geo::{TerrainClass, terrain_class};
use crate::ids::Side;
use crate::profile::{UnitKind, UnitProfile};
use crate::scenario_spec::FormationSpec;
use sandtable_engine::scenario::ShapeSpec;
use sandtable_engine::scenario_check::rects_overlap;
use sandtable_engine::scenario_geometry::shape_polygons;
use sandtable_geometry::prim::{point_in_polygon, segments_intersect};
use sandtable_geometry::{Rect, Vec2};
use serde::{Deserialize, Serialize};

/// Where one unit or commander deploys: a unit by the middle of its front edge, a commander by
/// the centre of his base, with its facing (a compass bearing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    pub id: String,
    pub position: (f32, f32),
    pub facing: f32,
}

/// One piece of a force, as deployment needs it.
struct Piece<'a> {
    id: &'a str,
    profile: &'a UnitProfile,
    bases: u8,
    commander: bool,
}

impl PreBattle {
    /// A side's deployment area: the table's width, from its own edge to the map's depth.
    pub fn zone(&self, side: Side) -> Option<(f32, f32)> {
        let map = self.map()?;
        let south = self.south(side)?;
        let depth = if side == self.defender {
            map.defender_depth
        } else {
            map.attacker_depth
        };
        Some(if south {
            (0.0, depth)
        } else {
            (self.table.1 - depth, self.table.1)
        })
    }

    /// The zone as a shape, for the scenario and for drawing.
    pub fn zone_shape(&self, side: Side) -> Option<ShapeSpec> {
        let (y0, y1) = self.zone(side)?;
        Some(ShapeSpec::Rect {
            center: (self.table.0 * 0.5, (y0 + y1) * 0.5),
            size: (self.table.0, y1 - y0),
            rotation: 0.0,
        })
    }

    fn pieces(&self, side: Side) -> Vec<Piece<'_>> {
        let f = &self.forces[side.index()];
        let list = &self.lists[side.index()];
        let mut out: Vec<Piece> = f
            .units
            .iter()
            // Units held back do not deploy (BFS-SCN-31, -46).
            .filter(|u| !self.delayed.iter().any(|d| d.0 == side && d.1 == u.id))
            .filter_map(|u| {
                Some(Piece {
                    id: &u.id,
                    profile: list.profile(&u.profile)?,
                    bases: u.bases,
                    commander: false,
                })
            })
            .collect();
        out.extend(f.commanders.iter().filter_map(|c| {
            Some(Piece {
                id: &c.id,
                profile: list.profile(&c.profile)?,
                bases: 1,
                commander: true,
            })
        }));
        out
    }

    /// The bases a placement puts on the table.
    fn rects(&self, piece: &Piece, at: (f32, f32), facing: f32) -> Vec<Rect> {
        if piece.commander {
            let (w, d) = piece.profile.base_size();
            return vec![Rect::new(
                sandtable_geometry::Pose::from_bearing_deg(Vec2::new(at.0, at.1), facing),
                Vec2::new(w, d) * 0.5,
            )];
        }
        deployment_rects(
            formation_of(piece.profile, piece.bases),
            piece.bases,
            piece.profile.base_size(),
            Vec2::new(at.0, at.1),
            facing,
        )
    }

    /// The bases a side has deployed, as they stand.
    pub fn deployed_rects(&self, side: Side) -> Vec<Rect> {
        let Some(placements) = &self.deployed[side.index()] else {
            return Vec::new();
        };
        let pieces = self.pieces(side);
        placements
            .iter()
            .filter_map(|p| {
                let piece = pieces.iter().find(|x| x.id == p.id)?;
                Some(self.rects(piece, p.position, p.facing))
            })
            .flatten()
            .collect()
    }

    /// Where a held-back unit waits: in Column touching its own table edge, facing into the
    /// table, at the first spot from the edge's middle outward clear of every base already
    /// placed (`taken`), which it then joins (BFS-SCN-31, -50).
    pub fn reserve_place(
        &self,
        side: Side,
        unit: &str,
        taken: &mut Vec<Rect>,
    ) -> ((f32, f32), f32) {
        let f = &self.forces[side.index()];
        let list = &self.lists[side.index()];
        let Some((profile, bases)) = f
            .units
            .iter()
            .find(|u| u.id == unit)
            .and_then(|u| Some((list.profile(&u.profile)?, u.bases)))
        else {
            return ((self.table.0 * 0.5, 1.0), 0.0);
        };
        let south = self.south(side).unwrap_or(true);
        let facing = if south { 0.0 } else { 180.0 };
        let length = profile.base_size().1 * bases as f32 + 0.01;
        let y = if south { length } else { self.table.1 - length };
        let mut best = None;
        for k in 0..60 {
            let dx = if k % 2 == 0 { k / 2 } else { -(k / 2 + 1) } as f32 * 3.0;
            let x = self.table.0 * 0.5 + dx;
            let rects = deployment_rects(
                FormationSpec::Column,
                bases,
                profile.base_size(),
                Vec2::new(x, y),
                facing,
            );
            let on_table = rects.iter().flat_map(|r| r.corners()).all(|c| {
                c.x >= -1e-3
                    && c.x <= self.table.0 + 1e-3
                    && c.y >= -1e-3
                    && c.y <= self.table.1 + 1e-3
            });
            if on_table
                && !rects
                    .iter()
                    .any(|a| taken.iter().any(|b| rects_overlap(a, b)))
            {
                best = Some(((x, y), rects));
                break;
            }
        }
        let (at, rects) = best.unwrap_or(((self.table.0 * 0.5, y), Vec::new()));
        taken.extend(rects);
        (at, facing)
    }

    /// Why this deployment is refused, or `None` (BFS-SCN-48): every unit and commander of the
    /// side once, each base wholly in its area, on no ground impassable to it, none overlapping.
    pub fn deployment_refusal(&self, side: Side, placements: &[Placement]) -> Option<String> {
        let Some((y0, y1)) = self.zone(side) else {
            return Some("The scenario and the edges are not known yet.".into());
        };
        let pieces = self.pieces(side);
        let mut placed: Vec<(&str, Vec<Rect>)> = Vec::new();
        for piece in &pieces {
            let n = placements.iter().filter(|p| p.id == piece.id).count();
            if n != 1 {
                return Some(format!(
                    "\"{}\" must be placed exactly once (it is placed {n} times).",
                    piece.id
                ));
            }
        }
        for p in placements {
            let Some(piece) = pieces.iter().find(|x| x.id == p.id) else {
                return Some(format!("\"{}\" is not in this force.", p.id));
            };
            if !(p.position.0.is_finite() && p.position.1.is_finite() && p.facing.is_finite()) {
                return Some(format!("\"{}\": the numbers must be finite.", p.id));
            }
            let rects = self.rects(piece, p.position, p.facing);
            if let Some(why) = self.base_refusal(piece.profile, &rects, (y0, y1)) {
                return Some(format!("\"{}\" {why}", p.id));
            }
            for (other, theirs) in &placed {
                if rects
                    .iter()
                    .any(|a| theirs.iter().any(|b| rects_overlap(a, b)))
                {
                    return Some(format!("\"{}\" overlaps \"{other}\".", p.id));
                }
            }
            placed.push((&p.id, rects));
        }
        None
    }

    /// Why these bases may not stand here: outside the area or on ground impassable to them.
    fn base_refusal(
        &self,
        profile: &UnitProfile,
        rects: &[Rect],
        zone: (f32, f32),
    ) -> Option<String> {
        for r in rects {
            for c in r.corners() {
                if c.x < -1e-3
                    || c.x > self.table.0 + 1e-3
                    || c.y < zone.0 - 1e-3
                    || c.y > zone.1 + 1e-3
                {
                    return Some(format!(
                        "has a base outside its deployment area ({:.0}–{:.0} cm from the south edge).",
                        zone.0, zone.1
                    ));
                }
            }
        }
        for e in &self.elements {
            if terrain_class(e.spec.kind, profile) != TerrainClass::Impassable {
                continue;
            }
            let polys = shape_polygons(&e.spec.shape);
            if rects
                .iter()
                .any(|r| polys.iter().any(|poly| rect_meets_polygon(r, poly)))
            {
                return Some(format!(
                    "would stand in the {}, impassable to it.",
                    e.spec
                        .name
                        .clone()
                        .unwrap_or_else(|| terrain_setup::kind_name(e.spec.kind).into())
                        .to_lowercase()
                ));
            }
        }
        None
    }

    /// A layout of the whole force in its area, or why none fits: style 0 puts foot and guns in
    /// the centre and horse on the wings, style 1 foot in front and horse behind; wagons stand
    /// at the rear, commanders behind the centre. Each piece slides along its line until it
    /// stands clear of impassable ground and its neighbours.
    pub fn layout(&self, side: Side, style: u8) -> Result<Vec<Placement>, String> {
        let (y0, y1) = self
            .zone(side)
            .ok_or("The scenario and the edges are not known yet.")?;
        let south = self.south(side).expect("zone known");
        let facing = if south { 0.0 } else { 180.0 };
        // Distance from the own edge to a point `d` cm deep into the area.
        let y_at = |d: f32| if south { y0 + d } else { y1 - d };
        let depth = y1 - y0;
        let pieces = self.pieces(side);
        let mounted = |p: &Piece| matches!(p.profile.kind, UnitKind::Cavalry | UnitKind::Dragoons);
        let foot: Vec<&Piece> = pieces
            .iter()
            .filter(|p| !p.commander && !mounted(p) && p.profile.kind != UnitKind::Wagon)
            .collect();
        let horse: Vec<&Piece> = pieces
            .iter()
            .filter(|p| !p.commander && mounted(p))
            .collect();
        let rear: Vec<&Piece> = pieces
            .iter()
            .filter(|p| p.profile.kind == UnitKind::Wagon)
            .collect();
        let chiefs: Vec<&Piece> = pieces.iter().filter(|p| p.commander).collect();
        // Lines of pieces, front first, each ordered west to east.
        let mut lines: Vec<Vec<&Piece>> = Vec::new();
        if style == 0 {
            let mut front: Vec<&Piece> = Vec::new();
            let (west, east): (Vec<_>, Vec<_>) =
                horse.iter().enumerate().partition(|(i, _)| i % 2 == 0);
            front.extend(west.iter().map(|(_, p)| *p));
            front.extend(foot.iter().copied());
            front.extend(east.iter().rev().map(|(_, p)| *p));
            lines.push(front);
        } else {
            lines.push(foot.clone());
            lines.push(horse.clone());
        }
        lines.push(rear.clone());
        lines.push(chiefs.clone());
        lines.retain(|l| !l.is_empty());
        let mut out = Vec::new();
        let mut placed: Vec<Rect> = Vec::new();
        // The front line stands 2 cm behind the area's front edge.
        let mut line_depth = depth - 2.0;
        for line in lines {
            let widths: Vec<f32> = line
                .iter()
                .map(|p| frontage(&self.rects(p, (0.0, 0.0), turn_of(p))))
                .collect();
            let gap = 3.0;
            let total: f32 = widths.iter().sum::<f32>() + gap * (widths.len() as f32 - 1.0);
            let mut x = (self.table.0 - total).max(0.0) * 0.5;
            let mut rear = f32::INFINITY;
            for (p, w) in line.iter().zip(&widths) {
                let ideal = x + w * 0.5;
                x += w + gap;
                let mut spot = None;
                // Slide along the line, then back, until the piece stands clear.
                'search: for back in (0..8).map(|k| k as f32 * 4.0) {
                    for k in 0..40 {
                        let dx = if k % 2 == 0 { k / 2 } else { -(k / 2 + 1) } as f32 * 2.0;
                        let fx = ideal + dx;
                        let front = line_depth - back;
                        let turn = turn_of(p);
                        let mut at = (
                            if south { fx } else { self.table.0 - fx },
                            if p.commander {
                                y_at(front - 2.0)
                            } else if turn != 0.0 {
                                // A train along the line: its long side on the line's front.
                                y_at(front - p.profile.base_size().0 * 0.5)
                            } else {
                                y_at(front)
                            },
                        );
                        let mut rects = self.rects(p, at, facing + turn);
                        if turn != 0.0 {
                            // Centred on its place in the line, as the others are.
                            let xs = rects.iter().flat_map(|r| r.corners()).map(|c| c.x);
                            let (lo, hi) = xs
                                .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), x| {
                                    (a.min(x), b.max(x))
                                });
                            let shift = at.0 - (lo + hi) * 0.5;
                            at.0 += shift;
                            rects = self.rects(p, at, facing + turn);
                        }
                        if self.base_refusal(p.profile, &rects, (y0, y1)).is_none()
                            && !rects
                                .iter()
                                .any(|a| placed.iter().any(|b| rects_overlap(a, b)))
                        {
                            spot = Some((at, rects));
                            break 'search;
                        }
                    }
                }
                let Some((at, rects)) = spot else {
                    return Err(format!(
                        "No room for \"{}\" in the deployment area: place it by hand.",
                        p.id
                    ));
                };
                // How deep into the area (from the own edge) the piece's rear reaches.
                rear = rear.min(
                    rects
                        .iter()
                        .flat_map(|r| r.corners())
                        .map(|c| (c.y - y_at(0.0)).abs())
                        .fold(f32::INFINITY, f32::min),
                );
                placed.extend(rects);
                out.push(Placement {
                    id: p.id.to_string(),
                    position: at,
                    facing: (facing + turn_of(p)).rem_euclid(360.0),
                });
            }
            // The next line stands 4 cm behind this one's rear, or back at the front where the
            // area is too shallow (the slide keeps the pieces apart).
            line_depth = rear - 4.0;
            if line_depth < 2.0 {
                line_depth = depth - 2.0;
            }
        }
        Ok(out)
    }
}

/// How far a piece is turned from its side's facing in a layout: a War Wagon Train stands along
/// the line, its wagons end to end across the front, as a tabor is drawn up; every other piece
/// faces the enemy.
fn turn_of(p: &Piece) -> f32 {
    if p.profile.has(crate::profile::SpecialRule::WarWagon) {
        90.0
    } else {
        0.0
    }
}

/// The formation a piece deploys in: the profile's own default, Open Order where the rules
/// always use it (BFS-OO-1).
pub fn formation_of(profile: &UnitProfile, bases: u8) -> FormationSpec {
    if crate::open_order::always_open(profile) {
        FormationSpec::OpenOrder
    } else {
        crate::force::default_formation(Some(profile), bases)
    }
}

fn frontage(rects: &[Rect]) -> f32 {
    let xs = rects.iter().flat_map(|r| r.corners()).map(|c| c.x);
    let (lo, hi) = xs.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    (hi - lo).max(0.0)
}

/// Whether a base and a polygon share any ground (touching edges count).
fn rect_meets_polygon(r: &Rect, poly: &[Vec2]) -> bool {
    let corners = r.corners();
    if corners.iter().any(|c| point_in_polygon(*c, poly))
        || poly.iter().any(|v| r.contains(*v, 0.0))
    {
        return true;
    }
    (0..4).any(|i| {
        let (a0, a1) = (corners[i], corners[(i + 1) % 4]);
        (0..poly.len()).any(|j| segments_intersect(a0, a1, poly[j], poly[(j + 1) % poly.len()]))
    })
}

/// Moves a unit on Forced March straight ahead by up to its Basic Move, stopping short of 20 cm
/// from any enemy base, of impassable ground and of other bases (BFS-SCN-39); the distance
/// moved, or `None` if it cannot move at all.
pub fn forced_march(seq: &mut PreBattle, side: Side, unit: &str) -> Option<f32> {
    let pieces = seq.pieces(side);
    let piece = pieces.iter().find(|p| p.id == unit)?;
    let profile = piece.profile;
    let own = seq.deployed[side.index()].clone()?;
    let enemy = seq.deployed[side.other().index()].clone()?;
    let at = own.iter().find(|p| p.id == unit)?.clone();
    let enemy_pieces = seq.pieces(side.other());
    let enemy_rects: Vec<Rect> = enemy
        .iter()
        .filter_map(|p| {
            let piece = enemy_pieces.iter().find(|x| x.id == p.id)?;
            Some(seq.rects(piece, p.position, p.facing))
        })
        .flatten()
        .collect();
    let own_rects: Vec<Rect> = own
        .iter()
        .filter(|p| p.id != unit)
        .filter_map(|p| {
            let piece = pieces.iter().find(|x| x.id == p.id)?;
            Some(seq.rects(piece, p.position, p.facing))
        })
        .flatten()
        .collect();
    let ahead = sandtable_geometry::Pose::from_bearing_deg(Vec2::ZERO, at.facing)
        .to_world(Vec2::new(0.0, 1.0));
    let mut best = None;
    let full = profile.movement.basic;
    let mut d = full;
    while d > 0.0 {
        let pos = (at.position.0 + ahead.x * d, at.position.1 + ahead.y * d);
        let rects = seq.rects(piece, pos, at.facing);
        let clear_of_enemy = rects.iter().all(|a| {
            enemy_rects
                .iter()
                .all(|b| sandtable_geometry::distance::distance(a, b).is_ok_and(|x| x >= 20.0))
        });
        let on_table_and_passable = seq
            .base_refusal(profile, &rects, (0.0, seq.table.1))
            .is_none();
        let free = !rects.iter().any(|a| {
            own_rects
                .iter()
                .chain(&enemy_rects)
                .any(|b| rects_overlap(a, b))
        });
        // The straight path must not cross impassable ground either.
        let path_clear = (1..=4).all(|k| {
            let t = d * k as f32 / 4.0;
            let p = (at.position.0 + ahead.x * t, at.position.1 + ahead.y * t);
            seq.base_refusal(profile, &seq.rects(piece, p, at.facing), (0.0, seq.table.1))
                .is_none()
        });
        if clear_of_enemy && on_table_and_passable && free && path_clear {
            best = Some((d, pos));
            break;
        }
        d -= 0.5;
    }
    drop(pieces);
    let (d, pos) = best?;
    let placements = seq.deployed[side.index()].as_mut()?;
    if let Some(p) = placements.iter_mut().find(|p| p.id == unit) {
        p.position = pos;
    }
    Some(d)
}
