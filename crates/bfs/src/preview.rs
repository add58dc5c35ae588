//! Previews: what a command would do, computed without changing anything (the app's ghosts, costs
//! and odds; the AI's look-ahead).

use crate::authority::OrderCost;
use crate::charge;
use crate::command::Command;
use crate::geo;
use crate::ids::UnitId;
use crate::moves::MovePlan;
use crate::phases::{self, movement, orders};
use crate::shooting::{self, FireStage, VolleyPlan};
use crate::state::Game;
use sandtable_engine::RuleError;
use sandtable_geometry::Rect;

#[derive(Debug, Clone, PartialEq)]
pub enum Preview {
    /// Legal, with nothing more to show.
    Nothing,
    Order(OrderCost),
    Move(MovePlan),
    /// Where the bases end after Special Maneuvers.
    Maneuver(Vec<Rect>),
    Charge(ChargePreview),
}

/// A charge's reachability and path (GEO-11).
#[derive(Debug, Clone, PartialEq)]
pub struct ChargePreview {
    pub target: UnitId,
    /// Bases after the Movement Phase part of the charge.
    pub bases_after: Vec<Rect>,
    /// Contact with the Basic Move.
    pub reaches: bool,
    /// Contact is possible with Basic + Additional Move.
    pub reaches_with_additional: bool,
    pub distance_cm: f32,
}

pub fn preview(game: &Game, cmd: &Command) -> Result<Preview, RuleError> {
    phases::check(game, cmd)?;
    Ok(match cmd {
        Command::IssueOrder { unit, order, by } => {
            Preview::Order(orders::check_issue(game, *unit, *order, *by)?)
        }
        Command::Move { unit, steps } => {
            let mut plan = movement::check_move(game, *unit, steps)?;
            let before = &game.unit(*unit).bases;
            if let Some((rule, why)) = crate::ground::entry_test(game, *unit, before, &plan.bases) {
                plan.description
                    .push_str(&format!("; a Skill test first: {why} ({rule})"));
            }
            Preview::Move(plan)
        }
        Command::Maneuver { unit, maneuvers } => {
            Preview::Maneuver(movement::check_maneuver(game, *unit, maneuvers)?)
        }
        Command::DeclareCharge { unit, target, .. } => {
            let scene = geo::scene(game);
            let reach = charge::reach(game, &scene, *unit, *target);
            let bases_after = if crate::open_order_charge::applies(game, *unit) {
                // Each base on its own (BFS-OO-7), over the Basic Move the ground allows.
                let basic = game.unit_profile(*unit).movement.basic;
                let budget = crate::charge_reach::terrain_budget(
                    game,
                    &scene,
                    *unit,
                    *target,
                    basic,
                    false,
                    &mut Vec::new(),
                );
                crate::open_order_charge::plan(game, &scene, *unit, *target, budget).bases
            } else {
                match &reach.basic {
                    Some(o) => game.unit(*unit).bases.iter().map(|b| o.apply(b)).collect(),
                    None => game.unit(*unit).bases.clone(),
                }
            };
            Preview::Charge(ChargePreview {
                target: *target,
                bases_after,
                reaches: reach.reaches,
                reaches_with_additional: reach.reaches_with_additional,
                distance_cm: sandtable_geometry::distance::set_distance(
                    &game.unit(*unit).bases,
                    &game.unit(*target).bases,
                )
                .unwrap_or(0.0),
            })
        }
        _ => Preview::Nothing,
    })
}

/// The volley a unit would fire in `stage` as things stand, with its exact odds (for the app's
/// bar chart before a volley is committed).
pub fn volley(game: &Game, unit: UnitId, stage: FireStage) -> Option<VolleyPlan> {
    let scene = geo::scene(game);
    shooting::plan_volley(game, &scene, unit, stage)
}

/// Chances for a volley or a melee: `hits[k]` and `losses[k]` are the chances of exactly k.
#[derive(Debug, Clone, PartialEq)]
pub struct Odds {
    pub hits: Vec<f64>,
    pub losses: Vec<f64>,
    pub description: String,
}

impl Odds {
    pub fn expected_losses(&self) -> f64 {
        sandtable_engine::odds::mean(&self.losses)
    }
}

/// The exact odds of the volley a unit would fire in `stage` (BFS-SHO).
pub fn volley_odds(game: &Game, unit: UnitId, stage: FireStage) -> Option<Odds> {
    let plan = volley(game, unit, stage)?;
    let dice: u32 = plan.groups.iter().map(|g| g.spec.plan().dice).sum();
    Some(Odds {
        hits: plan.hits(),
        losses: plan.losses(),
        description: format!(
            "{} at {}: {dice} dice",
            game.unit(unit).name,
            match plan.target {
                crate::event::Piece::Unit(t) => game.unit(t).name.clone(),
                crate::event::Piece::Commander(c) => game.commander(c).name.clone(),
            }
        ),
    })
}

