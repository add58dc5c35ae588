//! Drawing the table: the cloth, terrain, bases, commanders and unit names, rebuilt from the game
//! state whenever it changes; outlines, highlights and the tape drawn each frame with gizmos.

use super::input::{Hovered, Selected, Tape};
use super::mesh::polygon_mesh;
use super::pick::Thing;
use super::tape_math::measure;
use super::view::{TableView, from_geo};
use crate::battle::Battle;
use crate::palette;
use bevy::prelude::*;
use sandtable_bfs::state::{Game, UnitStatus};
use sandtable_geometry::Rect;

/// Everything spawned for the table; despawned and rebuilt when the game changes.
#[derive(Component)]
pub struct TableEntity;

/// Text that keeps the same size on screen at every zoom.
#[derive(Component)]
pub struct ScreenSizedLabel;

/// Label font size in logical pixels.
pub const LABEL_PX: f32 = 13.0;

/// Depths (z) of the layers, back to front.
mod z {
    pub const TABLE: f32 = 0.0;
    pub const TERRAIN: f32 = 1.0;
    pub const BASE: f32 = 10.0;
    pub const FRONT_MARK: f32 = 10.5;
    pub const COMMANDER: f32 = 12.0;
    pub const MARKER: f32 = 15.0;
    pub const LABEL: f32 = 20.0;
}

/// Width of the stripe that marks a base's front edge, cm.
const FRONT_MARK_CM: f32 = 0.5;

