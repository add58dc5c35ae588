//! War Wagon Trains, the tabor (BFS-WAG-12..17, BFS-WAG-20, BFS-WAG-21).

mod support;

use sandtable_bfs::command::SpecialManeuver;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::Side;
use sandtable_bfs::losses;
use sandtable_bfs::shooting::{self, FireStage};
use sandtable_bfs::state::{MoraleLevel, OrderKind, UnitStatus};
use sandtable_bfs::turn::CombatStage;
use sandtable_bfs::wagon::train::{self, WarWagon};
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use support::*;

/// A Polish train of three war wagons facing east, wagons x = 60..66, 54..60, 48..54 and
/// y = 58..62: its long sides face north and south.
fn train_of_three(more: &[Placed]) -> Game {
    let mut units = vec![unit("tabor", 0, "war-wagon", 3, 1, (66.0, 60.0), 90.0)];
    units.extend(more.iter().map(|p| Placed { ..*p }));
    game(&units)
}

fn wagons(g: &Game) -> Vec<WarWagon> {
    g.unit(id(g, "tabor"))
        .train
        .as_ref()
        .unwrap()
        .wagons
        .clone()
}

fn resolutions(events: &[Event]) -> Vec<&sandtable_bfs::event::ResolutionReport> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CombatResolved(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// BFS-WAG-13: every wagon starts with 2 structure SP and its profile's 3 crew SP; the train's
/// Strength is its crews'.
#[test]
fn bfs_wag_13_two_tracks_per_wagon() {
    let g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0)]);
    assert_eq!(
        wagons(&g),
        vec![
            WarWagon {
                structure: 2,
                crew: 3
            };
            3
        ]
    );
    assert_eq!(losses::sp_left(&g, id(&g, "tabor")), 9);
    assert_eq!(train::resolution_bases(&g, id(&g, "tabor")), Some(6));
}

/// BFS-WAG-13, BFS-WAG-15: each hit of a volley at a train is tested twice, against the crew's
/// Armor (5) and the wagon's (13), both less the musket's effectiveness of 3 at effective range:
/// the wagon holds on 10, always. The losses land on the wagon nearest the shooter. Here 2 hits:
/// both crew tests fail (9, 9 against 5 − 3 = 2).
#[test]
fn bfs_wag_13_a_volley_tests_crew_and_wagon() {
    let mut g = train_of_three(&[unit(
        "musketeers",
        1,
        "musketeers",
        4,
        4,
        (51.0, 72.0),
        180.0,
    )]);
    set_order(&mut g, "musketeers", Some(OrderKind::Defense));
    g.dice.script([1, 1, 9, 9, 9, 9, 9, 9, 1, 1]);
    let mut events = Vec::new();
    shooting::resolve_stage(&mut g, FireStage::DefendersFire, &mut events);
    let v = events
        .iter()
        .find_map(|e| match e {
            Event::Volley(v) => Some(v),
            _ => None,
        })
        .expect("a volley");
    assert_eq!(v.hits, 2, "{events:?}");
    assert_eq!(v.structure.len(), 1);
    assert_eq!(
        v.structure[0].target,
        13 + v.structure[0]
            .modifiers
            .iter()
            .map(|m| m.delta)
            .sum::<i32>()
    );
    assert!(
        v.structure[0]
            .modifiers
            .iter()
            .all(|m| m.rule == "BFS-SHO-15"),
        "{:?}",
        v.structure[0]
    );
    assert_eq!(
        v.structure[0].target, 10,
        "13 less the musket's effectiveness 3"
    );
    assert_eq!(v.structure_lost, 0);
    // The musketeers stand over the western wagons (x 45..57): wagon 2 (x 48..54) is nearest.
    let w = wagons(&g);
    assert_eq!(w[2].crew, 1, "{w:?}");
    assert_eq!((w[0].crew, w[1].crew), (3, 3));
}

