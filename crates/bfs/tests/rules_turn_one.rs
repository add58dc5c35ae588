//! Additional Effects of the pre-battle sequence played in turn 1: March Losses at the start of
//! the Orders Phase (BFS-SCN-28) and Panic at the start of the Movement Phase (BFS-SCN-33).

mod support;
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{MoraleLevel, UnitStatus};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, Command};
use sandtable_engine::Ruleset;
use support::*;

/// Both sides bid nothing, the winner keeps the Initiative: turn 1's first Orders Phase.
fn to_first_orders(g: &mut sandtable_bfs::Game) {
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

fn two_units() -> Vec<Placed> {
    vec![
        unit("hussars", 0, "winged-hussars", 3, 3, (40.0, 20.0), 0.0),
        unit("musketeers", 1, "musketeers", 4, 4, (60.0, 100.0), 180.0),
        unit("gun", 1, "regimental-gun", 1, 1, (90.0, 100.0), 180.0),
    ]
}

/// BFS-SCN-28: a March Losses against the Swedes takes a base from a random unit of men (not
/// the gun) when turn 1's Orders Phase begins; it is not a loss at the end unless the unit is
/// destroyed or flees.
#[test]
fn bfs_scn_28_march_losses_take_a_base_that_counts_only_if_the_unit_is_lost() {
    let mut s = setup(&two_units(), vec![]);
    s.scenario.rules.pre_battle.march_losses = vec![1];
    let mut g = Bfs::setup(&s, 3).unwrap();
    let m = id(&g, "musketeers");
    to_first_orders(&mut g);
    assert!(matches!(g.turn.phase, Phase::Orders { second: false, .. }));
    assert_eq!(
        g.unit(m).bases.len(),
        3,
        "the musketeers lost a base on the march"
    );
    assert_eq!(g.unit(m).march_losses, 1);
    assert!(g.info.pre_battle.march_losses.is_empty(), "played once");
    let report = sandtable_bfs::victory::report(&g, "test");
    assert_eq!(
        report.sides[1].bases_destroyed, 0,
        "not a loss while the unit stands"
    );
    g.unit_mut(m).morale = MoraleLevel::Flight;
    let report = sandtable_bfs::victory::report(&g, "test");
    // Fleeing at the end: its 3 bases count as fled, and the base lost on the march as lost.
    assert_eq!(report.sides[1].bases_destroyed, 1);
    assert_eq!(report.sides[1].bases_fled, 3);
}

/// BFS-SCN-33: a Panic Disorganizes a random unit (never the gun) when turn 1's first Movement
/// Phase begins; cavalry withdraw.
#[test]
fn bfs_scn_33_panic_disorganizes_a_unit_and_cavalry_withdraw() {
    for seed in 0..6 {
        let mut s = setup(&two_units(), vec![]);
        s.scenario.rules.pre_battle.panic = vec![0, 1];
        let mut g = Bfs::setup(&s, seed).unwrap();
        let (h, m, gun) = (id(&g, "hussars"), id(&g, "musketeers"), id(&g, "gun"));
        let y0 = g.unit(h).bases[0].center().y;
        to_first_orders(&mut g);
        run(&mut g, Command::EndOrders);
        run(&mut g, Command::EndOrders);
        assert!(
            matches!(g.turn.phase, Phase::Movement { .. }),
            "{:?}",
            g.turn.phase
        );
        assert_eq!(g.unit(h).morale, MoraleLevel::Disorganized);
        assert_eq!(
            g.unit(m).morale,
            MoraleLevel::Disorganized,
            "the gun is passed over"
        );
        assert_eq!(g.unit(gun).morale, MoraleLevel::Good);
        assert_eq!(g.unit(gun).status, UnitStatus::OnTable);
        // The hussars withdrew towards their own (south) edge.
        assert!(g.unit(h).bases[0].center().y < y0 - 1.0);
    }
}

/// BFS-SCN-31, -46, -50: a Delayed unit waits in Reserves at its own edge and comes on with a
/// Move order when it passes a Skill test in a Reorganization Phase after turn 1's; an
/// outmaneuvered one comes on at the end of turn 1 without a test.
#[test]
fn bfs_scn_31_and_46_held_back_units_come_on_at_their_edge() {
    use sandtable_bfs::delay::Delay;
    use sandtable_bfs::state::OrderKind;
    let mut units = two_units();
    units.push(unit(
        "reiters",
        1,
        "reiters",
        3,
        1,
        (60.0, 119.0 - 9.0),
        180.0,
    ));
    units.push(unit(
        "finns",
        1,
        "finnish-horse",
        3,
        1,
        (30.0, 119.0 - 9.0),
        180.0,
    ));
    let mut s = setup(&units, vec![]);
    for (key, delay) in [
        ("reiters", Delay::SkillTest),
        ("finns", Delay::EndOfTurnOne),
    ] {
        let u = s.scenario.rules.forces[1]
            .units
            .iter_mut()
            .find(|u| u.id == key)
            .unwrap();
        u.reserve = true;
        u.delayed = Some(delay);
        u.formation = sandtable_bfs::scenario_spec::FormationSpec::Column;
    }
    let mut g = Bfs::setup(&s, 5).unwrap();
    let (r, f) = (id(&g, "reiters"), id(&g, "finns"));
    assert_eq!(g.unit(r).status, UnitStatus::Reserve);
    // The end of turn 1: the outmaneuvered Finns come on; the Delayed reiters do not test yet.
    let mut events = Vec::new();
    sandtable_bfs::delay::reorganization(&mut g, &mut events);
    sandtable_bfs::script::run(&mut g, &mut events);
    assert_eq!(g.unit(f).status, UnitStatus::OnTable);
    assert_eq!(g.unit(f).order, Some(OrderKind::Move));
    assert_eq!(g.unit(r).status, UnitStatus::Reserve);
    // Turn 2: a failed Skill test (a 10 against Skill 5) keeps them back, a pass brings them on.
    g.turn.number = 2;
    g.dice.script([10]);
    sandtable_bfs::delay::reorganization(&mut g, &mut events);
    sandtable_bfs::script::run(&mut g, &mut events);
    assert_eq!(g.unit(r).status, UnitStatus::Reserve);
    g.turn.number = 3;
    g.dice.script([1]);
    sandtable_bfs::delay::reorganization(&mut g, &mut events);
    sandtable_bfs::script::run(&mut g, &mut events);
    assert_eq!(g.unit(r).status, UnitStatus::OnTable);
    assert_eq!(g.unit(r).order, Some(OrderKind::Move));
    // In Column touching the north edge.
    let top = g
        .unit(r)
        .bases
        .iter()
        .flat_map(|b| b.corners())
        .map(|c| c.y)
        .fold(0.0, f32::max);
    assert!(
        (top - 119.0).abs() < 0.02 || (top - 120.0).abs() < 0.02,
        "{top}"
    );
}

/// BFS-SCN-37: the side holding Decisive Moment rolls its Initiative die again once, when it
/// has lost the roll.
#[test]
fn bfs_scn_37_decisive_moment_rerolls_a_lost_initiative_once() {
    let mut s = setup(&two_units(), vec![]);
    s.scenario.rules.pre_battle.decisive_moment = vec![0];
    let mut g = Bfs::setup(&s, 1).unwrap();
    // The Poles roll 2 against 8 and lose; their reroll shows 10: they win.
    g.dice.script([2, 8, 10]);
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
    assert_eq!(g.turn.phase, Phase::InitiativeChoice { winner: Side::A });
    assert!(g.info.pre_battle.decisive_moment.is_empty(), "used once");
    // Once only: next turn a lost roll stands.
    run(&mut g, Command::ChooseInitiative { keep: true });
    g.turn.number = 2;
    sandtable_bfs::phases::initiative::begin_turn(&mut g, &mut Vec::new());
    g.dice.script([2, 8]);
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
    assert_eq!(g.turn.phase, Phase::InitiativeChoice { winner: Side::B });
}

/// BFS-SCN-47: at the end, each fled base of the side cut off tests Morale; a failure counts
/// it destroyed (1 point) instead of fled (½).
#[test]
fn bfs_scn_47_cut_off_the_retreat_turns_fled_bases_into_losses() {
    let mut s = setup(&two_units(), vec![]);
    s.scenario.rules.pre_battle.cut_off_retreat = vec![1];
    let mut g = Bfs::setup(&s, 1).unwrap();
    let m = id(&g, "musketeers");
    g.unit_mut(m).morale = MoraleLevel::Flight;
    let before = sandtable_bfs::victory::report(&g, "test");
    assert_eq!(
        (before.sides[1].bases_destroyed, before.sides[1].bases_fled),
        (0, 4)
    );
    // Musketeers' Morale is 5 (house profile): 10 and 9 fail, 1 and 5 pass.
    g.dice.script([10, 1, 9, 5]);
    let mut events = Vec::new();
    sandtable_bfs::turn_one::cut_off_the_retreat(&mut g, &mut events);
    let after = sandtable_bfs::victory::report(&g, "test");
    assert_eq!(
        (after.sides[1].bases_destroyed, after.sides[1].bases_fled),
        (2, 2)
    );
    // 2 destroyed + ceil(2 / 2) fled = 3 loss points, against ceil(4 / 2) = 2 before.
    assert_eq!(
        (before.sides[1].loss_points, after.sides[1].loss_points),
        (2, 3)
    );

    // A commander who fled off the table tests too, at his own Morale: a 10 fails, and he is
    // lost, his CP + 1 in loss points.
    let mut g = Bfs::setup(&s, 1).unwrap();
    let swede = sandtable_bfs::ids::CommanderId(1);
    g.commander_mut(swede).status = UnitStatus::Left;
    let before = sandtable_bfs::victory::report(&g, "test").sides[1].loss_points;
    g.dice.script([10]);
    let mut events = Vec::new();
    sandtable_bfs::turn_one::cut_off_the_retreat(&mut g, &mut events);
    assert_eq!(g.commander(swede).status, UnitStatus::Destroyed);
    let cp = g.commander(swede).cp_max as u32;
    assert_eq!(
        sandtable_bfs::victory::report(&g, "test").sides[1].loss_points,
        before + cp + 1
    );
}

/// BFS-SCN-45: Chaos, after Panic, makes a random unit not already Disorganized (never a gun)
/// test Morale; a failure Disorganizes it but never sends it fleeing.
#[test]
fn bfs_scn_45_chaos_tests_a_unit_that_cannot_flee_from_it() {
    let mut s = setup(&two_units(), vec![]);
    s.scenario.rules.pre_battle.chaos = vec![1];
    let mut g = Bfs::setup(&s, 2).unwrap();
    let m = id(&g, "musketeers");
    to_first_orders(&mut g);
    run(&mut g, Command::EndOrders);
    // The pick's die (one unit of men: 1), then a Morale 5 test failed by 5 (a 10): Flight by
    // the table, Disorganized by Chaos.
    g.dice.script([1, 10]);
    run(&mut g, Command::EndOrders);
    assert_eq!(g.unit(m).morale, MoraleLevel::Disorganized);
}

/// BFS-SCN-38: in turn 1 the side whose plans the prisoner gave away orders first, whatever
/// the Initiative, and its orders lie face up for the other seat to see; from turn 2 as usual.
#[test]
fn bfs_scn_38_big_mouthed_prisoner_orders_first_face_up() {
    use sandtable_bfs::vocab::OrderKind;
    let mut s = setup(&two_units(), vec![]);
    // The Swedes bought the prisoner: the Poles talk.
    s.scenario.rules.pre_battle.big_mouthed_prisoner = vec![1];
    let mut g = Bfs::setup(&s, 4).unwrap();
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
    // Whoever won, the Swedes take the Initiative: the Poles still order first.
    let winner = match g.turn.phase {
        Phase::InitiativeChoice { winner } => winner,
        ref p => panic!("{p:?}"),
    };
    run(
        &mut g,
        Command::ChooseInitiative {
            keep: winner == Side::B,
        },
    );
    assert_eq!(g.turn.initiative, Some(Side::B));
    assert!(
        matches!(
            g.turn.phase,
            Phase::Orders {
                acting: Side::A,
                second: false
            }
        ),
        "{:?}",
        g.turn.phase
    );
    let h = id(&g, "hussars");
    let by = g.commanders.iter().find(|c| c.side == Side::A).unwrap().id;
    let events = run(
        &mut g,
        Command::IssueOrder {
            unit: h,
            order: OrderKind::Charge,
            by,
        },
    );
    // The log tells why it is face up, in the other side's view too, and still in a later turn.
    let issued = events
        .iter()
        .find(|e| matches!(e, sandtable_bfs::event::Event::OrderIssued { .. }))
        .unwrap()
        .clone();
    let redacted = issued.redacted_for(Side::B, |u| g.unit(u).side);
    assert!(matches!(
        redacted,
        sandtable_bfs::event::Event::OrderIssued {
            order: Some(OrderKind::Charge),
            prisoner: true,
            ..
        }
    ));
    let mut later = g.clone();
    later.turn.number = 3;
    let said = sandtable_bfs::narrate::describe(&later, &issued);
    assert!(said.contains("Big Mouthed Prisoner"), "{said}");
    let seen = sandtable_bfs::view::view(&g, Side::B);
    assert_eq!(
        seen.unit(h).pending_order.and_then(|p| p.kind),
        Some(OrderKind::Charge),
        "the Swedes see the Poles' order"
    );
    assert!(
        sandtable_bfs::secrets::secret(
            &g,
            &Command::IssueOrder {
                unit: h,
                order: OrderKind::Move,
                by
            }
        )
        .is_none(),
        "nothing to seal in remote play"
    );
}

/// BFS-SCN-44: Confusion. When the side struck ends its free turn-1 orders, a random unit of it
/// loses its order and may be ordered again for its CP and 1 more; once both sides have ordered,
/// the buyer may change one of its orders, paying CP.
#[test]
fn bfs_scn_44_confusion_takes_an_order_and_lets_the_buyer_change_one() {
    use sandtable_bfs::vocab::OrderKind;
    let mut s = setup(&two_units(), vec![]);
    s.scenario.rules.pre_battle.confusion = vec![1];
    let mut g = Bfs::setup(&s, 6).unwrap();
    to_first_orders(&mut g);
    let (h, m) = (id(&g, "hussars"), id(&g, "musketeers"));
    let chief = |g: &sandtable_bfs::Game, side: Side| {
        g.commanders.iter().find(|c| c.side == side).unwrap().id
    };
    let mut struck = false;
    let mut window = false;
    for _ in 0..8 {
        let Phase::Orders { acting, second } = g.turn.phase else {
            break;
        };
        let by = chief(&g, acting);
        if window {
            // The buyer's window: its prompt says so, and it is for changing orders only.
            assert!(Bfs::prompt(&g).expected.contains("BFS-SCN-44"));
            let m0 = id(&g, "musketeers");
            let e = Bfs::legal(&g, &Command::Reorganize { unit: m0, by }).unwrap_err();
            assert_eq!(e.rule, "BFS-SCN-44");
            // One change, paid for.
            let cp = g.commander(by).cp;
            run(
                &mut g,
                Command::IssueOrder {
                    unit: m,
                    order: OrderKind::Defense,
                    by,
                },
            );
            assert!(g.commander(by).cp < cp, "a change is paid for");
            let gun = id(&g, "gun");
            assert!(
                Bfs::execute(
                    &mut g,
                    &Command::IssueOrder {
                        unit: gun,
                        order: OrderKind::Move,
                        by
                    }
                )
                .is_err(),
                "one change only"
            );
            run(&mut g, Command::EndOrders);
            assert!(
                matches!(g.turn.phase, Phase::Movement { .. }),
                "{:?}",
                g.turn.phase
            );
            return;
        }
        let units: Vec<_> = g
            .units
            .iter()
            .filter(|u| u.side == acting)
            .map(|u| u.id)
            .collect();
        for u in units {
            if !g.unit(u).flags.ordered {
                run(
                    &mut g,
                    Command::IssueOrder {
                        unit: u,
                        order: OrderKind::Move,
                        by,
                    },
                );
            }
        }
        run(&mut g, Command::EndOrders);
        if acting == Side::A && !struck {
            // The Poles' only unit lost its order; the phase is still theirs.
            struck = true;
            assert_eq!(g.turn.phase, Phase::Orders { acting, second });
            assert!(g.unit(h).flags.confused && g.unit(h).pending_order.is_none());
            let cp = g.commander(by).cp;
            run(
                &mut g,
                Command::IssueOrder {
                    unit: h,
                    order: OrderKind::Move,
                    by,
                },
            );
            assert!(g.commander(by).cp < cp, "ordered again for CP");
            run(&mut g, Command::EndOrders);
        }
        if second
            && struck
            && matches!(
                g.turn.phase,
                Phase::Orders {
                    acting: Side::B,
                    ..
                }
            )
        {
            window = true;
        }
    }
    panic!(
        "the buyer's window never came: struck {struck}, phase {:?}",
        g.turn.phase
    );
}

/// BFS-SCN-36: only the side with more Reconnaissance Points buys, so a scenario that gives
/// Confusion to both sides is refused with the rule.
#[test]
fn bfs_scn_36_confusion_has_one_buyer() {
    let mut s = setup(&two_units(), vec![]);
    s.scenario.rules.pre_battle.confusion = vec![0, 1];
    let problems = sandtable_bfs::load::check_scenario(&s.scenario, &s.armies);
    assert!(
        problems
            .iter()
            .any(|p| p.entity == "pre_battle.confusion" && p.message.contains("BFS-SCN-36")),
        "{problems:?}"
    );
    s.scenario.rules.pre_battle.confusion = vec![1, 1];
    assert!(sandtable_bfs::load::check_scenario(&s.scenario, &s.armies).is_empty());
}

/// BFS-SCN-27: Enthusiasm gives +1 to the Morale tests of units within the Commander's command
/// range, until a unit of the side flees off the table.
#[test]
fn bfs_scn_27_enthusiasm_within_command_range_until_a_unit_flees_off() {
    use sandtable_bfs::morale::{MoraleCause, morale_modifiers};
    let mut units = two_units();
    units.push(unit(
        "cossacks",
        0,
        "cossack-cavalry",
        3,
        3,
        (110.0, 60.0),
        0.0,
    ));
    let mut s = setup(&units, vec![]);
    s.scenario.rules.pre_battle.enthusiasm = vec![0];
    let mut g = Bfs::setup(&s, 1).unwrap();
    let chief = g.commander_in_chief(Side::A).unwrap().id;
    let range = sandtable_bfs::authority::command_range_cm(&g, chief);
    let cause = MoraleCause::Reorganize;
    let has = |g: &sandtable_bfs::Game, key: &str| {
        morale_modifiers(g, id(g, key), &cause)
            .iter()
            .any(|m| m.rule == "BFS-SCN-27")
    };
    let mut nears = Vec::new();
    for key in ["hussars", "cossacks"] {
        let near = sandtable_bfs::authority::distance_to_unit(&g, chief, id(&g, key)) <= range;
        assert_eq!(has(&g, key), near, "{key}");
        nears.push(near);
    }
    assert_eq!(nears, [true, false], "one unit within range, one beyond");
    assert!(!has(&g, "musketeers"), "the other side has no marker");
    // A unit fled off the table: the marker is lost for good.
    let c = id(&g, "cossacks");
    let u = g.unit_mut(c);
    u.status = UnitStatus::Left;
    u.bases_fled = 3;
    assert!(!has(&g, "hussars"));
}

/// BFS-SCN-27: the Enthusiasm marker discarded to pass one Morale test outright. Declared in the
/// side's phase for a unit within 20 cm of the Commander-in-Chief; that unit's next Morale test
/// passes with no roll, and the marker (with its +1) is gone for good. Not for a unit beyond
/// 20 cm, not twice.
#[test]
fn bfs_scn_27_enthusiasm_discarded_to_pass_a_test_outright() {
    use sandtable_bfs::morale::{MoraleCause, morale_modifiers, morale_test};
    use sandtable_geometry::{Pose, Rect, Vec2};
    let mut units = two_units();
    units.push(unit(
        "cossacks",
        0,
        "cossack-cavalry",
        3,
        3,
        (100.0, 20.0),
        0.0,
    ));
    let mut s = setup(&units, vec![]);
    s.scenario.rules.pre_battle.enthusiasm = vec![0];
    let mut g = Bfs::setup(&s, 1).unwrap();
    let chief = g.commander_in_chief(Side::A).unwrap().id;
    // The Commander-in-Chief just behind the hussars (front middle (40, 20)).
    let half = g.commander(chief).base.half;
    g.commander_mut(chief).base =
        Rect::new(Pose::from_bearing_deg(Vec2::new(40.0, 10.0), 0.0), half);
    let (h, c) = (id(&g, "hussars"), id(&g, "cossacks"));
    at_orders(&mut g, Side::A);
    let far = Bfs::legal(&g, &Command::SpendEnthusiasm { unit: c }).unwrap_err();
    assert_eq!(far.rule, "BFS-SCN-27");
    assert!(far.message.contains("20 cm"), "{}", far.message);
    run(&mut g, Command::SpendEnthusiasm { unit: h });
    assert!(
        Bfs::legal(&g, &Command::SpendEnthusiasm { unit: h }).is_err(),
        "once"
    );
    // Its next Morale test: passed with no die, whatever the dice would have shown.
    g.dice.script([10]);
    let roll = morale_test(&mut g, h, &MoraleCause::Reorganize);
    assert!(roll.passed && roll.face.is_none());
    assert!(roll.modifiers.iter().any(|m| m.rule == "BFS-SCN-27"));
    assert_eq!(g.dice.scripted_left(), 1, "no die was rolled");
    // The marker is gone: no +1 any more, and no second discard.
    assert!(
        !morale_modifiers(&g, h, &MoraleCause::Reorganize)
            .iter()
            .any(|m| m.rule == "BFS-SCN-27")
    );
    let roll = morale_test(&mut g, h, &MoraleCause::Reorganize);
    assert_eq!(roll.face, Some(10));
    assert!(Bfs::legal(&g, &Command::SpendEnthusiasm { unit: h }).is_err());
}

/// BFS-SCN-25, -26: Fatigue's three markers go as the side's units fail Morale tests (one for
/// Disorganized, two for Flight at once); once the last is gone, its Morale tests are at −1.
/// Exhaustion is −1 from the start and −2 after.
#[test]
fn bfs_scn_25_26_fatigue_markers_and_exhaustion() {
    use sandtable_bfs::morale::{MoraleCause, morale_modifiers};
    let penalty = |g: &sandtable_bfs::Game, key: &str| -> i32 {
        morale_modifiers(g, id(g, key), &MoraleCause::Reorganize)
            .iter()
            .filter(|m| m.rule == "BFS-SCN-25" || m.rule == "BFS-SCN-26")
            .map(|m| m.delta)
            .sum()
    };
    let mut units = two_units();
    units.push(unit("pikemen", 1, "pikemen", 4, 2, (30.0, 100.0), 180.0));
    let mut s = setup(&units, vec![]);
    s.scenario.rules.pre_battle.fatigue = vec![1];
    let mut g = Bfs::setup(&s, 1).unwrap();
    assert_eq!((g.info.fatigue_markers, penalty(&g, "musketeers")), (3, 0));
    let cause = MoraleCause::Other {
        rule: "BFS-PSY-3",
        reason: "test".into(),
    };
    // Musketeers fail by 5 or more (a 10 against Morale 5): straight to Flight, 2 markers.
    g.dice.script([10]);
    let m = id(&g, "musketeers");
    sandtable_bfs::flight::test_and_apply(&mut g, m, &cause, &mut Vec::new());
    assert_eq!(g.info.fatigue_markers, 1);
    assert_eq!(penalty(&g, "pikemen"), 0);
    // Pikemen fail by 1: Disorganized, the last marker.
    g.dice.script([7]);
    let p = id(&g, "pikemen");
    sandtable_bfs::flight::test_and_apply(&mut g, p, &cause, &mut Vec::new());
    assert_eq!(g.info.fatigue_markers, 0);
    assert_eq!(penalty(&g, "pikemen"), -1);
    assert_eq!(penalty(&g, "hussars"), 0, "the other side is not fatigued");

    let mut s = setup(&units, vec![]);
    s.scenario.rules.pre_battle.exhaustion = vec![1];
    let mut g = Bfs::setup(&s, 1).unwrap();
    assert_eq!(penalty(&g, "musketeers"), -1);
    g.info.fatigue_markers = 0;
    assert_eq!(penalty(&g, "musketeers"), -2);

    // The tired side's commander adds at most 2 CP to a Morale test (3 to a Skill test).
    let swede = sandtable_bfs::ids::CommanderId(1);
    let half = g.commander(swede).base.half;
    g.commander_mut(swede).base = sandtable_geometry::Rect::new(
        sandtable_geometry::Pose::from_bearing_deg(
            sandtable_geometry::Vec2::new(60.0, 106.0),
            180.0,
        ),
        half,
    );
    let m = id(&g, "musketeers");
    g.unit_mut(m).flags.steady = Some((swede, 3));
    let boost = sandtable_bfs::steady::spend(&mut g, m, true).expect("in range");
    assert_eq!((boost.delta, g.commander(swede).cp), (2, 1));
    assert!(boost.reason.contains("BFS-SCN-25"), "{}", boost.reason);
    g.commander_mut(swede).cp = 3;
    g.unit_mut(m).flags.steady = Some((swede, 3));
    let skill = sandtable_bfs::steady::spend(&mut g, m, false).unwrap();
    assert_eq!((skill.delta, g.commander(swede).cp), (3, 0));
    // A rally is a Morale test too: 2 extra CP at most.
    g.commander_mut(swede).cp = 4;
    g.unit_mut(m).morale = MoraleLevel::Disorganized;
    at_orders(&mut g, Side::B);
    let e = sandtable_bfs::phases::orders::check_rally(&g, m, swede, 3).unwrap_err();
    assert_eq!(e.rule, "BFS-SCN-25");
    assert_eq!(
        sandtable_bfs::phases::orders::check_rally(&g, m, swede, 2),
        Ok(3)
    );
    // The other side's commander is not capped.
    let pole = sandtable_bfs::ids::CommanderId(0);
    let h = id(&g, "hussars");
    let half = g.commander(pole).base.half;
    g.commander_mut(pole).base = sandtable_geometry::Rect::new(
        sandtable_geometry::Pose::from_bearing_deg(sandtable_geometry::Vec2::new(40.0, 14.0), 0.0),
        half,
    );
    g.unit_mut(h).flags.steady = Some((pole, 3));
    assert_eq!(
        sandtable_bfs::steady::spend(&mut g, h, true).unwrap().delta,
        3
    );
}

/// BFS-SCN-32: Unexpected Reinforcements. A lost unit of the side holding the Effect waits in
/// Reserves; from turn 2's Reorganization Phase it tests Skill, and on a pass comes on in Column
/// at its own edge with a Move order, at full strength and no longer counted as lost. The closest
/// enemy within 40 cm that sees it, not larger than it, tests Morale. One unit per copy; a
/// single-base company never returns.
#[test]
fn bfs_scn_32_unexpected_reinforcements_bring_one_lost_unit_back() {
    use sandtable_bfs::state::OrderKind;
    let units = vec![
        unit("hussars", 0, "winged-hussars", 3, 3, (40.0, 20.0), 0.0),
        unit("scouts", 0, "winged-hussars", 1, 1, (90.0, 20.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 45.0), 180.0),
    ];
    let mut s = setup(&units, vec![]);
    s.scenario.rules.pre_battle.unexpected_reinforcements = vec![0];
    let mut g = Bfs::setup(&s, 3).unwrap();
    let (h, sc, r) = (id(&g, "hussars"), id(&g, "scouts"), id(&g, "reiters"));
    // Both Polish units are lost: the hussars destroyed, the single base fled off the table.
    for (u, destroyed) in [(h, true), (sc, false)] {
        let n = g.unit(u).bases.len() as u8;
        let unit = g.unit_mut(u);
        unit.bases.clear();
        if destroyed {
            unit.status = UnitStatus::Destroyed;
            unit.bases_destroyed = n;
        } else {
            unit.status = UnitStatus::Left;
            unit.bases_fled = n;
        }
    }
    assert_eq!(
        sandtable_bfs::victory::report(&g, "t").sides[0].bases_destroyed,
        3
    );
    assert!(!sandtable_bfs::reinforcements::eligible(&g, sc), "one base");
    let tests = |events: &[sandtable_bfs::event::Event]| {
        events
            .iter()
            .filter_map(|e| match e {
                sandtable_bfs::event::Event::Test(t) if t.rule == "BFS-SCN-32" => Some(t.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    // Turn 1: no test yet.
    let mut events = Vec::new();
    sandtable_bfs::reinforcements::reorganization(&mut g, &mut events);
    assert!(tests(&events).is_empty());
    // Turn 2: a failed Skill test keeps the hussars back; the single base is never tested.
    g.turn.number = 2;
    g.dice.script([10]);
    sandtable_bfs::reinforcements::reorganization(&mut g, &mut events);
    sandtable_bfs::script::run(&mut g, &mut events);
    assert_eq!(tests(&events).len(), 1);
    assert_eq!(g.unit(h).status, UnitStatus::Destroyed);
    // Turn 3: a pass, and the reiters (as large, 3 bases, within 40 cm) test Morale: a 10 fails.
    g.turn.number = 3;
    g.dice.script([1, 10]);
    let mut events = Vec::new();
    sandtable_bfs::reinforcements::reorganization(&mut g, &mut events);
    sandtable_bfs::script::run(&mut g, &mut events);
    let hus = g.unit(h);
    assert_eq!(hus.status, UnitStatus::OnTable);
    assert_eq!(hus.order, Some(OrderKind::Move));
    assert_eq!(hus.bases.len(), 3);
    assert_eq!(hus.morale, MoraleLevel::Good);
    // In Column: one file, its rear touching the south edge.
    let bottom = hus
        .bases
        .iter()
        .flat_map(|b| b.corners())
        .map(|c| c.y)
        .fold(f32::INFINITY, f32::min);
    assert!(bottom.abs() < 0.02, "{bottom}");
    let xs: Vec<f32> = hus.bases.iter().map(|b| b.pose.pos.x).collect();
    assert!(xs.iter().all(|x| (x - xs[0]).abs() < 0.01), "{xs:?}");
    let morale: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            sandtable_bfs::event::Event::Test(t)
                if t.unit == Some(r) && t.cause.contains("unexpectedly") =>
            {
                Some(t.clone())
            }
            _ => None,
        })
        .collect();
    assert_eq!(morale.len(), 1, "{events:?}");
    assert_ne!(g.unit(r).morale, MoraleLevel::Good);
    // No longer a loss.
    assert_eq!(
        sandtable_bfs::victory::report(&g, "t").sides[0].bases_destroyed,
        0
    );
    // Lost again: it counts, and the one copy is spent, so nothing more returns (it could with
    // a second copy).
    let unit = g.unit_mut(h);
    unit.bases.clear();
    unit.status = UnitStatus::Destroyed;
    unit.bases_destroyed = 3;
    assert!(sandtable_bfs::reinforcements::eligible(&g, h));
    assert_eq!(sandtable_bfs::reinforcements::copies_left(&g, Side::A), 0);
    g.turn.number = 4;
    let mut events = Vec::new();
    sandtable_bfs::reinforcements::reorganization(&mut g, &mut events);
    assert!(tests(&events).is_empty());
    assert_eq!(
        sandtable_bfs::victory::report(&g, "t").sides[0].bases_destroyed,
        3
    );
}

/// BFS-SCN-30: the Cowardly Commander. His Morale is 4; a Charge order from him costs 1 CP more
/// than a Move order to the same unit; he joins no unit; he may not end a move within 10 cm of an
/// enemy unit; and when his side's Movement Phase begins with him closer, he rides straight away
/// until 10 cm clear, and moves no more that phase.
#[test]
fn bfs_scn_30_the_cowardly_commander() {
    use sandtable_bfs::command::MoveStep;
    use sandtable_bfs::ids::CommanderId;
    use sandtable_bfs::state::OrderKind;
    use sandtable_geometry::{Pose, Rect, Vec2};
    let units = vec![
        unit("hussars", 0, "winged-hussars", 3, 3, (40.0, 20.0), 0.0),
        unit("musketeers", 1, "musketeers", 4, 4, (60.0, 100.0), 180.0),
    ];
    let mut s = setup(&units, vec![]);
    s.scenario.rules.forces[0].commanders[0].coward = true;
    let mut g = Bfs::setup(&s, 1).unwrap();
    let c = CommanderId(0);
    assert!(g.commander(c).coward);
    assert_eq!(sandtable_bfs::coward::morale(&g, c), 4);
    assert_ne!(sandtable_bfs::coward::morale(&g, CommanderId(1)), 4);
    // His card says so.
    let card =
        sandtable_bfs::present::cards::card(&g, sandtable_bfs::present::table::commander_piece(c))
            .unwrap();
    assert!(card.lines.iter().any(|l| l.contains("BFS-SCN-30")));
    assert!(
        card.rows
            .iter()
            .any(|(k, v)| k == "Morale" && v.starts_with("4 Cowardly"))
    );

    // Orders, turn 2: face down, a Charge order costs what a Move order does, so its price
    // tells the enemy nothing; the coward pays 1 CP more when it is turned up.
    at_orders(&mut g, Side::A);
    let h = id(&g, "hussars");
    let issue = |g: &sandtable_bfs::Game, o| {
        sandtable_bfs::phases::orders::check_issue(g, h, o, c)
            .unwrap()
            .cp
    };
    let (mv, ch) = (issue(&g, OrderKind::Move), issue(&g, OrderKind::Charge));
    assert_eq!(mv, sandtable_bfs::authority::order_cost(&g, c, h).cp);
    assert_eq!(ch, mv);
    let reveal = |g: &mut sandtable_bfs::Game| {
        let mut events = Vec::new();
        sandtable_bfs::phases::movement::begin_movement(g, Side::A, false, &mut events);
        events
    };
    let mut paid = g.clone();
    paid.commander_mut(c).cp = 3;
    run(
        &mut paid,
        Command::IssueOrder {
            unit: h,
            order: OrderKind::Charge,
            by: c,
        },
    );
    let before = paid.commander(c).cp;
    let events = reveal(&mut paid);
    assert_eq!(paid.commander(c).cp, before - 1, "1 CP more when turned up");
    assert_eq!(paid.unit(h).order, Some(OrderKind::Charge));
    assert!(events.iter().any(|e| matches!(
        e,
        sandtable_bfs::event::Event::CpSpent { rule, .. } if rule == "BFS-SCN-30"
    )));
    // With no CP left to pay then, the order is taken away.
    let mut broke = g.clone();
    broke.commander_mut(c).cp = mv;
    run(
        &mut broke,
        Command::IssueOrder {
            unit: h,
            order: OrderKind::Charge,
            by: c,
        },
    );
    assert_eq!(broke.commander(c).cp, 0);
    reveal(&mut broke);
    assert_ne!(broke.unit(h).order, Some(OrderKind::Charge));

    // Movement: he joins no unit, and may not end a move 10 cm from the musketeers.
    g.turn.number = 2;
    at_movement(&mut g, Side::A, false);
    let join = Bfs::legal(
        &g,
        &Command::JoinUnit {
            commander: c,
            unit: h,
        },
    )
    .unwrap_err();
    assert_eq!(join.rule, "BFS-SCN-30");
    let half = g.commander(c).base.half;
    // His base's front 15 cm from the musketeers' front edge (y = 100), facing them.
    g.commander_mut(c).base = Rect::new(
        Pose::from_bearing_deg(Vec2::new(60.0, 85.0 - half.y), 0.0),
        half,
    );
    let near = Bfs::legal(
        &g,
        &Command::MoveCommander {
            commander: c,
            steps: vec![MoveStep::Forward(6.0)],
        },
    )
    .unwrap_err();
    assert_eq!(near.rule, "BFS-SCN-30");
    assert_eq!(
        Bfs::legal(
            &g,
            &Command::MoveCommander {
                commander: c,
                steps: vec![MoveStep::Forward(4.0)],
            },
        ),
        Ok(())
    );

    // His side's Movement Phase begins with him 4 cm from them: he rides straight back until
    // 10 cm clear (to within the 0.5 cm step), and has moved.
    g.commander_mut(c).base = Rect::new(
        Pose::from_bearing_deg(Vec2::new(60.0, 96.0 - half.y), 0.0),
        half,
    );
    let mut events = Vec::new();
    sandtable_bfs::phases::movement::begin_movement(&mut g, Side::A, false, &mut events);
    let b = g.commander(c).base;
    let front = b.corners().iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let gap = 100.0 - front;
    assert!((10.0..10.51).contains(&gap), "{gap}");
    assert!((b.pose.pos.x - 60.0).abs() < 0.01);
    assert!(g.commander(c).moved);
    assert!(events.iter().any(
        |e| matches!(e, sandtable_bfs::event::Event::Ruling { rule, .. } if rule == "BFS-SCN-30")
    ));
}

/// BFS-SCN-27 with BFS-SCN-32: a unit that fled off the table cost its side the Enthusiasm
/// marker for good; Unexpected Reinforcements bringing it back does not bring the marker back.
#[test]
fn bfs_scn_27_a_returned_unit_does_not_bring_enthusiasm_back() {
    let units = vec![
        unit("hussars", 0, "winged-hussars", 3, 3, (40.0, 20.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 100.0), 180.0),
    ];
    let mut s = setup(&units, vec![]);
    s.scenario.rules.pre_battle.enthusiasm = vec![0];
    s.scenario.rules.pre_battle.unexpected_reinforcements = vec![0];
    let mut g = Bfs::setup(&s, 3).unwrap();
    let h = id(&g, "hussars");
    assert!(sandtable_bfs::enthusiasm::holds_marker(&g, Side::A));
    let u = g.unit_mut(h);
    u.bases.clear();
    u.status = UnitStatus::Left;
    u.bases_fled = 3;
    assert!(!sandtable_bfs::enthusiasm::holds_marker(&g, Side::A));
    g.turn.number = 2;
    g.dice.script([1]);
    let mut events = Vec::new();
    sandtable_bfs::reinforcements::reorganization(&mut g, &mut events);
    sandtable_bfs::script::run(&mut g, &mut events);
    assert_eq!(g.unit(h).status, UnitStatus::OnTable);
    assert!(!sandtable_bfs::enthusiasm::holds_marker(&g, Side::A));
}
