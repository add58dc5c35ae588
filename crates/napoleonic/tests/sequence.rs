//! The period (NQ-SEQ-1..4, NQ-ACT-1/2, G3, G4, G5): secret bids, the A/D alternation, the
//! right to stop after half, two actions a unit, out-of-command limits.

mod common;

use common::*;
use sandtable_engine::Ruleset;
use sandtable_napoleonic::state::{Bid, Phase};
use sandtable_napoleonic::{Command, Event, Napoleonic};

fn four_a_side() -> sandtable_napoleonic::Game {
    table_with(
        &[
            place("f1", "ligne", 0, (20.0, 10.0), 0.0, "Column"),
            place("f2", "ligne", 0, (26.0, 10.0), 0.0, "Column"),
            place("f3", "ligne", 0, (32.0, 10.0), 0.0, "Column"),
            place("f4", "ligne", 0, (38.0, 10.0), 0.0, "Column"),
            place("a1", "line", 1, (20.0, 38.0), 180.0, "Column"),
            place("a2", "line", 1, (26.0, 38.0), 180.0, "Column"),
            place("a3", "line", 1, (32.0, 38.0), 180.0, "Column"),
            place("a4", "line", 1, (38.0, 38.0), 180.0, "Column"),
        ],
        "",
        "",
    )
}

#[test]
fn nq_seq_2_bids_are_secret_until_both_are_in_and_ties_roll_off() {
    let mut g = four_a_side();
    assert!(matches!(g.phase, Phase::Bidding { .. }));
    Napoleonic::execute(&mut g, &Command::Bid { points: 3 }).unwrap();
    assert!(Napoleonic::holds_secrets(&g));
    // The second seat sees that a bid is in, not how much.
    let v = Napoleonic::view(&g, 1);
    assert!(matches!(
        v.phase,
        Phase::Bidding {
            bids: [Bid::Hidden, Bid::None]
        }
    ));
    // A bid above the turn points left is refused (G3).
    assert_eq!(
        Napoleonic::legal(&g, &Command::Bid { points: 21 })
            .unwrap_err()
            .rule,
        "G3"
    );
    // Equal bids: a D6 each, higher wins, ties roll again.
    g.dice.script([4, 4, 2, 5]);
    let ev = Napoleonic::execute(&mut g, &Command::Bid { points: 3 }).unwrap();
    let Some(Event::BidsRevealed {
        winner,
        tie_rolls,
        paid,
        ..
    }) = ev.iter().find(|e| matches!(e, Event::BidsRevealed { .. }))
    else {
        panic!("no reveal")
    };
    assert_eq!((*winner, tie_rolls.len()), (1, 2));
    // G3: only the winner pays.
    assert_eq!(*paid, [0, 3]);
    assert_eq!(g.turn_points, [20, 17]);
    assert_eq!(g.phase, Phase::ChooseSide { chooser: 1 });
    assert!(Napoleonic::reveals(&ev[ev.len() - 1]) || ev.iter().any(Napoleonic::reveals));
}

#[test]
fn nq_seq_3_a_activates_two_units_for_each_one_of_d() {
    let mut g = four_a_side();
    Napoleonic::execute(&mut g, &Command::Bid { points: 2 }).unwrap();
    Napoleonic::execute(&mut g, &Command::Bid { points: 0 }).unwrap();
    Napoleonic::execute(&mut g, &Command::ChooseSide { be_a: true }).unwrap();
    assert_eq!(g.side_a, 0);
    let mut order = Vec::new();
    for _ in 0..6 {
        let seat = Napoleonic::prompt(&g).seat.unwrap();
        order.push(seat);
        let u = g.present_units(seat).find(|u| !u.marks.moved).unwrap().id;
        Napoleonic::execute(&mut g, &Command::Stand { unit: u }).unwrap();
    }
    assert_eq!(order, vec![0, 0, 1, 0, 0, 1]);
}

