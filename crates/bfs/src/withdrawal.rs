//! Withdrawing through friends (BFS-PSY-18): a withdrawing unit passes through friendly units
//! when neither it nor they are Disorganized, and must get clear of them; otherwise it stops in
//! contact, and Disorganization may spread: a Disorganized unit that withdraws into a friend
//! makes the friend test Skill, and a unit that withdraws into a Disorganized friend tests
//! itself. Passing through, neither tests (BFS-AMV-3 names withdrawals as an exception).
//! Battles recorded before rules revision 3 stopped every withdrawal at the first friend.

use crate::event::Event;
use crate::geo::{self, frame_of};
use crate::ids::UnitId;
use crate::moves::{self, ENEMY_GAP_CM};
use crate::state::{Game, MoraleLevel, UnitStatus};
use sandtable_geometry::movement::{self, Blocker, Body, ObstacleFns};
use sandtable_geometry::scene::SceneBase;
use sandtable_geometry::{Rect, Vec2};

/// May `unit` withdraw through `friend` (BFS-PSY-18)? Neither may be Disorganized (nor fleeing).
pub fn may_pass(game: &Game, unit: UnitId, friend: UnitId) -> bool {
    game.unit(unit).morale == MoraleLevel::Good && game.unit(friend).morale == MoraleLevel::Good
}

/// How far `unit` withdraws along `dir` (up to `want` cm), and the friend it stopped against
/// when it could not pass. A pass must leave the unit clear of every friend; if it cannot, the
/// unit stops at the first friend in its way.
pub fn through_friends(game: &Game, unit: UnitId, dir: Vec2, want: f32) -> (f32, Option<UnitId>) {
    let bases = game.unit(unit).bases.clone();
    let scene = geo::scene(game);
    let body = Body::new(frame_of(&bases), &bases);
    let side = game.unit(unit).side.0;
    let inner = moves::obstacles(game, unit, ENEMY_GAP_CM);
    let terrain = inner.terrain;
    let base = inner.base;
    let passing = ObstacleFns {
        base: |b: &SceneBase| {
            if b.side == side
                && b.unit != geo::sid(unit)
                && may_pass(game, unit, UnitId(b.unit as u16))
            {
                None
            } else {
                base(b)
            }
        },
        terrain: &terrain,
        max_gap: inner.max_gap,
        legacy_corner_rounding: crate::revision::legacy_corner_rounding(
            game.info.options.rules_revision,
        ),
    };
    if let Ok(out) = movement::move_along(&scene, &body, dir * want, &passing) {
        let end: Vec<Rect> = bases.iter().map(|b| b.translated(out.delta)).collect();
        if clear_of_friends(game, unit, &end) {
            return (out.travelled, stopped_by_friend(game, side, out.blocked));
        }
    }
    let strict = moves::obstacles(game, unit, ENEMY_GAP_CM);
    match movement::move_along(&scene, &body, dir * want, &strict) {
        Ok(out) => (out.travelled, stopped_by_friend(game, side, out.blocked)),
        Err(_) => (0.0, None),
    }
}

/// The friendly unit a withdrawal was stopped by, if a friend stopped it.
fn stopped_by_friend(game: &Game, side: u8, blocked: Option<Blocker>) -> Option<UnitId> {
    match blocked {
        Some(Blocker::Base { unit, .. }) if game.units[unit as usize].side.0 == side => {
            Some(UnitId(unit as u16))
        }
        _ => None,
    }
}

fn clear_of_friends(game: &Game, unit: UnitId, bases: &[Rect]) -> bool {
    let side = game.unit(unit).side;
    !game
        .units
        .iter()
        .filter(|o| o.side == side && o.id != unit && o.status == UnitStatus::OnTable)
        .any(|o| {
            o.bases.iter().any(|ob| {
                bases
                    .iter()
                    .any(|b| sandtable_engine::scenario_check::rects_overlap(b, ob))
            })
        })
}

/// A withdrawal stopped against `friend`: if either is Disorganized, the other tests Skill and
/// is Disorganized on a failure (BFS-PSY-18).
pub fn spread_disorganization(
    game: &mut Game,
    unit: UnitId,
    friend: UnitId,
    events: &mut Vec<Event>,
) {
    let disorganized = |g: &Game, u: UnitId| g.unit(u).morale == MoraleLevel::Disorganized;
    let tester = if disorganized(game, unit) && game.unit(friend).morale == MoraleLevel::Good {
        friend
    } else if disorganized(game, friend) && game.unit(unit).morale == MoraleLevel::Good {
        unit
    } else {
        return;
    };
    let cause = if tester == friend {
        format!("{} withdrew into it Disorganized", game.unit(unit).name)
    } else {
        format!(
            "it withdrew into the Disorganized {}",
            game.unit(friend).name
        )
    };
    crate::skill::test_or_disorganized(game, tester, "BFS-PSY-18", cause, events);
}
