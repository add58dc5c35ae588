//! What the table shows on top of the bases, computed once per change (battle revision, selection,
//! toggles, draft) and drawn every frame from the cache: the move ghost, legal charge targets, and
//! the overlays on their keys — field of vision (V), field of fire with range bands (G), command
//! ranges (N) and the 2 cm zones around the enemy (Z).

use super::draft::Draft;
use super::input::{Pointer, Selected};
use super::pick::Thing;
use super::view::from_geo;
use crate::battle::Battle;
use bevy::prelude::*;
use sandtable_bfs::preview::Preview;
use sandtable_bfs::state::{Game, OrderKind, UnitStatus};
use sandtable_bfs::{authority, charge, geo, sight};
use sandtable_geometry::{Rect, Vec2 as G};

/// Which overlays are on.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Overlays {
    pub vision: bool,
    pub fire: bool,
    pub command: bool,
    pub zones: bool,
}

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
    key: Option<(u64, Option<Thing>, Overlays, u64)>,
    pub lines: Vec<Line>,
}

pub fn toggle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<Pointer>,
    mut o: ResMut<Overlays>,
) {
    if pointer.keyboard_taken
        || keys.pressed(KeyCode::ControlLeft)
        || keys.pressed(KeyCode::ControlRight)
    {
        return;
    }
    if keys.just_pressed(KeyCode::KeyV) {
        o.vision = !o.vision;
    }
    if keys.just_pressed(KeyCode::KeyG) {
        o.fire = !o.fire;
    }
    if keys.just_pressed(KeyCode::KeyN) {
        o.command = !o.command;
    }
    if keys.just_pressed(KeyCode::KeyZ) {
        o.zones = !o.zones;
    }
}

/// A cheap fingerprint of the draft so the cache notices new steps.
fn draft_key(d: &Draft) -> u64 {
    let mut h = d.steps.len() as u64 * 31
        + d.charge_target.map_or(0, |t| t.0 as u64 + 1) * 7
        + d.dragging.is_some() as u64;
    for s in d.steps.iter().chain(d.dragging.iter()) {
        h = h.wrapping_mul(1_000_003).wrapping_add(
            format!("{s:?}").len() as u64 ^ (format!("{s:?}").bytes().map(u64::from).sum::<u64>()),
        );
    }
    h
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
    let key = (battle.revision, selected.0, *overlays, draft_key(&draft));
    if cache.key == Some(key) {
        return;
    }
    cache.key = Some(key);
    cache.lines = if battle.curtain.is_some() {
        Vec::new()
    } else {
        lines(&battle, selected.0, *overlays, &draft)
    };
}

fn outline(r: &Rect, grow: f32, colour: Color) -> Line {
    let g = Rect::new(r.pose, r.half + G::splat(grow));
    Line {
        points: g.corners().iter().map(|p| from_geo(*p)).collect(),
        closed: true,
        colour,
    }
}

/// A rectangle grown by `d` with rounded corners: the set of points within `d` of the base.
fn rounded(r: &Rect, d: f32, colour: Color) -> Line {
    use std::f32::consts::{FRAC_PI_2, PI};
    let mut pts = Vec::with_capacity(20);
    // Going clockwise round the corners FL, FR, RR, RL, each corner's arc turns a quarter from
    // the outward direction of one edge to the next (local angles: left, up, right, down).
    let starts = [PI, FRAC_PI_2, 0.0, -FRAC_PI_2];
    for (corner, start) in r.corners().iter().zip(starts) {
        for k in 0..=4 {
            let a = r.pose.angle + start - FRAC_PI_2 * k as f32 / 4.0;
            pts.push(from_geo(*corner + G::new(a.cos(), a.sin()) * d));
        }
    }
    Line {
        points: pts,
        closed: true,
        colour,
    }
}

fn circle(centre: G, radius: f32, colour: Color) -> Line {
    let n = 64;
    Line {
        points: (0..n)
            .map(|i| {
                let a = i as f32 / n as f32 * std::f32::consts::TAU;
                from_geo(centre + G::new(a.cos(), a.sin()) * radius)
            })
            .collect(),
        closed: true,
        colour,
    }
}

