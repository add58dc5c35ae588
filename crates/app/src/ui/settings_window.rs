//! The settings window (the "Settings" button on the start screen and in the phase bar): every
//! change is applied at once and kept in `settings.ron` (see [`crate::settings`]).

use crate::settings::{PACE_RANGE, Settings, SettingsFile, TapeUnit};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};

/// Whether the settings window is open.
#[derive(Resource, Debug, Default)]
pub struct SettingsWindow {
    pub open: bool,
}

/// The interface sizes offered (egui and the table grow together: it is the window's scale).
const SCALES: [f32; 7] = [0.75, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0];

pub(super) fn settings_window(
    mut contexts: EguiContexts,
    mut shown: ResMut<SettingsWindow>,
    mut settings: ResMut<Settings>,
    mut file: ResMut<SettingsFile>,
) -> Result {
    if !shown.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut edited = settings.clone();
    let mut open = true;
    egui::Window::new("Settings")
        .id(egui::Id::new("settings window"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_pos(egui::pos2(320.0, 120.0))
        .show(ctx, |ui| {
            egui::Grid::new("settings grid")
                .num_columns(2)
                .spacing([16.0, 10.0])
                .show(ui, |ui| {
                    ui.label("Interface size");
                    egui::ComboBox::from_id_salt("ui scale")
                        .selected_text(format!("{:.0} %", edited.ui_scale * 100.0))
                        .show_ui(ui, |ui| {
                            for s in SCALES {
                                ui.selectable_value(
                                    &mut edited.ui_scale,
                                    s,
                                    format!("{:.0} %", s * 100.0),
                                );
                            }
                        });
                    ui.end_row();

                    ui.label("Tape measures in");
                    ui.horizontal(|ui| {
                        for u in [TapeUnit::Ruleset, TapeUnit::Centimetres, TapeUnit::Inches] {
                            ui.radio_value(&mut edited.tape_unit, u, u.label());
                        }
                    });
                    ui.end_row();

                    ui.label("Computer's pace");
                    ui.add(
                        egui::Slider::new(&mut edited.computer_pace_s, PACE_RANGE)
                            .step_by(0.05)
                            .suffix(" s between commands"),
                    );
                    ui.end_row();

                    ui.label("Before a move or charge");
                    ui.checkbox(&mut edited.confirm_commit, "ask \"Commit?\"");
                    ui.end_row();

                    ui.label("The coach");
                    ui.checkbox(
                        &mut edited.coach,
                        "point out a clear blunder before it is carried out",
                    )
                    .on_hover_text("The computer's judgement, from your side's view only; you always decide");
                    ui.end_row();

                    ui.label("The sides' colours");
                    ui.vertical(|ui| {
                        for p in crate::palette::SidePalette::ALL {
                            ui.horizontal(|ui| {
                                ui.radio_value(&mut edited.side_palette, p, p.label());
                                for c in p.colours() {
                                    ui.label(
                                        egui::RichText::new("■■")
                                            .color(crate::palette::egui_rgb(c)),
                                    );
                                }
                            });
                        }
                    });
                    ui.end_row();
                });
            ui.add_space(6.0);
            let weak = |t: String| egui::RichText::new(t).weak();
            match &file.path {
                Some(p) => ui.label(weak(format!("Kept in {}", p.display()))),
                None => ui.label(weak("Not kept: this run was started for a screenshot.".into())),
            };
            if let Some(p) = &file.problem {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 170, 120),
                    format!("⚠ The settings file could not be used, so these are the defaults: {p}. It is kept as settings.ron.bad when you change a setting."),
                );
            }
            if let Some(e) = &file.save_error {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 170, 120),
                    format!("⚠ Could not keep the settings: {e}"),
                );
            }
        });
    if edited != *settings {
        file.keep(&edited);
        *settings = edited;
    }
    shown.open = open;
    Ok(())
}

/// The window's scale factor follows the interface size.
pub(super) fn apply_scale(
    settings: Res<Settings>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
) {
    if !settings.is_changed() {
        return;
    }
    for mut w in &mut windows {
        if w.resolution.scale_factor_override() != Some(settings.ui_scale) {
            w.resolution
                .set_scale_factor_override(Some(settings.ui_scale));
        }
    }
}
