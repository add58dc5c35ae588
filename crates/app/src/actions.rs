//! What the player on screen can do now with the selected piece: each action is a rules command,
//! checked by the rules (never by the app) so a button is enabled exactly when the command is
//! legal, and a disabled one says which rule forbids it.

use crate::battle::Battle;
use crate::table::pick::Thing;
use sandtable_bfs::authority;
use sandtable_bfs::command::{Command, MoveStep, Reaction, SpecialManeuver, TurnKind};
use sandtable_bfs::ids::{CommanderId, UnitId};
use sandtable_bfs::state::{Game, MoraleLevel, OrderKind, UnitStatus};
use sandtable_bfs::turn::{CombatStage, Phase};
use sandtable_engine::RuleError;

/// One thing the player can do, with its command and whether the rules allow it now.
#[derive(Debug, Clone)]
pub struct Action {
    pub label: String,
    pub command: Command,
    pub allowed: Result<(), RuleError>,
    /// A keyboard shortcut, shown on the button.
    pub key: Option<&'static str>,
}

impl Action {
    fn new(
        battle: &Battle,
        label: impl Into<String>,
        command: Command,
        key: Option<&'static str>,
    ) -> Self {
        let allowed = battle.check(&command);
        Self {
            label: label.into(),
            command,
            allowed,
            key,
        }
    }
}

/// The command that ends the current step ("Next"), if there is one.
pub fn next_command(game: &Game) -> Option<(Command, String)> {
    match &game.turn.phase {
        Phase::Orders { .. } => Some((Command::EndOrders, "End Orders".into())),
        Phase::Movement { charge: None, .. } => Some((Command::EndMovement, "End Movement".into())),
        Phase::Combat(stage) => Some((
            Command::Continue,
            match stage {
                CombatStage::DefendersFire => "Resolve Defender's Fire".into(),
                CombatStage::CloseCombat => "Resolve Close Combat".into(),
                CombatStage::ShootingAfterMovement => "Resolve Shooting after Movement".into(),
            },
        )),
        _ => None,
    }
}

/// The commander the player has picked to pay, or the cheapest one allowed to order the unit.
pub fn paying_commander(
    game: &Game,
    unit: UnitId,
    picked: Option<CommanderId>,
) -> Option<CommanderId> {
    let allowed = authority::commanders_who_may_order(game, unit);
    match picked {
        Some(c) if allowed.contains(&c) => Some(c),
        _ => allowed
            .into_iter()
            .min_by_key(|c| (authority::order_cost(game, *c, unit).cp, c.0)),
    }
}

