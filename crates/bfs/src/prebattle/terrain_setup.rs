//! Setting Up the Terrain Together (BFS-SCN-19..-22): the elements a player may place, where,
//! and the candidates offered to players and the computer.

use super::Element;
use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
use sandtable_engine::scenario_geometry::shape_polygons;
use sandtable_geometry::Vec2;
use sandtable_geometry::prim::{point_in_polygon, segment_segment_distance, segments_intersect};
use serde::{Deserialize, Serialize};

/// A terrain element as a player places it: its kind, centre, size (for a linear element, its
/// length and width) and rotation in degrees, clockwise.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TerrainPick {
    pub kind: TerrainKind,
    pub center: (f32, f32),
    pub size: (f32, f32),
    #[serde(default)]
    pub rotation: f32,
}

/// The kinds a player may place, typical first (BFS-SCN-22). Roads come only through effects
/// (BFS-SCN-23), rivers and bridges with the scenarios that need them.
pub const PLACEABLE: [TerrainKind; 12] = [
    TerrainKind::Grove,
    TerrainKind::Hill,
    TerrainKind::WheatField,
    TerrainKind::PloughedField,
    TerrainKind::Obstacle,
    TerrainKind::Building,
    TerrainKind::Forest,
    TerrainKind::SteepHill,
    TerrainKind::Marsh,
    TerrainKind::BuiltUpArea,
    TerrainKind::Stream,
    TerrainKind::Lake,
];

/// An Atypical element: at most one on the table, obligatory terrain aside (BFS-SCN-22, A-21).
pub fn atypical(pick: &TerrainPick) -> bool {
    match pick.kind {
        TerrainKind::Forest
        | TerrainKind::SteepHill
        | TerrainKind::Marsh
        | TerrainKind::BuiltUpArea
        | TerrainKind::Stream
        | TerrainKind::River
        | TerrainKind::Lake => true,
        TerrainKind::Building => pick.size.0 > 15.0 || pick.size.1 > 15.0,
        _ => false,
    }
}

/// Elements laid along a line: obstacles, streams.
fn linear(kind: TerrainKind) -> bool {
    matches!(
        kind,
        TerrainKind::Obstacle | TerrainKind::Stream | TerrainKind::River
    )
}

fn is_obstacle(kind: TerrainKind) -> bool {
    matches!(kind, TerrainKind::Obstacle | TerrainKind::Fortification)
}

impl TerrainPick {
    /// The element as scenario terrain.
    pub fn spec(&self) -> TerrainSpec {
        let shape = if linear(self.kind) {
            let (s, c) = self.rotation.to_radians().sin_cos();
            let h = self.size.0 * 0.5;
            // Bearing-style rotation: 0 runs east-west, turning clockwise.
            let d = (c * h, -s * h);
            ShapeSpec::Strip {
                points: vec![
                    (self.center.0 - d.0, self.center.1 - d.1),
                    (self.center.0 + d.0, self.center.1 + d.1),
                ],
                width: self.size.1,
            }
        } else {
            ShapeSpec::Rect {
                center: self.center,
                size: self.size,
                rotation: self.rotation,
            }
        };
        TerrainSpec {
            kind: self.kind,
            name: Some(kind_name(self.kind).to_string()),
            shape,
        }
    }

    pub fn describe(&self) -> String {
        if linear(self.kind) {
            format!(
                "{} {:.0} cm long at ({:.0}, {:.0})",
                article(kind_name(self.kind)),
                self.size.0,
                self.center.0,
                self.center.1
            )
        } else {
            format!(
                "{} of {:.0}×{:.0} cm at ({:.0}, {:.0})",
                article(kind_name(self.kind)),
                self.size.0,
                self.size.1,
                self.center.0,
                self.center.1
            )
        }
    }
}

fn article(name: &str) -> String {
    let lower = name.to_lowercase();
    let a = if lower.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{a} {lower}")
}

