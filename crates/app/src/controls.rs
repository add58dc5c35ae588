//! Keyboard control of the battle: every main action has a key, so the game can be played (and
//! tested headless) without the panels. Each key submits a rules command through the battle.
//!
//! | key | does |
//! |---|---|
//! | Space | the player behind the curtain is ready |
//! | 0–9 | Initiative: bid that many CP (secretly) |
//! | K / L | Initiative: keep it / hand it over |
//! | 1 / 2 / 3 | Orders: give the selected unit a Move / Charge / Defense order |
//! | R / O | Orders: rally / reorganise the selected unit |
//! | S / C | a charge reaction: stand / countercharge |
//! | W / H | Movement: withdraw / hold the selected unit |
//! | Enter | commit the planned move or charge; otherwise end the step (End Orders, …) |
//! | Backspace | drop the last planned step |
//! | Ctrl+Z / Ctrl+Y | undo / redo |

use crate::actions::{self, next_command, paying_commander};
use crate::battle::Battle;
use crate::table::draft::{self, Draft};
use crate::table::input::{Pointer, Selected};
use crate::table::pick::Thing;
use bevy::prelude::*;
use sandtable_bfs::command::{Command, Reaction};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::turn::Phase;

/// A commander picked in the panel to pay for orders (else the cheapest is used).
#[derive(Resource, Debug, Default, Clone, Copy)]
pub struct PayingCommander(pub Option<sandtable_bfs::CommanderId>);

const DIGITS: [KeyCode; 10] = [
    KeyCode::Digit0,
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

#[allow(clippy::too_many_arguments)]
pub fn battle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<Pointer>,
    selected: Res<Selected>,
    paying: Res<PayingCommander>,
    battle: Option<ResMut<Battle>>,
    mut draft: ResMut<Draft>,
) {
    let Some(mut battle) = battle else { return };
    if pointer.keyboard_taken {
        return;
    }
    let ctrl = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);
    if ctrl {
        if keys.just_pressed(KeyCode::KeyZ) {
            battle.undo();
            draft.clear();
        }
        if keys.just_pressed(KeyCode::KeyY) {
            battle.redo();
            draft.clear();
        }
        return;
    }
    if battle.curtain.is_some() {
        if keys.just_pressed(KeyCode::Space) {
            battle.lift_curtain();
        }
        return;
    }
    let viewer = battle.viewer;
    let phase = battle.game.turn.phase.clone();
    let unit = match selected.0 {
        Some(Thing::Unit(u)) => Some(u),
        _ => None,
    };
    let submit = |b: &mut Battle, c: Command| {
        let _ = b.submit(c);
    };
    match phase {
        Phase::InitiativeBids { .. } => {
            if let Some(cp) = DIGITS.iter().position(|k| keys.just_pressed(*k)) {
                submit(
                    &mut battle,
                    Command::Bid {
                        side: viewer,
                        cp: cp as u8,
                    },
                );
            }
        }
        Phase::InitiativeChoice { .. } => {
            if keys.just_pressed(KeyCode::KeyK) {
                submit(&mut battle, Command::ChooseInitiative { keep: true });
            } else if keys.just_pressed(KeyCode::KeyL) {
                submit(&mut battle, Command::ChooseInitiative { keep: false });
            }
        }
        Phase::Orders { .. } => {
            if let Some(u) = unit
                && let Some(by) = paying_commander(&battle.game, u, paying.0)
            {
                for (key, order) in [
                    (KeyCode::Digit1, OrderKind::Move),
                    (KeyCode::Digit2, OrderKind::Charge),
                    (KeyCode::Digit3, OrderKind::Defense),
                ] {
                    if keys.just_pressed(key) {
                        submit(&mut battle, Command::IssueOrder { unit: u, order, by });
                    }
                }
                if keys.just_pressed(KeyCode::KeyR) {
                    submit(
                        &mut battle,
                        Command::Rally {
                            unit: u,
                            by,
                            extra_cp: 0,
                        },
                    );
                }
                if keys.just_pressed(KeyCode::KeyO) {
                    submit(&mut battle, Command::Reorganize { unit: u, by });
                }
            }
        }
        Phase::Movement {
            charge: Some(_), ..
        } => {
            let acts = actions::actions(&battle, None, None);
            let react = |r: Reaction| {
                acts.iter()
                    .find(|a| matches!(a.command, Command::React { reaction, .. } if reaction == r))
                    .map(|a| a.command.clone())
            };
            if keys.just_pressed(KeyCode::KeyS)
                && let Some(c) = react(Reaction::Stand)
            {
                submit(&mut battle, c);
            } else if keys.just_pressed(KeyCode::KeyC)
                && let Some(c) = react(Reaction::Countercharge)
            {
                submit(&mut battle, c);
            }
        }
        Phase::Movement { .. } => {
            if let Some(u) = unit {
                if keys.just_pressed(KeyCode::KeyW) {
                    submit(&mut battle, Command::Withdraw { unit: u });
                }
                if keys.just_pressed(KeyCode::KeyH) {
                    submit(&mut battle, Command::Hold { unit: u });
                }
            }
            if keys.just_pressed(KeyCode::Backspace) {
                draft::drop_last(&mut draft, &battle);
            }
        }
        _ => {}
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter) {
        if draft.command().is_some() {
            draft::commit(&mut draft, &mut battle);
        } else if let Some((cmd, _)) = next_command(&battle.game) {
            submit(&mut battle, cmd);
        }
    }
}
