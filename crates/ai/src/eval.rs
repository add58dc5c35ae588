//! The search player's judgement of a position, from one side's point of view:
//!
//! - material: strength points left, weighted by the unit's quality and Morale Level, and the
//!   losses so far as the victory count weighs them (BFS-VIC-4);
//! - threat: for each pair of units, the melee advantage of whoever can reach the other with a
//!   charge, and shooting within range;
//! - command reach: units a commander can order for 1 CP.
//!
//! Cheap enough to run hundreds of times per decision: distances only, no sight lines.

use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{Game, MoraleLevel, Unit, UnitStatus};
use sandtable_geometry::distance::set_distance;

/// Fighting worth of one Strength point of a unit.
fn quality(game: &Game, u: &Unit) -> f64 {
    let p = game.profile(u.profile);
    let base = 1.0 + 0.35 * p.close_combat as f64 + 0.25 * p.shooting as f64 + 0.08 * p.armor as f64 + 0.15 * (p.skill as f64 - 3.0) + 0.1 * (p.morale as f64 - 4.0);
    let morale = match u.morale {
        MoraleLevel::Good => 1.0,
        MoraleLevel::Disorganized => 0.6,
        MoraleLevel::Flight => 0.2,
    };
    base * morale
}

/// Strength points left.
fn strength(game: &Game, u: &Unit) -> f64 {
    let per = game.profile(u.profile).strength as f64;
    (u.bases.len() as f64 * per - u.casualty_markers as f64).max(0.0)
}

/// Material of a unit: what the side would lose with it.
pub fn material(game: &Game, u: &Unit) -> f64 {
    if u.status != UnitStatus::OnTable {
        return 0.0;
    }
    strength(game, u) * quality(game, u)
}

/// Close combat punch: hits a unit expects to score in a round, Impetus counted for cavalry.
pub fn punch(game: &Game, u: &Unit) -> f64 {
    if u.morale == MoraleLevel::Flight {
        return 0.0;
    }
    let p = game.profile(u.profile);
    let dice = if u.morale == MoraleLevel::Disorganized { 1.0 } else { p.close_combat as f64 };
    let skill = p.skill as f64 + if p.is_mounted() && u.morale == MoraleLevel::Good { 1.5 } else { 0.0 };
    let front = u.bases.len().min(4) as f64;
    dice * front * (skill / 10.0).min(1.0) * (1.0 - game.profile(u.profile).armor as f64 / 25.0).max(0.3)
}

/// How far a unit reaches with a charge: its Basic and Additional Move.
fn reach(game: &Game, u: &Unit) -> f64 {
    let m = game.profile(u.profile).movement;
    (m.basic + m.additional) as f64
}

/// A position's value for `side`: higher is better.
pub fn evaluate(game: &Game, side: Side) -> f64 {
    let mut score = 0.0;
    let mine: Vec<&Unit> = game.units_on_table(side).collect();
    let theirs: Vec<&Unit> = game.units_on_table(side.other()).collect();
    for u in &mine {
        score += material(game, u);
    }
    for e in &theirs {
        score -= material(game, e);
    }
    // Losses as the victory count weighs them: destroyed bases in full, fled bases half.
    for u in game.units.iter() {
        let lost = u.bases_destroyed as f64 + 0.5 * u.bases_fled as f64;
        if u.side == side {
            score -= 4.0 * lost;
        } else {
            score += 4.0 * lost;
        }
    }
    for u in &mine {
        let up = game.profile(u.profile);
        let our_punch = punch(game, u);
        let our_reach = reach(game, u);
        let mut best_attack: f64 = 0.0;
        let mut worst_danger: f64 = 0.0;
        for e in &theirs {
            let ep = game.profile(e.profile);
            let d = set_distance(&u.bases, &e.bases).unwrap_or(f32::INFINITY) as f64;
            let their_punch = punch(game, e);
            let edge = our_punch - their_punch;
            // Within our charge reach of a weaker enemy: an attack is on; further away it still
            // pulls us closer, fading over 30 cm.
            if up.close_combat > 0 && edge > 0.0 {
                let pull = if d <= our_reach { 1.0 } else { (-(d - our_reach) / 30.0).exp() };
                best_attack = best_attack.max(edge * pull);
            }
            // Within reach of a stronger enemy: danger.
            if ep.close_combat > 0 && e.morale == MoraleLevel::Good && edge < 0.0 && d <= reach(game, e) {
                worst_danger = worst_danger.max(-edge);
            }
            // Shooting: ours at them, theirs at us.
            if let Some(w) = up.ranged {
                let s = w.stats(up.is_mounted());
                let long = s.long_cm.unwrap_or(s.effective_cm) as f64;
                if d <= s.effective_cm as f64 {
                    score += 0.12 * up.shooting as f64 * u.bases.len() as f64;
                } else if d <= long {
                    score += 0.05 * up.shooting as f64 * u.bases.len() as f64;
                }
            }
            if let Some(w) = ep.ranged
                && d <= w.stats(ep.is_mounted()).effective_cm as f64
            {
                score -= 0.08 * ep.shooting as f64 * e.bases.len() as f64;
            }
        }
        score += 0.6 * best_attack - 0.6 * worst_danger;
    }
    // Command reach: units a commander can order for 1 CP.
    for u in &mine {
        let reached = game.commanders_on_table(side).any(|c| {
            let range = sandtable_bfs::authority::command_range_cm(game, c.id);
            sandtable_bfs::authority::distance_to_unit(game, c.id, u.id) <= range
        });
        if reached {
            score += 0.05;
        }
    }
    score
}
