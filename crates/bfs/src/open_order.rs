//! Open Order (BFS-OO): who uses it, how its bases are spaced and faced, what each base's move
//! costs, the free changes of order the ground forces (BFS-TER-8), and the formations of the
//! switch between Close and Open Order (BFS-MAN-17..19).
//!
//! An Open Order unit's bases move one by one, each within the unit's Move as its own ground
//! changes it; only the path of a base's corners counts, wheels and turns are free (BFS-OO-3).
//! The planner in [`crate::moves`] keeps one account per base and asks this module for the costs
//! and the checks. Battles recorded before rules revision 3 moved Open Order units as one block.

use crate::geo::frame_of;
use crate::ids::UnitId;
use crate::profile::{SpecialRule, UnitProfile};
use crate::state::{Formation, Game};
use sandtable_engine::RuleError;
use sandtable_engine::vocab::TerrainKind;
use sandtable_geometry::openorder::{Spacing, check_spacing};
use sandtable_geometry::{Pose, Rect, Vec2};

/// Bases of an Open Order unit stand at least this far apart (BFS-OO-2).
pub const MIN_GAP_CM: f32 = 0.5;
/// … and each within this of a neighbour, the whole unit linked (BFS-OO-2, AMB-38).
pub const MAX_GAP_CM: f32 = 2.0;
/// The gap the engine leaves when it spreads a unit out (within 0.5–2 cm).
pub const SPREAD_GAP_CM: f32 = 1.0;
/// After a move every base faces within this of the first base (BFS-OO-3).
pub const FACING_TOLERANCE_DEG: f32 = 45.0;

/// Do the Open Order rules of revision 3 apply (base-by-base movement, spacing, the forced
/// changes of order, always-open units deployed open)?
pub fn rules_apply(game: &Game) -> bool {
    crate::revision::open_order_rules(game.info.options.rules_revision)
}

/// Units that always fight in Open Order (BFS-OO-1): Light Cavalry (BFS-SPC-16) and Feigned
/// Flight, which counts as it (BFS-SPC-11), Skirmishers
/// (BFS-SPC-32), Highlanders (BFS-SPC-13), and Commanded Musketeers, who have the Skirmishers
/// rule.
pub fn always_open(p: &UnitProfile) -> bool {
    p.special_rules.iter().any(|r| {
        matches!(
            r,
            SpecialRule::LightCavalry
                | SpecialRule::FeignedFlight
                | SpecialRule::Skirmishers
                | SpecialRule::Highlanders
                | SpecialRule::CommandedMusketeers
        )
    })
}

/// Units whose rules let them stay in Open Order, and switch to it by a maneuver
/// (BFS-MAN-17): the always-open units and those given the `OpenOrder` rule by their army list.
pub fn may_use_open(p: &UnitProfile) -> bool {
    always_open(p) || p.special_rules.contains(&SpecialRule::OpenOrder)
}

/// Ground that puts a unit into Open Order for free when it enters (BFS-TER-8): swamps,
/// forests and built-up areas. Groves do not.
pub fn forces_open(kind: TerrainKind) -> bool {
    matches!(
        kind,
        TerrainKind::Marsh | TerrainKind::Forest | TerrainKind::BuiltUpArea
    )
}

/// The path of a base's corners when it turns `theta` radians about its centre (BFS-OO-3,
/// AMB-39): every corner lies on the circle of the half-diagonal.
pub fn turn_cost(base: &Rect, theta: f32) -> f32 {
    base.half.length() * theta.abs()
}

/// The path of a base's farthest corner when it swings `theta` radians about `pivot`.
pub fn swing_cost(base: &Rect, pivot: Vec2, theta: f32) -> f32 {
    base.corners()
        .iter()
        .map(|c| c.distance(pivot))
        .fold(0.0, f32::max)
        * theta.abs()
}

/// `base` turned `theta` radians about its own centre.
pub fn turned(base: &Rect, theta: f32) -> Rect {
    Rect::new(Pose::new(base.center(), base.pose.angle + theta), base.half)
}

/// The angle between two headings, in degrees, 0..=180.
fn heading_gap_deg(a: f32, b: f32) -> f32 {
    let mut d = (a - b).rem_euclid(std::f32::consts::TAU);
    if d > std::f32::consts::PI {
        d = std::f32::consts::TAU - d;
    }
    d.to_degrees()
}

/// Is the unit spaced as Open Order demands (BFS-OO-2)? `Err` names what is wrong.
pub fn check_spaced(name: &str, bases: &[Rect]) -> Result<(), RuleError> {
    if bases.len() < 2 {
        return Ok(());
    }
    let report = check_spacing(
        bases,
        Spacing {
            min_gap: MIN_GAP_CM,
            max_gap: MAX_GAP_CM,
        },
    )
    .map_err(|e| RuleError::new("BFS-OO-2", e.to_string()))?;
    if let Some(&(i, j)) = report.too_close.first() {
        return Err(RuleError::new(
            "BFS-OO-2",
            format!(
                "Bases {} and {} of {name} would stand less than {MIN_GAP_CM} cm apart: bases in Open Order never touch.",
                i + 1,
                j + 1
            ),
        ));
    }
    if !report.isolated.is_empty() || !report.connected {
        return Err(RuleError::new(
            "BFS-OO-2",
            format!(
                "{name} would lose its coherency: every base must stand within {MAX_GAP_CM} cm of another, the whole unit linked."
            ),
        ));
    }
    Ok(())
}

