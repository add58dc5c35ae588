//! A simple, fully predictable player: the ruleset's own fixed preferences
//! ([`Teach::scripted_choice`]). It drives `--autoplay` and the app's scripted tests.

use sandtable_engine::{Player, Ruleset, Seat, Teach};

pub struct ScriptedPlayer;

impl<R: Ruleset + Teach> Player<R> for ScriptedPlayer {
    fn choose(&mut self, view: &R::State, _seat: Seat) -> Option<R::Command> {
        R::scripted_choice(view)
    }
}
