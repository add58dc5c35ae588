//! Travel fields for computer players of any ruleset: how far a piece really has to go to reach a
//! target when terrain slows it or bars the way, so that it goes round a wood instead of wading
//! into it.
//!
//! The table is cut into square cells; each cell costs what crossing one centimetre of it costs
//! (the ruleset says how much, from its own terrain rules). A field holds, for every cell, the
//! cheapest cost to reach the target (Dijkstra from the target outwards), so one field serves
//! every piece that moves alike.

use sandtable_geometry::Vec2;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;
use std::sync::Arc;

/// Cell size, cm. Bases are 2.5–6 cm deep; 3 cm keeps a 120 cm table at 1600 cells.
pub const CELL_CM: f32 = 3.0;

/// The cells of a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    pub width: usize,
    pub depth: usize,
}

impl Grid {
    /// The grid over a table of `size` cm.
    pub fn over(size: Vec2) -> Self {
        Self {
            width: (size.x / CELL_CM).ceil().max(1.0) as usize,
            depth: (size.y / CELL_CM).ceil().max(1.0) as usize,
        }
    }

    pub fn len(&self) -> usize {
        self.width * self.depth
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The cell holding point `p` (points off the table fall in the nearest edge cell).
    pub fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let col = ((p.x / CELL_CM).floor().max(0.0) as usize).min(self.width - 1);
        let row = ((p.y / CELL_CM).floor().max(0.0) as usize).min(self.depth - 1);
        (col, row)
    }

    pub fn index(&self, p: Vec2) -> usize {
        let (c, r) = self.cell_of(p);
        r * self.width + c
    }

    pub fn centre(col: usize, row: usize) -> Vec2 {
        Vec2::new((col as f32 + 0.5) * CELL_CM, (row as f32 + 0.5) * CELL_CM)
    }

    /// Costs for a piece as wide as `half_width` cm: each cell also costs what the cells within
    /// that distance cost, so that a path hugging a wood's edge would not drag the piece's flank
    /// through the wood. Barred neighbours count as `barred_neighbour` (very slow, not barred),
    /// so a piece standing beside a river still has a way out. Beyond the table's edge counts as
    /// barred too: a piece cannot stand with its flank off the table, so a gap between a wood
    /// and the edge narrower than the piece is no road (a Mill Ford reiter squadron sat in such
    /// a gap for four turns).
    pub fn widen(
        &self,
        own: &[Option<f32>],
        half_width: f32,
        barred_neighbour: f32,
    ) -> Vec<Option<f32>> {
        let (w, d) = (self.width as i32, self.depth as i32);
        let reach = (half_width / CELL_CM).ceil() as i32;
        let mut out = own.to_vec();
        for row in 0..d {
            for col in 0..w {
                let i = (row * w + col) as usize;
                let Some(mut worst) = own[i] else { continue };
                for dr in -reach..=reach {
                    for dc in -reach..=reach {
                        let (c, r) = (col + dc, row + dr);
                        if dc * dc + dr * dr > reach * reach {
                            continue;
                        }
                        let near = if c < 0 || r < 0 || c >= w || r >= d {
                            barred_neighbour
                        } else {
                            own[(r * w + c) as usize].unwrap_or(barred_neighbour)
                        };
                        worst = worst.max(near);
                    }
                }
                out[i] = Some(worst);
            }
        }
        out
    }

