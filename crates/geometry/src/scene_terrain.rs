//! Terrain pieces as sight occluders for the vision culling: each piece that blocks sight cut into
//! convex parts and shrunk so that a line through a part is certainly blocked. The scene builds one
//! per piece; the cutting and shrinking is polygon work of its own, apart from the scene's indexes.

use crate::prim;
use crate::terrain::TerrainPiece;
use crate::tolerance::{CERT_INSET_CM, CONTACT_EPS};
use glam::Vec2;

/// A terrain piece as sight occluders for the vision culling (`occlusion`): convex parts of the
/// piece, each shrunk so that a line through the shrunk part is blocked by the piece under GEO-5's
/// exact test — provided, for a concave piece, that the line crosses none of the part's `cuts`
/// (the diagonals it was cut from the rest of the piece along). Such a line leaves the part through
/// edges of the piece on both sides, so its stretch inside the piece is exactly its chord through
/// the (convex) part, and the depth below the part's boundary is concave along that chord:
///
/// * `Blocks`: parts shrunk by [`CONTACT_EPS`] + [`CERT_INSET_CM`]. A chord reaching that depth
///   has its midpoint deeper than half of it, i.e. deeper than the `CONTACT_EPS / 2` the exact
///   test asks for (the depth below the piece's boundary is at least that below the part's).
/// * `BlocksBeyond(d)`: parts shrunk by `R = max(d + CONTACT_EPS, 2 CONTACT_EPS) / 2` +
///   [`CERT_INSET_CM`]: a line through the shrunk part that starts and ends outside the piece
///   runs more than `2R > d + CONTACT_EPS` inside it (the disc of radius `R` about the point it
///   crosses lies in the part), so `outer` is set: certificates must also keep both ends of the
///   line outside the piece itself.
/// * `Rise`: blocks like `Blocks`, but only a line with neither end on the hill, "on" counting
///   points within [`CONTACT_EPS`] of it (`Polygon::contains`). Parts shrunk as for `Blocks`, and
///   `outer` is set with a margin of [`RISE_OUTER_MARGIN_CM`]: the eye and every certified point
///   keep farther than that from the piece, so no certified line has an end on the hill.
#[derive(Debug, Clone)]
pub(crate) struct TerrainOccluder {
    pub parts: Vec<TerrainPart>,
    /// `Some(margin)`: certified lines must start and end outside the piece, by `margin` more
    /// than the culling's own slack.
    pub outer: Option<f32>,
}

/// How far beyond a rise's outline the eye and certified points must keep: twice the distance
/// within which `Polygon::contains` counts a point as on it.
pub(crate) const RISE_OUTER_MARGIN_CM: f32 = 2.0 * CONTACT_EPS;

/// A convex part of a terrain piece, shrunk, with the cuts lines through it must not cross.
#[derive(Debug, Clone)]
pub(crate) struct TerrainPart {
    pub poly: Vec<Vec2>,
    pub cuts: Vec<(Vec2, Vec2)>,
}

pub(crate) fn terrain_occluder(t: &TerrainPiece) -> Option<TerrainOccluder> {
    use crate::terrain::SightBlock;
    let (by, outer) = match t.sight {
        SightBlock::Clear => return None,
        SightBlock::Blocks => (CONTACT_EPS + CERT_INSET_CM, None),
        SightBlock::BlocksBeyond(d) => (
            0.5 * (d + CONTACT_EPS).max(2.0 * CONTACT_EPS) + CERT_INSET_CM,
            Some(0.0),
        ),
        // A rise hides nothing from an eye on it, nor a target on it: it stands in a horizon
        // only for eyes and points kept clear of it.
        SightBlock::Rise => (CONTACT_EPS + CERT_INSET_CM, Some(RISE_OUTER_MARGIN_CM)),
    };
    let v = t.polygon.vertices();
    let parts: Vec<TerrainPart> = if t.polygon.is_convex() {
        eroded_convex(v, by)
            .map(|poly| TerrainPart { poly, cuts: vec![] })
            .into_iter()
            .collect()
    } else {
        convex_parts(v, t.polygon.triangles())
            .into_iter()
            .filter_map(|part| {
                let n = v.len();
                let m = part.len();
                // A part's edge between vertices that are not neighbours on the piece is a cut.
                let cuts = (0..m)
                    .map(|k| (part[k], part[(k + 1) % m]))
                    .filter(|&(i, j)| (i + 1) % n != j)
                    .map(|(i, j)| (v[i], v[j]))
                    .collect();
                let pts: Vec<Vec2> = part.iter().map(|&i| v[i]).collect();
                eroded_convex(&pts, by).map(|poly| TerrainPart { poly, cuts })
            })
            .collect()
    };
    (!parts.is_empty()).then_some(TerrainOccluder { parts, outer })
}

