//! Instructions at Division level (BFS-ORD-11..14): Senior commanders order Regimental
//! commanders as those order their units. An Instruction is an order marker (Move, Charge or
//! Defense) beside a Regimental commander's base, given face down by the Commander-in-Chief or
//! another Senior commander for what an order would cost at that distance, turned up with the
//! side's orders, and in force until replaced. The scenario may give each Regimental commander
//! his first one (`instruction` on the commander).
//!
//! - An order is in line with the Instruction when it is of the same kind (the digest's
//!   proposal). The regiment's starting orders must be (BFS-ORD-11).
//! - An order is paid for when issued as if it were in line (bluffing); once the side's orders
//!   are turned up, after its Instructions, each new order contrary to its regiment's Instruction
//!   costs the commander who gave it 1 CP more. If he cannot pay, the order is taken away and the
//!   unit keeps the order it had (BFS-ORD-12). The book lets the opponent choose which orders go;
//!   Sandtable takes the last units of the regiment's list, so the game asks nobody in the middle
//!   of turning markers up.
//! - A Regimental commander with no Instruction pays 1 CP more for every order (BFS-ORD-13);
//!   a marker placed this turn counts.
//!
//! Instructions are a side's secret until turned up, like its face-down orders ([`crate::view`]).
//! Battles recorded before rules revision 9 were played without them.

use crate::authority;
use crate::event::Event;
use crate::ids::{CommanderId, Side, UnitId};
use crate::scenario_spec::{CommanderRank, GameLevel};
use crate::state::{Game, OrderKind, PendingOrder, UnitStatus};
use sandtable_engine::RuleError;

/// Do Instructions apply in this battle: Division level, rules revision 9 or later?
pub fn apply(game: &Game) -> bool {
    game.info.level == GameLevel::Division
        && crate::revision::special_rules_9(game.info.options.rules_revision)
}

/// The Regimental commander of a unit's regiment, on the table.
pub fn regimental_commander(game: &Game, unit: UnitId) -> Option<CommanderId> {
    let r = game.unit(unit).regiment?;
    game.commanders
        .iter()
        .find(|c| {
            c.regiment == Some(r)
                && c.rank == CommanderRank::Regimental
                && c.status == UnitStatus::OnTable
        })
        .map(|c| c.id)
}

/// The Instruction a commander's orders answer to now: the one he was given this turn if the
/// viewer may see it, else the one in force.
pub fn instruction_of(game: &Game, c: CommanderId) -> Option<OrderKind> {
    let cm = game.commander(c);
    cm.pending_instruction
        .and_then(|p| p.kind)
        .or(cm.instruction)
}

/// The Instruction a unit's orders answer to (its Regimental commander's).
pub fn instruction_for(game: &Game, unit: UnitId) -> Option<OrderKind> {
    if !apply(game) {
        return None;
    }
    instruction_of(game, regimental_commander(game, unit)?)
}

/// Would this order be contrary to the unit's regiment's Instruction (BFS-ORD-12)?
pub fn contrary(game: &Game, unit: UnitId, order: OrderKind) -> bool {
    instruction_for(game, unit).is_some_and(|i| i != order)
}

/// The 1 CP more a Regimental commander with no Instruction pays for an order (BFS-ORD-13).
pub fn no_instruction_surcharge(game: &Game, by: CommanderId) -> u8 {
    let c = game.commander(by);
    u8::from(
        apply(game)
            && c.rank == CommanderRank::Regimental
            && c.instruction.is_none()
            && c.pending_instruction.is_none(),
    )
}

/// Starting orders must match the regiment's Instruction (BFS-ORD-11).
pub fn check_starting_order(game: &Game, unit: UnitId, order: OrderKind) -> Result<(), RuleError> {
    if crate::phases::orders::orders_are_free(game)
        && let Some(i) = instruction_for(game, unit)
        && i != order
    {
        return Err(RuleError::new(
            "BFS-ORD-11",
            format!(
                "{}'s starting order must match its regiment's Instruction, {}.",
                game.unit(unit).name,
                i.name()
            ),
        ));
    }
    Ok(())
}

/// What an Instruction from `by` to `to` costs: an order's cost at the distance between their
/// bases (BFS-ORD-11, BFS-CMD-4).
pub fn cost(game: &Game, by: CommanderId, to: CommanderId) -> (u8, f32) {
    let d =
        sandtable_geometry::distance::distance(&game.commander(by).base, &game.commander(to).base)
            .unwrap_or(f32::INFINITY);
    let range = authority::command_range_cm(game, by);
    let step = authority::cost_step_cm(game, by);
    (1 + authority::steps_beyond(d, range, step), d)
}

