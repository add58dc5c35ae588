//! Pike and Shot Battalions (BFS-SPC-21): forming one, what it may be made of, what it costs,
//! members leaving it, passing through one another and the charge's target priority.

mod support;

use sandtable_bfs::command::MoveStep;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, RegimentId, Side};
use sandtable_bfs::state::{MoraleLevel, OrderKind};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{Bfs, Command, Game, UnitId};
use sandtable_engine::Ruleset;
use sandtable_geometry::Vec2;
use support::*;

/// The Swedish foot facing south with their fronts on y = 100: musketeers `m1` (x 40–56),
/// pikemen (x 58–66, 4 cm deep) and musketeers `m2` (x 68–84), 2.00 cm apart; a regimental gun
/// 2 cm behind the pikemen; a second block of pikemen far away; a Polish banner far off.
fn swedish_foot() -> Game {
    game(&[
        unit("m1", 1, "musketeers", 4, 4, (48.0, 100.0), 180.0),
        unit("pikes", 1, "pikemen", 4, 2, (62.0, 100.0), 180.0),
        unit("m2", 1, "musketeers", 4, 4, (76.0, 100.0), 180.0),
        unit("gun", 1, "regimental-gun", 1, 1, (62.0, 106.0), 180.0),
        unit("far-pikes", 1, "pikemen", 4, 2, (20.0, 70.0), 180.0),
        unit("pancerni", 0, "pancerni", 2, 2, (62.0, 60.0), 0.0),
    ])
}

fn ids(g: &Game, keys: &[&str]) -> Vec<UnitId> {
    keys.iter().map(|k| id(g, k)).collect()
}

/// The first turn's Orders Phase, the Swedes acting.
fn first_orders(g: &mut Game) {
    g.turn.number = 1;
    g.turn.phase = Phase::Orders {
        acting: Side::B,
        second: false,
    };
}

fn form(units: Vec<UnitId>, by: Option<CommanderId>) -> Command {
    Command::FormBattalion { units, by }
}

/// BFS-SPC-21: in the first turn's Orders Phase a Battalion of one block of pikemen, two units of
/// musketeers and a regimental gun, each within 2 cm of another, is formed for free; a commander
/// paying for it then is refused.
#[test]
fn bfs_spc_21_a_battalion_forms_for_free_in_the_first_turn() {
    let mut g = swedish_foot();
    first_orders(&mut g);
    let units = ids(&g, &["m1", "pikes", "m2", "gun"]);
    let paid = Bfs::legal(&g, &form(units.clone(), Some(CommanderId(1)))).unwrap_err();
    assert_eq!(paid.rule, "BFS-SPC-21", "{}", paid.message);
    let cp = g.commander(CommanderId(1)).cp;
    let events = run(&mut g, form(units.clone(), None));
    for u in &units {
        assert_eq!(g.unit(*u).battalion, Some(1), "{}", g.unit(*u).name);
    }
    assert_eq!(g.unit(id(&g, "far-pikes")).battalion, None);
    assert_eq!(g.commander(CommanderId(1)).cp, cp);
    assert!(events.iter().any(
        |e| matches!(e, Event::Ruling { rule, text } if rule == "BFS-SPC-21" && text.contains("Battalion 1 formed"))
    ));
    // The same Battalion again is refused; another around the second pikemen takes number 2
    // (here refused: it has no musketeers).
    assert!(Bfs::legal(&g, &form(units, None)).is_err());
}

/// BFS-SPC-21: exactly one block of pikemen, one or two of musketeers, at most two regimental
/// guns, all of one Regiment; pikemen and guns alone are no Battalion.
#[test]
fn bfs_spc_21_what_a_battalion_is_made_of() {
    let mut g = swedish_foot();
    first_orders(&mut g);
    let refused = |g: &Game, keys: &[&str]| {
        let e = Bfs::legal(g, &form(ids(g, keys), None)).unwrap_err();
        assert_eq!(e.rule, "BFS-SPC-21", "{keys:?}: {}", e.message);
        e.message
    };
    assert!(refused(&g, &["pikes", "gun"]).contains("musketeers"));
    assert!(refused(&g, &["m1", "m2"]).contains("pikemen"));
    // The far pikemen stand 20 cm away: no chain of 2 cm reaches them.
    assert!(refused(&g, &["m1", "pikes", "far-pikes"]).contains("one block of pikemen"));
    assert!(refused(&g, &["pikes", "pancerni"]).contains("other side"));
    // Another Regiment.
    let m2 = id(&g, "m2");
    g.unit_mut(m2).regiment = Some(RegimentId(0));
    assert!(refused(&g, &["m1", "pikes", "m2"]).contains("Regiment"));
    g.unit_mut(m2).regiment = None;
    assert!(Bfs::legal(&g, &form(ids(&g, &["m1", "pikes"]), None)).is_ok());
    assert!(Bfs::legal(&g, &form(ids(&g, &["pikes", "m2", "gun"]), None)).is_ok());
}

