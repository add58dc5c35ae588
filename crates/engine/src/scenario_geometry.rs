//! Turning the scenario's shapes into table geometry.

use crate::scenario::{ShapeSpec, TableEdge};
use sandtable_geometry::Vec2;

/// The outline of a terrain shape as one or more simple polygons (a strip becomes one quad per
/// segment, plus its joints).
pub fn shape_polygons(shape: &ShapeSpec) -> Vec<Vec<Vec2>> {
    match shape {
        ShapeSpec::Rect {
            center,
            size,
            rotation,
        } => {
            let c = Vec2::new(center.0, center.1);
            let (hx, hy) = (size.0 * 0.5, size.1 * 0.5);
            // Rotation is clockwise in degrees, as for facings.
            let rot = Vec2::from_angle(-rotation.to_radians());
            let pts = [(-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)];
            vec![
                pts.iter()
                    .map(|&(x, y)| c + rot.rotate(Vec2::new(x, y)))
                    .collect(),
            ]
        }
        ShapeSpec::Polygon(points) => vec![points.iter().map(|&(x, y)| Vec2::new(x, y)).collect()],
        ShapeSpec::Strip { points, width } => {
            let hw = width * 0.5;
            let pts: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
            let mut out = Vec::new();
            for w in pts.windows(2) {
                let d = (w[1] - w[0]).normalize_or_zero();
                let n = d.perp() * hw;
                out.push(vec![w[0] - n, w[1] - n, w[1] + n, w[0] + n]);
            }
            // Fill the outer wedge at each bend so the strip has no notch.
            for w in pts.windows(3) {
                let d0 = (w[1] - w[0]).normalize_or_zero();
                let d1 = (w[2] - w[1]).normalize_or_zero();
                if d0.perp_dot(d1).abs() > 1e-4 {
                    let s = if d0.perp_dot(d1) > 0.0 { -1.0 } else { 1.0 };
                    out.push(vec![
                        w[1],
                        w[1] + d0.perp() * hw * s,
                        w[1] + d1.perp() * hw * s,
                    ]);
                }
            }
            out
        }
    }
}

/// Signed area (counter-clockwise positive).
pub fn polygon_area(points: &[Vec2]) -> f32 {
    let n = points.len();
    (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum::<f32>()
        * 0.5
}

/// True when two edges of the polygon cross (other than neighbours sharing a vertex).
pub fn polygon_self_intersects(points: &[Vec2]) -> bool {
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        for j in i + 1..n {
            if j == i || (j + 1) % n == i || (i + 1) % n == j {
                continue;
            }
            let (c, d) = (points[j], points[(j + 1) % n]);
            if segments_cross(a, b, c, d) {
                return true;
            }
        }
    }
    false
}

fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let o1 = (b - a).perp_dot(c - a);
    let o2 = (b - a).perp_dot(d - a);
    let o3 = (d - c).perp_dot(a - c);
    let o4 = (d - c).perp_dot(b - c);
    o1 * o2 < 0.0 && o3 * o4 < 0.0
}

/// Outward unit normal of a table edge (pointing off the table).
pub fn edge_outward(edge: TableEdge) -> Vec2 {
    match edge {
        TableEdge::North => Vec2::Y,
        TableEdge::South => Vec2::NEG_Y,
        TableEdge::East => Vec2::X,
        TableEdge::West => Vec2::NEG_X,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rect_rotation_is_clockwise() {
        let polys = shape_polygons(&ShapeSpec::Rect {
            center: (0.0, 0.0),
            size: (4.0, 2.0),
            rotation: 90.0,
        });
        let p = &polys[0];
        // A 4-wide, 2-deep rectangle turned 90° clockwise is 2 wide and 4 deep.
        let max_x = p.iter().map(|v| v.x).fold(f32::MIN, f32::max);
        let max_y = p.iter().map(|v| v.y).fold(f32::MIN, f32::max);
        assert!((max_x - 1.0).abs() < 1e-5 && (max_y - 2.0).abs() < 1e-5);
        assert!((polygon_area(p).abs() - 8.0).abs() < 1e-4);
    }

    #[test]
    fn bow_tie_self_intersects() {
        let bow = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(0.0, 2.0),
        ];
        assert!(polygon_self_intersects(&bow));
        let square = [
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        assert!(!polygon_self_intersects(&square));
    }

    #[test]
    fn strip_makes_one_quad_per_segment_and_fills_bends() {
        let polys = shape_polygons(&ShapeSpec::Strip {
            points: vec![(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)],
            width: 2.0,
        });
        assert_eq!(polys.len(), 3);
        assert!((polygon_area(&polys[0]).abs() - 20.0).abs() < 1e-4);
    }
}