    /// The travel field over cells costing `costs` (cm of move per cm of table; `None` barred),
    /// from the `sources` cells.
    pub fn field(&self, costs: &[Option<f32>], sources: impl IntoIterator<Item = usize>) -> Field {
        let n = self.len();
        let mut dist = vec![f32::INFINITY; n];
        let mut heap = BinaryHeap::new();
        for i in sources {
            if i < n && dist[i] > 0.0 {
                dist[i] = 0.0;
                heap.push((Reverse(0u32), i));
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
        Field { grid: *self, dist }
    }
}

/// Travel cost to one target from every cell.
#[derive(Debug, Clone)]
pub struct Field {
    grid: Grid,
    dist: Vec<f32>,
}

impl Field {
    /// Travel cost from point `p` to the target, cm of move.
    pub fn at(&self, p: Vec2) -> f32 {
        self.dist[self.grid.index(p)]
    }

    /// Where to head for from `p`: follow the field downhill for about `ahead` cm of travel and
    /// return that point (the target's direction round the terrain in the way).
    pub fn waypoint(&self, p: Vec2, ahead: f32) -> Vec2 {
        let (w, d) = (self.grid.width as i32, self.grid.depth as i32);
        let start = self.at(p);
        let mut here = self.grid.index(p);
        while self.dist[here] > 0.0 && start - self.dist[here] < ahead {
            let (col, row) = (
                (here % self.grid.width) as i32,
                (here / self.grid.width) as i32,
            );
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
                if c < 0 || r < 0 || c >= w || r >= d {
                    continue;
                }
                let j = r as usize * self.grid.width + c as usize;
                if self.dist[j] < self.dist[best] {
                    best = j;
                }
            }
            if best == here {
                break;
            }
            here = best;
        }
        Grid::centre(here % self.grid.width, here / self.grid.width)
    }
}

/// Most fields kept; past this the cache starts afresh.
const MAX_FIELDS: usize = 512;

/// Travel fields kept between decisions, keyed by what moves and where to (a field stays right
/// while its target has not moved), for one table whose terrain is `table`. Bounded, so a long
/// game cannot grow it.
#[derive(Debug)]
pub struct FieldCache<K, T> {
    table: Option<(u64, Arc<T>)>,
    fields: HashMap<K, Arc<Field>>,
}

impl<K, T> Default for FieldCache<K, T> {
    fn default() -> Self {
        Self {
            table: None,
            fields: HashMap::new(),
        }
    }
}

impl<K: Hash + Eq, T> FieldCache<K, T> {
    /// The table's cell data for terrain hashing to `key`, built once (and the fields dropped
    /// when the terrain changes).
    pub fn table(&mut self, key: u64, build: impl FnOnce() -> T) -> &Arc<T> {
        if self.table.as_ref().is_none_or(|(k, _)| *k != key) {
            self.table = Some((key, Arc::new(build())));
            self.fields.clear();
        }
        &self.table.as_ref().expect("just set").1
    }

    /// The field for `key`, built by `build` when not kept.
    pub fn field(&mut self, key: K, build: impl FnOnce() -> Field) -> Arc<Field> {
        if let Some(f) = self.fields.get(&key) {
            return f.clone();
        }
        if self.fields.len() >= MAX_FIELDS {
            self.fields.clear();
        }
        let f = Arc::new(build());
        self.fields.insert(key, f.clone());
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wall_with_a_gap_is_gone_round() {
        // 10 × 10 cells with a wall along column 5 except row 9.
        let grid = Grid {
            width: 10,
            depth: 10,
        };
        let costs: Vec<Option<f32>> = (0..100)
            .map(|i| {
                (i % 10 == 5 && i / 10 != 9)
                    .then_some(())
                    .map_or(Some(1.0), |_| None)
            })
            .collect();
        let target = grid.index(Vec2::new(1.5, 1.5));
        let f = grid.field(&costs, [target]);
        let from = Vec2::new(28.5, 1.5);
        assert!(f.at(from) > 50.0, "the way round is long: {}", f.at(from));
        let wp = f.waypoint(from, 9.0);
        assert!(wp.y > from.y, "heads for the gap first: {wp:?}");
    }

    #[test]
    fn the_tables_edge_is_no_road_for_a_wide_piece() {
        // Open ground everywhere: a piece 12 cm wide (6 cm each side, two cells) cannot stand
        // with its middle in the two cells along the edge, where its flank would be off the
        // table; from the third cell on it can.
        let grid = Grid {
            width: 10,
            depth: 10,
        };
        let widened = grid.widen(&vec![Some(1.0); 100], 6.0, 4.0);
        let row = 5 * 10;
        assert_eq!(widened[row], Some(4.0));
        assert_eq!(widened[row + 1], Some(4.0));
        assert_eq!(widened[row + 2], Some(1.0));
        assert_eq!(widened[row + 7], Some(1.0));
        assert_eq!(widened[row + 9], Some(4.0));
        // The middle of the table is untouched.
        assert_eq!(widened[5 * 10 + 5], Some(1.0));
    }
}
