//! The charge moves (BFS-CHG-13..24): the charger's straight move and wheel to contact within its
//! budget, slowed by terrain (BFS-TER-2/3), the countercharge meeting it halfway (BFS-CHG-22),
//! the Additional Move in the Combat Phase, and what a failed charge costs (BFS-CHG-24).

use crate::charge_reach::{
    charge_obstacles, effective_order, impetus_run, params, simulate, terrain_budget,
};
use crate::dice::TestRoll;
use crate::event::{Event, TestKind, TestReport};
use crate::flight;
use crate::geo::{self, frame_of, unit_frame};
use crate::ids::UnitId;
use crate::sight;
use crate::state::{Formation, Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_geometry::Rect;
use sandtable_geometry::charge::{self as gcharge};
use sandtable_geometry::movement::Body;
use sandtable_geometry::vision::VisionArc;

/// Which part of a charge is moving (BFS-CHG-13, BFS-CHG-22, BFS-CC-30).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargePart {
    Movement,
    Additional,
    Countercharge,
    CounterchargeAdditional,
    /// A pursuit moves at the Additional Move (BFS-CC-30).
    Pursuit,
}

impl ChargePart {
    pub fn name(self) -> &'static str {
        match self {
            ChargePart::Movement => "Movement Phase",
            ChargePart::Additional => "Additional Move",
            ChargePart::Countercharge => "countercharge",
            ChargePart::CounterchargeAdditional => "Additional Move (countercharge)",
            ChargePart::Pursuit => "Pursuit",
        }
    }
    /// Moves made with the Additional Move, which very difficult terrain forbids (BFS-TER-3).
    pub fn is_additional(self) -> bool {
        matches!(
            self,
            ChargePart::Additional | ChargePart::CounterchargeAdditional | ChargePart::Pursuit
        )
    }
}

/// One part of a charge (BFS-CHG-13): wheel to face, straight on, align on contact (GEO-11/12).
/// Returns true on contact.
pub fn charge_part(
    game: &mut Game,
    charger: UnitId,
    budget: f32,
    part: ChargePart,
    events: &mut Vec<Event>,
) -> bool {
    let additional = part.is_additional();
    let part = part.name();
    let Some(state) = game.unit(charger).charge.clone() else {
        return false;
    };
    let target = state.target;
    if game.unit(target).status != UnitStatus::OnTable {
        return false;
    }
    let scene = geo::scene(game);
    let budget = terrain_budget(game, &scene, charger, target, budget, additional, events);
    if crate::open_order_charge::applies(game, charger) {
        return crate::open_order_charge::charge_part(
            game, &scene, charger, target, budget, part, events,
        );
    }
    let Some(out) = simulate(game, &scene, charger, target, budget) else {
        events.push(Event::Ruling {
            rule: "BFS-CHG-14".into(),
            text: format!(
                "{} cannot find a way to charge {}.",
                game.unit(charger).name,
                game.unit(target).name
            ),
        });
        return false;
    };
    let moved: Vec<Rect> = game
        .unit(charger)
        .bases
        .iter()
        .map(|b| out.apply(b))
        .collect();
    let travelled = out.travelled;
    let wheel_deg = out.wheel.theta.abs().to_degrees();
    let mut contact_unit = out.contact.map(|c| UnitId(c.unit as u16));
    let mut final_bases = moved.clone();
    let mut used = out.cost;
    let mut closed_in: Option<u8> = None;
    if let Some(c) = out.contact {
        let touched = UnitId(c.unit as u16);
        // Align on the contact point with the struck edge (BFS-CHG-19); incidental contact makes
        // the touched unit the target (BFS-CHG-11).
        let tframe = unit_frame(game.unit(touched));
        let zone = gcharge::charge_zone(
            &tframe,
            &frame_of(&game.unit(charger).bases),
            params(game).zones,
        )
        .ok()
        .flatten();
        let edge = zone
            .map(|z| z.edge())
            .unwrap_or(sandtable_geometry::Edge::Front);
        let aligned = {
            let scene2 = geo::scene_with(game, Some((charger, &moved)));
            let body = Body::new(frame_of(&moved), &moved);
            let obs = charge_obstacles(game, charger);
            let allowance = (budget - out.cost).max(0.0);
            gcharge::align(
                &scene2,
                &body,
                c.point,
                tframe.edge_normal(edge),
                c.unit,
                allowance,
                &params(game),
                &obs,
            )
            .ok()
        };
        if let Some(al) = aligned {
            let turned: Vec<Rect> = moved.iter().map(|b| al.outcome.apply(b)).collect();
            // An alignment that would swing into a unit stops short: the charger fights as it
            // stands (BFS-CHG-16, BFS-CHG-19.3).
            if !overlaps_anyone(game, charger, &turned) {
                final_bases = turned;
                used += al.cost;
            }
        }
        // Elite Cavalry closes in base by base, as many abreast as can touch the edge
        // (BFS-SPC-10).
        if crate::elite_cavalry::charges_base_by_base(game, charger)
            && let Some((bases, files)) = crate::elite_cavalry::close_in(
                game,
                charger,
                &game.unit(charger).bases,
                &final_bases,
                touched,
                edge,
                budget,
            )
        {
            final_bases = bases;
            game.unit_mut(charger).formation = Formation::Close { files };
            closed_in = Some(files);
        }
        let u = game.unit_mut(charger);
        if let Some(cs) = u.charge.as_mut() {
            cs.contact = true;
            cs.target = touched;
            cs.struck = Some(edge);
            // Impetus counts the straight run into contact, with the distance already covered
            // earlier in the charge (BFS-CC-14).
            cs.straight_run = impetus_run(cs.straight_run, travelled, wheel_deg);
        }
        contact_unit = Some(touched);
        if edge == sandtable_geometry::Edge::Front
            && effective_order_is_charge_unused(game, touched)
        {
            game.unit_mut(touched).flags.charged_in_front = true;
        }
    } else if let Some(cs) = game.unit_mut(charger).charge.as_mut() {
        cs.straight_run = if wheel_deg > 0.5 {
            travelled
        } else {
            cs.straight_run + travelled
        };
    }
    game.unit_mut(charger).bases = final_bases;
    game.unit_mut(charger).flags.moved = true;
    let name = game.unit(target).name.clone();
    let mut description = match contact_unit {
        Some(t) if t == target => {
            format!("{part}: wheeled {wheel_deg:.0}°, moved {travelled:.1} cm and struck {name}")
        }
        Some(t) => format!(
            "{part}: moved {travelled:.1} cm and struck {} instead (incidental contact, BFS-CHG-11)",
            game.unit(t).name
        ),
        None => format!(
            "{part}: wheeled {wheel_deg:.0}° and moved {travelled:.1} cm towards {name}, not yet in contact"
        ),
    };
    if let Some(files) = closed_in {
        description.push_str(&format!(
            ", its bases closing in {files} abreast, none touching by a corner only (Elite Cavalry, BFS-SPC-10)"
        ));
    }
    events.push(Event::ChargeMoved {
        unit: charger,
        distance_cm: used,
        contact: contact_unit,
        description,
    });
    // Horses that charge into caltrops test Skill (BFS-OBS-7).
    let after = game.unit(charger).bases.clone();
    crate::portable::caltrops_test(game, charger, &after, events);
    contact_unit.is_some()
}

