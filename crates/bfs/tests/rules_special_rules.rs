//! Special rules of the army lists (BFS-SPC). Rules revision 6: Militia and Rabble test their
//! nerve before charging a more numerous enemy (BFS-SPC-18, BFS-SPC-25); No Quarter always
//! pursues (BFS-SPC-20); Mobility, Highlanders, Marksmen, Independent, Light Cavalry. Revision
//! 7: To the Last Man (BFS-SPC-33) and Companions (BFS-SPC-7). Revision 8: Rifled Barrels
//! (BFS-SPC-27) and Countermarch (BFS-SPC-8).

mod support;

use sandtable_bfs::event::{Event, TestKind};
use sandtable_bfs::ids::Side;
use sandtable_bfs::profile::{SpecialRule, UnitProfile};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::turn::CombatStage;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use support::*;

/// A game of `units` on `terrain` with the profile `profile` changed by `edit` (the special rule
/// under test, and whatever the test needs besides).
fn edited(
    units: &[Placed],
    terrain: Vec<sandtable_engine::scenario::TerrainSpec>,
    profile: &str,
    edit: impl Fn(&mut UnitProfile),
) -> Game {
    let mut s = setup(units, terrain);
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == profile {
            edit(p);
        }
    }
    Bfs::setup(&s, 1).unwrap()
}

/// The charged `unit` Breaks Off (BFS-SPC-16), its dice scripted to `faces`: the events.
fn break_off(g: &mut Game, unit: sandtable_bfs::ids::UnitId, faces: [u8; 4]) -> Vec<Event> {
    g.dice.script(faces);
    run(
        g,
        Command::React {
            unit,
            reaction: sandtable_bfs::vocab::Reaction::BreakOff,
        },
    )
}

/// Haiduks (side A, `bases` of them in one line, their profile changed by `edit`) with a Charge
/// order, 12 cm in front of 3 bases of reiters, in side A's Movement Phase.
fn haiduks_facing_reiters(bases: u8, edit: impl Fn(&mut UnitProfile)) -> Game {
    let mut g = edited(
        &[
            unit("haiduks", 0, "haiduks", bases, bases, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 64.0), 180.0),
        ],
        vec![],
        "haiduks",
        edit,
    );
    set_order(&mut g, "haiduks", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    g
}

fn declare(g: &mut Game) -> Vec<Event> {
    let (haiduks, reiters) = (id(g, "haiduks"), id(g, "reiters"));
    run(
        g,
        Command::DeclareCharge {
            unit: haiduks,
            target: reiters,
            pay: None,
        },
    )
}

fn nerve_test(events: &[Event]) -> Option<(&str, bool)> {
    events.iter().find_map(|e| match e {
        Event::Test(t) if t.kind == TestKind::Morale => Some((t.rule.as_str(), t.roll.passed)),
        _ => None,
    })
}

fn declared(events: &[Event]) -> bool {
    events
        .iter()
        .any(|e| matches!(e, Event::ChargeDeclared { .. }))
}

/// Two bases of Militia haiduks (Morale 5) declare a charge at three bases of reiters: a Morale
/// test first. A 9 fails it: no charge, no order left. A 3 passes: the charge is declared.
#[test]
fn bfs_spc_18_militia_tests_morale_to_charge_a_more_numerous_enemy() {
    let militia = |p: &mut UnitProfile| p.special_rules.push(SpecialRule::Militia);
    let mut g = haiduks_facing_reiters(2, militia);
    // The plan says so before it is committed: Morale 5, no modifier.
    let cmd = Command::DeclareCharge {
        unit: id(&g, "haiduks"),
        target: id(&g, "reiters"),
        pay: None,
    };
    let report = <Bfs as sandtable_engine::Present>::describe(
        &g,
        0,
        &cmd,
        sandtable_bfs::preview::preview(&g, &cmd),
    );
    assert!(
        report
            .lines
            .iter()
            .any(|l| l.contains("Morale test first (roll 5 or less") && l.contains("BFS-SPC-18")),
        "{:?}",
        report.lines
    );
    g.dice.script([9]);
    let events = declare(&mut g);
    assert_eq!(nerve_test(&events), Some(("BFS-SPC-18", false)));
    assert!(!declared(&events), "it does not charge");
    let h = g.unit(id(&g, "haiduks"));
    assert_eq!(h.order, None, "it loses its Charge Order and has none");
    assert!(h.charge.is_none());

    let mut g = haiduks_facing_reiters(2, militia);
    g.dice.script([3]);
    let events = declare(&mut g);
    assert_eq!(nerve_test(&events), Some(("BFS-SPC-18", true)));
    assert!(declared(&events), "it holds its nerve and charges");
}

/// Against an enemy with no more bases than its own (3 against 3) Militia charges without a test
/// (AMB-92: "more numerous" counts bases); a unit without the rule never tests.
#[test]
fn bfs_spc_18_no_test_against_an_enemy_no_more_numerous() {
    let mut g = haiduks_facing_reiters(3, |p| p.special_rules.push(SpecialRule::Militia));
    let events = declare(&mut g);
    assert_eq!(nerve_test(&events), None);
    assert!(declared(&events));
    let mut g = haiduks_facing_reiters(2, |_| {});
    let events = declare(&mut g);
    assert_eq!(nerve_test(&events), None);
    assert!(declared(&events));
}

/// Rabble tests the same way (BFS-SPC-25), and battles recorded under revision 5 played without
/// the test.
#[test]
fn bfs_spc_25_rabble_tests_too_but_not_under_revision_5() {
    let rabble = |p: &mut UnitProfile| p.special_rules.push(SpecialRule::Rabble);
    let mut g = haiduks_facing_reiters(2, rabble);
    g.dice.script([10]);
    let events = declare(&mut g);
    assert_eq!(nerve_test(&events), Some(("BFS-SPC-25", false)));
    assert!(!declared(&events));

    let mut g = haiduks_facing_reiters(2, rabble);
    g.info.options.rules_revision = 5;
    let events = declare(&mut g);
    assert_eq!(nerve_test(&events), None);
    assert!(declared(&events));
}

