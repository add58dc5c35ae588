//! Charges (BFS-CHG): choosing the target, reactions, the charge and countercharge moves, the
//! Additional Move and failed charges.

use crate::command::Reaction;
use crate::dice::TestRoll;
use crate::event::{Event, TestKind, TestReport};
use crate::flight;
use crate::geo::{self, frame_of, sid, unit_frame};
use crate::ids::{CommanderId, UnitId};
use crate::moves;
use crate::profile::UnitKind;
use crate::sight;
use crate::state::{ChargeState, Game, MoraleLevel, OrderKind, UnitStatus};
use crate::turn::{PendingCharge, Phase};
use sandtable_engine::RuleError;
use sandtable_geometry::charge::{self as gcharge, ChargeParams};
use sandtable_geometry::movement::{Body, MoveCost, ObstacleFns};
use sandtable_geometry::scene::SceneBase;
use sandtable_geometry::terrain::TerrainPiece;
use sandtable_geometry::vision::VisionArc;
use sandtable_geometry::{Rect, Scene};

/// Cavalry needs this much ground between charger and target for Impetus (BFS-CC-14).
pub const IMPETUS_RUN_CM: f32 = 10.0;

pub fn params(game: &Game) -> ChargeParams {
    ChargeParams {
        reference: moves::wheel_reference(game),
        cost: MoveCost::default(),
        ..ChargeParams::default()
    }
}

/// Obstacles for a charger: enemies may be touched (gap 0), friends and impassable terrain stop it.
pub fn charge_obstacles<'a>(
    game: &'a Game,
    mover: UnitId,
) -> ObstacleFns<impl Fn(&SceneBase) -> Option<f32> + 'a, impl Fn(&TerrainPiece) -> Option<f32> + 'a>
{
    moves::obstacles(game, mover, 0.0)
}

/// Why an enemy may be passed over as a charge target (BFS-CHG-6), if it may.
pub fn skippable(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
) -> Option<&'static str> {
    let t = game.unit(target);
    let tp = game.unit_profile(target);
    if !flight::enemies_in_contact(game, target).is_empty() {
        return Some("it is already in close combat");
    }
    if t.charge.as_ref().is_some_and(|c| c.target != charger) {
        return Some("it is charging another unit");
    }
    if t.morale == MoraleLevel::Flight {
        return Some("it is fleeing");
    }
    if tp.kind == UnitKind::Wagon {
        return Some("it is a wagon");
    }
    if tp.kind == UnitKind::Artillery {
        return Some("it is artillery");
    }
    if !reachable(game, scene, charger, target) {
        return Some("it cannot be reached with the Basic Move");
    }
    None
}

/// Can the charger touch `target` with its Basic Move (BFS-CHG-6 item 7, GEO-11)?
pub fn reachable(game: &Game, scene: &Scene, charger: UnitId, target: UnitId) -> bool {
    simulate(
        game,
        scene,
        charger,
        target,
        game.unit_profile(charger).movement.basic,
    )
    .is_some_and(|o| o.reached(sid(target)))
}

/// How far a charge would get, terrain counted as the charge itself will count it (BFS-TER-2/3).
#[derive(Debug, Clone)]
pub struct Reach {
    /// The Movement Phase part: the Basic Move.
    pub basic: Option<gcharge::ChargeOutcome>,
    /// Contact with the Basic Move.
    pub reaches: bool,
    /// Contact with the Basic and Additional Move together (the Additional Move comes with a
    /// Skill test if it falls short, BFS-CHG-24).
    pub reaches_with_additional: bool,
}

/// Would a charge by `charger` at `target` touch it, with the Basic Move or with both moves?
/// Used by previews and by the computer player when it weighs a Charge order.
pub fn reach(game: &Game, scene: &Scene, charger: UnitId, target: UnitId) -> Reach {
    let m = game.unit_profile(charger).movement;
    let mut quiet = Vec::new();
    let basic_budget = terrain_budget(game, scene, charger, target, m.basic, false, &mut quiet);
    let basic = simulate(game, scene, charger, target, basic_budget);
    let reaches = basic.as_ref().is_some_and(|o| o.contact.is_some());
    let reaches_with_additional = reaches || {
        let full_budget = terrain_budget(
            game,
            scene,
            charger,
            target,
            m.basic + m.additional,
            false,
            &mut quiet,
        );
        simulate(game, scene, charger, target, full_budget).is_some_and(|o| o.contact.is_some())
    };
    Reach {
        basic,
        reaches,
        reaches_with_additional,
    }
}

