//! The lesson card at the top of the side panel: the step, what to look at and do, the rules'
//! refusal or the detour just taken back, the hints asked for (a nudge, the rule, the exact
//! move), and once the engine says the step is done, what happened and why (the step's
//! explanation, or the branch's when the dice or a choice went another way). "Show me" plays
//! the step for the learner, one command at a time at the computer's pace, saying each; "Back
//! one step" returns to the step before as it began. At the end, a debrief.

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
    /// Back to the step before, the battle as it was then.
    Back,
}

/// The card's fill (also the screenshot probe's colour).
pub const CARD_FILL: [u8; 3] = [28, 44, 52];

/// Seconds between two commands "Show me" plays.
const SHOW_PACE_S: f64 = 0.9;

pub fn card(ui: &mut egui::Ui, battle: &mut Battle) -> LessonAction {
    let mut action = LessonAction::None;
    let guide = battle.game.lesson_guide();
    let hints = battle.game.lesson_hints();
    let Some(lesson) = battle.game.lesson() else {
        return action;
    };
    let total = lesson.spec.steps.len();
    let finished = lesson.finished();
    let debrief = finished.then(|| lesson.debrief());
    let step = lesson.step().cloned();
    let progress = lesson.progress.clone();
    let outcome = lesson.outcome.clone();
    let can_back = lesson.trail.len() > 1;
    let now = ui.ctx().input(|i| i.time);
    // "Show me" goes on, command by command, until the step is done.
    if battle.showing.is_some() && (progress.done || finished) {
        battle.showing = None;
    }
    if let Some(last) = battle.showing
        && let Some(cmd) = &guide
        && now - last >= SHOW_PACE_S
    {
        battle.showing = Some(now);
        battle.shown_line = Some(battle.game.describe_command(cmd));
        action = LessonAction::ShowMe(cmd.clone());
    }
    if battle.showing.is_some() {
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs_f64(SHOW_PACE_S / 3.0));
    }
    let frame = egui::Frame::group(ui.style())
        .fill(crate::palette::egui_rgb(CARD_FILL))
        .stroke(egui::Stroke::new(
            1.5,
            egui::Color32::from_rgb(60, 200, 230),
        ));
    let mut next = false;
    let mut more_hint = false;
    let shown = frame.show(ui, |ui| {
        ui.set_width(ui.available_width());
        if let Some(d) = &debrief {
            ui.label(egui::RichText::new("Lesson complete").strong().size(16.0));
            debrief_lines(ui, d);
            ui.horizontal(|ui| {
                if ui.button("Back to the lessons").clicked() {
                    action = LessonAction::Finish;
                }
                if ui
                    .small_button("Start again")
                    .on_hover_text("Play this lesson again from its first step")
                    .clicked()
                {
                    action = LessonAction::Restart;
                }
            });
            return;
        }
        let Some(step) = &step else { return };
        ui.label(egui::RichText::new(format!("Step {} of {total}", progress.step + 1)).weak());
        ui.label(egui::RichText::new(&step.title).strong().size(16.0));
        if progress.done {
            rich(ui, outcome.as_deref().unwrap_or(&step.explain));
            ui.horizontal(|ui| {
                if ui
                    .button(egui::RichText::new("Next step  ▶").strong())
                    .clicked()
                {
                    next = true;
                }
                back_button(ui, can_back, &mut action);
            });
            return;
        }
        rich(ui, &step.say);
        if let Some(line) = battle.showing.and(battle.shown_line.as_ref()) {
            ui.label(egui::RichText::new(format!("▶ Showing you: {line}")).italics());
        }
        if let Some(wrong) = &progress.wrong {
            ui.add_space(4.0);
            egui::Frame::group(ui.style())
                .fill(egui::Color32::from_rgb(70, 40, 30))
                .show(ui, |ui| rich(ui, &format!("Not yet: {wrong}")));
        }
        if !hints.is_empty() {
            ui.add_space(4.0);
            egui::Frame::group(ui.style())
                .fill(egui::Color32::from_rgb(36, 58, 44))
                .show(ui, |ui| {
                    for (i, h) in hints.iter().enumerate() {
                        rich(ui, &format!("Hint {}: {h}", i + 1));
                    }
                });
        }
        ui.horizontal_wrapped(|ui| {
            if step.until == Goal::Read {
                if ui.button(egui::RichText::new("Next  ▶").strong()).clicked() {
                    next = true;
                }
            } else if battle.showing.is_some() {
                if ui
                    .button("Stop")
                    .on_hover_text("Stop showing; go on yourself")
                    .clicked()
                {
                    battle.showing = None;
                }
            } else if ui
                .add_enabled(guide.is_some(), egui::Button::new("Show me"))
                .on_hover_text("The program plays this step for you, slowly, saying each command")
                .on_disabled_hover_text("Waiting for the other side")
                .clicked()
            {
                battle.showing = Some(now - SHOW_PACE_S);
                battle.game.lesson_shown();
            }
            if step.until != Goal::Read
                && progress.hints < 3
                && ui
                    .small_button(if progress.hints == 0 {
                        "Hint"
                    } else {
                        "More help"
                    })
                    .on_hover_text("First a nudge, then the rule, then the exact move")
                    .clicked()
            {
                more_hint = true;
            }
            back_button(ui, can_back, &mut action);
            if ui
                .small_button("Start again")
                .on_hover_text("Start this lesson again from its first step")
                .clicked()
            {
                action = LessonAction::Restart;
            }
        });
    });
    if next {
        battle.game.lesson_next();
    }
    if more_hint {
        battle.game.lesson_more_hint();
    }
    // Where the card is, for screenshot probes: a point well inside its fill.
    ui.ctx().data_mut(|d| {
        d.insert_temp(
            egui::Id::new("lesson card rect"),
            shown.response.rect.shrink(6.0),
        )
    });
    action
}

