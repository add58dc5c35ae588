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
        Command::Move { unit, steps } => Preview::Move(movement::check_move(game, *unit, steps)?),
        Command::Maneuver { unit, maneuvers } => {
            Preview::Maneuver(movement::check_maneuver(game, *unit, maneuvers)?)
        }
        Command::DeclareCharge { unit, target, .. } => {
            let scene = geo::scene(game);
            let p = game.unit_profile(*unit);
            let basic = charge::simulate(game, &scene, *unit, *target, p.movement.basic);
            let full = charge::simulate(
                game,
                &scene,
                *unit,
                *target,
                p.movement.basic + p.movement.additional,
            );
            let bases_after = match &basic {
                Some(o) => game.unit(*unit).bases.iter().map(|b| o.apply(b)).collect(),
                None => game.unit(*unit).bases.clone(),
            };
            Preview::Charge(ChargePreview {
                target: *target,
                bases_after,
                reaches: basic.as_ref().is_some_and(|o| o.contact.is_some()),
                reaches_with_additional: full.as_ref().is_some_and(|o| o.contact.is_some()),
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