/// BFS-WAG-15, BFS-WAG-21 case 3, BFS-WAG-17: reiters against the train's long side. The blows
/// land wagon by wagon on the crews; a crewed wagon counts as 2 bases (6 against 3: +2), the
/// reiters get no flank bonus, and the beaten train does not withdraw: a failed Morale test costs
/// a crew SP instead.
#[test]
fn bfs_wag_15_close_combat_wagon_by_wagon() {
    let mut g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (60.0, 62.0), 180.0)]);
    let (t, r) = (id(&g, "tabor"), id(&g, "reiters"));
    at_combat(&mut g, CombatStage::CloseCombat);
    let before = g.unit(t).bases.clone();
    let events = run(&mut g, Command::Continue);
    let on_train: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Melee(m) if m.attacker == r => Some(m),
            _ => None,
        })
        .collect();
    assert_eq!(
        on_train.len(),
        2,
        "one pool for each wagon struck: {events:?}"
    );
    let res = resolutions(&events);
    let a = &res[0].sides[Side::A.index()];
    assert!(
        a.modifiers.iter().any(|m| m.rule == "BFS-CC-20"
            && m.delta == 2
            && m.reason.contains("6 bases against 3")),
        "{:?}",
        a.modifiers
    );
    let b = &res[0].sides[Side::B.index()];
    assert!(!b.modifiers.iter().any(|m| m.reason.contains("flank")));
    assert_eq!(g.unit(t).bases, before, "a train never withdraws");
    assert_eq!(g.unit(t).morale, MoraleLevel::Good, "never Disorganized");
    assert!(!events.iter().any(|e| matches!(e, Event::Pursued { .. })));
}

/// BFS-WAG-17: a failed Morale test costs 1 crew SP, one failed by 5 or more 2, from the wagons
/// with most crew; the train never flees.
#[test]
fn bfs_wag_17_morale_costs_crews() {
    let mut g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0)]);
    let t = id(&g, "tabor");
    let cause = sandtable_bfs::morale::MoraleCause::Other {
        rule: "BFS-PSY-3",
        reason: "a test".into(),
    };
    let mut events = Vec::new();
    g.dice.script([7]); // Morale 5: failed by 2
    sandtable_bfs::flight::test_and_apply(&mut g, t, &cause, &mut events);
    assert_eq!(losses::sp_left(&g, t), 8);
    g.dice.script([10]); // failed by 5
    sandtable_bfs::flight::test_and_apply(&mut g, t, &cause, &mut events);
    assert_eq!(losses::sp_left(&g, t), 6);
    assert_eq!(g.unit(t).morale, MoraleLevel::Good);
    let w = wagons(&g);
    assert!(
        w.iter().all(|w| w.crew == 2),
        "spread over the fullest crews: {w:?}"
    );
}

/// BFS-WAG-14: 2 Special Maneuvers connect the train; connected, it moves 5 cm and never
/// marches.
#[test]
fn bfs_wag_14_connecting_the_train() {
    let mut g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0)]);
    let t = id(&g, "tabor");
    set_order(&mut g, "tabor", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    run(
        &mut g,
        Command::Maneuver {
            unit: t,
            maneuvers: vec![SpecialManeuver::ConnectWagons],
        },
    );
    assert!(g.unit(t).train.as_ref().unwrap().connected);
    assert_eq!(g.unit(t).flags.special_maneuvers, 2);
    assert_eq!(sandtable_bfs::phases::movement::allowance(&g, t), 5.0);
}

/// BFS-WAG-16, BFS-WAG-6: a train whose every crew is gone is taken like transport wagons.
#[test]
fn bfs_wag_16_a_train_without_crews_is_taken() {
    let mut g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (60.0, 62.0), 180.0)]);
    let t = id(&g, "tabor");
    for w in g.unit_mut(t).train.as_mut().unwrap().wagons.iter_mut() {
        w.crew = 0;
    }
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    assert!(
        !events.iter().any(|e| matches!(e, Event::Melee(_))),
        "{events:?}"
    );
    assert_eq!(g.unit(t).side, Side::B);
}

/// BFS-WAG-20 C, BFS-WAG-21 case 1: beaten, a train loses the unmanned wagons the enemy touches;
/// nobody rolls against an empty wagon.
#[test]
fn bfs_wag_20_unmanned_wagons_in_contact_are_destroyed() {
    // Reiters over wagons 0 and 1 only (x 56..68).
    let mut g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (62.0, 62.0), 180.0)]);
    let (t, r) = (id(&g, "tabor"), id(&g, "reiters"));
    // Wagon 0 has lost its crew; wagon 1 has 1 SP of crew left.
    {
        let tr = g.unit_mut(t).train.as_mut().unwrap();
        tr.wagons[0].crew = 0;
        tr.wagons[1].crew = 1;
    }
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    let struck: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, Event::Melee(m) if m.attacker == r))
        .collect();
    assert_eq!(
        struck.len(),
        1,
        "only the crewed wagon is struck: {events:?}"
    );
    let res = resolutions(&events);
    if res[0].winner == Some(Side::B) {
        // Wagon 0, and wagon 1 too if the reiters killed its last crewman.
        let w = wagons(&g);
        assert!(
            g.unit(t).bases.len() <= 2,
            "the empty wagon in contact is gone"
        );
        assert!(
            w.iter().all(|w| w.crew > 0) || g.unit(t).bases.len() == 1,
            "{w:?}"
        );
        assert_eq!(g.unit(t).status, UnitStatus::OnTable);
    }
}