pub fn kind_name(kind: TerrainKind) -> &'static str {
    match kind {
        TerrainKind::Forest => "Forest",
        TerrainKind::Grove => "Grove",
        TerrainKind::Hill => "Hill",
        TerrainKind::SteepHill => "Steep hill",
        TerrainKind::WheatField => "Wheat field",
        TerrainKind::PloughedField => "Ploughed field",
        TerrainKind::Stream => "Stream",
        TerrainKind::River => "River",
        TerrainKind::Ford => "Ford",
        TerrainKind::Bridge => "Bridge",
        TerrainKind::Lake => "Lake",
        TerrainKind::Marsh => "Bog",
        TerrainKind::Road => "Road",
        TerrainKind::Obstacle => "Fence",
        TerrainKind::BuiltUpArea => "Built-up area",
        TerrainKind::Building => "Building",
        TerrainKind::Fortification => "Field fortification",
        TerrainKind::Kobylica => "Kobylica",
        TerrainKind::Caltrops => "Caltrops",
        TerrainKind::ChevauxDeFrise => "Chevaux de frise",
    }
}

/// Smallest distance between two shapes, 0 where they touch or overlap.
pub fn shape_distance(a: &ShapeSpec, b: &ShapeSpec) -> f32 {
    let pa = shape_polygons(a);
    let pb = shape_polygons(b);
    let mut best = f32::INFINITY;
    for p in &pa {
        for q in &pb {
            best = best.min(polygon_distance(p, q));
            if best <= 0.0 {
                return 0.0;
            }
        }
    }
    best
}

fn polygon_distance(p: &[Vec2], q: &[Vec2]) -> f32 {
    if p.iter().any(|v| point_in_polygon(*v, q)) || q.iter().any(|v| point_in_polygon(*v, p)) {
        return 0.0;
    }
    let edges = |poly: &[Vec2]| -> Vec<(Vec2, Vec2)> {
        (0..poly.len())
            .map(|i| (poly[i], poly[(i + 1) % poly.len()]))
            .collect()
    };
    let mut best = f32::INFINITY;
    for (a0, a1) in edges(p) {
        for (b0, b1) in edges(q) {
            if segments_intersect(a0, a1, b0, b1) {
                return 0.0;
            }
            best = best.min(segment_segment_distance(a0, a1, b0, b1));
        }
    }
    best
}

/// Why a player may not place this element, or `None` if he may (BFS-SCN-20, -21, -22).
pub fn refusal(pick: &TerrainPick, elements: &[Element], table: (f32, f32)) -> Option<String> {
    if !PLACEABLE.contains(&pick.kind) {
        return Some(format!(
            "{} is not placed when setting up the terrain (BFS-SCN-22, -23).",
            kind_name(pick.kind)
        ));
    }
    let (w, h) = pick.size;
    if !(w.is_finite()
        && h.is_finite()
        && pick.center.0.is_finite()
        && pick.center.1.is_finite()
        && pick.rotation.is_finite())
    {
        return Some("The element's numbers must be finite.".into());
    }
    if linear(pick.kind) {
        if !(5.0..=30.0).contains(&w) || !(0.5..=6.0).contains(&h) {
            return Some(format!(
                "A {} is 5 to 30 cm long and up to 6 cm wide (BFS-SCN-21).",
                kind_name(pick.kind).to_lowercase()
            ));
        }
    } else if !(5.0..=30.0).contains(&w) || !(5.0..=30.0).contains(&h) {
        return Some("An element is 5×5 to 30×30 cm (BFS-SCN-21).".into());
    }
    if pick.kind == TerrainKind::Building && (w > 15.0 || h > 15.0) {
        return Some(
            "A building larger than 15 cm is placed only by mutual agreement (BFS-SCN-22).".into(),
        );
    }
    let spec = pick.spec();
    let off = shape_polygons(&spec.shape)
        .iter()
        .flatten()
        .any(|v| v.x < -1e-3 || v.y < -1e-3 || v.x > table.0 + 1e-3 || v.y > table.1 + 1e-3);
    if off {
        return Some("The element must lie wholly on the table.".into());
    }
    if atypical(pick)
        && elements
            .iter()
            .any(|e| !e.fixed && e.pick.as_ref().is_some_and(atypical))
    {
        return Some(format!(
            "Only one Atypical element may be on the table, and there is one already; a {} is Atypical (BFS-SCN-22).",
            kind_name(pick.kind).to_lowercase()
        ));
    }
    for e in elements {
        let d = shape_distance(&spec.shape, &e.spec.shape);
        let name = e
            .spec
            .name
            .clone()
            .unwrap_or_else(|| kind_name(e.spec.kind).into());
        if d <= 0.0 {
            return Some(format!(
                "It would touch or lie on the {} (BFS-SCN-20).",
                name.to_lowercase()
            ));
        }
        if !(is_obstacle(pick.kind) || is_obstacle(e.spec.kind)) && d < 10.0 {
            return Some(format!(
                "It would be {d:.1} cm from the {}; elements stand at least 10 cm apart (BFS-SCN-20).",
                name.to_lowercase()
            ));
        }
    }
    None
}

