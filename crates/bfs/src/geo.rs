//! The bridge from the game to the geometry crate: the scene of bases and terrain, unit frames,
//! and what each kind of terrain means for sight and movement (BFS-TER-1, BFS-TER-9, BFS-TER-15).

use crate::ids::UnitId;
use crate::profile::{UnitKind, UnitProfile};
use crate::state::{Game, Unit, UnitStatus};
use crate::weapons::MeleeWeapon;
use sandtable_engine::scenario::TerrainKind;
use sandtable_geometry::terrain::{SightBlock, TerrainPiece};
use sandtable_geometry::{Polygon, Pose, PreparedTerrain, Rect, Scene, SceneBase, Vec2};
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// How terrain slows a unit (BFS-TER-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TerrainClass {
    Open,
    /// Full Move, no March.
    Normal,
    /// Move halved (BFS-TER-2).
    Difficult,
    /// Move cut to 5 cm (BFS-TER-3).
    VeryDifficult,
    Impassable,
}

/// How far a unit whose Move is `full` cm may move in one phase once in terrain of this class
/// (BFS-TER-2/3): the cap, the rule and the reason in words; `None` where terrain does not slow.
pub fn slowed_move(class: TerrainClass, full: f32) -> Option<(f32, &'static str, &'static str)> {
    match class {
        TerrainClass::Difficult => Some((full * 0.5, "BFS-TER-2", "difficult terrain: half Move")),
        TerrainClass::VeryDifficult => Some((
            5.0f32.min(full),
            "BFS-TER-3",
            "very difficult terrain: 5 cm",
        )),
        _ => None,
    }
}

/// What crossing 1 cm of terrain of this class costs a unit whose Move is `full` cm, in cm of
/// its move: 1 in the open, 2 in difficult terrain, `full` / 5 in very difficult terrain
/// (BFS-TER-2/3); `None` where it may not go (BFS-TER-4).
pub fn move_cost_per_cm(class: TerrainClass, full: f32) -> Option<f32> {
    match class {
        TerrainClass::Impassable => None,
        _ => Some(slowed_move(class, full).map_or(1.0, |(cap, _, _)| (full / cap).max(1.0))),
    }
}

/// The master terrain table's movement columns (BFS-TER-15) for a unit of this profile.
pub fn terrain_class(kind: TerrainKind, p: &UnitProfile) -> TerrainClass {
    use TerrainClass::*;
    use TerrainKind as K;
    let pikes = p.melee == MeleeWeapon::Pikes;
    let heavy = matches!(p.kind, UnitKind::Artillery | UnitKind::Wagon);
    let cavalry = matches!(p.kind, UnitKind::Cavalry | UnitKind::Dragoons)
        || (p.kind == UnitKind::Commander && p.is_mounted());
    match kind {
        K::Road | K::Bridge => Open,
        K::WheatField | K::PloughedField | K::BuiltUpArea => Normal,
        K::Hill => Difficult, // uphill or across; downhill is Normal (not modelled: no heights yet)
        K::SteepHill => {
            if cavalry || heavy {
                Impassable
            } else {
                VeryDifficult
            }
        }
        K::Stream | K::Ford => {
            if heavy {
                VeryDifficult
            } else {
                Difficult
            }
        }
        K::River | K::Lake | K::Building => Impassable,
        K::Marsh => {
            if heavy {
                Impassable
            } else {
                VeryDifficult
            }
        }
        K::Forest => {
            if heavy {
                Impassable
            } else if cavalry || pikes {
                VeryDifficult
            } else {
                Difficult
            }
        }
        K::Grove => {
            if heavy {
                VeryDifficult
            } else if cavalry || pikes {
                Difficult
            } else {
                Normal
            }
        }
        // Obstacles are crossed by a maneuver (BFS-TER-5, crate::obstacle), never walked through;
        // portable ones too (BFS-OBS-4, BFS-OBS-10), and caltrops for horses only (BFS-OBS-7).
        K::Obstacle | K::Fortification | K::Kobylica | K::ChevauxDeFrise => Impassable,
        K::Caltrops => {
            if cavalry {
                Impassable
            } else {
                Open
            }
        }
    }
}

