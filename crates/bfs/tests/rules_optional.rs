//! The optional rules of the book played as scenario options: Ammunition (BFS-OPT-7, BFS-AMM),
//! pistols in close combat under it (BFS-WPN-5), Hail of arrows (BFS-OPT-2) and Group orders
//! (BFS-OPT-3). Flanking fire (BFS-OPT-1) is tested with the shooting rules.

mod support;

use sandtable_bfs::ammunition::Supply;
use sandtable_bfs::command::SpecialManeuver;
use sandtable_bfs::event::{Event, TestKind};
use sandtable_bfs::ids::Side;
use sandtable_bfs::shooting::{self, FireStage};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::turn::CombatStage;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use sandtable_engine::scenario::OptionValue;
use support::*;

/// A game of `units` with the scenario's options `options`.
fn with_options(units: &[Placed], options: &[(&str, OptionValue)]) -> Game {
    let mut s = setup(units, vec![]);
    for (k, v) in options {
        s.scenario.options.insert(k.to_string(), v.clone());
    }
    Bfs::setup(&s, 1).unwrap_or_else(|e| panic!("setup: {e}"))
}

fn text(t: &str) -> OptionValue {
    OptionValue::Text(t.into())
}

/// Swedish musketeers (side B), `files` wide, 25 cm in front of 4 bases of haiduks, under a
/// Defense order, with the Ammunition rules by `method`.
fn musketeers_at_haiduks(method: &str, files: u8) -> Game {
    let mut g = with_options(
        &[
            unit("musketeers", 1, "musketeers", 4, files, (60.0, 65.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        ],
        &[("ammunition", text(method))],
    );
    set_order(&mut g, "musketeers", Some(OrderKind::Defense));
    g
}

/// Fires Defender's Fire and returns its events.
fn defenders_fire(g: &mut Game) -> Vec<Event> {
    let mut events = Vec::new();
    shooting::resolve_stage(g, FireStage::DefendersFire, &mut events);
    events
}

fn bases_firing(g: &Game, key: &str, stage: FireStage) -> Option<u32> {
    sandtable_bfs::preview::volley(g, id(g, key), stage)
        .map(|p| p.groups.iter().map(|gr| gr.bases).sum())
}

fn ammunition_tests(events: &[Event]) -> Vec<&sandtable_bfs::event::TestReport> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Test(t) if t.kind == TestKind::Ammunition => Some(t),
            _ => None,
        })
        .collect()
}

/// BFS-AMM-1: without the option nobody counts ammunition; with it every unit with a ranged
/// weapon starts with 6 units (12 halves), and a unit with none keeps no count.
#[test]
fn bfs_amm_1_only_the_optional_rule_counts_ammunition() {
    let plain = game(&[
        unit("musketeers", 1, "musketeers", 4, 4, (60.0, 65.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 10.0), 0.0),
    ]);
    assert_eq!(plain.unit(id(&plain, "musketeers")).supply, None);
    let g = with_options(
        &[
            unit("musketeers", 1, "musketeers", 4, 4, (60.0, 65.0), 180.0),
            unit("pikemen", 1, "pikemen", 4, 4, (20.0, 65.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 4, (60.0, 10.0), 0.0),
        ],
        &[("ammunition", text("counting"))],
    );
    assert_eq!(
        g.unit(id(&g, "musketeers")).supply,
        Some(Supply::Counting {
            halves: 12,
            start: 12
        })
    );
    assert_eq!(g.unit(id(&g, "pikemen")).supply, None, "no ranged weapon");
}

/// BFS-AMM-2: Scarce Ammunition starts with 4 units, Plenty with 8.
#[test]
fn bfs_amm_2_scarce_and_plenty_of_ammunition() {
    use sandtable_bfs::profile::SpecialRule;
    for (rule, units) in [
        (SpecialRule::ScarceAmmunition, 4),
        (SpecialRule::PlentyOfAmmunition, 8),
    ] {
        let mut s = setup(
            &[
                unit("musketeers", 1, "musketeers", 4, 4, (60.0, 65.0), 180.0),
                unit("haiduks", 0, "haiduks", 4, 4, (60.0, 10.0), 0.0),
            ],
            vec![],
        );
        s.scenario
            .options
            .insert("ammunition".into(), text("counting"));
        for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
            if p.id == "musketeers" {
                p.special_rules.push(rule);
            }
        }
        let g = Bfs::setup(&s, 1).unwrap();
        assert_eq!(
            g.unit(id(&g, "musketeers")).supply,
            Some(Supply::Counting {
                halves: 2 * units,
                start: 2 * units
            }),
            "{rule:?}"
        );
    }
}