pub fn rebuild_table(
    mut commands: Commands,
    battle: Option<Res<Battle>>,
    existing: Query<Entity, With<TableEntity>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
    view: Res<TableView>,
) {
    let Some(battle) = battle else {
        for e in &existing {
            commands.entity(e).despawn();
        }
        return;
    };
    if !battle.is_changed() {
        return;
    }
    for e in &existing {
        commands.entity(e).despawn();
    }
    let game = &battle.game;
    let mut colour = |c: Color| MeshMaterial2d(materials.add(ColorMaterial::from_color(c)));
    let unit_square = meshes.add(Rectangle::new(1.0, 1.0));
    let disc = meshes.add(Circle::new(1.0));

    let t = from_geo(game.info.table);
    commands.spawn((
        TableEntity,
        Mesh2d(meshes.add(Rectangle::new(t.x, t.y))),
        colour(palette::rgb(palette::TABLE)),
        Transform::from_xyz(t.x * 0.5, t.y * 0.5, z::TABLE),
    ));

    for piece in &game.terrain {
        let fill = colour(palette::rgb(palette::terrain(piece.kind)));
        for poly in &piece.polygons {
            let pts: Vec<Vec2> = poly.iter().map(|p| from_geo(*p)).collect();
            if let Some(mesh) = polygon_mesh(&pts) {
                commands.spawn((
                    TableEntity,
                    Mesh2d(meshes.add(mesh)),
                    fill.clone(),
                    Transform::from_xyz(0.0, 0.0, z::TERRAIN + palette::terrain_layer(piece.kind)),
                ));
            }
        }
        // Strips (roads, streams) explain themselves; a label at their middle would sit on units.
        if let (Some(name), 1) = (&piece.name, piece.polygons.len()) {
            let c = piece
                .polygons
                .iter()
                .flatten()
                .copied()
                .fold(sandtable_geometry::Vec2::ZERO, |a, b| a + b)
                / piece.polygons.iter().map(Vec::len).sum::<usize>().max(1) as f32;
            spawn_label(
                &mut commands,
                name,
                from_geo(c),
                Color::srgba(0.1, 0.1, 0.1, 0.85),
                None,
                &view,
            );
        }
    }

    // Objective markers (BFS-SCN-6): a named point; its radius is drawn each frame.
    for o in &game.objectives {
        let at = from_geo(o.position);
        commands.spawn((
            TableEntity,
            Mesh2d(disc.clone()),
            colour(Color::srgb(0.95, 0.85, 0.2)),
            Transform::from_xyz(at.x, at.y, z::BASE).with_scale(Vec3::splat(1.2)),
        ));
        let holder = o
            .held_by
            .map_or("nobody".to_string(), |s| game.sides[s.index()].name.clone());
        spawn_label(
            &mut commands,
            &format!("{} ({} VP, held by {holder})", o.name, o.vp),
            at + Vec2::new(0.0, 2.5),
            Color::srgb(1.0, 0.95, 0.6),
            Some(Color::BLACK),
            &view,
        );
    }

    for u in game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
    {
        let side = u.side.index();
        let fill = colour(palette::side(side));
        let mark = colour(Color::srgb(0.97, 0.95, 0.88));
        for b in &u.bases {
            spawn_rect(&mut commands, &unit_square, fill.clone(), b, z::BASE);
            spawn_rect(
                &mut commands,
                &unit_square,
                mark.clone(),
                &front_mark(b),
                z::FRONT_MARK,
            );
        }
        spawn_label(
            &mut commands,
            &u.name,
            label_anchor(u),
            Color::WHITE,
            Some(Color::srgba(0.0, 0.0, 0.0, 0.8)),
            &view,
        );
        if let Some((letter, face_down)) = order_marker(u) {
            spawn_marker(
                &mut commands,
                &unit_square,
                &mut colour,
                u,
                letter,
                face_down,
                &view,
            );
        }
    }

    for c in game
        .commanders
        .iter()
        .filter(|c| c.status == UnitStatus::OnTable)
    {
        let r = c.base.half.x.min(c.base.half.y);
        let centre = from_geo(c.base.center());
        commands.spawn((
            TableEntity,
            Mesh2d(disc.clone()),
            colour(Color::WHITE),
            Transform::from_xyz(centre.x, centre.y, z::COMMANDER).with_scale(Vec3::splat(r + 0.4)),
        ));
        commands.spawn((
            TableEntity,
            Mesh2d(disc.clone()),
            colour(palette::side(c.side.index())),
            Transform::from_xyz(centre.x, centre.y, z::COMMANDER + 0.1).with_scale(Vec3::splat(r)),
        ));
        // The commander's flag: a white pennant pointing the way he faces.
        let f = from_geo(c.base.facing());
        commands.spawn((
            TableEntity,
            Mesh2d(meshes.add(Triangle2d::new(
                f * r * 0.9,
                f.perp() * r * 0.45,
                -f.perp() * r * 0.45,
            ))),
            colour(Color::WHITE),
            Transform::from_xyz(centre.x, centre.y, z::COMMANDER + 0.2),
        ));
        let below = centre - Vec2::Y * (r + 1.6);
        spawn_label(
            &mut commands,
            &c.name,
            below,
            Color::WHITE,
            Some(Color::srgba(0.0, 0.0, 0.0, 0.8)),
            &view,
        );
    }
}

/// The order marker beside a unit (BFS-SCL-6): the revealed order's letter; a face-down marker
/// shows its letter only to its owner (the view hides it from the other side) and "?" otherwise.
pub fn order_marker(u: &sandtable_bfs::state::Unit) -> Option<(&'static str, bool)> {
    let letter = |k: sandtable_bfs::state::OrderKind| match k {
        sandtable_bfs::state::OrderKind::Move => "M",
        sandtable_bfs::state::OrderKind::Charge => "C",
        sandtable_bfs::state::OrderKind::Defense => "D",
    };
    match (u.pending_order, u.order) {
        (Some(p), _) => Some((p.kind.map_or("?", letter), true)),
        (None, Some(o)) => Some((letter(o), false)),
        (None, None) => None,
    }
}

/// Size of an order marker token, cm.
const MARKER_CM: f32 = 2.6;
/// Token colours: a face-down marker is dark, a revealed one parchment.
pub const MARKER_FACE_DOWN: [u8; 3] = [64, 56, 46];
pub const MARKER_REVEALED: [u8; 3] = [237, 224, 184];

