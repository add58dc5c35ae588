//! Pike and Shot Battalions (BFS-SPC-21): a temporary group of one Regiment built around exactly
//! one block of pikemen, with one or two units of musketeers and up to two regimental guns, all
//! within 2 cm of one another. Its members pass through one another with no test (benefit B) and
//! the enemy must charge its closest member (benefit C).
//!
//! Who may join: units whose profile carries the Pike and Shot Formation rule
//! ([`SpecialRule::PikeAndShot`]): pikemen (infantry with pikes) and musketeers (infantry with a
//! firearm); and the Regiment's regimental guns, which the book names as members without the rule
//! on their own profile. A Skirmish Force's units with no Regiment count as one Regiment, as for
//! group orders.
//!
//! Forming: for free in the Orders Phase of the first turn; later, in the side's Orders or
//! Movement Phase, a commander who may order every member spends 1 CP, more for each 20 cm (40 cm
//! for a Senior commander) or part by which the nearest member is beyond his Command Range, as an
//! order would cost ("using all Issuing Orders rules"; the book gives no more). A unit of
//! another Battalion leaves it for free.
//!
//! Leaving: at the end of every Phase or Stage (here: after every command that ends one, so a
//! Combat Phase resolved in one go is checked once it is over) a member leaves when it is more
//! than 2 cm from every other member, Disorganized, Fleeing or off the table; a Battalion left
//! without its pikemen or without musketeers is no Battalion any more. Between those checks a
//! Disorganized or Fleeing member gives and takes no benefit (B says so; C needs a target that
//! can be charged).
//!
//! Not yet: benefit A (the pikemen's 2 cm move beside a Countermarch) has nothing to follow, as a
//! Countermarch here moves no base (BFS-SPC-8's simplification without its 2 cm); Run Behind the
//! Pikes (BFS-SPC-22) and Hide Among the Pikemen (BFS-SPC-23) are not offered. Shooting picks its
//! closest target by itself (BFS-SHO-9, no CP buys another yet), which is always the closest
//! member of a Battalion, so benefit C changes only charges.

use crate::event::Event;
use crate::ids::{CommanderId, Side, UnitId};
use crate::profile::{SpecialRule, UnitKind};
use crate::state::{Game, MoraleLevel, UnitStatus};
use crate::turn::Phase;
use crate::weapons::{MeleeWeapon, RangedWeapon, WeaponClass};
use sandtable_engine::RuleError;
use sandtable_geometry::tolerance::LIMIT_EPS;

/// How far apart the members of a Battalion may stand, cm (BFS-SPC-21).
pub const SPACING_CM: f32 = 2.0;
/// Most units of musketeers, and most regimental guns, in one Battalion (BFS-SPC-21).
pub const MAX_SHOT: usize = 2;
pub const MAX_GUNS: usize = 2;
/// What forming a Battalion costs within the commander's range after the first turn.
pub const COST_CP: u8 = 1;

const RULE: &str = "BFS-SPC-21";

/// A member's part in a Battalion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The block of pikemen the Battalion is built around.
    Pikes,
    /// Musketeers.
    Shot,
    /// A regimental gun.
    Gun,
}

/// What part `unit` may play in a Battalion, if any.
pub fn role(game: &Game, unit: UnitId) -> Option<Role> {
    let p = game.unit_profile(unit);
    let flagged = p.has(SpecialRule::PikeAndShot);
    match p.kind {
        UnitKind::Infantry if flagged && p.melee == MeleeWeapon::Pikes => Some(Role::Pikes),
        UnitKind::Infantry
            if flagged
                && p.ranged.is_some_and(|w| {
                    !matches!(w, RangedWeapon::Gun(_))
                        && w.stats(false).class == WeaponClass::Firearm
                }) =>
        {
            Some(Role::Shot)
        }
        UnitKind::Artillery
            if p.ranged == Some(RangedWeapon::Gun(crate::artillery::Gun::RegimentalGun)) =>
        {
            Some(Role::Gun)
        }
        _ => None,
    }
}

/// The members of side `side`'s Battalion number `number`, in unit order.
pub fn members(game: &Game, side: Side, number: u8) -> Vec<UnitId> {
    game.units
        .iter()
        .filter(|u| u.side == side && u.battalion == Some(number))
        .map(|u| u.id)
        .collect()
}

/// Are `a` and `b` members of one Battalion, both in good order, so that it helps them now?
pub fn mates(game: &Game, a: UnitId, b: UnitId) -> bool {
    let (ua, ub) = (game.unit(a), game.unit(b));
    a != b
        && ua.side == ub.side
        && ua.battalion.is_some()
        && ua.battalion == ub.battalion
        && in_good_order(game, a)
        && in_good_order(game, b)
}