/// Haiduks in contact with reiters, made to win outright: Skill 10 and every die a 9 (all their
/// dice hit, every reiter save and attack fails, the reiters fail Morale and flee). Returns the
/// close combat's events.
fn haiduks_beat_reiters(edit: impl Fn(&mut UnitProfile)) -> (Game, Vec<Event>) {
    let mut g = edited(
        &[
            unit("haiduks", 0, "haiduks", 3, 3, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
        ],
        vec![],
        "haiduks",
        |p| {
            p.skill = 10;
            edit(p);
        },
    );
    at_combat(&mut g, CombatStage::CloseCombat);
    g.dice.script([9; 60]);
    let events = run(&mut g, Command::Continue);
    let won = events
        .iter()
        .any(|e| matches!(e, Event::CombatResolved(r) if r.winner == Some(Side::A)));
    assert!(won, "the haiduks win: {events:#?}");
    (g, events)
}

fn pursuit(events: &[Event]) -> Option<f32> {
    events.iter().find_map(|e| match e {
        Event::Pursued { distance_cm, .. } => Some(*distance_cm),
        _ => None,
    })
}

/// Infantry that beat cavalry may refuse to pursue, and does (BFS-CC-29); with No Quarter it must
/// pursue, its Additional Move of 5 cm (BFS-SPC-20).
#[test]
fn bfs_spc_20_no_quarter_infantry_pursues_the_cavalry_it_beat() {
    let (_, events) = haiduks_beat_reiters(|_| {});
    assert_eq!(pursuit(&events), None, "plain infantry refuses");
    assert!(events.iter().any(
        |e| matches!(e, Event::Ruling { rule, text } if rule == "BFS-CC-29" && text.contains("refuse"))
    ));
    let (_, events) = haiduks_beat_reiters(|p| p.special_rules.push(SpecialRule::NoQuarter));
    let d = pursuit(&events).expect("No Quarter pursues");
    assert!((d - 5.0).abs() < 0.01, "its Additional Move, 5 cm: {d}");
}

/// No Quarter infantry with no Additional Move still pursues, 5 cm (BFS-SPC-20); without the rule
/// such a unit cannot pursue at all (BFS-CC-29).
#[test]
fn bfs_spc_20_no_quarter_without_an_additional_move_pursues_five_cm() {
    let (_, events) = haiduks_beat_reiters(|p| {
        p.movement.additional = 0.0;
        p.special_rules.push(SpecialRule::NoQuarter);
    });
    let d = pursuit(&events).expect("No Quarter pursues");
    assert!((d - 5.0).abs() < 0.01, "5 cm: {d}");
    let (_, events) = haiduks_beat_reiters(|p| p.movement.additional = 0.0);
    assert_eq!(pursuit(&events), None);
}

/// Cossacks with Mobility in the Reorganization Phase (BFS-SPC-19, AMB-93): with a Defense order
/// they test Skill (4): a 9 fails and they take a Move order, a 2 keeps the Defense order. With no
/// order they get a Move order without a test; a Disorganized unit is left alone.
#[test]
fn bfs_spc_19_mobility_turns_other_orders_into_move_orders_in_the_reorganization_phase() {
    use sandtable_bfs::phases::reorganization;
    use sandtable_bfs::state::MoraleLevel;
    let mobile = || {
        edited(
            &[
                unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 30.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 90.0), 180.0),
            ],
            vec![],
            "cossack-cavalry",
            |p| {
                p.special_rules.push(SpecialRule::Mobility);
            },
        )
    };
    let skill_tests = |events: &[Event]| {
        events
            .iter()
            .filter(|e| matches!(e, Event::Test(t) if t.rule == "BFS-SPC-19" && t.kind == TestKind::Skill))
            .count()
    };
    for (face, kept) in [(9, false), (2, true)] {
        let mut g = mobile();
        set_order(&mut g, "cossacks", Some(OrderKind::Defense));
        set_order(&mut g, "reiters", Some(OrderKind::Defense));
        g.dice.script([face]);
        let mut events = Vec::new();
        reorganization::run(&mut g, &mut events);
        assert_eq!(skill_tests(&events), 1, "one test, the cossacks'");
        let want = if kept {
            OrderKind::Defense
        } else {
            OrderKind::Move
        };
        assert_eq!(g.unit(id(&g, "cossacks")).order, Some(want), "a {face}");
        assert_eq!(
            g.unit(id(&g, "reiters")).order,
            Some(OrderKind::Defense),
            "no Mobility, no change"
        );
    }
    let mut g = mobile();
    set_order(&mut g, "cossacks", None);
    let mut events = Vec::new();
    reorganization::run(&mut g, &mut events);
    assert_eq!(skill_tests(&events), 0);
    assert_eq!(g.unit(id(&g, "cossacks")).order, Some(OrderKind::Move));

    let mut g = mobile();
    set_order(&mut g, "cossacks", Some(OrderKind::Charge));
    g.unit_mut(id(&g, "cossacks")).morale = MoraleLevel::Disorganized;
    let mut events = Vec::new();
    reorganization::run(&mut g, &mut events);
    assert_eq!(skill_tests(&events), 0, "Disorganized: unaffected");
    assert_eq!(g.unit(id(&g, "cossacks")).order, Some(OrderKind::Charge));
}

