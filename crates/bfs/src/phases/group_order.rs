//! Group orders (BFS-OPT-3): one order, one face-down marker on each unit, for a group of up to
//! 4 units of one Regiment, each no more than 10 cm from another of the group. The commander
//! needs one unit of the group within his Command Range; the order costs 2 CP, 3 when a unit of
//! the group is Insubordinate. The Commanders chapter treats it as a standard command (000
//! l.5900-5902), so it is on unless the scenario's option `group_orders` is false.
//!
//! "Not more than 10 cm away from any other Unit from the group" is read as a chain (every unit
//! within 10 cm of some other, the group connected), the digest's proposal; the option
//! `group_order_spacing: "all_pairs"` asks every pair to be within 10 cm instead. A Skirmish
//! Force's units with no Regiment count as one Regiment.

use super::orders;
use crate::authority;
use crate::event::Event;
use crate::ids::{CommanderId, UnitId};
use crate::state::{Game, OrderKind, PendingOrder};
use sandtable_engine::RuleError;
use sandtable_geometry::distance;
use serde::{Deserialize, Serialize};

/// Most units in a group (BFS-OPT-3).
pub const MAX_UNITS: usize = 4;
/// How close the units of a group stand to each other, cm (BFS-OPT-3).
pub const SPACING_CM: f32 = 10.0;
/// What a group order costs, and with an Insubordinate unit in it (BFS-OPT-3).
pub const COST_CP: u8 = 2;
pub const COST_INSUBORDINATE_CP: u8 = 3;

/// How "within 10 cm of another unit of the group" is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Spacing {
    /// Each unit within 10 cm of some other, the whole group connected (default).
    #[default]
    Chain,
    /// Every pair within 10 cm.
    AllPairs,
}

/// The gap between two units' nearest bases.
fn gap(game: &Game, a: UnitId, b: UnitId) -> f32 {
    distance::set_distance(&game.unit(a).bases, &game.unit(b).bases).unwrap_or(f32::INFINITY)
}

/// Do the units stand close enough together to be one group?
pub fn close_enough(game: &Game, units: &[UnitId], spacing: Spacing) -> bool {
    let near = |a: UnitId, b: UnitId| {
        gap(game, a, b) <= SPACING_CM + sandtable_geometry::tolerance::LIMIT_EPS
    };
    match spacing {
        Spacing::AllPairs => units
            .iter()
            .enumerate()
            .all(|(i, a)| units[i + 1..].iter().all(|b| near(*a, *b))),
        Spacing::Chain if units.is_empty() => true,
        Spacing::Chain => {
            let mut reached = vec![false; units.len()];
            let mut stack = vec![0];
            reached[0] = true;
            while let Some(i) = stack.pop() {
                for j in 0..units.len() {
                    if !reached[j] && near(units[i], units[j]) {
                        reached[j] = true;
                        stack.push(j);
                    }
                }
            }
            reached.iter().all(|r| *r)
        }
    }
}

/// What the group order costs, or why it may not be given.
pub fn check(
    game: &Game,
    units: &[UnitId],
    order: OrderKind,
    by: CommanderId,
) -> Result<u8, RuleError> {
    let refuse = |why: String| Err(RuleError::new("BFS-OPT-3", why));
    if !game.info.options.group_orders {
        return refuse("The battle is played without Group orders.".into());
    }
    // Confusion's changes and re-orders are made unit by unit (BFS-SCN-44).
    if crate::turn_one::in_confusion_window(game)
        || units.iter().any(|u| game.unit(*u).flags.confused)
    {
        return Err(RuleError::new(
            "BFS-SCN-44",
            "After Confusion, orders are given to one unit at a time.",
        ));
    }
    if units.len() < 2 || units.len() > MAX_UNITS {
        return refuse(format!(
            "A group order goes to 2 to {MAX_UNITS} units; this names {}.",
            units.len()
        ));
    }
    let mut sorted = units.to_vec();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != units.len() {
        return refuse("A group names each unit once.".into());
    }
    for &u in units {
        orders::check_may_take(game, u, order, by)?;
        if orders::independent(game, u) {
            return refuse(format!(
                "{} is Independent: it takes its order alone, for free and face up (BFS-SPC-14).",
                game.unit(u).name
            ));
        }
        orders::check_subordinate(game, u, by)?;
    }
    let regiment = game.unit(units[0]).regiment;
    if let Some(other) = units[1..]
        .iter()
        .find(|u| game.unit(**u).regiment != regiment)
    {
        return refuse(format!(
            "{} is not of {}'s Regiment: a group is of one Regiment.",
            game.unit(*other).name,
            game.unit(units[0]).name
        ));
    }
    let spacing = game.info.options.group_order_spacing;
    if !close_enough(game, units, spacing) {
        return refuse(match spacing {
            Spacing::Chain => {
                "Each unit of a group must stand within 10 cm of another unit of it.".into()
            }
            Spacing::AllPairs => "Every two units of the group must stand within 10 cm.".into(),
        });
    }
    let range = authority::command_range_cm(game, by);
    let c = game.commander(by);
    if units.iter().all(|u| {
        authority::distance_to_unit(game, by, *u) > range + sandtable_geometry::tolerance::LIMIT_EPS
    }) {
        return refuse(format!(
            "{} needs at least one unit of the group within his Command Range ({range} cm).",
            c.name
        ));
    }
    let insubordinate = units.iter().any(|u| {
        game.unit_profile(*u)
            .has(crate::profile::SpecialRule::Insubordinate)
    });
    // A Regimental commander with no Instruction pays 1 CP more for it (BFS-ORD-13).
    let cp = if orders::orders_are_free(game) {
        0
    } else if insubordinate {
        COST_INSUBORDINATE_CP
    } else {
        COST_CP
    } + if orders::orders_are_free(game) {
        0
    } else {
        crate::instructions::no_instruction_surcharge(game, by)
    };
    if cp > c.cp {
        return refuse(format!(
            "This group order costs {cp} CP{} and {} has {}.",
            if insubordinate {
                " (an Insubordinate unit is in it)"
            } else {
                ""
            },
            c.name,
            c.cp
        ));
    }
    Ok(cp)
}