/// BFS-SPC-21: the members must already stand within 2 cm: 2.00 cm is close enough, 2.05 cm is
/// not (the test's tolerance lies far below that difference).
#[test]
fn bfs_spc_21_members_stand_within_two_cm() {
    let mut g = swedish_foot();
    first_orders(&mut g);
    let units = ids(&g, &["pikes", "m2"]);
    assert!(Bfs::legal(&g, &form(units.clone(), None)).is_ok());
    let m2 = id(&g, "m2");
    g.unit_mut(m2)
        .bases
        .iter_mut()
        .for_each(|b| b.pose.pos.x += 0.05);
    let e = Bfs::legal(&g, &form(units, None)).unwrap_err();
    assert_eq!(e.rule, "BFS-SPC-21");
    assert!(e.message.contains("within 2 cm"), "{}", e.message);
}

/// BFS-SPC-21: after the first turn a commander who may order the units spends 1 CP, in the
/// Orders or the Movement Phase, and more beyond his Command Range as an order would cost
/// (BFS-CMD-4): the Commander-in-Chief's 40 cm, +1 CP for each further 40 cm or part.
#[test]
fn bfs_spc_21_forming_later_costs_a_command_point() {
    let mut g = swedish_foot();
    at_orders(&mut g, Side::B);
    let c = CommanderId(1);
    let units = ids(&g, &["m1", "pikes"]);
    assert!(Bfs::legal(&g, &form(units.clone(), None)).is_err());
    // 30 cm behind the pikemen's rear (y 104): within range.
    g.commander_mut(c).base.pose.pos = Vec2::new(62.0, 135.0);
    assert_eq!(
        sandtable_bfs::battalion::check_form(&g, &units, Some(c)),
        Ok(1)
    );
    // 50 cm behind m1's rear: 10 cm beyond the range, one part step more.
    g.commander_mut(c).base.pose.pos = Vec2::new(48.0, 153.5);
    assert_eq!(
        sandtable_bfs::battalion::check_form(&g, &units, Some(c)),
        Ok(2)
    );
    g.commander_mut(c).cp = 1;
    assert!(Bfs::legal(&g, &form(units.clone(), Some(c))).is_err());
    g.commander_mut(c).cp = 3;
    g.commander_mut(c).base.pose.pos = Vec2::new(62.0, 135.0);
    run(&mut g, form(units.clone(), Some(c)));
    assert_eq!(g.commander(c).cp, 2);
    // In the Movement Phase too, and a unit of another Battalion leaves it for free: m1 joins
    // the second block, and the first Battalion, left with no musketeers, is none.
    at_movement(&mut g, Side::B, false);
    let far = id(&g, "far-pikes");
    let m1 = id(&g, "m1");
    // Bring the far pikemen to m1's left, 1 cm off.
    let dx = 39.0
        - (g.unit(far)
            .bases
            .iter()
            .map(|b| b.pose.pos.x)
            .fold(f32::MIN, f32::max)
            + 2.0);
    let dy = 100.0 - g.unit(far).bases[0].pose.pos.y + 1.0;
    g.unit_mut(far).bases.iter_mut().for_each(|b| {
        b.pose.pos.x += dx;
        b.pose.pos.y += dy;
    });
    let events = run(&mut g, form(vec![far, m1], Some(c)));
    assert_eq!(g.unit(m1).battalion, Some(1));
    assert_eq!(g.unit(far).battalion, Some(1));
    assert_eq!(g.unit(id(&g, "pikes")).battalion, None);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ruling { text, .. } if text.contains("dissolved")))
    );
    // Nobody forms a Battalion in the Combat Phase.
    at_combat(&mut g, sandtable_bfs::turn::CombatStage::DefendersFire);
    assert!(Bfs::legal(&g, &form(ids(&g, &["m2", "pikes"]), Some(c))).is_err());
}

