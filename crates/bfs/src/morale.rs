//! Morale tests and Morale Levels (BFS-PSY-1..8).

use crate::dice::{Modifier, TestRoll};
use crate::event::{Event, TestKind, TestReport};
use crate::ids::UnitId;
use crate::state::{Game, MoraleLevel};

/// Why a unit tests: decides which modifiers apply (BFS-PSY-4).
#[derive(Debug, Clone, PartialEq)]
pub enum MoraleCause {
    /// Lost a close combat by `margin` (−margin, BFS-PSY-4).
    LostCombat { margin: i32 },
    /// Lost a base to shooting (−1 per base lost to shooting this Combat Phase).
    Shooting,
    /// Rally attempt with `extra_cp` beyond the first (+1 each, BFS-RAL-2).
    Rally { extra_cp: u8 },
    /// Reorganising: one test per CP (BFS-RAL-7).
    Reorganize,
    /// Any other trigger (a commander killed nearby, fleeing friends passing through…).
    Other { rule: &'static str, reason: String },
}

impl MoraleCause {
    fn rule(&self) -> &'static str {
        match self {
            MoraleCause::LostCombat { .. } => "BFS-CC-22",
            MoraleCause::Shooting => "BFS-PSY-3",
            MoraleCause::Rally { .. } => "BFS-RAL-4",
            MoraleCause::Reorganize => "BFS-RAL-7",
            MoraleCause::Other { rule, .. } => rule,
        }
    }
    fn describe(&self) -> String {
        match self {
            MoraleCause::LostCombat { margin } => format!("lost a close combat by {margin}"),
            MoraleCause::Shooting => "lost a base to shooting".into(),
            MoraleCause::Rally { .. } => "rally attempt".into(),
            MoraleCause::Reorganize => "reorganising (removing a casualty marker)".into(),
            MoraleCause::Other { reason, .. } => reason.clone(),
        }
    }
}

/// The modifiers of a Morale test (BFS-PSY-4).
pub fn morale_modifiers(game: &Game, unit: UnitId, cause: &MoraleCause) -> Vec<Modifier> {
    let u = game.unit(unit);
    let mut m = Vec::new();
    if u.attached.is_some() {
        m.push(Modifier::new(
            "BFS-PSY-4",
            "a commander is attached to the unit",
            1,
        ));
    }
    let fives = u.bases.len() / 5;
    if fives > 0 {
        m.push(Modifier::new(
            "BFS-PSY-4",
            format!("{} bases: +1 per full 5", u.bases.len()),
            fives as i32,
        ));
    }
    match cause {
        MoraleCause::LostCombat { margin } if *margin > 0 => m.push(Modifier::new(
            "BFS-PSY-4",
            format!("lost the combat by {margin}"),
            -margin,
        )),
        MoraleCause::Shooting if u.flags.bases_lost_to_shooting > 0 => m.push(Modifier::new(
            "BFS-PSY-4",
            format!(
                "{} base(s) lost to shooting this Combat Phase",
                u.flags.bases_lost_to_shooting
            ),
            -(u.flags.bases_lost_to_shooting as i32),
        )),
        MoraleCause::Rally { extra_cp } if *extra_cp > 0 => m.push(Modifier::new(
            "BFS-RAL-2",
            format!("{extra_cp} extra CP spent on the rally"),
            *extra_cp as i32,
        )),
        _ => {}
    }
    m.extend(crate::turn_one::fatigue_modifiers(game, unit));
    if crate::enthusiasm::enthusiastic(game, unit) {
        m.push(Modifier::new(
            "BFS-SCN-27",
            "Enthusiasm: within the Commander's command range",
            1,
        ));
    }
    m
}

/// Rolls a Morale test for `unit` (BFS-PSY-2). The caller applies the consequences.
pub fn morale_test(game: &mut Game, unit: UnitId, cause: &MoraleCause) -> TestRoll {
    let base = game.unit_profile(unit).morale as i32;
    // The Enthusiasm marker discarded for this test: passed outright (BFS-SCN-27).
    if let Some(passed) = crate::enthusiasm::take_pass(game, unit, base) {
        return passed;
    }
    let mut mods = morale_modifiers(game, unit, cause);
    // CP set aside for this test (BFS-CMD-8); a rally has its own.
    if !matches!(cause, MoraleCause::Rally { .. })
        && let Some(m) = crate::steady::spend(game, unit, true)
    {
        mods.push(m);
    }
    let first = TestRoll::roll(base, mods.clone(), &mut game.dice, 10);
    if to_the_last_man(game, unit) && reroll_helps(&first) {
        let mut second = TestRoll::roll(base, mods, &mut game.dice, 10);
        second.rerolled = first.face;
        return second;
    }
    first
}

