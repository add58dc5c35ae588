//! The weapon tables of By Fire and Sword. These are rules, not army data: a profile names its
//! weapons and the values come from here.

use serde::{Deserialize, Serialize};

/// Ranged weapons (BFS-WPN-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RangedWeapon {
    Pistol,
    Bow,
    CarbineBow,
    Carbine,
    JanissaryArquebus,
    Arquebus,
    PoorFirearms,
    GoodFirearms,
    MuscoviteHandgun,
    JanissaryHandgun,
    Musket,
    HalfMusket,
    SpanishMusket,
    Javelins,
    /// A gun of the artillery table; its stats here are the cannonball's (BFS-ART-9).
    Gun(crate::artillery::Gun),
}

/// What kind of missile a ranged weapon is, for rules that care (BFS-WPN-2, BFS-WPN-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WeaponClass {
    Firearm,
    Bow,
    Thrown,
    /// The carbine/bow pair: neither a firearm nor a bow (BFS-WPN-3).
    CarbineBow,
    /// Guns (BFS-WPN-2, BFS-ART).
    Artillery,
}

/// Can it be fired from horseback, and at what cost (BFS-WPN-3 "Horseback" column)?
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Horseback {
    NoPenalty,
    Penalty,
    Cannot,
}

/// One row of the ranged weapons table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RangedStats {
    pub name: &'static str,
    /// Effective band upper bound, cm (inclusive, AMB-42).
    pub effective_cm: f32,
    /// Long band upper bound, cm; `None` for single-band weapons.
    pub long_cm: Option<f32>,
    /// Armor reduction at (Effective, Long) range.
    pub effectiveness: (i8, i8),
    /// −1 in the Shooting after Movement stage.
    pub sam_penalty: bool,
    pub horseback: Horseback,
    pub class: WeaponClass,
    pub matchlock: bool,
}

impl RangedWeapon {
    /// The table row (BFS-WPN-3). Bows reach 20 cm mounted and 30 cm on foot (BFS-WPN-4).
    pub fn stats(self, mounted: bool) -> RangedStats {
        use Horseback::*;
        use WeaponClass::*;
        let row = |name, e, l: Option<f32>, eff, sam, hb, class, matchlock| RangedStats {
            name,
            effective_cm: e,
            long_cm: l,
            effectiveness: eff,
            sam_penalty: sam,
            horseback: hb,
            class,
            matchlock,
        };
        match self {
            RangedWeapon::Pistol => row(
                "Pistol",
                5.0,
                None,
                (0, 0),
                false,
                NoPenalty,
                Firearm,
                false,
            ),
            RangedWeapon::Bow => row(
                "Bow",
                10.0,
                Some(if mounted { 20.0 } else { 30.0 }),
                (0, -1),
                false,
                NoPenalty,
                Bow,
                false,
            ),
            RangedWeapon::CarbineBow => row(
                "Carbine/Bow",
                10.0,
                Some(20.0),
                (0, 0),
                false,
                NoPenalty,
                CarbineBow,
                false,
            ),
            RangedWeapon::Carbine => row(
                "Carbine",
                10.0,
                Some(20.0),
                (1, 0),
                false,
                Penalty,
                Firearm,
                false,
            ),
            RangedWeapon::JanissaryArquebus => row(
                "Janissary arquebus",
                10.0,
                Some(20.0),
                (1, 0),
                false,
                Penalty,
                Firearm,
                false,
            ),
            RangedWeapon::Arquebus => row(
                "Arquebus",
                10.0,
                Some(20.0),
                (1, 0),
                false,
                Penalty,
                Firearm,
                false,
            ),
            RangedWeapon::PoorFirearms => row(
                "Poor quality firearms",
                10.0,
                Some(20.0),
                (1, 0),
                true,
                Penalty,
                Firearm,
                false,
            ),
            RangedWeapon::GoodFirearms => row(
                "Good quality firearms",
                10.0,
                Some(25.0),
                (2, 0),
                true,
                Cannot,
                Firearm,
                false,
            ),
            RangedWeapon::MuscoviteHandgun => row(
                "Muscovite handgun",
                10.0,
                Some(25.0),
                (2, 0),
                true,
                Cannot,
                Firearm,
                false,
            ),
            RangedWeapon::JanissaryHandgun => row(
                "Janissary handgun",
                10.0,
                Some(35.0),
                (2, 0),
                true,
                Cannot,
                Firearm,
                false,
            ),
            RangedWeapon::Musket => row(
                "Musket",
                10.0,
                Some(30.0),
                (3, 1),
                true,
                Cannot,
                Firearm,
                true,
            ),
            RangedWeapon::HalfMusket => row(
                "Half-musket",
                10.0,
                Some(25.0),
                (3, 1),
                false,
                Cannot,
                Firearm,
                true,
            ),
            RangedWeapon::SpanishMusket => row(
                "Spanish musket",
                10.0,
                Some(35.0),
                (4, 2),
                true,
                Cannot,
                Firearm,
                true,
            ),
            RangedWeapon::Gun(gun) => {
                let g = gun.stats();
                row(
                    g.name,
                    g.range_cm.0,
                    Some(g.range_cm.1),
                    (g.effectiveness, g.effectiveness),
                    false,
                    Cannot,
                    Artillery,
                    false,
                )
            }
            RangedWeapon::Javelins => row(
                "Javelins",
                5.0,
                None,
                (0, 0),
                false,
                NoPenalty,
                Thrown,
                false,
            ),
        }
    }
}