pub fn lines(
    battle: &Battle,
    selected: Option<Thing>,
    overlays: Overlays,
    draft: &Draft,
) -> Vec<Line> {
    let game = &battle.game;
    let mut out = Vec::new();
    // The planned move's ghost, or its refusal.
    match &draft.preview {
        Some(Ok(Preview::Move(plan))) => {
            for b in &plan.bases {
                out.push(outline(b, 0.0, Color::srgb(0.55, 1.0, 0.55)));
            }
            let centres: Vec<Vec2> = plan.path.iter().map(|f| from_geo(f.center())).collect();
            if centres.len() > 1 {
                out.push(Line {
                    points: centres,
                    closed: false,
                    colour: Color::srgba(0.55, 1.0, 0.55, 0.7),
                });
            }
        }
        Some(Ok(Preview::Charge(c))) => {
            for b in &c.bases_after {
                out.push(outline(b, 0.0, Color::srgb(1.0, 0.6, 0.2)));
            }
            for b in &game.unit(c.target).bases {
                out.push(outline(b, 0.6, Color::srgb(1.0, 0.3, 0.2)));
            }
        }
        Some(Err(_)) => {
            if let Some(u) = draft.unit {
                for b in &game.unit(u).bases {
                    out.push(outline(b, 0.5, Color::srgb(1.0, 0.2, 0.2)));
                }
            }
        }
        _ => {}
    }
    let Some(Thing::Unit(unit)) = selected else {
        if overlays.command {
            command_ranges(game, &mut out);
        }
        if overlays.zones {
            zones(battle, &mut out);
        }
        return out;
    };
    let state = battle.session.state();
    let scene = geo::scene(state);
    // Legal charge targets of a charging unit about to move: orange may be charged now, dim ones
    // only if a commander pays 1 CP (BFS-CHG-3/4).
    if super::draft::movable(battle, unit) && game.unit(unit).order == Some(OrderKind::Charge) {
        let opts = charge::target_options(state, &scene, unit);
        for (t, _) in &opts.visible {
            let free = opts.free.contains(t);
            let colour = if free {
                Color::srgb(1.0, 0.55, 0.1)
            } else {
                Color::srgba(1.0, 0.75, 0.4, 0.5)
            };
            for b in &game.unit(*t).bases {
                out.push(outline(b, 0.8, colour));
            }
        }
    }
    if overlays.vision && game.unit(unit).status == UnitStatus::OnTable {
        let frame = geo::unit_frame(game.unit(unit));
        if sight::arc_of(state, unit) == sandtable_geometry::vision::VisionArc::Front180 {
            let a = frame.front_left() - frame.pose.right() * 80.0;
            let b = frame.front_right() + frame.pose.right() * 80.0;
            out.push(Line {
                points: vec![from_geo(a), from_geo(b)],
                closed: false,
                colour: Color::srgba(0.4, 0.9, 1.0, 0.8),
            });
        } else {
            out.push(circle(
                frame.center(),
                60.0,
                Color::srgba(0.4, 0.9, 1.0, 0.4),
            ));
        }
        for e in sight::visible_enemies(state, &scene, unit) {
            for b in &game.unit(e).bases {
                out.push(outline(b, 0.4, Color::srgb(0.4, 0.9, 1.0)));
            }
        }
    }
    if overlays.fire
        && let Some(w) = game.unit_profile(unit).ranged
    {
        let p = game.unit_profile(unit);
        let s = w.stats(p.is_mounted());
        let frame = geo::unit_frame(game.unit(unit));
        let (f, r) = (frame.facing(), frame.pose.right());
        for (band, colour) in [
            (Some(s.effective_cm), Color::srgb(1.0, 0.85, 0.2)),
            (s.long_cm, Color::srgba(1.0, 0.85, 0.2, 0.5)),
        ] {
            let Some(d) = band else { continue };
            // The 90° front zone (BFS-SHO-3) out to the band: its 45° side rays and the front
            // edge pushed out by the band's range.
            let fl = frame.front_left();
            let fr = frame.front_right();
            let pts = vec![
                fl,
                fl + (f - r).normalize() * d,
                fl + f * d,
                fr + f * d,
                fr + (f + r).normalize() * d,
                fr,
            ];
            out.push(Line {
                points: pts.into_iter().map(from_geo).collect(),
                closed: false,
                colour,
            });
        }
    }
    if overlays.command {
        command_ranges(game, &mut out);
    }
    if overlays.zones {
        zones(battle, &mut out);
    }
    out
}

fn command_ranges(game: &Game, out: &mut Vec<Line>) {
    for c in game
        .commanders
        .iter()
        .filter(|c| c.status == UnitStatus::OnTable)
    {
        let range = authority::command_range_cm(game, c.id);
        out.push(circle(
            c.base.center(),
            range + c.base.half.x.max(c.base.half.y),
            crate::palette::side(c.side.index()).with_alpha(0.8),
        ));
    }
}

fn zones(battle: &Battle, out: &mut Vec<Line>) {
    let game = &battle.game;
    for u in game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable && u.side != battle.viewer)
    {
        for b in &u.bases {
            out.push(rounded(b, 2.0, Color::srgba(1.0, 0.3, 0.3, 0.6)));
        }
    }
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
