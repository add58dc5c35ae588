//! Travel distances for the computer player: how far a unit really has to go to reach an enemy
//! when terrain slows it (BFS-TER-2/3) or bars the way (impassable terrain), so that it goes
//! round a wood instead of wading into it.
//!
//! The table is cut into square cells; each cell costs what crossing it costs a unit of one
//! profile (1 in the open, 2 in difficult terrain, Basic Move / 5 cm in very difficult terrain).
//! A field holds, for every cell, the cheapest cost to reach a target's bases (Dijkstra from the
//! target outwards), so one field serves every unit of that profile.

use sandtable_bfs::geo::{TerrainClass, frame_of, terrain_class};
use sandtable_bfs::ids::ProfileId;
use sandtable_bfs::profile::UnitProfile;
use sandtable_bfs::state::{Game, Unit};
use sandtable_geometry::{Polygon, Vec2};
use std::cmp::Reverse;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Cell size, cm. Bases are 2.5–6 cm deep; 3 cm keeps a 120 cm table at 1600 cells.
const CELL_CM: f32 = 3.0;

/// Half a typical unit's frontage, cm: how far beside a path terrain still slows the unit.
const HALF_FRONTAGE_CM: f32 = 6.0;
/// Cost of a cell beside impassable terrain, within half a frontage of it.
const BARRED_NEIGHBOUR: f32 = 4.0;

/// Which terrain piece, if any, covers each cell (the first listed wins where pieces overlap).
#[derive(Debug, Clone)]
pub struct TerrainGrid {
    width: usize,
    depth: usize,
    /// Index into `game.terrain` for each cell, row by row from the south-west corner.
    piece: Vec<Option<usize>>,
}

impl TerrainGrid {
    pub fn new(game: &Game) -> Self {
        let width = (game.info.table.x / CELL_CM).ceil().max(1.0) as usize;
        let depth = (game.info.table.y / CELL_CM).ceil().max(1.0) as usize;
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
        let mut piece = vec![None; width * depth];
        for row in 0..depth {
            for col in 0..width {
                let centre = cell_centre(col, row);
                piece[row * width + col] = polygons
                    .iter()
                    .find(|(_, p)| p.contains(centre))
                    .map(|(i, _)| *i);
            }
        }
        Self {
            width,
            depth,
            piece,
        }
    }

    /// Cost of crossing each cell for a unit of profile `p`, cm of move per cm of table; `None`
    /// where it may not go.
    ///
    /// A unit is as wide as its frontage, not a point: each cell also costs what the cells
    /// within half a frontage of it cost, so that a path hugging a wood's edge would not drag
    /// the unit's flank through the wood (impassable neighbours count as very slow, not barred,
    /// so a unit standing beside a river still has a way out).
    fn costs(&self, game: &Game, p: &UnitProfile) -> Vec<Option<f32>> {
        let own = self.own_costs(game, p);
        let (w, d) = (self.width as i32, self.depth as i32);
        let reach = (HALF_FRONTAGE_CM / CELL_CM).ceil() as i32;
        let mut out = own.clone();
        for row in 0..d {
            for col in 0..w {
                let i = (row * w + col) as usize;
                let Some(mut worst) = own[i] else { continue };
                for dr in -reach..=reach {
                    for dc in -reach..=reach {
                        let (c, r) = (col + dc, row + dr);
                        if c < 0 || r < 0 || c >= w || r >= d || dc * dc + dr * dr > reach * reach {
                            continue;
                        }
                        let near = own[(r * w + c) as usize].unwrap_or(BARRED_NEIGHBOUR);
                        worst = worst.max(near);
                    }
                }
                out[i] = Some(worst);
            }
        }
        out
    }

    /// Cost of crossing each cell for a point-sized mover.
    fn own_costs(&self, game: &Game, p: &UnitProfile) -> Vec<Option<f32>> {
        let five_cm_share = (p.movement.basic / 5.0).max(1.0);
        self.piece
            .iter()
            .map(
                |piece| match piece.map(|i| terrain_class(game.terrain[i].kind, p)) {
                    None | Some(TerrainClass::Open | TerrainClass::Normal) => Some(1.0),
                    Some(TerrainClass::Difficult) => Some(2.0),
                    Some(TerrainClass::VeryDifficult) => Some(five_cm_share),
                    Some(TerrainClass::Impassable) => None,
                },
            )
            .collect()
    }

