//! The Caracole (BFS-SPC-4, rules revision 13): cavalry with the rule and a Defense order, in at
//! least two ranks on open ground or fields and not Disorganized, declares it in its Movement
//! Phase instead of moving. Its first rank rides straight forward up to 10 cm, a normal move with
//! no turn or maneuver; it fires in Defender's Fire, and the second and third ranks fire in
//! Shooting after Movement from the first rank's ranges (the book does not move them up, and
//! neither does Sandtable), with no −1 for that stage. While it caracoles, fire at it is at −1 as
//! at Open Order, its range measured to the first rank ([`shot_at`]), and the ground its first rank rode across is held as the unit's: no other unit
//! may end a move in it, nor an enemy within 2 cm of it. After the Combat Phase the first rank
//! rides back.
//!
//! A charge declared at it calls the first rank back at once, and the unit then fires only that
//! rank this turn, in Defender's Fire; if the charge still reaches it, it fights that combat as
//! Disorganized, with Poor Tactical Discipline (not a Disorganization of its Morale). A unit
//! made to withdraw or flee calls its first rank back first.
//!
//! Not played: the interruption by a charge at another unit that could touch the caracoling one
//! on its way; a path (not only a move's end) through the ground the first rank left, and so a
//! fleeing unit or a charge at another unit ending there (the first rank then cannot ride back,
//! and the ranks behind close up on it instead).

use crate::event::Event;
use crate::ids::UnitId;
use crate::profile::SpecialRule;
use crate::state::{Formation, Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_geometry::movement::Body;
use sandtable_geometry::{Rect, Scene};
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
    /// The first rank was called back this turn: by a charge, a withdrawal or a flight.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    /// It was a charge at the unit: if it reaches it, the unit fights as Disorganized.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub charged: bool,
}

fn rules_apply(game: &Game) -> bool {
    crate::revision::special_rules_13(game.info.options.rules_revision)
}

/// May `unit` caracole at all now, whatever the distance: the rule, its side's Movement Phase,
/// not yet acted, a Defense order, good order, not in contact, a Line or Column at least 2 ranks
/// deep, on open ground or fields?
fn check_unit(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if !rules_apply(game) || !p.has(SpecialRule::Caracole) || !p.is_mounted() {
        return refuse(format!(
            "{} has no Caracole, or the battle was recorded before the rule was played.",
            u.name
        ));
    }
    crate::phases::movement::acting_unit(game, unit)?;
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
    if !crate::flight::enemies_in_contact(game, unit).is_empty() || u.garrison.is_some() {
        return refuse(format!(
            "{} is in contact with the enemy: it cannot caracole.",
            u.name
        ));
    }
    if !matches!(u.formation, Formation::Close { .. })
        || crate::moves::close_order(&u.bases, &u.name).is_err()
        || crate::shooting::ranks::ranks(game, unit).len() < 2
    {
        return refuse(format!(
            "{} must stand in a Line or Column at least 2 ranks deep to caracole.",
            u.name
        ));
    }
    if !crate::ground::footing_of(game, &u.bases).open_or_fields() {
        return refuse(format!(
            "{} must stand on open ground or fields to caracole.",
            u.name
        ));
    }
    Ok(())
}

/// The ground a first-rank base crosses riding from `home` to `out`: one rectangle from the
/// back of the one to the front of the other.
fn swept(home: &Rect, out: &Rect) -> Rect {
    let centre = (home.center() + out.center()) * 0.5;
    let run = home.center().distance(out.center());
    Rect::new(
        sandtable_geometry::Pose::new(centre, home.pose.angle),
        sandtable_geometry::Vec2::new(home.half.x, home.half.y + run * 0.5),
    )
}

