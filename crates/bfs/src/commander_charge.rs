//! A charge on a lone commander (BFS-CDR-7, BFS-CDR-8).
//!
//! A unit with a Charge order may charge a lone enemy commander who is the closest target in its
//! field of vision and no more than 30 cm away; units it could not reach with its Basic Move may be
//! passed over, but no nearer unit it could reach (BFS-CDR-7). He answers (BFS-CDR-8): he stands,
//! Breaks Off as Light Cavalry does (his full Move away from the charger, half if he has moved
//! this turn; he sees all round, so he faces the charger again at once, AMB-95), or joins a
//! friendly unit he can reach, which takes him out of the charger's sight so that it may choose
//! another target (it keeps its Charge order if it sees an enemy, else it gets a Move order).
//! Then the charger charges him with its Basic Move. If it touches him, its bases in contact
//! strike him in close combat: their close-combat dice at its Skill, his Armor against each hit,
//! and an unsaved hit makes him test Skill to escape or fall (BFS-CDR-9, BFS-CDR-10). If its
//! charge touches a unit instead, that unit is its target as in any charge (BFS-CHG-16).
//!
//! Not played: the charge on a commander goes no further than the Basic Move (no Additional Move
//! in the Combat Phase), and the Break Off runs straight away from the charger's middle rather
//! than anywhere in the corridor of AMB-40.

use crate::charge;
use crate::charge_reach;
use crate::command::CommanderReaction;
use crate::dice::{Modifier, PoolSpec};
use crate::event::{ArmorReport, CommanderStrike, Event, MeleeGroup};
use crate::geo::{self, frame_of, sid};
use crate::ids::{CommanderId, Side, UnitId};
use crate::state::{ChargeState, Game, OrderKind, UnitStatus};
use crate::turn::{PendingCharge, Phase};
use sandtable_engine::RuleError;
use sandtable_geometry::charge as gcharge;
use sandtable_geometry::movement::{self, Body, MoveCost};
use sandtable_geometry::{Rect, Vec2};

/// How far a lone commander may be and still be declared a target (BFS-CDR-7).
pub use crate::shooting::COMMANDER_TARGET_RANGE_CM;

fn refuse(rule: &'static str, why: String) -> Result<(), RuleError> {
    Err(RuleError::new(rule, why))
}

/// The scene with the commander's base in it, and the charge at him with `budget`.
fn simulate(
    game: &Game,
    charger: UnitId,
    c: CommanderId,
    budget: f32,
) -> Option<gcharge::ChargeOutcome> {
    let scene = geo::scene_with_commanders(game, &[c]);
    let u = game.unit(charger);
    let body = Body::new(frame_of(&u.bases), &u.bases);
    gcharge::simulate_charge(
        &scene,
        &body,
        sid(charger),
        geo::commander_sid(c),
        &game.commander(c).base,
        None,
        budget,
        &charge_reach::params(game),
        &charge_reach::charge_obstacles(game, charger),
    )
    .ok()
}