/// Does every base face within 45° of the first (BFS-OO-3)? `Err` names the base that does not.
pub fn check_faced(name: &str, bases: &[Rect]) -> Result<(), RuleError> {
    let Some(first) = bases.first() else {
        return Ok(());
    };
    for (i, b) in bases.iter().enumerate().skip(1) {
        let gap = heading_gap_deg(b.pose.angle, first.pose.angle);
        if gap > FACING_TOLERANCE_DEG + 1e-3 {
            return Err(RuleError::new(
                "BFS-OO-3",
                format!(
                    "Base {} of {name} would face {gap:.0}° away from the first base; after a move every base faces within {FACING_TOLERANCE_DEG:.0}° of it.",
                    i + 1
                ),
            ));
        }
    }
    Ok(())
}

/// A close-order unit spread into Open Order (BFS-MAN-18/19): every file and rank moved
/// [`SPREAD_GAP_CM`] apart about the middle base of the front rank, which stays put. Returns
/// the new bases (in the same order) and the index of the base that stayed.
pub fn dispersed(bases: &[Rect]) -> (Vec<Rect>, usize) {
    let frame = frame_of(bases);
    let axes = Pose::new(frame.center(), frame.pose.angle);
    let local: Vec<Vec2> = bases.iter().map(|b| axes.to_local(b.center())).collect();
    let front = local.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let anchor = (0..bases.len())
        .filter(|&i| (local[i].y - front).abs() < 0.05)
        .min_by(|&a, &b| local[a].x.abs().total_cmp(&local[b].x.abs()))
        .unwrap_or(0);
    let size = bases[anchor].size();
    let out = bases
        .iter()
        .zip(&local)
        .map(|(b, p)| {
            let files = ((p.x - local[anchor].x) / size.x).round();
            let ranks = ((p.y - local[anchor].y) / size.y).round();
            let at = local[anchor]
                + Vec2::new(
                    files * (size.x + SPREAD_GAP_CM),
                    ranks * (size.y + SPREAD_GAP_CM),
                );
            Rect::new(Pose::new(axes.to_world(at), b.pose.angle), b.half)
        })
        .collect();
    (out, anchor)
}

/// An Open Order unit closed up into a Line of `files` files (BFS-MAN-18/19): the base nearest
/// the middle of the unit's front stays put and takes the middle file of the front rank; the
/// others take the nearest free places, all facing as it does. Returns the bases in rank order
/// and, for each, the index of the base that went there.
pub fn closed(bases: &[Rect], files: u8) -> (Vec<Rect>, Vec<usize>) {
    let anchor = crate::reform::anchor(bases);
    crate::reform::line_about(bases, anchor, files, bases[anchor].pose.angle)
}

/// The free change of order the ground forces at the end of a move (BFS-TER-8): a close-order
/// unit with a base in a swamp, forest or built-up area is now in Open Order; an Open Order unit
/// that may not stay so and has left all such ground closes up where it stands. Returns the
/// unit's new formation and bases when they change. Neither counts as a maneuver.
pub fn forced_change(game: &Game, unit: UnitId) -> Option<(Formation, Vec<Rect>)> {
    if !rules_apply(game) {
        return None;
    }
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    let footing = crate::ground::footing_of(game, &u.bases);
    let in_forcing = game
        .terrain
        .iter()
        .any(|t| forces_open(t.kind) && footing.partly(t.kind));
    match u.formation {
        Formation::Close { .. } | Formation::NonStandard if in_forcing => {
            Some((Formation::OpenOrder, u.bases.clone()))
        }
        Formation::OpenOrder
            if !in_forcing && !may_use_open(p) && u.morale != crate::state::MoraleLevel::Flight =>
        {
            let files = u.bases.len().min(if p.is_mounted() { 3 } else { 4 }) as u8;
            let (bases, _) = closed(&u.bases, files);
            let scene = crate::geo::scene(game);
            crate::moves::check_final_position(game, &scene, unit, &bases)
                .ok()
                .map(|_| (Formation::Close { files }, bases))
        }
        _ => None,
    }
}

/// Makes the free change of order of [`forced_change`] and says so in the log (BFS-TER-8).
pub fn apply_forced_change(game: &mut Game, unit: UnitId, events: &mut Vec<crate::event::Event>) {
    let Some((formation, bases)) = forced_change(game, unit) else {
        return;
    };
    let u = game.unit_mut(unit);
    let text = match formation {
        Formation::OpenOrder => format!(
            "{} enters a swamp, forest or built-up area and takes Open Order at no cost",
            u.name
        ),
        _ => format!(
            "{} has left the swamp, forest or built-up area and closes up at no cost",
            u.name
        ),
    };
    u.formation = formation;
    u.bases = bases;
    events.push(crate::event::Event::Ruling {
        rule: "BFS-TER-8".into(),
        text,
    });
}
