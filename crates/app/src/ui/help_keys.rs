//! Help at a key: F1 opens the rules help at what the phase bar asks for now (the first rule it
//! cites; with none, the help's search), and "?" shows the sheet of keyboard shortcuts.

use super::rules::{open_rule, open_rule_search};
use crate::battle::Battle;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_engine::help::rule_ids_in;

/// Whether the shortcut sheet is open.
#[derive(Resource, Debug, Default)]
pub struct ShortcutSheet {
    pub open: bool,
}

/// Every key and mouse action of the table, as the sheet lists them (the README's table says the
/// same for readers of the repository).
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Mouse wheel", "zoom about the cursor"),
    ("Drag empty table, or right-drag", "pan the table"),
    ("Arrow keys", "pan the table"),
    ("F or Home", "fit the whole table"),
    ("Click", "select a unit or commander"),
    (
        "Right-click a unit",
        "its menu: what the rules allow it now",
    ),
    (
        "Drag a selected unit",
        "plan a move (a ghost shows where it ends)",
    ),
    ("Drag a front corner", "plan a wheel about the other corner"),
    (
        "Click an enemy (Charge order)",
        "plan a charge at it, with the odds",
    ),
    ("Enter", "commit the plan; otherwise end the step"),
    ("Backspace", "drop the last planned step"),
    (
        "A menu item's letter or digit",
        "that item (bids, orders, reactions…)",
    ),
    ("Space", "the player behind the hand-over curtain is ready"),
    (
        "V / G / N / Z",
        "overlays: vision, fire bands, command ranges, 2 cm zones",
    ),
    ("T, U", "measuring tape on/off; centimetres or inches"),
    (
        "Ctrl+Z / Ctrl+Y",
        "undo / redo, by the rules of a fair table",
    ),
    ("Ctrl+S / Ctrl+O", "save / load"),
    ("F1", "the rules help for what is asked now"),
    ("?", "this sheet"),
    (
        "Esc",
        "say \"not yet\" to Commit?, close a menu, drop the tape, or deselect",
    ),
];

/// The rule F1 opens: the first rule ID in the words the phase bar shows now.
pub fn rule_for_prompt(expected: &str) -> Option<String> {
    rule_ids_in(expected).first().map(|(_, id)| id.to_string())
}

pub(super) fn help_keys(
    mut contexts: EguiContexts,
    keys: Res<ButtonInput<KeyCode>>,
    battle: Option<Res<Battle>>,
    mut sheet: ResMut<ShortcutSheet>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if ctx.egui_wants_keyboard_input() {
        return Ok(());
    }
    if keys.just_pressed(KeyCode::F1) {
        match battle
            .as_deref()
            .and_then(|b| rule_for_prompt(&b.prompt().expected))
        {
            Some(id) => open_rule(ctx, &id),
            None => open_rule_search(ctx),
        }
    }
    if keys.just_pressed(KeyCode::Slash) {
        sheet.open = !sheet.open;
    }
    Ok(())
}

pub(super) fn shortcut_sheet(
    mut contexts: EguiContexts,
    mut sheet: ResMut<ShortcutSheet>,
) -> Result {
    if !sheet.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    egui::Window::new("Keyboard and mouse")
        .id(egui::Id::new("shortcut sheet"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .default_pos(egui::pos2(240.0, 80.0))
        .show(ctx, |ui| {
            egui::Grid::new("shortcuts")
                .num_columns(2)
                .striped(true)
                .spacing([18.0, 4.0])
                .show(ui, |ui| {
                    for (key, does) in SHORTCUTS {
                        ui.label(egui::RichText::new(*key).strong());
                        ui.label(*does);
                        ui.end_row();
                    }
                });
        });
    sheet.open = open;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f1_opens_the_first_rule_the_prompt_cites() {
        assert_eq!(
            rule_for_prompt(
                "Polish-Lithuanian: secretly bid 0–3 of your commander-in-chief's CP; each adds +2 to your Initiative roll (BFS-INI-2)."
            )
            .as_deref(),
            Some("BFS-INI-2")
        );
        assert_eq!(rule_for_prompt("Choose a scenario"), None);
    }
}
