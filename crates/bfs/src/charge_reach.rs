//! How far a charge can go (BFS-CHG-6 item 7, BFS-CHG-13): the geometry parameters and
//! obstacles of a charge, which units on the way may be passed, whether a target is within reach
//! of the Basic or the Additional Move, and how terrain cuts the budget (BFS-TER-2/3). Shared by
//! the choice of targets ([`crate::charge`]) and the moves ([`crate::charge_move`]).

use crate::event::Event;
use crate::flight;
use crate::geo::{self, sid, unit_frame};
use crate::ids::UnitId;
use crate::moves;
use crate::profile::UnitKind;
use crate::state::{Game, MoraleLevel, OrderKind};
use sandtable_geometry::charge::{self as gcharge, ChargeParams};
use sandtable_geometry::movement::{Body, MoveCost, ObstacleFns};
use sandtable_geometry::scene::SceneBase;
use sandtable_geometry::terrain::TerrainPiece;
use sandtable_geometry::{Rect, Scene};

/// Cavalry needs this much ground between charger and target for Impetus (BFS-CC-14).
pub const IMPETUS_RUN_CM: f32 = 10.0;

/// The straight run Impetus counts after a charge part (BFS-CC-14): a wheel of more than half a
/// degree before a run shorter than 10 cm starts the count again; otherwise the run adds to the
/// distance already covered earlier in the charge.
pub fn impetus_run(before: f32, travelled: f32, wheel_deg: f32) -> f32 {
    if wheel_deg > 0.5 && travelled < IMPETUS_RUN_CM {
        travelled
    } else {
        before + travelled
    }
}

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
    // An Open Order unit reaches if any of its bases does (BFS-OO-7, BFS-OO-8).
    let open_order = crate::open_order_charge::applies(game, charger);
    let reaches_with = |budget: f32| {
        if open_order {
            crate::open_order_charge::any_base_reaches(game, scene, charger, target, budget)
        } else {
            simulate(game, scene, charger, target, budget).is_some_and(|o| o.contact.is_some())
        }
    };
    let reaches = if open_order {
        reaches_with(basic_budget)
    } else {
        basic.as_ref().is_some_and(|o| o.contact.is_some())
    };
    let reaches_with_additional = reaches || {
        let additional = additional_allowed(game, scene, charger, target, basic.as_ref(), m);
        let full_budget = terrain_budget(
            game,
            scene,
            charger,
            target,
            m.basic + additional,
            false,
            &mut quiet,
        );
        reaches_with(full_budget)
    };
    Reach {
        basic,
        reaches,
        reaches_with_additional,
    }
}

/// The Additional Move the charge will be allowed, as the charge itself caps it: +10 cm at most
/// for cavalry that sets out from a field, stands in one after its Basic Move, or would end in
/// one (BFS-TER-25/26, as [`field_budget`] rules when the move is made). Without this a preview
/// promised contact that the charge could never make.
fn additional_allowed(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    basic: Option<&gcharge::ChargeOutcome>,
    m: crate::profile::Movement,
) -> f32 {
    let bases = &game.unit(charger).bases;
    let after_basic: Vec<Rect> = match basic {
        Some(o) => bases.iter().map(|b| o.apply(b)).collect(),
        None => bases.clone(),
    };
    // As the charge's declaration records it (`ChargeState::through_field`).
    let sets_out_from_a_field = crate::ground::field_cap(game, charger, bases).is_some();
    let cap = field_cap_on_charge(game, charger, sets_out_from_a_field, &after_basic, || {
        end_of(game, scene, charger, target, m.basic + m.additional).map(|(end, _)| end)
    });
    match cap {
        Some((cap, _)) => m.additional.min(cap),
        None => m.additional,
    }
}

/// The field cap on a cavalry charge's Additional Move (BFS-TER-25/26), if one applies: it set
/// out from a field, stands in one now (`now`, its bases before the Additional Move), or would
/// end in one (`end`, asked only when the others do not apply). One rule for the move
/// ([`field_budget`]) and its preview ([`additional_allowed`]).
fn field_cap_on_charge(
    game: &Game,
    charger: UnitId,
    set_out_from_a_field: bool,
    now: &[Rect],
    end: impl FnOnce() -> Option<Vec<Rect>>,
) -> Option<(f32, &'static str)> {
    crate::ground::field_cap(game, charger, now)
        .or(set_out_from_a_field.then_some((crate::ground::FIELD_ADDITIONAL_CAP_CM, "BFS-TER-25")))
        .or_else(|| crate::ground::field_cap(game, charger, &end()?))
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
    simulate_body(
        game,
        scene,
        charger,
        target,
        &Body::new(unit_frame(u), &u.bases),
        budget,
    )
}

/// As [`simulate`] for some of the charger's bases (one base of an Open Order unit,
/// [`crate::open_order_charge`]).
pub fn simulate_body(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    body: &Body,
    budget: f32,
) -> Option<gcharge::ChargeOutcome> {
    gcharge::simulate_charge(
        scene,
        body,
        sid(charger),
        sid(target),
        &unit_frame(game.unit(target)),
        None,
        budget,
        &params(game),
        &charge_obstacles(game, charger),
    )
    .ok()
}

