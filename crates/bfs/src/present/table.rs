//! The table as a seat sees it: terrain, objectives, each unit's bases with its name behind it
//! and its order marker beside it (face down to the other side, BFS-ORD-3), and commanders.

use crate::geo;
use crate::ids::{CommanderId, UnitId};
use crate::state::{Game, OrderKind, Unit, UnitStatus};
use sandtable_engine::Seat;
use sandtable_engine::present::{
    Emblem, LengthUnit, ObjectiveMark, Piece, PieceId, PieceKind, TableScene, TerrainPatch, Token,
};
use sandtable_geometry::{Rect, Vec2};

/// Commanders are numbered after every unit a battle could hold.
const COMMANDER_BASE: u32 = 1 << 16;

/// What a piece id stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    Unit(UnitId),
    Commander(CommanderId),
}

pub fn unit_piece(u: UnitId) -> PieceId {
    PieceId(u.0 as u32)
}

pub fn commander_piece(c: CommanderId) -> PieceId {
    PieceId(COMMANDER_BASE + c.0 as u32)
}

/// The unit or commander a piece id names, if the game has it.
pub fn thing(game: &Game, p: PieceId) -> Option<Thing> {
    if p.0 >= COMMANDER_BASE {
        let i = (p.0 - COMMANDER_BASE) as usize;
        (i < game.commanders.len()).then_some(Thing::Commander(CommanderId(i as u16)))
    } else {
        ((p.0 as usize) < game.units.len()).then_some(Thing::Unit(UnitId(p.0 as u16)))
    }
}

/// The unit a piece id names, if it is one.
pub fn unit_of(game: &Game, p: Option<PieceId>) -> Option<UnitId> {
    match thing(game, p?) {
        Some(Thing::Unit(u)) => Some(u),
        _ => None,
    }
}

/// Size of an order marker token, cm.
pub const MARKER_CM: f32 = 2.6;

/// The order marker beside a unit (BFS-SCL-6): the revealed order's letter; a face-down marker
/// shows its letter only to its owner (the view hides it from the other side) and "?" otherwise.
pub fn order_marker(u: &Unit) -> Option<(&'static str, bool)> {
    let letter = |k: OrderKind| match k {
        OrderKind::Move => "M",
        OrderKind::Charge => "C",
        OrderKind::Defense => "D",
    };
    match (u.pending_order, u.order) {
        (Some(p), _) => Some((p.kind.map_or("?", letter), !p.face_up)),
        (None, Some(o)) => Some((letter(o), false)),
        (None, None) => None,
    }
}

/// Where a unit's order marker stands: beside its left flank, level with its front rank.
pub fn marker_centre(u: &Unit) -> Vec2 {
    let frame = geo::unit_frame(u);
    frame.pose.to_world(Vec2::new(
        -frame.half.x - MARKER_CM * 0.5 - 0.6,
        frame.half.y - MARKER_CM * 0.5,
    ))
}

/// What a unit has suffered, shown only when it is not as it began (issue 19): bases left of
/// those it started with ("3/4"), casualty markers ("×2"), Disorganized ("Dz") or in Flight
/// ("Fl"), "Lmb" for a limbered gun, "NoA" out of ammunition and "½A" with half a unit left
/// (BFS-AMM), a train's crews left and "Con" when connected (BFS-WAG-13/14), and "OoC" when no
/// commander who may order it is within his command range
/// (`authority::out_of_command`, BFS-CMD-3). Public knowledge, so every seat sees them.
pub fn status_markers(game: &Game, u: &Unit) -> Vec<String> {
    let mut m = Vec::new();
    if (u.bases.len() as u32) < u.bases_at_start as u32 {
        m.push(format!("{}/{}", u.bases.len(), u.bases_at_start));
    }
    if u.casualty_markers > 0 {
        m.push(format!("×{}", u.casualty_markers));
    }
    match u.morale {
        crate::state::MoraleLevel::Good => {}
        crate::state::MoraleLevel::Disorganized => m.push("Dz".into()),
        crate::state::MoraleLevel::Flight => m.push("Fl".into()),
    }
    if u.gun.is_some_and(|g| g.limbered) {
        // Limbered: it cannot fire until it unlimbers (BFS-ART-16).
        m.push("Lmb".into());
    }
    match u.supply {
        // Out of ammunition, it cannot shoot; with ½ unit, only half its bases (BFS-AMM-1, -3).
        Some(s) if s.is_out() => m.push("NoA".into()),
        Some(crate::ammunition::Supply::Counting { halves: 1, .. }) => m.push("½A".into()),
        _ => {}
    }
    // A War Wagon Train: its crews left ("crew 7/9") and "Con" once connected (BFS-WAG-13/14).
    if let Some(t) = &u.train {
        let full = t.wagons.len() as u32 * game.unit_profile(u.id).strength as u32;
        if t.crew_left() < full {
            m.push(format!("crew {}/{full}", t.crew_left()));
        }
        if t.connected {
            m.push("Con".into());
        }
    }
    // A gun on its fortified base (BFS-ART-19).
    if crate::fortified_gun::dug_in(game, u.id) {
        m.push("Fort".into());
    }
    // Dragoons on foot with horse holders: "H1" for one base holding the horses (BFS-SPC-9).
    if let Some(d) = u.dismounted.filter(|d| d.holders > 0) {
        m.push(format!("H{}", d.holders));
    }
    if crate::authority::out_of_command(game, u.id) {
        m.push("OoC".into());
    }
    m
}

