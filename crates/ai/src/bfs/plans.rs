//! The By Fire and Sword search's plans: moves aimed at a chosen enemy (wheel to face it, then go
//! forward as far as the move allows, or stop short at a chosen distance, round terrain in the
//! way as the travel fields of [`super::eval`] lead), and commanders following their army.
//!
//! The rules' own candidate list samples fixed lengths and angles; these are the moves a player
//! would actually make when closing on a target.

use super::eval::{Matchups, distance};
use sandtable_bfs::command::{Command, MoveStep, PivotCorner};
use sandtable_bfs::geo::frame_of;
use sandtable_bfs::ids::{CommanderId, Side, UnitId};
use sandtable_bfs::phases;
use sandtable_bfs::state::{Formation, Game, MoraleLevel, OrderKind, Unit};
use sandtable_geometry::Vec2;

/// Below this angle a unit does not bother to wheel, degrees.
const ALIGNED_DEG: f32 = 4.0;

/// The enemies a unit would close on: the two it beats by the widest margin (nearer first when
/// equal), or for a unit that beats nobody but can shoot, the nearest.
pub fn targets<'g>(game: &'g Game, unit: &Unit, matchups: &Matchups) -> Vec<&'g Unit> {
    let mut enemies: Vec<(&Unit, f64, f64)> = game
        .units_on_table(unit.side.other())
        .map(|e| (e, matchups.edge(unit.id, e.id), distance(unit, e)))
        .collect();
    let beaten: Vec<(&Unit, f64, f64)> = enemies
        .iter()
        .copied()
        .filter(|(e, edge, _)| *edge > 0.0 && e.morale != MoraleLevel::Flight)
        .collect();
    if !beaten.is_empty() {
        let mut beaten = beaten;
        beaten.sort_by(|a, b| (b.1 - b.2 * 0.01).total_cmp(&(a.1 - a.2 * 0.01)));
        return beaten.into_iter().take(2).map(|t| t.0).collect();
    }
    if game.unit_profile(unit.id).shooting > 0 {
        enemies.sort_by(|a, b| a.2.total_cmp(&b.2));
        return enemies.into_iter().take(1).map(|t| t.0).collect();
    }
    Vec::new()
}

/// Legal moves that turn `unit` towards each of its targets and advance on it: the widest
/// legal wheel towards the target (or half of it), then the longest legal step forward, half of
/// it, or a stop just short of the target.
pub fn aimed_moves(game: &Game, unit: UnitId, matchups: &Matchups) -> Vec<Command> {
    let u = game.unit(unit);
    let basic = game.unit_profile(unit).movement.basic;
    let frame = frame_of(&u.bases);
    let front_mid = (frame.front_left() + frame.front_right()) * 0.5;
    legal_moves(game, unit, |push| {
        for target in targets(game, u, matchups) {
            // Round the terrain in the way: head for a point the travel field leads to.
            let goal = match matchups.field(u.profile, target.id) {
                Some(f) if f.at(front_mid) > distance(u, target) as f32 * 1.1 + 3.0 => {
                    f.waypoint(front_mid, basic)
                }
                _ => frame_of(&target.bases).closest_point(front_mid),
            };
            // An enemy stops the step itself (bases may not overlap, BFS-AMV-3).
            moves_towards(
                game,
                unit,
                goal,
                distance(u, target) as f32,
                f32::INFINITY,
                push,
            );
        }
    })
}

/// The distinct legal moves of `unit` among those `propose` pushes.
fn legal_moves(
    game: &Game,
    unit: UnitId,
    propose: impl FnOnce(&mut dyn FnMut(Vec<MoveStep>)),
) -> Vec<Command> {
    let mut out = Vec::new();
    propose(&mut |steps| {
        let cmd = Command::Move { unit, steps };
        if !out.contains(&cmd) && phases::check(game, &cmd).is_ok() {
            out.push(cmd);
        }
    });
    out
}

/// How many of the nearest units are sent towards each objective the side does not hold.
pub const OBJECTIVE_RUNNERS: usize = 2;

/// For each objective `side` does not hold (BFS-SCN-7), the units sent to take it: the
/// [`OBJECTIVE_RUNNERS`] nearest to its marker among those in good order, under a Move order
/// and not yet moved this phase, nearest first.
pub fn objective_runners(game: &Game, side: Side) -> Vec<(usize, Vec<UnitId>)> {
    (0..game.objectives.len())
        .filter(|&i| sandtable_bfs::script::holder(game, i) != Some(side))
        .map(|i| {
            let at = game.objectives[i].position;
            let mut near: Vec<(f32, UnitId)> = game
                .units_on_table(side)
                .filter(|u| {
                    !u.flags.activated
                        && u.order == Some(OrderKind::Move)
                        && u.morale == MoraleLevel::Good
                })
                .map(|u| (frame_of(&u.bases).closest_point(at).distance(at), u.id))
                .collect();
            near.sort_by(|a, b| a.0.total_cmp(&b.0));
            let runners = near
                .into_iter()
                .take(OBJECTIVE_RUNNERS)
                .map(|n| n.1)
                .collect();
            (i, runners)
        })
        .collect()
}

/// Legal moves that bring `unit` towards objective `objective` (BFS-SCN-7): as
/// [`aimed_moves`], stopping as soon as its front is inside the marker's radius. An objective
/// is held by standing within its radius with no enemy there, so a player sends a unit onto it;
/// the rules' sampled lengths rarely end there.
pub fn objective_moves(game: &Game, unit: UnitId, objective: usize) -> Vec<Command> {
    let u = game.unit(unit);
    let o = &game.objectives[objective];
    let frame = frame_of(&u.bases);
    let front_mid = (frame.front_left() + frame.front_right()) * 0.5;
    // Aim 3 cm inside the radius, and never step past the marker: nothing stops a unit there.
    let inside = front_mid.distance(o.position) - o.radius + 3.0;
    legal_moves(game, unit, |push| {
        moves_towards(game, unit, o.position, inside + 3.0, inside.max(0.5), push)
    })
}

