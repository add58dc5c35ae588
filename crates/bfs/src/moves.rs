//! Planning a unit's move: straight moves, wheels and movement maneuvers within its allowance,
//! checked against the 2 cm rule, friends, terrain and the table edge (BFS-MOV, BFS-MAN, BFS-TER).
//!
//! The same planner serves `legal`, `preview` (cost, path, end pose) and `execute`, so what the
//! player is shown is exactly what happens.

use crate::command::{MoveStep, PivotCorner, TurnKind};
use crate::geo::{self, TerrainClass, frame_of, sid};
use crate::ids::UnitId;
use crate::profile::{UnitKind, UnitProfile};
use crate::state::{Formation, Game};
use sandtable_engine::RuleError;
use sandtable_geometry::formation::{self, CloseOrder, FormationKind, FrontageFix, TurnSide};
use sandtable_geometry::movement::{self, Blocker, Body, MoveCost, ObstacleFns};
use sandtable_geometry::scene::SceneBase;
use sandtable_geometry::terrain::TerrainPiece;
use sandtable_geometry::wheel::{self, Pivot, Wheel, WheelReference, WheelSense};
use sandtable_geometry::{Rect, Scene, Vec2};

/// Slack when comparing a move against its allowance, cm.
pub const EPS: f32 = 1e-3;

/// Enemy gap during ordinary movement (BFS-MOV-7).
pub const ENEMY_GAP_CM: f32 = 2.0;

/// A planned move and what it costs.
#[derive(Debug, Clone, PartialEq)]
pub struct MovePlan {
    pub unit: UnitId,
    /// The bases where the move leaves them.
    pub bases: Vec<Rect>,
    /// The unit's frame after each step, for drawing the path.
    pub path: Vec<Rect>,
    /// Allowance used, cm.
    pub cost: f32,
    /// Allowance available, cm (after terrain caps).
    pub allowance: f32,
    /// Movement maneuvers used by this plan.
    pub maneuvers: u8,
    /// Files of a close-order unit after the plan.
    pub files: Option<u8>,
    /// The unit ends the plan in Open Order (it was, or it dispersed: BFS-MAN-18).
    pub open: bool,
    /// The unit was a Column one base wide at some point of the plan (for marching, BFS-MOV-15).
    pub ever_column: bool,
    /// Portable obstacles it sets up as its last step (BFS-OBS-6, BFS-OBS-9).
    pub placed: Vec<Rect>,
    /// Friendly units the move passes through (BFS-AMV-3): both sides test Skill after it.
    pub passed_through: Vec<UnitId>,
    pub description: String,
}

/// May the unit make `more` Movement Maneuvers this turn on top of those it made (BFS-MAN-4)?
pub fn check_maneuver_limit(game: &Game, unit: UnitId, more: u8) -> Result<(), RuleError> {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    let used = u.flags.maneuvers + more;
    if used > maneuver_limit(p) {
        return Err(RuleError::new(
            "BFS-MAN-4",
            format!(
                "{} (Skill {}) may make {} maneuver(s) per turn; this would be {used}.",
                u.name,
                p.skill,
                maneuver_limit(p)
            ),
        ));
    }
    Ok(())
}

/// Allowance cost of one Movement Maneuver (BFS-MAN-6): 2 cm infantry and light artillery, 5 cm
/// cavalry, the whole Move for everything else.
pub fn maneuver_cost(p: &UnitProfile) -> f32 {
    match p.kind {
        UnitKind::Infantry => 2.0,
        UnitKind::Cavalry | UnitKind::Dragoons => 5.0,
        _ => p.movement.basic,
    }
}

/// Maneuvers per turn by printed Skill (BFS-MAN-4, AMB-40 clamping).
pub fn maneuver_limit(p: &UnitProfile) -> u8 {
    match p.skill {
        0..=3 => 1,
        4 => 2,
        _ => 3,
    }
}

pub fn wheel_reference(game: &Game) -> WheelReference {
    match game.info.options.wheel_reference {
        crate::options::WheelReference::Diagonal => WheelReference::DiagonalOpposite,
        crate::options::WheelReference::OuterFront => WheelReference::OuterFront,
    }
}

/// What a moving unit must keep clear of: 2 cm from enemies (0 when charging or fleeing), no
/// overlap with friends (passing through friends is not modelled yet) and no entry into terrain
/// impassable to it.
pub fn obstacles<'a>(
    game: &'a Game,
    mover: UnitId,
    enemy_gap: f32,
) -> ObstacleFns<impl Fn(&SceneBase) -> Option<f32> + 'a, impl Fn(&TerrainPiece) -> Option<f32> + 'a>
{
    obstacles_but(game, mover, enemy_gap, None)
}

