//! The pre-battle sequence (BFS-SCN-9, steps A–J) from two shipped forces to a battle, through
//! the engine's seam as the CLI and the app use it.

use sandtable_bfs::army_list::{ArmyList, load_army_list};
use sandtable_bfs::force::ForceFile;
use sandtable_bfs::ids::Side;
use sandtable_bfs::prebattle::book::{BookScenario, ReconEffect};
use sandtable_bfs::prebattle::{BfsPreBattle, Choice, PreBattle, Step, TerrainPick};
use sandtable_engine::DataDirs;
use sandtable_engine::prebattle::{PreBattle as Seam, SetupChoice, run_to_end};
use sandtable_engine::scenario::TerrainKind;
use std::path::{Path, PathBuf};

fn assets() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../assets")
}

fn force_path(name: &str) -> PathBuf {
    assets().join("forces").join(name)
}

fn dirs() -> DataDirs {
    DataDirs::under(&assets())
}

fn list(id: &str) -> ArmyList {
    load_army_list(&assets().join("armies").join(format!("{id}.ron"))).expect("shipped list")
}

fn force_file(name: &str) -> ForceFile {
    sandtable_engine::data_file::read_ron(&force_path(name)).expect("shipped force")
}

fn start(a: &str, b: &str, seed: u64) -> Box<dyn Seam> {
    sandtable_bfs::prebattle::start_files(&[&force_path(a), &force_path(b)], &dirs(), seed, &[])
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The computer's way: the best-scored offer.
fn best(_: &dyn Seam, offered: &[SetupChoice]) -> String {
    offered
        .iter()
        .max_by_key(|c| c.computer_score)
        .expect("something offered")
        .key
        .clone()
}

/// A fixed pseudo-random pick among the offers.
fn random_by(seed: u64) -> impl FnMut(&dyn Seam, &[SetupChoice]) -> String {
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    move |_, offered| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        offered[(x % offered.len() as u64) as usize].key.clone()
    }
}

fn validates(text: &str) -> sandtable_bfs::LoadedScenario {
    sandtable_bfs::load::load_scenario_text(Path::new("setup.ron"), text, &assets().join("armies"))
        .unwrap_or_else(|e| panic!("the scenario the sequence wrote is refused: {e}\n{text}"))
}

const PAIRS: [(&str, &str); 8] = [
    (
        "polish-sosinski-banners.ron",
        "swedish-schwelick-column.ron",
    ),
    ("swedish-foraging-party.ron", "polish-border-patrol.ron"),
    ("polish-border-patrol.ron", "swedish-schwelick-column.ron"),
    ("swedish-foraging-party.ron", "swedish-foraging-party.ron"),
    // A Cossack tabor of four war wagons against the Poles, and the Cossack foot.
    ("cossack-raiders.ron", "polish-sosinski-banners.ron"),
    ("swedish-schwelick-column.ron", "cossack-chyhyryn-foot.ron"),
    // Tatar horse, large and small.
    ("tatar-chambul.ron", "cossack-raiders.ron"),
    ("polish-border-patrol.ron", "tatar-outriders.ron"),
];

