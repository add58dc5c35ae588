//! What a player (or the computer) may ask of the rules. Positions are table centimetres.

use crate::state::{Defence, LeaderId, UnitId};
use crate::vocab::Formation;
use sandtable_geometry::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// NQ-SEQ-2: the deciding seat's secret bid of turn points.
    Bid { points: u32 },
    /// NQ-SEQ-2: the higher bidder is A (true) or D.
    ChooseSide { be_a: bool },
    /// NQ-MOV-*: one action's move of the unit's front centre in a straight line, ending facing
    /// `bearing` (only columns, skirmishers and limbered guns may turn as they move; G2).
    Move {
        unit: UnitId,
        to: Vec2,
        bearing: f32,
    },
    /// G2: one action.
    Formation { unit: UnitId, to: Formation },
    /// G2: one action, pivoting about the centre.
    Face { unit: UnitId, bearing: f32 },
    /// NQ-FIRE-1 (muskets) or NQ-ART-2 (canister), for one or two actions.
    Fire {
        unit: UnitId,
        target: UnitId,
        actions: u8,
    },
    /// NQ-ART-3: solid shot at a point of aim, for one or two actions (NQ-ART-8).
    SolidShot {
        unit: UnitId,
        aim: Vec2,
        actions: u8,
    },
    /// NQ-ACT-2, NQ-CA-1: a one-action charge into contact.
    Charge { unit: UnitId, target: UnitId },
    /// G8, G8b, NQ-MOR-3: an action spent standing to reform.
    Reform { unit: UnitId },
    /// NQ-SEQ-3: activate the unit with a stand marker, keeping its actions.
    Stand { unit: UnitId },
    /// End the activation of the unit being activated; actions left stay for defence.
    FinishUnit,
    /// NQ-SEQ-1 step 7: A declares itself finished (after at least half its units).
    EndActivations,
    /// NQ-MOV-5: step 8.
    MoveLeader { leader: LeaderId, to: Vec2 },
    /// Step 8: this side's leaders are done.
    EndLeaders,
    /// NQ-CA-1 step 4 / NQ-CA-6 step 4: the defender's defence action.
    Defend { choice: Defence },
    /// NQ-CA-1 step 5: a charger that failed its check retreats (false) or halts 3" short.
    FallBack { halt: bool },
}

impl Command {
    /// The units and leaders the command names, for checking that they exist before any rule
    /// looks them up (a save is untrusted input).
    pub fn names(&self) -> (Vec<UnitId>, Option<LeaderId>) {
        match self {
            Command::Move { unit, .. }
            | Command::Formation { unit, .. }
            | Command::Face { unit, .. }
            | Command::SolidShot { unit, .. }
            | Command::Reform { unit }
            | Command::Stand { unit } => (vec![*unit], None),
            Command::Fire { unit, target, .. } | Command::Charge { unit, target } => {
                (vec![*unit, *target], None)
            }
            Command::MoveLeader { leader, .. } => (vec![], Some(*leader)),
            Command::Bid { .. }
            | Command::ChooseSide { .. }
            | Command::FinishUnit
            | Command::EndActivations
            | Command::EndLeaders
            | Command::Defend { .. }
            | Command::FallBack { .. } => (vec![], None),
        }
    }

    /// The name lesson files and logs use.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::Bid { .. } => "Bid",
            Command::ChooseSide { .. } => "ChooseSide",
            Command::Move { .. } => "Move",
            Command::Formation { .. } => "Formation",
            Command::Face { .. } => "Face",
            Command::Fire { .. } => "Fire",
            Command::SolidShot { .. } => "SolidShot",
            Command::Charge { .. } => "Charge",
            Command::Reform { .. } => "Reform",
            Command::Stand { .. } => "Stand",
            Command::FinishUnit => "FinishUnit",
            Command::EndActivations => "EndActivations",
            Command::MoveLeader { .. } => "MoveLeader",
            Command::EndLeaders => "EndLeaders",
            Command::Defend { .. } => "Defend",
            Command::FallBack { .. } => "FallBack",
        }
    }

    /// Every command name.
    pub const KINDS: &'static [&'static str] = &[
        "Bid",
        "ChooseSide",
        "Move",
        "Formation",
        "Face",
        "Fire",
        "SolidShot",
        "Charge",
        "Reform",
        "Stand",
        "FinishUnit",
        "EndActivations",
        "MoveLeader",
        "EndLeaders",
        "Defend",
        "FallBack",
    ];

    /// The unit acting, if one is named.
    pub fn unit(&self) -> Option<UnitId> {
        match self {
            Command::Move { unit, .. }
            | Command::Formation { unit, .. }
            | Command::Face { unit, .. }
            | Command::Fire { unit, .. }
            | Command::SolidShot { unit, .. }
            | Command::Charge { unit, .. }
            | Command::Reform { unit }
            | Command::Stand { unit } => Some(*unit),
            _ => None,
        }
    }

    /// Actions the command spends (NQ-ACT-1, G2).
    pub fn actions(&self) -> u8 {
        match self {
            Command::Fire { actions, .. } | Command::SolidShot { actions, .. } => *actions,
            Command::Move { .. }
            | Command::Formation { .. }
            | Command::Face { .. }
            | Command::Charge { .. }
            | Command::Reform { .. } => 1,
            _ => 0,
        }
    }
}
