//! [`Evaluate`]: what the search needs from a ruleset beyond its rules — a judgement of positions
//! and commands for one side. Each ruleset that the computer plays has one (By Fire and Sword's
//! is [`crate::bfs::BfsEvaluation`]); the search itself knows no ruleset.

use sandtable_engine::{Player, Ruleset, Seat};

/// What the search knew when it chose a command: its own numbers, for "Why?".
#[derive(Debug, Clone)]
pub struct Reasoning<C> {
    /// How the choice was made.
    pub how: Chosen,
    /// The position's value before the command.
    pub base: f64,
    /// The chosen command's score (searched choices only).
    pub score: Option<f64>,
    /// The next best option and its score, if there was one.
    pub runner_up: Option<(f64, C)>,
    /// Options scored.
    pub options: usize,
    /// For a chancy command: how many games were sampled, and the mean gain over the same
    /// samples without it.
    pub sampled: Option<(usize, f64)>,
}

/// How the search arrived at a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chosen {
    /// The only legal command.
    Only,
    /// The scenario's standing orders.
    Standing,
    /// At once, without search (a bid, a reaction, a step that moves the game on).
    Reflex,
    /// The best of the options scored (or, at a lower level, one close to it).
    Searched,
}

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

    /// Is `cmd`'s worth in dice that cannot be foreseen (a charge: the reactions, the
    /// Defender's Fire, the rounds of close combat, flight and pursuit)? The search then plays it
    /// out several times with sampled dice, with [`Evaluate::settle`] deciding for both sides,
    /// and values it by the mean of the results against the same samples without it.
    fn chancy(&self, view: &R::State, seat: Seat, cmd: &R::Command) -> bool {
        let _ = (view, seat, cmd);
        false
    }

    /// The command that carries a sampled game on towards the end of the exchange a chancy
    /// command starts (both sides' quickest sensible answers), or `None` once it is settled.
    fn settle(&self, state: &R::State) -> Option<R::Command> {
        let _ = state;
        None
    }

    /// One or two sentences on why `cmd` was chosen, from the search's own numbers
    /// (`reasoning`, and the decision's context where it searched), in a player's words; `None`
    /// for a step that needs no reason.
    fn why(
        &self,
        view: &R::State,
        seat: Seat,
        cmd: &R::Command,
        reasoning: &Reasoning<R::Command>,
        ctx: Option<&Self::Context>,
    ) -> Option<String> {
        let _ = (view, seat, cmd, reasoning, ctx);
        None
    }

    /// The coach's sentence when a person's planned `cmd` scores `gap` below the best option
    /// the search found (whose "Why?" is `best_why`): `None` unless the gap makes it a clear
    /// blunder on this evaluation's scale. The default never coaches.
    fn blunder(
        &self,
        view: &R::State,
        seat: Seat,
        cmd: &R::Command,
        gap: f64,
        best_why: Option<String>,
    ) -> Option<String> {
        let _ = (view, seat, cmd, gap, best_why);
        None
    }

    /// The frozen computer player of 2026-11-26 for this ruleset (`sandtable-ai-baseline`), the
    /// opponent every later AI is measured against; `None` where the ruleset had none then.
    fn baseline(seed: u64) -> Option<Box<dyn Player<R>>> {
        let _ = seed;
        None
    }
}
