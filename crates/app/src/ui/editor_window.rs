//! The table editor's window ([`crate::editor::TableEditor`]): the table drawn large, a click
//! to select or add, a drag to move, numbers for exact places, undo and save. Every edit goes
//! through the ruleset's own checks; a refused one says why and changes nothing.

use crate::editor::{KINDS, Selection, TableEditor, Tool, linear};
use crate::palette;
use crate::paths::DataPaths;
use crate::screens::OpenRequest;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_engine::editor::{Edit, middle};
use sandtable_engine::scenario::{ShapeSpec, TableEdge};
use sandtable_engine::scenario_geometry::shape_polygons;

pub(super) fn editor_window(
    mut contexts: EguiContexts,
    mut ed: ResMut<TableEditor>,
    mut request: ResMut<OpenRequest>,
    paths: Res<DataPaths>,
    mut save_name: Local<Option<String>>,
    forces: Option<Res<crate::setup::BattleSetup>>,
) -> Result {
    if ed.editor.is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let size = ctx.content_rect().size();
    let mut open = true;
    let title = format!(
        "Table editor: {}",
        ed.editor.as_ref().map_or("", |e| e.scenario_name())
    );
    let name = save_name.get_or_insert_with(|| {
        ed.editor
            .as_ref()
            .map_or_else(String::new, |e| e.scenario_name().to_string())
    });
    egui::Window::new(title)
        .id(egui::Id::new("table editor"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .fixed_size([size.x - 60.0, size.y - 60.0])
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.set_min_height(size.y - 120.0);
            toolbar(ui, &mut ed, &paths, name, &mut request);
            ui.separator();
            ui.columns(2, |cols| {
                let h = cols[0].available_height();
                let w = cols[0].available_width().min(h).max(200.0);
                canvas(&mut cols[0], &mut ed, w);
                inspector(&mut cols[1], &mut ed);
                if let Some(f) = forces.as_deref() {
                    add_force(&mut cols[1], &mut ed, f);
                }
            });
        });
    if !open {
        *ed = TableEditor::default();
        *save_name = None;
    }
    Ok(())
}

