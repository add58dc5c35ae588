//! Modal parts of the battle screen: the hand-over curtain (and a take-back asked of the other
//! player behind it), and the end of the battle.

use crate::battle::{Battle, Curtain};
use crate::palette;
use bevy_egui::egui;

/// What the player behind the curtain chose.
pub enum CurtainAnswer {
    None,
    Ready,
    Allow,
    Refuse,
}

/// Covers the whole screen until the right player is in front of it, so nothing secret shows. A
/// take-back asked by the other side is answered here, by the player it needs consent from.
pub fn curtain(ctx: &egui::Context, battle: &Battle) -> CurtainAnswer {
    let Some(c) = battle.curtain else {
        return CurtainAnswer::None;
    };
    let mut answer = CurtainAnswer::None;
    let seat = c.seat();
    egui::Area::new("curtain".into())
        .fixed_pos(egui::pos2(0.0, 0.0))
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            let screen = ctx.viewport_rect();
            ui.painter()
                .rect_filled(screen, 0.0, egui::Color32::from_rgb(24, 24, 28));
            ui.scope_builder(egui::UiBuilder::new().max_rect(screen), |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(screen.height() * 0.32);
                    ui.label(
                        egui::RichText::new(format!("Pass to {}", battle.side_name(seat)))
                            .size(34.0)
                            .strong()
                            .color(palette::side_egui(seat as usize)),
                    );
                    match c {
                        Curtain::HandOver(_) => {
                            ui.label(
                                egui::RichText::new(
                                    "The other player looks away: the next screen shows this side's secrets.",
                                )
                                .size(16.0),
                            );
                            ui.add_space(18.0);
                            if ui
                                .add(egui::Button::new(
                                    egui::RichText::new("I am ready  (Space)").size(20.0),
                                ))
                                .clicked()
                            {
                                answer = CurtainAnswer::Ready;
                            }
                        }
                        Curtain::Consent { asker, commands } => {
                            ui.label(
                                egui::RichText::new(format!(
                                    "{} asks to take back {commands} command(s): its last decision and everything after it. \
                                     If you allow it, the dice that follow are re-drawn, and the log shows the take-back.",
                                    battle.side_name(asker)
                                ))
                                .size(16.0),
                            );
                            ui.add_space(18.0);
                            ui.horizontal(|ui| {
                                ui.add_space((screen.width() - 360.0).max(0.0) / 2.0);
                                if ui
                                    .add(egui::Button::new(
                                        egui::RichText::new("Allow the take-back").size(20.0),
                                    ))
                                    .clicked()
                                {
                                    answer = CurtainAnswer::Allow;
                                }
                                if ui
                                    .add(egui::Button::new(egui::RichText::new("Refuse").size(20.0)))
                                    .clicked()
                                {
                                    answer = CurtainAnswer::Refuse;
                                }
                            });
                        }
                    }
                });
            });
        });
    answer
}

/// The end screen: the result and the figures that decided it, as the ruleset reports them.
pub fn end(ctx: &egui::Context, battle: &Battle) -> bool {
    let Some(outcome) = battle.game.outcome() else {
        return false;
    };
    let mut close = false;
    egui::Window::new("The battle is over")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            let headline = match outcome.winner {
                Some(w) => format!("{} — {}", battle.side_name(w), outcome.result),
                None => "A draw".to_string(),
            };
            ui.heading(headline);
            super::rules::rich(ui, &format!("Why it ended: {}", outcome.reason));
            egui::Grid::new("outcome").striped(true).show(ui, |ui| {
                for (i, row) in outcome.table.iter().enumerate() {
                    for (j, cell) in row.iter().enumerate() {
                        let text = egui::RichText::new(cell);
                        ui.label(match (i, j) {
                            (0, _) => text.strong(),
                            (_, 0) => text.color(palette::side_egui(i - 1)),
                            _ => text,
                        });
                    }
                    ui.end_row();
                }
            });
            super::rules::rich_styled(ui, &outcome.explanation, |t| egui::RichText::new(t).weak());
            let taken_back = battle.game.take_back_count();
            if taken_back > 0 {
                ui.label(format!(
                    "Take-backs in this battle: {taken_back}{}.",
                    if battle.same_dice {
                        " (practice with the same dice)"
                    } else {
                        ""
                    }
                ));
            }
            let debriefing = &battle.game.info().debriefing;
            if !debriefing.trim().is_empty() {
                ui.separator();
                ui.label(egui::RichText::new("Debriefing").strong());
                ui.label(debriefing);
            }
            if ui.button("Back to the scenarios").clicked() {
                close = true;
            }
        });
    close
}
