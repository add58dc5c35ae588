//! Wagons (BFS-WAG, BFS-WGN): transport and ammunition wagons, and war wagons. Each transport or
//! ammunition wagon base is a unit of its own (BFS-WAG-2) with the rulebook's profile (BFS-WAG-3,
//! in the army lists); the kind is [`UnitKind::Wagon`], and an ammunition wagon carries the
//! [`SpecialRule::AmmunitionWagon`] flag, a war wagon [`SpecialRule::WarWagon`].
//!
//! What a wagon may not do is checked here; the rest lives with the rule it bends:
//! - [`assault`]: charging wagons, which lose at once, are taken or destroyed, and the
//!   attackers withdraw (BFS-WAG-6, BFS-WAG-8, BFS-WGN-4); infantry fighting from behind them
//!   (BFS-WAG-7, BFS-WGN-5);
//! - [`cover`]: infantry climbing onto wagons to shoot, Armor 4 behind them, and a unit behind
//!   friendly wagons losing its Charge order (BFS-WAG-4, BFS-WAG-5, BFS-WGN-2, BFS-WGN-3);
//! - [`crossing`]: crossing friendly wagons as an obstacle and a friend at once (BFS-WAG-4);
//! - [`supply`]: restocking ammunition from an ammunition wagon, the explosion check and the
//!   blast (BFS-WAG-10, BFS-WAG-11, BFS-AMM-5, BFS-AMM-8);
//! - [`train`]: War Wagon Trains, the tabor: one unit of war wagons with crews, fought wagon by
//!   wagon (BFS-WAG-12..20), which the rules above treat as wagons once every crew is gone.
//!
//! Already honoured elsewhere: 360° vision (BFS-FOV-3), +5 cm marching (BFS-MAR), a Movement
//! Maneuver costing the whole Move (BFS-MOV-14), no crossing of obstacles (BFS-TER-27), bogging
//! down in streams (BFS-TER-7), never Flanking Fire against them (BFS-OPT-1), a cannonball's full
//! dice (BFS-ART-4), and friendly wagons blocking sight, fire and charges like any close-order
//! unit (BFS-WAG-4).
//!
//! - [`manning`]: infantry giving a crew to its own train's abandoned war wagon (BFS-WAG-19).
//!
//! Not yet: manning enemy wagons and abandoned guns (BFS-WAG-19), and the scenario effects on
//! wagons (BFS-WAG-23), which wait for the pre-battle sequence.

pub mod assault;
pub mod cover;
pub mod crossing;
pub mod manning;
pub mod supply;
pub mod train;

use crate::command::SpecialManeuver;
use crate::ids::UnitId;
use crate::profile::{SpecialRule, UnitKind};
use crate::state::{Game, OrderKind};
use sandtable_engine::RuleError;

/// Do the wagon rules of rules revision 10 apply? Battles recorded before it had no wagon on
/// the table, and charged none.
pub fn rules_apply(game: &Game) -> bool {
    crate::revision::wagons(game.info.options.rules_revision)
}

/// Is this unit a wagon (BFS-WAG-1)?
pub fn is_wagon(game: &Game, unit: UnitId) -> bool {
    game.unit_profile(unit).kind == UnitKind::Wagon
}

/// A wagon without a crew: transport and ammunition wagons, which no Morale test touches and
/// which never fight back (BFS-WAG-1, BFS-WAG-6), and a War Wagon Train whose every crew is gone
/// (BFS-WAG-16).
pub fn crewless(game: &Game, unit: UnitId) -> bool {
    rules_apply(game)
        && is_wagon(game, unit)
        && game
            .unit(unit)
            .train
            .as_ref()
            .is_none_or(|t| t.crewed() == 0)
}

/// A wagon of any kind when the wagon rules apply: transport, ammunition, or a War Wagon Train.
pub fn any_wagon(game: &Game, unit: UnitId) -> bool {
    rules_apply(game) && is_wagon(game, unit)
}

/// Is this unit an ammunition wagon (BFS-WAG-3, BFS-WAG-10)?
pub fn is_ammunition_wagon(game: &Game, unit: UnitId) -> bool {
    is_wagon(game, unit) && game.unit_profile(unit).has(SpecialRule::AmmunitionWagon)
}

/// Wagons take any order but a Charge (BFS-WAG-2, BFS-WGN-6).
pub fn check_order(game: &Game, unit: UnitId, order: OrderKind) -> Result<(), RuleError> {
    if order == OrderKind::Charge && is_wagon(game, unit) && rules_apply(game) {
        return Err(RuleError::new(
            "BFS-WAG-2",
            format!(
                "{} are wagons: they take any order but a Charge.",
                game.unit(unit).name
            ),
        ));
    }
    Ok(())
}

/// Wagons stay in Column: no Reform, no change of order or frontage (BFS-WAG-1, BFS-WGN-1).
pub fn check_maneuver(game: &Game, unit: UnitId, m: &SpecialManeuver) -> Result<(), RuleError> {
    if !is_wagon(game, unit) || !rules_apply(game) {
        return Ok(());
    }
    let what = match m {
        SpecialManeuver::Reform { .. } => "Reform",
        SpecialManeuver::Disperse | SpecialManeuver::CloseRanks { .. } => "change order",
        SpecialManeuver::Frontage(_) => "change their frontage",
        SpecialManeuver::CrossObstacle => "cross an obstacle",
        _ => return Ok(()),
    };
    Err(RuleError::new(
        "BFS-WAG-1",
        format!(
            "{} are wagons: they move only in Column and may not {what}.",
            game.unit(unit).name
        ),
    ))
}

/// Wagons are structures: lost Strength Points never come back (BFS-WGN-7).
pub fn check_reorganize(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    if is_wagon(game, unit) && rules_apply(game) {
        return Err(RuleError::new(
            "BFS-WGN-7",
            format!(
                "{} are wagons: a wagon's lost Strength Points are never restored.",
                game.unit(unit).name
            ),
        ));
    }
    Ok(())
}
