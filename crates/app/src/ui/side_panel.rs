//! The right-hand panel: the selected unit's or commander's card, what it can do now (each action
//! a rules command, disabled with the rule's reason when not allowed), the odds before a charge or
//! a volley, and every commander's command points.

use crate::actions::{self, Action};
use crate::battle::Battle;
use crate::palette;
use crate::table::draft::Draft;
use crate::table::pick::Thing;
use bevy_egui::egui;
use sandtable_bfs::command::Command;
use sandtable_bfs::preview::{Odds, Preview};
use sandtable_bfs::profile::UnitProfile;
use sandtable_bfs::shooting::FireStage;
use sandtable_bfs::state::{Commander, Formation, Game, MoraleLevel, OrderKind, Unit};
use sandtable_bfs::turn::{CombatStage, Phase};
use sandtable_bfs::{CommanderId, preview};

/// What the panel asks the app to do.
pub enum PanelAction {
    None,
    Submit(Command),
    /// Add a maneuver step to the planned move.
    Draft(Command),
    CommitDraft,
    DropStep,
    ClearDraft,
}

pub fn show(
    ui: &mut egui::Ui,
    battle: &Battle,
    selected: Option<Thing>,
    draft: &Draft,
    paying: &mut Option<CommanderId>,
) -> PanelAction {
    let mut out = PanelAction::None;
    let game = &battle.game;
    egui::ScrollArea::vertical().show(ui, |ui| {
        match selected {
            Some(Thing::Unit(id)) => unit_card(ui, game, game.unit(id)),
            Some(Thing::Commander(id)) => commander_card(ui, game, game.commander(id)),
            None => {
                ui.label(egui::RichText::new("Select a unit or commander on the table.").weak());
            }
        }
        ui.separator();
        // Choosing who pays, in the Orders Phase.
        if let (Phase::Orders { .. }, Some(Thing::Unit(u))) = (&game.turn.phase, selected)
            && game.unit(u).side == battle.viewer
        {
            let who = sandtable_bfs::authority::commanders_who_may_order(game, u);
            if who.len() > 1 {
                let current = actions::paying_commander(game, u, *paying);
                egui::ComboBox::from_label("paid by")
                    .selected_text(
                        current.map_or("—".to_string(), |c| game.commander(c).name.clone()),
                    )
                    .show_ui(ui, |ui| {
                        for c in who {
                            let cost = sandtable_bfs::authority::order_cost(game, c, u);
                            ui.selectable_value(
                                paying,
                                Some(c),
                                format!(
                                    "{} ({} CP, {:.1} cm)",
                                    game.commander(c).name,
                                    cost.cp,
                                    cost.distance_cm
                                ),
                            );
                        }
                    });
            }
        }
        // The planned move or charge.
        if let Some(unit) = draft.unit
            && (draft.command().is_some() || draft.preview.is_some())
        {
            out = draft_box(ui, battle, draft, unit);
        }
        let list = actions::actions(battle, selected, *paying);
        if !list.is_empty() {
            ui.label(egui::RichText::new("Actions").strong());
        }
        for a in list {
            if let Some(act) = action_button(ui, &a, game) {
                out = act;
            }
        }
        stage_odds(ui, battle);
        ui.separator();
        pools(ui, game);
    });
    out
}

pub(super) fn action_button(ui: &mut egui::Ui, a: &Action, game: &Game) -> Option<PanelAction> {
    let label = match a.key {
        Some(k) => format!("{}   [{k}]", a.label),
        None => a.label.clone(),
    };
    let r = ui.add_enabled(a.allowed.is_ok(), egui::Button::new(label).wrap());
    let r = match &a.allowed {
        Ok(()) => r,
        Err(e) => r.on_disabled_hover_text(e.to_string()),
    };
    if r.clicked() {
        // Maneuvers of a moving unit join its planned move instead of ending its activation.
        if let Command::Move { unit, .. } = &a.command
            && matches!(
                game.unit(*unit).order,
                Some(OrderKind::Move) | Some(OrderKind::Charge)
            )
        {
            return Some(PanelAction::Draft(a.command.clone()));
        }
        return Some(PanelAction::Submit(a.command.clone()));
    }
    None
}

