//! Fire by more than the front rank: Salvo (BFS-SPC-29) and Ranked Fire (BFS-SPC-26), and the
//! turn of reloading after them.

mod support;

use sandtable_bfs::command::{MoveStep, PivotCorner, Reaction, SpecialManeuver, TurnKind};
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, Side};
use sandtable_bfs::profile::SpecialRule;
use sandtable_bfs::shooting::ranks::RankVolley;
use sandtable_bfs::shooting::{self, Fire, FireStage};
use sandtable_bfs::state::OrderKind;
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use support::*;

/// Swedish musketeers (side B) of `bases` bases 2 wide, given `rule`, with their front 25 cm
/// from 4 haiduks, under `order`.
fn musketeers_with(rule: SpecialRule, bases: u8, order: OrderKind) -> Game {
    musketeers_at(rule, bases, order, 25.0)
}

/// The same with their front `gap` cm from the haiduks.
fn musketeers_at(rule: SpecialRule, bases: u8, order: OrderKind, gap: f32) -> Game {
    let mut s = setup(
        &[
            unit(
                "musketeers",
                1,
                "musketeers",
                bases,
                2,
                (60.0, 40.0 + gap),
                180.0,
            ),
            unit("haiduks", 0, "haiduks", 4, 4, (60.0, 40.0), 0.0),
        ],
        vec![],
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "musketeers" {
            p.special_rules.push(rule);
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "musketeers", Some(order));
    g
}

/// What the musketeers fire and the nearest range of each group of their firing bases, one entry
/// a base.
fn firing(g: &Game, stage: FireStage) -> (Fire, Vec<f32>) {
    let m = id(g, "musketeers");
    let plan = sandtable_bfs::preview::volley(g, m, stage).expect("a target");
    let mut d: Vec<f32> = Vec::new();
    for gr in &plan.groups {
        d.extend(std::iter::repeat_n(gr.distance, gr.bases as usize));
    }
    d.sort_by(f32::total_cmp);
    (plan.fire, d)
}

fn bases(g: &Game, stage: FireStage) -> usize {
    firing(g, stage).1.len()
}

/// BFS-SPC-29: a Salvo unit 2 bases wide and 2 deep fires with all 4 bases, the second rank at
/// the first rank's range: with the front 29 cm from the haiduks, the second rank (31 cm, beyond
/// the musket's 30) fires too. Without the rule only the 2 of the front rank fire.
#[test]
fn bfs_spc_29_a_salvo_fires_two_ranks() {
    let plain = musketeers_at(SpecialRule::Marksmen, 4, OrderKind::Defense, 29.0);
    assert_eq!(firing(&plain, FireStage::DefendersFire).0, Fire::Weapon);
    assert_eq!(bases(&plain, FireStage::DefendersFire), 2);
    let g = musketeers_at(SpecialRule::Salvo, 4, OrderKind::Defense, 29.0);
    let (fire, d) = firing(&g, FireStage::DefendersFire);
    assert_eq!(fire, Fire::Ranks(RankVolley::Salvo));
    assert_eq!(d.len(), 4);
    assert!(
        (d[0] - 29.0).abs() < 0.01 && (d[3] - 29.0).abs() < 0.01,
        "{d:?}"
    );
}

/// BFS-SPC-29: even after moving, under a Move order, in Shooting after Movement.
#[test]
fn bfs_spc_29_a_salvo_after_moving() {
    let g = musketeers_with(SpecialRule::Salvo, 4, OrderKind::Move);
    assert_eq!(bases(&g, FireStage::AfterMovement), 4);
}

/// BFS-SPC-29: the turn after a Salvo the unit reloads: ordinary fire only; one that maneuvers
/// or moves does not shoot, and one that moves may not maneuver on the way.
#[test]
fn bfs_spc_29_reloading_after_a_salvo() {
    let mut g = musketeers_with(SpecialRule::Salvo, 4, OrderKind::Defense);
    let m = id(&g, "musketeers");
    let mut events = Vec::new();
    shooting::resolve_stage(&mut g, FireStage::DefendersFire, &mut events);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Volley(v) if v.weapon.contains("Salvo")))
    );
    // The next turn.
    g.turn.number += 1;
    g.unit_mut(m).flags = Default::default();
    assert_eq!(firing(&g, FireStage::DefendersFire).0, Fire::Weapon);
    assert_eq!(bases(&g, FireStage::DefendersFire), 2, "ordinary fire");
    at_movement(&mut g, Side::B, false);
    // A Special Maneuver is allowed, but then it does not shoot.
    let mut turned = g.clone();
    run(
        &mut turned,
        Command::Maneuver {
            unit: m,
            maneuvers: vec![SpecialManeuver::Turn(TurnKind::About)],
        },
    );
    assert!(!shooting::shoots_in(&turned, m, FireStage::AfterMovement));
    assert!(!shooting::shoots_in(&turned, m, FireStage::DefendersFire));
    // Under a Move order it may move, but not wheel on the way.
    g.unit_mut(m).order = Some(OrderKind::Move);
    let wheel_and_go = Command::Move {
        unit: m,
        steps: vec![
            MoveStep::Wheel {
                pivot: PivotCorner::FrontLeft,
                degrees: 10.0,
            },
            MoveStep::Forward(3.0),
        ],
    };
    assert_eq!(
        Bfs::legal(&g, &wheel_and_go).unwrap_err().rule,
        "BFS-SPC-29"
    );
    run(
        &mut g,
        Command::Move {
            unit: m,
            steps: vec![MoveStep::Forward(3.0)],
        },
    );
    assert!(!shooting::shoots_in(&g, m, FireStage::AfterMovement));
    // The turn after that it fires its Salvo again.
    g.turn.number += 1;
    g.unit_mut(m).flags = Default::default();
    assert_eq!(bases(&g, FireStage::DefendersFire), 4);
}

