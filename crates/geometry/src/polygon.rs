//! Simple polygons: the footprint of a terrain piece (BFS-GEOC-7), convex or not. Rectangles are
//! polygons too ([`Polygon::from_rect`]).

use crate::error::{GeoError, check_finite};
use crate::prim;
use crate::rect::Rect;
use crate::tolerance::{AREA_EPS_CM2, CONTACT_EPS};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A simple polygon (no self-intersections), stored counter-clockwise whatever order it was given
/// in, with its ear-clipping triangulation cached for the swept-shape queries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec<Vec2>", into = "Vec<Vec2>")]
pub struct Polygon {
    vertices: Vec<Vec2>,
    triangles: Vec<[usize; 3]>,
    convex: bool,
    lo: Vec2,
    hi: Vec2,
}

impl Polygon {
    /// Validates and builds a polygon: at least 3 finite vertices, a non-zero area, no repeated
    /// consecutive vertex and no crossing edges. Clockwise input is reversed.
    pub fn new(mut vertices: Vec<Vec2>) -> Result<Self, GeoError> {
        for v in &vertices {
            check_finite("polygon vertex", &[v.x, v.y])?;
        }
        // Drop an explicitly closing vertex (first repeated at the end).
        if vertices.len() > 1 && vertices.first() == vertices.last() {
            vertices.pop();
        }
        let n = vertices.len();
        if n < 3 {
            return Err(GeoError::Degenerate {
                what: "polygon",
                why: format!("{n} vertices"),
            });
        }
        for i in 0..n {
            if vertices[i].distance(vertices[(i + 1) % n]) < crate::tolerance::MIN_SIZE_CM {
                return Err(GeoError::Degenerate {
                    what: "polygon",
                    why: format!("vertex {i} is repeated"),
                });
            }
        }
        let area = prim::signed_area(&vertices);
        if area.abs() < AREA_EPS_CM2 {
            return Err(GeoError::Degenerate {
                what: "polygon",
                why: "zero area".into(),
            });
        }
        if area < 0.0 {
            vertices.reverse();
        }
        // No two non-adjacent edges may touch; adjacent edges may not fold back on each other.
        for i in 0..n {
            let (a0, a1) = (vertices[i], vertices[(i + 1) % n]);
            for j in (i + 1)..n {
                let adjacent = j == i + 1 || (i == 0 && j == n - 1);
                let (b0, b1) = (vertices[j], vertices[(j + 1) % n]);
                if adjacent {
                    // Folding back: the shared vertex's neighbours are collinear and overlapping.
                    let (p, shared, q) = if j == i + 1 {
                        (a0, a1, b1)
                    } else {
                        (b0, a0, a1)
                    };
                    if prim::orient(p, shared, q) == 0.0 && (p - shared).dot(q - shared) > 0.0 {
                        return Err(GeoError::Degenerate {
                            what: "polygon",
                            why: format!("edges {i} and {j} overlap"),
                        });
                    }
                } else if prim::segments_intersect(a0, a1, b0, b1) {
                    return Err(GeoError::Degenerate {
                        what: "polygon",
                        why: format!("edges {i} and {j} cross (not a simple polygon)"),
                    });
                }
            }
        }
        let convex = (0..n).all(|i| {
            prim::orient(vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n]) >= 0.0
        });
        let triangles = prim::triangulate(&vertices);
        let (mut lo, mut hi) = (vertices[0], vertices[0]);
        for v in &vertices {
            lo = lo.min(*v);
            hi = hi.max(*v);
        }
        Ok(Self {
            vertices,
            triangles,
            convex,
            lo,
            hi,
        })
    }

    /// The polygon of a rectangle (after checking the rectangle).
    pub fn from_rect(r: &Rect) -> Result<Self, GeoError> {
        r.check("rectangle")?;
        Self::new(r.ccw_corners().to_vec())
    }

    /// Vertices, counter-clockwise.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Ear-clipping triangles (indices into [`Self::vertices`]), counter-clockwise each.
    pub fn triangles(&self) -> &[[usize; 3]] {
        &self.triangles
    }

    pub fn is_convex(&self) -> bool {
        self.convex
    }

    pub fn area(&self) -> f32 {
        prim::signed_area(&self.vertices)
    }

    /// Axis-aligned bounds `(min, max)`.
    pub fn aabb(&self) -> (Vec2, Vec2) {
        (self.lo, self.hi)
    }

    /// Is `p` inside the polygon or within [`CONTACT_EPS`] of its boundary?
    pub fn contains(&self, p: Vec2) -> bool {
        if p.x < self.lo.x - CONTACT_EPS
            || p.y < self.lo.y - CONTACT_EPS
            || p.x > self.hi.x + CONTACT_EPS
            || p.y > self.hi.y + CONTACT_EPS
        {
            return false;
        }
        prim::point_in_polygon(p, &self.vertices) || self.boundary_distance(p) <= CONTACT_EPS
    }

    /// Is `p` inside and at least `margin` away from the boundary?
    pub fn contains_deep(&self, p: Vec2, margin: f32) -> bool {
        prim::point_in_polygon(p, &self.vertices) && self.boundary_distance(p) > margin
    }

    /// Distance from `p` to the polygon's boundary.
    pub fn boundary_distance(&self, p: Vec2) -> f32 {
        prim::point_boundary_distance(p, &self.vertices)
    }

    /// Distance from `p` to the polygon (0 inside).
    pub fn distance_to_point(&self, p: Vec2) -> f32 {
        if prim::point_in_polygon(p, &self.vertices) {
            0.0
        } else {
            self.boundary_distance(p)
        }
    }

    /// Edges as `(start, end)` pairs, counter-clockwise.
    pub fn edges(&self) -> impl Iterator<Item = (Vec2, Vec2)> + '_ {
        let n = self.vertices.len();
        (0..n).map(move |i| (self.vertices[i], self.vertices[(i + 1) % n]))
    }
}

