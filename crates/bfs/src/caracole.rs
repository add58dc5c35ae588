//! The Caracole (BFS-SPC-4, rules revision 13): cavalry with the rule and a Defense order, in at
//! least two ranks on open ground or fields and not Disorganized, declares it in its Movement
//! Phase instead of moving. Its first rank rides straight forward up to 10 cm, a normal move with
//! no turn or maneuver; it fires in Defender's Fire, and the second and third ranks fire in
//! Shooting after Movement from the first rank's ranges (the book does not move them up, and
//! neither does Sandtable), with no −1 for that stage. While it caracoles, fire at it is at −1 as
//! at Open Order, and no other unit may end a move in the place its first rank left. After the
//! Combat Phase the first rank rides back.
//!
//! A charge declared at it calls the first rank back at once, and the unit then fires only that
//! rank this turn, in Defender's Fire; if the charge still reaches it, it fights that combat as
//! Disorganized, with Poor Tactical Discipline (not a Disorganization of its Morale). A unit
//! made to withdraw or flee calls its first rank back first.
//!
//! Not played: the interruption by a charge at another unit that could touch the caracoling one
//! on its way, and a path (not only a move's end) through the place the first rank left.

use crate::event::Event;
use crate::ids::UnitId;
use crate::profile::SpecialRule;
use crate::shooting::FireStage;
use crate::state::{Formation, Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_geometry::Rect;
use sandtable_geometry::movement::Body;
use serde::{Deserialize, Serialize};

const RULE: &str = "BFS-SPC-4";

/// How far the first rank rides out, at most (cm).
pub const MAX_CM: f32 = 10.0;

/// How close a base must stand to where the caracole left it to count as that base (cm).
const SAME_PLACE_CM: f32 = 0.01;

/// A caracole in progress: where each base of the first rank stood and where it rode to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Caracole {
    pub home: Vec<Rect>,
    pub out: Vec<Rect>,
    /// A charge at the unit called the first rank back this turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

fn rules_apply(game: &Game) -> bool {
    crate::revision::special_rules_13(game.info.options.rules_revision)
}

/// May `unit` caracole, its first rank riding `distance` cm forward? Returns the unit's bases as
/// they would stand and the indices of the first rank.
pub fn plan(
    game: &Game,
    unit: UnitId,
    distance: f32,
) -> Result<(Vec<Rect>, Vec<usize>), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    crate::phases::movement::acting_unit(game, unit)?;
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if !rules_apply(game) || !p.has(SpecialRule::Caracole) || !p.is_mounted() {
        return refuse(format!("{} has no Caracole.", u.name));
    }
    if u.flags.activated || u.caracole.is_some() {
        return refuse(format!(
            "{} has acted this phase: the caracole is its whole move.",
            u.name
        ));
    }
    if u.order != Some(OrderKind::Defense) {
        return refuse(format!("{} needs a Defense order to caracole.", u.name));
    }
    if u.morale != MoraleLevel::Good {
        return refuse(format!("{} is Disorganized: it cannot caracole.", u.name));
    }
    if !matches!(u.formation, Formation::Close { .. })
        || crate::shooting::ranks::ranks(game, unit).len() < 2
    {
        return refuse(format!(
            "{} must stand in Close Order, at least 2 ranks deep, to caracole.",
            u.name
        ));
    }
    if !crate::ground::footing_of(game, &u.bases).open_or_fields() {
        return refuse(format!(
            "{} must stand on open ground or fields to caracole.",
            u.name
        ));
    }
    if !distance.is_finite() || distance <= 0.0 || distance > MAX_CM + 1e-4 {
        return refuse(format!(
            "The first rank rides out more than 0 and at most {MAX_CM} cm."
        ));
    }
    let first = crate::shooting::front_rank(game, unit);
    let moving: Vec<Rect> = first.iter().map(|&i| u.bases[i]).collect();
    let frame = crate::geo::frame_of(&u.bases);
    let delta = frame.facing() * distance;
    let scene = crate::geo::scene(game);
    let passing = crate::moves::obstacles_passing(game, unit);
    let out = sandtable_geometry::movement::move_along(
        &scene,
        &Body::new(crate::geo::frame_of(&moving), &moving),
        delta,
        &passing,
    )
    .map_err(|e| RuleError::new(RULE, format!("The ride cannot be measured: {e}")))?;
    if out.travelled < distance - crate::moves::EPS {
        return refuse(format!(
            "The first rank of {} is blocked after {:.1} cm.",
            u.name, out.travelled
        ));
    }
    let mut bases = u.bases.clone();
    for &i in &first {
        bases[i] = bases[i].translated(delta);
    }
    crate::moves::check_final_position(game, &scene, unit, &bases)?;
    if !crate::ground::footing_of(game, &bases).open_or_fields() {
        return refuse(format!(
            "The first rank of {} would ride off open ground and fields.",
            u.name
        ));
    }
    Ok((bases, first))
}

