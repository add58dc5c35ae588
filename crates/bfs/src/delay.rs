//! Units held back before the battle by the pre-battle sequence: Delay (BFS-SCN-31) and
//! Outmaneuver (BFS-SCN-46). They wait in Reserves, placed in Column touching their own table
//! edge, and arrive there with a Move order (BFS-SCN-50): a Delayed unit when it passes a Skill
//! test in a Reorganization Phase after the first turn's, an outmaneuvered one at the end of
//! turn 1.

use crate::event::Event;
use crate::state::{Game, UnitStatus};
use serde::{Deserialize, Serialize};

/// How a held-back unit comes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Delay {
    /// A Skill test in every Reorganization Phase but turn 1's (BFS-SCN-31).
    SkillTest,
    /// Automatically, at the end of turn 1 (BFS-SCN-46).
    EndOfTurnOne,
}

/// The Reorganization Phase's tests for held-back units; those that come on join the reserves
/// arriving (`crate::script`), which put them on the table with a Move order once nothing
/// stands in their way.
pub fn reorganization(game: &mut Game, events: &mut Vec<Event>) {
    let turn = game.turn.number;
    let waiting: Vec<_> = game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::Reserve && !game.arriving.contains(&u.id))
        .filter_map(|u| u.delayed.map(|d| (u.id, d, u.name.clone())))
        .collect();
    for (id, delay, name) in waiting {
        let comes = match delay {
            Delay::EndOfTurnOne => {
                if turn != 1 {
                    continue;
                }
                events.push(Event::Ruling {
                    rule: "BFS-SCN-46".into(),
                    text: format!("{name}, outmaneuvered, arrives at the end of turn 1."),
                });
                true
            }
            Delay::SkillTest => {
                if turn < 2 {
                    continue;
                }
                crate::skill::test(
                    game,
                    crate::skill::Tester::Unit(id),
                    Vec::new(),
                    crate::skill::Test {
                        rule: "BFS-SCN-31",
                        cause: format!("Delay: {name} arrives if it passes"),
                        passed: "passed: it arrives at its own table edge with a Move order",
                        failed: "failed: it stays in Reserves",
                    },
                    events,
                )
            }
        };
        if comes {
            game.arriving.push(id);
        }
    }
}
