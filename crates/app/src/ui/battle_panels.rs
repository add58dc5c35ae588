//! The battle screen's egui parts: the top bar, the side panel with the selected profile, the
//! hover tooltip and the tape's label.

use super::{SIDE_PANEL_PX, root_ui};
use crate::battle::Battle;
use crate::palette;
use crate::screens::Screen;
use crate::table::input::{Hovered, Pointer, Selected, Tape, Tool};
use crate::table::pick::Thing;
use crate::table::tape_math::{LengthUnit, format_length, measure};
use crate::table::view::{TableArea, TableView, from_geo};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_bfs::profile::UnitProfile;
use sandtable_bfs::state::{Commander, Formation, Game, MoraleLevel, Unit};

#[allow(clippy::too_many_arguments)]
pub(super) fn battle_ui(
    mut contexts: EguiContexts,
    battle: Option<Res<Battle>>,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    pointer: Res<Pointer>,
    view: Res<TableView>,
    mut tool: ResMut<Tool>,
    mut tape: ResMut<Tape>,
    mut area: ResMut<TableArea>,
    mut fit: ResMut<crate::table::FitPending>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(battle) = battle else { return Ok(()) };
    let game = &battle.game;
    let mut ui = root_ui(ctx);

    let top = egui::Panel::top("phase_bar").show(&mut ui, |ui| {
        ui.horizontal(|ui| {
            if ui
                .button("☰ Scenarios")
                .on_hover_text("Back to the scenario list")
                .clicked()
            {
                next.set(Screen::Start);
            }
            ui.separator();
            ui.label(egui::RichText::new(&game.info.scenario_name).strong());
            ui.separator();
            ui.label(format!(
                "Turn {} of {}",
                game.turn.number, game.info.turn_limit
            ));
            ui.label(egui::RichText::new(game.turn.phase.title()).strong());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let unit_label = match tape.unit {
                    LengthUnit::Centimetres => "cm",
                    LengthUnit::Inches => "in",
                };
                if ui
                    .button(unit_label)
                    .on_hover_text("Tape units: centimetres or inches (U)")
                    .clicked()
                {
                    tape.unit = match tape.unit {
                        LengthUnit::Centimetres => LengthUnit::Inches,
                        LengthUnit::Inches => LengthUnit::Centimetres,
                    };
                }
                let tape_on = *tool == Tool::Tape;
                if ui
                    .selectable_label(tape_on, "📏 Tape (T)")
                    .on_hover_text("Measure: drag on the table. Measuring is free (BFS-SCL-2).")
                    .clicked()
                {
                    *tool = if tape_on { Tool::Select } else { Tool::Tape };
                }
                if ui
                    .button("⛶ Fit (F)")
                    .on_hover_text("Show the whole table")
                    .clicked()
                {
                    fit.0 = true;
                }
            });
        });
    });

    let side = egui::Panel::right("details")
        .exact_size(SIDE_PANEL_PX)
        .show(&mut ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| match selected.0 {
                Some(Thing::Unit(id)) => unit_card(ui, game, game.unit(id)),
                Some(Thing::Commander(id)) => commander_card(ui, game, game.commander(id)),
                None => help(ui, game),
            });
        });

    let window = view.window;
    *area = TableArea {
        min: Vec2::new(0.0, top.response.rect.bottom()),
        max: Vec2::new((window.x - side.response.rect.width()).max(1.0), window.y),
        measured: true,
    };

    if let (Some(h), Some(screen), false) = (hovered.0, pointer.screen, pointer.over_ui) {
        egui::Area::new("hover_tip".into())
            .fixed_pos(egui::pos2(screen.x + 16.0, screen.y + 12.0))
            .order(egui::Order::Tooltip)
            .interactable(false)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| match h.thing {
                    Thing::Unit(id) => unit_tip(ui, game, game.unit(id)),
                    Thing::Commander(id) => commander_tip(ui, game.commander(id)),
                });
            });
    }

    if let (Some(a), Some(b)) = (tape.start, tape.end) {
        let m = measure(a, b);
        let mid = view.world_to_screen(from_geo((m.from + m.to) * 0.5));
        egui::Area::new("tape_label".into())
            .fixed_pos(egui::pos2(mid.x + 8.0, mid.y - 28.0))
            .order(egui::Order::Tooltip)
            .interactable(false)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style())
                    .fill(egui::Color32::from_rgb(40, 40, 20))
                    .show(ui, |ui| {
                        ui.label(
                            egui::RichText::new(format_length(m.length_cm, tape.unit))
                                .size(16.0)
                                .strong()
                                .color(egui::Color32::YELLOW),
                        );
                        if m.base_to_base {
                            ui.label(egui::RichText::new("base to base (closest points)").small());
                        }
                    });
            });
    }
    Ok(())
}

