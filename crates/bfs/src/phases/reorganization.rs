//! The Reorganization Phase (BFS-PSY-22): Regiments test their Motivation (Division level,
//! [`crate::motivation`]), commanders rally, units with Mobility may lose their order for a Move
//! order (BFS-SPC-19), the battle may end, the next turn begins.
//!
//! Flanking maneuvers and ambushes are not modelled yet (docs/rules-coverage.md).

use crate::event::Event;
use crate::state::{Game, UnitStatus};
use crate::turn::Phase;
use crate::victory;

pub fn run(game: &mut Game, events: &mut Vec<Event>) {
    events.push(Event::PhaseBegan {
        phase: "Reorganization".into(),
        acting: game.turn.initiative,
    });
    crate::motivation::reorganization_tests(game, events);
    // Fleeing commanders rally automatically (BFS-RAL-1), except those of a Wiped Out Regiment
    // (BFS-PSY-28).
    let wiped: Vec<_> = game
        .regiments
        .iter()
        .filter(|r| r.wiped_out)
        .map(|r| r.id)
        .collect();
    for c in game.commanders.iter_mut().filter(|c| {
        c.fleeing
            && c.status == UnitStatus::OnTable
            && !c.regiment.is_some_and(|r| wiped.contains(&r))
    }) {
        c.fleeing = false;
        events.push(Event::CommanderRallied { commander: c.id });
    }
    mobility(game, events);
    crate::delay::reorganization(game, events);
    crate::reinforcements::reorganization(game, events);
    // Charges end with the turn, except a failed charge that passed its test (BFS-CHG-24).
    for u in game.units.iter_mut() {
        if u.charge
            .as_ref()
            .is_some_and(|c| !c.carried_over || c.contact)
        {
            u.charge = None;
        }
    }
    if let Some(reason) = victory::army_lost(game) {
        end(game, &reason, events);
        return;
    }
    if game.turn.number >= game.info.turn_limit {
        end(game, &victory::turn_limit_reason(game), events);
        return;
    }
    game.turn.number += 1;
    super::initiative::begin_turn(game, events);
}

/// Mobility (BFS-SPC-19, AMB-93's proposal): a unit with the rule and a Defense or Charge order
/// tests Skill and on a failure takes a Move order instead; one with no order gets a Move order.
/// Disorganized and fleeing units are left alone. Revision 6.
fn mobility(game: &mut Game, events: &mut Vec<Event>) {
    use crate::profile::SpecialRule;
    use crate::state::{MoraleLevel, OrderKind};
    if !crate::revision::special_rules_6(game.info.options.rules_revision) {
        return;
    }
    let units: Vec<_> = game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable && u.morale == MoraleLevel::Good)
        .map(|u| u.id)
        .filter(|&u| game.unit_profile(u).has(SpecialRule::Mobility))
        .collect();
    for id in units {
        let name = game.unit(id).name.clone();
        match game.unit(id).order {
            Some(OrderKind::Move) => {}
            None => {
                game.unit_mut(id).order = Some(OrderKind::Move);
                events.push(Event::Ruling {
                    rule: "BFS-SPC-19".into(),
                    text: format!("{name} has no order: Mobility gives it a Move order."),
                });
            }
            Some(order) => {
                let what = crate::skill::Test {
                    rule: "BFS-SPC-19",
                    cause: format!(
                        "Mobility: {name} keeps its {} order only if it passes",
                        order.name()
                    ),
                    passed: "passed: it keeps its order",
                    failed: "failed: it takes a Move order instead",
                };
                let kept = crate::skill::test(
                    game,
                    crate::skill::Tester::Unit(id),
                    Vec::new(),
                    what,
                    events,
                );
                if !kept {
                    game.unit_mut(id).order = Some(OrderKind::Move);
                }
            }
        }
    }
}

fn end(game: &mut Game, reason: &str, events: &mut Vec<Event>) {
    crate::turn_one::cut_off_the_retreat(game, events);
    let report = victory::report(game, reason);
    game.turn.phase = Phase::GameOver;
    events.push(Event::GameOver(report));
}
