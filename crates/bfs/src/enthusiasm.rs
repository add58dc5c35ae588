//! Enthusiasm (BFS-SCN-27), an Additional Effect of the pre-battle sequence: a marker by the
//! Weaker side's Commander-in-Chief. While he holds it, the side's units within his command range
//! get +1 to their Morale tests. It is lost for good once a unit of the side flees off the table
//! or he is killed. Instead, the side may discard it to pass one Morale test of a unit within
//! 20 cm of him outright, declared before the roll.
//!
//! The tests come in the middle of the other side's actions, which Sandtable resolves in one go,
//! so the discard is declared beforehand, as CP for a test are ([`crate::steady`]): in the side's
//! Orders or Movement Phase the owner names the unit, and its next Morale test this turn is
//! passed, the marker discarded, if the unit is still within 20 cm of the Commander-in-Chief
//! then. If no test comes, the marker is kept. The declaration is made in the open.

use crate::dice::{Modifier, TestRoll};
use crate::event::Event;
use crate::ids::{Side, UnitId};
use crate::state::{Game, UnitStatus};
use sandtable_engine::RuleError;

const RULE: &str = "BFS-SCN-27";

/// How close to the Commander-in-Chief a unit must be for the discard, cm.
pub const DISCARD_RANGE_CM: f32 = 20.0;

/// Whether `side` still holds the marker: it was given to it, not discarded, no unit of the side
/// has fled off the table, and its Commander-in-Chief is on the table.
pub fn holds_marker(game: &Game, side: Side) -> bool {
    if !game.info.pre_battle.enthusiasm.contains(&side.index()) {
        return false;
    }
    let fled_off = game
        .units
        .iter()
        .any(|u| u.side == side && u.status == UnitStatus::Left && u.bases_fled > 0);
    if fled_off {
        return false;
    }
    game.commander_in_chief(side)
        .is_some_and(|c| c.status == UnitStatus::OnTable)
}

fn distance_to_chief(game: &Game, unit: UnitId) -> Option<f32> {
    let chief = game.commander_in_chief(game.unit(unit).side)?.id;
    Some(crate::authority::distance_to_unit(game, chief, unit))
}

/// +1 to a unit's Morale tests while its side holds the marker and it is within its
/// Commander-in-Chief's command range.
pub fn enthusiastic(game: &Game, unit: UnitId) -> bool {
    let side = game.unit(unit).side;
    if !holds_marker(game, side) {
        return false;
    }
    let Some(chief) = game.commander_in_chief(side) else {
        return false;
    };
    let id = chief.id;
    crate::authority::distance_to_unit(game, id, unit)
        <= crate::authority::command_range_cm(game, id) + sandtable_geometry::tolerance::LIMIT_EPS
}

fn within_discard_range(game: &Game, unit: UnitId) -> bool {
    distance_to_chief(game, unit)
        .is_some_and(|d| d <= DISCARD_RANGE_CM + sandtable_geometry::tolerance::LIMIT_EPS)
}

/// May the acting side declare the discard for `unit`'s next Morale test now?
pub fn check(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let Some(acting) = crate::phases::orders_or_movement_side(game) else {
        return refuse(
            "Enthusiasm is discarded for a unit's next test in its side's Orders or Movement Phase."
                .into(),
        );
    };
    let u = game.unit(unit);
    if u.side != acting || u.status != UnitStatus::OnTable {
        return refuse(format!("{} is not one of the acting side's units.", u.name));
    }
    if !holds_marker(game, acting) {
        return refuse(format!(
            "{} holds no Enthusiasm marker.",
            game.side(acting).name
        ));
    }
    if game.units.iter().any(|o| o.flags.enthusiasm_pass) {
        return refuse("The marker is already promised to a unit's next test this turn.".into());
    }
    if !within_discard_range(game, unit) {
        return refuse(format!(
            "{} is not within {DISCARD_RANGE_CM} cm of the Commander-in-Chief.",
            u.name
        ));
    }
    Ok(())
}

/// Declares the discard for `unit`'s next Morale test this turn.
pub fn declare(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check(game, unit)?;
    game.unit_mut(unit).flags.enthusiasm_pass = true;
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{} will discard the Enthusiasm marker to pass the next Morale test of {} this turn, if it is then within {DISCARD_RANGE_CM} cm of the Commander-in-Chief.",
            game.side(game.unit(unit).side).name,
            game.unit(unit).name
        ),
    });
    Ok(())
}

/// At a Morale test of `unit`: the test passed outright, if the discard was declared for it and
/// still may be made; the marker is then gone for good. A declaration that can no longer be kept
/// lapses, and the marker stays.
pub fn take_pass(game: &mut Game, unit: UnitId, base_target: i32) -> Option<TestRoll> {
    if !game.unit(unit).flags.enthusiasm_pass {
        return None;
    }
    game.unit_mut(unit).flags.enthusiasm_pass = false;
    let side = game.unit(unit).side;
    if !holds_marker(game, side) || !within_discard_range(game, unit) {
        return None;
    }
    game.info
        .pre_battle
        .enthusiasm
        .retain(|s| *s != side.index());
    Some(TestRoll {
        base_target,
        modifiers: vec![Modifier::new(
            RULE,
            "the Enthusiasm marker discarded: passed outright",
            0,
        )],
        target: base_target,
        face: None,
        passed: true,
        failed_by: 0,
        rerolled: None,
    })
}

/// The units of the acting side the discard may be declared for now.
pub fn options(game: &Game) -> Vec<UnitId> {
    game.units
        .iter()
        .map(|u| u.id)
        .filter(|u| check(game, *u).is_ok())
        .collect()
}
