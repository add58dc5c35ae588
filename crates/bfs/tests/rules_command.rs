//! Initiative, orders and command points (BFS-INI, BFS-ORD, BFS-CMD, BFS-RAL).

mod support;

use sandtable_bfs::Command;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, Side, UnitId};
use sandtable_bfs::profile::SpecialRule;
use sandtable_bfs::scenario_spec::{CommanderRank, CommanderSpec, RegimentSpec};
use sandtable_bfs::state::{MoraleLevel, OrderKind};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, Game};
use sandtable_engine::Ruleset;
use support::*;

fn two_units() -> Game {
    game(&[
        unit("hussars", 0, "winged-hussars", 3, 3, (40.0, 24.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (40.0, 96.0), 180.0),
    ])
}

/// BFS-INI-2/3: bids are secret until both are in, paid whatever the result, and add +2 per CP;
/// ties are rerolled with the same bonus; the higher total wins (a "0" is 10, the highest).
#[test]
fn bfs_ini_3_bids_add_two_per_cp_and_ties_reroll() {
    let mut g = two_units();
    g.dice.script([6, 8, 10, 3]); // 6 + 2 = 8 ties 8 + 0; then 10 + 2 beats 3
    let e = run(
        &mut g,
        Command::Bid {
            side: Side::A,
            cp: 1,
        },
    );
    assert!(
        matches!(e.as_slice(), [Event::BidPlaced { side: Side::A }]),
        "nothing revealed yet"
    );
    assert!(
        Bfs::legal(
            &g,
            &Command::Bid {
                side: Side::A,
                cp: 0
            }
        )
        .is_err(),
        "one bid per side"
    );
    let e = run(
        &mut g,
        Command::Bid {
            side: Side::B,
            cp: 0,
        },
    );
    assert!(
        e.iter()
            .any(|x| matches!(x, Event::BidsRevealed { bids: [1, 0] }))
    );
    let rolled = e
        .iter()
        .find_map(|x| {
            if let Event::InitiativeRolled {
                rounds,
                bonus,
                winner,
            } = x
            {
                Some((rounds.clone(), *bonus, *winner))
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(rolled, (vec![[6, 8], [10, 3]], [2, 0], Side::A));
    let chief = g.commander_in_chief(Side::A).unwrap();
    assert_eq!(chief.cp, 2, "the bid is paid (3 − 1)");
    assert!(matches!(
        g.turn.phase,
        Phase::InitiativeChoice { winner: Side::A }
    ));
}

/// BFS-INI-2: a side cannot bid more than its commander-in-chief holds.
#[test]
fn bfs_ini_2_bid_limited_by_cp() {
    let g = two_units();
    let err = Bfs::legal(
        &g,
        &Command::Bid {
            side: Side::A,
            cp: 4,
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-INI-2");
    assert!(err.message.contains("only 3 CP"), "{}", err.message);
}

/// BFS-INI-4: the winner may hand the Initiative over; the other side then gives orders first.
#[test]
fn bfs_ini_4_hand_over() {
    let mut g = two_units();
    g.dice.script([9, 2]);
    run(
        &mut g,
        Command::Bid {
            side: Side::A,
            cp: 0,
        },
    );
    run(
        &mut g,
        Command::Bid {
            side: Side::B,
            cp: 0,
        },
    );
    run(&mut g, Command::ChooseInitiative { keep: false });
    assert_eq!(g.turn.initiative, Some(Side::B));
    assert!(matches!(
        g.turn.phase,
        Phase::Orders {
            acting: Side::B,
            second: false
        }
    ));
}

fn to_orders(g: &mut Game) {
    g.dice.script([9, 2]);
    run(
        g,
        Command::Bid {
            side: Side::A,
            cp: 0,
        },
    );
    run(
        g,
        Command::Bid {
            side: Side::B,
            cp: 0,
        },
    );
    run(g, Command::ChooseInitiative { keep: true });
}

/// BFS-ORD-15: starting orders are free in the first turn; BFS-ORD-3: face down, so the other
/// side's view does not show what it is.
#[test]
fn bfs_ord_15_free_starting_orders_and_bfs_ord_3_face_down() {
    let mut g = two_units();
    to_orders(&mut g);
    let hussars = id(&g, "hussars");
    let e = run(
        &mut g,
        Command::IssueOrder {
            unit: hussars,
            order: OrderKind::Charge,
            by: CommanderId(0),
        },
    );
    assert!(matches!(
        e[0],
        Event::OrderIssued {
            cp: 0,
            free: true,
            ..
        }
    ));
    assert_eq!(g.commander(CommanderId(0)).cp, 3);
    let theirs = Bfs::view(&g, 1);
    assert_eq!(
        theirs.unit(hussars).pending_order.unwrap().kind,
        None,
        "the Swedes see a marker, not the order"
    );
    let ours = Bfs::view(&g, 0);
    assert_eq!(
        ours.unit(hussars).pending_order.unwrap().kind,
        Some(OrderKind::Charge)
    );
    let redacted = e[0].redacted_for(Side::B, |u| g.unit(u).side);
    assert!(matches!(redacted, Event::OrderIssued { order: None, .. }));
}

/// Winged hussars (front at y 50) in the regiment of a Regimental colonel with 1 CP standing at
/// y `colonel_y`, in the Orders Phase of turn 2 (no free starting orders); `insubordinate` gives
/// the hussars' profile that special rule. Returns the game, the hussars and the colonel.
fn hussars_and_their_colonel(colonel_y: f32, insubordinate: bool) -> (Game, UnitId, CommanderId) {
    let mut s = setup(
        &[
            unit("hussars", 0, "winged-hussars", 3, 3, (40.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (40.0, 100.0), 180.0),
        ],
        vec![],
    );
    let side = &mut s.scenario.rules.forces[0];
    side.regiments.push(RegimentSpec {
        id: "reg".into(),
        name: "Banner".into(),
        motivation_percent: None,
        main_force: false,
        allied: false,
    });
    side.commanders.push(CommanderSpec {
        id: "colonel".into(),
        name: "Colonel X".into(),
        rank: CommanderRank::Regimental,
        command_points: 1,
        profile: "commander".into(),
        position: (40.0, colonel_y),
        facing: 0.0,
        regiment: Some("reg".into()),
        deputy: false,
        coward: false,
        instruction: None,
    });
    side.units[0].regiment = Some("reg".into());
    if insubordinate {
        let profiles = s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut());
        let hussars: Vec<_> = profiles.filter(|p| p.id == "winged-hussars").collect();
        assert_eq!(hussars.len(), 1);
        for p in hussars {
            p.special_rules.push(SpecialRule::Insubordinate);
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    to_orders(&mut g);
    g.turn.number = 2;
    let hussars = id(&g, "hussars");
    let colonel = g.commanders.iter().find(|c| c.key == "colonel").unwrap().id;
    (g, hussars, colonel)
}

/// BFS-CMD-4: 1 CP within range, +1 per further 20 cm or part for a Junior commander; the
/// refusal says why in plain words.
#[test]
fn bfs_cmd_4_order_cost_by_distance_with_a_plain_refusal() {
    // A Regimental colonel with 1 CP whose 3 cm base ends 31 cm short of the hussars' rear edge
    // (front at y 50, 3 cm deep: rear at 47; colonel centred at 14.5 reaches 16).
    let (g, hussars, colonel) = hussars_and_their_colonel(14.5, false);
    let cost = sandtable_bfs::authority::order_cost(&g, colonel, hussars);
    assert!(
        (cost.distance_cm - 31.0).abs() < 1e-3,
        "{}",
        cost.distance_cm
    );
    assert_eq!(
        cost.cp, 2,
        "31 cm is 11 cm beyond 20: one part step, 1 + 1 CP"
    );
    let err = Bfs::legal(
        &g,
        &Command::IssueOrder {
            unit: hussars,
            order: OrderKind::Move,
            by: colonel,
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-CMD-4");
    assert!(
        err.message.starts_with(
            "Too far: this order costs 2 CP because hussars is 31.0 cm from Colonel X"
        ),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("beyond his 20 cm range"),
        "{}",
        err.message
    );
}

/// BFS-SPC-15: an order to an Insubordinate unit costs one CP more, within range (2 CP instead of
/// 1), and even from the commander attached to it (1 CP instead of 0, BFS-CDR-13).
#[test]
fn bfs_spc_15_an_insubordinate_unit_costs_one_cp_more() {
    let (mut g, hussars, colonel) = hussars_and_their_colonel(40.0, true);
    let cost = sandtable_bfs::authority::order_cost(&g, colonel, hussars);
    assert!(cost.distance_cm < cost.range_cm, "within his range");
    assert_eq!((cost.cp, cost.insubordinate), (2, true));
    // With his 1 CP he cannot give it, and the refusal says why.
    let order = Command::IssueOrder {
        unit: hussars,
        order: OrderKind::Move,
        by: colonel,
    };
    let err = Bfs::legal(&g, &order).unwrap_err();
    assert_eq!(err.rule, "BFS-CMD-4");
    assert!(err.message.contains("Insubordinate"), "{}", err.message);
    assert!(err.message.contains("BFS-SPC-15"), "{}", err.message);
    // Attached to the hussars, his order costs 1 CP, not 0, and he can give it.
    g.commander_mut(colonel).attached_to = Some(hussars);
    let cost = sandtable_bfs::authority::order_cost(&g, colonel, hussars);
    assert_eq!((cost.cp, cost.attached), (1, true));
    let events = Bfs::execute(&mut g, &order).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::OrderIssued { cp: 1, .. }))
    );
    assert_eq!(g.commander(colonel).cp, 0);
}

/// BFS-CMD-7: a General (range and step 40) sends 4 CP to a Colonel: 4 arrive within range, 3
/// at 60 cm, 2 at 90 cm.
#[test]
fn bfs_cmd_7_transfer_losses_by_distance() {
    // Edge-to-edge distance between the two 3 cm commander bases, and CP received.
    for (gap, expected) in [(30.0f32, 4u8), (60.0, 3), (90.0, 2)] {
        let mut s = setup(
            &[
                unit("hussars", 0, "winged-hussars", 3, 3, (60.0, 60.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (40.0, 100.0), 180.0),
            ],
            vec![],
        );
        let side = &mut s.scenario.rules.forces[0];
        side.commanders[0].command_points = 4;
        side.commanders[0].position = (5.0, 5.0);
        side.regiments.push(RegimentSpec {
            id: "reg".into(),
            name: "Banner".into(),
            motivation_percent: None,
            main_force: false,
            allied: false,
        });
        let y = 5.0 + 3.0 + gap;
        side.commanders.push(CommanderSpec {
            id: "colonel".into(),
            name: "Colonel".into(),
            rank: CommanderRank::Regimental,
            command_points: 0,
            profile: "commander".into(),
            position: (5.0, y),
            facing: 0.0,
            regiment: Some("reg".into()),
            deputy: false,
            coward: false,
            instruction: None,
        });
        let mut g = Bfs::setup(&s, 1).unwrap();
        to_orders(&mut g);
        let colonel = g.commanders.iter().find(|c| c.key == "colonel").unwrap().id;
        let e = run(
            &mut g,
            Command::TransferCp {
                from: CommanderId(0),
                to: colonel,
                amount: 4,
            },
        );
        assert!(
            matches!(e[0], Event::CpTransferred { sent: 4, received, .. } if received == expected),
            "{e:?}"
        );
        assert_eq!(g.commander(colonel).cp, expected);
    }
}

/// BFS-RAL-2..4: a rally costs 1 CP plus up to 3 for +1 Morale each; a pass restores Good order.
#[test]
fn bfs_ral_4_rally_a_disorganized_unit() {
    let mut g = game(&[
        unit("hussars", 0, "winged-hussars", 3, 3, (10.0, 20.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 100.0), 180.0),
    ]);
    let hussars = id(&g, "hussars");
    g.unit_mut(hussars).morale = MoraleLevel::Disorganized;
    to_orders(&mut g);
    g.dice.script([8]); // Morale 6 + 2 = 8: passed
    let e = run(
        &mut g,
        Command::Rally {
            unit: hussars,
            by: CommanderId(0),
            extra_cp: 2,
        },
    );
    let t = e
        .iter()
        .find_map(|x| {
            if let Event::Test(t) = x {
                Some(t)
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(t.roll.target, 8);
    assert_eq!(g.unit(hussars).morale, MoraleLevel::Good);
    assert_eq!(g.commander(CommanderId(0)).cp, 0, "1 + 2 CP");
    let again = Bfs::legal(
        &g,
        &Command::Rally {
            unit: hussars,
            by: CommanderId(0),
            extra_cp: 0,
        },
    )
    .unwrap_err();
    assert!(again.rule == "BFS-RAL-2" || again.rule == "BFS-RAL-3");
}

/// BFS-PSY-6 / BFS-ORD-10: Disorganized and fleeing units take no orders.
#[test]
fn bfs_psy_6_disorganized_units_take_no_orders() {
    let mut g = two_units();
    let hussars = id(&g, "hussars");
    g.unit_mut(hussars).morale = MoraleLevel::Disorganized;
    to_orders(&mut g);
    let err = Bfs::legal(
        &g,
        &Command::IssueOrder {
            unit: hussars,
            order: OrderKind::Move,
            by: CommanderId(0),
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-PSY-6");
    g.unit_mut(hussars).morale = MoraleLevel::Flight;
    assert_eq!(
        Bfs::legal(
            &g,
            &Command::IssueOrder {
                unit: hussars,
                order: OrderKind::Move,
                by: CommanderId(0)
            }
        )
        .unwrap_err()
        .rule,
        "BFS-ORD-10"
    );
}

/// BFS-CMD-8, the book's example: commander A is attached to a unit of Morale 5 (+1: it tests on
/// 6); commander B spends 2 CP, so the test is on 8. The CP are spent at the test, once: the next
/// test is on 6 again. CP never go to a rally through this, and at most 3 go to a test.
#[test]
fn bfs_cmd_8_command_points_raise_a_test() {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (40.0, 30.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 100.0), 180.0),
    ]);
    let haiduks = id(&g, "haiduks");
    // Commander A, attached; commander B is the Commander-in-Chief, 10 cm away.
    let mut a = g.commander(CommanderId(0)).clone();
    a.id = CommanderId(g.commanders.len() as u16);
    a.key = "a".into();
    a.name = "Commander A".into();
    a.rank = CommanderRank::Senior;
    a.attached_to = Some(haiduks);
    let a_id = a.id;
    g.commanders.push(a);
    g.unit_mut(haiduks).attached = Some(a_id);
    let b = CommanderId(0);
    g.commander_mut(b).base.pose.pos = sandtable_geometry::Vec2::new(40.0, 20.0);
    at_orders(&mut g, Side::A);
    assert!(
        Bfs::legal(
            &g,
            &Command::Steady {
                unit: haiduks,
                by: b,
                cp: 4
            }
        )
        .is_err()
    );
    let cp = g.commander(b).cp;
    run(
        &mut g,
        Command::Steady {
            unit: haiduks,
            by: b,
            cp: 2,
        },
    );
    assert_eq!(g.commander(b).cp, cp, "nothing spent before the test");
    let cause = sandtable_bfs::morale::MoraleCause::Other {
        rule: "TEST",
        reason: "a test".into(),
    };
    let roll = sandtable_bfs::morale::morale_test(&mut g, haiduks, &cause);
    assert_eq!(roll.target, 8);
    assert!(
        roll.modifiers
            .iter()
            .any(|m| m.rule == "BFS-CMD-8" && m.delta == 2)
    );
    assert_eq!(g.commander(b).cp, cp - 2);
    let again = sandtable_bfs::morale::morale_test(&mut g, haiduks, &cause);
    assert_eq!(again.target, 6);

    // A rally takes none of them; the next Skill test does.
    run(
        &mut g,
        Command::Steady {
            unit: haiduks,
            by: b,
            cp: 1,
        },
    );
    let rally = sandtable_bfs::morale::morale_test(
        &mut g,
        haiduks,
        &sandtable_bfs::morale::MoraleCause::Rally { extra_cp: 0 },
    );
    assert!(!rally.modifiers.iter().any(|m| m.rule == "BFS-CMD-8"));
    let mut events = Vec::new();
    sandtable_bfs::skill::test(
        &mut g,
        sandtable_bfs::skill::Tester::Unit(haiduks),
        Vec::new(),
        sandtable_bfs::skill::Test {
            rule: "TEST",
            cause: "a test".into(),
            passed: "passed",
            failed: "failed",
        },
        &mut events,
    );
    let skill = events
        .iter()
        .find_map(|e| match e {
            Event::Test(t) => Some(t),
            _ => None,
        })
        .unwrap();
    assert_eq!(skill.roll.target, 5 + 1, "haiduks' Skill 5, +1 CP");
    assert_eq!(g.commander(b).cp, cp - 3);
}
