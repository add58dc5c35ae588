//! Take-backs at a hot-seat table cannot reveal secrets or foresee dice (issue "Trust at the
//! table"): the two sequences that leaked before, played by keyboard through the app.
//!
//! 1. Side A bids in secret, side B bids, the roll shows. Side B presses Ctrl+Z: it cannot
//!    take its bid back alone (the roll was seen); the other player is asked behind the curtain,
//!    and only a consented take-back goes through, with the dice re-drawn.
//! 2. In the Orders phase, the second side gives a face-down Charge order and ends its orders. The
//!    first side's Ctrl+Z does nothing while the curtain is down; after it, it needs the other
//!    side's consent, and at no moment does the first side's screen show the order.

use bevy::prelude::*;
use sandtable_app::args::Args;

mod support;
use sandtable_app::battle::{Battle, Curtain};
use sandtable_app::table::view::{TableView, from_geo};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::turn::{Bid, Phase};
use support::{bfs_state, click_at, ctrl, headless_app, project, tap};

fn hot_seat() -> App {
    headless_app(Args {
        scenario: Some(project("scenarios/01-mill-ford-skirmish.ron")),
        ..Default::default()
    })
}

fn battle(app: &App) -> &Battle {
    app.world().resource::<Battle>()
}

/// What the person at the screen can see of the other side's secrets: the table's tokens, the
/// log lines and the dice panel, all for the viewer. Fails if a face-down order of the other side
/// shows its letter, or the other side's bid shows before the rules reveal it.
fn screen_keeps_secrets(app: &App, what: &str) {
    let b = battle(app);
    if b.curtain.is_some() {
        return; // nothing of the table or the log shows behind the curtain
    }
    let me = b.viewer;
    for p in b.scene.pieces.iter().filter(|p| p.side != me) {
        for t in &p.tokens {
            assert!(
                !t.face_down || t.text == "?",
                "{what}: the other side's face-down order of {} shows \"{}\"",
                p.label,
                t.text
            );
        }
    }
    let g = bfs_state(app);
    if let Phase::InitiativeBids { bids } = &g.turn.phase
        && bids.contains(&Bid::Waiting)
    {
        assert!(
            !b.log
                .iter()
                .any(|(_, n)| n.text.starts_with("Bids revealed")),
            "{what}: a bid shows before both are placed"
        );
    }
    for (_, n) in &b.log {
        let names_theirs = g
            .units
            .iter()
            .filter(|u| u.side.0 != me)
            .any(|u| n.text.contains(&u.name));
        assert!(
            !(n.text.contains(" gives ")
                && n.text.contains(" order")
                && !n.text.contains("face-down")
                && names_theirs),
            "{what}: the log shows the other side's order: {}",
            n.text
        );
    }
}

#[test]
fn a_bid_cannot_be_taken_back_alone_once_the_roll_showed() {
    let mut app = hot_seat();
    // Side A (Polish-Lithuanian) bids 2 behind the curtain.
    assert_eq!(battle(&app).curtain, Some(Curtain::HandOver(0)));
    tap(&mut app, KeyCode::Space);
    tap(&mut app, KeyCode::Digit2);
    // The screen is handed to side B, behind the curtain: side A's bid is a secret.
    assert_eq!(battle(&app).curtain, Some(Curtain::HandOver(1)));
    screen_keeps_secrets(&app, "after A's bid");
    tap(&mut app, KeyCode::Space);
    screen_keeps_secrets(&app, "B before its bid");
    tap(&mut app, KeyCode::Digit0);
    // Both bids are in; the roll happened. Whoever won decides; let side B be at the screen.
    let g = bfs_state(&app);
    let winner = match g.turn.phase {
        Phase::InitiativeChoice { winner } => winner.0,
        ref p => panic!("expected the Initiative choice, got {p:?}"),
    };
    let roll_dice = g.dice.clone();
    let commands = battle(&app).game.len();
    if battle(&app).viewer != 1 {
        // Side A won and is at the screen: it keeps the Initiative; side B orders later. The leak
        // needs side B at the screen right after the roll, so play it from side B's seat.
        assert_eq!(winner, 0);
        app.world_mut().resource_mut::<Battle>().look_as(1);
    }
    // Side B presses Ctrl+Z: its bid showed a roll, so it cannot take it back alone.
    ctrl(&mut app, KeyCode::KeyZ);
    let b = battle(&app);
    assert_eq!(
        b.game.len(),
        commands,
        "nothing was taken back without consent"
    );
    assert_eq!(
        b.curtain,
        Some(Curtain::Consent {
            asker: 1,
            commands: 1
        }),
        "side A is asked, behind the curtain"
    );
    // Behind the curtain no key takes anything back.
    ctrl(&mut app, KeyCode::KeyZ);
    tap(&mut app, KeyCode::Digit0);
    assert_eq!(battle(&app).game.len(), commands);
    // Side A allows it: B's bid is taken back, the dice that follow are re-drawn.
    app.world_mut()
        .resource_mut::<Battle>()
        .answer_take_back(true);
    assert_eq!(battle(&app).game.len(), commands - 1);
    assert_eq!(battle(&app).game.take_back_count(), 1);
    // Side B bids again, behind its own curtain: A's bid still does not show.
    if battle(&app).curtain.is_some() {
        tap(&mut app, KeyCode::Space);
    }
    assert_eq!(battle(&app).viewer, 1);
    screen_keeps_secrets(&app, "B bidding again");
    tap(&mut app, KeyCode::Digit0);
    let again = bfs_state(&app);
    assert!(matches!(again.turn.phase, Phase::InitiativeChoice { .. }));
    assert_ne!(
        sandtable_engine::session::state_hash(&again.dice),
        sandtable_engine::session::state_hash(&roll_dice),
        "the same bid does not meet the same dice again"
    );
    assert!(
        battle(&app)
            .log
            .iter()
            .all(|(_, n)| !n.text.contains("took back") || n.text.contains("allowed")),
        "the log tells what happened"
    );
}