/// Highlanders (BFS-SPC-13): haiduks in line, the left base wholly in a wood, the middle one half
/// in it, fight reiters in front. Only the base wholly in the wood strikes at Skill +1; without the
/// rule, or under revision 5, none does.
#[test]
fn bfs_spc_13_highlanders_fight_at_plus_one_from_a_wood() {
    use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
    let build = |highlanders: bool, revision: u32| {
        let wood = TerrainSpec {
            kind: TerrainKind::Forest,
            name: None,
            shape: ShapeSpec::Rect {
                center: (50.0, 45.0),
                size: (20.0, 20.0),
                rotation: 0.0,
            },
        };
        let mut g = edited(
            &[
                unit("haiduks", 0, "haiduks", 3, 3, (60.0, 50.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
            ],
            vec![wood],
            "haiduks",
            |p| {
                if highlanders {
                    p.special_rules.push(SpecialRule::Highlanders);
                }
            },
        );
        g.info.options.rules_revision = revision;
        at_combat(&mut g, CombatStage::CloseCombat);
        g.dice.script([9; 60]);
        let events = run(&mut g, Command::Continue);
        let haiduks = id(&g, "haiduks");
        // Per group of the haiduks' first strike: its bases and the Highlanders bonus.
        events
            .iter()
            .find_map(|e| match e {
                Event::Melee(m) if m.attacker == haiduks && m.round == 1 => Some(
                    m.groups
                        .iter()
                        .map(|gr| {
                            let bonus = gr
                                .roll
                                .plan
                                .modifiers
                                .iter()
                                .filter(|x| x.rule == "BFS-SPC-13")
                                .map(|x| x.delta)
                                .sum::<i32>();
                            (gr.bases, bonus)
                        })
                        .collect::<Vec<_>>(),
                ),
                _ => None,
            })
            .expect("the haiduks strike")
    };
    let groups = build(true, 6);
    assert_eq!(
        groups.iter().filter(|g| g.1 == 1).map(|g| g.0).sum::<u32>(),
        1,
        "one base wholly in the wood: {groups:?}"
    );
    assert_eq!(groups.iter().map(|g| g.0).sum::<u32>(), 3, "{groups:?}");
    for (highlanders, revision) in [(false, 6), (true, 5)] {
        let groups = build(highlanders, revision);
        assert!(groups.iter().all(|g| g.1 == 0), "{groups:?}");
    }
}

/// Marksmen (BFS-SPC-17): haiduks with a Defense order, 4 bases in 2 ranks, shoot with their 2
/// front bases at Skill +1 each (2 bases in the second rank); 3 bases in 2 ranks give +1 to one
/// base only; in a single rank, without a Defense order or Disorganized, none.
#[test]
fn bfs_spc_17_marksmen_shoot_at_plus_one_for_each_base_behind() {
    use sandtable_bfs::shooting::FireStage;
    use sandtable_bfs::state::MoraleLevel;
    let volley = |bases: u8, files: u8, order: Option<OrderKind>, morale: MoraleLevel| {
        let mut g = edited(
            &[
                unit("haiduks", 0, "haiduks", bases, files, (60.0, 50.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 62.0), 180.0),
            ],
            vec![],
            "haiduks",
            |p| {
                p.special_rules.push(SpecialRule::Marksmen);
            },
        );
        set_order(&mut g, "haiduks", order);
        let h = id(&g, "haiduks");
        g.unit_mut(h).morale = morale;
        let plan = sandtable_bfs::preview::volley(&g, h, FireStage::DefendersFire)
            .expect("the haiduks can shoot");
        let sharp: u32 = plan
            .groups
            .iter()
            .filter(|gr| {
                gr.spec
                    .modifiers
                    .iter()
                    .any(|m| m.rule == "BFS-SPC-17" && m.delta == 1)
            })
            .map(|gr| gr.bases)
            .sum();
        let all: u32 = plan.groups.iter().map(|gr| gr.bases).sum();
        (sharp, all)
    };
    let d = Some(OrderKind::Defense);
    assert_eq!(volley(4, 2, d, MoraleLevel::Good), (2, 2));
    assert_eq!(volley(3, 2, d, MoraleLevel::Good), (1, 2));
    assert_eq!(volley(3, 3, d, MoraleLevel::Good), (0, 3), "one rank");
    assert_eq!(volley(4, 2, Some(OrderKind::Move), MoraleLevel::Good).0, 0);
    assert_eq!(volley(4, 2, d, MoraleLevel::Disorganized).0, 0);
}

/// Independent (BFS-SPC-14): in turn 2, haiduks 80 cm from their colonel take a Move order for
/// free, placed face up: the other side's view, its log and the table marker all show it. Under
/// revision 5 the same order cost CP by distance and stayed face down.
#[test]
fn bfs_spc_14_an_independent_unit_takes_any_order_free_and_face_up() {
    use sandtable_bfs::ids::CommanderId;
    use sandtable_engine::Present;
    let build = |revision: u32| {
        let mut g = edited(
            &[
                unit("haiduks", 0, "haiduks", 3, 3, (84.0, 84.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
            ],
            vec![],
            "haiduks",
            |p| {
                p.special_rules.push(SpecialRule::Independent);
            },
        );
        g.info.options.rules_revision = revision;
        at_orders(&mut g, Side::A);
        g
    };
    let mut g = build(6);
    let h = id(&g, "haiduks");
    let colonel = CommanderId(0);
    let cp = g.commander(colonel).cp;
    let events = run(
        &mut g,
        Command::IssueOrder {
            unit: h,
            order: OrderKind::Move,
            by: colonel,
        },
    );
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::OrderIssued {
                cp: 0,
                independent: true,
                ..
            }
        )),
        "{events:?}"
    );
    assert_eq!(g.commander(colonel).cp, cp, "free");
    let theirs = Bfs::view(&g, 1);
    assert_eq!(
        theirs.unit(h).pending_order.and_then(|p| p.kind),
        Some(OrderKind::Move),
        "face up: the Swedes see it"
    );
    let redacted = events[0].redacted_for(Side::B, |u| g.unit(u).side);
    assert!(matches!(
        redacted,
        Event::OrderIssued {
            order: Some(OrderKind::Move),
            ..
        }
    ));
    let marker = Bfs::table(&theirs, 1)
        .pieces
        .into_iter()
        .find(|p| p.key == "haiduks")
        .and_then(|p| p.tokens.into_iter().find(|t| t.text == "M"))
        .expect("the M marker");
    assert!(!marker.face_down);

    let mut g = build(5);
    let events = run(
        &mut g,
        Command::IssueOrder {
            unit: h,
            order: OrderKind::Move,
            by: colonel,
        },
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::OrderIssued { cp, .. } if *cp > 1))
    );
    assert_eq!(
        Bfs::view(&g, 1).unit(h).pending_order.and_then(|p| p.kind),
        None
    );
}

/// Reiters 15 cm from cossacks (Light Cavalry, side A, with a Move order) declare a charge; the
/// cossacks are asked to react whatever their order. Returns the game at that point.
fn reiters_charge_cossacks(order: Option<OrderKind>, revision: u32) -> Game {
    let mut g = edited(
        &[
            unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 68.0), 180.0),
        ],
        vec![],
        "reiters",
        |_| {},
    );
    g.info.options.rules_revision = revision;
    set_order(&mut g, "cossacks", order);
    set_order(&mut g, "reiters", Some(OrderKind::Charge));
    at_movement(&mut g, Side::B, false);
    let (cossacks, reiters) = (id(&g, "cossacks"), id(&g, "reiters"));
    run(
        &mut g,
        Command::DeclareCharge {
            unit: reiters,
            target: cossacks,
            pay: None,
        },
    );
    g
}