/// Where the Weaker's field fortifications stand: a line of 10 cm elements 2 cm in front of the
/// defender's deployment area, spread across the table's middle, clear of obligatory terrain.
pub fn fortification_line(
    elements: u32,
    table: (f32, f32),
    defender_depth: f32,
    existing: &[Element],
) -> Vec<TerrainSpec> {
    let mut out: Vec<TerrainSpec> = Vec::new();
    if elements == 0 {
        return out;
    }
    let y = defender_depth + 2.0;
    let pitch = 12.0;
    // Candidate centres outward from the middle: 0, +1, −1, +2, −2…
    let mut slots = Vec::new();
    for k in 0..((table.0 / pitch) as i32) {
        let off = if k % 2 == 0 { k / 2 } else { -(k / 2 + 1) };
        slots.push(table.0 * 0.5 + off as f32 * pitch);
    }
    for x in slots {
        if out.len() as u32 >= elements {
            break;
        }
        if x - 5.0 < 0.0 || x + 5.0 > table.0 {
            continue;
        }
        let spec = TerrainSpec {
            kind: TerrainKind::Fortification,
            name: Some(format!("Field fortification {}", out.len() + 1)),
            shape: ShapeSpec::Strip {
                points: vec![(x - 5.0, y), (x + 5.0, y)],
                width: 1.0,
            },
        };
        if existing
            .iter()
            .any(|e| shape_distance(&spec.shape, &e.spec.shape) <= 0.5)
        {
            continue;
        }
        out.push(spec);
    }
    out
}

/// A default size for each kind offered in the menus.
fn default_size(kind: TerrainKind) -> (f32, f32) {
    match kind {
        TerrainKind::Grove => (15.0, 15.0),
        TerrainKind::Hill => (25.0, 20.0),
        TerrainKind::WheatField | TerrainKind::PloughedField => (20.0, 15.0),
        TerrainKind::Obstacle => (20.0, 1.0),
        TerrainKind::Building => (10.0, 8.0),
        TerrainKind::Forest => (25.0, 20.0),
        TerrainKind::SteepHill => (20.0, 15.0),
        TerrainKind::Marsh => (20.0, 15.0),
        TerrainKind::BuiltUpArea => (20.0, 15.0),
        TerrainKind::Stream => (30.0, 3.0),
        _ => (20.0, 15.0),
    }
}

/// The elements offered in the menu: each placeable kind at its default size on a 20 cm grid,
/// those the rules allow.
pub fn candidates(elements: &[Element], table: (f32, f32)) -> Vec<TerrainPick> {
    let mut out = Vec::new();
    let step = 20.0;
    for kind in PLACEABLE {
        let size = default_size(kind);
        let mut y = step;
        while y < table.1 - 1.0 {
            let mut x = step;
            while x < table.0 - 1.0 {
                let pick = TerrainPick {
                    kind,
                    center: (x, y),
                    size,
                    rotation: 0.0,
                };
                if refusal(&pick, elements, table).is_none() {
                    out.push(pick);
                }
                x += step;
            }
            y += step;
        }
    }
    out
}

/// How much a computer player likes an element: cover and hills over open ground, impassable
/// ground least, and spread over the table (edges are not yet known, BFS-SCN-20).
pub fn computer_score(pick: &TerrainPick, elements: &[Element]) -> i32 {
    let kind = match pick.kind {
        TerrainKind::Hill => 40,
        TerrainKind::Grove => 35,
        TerrainKind::Building => 25,
        TerrainKind::Forest => 20,
        TerrainKind::WheatField | TerrainKind::PloughedField => 15,
        TerrainKind::Obstacle => 10,
        _ => 0,
    };
    // Variety: each element of the same kind already down makes another less welcome.
    let same = elements.iter().filter(|e| e.spec.kind == pick.kind).count() as i32;
    let spec = pick.spec();
    let spread = elements
        .iter()
        .map(|e| shape_distance(&spec.shape, &e.spec.shape))
        .fold(60.0f32, f32::min);
    kind - 15 * same + spread.min(40.0) as i32
}