/// Where a unit's order marker stands: beside its left flank, level with its front rank.
pub fn marker_centre(u: &sandtable_bfs::state::Unit) -> sandtable_geometry::Vec2 {
    let frame = sandtable_bfs::geo::unit_frame(u);
    frame.pose.to_world(sandtable_geometry::Vec2::new(
        -frame.half.x - MARKER_CM * 0.5 - 0.6,
        frame.half.y - MARKER_CM * 0.5,
    ))
}

fn spawn_marker(
    commands: &mut Commands,
    square: &Handle<Mesh>,
    colour: &mut impl FnMut(Color) -> MeshMaterial2d<ColorMaterial>,
    u: &sandtable_bfs::state::Unit,
    letter: &str,
    face_down: bool,
    view: &TableView,
) {
    let at = marker_centre(u);
    let token = Rect::new(
        sandtable_geometry::Pose::new(at, 0.0),
        sandtable_geometry::Vec2::splat(MARKER_CM * 0.5),
    );
    let fill = palette::rgb(if face_down {
        MARKER_FACE_DOWN
    } else {
        MARKER_REVEALED
    });
    spawn_rect(commands, square, colour(fill), &token, z::MARKER);
    let text_colour = if face_down {
        Color::srgb(0.95, 0.85, 0.5)
    } else {
        Color::srgb(0.15, 0.12, 0.1)
    };
    spawn_label(commands, letter, from_geo(at), text_colour, None, view);
}

/// The stripe along a base's front edge.
fn front_mark(b: &Rect) -> Rect {
    let depth = FRONT_MARK_CM.min(b.half.y);
    let centre = b
        .pose
        .to_world(sandtable_geometry::Vec2::new(0.0, b.half.y - depth * 0.5));
    Rect::new(
        sandtable_geometry::Pose::new(centre, b.pose.angle),
        sandtable_geometry::Vec2::new(b.half.x, depth * 0.5),
    )
}

fn spawn_rect(
    commands: &mut Commands,
    square: &Handle<Mesh>,
    material: MeshMaterial2d<ColorMaterial>,
    r: &Rect,
    z: f32,
) {
    let c = from_geo(r.center());
    commands.spawn((
        TableEntity,
        Mesh2d(square.clone()),
        material,
        Transform::from_xyz(c.x, c.y, z)
            .with_rotation(Quat::from_rotation_z(r.pose.angle))
            .with_scale(Vec3::new(r.half.x * 2.0, r.half.y * 2.0, 1.0)),
    ));
}

/// Where a unit's name goes: just behind its rear, so the bases themselves stay clear.
pub fn label_anchor(u: &sandtable_bfs::state::Unit) -> Vec2 {
    let f = u.facing();
    let c = u.centroid();
    let back = u
        .bases
        .iter()
        .map(|b| (b.center() - c).dot(-f) + b.half.y)
        .fold(0.0f32, f32::max);
    from_geo(c - f * (back + 1.4))
}

fn spawn_label(
    commands: &mut Commands,
    text: &str,
    at: Vec2,
    colour: Color,
    shadow: Option<Color>,
    view: &TableView,
) {
    let mut e = commands.spawn((
        TableEntity,
        ScreenSizedLabel,
        Text2d::new(text),
        TextFont::from_font_size(LABEL_PX),
        TextColor(colour),
        Transform::from_xyz(at.x, at.y, z::LABEL).with_scale(Vec3::splat(1.0 / view.px_per_cm)),
    ));
    if let Some(s) = shadow {
        e.insert(bevy::sprite::Text2dShadow {
            offset: Vec2::new(1.0, -1.0),
            color: s,
        });
    }
}

pub fn scale_labels(
    view: Res<TableView>,
    mut labels: Query<&mut Transform, With<ScreenSizedLabel>>,
) {
    if !view.is_changed() {
        return;
    }
    for mut t in &mut labels {
        t.scale = Vec3::splat(1.0 / view.px_per_cm);
    }
}

