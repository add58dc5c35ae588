//! The dice panel: every roll of the last action as the ruleset reports it — what it needed, each
//! modifier with its rule and reason, the faces (successes in green), re-rolls, and the outcome.

use crate::battle::Battle;
use bevy_egui::egui;
use sandtable_engine::narration::{DiceReport, DieFace, Narration, RollReport};

/// Does this list of events hold any dice worth showing?
pub fn has_dice(events: &[Narration]) -> bool {
    events.iter().any(|n| n.dice.is_some())
}

fn faces(ui: &mut egui::Ui, faces: &[DieFace]) {
    ui.horizontal_wrapped(|ui| {
        for f in faces {
            let colour = if f.success {
                egui::Color32::from_rgb(90, 200, 110)
            } else {
                egui::Color32::from_gray(150)
            };
            ui.label(
                egui::RichText::new(format!(" {} ", f.value))
                    .monospace()
                    .strong()
                    .color(egui::Color32::BLACK)
                    .background_color(colour),
            );
        }
    });
}

fn small(ui: &mut egui::Ui, text: &str) {
    // A rule ID in it is a link to the program's help for it.
    super::rules::rich_styled(ui, text, |t| egui::RichText::new(t).small());
}

fn roll(ui: &mut egui::Ui, r: &RollReport) {
    super::rules::rich(ui, &r.label);
    for m in &r.modifiers {
        small(ui, &format!("  {:+}  {} — {}", m.delta, m.reason, m.rule));
    }
    for n in &r.notes {
        small(ui, &format!("  {n}"));
    }
    faces(ui, &r.faces);
    if let Some((why, again)) = &r.reroll {
        super::rules::rich(ui, why);
        faces(ui, again);
    }
    if !r.result.is_empty() {
        ui.label(egui::RichText::new(&r.result).strong());
    }
}

fn report(ui: &mut egui::Ui, d: &DiceReport) {
    super::rules::rich_styled(ui, &d.heading, |t| egui::RichText::new(t).strong());
    if !d.detail.is_empty() {
        super::rules::rich(ui, &d.detail);
    }
    for r in &d.rolls {
        roll(ui, r);
    }
    for o in &d.outcome {
        super::rules::rich_styled(ui, o, |t| egui::RichText::new(t).strong());
    }
    ui.separator();
}

pub fn show(ui: &mut egui::Ui, battle: &Battle) {
    egui::ScrollArea::vertical()
        .max_height(300.0)
        .show(ui, |ui| {
            for d in battle.last.iter().filter_map(|n| n.dice.as_ref()) {
                report(ui, d);
            }
        });
}