/// BFS-SPC-16: the cossacks Break Off their full Move, 20 cm straight away from the reiters, and a
/// passed Skill test (a 1 against Skill 4) turns them to face the reiters again; a failed one (a
/// 9) leaves them facing away. They may not move again this turn.
#[test]
fn bfs_spc_16_light_cavalry_breaks_off_its_full_move_and_tests_to_face_the_enemy() {
    for (face, faces_charger) in [(1, true), (9, false)] {
        let mut g = reiters_charge_cossacks(Some(OrderKind::Move), 6);
        let c = id(&g, "cossacks");
        let before = sandtable_bfs::geo::frame_of(&g.unit(c).bases).center();
        let events = break_off(&mut g, c, [face, 9, 9, 9]);
        assert!(
            events.iter().any(|e| matches!(e, Event::Ruling { rule, text } if rule == "BFS-SPC-16" && text.contains("20.0 cm"))),
            "{events:#?}"
        );
        let after = sandtable_bfs::geo::frame_of(&g.unit(c).bases).center();
        assert!(
            (before.y - after.y - 20.0).abs() < 0.01,
            "20 cm south: {before} → {after}"
        );
        assert!((before.x - after.x).abs() < 0.01);
        let facing = g.unit(c).facing();
        if faces_charger {
            assert!(
                (facing.y - 1.0).abs() < 1e-4,
                "faces north, the reiters: {facing}"
            );
        } else {
            assert!((facing.y + 1.0).abs() < 1e-4, "faces south, away: {facing}");
        }
        assert!(g.unit(c).flags.broke_off && g.unit(c).flags.activated);
    }
}

/// BFS-SPC-16 with BFS-TER-1: cossacks on the table's southern edge, their eastern base touching a
/// steep hill, break off from reiters charging from the north-east. Turning each base about its
/// centre to ride south-west would swing the eastern base's corner into the hill, impassable to
/// cavalry, and the table's edge leaves them no room to ride out of it: the bases keep their
/// facing instead. Battles before rules revision 16 were left in the hill (found by the property
/// tests).
#[test]
fn bfs_spc_16_breaking_off_turns_no_base_into_impassable_ground() {
    use sandtable_engine::scenario::{ShapeSpec, TerrainKind, TerrainSpec};
    let placed = [
        unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 3.2), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (82.0, 25.2), 135.0),
    ];
    let open = edited(&placed, vec![], "reiters", |_| {});
    let c = id(&open, "cossacks");
    let (lo, hi) = open
        .unit(c)
        .bases
        .iter()
        .flat_map(|b| b.corners())
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.y), hi.max(p.x))
        });
    let east = hi + 0.02;
    let hill = TerrainSpec {
        kind: TerrainKind::SteepHill,
        name: Some("Crag".into()),
        shape: ShapeSpec::Polygon(vec![
            (east, lo - 3.0),
            (east + 6.0, lo - 3.0),
            (east + 6.0, lo + 6.0),
            (east, lo + 6.0),
        ]),
    };
    for (revision, into_the_hill) in [(16, false), (15, true)] {
        let mut g = edited(&placed, vec![hill.clone()], "reiters", |_| {});
        g.info.options.rules_revision = revision;
        set_order(&mut g, "cossacks", Some(OrderKind::Move));
        set_order(&mut g, "reiters", Some(OrderKind::Charge));
        at_movement(&mut g, Side::B, false);
        let reiters = id(&g, "reiters");
        run(
            &mut g,
            Command::DeclareCharge {
                unit: reiters,
                target: c,
                pay: None,
            },
        );
        let events = break_off(&mut g, c, [9, 9, 9, 9]);
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-SPC-16")),
            "{events:#?}"
        );
        let under = sandtable_bfs::ground::impassable_under(&g, c, &g.unit(c).bases);
        assert_eq!(
            under.is_some(),
            into_the_hill,
            "revision {revision}: {under:?}, bases {:?}",
            g.unit(c).bases
        );
        if !into_the_hill {
            // Facing as they stood, ridden only the little room the table's edge leaves.
            for (now, then) in g.unit(c).bases.iter().zip(&open.unit(c).bases) {
                assert_eq!(now.pose.angle, then.pose.angle);
                assert!(now.center().distance(then.center()) < 0.5, "{now:?}");
            }
        }
    }
}

/// No Break Off with a Charge order, nor under revision 5 (where a unit with a Move order is not
/// even asked to react); a Disorganized unit that fails its Morale test flees instead.
#[test]
fn bfs_spc_16_who_may_break_off() {
    use sandtable_bfs::state::MoraleLevel;
    use sandtable_bfs::turn::Phase;
    use sandtable_bfs::vocab::Reaction;
    let g = reiters_charge_cossacks(Some(OrderKind::Charge), 6);
    let c = id(&g, "cossacks");
    let refused = Bfs::legal(
        &g,
        &Command::React {
            unit: c,
            reaction: Reaction::BreakOff,
        },
    )
    .unwrap_err();
    assert_eq!(refused.rule, "BFS-SPC-16");
    assert!(
        refused.message.contains("Charge order"),
        "{}",
        refused.message
    );

    let g = reiters_charge_cossacks(Some(OrderKind::Move), 5);
    assert!(
        !matches!(
            g.turn.phase,
            Phase::Movement {
                charge: Some(_),
                ..
            }
        ),
        "revision 5: no reaction asked of a unit with a Move order"
    );

    let mut g = reiters_charge_cossacks(None, 6);
    let c = id(&g, "cossacks");
    g.unit_mut(c).morale = MoraleLevel::Disorganized;
    let events = break_off(&mut g, c, [10, 9, 9, 9]);
    assert!(events.iter().any(|e| matches!(e, Event::Test(t) if t.rule == "BFS-SPC-16" && t.kind == TestKind::Morale && !t.roll.passed)));
    assert_eq!(g.unit(c).morale, MoraleLevel::Flight);
}

/// BFS-SPC-16: Light Cavalry that loses a close combat may withdraw its full Move. Cossacks
/// (Move 20) fight reiters with every die a 1: every hit is saved, the reiters win on their
/// modifiers, the cossacks pass their Morale test and withdraw 20 cm; under revision 5, 10 cm.
#[test]
fn bfs_spc_16_light_cavalry_withdraws_its_full_move_after_a_lost_combat() {
    for (revision, want) in [(6, 20.0), (5, 10.0)] {
        let mut g = edited(
            &[
                unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 50.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
            ],
            vec![],
            "reiters",
            |_| {},
        );
        g.info.options.rules_revision = revision;
        at_combat(&mut g, CombatStage::CloseCombat);
        g.dice.script([1; 80]);
        let events = run(&mut g, Command::Continue);
        let lost = events
            .iter()
            .any(|e| matches!(e, Event::CombatResolved(r) if r.winner == Some(Side::B)));
        assert!(lost, "the reiters win: {events:#?}");
        let cossacks = id(&g, "cossacks");
        let d = events
            .iter()
            .find_map(|e| match e {
                Event::Withdrew {
                    unit, distance_cm, ..
                } if *unit == cossacks => Some(*distance_cm),
                _ => None,
            })
            .expect("the cossacks withdraw");
        assert!((d - want).abs() < 0.01, "revision {revision}: {d} cm");
    }
}

