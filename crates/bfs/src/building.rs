//! Buildings (BFS-TER-29..31, BFS-PSY-8, BFS-MAN-22): infantry occupying a building, the
//! garrison that shoots from its walls and never flees, and leaving it again.
//!
//! A garrison is an ordinary unit with [`crate::state::Unit::garrison`] set. Its bases are laid
//! out as strips filling the building's footprint, so that every distance to it, every line of
//! sight and every charge's contact is measured to the building's walls: "the garrison acts as a
//! Unit whose edges are the building's walls" (BFS-TER-30).
//!
//! Readings and limits, said again where they apply:
//! - A building's footprint is its outline's smallest bounding rectangle (buildings in scenarios
//!   are rectangles).
//! - A unit occupies with all its bases, so it must fit; splitting a unit into a garrison and the
//!   rest is not offered yet. The garrison loses its order, as a new unit would.
//! - A garrison leaving is set up in a Line just outside the wall the player names, facing away
//!   from it: one of the placements the book allows (within 10 cm, any formation and facing).
//! - It shoots at one target at a time, with every wall that sees it (the book lets different
//!   walls fire at different targets).
//! - In close combat it fights with the bases touching the enemy rather than 1 die per 2 cm of
//!   wall; one round is fought, with hand weapons (close_combat), and attackers who win withdraw
//!   while it holds or hold their ground once it is cleared (combat_result): occupying the
//!   emptied building at once is not offered yet.

