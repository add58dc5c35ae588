//! Commanders' authority and reach: who may order whom (BFS-CMD-2), command ranges (BFS-CMD-3),
//! and what an order costs at a distance (BFS-CMD-4, GEO-15).

use crate::ids::{CommanderId, UnitId};
use crate::scenario_spec::{CommanderRank, GameLevel};
use crate::state::{Game, UnitStatus};
use sandtable_geometry::distance;

/// Command range of a commander in cm (BFS-CMD-3): Senior 40 (or 30 by option, AMB-8), Junior 20.
pub fn command_range_cm(game: &Game, c: CommanderId) -> f32 {
    match game.commander(c).rank {
        CommanderRank::CommanderInChief | CommanderRank::Senior => {
            game.info.options.senior_command_range_cm
        }
        _ => 20.0,
    }
}

/// The step by which costs and transfer losses grow beyond the range (BFS-CMD-4, BFS-CMD-7):
/// 20 cm for Junior commanders, the Senior range for Senior ones.
pub fn cost_step_cm(game: &Game, c: CommanderId) -> f32 {
    command_range_cm(game, c)
}

pub fn is_senior(rank: CommanderRank) -> bool {
    matches!(
        rank,
        CommanderRank::CommanderInChief | CommanderRank::Senior
    )
}

/// Commanders allowed to order `unit` (BFS-CMD-2): Seniors order anyone; Junior commanders only
/// their own regiment, except at Skirmish level where any commander orders any unit; a unit
/// in no regiment only by a Senior. An attached commander orders only his own unit (BFS-CDR-13).
pub fn commanders_who_may_order(game: &Game, unit: UnitId) -> Vec<CommanderId> {
    let u = game.unit(unit);
    game.commanders
        .iter()
        .filter(|c| c.side == u.side && c.status == UnitStatus::OnTable && !c.fleeing)
        .filter(|c| c.attached_to.is_none() || c.attached_to == Some(unit))
        .filter(|c| {
            is_senior(c.rank)
                || game.info.level == GameLevel::Skirmish
                || (u.regiment.is_some() && c.regiment == u.regiment)
        })
        .map(|c| c.id)
        .collect()
}

/// Is the unit out of command: no commander who may order it (BFS-CMD-2) is within his command
/// range of it (BFS-CMD-3), so any order to it costs more than 1 CP (BFS-CMD-4)? A unit in
/// Flight takes no orders and is never called out of command.
pub fn out_of_command(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    if u.status != UnitStatus::OnTable || u.morale == crate::state::MoraleLevel::Flight {
        return false;
    }
    commanders_who_may_order(game, unit).iter().all(|&c| {
        distance_to_unit(game, c, unit)
            > command_range_cm(game, c) + sandtable_geometry::tolerance::LIMIT_EPS
    })
}

/// Distance from a commander's base to the nearest base of a unit (GEO-15, AMB-9).
pub fn distance_to_unit(game: &Game, c: CommanderId, unit: UnitId) -> f32 {
    let base = game.commander(c).base;
    distance::set_distance(std::slice::from_ref(&base), &game.unit(unit).bases)
        .unwrap_or(f32::INFINITY)
}

/// What an order from `c` to `unit` costs and why (BFS-CMD-4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OrderCost {
    pub cp: u8,
    pub distance_cm: f32,
    pub range_cm: f32,
    pub step_cm: f32,
    /// The commander is attached to this unit: orders to it are free (BFS-CDR-13), unless
    /// it is Insubordinate.
    pub attached: bool,
    /// The unit is Insubordinate: one CP more, whoever gives the order (BFS-SPC-15).
    pub insubordinate: bool,
}

/// `cost = 1 + ceil((d − R) / S)` beyond the range, 1 within it, 0 for the unit a commander is
/// attached to (BFS-CMD-4, BFS-CDR-13); one more for an Insubordinate unit, attached commander
/// included (BFS-SPC-15: source l.5148-5156, 5832-5834).
pub fn order_cost(game: &Game, c: CommanderId, unit: UnitId) -> OrderCost {
    let range = command_range_cm(game, c);
    let step = cost_step_cm(game, c);
    let d = distance_to_unit(game, c, unit);
    let attached = game.commander(c).attached_to == Some(unit);
    let insubordinate = game
        .unit_profile(unit)
        .has(crate::profile::SpecialRule::Insubordinate);
    let base = if attached {
        0
    } else {
        1 + steps_beyond(d, range, step)
    };
    // A Regimental commander with no Instruction pays 1 CP more (BFS-ORD-13).
    let no_instruction = crate::instructions::no_instruction_surcharge(game, c);
    OrderCost {
        cp: base
            .saturating_add(u8::from(insubordinate))
            .saturating_add(no_instruction),
        distance_cm: d,
        range_cm: range,
        step_cm: step,
        attached,
        insubordinate,
    }
}

/// Whole or part steps of `step` by which `d` exceeds `range` (BFS-CMD-4, BFS-CMD-7), as CP: the
/// geometry's count (`command::steps_beyond`), capped for a `u8`; a bad distance or step counts
/// none.
pub fn steps_beyond(d: f32, range: f32, step: f32) -> u8 {
    sandtable_geometry::command::steps_beyond(d, range, step).map_or(0, |n| n.min(250) as u8)
}

/// A surcharge of 1 CP that `by` pays when his order is turned up (contrary orders, BFS-ORD-12; a
/// coward's Charge, BFS-SCN-30): paid if he has it, with `paid` as the reason; otherwise the
/// `refused` ruling, and false (the caller takes the order away).
pub fn pay_at_turn_up(
    game: &mut Game,
    by: CommanderId,
    rule: &str,
    paid: String,
    refused: String,
    events: &mut Vec<crate::event::Event>,
) -> bool {
    if game.commander(by).cp >= 1 {
        game.commander_mut(by).cp -= 1;
        events.push(crate::event::Event::CpSpent {
            commander: by,
            cp: 1,
            rule: rule.into(),
            reason: paid,
        });
        true
    } else {
        events.push(crate::event::Event::Ruling {
            rule: rule.into(),
            text: refused,
        });
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfs_cmd_4_cost_grows_per_part_step() {
        // Junior: range 20, step 20. 31 cm is 11 beyond: one part step, so 1 + 1 = 2 CP.
        assert_eq!(1 + steps_beyond(31.0, 20.0, 20.0), 2);
        assert_eq!(1 + steps_beyond(20.0, 20.0, 20.0), 1);
        assert_eq!(1 + steps_beyond(40.0, 20.0, 20.0), 2);
        assert_eq!(1 + steps_beyond(40.1, 20.0, 20.0), 3);
    }

    #[test]
    fn bfs_cmd_7_transfer_losses_example() {
        // A General (R = S = 40) sends 4 CP: within range 4 arrive; at 60 cm 3; at 90 cm 2.
        let received = |d: f32| 4u8.saturating_sub(steps_beyond(d, 40.0, 40.0));
        assert_eq!(received(30.0), 4);
        assert_eq!(received(60.0), 3);
        assert_eq!(received(90.0), 2);
    }
}
