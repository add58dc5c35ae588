//! The second ruleset through the same app: the Napoleonic brigade action opens, measures in
//! inches, and a whole period is played with injected keyboard and mouse input only — the secret
//! bids behind the hand-over screen, the choice of side A, a move planned by dragging a unit,
//! stands, leaders, and the next period's bid. The app reaches the ruleset only through the
//! engine's seam; this test looks at the table the seam describes, not inside the rules.

use bevy::input::ButtonState;
use bevy::prelude::*;
use sandtable_app::args::Args;
use sandtable_app::battle::Battle;
use sandtable_app::table::view::{TableView, from_geo};
use sandtable_engine::present::{LengthUnit, PieceKind};

mod support;
use support::{button, click_at, headless_app, move_cursor, project, tap};

const INCH: f32 = 2.54;

fn rossbach() -> App {
    let mut app = headless_app(Args {
        scenario: Some(project("scenarios/10-rossbach-brigade-action.ron")),
        ..Default::default()
    });
    app.update();
    app
}

fn screen_of(app: &App, table: sandtable_geometry::Vec2) -> Vec2 {
    app.world()
        .resource::<TableView>()
        .world_to_screen(from_geo(table))
}

#[test]
fn the_napoleonic_table_is_measured_in_inches() {
    let app = rossbach();
    let b = app.world().resource::<Battle>();
    assert_eq!(b.scene.unit, LengthUnit::Inches);
    assert!((b.scene.size.x - 72.0 * INCH).abs() < 0.01);
    assert!((b.scene.size.y - 48.0 * INCH).abs() < 0.01);
    assert_eq!(
        b.scene
            .pieces
            .iter()
            .filter(|p| p.kind == PieceKind::Unit)
            .count(),
        15
    );
}

#[test]
fn a_whole_period_is_played_with_the_keyboard_and_mouse() {
    let mut app = rossbach();
    let start = {
        let b = app.world().resource::<Battle>();
        b.scene
            .pieces
            .iter()
            .find(|p| p.key == "fr-4-ligne")
            .unwrap()
            .bases[0]
            .center()
    };
    let mut dragged = false;
    let mut stands = 0;
    for _ in 0..600 {
        let (prompt, curtain, deciding, next) = {
            let b = app.world().resource::<Battle>();
            let p = b.prompt();
            // The next unit of the deciding side without a "moved" or "stand" marker.
            let next = b.deciding().and_then(|side| {
                b.scene
                    .pieces
                    .iter()
                    .find(|u| {
                        u.side == side
                            && u.kind == PieceKind::Unit
                            && !u.tokens.iter().any(|t| t.text == "M" || t.text == "S")
                    })
                    .map(|u| (u.key.clone(), u.bases[0].center()))
            });
            (p, b.curtain.is_some(), b.deciding(), next)
        };
        if prompt.turn == 2 {
            break;
        }
        if curtain {
            tap(&mut app, KeyCode::Space);
            continue;
        }
        if prompt.phase.contains("turn-point bid") {
            tap(
                &mut app,
                if deciding == Some(0) {
                    KeyCode::Digit2
                } else {
                    KeyCode::Digit1
                },
            );
        } else if prompt.phase.contains("choose A or D") {
            tap(&mut app, KeyCode::KeyA);
        } else if prompt.phase.contains("activation") {
            if prompt.expected.contains("action(s) left") {
                // A unit part-way through its activation: finish it.
                tap(&mut app, KeyCode::Enter);
            } else if deciding == Some(0) && !dragged {
                // Select the 4e Ligne, drag it 6" north, commit with Enter.
                let at = screen_of(&app, start);
                click_at(&mut app, at);
                move_cursor(&mut app, at);
                app.update();
                button(&mut app, MouseButton::Left, ButtonState::Pressed);
                app.update();
                let to = screen_of(&app, start + sandtable_geometry::Vec2::new(0.0, 6.0 * INCH));
                move_cursor(&mut app, to);
                app.update();
                button(&mut app, MouseButton::Left, ButtonState::Released);
                app.update();
                tap(&mut app, KeyCode::Enter);
                dragged = true;
            } else if let Some((_, at)) = next {
                let at = screen_of(&app, at);
                click_at(&mut app, at);
                tap(&mut app, KeyCode::KeyS);
                stands += 1;
            } else {
                tap(&mut app, KeyCode::Enter);
            }
        } else {
            tap(&mut app, KeyCode::Enter);
        }
    }
    let b = app.world().resource::<Battle>();
    let p = b.prompt();
    assert_eq!(
        p.turn, 2,
        "a whole period played; stuck at {}: {}",
        p.phase, p.expected
    );
    assert!(
        p.phase.contains("turn-point bid"),
        "period 2 opens with the bid, not {}",
        p.phase
    );
    // The dragged column moved 6" north.
    let now = b
        .scene
        .pieces
        .iter()
        .find(|p| p.key == "fr-4-ligne")
        .unwrap()
        .bases[0]
        .center();
    assert!(
        ((now - start).length() / INCH - 6.0).abs() < 0.06,
        "moved {}",
        (now - start).length() / INCH
    );
    assert!(stands >= 10, "{stands} units stood by key");
    // The bids were placed by key and revealed together: 2 and 1, the French paying 2.
    assert!(
        b.log
            .iter()
            .any(|(_, n)| n.text.starts_with("Bids revealed: French 2, Austrian 1")),
        "bids 2 and 1 were revealed"
    );
    assert!(b.log.iter().any(|(_, n)| n.text.contains("moves 6.0\"")));
}
