//! What the terrain does to units (G17): the cost of a path, roads, cover, higher ground and the
//! line of sight. Paths are cut where they cross a terrain edge; terrain rules come from the tables
//! file.

use crate::state::{Game, UnitId};
use crate::tables::{ArmKind, Cover, tables};
use crate::vocab::Arm;
use sandtable_engine::RuleError;
use sandtable_engine::scenario::TerrainKind;
use sandtable_geometry::prim::{point_in_polygon, segment_crossing_param, segments_intersect};
use sandtable_geometry::{Rect, Vec2};

pub fn arm_kind(arm: Arm) -> ArmKind {
    match arm {
        Arm::Infantry => ArmKind::Infantry,
        Arm::Cavalry(_) => ArmKind::Cavalry,
        Arm::Artillery { .. } => ArmKind::Artillery,
    }
}

/// The terrain kinds at a point.
pub fn kinds_at(game: &Game, p: Vec2) -> impl Iterator<Item = TerrainKind> + '_ {
    game.ground
        .iter()
        .filter(move |g| g.polygons.iter().any(|poly| point_in_polygon(p, poly)))
        .map(|g| g.kind)
}

/// The stretches of a path between the places it crosses a terrain edge: `(from, to)` as
/// shares of the path, each lying wholly inside or outside every piece. Exact: the crossings are
/// computed, not sampled.
fn stretches(game: &Game, from: Vec2, to: Vec2) -> Vec<(f32, f32)> {
    let mut cuts = vec![0.0, 1.0];
    for g in &game.ground {
        for poly in &g.polygons {
            for j in 0..poly.len() {
                if let Some(t) =
                    segment_crossing_param(from, to, poly[j], poly[(j + 1) % poly.len()])
                {
                    cuts.push(t);
                }
            }
        }
    }
    cuts.sort_by(f32::total_cmp);
    cuts.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    cuts.windows(2).map(|w| (w[0], w[1])).collect()
}

/// Is the whole path on a road (NQ-MOV-1: the road rate only along a road)?
pub fn on_road(game: &Game, from: Vec2, to: Vec2) -> bool {
    let on = |p: Vec2| kinds_at(game, p).any(|k| k == TerrainKind::Road);
    on(from)
        && on(to)
        && stretches(game, from, to)
            .iter()
            .all(|(a, b)| on(from.lerp(to, (a + b) * 0.5)))
}

/// The open-ground distance a path costs, cm: each stretch divided by the slowest terrain's speed
/// on it (G17). Refused if the path enters ground barred to the arm, or impassable (a bridge,
/// ford or road crosses water).
pub fn path_cost(game: &Game, arm: Arm, from: Vec2, to: Vec2) -> Result<f32, RuleError> {
    let len = (to - from).length();
    let who = arm_kind(arm);
    let mut cost = 0.0;
    for (a, b) in stretches(game, from, to) {
        let p = from.lerp(to, (a + b) * 0.5);
        let kinds: Vec<TerrainKind> = kinds_at(game, p).collect();
        let crossing = kinds.iter().any(|k| {
            matches!(
                k,
                TerrainKind::Bridge | TerrainKind::Ford | TerrainKind::Road
            )
        });
        let mut speed: f32 = 1.0;
        for k in &kinds {
            let Some(rule) = tables().terrain(*k) else {
                continue;
            };
            let water = matches!(
                k,
                TerrainKind::River | TerrainKind::Lake | TerrainKind::Stream
            );
            if water && crossing {
                continue;
            }
            if rule.barred.contains(&who) {
                return Err(RuleError::new(
                    "G17",
                    format!("{:?} cannot enter {}", who, terrain_name(*k)),
                ));
            }
            speed = speed.min(rule.speed);
        }
        cost += (b - a) * len / speed.max(1e-3);
    }
    Ok(cost)
}

