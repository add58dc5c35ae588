//! Close combat (BFS-CC) against the rulebook's four worked examples (BFS-CC-34), with dice fixed
//! to give the book's figures.

mod support;

use sandtable_bfs::Command;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{Formation, MoraleLevel, OrderKind};
use sandtable_bfs::turn::CombatStage;
use support::*;

fn resolutions(events: &[Event]) -> Vec<&sandtable_bfs::event::ResolutionReport> {
    events
        .iter()
        .filter_map(|e| {
            if let Event::CombatResolved(r) = e {
                Some(r)
            } else {
                None
            }
        })
        .collect()
}

fn withdrew(events: &[Event], unit: sandtable_bfs::UnitId) -> Option<f32> {
    events.iter().find_map(|e| match e {
        Event::Withdrew {
            unit: u,
            distance_cm,
            ..
        } if *u == unit => Some(*distance_cm),
        _ => None,
    })
}

fn fled(events: &[Event], unit: sandtable_bfs::UnitId) -> Option<f32> {
    events.iter().find_map(|e| match e {
        Event::Fled {
            unit: u,
            distance_cm,
            ..
        } if *u == unit => Some(*distance_cm),
        _ => None,
    })
}

/// Pancerni and reiters, front to front, in contact. Pancerni are side A.
fn pancerni_and_reiters() -> sandtable_bfs::Game {
    game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 50.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
    ])
}

/// Example 1: pancerni remove 2 SP, reiters none but Good Tactical Discipline (+1): 2 : 1. The
/// reiters test at −1, pass, withdraw half their Move (10 cm); the pancerni pursue into a second
/// round.
#[test]
fn bfs_cc_34_example_1_loser_passes_and_withdraws_winner_pursues() {
    let mut g = pancerni_and_reiters();
    at_combat(&mut g, CombatStage::CloseCombat);
    g.dice.script([
        1, 2, 9, 9, 9, 9, // pancerni: 6 dice at Skill 4 → 2 hits
        9, 9, // reiters' armor 4 against the pancerni's polearms (0): both fail → 2 SP
        9, 9, 9, // reiters: 3 dice → no hit
        3, // reiters' Morale 5 − 1 = 4: passed
        9, 9, 9, 9, 9, 9, 9, 9, 9, // second round: nobody hits
    ]);
    let events = run(&mut g, Command::Continue);
    let r = resolutions(&events);
    assert_eq!((r[0].sides[0].total, r[0].sides[1].total), (2, 1));
    assert!(
        r[0].sides[1]
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-SPC-12" && m.delta == 1)
    );
    assert_eq!(r[0].winner, Some(Side::A));
    let reiters = id(&g, "reiters");
    assert!(
        (withdrew(&events, reiters).unwrap() - 10.0).abs() < 1e-3,
        "half of 20 cm"
    );
    assert_eq!(g.unit(reiters).morale, MoraleLevel::Good);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Pursued { contact: true, .. }))
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Melee(m) if m.round == 2)),
        "a second round follows"
    );
}

/// Example 2: pancerni remove 2 SP, reiters 1 SP + 1 GTD: 2 : 2, a draw; both withdraw 10 cm.
#[test]
fn bfs_cc_34_example_2_draw_both_withdraw() {
    let mut g = pancerni_and_reiters();
    at_combat(&mut g, CombatStage::CloseCombat);
    g.dice.script([
        1, 2, 9, 9, 9, 9, // pancerni → 2 hits
        9, 9, // reiters' armor: 2 SP
        1, 9, 9, // reiters → 1 hit
        9, // pancerni armor 5: fails → 1 SP
    ]);
    let events = run(&mut g, Command::Continue);
    let r = resolutions(&events);
    assert_eq!((r[0].sides[0].total, r[0].sides[1].total), (2, 2));
    assert_eq!(r[0].winner, None);
    for key in ["pancerni", "reiters"] {
        let d = withdrew(&events, id(&g, key)).unwrap_or_else(|| panic!("{key} withdraws"));
        assert!((d - 10.0).abs() < 1e-3, "{key}: {d}");
    }
    assert!(
        !events.iter().any(|e| matches!(e, Event::Pursued { .. })),
        "the combat ends"
    );
}

