//! App systems tested headless: `MinimalPlugins`, injected input, no window or GPU.

use bevy::input::ButtonState;
use bevy::input::InputPlugin;
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::window::PrimaryWindow;
use sandtable_app::args::Args;

mod support;
use sandtable_app::battle::Battle;
use sandtable_app::screens::Screen;
use sandtable_app::table::input::{Selected, Tape, Tool, UnitMenu};
use sandtable_app::table::tape_math::measure;
use sandtable_app::table::view::{TableView, from_geo};
use sandtable_engine::PieceId;
use support::{bfs_state, button, click_at, headless_app, key, move_cursor, project, tap};

/// The default battle, its opening curtain lifted (the first player is at the screen).
fn app_with_default_scenario() -> App {
    let mut app = headless_app(Args {
        scenario: Some(project("scenarios/01-mill-ford-skirmish.ron")),
        ..Default::default()
    });
    app.world_mut().resource_mut::<Battle>().lift_curtain();
    app.update();
    app
}

/// A piece's id and where the middle of its second base is on screen.
fn middle_base_on_screen(app: &App, key: &str) -> (PieceId, Vec2) {
    let b = app.world().resource::<Battle>();
    let u = b.scene.pieces.iter().find(|u| u.key == key).unwrap();
    let screen = app
        .world()
        .resource::<TableView>()
        .world_to_screen(from_geo(u.bases[1].center()));
    (u.id, screen)
}

#[test]
fn default_scenario_opens_on_the_battle_screen_fitted() {
    let app = app_with_default_scenario();
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Battle
    );
    assert_eq!(bfs_state(&app).units.len(), 10);
    let view = app.world().resource::<TableView>();
    // 120 cm fitted into 800 px with a 24 px margin: (800 - 48) / 120 px per cm.
    assert!(
        (view.px_per_cm - 752.0 / 120.0).abs() < 1e-3,
        "{}",
        view.px_per_cm
    );
}

#[test]
fn clicking_a_base_selects_its_unit_and_clicking_empty_table_deselects() {
    let mut app = app_with_default_scenario();
    let (id, screen) = middle_base_on_screen(&app, "hussars");
    click_at(&mut app, screen);
    assert_eq!(app.world().resource::<Selected>().0, Some(id));

    let empty = app
        .world()
        .resource::<TableView>()
        .world_to_screen(Vec2::new(60.0, 45.0));
    click_at(&mut app, empty);
    assert_eq!(app.world().resource::<Selected>().0, None);
}

/// A right click on a unit selects it and opens its menu of turns, maneuvers and orders beside
/// it; Esc closes it; a right drag pans and opens nothing.
#[test]
fn right_click_on_a_unit_opens_its_menu_and_a_right_drag_does_not() {
    let mut app = app_with_default_scenario();
    let (id, screen) = middle_base_on_screen(&app, "hussars");
    move_cursor(&mut app, screen);
    app.update();
    button(&mut app, MouseButton::Right, ButtonState::Pressed);
    app.update();
    button(&mut app, MouseButton::Right, ButtonState::Released);
    app.update();
    assert_eq!(app.world().resource::<UnitMenu>().open, Some((id, screen)));
    assert_eq!(app.world().resource::<Selected>().0, Some(id));

    tap(&mut app, KeyCode::Escape);
    assert_eq!(app.world().resource::<UnitMenu>().open, None);

    // Press on the unit, drag 40 px, release: a pan, not a menu.
    let before = app
        .world()
        .resource::<TableView>()
        .world_to_screen(Vec2::ZERO);
    button(&mut app, MouseButton::Right, ButtonState::Pressed);
    app.update();
    move_cursor(&mut app, screen + Vec2::new(40.0, 0.0));
    app.update();
    button(&mut app, MouseButton::Right, ButtonState::Released);
    app.update();
    assert_eq!(app.world().resource::<UnitMenu>().open, None);
    let after = app
        .world()
        .resource::<TableView>()
        .world_to_screen(Vec2::ZERO);
    assert!(
        (after.x - before.x - 40.0).abs() < 1e-3,
        "{before} -> {after}"
    );
}

