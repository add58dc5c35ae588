//! The Napoleonic ruleset's judgement for the search: a position is worth its figures (weighted
//! by arm, rating and state), the share of each side lost against the break point (G15), and
//! where its units stand — in reach of a target, in command, clear of cavalry that could ride
//! them down. Fire, solid shot and charges are judged by the rules' own odds (the previews), not
//! by a die the search cannot know.

pub mod why;

use crate::evaluate::{Evaluate, Reasoning};
use sandtable_engine::{Ruleset, Seat};
use sandtable_napoleonic::command::Command;
use sandtable_napoleonic::footprint::gap;
use sandtable_napoleonic::preview::Preview;
use sandtable_napoleonic::state::{Defence, Phase, Unit, Wait};
use sandtable_napoleonic::vocab::{Arm, Formation, Rating, Standing};
use sandtable_napoleonic::{Game, INCH, Napoleonic};

#[derive(Default)]
pub struct NapEvaluation;

/// How much the fire our units hold in hand (their best target each) counts, in figure worth.
const OUR_FIRE: f64 = 1.0;
/// How much the enemy's counts against us: a third, since a side can use only part of its fire
/// before the other acts, and a unit that shies from every musket never wins.
const THEIR_FIRE: f64 = 0.3;

/// What one figure of a unit is worth: horsemen and gunners more than foot, better ratings more.
fn figure_worth(u: &Unit) -> f64 {
    let arm = match u.arm() {
        Arm::Infantry => 1.0,
        Arm::Cavalry(_) => 1.5,
        Arm::Artillery { .. } => 2.0,
    };
    let rating = match u.profile.rating {
        Rating::A => 1.3,
        Rating::B => 1.15,
        Rating::C => 1.0,
        Rating::D => 0.85,
        Rating::E => 0.7,
    };
    arm * rating
}

/// A unit's fighting worth as it stands.
fn worth(u: &Unit) -> f64 {
    if !u.present() {
        return 0.0;
    }
    let state = match u.standing {
        Standing::Good => 1.0,
        Standing::Disordered => 0.85,
        Standing::Retreat { .. } => 0.6,
        _ => 0.0,
    } - 0.06 * u.fatigue as u8 as f64;
    u.figures as f64 * figure_worth(u) * state
}

