//! Turning mouse and keys into view changes, selection and the tape. These systems only touch
//! app resources, never the game: they are tested headless with `MinimalPlugins`.

use super::pick::{Hit, pick};
use super::tape_math::{LengthUnit, TapeEnd};
use super::view::{TableArea, TableView, to_geo};
use crate::battle::Battle;
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

/// What a left drag on the table does.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tool {
    /// Click selects; drag on empty table pans.
    #[default]
    Select,
    /// Drag measures (BFS-SCL-2).
    Tape,
}

/// Where the cursor is, and whether a panel or window is under it this frame.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct Pointer {
    /// Logical window pixels, y down.
    pub screen: Option<Vec2>,
    /// Table centimetres.
    pub world: Option<sandtable_geometry::Vec2>,
    /// Set by the UI when egui is using the pointer; table input then ignores it.
    pub over_ui: bool,
    /// Set by the UI when egui is using the keyboard (typing in a field).
    pub keyboard_taken: bool,
    /// A table tool (a unit drag, a charge target) has taken the current left press: no pan, no
    /// selection change on release.
    pub claimed: bool,
}

/// The thing under the cursor.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct Hovered(pub Option<Hit>);

/// The selected piece, whose card the side panel shows.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct Selected(pub Option<sandtable_engine::PieceId>);

/// The menu a right click opens beside a piece: the same actions the side panel lists (drawn by
/// `ui::unit_menu`).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct UnitMenu {
    /// The piece and where the click was, in logical window pixels.
    pub open: Option<(sandtable_engine::PieceId, Vec2)>,
}

/// The measuring tape: its two ends while laid out.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct Tape {
    pub start: Option<TapeEnd>,
    pub end: Option<TapeEnd>,
    pub dragging: bool,
    pub unit: LengthUnit,
}

/// A left-button press on the table that may become a click or a drag.
#[derive(Debug, Clone, Copy)]
pub struct Press {
    at: Vec2,
    last: Vec2,
    dragged: bool,
}

/// How fast the arrow keys pan the table, logical pixels per second.
pub const PAN_KEYS_PX_PER_S: f32 = 600.0;

/// Pixels the cursor must travel before a press counts as a drag.
pub const DRAG_THRESHOLD_PX: f32 = 4.0;

pub fn update_pointer(
    windows: Query<&Window, With<PrimaryWindow>>,
    mut view: ResMut<TableView>,
    mut pointer: ResMut<Pointer>,
    battle: Option<Res<Battle>>,
    mut hovered: ResMut<Hovered>,
    mut fit: ResMut<super::FitPending>,
) {
    let Ok(window) = windows.single() else { return };
    let size = Vec2::new(window.width(), window.height());
    if size != view.window && size.x > 0.0 && size.y > 0.0 {
        view.window = size;
        // A resized window (or a new interface size) shows the whole table again.
        fit.0 = true;
    }
    pointer.screen = window.cursor_position();
    pointer.world = pointer.screen.map(|s| to_geo(view.screen_to_world(s)));
    hovered.0 = match (&battle, pointer.world, pointer.over_ui) {
        (Some(b), Some(w), false) if b.curtain.is_none() => pick(&b.scene, w),
        _ => None,
    };
}

pub fn zoom_with_wheel(
    mut wheel: MessageReader<MouseWheel>,
    pointer: Res<Pointer>,
    mut view: ResMut<TableView>,
) {
    let mut steps = 0.0;
    for ev in wheel.read() {
        steps += match ev.unit {
            MouseScrollUnit::Line => ev.y,
            MouseScrollUnit::Pixel => ev.y / 40.0,
        };
    }
    if steps == 0.0 || pointer.over_ui {
        return;
    }
    let Some(screen) = pointer.screen else { return };
    view.zoom_about(screen, 1.15f32.powf(steps));
}

