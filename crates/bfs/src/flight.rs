//! Units running away: fleeing (BFS-PSY-9..14), withdrawing (BFS-PSY-15..20), leaving the table
//! (BFS-PSY-21), and re-forming after a rally from flight (BFS-RAL-6).
//!
//! Simplifications, listed in docs/rules-coverage.md: a fleeing or withdrawing unit turns as a
//! rigid body about its centre instead of re-arranging its bases; flight ignores terrain slowing;
//! fleeing units pass through friends (who test Morale) but never go around them.

use crate::event::{Event, TestKind};
use crate::geo::{self, frame_of};
use crate::ids::UnitId;
use crate::morale::{self, MoraleCause};
use crate::moves::{self, ENEMY_GAP_CM};
use crate::state::{Formation, Game, MoraleLevel, UnitStatus};
use sandtable_geometry::movement::{self, Body, ObstacleFns};
use sandtable_geometry::scene::SceneBase;
use sandtable_geometry::terrain::TerrainPiece;
use sandtable_geometry::{Pose, Rect, Vec2};

/// How far a unit flees in the Movement Phase: Basic + Additional Move; infantry without an
/// Additional Move flees 15 cm as if it had 10/+5 (BFS-PSY-11).
pub fn flight_distance(game: &Game, unit: UnitId) -> f32 {
    let m = game.unit_profile(unit).movement;
    if m.additional > 0.0 {
        m.basic + m.additional
    } else {
        m.basic * 1.5
    }
}

/// The table vector from a unit towards `from`'s opposite: away from the enemy units given, or
/// towards its own edge when there are none (BFS-PSY-9, BFS-PSY-15).
pub fn away_from(game: &Game, unit: UnitId, enemies: &[UnitId]) -> Vec2 {
    let c = game.unit(unit).centroid();
    let mut v = Vec2::ZERO;
    for e in enemies {
        let d = c - game.unit(*e).centroid();
        if d.length() > 1e-4 {
            v += d.normalize();
        }
    }
    if v.length() < 1e-4 {
        moves::toward_home(game, game.unit(unit).side)
    } else {
        v.normalize()
    }
}

/// Turns all the unit's bases, as one body about its centre, to face `dir`.
fn face(bases: &[Rect], dir: Vec2) -> Vec<Rect> {
    let frame = frame_of(bases);
    let theta = sandtable_geometry::pose::signed_angle(frame.facing(), dir);
    bases
        .iter()
        .map(|b| b.rotated_about(frame.center(), theta))
        .collect()
}

/// A fleeing unit's bases turned to `dir`. The unit turns as a block; where that would swing a
/// base into ground impassable to it (found by the property tests), the bases turn about their
/// own centres as Open Order allows (BFS-OO-3), and where even that would not do, they run as
/// they stand (rules revision 3; before it the block turn stood).
fn face_clear(game: &Game, unit: UnitId, dir: Vec2) -> Vec<Rect> {
    let bases = &game.unit(unit).bases;
    let block = face(bases, dir);
    if !crate::open_order::rules_apply(game) {
        return block;
    }
    let clear = |bs: &[Rect]| crate::ground::impassable_under(game, unit, bs).is_none();
    if clear(&block) {
        return block;
    }
    let angle = block.first().map_or(0.0, |b| b.pose.angle);
    let each: Vec<Rect> = bases
        .iter()
        .map(|b| Rect::new(sandtable_geometry::Pose::new(b.center(), angle), b.half))
        .collect();
    if clear(&each) { each } else { bases.clone() }
}

/// How far the bases can travel along `dir` before any part of them crosses the table edge.
pub(crate) fn room_to_edge(game: &Game, bases: &[Rect], dir: Vec2) -> f32 {
    let t = game.info.table;
    let mut room = f32::INFINITY;
    for b in bases {
        for c in b.corners() {
            for (p, d, lo, hi) in [(c.x, dir.x, 0.0, t.x), (c.y, dir.y, 0.0, t.y)] {
                if d > 1e-6 {
                    room = room.min((hi - p) / d);
                } else if d < -1e-6 {
                    room = room.min((p - lo) / -d);
                }
            }
        }
    }
    room.max(0.0)
}

