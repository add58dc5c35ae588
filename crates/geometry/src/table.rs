//! The table: its rectangle, its four edges, "toward one's own table edge" (GEO-19), bases leaving
//! the table (BFS-GEOC-9) and distances to an edge (e.g. BFS-PSY-26's 30 cm from the own edge).

use crate::error::{GeoError, check_point, check_positive};
use crate::rect::{Rect, Segment};
use crate::tolerance::CONTACT_EPS;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// One of the four table edges. North is the edge at the largest y.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TableEdge {
    North,
    East,
    South,
    West,
}

impl TableEdge {
    pub const ALL: [TableEdge; 4] = [
        TableEdge::North,
        TableEdge::East,
        TableEdge::South,
        TableEdge::West,
    ];

    pub fn opposite(self) -> TableEdge {
        match self {
            TableEdge::North => TableEdge::South,
            TableEdge::South => TableEdge::North,
            TableEdge::East => TableEdge::West,
            TableEdge::West => TableEdge::East,
        }
    }

    /// Unit normal pointing from this edge into the table.
    pub fn inward_normal(self) -> Vec2 {
        match self {
            TableEdge::North => Vec2::NEG_Y,
            TableEdge::South => Vec2::Y,
            TableEdge::East => Vec2::NEG_X,
            TableEdge::West => Vec2::X,
        }
    }

    /// "Toward this table edge" (GEO-19): the inward normal reversed, a unit vector.
    pub fn toward(self) -> Vec2 {
        -self.inward_normal()
    }

    /// The pose angle ([`crate::Pose::angle`]) of something facing this edge squarely, e.g. a
    /// fleeing unit's free turn toward its own edge (BFS-MOV-9).
    pub fn facing_angle(self) -> f32 {
        let t = self.toward();
        // facing() = (−sin a, cos a) = t  →  a = atan2(−t.x, t.y)
        (-t.x).atan2(t.y)
    }
}

/// The playing area, an axis-aligned rectangle in table coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub min: Vec2,
    pub max: Vec2,
}

impl Table {
    /// A `width × depth` table with its south-west corner at the origin.
    pub fn new(width: f32, depth: f32) -> Result<Self, GeoError> {
        check_positive("table width", width)?;
        check_positive("table depth", depth)?;
        Ok(Self {
            min: Vec2::ZERO,
            max: Vec2::new(width, depth),
        })
    }

    pub fn from_bounds(min: Vec2, max: Vec2) -> Result<Self, GeoError> {
        check_point("table corner", min)?;
        check_point("table corner", max)?;
        check_positive("table width", max.x - min.x)?;
        check_positive("table depth", max.y - min.y)?;
        Ok(Self { min, max })
    }

    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// The edge as a segment, running clockwise around the table.
    pub fn edge(&self, e: TableEdge) -> Segment {
        let (lo, hi) = (self.min, self.max);
        match e {
            TableEdge::North => Segment::new(Vec2::new(lo.x, hi.y), hi),
            TableEdge::East => Segment::new(hi, Vec2::new(hi.x, lo.y)),
            TableEdge::South => Segment::new(Vec2::new(hi.x, lo.y), lo),
            TableEdge::West => Segment::new(lo, Vec2::new(lo.x, hi.y)),
        }
    }

    /// Signed distance of a point from the edge's line, positive on the table side.
    pub fn point_depth(&self, p: Vec2, e: TableEdge) -> Result<f32, GeoError> {
        check_point("point", p)?;
        Ok(self.depth_unchecked(p, e))
    }

    fn depth_unchecked(&self, p: Vec2, e: TableEdge) -> f32 {
        match e {
            TableEdge::North => self.max.y - p.y,
            TableEdge::South => p.y - self.min.y,
            TableEdge::East => self.max.x - p.x,
            TableEdge::West => p.x - self.min.x,
        }
    }