fn toolbar(
    ui: &mut egui::Ui,
    ed: &mut TableEditor,
    paths: &DataPaths,
    name: &mut String,
    request: &mut OpenRequest,
) {
    ui.horizontal(|ui| {
        let (can_undo, can_redo) = ed
            .editor
            .as_ref()
            .map_or((false, false), |e| (e.can_undo(), e.can_redo()));
        if ui
            .add_enabled(can_undo, egui::Button::new("Undo"))
            .clicked()
            && let Some(e) = ed.editor.as_mut()
        {
            e.undo();
        }
        if ui
            .add_enabled(can_redo, egui::Button::new("Redo"))
            .clicked()
            && let Some(e) = ed.editor.as_mut()
        {
            e.redo();
        }
        ui.separator();
        ui.selectable_value(&mut ed.tool, Tool::Select, "Select and move");
        ui.selectable_value(&mut ed.tool, Tool::AddTerrain, "Add terrain");
        ui.selectable_value(&mut ed.tool, Tool::AddObjective, "Add objective");
        if ed.tool == Tool::AddTerrain {
            egui::ComboBox::from_id_salt("kind")
                .selected_text(format!("{:?}", KINDS[ed.kind]))
                .show_ui(ui, |ui| {
                    for (i, k) in KINDS.iter().enumerate() {
                        ui.selectable_value(&mut ed.kind, i, format!("{k:?}"));
                    }
                });
            let (a, b) = if linear(KINDS[ed.kind]) {
                ("long", "wide")
            } else {
                ("×", "cm")
            };
            ui.add(
                egui::DragValue::new(&mut ed.size.0)
                    .range(1.0..=200.0)
                    .speed(0.5),
            );
            ui.label(a);
            ui.add(
                egui::DragValue::new(&mut ed.size.1)
                    .range(0.5..=200.0)
                    .speed(0.5),
            );
            ui.label(b);
        }
        ui.separator();
        ui.label("Snap");
        egui::ComboBox::from_id_salt("snap")
            .selected_text(if ed.snap > 0.0 {
                format!("{} cm", ed.snap)
            } else {
                "off".into()
            })
            .show_ui(ui, |ui| {
                for s in [0.0, 0.5, 1.0, 5.0] {
                    ui.selectable_value(
                        &mut ed.snap,
                        s,
                        if s > 0.0 {
                            format!("{s} cm")
                        } else {
                            "off".into()
                        },
                    );
                }
            });
        ui.separator();
        ui.label("Save as");
        ui.text_edit_singleline(name);
        if ui.button("Save").clicked() {
            let dir = paths
                .own
                .clone()
                .unwrap_or_else(crate::paths::own_scenarios_dir);
            if let Err(e) = ed.save_as(&dir, name) {
                ed.notice = Some(e);
            }
        }
        let saved = ed.path.clone();
        if ui
            .add_enabled(saved.is_some(), egui::Button::new("Play it"))
            .on_hover_text("Open the table as saved on the battle screen")
            .clicked()
            && let Some(p) = saved
        {
            request.path = Some(p);
            *ed = TableEditor::default();
        }
    });
    // The battle's title and length, as its briefing shows them. The title is taken when the
    // field is left (or Enter pressed), so it may be emptied and typed afresh.
    ui.horizontal(|ui| {
        let Some((title, mut turns)) = ed
            .editor
            .as_ref()
            .map(|e| (e.scenario_name().to_string(), e.turn_limit()))
        else {
            return;
        };
        ui.label("Title");
        let draft = ed.title_draft.get_or_insert(title.clone());
        let r = ui.add(egui::TextEdit::singleline(draft).desired_width(320.0));
        if r.lost_focus() {
            let new = ed.title_draft.take().unwrap_or_default();
            if new != title {
                ed.apply(Edit::SetName(new));
            }
        } else if !r.has_focus() {
            // Not being typed in: it shows the scenario's own (after an undo too).
            ed.title_draft = None;
        }
        ui.label("Turns");
        if ui
            .add(
                egui::DragValue::new(&mut turns)
                    .range(1..=sandtable_engine::scenario_check::MAX_TURNS)
                    .clamp_existing_to_range(false),
            )
            .changed()
        {
            ed.apply(Edit::SetTurnLimit(turns));
        }
    });
    if let Some(n) = &ed.notice {
        let colour = if n.starts_with("Refused") {
            egui::Color32::LIGHT_RED
        } else {
            egui::Color32::GRAY
        };
        ui.label(egui::RichText::new(n).color(colour));
    }
}

