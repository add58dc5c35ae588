//! Where the game is in the turn sequence (BFS-SEQ-2).

use crate::ids::{Side, UnitId};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnState {
    /// Game turn, from 1.
    pub number: u32,
    pub phase: Phase,
    /// Who holds the Initiative this turn (BFS-INI-4); `None` until decided.
    pub initiative: Option<Side>,
}

/// Phases and their steps (BFS-SEQ-2). The Reorganization Phase needs no decision, so the game
/// passes through it inside the last Combat step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Phase {
    /// Both commanders-in-chief bid secretly (BFS-INI-2); `bids[side]` is that side's secret.
    InitiativeBids {
        bids: [Bid; 2],
    },
    /// The roll's winner keeps or hands over the Initiative (BFS-INI-4).
    InitiativeChoice {
        winner: Side,
    },
    /// `acting` issues orders, rallies, reorganises, transfers (BFS-ORD-1).
    Orders {
        acting: Side,
        second: bool,
    },
    /// `acting` reveals and moves (BFS-MOV-2); `charge` is a declared charge awaiting reactions.
    Movement {
        acting: Side,
        second: bool,
        charge: Option<PendingCharge>,
    },
    Combat(CombatStage),
    GameOver,
}

/// A side's secret Initiative bid (BFS-INI-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bid {
    Waiting,
    Placed(u8),
    /// Placed, amount hidden from this viewer.
    Hidden,
}

/// A charge declared and waiting for the charged side's reactions (BFS-CHG-8, BFS-CHG-12).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingCharge {
    pub charger: UnitId,
    pub target: UnitId,
    /// Units that may react, in the order they are asked.
    pub reactors: Vec<UnitId>,
    /// Reactions given so far, in `reactors` order.
    pub reactions: Vec<crate::vocab::Reaction>,
    /// A charge on a lone commander, waiting for his answer (BFS-CDR-8): `target` is then the
    /// charger itself, and there are no reactors.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander: Option<crate::ids::CommanderId>,
}

impl PendingCharge {
    /// The unit asked to react now, if any is still to answer.
    pub fn next_reactor(&self) -> Option<UnitId> {
        self.reactors.get(self.reactions.len()).copied()
    }

    /// The unit whose answer is awaited: the next reactor, else the target.
    pub fn answering(&self) -> UnitId {
        self.next_reactor().unwrap_or(self.target)
    }
}

/// Combat Phase stages (BFS-CBT-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CombatStage {
    DefendersFire,
    CloseCombat,
    ShootingAfterMovement,
}

impl Phase {
    pub fn title(&self) -> &'static str {
        match self {
            Phase::InitiativeBids { .. } | Phase::InitiativeChoice { .. } => "Initiative",
            Phase::Orders { .. } => "Orders",
            Phase::Movement { .. } => "Movement",
            Phase::Combat(_) => "Combat",
            Phase::GameOver => "Game over",
        }
    }
}