/// Would these bases of `unit` overlap any other unit's?
pub(crate) fn overlaps_anyone(game: &Game, unit: UnitId, bases: &[Rect]) -> bool {
    game.units
        .iter()
        .filter(|o| o.id != unit && o.status == UnitStatus::OnTable)
        .any(|o| {
            o.bases.iter().any(|ob| {
                bases
                    .iter()
                    .any(|b| sandtable_engine::scenario_check::rects_overlap(b, ob))
            })
        })
}

pub(crate) fn effective_order_is_charge_unused(game: &Game, unit: UnitId) -> bool {
    effective_order(game, unit) == Some(OrderKind::Charge) && !game.unit(unit).flags.charged
}

/// A countercharge part (BFS-CHG-22, GEO-13): the countercharger moves first, up to the halfway
/// line between the fronts, then the charger, which may cross the line if the other fell short.
pub fn countercharge_part(
    game: &mut Game,
    charger: UnitId,
    counter: UnitId,
    additional: bool,
    events: &mut Vec<Event>,
) {
    let m = |g: &Game, u: UnitId| {
        let mv = g.unit_profile(u).movement;
        if additional { mv.additional } else { mv.basic }
    };
    let fa = unit_frame(game.unit(charger)).edge(sandtable_geometry::Edge::Front);
    let fb = unit_frame(game.unit(counter)).edge(sandtable_geometry::Edge::Front);
    let to_line = gcharge::halfway_line(&fa, &fb).ok().and_then(|line| {
        gcharge::travel_to_line(&fb, unit_frame(game.unit(counter)).facing(), &line)
            .ok()
            .flatten()
    });
    let part = if additional {
        ChargePart::CounterchargeAdditional
    } else {
        ChargePart::Countercharge
    };
    // Exactly to the line, never past it: the charger meets it there (BFS-CHG-22 examples).
    // Battles recorded under revision 0 let it run 0.5 cm past ([`crate::revision`]).
    let overshoot = crate::revision::countercharge_overshoot_cm(game.info.options.rules_revision);
    let cc_budget = to_line.map_or(m(game, counter), |d| m(game, counter).min(d + overshoot));
    if charge_part(game, counter, cc_budget, part, events) {
        mark_contact(game, charger, counter);
        return;
    }
    let part = if additional {
        ChargePart::Additional
    } else {
        ChargePart::Movement
    };
    if charge_part(game, charger, m(game, charger), part, events) {
        mark_contact(game, counter, charger);
    }
}

