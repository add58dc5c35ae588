//! The start screen: the scenarios with their briefings; the default battle is one click (or
//! Enter) away. Scenarios that fail to load are listed with their errors instead of crashing.

use super::root_ui;
use crate::battle::SeatKind;
use crate::catalogue::Catalogue;
use crate::screens::OpenRequest;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The fields of "Play with someone elsewhere".
#[derive(Default)]
pub(super) struct RemoteForm {
    /// This player's public key (made on first use), or why there is none.
    key: Option<Result<String, String>>,
    opponent: String,
    seat: u8,
    file: String,
    bind: String,
    addr: String,
    code: String,
    /// Battles in progress, scanned when the section opens.
    in_progress: Option<Vec<std::path::PathBuf>>,
    /// The section was brought into view once (`--open-remote`).
    scrolled: bool,
}

// A Bevy system: each argument is a resource it reads, the last ones grouped in tuples to stay
// within Bevy's sixteen parameters.
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
pub(super) fn start_screen(
    mut contexts: EguiContexts,
    catalogue: Option<Res<Catalogue>>,
    mut request: ResMut<OpenRequest>,
    resume: Option<Res<crate::saves::ResumeOffer>>,
    mut chosen: Local<Option<usize>>,
    mut settings_shown: ResMut<super::settings_window::SettingsWindow>,
    launched: Option<Res<crate::Launched>>,
    mut timed: Local<bool>,
    (mut form, pending, mut commands, remote_open, setup, (mut editor, rulesets, paths)): (
        Local<RemoteForm>,
        Option<Res<crate::remote::PendingLive>>,
        Commands,
        Res<super::RemoteSectionOpen>,
        Option<ResMut<crate::setup::BattleSetup>>,
        (
            ResMut<crate::editor::TableEditor>,
            Res<crate::rulesets::Rulesets>,
            Res<crate::paths::DataPaths>,
        ),
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if !*timed && let Some(l) = launched {
        *timed = true;
        info!(
            "start-up: the start screen's first frame {:.0} ms after launch",
            l.0.elapsed().as_secs_f64() * 1e3
        );
    }
    let Some(catalogue) = catalogue else {
        return Ok(());
    };
    let entries = &catalogue.entries;
    let default = entries.iter().position(|e| e.result.is_ok());
    let mut index = chosen.or(default);

    // The list's keys belong to the list only: not while a text field has the keyboard, nor
    // under the set-up window or the table editor (Enter in the builder's fields must not start
    // the default battle).
    let covered = setup.as_ref().is_some_and(|s| s.open) || editor.editor.is_some();
    let keys_free = !covered && !ctx.egui_wants_keyboard_input();
    let (up, down, enter) = ctx.input(|i| {
        (
            keys_free && i.key_pressed(egui::Key::ArrowUp),
            keys_free && i.key_pressed(egui::Key::ArrowDown),
            keys_free && i.key_pressed(egui::Key::Enter),
        )
    });
    if !entries.is_empty() {
        let n = entries.len();
        if up {
            index = Some(index.map_or(0, |i| (i + n - 1) % n));
        }
        if down {
            index = Some(index.map_or(0, |i| (i + 1) % n));
        }
    }

    let mut ui = root_ui(ctx);
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.add_space(12.0);
        ui.vertical_centered(|ui| {
            ui.heading(egui::RichText::new("Sandtable").size(34.0).strong());
            ui.label("A table for 17th- and 18th-century battles: the rules referee, explain and teach");
            ui.horizontal(|ui| {
                if ui
                    .button("⚙ Settings")
                    .on_hover_text("Interface size, tape unit, the computer's pace, confirm before committing")
                    .clicked()
                {
                    settings_shown.open = !settings_shown.open;
                }
                if let Some(mut setup) = setup
                    && ui
                        .button("Set up a battle from two forces…")
                        .on_hover_text("Build forces from the army lists, then let the rules run the pre-battle sequence: scenario, effects, terrain, reconnaissance, deployment (BFS-SCN-9)")
                        .clicked()
                {
                    setup.open = true;
                }
            });
        });
        ui.add_space(16.0);
        if let Some(lines) = &request.error {
            error_box(ui, "The scenario could not be opened", lines);
        }
        if let Some(offer) = resume.as_deref() {
            if let Some(path) = &offer.path {
                egui::Frame::group(ui.style()).show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.label(egui::RichText::new(format!("An unfinished battle: {}", offer.title)).strong());
                        if ui.button("Resume").on_hover_text("Go on from the autosave").clicked() {
                            request.save = Some(path.clone());
                        }
                    });
                });
            }
            if let Some(p) = &offer.problem {
                error_box(ui, "A damaged autosave", std::slice::from_ref(p));
            }
        }
        if let Some(err) = &catalogue.folder_error {
            error_box(ui, "No scenarios found", std::slice::from_ref(err));
        }
        ui.columns(2, |cols| {
            cols[0].heading("Scenarios");
            egui::ScrollArea::vertical()
                .id_salt("list")
                .show(&mut cols[0], |ui| {
                    let mut group = None;
                    for (i, e) in entries.iter().enumerate() {
                        // Headings between kinds (battles, solo, lessons) and rulesets, then the
                        // player's own scenarios.
                        let g = e.group();
                        if group.as_ref() != Some(&g) {
                            ui.add_space(6.0);
                            ui.label(egui::RichText::new(g.heading()).strong().color(egui::Color32::from_rgb(200, 200, 160)));
                            group = Some(g);
                        }
                        let selected = index == Some(i);
                        let text = match &e.result {
                            Ok(l) => egui::RichText::new(format!(
                                "{}\n{} · {} turns · {}",
                                l.info.name,
                                l.info.scale,
                                l.info.turn_limit,
                                crate::preview::one_line(&l.info.briefing, 70)
                            )),
                            Err(_) => {
                                egui::RichText::new(format!("⚠ {} (cannot be loaded)", e.title()))
                                    .color(egui::Color32::LIGHT_RED)
                            }
                        };
                        let r = ui.selectable_label(selected, text);
                        if r.clicked() {
                            index = Some(i);
                        }
                        if r.double_clicked() && e.result.is_ok() {
                            request.path = Some(e.path.clone());
                        }
                    }
                });
            egui::ScrollArea::vertical()
                .id_salt("briefing")
                .show(&mut cols[1], |right| {
            if let Some(e) = index.and_then(|i| entries.get(i)) {
                match &e.result {
                    Ok(l) => {
                        right.heading(&l.info.name);
                        right.label(
                            egui::RichText::new(format!(
                                "{} · {} against {} · {} · {} turns · table {}×{} cm",
                                l.ruleset,
                                l.info.side_name(0),
                                l.info.side_name(1),
                                l.info.scale,
                                l.info.turn_limit,
                                l.info.table.0,
                                l.info.table.1
                            ))
                            .weak(),
                        );
                        right.add_space(6.0);
                        let w = right.available_width().min(360.0);
                        super::thumbnail::show(right, &l.preview, w)
                            .on_hover_text("The table at the start, as both sides see it");
                        right.add_space(6.0);
                        super::rules::rich(right, &l.info.briefing);
                        right.add_space(12.0);
                        if let Some(lesson) = &l.info.lesson {
                            let learner = l.info.side_name(lesson.learner.min(1) as u8);
                            right.label(format!("You play the {learner} side; the computer plays the other. {} steps, each checked by the rules as you play.", lesson.steps.len()));
                        } else {
                        egui::Grid::new("seats").num_columns(3).show(right, |ui| {
                            for (i, side) in l.info.sides.iter().enumerate().take(2) {
                                ui.label(egui::RichText::new(side).color(crate::palette::side_egui(i)).strong());
                                ui.radio_value(&mut request.seats[i], SeatKind::Human, "Player");
                                ui.radio_value(&mut request.seats[i], SeatKind::Computer, "Computer")
                                    .on_hover_text("The computer plays this side (solo play)");
                                ui.end_row();
                            }
                        });
                        if request.seats.contains(&SeatKind::Computer) {
                            right.horizontal(|ui| {
                                ui.label("The computer plays as a");
                                for level in sandtable_ai::Level::ALL {
                                    ui.radio_value(&mut request.level, level, level.name())
                                        .on_hover_text(level.describe());
                                }
                            });
                        }
                        right.label(
                            egui::RichText::new(match request.seats {
                                [SeatKind::Human, SeatKind::Human] => "Hot-seat: two players share this screen; a curtain hides each side's secrets.",
                                [SeatKind::Computer, SeatKind::Computer] => "The computer plays both sides: watch a demonstration battle.",
                                _ => "Solo: you play against the computer, which sees only what its side may see.",
                            })
                            .weak(),
                        );
                        }
                        right.add_space(8.0);
                        let play = right.add(egui::Button::new(
                            egui::RichText::new("▶  Play  (Enter)").size(18.0),
                        ));
                        if play.clicked() || enter {
                            request.path = Some(e.path.clone());
                        }
                        if right
                            .button("Edit the table…")
                            .on_hover_text("Move, add and remove terrain, objectives, deployment areas and pieces; every edit is checked by the rules, and the result is saved among your own scenarios")
                            .clicked()
                        {
                            editor.open(&rulesets, &paths, &e.path);
                        }
                        if l.info.lesson.is_none() {
                            right.add_space(10.0);
                            remote_section(right, &mut form, &mut request, &e.path, &l.info.sides, remote_open.0);
                        }
                    }
                    Err(err) => error_box(
                        right,
                        &format!("{} cannot be loaded", e.title()),
                        &err.lines(),
                    ),
                }
            }
                });
        });
    });
    if let Some(p) = pending {
        let mut cancel = false;
        egui::Window::new("Live battle")
            .collapsible(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
            .show(ctx, |ui| {
                ui.label(&p.status);
                if p.scenario.is_some() {
                    ui.label(
                        egui::RichText::new(format!("Join code: {}", p.code))
                            .size(22.0)
                            .strong(),
                    );
                }
                cancel = ui.button("Cancel").clicked();
            });
        if cancel {
            commands.remove_resource::<crate::remote::PendingLive>();
        }
    }
    *chosen = index;
    Ok(())
}

