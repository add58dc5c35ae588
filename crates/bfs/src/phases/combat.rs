//! The Combat Phase (BFS-CBT-2): Defender's Fire, the Close Combat stage, Shooting after Movement,
//! each resolved when the Initiative player asks to continue, then the Reorganization Phase.

use crate::close_combat;
use crate::event::Event;
use crate::shooting::{self, FireStage};
use crate::state::Game;
use crate::turn::{CombatStage, Phase};
use sandtable_engine::RuleError;

pub fn check_continue(game: &Game) -> Result<CombatStage, RuleError> {
    match game.turn.phase {
        Phase::Combat(stage) => Ok(stage),
        _ => Err(RuleError::new(
            "BFS-CBT-2",
            format!(
                "There is nothing to resolve: it is the {} Phase.",
                game.turn.phase.title()
            ),
        )),
    }
}

pub fn continue_combat(game: &mut Game, events: &mut Vec<Event>) -> Result<(), RuleError> {
    let stage = check_continue(game)?;
    match stage {
        CombatStage::DefendersFire => {
            events.push(Event::PhaseBegan {
                phase: "Defender's Fire".into(),
                acting: game.turn.initiative,
            });
            shooting::resolve_stage(game, FireStage::DefendersFire, events);
            game.turn.phase = Phase::Combat(CombatStage::CloseCombat);
        }
        CombatStage::CloseCombat => {
            events.push(Event::PhaseBegan {
                phase: "Close Combat".into(),
                acting: game.turn.initiative,
            });
            close_combat::resolve_stage(game, events);
            game.turn.phase = Phase::Combat(CombatStage::ShootingAfterMovement);
        }
        CombatStage::ShootingAfterMovement => {
            events.push(Event::PhaseBegan {
                phase: "Shooting after Movement".into(),
                acting: game.turn.initiative,
            });
            shooting::resolve_stage(game, FireStage::AfterMovement, events);
            // After the Combat Phase every caracole's first rank rides back (BFS-SPC-4).
            crate::caracole::end_all(game, events);
            super::reorganization::run(game, events);
        }
    }
    Ok(())
}
