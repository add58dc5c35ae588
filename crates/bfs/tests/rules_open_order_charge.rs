//! The Open Order charge, base by base (BFS-OO-7..10, BFS-OO-12).

mod support;

use sandtable_bfs::event::Event;
use sandtable_bfs::ids::{Side, UnitId};
use sandtable_bfs::state::{Game, OrderKind};
use sandtable_geometry::{Edge, Rect};
use support::*;

/// Cossacks in Open Order (3 bases, 1 cm apart) with a Charge order, their front at y = 40
/// centred on x = `x`, charging reiters whose front is at y = `front` centred on x = 60.
fn cossacks_at(x: f32, front: f32) -> (Game, UnitId, UnitId) {
    let mut g = game(&[
        unit("cossacks", 0, "cossack-cavalry", 3, 3, (x, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, front), 180.0),
    ]);
    set_order(&mut g, "cossacks", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let (c, r) = (id(&g, "cossacks"), id(&g, "reiters"));
    (g, c, r)
}

fn declare(g: &mut Game, c: UnitId, r: UnitId) -> Vec<Event> {
    charge_and_stand(g, c, r, None)
}

fn touching(a: &Rect, bs: &[Rect]) -> bool {
    sandtable_geometry::distance::set_distance(std::slice::from_ref(a), bs).unwrap() < 0.06
}

/// Bases of the charger stay 0.5 cm apart (BFS-OO-7) and overlap nobody.
fn apart(g: &Game, c: UnitId) {
    let b = &g.unit(c).bases;
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let d = sandtable_geometry::distance::distance(&b[i], &b[j]).unwrap();
            assert!(d >= 0.5 - 1e-3, "bases {i} and {j} are {d} cm apart");
        }
    }
}

#[test]
fn bfs_oo_7_each_base_charges_straight_and_aligns_on_the_front() {
    // 15 cm apart, face to face: every base runs straight and strikes the reiters' front.
    let (mut g, c, r) = cossacks_at(60.0, 55.0);
    let events = declare(&mut g, c, r);
    let rb = g.unit(r).bases.clone();
    for (i, b) in g.unit(c).bases.iter().enumerate() {
        assert!(touching(b, &rb), "base {i} ends at {b:?}");
        // Flush on the front edge: its front is on y = 55, facing north.
        let front = b.edge(Edge::Front).midpoint();
        assert!((front.y - 55.0).abs() < 0.06, "base {i} front at {front:?}");
        assert!(
            b.pose.angle.abs() < 1e-3,
            "base {i} turned {}",
            b.pose.angle
        );
    }
    apart(&g, c);
    let cs = g.unit(c).charge.clone().expect("charging");
    assert!(cs.contact);
    assert_eq!(cs.struck, Some(Edge::Front));
    assert!((cs.straight_run - 15.0).abs() < 0.06, "{}", cs.straight_run);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ChargeMoved { description, .. } if description.contains("base by base")
    )));
}

#[test]
fn bfs_oo_12_bases_in_the_flank_zone_strike_the_flank_and_one_finds_no_room() {
    // The reiters face south, 12 cm wide and 3 deep (x 54..66, y 55..58). The cossacks come at
    // their east flank from 14 cm away, facing west, their three bases strung north to south:
    // all three are in the flank zone, whose edge holds one base; the others find no room and
    // do not close (figure C of BFS-OO-12).
    let mut g = game(&[
        unit("cossacks", 0, "cossack-cavalry", 3, 3, (80.0, 56.5), 270.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 55.0), 180.0),
    ]);
    set_order(&mut g, "cossacks", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let (c, r) = (id(&g, "cossacks"), id(&g, "reiters"));
    let events = declare(&mut g, c, r);
    let rb = g.unit(r).bases.clone();
    let rframe = sandtable_bfs::geo::unit_frame(g.unit(r));
    let bases = g.unit(c).bases.clone();
    let in_contact: Vec<&Rect> = bases.iter().filter(|b| touching(b, &rb)).collect();
    assert_eq!(in_contact.len(), 1, "{bases:?}");
    // It stands against the flank: beside the reiters, level with their depth.
    let l = rframe.pose.to_local(in_contact[0].center());
    assert!(l.x.abs() > rframe.half.x, "{l:?}");
    let cs = g.unit(c).charge.clone().expect("charging");
    assert!(
        matches!(cs.struck, Some(Edge::Left | Edge::Right)),
        "{:?}",
        cs.struck
    );
    apart(&g, c);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ChargeMoved { description, .. } if description.contains("found no room")
    )));
}

