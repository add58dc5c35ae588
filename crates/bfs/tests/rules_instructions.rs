//! Instructions at Division level (BFS-ORD-11..14): Senior commanders instruct Regimental
//! commanders; contrary orders cost 1 CP more once turned up; a Regimental commander with no
//! Instruction pays 1 CP more for each order.

mod support;

use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::scenario_spec::{CommanderRank, CommanderSpec, GameLevel, RegimentSpec};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use support::*;

/// A Division battle: Hetman Sosiński (side A's Commander-in-Chief, 3 CP) near Regimentarz
/// Kulesza (Regimental, 2 CP) and his regiment of 4 volunteer banners (haiduks standing in for
/// them), all with Move orders; Kulesza's Instruction is `instruction`. Side A's Orders Phase
/// of turn 2.
fn kulesza(instruction: Option<OrderKind>) -> Game {
    let placed: Vec<Placed> = (0..4)
        .map(|i| {
            unit(
                ["banner-1", "banner-2", "banner-3", "banner-4"][i],
                0,
                "haiduks",
                2,
                2,
                (35.0 + 10.0 * i as f32, 30.0),
                0.0,
            )
        })
        .chain([unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0)])
        .collect();
    let mut s = setup(&placed, vec![]);
    s.scenario.rules.level = GameLevel::Division;
    let side = &mut s.scenario.rules.forces[0];
    side.commanders[0].position = (60.0, 10.0);
    side.regiments.push(RegimentSpec {
        id: "volunteers".into(),
        name: "Volunteers".into(),
        motivation_percent: Some(50),
        main_force: false,
        allied: false,
    });
    side.commanders.push(CommanderSpec {
        id: "kulesza".into(),
        name: "Regimentarz Kulesza".into(),
        rank: CommanderRank::Regimental,
        command_points: 2,
        profile: "commander".into(),
        position: (50.0, 20.0),
        facing: 0.0,
        regiment: Some("volunteers".into()),
        deputy: false,
        coward: false,
        instruction,
    });
    for u in side.units.iter_mut() {
        u.regiment = Some("volunteers".into());
    }
    let mut g = Bfs::setup(&s, 1).unwrap_or_else(|e| panic!("setup: {e}"));
    for i in 1..=4 {
        set_order(&mut g, &format!("banner-{i}"), Some(OrderKind::Move));
    }
    g.turn.number = 2;
    g.turn.initiative = Some(Side::A);
    g.turn.phase = Phase::Orders {
        acting: Side::A,
        second: false,
    };
    g
}

const HETMAN: CommanderId = CommanderId(0);
const KULESZA: CommanderId = CommanderId(1);

fn kulesza_id(g: &Game) -> CommanderId {
    let k = g
        .commanders
        .iter()
        .find(|c| c.key == "kulesza")
        .expect("Kulesza")
        .id;
    assert_eq!(k, KULESZA);
    k
}

/// Ends side A's orders and side B's, turning side A's markers up when its Movement Phase
/// begins. Returns the events.
fn to_movement(g: &mut Game) -> Vec<Event> {
    let mut events = run(g, Command::EndOrders);
    events.extend(run(g, Command::EndOrders));
    assert!(
        matches!(
            g.turn.phase,
            Phase::Movement {
                acting: Side::A,
                ..
            }
        ),
        "{:?}",
        g.turn.phase
    );
    events
}

fn surcharges(events: &[Event]) -> Vec<(CommanderId, u8)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CpSpent {
                commander,
                cp,
                rule,
                ..
            } if rule == "BFS-ORD-12" => Some((*commander, *cp)),
            _ => None,
        })
        .collect()
}

