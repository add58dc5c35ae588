//! The "Set up a battle" window ([`crate::setup::BattleSetup`]): build a force from an army
//! list's card, then run the pre-battle sequence between two forces with the curtain between two
//! players, and start the battle it sets up.

use crate::battle::SeatKind;
use crate::palette;
use crate::paths::DataPaths;
use crate::preview::Preview;
use crate::screens::OpenRequest;
use crate::setup::{BattleSetup, SetupTab};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_engine::prebattle::SetupTable;

pub(super) fn setup_window(
    mut contexts: EguiContexts,
    setup: Option<ResMut<BattleSetup>>,
    mut request: ResMut<OpenRequest>,
    paths: Res<DataPaths>,
) -> Result {
    let Some(mut setup) = setup else {
        return Ok(());
    };
    if !setup.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let size = ctx.content_rect().size();
    egui::Window::new("Set up a battle")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .fixed_size([size.x - 80.0, size.y - 90.0])
        .min_size([size.x - 80.0, size.y - 90.0])
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.set_min_height(size.y - 150.0);
            ui.horizontal(|ui| {
                ui.selectable_value(&mut setup.tab, SetupTab::Build, "1. Build a force");
                ui.selectable_value(
                    &mut setup.tab,
                    SetupTab::Sequence,
                    "2. The pre-battle sequence",
                );
            });
            ui.separator();
            match setup.tab {
                SetupTab::Build => build_tab(ui, &mut setup, &paths),
                SetupTab::Sequence => sequence_tab(ui, &mut setup, &mut request, &paths),
            }
        });
    if !open {
        setup.open = false;
    }
    Ok(())
}

fn build_tab(ui: &mut egui::Ui, setup: &mut BattleSetup, paths: &DataPaths) {
    let lists = setup.lists();
    if lists.is_empty() {
        ui.label("No army list with a card is installed (assets/armies).");
        return;
    }
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        ui.horizontal(|ui| {
            ui.label("Army list");
            let current = lists
                .iter()
                .find(|(id, _)| *id == setup.draft.list)
                .map_or_else(|| setup.draft.list.clone(), |(_, n)| n.clone());
            let mut chosen = None;
            egui::ComboBox::from_id_salt("army list")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (id, name) in &lists {
                        if ui.selectable_label(*id == setup.draft.list, name).clicked() {
                            chosen = Some(id.clone());
                        }
                    }
                });
            if let Some(id) = chosen
                && id != setup.draft.list
            {
                setup.new_force(&id);
            }
        });
        ui.horizontal(|ui| {
            ui.label("Name");
            if ui.text_edit_singleline(&mut setup.draft.name).changed() {
                setup.refresh();
            }
        });
        let upgrades = setup.upgrades();
        if !upgrades.is_empty() {
            ui.horizontal(|ui| {
                ui.label("Commander");
                let mut up = setup.draft.upgrade.clone();
                egui::ComboBox::from_id_salt("upgrade")
                    .selected_text(
                        up.as_ref()
                            .and_then(|u| upgrades.iter().find(|(id, _)| id == u))
                            .map_or("as on the card".to_string(), |(_, l)| l.clone()),
                    )
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut up, None, "as on the card");
                        for (id, label) in &upgrades {
                            ui.selectable_value(&mut up, Some(id.clone()), label);
                        }
                    });
                if up != setup.draft.upgrade {
                    setup.draft.upgrade = up;
                    setup.refresh();
                }
            });
        }
        ui.add_space(6.0);
        egui::ScrollArea::vertical()
            .id_salt("card rows")
            .show(ui, |ui| {
                let mut section = String::new();
                for row in setup.rows() {
                    if row.section != section {
                        section = row.section.clone();
                        ui.add_space(4.0);
                        ui.label(egui::RichText::new(&section).strong());
                    }
                    let taken = setup
                        .draft
                        .picks
                        .iter()
                        .find(|(k, _)| *k == row.key)
                        .map(|p| p.1);
                    ui.horizontal(|ui| {
                        let mut on = taken.is_some();
                        let r = ui
                            .add_enabled(!row.required, egui::Checkbox::new(&mut on, &row.name))
                            .on_hover_text(if row.required {
                                "In the core: every force fields it (BFS-LST-3)"
                            } else {
                                "Take this row of the card"
                            });
                        if r.changed() {
                            setup.toggle(&row.key, on);
                        }
                        if let Some(mut bases) = taken
                            && row.max_bases > row.min_bases
                        {
                            let r = ui.add(
                                egui::DragValue::new(&mut bases)
                                    .range(row.min_bases..=row.max_bases)
                                    .suffix(" bases"),
                            );
                            if r.changed() {
                                setup.set_bases(&row.key, bases);
                            }
                        }
                        ui.label(egui::RichText::new(&row.detail).weak());
                    });
                }
            });
        let ui = &mut cols[1];
        ui.heading(&setup.draft.name);
        for line in setup.report.lines.clone() {
            super::rules::rich(ui, &line);
        }
        ui.add_space(6.0);
        if setup.report.problems.is_empty() {
            ui.label(
                egui::RichText::new("✔ The force keeps to its card.")
                    .color(egui::Color32::LIGHT_GREEN),
            );
        } else {
            for p in setup.report.problems.clone() {
                ui.label(egui::RichText::new(format!("⚠ {p}")).color(egui::Color32::LIGHT_RED));
            }
        }
        ui.add_space(10.0);
        ui.horizontal(|ui| {
            if ui
                .add_enabled(
                    setup.report.problems.is_empty(),
                    egui::Button::new("Save the force"),
                )
                .on_hover_text("Kept among your own forces, for the pre-battle sequence")
                .clicked()
                && let Err(e) = setup.save_force(paths)
            {
                setup.notice = Some(e);
            }
            let mut open = None;
            egui::ComboBox::from_id_salt("open force")
                .selected_text("Open a force…")
                .show_ui(ui, |ui| {
                    for f in &setup.forces {
                        if ui.selectable_label(false, stem(f)).clicked() {
                            open = Some(f.clone());
                        }
                    }
                });
            if let Some(f) = open {
                setup.load_force(&f);
            }
        });
        if let Some(n) = &setup.notice {
            ui.label(egui::RichText::new(n).weak());
        }
    });
}

