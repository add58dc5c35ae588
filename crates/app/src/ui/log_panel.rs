//! The battle log: every event in plain words with its dice, newest last, filterable by unit.
//! Lines are redacted for the player on screen (the other side's face-down orders stay hidden).

use crate::battle::Battle;
use bevy_egui::egui;
use sandtable_bfs::UnitId;
use sandtable_bfs::narrate;

pub fn show(ui: &mut egui::Ui, battle: &Battle, filter: &mut Option<UnitId>) {
    let game = &battle.game;
    ui.horizontal(|ui| {
        ui.label(egui::RichText::new("Battle log").strong());
        egui::ComboBox::from_id_salt("log_filter")
            .selected_text(filter.map_or("all units".to_string(), |u| game.unit(u).name.clone()))
            .show_ui(ui, |ui| {
                ui.selectable_value(filter, None, "all units");
                for u in &game.units {
                    ui.selectable_value(filter, Some(u.id), &u.name);
                }
            });
    });
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let mut turn = 0;
            for (t, e) in &battle.log {
                if let Some(f) = filter
                    && !narrate::units_in(e).contains(f)
                {
                    continue;
                }
                if *t != turn {
                    turn = *t;
                }
                let shown = battle.visible_event(e);
                let text = narrate::describe(battle.session.state(), &shown);
                let rich = match e {
                    sandtable_bfs::Event::TurnBegan { .. } => egui::RichText::new(text).strong(),
                    sandtable_bfs::Event::PhaseBegan { .. } => {
                        egui::RichText::new(text).italics().weak()
                    }
                    _ => egui::RichText::new(text),
                };
                ui.label(rich);
            }
        });
}
