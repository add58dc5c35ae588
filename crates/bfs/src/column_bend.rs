//! A Column following a bend (BFS-AMV-4): instead of wheeling as a whole, the head base wheels
//! about a pivot point and moves on, and every following base moves up until it touches the one in
//! front, wheeling about the same point. A base that has not fully passed the pivot when the move
//! ends stays corner to corner with the others, so the Column forms a curve.
//!
//! What is played, step by step for the base behind each base (its "leader"):
//! 1. straight ahead until its inner front corner reaches the line of its leader's inner side
//!    (the pivot point), or until it touches its leader;
//! 2. if it reached that point, a forward wheel about it towards its leader's facing, stopping
//!    when it touches its leader;
//! 3. straight ahead until it touches its leader.
//!
//! Followers move until they touch (the book gives them no allowance of their own). The move costs what the head's path costs (its wheel measured at
//! its outer corner, then the straight run); each follower travels the same path, and the whole
//! Column's final position is checked like any move's. A curved Column moves on only by following
//! its head (a plain forward move would shift every base the same way, which the book does not
//! describe); it may not Turn or change frontage until it is straight again.

use crate::command::PivotCorner;
use crate::ids::UnitId;
use sandtable_geometry::movement::{self, Body, MoveCost, SidePolicy};
use sandtable_geometry::wheel::{self, Pivot, Wheel, WheelSense};
use sandtable_geometry::{Rect, Scene, SceneBase, Vec2};

/// The largest bend of one move, degrees (a Column turning back on itself would run into its
/// own rear).
pub const MAX_BEND_DEG: f32 = 180.0;

/// Bases within this angle of each other count as parallel (a straight Column).
const PARALLEL_RAD: f32 = 0.5 * core::f32::consts::PI / 180.0;

/// Are all these bases parallel (a Column that is straight, not curved by an earlier bend)?
pub fn is_straight(bases: &[Rect]) -> bool {
    let Some(first) = bases.first() else {
        return true;
    };
    bases.iter().all(|b| {
        sandtable_geometry::pose::normalize_angle(b.pose.angle - first.pose.angle).abs()
            <= PARALLEL_RAD
    })
}

/// The bases from head to tail, as indices into `bases`: the head is the base whose front is
/// farthest from every other base's rear; each next base is the one whose front is nearest the
/// rear of the base before it.
pub fn chain_order(bases: &[Rect]) -> Vec<usize> {
    use sandtable_geometry::Edge;
    let n = bases.len();
    if n == 0 {
        return Vec::new();
    }
    let front = |i: usize| bases[i].edge(Edge::Front).midpoint();
    let rear = |i: usize| bases[i].edge(Edge::Rear).midpoint();
    let head = (0..n)
        .max_by(|&a, &b| {
            let gap = |i: usize| {
                (0..n)
                    .filter(|&j| j != i)
                    .map(|j| front(i).distance(rear(j)))
                    .fold(f32::INFINITY, f32::min)
            };
            gap(a).total_cmp(&gap(b)).then(b.cmp(&a))
        })
        .unwrap_or(0);
    let mut order = vec![head];
    let mut left: Vec<usize> = (0..n).filter(|&i| i != head).collect();
    while !left.is_empty() {
        let last = *order.last().unwrap_or(&head);
        let (k, _) = left
            .iter()
            .enumerate()
            .map(|(k, &i)| (k, front(i).distance(rear(last))))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((0, 0.0));
        order.push(left.remove(k));
    }
    order
}

fn pivot_of(corner: PivotCorner) -> Pivot {
    match corner {
        PivotCorner::FrontLeft => Pivot::FrontLeft,
        PivotCorner::FrontRight => Pivot::FrontRight,
    }
}

fn corner_point(r: &Rect, corner: PivotCorner) -> Vec2 {
    match corner {
        PivotCorner::FrontLeft => r.front_left(),
        PivotCorner::FrontRight => r.front_right(),
    }
}

/// A scene holding only the leader, as a friend of another unit: a follower stops on touching it.
fn leader_scene(leader: &Rect, side: u8) -> Option<Scene> {
    Scene::new(
        vec![SceneBase {
            rect: *leader,
            unit: u32::MAX,
            side,
        }],
        Vec::new(),
    )
    .ok()
}