use crate::event::Event;
use crate::ids::{CommanderId, UnitId};
use crate::profile::UnitKind;
use crate::state::{Formation, Game, OrderKind, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_engine::vocab::TerrainKind;
use sandtable_geometry::{Edge, Pose, Rect, Vec2};

/// A unit occupies a building within this distance of it (BFS-TER-29).
pub const OCCUPY_RANGE_CM: f32 = 10.0;
/// No enemy unit may be this close to the building when it is occupied (BFS-TER-29).
pub const ENEMY_CLEAR_CM: f32 = 2.0;
/// A building holds one base per this many cm² of its footprint, to the nearest base
/// (BFS-TER-29).
pub const CM2_PER_BASE: f32 = 10.0;
/// Each full this many cm of a wall gives the garrison one die (BFS-TER-30).
pub const WALL_CM_PER_DIE: f32 = 2.0;
/// How far outside the wall a garrison leaving is set up.
const LEAVE_GAP_CM: f32 = 0.5;
/// Garrison strips sit this far inside the walls, so that they lie wholly in the building.
const INSET_CM: f32 = 0.01;

/// The four walls of a footprint, in the order [`Edge::Front`], right, rear, left.
pub const WALLS: [Edge; 4] = [Edge::Front, Edge::Right, Edge::Rear, Edge::Left];

/// Is terrain piece `index` a building?
pub fn is_building(game: &Game, index: usize) -> bool {
    game.terrain
        .get(index)
        .is_some_and(|t| t.kind == TerrainKind::Building)
}

/// The building's footprint: the smallest rectangle around its outline.
pub fn footprint(game: &Game, index: usize) -> Option<Rect> {
    let t = game.terrain.get(index)?;
    let points: Vec<Vec2> = t.polygons.iter().flatten().copied().collect();
    smallest_box(&points)
}

/// The smallest rectangle holding the points: one of its sides lies along an edge of their
/// outline, so trying every edge direction finds it.
fn smallest_box(points: &[Vec2]) -> Option<Rect> {
    if points.len() < 3 {
        return None;
    }
    let mut best: Option<(f32, Rect)> = None;
    for i in 0..points.len() {
        let d = points[(i + 1) % points.len()] - points[i];
        if d.length() < 1e-4 {
            continue;
        }
        let x = d.normalize();
        let y = x.perp();
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for p in points {
            let q = Vec2::new(p.dot(x), p.dot(y));
            lo = lo.min(q);
            hi = hi.max(q);
        }
        let size = hi - lo;
        let area = size.x * size.y;
        if best.as_ref().is_none_or(|(a, _)| area < *a - 1e-4) {
            let mid = (lo + hi) * 0.5;
            let center = x * mid.x + y * mid.y;
            // The rectangle's local y is its "front": any side will do for a building.
            let angle = y.y.atan2(y.x) - std::f32::consts::FRAC_PI_2;
            best = Some((area, Rect::new(Pose::new(center, angle), size * 0.5)));
        }
    }
    best.map(|(_, r)| r)
}

/// Bases a footprint of `area` cm² holds: one per 10 cm², to the nearest base, 0.5 up
/// (BFS-TER-29).
fn bases_for_area(area: f32) -> u32 {
    (area / CM2_PER_BASE + 0.5 + 1e-4).floor() as u32
}

/// How many bases the building holds: its area in cm² ÷ 10, to the nearest whole base, 0.5 up
/// (BFS-TER-29: 6 × 4 cm holds 2, 6 × 6 cm holds 4).
pub fn capacity(game: &Game, index: usize) -> u32 {
    let Some(t) = game.terrain.get(index) else {
        return 0;
    };
    let area: f32 = t
        .polygons
        .iter()
        .map(|p| sandtable_engine::scenario_geometry::polygon_area(p).abs())
        .sum();
    bases_for_area(area)
}

/// The capacity of the scenario's building called `name`, if it has one (BFS-TER-29).
pub fn spec_capacity(
    s: &sandtable_engine::scenario::Scenario<crate::scenario_spec::BfsRules>,
    name: &str,
) -> Option<u32> {
    let t = s
        .terrain
        .iter()
        .find(|t| t.kind == TerrainKind::Building && t.name.as_deref() == Some(name))?;
    let area: f32 = sandtable_engine::scenario_geometry::shape_polygons(&t.shape)
        .iter()
        .map(|p| sandtable_engine::scenario_geometry::polygon_area(p).abs())
        .sum();
    Some(bases_for_area(area))
}

/// Puts the units the scenario names as garrisons into their buildings at the start.
pub fn place_garrisons(game: &mut Game, specs: &[(UnitId, String)]) {
    for (unit, name) in specs {
        let Some(index) = game
            .terrain
            .iter()
            .position(|t| t.kind == TerrainKind::Building && t.name.as_deref() == Some(name))
        else {
            continue;
        };
        let Some(fp) = footprint(game, index) else {
            continue;
        };
        let n = game.unit(*unit).bases.len();
        let u = game.unit_mut(*unit);
        u.bases = garrison_rects(&fp, n);
        u.garrison = Some(index as u16);
        u.formation = Formation::NonStandard;
    }
}

/// The unit holding the building, if any.
pub fn garrison_of(game: &Game, index: usize) -> Option<UnitId> {
    game.units
        .iter()
        .find(|u| u.status == UnitStatus::OnTable && u.garrison == Some(index as u16))
        .map(|u| u.id)
}

/// Is this unit a garrison?
pub fn in_building(game: &Game, unit: UnitId) -> bool {
    game.unit(unit).garrison.is_some()
}

/// `n` strips side by side along the footprint's longer side, filling it.
pub fn garrison_rects(footprint: &Rect, n: usize) -> Vec<Rect> {
    let n = n.max(1);
    let h = footprint.half;
    let along_x = h.x >= h.y;
    let long = if along_x { h.x } else { h.y } * 2.0;
    let short = if along_x { h.y } else { h.x } * 2.0;
    let step = long / n as f32;
    (0..n)
        .map(|i| {
            let offset = -long / 2.0 + step * (i as f32 + 0.5);
            let local = if along_x {
                Vec2::new(offset, 0.0)
            } else {
                Vec2::new(0.0, offset)
            };
            let half = if along_x {
                Vec2::new(step / 2.0 - INSET_CM, short / 2.0 - INSET_CM)
            } else {
                Vec2::new(short / 2.0 - INSET_CM, step / 2.0 - INSET_CM)
            };
            Rect::new(
                Pose::new(footprint.pose.to_world(local), footprint.pose.angle),
                half,
            )
        })
        .collect()
}

/// Who may pay the CP of a building order (or of manning a war wagon, BFS-WAG-19): a commander
/// of the unit with it in command range and a CP left (BFS-TER-29, BFS-TER-31, BFS-CDR-17).
pub(crate) fn check_payer(
    game: &Game,
    unit: UnitId,
    by: CommanderId,
    rule: &str,
) -> Result<(), RuleError> {
    let c = game.commander(by);
    if !crate::authority::commanders_who_may_order(game, unit).contains(&by) {
        return Err(RuleError::new(
            rule,
            format!(
                "{} is not one of {}'s commanders.",
                c.name,
                game.unit(unit).name
            ),
        ));
    }
    let d = crate::authority::distance_to_unit(game, by, unit);
    let range = crate::authority::command_range_cm(game, by);
    if d > range + sandtable_geometry::tolerance::LIMIT_EPS {
        return Err(RuleError::new(
            rule,
            format!(
                "{} is {d:.1} cm from {}, beyond his {range} cm command range.",
                c.name,
                game.unit(unit).name
            ),
        ));
    }
    // A commander who escaped death has no CP this turn or the next (BFS-CDR-9): his CP are 0.
    if c.cp < 1 {
        return Err(RuleError::new(rule, format!("{} has no CP left.", c.name)));
    }
    Ok(())
}

/// Can `unit` occupy building `index` now, paid by `by` (BFS-TER-29, BFS-MAN-22)? Called from
/// the Movement Phase checks, after the unit was found able to act.
pub fn check_occupy(
    game: &Game,
    unit: UnitId,
    index: usize,
    by: CommanderId,
) -> Result<(), RuleError> {
    let u = game.unit(unit);
    if !is_building(game, index) {
        return Err(RuleError::new("BFS-TER-29", "That is not a building."));
    }
    let name = name(game, index);
    if game.unit_profile(unit).kind != UnitKind::Infantry {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!("Only infantry may occupy {name}."),
        ));
    }
    if u.garrison.is_some() {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!("{} is already in a building.", u.name),
        ));
    }
    if u.flags.building_changed {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!(
                "{} left a building this turn: the same bases may not enter and leave in one turn.",
                u.name
            ),
        ));
    }
    if u.order != Some(OrderKind::Defense) {
        return Err(RuleError::new(
            "BFS-MAN-22",
            format!(
                "Entering a building is a Special Maneuver and needs a Defense order; {} has {}.",
                u.name,
                u.order.map_or("none", |o| o.name())
            ),
        ));
    }
    if u.flags.special_maneuvers >= crate::phases::movement::special_maneuver_limit(game, unit) {
        return Err(RuleError::new(
            "BFS-MAN-5",
            format!("{} has no Special Maneuver left.", u.name),
        ));
    }
    if let Some(g) = garrison_of(game, index) {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!(
                "{} already holds {name}: only one unit's bases may be inside.",
                game.unit(g).name
            ),
        ));
    }
    let cap = capacity(game, index);
    if u.bases.len() as u32 > cap {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!(
                "{name} holds {cap} base(s); {} has {}. (Sandtable does not yet split a unit to garrison a building.)",
                u.name,
                u.bases.len()
            ),
        ));
    }
    let Some(fp) = footprint(game, index) else {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!("{name} has no outline."),
        ));
    };
    let fp = [fp];
    let d = sandtable_geometry::distance::set_distance(&u.bases, &fp).unwrap_or(f32::INFINITY);
    if d > OCCUPY_RANGE_CM + sandtable_geometry::tolerance::LIMIT_EPS {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!(
                "{} is {d:.1} cm from {name}: a unit occupies a building within {OCCUPY_RANGE_CM} cm.",
                u.name
            ),
        ));
    }
    if let Some(e) = game.units_on_table(u.side.other()).find(|e| {
        sandtable_geometry::distance::set_distance(&e.bases, &fp)
            .is_ok_and(|d| d < ENEMY_CLEAR_CM - sandtable_geometry::tolerance::LIMIT_EPS)
    }) {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!("{} is within {ENEMY_CLEAR_CM} cm of {name}.", e.name),
        ));
    }
    check_payer(game, unit, by, "BFS-TER-29")
}

