//! The sheet's tables, kept as data (`assets/napoleonic/tables.ron`, built into the program so a
//! save always replays with the tables it was played with), and the lookups the rules make in
//! them. Modifier lists are data too: each row names a [`Condition`] the rules evaluate.

use crate::vocab::{Ammo, Band, BatteryRow, Calibre, CavWeight, Fatigue, Rating, Weapon};
use sandtable_engine::scenario::TerrainKind;
use serde::Deserialize;
use std::sync::OnceLock;

/// One row of a movement table: inches per action by formation (NQ-MOV-1/2).
#[derive(Debug, Clone, Deserialize)]
pub struct MoveRow {
    pub rating: Rating,
    pub line: f32,
    pub column: f32,
    pub skirmish: f32,
    pub road: f32,
    pub square: Option<f32>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ChargeDistances {
    pub light: f32,
    pub medium: f32,
    pub heavy: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ArtilleryMove {
    pub battery: BatteryRow,
    pub field_a: f32,
    pub field_b: f32,
    pub prolong: f32,
    pub road: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct RetreatMove {
    pub foot: f32,
    pub mounted: f32,
}

#[derive(Debug, Clone, Deserialize)]
pub struct MusketRow {
    pub figures: u32,
    pub removed: Vec<Option<u32>>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct SmallArmsRange {
    pub weapon: Weapon,
    pub close: Option<f32>,
    pub medium: Option<f32>,
    pub long: Option<f32>,
    pub extreme: Option<f32>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ArtilleryRange {
    pub calibre: Calibre,
    pub close: f32,
    pub medium: f32,
    pub long: f32,
    pub extreme: f32,
    /// The bracketed value of each band, read as the bounce length (NQ-ART-1).
    pub bounce: (f32, f32, f32, f32),
}

#[derive(Debug, Clone, Deserialize)]
pub struct SolidShotRow {
    pub rating: Rating,
    pub close: Option<u8>,
    pub medium: Option<u8>,
    pub long: Option<u8>,
    pub extreme: Option<u8>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ReformRow {
    pub up_to: i32,
    pub actions: u8,
}

/// Figure and model sizes, inches (G1).
#[derive(Debug, Clone, Deserialize)]
pub struct FigureSizes {
    /// Width and depth of one infantry figure.
    pub infantry: (f32, f32),
    pub cavalry: (f32, f32),
    /// One gun model, which stands for `guns_per_model` real guns.
    pub gun_model: (f32, f32),
    pub guns_per_model: u32,
    /// Between gun models in an unlimbered battery.
    pub gun_interval: f32,
    /// Between skirmishers' files.
    pub skirmish_spacing: f32,
}

/// An arm as terrain rules name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum ArmKind {
    Infantry,
    Cavalry,
    Artillery,
}

/// The cover a piece of terrain gives (NQ-FIRE-3, NQ-ART-6, NQ-MOR-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Cover {
    LightWoods,
    HeavyWoods,
    Buildings,
    /// Hedges or prepared defences: cover for what stands behind them.
    Hedges,
    /// Walls or redoubts.
    Walls,
}

/// What a kind of terrain does (G17).
#[derive(Debug, Clone, Deserialize)]
pub struct TerrainRule {
    pub kind: TerrainKind,
    /// Speed inside as a share of the open-ground rate; 0 = impassable.
    pub speed: f32,
    /// Arms that may not enter.
    pub barred: Vec<ArmKind>,
    /// Blocks the line of sight of those outside it.
    pub blocks_sight: bool,
    pub cover: Option<Cover>,
    /// Higher ground (NQ-CA-3 "charging a unit on higher ground").
    pub high: bool,
}

/// Base melee values (G9).
#[derive(Debug, Clone, Deserialize)]
pub struct MeleeValues {
    /// Infantry by rating A..E.
    pub infantry: Vec<i32>,
    pub light_cavalry: i32,
    pub medium_cavalry: i32,
    pub heavy_cavalry: i32,
    pub unlimbered_artillery: i32,
    pub limbered_artillery: i32,
    /// The modified value is never below this.
    pub minimum: i32,
}

/// Distances the rules name, inches.
#[derive(Debug, Clone, Deserialize)]
pub struct Distances {
    /// NQ-MOR-2: a friend this close supports.
    pub support: f32,
    /// NQ-MOR-2: a 12lb battery this close.
    pub twelve_pounder_close: f32,
    /// NQ-CA-1 step 5: a charger that fails halts this far short.
    pub halt_short: f32,
    /// NQ-CA-7: added to the cavalry's run if it turned or changed formation.
    pub turn_allowance: f32,
    /// NQ-CA-7: up to this run the defender may only fire.
    pub no_change_within: f32,
    /// NQ-CA-7: from this run, changes get +2.
    pub bonus_from: f32,
    /// G10: overlap of an enemy's flank that counts towards the enfilade value.
    pub enfilade_reach: f32,
    /// G14: no enemy this close, to recover fatigue.
    pub recovery_clear: f32,
    /// G6: a leader this close to a routing unit is attached to it.
    pub leader_attached: f32,
    /// The gap a move keeps from the enemy unless it charges.
    pub keep_clear: f32,
}

/// What a modifier row applies to; the rules evaluate each against the situation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Condition {
    FirerRated(Rating),
    FirerRifles,
    Canister(Calibre),
    TargetInColumnOrSquare,
    FirerTwoRankTrained,
    Range(Band),
    FirerFatigue(Fatigue),
    TargetUnlimberedArtillery,
    TargetLimberedArtillery,
    TargetBehindWalls,
    TargetBehindHedges,
    TargetInLightWoods,
    TargetInHeavyWoods,
    TargetInBuildings,
    TargetSkirmishers,
    PerHowitzer,
    TargetInBuildingsOrWoods,
    Supported,
    ChargingFlank,
    BehindCover,
    ArtilleryFiredOnByArtillery,
    SquareFacingCavalry,
    PerTwoFiguresLost,
    Disordered,
    RiddenDown,
    SquareAgainstInfantry,
    ChargedByHeavyCavalry,
    FiredOnBy12lbClose,
    FireFromFlank,
    ChargedInFlank,
    LineOrColumnChargedByCavalry,
    ChargingArtilleryAfterHits,
    RetreatStatus,
    Fatigue(Fatigue),
    OverHalfLost,
    Outnumbered2,
    Outnumbered3,
    ChargerUsedBothActions,
    LongCavalryRun,
    LoserWasCharger,
    EliteMorale,
    Cavalry,
    MilitiaLike,
    ChargingUphill,
    ChargingBehindHedges,
    EchelonAgainstNonEchelon,
    LighterAgainstHeavyCavalry,
    PartialContact,
    ChargingBehindWalls,
    RoadColumn,
    Enfilade,
    ChargingRear,
    Winner,
    CavalryAgainstCavalry,
    ChargerHitFlank,
}

/// A modifier row: its value, when it applies, and its words.
#[derive(Debug, Clone, Deserialize)]
pub struct ModifierRow {
    pub delta: i32,
    pub when: Condition,
    pub text: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename = "Tables", deny_unknown_fields)]
pub struct Tables {
    pub format: u32,
    pub infantry_move: Vec<MoveRow>,
    pub cavalry_move: Vec<MoveRow>,
    pub cavalry_charge: ChargeDistances,
    pub artillery_move: Vec<ArtilleryMove>,
    pub retreat_move: RetreatMove,
    pub musket_columns: Vec<(i32, i32)>,
    pub musket_rows: Vec<MusketRow>,
    pub no_effect_at_or_below: i32,
    pub small_arms: Vec<SmallArmsRange>,
    pub artillery_ranges: Vec<ArtilleryRange>,
    pub howitzer_canister: f32,
    pub canister_bonus: Vec<(Calibre, i32)>,
    pub solid_shot: Vec<SolidShotRow>,
    pub reform: Vec<ReformRow>,
    pub casualty_columns: Vec<u32>,
    pub casualties: Vec<Vec<u32>>,
    pub ammunition: Vec<Ammo>,
    pub fire_modifiers: Vec<ModifierRow>,
    pub damage_modifiers: Vec<ModifierRow>,
    pub morale_modifiers: Vec<ModifierRow>,
    pub reform_modifiers: Vec<ModifierRow>,
    pub melee_modifiers: Vec<ModifierRow>,
    pub casualty_modifiers: Vec<ModifierRow>,
    pub figures: FigureSizes,
    pub terrain: Vec<TerrainRule>,
    pub melee: MeleeValues,
    pub distances: Distances,
}

/// The tables file, built into the program.
pub const TABLES_RON: &str = include_str!("../../../assets/napoleonic/tables.ron");

/// The tables, parsed once. The file is part of the program and checked by its tests; a broken
/// one stops the ruleset at its first use with the parser's message.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| match ron::from_str(TABLES_RON) {
        Ok(t) => t,
        Err(e) => panic!("assets/napoleonic/tables.ron does not parse: {e}"),
    })
}