/// Convex parts of a simple counter-clockwise polygon, as vertex-index cycles (counter-clockwise):
/// its triangles merged across shared diagonals while the union stays convex (Hertel–Mehlhorn).
fn convex_parts(v: &[Vec2], triangles: &[[usize; 3]]) -> Vec<Vec<usize>> {
    let mut parts: Vec<Vec<usize>> = triangles.iter().map(|t| t.to_vec()).collect();
    let convex = |p: &[usize]| {
        let m = p.len();
        (0..m).all(|k| prim::orient(v[p[k]], v[p[(k + 1) % m]], v[p[(k + 2) % m]]) >= 0.0)
    };
    let mut merged = true;
    while merged {
        merged = false;
        'search: for a in 0..parts.len() {
            for b in a + 1..parts.len() {
                // A shared edge: u → w in `a`, w → u in `b`.
                let pa = &parts[a];
                let pb = &parts[b];
                for ka in 0..pa.len() {
                    let (u, w) = (pa[ka], pa[(ka + 1) % pa.len()]);
                    let Some(kb) =
                        (0..pb.len()).find(|&k| pb[k] == w && pb[(k + 1) % pb.len()] == u)
                    else {
                        continue;
                    };
                    // `a` from w round to u, then `b` from u round to w (exclusive).
                    let mut union: Vec<usize> =
                        (0..pa.len()).map(|k| pa[(ka + 1 + k) % pa.len()]).collect();
                    union.extend((1..pb.len() - 1).map(|k| pb[(kb + 1 + k) % pb.len()]));
                    if convex(&union) {
                        parts[a] = union;
                        parts.swap_remove(b);
                        merged = true;
                        break 'search;
                    }
                }
            }
        }
    }
    parts
}

/// A convex counter-clockwise polygon shrunk by `by` (the points at least `by` inside every edge
/// line), if anything of it is left.
pub(crate) fn eroded_convex(poly: &[Vec2], by: f32) -> Option<Vec<Vec2>> {
    let n = poly.len();
    let mut cur = poly.to_vec();
    let mut tmp = Vec::with_capacity(n + 2);
    for i in 0..n {
        let a = poly[i];
        let inward = (poly[(i + 1) % n] - a).perp().normalize_or_zero();
        if inward == Vec2::ZERO {
            return None;
        }
        prim::clip_halfplane(&cur, a + inward * by, inward, &mut tmp);
        core::mem::swap(&mut cur, &mut tmp);
        if cur.len() < 3 {
            return None;
        }
    }
    (prim::signed_area(&cur) > crate::tolerance::AREA_EPS_CM2).then_some(cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_l_splits_into_two_convex_parts_with_one_cut() {
        let l = crate::polygon::Polygon::new(vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(4.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 4.0),
            Vec2::new(0.0, 4.0),
        ])
        .unwrap();
        let parts = convex_parts(l.vertices(), l.triangles());
        assert_eq!(parts.len(), 2);
        let area: f32 = parts
            .iter()
            .map(|p| {
                let pts: Vec<Vec2> = p.iter().map(|&i| l.vertices()[i]).collect();
                prim::signed_area(&pts)
            })
            .sum();
        assert!((area - 7.0).abs() < 1e-4);
        let t = TerrainPiece::new(1, l).with_sight(crate::terrain::SightBlock::Blocks);
        let occ = terrain_occluder(&t).unwrap();
        assert_eq!(occ.parts.len(), 2);
        assert!(occ.parts.iter().all(|p| p.cuts.len() == 1));
        assert!(
            terrain_occluder(&t.clone().with_sight(crate::terrain::SightBlock::Clear)).is_none()
        );
    }
}