/// The unit goes into the building: its bases fill it, it loses its order, and the commander
/// pays 1 CP (BFS-TER-29).
pub fn occupy(
    game: &mut Game,
    unit: UnitId,
    index: usize,
    by: CommanderId,
    events: &mut Vec<Event>,
) {
    let Some(fp) = footprint(game, index) else {
        return;
    };
    pay(game, by, "BFS-TER-29", "occupy a building", events);
    let name = name(game, index);
    let n = game.unit(unit).bases.len();
    let old = {
        let u = game.unit_mut(unit);
        u.bases = garrison_rects(&fp, n);
        u.garrison = Some(index as u16);
        u.formation = Formation::NonStandard;
        u.flags.activated = true;
        u.flags.special_maneuvers += 1;
        u.flags.building_changed = true;
        u.charge = None;
        u.order.take()
    };
    let text = format!(
        "{} occupies {name}: its {n} base(s) hold the building, which now stands as the unit's walls.",
        game.unit(unit).name
    );
    let reason = "the bases that enter a building become a unit with no order";
    announce(unit, "BFS-TER-29", text, old, reason, events);
}

/// A commander pays 1 CP for a building order (BFS-CDR-17), or for manning a war wagon.
pub(crate) fn pay(
    game: &mut Game,
    by: CommanderId,
    rule: &str,
    reason: &str,
    events: &mut Vec<Event>,
) {
    game.commander_mut(by).cp -= 1;
    events.push(Event::CpSpent {
        commander: by,
        cp: 1,
        rule: rule.into(),
        reason: reason.into(),
    });
}

