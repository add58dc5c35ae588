//! The computer seat, headless: the computer decides for its side on the async compute pool and
//! its commands go through the rules; the person's screen never changes hands and never shows
//! the computer's secrets.

use bevy::prelude::*;
use sandtable_app::args::Args;

mod support;
use sandtable_app::battle::{Battle, SeatKind};
use sandtable_app::computer::ComputerPace;
use sandtable_app::rulesets::Rulesets;
use sandtable_engine::{AnyCommand, AnyPlayer};
use support::{app_against_the_computer, bfs_state, headless_app, project};

/// The person's move, chosen by the scripted demo player from the person's own view.
fn persons_move(app: &App, player: &mut Box<dyn AnyPlayer>) -> AnyCommand {
    let battle = app.world().resource::<Battle>();
    player
        .choose(&battle.game.snapshot(), 0)
        .expect("a command")
}

fn scripted() -> Box<dyn AnyPlayer> {
    Rulesets::default()
        .0
        .player("bfs", "scripted", 0)
        .expect("the scripted player")
}

#[test]
fn the_computer_plays_its_side_and_the_person_keeps_the_screen() {
    let mut app = app_against_the_computer();
    assert_eq!(
        app.world().resource::<Battle>().seats,
        [SeatKind::Human, SeatKind::Computer]
    );
    let mut person = scripted();
    let mut computer_commands = 0;
    for _ in 0..200_000 {
        let battle = app.world().resource::<Battle>();
        assert_eq!(battle.viewer, 0, "the person's screen stays theirs");
        assert!(battle.curtain.is_none(), "no curtain against the computer");
        assert!(
            battle
                .notice
                .as_deref()
                .is_none_or(|n| !n.contains("computer")),
            "{:?}",
            battle.notice
        );
        if battle.prompt().turn >= 3 || battle.is_over() {
            break;
        }
        // The person's table shows side B's face-down orders face down, letter hidden.
        assert!(
            battle
                .scene
                .pieces
                .iter()
                .filter(|p| p.side == 1)
                .flat_map(|p| &p.tokens)
                .all(|t| !t.face_down || t.text == "?"),
            "a face-down order of the computer's side shows its letter"
        );
        match battle.deciding() {
            Some(0) => {
                let cmd = persons_move(&app, &mut person);
                app.world_mut()
                    .resource_mut::<Battle>()
                    .submit(&cmd)
                    .expect("legal");
            }
            Some(_) => {
                let before = battle.game.len();
                // The computer thinks off the frame: frames go on while it does.
                app.update();
                std::thread::sleep(std::time::Duration::from_micros(200));
                if app.world().resource::<Battle>().game.len() > before {
                    computer_commands += 1;
                }
            }
            None => break,
        }
    }
    assert!(
        bfs_state(&app).turn.number >= 3,
        "two whole turns were played"
    );
    assert!(
        computer_commands >= 10,
        "the computer decided {computer_commands} times"
    );
}

/// Play until the person has made a decision and the computer has answered.
fn play_a_while(app: &mut App) {
    let mut person = scripted();
    for _ in 0..200_000 {
        let battle = app.world().resource::<Battle>();
        if battle.game.len() >= 12 && battle.deciding() == Some(0) {
            break;
        }
        if battle.deciding() == Some(0) {
            let cmd = persons_move(app, &mut person);
            app.world_mut()
                .resource_mut::<Battle>()
                .submit(&cmd)
                .expect("legal");
        } else {
            app.update();
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }
}

#[test]
fn undo_against_the_computer_goes_back_to_the_persons_decision() {
    let mut app = app_against_the_computer();
    play_a_while(&mut app);
    let mut battle = app.world_mut().resource_mut::<Battle>();
    assert_eq!(battle.deciding(), Some(0));
    let before = battle.game.len();
    battle.computer_why = Some("a reason for a command about to be taken back".into());
    assert!(battle.undo());
    assert_eq!(
        battle.deciding(),
        Some(0),
        "undo stops at the person's own decision"
    );
    assert!(battle.game.len() < before);
    assert_eq!(
        battle.computer_why, None,
        "no \"Why?\" for a command that was taken back"
    );
}

/// The level chosen (`--level`, or the start screen) is the computer the battle plays, and after
/// each of its commands the battle keeps its reason ("Why?") only when the decision was public:
/// none after a face-down order or a bid, whose reasons would tell the person what the rules
/// hide from them; one after a move.
#[test]
fn the_computer_plays_at_its_level_and_says_why_only_of_public_decisions() {
    let mut app = headless_app(Args {
        scenario: Some(project("scenarios/01-mill-ford-skirmish.ron")),
        computer: Some("b".into()),
        level: "recruit".into(),
        ..Default::default()
    });
    app.insert_resource(ComputerPace(0.0));
    assert_eq!(app.world().resource::<Battle>().opponent, "ai:recruit");
    let mut person = scripted();
    let (mut secret_seen, mut reasons) = (0, 0);
    for _ in 0..200_000 {
        let battle = app.world().resource::<Battle>();
        if battle.prompt().turn >= 3 || battle.is_over() {
            break;
        }
        match battle.deciding() {
            Some(0) => {
                let cmd = persons_move(&app, &mut person);
                let mut b = app.world_mut().resource_mut::<Battle>();
                b.submit(&cmd).expect("legal");
                assert_eq!(b.computer_why, None, "a person's command clears the reason");
            }
            Some(_) => {
                let secret = battle.prompt().secret;
                let before = battle.game.len();
                app.update();
                std::thread::sleep(std::time::Duration::from_micros(200));
                let battle = app.world().resource::<Battle>();
                if battle.game.len() > before {
                    if secret {
                        secret_seen += 1;
                        assert_eq!(battle.computer_why, None, "a secret decision's reason");
                    } else if let Some(why) = &battle.computer_why {
                        reasons += 1;
                        assert!(why.len() > 20, "{why}");
                    }
                }
            }
            None => break,
        }
    }
    assert!(secret_seen > 0, "the computer placed secret orders or bids");
    assert!(reasons > 0, "the computer gave reasons for its moves");
}
