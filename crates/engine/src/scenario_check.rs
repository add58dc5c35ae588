//! Checks of the shared part of a scenario: format, table, terrain, sides, objectives, script and
//! lesson, and the references between them and the ruleset's pieces; then the ruleset section's
//! own checks. Each problem names the entity at fault so the author can find it in the file.
//! Every list has a cap, so no file can make the program allocate without bound.

use crate::problem::Problem;
use crate::scenario::{RulesSection, SCENARIO_FORMAT, Scenario, ShapeSpec};
use crate::scenario_geometry::{polygon_area, polygon_self_intersects};
use sandtable_geometry::{Rect, Vec2};
use std::collections::BTreeSet;

/// Smallest and largest table sides we accept, in cm.
pub const TABLE_SIDE_CM: (f32, f32) = (30.0, 2000.0);
/// Most turns a scenario may last.
pub const MAX_TURNS: u32 = 99;
/// Most bases one unit may have.
pub const MAX_BASES_PER_UNIT: u8 = 60;
/// Most units per side.
pub const MAX_UNITS_PER_SIDE: usize = 500;
/// Most terrain pieces, objectives, script rules and lesson steps a scenario may have.
pub const MAX_TERRAIN: usize = 500;
pub const MAX_OBJECTIVES: usize = 50;
pub const MAX_SCRIPT_RULES: usize = 500;
pub const MAX_LESSON_STEPS: usize = 200;

/// Everything wrong with the scenario's structure, in file order: the shared part, then the
/// ruleset's section.
pub fn check_structure<S: RulesSection>(s: &Scenario<S>) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut p = |entity: String, message: String| out.push(Problem::new(entity, message));

    if s.format != SCENARIO_FORMAT {
        p(
            "format".into(),
            format!(
                "this program reads scenario format {SCENARIO_FORMAT} (and 1), the file says {}",
                s.format
            ),
        );
    }
    if s.name.trim().is_empty() {
        p("name".into(), "the scenario needs a name".into());
    }
    let (lo, hi) = TABLE_SIDE_CM;
    for (what, v) in [("width", s.table.width), ("depth", s.table.depth)] {
        if !v.is_finite() || v < lo || v > hi {
            p(
                "table".into(),
                format!("{what} {v} cm is outside {lo}..{hi} cm"),
            );
        }
    }
    if s.turn_limit == 0 || s.turn_limit > MAX_TURNS {
        p(
            "turn_limit".into(),
            format!("{} turns is outside 1..{MAX_TURNS}", s.turn_limit),
        );
    }
    for (list, n, max) in [
        ("terrain", s.terrain.len(), MAX_TERRAIN),
        ("objectives", s.objectives.len(), MAX_OBJECTIVES),
        ("script", s.script.len(), MAX_SCRIPT_RULES),
        (
            "lesson",
            s.lesson.as_ref().map_or(0, |l| l.steps.len()),
            MAX_LESSON_STEPS,
        ),
    ] {
        if n > max {
            p(list.into(), format!("has {n} entries; the limit is {max}"));
        }
    }
    for (i, t) in s.terrain.iter().enumerate().take(MAX_TERRAIN) {
        let who = match &t.name {
            Some(n) => format!("terrain #{} \"{n}\"", i + 1),
            None => format!("terrain #{} ({:?})", i + 1, t.kind),
        };
        for msg in check_shape(&t.shape) {
            p(who.clone(), msg);
        }
    }
    if s.sides.len() != 2 {
        p(
            "sides".into(),
            format!(
                "a battle has exactly 2 sides; this one has {}",
                s.sides.len()
            ),
        );
    }
    for (i, side) in s.sides.iter().enumerate() {
        let who = format!("side #{} \"{}\"", i + 1, side.name);
        if side.name.trim().is_empty() {
            p(who.clone(), "needs a name".into());
        }
        if let Some(d) = &side.deployment {
            for msg in check_shape(d) {
                p(who.clone(), format!("deployment zone: {msg}"));
            }
        }
    }
    out.extend(s.rules.check(s));
    out.extend(check_extras(s));
    out
}

