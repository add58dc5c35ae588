//! The By Fire and Sword search's plans: moves aimed at a chosen enemy (wheel to face it, then go
//! forward as far as the move allows, or stop short at a chosen distance), commanders following
//! their army, and the travel fields that lead a unit round terrain in its way, costed by the
//! rules' own terrain table (BFS-TER-2/3/4, [`geo::move_cost_per_cm`]).
//!
//! The rules' own candidate list samples fixed lengths and angles; these are the moves a player
//! would actually make when closing on a target.

use super::eval::{Matchups, distance};
use crate::field::{Field, FieldCache, Grid};
use sandtable_bfs::command::{Command, MoveStep, PivotCorner};
use sandtable_bfs::geo::{self, TerrainClass, frame_of};
use sandtable_bfs::ids::{CommanderId, ProfileId, UnitId};
use sandtable_bfs::phases;
use sandtable_bfs::profile::UnitProfile;
use sandtable_bfs::state::{Game, MoraleLevel, Unit};
use sandtable_geometry::{Polygon, Vec2};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Below this angle a unit does not bother to wheel, degrees.
const ALIGNED_DEG: f32 = 4.0;

/// The enemies a unit would close on: the two it beats by the widest margin (nearer first when
/// equal), or for a unit that beats nobody but can shoot, the nearest.
pub fn targets<'g>(game: &'g Game, unit: &Unit, matchups: &Matchups) -> Vec<&'g Unit> {
    let mut enemies: Vec<(&Unit, f64, f64)> = game
        .units_on_table(unit.side.other())
        .map(|e| (e, matchups.edge(unit.id, e.id), distance(unit, e)))
        .collect();
    let beaten: Vec<(&Unit, f64, f64)> = enemies
        .iter()
        .copied()
        .filter(|(e, edge, _)| *edge > 0.0 && e.morale != MoraleLevel::Flight)
        .collect();
    if !beaten.is_empty() {
        let mut beaten = beaten;
        beaten.sort_by(|a, b| (b.1 - b.2 * 0.01).total_cmp(&(a.1 - a.2 * 0.01)));
        return beaten.into_iter().take(2).map(|t| t.0).collect();
    }
    if game.unit_profile(unit.id).shooting > 0 {
        enemies.sort_by(|a, b| a.2.total_cmp(&b.2));
        return enemies.into_iter().take(1).map(|t| t.0).collect();
    }
    Vec::new()
}

/// Legal moves that turn `unit` towards each of its targets and advance on it: the widest
/// legal wheel towards the target (or half of it), then the longest legal step forward, half of
/// it, or a stop just short of the target.
pub fn aimed_moves(game: &Game, unit: UnitId, matchups: &Matchups) -> Vec<Command> {
    let u = game.unit(unit);
    let basic = game.unit_profile(unit).movement.basic;
    let frame = frame_of(&u.bases);
    let front_mid = (frame.front_left() + frame.front_right()) * 0.5;
    let mut out = Vec::new();
    let mut push = |steps: Vec<MoveStep>| {
        let cmd = Command::Move { unit, steps };
        if !out.contains(&cmd) && phases::check(game, &cmd).is_ok() {
            out.push(cmd);
        }
    };
    for target in targets(game, u, matchups) {
        // Round the terrain in the way: head for a point the travel field leads to.
        let goal = match matchups.field(u.profile, target.id) {
            Some(f) if f.at(front_mid) > distance(u, target) as f32 * 1.1 + 3.0 => {
                f.waypoint(front_mid, basic)
            }
            _ => frame_of(&target.bases).closest_point(front_mid),
        };
        let aim = goal - front_mid;
        if aim.length_squared() < 1e-6 {
            continue;
        }
        let angle = frame.facing().angle_to(aim).to_degrees();
        let gap = distance(u, target) as f32;
        let mut prefixes = vec![Vec::new()];
        if angle.abs() > ALIGNED_DEG {
            let pivot = if angle > 0.0 {
                PivotCorner::FrontLeft
            } else {
                PivotCorner::FrontRight
            };
            let wheel = |degrees: f32| vec![MoveStep::Wheel { pivot, degrees }];
            let widest = longest(0.0, angle.abs().min(90.0), |d| legal(game, unit, &wheel(d)));
            if widest >= 1.0 {
                prefixes = vec![wheel(widest), wheel(widest * 0.5)];
            }
        }
        for prefix in prefixes {
            let with = |d: f32| {
                let mut s = prefix.clone();
                s.push(MoveStep::Forward(d));
                s
            };
            let far = longest(0.0, basic, |d| legal(game, unit, &with(d)));
            for d in [far, far * 0.5, (gap - 3.0).min(far)] {
                if d >= 0.5 {
                    push(with(d));
                }
            }
            if !prefix.is_empty() {
                push(prefix);
            }
        }
    }
    out
}

