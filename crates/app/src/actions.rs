//! What the player on screen can do now with the selection: the ruleset's menu, each item a rules
//! command whose `allowed` the engine filled in from the rules (never the app), with the screen's
//! own refusals added: the curtain, the other side's turn, the computer's.

use crate::battle::Battle;
use bevy::prelude::Resource;
use sandtable_engine::{AnyCommand, Menu, MenuChoices, MenuItem, PieceId};

/// The player's choices for menu params (which commander pays, say), by param id.
#[derive(Resource, Debug, Default, Clone)]
pub struct Choices(pub MenuChoices);

/// The menu for the selection (nothing selected: bids and other decisions of the whole side).
pub fn menu(
    battle: &Battle,
    selection: Option<PieceId>,
    plan: Option<&AnyCommand>,
    choices: &MenuChoices,
) -> Menu<AnyCommand> {
    if battle.curtain.is_some() {
        return Menu::default();
    }
    let mut m = battle.game.menu(battle.viewer, selection, plan, choices);
    if let Some(e) = battle.screen_refusal() {
        for item in &mut m.items {
            item.allowed = Err(e.clone());
        }
    }
    m
}

/// The command that ends the current step ("End Orders"), with the screen's refusal if any.
pub fn next_step(battle: &Battle) -> Option<MenuItem<AnyCommand>> {
    if battle.curtain.is_some() {
        return None;
    }
    let mut item = battle.game.next_step(battle.viewer)?;
    if let Some(e) = battle.screen_refusal() {
        item.allowed = Err(e);
    }
    Some(item)
}
