//! The scenario's script and objectives, run by the rules engine after every command, so that a
//! replay fires the same rules at the same moments.
//!
//! - Objectives change hands when one side has bases within the control radius and the other
//!   none (BFS-SCN-7).
//! - Each scripted rule fires once, the first time its trigger holds after a command: it may give
//!   standing orders to units (issued by whoever plays their side by computer), call reserves on
//!   (they arrive at their listed position with a Move order, BFS-SCN-50, as soon as the place
//!   is clear), or show a message.

use crate::event::Event;
use crate::ids::Side;
use crate::scenario_spec::BfsScenario;
use crate::state::{Game, MoraleLevel, Objective, OrderKind, UnitStatus};
use sandtable_engine::scenario_geometry::shape_polygons;
use sandtable_engine::scenario_script::{ScriptAction, Trigger};
use sandtable_geometry::terrain::TerrainPiece;
use sandtable_geometry::{Polygon, Vec2};

pub use crate::script_rule::{Action, Rule, When};

/// The order named in a script (`"Move"`, `"Charge"`, `"Defense"`).
pub fn order_named(name: &str) -> Option<OrderKind> {
    OrderKind::ALL
        .into_iter()
        .find(|o| o.name().eq_ignore_ascii_case(name))
}

/// Objectives and rules of a scenario, names resolved against the game's units. Names were
/// checked at load; one that still fails to resolve is an error message, never a panic.
pub fn compile(s: &BfsScenario, game: &Game) -> Result<(Vec<Objective>, Vec<Rule>), String> {
    let unit = |key: &str| {
        game.units
            .iter()
            .find(|u| u.key == key)
            .map(|u| u.id)
            .ok_or_else(|| format!("no unit \"{key}\""))
    };
    let objectives = s
        .objectives
        .iter()
        .map(|o| Objective {
            key: o.id.clone(),
            name: o.name.clone(),
            position: Vec2::new(o.position.0, o.position.1),
            radius: o.radius,
            vp: o.vp,
            held_by: o.held_by.map(|h| Side(h.min(1) as u8)),
        })
        .collect::<Vec<_>>();
    let mut rules = Vec::new();
    for r in &s.script {
        let when = match &r.when {
            Trigger::TurnBegins(n) => When::TurnBegins(*n),
            Trigger::UnitLost(k) => When::UnitLost(unit(k)?),
            Trigger::SideEntersArea { side, area } => When::SideEntersArea {
                side: Side(*side as u8),
                area: shape_polygons(area),
            },
            Trigger::ObjectiveTaken { objective, side } => When::ObjectiveTaken {
                objective: objectives
                    .iter()
                    .position(|o| &o.key == objective)
                    .ok_or_else(|| format!("no objective \"{objective}\""))?,
                side: Side(*side as u8),
            },
        };
        let mut then = Vec::new();
        for a in &r.then {
            then.push(match a {
                ScriptAction::Orders { units, order } => Action::Orders {
                    units: units.iter().map(|k| unit(k)).collect::<Result<_, _>>()?,
                    order: order_named(order).ok_or_else(|| {
                        format!("no order \"{order}\": use Move, Charge or Defense")
                    })?,
                },
                ScriptAction::Reserves(units) => {
                    Action::Reserves(units.iter().map(|k| unit(k)).collect::<Result<_, _>>()?)
                }
                ScriptAction::Message(m) => Action::Message(m.clone()),
            });
        }
        rules.push(Rule {
            when,
            then,
            fired: false,
        });
    }
    Ok((objectives, rules))
}

/// Runs after every command: objectives, then rules whose trigger now holds, then reserves
/// waiting for room.
pub fn run(game: &mut Game, events: &mut Vec<Event>) {
    if game.objectives.is_empty() && game.script.is_empty() && game.arriving.is_empty() {
        return;
    }
    update_objectives(game, events);
    for i in 0..game.script.len() {
        if game.script[i].fired || !holds(game, &game.script[i].when) {
            continue;
        }
        game.script[i].fired = true;
        for action in game.script[i].then.clone() {
            act(game, action, events);
        }
    }
    bring_on_reserves(game, events);
}