/// Plays the default battle by keyboard to the second side's Orders Phase, where that side gives
/// one unit a Charge order by mouse and key.
#[test]
fn a_face_down_order_never_reaches_the_other_screen_through_undo() {
    let mut app = hot_seat();
    let mut charged = None;
    for _ in 0..200 {
        screen_keeps_secrets(&app, "while playing");
        let b = battle(&app);
        if b.curtain.is_some() {
            if charged.is_some() {
                break; // the hand-over after the second side's orders
            }
            tap(&mut app, KeyCode::Space);
            continue;
        }
        let g = bfs_state(&app);
        match &g.turn.phase {
            Phase::InitiativeBids { .. } => tap(&mut app, KeyCode::Digit0),
            Phase::InitiativeChoice { .. } => tap(&mut app, KeyCode::KeyK),
            Phase::Orders { second: false, .. } => tap(&mut app, KeyCode::Enter),
            Phase::Orders {
                second: true,
                acting,
            } => {
                // The second side orders a cavalry unit to charge, face down.
                let unit = g
                    .units
                    .iter()
                    .find(|u| u.side == *acting && g.unit_profile(u.id).is_mounted())
                    .expect("a cavalry unit");
                let at = app
                    .world()
                    .resource::<TableView>()
                    .world_to_screen(from_geo(unit.bases[1].center()));
                click_at(&mut app, at);
                tap(&mut app, KeyCode::Digit2);
                if app
                    .world()
                    .resource::<sandtable_app::table::draft::Draft>()
                    .asking
                {
                    // The coach questions the order: the player gives it anyway (Enter).
                    tap(&mut app, KeyCode::Enter);
                }
                let after = bfs_state(&app);
                assert_eq!(
                    after.unit(unit.id).pending_order.and_then(|p| p.kind),
                    Some(OrderKind::Charge)
                );
                charged = Some((unit.id, acting.0));
                tap(&mut app, KeyCode::Enter);
            }
            p => panic!("unexpected phase {p:?}"),
        }
    }
    let (unit, orderer) = charged.expect("the second side gave its order");
    let other = 1 - orderer;
    // The screen goes to the other side behind the curtain (the order is a secret).
    assert_eq!(battle(&app).curtain, Some(Curtain::HandOver(other)));
    let commands = battle(&app).game.len();
    // Ctrl+Z behind the curtain: nothing happens, the curtain stays.
    ctrl(&mut app, KeyCode::KeyZ);
    ctrl(&mut app, KeyCode::KeyY);
    assert_eq!(battle(&app).game.len(), commands);
    assert_eq!(battle(&app).curtain, Some(Curtain::HandOver(other)));
    // The other side takes the screen: the order is face down, its letter hidden.
    tap(&mut app, KeyCode::Space);
    assert_eq!(battle(&app).viewer, other);
    screen_keeps_secrets(&app, "the other side's screen");
    let token = battle(&app)
        .scene
        .pieces
        .iter()
        .find(|p| p.key == bfs_state(&app).unit(unit).key)
        .and_then(|p| p.tokens.first().cloned())
        .expect("the order marker is on the table");
    assert!(token.face_down && token.text == "?", "{token:?}");
    // Its Ctrl+Z asks the ordering side's consent instead of lifting the curtain on its orders.
    ctrl(&mut app, KeyCode::KeyZ);
    assert!(matches!(
        battle(&app).curtain,
        Some(Curtain::Consent { asker, .. }) if asker == other
    ));
    // Refused: back to the other side's screen, the order still secret.
    app.world_mut()
        .resource_mut::<Battle>()
        .answer_take_back(false);
    if battle(&app).curtain.is_some() {
        tap(&mut app, KeyCode::Space);
    }
    assert_eq!(battle(&app).game.len(), commands);
    screen_keeps_secrets(&app, "after a refused take-back");
    // Asked again and allowed: the take-back goes to before the asker's own last decision, so
    // the ordering side's orders are gone, not shown.
    ctrl(&mut app, KeyCode::KeyZ);
    app.world_mut()
        .resource_mut::<Battle>()
        .answer_take_back(true);
    assert!(battle(&app).game.len() < commands);
    let g = bfs_state(&app);
    assert!(
        g.unit(unit).pending_order.is_none(),
        "the face-down order was taken back with the rest"
    );
    if battle(&app).curtain.is_some() {
        tap(&mut app, KeyCode::Space);
    }
    screen_keeps_secrets(&app, "after a consented take-back");
}