fn stem(p: &std::path::Path) -> String {
    p.file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

fn sequence_tab(
    ui: &mut egui::Ui,
    setup: &mut BattleSetup,
    request: &mut OpenRequest,
    paths: &DataPaths,
) {
    if !setup.running() {
        ui.label("Choose two forces and who plays each; the sequence rolls the scenario, the effects and the terrain, then each side deploys (BFS-SCN-9).");
        ui.add_space(6.0);
        egui::Grid::new("sides").num_columns(4).show(ui, |ui| {
            for side in 0..2 {
                ui.label(
                    egui::RichText::new(if side == 0 {
                        "First side"
                    } else {
                        "Second side"
                    })
                    .color(palette::side_egui(side))
                    .strong(),
                );
                let mut pick = setup.chosen[side];
                egui::ComboBox::from_id_salt(("force", side))
                    .selected_text(setup.forces.get(pick).map(|p| stem(p)).unwrap_or_default())
                    .show_ui(ui, |ui| {
                        for (i, f) in setup.forces.iter().enumerate() {
                            ui.selectable_value(&mut pick, i, stem(f));
                        }
                    });
                setup.chosen[side] = pick;
                ui.radio_value(&mut setup.seats[side], SeatKind::Human, "Player");
                ui.radio_value(&mut setup.seats[side], SeatKind::Computer, "Computer");
                ui.end_row();
            }
        });
        for (name, label) in setup.offered_options() {
            let mut on = setup.options.iter().any(|o| o == name);
            if ui
                .checkbox(&mut on, *label)
                .on_hover_text("An optional rule of the book, off unless both players agree")
                .changed()
            {
                setup.options.retain(|o| o != name);
                if on {
                    setup.options.push(name.to_string());
                }
            }
        }
        ui.add_space(8.0);
        if ui
            .button(egui::RichText::new("Begin the sequence").size(17.0))
            .clicked()
        {
            let seed = setup.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(1, |d| d.as_nanos() as u64)
            });
            if let Err(e) = setup.begin(paths, seed) {
                setup.error = Some(e);
            }
        }
        if let Some(e) = &setup.error {
            ui.label(egui::RichText::new(e).color(egui::Color32::LIGHT_RED));
        }
        return;
    }
    let Some(step) = setup.step() else { return };
    if let Some(seat) = setup.curtain() {
        ui.add_space(120.0);
        ui.vertical_centered(|ui| {
            ui.label(
                egui::RichText::new(format!("Pass the screen to {}", setup.side_name(seat)))
                    .size(28.0)
                    .color(palette::side_egui(seat as usize))
                    .strong(),
            );
            ui.label("The next decision is theirs, and what they see may be secret from you.");
            ui.add_space(10.0);
            if ui
                .button(
                    egui::RichText::new(format!("I am {}: show my choices", setup.side_name(seat)))
                        .size(18.0),
                )
                .clicked()
            {
                setup.lift_curtain();
            }
        });
        return;
    }
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new(&step.title).size(20.0).strong());
        super::rules::rich(ui, &format!("({})", step.rule));
        if let Some(v) = setup.viewer {
            ui.label(
                egui::RichText::new(format!("· at the screen: {}", setup.side_name(v)))
                    .color(palette::side_egui(v as usize)),
            );
        }
    });
    ui.label(egui::RichText::new(&step.explain).weak());
    ui.separator();
    let choices = if step.to_act.is_some() && step.to_act == setup.viewer {
        setup.choices()
    } else {
        Vec::new()
    };
    // Placements are grouped by what is placed; the group in hand shows its places as dots.
    let mut groups: Vec<String> = Vec::new();
    for c in choices.iter().filter(|c| c.refused.is_none()) {
        if let Some(g) = &c.group
            && !groups.contains(g)
        {
            groups.push(g.clone());
        }
    }
    if !setup
        .place_group
        .as_ref()
        .is_some_and(|g| groups.contains(g))
    {
        setup.place_group = groups.first().cloned();
    }
    let dots: Vec<(f32, f32)> = choices
        .iter()
        .filter(|c| c.refused.is_none() && c.group.is_some() && c.group == setup.place_group)
        .filter_map(|c| c.at)
        .collect();
    ui.columns(2, |cols| {
        let left = &mut cols[0];
        if let Some(t) = setup.table() {
            let w = left
                .available_width()
                .min(left.available_height() - 120.0)
                .max(200.0);
            if let Some(at) = draw_table(left, &t, w, &dots)
                && let Err(e) = setup.place_at(at)
            {
                setup.error = Some(e);
            }
        }
        for line in setup.summary() {
            left.label(line);
        }
        let right = &mut cols[1];
        if step.to_act.is_none() {
            right.label("The battle is set up.");
            if right
                .button(egui::RichText::new("▶  Start the battle").size(18.0))
                .clicked()
                && let Err(e) = setup.start_battle(request)
            {
                setup.error = Some(e);
            }
        } else if step.to_act == setup.viewer {
            right.label(egui::RichText::new("Your decision").strong());
            if !groups.is_empty() {
                right.horizontal(|ui| {
                    ui.label("Place");
                    let mut g = setup.place_group.clone();
                    egui::ComboBox::from_id_salt("place group")
                        .selected_text(g.clone().unwrap_or_default())
                        .show_ui(ui, |ui| {
                            for name in &groups {
                                ui.selectable_value(&mut g, Some(name.clone()), name);
                            }
                        });
                    setup.place_group = g;
                });
                right.label(
                    egui::RichText::new(
                        "then click the table where it goes: the white dots are the places the rules allow.",
                    )
                    .weak(),
                );
            }
            if right
                .button("Let the computer choose for me")
                .on_hover_text("The same sensible choice the computer would make")
                .clicked()
                && let Some(v) = setup.viewer
            {
                setup.choose_for(v, step.title.len() as u64);
            }
            let (placed, others): (Vec<_>, Vec<_>) =
                choices.into_iter().partition(|c| c.group.is_some());
            if !placed.is_empty() {
                right.collapsing(
                    format!("…or choose one of the {} places from a list", placed.len()),
                    |ui| {
                        egui::ScrollArea::vertical()
                            .id_salt("placements")
                            .max_height(200.0)
                            .show(ui, |ui| {
                                for c in &placed {
                                    choice_button(ui, setup, c);
                                }
                            });
                    },
                );
            }
            egui::ScrollArea::vertical()
                .id_salt("choices")
                .max_height(right.available_height() * 0.5)
                .show(right, |ui| {
                    for c in &others {
                        choice_button(ui, setup, c);
                    }
                });
        } else {
            right.label("The computer is deciding…");
        }
        if let Some(e) = &setup.error {
            right.label(egui::RichText::new(e).color(egui::Color32::LIGHT_RED));
        }
        right.separator();
        right.label(egui::RichText::new("The sequence so far").strong());
        egui::ScrollArea::vertical()
            .id_salt("record")
            .stick_to_bottom(true)
            .show(right, |ui| {
                for line in setup.log() {
                    let dice = if line.dice.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "  🎲 {}",
                            line.dice
                                .iter()
                                .map(u8::to_string)
                                .collect::<Vec<_>>()
                                .join(" ")
                        )
                    };
                    super::rules::rich(ui, &format!("{} ({}){dice}", line.text, line.rule));
                }
            });
    });
}

