//! Drawing the table as the ruleset describes it for the viewer ([`sandtable_engine::TableScene`]):
//! the cloth, terrain, bases, leaders, names and tokens, rebuilt whenever the game changes;
//! outlines, highlights and the tape drawn each frame with gizmos.

use super::input::{Hovered, Selected, Tape};
use super::label_layout::{LabelRequest, layout};
use super::mesh::polygon_mesh;
use super::tape_math::measure;
use super::view::{TableView, from_geo};
use crate::battle::Battle;
use crate::palette;
use bevy::prelude::*;
use sandtable_engine::{Emblem, PieceId, PieceKind, Token};
use sandtable_geometry::Rect;

/// Everything spawned for the table; despawned and rebuilt when the game changes.
#[derive(Component)]
pub struct TableEntity;

/// Text that keeps the same size on screen at every zoom.
#[derive(Component)]
pub struct ScreenSizedLabel;

pub use super::label_plan::{LABEL_PX, LabelBlockers, LabelStyle, PlacedLabel, label_plan};

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
    // Behind the hand-over curtain the table is not drawn at all.
    if battle.curtain.is_some() {
        return;
    }
    let scene = &battle.scene;
    let mut colour = |c: Color| MeshMaterial2d(materials.add(ColorMaterial::from_color(c)));
    let (labels, blockers) = label_plan(scene);
    commands.insert_resource(blockers);
    let unit_square = meshes.add(Rectangle::new(1.0, 1.0));
    let disc = meshes.add(Circle::new(1.0));

    let t = from_geo(scene.size);
    commands.spawn((
        TableEntity,
        Mesh2d(meshes.add(Rectangle::new(t.x, t.y))),
        colour(palette::rgb(palette::TABLE)),
        Transform::from_xyz(t.x * 0.5, t.y * 0.5, z::TABLE),
    ));

    for piece in &scene.terrain {
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
    }

    // Objective markers: a named point; its radius is drawn each frame.
    for o in &scene.objectives {
        let at = from_geo(o.position);
        commands.spawn((
            TableEntity,
            Mesh2d(disc.clone()),
            colour(Color::srgb(0.95, 0.85, 0.2)),
            Transform::from_xyz(at.x, at.y, z::BASE).with_scale(Vec3::splat(1.2)),
        ));
    }

    for p in scene.pieces.iter().filter(|p| p.kind == PieceKind::Unit) {
        let fill = colour(palette::side(p.side as usize));
        let mark = colour(Color::srgb(0.97, 0.95, 0.88));
        for b in &p.bases {
            spawn_rect(&mut commands, &unit_square, fill.clone(), b, z::BASE);
            spawn_rect(
                &mut commands,
                &unit_square,
                mark.clone(),
                &front_mark(b),
                z::FRONT_MARK,
            );
        }
        // The middle of the piece, so that a marker widens away from it.
        let middle_x =
            p.bases.iter().map(|b| b.center().x).sum::<f32>() / p.bases.len().max(1) as f32;
        for token in &p.tokens {
            spawn_token(
                &mut commands,
                &unit_square,
                &mut colour,
                token,
                &view,
                middle_x,
            );
        }
    }

    for p in scene.pieces.iter().filter(|p| p.kind == PieceKind::Leader) {
        let Some(base) = p.bases.first() else {
            continue;
        };
        let r = base.half.x.min(base.half.y);
        let centre = from_geo(base.center());
        commands.spawn((
            TableEntity,
            Mesh2d(disc.clone()),
            colour(Color::WHITE),
            Transform::from_xyz(centre.x, centre.y, z::COMMANDER).with_scale(Vec3::splat(r + 0.4)),
        ));
        commands.spawn((
            TableEntity,
            Mesh2d(disc.clone()),
            colour(palette::side(p.side as usize)),
            Transform::from_xyz(centre.x, centre.y, z::COMMANDER + 0.1).with_scale(Vec3::splat(r)),
        ));
        // The leader's flag: a white pennant pointing the way he faces.
        let f = from_geo(base.facing());
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
    }

    // The names, over everything, each where the layout puts it.
    for label in labels {
        let (colour, shadow) = match label.style {
            LabelStyle::Terrain => (Color::srgba(0.1, 0.1, 0.1, 0.85), None),
            LabelStyle::Objective => (Color::srgb(1.0, 0.95, 0.6), Some(Color::BLACK)),
            LabelStyle::Piece => (Color::WHITE, Some(Color::srgba(0.0, 0.0, 0.0, 0.8))),
        };
        let (text, at) = (label.full.clone(), label.request.at);
        spawn_label(&mut commands, &text, at, colour, shadow, &view, Some(label));
    }
}