/// Makes a unit flee: face `dir` (free), Open Order (free), then run `distance` (BFS-PSY-9/11).
/// Bases that touch an enemy or end within 2 cm of one are destroyed (BFS-PSY-12); bases that
/// cross the table edge have fled the field (BFS-PSY-21); friends run through test Morale.
pub fn flee(
    game: &mut Game,
    unit: UnitId,
    dir: Vec2,
    distance: f32,
    reason: &str,
    events: &mut Vec<Event>,
) {
    if crate::artillery::crew_destroyed(game, unit, reason, events) {
        return;
    }
    // A caracole's first rank rides back before the unit runs (BFS-SPC-4).
    crate::caracole::interrupt(game, unit, false, events);
    if crate::building::in_building(game, unit) {
        crate::building::losses_instead(game, unit, MoraleLevel::Flight, events);
        return;
    }
    // A War Wagon Train never flees (BFS-WAG-17); a wagon cannot run.
    if crate::wagon::any_wagon(game, unit) {
        return;
    }
    let side = game.unit(unit).side;
    let was = game.unit(unit).morale;
    {
        let u = game.unit_mut(unit);
        u.morale = MoraleLevel::Flight;
        u.order = None;
        u.pending_order = None;
        u.charge = None;
        u.formation = Formation::OpenOrder;
        u.flags.fled_this_step = true;
    }
    // Lances are lost when their unit flees (BFS-CCW-7).
    if game.unit_profile(unit).melee.stats().single_use {
        game.unit_mut(unit).lances_broken = true;
    }
    if was != MoraleLevel::Flight {
        events.push(Event::MoraleChanged {
            unit,
            from: was,
            to: MoraleLevel::Flight,
            rule: "BFS-PSY-9".into(),
            reason: reason.into(),
        });
    }
    crate::portable::drop_carried(game, unit, events);
    let turned = face_clear(game, unit, dir);
    game.unit_mut(unit).bases = turned.clone();
    let travelled = {
        let scene = geo::scene(game);
        let obs = flee_obstacles(game, unit);
        let body = Body::new(frame_of(&turned), &turned);
        movement::move_along(&scene, &body, dir * distance, &obs).map_or(0.0, |o| o.travelled)
    };
    let mut moved: Vec<Rect> = turned
        .iter()
        .map(|b| b.translated(dir * travelled))
        .collect();
    let mut travelled = travelled;
    // A fleeing unit must get completely past friends it runs through, going on up to 1.5 × its
    // Move; bases that still cannot clear them are lost as fled (BFS-PSY-13).
    let limit = 1.5 * game.unit_profile(unit).movement.basic.max(distance / 1.5);
    let friends: Vec<Rect> = game
        .units
        .iter()
        .filter(|o| o.side == side && o.id != unit && o.status == UnitStatus::OnTable)
        .flat_map(|o| o.bases.iter().copied())
        .collect();
    let overlaps_friend = |b: &Rect| {
        friends
            .iter()
            .any(|f| sandtable_engine::scenario_check::rects_overlap(b, f))
    };
    while moved.iter().any(overlaps_friend) && travelled + 0.5 <= limit {
        travelled += 0.5;
        moved = turned
            .iter()
            .map(|b| b.translated(dir * travelled))
            .collect();
    }
    let mut squeezed_out = 0u32;
    moved.retain(|b| {
        let stuck = overlaps_friend(b);
        squeezed_out += stuck as u32;
        !stuck
    });

    // Friends run through test Morale (BFS-PSY-3, BFS-PSY-11).
    let swept: Vec<Rect> = turned
        .iter()
        .map(|b| swept_rect(b, dir, travelled))
        .collect();
    let passed: Vec<UnitId> = game
        .units
        .iter()
        .filter(|o| o.side == side && o.id != unit && o.status == UnitStatus::OnTable)
        .filter(|o| {
            o.bases.iter().any(|ob| {
                swept
                    .iter()
                    .any(|s| sandtable_engine::scenario_check::rects_overlap(s, ob))
            })
        })
        .map(|o| o.id)
        .collect();

    // Destroyed: touching an enemy, or ending within 2 cm of one (BFS-PSY-12).
    let enemies: Vec<Rect> = game
        .units
        .iter()
        .filter(|o| o.side != side && o.status == UnitStatus::OnTable)
        .flat_map(|o| o.bases.iter().copied())
        .collect();
    let near_enemy = |b: &Rect| {
        !enemies.is_empty()
            && sandtable_geometry::distance::set_distance(std::slice::from_ref(b), &enemies)
                .unwrap_or(f32::INFINITY)
                < ENEMY_GAP_CM - 1e-3
    };
    let t = game.info.table;
    let off = |b: &Rect| {
        b.corners()
            .iter()
            .any(|c| c.x < 0.0 || c.y < 0.0 || c.x > t.x || c.y > t.y)
    };
    let (mut kept, mut destroyed, mut left) = (Vec::new(), 0u32, 0u32);
    for b in &moved {
        if off(b) {
            left += 1;
        } else if near_enemy(b) {
            destroyed += 1;
        } else {
            kept.push(*b);
        }
    }
    left += squeezed_out;
    let first_left = left > 0 && game.unit(unit).bases_fled == 0;
    {
        let u = game.unit_mut(unit);
        u.bases = kept;
        u.bases_destroyed += destroyed as u8;
        u.bases_fled += left as u8;
        if u.bases.is_empty() {
            u.status = if left > 0 {
                UnitStatus::Left
            } else {
                UnitStatus::Destroyed
            };
        }
        if u.bases.is_empty() || destroyed > 0 || left > 0 {
            u.casualty_markers = 0;
        }
    }
    events.push(Event::Fled {
        unit,
        distance_cm: travelled,
        bases_destroyed: destroyed,
        bases_left_table: left,
        reason: reason.into(),
    });
    match game.unit(unit).status {
        UnitStatus::Left => events.push(Event::UnitLeftTable { unit }),
        UnitStatus::Destroyed => events.push(Event::UnitDestroyed {
            unit,
            rule: "BFS-PSY-12".into(),
            reason: "its fleeing bases ran into the enemy".into(),
        }),
        UnitStatus::OnTable | UnitStatus::Reserve => {}
    }
    if first_left {
        nearest_friend_tests(game, unit, events);
    }
    for f in passed {
        let cause = MoraleCause::Other {
            rule: "BFS-PSY-3",
            reason: format!("{} fled through it", game.unit(unit).name),
        };
        test_and_apply(game, f, &cause, events);
    }
}

