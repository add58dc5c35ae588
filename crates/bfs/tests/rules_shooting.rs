//! Shooting (BFS-SHO) against the rulebook's worked examples, with the book's dice.

mod support;

use sandtable_bfs::event::Piece;

use sandtable_bfs::Command;
use sandtable_bfs::event::{Band, Event};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::turn::CombatStage;
use support::*;

/// BFS-SHO-20 example 1: Sosiński's haiduks (4 bases, Veterans, arquebuses, 2 dice per base) fire
/// at Swedish reiters 10 cm away: 8 dice needing 5 roll 3, 9, 7, 2, 10, 6, 8, 3 for 3 hits; the
/// reiters' Armor 4 is reduced by 1, so they save on 3: 7, 6, 4 all fail; 3 SP lost, one base.
#[test]
fn bfs_sho_20_example_1_haiduks_fire_at_reiters() {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 50.0), 180.0),
    ]);
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::DefendersFire);
    // To-hit, armor, then the reiters' Morale test for the lost base (a pass: 1).
    g.dice.script([3, 9, 7, 2, 10, 6, 8, 3, 7, 6, 4, 1]);
    let events = run(&mut g, Command::Continue);
    let v = events
        .iter()
        .find_map(|e| {
            if let Event::Volley(v) = e {
                Some(v)
            } else {
                None
            }
        })
        .expect("a volley");
    assert_eq!(v.groups.len(), 1);
    let group = &v.groups[0];
    assert_eq!(group.band, Band::Effective);
    assert_eq!(group.roll.plan.dice, 8);
    assert_eq!(group.roll.plan.target, 5);
    assert_eq!(group.roll.faces, vec![3, 9, 7, 2, 10, 6, 8, 3]);
    assert_eq!(v.hits, 3);
    assert_eq!(
        v.armor[0].target, 3,
        "Armor 4 − 1 for the arquebus at effective range"
    );
    assert_eq!(v.armor[0].faces, vec![7, 6, 4]);
    assert_eq!(v.sp_lost, 3);
    let reiters = g.unit(id(&g, "reiters"));
    assert_eq!(reiters.bases.len(), 2, "3 SP is one whole base");
    assert_eq!(reiters.casualty_markers, 0);
    assert_eq!(g.dice.scripted_left(), 0, "every scripted face was used");
}

/// BFS-SHO-20 example 2, with a one-base unit standing in for the commander (both count as Open
/// Order, BFS-SHO-8): 18 cm is Long range for the arquebus; −1 for Open Order makes 4 or less on
/// 8 dice: 1, 6, 3, 9, 8, 2, 5, 7 gives 3 successes; rerolled at long range (1, 5, 7) → 1 hit.
#[test]
fn bfs_sho_20_example_2_long_range_rerolls_the_hits() {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        unit("escort", 1, "reiters", 1, 1, (60.0, 58.0), 180.0),
    ]);
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::DefendersFire);
    // To-hit 8, reroll 3, armor 1 (9: fails; Armor 4 − 0 at long range).
    g.dice.script([1, 6, 3, 9, 8, 2, 5, 7, 1, 5, 7, 9]);
    let events = run(&mut g, Command::Continue);
    let v = events
        .iter()
        .find_map(|e| {
            if let Event::Volley(v) = e {
                Some(v)
            } else {
                None
            }
        })
        .expect("a volley");
    let group = &v.groups[0];
    assert_eq!(group.band, Band::Long);
    assert_eq!(group.roll.plan.target, 4);
    assert!(
        group
            .roll
            .plan
            .modifiers
            .iter()
            .any(|m| m.rule == "BFS-SHO-8" && m.delta == -1)
    );
    assert_eq!(group.roll.reroll_faces, vec![1, 5, 7]);
    assert_eq!(v.hits, 1);
    assert_eq!(v.armor[0].target, 4);
    assert_eq!(v.sp_lost, 1);
    assert_eq!(g.unit(id(&g, "escort")).casualty_markers, 1);
}