/// The geometry's charge simulation for `budget` cm.
pub fn simulate(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    budget: f32,
) -> Option<gcharge::ChargeOutcome> {
    let u = game.unit(charger);
    let body = Body::new(unit_frame(u), &u.bases);
    let obs = charge_obstacles(game, charger);
    gcharge::simulate_charge(
        scene,
        &body,
        sid(charger),
        sid(target),
        &unit_frame(game.unit(target)),
        None,
        budget,
        &params(game),
        &obs,
    )
    .ok()
}

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
        // Nothing within the Basic Move: any visible enemy (BFS-CHG-5).
        return TargetOptions {
            free: visible.iter().map(|v| v.0).collect(),
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

pub fn check_declare(
    game: &Game,
    charger: UnitId,
    target: UnitId,
    pay: Option<CommanderId>,
) -> Result<(), RuleError> {
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

/// The order a unit really holds now: its face-down marker if it has one, else its revealed order.
fn effective_order(game: &Game, unit: UnitId) -> Option<OrderKind> {
    let u = game.unit(unit);
    u.pending_order.and_then(|p| p.kind).or(u.order)
}

pub fn declare(
    game: &mut Game,
    charger: UnitId,
    target: UnitId,
    pay: Option<CommanderId>,
    events: &mut Vec<crate::event::Event>,
) -> Result<(), RuleError> {
    check_declare(game, charger, target, pay)?;
    let scene = geo::scene(game);
    let free = target_options(game, &scene, charger).free.contains(&target);
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
    {
        let u = game.unit_mut(charger);
        u.flags.activated = true;
        u.flags.charged = true;
        u.charge = Some(ChargeState {
            target,
            countercharge: false,
            start_distance: start,
            straight_run: 0.0,
            contact: false,
            struck: None,
            carried_over: false,
            pursuit: false,
        });
    }
    events.push(Event::ChargeDeclared {
        unit: charger,
        target,
        paid_by: if free { None } else { pay },
    });
    let reactors: Vec<UnitId> = if may_react(game, target) {
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
            },
            events,
        );
    } else if let Phase::Movement { charge, .. } = &mut game.turn.phase {
        *charge = Some(PendingCharge {
            charger,
            target,
            reactors,
            reactions: Vec::new(),
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
    let next = pending.reactors.get(pending.reactions.len()).copied();
    if next != Some(unit) {
        return Err(RuleError::new(
            "BFS-CHG-12",
            format!("{} is not the unit asked to react.", game.unit(unit).name),
        ));
    }
    let u = game.unit(unit);
    match reaction {
        Reaction::Stand => {}
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
            if !sight::sees(game, &scene, unit, pending.charger, None) {
                return Err(RuleError::new(
                    "BFS-CHG-21",
                    format!(
                        "{} cannot see the charger, so it cannot countercharge.",
                        u.name
                    ),
                ));
            }
        }
        Reaction::HoldFire { by } => {
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
    events.push(Event::Reacted {
        unit,
        to: pending.charger,
        reaction: text,
    });
    pending.reactions.push(reaction);
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

/// Carries out a declared charge after the reactions (BFS-CHG-13..22).
fn resolve(game: &mut Game, pending: PendingCharge, events: &mut Vec<Event>) {
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
            {
                let c = game.unit_mut(cc);
                c.flags.activated = true;
                c.flags.charged = true;
                c.charge = Some(ChargeState {
                    target: pending.charger,
                    countercharge: true,
                    start_distance: start,
                    straight_run: 0.0,
                    contact: false,
                    struck: None,
                    carried_over: false,
                    pursuit: false,
                });
            }
            countercharge_part(game, pending.charger, cc, false, events);
        }
        None => {
            let basic = game.unit_profile(pending.charger).movement.basic;
            charge_part(game, pending.charger, basic, ChargePart::Movement, events);
        }
    }
}

/// Which part of a charge is moving (BFS-CHG-13, BFS-CHG-22, BFS-CC-30).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargePart {
    Movement,
    Additional,
    Countercharge,
    CounterchargeAdditional,
    /// A pursuit moves at the Additional Move (BFS-CC-30).
    Pursuit,
}

impl ChargePart {
    pub fn name(self) -> &'static str {
        match self {
            ChargePart::Movement => "Movement Phase",
            ChargePart::Additional => "Additional Move",
            ChargePart::Countercharge => "countercharge",
            ChargePart::CounterchargeAdditional => "Additional Move (countercharge)",
            ChargePart::Pursuit => "Pursuit",
        }
    }
    /// Moves made with the Additional Move, which very difficult terrain forbids (BFS-TER-3).
    pub fn is_additional(self) -> bool {
        matches!(
            self,
            ChargePart::Additional | ChargePart::CounterchargeAdditional | ChargePart::Pursuit
        )
    }
}

/// One part of a charge (BFS-CHG-13): wheel to face, straight on, align on contact (GEO-11/12).
/// Returns true on contact.
pub fn charge_part(
    game: &mut Game,
    charger: UnitId,
    budget: f32,
    part: ChargePart,
    events: &mut Vec<Event>,
) -> bool {
    let additional = part.is_additional();
    let part = part.name();
    let Some(state) = game.unit(charger).charge.clone() else {
        return false;
    };
    let target = state.target;
    if game.unit(target).status != UnitStatus::OnTable {
        return false;
    }
    let scene = geo::scene(game);
    let budget = terrain_budget(game, &scene, charger, target, budget, additional, events);
    let Some(out) = simulate(game, &scene, charger, target, budget) else {
        events.push(Event::Ruling {
            rule: "BFS-CHG-14".into(),
            text: format!(
                "{} cannot find a way to charge {}.",
                game.unit(charger).name,
                game.unit(target).name
            ),
        });
        return false;
    };
    let moved: Vec<Rect> = game
        .unit(charger)
        .bases
        .iter()
        .map(|b| out.apply(b))
        .collect();
    let travelled = out.travelled;
    let wheel_deg = out.wheel.theta.abs().to_degrees();
    let mut contact_unit = out.contact.map(|c| UnitId(c.unit as u16));
    let mut final_bases = moved.clone();
    let mut used = out.cost;
    if let Some(c) = out.contact {
        let touched = UnitId(c.unit as u16);
        // Align on the contact point with the struck edge (BFS-CHG-19); incidental contact makes
        // the touched unit the target (BFS-CHG-11).
        let tframe = unit_frame(game.unit(touched));
        let zone = gcharge::charge_zone(
            &tframe,
            &frame_of(&game.unit(charger).bases),
            params(game).zones,
        )
        .ok()
        .flatten();
        let edge = zone
            .map(|z| z.edge())
            .unwrap_or(sandtable_geometry::Edge::Front);
        let aligned = {
            let scene2 = geo::scene_with(game, Some((charger, &moved)));
            let body = Body::new(frame_of(&moved), &moved);
            let obs = charge_obstacles(game, charger);
            let allowance = (budget - out.cost).max(0.0);
            gcharge::align(
                &scene2,
                &body,
                c.point,
                tframe.edge_normal(edge),
                c.unit,
                allowance,
                &params(game),
                &obs,
            )
            .ok()
        };
        if let Some(al) = aligned {
            let turned: Vec<Rect> = moved.iter().map(|b| al.outcome.apply(b)).collect();
            // An alignment that would swing into a unit stops short: the charger fights as it
            // stands (BFS-CHG-16, BFS-CHG-19.3).
            if !overlaps_anyone(game, charger, &turned) {
                final_bases = turned;
                used += al.cost;
            }
        }
        let u = game.unit_mut(charger);
        if let Some(cs) = u.charge.as_mut() {
            cs.contact = true;
            cs.target = touched;
            cs.struck = Some(edge);
            // Impetus counts the straight run into contact, with the distance already covered
            // earlier in the charge (BFS-CC-14).
            cs.straight_run = if wheel_deg > 0.5 && travelled < IMPETUS_RUN_CM {
                travelled
            } else {
                cs.straight_run + travelled
            };
        }
        contact_unit = Some(touched);
        if edge == sandtable_geometry::Edge::Front
            && effective_order_is_charge_unused(game, touched)
        {
            game.unit_mut(touched).flags.charged_in_front = true;
        }
    } else if let Some(cs) = game.unit_mut(charger).charge.as_mut() {
        cs.straight_run = if wheel_deg > 0.5 {
            travelled
        } else {
            cs.straight_run + travelled
        };
    }
    game.unit_mut(charger).bases = final_bases;
    game.unit_mut(charger).flags.moved = true;
    let name = game.unit(target).name.clone();
    let description = match contact_unit {
        Some(t) if t == target => {
            format!("{part}: wheeled {wheel_deg:.0}°, moved {travelled:.1} cm and struck {name}")
        }
        Some(t) => format!(
            "{part}: moved {travelled:.1} cm and struck {} instead (incidental contact, BFS-CHG-11)",
            game.unit(t).name
        ),
        None => format!(
            "{part}: wheeled {wheel_deg:.0}° and moved {travelled:.1} cm towards {name}, not yet in contact"
        ),
    };
    events.push(Event::ChargeMoved {
        unit: charger,
        distance_cm: used,
        contact: contact_unit,
        description,
    });
    contact_unit.is_some()
}

/// Terrain slows a charge as any move (BFS-TER-2/3): once in difficult terrain the charger may
/// cover only half of this part's move, in very difficult terrain 5 cm, and a unit that starts in
/// very difficult terrain makes no Additional Move. Returns the budget the terrain allows.
fn terrain_budget(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    budget: f32,
    additional: bool,
    events: &mut Vec<Event>,
) -> f32 {
    use crate::geo::TerrainClass;
    let p = game.unit_profile(charger);
    let start = geo::worst_class_under(game, &game.unit(charger).bases, p);
    if start == TerrainClass::VeryDifficult && additional {
        events.push(Event::Ruling {
            rule: "BFS-TER-3".into(),
            text: format!(
                "{} is in very difficult terrain: no Additional Move.",
                game.unit(charger).name
            ),
        });
        return 0.0;
    }
    let cap_for = |class: TerrainClass| geo::slowed_move(class, budget);
    if let Some((cap, rule, why)) = cap_for(start) {
        events.push(Event::Ruling {
            rule: rule.into(),
            text: format!(
                "{} charges out of {why}: at most {cap:.1} cm.",
                game.unit(charger).name
            ),
        });
        return cap;
    }
    // Where would the full move end? If there, the unit has entered slowing terrain.
    let Some(full) = simulate(game, scene, charger, target, budget) else {
        return budget;
    };
    let end: Vec<Rect> = game
        .unit(charger)
        .bases
        .iter()
        .map(|b| full.apply(b))
        .collect();
    match cap_for(geo::worst_class_under(game, &end, p)) {
        Some((cap, rule, why)) if full.cost > cap + 1e-3 => {
            events.push(Event::Ruling {
                rule: rule.into(),
                text: format!(
                    "{} charges into {why}: it stops after {cap:.1} cm.",
                    game.unit(charger).name
                ),
            });
            cap
        }
        _ => budget,
    }
}

/// Would these bases of `unit` overlap any other unit's?
fn overlaps_anyone(game: &Game, unit: UnitId, bases: &[Rect]) -> bool {
    game.units
        .iter()
        .filter(|o| o.id != unit && o.status == UnitStatus::OnTable)
        .any(|o| {
            o.bases.iter().any(|ob| {
                bases
                    .iter()
                    .any(|b| sandtable_engine::scenario_check::rects_overlap(b, ob))
            })
        })
}

fn effective_order_is_charge_unused(game: &Game, unit: UnitId) -> bool {
    effective_order(game, unit) == Some(OrderKind::Charge) && !game.unit(unit).flags.charged
}

/// A countercharge part (BFS-CHG-22, GEO-13): the countercharger moves first, up to the halfway
/// line between the fronts, then the charger, which may cross the line if the other fell short.
pub fn countercharge_part(
    game: &mut Game,
    charger: UnitId,
    counter: UnitId,
    additional: bool,
    events: &mut Vec<Event>,
) {
    let m = |g: &Game, u: UnitId| {
        let mv = g.unit_profile(u).movement;
        if additional { mv.additional } else { mv.basic }
    };
    let fa = unit_frame(game.unit(charger)).edge(sandtable_geometry::Edge::Front);
    let fb = unit_frame(game.unit(counter)).edge(sandtable_geometry::Edge::Front);
    let to_line = gcharge::halfway_line(&fa, &fb).ok().and_then(|line| {
        gcharge::travel_to_line(&fb, unit_frame(game.unit(counter)).facing(), &line)
            .ok()
            .flatten()
    });
    let part = if additional {
        ChargePart::CounterchargeAdditional
    } else {
        ChargePart::Countercharge
    };
    let cc_budget = to_line.map_or(m(game, counter), |d| m(game, counter).min(d + 0.5));
    if charge_part(game, counter, cc_budget, part, events) {
        mark_contact(game, charger, counter);
        return;
    }
    let part = if additional {
        ChargePart::Additional
    } else {
        ChargePart::Movement
    };
    if charge_part(game, charger, m(game, charger), part, events) {
        mark_contact(game, counter, charger);
    }
}

fn mark_contact(game: &mut Game, unit: UnitId, with: UnitId) {
    if let Some(cs) = game.unit_mut(unit).charge.as_mut()
        && cs.target == with
    {
        cs.contact = true;
        cs.struck = Some(sandtable_geometry::Edge::Front);
    }
}

/// Close Combat step 1: chargers not yet in contact make their Additional Move; one that still
/// fails to reach takes a Skill test (BFS-CHG-13, BFS-CHG-24, BFS-CC-4).
pub fn additional_moves(game: &mut Game, events: &mut Vec<Event>) {
    let first = game.turn.initiative.unwrap_or(crate::ids::Side::A);
    let mut chargers: Vec<UnitId> = game
        .units
        .iter()
        .filter(|u| {
            u.status == UnitStatus::OnTable
                && u.charge
                    .as_ref()
                    .is_some_and(|c| !c.contact && !c.countercharge)
        })
        .map(|u| u.id)
        .collect();
    chargers.sort_by_key(|u| (game.unit(*u).side != first, u.0));
    for charger in chargers {
        let Some(state) = game.unit(charger).charge.clone() else {
            continue;
        };
        if state.contact {
            continue;
        }
        let target = state.target;
        // The countercharger of this pair moves too (BFS-CHG-22).
        let counter = game
            .units
            .iter()
            .find(|o| {
                o.charge
                    .as_ref()
                    .is_some_and(|c| c.countercharge && c.target == charger && !c.contact)
            })
            .map(|o| o.id);
        let scene = geo::scene(game);
        if game.unit(target).status != UnitStatus::OnTable
            || !sight::sees(game, &scene, charger, target, Some(VisionArc::All360))
        {
            // The target has gone from view: the charge becomes a Move order, no test (BFS-CHG-10, AMB-30).
            let u = game.unit_mut(charger);
            u.charge = None;
            u.order = Some(OrderKind::Move);
            events.push(Event::OrderChanged {
                unit: charger,
                from: Some(OrderKind::Charge),
                to: Some(OrderKind::Move),
                rule: "BFS-CHG-10".into(),
                reason: "its target left its field of vision".into(),
            });
            continue;
        }
        let add = game.unit_profile(charger).movement.additional;
        let reached = match counter {
            Some(cc) => {
                countercharge_part(game, charger, cc, true, events);
                game.unit(charger)
                    .charge
                    .as_ref()
                    .is_some_and(|c| c.contact)
            }
            None if add > 0.0 => charge_part(game, charger, add, ChargePart::Additional, events),
            None => false,
        };
        if !reached {
            failed_charge(game, charger, events);
        }
    }
}

/// A charger that fails to reach the enemy takes a Skill test (a Morale test under the
/// `failed_charge_test` option, AMB-10). Fail: Disorganized, and cavalry withdraws. Pass: keeps
/// its Charge order and Impetus into the next turn against the same target (BFS-CHG-24).
fn failed_charge(game: &mut Game, charger: UnitId, events: &mut Vec<Event>) {
    let p = game.unit_profile(charger);
    let (base, kind, rule) = match game.info.options.failed_charge_test {
        crate::options::FailedChargeTest::Skill => (p.skill as i32, TestKind::Skill, "BFS-CHG-24"),
        crate::options::FailedChargeTest::Morale => {
            (p.morale as i32, TestKind::Morale, "BFS-CHG-24")
        }
    };
    let roll = TestRoll::roll(base, Vec::new(), &mut game.dice, 10);
    let passed = roll.passed;
    let outcome = if passed {
        "passed: it keeps its Charge order and Impetus into the next turn".to_string()
    } else {
        "failed: the unit is Disorganized".to_string()
    };
    events.push(Event::Test(TestReport {
        unit: Some(charger),
        commander: None,
        kind,
        rule: rule.into(),
        cause: "the charge failed to reach the enemy".into(),
        roll,
        outcome,
    }));
    if passed {
        if let Some(cs) = game.unit_mut(charger).charge.as_mut() {
            cs.carried_over = true;
        }
    } else {
        let target = game.unit(charger).charge.as_ref().map(|c| c.target);
        game.unit_mut(charger).charge = None;
        let enemies: Vec<UnitId> = target.into_iter().collect();
        flight::apply_level(
            game,
            charger,
            MoraleLevel::Disorganized,
            "failed charge",
            Some(&enemies),
            events,
        );
    }
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