/// The widest legal wheel towards `goal` (or half of it), then the longest legal step forward
/// (at most `reach` cm), half of it, or a stop 3 cm short of `gap` (Open Order units shift
/// straight at it instead, BFS-OO-3); each candidate goes to `push`, which keeps the legal ones.
fn moves_towards(
    game: &Game,
    unit: UnitId,
    goal: Vec2,
    gap: f32,
    reach: f32,
    push: &mut dyn FnMut(Vec<MoveStep>),
) {
    let u = game.unit(unit);
    let basic = game.unit_profile(unit).movement.basic;
    let frame = frame_of(&u.bases);
    let front_mid = (frame.front_left() + frame.front_right()) * 0.5;
    let aim = goal - front_mid;
    if aim.length_squared() < 1e-6 {
        return;
    }
    let angle = frame.facing().angle_to(aim).to_degrees();
    // An Open Order unit goes straight at it, sideways or diagonally, without wheeling
    // (BFS-OO-3).
    if u.formation == Formation::OpenOrder && angle.abs() <= 90.0 {
        let dir = frame.pose.to_local(frame.center() + aim.normalize());
        let shift = |d: f32| {
            vec![MoveStep::Shift {
                dx: dir.x * d,
                dy: dir.y * d,
                degrees: 0.0,
            }]
        };
        let far = longest(0.0, basic.min(reach), |d| legal(game, unit, &shift(d)));
        for d in [far, far * 0.5, (gap - 3.0).min(far)] {
            if d >= 0.5 {
                push(shift(d));
            }
        }
    }
    let mut prefixes = vec![Vec::new()];
    if angle.abs() > ALIGNED_DEG {
        let pivot = if angle > 0.0 {
            PivotCorner::FrontLeft
        } else {
            PivotCorner::FrontRight
        };
        let wheel = |degrees: f32| vec![MoveStep::Wheel { pivot, degrees }];
        let widest = longest(0.0, angle.abs().min(90.0), |d| legal(game, unit, &wheel(d)));
        if widest >= 1.0 {
            prefixes = vec![wheel(widest), wheel(widest * 0.5)];
        }
    }
    for prefix in prefixes {
        let with = |d: f32| {
            let mut s = prefix.clone();
            s.push(MoveStep::Forward(d));
            s
        };
        let far = longest(0.0, basic.min(reach), |d| legal(game, unit, &with(d)));
        for d in [far, far * 0.5, (gap - 3.0).min(far)] {
            if d >= 0.5 {
                push(with(d));
            }
        }
        if !prefix.is_empty() {
            push(prefix);
        }
    }
}

/// Legal moves that bring a commander towards the middle of his side's units, so that his
/// orders cost 1 CP (BFS-CMD-4): the widest legal wheel towards it, then the longest step.
pub fn commander_moves(game: &Game, commander: CommanderId) -> Vec<Command> {
    let c = &game.commanders[commander.index()];
    let units: Vec<Vec2> = game
        .units_on_table(c.side)
        .map(|u| frame_of(&u.bases).center())
        .collect();
    if units.is_empty() {
        return Vec::new();
    }
    let middle = units.iter().copied().sum::<Vec2>() / units.len() as f32;
    let here = c.base.center();
    let aim = middle - here;
    if aim.length() < 4.0 {
        return Vec::new();
    }
    let ok = |steps: &[MoveStep]| {
        phases::check(
            game,
            &Command::MoveCommander {
                commander,
                steps: steps.to_vec(),
            },
        )
        .is_ok()
    };
    let angle = c.base.facing().angle_to(aim).to_degrees();
    let mut prefix = Vec::new();
    if angle.abs() > ALIGNED_DEG {
        let pivot = if angle > 0.0 {
            PivotCorner::FrontLeft
        } else {
            PivotCorner::FrontRight
        };
        let widest = longest(0.0, angle.abs(), |d| {
            ok(&[MoveStep::Wheel { pivot, degrees: d }])
        });
        if widest >= 1.0 {
            prefix.push(MoveStep::Wheel {
                pivot,
                degrees: widest,
            });
        }
    }
    let basic = game.profile(c.profile).movement.basic;
    let with = |d: f32| {
        let mut s = prefix.clone();
        s.push(MoveStep::Forward(d));
        s
    };
    let far = longest(0.0, basic.min(aim.length() - 3.0).max(0.0), |d| {
        ok(&with(d))
    });
    let mut out = Vec::new();
    for d in [far, far * 0.5] {
        if d >= 0.5 {
            out.push(Command::MoveCommander {
                commander,
                steps: with(d),
            });
        }
    }
    if !prefix.is_empty() && ok(&prefix) {
        out.push(Command::MoveCommander {
            commander,
            steps: prefix,
        });
    }
    out
}

fn legal(game: &Game, unit: UnitId, steps: &[MoveStep]) -> bool {
    phases::check(
        game,
        &Command::Move {
            unit,
            steps: steps.to_vec(),
        },
    )
    .is_ok()
}

/// The largest value in `lo..=hi` for which `ok` holds, assuming it holds up to some point and
/// not beyond (more distance or angle never makes a blocked move legal). `lo` when none does.
fn longest(lo: f32, hi: f32, ok: impl Fn(f32) -> bool) -> f32 {
    if ok(hi) {
        return hi;
    }
    let (mut good, mut bad) = (lo, hi);
    for _ in 0..7 {
        let mid = (good + bad) * 0.5;
        if ok(mid) { good = mid } else { bad = mid }
    }
    good
}
