//! `--autoplay N`: before a screenshot, plays N commands chosen by the scripted player, each for
//! the side that must decide (computer seats decide for themselves), so that screenshots can show
//! later phases.

use crate::battle::Battle;
use bevy::prelude::*;
use sandtable_ai::ScriptedPlayer;
use sandtable_bfs::Bfs;
use sandtable_engine::Ruleset;

#[derive(Resource, Debug, Clone, Copy)]
pub struct Autoplay {
    pub remaining: usize,
}

pub fn run(mut autoplay: ResMut<Autoplay>, battle: Option<ResMut<Battle>>) {
    let Some(mut battle) = battle else { return };
    while autoplay.remaining > 0 {
        battle.lift_curtain();
        let Some(seat) = battle.deciding() else { break };
        // The computer's seat decides by itself (computer.rs); wait for it.
        if battle.computer_to_decide().is_some() {
            return;
        }
        if seat != battle.viewer {
            battle.viewer = seat;
            battle.refresh();
        }
        // The player decides from its own seat's view, like a human at the screen.
        let view = Bfs::view(battle.session.state(), seat.0);
        let Some(cmd) = ScriptedPlayer::choose(&view) else {
            break;
        };
        if battle.submit(cmd).is_err() {
            break;
        }
        autoplay.remaining -= 1;
    }
    if autoplay.remaining == 0 {
        // Show the deciding side's screen: the screenshot is of a player at the table.
        battle.lift_curtain();
    }
}

pub fn done(autoplay: Option<Res<Autoplay>>) -> bool {
    autoplay.is_none_or(|a| a.remaining == 0)
}