/// Actions for the selected piece in the current phase.
pub fn actions(
    battle: &Battle,
    selected: Option<Thing>,
    picked_commander: Option<CommanderId>,
) -> Vec<Action> {
    let game = &battle.game;
    let mut out = Vec::new();
    match (&game.turn.phase, selected) {
        (Phase::Orders { .. }, Some(Thing::Unit(u))) if game.unit(u).side == battle.viewer => {
            let unit = game.unit(u);
            if let Some(by) = paying_commander(game, u, picked_commander) {
                let cost = authority::order_cost(game, by, u);
                let free = sandtable_bfs::phases::orders::orders_are_free(game);
                let price = if free {
                    "free".to_string()
                } else {
                    format!("{} CP", cost.cp)
                };
                let who = &game.commander(by).name;
                for (order, key) in [
                    (OrderKind::Move, "1"),
                    (OrderKind::Charge, "2"),
                    (OrderKind::Defense, "3"),
                ] {
                    out.push(Action::new(
                        battle,
                        format!(
                            "{} order — {price} ({who}, {:.1} cm)",
                            order.name(),
                            cost.distance_cm
                        ),
                        Command::IssueOrder { unit: u, order, by },
                        Some(key),
                    ));
                }
                if unit.morale != MoraleLevel::Good {
                    for extra in 0..=3u8 {
                        out.push(Action::new(
                            battle,
                            format!("Rally — {} CP, Morale +{extra}", 1 + extra),
                            Command::Rally {
                                unit: u,
                                by,
                                extra_cp: extra,
                            },
                            (extra == 0).then_some("R"),
                        ));
                    }
                }
                if unit.casualty_markers > 0 {
                    out.push(Action::new(
                        battle,
                        "Reorganise — 1 CP for one Morale test",
                        Command::Reorganize { unit: u, by },
                        Some("O"),
                    ));
                }
            }
        }
        (Phase::Orders { .. }, Some(Thing::Commander(c)))
            if game.commander(c).side == battle.viewer =>
        {
            for to in game
                .commanders_on_table(battle.viewer)
                .filter(|t| t.id != c)
            {
                for amount in 1..=game.commander(c).cp {
                    out.push(Action::new(
                        battle,
                        format!("Send {amount} CP to {}", to.name),
                        Command::TransferCp {
                            from: c,
                            to: to.id,
                            amount,
                        },
                        None,
                    ));
                }
            }
        }
        (
            Phase::Movement {
                charge: Some(pc), ..
            },
            _,
        ) => {
            let reactor = pc
                .reactors
                .get(pc.reactions.len())
                .copied()
                .unwrap_or(pc.target);
            out.push(Action::new(
                battle,
                "Stand and receive the charge",
                Command::React {
                    unit: reactor,
                    reaction: Reaction::Stand,
                },
                Some("S"),
            ));
            out.push(Action::new(
                battle,
                "Countercharge (reveals a Charge order)",
                Command::React {
                    unit: reactor,
                    reaction: Reaction::Countercharge,
                },
                Some("C"),
            ));
            for by in authority::commanders_who_may_order(game, reactor) {
                out.push(Action::new(
                    battle,
                    format!(
                        "Hold fire for Reaction Fire — 1 CP from {}",
                        game.commander(by).name
                    ),
                    Command::React {
                        unit: reactor,
                        reaction: Reaction::HoldFire { by },
                    },
                    None,
                ));
            }
        }
        (Phase::Movement { .. }, Some(Thing::Unit(u)))
            if game.unit(u).side == battle.viewer && game.unit(u).status == UnitStatus::OnTable =>
        {
            match game.unit(u).order {
                Some(OrderKind::Defense) => {
                    for (label, m) in [
                        (
                            "Turn to the left (1 S-M)",
                            SpecialManeuver::Turn(TurnKind::Left),
                        ),
                        (
                            "Turn to the right (1 S-M)",
                            SpecialManeuver::Turn(TurnKind::Right),
                        ),
                        ("About face (1 S-M)", SpecialManeuver::Turn(TurnKind::About)),
                        (
                            "Widen the front by 1 base (1 S-M)",
                            SpecialManeuver::Frontage(1),
                        ),
                        (
                            "Narrow the front by 1 base (1 S-M)",
                            SpecialManeuver::Frontage(-1),
                        ),
                        (
                            "Step 2 cm forward (1 S-M)",
                            SpecialManeuver::ChangePosition {
                                dx: 0.0,
                                dy: 2.0,
                                degrees: 0.0,
                            },
                        ),
                        (
                            "Step 2 cm back (1 S-M)",
                            SpecialManeuver::ChangePosition {
                                dx: 0.0,
                                dy: -2.0,
                                degrees: 0.0,
                            },
                        ),
                    ] {
                        out.push(Action::new(
                            battle,
                            label,
                            Command::Maneuver {
                                unit: u,
                                maneuvers: vec![m],
                            },
                            None,
                        ));
                    }
                    out.push(Action::new(
                        battle,
                        "Stay and keep both maneuvers for fire",
                        Command::Hold { unit: u },
                        Some("H"),
                    ));
                }
                None => {
                    out.push(Action::new(
                        battle,
                        "Withdraw half a Move towards your table edge",
                        Command::Withdraw { unit: u },
                        Some("W"),
                    ));
                    out.push(Action::new(
                        battle,
                        "Stay where it is",
                        Command::Hold { unit: u },
                        Some("H"),
                    ));
                }
                Some(OrderKind::Move) | Some(OrderKind::Charge) => {
                    for (label, step) in [
                        ("Turn left (maneuver)", MoveStep::Turn(TurnKind::Left)),
                        ("Turn right (maneuver)", MoveStep::Turn(TurnKind::Right)),
                        ("About face (maneuver)", MoveStep::Turn(TurnKind::About)),
                        ("Narrow the front (maneuver)", MoveStep::Frontage(-1)),
                        ("Widen the front (maneuver)", MoveStep::Frontage(1)),
                    ] {
                        out.push(Action::new(
                            battle,
                            label,
                            Command::Move {
                                unit: u,
                                steps: vec![step],
                            },
                            None,
                        ));
                    }
                    out.push(Action::new(
                        battle,
                        "Stay where it is",
                        Command::Hold { unit: u },
                        Some("H"),
                    ));
                }
            }
        }
        _ => {}
    }
    out
}
