//! Chains of charge reactions (BFS-AMV-1).

mod support;

use sandtable_bfs::command::Reaction;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::state::{OrderKind, PendingOrder};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, Command, Game, UnitId};
use sandtable_engine::Ruleset;
use support::*;

/// The book's example with the sides swapped: reiters (side B, 2 files, front at y = 78 facing
/// south) charge pancerni (side A, 3 files, front at y = 40 facing north), who countercharge.
/// Finnish horse of side B (2 files, front at y = 50 facing south) stand to the pancerni's right,
/// inside the pancerni's path (which is wider than the reiters') but clear of the reiters' own.
/// Returns the game after the countercharge is declared and the three units.
fn chain(revision: u32) -> (Game, UnitId, UnitId, UnitId) {
    let probe = game(&[
        unit("p", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("r", 1, "reiters", 2, 2, (60.0, 100.0), 180.0),
    ]);
    let w = probe.unit(id(&probe, "p")).bases[0].half.x * 2.0;
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 2, 2, (60.0, 78.0), 180.0),
        // Its left edge (seen from the north) at x = 60 + 1.2 w: 0.3 w inside the pancerni's
        // path, 0.2 w clear of the reiters'.
        unit(
            "finns",
            1,
            "finnish-horse",
            2,
            2,
            (60.0 + 2.2 * w, 50.0),
            180.0,
        ),
    ]);
    g.info.options.rules_revision = revision;
    let (p, r, f) = (id(&g, "pancerni"), id(&g, "reiters"), id(&g, "finns"));
    set_order(&mut g, "reiters", Some(OrderKind::Charge));
    set_order(&mut g, "finns", Some(OrderKind::Charge));
    g.unit_mut(p).pending_order = Some(PendingOrder {
        kind: Some(OrderKind::Charge),
        issued_by: Some(CommanderId(0)),
        face_up: false,
    });
    at_movement(&mut g, Side::B, false);
    run(
        &mut g,
        Command::DeclareCharge {
            unit: r,
            target: p,
            pay: None,
        },
    );
    run(
        &mut g,
        Command::React {
            unit: p,
            reaction: Reaction::Countercharge,
        },
    );
    (g, p, r, f)
}

fn asked(g: &Game) -> Option<UnitId> {
    match &g.turn.phase {
        Phase::Movement {
            charge: Some(c), ..
        } => c.reactors.get(c.reactions.len()).copied(),
        _ => None,
    }
}

/// BFS-AMV-1: the unit in the countercharge's path is asked next, may countercharge it (not hold
/// fire), and the reactions are carried out last declared first: the finns charge the pancerni,
/// who are caught before they set out and fight where they stand; the reiters, still the
/// pancerni's charger, move after.
#[test]
fn bfs_amv_1_the_last_declared_reaction_moves_first() {
    let (mut g, p, r, f) = chain(sandtable_bfs::revision::CURRENT);
    assert_eq!(asked(&g), Some(f), "the finns are asked to react");
    assert!(Bfs::prompt(&g).expected.contains("BFS-AMV-1"));
    assert_eq!(
        Bfs::legal(
            &g,
            &Command::React {
                unit: f,
                reaction: Reaction::HoldFire { by: CommanderId(1) }
            }
        )
        .unwrap_err()
        .rule,
        "BFS-AMV-1"
    );
    let pancerni_before = g.unit(p).bases.clone();
    let reiters_before = g.unit(r).bases.clone();
    let events = run(
        &mut g,
        Command::React {
            unit: f,
            reaction: Reaction::Countercharge,
        },
    );
    let moved: Vec<UnitId> = events
        .iter()
        .filter_map(|e| match e {
            Event::ChargeMoved { unit, .. } => Some(*unit),
            _ => None,
        })
        .collect();
    assert_eq!(moved, vec![f, r], "the finns move first, then the reiters");
    assert_eq!(
        g.unit(p).bases,
        pancerni_before,
        "the pancerni never set out"
    );
    assert!(
        g.unit(f)
            .charge
            .as_ref()
            .is_some_and(|c| c.contact && c.target == p)
    );
    assert!(g.unit(p).charge.is_none(), "their countercharge is spent");
    let rc = g.unit(r).charge.as_ref().unwrap();
    assert_eq!(rc.target, p, "the reiters still charge the pancerni");
    assert_ne!(g.unit(r).bases, reiters_before, "and moved towards them");
    assert!(matches!(g.turn.phase, Phase::Movement { charge: None, .. }));
}

/// BFS-AMV-1: if the unit in the path stands, the countercharge goes on and runs into it, which
/// becomes its target (BFS-CHG-16); battles recorded before rules revision 5 never ask it.
#[test]
fn bfs_amv_1_standing_in_the_path_and_older_battles() {
    let (mut g, p, _, f) = chain(sandtable_bfs::revision::CURRENT);
    let before = g.unit(p).bases.clone();
    run(
        &mut g,
        Command::React {
            unit: f,
            reaction: Reaction::Stand,
        },
    );
    assert_ne!(g.unit(p).bases, before, "the pancerni set out");
    let pc = g.unit(p).charge.as_ref().unwrap();
    assert!(pc.countercharge && pc.contact && pc.target == f, "{pc:?}");
    let (g, _, _, _) = chain(4);
    assert_eq!(
        asked(&g),
        None,
        "revision 4: the countercharge is carried out at once"
    );
}
