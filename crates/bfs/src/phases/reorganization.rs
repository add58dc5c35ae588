//! The Reorganization Phase (BFS-PSY-22): Regiments test their Motivation (Division level,
//! [`crate::motivation`]), commanders rally, the battle may end, the next turn begins.
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

fn end(game: &mut Game, reason: &str, events: &mut Vec<Event>) {
    let report = victory::report(game, reason);
    game.turn.phase = Phase::GameOver;
    events.push(Event::GameOver(report));
}