/// The whole rectangle a base covers moving `t` along `dir`.
fn swept_rect(b: &Rect, dir: Vec2, t: f32) -> Rect {
    let along = dir.dot(b.facing()).abs() > 0.5;
    let half = if along {
        b.half + Vec2::new(0.0, t * 0.5)
    } else {
        b.half + Vec2::new(t * 0.5, 0.0)
    };
    Rect::new(Pose::new(b.center() + dir * t * 0.5, b.pose.angle), half)
}

fn flee_obstacles<'a>(
    game: &'a Game,
    unit: UnitId,
) -> ObstacleFns<impl Fn(&SceneBase) -> Option<f32> + 'a, impl Fn(&TerrainPiece) -> Option<f32> + 'a>
{
    let side = game.unit(unit).side.0;
    let profile = game.unit_profile(unit);
    ObstacleFns {
        // Friends are run through; the first enemy touched stops the flight.
        base: move |b: &SceneBase| if b.side == side { None } else { Some(0.0) },
        terrain: move |t: &TerrainPiece| {
            let kind = game.terrain.get(t.id as usize).map(|p| p.kind)?;
            (geo::terrain_class(kind, profile) == geo::TerrainClass::Impassable).then_some(0.0)
        },
        max_gap: 0.0,
        legacy_corner_rounding: crate::revision::legacy_corner_rounding(
            game.info.options.rules_revision,
        ),
    }
}

