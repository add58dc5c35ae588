//! Solid shot (NQ-ART-3..8, G12): the line from the battery's centre through the point of aim,
//! the bounce beyond it striking friend and foe, damage points and their figures.

mod common;

use common::*;
use sandtable_engine::Ruleset;
use sandtable_napoleonic::solid_shot::{expected_figures, plan};
use sandtable_napoleonic::vocab::Band;
use sandtable_napoleonic::{Command, Event, Napoleonic};

/// The French foot battery (6 guns, 2 howitzers, 6lb, A) facing north at (36, 10); an Austrian
/// line 20" off.
fn range(target_formation: &str) -> sandtable_napoleonic::Game {
    let mut g = table_with(
        &[
            place("guns", "foot-battery", 0, (36.0, 10.0), 0.0, "Unlimbered"),
            place("target", "line", 1, (36.0, 30.0), 180.0, target_formation),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    g
}

#[test]
fn nq_art_5_damage_points_are_the_guns_then_modifiers_then_doubling() {
    let g = range("Line");
    let (b, t) = (unit(&g, "guns"), unit(&g, "target"));
    let aim = g.unit(t).rect().center();
    let p = plan(&g, b, aim, 1).unwrap();
    // Battery centre at y 9.25, aim at 30.5: 21.25", medium for a 6lb; A-rated needs 3.
    assert!((p.range - 21.25).abs() < 0.01, "range {}", p.range);
    assert_eq!((p.band, p.needs), (Band::Medium, 3));
    // 6 guns + 2 per howitzer (NQ-ART-6).
    assert_eq!(p.struck.len(), 1);
    assert_eq!(p.struck[0].1, 10);
    let g = range("Column");
    let aim = g.unit(unit(&g, "target")).rect().center();
    let p = plan(&g, unit(&g, "guns"), aim, 1).unwrap();
    // A column doubles after the modifiers (NQ-ART-5).
    assert_eq!(p.struck[0].1, 20);
}

#[test]
fn nq_art_7_every_six_points_a_figure_and_the_remainder_on_a_d6() {
    assert_eq!(expected_figures(0), 0.0);
    assert!((expected_figures(3) - 0.5).abs() < 1e-9);
    assert!((expected_figures(10) - (1.0 + 4.0 / 6.0)).abs() < 1e-9);
    // In play: a hit (3) for 10 points: one figure, and the remainder 4 kills another on a 4.
    let mut g = range("Line");
    let (b, t) = (unit(&g, "guns"), unit(&g, "target"));
    let aim = g.unit(t).rect().center();
    g.dice.script([3, 4, 1]);
    let ev = Napoleonic::execute(
        &mut g,
        &Command::SolidShot {
            unit: b,
            aim,
            actions: 1,
        },
    )
    .unwrap();
    let Some(Event::SolidShot { hits, .. }) =
        ev.iter().find(|e| matches!(e, Event::SolidShot { .. }))
    else {
        panic!("no shot")
    };
    assert_eq!((hits[0].damage, hits[0].removed), (10, 2));
    assert_eq!(g.unit(t).figures, 26);
    // A remainder roll above the remainder kills nothing more.
    let mut g = range("Line");
    g.dice.script([3, 5, 1]);
    Napoleonic::execute(
        &mut g,
        &Command::SolidShot {
            unit: b,
            aim,
            actions: 1,
        },
    )
    .unwrap();
    assert_eq!(g.unit(t).figures, 27);
}

#[test]
fn nq_art_8_two_actions_two_dice_and_the_damage_added_before_the_remainder() {
    let mut g = range("Column");
    let (b, t) = (unit(&g, "guns"), unit(&g, "target"));
    let aim = g.unit(t).rect().center();
    // Both dice hit: 20 + 20 = 40 points, 6 figures and a remainder of 4 (one roll: a 2).
    g.dice.script([5, 3, 2, 1, 1]);
    Napoleonic::execute(
        &mut g,
        &Command::SolidShot {
            unit: b,
            aim,
            actions: 2,
        },
    )
    .unwrap();
    assert_eq!(g.unit(t).figures, 28 - 7);
}

#[test]
fn nq_art_3_the_bounce_strikes_friends_and_foes_beyond_the_aim_and_nothing_before_it() {
    let mut g = table_with(
        &[
            place("guns", "foot-battery", 0, (36.0, 10.0), 0.0, "Unlimbered"),
            place("near", "ligne", 0, (30.0, 15.0), 0.0, "Column"),
            place("target", "line", 1, (36.0, 30.0), 180.0, "Line"),
            place("behind", "line", 1, (36.0, 38.0), 180.0, "Column"),
            place("beyond", "line", 1, (36.0, 46.0), 180.0, "Line"),
        ],
        "",
        "",
    );
    activation(&mut g, 0);
    let b = unit(&g, "guns");
    let aim = g.unit(unit(&g, "target")).rect().center();
    let p = plan(&g, b, aim, 1).unwrap();
    // Bounce 12" past the aim (30.5 → 42.5): the target and the column behind it, not the line
    // at 46, nor anything between the guns and the aim (G12).
    let struck: Vec<_> = p.struck.iter().map(|s| g.unit(s.0).key.clone()).collect();
    assert_eq!(struck, vec!["target".to_string(), "behind".to_string()]);
    assert!(((p.bounce_end - p.aim).length() / sandtable_napoleonic::INCH - 12.0).abs() < 0.01);
}

#[test]
fn g12_the_point_of_aim_must_be_in_the_front_arc_and_range() {
    let g = range("Line");
    let b = unit(&g, "guns");
    assert_eq!(plan(&g, b, at(36.0, 2.0), 1).unwrap_err().rule, "G12");
    assert_eq!(
        plan(&g, b, at(36.0, 47.0), 1).map(|p| p.band),
        Ok(Band::Long)
    );
}
