//! Commanded Musketeers (BFS-SPC-5): musketeers detached from an infantry regiment. They fight
//! as Skirmishers, in Open Order (BFS-OO-1) and seeing all round (BFS-FOV-3); they lose Salvo
//! and Countermarch; with muskets (any but the Spanish musket) they take no −1 for Shooting after
//! Movement; "Take and Hold": a Defense order is theirs for free, face up; and they never join a
//! Squadron (BFS-SQN-5). They bring no Reconnaissance Points, which Sandtable does not count yet.
//! Battles recorded before rules revision 9 played only their Open Order and Squadron rules.

use crate::ids::UnitId;
use crate::profile::SpecialRule;
use crate::state::Game;
use crate::weapons::RangedWeapon;

/// Do the rules of Commanded Musketeers of revision 9 apply to the unit?
pub fn applies(game: &Game, unit: UnitId) -> bool {
    crate::revision::special_rules_9(game.info.options.rules_revision)
        && game
            .unit_profile(unit)
            .has(SpecialRule::CommandedMusketeers)
}

/// No −1 for Shooting after Movement with this weapon: a musket or half-musket, not the Spanish
/// musket.
pub fn steady_after_moving(game: &Game, unit: UnitId, weapon: RangedWeapon) -> bool {
    applies(game, unit) && matches!(weapon, RangedWeapon::Musket | RangedWeapon::HalfMusket)
}
