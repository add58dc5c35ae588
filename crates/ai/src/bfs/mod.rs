//! By Fire and Sword's judgement for the search: the evaluation of a position ([`eval`]), the
//! moves worth trying ([`plans`]), and what an order, a rally or a charge is worth before it is
//! played. Charges are judged by the rules' own odds ([`preview::charge_odds`]).

pub mod eval;
pub mod plans;
pub mod why;

use crate::evaluate::{Evaluate, Reasoning};
use eval::Fields;
use eval::{Matchups, closeness, distance, evaluate};
use plans::{aimed_moves, commander_moves, objective_moves, objective_runners};
use sandtable_bfs::command::{Command, Reaction};
use sandtable_bfs::ids::{Side, UnitId};
use sandtable_bfs::state::{Game, OrderKind};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, charge, geo, preview};
use sandtable_engine::{Ruleset, Seat};

/// How much worse than the best option a planned command must look for the coach to speak, in
/// the evaluation's strength points (half of a loss point, `eval::LOSS_POINT`).
pub const BLUNDER_SP: f64 = 2.0;
/// By Fire and Sword's evaluation, with the travel fields it keeps between decisions.
#[derive(Default)]
pub struct BfsEvaluation {
    fields: Fields,
}

impl Evaluate<Bfs> for BfsEvaluation {
    fn baseline(seed: u64) -> Option<Box<dyn sandtable_engine::Player<Bfs>>> {
        Some(Box::new(sandtable_ai_baseline::bfs_player(seed)))
    }

    type Context = Matchups;

    fn reflex(&mut self, view: &Game, seat: Seat, options: &[Command]) -> Option<Command> {
        match &view.turn.phase {
            Phase::InitiativeBids { .. } => {
                // Orders are free in the first turn, so CP are worth more as a bid then.
                let want = if view.turn.number == 1 { 2 } else { 0 };
                options
                    .iter()
                    .filter(|c| matches!(c, Command::Bid { cp, .. } if *cp <= want))
                    .max_by_key(|c| match c {
                        Command::Bid { cp, .. } => *cp,
                        _ => 0,
                    })
                    .cloned()
            }
            Phase::InitiativeChoice { .. } => Some(Command::ChooseInitiative { keep: true }),
            Phase::Combat(_) => Some(Command::Continue),
            Phase::Movement {
                charge: Some(c), ..
            } => Some(react(view, Side(seat), options, c.charger)),
            _ => None,
        }
    }

    /// A charge, a Charge order (which must be carried out, BFS-CHG-27), and the answer to a
    /// charge.
    fn chancy(&self, _view: &Game, _seat: Seat, cmd: &Command) -> bool {
        matches!(
            cmd,
            Command::DeclareCharge { .. }
                | Command::React { .. }
                | Command::IssueOrder {
                    order: OrderKind::Charge,
                    ..
                }
                | Command::GroupOrder {
                    order: OrderKind::Charge,
                    ..
                }
        )
    }

    /// To the end of the turn's Combat Phase: no further orders, every unit not under a
    /// Charge order stays where it is, a unit under one charges, the charged side answers as
    /// [`react`] would, and the combat runs its steps.
    fn settle(&self, state: &Game) -> Option<Command> {
        let seat = Bfs::deciding(state)?;
        match &state.turn.phase {
            Phase::Orders { .. } if Bfs::legal(state, &Command::EndOrders).is_ok() => {
                Some(Command::EndOrders)
            }
            Phase::Movement {
                charge: Some(c), ..
            } => {
                let options = Bfs::candidates(state);
                (!options.is_empty()).then(|| react(state, Side(seat), &options, c.charger))
            }
            Phase::Movement { .. } if Bfs::legal(state, &Command::EndMovement).is_ok() => {
                Some(Command::EndMovement)
            }
            Phase::Movement { .. } => forced_charge(state, Side(seat))
                .or_else(|| Bfs::candidates(state).into_iter().next()),
            Phase::Combat(_) => Some(Command::Continue),
            _ => None,
        }
    }

