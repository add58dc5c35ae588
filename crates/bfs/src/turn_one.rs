//! Additional Effects of the pre-battle sequence that strike in turn 1 (BFS-SCN-24): March
//! Losses at the start of the Orders Phase (BFS-SCN-28) and Panic at the start of the Movement
//! Phase (BFS-SCN-33). Each picks a random unit of the side it strikes with the battle's dice, as
//! the book picks it then (after deployment: the whole unit, BFS-SCN-5).

use crate::event::Event;
use crate::ids::{Side, UnitId};
use crate::losses::LossCause;
use crate::profile::{SpecialRule, UnitKind};
use crate::state::{Game, MoraleLevel, UnitStatus};

/// Big Mouthed Prisoner (BFS-SCN-38): in turn 1 `side` gives its orders first and face up,
/// because the enemy bought the prisoner.
pub fn prisoner_talks(game: &Game, side: Side) -> bool {
    game.turn.number == 1
        && game
            .info
            .pre_battle
            .big_mouthed_prisoner
            .contains(&side.other().index())
}

/// A random unit of `side` on the table among those `eligible`, by a die.
fn pick(game: &mut Game, side: Side, eligible: impl Fn(&Game, UnitId) -> bool) -> Option<UnitId> {
    let units: Vec<UnitId> = game
        .units
        .iter()
        .filter(|u| u.side == side && u.status == UnitStatus::OnTable)
        .map(|u| u.id)
        .filter(|u| eligible(game, *u))
        .collect();
    if units.is_empty() {
        return None;
    }
    let face = game.dice.roll(units.len() as u32) as usize;
    Some(units[face - 1])
}

/// At the start of turn 1's first Orders Phase: each March Losses takes 1 base from a random
/// unit, 2 from an Insubordinate or Rabble one (BFS-SCN-28). They count as losses only if the
/// unit is destroyed or flees by the end ([`crate::victory`]).
pub fn at_first_orders(game: &mut Game, events: &mut Vec<Event>) {
    let sides = std::mem::take(&mut game.info.pre_battle.march_losses);
    for side in sides.into_iter().filter(|s| *s < 2) {
        // Guns and wagons are not marching companies: a unit of men is picked.
        let Some(unit) = pick(game, Side(side as u8), |g, u| {
            !matches!(
                g.unit_profile(u).kind,
                UnitKind::Artillery | UnitKind::Wagon
            )
        }) else {
            continue;
        };
        let p = game.unit_profile(unit);
        let bases = if p.has(SpecialRule::Insubordinate) || p.has(SpecialRule::Rabble) {
            2
        } else {
            1
        };
        let sp = bases * p.strength.max(1) as u32;
        let removed = crate::losses::apply(
            game,
            unit,
            sp,
            LossCause::Detached,
            "March Losses (BFS-SCN-28)",
            events,
        );
        let u = game.unit_mut(unit);
        u.march_losses = u.march_losses.saturating_add(removed as u8);
    }
}

/// At the start of turn 1's first Movement Phase: each Panic Disorganizes a random unit (a gun
/// is passed over for another); cavalry withdraw, a War Wagon Train's crews lose strength
/// instead (BFS-SCN-33).
pub fn at_first_movement(game: &mut Game, events: &mut Vec<Event>) {
    let sides = std::mem::take(&mut game.info.pre_battle.panic);
    for side in sides.into_iter().filter(|s| *s < 2) {
        // Guns are passed over, and crewless baggage too: it cannot panic.
        let Some(unit) = pick(game, Side(side as u8), |g, u| {
            g.unit_profile(u).kind != UnitKind::Artillery && !crate::wagon::crewless(g, u)
        }) else {
            continue;
        };
        crate::flight::apply_level(
            game,
            unit,
            MoraleLevel::Disorganized,
            "Panic (BFS-SCN-33)",
            None,
            events,
        );
    }
    // Chaos, after Panic: a random unit not already Disorganized (a gun is passed over) tests
    // Morale; a failure Disorganizes it, and it cannot flee from this test (BFS-SCN-45).
    let sides = std::mem::take(&mut game.info.pre_battle.chaos);
    for side in sides.into_iter().filter(|s| *s < 2) {
        let Some(unit) = pick(game, Side(side as u8), |g, u| {
            g.unit_profile(u).kind != UnitKind::Artillery
                && !crate::wagon::crewless(g, u)
                && g.unit(u).morale == MoraleLevel::Good
        }) else {
            continue;
        };
        let cause = crate::morale::MoraleCause::Other {
            rule: "BFS-SCN-45",
            reason: "Chaos".into(),
        };
        let roll = crate::morale::morale_test(game, unit, &cause);
        let passed = roll.passed;
        events.push(crate::morale::report(
            unit,
            crate::event::TestKind::Morale,
            &cause,
            roll,
            if passed {
                "passed".into()
            } else {
                "failed: Disorganized (it cannot flee from this test)".into()
            },
        ));
        if !passed {
            crate::flight::apply_level(
                game,
                unit,
                MoraleLevel::Disorganized,
                "Chaos (BFS-SCN-45)",
                None,
                events,
            );
        }
    }
}

/// At the end of the battle, Cut Off the Retreat: every base of the side struck that fled the
/// table or is still fleeing on it tests Morale at its unit's own Morale; each failure counts
/// it destroyed, 1 loss point instead of ½ (BFS-SCN-47, BFS-VIC-4).
pub fn cut_off_the_retreat(game: &mut Game, events: &mut Vec<Event>) {
    let sides = std::mem::take(&mut game.info.pre_battle.cut_off_retreat);
    for side in sides.into_iter().filter(|s| *s < 2) {
        let units: Vec<(UnitId, u32, i32, String)> = game
            .units
            .iter()
            .filter(|u| u.side == Side(side as u8) && u.manned_from.is_none())
            .map(|u| {
                let mut fled = u.bases_fled as u32;
                if u.status == UnitStatus::OnTable && u.morale == MoraleLevel::Flight {
                    fled += u.bases.len() as u32;
                }
                (
                    u.id,
                    fled.saturating_sub(u.cut_off as u32),
                    0,
                    u.name.clone(),
                )
            })
            .filter(|(_, fled, _, _)| *fled > 0)
            .collect();
        for (id, fled, _, name) in units {
            let morale = game.unit_profile(id).morale as i32;
            let mut cut = 0u8;
            for _ in 0..fled {
                let roll = crate::dice::TestRoll::roll(morale, Vec::new(), &mut game.dice, 10);
                let passed = roll.passed;
                events.push(Event::Test(crate::event::TestReport {
                    unit: Some(id),
                    commander: None,
                    kind: crate::event::TestKind::Morale,
                    rule: "BFS-SCN-47".into(),
                    cause: format!("Cut Off the Retreat: a fled base of {name}"),
                    roll,
                    outcome: if passed {
                        "passed: it got away"
                    } else {
                        "failed: it is cut off, a base lost"
                    }
                    .into(),
                }));
                if !passed {
                    cut += 1;
                }
            }
            let u = game.unit_mut(id);
            u.cut_off = u.cut_off.saturating_add(cut);
        }
    }
}