/// Haiduks (side A, Morale 5 on the profile) standing with `order`, their profile with To the
/// Last Man, under `revision`: one Morale test for a lost combat by 1 (target 4), with the dice
/// scripted to fail it with a 7 and then to pass with a 2.
fn last_man_test(
    order: Option<OrderKind>,
    revision: u32,
    faces: &[u8],
) -> sandtable_bfs::dice::TestRoll {
    use sandtable_bfs::morale::{MoraleCause, morale_test};
    let mut g = edited(
        &[
            unit("haiduks", 0, "haiduks", 3, 3, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 80.0), 180.0),
        ],
        vec![],
        "haiduks",
        |p| {
            p.morale = 5;
            p.special_rules.push(SpecialRule::ToTheLastMan);
        },
    );
    g.info.options.rules_revision = revision;
    set_order(&mut g, "haiduks", order);
    g.dice.script(faces.iter().copied());
    let haiduks = id(&g, "haiduks");
    morale_test(&mut g, haiduks, &MoraleCause::LostCombat { margin: 1 })
}

/// BFS-SPC-33: with a Defense order the failed test (7 against 4) is rolled again, and the 2
/// passes; with a Move order, or under revision 6, the 7 stands.
#[test]
fn bfs_spc_33_to_the_last_man_rolls_a_failed_morale_test_again_under_a_defense_order() {
    let again = last_man_test(Some(OrderKind::Defense), 7, &[7, 2]);
    assert_eq!(
        (again.target, again.rerolled, again.face, again.passed),
        (4, Some(7), Some(2), true)
    );
    let narrated = sandtable_bfs::narrate::test(&again);
    assert!(
        narrated.contains("rolled 7, failed, and again"),
        "{narrated}"
    );
    for (order, revision) in [(Some(OrderKind::Move), 7), (Some(OrderKind::Defense), 6)] {
        let once = last_man_test(order, revision, &[7, 2]);
        assert_eq!(
            (once.rerolled, once.face, once.passed),
            (None, Some(7), false),
            "{order:?} under revision {revision}"
        );
    }
}

/// BFS-SPC-33, the proposed resolution of "may reroll": roll again when a new roll is expected
/// to cost fewer Morale levels. Against 4 a failure by 1–4 costs one level; a new roll passes
/// 4 in 10, fails by 5 or more on a 9 or 10 (two levels): 0.4 + 2 × 0.2 = 0.8 < 1, so again.
/// Against 1 a new roll is worse (0.4 + 2 × 0.5 = 1.4) unless the failure already cost two.
#[test]
fn bfs_spc_33_rolls_again_only_when_that_is_expected_to_cost_less() {
    use sandtable_bfs::morale::reroll_helps;
    let failed = |target: i32, face: u8| sandtable_bfs::dice::TestRoll {
        base_target: target,
        modifiers: vec![],
        target,
        face: Some(face),
        passed: false,
        failed_by: face as i32 - target,
        rerolled: None,
    };
    assert!(reroll_helps(&failed(4, 7)));
    assert!(
        !reroll_helps(&failed(1, 4)),
        "failed by 3 against 1: one level"
    );
    assert!(
        reroll_helps(&failed(1, 6)),
        "failed by 5 against 1: two levels"
    );
    let automatic = sandtable_bfs::dice::TestRoll {
        face: None,
        failed_by: 10,
        ..failed(0, 1)
    };
    assert!(
        !reroll_helps(&automatic),
        "an automatic failure has no roll to repeat"
    );
}

/// BFS-SPC-7: four bases of pancerni with Companions fighting four bases of reiters roll 4 / 2
/// = 2 more dice in the first round; not when Disorganized, not under revision 6.
#[test]
fn bfs_spc_7_companions_roll_a_die_more_for_every_two_bases_fighting() {
    let extra = |revision: u32, disorganized: bool| {
        let mut g = edited(
            &[
                unit("pancerni", 0, "pancerni", 4, 4, (60.0, 50.0), 0.0),
                unit("reiters", 1, "reiters", 4, 4, (60.0, 50.0), 180.0),
            ],
            vec![],
            "pancerni",
            |p| p.special_rules.push(SpecialRule::Companions),
        );
        g.info.options.rules_revision = revision;
        if disorganized {
            let r = id(&g, "pancerni");
            g.unit_mut(r).morale = sandtable_bfs::state::MoraleLevel::Disorganized;
        }
        at_combat(&mut g, CombatStage::CloseCombat);
        g.dice.script([9; 80]);
        let events = run(&mut g, Command::Continue);
        let pancerni = id(&g, "pancerni");
        events
            .iter()
            .find_map(|e| match e {
                Event::Melee(m) if m.attacker == pancerni && m.round == 1 => Some(
                    m.groups
                        .iter()
                        .flat_map(|gr| &gr.roll.plan.dice_changes)
                        .filter(|c| c.rule == "BFS-SPC-7")
                        .map(|c| c.delta)
                        .sum::<i32>(),
                ),
                _ => None,
            })
            .expect("the pancerni strike")
    };
    assert_eq!(extra(7, false), 2);
    assert_eq!(extra(6, false), 0);
    assert_eq!(extra(7, true), 0);
}

/// BFS-SPC-7 in the odds preview: the same four pancerni's charge shows the Companions' two
/// dice, as the fight rolls them.
#[test]
fn bfs_spc_7_the_odds_preview_counts_the_companions() {
    let dice = |companions: bool| {
        let g = edited(
            &[
                unit("pancerni", 0, "pancerni", 4, 4, (60.0, 30.0), 0.0),
                unit("reiters", 1, "reiters", 4, 4, (60.0, 60.0), 180.0),
            ],
            vec![],
            "pancerni",
            |p| {
                if companions {
                    p.special_rules.push(SpecialRule::Companions)
                }
            },
        );
        let (p, r) = (id(&g, "pancerni"), id(&g, "reiters"));
        let odds = sandtable_bfs::preview::charge_odds(&g, p, r).expect("odds");
        let words: Vec<&str> = odds.description.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "dice").expect("dice");
        words[at - 1].parse::<u32>().expect("a number of dice")
    };
    assert_eq!(dice(true), dice(false) + 2);
}

