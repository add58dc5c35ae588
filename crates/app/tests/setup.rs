//! Setting up a battle in the app, headless: a force built from an army list's card and saved,
//! the pre-battle sequence run in hot-seat with each side's secrets behind the curtain, and the
//! battle it sets up opened on the battle screen.

use bevy::prelude::*;
use sandtable_app::args::Args;
use sandtable_app::battle::{Battle, SeatKind};
use sandtable_app::paths::DataPaths;
use sandtable_app::screens::{OpenRequest, Screen};
use sandtable_app::setup::BattleSetup;

mod support;
use support::headless_app;

#[test]
fn a_force_is_built_the_sequence_run_in_hot_seat_and_the_battle_started() {
    let own = std::env::temp_dir().join(format!("sandtable-app-forces-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&own);
    // One test in this file: nothing else reads the environment meanwhile.
    unsafe { std::env::set_var("SANDTABLE_FORCES_DIR", &own) };
    let mut app = headless_app(Args::default());
    let paths = app.world().resource::<DataPaths>().clone();
    let mut setup = app.world_mut().remove_resource::<BattleSetup>().unwrap();

    // Build: the Polish card's core, the hussars of the FSP 6 level with a grey base, saved.
    setup.new_force("polish-lithuanian-1655");
    setup.draft.name = "Test banners".into();
    setup.toggle("hussars", true);
    setup.set_bases("hussars", 4);
    setup.refresh();
    assert!(
        setup.report.problems.is_empty(),
        "{:?}",
        setup.report.problems
    );
    assert!(
        setup.report.lines[0].contains("Force Strength Points: 7"),
        "{:?}",
        setup.report.lines
    );
    // Leaving out a core unit is refused with the rule, and cannot be saved.
    setup.toggle("haiduks", false);
    assert!(
        setup
            .report
            .problems
            .iter()
            .any(|p| p.contains("BFS-LST-3"))
    );
    assert!(setup.save_force(&paths).is_err());
    setup.toggle("haiduks", true);
    let saved = setup.save_force(&paths).expect("saved");
    assert!(saved.starts_with(&own));
    let mine = setup
        .forces
        .iter()
        .position(|f| *f == saved)
        .expect("listed");
    let theirs = setup
        .forces
        .iter()
        .position(|f| f.ends_with("swedish-schwelick-column.ron"))
        .unwrap();

    // The sequence, two players at the screen.
    setup.chosen = [mine, theirs];
    setup.seats = [SeatKind::Human, SeatKind::Human];
    setup.begin(&paths, 21).unwrap();
    let mut curtains = 0;
    let mut first_deployer = None;
    for _ in 0..200 {
        let Some(step) = setup.step() else { break };
        let Some(seat) = step.to_act else { break };
        if let Some(waiting) = setup.curtain() {
            // Behind the curtain nothing shows: no menu, no record, no table.
            assert_eq!(waiting, seat);
            assert!(setup.choices().is_empty() && setup.log().is_empty());
            assert!(setup.table().is_none());
            setup.lift_curtain();
            curtains += 1;
        }
        assert_eq!(setup.viewer, Some(seat));
        if step.title == "Deploy" {
            match first_deployer {
                None => first_deployer = Some(seat),
                Some(first) => {
                    // The second deployer sees no base of the first side yet.
                    let t = setup.table().unwrap();
                    assert!(
                        t.bases.iter().all(|(s, _)| *s != first),
                        "secret bases shown"
                    );
                    assert!(setup.summary().iter().any(|l| l.contains("hidden")));
                }
            }
        }
        // As a person would: the first choice the menu offers.
        let offered: Vec<_> = setup
            .choices()
            .into_iter()
            .filter(|c| c.refused.is_none())
            .collect();
        let key = offered.first().expect("something to choose").key.clone();
        setup.choose(&key).unwrap();
    }
    assert!(
        setup.step().unwrap().to_act.is_none(),
        "the battle is ready"
    );
    assert!(curtains >= 2, "the curtain came down between the players");

    // Start it: the battle screen opens on the scenario the sequence wrote.
    let mut request = OpenRequest::default();
    let written = setup.start_battle(&mut request).unwrap();
    app.insert_resource(setup);
    *app.world_mut().resource_mut::<OpenRequest>() = request;
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Battle,
        "{:?}",
        app.world().resource::<OpenRequest>().error
    );
    let b = app.world().resource::<Battle>();
    assert_eq!(b.seats, [SeatKind::Human, SeatKind::Human]);
    assert!(
        b.game.info().name.contains("Test banners"),
        "{}",
        b.game.info().name
    );
    let _ = std::fs::remove_file(written);
    let _ = std::fs::remove_dir_all(&own);
}

/// Placing terrain by clicking the table: the allowed place of the group in hand nearest the
/// click is chosen; a click far from any is nothing.
#[test]
fn terrain_is_placed_by_a_click_on_the_table() {
    let mut app = headless_app(Args::default());
    let paths = app.world().resource::<DataPaths>().clone();
    let mut setup = app.world_mut().remove_resource::<BattleSetup>().unwrap();
    let a = setup
        .forces
        .iter()
        .position(|f| f.ends_with("swedish-foraging-party.ron"))
        .unwrap();
    // Equal forces: the scenario is rolled, then the terrain straight away.
    setup.chosen = [a, a];
    setup.seats = [SeatKind::Human, SeatKind::Computer];
    setup.begin(&paths, 5).unwrap();
    let mut guard = 0;
    while setup.step().unwrap().title != "Set up the terrain" && guard < 20 {
        if !setup.computer_step(1) {
            let key = setup.choices()[0].key.clone();
            setup.choose(&key).unwrap();
        }
        guard += 1;
    }
    // Wait for our turn to place.
    while setup.step().unwrap().to_act != Some(0) {
        assert!(setup.computer_step(2));
    }
    let choices = setup.choices();
    let grove = choices
        .iter()
        .find(|c| c.group.as_deref() == Some("Grove 15×15 cm"))
        .expect("groves offered")
        .clone();
    setup.place_group = grove.group.clone();
    let at = grove.at.unwrap();
    let before = setup.log().len();
    // Far from every allowed place (off the table): nothing is placed.
    assert_eq!(setup.place_at((-30.0, -30.0)), Ok(false));
    assert_eq!(setup.log().len(), before);
    assert!(setup.place_at((at.0 + 1.5, at.1 - 1.0)).unwrap());
    let placed = setup.log()[before..]
        .iter()
        .any(|l| l.text.contains("places a grove"));
    assert!(placed, "{:?}", &setup.log()[before..]);
}
