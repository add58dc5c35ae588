//! Regiment Motivation at Division level (BFS-PSY-25..30): the Motivation Level of the book's
//! examples, the Breaking Points table, when and how the Regimental Commander tests, what a
//! Wiped Out Regiment does, and who else it shakes.

mod support;

use sandtable_bfs::event::{Event, TestKind};
use sandtable_bfs::ids::{RegimentId, Side};
use sandtable_bfs::motivation::{self, breaking_points, motivation_level, total};
use sandtable_bfs::phases::reorganization;
use sandtable_bfs::scenario_spec::*;
use sandtable_bfs::state::{Game, MoraleLevel, UnitStatus};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{BattleSetup, Bfs, Command};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::OptionValue;
use sandtable_geometry::{Pose, Rect, Vec2};
use support::*;

const BANNER: RegimentId = RegimentId(0);
const LEVY: RegimentId = RegimentId(1);

/// The book's two regiments (BFS-PSY-25): a cavalry regiment of 4 cossack-style banners and 2
/// pancerni banners, 3 bases each, at 50 %; a Levy of 8 banners of 3 bases at 30 %. Each has its
/// colonel; side A's Commander-in-Chief stands in a corner. Two Swedish reiter units far off, and
/// an independent Polish dragoon unit between the two regiments.
fn division_setup() -> BattleSetup {
    let mut placed = Vec::new();
    let banner = [
        "cossacks-1",
        "cossacks-2",
        "cossacks-3",
        "cossacks-4",
        "pancerni-1",
        "pancerni-2",
    ];
    for (i, key) in banner.iter().enumerate() {
        let profile = if key.starts_with("cossacks") {
            "cossack-cavalry"
        } else {
            "pancerni"
        };
        placed.push(unit(
            key,
            0,
            profile,
            3,
            3,
            (10.0 + 18.0 * i as f32, 60.0),
            0.0,
        ));
    }
    const LEVY_KEYS: [&str; 8] = [
        "levy-1", "levy-2", "levy-3", "levy-4", "levy-5", "levy-6", "levy-7", "levy-8",
    ];
    for (i, key) in LEVY_KEYS.iter().enumerate() {
        placed.push(unit(
            key,
            0,
            "pancerni",
            3,
            3,
            (8.0 + 14.5 * i as f32, 20.0),
            0.0,
        ));
    }
    placed.push(unit(
        "dragoons",
        0,
        "polish-dragoons",
        3,
        3,
        (60.0, 80.0),
        0.0,
    ));
    placed.push(unit("reiters-1", 1, "reiters", 3, 3, (30.0, 110.0), 180.0));
    placed.push(unit("reiters-2", 1, "reiters", 3, 3, (90.0, 110.0), 180.0));
    let mut s = setup(&placed, vec![]);
    s.scenario.rules.level = GameLevel::Division;
    let side = &mut s.scenario.rules.forces[0];
    for (id, name, pct, x) in [
        ("banner", "Banner of the Hetman", 50, 30.0),
        ("levy", "Levy of Nobility", 30, 90.0),
    ] {
        side.regiments.push(RegimentSpec {
            id: id.into(),
            name: name.into(),
            motivation_percent: Some(pct),
            main_force: false,
            allied: false,
        });
        side.commanders.push(CommanderSpec {
            id: format!("colonel-{id}"),
            name: format!("Colonel of the {name}"),
            rank: CommanderRank::Regimental,
            command_points: 2,
            profile: "commander".into(),
            position: (x, 30.0),
            facing: 0.0,
            regiment: Some(id.into()),
            deputy: false,
            coward: false,
            instruction: None,
        });
    }
    for u in side.units.iter_mut() {
        if u.id.starts_with("cossacks") || u.id.starts_with("pancerni") {
            u.regiment = Some("banner".into());
        } else if u.id.starts_with("levy") {
            u.regiment = Some("levy".into());
        }
    }
    s
}

fn division() -> Game {
    let mut g = Bfs::setup(&division_setup(), 1).unwrap_or_else(|e| panic!("setup: {e}"));
    g.turn.initiative = Some(Side::A);
    g
}

fn reorganize(g: &mut Game) -> Vec<Event> {
    let mut events = Vec::new();
    reorganization::run(g, &mut events);
    events
}

