//! Hide Among the Pikemen (BFS-SPC-23; rules revision 11): the crew of a gun in a Pike and Shot
//! Battalion, charged, may leave its gun and hide among its Battalion's pikemen, if they stand
//! within 10 cm and nothing has touched the gun yet. It is declared as a Charge Reaction, before
//! the charger moves; the charger must then declare again, and the Battalion counts as one unit
//! for its target (BFS-SPC-21). The gun stands abandoned ([`crate::gun_manning`]); the crew takes
//! no part in combat and adds nothing to the pikemen's numbers; it is destroyed if the pikemen
//! flee or are destroyed.
//!
//! In the Movement Phase of a later turn, with the gun within 10 cm of the pikemen and no enemy
//! within 2 cm of it, the crew mans its gun again: 1 CP and 1 Special Maneuver, as any manning
//! (here the pikemen's Special Maneuver, so they need a Defense order: Sandtable's reading of "in
//! the same way as usual when manning a gun"). The crew keeps its own Skill and Morale, may use
//! Quick Loading, and the pikemen lose no Strength. Any other unit may man the abandoned gun
//! meanwhile, as any abandoned gun.

use crate::battalion::{self, Role};
use crate::event::Event;
use crate::gun_manning::{AbandonedGun, REACH_CM};
use crate::ids::{CommanderId, UnitId};
use crate::state::{Game, MoraleLevel, OrderKind, TurnFlags, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_geometry::tolerance::LIMIT_EPS;

const RULE: &str = "BFS-SPC-23";

fn gap(a: &[sandtable_geometry::Rect], b: &[sandtable_geometry::Rect]) -> f32 {
    sandtable_geometry::distance::set_distance(a, b).unwrap_or(f32::INFINITY)
}

/// The pikemen the crew of `gun` may hide among now, or why it may not.
pub fn check(game: &Game, gun: UnitId) -> Result<UnitId, RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let g = game.unit(gun);
    if !crate::gun_manning::rules_apply(game) {
        return refuse("This battle was recorded before gun crews could hide.".into());
    }
    if battalion::role(game, gun) != Some(Role::Gun) || g.battalion.is_none() {
        return refuse(format!(
            "{} is not a gun of a Pike and Shot Battalion.",
            g.name
        ));
    }
    if g.status != UnitStatus::OnTable || g.morale != MoraleLevel::Good {
        return refuse(format!("{} is not in good order.", g.name));
    }
    if !crate::flight::enemies_in_contact(game, gun).is_empty() {
        return refuse(format!("The enemy already touches {}.", g.name));
    }
    let Some(pikes) = battalion::members(game, g.side, g.battalion.unwrap_or_default())
        .into_iter()
        .find(|m| battalion::role(game, *m) == Some(Role::Pikes))
    else {
        return refuse(format!("{}'s Battalion has no pikemen.", g.name));
    };
    let p = game.unit(pikes);
    if p.status != UnitStatus::OnTable || p.morale == MoraleLevel::Flight {
        return refuse(format!("{} cannot shelter anyone.", p.name));
    }
    let d = gap(&g.bases, &p.bases);
    if d > REACH_CM + LIMIT_EPS {
        return refuse(format!(
            "{} stands {d:.1} cm from {}: the crew hides only within {REACH_CM} cm.",
            g.name, p.name
        ));
    }
    Ok(pikes)
}

/// The crew hides (checked by [`check`]): the gun is left where it stands, the crew goes off
/// the table with the pikemen, and the charger declares again.
pub fn hide(
    game: &mut Game,
    gun: UnitId,
    charger: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let pikes = check(game, gun)?;
    let base = game.unit(gun).bases[0];
    let since_turn = game.turn.number;
    game.abandoned_guns.push(AbandonedGun {
        gun,
        base,
        hidden_with: Some(pikes),
        since_turn,
    });
    let g = game.unit_mut(gun);
    g.status = UnitStatus::Reserve;
    g.hidden_among = Some(pikes);
    g.battalion = None;
    g.order = None;
    g.pending_order = None;
    g.charge = None;
    crate::charge::call_off(game, charger);
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "The crew of {} hides among {}, leaving the gun: {} must declare again, and the \
             Battalion's closest member is the one to take (BFS-SPC-21).",
            game.unit(gun).name,
            game.unit(pikes).name,
            game.unit(charger).name
        ),
    });
    Ok(())
}

