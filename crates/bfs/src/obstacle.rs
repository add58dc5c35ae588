//! Linear obstacles: fences, low walls, narrow ditches (terrain kind `Obstacle`) and field
//! fortifications (`Fortification`). Nobody walks through one: it is crossed by a maneuver
//! (BFS-TER-5, BFS-MAN-15, BFS-MAN-16); guns and wagons cannot cross at all (BFS-TER-27). Whoever
//! stands touching one is behind it: in cover against fire across it, Armor raised, Advantage
//! when defending it, and charging cavalry loses its Impetus against it (BFS-TER-13, -27, -32).
//!
//! Obstacles carry no height in the scenario yet, so every obstacle is the low kind (at least
//! 1 cm): cover for infantry and artillery. Field fortifications give no cover to cavalry. The
//! high obstacle that hides infantry completely is not modelled.
//!
//! Not yet: fighting across an obstacle. A charge stops flush against it, short of a target on
//! the far side, so the close-combat effects below (Advantage, Armor, lost Impetus) are written
//! and tested by position but no charge yet brings them about; nor the draw rule of BFS-TER-32.

use crate::geo::frame_of;
use crate::ids::UnitId;
use crate::moves;
use crate::profile::UnitKind;
use crate::state::Game;
use sandtable_engine::RuleError;
use sandtable_engine::scenario::TerrainKind;
use sandtable_geometry::terrain::TerrainPiece;
use sandtable_geometry::{Polygon, Rect, Segment, distance};

/// A base this close to an obstacle touches it (the moves stop flush against impassable ground).
pub const TOUCH_CM: f32 = 0.1;

/// How far a unit may be turned from square to the obstacle and still cross it (AMB-19).
pub const SQUARE_TOLERANCE_DEG: f32 = 15.0;

/// Ground crossed only by the maneuver (BFS-TER-5): fences, walls, ditches, field fortifications
/// and the portable obstacles (BFS-OBS; caltrops stop horses only).
pub fn is_obstacle(kind: TerrainKind) -> bool {
    matches!(
        kind,
        TerrainKind::Obstacle
            | TerrainKind::Fortification
            | TerrainKind::Kobylica
            | TerrainKind::ChevauxDeFrise
            | TerrainKind::Caltrops
    )
}

/// Obstacles a unit stands behind and defends (BFS-TER-27): not caltrops, which only hinder
/// horses (BFS-OBS-7).
fn defensible(kind: TerrainKind) -> bool {
    is_obstacle(kind) && kind != TerrainKind::Caltrops
}

/// Obstacles that give cover against shooting (−1): not the portable ones (BFS-OBS-4, BFS-OBS-10).
fn covers(kind: TerrainKind) -> bool {
    matches!(kind, TerrainKind::Obstacle | TerrainKind::Fortification)
}

fn polygons(game: &Game, piece: usize) -> Vec<Polygon> {
    crate::geo::terrain_pieces(game)
        .iter()
        .filter(|p| p.id as usize == piece)
        .map(|p| p.polygon.clone())
        .collect()
}

/// Does any of `bases` touch obstacle `piece`?
pub fn touches(game: &Game, bases: &[Rect], piece: usize) -> bool {
    polygons(game, piece).iter().any(|pg| {
        bases
            .iter()
            .any(|b| distance::rect_polygon(b, pg).is_ok_and(|d| d <= TOUCH_CM))
    })
}

/// The obstacle the line between two units' middles crosses, if one does.
pub fn between(game: &Game, a: UnitId, b: UnitId) -> Option<usize> {
    let s = Segment {
        a: frame_of(&game.unit(a).bases).center(),
        b: frame_of(&game.unit(b).bases).center(),
    };
    (0..game.terrain.len())
        .filter(|&i| defensible(game.terrain[i].kind))
        .find(|&i| {
            polygons(game, i)
                .iter()
                .any(|pg| distance::segment_polygon(&s, pg).is_ok_and(|d| d <= 1e-3))
        })
}

/// The obstacle `target` shelters behind against `from` (BFS-TER-27): one lies between them and
/// the target touches it, or neither touches it; a shooter touching it while the target does
/// not gets past it. Only infantry and artillery are covered: every obstacle here is the low
/// kind, and field fortifications never cover cavalry (BFS-TER-32).
pub fn shelter(game: &Game, target: UnitId, from: UnitId) -> Option<TerrainKind> {
    screened_by(game, target, from).filter(|k| covers(*k))
}

