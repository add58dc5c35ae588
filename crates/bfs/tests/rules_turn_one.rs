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
    run(
        &mut g,
        Command::IssueOrder {
            unit: h,
            order: OrderKind::Charge,
            by,
        },
    );
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
            // The buyer's window: one change, paid for.
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
}
