//! Cowardly Commander (BFS-SCN-30), an Additional Effect of the pre-battle sequence: a random
//! commander of the Stronger side, never a named historical one, turns out a coward. His Morale
//! is 4; a Charge order from him costs 1 CP more (2 where it would cost 1; paid when the orders
//! are turned up, so the face-down marker's price gives nothing away); he joins no unit nor
//! combat; charged, he must ride away rather than stand; he may not end a move within 10 cm of
//! an enemy unit, and if his side's Movement Phase begins with him that close he rides straight
//! away at once, unless that would bring him within 10 cm of another enemy unit.
//!
//! Sandtable's reading, where the book is silent: a free order (turn 1's starting orders) stays
//! free; the move away at the start of the phase is the shortest straight one directly away
//! from the nearest enemy, and he does not move at all if no such move of up to twice his Move
//! ends clear of every enemy unit and on the table.

use crate::event::Event;
use crate::ids::{CommanderId, Side, UnitId};
use crate::state::{Game, UnitStatus};
use crate::vocab::OrderKind;
use sandtable_engine::RuleError;
use sandtable_geometry::{Rect, Vec2};

/// How close to an enemy unit a coward may not end a move, cm.
pub const KEEP_AWAY_CM: f32 = 10.0;

/// A coward's Morale.
pub const MORALE: u8 = 4;

/// Whether `c` is the coward.
pub fn is_coward(game: &Game, c: CommanderId) -> bool {
    game.commander(c).coward
}

/// A commander's Morale: his profile's, or 4 for the coward.
pub fn morale(game: &Game, c: CommanderId) -> u8 {
    if is_coward(game, c) {
        MORALE
    } else {
        game.profile(game.commander(c).profile).morale
    }
}

/// Whether a Charge order from `by` to `unit` costs 1 CP more when it is turned up: `by` is the
/// coward and the order is not free (turn 1's starting orders, an Independent unit's).
pub fn charge_surcharge_due(game: &Game, by: CommanderId, unit: UnitId) -> bool {
    is_coward(game, by) && surcharged(game, unit)
}

fn surcharged(game: &Game, unit: UnitId) -> bool {
    let free = (crate::phases::orders::orders_are_free(game) && !game.unit(unit).flags.confused)
        || crate::phases::orders::independent(game, unit);
    !free
}

/// When the side's orders are turned up: each Charge order the coward gave costs him 1 CP more;
/// one he cannot pay is taken away, and the unit keeps the order it had. The CP is paid then,
/// not when the marker is placed face down, so that the marker's price never tells the enemy
/// what it is (and a sealed order's stand-in costs the same in remote play). Returns the units
/// whose new orders are taken away.
pub fn pay_for_charges(
    game: &mut Game,
    orders: &[(UnitId, OrderKind, Option<CommanderId>)],
    events: &mut Vec<Event>,
) -> Vec<UnitId> {
    let mut taken_away = Vec::new();
    for &(unit, order, issuer) in orders {
        let Some(by) = issuer else { continue };
        if order != OrderKind::Charge || !is_coward(game, by) || !surcharged(game, unit) {
            continue;
        }
        let name = game.commander(by).name.clone();
        let unit_name = game.unit(unit).name.clone();
        let paid =
            format!("{name} is a coward: the Charge order he gave {unit_name} costs 1 CP more");
        let refused = format!(
            "{name}, a coward, cannot pay the 1 CP more that his Charge order to {unit_name} costs: the order is taken away and the unit keeps the one it had."
        );
        if !crate::authority::pay_at_turn_up(game, by, "BFS-SCN-30", paid, refused, events) {
            taken_away.push(unit);
        }
    }
    taken_away
}

/// A coward joins no unit, whether he rides to it or runs to it from a charge.
pub fn check_may_join(game: &Game, c: CommanderId) -> Result<(), RuleError> {
    if is_coward(game, c) {
        return Err(RuleError::new(
            "BFS-SCN-30",
            format!(
                "{} is a coward: he joins no unit nor combat.",
                game.commander(c).name
            ),
        ));
    }
    Ok(())
}

/// Charged, a coward must avoid the charge: he may not stand.
pub fn check_may_stand(game: &Game, c: CommanderId) -> Result<(), RuleError> {
    if is_coward(game, c) {
        return Err(RuleError::new(
            "BFS-SCN-30",
            format!(
                "{} is a coward: he must avoid the charge and ride away.",
                game.commander(c).name
            ),
        ));
    }
    Ok(())
}