/// The obstacle between `target` and a shooter `from` that the shot must pass (as for
/// [`shelter`]), whether or not it covers: kobylicas raise Armor, chevaux de frise lower it,
/// and neither is cover (BFS-OBS-4, BFS-OBS-10).
pub fn screened_by(game: &Game, target: UnitId, from: UnitId) -> Option<TerrainKind> {
    if !crate::revision::ground_rules(game.info.options.rules_revision) {
        return None;
    }
    let piece = between(game, target, from)?;
    let kind = game.terrain[piece].kind;
    let covered = match game.unit_profile(target).kind {
        UnitKind::Infantry | UnitKind::Artillery => true,
        UnitKind::Cavalry | UnitKind::Dragoons | UnitKind::Wagon => false,
        UnitKind::Commander => false,
    };
    if !covered {
        return None;
    }
    let t = touches(game, &game.unit(target).bases, piece);
    let f = touches(game, &game.unit(from).bases, piece);
    (t || !f).then_some(kind)
}

/// The obstacle `unit` stands behind against `enemy`: one lies between them and the unit touches
/// it.
pub fn behind(game: &Game, unit: UnitId, enemy: UnitId) -> Option<TerrainKind> {
    if !crate::revision::ground_rules(game.info.options.rules_revision) {
        return None;
    }
    // A medium gun on its fortified base defends it as infantry an obstacle (BFS-ART-19).
    if crate::fortified_gun::defends_against(game, unit, enemy) {
        return Some(TerrainKind::Fortification);
    }
    let piece = between(game, unit, enemy)?;
    touches(game, &game.unit(unit).bases, piece).then_some(game.terrain[piece].kind)
}

/// The obstacle `unit` may defend against `enemy` (BFS-TER-27): behind it, and not cavalry
/// behind field fortifications, which do not cover horses (BFS-TER-32).
pub fn defends_across(game: &Game, unit: UnitId, enemy: UnitId) -> Option<TerrainKind> {
    let kind = behind(game, unit, enemy)?;
    let cavalry = game.unit_profile(unit).is_mounted();
    (!(kind == TerrainKind::Fortification && cavalry)).then_some(kind)
}

/// The Armor infantry and artillery behind an obstacle are raised to (BFS-TER-13): 4 behind a
/// fence, wall or ditch, 6 behind field fortifications; against fire across it (`shooting`) or
/// in close combat fought across it while touching it.
pub fn armor_raise(
    game: &Game,
    target: UnitId,
    from: UnitId,
    shooting: bool,
) -> Option<crate::dice::Modifier> {
    let p = game.unit_profile(target);
    if !matches!(p.kind, UnitKind::Infantry | UnitKind::Artillery) {
        return None;
    }
    let kind = if shooting {
        screened_by(game, target, from)?
    } else {
        behind(game, target, from)?
    };
    if kind == TerrainKind::ChevauxDeFrise {
        return None;
    }
    let to = if kind == TerrainKind::Fortification {
        6
    } else {
        4
    };
    let base = p.armor as i32;
    (to > base).then(|| {
        crate::dice::Modifier::new(
            if kind == TerrainKind::Fortification {
                "BFS-TER-32"
            } else {
                "BFS-TER-27"
            },
            format!(
                "behind {}: Armor {to}",
                match kind {
                    TerrainKind::Fortification => "field fortifications",
                    TerrainKind::Kobylica => "kobylicas (BFS-OBS-4)",
                    _ => "an obstacle",
                }
            ),
            to - base,
        )
    })
}

/// How far a unit must move straight ahead for every base to be entirely across the obstacle at
/// its front, and which obstacle that is (BFS-MAN-15/16). Refused when no obstacle touches its
/// front, when it stands more than 15° from square to it (AMB-19), or for guns and wagons.
pub fn crossing(game: &Game, unit: UnitId, bases: &[Rect]) -> Result<(usize, f32), RuleError> {
    let p = game.unit_profile(unit);
    if matches!(p.kind, UnitKind::Artillery | UnitKind::Wagon) {
        return Err(RuleError::new(
            "BFS-TER-27",
            "Guns and wagons cannot cross obstacles.",
        ));
    }
    let frame = frame_of(bases);
    let facing = frame.facing();
    let front = frame.center() + facing * frame.half.y;
    let probe = front_probe(bases);
    let piece = (0..game.terrain.len())
        .filter(|&i| is_obstacle(game.terrain[i].kind))
        .find(|&i| touches(game, std::slice::from_ref(&probe), i))
        .ok_or_else(|| {
            RuleError::new(
                "BFS-MAN-16",
                "No obstacle touches the unit's front: move up to it first.",
            )
        })?;
    // Square to it: the obstacle's nearest long edge runs along the unit's front.
    let pgs = polygons(game, piece);
    let along = pgs
        .iter()
        .flat_map(|pg| pg.edges().collect::<Vec<_>>())
        .filter(|(a, b)| (*b - *a).length() > 1e-3)
        .min_by(|x, y| {
            let dx = Segment { a: x.0, b: x.1 }.distance_to_point(front);
            let dy = Segment { a: y.0, b: y.1 }.distance_to_point(front);
            dx.total_cmp(&dy)
        })
        .map(|(a, b)| (b - a).normalize());
    if let Some(dir) = along {
        let off = dir.dot(facing).abs().asin().to_degrees();
        if off > SQUARE_TOLERANCE_DEG {
            return Err(RuleError::new(
                "BFS-MAN-16",
                format!(
                    "The unit stands {off:.0}° from square to the obstacle: wheel to face it \
                     squarely first (within {SQUARE_TOLERANCE_DEG:.0}°, AMB-19)."
                ),
            ));
        }
    }
    // Sweep each base straight ahead: it is across when its last overlap with the piece ends.
    let reach = 4.0 * (frame.half.y * 2.0 + 10.0);
    let delta = facing * reach;
    let mut need = 0.0f32;
    for pg in &pgs {
        let piece_geom = TerrainPiece::new(0, pg.clone());
        for b in bases {
            let iv = piece_geom
                .swept_intervals(b, delta)
                .map_err(|e| RuleError::new("BFS-MAN-16", e.to_string()))?;
            if let Some((_, t1)) = iv.last() {
                need = need.max(t1 * reach);
            }
        }
    }
    Ok((piece, need + 0.01))
}