/// A Pike and Shot Battalion's markers (BFS-SPC-21), as the book lays them: one in the gap
/// between the unit and each member of its Battalion within 2 cm of it ("B1" for Battalion 1),
/// carried by the member with the lower id so that each gap has one.
fn battalion_tokens(game: &Game, u: &Unit) -> Vec<Token> {
    let Some(n) = u.battalion else {
        return Vec::new();
    };
    crate::battalion::members(game, u.side, n)
        .into_iter()
        .filter(|m| *m > u.id)
        .filter_map(|m| {
            let other = &game.unit(m).bases;
            let (a, b) = u
                .bases
                .iter()
                .flat_map(|x| other.iter().map(move |y| (x, y)))
                .min_by(|p, q| {
                    let d = |(x, y): &(&Rect, &Rect)| {
                        sandtable_geometry::distance::distance(x, y).unwrap_or(f32::INFINITY)
                    };
                    d(p).total_cmp(&d(q))
                })?;
            let gap = sandtable_geometry::distance::distance(a, b).ok()?;
            // In the gap, no wider than it: members standing closer than 1 cm show theirs on
            // their cards only.
            if !(1.0..=crate::battalion::SPACING_CM + 0.5).contains(&gap) {
                return None;
            }
            let at = match sandtable_geometry::distance::closest_points(a, b) {
                Ok(Some((p, q))) => (p + q) * 0.5,
                _ => (a.center() + b.center()) * 0.5,
            };
            Some(Token {
                at,
                size: (gap * 0.9).min(MARKER_CM * 0.8),
                text: format!("B{n}"),
                face_down: false,
            })
        })
        .collect()
}

/// A gun's additional crew, a marker behind the gun (BFS-ART-18): "Cr" on a token against its
/// rear edge.
fn crew_token(u: &Unit) -> Option<Token> {
    if !u.gun.is_some_and(|g| g.additional_crew) {
        return None;
    }
    let frame = geo::unit_frame(u);
    Some(Token {
        at: frame
            .pose
            .to_world(Vec2::new(0.0, -frame.half.y - MARKER_CM * 0.5)),
        size: MARKER_CM,
        text: "Cr".into(),
        face_down: false,
    })
}

/// The status markers in a column beside the unit's right flank, level with its front rank down;
/// where a neighbour stands too close on that side, in a row centred behind the unit, or else
/// beside the left flank below the order marker: the first place where no marker covers another
/// piece (issue 19: nothing on the table covers anything else).
fn status_tokens(game: &Game, u: &Unit) -> Vec<Token> {
    let frame = geo::unit_frame(u);
    let texts = status_markers(game, u);
    if texts.is_empty() {
        return Vec::new();
    }
    let step = MARKER_CM * 1.1;
    let side = frame.half.x + MARKER_CM * 0.5 + 0.6;
    let top = frame.half.y - MARKER_CM * 0.5;
    let n = texts.len() as f32;
    let places: [&dyn Fn(usize) -> Vec2; 3] = [
        &|i| Vec2::new(side, top - step * i as f32),
        // A row centred behind the unit: plainly its own, whoever stands beside it.
        &|i| {
            Vec2::new(
                step * (i as f32 - (n - 1.0) * 0.5),
                -frame.half.y - MARKER_CM * 0.5 - 0.6,
            )
        },
        // Below the order marker on the left flank.
        &|i| Vec2::new(-side, top - step * (i + 1) as f32),
    ];
    let others: Vec<&Rect> = game
        .units
        .iter()
        .filter(|o| o.id != u.id && o.status == UnitStatus::OnTable)
        .flat_map(|o| o.bases.iter())
        .chain(
            game.commanders
                .iter()
                .filter(|c| c.status == UnitStatus::OnTable)
                .map(|c| &c.base),
        )
        .collect();
    let square = |at: Vec2| {
        Rect::new(
            sandtable_geometry::Pose::new(at, 0.0),
            Vec2::splat(MARKER_CM * 0.5),
        )
    };
    let clear = |place: &dyn Fn(usize) -> Vec2| {
        (0..texts.len()).all(|i| {
            let m = square(frame.pose.to_world(place(i)));
            !others
                .iter()
                .any(|b| sandtable_engine::scenario_check::rects_overlap(&m, b))
        })
    };
    let place = places
        .iter()
        .find(|p| clear(**p))
        .copied()
        .unwrap_or(places[0]);
    texts
        .into_iter()
        .enumerate()
        .map(|(i, text)| Token {
            at: frame.pose.to_world(place(i)),
            size: MARKER_CM,
            text,
            face_down: false,
        })
        .collect()
}

