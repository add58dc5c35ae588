//! The pre-battle tables of the book: the scenario tables (BFS-SCN-10, -11, -16), the Additional
//! Effects table (BFS-SCN-24), the Reconnaissance Effects and their costs (BFS-SCN-36, -42) and
//! the number of terrain elements (BFS-SCN-19).

use serde::{Deserialize, Serialize};

/// The book's ten Skirmish scenarios (BFS-SCN-52).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BookScenario {
    Patrol,
    TakeAndHold,
    DefendTheVillage,
    AttackOnAVillage,
    DefendTheCrossing,
    CaptureTheCrossing,
    Forage,
    DelayTheEnemy,
    Ambush,
    NightAttack,
}

impl BookScenario {
    pub const ALL: [BookScenario; 10] = [
        Self::Patrol,
        Self::TakeAndHold,
        Self::DefendTheVillage,
        Self::AttackOnAVillage,
        Self::DefendTheCrossing,
        Self::CaptureTheCrossing,
        Self::Forage,
        Self::DelayTheEnemy,
        Self::Ambush,
        Self::NightAttack,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Patrol => "Patrol",
            Self::TakeAndHold => "Take and Hold",
            Self::DefendTheVillage => "Defend the village",
            Self::AttackOnAVillage => "Attack on a village",
            Self::DefendTheCrossing => "Defend the crossing",
            Self::CaptureTheCrossing => "Capture the crossing",
            Self::Forage => "Forage",
            Self::DelayTheEnemy => "Delay the enemy",
            Self::Ambush => "Ambush",
            Self::NightAttack => "Night attack",
        }
    }

    /// The scenario's value in FSP (BFS-SCN-11, -16): its printed minimum (A-36: the variable
    /// values "*" depend on scenario text the sources lack), less 2 for Forage, Ambush and Night
    /// attack kept by a Weaker player who commands the Defensive force.
    pub fn value(self, weaker_is_defensive: bool) -> u32 {
        let (v, defensive) = match self {
            Self::Patrol | Self::TakeAndHold | Self::AttackOnAVillage => (0, 0),
            Self::CaptureTheCrossing | Self::DelayTheEnemy => (0, 0),
            Self::DefendTheVillage | Self::DefendTheCrossing => (1, 1),
            Self::Forage => (2, 0),
            Self::Ambush => (3, 1),
            Self::NightAttack => (4, 2),
        };
        if weaker_is_defensive { defensive } else { v }
    }

    /// Whether the value printed is a minimum that varies (the book's "*").
    pub fn variable(self) -> bool {
        matches!(
            self,
            Self::DefendTheVillage | Self::DefendTheCrossing | Self::DelayTheEnemy
        )
    }

    /// Results a Weaker player commanding the Defensive force may discard (BFS-SCN-16).
    pub fn discardable_by_defensive(self) -> bool {
        matches!(self, Self::Forage | Self::Ambush | Self::NightAttack)
    }
}

/// Which table the scenario is rolled on (BFS-SCN-9 steps C and D).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScenarioTable {
    /// Equal FSP: one D10, no choice (BFS-SCN-10).
    Equal,
    /// Unequal FSP: the Weaker rolls a D10 per CP and picks one (BFS-SCN-11).
    Unequal,
    /// One Defensive Skirmish Force present (BFS-SCN-16).
    Defensive,
}

