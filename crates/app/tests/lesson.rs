//! A lesson in the app, headless: steps complete only when the engine says so, a refused action
//! leaves the step open with the rule, a legal but wrong one is taken back with an explanation,
//! the computer plays the other side passively, and a lesson whose dice fall another way still
//! reaches its end by a branch.

use bevy::prelude::*;
use sandtable_app::args::Args;

mod support;
use sandtable_app::battle::{Battle, SeatKind};
use sandtable_app::computer::ComputerPace;
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::{Command, Side};
use support::{bfs, bfs_state, headless_app, project};

fn lesson_app() -> App {
    let mut app = headless_app(Args {
        scenario: Some(project("scenarios/tutorial/01-dice-and-tests.ron")),
        ..Default::default()
    });
    app.insert_resource(ComputerPace(0.0));
    app
}

/// Runs frames until the learner (side A) must decide. The other side waits while a step's
/// explanation shows, so the learner presses "Next" then, as a player would.
fn until_learner_decides(app: &mut App) {
    for _ in 0..100_000 {
        if app.world().resource::<Battle>().deciding() == Some(Side::A.0) {
            return;
        }
        if app.world().resource::<Battle>().lesson_reading() {
            next_step(app);
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_micros(100));
    }
    panic!("the learner never got the decision");
}

/// The learner presses "Next" on the lesson card.
fn next_step(app: &mut App) {
    app.world_mut().resource_mut::<Battle>().game.lesson_next();
}

/// The learner bids 0 CP for the Initiative.
fn bid_nothing(app: &mut App) {
    app.world_mut()
        .resource_mut::<Battle>()
        .submit(&bfs(Command::Bid {
            side: Side::A,
            cp: 0,
        }))
        .expect("a legal bid");
}

#[test]
fn lesson_steps_complete_through_the_engine() {
    let mut app = lesson_app();
    {
        let b = app.world().resource::<Battle>();
        assert_eq!(
            b.seats,
            [SeatKind::Human, SeatKind::Computer],
            "the learner plays side A against the computer"
        );
        let lesson = b.game.lesson().expect("a lesson");
        assert_eq!(lesson.progress.step, 0);
    }
    // Step 1 is reading: only "Next" moves on.
    next_step(&mut app);

    // Step 2: bid for the Initiative; done once the roll has happened.
    until_learner_decides(&mut app);
    bid_nothing(&mut app);
    for _ in 0..100_000 {
        if app
            .world()
            .resource::<Battle>()
            .game
            .lesson()
            .unwrap()
            .progress
            .done
        {
            break;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_micros(100));
    }
    assert!(
        app.world()
            .resource::<Battle>()
            .game
            .lesson()
            .unwrap()
            .progress
            .done,
        "the Initiative roll completed step 2"
    );
    next_step(&mut app);

    // Step 3 asks for a Defense order. Play on to the learner's Orders Phase.
    for _ in 0..50 {
        until_learner_decides(&mut app);
        if matches!(
            bfs_state(&app).turn.phase,
            sandtable_bfs::turn::Phase::Orders { .. }
        ) {
            break;
        }
        let cmd = app
            .world()
            .resource::<Battle>()
            .game
            .lesson_guide()
            .expect("a way on");
        app.world_mut()
            .resource_mut::<Battle>()
            .submit(&cmd)
            .expect("legal");
    }
    let (haiduks, enemy, by) = {
        let g = bfs_state(&app);
        (
            g.units.iter().find(|u| u.key == "haiduks").unwrap().id,
            g.units.iter().find(|u| u.key == "reiters").unwrap().id,
            g.commanders[0].id,
        )
    };
    // A refused command: the enemy's unit cannot be ordered. The step stays open, with the rule.
    let mut b = app.world_mut().resource_mut::<Battle>();
    assert!(
        b.submit(&bfs(Command::IssueOrder {
            unit: enemy,
            order: OrderKind::Move,
            by
        }))
        .is_err()
    );
    let p = &b.game.lesson().unwrap().progress;
    assert!(!p.done);
    assert!(
        p.wrong.as_deref().is_some_and(|w| w.contains("BFS-")),
        "the refusal names its rule: {:?}",
        p.wrong
    );
    // A legal but wrong order: taken back at once, explained, the step still open.
    let len = b.game.len();
    b.submit(&bfs(Command::IssueOrder {
        unit: haiduks,
        order: OrderKind::Move,
        by,
    }))
    .expect("legal");
    let p = &b.game.lesson().unwrap().progress;
    assert!(
        !p.done
            && p.wrong.as_deref().is_some_and(
                |w| w.contains("asks for Defense, not Move") && w.contains("taken back")
            ),
        "{:?}",
        p.wrong
    );
    assert_eq!(b.game.len(), len, "the wrong order was taken back");
    assert_eq!(
        bfs_state_of(&b).unit(haiduks).pending_order,
        None,
        "no order marker is left on the haiduks"
    );
    // The asked-for order completes the step.
    b.submit(&bfs(Command::IssueOrder {
        unit: haiduks,
        order: OrderKind::Defense,
        by,
    }))
    .expect("legal");
    assert!(
        b.game.lesson().unwrap().progress.done,
        "a Defense order for the haiduks completes step 3"
    );
}

