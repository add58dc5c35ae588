//! Elite Cavalry (BFS-SPC-10): cavalry deployed and fighting in Close Order that moves and
//! marches like an Open Order unit (rules revision 13).
//!
//! - **Moving.** A Line or Column of it is planned by the Open Order planner
//!   ([`crate::open_order_move`]): each base keeps its own account against the Move, wheels and
//!   turns cost only the path of the corners, no maneuver is counted, and the unit may shift any
//!   way or re-form base by base. The move must leave it in Close Order again ([`close_files`]).
//!   A turn turns each base about its centre and sends it straight to its place in the unit
//!   turned about its middle; a change of frontage sets each base straight at its new place, the
//!   base nearest the middle of the front staying put (the book's Example 1); each path is
//!   checked, and friends crossed test as for any close-order unit. It marches as an Open Order
//!   unit does, from any Line or Column. A unit out of its ranks moves by the close-order rules,
//!   which make it Reform first.
//! - **Under fire while charging.** A unit holding a Charge order is shot at −1, as if it were
//!   in Open Order, until it enters the First Round of close combat (so also by its target's
//!   Defender's Fire); its Impetus is at most +1.
//! - **Charging base by base.** The charge runs as a Close Order charge does (wheel, straight
//!   run, alignment on the edge struck), so that one that reaches nothing keeps the unit's
//!   frontage, as the book's charge without contact does. Once it strikes, its bases close in as
//!   Open Order ones would ([`close_in`]): as many abreast as can touch part of the edge, none
//!   by a corner only, the rest behind, each going straight from where the move began within
//!   its Move (the book's example: 3 bases against a front of 2).
//! - **The Close Order charge.** In its Movement Phase, before it charges, or in the enemy's,
//!   before it answers a charge with a countercharge, its owner may declare that it charges as
//!   a Close Order unit this turn ([`declare_close_charge`]): no −1 against fire, +2 Impetus, and
//!   the block strikes as it stands.
//!
//! Bases that cannot get to their places in the Movement Phase close in with the Additional Move
//! ([`close_in_additional`], the book's Example 3).
//!
//! Not played yet: each base's own straight run at an enemy base (the closing in is judged once
//! the block has struck, all bases or none in one move); the Close Order charge declared again
//! before the Additional Move.

use crate::event::Event;
use crate::ids::UnitId;
use crate::profile::{SpecialRule, UnitProfile};
use crate::state::{Formation, Game, OrderKind};
use sandtable_engine::RuleError;
use sandtable_geometry::Rect;

const RULE: &str = "BFS-SPC-10";

/// Does the profile carry the rule?
pub fn is_elite(p: &UnitProfile) -> bool {
    p.special_rules.contains(&SpecialRule::EliteCavalry)
}

fn rules_apply(game: &Game) -> bool {
    crate::revision::special_rules_13(game.info.options.rules_revision)
        && crate::open_order::rules_apply(game)
}

/// Is this an Elite Cavalry unit in a Line or Column, which moves base by base as Open Order
/// does and must end its move in Close Order? A unit out of its ranks (after an alignment, say)
/// moves by the close-order rules, which make it Reform first.
pub fn moves_base_by_base(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    rules_apply(game)
        && is_elite(game.unit_profile(unit))
        && matches!(u.formation, Formation::Close { .. })
        && crate::moves::close_order(&u.bases, &u.name).is_ok()
}

/// The files of the Close Order formation `bases` stand in (a Line or Column as BFS-FRM-6
/// recognises one, [`crate::moves::close_order`]); `Err` says the move would not end in one.
pub fn close_files(name: &str, bases: &[Rect]) -> Result<u8, RuleError> {
    crate::moves::close_order(bases, name)
        .map(|o| o.frame.files as u8)
        .map_err(|_| {
            RuleError::new(
                RULE,
                format!(
                    "{name} would not end its move in Close Order: Elite Cavalry moves base by base, but every base must stand again in a Line or Column, touching and facing one way."
                ),
            )
        })
}

/// The places of `bases` turned `theta` radians about the middle of their frame, as one block:
/// the same Line or Column, facing the new way.
pub fn turned_as_block(bases: &[Rect], theta: f32) -> Vec<Rect> {
    let middle = crate::geo::frame_of(bases).center();
    bases
        .iter()
        .map(|b| b.rotated_about(middle, theta))
        .collect()
}

