//! A lone commander as a target (BFS-CDR-7, BFS-CDR-9, BFS-CDR-10): shot at only when he is the
//! closest target and within 30 cm, at −1 as a one-base Open Order unit; an unsaved hit makes him
//! test Skill, once per hit, to escape or fall.

mod support;

use sandtable_bfs::attachment;
use sandtable_bfs::event::{Event, Piece, TestKind};
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::shooting::{self, FireStage, plan_volley};
use sandtable_bfs::state::{Game, OrderKind, UnitStatus};
use sandtable_bfs::weapons::RangedWeapon;
use sandtable_bfs::{Bfs, Command};
use sandtable_engine::Ruleset;
use sandtable_geometry::{Pose, Rect, Vec2};
use support::*;

const COLONEL: CommanderId = CommanderId(0);

/// Swedish musketeers at y = 80 facing south, here armed with Janissary handguns (long range
/// 35 cm) so that the 30 cm limit is what stops them; Polish haiduks with their front 33 cm from
/// them; the Polish colonel alone with the near edge of his base `gap` cm from the musketeers'
/// front.
fn colonel_before_the_muskets(gap: f32, seed: u64) -> Game {
    let mut s = setup(
        &[
            unit("haiduks", 0, "haiduks", 4, 4, (60.0, 47.0), 0.0),
            unit("musketeers", 1, "musketeers", 4, 4, (60.0, 80.0), 180.0),
        ],
        vec![],
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "musketeers" {
            p.ranged = Some(RangedWeapon::JanissaryHandgun);
        }
    }
    let mut g = Bfs::setup(&s, seed).unwrap();
    set_order(&mut g, "musketeers", Some(OrderKind::Move));
    let c = g.commander_mut(COLONEL);
    let half = c.base.half;
    c.base = Rect::new(Pose::new(Vec2::new(60.0, 80.0 - gap - half.y), 0.0), half);
    g
}

fn plan(g: &Game) -> shooting::VolleyPlan {
    let scene = sandtable_bfs::geo::scene(g);
    plan_volley(g, &scene, id(g, "musketeers"), FireStage::AfterMovement).expect("a volley")
}

#[test]
fn bfs_cdr_7_the_closest_target_within_30_cm_is_the_commander_at_minus_one() {
    let g = colonel_before_the_muskets(18.0, 1);
    let p = plan(&g);
    assert_eq!(p.target, Piece::Commander(COLONEL));
    let d = p
        .groups
        .iter()
        .map(|gp| gp.distance)
        .fold(f32::INFINITY, f32::min);
    assert!((d - 18.0).abs() < 0.01, "{d}");
    let mods: Vec<(String, i32)> = p.groups[0]
        .spec
        .modifiers
        .iter()
        .map(|m| (m.rule.clone(), m.delta))
        .collect();
    assert!(mods.contains(&("BFS-CDR-7".to_string(), -1)), "{mods:?}");
    // His own Armor, not a unit's.
    let armor = g.profile(g.commander(COLONEL).profile).armor as i32;
    assert_eq!(p.groups[0].armor_base, armor);
}

#[test]
fn bfs_cdr_7_beyond_30_cm_he_is_not_visible_as_a_target() {
    // 30.01 cm away, nearer than the haiduks at 33 and within the handguns' range: the haiduks
    // are shot at.
    let g = colonel_before_the_muskets(30.01, 1);
    assert_eq!(plan(&g).target, Piece::Unit(id(&g, "haiduks")));
    // 29.99 cm: the colonel.
    let g = colonel_before_the_muskets(29.99, 1);
    assert_eq!(plan(&g).target, Piece::Commander(COLONEL));
}

#[test]
fn bfs_cdr_7_a_nearer_unit_shields_him_and_a_joined_one_hides_him() {
    // The haiduks 10 cm from the muskets and to one side, the colonel at 18 in the clear: the
    // haiduks are the target.
    let mut g = colonel_before_the_muskets(18.0, 1);
    let h = id(&g, "haiduks");
    for b in g.unit_mut(h).bases.iter_mut() {
        *b = Rect::new(
            Pose::new(
                Vec2::new(b.center().x + 12.0, b.center().y + 23.0),
                b.pose.angle,
            ),
            b.half,
        );
    }
    assert_eq!(plan(&g).target, Piece::Unit(h));
    // Attached to a unit he is never the target (BFS-CDR-11).
    let mut g = colonel_before_the_muskets(18.0, 1);
    g.commander_mut(COLONEL).attached_to = Some(h);
    assert_eq!(plan(&g).target, Piece::Unit(h));
}