/// Legal moves that bring a commander towards the middle of his side's units, so that his
/// orders cost 1 CP (BFS-CMD-4): the widest legal wheel towards it, then the longest step.
pub fn commander_moves(game: &Game, commander: CommanderId) -> Vec<Command> {
    let c = &game.commanders[commander.index()];
    let units: Vec<Vec2> = game
        .units_on_table(c.side)
        .map(|u| frame_of(&u.bases).center())
        .collect();
    if units.is_empty() {
        return Vec::new();
    }
    let middle = units.iter().copied().sum::<Vec2>() / units.len() as f32;
    let here = c.base.center();
    let aim = middle - here;
    if aim.length() < 4.0 {
        return Vec::new();
    }
    let ok = |steps: &[MoveStep]| {
        phases::check(
            game,
            &Command::MoveCommander {
                commander,
                steps: steps.to_vec(),
            },
        )
        .is_ok()
    };
    let angle = c.base.facing().angle_to(aim).to_degrees();
    let mut prefix = Vec::new();
    if angle.abs() > ALIGNED_DEG {
        let pivot = if angle > 0.0 {
            PivotCorner::FrontLeft
        } else {
            PivotCorner::FrontRight
        };
        let widest = longest(0.0, angle.abs(), |d| {
            ok(&[MoveStep::Wheel { pivot, degrees: d }])
        });
        if widest >= 1.0 {
            prefix.push(MoveStep::Wheel {
                pivot,
                degrees: widest,
            });
        }
    }
    let basic = game.profile(c.profile).movement.basic;
    let with = |d: f32| {
        let mut s = prefix.clone();
        s.push(MoveStep::Forward(d));
        s
    };
    let far = longest(0.0, basic.min(aim.length() - 3.0).max(0.0), |d| {
        ok(&with(d))
    });
    let mut out = Vec::new();
    for d in [far, far * 0.5] {
        if d >= 0.5 {
            out.push(Command::MoveCommander {
                commander,
                steps: with(d),
            });
        }
    }
    if !prefix.is_empty() && ok(&prefix) {
        out.push(Command::MoveCommander {
            commander,
            steps: prefix,
        });
    }
    out
}

fn legal(game: &Game, unit: UnitId, steps: &[MoveStep]) -> bool {
    phases::check(
        game,
        &Command::Move {
            unit,
            steps: steps.to_vec(),
        },
    )
    .is_ok()
}

/// The largest value in `lo..=hi` for which `ok` holds, assuming it holds up to some point and
/// not beyond (more distance or angle never makes a blocked move legal). `lo` when none does.
fn longest(lo: f32, hi: f32, ok: impl Fn(f32) -> bool) -> f32 {
    if ok(hi) {
        return hi;
    }
    let (mut good, mut bad) = (lo, hi);
    for _ in 0..7 {
        let mid = (good + bad) * 0.5;
        if ok(mid) { good = mid } else { bad = mid }
    }
    good
}

/// Half a typical unit's frontage, cm: how far beside a path terrain still slows the unit.
const HALF_FRONTAGE_CM: f32 = 6.0;
/// Cost of a cell beside impassable terrain, within half a frontage of it.
const BARRED_NEIGHBOUR: f32 = 4.0;

/// Which terrain piece, if any, covers each cell (the first listed wins where pieces overlap).
#[derive(Debug, Clone)]
pub struct TerrainGrid {
    pub grid: Grid,
    /// Index into `game.terrain` for each cell, row by row from the south-west corner.
    piece: Vec<Option<usize>>,
}

impl TerrainGrid {
    pub fn new(game: &Game) -> Self {
        let grid = Grid::over(game.info.table);
        let polygons: Vec<(usize, Polygon)> = game
            .terrain
            .iter()
            .enumerate()
            .flat_map(|(i, t)| {
                t.polygons
                    .iter()
                    .filter_map(move |p| Polygon::new(p.clone()).ok().map(|p| (i, p)))
            })
            .collect();
        let mut piece = vec![None; grid.len()];
        for row in 0..grid.depth {
            for col in 0..grid.width {
                let centre = Grid::centre(col, row);
                piece[row * grid.width + col] = polygons
                    .iter()
                    .find(|(_, p)| p.contains(centre))
                    .map(|(i, _)| *i);
            }
        }
        Self { grid, piece }
    }

    /// Cost of crossing each cell for a unit of profile `p`, widened by half a frontage.
    fn costs(&self, game: &Game, p: &UnitProfile) -> Vec<Option<f32>> {
        self.grid
            .widen(&self.own_costs(game, p), HALF_FRONTAGE_CM, BARRED_NEIGHBOUR)
    }

    /// Cost of crossing each cell for a point-sized mover: the rules' terrain costs.
    fn own_costs(&self, game: &Game, p: &UnitProfile) -> Vec<Option<f32>> {
        self.piece
            .iter()
            .map(|piece| {
                let class = piece.map_or(TerrainClass::Open, |i| {
                    geo::terrain_class(game.terrain[i].kind, p)
                });
                geo::move_cost_per_cm(class, p.movement.basic)
            })
            .collect()
    }

