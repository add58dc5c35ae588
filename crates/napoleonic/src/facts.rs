//! The modifier lists of the tables file name conditions; this is where each is decided. A roll
//! gathers the [`Facts`] of its situation and every row whose condition holds becomes a
//! modifier with its rule ID, its words and its value (a row "per" something counts once per).

use crate::tables::{Condition, Cover, ModifierRow};
use crate::vocab::{Band, Calibre, Fatigue, Rating};
use sandtable_engine::roll::Modifier;

/// Everything a modifier row may ask about one roll. Left at its default, a fact does not hold.
#[derive(Debug, Clone, Copy, Default)]
pub struct Facts {
    // The firer (NQ-FIRE-3).
    pub firer_rating: Option<Rating>,
    pub firer_rifles: bool,
    pub canister: Option<Calibre>,
    pub firer_two_rank: bool,
    pub range: Option<Band>,
    pub firer_fatigue: Fatigue,
    pub howitzers: u32,
    // The target of fire.
    pub target_column_or_square: bool,
    pub target_unlimbered: bool,
    pub target_limbered: bool,
    pub target_cover: Option<Cover>,
    pub target_skirmishers: bool,
    // The unit testing or fighting (NQ-MOR-2, NQ-MOR-4, NQ-CA-3).
    pub supported: bool,
    pub charging_flank: bool,
    pub charging_rear: bool,
    pub behind_cover: bool,
    pub artillery_fired_on_by_artillery: bool,
    pub square_facing_cavalry: bool,
    pub figures_lost: u32,
    pub disordered: bool,
    pub retreat: bool,
    pub ridden_down: bool,
    pub square_against_infantry: bool,
    pub charged_by_heavy_cavalry: bool,
    pub fired_on_by_12lb_close: bool,
    pub fire_from_flank: bool,
    pub charged_in_flank: bool,
    pub line_or_column_charged_by_cavalry: bool,
    pub charging_artillery_after_hits: bool,
    pub fatigue: Fatigue,
    pub over_half_lost: bool,
    /// 2 for outnumbered 2 to 1, 3 for 3 to 1 or more.
    pub outnumbered: u32,
    pub charger_used_both_actions: bool,
    pub long_cavalry_run: bool,
    pub loser_was_charger: bool,
    pub elite: bool,
    pub cavalry: bool,
    pub militia_like: bool,
    pub charging_uphill: bool,
    pub charging_behind_hedges: bool,
    pub charging_behind_walls: bool,
    pub echelon_against_non_echelon: bool,
    pub lighter_against_heavy_cavalry: bool,
    pub partial_contact: bool,
    pub road_column: bool,
    pub enfilade: bool,
    pub winner: bool,
    pub cavalry_against_cavalry: bool,
    pub charger_hit_flank: bool,
}