/// To the Last Man: a unit with a Defense order may roll a failed Morale test again
/// (BFS-SPC-33; revision 7).
fn to_the_last_man(game: &Game, unit: UnitId) -> bool {
    crate::revision::special_rules_7(game.info.options.rules_revision)
        && game
            .unit_profile(unit)
            .has(crate::profile::SpecialRule::ToTheLastMan)
        && game.unit(unit).order == Some(crate::state::OrderKind::Defense)
}

/// Proposed resolution (the book says "may"): a unit rolls its failed test again when a new roll
/// is expected to cost it fewer Morale levels than the failure it has. A roll can make it worse
/// (a failure by 5 or more costs two levels, BFS-PSY-2), so a failure by less against a low
/// target stands; an automatic failure (no roll) cannot be helped by rolling.
pub fn reroll_helps(first: &TestRoll) -> bool {
    if first.passed || first.face.is_none() {
        return false;
    }
    let target = first.target.clamp(0, 10);
    let pass = target as f64 / 10.0;
    // Faces target+5..=10 fail by 5 or more.
    let badly = (10 - (target + 5) + 1).clamp(0, 10) as f64 / 10.0;
    let expected = (1.0 - pass - badly) + 2.0 * badly;
    expected < levels_lost(first) as f64
}

/// Levels a failed test costs: 1, or 2 when failed by 5 or more or failed automatically
/// (BFS-PSY-2).
pub fn levels_lost(roll: &TestRoll) -> u8 {
    if roll.passed {
        0
    } else if roll.failed_by >= 5 {
        2
    } else {
        1
    }
}

/// The level after dropping `levels` (BFS-PSY-1: never below Flight).
pub fn lowered(level: MoraleLevel, levels: u8) -> MoraleLevel {
    let idx = (level as u8 + levels).min(2);
    match idx {
        0 => MoraleLevel::Good,
        1 => MoraleLevel::Disorganized,
        _ => MoraleLevel::Flight,
    }
}

/// The level a test leads to, with one-base units fleeing instead of disorganising (BFS-PSY-7).
pub fn level_after(game: &Game, unit: UnitId, roll: &TestRoll) -> MoraleLevel {
    let u = game.unit(unit);
    let to = lowered(u.morale, levels_lost(roll));
    if to == MoraleLevel::Disorganized && u.bases.len() <= 1 {
        MoraleLevel::Flight
    } else {
        to
    }
}

/// A test report event.
pub fn report(
    unit: UnitId,
    kind: TestKind,
    cause: &MoraleCause,
    roll: TestRoll,
    outcome: String,
) -> Event {
    Event::Test(TestReport {
        unit: Some(unit),
        commander: None,
        kind,
        rule: cause.rule().into(),
        cause: cause.describe(),
        roll,
        outcome,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roll(target: i32, face: Option<u8>) -> TestRoll {
        let passed = face.is_some_and(|f| f as i32 <= target) || (face.is_none() && target >= 10);
        let failed_by = match face {
            Some(f) if !passed => f as i32 - target,
            None if !passed => 10,
            _ => 0,
        };
        TestRoll {
            base_target: target,
            modifiers: vec![],
            target,
            face,
            passed,
            failed_by,
            rerolled: None,
        }
    }

    #[test]
    fn bfs_psy_2_fail_by_five_drops_two_levels() {
        // BFS-CC-34 example 3: Morale 5 at −1 (target 4) rolls "0" = 10: failed by 6 → Flight.
        let r = roll(4, Some(10));
        assert_eq!(levels_lost(&r), 2);
        assert_eq!(
            lowered(MoraleLevel::Good, levels_lost(&r)),
            MoraleLevel::Flight
        );
        // Failed by 1-4 drops one level.
        assert_eq!(levels_lost(&roll(4, Some(8))), 1);
        assert_eq!(lowered(MoraleLevel::Disorganized, 1), MoraleLevel::Flight);
        assert_eq!(lowered(MoraleLevel::Flight, 2), MoraleLevel::Flight);
    }

    #[test]
    fn bfs_psy_2_automatic_results() {
        assert_eq!(levels_lost(&roll(10, None)), 0);
        assert_eq!(levels_lost(&roll(0, None)), 2);
    }
}
