//! The Open Order charge, base by base (BFS-OO-7..10, BFS-OO-12): each base of an Open Order
//! charger charges as if it were a small close-order unit, all at one common target. Each makes
//! its own forward wheel and straight run, is judged on its own for the target's front, flank or
//! rear, and aligns on the edge it strikes; a base that touches another enemy first aligns on
//! that one (incidental contact, BFS-OO-9) while the others go on; bases not yet in contact after
//! the Movement Phase go on in the Additional Move, their edges judged again (BFS-OO-10); and a
//! base that finds no room beside the others, 0.5 cm from each, does not close (BFS-OO-12, C's
//! last base).
//!
//! Bases of the same unit pass through one another (BFS-OO-11), so each base's run ignores the
//! others; only where they end is checked. Readings: a base that can reach nothing keeps its
//! straight run towards the target (its curved path to keep formation, BFS-OO-8, is not drawn);
//! the unit's Impetus counts the run of its first base to strike the target. Battles recorded
//! before rules revision 4 charged in Open Order as one block.

use crate::charge_reach::{charge_obstacles, impetus_run, params};
use crate::event::Event;
use crate::geo::{sid, unit_frame};
use crate::ids::UnitId;
use crate::state::{Formation, Game, UnitStatus};
use sandtable_engine::scenario_check::rects_overlap;
use sandtable_geometry::charge::{self as gcharge, ChargeOutcome};
use sandtable_geometry::movement::Body;
use sandtable_geometry::{Edge, Rect, Scene};

/// Bases of an Open Order unit stay at least this far apart, also on contact (BFS-OO-2,
/// BFS-OO-7).
pub const MIN_GAP_CM: f32 = 0.5;
/// A base within this of an enemy base touches it.
const TOUCH_CM: f32 = 0.05;
/// A base that finds no room at the enemy stops this far short of where it met it.
const STOP_SHORT_CM: f32 = 1.0;

/// Does this charger charge base by base?
pub fn applies(game: &Game, charger: UnitId) -> bool {
    crate::revision::open_order_charge(game.info.options.rules_revision)
        && game.unit(charger).formation == Formation::OpenOrder
        && game.unit(charger).bases.len() > 1
}

/// Is this base touching an enemy base?
fn touching_enemy(game: &Game, charger: UnitId, base: &Rect) -> bool {
    let side = game.unit(charger).side;
    game.units
        .iter()
        .filter(|o| o.side != side && o.status == UnitStatus::OnTable)
        .flat_map(|o| o.bases.iter())
        .any(|eb| sandtable_geometry::distance::distance(base, eb).is_ok_and(|d| d <= TOUCH_CM))
}

/// Does any base of the unit still have an enemy to close with (some base in contact, some not)?
pub fn bases_still_charging(game: &Game, charger: UnitId) -> bool {
    applies(game, charger)
        && game
            .unit(charger)
            .bases
            .iter()
            .any(|b| !touching_enemy(game, charger, b))
}

/// One base's charge run at `target` for `budget` cm, as a one-base close-order unit.
fn run(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    base: &Rect,
    budget: f32,
) -> Option<ChargeOutcome> {
    let body = Body::new(*base, std::slice::from_ref(base));
    crate::charge_reach::simulate_body(game, scene, charger, target, &body, budget)
}

/// Can any base reach `target` with `budget` cm (BFS-OO-8: if none can, it is no target)?
pub fn any_base_reaches(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    budget: f32,
) -> bool {
    game.unit(charger).bases.iter().any(|b| {
        run(game, scene, charger, target, b, budget)
            .is_some_and(|o| o.contact.is_some_and(|c| c.unit == sid(target)))
    })
}

/// Where one base ends: its run, aligned on the edge it struck (judged from where the base
/// stands, BFS-OO-7), and the unit it touched with the edge.
fn place(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    base: &Rect,
    out: &ChargeOutcome,
    budget: f32,
) -> (Rect, Option<(UnitId, Edge)>) {
    let moved = out.apply(base);
    let Some(c) = out.contact else {
        return (moved, None);
    };
    let touched = UnitId(c.unit as u16);
    let tframe = unit_frame(game.unit(touched));
    let edge = gcharge::charge_zone(&tframe, base, params(game).zones)
        .ok()
        .flatten()
        .map(|z| z.edge())
        .unwrap_or(Edge::Front);
    let body = Body::new(moved, std::slice::from_ref(&moved));
    let aligned = sandtable_geometry::charge_align::align(
        scene,
        &body,
        c.point,
        tframe.edge_normal(edge),
        c.unit,
        (budget - out.cost).max(0.0),
        &params(game),
        &charge_obstacles(game, charger),
    )
    .ok()
    .map(|al| al.outcome.apply(&moved));
    (aligned.unwrap_or(moved), Some((touched, edge)))
}

/// Is `r` clear of the unit's bases already placed (0.5 cm) and of every other unit's?
fn room_for(game: &Game, charger: UnitId, placed: &[Rect], r: &Rect) -> bool {
    let apart = placed.iter().all(|p| {
        sandtable_geometry::distance::distance(p, r).is_ok_and(|d| d >= MIN_GAP_CM - 1e-3)
    });
    apart
        && game
            .units
            .iter()
            .filter(|o| o.id != charger && o.status == UnitStatus::OnTable)
            .flat_map(|o| o.bases.iter())
            .all(|b| !rects_overlap(b, r))
}

