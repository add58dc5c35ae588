//! The computer seat, headless: the computer decides for its side on the async compute pool and
//! its commands go through the rules; the person's screen never changes hands and never shows
//! the computer's secrets.

use bevy::prelude::*;
use sandtable_ai::ScriptedPlayer;
use sandtable_app::args::Args;

mod support;
use sandtable_app::battle::{Battle, SeatKind};
use sandtable_app::computer::ComputerPace;
use sandtable_bfs::{Bfs, Side};
use sandtable_engine::Ruleset;
use support::{headless_app, project};

fn app_against_the_computer() -> App {
    let mut app = headless_app(Args {
        scenario: Some(project("scenarios/01-mill-ford-skirmish.ron")),
        computer: Some("b".into()),
        ..Default::default()
    });
    app.insert_resource(ComputerPace(0.0));
    app
}

#[test]
fn the_computer_plays_its_side_and_the_person_keeps_the_screen() {
    let mut app = app_against_the_computer();
    assert_eq!(
        app.world().resource::<Battle>().seats,
        [SeatKind::Human, SeatKind::Computer]
    );
    let mut computer_commands = 0;
    for _ in 0..200_000 {
        let battle = app.world().resource::<Battle>();
        assert_eq!(battle.viewer, Side::A, "the person's screen stays theirs");
        assert!(battle.curtain.is_none(), "no curtain against the computer");
        assert!(
            battle
                .notice
                .as_deref()
                .is_none_or(|n| !n.contains("computer")),
            "{:?}",
            battle.notice
        );
        if battle.session.state().turn.number >= 3 || battle.is_over() {
            break;
        }
        // The person's view hides side B's face-down orders.
        assert!(
            battle
                .game
                .units
                .iter()
                .filter(|u| u.side == Side::B)
                .all(|u| u.pending_order.is_none_or(|p| p.kind.is_none()))
        );
        match battle.deciding() {
            Some(Side::A) => {
                let cmd = ScriptedPlayer::choose(&Bfs::view(battle.session.state(), 0))
                    .expect("a command");
                app.world_mut()
                    .resource_mut::<Battle>()
                    .submit(cmd)
                    .expect("legal");
            }
            Some(_) => {
                let before = battle.session.commands().len();
                // The computer thinks off the frame: frames go on while it does.
                app.update();
                std::thread::sleep(std::time::Duration::from_micros(200));
                if app.world().resource::<Battle>().session.commands().len() > before {
                    computer_commands += 1;
                }
            }
            None => break,
        }
    }
    let battle = app.world().resource::<Battle>();
    assert!(
        battle.session.state().turn.number >= 3,
        "two whole turns were played"
    );
    assert!(
        computer_commands >= 10,
        "the computer decided {computer_commands} times"
    );
}

#[test]
fn undo_against_the_computer_goes_back_to_the_persons_decision() {
    let mut app = app_against_the_computer();
    // Play until the person has made a decision and the computer has answered.
    for _ in 0..200_000 {
        let battle = app.world().resource::<Battle>();
        if battle.session.commands().len() >= 12 && battle.deciding() == Some(Side::A) {
            break;
        }
        if battle.deciding() == Some(Side::A) {
            let cmd =
                ScriptedPlayer::choose(&Bfs::view(battle.session.state(), 0)).expect("a command");
            app.world_mut()
                .resource_mut::<Battle>()
                .submit(cmd)
                .expect("legal");
        } else {
            app.update();
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }
    let mut battle = app.world_mut().resource_mut::<Battle>();
    assert_eq!(battle.deciding(), Some(Side::A));
    let before = battle.session.commands().len();
    assert!(battle.undo());
    assert_eq!(
        battle.deciding(),
        Some(Side::A),
        "undo stops at the person's own decision"
    );
    assert!(battle.session.commands().len() < before);
}