/// The table: terrain, deployment areas, objectives and pieces; click and drag.
fn canvas(ui: &mut egui::Ui, ed: &mut TableEditor, width: f32) {
    let Some(e) = ed.editor.as_ref() else { return };
    let (tw, td) = e.table();
    let k = width / tw.max(1.0);
    let (rect, response) =
        ui.allocate_exact_size(egui::vec2(width, td * k), egui::Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    let at = |x: f32, y: f32| egui::pos2(rect.left() + x * k, rect.bottom() - y * k);
    let table_of = |p: egui::Pos2| ((p.x - rect.left()) / k, (rect.bottom() - p.y) / k);
    // The drag in progress shows the selection where it would go.
    let drag = if response.dragged() {
        let d = response.drag_delta();
        let total = ui.ctx().input(|i| {
            i.pointer
                .press_origin()
                .zip(i.pointer.interact_pos())
                .map(|(a, b)| b - a)
        });
        let _ = d;
        total.map(|t| (t.x / k, -t.y / k))
    } else {
        None
    };
    let offset = |sel: Selection| -> (f32, f32) {
        match (&ed.selected, drag) {
            (Some(s), Some(d)) if *s == sel => d,
            _ => (0.0, 0.0),
        }
    };
    painter.rect_filled(rect, 2.0, palette::egui_rgb(palette::TABLE));
    let mut order: Vec<usize> = (0..e.terrain().len()).collect();
    order.sort_by(|a, b| {
        palette::terrain_layer(e.terrain()[*a].kind)
            .total_cmp(&palette::terrain_layer(e.terrain()[*b].kind))
    });
    for i in order {
        let t = &e.terrain()[i];
        let (dx, dy) = offset(Selection::Terrain(i));
        let selected = ed.selected == Some(Selection::Terrain(i));
        for poly in shape_polygons(&t.shape) {
            let pts: Vec<egui::Pos2> = poly.iter().map(|v| at(v.x + dx, v.y + dy)).collect();
            super::thumbnail::fill(
                &painter,
                pts.clone(),
                palette::egui_rgb(palette::terrain(t.kind)),
            );
            if selected {
                painter.add(egui::Shape::closed_line(
                    pts,
                    egui::Stroke::new(2.0, egui::Color32::WHITE),
                ));
            }
        }
    }
    for (side, (_, _, zone)) in e.sides().iter().enumerate() {
        if let Some(z) = zone {
            for poly in shape_polygons(z) {
                let pts: Vec<egui::Pos2> = poly.iter().map(|v| at(v.x, v.y)).collect();
                painter.add(egui::Shape::closed_line(
                    pts,
                    egui::Stroke::new(2.0, palette::side_egui(side)),
                ));
            }
        }
    }
    for (i, o) in e.objectives().iter().enumerate() {
        let (dx, dy) = offset(Selection::Objective(i));
        let c = at(o.position.0 + dx, o.position.1 + dy);
        let selected = ed.selected == Some(Selection::Objective(i));
        painter.circle_stroke(
            c,
            o.radius * k,
            egui::Stroke::new(if selected { 3.0 } else { 2.0 }, egui::Color32::GOLD),
        );
        painter.text(
            c,
            egui::Align2::CENTER_CENTER,
            &o.name,
            egui::FontId::proportional(12.0),
            egui::Color32::GOLD,
        );
    }
    for p in e.pieces() {
        let (dx, dy) = offset(Selection::Piece(p.id.clone()));
        let selected = ed.selected == Some(Selection::Piece(p.id.clone()));
        for b in &p.bases {
            let pts: Vec<egui::Pos2> = b.iter().map(|v| at(v.x + dx, v.y + dy)).collect();
            painter.add(egui::Shape::convex_polygon(
                pts,
                palette::side_egui(p.side),
                egui::Stroke::new(
                    if selected { 2.0 } else { 0.5 },
                    if selected {
                        egui::Color32::WHITE
                    } else {
                        egui::Color32::BLACK
                    },
                ),
            ));
        }
    }
    painter.rect_stroke(
        rect,
        2.0,
        egui::Stroke::new(1.0, egui::Color32::from_gray(90)),
        egui::StrokeKind::Outside,
    );
    if response.drag_started()
        && ed.tool == Tool::Select
        && let Some(p) = ui.ctx().input(|i| i.pointer.press_origin())
    {
        ed.selected = ed.pick(table_of(p));
    }
    if response.drag_stopped()
        && ed.tool == Tool::Select
        && let Some((dx, dy)) = ui.ctx().input(|i| {
            i.pointer
                .press_origin()
                .zip(i.pointer.interact_pos())
                .map(|(a, b)| ((b.x - a.x) / k, (a.y - b.y) / k))
        })
    {
        ed.drag_selected(dx, dy);
    } else if response.clicked()
        && let Some(p) = response.interact_pointer_pos()
    {
        ed.click(table_of(p));
    }
}

/// The selection's numbers, to set exactly, and Delete.
fn inspector(ui: &mut egui::Ui, ed: &mut TableEditor) {
    let Some(e) = ed.editor.as_ref() else { return };
    ui.label(
        egui::RichText::new(format!(
            "{} × {} cm · {} turns · {} terrain · {} objectives · {} pieces",
            e.table().0,
            e.table().1,
            e.turn_limit(),
            e.terrain().len(),
            e.objectives().len(),
            e.pieces().len()
        ))
        .weak(),
    );
    ui.add_space(6.0);
    let mut edit = None;
    match ed.selected.clone() {
        None => {
            ui.label("Click a piece, an objective or terrain to select it; drag to move it. With Add terrain or Add objective, click the table where it goes.");
        }
        Some(Selection::Piece(id)) => {
            if let Some(p) = e.pieces().iter().find(|p| p.id == id) {
                ui.heading(&p.label);
                ui.label(egui::RichText::new(format!("{} · side {}", p.id, p.side + 1)).weak());
                let (mut x, mut y, mut f) = (p.position.0, p.position.1, p.facing);
                let changed = numbers(ui, &mut [("x", &mut x), ("y", &mut y), ("facing", &mut f)]);
                if changed {
                    edit = Some(Edit::PlacePiece {
                        id: id.clone(),
                        position: (x, y),
                        facing: f.rem_euclid(360.0),
                    });
                }
            }
        }
        Some(Selection::Objective(i)) => {
            if let Some(o) = e.objectives().get(i) {
                ui.heading(&o.name);
                let mut o2 = o.clone();
                let mut vp = o2.vp as f32;
                let changed = numbers(
                    ui,
                    &mut [
                        ("x", &mut o2.position.0),
                        ("y", &mut o2.position.1),
                        ("radius", &mut o2.radius),
                        ("VP", &mut vp),
                    ],
                );
                o2.vp = vp.max(0.0) as u32;
                if changed {
                    edit = Some(Edit::SetObjective(i, o2));
                }
            }
        }
        Some(Selection::Terrain(i)) => {
            if let Some(t) = e.terrain().get(i) {
                ui.heading(format!(
                    "{:?}{}",
                    t.kind,
                    t.name
                        .as_deref()
                        .map(|n| format!(": {n}"))
                        .unwrap_or_default()
                ));
                let mut t2 = t.clone();
                let changed = match &mut t2.shape {
                    ShapeSpec::Rect {
                        center,
                        size,
                        rotation,
                    } => numbers(
                        ui,
                        &mut [
                            ("x", &mut center.0),
                            ("y", &mut center.1),
                            ("width", &mut size.0),
                            ("depth", &mut size.1),
                            ("rotation", rotation),
                        ],
                    ),
                    other => {
                        // A polygon or strip has no angle or size of its own: buttons turn and
                        // grow it by a step about its middle, one edit a click.
                        let (mut x, mut y) = middle(other);
                        let (x0, y0) = (x, y);
                        let mut width = match other {
                            ShapeSpec::Strip { width, .. } => Some(*width),
                            _ => None,
                        };
                        let mut fields: Vec<(&str, &mut f32)> = vec![("x", &mut x), ("y", &mut y)];
                        if let Some(w) = width.as_mut() {
                            fields.push(("width", w));
                        }
                        let mut c = numbers(ui, &mut fields);
                        let mut s = sandtable_engine::editor::translated(other, x - x0, y - y0);
                        if let (ShapeSpec::Strip { width: w, .. }, Some(nw)) = (&mut s, width) {
                            *w = nw.max(0.5);
                        }
                        ui.horizontal(|ui| {
                            ui.label("Turn");
                            for (label, deg) in [
                                ("⟲ 15°", -15.0),
                                ("⟲ 1°", -1.0),
                                ("⟳ 1°", 1.0),
                                ("⟳ 15°", 15.0),
                            ] {
                                if ui.button(label).clicked() {
                                    s = sandtable_engine::editor::rotated(&s, deg);
                                    c = true;
                                }
                            }
                        });
                        ui.horizontal(|ui| {
                            ui.label("Size");
                            for (label, f) in [("−10 %", 0.9), ("+10 %", 1.0 / 0.9)] {
                                if ui.button(label).clicked() {
                                    s = sandtable_engine::editor::scaled(&s, f);
                                    c = true;
                                }
                            }
                        });
                        if c {
                            *other = s;
                        }
                        c
                    }
                };
                if changed {
                    edit = Some(Edit::SetTerrain(i, t2));
                }
            }
        }
    }
    if ed.selected.is_some() && ui.button("Delete").clicked() {
        ed.delete_selected();
    }
    if let Some(e) = edit {
        ed.apply(e);
    }
    ui.add_space(10.0);
    ui.label(egui::RichText::new("Deployment areas").strong());
    let sides = ed.editor.as_ref().map(|e| e.sides()).unwrap_or_default();
    let (tw, td) = ed.editor.as_ref().map_or((0.0, 0.0), |e| e.table());
    for (i, (name, edge, zone)) in sides.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(name).color(palette::side_egui(i)));
            let across = matches!(edge, TableEdge::North | TableEdge::South);
            let depth = match zone {
                Some(ShapeSpec::Rect { size, .. }) => {
                    if across {
                        size.1
                    } else {
                        size.0
                    }
                }
                _ => 0.0,
            };
            let mut d = depth;
            let most = if across { td } else { tw };
            ui.add(
                egui::DragValue::new(&mut d)
                    .range(0.0..=most)
                    .suffix(" cm deep"),
            );
            ui.label(format!("from the {edge:?} edge").to_lowercase());
            if (d - depth).abs() > 1e-3 {
                // A band along the side's own edge.
                let shape = (d > 0.0)
                    .then_some(match edge {
                        TableEdge::South => ((tw / 2.0, d / 2.0), (tw, d)),
                        TableEdge::North => ((tw / 2.0, td - d / 2.0), (tw, d)),
                        TableEdge::West => ((d / 2.0, td / 2.0), (d, td)),
                        TableEdge::East => ((tw - d / 2.0, td / 2.0), (d, td)),
                    })
                    .map(|(center, size)| ShapeSpec::Rect {
                        center,
                        size,
                        rotation: 0.0,
                    });
                ed.apply(Edit::SetDeployment(i, shape));
            }
        });
    }
}