/// Tells what happened, and that the unit lost the order it had, if it had one.
fn announce(
    unit: UnitId,
    rule: &str,
    text: String,
    old: Option<OrderKind>,
    reason: &str,
    events: &mut Vec<Event>,
) {
    events.push(Event::Ruling {
        rule: rule.into(),
        text,
    });
    if old.is_some() {
        events.push(Event::OrderChanged {
            unit,
            from: old,
            to: None,
            rule: rule.into(),
            reason: reason.into(),
        });
    }
}

/// Where a garrison leaving by `wall` is set up: a Line just outside that wall, facing away.
pub fn leaving_rects(game: &Game, unit: UnitId, wall: u8) -> Option<Vec<Rect>> {
    let u = game.unit(unit);
    let fp = footprint(game, u.garrison? as usize)?;
    let edge = *WALLS.get(wall as usize)?;
    let seg = fp.edge(edge);
    let normal = fp.edge_normal(edge);
    let p = game.unit_profile(unit);
    let size = p.base_size();
    let front_mid = seg.midpoint() + normal * (LEAVE_GAP_CM + size.1);
    let bearing = normal.x.atan2(normal.y).to_degrees();
    Some(crate::deploy::deployment_rects(
        crate::scenario_spec::FormationSpec::Line {
            files: u.bases.len() as u8,
        },
        u.bases.len() as u8,
        size,
        front_mid,
        bearing,
    ))
}

/// Can the garrison leave by `wall`, paid by `by` (BFS-TER-31)?
pub fn check_leave(
    game: &Game,
    unit: UnitId,
    wall: u8,
    by: CommanderId,
) -> Result<Vec<Rect>, RuleError> {
    let u = game.unit(unit);
    if u.garrison.is_none() {
        return Err(RuleError::new(
            "BFS-TER-31",
            format!("{} is not in a building.", u.name),
        ));
    }
    if u.flags.building_changed {
        return Err(RuleError::new(
            "BFS-TER-29",
            format!(
                "{} entered this turn: the same bases may not enter and leave in one turn.",
                u.name
            ),
        ));
    }
    let Some(rects) = leaving_rects(game, unit, wall) else {
        return Err(RuleError::new(
            "BFS-TER-31",
            "Name one of the building's four walls.",
        ));
    };
    check_payer(game, unit, by, "BFS-TER-31")?;
    let scene = crate::geo::scene(game);
    crate::moves::check_final_position(game, &scene, unit, &rects)?;
    Ok(rects)
}

/// The garrison comes out: set up outside, no order this turn, 1 CP paid (BFS-TER-31).
pub fn leave(
    game: &mut Game,
    unit: UnitId,
    rects: Vec<Rect>,
    by: CommanderId,
    events: &mut Vec<Event>,
) {
    pay(game, by, "BFS-TER-31", "leave a building", events);
    let from = name(game, game.unit(unit).garrison.unwrap_or(0) as usize);
    let old = {
        let u = game.unit_mut(unit);
        let files = rects.len() as u8;
        u.bases = rects;
        u.garrison = None;
        u.formation = Formation::Close {
            files: files.max(1),
        };
        u.flags.activated = true;
        u.flags.building_changed = true;
        u.order.take()
    };
    let text = format!(
        "{} leaves {from} and forms up outside; it has no order this turn.",
        game.unit(unit).name
    );
    let reason = "a unit leaving a building loses its order";
    announce(unit, "BFS-TER-31", text, old, reason, events);
}

/// Why a garrison may not move, withdraw or charge: it leaves first (BFS-TER-31).
pub fn stays_inside(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    if in_building(game, unit) {
        return Err(RuleError::new(
            "BFS-TER-31",
            format!(
                "{} holds a building: it must leave it (1 CP) before it can move.",
                game.unit(unit).name
            ),
        ));
    }
    Ok(())
}

/// One wall's shooting: its midpoint (where range is measured from), a thin rectangle whose
/// front is the wall (its 90° field of fire), and its dice (BFS-TER-30, AMB-69).
pub struct Wall {
    pub index: u8,
    pub origin: Vec2,
    pub frame: Rect,
    pub dice: u32,
}

