//! A Skill test with its report: one D10 against the Skill of a unit or a commander, told in the
//! dice panel with its rule, its cause and what follows (BFS-DICE, BFS-ATT-3). The tests that
//! ground, friends and danger demand all go through here.

use crate::dice::{Modifier, TestRoll};
use crate::event::{Event, TestKind, TestReport};
use crate::ids::{CommanderId, UnitId};
use crate::state::Game;

/// Who takes the test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tester {
    Unit(UnitId),
    Commander(CommanderId),
}

/// What the report says of the test: its rule, why it is taken, and the outcome either way.
pub struct Test<'a> {
    pub rule: &'a str,
    pub cause: String,
    pub passed: &'a str,
    pub failed: &'a str,
}

/// Rolls the test, reports it, and says whether it passed.
pub fn test(
    game: &mut Game,
    who: Tester,
    modifiers: Vec<Modifier>,
    what: Test<'_>,
    events: &mut Vec<Event>,
) -> bool {
    let skill = match who {
        Tester::Unit(u) => game.unit_profile(u).skill,
        Tester::Commander(c) => game.profile(game.commander(c).profile).skill,
    } as i32;
    let mut modifiers = modifiers;
    // CP set aside for this test (BFS-CMD-8).
    if let Tester::Unit(u) = who
        && let Some(m) = crate::steady::spend(game, u, false)
    {
        modifiers.push(m);
    }
    let roll = TestRoll::roll(skill, modifiers, &mut game.dice, 10);
    let passed = roll.passed;
    let (unit, commander) = match who {
        Tester::Unit(u) => (Some(u), None),
        Tester::Commander(c) => (None, Some(c)),
    };
    events.push(Event::Test(TestReport {
        unit,
        commander,
        kind: TestKind::Skill,
        rule: what.rule.into(),
        cause: what.cause,
        roll,
        outcome: if passed { what.passed } else { what.failed }.into(),
    }));
    passed
}

/// A unit's Skill test that leaves it Disorganized on a failure: after passing through friends
/// (BFS-AMV-3), withdrawing into a Disorganized friend (BFS-PSY-18), meeting caltrops
/// (BFS-OBS-7). Returns whether it passed and the die's face.
pub fn test_or_disorganized(
    game: &mut Game,
    unit: UnitId,
    rule: &str,
    cause: String,
    events: &mut Vec<Event>,
) -> (bool, Option<u8>) {
    let what = Test {
        rule,
        cause: cause.clone(),
        passed: "passed",
        failed: "failed: Disorganized",
    };
    let passed = test(game, Tester::Unit(unit), Vec::new(), what, events);
    let face = match events.last() {
        Some(Event::Test(t)) => t.roll.face,
        _ => None,
    };
    // A train is never Disorganized, and only a failed Morale test costs it crew (BFS-WAG-17).
    if !passed && !crate::wagon::any_wagon(game, unit) {
        crate::flight::apply_level(
            game,
            unit,
            crate::state::MoraleLevel::Disorganized,
            &format!("a failed Skill test: {cause}"),
            None,
            events,
        );
    }
    (passed, face)
}
