//! Shapes on top of the table: for a selected unit of the side acting, the enemies it may fire
//! at or charge now; and the overlays a player switches on — weapon ranges (NQ-FIRE-4,
//! NQ-ART-1), charge reach (NQ-MOV-3), leaders' command radius (G5) and support distance
//! (NQ-MOR-2).

use super::table::unit_of;
use crate::charge::charge_reach;
use crate::command::Command;
use crate::rules::legal;
use crate::state::{Game, INCH};
use crate::tables::tables;
use crate::vocab::Arm;
use sandtable_engine::Seat;
use sandtable_engine::present::{Outline, OverlayKind, PieceId, Shape, Tone};

pub const OVERLAYS: &[OverlayKind] = &[
    OverlayKind {
        id: "ranges",
        label: "Weapon ranges (NQ-FIRE-4, NQ-ART-1)",
        key: 'G',
    },
    OverlayKind {
        id: "charge",
        label: "Charge reach (NQ-MOV-3)",
        key: 'V',
    },
    OverlayKind {
        id: "command",
        label: "Command radius of leaders (G5)",
        key: 'N',
    },
    OverlayKind {
        id: "support",
        label: "Support within 6\" (NQ-MOR-2)",
        key: 'Z',
    },
];

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
        let r = u.rect();
        if u.side == seat && super::plan::acting(view, seat, unit) {
            for e in view.enemies_of(u.side) {
                let fire = legal(
                    view,
                    &Command::Fire {
                        unit,
                        target: e.id,
                        actions: 1,
                    },
                )
                .is_ok();
                let charge = legal(view, &Command::Charge { unit, target: e.id }).is_ok();
                if charge {
                    out.push(Shape::rect(e.rect(), 0.3 * INCH, Tone::Choice));
                } else if fire {
                    out.push(Shape::rect(e.rect(), 0.3 * INCH, Tone::CostlyChoice));
                }
            }
        }
        if on("ranges") && u.present() {
            let t = tables();
            match u.arm() {
                Arm::Artillery { calibre, .. } => {
                    let a = t.artillery_range(calibre);
                    out.push(Shape::new(
                        Outline::Circle {
                            centre: r.center(),
                            radius: a.close * INCH,
                        },
                        Tone::ReachNear,
                    ));
                    out.push(Shape::new(
                        Outline::Circle {
                            centre: r.center(),
                            radius: a.extreme * INCH,
                        },
                        Tone::ReachFar,
                    ));
                }
                _ => {
                    if let Some(s) = u
                        .profile
                        .small_arm()
                        .and_then(|w| t.small_arms.iter().find(|s| s.weapon == w))
                    {
                        if let Some(c) = s.close {
                            out.push(Shape::new(
                                Outline::Rounded {
                                    rect: r,
                                    radius: c * INCH,
                                },
                                Tone::ReachNear,
                            ));
                        }
                        if let Some(far) = s.extreme.or(s.long) {
                            out.push(Shape::new(
                                Outline::Rounded {
                                    rect: r,
                                    radius: far * INCH,
                                },
                                Tone::ReachFar,
                            ));
                        }
                    }
                }
            }
        }
        if on("charge") {
            let reach = charge_reach(view, unit);
            if reach > 0.0 {
                out.push(Shape::new(
                    Outline::Rounded {
                        rect: r,
                        radius: reach * INCH,
                    },
                    Tone::Sight,
                ));
            }
        }
        if on("support") {
            out.push(Shape::new(
                Outline::Rounded {
                    rect: r,
                    radius: tables().distances.support * INCH,
                },
                Tone::Side(u.side),
            ));
        }
    }
    if on("command") {
        for l in view.leaders.iter().filter(|l| l.alive) {
            out.push(Shape::new(
                Outline::Circle {
                    centre: l.pos,
                    radius: view.options.command_radius * INCH,
                },
                Tone::Side(l.side),
            ));
        }
    }
    out
}