    /// The terrain class at point `p` for a unit of profile `prof`.
    pub fn class_at(&self, game: &Game, prof: &UnitProfile, p: Vec2) -> TerrainClass {
        self.piece[self.grid.index(p)].map_or(TerrainClass::Open, |i| {
            geo::terrain_class(game.terrain[i].kind, prof)
        })
    }

    /// The travel field towards `target` for a unit of profile `p`: from the cells under the
    /// target's bases and the cell nearest each base.
    pub fn field(&self, game: &Game, p: &UnitProfile, target: &Unit) -> Field {
        let g = self.grid;
        let mut sources = Vec::new();
        for b in &target.bases {
            sources.push(g.index(b.center()));
            let (lo, hi) = b.aabb();
            let (c0, r0) = g.cell_of(lo);
            let (c1, r1) = g.cell_of(hi);
            for row in r0..=r1 {
                for col in c0..=c1 {
                    if b.contains(Grid::centre(col, row), crate::field::CELL_CM * 0.5) {
                        sources.push(row * g.width + col);
                    }
                }
            }
        }
        g.field(&self.costs(game, p), sources)
    }
}

/// Travel cost for a unit: from the middle of its front edge.
pub fn travel_from_unit(field: &Field, u: &Unit) -> f32 {
    let f = frame_of(&u.bases);
    field.at((f.front_left() + f.front_right()) * 0.5)
}

/// Travel fields kept between decisions, keyed by the mover's profile and the target's bases.
pub type Fields = FieldCache<(ProfileId, u64), TerrainGrid>;

/// The terrain grid of this game's table, built once.
pub fn grid(cache: &mut Fields, game: &Game) -> Arc<TerrainGrid> {
    cache
        .table(terrain_key(game), || TerrainGrid::new(game))
        .clone()
}

/// The travel field towards `target` for units of `profile`.
pub fn field(
    cache: &mut Fields,
    game: &Game,
    grid: &TerrainGrid,
    profile: ProfileId,
    target: &Unit,
) -> Arc<Field> {
    cache.field((profile, bases_key(target)), || {
        grid.field(game, game.profile(profile), target)
    })
}

fn terrain_key(game: &Game) -> u64 {
    let mut h = DefaultHasher::new();
    game.info.table.x.to_bits().hash(&mut h);
    game.info.table.y.to_bits().hash(&mut h);
    for t in &game.terrain {
        (t.kind as u8).hash(&mut h);
        for p in t.polygons.iter().flatten() {
            p.x.to_bits().hash(&mut h);
            p.y.to_bits().hash(&mut h);
        }
    }
    h.finish()
}

fn bases_key(u: &Unit) -> u64 {
    let mut h = DefaultHasher::new();
    for b in &u.bases {
        for v in [b.pose.pos.x, b.pose.pos.y, b.pose.angle, b.half.x, b.half.y] {
            v.to_bits().hash(&mut h);
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::test_support::default_battle;

    fn unit<'g>(game: &'g Game, key: &str) -> &'g Unit {
        game.units.iter().find(|u| u.key == key).expect(key)
    }

    #[test]
    fn cavalry_goes_round_a_wood_not_through_it() {
        let game = default_battle();
        let grid = TerrainGrid::new(&game);
        let reiters = unit(&game, "reiters-2");
        let profile = game.profile(reiters.profile);
        let field = grid.field(&game, profile, unit(&game, "pl-dragoons"));
        // Just north of the wood, with the dragoons due south beyond it.
        let start = Vec2::new(18.0, 78.0);
        let straight = (start - Vec2::new(18.0, 26.0)).length();
        assert!(
            field.at(start) > straight + 10.0,
            "{} against {straight}",
            field.at(start)
        );
        // Following the field never leads into the wood.
        let mut p = start;
        for _ in 0..5 {
            p = field.waypoint(p, 10.0);
            assert_ne!(
                grid.class_at(&game, profile, p),
                TerrainClass::VeryDifficult,
                "the path enters the wood at {p:?}"
            );
        }
    }

    #[test]
    fn a_cell_beside_a_wood_costs_what_the_wood_does() {
        let game = default_battle();
        let grid = TerrainGrid::new(&game);
        let reiters = unit(&game, "reiters-2");
        let profile = game.profile(reiters.profile);
        let own = grid.own_costs(&game, profile);
        let widened = grid.costs(&game, profile);
        // (40.5, 61.5) is open ground about 3 cm east of the wood's eastern point (38, 62).
        let i = grid.grid.index(Vec2::new(40.5, 61.5));
        assert_eq!(own[i], Some(1.0));
        assert_eq!(widened[i], Some(profile.movement.basic / 5.0));
        // Far out in the open nothing changes.
        let i = grid.grid.index(Vec2::new(60.0, 100.0));
        assert_eq!(widened[i], Some(1.0));
    }
}