/// The first rank ridden `distance` cm out, checked as a move: friends and enemies block its
/// path (it passes through nothing), the ground it crosses is open or fields, and it ends where
/// a move may end. Returns the unit's bases as they would stand and the first rank's indices.
fn ride(
    game: &Game,
    scene: &Scene,
    unit: UnitId,
    distance: f32,
) -> Result<(Vec<Rect>, Vec<usize>), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let u = game.unit(unit);
    if !distance.is_finite() || distance <= 0.0 || distance > MAX_CM + 1e-4 {
        return refuse(format!(
            "The first rank rides out more than 0 and at most {MAX_CM} cm."
        ));
    }
    let first = crate::shooting::front_rank(game, unit);
    let moving: Vec<Rect> = first.iter().map(|&i| u.bases[i]).collect();
    let delta = crate::geo::frame_of(&u.bases).facing() * distance;
    let blockers = crate::moves::obstacles(game, unit, crate::moves::ENEMY_GAP_CM);
    let out = sandtable_geometry::movement::move_along(
        scene,
        &Body::new(crate::geo::frame_of(&moving), &moving),
        delta,
        &blockers,
    )
    .map_err(|e| RuleError::new(RULE, format!("The ride cannot be measured: {e}")))?;
    if out.travelled < distance - crate::moves::EPS {
        return refuse(format!(
            "The first rank of {} is blocked after {:.1} cm: it rides through nothing.",
            u.name, out.travelled
        ));
    }
    let mut bases = u.bases.clone();
    for &i in &first {
        bases[i] = bases[i].translated(delta);
    }
    let path: Vec<Rect> = first
        .iter()
        .map(|&i| swept(&u.bases[i], &bases[i]))
        .collect();
    if !crate::ground::footing_of(game, &path).open_or_fields() {
        return refuse(format!(
            "The first rank of {} would ride over ground that is not open ground or fields.",
            u.name
        ));
    }
    crate::moves::check_final_position(game, scene, unit, &bases)?;
    Ok((bases, first))
}

/// May `unit` caracole, its first rank riding `distance` cm forward? Returns the unit's bases as
/// they would stand and the indices of the first rank.
pub fn plan(
    game: &Game,
    unit: UnitId,
    distance: f32,
) -> Result<(Vec<Rect>, Vec<usize>), RuleError> {
    check_unit(game, unit)?;
    ride(game, &crate::geo::scene(game), unit, distance)
}

/// The longest ride out the menu and the computer offer: 10 cm, or the most of 7.5, 5 and 2.5 cm
/// that is legal when something stands in the way.
pub fn offered_distance(game: &Game, unit: UnitId) -> Option<f32> {
    check_unit(game, unit).ok()?;
    let scene = crate::geo::scene(game);
    [MAX_CM, 7.5, 5.0, 2.5]
        .into_iter()
        .find(|&d| ride(game, &scene, unit, d).is_ok())
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
        charged: false,
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

/// The bases enemy fire measures its range to: the first rank while it is out (all of it lost,
/// the rest), else every base.
pub fn shot_at(game: &Game, unit: UnitId) -> Vec<Rect> {
    let u = game.unit(unit);
    let out: Vec<Rect> = match u.caracole.as_ref().filter(|c| !c.interrupted) {
        Some(c) => u
            .bases
            .iter()
            .filter(|b| {
                c.out
                    .iter()
                    .any(|o| o.center().distance(b.center()) < SAME_PLACE_CM)
            })
            .copied()
            .collect(),
        None => Vec::new(),
    };
    if out.is_empty() { u.bases.clone() } else { out }
}

/// May this unit fire a second volley this turn, its rear ranks' in Shooting after Movement: the
/// caracole not interrupted, the unit still in good order?
pub fn fires_twice(game: &Game, unit: UnitId) -> bool {
    riding_out(game, unit) && game.unit(unit).morale == MoraleLevel::Good
}

/// Does the unit fight this combat as Disorganized, with Poor Tactical Discipline: its caracole
/// was interrupted by a charge that reached it all the same?
pub fn disordered(game: &Game, unit: UnitId) -> bool {
    game.unit(unit).caracole.as_ref().is_some_and(|c| c.charged)
}

/// Does the unit fight as Disorganized: its Morale Level says so, or its caracole was
/// interrupted by a charge (BFS-PSY-6, BFS-SPC-4)?
pub fn fights_disorganized(game: &Game, unit: UnitId) -> bool {
    game.unit(unit).morale == MoraleLevel::Disorganized || disordered(game, unit)
}

/// Brings the first rank back to where it stood: each base still standing where the caracole
/// left it returns home. If something stands there now (a fleeing unit, a charge at another
/// unit, which the gap does not stop), the ranks behind close up on the first rank instead, and
/// if that too is blocked the unit stays as it is.
fn ride_back(game: &mut Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    let Some(c) = u.caracole.clone() else {
        return false;
    };
    let which: Vec<(usize, usize)> = u
        .bases
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            c.out
                .iter()
                .position(|o| o.center().distance(b.center()) < SAME_PLACE_CM)
                .map(|k| (i, k))
        })
        .collect();
    if which.is_empty() {
        return false;
    }
    if which.iter().all(|&(_, k)| free(game, unit, &c.home[k])) {
        let u = game.unit_mut(unit);
        for (i, k) in which {
            u.bases[i] = c.home[k];
        }
        return true;
    }
    let delta = c.out[0].center() - c.home[0].center();
    let rear: Vec<usize> = (0..u.bases.len())
        .filter(|i| !which.iter().any(|(w, _)| w == i))
        .collect();
    let moved: Vec<Rect> = rear.iter().map(|&i| u.bases[i].translated(delta)).collect();
    if moved.iter().all(|r| free(game, unit, r)) {
        let u = game.unit_mut(unit);
        for (i, r) in rear.into_iter().zip(moved) {
            u.bases[i] = r;
        }
        return true;
    }
    false
}

