//! The passive player: it carries out the script's standing orders and otherwise waits (bids
//! nothing, ends its phases, stands when charged). Tutorials use it so that a lesson's opponent
//! does only what the lesson needs.

use crate::standing::next_standing_order;
use sandtable_bfs::candidates::candidates;
use sandtable_bfs::command::Command;
use sandtable_bfs::state::Game;

pub struct PassivePlayer;

impl PassivePlayer {
    pub fn choose(view: &Game) -> Option<Command> {
        let options = candidates(view);
        if let Some(c) = next_standing_order(view, &options) {
            return Some(c);
        }
        // A Charge order must be carried out (BFS-CHG-27): when the rules insist, it charges.
        sandtable_bfs::lesson::waiting_choice(&options)
    }
}