/// Example 3: reiters (A) against pancerni (B): each removes 1 SP, the reiters add GTD: 2 : 1 to
/// the reiters. The pancerni test Morale 5 − 1 = 4 and roll a "0" (10): failed by 6, so they
/// flee a full Move (20 cm) in Open Order; the reiters pursue 10 cm without catching them.
#[test]
fn bfs_cc_34_example_3_failed_by_five_or_more_flees() {
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 50.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
    ]);
    at_combat(&mut g, CombatStage::CloseCombat);
    g.dice.script([
        1, 9, 9, 9, 9, 9, // pancerni → 1 hit
        9, // reiters' armor: 1 SP
        1, 9, 9,  // reiters → 1 hit
        9,  // pancerni armor: 1 SP
        10, // pancerni Morale at 4: a "0"
    ]);
    let events = run(&mut g, Command::Continue);
    let r = resolutions(&events);
    assert_eq!((r[0].sides[0].total, r[0].sides[1].total), (1, 2));
    assert_eq!(r[0].winner, Some(Side::B));
    let pancerni = id(&g, "pancerni");
    assert!(events.iter().any(|e| matches!(e, Event::Test(t) if t.unit == Some(pancerni) && t.roll.target == 4 && t.roll.face == Some(10) && t.roll.failed_by == 6)));
    assert!((fled(&events, pancerni).unwrap() - 20.0).abs() < 1e-3);
    assert_eq!(g.unit(pancerni).morale, MoraleLevel::Flight);
    assert_eq!(g.unit(pancerni).formation, Formation::OpenOrder);
    let pursuit = events.iter().find_map(|e| {
        if let Event::Pursued {
            contact,
            distance_cm,
            ..
        } = e
        {
            Some((*contact, *distance_cm))
        } else {
            None
        }
    });
    let (contact, d) = pursuit.expect("the reiters pursue");
    assert!(!contact);
    assert!((d - 10.0).abs() < 1e-3, "their full Additional Move: {d}");
}

