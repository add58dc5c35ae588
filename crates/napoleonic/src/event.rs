//! What happened, for the log, the dice panel, lessons and replays. Every roll carries its
//! report: the dice, what they needed, and each modifier with its rule ID.

use crate::state::{Defence, Facing, LeaderId, UnitId};
use crate::vocab::{Ammo, Fatigue, Formation};
use sandtable_engine::narration::RollReport;
use sandtable_geometry::Vec2;
use serde::{Deserialize, Serialize};

/// One unit struck by a solid shot (NQ-ART-4..8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShotHit {
    pub unit: UnitId,
    pub report: RollReport,
    /// Damage points after modifiers and doubling (NQ-ART-5/6).
    pub damage: i32,
    pub removed: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// NQ-SEQ-1: a new period.
    PeriodBegan {
        period: u32,
    },
    /// Step 1 (G5): these units are out of command.
    OutOfCommand {
        units: Vec<UnitId>,
    },
    /// NQ-SEQ-2: a side has bid (how much stays secret).
    BidPlaced {
        side: u8,
    },
    /// NQ-SEQ-2: both bids turned up; the winner (after a roll-off on a tie) and what each paid.
    BidsRevealed {
        bids: [u32; 2],
        winner: u8,
        tie_rolls: Vec<(u8, u8)>,
        paid: [u32; 2],
    },
    /// NQ-SEQ-2: the winner chose; this side is A.
    SideChosen {
        side_a: u8,
    },
    /// NQ-SEQ-3: the unit is activated ("moved" marker).
    Activated {
        unit: UnitId,
    },
    /// NQ-SEQ-3: the unit stands ("stand" marker).
    Stood {
        unit: UnitId,
    },
    Moved {
        unit: UnitId,
        from: Vec2,
        to: Vec2,
        bearing: f32,
        inches: f32,
        road: bool,
    },
    FormationChanged {
        unit: UnitId,
        from: Formation,
        to: Formation,
    },
    Faced {
        unit: UnitId,
        bearing: f32,
    },
    /// NQ-FIRE-1/2 or NQ-ART-2: a volley or a canister shot.
    Volley {
        unit: UnitId,
        target: UnitId,
        canister: bool,
        report: RollReport,
        removed: u32,
    },
    /// NQ-ART-3..8: a solid shot; the line from the battery through the aim and the bounce.
    SolidShot {
        unit: UnitId,
        aim: Vec2,
        bounce_end: Vec2,
        hits: Vec<ShotHit>,
    },
    /// NQ-ART-9, G13.
    Ammunition {
        unit: UnitId,
        face: u8,
        state: Ammo,
    },
    /// NQ-CA-1 step 1: contact.
    Charged {
        unit: UnitId,
        target: UnitId,
        facing: Facing,
        inches: f32,
    },
    /// The activation of this unit is over.
    UnitFinished {
        unit: UnitId,
    },
    /// NQ-SEQ-1 step 7.
    ActivationsEnded {
        side: u8,
    },
    /// Step 8.
    LeaderMoved {
        leader: LeaderId,
        from: Vec2,
        to: Vec2,
    },
    LeadersDone {
        side: u8,
    },
    /// Step 9 begins.
    CloseActionsBegan {
        count: usize,
    },
    /// NQ-MOR-1: a morale check (G7) and why it was taken.
    MoraleCheck {
        unit: UnitId,
        why: String,
        report: RollReport,
        passed: bool,
    },
    /// NQ-CA-1 step 4.
    DefenceTaken {
        unit: UnitId,
        choice: Defence,
    },
    /// NQ-CA-2: die × melee value each; the winner.
    Melee {
        charger: UnitId,
        target: UnitId,
        reports: Vec<RollReport>,
        winner: UnitId,
    },
    /// NQ-CA-4: figures lost to a close action.
    Casualties {
        unit: UnitId,
        report: RollReport,
        removed: u32,
    },
    /// NQ-CA-6: ridden down.
    RiddenDown {
        unit: UnitId,
        by: UnitId,
    },
    /// NQ-CA-6 step 6: the cavalry could not ride the target down and retreats.
    Repulsed {
        unit: UnitId,
        why: String,
    },
    /// NQ-CA-1 step 5: the charger halts 3" short.
    Halted {
        unit: UnitId,
    },
    /// G8: a retreat move, and the actions needed to reform (NQ-MOR-3).
    Retreated {
        unit: UnitId,
        from: Vec2,
        to: Vec2,
        to_reform: u8,
        report: Option<RollReport>,
    },
    /// G8: routed (leaves the table at step 11).
    Routed {
        unit: UnitId,
    },
    /// NQ-CA-1 step 4: disordered or unformed.
    Disordered {
        unit: UnitId,
    },
    /// G8/G8b: an action spent reforming; `left` actions still needed.
    Reformed {
        unit: UnitId,
        left: u8,
    },
    /// NQ-FAT-2 / G14.
    FatigueChanged {
        unit: UnitId,
        level: Fatigue,
    },
    /// G6.
    LeaderKilled {
        leader: LeaderId,
        report: RollReport,
    },
    /// Step 11: a routed unit leaves the table.
    LeftTable {
        unit: UnitId,
    },
    /// The scenario's script speaks.
    Message {
        text: String,
    },
    /// G15.
    BattleEnded {
        winner: Option<u8>,
        reason: String,
    },
}

