//! What a planned command would do, before the dice: a move's cost, a volley's or a canister
//! shot's chances of each loss, a solid shot's line and expected losses, a charge's reach and the
//! odds of each step of its close action.

use crate::close_action::{cavalry_on_foot, charger_facts, defender_facts, melee_value};
use crate::command::Command;
use crate::fire::VolleyPlan;
use crate::morale::pass_chance;
use crate::rules::legal;
use crate::solid_shot::ShotPlan;
use crate::state::{Facing, Game, INCH};
use sandtable_engine::RuleError;
use sandtable_geometry::Rect;

#[derive(Debug, Clone, PartialEq)]
pub enum Preview {
    Move {
        inches: f32,
        rate: f32,
        road: bool,
        ghost: Rect,
    },
    Fire(VolleyPlan),
    SolidShot(ShotPlan),
    Charge(ChargeOdds),
    /// Nothing to forecast.
    Plain,
}

/// The odds of a charge's close action at step 9, as things stand now.
#[derive(Debug, Clone, PartialEq)]
pub struct ChargeOdds {
    pub ghost: Rect,
    pub inches: f32,
    pub reach: f32,
    pub facing: Facing,
    /// The defender passes its first check (NQ-CA-1 step 2).
    pub defender_holds: f64,
    /// The charger passes its check to close (step 5).
    pub charger_closes: f64,
    /// The charger wins the melee if it comes to one (NQ-CA-2, ties to the defender); `None`
    /// against foot, where cavalry rides down or is repulsed (NQ-CA-6).
    pub melee_win: Option<f64>,
    /// Cavalry against foot: the target is ridden down if it holds and the cavalry closes.
    pub rides_down: Option<bool>,
}

pub fn preview(game: &Game, cmd: &Command) -> Result<Preview, RuleError> {
    legal(game, cmd)?;
    Ok(match cmd {
        Command::Move { unit, to, bearing } => {
            let (inches, rate, road) = crate::actions::check_move(game, *unit, *to, *bearing)?;
            let u = game.unit(*unit);
            Preview::Move {
                inches,
                rate,
                road,
                ghost: crate::footprint::rect(u.arm(), u.formation, u.figures, *to, *bearing),
            }
        }
        Command::Fire {
            unit,
            target,
            actions,
        } => Preview::Fire(crate::fire::plan(game, *unit, *target, *actions)?),
        Command::SolidShot { unit, aim, actions } => {
            Preview::SolidShot(crate::solid_shot::plan(game, *unit, *aim, *actions)?)
        }
        Command::Charge { unit, target } => {
            let mut after = game.clone();
            let mut ev = Vec::new();
            crate::charge::do_charge(&mut after, *unit, *target, &mut ev)?;
            let i = after.charges.len() - 1;
            let ch = after.charges[i].clone();
            let melee_win = (!cavalry_on_foot(&after, i)).then(|| {
                let (c, _, _) = melee_value(&after, i, true);
                let (t, _, _) = melee_value(&after, i, false);
                let mut win = 0;
                for a in 1..=6 {
                    for b in 1..=6 {
                        if a * c > b * t {
                            win += 1;
                        }
                    }
                }
                win as f64 / 36.0
            });
            let rides_down = cavalry_on_foot(&after, i).then(|| {
                let t = after.unit(ch.target);
                !(t.formation == crate::vocab::Formation::Square || ch.steady_line)
            });
            let moved = after.unit(*unit);
            let inches = (moved.front - game.unit(*unit).front).length() / INCH;
            Preview::Charge(ChargeOdds {
                ghost: moved.rect(),
                inches,
                reach: crate::charge::charge_reach(game, *unit),
                facing: ch.facing,
                defender_holds: pass_chance(&after, ch.target, &defender_facts(&after, i)),
                charger_closes: pass_chance(&after, ch.charger, &charger_facts(&after, i)),
                melee_win,
                rides_down,
            })
        }
        _ => Preview::Plain,
    })
}
