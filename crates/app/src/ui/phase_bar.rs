//! The phase bar: turn, phase and step (BFS-SEQ-2), who is acting, what is expected, and the
//! "next" action, offered only when the rules allow it and otherwise saying why not.

use crate::actions::next_command;
use crate::battle::Battle;
use crate::palette;
use bevy_egui::egui;

pub enum BarAction {
    None,
    Menu,
    Next,
    Fit,
    ToggleTape,
    ToggleUnits,
    Undo,
    Redo,
    Save,
    Open,
}

pub fn show(ui: &mut egui::Ui, battle: &Battle, tape_on: bool, unit_label: &str) -> BarAction {
    let mut action = BarAction::None;
    let game = &battle.game;
    let prompt = battle.prompt();
    ui.horizontal(|ui| {
        if ui
            .button("Menu")
            .on_hover_text("Back to the scenario list")
            .clicked()
        {
            action = BarAction::Menu;
        }
        ui.label(
            egui::RichText::new(format!(
                "Turn {} of {}",
                game.turn.number, game.info.turn_limit
            ))
            .strong(),
        );
        ui.separator();
        ui.label(egui::RichText::new(format!("{} · {}", prompt.phase, prompt.step)).strong());
        if let Some(seat) = prompt.seat {
            ui.label(
                egui::RichText::new(format!("■ {}", game.sides[seat as usize].name))
                    .color(palette::side_egui(seat as usize))
                    .strong(),
            );
        }
        ui.separator();
        if let Some(side) = battle.computer_to_decide() {
            ui.spinner();
            ui.label(
                egui::RichText::new(format!(
                    "The computer is deciding for {}…",
                    game.sides[side.0 as usize].name
                ))
                .italics(),
            );
        } else if let Some((cmd, label)) = next_command(game) {
            let legal = battle.check(&cmd);
            let button = ui.add_enabled(
                legal.is_ok(),
                egui::Button::new(egui::RichText::new(format!("{label}  (Enter)")).strong()),
            );
            let button = match &legal {
                Ok(()) => button.on_hover_text("Enter"),
                Err(e) => button.on_disabled_hover_text(e.to_string()),
            };
            if button.clicked() {
                action = BarAction::Next;
            }
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .button(unit_label)
                .on_hover_text("Tape in centimetres or inches (U)")
                .clicked()
            {
                action = BarAction::ToggleUnits;
            }
            if ui
                .selectable_label(tape_on, "Tape")
                .on_hover_text("Measuring tape (T): measuring is free (BFS-SCL-2)")
                .clicked()
            {
                action = BarAction::ToggleTape;
            }
            if ui
                .button("Fit")
                .on_hover_text("Fit the table (F)")
                .clicked()
            {
                action = BarAction::Fit;
            }
            ui.separator();
            if ui
                .button("Load")
                .on_hover_text("Load a saved battle (Ctrl+O)")
                .clicked()
            {
                action = BarAction::Open;
            }
            if ui
                .button("Save")
                .on_hover_text("Save (Ctrl+S); the battle also saves itself after every action")
                .clicked()
            {
                action = BarAction::Save;
            }
            if ui
                .add_enabled(battle.session.can_redo(), egui::Button::new("Redo"))
                .on_hover_text("Redo (Ctrl+Y)")
                .clicked()
            {
                action = BarAction::Redo;
            }
            if ui
                .add_enabled(battle.session.can_undo(), egui::Button::new("Undo"))
                .on_hover_text("Undo (Ctrl+Z)")
                .clicked()
            {
                action = BarAction::Undo;
            }
        });
    });
    ui.horizontal_wrapped(|ui| {
        super::rules::rich_styled(ui, &prompt.expected, |t| egui::RichText::new(t).weak());
        if let Some(n) = &battle.notice {
            // A refusal names its rule: the ID opens the rule's help.
            super::rules::rich_styled(ui, &format!("⚠ {n}"), |t| {
                egui::RichText::new(t).color(egui::Color32::from_rgb(255, 170, 120))
            });
        }
    });
    action
}