/// Example 4: winged hussars charge reiters. Round 1: hussars 2 SP, reiters 0 + GTD: 2 : 1; the
/// reiters fail at −1: Disorganized, they withdraw 10 cm. The hussars pursue and need 10 of their
/// 20 cm. Round 2: hussars 2 SP (the reiters lose a base and keep a marker), reiters 1 SP, no GTD,
/// −1 Poor Tactical Discipline, +1 to the hussars for numbers: 3 : 0. Morale 5 − 3 fails: the
/// reiters flee 20 cm; no pursuit after round 2; the hussars are left with no order.
#[test]
fn bfs_cc_34_example_4_hussars_charge_reiters_two_rounds() {
    let mut g = game(&[
        unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 35.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
    ]);
    let (hussars, reiters) = (id(&g, "hussars"), id(&g, "reiters"));
    set_order(&mut g, "hussars", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let events = run(
        &mut g,
        Command::DeclareCharge {
            unit: hussars,
            target: reiters,
            pay: None,
        },
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ChargeMoved { contact: Some(t), .. } if *t == reiters)),
        "contact in the Movement Phase: 15 cm of 20"
    );
    run(&mut g, Command::EndMovement);
    run(&mut g, Command::EndMovement);
    run(&mut g, Command::Continue); // Defender's Fire: nobody
    g.dice.script([
        1, 1, 9, 9, 9, 9, // hussars strike first (lance while charging): 2 hits
        5, 5, // reiters' armor 4 − 3 (lance when charging) = 1: both fail
        9,
        9, // reiters: the First Strike losses land first, so their marker costs a die: no hit
        7, // reiters' Morale 5 − 1 = 4: failed by 3 → Disorganized
        1, 1, 9, 9, 9, 9, // round 2, hussars (lances broken: hand weapons): 2 hits
        9, 9, // reiters' armor 4: both fail → 2 SP (4 in all: a base and a marker)
        1,
        9, // reiters: 3 bases, one die fewer for the marker, Disorganized → 2 dice: 1 hit
        9, // hussars' armor 5: fails → 1 SP
        5, // reiters' Morale 5 − 3 = 2: failed
    ]);
    let events = run(&mut g, Command::Continue);
    let r = resolutions(&events);
    assert_eq!(r.len(), 2);
    assert_eq!((r[0].sides[0].total, r[0].sides[1].total), (2, 1));
    assert!(events.iter().any(|e| matches!(e, Event::MoraleChanged { unit, to: MoraleLevel::Disorganized, .. } if *unit == reiters)));
    let pursued = events.iter().find_map(|e| {
        if let Event::Pursued {
            unit,
            contact: true,
            distance_cm,
            ..
        } = e
        {
            (*unit == hussars).then_some(*distance_cm)
        } else {
            None
        }
    });
    assert!(
        (pursued.expect("hussars pursue into contact") - 10.0).abs() < 0.1,
        "{pursued:?}"
    );
    assert_eq!((r[1].sides[0].total, r[1].sides[1].total), (3, 0));
    assert!(
        r[1].sides[0]
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-CC-20" && m.delta == 1),
        "numbers"
    );
    assert!(
        r[1].sides[1].modifiers.iter().any(|m| m.delta == -1),
        "Poor Tactical Discipline"
    );
    assert!(
        !r[1].sides[1]
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-SPC-12"),
        "no GTD while Disorganized"
    );
    assert_eq!(r[1].margin, 3);
    let gone = g.unit(reiters);
    assert_eq!(gone.bases_destroyed, 1);
    assert_eq!(gone.morale, MoraleLevel::Flight);
    assert!((fled(&events, reiters).unwrap() - 20.0).abs() < 1e-3);
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::Pursued { .. }))
            .count(),
        1,
        "no pursuit after round 2"
    );
    assert_eq!(g.unit(hussars).order, None);
    assert!(
        g.unit(hussars).lances_broken,
        "lances break after the first round (BFS-CCW-7)"
    );
    assert_eq!(g.dice.scripted_left(), 0);
}

/// The odds preview for both sides of a charge (BFS-CC-14, BFS-CC-17): winged hussars charging
/// from 30 cm get Impetus +2 (Additional Move 20) and their lance's charging effectiveness (−3);
/// striking back as the charged unit they get neither.
#[test]
fn bfs_cc_14_preview_charge_has_impetus_and_the_reply_has_none() {
    let g = game(&[
        unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 30.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 60.0), 180.0),
    ]);
    let (h, r) = (id(&g, "hussars"), id(&g, "reiters"));
    // 6 dice (3 bases × 2) needing 5 + 2 = 7; armor 4 − 3 saves on 1.
    let charge = sandtable_bfs::preview::charge_odds(&g, h, r).expect("odds");
    assert!((charge.expected_losses() - 6.0 * 0.7 * 0.9).abs() < 1e-9);
    // 6 dice needing 5; armor 4 saves on 4.
    let reply = sandtable_bfs::preview::reply_odds(&g, h, r).expect("odds");
    assert!((reply.expected_losses() - 6.0 * 0.5 * 0.6).abs() < 1e-9);
}

/// BFS-CBT-10, BFS-CDR-13: a unit striking two enemies at once rolls its unit-wide dice once:
/// the hussars' casualty marker costs one die in all, not one a target (before rules revision
/// 10 it cost none, each target's pool seeing only part of the unit).
#[test]
fn bfs_cbt_10_a_unit_striking_two_enemies_loses_its_marker_die_once() {
    let marker_dice = |revision: u32| {
        let mut g = game(&[
            unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 1, 1, (56.0, 50.0), 180.0),
            unit("finns", 1, "finnish-horse", 2, 2, (62.0, 50.0), 180.0),
        ]);
        g.info.options.rules_revision = revision;
        let h = id(&g, "hussars");
        g.unit_mut(h).casualty_markers = 1;
        at_combat(&mut g, CombatStage::CloseCombat);
        let events = run(&mut g, Command::Continue);
        let pools: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Melee(m) if m.attacker == h && m.round == 1 => Some(m.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(pools.len(), 2, "one pool a target: {events:?}");
        pools
            .iter()
            .flat_map(|m| m.groups.iter())
            .flat_map(|g| g.roll.plan.dice_changes.iter())
            .filter(|d| d.rule == "BFS-CBT-10")
            .count()
    };
    assert_eq!(marker_dice(sandtable_bfs::revision::CURRENT), 1);
    assert_eq!(
        marker_dice(9),
        0,
        "as battles recorded before revision 10 were played"
    );
}