#[test]
fn wheel_zooms_about_the_cursor() {
    let mut app = app_with_default_scenario();
    let cursor = Vec2::new(300.0, 200.0);
    move_cursor(&mut app, cursor);
    app.update();
    let (before_zoom, before_world) = {
        let v = app.world().resource::<TableView>();
        (v.px_per_cm, v.screen_to_world(cursor))
    };
    let window = app
        .world_mut()
        .query_filtered::<Entity, With<PrimaryWindow>>()
        .single(app.world())
        .unwrap();
    app.world_mut().write_message(MouseWheel {
        unit: MouseScrollUnit::Line,
        x: 0.0,
        y: 2.0,
        window,
        phase: bevy::input::touch::TouchPhase::Moved,
    });
    app.update();
    let v = *app.world().resource::<TableView>();
    assert!((v.px_per_cm / before_zoom - 1.15f32.powi(2)).abs() < 1e-3);
    assert!((v.screen_to_world(cursor) - before_world).length() < 1e-3);
}

#[test]
fn tape_measures_base_to_base_by_drag() {
    let mut app = app_with_default_scenario();
    let (a, b) = {
        let g = bfs_state(&app);
        let hussars = g.units.iter().find(|u| u.key == "hussars").unwrap();
        let haiduks = g.units.iter().find(|u| u.key == "haiduks").unwrap();
        (hussars.bases[2].center(), haiduks.bases[0].center())
    };
    key(&mut app, KeyCode::KeyT, ButtonState::Pressed);
    app.update();
    key(&mut app, KeyCode::KeyT, ButtonState::Released);
    app.update();
    assert_eq!(*app.world().resource::<Tool>(), Tool::Tape);
    let view = *app.world().resource::<TableView>();
    move_cursor(&mut app, view.world_to_screen(from_geo(a)));
    app.update();
    button(&mut app, MouseButton::Left, ButtonState::Pressed);
    app.update();
    move_cursor(&mut app, view.world_to_screen(from_geo(b)));
    app.update();
    button(&mut app, MouseButton::Left, ButtonState::Released);
    app.update();
    let tape = *app.world().resource::<Tape>();
    let m = measure(tape.start.unwrap(), tape.end.unwrap());
    assert!(m.base_to_base);
    // Hussars' right base spans x 40..44 (front at y 24), the haiduks' left base x 52..56 (front
    // at y 26, 2 cm deep): the closest points are the hussar corner (44, 24) and the haiduk
    // corner (52, 24), 8.0 cm apart.
    assert!((m.length_cm - 8.0).abs() < 1e-3, "{}", m.length_cm);
}

#[test]
fn a_bad_scenario_leaves_us_on_the_start_screen_with_its_errors() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, InputPlugin));
    let bad = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bfs/tests/bad-scenarios/unknown-profile.ron");
    sandtable_app::add_game_plugins(
        &mut app,
        &Args {
            scenario: Some(bad),
            ..Default::default()
        },
    );
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Start
    );
    let req = app
        .world()
        .resource::<sandtable_app::screens::OpenRequest>();
    let lines = req.error.as_ref().expect("errors shown");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("unknown profile \"dragons\"")),
        "{lines:?}"
    );
}

