//! Transport and ammunition wagons (BFS-WAG-1..11, BFS-WGN-1..8, BFS-AMM-5, BFS-AMM-8).

mod support;

use sandtable_bfs::ammunition::Supply;
use sandtable_bfs::command::SpecialManeuver;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::losses::{self, LossCause};
use sandtable_bfs::profile::SpecialRule;
use sandtable_bfs::shooting::FireStage;
use sandtable_bfs::state::{MoraleLevel, OrderKind, UnitStatus};
use sandtable_bfs::turn::CombatStage;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::OptionValue;
use support::*;

fn refusal(g: &Game, cmd: Command) -> String {
    Bfs::legal(g, &cmd)
        .err()
        .unwrap_or_else(|| panic!("{cmd:?} was allowed"))
        .rule
        .clone()
}

fn rulings<'a>(events: &'a [Event], rule: &str) -> Vec<&'a str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Ruling { rule: r, text } if r == rule => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// A Swedish transport wagon (side B, 4 × 6 cm) with its front at y = 60, facing south, and
/// Polish pancerni (side A) whose front touches it.
fn pancerni_at_wagon() -> Game {
    game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 60.0), 0.0),
        unit("wagon", 1, "transport-wagon", 1, 1, (60.0, 60.0), 180.0),
    ])
}

/// BFS-WAG-3: the rulebook's two wagon profiles, as the army lists carry them.
#[test]
fn bfs_wag_3_wagon_profiles_as_the_book_prints_them() {
    for list in armies() {
        let t = list
            .profiles
            .iter()
            .find(|p| p.id == "transport-wagon")
            .unwrap();
        assert_eq!(
            (
                t.movement.basic,
                t.armor,
                t.morale,
                t.skill,
                t.close_combat,
                t.shooting,
                t.strength
            ),
            (10.0, 10, 4, 3, 0, 0, 2)
        );
        let a = list
            .profiles
            .iter()
            .find(|p| p.id == "ammunition-wagon")
            .unwrap();
        assert_eq!(
            (
                a.movement.basic,
                a.armor,
                a.morale,
                a.skill,
                a.close_combat,
                a.shooting,
                a.strength
            ),
            (10.0, 8, 4, 3, 0, 0, 1)
        );
        assert!(a.has(SpecialRule::AmmunitionWagon) && !t.has(SpecialRule::AmmunitionWagon));
    }
}

