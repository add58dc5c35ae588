//! Seeded scene generator shared by the benches: two sides deployed facing each other across a
//! table, 3-base units in line or column, terrain pieces of varied shapes.

#![allow(dead_code)]

use sandtable_geometry::{Polygon, Pose, Rect, Scene, SceneBase, SightBlock, TerrainPiece, Vec2};

/// splitmix64: tiny, deterministic, good enough for scene layouts.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        let u = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    }
    pub fn chance(&mut self, p: f32) -> bool {
        self.range(0.0, 1.0) < p
    }
}

/// One generated unit.
#[derive(Clone, Debug)]
pub struct GenUnit {
    pub id: u32,
    pub side: u8,
    pub frame: Rect,
    pub bases: Vec<Rect>,
    pub all_round: bool,
}

pub struct GenScene {
    pub table: Vec2,
    pub units: Vec<GenUnit>,
    pub terrain: Vec<TerrainPiece>,
}

impl GenScene {
    pub fn scene(&self) -> Scene {
        let bases = self
            .units
            .iter()
            .flat_map(|u| {
                u.bases.iter().map(move |r| SceneBase {
                    rect: *r,
                    unit: u.id,
                    side: u.side,
                })
            })
            .collect();
        Scene::new(bases, self.terrain.clone()).expect("generated scene is valid")
    }
}

fn unit_at(
    id: u32,
    side: u8,
    pos: Vec2,
    angle: f32,
    cavalry: bool,
    column: bool,
    all_round: bool,
) -> GenUnit {
    let size = Vec2::new(4.0, if cavalry { 3.0 } else { 2.0 });
    let files = if column { 1 } else { 3 };
    let ranks = if column { 3 } else { 1 };
    let frame = Rect::new(
        Pose::new(pos, angle),
        Vec2::new(files as f32 * size.x, ranks as f32 * size.y) * 0.5,
    );
    let fl = frame.front_left();
    let anchor = Pose::new(fl, angle);
    let bases = (0..3)
        .map(|k| {
            let (i, j) = if column { (k, 0) } else { (0, k) };
            let c = anchor.to_world(Vec2::new(
                j as f32 * size.x + size.x * 0.5,
                -(i as f32 * size.y + size.y * 0.5),
            ));
            Rect::new(Pose::new(c, angle), size * 0.5)
        })
        .collect();
    GenUnit {
        id,
        side,
        frame,
        bases,
        all_round,
    }
}

fn terrain_piece(rng: &mut Rng, id: u32, c: Vec2) -> TerrainPiece {
    let s = rng.range(6.0, 14.0);
    let kind = rng.next_u64() % 3;
    let a = rng.range(0.0, core::f32::consts::TAU);
    let rot = Vec2::from_angle(a);
    let pts: Vec<Vec2> = match kind {
        // Rectangle
        0 => vec![
            Vec2::new(-s, -0.6 * s),
            Vec2::new(s, -0.6 * s),
            Vec2::new(s, 0.6 * s),
            Vec2::new(-s, 0.6 * s),
        ],
        // Irregular convex-ish hexagon (a wood)
        1 => (0..6)
            .map(|k| {
                let t = k as f32 / 6.0 * core::f32::consts::TAU;
                Vec2::from_angle(t) * s * (0.8 + 0.2 * ((k * 7 % 5) as f32 / 5.0))
            })
            .collect(),
        // L-shaped (concave) village
        _ => vec![
            Vec2::new(-s, -s),
            Vec2::new(s, -s),
            Vec2::new(s, -0.2 * s),
            Vec2::new(-0.2 * s, -0.2 * s),
            Vec2::new(-0.2 * s, s),
            Vec2::new(-s, s),
        ],
    };
    let poly =
        Polygon::new(pts.into_iter().map(|p| c + rot.rotate(p)).collect()).expect("valid terrain");
    let sight = match rng.next_u64() % 3 {
        0 => SightBlock::Blocks,
        1 => SightBlock::BlocksBeyond(5.0),
        _ => SightBlock::Clear,
    };
    TerrainPiece::new(id, poly)
        .with_sight(sight)
        .with_impassable(rng.chance(0.3))
}

fn overlaps_any(frame: &Rect, placed: &[Rect], margin: f32) -> bool {
    let (lo, hi) = frame.aabb();
    placed.iter().any(|p| {
        let (l, h) = p.aabb();
        !(hi.x + margin < l.x || h.x + margin < lo.x || hi.y + margin < l.y || h.y + margin < lo.y)
    })
}

/// `scale` = 1 is Task Force (2 sides × 20 units × 3 bases, 10 terrain pieces on 180 × 120 cm);
/// `scale` = k multiplies units and terrain by k on a table √k times larger each way.
pub fn generate(scale: usize, seed: u64) -> GenScene {
    let k = (scale as f32).sqrt();
    generate_with(
        Vec2::new(180.0 * k, 120.0 * k),
        20 * scale,
        10 * scale,
        seed,
    )
}

/// The book's Division level as the shipped Division battle has it: 27 units a side and 8
/// terrain pieces on 240 × 150 cm.
pub fn division(seed: u64) -> GenScene {
    generate_with(Vec2::new(240.0, 150.0), 27, 8, seed)
}

/// `units_per_side` units a side and `pieces` terrain pieces on a `table`; deployment bands as
/// deep as the Task Force's scaled by the table's size.
fn generate_with(table: Vec2, units_per_side: usize, pieces: usize, seed: u64) -> GenScene {
    let mut rng = Rng::new(seed);
    let k = (table.x * table.y / (180.0 * 120.0)).sqrt();
    let mut terrain = Vec::new();
    let mut placed: Vec<Rect> = Vec::new();
    for t in 0..pieces {
        let c = Vec2::new(
            rng.range(15.0, table.x - 15.0),
            rng.range(15.0, table.y - 15.0),
        );
        let p = terrain_piece(&mut rng, t as u32, c);
        let (lo, hi) = p.polygon.aabb();
        placed.push(Rect::new(Pose::new((lo + hi) * 0.5, 0.0), (hi - lo) * 0.5));
        terrain.push(p);
    }
    let mut units = Vec::new();
    let mut id = 0u32;
    for side in 0..2u8 {
        // Deployment bands 43·√scale cm deep, with a fixed 14 cm no-man's-land between them so
        // that charges within a 20 cm Basic Move exist at every scale.
        let (gap, depth) = (14.0, 43.0 * k);
        let mid = table.y * 0.5;
        let (y0, y1, facing) = if side == 0 {
            (mid - gap * 0.5 - depth, mid - gap * 0.5, 0.0f32)
        } else {
            (
                mid + gap * 0.5,
                mid + gap * 0.5 + depth,
                core::f32::consts::PI,
            )
        };
        let mut made = 0;
        let mut tries = 0;
        while made < units_per_side && tries < 200_000 {
            tries += 1;
            let pos = Vec2::new(rng.range(10.0, table.x - 10.0), rng.range(y0, y1));
            let angle = facing + rng.range(-0.5, 0.5);
            let cavalry = rng.chance(0.4);
            let column = rng.chance(0.2);
            let u = unit_at(id, side, pos, angle, cavalry, column, rng.chance(0.1));
            if overlaps_any(&u.frame, &placed, 1.5) {
                continue;
            }
            placed.push(u.frame);
            units.push(u);
            id += 1;
            made += 1;
        }
    }
    GenScene {
        table,
        units,
        terrain,
    }
}