/// The Skill tests a lone commander took, in order: (rule, face, passed).
fn skill_tests(events: &[Event]) -> Vec<(String, Option<u8>, bool)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Test(t) if t.kind == TestKind::Skill && t.commander == Some(COLONEL) => {
                Some((t.rule.clone(), t.roll.face, t.roll.passed))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn bfs_cdr_9_10_one_skill_test_per_unsaved_hit_every_one_to_be_passed() {
    let (mut escaped, mut killed) = (0, 0);
    for seed in 1..=40 {
        for sp in [1u32, 2] {
            let mut g = colonel_before_the_muskets(18.0, seed);
            g.turn.number = 2;
            let skill = g.profile(g.commander(COLONEL).profile).skill;
            let at = g.commander(COLONEL).base.center();
            let mut events = Vec::new();
            attachment::lone_commander_hit(&mut g, COLONEL, sp, "test".into(), &mut events);
            let tests = skill_tests(&events);
            let rule = if sp == 1 { "BFS-CDR-9" } else { "BFS-CDR-10" };
            assert!(tests.iter().all(|t| t.0 == rule), "{tests:?}");
            for t in &tests {
                assert_eq!(t.2, t.1.is_some_and(|f| f <= skill), "{t:?}");
            }
            let c = g.commander(COLONEL);
            if tests.iter().all(|t| t.2) {
                // Passed every one: as many tests as hits; he gets away within his Move, with
                // no CP this turn or the next.
                assert_eq!(tests.len() as u32, sp);
                assert_eq!(c.status, UnitStatus::OnTable);
                assert_eq!(c.cp, 0);
                assert_eq!(c.stunned_until_turn, 3);
                let moved = c.base.center().distance(at);
                let reach = g.profile(c.profile).movement.basic;
                assert!(moved <= reach + 0.01, "{moved}");
                escaped += 1;
            } else {
                // Failed one: killed at once, no further test.
                assert!(!tests.last().unwrap().2);
                assert!(tests[..tests.len() - 1].iter().all(|t| t.2));
                assert_eq!(c.status, UnitStatus::Destroyed);
                assert!(events.iter().any(|e| matches!(
                    e,
                    Event::CommanderLost { commander, killed: true, .. } if *commander == COLONEL
                )));
                killed += 1;
            }
        }
    }
    assert!(
        escaped > 0 && killed > 0,
        "{escaped} escaped, {killed} killed"
    );
}

#[test]
fn bfs_cdr_7_9_the_volley_at_him_is_rolled_and_its_hits_tested() {
    // Over a few seeds, the musketeers' Shooting after Movement goes at the colonel; whenever
    // it costs him SP he takes that many Skill tests.
    let mut tested = 0;
    for seed in 1..=30 {
        let mut g = colonel_before_the_muskets(10.0, seed);
        at_combat(
            &mut g,
            sandtable_bfs::turn::CombatStage::ShootingAfterMovement,
        );
        let mut events = Vec::new();
        shooting::resolve_stage(&mut g, FireStage::AfterMovement, &mut events);
        let v = events
            .iter()
            .find_map(|e| match e {
                Event::Volley(v) => Some(v),
                _ => None,
            })
            .expect("a volley");
        assert_eq!(v.target, Piece::Commander(COLONEL));
        let tests = skill_tests(&events);
        if v.sp_lost == 0 {
            assert!(tests.is_empty());
        } else {
            tested += 1;
            let passed = tests.iter().filter(|t| t.2).count() as u32;
            assert!(tests.len() as u32 == v.sp_lost || passed + 1 == tests.len() as u32);
        }
        // The haiduks lost nothing.
        let h = id(&g, "haiduks");
        assert_eq!(g.unit(h).bases.len(), 4);
        assert_eq!(g.unit(h).casualty_markers, 0);
    }
    assert!(tested > 0);
}

#[test]
fn bfs_cdr_7_not_before_rules_revision_4() {
    let mut g = colonel_before_the_muskets(18.0, 1);
    g.info.options.rules_revision = 3;
    assert_eq!(plan(&g).target, Piece::Unit(id(&g, "haiduks")));
    // And the movement phase still plays.
    at_movement(&mut g, Side::B, false);
    let m = id(&g, "musketeers");
    run(&mut g, Command::Hold { unit: m });
}

/// The Polish colonel alone, facing north, the near edge of his base `gap` cm from the Swedish
/// musketeers' front; the haiduks far off to the west.
fn colonel_facing_the_muskets(gap: f32) -> Game {
    let s = setup(
        &[
            unit("haiduks", 0, "haiduks", 4, 4, (15.0, 20.0), 0.0),
            unit("musketeers", 1, "musketeers", 4, 4, (60.0, 80.0), 180.0),
        ],
        vec![],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    let c = g.commander_mut(COLONEL);
    let half = c.base.half;
    c.base = Rect::new(Pose::new(Vec2::new(60.0, 80.0 - gap - half.y), 0.0), half);
    g
}

fn volleys(events: &[Event]) -> Vec<&sandtable_bfs::event::VolleyReport> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Volley(v) => Some(v),
            _ => None,
        })
        .collect()
}