    /// A clear blunder is one the evaluation reckons at least [`BLUNDER_SP`] worse than the best
    /// option: half a base lost, on a scale where strength points count 1 and a loss point 4.
    fn blunder(
        &self,
        _view: &Game,
        _seat: Seat,
        _cmd: &Command,
        gap: f64,
        best_why: Option<String>,
    ) -> Option<String> {
        (gap >= BLUNDER_SP).then(|| {
            let instead = best_why
                .map(|w| format!(" Its own choice for this unit, as it would explain it: \"{w}\""))
                .unwrap_or_default();
            format!(
                "This looks like a clear mistake: the computer reckons it {gap:.1} strength points worse than the best this unit can do here (a base lost counts 4).{instead}"
            )
        })
    }

    fn why(
        &self,
        view: &Game,
        seat: Seat,
        cmd: &Command,
        reasoning: &Reasoning<Command>,
        matchups: Option<&Matchups>,
    ) -> Option<String> {
        why::why(view, Side(seat), cmd, reasoning, matchups)
    }

    fn prepare(&mut self, view: &Game, seat: Seat) -> Matchups {
        Matchups::with_cache(view, Side(seat), &mut self.fields)
    }

    fn plans(&self, view: &Game, seat: Seat, matchups: &Matchups) -> Vec<Command> {
        let side = Side(seat);
        if !matches!(view.turn.phase, Phase::Movement { .. }) {
            return Vec::new();
        }
        let mut aimed = Vec::new();
        for u in view.units_on_table(side).filter(|u| {
            !u.flags.activated && matches!(u.order, Some(OrderKind::Move | OrderKind::Charge))
        }) {
            aimed.extend(aimed_moves(view, u.id, matchups));
        }
        // Each objective the side does not hold: the nearest units free to move go for it.
        for (i, runners) in objective_runners(view, side) {
            for u in runners {
                aimed.extend(objective_moves(view, u, i));
            }
        }
        for c in view
            .commanders_on_table(side)
            .filter(|c| !c.moved && c.attached_to.is_none())
        {
            aimed.extend(commander_moves(view, c.id));
        }
        aimed
    }

    fn value(&self, view: &Game, seat: Seat, matchups: &Matchups) -> f64 {
        evaluate(view, Side(seat), matchups)
    }

    fn judge(
        &self,
        view: &Game,
        _seat: Seat,
        cmd: &Command,
        base: f64,
        matchups: &Matchups,
    ) -> Option<f64> {
        Some(match cmd {
            // Ending a phase is what is left when nothing else helps.
            Command::EndOrders | Command::EndMovement => base + 0.02,
            Command::IssueOrder { unit, order, .. } => {
                base + order_value(view, *unit, *order, matchups) - contrary(view, *unit, *order)
            }
            // An Instruction is worth what it saves: each order of the regiment in force or
            // placed that it would make contrary costs 1 CP more, each it matches none
            // (BFS-ORD-12, BFS-ORD-13).
            Command::IssueInstruction {
                commander,
                instruction,
                ..
            } => {
                let c = view.commander(*commander);
                let fits = view
                    .units_on_table(c.side)
                    .filter(|u| u.regiment.is_some() && u.regiment == c.regiment)
                    .map(|u| {
                        let order = u.pending_order.and_then(|p| p.kind).or(u.order);
                        let kept = match order {
                            Some(o) if o == *instruction => 0.3,
                            Some(_) => -0.3,
                            None => 0.0,
                        };
                        // And what it saves on the order the unit wants and has not got: that
                        // order will match the Instruction, without the 1 CP surcharge.
                        let wanted = wanted_order(view, u.id, matchups);
                        let enabled = if wanted == *instruction && order != Some(wanted) {
                            INSTRUCTION_ENABLES
                        } else {
                            0.0
                        };
                        kept + enabled
                    })
                    .sum::<f64>();
                base + fits
            }
            Command::GroupOrder { units, order, .. } => {
                base + units
                    .iter()
                    .map(|u| order_value(view, *u, *order, matchups) - contrary(view, *u, *order))
                    .sum::<f64>()
            }
            // Rallying restores a unit's order and fighting worth; one extra CP is worth it.
            Command::Rally { extra_cp, .. } => base + 1.5 - 0.3 * (*extra_cp as f64 - 1.0).abs(),
            Command::Reorganize { .. } => base + 0.4,
            // The same test as a commander's rally without extra CP, and free (BFS-SPC-14).
            Command::RallyItself { .. } => base + 1.6,
            Command::DeclareCharge { unit, target, .. } => {
                base + charge_value(view, *unit, *target)
            }
            // The crew's own load is the one the rules' odds favour (BFS-ART-3): the computer
            // leaves it to them.
            Command::Load { .. } => base - 1.0,
            // Holding a Salvo or Ranked Fire gives up dice now for freedom to move next turn,
            // which a one-ply search cannot weigh: the computer fires them.
            Command::OrdinaryFire { .. } => base - 1.0,
            _ => return None,
        })
    }
}

