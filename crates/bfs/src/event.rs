//! What happened: every command returns events, in order. Each roll carries its target, every
//! modifier with its rule ID, the faces and the result, so the program can explain it.

use crate::dice::{Modifier, PoolRoll, TestRoll};
use crate::ids::{CommanderId, Side, UnitId};
use crate::vocab::{MoraleLevel, OrderKind};
use sandtable_geometry::Vec2;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Event {
    TurnBegan {
        turn: u32,
    },
    PhaseBegan {
        phase: String,
        acting: Option<Side>,
    },
    /// Pools restored at the start of the Initiative Phase (BFS-INI-1).
    CpRestored {
        commander: CommanderId,
        cp: u8,
    },
    /// A side has placed its secret bid; the amount is not shown until both have bid.
    BidPlaced {
        side: Side,
    },
    /// Both bids, revealed and paid (BFS-INI-2).
    BidsRevealed {
        bids: [u8; 2],
    },
    /// The Initiative roll: each round's faces (ties are rerolled), the bonuses, the winner
    /// (BFS-INI-3).
    InitiativeRolled {
        rounds: Vec<[u8; 2]>,
        bonus: [u8; 2],
        winner: Side,
    },
    InitiativeChosen {
        winner: Side,
        keep: bool,
        initiative: Side,
    },
    /// A face-down order marker was placed. `order` is `None` in the other side's view.
    OrderIssued {
        unit: UnitId,
        by: CommanderId,
        order: Option<OrderKind>,
        cp: u8,
        distance_cm: f32,
        free: bool,
        /// An order placed face up for free: an Independent unit's (BFS-SPC-14), or Commanded
        /// Musketeers' Defense order (BFS-SPC-5).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        independent: bool,
        /// Placed face up because the enemy's Big Mouthed Prisoner gave the plans away
        /// (BFS-SCN-38): the event says so, whatever turn it is narrated in.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        prisoner: bool,
    },
    CpSpent {
        commander: CommanderId,
        cp: u8,
        rule: String,
        reason: String,
    },
    CpTransferred {
        from: CommanderId,
        to: CommanderId,
        sent: u8,
        received: u8,
        distance_cm: f32,
    },
    /// The side's order markers are turned face up (BFS-MOV-2).
    OrdersRevealed {
        side: Side,
        orders: Vec<(UnitId, OrderKind)>,
    },
    /// A unit's order changed for a rule's reason.
    OrderChanged {
        unit: UnitId,
        from: Option<OrderKind>,
        to: Option<OrderKind>,
        rule: String,
        reason: String,
    },
    /// A single-die test (Morale, Skill) with its target, modifiers and face.
    Test(TestReport),
    CasualtyMarkerRemoved {
        unit: UnitId,
    },
    /// A unit moved. `cost_cm` is what the move used of `allowance_cm`.
    Moved {
        unit: UnitId,
        cost_cm: f32,
        allowance_cm: f32,
        description: String,
    },
    CommanderMoved {
        commander: CommanderId,
        to: Vec2,
        joined: Option<UnitId>,
    },
    ChargeDeclared {
        unit: UnitId,
        target: UnitId,
        paid_by: Option<CommanderId>,
    },
    Reacted {
        unit: UnitId,
        to: UnitId,
        reaction: String,
    },
    /// A charging unit moved; `contact` is the enemy it touched, if any.
    ChargeMoved {
        unit: UnitId,
        distance_cm: f32,
        contact: Option<UnitId>,
        description: String,
    },
    Volley(VolleyReport),
    Melee(MeleeReport),
    /// A charger's bases strike the lone commander they reached (BFS-CDR-7).
    CommanderStruck(CommanderStrike),
    CombatResolved(ResolutionReport),
    /// Strength points lost, with any bases removed.
    Losses {
        unit: UnitId,
        sp: u32,
        bases_removed: u32,
        markers: u8,
        cause: String,
    },
    MoraleChanged {
        unit: UnitId,
        from: MoraleLevel,
        to: MoraleLevel,
        rule: String,
        reason: String,
    },
    Withdrew {
        unit: UnitId,
        distance_cm: f32,
        reason: String,
    },
    Fled {
        unit: UnitId,
        distance_cm: f32,
        bases_destroyed: u32,
        bases_left_table: u32,
        reason: String,
    },
    Pursued {
        unit: UnitId,
        target: UnitId,
        distance_cm: f32,
        contact: bool,
    },
    UnitDestroyed {
        unit: UnitId,
        rule: String,
        reason: String,
    },
    UnitLeftTable {
        unit: UnitId,
    },
    CommanderLost {
        commander: CommanderId,
        killed: bool,
        reason: String,
    },
    CommanderRallied {
        commander: CommanderId,
    },
    /// A Regiment failed its Motivation (or lost its Commander-in-Chief, for an Allied Regiment):
    /// all its units and commanders flee and never rally (BFS-PSY-28, BFS-PSY-30).
    RegimentWipedOut {
        regiment: crate::ids::RegimentId,
        rule: String,
        reason: String,
    },
    /// An explanation of a ruling that is not a roll: what happened and by which rule.
    Ruling {
        rule: String,
        text: String,
    },
    GameOver(VictoryReport),
    /// The scenario's script speaks to both players.
    ScriptMessage {
        text: String,
    },
    /// A unit held in reserve arrives, with a Move order (BFS-SCN-50).
    ReservesArrived {
        unit: UnitId,
    },
    /// An objective changed hands (BFS-SCN-7); the index is into `Game::objectives`.
    ObjectiveChanged {
        objective: usize,
        held_by: Option<Side>,
    },
    /// A face-down Instruction was placed beside a Regimental commander (BFS-ORD-11).
    /// `instruction` is `None` in the other side's view.
    InstructionIssued {
        side: Side,
        commander: CommanderId,
        by: CommanderId,
        instruction: Option<OrderKind>,
        cp: u8,
    },
    /// Wagons beaten in close combat change sides (BFS-WAG-8): `side` now owns them.
    WagonTaken {
        wagon: UnitId,
        side: Side,
    },
}

