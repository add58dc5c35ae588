//! Standing behind wagons (BFS-WAG-4, BFS-WAG-5, BFS-WGN-2, BFS-WGN-3): friendly wagons block
//! sight, fire and charges like any close-order unit, so a unit behind them cannot charge and
//! loses its Charge order; infantry touching them with a Defense order, the wagons holding one
//! too, climbs onto them and shoots with its first rank only, and has Armor 4 at least.

use crate::dice::Modifier;
use crate::geo::frame_of;
use crate::ids::UnitId;
use crate::profile::UnitKind;
use crate::state::{Game, OrderKind, UnitStatus};

/// A base this close to a wagon touches it.
pub const TOUCH_CM: f32 = 0.1;

/// The Armor of infantry defending behind wagons, at least (BFS-WGN-3, BFS-WAG-5).
pub const ARMOR_BEHIND_WAGONS: i32 = 4;

/// Does any base of `a` touch any base of `b`?
pub fn touching(game: &Game, a: UnitId, b: UnitId) -> bool {
    sandtable_geometry::distance::set_distance(&game.unit(a).bases, &game.unit(b).bases)
        .is_ok_and(|d| d <= TOUCH_CM)
}

/// The friendly wagons (of any kind) on the table that `unit` touches, in id order.
pub fn wagons_touched(game: &Game, unit: UnitId) -> Vec<UnitId> {
    let side = game.unit(unit).side;
    game.units_on_table(side)
        .filter(|w| w.id != unit && super::any_wagon(game, w.id))
        .filter(|w| touching(game, unit, w.id))
        .map(|w| w.id)
        .collect()
}

/// The friendly wagon `unit` stands behind: one it touches that lies ahead of its front edge
/// (BFS-WAG-4). Such a unit cannot see past it to charge.
pub fn behind_friendly(game: &Game, unit: UnitId) -> Option<UnitId> {
    if super::is_wagon(game, unit) {
        return None;
    }
    let frame = frame_of(&game.unit(unit).bases);
    wagons_touched(game, unit).into_iter().find(|w| {
        let centre = frame_of(&game.unit(*w).bases).center();
        frame.pose.to_local(centre).y > frame.half.y - TOUCH_CM
    })
}

/// Infantry with a Defense order, in good order and not garrisoning a building: the only
/// troops that defend wagons (BFS-WGN-3, BFS-WGN-5).
pub fn defends_wagons(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    u.status == UnitStatus::OnTable
        && game.unit_profile(unit).kind == UnitKind::Infantry
        && u.order == Some(OrderKind::Defense)
        && u.morale != crate::state::MoraleLevel::Flight
        && u.garrison.is_none()
}

/// The wagons infantry stands on to shoot: friendly wagons it touches, when it and they both
/// have a Defense order (BFS-WGN-3, BFS-WAG-5). They do not block its fire.
pub fn standing_on(game: &Game, unit: UnitId) -> Vec<UnitId> {
    if !super::rules_apply(game) || !defends_wagons(game, unit) {
        return Vec::new();
    }
    wagons_touched(game, unit)
        .into_iter()
        .filter(|w| game.unit(*w).order == Some(OrderKind::Defense))
        .collect()
}

/// Infantry with a Defense order behind wagons has Armor 4 at least (BFS-WGN-3, BFS-WAG-5).
pub fn armor_raise(game: &Game, unit: UnitId) -> Option<Modifier> {
    if !super::rules_apply(game)
        || !defends_wagons(game, unit)
        || wagons_touched(game, unit).is_empty()
    {
        return None;
    }
    let armor = game.unit_profile(unit).armor as i32;
    (armor < ARMOR_BEHIND_WAGONS).then(|| {
        Modifier::new(
            "BFS-WGN-3",
            format!("defending behind wagons: Armor {ARMOR_BEHIND_WAGONS}"),
            ARMOR_BEHIND_WAGONS - armor,
        )
    })
}

/// Do some base of `a` and some base of `b` touch along an edge, not only corner to corner? A
/// base meeting a wagon at a corner is not "in contact with the same wagon" (BFS-WGN-5).
pub fn edge_touching(a: &[sandtable_geometry::Rect], b: &[sandtable_geometry::Rect]) -> bool {
    a.iter().any(|x| {
        b.iter().any(|y| {
            sandtable_geometry::contact::contact(x, y)
                .is_ok_and(|c| c.kind == sandtable_geometry::contact::ContactKind::Edge)
        })
    })
}
