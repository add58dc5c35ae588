//! A lesson in the app, headless: steps complete only when the engine says so, a legal but wrong
//! action and a refused one both leave the step open with an explanation, and the computer plays
//! the other side passively.

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

/// Runs frames until the learner (side A) must decide.
fn until_learner_decides(app: &mut App) {
    for _ in 0..100_000 {
        if app.world().resource::<Battle>().deciding() == Some(Side::A.0) {
            return;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_micros(100));
    }
    panic!("the learner never got the decision");
}

/// The learner presses "Next" on the lesson card.
fn next_step(app: &mut App) {
    app.world_mut()
        .resource_mut::<Battle>()
        .game
        .lesson_mut()
        .unwrap()
        .progress
        .next();
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
    // A legal but wrong order: explained, still open.
    b.submit(&bfs(Command::IssueOrder {
        unit: haiduks,
        order: OrderKind::Move,
        by,
    }))
    .expect("legal");
    let p = &b.game.lesson().unwrap().progress;
    assert!(
        !p.done
            && p.wrong
                .as_deref()
                .is_some_and(|w| w.contains("asks for something else")),
        "{:?}",
        p.wrong
    );
    // Undo, as the hint says, and give the asked-for order: that completes the step.
    assert!(b.undo());
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
