//! Rabble's formation (BFS-SPC-25): in Close Order a Rabble unit stands in a Line or a Column,
//! never a Non-standard formation, with no more bases in its first rank than it has ranks. A
//! unit that is not so at the start of its side's Movement Phase loses its order (unless it is a
//! Defense order) and must Reform (the Special Maneuver, whatever its order) into such a
//! formation; it may do nothing else that phase. No move or maneuver may leave it otherwise. Its
//! Morale test to charge a more numerous enemy and its ban on marching live with the charge and
//! the march. Battles recorded before rules revision 9 played neither formation rule.
//!
//! The book's "must" is not forced on the player: a unit left unreformed at the end of the phase
//! stays as it was, since a Reform may find no room.

use crate::event::Event;
use crate::ids::{Side, UnitId};
use crate::profile::SpecialRule;
use crate::state::{Formation, Game, OrderKind, UnitStatus};
use sandtable_engine::RuleError;

/// Does the formation rule apply to the unit?
pub fn applies(game: &Game, unit: UnitId) -> bool {
    crate::revision::special_rules_9(game.info.options.rules_revision)
        && game.unit_profile(unit).has(SpecialRule::Rabble)
}

/// Is a Close Order formation of `bases` bases `files` wide (`None`: Non-standard) one a
/// Rabble unit may stand in?
pub fn allowed(files: Option<u8>, bases: usize) -> bool {
    match files {
        None => false,
        Some(0) => false,
        Some(f) => {
            let ranks = bases.div_ceil(f as usize);
            f as usize <= ranks
        }
    }
}

/// Does the unit stand as a Rabble unit may now?
fn stands_allowed(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    match u.formation {
        Formation::OpenOrder => true,
        Formation::NonStandard => false,
        Formation::Close { files } => allowed(Some(files), u.bases.len()),
    }
}

/// At the start of its side's Movement Phase, after the orders are turned up: each Rabble unit
/// out of formation loses its order unless it is a Defense order, and must Reform.
pub fn at_movement_start(game: &mut Game, side: Side, events: &mut Vec<Event>) {
    let units: Vec<UnitId> = game
        .units
        .iter()
        .filter(|u| u.side == side && u.status == UnitStatus::OnTable)
        .map(|u| u.id)
        .collect();
    for unit in units {
        if !applies(game, unit) || stands_allowed(game, unit) {
            continue;
        }
        let from = game.unit(unit).order;
        let u = game.unit_mut(unit);
        u.flags.must_reform = true;
        if from != Some(OrderKind::Defense) && from.is_some() {
            u.order = None;
            events.push(Event::OrderChanged {
                unit,
                from,
                to: None,
                rule: "BFS-SPC-25".into(),
                reason: "Rabble out of formation (more bases in its first rank than ranks, or Non-standard): it must Reform".into(),
            });
        } else {
            let name = u.name.clone();
            events.push(Event::Ruling {
                rule: "BFS-SPC-25".into(),
                text: format!(
                    "{name} is Rabble out of formation: it must Reform this phase (more bases in its first rank than ranks, or Non-standard)."
                ),
            });
        }
    }
}

/// The Reforms that put a Rabble unit out of formation right, facing as it does: each width its
/// bases may stand in.
pub fn reforms(game: &Game, unit: UnitId) -> Vec<crate::command::SpecialManeuver> {
    let n = game.unit(unit).bases.len();
    (1..=n.min(u8::MAX as usize) as u8)
        .filter(|f| allowed(Some(*f), n))
        .map(|files| crate::command::SpecialManeuver::Reform {
            files,
            degrees: 0.0,
        })
        .collect()
}

/// A Rabble unit that must Reform may do nothing else (`reform`: the activation is the Reform).
pub fn check_activation(game: &Game, unit: UnitId, reform: bool) -> Result<(), RuleError> {
    let u = game.unit(unit);
    if u.flags.must_reform && !reform {
        return Err(RuleError::new(
            "BFS-SPC-25",
            format!(
                "{} is Rabble out of formation: it must Reform (the Special Maneuver) before anything else.",
                u.name
            ),
        ));
    }
    Ok(())
}

/// No move or maneuver may leave a Rabble unit in Close Order wider than it is deep, or
/// Non-standard (`files`: the files after it, `None` for Non-standard; `open`: in Open Order).
pub fn check_result(
    game: &Game,
    unit: UnitId,
    files: Option<u8>,
    bases: usize,
    open: bool,
) -> Result<(), RuleError> {
    if !applies(game, unit) || open || allowed(files, bases) {
        return Ok(());
    }
    Err(RuleError::new(
        "BFS-SPC-25",
        format!(
            "{} is Rabble: in Close Order its first rank may hold no more bases than it has ranks, in a Line or a Column.",
            game.unit(unit).name
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::allowed;

    /// The book's example: 3 bases may stand 2 wide (2 + 1) or in a Column of 3, not in a Line of
    /// 3; having lost the rear base of a 2 + 1, 2 wide and 1 deep, they must Reform.
    #[test]
    fn bfs_spc_25_the_books_example() {
        assert!(allowed(Some(2), 3));
        assert!(allowed(Some(1), 3));
        assert!(!allowed(Some(3), 3));
        assert!(!allowed(Some(2), 2));
        assert!(allowed(Some(1), 2));
        assert!(!allowed(None, 3), "never Non-standard");
    }
}