/// BFS-AMM-3: a volley of all 4 bases (more than half) spends 1 unit; of 2 of 4 bases (up to
/// half: a Line 2 wide, the front rank fires) ½ unit.
#[test]
fn bfs_amm_3_more_than_half_spends_one_unit_up_to_half_a_half() {
    let mut line = musketeers_at_haiduks("counting", 4);
    defenders_fire(&mut line);
    let m = id(&line, "musketeers");
    assert!(line.unit(m).flags.shot, "it fired");
    assert_eq!(
        line.unit(m).supply,
        Some(Supply::Counting {
            halves: 10,
            start: 12
        })
    );
    let mut deep = musketeers_at_haiduks("counting", 2);
    assert_eq!(
        bases_firing(&deep, "musketeers", FireStage::DefendersFire),
        Some(2)
    );
    defenders_fire(&mut deep);
    assert_eq!(
        deep.unit(m).supply,
        Some(Supply::Counting {
            halves: 11,
            start: 12
        })
    );
}

/// BFS-AMM-3 and BFS-AMM-1: with ½ unit left only half the bases fire (2 of 4, the closest);
/// with none the unit cannot shoot at all.
#[test]
fn bfs_amm_3_half_a_unit_left_fires_half_the_bases_and_none_left_none() {
    let mut g = musketeers_at_haiduks("counting", 4);
    let m = id(&g, "musketeers");
    assert_eq!(
        bases_firing(&g, "musketeers", FireStage::DefendersFire),
        Some(4)
    );
    g.unit_mut(m).supply = Some(Supply::Counting {
        halves: 1,
        start: 12,
    });
    assert_eq!(
        bases_firing(&g, "musketeers", FireStage::DefendersFire),
        Some(2)
    );
    defenders_fire(&mut g);
    assert_eq!(
        g.unit(m).supply,
        Some(Supply::Counting {
            halves: 0,
            start: 12
        }),
        "2 of 4 bases spend the last ½"
    );
    assert!(!shooting::shoots_in(&g, m, FireStage::AfterMovement));
    let mut fresh = musketeers_at_haiduks("counting", 4);
    fresh.unit_mut(m).supply = Some(Supply::Counting {
        halves: 0,
        start: 12,
    });
    assert!(!shooting::shoots_in(&fresh, m, FireStage::DefendersFire));
    assert!(
        defenders_fire(&mut fresh).is_empty(),
        "no volley, no ruling"
    );
}

/// BFS-AMM-6: the first volley of the battle needs no test; the next rolls the ammunition die
/// and runs out on 8-10 (target 7) for more than half the bases, on 9-10 (target 8) for up to
/// half.
#[test]
fn bfs_amm_6_the_ammunition_test_after_the_first_volley() {
    let mut g = musketeers_at_haiduks("test", 4);
    let m = id(&g, "musketeers");
    let first = defenders_fire(&mut g);
    assert!(
        ammunition_tests(&first).is_empty(),
        "no test the first time"
    );
    assert_eq!(
        g.unit(m).supply,
        Some(Supply::Test {
            shot_before: true,
            out: false
        })
    );
    // The next turn's volley: a 7 keeps the ammunition at target 7.
    g.unit_mut(m).flags.shot = false;
    let plan = sandtable_bfs::preview::volley(&g, m, FireStage::DefendersFire).unwrap();
    let to_hit: usize = plan
        .groups
        .iter()
        .map(|gr| gr.spec.plan().dice as usize)
        .sum();
    let mut faces = vec![10u8; to_hit];
    faces.push(7);
    g.dice.script(faces);
    let second = defenders_fire(&mut g);
    let tests = ammunition_tests(&second);
    assert_eq!(tests.len(), 1);
    assert_eq!(tests[0].roll.target, 7);
    assert!(tests[0].roll.passed);
    // A third volley, 2 of 4 bases: target 8; an 8 keeps it, a 9 runs out.
    let mut deep = musketeers_at_haiduks("test", 2);
    deep.unit_mut(m).supply = Some(Supply::Test {
        shot_before: true,
        out: false,
    });
    let plan = sandtable_bfs::preview::volley(&deep, m, FireStage::DefendersFire).unwrap();
    let to_hit: usize = plan
        .groups
        .iter()
        .map(|gr| gr.spec.plan().dice as usize)
        .sum();
    let mut faces = vec![10u8; to_hit];
    faces.push(9);
    deep.dice.script(faces);
    let events = defenders_fire(&mut deep);
    let tests = ammunition_tests(&events);
    assert_eq!(tests[0].roll.target, 8);
    assert!(!tests[0].roll.passed);
    assert!(deep.unit(m).supply.unwrap().is_out());
    deep.unit_mut(m).flags.shot = false;
    assert!(!shooting::shoots_in(&deep, m, FireStage::DefendersFire));
}

