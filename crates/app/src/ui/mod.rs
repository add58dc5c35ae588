//! The egui layer: the start screen, the battle's bars and panels, tooltips and the tape label.

mod battle;
mod dice;
mod editor_window;
pub mod fonts;
pub mod help_keys;
mod lesson;
mod log_panel;
mod phase_bar;
pub mod remote_card;
mod root;
pub mod rules;
pub mod settings_window;
mod setup_window;
mod side_panel;
mod start;
mod thumbnail;
mod unit_menu;
mod windows;

pub use battle::BattleUi;

use crate::screens::Screen;
use crate::table::input::Pointer;
use crate::table::view::TableArea;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub use root::root_ui;

/// The start screen opens "Play with someone elsewhere" (`--open-remote`).
#[derive(Resource, Default)]
pub struct RemoteSectionOpen(pub bool);

/// Width of the battle's right-hand panel, logical px.
pub const SIDE_PANEL_PX: f32 = 330.0;

/// The egui layer's systems (the app adds `EguiPlugin` first; headless tests drive egui themselves).
pub fn plugin(app: &mut App) {
    app.init_resource::<settings_window::SettingsWindow>()
        .init_resource::<RemoteSectionOpen>()
        .init_resource::<help_keys::ShortcutSheet>()
        .add_systems(Update, settings_window::apply_scale)
        .add_systems(
            EguiPrimaryContextPass,
            (
                style,
                help_keys::help_keys,
                start::start_screen.run_if(in_state(Screen::Start)),
                setup_window::setup_window.run_if(in_state(Screen::Start)),
                editor_window::editor_window.run_if(in_state(Screen::Start)),
                battle::battle_ui.run_if(in_state(Screen::Battle)),
                unit_menu::unit_menu.run_if(in_state(Screen::Battle)),
                rules::open_rule_at_start.run_if(in_state(Screen::Battle)),
                rules::rule_window,
                settings_window::settings_window,
                help_keys::shortcut_sheet,
                pointer_capture,
            )
                .chain(),
        );
}

/// Sets the egui style once the context exists (it does not yet at startup).
fn style(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    *done = true;
    let ctx = contexts.ctx_mut()?;
    ctx.set_fonts(fonts::definitions());
    ctx.all_styles_mut(|s| {
        s.spacing.item_spacing = egui::vec2(8.0, 6.0);
        s.interaction.tooltip_delay = 0.2;
    });
    Ok(())
}

/// Tells table input whether egui is using the pointer or keyboard this frame.
fn pointer_capture(
    mut contexts: EguiContexts,
    mut pointer: ResMut<Pointer>,
    area: Res<TableArea>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let over_panel = pointer.screen.is_some_and(|p| {
        p.x < area.min.x || p.x > area.max.x || p.y < area.min.y || p.y > area.max.y
    });
    let over_window = ctx
        .pointer_hover_pos()
        .and_then(|p| ctx.layer_id_at(p))
        .is_some_and(|l| l.order != egui::Order::Background);
    pointer.over_ui = over_panel || over_window || ctx.egui_is_using_pointer();
    pointer.keyboard_taken = ctx.egui_wants_keyboard_input();
    Ok(())
}