#[test]
fn nq_seq_1_step_7_a_may_stop_only_after_half_its_units_and_g4_d_finishes() {
    let mut g = four_a_side();
    activation(&mut g, 0);
    assert_eq!(
        Napoleonic::legal(&g, &Command::EndActivations)
            .unwrap_err()
            .rule,
        "NQ-SEQ-1"
    );
    for k in ["f1", "f2"] {
        {
            let u = unit(&g, k);
            Napoleonic::execute(&mut g, &Command::Stand { unit: u })
        }
        .unwrap();
    }
    // D's turn now; then A may stop (two of four activated).
    {
        let u = unit(&g, "a1");
        Napoleonic::execute(&mut g, &Command::Stand { unit: u })
    }
    .unwrap();
    Napoleonic::execute(&mut g, &Command::EndActivations).unwrap();
    // G4: D activates its remaining units one at a time.
    for k in ["a2", "a3", "a4"] {
        assert_eq!(Napoleonic::prompt(&g).seat, Some(1));
        {
            let u = unit(&g, k);
            Napoleonic::execute(&mut g, &Command::Stand { unit: u })
        }
        .unwrap();
    }
    assert!(matches!(g.phase, Phase::Leaders { .. }));
}

#[test]
fn nq_act_1_two_actions_a_period_and_the_rest_kept_for_defence() {
    let mut g = four_a_side();
    activation(&mut g, 0);
    let f = unit(&g, "f1");
    let front = g.unit(f).front;
    let step = at(0.0, 5.0);
    Napoleonic::execute(
        &mut g,
        &Command::Move {
            unit: f,
            to: front + step,
            bearing: 0.0,
        },
    )
    .unwrap();
    assert_eq!(g.unit(f).actions_left, 1);
    Napoleonic::execute(&mut g, &Command::FinishUnit).unwrap();
    // The unit keeps its second action for defence, but may not act again this period.
    assert_eq!(g.unit(f).actions_left, 1);
    let again = Command::Move {
        unit: f,
        to: front + step * 2.0,
        bearing: 0.0,
    };
    activation(&mut g, 0);
    assert_eq!(Napoleonic::legal(&g, &again).unwrap_err().rule, "NQ-SEQ-3");
}

#[test]
fn nq_mov_1_a_column_moves_12_inches_an_action_and_no_more() {
    let mut g = four_a_side();
    activation(&mut g, 0);
    let f = unit(&g, "f1");
    let front = g.unit(f).front;
    let ok = Command::Move {
        unit: f,
        to: front + at(0.0, 12.0),
        bearing: 0.0,
    };
    assert!(Napoleonic::legal(&g, &ok).is_ok());
    let far = Command::Move {
        unit: f,
        to: front + at(0.0, 12.05),
        bearing: 0.0,
    };
    assert_eq!(Napoleonic::legal(&g, &far).unwrap_err().rule, "NQ-MOV-1");
    // A line keeps its facing as it moves (G2).
    g.unit_mut(f).formation = sandtable_napoleonic::vocab::Formation::Line;
    let turn = Command::Move {
        unit: f,
        to: front + at(0.0, 2.0),
        bearing: 45.0,
    };
    assert_eq!(Napoleonic::legal(&g, &turn).unwrap_err().rule, "G2");
}

#[test]
fn g17_woods_slow_a_move_and_bar_cavalry() {
    let wood = r#"Terrain(kind: Grove, shape: Rect(center: (20.0, 16.0), size: (10.0, 8.0))), Terrain(kind: Forest, shape: Rect(center: (50.0, 16.0), size: (10.0, 8.0)))"#;
    let mut g = table_with(
        &[
            place("f1", "ligne", 0, (20.0, 10.0), 0.0, "Column"),
            place("hus", "chasseurs", 0, (50.0, 10.0), 0.0, "Column"),
            place("a1", "line", 1, (20.0, 40.0), 180.0, "Column"),
        ],
        wood,
        "",
    );
    activation(&mut g, 0);
    let f = unit(&g, "f1");
    let front = g.unit(f).front;
    // 2" of open ground, then light woods at half speed: 2 + 2 × 5 = 12".
    assert!(
        Napoleonic::legal(
            &g,
            &Command::Move {
                unit: f,
                to: front + at(0.0, 7.0),
                bearing: 0.0
            }
        )
        .is_ok()
    );
    assert_eq!(
        Napoleonic::legal(
            &g,
            &Command::Move {
                unit: f,
                to: front + at(0.0, 7.01),
                bearing: 0.0
            }
        )
        .unwrap_err()
        .rule,
        "NQ-MOV-1"
    );
    let h = unit(&g, "hus");
    let hf = g.unit(h).front;
    assert_eq!(
        Napoleonic::legal(
            &g,
            &Command::Move {
                unit: h,
                to: hf + at(0.0, 4.0),
                bearing: 0.0
            }
        )
        .unwrap_err()
        .rule,
        "G17"
    );
}

