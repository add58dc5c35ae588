//! Raising Morale or Skill with CP (BFS-CMD-8; rules revision 11): a commander spends up to 3 CP
//! on one Morale or Skill test of a unit under his command and within his Command Range, +1 to
//! the value for each; never on a to-hit roll, and one commander a test.
//!
//! The tests come in the middle of the other side's actions and of combat, which Sandtable
//! resolves in one go, so the spending is set up beforehand: in the side's Orders or Movement
//! Phase the owner names the unit, the commander and how many CP (1 to 3) for "its next Morale or
//! Skill test this turn". The CP are spent when that test comes, if the commander still has the
//! unit in range (as many as he still has, up to the number named), and the modifier shows in
//! the test's roll; nothing is spent if no test comes. A rally has its own CP (BFS-RAL-2) and
//! takes none of these. The setting is made in the open.

use crate::dice::Modifier;
use crate::event::Event;
use crate::ids::{CommanderId, UnitId};
use crate::state::{Game, UnitStatus};
use sandtable_engine::RuleError;

const RULE: &str = "BFS-CMD-8";
/// Most CP one test may have (BFS-CMD-8).
pub const MAX_CP: u8 = 3;

/// May `by` stand ready to spend `cp` CP on `unit`'s next test this turn?
pub fn check(game: &Game, unit: UnitId, by: CommanderId, cp: u8) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    if !crate::revision::succession(game.info.options.rules_revision) {
        return refuse("This battle was recorded before CP could be spent on tests.".into());
    }
    let Some(acting) = crate::phases::orders_or_movement_side(game) else {
        return refuse(
            "CP for a unit's next test are set aside in its side's Orders or Movement Phase."
                .into(),
        );
    };
    let u = game.unit(unit);
    if u.side != acting || u.status != UnitStatus::OnTable {
        return refuse(format!("{} is not one of the acting side's units.", u.name));
    }
    if !(1..=MAX_CP).contains(&cp) {
        return refuse(format!("A test takes 1 to {MAX_CP} CP."));
    }
    if u.flags.steady == Some((by, cp)) {
        return refuse(format!(
            "{} already stands ready so.",
            game.commander(by).name
        ));
    }
    crate::building::check_payer(game, unit, by, RULE)?;
    let c = game.commander(by);
    if c.cp < cp {
        return refuse(format!("{} has {} CP, not {cp}.", c.name, c.cp));
    }
    Ok(())
}

/// Sets the CP aside (checked by [`check`]); they are spent by [`spend`] at the test.
pub fn declare(
    game: &mut Game,
    unit: UnitId,
    by: CommanderId,
    cp: u8,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check(game, unit, by, cp)?;
    game.unit_mut(unit).flags.steady = Some((by, cp));
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{} stands ready to spend {cp} CP on the next Morale or Skill test of {} this turn.",
            game.commander(by).name,
            game.unit(unit).name
        ),
    });
    Ok(())
}

/// At a Morale or Skill test of `unit` (never a to-hit roll, never a rally): the CP set aside
/// for it, spent now if the commander still has the unit in range, as a modifier to the test.
/// On a Morale test of a side struck by Fatigue or Exhaustion, at most 2 (BFS-SCN-25, -26).
pub fn spend(game: &mut Game, unit: UnitId, morale_test: bool) -> Option<Modifier> {
    let (by, cp) = game.unit_mut(unit).flags.steady.take()?;
    let c = game.commander(by);
    let in_range = crate::authority::distance_to_unit(game, by, unit)
        <= crate::authority::command_range_cm(game, by) + sandtable_geometry::tolerance::LIMIT_EPS;
    let cap = if morale_test {
        crate::turn_one::fatigue_boost_cap(game, c.side)
    } else {
        None
    };
    let n = cp.min(c.cp).min(cap.unwrap_or(MAX_CP));
    if c.status != UnitStatus::OnTable || !in_range || n == 0 {
        return None;
    }
    let name = c.name.clone();
    game.commander_mut(by).cp -= n;
    let capped = if cap.is_some_and(|m| cp > m) {
        " (at most 2 under Fatigue, BFS-SCN-25)"
    } else {
        ""
    };
    Some(Modifier::new(
        RULE,
        format!("{name} spends {n} CP{capped}"),
        n as i32,
    ))
}

/// The CP a commander may set aside for `unit`'s next test now: for each commander who may,
/// 1 to as many as he has (at most 3).
pub fn options(game: &Game, unit: UnitId) -> Vec<(CommanderId, u8)> {
    crate::authority::commanders_who_may_order(game, unit)
        .into_iter()
        .flat_map(|c| (1..=MAX_CP).map(move |n| (c, n)))
        .filter(|(c, n)| check(game, unit, *c, *n).is_ok())
        .collect()
}