/// The distance from `base` to the nearest enemy unit of `side` on the table.
fn nearest_enemy(game: &Game, side: Side, base: &Rect) -> Option<(f32, Vec2)> {
    game.units_on_table(side.other())
        .filter_map(|u| {
            let d =
                sandtable_geometry::distance::set_distance(std::slice::from_ref(base), &u.bases)
                    .ok()?;
            let p = u
                .bases
                .iter()
                .map(|b| b.closest_point(base.pose.pos))
                .min_by(|a, b| {
                    (*a - base.pose.pos)
                        .length()
                        .total_cmp(&(*b - base.pose.pos).length())
                })?;
            Some((d, p))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// A coward may not end a move within 10 cm of an enemy unit.
pub fn check_move_end(game: &Game, c: CommanderId, end: &Rect) -> Result<(), RuleError> {
    if !is_coward(game, c) {
        return Ok(());
    }
    let side = game.commander(c).side;
    if let Some((d, _)) = nearest_enemy(game, side, end)
        && d < KEEP_AWAY_CM - 1e-3
    {
        return Err(RuleError::new(
            "BFS-SCN-30",
            format!(
                "{} is a coward: he may not end his move within {KEEP_AWAY_CM} cm of an enemy unit (this ends {d:.1} cm away).",
                game.commander(c).name
            ),
        ));
    }
    Ok(())
}

/// When `side`'s Movement Phase begins: a coward of that side within 10 cm of an enemy unit
/// rides straight away from the nearest one until 10 cm clear of every enemy unit, or stays
/// where he is if he cannot.
pub fn at_movement_start(game: &mut Game, side: Side, events: &mut Vec<Event>) {
    let cowards: Vec<CommanderId> = game
        .commanders
        .iter()
        .filter(|c| c.side == side && c.coward && c.status == UnitStatus::OnTable)
        .filter(|c| c.attached_to.is_none())
        .map(|c| c.id)
        .collect();
    for c in cowards {
        let base = game.commander(c).base;
        let Some((d, from)) = nearest_enemy(game, side, &base) else {
            continue;
        };
        if d >= KEEP_AWAY_CM - 1e-3 {
            continue;
        }
        let name = game.commander(c).name.clone();
        let away = (base.pose.pos - from).normalize_or_zero();
        let reach = 2.0 * game.profile(game.commander(c).profile).movement.basic;
        let t = game.info.table;
        let on_table = |r: &Rect| {
            r.corners()
                .iter()
                .all(|p| p.x >= 0.0 && p.y >= 0.0 && p.x <= t.x && p.y <= t.y)
        };
        let clear =
            |r: &Rect| nearest_enemy(game, side, r).is_none_or(|(d, _)| d >= KEEP_AWAY_CM + 0.01);
        // How far he can ride that way: as a lone commander moves, through friends, 2 cm clear of
        // enemies, never into impassable ground (BFS-CDR-2, -5), and on the table.
        let run = if away == Vec2::ZERO {
            0.0
        } else {
            let running = Rect::new(
                sandtable_geometry::Pose::new(base.center(), (-away.x).atan2(away.y)),
                base.half,
            );
            let p = game.profile(game.commander(c).profile);
            let scene = crate::geo::scene(game);
            let obs = crate::moves::commander_obstacles(game, side.0, p);
            let one = [running];
            sandtable_geometry::movement::move_straight(
                &scene,
                &sandtable_geometry::movement::Body::new(running, &one),
                reach,
                &obs,
                sandtable_geometry::movement::MoveCost::default(),
            )
            .map(|m| m.travelled)
            .unwrap_or(0.0)
        };
        // The shortest way out along that line, in 0.5 cm steps.
        let to = (1..=(run * 2.0) as i32)
            .map(|k| base.translated(away * (k as f32 * 0.5)))
            .take_while(on_table)
            .find(|r| clear(r));
        match to {
            Some(r) if away != Vec2::ZERO => {
                let moved = (r.pose.pos - base.pose.pos).length();
                let cm = game.commander_mut(c);
                cm.base = r;
                cm.moved = true;
                events.push(Event::CommanderMoved {
                    commander: c,
                    to: r.center(),
                    joined: None,
                });
                events.push(Event::Ruling {
                    rule: "BFS-SCN-30".into(),
                    text: format!(
                        "{name}, a coward, was {d:.1} cm from the enemy: he rides {moved:.1} cm away at once."
                    ),
                });
            }
            _ => {
                game.commander_mut(c).moved = true;
                events.push(Event::Ruling {
                    rule: "BFS-SCN-30".into(),
                    text: format!(
                        "{name}, a coward, is {d:.1} cm from the enemy but cannot get 10 cm clear: he does not move at all."
                    ),
                });
            }
        }
    }
}
