//! What is under a table point: hit testing on the game state.

use sandtable_bfs::state::{Game, UnitStatus};
use sandtable_bfs::{CommanderId, UnitId};
use sandtable_geometry::{Rect, Vec2};

/// Something a player can point at on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Thing {
    Unit(UnitId),
    Commander(CommanderId),
}

/// A hit: the thing, which of its bases, and that base's footprint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    pub thing: Thing,
    pub base: usize,
    pub rect: Rect,
}

/// Extra reach around small shapes so they are easy to hit, cm.
pub const PICK_SLACK_CM: f32 = 0.3;

/// The thing under `p`: commanders first, as they are drawn on top of units.
pub fn pick(game: &Game, p: Vec2) -> Option<Hit> {
    for c in game.commanders.iter().rev() {
        if c.status == UnitStatus::OnTable && c.base.contains(p, PICK_SLACK_CM) {
            return Some(Hit {
                thing: Thing::Commander(c.id),
                base: 0,
                rect: c.base,
            });
        }
    }
    for u in game.units.iter().rev() {
        if u.status != UnitStatus::OnTable {
            continue;
        }
        if let Some((i, r)) = u
            .bases
            .iter()
            .enumerate()
            .find(|(_, b)| b.contains(p, PICK_SLACK_CM))
        {
            return Some(Hit {
                thing: Thing::Unit(u.id),
                base: i,
                rect: *r,
            });
        }
    }
    None
}
