//! The table as a seat sees it: terrain, each unit's footprint with its name behind it and its
//! markers beside it (moved, stand, out of command, disorder or retreat, fatigue, ammunition), and
//! the leaders. Inches on the tape (the scene's unit), centimetres in the coordinates.

use crate::state::{Game, INCH, LeaderId, Unit, UnitId};
use crate::vocab::{Ammo, Fatigue, Standing};
use sandtable_engine::Seat;
use sandtable_engine::present::{
    Emblem, LengthUnit, Piece, PieceId, PieceKind, TableScene, TerrainPatch, Token,
};
use sandtable_geometry::{Rect, Vec2};

/// Leaders are numbered after every unit a battle could hold.
const LEADER_BASE: u32 = 1 << 16;

/// What a piece id stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thing {
    Unit(UnitId),
    Leader(LeaderId),
}

pub fn unit_piece(u: UnitId) -> PieceId {
    PieceId(u.0 as u32)
}

pub fn leader_piece(l: LeaderId) -> PieceId {
    PieceId(LEADER_BASE + l.0 as u32)
}

pub fn thing(game: &Game, p: PieceId) -> Option<Thing> {
    if p.0 >= LEADER_BASE {
        let i = (p.0 - LEADER_BASE) as usize;
        (i < game.leaders.len()).then_some(Thing::Leader(LeaderId(i as u16)))
    } else {
        ((p.0 as usize) < game.units.len()).then_some(Thing::Unit(UnitId(p.0 as u16)))
    }
}

pub fn unit_of(game: &Game, p: Option<PieceId>) -> Option<UnitId> {
    match thing(game, p?) {
        Some(Thing::Unit(u)) => Some(u),
        _ => None,
    }
}

/// A leader's base: a 1" disc-sized square.
pub fn leader_base(pos: Vec2) -> Rect {
    Rect::new(
        sandtable_geometry::Pose::new(pos, 0.0),
        Vec2::splat(0.5 * INCH),
    )
}

/// Size of a marker token, cm.
pub const MARKER_CM: f32 = 0.8 * INCH;

/// The markers beside a unit, in the order they are laid out: its figures first (the sheet
/// removes figures one by one), then its state.
pub fn markers(u: &Unit) -> Vec<String> {
    let mut m = vec![u.figures.to_string()];
    if u.marks.stand {
        m.push("S".to_string());
    } else if u.marks.moved {
        m.push("M".to_string());
    }
    if u.marks.out_of_command {
        m.push("OC".into());
    }
    match u.standing {
        Standing::Disordered => m.push("D".into()),
        Standing::Retreat { to_reform } => m.push(format!("R{to_reform}")),
        Standing::Routed => m.push("X".into()),
        _ => {}
    }
    match u.fatigue {
        Fatigue::Fresh => {}
        f => m.push(format!("F{}", f as u8)),
    }
    if u.arm().is_artillery() && u.ammo != Ammo::Full {
        m.push(format!("A{}", u.ammo as u8));
    }
    m
}

fn tokens(u: &Unit) -> Vec<Token> {
    let r = u.rect();
    markers(u)
        .into_iter()
        .enumerate()
        .map(|(i, text)| Token {
            at: r.pose.to_world(Vec2::new(
                -r.half.x - MARKER_CM * 0.6,
                r.half.y - MARKER_CM * (0.5 + 1.1 * i as f32),
            )),
            size: MARKER_CM,
            text,
            face_down: false,
        })
        .collect()
}

pub fn table(view: &Game, _seat: Seat) -> TableScene {
    let terrain = view
        .ground
        .iter()
        .map(|g| TerrainPatch {
            kind: g.kind,
            name: g.name.clone(),
            polygons: g.polygons.clone(),
        })
        .collect();
    let units = view.units.iter().filter(|u| u.on_table()).map(|u| {
        let r = u.rect();
        Piece {
            id: unit_piece(u.id),
            key: u.key.clone(),
            kind: PieceKind::Unit,
            side: u.side,
            label: u.name.clone(),
            bases: vec![r],
            label_at: r.center() - r.facing() * (r.half.y + 0.5 * INCH),
            tokens: tokens(u),
            emblem: Some(match u.arm() {
                crate::vocab::Arm::Infantry => Emblem::Infantry,
                crate::vocab::Arm::Cavalry(crate::vocab::CavWeight::Light) => Emblem::LightCavalry,
                crate::vocab::Arm::Cavalry(_) => Emblem::Cavalry,
                crate::vocab::Arm::Artillery { .. } => Emblem::Artillery,
            }),
        }
    });
    let leaders = view.leaders.iter().filter(|l| l.alive).map(|l| {
        // The name goes on the side away from the enemy, clear of the units in front.
        let enemy: Vec<Vec2> = view.enemies_of(l.side).map(|e| e.rect().center()).collect();
        let away = if enemy.is_empty() {
            -Vec2::Y
        } else {
            let c = enemy.iter().copied().sum::<Vec2>() / enemy.len() as f32;
            if c.y > l.pos.y { -Vec2::Y } else { Vec2::Y }
        };
        Piece {
            id: leader_piece(l.id),
            key: l.key.clone(),
            kind: PieceKind::Leader,
            side: l.side,
            label: l.name.clone(),
            bases: vec![leader_base(l.pos)],
            label_at: l.pos + away * (0.9 * INCH),
            tokens: Vec::new(),
            emblem: None,
        }
    });
    TableScene {
        size: view.table,
        unit: LengthUnit::Inches,
        terrain,
        pieces: units.chain(leaders).collect(),
        objectives: Vec::new(),
    }
}