/// Where each follower ends, its leader already placed; `chain` from head to tail,
/// `head_final` the head's final rectangle. Returns the final rectangles in the order of `bases`.
///
/// A follower's pivot is where its inner front corner, moving straight ahead, meets the line of
/// its leader's inner side: the point where the leader wheeled, when it wheeled in this move (its
/// inner front corner stayed there during the wheel and its side ran on from there), and the same
/// point again when a curved Column goes on in a later move.
pub fn follow(
    bases: &[Rect],
    chain: &[usize],
    head_final: Rect,
    side: u8,
    unit: UnitId,
    reach: f32,
) -> Vec<Rect> {
    let mut out = bases.to_vec();
    if let Some(&h) = chain.first() {
        out[h] = head_final;
    }
    let policy = SidePolicy::moving(unit.0 as u32, side);
    for w in chain.windows(2) {
        let (lead, me) = (out[w[0]], bases[w[1]]);
        let Some(scene) = leader_scene(&lead, side) else {
            break;
        };
        let turn = sandtable_geometry::pose::normalize_angle(lead.pose.angle - me.pose.angle);
        let corner = if turn >= 0.0 {
            PivotCorner::FrontLeft
        } else {
            PivotCorner::FrontRight
        };
        let mut r = me;
        if turn.abs() > PARALLEL_RAD {
            // 1. Straight on to the pivot on the leader's side line, unless it touches first.
            let (c, f) = (corner_point(&r, corner), r.pose.facing());
            let (a, fl) = (corner_point(&lead, corner), lead.pose.facing());
            let ahead = ((a - c).perp_dot(fl) / f.perp_dot(fl)).max(0.0);
            let mut reached = ahead <= 1e-4;
            if !reached {
                let one = [r];
                if let Ok(m) = movement::move_straight(
                    &scene,
                    &Body::new(r, &one),
                    ahead,
                    &policy,
                    MoveCost::default(),
                ) {
                    r = r.translated(m.delta);
                    reached = m.travelled >= ahead - 1e-4;
                }
            }
            // 2. Wheel about it towards the leader's facing, stopping on touching the leader.
            if reached {
                let one = [r];
                let wh = Wheel {
                    pivot: pivot_of(corner),
                    sense: WheelSense::Forward,
                    angle: turn.abs(),
                };
                if let Ok(o) = wheel::wheel(&scene, &Body::new(r, &one), &wh, &policy) {
                    r = o.apply(&r);
                }
            }
        }
        // 3. On until it touches the leader: right behind it, when they are parallel and in
        // one lane (measured exactly, so a long Column does not gather contact gaps)...
        let f = r.pose.facing();
        let gap = (lead.center() - r.center()).dot(f) - lead.half.y - r.half.y;
        let lateral = (lead.center() - r.center()).perp_dot(f).abs();
        let parallel = sandtable_geometry::pose::normalize_angle(lead.pose.angle - r.pose.angle)
            .abs()
            <= PARALLEL_RAD;
        if parallel && lateral < lead.half.x + r.half.x && gap >= 0.0 && gap <= reach {
            out[w[1]] = r.translated(f * gap);
            continue;
        }
        // ... or as far as a straight move goes before touching it.
        let one = [r];
        if let Ok(m) = movement::move_straight(
            &scene,
            &Body::new(r, &one),
            reach,
            &policy,
            MoveCost::default(),
        ) && m.blocked.is_some()
        {
            r = r.translated(m.delta);
        }
        out[w[1]] = r;
    }
    out
}

/// The bends offered in a Column's move menu after `steps_so_far`: left and right, 45° and 90°,
/// each going on with what is left of the allowance after the head's wheel; for a Column already
/// curved, going on after its head. Empty for any other unit.
pub fn offers(
    view: &crate::state::Game,
    unit: UnitId,
    steps_so_far: &[crate::command::MoveStep],
) -> Vec<(String, crate::command::MoveStep)> {
    use crate::command::MoveStep;
    use crate::state::Formation;
    let u = view.unit(unit);
    // Elite Cavalry moves its bases each on its own, with no bend (BFS-SPC-10).
    if u.formation != (Formation::Close { files: 1 })
        || u.bases.len() < 2
        || crate::elite_cavalry::moves_base_by_base(view, unit)
    {
        return Vec::new();
    }
    if steps_so_far
        .iter()
        .any(|s| matches!(s, MoveStep::Bend { .. }))
    {
        return Vec::new();
    }
    let mut allowance = crate::phases::movement::allowance(view, unit);
    if crate::march::is_march(steps_so_far) {
        allowance += crate::march::bonus_cm(view.unit_profile(unit));
    }
    let spent = if steps_so_far.iter().all(|s| *s == MoveStep::March) {
        0.0
    } else {
        match crate::phases::movement::check_move(view, unit, steps_so_far) {
            Ok(plan) => plan.cost,
            Err(_) => return Vec::new(),
        }
    };
    let head = u.bases[chain_order(&u.bases)[0]];
    let reference = crate::moves::wheel_reference(view);
    let arc = |deg: f32| {
        let w = Wheel {
            pivot: Pivot::FrontLeft,
            sense: WheelSense::Forward,
            angle: deg.to_radians(),
        };
        wheel::wheel_cost(&head, &w, reference, MoveCost::default()).unwrap_or(f32::INFINITY)
    };
    let left = |deg: f32| {
        let a = if deg > 0.0 { arc(deg) } else { 0.0 };
        ((allowance - spent - a) * 10.0).floor() / 10.0
    };
    if !is_straight(&u.bases) {
        let then = left(0.0);
        return if then > 0.0 {
            vec![(
                format!("Follow the head along the curve, {then:.1} cm (BFS-AMV-4)"),
                MoveStep::Bend {
                    pivot: PivotCorner::FrontLeft,
                    degrees: 0.0,
                    then,
                },
            )]
        } else {
            Vec::new()
        };
    }
    let mut out = Vec::new();
    for deg in [45.0f32, 90.0] {
        let then = left(deg);
        if then < 0.0 {
            continue;
        }
        for (pivot, side) in [
            (PivotCorner::FrontLeft, "left"),
            (PivotCorner::FrontRight, "right"),
        ] {
            out.push((
                format!(
                    "Column bends {deg:.0}° {side}, then on {then:.1} cm (ends the move, BFS-AMV-4)"
                ),
                MoveStep::Bend {
                    pivot,
                    degrees: deg,
                    then,
                },
            ));
        }
    }
    out
}