fn help(ui: &mut egui::Ui, game: &Game) {
    ui.heading("The table");
    ui.label(format!(
        "{} × {} cm. Click a unit or commander to see its profile.",
        game.info.table.x, game.info.table.y
    ));
    ui.add_space(8.0);
    for (i, s) in game.sides.iter().enumerate() {
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new("■")
                    .color(palette::side_egui(i))
                    .size(18.0),
            );
            ui.label(format!(
                "{} ({} units)",
                s.name,
                game.units.iter().filter(|u| u.side.index() == i).count()
            ));
        });
    }
    ui.add_space(8.0);
    ui.label(egui::RichText::new("Controls").strong());
    egui::Grid::new("controls").striped(true).show(ui, |ui| {
        for (k, v) in [
            ("Mouse wheel", "zoom about the cursor"),
            ("Drag / right-drag", "pan the table"),
            ("F or Home", "fit the table"),
            ("Click", "select a unit"),
            ("T", "measuring tape on/off"),
            ("U", "tape in cm or inches"),
            ("Esc", "drop the tape / deselect"),
        ] {
            ui.label(egui::RichText::new(k).monospace());
            ui.label(v);
            ui.end_row();
        }
    });
    ui.add_space(8.0);
    ui.label(egui::RichText::new("Bases show their front edge as a pale stripe. Commanders are discs with a pennant pointing the way they face.").weak());
}

fn unit_tip(ui: &mut egui::Ui, game: &Game, u: &Unit) {
    let p = game.profile(u.profile);
    ui.label(
        egui::RichText::new(&u.name)
            .strong()
            .color(palette::side_egui(u.side.index())),
    );
    ui.label(format!(
        "{} · {} of {} bases · Move {} cm",
        p.name,
        u.bases.len(),
        u.bases_at_start,
        p.movement
    ));
    ui.label(format!(
        "{} · {}",
        formation_name(u.formation),
        morale_name(u.morale)
    ));
}

fn commander_tip(ui: &mut egui::Ui, c: &Commander) {
    ui.label(
        egui::RichText::new(&c.name)
            .strong()
            .color(palette::side_egui(c.side.index())),
    );
    ui.label(format!("{:?} · {} of {} CP", c.rank, c.cp, c.cp_max));
}

fn unit_card(ui: &mut egui::Ui, game: &Game, u: &Unit) {
    let p = game.profile(u.profile);
    ui.heading(egui::RichText::new(&u.name).color(palette::side_egui(u.side.index())));
    ui.label(format!("{} — {}", p.name, game.side(u.side).name));
    ui.add_space(4.0);
    ui.label(format!(
        "{} · {} of {} bases · {} casualty marker(s)",
        formation_name(u.formation),
        u.bases.len(),
        u.bases_at_start,
        u.casualty_markers
    ));
    ui.label(format!(
        "Morale level: {} · Order: {}",
        morale_name(u.morale),
        u.order.map_or("none", |o| o.name())
    ));
    ui.add_space(6.0);
    profile_grid(ui, p);
    ui.add_space(6.0);
    let regiment = u
        .regiment
        .map(|r| game.regiments[r.index()].name.clone())
        .unwrap_or_else(|| "none".into());
    ui.label(format!("Regiment: {regiment}"));
    let commanders = sandtable_bfs::command::commanders_who_may_order(game, u.id);
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
        ui.add_space(6.0);
        ui.label(egui::RichText::new(&p.notes).weak());
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
        sandtable_bfs::command::command_range_cm(game, c.id)
    ));
    ui.add_space(6.0);
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
    egui::Grid::new("profile")
        .striped(true)
        .num_columns(2)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(egui::RichText::new(k).strong());
                ui.label(v);
                ui.end_row();
            };
            row("Type", format!("{:?}", p.kind));
            row("Move", format!("{} cm", p.movement));
            row(
                "Close combat (CC)",
                format!("{} dice per base", p.close_combat),
            );
            row("Shooting (St)", format!("{} dice per base", p.shooting));
            row("Armor", p.armor.to_string());
            row("Skill", format!("{} {}", p.skill, skill));
            row("Morale", format!("{} {}", p.morale, morale));
            row("Strength", format!("{} per base", p.strength));
            let m = p.melee.stats();
            row(
                "Melee weapon",
                format!(
                    "{} (effectiveness {}/{} charging)",
                    m.name, m.effectiveness.0, m.effectiveness.1
                ),
            );
            if let Some(r) = p.ranged {
                let s = r.stats(p.is_mounted());
                let range = match s.long_cm {
                    Some(l) => format!("{}/{} cm", s.effective_cm, l),
                    None => format!("{} cm", s.effective_cm),
                };
                row(
                    "Ranged weapon",
                    format!(
                        "{} ({range}, effectiveness {}/{})",
                        s.name, s.effectiveness.0, s.effectiveness.1
                    ),
                );
            }
            if p.shields {
                row("Shields", "+1 Armor in close combat".into());
            }
            if !p.special_rules.is_empty() {
                row(
                    "Special rules",
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
        Formation::NonStandard => "Non-standard formation".into(),
    }
}

fn morale_name(m: MoraleLevel) -> &'static str {
    match m {
        MoraleLevel::Good => "Good",
        MoraleLevel::Disorganized => "Disorganized",
        MoraleLevel::Flight => "Flight",
    }
}