/// BFS-SPC-26: Ranked Fire with a Defense order: 6 bases 2 wide fire with all three ranks, each
/// rank at its own range. Infantry bases are 2 cm deep: with the front 25 cm from the haiduks
/// all 6 bases fire (25, 27, 29 cm); with it 27 cm away the third rank stands 31 cm off, beyond
/// the musket's 30 cm, and 4 fire. The turn after, no Special Maneuver at all.
#[test]
fn bfs_spc_26_ranked_fire_every_rank_at_its_own_range() {
    let mut g = musketeers_with(SpecialRule::RankedFire, 6, OrderKind::Defense);
    let (fire, d) = firing(&g, FireStage::DefendersFire);
    assert_eq!(fire, Fire::Ranks(RankVolley::RankedFire));
    assert_eq!(d.len(), 6);
    let far = musketeers_at(SpecialRule::RankedFire, 6, OrderKind::Defense, 27.0);
    let (_, d) = firing(&far, FireStage::DefendersFire);
    assert_eq!(d.len(), 4, "the third rank is out of range: {d:?}");
    // Without a Defense order, no Ranked Fire.
    let moving = musketeers_with(SpecialRule::RankedFire, 6, OrderKind::Move);
    assert_eq!(bases(&moving, FireStage::AfterMovement), 2);
    // Reloading: no maneuver even before shooting.
    let m = id(&g, "musketeers");
    let mut events = Vec::new();
    shooting::resolve_stage(&mut g, FireStage::DefendersFire, &mut events);
    g.turn.number += 1;
    g.unit_mut(m).flags = Default::default();
    at_movement(&mut g, Side::B, false);
    let turn = Command::Maneuver {
        unit: m,
        maneuvers: vec![SpecialManeuver::Turn(TurnKind::About)],
    };
    assert_eq!(Bfs::legal(&g, &turn).unwrap_err().rule, "BFS-SPC-26");
}

/// BFS-SPC-29: a Salvo held for Reaction Fire that takes 1 SP off the charging pancerni makes
/// them test Morale, though they lose no base.
#[test]
fn bfs_spc_29_a_salvo_in_reaction_fire_shakes_the_charger() {
    let mut s = setup(
        &[
            unit("musketeers", 1, "musketeers", 4, 2, (60.0, 62.0), 180.0),
            unit("pancerni", 0, "pancerni", 3, 3, (60.0, 50.0), 0.0),
        ],
        vec![],
    );
    for p in s.armies.iter_mut().flat_map(|l| l.profiles.iter_mut()) {
        if p.id == "musketeers" {
            p.special_rules.push(SpecialRule::Salvo);
        }
    }
    let mut g = Bfs::setup(&s, 1).unwrap();
    g.turn.number = 2;
    set_order(&mut g, "musketeers", Some(OrderKind::Defense));
    set_order(&mut g, "pancerni", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let (m, p) = (id(&g, "musketeers"), id(&g, "pancerni"));
    // Bring the Swedish colonel near enough to pay for holding fire.
    g.commander_mut(CommanderId(1)).base.pose.pos = sandtable_geometry::Vec2::new(60.0, 80.0);
    run(
        &mut g,
        Command::DeclareCharge {
            unit: p,
            target: m,
            pay: None,
        },
    );
    run(
        &mut g,
        Command::React {
            unit: m,
            reaction: Reaction::HoldFire { by: CommanderId(1) },
        },
    );
    assert!(g.unit(m).flags.delayed_fire);
    let plan = sandtable_bfs::preview::volley(&g, m, FireStage::ReactionFire).expect("a target");
    assert_eq!(plan.fire, Fire::Ranks(RankVolley::Salvo));
    let dice: u32 = plan.groups.iter().map(|gr| gr.spec.plan().dice).sum();
    // One hit, its armor test failed: 1 SP; then the pancerni's Morale test.
    let mut faces = vec![1u8];
    faces.extend(std::iter::repeat_n(10, dice as usize - 1));
    faces.push(10);
    faces.push(1);
    g.dice.script(faces);
    let mut events = Vec::new();
    shooting::resolve_stage(&mut g, FireStage::ReactionFire, &mut events);
    assert_eq!(g.unit(p).casualty_markers, 1, "1 SP, no base lost");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Test(t) if t.unit == Some(p) && t.rule == "BFS-SPC-29")),
        "{events:#?}"
    );
}
