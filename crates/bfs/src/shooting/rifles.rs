//! Rifled Barrels (BFS-SPC-27): a unit partly armed with rifles may fire them instead of its
//! normal weapons, further and less hard, with a Shooting of 1.

use crate::ids::UnitId;
use crate::profile::SpecialRule;
use crate::state::{Game, MoraleLevel};
use crate::weapons::{Horseback, RangedStats, WeaponClass};

/// The rifles' row: Effective range 20 cm, maximum 50 cm, Effectiveness 1/0. The book gives
/// no −1 for them in Shooting after Movement, so none is applied.
pub fn stats() -> RangedStats {
    RangedStats {
        name: "Rifled barrels",
        effective_cm: 20.0,
        long_cm: Some(50.0),
        effectiveness: (1, 0),
        sam_penalty: false,
        horseback: Horseback::Cannot,
        class: WeaponClass::Firearm,
        matchlock: false,
    }
}

/// May the unit fire its rifles now: it has the rule, is not Disorganized and not mounted. It
/// may from behind obstacles and from buildings. Battles recorded before rules revision 8 never
/// fired them.
pub fn may_use(game: &Game, unit: UnitId) -> bool {
    let p = game.unit_profile(unit);
    crate::revision::special_rules_8(game.info.options.rules_revision)
        && p.has(SpecialRule::RifledBarrels)
        && !p.is_mounted()
        && game.unit(unit).morale == MoraleLevel::Good
}