#[test]
fn g5_out_of_command_units_use_one_action_and_may_not_close_on_the_enemy() {
    let mut g = four_a_side();
    activation(&mut g, 0);
    let f = unit(&g, "f4");
    g.unit_mut(f).marks.out_of_command = true;
    let front = g.unit(f).front;
    let closer = Command::Move {
        unit: f,
        to: front + at(0.0, 3.0),
        bearing: 0.0,
    };
    assert_eq!(Napoleonic::legal(&g, &closer).unwrap_err().rule, "G5");
    let back = Command::Move {
        unit: f,
        to: front - at(0.0, 3.0),
        bearing: 0.0,
    };
    Napoleonic::execute(&mut g, &back).unwrap();
    // One action and its activation is over.
    assert!(g.unit(f).marks.moved);
    assert_eq!(g.unit(f).actions_left, 1);
}

#[test]
fn g5_step_1_marks_units_beyond_12_inches_of_their_leader() {
    let mut g = four_a_side();
    g.leaders[0].pos = at(10.0, 2.0);
    let mut ev = Vec::new();
    g.period = 0;
    sandtable_napoleonic::sequence::begin_period(&mut g, &mut ev);
    let out: Vec<String> = g
        .units
        .iter()
        .filter(|u| u.marks.out_of_command)
        .map(|u| u.key.clone())
        .collect();
    // Measured to the nearest point of each column: f1 (x 19–21, y 7–10) is 10.3" from the
    // leader at (10, 2), f2 (x 25–27) 15.8". The Austrian leader stands by a1: a4 is 16" off.
    assert_eq!(out, vec!["f2", "f3", "f4", "a4"]);
}

#[test]
fn nq_mov_5_leaders_move_up_to_30_inches_at_step_8_only() {
    let mut g = four_a_side();
    let l = sandtable_napoleonic::LeaderId(0);
    let from = g.leaders[0].pos;
    // Not before step 8.
    activation(&mut g, 0);
    let far = Command::MoveLeader {
        leader: l,
        to: from + at(30.0, 0.0),
    };
    assert_eq!(Napoleonic::legal(&g, &far).unwrap_err().rule, "NQ-MOV-5");
    g.phase = Phase::Leaders { side: 0 };
    assert!(Napoleonic::legal(&g, &far).is_ok());
    let too_far = Command::MoveLeader {
        leader: l,
        to: from + at(30.1, 0.0),
    };
    assert_eq!(
        Napoleonic::legal(&g, &too_far).unwrap_err().rule,
        "NQ-MOV-5"
    );
    Napoleonic::execute(
        &mut g,
        &Command::MoveLeader {
            leader: l,
            to: from + at(10.0, 0.0),
        },
    )
    .unwrap();
    // Once a period.
    let again = Command::MoveLeader {
        leader: l,
        to: from,
    };
    assert_eq!(Napoleonic::legal(&g, &again).unwrap_err().rule, "NQ-MOV-5");
    // The option reads the table's 15" instead.
    g.options.leader_move = 15.0;
    g.leaders[0].moved = false;
    let fifteen = Command::MoveLeader {
        leader: l,
        to: g.leaders[0].pos + at(15.5, 0.0),
    };
    assert_eq!(
        Napoleonic::legal(&g, &fifteen).unwrap_err().rule,
        "NQ-MOV-5"
    );
}
