//! The battle screen's egui layer: it lays out the phase bar, the side panel, the battle log, the
//! dice panel and the modal windows, and turns their buttons into commands.

use super::{SIDE_PANEL_PX, dice, log_panel, phase_bar, root_ui, side_panel, windows};
use crate::actions::{self, Choices};
use crate::battle::Battle;
use crate::palette;
use crate::rulesets::Rulesets;
use crate::saves::{self, SaveDir};
use crate::screens::Screen;
use crate::table::FitPending;
use crate::table::draft::{self, Draft};
use crate::table::input::{Hovered, Pointer, Selected, Tape, Tool};
use crate::table::tape_math::{format_length, measure};
use crate::table::view::{TableArea, TableView, from_geo};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_engine::PieceId;

/// UI state that is not game state.
#[derive(Resource, Default)]
pub struct BattleUi {
    pub log_filter: Option<PieceId>,
    pub dice_open: bool,
    /// Commands count when the dice panel last opened, so it opens once per new roll.
    pub dice_seen: usize,
    pub saves_open: bool,
    pub message: Option<String>,
    /// Where the dice panel was drawn last frame and its fill colour (for screenshot probes).
    pub dice_rect: Option<(egui::Rect, [u8; 3])>,
    /// Where the lesson card was drawn last frame and its fill colour (for screenshot probes).
    pub lesson_rect: Option<(egui::Rect, [u8; 3])>,
    /// Where the tape's label was drawn last frame, its fill colour and its words.
    pub tape_label: Option<(egui::Rect, [u8; 3], String)>,
    /// The computer's reason for its last command is shown under the phase bar ("Why?").
    pub why_open: bool,
    /// What is being typed into a remote battle's card.
    pub remote_fields: super::remote_card::CardFields,
}