/// When the first base of a unit leaves the table, the closest friendly unit within 40 cm tests
/// Morale (BFS-PSY-21).
fn nearest_friend_tests(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) {
    let side = game.unit(unit).side;
    let c = game.unit(unit).centroid();
    let here = Rect::new(Pose::new(c, 0.0), Vec2::splat(0.01));
    let closest = game
        .units_on_table(side)
        .filter(|o| o.id != unit)
        .map(|o| {
            (
                o.id,
                sandtable_geometry::distance::set_distance(std::slice::from_ref(&here), &o.bases)
                    .unwrap_or(f32::INFINITY),
            )
        })
        .filter(|(_, d)| *d <= 40.0)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((f, _)) = closest {
        let cause = MoraleCause::Other {
            rule: "BFS-PSY-21",
            reason: format!("{} left the battlefield", game.unit(unit).name),
        };
        test_and_apply(game, f, &cause, events);
    }
}

/// A Morale test outside combat with its consequences: a unit in Flight flees again; a unit that
/// drops to Disorganized loses its order (cavalry withdraws); to Flight it flees.
pub fn test_and_apply(game: &mut Game, unit: UnitId, cause: &MoraleCause, events: &mut Vec<Event>) {
    // Wagons have no crew: no Morale test touches them (BFS-WAG-1).
    if game.unit(unit).status != UnitStatus::OnTable || crate::wagon::crewless(game, unit) {
        return;
    }
    if game.unit(unit).morale == MoraleLevel::Flight {
        let dir = moves::toward_home(game, game.unit(unit).side);
        events.push(Event::Ruling {
            rule: "BFS-PSY-14".into(),
            text: format!(
                "{} is already fleeing: the test counts as failed and it flees again.",
                game.unit(unit).name
            ),
        });
        let d = game.unit_profile(unit).movement.basic;
        flee(
            game,
            unit,
            dir,
            d,
            "a failed Morale test while fleeing",
            events,
        );
        return;
    }
    let roll = morale::morale_test(game, unit, cause);
    // A train's crews lose Strength instead (BFS-WAG-17).
    if crate::wagon::train::is_train(game, unit) {
        let levels = morale::levels_lost(&roll);
        let outcome = match levels {
            0 => "passed: no effect",
            1 => "failed: 1 crew SP lost",
            _ => "failed by 5 or more: 2 crew SP lost",
        };
        events.push(morale::report(
            unit,
            TestKind::Morale,
            cause,
            roll,
            outcome.into(),
        ));
        crate::wagon::train::morale_losses(game, unit, levels, events);
        return;
    }
    let to = morale::level_after(game, unit, &roll);
    let from = game.unit(unit).morale;
    let outcome = match to {
        l if l == from => "passed: no effect".to_string(),
        MoraleLevel::Disorganized => "failed: Disorganized".into(),
        _ => "failed: Flight".into(),
    };
    events.push(morale::report(unit, TestKind::Morale, cause, roll, outcome));
    crate::turn_one::fatigue_markers_lost(game, unit, from, to, events);
    apply_level(game, unit, to, "a failed Morale test", None, events);
}

