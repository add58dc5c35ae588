//! The search player, for any ruleset with an [`Evaluate`]: for each decision it tries the rules'
//! candidate commands (and the evaluation's own plans) on a copy of its own view, judges each
//! result, and plays the best. The work per decision is capped in nodes (positions evaluated),
//! never in time, so the same seed gives the same game on any machine.

use crate::evaluate::Evaluate;
use sandtable_engine::{Player, Ruleset, Seat, Teach};
use std::marker::PhantomData;

/// Positions a decision may evaluate at the default level.
pub const NODE_BUDGET: usize = 200;

/// How well the computer plays (issue 17): what it may look at, and how carefully it picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// Looks at its likeliest plans only and often settles for a good-enough one: still
    /// sensible (it never picks a move it judged clearly worse), but easy to beat.
    Recruit,
    /// The default.
    #[default]
    Veteran,
    /// A wider search.
    General,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Recruit, Level::Veteran, Level::General];

    /// The name players type and the start screen shows.
    pub fn name(self) -> &'static str {
        match self {
            Level::Recruit => "recruit",
            Level::Veteran => "veteran",
            Level::General => "general",
        }
    }

    /// Positions a decision may evaluate.
    pub fn budget(self) -> usize {
        match self {
            Level::Recruit => 40,
            Level::Veteran => NODE_BUDGET,
            Level::General => 3 * NODE_BUDGET,
        }
    }

    /// How many of its best-ranked options it picks among, at random, when they are within
    /// [`Level::slack`] of the best.
    fn choices(self) -> usize {
        match self {
            Level::Recruit => 3,
            Level::Veteran | Level::General => 1,
        }
    }

    /// How far below the best an option may score and still be picked, as a share of the
    /// spread between the best and the median option.
    fn slack(self) -> f64 {
        match self {
            Level::Recruit => 0.5,
            Level::Veteran | Level::General => 0.0,
        }
    }
}

impl std::str::FromStr for Level {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| format!("unknown level \"{s}\": use recruit, veteran or general"))
    }
}

pub struct SearchPlayer<R: Ruleset, E: Evaluate<R>> {
    state: u64,
    pub level: Level,
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
            level: Level::default(),
            budget: NODE_BUDGET,
            last_nodes: 0,
            evaluation: E::default(),
            ruleset: PhantomData,
        }
    }

    /// The player at `level`.
    pub fn at_level(mut self, level: Level) -> Self {
        self.level = level;
        self.budget = level.budget();
        self
    }

    /// A number in [0, 1) from the player's own seed.
    fn uniform(&mut self) -> f64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        (self.state >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Tie-breaking noise.
    fn jitter(&mut self) -> f64 {
        self.uniform() * 1e-6
    }

    /// The option played from a ranking, best first: the best, or at a lower level one of the
    /// few best that are close enough to it.
    fn pick(&mut self, mut ranked: Vec<(f64, R::Command)>) -> Option<R::Command> {
        let choices = self.level.choices().min(ranked.len());
        if choices > 1 {
            let best = ranked[0].0;
            let median = ranked[ranked.len() / 2].0;
            let floor = best - self.level.slack() * (best - median);
            let close = ranked[..choices].iter().filter(|r| r.0 >= floor).count();
            let i = (self.uniform() * close as f64) as usize;
            return Some(ranked.swap_remove(i.min(close - 1)).1);
        }
        ranked.into_iter().next().map(|r| r.1)
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
        self.pick(ranked)
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