/// A thin strip along the front of `bases`, `TOUCH_CM` deep: what touches it stands at their
/// front (an obstacle to cross, or friendly wagons, BFS-WAG-4).
pub fn front_probe(bases: &[Rect]) -> Rect {
    let frame = frame_of(bases);
    let facing = frame.facing();
    let front = frame.center() + facing * frame.half.y;
    Rect::new(
        sandtable_geometry::Pose::new(front + facing * (TOUCH_CM * 0.5), frame.pose.angle),
        sandtable_geometry::Vec2::new(frame.half.x, TOUCH_CM * 0.5),
    )
}

/// The cost of crossing as a Movement Maneuver, on top of the distance (BFS-TER-5, BFS-MAN-6).
pub fn crossing_cost(game: &Game, unit: UnitId) -> f32 {
    moves::maneuver_cost(game.unit_profile(unit))
}

/// The unit straight across the obstacle at its front: its bases after, and the distance
/// (BFS-MAN-15/16). Other terrain and units still stop it: a base that cannot get entirely across
/// does not cross.
pub fn cross(
    game: &Game,
    scene: &sandtable_geometry::Scene,
    unit: UnitId,
    bases: &[Rect],
) -> Result<(Vec<Rect>, f32), RuleError> {
    // Friendly wagons at its front are crossed as an obstacle (BFS-WAG-4).
    if let Some(w) = crate::wagon::crossing::wagon_at_front(game, unit, bases) {
        let d = crate::wagon::crossing::distance_across(game, bases, w)?;
        let obs = moves::obstacles_but_unit(game, unit, moves::ENEMY_GAP_CM, w);
        return straight_across(game, scene, unit, bases, d, &obs);
    }
    let (piece, d) = crossing(game, unit, bases)?;
    let obs = moves::obstacles_but(game, unit, moves::ENEMY_GAP_CM, Some(piece as u32));
    straight_across(game, scene, unit, bases, d, &obs)
}

/// The unit moved `d` straight ahead, or why it cannot get entirely across.
fn straight_across<B, T>(
    game: &Game,
    scene: &sandtable_geometry::Scene,
    unit: UnitId,
    bases: &[Rect],
    d: f32,
    obs: &sandtable_geometry::movement::ObstacleFns<B, T>,
) -> Result<(Vec<Rect>, f32), RuleError>
where
    B: Fn(&sandtable_geometry::SceneBase) -> Option<f32>,
    T: Fn(&TerrainPiece) -> Option<f32>,
{
    let frame = frame_of(bases);
    let body = sandtable_geometry::Body::new(frame, bases);
    let out = sandtable_geometry::movement::move_straight(
        scene,
        &body,
        d,
        obs,
        sandtable_geometry::MoveCost::default(),
    )
    .map_err(|e| {
        RuleError::new(
            "BFS-MAN-16",
            format!("The crossing cannot be measured: {e}"),
        )
    })?;
    if out.travelled < d - 1e-3 {
        let (why, rule) = out
            .blocked
            .map(|b| moves::blocker_text(game, &b, game.unit(unit).side.0))
            .unwrap_or(("something is in the way".into(), "BFS-MAN-16"));
        return Err(RuleError::new(
            rule,
            format!("The unit cannot get entirely across the obstacle: {why}."),
        ));
    }
    Ok((bases.iter().map(|b| b.translated(out.delta)).collect(), d))
}
