//! The passive player: it carries out the script's standing orders and otherwise waits (the
//! ruleset's choice that decides nothing: bid nothing, end its phases, stand when charged).
//! Tutorials use it so that a lesson's opponent does only what the lesson needs.

use sandtable_engine::{Player, Ruleset, Seat, Teach};

pub struct PassivePlayer;

impl<R: Ruleset + Teach> Player<R> for PassivePlayer {
    fn choose(&mut self, view: &R::State, _seat: Seat) -> Option<R::Command> {
        let options = R::candidates(view);
        R::standing_order(view, &options).or_else(|| R::waiting_choice(view, &options))
    }
}