#[test]
fn bfs_oo_7_before_rules_revision_4_the_unit_charges_as_one_block() {
    let (mut g, c, r) = cossacks_at(60.0, 55.0);
    g.info.options.rules_revision = 3;
    let events = declare(&mut g, c, r);
    assert!(!events.iter().any(|e| matches!(
        e,
        Event::ChargeMoved { description, .. } if description.contains("base by base")
    )));
    let d = sandtable_geometry::distance::set_distance(&g.unit(c).bases, &g.unit(r).bases).unwrap();
    assert!(d < 0.01, "{d}");
}

#[test]
fn bfs_oo_10_bases_not_in_contact_close_in_the_additional_move() {
    // The eastern base starts 12 cm behind the others: 27 cm from the reiters, beyond the 20 cm
    // Basic Move. The other two strike in the Movement Phase; it follows in the Additional Move.
    let (mut g, c, r) = cossacks_at(60.0, 55.0);
    let back = g.unit(c).bases[2].translated(sandtable_geometry::Vec2::new(0.0, -12.0));
    g.unit_mut(c).bases[2] = back;
    declare(&mut g, c, r);
    let rb = g.unit(r).bases.clone();
    let count = |g: &Game| g.unit(c).bases.iter().filter(|b| touching(b, &rb)).count();
    assert_eq!(count(&g), 2);
    let behind = g.unit(c).bases[2];
    let gap =
        sandtable_geometry::distance::set_distance(std::slice::from_ref(&behind), &rb).unwrap();
    assert!(
        (gap - 7.0).abs() < 0.06,
        "it ran its 20 cm and stands {gap} cm short"
    );
    assert!(g.unit(c).charge.as_ref().is_some_and(|cs| cs.contact));
    at_combat(&mut g, sandtable_bfs::turn::CombatStage::CloseCombat);
    let mut events = Vec::new();
    sandtable_bfs::charge_move::additional_moves(&mut g, &mut events);
    assert_eq!(count(&g), 3, "{:?}", g.unit(c).bases);
    apart(&g, c);
    // No failed-charge test: the unit had already struck home.
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Test(t) if t.rule == "BFS-CHG-24"))
    );
}

#[test]
fn bfs_oo_9_only_the_base_that_touches_another_unit_aligns_on_it() {
    // A Swedish pike base stands in the path of the westernmost cossack base, 6 cm short of the
    // reiters: that base strikes the pikes; the other two go on to the reiters.
    let mut g = game(&[
        unit("cossacks", 0, "cossack-cavalry", 3, 3, (60.0, 40.0), 0.0),
        unit("reiters", 1, "reiters", 3, 3, (60.0, 55.0), 180.0),
        unit("pikes", 1, "pikemen", 1, 1, (55.0, 47.0), 180.0),
    ]);
    set_order(&mut g, "cossacks", Some(OrderKind::Charge));
    at_movement(&mut g, Side::A, false);
    let (c, r, p) = (id(&g, "cossacks"), id(&g, "reiters"), id(&g, "pikes"));
    // The pikes are nearer: the colonel, close by, pays 1 CP for the reiters (BFS-CHG-4).
    let colonel = sandtable_bfs::ids::CommanderId(0);
    let cm = g.commander_mut(colonel);
    cm.base = Rect::new(
        sandtable_geometry::Pose::new(sandtable_geometry::Vec2::new(60.0, 30.0), 0.0),
        cm.base.half,
    );
    charge_and_stand(&mut g, c, r, Some(colonel));
    let (rb, pb) = (g.unit(r).bases.clone(), g.unit(p).bases.clone());
    let bases = g.unit(c).bases.clone();
    let west = bases
        .iter()
        .min_by(|a, b| a.center().x.total_cmp(&b.center().x))
        .unwrap();
    assert!(touching(west, &pb), "{west:?}");
    assert!(!touching(west, &rb));
    let on_reiters = bases.iter().filter(|b| touching(b, &rb)).count();
    assert_eq!(on_reiters, 2, "{bases:?}");
    apart(&g, c);
    // The charge's target stays the reiters.
    assert_eq!(g.unit(c).charge.as_ref().map(|cs| cs.target), Some(r));
}