impl Event {
    /// The name lesson files use.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::PeriodBegan { .. } => "PeriodBegan",
            Event::OutOfCommand { .. } => "OutOfCommand",
            Event::BidPlaced { .. } => "BidPlaced",
            Event::BidsRevealed { .. } => "BidsRevealed",
            Event::SideChosen { .. } => "SideChosen",
            Event::Activated { .. } => "Activated",
            Event::Stood { .. } => "Stood",
            Event::Moved { .. } => "Moved",
            Event::FormationChanged { .. } => "FormationChanged",
            Event::Faced { .. } => "Faced",
            Event::Volley { .. } => "Volley",
            Event::SolidShot { .. } => "SolidShot",
            Event::Ammunition { .. } => "Ammunition",
            Event::Charged { .. } => "Charged",
            Event::UnitFinished { .. } => "UnitFinished",
            Event::ActivationsEnded { .. } => "ActivationsEnded",
            Event::LeaderMoved { .. } => "LeaderMoved",
            Event::LeadersDone { .. } => "LeadersDone",
            Event::CloseActionsBegan { .. } => "CloseActionsBegan",
            Event::MoraleCheck { .. } => "MoraleCheck",
            Event::DefenceTaken { .. } => "DefenceTaken",
            Event::Melee { .. } => "Melee",
            Event::Casualties { .. } => "Casualties",
            Event::RiddenDown { .. } => "RiddenDown",
            Event::Repulsed { .. } => "Repulsed",
            Event::Halted { .. } => "Halted",
            Event::Retreated { .. } => "Retreated",
            Event::Routed { .. } => "Routed",
            Event::Disordered { .. } => "Disordered",
            Event::Reformed { .. } => "Reformed",
            Event::FatigueChanged { .. } => "FatigueChanged",
            Event::LeaderKilled { .. } => "LeaderKilled",
            Event::LeftTable { .. } => "LeftTable",
            Event::Message { .. } => "Message",
            Event::BattleEnded { .. } => "BattleEnded",
        }
    }

    pub const KINDS: &'static [&'static str] = &[
        "PeriodBegan",
        "OutOfCommand",
        "BidPlaced",
        "BidsRevealed",
        "SideChosen",
        "Activated",
        "Stood",
        "Moved",
        "FormationChanged",
        "Faced",
        "Volley",
        "SolidShot",
        "Ammunition",
        "Charged",
        "UnitFinished",
        "ActivationsEnded",
        "LeaderMoved",
        "LeadersDone",
        "CloseActionsBegan",
        "MoraleCheck",
        "DefenceTaken",
        "Melee",
        "Casualties",
        "RiddenDown",
        "Repulsed",
        "Halted",
        "Retreated",
        "Routed",
        "Disordered",
        "Reformed",
        "FatigueChanged",
        "LeaderKilled",
        "LeftTable",
        "Message",
        "BattleEnded",
    ];
}
