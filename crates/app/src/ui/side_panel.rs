//! The right-hand panel: the selected piece's card, the plan being built with its preview, what
//! the selection can do now (each action a rules command, disabled with the rule's reason when
//! not allowed), the odds of the rolls to come, and the side's resources. Everything shown comes
//! from the ruleset through the game handle.

use crate::actions::{self, Choices};
use crate::battle::Battle;
use crate::palette;
use crate::table::draft::Draft;
use bevy_egui::egui;
use sandtable_engine::{AnyCommand, Card, MenuEffect, MenuItem, OddsChart, PieceId};

/// What the panel asks the app to do.
pub enum PanelAction {
    None,
    Submit(AnyCommand),
    /// Make this the plan being built (a maneuver joins a planned move).
    Plan(AnyCommand),
    CommitDraft,
    DropStep,
    ClearDraft,
}

pub fn show(
    ui: &mut egui::Ui,
    battle: &Battle,
    selected: Option<PieceId>,
    draft: &Draft,
    choices: &mut Choices,
) -> PanelAction {
    let mut out = PanelAction::None;
    egui::ScrollArea::vertical().show(ui, |ui| {
        match selected.and_then(|p| battle.game.card(battle.viewer, p)) {
            Some(card) => card_view(ui, &card),
            None => {
                ui.label(egui::RichText::new("Select a unit or commander on the table.").weak());
            }
        }
        ui.separator();
        let menu = actions::menu(battle, selected, draft.plan.as_ref(), &choices.0);
        // Choices that shape the menu (who pays for orders).
        for param in &menu.params {
            let mut chosen = choices.0.get(&param.id).copied().unwrap_or(param.chosen);
            egui::ComboBox::from_label(&param.label)
                .selected_text(param.options.get(chosen).cloned().unwrap_or_default())
                .show_ui(ui, |ui| {
                    for (i, o) in param.options.iter().enumerate() {
                        ui.selectable_value(&mut chosen, i, o);
                    }
                });
            choices.0.insert(param.id.clone(), chosen);
        }
        // The planned command.
        if draft.piece.is_some() && (draft.command().is_some() || draft.preview.is_some()) {
            out = draft_box(ui, draft);
        } else if let Some(hint) = &menu.hint
            && battle.screen_refusal().is_none()
        {
            ui.label(egui::RichText::new(hint).weak());
        }
        if !menu.items.is_empty() {
            ui.label(egui::RichText::new("Actions").strong());
        }
        for item in &menu.items {
            if let Some(act) = action_button(ui, item) {
                out = act;
            }
        }
        forecast(ui, battle);
        ui.separator();
        pools(ui, battle);
    });
    out
}

/// A menu item as a button: disabled with the rule's reason on hover when not allowed.
pub(super) fn action_button(ui: &mut egui::Ui, a: &MenuItem<AnyCommand>) -> Option<PanelAction> {
    let label = match a.key {
        Some(k) => format!("{}   [{k}]", a.label),
        None => a.label.clone(),
    };
    let r = ui.add_enabled(a.allowed.is_ok(), egui::Button::new(label).wrap());
    let r = match &a.allowed {
        Ok(()) => r,
        Err(e) => r.on_disabled_hover_text(e.to_string()),
    };
    r.clicked().then(|| match a.effect {
        MenuEffect::Plan => PanelAction::Plan(a.command.clone()),
        MenuEffect::Submit => PanelAction::Submit(a.command.clone()),
    })
}