fn motivation_tests(events: &[Event]) -> Vec<&sandtable_bfs::event::TestReport> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Test(t) if t.rule == "BFS-PSY-27" => Some(t),
            _ => None,
        })
        .collect()
}

/// Destroys `n` bases of a unit as losses do: off the table, counted.
fn destroy_bases(g: &mut Game, key: &str, n: usize) {
    let u = id(g, key);
    let unit = g.unit_mut(u);
    for _ in 0..n {
        unit.bases.pop();
        unit.bases_destroyed += 1;
    }
    if unit.bases.is_empty() {
        unit.status = UnitStatus::Destroyed;
    }
}

#[test]
fn bfs_psy_25_the_motivation_levels_of_the_book_examples() {
    let g = division();
    // 18 bases × 50 % = 9; 24 bases × 30 % = 7.2 → 7.
    assert_eq!(motivation::starting_bases(&g, BANNER), 18);
    assert_eq!(motivation_level(&g, BANNER), Some(9));
    assert_eq!(motivation::starting_bases(&g, LEVY), 24);
    assert_eq!(motivation_level(&g, LEVY), Some(7));
    // 0.5 rounds up: 5 bases × 50 % = 2.5 → 3; 0.4 down: 7 × 20 % = 1.4 → 1.
    assert_eq!(motivation::round_half_up_percent(5, 50), 3);
    assert_eq!(motivation::round_half_up_percent(7, 20), 1);
}

#[test]
fn bfs_psy_25_no_motivation_below_division_level() {
    let mut s = division_setup();
    s.scenario.rules.level = GameLevel::TaskForce;
    let g = Bfs::setup(&s, 1).unwrap();
    assert_eq!(motivation_level(&g, BANNER), None);
}

#[test]
fn bfs_psy_25_a_division_regiment_needs_its_coefficient() {
    let mut s = division_setup();
    s.scenario.rules.forces[0].regiments[0].motivation_percent = None;
    let err = Bfs::setup(&s, 1).unwrap_err();
    assert!(err.contains("BFS-PSY-25"), "{err}");
    assert!(err.contains("banner"), "{err}");
}

