//! Unexpected Reinforcements (BFS-SCN-32), an Additional Effect of the pre-battle sequence: every
//! unit the side loses (destroyed, or fled off the table) goes to its Reserves. In each
//! Reorganization Phase after turn 1's, each such unit takes a Skill test; one that passes
//! arrives in Column touching its own table edge with a Move order, as reserves do
//! (BFS-SCN-50). One unit returns per copy of the Effect. On its arrival, the closest enemy unit
//! within 40 cm that can see it (all round) takes a Morale test, unless the arriving unit is
//! smaller. A returned unit is not counted as lost unless it is lost again.
//!
//! Sandtable's reading, where the book is silent: the unit returns with the bases it had when
//! the battle began (less any lost on the march), in Good order, with no casualty marker.

use crate::event::Event;
use crate::ids::{Side, UnitId};
use crate::morale::MoraleCause;
use crate::profile::{SpecialRule, UnitKind};
use crate::scenario_spec::FormationSpec;
use crate::state::{Formation, Game, MoraleLevel, TurnFlags, UnitStatus};
use sandtable_engine::scenario::TableEdge;
use sandtable_geometry::{Rect, Vec2};

/// How far an enemy unit may be from the arriving unit and still take the test, cm.
pub const TEST_RANGE_CM: f32 = 40.0;

/// Whether the Effect may bring `unit` back: not wagons, rabble, guns or single-base companies
/// (BFS-SCN-32's note). A unit that returned and is lost again may return again, while copies
/// are left.
pub fn eligible(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    !matches!(p.kind, UnitKind::Wagon | UnitKind::Artillery)
        && !p.no_reserves
        && !p.has(SpecialRule::Rabble)
        && !p.has(SpecialRule::WarWagon)
        && u.bases_at_start > 1
        && u.manned_from.is_none()
}

/// The copies of the Effect `side` holds that have not yet brought a unit back.
pub fn copies_left(game: &Game, side: Side) -> usize {
    let held = game
        .info
        .pre_battle
        .unexpected_reinforcements
        .iter()
        .filter(|s| **s == side.index())
        .count();
    let used = game
        .info
        .reinforcements_returned
        .iter()
        .filter(|u| game.unit(**u).side == side)
        .count();
    held.saturating_sub(used)
}

/// The units of `side` waiting in Reserves under the Effect: lost, and eligible.
pub fn waiting(game: &Game, side: Side) -> Vec<UnitId> {
    game.units
        .iter()
        .filter(|u| u.side == side)
        .filter(|u| matches!(u.status, UnitStatus::Destroyed | UnitStatus::Left))
        .map(|u| u.id)
        .filter(|u| eligible(game, *u))
        .collect()
}

/// The Reorganization Phase's Skill tests (not in turn 1): each waiting unit tests until the
/// side's copies are used up; one that passes is made ready at its own table edge and joins the
/// reserves arriving.
pub fn reorganization(game: &mut Game, events: &mut Vec<Event>) {
    if game.info.pre_battle.unexpected_reinforcements.is_empty() || game.turn.number < 2 {
        return;
    }
    for side in Side::BOTH {
        for unit in waiting(game, side) {
            if copies_left(game, side) == 0 {
                break;
            }
            let name = game.unit(unit).name.clone();
            let passed = crate::skill::test(
                game,
                crate::skill::Tester::Unit(unit),
                Vec::new(),
                crate::skill::Test {
                    rule: "BFS-SCN-32",
                    cause: format!("Unexpected Reinforcements: {name} returns if it passes"),
                    passed: "passed: it arrives at its own table edge with a Move order",
                    failed: "failed: it stays in Reserves",
                },
                events,
            );
            if passed {
                make_ready(game, unit);
                game.info.reinforcements_returned.push(unit);
                game.arriving.push(unit);
            }
        }
    }
}

/// The unit as it marched onto the field, in Column touching its side's own table edge, held
/// in Reserve until the reserves arriving put it on the table.
fn make_ready(game: &mut Game, unit: UnitId) {
    let side = game.unit(unit).side;
    let edge = game.side(side).home_edge;
    let size = game.unit_profile(unit).base_size();
    let u = game.unit(unit);
    let n = u.bases_at_start.saturating_sub(u.march_losses).max(1);
    let bases = edge_column(game, edge, n, size, unit);
    // A unit that fled off the table cost its side the Enthusiasm marker for good
    // (BFS-SCN-27): its return does not bring the marker back.
    if game.unit(unit).bases_fled > 0 {
        game.info
            .pre_battle
            .enthusiasm
            .retain(|s| *s != side.index());
    }
    let u = game.unit_mut(unit);
    u.bases = bases;
    u.formation = Formation::Close { files: 1 };
    u.status = UnitStatus::Reserve;
    u.morale = MoraleLevel::Good;
    u.order = None;
    u.pending_order = None;
    u.casualty_markers = 0;
    u.bases_destroyed = u.march_losses;
    u.bases_fled = 0;
    u.cut_off = 0;
    u.attached = None;
    u.flags = TurnFlags::default();
    u.charge = None;
    u.garrison = None;
}

