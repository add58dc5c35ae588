//! The words the rest of the crate shares: orders, morale levels, reactions to a charge. Plain
//! data with no rules in it, so that commands, events, the turn and the state can all name them
//! without depending on one another.

use crate::ids::CommanderId;
use serde::{Deserialize, Serialize};

/// Morale Level (BFS-PSY-1), best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum MoraleLevel {
    Good,
    Disorganized,
    Flight,
}

/// The orders a unit can hold (BFS-ORD-2). "No Order" is `None` where an order is optional.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OrderKind {
    Move,
    Charge,
    Defense,
}

impl OrderKind {
    pub const ALL: [OrderKind; 3] = [OrderKind::Move, OrderKind::Charge, OrderKind::Defense];
    pub fn name(self) -> &'static str {
        match self {
            OrderKind::Move => "Move",
            OrderKind::Charge => "Charge",
            OrderKind::Defense => "Defense",
        }
    }
}

/// Answers to a charge (BFS-CHG-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reaction {
    /// Receive the charge.
    Stand,
    /// Reveal a Charge order and charge the charger (BFS-CHG-21/22).
    Countercharge,
    /// A Defense-order unit pays 1 CP to hold its fire until the charger is close: it shoots in
    /// the Reaction Fire step instead of Defender's Fire (BFS-CBT-8).
    HoldFire { by: CommanderId },
    /// Light Cavalry rides away from the charger before it moves (BFS-SPC-16,
    /// [`crate::break_off`]).
    BreakOff,
    /// Musketeers of a Pike and Shot Battalion withdraw behind their pikemen, who step forward
    /// if `advance`; the charger declares again (BFS-SPC-22, [`crate::run_behind`]).
    RunBehindPikes { advance: bool },
    /// A gun crew of a Pike and Shot Battalion hides among its pikemen, leaving the gun; the
    /// charger declares again (BFS-SPC-23, [`crate::hide_crew`]).
    HideAmongPikes,
}