/// BFS-SPC-21: at the end of a Phase a member more than 2 cm from every other member leaves, and
/// so does a Disorganized one; a Battalion left without musketeers is dissolved. Within the
/// Phase nothing happens yet.
#[test]
fn bfs_spc_21_members_leave_at_the_end_of_a_phase() {
    let mut g = swedish_foot();
    first_orders(&mut g);
    let [m1, pikes, m2, gun] = ids(&g, &["m1", "pikes", "m2", "gun"])[..] else {
        unreachable!()
    };
    run(&mut g, form(vec![m1, pikes, m2, gun], None));
    // m2 steps 3 cm away: still a member until the Phase ends.
    g.unit_mut(m2)
        .bases
        .iter_mut()
        .for_each(|b| b.pose.pos.x += 3.0);
    g.unit_mut(m1).morale = MoraleLevel::Disorganized;
    assert_eq!(g.unit(m2).battalion, Some(1));
    let events = run(&mut g, Command::EndOrders);
    assert_eq!(g.unit(m2).battalion, None);
    let left: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Ruling { rule, text } if rule == "BFS-SPC-21" => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(left.iter().any(|t| t.contains("m2 leaves")), "{left:?}");
    assert!(left.iter().any(|t| t.contains("m1 leaves")), "{left:?}");
    assert!(left.iter().any(|t| t.contains("dissolved")), "{left:?}");
    assert_eq!(g.unit(pikes).battalion, None);
    assert_eq!(g.unit(gun).battalion, None);
}

/// Musketeers 2 cm behind the pikemen, with a Move order, in the Swedes' Movement Phase.
fn musketeers_behind_pikes(battalion: bool) -> (Game, UnitId, UnitId) {
    let mut g = game(&[
        unit("pikes", 1, "pikemen", 4, 2, (62.0, 100.0), 180.0),
        unit("m1", 1, "musketeers", 2, 2, (62.0, 106.0), 180.0),
        unit("pancerni", 0, "pancerni", 2, 2, (20.0, 20.0), 0.0),
    ]);
    let (pikes, m1) = (id(&g, "pikes"), id(&g, "m1"));
    if battalion {
        first_orders(&mut g);
        run(&mut g, form(vec![pikes, m1], None));
    }
    set_order(&mut g, "m1", Some(OrderKind::Move));
    at_movement(&mut g, Side::B, false);
    (g, pikes, m1)
}

fn passing_tests(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::Test(t) if t.rule == "BFS-AMV-3"))
        .count()
}

/// BFS-SPC-21 (benefit B), against BFS-AMV-3: musketeers moving through the pikemen of their
/// own Battalion take no Skill test, and neither do the pikemen; outside a Battalion both test.
#[test]
fn bfs_spc_21_members_pass_through_one_another_with_no_test() {
    let step = |g: &mut Game, m1| {
        run(
            g,
            Command::Move {
                unit: m1,
                steps: vec![MoveStep::Forward(10.0)],
            },
        )
    };
    let (mut g, pikes, m1) = musketeers_behind_pikes(false);
    g.dice.script([1, 1]);
    let events = step(&mut g, m1);
    assert_eq!(passing_tests(&events), 2);

    let (mut g, pikes2, m1) = musketeers_behind_pikes(true);
    assert_eq!(pikes, pikes2);
    let events = step(&mut g, m1);
    assert_eq!(passing_tests(&events), 0);
    assert_eq!(g.unit(m1).morale, MoraleLevel::Good);
    assert_eq!(g.unit(pikes).morale, MoraleLevel::Good);
    // The front moved from y = 106 to y = 96, past the pikemen's front at y = 100.
    let front = g
        .unit(m1)
        .bases
        .iter()
        .map(|b| b.pose.pos.y - b.half.y)
        .fold(f32::INFINITY, f32::min);
    assert!((front - 96.0).abs() < 0.01, "{front}");
}