/// As [`obstacles`], letting the unit through one terrain piece: the obstacle it is crossing
/// (BFS-MAN-15/16).
/// As [`obstacles`], but unit `skip` does not stop the move: the friendly wagon being crossed
/// (BFS-WAG-4).
pub fn obstacles_but_unit<'a>(
    game: &'a Game,
    mover: UnitId,
    enemy_gap: f32,
    skip: UnitId,
) -> ObstacleFns<impl Fn(&SceneBase) -> Option<f32> + 'a, impl Fn(&TerrainPiece) -> Option<f32> + 'a>
{
    let inner = obstacles(game, mover, enemy_gap);
    let base = inner.base;
    ObstacleFns {
        base: move |b: &SceneBase| {
            if b.unit == sid(skip) { None } else { base(b) }
        },
        terrain: inner.terrain,
        max_gap: inner.max_gap,
        legacy_corner_rounding: inner.legacy_corner_rounding,
    }
}

pub fn obstacles_but<'a>(
    game: &'a Game,
    mover: UnitId,
    enemy_gap: f32,
    crossing: Option<u32>,
) -> ObstacleFns<impl Fn(&SceneBase) -> Option<f32> + 'a, impl Fn(&TerrainPiece) -> Option<f32> + 'a>
{
    let side = game.unit(mover).side.0;
    let profile = game.unit_profile(mover);
    ObstacleFns {
        base: move |b: &SceneBase| {
            if b.unit == sid(mover) {
                None
            } else if b.side == side {
                Some(0.0)
            } else {
                Some(enemy_gap)
            }
        },
        terrain: move |t: &TerrainPiece| {
            if Some(t.id) == crossing {
                return None;
            }
            let kind = game.terrain.get(t.id as usize).map(|p| p.kind)?;
            (geo::terrain_class(kind, profile) == TerrainClass::Impassable).then_some(0.0)
        },
        max_gap: enemy_gap.max(0.0),
        legacy_corner_rounding: crate::revision::legacy_corner_rounding(
            game.info.options.rules_revision,
        ),
    }
}

/// What stops a commander of side `side` moving (BFS-CDR-2): he passes through friends, keeps
/// 2 cm from enemies (BFS-CDR-5, BFS-MOV-7) and never enters ground impassable to his profile.
pub fn commander_obstacles<'a>(
    game: &'a Game,
    side: u8,
    profile: &'a UnitProfile,
) -> ObstacleFns<impl Fn(&SceneBase) -> Option<f32> + 'a, impl Fn(&TerrainPiece) -> Option<f32> + 'a>
{
    ObstacleFns {
        base: move |b: &SceneBase| (b.side != side).then_some(ENEMY_GAP_CM),
        terrain: move |t: &TerrainPiece| {
            let kind = game.terrain.get(t.id as usize).map(|x| x.kind)?;
            (geo::terrain_class(kind, profile) == TerrainClass::Impassable).then_some(0.0)
        },
        max_gap: ENEMY_GAP_CM,
        legacy_corner_rounding: crate::revision::legacy_corner_rounding(
            game.info.options.rules_revision,
        ),
    }
}

/// A friendly unit a moving unit may pass through (BFS-AMV-3, BFS-OO-11): any friend on the table
/// that is neither Disorganized nor fleeing.
pub fn passable_friend(game: &Game, mover: UnitId, other: UnitId) -> bool {
    let (m, o) = (game.unit(mover), game.unit(other));
    other != mover
        && m.side == o.side
        && o.morale == crate::state::MoraleLevel::Good
        // Wagons are an obstacle too: they are crossed, not walked through (BFS-WAG-4).
        && !crate::wagon::any_wagon(game, other)
}

/// As [`obstacles`] for a straight step, which may pass through friends that allow it.
pub(crate) fn obstacles_passing<'a>(
    game: &'a Game,
    mover: UnitId,
) -> ObstacleFns<impl Fn(&SceneBase) -> Option<f32> + 'a, impl Fn(&TerrainPiece) -> Option<f32> + 'a>
{
    let inner = obstacles(game, mover, ENEMY_GAP_CM);
    let terrain = inner.terrain;
    let base = inner.base;
    ObstacleFns {
        base: move |b: &SceneBase| {
            if passable_friend(game, mover, UnitId(b.unit as u16)) {
                None
            } else {
                base(b)
            }
        },
        terrain,
        max_gap: inner.max_gap,
        legacy_corner_rounding: crate::revision::legacy_corner_rounding(
            game.info.options.rules_revision,
        ),
    }
}