/// May `by` give `to` this Instruction now? Returns its cost.
pub fn check(
    game: &Game,
    to: CommanderId,
    instruction: OrderKind,
    by: CommanderId,
) -> Result<u8, RuleError> {
    let refuse = |why: String| Err(RuleError::new("BFS-ORD-11", why));
    if !apply(game) {
        return refuse("Instructions are given at Division level only.".into());
    }
    let acting = crate::phases::orders::acting_side(game, "BFS-ORD-11")?;
    let (t, b) = (game.commander(to), game.commander(by));
    if t.side != acting || b.side != acting {
        return refuse("Both commanders must be of the side giving orders.".into());
    }
    if t.rank != CommanderRank::Regimental {
        return refuse(format!(
            "{} is not a Regimental commander: only they take Instructions.",
            t.name
        ));
    }
    if !authority::is_senior(b.rank) {
        return refuse(format!(
            "{} is not a Senior commander: only the Commander-in-Chief and Senior commanders give Instructions.",
            b.name
        ));
    }
    for c in [t, b] {
        if c.status != UnitStatus::OnTable || c.fleeing {
            return refuse(format!("{} is not on the table in command.", c.name));
        }
    }
    if t.instruction == Some(instruction) && t.pending_instruction.is_none() {
        return refuse(format!(
            "{} already holds a {} Instruction.",
            t.name,
            instruction.name()
        ));
    }
    if t.pending_instruction.is_some() {
        return refuse(format!(
            "{} has a new Instruction this turn (undo to change it).",
            t.name
        ));
    }
    let (cp, d) = cost(game, by, to);
    let cp = if crate::phases::orders::orders_are_free(game) {
        0
    } else {
        cp
    };
    if cp > b.cp {
        return refuse(format!(
            "This Instruction costs {cp} CP ({d:.1} cm from {}) and {} has {}.",
            b.name, b.name, b.cp
        ));
    }
    Ok(cp)
}

/// Gives the Instruction, face down.
pub fn give(
    game: &mut Game,
    to: CommanderId,
    instruction: OrderKind,
    by: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let cp = check(game, to, instruction, by)?;
    game.commander_mut(by).cp -= cp;
    game.commander_mut(to).pending_instruction = Some(PendingOrder {
        kind: Some(instruction),
        issued_by: Some(by),
        face_up: false,
    });
    events.push(Event::InstructionIssued {
        side: game.commander(to).side,
        commander: to,
        by,
        instruction: Some(instruction),
        cp,
    });
    Ok(())
}

/// Turns the side's new Instructions up (before its orders, BFS-ORD-12).
pub fn reveal(game: &mut Game, side: Side, events: &mut Vec<Event>) {
    let ids: Vec<CommanderId> = game
        .commanders
        .iter()
        .filter(|c| c.side == side && c.pending_instruction.is_some())
        .map(|c| c.id)
        .collect();
    for c in ids {
        let cm = game.commander_mut(c);
        let Some(kind) = cm.pending_instruction.take().and_then(|p| p.kind) else {
            continue;
        };
        cm.instruction = Some(kind);
        let name = cm.name.clone();
        events.push(Event::Ruling {
            rule: "BFS-ORD-11".into(),
            text: format!("{name}'s new Instruction is turned up: {}.", kind.name()),
        });
    }
}

/// Which of the side's new orders (unit, order, issuer) stand once contrary orders are paid for:
/// each contrary one costs its issuer 1 CP; those he cannot pay are taken away (BFS-ORD-12).
/// Returns the units whose new orders are taken away.
pub fn pay_for_contrary(
    game: &mut Game,
    orders: &[(UnitId, OrderKind, Option<CommanderId>)],
    events: &mut Vec<Event>,
) -> Vec<UnitId> {
    let mut taken_away = Vec::new();
    if !apply(game) {
        return taken_away;
    }
    for &(unit, order, issuer) in orders {
        let Some(instruction) = instruction_for(game, unit).filter(|i| *i != order) else {
            continue;
        };
        let Some(by) = issuer else { continue };
        let paid = format!(
            "{}'s {} order is contrary to its regiment's Instruction, {}",
            game.unit(unit).name,
            order.name(),
            instruction.name()
        );
        let refused = format!(
            "{} cannot pay 1 CP for {}'s {} order, contrary to the Instruction {}: the order is taken away and the unit keeps the one it had.",
            game.commander(by).name,
            game.unit(unit).name,
            order.name(),
            instruction.name()
        );
        if !crate::authority::pay_at_turn_up(game, by, "BFS-ORD-12", paid, refused, events) {
            taken_away.push(unit);
        }
    }
    taken_away
}
