//! Units that fire twice a turn under a Defense order: first in Defender's Fire, then again in
//! Shooting after Movement, with no −1 for that stage. A light or medium gun by Quick Loading
//! (BFS-ART-7), and a unit with the Countermarch rule, whose second rank steps through the first
//! (BFS-SPC-8).

use super::FireStage;
use crate::ids::UnitId;
use crate::profile::SpecialRule;
use crate::state::{Formation, Game, MoraleLevel, OrderKind};

/// May this unit fire a second volley this turn, once it has fired in Defender's Fire?
pub fn fires_twice(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    u.order == Some(OrderKind::Defense)
        && ((crate::artillery::gun_of(game.unit_profile(unit))
            .is_some_and(crate::artillery::Gun::quick_loading)
            // A manned gun may not use Quick Loading (BFS-MAN-21).
            && !game.unit_profile(unit).has(SpecialRule::Manned))
            || countermarches(game, unit)
            // A caracole's rear ranks fire after the first (BFS-SPC-4).
            || crate::caracole::fires_twice(game, unit))
}

/// Countermarch (BFS-SPC-8): at least 2 ranks (the second need not be full), not Disorganized,
/// not in a building. The second rank fires the second volley, and the first fills it up after,
/// so the same frontage fires again. Battles recorded before rules revision 8 never did.
pub(super) fn countermarches(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    if !crate::revision::special_rules_8(game.info.options.rules_revision)
        || !game.unit_profile(unit).has(SpecialRule::Countermarch)
        || crate::commanded::applies(game, unit)
        || u.morale != MoraleLevel::Good
        || u.garrison.is_some()
        // From on top of wagons, only Marksmen and Rifled Barrels serve (BFS-WAG-5).
        || !crate::wagon::cover::standing_on(game, unit).is_empty()
    {
        return false;
    }
    match u.formation {
        Formation::Close { files } => u.bases.len() > files.max(1) as usize,
        _ => false,
    }
}

/// Is this the second volley of a unit that fired the first in Defender's Fire?
pub fn second_shot(game: &Game, unit: UnitId, stage: FireStage) -> bool {
    stage == FireStage::AfterMovement
        && game.unit(unit).flags.fired_first_of_two
        && fires_twice(game, unit)
}