impl TryFrom<Vec<Vec2>> for Polygon {
    type Error = GeoError;
    fn try_from(v: Vec<Vec2>) -> Result<Self, GeoError> {
        Polygon::new(v)
    }
}

impl From<Polygon> for Vec<Vec2> {
    fn from(p: Polygon) -> Vec<Vec2> {
        p.vertices
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clockwise_input_is_reversed_and_area_is_positive() {
        let p = Polygon::new(vec![
            Vec2::ZERO,
            Vec2::new(0.0, 2.0),
            Vec2::new(3.0, 2.0),
            Vec2::new(3.0, 0.0),
        ])
        .unwrap();
        assert!((p.area() - 6.0).abs() < 1e-6);
        assert!(p.is_convex());
        assert!(p.contains(Vec2::new(1.0, 1.0)));
        assert!(p.contains(Vec2::new(3.005, 1.0)));
        assert!(!p.contains(Vec2::new(3.5, 1.0)));
        assert!((p.distance_to_point(Vec2::new(5.0, 1.0)) - 2.0).abs() < 1e-6);
    }

    #[test]
    fn refuses_bow_ties_and_degenerate_input() {
        // A bow tie: edges 0 and 2 cross.
        let bow = vec![
            Vec2::ZERO,
            Vec2::new(2.0, 2.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(0.0, 2.0),
        ];
        assert!(Polygon::new(bow).is_err());
        assert!(Polygon::new(vec![Vec2::ZERO, Vec2::X]).is_err());
        assert!(Polygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::X * 2.0]).is_err());
        assert!(Polygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 1.0)]).is_err());
    }

    #[test]
    fn concave_polygon_is_triangulated() {
        let l = Polygon::new(vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 4.0),
            Vec2::new(0.0, 4.0),
        ])
        .unwrap();
        assert!(!l.is_convex());
        assert_eq!(l.triangles().len(), 4);
        assert!(!l.contains(Vec2::new(3.0, 3.0)));
    }

    #[test]
    fn serde_round_trip_validates() {
        let p = Polygon::from_rect(&Rect::try_new(Vec2::ZERO, Vec2::new(4.0, 2.0), 0.3).unwrap())
            .unwrap();
        let v: Vec<Vec2> = p.clone().into();
        assert_eq!(Polygon::try_from(v).unwrap(), p);
    }
}
