//! Abandoned guns and manning them (BFS-MAN-21, BFS-ART-17): a gun whose crew is lost stays on
//! the table, and infantry, dragoons or artillery of Skill 4 or more may man it, either side's.

mod support;

use sandtable_bfs::command::SpecialManeuver;
use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{CommanderId, RegimentId, Side};
use sandtable_bfs::state::{MoraleLevel, OrderKind, UnitStatus};
use sandtable_bfs::{Bfs, Command, Game, UnitId};
use sandtable_engine::Ruleset;
use support::*;

/// A Swedish regimental gun (x 38–42, y 40–44, facing south) whose crew has just been destroyed,
/// and Polish haiduks (Skill 5) with a Defense order, their front 6 cm short of it, in the
/// Poles' Movement Phase; the Polish colonel stands within range of them.
fn abandoned_gun() -> (Game, UnitId, UnitId) {
    let mut g = game(&[
        unit("gun", 1, "regimental-gun", 1, 1, (40.0, 40.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 4, (40.0, 34.0), 0.0),
        unit("musketeers", 1, "musketeers", 4, 4, (90.0, 100.0), 180.0),
    ]);
    let (gun, haiduks) = (id(&g, "gun"), id(&g, "haiduks"));
    let mut events = Vec::new();
    sandtable_bfs::flight::apply_level(
        &mut g,
        gun,
        MoraleLevel::Flight,
        "a test",
        None,
        &mut events,
    );
    set_order(&mut g, "haiduks", Some(OrderKind::Defense));
    g.commander_mut(CommanderId(0)).base.pose.pos = sandtable_geometry::Vec2::new(40.0, 20.0);
    at_movement(&mut g, Side::A, false);
    (g, gun, haiduks)
}

fn man(gun: UnitId, haiduks: UnitId, toward_enemy: bool) -> Command {
    Command::Maneuver {
        unit: haiduks,
        maneuvers: vec![SpecialManeuver::ManGun {
            gun,
            by: CommanderId(0),
            toward_enemy,
        }],
    }
}

/// BFS-MAN-21: the enemy's abandoned gun within 10 cm is manned for 1 Special Maneuver and 1 CP;
/// the haiduks give 1 SP (the gun's) with no Morale test; the gun is a Polish unit now, Skill and
/// Morale 4, no Quick Loading, no order this turn, facing the nearest enemy.
#[test]
fn bfs_man_21_the_enemys_abandoned_gun_is_manned() {
    let (mut g, gun, haiduks) = abandoned_gun();
    assert_eq!(g.unit(gun).status, UnitStatus::Destroyed);
    assert_eq!(g.abandoned_guns.len(), 1);
    assert_eq!(g.abandoned_guns[0].gun, gun);
    let cp = g.commander(CommanderId(0)).cp;
    let sp = sandtable_bfs::losses::sp_left(&g, haiduks);
    let events = run(&mut g, man(gun, haiduks, true));
    assert!(g.abandoned_guns.is_empty());
    assert_eq!(g.commander(CommanderId(0)).cp, cp - 1);
    assert_eq!(sandtable_bfs::losses::sp_left(&g, haiduks), sp - 1);
    assert!(!events.iter().any(|e| matches!(e, Event::Test(_))));
    let manned = g.units.last().unwrap();
    assert_eq!(manned.manned_from, Some(gun));
    assert_eq!(manned.side, Side::A);
    assert_eq!(manned.status, UnitStatus::OnTable);
    assert_eq!(manned.order, None);
    assert!(manned.flags.activated);
    assert_eq!(manned.bases.len(), 1);
    // Where the gun stood, now facing the Swedish musketeers to the north-east.
    assert!((manned.bases[0].center() - sandtable_geometry::Vec2::new(40.0, 42.0)).length() < 0.01);
    let f = manned.bases[0].pose.facing();
    assert!(f.y > 0.0 && f.x > 0.0, "{f:?}");
    let m = manned.id;
    let p = g.unit_profile(m);
    assert_eq!((p.skill, p.morale), (4, 4));
    // With a Defense order it fires once a turn: no Quick Loading.
    g.unit_mut(m).order = Some(OrderKind::Defense);
    assert!(!sandtable_bfs::shooting::twice::fires_twice(&g, m));
    // A manned gun counts for neither side's losses.
    let before = sandtable_bfs::victory::report(&g, "test");
    g.unit_mut(m).bases_destroyed = 1;
    g.unit_mut(m).status = UnitStatus::Destroyed;
    let after = sandtable_bfs::victory::report(&g, "test");
    assert_eq!(before, after);
}

/// BFS-MAN-21: within 10 cm (10.0 is, 10.05 is not), no enemy within 2 cm of the gun, nobody
/// standing on it, a Defense order and Skill 4 or more; and no gun stays behind in battles
/// recorded before rules revision 11.
#[test]
fn bfs_man_21_who_may_man_a_gun() {
    let refused = |g: &Game, gun, haiduks| {
        let e = Bfs::legal(g, &man(gun, haiduks, false)).unwrap_err();
        assert_eq!(e.rule, "BFS-MAN-21", "{}", e.message);
        e.message
    };
    let shift = |g: &mut Game, u: UnitId, dy: f32| {
        g.unit_mut(u)
            .bases
            .iter_mut()
            .for_each(|b| b.pose.pos.y += dy)
    };
    // The haiduks' front at y = 34 is 6 cm from the gun's rear edge (y 40): 4 cm back, 10.00.
    let (mut g, gun, haiduks) = abandoned_gun();
    shift(&mut g, haiduks, -4.0);
    assert!(Bfs::legal(&g, &man(gun, haiduks, false)).is_ok());
    shift(&mut g, haiduks, -0.05);
    assert!(refused(&g, gun, haiduks).contains("within 10 cm"));

    let (mut g, gun, haiduks) = abandoned_gun();
    let musketeers = id(&g, "musketeers");
    // The musketeers 1 cm beyond the gun's far edge (y 44).
    let dy = 45.0 - g.unit(musketeers).bases[0].pose.pos.y + 1.0;
    let dx = 40.0 - g.unit(musketeers).bases[0].pose.pos.x;
    g.unit_mut(musketeers).bases.iter_mut().for_each(|b| {
        b.pose.pos.y += dy;
        b.pose.pos.x += dx;
    });
    assert!(refused(&g, gun, haiduks).contains("enemy"));

    let (mut g, gun, haiduks) = abandoned_gun();
    g.unit_mut(haiduks).order = Some(OrderKind::Move);
    let e = sandtable_bfs::gun_manning::check(&g, haiduks, gun, CommanderId(0)).unwrap_err();
    assert!(e.message.contains("Defense"), "{}", e.message);
    assert!(Bfs::legal(&g, &man(gun, haiduks, false)).is_err());

    let (mut g, gun, haiduks) = abandoned_gun();
    shift(&mut g, haiduks, 7.0);
    assert!(refused(&g, gun, haiduks).contains("stands on"));

    let mut old = game(&[
        unit("gun", 1, "regimental-gun", 1, 1, (40.0, 40.0), 180.0),
        unit("haiduks", 0, "haiduks", 4, 4, (40.0, 34.0), 0.0),
    ]);
    old.info.options.rules_revision = 10;
    let gun = id(&old, "gun");
    let mut events = Vec::new();
    sandtable_bfs::losses::destroy_unit(&mut old, gun, "BFS-ART-1", "a test".into(), &mut events);
    assert!(old.abandoned_guns.is_empty());
}

/// BFS-ART-17: a Regiment that mans its own lost gun again gets 1 Breaking Point back; a gun
/// manned by another Regiment gives nothing back.
#[test]
fn bfs_art_17_a_regiment_manning_its_own_lost_gun_regains_a_breaking_point() {
    let (mut g, gun, haiduks) = abandoned_gun();
    let r = RegimentId(0);
    g.unit_mut(gun).regiment = Some(r);
    g.unit_mut(haiduks).regiment = Some(RegimentId(1));
    let mut other = g.clone();
    run(&mut other, man(gun, haiduks, true));
    assert_eq!(
        sandtable_bfs::gun_manning::regained_breaking_points(&other, r),
        0
    );
    g.unit_mut(haiduks).regiment = Some(r);
    run(&mut g, man(gun, haiduks, true));
    assert_eq!(
        sandtable_bfs::gun_manning::regained_breaking_points(&g, r),
        1
    );
}

/// BFS-MAN-21: one crew a command: two guns manned in one list could take more Strength than
/// the unit has.
#[test]
fn bfs_man_21_one_gun_at_a_time() {
    let (g, gun, haiduks) = abandoned_gun();
    let m = SpecialManeuver::ManGun {
        gun,
        by: CommanderId(0),
        toward_enemy: true,
    };
    let e = Bfs::legal(
        &g,
        &Command::Maneuver {
            unit: haiduks,
            maneuvers: vec![m, m],
        },
    )
    .unwrap_err();
    assert_eq!(e.rule, "BFS-MAN-21", "{}", e.message);
}
