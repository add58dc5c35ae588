//! A scenario's thumbnail on the start screen ([`crate::preview::Preview`] drawn with egui):
//! the table, its terrain by kind in the table's own colours, the bases in their sides' colours.

use crate::palette;
use crate::preview::Preview;
use bevy_egui::egui;

/// Draws `p` in a rect `width` wide (its height follows the table's proportions).
pub fn show(ui: &mut egui::Ui, p: &Preview, width: f32) -> egui::Response {
    let size = egui::vec2(
        width,
        width * (p.size.y / p.size.x.max(1.0)).clamp(0.3, 1.5),
    );
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let k = rect.width() / p.size.x.max(1.0);
    // Table y grows away from the first side's edge: up on the screen, as on the battle table.
    let at =
        |v: sandtable_geometry::Vec2| egui::pos2(rect.left() + v.x * k, rect.bottom() - v.y * k);
    painter.rect_filled(rect, 2.0, palette::egui_rgb(palette::TABLE));
    let mut terrain: Vec<_> = p.terrain.iter().collect();
    terrain.sort_by(|a, b| palette::terrain_layer(a.0).total_cmp(&palette::terrain_layer(b.0)));
    for (kind, poly) in terrain {
        fill(
            &painter,
            poly.iter().map(|v| at(*v)).collect(),
            palette::egui_rgb(palette::terrain(*kind)),
        );
    }
    for (side, corners) in &p.bases {
        fill(
            &painter,
            corners.iter().map(|v| at(*v)).collect(),
            palette::side_egui(*side as usize),
        );
    }
    painter.rect_stroke(
        rect,
        2.0,
        egui::Stroke::new(1.0, egui::Color32::from_gray(90)),
        egui::StrokeKind::Outside,
    );
    response
}

/// A filled simple polygon (concave ones too: triangulated by ear clipping, the `earcut` crate).
pub(super) fn fill(painter: &egui::Painter, pts: Vec<egui::Pos2>, colour: egui::Color32) {
    if pts.len() < 3 {
        return;
    }
    let mut indices: Vec<u32> = Vec::new();
    earcut::Earcut::new().earcut(pts.iter().map(|p| [p.x, p.y]), &[], &mut indices);
    let mut mesh = egui::Mesh::default();
    for p in &pts {
        mesh.colored_vertex(*p, colour);
    }
    mesh.indices = indices;
    painter.add(egui::Shape::mesh(mesh));
}
