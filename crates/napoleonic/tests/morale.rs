//! Morale and fatigue (NQ-MOR-1..4, NQ-SEQ-4, NQ-FAT-1/2, G7, G7b, G14, G15).

mod common;

use common::*;
use sandtable_engine::roll::{Target, total};
use sandtable_napoleonic::facts::Facts;
use sandtable_napoleonic::morale::{morale_modifiers, morale_test, reform_roll, standing_facts};
use sandtable_napoleonic::state::MoraleMark;
use sandtable_napoleonic::vocab::{Fatigue, Standing};
use sandtable_napoleonic::{Event, Game};

fn pair() -> Game {
    table_with(
        &[
            place("fr", "ligne", 0, (36.0, 24.0), 0.0, "Column"),
            place("fr2", "ligne", 0, (44.0, 24.0), 0.0, "Column"),
            place("au", "line", 1, (36.0, 40.0), 180.0, "Line"),
        ],
        "",
        "",
    )
}

#[test]
fn nq_mor_2_modifiers_and_their_signs() {
    let mut g = pair();
    let fr = unit(&g, "fr");
    // Supported by a friend 6" away (+1), 5 figures lost (−2: one per 2), tired (−2).
    g.unit_mut(fr).figures = 19;
    g.unit_mut(fr).fatigue = Fatigue::Tired;
    let mods = morale_modifiers(&standing_facts(&g, fr));
    let deltas: Vec<i32> = mods.iter().map(|m| m.delta).collect();
    assert_eq!(deltas, vec![1, -2, -2]);
    assert!(mods.iter().all(|m| m.rule == "NQ-MOR-2"));
    // Retreat status includes the disorder penalty: −5, never −6; more than half lost: −3.
    g.unit_mut(fr).standing = Standing::Retreat { to_reform: 2 };
    g.unit_mut(fr).figures = 11;
    let f = standing_facts(&g, fr);
    let mods = morale_modifiers(&f);
    assert!(mods.iter().any(|m| m.delta == -5));
    assert!(!mods.iter().any(|m| m.reason == "disordered"));
    assert!(
        mods.iter()
            .any(|m| m.delta == -3 && m.reason.contains("50%"))
    );
    assert_eq!(total(&mods), 1 - 6 - 2 - 5 - 3);
}

#[test]
fn g7_the_test_is_a_d20_at_most_the_morale_number_plus_modifiers() {
    let g = pair();
    let fr = unit(&g, "fr");
    // B-rated: 15; charged in the flank −4, supported +1.
    let f = Facts {
        charged_in_flank: true,
        ..standing_facts(&g, fr)
    };
    let (test, mods) = morale_test(&g, fr, &f);
    assert_eq!(test.sides, 20);
    assert_eq!(test.target, Target::AtMost(12));
    assert_eq!(total(&mods), -3);
    assert!((test.pass_chance() - 0.6).abs() < 1e-9);
}

#[test]
fn nq_mor_4_the_reform_roll_and_its_modifiers() {
    let mut g = pair();
    let fr = unit(&g, "fr");
    g.unit_mut(fr).ridden_down = true;
    // 4 + 1 (ridden down) = 5: three actions (NQ-MOR-3).
    g.dice.script([4]);
    let (actions, report) = reform_roll(&mut g, fr);
    assert_eq!(actions, 3);
    assert_eq!(report.modifiers.len(), 1);
    assert_eq!(report.modifiers[0].rule, "NQ-MOR-4");
}

#[test]
fn nq_seq_4_marked_units_check_at_step_10_unless_they_fought_a_close_action() {
    let mut g = pair();
    let (fr, fr2) = (unit(&g, "fr"), unit(&g, "fr2"));
    for u in [fr, fr2] {
        g.unit_mut(u).marks.morale = Some(MoraleMark {
            fire_losses: true,
            ..MoraleMark::default()
        });
    }
    g.unit_mut(fr2).marks.close_action = true;
    // fr fails (20) and retreats (reform roll 1); fr2 takes no check.
    g.dice.script([20, 1]);
    let mut ev = Vec::new();
    sandtable_napoleonic::sequence::after_close_actions(&mut g, &mut ev);
    let checks: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e, Event::MoraleCheck { .. }))
        .collect();
    assert_eq!(checks.len(), 1);
    assert!(g.unit(fr).in_retreat());
    assert!(!g.unit(fr2).in_retreat());
}

#[test]
fn g14_a_unit_that_stood_all_period_clear_of_the_enemy_recovers_a_fatigue_level() {
    let mut g = pair();
    let (fr, fr2) = (unit(&g, "fr"), unit(&g, "fr2"));
    g.unit_mut(fr).fatigue = Fatigue::Tired;
    g.unit_mut(fr2).fatigue = Fatigue::Tired;
    g.unit_mut(fr2).marks.used = 1;
    let mut ev = Vec::new();
    sandtable_napoleonic::sequence::after_close_actions(&mut g, &mut ev);
    assert_eq!(g.unit(fr).fatigue, Fatigue::Fatigued);
    assert_eq!(g.unit(fr2).fatigue, Fatigue::Tired);
}

#[test]
fn g15_a_side_breaks_at_half_its_figures_routed_units_counted_whole() {
    let mut g = pair();
    // The Austrians' only unit routs: 28 of 28 lost.
    let au = unit(&g, "au");
    g.unit_mut(au).standing = Standing::Routed;
    let mut ev = Vec::new();
    sandtable_napoleonic::sequence::after_close_actions(&mut g, &mut ev);
    assert_eq!(g.ending.as_ref().and_then(|e| e.winner), Some(0));
    // 48 French figures: 24 lost is half, and breaks them.
    let mut g = pair();
    g.unit_mut(unit(&g, "fr")).figures = 0;
    let fr = unit(&g, "fr");
    g.unit_mut(fr).figures = 0;
    g.unit_mut(fr).standing = Standing::Routed;
    assert!(sandtable_napoleonic::victory::broken(&g, 0));
    let fr2 = unit(&g, "fr2");
    let mut g2 = pair();
    g2.unit_mut(fr2).figures = 1;
    assert!(!sandtable_napoleonic::victory::broken(&g2, 0));
}

#[test]
fn g7b_a_rout_marks_friends_within_6_inches() {
    let mut g = pair();
    let (fr, fr2) = (unit(&g, "fr"), unit(&g, "fr2"));
    let mut ev = Vec::new();
    g.dice.script([6]);
    sandtable_napoleonic::morale::rout(&mut g, fr, &mut ev);
    assert!(g.unit(fr2).marks.morale.is_some_and(|m| m.friend_routed));
    assert_eq!(g.unit(fr).standing, Standing::Routed);
}
