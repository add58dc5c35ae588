//! The end of a close combat round (BFS-CC-19..31): the Combat Resolution and its modifiers, what
//! the loser does (Morale test, Withdrawal or Flight), what the winner does (hold, or pursue as a
//! charge without Impetus, BFS-CC-30).

use crate::charge;
use crate::dice::Modifier;
use crate::event::{Event, ResolutionReport, ResolutionSide, TestKind};
use crate::flight;
use crate::geo::frame_of;
use crate::ids::{Side, UnitId};
use crate::morale::{self, MoraleCause};
use crate::profile::{SpecialRule, UnitKind};
use crate::state::{ChargeState, Formation, Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_geometry::Edge;

/// Units within this distance of an enemy touch it (cm).
const TOUCH: f32 = 0.05;

/// Combat Resolution, then the losers' Morale tests, flights and withdrawals (BFS-CC-19..25).
pub(crate) fn resolve(
    game: &mut Game,
    combat: &[UnitId],
    round: u8,
    inflicted: [u32; 2],
    flank: [(i32, i32); 2],
    events: &mut Vec<Event>,
) -> Vec<(UnitId, UnitId)> {
    // Wagons have no crew: they neither count nor test (BFS-WAG-1, BFS-WGN-5).
    let live = |g: &Game, s: Side| -> Vec<UnitId> {
        combat
            .iter()
            .copied()
            .filter(|u| g.unit(*u).side == s && g.unit(*u).status == UnitStatus::OnTable)
            .filter(|u| !crate::wagon::crewless(g, *u))
            .collect()
    };
    let mut sides = Vec::new();
    for s in Side::BOTH {
        let units = live(game, s);
        let steady: Vec<UnitId> = units
            .iter()
            .copied()
            .filter(|u| game.unit(*u).morale != MoraleLevel::Flight)
            .collect();
        // A crewed war wagon counts as 2 bases, a crewless one as none (BFS-WAG-13).
        let count = |u: &UnitId| {
            crate::wagon::train::resolution_bases(game, *u)
                .unwrap_or_else(|| game.unit(*u).bases.len())
        };
        let bases: usize = steady.iter().map(count).sum();
        let other_bases: usize = live(game, s.other())
            .iter()
            .filter(|u| game.unit(**u).morale != MoraleLevel::Flight)
            .map(count)
            .sum();
        let mut mods = Vec::new();
        if bases > 0 {
            if other_bases == 0 || bases >= 3 * other_bases {
                mods.push(Modifier::new(
                    "BFS-CC-20",
                    format!(
                        "numerical superiority: {bases} bases against {other_bases} (three times)"
                    ),
                    3,
                ));
            } else if bases >= 2 * other_bases {
                mods.push(Modifier::new(
                    "BFS-CC-20",
                    format!("numerical superiority: {bases} bases against {other_bases} (twice)"),
                    2,
                ));
            } else if bases > other_bases {
                mods.push(Modifier::new(
                    "BFS-CC-20",
                    format!("numerical superiority: {bases} bases against {other_bases}"),
                    1,
                ));
            }
        }
        let (fl, rr) = flank[s.index()];
        if fl > 0 && !steady.is_empty() {
            mods.push(Modifier::new(
                "BFS-CC-20",
                "attacking the enemy's flank",
                fl,
            ));
        }
        if rr > 0 && !steady.is_empty() {
            mods.push(Modifier::new("BFS-CC-20", "attacking the enemy's rear", rr));
        }
        let ptd = units.iter().any(|u| {
            let x = game.unit(*u);
            let p = game.unit_profile(*u);
            // A caracole interrupted by the charge that reached it fights so (BFS-SPC-4).
            crate::caracole::fights_disorganized(game, *u)
                || (x.formation == Formation::OpenOrder
                    && crate::ground::open_order_is_undisciplined(game, *u))
                || p.kind == UnitKind::Artillery
                || p.has(SpecialRule::PoorTacticalDiscipline)
        });
        if ptd {
            mods.push(Modifier::new(
                "BFS-CC-20",
                "Poor Tactical Discipline (Disorganized, Open Order, artillery or the rule)",
                -1,
            ));
        }
        if !steady.is_empty()
            && steady.iter().all(|u| {
                game.unit_profile(*u)
                    .has(SpecialRule::GoodTacticalDiscipline)
                    && game.unit(*u).morale == MoraleLevel::Good
                    && !crate::caracole::disordered(game, *u)
            })
        {
            mods.push(Modifier::new("BFS-SPC-12", "Good Tactical Discipline", 1));
        }
        if !units.is_empty() && units.iter().all(|u| game.unit_profile(*u).light_cavalry()) {
            mods.push(Modifier::new("BFS-SPC-16", "Light Cavalry", -1));
        }
        // Terrain Advantage (BFS-TER-12): the best any steady unit of the side has.
        let enemies: Vec<UnitId> = live(game, s.other());
        if let Some(adv) = steady
            .iter()
            .filter_map(|u| crate::ground::advantage(game, *u, &enemies))
            .max_by_key(|m| m.delta)
        {
            mods.push(adv);
        } else if let Some(m) =
            crate::wagon::train::defends_against_cavalry(game, &steady, &enemies)
        {
            // A train with a Defense order against cavalry; infantry defending behind it
            // replaces this with the obstacle's Advantage above (BFS-WAG-15, BFS-WAG-18).
            mods.push(m);
        }
        let total = inflicted[s.index()] as i32 + mods.iter().map(|m| m.delta).sum::<i32>();
        sides.push(ResolutionSide {
            side: s,
            units,
            sp_inflicted: inflicted[s.index()],
            modifiers: mods,
            total,
        });
    }
    let [a, b] = [sides[0].clone(), sides[1].clone()];
    let only_fleeing = |s: &ResolutionSide| {
        !s.units.is_empty()
            && s.units
                .iter()
                .all(|u| game.unit(*u).morale == MoraleLevel::Flight)
    };
    let mut winner = if a.units.is_empty() && b.units.is_empty() {
        None
    } else if b.units.is_empty() || only_fleeing(&b) && !only_fleeing(&a) {
        Some(Side::A)
    } else if a.units.is_empty() || only_fleeing(&a) && !only_fleeing(&b) {
        Some(Side::B)
    } else if a.total > b.total {
        Some(Side::A)
    } else if b.total > a.total {
        Some(Side::B)
    } else {
        None
    };
    // Staggering Charge: lancers charging this round win a draw (BFS-CCW-8).
    if winner.is_none() && round == 1 {
        for s in Side::BOTH {
            let lancers = sides[s.index()].units.iter().any(|u| {
                game.unit_profile(*u).melee.stats().staggering_charge
                    && game
                        .unit(*u)
                        .charge
                        .as_ref()
                        .is_some_and(|c| c.contact && !c.pursuit)
            });
            if lancers {
                winner = Some(s);
                events.push(Event::Ruling {
                    rule: "BFS-CCW-8".into(),
                    text: "A charge with lances wins a drawn combat (Staggering Charge).".into(),
                });
                break;
            }
        }
    }
    let margin = match winner {
        Some(w) => (sides[w.index()].total - sides[w.other().index()].total).max(0),
        None => 0,
    };
    events.push(Event::CombatResolved(ResolutionReport {
        round,
        sides: [a.clone(), b.clone()],
        winner,
        margin,
    }));
    let mut pursuits = Vec::new();
    // Against a building only one round is fought, and nobody pursues (BFS-TER-30).
    let garrisoned = |s: &ResolutionSide| s.units.iter().any(|u| game.unit(*u).garrison.is_some());
    let building_fight = garrisoned(&a) || garrisoned(&b);
    // Nor does anyone pursue across wagons (BFS-WGN-5).
    let wagon_fight = crate::wagon::assault::is_wagon_fight(game, combat);
    match winner {
        None => {
            // A draw: both sides withdraw (BFS-CC-22).
            for s in [&a, &b] {
                for &u in &s.units {
                    let enemies = flight::enemies_in_contact(game, u);
                    let dir = flight::away_from(game, u, &enemies);
                    if game.unit(u).status == UnitStatus::OnTable {
                        crate::portable::drop_carried(game, u, events);
                        flight::withdraw(
                            game,
                            u,
                            dir,
                            "a drawn combat: both sides withdraw (BFS-CC-22)",
                            events,
                        );
                        after_withdrawal(game, u, &enemies, events);
                    }
                }
            }
        }
        Some(w) => {
            let losers = sides[w.other().index()].units.clone();
            for u in losers {
                let mut enemies = flight::enemies_in_contact(game, u);
                enemies.extend(crate::wagon::assault::attackers_across(game, u));
                lose(game, u, margin, &enemies, events);
                if round == 1 && !building_fight && !wagon_fight {
                    for e in enemies
                        .iter()
                        .filter(|e| sides[w.index()].units.contains(e))
                    {
                        if !pursuits.iter().any(|(p, _)| p == e) {
                            pursuits.push((*e, u));
                        }
                    }
                }
            }
        }
    }
    if building_fight && let Some(w) = winner {
        storming_outcome(game, &sides[w.index()], events);
    }
    if wagon_fight {
        crate::wagon::assault::after_fight(game, combat, winner, events);
    }
    pursuits
}

/// After beating a garrison (BFS-TER-30): while its bases are still inside, the attackers must
/// withdraw though they won; once the building is empty they hold where they are (the book also
/// lets them occupy it at once or withdraw; Sandtable does not offer that choice yet).
fn storming_outcome(game: &mut Game, winners: &ResolutionSide, events: &mut Vec<Event>) {
    if winners
        .units
        .iter()
        .any(|u| game.unit(*u).garrison.is_some())
    {
        return;
    }
    for &u in &winners.units {
        if game.unit(u).status != UnitStatus::OnTable {
            continue;
        }
        let held: Vec<UnitId> = flight::enemies_in_contact(game, u)
            .into_iter()
            .filter(|e| game.unit(*e).garrison.is_some())
            .collect();
        if held.is_empty() {
            events.push(Event::Ruling {
                rule: "BFS-TER-30".into(),
                text: format!(
                    "{} has cleared the building and holds its ground instead of pursuing.",
                    game.unit(u).name
                ),
            });
            continue;
        }
        let dir = flight::away_from(game, u, &held);
        flight::withdraw(
            game,
            u,
            dir,
            "the garrison still holds the building: the attackers withdraw though they won (BFS-TER-30)",
            events,
        );
        after_withdrawal(game, u, &held, events);
    }
}

/// The sides of a unit touched by enemies: front, left, right, rear (BFS-CC-24).
fn sides_in_contact(game: &Game, unit: UnitId, enemies: &[UnitId]) -> Vec<Edge> {
    let frame = frame_of(&game.unit(unit).bases);
    let mut out = Vec::new();
    for e in enemies {
        for eb in &game.unit(*e).bases {
            if sandtable_geometry::distance::distance(&frame, eb).is_ok_and(|d| d <= TOUCH) {
                let edge = crate::geo::side_towards(&frame, eb.center());
                if !out.contains(&edge) {
                    out.push(edge);
                }
            }
        }
    }
    out
}

/// A losing unit: destroyed if surrounded, fleeing if caught on two adjacent sides, otherwise a
/// Morale test at −margin (BFS-CC-22, BFS-CC-24).
fn lose(game: &mut Game, unit: UnitId, margin: i32, enemies: &[UnitId], events: &mut Vec<Event>) {
    if game.unit(unit).status != UnitStatus::OnTable {
        return;
    }
    // A War Wagon Train does not withdraw: its crews test Morale and lose Strength (BFS-WAG-17).
    if crate::wagon::train::is_train(game, unit) {
        let cause = MoraleCause::LostCombat { margin };
        flight::test_and_apply(game, unit, &cause, events);
        return;
    }
    let sides = sides_in_contact(game, unit, enemies);
    let opposite = (sides.contains(&Edge::Front) && sides.contains(&Edge::Rear))
        || (sides.contains(&Edge::Left) && sides.contains(&Edge::Right));
    if opposite || sides.len() >= 3 {
        crate::losses::destroy_unit(
            game,
            unit,
            "BFS-CC-24",
            "it lost while attacked from opposite sides or from three sides".into(),
            events,
        );
        return;
    }
    let dir = flight::away_from(game, unit, enemies);
    if game.unit(unit).morale == MoraleLevel::Flight || sides.len() == 2 {
        let why = if sides.len() == 2 {
            "lost while attacked on two adjacent sides (BFS-CC-24)"
        } else {
            "a fleeing unit on the losing side flees again (BFS-PSY-14)"
        };
        let d = game.unit_profile(unit).movement.basic;
        flight::flee(game, unit, dir, d, why, events);
        return;
    }
    let cause = MoraleCause::LostCombat { margin };
    let roll = morale::morale_test(game, unit, &cause);
    let to = morale::level_after(game, unit, &roll);
    let from = game.unit(unit).morale;
    let outcome = if to == from {
        "passed: it withdraws".to_string()
    } else if to == MoraleLevel::Disorganized {
        "failed: Disorganized, and it withdraws".into()
    } else {
        "failed: it flees".into()
    };
    events.push(morale::report(
        unit,
        TestKind::Morale,
        &cause,
        roll,
        outcome,
    ));
    let from = game.unit(unit).morale;
    crate::turn_one::fatigue_markers_lost(game, unit, from, to, events);
    match to {
        MoraleLevel::Flight => {
            flight::apply_level(
                game,
                unit,
                MoraleLevel::Flight,
                "lost a close combat",
                Some(enemies),
                events,
            );
        }
        MoraleLevel::Disorganized if from == MoraleLevel::Good => {
            // Disorganized, then the compulsory withdrawal (cavalry withdraw as part of it).
            let mounted = game.unit_profile(unit).is_mounted();
            flight::apply_level(
                game,
                unit,
                MoraleLevel::Disorganized,
                "lost a close combat",
                Some(enemies),
                events,
            );
            if !mounted {
                crate::portable::drop_carried(game, unit, events);
                flight::withdraw_after_loss(
                    game,
                    unit,
                    dir,
                    "the loser withdraws (BFS-CC-22)",
                    events,
                );
            }
            after_withdrawal(game, unit, enemies, events);
        }
        _ => {
            crate::portable::drop_carried(game, unit, events);
            flight::withdraw_after_loss(game, unit, dir, "the loser withdraws (BFS-CC-22)", events);
            after_withdrawal(game, unit, enemies, events);
        }
    }
}

/// A unit still within 2 cm of an enemy it was fighting after withdrawing flees (BFS-PSY-19).
fn after_withdrawal(game: &mut Game, unit: UnitId, enemies: &[UnitId], events: &mut Vec<Event>) {
    if game.unit(unit).status != UnitStatus::OnTable
        || game.unit(unit).morale == MoraleLevel::Flight
    {
        return;
    }
    let close = enemies.iter().any(|e| {
        game.unit(*e).status == UnitStatus::OnTable
            && sandtable_geometry::distance::set_distance(
                &game.unit(unit).bases,
                &game.unit(*e).bases,
            )
            .is_ok_and(|d| d < 2.0 - 1e-3)
    });
    if close {
        let dir = flight::away_from(game, unit, enemies);
        let d = game.unit_profile(unit).movement.basic;
        flight::flee(
            game,
            unit,
            dir,
            d,
            "could not withdraw clear of the enemy (BFS-PSY-19)",
            events,
        );
    }
}

/// How far a No Quarter unit with no Additional Move pursues (BFS-SPC-20: the book says it of
/// infantry; a mounted unit without one is treated alike).
pub const NO_QUARTER_PURSUIT_CM: f32 = 5.0;

/// Step 7: the winner pursues the loser at its Additional Move as a charge without Impetus
/// (BFS-CC-28..30). Returns true if it made contact (a second round follows).
pub(crate) fn pursue(
    game: &mut Game,
    winner: UnitId,
    loser: UnitId,
    events: &mut Vec<Event>,
) -> bool {
    let w = game.unit(winner);
    if w.status != UnitStatus::OnTable || w.morale != MoraleLevel::Good {
        return false;
    }
    let p = game.unit_profile(winner);
    let lp = game.unit_profile(loser);
    // No Quarter: the unit must pursue, with 5 cm when it has no Additional Move (BFS-SPC-20).
    let no_quarter = crate::revision::special_rules_6(game.info.options.rules_revision)
        && p.has(SpecialRule::NoQuarter);
    let refuse = if p.movement.additional <= 0.0 && !no_quarter {
        Some("it has no Additional Move, so it cannot pursue (BFS-CC-29)")
    } else if p.has(SpecialRule::CannotCharge) {
        Some("it has the Cannot Charge rule (BFS-CC-29)")
    } else if p.kind == UnitKind::Infantry && lp.is_mounted() && !no_quarter {
        Some("infantry may refuse to pursue cavalry, and does (BFS-CC-29)")
    } else if game.unit(loser).status != UnitStatus::OnTable {
        Some("its enemy is gone")
    } else {
        None
    };
    // A commander who set 1 CP aside stops it now, unless it is No Quarter (BFS-CC-29).
    let held = if refuse.is_none() && !no_quarter {
        crate::hold_pursuit::spend(game, winner)
    } else {
        None
    };
    let refuse = refuse.map(String::from).or(held);
    if let Some(why) = refuse {
        // After refusing to pursue it is left with no order unless Defense (BFS-CC-31).
        let u = game.unit_mut(winner);
        if u.order != Some(OrderKind::Defense) {
            u.order = None;
        }
        u.charge = None;
        events.push(Event::Ruling {
            rule: "BFS-CC-29".into(),
            text: format!("{} does not pursue: {why}", game.unit(winner).name),
        });
        return false;
    }
    let additional = game.unit_profile(winner).movement.additional;
    let add = if additional > 0.0 {
        additional
    } else {
        NO_QUARTER_PURSUIT_CM
    };
    {
        let u = game.unit_mut(winner);
        u.order = Some(OrderKind::Charge);
        u.charge = Some(ChargeState {
            target: loser,
            countercharge: false,
            start_distance: 0.0,
            straight_run: 0.0,
            contact: false,
            struck: None,
            carried_over: false,
            pursuit: true,
            through_field: false,
        });
    }
    let contact = charge::charge_part(game, winner, add, charge::ChargePart::Pursuit, events);
    let target = game
        .unit(winner)
        .charge
        .as_ref()
        .map_or(loser, |c| c.target);
    let distance = match events.last() {
        Some(Event::ChargeMoved { distance_cm, .. }) => *distance_cm,
        _ => 0.0,
    };
    events.push(Event::Pursued {
        unit: winner,
        target,
        distance_cm: distance,
        contact,
    });
    if !contact {
        let u = game.unit_mut(winner);
        u.charge = None;
    }
    contact
}
