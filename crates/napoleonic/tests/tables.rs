//! The sheet's tables as the digest rebuilt them, asserted cell by cell where the digest gives
//! a worked reading (NQ-FIRE-2, NQ-ART-1/4, NQ-MOV-*, NQ-MOR-3, NQ-CA-4, NQ-ART-9).

use sandtable_napoleonic::tables::tables;
use sandtable_napoleonic::vocab::{Ammo, Band, BatteryRow, Calibre, Rating, Weapon};

#[test]
fn nq_fire_2_musket_table_right_aligned_diagonal() {
    let t = tables();
    // (figures, modified roll, figures removed)
    let cells = [
        (4, 5, 0),
        (4, 6, 2),
        (4, 12, 2),
        (8, 4, 0),
        (8, 5, 2),
        (8, 11, 4),
        (12, 3, 2),
        (12, 10, 4),
        (16, 1, 0),
        (16, 2, 2),
        (20, 1, 2),
        (20, 7, 4),
        (24, -1, 0),
        (24, 0, 2),
        (24, 6, 4),
        (24, 12, 6),
        (28, -2, 2),
        (28, -3, 0),
        (32, -3, 2),
        (32, 10, 6),
        (36, -4, 2),
        (40, 1, 4),
        (44, 0, 4),
        (44, 12, 8),
        (48, -2, 4),
        (48, 5, 6),
        (48, 11, 8),
    ];
    for (figs, roll, want) in cells {
        assert_eq!(
            t.musket_removed(figs, roll),
            want,
            "{figs} figures, roll {roll}"
        );
    }
    // The diagonal: each 4 more figures moves every threshold one column left.
    assert_eq!(t.musket_rows.len(), 12);
    assert!(t.musket_rows.iter().all(|r| r.removed.len() == 14));
}

#[test]
fn nq_fire_1_minus_five_or_less_has_no_effect_and_above_twelve_reads_twelve() {
    let t = tables();
    assert_eq!(t.musket_removed(48, -5), 0);
    assert_eq!(t.musket_removed(48, -9), 0);
    assert_eq!(t.musket_removed(48, -4), 2);
    // G11: a modified roll above 12 uses 12.
    assert_eq!(t.musket_removed(48, 15), 8);
}

#[test]
fn g11_figures_round_down_to_fours_and_split_above_48() {
    let t = tables();
    // 27 figures fire as 24.
    assert_eq!(t.musket_removed(27, 0), 2);
    // Under 4: no fire.
    assert_eq!(t.musket_removed(3, 12), 0);
    // 60 figures: a block of 48 (6 at a roll of 5) and one of 12 (2).
    assert_eq!(t.musket_removed(60, 5), 8);
}

#[test]
fn nq_fire_4_small_arms_bands() {
    let t = tables();
    assert_eq!(t.range_band(Weapon::Musket, 2.0), Some(Band::Close));
    assert_eq!(t.range_band(Weapon::Musket, 2.01), Some(Band::Medium));
    assert_eq!(t.range_band(Weapon::Musket, 6.0), Some(Band::Long));
    assert_eq!(t.range_band(Weapon::Musket, 8.0), Some(Band::Extreme));
    assert_eq!(t.range_band(Weapon::Musket, 8.01), None);
    assert_eq!(t.range_band(Weapon::Rifle, 12.0), Some(Band::Extreme));
    // Carbine: no medium or extreme band.
    assert_eq!(t.range_band(Weapon::Carbine, 3.0), Some(Band::Long));
    assert_eq!(t.range_band(Weapon::Carbine, 4.01), None);
}

