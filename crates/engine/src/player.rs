//! Computer players, for any ruleset: a [`Player`] decides from its own seat's view and returns a
//! command the rules accept. [`AnyPlayer`] erases one for the app, which keeps games behind
//! [`crate::dynamic::AnyGame`]; the erasure takes the seat's view itself, so no player, however
//! written, is ever handed the other side's secrets or the dice to come.

use crate::dynamic::{AnyCommand, Snapshot};
use crate::ruleset::{Ruleset, Seat};
use std::marker::PhantomData;

/// A player of ruleset `R`.
pub trait Player<R: Ruleset>: Send {
    /// The command for `seat`, which must decide now, from its own view of the game.
    fn choose(&mut self, view: &R::State, seat: Seat) -> Option<R::Command>;

    /// One or two sentences on what it expected of its last choice ("Why?"), if it can say.
    fn explain_last(&self) -> Option<String> {
        None
    }

    /// The coach: is `cmd`, which `seat` plans from `view`, a clear blunder in this player's
    /// judgement? One sentence saying why, or `None` when it is sound or cannot be judged. It
    /// only advises; the person decides.
    fn coach(&mut self, view: &R::State, seat: Seat, cmd: &R::Command) -> Option<String> {
        let _ = (view, seat, cmd);
        None
    }
}

/// A player of some ruleset, erased.
pub trait AnyPlayer: Send {
    /// The command for `seat`, decided from `seat`'s view of the snapshot's state.
    fn choose(&mut self, state: &Snapshot, seat: Seat) -> Option<AnyCommand>;
    fn explain_last(&self) -> Option<String>;
    /// [`Player::coach`] on `seat`'s view of the snapshot's state.
    fn coach(&mut self, state: &Snapshot, seat: Seat, cmd: &AnyCommand) -> Option<String>;
}

/// A typed player behind [`AnyPlayer`].
pub struct TypedPlayer<R: Ruleset, P: Player<R>> {
    player: P,
    ruleset: PhantomData<fn() -> R>,
}

impl<R: Ruleset, P: Player<R>> TypedPlayer<R, P> {
    pub fn boxed(player: P) -> Box<dyn AnyPlayer>
    where
        P: 'static,
    {
        Box::new(Self {
            player,
            ruleset: PhantomData,
        })
    }
}

impl<R: Ruleset, P: Player<R>> AnyPlayer for TypedPlayer<R, P> {
    fn choose(&mut self, state: &Snapshot, seat: Seat) -> Option<AnyCommand> {
        let state = state.0.downcast_ref::<R::State>()?;
        let view = R::view(state, seat);
        self.player.choose(&view, seat).map(AnyCommand::new)
    }

    fn explain_last(&self) -> Option<String> {
        self.player.explain_last()
    }

    fn coach(&mut self, state: &Snapshot, seat: Seat, cmd: &AnyCommand) -> Option<String> {
        let state = state.0.downcast_ref::<R::State>()?;
        let cmd = cmd.downcast::<R::Command>()?;
        let view = R::view(state, seat);
        self.player.coach(&view, seat, cmd)
    }
}