fn bfs_state_of(b: &Battle) -> sandtable_bfs::Game {
    b.game
        .snapshot()
        .get::<sandtable_bfs::Game>()
        .expect("a BFaS game")
        .clone()
}

/// Lesson 2 with dice that let the Swedes win the first Initiative roll (`--dice 2`): the
/// learner first bids wrong (taken back), then plays each step as "Show me" would, pressing Next;
/// the step that waits for the learner's choice of Initiative ends by its branch, and the lesson
/// reaches its debrief.
#[test]
fn a_wrong_command_and_a_lost_roll_still_reach_the_end() {
    let mut app = headless_app(Args {
        scenario: Some(project("scenarios/tutorial/02-initiative.ron")),
        dice: Some(2),
        ..Default::default()
    });
    app.insert_resource(ComputerPace(0.0));
    next_step(&mut app);
    until_learner_decides(&mut app);
    {
        let mut b = app.world_mut().resource_mut::<Battle>();
        b.submit(&bfs(Command::Bid {
            side: Side::A,
            cp: 3,
        }))
        .expect("a legal bid");
        let p = &b.game.lesson().unwrap().progress;
        assert!(
            p.wrong
                .as_deref()
                .is_some_and(|w| w.contains("asks for 2, not 3")),
            "{:?}",
            p.wrong
        );
        assert!(b.game.is_empty(), "the wrong bid was taken back");
    }
    for _ in 0..200_000 {
        let (finished, reading, learner_to_act) = {
            let b = app.world().resource::<Battle>();
            let l = b.game.lesson().unwrap();
            (l.finished(), l.reading(), b.deciding() == Some(Side::A.0))
        };
        if finished {
            break;
        }
        if reading {
            next_step(&mut app);
        } else if learner_to_act {
            let cmd = app
                .world()
                .resource::<Battle>()
                .game
                .lesson_guide()
                .expect("a way on");
            app.world_mut()
                .resource_mut::<Battle>()
                .submit(&cmd)
                .expect("legal");
        } else {
            app.update();
        }
    }
    let b = app.world().resource::<Battle>();
    let lesson = b.game.lesson().unwrap();
    assert!(lesson.finished(), "the lesson reached its end");
    let debrief = lesson.debrief();
    assert!(
        debrief.steps.iter().any(|(_, branch)| branch
            .as_deref()
            .is_some_and(|t| t.contains("The Swedes won"))),
        "a lost roll ended a step by its branch: {:?}",
        debrief.steps
    );
    assert_eq!(debrief.detours, 1, "the wrong bid counts as one detour");
    assert!(debrief.rules.iter().any(|r| r == "BFS-INI-4"));
}

/// "Start again" puts the lesson back at its first step with a fresh battle and the same seats,
/// and the seeded dice fall the same way again.
#[test]
fn a_lesson_starts_again_from_its_first_step() {
    let mut app = lesson_app();
    next_step(&mut app);
    until_learner_decides(&mut app);
    let first_roll = |b: &Battle| {
        b.game
            .narration(None, 0)
            .into_iter()
            .flatten()
            .find(|n| n.text.starts_with("Initiative roll"))
            .map(|n| n.text)
    };
    bid_nothing(&mut app);
    until_learner_decides(&mut app);
    let before = first_roll(app.world().resource::<Battle>()).expect("the Initiative was rolled");

    {
        let mut b = app.world_mut().resource_mut::<Battle>();
        b.restart().expect("the lesson starts again");
        assert!(b.game.is_empty());
        assert_eq!(b.game.lesson().unwrap().progress.step, 0);
        assert_eq!(b.seats, [SeatKind::Human, SeatKind::Computer]);
    }
    next_step(&mut app);
    until_learner_decides(&mut app);
    bid_nothing(&mut app);
    until_learner_decides(&mut app);
    assert_eq!(first_roll(app.world().resource::<Battle>()), Some(before));
}