/// Objectives, script and lesson: every name they use must exist, every number make sense.
fn check_extras<S: RulesSection>(s: &Scenario<S>) -> Vec<Problem> {
    use crate::scenario_script::{Goal, ScriptAction, Trigger};
    let mut out = Vec::new();
    let mut p = |entity: String, message: String| out.push(Problem::new(entity, message));
    let pieces = s.rules.pieces();
    let units: BTreeSet<&str> = pieces
        .iter()
        .filter(|x| !x.leader)
        .map(|x| x.id.as_str())
        .collect();
    let commanders: BTreeSet<&str> = pieces
        .iter()
        .filter(|x| x.leader)
        .map(|x| x.id.as_str())
        .collect();
    let reserves: BTreeSet<&str> = pieces
        .iter()
        .filter(|x| x.reserve)
        .map(|x| x.id.as_str())
        .collect();
    let sides = s.sides.len();
    let mut objectives = BTreeSet::new();
    for o in s.objectives.iter().take(MAX_OBJECTIVES) {
        let who = format!("objective \"{}\"", o.id);
        if !objectives.insert(o.id.as_str()) {
            p(who.clone(), "is listed twice".into());
        }
        let (x, y) = o.position;
        if !(x.is_finite()
            && y.is_finite()
            && (0.0..=s.table.width).contains(&x)
            && (0.0..=s.table.depth).contains(&y))
        {
            p(who.clone(), format!("position ({x}, {y}) is off the table"));
        }
        if !(o.radius.is_finite() && o.radius > 0.0 && o.radius <= 60.0) {
            p(
                who.clone(),
                format!("radius {} cm is outside 0..60 cm", o.radius),
            );
        }
        if o.vp > 20 {
            p(
                who.clone(),
                format!("{} VP is more than the 20 allowed", o.vp),
            );
        }
        if o.held_by.is_some_and(|h| h >= sides) {
            p(
                who,
                "is held by a side that does not exist (sides are 0 and 1)".into(),
            );
        }
    }
    for (i, rule) in s.script.iter().enumerate().take(MAX_SCRIPT_RULES) {
        let who = format!("script rule #{}", i + 1);
        match &rule.when {
            Trigger::TurnBegins(n) if *n == 0 || *n > s.turn_limit => p(
                who.clone(),
                format!("turn {n} is outside 1..{}", s.turn_limit),
            ),
            Trigger::UnitLost(u) if !units.contains(u.as_str()) => p(
                who.clone(),
                format!("names unit \"{u}\", which the scenario does not have"),
            ),
            Trigger::SideEntersArea { side, area } => {
                if *side >= sides {
                    p(
                        who.clone(),
                        format!("side {side} does not exist (sides are 0 and 1)"),
                    );
                }
                for m in check_shape(area) {
                    p(who.clone(), format!("area: {m}"));
                }
            }
            Trigger::ObjectiveTaken { objective, side } => {
                if !s.objectives.iter().any(|o| &o.id == objective) {
                    p(
                        who.clone(),
                        format!(
                            "names objective \"{objective}\", which the scenario does not have"
                        ),
                    );
                }
                if *side >= sides {
                    p(
                        who.clone(),
                        format!("side {side} does not exist (sides are 0 and 1)"),
                    );
                }
            }
            _ => {}
        }
        if rule.then.is_empty() {
            p(
                who.clone(),
                "does nothing: give it at least one action".into(),
            );
        }
        for a in &rule.then {
            match a {
                ScriptAction::Orders { units: us, .. } | ScriptAction::Reserves(us) => {
                    for u in us {
                        if !units.contains(u.as_str()) {
                            p(
                                who.clone(),
                                format!("names unit \"{u}\", which the scenario does not have"),
                            );
                        } else if matches!(a, ScriptAction::Reserves(_))
                            && !reserves.contains(u.as_str())
                        {
                            p(
                                who.clone(),
                                format!(
                                    "brings on unit \"{u}\", which is not held in reserve (`reserve: true`)"
                                ),
                            );
                        }
                    }
                }
                ScriptAction::Message(m) if m.trim().is_empty() => {
                    p(who.clone(), "shows an empty message".into())
                }
                _ => {}
            }
        }
    }
    if let Some(lesson) = &s.lesson {
        if lesson.learner >= sides {
            p(
                "lesson".into(),
                format!(
                    "learner side {} does not exist (sides are 0 and 1)",
                    lesson.learner
                ),
            );
        }
        if !["computer", "passive"].contains(&lesson.opponent.as_str()) {
            p(
                "lesson".into(),
                format!(
                    "opponent \"{}\" is not \"computer\" or \"passive\"",
                    lesson.opponent
                ),
            );
        }
        if lesson.steps.is_empty() {
            p("lesson".into(), "has no steps".into());
        }
        for (i, step) in lesson.steps.iter().enumerate() {
            let who = format!("lesson step {} \"{}\"", i + 1, step.title);
            if step.say.trim().is_empty() || step.explain.trim().is_empty() {
                p(who.clone(), "needs both `say` and `explain`".into());
            }
            for l in &step.look_at {
                if !units.contains(l.as_str()) && !commanders.contains(l.as_str()) {
                    p(
                        who.clone(),
                        format!("looks at \"{l}\", which is no unit or commander of the scenario"),
                    );
                }
            }
            let goals = std::iter::once((who.clone(), &step.until)).chain(
                step.branches
                    .iter()
                    .enumerate()
                    .map(|(b, br)| (format!("{who}, branch {}", b + 1), &br.when)),
            );
            for (who, goal) in goals {
                if let Goal::Command { unit: Some(u), .. }
                | Goal::Event { unit: Some(u), .. }
                | Goal::State { unit: u, .. } = goal
                    && !units.contains(u.as_str())
                    && !commanders.contains(u.as_str())
                {
                    p(
                        who.clone(),
                        format!("waits for \"{u}\", which is no unit or commander of the scenario"),
                    );
                }
                if let Goal::Command {
                    target: Some(t), ..
                } = goal
                    && !units.contains(t.as_str())
                {
                    p(
                        who,
                        format!("targets \"{t}\", which is no unit of the scenario"),
                    );
                }
            }
        }
    }
    out
}