/// May `charger` charge the lone commander `c` now (BFS-CDR-7)? The unit-side checks of any
/// charge (order, good order, not yet charged) come first.
pub fn check_declare(game: &Game, charger: UnitId, c: CommanderId) -> Result<(), RuleError> {
    if !crate::revision::commander_charges(game.info.options.rules_revision) {
        return refuse(
            "BFS-CDR-7",
            "This battle was recorded before charges on commanders were played (rules revision 5)."
                .into(),
        );
    }
    crate::charge::check_charger(game, charger)?;
    let u = game.unit(charger);
    let cm = game.commander(c);
    if cm.side == u.side || cm.status != UnitStatus::OnTable || cm.attached_to.is_some() {
        return refuse(
            "BFS-CDR-7",
            format!(
                "{} is not a lone enemy commander on the table: a commander with a unit is charged with it.",
                cm.name
            ),
        );
    }
    let d = sandtable_geometry::distance::set_distance(&u.bases, std::slice::from_ref(&cm.base))
        .unwrap_or(f32::INFINITY);
    if d > COMMANDER_TARGET_RANGE_CM + sandtable_geometry::tolerance::LIMIT_EPS {
        return refuse(
            "BFS-CDR-7",
            format!(
                "{} is {d:.1} cm away: a commander farther than 30 cm cannot be made out as a target.",
                cm.name
            ),
        );
    }
    let scene = geo::scene_with_commanders(game, &[c]);
    if !crate::sight::sees_commander(game, &scene, charger, c) {
        return refuse("BFS-CDR-7", format!("{} cannot see {}.", u.name, cm.name));
    }
    // The closest target: every visible enemy unit nearer must be one it could not reach.
    let plain = geo::scene(game);
    let options = charge::target_options(game, &plain, charger);
    if let Some((nearer, _)) = options.visible.iter().find(|(t, dt)| {
        *dt < d - sandtable_geometry::tolerance::LIMIT_EPS
            && charge::skippable(game, &plain, charger, *t).is_none()
    }) {
        return refuse(
            "BFS-CDR-7",
            format!(
                "{} is nearer than {}: a commander may be charged only as the closest target.",
                game.unit(*nearer).name,
                cm.name
            ),
        );
    }
    let basic = game.unit_profile(charger).movement.basic;
    match simulate(game, charger, c, basic).and_then(|o| o.contact) {
        Some(hit) if hit.unit == geo::commander_sid(c) => Ok(()),
        Some(hit) => refuse(
            "BFS-CDR-7",
            format!(
                "The way to {} runs into {} first.",
                cm.name,
                game.units
                    .get(hit.unit as usize)
                    .map_or("another unit", |x| x.name.as_str())
            ),
        ),
        None => refuse(
            "BFS-CDR-7",
            format!(
                "{} cannot reach {} with its Basic Move of {basic} cm: a charge on a commander is played only within it.",
                u.name, cm.name
            ),
        ),
    }
}

/// Declares the charge: the commander's side answers next.
pub fn declare(
    game: &mut Game,
    charger: UnitId,
    c: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_declare(game, charger, c)?;
    {
        let u = game.unit_mut(charger);
        u.flags.activated = true;
        u.flags.charged = true;
    }
    events.push(Event::Ruling {
        rule: "BFS-CDR-7".into(),
        text: format!(
            "{} charges {}, the closest target it sees within 30 cm; he may stand, Break Off or join a unit (BFS-CDR-8).",
            game.unit(charger).name,
            game.commander(c).name
        ),
    });
    if let Phase::Movement { charge, .. } = &mut game.turn.phase {
        *charge = Some(PendingCharge {
            charger,
            target: charger,
            reactors: Vec::new(),
            reactions: Vec::new(),
            commander: Some(c),
        });
    }
    Ok(())
}

/// The pending charge on this commander, or why he cannot answer.
fn pending_on(game: &Game, c: CommanderId) -> Result<UnitId, RuleError> {
    match &game.turn.phase {
        Phase::Movement {
            charge: Some(p), ..
        } if p.commander == Some(c) => Ok(p.charger),
        _ => Err(RuleError::new(
            "BFS-CDR-8",
            format!(
                "No charge on {} is waiting for his answer.",
                game.commander(c).name
            ),
        )),
    }
}

pub fn check_react(
    game: &Game,
    c: CommanderId,
    reaction: CommanderReaction,
) -> Result<(), RuleError> {
    pending_on(game, c)?;
    match reaction {
        CommanderReaction::Join(unit) => {
            crate::attachment::check_join_for(game, c, unit, game.commander(c).side)?;
        }
        CommanderReaction::Stand => crate::coward::check_may_stand(game, c)?,
        CommanderReaction::BreakOff => {}
    }
    Ok(())
}

