//! Planning on the table: dragging a unit to move it one action, dragging the arrow ahead of it
//! to turn it, dragging a leader at step 8, clicking an enemy to charge or fire; and every plan
//! described before it is committed — its cost, its ghost and path, its odds.

use super::table::{Thing, thing, unit_of};
use crate::command::Command;
use crate::morale::bearing_of;
use crate::preview::Preview;
use crate::state::{Game, INCH, Phase, UnitId};
use crate::vocab::Arm;
use sandtable_engine::present::{
    Grip, Handle, OddsChart, Outline, PieceId, PreviewReport, Shape, Tone,
};
use sandtable_engine::{RuleError, Seat};
use sandtable_geometry::Vec2;

pub const BODY: u8 = 0;
pub const TURN: u8 = 1;
pub const LEADER: u8 = 2;

/// May `seat` act with the unit now?
pub fn acting(view: &Game, seat: Seat, unit: UnitId) -> bool {
    let u = view.unit(unit);
    matches!(view.phase, Phase::Activation(a) if a.side == seat && (a.current == Some(unit) || (a.current.is_none() && !u.marks.moved)))
        && u.side == seat
        && u.present()
}

/// Where the turning arrow sits: an inch ahead of the front centre.
fn arrow(view: &Game, unit: UnitId) -> Vec2 {
    let u = view.unit(unit);
    u.front + u.rect().facing() * INCH
}