/// The longest ride out the menu and the computer offer: 10 cm, or the most of 7.5, 5 and 2.5 cm
/// that is legal when something stands in the way.
pub fn offered_distance(game: &Game, unit: UnitId) -> Option<f32> {
    [MAX_CM, 7.5, 5.0, 2.5]
        .into_iter()
        .find(|&d| plan(game, unit, d).is_ok())
}

/// Declares the caracole: the first rank rides out, and the unit has acted this phase.
pub fn declare(
    game: &mut Game,
    unit: UnitId,
    distance: f32,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let (bases, first) = plan(game, unit, distance)?;
    let u = game.unit_mut(unit);
    let home: Vec<Rect> = first.iter().map(|&i| u.bases[i]).collect();
    let out: Vec<Rect> = first.iter().map(|&i| bases[i]).collect();
    u.bases = bases;
    u.caracole = Some(Caracole {
        home,
        out,
        interrupted: false,
    });
    u.flags.activated = true;
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{} caracoles: its first rank rides {distance:.1} cm out to fire in Defender's Fire, the ranks behind fire after movement; fire at it is at −1 until the first rank rides back after the Combat Phase.",
            u.name
        ),
    });
    Ok(())
}

/// Is the unit caracoling now, its first rank out?
pub fn riding_out(game: &Game, unit: UnitId) -> bool {
    game.unit(unit)
        .caracole
        .as_ref()
        .is_some_and(|c| !c.interrupted)
}

/// Fire at a caracoling unit is at −1, as at Open Order.
pub fn counts_as_open(game: &Game, unit: UnitId) -> bool {
    riding_out(game, unit)
}

/// Do the second and third ranks fire this stage, from the first rank's ranges: Shooting after
/// Movement, the caracole not interrupted, the unit still in good order?
pub fn rear_ranks_fire(game: &Game, unit: UnitId, stage: FireStage) -> bool {
    stage == FireStage::AfterMovement
        && riding_out(game, unit)
        && game.unit(unit).morale == MoraleLevel::Good
}

/// May this unit fire a second volley this turn (the rear ranks' one)?
pub fn fires_twice(game: &Game, unit: UnitId) -> bool {
    riding_out(game, unit) && game.unit(unit).morale == MoraleLevel::Good
}

/// Does the unit fight this combat as Disorganized, with Poor Tactical Discipline: its caracole
/// was interrupted by a charge that reached it all the same?
pub fn disordered(game: &Game, unit: UnitId) -> bool {
    game.unit(unit)
        .caracole
        .as_ref()
        .is_some_and(|c| c.interrupted)
}

/// Brings the first rank back to where it stood: each base still standing where the caracole
/// left it returns home.
fn ride_back(game: &mut Game, unit: UnitId) -> bool {
    let u = game.unit_mut(unit);
    let Some(c) = u.caracole.as_ref() else {
        return false;
    };
    let mut moved = false;
    for b in u.bases.iter_mut() {
        if let Some(k) = c
            .out
            .iter()
            .position(|o| o.center().distance(b.center()) < SAME_PLACE_CM)
        {
            *b = c.home[k];
            moved = true;
        }
    }
    moved
}

/// A charge is declared at the unit, or it must withdraw or flee: a caracole in progress stops
/// and the first rank rides back.
pub fn interrupt(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) {
    if !riding_out(game, unit) {
        return;
    }
    ride_back(game, unit);
    if let Some(c) = game.unit_mut(unit).caracole.as_mut() {
        c.interrupted = true;
    }
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{}'s caracole is interrupted: the first rank rides back, and only it fires this turn.",
            game.unit(unit).name
        ),
    });
}

/// After the Combat Phase every caracole ends: the first ranks still out ride back.
pub fn end_all(game: &mut Game, events: &mut Vec<Event>) {
    let ids: Vec<UnitId> = game
        .units
        .iter()
        .filter(|u| u.caracole.is_some())
        .map(|u| u.id)
        .collect();
    for id in ids {
        let out = riding_out(game, id) && game.unit(id).status == UnitStatus::OnTable;
        if out && ride_back(game, id) {
            events.push(Event::Ruling {
                rule: RULE.into(),
                text: format!(
                    "{}'s first rank rides back after the caracole.",
                    game.unit(id).name
                ),
            });
        }
        game.unit_mut(id).caracole = None;
    }
}

/// Does `rect` stand in the place a caracoling unit's first rank left (held as that unit's)?
/// `mover` is the unit whose move ends there.
pub fn in_a_vacated_place(game: &Game, mover: UnitId, rect: &Rect) -> Option<UnitId> {
    game.units
        .iter()
        .filter(|u| u.id != mover)
        .find(|u| {
            u.caracole.as_ref().is_some_and(|c| {
                !c.interrupted
                    && c.home
                        .iter()
                        .any(|h| sandtable_engine::scenario_check::rects_overlap(h, rect))
            })
        })
        .map(|u| u.id)
}