/// BFS-AMM-4: 2 Special Maneuvers and a Skill test take 1 unit from the dead, never above the
/// start; BFS-AMM-7: under the test method the Skill test is at −2 and gives the ammunition back.
#[test]
fn bfs_amm_4_and_7_ammunition_from_the_dead() {
    let retrieve = |g: &mut Game, face: u8| {
        at_movement(g, Side::B, false);
        g.dice.script([face]);
        let m = id(g, "musketeers");
        run(
            g,
            Command::Maneuver {
                unit: m,
                maneuvers: vec![SpecialManeuver::RetrieveAmmunition],
            },
        )
    };
    let mut g = musketeers_at_haiduks("counting", 4);
    let m = id(&g, "musketeers");
    let full = Command::Maneuver {
        unit: m,
        maneuvers: vec![SpecialManeuver::RetrieveAmmunition],
    };
    at_movement(&mut g, Side::B, false);
    let err = Bfs::legal(&g, &full).unwrap_err();
    assert_eq!(err.rule, "BFS-AMM-4", "a full supply takes no more");
    // 5½ of 6: it may, and gets back to 6, no more.
    g.unit_mut(m).supply = Some(Supply::Counting {
        halves: 11,
        start: 12,
    });
    let mut almost = g.clone();
    almost.dice.script([1]);
    run(&mut almost, full.clone());
    assert_eq!(
        almost.unit(m).supply,
        Some(Supply::Counting {
            halves: 12,
            start: 12
        })
    );
    g.unit_mut(m).supply = Some(Supply::Counting {
        halves: 3,
        start: 12,
    });
    let skill = g.unit_profile(m).skill as i32;
    let events = retrieve(&mut g, 1);
    let test = events
        .iter()
        .find_map(|e| match e {
            Event::Test(t) if t.rule == "BFS-AMM-4" => Some(t),
            _ => None,
        })
        .expect("a Skill test");
    assert_eq!(test.roll.target, skill);
    assert_eq!(
        g.unit(m).supply,
        Some(Supply::Counting {
            halves: 5,
            start: 12
        })
    );
    assert_eq!(g.unit(m).flags.special_maneuvers, 2);
    assert!(
        !shooting::shoots_in(&g, m, FireStage::AfterMovement),
        "two Special Maneuvers: no shooting this turn (BFS-MAN-5)"
    );

    let mut t = musketeers_at_haiduks("test", 4);
    t.unit_mut(m).supply = Some(Supply::Test {
        shot_before: true,
        out: true,
    });
    let events = retrieve(&mut t, (skill - 2) as u8);
    let test = events
        .iter()
        .find_map(|e| match e {
            Event::Test(x) if x.rule == "BFS-AMM-7" => Some(x),
            _ => None,
        })
        .expect("a Skill test at −2");
    assert_eq!(test.roll.target, skill - 2);
    assert!(!t.unit(m).supply.unwrap().is_out());
}

/// BFS-WPN-5: with the Ammunition rules, reiters with pistols and ammunition fight at +1 to hit
/// and spend ammunition as if they fired (all 3 bases: 1 unit); the pancerni, with carbines,
/// do not.
#[test]
fn bfs_wpn_5_pistols_in_close_combat_spend_ammunition() {
    let mut g = with_options(
        &[
            unit("pancerni", 0, "pancerni", 3, 3, (60.0, 50.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
        ],
        &[("ammunition", text("counting"))],
    );
    at_combat(&mut g, CombatStage::CloseCombat);
    let events = run(&mut g, Command::Continue);
    let reiters = id(&g, "reiters");
    let pistols = |attacker| {
        events.iter().any(|e| match e {
            Event::Melee(m) if m.attacker == attacker && m.round == 1 => {
                m.groups.iter().any(|gr| {
                    gr.roll
                        .plan
                        .modifiers
                        .iter()
                        .any(|x| x.rule == "BFS-WPN-5" && x.delta == 1)
                })
            }
            _ => false,
        })
    };
    assert!(pistols(reiters));
    assert!(!pistols(id(&g, "pancerni")));
    match g.unit(reiters).supply {
        Some(Supply::Counting { halves, .. }) => assert!(halves <= 10, "at least 1 unit spent"),
        other => panic!("{other:?}"),
    }
}

/// Cossack horse (side A) with bows and a Defense order, 15 cm in front of reiters.
fn cossacks_with_bows(hail: bool) -> Game {
    let mut g = with_options(
        &[
            unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 40.0), 0.0),
            unit("reiters", 1, "reiters", 3, 3, (60.0, 55.0), 180.0),
        ],
        &[
            ("hail_of_arrows", OptionValue::Bool(hail)),
            ("ammunition", text("counting")),
        ],
    );
    set_order(&mut g, "cossacks", Some(OrderKind::Defense));
    at_movement(&mut g, Side::A, false);
    g
}

