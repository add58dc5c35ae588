//! What the player on screen can do now: bids and the choice of A or D with nothing selected,
//! a unit's actions in its activation (fire, solid shot, charge, formation, facing, reform,
//! stand), the defence actions and a failed charger's choice at step 9. Every item is a rules
//! command; the engine asks the rules whether each is allowed. Keys keep clear of the app's own
//! (F fit, T tape, U units, Space, and the overlays' G, V, N, Z).

use super::table::unit_of;
use crate::charge::charge_reach;
use crate::command::Command;
use crate::footprint::gap;
use crate::morale::bearing_of;
use crate::state::{Defence, Game, INCH, Phase, Wait};
use crate::tables::tables;
use crate::vocab::{Arm, Formation};
use sandtable_engine::Seat;
use sandtable_engine::present::{Menu, MenuChoices, MenuItem, PieceId};

/// The command that ends the current step, if there is one.
pub fn next_step(view: &Game) -> Option<MenuItem<Command>> {
    match view.phase {
        Phase::Activation(a) if a.current.is_some() => Some(MenuItem::new(
            format!("Finish {}", view.unit(a.current?).name),
            Command::FinishUnit,
        )),
        Phase::Activation(a) if a.side == view.side_a && !a.a_done => Some(MenuItem::new(
            "End A's activations (NQ-SEQ-1 step 7)",
            Command::EndActivations,
        )),
        Phase::Leaders { .. } => Some(MenuItem::new("End step 8 (leaders)", Command::EndLeaders)),
        _ => None,
    }
}

fn defence_label(d: Defence) -> String {
    match d {
        Defence::None => "No defence action: keep the actions".into(),
        Defence::Fire => "Fire at the charger".into(),
        Defence::Face => "Turn to face the charger (morale check)".into(),
        Defence::Form(f) => format!("Form {} (morale check)", f.name()),
    }
}

pub fn menu(
    view: &Game,
    seat: Seat,
    selection: Option<PieceId>,
    _plan: Option<&Command>,
    _choices: &MenuChoices,
) -> Menu<Command> {
    let mut menu = Menu::default();
    match view.phase {
        Phase::Bidding { .. } => {
            let tp = view.turn_points[seat.min(1) as usize];
            let keys = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
            for points in 0..=tp.min(12) {
                let mut item = MenuItem::new(
                    format!("Bid {points} turn point(s) in secret"),
                    Command::Bid { points },
                );
                if let Some(k) = keys.get(points as usize) {
                    item = item.key(*k);
                }
                menu.items.push(item);
            }
            if tp > 12 {
                menu.items.push(MenuItem::new(
                    format!("Bid all {tp} turn points"),
                    Command::Bid { points: tp },
                ));
            }
        }
        Phase::ChooseSide { .. } => {
            menu.items.push(
                MenuItem::new(
                    "Be side A: activate two units to D's one",
                    Command::ChooseSide { be_a: true },
                )
                .key('A'),
            );
            menu.items.push(
                MenuItem::new(
                    "Be side D: activate after A",
                    Command::ChooseSide { be_a: false },
                )
                .key('D'),
            );
        }
        Phase::CloseActions(Wait::Defence(i)) => {
            for (d, _) in crate::close_action::defence_options(view, i) {
                menu.items.push(MenuItem::new(
                    defence_label(d),
                    Command::Defend { choice: d },
                ));
            }
            if let Some(first) = menu.items.first_mut() {
                first.key = Some('N');
            }
        }
        Phase::CloseActions(Wait::FallBack(_)) => {
            menu.items.push(
                MenuItem::new(
                    "Halt 3\" short of the target",
                    Command::FallBack { halt: true },
                )
                .key('H'),
            );
            menu.items
                .push(MenuItem::new("Retreat", Command::FallBack { halt: false }).key('R'));
        }
        Phase::Activation(_) => {
            if let Some(unit) = unit_of(view, selection)
                && view.unit(unit).side == seat
            {
                unit_menu(view, unit, &mut menu);
            } else {
                menu.hint = Some("Select one of your units to act with it.".into());
            }
        }
        Phase::Leaders { .. } => {
            menu.hint = Some(format!(
                "Drag a leader to move it up to {}\" (NQ-MOV-5); units within {}\" of their brigade's leader are in command next period (G5).",
                view.options.leader_move, view.options.command_radius
            ));
        }
        Phase::Over => {}
    }
    menu
}