/// The friendly units whose bases `bases` cross moving by `delta`.
pub(crate) fn crossed_friends(
    game: &Game,
    unit: UnitId,
    bases: &[Rect],
    delta: Vec2,
) -> Vec<UnitId> {
    let side = game.unit(unit).side;
    // A friend only touched, sliding along its edge, is not crossed: its outline is shrunk by
    // this much before the sweep (rules revision 10; before it, two units side by side moving on
    // together counted as passing through each other).
    let inset = if crate::revision::wagons(game.info.options.rules_revision) {
        0.01
    } else {
        0.0
    };
    // The box the move sweeps: only friends inside it can be crossed.
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    for b in bases {
        let (a, z) = b.aabb();
        lo = lo.min(a).min(a + delta);
        hi = hi.max(z).max(z + delta);
    }
    let in_box = |r: &Rect| {
        let (a, z) = r.aabb();
        a.x <= hi.x && a.y <= hi.y && z.x >= lo.x && z.y >= lo.y
    };
    game.units_on_table(side)
        .filter(|o| o.id != unit)
        .filter(|o| {
            o.bases.iter().filter(|fb| in_box(fb)).any(|fb| {
                let fb = Rect::new(
                    fb.pose,
                    (fb.half - Vec2::splat(inset)).max(Vec2::splat(0.01)),
                );
                sandtable_geometry::Polygon::from_rect(&fb)
                    .map(|pg| TerrainPiece::new(0, pg))
                    .is_ok_and(|piece| {
                        bases.iter().any(|b| {
                            piece
                                .swept_intervals(b, delta)
                                .is_ok_and(|iv| iv.iter().any(|(t0, t1)| t1 - t0 > 1e-4))
                        })
                    })
            })
        })
        .map(|o| o.id)
        .collect()
}

/// Why a move stopped short, in words.
pub fn blocker_text(game: &Game, b: &Blocker, mover_side: u8) -> (String, &'static str) {
    match b {
        Blocker::Base { unit, .. } => {
            let u = &game.units[*unit as usize];
            if u.side.0 == mover_side {
                (
                    format!(
                        "{} is in the way (a unit passes through friends only moving straight, \
                         never through a Disorganized or fleeing one)",
                        u.name
                    ),
                    "BFS-AMV-3",
                )
            } else {
                (
                    format!(
                        "it would come within 2 cm of the enemy {} (only charging or fleeing units may)",
                        u.name
                    ),
                    "BFS-MOV-7",
                )
            }
        }
        Blocker::Terrain { id, .. } => {
            let t = &game.terrain[*id as usize];
            (
                format!(
                    "{} ({:?}) is impassable to it",
                    t.name.clone().unwrap_or_else(|| format!("{:?}", t.kind)),
                    t.kind
                ),
                "BFS-TER-4",
            )
        }
    }
}

/// Terrain that slows this unit: (cap in cm, rule, name) for a piece of class DT or VDT.
pub(crate) fn slowing(
    game: &Game,
    p: &UnitProfile,
    id: usize,
    basic: f32,
) -> Option<(f32, &'static str, String)> {
    let t = game.terrain.get(id)?;
    let name = t.name.clone().unwrap_or_else(|| format!("{:?}", t.kind));
    geo::slowed_move(geo::terrain_class(t.kind, p), basic)
        .map(|(cap, rule, why)| (cap, rule, format!("{name} ({why})")))
}

/// The running terrain limit: once in slowing terrain, the whole phase's movement is capped.
#[derive(Debug, Clone, Default)]
pub(crate) struct TerrainLimit {
    cap: Option<(f32, &'static str, String)>,
}

impl TerrainLimit {
    /// The cap, cm, once the unit (or base) has met slowing ground.
    pub(crate) fn cap_cm(&self) -> Option<f32> {
        self.cap.as_ref().map(|(c, _, _)| *c)
    }

