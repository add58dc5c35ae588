//! The search player: for each decision it tries the rules' candidate commands on a copy of its
//! own view, judges each result with the evaluation, and plays the best. Charges are judged by
//! their odds. The work per decision is capped in nodes (positions evaluated), never in time, so
//! the same seed gives the same game on any machine.

use crate::eval::evaluate;
use sandtable_bfs::candidates::candidates;
use sandtable_bfs::command::{Command, Reaction};
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{Game, OrderKind};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, preview};
use sandtable_engine::Ruleset;

/// Positions a decision may evaluate.
pub const NODE_BUDGET: usize = 200;

pub struct SearchPlayer {
    state: u64,
    pub budget: usize,
    /// Positions evaluated by the last decision.
    pub last_nodes: usize,
}

impl SearchPlayer {
    pub fn new(seed: u64) -> Self {
        Self { state: seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1, budget: NODE_BUDGET, last_nodes: 0 }
    }

    /// Tie-breaking noise, from the player's own seed.
    fn jitter(&mut self) -> f64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        (self.state >> 11) as f64 / (1u64 << 53) as f64 * 1e-6
    }

    /// The command for whoever must decide in `view` (the deciding seat's own view).
    pub fn choose(&mut self, view: &Game) -> Option<Command> {
        self.last_nodes = 0;
        let seat = Side(Bfs::prompt(view).seat?.min(1));
        let options = candidates(view);
        if options.is_empty() {
            return None;
        }
        if options.len() == 1 {
            return options.into_iter().next();
        }
        match &view.turn.phase {
            Phase::InitiativeBids { .. } => {
                // Orders are free in the first turn, so CP are worth more as a bid then.
                let want = if view.turn.number == 1 { 2 } else { 0 };
                return options.iter().filter(|c| matches!(c, Command::Bid { cp, .. } if *cp <= want)).max_by_key(|c| match c {
                    Command::Bid { cp, .. } => *cp,
                    _ => 0,
                }).cloned();
            }
            Phase::InitiativeChoice { .. } => return Some(Command::ChooseInitiative { keep: true }),
            Phase::Combat(_) => return Some(Command::Continue),
            Phase::Movement { charge: Some(c), .. } => return Some(self.react(view, seat, &options, c.charger)),
            _ => {}
        }
        let base = evaluate(view, seat);
        let mut best: Option<(f64, Command)> = None;
        for cmd in options.into_iter().take(self.budget) {
            let score = self.score(view, seat, &cmd, base) + self.jitter();
            self.last_nodes += 1;
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, cmd));
            }
        }
        best.map(|b| b.1)
    }

    /// How good a command looks: the evaluation after it, plus the odds of a charge.
    fn score(&self, view: &Game, seat: Side, cmd: &Command, base: f64) -> f64 {
        match cmd {
            // Ending a phase is what is left when nothing else helps.
            Command::EndOrders | Command::EndMovement => base + 0.02,
            Command::IssueOrder { unit, order, .. } => base + order_value(view, *unit, *order),
            // Rallying restores a unit's order and fighting worth; one extra CP is worth it.
            Command::Rally { extra_cp, .. } => base + 1.5 - 0.3 * (*extra_cp as f64 - 1.0).abs(),
            Command::Reorganize { .. } => base + 0.4,
            Command::DeclareCharge { unit, target, .. } => {
                let Some(odds) = preview::charge_odds(view, *unit, *target) else { return base };
                let back = preview::charge_odds(view, *target, *unit).map_or(0.0, |o| o.expected_losses());
                let value = 2.0 * odds.expected_losses() - 1.2 * back;
                match Bfs::preview(view, cmd) {
                    Ok(preview::Preview::Charge(c)) if c.reaches => base + value,
                    // The target may step away before the Additional Move.
                    Ok(preview::Preview::Charge(c)) if c.reaches_with_additional => base + 0.6 * value - 0.3,
                    // A charge that cannot arrive risks Disorganization for nothing (BFS-CHG-24).
                    _ => base - 2.5,
                }
            }
            _ => {
                let mut g = view.clone();
                match Bfs::execute(&mut g, cmd) {
                    Ok(_) => evaluate(&g, seat),
                    Err(_) => f64::MIN,
                }
            }
        }
    }

    fn react(&self, view: &Game, seat: Side, options: &[Command], charger: sandtable_bfs::UnitId) -> Command {
        let unit = options.iter().find_map(|c| if let Command::React { unit, .. } = c { Some(*unit) } else { None });
        let Some(unit) = unit else { return options[0].clone() };
        let ours = preview::charge_odds(view, unit, charger).map_or(0.0, |o| o.expected_losses());
        let theirs = preview::charge_odds(view, charger, unit).map_or(0.0, |o| o.expected_losses());
        let counter = options.iter().find(|c| matches!(c, Command::React { reaction: Reaction::Countercharge, .. }));
        let hold = options.iter().find(|c| matches!(c, Command::React { reaction: Reaction::HoldFire { .. }, .. }));
        let _ = seat;
        if let Some(c) = counter
            && ours >= theirs * 0.9
        {
            return c.clone();
        }
        if let Some(h) = hold {
            return h.clone();
        }
        options.iter().find(|c| matches!(c, Command::React { reaction: Reaction::Stand, .. })).cloned().unwrap_or_else(|| options[0].clone())
    }
}

/// What an order is worth to a unit where it stands, as a change to the position's value: a
/// charge by its odds against the best target in reach, Defense for a shooter with enemies near,
/// Move to get somewhere; an order that changes nothing is worth nothing (the old one stays in
/// force, BFS-ORD-4) and costs command points.
fn order_value(view: &Game, unit: sandtable_bfs::UnitId, order: OrderKind) -> f64 {
    let u = view.unit(unit);
    if u.order == Some(order) && u.pending_order.is_none() {
        return -0.3;
    }
    let p = view.unit_profile(unit);
    let enemies: Vec<(sandtable_bfs::UnitId, f32)> = view
        .units_on_table(u.side.other())
        .map(|e| (e.id, sandtable_geometry::distance::set_distance(&u.bases, &e.bases).unwrap_or(f32::INFINITY)))
        .collect();
    let nearest = enemies.iter().map(|e| e.1).fold(f32::INFINITY, f32::min);
    let range = p.ranged.map_or(0.0, |w| {
        let s = w.stats(p.is_mounted());
        s.long_cm.unwrap_or(s.effective_cm)
    });
    match order {
        OrderKind::Charge => {
            // A Charge order must be carried out against any enemy in view (BFS-CHG-27), so give
            // one only with a good target within the Basic Move: a sure arrival.
            let best = enemies
                .iter()
                .filter(|(_, d)| *d <= p.movement.basic)
                .filter_map(|(t, _)| {
                    let ours = preview::charge_odds(view, unit, *t)?.expected_losses();
                    let theirs = preview::charge_odds(view, *t, unit).map_or(0.0, |o| o.expected_losses());
                    Some(1.5 * ours - theirs)
                })
                .fold(f64::NEG_INFINITY, f64::max);
            if best.is_finite() { best } else { -1.0 }
        }
        OrderKind::Defense if p.shooting > 0 && nearest <= range + 10.0 => 0.8 + 0.25 * p.shooting as f64,
        OrderKind::Defense => 0.0,
        OrderKind::Move => 0.6,
    }
}