/// Puts a unit at a new Morale Level with the level's immediate effects (BFS-PSY-6, BFS-PSY-9).
/// `enemies` are the units that caused it, for the direction of flight or withdrawal.
pub fn apply_level(
    game: &mut Game,
    unit: UnitId,
    to: MoraleLevel,
    reason: &str,
    enemies: Option<&[UnitId]>,
    events: &mut Vec<Event>,
) {
    let from = game.unit(unit).morale;
    if to <= from || crate::wagon::crewless(game, unit) {
        return;
    }
    // A train never flees nor is Disorganized: its crews lose Strength (BFS-WAG-17).
    if crate::wagon::train::is_train(game, unit) {
        let levels = (to as u8).saturating_sub(from as u8);
        crate::wagon::train::morale_losses(game, unit, levels, events);
        return;
    }
    if crate::artillery::crew_destroyed(game, unit, reason, events) {
        return;
    }
    // A garrison never Disorganizes nor flees: it loses SP instead (BFS-PSY-8).
    if crate::building::in_building(game, unit) {
        crate::building::losses_instead(game, unit, to, events);
        return;
    }
    let dir = away_from(game, unit, enemies.unwrap_or(&[]));
    match to {
        MoraleLevel::Disorganized => {
            let u = game.unit_mut(unit);
            u.morale = MoraleLevel::Disorganized;
            let old = u.order.take();
            u.pending_order = None;
            u.charge = None;
            events.push(Event::MoraleChanged {
                unit,
                from,
                to,
                rule: "BFS-PSY-6".into(),
                reason: reason.into(),
            });
            if old.is_some() {
                events.push(Event::OrderChanged {
                    unit,
                    from: old,
                    to: None,
                    rule: "BFS-PSY-6".into(),
                    reason: "a Disorganized unit loses its order".into(),
                });
            }
            if game.unit_profile(unit).is_mounted() {
                crate::portable::drop_carried(game, unit, events);
                // Still in contact with the enemies that caused it: it lost a close combat.
                let engaged = enemies_in_contact(game, unit);
                let lost_combat = enemies.is_some_and(|e| e.iter().any(|x| engaged.contains(x)));
                let reason = "Disorganized cavalry must withdraw (BFS-PSY-6)";
                if lost_combat {
                    withdraw_after_loss(game, unit, dir, reason, events);
                } else {
                    withdraw(game, unit, dir, reason, events);
                }
            }
        }
        MoraleLevel::Flight => {
            let d = game.unit_profile(unit).movement.basic;
            flee(game, unit, dir, d, reason, events);
        }
        MoraleLevel::Good => {}
    }
}

/// Withdraws a unit half its Basic Move along `dir`, keeping its facing, stopping 2 cm from any
/// enemy and at the table edge (BFS-PSY-15, BFS-PSY-19, BFS-PSY-21). Loses its order unless it
/// was Defense. Returns the distance moved.
pub fn withdraw(
    game: &mut Game,
    unit: UnitId,
    dir: Vec2,
    reason: &str,
    events: &mut Vec<Event>,
) -> f32 {
    let half = game.unit_profile(unit).movement.basic * 0.5;
    withdraw_by(game, unit, dir, half, reason, events)
}

/// The withdrawal of a unit that lost a close combat: half its Basic Move, or the whole of it
/// for Light Cavalry (BFS-SPC-16; rules revision 6).
pub fn withdraw_after_loss(
    game: &mut Game,
    unit: UnitId,
    dir: Vec2,
    reason: &str,
    events: &mut Vec<Event>,
) -> f32 {
    let basic = game.unit_profile(unit).movement.basic;
    let light = crate::revision::special_rules_6(game.info.options.rules_revision)
        && game.unit_profile(unit).light_cavalry();
    let d = if light { basic } else { basic * 0.5 };
    withdraw_by(game, unit, dir, d, reason, events)
}

/// How far a withdrawal of `unit` along `dir` of up to `distance` cm gets (the table edge, the
/// enemy's 2 cm, friends it cannot pass), and the friend that stopped it, if one did.
pub(crate) fn withdrawal_reach(
    game: &Game,
    unit: UnitId,
    dir: Vec2,
    distance: f32,
) -> (f32, Option<UnitId>) {
    let bases = game.unit(unit).bases.clone();
    let want = distance.min(room_to_edge(game, &bases, dir));
    if crate::open_order::rules_apply(game) {
        let (t, stopped) = crate::withdrawal::through_friends(game, unit, dir, want);
        if !crate::revision::withdrawal_never_ends_on_a_unit(game.info.options.rules_revision) {
            return (t, stopped);
        }
        not_on_a_unit(game, unit, &bases, dir, t, stopped)
    } else {
        let scene = geo::scene(game);
        let obs = moves::obstacles(game, unit, ENEMY_GAP_CM);
        let body = Body::new(frame_of(&bases), &bases);
        let t = movement::move_along(&scene, &body, dir * want, &obs).map_or(0.0, |o| o.travelled);
        (t, None)
    }
}