/// BFS-CCW-6 in the odds preview: a pike block two files wide and two ranks deep fights with a
/// die more for each front base with a pike base behind it, as the fight itself counts them
/// (the preview used to show the front rank's 4 dice where the fight rolled 6). Disorganized,
/// its rear rank adds nothing.
#[test]
fn bfs_ccw_6_the_odds_preview_counts_the_supporting_rank() {
    let odds = |bases: u8| {
        let g = game(&[
            unit("pikes", 1, "pikemen", bases, 2, (60.0, 60.0), 180.0),
            unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 40.0), 0.0),
        ]);
        let (p, r) = (id(&g, "pikes"), id(&g, "hussars"));
        let reply = sandtable_bfs::preview::reply_odds(&g, p, r).expect("odds");
        let charge = sandtable_bfs::preview::charge_odds(&g, p, r).expect("odds");
        (reply, charge)
    };
    let (one_rank, one_rank_charging) = odds(2);
    let (two_ranks, two_ranks_charging) = odds(4);
    assert!(
        one_rank.description.contains("4 dice"),
        "{}",
        one_rank.description
    );
    assert!(
        two_ranks.description.contains("6 dice"),
        "{}",
        two_ranks.description
    );
    // The same dice needing the same number against the same armor: half as much again.
    assert!(
        (two_ranks.expected_losses() - 1.5 * one_rank.expected_losses()).abs() < 1e-9,
        "{} against {}",
        two_ranks.expected_losses(),
        one_rank.expected_losses()
    );
    assert!(
        (two_ranks_charging.expected_losses() - 1.5 * one_rank_charging.expected_losses()).abs()
            < 1e-9
    );
    let mut g = game(&[
        unit("pikes", 1, "pikemen", 4, 2, (60.0, 60.0), 180.0),
        unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 40.0), 0.0),
    ]);
    let (p, r) = (id(&g, "pikes"), id(&g, "hussars"));
    g.unit_mut(p).morale = MoraleLevel::Disorganized;
    let shaken = sandtable_bfs::preview::reply_odds(&g, p, r).expect("odds");
    assert!(
        !shaken.description.contains("6 dice"),
        "{}",
        shaken.description
    );
}

/// BFS-CBT-10 and BFS-CDR-13 in the odds preview: the casualty marker's base rolls a die fewer
/// when it fights (all three hussar bases are in the front rank), an attached commander adds
/// one, as the fight counts them.
#[test]
fn bfs_cbt_10_the_odds_preview_counts_the_marker_and_an_attached_commander() {
    let preview = |marker: u8, attached: bool| {
        let mut g = game(&[
            unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 30.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 60.0), 180.0),
        ]);
        let (h, r) = (id(&g, "hussars"), id(&g, "reiters"));
        g.unit_mut(h).casualty_markers = marker;
        if attached {
            let c = g
                .commanders
                .iter()
                .find(|c| c.side == Side::A)
                .expect("a commander")
                .id;
            g.unit_mut(h).attached = Some(c);
        }
        sandtable_bfs::preview::charge_odds(&g, h, r).expect("odds")
    };
    let whole = preview(0, false);
    assert!(
        whole.description.contains("6 dice"),
        "{}",
        whole.description
    );
    let marked = preview(1, false);
    assert!(
        marked.description.contains("5 dice"),
        "{}",
        marked.description
    );
    assert!((marked.expected_losses() - 5.0 / 6.0 * whole.expected_losses()).abs() < 1e-9);
    let led = preview(0, true);
    assert!(led.description.contains("7 dice"), "{}", led.description);
}