/// BFS-WAG-2: wagons take any order but a Charge.
#[test]
fn bfs_wag_2_wagons_take_any_order_but_a_charge() {
    let mut g = game(&[
        unit("wagon", 0, "transport-wagon", 1, 1, (20.0, 20.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
    ]);
    at_orders(&mut g, Side::A);
    let w = id(&g, "wagon");
    let order = |order| Command::IssueOrder {
        unit: w,
        order,
        by: CommanderId(0),
    };
    assert_eq!(refusal(&g, order(OrderKind::Charge)), "BFS-WAG-2");
    for o in [OrderKind::Move, OrderKind::Defense] {
        assert!(Bfs::legal(&g, &order(o)).is_ok(), "{o:?}");
    }
}

/// BFS-WAG-1: wagons stay in Column and may not Reform; BFS-WGN-7: their lost SP never come
/// back.
#[test]
fn bfs_wag_1_column_only_and_bfs_wgn_7_never_reorganized() {
    let mut g = game(&[
        unit("wagon", 0, "transport-wagon", 1, 1, (20.0, 20.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
    ]);
    let w = id(&g, "wagon");
    g.unit_mut(w).order = Some(OrderKind::Defense);
    at_movement(&mut g, Side::A, false);
    let reform = Command::Maneuver {
        unit: w,
        maneuvers: vec![SpecialManeuver::Reform {
            files: 1,
            degrees: 90.0,
        }],
    };
    assert_eq!(refusal(&g, reform), "BFS-WAG-1");
    let disperse = Command::Maneuver {
        unit: w,
        maneuvers: vec![SpecialManeuver::Disperse],
    };
    assert_eq!(refusal(&g, disperse), "BFS-WAG-1");
    let mut g = game(&[
        unit("wagon", 0, "transport-wagon", 1, 1, (20.0, 20.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
    ]);
    g.unit_mut(w).casualty_markers = 1;
    at_orders(&mut g, Side::A);
    assert_eq!(
        refusal(
            &g,
            Command::Reorganize {
                unit: w,
                by: CommanderId(0)
            }
        ),
        "BFS-WGN-7"
    );
}

/// BFS-WAG-1: wagons have no crew, so no Morale test touches them.
#[test]
fn bfs_wag_1_no_morale_test_touches_a_wagon() {
    let mut g = pancerni_at_wagon();
    let w = id(&g, "wagon");
    let mut events = Vec::new();
    let cause = sandtable_bfs::morale::MoraleCause::Other {
        rule: "BFS-PSY-3",
        reason: "a test".into(),
    };
    sandtable_bfs::flight::test_and_apply(&mut g, w, &cause, &mut events);
    assert!(events.is_empty(), "{events:?}");
    sandtable_bfs::flight::apply_level(&mut g, w, MoraleLevel::Flight, "a test", None, &mut events);
    assert_eq!(g.unit(w).morale, MoraleLevel::Good);
}

/// BFS-WAG-6, BFS-WAG-8, BFS-WGN-4: wagons nobody defends do not fight back and lose at once;
/// the winner takes them over; the attacker loses its Charge order, does not pursue, and
/// withdraws from them.
#[test]
fn bfs_wag_6_wagons_lose_at_once_and_are_taken() {
    let mut g = pancerni_at_wagon();
    let (p, w) = (id(&g, "pancerni"), id(&g, "wagon"));
    g.unit_mut(p).order = Some(OrderKind::Charge);
    at_combat(&mut g, CombatStage::CloseCombat);
    g.dice.script([]);
    let events = run(&mut g, Command::Continue);
    assert!(!rulings(&events, "BFS-WAG-6").is_empty(), "{events:?}");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Melee(_) | Event::CombatResolved(_))),
        "no blows, no resolution"
    );
    assert!(events.iter().any(
        |e| matches!(e, Event::WagonTaken { wagon, side } if *wagon == w && *side == Side::A)
    ));
    assert_eq!(g.unit(w).side, Side::A);
    assert_eq!(g.unit(w).status, UnitStatus::OnTable);
    assert_eq!(g.unit(p).order, None, "the Charge order is lost");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Withdrew { unit, distance_cm, .. } if *unit == p && (*distance_cm - 10.0).abs() < 0.01)),
        "the pancerni withdraw half their 20 cm Move"
    );
    assert!(!events.iter().any(|e| matches!(e, Event::Pursued { .. })));
    let report = sandtable_bfs::victory::report(&g, "test");
    assert_eq!(
        (
            report.sides[0].bases_destroyed,
            report.sides[1].bases_destroyed
        ),
        (0, 1),
        "the wagon counts among the Swedes' losses"
    );
}

/// BFS-WAG-6: the winner may choose to destroy the wagons it could take: chosen in its
/// Movement Phase, the wagon is destroyed, not taken.
#[test]
fn bfs_wag_6_the_winner_may_destroy_instead() {
    let mut g = pancerni_at_wagon();
    let (p, w) = (id(&g, "pancerni"), id(&g, "wagon"));
    g.unit_mut(p).order = Some(OrderKind::Charge);
    at_movement(&mut g, Side::B, false);
    assert_eq!(
        refusal(&g, Command::BurnWagons { unit: p }),
        "BFS-WAG-6",
        "not its side's phase"
    );
    at_movement(&mut g, Side::A, false);
    run(&mut g, Command::BurnWagons { unit: p });
    assert_eq!(
        refusal(&g, Command::BurnWagons { unit: p }),
        "BFS-WAG-6",
        "once is enough"
    );
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    assert_eq!(g.unit(w).status, UnitStatus::Destroyed, "{events:?}");
    assert_eq!(g.unit(w).side, Side::B);
    assert!(!events.iter().any(|e| matches!(e, Event::WagonTaken { .. })));
}

