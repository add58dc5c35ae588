//! The computer opponent in the app: when a computer seat must decide, the ruleset's computer
//! player (from the registry) thinks on Bevy's async compute pool, off the frame, so the table
//! stays responsive; it sees only its own seat's view. Its command is then submitted like a
//! person's, checked by the rules. Its moves are paced so that a person can follow them.

use crate::battle::Battle;
use crate::rulesets::Rulesets;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use sandtable_engine::{AnyCommand, Seat};

/// Seconds between two computer commands, so its moves can be followed on the table.
#[derive(Resource, Debug, Clone, Copy)]
pub struct ComputerPace(pub f32);

impl Default for ComputerPace {
    fn default() -> Self {
        Self(0.35)
    }
}

/// What the computer decided, and why, in its words.
type Decision = (Option<AnyCommand>, Option<String>);

/// The computer's decision in progress.
#[derive(Resource, Default)]
pub struct Thinking {
    /// The battle revision the decision was asked for, and the running task.
    task: Option<(u64, Seat, Task<Decision>)>,
    /// A decision made, waiting for its turn on screen: (revision, seat, command, its reason,
    /// due time).
    ready: Option<(u64, Seat, AnyCommand, Option<String>, f32)>,
    /// When the computer last played, seconds since startup.
    last_played: f32,
}

impl Thinking {
    /// Is the computer deciding right now (for the phase bar)?
    pub fn busy(&self) -> bool {
        self.task.is_some() || self.ready.is_some()
    }
}

/// Starts, collects and plays the computer's decisions. A decision asked for an older position
/// (the person undid meanwhile) is dropped.
pub fn think(
    battle: Option<ResMut<Battle>>,
    mut thinking: ResMut<Thinking>,
    time: Res<Time>,
    pace: Res<ComputerPace>,
    rulesets: Res<Rulesets>,
) {
    let Some(mut battle) = battle else {
        *thinking = Thinking::default();
        return;
    };
    let now = time.elapsed_secs();
    if let Some((revision, side, task)) = thinking.task.as_mut()
        && let Some(result) = check_ready(task)
    {
        let (revision, side) = (*revision, *side);
        thinking.task = None;
        match result {
            (Some(cmd), why) if revision == battle.revision => {
                let due = thinking.last_played + pace.0;
                thinking.ready = Some((revision, side, cmd, why, due));
            }
            (Some(_), _) => {}
            (None, _) => {
                battle.notice =
                    Some("The computer found no legal command (please report this).".into())
            }
        }
    }
    if let Some((revision, side, _, _, due)) = &thinking.ready {
        if *revision != battle.revision {
            thinking.ready = None;
        } else if now >= *due {
            let side = *side;
            if let Some((_, _, cmd, why, _)) = thinking.ready.take()
                && let Err(e) = battle.submit_computer(side, &cmd, why)
            {
                battle.notice = Some(format!("The computer's command was refused: {e}"));
            }
            thinking.last_played = now;
        }
        return;
    }
    if thinking.task.is_some() || battle.is_over() || battle.lesson_reading() {
        return;
    }
    let Some(side) = battle.computer_to_decide() else {
        return;
    };
    // A seed from the position, so the same game gets the same decisions.
    let seed = battle.game.seed() ^ (battle.game.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut player = match rulesets
        .0
        .player(battle.game.ruleset(), &battle.opponent, seed)
    {
        Ok(p) => p,
        Err(e) => {
            battle.notice = Some(format!("No computer player: {e}"));
            return;
        }
    };
    // The player takes its own seat's view of the snapshot: it sees what a person there would.
    let snapshot = battle.game.snapshot();
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let cmd = player.choose(&snapshot, side);
        (cmd, player.explain_last())
    });
    thinking.task = Some((battle.revision, side, task));
}
