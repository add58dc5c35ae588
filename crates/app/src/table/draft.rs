//! Planning a move on the table before committing it: drag a unit forward or back, drag a front
//! corner to wheel, add turns and maneuvers; the rules' own preview gives the ghost, the cost and
//! the refusal. A charge is planned by clicking a target. Enter commits, Backspace drops the last
//! step, Esc clears.

use super::input::{Hovered, Pointer, Selected};
use super::pick::Thing;
use super::view::TableView;
use crate::battle::Battle;
use bevy::prelude::*;
use sandtable_bfs::command::{Command, MoveStep, PivotCorner};
use sandtable_bfs::ids::UnitId;
use sandtable_bfs::preview::Preview;
use sandtable_bfs::state::{OrderKind, UnitStatus};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, geo};
use sandtable_engine::{RuleError, Ruleset};
use sandtable_geometry::Vec2 as G;

/// How close (screen px) to a front corner a press must be to start a wheel.
pub const CORNER_GRAB_PX: f32 = 12.0;

/// The move or charge being planned.
#[derive(Resource, Debug, Default, Clone)]
pub struct Draft {
    pub unit: Option<UnitId>,
    pub steps: Vec<MoveStep>,
    /// The target of a planned charge.
    pub charge_target: Option<UnitId>,
    /// The rules' verdict on the draft (with the step being dragged): the ghost, or why not.
    pub preview: Option<Result<Preview, RuleError>>,
    /// The step being dragged now, not yet added.
    pub dragging: Option<MoveStep>,
    drag: Option<DragStart>,
    /// The revision of the battle the preview was computed for.
    pub revision: u64,
}

#[derive(Debug, Clone, Copy)]
enum DragStart {
    Straight {
        from: G,
        facing: G,
    },
    Wheel {
        pivot: PivotCorner,
        pivot_point: G,
        grabbed: G,
    },
}

impl Draft {
    pub fn clear(&mut self) {
        *self = Draft::default();
    }

    /// The command the draft stands for.
    pub fn command(&self) -> Option<Command> {
        let unit = self.unit?;
        if let Some(target) = self.charge_target {
            return Some(Command::DeclareCharge {
                unit,
                target,
                pay: None,
            });
        }
        let mut steps = self.steps.clone();
        steps.extend(self.dragging);
        (!steps.is_empty()).then_some(Command::Move { unit, steps })
    }
}

/// Can the viewer plan a move for this unit now?
pub fn movable(battle: &Battle, unit: UnitId) -> bool {
    let g = &battle.game;
    let u = g.unit(unit);
    matches!(g.turn.phase, Phase::Movement { charge: None, .. })
        && battle.curtain.is_none()
        && battle.deciding() == Some(battle.viewer)
        && u.side == battle.viewer
        && u.status == UnitStatus::OnTable
        && !u.flags.activated
        && matches!(u.order, Some(OrderKind::Move) | Some(OrderKind::Charge))
}

/// Recomputes the preview when the draft or the battle changed.
fn refresh_preview(draft: &mut Draft, battle: &Battle) {
    draft.preview = draft
        .command()
        .map(|c| Bfs::preview(battle.session.state(), &c));
    draft.revision = battle.revision;
}