/// BFS-OPT-2: the hail of arrows is declared in the Movement Phase: no Defender's Fire, no
/// Break Off, then Shooting after Movement with one die more a base, spending 2 Ammunition
/// Units.
#[test]
fn bfs_opt_2_hail_of_arrows() {
    let off = cossacks_with_bows(false);
    let c = id(&off, "cossacks");
    let err = Bfs::legal(&off, &Command::HailOfArrows { unit: c }).unwrap_err();
    assert_eq!(err.rule, "BFS-OPT-2", "an optional rule, off by default");

    let mut g = cossacks_with_bows(true);
    let before = sandtable_bfs::preview::volley(&g, c, FireStage::DefendersFire)
        .expect("the cossacks have a target");
    let dice_before: u32 = before.groups.iter().map(|gr| gr.spec.plan().dice).sum();
    run(&mut g, Command::HailOfArrows { unit: c });
    assert!(!shooting::shoots_in(&g, c, FireStage::DefendersFire));
    assert!(shooting::shoots_in(&g, c, FireStage::AfterMovement));
    assert_eq!(
        sandtable_bfs::break_off::check(&g, c).unwrap_err().rule,
        "BFS-OPT-2"
    );
    let hail = sandtable_bfs::preview::volley(&g, c, FireStage::AfterMovement).unwrap();
    let dice: u32 = hail.groups.iter().map(|gr| gr.spec.plan().dice).sum();
    assert_eq!(dice, dice_before + 3, "one die more for each of 3 bases");
    let mut events = Vec::new();
    shooting::resolve_stage(&mut g, FireStage::AfterMovement, &mut events);
    assert_eq!(
        g.unit(c).supply,
        Some(Supply::Counting {
            halves: 8,
            start: 12
        }),
        "a hail of arrows always spends 2 units"
    );
}

/// Three haiduk units of one Skirmish Force, 8 cm apart in a row, side A in its Orders Phase of
/// turn 2 (orders are not free).
fn three_haiduks() -> Game {
    let mut g = game(&[
        unit("h1", 0, "haiduks", 2, 2, (20.0, 30.0), 0.0),
        unit("h2", 0, "haiduks", 2, 2, (36.0, 30.0), 0.0),
        unit("h3", 0, "haiduks", 2, 2, (52.0, 30.0), 0.0),
        unit("musketeers", 1, "musketeers", 4, 4, (60.0, 100.0), 180.0),
    ]);
    at_orders(&mut g, Side::A);
    // Bring the colonel within range of the first unit only.
    let c = sandtable_bfs::ids::CommanderId(0);
    g.commander_mut(c).base.pose.pos = sandtable_geometry::Vec2::new(20.0, 10.0);
    g
}