/// BFS-SPC-21 (benefit C): the Battalion counts as one unit for target priority. A banner with
/// nothing in reach may charge any enemy it sees (BFS-CHG-5); a Battalion's members other than
/// its closest need the 1 CP of BFS-CHG-4.
#[test]
fn bfs_spc_21_a_charger_must_take_the_closest_member() {
    let mut g = swedish_foot();
    let pancerni = id(&g, "pancerni");
    let [m1, pikes, m2] = ids(&g, &["m1", "pikes", "m2"])[..] else {
        unreachable!()
    };
    let scene = sandtable_bfs::geo::scene(&g);
    let before = sandtable_bfs::charge::target_options(&g, &scene, pancerni);
    for u in [m1, pikes, m2] {
        assert!(before.free.contains(&u), "{}", g.unit(u).name);
    }
    first_orders(&mut g);
    run(&mut g, form(vec![m1, pikes, m2], None));
    let scene = sandtable_bfs::geo::scene(&g);
    let after = sandtable_bfs::charge::target_options(&g, &scene, pancerni);
    // The pikemen's front is 40.00 cm off; each musketeer unit's corner 40.05 cm.
    assert!(after.free.contains(&pikes));
    assert!(!after.free.contains(&m1) && !after.free.contains(&m2));
    set_order(&mut g, "pancerni", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let e = Bfs::legal(
        &g,
        &Command::DeclareCharge {
            unit: pancerni,
            target: m1,
            pay: None,
        },
    )
    .unwrap_err();
    assert_eq!(e.rule, "BFS-CHG-3", "{}", e.message);
    assert!(
        Bfs::legal(
            &g,
            &Command::DeclareCharge {
                unit: pancerni,
                target: pikes,
                pay: None,
            },
        )
        .is_ok()
    );
    // A Disorganized member is no member to take: the charger may take any of the others.
    g.unit_mut(pikes).morale = MoraleLevel::Disorganized;
    let scene = sandtable_bfs::geo::scene(&g);
    let opts = sandtable_bfs::charge::target_options(&g, &scene, pancerni);
    assert!(opts.free.contains(&pikes));
}

/// The Swedish foot of [`swedish_foot`] in a Battalion, m1 with a Defense order, and a Polish
/// banner with a Charge order 12 cm in front of m1 and the pikemen (x 52–60, front y = 88), in
/// the Poles' Movement Phase.
fn banner_before_battalion(banner_x: f32) -> (Game, UnitId, UnitId, UnitId) {
    let mut g = game(&[
        unit("m1", 1, "musketeers", 4, 4, (48.0, 100.0), 180.0),
        unit("pikes", 1, "pikemen", 4, 2, (62.0, 100.0), 180.0),
        unit("m2", 1, "musketeers", 4, 4, (76.0, 100.0), 180.0),
        unit("pancerni", 0, "pancerni", 2, 2, (banner_x, 88.0), 0.0),
    ]);
    first_orders(&mut g);
    let members = ids(&g, &["m1", "pikes", "m2"]);
    run(&mut g, form(members, None));
    set_order(&mut g, "m1", Some(OrderKind::Defense));
    set_order(&mut g, "pikes", Some(OrderKind::Defense));
    set_order(&mut g, "pancerni", Some(OrderKind::Charge));
    g.turn.number = 2;
    at_movement(&mut g, Side::A, false);
    let (m1, pikes, banner) = (id(&g, "m1"), id(&g, "pikes"), id(&g, "pancerni"));
    (g, m1, pikes, banner)
}

fn front_y(g: &Game, u: UnitId) -> f32 {
    g.unit(u)
        .bases
        .iter()
        .map(|b| b.pose.pos.y - b.half.y)
        .fold(f32::INFINITY, f32::min)
}

/// BFS-SPC-22: charged musketeers of a Battalion run behind the pikes: they withdraw half their
/// Basic Move (5 cm) away from the charger, the pikemen step forward half theirs (5 cm), and
/// the charger must declare again, now at the pikemen, the Battalion's closest member (12 cm →
/// 7 cm, against the musketeers' 17 cm). The musketeers move no more this turn.
#[test]
fn bfs_spc_22_musketeers_run_behind_the_pikes() {
    let (mut g, m1, pikes, banner) = banner_before_battalion(56.0);
    // Both at 12.00 cm: the lower id, m1, is the Battalion's member to take.
    run(
        &mut g,
        Command::DeclareCharge {
            unit: banner,
            target: m1,
            pay: None,
        },
    );
    let events = run(
        &mut g,
        Command::React {
            unit: m1,
            reaction: sandtable_bfs::command::Reaction::RunBehindPikes { advance: true },
        },
    );
    assert!(
        (front_y(&g, m1) - 105.0).abs() < 0.01,
        "{}",
        front_y(&g, m1)
    );
    assert!(
        (front_y(&g, pikes) - 95.0).abs() < 0.01,
        "{}",
        front_y(&g, pikes)
    );
    assert!(g.unit(m1).flags.ran_behind);
    // A Defense order survives the withdrawal (BFS-PSY-15).
    assert_eq!(g.unit(m1).order, Some(OrderKind::Defense));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Withdrew { unit, .. } if *unit == m1))
    );
    // No charge was made: the banner stands where it was and declares again.
    assert!(matches!(g.turn.phase, Phase::Movement { charge: None, .. }));
    assert!(!g.unit(banner).flags.charged);
    assert!((front_y(&g, banner) - 85.0).abs() < 0.01);
    let e = Bfs::legal(
        &g,
        &Command::DeclareCharge {
            unit: banner,
            target: m1,
            pay: None,
        },
    )
    .unwrap_err();
    assert_eq!(e.rule, "BFS-CHG-3", "{}", e.message);
    assert!(
        Bfs::legal(
            &g,
            &Command::DeclareCharge {
                unit: banner,
                target: pikes,
                pay: None,
            },
        )
        .is_ok()
    );
    // In their own Movement Phase the musketeers may not move, but may stay or withdraw.
    at_movement(&mut g, Side::B, true);
    g.unit_mut(m1).order = Some(OrderKind::Move);
    let e = Bfs::legal(
        &g,
        &Command::Move {
            unit: m1,
            steps: vec![MoveStep::Forward(2.0)],
        },
    )
    .unwrap_err();
    assert_eq!(e.rule, "BFS-SPC-22", "{}", e.message);
    g.unit_mut(m1).order = None;
    assert!(Bfs::legal(&g, &Command::Hold { unit: m1 }).is_ok());
    assert!(Bfs::legal(&g, &Command::Withdraw { unit: m1 }).is_ok());
}