/// BFS-WGN-5: a wagon still touching an enemy unit cannot be taken over: it is destroyed.
#[test]
fn bfs_wgn_5_a_wagon_touching_its_own_troops_is_destroyed() {
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 60.0), 0.0),
        unit("wagon", 1, "transport-wagon", 1, 1, (60.0, 60.0), 180.0),
        // Musketeers with a Move order (not defending) touching the wagon's rear.
        unit("musketeers", 1, "musketeers", 3, 3, (60.0, 66.0), 180.0),
    ]);
    let w = id(&g, "wagon");
    set_order(&mut g, "musketeers", Some(OrderKind::Move));
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    assert_eq!(g.unit(w).status, UnitStatus::Destroyed, "{events:?}");
    assert!(events.iter().any(
        |e| matches!(e, Event::UnitDestroyed { unit, rule, .. } if *unit == w && rule == "BFS-WGN-5")
    ));
}

/// BFS-WGN-5, BFS-WAG-7: infantry with a Defense order behind the charged wagon fights across
/// it, defending an obstacle (+2 against cavalry; the cavalry −2 to hit, no Impetus), and nobody
/// pursues. Here the musketeers win: 1 SP to none, 3 : 0 with the +2.
#[test]
fn bfs_wgn_5_infantry_defends_from_behind_the_wagon() {
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 60.0), 0.0),
        unit("wagon", 1, "transport-wagon", 1, 1, (60.0, 60.0), 180.0),
        unit("musketeers", 1, "musketeers", 3, 3, (60.0, 66.0), 180.0),
    ]);
    let (p, w, m) = (id(&g, "pancerni"), id(&g, "wagon"), id(&g, "musketeers"));
    set_order(&mut g, "musketeers", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::CloseCombat);
    g.dice.script([
        // Pancerni: the one base touching the wagon, 2 dice at Skill 4 − 2: both miss.
        9, 9, //
        // Musketeers: the one base touching the wagon, 1 die at Skill 4: a hit; the
        // pancerni's Armor 5 fails.
        1, 9, //
        // The pancerni test Morale.
        1, 1, 1, 1, 1, 1,
    ]);
    let events = run(&mut g, Command::Continue);
    let melee: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Melee(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(melee.len(), 2, "{events:?}");
    let theirs = melee.iter().find(|r| r.attacker == p).unwrap();
    assert_eq!(
        theirs.target, m,
        "the pancerni strike the musketeers across the wagon"
    );
    assert_eq!(theirs.groups.iter().map(|g| g.bases).sum::<u32>(), 1);
    let mods: Vec<_> = theirs.groups[0]
        .roll
        .plan
        .modifiers
        .iter()
        .map(|m| (m.rule.as_str(), m.delta))
        .collect();
    assert!(mods.contains(&("BFS-TER-11", -2)), "{mods:?}");
    assert!(
        !mods.iter().any(|(r, _)| *r == "BFS-CC-14"),
        "no Impetus against wagons"
    );
    let ours = melee.iter().find(|r| r.attacker == m).unwrap();
    assert_eq!(ours.target, p);
    let res = events
        .iter()
        .find_map(|e| match e {
            Event::CombatResolved(r) => Some(r),
            _ => None,
        })
        .unwrap();
    let b = &res.sides[Side::B.index()];
    assert!(
        b.units == vec![m],
        "the wagon neither counts nor fights: {:?}",
        b.units
    );
    assert!(
        b.modifiers
            .iter()
            .any(|x| x.rule == "BFS-WGN-5" && x.delta == 2)
    );
    assert_eq!((res.sides[0].total, b.total), (0, 3));
    assert_eq!(res.winner, Some(Side::B));
    assert!(!events.iter().any(|e| matches!(e, Event::Pursued { .. })));
    assert_eq!(g.unit(w).side, Side::B, "the wagon stays theirs");
}

