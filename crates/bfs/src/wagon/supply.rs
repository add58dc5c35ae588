//! Ammunition wagons (BFS-WAG-10, BFS-WAG-11, BFS-AMM-5, BFS-AMM-8, BFS-WGN-8): under the
//! optional Ammunition rules a unit within its Basic Move of a friendly ammunition wagon takes
//! ammunition from it as a Special Maneuver: 1 of them and +3 Ammunition Units counting, never
//! above its start (BFS-AMM-5); 2 of them and its ammunition back under the test method, with no
//! Skill test (BFS-AMM-8; the book's two counts, digest A-3). Each time, a die: on a 0 the unit
//! tests Skill (no commander may help; +2 unless it has poor quality firearms or a matchlock),
//! and a failure blows the wagon up. An ammunition wagon lost to anything but close combat blows
//! up as well (BFS-WAG-3).
//!
//! The blast (digest A-4): every base within 5 cm of the wagon, of either side, loses 1 SP, and
//! the unit taking ammunition loses 1 SP even when none of its bases is that close. A lone
//! commander near the wagon is not harmed: the book speaks of bases of units.

use crate::ammunition::Supply;
use crate::dice::Modifier;
use crate::event::Event;
use crate::ids::UnitId;
use crate::losses::{self, LossCause};
use crate::state::{Game, UnitStatus};
use crate::weapons::RangedWeapon;
use sandtable_engine::RuleError;

/// Every base this close to an exploding ammunition wagon loses 1 SP (BFS-WAG-11).
pub const BLAST_CM: f32 = 5.0;
/// A counting unit takes this many Ammunition Units from the wagon (BFS-AMM-5).
pub const COUNTING_UNITS: u8 = 3;
/// The explosion die's face that threatens an explosion: a "0" (BFS-WAG-11).
pub const DANGER_FACE: u8 = 10;
/// Skill bonus on the explosion test but for poor firearms and matchlocks (BFS-WAG-11).
pub const SAFE_HANDS_BONUS: i32 = 2;

/// Special Maneuvers taking ammunition from a wagon costs: 1 counting, 2 under the test method
/// (BFS-AMM-5, BFS-AMM-8).
pub fn maneuvers(game: &Game, unit: UnitId) -> u8 {
    match game.unit(unit).supply {
        Some(Supply::Test { .. }) => 2,
        _ => 1,
    }
}

/// May `unit` take ammunition from `wagon` now? Its side's ammunition wagon on the table,
/// within the unit's Basic Move, and the unit short of ammunition.
pub fn check_take(game: &Game, unit: UnitId, wagon: UnitId) -> Result<(), RuleError> {
    let u = game.unit(unit);
    if !super::rules_apply(game) || u.supply.is_none() {
        return Err(RuleError::new(
            "BFS-WAG-10",
            "Ammunition is taken from wagons only under the optional Ammunition rules.",
        ));
    }
    let w = game.unit(wagon);
    if !super::is_ammunition_wagon(game, wagon) {
        return Err(RuleError::new(
            "BFS-WAG-10",
            format!(
                "{} is not an ammunition wagon: only those supply ammunition.",
                w.name
            ),
        ));
    }
    if w.side != u.side || w.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            "BFS-WAG-10",
            format!("{} is not one of this side's wagons on the table.", w.name),
        ));
    }
    let basic = game.unit_profile(unit).movement.basic;
    let d = sandtable_geometry::distance::set_distance(&u.bases, &w.bases).unwrap_or(f32::MAX);
    if d > basic + sandtable_geometry::tolerance::LIMIT_EPS {
        return Err(RuleError::new(
            "BFS-WAG-10",
            format!(
                "{} is {d:.1} cm from {}: ammunition is taken within the unit's Basic Move ({basic} cm).",
                u.name, w.name
            ),
        ));
    }
    match u.supply {
        Some(Supply::Counting { halves, start }) if halves >= start => Err(RuleError::new(
            "BFS-AMM-5",
            format!(
                "{} has all the ammunition it began with: a unit never takes more.",
                u.name
            ),
        )),
        Some(Supply::Test { out: false, .. }) => Err(RuleError::new(
            "BFS-AMM-8",
            format!("{} still has ammunition.", u.name),
        )),
        _ => Ok(()),
    }
}