/// A Column of `n` bases with its rear on `edge`, facing into the table, at the first place
/// from the edge's middle outwards where no base stands.
fn edge_column(game: &Game, edge: TableEdge, n: u8, size: (f32, f32), unit: UnitId) -> Vec<Rect> {
    let t = game.info.table;
    let length = size.1 * n as f32 + 0.01;
    let (mid, along, facing) = match edge {
        TableEdge::South => (Vec2::new(t.x * 0.5, length), Vec2::X, 0.0),
        TableEdge::North => (Vec2::new(t.x * 0.5, t.y - length), Vec2::X, 180.0),
        TableEdge::West => (Vec2::new(length, t.y * 0.5), Vec2::Y, 90.0),
        TableEdge::East => (Vec2::new(t.x - length, t.y * 0.5), Vec2::Y, 270.0),
    };
    let side = game.unit(unit).side;
    let others: Vec<&Rect> = game
        .units
        .iter()
        .filter(|o| o.id != unit && o.status == UnitStatus::OnTable)
        .flat_map(|o| o.bases.iter())
        .collect();
    let enemies: Vec<Rect> = game
        .units_on_table(side.other())
        .flat_map(|o| o.bases.iter().copied())
        .collect();
    let profile = game.unit_profile(unit);
    // Not on friends, not within 2 cm of an enemy (BFS-MOV-7), not in ground it cannot enter.
    let fits = |rects: &[Rect]| {
        let on_friend = rects.iter().any(|a| {
            others
                .iter()
                .any(|b| sandtable_engine::scenario_check::rects_overlap(a, b))
        });
        let near_enemy = !enemies.is_empty()
            && sandtable_geometry::distance::set_distance(rects, &enemies).is_ok_and(|d| d < 2.0);
        let footing = crate::ground::footing_of(game, rects);
        let impassable = game.terrain.iter().any(|t| {
            crate::geo::terrain_class(t.kind, profile) == crate::geo::TerrainClass::Impassable
                && footing.partly(t.kind)
        });
        !on_friend && !near_enemy && !impassable
    };
    let mut first = None;
    for k in 0..80 {
        let step = if k % 2 == 0 { k / 2 } else { -(k / 2 + 1) } as f32 * 3.0;
        let rects = crate::deploy::deployment_rects(
            FormationSpec::Column,
            n,
            size,
            mid + along * step,
            facing,
        );
        let on_table = rects
            .iter()
            .flat_map(|r| r.corners())
            .all(|c| c.x >= -1e-3 && c.x <= t.x + 1e-3 && c.y >= -1e-3 && c.y <= t.y + 1e-3);
        if !on_table {
            continue;
        }
        if fits(&rects) {
            return rects;
        }
        first.get_or_insert(rects);
    }
    // Every place is taken: it waits at the middle until the way is clear.
    first.unwrap_or_else(|| {
        crate::deploy::deployment_rects(FormationSpec::Column, n, size, mid, facing)
    })
}

/// On arrival: the closest enemy unit within 40 cm that sees the unit, all round, takes a
/// Morale test, unless the arriving unit has fewer bases.
pub fn on_arrival(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) {
    if !game.info.reinforcements_returned.contains(&unit) {
        return;
    }
    let scene = crate::geo::scene(game);
    let (side, here, size) = {
        let u = game.unit(unit);
        (u.side, u.bases.clone(), u.bases.len())
    };
    let closest = game
        .units_on_table(side.other())
        .map(|o| {
            let d = sandtable_geometry::distance::set_distance(&here, &o.bases)
                .unwrap_or(f32::INFINITY);
            (o.id, d)
        })
        .filter(|(_, d)| *d <= TEST_RANGE_CM)
        .filter(|(o, _)| {
            crate::sight::sees(
                game,
                &scene,
                *o,
                unit,
                Some(sandtable_geometry::vision::VisionArc::All360),
            )
        })
        .min_by(|a, b| a.1.total_cmp(&b.1));
    let Some((enemy, _)) = closest else { return };
    let name = game.unit(unit).name.clone();
    if size < game.unit(enemy).bases.len() {
        events.push(Event::Ruling {
            rule: "BFS-SCN-32".into(),
            text: format!(
                "{name} returns, smaller than {}: no Morale test.",
                game.unit(enemy).name
            ),
        });
        return;
    }
    let cause = MoraleCause::Other {
        rule: "BFS-SCN-32",
        reason: format!("{name} arrived unexpectedly within 40 cm"),
    };
    crate::flight::test_and_apply(game, enemy, &cause, events);
}
