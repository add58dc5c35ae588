//! Marching (BFS-MOV-15, BFS-AMV-2, BFS-CDR-4): a unit with a Move order in a Column one base
//! wide, or in Open Order, moves 5 cm further (10 cm for cavalry), over open ground and roads
//! only, never within 20 cm of an enemy, and may not shoot that turn. A commander may march too,
//! even near the enemy.
//!
//! A march is a Move whose first step is [`MoveStep::March`]; the planners treat that step as
//! free and [`check`] holds the march's own conditions against the planned path.

use crate::command::MoveStep;
use crate::ids::UnitId;
use crate::moves::MovePlan;
use crate::profile::{SpecialRule, UnitKind, UnitProfile};
use crate::state::{Formation, Game, OrderKind, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_engine::vocab::TerrainKind;
use sandtable_geometry::Rect;

/// No marching unit comes within this of an enemy (BFS-AMV-2).
pub const ENEMY_CLEARANCE_CM: f32 = 20.0;

/// Is this move a march?
pub fn is_march(steps: &[MoveStep]) -> bool {
    steps.contains(&MoveStep::March)
}

/// The extra Move marching gives (BFS-AMV-2): +10 cm for cavalry and dragoons (and a mounted
/// commander), +5 cm for infantry, wagons and the rest.
pub fn bonus_cm(p: &UnitProfile) -> f32 {
    let mounted = matches!(p.kind, UnitKind::Cavalry | UnitKind::Dragoons)
        || (p.kind == UnitKind::Commander && p.is_mounted());
    if mounted { 10.0 } else { 5.0 }
}

/// Ground a march may cross: open ground (no piece at all), roads and bridges.
fn marchable(kind: TerrainKind) -> bool {
    matches!(kind, TerrainKind::Road | TerrainKind::Bridge)
}

/// The March step comes first, once (a marker for the whole move).
pub fn check_marker(steps: &[MoveStep]) -> Result<(), RuleError> {
    let n = steps.iter().filter(|s| **s == MoveStep::March).count();
    if n > 1 || (n == 1 && steps.first() != Some(&MoveStep::March)) {
        return Err(RuleError::new(
            "BFS-AMV-2",
            "A march is the whole move: put March first, once.",
        ));
    }
    Ok(())
}

/// The first terrain piece (not a road or bridge) that any of `bases` touches, by name.
pub fn off_road(game: &Game, bases: &[Rect]) -> Option<String> {
    off_road_in(game, crate::geo::terrain_pieces(game).as_slice(), bases)
}

/// As [`off_road`], with the table's pieces at hand.
fn off_road_in(
    game: &Game,
    pieces: &[sandtable_geometry::terrain::TerrainPiece],
    bases: &[Rect],
) -> Option<String> {
    // A base (or a Column's frame) whose middle is on a road marches along it (BFS-TER-22).
    let off: Vec<&Rect> = bases
        .iter()
        .filter(|b| !crate::geo::on_road(game, b.center()))
        .collect();
    pieces.iter().find_map(|piece| {
        let t = game.terrain.get(piece.id as usize)?;
        (!marchable(t.kind)
            && off
                .iter()
                .any(|b| piece.overlap_area(b).is_ok_and(|a| a > 1e-3)))
        .then(|| t.name.clone().unwrap_or_else(|| format!("{:?}", t.kind)))
    })
}

/// The nearest enemy unit to `bases` and its distance.
fn nearest_enemy(game: &Game, unit: UnitId, bases: &[Rect]) -> Option<(String, f32)> {
    let side = game.unit(unit).side;
    game.units
        .iter()
        .filter(|o| o.side != side && o.status == UnitStatus::OnTable)
        .filter_map(|o| {
            sandtable_geometry::distance::set_distance(bases, &o.bases)
                .ok()
                .map(|d| (o.name.clone(), d))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// Positions along a planned path, every centimetre or so: the frames of consecutive steps,
/// with the straight stretches between them filled in.
fn along(path: &[Rect]) -> Vec<Rect> {
    let mut out = Vec::new();
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        out.push(a);
        if (a.pose.angle - b.pose.angle).abs() < 1e-4 {
            let d = b.center() - a.center();
            let n = d.length().ceil() as usize;
            for k in 1..n {
                out.push(a.translated(d * (k as f32 / n as f32)));
            }
        }
    }
    out.extend(path.last().copied());
    out
}

/// Is the unit in a column one base wide, or in Open Order (or a single base)?
fn column_or_open(formation: Formation, bases: usize) -> bool {
    matches!(
        formation,
        Formation::Close { files: 1 } | Formation::OpenOrder
    ) || bases == 1
}

/// The march's own conditions (BFS-MOV-15, BFS-AMV-2) on a planned move.
pub fn check(game: &Game, unit: UnitId, plan: &MovePlan) -> Result<(), RuleError> {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if u.order != Some(OrderKind::Move) {
        return Err(RuleError::new(
            "BFS-AMV-2",
            format!(
                "Only a unit with a Move order marches; {} is charging.",
                u.name
            ),
        ));
    }
    if p.special_rules.contains(&SpecialRule::Rabble) {
        return Err(RuleError::new(
            "BFS-SPC-25",
            format!("{} is Rabble: it cannot March.", u.name),
        ));
    }
    if u.train.as_ref().is_some_and(|t| t.connected) {
        return Err(RuleError::new(
            "BFS-WAG-14",
            format!("{} is a connected train: it cannot March.", u.name),
        ));
    }
    // Elite Cavalry marches as an Open Order unit does, from any Line or Column (BFS-SPC-10).
    let starts = column_or_open(u.formation, u.bases.len())
        || crate::elite_cavalry::moves_base_by_base(game, unit);
    let ends = plan.open || plan.files == Some(1) || plan.bases.len() == 1;
    let reform_twice = game.info.options.march_between_reforms && plan.ever_column;
    if !starts && !ends && !reform_twice {
        return Err(RuleError::new(
            "BFS-MOV-15",
            format!(
                "{} is not in a Column one base wide or in Open Order: it may march only if it forms a Column and ends the move in it.",
                u.name
            ),
        ));
    }
    if let Some((name, d)) = nearest_enemy(game, unit, &u.bases)
        && d <= ENEMY_CLEARANCE_CM
    {
        return Err(RuleError::new(
            "BFS-AMV-2",
            format!("{name} is {d:.1} cm away: no unit marches within 20 cm of the enemy."),
        ));
    }
    let mut stations = along(&plan.path);
    stations.push(crate::geo::frame_of(&plan.bases));
    crate::artillery::check_march(game, unit, &stations)?;
    for frame in &stations {
        if let Some((name, d)) = nearest_enemy(game, unit, std::slice::from_ref(frame))
            && d <= ENEMY_CLEARANCE_CM
        {
            return Err(RuleError::new(
                "BFS-AMV-2",
                format!(
                    "The march would come {d:.1} cm from {name}: a marching unit stops before it comes within 20 cm of the enemy."
                ),
            ));
        }
    }
    let pieces = crate::geo::terrain_pieces(game);
    for bases in std::iter::once(u.bases.as_slice())
        .chain(stations.iter().map(std::slice::from_ref))
        .chain(std::iter::once(plan.bases.as_slice()))
    {
        if let Some(name) = off_road_in(game, pieces.as_slice(), bases) {
            return Err(RuleError::new(
                "BFS-AMV-2",
                format!(
                    "The march would touch {name}: a unit marches only over open ground or along a road."
                ),
            ));
        }
    }
    Ok(())
}
