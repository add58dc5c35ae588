//! Close actions at step 9 (NQ-CA-1..7, NQ-FAT-2, G9, G10, G22), played with fixed dice.

mod common;

use common::*;
use sandtable_engine::Ruleset;
use sandtable_napoleonic::close_action::{change_facts, defence_options, meet_the_charge, resume};
use sandtable_napoleonic::state::{Defence, Facing, Phase, Wait};
use sandtable_napoleonic::vocab::{Fatigue, Formation, Standing};
use sandtable_napoleonic::{Command, Event, INCH, Napoleonic};

fn events_of(ev: &[Event], kind: &str) -> usize {
    ev.iter().filter(|e| e.kind() == kind).count()
}

#[test]
fn nq_ca_1_to_5_a_general_close_action_with_fixed_dice() {
    let mut g = table_with(
        &[
            place("fr", "ligne", 0, (36.0, 20.0), 0.0, "Column"),
            place("au", "line", 1, (36.0, 26.0), 180.0, "Line"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (c, t) = (unit(&g, "fr"), unit(&g, "au"));
    Napoleonic::execute(&mut g, &Command::Charge { unit: c, target: t }).unwrap();
    let ch = g.charges[0].clone();
    assert_eq!(ch.facing, Facing::Front);
    // A 2" column against a 14" line: 4 figures in contact each side; the line overlaps the
    // column's flanks by 1" on each side, 4 more figures for its enfilade value (G10).
    assert_eq!((ch.charger_figures, ch.target_figures), (4, 4));
    assert_eq!((ch.charger_enfilade, ch.target_enfilade), (4, 8));
    assert!(!ch.partial);
    assert!((g.unit(c).front - at(36.0, 26.0)).length() < 0.01);
    // Step 9: the defender holds (5 on a D20 against 12) and keeps its actions.
    g.dice.script([5]);
    let mut ev = Vec::new();
    resume(&mut g, &mut ev);
    assert_eq!(g.phase, Phase::CloseActions(Wait::Defence(0)));
    // No defence action; the charger passes (3 against 15); the melee: 4 × 25 against 3 × 25
    // (+5 enfilade for the line: 25); the charger wins. Casualties: charger 5 + 1 (winner) on
    // the 3-4 column: 4; the line 2: none. The line checks at 12 − 2 (4 figures lost): 15
    // fails and it routs; its leader, 2" away, survives a 6 (G6).
    g.dice.script([3, 4, 3, 5, 2, 15, 6]);
    let ev = Napoleonic::execute(
        &mut g,
        &Command::Defend {
            choice: Defence::None,
        },
    )
    .unwrap();
    let Some(Event::Melee {
        winner, reports, ..
    }) = ev.iter().find(|e| e.kind() == "Melee")
    else {
        panic!("no melee")
    };
    assert_eq!(*winner, c);
    assert_eq!(reports[0].result, "4 × 25 = 100");
    assert_eq!(reports[1].result, "3 × 25 = 75");
    assert!(
        reports[1]
            .modifiers
            .iter()
            .any(|m| m.delta == 5 && m.rule == "NQ-CA-3")
    );
    assert_eq!(g.unit(t).figures, 24);
    assert_eq!(g.unit(c).figures, 24);
    assert_eq!(events_of(&ev, "Routed"), 1);
    // Both sides up a fatigue level (NQ-CA-5); the routed line has left and the Austrians broke.
    assert_eq!(g.unit(c).fatigue, Fatigue::Fatigued);
    assert_eq!(g.unit(t).standing, Standing::Gone);
    assert_eq!(g.ending.as_ref().and_then(|e| e.winner), Some(0));
}

#[test]
fn nq_ca_1_step_2_a_defender_that_fails_retreats_and_nobody_tires() {
    let mut g = table_with(
        &[
            place("fr", "ligne", 0, (36.0, 20.0), 0.0, "Column"),
            place("au", "line", 1, (36.0, 26.0), 180.0, "Line"),
            place("au2", "line", 1, (10.0, 40.0), 180.0, "Line"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (c, t) = (unit(&g, "fr"), unit(&g, "au"));
    Napoleonic::execute(&mut g, &Command::Charge { unit: c, target: t }).unwrap();
    // 13 fails against 12; the reform roll is a 2: 1 action to reform.
    g.dice.script([13, 2]);
    let mut ev = Vec::new();
    resume(&mut g, &mut ev);
    assert_eq!(g.unit(t).standing, Standing::Retreat { to_reform: 1 });
    // A 15" retreat straight away (NQ-MOV-6, G8), ending facing away.
    let moved = (g.unit(t).rect().center().y - 26.5 * INCH) / INCH;
    assert!((moved - 15.0).abs() < 0.01, "moved {moved}");
    assert!((g.unit(t).bearing - 0.0).abs() < 0.01);
    assert_eq!(g.unit(c).fatigue, Fatigue::Fresh);
    assert_eq!(g.unit(t).fatigue, Fatigue::Fresh);
}

#[test]
fn nq_ca_6_cavalry_is_repulsed_by_a_square() {
    let mut g = table_with(
        &[
            place("cuir", "cuirassiers", 0, (36.0, 14.0), 0.0, "Line"),
            place("sq", "line", 1, (36.0, 30.0), 180.0, "Square"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (c, t) = (unit(&g, "cuir"), unit(&g, "sq"));
    Napoleonic::execute(&mut g, &Command::Charge { unit: c, target: t }).unwrap();
    assert!((g.charges[0].run / INCH - 16.0).abs() < 0.01);
    // The square holds: 12 + 3 (square facing cavalry) − 1 (charged by heavy cavalry) = 14.
    let f = sandtable_napoleonic::close_action::defender_facts(&g, 0);
    let (test, _) = sandtable_napoleonic::morale::morale_test(&g, t, &f);
    assert_eq!(test.target, sandtable_engine::roll::Target::AtMost(14));
    g.dice.script([14]);
    let mut ev = Vec::new();
    resume(&mut g, &mut ev);
    // The cavalry closes (10 against 18) and is repulsed; its reform roll: 3, +1 cavalry, −1
    // rated A (NQ-MOR-4 as the house reads it): 3, two actions to reform.
    g.dice.script([10, 3]);
    let ev = Napoleonic::execute(
        &mut g,
        &Command::Defend {
            choice: Defence::None,
        },
    )
    .unwrap();
    assert_eq!(events_of(&ev, "Repulsed"), 1);
    assert_eq!(g.unit(c).standing, Standing::Retreat { to_reform: 2 });
    assert_eq!(g.unit(t).figures, 28);
    // NQ-CA-6 step 8: both sides tire.
    assert_eq!(
        (g.unit(c).fatigue, g.unit(t).fatigue),
        (Fatigue::Fatigued, Fatigue::Fatigued)
    );
}

#[test]
fn nq_ca_6_step_6b_a_line_holds_at_one_and_a_half_to_one() {
    // A 6" cavalry front on a 14" line: 12 infantry figures to 8 horse, 1.5 : 1.
    let mut g = table_with(
        &[
            place("cuir", "cuirassiers", 0, (36.0, 14.0), 0.0, "Line"),
            place("line", "line", 1, (36.0, 26.0), 180.0, "Line"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (c, t) = (unit(&g, "cuir"), unit(&g, "line"));
    Napoleonic::execute(&mut g, &Command::Charge { unit: c, target: t }).unwrap();
    assert!(g.charges[0].steady_line);
    // A 4" line of 16 Jäger: 8 infantry figures to 6 horse (4" ÷ 0.75" rounded up, in the
    // cavalry's favour): short of 1.5 : 1, and the horse ride it down if they close.
    let mut g = table_with(
        &[
            place("cuir", "cuirassiers", 0, (36.0, 14.0), 0.0, "Line"),
            place("jg", "jaeger", 1, (36.0, 26.0), 180.0, "Line"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (c, t) = (unit(&g, "cuir"), unit(&g, "jg"));
    Napoleonic::execute(&mut g, &Command::Charge { unit: c, target: t }).unwrap();
    assert!(!g.charges[0].steady_line);
    // The Jäger hold (1), keep their actions, the cuirassiers close (1): ridden down; the
    // ridden-down check passes (1) and they retreat (reform roll 1).
    g.dice.script([1]);
    let mut ev = Vec::new();
    resume(&mut g, &mut ev);
    g.dice.script([1, 1, 1]);
    let ev = Napoleonic::execute(
        &mut g,
        &Command::Defend {
            choice: Defence::None,
        },
    )
    .unwrap();
    assert_eq!(events_of(&ev, "RiddenDown"), 1);
    assert!(g.unit(t).ridden_down);
    assert!(g.unit(t).in_retreat());
}

#[test]
fn nq_ca_7_a_short_cavalry_run_leaves_no_time_to_form_square() {
    let mk = |from: f32| {
        let mut g = table_with(
            &[
                place("chas", "chasseurs", 0, (36.0, from), 0.0, "Line"),
                place("line", "line", 1, (36.0, 26.0), 180.0, "Line"),
            ],
            "",
            "",
        );
        activation(&mut g, 0);
        let (c, t) = (unit(&g, "chas"), unit(&g, "line"));
        Napoleonic::execute(&mut g, &Command::Charge { unit: c, target: t }).unwrap();
        g
    };
    let square = |g: &sandtable_napoleonic::Game| {
        defence_options(g, 0)
            .into_iter()
            .find(|(d, _)| *d == Defence::Form(Formation::Square))
            .map(|(_, ok)| ok)
            .unwrap()
    };
    // 15" or less: fire only.
    let g = mk(11.0);
    assert_eq!(square(&g).unwrap_err().rule, "NQ-CA-7");
    // 20": allowed, no bonus.
    let mut g = mk(6.0);
    assert!(square(&g).is_ok());
    assert!(!change_facts(&g, 0).long_cavalry_run);
    // 24" or more (a move before the charge counts): +2 on the check.
    g.charges[0].run = 24.0 * INCH;
    assert!(change_facts(&g, 0).long_cavalry_run);
}

#[test]
fn nq_act_2_a_charge_is_one_action_within_the_charge_distance() {
    let mut g = table_with(
        &[
            place("chas", "chasseurs", 0, (36.0, 4.0), 0.0, "Line"),
            place("line", "line", 1, (36.0, 25.5), 180.0, "Line"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (c, t) = (unit(&g, "chas"), unit(&g, "line"));
    // 21.5" is beyond light cavalry's 21" (NQ-MOV-3).
    assert_eq!(
        Napoleonic::legal(&g, &Command::Charge { unit: c, target: t })
            .unwrap_err()
            .rule,
        "NQ-MOV-3"
    );
    // Move an inch first, then charge: two actions, the second the charge (NQ-ACT-2).
    let front = g.unit(c).front;
    Napoleonic::execute(
        &mut g,
        &Command::Move {
            unit: c,
            to: front + at(0.0, 1.0),
            bearing: 0.0,
        },
    )
    .unwrap();
    Napoleonic::execute(&mut g, &Command::Charge { unit: c, target: t }).unwrap();
    assert!(g.charges[0].both_actions);
    assert!((g.charges[0].run / INCH - 21.5).abs() < 0.01);
    assert_eq!(g.unit(c).actions_left, 0);
}

/// A line charged in the flank turns to meet it (NQ-CA-1 step 4): the charger comes on against
/// the face now turned to it; with a friend standing where the turned line would be, the turn
/// is refused (G1) rather than leaving two bodies on top of each other.
#[test]
fn nq_ca_1_step_4_a_defender_turns_to_meet_the_charge_only_where_there_is_room() {
    let charged = |friend: bool| {
        let mut units = vec![
            place("fr", "ligne", 0, (24.0, 26.5), 90.0, "Column"),
            place("line", "line", 1, (36.0, 26.0), 180.0, "Line"),
        ];
        if friend {
            units.push(place("friend", "line", 1, (36.0, 29.0), 180.0, "Column"));
        }
        let mut g = table_with(&units, "", "");
        activation(&mut g, 0);
        let (c, t) = (unit(&g, "fr"), unit(&g, "line"));
        Napoleonic::execute(&mut g, &Command::Charge { unit: c, target: t }).unwrap();
        assert_eq!(g.charges[0].facing, Facing::Flank);
        g
    };
    let face = |g: &sandtable_napoleonic::Game| {
        defence_options(g, 0)
            .into_iter()
            .find(|(d, _)| *d == Defence::Face)
            .map(|(_, ok)| ok)
            .unwrap()
    };
    let g = charged(false);
    assert!(face(&g).is_ok());
    let m = meet_the_charge(&g, 0, Defence::Face).unwrap();
    // The line pivots about its centre to face the column, west (270°); the column's front
    // meets the middle of the line's new front.
    assert!((m.bearing - 270.0).abs() < 0.01, "{}", m.bearing);
    let (k, contact) = &m.chargers[0];
    assert_eq!(*k, 0);
    assert_eq!(contact.facing, Facing::Front);
    assert!((contact.front - m.front).length() < 0.01);
    let g = charged(true);
    let refused = face(&g).unwrap_err();
    assert_eq!(refused.rule, "G1");
    assert!(
        refused.message.contains("in the way"),
        "{}",
        refused.message
    );
}
