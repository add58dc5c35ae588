//! Where the game is in the turn sequence (BFS-SEQ-2).

use crate::ids::Side;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnState {
    /// Game turn, from 1.
    pub number: u32,
    pub phase: Phase,
    /// Who holds the Initiative this turn (BFS-INI-4); `None` until decided.
    pub initiative: Option<Side>,
}

/// Phases and their steps (BFS-SEQ-2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Phase {
    /// Both commanders-in-chief bid secretly (BFS-INI-2); `bids[side]` is that side's secret.
    InitiativeBids {
        bids: [Option<u8>; 2],
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
    /// `acting` reveals and moves (BFS-MOV-2).
    Movement {
        acting: Side,
        second: bool,
    },
    Combat(CombatStage),
    Reorganization,
    GameOver,
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
            Phase::Reorganization => "Reorganization",
            Phase::GameOver => "Game over",
        }
    }
}