fn in_good_order(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    u.status == UnitStatus::OnTable && u.morale == MoraleLevel::Good
}

/// The gap between two units' nearest bases, cm.
fn gap(game: &Game, a: UnitId, b: UnitId) -> f32 {
    sandtable_geometry::distance::set_distance(&game.unit(a).bases, &game.unit(b).bases)
        .unwrap_or(f32::INFINITY)
}

/// Is every unit within 2 cm of another, the whole group joined up?
fn joined_up(game: &Game, units: &[UnitId]) -> bool {
    if units.is_empty() {
        return true;
    }
    let mut reached = vec![false; units.len()];
    let mut stack = vec![0];
    reached[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..units.len() {
            if !reached[j] && gap(game, units[i], units[j]) <= SPACING_CM + LIMIT_EPS {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    reached.iter().all(|r| *r)
}

/// Does this list of units make a Battalion by its parts: exactly one block of pikemen, one or
/// two of musketeers, at most two regimental guns?
fn composition(game: &Game, units: &[UnitId]) -> Result<(), String> {
    let count = |r: Role| units.iter().filter(|u| role(game, **u) == Some(r)).count();
    if let Some(u) = units.iter().find(|u| role(game, **u).is_none()) {
        return Err(format!(
            "{} cannot join a Battalion: only pikemen and musketeers with the Pike and Shot \
             Formation rule, and regimental guns, can.",
            game.unit(*u).name
        ));
    }
    match count(Role::Pikes) {
        0 => return Err("A Battalion is built around a block of pikemen; this has none.".into()),
        1 => {}
        n => {
            return Err(format!(
                "A Battalion has exactly one block of pikemen; this has {n}."
            ));
        }
    }
    let shot = count(Role::Shot);
    if shot == 0 {
        return Err(
            "A Battalion needs one or two units of musketeers: guns and pikemen alone are none."
                .into(),
        );
    }
    if shot > MAX_SHOT {
        return Err(format!(
            "A Battalion has at most {MAX_SHOT} units of musketeers; this has {shot}."
        ));
    }
    let guns = count(Role::Gun);
    if guns > MAX_GUNS {
        return Err(format!(
            "A Battalion has at most {MAX_GUNS} regimental guns; this has {guns}."
        ));
    }
    Ok(())
}

/// Who acts now, if it is an Orders or Movement Phase with no charge awaiting its reactions.
fn acting_now(game: &Game) -> Result<Side, RuleError> {
    match crate::phases::orders_or_movement_side(game) {
        Some(acting) => Ok(acting),
        None => Err(RuleError::new(
            RULE,
            format!(
                "A Battalion is formed in the side's Orders or Movement Phase; it is now the {} \
                 Phase.",
                game.turn.phase.title()
            ),
        )),
    }
}

/// Is this the first turn's Orders Phase, when Battalions are formed for free?
pub fn free_now(game: &Game) -> bool {
    game.turn.number == 1 && matches!(game.turn.phase, Phase::Orders { .. })
}

/// What forming a Battalion of `units` costs (`by` paying it), or why it may not be formed.
pub fn check_form(game: &Game, units: &[UnitId], by: Option<CommanderId>) -> Result<u8, RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let acting = acting_now(game)?;
    let mut sorted = units.to_vec();
    sorted.sort();
    sorted.dedup();
    if sorted.len() != units.len() {
        return refuse("A Battalion names each unit once.".into());
    }
    for &u in units {
        let unit = game.unit(u);
        if unit.side != acting {
            return refuse(format!("{} belongs to the other side.", unit.name));
        }
        if unit.status != UnitStatus::OnTable {
            return refuse(format!("{} is not on the table.", unit.name));
        }
        if unit.morale != MoraleLevel::Good {
            return refuse(format!(
                "{} is Disorganized or Fleeing and could not stay in a Battalion.",
                unit.name
            ));
        }
    }
    if let Err(why) = composition(game, units) {
        return refuse(why);
    }
    let regiment = game.unit(units[0]).regiment;
    if let Some(other) = units.iter().find(|u| game.unit(**u).regiment != regiment) {
        return refuse(format!(
            "{} is not of {}'s Regiment: a Battalion is of one Regiment.",
            game.unit(*other).name,
            game.unit(units[0]).name
        ));
    }
    if !joined_up(game, units) {
        return refuse(format!(
            "Each unit of a Battalion must already stand within {SPACING_CM} cm of another of it."
        ));
    }
    let mut now: Vec<UnitId> = units.to_vec();
    now.sort();
    if game.unit(units[0]).battalion.is_some_and(|n| {
        let mut m = members(game, acting, n);
        m.sort();
        m == now
    }) {
        return refuse("These units already are a Battalion.".into());
    }
    if free_now(game) {
        return match by {
            None => Ok(0),
            Some(_) => refuse(
                "In the first turn's Orders Phase a Battalion is formed for free, with no \
                 commander."
                    .into(),
            ),
        };
    }
    let Some(by) = by else {
        return refuse(
            "After the first turn's Orders Phase a commander spends 1 CP to form a Battalion."
                .into(),
        );
    };
    let c = game.commander(by);
    if c.side != acting || c.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            "BFS-CMD-2",
            format!("{} cannot form this Battalion.", c.name),
        ));
    }
    for &u in units {
        crate::phases::orders::check_subordinate(game, u, by)?;
    }
    let nearest = units
        .iter()
        .map(|u| crate::authority::distance_to_unit(game, by, *u))
        .fold(f32::INFINITY, f32::min);
    let cp = COST_CP.saturating_add(crate::authority::steps_beyond(
        nearest,
        crate::authority::command_range_cm(game, by),
        crate::authority::cost_step_cm(game, by),
    ));
    if cp > c.cp {
        return refuse(format!(
            "Forming this Battalion costs {cp} CP and {} has {}.",
            c.name, c.cp
        ));
    }
    Ok(cp)
}