/// Where the bases of an Open Order charge end, and how it went.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub bases: Vec<Rect>,
    /// Bases that closed with an enemy in this part.
    pub closed: usize,
    /// Bases that met the enemy but found no room there.
    pub no_room: usize,
    /// Bases touching an enemy at the end.
    pub in_contact: usize,
    /// The longest run, cm.
    pub used: f32,
    /// The edge of the target the first base to reach it struck, its straight run and wheel (°).
    pub struck: Option<(Edge, f32, f32)>,
}

/// Plans one part of an Open Order charge at `target` with `budget` cm (the terrain already
/// counted): every base not yet touching an enemy runs, nearest first, since they take the
/// places at the target (BFS-OO-7..10, BFS-OO-12).
pub fn plan(game: &Game, scene: &Scene, charger: UnitId, target: UnitId, budget: f32) -> Plan {
    let bases = game.unit(charger).bases.clone();
    let mut order: Vec<usize> = (0..bases.len()).collect();
    let target_bases = &game.unit(target).bases;
    let gap = |b: &Rect| {
        sandtable_geometry::distance::set_distance(std::slice::from_ref(b), target_bases)
            .unwrap_or(f32::INFINITY)
    };
    order.sort_by(|a, b| gap(&bases[*a]).total_cmp(&gap(&bases[*b])).then(a.cmp(b)));
    let mut finals: Vec<Option<Rect>> = vec![None; bases.len()];
    let mut placed: Vec<Rect> = Vec::new();
    let mut struck: Option<(Edge, f32, f32)> = None;
    let (mut closed, mut no_room, mut used) = (0usize, 0usize, 0f32);
    for i in order {
        let b = bases[i];
        let out = if touching_enemy(game, charger, &b) {
            None
        } else {
            run(game, scene, charger, target, &b, budget)
        };
        let Some(out) = out else {
            finals[i] = Some(b);
            placed.push(b);
            continue;
        };
        let (end, hit) = place(game, scene, charger, &b, &out, budget);
        let moved = out.apply(&b);
        let end = if room_for(game, charger, &placed, &end) {
            if let Some((touched, edge)) = hit {
                closed += 1;
                if touched == target && struck.is_none() {
                    struck = Some((edge, out.travelled, out.wheel.theta.abs().to_degrees()));
                }
            }
            end
        } else {
            no_room += usize::from(hit.is_some());
            // No room at the target: it stops a little short of where its run met the enemy,
            // or, with no room there either, stays where it was. Stopping short backs the base
            // up, which its run never checked: not into ground impassable to it (found by the
            // property tests; battles before rules revision 16 did not check it).
            let short = moved.translated(-moved.facing() * STOP_SHORT_CM);
            let ground_clear =
                !crate::revision::small_steps_mind_impassable_ground(
                    game.info.options.rules_revision,
                ) || crate::ground::impassable_under(game, charger, std::slice::from_ref(&short))
                    .is_none();
            if ground_clear
                && !touching_enemy(game, charger, &short)
                && room_for(game, charger, &placed, &short)
            {
                short
            } else {
                b
            }
        };
        used = used.max(out.cost);
        finals[i] = Some(end);
        placed.push(end);
    }
    let bases: Vec<Rect> = finals
        .into_iter()
        .zip(&bases)
        .map(|(f, b)| f.unwrap_or(*b))
        .collect();
    let in_contact = bases
        .iter()
        .filter(|b| touching_enemy(game, charger, b))
        .count();
    Plan {
        bases,
        closed,
        no_room,
        in_contact,
        used,
        struck,
    }
}

/// One part of an Open Order charge at `target` with `budget` cm, the ground already counted
/// (BFS-OO-7..10): the [`plan`] carried out. Returns true when some base is in contact
/// afterwards.
pub fn charge_part(
    game: &mut Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    budget: f32,
    part: &str,
    events: &mut Vec<Event>,
) -> bool {
    let Plan {
        bases: new_bases,
        closed,
        no_room,
        in_contact,
        used,
        struck,
    } = plan(game, scene, charger, target, budget);
    let n = new_bases.len();
    {
        let u = game.unit_mut(charger);
        u.bases = new_bases;
        u.flags.moved = true;
        if let Some(cs) = u.charge.as_mut() {
            if let Some((edge, travelled, wheel_deg)) = struck {
                cs.contact = true;
                cs.struck = Some(edge);
                cs.straight_run = impetus_run(cs.straight_run, travelled, wheel_deg);
            } else if in_contact > 0 {
                cs.contact = true;
            }
        }
    }
    // A front struck by a unit holding an unused Charge order turns it into a Move order
    // (BFS-CHG-23).
    if struck.is_some_and(|(edge, _, _)| edge == Edge::Front)
        && crate::charge_move::effective_order_is_charge_unused(game, target)
    {
        game.unit_mut(target).flags.charged_in_front = true;
    }
    let name = game.unit(target).name.clone();
    let mut description = format!(
        "{part}, base by base in Open Order: {closed} of {n} base(s) closed with the enemy, {in_contact} now in contact with {name} or others"
    );
    if no_room > 0 {
        description.push_str(&format!(
            "; {no_room} found no room beside the others and did not close (BFS-OO-12)"
        ));
    }
    events.push(Event::ChargeMoved {
        unit: charger,
        distance_cm: used,
        contact: (in_contact > 0).then_some(target),
        description,
    });
    let after = game.unit(charger).bases.clone();
    crate::portable::caltrops_test(game, charger, &after, events);
    in_contact > 0
}
