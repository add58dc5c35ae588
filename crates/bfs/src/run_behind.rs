//! Run Behind the Pikes (BFS-SPC-22): musketeers of a Pike and Shot Battalion, charged, withdraw
//! away from the charger while their pikemen step up to take the blow; the charger must then
//! declare a new target, and a Battalion counts as one unit for that (BFS-SPC-21), so the
//! pikemen, if closest now, are the ones it must charge.
//!
//! Declared as a Charge Reaction by the charged musketeers (units in a charge's path do not
//! react in Sandtable yet, BFS-CHG-8), when some part of the charger lies in front of both them
//! and their pikemen (AMB-90: in both front zones), neither of them in close combat nor holding a
//! Charge order, once a turn. The musketeers withdraw half their Basic Move straight back, away
//! from the charger in their front zone, by the Withdrawal rules (BFS-PSY-15; through friends, 2 cm from enemies), losing
//! their order unless it is Defense. The pikemen may then move up to half their Move: Sandtable
//! offers them standing, or stepping straight forward as far as that reaches, stopping 2 cm from
//! any enemy and paying for ground as any move (the frontage never changes). The book moves
//! both at once and lets the musketeers end where the pikemen stood; here the musketeers go
//! first, so they end clear of the pikemen's old place only as far as the withdrawal reaches.
//! The musketeers move no more this turn, but to flee, withdraw or countermarch.
//!
//! Not yet: declaring it in the Close Combat Stage (a charge here is declared and moved in the
//! Movement Phase, so there is no later moment before contact to declare it in).

use crate::battalion::{self, Role};
use crate::charge_reach::effective_order;
use crate::command::MoveStep;
use crate::event::Event;
use crate::ids::UnitId;
use crate::state::{Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_geometry::ZoneScheme;
use sandtable_geometry::zones::{Zone, rect_in_zone};

const RULE: &str = "BFS-SPC-22";

/// The block of pikemen of the musketeers' Battalion, if the musketeers may Run Behind the Pikes
/// from `charger`; otherwise why not.
pub fn check(game: &Game, musketeers: UnitId, charger: UnitId) -> Result<UnitId, RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let u = game.unit(musketeers);
    if battalion::role(game, musketeers) != Some(Role::Shot) || u.battalion.is_none() {
        return refuse(format!(
            "{} is not musketeers of a Pike and Shot Battalion.",
            u.name
        ));
    }
    if u.flags.ran_behind {
        return refuse(format!(
            "{} has already run behind the pikes this turn.",
            u.name
        ));
    }
    let Some(pikes) = battalion::members(game, u.side, u.battalion.unwrap_or_default())
        .into_iter()
        .find(|m| battalion::role(game, *m) == Some(Role::Pikes))
    else {
        return refuse(format!("{}'s Battalion has no pikemen.", u.name));
    };
    for who in [musketeers, pikes] {
        let w = game.unit(who);
        if w.status != UnitStatus::OnTable || w.morale != MoraleLevel::Good {
            return refuse(format!("{} is not in good order.", w.name));
        }
        if !crate::flight::enemies_in_contact(game, who).is_empty() {
            return refuse(format!("{} is in close combat.", w.name));
        }
        if effective_order(game, who) == Some(OrderKind::Charge) {
            return refuse(format!("{} holds a Charge order.", w.name));
        }
    }
    let in_front_of = |who: UnitId| {
        let frame = crate::geo::unit_frame(game.unit(who));
        game.unit(charger)
            .bases
            .iter()
            .any(|b| rect_in_zone(&frame, Zone::Front, ZoneScheme::default(), b).unwrap_or(false))
    };
    let back = -crate::geo::unit_frame(u).facing();
    let half = game.unit_profile(musketeers).movement.basic * 0.5;
    if crate::flight::withdrawal_reach(game, musketeers, back, half).0 < 0.1 {
        return refuse(format!(
            "{} has no room to withdraw behind the pikes.",
            u.name
        ));
    }
    if !in_front_of(musketeers) || !in_front_of(pikes) {
        return refuse(format!(
            "No part of {} stands in front of both {} and {} (AMB-90).",
            game.unit(charger).name,
            u.name,
            game.unit(pikes).name
        ));
    }
    Ok(pikes)
}

/// How far forward the pikemen can step, up to half their Move, as any move would take them
/// (terrain, 2 cm from enemies, no friend in the way), to the nearest millimetre.
pub fn pikes_reach(game: &Game, pikes: UnitId) -> f32 {
    let half = game.unit_profile(pikes).movement.basic * 0.5;
    let scene = crate::geo::scene(game);
    let fits = |d: f32| {
        crate::moves::plan(game, &scene, pikes, &[MoveStep::Forward(d)], half)
            .is_ok_and(|p| p.passed_through.is_empty())
    };
    if fits(half) {
        return half;
    }
    // The largest step that fits, in whole millimetres.
    let (mut lo, mut hi) = (0u32, (half * 10.0) as u32);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid as f32 / 10.0) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo as f32 / 10.0
}

/// Carries out the maneuver (checked by [`check`]): the musketeers withdraw, the pikemen step
/// forward if `advance`, and the charger stands ready to declare again.
pub fn run_behind(
    game: &mut Game,
    musketeers: UnitId,
    charger: UnitId,
    advance: bool,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let pikes = check(game, musketeers, charger)?;
    // The charger stands in their front zone: straight back, as a unit attacked in front
    // withdraws (BFS-PSY-16), still facing it.
    let dir = -crate::geo::unit_frame(game.unit(musketeers)).facing();
    crate::flight::withdraw(
        game,
        musketeers,
        dir,
        "Run Behind the Pikes (BFS-SPC-22)",
        events,
    );
    game.unit_mut(musketeers).flags.ran_behind = true;
    if advance {
        let d = pikes_reach(game, pikes);
        if d > 0.0 {
            let scene = crate::geo::scene(game);
            let half = game.unit_profile(pikes).movement.basic * 0.5;
            if let Ok(plan) = crate::moves::plan(game, &scene, pikes, &[MoveStep::Forward(d)], half)
            {
                game.unit_mut(pikes).bases = plan.bases.clone();
                events.push(Event::Moved {
                    unit: pikes,
                    cost_cm: plan.cost,
                    allowance_cm: half,
                    description: format!(
                        "steps {d:.1} cm forward to cover the musketeers (BFS-SPC-22)"
                    ),
                });
            }
        }
    }
    crate::charge::call_off(game, charger);
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{} ran behind {}: {} must declare a new target, and the Battalion's closest \
             member is the one to take (BFS-SPC-21).",
            game.unit(musketeers).name,
            game.unit(pikes).name,
            game.unit(charger).name
        ),
    });
    Ok(())
}