/// His answer, then the charge.
pub fn react(
    game: &mut Game,
    c: CommanderId,
    reaction: CommanderReaction,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_react(game, c, reaction)?;
    let charger = pending_on(game, c)?;
    if let Phase::Movement { charge, .. } = &mut game.turn.phase {
        *charge = None;
    }
    match reaction {
        CommanderReaction::Stand => {
            events.push(Event::Ruling {
                rule: "BFS-CDR-8".into(),
                text: format!("{} stands his ground.", game.commander(c).name),
            });
            charge_him(game, charger, c, events);
        }
        CommanderReaction::BreakOff => {
            break_off(game, charger, c, events);
            charge_him(game, charger, c, events);
        }
        CommanderReaction::Join(unit) => {
            crate::attachment::join_unchecked(game, c, unit, events);
            // Out of the charger's sight: it may choose again (BFS-CHG-10 as CDR-8 says).
            let scene = geo::scene(game);
            let sees_enemy = !crate::sight::visible_enemies(game, &scene, charger).is_empty();
            let u = game.unit_mut(charger);
            u.flags.activated = false;
            u.flags.charged = false;
            if !sees_enemy {
                u.order = Some(OrderKind::Move);
                events.push(Event::OrderChanged {
                    unit: charger,
                    from: Some(OrderKind::Charge),
                    to: Some(OrderKind::Move),
                    rule: "BFS-CDR-8".into(),
                    reason: "its target joined a unit and it sees no other enemy".into(),
                });
            } else {
                events.push(Event::Ruling {
                    rule: "BFS-CDR-8".into(),
                    text: format!(
                        "{} left {}'s sight by joining a unit: it may choose another target.",
                        game.commander(c).name,
                        game.unit(charger).name
                    ),
                });
            }
        }
    }
    Ok(())
}

/// The Break Off (BFS-CDR-8 as BFS-SPC-16, AMB-95): straight away from the charger's middle, his
/// full Move or half of it if he has moved, through friends, 2 cm clear of enemies, never into
/// impassable ground nor off the table; then he faces the charger.
fn break_off(game: &mut Game, charger: UnitId, c: CommanderId, events: &mut Vec<Event>) {
    let cm = game.commander(c).clone();
    let p = game.profile(cm.profile);
    let mut reach = p.movement.basic;
    if cm.moved {
        reach *= 0.5;
    }
    let from = frame_of(&game.unit(charger).bases).center();
    let away = (cm.base.center() - from).normalize_or_zero();
    if away == Vec2::ZERO {
        return;
    }
    // His base turned to run away: `move_straight` moves along a body's facing.
    let angle = (-away.x).atan2(away.y);
    let running = Rect::new(
        sandtable_geometry::Pose::new(cm.base.center(), angle),
        cm.base.half,
    );
    // Not off the table: the farthest run that keeps every corner on it.
    let t = game.info.table;
    let mut limit = reach;
    for k in running.corners() {
        for (pos, v, size) in [(k.x, away.x, t.x), (k.y, away.y, t.y)] {
            if v > 1e-6 {
                limit = limit.min((size - pos) / v);
            } else if v < -1e-6 {
                limit = limit.min(-pos / v);
            }
        }
    }
    let run = {
        let scene = geo::scene(game);
        let obs = crate::moves::commander_obstacles(game, cm.side.0, p);
        let one = [running];
        movement::move_straight(
            &scene,
            &Body::new(running, &one),
            limit.max(0.0),
            &obs,
            MoveCost::default(),
        )
        .map(|m| m.travelled)
        .unwrap_or(0.0)
    };
    let to = cm.base.center() + away * run;
    // He faces the charger again at once (he sees all round, AMB-95).
    let face = away.x.atan2(-away.y);
    let cmut = game.commander_mut(c);
    cmut.base = Rect::new(sandtable_geometry::Pose::new(to, face), cm.base.half);
    cmut.moved = true;
    events.push(Event::CommanderMoved {
        commander: c,
        to,
        joined: None,
    });
    events.push(Event::Ruling {
        rule: "BFS-CDR-8".into(),
        text: format!(
            "{} Breaks Off {run:.1} cm away from {} ({} Move{}).",
            cm.name,
            game.unit(charger).name,
            if cm.moved { "half his" } else { "his full" },
            if run + 1e-3 < reach {
                ", cut short by the table edge or what stands in his way"
            } else {
                ""
            }
        ),
    });
}