fn holds(game: &Game, when: &When) -> bool {
    match when {
        When::TurnBegins(n) => game.turn.number >= *n,
        When::UnitLost(u) => {
            let u = game.unit(*u);
            matches!(u.status, UnitStatus::Destroyed | UnitStatus::Left)
                || u.morale == MoraleLevel::Flight
        }
        When::SideEntersArea { side, area } => {
            let pieces: Vec<TerrainPiece> = area
                .iter()
                .filter_map(|p| Polygon::new(p.clone()).ok())
                .map(|p| TerrainPiece::new(0, p))
                .collect();
            game.units_on_table(*side)
                .flat_map(|u| u.bases.iter())
                .any(|b| {
                    pieces
                        .iter()
                        .any(|p| p.overlap_area(b).is_ok_and(|a| a > 1e-3))
                })
        }
        When::ObjectiveTaken { objective, side } => game
            .objectives
            .get(*objective)
            .is_some_and(|o| o.held_by == Some(*side)),
    }
}

fn act(game: &mut Game, action: Action, events: &mut Vec<Event>) {
    match action {
        Action::Orders { units, order } => {
            for u in units {
                game.standing_orders.retain(|(x, _)| *x != u);
                game.standing_orders.push((u, order));
            }
        }
        Action::Reserves(units) => {
            for u in units {
                if game.unit(u).status == UnitStatus::Reserve && !game.arriving.contains(&u) {
                    game.arriving.push(u);
                }
            }
        }
        Action::Message(text) => events.push(Event::ScriptMessage { text }),
    }
}

/// Reserves arrive where the scenario placed them, with a Move order (BFS-SCN-50), once no base
/// stands in the way.
fn bring_on_reserves(game: &mut Game, events: &mut Vec<Event>) {
    let waiting = std::mem::take(&mut game.arriving);
    for id in waiting {
        let blocked = {
            let u = game.unit(id);
            game.units
                .iter()
                .filter(|o| o.id != id && o.status == UnitStatus::OnTable)
                .flat_map(|o| o.bases.iter())
                .any(|ob| {
                    u.bases
                        .iter()
                        .any(|b| sandtable_engine::scenario_check::rects_overlap(b, ob))
                })
        };
        if blocked {
            game.arriving.push(id);
            continue;
        }
        let u = game.unit_mut(id);
        u.status = UnitStatus::OnTable;
        u.order = Some(OrderKind::Move);
        events.push(Event::ReservesArrived { unit: id });
        crate::reinforcements::on_arrival(game, id, events);
    }
}

/// Who holds objective `i` as the bases stand (BFS-SCN-7): a side with bases wholly or partly
/// within the radius while the other has none there; otherwise whoever held it before.
pub fn holder(game: &Game, i: usize) -> Option<Side> {
    let o = &game.objectives[i];
    let present = |s: Side| {
        game.units_on_table(s)
            .flat_map(|u| u.bases.iter())
            .any(|b| (b.closest_point(o.position) - o.position).length() <= o.radius)
    };
    match (present(Side::A), present(Side::B)) {
        (true, false) => Some(Side::A),
        (false, true) => Some(Side::B),
        _ => o.held_by,
    }
}

/// Control of each objective, with an event when it changes hands.
fn update_objectives(game: &mut Game, events: &mut Vec<Event>) {
    for i in 0..game.objectives.len() {
        let holder = holder(game, i);
        if holder != game.objectives[i].held_by {
            game.objectives[i].held_by = holder;
            events.push(Event::ObjectiveChanged {
                objective: i,
                held_by: holder,
            });
        }
    }
}

/// Victory Points each side holds from objectives (BFS-VIC-6).
pub fn objective_vp(game: &Game, side: Side) -> i32 {
    (0..game.objectives.len())
        .filter(|i| holder(game, *i) == Some(side))
        .map(|i| game.objectives[i].vp as i32)
        .sum()
}
