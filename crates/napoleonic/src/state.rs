//! The whole game: units, leaders, the period's sequence, pending close actions, the dice.
//! Lengths are centimetres inside (the sheet's inches are converted at the edges).

use crate::force::Profile;
use crate::options::Options;
use crate::vocab::{Ammo, Arm, Fatigue, Formation, Standing};
use sandtable_engine::Dice;
use sandtable_engine::scenario::TerrainKind;
use sandtable_engine::scenario_script::ScriptRule;
use sandtable_geometry::{Rect, Vec2};
use serde::{Deserialize, Serialize};

/// Centimetres in an inch: the sheet measures in inches.
pub const INCH: f32 = 2.54;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct UnitId(pub u16);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LeaderId(pub u16);

/// What a unit must check morale for at step 10, and why (NQ-SEQ-1 steps 4/6, G7b).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MoraleMark {
    /// Fire came in on its flank or rear (NQ-MOR-2 −2).
    pub flank_fire: bool,
    /// A 12lb battery fired on it from 15" or less (NQ-MOR-2 −1).
    pub by_12lb_close: bool,
    /// It is artillery and artillery fired on it (NQ-MOR-2 +2).
    pub artillery_by_artillery: bool,
    /// A friendly unit within 6" routed (G7b).
    pub friend_routed: bool,
    /// It lost figures to fire (G7b).
    pub fire_losses: bool,
}

/// The markers and counts of the period (NQ-SEQ-1 step 11 clears them).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Marks {
    /// Activated this period ("moved" marker, NQ-SEQ-3).
    pub moved: bool,
    /// Stood instead of acting ("stand" marker): its actions are kept for defence.
    pub stand: bool,
    /// Out of command control (step 1, G5).
    pub out_of_command: bool,
    /// Actions spent this period.
    pub used: u8,
    /// Firing actions this period (critical ammunition allows one, G13).
    pub fired: u8,
    /// Charged this period (one charge, one action: NQ-ACT-2).
    pub charged: bool,
    /// Changed facing or formation in this activation (NQ-CA-7 adds 15").
    pub turned: bool,
    /// Distance moved in this activation, cm (NQ-CA-7).
    pub run: f32,
    /// Took losses from fire this period (NQ-MOR-2 "having taken hits").
    pub hit: bool,
    /// Has had its one defence action against this period's charges (NQ-CA-1 step 3).
    pub defended: bool,
    /// Fought a close action this period: its step-10 check is skipped (NQ-SEQ-4).
    pub close_action: bool,
    /// Step-10 morale check pending.
    pub morale: Option<MoraleMark>,
}

/// One unit on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    /// The scenario's identifier.
    pub key: String,
    pub name: String,
    pub side: u8,
    pub brigade: u16,
    pub profile: Profile,
    pub formation: Formation,
    /// Middle of the front edge, cm.
    pub front: Vec2,
    /// Compass bearing faced, degrees.
    pub bearing: f32,
    pub figures: u32,
    pub start_figures: u32,
    /// G7 (or the profile's own).
    pub morale_number: u32,
    pub fatigue: Fatigue,
    pub standing: Standing,
    /// Batteries only (NQ-ART-9).
    pub ammo: Ammo,
    /// Sixes rolled on the ammunition die so far.
    pub sixes: u8,
    /// Actions left this period (NQ-ACT-1).
    pub actions_left: u8,
    /// Ridden down by cavalry and not yet reformed (NQ-MOR-2 −1, NQ-MOR-4 +1).
    pub ridden_down: bool,
    pub marks: Marks,
}

impl Unit {
    pub fn arm(&self) -> Arm {
        self.profile.arm
    }

    /// On the table and able to fight: not routed or gone.
    pub fn present(&self) -> bool {
        !matches!(self.standing, Standing::Routed | Standing::Gone)
    }

    pub fn on_table(&self) -> bool {
        !matches!(self.standing, Standing::Gone)
    }

    pub fn in_retreat(&self) -> bool {
        matches!(self.standing, Standing::Retreat { .. })
    }

    /// Disordered, unformed or in retreat status (which counts as disordered, G8).
    pub fn disordered(&self) -> bool {
        matches!(
            self.standing,
            Standing::Disordered | Standing::Retreat { .. }
        )
    }

    /// The unit's footprint (G1).
    pub fn rect(&self) -> Rect {
        crate::footprint::rect(
            self.arm(),
            self.formation,
            self.figures,
            self.front,
            self.bearing,
        )
    }

    /// Figures lost (and routed away) since the start.
    pub fn lost(&self) -> u32 {
        match self.standing {
            Standing::Routed | Standing::Gone => self.start_figures,
            _ => self.start_figures.saturating_sub(self.figures),
        }
    }
}

/// A brigade leader (NQ-MOV-5, G5, G6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leader {
    pub id: LeaderId,
    pub key: String,
    pub name: String,
    pub side: u8,
    pub brigade: u16,
    pub pos: Vec2,
    pub alive: bool,
    /// Moved in this period's step 8.
    pub moved: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Brigade {
    pub key: String,
    pub name: String,
    pub side: u8,
    pub leader: LeaderId,
}

/// A piece of terrain as the rules use it (cm).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ground {
    pub kind: TerrainKind,
    pub name: Option<String>,
    pub polygons: Vec<Vec<Vec2>>,
}