/// A choice as a button; a refused one greyed, its reason on hover.
fn choice_button(
    ui: &mut egui::Ui,
    setup: &mut BattleSetup,
    c: &sandtable_engine::prebattle::SetupChoice,
) {
    let b = ui.add_enabled(c.refused.is_none(), egui::Button::new(&c.label));
    let b = match &c.refused {
        Some(why) => b.on_disabled_hover_text(format!("{why} ({})", c.rule)),
        None => b.on_hover_text(c.rule.clone()),
    };
    if b.clicked()
        && let Err(e) = setup.choose(&c.key)
    {
        setup.error = Some(e);
    }
}

/// The sequence's table: terrain, deployment areas outlined in their side's colour, the bases
/// this seat may see, objectives, and `dots` where the placements in hand may go. Returns where
/// (cm) the table was clicked.
fn draw_table(
    ui: &mut egui::Ui,
    t: &SetupTable,
    width: f32,
    dots: &[(f32, f32)],
) -> Option<(f32, f32)> {
    let preview = Preview {
        size: sandtable_geometry::Vec2::new(t.size.0, t.size.1),
        terrain: t.terrain.clone(),
        bases: t.bases.clone(),
    };
    let r = super::thumbnail::show(ui, &preview, width);
    // The table as the thumbnail drew it: `width` wide from the response's corner.
    let k = width / t.size.0.max(1.0);
    let rect = egui::Rect::from_min_size(r.rect.min, egui::vec2(width, t.size.1 * k));
    let painter = ui.painter_at(rect);
    let at =
        |v: sandtable_geometry::Vec2| egui::pos2(rect.left() + v.x * k, rect.bottom() - v.y * k);
    for (side, poly) in &t.zones {
        let pts: Vec<egui::Pos2> = poly.iter().map(|v| at(*v)).collect();
        painter.add(egui::Shape::closed_line(
            pts,
            egui::Stroke::new(2.0, palette::side_egui(*side as usize)),
        ));
    }
    for (c, radius) in &t.objectives {
        painter.circle_stroke(
            at(*c),
            radius * k,
            egui::Stroke::new(2.0, egui::Color32::GOLD),
        );
    }
    for d in dots {
        painter.circle_filled(
            at(sandtable_geometry::Vec2::new(d.0, d.1)),
            3.0,
            egui::Color32::WHITE,
        );
    }
    // Where the table was clicked, in cm, for placing what is in hand.
    let click = ui.interact(rect, egui::Id::new("sequence table"), egui::Sense::click());
    let p = click.interact_pointer_pos().filter(|_| click.clicked())?;
    Some(((p.x - rect.left()) / k, (rect.bottom() - p.y) / k))
}