/// Rifled Barrels (BFS-SPC-27): haiduks with rifles fire them at reiters 40 cm away, beyond
/// their arquebuses' 20 cm: 1 die per base at Long range (20–50 cm), Effectiveness 0. At 10 cm
/// their arquebuses (2 dice a base, Effectiveness 1) take off more, so they fire those. Not
/// while Disorganized.
#[test]
fn bfs_spc_27_rifled_barrels_reach_fifty_centimetres_with_one_die() {
    use sandtable_bfs::event::Band;
    use sandtable_bfs::shooting::FireStage;
    use sandtable_bfs::state::MoraleLevel;
    let at = |gap: f32| {
        edited(
            &[
                unit("haiduks", 0, "haiduks", 4, 4, (60.0, 50.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0 + gap), 180.0),
            ],
            vec![],
            "haiduks",
            |p| p.special_rules.push(SpecialRule::RifledBarrels),
        )
    };
    let far = at(40.0);
    let h = id(&far, "haiduks");
    let plan = sandtable_bfs::preview::volley(&far, h, FireStage::DefendersFire)
        .expect("the rifles reach");
    assert!(plan.rifled());
    assert_eq!(plan.groups.len(), 1);
    assert_eq!(plan.groups[0].band, Band::Long);
    assert_eq!(plan.groups[0].spec.dice_per_base, vec![1; 4]);
    assert!(
        plan.groups[0].armor_mods.is_empty(),
        "Effectiveness 0 at Long range"
    );
    let near = at(10.0);
    let plan = sandtable_bfs::preview::volley(&near, h, FireStage::DefendersFire).unwrap();
    assert!(!plan.rifled());
    assert_eq!(plan.groups[0].spec.dice_per_base, vec![2; 4]);
    let mut shaken = at(40.0);
    shaken.unit_mut(h).morale = MoraleLevel::Disorganized;
    assert!(sandtable_bfs::preview::volley(&shaken, h, FireStage::DefendersFire).is_none());
    // Battles recorded under rules revision 7 never fired rifles.
    let mut old = at(40.0);
    old.info.options.rules_revision = 7;
    assert!(sandtable_bfs::preview::volley(&old, h, FireStage::DefendersFire).is_none());
}

/// Countermarch (BFS-SPC-8): Swedish musketeers in two ranks with a Defense order fire at
/// haiduks in Defender's Fire, then again in Shooting after Movement with the same frontage and
/// no −1 for that stage. In one rank, without the rule, or under rules revision 7, no second
/// volley.
#[test]
fn bfs_spc_8_countermarch_fires_again_after_movement() {
    use sandtable_bfs::shooting::{FireStage, shoots_in};
    use sandtable_bfs::turn::CombatStage;
    let after_first = |files: u8, rule: bool, revision: u32| {
        let mut g = edited(
            &[
                unit("musketeers", 1, "musketeers", 4, files, (60.0, 62.0), 180.0),
                unit("haiduks", 0, "haiduks", 4, 4, (60.0, 50.0), 0.0),
            ],
            vec![],
            "musketeers",
            |p| {
                if rule {
                    p.special_rules.push(SpecialRule::Countermarch);
                }
            },
        );
        g.info.options.rules_revision = revision;
        set_order(&mut g, "musketeers", Some(OrderKind::Defense));
        at_combat(&mut g, CombatStage::DefendersFire);
        // Misses all round, so nobody tests Morale.
        g.dice.script([10; 8]);
        run(&mut g, Command::Continue);
        let m = id(&g, "musketeers");
        assert!(g.unit(m).flags.shot, "it fired in Defender's Fire");
        (g, m)
    };
    let (g, m) = after_first(2, true, sandtable_bfs::revision::CURRENT);
    assert!(shoots_in(&g, m, FireStage::AfterMovement));
    let plan = sandtable_bfs::preview::volley(&g, m, FireStage::AfterMovement).unwrap();
    assert_eq!(plan.groups.iter().map(|gr| gr.bases).sum::<u32>(), 2);
    assert!(
        plan.groups
            .iter()
            .all(|gr| gr.spec.modifiers.iter().all(|x| x.delta >= 0)),
        "no −1 for Shooting after Movement: {:?}",
        plan.groups[0].spec.modifiers
    );
    let (g, m) = after_first(4, true, sandtable_bfs::revision::CURRENT);
    assert!(!shoots_in(&g, m, FireStage::AfterMovement), "one rank");
    let (g, m) = after_first(2, false, sandtable_bfs::revision::CURRENT);
    assert!(!shoots_in(&g, m, FireStage::AfterMovement), "no rule");
    let (g, m) = after_first(2, true, 7);
    assert!(!shoots_in(&g, m, FireStage::AfterMovement), "revision 7");
}