/// A withdrawal of `t` cm along `dir`, cut short where it would end on another unit's bases: the
/// cast that moves it sees a unit it starts touching, by rounding a hair inside, only as one it
/// leaves, and a tilted edge can then take it in (a Cossack banner sliding 2.9 cm along the
/// Pancerni banner that withdrew into it, found by the property tests at 3 000 games; rules
/// revision 16). The longest clear stretch is found by halving; a unit that stands on another
/// already moves as far as it was going to. The unit cut short by a friend was stopped by it.
fn not_on_a_unit(
    game: &Game,
    unit: UnitId,
    bases: &[Rect],
    dir: Vec2,
    t: f32,
    stopped: Option<UnitId>,
) -> (f32, Option<UnitId>) {
    let on = |d: f32| {
        let end: Vec<Rect> = bases.iter().map(|b| b.translated(dir * d)).collect();
        game.units
            .iter()
            .filter(|o| o.id != unit && o.status == UnitStatus::OnTable)
            .find(|o| {
                o.bases.iter().any(|b| {
                    end.iter()
                        .any(|e| sandtable_engine::scenario_check::rects_overlap(e, b))
                })
            })
            .map(|o| o.id)
    };
    let Some(other) = on(t) else {
        return (t, stopped);
    };
    if t <= 0.0 || on(0.0).is_some() {
        return (t, stopped);
    }
    let (mut clear, mut blocked) = (0.0f32, t);
    for _ in 0..24 {
        let mid = 0.5 * (clear + blocked);
        if on(mid).is_some() {
            blocked = mid;
        } else {
            clear = mid;
        }
    }
    let friend = game.unit(other).side == game.unit(unit).side;
    (clear, stopped.or(friend.then_some(other)))
}

/// [`withdraw`] over `distance` cm, the distance the rule in force gives.
fn withdraw_by(
    game: &mut Game,
    unit: UnitId,
    dir: Vec2,
    distance: f32,
    reason: &str,
    events: &mut Vec<Event>,
) -> f32 {
    crate::caracole::interrupt(game, unit, false, events);
    let bases = game.unit(unit).bases.clone();
    // A garrison never withdraws (BFS-PSY-8), nor does a War Wagon Train (BFS-WAG-17).
    if bases.is_empty()
        || crate::building::in_building(game, unit)
        || crate::wagon::train::is_train(game, unit)
    {
        return 0.0;
    }
    let (travelled, stopped_by) = withdrawal_reach(game, unit, dir, distance);
    let u = game.unit_mut(unit);
    u.bases = bases
        .iter()
        .map(|b| b.translated(dir * travelled))
        .collect();
    u.flags.withdrew = true;
    let old = u.order;
    if old != Some(crate::state::OrderKind::Defense) && old.is_some() {
        u.order = None;
        u.charge = None;
        events.push(Event::OrderChanged {
            unit,
            from: old,
            to: None,
            rule: "BFS-PSY-15".into(),
            reason: "a unit that withdraws loses its order (unless Defense)".into(),
        });
    }
    events.push(Event::Withdrew {
        unit,
        distance_cm: travelled,
        reason: reason.into(),
    });
    if let Some(friend) = stopped_by {
        crate::withdrawal::spread_disorganization(game, unit, friend, events);
    }
    travelled
}

