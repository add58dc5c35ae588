//! The dice panel: every roll of the last action — target, each modifier with its rule and reason,
//! the faces (hits in green), armor tests, losses and Morale tests.

use crate::battle::Battle;
use bevy_egui::egui;
use sandtable_bfs::Event;
use sandtable_bfs::narrate;
use sandtable_engine::roll::{Modifier, PoolRoll};

/// Does this list of events hold any dice worth showing?
pub fn has_dice(events: &[Event]) -> bool {
    events.iter().any(|e| {
        matches!(
            e,
            Event::Volley(_)
                | Event::Melee(_)
                | Event::Test(_)
                | Event::CombatResolved(_)
                | Event::InitiativeRolled { .. }
        )
    })
}

fn faces(ui: &mut egui::Ui, faces: &[u8], target: i32) {
    ui.horizontal_wrapped(|ui| {
        for f in faces {
            let hit = (*f as i32) <= target;
            let colour = if hit {
                egui::Color32::from_rgb(90, 200, 110)
            } else {
                egui::Color32::from_gray(150)
            };
            ui.label(
                egui::RichText::new(format!(" {f} "))
                    .monospace()
                    .strong()
                    .color(egui::Color32::BLACK)
                    .background_color(colour),
            );
        }
    });
}

fn modifiers(ui: &mut egui::Ui, m: &[Modifier]) {
    for x in m {
        // The rule ID is a link to the program's help for it.
        super::rules::rich_styled(
            ui,
            &format!("  {:+}  {} — {}", x.delta, x.reason, x.rule),
            |t| egui::RichText::new(t).small(),
        );
    }
}

fn pool(ui: &mut egui::Ui, label: &str, r: &PoolRoll) {
    let p = &r.plan;
    if p.auto_fail {
        ui.label(format!("{label}: no dice left — automatic failure"));
        return;
    }
    ui.label(format!(
        "{label}: {} dice, need {} or less (base {})",
        p.dice,
        p.target,
        p.raw_target - p.modifiers.iter().map(|m| m.delta).sum::<i32>()
    ));
    modifiers(ui, &p.modifiers);
    for c in &p.dice_changes {
        super::rules::rich_styled(
            ui,
            &format!("  {:+} dice  {} — {}", c.delta, c.reason, c.rule),
            |t| egui::RichText::new(t).small(),
        );
    }
    for n in &p.notes {
        super::rules::rich_styled(ui, &format!("  {n}"), |t| egui::RichText::new(t).small());
    }
    faces(ui, &r.faces, p.target);
    if !r.reroll_faces.is_empty() {
        super::rules::rich(ui, "Long range: the hits are rolled again (BFS-SHO-14)");
        faces(ui, &r.reroll_faces, p.target);
    }
    ui.label(egui::RichText::new(format!("→ {} success(es)", r.successes)).strong());
}

/// The armor tests of a volley or a melee, then its hits and losses.
fn outcome(
    ui: &mut egui::Ui,
    armor: &[sandtable_bfs::event::ArmorReport],
    hits: u32,
    sp_lost: u32,
) {
    for a in armor {
        ui.label(format!(
            "Armor tests: Armor {} → saves on {} or less",
            a.armor, a.target
        ));
        modifiers(ui, &a.modifiers);
        faces(ui, &a.faces, a.target);
    }
    ui.label(
        egui::RichText::new(format!("{hits} hit(s), {sp_lost} Strength point(s) lost")).strong(),
    );
}

pub fn show(ui: &mut egui::Ui, battle: &Battle) {
    let game = battle.session.state();
    let name = |u: sandtable_bfs::UnitId| game.unit(u).name.clone();
    egui::ScrollArea::vertical()
        .max_height(300.0)
        .show(ui, |ui| {
            for e in &battle.last_events {
                match e {
                    Event::Volley(v) => {
                        ui.heading(format!("{} fires at {}", name(v.shooter), name(v.target)));
                        ui.label(format!("{} — {}", v.stage, v.weapon));
                        for g in &v.groups {
                            pool(
                                ui,
                                &format!(
                                    "{} base(s), {:?} range, {:.1} cm",
                                    g.bases, g.band, g.distance_cm
                                ),
                                &g.roll,
                            );
                        }
                        outcome(ui, &v.armor, v.hits, v.sp_lost);
                        ui.separator();
                    }
                    Event::Melee(m) => {
                        ui.heading(format!(
                            "Round {}: {} strikes {}",
                            m.round,
                            name(m.attacker),
                            name(m.target)
                        ));
                        ui.label(format!(
                            "{}{}",
                            m.weapon,
                            if m.first_strike {
                                " — strikes first"
                            } else {
                                ""
                            }
                        ));
                        for g in &m.groups {
                            pool(ui, &format!("{} base(s)", g.bases), &g.roll);
                        }
                        outcome(ui, &m.armor, m.hits, m.sp_lost);
                        ui.separator();
                    }
                    Event::CombatResolved(_) | Event::InitiativeRolled { .. } => {
                        super::rules::rich_styled(ui, &narrate::describe(game, e), |t| {
                            egui::RichText::new(t).strong()
                        });
                        ui.separator();
                    }
                    Event::Test(t) => {
                        let who = t.unit.map(&name).unwrap_or_default();
                        ui.label(
                            egui::RichText::new(format!("{who}: {:?} test — {}", t.kind, t.cause))
                                .strong(),
                        );
                        ui.label(format!(
                            "needs {} or less (base {})",
                            t.roll.target, t.roll.base_target
                        ));
                        modifiers(ui, &t.roll.modifiers);
                        match t.roll.face {
                            Some(f) => faces(ui, &[f], t.roll.target),
                            None => {
                                ui.label("no roll needed");
                            }
                        }
                        super::rules::rich(ui, &format!("→ {}", t.outcome));
                        ui.separator();
                    }
                    _ => {}
                }
            }
        });
}
