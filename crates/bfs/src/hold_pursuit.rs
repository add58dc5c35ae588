//! Stopping a Pursuit with a command point (BFS-CC-29, BFS-CHG-28; rules revision 11): the
//! unit's own commander or the Commander-in-Chief, with the unit in his Command Range, spends
//! 1 CP and the winner stays where it is instead of pursuing (then BFS-CC-31: no order unless
//! Defense). A No Quarter unit pursues whatever is paid (BFS-SPC-20).
//!
//! Combat is resolved in one go, so the order is given beforehand: in the side's Orders or
//! Movement Phase the owner names the unit and the commander, and the CP is spent only if the
//! unit wins a combat and would pursue, the commander still having it in range and a CP left.
//! The order is given in the open.

use crate::event::Event;
use crate::ids::{CommanderId, UnitId};
use crate::profile::SpecialRule;
use crate::scenario_spec::CommanderRank;
use crate::state::{Game, UnitStatus};
use sandtable_engine::RuleError;

const RULE: &str = "BFS-CC-29";

/// May `by` stand ready to stop `unit`'s pursuit this turn?
pub fn check(game: &Game, unit: UnitId, by: CommanderId) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    if !crate::revision::succession(game.info.options.rules_revision) {
        return refuse("This battle was recorded before a pursuit could be stopped.".into());
    }
    let Some(acting) = crate::phases::orders_or_movement_side(game) else {
        return refuse(
            "A pursuit is stopped by an order given in the side's Orders or Movement Phase.".into(),
        );
    };
    let u = game.unit(unit);
    if u.side != acting || u.status != UnitStatus::OnTable {
        return refuse(format!("{} is not one of the acting side's units.", u.name));
    }
    if game.unit_profile(unit).has(SpecialRule::NoQuarter) {
        return Err(RuleError::new(
            "BFS-SPC-20",
            format!("{} gives No Quarter: no CP stops its pursuit.", u.name),
        ));
    }
    if u.flags.hold_pursuit == Some(by) {
        return refuse(format!("{} will already stop it.", game.commander(by).name));
    }
    let c = game.commander(by);
    if c.rank != CommanderRank::CommanderInChief
        && !crate::authority::commanders_who_may_order(game, unit).contains(&by)
    {
        return refuse(format!(
            "Only {}'s own commander or the Commander-in-Chief may stop its pursuit.",
            u.name
        ));
    }
    if c.side != u.side || c.status != UnitStatus::OnTable {
        return refuse(format!("{} cannot give this order.", c.name));
    }
    let d = crate::authority::distance_to_unit(game, by, unit);
    let range = crate::authority::command_range_cm(game, by);
    if d > range + sandtable_geometry::tolerance::LIMIT_EPS {
        return refuse(format!(
            "{} is {d:.1} cm from {}, beyond his {range} cm Command Range.",
            c.name, u.name
        ));
    }
    if c.cp < 1 {
        return refuse(format!("{} has no CP left.", c.name));
    }
    Ok(())
}

/// Gives the order (checked by [`check`]); the CP is spent by [`spend`] if a pursuit comes.
pub fn declare(
    game: &mut Game,
    unit: UnitId,
    by: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check(game, unit, by)?;
    game.unit_mut(unit).flags.hold_pursuit = Some(by);
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{} will stop {} from pursuing this turn, for 1 CP if it comes to that.",
            game.commander(by).name,
            game.unit(unit).name
        ),
    });
    Ok(())
}

/// At a pursuit the unit would make: the commander who stands ready stops it, spending 1 CP,
/// if he still has the unit in range and a CP left. Returns why it does not pursue.
pub fn spend(game: &mut Game, unit: UnitId) -> Option<String> {
    let by = game.unit_mut(unit).flags.hold_pursuit.take()?;
    let c = game.commander(by);
    let in_range = crate::authority::distance_to_unit(game, by, unit)
        <= crate::authority::command_range_cm(game, by) + sandtable_geometry::tolerance::LIMIT_EPS;
    if c.status != UnitStatus::OnTable || !in_range || c.cp < 1 {
        return None;
    }
    let name = c.name.clone();
    game.commander_mut(by).cp -= 1;
    Some(format!("{name} spends 1 CP to stop it (BFS-CC-29)"))
}

/// The commanders who could stand ready to stop `unit`'s pursuit now.
pub fn options(game: &Game, unit: UnitId) -> Vec<CommanderId> {
    game.commanders
        .iter()
        .filter(|c| c.side == game.unit(unit).side)
        .map(|c| c.id)
        .filter(|c| check(game, unit, *c).is_ok())
        .collect()
}