#[test]
fn bfs_psy_26_the_breaking_points_table() {
    let mut g = division();
    assert_eq!(total(&breaking_points(&g, BANNER)), 0);
    // 2 bases destroyed: 1 each.
    destroy_bases(&mut g, "pancerni-1", 2);
    assert_eq!(total(&breaking_points(&g, BANNER)), 2);
    // A 3-base unit fleeing and 2 bases that fled off the table: 5 × ½ = 2.5, rounded up to 3.
    let c1 = id(&g, "cossacks-1");
    g.unit_mut(c1).morale = MoraleLevel::Flight;
    g.unit_mut(id(&g, "cossacks-2")).bases_fled = 2;
    assert_eq!(total(&breaking_points(&g, BANNER)), 2 + 3);
    // Its colonel killed: 2.
    g.commanders[1].status = UnitStatus::Destroyed;
    assert_eq!(total(&breaking_points(&g, BANNER)), 2 + 3 + 2);
    // The Levy (24 bases at the start, 10 or more) Wiped Out: 2 more for the Banner.
    g.regiments[LEVY.index()].wiped_out = true;
    assert_eq!(total(&breaking_points(&g, BANNER)), 2 + 3 + 2 + 2);
    // 4 Swedish bases in good order within 30 cm of the Polish edge (y = 0): 1 more; 3 are not
    // enough.
    let r1 = id(&g, "reiters-1");
    let shift = |g: &mut Game, y: f32| {
        for b in g.unit_mut(r1).bases.iter_mut() {
            *b = Rect::new(Pose::new(Vec2::new(b.center().x, y), b.pose.angle), b.half);
        }
    };
    shift(&mut g, 28.0);
    assert_eq!(total(&breaking_points(&g, BANNER)), 9, "3 bases only");
    let r2 = id(&g, "reiters-2");
    let b = g.unit(r2).bases[0];
    let place = |g: &mut Game, near_edge: f32| {
        let y = near_edge + b.half.y;
        g.unit_mut(r2).bases[0] = Rect::new(Pose::new(Vec2::new(100.0, y), b.pose.angle), b.half);
    };
    // A fourth base whose near edge is 30.01 cm from the Polish edge: still 3.
    place(&mut g, 30.01);
    assert_eq!(total(&breaking_points(&g, BANNER)), 9);
    // At 29.99 cm: 4 bases, 1 more.
    place(&mut g, 29.99);
    assert_eq!(total(&breaking_points(&g, BANNER)), 10);
    // The same reiters Disorganized do not count.
    g.unit_mut(r2).morale = MoraleLevel::Disorganized;
    assert_eq!(total(&breaking_points(&g, BANNER)), 9);
    // The Commander-in-Chief lost: 3.
    g.commanders[0].status = UnitStatus::Destroyed;
    assert_eq!(total(&breaking_points(&g, BANNER)), 12);
    // Each line says what it is for.
    let lines = breaking_points(&g, BANNER);
    assert!(
        lines
            .iter()
            .any(|l| l.points == 3 && l.reason.contains("Commander-in-Chief"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.points == 2 && l.reason.contains("Levy of Nobility"))
    );
}

#[test]
fn bfs_psy_26_a_small_regiment_wiped_out_costs_one_and_the_deputy_one() {
    let mut s = division_setup();
    // A deputy Commander-in-Chief.
    s.scenario.rules.forces[0].commanders[0].deputy = true;
    let mut g = Bfs::setup(&s, 1).unwrap();
    // Shrink the Banner's start to 9 bases: a Wiped Out Regiment below 10 costs 1.
    for key in ["cossacks-1", "cossacks-2", "cossacks-3"] {
        let u = id(&g, key);
        g.unit_mut(u).regiment = None;
    }
    assert_eq!(motivation::starting_bases(&g, BANNER), 9);
    g.regiments[BANNER.index()].wiped_out = true;
    assert_eq!(total(&breaking_points(&g, LEVY)), 1);
    g.commanders[0].status = UnitStatus::Left;
    // The deputy (1) who is also the Commander-in-Chief here (3).
    assert_eq!(total(&breaking_points(&g, LEVY)), 1 + 1 + 3);
}

#[test]
fn bfs_psy_27_the_colonel_tests_when_the_level_is_reached_with_his_cp_and_the_excess() {
    let mut g = division();
    // 8 BP against a Motivation Level of 9: no test.
    destroy_bases(&mut g, "pancerni-1", 3);
    destroy_bases(&mut g, "pancerni-2", 3);
    destroy_bases(&mut g, "cossacks-1", 2);
    let events = reorganize(&mut g);
    assert!(motivation_tests(&events).is_empty());
    assert!(!g.regiments[BANNER.index()].wiped_out);
    // 11 BP (3 above 9), the colonel with 2 CP left: Morale + 2 − 2.
    let mut g = division();
    destroy_bases(&mut g, "pancerni-1", 3);
    destroy_bases(&mut g, "pancerni-2", 3);
    destroy_bases(&mut g, "cossacks-1", 3);
    destroy_bases(&mut g, "cossacks-2", 2);
    assert_eq!(total(&breaking_points(&g, BANNER)), 11);
    let events = reorganize(&mut g);
    let tests = motivation_tests(&events);
    assert_eq!(tests.len(), 1, "one test for the Banner, none for the Levy");
    let t = tests[0];
    assert_eq!(t.kind, TestKind::Morale);
    assert_eq!(t.commander, Some(sandtable_bfs::ids::CommanderId(1)));
    let mods: Vec<i32> = t.roll.modifiers.iter().map(|m| m.delta).collect();
    assert_eq!(mods, vec![2, -2]);
    let colonel_morale = g.profile(g.commanders[1].profile).morale as i32;
    assert_eq!(t.roll.base_target, colonel_morale);
}

#[test]
fn bfs_psy_27_at_least_as_many_by_default_more_than_under_the_option() {
    let test_at_nine = |exceeded: bool| {
        let mut s = division_setup();
        if exceeded {
            s.scenario
                .options
                .insert("motivation_when_exceeded".into(), OptionValue::Bool(true));
        }
        let mut g = Bfs::setup(&s, 1).unwrap();
        g.turn.initiative = Some(Side::A);
        destroy_bases(&mut g, "pancerni-1", 3);
        destroy_bases(&mut g, "pancerni-2", 3);
        destroy_bases(&mut g, "cossacks-1", 3);
        assert_eq!(total(&breaking_points(&g, BANNER)), 9);
        motivation_tests(&reorganize(&mut g)).len()
    };
    assert_eq!(test_at_nine(false), 1, "AMB-03: 9 BP reach a level of 9");
    assert_eq!(
        test_at_nine(true),
        0,
        "the quick reference: 9 does not exceed 9"
    );
}

#[test]
fn bfs_psy_28_a_failed_test_wipes_out_the_regiment_and_its_loss_shakes_the_next() {
    let mut g = division();
    // 15 BP, 6 above its level of 9, and no CP left: the colonel's Morale of 6 − 6 is below 1,
    // so the test fails without a roll (BFS-PSY-2).
    for key in [
        "pancerni-1",
        "pancerni-2",
        "cossacks-1",
        "cossacks-2",
        "cossacks-3",
    ] {
        destroy_bases(&mut g, key, 3);
    }
    // The Levy has lost 6 of its 24 bases: 6 BP against 7; the Banner's fall (18 bases at the
    // start) adds 2, so the Levy must test in the same phase (a chain reaction).
    destroy_bases(&mut g, "levy-1", 3);
    destroy_bases(&mut g, "levy-2", 3);
    g.commanders[1].cp = 0;
    let events = reorganize(&mut g);
    assert!(g.regiments[BANNER.index()].wiped_out);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::RegimentWipedOut { regiment, rule, .. } if *regiment == BANNER && rule == "BFS-PSY-28"
    )));
    let tests = motivation_tests(&events);
    assert_eq!(tests.len(), 2, "the Banner, then the Levy");
    assert!(!tests[0].roll.passed);
    assert!(
        tests[1].cause.contains("8 Breaking Points"),
        "{}",
        tests[1].cause
    );
    // The Banner's last unit flees, its colonel flees and does not rally.
    let c4 = id(&g, "cossacks-4");
    assert_eq!(g.unit(c4).morale, MoraleLevel::Flight);
    assert!(g.commanders[1].fleeing);
    // The next Orders Phase: it can never be rallied.
    g.turn.phase = Phase::Orders {
        acting: Side::A,
        second: false,
    };
    let refused = Bfs::legal(
        &g,
        &Command::Rally {
            unit: c4,
            by: sandtable_bfs::ids::CommanderId(0),
            extra_cp: 0,
        },
    )
    .unwrap_err();
    assert_eq!(refused.rule, "BFS-PSY-28");
    // The next Reorganization Phase: the colonel still flees.
    reorganize(&mut g);
    assert!(g.commanders[1].fleeing);
}