fn draft_box(
    ui: &mut egui::Ui,
    battle: &Battle,
    draft: &Draft,
    unit: sandtable_bfs::UnitId,
) -> PanelAction {
    let mut out = PanelAction::None;
    let game = &battle.game;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(egui::RichText::new(format!("Planned for {}", game.unit(unit).name)).strong());
        match &draft.preview {
            Some(Ok(Preview::Move(plan))) => {
                ui.label(format!("{} — {:.1} of {:.1} cm used, {:.1} cm left", if plan.description.is_empty() { "no steps" } else { &plan.description }, plan.cost, plan.allowance, (plan.allowance - plan.cost).max(0.0)));
            }
            Some(Ok(Preview::Charge(c))) => {
                ui.label(format!(
                    "Charge {} ({:.1} cm away): {}",
                    game.unit(c.target).name,
                    c.distance_cm,
                    if c.reaches { "reaches it with the Basic Move" } else if c.reaches_with_additional { "reaches it only with the Additional Move in the Combat Phase" } else { "cannot reach it: a failed charge means a Skill test (BFS-CHG-24)" }
                ));
                if let Some(o) = preview::charge_odds(&battle.session.state().clone(), unit, c.target) {
                    odds_chart(ui, &o);
                }
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                ui.label(egui::RichText::new(format!("✖ {e}")).color(egui::Color32::from_rgb(255, 120, 110)));
            }
            None => {
                ui.label(egui::RichText::new("Drag the unit forward or back; drag a front corner to wheel; click an enemy to charge it.").weak());
            }
        }
        // Wrapped: the three buttons are wider than the panel.
        ui.horizontal_wrapped(|ui| {
            let ok = matches!(draft.preview, Some(Ok(_)));
            let label = if draft.charge_target.is_some() { "Charge!  (Enter)" } else { "Commit move  (Enter)" };
            if ui.add_enabled(ok && draft.command().is_some(), egui::Button::new(label)).clicked() {
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

/// Before a shooting stage is resolved: who will fire at whom, with the odds.
fn stage_odds(ui: &mut egui::Ui, battle: &Battle) {
    let stage = match battle.game.turn.phase {
        Phase::Combat(CombatStage::DefendersFire) => FireStage::DefendersFire,
        Phase::Combat(CombatStage::ShootingAfterMovement) => FireStage::AfterMovement,
        _ => return,
    };
    let state = battle.session.state();
    let shooters: Vec<_> = state
        .units
        .iter()
        .filter(|u| sandtable_bfs::shooting::shoots_in(state, u.id, stage))
        .map(|u| u.id)
        .collect();
    ui.separator();
    ui.label(egui::RichText::new(format!("{} — the volleys to come", stage.name())).strong());
    if shooters.is_empty() {
        ui.label(egui::RichText::new("Nobody shoots in this stage.").weak());
    }
    for s in shooters {
        match preview::volley_odds(state, s, stage) {
            Some(o) => odds_chart(ui, &o),
            None => {
                ui.label(
                    egui::RichText::new(format!(
                        "{}: no target in range and in sight",
                        state.unit(s).name
                    ))
                    .weak(),
                );
            }
        }
    }
}

/// A small bar chart of a distribution of Strength points lost.
pub fn odds_chart(ui: &mut egui::Ui, o: &Odds) {
    ui.label(egui::RichText::new(&o.description).small());
    let n = o.losses.len().min(10);
    let (rect, _) = ui.allocate_exact_size(
        egui::vec2(ui.available_width().min(260.0), 46.0),
        egui::Sense::hover(),
    );
    let painter = ui.painter_at(rect);
    let w = rect.width() / n.max(1) as f32;
    let max = o.losses.iter().copied().fold(0.0f64, f64::max).max(1e-9);
    for (k, p) in o.losses.iter().take(n).enumerate() {
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
    ui.label(
        egui::RichText::new(format!(
            "Strength points the target loses: {:.1} on average",
            o.expected_losses()
        ))
        .small(),
    );
}

fn pools(ui: &mut egui::Ui, game: &Game) {
    ui.label(egui::RichText::new("Command points").strong());
    for c in &game.commanders {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new("■").color(palette::side_egui(c.side.index())));
            ui.label(format!("{}: {} of {} CP", c.name, c.cp, c.cp_max));
        });
    }
}

fn unit_card(ui: &mut egui::Ui, game: &Game, u: &Unit) {
    let p = game.profile(u.profile);
    ui.heading(egui::RichText::new(&u.name).color(palette::side_egui(u.side.index())));
    ui.label(format!("{} — {}", p.name, game.side(u.side).name));
    ui.label(format!(
        "{} · {} of {} bases · {} casualty marker(s)",
        formation_name(u.formation),
        u.bases.len(),
        u.bases_at_start,
        u.casualty_markers
    ));
    let pending = match u.pending_order {
        Some(po) => match po.kind {
            Some(k) => format!(" · new order (face down): {}", k.name()),
            None => " · a face-down order marker".into(),
        },
        None => String::new(),
    };
    ui.label(format!(
        "Morale level: {} · Order: {}{pending}",
        morale_name(u.morale),
        u.order.map_or("none", |o| o.name())
    ));
    ui.add_space(4.0);
    profile_grid(ui, p);
    let commanders = sandtable_bfs::authority::commanders_who_may_order(game, u.id);
    let names: Vec<&str> = commanders
        .iter()
        .map(|c| game.commander(*c).name.as_str())
        .collect();
    ui.label(format!(
        "May be ordered by: {}",
        if names.is_empty() {
            "nobody".into()
        } else {
            names.join(", ")
        }
    ));
    if !p.notes.is_empty() {
        ui.label(egui::RichText::new(&p.notes).weak().small());
    }
}

fn commander_card(ui: &mut egui::Ui, game: &Game, c: &Commander) {
    let p = game.profile(c.profile);
    ui.heading(egui::RichText::new(&c.name).color(palette::side_egui(c.side.index())));
    ui.label(format!("{:?} — {}", c.rank, game.side(c.side).name));
    ui.label(format!(
        "Command points: {} of {} · Command range {} cm",
        c.cp,
        c.cp_max,
        sandtable_bfs::authority::command_range_cm(game, c.id)
    ));
    profile_grid(ui, p);
}

fn profile_grid(ui: &mut egui::Ui, p: &UnitProfile) {
    let skill = match p.skill {
        3 => "Recruit",
        4 => "Trained",
        5 => "Veteran",
        _ => "",
    };
    let morale = match p.morale {
        4 => "Cowardly",
        5 => "Average",
        6 => "Courageous",
        7 => "Fearless",
        _ => "",
    };
    egui::Grid::new(("profile", p.id.as_str()))
        .striped(true)
        .num_columns(2)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(egui::RichText::new(k).strong());
                ui.label(v);
                ui.end_row();
            };
            row("Move", format!("{} cm", p.movement));
            row("Close combat", format!("{} dice per base", p.close_combat));
            row("Shooting", format!("{} dice per base", p.shooting));
            row("Armor", p.armor.to_string());
            row("Skill", format!("{} {skill}", p.skill));
            row("Morale", format!("{} {morale}", p.morale));
            row("Strength", format!("{} per base", p.strength));
            let m = p.melee.stats();
            row(
                "Melee",
                format!("{} ({}/{})", m.name, m.effectiveness.0, m.effectiveness.1),
            );
            if let Some(r) = p.ranged {
                let s = r.stats(p.is_mounted());
                let range = s.long_cm.map_or(format!("{}", s.effective_cm), |l| {
                    format!("{}/{}", s.effective_cm, l)
                });
                row(
                    "Ranged",
                    format!(
                        "{} ({range} cm, {}/{})",
                        s.name, s.effectiveness.0, s.effectiveness.1
                    ),
                );
            }
            if !p.special_rules.is_empty() {
                row(
                    "Special",
                    p.special_rules
                        .iter()
                        .map(|r| format!("{r:?}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                );
            }
        });
}

fn formation_name(f: Formation) -> String {
    match f {
        Formation::Close { files: 1 } => "Column".into(),
        Formation::Close { files } => format!("Line, {files} files"),
        Formation::OpenOrder => "Open Order".into(),
        Formation::NonStandard => "Non-standard".into(),
    }
}

fn morale_name(m: MoraleLevel) -> &'static str {
    match m {
        MoraleLevel::Good => "Good",
        MoraleLevel::Disorganized => "Disorganized",
        MoraleLevel::Flight => "Flight",
    }
}