/// Re-forms a unit rallied from flight (BFS-RAL-6): a Line around where it stands, facing the
/// way it faced, no base moving more than its Basic Move, every base more than 20 cm from the
/// enemy. Fails (with the reason) when that is impossible.
pub fn reform_after_rally(game: &mut Game, unit: UnitId) -> Result<(), String> {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    let n = u.bases.len();
    if n == 0 {
        return Err("it has no bases left".into());
    }
    let files = (n.min(if p.is_mounted() { 3 } else { 4 })) as u8;
    // A unit that always fights in Open Order rallies into it (BFS-OO-1).
    let open = crate::open_order::rules_apply(game) && crate::open_order::always_open(p);
    let frame = frame_of(&u.bases);
    let (w, d) = p.base_size();
    let ranks = if open {
        1.0
    } else {
        n.div_ceil(files as usize) as f32
    };
    let front_mid = frame.center() + frame.facing() * (ranks * d * 0.5);
    let new = crate::deploy::deployment_rects(
        if open {
            crate::scenario_spec::FormationSpec::OpenOrder
        } else {
            crate::scenario_spec::FormationSpec::Line { files }
        },
        n as u8,
        (w, d),
        front_mid,
        sandtable_geometry::Pose::new(Vec2::ZERO, frame.pose.angle).bearing_deg(),
    );
    let old = u.bases.clone();
    for (b, a) in old.iter().zip(&new) {
        if b.center().distance(a.center()) > p.movement.basic + 1e-3 {
            return Err(format!(
                "a base would have to move more than its Move of {} cm",
                p.movement.basic
            ));
        }
    }
    let side = u.side;
    for e in game
        .units
        .iter()
        .filter(|o| o.side != side && o.status == UnitStatus::OnTable)
    {
        let dist =
            sandtable_geometry::distance::set_distance(&new, &e.bases).unwrap_or(f32::INFINITY);
        if dist <= 20.0 {
            return Err(format!(
                "it would stand {dist:.1} cm from {}, and every base must be more than 20 cm from the enemy",
                e.name
            ));
        }
    }
    // Nor on top of a friend (found by the property tests; battles before rules revision 2 did
    // not check it).
    if crate::revision::ground_rules(game.info.options.rules_revision)
        && let Some(f) = game.units.iter().find(|o| {
            o.id != unit
                && o.status == UnitStatus::OnTable
                && o.bases.iter().any(|b| {
                    new.iter()
                        .any(|n| sandtable_engine::scenario_check::rects_overlap(n, b))
                })
        })
    {
        return Err(format!("it would stand on top of {}", f.name));
    }
    if crate::revision::ground_rules(game.info.options.rules_revision)
        && let Some(kind) = crate::ground::impassable_under(game, unit, &new)
    {
        return Err(format!("it would stand in {kind:?}, impassable to it"));
    }
    let u = game.unit_mut(unit);
    u.bases = new;
    u.formation = if open {
        Formation::OpenOrder
    } else {
        Formation::Close { files }
    };
    Ok(())
}

/// Enemy units touching `unit` (BFS-CBT-1).
pub fn enemies_in_contact(game: &Game, unit: UnitId) -> Vec<UnitId> {
    let u = game.unit(unit);
    // The unit's own box once, not once for every enemy.
    let own = bounds(&u.bases);
    game.units
        .iter()
        .filter(|o| o.side != u.side && o.status == UnitStatus::OnTable)
        // Bounding boxes apart by more than the contact tolerance cannot touch: the common case,
        // and much cheaper than the exact distance (this runs for every unit at every stage).
        .filter(|o| boxes_within(own, bounds(&o.bases), 0.05))
        .filter(|o| {
            sandtable_geometry::distance::set_distance(&u.bases, &o.bases).is_ok_and(|d| d <= 0.05)
        })
        .map(|o| o.id)
        .collect()
}

/// The axis-aligned box around a set of bases.
fn bounds(rs: &[Rect]) -> (Vec2, Vec2) {
    rs.iter().fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(lo, hi), r| {
            let (l, h) = r.aabb();
            (lo.min(l), hi.max(h))
        },
    )
}

/// Do two axis-aligned boxes come within `gap` cm of each other?
fn boxes_within((alo, ahi): (Vec2, Vec2), (blo, bhi): (Vec2, Vec2), gap: f32) -> bool {
    alo.x <= bhi.x + gap && blo.x <= ahi.x + gap && alo.y <= bhi.y + gap && blo.y <= ahi.y + gap
}
