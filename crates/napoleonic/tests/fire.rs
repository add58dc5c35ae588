//! Musketry and canister in play (NQ-FIRE-1/3, NQ-ART-2, G11, G13): the row, the modifiers with
//! their rule IDs, the figures removed for a fixed die, and the morale mark for step 10.

mod common;

use common::*;
use sandtable_engine::Ruleset;
use sandtable_engine::roll::total;
use sandtable_napoleonic::fire::plan;
use sandtable_napoleonic::vocab::{Ammo, Fatigue};
use sandtable_napoleonic::{Command, Event, Napoleonic};

#[test]
fn nq_fire_3_modifiers_for_an_a_rated_volley_at_a_column() {
    // Grenadiers (A, 20 figures in line) 3" from an Austrian column: medium range.
    let mut g = table_with(
        &[
            place("gren", "grenadiers", 0, (36.0, 20.0), 0.0, "Line"),
            place("col", "line", 1, (36.0, 23.0), 180.0, "Column"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (f, t) = (unit(&g, "gren"), unit(&g, "col"));
    let p = plan(&g, f, t, 1).unwrap();
    assert_eq!(p.row, 20);
    let rules: Vec<(i32, &str)> = p
        .modifiers
        .iter()
        .map(|m| (m.delta, m.rule.as_str()))
        .collect();
    assert_eq!(
        rules,
        vec![(2, "NQ-FIRE-3"), (2, "NQ-FIRE-3"), (-1, "NQ-FIRE-3")]
    );
    assert_eq!(total(&p.modifiers), 3);
    assert!((p.range - 3.0).abs() < 0.01, "range {}", p.range);
    // Fatigued firers take 1 more off (NQ-FAT-1).
    g.unit_mut(f).fatigue = Fatigue::Fatigued;
    assert_eq!(total(&plan(&g, f, t, 1).unwrap().modifiers), 2);
    // Two actions double the row (G2).
    assert_eq!(plan(&g, f, t, 2).unwrap().row, 40);
}

#[test]
fn nq_fire_1_a_volley_removes_the_table_s_figures_and_marks_the_target() {
    let mut g = table_with(
        &[
            place("gren", "grenadiers", 0, (36.0, 20.0), 0.0, "Line"),
            place("col", "line", 1, (36.0, 23.0), 180.0, "Column"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (f, t) = (unit(&g, "gren"), unit(&g, "col"));
    // Row 20, +3: a die of 4 is 7, which removes 4 figures.
    g.dice.script([4]);
    let ev = Napoleonic::execute(
        &mut g,
        &Command::Fire {
            unit: f,
            target: t,
            actions: 1,
        },
    )
    .unwrap();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Volley { removed: 4, .. }))
    );
    assert_eq!(g.unit(t).figures, 24);
    let mark = g.unit(t).marks.morale.expect("marked for step 10");
    assert!(mark.fire_losses && !mark.flank_fire);
    assert_eq!(g.unit(f).actions_left, 1);
}

#[test]
fn g11_fire_only_at_what_is_in_the_front_arc_and_in_range() {
    let mut g = table_with(
        &[
            place("gren", "grenadiers", 0, (36.0, 20.0), 0.0, "Line"),
            place("behind", "line", 1, (36.0, 12.0), 0.0, "Column"),
            place("far", "line", 1, (50.0, 32.0), 180.0, "Column"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let f = unit(&g, "gren");
    let e = plan(&g, f, unit(&g, "behind"), 1).unwrap_err();
    assert_eq!(e.rule, "G11");
    let e = plan(&g, f, unit(&g, "far"), 1).unwrap_err();
    assert_eq!(e.rule, "NQ-FIRE-4");
}

#[test]
fn nq_art_2_canister_row_is_twice_the_guns() {
    // French foot battery: 6 guns and 2 howitzers of 6lb, rated A.
    let mk = |dist: f32| {
        let mut g = table_with(
            &[
                place("guns", "foot-battery", 0, (36.0, 10.0), 0.0, "Unlimbered"),
                place("col", "line", 1, (36.0, 10.0 + dist), 180.0, "Column"),
            ],
            "",
            "",
        );
        activation(&mut g, 0);
        g
    };
    // Measured from the battery's centre (0.75" behind its front): 10.75" is beyond the
    // howitzers' 9" but within the 6lb's 12": the 6 guns fire, row 12.
    let g = mk(10.0);
    let p = plan(&g, unit(&g, "guns"), unit(&g, "col"), 1).unwrap();
    assert!(p.canister);
    assert_eq!(p.row, 12);
    // +2 A-rated, +4 6lb canister, +2 column.
    assert_eq!(total(&p.modifiers), 8);
    // At 8.75" the howitzers join: 8 pieces, row 16; two actions double it (NQ-ART-2).
    let g = mk(8.0);
    assert_eq!(
        plan(&g, unit(&g, "guns"), unit(&g, "col"), 1).unwrap().row,
        16
    );
    assert_eq!(
        plan(&g, unit(&g, "guns"), unit(&g, "col"), 2).unwrap().row,
        32
    );
    // Beyond 12": no canister, solid shot instead.
    let g = mk(13.0);
    assert_eq!(
        plan(&g, unit(&g, "guns"), unit(&g, "col"), 1)
            .unwrap_err()
            .rule,
        "NQ-ART-2"
    );
}

#[test]
fn g13_ammunition_running_low_costs_one_on_the_canister_die_and_out_stops_fire() {
    let mut g = table_with(
        &[
            place("guns", "foot-battery", 0, (36.0, 10.0), 0.0, "Unlimbered"),
            place("col", "line", 1, (36.0, 18.0), 180.0, "Column"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (b, t) = (unit(&g, "guns"), unit(&g, "col"));
    let before = total(&plan(&g, b, t, 1).unwrap().modifiers);
    g.unit_mut(b).ammo = Ammo::RunningLow;
    let p = plan(&g, b, t, 1).unwrap();
    assert_eq!(total(&p.modifiers), before - 1);
    assert!(p.modifiers.iter().any(|m| m.rule == "G13"));
    g.unit_mut(b).ammo = Ammo::Out;
    assert_eq!(plan(&g, b, t, 1).unwrap_err().rule, "NQ-ART-9");
}

#[test]
fn nq_art_9_each_six_on_the_ammunition_die_steps_the_state() {
    let mut g = table_with(
        &[
            place("guns", "foot-battery", 0, (36.0, 10.0), 0.0, "Unlimbered"),
            place("col", "line", 1, (36.0, 18.0), 180.0, "Column"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let (b, t) = (unit(&g, "guns"), unit(&g, "col"));
    // Two actions of canister: the fire die, then one ammunition die per action (6, 6).
    g.dice.script([3, 6, 6]);
    Napoleonic::execute(
        &mut g,
        &Command::Fire {
            unit: b,
            target: t,
            actions: 2,
        },
    )
    .unwrap();
    assert_eq!(g.unit(b).ammo, Ammo::Critical);
}
