//! Hail of arrows (BFS-OPT-2, an optional rule: the scenario's option `hail_of_arrows`). A unit
//! with bows and a Defense order declares it instead of firing in Defender's Fire: it may not
//! Break Off this turn, and it shoots in Shooting after Movement with one die more a base.
//! Under the Ammunition rules the volley spends 2 units, or its passed ammunition test is
//! rolled again ([`crate::ammunition`]).
//!
//! The book has the hail declared "in Defender's Fire Stage"; the owner declares it in his own
//! Movement Phase, the last moment he acts before that stage (as a gun's load is chosen,
//! BFS-ART-3). Bows take no −1 for Shooting after Movement (BFS-WPN-3), so the delay costs
//! the volley nothing but the moment.

use super::FireStage;
use crate::dice::DiceChange;
use crate::event::Event;
use crate::ids::UnitId;
use crate::state::{Game, OrderKind};
use crate::weapons::WeaponClass;
use sandtable_engine::RuleError;

/// May the owner declare a hail of arrows for this unit now?
pub fn check(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new("BFS-OPT-2", why));
    let u = game.unit(unit);
    if !game.info.options.hail_of_arrows {
        return refuse("The battle is played without the optional rule Hail of arrows.".into());
    }
    crate::phases::movement::acting_unit(game, unit)?;
    let p = game.unit_profile(unit);
    if !p
        .ranged
        .is_some_and(|w| w.stats(p.is_mounted()).class == WeaponClass::Bow)
    {
        return refuse(format!("{} has no bows.", u.name));
    }
    if u.order != Some(OrderKind::Defense) {
        return refuse(format!(
            "{} needs a Defense order for a hail of arrows.",
            u.name
        ));
    }
    if u.flags.hail_of_arrows {
        return refuse(format!("{} has declared its hail of arrows.", u.name));
    }
    if u.flags.delayed_fire || u.flags.broke_off || u.flags.special_maneuvers >= 2 {
        return refuse(format!(
            "{} cannot loose a hail this turn (it holds its fire for Reaction Fire, has broken off or made two Special Maneuvers).",
            u.name
        ));
    }
    Ok(())
}

/// Declares the hail of arrows.
pub fn declare(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check(game, unit)?;
    game.unit_mut(unit).flags.hail_of_arrows = true;
    events.push(Event::Ruling {
        rule: "BFS-OPT-2".into(),
        text: format!(
            "{} will loose a hail of arrows in Shooting after Movement, one die more a base; it holds its Defender's Fire and may not Break Off this turn.",
            game.unit(unit).name
        ),
    });
    Ok(())
}

/// Is this the stage its delayed hail of arrows is loosed in: Shooting after Movement, after a
/// declaration, with at most one Special Maneuver made (BFS-MAN-5)?
pub fn delayed_to_now(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    u.flags.hail_of_arrows && u.flags.special_maneuvers < 2
}

/// One die more for each base shooting the hail.
pub(super) fn dice(
    game: &Game,
    shooter: UnitId,
    stage: FireStage,
    bases: usize,
) -> Vec<DiceChange> {
    if stage != FireStage::AfterMovement || !delayed_to_now(game, shooter) {
        return Vec::new();
    }
    (0..bases)
        .map(|base| DiceChange {
            rule: "BFS-OPT-2".into(),
            reason: "hail of arrows: one die more a base".into(),
            delta: 1,
            base,
        })
        .collect()
}
