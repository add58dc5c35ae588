//! Paying for a different target (BFS-SHO-10; rules revision 11): shooting at any enemy but the
//! closest costs the commander 1 CP. Combat is resolved in one go here, so the choice is made
//! beforehand: in his Movement Phase the owner names the unit's target for this turn's shooting
//! and a commander who may order the unit, with it in his Command Range (AMB-48, as for a
//! charge's target), pays 1 CP. The target must be an enemy the unit sees then, other than the
//! one it would have to shoot. In each shooting stage of the turn the unit fires at it if any of
//! its bases has it in its field of fire, line of fire and range; if none has, it fires at the
//! closest as usual (the CP is spent all the same: Sandtable's reading of paying for the choice).
//! Lone commanders cannot be chosen so (BFS-CDR-7: no CP buys them as targets).
//!
//! Not yet: split fire (BFS-SHO-11), the bases that cannot reach the chosen target firing at
//! the closest other.

use crate::event::Event;
use crate::ids::{CommanderId, UnitId};
use crate::state::{Game, UnitStatus};
use sandtable_engine::RuleError;

const RULE: &str = "BFS-SHO-10";

/// May `unit` be ordered to fire at `target` this turn, `by` paying?
pub fn check(game: &Game, unit: UnitId, target: UnitId, by: CommanderId) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    if !crate::revision::succession(game.info.options.rules_revision) {
        return refuse("This battle was recorded before targets could be paid for.".into());
    }
    let side = crate::phases::movement::acting(game)?;
    let u = game.unit(unit);
    if u.side != side || u.status != UnitStatus::OnTable {
        return refuse(format!("{} is not one of the moving side's units.", u.name));
    }
    if game.unit_profile(unit).ranged.is_none() {
        return refuse(format!("{} has no missile weapon.", u.name));
    }
    let Some(t) = game.units.get(target.index()) else {
        return refuse("There is no such unit.".into());
    };
    if t.side == u.side || t.status != UnitStatus::OnTable {
        return refuse("The target must be an enemy unit on the table.".into());
    }
    if u.flags.aim == Some(target) {
        return refuse(format!("{} already aims at {}.", u.name, t.name));
    }
    let scene = crate::geo::scene(game);
    if !crate::sight::visible_enemies(game, &scene, unit).contains(&target) {
        return refuse(format!("{} cannot see {}.", u.name, t.name));
    }
    if required_target(game, &scene, unit) == Some(target) {
        return refuse(format!(
            "{} is the target {} must shoot at anyway: no CP is needed.",
            t.name, u.name
        ));
    }
    crate::building::check_payer(game, unit, by, RULE)?;
    Ok(())
}

/// The target the rules would make the unit shoot at now, in Defender's Fire, with nothing paid.
fn required_target(game: &Game, scene: &sandtable_geometry::Scene, unit: UnitId) -> Option<UnitId> {
    match super::plan_volley_at(game, scene, unit, super::FireStage::DefendersFire, None)?.target {
        crate::event::Piece::Unit(t) => Some(t),
        crate::event::Piece::Commander(_) => None,
    }
}

/// Names the target (checked by [`check`]); `by` pays 1 CP.
pub fn aim(
    game: &mut Game,
    unit: UnitId,
    target: UnitId,
    by: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check(game, unit, target, by)?;
    crate::building::pay(
        game,
        by,
        RULE,
        "shoot at a target other than the closest",
        events,
    );
    game.unit_mut(unit).flags.aim = Some(target);
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{} will shoot at {} this turn, where it can reach it.",
            game.unit(unit).name,
            game.unit(target).name
        ),
    });
    Ok(())
}

/// The enemies `unit` could be ordered to fire at now, with the commander who would pay.
pub fn options(game: &Game, unit: UnitId) -> Vec<(UnitId, CommanderId)> {
    if !crate::revision::succession(game.info.options.rules_revision)
        || game.unit_profile(unit).ranged.is_none()
    {
        return Vec::new();
    }
    let scene = crate::geo::scene(game);
    let Some(by) = crate::authority::commanders_who_may_order(game, unit)
        .into_iter()
        .find(|c| crate::building::check_payer(game, unit, *c, RULE).is_ok())
    else {
        return Vec::new();
    };
    let required = required_target(game, &scene, unit);
    crate::sight::visible_enemies(game, &scene, unit)
        .into_iter()
        .filter(|t| Some(*t) != required && game.unit(unit).flags.aim != Some(*t))
        .map(|t| (t, by))
        .collect()
}