impl ScenarioTable {
    pub fn rule(self) -> &'static str {
        match self {
            Self::Equal => "BFS-SCN-10",
            Self::Unequal => "BFS-SCN-11",
            Self::Defensive => "BFS-SCN-16",
        }
    }

    /// The scenario a D10 face (1..=10, "0" is 10) gives on this table.
    pub fn scenario(self, face: u8) -> BookScenario {
        use BookScenario::*;
        match self {
            Self::Equal => match face {
                1 | 2 => Patrol,
                3 | 4 => TakeAndHold,
                5 | 6 => AttackOnAVillage,
                7 | 8 => CaptureTheCrossing,
                _ => DelayTheEnemy,
            },
            Self::Unequal => match face {
                1 => Patrol,
                2 => TakeAndHold,
                3 => DefendTheVillage,
                4 => AttackOnAVillage,
                5 => DefendTheCrossing,
                6 => CaptureTheCrossing,
                7 => Forage,
                8 => DelayTheEnemy,
                9 => Ambush,
                _ => NightAttack,
            },
            Self::Defensive => match face {
                1..=3 => DefendTheVillage,
                4 | 5 => DefendTheCrossing,
                6 => Forage,
                7 | 8 => DelayTheEnemy,
                9 => Ambush,
                _ => NightAttack,
            },
        }
    }
}

/// The Additional Effects (BFS-SCN-24), bought for the Weaker player against the Stronger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Effect {
    Fatigue,
    Exhaustion,
    Enthusiasm,
    MarchLosses,
    Insubordination,
    CowardlyCommander,
    Delay,
    UnexpectedReinforcements,
    Panic,
    ChoiceOfTerrain,
    GoodBadDay,
}

impl Effect {
    /// The effect a D10 face gives (BFS-SCN-24; "0" is 10).
    pub fn from_face(face: u8) -> Effect {
        match face {
            1 => Self::Fatigue,
            2 => Self::Enthusiasm,
            3 => Self::MarchLosses,
            4 => Self::Insubordination,
            5 => Self::CowardlyCommander,
            6 => Self::Delay,
            7 => Self::UnexpectedReinforcements,
            8 => Self::Panic,
            9 => Self::ChoiceOfTerrain,
            _ => Self::GoodBadDay,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Fatigue => "Fatigue",
            Self::Exhaustion => "Exhaustion",
            Self::Enthusiasm => "Enthusiasm",
            Self::MarchLosses => "March Losses",
            Self::Insubordination => "Insubordination",
            Self::CowardlyCommander => "Cowardly Commander",
            Self::Delay => "Delay",
            Self::UnexpectedReinforcements => "Unexpected Reinforcements",
            Self::Panic => "Panic",
            Self::ChoiceOfTerrain => "Choice of Terrain",
            Self::GoodBadDay => "Good/Bad Day",
        }
    }

    pub fn rule(self) -> &'static str {
        match self {
            Self::Fatigue => "BFS-SCN-25",
            Self::Exhaustion => "BFS-SCN-26",
            Self::Enthusiasm => "BFS-SCN-27",
            Self::MarchLosses => "BFS-SCN-28",
            Self::Insubordination => "BFS-SCN-29",
            Self::CowardlyCommander => "BFS-SCN-30",
            Self::Delay => "BFS-SCN-31",
            Self::UnexpectedReinforcements => "BFS-SCN-32",
            Self::Panic => "BFS-SCN-33",
            Self::ChoiceOfTerrain | Self::GoodBadDay => "BFS-SCN-34",
        }
    }

    /// The effects on the D10, in face order.
    pub const ROLLED: [Effect; 10] = [
        Self::Fatigue,
        Self::Enthusiasm,
        Self::MarchLosses,
        Self::Insubordination,
        Self::CowardlyCommander,
        Self::Delay,
        Self::UnexpectedReinforcements,
        Self::Panic,
        Self::ChoiceOfTerrain,
        Self::GoodBadDay,
    ];

    /// May be chosen under Choice of Effects (BFS-OPT-4): all but March Losses, Cowardly
    /// Commander and Exhaustion.
    pub fn choosable(self) -> bool {
        !matches!(
            self,
            Self::MarchLosses | Self::CowardlyCommander | Self::Exhaustion
        )
    }

    /// Taken at most once; a duplicate roll is rolled again (BFS-SCN-24).
    pub fn once(self) -> bool {
        matches!(
            self,
            Self::Enthusiasm
                | Self::CowardlyCommander
                | Self::ChoiceOfTerrain
                | Self::GoodBadDay
                | Self::Exhaustion
        )
    }
}