/// BFS-ORD-14, the book's example: Kulesza has a Move Instruction and his 4 banners Move orders.
/// He changes one to Defense: 1 CP when the marker is placed, 1 CP more when it is turned up, as
/// it contradicts the Instruction. Next turn the Hetman gives him a Charge Instruction and he
/// issues 3 Charge orders in the same Orders Phase: they match it, and cost nothing more.
#[test]
fn bfs_ord_14_the_books_example() {
    let mut g = kulesza(Some(OrderKind::Move));
    let k = kulesza_id(&g);
    let b1 = id(&g, "banner-1");
    run(
        &mut g,
        Command::IssueOrder {
            unit: b1,
            order: OrderKind::Defense,
            by: k,
        },
    );
    assert_eq!(g.commander(k).cp, 1, "1 CP when placed, as if in line");
    let events = to_movement(&mut g);
    assert_eq!(
        surcharges(&events),
        vec![(k, 1)],
        "1 CP more once turned up"
    );
    assert_eq!(g.commander(k).cp, 0);
    assert_eq!(g.unit(b1).order, Some(OrderKind::Defense));

    // The next turn.
    let mut g = kulesza(Some(OrderKind::Move));
    g.commander_mut(HETMAN).cp = 3;
    run(
        &mut g,
        Command::IssueInstruction {
            commander: k,
            instruction: OrderKind::Charge,
            by: HETMAN,
        },
    );
    assert_eq!(
        g.commander(HETMAN).cp,
        2,
        "an order's cost: 1 CP within range"
    );
    g.commander_mut(k).cp = 3;
    for key in ["banner-1", "banner-2", "banner-3"] {
        let u = id(&g, key);
        run(
            &mut g,
            Command::IssueOrder {
                unit: u,
                order: OrderKind::Charge,
                by: k,
            },
        );
    }
    assert_eq!(g.commander(k).cp, 0);
    let events = to_movement(&mut g);
    assert!(
        surcharges(&events).is_empty(),
        "in line with the new Instruction"
    );
    assert_eq!(g.commander(k).instruction, Some(OrderKind::Charge));
}

/// BFS-ORD-13: a Regimental commander with no Instruction pays 1 CP more for an order; a Senior
/// commander never does.
#[test]
fn bfs_ord_13_no_instruction_costs_one_more() {
    let g = kulesza(None);
    let k = kulesza_id(&g);
    let b1 = id(&g, "banner-1");
    let from_kulesza =
        sandtable_bfs::phases::orders::check_issue(&g, b1, OrderKind::Defense, k).unwrap();
    assert_eq!(from_kulesza.cp, 2);
    let from_hetman =
        sandtable_bfs::phases::orders::check_issue(&g, b1, OrderKind::Defense, HETMAN).unwrap();
    assert_eq!(from_hetman.cp, 1);
    let with = kulesza(Some(OrderKind::Move));
    assert_eq!(
        sandtable_bfs::phases::orders::check_issue(&with, b1, OrderKind::Defense, k)
            .unwrap()
            .cp,
        1
    );
}

/// BFS-ORD-11: Instructions are a secret until turned up; only Senior commanders give them, only
/// to Regimental commanders, at Division level; the starting orders must match.
#[test]
fn bfs_ord_11_instructions_are_face_down_and_bind_starting_orders() {
    let mut g = kulesza(Some(OrderKind::Move));
    let k = kulesza_id(&g);
    let events = run(
        &mut g,
        Command::IssueInstruction {
            commander: k,
            instruction: OrderKind::Defense,
            by: HETMAN,
        },
    );
    let theirs = Bfs::view(&g, 1);
    assert_eq!(
        theirs.commander(k).pending_instruction.and_then(|p| p.kind),
        None,
        "face down to the other side"
    );
    assert_eq!(theirs.commander(k).instruction, Some(OrderKind::Move));
    let redacted = events[0].redacted_for(Side::B, |u| g.unit(u).side);
    assert!(matches!(
        redacted,
        Event::InstructionIssued {
            instruction: None,
            ..
        }
    ));
    // Kulesza may not instruct himself, nor anyone instruct the Hetman.
    let mut h = kulesza(Some(OrderKind::Move));
    for (to, by) in [(k, k), (HETMAN, HETMAN)] {
        let cmd = Command::IssueInstruction {
            commander: to,
            instruction: OrderKind::Charge,
            by,
        };
        assert_eq!(Bfs::legal(&h, &cmd).unwrap_err().rule, "BFS-ORD-11");
    }
    // Starting orders in turn 1 must match.
    h.turn.number = 1;
    let b1 = id(&h, "banner-1");
    let refused = Command::IssueOrder {
        unit: b1,
        order: OrderKind::Defense,
        by: k,
    };
    assert_eq!(Bfs::legal(&h, &refused).unwrap_err().rule, "BFS-ORD-11");
    assert!(
        Bfs::legal(
            &h,
            &Command::IssueOrder {
                unit: b1,
                order: OrderKind::Move,
                by: k
            }
        )
        .is_ok()
    );
    // Not below Division level.
    let mut skirmish = kulesza(Some(OrderKind::Move));
    skirmish.info.level = GameLevel::Skirmish;
    assert!(
        Bfs::legal(
            &skirmish,
            &Command::IssueInstruction {
                commander: k,
                instruction: OrderKind::Charge,
                by: HETMAN
            }
        )
        .is_err()
    );
}