/// BFS-SPC-22: the pikemen may also stand; and the maneuver needs some part of the charger in
/// front of both the musketeers and the pikemen (AMB-90), and a Battalion.
#[test]
fn bfs_spc_22_who_may_run_behind_the_pikes() {
    let (mut g, m1, pikes, banner) = banner_before_battalion(56.0);
    run(
        &mut g,
        Command::DeclareCharge {
            unit: banner,
            target: m1,
            pay: None,
        },
    );
    run(
        &mut g,
        Command::React {
            unit: m1,
            reaction: sandtable_bfs::command::Reaction::RunBehindPikes { advance: false },
        },
    );
    assert!((front_y(&g, pikes) - 100.0).abs() < 0.01);
    assert!((front_y(&g, m1) - 105.0).abs() < 0.01);

    // The banner 22 cm to the left (x 30–38) is in front of m1 but not of the pikemen.
    let (g, m1, _, banner) = banner_before_battalion(34.0);
    let e = sandtable_bfs::run_behind::check(&g, m1, banner).unwrap_err();
    assert_eq!(e.rule, "BFS-SPC-22");
    assert!(e.message.contains("AMB-90"), "{}", e.message);

    // Outside a Battalion: no.
    let (mut g, m1, _, banner) = banner_before_battalion(56.0);
    g.unit_mut(m1).battalion = None;
    assert!(sandtable_bfs::run_behind::check(&g, m1, banner).is_err());
    // Pikemen with a Charge order: no.
    let (mut g, m1, pikes, banner) = banner_before_battalion(56.0);
    g.unit_mut(pikes).order = Some(OrderKind::Charge);
    assert!(sandtable_bfs::run_behind::check(&g, m1, banner).is_err());
}

/// A Battalion of musketeers (x 40–56), pikemen (58–66) and a regimental gun (68–72), fronts on
/// y = 100, all with Defense orders, and a Polish banner with a Charge order 20 cm in front of
/// the gun (x 67–75), in the Poles' Movement Phase of turn 2.
fn banner_before_gun() -> (Game, UnitId, UnitId, UnitId, UnitId) {
    let mut g = game(&[
        unit("m1", 1, "musketeers", 4, 4, (48.0, 100.0), 180.0),
        unit("pikes", 1, "pikemen", 4, 2, (62.0, 100.0), 180.0),
        unit("gun", 1, "regimental-gun", 1, 1, (70.0, 100.0), 180.0),
        unit("pancerni", 0, "pancerni", 2, 2, (71.0, 80.0), 0.0),
    ]);
    first_orders(&mut g);
    let members = ids(&g, &["m1", "pikes", "gun"]);
    run(&mut g, form(members, None));
    for k in ["m1", "pikes", "gun"] {
        set_order(&mut g, k, Some(OrderKind::Defense));
    }
    set_order(&mut g, "pancerni", Some(OrderKind::Charge));
    g.turn.number = 2;
    at_movement(&mut g, Side::A, false);
    let [m1, pikes, gun, banner] = ids(&g, &["m1", "pikes", "gun", "pancerni"])[..] else {
        unreachable!()
    };
    (g, m1, pikes, gun, banner)
}