/// How many times a row applies: 0 when it does not.
pub fn times(cond: Condition, f: &Facts) -> i32 {
    let b = |x: bool| x as i32;
    match cond {
        Condition::FirerRated(r) => b(f.firer_rating == Some(r)),
        Condition::FirerRifles => b(f.firer_rifles),
        Condition::Canister(c) => b(f.canister == Some(c)),
        Condition::TargetInColumnOrSquare => b(f.target_column_or_square),
        Condition::FirerTwoRankTrained => b(f.firer_two_rank),
        Condition::Range(band) => b(f.range == Some(band)),
        Condition::FirerFatigue(l) => b(f.firer_fatigue == l && l != Fatigue::Fresh),
        Condition::TargetUnlimberedArtillery => b(f.target_unlimbered),
        Condition::TargetLimberedArtillery => b(f.target_limbered),
        Condition::TargetBehindWalls => b(f.target_cover == Some(Cover::Walls)),
        Condition::TargetBehindHedges => b(f.target_cover == Some(Cover::Hedges)),
        Condition::TargetInLightWoods => b(f.target_cover == Some(Cover::LightWoods)),
        Condition::TargetInHeavyWoods => b(f.target_cover == Some(Cover::HeavyWoods)),
        Condition::TargetInBuildings => b(f.target_cover == Some(Cover::Buildings)),
        Condition::TargetSkirmishers => b(f.target_skirmishers),
        Condition::PerHowitzer => f.howitzers as i32,
        Condition::TargetInBuildingsOrWoods => b(matches!(
            f.target_cover,
            Some(Cover::Buildings | Cover::LightWoods | Cover::HeavyWoods)
        )),
        Condition::Supported => b(f.supported),
        Condition::ChargingFlank => b(f.charging_flank),
        Condition::BehindCover => b(f.behind_cover),
        Condition::ArtilleryFiredOnByArtillery => b(f.artillery_fired_on_by_artillery),
        Condition::SquareFacingCavalry => b(f.square_facing_cavalry),
        Condition::PerTwoFiguresLost => (f.figures_lost / 2) as i32,
        // Retreat status includes the disorder penalty: never both (NQ-MOR-2 [M]).
        Condition::Disordered => b(f.disordered && !f.retreat),
        Condition::RiddenDown => b(f.ridden_down),
        Condition::SquareAgainstInfantry => b(f.square_against_infantry),
        Condition::ChargedByHeavyCavalry => b(f.charged_by_heavy_cavalry),
        Condition::FiredOnBy12lbClose => b(f.fired_on_by_12lb_close),
        Condition::FireFromFlank => b(f.fire_from_flank),
        Condition::ChargedInFlank => b(f.charged_in_flank),
        Condition::LineOrColumnChargedByCavalry => b(f.line_or_column_charged_by_cavalry),
        Condition::ChargingArtilleryAfterHits => b(f.charging_artillery_after_hits),
        Condition::RetreatStatus => b(f.retreat),
        Condition::Fatigue(l) => b(f.fatigue == l && l != Fatigue::Fresh),
        Condition::OverHalfLost => b(f.over_half_lost),
        Condition::Outnumbered2 => b(f.outnumbered == 2),
        Condition::Outnumbered3 => b(f.outnumbered >= 3),
        Condition::ChargerUsedBothActions => b(f.charger_used_both_actions),
        Condition::LongCavalryRun => b(f.long_cavalry_run),
        Condition::LoserWasCharger => b(f.loser_was_charger),
        Condition::EliteMorale => b(f.elite),
        Condition::Cavalry => b(f.cavalry),
        Condition::MilitiaLike => b(f.militia_like),
        Condition::ChargingUphill => b(f.charging_uphill),
        Condition::ChargingBehindHedges => b(f.charging_behind_hedges),
        Condition::EchelonAgainstNonEchelon => b(f.echelon_against_non_echelon),
        Condition::LighterAgainstHeavyCavalry => b(f.lighter_against_heavy_cavalry),
        Condition::PartialContact => b(f.partial_contact),
        Condition::ChargingBehindWalls => b(f.charging_behind_walls),
        Condition::RoadColumn => b(f.road_column),
        Condition::Enfilade => b(f.enfilade),
        Condition::ChargingRear => b(f.charging_rear),
        Condition::Winner => b(f.winner),
        Condition::CavalryAgainstCavalry => b(f.cavalry_against_cavalry),
        Condition::ChargerHitFlank => b(f.charger_hit_flank),
    }
}

/// The rows of `rows` that hold, as modifiers citing `rule`.
pub fn modifiers(rows: &[ModifierRow], rule: &str, f: &Facts) -> Vec<Modifier> {
    rows.iter()
        .filter_map(|row| {
            let n = times(row.when, f);
            (n != 0).then(|| {
                let reason = if n > 1 {
                    format!("{} (×{n})", row.text)
                } else {
                    row.text.clone()
                };
                Modifier::new(rule, reason, row.delta * n)
            })
        })
        .collect()
}