/// Reconnaissance Effects (BFS-SCN-36).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ReconEffect {
    DecisiveMoment,
    BigMouthedPrisoner,
    ForcedMarch,
    FlankingManeuver,
    Ambush,
    Splitting,
    Confusion,
    Chaos,
    Outmaneuver,
    CutOffTheRetreat,
}

impl ReconEffect {
    pub const ALL: [ReconEffect; 10] = [
        Self::DecisiveMoment,
        Self::BigMouthedPrisoner,
        Self::ForcedMarch,
        Self::FlankingManeuver,
        Self::Ambush,
        Self::Splitting,
        Self::Confusion,
        Self::Chaos,
        Self::Outmaneuver,
        Self::CutOffTheRetreat,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::DecisiveMoment => "Decisive Moment",
            Self::BigMouthedPrisoner => "Big Mouthed Prisoner",
            Self::ForcedMarch => "Forced March",
            Self::FlankingManeuver => "Flanking Maneuver",
            Self::Ambush => "Ambush",
            Self::Splitting => "Splitting",
            Self::Confusion => "Confusion",
            Self::Chaos => "Chaos",
            Self::Outmaneuver => "Outmaneuver",
            Self::CutOffTheRetreat => "Cut Off the Retreat",
        }
    }

    pub fn rule(self) -> &'static str {
        match self {
            Self::DecisiveMoment => "BFS-SCN-37",
            Self::BigMouthedPrisoner => "BFS-SCN-38",
            Self::ForcedMarch => "BFS-SCN-39",
            Self::FlankingManeuver => "BFS-SCN-40",
            Self::Ambush => "BFS-SCN-41",
            Self::Splitting => "BFS-SCN-43",
            Self::Confusion => "BFS-SCN-44",
            Self::Chaos => "BFS-SCN-45",
            Self::Outmaneuver => "BFS-SCN-46",
            Self::CutOffTheRetreat => "BFS-SCN-47",
        }
    }

    /// An Effect Affecting the Enemy, under the extra cap of BFS-SCN-42.
    pub fn against_enemy(self) -> bool {
        matches!(
            self,
            Self::Splitting
                | Self::Confusion
                | Self::Chaos
                | Self::Outmaneuver
                | Self::CutOffTheRetreat
        )
    }

    /// How many times it may be bought (BFS-SCN-36); `None` where only the caps limit it.
    pub fn most(self) -> Option<u32> {
        match self {
            Self::ForcedMarch => Some(3),
            Self::Confusion => Some(2),
            Self::Splitting | Self::CutOffTheRetreat => None,
            _ => Some(1),
        }
    }

    /// Its cost in RP when `already` of it are bought; `bases` is the unit's for the Forced March
    /// (BFS-SCN-39). Confusion's second costs 9 (two cost 16, BFS-SCN-44); Flanking Maneuver and
    /// Ambush are for up to 3 bases at their base cost (8 by A-2, and 10).
    pub fn cost(self, already: u32, bases: u32) -> u32 {
        match self {
            Self::DecisiveMoment => 3,
            Self::BigMouthedPrisoner | Self::Splitting => 8,
            Self::ForcedMarch => {
                if bases > 10 {
                    18
                } else if bases > 4 {
                    12
                } else {
                    6
                }
            }
            Self::FlankingManeuver => 8,
            Self::Ambush | Self::Outmaneuver => 10,
            Self::Confusion => {
                if already == 0 {
                    7
                } else {
                    9
                }
            }
            Self::Chaos => 9,
            Self::CutOffTheRetreat => 12,
        }
    }

    /// Whether the battle in Sandtable plays the effect yet; the others are refused in the
    /// menu with that reason.
    pub fn played(self) -> bool {
        matches!(
            self,
            Self::ForcedMarch
                | Self::Outmaneuver
                | Self::DecisiveMoment
                | Self::CutOffTheRetreat
                | Self::Chaos
                | Self::BigMouthedPrisoner
                | Self::Confusion
        )
    }
}