/// Lays the names out again when the zoom, the table, the hovered or the selected piece
/// changes: each at its free spot, or hidden ([`super::label_layout`]).
pub fn place_labels(
    view: Res<TableView>,
    blockers: Option<Res<LabelBlockers>>,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    added: Query<(), Added<PlacedLabel>>,
    mut labels: Query<(&PlacedLabel, &mut Transform, &mut Visibility, &mut Text2d)>,
) {
    let Some(blockers) = blockers else {
        return;
    };
    if !view.is_changed()
        && !blockers.is_changed()
        && !hovered.is_changed()
        && !selected.is_changed()
        && added.is_empty()
    {
        return;
    }
    let mut all: Vec<_> = labels.iter_mut().collect();
    all.sort_by_key(|(p, _, _, _)| p.order);
    let requests: Vec<LabelRequest> = all.iter().map(|(p, _, _, _)| p.request.clone()).collect();
    let spots = layout(&requests, &blockers.boxes, blockers.table, view.px_per_cm);
    let shown = |piece: Option<PieceId>| {
        piece.is_some() && (hovered.0.map(|h| h.piece) == piece || selected.0 == piece)
    };
    for ((p, t, v, text), spot) in all.iter_mut().zip(spots) {
        let hovered_now = shown(p.piece);
        let (at, short) = match spot {
            Some(s) => s,
            None if hovered_now => (p.request.at, false),
            None => {
                **v = Visibility::Hidden;
                continue;
            }
        };
        t.translation.x = at.x;
        t.translation.y = at.y;
        **v = Visibility::Inherited;
        // A shortened name shows whole while its piece is hovered or selected.
        let want = match (&p.short, short && !hovered_now) {
            (Some(s), true) => s.as_str(),
            _ => p.full.as_str(),
        };
        if text.0 != want {
            text.0 = want.to_string();
        }
    }
}

/// Token colours: a face-down marker is dark, a face-up one parchment.
pub const MARKER_FACE_DOWN: [u8; 3] = [64, 56, 46];
pub const MARKER_REVEALED: [u8; 3] = [237, 224, 184];

fn spawn_token(
    commands: &mut Commands,
    square: &Handle<Mesh>,
    colour: &mut impl FnMut(Color) -> MeshMaterial2d<ColorMaterial>,
    token: &Token,
    view: &TableView,
    piece_middle_x: f32,
) {
    let fill = palette::rgb(if token.face_down {
        MARKER_FACE_DOWN
    } else {
        MARKER_REVEALED
    });
    // A marker left of its unit on screen grows leftwards, from its right edge.
    let rightwards = token.at.x >= piece_middle_x;
    let fit = TokenFit {
        edge_cm: if rightwards {
            token.at.x - token.size * 0.5
        } else {
            token.at.x + token.size * 0.5
        },
        rightwards,
        size_cm: token.size,
        chars: token.text.chars().count().max(1),
    };
    let (centre, width) = fit.placed(view.px_per_cm);
    commands.spawn((
        TableEntity,
        TokenPlate(fit),
        Mesh2d(square.clone()),
        colour(fill),
        Transform::from_xyz(centre, token.at.y, z::MARKER)
            .with_scale(Vec3::new(width, token.size, 1.0)),
    ));
    let text_colour = if token.face_down {
        Color::srgb(0.95, 0.85, 0.5)
    } else {
        Color::srgb(0.15, 0.12, 0.1)
    };
    commands.spawn((
        TableEntity,
        ScreenSizedLabel,
        TokenText(fit),
        Text2d::new(token.text.clone()),
        TextFont::from_font_size(LABEL_PX),
        TextColor(text_colour),
        Transform::from_xyz(centre, token.at.y, z::LABEL)
            .with_scale(Vec3::splat(1.0 / view.px_per_cm)),
    ));
}

/// How a marker holds its words: the words keep the labels' size on screen, and the marker
/// widens wherever they are wider than its square (at a low zoom "OoC" or "3/4" would spill out
/// of it), away from its unit: to the right from its left edge when it stands right of the
/// unit's middle on screen, to the left from its right edge otherwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TokenFit {
    /// The edge that stays put, table cm: the left one when it grows rightwards.
    pub edge_cm: f32,
    pub rightwards: bool,
    /// Its side, table cm.
    pub size_cm: f32,
    pub chars: usize,
}