/// A charge judged without playing it, as a change to the position's value: twice the losses
/// the rules' odds expect it to inflict, less what the target would inflict charging back and
/// the Defender's Fire it would meet; less when it needs the Additional Move (the target may
/// step away, BFS-CHG-24), and a loss when it cannot arrive (Disorganization for nothing).
fn charge_value(view: &Game, unit: UnitId, target: UnitId) -> f64 {
    let Some(odds) = preview::charge_odds(view, unit, target) else {
        return 0.0;
    };
    let back = preview::charge_odds(view, target, unit).map_or(0.0, |o| o.expected_losses());
    let fire = eval::defenders_fire(view, view.unit(target), view.unit(unit));
    let value = 2.0 * odds.expected_losses() - 1.2 * back - 2.0 * fire;
    match arrival(view, unit, target) {
        Arrival::Basic => value,
        Arrival::Additional => 0.4 * value - 1.0,
        Arrival::Short => -2.5,
    }
}

/// How a charge would arrive, by the rules' own preview.
pub(crate) enum Arrival {
    /// Contact with the Basic Move.
    Basic,
    /// Contact only with the Additional Move, after a Skill test if it falls short (BFS-CHG-24).
    Additional,
    /// No contact.
    Short,
}

pub(crate) fn arrival(view: &Game, unit: UnitId, target: UnitId) -> Arrival {
    let declare = Command::DeclareCharge {
        unit,
        target,
        pay: None,
    };
    match Bfs::preview(view, &declare) {
        Ok(preview::Preview::Charge(c)) if c.reaches => Arrival::Basic,
        Ok(preview::Preview::Charge(c)) if c.reaches_with_additional => Arrival::Additional,
        _ => Arrival::Short,
    }
}

/// Expected strength points `unit` takes off `other` charging it, and `other` off `unit`
/// charging back, by the rules' odds.
pub(crate) fn melee_odds(view: &Game, unit: UnitId, other: UnitId) -> (f64, f64) {
    let e = |a, b| preview::charge_odds(view, a, b).map_or(0.0, |o| o.expected_losses());
    (e(unit, other), e(other, unit))
}

