//! The player's settings at the table, headless: the tape starts in the unit chosen, and with
//! "Commit?" on a planned command waits for a second Enter (Esc says not yet).

use bevy::prelude::*;
use sandtable_app::args::Args;
use sandtable_app::battle::Battle;
use sandtable_app::settings::{Settings, TapeUnit};
use sandtable_app::table::draft::Draft;
use sandtable_app::table::input::Tape;
use sandtable_engine::LengthUnit;

mod support;
use support::{headless_app, keep_with, project, tap, temp_folder};

/// The default battle with a settings file in a fresh folder, its curtain lifted.
fn app_with(settings: &str) -> App {
    let dir = temp_folder("settings-test");
    std::fs::write(dir.path().join("settings.ron"), settings).unwrap();
    let mut app = headless_app(Args {
        scenario: Some(project("scenarios/01-mill-ford-skirmish.ron")),
        config: Some(dir.path().to_path_buf()),
        ..Default::default()
    });
    keep_with(&mut app, dir);
    app.world_mut().resource_mut::<Battle>().lift_curtain();
    app.update();
    app
}

#[test]
fn the_tape_starts_in_the_unit_the_settings_choose() {
    // By Fire and Sword measures in centimetres; the player asked for inches.
    let app = app_with("Settings(tape_unit: Inches)");
    assert_eq!(
        app.world().resource::<Settings>().tape_unit,
        TapeUnit::Inches
    );
    assert_eq!(app.world().resource::<Tape>().unit, LengthUnit::Inches);
    let app = app_with("Settings()");
    assert_eq!(app.world().resource::<Tape>().unit, LengthUnit::Centimetres);
}

/// Puts the first of the menu's commands (a secret Initiative bid) in the planner.
fn plan_first_menu_item(app: &mut App) {
    let plan = {
        let b = app.world().resource::<Battle>();
        let menu = sandtable_app::actions::menu(b, None, None, &Default::default());
        menu.items[0].command.clone()
    };
    app.world_mut().resource_mut::<Draft>().plan = Some(plan);
}

#[test]
fn with_commit_asked_first_a_plan_waits_for_a_second_enter() {
    let mut app = app_with("Settings(confirm_commit: true)");
    let commands = |app: &App| app.world().resource::<Battle>().game.len();
    plan_first_menu_item(&mut app);
    let before = commands(&app);
    tap(&mut app, KeyCode::Enter);
    assert!(app.world().resource::<Draft>().asking, "Commit? is asked");
    assert_eq!(commands(&app), before, "nothing is carried out yet");
    tap(&mut app, KeyCode::Escape);
    assert!(!app.world().resource::<Draft>().asking, "Esc: not yet");
    assert!(
        app.world().resource::<Draft>().plan.is_some(),
        "the plan stays"
    );
    tap(&mut app, KeyCode::Enter);
    tap(&mut app, KeyCode::Enter);
    assert_eq!(commands(&app), before + 1, "the second Enter commits");

    // Off (the default): one Enter commits.
    let mut app = app_with("Settings()");
    plan_first_menu_item(&mut app);
    let before = commands(&app);
    tap(&mut app, KeyCode::Enter);
    assert_eq!(commands(&app), before + 1);
}
