//! Where a unit's bases stand at deployment, from its scenario entry and profile.

use crate::scenario_spec::FormationSpec;
use sandtable_geometry::{Pose, Rect, Vec2};

/// Gap between neighbouring bases of an Open Order unit at deployment, cm (BFS-OO-2 allows 0.5–2).
pub const OPEN_ORDER_GAP_CM: f32 = 1.0;

/// The bases of a unit whose front edge is centred on `front_mid`, facing `bearing_deg`.
///
/// A Line fills ranks of `files` bases from the front; a short last rank is centred. A Column is a
/// Line of one file. Open Order puts all bases in one rank with [`OPEN_ORDER_GAP_CM`] between them.
pub fn deployment_rects(
    formation: FormationSpec,
    bases: u8,
    base_size: (f32, f32),
    front_mid: Vec2,
    bearing_deg: f32,
) -> Vec<Rect> {
    let frame = Pose::from_bearing_deg(front_mid, bearing_deg);
    let (w, d) = base_size;
    let n = bases as usize;
    let mut out = Vec::with_capacity(n);
    match formation {
        FormationSpec::OpenOrder => {
            let pitch = w + OPEN_ORDER_GAP_CM;
            for j in 0..n {
                let x = (j as f32 - (n as f32 - 1.0) * 0.5) * pitch;
                out.push(Rect::new(
                    Pose::new(frame.to_world(Vec2::new(x, -d * 0.5)), frame.angle),
                    Vec2::new(w, d) * 0.5,
                ));
            }
        }
        FormationSpec::Line { .. } | FormationSpec::Column => {
            let files = match formation {
                FormationSpec::Line { files } => (files as usize).clamp(1, n.max(1)),
                _ => 1,
            };
            for i in 0..n {
                let rank = i / files;
                let in_rank = if (rank + 1) * files <= n {
                    files
                } else {
                    n - rank * files
                };
                let j = i % files;
                let x = (j as f32 - (in_rank as f32 - 1.0) * 0.5) * w;
                let y = -(rank as f32) * d - d * 0.5;
                out.push(Rect::new(
                    Pose::new(frame.to_world(Vec2::new(x, y)), frame.angle),
                    Vec2::new(w, d) * 0.5,
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_of_three_cavalry_facing_north() {
        let r = deployment_rects(
            FormationSpec::Line { files: 3 },
            3,
            (4.0, 3.0),
            Vec2::new(50.0, 20.0),
            0.0,
        );
        let xs: Vec<f32> = r.iter().map(|b| b.center().x).collect();
        assert_eq!(xs, vec![46.0, 50.0, 54.0]);
        assert!(r.iter().all(|b| (b.center().y - 18.5).abs() < 1e-5));
    }

    #[test]
    fn short_last_rank_is_centred_and_behind() {
        let r = deployment_rects(
            FormationSpec::Line { files: 2 },
            3,
            (4.0, 2.0),
            Vec2::new(0.0, 0.0),
            0.0,
        );
        assert!((r[2].center() - Vec2::new(0.0, -3.0)).length() < 1e-5);
    }

    #[test]
    fn facing_south_puts_bases_north_of_the_front() {
        let r = deployment_rects(
            FormationSpec::Column,
            2,
            (4.0, 2.0),
            Vec2::new(10.0, 100.0),
            180.0,
        );
        assert!((r[0].center() - Vec2::new(10.0, 101.0)).length() < 1e-4);
        assert!((r[1].center() - Vec2::new(10.0, 103.0)).length() < 1e-4);
    }
}