#[test]
fn a_whole_turn_is_played_with_the_keyboard_and_mouse() {
    use sandtable_bfs::state::OrderKind;
    use sandtable_bfs::turn::Phase;
    let mut app = app_with_default_scenario();
    // The units each side orders by clicking their base and pressing 1 (a Move order).
    let to_order = ["hussars", "reiters-1"];
    let mut clicks = 0;
    for _ in 0..400 {
        let (phase, turn, curtain, deciding, next_unit) = {
            let b = app.world().resource::<Battle>();
            let g = bfs_state(&app);
            let next_unit = b.deciding().and_then(|side| {
                g.units
                    .iter()
                    .find(|u| {
                        u.side.0 == side
                            && to_order.contains(&u.key.as_str())
                            && u.pending_order.is_none()
                            && u.order.is_none()
                    })
                    .map(|u| u.bases[1].center())
            });
            (
                g.turn.phase.clone(),
                g.turn.number,
                b.curtain.is_some(),
                b.deciding(),
                next_unit,
            )
        };
        if turn == 2 {
            break;
        }
        if curtain {
            // The next player is ready behind the hand-over screen.
            tap(&mut app, KeyCode::Space);
            continue;
        }
        if app
            .world()
            .resource::<sandtable_app::table::draft::Draft>()
            .asking
        {
            // The coach questions the order: the player carries it out anyway (Enter).
            tap(&mut app, KeyCode::Enter);
            continue;
        }
        match phase {
            Phase::InitiativeBids { .. } => tap(
                &mut app,
                if deciding == Some(0) {
                    KeyCode::Digit1
                } else {
                    KeyCode::Digit0
                },
            ),
            Phase::InitiativeChoice { .. } => tap(&mut app, KeyCode::KeyK),
            Phase::Orders { .. } if next_unit.is_some() => {
                let at = app
                    .world()
                    .resource::<TableView>()
                    .world_to_screen(from_geo(next_unit.unwrap()));
                click_at(&mut app, at);
                clicks += 1;
                tap(&mut app, KeyCode::Digit1);
            }
            _ => tap(&mut app, KeyCode::Enter),
        }
    }
    let b = app.world().resource::<Battle>();
    let g = bfs_state(&app);
    assert_eq!(
        g.turn.number,
        2,
        "one whole turn played; stuck at {:?}: {}",
        g.turn.phase,
        b.prompt().expected
    );
    assert_eq!(clicks, 2, "each side selected its unit with the mouse");
    for key in to_order {
        let u = g.units.iter().find(|u| u.key == key).unwrap();
        assert_eq!(
            u.order,
            Some(OrderKind::Move),
            "{key} got its Move order by keyboard"
        );
    }
    // The bids were placed by key: side A's 1 CP was spent (BFS-INI-2).
    assert!(
        b.log
            .iter()
            .any(|(_, n)| n.text.starts_with("Bids revealed:")
                && n.text.contains("Polish-Lithuanian 1 CP, Swedish 0 CP")),
        "bids 1 and 0 were revealed"
    );
}

#[test]
fn arrow_keys_pan_the_table_and_a_resized_window_fits_it_again() {
    let mut app = app_with_default_scenario();
    let fitted = *app.world().resource::<TableView>();
    // Holding the left arrow: the view moves towards the table's west edge.
    key(&mut app, KeyCode::ArrowLeft, ButtonState::Pressed);
    for _ in 0..5 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        app.update();
    }
    key(&mut app, KeyCode::ArrowLeft, ButtonState::Released);
    app.update();
    let panned = *app.world().resource::<TableView>();
    assert!(panned.center.x < fitted.center.x, "{panned:?} {fitted:?}");
    assert_eq!(panned.center.y, fitted.center.y);
    assert_eq!(panned.px_per_cm, fitted.px_per_cm);
    // A narrower window: the whole table is fitted into it again.
    app.world_mut()
        .query_filtered::<&mut Window, With<PrimaryWindow>>()
        .single_mut(app.world_mut())
        .unwrap()
        .resolution
        .set(600.0, 800.0);
    app.world_mut()
        .resource_mut::<sandtable_app::table::view::TableArea>()
        .max = Vec2::new(600.0, 800.0);
    for _ in 0..3 {
        app.update();
    }
    let refit = *app.world().resource::<TableView>();
    assert_eq!(refit.window, Vec2::new(600.0, 800.0));
    assert!(refit.px_per_cm < fitted.px_per_cm, "{refit:?} {fitted:?}");
    // The table's middle is at the middle of the (whole-window) table area again.
    let mid = refit.world_to_screen(Vec2::new(60.0, 60.0));
    assert!((mid - Vec2::new(300.0, 400.0)).length() < 0.5, "{mid:?}");
}
