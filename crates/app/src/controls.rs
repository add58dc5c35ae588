//! Keyboard control of the battle: every menu item the ruleset gives a key can be chosen by it,
//! so the game can be played (and tested headless) without the panels.
//!
//! | key | does |
//! |---|---|
//! | Space | the player behind the curtain is ready |
//! | a menu item's key | that item (By Fire and Sword: 0–9 bid, K/L keep or hand over the Initiative, 1/2/3 orders, R/O rally and reorganise, S/C stand or countercharge, W/H withdraw or hold) |
//! | Enter | commit the planned command; otherwise end the step (End Orders, …) |
//! | Backspace | drop the last planned step |
//! | Ctrl+Z / Ctrl+Y | take back / redo, by the rules of a fair table (never behind the curtain) |

use crate::actions::{self, Choices};
use crate::battle::Battle;
use crate::table::draft::{self, Draft};
use crate::table::input::{Pointer, Selected};
use bevy::prelude::*;
use sandtable_engine::MenuEffect;

/// The key for a menu item's shortcut letter or digit.
pub fn key_code(c: char) -> Option<KeyCode> {
    use KeyCode::*;
    const DIGITS: [KeyCode; 10] = [
        Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    ];
    const LETTERS: [KeyCode; 26] = [
        KeyA, KeyB, KeyC, KeyD, KeyE, KeyF, KeyG, KeyH, KeyI, KeyJ, KeyK, KeyL, KeyM, KeyN, KeyO,
        KeyP, KeyQ, KeyR, KeyS, KeyT, KeyU, KeyV, KeyW, KeyX, KeyY, KeyZ,
    ];
    match c.to_ascii_uppercase() {
        d @ '0'..='9' => Some(DIGITS[d as usize - '0' as usize]),
        l @ 'A'..='Z' => Some(LETTERS[l as usize - 'A' as usize]),
        _ => None,
    }
}

pub fn battle_keys(
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<Pointer>,
    selected: Res<Selected>,
    choices: Res<Choices>,
    battle: Option<ResMut<Battle>>,
    mut draft: ResMut<Draft>,
) {
    let Some(mut battle) = battle else { return };
    if pointer.keyboard_taken {
        return;
    }
    // Behind the curtain only the next player's "ready" counts: no take-back, no command.
    if battle.curtain.is_some() {
        if keys.just_pressed(KeyCode::Space) {
            battle.lift_curtain();
        }
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
    let menu = actions::menu(&battle, selected.0, draft.plan.as_ref(), &choices.0);
    if let Some(item) = menu.items.iter().find(|i| {
        i.allowed.is_ok()
            && i.key
                .and_then(key_code)
                .is_some_and(|k| keys.just_pressed(k))
    }) {
        match (item.effect, selected.0) {
            (MenuEffect::Plan, Some(piece)) => {
                draft.set_plan(&battle, piece, Some(item.command.clone()))
            }
            _ => {
                draft::submit_coached(&mut draft, &mut battle, &item.command);
            }
        }
    }
    if keys.just_pressed(KeyCode::Backspace) {
        draft::drop_last(&mut draft, &battle);
    }
    if keys.just_pressed(KeyCode::Enter) || keys.just_pressed(KeyCode::NumpadEnter) {
        if draft.command().is_some() {
            draft::commit(&mut draft, &mut battle);
        } else if let Some(next) = actions::next_step(&battle) {
            let _ = battle.submit(&next.command);
        }
    }
}
