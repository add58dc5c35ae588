//! Every name the table shows, from the ruleset's table scene: what it says, where the ruleset
//! would put it, the box of its piece, its style, and the boxes names must keep off (bases,
//! leaders, markers). `draw` spawns them and [`super::label_layout`] places them; a headless test
//! lays out every shipped scenario through this same plan.

use super::label_layout::{Box2, LabelRequest, shorten, text_box_px};
use super::view::from_geo;
use bevy::prelude::*;
use sandtable_engine::PieceId;
use sandtable_engine::present::{PieceKind, TableScene};
use sandtable_geometry::Rect;

/// Label font size in logical pixels.
pub const LABEL_PX: f32 = 13.0;

/// Names are cut to this many characters where they fit nowhere whole.
const SHORT_LABEL_CHARS: usize = 16;

/// How a name is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelStyle {
    /// A wood's or a village's name, dark on the ground.
    Terrain,
    /// An objective's name, light with a dark shadow.
    Objective,
    /// A unit's or a leader's name, white with a shadow.
    Piece,
}

/// A name placed clear of bases and other names ([`super::label_layout`]); `order` is its turn
/// in the greedy layout, `piece` the piece whose hover or selection shows it when it found no spot.
#[derive(Component, Debug, Clone)]
pub struct PlacedLabel {
    pub order: u32,
    pub request: LabelRequest,
    pub piece: Option<PieceId>,
    /// The whole name and its short form, if it has one.
    pub full: String,
    pub short: Option<String>,
    pub style: LabelStyle,
}

/// The boxes names must not cover (bases, leaders, markers) and the table they stay on, table
/// cm; set with the table.
#[derive(Resource, Debug, Default, Clone)]
pub struct LabelBlockers {
    pub boxes: Vec<Box2>,
    pub table: Box2,
}

/// The table's names in layout order (terrain, objectives, units, leaders) and what they must
/// keep off.
pub fn label_plan(scene: &TableScene) -> (Vec<PlacedLabel>, LabelBlockers) {
    let mut labels = Vec::new();
    let mut add =
        |text: &str, at: Vec2, around: Option<Box2>, piece: Option<PieceId>, style: LabelStyle| {
            let short = around.and_then(|_| shorten(text, SHORT_LABEL_CHARS));
            labels.push(PlacedLabel {
                order: labels.len() as u32 + 1,
                request: LabelRequest {
                    at,
                    around,
                    size_px: text_box_px(text.chars().count(), LABEL_PX),
                    short_px: short
                        .as_ref()
                        .map(|s| text_box_px(s.chars().count(), LABEL_PX)),
                },
                piece,
                full: text.to_string(),
                short,
                style,
            });
        };
    // Strips (roads, streams) explain themselves; a label at their middle would sit on units.
    for t in &scene.terrain {
        if let (Some(name), 1) = (&t.name, t.polygons.len()) {
            let pts = &t.polygons[0];
            let c = pts
                .iter()
                .copied()
                .fold(sandtable_geometry::Vec2::ZERO, |a, b| a + b)
                / pts.len().max(1) as f32;
            add(name, from_geo(c), None, None, LabelStyle::Terrain);
        }
    }
    for o in &scene.objectives {
        add(
            &o.label,
            objective_label_at(from_geo(o.position)),
            None,
            None,
            LabelStyle::Objective,
        );
    }
    for kind in [PieceKind::Unit, PieceKind::Leader] {
        for p in scene
            .pieces
            .iter()
            .filter(|p| p.kind == kind && !p.bases.is_empty())
        {
            add(
                &p.label,
                from_geo(p.label_at),
                piece_box(&p.bases),
                Some(p.id),
                LabelStyle::Piece,
            );
        }
    }
    let mut boxes: Vec<Box2> = Vec::new();
    for p in &scene.pieces {
        for b in &p.bases {
            let (lo, hi) = b.aabb();
            boxes.push((from_geo(lo), from_geo(hi)));
        }
        for t in &p.tokens {
            let h = Vec2::splat(t.size * 0.5);
            boxes.push((from_geo(t.at) - h, from_geo(t.at) + h));
        }
    }
    let blockers = LabelBlockers {
        boxes,
        table: (Vec2::ZERO, from_geo(scene.size)),
    };
    (labels, blockers)
}

/// An objective's name sits just above its marker.
pub fn objective_label_at(marker: Vec2) -> Vec2 {
    marker + Vec2::new(0.0, 2.5)
}

/// The box around a piece's bases, table cm.
fn piece_box(bases: &[Rect]) -> Option<Box2> {
    bases.iter().map(|b| b.aabb()).fold(None, |acc, (lo, hi)| {
        let (lo, hi) = (from_geo(lo), from_geo(hi));
        Some(match acc {
            None => (lo, hi),
            Some((a, b)) => (a.min(lo), b.max(hi)),
        })
    })
}
