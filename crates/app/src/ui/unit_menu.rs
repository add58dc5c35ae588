//! The unit menu: a right click on a unit opens, beside it, the turns, maneuvers and orders the
//! rules offer it now — the same actions as the side panel, where the player is looking. A
//! refused action stays in the list, greyed, with the rule that refuses it on hover.

use super::battle::apply;
use super::side_panel::{self, PanelAction};
use crate::actions::{self, Choices};
use crate::battle::Battle;
use crate::table::draft::Draft;
use crate::table::input::UnitMenu;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// Draws the open unit menu and carries out what is clicked in it.
pub(super) fn unit_menu(
    mut contexts: EguiContexts,
    battle: Option<ResMut<Battle>>,
    mut menu: ResMut<UnitMenu>,
    mut draft: ResMut<Draft>,
    choices: Res<Choices>,
) -> Result {
    let Some((piece, at)) = menu.open else {
        return Ok(());
    };
    let Some(mut battle) = battle else {
        return Ok(());
    };
    // Behind a hand-over curtain nothing of the table shows; a piece gone from the table has no
    // menu.
    let name = battle.scene.piece(piece).map(|p| p.label.clone());
    let (Some(name), None) = (name, battle.curtain) else {
        menu.open = None;
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    let list = actions::menu(&battle, Some(piece), draft.plan.as_ref(), &choices.0).items;
    let mut chosen = PanelAction::None;
    egui::Area::new("unit_menu".into())
        // Its corner just under the cursor, as a context menu opens: the pointer is then over
        // the menu, so the table's hover tooltip does not cover it.
        .fixed_pos(egui::pos2(at.x - 2.0, at.y - 2.0))
        .order(egui::Order::Foreground)
        .constrain(true)
        .show(&ctx, |ui| {
            egui::Frame::menu(ui.style()).show(ui, |ui| {
                ui.set_max_width(300.0);
                ui.label(egui::RichText::new(&name).strong());
                if list.is_empty() {
                    ui.label(
                        egui::RichText::new(
                            "Nothing this unit can do now: the phase bar says who acts and what \
                             the phase expects.",
                        )
                        .weak(),
                    );
                }
                for a in &list {
                    if let Some(act) = side_panel::action_button(ui, a) {
                        chosen = act;
                    }
                }
                ui.separator();
                if ui.button("Close  (Esc)").clicked() {
                    menu.open = None;
                }
            });
        });
    if !matches!(chosen, PanelAction::None) {
        menu.open = None;
        apply(chosen, &mut battle, &mut draft, Some(piece));
    }
    Ok(())
}
