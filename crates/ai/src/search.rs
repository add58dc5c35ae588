//! The search player, for any ruleset with an [`Evaluate`]: for each decision it tries the rules'
//! candidate commands (and the evaluation's own plans) on a copy of its own view, judges each
//! result, and plays the best. The work per decision is capped in nodes (positions evaluated),
//! never in time, so the same seed gives the same game on any machine.

use crate::evaluate::{Chosen, Evaluate, Reasoning};
use sandtable_engine::{Dice, Player, Ruleset, Seat, Teach};
use std::marker::PhantomData;

/// Positions a decision may evaluate at the default level.
pub const NODE_BUDGET: usize = 200;

/// An option as the search scored it: its score, the command, and for a chancy command the
/// samples played and the mean gain they showed.
type Scored<C> = (f64, C, Option<(usize, f64)>);

/// A decision: the command, why it was chosen, and the evaluation's context where it searched.
type Decided<C, X> = (C, Reasoning<C>, Option<X>);

/// The seed the sampled dice of a chancy command start from (any fixed number: the samples
/// are the player's own imagination, not the game's dice).
const SAMPLE_SEED: u64 = 0x5A4D_7AB1_E000_0017;

/// Most commands a sampled game may take to settle.
const SETTLE_LIMIT: usize = 200;