/// How many Effects Affecting the Enemy a player may buy against an opponent of this FSP
/// (BFS-SCN-42).
pub fn enemy_effects_allowed(opponent_fsp: u32) -> u32 {
    match opponent_fsp {
        0..=5 => 0,
        6..=10 => 1,
        11..=15 => 2,
        _ => 3,
    }
}

/// Terrain elements for a table (BFS-SCN-19): 4 for 100 × 100 cm, one more per full 20 cm above
/// 100 cm on each side.
pub fn terrain_elements(width: f32, depth: f32) -> u32 {
    let extra = |side: f32| (((side - 100.0).max(0.0) + 1e-3) / 20.0).floor() as u32;
    4 + extra(width) + extra(depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BFS-SCN-19's example: a 129 × 157 cm table has 7 elements.
    #[test]
    fn bfs_scn_19_terrain_elements() {
        assert_eq!(terrain_elements(129.0, 157.0), 7);
        assert_eq!(terrain_elements(100.0, 100.0), 4);
        assert_eq!(terrain_elements(120.0, 120.0), 6);
        assert_eq!(terrain_elements(119.9, 139.9), 5);
    }

    /// BFS-SCN-42: the cap on Effects Affecting the Enemy by the opponent's FSP.
    #[test]
    fn bfs_scn_42_enemy_effects_cap() {
        let caps: Vec<u32> = [5, 6, 10, 11, 15, 16, 30]
            .iter()
            .map(|f| enemy_effects_allowed(*f))
            .collect();
        assert_eq!(caps, [0, 1, 1, 2, 2, 3, 3]);
    }

    /// BFS-SCN-39 and -44: Forced March by the unit's bases; two Confusions cost 16, not 14.
    #[test]
    fn bfs_scn_39_and_44_costs() {
        let fm = |b| ReconEffect::ForcedMarch.cost(0, b);
        assert_eq!((fm(4), fm(5), fm(10), fm(11)), (6, 12, 12, 18));
        let c = ReconEffect::Confusion;
        assert_eq!(c.cost(0, 0) + c.cost(1, 0), 16);
    }

    /// BFS-SCN-10, -11, -16: every face of every table.
    #[test]
    fn bfs_scn_10_11_16_scenario_tables() {
        use BookScenario::*;
        let t = |table: ScenarioTable| -> Vec<BookScenario> {
            (1..=10).map(|f| table.scenario(f)).collect()
        };
        assert_eq!(
            t(ScenarioTable::Equal),
            [
                Patrol,
                Patrol,
                TakeAndHold,
                TakeAndHold,
                AttackOnAVillage,
                AttackOnAVillage,
                CaptureTheCrossing,
                CaptureTheCrossing,
                DelayTheEnemy,
                DelayTheEnemy
            ]
        );
        assert_eq!(
            t(ScenarioTable::Unequal),
            [
                Patrol,
                TakeAndHold,
                DefendTheVillage,
                AttackOnAVillage,
                DefendTheCrossing,
                CaptureTheCrossing,
                Forage,
                DelayTheEnemy,
                Ambush,
                NightAttack
            ]
        );
        assert_eq!(
            t(ScenarioTable::Defensive),
            [
                DefendTheVillage,
                DefendTheVillage,
                DefendTheVillage,
                DefendTheCrossing,
                DefendTheCrossing,
                Forage,
                DelayTheEnemy,
                DelayTheEnemy,
                Ambush,
                NightAttack
            ]
        );
        // Values, and the defensive discount of 2 (BFS-SCN-16).
        assert_eq!(NightAttack.value(false), 4);
        assert_eq!(NightAttack.value(true), 2);
        assert_eq!(Forage.value(true), 0);
        assert_eq!(Ambush.value(true), 1);
    }
}