#[test]
fn bfs_cdr_16_a_lone_commander_shoots_once_a_turn_at_his_first_chance() {
    let mut g = colonel_facing_the_muskets(4.0);
    let m = id(&g, "musketeers");
    // Defender's Fire: the musketeers have no order, so only the colonel fires, with his pistol:
    // 1 die (Shooting 1) against his Skill, unmodified (they stand in close order in the open).
    let plan = shooting::plan_commander_volley(&g, COLONEL, FireStage::DefendersFire)
        .expect("the colonel fires");
    assert_eq!(plan.shooter, Piece::Commander(COLONEL));
    assert_eq!(plan.target, Piece::Unit(m));
    let gp = &plan.groups[0];
    assert_eq!(gp.spec.dice_per_base, vec![1]);
    let p = g.profile(g.commander(COLONEL).profile);
    assert_eq!(gp.spec.base_target, p.skill as i32);
    assert!(gp.spec.modifiers.is_empty(), "{:?}", gp.spec.modifiers);
    assert!((gp.distance - 4.0).abs() < 0.01, "{}", gp.distance);
    let mut events = Vec::new();
    shooting::resolve_stage(&mut g, FireStage::DefendersFire, &mut events);
    let v = volleys(&events);
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].shooter, Piece::Commander(COLONEL));
    assert!(g.commander(COLONEL).shot);
    // Once a turn: nothing more in Shooting after Movement.
    let mut events = Vec::new();
    shooting::resolve_stage(&mut g, FireStage::AfterMovement, &mut events);
    assert!(
        volleys(&events)
            .iter()
            .all(|v| v.shooter != Piece::Commander(COLONEL))
    );
}

#[test]
fn bfs_cdr_16_out_of_range_attached_or_before_revision_4_he_does_not() {
    // The pistol reaches 5 cm.
    let g = colonel_facing_the_muskets(5.01);
    assert!(shooting::plan_commander_volley(&g, COLONEL, FireStage::DefendersFire).is_none());
    let g = colonel_facing_the_muskets(4.99);
    assert!(shooting::plan_commander_volley(&g, COLONEL, FireStage::DefendersFire).is_some());
    // Never while charging (no shooting special rules for commanders).
    assert!(shooting::plan_commander_volley(&g, COLONEL, FireStage::WhileCharging).is_none());
    // With a unit he shoots only as part of it.
    let mut g = colonel_facing_the_muskets(4.0);
    let h = id(&g, "haiduks");
    g.commander_mut(COLONEL).attached_to = Some(h);
    assert!(shooting::plan_commander_volley(&g, COLONEL, FireStage::DefendersFire).is_none());
    let mut g = colonel_facing_the_muskets(4.0);
    g.info.options.rules_revision = 3;
    assert!(shooting::plan_commander_volley(&g, COLONEL, FireStage::DefendersFire).is_none());
}