/// Pan with the right or middle button, or a left drag in Select; a left click selects.
#[allow(clippy::too_many_arguments)]
pub fn mouse_buttons(
    buttons: Res<ButtonInput<MouseButton>>,
    mut pointer: ResMut<Pointer>,
    tool: Res<Tool>,
    hovered: Res<Hovered>,
    mut view: ResMut<TableView>,
    mut selected: ResMut<Selected>,
    mut tape: ResMut<Tape>,
    mut menu: ResMut<UnitMenu>,
    mut press: Local<Option<Press>>,
    mut pan_from: Local<Option<Vec2>>,
    mut right_press: Local<Option<Press>>,
) {
    let Some(screen) = pointer.screen else {
        *press = None;
        *pan_from = None;
        *right_press = None;
        return;
    };

    // Right or middle drag pans whatever the tool.
    if (buttons.just_pressed(MouseButton::Right) || buttons.just_pressed(MouseButton::Middle))
        && !pointer.over_ui
    {
        *pan_from = Some(screen);
    }
    // A right click (no drag) on a unit selects it and opens its menu; elsewhere it closes it.
    if buttons.just_pressed(MouseButton::Right) && !pointer.over_ui {
        *right_press = Some(Press {
            at: screen,
            last: screen,
            dragged: false,
        });
    }
    if let Some(p) = right_press.as_mut()
        && (screen - p.at).length() > DRAG_THRESHOLD_PX
    {
        p.dragged = true;
    }
    if buttons.just_released(MouseButton::Right)
        && let Some(p) = right_press.take()
        && !p.dragged
    {
        menu.open = match hovered.0.map(|h| h.piece) {
            Some(p) => {
                selected.0 = Some(p);
                Some((p, screen))
            }
            None => None,
        };
    }
    // A left press on the table closes the menu (a press on the menu itself is over the UI).
    if buttons.just_pressed(MouseButton::Left) && !pointer.over_ui {
        menu.open = None;
    }
    if let Some(from) = *pan_from {
        if buttons.pressed(MouseButton::Right) || buttons.pressed(MouseButton::Middle) {
            view.pan_by_screen(screen - from);
            *pan_from = Some(screen);
        } else {
            *pan_from = None;
        }
    }

    let world = to_geo(view.screen_to_world(screen));
    let end_here = || TapeEnd {
        point: world,
        base: hovered.0.map(|h| h.rect),
    };

    if buttons.just_pressed(MouseButton::Left) && !pointer.over_ui && !pointer.claimed {
        *press = Some(Press {
            at: screen,
            last: screen,
            dragged: false,
        });
        if *tool == Tool::Tape {
            let e = end_here();
            *tape = Tape {
                start: Some(e),
                end: Some(e),
                dragging: true,
                unit: tape.unit,
            };
        }
    }
    if let Some(p) = press.as_mut() {
        if buttons.pressed(MouseButton::Left) {
            if !p.dragged && (screen - p.at).length() > DRAG_THRESHOLD_PX {
                p.dragged = true;
            }
            match *tool {
                _ if pointer.claimed => {}
                Tool::Tape => tape.end = Some(end_here()),
                Tool::Select if p.dragged => view.pan_by_screen(screen - p.last),
                Tool::Select => {}
            }
            p.last = screen;
        }
        if buttons.just_released(MouseButton::Left) {
            if *tool == Tool::Tape {
                tape.end = Some(end_here());
                tape.dragging = false;
            } else if !p.dragged && !pointer.claimed {
                selected.0 = hovered.0.map(|h| h.piece);
            }
            *press = None;
        }
    }
    if buttons.just_released(MouseButton::Left) {
        pointer.claimed = false;
    }
}

#[allow(clippy::too_many_arguments)] // a Bevy system: each argument is a resource it reads
pub fn keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    pointer: Res<Pointer>,
    area: Res<TableArea>,
    battle: Option<Res<Battle>>,
    mut view: ResMut<TableView>,
    mut tool: ResMut<Tool>,
    mut tape: ResMut<Tape>,
    mut selected: ResMut<Selected>,
    mut menu: ResMut<UnitMenu>,
    mut draft: ResMut<super::draft::Draft>,
    time: Res<Time>,
) {
    if pointer.keyboard_taken {
        return;
    }
    // Arrow keys pan the table, a window's width in about two seconds.
    let dir = [
        (KeyCode::ArrowLeft, Vec2::new(1.0, 0.0)),
        (KeyCode::ArrowRight, Vec2::new(-1.0, 0.0)),
        (KeyCode::ArrowUp, Vec2::new(0.0, 1.0)),
        (KeyCode::ArrowDown, Vec2::new(0.0, -1.0)),
    ]
    .iter()
    .filter(|(k, _)| keys.pressed(*k))
    .map(|(_, d)| *d)
    .sum::<Vec2>();
    if dir != Vec2::ZERO {
        let step = PAN_KEYS_PX_PER_S * time.delta_secs().min(0.1);
        view.pan_by_screen(dir * step);
    }
    if (keys.just_pressed(KeyCode::KeyF) || keys.just_pressed(KeyCode::Home))
        && let Some(b) = &battle
    {
        let t = b.scene.size;
        view.fit(Vec2::new(t.x, t.y), *area, 24.0);
    }
    if keys.just_pressed(KeyCode::KeyT) {
        *tool = if *tool == Tool::Tape {
            Tool::Select
        } else {
            Tool::Tape
        };
        if *tool == Tool::Select {
            tape.start = None;
            tape.end = None;
        }
    }
    if keys.just_pressed(KeyCode::KeyU) {
        tape.unit = tape.unit.other();
    }
    if keys.just_pressed(KeyCode::Escape) {
        if draft.asking {
            draft.asking = false;
            draft.advice = None;
        } else if menu.open.is_some() {
            menu.open = None;
        } else if *tool == Tool::Tape {
            *tool = Tool::Select;
            tape.start = None;
            tape.end = None;
        } else {
            selected.0 = None;
        }
    }
}