/// BFS-OPT-3: one order to a group of up to 4 units of one Regiment, each within 10 cm of
/// another (a chain, A-14), for 2 CP, with one unit within the commander's range; every unit
/// gets the face-down marker.
#[test]
fn bfs_opt_3_group_orders() {
    let mut g = three_haiduks();
    let units: Vec<_> = ["h1", "h2", "h3"].iter().map(|k| id(&g, k)).collect();
    let c = sandtable_bfs::ids::CommanderId(0);
    let cmd = Command::GroupOrder {
        units: units.clone(),
        order: OrderKind::Move,
        by: c,
    };
    let cp = g.commander(c).cp;
    run(&mut g, cmd);
    assert_eq!(g.commander(c).cp, cp - 2);
    for u in &units {
        let po = g.unit(*u).pending_order.expect("a marker on each");
        assert_eq!(po.kind, Some(OrderKind::Move));
        assert!(!po.face_up);
    }

    // Every pair within 10 cm (the other reading of A-14): h1 and h3 stand 28 cm apart.
    let mut pairs = three_haiduks();
    pairs.info.options.group_order_spacing = sandtable_bfs::phases::group_order::Spacing::AllPairs;
    let err = Bfs::legal(
        &pairs,
        &Command::GroupOrder {
            units: units.clone(),
            order: OrderKind::Move,
            by: c,
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-OPT-3");

    // A gap of more than 10 cm breaks the chain.
    let mut gap = three_haiduks();
    gap.unit_mut(units[2]).bases.iter_mut().for_each(|b| {
        b.pose.pos.x += 5.0;
    });
    assert!(
        Bfs::legal(
            &gap,
            &Command::GroupOrder {
                units: units.clone(),
                order: OrderKind::Move,
                by: c
            }
        )
        .is_err()
    );

    // Switched off by the scenario.
    let mut off = three_haiduks();
    off.info.options.group_orders = false;
    assert!(
        Bfs::legal(
            &off,
            &Command::GroupOrder {
                units,
                order: OrderKind::Move,
                by: c
            }
        )
        .is_err()
    );
}

/// BFS-OPT-3: an Insubordinate unit in the group makes it cost 3 CP.
#[test]
fn bfs_opt_3_an_insubordinate_unit_makes_the_group_order_cost_three() {
    let mut s = setup(
        &[
            unit("h1", 0, "haiduks", 2, 2, (20.0, 30.0), 0.0),
            unit("h2", 0, "haiduks", 2, 2, (36.0, 30.0), 0.0),
            unit("musketeers", 1, "musketeers", 4, 4, (60.0, 100.0), 180.0),
        ],
        vec![],
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "haiduks" {
            p.special_rules
                .push(sandtable_bfs::profile::SpecialRule::Insubordinate);
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    at_orders(&mut g, Side::A);
    let c = sandtable_bfs::ids::CommanderId(0);
    g.commander_mut(c).base.pose.pos = sandtable_geometry::Vec2::new(20.0, 10.0);
    let units = vec![id(&g, "h1"), id(&g, "h2")];
    assert_eq!(
        sandtable_bfs::phases::group_order::check(&g, &units, OrderKind::Defense, c),
        Ok(3)
    );
}

/// BFS-GEN-4: the learning simplification, as the named option `basic_mode`: Light Cavalry
/// deploys in a close-order Line with no special rules, and nobody disperses into Open Order.
#[test]
fn bfs_gen_4_basic_mode_plays_ordinary_close_order_units() {
    let units = [
        unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 100.0), 180.0),
    ];
    let normal = with_options(&units, &[]);
    let c = id(&normal, "cossacks");
    assert_eq!(
        normal.unit(c).formation,
        sandtable_bfs::state::Formation::OpenOrder
    );
    let mut g = with_options(&units, &[("basic_mode", OptionValue::Bool(true))]);
    assert_eq!(
        g.unit(c).formation,
        sandtable_bfs::state::Formation::Close { files: 3 }
    );
    assert!(g.unit_profile(c).special_rules.is_empty());
    set_order(&mut g, "cossacks", Some(OrderKind::Defense));
    support::at_movement(&mut g, Side::A, false);
    let err = Bfs::legal(
        &g,
        &Command::Maneuver {
            unit: c,
            maneuvers: vec![SpecialManeuver::Disperse],
        },
    )
    .unwrap_err();
    assert_eq!(err.rule, "BFS-GEN-4");
}

/// BFS-SPC-8 with BFS-AMM-3: each of a Countermarch unit's two volleys spends half an Ammunition
/// Unit, even when more than half its bases fire (here the 3 bases of the first rank of 5).
#[test]
fn bfs_spc_8_each_countermarch_volley_spends_half_a_unit() {
    use sandtable_bfs::profile::SpecialRule;
    let mut s = setup(
        &[
            unit("musketeers", 1, "musketeers", 5, 3, (60.0, 62.0), 180.0),
            unit("haiduks", 0, "haiduks", 4, 4, (60.0, 50.0), 0.0),
        ],
        vec![],
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "musketeers" {
            p.special_rules.push(SpecialRule::Countermarch);
        }
    }
    s.scenario
        .options
        .insert("ammunition".into(), text("counting"));
    let mut g = Bfs::setup(&s, 1).unwrap();
    let m = id(&g, "musketeers");
    set_order(&mut g, "musketeers", Some(OrderKind::Defense));
    assert_eq!(
        bases_firing(&g, "musketeers", FireStage::DefendersFire),
        Some(3)
    );
    g.dice.script([10; 6]);
    defenders_fire(&mut g);
    assert_eq!(
        g.unit(m).supply,
        Some(Supply::Counting {
            halves: 11,
            start: 12
        }),
        "3 of 5 bases would spend a whole unit; a Countermarch volley spends ½"
    );
}