/// Forms the Battalion: its members leave any other Battalion and take the side's lowest free
/// number, the cost paid.
pub fn form(
    game: &mut Game,
    units: &[UnitId],
    by: Option<CommanderId>,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let cp = check_form(game, units, by)?;
    let side = game.unit(units[0]).side;
    let left: Vec<u8> = units
        .iter()
        .filter_map(|u| game.unit(*u).battalion)
        .collect();
    for &u in units {
        game.unit_mut(u).battalion = None;
    }
    // A Battalion that lost members to this one may be none any more.
    for n in left {
        settle(game, side, n, events);
    }
    let number = (1..=u8::MAX)
        .find(|n| members(game, side, *n).is_empty())
        .unwrap_or(u8::MAX);
    for &u in units {
        game.unit_mut(u).battalion = Some(number);
    }
    if let Some(by) = by {
        game.commander_mut(by).cp -= cp;
    }
    let names: Vec<&str> = units.iter().map(|u| game.unit(*u).name.as_str()).collect();
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "Battalion {number} formed: {}, {}. Its members pass through one another with no \
             test, and a charger must take its closest member.",
            names.join(", "),
            match by {
                None => "free in the first turn".to_string(),
                Some(c) => format!("{} spends {cp} CP", game.commander(c).name),
            }
        ),
    });
    Ok(())
}

/// What a unit card says of a member: its Battalion and the other members.
pub fn card_line(game: &Game, unit: UnitId) -> Option<String> {
    let u = game.unit(unit);
    let n = u.battalion?;
    let others: Vec<&str> = members(game, u.side, n)
        .into_iter()
        .filter(|m| *m != unit)
        .map(|m| game.unit(m).name.as_str())
        .collect();
    Some(format!(
        "Battalion {n} (B{n}) with {}: they pass through one another with no test, and a charger \
         must take the closest of them (BFS-SPC-21)",
        others.join(", ")
    ))
}

/// The end of a Phase or Stage: members too far from the rest, Disorganized, Fleeing or gone
/// leave, and a Battalion left without pikemen or musketeers is dissolved (BFS-SPC-21).
pub fn lapse(game: &mut Game, events: &mut Vec<Event>) {
    let mut seen: Vec<(Side, u8)> = game
        .units
        .iter()
        .filter_map(|u| u.battalion.map(|n| (u.side, n)))
        .collect();
    seen.sort_by_key(|(s, n)| (s.0, *n));
    seen.dedup();
    for (side, n) in seen {
        let all = members(game, side, n);
        for &u in &all {
            let unit = game.unit(u);
            let why = if unit.status != UnitStatus::OnTable {
                Some("it is no longer on the table")
            } else if unit.morale == MoraleLevel::Disorganized {
                Some("it is Disorganized")
            } else if unit.morale == MoraleLevel::Flight {
                Some("it flees")
            } else if all
                .iter()
                .filter(|o| **o != u && game.unit(**o).status == UnitStatus::OnTable)
                .all(|o| gap(game, u, *o) > SPACING_CM + LIMIT_EPS)
            {
                Some("it stands more than 2 cm from every other member")
            } else {
                None
            };
            if let Some(why) = why {
                let name = game.unit(u).name.clone();
                game.unit_mut(u).battalion = None;
                events.push(Event::Ruling {
                    rule: RULE.into(),
                    text: format!("{name} leaves Battalion {n}: {why}."),
                });
            }
        }
        settle(game, side, n, events);
    }
}

