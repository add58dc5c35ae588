//! An Independent unit rallies itself (BFS-SPC-14, AMB-73): in its side's Orders Phase, with no
//! commander and no CP, a rally test that no CP can raise. It is the unit's one rally attempt of
//! the turn (BFS-RAL-3), so a failure leaves no commander to try again. A unit rallied from
//! Flight takes no order that turn, as any other (BFS-RAL-6).

use super::orders;
use crate::event::Event;
use crate::ids::UnitId;
use crate::state::Game;
use sandtable_engine::RuleError;

/// May the unit rally itself now?
pub fn check(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let acting = orders::acting_side(game, "BFS-RAL-3")?;
    orders::own_unit(game, unit, acting, "BFS-RAL-3")?;
    let u = game.unit(unit);
    if !orders::independent(game, unit) {
        return Err(RuleError::new(
            "BFS-SPC-14",
            format!("{} is not Independent: a commander must rally it.", u.name),
        ));
    }
    orders::check_may_rally(game, unit)
}

/// The unit rallies itself.
pub fn rally(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check(game, unit)?;
    events.push(Event::Ruling {
        rule: "BFS-SPC-14".into(),
        text: format!(
            "{} tries to rally itself: no commander, no CP (Independent).",
            game.unit(unit).name
        ),
    });
    orders::rally_test(game, unit, 0, events);
    Ok(())
}