/// A unit under a Charge order must charge an enemy it sees before the phase ends
/// (BFS-CHG-27): the charge of such a unit at the target the judgement above likes best, so a
/// sampled Charge order charges where the player itself would.
fn forced_charge(view: &Game, side: Side) -> Option<Command> {
    let scene = geo::scene(view);
    view.units_on_table(side)
        .filter(|u| u.order == Some(OrderKind::Charge) && !u.flags.activated)
        .flat_map(|u| {
            let scene = &scene;
            charge::target_options(view, scene, u.id)
                .free
                .into_iter()
                .map(move |t| (u.id, t))
        })
        .map(|(unit, target)| {
            (
                charge_value(view, unit, target),
                Command::DeclareCharge {
                    unit,
                    target,
                    pay: None,
                },
            )
        })
        .filter(|(_, c)| Bfs::legal(view, c).is_ok())
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// The answer to a charge: countercharge when the odds are no worse than the charger's, else
/// hold fire for a volley at close range, else stand (BFS-CHG-12).
fn react(view: &Game, _seat: Side, options: &[Command], charger: UnitId) -> Command {
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
    let (ours, theirs) = melee_odds(view, unit, charger);
    let find = |want: fn(&Reaction) -> bool| {
        options
            .iter()
            .find(|c| matches!(c, Command::React { reaction, .. } if want(reaction)))
    };
    if let Some(c) = find(|r| *r == Reaction::Countercharge)
        && ours >= theirs * 0.9
    {
        return c.clone();
    }
    // Light Cavalry rides away from a charge it would lose (BFS-SPC-16).
    if let Some(b) = find(|r| *r == Reaction::BreakOff)
        && theirs > ours
    {
        return b.clone();
    }
    if let Some(h) = find(|r| matches!(r, Reaction::HoldFire { .. })) {
        return h.clone();
    }
    find(|r| *r == Reaction::Stand)
        .cloned()
        .unwrap_or_else(|| options[0].clone())
}

/// Worth of an Instruction to each unit of the regiment whose wanted order it matches and
/// which has not got it: the CP it saves on that order (BFS-ORD-12), less than the order is worth.
const INSTRUCTION_ENABLES: f64 = 0.5;

/// The CP an order will cost when turned up, contrary to its regiment's Instruction
/// (BFS-ORD-12): paid later, so the position after the order does not show it.
fn contrary(view: &Game, unit: UnitId, order: OrderKind) -> f64 {
    if sandtable_bfs::instructions::contrary(view, unit, order) {
        1.0
    } else {
        0.0
    }
}

/// What an order is worth to a unit where it stands, as a change to the position's value: a
/// charge by its edge over the best target it can reach, Defense for a shooter with enemies in
/// range, Move to close on a target further away, each less what the order it replaces is worth
/// there (an order stays in force until another is given, BFS-ORD-4); an order that changes
/// nothing is worth nothing and costs command points. Without the order it replaces counted, a
/// Swedish force before the tabor at the Bug took Move and Defense in turn for four turns, 2 CP
/// each time, every change judged by the new order's worth alone.
fn order_value(view: &Game, unit: UnitId, order: OrderKind, matchups: &Matchups) -> f64 {
    let u = view.unit(unit);
    if u.order == Some(order) && u.pending_order.is_none() {
        return -0.3;
    }
    let worths = order_worths(view, unit, matchups);
    let worth = |o: OrderKind| worths.iter().find(|w| w.0 == o).map_or(0.0, |w| w.1);
    // The order in force, or one already placed this phase (a new one replaces it).
    let replaced = u.pending_order.and_then(|p| p.kind).or(u.order);
    worth(order) - replaced.map_or(0.0, worth)
}

/// The order a unit would be given where it stands, whatever it holds now: the best of
/// [`order_worths`], worked out for all of its side's units at once per decision.
fn wanted_order(view: &Game, unit: UnitId, matchups: &Matchups) -> OrderKind {
    let side = view.unit(unit).side;
    let wanted = matchups.wanted.get_or_init(|| {
        let scene = geo::scene(view);
        view.units_on_table(side)
            .map(|u| {
                let best = order_worths_in(view, &scene, u.id, matchups)
                    .into_iter()
                    .fold((OrderKind::Move, f64::NEG_INFINITY), |best, w| {
                        if w.1 > best.1 { w } else { best }
                    });
                (u.id, best.0)
            })
            .collect()
    });
    wanted.get(&unit).copied().unwrap_or(OrderKind::Move)
}

/// What each order (Move, Defense, Charge) is worth to a unit where it stands.
fn order_worths(view: &Game, unit: UnitId, matchups: &Matchups) -> [(OrderKind, f64); 3] {
    order_worths_in(view, &geo::scene(view), unit, matchups)
}

/// [`order_worths`] in a scene of the position already built.
fn order_worths_in(
    view: &Game,
    scene: &sandtable_geometry::Scene,
    unit: UnitId,
    matchups: &Matchups,
) -> [(OrderKind, f64); 3] {
    let u = view.unit(unit);
    let p = view.unit_profile(unit);
    let basic = p.movement.basic as f64;
    let enemies: Vec<(UnitId, f64)> = view
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
    let charge = charge::target_options(view, scene, unit)
        .free
        .into_iter()
        .map(|t| {
            let edge = matchups.edge(unit, t);
            let reach = charge::reach(view, scene, unit, t);
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
    [OrderKind::Move, OrderKind::Defense, OrderKind::Charge].map(|order| {
        let worth = match order {
            // A Charge order must be carried out against any enemy in view (BFS-CHG-27): give
            // one only with a good target in reach.
            OrderKind::Charge if charge.is_finite() && charge > 0.3 => charge,
            OrderKind::Charge => -1.0,
            OrderKind::Defense if shooter && nearest <= range + 5.0 => {
                0.8 + 0.25 * p.shooting as f64
            }
            OrderKind::Defense => 0.0,
            OrderKind::Move if approach > 0.0 || (shooter && nearest > range) => {
                0.6 + 0.2 * approach
            }
            OrderKind::Move => 0.1,
        };
        (order, worth)
    })
}

/// What the unit tests of the evaluation share: the default battle at its start.
#[cfg(test)]
pub(crate) mod test_support {
    use sandtable_bfs::state::Game;
    use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
    use sandtable_engine::Session;
    use std::path::Path;

    /// The default battle (`scenarios/01-mill-ford-skirmish.ron`) before its first command.
    pub fn default_battle() -> Game {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let loaded = load_scenario(
            &root.join("scenarios/01-mill-ford-skirmish.ron"),
            &root.join("assets/armies"),
        )
        .expect("the default scenario loads");
        Session::<Bfs>::new(BattleSetup::from(&loaded), 1)
            .expect("setup")
            .state()
            .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_support::default_battle;

    /// Replacing one order by another and back again cannot both be worth something (BFS-ORD-4:
    /// an order stays in force until another is given): the two changes cancel, so a unit is
    /// never switched to and fro for nothing. Judged by the new order's worth alone, the Swedes
    /// before the tabor at the Bug took Move and Defense in turn for four turns.
    #[test]
    fn an_order_and_its_undoing_cancel_out() {
        let mut game = default_battle();
        let orders = [OrderKind::Move, OrderKind::Defense, OrderKind::Charge];
        let mut checked = 0;
        for side in Side::BOTH {
            let m = Matchups::new(&game, side);
            let units: Vec<UnitId> = game.units_on_table(side).map(|u| u.id).collect();
            for u in units {
                let i = game.units.iter().position(|x| x.id == u).expect("unit");
                for a in orders {
                    for b in orders.into_iter().filter(|b| *b != a) {
                        game.units[i].order = Some(a);
                        let there = order_value(&game, u, b, &m);
                        game.units[i].order = Some(b);
                        let back = order_value(&game, u, a, &m);
                        assert!(
                            (there + back).abs() < 1e-9,
                            "{:?}: {a:?} to {b:?} {there}, back {back}",
                            game.units[i].key
                        );
                        checked += 1;
                    }
                }
                // Giving the order in force again changes nothing and costs a command point.
                game.units[i].order = Some(OrderKind::Move);
                assert_eq!(order_value(&game, u, OrderKind::Move, &m), -0.3);
                game.units[i].order = None;
                // A unit without an order gains an order's whole worth.
                let worth = order_worths(&game, u, &m)
                    .into_iter()
                    .find(|w| w.0 == OrderKind::Move)
                    .expect("Move is judged")
                    .1;
                assert_eq!(order_value(&game, u, OrderKind::Move, &m), worth);
            }
        }
        assert_eq!(checked, 6 * game.units.len());
    }
}
