//! Contact classification between two bases (GEO-3): are they touching, along which edges and for
//! how long, or only corner to something. Close combat (BFS-CBT-1), base removal (BFS-CBT-12: the
//! least edge length in contact goes first) and the attack-priority order of BFS-GEOC-3 (front
//! edge > front corner > side > rear) read these answers.

use crate::distance::rect_distance_unchecked;
use crate::error::GeoError;
use crate::prim;
use crate::rect::{Edge, Rect};
use crate::tolerance::{CONTACT_EPS, PARALLEL_EPS_RAD};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A corner of a base or unit rectangle, in [`Rect::corners`] order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Corner {
    FrontLeft,
    FrontRight,
    RearRight,
    RearLeft,
}

impl Corner {
    pub const ALL: [Corner; 4] = [
        Corner::FrontLeft,
        Corner::FrontRight,
        Corner::RearRight,
        Corner::RearLeft,
    ];

    /// Index into [`Rect::corners`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The corner diagonally opposite (BFS-MOV-14's reference corner).
    pub fn opposite(self) -> Corner {
        Corner::ALL[(self.index() + 2) % 4]
    }

    pub fn is_front(self) -> bool {
        matches!(self, Corner::FrontLeft | Corner::FrontRight)
    }
}

/// The part of a base that touches the other base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Feature {
    Edge(Edge),
    Corner(Corner),
}

/// One pair of anti-parallel edges lying against each other.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct EdgeContact {
    pub edge_a: Edge,
    pub edge_b: Edge,
    /// Length (cm) of the overlap of the two edges' projections.
    pub length: f32,
}

/// How two bases touch (GEO-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContactKind {
    /// Further apart than [`CONTACT_EPS`].
    None,
    /// Touching, but the edge-contact length is below [`CONTACT_EPS`] (corner-to-corner or corner
    /// to edge). BFS-CBT-12 ranks it between "no contact" and "one edge".
    Corner,
    /// Touching along at least one pair of edges.
    Edge,
}

/// The full answer of [`contact`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Contact {
    pub distance: f32,
    pub kind: ContactKind,
    /// Sum of the edge-contact lengths (0 for corner contact).
    pub edge_length: f32,
    edges: [Option<EdgeContact>; 4],
    /// The principal touching feature of each base (`None` when not in contact): the longest
    /// contacting edge, else a touching corner, else the edge the other base's corner touches.
    pub feature_a: Option<Feature>,
    pub feature_b: Option<Feature>,
    /// Which corners of each base are within [`CONTACT_EPS`] of the other base ([`Corner`] order).
    pub corners_a: [bool; 4],
    pub corners_b: [bool; 4],
}

impl Contact {
    pub fn in_contact(&self) -> bool {
        self.kind != ContactKind::None
    }

    /// The edge pairs in contact.
    pub fn edge_contacts(&self) -> impl Iterator<Item = &EdgeContact> {
        self.edges.iter().flatten()
    }

    /// Edge-contact length on one edge of base `a`.
    pub fn length_on_a(&self, e: Edge) -> f32 {
        self.edge_contacts()
            .filter(|c| c.edge_a == e)
            .map(|c| c.length)
            .sum()
    }

    /// Edge-contact length on one edge of base `b`.
    pub fn length_on_b(&self, e: Edge) -> f32 {
        self.edge_contacts()
            .filter(|c| c.edge_b == e)
            .map(|c| c.length)
            .sum()
    }

    /// The same contact seen from `b`.
    pub fn swapped(&self) -> Contact {
        let mut edges = self.edges;
        for c in edges.iter_mut().flatten() {
            core::mem::swap(&mut c.edge_a, &mut c.edge_b);
        }
        Contact {
            distance: self.distance,
            kind: self.kind,
            edge_length: self.edge_length,
            edges,
            feature_a: self.feature_b,
            feature_b: self.feature_a,
            corners_a: self.corners_b,
            corners_b: self.corners_a,
        }
    }
}

/// Are two bases in contact (distance ≤ [`CONTACT_EPS`], GEO-3)?
pub fn in_contact(a: &Rect, b: &Rect) -> Result<bool, GeoError> {
    a.check("first base")?;
    b.check("second base")?;
    Ok(rect_distance_unchecked(a, b) <= CONTACT_EPS)
}

