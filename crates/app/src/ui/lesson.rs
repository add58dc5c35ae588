//! The lesson card at the top of the side panel: the step, what to look at and do, the rules'
//! refusal and a hint after a wrong action, and once the engine says the step is done, what
//! happened and why. "Show me" plays the step's action for the learner.

use super::rules::rich;
use crate::battle::Battle;
use bevy_egui::egui;
use sandtable_engine::AnyCommand;
use sandtable_engine::scenario_script::Goal;

/// What the learner asked for on the card.
pub enum LessonAction {
    None,
    /// Play this command for the learner ("Show me").
    ShowMe(AnyCommand),
    /// The lesson is over: back to the start screen.
    Finish,
    /// Start the lesson again from its first step.
    Restart,
}

/// The card's fill (also the screenshot probe's colour).
pub const CARD_FILL: [u8; 3] = [28, 44, 52];

pub fn card(ui: &mut egui::Ui, battle: &mut Battle) -> LessonAction {
    let mut action = LessonAction::None;
    let guide = battle.game.lesson_guide();
    let Some(lesson) = battle.game.lesson_mut() else {
        return action;
    };
    let total = lesson.spec.steps.len();
    let frame = egui::Frame::group(ui.style())
        .fill(crate::palette::egui_rgb(CARD_FILL))
        .stroke(egui::Stroke::new(
            1.5,
            egui::Color32::from_rgb(60, 200, 230),
        ));
    let shown = frame.show(ui, |ui| {
        ui.set_width(ui.available_width());
        if lesson.finished() {
            ui.label(egui::RichText::new("Lesson complete").strong().size(16.0));
            ui.label("Well done. Go back to the start screen for the next lesson, or keep playing this position.");
            if ui.button("Back to the lessons").clicked() {
                action = LessonAction::Finish;
            }
            return;
        }
        let step = lesson.spec.steps[lesson.progress.step].clone();
        let progress = &mut lesson.progress;
        ui.label(egui::RichText::new(format!("Step {} of {total}", progress.step + 1)).weak());
        ui.label(egui::RichText::new(&step.title).strong().size(16.0));
        if progress.done {
            rich(ui, &step.explain);
            if ui.button(egui::RichText::new("Next step  ▶").strong()).clicked() {
                progress.next();
            }
            return;
        }
        rich(ui, &step.say);
        if let Some(wrong) = &progress.wrong {
            ui.add_space(4.0);
            egui::Frame::group(ui.style()).fill(egui::Color32::from_rgb(70, 40, 30)).show(ui, |ui| {
                rich(ui, &format!("Not yet: {wrong}"));
                if !step.hint.is_empty() {
                    rich(ui, &format!("Hint: {}", step.hint));
                }
            });
        }
        ui.horizontal(|ui| {
            if step.until == Goal::Read {
                if ui.button(egui::RichText::new("Next  ▶").strong()).clicked() {
                    progress.next();
                }
            } else if ui.add_enabled(guide.is_some(), egui::Button::new("Show me")).on_hover_text("Let the program take this action for you").on_disabled_hover_text("Waiting for the other side").clicked()
                && let Some(cmd) = guide
            {
                action = LessonAction::ShowMe(cmd);
            }
            // The dice are seeded: done as the steps ask, a lesson always plays out as written.
            // After a detour the dice may go another way and a step may never come.
            if ui
                .small_button("Start again")
                .on_hover_text("Start this lesson again from its first step: done as the steps ask, the dice fall as the lesson expects")
                .clicked()
            {
                action = LessonAction::Restart;
            }
        });
    });
    // Where the card is, for screenshot probes: a point well inside its fill.
    ui.ctx().data_mut(|d| {
        d.insert_temp(
            egui::Id::new("lesson card rect"),
            shown.response.rect.shrink(6.0),
        )
    });
    action
}