/// For each base, the place of `places` it takes, the shortest moves first
/// ([`crate::reform::nearest_free`]); a base left without one keeps `usize::MAX`.
pub fn nearest_places(bases: &[Rect], places: &[Rect]) -> Vec<usize> {
    let mut to = vec![usize::MAX; bases.len()];
    for (k, who) in crate::reform::nearest_free(bases, places, None)
        .into_iter()
        .enumerate()
    {
        if let Some(i) = who {
            to[i] = k;
        }
    }
    to
}

/// Does this Elite Cavalry unit charge as Open Order does, base by base: no Close Order charge
/// declared?
pub fn charges_base_by_base(game: &Game, unit: UnitId) -> bool {
    rules_apply(game)
        && is_elite(game.unit_profile(unit))
        && !game.unit(unit).flags.close_order_charge
        && game.unit(unit).bases.len() > 1
}

/// How many bases of `width` can touch part of an edge `length` long, none by a corner only: the
/// outermost must still overlap it, so `n × width < length + 2 × width` (the book's example: 3
/// bases of 4 cm at a front of two such bases, not 4).
pub fn bases_that_fit(length: f32, width: f32) -> usize {
    if width <= 0.0 {
        return 1;
    }
    (((length + 2.0 * width - 0.01) / width).floor() as usize).max(1)
}

/// Elite Cavalry closing in as Open Order charges do (BFS-SPC-10), once its charge has struck
/// `struck`'s `edge` and aligned on it: its bases re-form in a Line on that edge, as many abreast
/// as can touch part of it (none by a corner, [`bases_that_fit`]), centred on it, the rest in
/// ranks behind; each base goes straight from where the charge part began (`start`) to its
/// place, within `budget`. Returns the new bases (in the unit's order) and the files, or `None`
/// when that brings no more bases into contact than the close-order charge did, or some base
/// cannot get to its place.
pub fn close_in(
    game: &Game,
    unit: UnitId,
    start: &[Rect],
    charged: &[Rect],
    struck: UnitId,
    edge: sandtable_geometry::Edge,
    budget: f32,
) -> Option<(Vec<Rect>, u8)> {
    let first = charged.first()?;
    let target = crate::geo::frame_of(&game.unit(struck).bases);
    let seg = target.edge(edge);
    let size = first.size();
    let n = start.len();
    let files = bases_that_fit(seg.length(), size.x).min(n);
    let on_edge = |b: &Rect| {
        let t = (seg.b - seg.a).normalize_or_zero();
        let (c, h) = (t.dot(b.center() - seg.a), b.half.x);
        let overlap = (c + h).min(seg.length()) - (c - h).max(0.0);
        let touching = sandtable_geometry::distance::set_distance(
            std::slice::from_ref(b),
            &game.unit(struck).bases,
        )
        .is_ok_and(|d| d <= 0.05);
        touching && overlap > 0.01
    };
    let before = charged.iter().filter(|b| on_edge(b)).count();
    if files <= before {
        return None;
    }
    let slots = crate::deploy::deployment_rects(
        crate::scenario_spec::FormationSpec::Line { files: files as u8 },
        n as u8,
        (size.x, size.y),
        seg.midpoint(),
        sandtable_geometry::Pose::new(sandtable_geometry::Vec2::ZERO, first.pose.angle)
            .bearing_deg(),
    );
    let to = nearest_places(charged, &slots);
    let mut out = charged.to_vec();
    for (i, &k) in to.iter().enumerate() {
        let place = *slots.get(k)?;
        if start[i].center().distance(place.center()) > budget + crate::moves::EPS {
            return None;
        }
        out[i] = place;
    }
    let clear = !crate::charge_move::overlaps_anyone(game, unit, &out);
    let gained = out.iter().filter(|b| on_edge(b)).count();
    (clear && gained > before).then_some((out, files as u8))
}