/// Classifies the contact between two bases (GEO-3).
pub fn contact(a: &Rect, b: &Rect) -> Result<Contact, GeoError> {
    a.check("first base")?;
    b.check("second base")?;
    let distance = rect_distance_unchecked(a, b);
    let mut out = Contact {
        distance,
        kind: ContactKind::None,
        edge_length: 0.0,
        edges: [None; 4],
        feature_a: None,
        feature_b: None,
        corners_a: [false; 4],
        corners_b: [false; 4],
    };
    if distance > CONTACT_EPS {
        return Ok(out);
    }
    let cos_tol = PARALLEL_EPS_RAD.cos();
    let mut n = 0;
    for ea in Edge::ALL {
        let sa = a.edge(ea);
        let na = a.edge_normal(ea);
        for eb in Edge::ALL {
            let nb = b.edge_normal(eb);
            if na.dot(nb) > -cos_tol {
                continue; // not anti-parallel
            }
            let sb = b.edge(eb);
            if prim::segment_segment_distance(sa.a, sa.b, sb.a, sb.b) > CONTACT_EPS {
                continue;
            }
            let dir = sa.direction();
            let len = sa.length();
            let (p, q) = ((sb.a - sa.a).dot(dir), (sb.b - sa.a).dot(dir));
            let overlap = (p.max(q).min(len) - p.min(q).max(0.0)).max(0.0);
            if overlap > 0.0 && n < 4 {
                out.edges[n] = Some(EdgeContact {
                    edge_a: ea,
                    edge_b: eb,
                    length: overlap,
                });
                out.edge_length += overlap;
                n += 1;
            }
        }
    }
    out.kind = if out.edge_length >= CONTACT_EPS {
        ContactKind::Edge
    } else {
        ContactKind::Corner
    };
    let ca = a.corners();
    let cb = b.corners();
    for i in 0..4 {
        out.corners_a[i] = b.distance_to_point(ca[i]) <= CONTACT_EPS;
        out.corners_b[i] = a.distance_to_point(cb[i]) <= CONTACT_EPS;
    }
    out.feature_a = Some(principal_feature(
        a,
        &ca,
        &out.corners_a,
        b,
        out.edge_contacts().map(|c| (c.edge_a, c.length)),
    ));
    out.feature_b = Some(principal_feature(
        b,
        &cb,
        &out.corners_b,
        a,
        out.edge_contacts().map(|c| (c.edge_b, c.length)),
    ));
    Ok(out)
}

