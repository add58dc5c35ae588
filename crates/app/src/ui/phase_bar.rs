//! The phase bar: turn, phase and step, who is acting, what is expected (all from the ruleset's
//! prompt), and the "next" action, offered only when the rules allow it and otherwise saying why
//! not.

use crate::actions;
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
    /// Solo practice: take-backs keep (or stop keeping) the same dice.
    ToggleSameDice,
    Settings,
}

pub fn show(
    ui: &mut egui::Ui,
    battle: &Battle,
    tape_on: bool,
    unit_label: &str,
    why_open: &mut bool,
) -> BarAction {
    let mut action = BarAction::None;
    let prompt = battle.prompt();
    ui.horizontal(|ui| {
        if ui
            .button("Menu")
            .on_hover_text("Back to the scenario list")
            .clicked()
        {
            action = BarAction::Menu;
        }
        let turns = match prompt.turn_limit {
            Some(limit) => format!("Turn {} of {limit}", prompt.turn),
            None => format!("Turn {}", prompt.turn),
        };
        ui.label(egui::RichText::new(turns).strong());
        ui.separator();
        ui.label(egui::RichText::new(format!("{} · {}", prompt.phase, prompt.step)).strong());
        if let Some(seat) = prompt.seat {
            ui.label(
                egui::RichText::new(format!("■ {}", battle.side_name(seat)))
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
                    battle.side_name(side)
                ))
                .italics(),
            );
        } else if let Some(next) = actions::next_step(battle) {
            let button = ui.add_enabled(
                next.allowed.is_ok(),
                egui::Button::new(egui::RichText::new(format!("{}  (Enter)", next.label)).strong()),
            );
            let button = match &next.allowed {
                Ok(()) => button.on_hover_text("Enter"),
                Err(e) => button.on_disabled_hover_text(e.to_string()),
            };
            if button.clicked() {
                action = BarAction::Next;
            }
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .button("⚙")
                .on_hover_text("Settings: interface size, tape unit, the computer's pace, confirm before committing (? lists the keys, F1 the rules help)")
                .clicked()
            {
                action = BarAction::Settings;
            }
            if ui
                .button(unit_label)
                .on_hover_text("Tape in centimetres or inches (U)")
                .clicked()
            {
                action = BarAction::ToggleUnits;
            }
            if ui
                .selectable_label(tape_on, "Tape")
                .on_hover_text("Measuring tape (T): measuring is free")
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
            let can_redo = battle.curtain.is_none() && battle.game.can_redo();
            if ui
                .add_enabled(can_redo, egui::Button::new("Redo"))
                .on_hover_text("Redo (Ctrl+Y)")
                .clicked()
            {
                action = BarAction::Redo;
            }
            let undo = battle.undo_offer();
            let button = ui.add_enabled(undo.is_some(), egui::Button::new("Undo"));
            let button = match &undo {
                Some(what) => button.on_hover_text(format!("{what} (Ctrl+Z)")),
                None => button.on_disabled_hover_text(
                    "Nothing of yours to take back now (never behind the curtain)",
                ),
            };
            if button.clicked() {
                action = BarAction::Undo;
            }
            // Against the computer only: with nobody to deceive, a player may practise a decision
            // again with the dice it already met.
            if battle.solo() {
                let mut same = battle.same_dice;
                if ui
                    .checkbox(&mut same, "Same dice")
                    .on_hover_text(
                        "Practice: taking back a decision keeps the dice that followed it, so you can try another choice against the same luck. Off: the dice are drawn afresh.",
                    )
                    .changed()
                {
                    action = BarAction::ToggleSameDice;
                }
            }
        });
    });
    ui.horizontal_wrapped(|ui| {
        super::rules::rich_styled(ui, &prompt.expected, |t| egui::RichText::new(t).weak());
        // "Why?": the computer's reason for its last (public) command, in its own numbers.
        if let Some(why) = &battle.computer_why {
            if ui
                .selectable_label(*why_open, "Why?")
                .on_hover_text("Why the computer chose its last command, from its own numbers")
                .clicked()
            {
                *why_open = !*why_open;
            }
            if *why_open {
                super::rules::rich_styled(ui, &format!("The computer: {why}"), |t| {
                    egui::RichText::new(t).italics()
                });
            }
        }
        if let Some(n) = &battle.notice {
            // A refusal names its rule: the ID opens the rule's help.
            super::rules::rich_styled(ui, &format!("⚠ {n}"), |t| {
                egui::RichText::new(t).color(egui::Color32::from_rgb(255, 170, 120))
            });
        }
    });
    action
}
