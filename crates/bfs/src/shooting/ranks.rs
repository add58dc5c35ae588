//! Fire by more than the front rank: the Salvo (BFS-SPC-29) and Ranked Fire (BFS-SPC-26) of the
//! army lists, and the turn of reloading that follows either.
//!
//! - **Salvo**: a unit in at least 2 ranks fires with its first two, even if it moved or was
//!   charged; each base of the second rank fires from the range of the base before it. Fired
//!   in Reaction Fire, a Salvo that takes at least 1 SP makes the charger test its Morale,
//!   unless the charger has at least twice the Salvo unit's bases.
//! - **Ranked Fire**: a unit in at least 2 ranks with a Defense order fires with every rank, up
//!   to 3, each base measuring its range from where it stands.
//! - **Reloading**, the turn after either: no Salvo or Ranked Fire, only ordinary volleys; a unit
//!   that moves or maneuvers does not shoot, and one that has shot does not move; after Ranked
//!   Fire no Special Maneuver at all.
//!
//! Neither applies while Disorganized, nor to a garrison. A unit with either rule fires it
//! whenever it may; its owner may hold it for a turn from the unit's menu
//! ([`crate::command::Command::OrdinaryFire`]), to be free to move the next. All ranks fire in
//! one volley at one target (the book has them fire "one after another", which changes nothing
//! when they share the target). Battles recorded before rules revision 9 never used them.

use super::FireStage;
use crate::event::Event;
use crate::geo::frame_of;
use crate::ids::UnitId;
use crate::profile::SpecialRule;
use crate::state::{Formation, Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_engine::RuleError;
use serde::{Deserialize, Serialize};

/// Which of the two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RankVolley {
    Salvo,
    RankedFire,
}

impl RankVolley {
    pub fn rule(self) -> &'static str {
        match self {
            RankVolley::Salvo => "BFS-SPC-29",
            RankVolley::RankedFire => "BFS-SPC-26",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RankVolley::Salvo => "Salvo",
            RankVolley::RankedFire => "Ranked Fire",
        }
    }

    /// How many ranks fire.
    fn ranks(self) -> usize {
        match self {
            RankVolley::Salvo => 2,
            RankVolley::RankedFire => 3,
        }
    }
}

/// The unit's last Salvo or Ranked Fire and its turn: the next turn it reloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastVolley {
    pub turn: u32,
    pub kind: RankVolley,
}

/// The unit's bases by rank, front rank first (Close Order; a Column is one base a rank).
pub fn ranks(game: &Game, unit: UnitId) -> Vec<Vec<usize>> {
    let u = game.unit(unit);
    if !matches!(u.formation, Formation::Close { .. }) || u.bases.is_empty() {
        return vec![(0..u.bases.len()).collect()];
    }
    let f = frame_of(&u.bases);
    let depth = (u.bases[0].half.y * 2.0).max(0.1);
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (i, b) in u.bases.iter().enumerate() {
        let front = f
            .pose
            .to_local(b.edge(sandtable_geometry::Edge::Front).midpoint())
            .y;
        let rank = ((f.half.y - front) / depth).round().max(0.0) as usize;
        if out.len() <= rank {
            out.resize(rank + 1, Vec::new());
        }
        out[rank].push(i);
    }
    out.retain(|r| !r.is_empty());
    out
}

/// Is the unit reloading this turn, and from which?
pub fn reloading(game: &Game, unit: UnitId) -> Option<RankVolley> {
    game.unit(unit)
        .last_volley
        .filter(|l| l.turn + 1 == game.turn.number)
        .map(|l| l.kind)
}

/// Which the unit fires in this stage, if any.
pub fn mode(game: &Game, unit: UnitId, stage: FireStage) -> Option<RankVolley> {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if !crate::revision::special_rules_9(game.info.options.rules_revision)
        || u.morale != MoraleLevel::Good
        || u.garrison.is_some()
        || u.flags.ordinary_fire
        || u.status != UnitStatus::OnTable
        || stage == FireStage::WhileCharging
        || reloading(game, unit).is_some()
        || ranks(game, unit).len() < 2
        // A caracole fires its ranks its own way (BFS-SPC-4).
        || crate::caracole::riding_out(game, unit)
        // From on top of wagons the first rank fires alone (BFS-WAG-5).
        || !crate::wagon::cover::standing_on(game, unit).is_empty()
        // And out of a forest or grove (BFS-TER-23, BFS-TER-24).
        || crate::ground::first_rank_only(game, unit).is_some()
    {
        return None;
    }
    if p.has(SpecialRule::RankedFire) && u.order == Some(OrderKind::Defense) {
        Some(RankVolley::RankedFire)
    } else if p.has(SpecialRule::Salvo) && !crate::commanded::applies(game, unit) {
        Some(RankVolley::Salvo)
    } else {
        None
    }
}

/// The bases of the ranks behind the front that fire with Ranked Fire (ranks 2 and 3).
pub fn rear_shooters(game: &Game, unit: UnitId, kind: RankVolley) -> Vec<usize> {
    if kind != RankVolley::RankedFire {
        return Vec::new();
    }
    ranks(game, unit)
        .into_iter()
        .skip(1)
        .take(kind.ranks() - 1)
        .flatten()
        .collect()
}