/// BFS-WAG-12: a train stands in a Column, and there are no more trains than commanders at
/// Skirmish level.
#[test]
fn bfs_wag_12_organisation() {
    let mut s = setup(
        &[
            unit("tabor", 0, "war-wagon", 3, 1, (66.0, 60.0), 90.0),
            unit("tabor-2", 0, "war-wagon", 2, 1, (30.0, 60.0), 90.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![],
    );
    let err = Bfs::setup(&s, 1).expect_err("two trains, one commander");
    assert!(err.to_string().contains("BFS-WAG-12"), "{err}");
    s.scenario.rules.forces[0].units.pop();
    assert!(Bfs::setup(&s, 1).is_ok());
}

/// BFS-WAG-18: infantry with a Defense order behind the train fights across it as behind an
/// obstacle: +2 against cavalry, which replaces the wagons' own +1 (BFS-WAG-15).
#[test]
fn bfs_wag_18_infantry_defends_behind_the_train() {
    let mut g = train_of_three(&[
        unit("reiters", 1, "reiters", 3, 3, (60.0, 62.0), 180.0),
        // Haiduks against the train's south side, facing north (x 54..66, y 56..58).
        unit("haiduks", 0, "haiduks", 3, 3, (60.0, 58.0), 0.0),
    ]);
    let h = id(&g, "haiduks");
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    set_order(&mut g, "tabor", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Melee(m) if m.attacker == h)),
        "the haiduks strike across the wagons: {events:?}"
    );
    let res = resolutions(&events);
    let a = &res[0].sides[Side::A.index()];
    assert!(a.units.contains(&h));
    assert!(
        a.modifiers
            .iter()
            .any(|m| m.rule == "BFS-WGN-5" && m.delta == 2),
        "{:?}",
        a.modifiers
    );
    assert!(!a.modifiers.iter().any(|m| m.rule == "BFS-WAG-15"));
}

/// BFS-WAG-15: wagons with a Defense order get +1 in the Combat Resolution against cavalry.
#[test]
fn bfs_wag_15_defending_wagons_against_cavalry() {
    let mut g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (60.0, 62.0), 180.0)]);
    set_order(&mut g, "tabor", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    let res = resolutions(&events);
    let a = &res[0].sides[Side::A.index()];
    assert!(
        a.modifiers
            .iter()
            .any(|m| m.rule == "BFS-WAG-15" && m.delta == 1),
        "{:?}",
        a.modifiers
    );
}

/// BFS-WAG-19: infantry of Skill 4 or more with a Defense order, within 10 cm of its own train's
/// abandoned wagon, mans it: 1 Special Maneuver and 1 CP; the wagon has a crew of 3 again, and
/// the haiduks give 3 SP (one base of their 4).
#[test]
fn bfs_wag_19_manning_an_abandoned_wagon() {
    let mut g = train_of_three(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 50.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
    ]);
    let (t, h) = (id(&g, "tabor"), id(&g, "haiduks"));
    g.unit_mut(t).train.as_mut().unwrap().wagons[1].crew = 0;
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    // The colonel stands by them, within his command range.
    g.commanders[0].base = sandtable_geometry::Rect::new(
        sandtable_geometry::Pose::new(sandtable_geometry::Vec2::new(40.0, 45.0), 0.0),
        sandtable_geometry::Vec2::new(1.5, 1.5),
    );
    let man = |wagon: u8| Command::Maneuver {
        unit: h,
        maneuvers: vec![SpecialManeuver::ManWagon {
            train: t,
            wagon,
            by: sandtable_bfs::ids::CommanderId(0),
        }],
    };
    assert_eq!(
        Bfs::legal(&g, &man(0)).unwrap_err().rule,
        "BFS-WAG-19",
        "wagon #1 still has its crew"
    );
    let cp = g.commanders[0].cp;
    run(&mut g, man(1));
    assert_eq!(wagons(&g)[1].crew, 3);
    assert_eq!(losses::sp_left(&g, h), 4 * 3 - 3);
    assert_eq!(g.commanders[0].cp, cp - 1);
    assert_eq!(g.unit(h).flags.special_maneuvers, 1);
}

