//! Planning a move on the table before committing it: drag a unit forward or back, drag a front
//! corner to wheel about the other (BFS-MOV-14), add turns and maneuvers from the menu; click an
//! enemy to plan a charge at it. The rules' own preview gives the ghost, the cost and the
//! refusal.

use super::odds::odds_chart;
use super::table::{Thing, thing, unit_of};
use crate::command::{Command, MoveStep, PivotCorner};
use crate::geo;
use crate::ids::{Side, UnitId};
use crate::preview::{self, Preview};
use crate::state::{Game, OrderKind, UnitStatus};
use crate::turn::Phase;
use sandtable_engine::present::{Grip, Handle, Outline, PieceId, PreviewReport, Shape, Tone};
use sandtable_engine::{RuleError, Seat};
use sandtable_geometry::Vec2;

/// Handle ids.
pub const BODY: u8 = 0;
pub const LEFT_CORNER: u8 = 1;
pub const RIGHT_CORNER: u8 = 2;

/// Can `seat` plan a move for this unit now?
pub fn movable(view: &Game, seat: Seat, unit: UnitId) -> bool {
    let u = view.unit(unit);
    matches!(view.turn.phase, Phase::Movement { charge: None, acting, .. } if acting == Side(seat))
        && u.side == Side(seat)
        && u.status == UnitStatus::OnTable
        && !u.flags.activated
        && matches!(u.order, Some(OrderKind::Move) | Some(OrderKind::Charge))
}

/// The steps a plan already holds for `unit`.
fn steps_of(plan: Option<&Command>, unit: UnitId) -> Vec<MoveStep> {
    match plan {
        Some(Command::Move { unit: u, steps }) if *u == unit => steps.clone(),
        _ => Vec::new(),
    }
}

/// The unit's bases as the plan leaves them (the ghost), or where they stand.
fn bases_after(view: &Game, unit: UnitId, plan: Option<&Command>) -> Vec<sandtable_geometry::Rect> {
    match plan.map(|p| preview::preview(view, p)) {
        Some(Ok(Preview::Move(m))) if m.unit == unit => m.bases,
        _ => view.unit(unit).bases.clone(),
    }
}

pub fn handles(view: &Game, seat: Seat, piece: PieceId, plan: Option<&Command>) -> Vec<Handle> {
    let Some(unit) = unit_of(view, Some(piece)) else {
        return Vec::new();
    };
    if !movable(view, seat, unit) {
        return Vec::new();
    }
    let bases = bases_after(view, unit, plan);
    let frame = geo::frame_of(&bases);
    vec![
        Handle {
            id: LEFT_CORNER,
            grip: Grip::Point(frame.front_left()),
        },
        Handle {
            id: RIGHT_CORNER,
            grip: Grip::Point(frame.front_right()),
        },
        Handle {
            id: BODY,
            grip: Grip::Body(bases),
        },
    ]
}

pub fn drag(
    view: &Game,
    seat: Seat,
    piece: PieceId,
    plan: Option<&Command>,
    handle: u8,
    from: Vec2,
    to: Vec2,
) -> Option<Command> {
    let unit = unit_of(view, Some(piece))?;
    if !movable(view, seat, unit) {
        return None;
    }
    let frame = geo::frame_of(&bases_after(view, unit, plan));
    let step = match handle {
        BODY if crate::open_order_move::moves_freely(view, unit) => {
            // Open Order and Elite Cavalry move any way (BFS-OO-3, BFS-SPC-10): the drag in the
            // unit's frame, to the mm.
            let local = frame.pose.to_local(frame.center() + (to - from));
            let (dx, dy) = (
                (local.x * 10.0).round() / 10.0,
                (local.y * 10.0).round() / 10.0,
            );
            if dx == 0.0 && dy == 0.0 {
                return None;
            }
            MoveStep::Shift {
                dx,
                dy,
                degrees: 0.0,
            }
        }
        BODY => {
            // Whole millimetres: steady ghosts and readable costs.
            let d = ((to - from).dot(frame.facing()) * 10.0).round() / 10.0;
            if d > 0.0 {
                MoveStep::Forward(d)
            } else if d < 0.0 {
                MoveStep::Backward(-d)
            } else {
                return None;
            }
        }
        LEFT_CORNER | RIGHT_CORNER => {
            // The grabbed corner swings about the other one.
            let (pivot, pivot_point, grabbed) = if handle == LEFT_CORNER {
                (
                    PivotCorner::FrontRight,
                    frame.front_right(),
                    frame.front_left(),
                )
            } else {
                (
                    PivotCorner::FrontLeft,
                    frame.front_left(),
                    frame.front_right(),
                )
            };
            let moved = grabbed + (to - from);
            let a =
                sandtable_geometry::pose::signed_angle(grabbed - pivot_point, moved - pivot_point)
                    .to_degrees();
            // Forward wheel about the right corner turns clockwise (negative angle).
            let forward = match pivot {
                PivotCorner::FrontRight => a,
                PivotCorner::FrontLeft => -a,
            };
            let degrees = (forward * 2.0).round() / 2.0;
            if degrees.abs() < 0.5 {
                return None;
            }
            MoveStep::Wheel { pivot, degrees }
        }
        _ => return None,
    };
    let mut steps = steps_of(plan, unit);
    steps.push(step);
    Some(Command::Move { unit, steps })
}