/// What a terrain piece does to sight (BFS-TER-9, -20, -21, -23, -24, -29): woods let you see
/// 5 cm into or out of them, buildings block, hills hide what is behind them from whoever is not
/// on them (battles before rules revision 2 saw through hills).
pub fn sight_block(kind: TerrainKind, revision: u32) -> SightBlock {
    match kind {
        TerrainKind::Forest | TerrainKind::Grove => SightBlock::BlocksBeyond(5.0),
        TerrainKind::Building => SightBlock::Blocks,
        TerrainKind::Hill | TerrainKind::SteepHill if crate::revision::ground_rules(revision) => {
            SightBlock::Rise
        }
        _ => SightBlock::Clear,
    }
}

/// Scene id of a unit.
pub fn sid(u: UnitId) -> u32 {
    u.0 as u32
}

/// The scene of every unit's bases still on the table and every terrain piece. Commanders are not
/// in it: they block neither sight nor movement (BFS-CDR-5, BFS-CDR-12).
///
/// Building the broad phase costs more than a whole rules check, and a check builds it for a
/// position that usually has not changed since the last one (a player's candidates, a replay):
/// the last scene built on this thread is kept and shared while the bases and terrain are the
/// same. The key covers everything the scene is built from, so a hit is the same scene.
pub fn scene(game: &Game) -> Arc<Scene> {
    let tkey = terrain_key(game);
    let key = scene_key(game, tkey);
    LAST_SCENE.with(|last| {
        if let Some((k, s)) = last.borrow().as_ref()
            && *k == key
        {
            return s.clone();
        }
        let before = last.borrow().as_ref().map(|(_, s)| s.clone());
        let s = Arc::new(build_scene(game, None, tkey, before.as_deref()));
        *last.borrow_mut() = Some((key, s.clone()));
        s
    })
}

thread_local! {
    /// The last scene [`scene`] built on this thread, with its key.
    static LAST_SCENE: RefCell<Option<(u64, Arc<Scene>)>> = const { RefCell::new(None) };
}

/// The last scene built on this thread, to reuse what it worked out for units that have not
/// moved since.
fn last_scene() -> Option<Arc<Scene>> {
    LAST_SCENE.with(|last| last.borrow().as_ref().map(|(_, s)| s.clone()))
}

/// The terrain pieces of the table as geometry, one per polygon, each with its index in
/// `game.terrain` as id. Built once per table and shared on the thread: the rules ask what lies
/// under a base many times a decision, and building a polygon (triangulating it) costs far more
/// than the question.
pub fn terrain_pieces(game: &Game) -> Arc<Vec<TerrainPiece>> {
    terrain_pieces_keyed(game, terrain_key(game))
}

fn terrain_pieces_keyed(game: &Game, key: u64) -> Arc<Vec<TerrainPiece>> {
    thread_local! {
        static LAST: RefCell<Option<(u64, Arc<Vec<TerrainPiece>>)>> = const { RefCell::new(None) };
    }
    LAST.with(|last| {
        if let Some((k, t)) = last.borrow().as_ref()
            && *k == key
        {
            return t.clone();
        }
        let mut pieces = Vec::new();
        for (i, t) in game.terrain.iter().enumerate() {
            for poly in &t.polygons {
                if let Ok(p) = Polygon::new(poly.clone()) {
                    let sight = sight_block(t.kind, game.info.options.rules_revision);
                    pieces.push(TerrainPiece::new(i as u32, p).with_sight(sight));
                }
            }
        }
        let t = Arc::new(pieces);
        *last.borrow_mut() = Some((key, t.clone()));
        t
    })
}

/// A fingerprint of the table's terrain and the rules revision (which decides what hills hide).
fn terrain_key(game: &Game) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    hash_terrain(game, &mut h);
    h.finish()
}

fn hash_terrain(game: &Game, h: &mut impl Hasher) {
    game.info.options.rules_revision.hash(h);
    for t in &game.terrain {
        (t.kind as u8).hash(h);
        for p in &t.polygons {
            for v in p {
                v.x.to_bits().hash(h);
                v.y.to_bits().hash(h);
            }
        }
    }
}

/// A fingerprint of what a scene is built from: each unit on the table with its bases, and the
/// terrain's fingerprint `terrain` ([`terrain_key`]).
fn scene_key(game: &Game, terrain: u64) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for u in game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
    {
        u.id.0.hash(&mut h);
        u.side.0.hash(&mut h);
        for b in &u.bases {
            for v in [b.pose.pos.x, b.pose.pos.y, b.pose.angle, b.half.x, b.half.y] {
                v.to_bits().hash(&mut h);
            }
        }
    }
    terrain.hash(&mut h);
    h.finish()
}