impl Tables {
    /// Figures removed by musketry or canister (NQ-FIRE-1/2): `figures` firing (rounded down to a
    /// multiple of 4, above 48 in blocks of 48, G11) and the modified roll (above 12 counts 12).
    pub fn musket_removed(&self, figures: u32, roll: i32) -> u32 {
        if roll <= self.no_effect_at_or_below {
            return 0;
        }
        let roll = roll.min(12);
        let Some(col) = self
            .musket_columns
            .iter()
            .position(|(lo, hi)| (*lo..=*hi).contains(&roll))
        else {
            return 0; // below the first column: no effect
        };
        let mut left = figures / 4 * 4;
        let mut total = 0;
        while left >= 4 {
            let block = left.min(48);
            total += self
                .musket_rows
                .iter()
                .find(|r| r.figures == block)
                .and_then(|r| r.removed.get(col).copied().flatten())
                .unwrap_or(0);
            left -= block;
        }
        total
    }

    /// The figures removed for each face of a D6 plus `modifier`: the exact distribution a
    /// preview shows (`p[k]` = chance of exactly k figures).
    pub fn musket_distribution(&self, figures: u32, modifier: i32) -> Vec<f64> {
        let mut dist = vec![0.0; 1];
        for face in 1..=6 {
            let k = self.musket_removed(figures, face + modifier) as usize;
            if dist.len() <= k {
                dist.resize(k + 1, 0.0);
            }
            dist[k] += 1.0 / 6.0;
        }
        dist
    }