/// After every command: a crew hiding among pikemen that flee or are gone is destroyed.
pub fn lose_hidden(game: &mut Game, events: &mut Vec<Event>) {
    let lost: Vec<(UnitId, UnitId)> = game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::Reserve)
        .filter_map(|u| u.hidden_among.map(|p| (u.id, p)))
        .filter(|(_, p)| {
            let p = game.unit(*p);
            p.status != UnitStatus::OnTable || p.morale == MoraleLevel::Flight
        })
        .collect();
    for (gun, pikes) in lost {
        let name = game.unit(pikes).name.clone();
        let g = game.unit_mut(gun);
        g.hidden_among = None;
        g.status = UnitStatus::Destroyed;
        g.bases_destroyed = g.bases_destroyed.saturating_add(g.bases.len() as u8);
        g.bases.clear();
        for a in game.abandoned_guns.iter_mut().filter(|a| a.gun == gun) {
            a.hidden_with = None;
        }
        events.push(Event::UnitDestroyed {
            unit: gun,
            rule: RULE.into(),
            reason: format!("its crew hid among {name}, who are gone or fleeing"),
        });
    }
}

/// May `pikes` send the crew hiding among them back to `gun` now, `by` paying?
pub fn check_return(
    game: &Game,
    pikes: UnitId,
    gun: UnitId,
    by: CommanderId,
) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let Some(a) = game
        .abandoned_guns
        .iter()
        .find(|a| a.gun == gun && a.hidden_with == Some(pikes))
    else {
        return refuse(format!(
            "No crew of that gun hides among {}.",
            game.unit(pikes).name
        ));
    };
    if game.turn.number <= a.since_turn {
        return refuse("The crew goes back to its gun in a later turn.".into());
    }
    let p = game.unit(pikes);
    if p.order != Some(OrderKind::Defense) {
        return refuse(format!(
            "{} needs a Defense order: sending the crew back is a Special Maneuver.",
            p.name
        ));
    }
    let base = std::slice::from_ref(&a.base);
    let d = gap(&p.bases, base);
    if d > REACH_CM + LIMIT_EPS {
        return refuse(format!(
            "The gun is {d:.1} cm from {}: it must be within {REACH_CM} cm.",
            p.name
        ));
    }
    crate::gun_manning::site_clear(game, p.side, &a.base).or_else(refuse)?;
    crate::building::check_payer(game, pikes, by, RULE)
}

/// The crew mans its gun again (checked by [`check_return`]): the gun unit is back on the table
/// with its own values and no order this turn; the pikemen lose nothing.
pub fn return_crew(
    game: &mut Game,
    pikes: UnitId,
    gun: UnitId,
    by: CommanderId,
    events: &mut Vec<Event>,
) {
    let Some(k) = game
        .abandoned_guns
        .iter()
        .position(|a| a.gun == gun && a.hidden_with == Some(pikes))
    else {
        return;
    };
    let a = game.abandoned_guns.remove(k);
    crate::building::pay(game, by, RULE, "the hidden crew mans its gun again", events);
    let g = game.unit_mut(gun);
    g.status = UnitStatus::OnTable;
    g.hidden_among = None;
    g.bases = vec![a.base];
    g.order = None;
    g.flags = TurnFlags {
        activated: true,
        ordered: true,
        ..TurnFlags::default()
    };
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "The crew of {} leaves {} and mans its gun again, with its own Skill and Morale; no \
             order this turn.",
            game.unit(gun).name,
            game.unit(pikes).name
        ),
    });
}

/// The crews hiding among `pikes` that could go back to their guns now, as Special Maneuvers
/// paid by the first of the pikemen's commanders who may.
pub fn options(game: &Game, pikes: UnitId) -> Vec<crate::command::SpecialManeuver> {
    game.abandoned_guns
        .iter()
        .filter(|a| a.hidden_with == Some(pikes))
        .filter_map(|a| {
            crate::authority::commanders_who_may_order(game, pikes)
                .into_iter()
                .find(|by| check_return(game, pikes, a.gun, *by).is_ok())
                .map(|by| crate::command::SpecialManeuver::ReturnCrew { gun: a.gun, by })
        })
        .collect()
}
