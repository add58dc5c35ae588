//! Charging wagons (BFS-WAG-6, BFS-WAG-7, BFS-WAG-8, BFS-WGN-4, BFS-WGN-5).
//!
//! Wagons have no crew: they do not fight back. A combat in which one side has nothing but
//! wagons ends at once: the wagons lose, the winner takes them over (or destroys those still
//! touching an enemy unit, which cannot be taken), and the chargers lose their Charge order, do
//! not pursue, fight no Second Round, and withdraw from the wagons they touched ([`overrun`]).
//!
//! Infantry with a Defense order touching the charged wagons fights from behind them: it joins
//! the combat ([`defenders_of`]), and the bases touching the same wagon fight each other across
//! it ([`attack_across`]), the infantry defending an obstacle (Advantage and the to-hit penalty
//! of BFS-TER-11/12, no Impetus for cavalry, Armor 4) and attacked in the flank when the wagon
//! touches its flank. If the attacker wins, the infantry withdraws or flees as usual and the
//! wagons are taken or destroyed ([`after_fight`]); either way nobody pursues.
//!
//! The winner chooses to destroy wagons it could take: Sandtable asks for that choice in the
//! charging side's Movement Phase ([`burn`], "Burn the wagons it beats"), since the combat is
//! resolved in one go; without it, the winner takes every wagon it may and destroys only those
//! that must be.

use crate::event::Event;
use crate::flight;
use crate::geo::frame_of;
use crate::ids::{Side, UnitId};
use crate::state::{Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_geometry::Edge;
use sandtable_geometry::contact;

use super::cover::{defends_wagons, touching};

/// Whom a wagon was taken from, and the bases it had lost before: those stay its first owner's
/// losses (BFS-WAG-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Taken {
    pub from: Side,
    pub lost_before: u8,
}

/// Infantry defending `wagon` (a wagon unit of any kind) from behind: units of its side with a
/// Defense order touching it (BFS-WGN-5) — for a train, touching a wagon an enemy touches, since
/// only the bases at the same wagon fight (BFS-WAG-18). Before any enemy touches the train,
/// every defender touching it counts.
pub fn defenders_of(game: &Game, wagon: UnitId) -> Vec<UnitId> {
    if !super::any_wagon(game, wagon) || game.unit(wagon).status != UnitStatus::OnTable {
        return Vec::new();
    }
    let side = game.unit(wagon).side;
    let bases = &game.unit(wagon).bases;
    // Along an edge: a corner meeting is no contact with the wagon (BFS-WGN-5).
    let near = |a: &[sandtable_geometry::Rect], b: &sandtable_geometry::Rect| {
        super::cover::edge_touching(a, std::slice::from_ref(b))
    };
    let near_any = |a: &[sandtable_geometry::Rect]| super::cover::edge_touching(a, bases);
    let contested: Vec<&sandtable_geometry::Rect> = bases
        .iter()
        .filter(|b| game.units_on_table(side.other()).any(|e| near(&e.bases, b)))
        .collect();
    game.units_on_table(side)
        .filter(|u| u.id != wagon && !super::is_wagon(game, u.id))
        .filter(|u| defends_wagons(game, u.id) && near_any(&u.bases))
        .filter(|u| contested.is_empty() || contested.iter().any(|b| near(&u.bases, b)))
        .map(|u| u.id)
        .collect()
}

/// Does this combat hold wagons? Then only one round is fought and nobody pursues.
pub fn is_wagon_fight(game: &Game, combat: &[UnitId]) -> bool {
    combat.iter().any(|u| super::any_wagon(game, *u))
}

/// The wagon (of any kind) of `defender`'s side that both `attacker` and `defender` touch: the one
/// they fight across (BFS-WGN-5).
pub fn across(game: &Game, attacker: UnitId, defender: UnitId) -> Option<UnitId> {
    if !super::rules_apply(game) || game.unit(attacker).side == game.unit(defender).side {
        return None;
    }
    super::cover::wagons_touched(game, defender)
        .into_iter()
        .find(|w| touching(game, attacker, *w))
}