/// A turn-point bid (NQ-SEQ-2), as a seat sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Bid {
    None,
    Placed(u32),
    /// The other seat has bid; how much is secret until both have.
    Hidden,
}

/// Where the activation loop stands (NQ-SEQ-1 steps 3–7, NQ-SEQ-3, G4).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Activation {
    /// The side activating now.
    pub side: u8,
    /// Activations left to it in this turn of the loop (A 2, D 1).
    pub left: u8,
    /// The unit being activated, still holding actions.
    pub current: Option<UnitId>,
    /// A has declared itself finished, or has no unit left to activate.
    pub a_done: bool,
}

/// What a close action waits for (NQ-CA-1 steps 3–5, NQ-CA-6 steps 3–5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wait {
    /// The defender of this charge chooses its defence action.
    Defence(usize),
    /// The charger of this charge failed its check: retreat, or halt 3" short.
    FallBack(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Phase {
    /// Step 2: both sides bid in secret.
    Bidding {
        bids: [Bid; 2],
    },
    /// Step 2: the higher bidder chooses to be A or D.
    ChooseSide {
        chooser: u8,
    },
    /// Steps 3–7.
    Activation(Activation),
    /// Step 8: this side moves its leaders (A first).
    Leaders {
        side: u8,
    },
    /// Step 9: close actions, waiting for a decision.
    CloseActions(Wait),
    Over,
}

/// Which part of a unit a charge strikes (house arcs, digest §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Facing {
    Front,
    Flank,
    Rear,
}

/// A defence action against a charge (NQ-CA-1 step 4, NQ-CA-6 step 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Defence {
    /// Keep the actions: no defence action.
    None,
    /// Fire at the charger.
    Fire,
    /// Turn to face the charger.
    Face,
    /// Change formation (form square against cavalry).
    Form(Formation),
}

/// How far a close action has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChargeStage {
    /// Contact made in the activation; nothing resolved.
    Declared,
    /// The defender passed its check and may take a defence action.
    DefenderHeld,
    /// The defence action is taken; the charger checks next.
    Defended,
    /// The charger failed its check and chooses to retreat or halt.
    ChargerFailed,
    /// Over.
    Done,
}

/// A charge that made contact, resolved at step 9.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Charge {
    pub charger: UnitId,
    pub target: UnitId,
    /// Which part of the target it struck.
    pub facing: Facing,
    /// NQ-CA-7's distance: what the charger covered in its activation (cm), plus 15" if it
    /// turned or changed formation first.
    pub run: f32,
    /// The charger used both its actions before contact (NQ-CA-1 step 4 +2).
    pub both_actions: bool,
    /// Less than half the charger's front touches the enemy (NQ-CA-3 −10).
    pub partial: bool,
    /// The charger's figures in contact (NQ-CA-4's column).
    pub charger_figures: u32,
    /// The target's figures in contact.
    pub target_figures: u32,
    /// Own figures in contact plus own figures overlapping the enemy's flank (G10).
    pub charger_enfilade: u32,
    pub target_enfilade: u32,
    /// The target, infantry in line, met the charge with at least 1.5 figures to each of the
    /// cavalry's in contact, from the front (NQ-CA-6 step 6b).
    pub steady_line: bool,
    /// Where the charger stood before it charged (the halt 3" short is measured on the line).
    pub from: Vec2,
    pub stage: ChargeStage,
}

/// How the battle ended (G15).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ending {
    pub winner: Option<u8>,
    pub reason: String,
}

/// The whole game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// Table width and depth, cm.
    pub table: Vec2,
    pub ground: Vec<Ground>,
    pub side_names: [String; 2],
    pub units: Vec<Unit>,
    pub leaders: Vec<Leader>,
    pub brigades: Vec<Brigade>,
    pub period: u32,
    pub periods: u32,
    /// Turn points left (G3).
    pub turn_points: [u32; 2],
    /// Side A this period.
    pub side_a: u8,
    pub phase: Phase,
    /// Charges that made contact this period, in order.
    pub charges: Vec<Charge>,
    pub options: Options,
    pub dice: Dice,
    pub start_figures: [u32; 2],
    pub ending: Option<Ending>,
    /// The scenario's script, each rule with whether it has fired.
    pub script: Vec<(ScriptRule, bool)>,
    /// Standing orders from the script for the computer's units ("Hold", "Advance", "Attack").
    pub standing_orders: Vec<(UnitId, String)>,
}

impl Game {
    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id.0 as usize]
    }
    pub fn unit_mut(&mut self, id: UnitId) -> &mut Unit {
        &mut self.units[id.0 as usize]
    }
    pub fn leader(&self, id: LeaderId) -> &Leader {
        &self.leaders[id.0 as usize]
    }
    pub fn find_unit(&self, key: &str) -> Option<UnitId> {
        self.units.iter().find(|u| u.key == key).map(|u| u.id)
    }
    pub fn side_d(&self) -> u8 {
        1 - self.side_a
    }
    /// Units of `side` still fighting.
    pub fn present_units(&self, side: u8) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.side == side && u.present())
    }
    /// Enemy units of `side` still fighting.
    pub fn enemies_of(&self, side: u8) -> impl Iterator<Item = &Unit> {
        self.present_units(1 - side)
    }
    /// Figures `side` has lost, routed units counted whole (G15).
    pub fn losses(&self, side: u8) -> u32 {
        self.units
            .iter()
            .filter(|u| u.side == side)
            .map(|u| u.lost())
            .sum()
    }
}
