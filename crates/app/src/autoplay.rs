//! `--autoplay N`: before a screenshot, plays N commands chosen by the scripted player, each for
//! the side that must decide (computer seats decide for themselves), so that screenshots can show
//! later phases. In a lesson it follows the lesson instead: "Next" on a step to read or one done,
//! else what "Show me" would play; each counts as one. `--hints K` then asks for K hints;
//! `--show-coach` plans a command the coach speaks up about and commits it once.

use crate::battle::Battle;
use crate::rulesets::Rulesets;
use bevy::prelude::*;

#[derive(Resource, Debug, Clone, Copy)]
pub struct Autoplay {
    pub remaining: usize,
    /// Hints to ask for on the lesson step reached (`--hints`).
    pub hints: u8,
    /// Plan a command the coach speaks up about and commit it once, so that its question
    /// shows (`--show-coach`).
    pub show_coach: bool,
}

pub fn run(
    mut autoplay: ResMut<Autoplay>,
    battle: Option<ResMut<Battle>>,
    rulesets: Res<Rulesets>,
    mut draft: ResMut<crate::table::draft::Draft>,
) {
    let Some(mut battle) = battle else { return };
    let Ok(mut player) = rulesets.0.player(battle.game.ruleset(), "scripted", 0) else {
        return;
    };
    while autoplay.remaining > 0 {
        battle.lift_curtain();
        if let Some(lesson) = battle.game.lesson()
            && !lesson.finished()
        {
            if lesson.reading() {
                battle.game.lesson_next();
            } else if battle.computer_to_decide().is_some() {
                return;
            } else if let Some(cmd) = battle.game.lesson_guide() {
                if battle.submit(&cmd).is_err() {
                    break;
                }
            } else {
                break;
            }
            autoplay.remaining -= 1;
            continue;
        }
        let Some(seat) = battle.deciding() else { break };
        // The computer's seat decides by itself (computer.rs); wait for it.
        if battle.computer_to_decide().is_some() {
            return;
        }
        if seat != battle.viewer {
            battle.look_as(seat);
        }
        // The player decides from its own seat's view, like a human at the screen.
        let Some(cmd) = player.choose(&battle.game.snapshot(), seat) else {
            break;
        };
        if battle.submit(&cmd).is_err() {
            break;
        }
        autoplay.remaining -= 1;
    }
    if autoplay.remaining == 0 {
        // Show the deciding side's screen: the screenshot is of a player at the table.
        battle.lift_curtain();
        for _ in 0..std::mem::take(&mut autoplay.hints) {
            battle.game.lesson_more_hint();
        }
        // The coach speaks to a person: wait for one to decide.
        if autoplay.show_coach && battle.computer_to_decide().is_some() {
            return;
        }
        if std::mem::take(&mut autoplay.show_coach)
            && let Some(seat) = battle.deciding()
        {
            let planned = battle
                .game
                .candidates(seat)
                .into_iter()
                .find(|c| battle.coach_advice(c).is_some());
            if planned.is_none() {
                info!(
                    "--show-coach: the coach has nothing to say about any command here ({})",
                    battle.prompt().expected
                );
            }
            if let Some(cmd) = planned {
                crate::table::draft::submit_coached(&mut draft, &mut battle, &cmd);
            }
        }
    }
}

pub fn done(autoplay: Option<Res<Autoplay>>) -> bool {
    autoplay.is_none_or(|a| a.remaining == 0 && a.hints == 0 && !a.show_coach)
}