/// BFS-SHO-9: the target must be the closest eligible enemy.
#[test]
fn bfs_sho_9_closest_enemy_is_the_target() {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        unit("far", 1, "reiters", 3, 3, (62.0, 55.0), 180.0),
        unit("near", 1, "reiters", 3, 3, (40.0, 48.0), 180.0),
    ]);
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    at_combat(&mut g, CombatStage::DefendersFire);
    let events = run(&mut g, Command::Continue);
    let v = events
        .iter()
        .find_map(|e| {
            if let Event::Volley(v) = e {
                Some(v)
            } else {
                None
            }
        })
        .expect("a volley");
    assert_eq!(v.target, Piece::Unit(id(&g, "near")));
}

/// BFS-SHO-17: Shooting after Movement costs −1 with a musket; a Move order shoots only then.
#[test]
fn bfs_sho_17_shooting_after_movement_penalty_for_muskets() {
    let mut g = game(&[
        unit("musketeers", 1, "musketeers", 4, 4, (60.0, 50.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
    ]);
    set_order(&mut g, "musketeers", Some(OrderKind::Move));
    at_combat(&mut g, CombatStage::ShootingAfterMovement);
    let events = run(&mut g, Command::Continue);
    let v = events
        .iter()
        .find_map(|e| {
            if let Event::Volley(v) = e {
                (v.shooter == Piece::Unit(id(&g, "musketeers"))).then_some(v)
            } else {
                None
            }
        })
        .expect("musketeers shoot");
    let plan = &v.groups[0].roll.plan;
    assert_eq!(
        plan.target, 3,
        "Skill 4 − 1 for a musket in Shooting after Movement"
    );
    assert_eq!(plan.dice, 8);
    // The haiduks had no order: 1 die per base, no penalty for an arquebus (BFS-ORD-9).
    let h = events
        .iter()
        .find_map(|e| {
            if let Event::Volley(v) = e {
                (v.shooter == Piece::Unit(id(&g, "haiduks"))).then_some(v)
            } else {
                None
            }
        })
        .expect("haiduks shoot");
    assert_eq!(h.groups[0].roll.plan.dice, 4);
    assert_eq!(h.groups[0].roll.plan.target, 5);
}

/// Flanking fire (BFS-OPT-1), an optional rule: Swedish musketeers 12 cm north of haiduks who
/// face east fire into the haiduks' left flank; with the option on, each of the 4 firing bases
/// rolls one die more (2 + 1 each), and without it none does.
#[test]
fn bfs_opt_1_flanking_fire_adds_a_die_per_base_firing_from_the_flank() {
    use sandtable_bfs::shooting::FireStage;
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 90.0),
        unit("musketeers", 1, "musketeers", 4, 4, (60.0, 60.0), 180.0),
    ]);
    let m = id(&g, "musketeers");
    let count = |g: &sandtable_bfs::Game| {
        let plan = sandtable_bfs::preview::volley(g, m, FireStage::DefendersFire)
            .expect("the musketeers have a target");
        let extra: usize = plan
            .groups
            .iter()
            .map(|gr| {
                gr.spec
                    .dice_changes
                    .iter()
                    .filter(|c| c.rule == "BFS-OPT-1" && c.delta == 1)
                    .count()
            })
            .sum();
        let dice: u32 = plan.groups.iter().map(|gr| gr.spec.plan().dice).sum();
        (extra, dice)
    };
    assert_eq!(count(&g), (0, 8), "off by default");
    g.info.options.flanking_fire = true;
    assert_eq!(count(&g), (4, 12));
}