impl TokenFit {
    /// The marker's middle x and its width, table cm, at `px_per_cm`.
    pub fn placed(self, px_per_cm: f32) -> (f32, f32) {
        let words_cm =
            super::label_layout::text_box_px(self.chars, LABEL_PX).x / px_per_cm.max(1e-3);
        let width = self.size_cm.max(words_cm);
        let half = if self.rightwards { 0.5 } else { -0.5 };
        (self.edge_cm + width * half, width)
    }
}

/// A marker's square, resized with the zoom ([`TokenFit`]).
#[derive(Component, Debug, Clone, Copy)]
pub struct TokenPlate(pub TokenFit);

/// A marker's words, kept in the middle of its square ([`TokenFit`]).
#[derive(Component, Debug, Clone, Copy)]
pub struct TokenText(pub TokenFit);

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

fn spawn_label(
    commands: &mut Commands,
    text: &str,
    at: Vec2,
    colour: Color,
    shadow: Option<Color>,
    view: &TableView,
    placed: Option<PlacedLabel>,
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
    if let Some(p) = placed {
        e.insert((p, Visibility::Inherited));
    }
}

pub fn scale_labels(
    view: Res<TableView>,
    mut labels: Query<(&mut Transform, Option<&TokenText>), With<ScreenSizedLabel>>,
    mut plates: Query<(&mut Transform, &TokenPlate), Without<ScreenSizedLabel>>,
) {
    if !view.is_changed() {
        return;
    }
    for (mut t, token) in &mut labels {
        t.scale = Vec3::splat(1.0 / view.px_per_cm);
        if let Some(TokenText(fit)) = token {
            t.translation.x = fit.placed(view.px_per_cm).0;
        }
    }
    for (mut t, TokenPlate(fit)) in &mut plates {
        let (centre, width) = fit.placed(view.px_per_cm);
        t.translation.x = centre;
        t.scale.x = width;
    }
}