/// How well the computer plays (issue 17): what it may look at, and how carefully it picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Level {
    /// Looks at fewer options and picks among its six best at random, never one it judged
    /// worse than the median option: sensible moves, but easy to beat.
    Recruit,
    /// The default.
    #[default]
    Veteran,
    /// A wider search, and charges (and Charge orders) played out with sampled dice to the
    /// end of the turn's combat instead of judged by an estimate.
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

    /// What the level means to a player (the start screen's tooltip).
    pub fn describe(self) -> &'static str {
        match self {
            Level::Recruit => "Looks at fewer options and often settles for a good-enough one",
            Level::Veteran => "The default: weighs every option it has time for",
            Level::General => {
                "Weighs more options, and plays each charge out many times with imagined dice before it commits"
            }
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
            Level::Recruit => 6,
            Level::Veteran | Level::General => 1,
        }
    }

    /// How many times a chancy command (a charge) is played out with sampled dice; none means
    /// it is judged by the evaluation's own estimate instead.
    pub fn samples(self) -> usize {
        match self {
            Level::Recruit | Level::Veteran => 0,
            Level::General => 12,
        }
    }

    /// How far below the best an option may score and still be picked, as a share of the
    /// spread between the best and the median option.
    fn slack(self) -> f64 {
        match self {
            Level::Recruit => 1.0,
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
    /// How well it plays: its budget of positions, its samples, how it picks.
    pub level: Level,
    /// Positions evaluated by the last decision.
    pub last_nodes: usize,
    /// Why it chose its last command, in words ("Why?").
    last_why: Option<String>,
    /// The ruleset's judgement, with whatever it keeps between decisions.
    evaluation: E,
    ruleset: PhantomData<fn() -> R>,
}

impl<R: Ruleset + Teach, E: Evaluate<R>> SearchPlayer<R, E> {
    pub fn new(seed: u64) -> Self {
        Self {
            state: seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1,
            level: Level::default(),
            last_nodes: 0,
            last_why: None,
            evaluation: E::default(),
            ruleset: PhantomData,
        }
    }

    /// The player at `level`.
    pub fn at_level(mut self, level: Level) -> Self {
        self.level = level;
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

    /// Which option of a ranking (best first) is played: the best, or at a lower level one of
    /// the few best that are close enough to it.
    fn pick(&mut self, ranked: &[Scored<R::Command>]) -> Option<usize> {
        if ranked.is_empty() {
            return None;
        }
        let choices = self.level.choices().min(ranked.len());
        if choices > 1 {
            let best = ranked[0].0;
            let median = ranked[ranked.len() / 2].0;
            let floor = best - self.level.slack() * (best - median);
            let close = ranked[..choices].iter().filter(|r| r.0 >= floor).count();
            let i = (self.uniform() * close as f64) as usize;
            return Some(i.min(close - 1));
        }
        Some(0)
    }

    /// The command for whoever must decide in `view` (the deciding seat's own view).
    pub fn decide(&mut self, view: &R::State) -> Option<R::Command> {
        self.last_nodes = 0;
        self.last_why = None;
        let seat = R::deciding(view)?;
        let (cmd, reasoning, ctx) = self.reason(view, seat)?;
        self.last_why = self
            .evaluation
            .why(view, seat, &cmd, &reasoning, ctx.as_ref());
        Some(cmd)
    }

    /// The decision and what the search knew when it made it.
    fn reason(&mut self, view: &R::State, seat: Seat) -> Option<Decided<R::Command, E::Context>> {
        let plain = |how| Reasoning {
            how,
            base: 0.0,
            score: None,
            runner_up: None,
            options: 0,
            sampled: None,
        };
        let mut options = R::candidates(view);
        if options.len() <= 1 {
            return options.pop().map(|c| (c, plain(Chosen::Only), None));
        }
        // The script's standing orders come first; the search fills in the rest.
        if let Some(c) = R::standing_order(view, &options) {
            return Some((c, plain(Chosen::Standing), None));
        }
        // A reflex answer that is itself chancy (a reaction to a charge) is searched instead
        // at a level that samples: its dice are what decide it.
        if let Some(c) = self.evaluation.reflex(view, seat, &options)
            && !(self.level.samples() > 0 && self.evaluation.chancy(view, seat, &c))
        {
            return Some((c, plain(Chosen::Reflex), None));
        }
        let ctx = self.evaluation.prepare(view, seat);
        // The evaluation's plans first: they are the likeliest best, and the budget may cut
        // the tail.
        let mut planned = self.evaluation.plans(view, seat, &ctx);
        planned.retain(|c| !options.contains(c));
        planned.append(&mut options);
        let base = self.evaluation.value(view, seat, &ctx);
        let ranked = self.rank(view, seat, planned, base, &ctx);
        let scored = ranked.len();
        let chosen = self.pick(&ranked)?;
        let runner_up = ranked
            .iter()
            .find(|r| r.1 != ranked[chosen].1)
            .map(|r| (r.0, r.1.clone()));
        let (score, cmd, sampled) = ranked.into_iter().nth(chosen)?;
        Some((
            cmd,
            Reasoning {
                how: Chosen::Searched,
                base,
                score: Some(score),
                runner_up,
                options: scored,
                sampled,
            },
            Some(ctx),
        ))
    }

    /// The options scored, best first, as far as the level's budget goes; `base` is the
    /// position's value before any of them.
    fn rank(
        &mut self,
        view: &R::State,
        seat: Seat,
        options: Vec<R::Command>,
        base: f64,
        ctx: &E::Context,
    ) -> Vec<Scored<R::Command>> {
        let mut scored = Vec::new();
        // The sampled games without any chancy command, once, if one is sampled.
        let mut quiet: Option<f64> = None;
        let samples = self.level.samples();
        for cmd in options.into_iter().take(self.level.budget()) {
            let (score, sampled) = if samples > 0 && self.evaluation.chancy(view, seat, &cmd) {
                let without = match quiet {
                    Some(v) => v,
                    None => *quiet.insert(self.sampled(view, seat, None, ctx)),
                };
                let gain = self.sampled(view, seat, Some(&cmd), ctx) - without;
                (base + gain, Some((samples, gain)))
            } else {
                (self.score(view, seat, &cmd, base, ctx), None)
            };
            self.last_nodes += 1;
            scored.push((score + self.jitter(), cmd, sampled));
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

    /// The mean value for `seat` of the position after `cmd` (or after none), each sample
    /// played on to the end of its exchange with its own dice. The samples' seeds are the same
    /// for every command of a decision, so two commands are compared on the same luck as far as
    /// their dice run alike. The view's dice are the viewer's blank stream, never the game's.
    fn sampled(
        &self,
        view: &R::State,
        seat: Seat,
        cmd: Option<&R::Command>,
        ctx: &E::Context,
    ) -> f64 {
        let samples = self.level.samples();
        let mut total = 0.0;
        for k in 0..samples {
            let mut s = view.clone();
            *R::dice_mut(&mut s) =
                Dice::from_seed(SAMPLE_SEED ^ (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            if let Some(cmd) = cmd
                && R::execute(&mut s, cmd).is_err()
            {
                return f64::MIN;
            }
            for _ in 0..SETTLE_LIMIT {
                let Some(next) = self.evaluation.settle(&s) else {
                    break;
                };
                if R::execute(&mut s, &next).is_err() {
                    break;
                }
            }
            total += self.evaluation.value(&s, seat, ctx);
        }
        total / samples as f64
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
        let base = self.evaluation.value(view, seat, &ctx);
        let ranked = self.rank(view, seat, options, base, &ctx);
        (
            base,
            ranked
                .into_iter()
                .map(|(score, cmd, _)| (score, cmd))
                .collect(),
        )
    }

    /// The coach (see [`Player::coach`]): the options of the piece the planned command moves
    /// ranked as for a decision, the planned command scored the same way (sampled if chancy),
    /// and the evaluation's word on the gap between it and the best of them.
    pub fn coach(&mut self, view: &R::State, seat: Seat, cmd: &R::Command) -> Option<String> {
        if R::deciding(view) != Some(seat) {
            return None;
        }
        let ctx = self.evaluation.prepare(view, seat);
        let mut options = self.evaluation.plans(view, seat, &ctx);
        let mut rules = R::candidates(view);
        rules.retain(|c| !options.contains(c));
        options.append(&mut rules);
        // The person is choosing what this piece does: its other options are the comparison.
        // A command another piece could give instead says nothing of this one's, and a piece
        // with no other option (a charge the rules insist on) draws no comment.
        let acting = |c: &R::Command| R::command_parts(view, c).pieces.first().cloned();
        // What no piece does (a bid, the end of a phase) is not the coach's business.
        let who = Some(acting(cmd)?);
        options.retain(|c| acting(c) == who);
        let base = self.evaluation.value(view, seat, &ctx);
        let ranked = self.rank(view, seat, options, base, &ctx);
        let (best, best_cmd, best_sampled) = ranked.first()?.clone();
        if best_cmd == *cmd {
            return None;
        }
        let planned = match ranked.iter().find(|r| r.1 == *cmd) {
            Some(r) => r.0,
            None => {
                self.rank(view, seat, vec![cmd.clone()], base, &ctx)
                    .first()?
                    .0
            }
        };
        let reasoning = Reasoning {
            how: Chosen::Searched,
            base,
            score: Some(best),
            runner_up: None,
            options: ranked.len(),
            sampled: best_sampled,
        };
        let best_why = self
            .evaluation
            .why(view, seat, &best_cmd, &reasoning, Some(&ctx));
        self.evaluation
            .blunder(view, seat, cmd, best - planned, best_why)
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

    fn explain_last(&self) -> Option<String> {
        self.last_why.clone()
    }

    fn coach(&mut self, view: &R::State, seat: Seat, cmd: &R::Command) -> Option<String> {
        SearchPlayer::coach(self, view, seat, cmd)
    }
}
