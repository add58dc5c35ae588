//! What the table shows on top of the pieces: the planned command's ghost and path, the shapes the
//! ruleset hands for the selection and the overlays switched on (each ruleset names its own, with
//! the key that toggles it), and what a lesson step asks the learner to look at. The shapes are
//! the ruleset's; the app only chooses their colours and draws them. They are computed once per
//! change (battle revision, selection, toggles, plan) and drawn every frame from the cache.

use super::draft::Draft;
use super::input::{Pointer, Selected};
use super::view::from_geo;
use crate::battle::Battle;
use crate::palette;
use bevy::prelude::*;
use sandtable_engine::scenario_script::Goal;
use sandtable_engine::{Outline, PieceId, Shape, Tone};
use sandtable_geometry::{Rect, Vec2 as G};
use std::collections::BTreeSet;

/// Which overlays are on, by the ruleset's ids.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq, Hash)]
pub struct Overlays(pub BTreeSet<&'static str>);

/// A polyline to draw.
#[derive(Debug, Clone)]
pub struct Line {
    pub points: Vec<Vec2>,
    pub closed: bool,
    pub colour: Color,
}

/// The cached lines and what they were computed for.
#[derive(Resource, Default)]
pub struct OverlayCache {
    key: Option<(u64, Option<PieceId>, Overlays, u64, usize)>,
    pub lines: Vec<Line>,
}

/// Toggles the ruleset's overlays on their keys.
pub fn toggle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<Pointer>,
    battle: Option<Res<Battle>>,
    mut on: ResMut<Overlays>,
) {
    let Some(battle) = battle else { return };
    if pointer.keyboard_taken
        || keys.pressed(KeyCode::ControlLeft)
        || keys.pressed(KeyCode::ControlRight)
    {
        return;
    }
    for o in battle.game.overlays() {
        if crate::controls::key_code(o.key).is_some_and(|k| keys.just_pressed(k))
            && !on.0.remove(o.id)
        {
            on.0.insert(o.id);
        }
    }
}

pub fn rebuild_cache(
    battle: Option<Res<Battle>>,
    selected: Res<Selected>,
    overlays: Res<Overlays>,
    draft: Res<Draft>,
    mut cache: ResMut<OverlayCache>,
) {
    let Some(battle) = battle else {
        cache.key = None;
        cache.lines.clear();
        return;
    };
    // The lesson's step and its hint level: the third hint draws the exact move.
    let step = battle.game.lesson().map_or(usize::MAX, |l| {
        l.progress.step * 4 + l.progress.hints.min(3) as usize
    });
    let key = (
        battle.revision,
        selected.0,
        overlays.clone(),
        draft.version,
        step,
    );
    if cache.key.as_ref() == Some(&key) {
        return;
    }
    cache.key = Some(key);
    cache.lines = if battle.curtain.is_some() {
        Vec::new()
    } else {
        lines(&battle, selected.0, &overlays, &draft)
    };
}

/// The shapes to draw now, as lines in their colours.
pub fn lines(
    battle: &Battle,
    selected: Option<PieceId>,
    overlays: &Overlays,
    draft: &Draft,
) -> Vec<Line> {
    let mut shapes: Vec<Shape> = Vec::new();
    if let Some(p) = &draft.preview {
        shapes.extend(p.shapes.iter().cloned());
    }
    let on: Vec<&str> = overlays.0.iter().copied().collect();
    shapes.extend(battle.game.shapes(battle.viewer, selected, &on));
    // What the lesson step asks the learner to look at, and the unit and target its command
    // names: a wide frame. With the third hint ("the exact move"), the move itself, as the
    // rules preview it.
    if let Some(lesson) = battle.game.lesson()
        && let Some(step) = lesson.step()
    {
        let mut keys: Vec<&String> = step.look_at.iter().collect();
        if let Goal::Command { unit, target, .. } = &step.until {
            keys.extend(unit.iter().chain(target.iter()));
        }
        keys.dedup();
        for key in keys {
            if let Some(piece) = battle.scene.pieces.iter().find(|p| &p.key == key) {
                shapes.extend(
                    piece
                        .bases
                        .iter()
                        .map(|b| Shape::rect(*b, 0.9, Tone::Lesson)),
                );
            }
        }
        if lesson.progress.hints >= 3
            && !lesson.progress.done
            && let Some(cmd) = battle.game.lesson_guide()
        {
            shapes.extend(battle.game.preview(lesson.learner(), &cmd).shapes);
        }
    }
    shapes.iter().map(line).collect()
}