    /// The terrain class at point `p` for a unit of profile `prof`.
    pub fn class_at(&self, game: &Game, prof: &UnitProfile, p: Vec2) -> TerrainClass {
        let (c, r) = self.cell_of(p);
        self.piece[r * self.width + c].map_or(TerrainClass::Open, |i| {
            terrain_class(game.terrain[i].kind, prof)
        })
    }

    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let col = ((p.x / CELL_CM).floor().max(0.0) as usize).min(self.width - 1);
        let row = ((p.y / CELL_CM).floor().max(0.0) as usize).min(self.depth - 1);
        (col, row)
    }

    /// The travel field towards `target` for a unit of profile `p`.
    pub fn field(&self, game: &Game, p: &UnitProfile, target: &Unit) -> Field {
        let costs = self.costs(game, p);
        let n = self.width * self.depth;
        let mut dist = vec![f32::INFINITY; n];
        let mut heap = BinaryHeap::new();
        // Sources: the cells under the target's bases, and the cell nearest each base.
        let mut seed = |i: usize, heap: &mut BinaryHeap<(Reverse<u32>, usize)>| {
            if dist[i] > 0.0 {
                dist[i] = 0.0;
                heap.push((Reverse(0), i));
            }
        };
        for b in &target.bases {
            let (c, r) = self.cell_of(b.center());
            seed(r * self.width + c, &mut heap);
            let (lo, hi) = b.aabb();
            let (c0, r0) = self.cell_of(lo);
            let (c1, r1) = self.cell_of(hi);
            for row in r0..=r1 {
                for col in c0..=c1 {
                    if b.contains(cell_centre(col, row), CELL_CM * 0.5) {
                        seed(row * self.width + col, &mut heap);
                    }
                }
            }
        }
        const STEPS: [(i32, i32, f32); 8] = [
            (1, 0, 1.0),
            (-1, 0, 1.0),
            (0, 1, 1.0),
            (0, -1, 1.0),
            (1, 1, std::f32::consts::SQRT_2),
            (1, -1, std::f32::consts::SQRT_2),
            (-1, 1, std::f32::consts::SQRT_2),
            (-1, -1, std::f32::consts::SQRT_2),
        ];
        while let Some((Reverse(d), i)) = heap.pop() {
            let d = f32::from_bits(d);
            if d > dist[i] {
                continue;
            }
            let (col, row) = ((i % self.width) as i32, (i / self.width) as i32);
            for (dc, dr, len) in STEPS {
                let (c, r) = (col + dc, row + dr);
                if c < 0 || r < 0 || c >= self.width as i32 || r >= self.depth as i32 {
                    continue;
                }
                let j = r as usize * self.width + c as usize;
                // Entering cell j costs its own terrain, as a move into it would.
                let Some(cost) = costs[j] else { continue };
                let next = d + len * CELL_CM * cost;
                if next < dist[j] {
                    dist[j] = next;
                    // Non-negative floats order like their bit patterns.
                    heap.push((Reverse(next.to_bits()), j));
                }
            }
        }
        Field {
            width: self.width,
            depth: self.depth,
            dist,
        }
    }
}

fn cell_centre(col: usize, row: usize) -> Vec2 {
    Vec2::new((col as f32 + 0.5) * CELL_CM, (row as f32 + 0.5) * CELL_CM)
}

/// Travel cost to one target from every cell.
#[derive(Debug, Clone)]
pub struct Field {
    width: usize,
    depth: usize,
    dist: Vec<f32>,
}

impl Field {
    fn index(&self, p: Vec2) -> usize {
        let col = ((p.x / CELL_CM).floor().max(0.0) as usize).min(self.width - 1);
        let row = ((p.y / CELL_CM).floor().max(0.0) as usize).min(self.depth - 1);
        row * self.width + col
    }

    /// Travel cost from point `p` to the target, cm of move.
    pub fn at(&self, p: Vec2) -> f32 {
        self.dist[self.index(p)]
    }

    /// Travel cost for a unit: from the middle of its front edge.
    pub fn from_unit(&self, u: &Unit) -> f32 {
        let f = frame_of(&u.bases);
        self.at((f.front_left() + f.front_right()) * 0.5)
    }

    /// Where to head for from `p`: follow the field downhill for about `ahead` cm of travel and
    /// return that point (the target's direction round the terrain in the way).
    pub fn waypoint(&self, p: Vec2, ahead: f32) -> Vec2 {
        let start = self.at(p);
        let mut here = self.index(p);
        while self.dist[here] > 0.0 && start - self.dist[here] < ahead {
            let (col, row) = ((here % self.width) as i32, (here / self.width) as i32);
            let mut best = here;
            for (dc, dr) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let (c, r) = (col + dc, row + dr);
                if c < 0 || r < 0 || c >= self.width as i32 || r >= self.depth as i32 {
                    continue;
                }
                let j = r as usize * self.width + c as usize;
                if self.dist[j] < self.dist[best] {
                    best = j;
                }
            }
            if best == here {
                break;
            }
            here = best;
        }
        cell_centre(here % self.width, here / self.width)
    }
}

/// Travel fields kept between decisions, keyed by the mover's profile and the target's bases:
/// a field stays right while its target has not moved. Bounded, so a long game cannot grow it.
#[derive(Debug, Default)]
pub struct FieldCache {
    grid: Option<(u64, Arc<TerrainGrid>)>,
    fields: HashMap<(ProfileId, u64), Arc<Field>>,
}

/// Most fields kept; past this the cache starts afresh.
const MAX_FIELDS: usize = 512;

impl FieldCache {
    /// The terrain grid of this game's table, built once.
    pub fn grid(&mut self, game: &Game) -> &Arc<TerrainGrid> {
        let key = terrain_key(game);
        if self.grid.as_ref().is_none_or(|(k, _)| *k != key) {
            self.grid = Some((key, Arc::new(TerrainGrid::new(game))));
            self.fields.clear();
        }
        &self.grid.as_ref().expect("just set").1
    }

    /// The travel field towards `target` for units of `profile`.
    pub fn field(
        &mut self,
        game: &Game,
        grid: &TerrainGrid,
        profile: ProfileId,
        target: &Unit,
    ) -> Arc<Field> {
        let key = (profile, bases_key(target));
        if let Some(f) = self.fields.get(&key) {
            return f.clone();
        }
        if self.fields.len() >= MAX_FIELDS {
            self.fields.clear();
        }
        let f = Arc::new(grid.field(game, game.profile(profile), target));
        self.fields.insert(key, f.clone());
        f
    }
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
    use crate::test_support::default_battle;
    use sandtable_bfs::geo::TerrainClass;

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
        let (c, r) = grid.cell_of(Vec2::new(40.5, 61.5));
        let i = r * grid.width + c;
        assert_eq!(own[i], Some(1.0));
        assert_eq!(widened[i], Some(profile.movement.basic / 5.0));
        // Far out in the open nothing changes.
        let (c, r) = grid.cell_of(Vec2::new(60.0, 100.0));
        assert_eq!(widened[r * grid.width + c], Some(1.0));
    }
}
