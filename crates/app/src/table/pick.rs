//! What is under a table point: hit testing on the table as the ruleset describes it.

use sandtable_engine::{PieceId, TableScene};
use sandtable_geometry::{Rect, Vec2};

/// A hit: the piece and the footprint of the base hit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub piece: PieceId,
    pub rect: Rect,
}

/// Extra reach around small shapes so they are easy to hit, cm.
pub const PICK_SLACK_CM: f32 = 0.3;

/// The piece under `p`: leaders first, as they are drawn on top of units.
pub fn pick(scene: &TableScene, p: Vec2) -> Option<Hit> {
    scene
        .pick(p, PICK_SLACK_CM)
        .map(|(piece, rect)| Hit { piece, rect })
}