/// The walls of a garrison's building.
pub fn walls(game: &Game, unit: UnitId) -> Vec<Wall> {
    let Some(fp) = game
        .unit(unit)
        .garrison
        .and_then(|i| footprint(game, i as usize))
    else {
        return Vec::new();
    };
    WALLS
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let seg = fp.edge(*e);
            let n = fp.edge_normal(*e);
            let len = seg.length();
            let angle = n.y.atan2(n.x) - std::f32::consts::FRAC_PI_2;
            let depth = 0.05;
            Wall {
                index: i as u8,
                origin: seg.midpoint(),
                frame: Rect::new(
                    Pose::new(seg.midpoint() - n * depth, angle),
                    Vec2::new(len / 2.0, depth),
                ),
                dice: (len / WALL_CM_PER_DIE + 1e-4).floor() as u32,
            }
        })
        .collect()
}

/// The most dice a garrison rolls: its bases × their dice (BFS-TER-30).
pub fn dice_cap(game: &Game, unit: UnitId) -> u32 {
    game.unit(unit).bases.len() as u32 * game.unit_profile(unit).shooting as u32
}

/// Garrisons are never Disorganized and never flee or withdraw: a test that would Disorganize
/// costs 1 SP, one that would make it flee 2 (BFS-PSY-8). Returns the SP it costs instead.
pub fn sp_instead_of(level: crate::state::MoraleLevel) -> u32 {
    match level {
        crate::state::MoraleLevel::Good => 0,
        crate::state::MoraleLevel::Disorganized => 1,
        crate::state::MoraleLevel::Flight => 2,
    }
}

/// A garrison takes losses instead of dropping a Morale Level (BFS-PSY-8).
pub fn losses_instead(
    game: &mut Game,
    unit: UnitId,
    level: crate::state::MoraleLevel,
    events: &mut Vec<Event>,
) {
    let sp = sp_instead_of(level);
    if sp == 0 {
        return;
    }
    events.push(Event::Ruling {
        rule: "BFS-PSY-8".into(),
        text: format!(
            "{} holds a building: it loses {sp} SP instead of {}.",
            game.unit(unit).name,
            if sp == 1 {
                "becoming Disorganized"
            } else {
                "fleeing"
            }
        ),
    });
    crate::losses::apply(
        game,
        unit,
        sp,
        crate::losses::LossCause::Shooting,
        "a garrison that stands firm (BFS-PSY-8)",
        events,
    );
    relayout(game, unit);
}

/// After losses the garrison's remaining bases fill the building again.
pub fn relayout(game: &mut Game, unit: UnitId) {
    let Some(fp) = game
        .unit(unit)
        .garrison
        .and_then(|i| footprint(game, i as usize))
    else {
        return;
    };
    let n = game.unit(unit).bases.len();
    if n > 0 {
        game.unit_mut(unit).bases = garrison_rects(&fp, n);
    }
}

/// What a unit may do with buildings now, each with the first commander able to pay: occupy
/// each building it may enter, or leave by each wall it may leave by. For the menus and the
/// computer's candidates.
pub fn offers(game: &Game, unit: UnitId) -> Vec<crate::command::Command> {
    use crate::command::Command;
    let u = game.unit(unit);
    let payers = crate::authority::commanders_who_may_order(game, unit);
    let first_payer = |ok: &dyn Fn(CommanderId) -> bool| payers.iter().copied().find(|c| ok(*c));
    let mut out = Vec::new();
    if u.garrison.is_some() {
        for wall in 0..WALLS.len() as u8 {
            if let Some(by) = first_payer(&|by| check_leave(game, unit, wall, by).is_ok()) {
                out.push(Command::LeaveBuilding { unit, wall, by });
            }
        }
    } else if game.unit_profile(unit).kind == UnitKind::Infantry
        && u.order == Some(OrderKind::Defense)
    {
        for b in (0..game.terrain.len()).filter(|b| is_building(game, *b)) {
            if let Some(by) = first_payer(&|by| check_occupy(game, unit, b, by).is_ok()) {
                out.push(Command::OccupyBuilding {
                    unit,
                    building: b as u16,
                    by,
                });
            }
        }
    }
    out
}

/// A wall named by the way it faces on the table: "north", "east", "south" or "west".
pub fn wall_name(game: &Game, building: usize, wall: u8) -> &'static str {
    let Some((fp, edge)) = footprint(game, building).zip(WALLS.get(wall as usize)) else {
        return "far";
    };
    let n = fp.edge_normal(*edge);
    if n.y.abs() >= n.x.abs() {
        if n.y > 0.0 { "north" } else { "south" }
    } else if n.x > 0.0 {
        "east"
    } else {
        "west"
    }
}

/// A building's name for messages.
pub fn name(game: &Game, building: usize) -> String {
    game.terrain
        .get(building)
        .and_then(|t| t.name.clone())
        .unwrap_or_else(|| "the building".into())
}
