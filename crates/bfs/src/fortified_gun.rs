//! Fortified bases for medium artillery (BFS-ART-19; rules revision 11). A scenario digs a
//! medium gun in where it deploys (`fortified: true`; at Division level the book lets the
//! defending player do it for free with the field fortifications, a step of the pre-battle
//! sequence, issue 16). While the gun stands on its fortified base:
//!
//! - its crew's Armor is raised to 6 against shooting, and shooters take a further −1;
//! - with a Defense order it fights as infantry defending an obstacle (the to-hit and Combat
//!   Resolution modifiers) against enemies in front of it or at its sides, never its rear;
//! - it cannot pivot (no turn or change of position in place).
//!
//! A gun that moves off its fortified base loses all of this; it regains it only by standing on
//! the very spot again (Sandtable has no move that puts it back exactly: not yet).

use crate::ids::UnitId;
use crate::state::{Game, OrderKind};
use sandtable_geometry::ZoneScheme;
use sandtable_geometry::zones::{Zone, zone_shares};

const RULE: &str = "BFS-ART-19";
/// The crew's Armor on a fortified base (BFS-ART-19).
pub const ARMOR: i32 = 6;

/// Does the gun stand on its fortified base now?
pub fn dug_in(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    crate::revision::succession(game.info.options.rules_revision)
        && u.emplacement.is_some_and(|e| {
            u.bases.first().is_some_and(|b| {
                b.center().distance(e.center()) < 0.05 && (b.pose.angle - e.pose.angle).abs() < 1e-3
            })
        })
}

/// A gun on its fortified base may leave it, but not turn where it stands.
pub fn check_no_pivot(
    game: &Game,
    unit: UnitId,
    after: &[sandtable_geometry::Rect],
) -> Result<(), sandtable_engine::RuleError> {
    let (Some(e), Some(b)) = (game.unit(unit).emplacement, after.first()) else {
        return Ok(());
    };
    if dug_in(game, unit)
        && b.center().distance(e.center()) < 0.05
        && (b.pose.angle - e.pose.angle).abs() >= 1e-3
    {
        return Err(sandtable_engine::RuleError::new(
            RULE,
            format!(
                "{} stands on its fortified base: it cannot pivot there.",
                game.unit(unit).name
            ),
        ));
    }
    Ok(())
}

/// The crew's Armor raised to 6.
pub fn armor_raise(game: &Game, unit: UnitId) -> Option<crate::dice::Modifier> {
    let base = game.unit_profile(unit).armor as i32;
    (dug_in(game, unit) && base < ARMOR).then(|| {
        crate::dice::Modifier::new(RULE, "a gun on its fortified base: Armor 6", ARMOR - base)
    })
}

/// The further −1 to hit a gun on its fortified base.
pub fn shooting_penalty(game: &Game, unit: UnitId) -> Option<crate::dice::Modifier> {
    dug_in(game, unit)
        .then(|| crate::dice::Modifier::new(RULE, "target a gun on its fortified base", -1))
}

/// Does the gun defend its fortification against `enemy` as infantry defends an obstacle: on its
/// base with a Defense order, the enemy not in its rear?
pub fn defends_against(game: &Game, unit: UnitId, enemy: UnitId) -> bool {
    if !dug_in(game, unit) || game.unit(unit).order != Some(OrderKind::Defense) {
        return false;
    }
    let frame = crate::geo::unit_frame(game.unit(unit));
    zone_shares(&frame, &game.unit(enemy).bases, ZoneScheme::default())
        .is_ok_and(|s| s.majority() != Some(Zone::Rear))
}