/// The scene with one unit's bases replaced (for previews of a planned position).
pub fn scene_with(game: &Game, replace: Option<(UnitId, &[Rect])>) -> Scene {
    let before = last_scene();
    build_scene(game, replace, terrain_key(game), before.as_deref())
}

/// The scene, reusing per unit what `before` (the last scene built here) worked out for bases
/// that have not moved.
fn build_scene(
    game: &Game,
    replace: Option<(UnitId, &[Rect])>,
    terrain_key: u64,
    before: Option<&Scene>,
) -> Scene {
    let mut bases = Vec::new();
    for u in game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
    {
        let rects: &[Rect] = match replace {
            Some((id, r)) if id == u.id => r,
            _ => &u.bases,
        };
        bases.extend(rects.iter().map(|r| SceneBase {
            rect: *r,
            unit: sid(u.id),
            side: u.side.0,
        }));
    }
    // Inputs come from checked scenarios and from moves the geometry produced; an empty scene is
    // the safe fallback if anything were still refused.
    match prepared_terrain(game, terrain_key) {
        Some(terrain) => Scene::with_terrain_after(bases.clone(), terrain, before),
        None => Scene::new(bases.clone(), Vec::new()),
    }
    .or_else(|_| Scene::new(bases, Vec::new()))
    .unwrap_or_else(|_| empty_scene())
}

/// Is this point on a road or bridge whose override applies (BFS-TER-22)? A road counts as one
/// base wide whatever its drawn width, so a base whose middle is on it moves and marches along
/// it ignoring the wood or village it crosses. Battles recorded before rules revision 4 did not.
pub fn on_road(game: &Game, p: Vec2) -> bool {
    let road =
        |t: &crate::state::TerrainPiece| matches!(t.kind, TerrainKind::Road | TerrainKind::Bridge);
    crate::revision::roads_override(game.info.options.rules_revision)
        // Most points are nowhere near a road: no need to fetch the pieces (a hash of the whole
        // table) unless one lies within a road's box.
        && game.terrain.iter().filter(|t| road(t)).any(|t| {
            t.polygons.iter().any(|poly| {
                let m = 2.0 * sandtable_geometry::tolerance::CONTACT_EPS;
                let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
                for v in poly {
                    lo = lo.min(*v);
                    hi = hi.max(*v);
                }
                p.x >= lo.x - m && p.y >= lo.y - m && p.x <= hi.x + m && p.y <= hi.y + m
            })
        })
        && terrain_pieces(game).iter().any(|piece| {
            game.terrain
                .get(piece.id as usize)
                .is_some_and(|t| matches!(t.kind, TerrainKind::Road | TerrainKind::Bridge))
                && piece.contains_point(p).unwrap_or(false)
        })
}

/// Does this base keep to a road all along a straight move by `delta` (its middle on it at the
/// start, halfway and the end)? Then the ground the road crosses does not slow it (BFS-TER-22).
pub fn keeps_to_road(game: &Game, base: &Rect, delta: Vec2) -> bool {
    let c = base.center();
    [c, c + delta * 0.5, c + delta]
        .iter()
        .all(|p| on_road(game, *p))
}

/// Scene ids of lone commanders in [`scene_with_commanders`]: above every unit's.
pub const COMMANDER_SID: u32 = 0x8000_0000;

/// The scene id of a commander's base in [`scene_with_commanders`].
pub fn commander_sid(c: crate::ids::CommanderId) -> u32 {
    COMMANDER_SID | c.0 as u32
}

/// Is this scene base a commander's (he blocks neither sight nor fire, BFS-CDR-5)?
pub fn is_commander(b: &SceneBase) -> bool {
    b.unit >= COMMANDER_SID
}

/// The scene with the bases of some commanders added, each under [`commander_sid`], to ask what
/// sees or may shoot them (BFS-CDR-7). Built only when a lone commander is near a shooter.
pub fn scene_with_commanders(game: &Game, commanders: &[crate::ids::CommanderId]) -> Scene {
    let mut bases: Vec<SceneBase> = scene(game).bases().to_vec();
    for c in commanders {
        let cm = game.commander(*c);
        bases.push(SceneBase {
            rect: cm.base,
            unit: commander_sid(*c),
            side: cm.side.0,
        });
    }
    match prepared_terrain(game, terrain_key(game)) {
        Some(terrain) => Scene::with_terrain(bases, terrain),
        None => Scene::new(bases, Vec::new()),
    }
    .unwrap_or_else(|_| empty_scene())
}

