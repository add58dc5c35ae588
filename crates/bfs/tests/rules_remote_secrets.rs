//! What By Fire and Sword keeps secret in remote play (`docs/remote.md`): the keys its secret
//! commands carry and the events that turn them up.

mod support;

use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, UnitId};
use sandtable_bfs::secrets::{opened_by, secret};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::{Bfs, Command};
use sandtable_engine::Ruleset;
use support::*;

fn two_units() -> sandtable_bfs::Game {
    game(&[
        unit("hussars", 0, "winged-hussars", 3, 3, (40.0, 24.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (40.0, 96.0), 180.0),
    ])
}

/// Standing keeps a face-down order down; a countercharge's order change (BFS-ORD-7) turns it
/// up (BFS-CHG-21).
#[test]
fn bfs_chg_21_only_a_reaction_that_shows_the_order_opens_it() {
    let g = two_units();
    let u = id(&g, "hussars");
    let stand = Event::Reacted {
        unit: u,
        to: id(&g, "reiters"),
        reaction: "stands".into(),
    };
    assert!(opened_by(&g, &stand).is_empty());
    let shown = Event::OrderChanged {
        unit: u,
        from: None,
        to: Some(OrderKind::Charge),
        rule: "BFS-ORD-7".into(),
        reason: "revealed to react to a charge".into(),
    };
    assert!(Bfs::reveals(&shown));
    assert_eq!(opened_by(&g, &shown), vec![format!("order:u{}", u.0)]);
}

/// A face-down order is sealed with the first legal kind as its stand-in; a command naming a
/// unit not on the table keeps nothing and does not panic (BFS-ORD-3).
#[test]
fn bfs_ord_3_a_face_down_order_is_sealed_and_a_bad_name_keeps_nothing() {
    let mut g = two_units();
    at_orders(&mut g, sandtable_bfs::ids::Side::A);
    let u = id(&g, "hussars");
    let by = g.commanders.iter().find(|c| c.side.0 == 0).unwrap().id;
    let cmd = Command::IssueOrder {
        unit: u,
        order: OrderKind::Charge,
        by,
    };
    let s = secret(&g, &cmd).expect("a face-down order is a secret");
    assert_eq!(s.keys, vec![format!("order:u{}", u.0)]);
    assert!(matches!(
        s.stand_in,
        Command::IssueOrder {
            order: OrderKind::Move,
            ..
        }
    ));
    let bad = Command::IssueOrder {
        unit: UnitId(999),
        order: OrderKind::Charge,
        by: CommanderId(0),
    };
    assert!(secret(&g, &bad).is_none());
}