/// BFS-WAG-5, BFS-WGN-3: infantry touching a wagon climbs onto it to shoot when both hold a
/// Defense order, with its first rank only; otherwise the wagon blocks its fire. Behind it, the
/// infantry has Armor 4.
#[test]
fn bfs_wag_5_infantry_shoots_from_the_wagons_with_both_on_defense() {
    let mut g = game(&[
        unit("musketeers", 1, "musketeers", 6, 3, (60.0, 66.0), 180.0),
        unit("wagon", 1, "transport-wagon", 1, 1, (60.0, 60.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 45.0), 0.0),
    ]);
    let (m, w) = (id(&g, "musketeers"), id(&g, "wagon"));
    set_order(&mut g, "musketeers", Some(OrderKind::Defense));
    let firing = |g: &Game| {
        sandtable_bfs::preview::volley(g, m, FireStage::DefendersFire)
            .map(|p| p.groups.iter().map(|gr| gr.bases).sum::<u32>())
    };
    // The wagon without a Defense order blocks the middle base's fire.
    let blocked = firing(&g);
    g.unit_mut(w).order = Some(OrderKind::Defense);
    assert_eq!(
        firing(&g),
        Some(3),
        "the three bases of the first rank (was {blocked:?})"
    );
    assert_ne!(blocked, Some(3));
    let raise = sandtable_bfs::wagon::cover::armor_raise(&g, m).unwrap();
    assert_eq!(
        (raise.rule.as_str(), raise.delta),
        ("BFS-WGN-3", 1),
        "Armor 3 → 4"
    );
}

/// BFS-WAG-4: a unit behind friendly wagons turns up its Charge order as a Move order.
#[test]
fn bfs_wag_4_behind_friendly_wagons_a_charge_becomes_a_move() {
    let mut g = game(&[
        unit("wagon", 0, "transport-wagon", 1, 1, (60.0, 46.0), 0.0),
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 80.0), 180.0),
    ]);
    let p = id(&g, "pancerni");
    at_orders(&mut g, Side::A);
    run(
        &mut g,
        Command::IssueOrder {
            unit: p,
            order: OrderKind::Charge,
            by: CommanderId(0),
        },
    );
    let mut events = run(&mut g, Command::EndOrders);
    events.extend(run(&mut g, Command::EndOrders));
    assert_eq!(g.unit(p).order, Some(OrderKind::Move), "{events:?}");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::OrderChanged { unit, rule, .. } if *unit == p && rule == "BFS-WAG-4"
    )));
}

fn with_ammunition(units: &[Placed], method: &str) -> Game {
    let mut s = setup(units, vec![]);
    s.scenario
        .options
        .insert("ammunition".into(), OptionValue::Text(method.into()));
    Bfs::setup(&s, 1).unwrap()
}