/// "Play with someone elsewhere": by email, or live; battles in progress.
fn remote_section(
    ui: &mut egui::Ui,
    form: &mut RemoteForm,
    request: &mut OpenRequest,
    scenario: &std::path::Path,
    sides: &[String],
    open: bool,
) {
    use crate::screens::RemoteAction;
    egui::CollapsingHeader::new("Play with someone elsewhere")
        .id_salt("remote")
        .default_open(open)
        .show(ui, |ui| {
            let key = form
                .key
                .get_or_insert_with(|| crate::remote::identity().map(|i| i.public_hex()));
            match key {
                Ok(k) => {
                    ui.horizontal(|ui| {
                        ui.label("Your key:");
                        ui.monospace(format!("{}…", &k[..16]));
                        if ui
                            .small_button("Copy")
                            .on_hover_text("Copy your whole public key, to send the other player")
                            .clicked()
                        {
                            ui.ctx().copy_text(k.clone());
                        }
                    });
                }
                Err(e) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, format!("No identity: {e}"));
                }
            }
            ui.separator();
            ui.label(egui::RichText::new("By email").strong());
            ui.horizontal(|ui| {
                ui.label("You play");
                for (i, side) in sides.iter().enumerate().take(2) {
                    ui.radio_value(&mut form.seat, i as u8, side);
                }
            });
            ui.horizontal(|ui| {
                ui.label("Their key:");
                ui.add(
                    egui::TextEdit::singleline(&mut form.opponent)
                        .hint_text("64 hex digits")
                        .desired_width(220.0),
                );
            });
            if ui
                .add_enabled(
                    form.opponent.trim().len() == 64,
                    egui::Button::new("✉ Offer this battle by email"),
                )
                .on_hover_text("Writes the battle's first turn file for you to send")
                .clicked()
            {
                request.remote = Some(RemoteAction::Email {
                    scenario: scenario.to_path_buf(),
                    seat: form.seat,
                    opponent: form.opponent.trim().to_string(),
                });
            }
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut form.file)
                        .hint_text("a turn file you received")
                        .desired_width(220.0),
                );
                if ui
                    .add_enabled(!form.file.trim().is_empty(), egui::Button::new("Open"))
                    .on_hover_text("Accept a battle offered to you, or go on with one in progress")
                    .clicked()
                {
                    request.remote = Some(RemoteAction::OpenFile(form.file.trim().into()));
                }
            });
            ui.separator();
            ui.label(egui::RichText::new("Live").strong());
            if form.bind.is_empty() {
                form.bind = "0.0.0.0:7878".into();
            }
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(&mut form.bind).desired_width(140.0));
                if ui
                    .button("Host")
                    .on_hover_text("Offer this scenario on the network; you play the first side")
                    .clicked()
                {
                    request.remote = Some(RemoteAction::Host {
                        scenario: scenario.to_path_buf(),
                        bind: form.bind.trim().to_string(),
                    });
                }
            });
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut form.addr)
                        .hint_text("host:port")
                        .desired_width(140.0),
                );
                ui.add(
                    egui::TextEdit::singleline(&mut form.code)
                        .hint_text("code")
                        .desired_width(70.0),
                );
                if ui
                    .add_enabled(
                        !form.addr.trim().is_empty() && !form.code.trim().is_empty(),
                        egui::Button::new("Join"),
                    )
                    .clicked()
                {
                    request.remote = Some(RemoteAction::Join {
                        addr: form.addr.trim().to_string(),
                        code: form.code.trim().to_string(),
                    });
                }
            });
            if open && !form.scrolled {
                form.scrolled = true;
                ui.scroll_to_cursor(Some(egui::Align::BOTTOM));
            }
            let in_progress = form
                .in_progress
                .get_or_insert_with(crate::remote::battles_in_progress);
            if !in_progress.is_empty() {
                ui.separator();
                ui.label(egui::RichText::new("In progress").strong());
                for folder in in_progress.iter().take(5) {
                    ui.horizontal(|ui| {
                        ui.label(
                            folder
                                .file_name()
                                .map(|n| n.to_string_lossy().into_owned())
                                .unwrap_or_default(),
                        );
                        if ui.small_button("Resume").clicked() {
                            request.remote = Some(RemoteAction::Resume(folder.clone()));
                        }
                    });
                }
            }
        });
}

fn error_box(ui: &mut egui::Ui, title: &str, lines: &[String]) {
    egui::Frame::group(ui.style())
        .fill(egui::Color32::from_rgb(70, 30, 30))
        .show(ui, |ui| {
            ui.label(
                egui::RichText::new(title)
                    .strong()
                    .color(egui::Color32::LIGHT_RED),
            );
            for l in lines {
                ui.label(
                    egui::RichText::new(l)
                        .monospace()
                        .color(egui::Color32::from_rgb(255, 210, 210)),
                );
            }
        });
}