/// Dissolves Battalion `n` if what is left of it is no Battalion.
fn settle(game: &mut Game, side: Side, n: u8, events: &mut Vec<Event>) {
    let left = members(game, side, n);
    if left.is_empty() || composition(game, &left).is_ok() {
        return;
    }
    for &u in &left {
        game.unit_mut(u).battalion = None;
    }
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "Battalion {n} is dissolved: a Battalion needs its block of pikemen and musketeers."
        ),
    });
}

/// Might this charged unit answer by Run Behind the Pikes or Hide Among the Pikemen (BFS-SPC-22,
/// BFS-SPC-23), whatever order it holds? Judged on what both sides see (its Battalion, its
/// morale, contact), never on a face-down order, so asking it gives nothing away.
pub fn may_answer_charge(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    u.battalion.is_some()
        && matches!(role(game, unit), Some(Role::Shot) | Some(Role::Gun))
        && in_good_order(game, unit)
        && crate::flight::enemies_in_contact(game, unit).is_empty()
}

/// Target priority (benefit C): the Battalion counts as one unit, and a charger must take its
/// closest member that it sees and that is not in close combat. `visible` holds the charger's
/// visible enemies with their distances; each Battalion member among the `free` targets is
/// replaced by its Battalion's closest such member.
pub fn charge_priority(game: &Game, visible: &[(UnitId, f32)], free: &mut Vec<UnitId>) {
    let mut out: Vec<UnitId> = Vec::with_capacity(free.len());
    for &t in free.iter() {
        let pick = priority_member(game, visible, t).unwrap_or(t);
        if !out.contains(&pick) {
            out.push(pick);
        }
    }
    *free = out;
}

/// The member of `t`'s Battalion a charger must take instead of `t`, if `t` is a member.
fn priority_member(game: &Game, visible: &[(UnitId, f32)], t: UnitId) -> Option<UnitId> {
    let n = game.unit(t).battalion?;
    if !in_good_order(game, t) {
        return None;
    }
    let side = game.unit(t).side;
    visible
        .iter()
        .filter(|(v, _)| {
            game.unit(*v).side == side
                && game.unit(*v).battalion == Some(n)
                && in_good_order(game, *v)
                && crate::flight::enemies_in_contact(game, *v).is_empty()
        })
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))
        .map(|(v, _)| *v)
}

/// The Battalions side `side` could form now: around each block of pikemen, the musketeers and
/// regimental guns of its Regiment joined up with it within 2 cm (the closest first, as many as
/// a Battalion takes), with the commander who pays least (none in the first turn). For menus
/// and the computer's candidates.
pub fn offers(game: &Game, side: Side) -> Vec<(Vec<UnitId>, Option<CommanderId>)> {
    if acting_now(game).ok() != Some(side) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for pikes in game
        .units
        .iter()
        .filter(|u| {
            u.side == side && role(game, u.id) == Some(Role::Pikes) && in_good_order(game, u.id)
        })
        .map(|u| u.id)
    {
        let mut group = vec![pikes];
        let (mut shot, mut guns) = (0, 0);
        // Grow the group from what already stands within 2 cm of it, closest first.
        loop {
            let next = game
                .units
                .iter()
                .filter(|u| {
                    u.side == side
                        && !group.contains(&u.id)
                        && in_good_order(game, u.id)
                        // A member of another Battalion stays there (a player may still move it
                        // by naming it; offering it would let two Battalions take it in turn).
                        && (u.battalion.is_none() || u.battalion == game.unit(pikes).battalion)
                        && u.regiment == game.unit(pikes).regiment
                        && match role(game, u.id) {
                            Some(Role::Shot) => shot < MAX_SHOT,
                            Some(Role::Gun) => guns < MAX_GUNS,
                            _ => false,
                        }
                })
                .filter_map(|u| {
                    let d = group
                        .iter()
                        .map(|g| gap(game, *g, u.id))
                        .fold(f32::INFINITY, f32::min);
                    (d <= SPACING_CM + LIMIT_EPS).then_some((u.id, d))
                })
                .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            let Some((u, _)) = next else { break };
            match role(game, u) {
                Some(Role::Shot) => shot += 1,
                _ => guns += 1,
            }
            group.push(u);
        }
        if free_now(game) {
            if check_form(game, &group, None).is_ok() {
                out.push((group, None));
            }
            continue;
        }
        let best = game
            .commanders
            .iter()
            .filter(|c| c.side == side)
            .filter_map(|c| {
                check_form(game, &group, Some(c.id))
                    .ok()
                    .map(|cp| (cp, c.id))
            })
            .min();
        if let Some((_, c)) = best {
            out.push((group, Some(c)));
        }
    }
    out
}