/// Enemies a wagon's defender fights across its wagons: units of the other side touching a wagon
/// it touches.
pub fn attackers_across(game: &Game, defender: UnitId) -> Vec<UnitId> {
    if !super::rules_apply(game) || !defends_wagons(game, defender) {
        return Vec::new();
    }
    let side = game.unit(defender).side;
    let mut out: Vec<UnitId> = super::cover::wagons_touched(game, defender)
        .into_iter()
        .flat_map(|w| flight::enemies_in_contact(game, w))
        .filter(|e| game.unit(*e).side != side)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// One base's blow across a wagon: the enemy it strikes, whether the wagon is at this base's
/// front, and whether it is on its flank or rear (BFS-WGN-5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AcrossBlow {
    pub target: UnitId,
    pub at_front: bool,
    pub from_flank_or_rear: bool,
}

/// Where the wagon touches base `b` along an edge: at its front, or else on its flank or rear.
/// A base that meets the wagon only corner to corner is not "in contact with the same wagon"
/// (BFS-WGN-5): it touches a point, not the wagon.
fn wagon_at_front(
    b: &sandtable_geometry::Rect,
    wagon: &[sandtable_geometry::Rect],
) -> Option<bool> {
    let mut touched = false;
    for wb in wagon {
        let Ok(c) = contact::contact(b, wb) else {
            continue;
        };
        if c.kind != contact::ContactKind::Edge {
            continue;
        }
        touched = true;
        if c.length_on_a(Edge::Front) > 0.01 {
            return Some(true);
        }
    }
    touched.then_some(false)
}

/// The blow base `base` of `unit` strikes across a wagon, if any (BFS-WGN-5): an attacker's base
/// touching a defended wagon strikes a defender touching the same wagon; a defender's base
/// touching a wagon strikes an attacker touching it. `enemies` are the combat's enemies of
/// `unit`. A base touching only wagons with no defender strikes nothing: wagons do not fight.
pub fn attack_across(
    game: &Game,
    unit: UnitId,
    base: usize,
    enemies: &[UnitId],
) -> Option<AcrossBlow> {
    if !super::rules_apply(game) {
        return None;
    }
    let b = game.unit(unit).bases.get(base)?;
    let side = game.unit(unit).side;
    // Each wagon base: a transport wagon's, or each of a train's.
    let wagons: Vec<(UnitId, usize)> = game
        .units
        .iter()
        .filter(|w| w.status == UnitStatus::OnTable && super::any_wagon(game, w.id))
        .flat_map(|w| (0..w.bases.len()).map(move |i| (w.id, i)))
        .collect();
    for (w, i) in wagons {
        let wagon_base = std::slice::from_ref(&game.unit(w).bases[i]);
        let Some(at_front) = wagon_at_front(b, wagon_base) else {
            continue;
        };
        let touches_this_wagon =
            |e: UnitId| super::cover::edge_touching(&game.unit(e).bases, wagon_base);
        let target = if game.unit(w).side == side {
            // A defender's base strikes an enemy touching the same wagon.
            if !defends_wagons(game, unit) {
                continue;
            }
            enemies
                .iter()
                .copied()
                .find(|e| touches_this_wagon(*e) && !super::is_wagon(game, *e))
        } else if super::train::wagon_crewed(game, w, i) {
            // A crewed war wagon fights for itself: the blow is at its crew (BFS-WAG-15).
            return None;
        } else {
            // An attacker's base strikes a defender of the wagon it touches.
            enemies
                .iter()
                .copied()
                .find(|d| touches_this_wagon(*d) && defenders_of(game, w).contains(d))
        };
        if let Some(target) = target {
            return Some(AcrossBlow {
                target,
                at_front,
                from_flank_or_rear: !at_front,
            });
        }
    }
    None
}