/// What a single-die test was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TestKind {
    Morale,
    Skill,
    Rally,
    Reorganize,
    /// The ammunition die (BFS-AMM-6).
    Ammunition,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestReport {
    pub unit: Option<UnitId>,
    pub commander: Option<CommanderId>,
    pub kind: TestKind,
    /// Why the test was taken, in plain words, with its rule.
    pub rule: String,
    pub cause: String,
    pub roll: TestRoll,
    /// What followed, in plain words.
    pub outcome: String,
}

/// Range band of one group of shooting bases (BFS-SHO-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Band {
    Effective,
    Long,
}

/// One shooting unit's fire at one target (BFS-SHO-13..16).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VolleyReport {
    pub shooter: Piece,
    pub target: Piece,
    pub stage: String,
    pub weapon: String,
    /// Groups of bases rolling together: same band, same modifiers.
    pub groups: Vec<ShotGroup>,
    pub hits: u32,
    pub armor: Vec<ArmorReport>,
    pub sp_lost: u32,
    /// Rulings within the volley, such as a gun's missed shot rolled again (BFS-ART-2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// At a War Wagon Train, each hit is tested again against the wagon's own Armor, 13
    /// (BFS-WAG-13): those tests, and the structure SP lost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structure: Vec<ArmorReport>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub structure_lost: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShotGroup {
    pub bases: u32,
    pub band: Band,
    pub distance_cm: f32,
    pub roll: PoolRoll,
}

/// A unit or a commander: who fires a volley (a lone commander, BFS-CDR-16) and whom it is fired
/// at (a lone commander who is the closest target within 30 cm, BFS-CDR-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Piece {
    Unit(UnitId),
    Commander(crate::ids::CommanderId),
}

impl Piece {
    /// The unit, if it is one.
    pub fn unit(self) -> Option<UnitId> {
        match self {
            Piece::Unit(u) => Some(u),
            Piece::Commander(_) => None,
        }
    }
}

/// Armor tests against hits that share the same target number (BFS-SHO-15, BFS-CC-17).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ArmorReport {
    pub armor: i32,
    pub modifiers: Vec<Modifier>,
    pub target: i32,
    pub faces: Vec<u8>,
    pub saved: u32,
    pub failed: u32,
}

/// One side of one close combat round (BFS-CC-8..18).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeleeReport {
    pub round: u8,
    pub attacker: UnitId,
    pub target: UnitId,
    pub weapon: String,
    pub groups: Vec<MeleeGroup>,
    pub hits: u32,
    pub armor: Vec<ArmorReport>,
    pub sp_lost: u32,
    pub first_strike: bool,
}

/// A charger striking a lone commander it reached (BFS-CDR-7), his Armor against each hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CommanderStrike {
    pub attacker: UnitId,
    pub commander: CommanderId,
    pub weapon: String,
    pub groups: Vec<MeleeGroup>,
    pub hits: u32,
    pub armor: Vec<ArmorReport>,
    pub sp_lost: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MeleeGroup {
    pub bases: u32,
    pub roll: PoolRoll,
}

/// A combat's result (BFS-CC-19..24).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolutionReport {
    pub round: u8,
    pub sides: [ResolutionSide; 2],
    /// The winning side, or `None` for a draw.
    pub winner: Option<Side>,
    pub margin: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResolutionSide {
    pub side: Side,
    pub units: Vec<UnitId>,
    pub sp_inflicted: u32,
    pub modifiers: Vec<Modifier>,
    pub total: i32,
}

/// The end of the battle and the figures that decided it (BFS-VIC).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VictoryReport {
    pub reason: String,
    pub sides: [VictorySide; 2],
    /// Winner by margin, or `None` for a draw.
    pub winner: Option<Side>,
    pub margin: i32,
    /// "tactical victory", "draw", … for the winner (BFS-VIC-7).
    pub result: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VictorySide {
    pub side: Side,
    pub force_value: u32,
    pub bases_destroyed: u32,
    pub bases_fled: u32,
    pub commanders_lost_points: u32,
    pub loss_points: u32,
    /// "No losses", "Minor", … (BFS-VIC-2).
    pub loss_band: String,
    pub vp_for_losses: i32,
    /// VP from objectives held at the end (BFS-VIC-6).
    #[serde(default)]
    pub vp_for_scenario: i32,
    pub vp_total: i32,
}

impl Event {
    /// The event as `viewer` may see it: the other side's order markers stay face down until
    /// revealed, and secret bids are not shown before both are placed.
    pub fn redacted_for(&self, viewer: Side, owner_of: impl Fn(UnitId) -> Side) -> Event {
        match self {
            Event::OrderIssued {
                unit,
                by,
                cp,
                distance_cm,
                free,
                independent: false,
                prisoner: false,
                ..
            } if owner_of(*unit) != viewer => Event::OrderIssued {
                unit: *unit,
                by: *by,
                order: None,
                cp: *cp,
                distance_cm: *distance_cm,
                free: *free,
                independent: false,
                prisoner: false,
            },
            Event::InstructionIssued {
                side,
                commander,
                by,
                cp,
                ..
            } if *side != viewer => Event::InstructionIssued {
                side: *side,
                commander: *commander,
                by: *by,
                instruction: None,
                cp: *cp,
            },
            other => other.clone(),
        }
    }
}
