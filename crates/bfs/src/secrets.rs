//! What By Fire and Sword keeps secret in remote play (`docs/remote.md`): the Initiative bids
//! (BFS-INI-2), face-down orders (BFS-ORD-3), group orders (BFS-OPT-3) and Instructions
//! (BFS-ORD-11). Each is named by a key; the events that turn it up name the same key. The
//! stand-in is the same command with a fixed content the other seat's machine executes instead.

use crate::command::Command;
use crate::event::Event;
use crate::ids::Side;
use crate::phases::{check, orders};
use crate::state::Game;
use crate::vocab::OrderKind;
use sandtable_engine::Secret;

fn order_key(unit: crate::ids::UnitId) -> String {
    format!("order:u{}", unit.0)
}

fn instruction_key(commander: crate::ids::CommanderId) -> String {
    format!("instruction:c{}", commander.0)
}

fn bid_key(side: Side) -> String {
    format!("bid:{}", side.0)
}

/// The secret `cmd` keeps, with its stand-in: a bid of 0; the first order kind, in the book's
/// order, that is legal and as face down as the real one.
pub fn secret(game: &Game, cmd: &Command) -> Option<Secret<Command>> {
    // A command naming no such unit or commander keeps nothing (and is refused as illegal).
    if crate::phases::names_exist(game, cmd).is_err() {
        return None;
    }
    match cmd {
        Command::Bid { side, .. } => Some(Secret {
            keys: vec![bid_key(*side)],
            stand_in: Command::Bid { side: *side, cp: 0 },
        }),
        Command::IssueOrder { unit, order, by } => {
            let face_up = orders::independent(game, *unit)
                || orders::take_and_hold(game, *unit, *order)
                || crate::turn_one::prisoner_talks(game, game.unit(*unit).side);
            if face_up {
                return None;
            }
            let stand_in = OrderKind::ALL
                .into_iter()
                .filter(|k| !orders::take_and_hold(game, *unit, *k))
                .map(|k| Command::IssueOrder {
                    unit: *unit,
                    order: k,
                    by: *by,
                })
                .find(|c| check(game, c).is_ok())?;
            Some(Secret {
                keys: vec![order_key(*unit)],
                stand_in,
            })
        }
        // Orders given face up keep nothing secret (BFS-SCN-38).
        Command::GroupOrder { units, .. }
            if units
                .first()
                .is_some_and(|u| crate::turn_one::prisoner_talks(game, game.unit(*u).side)) =>
        {
            None
        }
        Command::GroupOrder { units, by, .. } => {
            let stand_in = OrderKind::ALL
                .into_iter()
                .map(|k| Command::GroupOrder {
                    units: units.clone(),
                    order: k,
                    by: *by,
                })
                .find(|c| check(game, c).is_ok())?;
            Some(Secret {
                keys: units.iter().map(|u| order_key(*u)).collect(),
                stand_in,
            })
        }
        Command::IssueInstruction { commander, by, .. } => {
            let stand_in = OrderKind::ALL
                .into_iter()
                .map(|k| Command::IssueInstruction {
                    commander: *commander,
                    instruction: k,
                    by: *by,
                })
                .find(|c| check(game, c).is_ok())?;
            Some(Secret {
                keys: vec![instruction_key(*commander)],
                stand_in,
            })
        }
        _ => None,
    }
}

/// The secrets an event turns up: both bids (BFS-INI-2); a side's face-down orders and new
/// Instructions when its Movement Phase begins (BFS-MOV-2, BFS-ORD-12); a charged unit's order
/// when its reaction shows it (BFS-CHG-21, BFS-ORD-7).
pub fn opened_by(before: &Game, event: &Event) -> Vec<String> {
    match event {
        Event::BidsRevealed { .. } => Side::BOTH.into_iter().map(bid_key).collect(),
        Event::OrdersRevealed { side, .. } => {
            let orders = before
                .units
                .iter()
                .filter(|u| u.side == *side && u.pending_order.is_some())
                .map(|u| order_key(u.id));
            let instructions = before
                .commanders
                .iter()
                .filter(|c| c.side == *side && c.pending_instruction.is_some())
                .map(|c| instruction_key(c.id));
            orders.chain(instructions).collect()
        }
        // Only a reaction that shows the order turns it up (a countercharge, holding fire,
        // BFS-CHG-21, BFS-ORD-7); standing or breaking off keeps it face down.
        Event::OrderChanged { unit, rule, .. } if rule == "BFS-ORD-7" => vec![order_key(*unit)],
        _ => Vec::new(),
    }
}
