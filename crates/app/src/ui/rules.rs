//! Rule IDs as links, and the rule window: clicking `BFS-SHO-14` on a roll, a modifier, a refusal
//! or a lesson opens the program's own plain-language help for it (`assets/help/*.ron`, one file per
//! ruleset).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_engine::help::{RuleHelp, rule_ids_in};

/// Where the rule window was drawn last frame and its fill (for screenshot probes).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct RuleWindowShown(pub Option<(egui::Rect, [u8; 3])>);

/// A rule to open at start (`--open-rule`, for screenshots of the rule window).
#[derive(Resource, Debug, Clone, Default)]
pub struct OpenRuleAtStart(pub Option<String>);

/// Opens the `--open-rule` window once the battle is on screen.
pub fn open_rule_at_start(mut contexts: EguiContexts, mut want: ResMut<OpenRuleAtStart>) -> Result {
    if let Some(id) = want.0.take() {
        open_rule(contexts.ctx_mut()?, &id);
    }
    Ok(())
}

/// The rule help, if its file could be read (the app works without it, links then say so).
#[derive(Resource, Debug, Clone, Default)]
pub struct RuleBook(pub Option<RuleHelp>);

/// Where the rule asked for is kept: egui's memory, so any panel can open one without threading
/// state through every function that draws text.
fn open_rule_id() -> egui::Id {
    egui::Id::new("sandtable open rule")
}

/// Asks for the rule window of `id`.
pub fn open_rule(ctx: &egui::Context, id: &str) {
    ctx.data_mut(|d| d.insert_temp(open_rule_id(), id.to_string()));
}

/// Asks for the rule window with no rule in it yet: its search (F1 where nothing is asked).
pub fn open_rule_search(ctx: &egui::Context) {
    open_rule(ctx, "");
}

fn search_query_id() -> egui::Id {
    egui::Id::new("sandtable rule search")
}

/// Most matches the search lists.
const SEARCH_SHOWN: usize = 12;

/// Text with every rule ID in it a link; a click opens that rule's window.
pub fn rich(ui: &mut egui::Ui, text: &str) {
    rich_styled(ui, text, |t| egui::RichText::new(t));
}

/// As [`rich`], with a style for the plain parts.
pub fn rich_styled(ui: &mut egui::Ui, text: &str, style: impl Fn(&str) -> egui::RichText) {
    let ids = rule_ids_in(text);
    if ids.is_empty() {
        ui.label(style(text));
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 0.0;
        let mut at = 0;
        for (range, id) in ids {
            if range.start > at {
                ui.label(style(&text[at..range.start]));
            }
            if ui
                .link(style(id).underline())
                .on_hover_text("What this rule says")
                .clicked()
            {
                open_rule(ui.ctx(), id);
            }
            at = range.end;
        }
        if at < text.len() {
            ui.label(style(&text[at..]));
        }
    });
}

/// The window of the rule asked for last; its "see also" links open other rules in it.
pub fn rule_window(
    mut contexts: EguiContexts,
    book: Res<RuleBook>,
    mut shown: ResMut<RuleWindowShown>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    shown.0 = None;
    let Some(id) = ctx.data(|d| d.get_temp::<String>(open_rule_id())) else {
        return Ok(());
    };
    let mut open = true;
    let mut next = None;
    let fill = ctx.global_style().visuals.window_fill;
    let mut query: String = ctx
        .data(|d| d.get_temp(search_query_id()))
        .unwrap_or_default();
    let title = if id.is_empty() {
        "Rules help".to_string()
    } else {
        format!("Rule {id}")
    };
    let window = egui::Window::new(title)
        .id(egui::Id::new("rule window"))
        .open(&mut open)
        .default_width(360.0)
        .default_pos(egui::pos2(360.0, 120.0))
        .show(ctx, |ui| {
            let field = ui.add(
                egui::TextEdit::singleline(&mut query)
                    .hint_text("Search the rules (an ID or words)")
                    .desired_width(f32::INFINITY),
            );
            if id.is_empty() && query.is_empty() {
                field.request_focus();
            }
            if !query.trim().is_empty() {
                let found = book
                    .0
                    .as_ref()
                    .map(|b| b.search(&query))
                    .unwrap_or_default();
                if found.is_empty() {
                    ui.label(egui::RichText::new("No rule matches.").weak());
                }
                for e in found.iter().take(SEARCH_SHOWN) {
                    if ui.link(format!("{}  {}", e.id, e.title)).clicked() {
                        next = Some(e.id.clone());
                    }
                }
                if found.len() > SEARCH_SHOWN {
                    ui.label(
                        egui::RichText::new(format!("… and {} more", found.len() - SEARCH_SHOWN))
                            .weak(),
                    );
                }
                ui.separator();
            }
            if id.is_empty() {
                return;
            }
            match book.0.as_ref().and_then(|b| b.lookup(&id)) {
                Some(entry) => {
                    ui.heading(&entry.title);
                    if entry.id != id {
                        ui.label(
                            egui::RichText::new(format!(
                                "{id} belongs to {}: what the section says.",
                                entry.id
                            ))
                            .weak(),
                        );
                    }
                    ui.label(&entry.text);
                    if !entry.see_also.is_empty() {
                        ui.horizontal_wrapped(|ui| {
                            ui.label("See also:");
                            for s in &entry.see_also {
                                if ui.link(s).clicked() {
                                    next = Some(s.clone());
                                }
                            }
                        });
                    }
                }
                None => {
                    ui.label("This program has no help text for this rule yet.");
                }
            }
        });
    if let Some(w) = window {
        shown.0 = Some((w.response.rect, [fill.r(), fill.g(), fill.b()]));
    }
    if let Some(n) = next {
        open_rule(ctx, &n);
        query.clear();
    } else if !open {
        ctx.data_mut(|d| d.remove::<String>(open_rule_id()));
        query.clear();
    }
    ctx.data_mut(|d| d.insert_temp(search_query_id(), query));
    Ok(())
}