/// Where a unit's name goes: just behind its rear, so the bases themselves stay clear.
pub fn label_anchor(u: &Unit) -> Vec2 {
    let f = u.facing();
    let c = u.centroid();
    let back = u
        .bases
        .iter()
        .map(|b| (b.center() - c).dot(-f) + b.half.y)
        .fold(0.0f32, f32::max);
    c - f * (back + 1.4)
}

pub fn table(view: &Game, _seat: Seat) -> TableScene {
    let terrain = view
        .terrain
        .iter()
        .map(|t| TerrainPatch {
            kind: t.kind,
            name: t.name.clone(),
            polygons: t.polygons.clone(),
        })
        .collect();
    let objectives = view
        .objectives
        .iter()
        .map(|o| {
            let holder = o
                .held_by
                .map_or("nobody".to_string(), |s| view.side(s).name.clone());
            ObjectiveMark {
                name: o.name.clone(),
                position: o.position,
                radius: o.radius,
                label: format!("{} ({} VP, held by {holder})", o.name, o.vp),
                held_by: o.held_by.map(|s| s.0),
            }
        })
        .collect();
    let units = view
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
        .map(|u| Piece {
            id: unit_piece(u.id),
            key: u.key.clone(),
            kind: PieceKind::Unit,
            side: u.side.0,
            label: u.name.clone(),
            bases: u.bases.clone(),
            label_at: label_anchor(u),
            tokens: order_marker(u)
                .map(|(letter, face_down)| Token {
                    at: marker_centre(u),
                    size: MARKER_CM,
                    text: letter.into(),
                    face_down,
                })
                .into_iter()
                .chain(status_tokens(view, u))
                .chain(crew_token(u))
                .chain(battalion_tokens(view, u))
                .collect(),
            emblem: Some(emblem(view, u.id)),
        });
    let commanders = view
        .commanders
        .iter()
        .filter(|c| c.status == UnitStatus::OnTable)
        .map(|c| {
            let r = c.base.half.x.min(c.base.half.y);
            Piece {
                id: commander_piece(c.id),
                key: c.key.clone(),
                kind: PieceKind::Leader,
                side: c.side.0,
                label: c.name.clone(),
                bases: vec![c.base],
                label_at: c.base.center() - Vec2::Y * (r + 1.6),
                tokens: Vec::new(),
                emblem: None,
            }
        });
    // Guns whose crews were lost stand where they were, to be manned (BFS-MAN-21).
    let abandoned = view.abandoned_guns.iter().map(|a| {
        let g = view.unit(a.gun);
        Piece {
            id: unit_piece(g.id),
            key: g.key.clone(),
            kind: PieceKind::Unit,
            side: g.side.0,
            label: match a.hidden_with {
                Some(p) => format!(
                    "{} (abandoned, its crew among {})",
                    g.name,
                    view.unit(p).name
                ),
                None => format!("{} (abandoned)", g.name),
            },
            bases: vec![a.base],
            label_at: a.base.center() - a.base.pose.facing() * (a.base.half.y + 1.4),
            tokens: vec![Token {
                at: a.base.center(),
                size: MARKER_CM,
                text: "Ab".into(),
                face_down: false,
            }],
            emblem: Some(emblem(view, g.id)),
        }
    });
    TableScene {
        size: view.info.table,
        unit: LengthUnit::Centimetres,
        terrain,
        pieces: units.chain(abandoned).chain(commanders).collect(),
        objectives,
    }
}

/// The map symbol of a unit's troop type: its kind, then its weapons and special rules.
fn emblem(game: &Game, unit: crate::ids::UnitId) -> Emblem {
    use crate::profile::UnitKind;
    use crate::weapons::{MeleeWeapon, WeaponClass};
    let p = game.unit_profile(unit);
    match p.kind {
        UnitKind::Cavalry | UnitKind::Commander => {
            if p.light_cavalry() {
                Emblem::LightCavalry
            } else {
                Emblem::Cavalry
            }
        }
        UnitKind::Dragoons => Emblem::Dragoons,
        UnitKind::Artillery => Emblem::Artillery,
        UnitKind::Wagon => Emblem::Wagon,
        UnitKind::Infantry => {
            if p.melee == MeleeWeapon::Pikes {
                Emblem::Pikes
            } else if p
                .ranged
                .is_some_and(|w| w.stats(false).class == WeaponClass::Firearm)
                && p.shooting > 0
            {
                Emblem::Shot
            } else {
                Emblem::Infantry
            }
        }
    }
}
