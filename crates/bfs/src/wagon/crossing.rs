//! Passing through friendly wagons (BFS-WAG-4, BFS-WGN-2). A wagon is an obstacle and a unit at
//! once: a unit crosses it with the obstacle-crossing maneuver (straight ahead, every base
//! entirely across, BFS-MAN-15/16), never by walking through it as through a friend, and then
//! tests Skill as a unit that passed through friends does (BFS-AMV-3; the wagon has no crew and
//! does not test). Infantry with a Defense order crossing wagons that hold a Defense order too
//! does it with one Special Maneuver and no test.

use crate::geo::frame_of;
use crate::ids::UnitId;
use crate::state::{Game, OrderKind};
use sandtable_engine::RuleError;
use sandtable_geometry::terrain::TerrainPiece;
use sandtable_geometry::{Polygon, Rect};

/// The friendly wagon (of any kind, a war wagon train too) touching the front of `bases` (the unit `unit`), if any.
pub fn wagon_at_front(game: &Game, unit: UnitId, bases: &[Rect]) -> Option<UnitId> {
    if !super::rules_apply(game) || bases.is_empty() {
        return None;
    }
    let probe = crate::obstacle::front_probe(bases);
    let side = game.unit(unit).side;
    game.units_on_table(side)
        .filter(|w| w.id != unit && super::any_wagon(game, w.id))
        .find(|w| {
            w.bases
                .iter()
                .any(|b| sandtable_geometry::distance::distance(b, &probe).is_ok_and(|d| d <= 1e-3))
        })
        .map(|w| w.id)
}

/// How far `bases` must move straight ahead to be entirely across wagon `wagon`.
pub fn distance_across(game: &Game, bases: &[Rect], wagon: UnitId) -> Result<f32, RuleError> {
    let frame = frame_of(bases);
    let reach = 4.0 * (frame.half.y * 2.0 + 10.0);
    let delta = frame.facing() * reach;
    let mut need = 0.0f32;
    for wb in &game.unit(wagon).bases {
        let piece = Polygon::from_rect(wb)
            .map(|pg| TerrainPiece::new(0, pg))
            .map_err(|e| RuleError::new("BFS-WAG-4", e.to_string()))?;
        for b in bases {
            let iv = piece
                .swept_intervals(b, delta)
                .map_err(|e| RuleError::new("BFS-WAG-4", e.to_string()))?;
            if let Some((_, t1)) = iv.last() {
                need = need.max(t1 * reach);
            }
        }
    }
    Ok(need + 0.01)
}

/// Does crossing `wagon` spare `unit` the Skill test: infantry crossing wagons with a Defense
/// order, by a Special Maneuver (BFS-WAG-4; a Special Maneuver itself needs the unit's Defense
/// order, BFS-MAN-1)?
pub fn free_passage(game: &Game, unit: UnitId, wagon: UnitId) -> bool {
    game.unit_profile(unit).kind == crate::profile::UnitKind::Infantry
        && game.unit(unit).morale != crate::state::MoraleLevel::Flight
        && game.unit(wagon).order == Some(OrderKind::Defense)
}
