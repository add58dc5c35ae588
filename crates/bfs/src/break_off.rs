//! Light Cavalry's Break Off (BFS-SPC-16; rules revision 6): a Charge Reaction, declared when the
//! enemy declares its charge and carried out before the charger moves. The unit rides away from
//! the charger, its full Move or half of it if it has moved this turn, then turns to face the
//! enemy if it passes a Skill test; it may not move again this turn. A Disorganized unit must
//! pass a Morale test first, or it flees.
//!
//! The book bounds where each base may end by the lines from the charger's corners to the
//! unit's diagonally opposite corners (AMB-40); Sandtable takes the one direction that always
//! lies inside that area, straight away from the charger's middle, as a commander's Break Off
//! does (BFS-CDR-8). Every base turns about its own centre to that direction (Light Cavalry is
//! in Open Order) unless that would swing a base onto another unit's, moves as a withdrawal
//! moves (through friends, 2 cm clear of enemies, not off the table), and turns about its centre
//! again to face the charger on a passed test, where that is clear too.

use crate::event::{Event, TestKind};
use crate::geo::frame_of;
use crate::ids::UnitId;
use crate::morale::{self, MoraleCause};
use crate::state::{Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_geometry::{Pose, Rect, Vec2};

/// May `unit` Break Off? Light Cavalry (BFS-SPC-16), on the table and not fleeing, not holding a
/// Charge order, not in contact, and not having broken off already this turn.
pub fn check(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let u = game.unit(unit);
    let refuse = |why: String| Err(RuleError::new("BFS-SPC-16", why));
    if !crate::revision::special_rules_6(game.info.options.rules_revision)
        || !game.unit_profile(unit).light_cavalry()
    {
        return refuse(format!(
            "{} is not Light Cavalry: it cannot Break Off.",
            u.name
        ));
    }
    if u.status != UnitStatus::OnTable || u.morale == MoraleLevel::Flight {
        return refuse(format!("{} is fleeing.", u.name));
    }
    if crate::charge_reach::effective_order(game, unit) == Some(OrderKind::Charge) {
        return refuse(format!(
            "{} holds a Charge order: a unit with one may not Break Off.",
            u.name
        ));
    }
    if u.flags.hail_of_arrows {
        return Err(RuleError::new(
            "BFS-OPT-2",
            format!(
                "{} has declared a hail of arrows: it may not Break Off this turn.",
                u.name
            ),
        ));
    }
    if u.flags.broke_off {
        return refuse(format!("{} has already broken off this turn.", u.name));
    }
    if !crate::flight::enemies_in_contact(game, unit).is_empty() {
        return refuse(format!("{} is in contact with the enemy.", u.name));
    }
    Ok(())
}

/// How far the unit rides: its Move, half of it if it has moved this turn.
pub fn reach_cm(game: &Game, unit: UnitId) -> f32 {
    let basic = game.unit_profile(unit).movement.basic;
    if game.unit(unit).flags.moved {
        basic * 0.5
    } else {
        basic
    }
}

/// The unit's bases each turned about its own centre to face `dir`, where the turned bases
/// overlap no other unit's and stand in no ground impassable to it; otherwise as they stand (a
/// base swung into a neighbour would end on top of it, one swung into a steep hill's edge would
/// stand in it: found by the property tests; battles before rules revision 16 did not check the
/// ground).
fn turned(game: &Game, unit: UnitId, dir: Vec2) -> Vec<Rect> {
    let bases = &game.unit(unit).bases;
    let angle = (-dir.x).atan2(dir.y);
    let each: Vec<Rect> = bases
        .iter()
        .map(|b| Rect::new(Pose::new(b.center(), angle), b.half))
        .collect();
    let clear = !game
        .units
        .iter()
        .filter(|o| o.id != unit && o.status == UnitStatus::OnTable)
        .flat_map(|o| o.bases.iter())
        .any(|ob| {
            each.iter()
                .any(|b| sandtable_engine::scenario_check::rects_overlap(b, ob))
        });
    let ground_clear =
        !crate::revision::small_steps_mind_impassable_ground(game.info.options.rules_revision)
            || crate::ground::impassable_under(game, unit, &each).is_none();
    if clear && ground_clear {
        each
    } else {
        bases.clone()
    }
}

/// Carries out the Break Off of `unit` from `charger` (checked by [`check`]).
pub fn break_off(game: &mut Game, unit: UnitId, charger: UnitId, events: &mut Vec<Event>) {
    let name = game.unit(unit).name.clone();
    if game.unit(unit).morale == MoraleLevel::Disorganized {
        let cause = MoraleCause::Other {
            rule: "BFS-SPC-16",
            reason: format!("{name} is Disorganized and tries to Break Off"),
        };
        let roll = morale::morale_test(game, unit, &cause);
        let passed = roll.passed;
        events.push(morale::report(
            unit,
            TestKind::Morale,
            &cause,
            roll,
            if passed {
                "passed: it Breaks Off".into()
            } else {
                "failed: it flees (BFS-SPC-16)".into()
            },
        ));
        if !passed {
            let from = game.unit(unit).morale;
            crate::turn_one::fatigue_markers_lost(game, unit, from, MoraleLevel::Flight, events);
            crate::flight::apply_level(
                game,
                unit,
                MoraleLevel::Flight,
                "failed its Morale test to Break Off (BFS-SPC-16)",
                Some(&[charger]),
                events,
            );
            return;
        }
    }
    let reach = reach_cm(game, unit);
    let from = frame_of(&game.unit(charger).bases).center();
    let me = frame_of(&game.unit(unit).bases).center();
    let away = match (me - from).try_normalize() {
        Some(d) => d,
        None => -game.unit(unit).facing(),
    };
    let running = turned(game, unit, away);
    game.unit_mut(unit).bases = running.clone();
    let want = reach.min(crate::flight::room_to_edge(game, &running, away));
    let (run, _) = crate::withdrawal::through_friends(game, unit, away, want.max(0.0));
    {
        let u = game.unit_mut(unit);
        u.bases = running.iter().map(|b| b.translated(away * run)).collect();
        u.flags.broke_off = true;
        u.flags.activated = true;
        u.flags.moved = true;
    }
    events.push(Event::Ruling {
        rule: "BFS-SPC-16".into(),
        text: format!(
            "{name} Breaks Off {run:.1} cm away from {} ({} Move{}).",
            game.unit(charger).name,
            if reach < game.unit_profile(unit).movement.basic {
                "half its"
            } else {
                "its full"
            },
            if run + 1e-3 < reach {
                ", cut short by the table edge or what stands in its way"
            } else {
                ""
            }
        ),
    });
    let what = crate::skill::Test {
        rule: "BFS-SPC-16",
        cause: format!(
            "{name} turns to face {} after breaking off",
            game.unit(charger).name
        ),
        passed: "passed: it turns to face the enemy",
        failed: "failed: it stays facing the way it rode",
    };
    // Feigned Flight turns to face without a test (BFS-SPC-11).
    let free = crate::feigned_flight::applies(game, unit);
    if free {
        events.push(Event::Ruling {
            rule: "BFS-SPC-11".into(),
            text: format!(
                "{name} turns to face {} without a test: Feigned Flight.",
                game.unit(charger).name
            ),
        });
    }
    if free
        || crate::skill::test(
            game,
            crate::skill::Tester::Unit(unit),
            Vec::new(),
            what,
            events,
        )
    {
        let me = frame_of(&game.unit(unit).bases).center();
        let towards = (from - me).try_normalize().unwrap_or(-away);
        let faced = turned(game, unit, towards);
        game.unit_mut(unit).bases = faced;
    }
}
