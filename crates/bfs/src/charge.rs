//! Charges (BFS-CHG): choosing the target, declaring the charge and the reactions to it. The
//! moves themselves (the charge and countercharge moves, the Additional Move, failed charges) are
//! in [`crate::charge_move`].

use crate::charge_move::countercharge_part;
pub use crate::charge_move::{ChargePart, additional_moves, charge_part};
pub use crate::charge_reach::{
    IMPETUS_RUN_CM, Reach, charge_obstacles, effective_order, params, reach, reachable, simulate,
    skippable,
};

use crate::command::Reaction;
use crate::event::Event;
use crate::flight;
use crate::geo::{self};
use crate::ids::{CommanderId, UnitId};
use crate::sight;
use crate::state::{ChargeState, Game, MoraleLevel, OrderKind, UnitStatus};
use crate::turn::{PendingCharge, Phase};
use sandtable_engine::RuleError;
use sandtable_geometry::Scene;

/// The charge targets open to a unit and which the rules single out (BFS-CHG-2..7).
#[derive(Debug, Clone, PartialEq)]
pub struct TargetOptions {
    /// Enemies in the charger's field of vision, with their distance.
    pub visible: Vec<(UnitId, f32)>,
    /// Targets allowed without paying CP.
    pub free: Vec<UnitId>,
    /// Why each skippable enemy within the Basic Move may be passed over.
    pub skipped: Vec<(UnitId, &'static str)>,
}

pub fn target_options(game: &Game, scene: &Scene, charger: UnitId) -> TargetOptions {
    let basic = game.unit_profile(charger).movement.basic;
    let u = game.unit(charger);
    let visible: Vec<(UnitId, f32)> = sight::visible_enemies(game, scene, charger)
        .into_iter()
        .map(|t| {
            (
                t,
                sandtable_geometry::distance::set_distance(&u.bases, &game.unit(t).bases)
                    .unwrap_or(f32::INFINITY),
            )
        })
        .collect();
    let mut within: Vec<(UnitId, f32)> = visible
        .iter()
        .copied()
        .filter(|(_, d)| *d <= basic + 1e-4)
        .collect();
    within.sort_by(|a, b| a.1.total_cmp(&b.1));
    if within.is_empty() {
        // Nothing within the Basic Move: any visible enemy (BFS-CHG-5), a Pike and Shot
        // Battalion counting as one unit (BFS-SPC-21).
        let mut free = visible.iter().map(|v| v.0).collect();
        crate::battalion::charge_priority(game, &visible, &mut free);
        return TargetOptions {
            free,
            visible,
            skipped: Vec::new(),
        };
    }
    let skipped: Vec<(UnitId, &'static str)> = within
        .iter()
        .filter_map(|(t, _)| skippable(game, scene, charger, *t).map(|why| (*t, why)))
        .collect();
    let mut free = vec![within[0].0];
    if let Some((t, _)) = within
        .iter()
        .find(|(t, _)| !skipped.iter().any(|(s, _)| s == t))
    {
        if !free.contains(t) {
            free.push(*t);
        }
    } else {
        // Every unit in reach may be skipped: it must charge one of them (BFS-CHG-6).
        free = within.iter().map(|w| w.0).collect();
    }
    // A Pike and Shot Battalion counts as one unit: its closest member is the one to take
    // (BFS-SPC-21).
    crate::battalion::charge_priority(game, &visible, &mut free);
    TargetOptions {
        visible,
        free,
        skipped,
    }
}

/// Commanders who may pay 1 CP to change the target: he must have the charger in his command range
/// (BFS-CHG-4, AMB-48).
pub fn may_pay_for_target(game: &Game, charger: UnitId, by: CommanderId) -> Result<(), RuleError> {
    let c = game.commander(by);
    if c.side != game.unit(charger).side || c.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            "BFS-CHG-4",
            format!("{} cannot pay for this charge.", c.name),
        ));
    }
    let d = crate::authority::distance_to_unit(game, by, charger);
    let range = crate::authority::command_range_cm(game, by);
    if d > range + 1e-4 {
        return Err(RuleError::new(
            "BFS-CHG-4",
            format!("{} is {d:.1} cm away, beyond his {range} cm range.", c.name),
        ));
    }
    if c.cp < 1 {
        return Err(RuleError::new(
            "BFS-CHG-4",
            format!("{} has no CP left to change the target.", c.name),
        ));
    }
    Ok(())
}