/// Flank (+1 each, at most +2) and rear (+2) bonuses of attackers reaching a wagon's defenders
/// across wagons on their flank or rear (BFS-WGN-5: the flank modifiers apply).
pub fn add_flanks(game: &Game, combat: &[UnitId], bonus: &mut [(i32, i32); 2]) {
    if !super::rules_apply(game) {
        return;
    }
    for &d in combat {
        if !defends_wagons(game, d) {
            continue;
        }
        let attackers = attackers_across(game, d);
        let Some(&first) = attackers.first() else {
            continue;
        };
        let s = game.unit(first).side.index();
        let frame = frame_of(&game.unit(d).bases);
        let mut flanks = Vec::new();
        for w in super::cover::wagons_touched(game, d) {
            if !attackers.iter().any(|a| touching(game, *a, w)) {
                continue;
            }
            let edge = crate::geo::side_towards(&frame, frame_of(&game.unit(w).bases).center());
            match edge {
                Edge::Left | Edge::Right if !flanks.contains(&edge) => {
                    flanks.push(edge);
                    bonus[s].0 = (bonus[s].0 + 1).min(2);
                }
                Edge::Rear => bonus[s].1 = 2,
                _ => {}
            }
        }
    }
}

/// Is the blow of `attacker` at `target` one that meets wagons: a wagon itself or its defender
/// across it? Cavalry then loses its Impetus (BFS-WAG-6).
pub fn stops_impetus(game: &Game, attacker: UnitId, target: UnitId) -> bool {
    super::any_wagon(game, target) || across(game, attacker, target).is_some()
}

/// A combat in which one side has nothing but wagons (no defender behind them): the wagons lose
/// at once, and are taken or destroyed (BFS-WAG-6, BFS-WGN-4). Returns whether it was one.
pub fn overrun(game: &mut Game, combat: &[UnitId], events: &mut Vec<Event>) -> bool {
    if !super::rules_apply(game) {
        return false;
    }
    let steady = |g: &Game, s: Side| -> Vec<UnitId> {
        combat
            .iter()
            .copied()
            .filter(|u| g.unit(*u).side == s && g.unit(*u).status == UnitStatus::OnTable)
            .filter(|u| g.unit(*u).morale != MoraleLevel::Flight)
            .collect()
    };
    for s in Side::BOTH {
        let mine = steady(game, s);
        let theirs = steady(game, s.other());
        if mine.is_empty()
            || theirs.is_empty()
            || !mine.iter().all(|u| super::crewless(game, *u))
            || theirs.iter().all(|u| super::crewless(game, *u))
        {
            continue;
        }
        let text = if mine.len() == 1 {
            format!(
                "{} has no crew and nobody defends it: it does not fight back and loses at once.",
                names(game, &mine)
            )
        } else {
            format!(
                "{} have no crew and nobody defends them: they do not fight back and lose at once.",
                names(game, &mine)
            )
        };
        events.push(Event::Ruling {
            rule: "BFS-WAG-6".into(),
            text,
        });
        spoils(game, &mine, &theirs, events);
        for u in combat {
            game.unit_mut(*u).flags.fought = true;
        }
        return true;
    }
    false
}