fn draft_box(ui: &mut egui::Ui, draft: &Draft) -> PanelAction {
    let mut out = PanelAction::None;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(egui::RichText::new("Planned").strong());
        let mut commit = "Commit".to_string();
        match &draft.preview {
            Some(p) => {
                for l in &p.lines {
                    super::rules::rich(ui, l);
                }
                if let Some(e) = &p.refused {
                    super::rules::rich_styled(ui, &format!("✖ {e}"), |t| {
                        egui::RichText::new(t).color(egui::Color32::from_rgb(255, 120, 110))
                    });
                }
                for o in &p.odds {
                    odds_chart(ui, o);
                }
                if !p.commit.is_empty() {
                    commit = p.commit.clone();
                }
            }
            None => {
                ui.label(egui::RichText::new("Nothing planned yet.").weak());
            }
        }
        // Wrapped: the three buttons are wider than the panel.
        ui.horizontal_wrapped(|ui| {
            let ok = draft.preview.as_ref().is_some_and(|p| p.refused.is_none());
            if ui
                .add_enabled(
                    ok && draft.command().is_some(),
                    egui::Button::new(format!("{commit}  (Enter)")),
                )
                .clicked()
            {
                out = PanelAction::CommitDraft;
            }
            if ui.button("Undo step (Backspace)").clicked() {
                out = PanelAction::DropStep;
            }
            if ui.button("Clear").clicked() {
                out = PanelAction::ClearDraft;
            }
        });
    });
    out
}

/// The rolls the current step will make, with their odds.
fn forecast(ui: &mut egui::Ui, battle: &Battle) {
    if battle.curtain.is_some() {
        return;
    }
    let charts = battle.game.forecast(battle.viewer);
    if charts.is_empty() {
        return;
    }
    ui.separator();
    ui.label(egui::RichText::new("The rolls to come").strong());
    for c in &charts {
        if c.chances.is_empty() {
            ui.label(egui::RichText::new(&c.title).weak());
        } else {
            odds_chart(ui, c);
        }
    }
}

/// A small bar chart of a distribution.
pub fn odds_chart(ui: &mut egui::Ui, o: &OddsChart) {
    super::rules::rich_styled(ui, &o.title, |t| egui::RichText::new(t).small());
    let n = o.chances.len().min(10);
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(ui.available_width().min(260.0), 46.0),
        egui::Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    let w = rect.width() / n.max(1) as f32;
    let max = o.chances.iter().copied().fold(0.0f64, f64::max).max(1e-9);
    for (k, p) in o.chances.iter().take(n).enumerate() {
        let h = (p / max) as f32 * (rect.height() - 14.0);
        let x = rect.left() + k as f32 * w;
        let bar = egui::Rect::from_min_max(
            egui::pos2(x + 2.0, rect.bottom() - 12.0 - h),
            egui::pos2(x + w - 2.0, rect.bottom() - 12.0),
        );
        painter.rect_filled(bar, 1.0, egui::Color32::from_rgb(200, 160, 70));
        painter.text(
            egui::pos2(x + w / 2.0, rect.bottom() - 6.0),
            egui::Align2::CENTER_CENTER,
            format!("{k}"),
            egui::FontId::monospace(9.0),
            egui::Color32::LIGHT_GRAY,
        );
    }
    ui.label(egui::RichText::new(format!("{}: {:.1} on average", o.counts, o.mean())).small());
}

fn pools(ui: &mut egui::Ui, battle: &Battle) {
    let lines = battle.game.pools(battle.viewer);
    if lines.is_empty() {
        return;
    }
    ui.label(egui::RichText::new("Resources").strong());
    for l in lines {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new("■").color(palette::side_egui(l.side as usize)));
            ui.label(l.text);
        });
    }
}

fn card_view(ui: &mut egui::Ui, card: &Card) {
    let title = egui::RichText::new(&card.title);
    ui.heading(match card.side {
        Some(s) => title.color(palette::side_egui(s as usize)),
        None => title,
    });
    for l in &card.lines {
        super::rules::rich(ui, l);
    }
    if !card.rows.is_empty() {
        ui.add_space(4.0);
        egui::Grid::new(("card", card.title.as_str()))
            .striped(true)
            .num_columns(2)
            .show(ui, |ui| {
                for (k, v) in &card.rows {
                    ui.label(egui::RichText::new(k).strong());
                    ui.label(v);
                    ui.end_row();
                }
            });
    }
    if !card.notes.is_empty() {
        ui.label(egui::RichText::new(&card.notes).weak().small());
    }
}
