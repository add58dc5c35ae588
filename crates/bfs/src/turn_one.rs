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
    // The Robbers' pillage: its SP are lost now (BFS-SPC-28).
    let pillaged: Vec<(UnitId, u8)> = game
        .units
        .iter()
        .filter_map(|u| u.pillage.filter(|p| p.sp > 0).map(|p| (u.id, p.sp)))
        .collect();
    for (unit, sp) in pillaged {
        if game.unit(unit).status == UnitStatus::OnTable {
            crate::losses::apply(
                game,
                unit,
                sp as u32,
                LossCause::Detached,
                "the Robbers' pillage (BFS-SPC-28)",
                events,
            );
        }
    }
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
        if crate::wagon::train::is_train(game, unit)
            && crate::revision::prebattle_effects_12(game.info.options.rules_revision)
        {
            // A wagon train struck by Panic: each wagon loses 1 SP (BFS-WAG-23).
            let wagons = game.unit(unit).train.as_ref().map_or(0, |t| t.wagons.len());
            for i in 0..wagons {
                crate::wagon::train::crew_losses(
                    game,
                    unit,
                    Some(i),
                    1,
                    "Panic: each wagon of the train loses 1 SP (BFS-WAG-23)",
                    events,
                );
            }
            continue;
        }
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
            fatigue_markers_lost(
                game,
                unit,
                MoraleLevel::Good,
                MoraleLevel::Disorganized,
                events,
            );
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
        // Commanders who fled too, at their own Morale, with no retinue to save them (from
        // revision 12; battles recorded before it tested bases only).
        if !crate::revision::prebattle_effects_12(game.info.options.rules_revision) {
            continue;
        }
        let fled: Vec<_> = game
            .commanders
            .iter()
            .filter(|c| c.side == Side(side as u8))
            .filter(|c| {
                c.status == UnitStatus::Left || (c.status == UnitStatus::OnTable && c.fleeing)
            })
            .map(|c| (c.id, c.name.clone()))
            .collect();
        for (c, name) in fled {
            let morale = crate::coward::morale(game, c) as i32;
            let roll = crate::dice::TestRoll::roll(morale, Vec::new(), &mut game.dice, 10);
            let passed = roll.passed;
            events.push(Event::Test(crate::event::TestReport {
                unit: None,
                commander: Some(c),
                kind: crate::event::TestKind::Morale,
                rule: "BFS-SCN-47".into(),
                cause: format!("Cut Off the Retreat: {name} fled"),
                roll,
                outcome: if passed {
                    "passed: he got away"
                } else {
                    "failed: he is cut off and taken, with no retinue to save him"
                }
                .into(),
            }));
            if !passed {
                let cm = game.commander_mut(c);
                cm.status = UnitStatus::Destroyed;
                cm.fleeing = false;
                events.push(Event::CommanderLost {
                    commander: c,
                    killed: true,
                    reason: "cut off in his flight (BFS-SCN-47)".into(),
                });
            }
        }
    }
}

/// Confusion's changes of orders still to make, and whether their window has begun.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ConfusionChanges {
    pub side: Side,
    pub left: u8,
    pub open: bool,
}

/// Confusion (BFS-SCN-44), first half: when the side struck ends its turn-1 Orders Phase, a
/// random unit of it with a free starting order loses it for each copy, and the phase stays
/// open so its commander may order it again, paying CP and 1 more. True if it struck.
pub fn confusion_strikes(game: &mut Game, acting: Side, events: &mut Vec<Event>) -> bool {
    // Only free starting orders are struck (BFS-SCN-44).
    if game.turn.number != 1 || !crate::phases::orders::orders_are_free(game) {
        return false;
    }
    let copies = game
        .info
        .pre_battle
        .confusion
        .iter()
        .filter(|b| **b == acting.other().index())
        .count();
    if copies == 0 {
        return false;
    }
    game.info
        .pre_battle
        .confusion
        .retain(|b| *b != acting.other().index());
    game.info.confusion_changes = Some(ConfusionChanges {
        side: acting.other(),
        left: copies as u8,
        open: false,
    });
    let mut struck = false;
    for _ in 0..copies {
        let Some(unit) = pick(game, acting, |g, u| {
            let x = g.unit(u);
            x.flags.ordered
                && !x.flags.confused
                && x.pending_order.is_some_and(|p| p.kind.is_some())
        }) else {
            break;
        };
        let u = game.unit_mut(unit);
        // A face-down order stays unknown to the other side: the event does not name it.
        let from = u
            .pending_order
            .take()
            .filter(|p| p.face_up)
            .and_then(|p| p.kind);
        u.flags.ordered = false;
        u.flags.confused = true;
        struck = true;
        let name = u.name.clone();
        events.push(Event::OrderChanged {
            unit,
            from,
            to: None,
            rule: "BFS-SCN-44".into(),
            reason: format!(
                "Confusion: {name} loses its starting order; its commander may order it again for its CP and 1 more"
            ),
        });
    }
    struck
}