/// After a round fought across wagons (BFS-WGN-5): nobody pursues; if the attackers won, the
/// wagons are taken or destroyed and the attackers leave them.
pub fn after_fight(
    game: &mut Game,
    combat: &[UnitId],
    winner: Option<Side>,
    events: &mut Vec<Event>,
) {
    let Some(w) = winner else {
        return;
    };
    // A beaten War Wagon Train with crews left: its unmanned wagons touching the enemy are
    // destroyed, and the attackers touching it leave (BFS-WAG-20 C and D).
    let trains: Vec<UnitId> = combat
        .iter()
        .copied()
        .filter(|u| {
            super::train::is_train(game, *u)
                && !super::crewless(game, *u)
                && game.unit(*u).side != w
                && game.unit(*u).status == UnitStatus::OnTable
        })
        .collect();
    if !trains.is_empty() {
        let attackers: Vec<UnitId> = combat
            .iter()
            .copied()
            .filter(|u| game.unit(*u).side == w && game.unit(*u).status == UnitStatus::OnTable)
            .collect();
        // Who touches the train, and the way back from it, before any wagon goes.
        let touched = touch_list(game, &trains, &attackers);
        for t in &trains {
            super::train::strip_unmanned(game, *t, &attackers, events);
        }
        leave(game, touched, "BFS-WAG-20", events);
    }
    let wagons: Vec<UnitId> = combat
        .iter()
        .copied()
        .filter(|u| {
            super::crewless(game, *u)
                && game.unit(*u).side != w
                && game.unit(*u).status == UnitStatus::OnTable
        })
        .collect();
    if wagons.is_empty() {
        return;
    }
    let attackers: Vec<UnitId> = combat
        .iter()
        .copied()
        .filter(|u| game.unit(*u).side == w && game.unit(*u).status == UnitStatus::OnTable)
        .filter(|u| !super::crewless(game, *u))
        .collect();
    spoils(game, &wagons, &attackers, events);
}

/// The winners deal with the wagons they beat: each is taken over unless it still touches an
/// enemy unit, when it must be destroyed (BFS-WGN-5, BFS-WAG-7, BFS-WAG-8); then the attackers
/// lose their Charge order, and those that touched the wagons withdraw (BFS-WGN-4).
fn spoils(game: &mut Game, wagons: &[UnitId], attackers: &[UnitId], events: &mut Vec<Event>) {
    let Some(&first) = attackers.first() else {
        return;
    };
    let winner = game.unit(first).side;
    // Who touched which wagon, and the way back from it, before any is taken or destroyed.
    let touched = touch_list(game, wagons, attackers);
    for &w in wagons {
        if game.unit(w).status != UnitStatus::OnTable {
            continue;
        }
        // A connected train's wagons abandoned by their crews are taken apart one by one: a
        // Skill test for each attacking base in contact (BFS-WAG-14).
        if game.unit(w).train.as_ref().is_some_and(|t| t.connected) {
            super::train::strip_unmanned(game, w, attackers, events);
            continue;
        }
        let held_by_enemy = game
            .units_on_table(winner.other())
            .filter(|e| e.id != w && !wagons.contains(&e.id))
            .any(|e| touching(game, e.id, w));
        let burnt = attackers
            .iter()
            .any(|a| game.unit(*a).flags.burn_wagons && touching(game, *a, w));
        if burnt {
            crate::losses::destroy_unit(
                game,
                w,
                "BFS-WAG-6",
                "its captors chose to destroy it rather than take it".into(),
                events,
            );
        } else if held_by_enemy {
            crate::losses::destroy_unit(
                game,
                w,
                "BFS-WGN-5",
                "beaten in close combat while still touching its own side's troops, it cannot be taken and is destroyed".into(),
                events,
            );
        } else {
            take_over(game, w, winner, events);
        }
    }
    leave(game, touched, "BFS-WGN-4", events);
}

/// Each attacker, with the way away from the wagons it touches if it touches any: worked out
/// before any wagon is taken or destroyed.
fn touch_list(
    game: &Game,
    wagons: &[UnitId],
    attackers: &[UnitId],
) -> Vec<(UnitId, Option<sandtable_geometry::Vec2>)> {
    attackers
        .iter()
        .map(|a| {
            let ws: Vec<UnitId> = wagons
                .iter()
                .copied()
                .filter(|w| touching(game, *a, *w))
                .collect();
            (
                *a,
                (!ws.is_empty()).then(|| flight::away_from(game, *a, &ws)),
            )
        })
        .collect()
}

