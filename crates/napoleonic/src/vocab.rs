//! The words of the sheet: ratings, arms, calibres, formations, fatigue, ammunition, range bands
//! and the unit's standing (NQ-*). Plain data shared by the tables, the state, commands and events.

use serde::{Deserialize, Serialize};

/// Unit quality, A best (NQ-MOV-1, NQ-FIRE-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rating {
    A,
    B,
    C,
    D,
    E,
}

impl Rating {
    pub fn name(self) -> &'static str {
        match self {
            Rating::A => "A",
            Rating::B => "B",
            Rating::C => "C",
            Rating::D => "D",
            Rating::E => "E",
        }
    }
}

/// Cavalry weight (NQ-MOV-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CavWeight {
    Light,
    Medium,
    Heavy,
}

/// Gun calibre, as the fire tables split them (NQ-ART-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Calibre {
    Lb2to3,
    Lb4,
    Lb6,
    Lb8to9,
    Lb12,
}

impl Calibre {
    pub fn name(self) -> &'static str {
        match self {
            Calibre::Lb2to3 => "2-3lb",
            Calibre::Lb4 => "4lb",
            Calibre::Lb6 => "6lb",
            Calibre::Lb8to9 => "8-9lb",
            Calibre::Lb12 => "12lb",
        }
    }
}

/// The movement table's battery rows (NQ-MOV-4); 2-3lb guns move as the 3-6lb row of their arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BatteryRow {
    Horse3to6,
    Foot3to6,
    Foot8to9,
    Foot12,
}

/// What kind of unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arm {
    Infantry,
    Cavalry(CavWeight),
    Artillery {
        horse: bool,
        calibre: Calibre,
        /// Guns, howitzers excluded.
        guns: u8,
        howitzers: u8,
    },
}

impl Arm {
    pub fn is_cavalry(self) -> bool {
        matches!(self, Arm::Cavalry(_))
    }
    pub fn is_artillery(self) -> bool {
        matches!(self, Arm::Artillery { .. })
    }
    /// Mounted for retreats (NQ-MOV-6): cavalry and horse artillery.
    pub fn is_mounted(self) -> bool {
        matches!(self, Arm::Cavalry(_) | Arm::Artillery { horse: true, .. })
    }
}

/// How a unit stands (NQ-MOV-1/2/4; footprints G1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Formation {
    Line,
    Column,
    RoadColumn,
    Square,
    Skirmish,
    /// Artillery ready to move.
    Limbered,
    /// Artillery ready to fire.
    Unlimbered,
}

impl Formation {
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::RoadColumn => "road column",
            Formation::Square => "square",
            Formation::Skirmish => "skirmish order",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }
}

/// Fatigue steps (NQ-FAT-1), fresh first.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub enum Fatigue {
    #[default]
    Fresh,
    Fatigued,
    Tired,
    Exhausted,
}

impl Fatigue {
    pub fn worse(self) -> Self {
        match self {
            Fatigue::Fresh => Fatigue::Fatigued,
            Fatigue::Fatigued => Fatigue::Tired,
            _ => Fatigue::Exhausted,
        }
    }
    pub fn better(self) -> Self {
        match self {
            Fatigue::Exhausted => Fatigue::Tired,
            Fatigue::Tired => Fatigue::Fatigued,
            _ => Fatigue::Fresh,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Fatigue::Fresh => "fresh",
            Fatigue::Fatigued => "fatigued",
            Fatigue::Tired => "tired",
            Fatigue::Exhausted => "exhausted",
        }
    }
}

/// A battery's ammunition (NQ-ART-9).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
pub enum Ammo {
    #[default]
    Full,
    RunningLow,
    Critical,
    Out,
}

impl Ammo {
    pub fn name(self) -> &'static str {
        match self {
            Ammo::Full => "full",
            Ammo::RunningLow => "running low",
            Ammo::Critical => "critical",
            Ammo::Out => "out",
        }
    }
}

/// Range bands (NQ-FIRE-4, NQ-ART-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Band {
    Close,
    Medium,
    Long,
    Extreme,
}

impl Band {
    pub fn name(self) -> &'static str {
        match self {
            Band::Close => "close",
            Band::Medium => "medium",
            Band::Long => "long",
            Band::Extreme => "extreme",
        }
    }
}

/// Small arms (NQ-FIRE-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Weapon {
    Musket,
    Rifle,
    Carbine,
}

/// How a unit stands in morale terms (NQ-MOR, G8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Standing {
    #[default]
    Good,
    /// Disordered or unformed (NQ-CA-1 step 4, NQ-CA-6 step 4).
    Disordered,
    /// In retreat status; reforms after spending this many actions (NQ-MOR-3).
    Retreat { to_reform: u8 },
    /// Routed: leaves the field at the end of the period (G8).
    Routed,
    /// Gone from the table.
    Gone,
}