fn principal_feature(
    me: &Rect,
    my_corners: &[Vec2; 4],
    touching: &[bool; 4],
    other: &Rect,
    edges: impl Iterator<Item = (Edge, f32)>,
) -> Feature {
    if let Some((e, len)) = edges.max_by(|x, y| x.1.total_cmp(&y.1))
        && len >= CONTACT_EPS
    {
        return Feature::Edge(e);
    }
    // A corner of mine touches: the nearest one.
    let mut best: Option<(usize, f32)> = None;
    for i in 0..4 {
        if touching[i] {
            let d = other.distance_to_point(my_corners[i]);
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((i, d));
            }
        }
    }
    if let Some((i, _)) = best {
        return Feature::Corner(Corner::ALL[i]);
    }
    // Otherwise one of the other's corners touches one of my edges: the nearest edge to it.
    let oc = other.corners();
    let mut best_edge = (Edge::Front, f32::INFINITY);
    for e in Edge::ALL {
        let s = me.edge(e);
        for c in &oc {
            let d = s.distance_to_point(*c);
            if d < best_edge.1 {
                best_edge = (e, d);
            }
        }
    }
    Feature::Edge(best_edge.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(x: f32, y: f32, a: f32) -> Rect {
        Rect::try_new(Vec2::new(x, y), Vec2::new(4.0, 2.0), a).unwrap()
    }

    #[test]
    fn front_to_front_full_edge() {
        // a faces north, b faces south, fronts touching along the line y = 1: 4 cm of edge.
        let a = base(0.0, 0.0, 0.0);
        let b = base(0.0, 2.0, core::f32::consts::PI);
        let c = contact(&a, &b).unwrap();
        assert_eq!(c.kind, ContactKind::Edge);
        assert!((c.edge_length - 4.0).abs() < 1e-5);
        assert_eq!(c.feature_a, Some(Feature::Edge(Edge::Front)));
        assert_eq!(c.feature_b, Some(Feature::Edge(Edge::Front)));
        assert!((c.length_on_a(Edge::Front) - 4.0).abs() < 1e-5);
    }

    #[test]
    fn offset_front_to_flank_partial_edge() {
        // b stands on a's front, rear to front, shifted 3 cm right: b spans x ∈ [1, 5], a's front
        // edge x ∈ [-2, 2], so 1 cm of edge is in contact.
        let a = base(0.0, 0.0, 0.0);
        let b = base(3.0, 2.0, 0.0); // rear edge y = 1, x ∈ [1, 5]
        let c = contact(&a, &b).unwrap();
        assert_eq!(c.kind, ContactKind::Edge);
        assert!((c.edge_length - 1.0).abs() < 1e-5);
        assert_eq!(c.feature_a, Some(Feature::Edge(Edge::Front)));
        assert_eq!(c.feature_b, Some(Feature::Edge(Edge::Rear)));
    }

    #[test]
    fn corner_to_corner() {
        // b's rear-left corner sits exactly on a's front-right corner (2, 1).
        let a = base(0.0, 0.0, 0.0);
        let b = base(4.0, 2.0, 0.0);
        let c = contact(&a, &b).unwrap();
        assert_eq!(c.kind, ContactKind::Corner);
        assert_eq!(c.feature_a, Some(Feature::Corner(Corner::FrontRight)));
        assert_eq!(c.feature_b, Some(Feature::Corner(Corner::RearLeft)));
    }

    #[test]
    fn corner_into_front_edge() {
        // b is turned 45° and its rear corner touches the middle of a's front edge.
        let a = base(0.0, 0.0, 0.0);
        let ang = core::f32::consts::FRAC_PI_4;
        let probe = Rect::try_new(Vec2::ZERO, Vec2::new(4.0, 2.0), ang).unwrap();
        // Lowest corner of the turned base relative to its centre:
        let low = probe
            .corners()
            .iter()
            .map(|c| c.y)
            .fold(f32::INFINITY, f32::min);
        let b = Rect::try_new(Vec2::new(0.0, 1.0 - low), Vec2::new(4.0, 2.0), ang).unwrap();
        let c = contact(&a, &b).unwrap();
        assert_eq!(c.kind, ContactKind::Corner);
        assert_eq!(c.feature_a, Some(Feature::Edge(Edge::Front)));
        assert!(matches!(c.feature_b, Some(Feature::Corner(_))));
        assert!(c.corners_b.iter().any(|x| *x));
        assert!(!c.corners_a.iter().any(|x| *x));
    }

    #[test]
    fn slightly_turned_edges_within_half_a_degree_still_count() {
        let a = base(0.0, 0.0, 0.0);
        // b front-to-front, lifted by 0.3° about a's front-left corner: its right end is
        // 4 × sin 0.3° ≈ 0.021 cm up, but the edges are anti-parallel within 0.5° and touch at the
        // left end, so the whole 4 cm counts (GEO-3).
        let t = 0.3f32.to_radians();
        let b0 = Rect::try_new(
            Vec2::new(0.0, 2.0),
            Vec2::new(4.0, 2.0),
            core::f32::consts::PI,
        )
        .unwrap();
        let b = b0.rotated_about(Vec2::new(-2.0, 1.0), t);
        let c = contact(&a, &b).unwrap();
        assert_eq!(c.kind, ContactKind::Edge);
        assert!(c.edge_length > 3.9);
        // Turned by 2° it is no longer an edge contact.
        let b = b0.rotated_about(Vec2::new(-2.0, 1.0), 2f32.to_radians());
        assert_eq!(contact(&a, &b).unwrap().kind, ContactKind::Corner);
    }

    #[test]
    fn apart_is_none_and_swapped_is_symmetric() {
        let a = base(0.0, 0.0, 0.0);
        let b = base(0.0, 2.5, core::f32::consts::PI);
        let c = contact(&a, &b).unwrap();
        assert_eq!(c.kind, ContactKind::None);
        assert!(!in_contact(&a, &b).unwrap());
        let b = base(3.0, 2.0, 0.0);
        let ab = contact(&a, &b).unwrap();
        let ba = contact(&b, &a).unwrap();
        assert_eq!(ab.swapped().feature_a, ba.feature_a);
        assert!((ab.edge_length - ba.edge_length).abs() < 1e-5);
    }
}