/// The Additional Move of Elite Cavalry already in contact: bases that could not close in during
/// the Movement Phase go on now, as far as the Additional Move takes them (the book's Example 3:
/// two bases in contact after the Movement Phase, the third joins them in the Additional Move).
pub fn close_in_additional(game: &mut Game, events: &mut Vec<Event>) {
    let ready: Vec<(UnitId, UnitId, sandtable_geometry::Edge)> = game
        .units
        .iter()
        .filter(|u| u.status == crate::state::UnitStatus::OnTable)
        .filter_map(|u| {
            let c = u.charge.as_ref()?;
            (c.contact && !c.pursuit).then_some((u.id, c.target, c.struck?))
        })
        .filter(|(u, _, _)| charges_base_by_base(game, *u))
        .collect();
    for (unit, target, edge) in ready {
        if game.unit(target).status != crate::state::UnitStatus::OnTable {
            continue;
        }
        let add = game.unit_profile(unit).movement.additional;
        if add <= 0.0 {
            continue;
        }
        let scene = crate::geo::scene(game);
        let budget = crate::charge_reach::terrain_budget(
            game,
            &scene,
            unit,
            target,
            add,
            true,
            &mut Vec::new(),
        );
        let bases = game.unit(unit).bases.clone();
        let Some((closed, files)) = close_in(game, unit, &bases, &bases, target, edge, budget)
        else {
            continue;
        };
        let moved = bases
            .iter()
            .zip(&closed)
            .map(|(a, b)| a.center().distance(b.center()))
            .fold(0.0f32, f32::max);
        let u = game.unit_mut(unit);
        u.bases = closed;
        u.formation = Formation::Close { files };
        events.push(Event::ChargeMoved {
            unit,
            distance_cm: moved,
            contact: Some(target),
            description: format!(
                "Additional Move: the bases that could not close in do so now, {files} abreast, none touching by a corner only (Elite Cavalry, BFS-SPC-10)"
            ),
        });
    }
}

/// Is the unit an Elite Cavalry unit holding a Charge order that charges as Open Order does
/// (no Close Order charge declared)?
fn open_style_charger(game: &Game, unit: UnitId) -> bool {
    charges_base_by_base(game, unit) && game.unit(unit).order == Some(OrderKind::Charge)
}

/// Is the unit shot at −1 as if in Open Order: Elite Cavalry holding a Charge order, no Close
/// Order charge declared, not yet in the First Round of close combat? A charge that made contact
/// in the Movement Phase is still shielded from its target's Defender's Fire, which comes
/// before the Close Combat stage (BFS-CBT-3).
pub fn shielded_from_fire(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    open_style_charger(game, unit)
        && !u.flags.fought
        && (u.charge.as_ref().is_some_and(|c| c.contact)
            || crate::flight::enemies_in_contact(game, unit).is_empty())
}

/// The Impetus an Elite Cavalry unit charges with, given what its Move would give it: +2 when it
/// declared a Close Order charge, else no more than +1. Other units keep `bonus`.
pub fn impetus(game: &Game, unit: UnitId, bonus: i32) -> i32 {
    if !rules_apply(game) || !is_elite(game.unit_profile(unit)) {
        return bonus;
    }
    if game.unit(unit).flags.close_order_charge {
        2
    } else {
        bonus.min(1)
    }
}

/// May the owner declare a Close Order charge for this unit now: an Elite Cavalry unit in a Line
/// or Column holding a Charge order, before it charges or moves (a charge carried over from the
/// last turn may be declared so again), in its side's Movement Phase or, before it answers an
/// enemy charge, in the enemy's, for its countercharge?
pub fn check_close_charge(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    if !answering_a_charge(game, unit) {
        crate::phases::movement::acting_unit(game, unit)?;
    }
    let u = game.unit(unit);
    if !rules_apply(game) || !is_elite(game.unit_profile(unit)) {
        return refuse(format!(
            "{} is not Elite Cavalry, or the battle was recorded before the rule was played.",
            u.name
        ));
    }
    if !matches!(u.formation, Formation::Close { .. }) {
        return refuse(format!(
            "{} is not in Close Order: it cannot charge as a Close Order unit.",
            u.name
        ));
    }
    if u.order != Some(OrderKind::Charge) {
        return refuse(format!("{} holds no Charge order.", u.name));
    }
    if u.flags.close_order_charge {
        return refuse(format!(
            "{} has declared its Close Order charge this turn.",
            u.name
        ));
    }
    if u.flags.activated || u.charge.as_ref().is_some_and(|c| !c.carried_over) {
        return refuse(format!(
            "{} has charged or moved: the Close Order charge is declared at the start of the Movement Phase.",
            u.name
        ));
    }
    Ok(())
}

/// Is the unit the one asked now to answer an enemy charge (so it may countercharge)?
fn answering_a_charge(game: &Game, unit: UnitId) -> bool {
    match &game.turn.phase {
        crate::turn::Phase::Movement {
            charge: Some(pc), ..
        } => pc.commander.is_none() && pc.next_reactor() == Some(unit),
        _ => false,
    }
}

/// Declares that the unit charges as a Close Order unit this turn.
pub fn declare_close_charge(
    game: &mut Game,
    unit: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_close_charge(game, unit)?;
    game.unit_mut(unit).flags.close_order_charge = true;
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{} will charge as a Close Order unit this turn: +2 Impetus, and no −1 to the enemy's fire at it.",
            game.unit(unit).name
        ),
    });
    Ok(())
}
