//! Issue 16, by injected input: a force built in the "Set up a battle" window and saved, the
//! pre-battle sequence run by two players at one screen with the curtain between them, and the
//! battle started, each step a click or keystroke on the window's own widgets (found by the names
//! egui gives them for screen readers). The test reads the app's state only to check it and to
//! know which of the offered choices a player would click.

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::egui::accesskit::Role;
use sandtable_app::args::Args;
use sandtable_app::battle::{Battle, SeatKind};
use sandtable_app::screens::Screen;
use sandtable_app::setup::BattleSetup;

mod support;
use support::clicks::{
    self, click, click_in, click_pos, find, frames, press, type_text, with_role,
};

const WINDOW: &str = "Set up a battle";

fn setup(app: &App) -> &BattleSetup {
    app.world().resource::<BattleSetup>()
}

/// The widget in the window with `role` on the same row as the one named `name`.
fn beside(app: &App, name: &str, role: Role) -> clicks::Widget {
    let anchor = clicks::find_in(app, WINDOW, name)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no {name:?}: {:#?}", clicks::names(app)));
    with_role(app, WINDOW, role)
        .into_iter()
        .find(|w| (w.rect.center().y - anchor.rect.center().y).abs() < 4.0)
        .unwrap_or_else(|| panic!("no {role:?} beside {name:?}"))
}

/// Three sequences, each from its own dice (`--dice`), so that different scenarios, effects and
/// steps come up and a failure can be replayed.
#[test]
fn a_force_is_built_the_sequence_run_in_hot_seat_and_the_battle_started_by_clicks() {
    let own = std::env::temp_dir().join(format!("sandtable-click-forces-{}", std::process::id()));
    // One test in this file: nothing else reads the environment meanwhile.
    unsafe { std::env::set_var("SANDTABLE_FORCES_DIR", &own) };
    // The last plays the optional Choice of Effects, ticked in the window (BFS-OPT-4).
    for (seed, choice) in [(3, false), (11, false), (2026, true)] {
        build_run_and_start(&own, seed, choice);
    }
    let _ = std::fs::remove_dir_all(&own);
}

fn build_run_and_start(own: &std::path::Path, seed: u64, choice_of_effects: bool) {
    let _ = std::fs::remove_dir_all(own);
    let mut app = support::headless_app(Args {
        start_screen: true,
        dice: Some(seed),
        ..Default::default()
    });
    clicks::install(&mut app);
    frames(&mut app, 2);

    // The start screen's button opens the window on the builder; the Polish card is chosen
    // from the army lists' box.
    click(&mut app, "Set up a battle from two forces…");
    assert!(setup(&app).open);
    if setup(&app).draft.list != "polish-lithuanian-1655" {
        let lists = with_role(&app, WINDOW, Role::ComboBox)
            .into_iter()
            .min_by(|a, b| a.rect.min.y.partial_cmp(&b.rect.min.y).unwrap())
            .expect("the army list's box");
        click_pos(&mut app, lists.rect.center());
        clicks::click_listed(&mut app, "Polish-Lithuanian skirmish force (1655-1660)");
    }
    assert_eq!(setup(&app).draft.list, "polish-lithuanian-1655");

    // Name the force: click the field, select its text, type over it.
    let name = with_role(&app, WINDOW, Role::TextInput)
        .into_iter()
        .find(|w| w.value.as_deref() == Some("New force"))
        .expect("the name field");
    click_pos(&mut app, name.rect.center());
    press(&mut app, egui::Key::A, egui::Modifiers::COMMAND);
    type_text(&mut app, "Test banners");
    assert_eq!(setup(&app).draft.name, "Test banners");

    // The core cannot be left out: its boxes are greyed (BFS-LST-3).
    let core = find(&app, "Haiduk company")
        .into_iter()
        .find(|w| w.role == Role::CheckBox && w.label == "Haiduk company")
        .unwrap();
    assert!(core.disabled && core.toggled == Some(true));

    // Take the hussars of the FSP 6 level, then give them their grey base: 4 bases.
    click_in(&mut app, WINDOW, "Hussar banner", 0);
    frames(&mut app, 1);
    let bases = beside(&app, "Hussar banner", Role::SpinButton);
    assert_eq!(bases.label, "3 bases");
    click_pos(&mut app, bases.rect.center());
    press(&mut app, egui::Key::A, egui::Modifiers::COMMAND);
    type_text(&mut app, "4");
    press(&mut app, egui::Key::Enter, egui::Modifiers::NONE);
    frames(&mut app, 1);
    // Enter went to the field, not to the start screen beneath (it once started its battle).
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Start
    );
    let picks = setup(&app).draft.picks.clone();
    assert!(picks.contains(&("hussars".to_string(), 4)), "{picks:?}");
    let report = setup(&app).report.clone();
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert!(
        report.lines[0].contains("Force Strength Points: 7"),
        "{:?}",
        report.lines
    );
    assert!(!find(&app, "The force keeps to its card").is_empty());

    // Save it among the player's own forces.
    click_in(&mut app, WINDOW, "Save the force", 0);
    let saved: Vec<_> = std::fs::read_dir(own)
        .expect("the own forces folder")
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let stem = saved[0].file_stem().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(&saved[0]).unwrap();
    assert!(text.contains("Test banners") && text.contains("hussars"));

    // The sequence: our force against von Schwelick's column, both sides at this screen.
    click_in(&mut app, WINDOW, "2. The pre-battle sequence", 0);
    for (side, force) in [(0, stem.as_str()), (1, "swedish-schwelick-column")] {
        let mut combos = with_role(&app, WINDOW, Role::ComboBox);
        combos.sort_by(|a, b| a.rect.min.y.partial_cmp(&b.rect.min.y).unwrap());
        click_pos(&mut app, combos[side].rect.center());
        // The list pops up over the window; the entry is clicked where it shows.
        clicks::click_listed(&mut app, force);
    }
    click_in(&mut app, WINDOW, "Player", 1);
    if choice_of_effects {
        let tick = with_role(&app, WINDOW, Role::CheckBox)
            .into_iter()
            .find(|w| w.label.starts_with("Choice of Effects"))
            .expect("the optional rule offered");
        click_pos(&mut app, tick.rect.center());
        assert_eq!(setup(&app).options, ["choice_of_effects"]);
    }
    let forces = setup(&app).forces.clone();
    let chosen = setup(&app).chosen;
    assert!(forces[chosen[0]].ends_with(format!("{stem}.ron")));
    assert!(forces[chosen[1]].ends_with("swedish-schwelick-column.ron"));
    assert_eq!(setup(&app).seats, [SeatKind::Human, SeatKind::Human]);
    click_in(&mut app, WINDOW, "Begin the sequence", 0);
    assert!(setup(&app).running(), "{:?}", setup(&app).error);

    let mut curtains = 0;
    let mut first_deployer = None;
    let mut checked_secret = false;
    for _ in 0..120 {
        let s = setup(&app);
        let step = s.step().expect("a step");
        let Some(seat) = step.to_act else { break };
        if let Some(waiting) = s.curtain() {
            // Behind the curtain nothing shows: no choice, no record, no table.
            assert_eq!(waiting, seat);
            assert!(find(&app, "Let the computer choose for me").is_empty());
            assert!(find(&app, "The sequence so far").is_empty());
            assert!(s.table().is_none());
            let lift = find(&app, "show my choices")
                .into_iter()
                .find(|w| w.role == Role::Button)
                .expect("the curtain's button");
            click_pos(&mut app, lift.rect.center());
            curtains += 1;
            continue;
        }
        assert_eq!(s.viewer, Some(seat));
        if step.title == "Deploy" {
            match first_deployer {
                None => first_deployer = Some(seat),
                Some(first) if first != seat => {
                    // The second deployer sees no base of the first side yet.
                    let t = s.table().unwrap();
                    assert!(
                        t.bases.iter().all(|(b, _)| *b != first),
                        "secret bases shown"
                    );
                    assert!(s.summary().iter().any(|l| l.contains("hidden")));
                    checked_secret = true;
                }
                Some(_) => {}
            }
        }
        // As a person would: the first choice the menu offers, from the list of places if it is
        // a placement.
        let first = s
            .choices()
            .into_iter()
            .find(|c| c.refused.is_none() && c.group.is_none());
        match first {
            Some(c) => click_in(&mut app, WINDOW, &c.label, 0),
            None => {
                let place = s
                    .choices()
                    .into_iter()
                    .find(|c| c.refused.is_none())
                    .expect("something to choose");
                let header = find(&app, "places from a list")
                    .into_iter()
                    .find(|w| w.role != Role::Label)
                    .expect("the list of places");
                if find(&app, &place.label).is_empty() {
                    click_pos(&mut app, header.rect.center());
                }
                click_in(&mut app, WINDOW, &place.label, 0);
            }
        }
    }
    let s = setup(&app);
    assert!(
        s.step().unwrap().to_act.is_none(),
        "seed {seed}: the battle is ready"
    );
    assert!(
        curtains >= 2,
        "seed {seed}: the curtain came down between the players"
    );

    assert!(
        checked_secret,
        "seed {seed}: the second deployer's view was checked"
    );

    // Start it: the battle screen opens on the scenario the sequence wrote.
    click_in(&mut app, WINDOW, "▶  Start the battle", 0);
    frames(&mut app, 3);
    let written = app
        .world()
        .resource::<sandtable_app::screens::OpenRequest>()
        .path
        .clone();
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Battle
    );
    let b = app.world().resource::<Battle>();
    assert_eq!(b.seats, [SeatKind::Human, SeatKind::Human]);
    assert!(
        b.game.info().name.contains("Test banners"),
        "{}",
        b.game.info().name
    );
    if let Some(p) = written {
        let _ = std::fs::remove_file(p);
    }
}