    /// Distance from a base to an edge: the smallest depth of any corner (negative once the base
    /// crosses that edge). "Within 30 cm of its own table edge" is `distance_to_edge ≤ 30`.
    pub fn distance_to_edge(&self, r: &Rect, e: TableEdge) -> Result<f32, GeoError> {
        r.check("rectangle")?;
        Ok(r.corners()
            .iter()
            .map(|c| self.depth_unchecked(*c, e))
            .fold(f32::INFINITY, f32::min))
    }

    /// The nearest edge to a base and the distance to it.
    pub fn nearest_edge(&self, r: &Rect) -> Result<(TableEdge, f32), GeoError> {
        r.check("rectangle")?;
        let mut best = (TableEdge::North, f32::INFINITY);
        for e in TableEdge::ALL {
            let d = self.distance_to_edge(r, e)?;
            if d < best.1 {
                best = (e, d);
            }
        }
        Ok(best)
    }

    /// The edges a base has crossed: any part of it beyond the edge by more than [`CONTACT_EPS`]
    /// (BFS-GEOC-9: a base has left once any part of its rectangle crosses the boundary).
    pub fn crossed_edges(&self, r: &Rect) -> Result<Vec<TableEdge>, GeoError> {
        r.check("rectangle")?;
        let c = r.corners();
        Ok(TableEdge::ALL
            .into_iter()
            .filter(|e| {
                c.iter()
                    .any(|p| self.depth_unchecked(*p, *e) < -CONTACT_EPS)
            })
            .collect())
    }

    /// Does any part of the base lie off the table?
    pub fn crosses_edge(&self, r: &Rect) -> Result<bool, GeoError> {
        Ok(!self.crossed_edges(r)?.is_empty())
    }

    /// Is the whole base wholly off the table (no part left on it)?
    pub fn wholly_off(&self, r: &Rect) -> Result<bool, GeoError> {
        r.check("rectangle")?;
        let c = r.corners();
        Ok(TableEdge::ALL
            .into_iter()
            .any(|e| c.iter().all(|p| self.depth_unchecked(*p, e) <= 0.0)))
    }

    pub fn contains_point(&self, p: Vec2) -> Result<bool, GeoError> {
        check_point("point", p)?;
        Ok(TableEdge::ALL
            .iter()
            .all(|e| self.depth_unchecked(p, *e) >= -CONTACT_EPS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toward_own_edge_is_the_reversed_inward_normal() {
        assert_eq!(TableEdge::South.toward(), Vec2::NEG_Y);
        assert_eq!(TableEdge::East.toward(), Vec2::X);
        for e in TableEdge::ALL {
            let p = crate::Pose::new(Vec2::ZERO, e.facing_angle());
            assert!((p.facing() - e.toward()).length() < 1e-6, "{e:?}");
        }
    }

    #[test]
    fn distances_and_crossing() {
        let t = Table::new(120.0, 120.0).unwrap();
        // A 4×2 base centred 30 cm north of the south edge, facing north: its rear edge is at
        // y = 29, so it is 29 cm from the south edge.
        let r = Rect::try_new(Vec2::new(60.0, 30.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        assert!((t.distance_to_edge(&r, TableEdge::South).unwrap() - 29.0).abs() < 1e-5);
        assert_eq!(t.nearest_edge(&r).unwrap().0, TableEdge::South);
        assert!(!t.crosses_edge(&r).unwrap());
        let over = r.translated(Vec2::new(0.0, -29.5)); // rear edge at y = −0.5
        assert_eq!(t.crossed_edges(&over).unwrap(), vec![TableEdge::South]);
        assert!(!t.wholly_off(&over).unwrap());
        assert!(t.wholly_off(&r.translated(Vec2::new(0.0, -40.0))).unwrap());
        // Touching the edge exactly is still on the table.
        assert!(
            !t.crosses_edge(&r.translated(Vec2::new(0.0, -29.0)))
                .unwrap()
        );
        assert!(Table::new(0.0, 10.0).is_err());
    }
}
