//! Flanking fire (BFS-OPT-1, an optional rule): a base firing from the target's flank rolls one
//! die more, with firearms or a gun.

use super::{Lanes, from_flank};
use crate::dice::DiceChange;
use crate::event::Piece;
use crate::ids::UnitId;
use crate::profile::UnitKind;
use crate::state::Game;
use crate::weapons::{RangedStats, WeaponClass};
use sandtable_geometry::fire::{self, RangeBand};

/// One die more for each base of the group `in_band` (shooting base index, band, range) whose
/// point of fire stands in a flank zone of the target; for a garrison, each wall (BFS-TER-30).
/// Only with the scenario's option `flanking_fire`, only for firearms and guns, never at
/// wagons, and never at a lone commander, who has no flanks to speak of.
pub(super) fn dice(
    game: &Game,
    shooter: UnitId,
    target: Piece,
    lanes: &Lanes<'_>,
    in_band: &[&(usize, RangeBand, f32)],
    stats: &RangedStats,
) -> Vec<DiceChange> {
    let Piece::Unit(t) = target else {
        return Vec::new();
    };
    if !game.info.options.flanking_fire
        || !matches!(stats.class, WeaponClass::Firearm | WeaponClass::Artillery)
        || game.unit_profile(t).kind == UnitKind::Wagon
    {
        return Vec::new();
    }
    in_band
        .iter()
        .enumerate()
        .filter_map(|(k, (i, _, _))| {
            let origin = match &lanes.walls {
                Some(walls) => walls.get(*i)?.origin,
                None => fire::front_midpoint(game.unit(shooter).bases.get(*i)?).ok()?,
            };
            from_flank(game, t, origin).then(|| DiceChange {
                rule: "BFS-OPT-1".into(),
                reason: "Flanking fire: this base fires from the target's flank".into(),
                delta: 1,
                base: k,
            })
        })
        .collect()
}