fn back_button(ui: &mut egui::Ui, can_back: bool, action: &mut LessonAction) {
    if ui
        .add_enabled(can_back, egui::Button::new("◀ Back one step").small())
        .on_hover_text("The step before, with the battle as it was when it began (dice rolled since are rolled anew)")
        .clicked()
    {
        *action = LessonAction::Back;
    }
}

/// The debrief: the steps as the learner went through them, the rules that came up (links into
/// the help), and what to try next.
fn debrief_lines(ui: &mut egui::Ui, d: &sandtable_engine::Debrief) {
    ui.label("What you did:");
    for (title, branch) in &d.steps {
        match branch {
            None => {
                ui.label(format!("  ✔ {title}"));
            }
            Some(b) => {
                ui.label(format!("  ↪ {title}: the battle went another way"));
                rich(ui, &format!("      {}", first_sentence(b)));
            }
        }
    }
    let mut help = Vec::new();
    if d.detours > 0 {
        help.push(format!("{} detour(s) taken back", d.detours));
    }
    if d.hints > 0 {
        help.push(format!("{} hint(s)", d.hints));
    }
    if d.shown > 0 {
        help.push(format!("\"Show me\" on {} step(s)", d.shown));
    }
    if !help.is_empty() {
        ui.label(format!("Along the way: {}.", help.join(", ")));
    }
    if !d.rules.is_empty() {
        rich(
            ui,
            &format!("The rules that came up: {}.", d.rules.join(", ")),
        );
    }
    if !d.try_next.is_empty() {
        rich(ui, &format!("Try next: {}", d.try_next));
    }
}

/// The first sentence of an explanation: up to a full stop followed by a capital letter.
fn first_sentence(text: &str) -> &str {
    let bytes = text.as_bytes();
    for (i, _) in text.match_indices(". ") {
        if bytes.get(i + 2).is_some_and(|c| c.is_ascii_uppercase()) {
            return &text[..=i];
        }
    }
    text
}
