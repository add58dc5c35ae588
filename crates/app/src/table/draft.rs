//! Planning a command on the table before committing it: the ruleset says where the selected
//! piece can be grabbed (its handles) and what a drag or a click on another piece means; the
//! rules' preview gives the ghost, the cost, the odds or the refusal. Enter commits, Backspace
//! drops the last step, Esc clears.

use super::input::{Hovered, Pointer, Selected};
use super::view::{TableView, from_geo};
use crate::battle::Battle;
use bevy::prelude::*;
use sandtable_engine::{AnyCommand, Grip, PieceId, PreviewReport};
use sandtable_geometry::Vec2 as G;

/// How close (screen px) to a point handle (a front corner) a press must be to grab it.
pub const CORNER_GRAB_PX: f32 = 12.0;

/// The plan being built for the selected piece.
#[derive(Resource, Debug, Default, Clone)]
pub struct Draft {
    pub piece: Option<PieceId>,
    /// The plan so far (the steps already added).
    pub plan: Option<AnyCommand>,
    /// The plan with the step being dragged now, not yet added.
    pub dragging: Option<AnyCommand>,
    /// The rules' verdict on the plan (with the dragged step): ghost, cost, odds, or why not.
    pub preview: Option<PreviewReport>,
    /// The handle being dragged and where the drag started, cm.
    drag: Option<(u8, G)>,
    /// The battle revision the preview was computed for.
    pub revision: u64,
    /// Bumped on every change of the plan, so caches can tell.
    pub version: u64,
    /// The settings ask for a "Commit?" before a plan is carried out.
    pub ask_first: bool,
    /// That question is on screen now: the next commit carries the plan out.
    pub asking: bool,
    /// The settings ask the coach about a plan before it is carried out.
    pub coached: bool,
    /// The coach's word on the plan, shown with the question.
    pub advice: Option<String>,
}

impl Draft {
    pub fn clear(&mut self) {
        let version = self.version + 1;
        *self = Draft {
            version,
            ask_first: self.ask_first,
            coached: self.coached,
            ..Draft::default()
        };
    }

    /// The command the draft stands for now.
    pub fn command(&self) -> Option<&AnyCommand> {
        self.dragging.as_ref().or(self.plan.as_ref())
    }

    /// Makes `plan` the plan for `piece` and previews it.
    pub fn set_plan(&mut self, battle: &Battle, piece: PieceId, plan: Option<AnyCommand>) {
        if self.piece != Some(piece) {
            self.clear();
            self.piece = Some(piece);
        }
        self.plan = plan;
        self.dragging = None;
        self.refresh_preview(battle);
    }

    /// Recomputes the preview of the current command.
    pub fn refresh_preview(&mut self, battle: &Battle) {
        self.preview = self
            .command()
            .map(|c| battle.game.preview(battle.viewer, c));
        self.revision = battle.revision;
        self.version += 1;
        // A changed plan, or a changed table, is asked about afresh.
        self.asking = false;
        self.advice = None;
    }

    fn accepted(&self) -> bool {
        self.preview.as_ref().is_some_and(|p| p.refused.is_none())
    }
}