/// An estimate of the first round if `charger` strikes `target`: its front rank fights with its
/// close combat dice, Impetus as the distance now allows, the charging effectiveness of its weapon
/// against the target's armor (BFS-CC-11..17), and the ground the target holds (its Armor raise
/// and the attacker's to-hit penalty, BFS-TER-11/13). Flank attacks, support and the ground the
/// charger will stand on are left out.
pub fn charge_odds(game: &Game, charger: UnitId, target: UnitId) -> Option<Odds> {
    strike_odds(game, charger, target, true)
}

/// As [`charge_odds`] for the other side of the same fight: `defender` stands and strikes back
/// at `charger` with no Impetus and its weapon's ordinary effectiveness (BFS-CC-14, BFS-CC-17).
pub fn reply_odds(game: &Game, defender: UnitId, charger: UnitId) -> Option<Odds> {
    strike_odds(game, defender, charger, false)
}

/// The first round's strike of `charger` on `target`, as a charge or as the reply to one.
fn strike_odds(game: &Game, charger: UnitId, target: UnitId, charging: bool) -> Option<Odds> {
    use crate::dice::{Modifier, PoolSpec};
    use crate::state::MoraleLevel;
    let u = game.unit(charger);
    let p = game.unit_profile(charger);
    let t = game.unit(target);
    let tp = game.unit_profile(target);
    // Wagons nobody defends lose at once: every Strength point is taken (BFS-WAG-6).
    if charging
        && crate::wagon::crewless(game, target)
        && crate::wagon::assault::defenders_of(game, target).is_empty()
    {
        let sp = crate::losses::sp_left(game, target) as usize;
        let mut losses = vec![0.0; sp + 1];
        losses[sp] = 1.0;
        return Some(Odds {
            hits: losses.clone(),
            losses,
            description: format!(
                "{}: no crew and nobody defends it, so it is taken at once, no dice (BFS-WAG-6)",
                t.name
            ),
        });
    }
    let front_rank = shooting::front_rank(game, charger);
    let front = front_rank.len().max(1);
    let dice = if u.morale == MoraleLevel::Disorganized {
        p.close_combat.min(1)
    } else {
        p.close_combat
    } as u32;
    let mut spec = PoolSpec::new(front, dice, p.skill as i32);
    spec.below_one = game.info.options.below_one;
    // The casualty marker's die, when the weakened base is among those fighting, an attached
    // commander's and the Companions' (BFS-CBT-10, BFS-CDR-13, BFS-SPC-7), as the fight counts
    // them.
    spec.dice_changes.extend(crate::losses::first_base_dice(
        u,
        front_rank.len() >= u.bases.len(),
    ));
    spec.dice_changes
        .extend(crate::close_combat::companions_dice(game, charger, front));
    // Pikes fight in several ranks: a die more for each front base with a pike base behind it,
    // as the fight itself counts them (BFS-CCW-6).
    spec.dice_changes
        .extend(crate::close_combat::pike_support_dice(
            game,
            charger,
            &front_rank,
        ));
    let distance = sandtable_geometry::distance::set_distance(&u.bases, &t.bases).unwrap_or(0.0);
    let bonus = crate::elite_cavalry::impetus(
        game,
        charger,
        crate::close_combat::impetus_bonus(p, u.formation),
    );
    if charging
        && p.is_mounted()
        && distance >= charge::IMPETUS_RUN_CM
        && bonus > 0
        && !crate::close_combat::polearms_stop_impetus(game, target, true)
        && crate::obstacle::behind(game, target, charger).is_none()
    {
        spec.modifiers.push(Modifier::new(
            "BFS-CC-14",
            "Impetus, if it charges 10 cm straight",
            bonus,
        ));
    }
    spec.modifiers
        .extend(crate::ground::attack_penalty(game, charger, target));
    let w = p.melee.stats();
    let eff = if charging {
        w.effectiveness.1
    } else {
        w.effectiveness.0
    } as i32;
    let raise = crate::ground::higher_raise(
        crate::ground::armor_raise(game, target),
        crate::obstacle::armor_raise(game, target, charger, false),
    )
    .map_or(0, |m| m.delta);
    let armor = tp.armor as i32 - eff + tp.shields as i32 + raise;
    let plan = spec.plan();
    let hits = plan.distribution();
    let save = (armor.clamp(0, 10) as f64) / 10.0;
    let losses = sandtable_engine::odds::thin(&hits, save);
    Some(Odds {
        hits,
        losses,
        description: format!(
            "first round, estimated: {} dice needing {}, {} saves on {}",
            plan.dice,
            plan.target,
            t.name,
            armor.clamp(0, 10)
        ),
    })
}