#[test]
fn bfs_psy_30_an_allied_regiment_leaves_when_the_commander_in_chief_falls() {
    let mut s = division_setup();
    s.scenario.rules.forces[0].regiments[1].allied = true;
    let mut g = Bfs::setup(&s, 1).unwrap();
    g.turn.initiative = Some(Side::A);
    g.commanders[0].status = UnitStatus::Destroyed;
    let events = reorganize(&mut g);
    assert!(g.regiments[LEVY.index()].wiped_out);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::RegimentWipedOut { regiment, rule, .. } if *regiment == LEVY && rule == "BFS-PSY-30"
    )));
    // The Banner is not allied: 3 BP for the Commander-in-Chief and 2 for the Levy are 5, below
    // its 9.
    assert!(!g.regiments[BANNER.index()].wiped_out);
}

#[test]
fn bfs_psy_30_independent_units_that_see_a_regiment_wiped_out_test_morale() {
    let mut g = division();
    let dragoons = id(&g, "dragoons");
    let mut events = Vec::new();
    motivation::wipe_out(&mut g, BANNER, "a test", "BFS-PSY-28", &mut events);
    let tested: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Test(t) if t.rule == "BFS-PSY-30" => t.unit,
            _ => None,
        })
        .collect();
    // The dragoons, facing away from the Banner behind them, see it all round for this purpose;
    // the Levy's units belong to a Regiment and have their own Motivation.
    assert_eq!(tested, vec![dragoons]);
}