/// Base outlines, terrain edges, the hover and selection highlights, objectives and the tape.
pub fn draw_overlays(
    mut gizmos: Gizmos,
    battle: Option<Res<Battle>>,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    tape: Res<Tape>,
    view: Res<TableView>,
) {
    let Some(battle) = battle else { return };
    if battle.curtain.is_some() {
        return;
    }
    let scene = &battle.scene;
    for piece in &scene.terrain {
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
    let ink = Color::srgba(0.97, 0.95, 0.88, 0.85);
    for p in scene.pieces.iter().filter(|p| p.kind == PieceKind::Unit) {
        for b in &p.bases {
            outline(&mut gizmos, b.corners().iter().map(|p| from_geo(*p)), dark);
            if let Some(e) = p.emblem {
                draw_emblem(&mut gizmos, b, e, ink);
            }
        }
    }
    let grow = 0.35;
    let mut highlight = |piece: PieceId, grow: f32, colour: Color| {
        for r in scene
            .piece(piece)
            .map(|p| p.bases.as_slice())
            .unwrap_or(&[])
        {
            let g = Rect::new(r.pose, r.half + sandtable_geometry::Vec2::splat(grow));
            outline(
                &mut gizmos,
                g.corners().iter().map(|p| from_geo(*p)),
                colour,
            );
        }
    };
    if let Some(h) = hovered.0 {
        highlight(h.piece, grow * 0.5, Color::WHITE);
    }
    if let Some(s) = selected.0 {
        highlight(s, grow, Color::srgb(1.0, 0.85, 0.1));
    }
    // Objectives: the control radius, in the holder's colour.
    for o in &scene.objectives {
        let colour = match o.held_by {
            Some(s) => palette::side(s as usize),
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

/// How much of a base's half-width and half-depth its symbol spans.
const EMBLEM_SPAN: (f32, f32) = (0.6, 0.7);

/// The middle of a base's symbol, below the front stripe; the symbol leaves a small disc about it
/// clear (lines break there, circles ring it), so the side's colour shows there: the screenshot
/// check reads it.
pub fn emblem_free_point(b: &Rect) -> sandtable_geometry::Vec2 {
    b.pose
        .to_world(sandtable_geometry::Vec2::new(0.0, -FRONT_MARK_CM * 0.5))
}

/// A troop type's map symbol on one base, in the base's own frame (x right, y forward), kept
/// clear of its edges, of the stripe along its front and of a disc about its middle.
fn draw_emblem(gizmos: &mut Gizmos, b: &Rect, e: Emblem, ink: Color) {
    use sandtable_geometry::Vec2 as G;
    let h = G::new(b.half.x * EMBLEM_SPAN.0, b.half.y * EMBLEM_SPAN.1);
    let lower = -FRONT_MARK_CM * 0.5;
    let at = |x: f32, y: f32| from_geo(b.pose.to_world(G::new(x * h.x, y * h.y + lower)));
    let centre = at(0.0, 0.0);
    // The clear disc: half the smaller half-size of the base.
    let gap = 0.5 * b.half.x.min(b.half.y);
    // Break a line that passes through the clear disc.
    fn broken(gizmos: &mut Gizmos, p: Vec2, q: Vec2, centre: Vec2, gap: f32, ink: Color) {
        let d = q - p;
        let len2 = d.length_squared();
        if len2 == 0.0 {
            return;
        }
        let t = ((centre - p).dot(d) / len2).clamp(0.0, 1.0);
        let miss = (p + d * t).distance(centre);
        if miss >= gap {
            gizmos.line_2d(p, q, ink);
            return;
        }
        let half_chord = (gap * gap - miss * miss).sqrt() / len2.sqrt();
        let (t0, t1) = ((t - half_chord).max(0.0), (t + half_chord).min(1.0));
        if t0 > 0.0 {
            gizmos.line_2d(p, p + d * t0, ink);
        }
        if t1 < 1.0 {
            gizmos.line_2d(p + d * t1, q, ink);
        }
    }
    let line = |g: &mut Gizmos, a: (f32, f32), z: (f32, f32)| {
        broken(g, at(a.0, a.1), at(z.0, z.1), centre, gap, ink)
    };
    let r = (h.x.min(h.y) * 0.5).max(gap * 1.2);
    // The two diagonals of a cross.
    const CROSS: [((f32, f32), (f32, f32)); 2] =
        [((-1.0, -1.0), (1.0, 1.0)), ((-1.0, 1.0), (1.0, -1.0))];
    match e {
        Emblem::Infantry => CROSS.iter().for_each(|(a, z)| line(gizmos, *a, *z)),
        Emblem::Pikes => {
            CROSS.iter().for_each(|(a, z)| line(gizmos, *a, *z));
            line(gizmos, (0.0, -1.0), (0.0, 1.0));
        }
        Emblem::Shot => {
            CROSS.iter().for_each(|(a, z)| line(gizmos, *a, *z));
            gizmos.circle_2d(centre, r, ink);
        }
        Emblem::Cavalry => line(gizmos, (-1.0, -1.0), (1.0, 1.0)),
        Emblem::LightCavalry => {
            line(gizmos, (-1.0, -1.0), (1.0, 1.0));
            line(gizmos, (-1.0, 0.8), (0.1, 0.8));
        }
        Emblem::Dragoons => {
            line(gizmos, (-1.0, -1.0), (1.0, 1.0));
            gizmos.circle_2d(centre, r, ink);
        }
        Emblem::Artillery => {
            gizmos.circle_2d(centre, r, ink);
        }
        Emblem::Wagon => {
            gizmos.circle_2d(at(-0.6, 0.0), r * 0.6, ink);
            gizmos.circle_2d(at(0.6, 0.0), r * 0.6, ink);
        }
    }
}

#[cfg(test)]
mod token_fit_tests {
    use super::*;

    /// At the Task Force's fitted zoom (6.27 px/cm) "OoC" is wider than its 2.6 cm marker: the
    /// marker widens to hold it, its left edge in place; zoomed in, the square holds it as is.
    #[test]
    fn a_marker_widens_to_hold_its_words() {
        let fit = TokenFit {
            edge_cm: 10.0,
            rightwards: true,
            size_cm: 2.6,
            chars: 3,
        };
        let px = 6.27;
        let words_cm = crate::table::label_layout::text_box_px(3, LABEL_PX).x / px;
        let (centre, width) = fit.placed(px);
        assert!(width > 2.6 && (width - words_cm).abs() < 1e-4, "{width}");
        assert!((centre - width * 0.5 - 10.0).abs() < 1e-4, "left edge kept");
        assert_eq!(fit.placed(40.0), (11.3, 2.6));
        // Left of its unit, it grows leftwards from its right edge.
        let left = TokenFit {
            edge_cm: 10.0,
            rightwards: false,
            ..fit
        };
        let (centre, width) = left.placed(px);
        assert!(
            (centre + width * 0.5 - 10.0).abs() < 1e-4,
            "right edge kept"
        );
        assert_eq!(left.placed(40.0), (8.7, 2.6));
    }
}