/// The terrain of a scene: every piece but the buildings a garrison holds. A garrison's bases
/// fill its building, so they block sight and movement in its place, and the walls no longer
/// hide the garrison from those outside nor those outside from it (BFS-TER-30).
///
/// Prepared once per table and garrison set and shared on the thread (`None` if the geometry
/// refused the pieces, which checked scenarios never give).
fn prepared_terrain(game: &Game, terrain_key: u64) -> Option<Arc<PreparedTerrain>> {
    /// The terrain's key, the buildings held, and the terrain prepared for them.
    type Kept = Option<(u64, Vec<u32>, Arc<PreparedTerrain>)>;
    thread_local! {
        static LAST: RefCell<Kept> = const { RefCell::new(None) };
    }
    let held: Vec<u32> = game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
        .filter_map(|u| u.garrison.map(|b| b as u32))
        .collect();
    LAST.with(|last| {
        if let Some((k, h, t)) = last.borrow().as_ref()
            && *k == terrain_key
            && *h == held
        {
            return Some(t.clone());
        }
        let all = terrain_pieces_keyed(game, terrain_key);
        let pieces: Vec<TerrainPiece> = all
            .iter()
            .filter(|p| !held.contains(&p.id))
            .cloned()
            .collect();
        let t = Arc::new(PreparedTerrain::new(pieces).ok()?);
        *last.borrow_mut() = Some((terrain_key, held, t.clone()));
        Some(t)
    })
}

fn empty_scene() -> Scene {
    Scene::new(Vec::new(), Vec::new()).expect("an empty scene is always valid")
}

/// The unit's frame: the smallest rectangle aligned with its facing that holds all its bases
/// (GEO-1's unit rectangle for close order).
pub fn unit_frame(u: &Unit) -> Rect {
    frame_of(&u.bases)
}

/// The frame of a set of bases, aligned with the first base's facing.
pub fn frame_of(bases: &[Rect]) -> Rect {
    let Some(first) = bases.first() else {
        return Rect::new(Pose::default(), Vec2::splat(0.5));
    };
    let axes = Pose::new(first.center(), first.pose.angle);
    let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
    for b in bases {
        for c in b.corners() {
            let l = axes.to_local(c);
            lo = lo.min(l);
            hi = hi.max(l);
        }
    }
    let centre = axes.to_world((lo + hi) * 0.5);
    Rect::new(Pose::new(centre, first.pose.angle), (hi - lo) * 0.5)
}

/// The terrain pieces whose box meets the box of `bases`: the only ones an exact overlap test
/// can find them in. Most pieces lie nowhere near a unit, and the rules and the computer ask
/// what ground a unit stands on for every move and every position judged.
pub(crate) fn pieces_near<'a>(
    pieces: &'a [TerrainPiece],
    bases: &[Rect],
) -> impl Iterator<Item = &'a TerrainPiece> {
    let (mut lo, mut hi) = (Vec2::splat(f32::INFINITY), Vec2::splat(f32::NEG_INFINITY));
    for b in bases {
        let (l, h) = b.aabb();
        lo = lo.min(l);
        hi = hi.max(h);
    }
    pieces.iter().filter(move |piece| {
        let (plo, phi) = piece.polygon.aabb();
        plo.x <= hi.x && plo.y <= hi.y && phi.x >= lo.x && phi.y >= lo.y
    })
}

/// The worst terrain class any base of `bases` stands in (BFS-TER-6).
pub fn worst_class_under(game: &Game, bases: &[Rect], p: &UnitProfile) -> TerrainClass {
    let mut worst = TerrainClass::Open;
    for piece in pieces_near(&terrain_pieces(game), bases) {
        let Some(t) = game.terrain.get(piece.id as usize) else {
            continue;
        };
        let class = terrain_class(t.kind, p);
        if class > worst
            && bases
                .iter()
                .any(|b| piece.overlap_area(b).is_ok_and(|a| a > 1e-3))
        {
            worst = class;
        }
    }
    worst
}

/// Which side of `frame` the point `p` lies towards: the edge whose sector (cut by the frame's
/// diagonals) holds it (BFS-CC-24's sides of a unit).
pub fn side_towards(frame: &Rect, p: Vec2) -> sandtable_geometry::Edge {
    use sandtable_geometry::Edge;
    let l = frame.pose.to_local(p);
    if l.y.abs() * frame.half.x >= l.x.abs() * frame.half.y {
        if l.y > 0.0 { Edge::Front } else { Edge::Rear }
    } else if l.x > 0.0 {
        Edge::Right
    } else {
        Edge::Left
    }
}
