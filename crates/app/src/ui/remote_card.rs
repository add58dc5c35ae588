//! The card of a remote battle (`crate::remote`), at the top of the side panel: what this side
//! waits for, where its last file is, a file refused and why, and for live play the connection
//! and the chat.

use crate::battle::Battle;
use bevy_egui::egui;
use sandtable_remote::live::Message;

/// Text being typed into the card (a path, a chat line).
#[derive(Default, Clone)]
pub struct CardFields {
    pub file: String,
    pub chat: String,
}

pub fn card(ui: &mut egui::Ui, battle: &mut Battle, fields: &mut CardFields) {
    let Some(remote) = battle.remote.clone() else {
        return;
    };
    let mut import: Option<std::path::PathBuf> = None;
    egui::Frame::group(ui.style())
        .fill(egui::Color32::from_rgb(34, 44, 58))
        .show(ui, |ui| {
            let mut side = remote.lock();
            let live = side.pump.is_some();
            ui.label(
                egui::RichText::new(if live { "Live battle" } else { "Battle by email" }).strong(),
            );
            ui.label(side.handle.waiting());
            if live {
                ui.label(egui::RichText::new(&side.connection).weak());
            }
            if let Some(e) = &side.refused {
                ui.colored_label(egui::Color32::LIGHT_RED, format!("Refused: {e}"));
            }
            if !live {
                if let Some(p) = &side.exported {
                    ui.horizontal_wrapped(|ui| {
                        ui.label("Your last file:");
                        ui.monospace(p.display().to_string());
                        if ui.small_button("Copy path").clicked() {
                            ui.ctx().copy_text(p.display().to_string());
                        }
                    });
                }
                ui.label(
                    egui::RichText::new(format!(
                        "Save the other player's file into {} and it is read at once, or open it here:",
                        side.folder.display()
                    ))
                    .weak(),
                );
                ui.horizontal(|ui| {
                    ui.add(
                        egui::TextEdit::singleline(&mut fields.file)
                            .hint_text("turn file received")
                            .desired_width(200.0),
                    );
                    if ui
                        .add_enabled(!fields.file.trim().is_empty(), egui::Button::new("Open"))
                        .clicked()
                    {
                        import = Some(fields.file.trim().into());
                    }
                });
            } else {
                for (mine, line) in side.chat.iter().rev().take(4).rev() {
                    ui.label(format!("{} {line}", if *mine { "You:" } else { "They:" }));
                }
                let mut send = None;
                ui.horizontal(|ui| {
                    let r = ui.add(
                        egui::TextEdit::singleline(&mut fields.chat)
                            .hint_text("a word to the other player")
                            .desired_width(170.0),
                    );
                    let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if (ui.button("Send").clicked() || enter) && !fields.chat.trim().is_empty() {
                        send = Some(Message::Chat(std::mem::take(&mut fields.chat)));
                    }
                    if ui
                        .button("Ready")
                        .on_hover_text("Tell the other player you have seen what happened")
                        .clicked()
                    {
                        send = Some(Message::Ready);
                    }
                });
                if let Some(m) = send {
                    if let Message::Chat(t) = &m {
                        side.chat.push((true, t.clone()));
                    }
                    if let Some(p) = &side.pump {
                        p.send(m);
                    }
                }
            }
        });
    if let Some(path) = import {
        match std::fs::read(&path) {
            Ok(bytes) => {
                battle.remote_import(&path.display().to_string(), &bytes);
                fields.file.clear();
            }
            Err(e) => battle.notice = Some(format!("{}: {e}", path.display())),
        }
    }
}