#[allow(clippy::too_many_arguments)]
pub(super) fn battle_ui(
    mut contexts: EguiContexts,
    battle: Option<ResMut<Battle>>,
    hovered: Res<Hovered>,
    mut selected: ResMut<Selected>,
    pointer: Res<Pointer>,
    view: Res<TableView>,
    keys: Res<ButtonInput<KeyCode>>,
    mut tool: ResMut<Tool>,
    mut tape: ResMut<Tape>,
    mut area: ResMut<TableArea>,
    mut fit: ResMut<FitPending>,
    mut next: ResMut<NextState<Screen>>,
    mut draft: ResMut<Draft>,
    mut choices: ResMut<Choices>,
    mut ui_state: ResMut<BattleUi>,
    (save_dir, rulesets, mut settings_shown): (
        Res<SaveDir>,
        Res<Rulesets>,
        ResMut<super::settings_window::SettingsWindow>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let Some(mut battle) = battle else {
        return Ok(());
    };
    let mut root = root_ui(&ctx);
    let ctrl = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);

    // Top: the phase bar.
    let unit_label = tape.unit.symbol();
    let mut bar = phase_bar::BarAction::None;
    let top = egui::Panel::top("phase_bar").show(&mut root, |ui| {
        bar = phase_bar::show(
            ui,
            &battle,
            *tool == Tool::Tape,
            unit_label,
            &mut ui_state.why_open,
        );
    });
    if ctrl && keys.just_pressed(KeyCode::KeyS) {
        bar = phase_bar::BarAction::Save;
    }
    if ctrl && keys.just_pressed(KeyCode::KeyO) {
        bar = phase_bar::BarAction::Open;
    }

    // New dice open the dice panel.
    let n = battle.game.len();
    if n != ui_state.dice_seen {
        ui_state.dice_seen = n;
        ui_state.dice_open = dice::has_dice(&battle.last);
    }
    ui_state.dice_rect = None;
    ui_state.tape_label = None;

    // Right: the dice of the last action, then cards and actions. The dice sit in the panel, not
    // in a window, so they never cover the table.
    let mut panel = side_panel::PanelAction::None;
    let side = egui::Panel::right("details")
        .exact_size(SIDE_PANEL_PX)
        .show(&mut root, |ui| {
            // A remote battle's card: what this side waits for, its files, the chat.
            super::remote_card::card(ui, &mut battle, &mut ui_state.remote_fields);
            // A lesson's card comes first: it says what to do now.
            let lesson_action = super::lesson::card(ui, &mut battle);
            ui_state.lesson_rect = battle
                .game
                .lesson()
                .and_then(|_| {
                    ui.ctx()
                        .data(|d| d.get_temp::<egui::Rect>(egui::Id::new("lesson card rect")))
                })
                .map(|r| (r, super::lesson::CARD_FILL));
            match lesson_action {
                super::lesson::LessonAction::ShowMe(cmd) => {
                    panel = side_panel::PanelAction::Submit(cmd)
                }
                super::lesson::LessonAction::Finish => next.set(Screen::Start),
                super::lesson::LessonAction::Restart => {
                    if let Err(e) = battle.restart() {
                        battle.notice = Some(format!("The lesson could not start again: {e}"));
                    }
                    draft.clear();
                    selected.0 = None;
                }
                super::lesson::LessonAction::Back => {
                    battle.lesson_back();
                    draft.clear();
                    selected.0 = None;
                }
                super::lesson::LessonAction::None => {}
            }
            if ui_state.dice_open && battle.curtain.is_none() {
                let fill = crate::palette::egui_rgb(crate::palette::DICE_PANEL);
                let framed = egui::Frame::group(ui.style()).fill(fill).show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.label(egui::RichText::new("Dice").strong());
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            if ui
                                .small_button("×")
                                .on_hover_text("Close the dice")
                                .clicked()
                            {
                                ui_state.dice_open = false;
                            }
                        });
                    });
                    dice::show(ui, &battle);
                });
                ui_state.dice_rect = Some((framed.response.rect, [fill.r(), fill.g(), fill.b()]));
            }
            if matches!(panel, side_panel::PanelAction::None) {
                panel = side_panel::show(ui, &battle, selected.0, &draft, &mut choices);
            } else {
                side_panel::show(ui, &battle, selected.0, &draft, &mut choices);
            }
        });

    // Bottom: the log.
    let bottom = egui::Panel::bottom("log")
        .resizable(true)
        .default_size(150.0)
        .show(&mut root, |ui| {
            log_panel::show(ui, &battle, &mut ui_state.log_filter);
        });

    let window = view.window;
    *area = TableArea {
        min: Vec2::new(0.0, top.response.rect.bottom()),
        max: Vec2::new(
            (window.x - side.response.rect.width()).max(1.0),
            bottom
                .response
                .rect
                .top()
                .max(top.response.rect.bottom() + 1.0),
        ),
        measured: true,
    };

    // Modal parts.
    if battle.is_over() && windows::end(&ctx, &battle) {
        next.set(Screen::Start);
    }
    if ui_state.saves_open {
        let mut open = true;
        let mut chosen = None;
        egui::Window::new("Saved battles")
            .open(&mut open)
            .show(&ctx, |ui| {
                if let Some(m) = &ui_state.message {
                    ui.label(egui::RichText::new(m).color(egui::Color32::from_rgb(255, 190, 140)));
                }
                for p in saves::list(&save_dir) {
                    if ui
                        .button(
                            p.file_name()
                                .map(|f| f.to_string_lossy().into_owned())
                                .unwrap_or_default(),
                        )
                        .clicked()
                    {
                        chosen = Some(p);
                    }
                }
            });
        ui_state.saves_open = open;
        if let Some(p) = chosen {
            match saves::load(&rulesets.0, &p) {
                Ok(mut b) => {
                    // The loaded battle goes on with the same players (person or computer).
                    b.set_seats(battle.seats);
                    *battle = b;
                    draft.clear();
                    selected.0 = None;
                    ui_state.saves_open = false;
                    ui_state.message = None;
                }
                Err(e) => {
                    ui_state.message = Some(format!(
                        "This save cannot be loaded, and it is left as it is: {e}"
                    ))
                }
            }
        }
    }
    match windows::curtain(&ctx, &battle) {
        windows::CurtainAnswer::Ready => battle.lift_curtain(),
        windows::CurtainAnswer::Allow => battle.answer_take_back(true),
        windows::CurtainAnswer::Refuse => battle.answer_take_back(false),
        windows::CurtainAnswer::None => {}
    }

    // Hover tooltip and the tape's label.
    if battle.curtain.is_none() {
        tooltip(&ctx, &battle, &hovered, &pointer, selected.0);
        if let (Some(a), Some(b)) = (tape.start, tape.end) {
            let m = measure(a, b);
            let mid = view.world_to_screen(from_geo((m.from + m.to) * 0.5));
            let words = format_length(m.length_cm, tape.unit);
            let fill = egui::Color32::from_rgb(40, 40, 20);
            let shown = egui::Area::new("tape_label".into())
                .fixed_pos(egui::pos2(mid.x + 8.0, mid.y - 28.0))
                .order(egui::Order::Tooltip)
                .interactable(false)
                .show(&ctx, |ui| {
                    egui::Frame::popup(ui.style()).fill(fill).show(ui, |ui| {
                        ui.label(
                            egui::RichText::new(words.clone())
                                .size(16.0)
                                .strong()
                                .color(egui::Color32::YELLOW),
                        );
                        if m.base_to_base {
                            ui.label(egui::RichText::new("base to base (closest points)").small());
                        }
                    });
                });
            ui_state.tape_label =
                Some((shown.response.rect, [fill.r(), fill.g(), fill.b()], words));
        }
    }

    // The settings ask before a plan is carried out: the question, over the table.
    if draft.asking && battle.curtain.is_none() {
        let what = draft
            .preview
            .as_ref()
            .map(|p| p.commit.clone())
            .filter(|c| !c.is_empty())
            .unwrap_or_else(|| "Commit".into());
        let advice = draft.advice.clone();
        let planned = draft
            .command()
            .map(|c| battle.game.describe_command(c))
            .filter(|d| !d.is_empty());
        egui::Window::new(if advice.is_some() {
            "The coach"
        } else {
            "Commit?"
        })
        .id(egui::Id::new("confirm commit"))
        .collapsible(false)
        .resizable(false)
        .max_width(460.0)
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 90.0))
        .show(&ctx, |ui| {
            match &advice {
                Some(a) => {
                    if let Some(p) = &planned {
                        ui.label(egui::RichText::new(format!("Your plan: {p}.")).strong());
                    }
                    super::rules::rich(ui, a);
                    ui.label(egui::RichText::new("It is only advice: the choice is yours.").weak());
                }
                None => {
                    ui.label("Carry out the planned command?");
                }
            }
            ui.horizontal(|ui| {
                let go = if advice.is_some() {
                    "Do it anyway  (Enter)".to_string()
                } else {
                    format!("{what}  (Enter)")
                };
                if ui.button(go).clicked() {
                    panel = side_panel::PanelAction::CommitDraft;
                }
                let back = if advice.is_some() {
                    "Think again  (Esc)"
                } else {
                    "Not yet  (Esc)"
                };
                if ui.button(back).clicked() {
                    draft.asking = false;
                    draft.advice = None;
                }
            });
        });
    }

    // Act on what was clicked.
    match bar {
        phase_bar::BarAction::Menu => next.set(Screen::Start),
        phase_bar::BarAction::Next => {
            if let Some(next) = actions::next_step(&battle) {
                let _ = battle.submit(&next.command);
            }
        }
        phase_bar::BarAction::Fit => fit.0 = true,
        phase_bar::BarAction::ToggleTape => {
            *tool = if *tool == Tool::Tape {
                Tool::Select
            } else {
                Tool::Tape
            }
        }
        phase_bar::BarAction::ToggleUnits => tape.unit = tape.unit.other(),
        phase_bar::BarAction::ToggleSameDice => battle.same_dice = !battle.same_dice,
        phase_bar::BarAction::Undo => {
            battle.undo();
            draft.clear();
        }
        phase_bar::BarAction::Redo => {
            battle.redo();
            draft.clear();
        }
        phase_bar::BarAction::Save if battle.remote.is_some() => {
            battle.notice = Some(format!(
                "A remote battle keeps itself: every turn file is in {}.",
                battle.remote_folder().unwrap_or_default().display()
            ));
        }
        phase_bar::BarAction::Save => {
            battle.notice = Some(match saves::save_as(&save_dir, &battle) {
                Ok(p) => format!("Saved to {}", p.display()),
                Err(e) => format!("Could not save: {e}"),
            });
        }
        phase_bar::BarAction::Open => {
            ui_state.saves_open = true;
            ui_state.message = None;
        }
        phase_bar::BarAction::Settings => settings_shown.open = !settings_shown.open,
        phase_bar::BarAction::None => {}
    }
    apply(panel, &mut battle, &mut draft, selected.0);
    Ok(())
}