/// The order a unit really holds now: its face-down marker if it has one, else its revealed order.
pub fn effective_order(game: &Game, unit: UnitId) -> Option<OrderKind> {
    let u = game.unit(unit);
    u.pending_order.and_then(|p| p.kind).or(u.order)
}

/// Terrain slows a charge as any move (BFS-TER-2/3): once in difficult terrain the charger may
/// cover only half of this part's move, in very difficult terrain 5 cm, and a unit that starts in
/// very difficult terrain makes no Additional Move. Returns the budget the terrain allows.
pub fn terrain_budget(
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
    let budget = if additional {
        field_budget(game, scene, charger, target, budget, events)
    } else {
        budget
    };
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
    // Revision 14: the ground the charge's path meets on the way, not only where it ends.
    if crate::revision::ground_met_on_the_way(game.info.options.rules_revision) {
        return match simulate(game, scene, charger, target, budget) {
            Some(full) => path_budget(game, scene, charger, &full, budget, events),
            None => budget,
        };
    }
    // Where would the full move end? If there, the unit has entered slowing terrain.
    let Some((end, cost)) = end_of(game, scene, charger, target, budget) else {
        return budget;
    };
    match cap_for(geo::worst_class_under(game, &end, p)) {
        Some((cap, rule, why)) if cost > cap + 1e-3 => {
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

/// The budget the ground along a charge's path leaves it (BFS-TER-2/3, revision 14): the path
/// is the facing wheel, then straight on, as `full` (the charge with its whole `budget`) made
/// it. A charger that has moved more than the ground's cap when it reaches it stops at the
/// edge; one that reaches it sooner may go on to the cap. The tightest piece decides.
fn path_budget(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    full: &gcharge::ChargeOutcome,
    budget: f32,
    events: &mut Vec<Event>,
) -> f32 {
    let p = game.unit_profile(charger);
    let bases = &game.unit(charger).bases;
    let wheel_cost = (full.cost - full.travelled).max(0.0);
    let run = full.frame_after.facing() * full.travelled;
    let turned: Vec<Rect> = bases.iter().map(|b| full.wheel.apply(b)).collect();
    let mut tightest: Option<(f32, f32, f32, &'static str, &'static str)> = None;
    for piece in scene.terrain() {
        let Some(t) = game.terrain.get(piece.id as usize) else {
            continue;
        };
        let Some((cap, rule, why)) = geo::slowed_move(geo::terrain_class(t.kind, p), budget) else {
            continue;
        };
        let turning = piece
            .first_entry_turning_as(
                !crate::revision::sliver_met_at_once(game.info.options.rules_revision),
                bases,
                full.wheel.pivot,
                full.wheel.theta,
            )
            .map(|f| f * wheel_cost);
        let running = (full.travelled > 0.0)
            .then(|| piece.first_entry_moving(&turned, run))
            .flatten()
            .map(|f| wheel_cost + f * full.travelled);
        let entry = turning
            .into_iter()
            .chain(running)
            .fold(f32::INFINITY, f32::min);
        if !entry.is_finite() {
            continue;
        }
        let limit = if entry > cap + 1e-3 { entry } else { cap };
        if limit < full.cost - 1e-3 && tightest.is_none_or(|b| limit < b.0) {
            tightest = Some((limit, entry, cap, rule, why));
        }
    }
    let Some((limit, entry, cap, rule, why)) = tightest else {
        return budget;
    };
    let name = &game.unit(charger).name;
    events.push(Event::Ruling {
        rule: rule.into(),
        text: if entry > cap + 1e-3 {
            format!("{name} has moved {entry:.1} cm when it reaches {why}: it stops at the edge.")
        } else {
            format!("{name} charges into {why}: it stops after {cap:.1} cm.")
        },
    });
    limit
}

/// Where the charger's bases end if it spends `budget` on the charge, and what that costs.
fn end_of(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    budget: f32,
) -> Option<(Vec<Rect>, f32)> {
    let full = simulate(game, scene, charger, target, budget)?;
    let end = game
        .unit(charger)
        .bases
        .iter()
        .map(|b| full.apply(b))
        .collect();
    Some((end, full.cost))
}

/// Cavalry cannot build up speed through fields: its Additional Move stops at +10 cm
/// (BFS-TER-25/26), whether it set out from the field, stands in it or charges into it.
fn field_budget(
    game: &Game,
    scene: &Scene,
    charger: UnitId,
    target: UnitId,
    budget: f32,
    events: &mut Vec<Event>,
) -> f32 {
    let set_out_from_a_field = game
        .unit(charger)
        .charge
        .as_ref()
        .is_some_and(|c| c.through_field);
    let cap = field_cap_on_charge(
        game,
        charger,
        set_out_from_a_field,
        &game.unit(charger).bases,
        || end_of(game, scene, charger, target, budget).map(|(end, _)| end),
    );
    match cap {
        Some((cap, rule)) if budget > cap => {
            events.push(Event::Ruling {
                rule: rule.into(),
                text: format!(
                    "{} cannot build up speed through the field: its Additional Move stops at {cap:.0} cm.",
                    game.unit(charger).name
                ),
            });
            cap
        }
        _ => budget,
    }
}