#[test]
fn bfs_psy_22_a_side_whose_regiments_are_all_wiped_out_has_lost() {
    let mut g = division();
    let mut events = Vec::new();
    motivation::wipe_out(&mut g, BANNER, "a test", "BFS-PSY-28", &mut events);
    motivation::wipe_out(&mut g, LEVY, "a test", "BFS-PSY-28", &mut events);
    let events = reorganize(&mut g);
    assert_eq!(g.turn.phase, Phase::GameOver);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::GameOver(v) if v.reason.contains("every Regiment")
    )));
}

#[test]
fn bfs_psy_29_a_garrison_holds_out_after_its_regiment_is_wiped_out() {
    let (mut held, mut lost) = (0, 0);
    for seed in 1..=20 {
        let mut s = division_setup();
        for u in s.scenario.rules.forces[0].units.iter_mut() {
            if u.id == "dragoons" {
                u.regiment = Some("banner".into());
            }
        }
        s.scenario
            .terrain
            .push(sandtable_engine::scenario::TerrainSpec {
                kind: sandtable_engine::scenario::TerrainKind::Building,
                name: Some("Inn".into()),
                shape: sandtable_engine::scenario::ShapeSpec::Rect {
                    center: (60.0, 90.0),
                    size: (6.0, 6.0),
                    rotation: 0.0,
                },
            });
        let mut g = Bfs::setup(&s, seed).unwrap();
        g.turn.initiative = Some(Side::A);
        // The dragoons hold the inn.
        let d = id(&g, "dragoons");
        let fp = sandtable_bfs::building::footprint(&g, 0).unwrap();
        g.unit_mut(d).garrison = Some(0);
        g.unit_mut(d).bases = sandtable_bfs::building::garrison_rects(&fp, 3);
        let mut events = Vec::new();
        motivation::wipe_out(&mut g, BANNER, "a test", "BFS-PSY-28", &mut events);
        // They do not flee with the rest.
        assert_eq!(g.unit(d).morale, MoraleLevel::Good);
        assert_eq!(g.unit(d).garrison, Some(0));
        assert_eq!(g.unit(id(&g, "cossacks-1")).morale, MoraleLevel::Flight);
        // Each Reorganization Phase they test; a failure costs 2 SP.
        let sp = sandtable_bfs::losses::sp_left(&g, d);
        let events = reorganize(&mut g);
        let t = events
            .iter()
            .find_map(|e| match e {
                Event::Test(t) if t.rule == "BFS-PSY-29" => Some(t),
                _ => None,
            })
            .expect("a hold-out test");
        assert_eq!(t.unit, Some(d));
        let after = sandtable_bfs::losses::sp_left(&g, d);
        if t.roll.passed {
            assert_eq!(after, sp);
            held += 1;
        } else {
            assert_eq!(after, sp - 2);
            lost += 1;
        }
    }
    assert!(held > 0 && lost > 0, "{held} held, {lost} lost");
}

/// BFS-ART-20: a gun of the Division's artillery (no Regiment: no Motivation of its own) that
/// sees, all round, a Regiment of its side Wiped Out tests its crew's Morale; a failed test
/// destroys the crew (BFS-ART-1).
#[test]
fn bfs_art_20_divisional_guns_test_when_a_regiment_is_wiped_out() {
    let mut s = division_setup();
    s.scenario.rules.forces[0].units.push(UnitSpec {
        id: "falconet".into(),
        name: Some("Falconet of the Division".into()),
        profile: "falconet".into(),
        regiment: None,
        formation: FormationSpec::Column,
        bases: 1,
        position: (110.0, 95.0),
        facing: 0.0,
        reserve: false,
        carries: None,
        garrison: None,
        additional_crew: false,
        fortified: false,
        extra_rules: vec![],
        delayed: None,
        pillage: None,
    });
    let mut g = Bfs::setup(&s, 1).unwrap_or_else(|e| panic!("setup: {e}"));
    let gun = id(&g, "falconet");
    g.dice.script([1, 10, 10, 10, 10]);
    let mut events = Vec::new();
    motivation::wipe_out(&mut g, BANNER, "a test", "BFS-PSY-28", &mut events);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Test(t) if t.rule == "BFS-PSY-30" && t.unit == Some(gun) && !t.roll.passed)),
        "{events:#?}"
    );
    assert_eq!(
        g.unit(gun).status,
        UnitStatus::Destroyed,
        "the crew is lost"
    );
}