/// Clicking an enemy with a charging unit selected plans the charge at it.
pub fn click(
    view: &Game,
    seat: Seat,
    piece: PieceId,
    _plan: Option<&Command>,
    target: PieceId,
) -> Option<Command> {
    let unit = unit_of(view, Some(piece))?;
    let Some(Thing::Unit(target)) = thing(view, target) else {
        return None;
    };
    let charging = view.unit(unit).order == Some(OrderKind::Charge);
    (movable(view, seat, unit) && charging && view.unit(target).side != view.unit(unit).side)
        .then_some(Command::DeclareCharge {
            unit,
            target,
            pay: None,
        })
}

pub fn drop_last(plan: &Command) -> Option<Command> {
    match plan {
        Command::Move { unit, steps } if steps.len() > 1 => Some(Command::Move {
            unit: *unit,
            steps: steps[..steps.len() - 1].to_vec(),
        }),
        _ => None,
    }
}

/// The planned command in words and shapes.
pub fn describe(
    view: &Game,
    _seat: Seat,
    cmd: &Command,
    result: Result<Preview, RuleError>,
) -> PreviewReport {
    let mut r = PreviewReport {
        commit: match cmd {
            Command::DeclareCharge { .. } => "Charge!".into(),
            _ => "Commit move".into(),
        },
        ..Default::default()
    };
    match result {
        Ok(Preview::Move(plan)) => {
            let what = if plan.description.is_empty() {
                "no steps"
            } else {
                &plan.description
            };
            r.lines.push(format!(
                "{what} — {:.1} of {:.1} cm used, {:.1} cm left",
                plan.cost,
                plan.allowance,
                (plan.allowance - plan.cost).max(0.0)
            ));
            r.shapes
                .extend(plan.bases.iter().map(|b| Shape::rect(*b, 0.0, Tone::Ghost)));
            let centres: Vec<Vec2> = plan.path.iter().map(|f| f.center()).collect();
            if centres.len() > 1 {
                r.shapes
                    .push(Shape::new(Outline::Line(centres), Tone::Path));
            }
        }
        Ok(Preview::Maneuver(bases)) => {
            r.shapes
                .extend(bases.iter().map(|b| Shape::rect(*b, 0.0, Tone::Ghost)));
        }
        Ok(Preview::Charge(c)) => {
            let unit = match cmd {
                Command::DeclareCharge { unit, .. } => *unit,
                _ => c.target,
            };
            r.lines.push(format!(
                "Charge {} ({:.1} cm away): {}",
                view.unit(c.target).name,
                c.distance_cm,
                if c.reaches {
                    "reaches it with the Basic Move"
                } else if c.reaches_with_additional {
                    "reaches it only with the Additional Move in the Combat Phase"
                } else {
                    "cannot reach it: a failed charge means a Skill test (BFS-CHG-24)"
                }
            ));
            if let Some(rule) = crate::charge::nerve_rule(view, unit, c.target) {
                let roll = crate::morale::morale_modifiers(
                    view,
                    unit,
                    &crate::morale::MoraleCause::Other {
                        rule,
                        reason: String::new(),
                    },
                );
                let target = view.unit_profile(unit).morale as i32
                    + roll.iter().map(|m| m.delta).sum::<i32>();
                r.lines.push(format!(
                    "{} has more bases: a Morale test first (roll {} or less on a d10); on a failure the unit does not charge and loses its order ({rule})",
                    view.unit(c.target).name,
                    target.clamp(0, 10)
                ));
            }
            r.shapes.extend(
                c.bases_after
                    .iter()
                    .map(|b| Shape::rect(*b, 0.0, Tone::Ghost)),
            );
            r.shapes.extend(
                view.unit(c.target)
                    .bases
                    .iter()
                    .map(|b| Shape::rect(*b, 0.6, Tone::Target)),
            );
            if let Some(o) = preview::charge_odds(view, unit, c.target) {
                r.odds.push(odds_chart(&o));
            }
        }
        Ok(_) => {}
        Err(e) => {
            if let Some(unit) = unit_in(cmd) {
                r.shapes.extend(
                    view.unit(unit)
                        .bases
                        .iter()
                        .map(|b| Shape::rect(*b, 0.5, Tone::Refused)),
                );
            }
            r.refused = Some(e);
        }
    }
    r
}

/// The unit a planned command moves.
fn unit_in(cmd: &Command) -> Option<UnitId> {
    match cmd {
        Command::Move { unit, .. }
        | Command::Maneuver { unit, .. }
        | Command::DeclareCharge { unit, .. } => Some(*unit),
        _ => None,
    }
}