pub fn terrain_name(k: TerrainKind) -> &'static str {
    match k {
        TerrainKind::Forest => "heavy woods",
        TerrainKind::Grove => "light woods",
        TerrainKind::BuiltUpArea | TerrainKind::Building => "buildings",
        TerrainKind::Obstacle => "hedges",
        TerrainKind::Fortification => "walls",
        TerrainKind::Kobylica | TerrainKind::ChevauxDeFrise => "stakes",
        TerrainKind::Caltrops => "caltrops",
        TerrainKind::Stream => "the stream",
        TerrainKind::River => "the river",
        TerrainKind::Lake => "the lake",
        TerrainKind::Marsh => "the marsh",
        TerrainKind::SteepHill => "steep slopes",
        TerrainKind::Hill => "the hill",
        TerrainKind::Road => "the road",
        TerrainKind::Ford => "the ford",
        TerrainKind::Bridge => "the bridge",
        TerrainKind::WheatField => "the fields",
        TerrainKind::PloughedField => "ploughed fields",
    }
}

fn rect_touches(r: &Rect, poly: &[Vec2]) -> bool {
    let c = r.corners();
    if c.iter().any(|p| point_in_polygon(*p, poly)) || point_in_polygon(r.center(), poly) {
        return true;
    }
    if poly.iter().any(|p| r.contains(*p, 0.0)) {
        return true;
    }
    (0..4).any(|i| {
        let (a, b) = (c[i], c[(i + 1) % 4]);
        (0..poly.len()).any(|j| segments_intersect(a, b, poly[j], poly[(j + 1) % poly.len()]))
    })
}

/// The cover a unit stands in or behind (NQ-FIRE-3, NQ-ART-6, NQ-MOR-2): woods and buildings
/// when its centre is in them, hedges and walls when its footprint touches them. The best cover
/// counts.
pub fn cover(game: &Game, r: &Rect) -> Option<Cover> {
    let rank = |c: Cover| match c {
        Cover::Buildings => 5,
        Cover::HeavyWoods | Cover::Walls => 4,
        Cover::Hedges => 3,
        Cover::LightWoods => 2,
    };
    let mut best: Option<Cover> = None;
    for g in &game.ground {
        let Some(c) = tables().terrain(g.kind).and_then(|t| t.cover) else {
            continue;
        };
        let inside = match c {
            Cover::Hedges | Cover::Walls => g.polygons.iter().any(|p| rect_touches(r, p)),
            _ => g.polygons.iter().any(|p| point_in_polygon(r.center(), p)),
        };
        if inside && best.is_none_or(|b| rank(c) > rank(b)) {
            best = Some(c);
        }
    }
    best
}

/// On higher ground (NQ-CA-3, NQ-MOR-2 house): the centre stands on a hill.
pub fn high_ground(game: &Game, p: Vec2) -> bool {
    kinds_at(game, p).any(|k| tables().terrain(k).is_some_and(|t| t.high))
}

fn segment_crosses(a: Vec2, b: Vec2, poly: &[Vec2]) -> bool {
    point_in_polygon(a, poly)
        || point_in_polygon(b, poly)
        || (0..poly.len()).any(|j| segments_intersect(a, b, poly[j], poly[(j + 1) % poly.len()]))
}

fn segment_meets_rect(a: Vec2, b: Vec2, r: &Rect) -> bool {
    if r.contains(a, 0.0) || r.contains(b, 0.0) {
        return true;
    }
    let c = r.corners();
    (0..4).any(|i| segments_intersect(a, b, c[i], c[(i + 1) % 4]))
}

/// Is the line from `a` to `b` blocked (G17)? By terrain that blocks sight, unless one end stands
/// in that piece (troops in a wood see out of it); by any unit but those in `except`.
pub fn sight_blocked(game: &Game, a: Vec2, b: Vec2, except: &[UnitId]) -> Option<String> {
    for g in &game.ground {
        if !tables().terrain(g.kind).is_some_and(|t| t.blocks_sight) {
            continue;
        }
        for poly in &g.polygons {
            if point_in_polygon(a, poly) || point_in_polygon(b, poly) {
                continue;
            }
            if segment_crosses(a, b, poly) {
                return Some(
                    g.name
                        .clone()
                        .unwrap_or_else(|| terrain_name(g.kind).into()),
                );
            }
        }
    }
    game.units
        .iter()
        .filter(|u| u.present() && !except.contains(&u.id))
        .find(|u| segment_meets_rect(a, b, &u.rect()))
        .map(|u| u.name.clone())
}

/// Does the segment meet the footprint (solid shot's bounce, NQ-ART-3)?
pub fn segment_hits(a: Vec2, b: Vec2, r: &Rect) -> bool {
    segment_meets_rect(a, b, r)
}