/// BFS-SPC-5: Commanded Musketeers (here the Swedish musketeers given the rule, 4 bases 2 deep,
/// with Countermarch and Salvo too) take a Defense order for free and face up ("Take and
/// Hold"), any other order as usual; they lose Countermarch and Salvo; they see all round, as
/// Skirmishers; with muskets they take no −1 in Shooting after Movement. Not before revision 9.
#[test]
fn bfs_spc_5_commanded_musketeers() {
    use sandtable_bfs::ids::CommanderId;
    use sandtable_bfs::shooting::{Fire, FireStage};
    let build = |revision: u32| {
        let mut g = edited(
            &[
                unit("musketeers", 1, "musketeers", 4, 2, (60.0, 65.0), 180.0),
                unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
            ],
            vec![],
            "musketeers",
            |p| {
                p.special_rules.extend([
                    SpecialRule::CommandedMusketeers,
                    SpecialRule::Countermarch,
                    SpecialRule::Salvo,
                ]);
            },
        );
        g.info.options.rules_revision = revision;
        at_orders(&mut g, Side::B);
        g
    };
    let mut g = build(9);
    let m = id(&g, "musketeers");
    let colonel = CommanderId(1);
    let cp = g.commander(colonel).cp;
    let events = run(
        &mut g,
        Command::IssueOrder {
            unit: m,
            order: OrderKind::Defense,
            by: colonel,
        },
    );
    assert_eq!(g.commander(colonel).cp, cp, "free");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::OrderIssued {
            cp: 0,
            independent: true,
            ..
        }
    )));
    assert_eq!(
        Bfs::view(&g, 0).unit(m).pending_order.and_then(|p| p.kind),
        Some(OrderKind::Defense),
        "face up"
    );
    let move_cost =
        sandtable_bfs::phases::orders::check_issue(&build(9), m, OrderKind::Move, colonel)
            .unwrap()
            .cp;
    assert!(move_cost >= 1, "a Move order is paid for");

    // Fire: no Salvo, no second volley, no −1 after movement with muskets. They deploy in Open
    // Order (BFS-OO-1): stand them in a Close Order Line 2 deep, as the plain musketeers stand.
    let mut f = build(9);
    let close = game(&[
        unit("musketeers", 1, "musketeers", 4, 2, (60.0, 65.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
    ]);
    f.unit_mut(m).bases = close.unit(m).bases.clone();
    f.unit_mut(m).formation = close.unit(m).formation;
    set_order(&mut f, "musketeers", Some(OrderKind::Defense));
    assert_eq!(
        sandtable_bfs::shooting::ranks::ranks(&f, m).len(),
        2,
        "two ranks"
    );
    let plan = sandtable_bfs::preview::volley(&f, m, FireStage::DefendersFire).unwrap();
    assert_eq!(plan.fire, Fire::Weapon, "no Salvo");
    assert!(
        !sandtable_bfs::shooting::twice::fires_twice(&f, m),
        "no Countermarch"
    );
    set_order(&mut f, "musketeers", Some(OrderKind::Move));
    let after = sandtable_bfs::preview::volley(&f, m, FireStage::AfterMovement).unwrap();
    assert!(
        !after.groups[0]
            .spec
            .modifiers
            .iter()
            .any(|x| x.reason.contains("Shooting after Movement")),
        "{:?}",
        after.groups[0].spec.modifiers
    );
    let mut old = build(8);
    set_order(&mut old, "musketeers", Some(OrderKind::Move));
    let before = sandtable_bfs::preview::volley(&old, m, FireStage::AfterMovement).unwrap();
    assert!(
        before.groups[0]
            .spec
            .modifiers
            .iter()
            .any(|x| x.reason.contains("Shooting after Movement") && x.delta == -1)
    );

    // All-round vision: haiduks behind them are seen.
    let mut behind = build(9);
    let h = id(&behind, "haiduks");
    for b in behind.unit_mut(h).bases.iter_mut() {
        b.pose.pos.y += 60.0;
    }
    let scene_b = sandtable_bfs::geo::scene(&behind);
    assert!(sandtable_bfs::sight::visible_enemies(&behind, &scene_b, m).contains(&h));
    let mut old_behind = build(8);
    for b in old_behind.unit_mut(h).bases.iter_mut() {
        b.pose.pos.y += 60.0;
    }
    let scene_o = sandtable_bfs::geo::scene(&old_behind);
    assert!(!sandtable_bfs::sight::visible_enemies(&old_behind, &scene_o, m).contains(&h));
}

/// Reiters 15 cm from cossacks with Feigned Flight instead of Light Cavalry and a Shooting of 2
/// (side A, Move order) declare a charge, under rules revision `revision`.
fn reiters_charge_feigning_cossacks(revision: u32) -> Game {
    let mut g = edited(
        &[
            unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 68.0), 180.0),
        ],
        vec![],
        "cossack-cavalry",
        |p| {
            p.special_rules = vec![SpecialRule::FeignedFlight];
            // Two dice a base, so that the rule's one die a base shows.
            p.shooting = 2;
        },
    );
    g.info.options.rules_revision = revision;
    set_order(&mut g, "cossacks", Some(OrderKind::Move));
    set_order(&mut g, "reiters", Some(OrderKind::Charge));
    at_movement(&mut g, Side::B, false);
    let (cossacks, reiters) = (id(&g, "cossacks"), id(&g, "reiters"));
    run(
        &mut g,
        Command::DeclareCharge {
            unit: reiters,
            target: cossacks,
            pay: None,
        },
    );
    g
}

/// BFS-SPC-11: Feigned Flight counts as Light Cavalry, so the cossacks may Break Off; they turn
/// to face the reiters without a Skill test (a 9 would have failed it).
#[test]
fn bfs_spc_11_feigned_flight_breaks_off_and_faces_without_a_test() {
    let mut g = reiters_charge_feigning_cossacks(9);
    let c = id(&g, "cossacks");
    let events = break_off(&mut g, c, [9, 9, 9, 9]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ruling { rule, .. } if rule == "BFS-SPC-11"))
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Test(t) if t.rule == "BFS-SPC-16")),
        "no Skill test"
    );
    assert!(
        (g.unit(c).facing().y - 1.0).abs() < 1e-4,
        "faces north, the reiters"
    );
}

/// BFS-SPC-11: cossacks with Feigned Flight that did not shoot in Defender's Fire shoot at the
/// reiters charging them in Reaction Fire, 1 die a base, without a Defense order or a CP; under
/// revision 8 they do not.
#[test]
fn bfs_spc_11_feigned_flight_shoots_at_its_charger_in_reaction_fire() {
    use sandtable_bfs::shooting::{FireStage, shoots_in};
    use sandtable_bfs::vocab::Reaction;
    let mut g = reiters_charge_feigning_cossacks(9);
    let (c, r) = (id(&g, "cossacks"), id(&g, "reiters"));
    run(
        &mut g,
        Command::React {
            unit: c,
            reaction: Reaction::Stand,
        },
    );
    assert!(shoots_in(&g, c, FireStage::ReactionFire));
    let plan = sandtable_bfs::preview::volley(&g, c, FireStage::ReactionFire).expect("a volley");
    assert_eq!(plan.target, sandtable_bfs::event::Piece::Unit(r));
    assert!(
        plan.groups
            .iter()
            .all(|gr| gr.spec.dice_per_base.iter().all(|d| *d == 1))
    );
    let mut old = reiters_charge_feigning_cossacks(8);
    run(
        &mut old,
        Command::React {
            unit: c,
            reaction: Reaction::Stand,
        },
    );
    assert!(!shoots_in(&old, c, FireStage::ReactionFire));
}

/// BFS-SPC-14, AMB-73: a Disorganized Independent unit rallies itself in its Orders Phase, with
/// no commander and no CP; it is its one attempt of the turn, so no commander may try after; a
/// unit that is not Independent may not.
#[test]
fn bfs_spc_14_an_independent_unit_rallies_itself() {
    use sandtable_bfs::ids::CommanderId;
    use sandtable_bfs::state::MoraleLevel;
    let build = |independent: bool| {
        let mut g = edited(
            &[
                unit("haiduks", 0, "haiduks", 3, 3, (84.0, 84.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
            ],
            vec![],
            "haiduks",
            |p| {
                if independent {
                    p.special_rules.push(SpecialRule::Independent);
                }
            },
        );
        at_orders(&mut g, Side::A);
        let h = id(&g, "haiduks");
        g.unit_mut(h).morale = MoraleLevel::Disorganized;
        g
    };
    let mut g = build(true);
    let h = id(&g, "haiduks");
    let cp = g.commander(CommanderId(0)).cp;
    g.dice.script([1]);
    let events = run(&mut g, Command::RallyItself { unit: h });
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Test(t) if t.kind == TestKind::Rally && t.roll.passed))
    );
    assert_eq!(g.unit(h).morale, MoraleLevel::Good);
    assert_eq!(g.commander(CommanderId(0)).cp, cp, "no CP");

    let mut failed = build(true);
    failed.dice.script([10]);
    run(&mut failed, Command::RallyItself { unit: h });
    assert_eq!(failed.unit(h).morale, MoraleLevel::Disorganized);
    let again = Command::Rally {
        unit: h,
        by: CommanderId(0),
        extra_cp: 0,
    };
    assert_eq!(Bfs::legal(&failed, &again).unwrap_err().rule, "BFS-RAL-3");

    let plain = build(false);
    assert_eq!(
        Bfs::legal(&plain, &Command::RallyItself { unit: h })
            .unwrap_err()
            .rule,
        "BFS-SPC-14"
    );
}

