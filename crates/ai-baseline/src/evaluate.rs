//! [`Evaluate`]: what the search needs from a ruleset beyond its rules — a judgement of positions
//! and commands for one side. Each ruleset that the computer plays has one (By Fire and Sword's
//! is [`crate::bfs::BfsEvaluation`]); the search itself knows no ruleset.

use sandtable_engine::{Ruleset, Seat};

pub trait Evaluate<R: Ruleset>: Default + Send {
    /// What one decision works out once and every position it looks at reuses (melee odds,
    /// travel fields).
    type Context;

    /// A decision made at once, without search (a bid, a reaction, a step that only moves the
    /// game on); `None` to search.
    fn reflex(&mut self, view: &R::State, seat: Seat, options: &[R::Command])
    -> Option<R::Command>;

    /// The decision's context, from the root position.
    fn prepare(&mut self, view: &R::State, seat: Seat) -> Self::Context;

    /// Commands worth trying before the rules' sample (moves aimed at a chosen target): the
    /// search scores them first, so a tight budget keeps them.
    fn plans(&self, view: &R::State, seat: Seat, ctx: &Self::Context) -> Vec<R::Command>;

    /// A position's value for `seat`: higher is better.
    fn value(&self, view: &R::State, seat: Seat, ctx: &Self::Context) -> f64;

    /// A command's value judged without playing it (an order by what it will allow, a charge by
    /// its odds), from the position's value `base`; `None` to play it on a copy and value the
    /// result.
    fn judge(
        &self,
        view: &R::State,
        seat: Seat,
        cmd: &R::Command,
        base: f64,
        ctx: &Self::Context,
    ) -> Option<f64>;
}