/// Inches from a unit to the nearest enemy, with that enemy.
fn nearest<'a>(view: &'a Game, u: &Unit) -> Option<(f64, &'a Unit)> {
    let r = u.rect();
    view.enemies_of(u.side)
        .map(|e| ((gap(&r, &e.rect()) / INCH) as f64, e))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// Where a unit would like to stand from the nearest enemy, inches.
fn ideal_range(u: &Unit) -> f64 {
    match u.arm() {
        Arm::Artillery { .. } => 14.0,
        Arm::Cavalry(_) => 10.0,
        Arm::Infantry => 3.0,
    }
}

/// Figures a shooter could expect to take off a target with one action of fire as they stand
/// (line of sight not traced: this is the threat a position holds, not a ruling).
fn threat(shooter: &Unit, target: &Unit) -> f64 {
    use sandtable_napoleonic::facts::{Facts, modifiers};
    use sandtable_napoleonic::footprint::{figures_firing, rect_in_front_arc};
    use sandtable_napoleonic::tables::tables;
    let (sr, tr) = (shooter.rect(), target.rect());
    if shooter.in_retreat()
        || !rect_in_front_arc(&sr, &tr) && shooter.formation != Formation::Square
    {
        return 0.0;
    }
    let t = tables();
    let column_or_square = matches!(
        target.formation,
        Formation::Column | Formation::Square | Formation::RoadColumn
    );
    let mut facts = Facts {
        firer_rating: Some(shooter.profile.rating),
        firer_fatigue: shooter.fatigue,
        target_column_or_square: column_or_square,
        target_unlimbered: target.arm().is_artillery() && target.formation == Formation::Unlimbered,
        target_limbered: target.arm().is_artillery() && target.formation != Formation::Unlimbered,
        target_skirmishers: target.formation == Formation::Skirmish,
        ..Facts::default()
    };
    let mean = |dist: Vec<f64>| {
        dist.iter()
            .enumerate()
            .map(|(k, p)| k as f64 * p)
            .sum::<f64>()
    };
    match shooter.arm() {
        Arm::Artillery {
            calibre,
            guns,
            howitzers,
            ..
        } => {
            if shooter.formation != Formation::Unlimbered {
                return 0.0;
            }
            let d = tr.distance_to_point(sr.center()) / INCH;
            let Some((band, _)) = t.artillery_band(calibre, d) else {
                return 0.0;
            };
            if band == sandtable_napoleonic::vocab::Band::Close {
                facts.canister = Some(calibre);
                let row = 2
                    * (guns as u32
                        + if d <= t.howitzer_canister {
                            howitzers as u32
                        } else {
                            0
                        });
                let m = sandtable_engine::roll::total(&modifiers(&t.fire_modifiers, "", &facts));
                return mean(t.musket_distribution(row, m));
            }
            let needs = t
                .solid_shot_needs(shooter.profile.rating, band)
                .unwrap_or(7) as f64;
            let p = ((7.0 - needs) / 6.0).max(0.0);
            let mut dmg = guns as i32 + 2 * howitzers as i32;
            if target.arm().is_artillery() {
                dmg -= 3;
            }
            if column_or_square {
                dmg *= 2;
            }
            p * sandtable_napoleonic::solid_shot::expected_figures(dmg)
        }
        _ => {
            let Some(weapon) = shooter.profile.small_arm() else {
                return 0.0;
            };
            let d = sandtable_napoleonic::footprint::gap(&sr, &tr) / INCH;
            let Some(band) = t.range_band(weapon, d) else {
                return 0.0;
            };
            facts.range = Some(band);
            let row = figures_firing(shooter.arm(), shooter.formation, shooter.figures) / 4 * 4;
            let m = sandtable_engine::roll::total(&modifiers(&t.fire_modifiers, "", &facts));
            mean(t.musket_distribution(row, m))
        }
    }
}

/// The fire each side could pour into the other as things stand: for every unit, the best
/// target it has, in figure worth.
fn firepower(view: &Game, side: Seat) -> f64 {
    view.present_units(side)
        .map(|u| {
            view.enemies_of(side)
                .map(|e| threat(u, e) * figure_worth(e))
                .fold(0.0, f64::max)
        })
        .sum()
}

/// The position's value for `seat`.
pub fn evaluate(view: &Game, seat: Seat) -> f64 {
    if let Some(end) = &view.ending {
        return match end.winner {
            Some(w) if w == seat => 1e6,
            Some(_) => -1e6,
            None => 0.0,
        };
    }
    let them = 1 - seat;
    let mut v = 0.0;
    for u in view.units.iter() {
        let sign = if u.side == seat { 1.0 } else { -1.0 };
        v += sign * worth(u);
    }
    // Nearing the break point matters more than the figures themselves (G15).
    let share = |s: u8| view.losses(s) as f64 / view.start_figures[s as usize].max(1) as f64;
    v += 150.0 * (share(them).powi(2) - share(seat).powi(2));
    // The fire each side has in hand: closing to where ours tells and theirs does not.
    v += OUR_FIRE * firepower(view, seat) - THEIR_FIRE * firepower(view, them);
    let radius = view.options.command_radius as f64;
    for u in view.present_units(seat) {
        if let Some((d, e)) = nearest(view, u) {
            // Close to where the unit fights best, more eagerly as the battle runs out.
            let late = view.period as f64 / view.periods.max(1) as f64;
            v -= (0.15 + 0.2 * late) * (d - ideal_range(u)).abs().min(30.0);
            // Foot in line or column within a cavalry charge of the enemy's horse is at risk.
            if e.arm().is_cavalry()
                && u.arm() == Arm::Infantry
                && u.formation != Formation::Square
                && d < 18.0
            {
                v -= 2.0;
            }
            // Guns with the enemy close enough to charge them.
            if u.arm().is_artillery() && d < 8.0 {
                v -= 3.0;
            }
        }
        let led = view
            .brigades
            .get(u.brigade as usize)
            .map(|b| view.leader(b.leader))
            .is_some_and(|l| {
                l.alive && (u.rect().distance_to_point(l.pos) / INCH) as f64 <= radius
            });
        if !led {
            v -= 1.5;
        }
    }
    v
}

impl Evaluate<Napoleonic> for NapEvaluation {
    fn baseline(seed: u64) -> Option<Box<dyn sandtable_engine::Player<Napoleonic>>> {
        Some(Box::new(sandtable_ai_baseline::napoleonic_player(seed)))
    }

    type Context = ();

    fn reflex(&mut self, view: &Game, seat: Seat, options: &[Command]) -> Option<Command> {
        match view.phase {
            Phase::Bidding { .. } => {
                // Spread the turn points over the periods left, a little more early on.
                let left = (view.periods + 1).saturating_sub(view.period).max(1);
                let want = (view.turn_points[seat as usize] + left / 2) / left;
                options
                    .iter()
                    .filter(|c| matches!(c, Command::Bid { points } if *points <= want.max(1)))
                    .max_by_key(|c| match c {
                        Command::Bid { points } => *points,
                        _ => 0,
                    })
                    .cloned()
            }
            // A activates two units to D's one.
            Phase::ChooseSide { .. } => Some(Command::ChooseSide { be_a: true }),
            Phase::CloseActions(Wait::Defence(i)) => {
                let ch = &view.charges[i];
                let cavalry = view.unit(ch.charger).arm().is_cavalry();
                let want = |d: Defence| {
                    options
                        .iter()
                        .find(|c| matches!(c, Command::Defend { choice } if *choice == d))
                        .cloned()
                };
                if cavalry
                    && view.unit(ch.target).arm() == Arm::Infantry
                    && let Some(c) = want(Defence::Form(Formation::Square))
                {
                    return Some(c);
                }
                want(Defence::Fire)
                    .or_else(|| want(Defence::Face))
                    .or_else(|| want(Defence::None))
            }
            Phase::CloseActions(Wait::FallBack(_)) => Some(Command::FallBack { halt: true }),
            _ => None,
        }
    }

    fn why(
        &self,
        view: &Game,
        seat: Seat,
        cmd: &Command,
        reasoning: &Reasoning<Command>,
        _ctx: Option<&()>,
    ) -> Option<String> {
        why::why(view, seat, cmd, reasoning)
    }

    fn prepare(&mut self, _view: &Game, _seat: Seat) {}

    fn plans(&self, _view: &Game, _seat: Seat, _ctx: &()) -> Vec<Command> {
        Vec::new()
    }

    fn value(&self, view: &Game, seat: Seat, _ctx: &()) -> f64 {
        evaluate(view, seat)
    }

    fn judge(&self, view: &Game, seat: Seat, cmd: &Command, base: f64, _ctx: &()) -> Option<f64> {
        let actions_cost = |n: u8| 0.4 * n as f64;
        match cmd {
            Command::Fire {
                target, actions, ..
            } => {
                let Ok(Preview::Fire(plan)) = Napoleonic::preview(view, cmd) else {
                    return Some(f64::MIN);
                };
                let mean = expected_figures(&plan);
                Some(base + mean * figure_worth(view.unit(*target)) * 1.3 - actions_cost(*actions))
            }
            Command::SolidShot { actions, .. } => {
                let Ok(Preview::SolidShot(plan)) = Napoleonic::preview(view, cmd) else {
                    return Some(f64::MIN);
                };
                let gain: f64 = plan
                    .expected_losses()
                    .iter()
                    .map(|(u, e)| {
                        let x = view.unit(*u);
                        let w = e * figure_worth(x) * 1.3;
                        if x.side == seat { -2.0 * w } else { w }
                    })
                    .sum();
                Some(base + gain - actions_cost(*actions))
            }
            Command::Charge { target, .. } => {
                let Ok(Preview::Charge(o)) = Napoleonic::preview(view, cmd) else {
                    return Some(f64::MIN);
                };
                let t = view.unit(*target);
                let success = charge_success(&o);
                let me = view.unit(cmd.unit()?);
                let risk = 1.0 - success;
                Some(base + success * 0.6 * worth(t) - risk * 0.45 * worth(me))
            }
            // Standing still is worth what the position is worth, a little less than doing good.
            Command::Stand { .. } | Command::FinishUnit => Some(base - 0.05),
            Command::EndActivations => Some(base - 0.5),
            Command::EndLeaders => Some(base - 0.01),
            _ => None,
        }
    }
}

/// Figures a volley is expected to take off, from the rules' firing table distribution.
pub(crate) fn expected_figures(plan: &sandtable_napoleonic::fire::VolleyPlan) -> f64 {
    plan.distribution()
        .iter()
        .enumerate()
        .map(|(k, p)| k as f64 * p)
        .sum()
}

/// A charge's chance to succeed from the rules' chances: the defender gives way, or it holds,
/// the charger closes and wins the melee (or rides it down).
pub(crate) fn charge_success(o: &sandtable_napoleonic::preview::ChargeOdds) -> f64 {
    let win = match (o.melee_win, o.rides_down) {
        (Some(w), _) => w,
        (None, Some(true)) => 1.0,
        (None, _) => 0.0,
    };
    (1.0 - o.defender_holds) + o.defender_holds * o.charger_closes * win
}