/// Carries out what a panel or menu button asked for.
pub(super) fn apply(
    panel: side_panel::PanelAction,
    battle: &mut Battle,
    draft: &mut Draft,
    selection: Option<PieceId>,
) {
    match panel {
        side_panel::PanelAction::Submit(cmd) => {
            draft::submit_coached(draft, battle, &cmd);
        }
        side_panel::PanelAction::Plan(cmd) => {
            if let Some(piece) = selection {
                draft.set_plan(battle, piece, Some(cmd));
            }
        }
        side_panel::PanelAction::CommitDraft => {
            draft::commit(draft, battle);
        }
        side_panel::PanelAction::DropStep => draft::drop_last(draft, battle),
        side_panel::PanelAction::ClearDraft => {
            let piece = draft.piece;
            draft.clear();
            draft.piece = piece;
        }
        side_panel::PanelAction::None => {}
    }
}

/// The hover tooltip, as the ruleset words it (with a selection it may say what an action
/// between the two would cost).
fn tooltip(
    ctx: &egui::Context,
    battle: &Battle,
    hovered: &Hovered,
    pointer: &Pointer,
    selected: Option<PieceId>,
) {
    let (Some(h), Some(screen), false) = (hovered.0, pointer.screen, pointer.over_ui) else {
        return;
    };
    let lines = battle.game.tooltip(battle.viewer, h.piece, selected);
    let Some((title, rest)) = lines.split_first() else {
        return;
    };
    let side = battle.scene.piece(h.piece).map(|p| p.side as usize);
    egui::Area::new("hover_tip".into())
        .fixed_pos(egui::pos2(screen.x + 16.0, screen.y + 12.0))
        .order(egui::Order::Tooltip)
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let t = egui::RichText::new(title).strong();
                ui.label(match side {
                    Some(s) => t.color(palette::side_egui(s)),
                    None => t,
                });
                for l in rest {
                    ui.label(l);
                }
            });
        });
}