/// BFS-WAG-17: a train never flees (a drawn combat's withdrawal cannot push it into flight),
/// and a failed Skill test (after passing through friends, say) neither Disorganizes it nor costs
/// it crew: only failed Morale tests do.
#[test]
fn bfs_wag_17_never_flees_and_skill_tests_cost_nothing() {
    let mut g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (60.0, 62.0), 180.0)]);
    let t = id(&g, "tabor");
    let before = g.unit(t).bases.clone();
    let mut events = Vec::new();
    sandtable_bfs::flight::flee(
        &mut g,
        t,
        sandtable_geometry::Vec2::new(0.0, -1.0),
        10.0,
        "a test",
        &mut events,
    );
    assert_eq!(g.unit(t).bases, before);
    assert_eq!(g.unit(t).morale, MoraleLevel::Good);
    g.dice.script([10]);
    let (passed, _) = sandtable_bfs::skill::test_or_disorganized(
        &mut g,
        t,
        "BFS-AMV-3",
        "a test".into(),
        &mut events,
    );
    assert!(!passed);
    assert_eq!(losses::sp_left(&g, t), 9);
    assert_eq!(g.unit(t).morale, MoraleLevel::Good);
}

/// BFS-WAG-12: a middle wagon destroyed leaves the train in two parts; at the start of its
/// Movement Phase the rear part closes up towards the front, 6 cm here (a wagon's length, within
/// the 10 cm Move), and the train is whole again.
#[test]
fn bfs_wag_12_a_train_cut_in_two_closes_up() {
    let mut g = train_of_three(&[unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0)]);
    let t = id(&g, "tabor");
    let mut events = Vec::new();
    assert!(train::structure_losses(&mut g, t, 1, 2, &mut events));
    assert_eq!(g.unit(t).train.as_ref().unwrap().cut_at, Some(1));
    let gap =
        sandtable_geometry::distance::set_distance(&g.unit(t).bases[..1], &g.unit(t).bases[1..])
            .unwrap();
    assert!((gap - 6.0).abs() < 0.01, "{gap}");
    at_movement(&mut g, Side::A, false);
    train::close_up(&mut g, Side::A, &mut events);
    assert_eq!(g.unit(t).train.as_ref().unwrap().cut_at, None);
    let gap =
        sandtable_geometry::distance::set_distance(&g.unit(t).bases[..1], &g.unit(t).bases[1..])
            .unwrap();
    assert!(gap < 0.01, "{gap}");
    assert!(
        g.unit(t).flags.activated,
        "closing up is all it does this phase"
    );
}

/// BFS-WAG-23 (with BFS-SCN-33): Panic that falls on a wagon train costs each of its wagons 1
/// crew SP; the train is not Disorganized.
#[test]
fn bfs_wag_23_panic_on_a_train_costs_each_wagon_one_sp() {
    let mut s = setup(
        &[
            unit("tabor", 0, "war-wagon", 3, 1, (66.0, 60.0), 90.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![],
    );
    // Panic against the Poles, whose only unit is the train.
    s.scenario.rules.pre_battle.panic = vec![0];
    let mut g = Bfs::setup(&s, 1).unwrap();
    let mut events = Vec::new();
    sandtable_bfs::turn_one::at_first_movement(&mut g, &mut events);
    assert!(wagons(&g).iter().all(|w| w.crew == 2), "{:?}", wagons(&g));
    assert_eq!(g.unit(id(&g, "tabor")).morale, MoraleLevel::Good);
    // A battle recorded under revision 11 replays as it was played: 1 SP in all.
    let mut old = Bfs::setup(&s, 1).unwrap();
    old.info.options.rules_revision = 11;
    sandtable_bfs::turn_one::at_first_movement(&mut old, &mut Vec::new());
    let crew: u32 = wagons(&old).iter().map(|w| w.crew as u32).sum();
    assert_eq!(crew, 8);
}