fn unit_menu(view: &Game, unit: crate::state::UnitId, menu: &mut Menu<Command>) {
    let u = view.unit(unit);
    let r = u.rect();
    if !u.marks.moved {
        menu.items.push(
            MenuItem::new(
                "Stand: keep both actions for defence",
                Command::Stand { unit },
            )
            .key('S'),
        );
    }
    if u.disordered() {
        menu.items
            .push(MenuItem::new("Reform (one action)", Command::Reform { unit }).key('R'));
    }
    let mut enemies: Vec<&crate::state::Unit> = view.enemies_of(u.side).collect();
    enemies.sort_by(|a, b| gap(&r, &a.rect()).total_cmp(&gap(&r, &b.rect())));
    let t = tables();
    let reach_fire = match u.arm() {
        Arm::Artillery { calibre, .. } => t.artillery_range(calibre).close,
        _ => u
            .profile
            .small_arm()
            .and_then(|w| t.small_arms.iter().find(|s| s.weapon == w))
            .map_or(0.0, |s| s.extreme.or(s.long).unwrap_or(0.0)),
    };
    let mut keyed = false;
    for e in &enemies {
        let d = gap(&r, &e.rect()) / INCH;
        if d <= reach_fire + 2.0 {
            for actions in [1, 2] {
                let what = if u.arm().is_artillery() {
                    "Canister at"
                } else {
                    "Fire at"
                };
                let mut item = MenuItem::new(
                    format!("{what} {} ({d:.1}\"), {actions} action(s)", e.name),
                    Command::Fire {
                        unit,
                        target: e.id,
                        actions,
                    },
                );
                if !keyed && actions == 1 {
                    item = item.key('E');
                    keyed = true;
                }
                menu.items.push(item);
            }
        }
    }
    if let Arm::Artillery { calibre, .. } = u.arm() {
        let extreme = t.artillery_range(calibre).extreme;
        for e in enemies
            .iter()
            .filter(|e| (e.rect().center() - r.center()).length() / INCH <= extreme + 1.0)
            .take(6)
        {
            for actions in [1, 2] {
                menu.items.push(MenuItem::new(
                    format!("Solid shot at {}, {actions} action(s)", e.name),
                    Command::SolidShot {
                        unit,
                        aim: e.rect().center(),
                        actions,
                    },
                ));
            }
        }
    }
    let reach = charge_reach(view, unit);
    if reach > 0.0 {
        let near = enemies
            .iter()
            .filter(|e| gap(&r, &e.rect()) / INCH <= reach + 3.0);
        for (i, e) in near.enumerate() {
            let item = MenuItem::new(
                format!("Charge {} (up to {reach}\")", e.name),
                Command::Charge { unit, target: e.id },
            );
            // The key charges the nearest; the others are clicked.
            menu.items.push(if i == 0 { item.key('C') } else { item });
        }
    }
    for f in crate::actions::formations_for(view, unit) {
        if f != u.formation {
            let key = match f {
                Formation::Line | Formation::Unlimbered => Some('L'),
                Formation::Column | Formation::Limbered => Some('K'),
                Formation::Square => Some('Q'),
                _ => None,
            };
            let mut item = MenuItem::new(
                format!("Form {} (one action)", f.name()),
                Command::Formation { unit, to: f },
            );
            if let Some(k) = key {
                item = item.key(k);
            }
            menu.items.push(item);
        }
    }
    if let Some(e) = enemies.first() {
        let b = bearing_of(e.rect().center() - r.center());
        menu.items.push(
            MenuItem::new(
                format!("Face {} (one action)", e.name),
                Command::Face { unit, bearing: b },
            )
            .key('P'),
        );
    }
    for (label, turn) in [
        ("Face right", 90.0),
        ("Face left", 270.0),
        ("Face about", 180.0),
    ] {
        menu.items.push(MenuItem::new(
            format!("{label} (one action)"),
            Command::Face {
                unit,
                bearing: (u.bearing + turn) % 360.0,
            },
        ));
    }
    menu.hint = Some(format!(
        "Drag {} to move it one action ({}); drag the arrow ahead of it to turn; click an enemy to charge or fire.",
        u.name,
        crate::actions::move_rate(view, unit, false).map_or(
            "it cannot move as it stands".to_string(),
            |r| format!("{r}\" in {}", u.formation.name())
        )
    ));
}