/// Units from a force file, added to a side along its own edge.
fn add_force(ui: &mut egui::Ui, ed: &mut TableEditor, setup: &crate::setup::BattleSetup) {
    if setup.forces.is_empty() {
        return;
    }
    ui.add_space(10.0);
    ui.label(egui::RichText::new("Units from a force").strong());
    let sides = ed.editor.as_ref().map(|e| e.sides()).unwrap_or_default();
    ed.force_pick = ed.force_pick.min(setup.forces.len() - 1);
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("editor force")
            .selected_text(
                setup.forces[ed.force_pick]
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            )
            .show_ui(ui, |ui| {
                for (i, f) in setup.forces.iter().enumerate() {
                    let name = f
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    ui.selectable_value(&mut ed.force_pick, i, name);
                }
            });
        ui.label("to");
        for (i, (name, _, _)) in sides.iter().enumerate() {
            ui.radio_value(&mut ed.force_side, i, name);
        }
        if ui
            .button("Add")
            .on_hover_text("The force's units (not its commanders), in a row along the side's own edge; the force's army list must be the side's")
            .clicked()
        {
            match setup.scenario_units(&setup.forces[ed.force_pick]) {
                Ok(text) => {
                    let side = ed.force_side;
                    ed.add_units(side, &text);
                }
                Err(e) => ed.notice = Some(format!("Refused: {e}")),
            }
        }
    });
}

/// A row of labelled numbers; true if one changed (edits in a row to one thing are one undo
/// step).
fn numbers(ui: &mut egui::Ui, fields: &mut [(&str, &mut f32)]) -> bool {
    let mut changed = false;
    egui::Grid::new("numbers").num_columns(2).show(ui, |ui| {
        for (label, v) in fields.iter_mut() {
            ui.label(*label);
            let r = ui.add(egui::DragValue::new(*v).speed(0.5).max_decimals(2));
            changed |= r.changed();
            ui.end_row();
        }
    });
    changed
}