/// Close combat weapons (BFS-CCW-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MeleeWeapon {
    HandWeapons,
    PeasantWeapons,
    ImprovisedWeapons,
    CavalryPolearms,
    InfantryPolearms,
    Pikes,
    TwoHandedWeapons,
    Lance,
    WingedHussarLance,
}

/// One row of the close combat weapons table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeleeStats {
    pub name: &'static str,
    /// Armor reduction (normal, when charging) (BFS-CCW-1).
    pub effectiveness: (i8, i8),
    /// Cancels cavalry Impetus against defending infantry (BFS-CCW-4).
    pub polearms: bool,
    /// Strikes first (BFS-CCW-5); the hussar lance only while charging.
    pub first_strike: FirstStrike,
    /// +1 die per pike base with an unengaged pike base behind it (BFS-CCW-6).
    pub multiple_ranks: bool,
    /// Broken after the first round (BFS-CCW-7).
    pub single_use: bool,
    /// Wins a drawn combat when charging (BFS-CCW-8).
    pub staggering_charge: bool,
    /// Effectiveness drops to 0 while Disorganized (BFS-CCW-9).
    pub cumbersome: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FirstStrike {
    Never,
    Always,
    WhileCharging,
}

impl MeleeWeapon {
    pub fn stats(self) -> MeleeStats {
        let base = MeleeStats {
            name: "",
            effectiveness: (0, 0),
            polearms: false,
            first_strike: FirstStrike::Never,
            multiple_ranks: false,
            single_use: false,
            staggering_charge: false,
            cumbersome: false,
        };
        match self {
            MeleeWeapon::HandWeapons => MeleeStats {
                name: "Hand weapons",
                ..base
            },
            MeleeWeapon::PeasantWeapons => MeleeStats {
                name: "Peasant weapons",
                effectiveness: (-1, -1),
                polearms: true,
                ..base
            },
            MeleeWeapon::ImprovisedWeapons => MeleeStats {
                name: "Improvised weapons",
                effectiveness: (-1, -1),
                ..base
            },
            MeleeWeapon::CavalryPolearms => MeleeStats {
                name: "Cavalry polearms",
                effectiveness: (0, 1),
                ..base
            },
            MeleeWeapon::InfantryPolearms => MeleeStats {
                name: "Infantry polearms",
                polearms: true,
                ..base
            },
            MeleeWeapon::Pikes => MeleeStats {
                name: "Pikes",
                effectiveness: (1, 1),
                polearms: true,
                first_strike: FirstStrike::Always,
                multiple_ranks: true,
                ..base
            },
            MeleeWeapon::TwoHandedWeapons => MeleeStats {
                name: "Two-handed weapons",
                effectiveness: (1, 2),
                cumbersome: true,
                ..base
            },
            MeleeWeapon::Lance => MeleeStats {
                name: "Lance",
                effectiveness: (0, 3),
                single_use: true,
                staggering_charge: true,
                ..base
            },
            MeleeWeapon::WingedHussarLance => MeleeStats {
                name: "Winged Hussar lance",
                effectiveness: (0, 3),
                single_use: true,
                staggering_charge: true,
                first_strike: FirstStrike::WhileCharging,
                ..base
            },
        }
    }
}