/// BFS-SPC-23: the charged gun's crew hides among its Battalion's pikemen (within 10 cm): the
/// gun stands abandoned, the charger must take the Battalion's closest member now, the
/// pikemen; in a later turn the crew mans its gun again for 1 CP and a Special Maneuver, the
/// pikemen losing nothing.
#[test]
fn bfs_spc_23_the_crew_hides_among_the_pikemen_and_comes_back() {
    let (mut g, m1, pikes, gun, banner) = banner_before_gun();
    run(
        &mut g,
        Command::DeclareCharge {
            unit: banner,
            target: gun,
            pay: None,
        },
    );
    run(
        &mut g,
        Command::React {
            unit: gun,
            reaction: sandtable_bfs::command::Reaction::HideAmongPikes,
        },
    );
    assert_eq!(
        g.unit(gun).status,
        sandtable_bfs::state::UnitStatus::Reserve
    );
    assert_eq!(g.abandoned_guns.len(), 1);
    assert_eq!(g.abandoned_guns[0].hidden_with, Some(pikes));
    assert!(!g.unit(banner).flags.charged);
    let refused = Bfs::legal(
        &g,
        &Command::DeclareCharge {
            unit: banner,
            target: m1,
            pay: None,
        },
    )
    .unwrap_err();
    assert_eq!(refused.rule, "BFS-CHG-3", "{}", refused.message);
    assert!(
        Bfs::legal(
            &g,
            &Command::DeclareCharge {
                unit: banner,
                target: pikes,
                pay: None,
            },
        )
        .is_ok()
    );
    // Not back in the same turn; in the next, for 1 CP, the pikemen keeping their Strength.
    let c = CommanderId(1);
    g.commander_mut(c).base.pose.pos = Vec2::new(62.0, 120.0);
    at_movement(&mut g, Side::B, true);
    let back = Command::Maneuver {
        unit: pikes,
        maneuvers: vec![sandtable_bfs::command::SpecialManeuver::ReturnCrew { gun, by: c }],
    };
    let e = Bfs::legal(&g, &back).unwrap_err();
    assert_eq!(e.rule, "BFS-SPC-23", "{}", e.message);
    g.turn.number = 3;
    g.unit_mut(pikes).flags = Default::default();
    let cp = g.commander(c).cp;
    let sp = sandtable_bfs::losses::sp_left(&g, pikes);
    run(&mut g, back);
    assert_eq!(
        g.unit(gun).status,
        sandtable_bfs::state::UnitStatus::OnTable
    );
    assert_eq!(g.unit(gun).order, None);
    assert!(g.abandoned_guns.is_empty());
    assert_eq!(g.commander(c).cp, cp - 1);
    assert_eq!(sandtable_bfs::losses::sp_left(&g, pikes), sp);
    // Its own values: Skill 4 and Quick Loading, as the regimental gun's profile has.
    assert!(
        !g.unit_profile(gun)
            .has(sandtable_bfs::profile::SpecialRule::Manned)
    );
}