/// Starts, updates and ends drags on the selected unit; claims the press so the view does not pan.
#[allow(clippy::too_many_arguments)]
pub fn drag_units(
    buttons: Res<ButtonInput<MouseButton>>,
    mut pointer: ResMut<Pointer>,
    view: Res<TableView>,
    selected: Res<Selected>,
    hovered: Res<Hovered>,
    battle: Option<Res<Battle>>,
    mut draft: ResMut<Draft>,
) {
    let Some(battle) = battle else { return };
    let Some(Thing::Unit(unit)) = selected.0 else {
        if draft.unit.is_some() {
            draft.clear();
        }
        return;
    };
    if draft.unit != Some(unit) {
        draft.clear();
        draft.unit = Some(unit);
    }
    if !movable(&battle, unit) {
        draft.drag = None;
        return;
    }
    let (Some(screen), Some(world)) = (pointer.screen, pointer.world) else {
        return;
    };
    let game = &battle.game;
    // The unit as the draft leaves it: drags start from the ghost.
    let bases = match &draft.preview {
        Some(Ok(Preview::Move(plan))) if draft.dragging.is_none() => plan.bases.clone(),
        _ => game.unit(unit).bases.clone(),
    };
    let frame = geo::frame_of(&bases);
    if buttons.just_pressed(MouseButton::Left) && !pointer.over_ui {
        let near =
            |p: G| view.world_to_screen(Vec2::new(p.x, p.y)).distance(screen) <= CORNER_GRAB_PX;
        if near(frame.front_left()) {
            draft.drag = Some(DragStart::Wheel {
                pivot: PivotCorner::FrontRight,
                pivot_point: frame.front_right(),
                grabbed: frame.front_left(),
            });
            pointer.claimed = true;
        } else if near(frame.front_right()) {
            draft.drag = Some(DragStart::Wheel {
                pivot: PivotCorner::FrontLeft,
                pivot_point: frame.front_left(),
                grabbed: frame.front_right(),
            });
            pointer.claimed = true;
        } else if bases.iter().any(|b| b.contains(world, 0.2))
            || hovered.0.is_some_and(|h| h.thing == Thing::Unit(unit))
        {
            draft.drag = Some(DragStart::Straight {
                from: world,
                facing: frame.facing(),
            });
            pointer.claimed = true;
        }
    }
    let Some(start) = draft.drag else {
        if draft.revision != battle.revision {
            refresh_preview(&mut draft, &battle);
        }
        return;
    };
    if buttons.pressed(MouseButton::Left) {
        let step = match start {
            DragStart::Straight { from, facing } => {
                let d = (world - from).dot(facing);
                // Whole millimetres: steady ghosts and readable costs.
                let d = (d * 10.0).round() / 10.0;
                if d > 0.0 {
                    Some(MoveStep::Forward(d))
                } else if d < 0.0 {
                    Some(MoveStep::Backward(-d))
                } else {
                    None
                }
            }
            DragStart::Wheel {
                pivot,
                pivot_point,
                grabbed,
            } => {
                let a = sandtable_geometry::pose::signed_angle(
                    grabbed - pivot_point,
                    world - pivot_point,
                )
                .to_degrees();
                // Forward wheel about the right corner turns clockwise (negative angle).
                let forward = match pivot {
                    PivotCorner::FrontRight => a,
                    PivotCorner::FrontLeft => -a,
                };
                let deg = (forward * 2.0).round() / 2.0;
                (deg.abs() >= 0.5).then_some(MoveStep::Wheel {
                    pivot,
                    degrees: deg,
                })
            }
        };
        if step != draft.dragging || draft.revision != battle.revision {
            draft.dragging = step;
            refresh_preview(&mut draft, &battle);
        }
    }
    if buttons.just_released(MouseButton::Left) {
        if let Some(step) = draft.dragging.take()
            && matches!(draft.preview, Some(Ok(_)))
        {
            draft.steps.push(step);
        }
        draft.drag = None;
        draft.charge_target = None;
        refresh_preview(&mut draft, &battle);
        pointer.claimed = false;
    }
}

/// With a charging unit selected, clicking an enemy plans the charge (and keeps the selection).
pub fn pick_charge_target(
    buttons: Res<ButtonInput<MouseButton>>,
    mut pointer: ResMut<Pointer>,
    hovered: Res<Hovered>,
    selected: Res<Selected>,
    battle: Option<Res<Battle>>,
    mut draft: ResMut<Draft>,
) {
    let Some(battle) = battle else { return };
    let (Some(Thing::Unit(unit)), Some(h)) = (selected.0, hovered.0) else {
        return;
    };
    let Thing::Unit(target) = h.thing else { return };
    if !buttons.just_pressed(MouseButton::Left) || pointer.over_ui || !movable(&battle, unit) {
        return;
    }
    let g = &battle.game;
    if g.unit(unit).order != Some(OrderKind::Charge) || g.unit(target).side == g.unit(unit).side {
        return;
    }
    draft.unit = Some(unit);
    draft.steps.clear();
    draft.charge_target = Some(target);
    refresh_preview(&mut draft, &battle);
    pointer.claimed = true;
}

/// Commits the draft as its command; keeps the unit selected for the next plan.
pub fn commit(draft: &mut Draft, battle: &mut Battle) -> bool {
    let Some(cmd) = draft.command() else {
        return false;
    };
    let ok = battle.submit(cmd).is_ok();
    if ok {
        let unit = draft.unit;
        draft.clear();
        draft.unit = unit;
    }
    ok
}

/// Drops the last step of the draft.
pub fn drop_last(draft: &mut Draft, battle: &Battle) {
    if draft.charge_target.take().is_none() {
        draft.steps.pop();
    }
    refresh_preview(draft, battle);
}

/// Appends a maneuver from the actions panel to the draft.
pub fn push_step(draft: &mut Draft, battle: &Battle, unit: UnitId, step: MoveStep) {
    if draft.unit != Some(unit) {
        draft.clear();
        draft.unit = Some(unit);
    }
    draft.charge_target = None;
    draft.steps.push(step);
    refresh_preview(draft, battle);
    if !matches!(draft.preview, Some(Ok(_))) {
        draft.steps.pop();
        let refused = draft.preview.take();
        refresh_preview(draft, battle);
        if let Some(Err(e)) = refused {
            draft.preview = Some(Err(e));
        }
    }
}
