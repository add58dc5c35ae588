//! The search player, for any ruleset with an [`Evaluate`]: for each decision it tries the rules'
//! candidate commands (and the evaluation's own plans) on a copy of its own view, judges each
//! result, and plays the best. The work per decision is capped in nodes (positions evaluated),
//! never in time, so the same seed gives the same game on any machine.

use crate::evaluate::Evaluate;
use sandtable_engine::{Player, Ruleset, Seat, Teach};
use std::marker::PhantomData;

/// Positions a decision may evaluate.
pub const NODE_BUDGET: usize = 200;

pub struct SearchPlayer<R: Ruleset, E: Evaluate<R>> {
    state: u64,
    pub budget: usize,
    /// Positions evaluated by the last decision.
    pub last_nodes: usize,
    /// The ruleset's judgement, with whatever it keeps between decisions.
    evaluation: E,
    ruleset: PhantomData<fn() -> R>,
}

impl<R: Ruleset + Teach, E: Evaluate<R>> SearchPlayer<R, E> {
    pub fn new(seed: u64) -> Self {
        Self {
            state: seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1,
            budget: NODE_BUDGET,
            last_nodes: 0,
            evaluation: E::default(),
            ruleset: PhantomData,
        }
    }

    /// Tie-breaking noise, from the player's own seed.
    fn jitter(&mut self) -> f64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        (self.state >> 11) as f64 / (1u64 << 53) as f64 * 1e-6
    }

    /// The command for whoever must decide in `view` (the deciding seat's own view).
    pub fn decide(&mut self, view: &R::State) -> Option<R::Command> {
        self.last_nodes = 0;
        let seat = R::deciding(view)?;
        let mut options = R::candidates(view);
        if options.is_empty() {
            return None;
        }
        if options.len() == 1 {
            return options.into_iter().next();
        }
        // The script's standing orders come first; the search fills in the rest.
        if let Some(c) = R::standing_order(view, &options) {
            return Some(c);
        }
        if let Some(c) = self.evaluation.reflex(view, seat, &options) {
            return Some(c);
        }
        let ctx = self.evaluation.prepare(view, seat);
        // The evaluation's plans first: they are the likeliest best, and the budget may cut
        // the tail.
        let mut planned = self.evaluation.plans(view, seat, &ctx);
        planned.retain(|c| !options.contains(c));
        planned.append(&mut options);
        let ranked = self.rank(view, seat, planned, &ctx);
        ranked.into_iter().next().map(|r| r.1)
    }

    /// The options scored, best first, as far as the node budget goes.
    fn rank(
        &mut self,
        view: &R::State,
        seat: Seat,
        options: Vec<R::Command>,
        ctx: &E::Context,
    ) -> Vec<(f64, R::Command)> {
        let base = self.evaluation.value(view, seat, ctx);
        let mut scored = Vec::new();
        for cmd in options.into_iter().take(self.budget) {
            let score = self.score(view, seat, &cmd, base, ctx) + self.jitter();
            self.last_nodes += 1;
            scored.push((score, cmd));
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored
    }

    /// How good a command looks: the evaluation's own judgement, or the value of the position
    /// after it.
    fn score(
        &self,
        view: &R::State,
        seat: Seat,
        cmd: &R::Command,
        base: f64,
        ctx: &E::Context,
    ) -> f64 {
        if let Some(v) = self.evaluation.judge(view, seat, cmd, base, ctx) {
            return v;
        }
        let mut next = view.clone();
        match R::execute(&mut next, cmd) {
            Ok(_) => self.evaluation.value(&next, seat, ctx),
            Err(_) => f64::MIN,
        }
    }

    /// What the player thinks of its options in a decision, best first, with the position's
    /// value before it acts: for explaining the computer's play.
    pub fn explain(&mut self, view: &R::State) -> (f64, Vec<(f64, R::Command)>) {
        let Some(seat) = R::deciding(view) else {
            return (0.0, Vec::new());
        };
        let ctx = self.evaluation.prepare(view, seat);
        let mut options = R::candidates(view);
        let mut planned = self.evaluation.plans(view, seat, &ctx);
        planned.retain(|c| !options.contains(c));
        options.append(&mut planned);
        (
            self.evaluation.value(view, seat, &ctx),
            self.rank(view, seat, options, &ctx),
        )
    }

    /// The evaluation, for tools that explain or tune it.
    pub fn evaluation(&mut self) -> &mut E {
        &mut self.evaluation
    }
}

impl<R: Ruleset + Teach, E: Evaluate<R>> Player<R> for SearchPlayer<R, E> {
    fn choose(&mut self, view: &R::State, _seat: Seat) -> Option<R::Command> {
        self.decide(view)
    }
}
