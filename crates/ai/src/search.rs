//! The search player: for each decision it tries the rules' candidate commands on a copy of its
//! own view, judges each result with the evaluation, and plays the best. Charges are judged by
//! their odds. The work per decision is capped in nodes (positions evaluated), never in time, so
//! the same seed gives the same game on any machine.

use crate::aim::aimed_moves;
use crate::eval::{Matchups, closeness, distance, evaluate};
use crate::travel::FieldCache;
use sandtable_bfs::candidates::candidates;
use sandtable_bfs::command::{Command, Reaction};
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{Game, OrderKind};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, charge, geo, preview};
use sandtable_engine::Ruleset;

/// Positions a decision may evaluate.
pub const NODE_BUDGET: usize = 200;

pub struct SearchPlayer {
    state: u64,
    pub budget: usize,
    /// Positions evaluated by the last decision.
    pub last_nodes: usize,
    /// Travel fields from earlier decisions.
    fields: FieldCache,
}

impl SearchPlayer {
    pub fn new(seed: u64) -> Self {
        Self {
            state: seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1,
            budget: NODE_BUDGET,
            last_nodes: 0,
            fields: FieldCache::default(),
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
    pub fn choose(&mut self, view: &Game) -> Option<Command> {
        self.last_nodes = 0;
        let seat = Side(Bfs::prompt(view).seat?.min(1));
        let mut options = candidates(view);
        if options.is_empty() {
            return None;
        }
        if options.len() == 1 {
            return options.into_iter().next();
        }
        // The script's standing orders come first; the search fills in the rest.
        if let Some(c) = crate::standing::next_standing_order(view, &options) {
            return Some(c);
        }
        match &view.turn.phase {
            Phase::InitiativeBids { .. } => {
                // Orders are free in the first turn, so CP are worth more as a bid then.
                let want = if view.turn.number == 1 { 2 } else { 0 };
                return options
                    .iter()
                    .filter(|c| matches!(c, Command::Bid { cp, .. } if *cp <= want))
                    .max_by_key(|c| match c {
                        Command::Bid { cp, .. } => *cp,
                        _ => 0,
                    })
                    .cloned();
            }
            Phase::InitiativeChoice { .. } => {
                return Some(Command::ChooseInitiative { keep: true });
            }
            Phase::Combat(_) => return Some(Command::Continue),
            Phase::Movement {
                charge: Some(c), ..
            } => return Some(self.react(view, seat, &options, c.charger)),
            _ => {}
        }
        let matchups = Matchups::with_cache(view, seat, &mut self.fields);
        if matches!(view.turn.phase, Phase::Movement { .. }) {
            // Aimed moves first: they are the likeliest best, and the budget may cut the tail.
            let mut aimed = Vec::new();
            for u in view.units_on_table(seat).filter(|u| {
                !u.flags.activated && matches!(u.order, Some(OrderKind::Move | OrderKind::Charge))
            }) {
                aimed.extend(aimed_moves(view, u.id, &matchups));
            }
            for c in view
                .commanders_on_table(seat)
                .filter(|c| !c.moved && c.attached_to.is_none())
            {
                aimed.extend(crate::aim::commander_moves(view, c.id));
            }
            aimed.retain(|c| !options.contains(c));
            aimed.append(&mut options);
            options = aimed;
        }
        let ranked = self.rank(view, seat, options, &matchups);
        ranked.into_iter().next().map(|r| r.1)
    }

    /// The options scored, best first, as far as the node budget goes.
    fn rank(
        &mut self,
        view: &Game,
        seat: Side,
        options: Vec<Command>,
        matchups: &Matchups,
    ) -> Vec<(f64, Command)> {
        let base = evaluate(view, seat, matchups);
        let mut scored = Vec::new();
        for cmd in options.into_iter().take(self.budget) {
            let score = self.score(view, seat, &cmd, base, matchups) + self.jitter();
            self.last_nodes += 1;
            scored.push((score, cmd));
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored
    }

    /// What the player thinks of its options in a Orders or Movement decision, best first, with
    /// the position's value before it acts: for explaining the computer's play.
    pub fn explain(&mut self, view: &Game) -> (f64, Vec<(f64, Command)>) {
        let Some(seat) = Bfs::prompt(view).seat.map(|s| Side(s.min(1))) else {
            return (0.0, Vec::new());
        };
        let matchups = Matchups::with_cache(view, seat, &mut self.fields);
        let mut options = candidates(view);
        if matches!(view.turn.phase, Phase::Movement { charge: None, .. }) {
            for u in view.units_on_table(seat).filter(|u| {
                !u.flags.activated && matches!(u.order, Some(OrderKind::Move | OrderKind::Charge))
            }) {
                options.extend(aimed_moves(view, u.id, &matchups));
            }
            for c in view
                .commanders_on_table(seat)
                .filter(|c| !c.moved && c.attached_to.is_none())
            {
                options.extend(crate::aim::commander_moves(view, c.id));
            }
        }
        (
            evaluate(view, seat, &matchups),
            self.rank(view, seat, options, &matchups),
        )
    }

    /// How good a command looks: the evaluation after it, plus the odds of a charge.
    fn score(&self, view: &Game, seat: Side, cmd: &Command, base: f64, matchups: &Matchups) -> f64 {
        match cmd {
            // Ending a phase is what is left when nothing else helps.
            Command::EndOrders | Command::EndMovement => base + 0.02,
            Command::IssueOrder { unit, order, .. } => {
                base + order_value(view, *unit, *order, matchups)
            }
            // Rallying restores a unit's order and fighting worth; one extra CP is worth it.
            Command::Rally { extra_cp, .. } => base + 1.5 - 0.3 * (*extra_cp as f64 - 1.0).abs(),
            Command::Reorganize { .. } => base + 0.4,
            Command::DeclareCharge { unit, target, .. } => {
                let Some(odds) = preview::charge_odds(view, *unit, *target) else {
                    return base;
                };
                let back =
                    preview::charge_odds(view, *target, *unit).map_or(0.0, |o| o.expected_losses());
                let value = 2.0 * odds.expected_losses() - 1.2 * back;
                match Bfs::preview(view, cmd) {
                    Ok(preview::Preview::Charge(c)) if c.reaches => base + value,
                    // The target may step away before the Additional Move.
                    Ok(preview::Preview::Charge(c)) if c.reaches_with_additional => {
                        base + 0.4 * value - 1.0
                    }
                    // A charge that cannot arrive risks Disorganization for nothing (BFS-CHG-24).
                    _ => base - 2.5,
                }
            }
            _ => {
                let mut g = view.clone();
                match Bfs::execute(&mut g, cmd) {
                    Ok(_) => evaluate(&g, seat, matchups),
                    Err(_) => f64::MIN,
                }
            }
        }
    }

    fn react(
        &self,
        view: &Game,
        seat: Side,
        options: &[Command],
        charger: sandtable_bfs::UnitId,
    ) -> Command {
        let unit = options.iter().find_map(|c| {
            if let Command::React { unit, .. } = c {
                Some(*unit)
            } else {
                None
            }
        });
        let Some(unit) = unit else {
            return options[0].clone();
        };
        let ours = preview::charge_odds(view, unit, charger).map_or(0.0, |o| o.expected_losses());
        let theirs = preview::charge_odds(view, charger, unit).map_or(0.0, |o| o.expected_losses());
        let counter = options.iter().find(|c| {
            matches!(
                c,
                Command::React {
                    reaction: Reaction::Countercharge,
                    ..
                }
            )
        });
        let hold = options.iter().find(|c| {
            matches!(
                c,
                Command::React {
                    reaction: Reaction::HoldFire { .. },
                    ..
                }
            )
        });
        let _ = seat;
        if let Some(c) = counter
            && ours >= theirs * 0.9
        {
            return c.clone();
        }
        if let Some(h) = hold {
            return h.clone();
        }
        options
            .iter()
            .find(|c| {
                matches!(
                    c,
                    Command::React {
                        reaction: Reaction::Stand,
                        ..
                    }
                )
            })
            .cloned()
            .unwrap_or_else(|| options[0].clone())
    }
}

/// What an order is worth to a unit where it stands, as a change to the position's value: a
/// charge by its edge over the best target it can reach, Defense for a shooter with enemies in
/// range, Move to close on a target further away; an order that changes nothing is worth nothing
/// (the old one stays in force, BFS-ORD-4) and costs command points.
fn order_value(
    view: &Game,
    unit: sandtable_bfs::UnitId,
    order: OrderKind,
    matchups: &Matchups,
) -> f64 {
    let u = view.unit(unit);
    if u.order == Some(order) && u.pending_order.is_none() {
        return -0.3;
    }
    let p = view.unit_profile(unit);
    let basic = p.movement.basic as f64;
    let enemies: Vec<(sandtable_bfs::UnitId, f64)> = view
        .units_on_table(u.side.other())
        .map(|e| (e.id, distance(u, e)))
        .collect();
    let nearest = enemies.iter().map(|e| e.1).fold(f64::INFINITY, f64::min);
    let range = p.ranged.map_or(0.0, |w| {
        let s = w.stats(p.is_mounted());
        s.long_cm.unwrap_or(s.effective_cm) as f64
    });
    // The best charge on offer among the targets the rules leave free (BFS-CHG-3): a sure
    // arrival with the Basic Move, or one that needs the Additional Move and risks
    // Disorganization if it falls short (BFS-CHG-24). A Charge order must be carried out against
    // some target in view (BFS-CHG-27), so a bad forced target counts against it.
    let scene = geo::scene(view);
    let charge = charge::target_options(view, &scene, unit)
        .free
        .into_iter()
        .map(|t| {
            let edge = matchups.edge(unit, t);
            let reach = charge::reach(view, &scene, unit, t);
            if reach.reaches {
                1.5 * edge
            } else if reach.reaches_with_additional {
                // Worth the risk of a failed charge when the battle is running out.
                0.5 * edge - 1.0 * (1.0 - matchups.late)
            } else {
                -1.5
            }
        })
        .fold(f64::NEG_INFINITY, f64::max);
    // Anything worth closing on from afar.
    let approach = enemies
        .iter()
        .map(|(t, d)| matchups.edge(unit, *t) * closeness(*d, basic))
        .fold(0.0, f64::max);
    let shooter = p.shooting > 0 && p.ranged.is_some();
    match order {
        // A Charge order must be carried out against any enemy in view (BFS-CHG-27): give one
        // only with a good target in reach.
        OrderKind::Charge if charge.is_finite() && charge > 0.3 => charge,
        OrderKind::Charge => -1.0,
        OrderKind::Defense if shooter && nearest <= range + 5.0 => 0.8 + 0.25 * p.shooting as f64,
        OrderKind::Defense => 0.0,
        OrderKind::Move if approach > 0.0 || (shooter && nearest > range) => 0.6 + 0.2 * approach,
        OrderKind::Move => 0.1,
    }
}
