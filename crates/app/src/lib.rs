//! The Sandtable app: Bevy draws the table and bevy_egui the panels. The app holds no rules: it
//! shows the game state, previews and events, and changes the game only through commands.

pub mod actions;
pub mod args;
pub mod autoplay;
pub mod battle;
pub mod catalogue;
pub mod computer;
pub mod controls;
pub mod editor;
pub mod palette;
pub mod paths;
pub mod preview;
pub mod remote;
pub mod rulesets;
pub mod saves;
pub mod screens;
pub mod screenshot;
pub mod settings;
pub mod setup;
pub mod table;
pub mod ui;

/// A fresh, empty folder for a unit test, removed with what the test wrote in it when dropped.
#[cfg(test)]
pub(crate) fn scratch_folder(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("sandtable-{name}-"))
        .tempdir()
        .unwrap()
}

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

/// When the program started (`main`'s first line), for the start-up time it logs once the start
/// screen's first frame is drawn (issue 19: ≤ 2 s; `docs/performance.md`).
#[derive(Resource, Debug, Clone, Copy)]
pub struct Launched(pub std::time::Instant);

/// The whole app for a real window.
pub fn build_app(args: args::Args) -> App {
    let mut app = App::new();
    // The settings first: the interface's scale is the window's scale factor, so the table, its
    // labels and the panels all grow together.
    let (file, settings) = settings::SettingsFile::open(args.settings_dir().as_deref());
    let scale = settings.ui_scale;
    app.insert_resource(settings).insert_resource(file);
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Sandtable".into(),
            resolution:
                WindowResolution::new(args.width, args.height).with_scale_factor_override(scale),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(palette::rgb(palette::BACKGROUND)));
    add_game_plugins(&mut app, &args);
    app.insert_resource(ui::settings_window::SettingsWindow {
        open: args.open_settings,
    })
    .insert_resource(ui::help_keys::ShortcutSheet {
        open: args.open_keys,
    });
    app.add_plugins((table::render_plugin, ui::plugin, screenshot::plugin));
    app
}

/// The parts of the app that need no renderer: screens, data paths, table interaction. Headless
/// tests build on `MinimalPlugins` plus these.
pub fn add_game_plugins(app: &mut App, args: &args::Args) {
    let save_dir = args
        .saves
        .clone()
        .or_else(|| std::env::var_os("SANDTABLE_SAVES").map(Into::into))
        .unwrap_or_else(paths::saves_dir);
    settings::install(app, args.settings_dir().as_deref());
    let data = paths::DataPaths::locate(args.data.as_deref());
    let rulesets = rulesets::Rulesets::default();
    // Without its help files the app still plays; rule links then say there is no text.
    let (help, problems) = rulesets.0.help(&data.dirs);
    for p in problems {
        warn!("rule help: {p}");
    }
    let rule_book = ui::rules::RuleBook(Some(help));
    app.insert_resource(data)
        .insert_resource(rulesets)
        .insert_resource(rule_book)
        .insert_resource(ui::rules::OpenRuleAtStart(args.open_rule.clone()))
        .insert_resource(table::MeasureAtStart(args.measure.as_deref().and_then(
            |m| {
                m.split_once(',')
                    .map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))
            },
        )))
        .insert_resource(table::SelectAtStart(args.select.as_deref().map(|s| {
            let mut parts = s.split(',').map(|p| p.trim().to_string());
            let key = parts.next().unwrap_or_default();
            (key, parts.collect())
        })))
        .init_resource::<ui::rules::RuleWindowShown>()
        .insert_resource(saves::SaveDir(save_dir))
        .init_resource::<actions::Choices>()
        .insert_resource(ui::BattleUi {
            why_open: args.open_why,
            ..Default::default()
        })
        .init_resource::<computer::Thinking>()
        .add_plugins((
            screens::plugin,
            table::interaction_plugin,
            setup::plugin,
            editor::plugin,
        ))
        .insert_resource(editor::EditAtStart(args.edit.clone()))
        .insert_resource(setup::SetupAtStart::from_args(args))
        .add_systems(
            Update,
            (
                controls::battle_keys.after(table::InputSet),
                saves::autosave_on_change.after(controls::battle_keys),
                table::overlays::rebuild_cache.after(controls::battle_keys),
                computer::think.before(table::InputSet),
            )
                .run_if(in_state(screens::Screen::Battle)),
        );
    let scenario = args.scenario.clone().or_else(|| {
        args.screenshot
            .as_ref()
            .filter(|_| !args.start_screen)
            .and_then(|_| {
                let cat = catalogue::Catalogue::scan(
                    &paths::DataPaths::locate(args.data.as_deref()),
                    &rulesets::Rulesets::default(),
                );
                cat.default_entry().map(|e| e.path.clone())
            })
    });
    let chosen = || {
        scenario.clone().or_else(|| {
            catalogue::Catalogue::scan(
                &paths::DataPaths::locate(args.data.as_deref()),
                &rulesets::Rulesets::default(),
            )
            .default_entry()
            .map(|e| e.path.clone())
        })
    };
    let remote = match (&args.offer_to, &args.turn_file, &args.host) {
        (_, Some(file), _) => Some(screens::RemoteAction::OpenFile(file.clone())),
        (_, None, Some(bind)) => chosen().map(|scenario| screens::RemoteAction::Host {
            scenario,
            bind: bind.clone(),
        }),
        (Some(key), None, None) => chosen().map(|scenario| screens::RemoteAction::Email {
            scenario,
            seat: 0,
            opponent: key.clone(),
        }),
        (None, None, None) => None,
    };
    app.insert_resource(ui::RemoteSectionOpen(args.open_remote));
    if remote.is_some() {
        app.insert_resource(screens::OpenRequest {
            remote,
            seats: args.seats(),
            ..Default::default()
        });
    } else if let Some(path) = scenario {
        app.insert_resource(screens::OpenRequest {
            path: Some(path),
            seats: args.seats(),
            level: args.level(),
            dice: args.dice,
            ..Default::default()
        });
    } else {
        app.insert_resource(screens::OpenRequest {
            seats: args.seats(),
            level: args.level(),
            ..Default::default()
        });
    }
    if args.autoplay > 0 || args.hints > 0 || args.show_coach {
        app.insert_resource(autoplay::Autoplay {
            remaining: args.autoplay,
            hints: args.hints,
            show_coach: args.show_coach,
        })
        .add_systems(
            Update,
            autoplay::run
                .run_if(in_state(screens::Screen::Battle))
                .before(table::InputSet),
        );
    }
    if let Some(path) = &args.screenshot {
        app.insert_resource(screenshot::ScreenshotRequest::new(path.clone()));
    }
}