/// Each attacker loses its Charge order; those that touched the wagons withdraw from them
/// (BFS-WGN-4 for wagons, BFS-WAG-20 D for a train: `rule`).
fn leave(
    game: &mut Game,
    touched: Vec<(UnitId, Option<sandtable_geometry::Vec2>)>,
    rule: &str,
    events: &mut Vec<Event>,
) {
    for (a, away) in touched {
        if game.unit(a).status != UnitStatus::OnTable {
            continue;
        }
        let u = game.unit_mut(a);
        if u.order == Some(OrderKind::Charge) {
            u.order = None;
            events.push(Event::OrderChanged {
                unit: a,
                from: Some(OrderKind::Charge),
                to: None,
                rule: rule.into(),
                reason: "after fighting wagons the attacker loses its Charge order: no pursuit, no second charge".into(),
            });
        }
        let u = game.unit_mut(a);
        u.charge = None;
        u.flags.fought = true;
        let Some(dir) = away else {
            continue;
        };
        if u.morale == MoraleLevel::Flight {
            continue;
        }
        flight::withdraw(
            game,
            a,
            dir,
            &format!("units in contact with the wagons they beat must withdraw ({rule})"),
            events,
        );
    }
}

/// The winner takes the wagon over: it changes sides, with no order this turn; from the next
/// turn the new owner orders it as its own (BFS-WAG-8). It answers to no regiment, so any
/// commander of its new side who may order units outside his regiment may order it.
fn take_over(game: &mut Game, wagon: UnitId, by: Side, events: &mut Vec<Event>) {
    let u = game.unit_mut(wagon);
    u.taken_from.get_or_insert(Taken {
        from: u.side,
        lost_before: u.bases_destroyed,
    });
    u.side = by;
    u.regiment = None;
    u.order = None;
    u.pending_order = None;
    u.charge = None;
    u.attached = None;
    u.flags.activated = true;
    u.flags.fought = true;
    events.push(Event::WagonTaken { wagon, side: by });
}

fn names(game: &Game, units: &[UnitId]) -> String {
    units
        .iter()
        .map(|u| game.unit(*u).name.clone())
        .collect::<Vec<_>>()
        .join(", ")
}

/// May the owner choose now that `unit` destroys the wagons it beats this turn: his unit on
/// the table in his Movement Phase, with a Charge order (or charging), the enemy having wagons
/// on the table (BFS-WAG-6)?
pub fn check_burn(game: &Game, unit: UnitId) -> Result<(), sandtable_engine::RuleError> {
    let refuse = |why: String| Err(sandtable_engine::RuleError::new("BFS-WAG-6", why));
    if !super::rules_apply(game) {
        return refuse("This battle was recorded before wagons were played.".into());
    }
    let side = crate::phases::movement::acting(game)?;
    let u = game.unit(unit);
    if u.side != side || u.status != UnitStatus::OnTable {
        return refuse(format!("{} is not one of the moving side's units.", u.name));
    }
    if u.order != Some(OrderKind::Charge) && u.charge.is_none() {
        return refuse(format!("{} is not charging this turn.", u.name));
    }
    if u.flags.burn_wagons {
        return refuse(format!(
            "{} will already destroy the wagons it beats.",
            u.name
        ));
    }
    if !game
        .units_on_table(side.other())
        .any(|w| super::any_wagon(game, w.id))
    {
        return refuse("The enemy has no wagons on the table.".into());
    }
    Ok(())
}

/// The owner's choice: `unit` destroys the wagons it beats this turn (BFS-WAG-6).
pub fn burn(
    game: &mut Game,
    unit: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), sandtable_engine::RuleError> {
    check_burn(game, unit)?;
    game.unit_mut(unit).flags.burn_wagons = true;
    events.push(Event::Ruling {
        rule: "BFS-WAG-6".into(),
        text: format!(
            "{} will destroy the wagons it beats this turn instead of taking them over.",
            game.unit(unit).name
        ),
    });
    Ok(())
}
