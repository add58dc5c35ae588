//! egui 0.36 shows panels inside a `Ui`; this makes the full-window one the panels live in.

use bevy_egui::egui;

/// A `Ui` covering the whole window on the background layer, for panels.
pub fn root_ui(ctx: &egui::Context) -> egui::Ui {
    egui::Ui::new(
        ctx.clone(),
        "root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    )
}
