//! The headless app the tests (and the frame bench) drive: `MinimalPlugins` with the game's
//! plugins, a primary window that is never shown, the whole window as table, saves in a
//! temporary folder.

#![allow(dead_code)]

pub mod clicks;

use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::window::{PrimaryWindow, WindowResolution};
use sandtable_app::args::Args;
use sandtable_app::table::view::TableArea;
use std::path::PathBuf;

/// A path below the project root.
pub fn project(path: &str) -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// Temporary folders that live as long as the app holding them: dropping the app removes them,
/// so that a test run leaves nothing behind in the system's temporary folder.
#[derive(Resource, Default)]
pub struct TestFolders(pub Vec<tempfile::TempDir>);

/// A fresh, empty temporary folder, removed with everything in it when dropped.
pub fn temp_folder(what: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("sandtable-{what}-"))
        .tempdir()
        .expect("a temporary folder")
}

/// Keeps `folder` until `app` is dropped.
pub fn keep_with(app: &mut App, folder: tempfile::TempDir) {
    app.world_mut()
        .get_resource_or_insert_with(TestFolders::default)
        .0
        .push(folder);
}

/// The app with `args`, saves going to a temporary folder unless `args` names one; three frames
/// run so that the scenario is open.
pub fn headless_app(mut args: Args) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin));
    // One fresh folder per app, removed with it.
    let folder = temp_folder("headless");
    args.saves
        .get_or_insert_with(|| folder.path().join("saves"));
    // Never the developer's own settings.
    args.config
        .get_or_insert_with(|| folder.path().join("config"));
    sandtable_app::add_game_plugins(&mut app, &args);
    // The player's own scenarios (where a set-up battle or an edited table is written) in the
    // fresh folder too, never the developer's.
    app.world_mut()
        .resource_mut::<sandtable_app::paths::DataPaths>()
        .own = Some(folder.path().join("own"));
    keep_with(&mut app, folder);
    let mut window = Window {
        resolution: WindowResolution::new(1280, 800),
        ..default()
    };
    window.set_cursor_position(Some(Vec2::new(100.0, 100.0)));
    app.world_mut().spawn((window, PrimaryWindow));
    // The UI normally measures the panels; headless, the whole window is table.
    app.insert_resource(TableArea {
        min: Vec2::ZERO,
        max: Vec2::new(1280.0, 800.0),
        measured: true,
    });
    for _ in 0..3 {
        app.update();
    }
    app
}

/// The whole game state of a By Fire and Sword battle, for tests that look inside it.
pub fn bfs_state(app: &App) -> sandtable_bfs::Game {
    let b = app.world().resource::<sandtable_app::battle::Battle>();
    b.game
        .snapshot()
        .get::<sandtable_bfs::Game>()
        .expect("a By Fire and Sword battle")
        .clone()
}

/// A By Fire and Sword command for the app.
pub fn bfs(cmd: sandtable_bfs::Command) -> sandtable_engine::AnyCommand {
    sandtable_engine::AnyCommand::new(cmd)
}

pub fn move_cursor(app: &mut App, to: Vec2) {
    let mut q = app
        .world_mut()
        .query_filtered::<&mut Window, With<PrimaryWindow>>();
    q.single_mut(app.world_mut())
        .unwrap()
        .set_cursor_position(Some(to));
}

pub fn button(app: &mut App, button: MouseButton, state: ButtonState) {
    let window = app
        .world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .unwrap();
    app.world_mut().write_message(MouseButtonInput {
        button,
        state,
        window,
    });
}

pub fn key(app: &mut App, key_code: KeyCode, state: ButtonState) {
    let window = app
        .world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .unwrap();
    app.world_mut().write_message(KeyboardInput {
        key_code,
        logical_key: Key::Character("t".into()),
        state,
        text: None,
        repeat: false,
        window,
    });
}

pub fn click_at(app: &mut App, at: Vec2) {
    move_cursor(app, at);
    app.update();
    button(app, MouseButton::Left, ButtonState::Pressed);
    app.update();
    button(app, MouseButton::Left, ButtonState::Released);
    app.update();
}

/// Presses and releases a key, a frame each.
pub fn tap(app: &mut App, k: KeyCode) {
    key(app, k, ButtonState::Pressed);
    app.update();
    key(app, k, ButtonState::Released);
    app.update();
}

/// Presses a key with Ctrl held (Ctrl+Z, Ctrl+Y), a frame for each step.
pub fn ctrl(app: &mut App, k: KeyCode) {
    key(app, KeyCode::ControlLeft, ButtonState::Pressed);
    key(app, k, ButtonState::Pressed);
    app.update();
    key(app, k, ButtonState::Released);
    key(app, KeyCode::ControlLeft, ButtonState::Released);
    app.update();
}

/// The default battle, side B played by the computer at no pace, side A by the test.
pub fn app_against_the_computer() -> App {
    let mut app = headless_app(Args {
        scenario: Some(project("scenarios/01-mill-ford-skirmish.ron")),
        computer: Some("b".into()),
        ..Default::default()
    });
    app.insert_resource(sandtable_app::computer::ComputerPace(0.0));
    app
}