fn mark_contact(game: &mut Game, unit: UnitId, with: UnitId) {
    if let Some(cs) = game.unit_mut(unit).charge.as_mut()
        && cs.target == with
    {
        cs.contact = true;
        cs.struck = Some(sandtable_geometry::Edge::Front);
    }
}

/// Close Combat step 1: chargers not yet in contact make their Additional Move; one that still
/// fails to reach takes a Skill test (BFS-CHG-13, BFS-CHG-24, BFS-CC-4).
pub fn additional_moves(game: &mut Game, events: &mut Vec<Event>) {
    crate::elite_cavalry::close_in_additional(game, events);
    let first = game.turn.initiative.unwrap_or(crate::ids::Side::A);
    let mut chargers: Vec<UnitId> = game
        .units
        .iter()
        .filter(|u| {
            u.status == UnitStatus::OnTable
                && u.charge.as_ref().is_some_and(|c| {
                    !c.countercharge
                        && (!c.contact
                            || crate::open_order_charge::bases_still_charging(game, u.id))
                })
        })
        .map(|u| u.id)
        .collect();
    chargers.sort_by_key(|u| (game.unit(*u).side != first, u.0));
    for charger in chargers {
        let Some(state) = game.unit(charger).charge.clone() else {
            continue;
        };
        // Open Order bases not yet in contact go on (BFS-OO-10).
        let open_order_rest =
            state.contact && crate::open_order_charge::bases_still_charging(game, charger);
        if state.contact && !open_order_rest {
            continue;
        }
        let target = state.target;
        // The countercharger of this pair moves too (BFS-CHG-22).
        let counter = game
            .units
            .iter()
            .find(|o| {
                o.charge
                    .as_ref()
                    .is_some_and(|c| c.countercharge && c.target == charger && !c.contact)
            })
            .map(|o| o.id);
        let scene = geo::scene(game);
        if game.unit(target).status != UnitStatus::OnTable
            || !sight::sees(game, &scene, charger, target, Some(VisionArc::All360))
        {
            // The target has gone from view: the charge becomes a Move order, no test (BFS-CHG-10, AMB-30).
            let u = game.unit_mut(charger);
            u.charge = None;
            u.order = Some(OrderKind::Move);
            events.push(Event::OrderChanged {
                unit: charger,
                from: Some(OrderKind::Charge),
                to: Some(OrderKind::Move),
                rule: "BFS-CHG-10".into(),
                reason: "its target left its field of vision".into(),
            });
            continue;
        }
        let add = game.unit_profile(charger).movement.additional;
        let reached = match counter {
            Some(cc) => {
                countercharge_part(game, charger, cc, true, events);
                game.unit(charger)
                    .charge
                    .as_ref()
                    .is_some_and(|c| c.contact)
            }
            None if add > 0.0 => charge_part(game, charger, add, ChargePart::Additional, events),
            None => false,
        };
        if !reached && !open_order_rest {
            failed_charge(game, charger, events);
        }
    }
}

/// A charger that fails to reach the enemy takes a Skill test (a Morale test under the
/// `failed_charge_test` option, AMB-10). Fail: Disorganized, and cavalry withdraws. Pass: keeps
/// its Charge order and Impetus into the next turn against the same target (BFS-CHG-24).
fn failed_charge(game: &mut Game, charger: UnitId, events: &mut Vec<Event>) {
    let p = game.unit_profile(charger);
    let (base, kind, rule) = match game.info.options.failed_charge_test {
        crate::options::FailedChargeTest::Skill => (p.skill as i32, TestKind::Skill, "BFS-CHG-24"),
        crate::options::FailedChargeTest::Morale => {
            (p.morale as i32, TestKind::Morale, "BFS-CHG-24")
        }
    };
    let roll = TestRoll::roll(base, Vec::new(), &mut game.dice, 10);
    let passed = roll.passed;
    let outcome = if passed {
        "passed: it keeps its Charge order and Impetus into the next turn".to_string()
    } else {
        "failed: the unit is Disorganized".to_string()
    };
    events.push(Event::Test(TestReport {
        unit: Some(charger),
        commander: None,
        kind,
        rule: rule.into(),
        cause: "the charge failed to reach the enemy".into(),
        roll,
        outcome,
    }));
    if passed {
        if let Some(cs) = game.unit_mut(charger).charge.as_mut() {
            cs.carried_over = true;
        }
    } else {
        let target = game.unit(charger).charge.as_ref().map(|c| c.target);
        game.unit_mut(charger).charge = None;
        let enemies: Vec<UnitId> = target.into_iter().collect();
        flight::apply_level(
            game,
            charger,
            MoraleLevel::Disorganized,
            "failed charge",
            Some(&enemies),
            events,
        );
    }
}