/// May this unit charge at all now: a Charge order, good order, not yet charged this turn
/// (BFS-CHG-1, BFS-PSY-6, BFS-CHG-21)? Whatever its target.
pub fn check_charger(game: &Game, charger: UnitId) -> Result<(), RuleError> {
    let u = game.unit(charger);
    if u.order != Some(OrderKind::Charge) {
        return Err(RuleError::new(
            "BFS-CHG-1",
            format!(
                "Only a unit with a Charge order may charge; {} has {}.",
                u.name,
                u.order.map_or("no order", |o| o.name())
            ),
        ));
    }
    if u.morale != MoraleLevel::Good {
        return Err(RuleError::new(
            "BFS-PSY-6",
            format!("{} is not in good order.", u.name),
        ));
    }
    if u.flags.charged {
        return Err(RuleError::new(
            "BFS-CHG-21",
            format!("{} has already charged this turn.", u.name),
        ));
    }
    Ok(())
}

pub fn check_declare(
    game: &Game,
    charger: UnitId,
    target: UnitId,
    pay: Option<CommanderId>,
) -> Result<(), RuleError> {
    check_charger(game, charger)?;
    let u = game.unit(charger);
    let t = game
        .units
        .get(target.index())
        .ok_or_else(|| RuleError::new("BFS-CHG-2", "There is no such unit."))?;
    if t.side == u.side || t.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            "BFS-CHG-2",
            "The target must be an enemy unit on the table.",
        ));
    }
    let scene = geo::scene(game);
    let options = target_options(game, &scene, charger);
    if !options.visible.iter().any(|(v, _)| *v == target) {
        return Err(RuleError::new(
            "BFS-CHG-2",
            format!(
                "{} cannot see {}: a charge target must be in its field of vision.",
                u.name, t.name
            ),
        ));
    }
    // An ammunition wagon is charged only as the closest target: no CP buys it (BFS-WAG-9).
    if crate::wagon::rules_apply(game) && crate::wagon::is_ammunition_wagon(game, target) {
        let closest = options
            .visible
            .iter()
            .map(|(_, d)| *d)
            .fold(f32::INFINITY, f32::min);
        let d = options
            .visible
            .iter()
            .find(|(v, _)| *v == target)
            .map_or(f32::INFINITY, |(_, d)| *d);
        if d > closest + sandtable_geometry::tolerance::LIMIT_EPS {
            return Err(RuleError::new(
                "BFS-WAG-9",
                format!(
                    "{} may be charged only when it is the closest enemy; no command point buys it as a target.",
                    t.name
                ),
            ));
        }
    }
    if !options.free.contains(&target) {
        let required: Vec<&str> = options
            .free
            .iter()
            .map(|f| game.unit(*f).name.as_str())
            .collect();
        match pay {
            Some(by) => may_pay_for_target(game, charger, by)?,
            None => {
                return Err(RuleError::new(
                    "BFS-CHG-3",
                    format!(
                        "{} must charge the closest enemy within its Basic Move ({}); a commander with it in range may pay 1 CP to choose another target.",
                        u.name,
                        required.join(" or ")
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Whether a unit could answer a charge, judged only on what the charging player can see: a
/// face-down marker might hide a Charge or Defense order (BFS-CHG-12).
fn may_react(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    u.status == UnitStatus::OnTable
        && u.morale == MoraleLevel::Good
        && flight::enemies_in_contact(game, unit).is_empty()
        && (u.pending_order.is_some()
            || matches!(u.order, Some(OrderKind::Charge) | Some(OrderKind::Defense)))
}

/// Is the target of a charge asked how it reacts: as any unit may (above), or because it may
/// Break Off whatever its order (Light Cavalry, BFS-SPC-16), or run behind its pikes or hide
/// among them whatever its order (a Battalion's musketeers or gun, BFS-SPC-22, BFS-SPC-23)?
fn target_may_react(game: &Game, unit: UnitId) -> bool {
    may_react(game, unit)
        || crate::break_off::check(game, unit).is_ok()
        || crate::battalion::may_answer_charge(game, unit)
}

/// The special rule that makes a unit test its nerve before charging `target`: Militia or Rabble
/// against a more numerous enemy, that is one with more bases (BFS-SPC-18, BFS-SPC-25, AMB-92).
pub fn nerve_rule(game: &Game, charger: UnitId, target: UnitId) -> Option<&'static str> {
    if !crate::revision::special_rules_6(game.info.options.rules_revision) {
        return None;
    }
    if game.unit(target).bases.len() <= game.unit(charger).bases.len() {
        return None;
    }
    let p = game.unit_profile(charger);
    if p.has(crate::profile::SpecialRule::Militia) {
        Some("BFS-SPC-18")
    } else if p.has(crate::profile::SpecialRule::Rabble) {
        Some("BFS-SPC-25")
    } else {
        None
    }
}

/// A Militia or Rabble unit declaring a charge at a more numerous enemy tests Morale first; on a
/// failure it does not charge, loses its Charge Order and is left with none (BFS-SPC-18,
/// BFS-SPC-25). Returns whether the charge goes ahead.
fn nerve_holds(
    game: &mut Game,
    charger: UnitId,
    target: UnitId,
    events: &mut Vec<crate::event::Event>,
) -> bool {
    let Some(rule) = nerve_rule(game, charger, target) else {
        return true;
    };
    let why = if rule == "BFS-SPC-18" {
        "Militia"
    } else {
        "Rabble"
    };
    let cause = crate::morale::MoraleCause::Other {
        rule,
        reason: format!(
            "{why}: declares a charge at {}, which has more bases ({} against {})",
            game.unit(target).name,
            game.unit(target).bases.len(),
            game.unit(charger).bases.len()
        ),
    };
    let roll = crate::morale::morale_test(game, charger, &cause);
    let passed = roll.passed;
    let name = game.unit(charger).name.clone();
    let outcome = if passed {
        format!("{name} holds its nerve and charges.")
    } else {
        format!(
            "{name} will not charge: it loses its Charge Order and is left with no order ({rule})."
        )
    };
    events.push(crate::morale::report(
        charger,
        crate::event::TestKind::Morale,
        &cause,
        roll,
        outcome,
    ));
    if !passed {
        let u = game.unit_mut(charger);
        u.order = None;
        u.charge = None;
    }
    passed
}

pub fn declare(
    game: &mut Game,
    charger: UnitId,
    target: UnitId,
    pay: Option<CommanderId>,
    events: &mut Vec<crate::event::Event>,
) -> Result<(), RuleError> {
    check_declare(game, charger, target, pay)?;
    if !nerve_holds(game, charger, target, events) {
        return Ok(());
    }
    let scene = geo::scene(game);
    let free = target_options(game, &scene, charger).free.contains(&target);
    // A caracoling target calls its first rank back (BFS-SPC-4).
    crate::caracole::interrupt(game, target, true, events);
    if let (Some(by), false) = (pay, free) {
        game.commander_mut(by).cp -= 1;
        events.push(Event::CpSpent {
            commander: by,
            cp: 1,
            rule: "BFS-CHG-4".into(),
            reason: "change the charge target".into(),
        });
    }
    let start = sandtable_geometry::distance::set_distance(
        &game.unit(charger).bases,
        &game.unit(target).bases,
    )
    .unwrap_or(0.0);
    let through_field =
        crate::ground::field_cap(game, charger, &game.unit(charger).bases).is_some();
    set_out(game, charger, target, false, start, through_field);
    events.push(Event::ChargeDeclared {
        unit: charger,
        target,
        paid_by: if free { None } else { pay },
    });
    let reactors: Vec<UnitId> = if target_may_react(game, target) {
        vec![target]
    } else {
        Vec::new()
    };
    if reactors.is_empty() {
        resolve(
            game,
            PendingCharge {
                charger,
                target,
                reactors,
                reactions: Vec::new(),
                commander: None,
            },
            events,
        );
    } else if let Phase::Movement { charge, .. } = &mut game.turn.phase {
        *charge = Some(PendingCharge {
            charger,
            target,
            reactors,
            reactions: Vec::new(),
            commander: None,
        });
    }
    Ok(())
}

pub fn check_react(
    game: &Game,
    unit: UnitId,
    reaction: Reaction,
) -> Result<PendingCharge, RuleError> {
    let Phase::Movement {
        charge: Some(pending),
        ..
    } = &game.turn.phase
    else {
        return Err(RuleError::new(
            "BFS-CHG-12",
            "There is no charge to react to.",
        ));
    };
    if pending.commander.is_some() {
        return Err(RuleError::new(
            "BFS-CDR-8",
            "The charge is on a commander: he answers it himself.",
        ));
    }
    let next = pending.next_reactor();
    if next != Some(unit) {
        return Err(RuleError::new(
            "BFS-CHG-12",
            format!("{} is not the unit asked to react.", game.unit(unit).name),
        ));
    }
    let u = game.unit(unit);
    // The first reactor answers the charge; any later one stands in its countercharge's path
    // and answers that (BFS-AMV-1).
    let chained = !pending.reactions.is_empty();
    let against = if chained {
        pending.target
    } else {
        pending.charger
    };
    match reaction {
        Reaction::Stand => {}
        Reaction::BreakOff if chained => {
            return Err(RuleError::new(
                "BFS-SPC-16",
                "A Break Off answers a charge on the unit itself, declared with it.",
            ));
        }
        Reaction::BreakOff => crate::break_off::check(game, unit)?,
        Reaction::RunBehindPikes { .. } if chained => {
            return Err(RuleError::new(
                "BFS-SPC-22",
                "Run Behind the Pikes answers a charge on the musketeers themselves.",
            ));
        }
        Reaction::RunBehindPikes { .. } => {
            crate::run_behind::check(game, unit, against)?;
        }
        Reaction::HideAmongPikes if chained => {
            return Err(RuleError::new(
                "BFS-SPC-23",
                "Hide Among the Pikemen answers a charge on the gun itself.",
            ));
        }
        Reaction::HideAmongPikes => {
            crate::hide_crew::check(game, unit)?;
        }
        Reaction::HoldFire { .. } if chained => {
            return Err(RuleError::new(
                "BFS-AMV-1",
                format!(
                    "{} stands in the path of a countercharge: it may countercharge it or stand.",
                    u.name
                ),
            ));
        }
        Reaction::Countercharge => {
            if effective_order(game, unit) != Some(OrderKind::Charge) {
                return Err(RuleError::new(
                    "BFS-CHG-21",
                    format!(
                        "Only a unit with a Charge order may countercharge; {} has none.",
                        u.name
                    ),
                ));
            }
            if u.flags.charged {
                return Err(RuleError::new(
                    "BFS-CHG-21",
                    format!(
                        "{} has already charged or countercharged this turn.",
                        u.name
                    ),
                ));
            }
            let scene = geo::scene(game);
            if !sight::sees(game, &scene, unit, against, None) {
                return Err(RuleError::new(
                    "BFS-CHG-21",
                    format!(
                        "{} cannot see {}, so it cannot countercharge.",
                        u.name,
                        game.unit(against).name
                    ),
                ));
            }
        }
        Reaction::HoldFire { by } => {
            if u.flags.hail_of_arrows {
                return Err(RuleError::new(
                    "BFS-OPT-2",
                    format!(
                        "{} has declared a hail of arrows: its fire waits for Shooting after Movement.",
                        u.name
                    ),
                ));
            }
            if effective_order(game, unit) != Some(OrderKind::Defense) {
                return Err(RuleError::new(
                    "BFS-CBT-8",
                    "Only a unit with a Defense order can hold its fire.",
                ));
            }
            if game.unit_profile(unit).shooting == 0 {
                return Err(RuleError::new(
                    "BFS-CBT-8",
                    format!("{} has no shooting weapon.", u.name),
                ));
            }
            if !crate::authority::commanders_who_may_order(game, unit).contains(&by) {
                return Err(RuleError::new(
                    "BFS-CBT-8",
                    "Only one of the unit's own commanders may pay to delay its fire.",
                ));
            }
            let d = crate::authority::distance_to_unit(game, by, unit);
            if d > crate::authority::command_range_cm(game, by) + 1e-4 || game.commander(by).cp < 1
            {
                return Err(RuleError::new(
                    "BFS-CBT-8",
                    format!(
                        "{} needs the unit in range and 1 CP to delay its fire.",
                        game.commander(by).name
                    ),
                ));
            }
        }
    }
    // Turning a contrary new order up early costs its issuer 1 CP now (BFS-ORD-12).
    let revealed = match reaction {
        Reaction::Countercharge => Some(OrderKind::Charge),
        Reaction::HoldFire { .. } => Some(OrderKind::Defense),
        _ => None,
    };
    if let (Some(kind), Some(p)) = (revealed, u.pending_order)
        && let Some(issuer) = p.issued_by
        && crate::instructions::contrary(game, unit, kind)
    {
        let also = match reaction {
            Reaction::HoldFire { by } if by == issuer => 1,
            _ => 0,
        };
        if game.commander(issuer).cp < 1 + also {
            return Err(RuleError::new(
                "BFS-ORD-12",
                format!(
                    "{}'s order is contrary to its regiment's Instruction and {} has no CP left to pay for it.",
                    u.name,
                    game.commander(issuer).name
                ),
            ));
        }
    }
    Ok(pending.clone())
}

pub fn react(
    game: &mut Game,
    unit: UnitId,
    reaction: Reaction,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let mut pending = check_react(game, unit, reaction)?;
    let text = match reaction {
        Reaction::Stand => "stands".to_string(),
        Reaction::BreakOff => "Breaks Off (BFS-SPC-16)".to_string(),
        Reaction::RunBehindPikes { .. } => "runs behind the pikes (BFS-SPC-22)".to_string(),
        Reaction::HideAmongPikes => "hides among the pikemen (BFS-SPC-23)".to_string(),
        Reaction::Countercharge => {
            reveal(game, unit, OrderKind::Charge, events);
            "countercharges".into()
        }
        Reaction::HoldFire { by } => {
            reveal(game, unit, OrderKind::Defense, events);
            game.commander_mut(by).cp -= 1;
            game.unit_mut(unit).flags.delayed_fire = true;
            events.push(Event::CpSpent {
                commander: by,
                cp: 1,
                rule: "BFS-CBT-8".into(),
                reason: "hold fire until Reaction Fire".into(),
            });
            "holds its fire for the Reaction Fire step".into()
        }
    };
    let chained = !pending.reactions.is_empty();
    events.push(Event::Reacted {
        unit,
        to: if chained {
            pending.target
        } else {
            pending.charger
        },
        reaction: text,
    });
    if reaction == Reaction::BreakOff {
        crate::break_off::break_off(game, unit, pending.charger, events);
    }
    if let Reaction::RunBehindPikes { advance } = reaction {
        // No charge is made: the charger declares again (BFS-SPC-22).
        if let Phase::Movement { charge, .. } = &mut game.turn.phase {
            *charge = None;
        }
        return crate::run_behind::run_behind(game, unit, pending.charger, advance, events);
    }
    if reaction == Reaction::HideAmongPikes {
        if let Phase::Movement { charge, .. } = &mut game.turn.phase {
            *charge = None;
        }
        return crate::hide_crew::hide(game, unit, pending.charger, events);
    }
    pending.reactions.push(reaction);
    if !chained
        && reaction == Reaction::Countercharge
        && crate::revision::charge_chains(game.info.options.rules_revision)
    {
        pending
            .reactors
            .extend(in_countercharge_path(game, pending.charger, unit));
    }
    if pending.reactions.len() < pending.reactors.len() {
        if let Phase::Movement { charge, .. } = &mut game.turn.phase {
            *charge = Some(pending);
        }
        return Ok(());
    }
    if let Phase::Movement { charge, .. } = &mut game.turn.phase {
        *charge = None;
    }
    resolve(game, pending, events);
    Ok(())
}

/// Turns a face-down marker up (a countercharge or held fire reveals it, BFS-ORD-7).
fn reveal(game: &mut Game, unit: UnitId, kind: OrderKind, events: &mut Vec<Event>) {
    // A new order turned up early is paid for now if contrary to its Instruction (BFS-ORD-12);
    // the reaction was refused if its issuer could not pay.
    if let Some(p) = game.unit(unit).pending_order {
        crate::instructions::pay_for_contrary(game, &[(unit, kind, p.issued_by)], events);
    }
    let u = game.unit_mut(unit);
    if u.pending_order.take().is_some() || u.order != Some(kind) {
        let from = u.order;
        u.order = Some(kind);
        events.push(Event::OrderChanged {
            unit,
            from,
            to: Some(kind),
            rule: "BFS-ORD-7".into(),
            reason: "revealed to react to a charge".into(),
        });
    }
}

/// The unit of the charger's side that `counter`'s countercharge at `charger` would run into
/// first, if it may react (BFS-AMV-1): the countercharge simulated with its Basic Move as if the
/// charger stood, a contact counting only within half the gap (where the two would meet,
/// BFS-CHG-22). Only this first link of a chain is asked; a chain running on from its reaction
/// is not played.
fn in_countercharge_path(game: &Game, charger: UnitId, counter: UnitId) -> Option<UnitId> {
    let scene = geo::scene(game);
    let basic = game.unit_profile(counter).movement.basic;
    let out = simulate(game, &scene, counter, charger, basic)?;
    let c = out.contact?;
    let other = UnitId(c.unit as u16);
    let gap = sandtable_geometry::distance::set_distance(
        &game.unit(counter).bases,
        &game.unit(charger).bases,
    )
    .unwrap_or(0.0);
    (other != charger
        && game.unit(other).side == game.unit(charger).side
        && out.travelled <= 0.5 * gap + 1e-3
        && may_react(game, other)
        && !game.unit(other).flags.charged)
        .then_some(other)
}

/// Carries out a declared charge after the reactions (BFS-CHG-13..22), the last declared first
/// (BFS-AMV-1): a unit that countercharged the countercharge moves, then the countercharger, then
/// the charger. A countercharger already engaged by then fights where it stands, and the charger
/// charges it.
fn resolve(game: &mut Game, mut pending: PendingCharge, events: &mut Vec<Event>) {
    let chained: Vec<UnitId> = pending
        .reactors
        .iter()
        .zip(&pending.reactions)
        .skip(1)
        .filter(|(_, r)| **r == Reaction::Countercharge)
        .map(|(u, _)| *u)
        .collect();
    if !chained.is_empty() {
        for &link in chained.iter().rev() {
            let through_field =
                crate::ground::field_cap(game, link, &game.unit(link).bases).is_some();
            let start = sandtable_geometry::distance::set_distance(
                &game.unit(link).bases,
                &game.unit(pending.target).bases,
            )
            .unwrap_or(0.0);
            // Its countercharge meets a unit that moves only after it: it runs as a charge.
            set_out(game, link, pending.target, false, start, through_field);
            let basic = game.unit_profile(link).movement.basic;
            charge_part(game, link, basic, ChargePart::Movement, events);
        }
        pending.reactors.truncate(1);
        pending.reactions.truncate(1);
        if !flight::enemies_in_contact(game, pending.target).is_empty() {
            // Caught before it set out: it fights where it stands, and the charger still
            // charges it (BFS-AMV-1).
            let t = game.unit_mut(pending.target);
            t.flags.activated = true;
            t.flags.charged = true;
            let basic = game.unit_profile(pending.charger).movement.basic;
            charge_part(game, pending.charger, basic, ChargePart::Movement, events);
            return;
        }
    }
    let counter = pending
        .reactions
        .iter()
        .zip(&pending.reactors)
        .find(|(r, _)| **r == Reaction::Countercharge)
        .map(|(_, u)| *u);
    match counter {
        Some(cc) => {
            let start = game
                .unit(pending.charger)
                .charge
                .as_ref()
                .map_or(0.0, |c| c.start_distance);
            let through_field = crate::ground::field_cap(game, cc, &game.unit(cc).bases).is_some();
            set_out(game, cc, pending.charger, true, start, through_field);
            countercharge_part(game, pending.charger, cc, false, events);
        }
        None => {
            let basic = game.unit_profile(pending.charger).movement.basic;
            charge_part(game, pending.charger, basic, ChargePart::Movement, events);
        }
    }
}

/// The charge is not made: the charger stands where it was, ready to declare a new target, as
/// after Run Behind the Pikes and Hide Among the Pikemen (BFS-SPC-22, BFS-SPC-23).
pub(crate) fn call_off(game: &mut Game, charger: UnitId) {
    let c = game.unit_mut(charger);
    c.flags.activated = false;
    c.flags.charged = false;
    c.charge = None;
}

/// A unit sets out on a (counter)charge at `target`: activated, charged, its charge state fresh.
fn set_out(
    game: &mut Game,
    unit: UnitId,
    target: UnitId,
    countercharge: bool,
    start_distance: f32,
    through_field: bool,
) {
    let c = game.unit_mut(unit);
    c.flags.activated = true;
    c.flags.charged = true;
    c.charge = Some(ChargeState {
        target,
        countercharge,
        start_distance,
        straight_run: 0.0,
        contact: false,
        struck: None,
        carried_over: false,
        pursuit: false,
        through_field,
    });
}

/// Units a charger is fighting.
pub fn is_charging(game: &Game, unit: UnitId) -> bool {
    game.unit(unit).charge.as_ref().is_some_and(|c| c.contact)
}

/// The enemy edge struck by this charger, if it charged into contact.
pub fn struck_edge(game: &Game, unit: UnitId) -> Option<sandtable_geometry::Edge> {
    game.unit(unit)
        .charge
        .as_ref()
        .filter(|c| c.contact)
        .and_then(|c| c.struck)
}