/// Base outlines, terrain edges, the hover and selection highlights, and the tape.
pub fn draw_overlays(
    mut gizmos: Gizmos,
    battle: Option<Res<Battle>>,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    tape: Res<Tape>,
    view: Res<TableView>,
) {
    let Some(battle) = battle else { return };
    let game = &battle.game;
    for piece in &game.terrain {
        // Strips (roads, streams) are several quads; outlining each would draw seams across them.
        if piece.polygons.len() > 1 {
            continue;
        }
        let edge = palette::terrain(piece.kind).map(|c| c / 2);
        for poly in &piece.polygons {
            outline(
                &mut gizmos,
                poly.iter().map(|p| from_geo(*p)),
                palette::rgb(edge),
            );
        }
    }
    let dark = Color::srgba(0.05, 0.05, 0.05, 0.9);
    for u in game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
    {
        for b in &u.bases {
            outline(&mut gizmos, b.corners().iter().map(|p| from_geo(*p)), dark);
        }
    }
    let highlight = |thing: Thing, game: &Game| -> Vec<Rect> {
        match thing {
            Thing::Unit(id) => game.unit(id).bases.clone(),
            Thing::Commander(id) => vec![game.commander(id).base],
        }
    };
    let grow = 0.35;
    if let Some(h) = hovered.0 {
        for r in highlight(h.thing, game) {
            let g = Rect::new(r.pose, r.half + sandtable_geometry::Vec2::splat(grow * 0.5));
            outline(
                &mut gizmos,
                g.corners().iter().map(|p| from_geo(*p)),
                Color::WHITE,
            );
        }
    }
    if let Some(s) = selected.0 {
        for r in highlight(s, game) {
            let g = Rect::new(r.pose, r.half + sandtable_geometry::Vec2::splat(grow));
            outline(
                &mut gizmos,
                g.corners().iter().map(|p| from_geo(*p)),
                Color::srgb(1.0, 0.85, 0.1),
            );
        }
    }
    // What the lesson step asks the learner to look at: a wide cyan frame.
    if let Some(step) = battle.lesson.as_ref().and_then(|l| l.step()) {
        let frame = Color::srgb(0.2, 0.9, 1.0);
        for key in &step.look_at {
            let rects: Vec<Rect> = match (
                game.units.iter().find(|u| &u.key == key),
                game.commanders.iter().find(|c| &c.key == key),
            ) {
                (Some(u), _) => u.bases.clone(),
                (None, Some(c)) => vec![c.base],
                _ => Vec::new(),
            };
            for r in rects {
                let g = Rect::new(r.pose, r.half + sandtable_geometry::Vec2::splat(grow * 2.5));
                outline(&mut gizmos, g.corners().iter().map(|p| from_geo(*p)), frame);
            }
        }
    }
    // Objectives (BFS-SCN-6): the control radius, in the holder's colour.
    for o in &game.objectives {
        let colour = match o.held_by {
            Some(s) => palette::side(s.index()),
            None => Color::srgb(0.95, 0.95, 0.9),
        };
        gizmos.circle_2d(
            Isometry2d::from_translation(from_geo(o.position)),
            o.radius,
            colour,
        );
        gizmos.circle_2d(
            Isometry2d::from_translation(from_geo(o.position)),
            1.0,
            colour,
        );
    }
    if let (Some(a), Some(b)) = (tape.start, tape.end) {
        let m = measure(a, b);
        let (from, to) = (from_geo(m.from), from_geo(m.to));
        let tape_colour = Color::srgb(1.0, 0.95, 0.2);
        gizmos.line_2d(from, to, tape_colour);
        let tick = 4.0 / view.px_per_cm;
        for p in [from, to] {
            gizmos.circle_2d(Isometry2d::from_translation(p), tick, tape_colour);
        }
    }
}

fn outline(gizmos: &mut Gizmos, pts: impl Iterator<Item = Vec2>, colour: Color) {
    let v: Vec<Vec2> = pts.collect();
    if let Some(first) = v.first().copied() {
        gizmos.linestrip_2d(v.into_iter().chain(std::iter::once(first)), colour);
    }
}