/// BFS-SCN-9: the whole sequence, computer or random choices, ends in a battle the loader
/// accepts, for every shipped pair of forces and many seeds.
#[test]
fn bfs_scn_9_the_sequence_ends_in_a_valid_battle() {
    let mut scenarios = std::collections::BTreeSet::new();
    for (k, (a, b)) in PAIRS.iter().enumerate() {
        for seed in 0..12u64 {
            let mut seq = start(a, b, seed * 31 + k as u64);
            let mut r0 = random_by(seed);
            let mut r1 = random_by(seed + 99);
            let mut b0 = best;
            let mut b1 = best;
            let steps = if seed % 2 == 0 {
                run_to_end(seq.as_mut(), &mut [&mut r0, &mut r1], 200)
            } else {
                run_to_end(seq.as_mut(), &mut [&mut b0, &mut b1], 200)
            }
            .unwrap_or_else(|e| panic!("{a} v {b}, seed {seed}: {e}"));
            assert!(steps >= 8, "{steps} choices");
            let text = seq.scenario_text().expect("ready");
            let loaded = validates(&text);
            scenarios.insert(loaded.scenario.name.split(':').next().unwrap().to_string());
            // Units held back by Delay or Outmaneuver wait in Reserves (BFS-SCN-31, -46).
            for u in loaded.scenario.rules.forces.iter().flat_map(|f| &f.units) {
                if u.delayed.is_some() {
                    assert!(u.reserve, "{} is held back but not in Reserves", u.id);
                }
            }
            // The battle starts: the setup builds its opening position.
            sandtable_bfs::new_game(&loaded).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    assert!(scenarios.len() >= 4, "only {scenarios:?} came up");
}

/// BFS-SCN-11, -12, -14, -15: the Weaker picks a rolled scenario worth no more than the FSP
/// difference; the rest of the difference, less fortifications, is paid in Additional Effects;
/// the Weaker has the Initiative in turn 1.
#[test]
fn bfs_scn_12_14_15_scenario_value_effects_and_initiative() {
    for seed in 0..20u64 {
        let mut s = PreBattle::new(
            [list("polish-lithuanian-1655"), list("swedish-1655")],
            [
                force_file("polish-border-patrol.ron"),
                force_file("swedish-schwelick-column.ron"),
            ],
            seed,
        )
        .unwrap();
        // 7 FSP against 10: the Poles are Weaker by 3.
        assert_eq!((s.weaker, s.difference()), (Some(Side::A), 3));
        s.apply(Side::A, Choice::RollScenario).unwrap();
        // The Colonel has 2 CP: two dice (BFS-SCN-11).
        assert_eq!(s.rolled.len(), 2);
        if s.step == Step::PickScenario {
            let allowed = s.allowed_scenarios();
            for f in s.rolled.clone() {
                let sc = sandtable_bfs::prebattle::book::ScenarioTable::Unequal.scenario(f);
                let r = s.check(Side::A, &Choice::PickScenario(sc));
                assert_eq!(r.is_ok(), sc.value(false) <= 3, "{sc:?}");
                assert_eq!(allowed.contains(&sc), r.is_ok());
            }
            let pick = allowed[0];
            s.apply(Side::A, Choice::PickScenario(pick)).unwrap();
        }
        let value = s.scenario_value;
        assert!(value <= 3);
        if s.step == Step::Fortifications {
            let room = s.fortification_room();
            assert_eq!(room, 3 - value);
            assert!(s.check(Side::A, &Choice::Fortify(room * 2 + 2)).is_err());
            assert!(s.check(Side::A, &Choice::Fortify(1)).is_err());
            s.apply(Side::A, Choice::Fortify(2)).unwrap();
        }
        let expected = 3 - value - s.fortifications / 2;
        let mut rolled = 0;
        while s.step == Step::RollEffects || s.step == Step::GoodOrBadDay {
            if s.step == Step::GoodOrBadDay {
                s.apply(Side::A, Choice::GoodDay(true)).unwrap();
            } else {
                s.apply(Side::A, Choice::RollEffect).unwrap();
                rolled += 1;
            }
        }
        assert_eq!(rolled, expected, "seed {seed}");
        assert_eq!(s.effects.len() as u32, expected);
        let mut seq = BfsPreBattle(s);
        let mut b0 = best;
        let mut b1 = best;
        run_to_end(&mut seq, &mut [&mut b0, &mut b1], 200).unwrap();
        let loaded = validates(&seq.scenario_text().unwrap());
        assert_eq!(loaded.scenario.rules.first_initiative, Some(0));
        let game = sandtable_bfs::new_game(&loaded).unwrap();
        assert_eq!(
            game.turn.phase,
            sandtable_bfs::turn::Phase::InitiativeChoice { winner: Side::A },
            "the Weaker side has the Initiative in turn 1 and chooses to keep it or not"
        );
    }
}

/// BFS-SCN-48: a side's deployment is hidden from the other seat until both have deployed.
#[test]
fn bfs_scn_48_deployment_is_hidden_until_both_have_deployed() {
    let mut seq = start(
        "polish-sosinski-banners.ron",
        "swedish-schwelick-column.ron",
        5,
    );
    // Play to the first deployment.
    loop {
        let step = seq.step();
        if step.title == "Deploy" {
            break;
        }
        let seat = step.to_act.expect("not over");
        let key = best(seq.as_ref(), &offered(seq.as_ref(), seat));
        seq.choose(seat, &key).unwrap();
    }
    let first = seq.step().to_act.unwrap();
    let key = best(seq.as_ref(), &offered(seq.as_ref(), first));
    seq.choose(first, &key).unwrap();
    let second = seq.step().to_act.unwrap();
    assert_ne!(first, second);
    let theirs = seq.log(second);
    assert!(
        !theirs
            .iter()
            .any(|l| l.text.contains("units and commanders")),
        "the second seat reads the first's deployment: {theirs:?}"
    );
    assert!(
        seq.summary(second)
            .iter()
            .any(|l| l.contains("hidden until you have")),
        "{:?}",
        seq.summary(second)
    );
    assert!(
        seq.log(first)
            .iter()
            .any(|l| l.text.contains("units and commanders"))
    );
    let key = best(seq.as_ref(), &offered(seq.as_ref(), second));
    seq.choose(second, &key).unwrap();
    assert_eq!(seq.step().to_act, None);
    assert!(
        seq.log(second)
            .iter()
            .any(|l| l.text.contains("deployments are revealed"))
    );
}

fn offered(seq: &dyn Seam, seat: u8) -> Vec<SetupChoice> {
    seq.choices(seat)
        .into_iter()
        .filter(|c| c.refused.is_none())
        .collect()
}

/// BFS-SCN-20, -21, -22: spacing, sizes and the one Atypical element.
#[test]
fn bfs_scn_20_21_22_terrain_placement_rules() {
    let mut s = PreBattle::new(
        [list("swedish-1655"), list("swedish-1655")],
        [
            force_file("swedish-foraging-party.ron"),
            force_file("swedish-foraging-party.ron"),
        ],
        3,
    )
    .unwrap();
    // Equal FSP: one die, no choice (BFS-SCN-10).
    s.apply(Side::A, Choice::RollScenario).unwrap();
    assert_eq!(s.rolled.len(), 1);
    let Step::PlaceTerrain(first) = s.step else {
        panic!("equal forces go straight to the terrain: {:?}", s.step)
    };
    // 6 elements on a 120 × 120 cm table (BFS-SCN-19).
    assert_eq!(s.elements_left, 6);
    let pick = |kind, x, y, w, h| TerrainPick {
        kind,
        center: (x, y),
        size: (w, h),
        rotation: 0.0,
    };
    let too_big = pick(TerrainKind::Grove, 60.0, 60.0, 31.0, 20.0);
    assert!(s.check(first, &Choice::PlaceTerrain(too_big)).is_err());
    // Numbers that are not numbers are refused, whatever field holds them.
    let mut nan = pick(TerrainKind::Grove, 60.0, 60.0, 10.0, 10.0);
    nan.rotation = f32::NAN;
    assert!(s.check(first, &Choice::PlaceTerrain(nan)).is_err());
    let forest = pick(TerrainKind::Forest, 30.0, 60.0, 20.0, 20.0);
    s.apply(first, Choice::PlaceTerrain(forest)).unwrap();
    let other = first.other();
    // 9.9 cm from the forest's edge (x from 40 to 49.9 is the gap): refused.
    let near = pick(TerrainKind::Hill, 59.9, 60.0, 20.0, 20.0);
    let e = s.check(other, &Choice::PlaceTerrain(near)).unwrap_err();
    assert!(e.message.contains("10 cm"), "{}", e.message);
    let ok = pick(TerrainKind::Hill, 60.1, 60.0, 20.0, 20.0);
    assert!(s.check(other, &Choice::PlaceTerrain(ok)).is_ok());
    // An obstacle need only not touch (BFS-SCN-20).
    let fence = pick(TerrainKind::Obstacle, 30.0, 72.0, 20.0, 1.0);
    assert!(s.check(other, &Choice::PlaceTerrain(fence)).is_ok());
    // A second Atypical element is refused (BFS-SCN-22).
    let marsh = pick(TerrainKind::Marsh, 90.0, 20.0, 20.0, 15.0);
    let e = s.check(other, &Choice::PlaceTerrain(marsh)).unwrap_err();
    assert!(e.message.contains("Atypical"), "{}", e.message);
}

/// BFS-SCN-36, -39, -42: reconnaissance bought with the RP difference, within the caps.
#[test]
fn bfs_scn_36_reconnaissance_purchases() {
    // The border patrol has 12 RP, the foraging party 3: the Poles buy with 9.
    let mut seq = PreBattle::new(
        [list("swedish-1655"), list("polish-lithuanian-1655")],
        [
            force_file("swedish-foraging-party.ron"),
            force_file("polish-border-patrol.ron"),
        ],
        11,
    )
    .unwrap();
    let mut wrapped = BfsPreBattle(seq.clone());
    // Walk to the reconnaissance with the computer's choices.
    while wrapped.0.step != Step::Reconnaissance {
        let seat = wrapped.step().to_act.expect("reaches reconnaissance");
        let key = best(&wrapped, &offered(&wrapped, seat));
        wrapped.choose(seat, &key).unwrap();
    }
    seq = wrapped.0;
    assert_eq!((seq.recon_buyer, seq.rp_left), (Some(Side::B), 9));
    let buyer = Side::B;
    // Not yet played by the battle: refused with the reason.
    let e = seq
        .check(buyer, &Choice::Buy(ReconEffect::Ambush, None))
        .unwrap_err();
    assert!(e.message.contains("not yet played"), "{}", e.message);
    // Against a force of 5 FSP no Effect Affecting the Enemy may be bought (BFS-SCN-42).
    let e = seq
        .check(buyer, &Choice::Buy(ReconEffect::Chaos, None))
        .unwrap_err();
    assert!(
        e.message.contains("0 Effects Affecting the Enemy"),
        "{}",
        e.message
    );
    // Wagons never force-march; a 4-base unit costs 6 RP (BFS-SCN-39).
    seq.apply(
        buyer,
        Choice::Buy(ReconEffect::ForcedMarch, Some("haiduks".into())),
    )
    .unwrap();
    assert_eq!(seq.rp_left, 3);
    let e = seq
        .check(
            buyer,
            &Choice::Buy(ReconEffect::ForcedMarch, Some("pancerni".into())),
        )
        .unwrap_err();
    assert!(e.message.contains("costs 6 RP"), "{}", e.message);
}

/// A saved sequence resumes exactly where it stood and ends in the same battle.
#[test]
fn a_saved_sequence_resumes_to_the_same_battle() {
    let mut seq = start(
        "polish-sosinski-banners.ron",
        "swedish-foraging-party.ron",
        8,
    );
    let mut r0 = random_by(1);
    let mut r1 = random_by(2);
    // Part of the way, then save and resume.
    for _ in 0..5 {
        let seat = seq.step().to_act.unwrap();
        let key = r0(seq.as_ref(), &offered(seq.as_ref(), seat));
        seq.choose(seat, &key).unwrap();
    }
    let saved = seq.save_text();
    let mut resumed =
        sandtable_bfs::prebattle::resume_text(Path::new("seq.ron"), &saved, &dirs()).unwrap();
    assert_eq!(resumed.step(), seq.step());
    assert_eq!(resumed.log(0), seq.log(0));
    let mut c0 = random_by(3);
    let mut c1 = random_by(3);
    run_to_end(seq.as_mut(), &mut [&mut r1, &mut c0], 200).unwrap();
    let mut d0 = random_by(2);
    run_to_end(resumed.as_mut(), &mut [&mut d0, &mut c1], 200).unwrap();
    assert_eq!(seq.scenario_text(), resumed.scenario_text());
    assert!(seq.scenario_text().is_some());
    let _ = BookScenario::Patrol;
}

/// BFS-SCN-30: Cowardly Commander strikes a random commander of the Stronger side, once only (a
/// second 5 is rolled again), never a named historical one (only such commanders: roll again);
/// the battle gets him as a coward.
#[test]
fn bfs_scn_30_cowardly_commander_is_rolled_once_and_spares_historical_commanders() {
    use sandtable_bfs::prebattle::book::Effect;
    // Border patrol (7 FSP) against the column (10): the Poles roll, the Swedes are struck.
    let to_effects = |lists: [ArmyList; 2]| {
        (0..50u64)
            .find_map(|seed| {
                let mut s = PreBattle::new(
                    lists.clone(),
                    [
                        force_file("polish-border-patrol.ron"),
                        force_file("swedish-schwelick-column.ron"),
                    ],
                    seed,
                )
                .unwrap();
                s.apply(Side::A, Choice::RollScenario).unwrap();
                if s.step == Step::PickScenario {
                    let pick = s.allowed_scenarios()[0];
                    s.apply(Side::A, Choice::PickScenario(pick)).unwrap();
                }
                if s.step == Step::Fortifications {
                    s.apply(Side::A, Choice::Fortify(0)).unwrap();
                }
                (s.step == Step::RollEffects && s.effects_due >= 2).then_some(s)
            })
            .expect("a seed with two effects to roll")
    };
    let lists = [list("polish-lithuanian-1655"), list("swedish-1655")];
    let mut s = to_effects(lists.clone());
    // A 5, then the die among the Swedish commanders: the first.
    s.dice.script([5, 1]);
    s.apply(Side::A, Choice::RollEffect).unwrap();
    assert_eq!(s.effects.last().unwrap().effect, Effect::CowardlyCommander);
    assert_eq!(s.coward, Some((Side::B, "commander".to_string())));
    // A second 5 is rolled again: the 4 that follows is Insubordination.
    s.dice.script([5, 4, 1]);
    s.apply(Side::A, Choice::RollEffect).unwrap();
    assert_eq!(s.effects.last().unwrap().effect, Effect::Insubordination);
    // The battle plays him as a coward.
    let mut seq = BfsPreBattle(s);
    let mut b0 = best;
    let mut b1 = best;
    run_to_end(&mut seq, &mut [&mut b0, &mut b1], 200).unwrap();
    let loaded = validates(&seq.scenario_text().unwrap());
    let game = sandtable_bfs::new_game(&loaded).unwrap();
    let cowards: Vec<_> = game.commanders.iter().filter(|c| c.coward).collect();
    assert_eq!(cowards.len(), 1);
    assert_eq!(cowards[0].side, Side::B);

    // A Swedish force of named historical commanders only: the 5 is rolled again.
    let mut historical = lists.clone();
    for p in &mut historical[1].profiles {
        if p.kind == sandtable_bfs::profile::UnitKind::Commander {
            p.historical = true;
        }
    }
    let mut s = to_effects(historical);
    s.dice.script([5, 4, 1]);
    s.apply(Side::A, Choice::RollEffect).unwrap();
    assert_eq!(s.effects.last().unwrap().effect, Effect::Insubordination);
    assert_eq!(s.coward, None);
}

/// BFS-OPT-4: Choice of Effects. Off unless named; with it, one in three of the effects due is
/// chosen instead of rolled. March Losses, Cowardly Commander and Exhaustion are never chosen,
/// nor Fatigue once taken; the choice is recorded, kept by a save, and the battle plays it.
#[test]
fn bfs_opt_4_choice_of_effects() {
    use sandtable_bfs::prebattle::book::Effect;
    use sandtable_bfs::prebattle::{apply_options, resume_text};
    // Foraging party (5 FSP) against von Schwelick's column (10): the Swedes are owed up to 5
    // effects; find dice that leave at least 3 after the scenario.
    let to_effects = |options: &[String]| {
        (0..200u64)
            .find_map(|seed| {
                let mut s = PreBattle::new(
                    [list("swedish-1655"), list("swedish-1655")],
                    [
                        force_file("swedish-foraging-party.ron"),
                        force_file("swedish-schwelick-column.ron"),
                    ],
                    seed,
                )
                .unwrap();
                apply_options(&mut s, options).unwrap();
                let weaker = s.weaker.unwrap();
                s.apply(weaker, Choice::RollScenario).unwrap();
                if s.step == Step::PickScenario {
                    let pick = *s
                        .allowed_scenarios()
                        .iter()
                        .min_by_key(|sc| sc.value(false))
                        .unwrap();
                    s.apply(weaker, Choice::PickScenario(pick)).ok()?;
                }
                if s.step == Step::Fortifications {
                    s.apply(weaker, Choice::Fortify(0)).unwrap();
                }
                (s.step == Step::RollEffects && s.effects_due >= 3).then_some((s, weaker))
            })
            .expect("a seed with three effects or more")
    };
    // Off by default: nothing to choose.
    let (s, weaker) = to_effects(&[]);
    assert_eq!(s.effects_to_choose, 0);
    let e = s
        .check(weaker, &Choice::ChooseEffect(Effect::Panic))
        .unwrap_err();
    assert_eq!(e.rule, "BFS-OPT-4");

    let (mut s, weaker) = to_effects(&["choice_of_effects".to_string()]);
    let due = s.effects_due;
    assert_eq!(s.effects_to_choose, due / 3);
    for never in [
        Effect::MarchLosses,
        Effect::CowardlyCommander,
        Effect::Exhaustion,
    ] {
        assert!(
            s.check(weaker, &Choice::ChooseEffect(never)).is_err(),
            "{never:?}"
        );
    }
    s.apply(weaker, Choice::ChooseEffect(Effect::Fatigue))
        .unwrap();
    let last = s.effects.last().unwrap();
    assert_eq!(last.effect, Effect::Fatigue);
    assert_eq!(s.effects_due, due - 1);
    // Fatigue again would be Exhaustion: refused.
    if s.effects_to_choose > 0 {
        let e = s
            .check(weaker, &Choice::ChooseEffect(Effect::Fatigue))
            .unwrap_err();
        assert_eq!(e.rule, "BFS-SCN-26");
    }
    // The rest: rolled while rolls are left, chosen when only choices are.
    while s.step == Step::RollEffects || s.step == Step::GoodOrBadDay {
        if s.step == Step::GoodOrBadDay {
            s.apply(weaker, Choice::GoodDay(true)).unwrap();
        } else if s.effects_due > s.effects_to_choose {
            s.apply(weaker, Choice::RollEffect).unwrap();
        } else {
            assert!(
                s.check(weaker, &Choice::RollEffect).is_err(),
                "chosen, not rolled"
            );
            s.apply(weaker, Choice::ChooseEffect(Effect::Panic))
                .unwrap();
        }
    }
    assert_eq!(
        s.effects.len() as u32
            + u32::from(s.effects.iter().any(|t| t.effect == Effect::Exhaustion)),
        due
    );
    // A save keeps the option: the resumed sequence is the same.
    let seq = BfsPreBattle(s);
    let saved = seq.save_text();
    assert!(saved.contains("choice_of_effects"));
    let back = resume_text(std::path::Path::new("saved.ron"), &saved, &dirs()).unwrap();
    assert_eq!(back.save_text(), saved);
    // An unknown option is refused with the ones there are.
    let mut s = PreBattle::new(
        [list("swedish-1655"), list("swedish-1655")],
        [
            force_file("swedish-foraging-party.ron"),
            force_file("swedish-schwelick-column.ron"),
        ],
        1,
    )
    .unwrap();
    let e = apply_options(&mut s, &["fortune".to_string()]).unwrap_err();
    assert!(e.contains("choice_of_effects"), "{e}");
}

/// BFS-SCN-31: Cossack moloitsy are never delayed; in the all-foot Cossack force only the
/// plastuny may be held back.
#[test]
fn bfs_scn_31_moloitsy_are_never_delayed() {
    let s = PreBattle::new(
        [list("cossack-1648"), list("swedish-1655")],
        [
            force_file("cossack-chyhyryn-foot.ron"),
            force_file("swedish-foraging-party.ron"),
        ],
        1,
    )
    .unwrap();
    assert_eq!(s.delay_eligible(Side::A), ["plastuny"]);
}

/// BFS-SPC-28: Robbers. Before any unit is placed, a force with Robbers rolls for them: on a
/// 2–5 the enemy picks one to lose 1 SP and its free turn-1 order; on a 6–7 the enemy and then
/// the owner each pick one to lose 1 SP; on an 8–9 a random one loses its free order. The battle
/// takes the SP at turn 1's first Orders Phase, makes the unit pay for its turn-1 order, and
/// refuses to reorganize the loss in turn 1.
#[test]
fn bfs_spc_28_robbers_pay_for_their_pillage() {
    use sandtable_bfs::ids::UnitId;
    // The Tatar chambul (27 RP) buys reconnaissance from the Poles (11): walk to its end.
    let to_deployment = |face: u8| {
        let mut s = PreBattle::new(
            [list("tatar-1648"), list("polish-lithuanian-1655")],
            [
                force_file("tatar-chambul.ron"),
                force_file("polish-sosinski-banners.ron"),
            ],
            5,
        )
        .unwrap();
        let mut seq = BfsPreBattle(s.clone());
        while seq.0.step != Step::Reconnaissance {
            let seat = seq.step().to_act.expect("reaches the reconnaissance");
            let key = best(&seq, &offered(&seq, seat));
            seq.choose(seat, &key).unwrap();
        }
        s = seq.0;
        let buyer = s.recon_buyer.unwrap();
        s.dice.script([face]);
        s.apply(buyer, Choice::EndReconnaissance).unwrap();
        s
    };
    assert_eq!(
        to_deployment(1).step,
        Step::Deploy(to_deployment(1).defender)
    );

    // A 3: the Poles pick the rabble, which loses 1 SP and its free order.
    let mut s = to_deployment(3);
    assert_eq!(s.step, Step::RobbersPick);
    assert_eq!(s.to_act(), Some(Side::B));
    assert!(
        s.check(Side::B, &Choice::RobbersPick("horse".into()))
            .is_err()
    );
    s.apply(Side::B, Choice::RobbersPick("rabble".into()))
        .unwrap();
    assert_eq!(s.pillaged.len(), 1);
    assert_eq!((s.pillaged[0].sp, s.pillaged[0].no_free_order), (1, true));
    assert!(matches!(s.step, Step::Deploy(_)));

    // A 6: two picks, the Poles' then the Tatars' own, 2 SP in all; free orders kept.
    let mut s = to_deployment(6);
    s.apply(Side::B, Choice::RobbersPick("rabble".into()))
        .unwrap();
    assert_eq!(s.to_act(), Some(Side::A));
    s.apply(Side::A, Choice::RobbersPick("rabble".into()))
        .unwrap();
    assert_eq!((s.pillaged[0].sp, s.pillaged[0].no_free_order), (2, false));

    // An 8, with the die among the one Robbers unit: no free order, no SP.
    let s = to_deployment(8);
    assert!(matches!(s.step, Step::Deploy(_)));
    assert_eq!((s.pillaged[0].sp, s.pillaged[0].no_free_order), (0, true));

    // The battle: a 3's pick, played.
    let mut s = to_deployment(3);
    s.apply(Side::B, Choice::RobbersPick("rabble".into()))
        .unwrap();
    let mut seq = BfsPreBattle(s);
    let mut b0 = best;
    let mut b1 = best;
    run_to_end(&mut seq, &mut [&mut b0, &mut b1], 200).unwrap();
    let loaded = validates(&seq.scenario_text().unwrap());
    let mut g = sandtable_bfs::new_game(&loaded).unwrap();
    let rabble: UnitId = g
        .units
        .iter()
        .find(|u| u.key.ends_with("rabble"))
        .unwrap()
        .id;
    let sp_before = sandtable_bfs::losses::sp_left(&g, rabble);
    let mut events = Vec::new();
    sandtable_bfs::turn_one::at_first_orders(&mut g, &mut events);
    assert_eq!(sandtable_bfs::losses::sp_left(&g, rabble), sp_before - 1);
    g.turn.phase = sandtable_bfs::turn::Phase::Orders {
        acting: Side::A,
        second: false,
    };
    let chief = g.commander_in_chief(Side::A).unwrap().id;
    let free = g
        .units
        .iter()
        .find(|u| u.key.ends_with("-horse"))
        .unwrap()
        .id;
    let cost = |g: &sandtable_bfs::Game, u| {
        sandtable_bfs::phases::orders::check_issue(
            g,
            u,
            sandtable_bfs::state::OrderKind::Move,
            chief,
        )
        .map(|c| c.cp)
    };
    g.commander_mut(chief).cp = 9;
    assert!(sandtable_bfs::phases::orders::orders_are_free(&g));
    assert_eq!(
        cost(&g, free),
        Ok(0),
        "the others' starting orders are free"
    );
    assert_eq!(
        cost(&g, rabble),
        Ok(sandtable_bfs::authority::order_cost(&g, chief, rabble).cp),
        "the pillagers pay as in any turn"
    );
    assert!(cost(&g, rabble).unwrap() >= 1);
    // The loss is a casualty marker that may not be reorganized in turn 1.
    assert!(g.unit(rabble).casualty_markers >= 1);
    let e = sandtable_bfs::phases::orders::check_reorganize(&g, rabble, chief).unwrap_err();
    assert_eq!(e.rule, "BFS-SPC-28");
}