/// Gives the order: a face-down marker on each unit, the CP paid once.
pub fn give(
    game: &mut Game,
    units: &[UnitId],
    order: OrderKind,
    by: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let cp = check(game, units, order, by)?;
    let free = orders::orders_are_free(game);
    game.commander_mut(by).cp -= cp;
    // What the group is, in words: the order itself stays face down (BFS-ORD-3).
    events.push(Event::Ruling {
        rule: "BFS-OPT-3".into(),
        text: format!(
            "{} gives one order to a group of {}: {}.",
            game.commander(by).name,
            units.len(),
            if free {
                "free in the first turn (BFS-ORD-15)".to_string()
            } else {
                format!("{cp} CP")
            }
        ),
    });
    for (k, &unit) in units.iter().enumerate() {
        let face_up = crate::turn_one::prisoner_talks(game, game.unit(unit).side);
        let u = game.unit_mut(unit);
        u.pending_order = Some(PendingOrder {
            kind: Some(order),
            issued_by: Some(by),
            face_up,
        });
        u.flags.ordered = true;
        events.push(Event::OrderIssued {
            unit,
            by,
            order: Some(order),
            cp: if k == 0 { cp } else { 0 },
            distance_cm: authority::distance_to_unit(game, by, unit),
            free,
            independent: false,
            prisoner: face_up,
        });
    }
    Ok(())
}

/// Units that may take an order from `by` as part of a group.
fn may_join(game: &Game, unit: UnitId, by: CommanderId) -> bool {
    // Starting orders must match an Instruction (BFS-ORD-11): probe with it where there is one.
    let probe = crate::instructions::instruction_for(game, unit).unwrap_or(OrderKind::Move);
    orders::check_may_take(game, unit, probe, by).is_ok()
        && !orders::independent(game, unit)
        && orders::check_subordinate(game, unit, by).is_ok()
}

/// `first` and up to 3 more of `open` of its Regiment, each within 10 cm of one already in,
/// nearest first; those taken leave `open`.
fn grow(game: &Game, first: UnitId, open: &mut Vec<UnitId>) -> Vec<UnitId> {
    let mut group = vec![first];
    while group.len() < MAX_UNITS {
        let next = open
            .iter()
            .enumerate()
            .filter(|(_, o)| game.unit(**o).regiment == game.unit(first).regiment)
            .map(|(i, o)| {
                let d = group
                    .iter()
                    .map(|g| gap(game, *g, *o))
                    .fold(f32::INFINITY, f32::min);
                (i, d)
            })
            .filter(|(_, d)| *d <= SPACING_CM)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match next {
            Some((i, _)) => group.push(open.remove(i)),
            None => break,
        }
    }
    group
}

/// The group a player would order with `unit`: it and up to 3 of its Regiment's units standing
/// in a chain with it, each able to take an order from `by` (for the unit's menu).
pub fn group_around(game: &Game, unit: UnitId, by: CommanderId) -> Vec<UnitId> {
    let side = game.unit(unit).side;
    let mut open: Vec<UnitId> = game
        .units_on_table(side)
        .map(|u| u.id)
        .filter(|u| *u != unit && may_join(game, *u, by))
        .collect();
    grow(game, unit, &mut open)
}

/// Groups a commander might order together, for the computer's candidates: for each Regiment,
/// its units that may take an order from him, split into chains of up to 4 within 10 cm.
pub fn groups_for(game: &Game, by: CommanderId) -> Vec<Vec<UnitId>> {
    let side = game.commander(by).side;
    let mut open: Vec<UnitId> = game
        .units_on_table(side)
        .map(|u| u.id)
        .filter(|u| may_join(game, *u, by))
        .collect();
    let mut groups = Vec::new();
    while !open.is_empty() {
        let first = open.remove(0);
        let group = grow(game, first, &mut open);
        if group.len() >= 2 {
            groups.push(group);
        }
    }
    groups
}