/// A charge is declared at the unit (`charged`), or it must withdraw or flee: a caracole in
/// progress stops and the first rank rides back.
pub fn interrupt(game: &mut Game, unit: UnitId, charged: bool, events: &mut Vec<Event>) {
    if !riding_out(game, unit) {
        return;
    }
    ride_back(game, unit);
    if let Some(c) = game.unit_mut(unit).caracole.as_mut() {
        c.interrupted = true;
        c.charged = charged;
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

/// Would `mover`, its bases moving from `before` to `after`, end in the ground a caracoling
/// unit's first rank rode across (held as that unit's: from the second rank to the first), or,
/// for an enemy, within 2 cm of it when it was not already that close? Returns the caracoling
/// unit.
pub fn holds_the_gap(
    game: &Game,
    mover: UnitId,
    before: &[Rect],
    after: &[Rect],
) -> Option<UnitId> {
    if !game.units.iter().any(|u| u.caracole.is_some()) {
        return None;
    }
    let side = game.unit(mover).side;
    let near = |bases: &[Rect], gap: &[Rect]| {
        sandtable_geometry::distance::set_distance(bases, gap)
            .is_ok_and(|d| d < crate::moves::ENEMY_GAP_CM - crate::moves::EPS)
    };
    game.units
        .iter()
        .filter(|u| u.id != mover && u.status == UnitStatus::OnTable)
        .find(|u| {
            let Some(c) = u.caracole.as_ref().filter(|c| !c.interrupted) else {
                return false;
            };
            let gap: Vec<Rect> = c
                .home
                .iter()
                .zip(&c.out)
                .map(|(h, o)| swept(h, o))
                .collect();
            let inside = after.iter().any(|a| {
                gap.iter()
                    .any(|g| sandtable_engine::scenario_check::rects_overlap(g, a))
            });
            inside || (u.side != side && near(after, &gap) && !near(before, &gap))
        })
        .map(|u| u.id)
}

/// Is `rect` clear of every other unit's bases and of every commander on the table?
fn free(game: &Game, unit: UnitId, rect: &Rect) -> bool {
    !crate::charge_move::overlaps_anyone(game, unit, std::slice::from_ref(rect))
        && game
            .commanders
            .iter()
            .filter(|c| c.status == UnitStatus::OnTable && c.attached_to.is_none())
            .all(|c| !sandtable_engine::scenario_check::rects_overlap(&c.base, rect))
}

/// The second and third ranks of a caracoling unit, front first: the bases that did not ride
/// out, by rank.
fn rear_ranks(game: &Game, unit: UnitId) -> Vec<Vec<usize>> {
    let u = game.unit(unit);
    let Some(c) = u.caracole.as_ref() else {
        return Vec::new();
    };
    let out = |b: &Rect| {
        c.out
            .iter()
            .any(|o| o.center().distance(b.center()) < SAME_PLACE_CM)
    };
    // The unit's ranks as volleys count them, less the one that rode out.
    crate::shooting::ranks::ranks(game, unit)
        .into_iter()
        .filter(|rank| rank.iter().all(|&i| !out(&u.bases[i])))
        .collect()
}

/// The rear volley: for each first-rank base that fires, the bases of the second and third ranks
/// behind it, each with that base's band and range (BFS-SPC-4: ranges from the first rank).
pub fn rear_followers<B: Copy>(
    game: &Game,
    unit: UnitId,
    firing: &[(usize, B, f32)],
) -> Vec<(usize, B, f32)> {
    rear_ranks(game, unit)
        .iter()
        .take(2)
        .flat_map(|rank| crate::shooting::ranks::followers(game, unit, rank, firing))
        .collect()
}