/// Confusion, second half: once both turn-1 Orders Phases are over, the side that bought it
/// may change as many of its orders as it bought copies, paying CP; its window is one more
/// Orders Phase. True if the window begins now.
pub fn confusion_window(game: &mut Game, events: &mut Vec<Event>) -> bool {
    let Some(c) = game.info.confusion_changes.as_mut() else {
        return false;
    };
    if c.open || c.left == 0 {
        game.info.confusion_changes = None;
        return false;
    }
    c.open = true;
    let (side, left) = (c.side, c.left);
    events.push(Event::Ruling {
        rule: "BFS-SCN-44".into(),
        text: format!(
            "Confusion: {} may change {left} of its orders, paying CP as usual.",
            game.side(side).name,
        ),
    });
    game.turn.phase = crate::turn::Phase::Orders {
        acting: side,
        second: true,
    };
    events.push(Event::PhaseBegan {
        phase: "Orders".into(),
        acting: Some(side),
    });
    true
}

/// In Confusion's window, whose orders are paid for.
pub fn in_confusion_window(game: &Game) -> bool {
    game.info.confusion_changes.is_some_and(|c| c.open)
}

/// May `unit`, already ordered this turn, take another order: in Confusion's window, while
/// changes are left.
pub fn may_change_order(game: &Game, unit: UnitId) -> bool {
    game.info
        .confusion_changes
        .is_some_and(|c| c.open && c.left > 0 && c.side == game.unit(unit).side)
}

/// An order given in Confusion's window to a unit already ordered uses up one change.
pub fn count_change(game: &mut Game, unit: UnitId) {
    let changing = game.unit(unit).flags.ordered;
    if let Some(c) = game.info.confusion_changes.as_mut()
        && c.open
        && changing
    {
        c.left = c.left.saturating_sub(1);
    }
}

/// The side Fatigue or Exhaustion strikes, and whether it is Exhaustion.
fn fatigued_side(game: &Game) -> Option<(Side, bool)> {
    let pb = &game.info.pre_battle;
    pb.exhaustion
        .first()
        .map(|s| (Side(*s as u8), true))
        .or_else(|| pb.fatigue.first().map(|s| (Side(*s as u8), false)))
        .filter(|(s, _)| s.0 < 2)
}

/// The most CP a commander of `side` may add to a unit's Morale test: 2 while his side is struck
/// by Fatigue or Exhaustion (BFS-SCN-25, -26), otherwise no cap beyond the usual.
pub fn fatigue_boost_cap(game: &Game, side: Side) -> Option<u8> {
    if !crate::revision::prebattle_effects_12(game.info.options.rules_revision) {
        return None;
    }
    fatigued_side(game).filter(|(s, _)| *s == side).map(|_| 2)
}

/// Whether the side's last Fatigue marker is gone: all discarded, or its Commander-in-Chief
/// killed (BFS-SCN-25).
fn fatigue_spent(game: &Game, side: Side) -> bool {
    game.info.fatigue_markers == 0
        || game.commanders.iter().any(|c| {
            c.side == side
                && c.rank == crate::scenario_spec::CommanderRank::CommanderInChief
                && c.status == UnitStatus::Destroyed
        })
}

/// Fatigue and Exhaustion on a unit's Morale tests (BFS-SCN-25, -26): −1 from the start under
/// Exhaustion, and −1 (more) once the last marker is gone.
pub fn fatigue_modifiers(game: &Game, unit: UnitId) -> Vec<crate::dice::Modifier> {
    let Some((side, exhausted)) = fatigued_side(game) else {
        return Vec::new();
    };
    if game.unit(unit).side != side {
        return Vec::new();
    }
    let mut m = Vec::new();
    if exhausted {
        m.push(crate::dice::Modifier::new("BFS-SCN-26", "Exhaustion", -1));
    }
    if fatigue_spent(game, side) {
        m.push(crate::dice::Modifier::new(
            if exhausted {
                "BFS-SCN-26"
            } else {
                "BFS-SCN-25"
            },
            "Fatigue: the last marker is gone",
            -1,
        ));
    }
    m
}

/// A unit of the side struck dropped after a failed Morale test: a marker goes for
/// Disorganized, one more for Flight later, two for Flight at once (BFS-SCN-25).
pub fn fatigue_markers_lost(
    game: &mut Game,
    unit: UnitId,
    from: MoraleLevel,
    to: MoraleLevel,
    events: &mut Vec<Event>,
) {
    let Some((side, _)) = fatigued_side(game) else {
        return;
    };
    if game.unit(unit).side != side || game.info.fatigue_markers == 0 {
        return;
    }
    let lost = (to as u8).saturating_sub(from as u8);
    if lost == 0 {
        return;
    }
    let left = game.info.fatigue_markers.saturating_sub(lost);
    game.info.fatigue_markers = left;
    events.push(Event::Ruling {
        rule: "BFS-SCN-25".into(),
        text: format!(
            "Fatigue: {} discards {lost} marker{} ({left} left){}.",
            game.side(side).name,
            if lost == 1 { "" } else { "s" },
            if left == 0 {
                ": from now on its Morale tests are at −1 more"
            } else {
                ""
            }
        ),
    });
}