/// BFS-SPC-23: the crew hides only within 10 cm of its pikemen and before anything touches the
/// gun; it is destroyed with them if they flee.
#[test]
fn bfs_spc_23_who_may_hide_and_a_crew_lost_with_its_pikemen() {
    let (mut g, _, pikes, gun, banner) = banner_before_gun();
    // 8 cm more to the right: 10.00 cm from the pikemen, still in reach; 10.05 is not.
    g.unit_mut(gun)
        .bases
        .iter_mut()
        .for_each(|b| b.pose.pos.x += 8.0);
    assert!(sandtable_bfs::hide_crew::check(&g, gun).is_ok());
    g.unit_mut(gun)
        .bases
        .iter_mut()
        .for_each(|b| b.pose.pos.x += 0.05);
    let e = sandtable_bfs::hide_crew::check(&g, gun).unwrap_err();
    assert!(e.message.contains("10 cm"), "{}", e.message);

    let (mut g, _, pikes2, gun, banner2) = banner_before_gun();
    assert_eq!((pikes, banner), (pikes2, banner2));
    run(
        &mut g,
        Command::DeclareCharge {
            unit: banner,
            target: gun,
            pay: None,
        },
    );
    run(
        &mut g,
        Command::React {
            unit: gun,
            reaction: sandtable_bfs::command::Reaction::HideAmongPikes,
        },
    );
    g.unit_mut(pikes).morale = MoraleLevel::Flight;
    // Checked after every command.
    let mut events = Vec::new();
    sandtable_bfs::hide_crew::lose_hidden(&mut g, &mut events);
    assert_eq!(
        g.unit(gun).status,
        sandtable_bfs::state::UnitStatus::Destroyed
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::UnitDestroyed { rule, .. } if rule == "BFS-SPC-23"))
    );
    // The gun itself stays, abandoned, for anyone to man.
    assert_eq!(g.abandoned_guns.len(), 1);
    assert_eq!(g.abandoned_guns[0].hidden_with, None);
}

/// BFS-SPC-22: musketeers whose revealed order is a Move order (the rule forbids only a Charge
/// order) are still asked, and may run behind the pikes; with no room behind them they may not.
#[test]
fn bfs_spc_22_any_order_but_charge_and_room_to_withdraw() {
    let (mut g, m1, _, banner) = banner_before_battalion(56.0);
    g.unit_mut(m1).order = Some(OrderKind::Move);
    run(
        &mut g,
        Command::DeclareCharge {
            unit: banner,
            target: m1,
            pay: None,
        },
    );
    assert!(matches!(
        g.turn.phase,
        Phase::Movement {
            charge: Some(_),
            ..
        }
    ));
    assert!(
        Bfs::legal(
            &g,
            &Command::React {
                unit: m1,
                reaction: sandtable_bfs::command::Reaction::RunBehindPikes { advance: false },
            },
        )
        .is_ok()
    );
    // Against the table's north edge: nowhere to go.
    let (mut g, m1, _, banner) = banner_before_battalion(56.0);
    let edge = g.info.table.y;
    for u in g.units.iter_mut().filter(|u| u.side == Side::B) {
        u.bases
            .iter_mut()
            .for_each(|b| b.pose.pos.y += edge - 102.0);
    }
    let mut pancerni = g.unit(banner).bases.clone();
    pancerni
        .iter_mut()
        .for_each(|b| b.pose.pos.y += edge - 102.0);
    g.unit_mut(banner).bases = pancerni;
    let e = sandtable_bfs::run_behind::check(&g, m1, banner).unwrap_err();
    assert!(e.message.contains("no room"), "{}", e.message);
}

/// BFS-SPC-21: what the menus offer takes no unit out of another Battalion, so two blocks of
/// pikemen sharing musketeers between them cannot take them back and forth.
#[test]
fn bfs_spc_21_offers_leave_other_battalions_alone() {
    let mut g = game(&[
        unit("m1", 1, "musketeers", 4, 4, (48.0, 100.0), 180.0),
        unit("pikes", 1, "pikemen", 4, 2, (62.0, 100.0), 180.0),
        unit("m2", 1, "musketeers", 4, 4, (76.0, 100.0), 180.0),
        unit("pikes-2", 1, "pikemen", 4, 2, (90.0, 100.0), 180.0),
        unit("pancerni", 0, "pancerni", 2, 2, (20.0, 20.0), 0.0),
    ]);
    first_orders(&mut g);
    let offers = sandtable_bfs::battalion::offers(&g, Side::B);
    assert_eq!(offers.len(), 2, "{offers:?}");
    let first = offers[0].0.clone();
    run(&mut g, form(first.clone(), None));
    let m2 = id(&g, "m2");
    assert!(first.contains(&m2), "{first:?}");
    // The second block's offer would need m2, which is in Battalion 1: nothing is offered.
    let again = sandtable_bfs::battalion::offers(&g, Side::B);
    assert!(again.iter().all(|(u, _)| !u.contains(&m2)), "{again:?}");
    // And a Disorganized unit is never part of an offer.
    g.unit_mut(m2).battalion = None;
    g.unit_mut(m2).morale = MoraleLevel::Disorganized;
    let third = sandtable_bfs::battalion::offers(&g, Side::B);
    assert!(third.iter().all(|(u, _)| !u.contains(&m2)), "{third:?}");
}