/// The colour a shape's meaning is drawn in.
pub fn colour(tone: Tone) -> Color {
    match tone {
        Tone::Ghost => Color::srgb(0.55, 1.0, 0.55),
        Tone::Path => Color::srgba(0.55, 1.0, 0.55, 0.7),
        Tone::Refused => Color::srgb(1.0, 0.2, 0.2),
        Tone::Target => Color::srgb(1.0, 0.3, 0.2),
        Tone::Choice => Color::srgb(1.0, 0.55, 0.1),
        Tone::CostlyChoice => Color::srgba(1.0, 0.75, 0.4, 0.5),
        Tone::Sight => Color::srgba(0.4, 0.9, 1.0, 0.8),
        Tone::ReachNear => Color::srgb(1.0, 0.85, 0.2),
        Tone::ReachFar => Color::srgba(1.0, 0.85, 0.2, 0.5),
        Tone::ReachClose => Color::srgb(1.0, 0.45, 0.1),
        Tone::Side(s) => palette::side(s as usize).with_alpha(0.8),
        Tone::Keep => Color::srgba(1.0, 0.3, 0.3, 0.6),
        Tone::Lesson => Color::srgb(0.2, 0.9, 1.0),
    }
}

fn line(s: &Shape) -> Line {
    let colour = colour(s.tone);
    let closed = |points: Vec<G>| Line {
        points: points.into_iter().map(from_geo).collect(),
        closed: true,
        colour,
    };
    match &s.outline {
        Outline::Polygon(pts) => closed(pts.clone()),
        Outline::Line(pts) => Line {
            points: pts.iter().copied().map(from_geo).collect(),
            closed: false,
            colour,
        },
        Outline::Circle { centre, radius } => closed(circle(*centre, *radius)),
        Outline::Rect { rect, grow } => closed(
            Rect::new(rect.pose, rect.half + G::splat(*grow))
                .corners()
                .to_vec(),
        ),
        Outline::Rounded { rect, radius } => closed(rounded(rect, *radius)),
    }
}

fn circle(centre: G, radius: f32) -> Vec<G> {
    let n = 64;
    (0..n)
        .map(|i| {
            let a = i as f32 / n as f32 * std::f32::consts::TAU;
            centre + G::new(a.cos(), a.sin()) * radius
        })
        .collect()
}

/// A rectangle grown by `d` with rounded corners: the set of points within `d` of it.
fn rounded(r: &Rect, d: f32) -> Vec<G> {
    use std::f32::consts::{FRAC_PI_2, PI};
    let mut pts = Vec::with_capacity(20);
    // Going clockwise round the corners FL, FR, RR, RL, each corner's arc turns a quarter from
    // the outward direction of one edge to the next (local angles: left, up, right, down).
    let starts = [PI, FRAC_PI_2, 0.0, -FRAC_PI_2];
    for (corner, start) in r.corners().iter().zip(starts) {
        for k in 0..=4 {
            let a = r.pose.angle + start - FRAC_PI_2 * k as f32 / 4.0;
            pts.push(*corner + G::new(a.cos(), a.sin()) * d);
        }
    }
    pts
}

pub fn draw(mut gizmos: Gizmos, cache: Res<OverlayCache>) {
    for l in &cache.lines {
        if l.closed {
            if let Some(first) = l.points.first().copied() {
                gizmos.linestrip_2d(
                    l.points.iter().copied().chain(std::iter::once(first)),
                    l.colour,
                );
            }
        } else {
            gizmos.linestrip_2d(l.points.iter().copied(), l.colour);
        }
    }
}
