//! The coach at the table, headless: a planned command the computer reckons a clear blunder is
//! not carried out at the first commit but shown with the coach's sentence; the second commit
//! carries it out (the person decides); "Think again" leaves it planned; the coach is silent in
//! lessons and when switched off.

use bevy::prelude::*;
use sandtable_app::args::Args;

mod support;
use sandtable_app::battle::Battle;
use sandtable_app::rulesets::Rulesets;
use sandtable_app::table::draft::{Draft, commit, submit_coached};
use sandtable_bfs::Command;
use sandtable_engine::{AnyCommand, AnyPlayer, PieceId};
use support::{app_against_the_computer, headless_app, project};

/// Plays the person's side with the search player until one of the person's candidates is
/// one the coach speaks up about; returns it with the sentence.
fn a_blunder_on_offer(app: &mut App) -> (AnyCommand, String) {
    let mut person: Box<dyn AnyPlayer> = Rulesets::default()
        .0
        .player("bfs", "ai", 5)
        .expect("the search player");
    for _ in 0..200_000 {
        let battle = app.world().resource::<Battle>();
        assert!(
            !battle.is_over(),
            "the battle ended before a blunder was on offer"
        );
        if battle.deciding() == Some(0) {
            // What the planner commits: a move or a charge.
            let planned = |c: &AnyCommand| {
                matches!(
                    c.downcast::<Command>(),
                    Some(Command::Move { .. } | Command::DeclareCharge { .. })
                )
            };
            for cmd in battle.game.candidates(0).into_iter().filter(planned) {
                if let Some(said) = battle.coach_advice(&cmd) {
                    return (cmd, said);
                }
            }
            let cmd = person
                .choose(&battle.game.snapshot(), 0)
                .expect("a command");
            app.world_mut()
                .resource_mut::<Battle>()
                .submit(&cmd)
                .expect("legal");
        } else {
            app.update();
        }
    }
    panic!("no blunder was ever on offer");
}

#[test]
fn a_clear_blunder_is_pointed_out_and_the_person_still_decides() {
    let mut app = app_against_the_computer();
    assert!(
        app.world().resource::<Draft>().coached,
        "the coach is on by default"
    );
    let (cmd, said) = a_blunder_on_offer(&mut app);
    assert!(said.contains("clear mistake"), "{said}");
    println!("the coach: {said}");
    let world = app.world_mut();
    let mut draft = world.resource::<Draft>().clone();
    let mut battle = world.resource_mut::<Battle>();
    draft.plan = Some(cmd.clone());
    draft.piece = Some(PieceId(0));
    let len = battle.game.len();
    // The first commit only asks, with the coach's sentence.
    assert!(!commit(&mut draft, &mut battle));
    assert!(draft.asking);
    assert_eq!(draft.advice.as_deref(), Some(said.as_str()));
    assert_eq!(battle.game.len(), len, "nothing is carried out yet");
    // "Think again": still planned, nothing carried out.
    draft.asking = false;
    draft.advice = None;
    assert!(!commit(&mut draft, &mut battle), "asked again");
    assert_eq!(battle.game.len(), len);
    // "Anyway": the second commit carries it out.
    assert!(commit(&mut draft, &mut battle));
    assert_eq!(
        battle.game.len(),
        len + 1,
        "the person's choice is carried out"
    );
}

/// A command chosen from the menu that the coach questions waits in the draft under the
/// question; the next commit carries it out.
#[test]
fn a_menu_command_the_coach_questions_waits_for_the_person() {
    let mut app = app_against_the_computer();
    let (cmd, said) = a_blunder_on_offer(&mut app);
    let world = app.world_mut();
    let mut draft = world.resource::<Draft>().clone();
    let mut battle = world.resource_mut::<Battle>();
    let len = battle.game.len();
    assert!(!submit_coached(&mut draft, &mut battle, &cmd));
    assert_eq!(battle.game.len(), len, "nothing is carried out yet");
    assert!(draft.asking);
    assert_eq!(draft.advice.as_deref(), Some(said.as_str()));
    assert_eq!(draft.plan.as_ref(), Some(&cmd));
    assert!(commit(&mut draft, &mut battle), "the person's choice");
    assert_eq!(battle.game.len(), len + 1);
}

#[test]
fn the_coach_is_silent_when_switched_off_and_in_lessons() {
    let mut app = app_against_the_computer();
    let (cmd, _) = a_blunder_on_offer(&mut app);
    let world = app.world_mut();
    let mut draft = world.resource::<Draft>().clone();
    draft.coached = false;
    draft.plan = Some(cmd);
    let mut battle = world.resource_mut::<Battle>();
    let len = battle.game.len();
    assert!(commit(&mut draft, &mut battle), "carried out at once");
    assert_eq!(battle.game.len(), len + 1);

    let app = headless_app(Args {
        scenario: Some(project("scenarios/tutorial/05-charges-and-reactions.ron")),
        ..Default::default()
    });
    let battle = app.world().resource::<Battle>();
    for cmd in battle.game.candidates(0) {
        assert_eq!(battle.coach_advice(&cmd), None, "no coach in a lesson");
    }
}