pub fn check_shape(shape: &ShapeSpec) -> Vec<String> {
    let mut out = Vec::new();
    let finite = |pts: &[(f32, f32)]| {
        pts.iter()
            .all(|(x, y)| x.is_finite() && y.is_finite() && x.abs() < 1e5 && y.abs() < 1e5)
    };
    match shape {
        ShapeSpec::Rect {
            center,
            size,
            rotation,
        } => {
            if !finite(&[*center, *size]) || !rotation.is_finite() {
                out.push("rectangle has a coordinate that is not a sane number".into());
            } else if size.0 <= 0.1 || size.1 <= 0.1 {
                out.push(format!(
                    "rectangle size {} × {} cm is too small",
                    size.0, size.1
                ));
            }
        }
        ShapeSpec::Polygon(points) => {
            if points.len() < 3 {
                out.push(format!(
                    "a polygon needs at least 3 points, this one has {}",
                    points.len()
                ));
            } else if points.len() > 1000 {
                out.push(format!(
                    "a polygon may have at most 1000 points, this one has {}",
                    points.len()
                ));
            } else if !finite(points) {
                out.push("polygon has a coordinate that is not a sane number".into());
            } else {
                let pts: Vec<Vec2> = points.iter().map(|&(x, y)| Vec2::new(x, y)).collect();
                if polygon_self_intersects(&pts) {
                    out.push("polygon's edges cross each other; list its points in order around the edge".into());
                } else if polygon_area(&pts).abs() < 0.5 {
                    out.push("polygon has (almost) no area".into());
                }
            }
        }
        ShapeSpec::Strip { points, width } => {
            if points.len() < 2 || points.len() > 1000 {
                out.push(format!(
                    "a strip needs 2..1000 points, this one has {}",
                    points.len()
                ));
            } else if !finite(points) || !width.is_finite() {
                out.push("strip has a coordinate that is not a sane number".into());
            } else if *width <= 0.1 {
                out.push(format!("strip width {width} cm is too small"));
            } else if points
                .windows(2)
                .any(|w| (w[0].0 - w[1].0).hypot(w[0].1 - w[1].1) < 0.01)
            {
                out.push("strip repeats a point".into());
            }
        }
    }
    out
}

/// Checks the footprints the ruleset computed for each unit and commander: every base on the
/// table, and no two bases of different units overlapping at deployment.
pub fn check_footprints(table: (f32, f32), items: &[(String, Vec<Rect>)]) -> Vec<Problem> {
    let mut out = Vec::new();
    for (who, rects) in items {
        if let Some(r) = rects.iter().find(|r| {
            r.corners()
                .iter()
                .any(|c| c.x < -1e-3 || c.y < -1e-3 || c.x > table.0 + 1e-3 || c.y > table.1 + 1e-3)
        }) {
            let c = r.center();
            out.push(Problem::new(
                who.clone(),
                format!(
                    "a base at ({:.1}, {:.1}) lies partly off the {}×{} cm table",
                    c.x, c.y, table.0, table.1
                ),
            ));
        }
    }
    for i in 0..items.len() {
        for j in i + 1..items.len() {
            'pairs: for a in &items[i].1 {
                for b in &items[j].1 {
                    if rects_overlap(a, b) {
                        out.push(Problem::new(
                            items[i].0.clone(),
                            format!("overlaps {} at deployment", items[j].0),
                        ));
                        break 'pairs;
                    }
                }
            }
        }
    }
    out
}

/// Strict overlap (touching is fine): separating-axis test on the two rectangles' axes.
pub fn rects_overlap(a: &Rect, b: &Rect) -> bool {
    // Rectangles whose circumscribed circles are apart cannot overlap: the common case, and
    // cheaper than the trigonometry of the separating-axis test below.
    let reach = a.half.length() + b.half.length();
    if a.pose.pos.distance_squared(b.pose.pos) >= reach * reach {
        return false;
    }
    let axes = [
        a.pose.facing(),
        a.pose.right(),
        b.pose.facing(),
        b.pose.right(),
    ];
    let (ca, cb) = (a.corners(), b.corners());
    axes.iter().all(|ax| {
        let (amin, amax) = project(&ca, *ax);
        let (bmin, bmax) = project(&cb, *ax);
        amin < bmax - 1e-3 && bmin < amax - 1e-3
    })
}

fn project(pts: &[Vec2; 4], ax: Vec2) -> (f32, f32) {
    pts.iter()
        .map(|p| p.dot(ax))
        .fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_bases_do_not_overlap_but_crossing_ones_do() {
        let a = Rect::try_new(Vec2::new(0.0, 0.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        let b = Rect::try_new(Vec2::new(4.0, 0.0), Vec2::new(4.0, 2.0), 0.0).unwrap();
        let c = Rect::try_new(Vec2::new(3.0, 0.5), Vec2::new(4.0, 2.0), 0.3).unwrap();
        assert!(!rects_overlap(&a, &b));
        assert!(rects_overlap(&a, &c));
    }
}