/// Starts, updates and ends drags on the selected piece's handles; claims the press so the view
/// does not pan.
#[allow(clippy::too_many_arguments)] // a Bevy system: each argument is a resource it reads
pub fn drag_pieces(
    buttons: Res<ButtonInput<MouseButton>>,
    mut pointer: ResMut<Pointer>,
    view: Res<TableView>,
    selected: Res<Selected>,
    hovered: Res<Hovered>,
    battle: Option<Res<Battle>>,
    mut draft: ResMut<Draft>,
) {
    let Some(battle) = battle else { return };
    let Some(piece) = selected.0 else {
        if draft.piece.is_some() {
            draft.clear();
        }
        return;
    };
    if draft.piece != Some(piece) {
        draft.clear();
        draft.piece = Some(piece);
    }
    if battle.curtain.is_some() {
        draft.drag = None;
        return;
    }
    let (Some(screen), Some(world)) = (pointer.screen, pointer.world) else {
        return;
    };
    if buttons.just_pressed(MouseButton::Left) && !pointer.over_ui {
        let handles = battle
            .game
            .handles(battle.viewer, piece, draft.plan.as_ref());
        let near = |p: G| view.world_to_screen(from_geo(p)).distance(screen) <= CORNER_GRAB_PX;
        let on_piece = hovered.0.is_some_and(|h| h.piece == piece);
        let grabbed = handles.iter().find(|h| match &h.grip {
            Grip::Point(p) => near(*p),
            Grip::Body(rects) => rects.iter().any(|b| b.contains(world, 0.2)) || on_piece,
        });
        if let Some(h) = grabbed {
            draft.drag = Some((h.id, world));
            pointer.claimed = true;
        }
    }
    let Some((handle, from)) = draft.drag else {
        if draft.revision != battle.revision && draft.command().is_some() {
            draft.refresh_preview(&battle);
        }
        return;
    };
    if buttons.pressed(MouseButton::Left) {
        let planned = battle.game.drag(
            battle.viewer,
            piece,
            draft.plan.as_ref(),
            handle,
            from,
            world,
        );
        if planned != draft.dragging || draft.revision != battle.revision {
            draft.dragging = planned;
            draft.refresh_preview(&battle);
        }
    }
    if buttons.just_released(MouseButton::Left) {
        if draft.dragging.is_some() && draft.accepted() {
            draft.plan = draft.dragging.take();
        }
        draft.dragging = None;
        draft.drag = None;
        draft.refresh_preview(&battle);
        pointer.claimed = false;
    }
}

/// With a piece selected, clicking another piece plans what the ruleset makes of it (a charge at
/// an enemy), keeping the selection.
pub fn click_target(
    buttons: Res<ButtonInput<MouseButton>>,
    mut pointer: ResMut<Pointer>,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    battle: Option<Res<Battle>>,
    mut draft: ResMut<Draft>,
) {
    let Some(battle) = battle else { return };
    let (Some(piece), Some(h)) = (selected.0, hovered.0) else {
        return;
    };
    if !buttons.just_pressed(MouseButton::Left)
        || pointer.over_ui
        || h.piece == piece
        || battle.curtain.is_some()
    {
        return;
    }
    let Some(plan) = battle
        .game
        .click(battle.viewer, piece, draft.plan.as_ref(), h.piece)
    else {
        return;
    };
    draft.set_plan(&battle, piece, Some(plan));
    pointer.claimed = true;
}

/// Commits the draft as its command; keeps the piece selected for the next plan. When the
/// settings ask for it, or the coach has a word on the plan, the first call only puts the
/// question ("Commit?", with the coach's sentence) and the second one commits.
pub fn commit(draft: &mut Draft, battle: &mut Battle) -> bool {
    let Some(cmd) = draft.command().cloned() else {
        return false;
    };
    if !draft.asking {
        draft.advice = if draft.coached {
            battle.coach_advice(&cmd)
        } else {
            None
        };
        if draft.ask_first || draft.advice.is_some() {
            draft.asking = true;
            return false;
        }
    }
    let ok = battle.submit(&cmd).is_ok();
    if ok {
        let piece = draft.piece;
        draft.clear();
        draft.piece = piece;
    }
    ok
}

/// Submits a command chosen from the menu (an order, a reaction, a rally): at once, unless the
/// coach has a word on it; then it waits in the draft under the coach's question, and the next
/// commit carries it out.
pub fn submit_coached(draft: &mut Draft, battle: &mut Battle, cmd: &AnyCommand) -> bool {
    let advice = if draft.coached {
        battle.coach_advice(cmd)
    } else {
        None
    };
    if advice.is_none() {
        return battle.submit(cmd).is_ok();
    }
    draft.plan = Some(cmd.clone());
    draft.dragging = None;
    draft.refresh_preview(battle);
    draft.asking = true;
    draft.advice = advice;
    false
}

/// Drops the last step of the draft.
pub fn drop_last(draft: &mut Draft, battle: &Battle) {
    draft.plan = draft.plan.as_ref().and_then(|p| battle.game.drop_last(p));
    draft.dragging = None;
    draft.refresh_preview(battle);
}