/// The charge with the Basic Move, and the strike if it touches him.
fn charge_him(game: &mut Game, charger: UnitId, c: CommanderId, events: &mut Vec<Event>) {
    let basic = game.unit_profile(charger).movement.basic;
    let Some(out) = simulate(game, charger, c, basic) else {
        return;
    };
    let moved: Vec<Rect> = game
        .unit(charger)
        .bases
        .iter()
        .map(|b| out.apply(b))
        .collect();
    let touched_unit = out
        .contact
        .filter(|h| h.unit != geo::commander_sid(c))
        .map(|h| UnitId(h.unit as u16));
    let reached = out.contact.is_some_and(|h| h.unit == geo::commander_sid(c));
    game.unit_mut(charger).bases = moved;
    events.push(Event::ChargeMoved {
        unit: charger,
        distance_cm: out.cost,
        contact: touched_unit,
        description: format!(
            "charging {}{}",
            game.commander(c).name,
            if reached { ", into contact" } else { "" }
        ),
    });
    if let Some(t) = touched_unit {
        // It ran into a unit on the way: that unit is its target (BFS-CHG-16).
        let u = game.unit_mut(charger);
        u.charge = Some(ChargeState {
            target: t,
            countercharge: false,
            start_distance: 0.0,
            straight_run: 0.0,
            contact: true,
            struck: Some(out.edge),
            carried_over: false,
            pursuit: false,
            through_field: false,
        });
        return;
    }
    if reached {
        strike(game, charger, c, events);
    }
    // Whoever is left standing at the charger's front makes way (BFS-CDR-5).
    crate::attachment::make_way(game, events);
}

/// The charger's bases touching him strike (BFS-CDR-7: he counts as a one-base unit): their
/// close-combat dice at its Skill, his Armor against each hit; an unsaved hit makes him test
/// Skill (BFS-CDR-9, BFS-CDR-10).
fn strike(game: &mut Game, charger: UnitId, c: CommanderId, events: &mut Vec<Event>) {
    let base = game.commander(c).base;
    let u = game.unit(charger).clone();
    let p = game.unit_profile(charger).clone();
    let touching = u
        .bases
        .iter()
        .filter(|b| {
            sandtable_geometry::distance::distance(b, &base)
                .is_ok_and(|d| d <= sandtable_geometry::tolerance::CONTACT_EPS)
        })
        .count()
        .max(1);
    let mut spec = PoolSpec::new(touching, p.close_combat as u32, p.skill as i32);
    spec.below_one = game.info.options.below_one;
    let plan = spec.plan();
    let roll = plan.roll(&mut game.dice);
    let hits = roll.successes;
    let cp = game.profile(game.commander(c).profile).clone();
    let armor_base = cp.armor as i32;
    let armor_mods: Vec<Modifier> = Vec::new();
    let faces = game.dice.d10s(hits as usize);
    let saved = if armor_base >= 10 {
        hits
    } else {
        faces.iter().filter(|f| (**f as i32) <= armor_base).count() as u32
    };
    let lost = hits - saved;
    events.push(Event::CommanderStruck(CommanderStrike {
        attacker: charger,
        commander: c,
        weapon: p.melee.stats().name.into(),
        groups: vec![MeleeGroup {
            bases: touching as u32,
            roll,
        }],
        hits,
        armor: if hits > 0 {
            vec![ArmorReport {
                armor: armor_base,
                modifiers: armor_mods,
                target: armor_base,
                faces,
                saved,
                failed: lost,
            }]
        } else {
            Vec::new()
        },
        sp_lost: lost,
    }));
    let cause = format!("cut down by {}", u.name);
    crate::attachment::lone_commander_hit(game, c, lost, cause, events);
}

/// Every lone enemy commander `charger` could be declared to charge now (for menus and the
/// computer's candidates).
pub fn targets(game: &Game, charger: UnitId) -> Vec<CommanderId> {
    let u = game.unit(charger);
    if u.order != Some(OrderKind::Charge) || u.flags.charged {
        return Vec::new();
    }
    game.commanders
        .iter()
        .filter(|c| c.side != u.side && c.status == UnitStatus::OnTable && c.attached_to.is_none())
        .filter(|c| {
            sandtable_geometry::distance::set_distance(&u.bases, std::slice::from_ref(&c.base))
                .is_ok_and(|d| d <= COMMANDER_TARGET_RANGE_CM + 1e-3)
        })
        .map(|c| c.id)
        .filter(|c| check_declare(game, charger, *c).is_ok())
        .collect()
}

/// The answers open to the commander of a pending charge on him.
pub fn answers(game: &Game, c: CommanderId) -> Vec<CommanderReaction> {
    let mut v = vec![CommanderReaction::Stand, CommanderReaction::BreakOff];
    let side: Side = game.commander(c).side;
    v.extend(
        game.units_on_table(side)
            .map(|u| u.id)
            .filter(|u| crate::attachment::check_join_for(game, c, *u, side).is_ok())
            .map(CommanderReaction::Join),
    );
    v
}