/// BFS-SPC-25: Rabble haiduks standing 3 wide and 1 deep at the start of their Movement Phase
/// lose their Move order and must Reform, whatever their order: nothing else is allowed; a
/// Reform 2 wide (2 + 1) is, one 3 wide is not. A Rabble unit in formation may not widen its
/// front past its ranks.
#[test]
fn bfs_spc_25_rabble_out_of_formation_must_reform() {
    use sandtable_bfs::command::{MoveStep, SpecialManeuver};
    let mut g = edited(
        &[
            unit("haiduks", 0, "haiduks", 3, 3, (60.0, 30.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![],
        "haiduks",
        |p| p.special_rules.push(SpecialRule::Rabble),
    );
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let h = id(&g, "haiduks");
    let mut events = Vec::new();
    sandtable_bfs::rabble::at_movement_start(&mut g, Side::A, &mut events);
    assert_eq!(g.unit(h).order, None, "the Move order is lost");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::OrderChanged { rule, .. } if rule == "BFS-SPC-25"
    )));
    let forward = Command::Move {
        unit: h,
        steps: vec![MoveStep::Forward(5.0)],
    };
    assert_eq!(Bfs::legal(&g, &forward).unwrap_err().rule, "BFS-SPC-25");
    let reform = |files| Command::Maneuver {
        unit: h,
        maneuvers: vec![SpecialManeuver::Reform {
            files,
            degrees: 0.0,
        }],
    };
    assert_eq!(Bfs::legal(&g, &reform(3)).unwrap_err().rule, "BFS-SPC-25");
    run(&mut g, reform(2));
    assert!(!g.unit(h).flags.must_reform);
    assert_eq!(
        g.unit(h).formation,
        sandtable_bfs::state::Formation::Close { files: 2 }
    );

    // In formation (2 + 1) with a Move order: widening to 3 is refused.
    let mut ok = edited(
        &[
            unit("haiduks", 0, "haiduks", 3, 2, (60.0, 30.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![],
        "haiduks",
        |p| p.special_rules.push(SpecialRule::Rabble),
    );
    set_order(&mut ok, "haiduks", Some(OrderKind::Move));
    at_movement(&mut ok, Side::A, false);
    let mut events = Vec::new();
    sandtable_bfs::rabble::at_movement_start(&mut ok, Side::A, &mut events);
    assert_eq!(
        ok.unit(h).order,
        Some(OrderKind::Move),
        "in formation: it keeps it"
    );
    let widen = Command::Move {
        unit: h,
        steps: vec![MoveStep::Frontage(1)],
    };
    assert_eq!(Bfs::legal(&ok, &widen).unwrap_err().rule, "BFS-SPC-25");
}

/// BFS-SPC-25: a Rabble unit of Skill 3, allowed only one Special Maneuver, still makes its
/// forced Reform (both).
#[test]
fn bfs_spc_25_a_recruit_rabble_unit_still_reforms() {
    use sandtable_bfs::command::SpecialManeuver;
    let mut g = edited(
        &[
            unit("haiduks", 0, "haiduks", 3, 3, (60.0, 30.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![],
        "haiduks",
        |p| {
            p.special_rules.push(SpecialRule::Rabble);
            p.skill = 3;
        },
    );
    set_order(&mut g, "haiduks", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    let h = id(&g, "haiduks");
    let mut events = Vec::new();
    sandtable_bfs::rabble::at_movement_start(&mut g, Side::A, &mut events);
    run(
        &mut g,
        Command::Maneuver {
            unit: h,
            maneuvers: vec![SpecialManeuver::Reform {
                files: 2,
                degrees: 0.0,
            }],
        },
    );
    assert!(!g.unit(h).flags.must_reform);
}

/// BFS-CC-29 (and BFS-CHG-28): a commander with the winner in range stops its pursuit for 1 CP.
/// Haiduks that beat musketeers pursue them; told beforehand, their colonel holds them back and
/// pays when it comes to it. A No Quarter unit cannot be held back.
#[test]
fn bfs_cc_29_a_commander_stops_the_pursuit_for_one_cp() {
    let beat = |hold: bool, no_quarter: bool| {
        let mut g = edited(
            &[
                unit("haiduks", 0, "haiduks", 3, 3, (60.0, 50.0), 0.0),
                unit("musketeers", 1, "musketeers", 3, 3, (60.0, 50.0), 180.0),
            ],
            vec![],
            "haiduks",
            |p| {
                p.skill = 10;
                if no_quarter {
                    p.special_rules.push(SpecialRule::NoQuarter);
                }
            },
        );
        let c = sandtable_bfs::ids::CommanderId(0);
        g.commander_mut(c).base.pose.pos = sandtable_geometry::Vec2::new(60.0, 40.0);
        let haiduks = id(&g, "haiduks");
        at_orders(&mut g, Side::A);
        let order = Command::HoldPursuit {
            unit: haiduks,
            by: c,
        };
        if no_quarter {
            let e = Bfs::legal(&g, &order).unwrap_err();
            assert_eq!(e.rule, "BFS-SPC-20", "{}", e.message);
        } else if hold {
            run(&mut g, order);
        }
        let cp = g.commander(c).cp;
        at_combat(&mut g, CombatStage::CloseCombat);
        g.dice.script([9; 60]);
        let events = run(&mut g, Command::Continue);
        (pursuit(&events), cp - g.commander(c).cp, events)
    };
    let (free, spent, _) = beat(false, false);
    assert!(free.is_some(), "the haiduks pursue");
    assert_eq!(spent, 0);
    let (held, spent, events) = beat(true, false);
    assert_eq!(held, None);
    assert_eq!(spent, 1);
    assert!(events.iter().any(
        |e| matches!(e, Event::Ruling { rule, text } if rule == "BFS-CC-29" && text.contains("1 CP"))
    ));
    beat(false, true);
}