/// Haiduks (side A, Defense, Basic Move 10 cm) 8 cm from their ammunition wagon, side A
/// moving.
fn haiduks_by_the_wagon(method: &str) -> Game {
    let mut g = with_ammunition(
        &[
            unit("haiduks", 0, "haiduks", 3, 3, (60.0, 40.0), 0.0),
            unit("powder", 0, "ammunition-wagon", 1, 1, (60.0, 30.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        method,
    );
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    g
}

fn take(g: &Game) -> Command {
    Command::Maneuver {
        unit: id(g, "haiduks"),
        maneuvers: vec![SpecialManeuver::TakeAmmunition {
            wagon: id(g, "powder"),
        }],
    }
}

/// BFS-AMM-5, BFS-WAG-10: counting, 1 Special Maneuver within the Basic Move gives 3
/// Ammunition Units, never above the start; the explosion die (not a 0) is rolled.
#[test]
fn bfs_amm_5_three_units_from_the_wagon_never_above_the_start() {
    let mut g = haiduks_by_the_wagon("counting");
    let h = id(&g, "haiduks");
    g.unit_mut(h).supply = Some(Supply::Counting {
        halves: 2,
        start: 12,
    });
    g.dice.script([3]);
    let cmd = take(&g);
    let events = run(&mut g, cmd);
    assert_eq!(
        g.unit(h).supply,
        Some(Supply::Counting {
            halves: 8,
            start: 12
        })
    );
    assert_eq!(g.unit(h).flags.special_maneuvers, 1);
    assert!(rulings(&events, "BFS-WAG-11")[0].contains("Explosion die: 3"));
    g.unit_mut(h).supply = Some(Supply::Counting {
        halves: 9,
        start: 12,
    });
    g.unit_mut(h).flags.activated = false;
    g.unit_mut(h).flags.special_maneuvers = 0;
    g.dice.script([3]);
    let cmd = take(&g);
    run(&mut g, cmd);
    assert_eq!(
        g.unit(h).supply,
        Some(Supply::Counting {
            halves: 12,
            start: 12
        })
    );
    // Full: nothing to take. Too far: refused.
    let mut full = haiduks_by_the_wagon("counting");
    assert_eq!(refusal(&full, take(&full)), "BFS-AMM-5");
    let p = id(&full, "powder");
    let far: Vec<_> = full
        .unit(p)
        .bases
        .iter()
        .map(|b| b.translated(sandtable_geometry::Vec2::new(0.0, -2.5)))
        .collect();
    full.unit_mut(p).bases = far;
    full.unit_mut(h).supply = Some(Supply::Counting {
        halves: 2,
        start: 12,
    });
    assert_eq!(
        refusal(&full, take(&full)),
        "BFS-WAG-10",
        "10.5 cm against a 10 cm Basic Move"
    );
}

/// BFS-AMM-8: under the test method, 2 Special Maneuvers and no Skill test give the ammunition
/// back.
#[test]
fn bfs_amm_8_test_method_two_maneuvers_and_ammunition_back() {
    let mut g = haiduks_by_the_wagon("test");
    let h = id(&g, "haiduks");
    assert_eq!(
        refusal(&g, take(&g)),
        "BFS-AMM-8",
        "it still has ammunition"
    );
    g.unit_mut(h).supply = Some(Supply::Test {
        shot_before: true,
        out: true,
    });
    g.dice.script([5]);
    let cmd = take(&g);
    let events = run(&mut g, cmd);
    assert_eq!(
        g.unit(h).supply,
        Some(Supply::Test {
            shot_before: true,
            out: false
        })
    );
    assert_eq!(g.unit(h).flags.special_maneuvers, 2);
    assert!(
        !events.iter().any(|e| matches!(e, Event::Test(_))),
        "no Skill test"
    );
    assert!(!sandtable_bfs::shooting::shoots_in(
        &g,
        h,
        FireStage::AfterMovement
    ));
}

/// BFS-WAG-11: a 0 on the explosion die, then a failed Skill test (Skill 5 + 2 for the
/// haiduks' arquebuses: 8 fails): the wagon explodes; every base within 5 cm loses 1 SP, and the
/// unit taking ammunition 1 SP though none of its bases is that close.
#[test]
fn bfs_wag_11_the_explosion() {
    let mut g = haiduks_by_the_wagon("counting");
    let (h, p) = (id(&g, "haiduks"), id(&g, "powder"));
    g.unit_mut(h).supply = Some(Supply::Counting {
        halves: 2,
        start: 12,
    });
    g.dice.script([10, 8]);
    let cmd = take(&g);
    let events = run(&mut g, cmd);
    let test = events
        .iter()
        .find_map(|e| match e {
            Event::Test(t) => Some(t),
            _ => None,
        })
        .unwrap();
    assert_eq!(test.roll.target, 7, "Skill 5 + 2");
    assert_eq!(g.unit(p).status, UnitStatus::Destroyed);
    assert_eq!(
        losses::sp_left(&g, h),
        3 * 3 - 1,
        "1 SP for the unit taking ammunition"
    );
}

/// BFS-WAG-11 (digest A-4): the blast reaches every base within 5 cm, of either side.
#[test]
fn bfs_wag_11_the_blast_reaches_bases_within_five_cm() {
    let mut g = game(&[
        unit("powder", 0, "ammunition-wagon", 1, 1, (60.0, 24.0), 0.0),
        // Front edge 4.99 cm behind the wagon's rear (y = 18): 2 ranks of 3, the second farther.
        unit("haiduks", 0, "haiduks", 6, 3, (60.0, 13.01), 0.0),
        // 5.01 cm beside it.
        unit("reiters", 1, "reiters", 1, 1, (69.01, 21.0), 0.0),
    ]);
    let (p, h, r) = (id(&g, "powder"), id(&g, "haiduks"), id(&g, "reiters"));
    let mut events = Vec::new();
    let at = g.unit(p).bases.clone();
    sandtable_bfs::wagon::supply::explode(&mut g, p, &at, None, &mut events);
    assert_eq!(
        losses::sp_left(&g, h),
        18 - 3,
        "the three bases of the near rank"
    );
    assert_eq!(losses::sp_left(&g, r), 3, "5.01 cm away: untouched");
}

/// BFS-WAG-3: an ammunition wagon lost to fire explodes; lost in close combat it does not.
#[test]
fn bfs_wag_3_an_ammunition_wagon_lost_to_fire_explodes() {
    let place = || {
        game(&[
            unit("powder", 0, "ammunition-wagon", 1, 1, (60.0, 24.0), 0.0),
            unit("haiduks", 0, "haiduks", 3, 3, (60.0, 16.0), 180.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ])
    };
    let mut g = place();
    let (p, h) = (id(&g, "powder"), id(&g, "haiduks"));
    let mut events = Vec::new();
    losses::apply(&mut g, p, 1, LossCause::Shooting, "shot", &mut events);
    assert_eq!(
        losses::sp_left(&g, h),
        6,
        "the blast took 1 SP from each of 3 bases: {events:?}"
    );
    let mut g = place();
    losses::apply(&mut g, p, 1, LossCause::CloseCombat, "taken", &mut events);
    assert_eq!(losses::sp_left(&g, h), 9);
}

/// BFS-WAG-9: an ammunition wagon may be charged only as the closest enemy: no CP buys it.
#[test]
fn bfs_wag_9_an_ammunition_wagon_only_as_the_closest_target() {
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 48.0), 180.0),
        unit("powder", 1, "ammunition-wagon", 1, 1, (75.0, 50.0), 180.0),
    ]);
    let p = id(&g, "pancerni");
    set_order(&mut g, "pancerni", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    g.commanders[0].base = sandtable_geometry::Rect::new(
        sandtable_geometry::Pose::new(sandtable_geometry::Vec2::new(60.0, 30.0), 0.0),
        sandtable_geometry::Vec2::new(1.5, 1.5),
    );
    let cmd = Command::DeclareCharge {
        unit: p,
        target: id(&g, "powder"),
        pay: Some(CommanderId(0)),
    };
    assert_eq!(refusal(&g, cmd), "BFS-WAG-9");
}

/// Haiduks (side A) whose front touches the long side of their own wagon (6 × 4 cm across their
/// front, x = 57..63, y = 40..44).
fn haiduks_behind_own_wagon() -> Game {
    game(&[
        unit("haiduks", 0, "haiduks", 3, 3, (60.0, 40.0), 0.0),
        unit("wagon", 0, "transport-wagon", 1, 1, (63.0, 42.0), 90.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
    ])
}

fn front_y(g: &Game, key: &str) -> f32 {
    let f = sandtable_bfs::geo::frame_of(&g.unit(id(g, key)).bases);
    f.center().y + f.half.y
}

/// BFS-WAG-4: infantry with a Defense order passes through wagons with a Defense order by one
/// Special Maneuver, with no Skill test: every base ends entirely across (the 2 cm deep bases
/// 6.01 cm on, their front at y = 46.01).
#[test]
fn bfs_wag_4_defending_infantry_crosses_defending_wagons_with_one_maneuver() {
    let mut g = haiduks_behind_own_wagon();
    let h = id(&g, "haiduks");
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    set_order(&mut g, "wagon", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    let events = run(
        &mut g,
        Command::Maneuver {
            unit: h,
            maneuvers: vec![SpecialManeuver::CrossObstacle],
        },
    );
    assert!(
        (front_y(&g, "haiduks") - 46.01).abs() < 0.01,
        "{}",
        front_y(&g, "haiduks")
    );
    assert_eq!(g.unit(h).flags.special_maneuvers, 1);
    assert!(
        !events.iter().any(|e| matches!(e, Event::Test(_))),
        "{events:?}"
    );
}

/// BFS-WAG-4: otherwise the wagon is an obstacle and a friend at once: it cannot be walked
/// through, it is crossed by the obstacle maneuver, and the unit then tests Skill as after
/// passing through friends (the wagon, with no crew, does not). 6.01 cm and the 2 cm maneuver
/// fit the haiduks' 10 cm Move.
#[test]
fn bfs_wag_4_otherwise_an_obstacle_and_a_friend_at_once() {
    let mut g = haiduks_behind_own_wagon();
    let h = id(&g, "haiduks");
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let walk = Command::Move {
        unit: h,
        steps: vec![sandtable_bfs::command::MoveStep::Forward(7.0)],
    };
    assert_eq!(
        refusal(&g, walk),
        "BFS-AMV-3",
        "wagons are not walked through"
    );
    g.dice.script([1]);
    let events = run(
        &mut g,
        Command::Move {
            unit: h,
            steps: vec![sandtable_bfs::command::MoveStep::CrossObstacle],
        },
    );
    assert!((front_y(&g, "haiduks") - 46.01).abs() < 0.01);
    let tests: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Test(t) => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(tests.len(), 1, "{events:?}");
    assert_eq!(
        (tests[0].unit, tests[0].rule.as_str()),
        (Some(h), "BFS-AMV-3")
    );
}

/// BFS-WGN-5's figure (BFS-WAG-7): unit A (Defense) touches only wagon 2 of three; unit B's
/// bases touch wagons 1, 2 and 3. Only B's base at wagon 2 fights; the bases at wagons 1 and 3,
/// which nobody defends, strike nothing.
#[test]
fn bfs_wgn_5_only_the_bases_at_the_same_wagon_fight() {
    let mut g = game(&[
        unit("pancerni", 0, "pancerni", 3, 3, (54.0, 60.0), 0.0),
        unit("wagon-1", 1, "transport-wagon", 1, 1, (50.0, 60.0), 180.0),
        unit("wagon-2", 1, "transport-wagon", 1, 1, (54.0, 60.0), 180.0),
        unit("wagon-3", 1, "transport-wagon", 1, 1, (58.0, 60.0), 180.0),
        unit("musketeers", 1, "musketeers", 1, 1, (54.0, 66.0), 180.0),
    ]);
    let (r, m) = (id(&g, "pancerni"), id(&g, "musketeers"));
    set_order(&mut g, "musketeers", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    let theirs: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Melee(x) if x.attacker == r => Some(x),
            _ => None,
        })
        .collect();
    assert_eq!(theirs.len(), 1, "{events:?}");
    assert_eq!(theirs[0].target, m);
    assert_eq!(theirs[0].groups.iter().map(|g| g.bases).sum::<u32>(), 1);
}