/// For a Salvo, the second-rank base behind each front base that fires, with that base's band
/// and range (BFS-SPC-29: the range is the first rank's).
pub fn salvo_followers<B: Copy>(
    game: &Game,
    unit: UnitId,
    firing: &[(usize, B, f32)],
) -> Vec<(usize, B, f32)> {
    match ranks(game, unit).get(1) {
        Some(second) => followers(game, unit, second, firing),
        None => Vec::new(),
    }
}

/// The base of `rank` (indices of the unit's bases) behind each front base that fires, with
/// that base's band and range: a rear rank firing from the first rank's ranges (a Salvo's second
/// rank, BFS-SPC-29; a caracole's second and third, BFS-SPC-4).
pub fn followers<B: Copy>(
    game: &Game,
    unit: UnitId,
    rank: &[usize],
    firing: &[(usize, B, f32)],
) -> Vec<(usize, B, f32)> {
    let u = game.unit(unit);
    let f = frame_of(&u.bases);
    let x = |i: usize| f.pose.to_local(u.bases[i].center()).x;
    firing
        .iter()
        .filter_map(|&(i, band, d)| {
            rank.iter()
                .find(|&&j| (x(j) - x(i)).abs() < 0.5)
                .map(|&j| (j, band, d))
        })
        .collect()
}

/// A reloading unit that has moved or maneuvered this turn does not shoot.
pub fn forfeits_shot(game: &Game, unit: UnitId) -> bool {
    let u = game.unit(unit);
    reloading(game, unit).is_some()
        && (u.flags.moved || u.flags.maneuvers > 0 || u.flags.special_maneuvers > 0)
}

/// May a reloading unit move now: `steps` of a move, or Special Maneuvers when `None`? After
/// Ranked Fire, no maneuver at all; after a Salvo, no maneuver in a move that goes anywhere.
pub fn check_move(
    game: &Game,
    unit: UnitId,
    steps: Option<&[crate::command::MoveStep]>,
) -> Result<(), RuleError> {
    use crate::command::MoveStep;
    let Some(kind) = reloading(game, unit) else {
        return Ok(());
    };
    let u = game.unit(unit);
    let travels = |s: &MoveStep| {
        matches!(
            s,
            MoveStep::Forward(_)
                | MoveStep::Backward(_)
                | MoveStep::March
                | MoveStep::CrossObstacle
        )
    };
    let maneuver = match steps {
        None => true,
        Some(steps) => steps.iter().any(|s| !travels(s)),
    };
    let goes = u.flags.moved || steps.is_some_and(|s| s.iter().any(travels));
    // "If it shoots it may not move" needs no check here: a unit shoots only after both sides
    // have moved, and `forfeits_shot` keeps a unit that moved from shooting.
    if kind == RankVolley::Salvo && maneuver && goes && steps.is_some() {
        return Err(RuleError::new(
            kind.rule(),
            format!(
                "{} is reloading after its Salvo: a unit that moves may not maneuver.",
                u.name
            ),
        ));
    }
    if maneuver && kind == RankVolley::RankedFire {
        return Err(RuleError::new(
            kind.rule(),
            format!(
                "{} is reloading after its Ranked Fire: no maneuvers this turn.",
                u.name
            ),
        ));
    }
    Ok(())
}

/// Records the volley for the next turn's reloading.
pub fn fired(game: &mut Game, unit: UnitId, kind: RankVolley) {
    let turn = game.turn.number;
    game.unit_mut(unit).last_volley = Some(LastVolley { turn, kind });
}

/// May the owner hold the unit's Salvo or Ranked Fire this turn (free, in his Movement Phase)?
pub fn check_hold(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    crate::phases::movement::acting_unit(game, unit)?;
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if !crate::revision::special_rules_9(game.info.options.rules_revision)
        || !(p.has(SpecialRule::Salvo) || p.has(SpecialRule::RankedFire))
    {
        return Err(RuleError::new(
            "BFS-SPC-29",
            format!("{} fires neither Salvoes nor Ranked Fire.", u.name),
        ));
    }
    if u.flags.ordinary_fire {
        return Err(RuleError::new(
            "BFS-SPC-29",
            format!("{} already fires ordinary volleys this turn.", u.name),
        ));
    }
    Ok(())
}

/// The owner holds the unit's Salvo or Ranked Fire this turn.
pub fn hold(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check_hold(game, unit)?;
    game.unit_mut(unit).flags.ordinary_fire = true;
    events.push(Event::Ruling {
        rule: "BFS-SPC-29".into(),
        text: format!(
            "{} fires ordinary volleys this turn, so it need not reload the next.",
            game.unit(unit).name
        ),
    });
    Ok(())
}

/// A Salvo in Reaction Fire that took at least 1 SP off the charger makes it test Morale,
/// unless the charger has at least twice the Salvo unit's bases (BFS-SPC-29).
pub fn shakes_charger(game: &Game, shooter: UnitId, target: UnitId, lost: u32) -> bool {
    lost > 0
        && game.unit(target).bases.len() < 2 * game.unit(shooter).bases.len()
        && game
            .unit(target)
            .charge
            .as_ref()
            .is_some_and(|c| c.target == shooter)
}