    /// A straight step entering (or already in) slowing terrain at `entry` cm into the step.
    pub(crate) fn enter(
        &mut self,
        spent: f32,
        entry: f32,
        found: (f32, &'static str, String),
        step_len: f32,
    ) -> Result<(), RuleError> {
        let (cap, rule, name) = found;
        if spent + entry > cap + EPS && entry < step_len - EPS {
            return Err(RuleError::new(
                rule,
                format!(
                    "The unit has already moved {:.1} cm when it reaches {name}: it must stop at the edge.",
                    spent + entry
                ),
            ));
        }
        if self.cap.as_ref().is_none_or(|(c, _, _)| cap < *c) {
            self.cap = Some((cap, rule, name));
        }
        Ok(())
    }

    pub(crate) fn check(&self, spent: f32) -> Result<(), RuleError> {
        if let Some((cap, rule, name)) = &self.cap
            && spent > cap + EPS
        {
            return Err(RuleError::new(
                rule,
                format!(
                    "In {name} the unit may move at most {cap:.1} cm this phase; this move uses {spent:.1} cm."
                ),
            ));
        }
        Ok(())
    }
}

/// Plans `steps` for `unit` with `allowance` cm (its Basic Move for a Move order).
pub fn plan(
    game: &Game,
    scene: &Scene,
    unit: UnitId,
    steps: &[MoveStep],
    allowance: f32,
) -> Result<MovePlan, RuleError> {
    if crate::open_order_move::applies(game, unit, steps) {
        return crate::open_order_move::plan(game, scene, unit, steps, allowance);
    }
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if steps.len() > 64 {
        return Err(RuleError::new(
            "BFS-MOV-3",
            "A move may have at most 64 steps.",
        ));
    }
    if u.formation == Formation::NonStandard {
        return Err(RuleError::new(
            "BFS-MOV-10",
            format!(
                "{} is in a Non-standard formation and cannot move until it forms a Line or Column.",
                u.name
            ),
        ));
    }
    let passing = obstacles_passing(game, unit);
    let mut passed_through: Vec<UnitId> = Vec::new();
    let reference = wheel_reference(game);
    // A gun moves at its class's pace, limbered or manhandled (BFS-ART-12).
    let basic = crate::artillery::move_allowance(game, unit).unwrap_or(p.movement.basic);
    let man_cost = crate::artillery::maneuver_cost(game, unit).unwrap_or_else(|| maneuver_cost(p));
    let mut bases = u.bases.clone();
    let mut files = match u.formation {
        Formation::Close { files } => Some(files),
        _ => None,
    };
    let mut spent = 0.0f32;
    let mut maneuvers = 0u8;
    let mut path = vec![frame_of(&bases)];
    let mut limit = TerrainLimit { cap: None };
    let pieces = scene.terrain();
    // Terrain the unit starts in limits it from the start (BFS-TER-2/3), but not a base on a road
    // through it (BFS-TER-22).
    let off_road = |bases: &[Rect]| -> Vec<Rect> {
        bases
            .iter()
            .filter(|b| !geo::on_road(game, b.center()))
            .copied()
            .collect()
    };
    // The slowing ground these bases stand in (off any road through it), by piece.
    let ground_under = |bases: &[Rect]| {
        let off = off_road(bases);
        geo::pieces_near(pieces, &off)
            .filter(|piece| {
                off.iter()
                    .any(|b| piece.overlap_area(b).is_ok_and(|a| a > 1e-3))
            })
            .filter_map(|piece| slowing(game, p, piece.id as usize, basic))
            .collect::<Vec<_>>()
    };
    for found in ground_under(&bases) {
        limit.enter(0.0, 0.0, found, 0.0)?;
    }
    // A maneuver reaches the ground it puts a base in as it begins (BFS-TER-2/3, revision 14).
    let sweeps = crate::revision::ground_met_on_the_way(game.info.options.rules_revision);
    let meet_ground = |limit: &mut TerrainLimit, spent: f32, bases: &[Rect]| {
        if sweeps {
            for found in ground_under(bases) {
                limit.enter(spent, 0.0, found, 1.0)?;
            }
        }
        Ok::<(), RuleError>(())
    };
    let mut words = Vec::new();
    let mut ever_column = files == Some(1);
    let mut placed = Vec::new();
    let curved = files == Some(1) && !crate::column_bend::is_straight(&bases);
    for (k, step) in steps.iter().enumerate() {
        let frame = frame_of(&bases);
        let body = Body::new(frame, &bases);
        if curved && !matches!(step, MoveStep::Bend { .. } | MoveStep::March) {
            return Err(RuleError::new(
                "BFS-AMV-4",
                format!(
                    "{} is a Column bent along a curve: it moves on by following its head (a bend of 0° or more).",
                    u.name
                ),
            ));
        }
        match *step {
            MoveStep::Mount | MoveStep::Dismount { .. } => {
                return Err(RuleError::new(
                    "BFS-SPC-9",
                    "Mounting or dismounting is the whole of a move here: plan it alone.",
                ));
            }
            MoveStep::Bend {
                pivot,
                degrees,
                then,
            } => {
                if k + 1 != steps.len() {
                    return Err(RuleError::new(
                        "BFS-AMV-4",
                        "Following a bend ends the move: plan it as the last step.",
                    ));
                }
                let (after, cost, text, met) =
                    bend(game, scene, unit, &bases, files, pivot, degrees, then)?;
                // The ground the head's path meets slows the whole Column from there, and the
                // ground it ends in from here (BFS-TER-2/3).
                for (i, at) in met {
                    if let Some(found) = slowing(game, p, pieces[i].id as usize, basic) {
                        limit.enter(spent, at, found, cost)?;
                    }
                }
                for found in ground_under(&after) {
                    limit.enter(spent, 0.0, found, 1.0)?;
                }
                spent += cost;
                bases = after;
                words.push(text);
            }
            MoveStep::March => words.push("march".to_string()),
            MoveStep::SetUpObstacles => {
                placed = set_up_last(game, unit, &bases, k, steps.len())?;
                maneuvers += 1;
                spent += man_cost;
                words.push(format!(
                    "set up {} element(s) of portable obstacles ({:.0} cm)",
                    placed.len(),
                    man_cost
                ));
            }
            MoveStep::Forward(d) | MoveStep::Backward(d) => {
                if !d.is_finite() || d <= 0.0 || d > 1000.0 {
                    return Err(RuleError::new(
                        "BFS-MOV-5",
                        format!("A move of {d} cm makes no sense."),
                    ));
                }
                let signed = if matches!(step, MoveStep::Forward(_)) {
                    d
                } else {
                    -d
                };
                let out =
                    movement::move_straight(scene, &body, signed, &passing, MoveCost::default())
                        .map_err(|e| {
                            RuleError::new("BFS-MOV-5", format!("The move cannot be measured: {e}"))
                        })?;
                if out.travelled.abs() < d - EPS {
                    return Err(blocked(game, &out, u.side.0, "Blocked"));
                }
                let delta = out.delta;
                // A base that keeps to a road goes on as on open ground (BFS-TER-22).
                let slowed: Vec<&Rect> = bases
                    .iter()
                    .filter(|b| !geo::keeps_to_road(game, b, delta))
                    .collect();
                for piece in pieces {
                    if let Some(t) = piece.first_entry_moving(slowed.iter().copied(), delta)
                        && let Some(found) = slowing(game, p, piece.id as usize, basic)
                    {
                        limit.enter(spent, t * d, found, d)?;
                    }
                }
                for f in crossed_friends(game, unit, &bases, delta) {
                    if !passed_through.contains(&f) {
                        passed_through.push(f);
                    }
                }
                spent += out.cost;
                bases = bases.iter().map(|b| b.translated(delta)).collect();
                words.push(format!(
                    "{} {:.1} cm",
                    if signed > 0.0 { "forward" } else { "back" },
                    d
                ));
            }
            MoveStep::Wheel { pivot, degrees } => {
                let (w, out) = checked_wheel(game, scene, unit, &body, pivot, degrees)?;
                let cost = wheel::wheel_cost(&frame, &w, reference, MoveCost::default())
                    .map_err(|e| RuleError::new("BFS-MOV-14", e.to_string()))?;
                // Slowing ground met on the way counts from where the wheel reaches it, even
                // when the wheel ends clear of it (BFS-TER-2/3).
                // A base on a road through the ground is not slowed by it (BFS-TER-22).
                let off = if sweeps { off_road(&bases) } else { Vec::new() };
                for piece in pieces {
                    if let Some(t) = piece.first_entry_turning_as(
                        !crate::revision::sliver_met_at_once(game.info.options.rules_revision),
                        &off,
                        out.pivot,
                        out.theta,
                    ) && let Some(found) = slowing(game, p, piece.id as usize, basic)
                    {
                        limit.enter(spent, t * cost, found, cost)?;
                    }
                }
                bases = bases.iter().map(|b| out.apply(b)).collect();
                for found in ground_under(&bases) {
                    limit.enter(spent, 0.0, found, 1.0)?;
                }
                spent += cost;
                words.push(format!(
                    "wheel {:.0}° {} on the {} corner ({:.1} cm)",
                    degrees.abs(),
                    if degrees > 0.0 { "forward" } else { "back" },
                    if pivot == PivotCorner::FrontLeft {
                        "left"
                    } else {
                        "right"
                    },
                    cost
                ));
            }
            MoveStep::CrossObstacle => {
                // Wagons crossed are friends passed through too (BFS-WAG-4).
                if let Some(w) = crate::wagon::crossing::wagon_at_front(game, unit, &bases)
                    && !passed_through.contains(&w)
                {
                    passed_through.push(w);
                }
                let (across, d) = crate::obstacle::cross(game, scene, unit, &bases)?;
                let cost = d + crate::obstacle::crossing_cost(game, unit);
                bases = across;
                maneuvers += 1;
                spent += cost;
                words.push(format!(
                    "cross the obstacle ({d:.1} cm + {:.0} cm)",
                    cost - d
                ));
            }
            MoveStep::Turn(kind) => {
                let order = close_order(&bases, &u.name)?;
                let cap = Some(1.5 * basic);
                let turned = match kind {
                    TurnKind::Left => formation::turn_90(&order, TurnSide::Left, cap),
                    TurnKind::Right => formation::turn_90(&order, TurnSide::Right, cap),
                    TurnKind::About => formation::turn_180(&order, cap),
                }
                .map_err(|e| {
                    RuleError::new(
                        "BFS-MAN-3",
                        format!(
                            "The turn is not possible: {e} (no base may move more than 1.5 × Move)."
                        ),
                    )
                })?;
                bases = turned.base_rects();
                meet_ground(&mut limit, spent, &bases)?;
                files = Some(turned.frame.files as u8);
                maneuvers += 1;
                spent += man_cost;
                words.push(format!("turn {:?} ({:.0} cm)", kind, man_cost));
            }
            MoveStep::Shift { .. } | MoveStep::ShiftBase { .. } => {
                return Err(RuleError::new(
                    "BFS-OO-3",
                    format!(
                        "Only an Open Order unit moves base by base; {} is in close order.",
                        u.name
                    ),
                ));
            }
            MoveStep::Disperse | MoveStep::CloseRanks { .. } => {
                return Err(RuleError::new(
                    "BFS-MAN-17",
                    if crate::open_order::rules_apply(game) {
                        "A unit changes order once, dispersing as the first step of its move or closing up as the last."
                    } else {
                        "This battle was recorded before the change of order was played (rules revision 3)."
                    },
                ));
            }
            MoveStep::Frontage(change) => {
                if change != 1 && change != -1 {
                    return Err(RuleError::new(
                        "BFS-MAN-12",
                        "As a Movement Maneuver the frontage changes by exactly one base.",
                    ));
                }
                let order = close_order(&bases, &u.name)?;
                let new_files = order.frame.files as i32 + change as i32;
                if new_files < 1 || new_files as usize > bases.len() {
                    return Err(RuleError::new(
                        "BFS-MAN-10",
                        format!(
                            "{} cannot have {new_files} files with {} bases.",
                            u.name,
                            bases.len()
                        ),
                    ));
                }
                let changed = formation::change_frontage(
                    &order,
                    new_files as u16,
                    FrontageFix::Centre,
                    Some(1.5 * basic),
                )
                .map_err(|e| {
                    RuleError::new(
                        "BFS-MAN-3",
                        format!("The frontage change is not possible: {e}."),
                    )
                })?;
                bases = changed.base_rects();
                meet_ground(&mut limit, spent, &bases)?;
                files = Some(changed.frame.files as u8);
                maneuvers += 1;
                spent += man_cost;
                words.push(format!(
                    "{} the frontage ({:.0} cm)",
                    if change > 0 { "widen" } else { "narrow" },
                    man_cost
                ));
            }
        }
        limit.check(spent)?;
        path.push(frame_of(&bases));
        ever_column |= files == Some(1);
    }
    let cap = limit
        .cap
        .as_ref()
        .map_or(allowance, |(c, _, _)| c.min(allowance));
    if spent > allowance + EPS {
        return Err(RuleError::new(
            "BFS-MOV-6",
            format!(
                "Too far: this move uses {spent:.1} cm but {} may move {allowance:.1} cm (backward costs double).",
                u.name
            ),
        ));
    }
    check_maneuver_limit(game, unit, maneuvers)?;
    check_final_position(game, scene, unit, &bases)?;
    if !passed_through.is_empty() {
        let names: Vec<&str> = passed_through
            .iter()
            .map(|f| game.unit(*f).name.as_str())
            .collect();
        words.push(format!(
            "through {} (both test Skill afterwards, BFS-AMV-3)",
            names.join(", ")
        ));
    }
    Ok(MovePlan {
        unit,
        bases,
        path,
        cost: spent,
        allowance: cap,
        maneuvers,
        files,
        open: u.formation == Formation::OpenOrder,
        ever_column,
        placed,
        description: words.join(", "),
        passed_through,
    })
}

/// What [`bend`] returns: the bases, the cost, the words for the log, and where the head's path
/// first meets each terrain piece.
type Bent = (Vec<Rect>, f32, String, Vec<(usize, f32)>);

/// A Column following a bend (BFS-AMV-4): the head's wheel and run, checked against everything
/// on the table, then the followers placed by [`crate::column_bend::follow`]. Returns the bases,
/// the cost (the head's outer corner's arc and its run), the words for the log, and where the
/// head's path first meets each terrain piece (index, cm along the path; revision 14).
#[allow(clippy::too_many_arguments)]
fn bend(
    game: &Game,
    scene: &Scene,
    unit: UnitId,
    bases: &[Rect],
    files: Option<u8>,
    pivot: PivotCorner,
    degrees: f32,
    then: f32,
) -> Result<Bent, RuleError> {
    let u = game.unit(unit);
    if files != Some(1) || bases.len() < 2 {
        return Err(RuleError::new(
            "BFS-AMV-4",
            format!(
                "Only a Column one base wide of two or more bases follows a bend; {} is not one.",
                u.name
            ),
        ));
    }
    if !degrees.is_finite()
        || !then.is_finite()
        || !(0.0..=crate::column_bend::MAX_BEND_DEG).contains(&degrees)
        || !(0.0..=1000.0).contains(&then)
        || (degrees == 0.0 && then == 0.0)
    {
        return Err(RuleError::new(
            "BFS-AMV-4",
            format!(
                "A bend of {degrees}° then {then} cm makes no sense (0° to {:.0}° forward, then a run of 0 cm or more).",
                crate::column_bend::MAX_BEND_DEG
            ),
        ));
    }
    let chain = crate::column_bend::chain_order(bases);
    let head = bases[chain[0]];
    let head_bases = [head];
    let mut cost = 0.0;
    let mut r = head;
    // Where the head's path first meets each piece of ground (cm along it), since the column
    // follows that path (BFS-TER-2/3, revision 14); a head on a road keeps to it (BFS-TER-22).
    let sweeps = crate::revision::ground_met_on_the_way(game.info.options.rules_revision);
    let mut met: Vec<(usize, f32)> = Vec::new();
    let mut meet = |i: usize, at: f32| match met.iter_mut().find(|m| m.0 == i) {
        Some(m) => m.1 = m.1.min(at),
        None => met.push((i, at)),
    };
    if degrees > 0.0 {
        let (w, out) = checked_wheel(
            game,
            scene,
            unit,
            &Body::new(head, &head_bases),
            pivot,
            degrees,
        )?;
        let arc = wheel::wheel_cost(&head, &w, wheel_reference(game), MoveCost::default())
            .map_err(|e| RuleError::new("BFS-MOV-14", e.to_string()))?;
        if sweeps && !geo::on_road(game, head.center()) {
            for (i, piece) in scene.terrain().iter().enumerate() {
                if let Some(t) = piece.first_entry_turning_as(
                    !crate::revision::sliver_met_at_once(game.info.options.rules_revision),
                    [&head],
                    out.pivot,
                    out.theta,
                ) {
                    meet(i, cost + t * arc);
                }
            }
        }
        cost += arc;
        r = out.apply(&head);
    }
    if then > 0.0 {
        let passing = obstacles_passing(game, unit);
        let one = [r];
        let out = movement::move_straight(
            scene,
            &Body::new(r, &one),
            then,
            &passing,
            MoveCost::default(),
        )
        .map_err(|e| RuleError::new("BFS-MOV-5", format!("The move cannot be measured: {e}")))?;
        if out.travelled < then - EPS {
            return Err(blocked(game, &out, u.side.0, "The head is blocked"));
        }
        if sweeps && !geo::keeps_to_road(game, &r, out.delta) {
            for (i, piece) in scene.terrain().iter().enumerate() {
                if let Some(t) = piece.first_entry_moving([&r], out.delta) {
                    meet(i, cost + t * out.cost);
                }
            }
        }
        cost += out.cost;
        r = r.translated(out.delta);
    }
    let reach = cost + 2.0 * frame_of(bases).half.length() + 1.0;
    let after = crate::column_bend::follow(bases, &chain, r, u.side.0, unit, reach);
    let text = format!(
        "follow a bend of {degrees:.0}° on the {} corner, then {then:.1} cm ({cost:.1} cm)",
        if pivot == PivotCorner::FrontLeft {
            "left"
        } else {
            "right"
        }
    );
    Ok((after, cost, text, met))
}

/// Why a straight move stopped short: "`what` after 3.2 cm: …", under the rule of what stopped it.
fn blocked(game: &Game, out: &movement::MoveOutcome, side: u8, what: &str) -> RuleError {
    let (why, rule) = out
        .blocked
        .map(|b| blocker_text(game, &b, side))
        .unwrap_or(("something is in the way".into(), "BFS-MOV-5"));
    RuleError::new(
        rule,
        format!("{what} after {:.1} cm: {why}.", out.travelled.abs()),
    )
}

/// Portable obstacles set up as a move's step: only as its last (BFS-OBS-6, BFS-OBS-9).
pub(crate) fn set_up_last(
    game: &Game,
    unit: UnitId,
    bases: &[Rect],
    step: usize,
    steps: usize,
) -> Result<Vec<Rect>, RuleError> {
    if step + 1 != steps {
        return Err(RuleError::new(
            "BFS-OBS-9",
            "Setting up portable obstacles ends the move: plan it as the last step.",
        ));
    }
    crate::portable::check_set_up_at(game, unit, bases, true)
}

/// A wheel of `body` about a front corner (BFS-MOV-14), refused when it makes no sense or when
/// something stops it short; what it costs is the planner's to say.
pub(crate) fn checked_wheel(
    game: &Game,
    scene: &Scene,
    unit: UnitId,
    body: &Body,
    pivot: PivotCorner,
    degrees: f32,
) -> Result<(Wheel, wheel::WheelOutcome), RuleError> {
    if !degrees.is_finite() || degrees == 0.0 || degrees.abs() > 360.0 {
        return Err(RuleError::new(
            "BFS-MOV-14",
            format!("A wheel of {degrees}° makes no sense."),
        ));
    }
    let w = Wheel {
        pivot: match pivot {
            PivotCorner::FrontLeft => Pivot::FrontLeft,
            PivotCorner::FrontRight => Pivot::FrontRight,
        },
        sense: if degrees > 0.0 {
            WheelSense::Forward
        } else {
            WheelSense::Backward
        },
        angle: degrees.abs().to_radians(),
    };
    let obs = obstacles(game, unit, ENEMY_GAP_CM);
    let out = wheel::wheel(scene, body, &w, &obs)
        .map_err(|e| RuleError::new("BFS-MOV-14", format!("The wheel cannot be measured: {e}")))?;
    if out.theta.abs() < w.angle - 1e-4 {
        let (why, rule) = out
            .blocked
            .map(|b| blocker_text(game, &b, game.unit(unit).side.0))
            .unwrap_or(("something is in the way".into(), "BFS-MOV-14"));
        return Err(RuleError::new(
            rule,
            format!(
                "The wheel is blocked after {:.1}°: {why}.",
                out.theta.abs().to_degrees()
            ),
        ));
    }
    Ok((w, out))
}

/// The unit as a Line or Column, or the rule that forbids maneuvering it.
pub fn close_order(bases: &[Rect], name: &str) -> Result<CloseOrder, RuleError> {
    let c =
        formation::classify(bases, 0.05).map_err(|e| RuleError::new("BFS-FRM-6", e.to_string()))?;
    match (c.kind, c.order) {
        (FormationKind::Line | FormationKind::Column, Some(o)) => Ok(o),
        _ => Err(RuleError::new(
            "BFS-MAN-2",
            format!("{name} is not in a Line or Column, so it cannot make this maneuver."),
        )),
    }
}

/// Where a move ends: on the table, not overlapping anything, not within 2 cm of an enemy it was
/// not already that close to.
pub fn check_final_position(
    game: &Game,
    scene: &Scene,
    unit: UnitId,
    bases: &[Rect],
) -> Result<(), RuleError> {
    let u = game.unit(unit);
    let t = game.info.table;
    for b in bases {
        if b.corners()
            .iter()
            .any(|c| c.x < -EPS || c.y < -EPS || c.x > t.x + EPS || c.y > t.y + EPS)
        {
            return Err(RuleError::new(
                "BFS-PSY-21",
                "The move would take bases off the table; only fleeing or withdrawing units leave it.",
            ));
        }
    }
    // No base may end in ground impassable to it (BFS-TER-4): a maneuver that rebuilds the
    // formation (a turn, a frontage change) must not put a base there either.
    if crate::revision::ground_rules(game.info.options.rules_revision) {
        let p = game.unit_profile(unit);
        for piece in scene.terrain() {
            let Some(t) = game.terrain.get(piece.id as usize) else {
                continue;
            };
            if geo::terrain_class(t.kind, p) == TerrainClass::Impassable
                && bases
                    .iter()
                    .any(|b| piece.overlap_area(b).is_ok_and(|a| a > 1e-3))
            {
                return Err(RuleError::new(
                    "BFS-TER-4",
                    format!(
                        "A base would end in {} ({:?}), impassable to {}.",
                        t.name.clone().unwrap_or_else(|| format!("{:?}", t.kind)),
                        t.kind,
                        u.name
                    ),
                ));
            }
        }
    }
    // Nor on a friendly commander's spot, unless he joins it (BFS-CDR-3).
    if crate::revision::ground_rules(game.info.options.rules_revision)
        && let Some(c) = game.commanders.iter().find(|c| {
            c.side == u.side
                && c.status == crate::state::UnitStatus::OnTable
                && c.attached_to.is_none()
                && bases
                    .iter()
                    .any(|b| sandtable_engine::scenario_check::rects_overlap(b, &c.base))
        })
    {
        return Err(RuleError::new(
            "BFS-CDR-3",
            format!(
                "It would end on {}'s spot: he must join the unit first, or it must stop short.",
                c.name
            ),
        ));
    }
    // Nor in the ground a caracoling unit's first rank rode across: it is held as that unit's
    // (BFS-SPC-4).
    if let Some(c) = crate::caracole::holds_the_gap(game, unit, &u.bases, bases) {
        return Err(RuleError::new(
            "BFS-SPC-4",
            format!(
                "It would end in or by the ground {}'s caracoling first rank rode across, which is held as that unit's.",
                game.unit(c).name
            ),
        ));
    }
    let before = |other: &[Rect]| {
        sandtable_geometry::distance::set_distance(&u.bases, other).unwrap_or(f32::INFINITY)
    };
    // Only bases near the new position can be too close or overlap: ask the broad phase, and
    // keep the scene's order so the same offender is named as before.
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    for b in bases {
        let (a, z) = b.aabb();
        lo = lo.min(a);
        hi = hi.max(z);
    }
    let margin = Vec2::splat(ENEMY_GAP_CM + 1.0);
    let mut near = scene
        .bases_in_aabb(lo - margin, hi + margin)
        .unwrap_or_else(|_| (0..scene.bases().len()).collect());
    near.sort_unstable();
    for sb in near.into_iter().filter_map(|i| scene.bases().get(i)) {
        if sb.unit == sid(unit) {
            continue;
        }
        let d = sandtable_geometry::distance::set_distance(bases, std::slice::from_ref(&sb.rect))
            .unwrap_or(f32::INFINITY);
        let other = &game.units[sb.unit as usize];
        if sb.side != u.side.0
            && d < ENEMY_GAP_CM - EPS
            && d < before(std::slice::from_ref(&sb.rect)) - EPS
        {
            return Err(RuleError::new(
                "BFS-MOV-7",
                format!(
                    "It would end {d:.1} cm from the enemy {}: only charging or fleeing units may come within 2 cm.",
                    other.name
                ),
            ));
        }
        if bases
            .iter()
            .any(|b| sandtable_engine::scenario_check::rects_overlap(b, &sb.rect))
        {
            return Err(RuleError::new(
                "BFS-AMV-3",
                format!("It would end on top of {}.", other.name),
            ));
        }
    }
    Ok(())
}

/// The direction towards a side's own table edge (GEO-19).
pub fn toward_home(game: &Game, side: crate::ids::Side) -> Vec2 {
    sandtable_engine::scenario_geometry::edge_outward(game.side(side).home_edge)
}
