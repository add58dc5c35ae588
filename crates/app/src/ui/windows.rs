//! Modal parts of the battle screen: the hand-over curtain, the Initiative bid and choice, and the
//! end of the battle.

use crate::battle::Battle;
use crate::palette;
use bevy_egui::egui;
use sandtable_bfs::Command;
use sandtable_bfs::turn::Phase;

/// Covers the whole screen until the next player is ready, so nothing secret shows.
pub fn curtain(ctx: &egui::Context, battle: &Battle) -> bool {
    let Some(side) = battle.curtain else {
        return false;
    };
    let mut ready = false;
    egui::Area::new("curtain".into()).fixed_pos(egui::pos2(0.0, 0.0)).order(egui::Order::Foreground).show(ctx, |ui| {
        let screen = ctx.viewport_rect();
        ui.painter().rect_filled(screen, 0.0, egui::Color32::from_rgb(24, 24, 28));
        ui.scope_builder(egui::UiBuilder::new().max_rect(screen), |ui| {
            ui.vertical_centered(|ui| {
                ui.add_space(screen.height() * 0.35);
                let name = &battle.game.sides[side.index()].name;
                ui.label(egui::RichText::new(format!("Pass to {name}")).size(34.0).strong().color(palette::side_egui(side.index())));
                ui.label(egui::RichText::new("The other player looks away: the next screen shows this side's secrets.").size(16.0));
                ui.add_space(18.0);
                if ui.add(egui::Button::new(egui::RichText::new("I am ready  (Space)").size(20.0))).clicked() {
                    ready = true;
                }
            });
        });
    });
    ready
}

/// The secret bid and the keep-or-hand-over choice (BFS-INI-2..4), shown in the side panel so the
/// table stays in view.
pub fn initiative(ui: &mut egui::Ui, battle: &Battle, bid: &mut u8) -> Option<Command> {
    let mut out = None;
    let game = &battle.game;
    match &game.turn.phase {
        Phase::InitiativeBids { .. } if battle.deciding() == Some(battle.viewer) => {
            let max = sandtable_bfs::phases::initiative::max_bid(game, battle.viewer);
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.label(egui::RichText::new("Initiative — your secret bid").strong());
                ui.label("Each command point of your commander-in-chief you bid adds +2 to your Initiative roll. The bid is paid whether you win or not (BFS-INI-2).");
                *bid = (*bid).min(max);
                ui.add(egui::Slider::new(bid, 0..=max).text("CP"));
                if ui.button(egui::RichText::new(format!("Bid {bid} CP in secret")).strong()).clicked() {
                    out = Some(Command::Bid { side: battle.viewer, cp: *bid });
                }
                ui.label(egui::RichText::new("Keys: 0–9 bid directly").weak());
            });
        }
        Phase::InitiativeChoice { winner } if battle.viewer == *winner => {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.label(egui::RichText::new("You won the Initiative").strong());
                for e in battle.last_events.iter().filter(|e| matches!(e, sandtable_bfs::Event::BidsRevealed { .. } | sandtable_bfs::Event::InitiativeRolled { .. })) {
                    ui.label(sandtable_bfs::narrate::describe(battle.session.state(), e));
                }
                ui.label("The side with the Initiative gives its orders first and moves first this turn (BFS-INI-4).");
                ui.horizontal(|ui| {
                    if ui.button("Keep it  [K]").clicked() {
                        out = Some(Command::ChooseInitiative { keep: true });
                    }
                    if ui.button("Hand it over  [L]").clicked() {
                        out = Some(Command::ChooseInitiative { keep: false });
                    }
                });
            });
        }
        _ => {}
    }
    out
}

/// The end screen: the result and the figures that decided it (BFS-VIC).
pub fn end(ctx: &egui::Context, battle: &Battle) -> bool {
    let Some(report) = battle.log.iter().rev().find_map(|(_, e)| {
        if let sandtable_bfs::Event::GameOver(r) = e {
            Some(r)
        } else {
            None
        }
    }) else {
        return false;
    };
    let mut close = false;
    let game = &battle.game;
    egui::Window::new("The battle is over").collapsible(false).resizable(false).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        let headline = match report.winner {
            Some(w) => format!("{} — {}", game.sides[w.index()].name, report.result),
            None => "A draw".to_string(),
        };
        ui.heading(headline);
        ui.label(format!("Why it ended: {}", report.reason));
        egui::Grid::new("victory").striped(true).show(ui, |ui| {
            for h in ["", "Force Value", "bases destroyed", "bases fled", "commanders", "loss points", "losses", "VP for losses", "VP for objectives", "VP"] {
                ui.label(egui::RichText::new(h).strong());
            }
            ui.end_row();
            for s in &report.sides {
                ui.label(egui::RichText::new(&game.sides[s.side.index()].name).color(palette::side_egui(s.side.index())));
                ui.label(s.force_value.to_string());
                ui.label(s.bases_destroyed.to_string());
                ui.label(s.bases_fled.to_string());
                ui.label(s.commanders_lost_points.to_string());
                ui.label(s.loss_points.to_string());
                ui.label(&s.loss_band);
                ui.label(s.vp_for_losses.to_string());
                ui.label(s.vp_for_scenario.to_string());
                ui.label(egui::RichText::new(s.vp_total.to_string()).strong());
                ui.end_row();
            }
        });
        super::rules::rich_styled(ui, "Losses give Victory Points (BFS-VIC-2): none 6, minor 3, acceptable 1, heavy 0; very heavy losses give the enemy 2 and a massacre 4. Objectives held at the end add theirs (BFS-VIC-6). The margin decides the result (BFS-VIC-7).", |t| egui::RichText::new(t).weak());
        let debriefing = &battle.loaded.scenario.debriefing;
        if !debriefing.trim().is_empty() {
            ui.separator();
            ui.label(egui::RichText::new("Debriefing").strong());
            ui.label(debriefing);
        }
        if ui.button("Back to the scenarios").clicked() {
            close = true;
        }
    });
    close
}