    pub fn range_band(&self, weapon: Weapon, inches: f32) -> Option<Band> {
        let r = self.small_arms.iter().find(|r| r.weapon == weapon)?;
        [
            (Band::Close, r.close),
            (Band::Medium, r.medium),
            (Band::Long, r.long),
            (Band::Extreme, r.extreme),
        ]
        .into_iter()
        .find_map(|(b, limit)| limit.filter(|l| inches <= *l + 1e-3).map(|_| b))
    }

    pub fn artillery_range(&self, calibre: Calibre) -> &ArtilleryRange {
        self.artillery_ranges
            .iter()
            .find(|r| r.calibre == calibre)
            .unwrap_or(&self.artillery_ranges[0])
    }

    /// The band of an artillery shot at `inches`, and its bounce length.
    pub fn artillery_band(&self, calibre: Calibre, inches: f32) -> Option<(Band, f32)> {
        let r = self.artillery_range(calibre);
        let e = 1e-3;
        if inches <= r.close + e {
            Some((Band::Close, r.bounce.0))
        } else if inches <= r.medium + e {
            Some((Band::Medium, r.bounce.1))
        } else if inches <= r.long + e {
            Some((Band::Long, r.bounce.2))
        } else if inches <= r.extreme + e {
            Some((Band::Extreme, r.bounce.3))
        } else {
            None
        }
    }

    pub fn canister_bonus(&self, calibre: Calibre) -> i32 {
        self.canister_bonus
            .iter()
            .find(|(c, _)| *c == calibre)
            .map_or(0, |(_, b)| *b)
    }

    /// The lowest D6 face that hits with solid shot (NQ-ART-4).
    pub fn solid_shot_needs(&self, rating: Rating, band: Band) -> Option<u8> {
        let row = self
            .solid_shot
            .iter()
            .find(|r| r.rating == rating)
            .or_else(|| self.solid_shot.last())?;
        match band {
            Band::Close => row.close,
            Band::Medium => row.medium,
            Band::Long => row.long,
            Band::Extreme => row.extreme,
        }
    }

    /// Actions needed to reform after a modified reform roll (NQ-MOR-3; below 1 counts as 1-2).
    pub fn reform_actions(&self, roll: i32) -> u8 {
        self.reform
            .iter()
            .find(|r| roll <= r.up_to)
            .map_or(4, |r| r.actions)
    }

    /// Figures lost on the close action casualty chart (NQ-CA-4): rows 1..7 (beyond them the
    /// nearest row, G22), columns by the charging figures in contact.
    pub fn casualties(&self, roll: i32, charging_figures: u32) -> u32 {
        let row = (roll.clamp(1, self.casualties.len() as i32) - 1) as usize;
        let col = self
            .casualty_columns
            .iter()
            .position(|limit| charging_figures <= *limit)
            .unwrap_or(self.casualty_columns.len() - 1);
        self.casualties[row].get(col).copied().unwrap_or(0)
    }

    pub fn move_row(&self, cavalry: bool, rating: Rating) -> &MoveRow {
        let rows = if cavalry {
            &self.cavalry_move
        } else {
            &self.infantry_move
        };
        // D and E move as C (G19).
        rows.iter()
            .find(|r| r.rating == rating)
            .unwrap_or_else(|| rows.last().expect("a movement table has rows"))
    }

    /// What `kind` of terrain does (open ground if the file does not say).
    pub fn terrain(&self, kind: TerrainKind) -> Option<&TerrainRule> {
        self.terrain.iter().find(|t| t.kind == kind)
    }

    /// The base melee value of a unit (G9).
    pub fn base_melee(&self, arm: crate::vocab::Arm, rating: Rating, limbered: bool) -> i32 {
        let inf = self
            .melee
            .infantry
            .get(rating as usize)
            .copied()
            .unwrap_or(10);
        match arm {
            crate::vocab::Arm::Infantry => inf,
            crate::vocab::Arm::Cavalry(CavWeight::Light) => inf + self.melee.light_cavalry,
            crate::vocab::Arm::Cavalry(CavWeight::Medium) => inf + self.melee.medium_cavalry,
            crate::vocab::Arm::Cavalry(CavWeight::Heavy) => inf + self.melee.heavy_cavalry,
            crate::vocab::Arm::Artillery { .. } if limbered => self.melee.limbered_artillery,
            crate::vocab::Arm::Artillery { .. } => self.melee.unlimbered_artillery,
        }
    }

    pub fn artillery_move(&self, row: BatteryRow) -> &ArtilleryMove {
        self.artillery_move
            .iter()
            .find(|r| r.battery == row)
            .unwrap_or(&self.artillery_move[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_parse() {
        let t = tables();
        assert_eq!(t.musket_rows.len(), 12);
        assert!(t.musket_rows.iter().all(|r| r.removed.len() == 14));
        assert_eq!(t.casualties.len(), 7);
    }
}
