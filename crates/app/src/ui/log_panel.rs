//! The battle log: every event in the ruleset's words, newest last, filterable by piece. Lines
//! are narrated for the player on screen (the other side's secrets stay hidden).

use crate::battle::Battle;
use bevy_egui::egui;
use sandtable_engine::PieceId;
use sandtable_engine::narration::LineStyle;

pub fn show(ui: &mut egui::Ui, battle: &Battle, filter: &mut Option<PieceId>) {
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Battle log").strong());
        let name = |p: PieceId| {
            battle
                .scene
                .piece(p)
                .map_or("a piece gone from the table".to_string(), |x| {
                    x.label.clone()
                })
        };
        egui::ComboBox::from_id_salt("log_filter")
            .selected_text(filter.map_or("everything".to_string(), name))
            .show_ui(ui, |ui| {
                ui.selectable_value(filter, None, "everything");
                for p in &battle.scene.pieces {
                    ui.selectable_value(filter, Some(p.id), &p.label);
                }
            });
    });
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (_, n) in &battle.log {
                if let Some(f) = filter
                    && !n.pieces.contains(f)
                {
                    continue;
                }
                let style = n.style;
                super::rules::rich_styled(ui, &n.text, |t| {
                    let r = egui::RichText::new(t);
                    match style {
                        LineStyle::Heading => r.strong(),
                        LineStyle::Aside => r.italics().weak(),
                        LineStyle::Plain => r,
                    }
                });
            }
        });
}