/// BFS-ORD-12: a commander who cannot pay for his contrary orders loses them, and the units keep
/// the orders they had.
#[test]
fn bfs_ord_12_contrary_orders_not_paid_for_are_taken_away() {
    let mut g = kulesza(Some(OrderKind::Move));
    let k = kulesza_id(&g);
    g.commander_mut(k).cp = 2;
    let (b1, b2) = (id(&g, "banner-1"), id(&g, "banner-2"));
    for u in [b1, b2] {
        run(
            &mut g,
            Command::IssueOrder {
                unit: u,
                order: OrderKind::Defense,
                by: k,
            },
        );
    }
    assert_eq!(g.commander(k).cp, 0);
    let events = to_movement(&mut g);
    assert!(surcharges(&events).is_empty(), "nothing left to pay with");
    assert_eq!(g.unit(b1).order, Some(OrderKind::Move), "taken away");
    assert_eq!(g.unit(b2).order, Some(OrderKind::Move), "taken away");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-ORD-12"))
    );
}

/// BFS-CMD-5, AMB-32: at Division level the Commander-in-Chief is the one Senior commander, and
/// so the one who gives Instructions; a scenario with another is refused.
#[test]
fn bfs_cmd_5_one_senior_commander_at_division_level() {
    use sandtable_engine::scenario::RulesSection;
    let mut s = support::setup(
        &[
            unit("haiduks", 0, "haiduks", 2, 2, (40.0, 30.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![],
    );
    s.scenario.rules.level = GameLevel::Division;
    s.scenario.rules.forces[0].commanders.push(CommanderSpec {
        id: "lubomirski".into(),
        name: "Field Hetman Lubomirski".into(),
        rank: CommanderRank::Senior,
        command_points: 3,
        profile: "commander".into(),
        position: (90.0, 10.0),
        facing: 0.0,
        regiment: None,
        deputy: false,
        coward: false,
        instruction: None,
    });
    let problems = s.scenario.rules.check(&s.scenario);
    assert!(
        problems
            .iter()
            .any(|p| p.entity == "commander \"lubomirski\"" && p.message.contains("BFS-CMD-5")),
        "{problems:?}"
    );
    s.scenario.rules.level = GameLevel::TaskForce;
    let problems = s.scenario.rules.check(&s.scenario);
    assert!(!problems.iter().any(|p| p.message.contains("BFS-CMD-5")));
}

/// A face-down Instruction is a secret the hot-seat hand-over must hide (BFS-ORD-11), even when
/// no order was placed with it.
#[test]
fn bfs_ord_11_a_face_down_instruction_is_a_secret_to_hide() {
    let mut g = kulesza(Some(OrderKind::Move));
    assert!(!Bfs::holds_secrets(&g));
    let k = kulesza_id(&g);
    run(
        &mut g,
        Command::IssueInstruction {
            commander: k,
            instruction: OrderKind::Charge,
            by: HETMAN,
        },
    );
    assert!(Bfs::holds_secrets(&g));
}

/// BFS-OPT-3 with BFS-ORD-11/13 at Division level: in turn 1 a group order in line with the
/// regiment's Instruction is offered and free; a Regimental commander with no Instruction pays
/// 1 CP more for a group order after it.
#[test]
fn bfs_opt_3_group_orders_at_division_level() {
    let mut g = kulesza(Some(OrderKind::Defense));
    let k = kulesza_id(&g);
    g.turn.number = 1;
    let b1 = id(&g, "banner-1");
    let group = sandtable_bfs::phases::group_order::group_around(&g, b1, k);
    assert!(group.len() >= 2, "a group is offered in turn 1: {group:?}");
    assert_eq!(
        sandtable_bfs::phases::group_order::check(&g, &group, OrderKind::Defense, k),
        Ok(0)
    );
    let mut none = kulesza(None);
    none.commander_mut(k).cp = 3;
    let group = sandtable_bfs::phases::group_order::group_around(&none, b1, k);
    assert_eq!(
        sandtable_bfs::phases::group_order::check(&none, &group, OrderKind::Move, k),
        Ok(3),
        "2 CP and 1 more for having no Instruction"
    );
}

/// BFS-ORD-12: a contrary new order turned up early, to countercharge, is paid for then.
#[test]
fn bfs_ord_12_a_contrary_order_turned_up_to_countercharge_is_paid_for_then() {
    let mut g = kulesza(Some(OrderKind::Move));
    let k = kulesza_id(&g);
    let b1 = id(&g, "banner-1");
    run(
        &mut g,
        Command::IssueOrder {
            unit: b1,
            order: OrderKind::Charge,
            by: k,
        },
    );
    assert_eq!(g.commander(k).cp, 1);
    // The Swedish reiters charge the banner in their own Movement Phase, before side A's
    // markers are turned up.
    let r = id(&g, "reiters");
    let front = g.unit(b1).bases[0].center();
    for b in g.unit_mut(r).bases.iter_mut() {
        b.pose.pos.y -= 110.0 - (front.y + 16.0);
        b.pose.pos.x += front.x - 60.0;
    }
    set_order(&mut g, "reiters", Some(OrderKind::Charge));
    g.turn.phase = Phase::Movement {
        acting: Side::B,
        second: false,
        charge: None,
    };
    run(
        &mut g,
        Command::DeclareCharge {
            unit: r,
            target: b1,
            pay: None,
        },
    );
    let events = run(
        &mut g,
        Command::React {
            unit: b1,
            reaction: sandtable_bfs::vocab::Reaction::Countercharge,
        },
    );
    assert_eq!(surcharges(&events), vec![(k, 1)]);
    assert_eq!(g.commander(k).cp, 0);
}

/// BFS-CMD-6: when a Regimental commander falls, his 2nd in Command takes over the Regiment
/// (before the 3rd) and keeps its Instruction; when the new one falls too, the 3rd takes over.
/// Battles recorded before rules revision 11 go on with the deputies as they were.
#[test]
fn bfs_cmd_6_the_deputy_takes_over_the_regiment() {
    let with_deputies = |revision: u32| {
        let mut g = kulesza(Some(OrderKind::Move));
        g.info.options.rules_revision = revision;
        for (key, rank) in [
            ("third", CommanderRank::Third),
            ("second", CommanderRank::Second),
        ] {
            let mut c = g.commander(KULESZA).clone();
            c.id = CommanderId(g.commanders.len() as u16);
            c.key = key.into();
            c.name = format!("The {key}");
            c.rank = rank;
            c.instruction = None;
            g.commanders.push(c);
        }
        g
    };
    let by_key = |g: &Game, k: &str| g.commanders.iter().find(|c| c.key == k).unwrap().id;
    let mut g = with_deputies(sandtable_bfs::revision::CURRENT);
    let (second, third) = (by_key(&g, "second"), by_key(&g, "third"));
    g.commander_mut(KULESZA).status = sandtable_bfs::state::UnitStatus::Destroyed;
    let events = run(&mut g, Command::EndOrders);
    assert_eq!(g.commander(second).rank, CommanderRank::Regimental);
    assert_eq!(g.commander(second).instruction, Some(OrderKind::Move));
    assert_eq!(g.commander(third).rank, CommanderRank::Third);
    assert!(events.iter().any(
        |e| matches!(e, Event::Ruling { rule, text } if rule == "BFS-CMD-6" && text.contains("2nd in command"))
    ));
    assert_eq!(
        sandtable_bfs::instructions::regimental_commander(&g, id(&g, "banner-1")),
        Some(second)
    );
    // The new commander falls too: the 3rd takes over, with the Instruction.
    g.commander_mut(second).status = sandtable_bfs::state::UnitStatus::Left;
    run(&mut g, Command::EndOrders);
    assert_eq!(g.commander(third).rank, CommanderRank::Regimental);
    assert_eq!(g.commander(third).instruction, Some(OrderKind::Move));

    // Revision 10: nobody takes over.
    let mut old = with_deputies(10);
    let second = by_key(&old, "second");
    old.commander_mut(KULESZA).status = sandtable_bfs::state::UnitStatus::Destroyed;
    run(&mut old, Command::EndOrders);
    assert_eq!(old.commander(second).rank, CommanderRank::Second);
}