#[test]
fn nq_art_1_artillery_bands_and_bounce_lengths() {
    let t = tables();
    assert_eq!(
        t.artillery_band(Calibre::Lb12, 15.0),
        Some((Band::Close, 18.0))
    );
    assert_eq!(
        t.artillery_band(Calibre::Lb12, 15.5),
        Some((Band::Medium, 15.0))
    );
    assert_eq!(
        t.artillery_band(Calibre::Lb12, 60.0),
        Some((Band::Long, 12.0))
    );
    assert_eq!(
        t.artillery_band(Calibre::Lb12, 96.0),
        Some((Band::Extreme, 9.0))
    );
    assert_eq!(t.artillery_band(Calibre::Lb12, 96.5), None);
    assert_eq!(
        t.artillery_band(Calibre::Lb8to9, 80.0),
        Some((Band::Extreme, 6.0))
    );
    assert_eq!(
        t.artillery_band(Calibre::Lb6, 24.0),
        Some((Band::Medium, 12.0))
    );
    assert_eq!(
        t.artillery_band(Calibre::Lb4, 45.0),
        Some((Band::Long, 9.0))
    );
    assert_eq!(
        t.artillery_band(Calibre::Lb2to3, 54.0),
        Some((Band::Extreme, 3.0))
    );
    assert_eq!(t.howitzer_canister, 9.0);
    assert_eq!(t.canister_bonus(Calibre::Lb12), 6);
    assert_eq!(t.canister_bonus(Calibre::Lb2to3), 2);
}

#[test]
fn nq_art_4_solid_shot_to_hit() {
    let t = tables();
    assert_eq!(t.solid_shot_needs(Rating::A, Band::Close), None);
    assert_eq!(t.solid_shot_needs(Rating::A, Band::Medium), Some(3));
    assert_eq!(t.solid_shot_needs(Rating::A, Band::Long), Some(4));
    assert_eq!(t.solid_shot_needs(Rating::A, Band::Extreme), Some(5));
    assert_eq!(t.solid_shot_needs(Rating::B, Band::Medium), Some(4));
    assert_eq!(t.solid_shot_needs(Rating::B, Band::Long), Some(5));
    assert_eq!(t.solid_shot_needs(Rating::B, Band::Extreme), Some(6));
}

#[test]
fn nq_mov_1_to_4_and_6_movement_tables() {
    let t = tables();
    let a = t.move_row(false, Rating::A);
    assert_eq!(
        (a.line, a.column, a.skirmish, a.road, a.square),
        (9.0, 12.0, 12.0, 15.0, Some(3.0))
    );
    assert_eq!(t.move_row(false, Rating::B).square, Some(1.5));
    assert_eq!(t.move_row(false, Rating::C).square, None);
    // G19: D and E move as C.
    assert_eq!(t.move_row(false, Rating::E).line, 3.0);
    let c = t.move_row(true, Rating::C);
    assert_eq!(
        (c.line, c.column, c.skirmish, c.road),
        (6.0, 14.0, 15.0, 15.0)
    );
    assert_eq!(
        (
            t.cavalry_charge.light,
            t.cavalry_charge.medium,
            t.cavalry_charge.heavy
        ),
        (21.0, 20.0, 18.0)
    );
    let g = t.artillery_move(BatteryRow::Foot12);
    assert_eq!(
        (g.field_a, g.field_b, g.prolong, g.road),
        (9.0, 6.0, 2.0, 15.0)
    );
    let h = t.artillery_move(BatteryRow::Horse3to6);
    assert_eq!((h.field_a, h.field_b, h.prolong), (14.0, 12.0, 4.0));
    assert_eq!((t.retreat_move.foot, t.retreat_move.mounted), (15.0, 18.0));
}

#[test]
fn nq_mor_3_reform_table() {
    let t = tables();
    for (roll, want) in [
        (-2, 1),
        (1, 1),
        (2, 1),
        (3, 2),
        (4, 2),
        (5, 3),
        (6, 3),
        (7, 4),
        (9, 4),
    ] {
        assert_eq!(t.reform_actions(roll), want, "roll {roll}");
    }
}

#[test]
fn nq_ca_4_close_action_casualty_chart() {
    let t = tables();
    // (modified roll, charging figures in contact, figures lost)
    for (roll, figs, want) in [
        (1, 2, 0),
        (1, 9, 2),
        (2, 8, 2),
        (3, 5, 2),
        (4, 3, 2),
        (5, 1, 2),
        (6, 4, 4),
        (6, 7, 6),
        (7, 5, 6),
        (7, 12, 6),
        // G22: beyond the chart, the nearest row.
        (9, 9, 6),
        (0, 9, 2),
    ] {
        assert_eq!(
            t.casualties(roll, figs),
            want,
            "roll {roll}, {figs} figures"
        );
    }
}

#[test]
fn nq_art_9_sixes_to_ammunition_states() {
    assert_eq!(
        tables().ammunition,
        vec![Ammo::RunningLow, Ammo::Critical, Ammo::Out]
    );
}