/// Takes ammunition from the wagon (BFS-AMM-5, BFS-AMM-8), then the explosion check
/// (BFS-WAG-11).
pub fn take(game: &mut Game, unit: UnitId, wagon: UnitId, events: &mut Vec<Event>) {
    let Some(supply) = game.unit(unit).supply else {
        return;
    };
    let (rule, got) = match supply {
        Supply::Counting { halves, start } => {
            let after = (halves + 2 * COUNTING_UNITS).min(start);
            game.unit_mut(unit).supply = Some(Supply::Counting {
                halves: after,
                start,
            });
            (
                "BFS-AMM-5",
                format!(
                    "{} Ammunition Units ({} now)",
                    crate::ammunition::half_units(after - halves),
                    crate::ammunition::half_units(after)
                ),
            )
        }
        Supply::Test { .. } => {
            game.unit_mut(unit).supply = Some(Supply::Test {
                shot_before: true,
                out: false,
            });
            ("BFS-AMM-8", "its ammunition back".to_string())
        }
    };
    events.push(Event::Ruling {
        rule: rule.into(),
        text: format!(
            "{} takes {got} from {}.",
            game.unit(unit).name,
            game.unit(wagon).name
        ),
    });
    explosion_check(game, unit, wagon, events);
}

/// The explosion check (BFS-WAG-11): a die; on a 0 a Skill test of the unit taking ammunition,
/// at +2 unless it shoots poor quality firearms or a matchlock, and no commander may modify it.
fn explosion_check(game: &mut Game, unit: UnitId, wagon: UnitId, events: &mut Vec<Event>) {
    let face = game.dice.d10s(1)[0];
    let danger = face == DANGER_FACE;
    events.push(Event::Ruling {
        rule: "BFS-WAG-11".into(),
        text: format!(
            "Explosion die: {}{}",
            face % 10,
            if danger {
                ": a spark! The unit tests its Skill."
            } else {
                ": the powder is handled safely."
            }
        ),
    });
    if !danger {
        return;
    }
    let p = game.unit_profile(unit);
    let careless = p
        .ranged
        .is_some_and(|w| w == RangedWeapon::PoorFirearms || w.stats(p.is_mounted()).matchlock);
    let modifiers = if careless {
        Vec::new()
    } else {
        vec![Modifier::new(
            "BFS-WAG-11",
            "neither poor quality firearms nor a matchlock",
            SAFE_HANDS_BONUS,
        )]
    };
    let passed = crate::skill::test(
        game,
        crate::skill::Tester::Unit(unit),
        modifiers,
        crate::skill::Test {
            rule: "BFS-WAG-11",
            cause: "a spark while it takes ammunition from the wagon".into(),
            passed: "passed: no explosion",
            failed: "failed: the wagon explodes",
        },
        events,
    );
    if !passed {
        let at = game.unit(wagon).bases.clone();
        explode(game, wagon, &at, Some(unit), events);
    }
}

/// Does losing its last Strength Point this way blow the wagon up: an ammunition wagon lost to
/// anything but close combat (BFS-WAG-3)?
pub fn explodes_when_lost(game: &Game, unit: UnitId, cause: LossCause) -> bool {
    super::rules_apply(game)
        && cause != LossCause::CloseCombat
        && super::is_ammunition_wagon(game, unit)
}

/// The ammunition wagon explodes (BFS-WAG-11, digest A-4): it is destroyed, every base of any
/// unit within 5 cm of it loses 1 SP, and the unit taking ammunition, if one was, loses 1 SP
/// even with no base that close.
/// `at` is where the wagon stood (its bases are already gone when fire destroyed it).
pub fn explode(
    game: &mut Game,
    wagon: UnitId,
    at: &[sandtable_geometry::Rect],
    taker: Option<UnitId>,
    events: &mut Vec<Event>,
) {
    let blast_of = at.to_vec();
    if game.unit(wagon).status == UnitStatus::OnTable {
        losses::destroy_unit(
            game,
            wagon,
            "BFS-WAG-11",
            "its powder exploded".into(),
            events,
        );
    }
    let hit: Vec<(UnitId, u32)> = game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable && u.id != wagon)
        .map(|u| {
            let near = u
                .bases
                .iter()
                .filter(|b| {
                    blast_of.iter().any(|w| {
                        sandtable_geometry::distance::distance(w, b)
                            .is_ok_and(|d| d <= BLAST_CM + sandtable_geometry::tolerance::LIMIT_EPS)
                    })
                })
                .count() as u32;
            let n = if Some(u.id) == taker {
                near.max(1)
            } else {
                near
            };
            (u.id, n)
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    for (u, sp) in hit {
        losses::apply(
            game,
            u,
            sp,
            LossCause::Shooting,
            "the ammunition wagon's explosion: 1 SP for each base within 5 cm (BFS-WAG-11)",
            events,
        );
    }
}

/// The side's ammunition wagons `unit` may take ammunition from now, in id order.
pub fn wagons_in_reach(game: &Game, unit: UnitId) -> Vec<UnitId> {
    if game.unit(unit).supply.is_none() {
        return Vec::new();
    }
    game.units_on_table(game.unit(unit).side)
        .filter(|w| check_take(game, unit, w.id).is_ok())
        .map(|w| w.id)
        .collect()
}
