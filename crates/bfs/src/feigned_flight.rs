//! Feigned Flight (BFS-SPC-11): horsemen who turn and ride off to draw the enemy on. The unit
//! counts as Light Cavalry (BFS-SPC-16: Open Order, Break Off, the full-Move withdrawal and the
//! −1 in resolution), sees all round (BFS-FOV-3), turns to face its charger after a Break Off
//! without a Skill test, and, if it did not shoot in Defender's Fire, shoots at the unit charging
//! it in Reaction Fire as a charger shoots while charging: 1 die a base, −1 in contact. That
//! shot costs no command point: the rule gives it, unlike a held volley (BFS-CBT-8).
//!
//! Not yet: a unit with Elite Cavalry too breaking off "as an Open Order unit" waits for Elite
//! Cavalry (BFS-SPC-10). Battles recorded before rules revision 9 played only its vision; the
//! Light Cavalry rules it borrows apply from the revision that brought them (6), since no
//! recorded battle fielded a unit with Feigned Flight.

use crate::ids::UnitId;
use crate::profile::SpecialRule;
use crate::state::{Game, MoraleLevel, UnitStatus};

/// Do the rules of revision 9 for Feigned Flight apply to the unit?
pub fn applies(game: &Game, unit: UnitId) -> bool {
    crate::revision::special_rules_9(game.info.options.rules_revision)
        && game.unit_profile(unit).has(SpecialRule::FeignedFlight)
}

/// The enemy units charging this one now.
pub fn chargers(game: &Game, unit: UnitId) -> Vec<UnitId> {
    let side = game.unit(unit).side;
    game.units
        .iter()
        .filter(|e| {
            e.side != side
                && e.status == UnitStatus::OnTable
                && e.charge.as_ref().is_some_and(|c| c.target == unit)
        })
        .map(|e| e.id)
        .collect()
}

/// Does the unit shoot at its charger in Reaction Fire by this rule: it did not shoot in
/// Defender's Fire, is not fleeing, and is being charged?
pub fn fires_in_reaction(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    applies(game, unit)
        && !u.flags.shot
        && !u.flags.delayed_fire
        && u.morale != MoraleLevel::Flight
        && !chargers(game, unit).is_empty()
}
