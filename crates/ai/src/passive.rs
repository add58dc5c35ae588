//! The passive player: it carries out the script's standing orders and otherwise waits (bids
//! nothing, ends its phases, stands when charged). Tutorials use it so that a lesson's opponent
//! does only what the lesson needs.

use crate::standing::next_standing_order;
use sandtable_bfs::candidates::candidates;
use sandtable_bfs::command::{Command, Reaction};
use sandtable_bfs::state::Game;

pub struct PassivePlayer;

impl PassivePlayer {
    pub fn choose(view: &Game) -> Option<Command> {
        let options = candidates(view);
        if let Some(c) = next_standing_order(view, &options) {
            return Some(c);
        }
        let waiting = |c: &&Command| match c {
            Command::Bid { cp, .. } => *cp == 0,
            Command::ChooseInitiative { keep } => *keep,
            Command::EndOrders | Command::EndMovement | Command::Continue => true,
            Command::React { reaction, .. } => *reaction == Reaction::Stand,
            _ => false,
        };
        // A Charge order must be carried out (BFS-CHG-27): when the rules insist, it charges.
        options
            .iter()
            .find(waiting)
            .or_else(|| {
                options
                    .iter()
                    .find(|c| matches!(c, Command::DeclareCharge { .. } | Command::Hold { .. }))
            })
            .or(options.first())
            .cloned()
    }
}
