//! Where a unit stands (G1): its footprint from its figures and formation, its arcs (the house
//! front arc of digest §9: 45° outward from the front corners), and the figures that can fire
//! (G11). Sizes come from the tables file; everything returned is centimetres.

use crate::state::{Facing, INCH};
use crate::tables::tables;
use crate::vocab::{Arm, Formation};
use sandtable_geometry::{Pose, Rect, Vec2};

/// Width and depth of a unit, inches (G1).
pub fn size_inches(arm: Arm, formation: Formation, figures: u32) -> (f32, f32) {
    let t = &tables().figures;
    let f = figures.max(1) as f32;
    let half_up = |n: f32| (n / 2.0).ceil();
    let (w, d) = match arm {
        Arm::Infantry => {
            let (fw, fd) = t.infantry;
            match formation {
                // Two ranks.
                Formation::Line => (half_up(f) * fw, 2.0 * fd),
                // Four files wide.
                Formation::Column => (4.0 * fw, (f / 4.0).ceil() * fd),
                // Two files.
                Formation::RoadColumn => (2.0 * fw, half_up(f) * fd),
                // Four equal faces, each a column's frontage.
                Formation::Square => (4.0 * fw, 4.0 * fw),
                // One rank, files an inch apart.
                Formation::Skirmish => (f * t.skirmish_spacing, fd),
                Formation::Limbered | Formation::Unlimbered => (half_up(f) * fw, 2.0 * fd),
            }
        }
        Arm::Cavalry(_) => {
            let (fw, fd) = t.cavalry;
            match formation {
                Formation::Column => (2.0 * fw, half_up(f) * fd),
                Formation::RoadColumn => (fw, f * fd),
                Formation::Skirmish => (f * t.skirmish_spacing, fd),
                _ => (half_up(f) * fw, 2.0 * fd),
            }
        }
        Arm::Artillery {
            guns, howitzers, ..
        } => {
            let (gw, gd) = t.gun_model;
            let models = ((guns as u32 + howitzers as u32) as f32 / t.guns_per_model as f32)
                .ceil()
                .max(1.0);
            match formation {
                // Limbered: the models one behind the other, each with its limber.
                Formation::Limbered | Formation::RoadColumn | Formation::Column => {
                    (gw, models * gd * 1.5)
                }
                _ => (models * gw + (models - 1.0) * t.gun_interval, gd),
            }
        }
    };
    (w.max(0.5), d.max(0.5))
}

/// The footprint of a unit whose front edge is centred on `front`, facing `bearing`.
pub fn rect(arm: Arm, formation: Formation, figures: u32, front: Vec2, bearing: f32) -> Rect {
    let (w, d) = size_inches(arm, formation, figures);
    let pose = Pose::from_bearing_deg(front, bearing);
    Rect::from_front_mid(front, Vec2::new(w * INCH, d * INCH), pose.angle)
}

/// Which arc of `target` the point `p` lies in (digest §9, house): ahead of the front edge
/// between lines leaving the front corners at 45° outward is the front; behind the rear edge,
/// between the flanks' lines, the rear; the rest the flanks. A square has no flank or rear (G18).
pub fn arc_of(target: &Rect, p: Vec2, square: bool) -> Facing {
    if square {
        return Facing::Front;
    }
    let l = target.pose.to_local(p);
    let (hx, hy) = (target.half.x, target.half.y);
    if l.y >= hy && l.x.abs() - hx <= l.y - hy {
        Facing::Front
    } else if l.y <= -hy && l.x.abs() <= hx {
        Facing::Rear
    } else {
        Facing::Flank
    }
}

/// Is `p` in the front arc of `r` (45° outward from the front corners)?
pub fn in_front_arc(r: &Rect, p: Vec2) -> bool {
    arc_of(r, p, false) == Facing::Front
}

/// Is any part of `target` in the front arc of `r`: its centre or a corner.
pub fn rect_in_front_arc(r: &Rect, target: &Rect) -> bool {
    std::iter::once(target.center())
        .chain(target.corners())
        .any(|p| in_front_arc(r, p))
}

/// Figures that can fire (G11): line and skirmishers all, column its front two ranks, road column
/// its front two, square one face; rounded down to a multiple of 4 by the table lookup.
pub fn figures_firing(arm: Arm, formation: Formation, figures: u32) -> u32 {
    match (arm, formation) {
        (Arm::Artillery { .. }, _) => 0,
        (Arm::Infantry, Formation::Column) => figures.min(8),
        (Arm::Infantry, Formation::RoadColumn) => figures.min(4),
        (Arm::Infantry, Formation::Square) => figures / 4,
        (Arm::Cavalry(_), Formation::Column) => figures.min(4),
        (Arm::Cavalry(_), Formation::RoadColumn) => figures.min(2),
        _ => figures,
    }
}

/// The frontage of one figure along the front, inches.
pub fn figure_frontage(arm: Arm, formation: Formation) -> f32 {
    let t = &tables().figures;
    match (arm, formation) {
        (_, Formation::Skirmish) => t.skirmish_spacing,
        (Arm::Cavalry(_), _) => t.cavalry.0,
        (Arm::Artillery { .. }, _) => t.gun_model.0 + t.gun_interval,
        _ => t.infantry.0,
    }
}

/// Figures standing along an edge of `length` inches of a unit's `facing` side.
pub fn figures_along(
    arm: Arm,
    formation: Formation,
    figures: u32,
    length_in: f32,
    side: Facing,
) -> u32 {
    let per = match side {
        Facing::Front | Facing::Rear => figure_frontage(arm, formation),
        Facing::Flank => match arm {
            Arm::Cavalry(_) => tables().figures.cavalry.1,
            _ => tables().figures.infantry.1,
        },
    };
    (((length_in + 1e-3) / per).floor() as u32).min(figures)
}

/// The gap between two footprints, cm (0 when they touch or overlap).
pub fn gap(a: &Rect, b: &Rect) -> f32 {
    sandtable_geometry::distance::rect_distance_exact(a, b).unwrap_or(f32::MAX)
}

/// Do two footprints overlap (touching is not overlapping)?
pub fn overlap(a: &Rect, b: &Rect) -> bool {
    sandtable_geometry::distance::overlaps(a, b).unwrap_or(true)
}

/// Is the footprint wholly on a table of this size?
pub fn on_table(r: &Rect, table: Vec2) -> bool {
    r.corners()
        .iter()
        .all(|p| p.x >= -0.01 && p.y >= -0.01 && p.x <= table.x + 0.01 && p.y <= table.y + 0.01)
}
