//! Shapes on top of the table: the legal charge targets of a charging unit about to move
//! (BFS-CHG-3/4), and the overlays a player switches on — field of vision (BFS-FOV), field of
//! fire with its range bands (BFS-SHO-3; a gun's case-shot too, BFS-ART-5), command ranges
//! (BFS-CMD-4) and the 2 cm zones around the enemy (BFS-MOV-11).

use super::plan::movable;
use super::table::unit_of;
use crate::ids::Side;
use crate::state::{Game, OrderKind, UnitStatus};
use crate::{authority, charge, geo, sight};
use sandtable_engine::Seat;
use sandtable_engine::present::{Outline, OverlayKind, PieceId, Shape, Tone};
use sandtable_geometry::Vec2;
use sandtable_geometry::vision::VisionArc;

pub const OVERLAYS: &[OverlayKind] = &[
    OverlayKind {
        id: "vision",
        label: "Field of vision (BFS-FOV)",
        key: 'V',
    },
    OverlayKind {
        id: "fire",
        label: "Field of fire and range bands (BFS-SHO-3)",
        key: 'G',
    },
    OverlayKind {
        id: "command",
        label: "Command ranges (BFS-CMD-4)",
        key: 'N',
    },
    OverlayKind {
        id: "zones",
        label: "2 cm zones around the enemy (BFS-MOV-11)",
        key: 'Z',
    },
];

/// How far the field of vision is drawn, cm: far enough to cross any table it is looked at on.
const SIGHT_DRAWN_CM: f32 = 80.0;
const SIGHT_RADIUS_DRAWN_CM: f32 = 60.0;
/// The zone around enemy bases that others may not enter but to charge (BFS-MOV-11), cm.
const ZONE_CM: f32 = 2.0;

pub fn shapes(
    view: &Game,
    seat: Seat,
    selection: Option<PieceId>,
    overlays: &[&str],
) -> Vec<Shape> {
    let on = |id: &str| overlays.contains(&id);
    let mut out = Vec::new();
    if let Some(unit) = unit_of(view, selection) {
        let u = view.unit(unit);
        let scene = geo::scene(view);
        if movable(view, seat, unit) && u.order == Some(OrderKind::Charge) {
            let opts = charge::target_options(view, &scene, unit);
            for (t, _) in &opts.visible {
                let tone = if opts.free.contains(t) {
                    Tone::Choice
                } else {
                    Tone::CostlyChoice
                };
                out.extend(
                    view.unit(*t)
                        .bases
                        .iter()
                        .map(|b| Shape::rect(*b, 0.8, tone)),
                );
            }
        }
        if on("vision") && u.status == UnitStatus::OnTable {
            let frame = geo::unit_frame(u);
            if sight::arc_of(view, unit) == VisionArc::Front180 {
                let a = frame.front_left() - frame.pose.right() * SIGHT_DRAWN_CM;
                let b = frame.front_right() + frame.pose.right() * SIGHT_DRAWN_CM;
                out.push(Shape::new(Outline::Line(vec![a, b]), Tone::Sight));
            } else {
                out.push(Shape::new(
                    Outline::Circle {
                        centre: frame.center(),
                        radius: SIGHT_RADIUS_DRAWN_CM,
                    },
                    Tone::Sight,
                ));
            }
            for e in sight::visible_enemies(view, &scene, unit) {
                out.extend(
                    view.unit(e)
                        .bases
                        .iter()
                        .map(|b| Shape::rect(*b, 0.4, Tone::Sight)),
                );
            }
        }
        if on("fire")
            && let Some(w) = view.unit_profile(unit).ranged
        {
            let s = w.stats(view.unit_profile(unit).is_mounted());
            let frame = geo::unit_frame(u);
            let (f, r) = (frame.facing(), frame.pose.right());
            // A gun's case-shot reaches a shorter way (BFS-ART-5).
            let case =
                crate::artillery::gun_of(view.unit_profile(unit)).map(|g| g.stats().case_range_cm);
            for (band, tone) in [
                (case, Tone::ReachClose),
                (Some(s.effective_cm), Tone::ReachNear),
                (s.long_cm, Tone::ReachFar),
            ] {
                let Some(d) = band else { continue };
                // The 90° front zone (BFS-SHO-3) out to the band: its 45° side rays and the
                // front edge pushed out by the band's range.
                let (fl, fr) = (frame.front_left(), frame.front_right());
                let pts: Vec<Vec2> = vec![
                    fl,
                    fl + (f - r).normalize() * d,
                    fl + f * d,
                    fr + f * d,
                    fr + (f + r).normalize() * d,
                    fr,
                ];
                out.push(Shape::new(Outline::Line(pts), tone));
            }
        }
    }
    if on("command") {
        for c in view
            .commanders
            .iter()
            .filter(|c| c.status == UnitStatus::OnTable)
        {
            out.push(Shape::new(
                Outline::Circle {
                    centre: c.base.center(),
                    radius: authority::command_range_cm(view, c.id)
                        + c.base.half.x.max(c.base.half.y),
                },
                Tone::Side(c.side.0),
            ));
        }
    }
    if on("zones") {
        for u in view
            .units
            .iter()
            .filter(|u| u.status == UnitStatus::OnTable && u.side != Side(seat))
        {
            out.extend(u.bases.iter().map(|b| {
                Shape::new(
                    Outline::Rounded {
                        rect: *b,
                        radius: ZONE_CM,
                    },
                    Tone::Keep,
                )
            }));
        }
    }
    out
}