pub fn handles(view: &Game, seat: Seat, piece: PieceId, _plan: Option<&Command>) -> Vec<Handle> {
    match thing(view, piece) {
        Some(Thing::Unit(unit)) if acting(view, seat, unit) => vec![
            Handle {
                id: TURN,
                grip: Grip::Point(arrow(view, unit)),
            },
            Handle {
                id: BODY,
                grip: Grip::Body(vec![view.unit(unit).rect()]),
            },
        ],
        Some(Thing::Leader(l)) if matches!(view.phase, Phase::Leaders { side } if side == seat && view.leader(l).side == seat) =>
        {
            vec![Handle {
                id: LEADER,
                grip: Grip::Body(vec![super::table::leader_base(view.leader(l).pos)]),
            }]
        }
        _ => Vec::new(),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn drag(
    view: &Game,
    seat: Seat,
    piece: PieceId,
    _plan: Option<&Command>,
    handle: u8,
    from: Vec2,
    to: Vec2,
) -> Option<Command> {
    let delta = to - from;
    if delta.length() < 0.05 * INCH {
        return None;
    }
    match (thing(view, piece)?, handle) {
        (Thing::Unit(unit), BODY) if acting(view, seat, unit) => {
            let u = view.unit(unit);
            let bearing =
                if crate::actions::turns_freely(u.formation) && delta.length() > 0.5 * INCH {
                    (bearing_of(delta) * 2.0).round() / 2.0
                } else {
                    u.bearing
                };
            // Whole tenths of an inch, as a player measures.
            let step = (delta / INCH * 10.0).round() / 10.0 * INCH;
            Some(Command::Move {
                unit,
                to: u.front + step,
                bearing,
            })
        }
        (Thing::Unit(unit), TURN) if acting(view, seat, unit) => {
            let c = view.unit(unit).rect().center();
            let b = (bearing_of(to - c) / 5.0).round() * 5.0;
            Some(Command::Face {
                unit,
                bearing: b % 360.0,
            })
        }
        (Thing::Leader(l), LEADER) => Some(Command::MoveLeader {
            leader: l,
            to: view.leader(l).pos + delta,
        }),
        _ => None,
    }
}

/// Clicking an enemy with a unit selected: charge it if it is in reach, else fire at it (solid
/// shot from a battery beyond canister range).
pub fn click(
    view: &Game,
    seat: Seat,
    piece: PieceId,
    _plan: Option<&Command>,
    target: PieceId,
) -> Option<Command> {
    let unit = unit_of(view, Some(piece))?;
    let target = unit_of(view, Some(target))?;
    if !acting(view, seat, unit) || view.unit(target).side == view.unit(unit).side {
        return None;
    }
    let charge = Command::Charge { unit, target };
    if crate::rules::legal(view, &charge).is_ok() {
        return Some(charge);
    }
    let fire = Command::Fire {
        unit,
        target,
        actions: 1,
    };
    if view.unit(unit).arm().is_artillery() && crate::rules::legal(view, &fire).is_err() {
        return Some(Command::SolidShot {
            unit,
            aim: view.unit(target).rect().center(),
            actions: 1,
        });
    }
    Some(fire)
}

pub fn drop_last(_plan: &Command) -> Option<Command> {
    None
}

fn pct(p: f64) -> String {
    format!("{:.0}%", p * 100.0)
}

pub fn describe(
    view: &Game,
    _seat: Seat,
    cmd: &Command,
    result: Result<Preview, RuleError>,
) -> PreviewReport {
    let mut r = PreviewReport {
        commit: match cmd {
            Command::Charge { .. } => "Charge!".into(),
            Command::Fire { .. } => "Fire!".into(),
            Command::SolidShot { .. } => "Fire solid shot".into(),
            Command::Face { .. } => "Turn".into(),
            Command::MoveLeader { .. } => "Move leader".into(),
            _ => "Commit move".into(),
        },
        ..Default::default()
    };
    match result {
        Err(e) => {
            if let Command::Move { unit, to, bearing } = cmd
                && let Some(u) = view.units.get(unit.0 as usize)
            {
                r.shapes.push(Shape::rect(
                    crate::footprint::rect(u.arm(), u.formation, u.figures, *to, *bearing),
                    0.0,
                    Tone::Refused,
                ));
            }
            r.refused = Some(e);
        }
        Ok(Preview::Move {
            inches,
            rate,
            road,
            ghost,
        }) => {
            let u = view.unit(cmd.unit().unwrap_or(UnitId(0)));
            r.lines.push(format!(
                "Move {inches:.1}\" of the {rate}\" of one action{} (NQ-MOV-{}); {} action(s) left after it",
                if road { " by road" } else { "" },
                match u.arm() {
                    Arm::Infantry => 1,
                    Arm::Cavalry(_) => 2,
                    Arm::Artillery { .. } => 4,
                },
                u.actions_left.saturating_sub(1)
            ));
            r.shapes.push(Shape::rect(ghost, 0.0, Tone::Ghost));
            if let Command::Move { to, .. } = cmd {
                r.shapes
                    .push(Shape::new(Outline::Line(vec![u.front, *to]), Tone::Path));
            }
        }
        Ok(Preview::Fire(plan)) => {
            if let Command::Fire { unit, target, .. } = cmd {
                let t = view.unit(*target);
                let faces = plan.removed_by_face();
                r.lines.push(format!(
                    "{} at {} ({:.1}\", {} range): row {}, D6 {:+}",
                    if plan.canister { "Canister" } else { "Volley" },
                    t.name,
                    plan.range,
                    plan.band.name(),
                    plan.row,
                    sandtable_engine::roll::total(&plan.modifiers)
                ));
                r.lines.push(plan.row_note.clone());
                for m in &plan.modifiers {
                    r.lines
                        .push(format!("  {:+} {} ({})", m.delta, m.reason, m.rule));
                }
                r.lines.push(format!(
                    "Figures removed for a roll of 1–6: {} (NQ-FIRE-2)",
                    faces
                        .iter()
                        .map(|f| f.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                r.shapes
                    .push(Shape::rect(t.rect(), 0.3 * INCH, Tone::Target));
                r.shapes.push(Shape::new(
                    Outline::Line(vec![view.unit(*unit).rect().center(), t.rect().center()]),
                    Tone::Path,
                ));
                r.odds.push(OddsChart {
                    title: format!("{} at {}", view.unit(*unit).name, t.name),
                    chances: plan.distribution(),
                    counts: "Figures the target loses".into(),
                });
            }
        }
        Ok(Preview::SolidShot(plan)) => {
            r.lines.push(format!(
                "Solid shot: {} range {:.1}\", {}+ to hit ({} column, NQ-ART-4); bounce to {:.1}\" past the aim (NQ-ART-1)",
                plan.band.name(),
                plan.range,
                plan.needs,
                plan.column.name(),
                (plan.bounce_end - plan.aim).length() / INCH
            ));
            r.shapes.push(Shape::new(
                Outline::Line(vec![plan.from, plan.aim]),
                Tone::Path,
            ));
            r.shapes.push(Shape::new(
                Outline::Line(vec![plan.aim, plan.bounce_end]),
                Tone::Target,
            ));
            let expected = plan.expected_losses();
            if expected.is_empty() {
                r.lines.push("Nothing stands on the bounce.".into());
            }
            for ((u, dmg, _), (_, e)) in plan.struck.iter().zip(&expected) {
                let x = view.unit(*u);
                let friend = cmd.unit().is_some_and(|me| view.unit(me).side == x.side);
                r.lines.push(format!(
                    "{}{}: {} damage point(s) a hit, {:.2} figures expected (NQ-ART-5..8)",
                    x.name,
                    if friend { " (a FRIEND)" } else { "" },
                    dmg,
                    e
                ));
                r.shapes.push(Shape::rect(
                    x.rect(),
                    0.3 * INCH,
                    if friend { Tone::Refused } else { Tone::Target },
                ));
            }
        }
        Ok(Preview::Charge(o)) => {
            if let Command::Charge { target, .. } = cmd {
                let t = view.unit(*target);
                r.lines.push(format!(
                    "Charge {} {:?}: {:.1}\" of {}\" (NQ-MOV-3, NQ-ACT-2); close action at step 9",
                    t.name, o.facing, o.inches, o.reach
                ));
                r.lines.push(format!(
                    "Target holds its first morale check: {} (NQ-CA-1 step 2)",
                    pct(o.defender_holds)
                ));
                r.lines.push(format!(
                    "Charger passes its check to close: {} (step 5)",
                    pct(o.charger_closes)
                ));
                match (o.melee_win, o.rides_down) {
                    (Some(w), _) => r.lines.push(format!("Charger wins the melee if it closes: {} (NQ-CA-2)", pct(w))),
                    (None, Some(true)) => r.lines.push("If the cavalry closes it rides the target down (NQ-CA-6 step 6)".into()),
                    (None, _) => r.lines.push("Square or a steady line: the cavalry will be repulsed if it closes (NQ-CA-6 step 6)".into()),
                }
                r.shapes.push(Shape::rect(o.ghost, 0.0, Tone::Ghost));
                r.shapes
                    .push(Shape::rect(t.rect(), 0.3 * INCH, Tone::Target));
                let c = cmd.unit().map(|u| view.unit(u).front).unwrap_or_default();
                r.shapes.push(Shape::new(
                    Outline::Line(vec![c, o.ghost.center()]),
                    Tone::Path,
                ));
                let hold = o.defender_holds;
                let close = o.charger_closes;
                let success = (1.0 - hold)
                    + hold
                        * close
                        * o.melee_win
                            .unwrap_or(if o.rides_down == Some(true) { 1.0 } else { 0.0 });
                r.odds.push(OddsChart {
                    title: format!(
                        "The charge on {} succeeds (target retreats, is ridden down or loses)",
                        t.name
                    ),
                    chances: vec![1.0 - success, success],
                    counts: "0 = fails, 1 = succeeds".into(),
                });
            }
        }
        Ok(Preview::Plain) => {
            if let Command::MoveLeader { leader, to } = cmd {
                let l = view.leader(*leader);
                r.lines.push(format!(
                    "{} moves {:.1}\" of {}\" (NQ-MOV-5)",
                    l.name,
                    (*to - l.pos).length() / INCH,
                    view.options.leader_move
                ));
                r.shapes.push(Shape::rect(
                    super::table::leader_base(*to),
                    0.0,
                    Tone::Ghost,
                ));
                r.shapes
                    .push(Shape::new(Outline::Line(vec![l.pos, *to]), Tone::Path));
            }
            if let Command::Face { unit, bearing } = cmd {
                let u = view.unit(*unit);
                let front = crate::actions::faced_front(view, *unit, *bearing);
                r.lines.push(format!(
                    "{} turns to face {:.0}° (one action, G2)",
                    u.name, bearing
                ));
                r.shapes.push(Shape::rect(
                    crate::footprint::rect(u.arm(), u.formation, u.figures, front, *bearing),
                    0.0,
                    Tone::Ghost,
                ));
            }
        }
    }
    r
}