/// BFS-SHO-5: bows shoot over friends in Open Order (here cossacks 5 cm in front of the
/// shooters), one die a base; over friends in Close Order (pancerni) they may not. The cossacks
/// are given 2 dice a base so that the one die shows.
#[test]
fn bfs_sho_5_bows_shoot_over_friends_in_open_order_with_one_die() {
    use sandtable_bfs::shooting::FireStage;
    let build = |friend: &'static str| {
        let mut s = support::setup(
            &[
                unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 30.0), 0.0),
                unit("friends", 0, friend, 3, 3, (60.0, 38.0), 0.0),
                unit("reiters", 1, "reiters", 3, 3, (60.0, 48.0), 180.0),
            ],
            vec![],
        );
        for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
            if p.id == "cossack-cavalry" {
                p.shooting = 2;
            }
        }
        let mut g = <sandtable_bfs::Bfs as sandtable_engine::Ruleset>::setup(&s, 1).unwrap();
        set_order(
            &mut g,
            "cossacks",
            Some(sandtable_bfs::state::OrderKind::Defense),
        );
        g
    };
    let g = build("cossack-cavalry");
    let c = id(&g, "cossacks");
    let plan = sandtable_bfs::preview::volley(&g, c, FireStage::DefendersFire)
        .expect("the cossacks shoot over their friends");
    assert_eq!(
        plan.target,
        sandtable_bfs::event::Piece::Unit(id(&g, "reiters"))
    );
    let dice: u32 = plan.groups.iter().map(|gr| gr.spec.plan().dice).sum();
    let over = plan
        .groups
        .iter()
        .flat_map(|gr| gr.spec.dice_changes.iter())
        .filter(|d| d.rule == "BFS-SHO-5")
        .count() as u32;
    let bases: u32 = plan.groups.iter().map(|gr| gr.bases).sum();
    assert!(over > 0, "some bases shoot over the friends");
    assert_eq!(
        dice,
        2 * bases - over,
        "one die for each base shooting over"
    );
    let blocked = build("pancerni");
    let plan = sandtable_bfs::preview::volley(&blocked, c, FireStage::DefendersFire);
    assert!(
        plan.is_none_or(|p| p.groups.iter().all(|gr| gr
            .spec
            .dice_changes
            .iter()
            .all(|d| d.rule != "BFS-SHO-5"))),
        "not over Close Order friends"
    );
}

/// The haiduks of [`bfs_sho_9_closest_enemy_is_the_target`], the near reiters 8.2 cm off and the
/// far ones 15 cm, in the Poles' Movement Phase with their colonel beside them.
fn haiduks_between_two_reiters() -> sandtable_bfs::Game {
    let mut g = game(&[
        unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        unit("far", 1, "reiters", 3, 3, (62.0, 55.0), 180.0),
        unit("near", 1, "reiters", 3, 3, (40.0, 48.0), 180.0),
    ]);
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    g.commander_mut(sandtable_bfs::ids::CommanderId(0))
        .base
        .pose
        .pos = sandtable_geometry::Vec2::new(60.0, 30.0);
    at_movement(&mut g, sandtable_bfs::ids::Side::A, false);
    g
}

/// BFS-SHO-10: a commander pays 1 CP for the haiduks to shoot at the far reiters rather than
/// the closest; in Defender's Fire they do. The closest needs no CP, and a lone unit out of
/// sight cannot be chosen.
#[test]
fn bfs_sho_10_paying_for_a_different_target() {
    let mut g = haiduks_between_two_reiters();
    let (haiduks, far, near) = (id(&g, "haiduks"), id(&g, "far"), id(&g, "near"));
    let c = sandtable_bfs::ids::CommanderId(0);
    let aim = |target| Command::AimFire {
        unit: haiduks,
        target,
        by: c,
    };
    use sandtable_engine::Ruleset;
    let e = sandtable_bfs::Bfs::legal(&g, &aim(near)).unwrap_err();
    assert_eq!(e.rule, "BFS-SHO-10", "{}", e.message);
    let cp = g.commander(c).cp;
    run(&mut g, aim(far));
    assert_eq!(g.commander(c).cp, cp - 1);
    assert_eq!(g.unit(haiduks).flags.aim, Some(far));
    at_combat(&mut g, CombatStage::DefendersFire);
    let events = run(&mut g, Command::Continue);
    let v = events
        .iter()
        .find_map(|e| match e {
            Event::Volley(v) if v.shooter == Piece::Unit(haiduks) => Some(v),
            _ => None,
        })
        .expect("a volley");
    assert_eq!(v.target, Piece::Unit(far));

    // Out of everyone's reach, the closest it is after all.
    let mut g = haiduks_between_two_reiters();
    run(&mut g, aim(far));
    g.unit_mut(far)
        .bases
        .iter_mut()
        .for_each(|b| b.pose.pos.y += 60.0);
    let scene = sandtable_bfs::geo::scene(&g);
    let plan = sandtable_bfs::shooting::plan_volley(
        &g,
        &scene,
        haiduks,
        sandtable_bfs::shooting::FireStage::DefendersFire,
    )
    .unwrap();
    assert_eq!(plan.target, Piece::Unit(near));
}
