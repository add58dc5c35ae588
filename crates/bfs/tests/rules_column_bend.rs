//! A Column following a bend (BFS-AMV-4).

mod support;

use sandtable_bfs::command::{MoveStep, PivotCorner};
use sandtable_bfs::ids::Side;
use sandtable_bfs::state::{Formation, OrderKind};
use sandtable_bfs::{Bfs, Command, Game};
use sandtable_engine::Ruleset;
use sandtable_geometry::distance::{distance as rect_distance, overlaps};
use sandtable_geometry::{Rect, Vec2};
use support::*;

/// Haiduks (side A) in a Column of 3 bases, front middle at (60, 40) facing north, with a Move
/// order; the enemy far off.
fn column(files: u8) -> Game {
    let s = setup(
        &[
            unit("col", 0, "haiduks", 3, files, (60.0, 40.0), 0.0),
            unit("them", 1, "musketeers", 3, 3, (60.0, 110.0), 180.0),
        ],
        vec![],
    );
    let mut g = Bfs::setup(&s, 1).unwrap();
    set_order(&mut g, "col", Some(OrderKind::Move));
    at_movement(&mut g, Side::A, false);
    g
}

fn bend(pivot: PivotCorner, degrees: f32, then: f32) -> MoveStep {
    MoveStep::Bend {
        pivot,
        degrees,
        then,
    }
}

fn mv(g: &Game, steps: Vec<MoveStep>) -> Command {
    Command::Move {
        unit: id(g, "col"),
        steps,
    }
}

/// The bases ordered from the front (largest y) back, as the test placed them.
fn by_front(bases: &[Rect]) -> Vec<Rect> {
    let mut b = bases.to_vec();
    b.sort_by(|x, y| y.center().y.total_cmp(&x.center().y));
    b
}

fn close(a: Vec2, b: Vec2) -> bool {
    a.distance(b) < 0.01
}

/// BFS-AMV-4: the head wheels 90° left about its front-left corner P and goes on 2 depths and
/// 1 cm (a march, for the allowance); each follower moves up to P, wheels about it and closes up
/// behind the base in front. The Column ends straight, facing west, its head's front that far
/// west of P, each base touching the next.
#[test]
fn bfs_amv_4_the_column_follows_its_head_round_the_pivot() {
    let mut g = column(1);
    let before = by_front(&g.unit(id(&g, "col")).bases);
    let (w, d) = (before[0].half.x * 2.0, before[0].half.y * 2.0);
    let p = before[0].front_left();
    let run_on = 2.0 * d + 1.0;
    let cmd = mv(
        &g,
        vec![MoveStep::March, bend(PivotCorner::FrontLeft, 90.0, run_on)],
    );
    run(&mut g, cmd);
    let u = g.unit(id(&g, "col"));
    assert_eq!(u.formation, Formation::Close { files: 1 });
    let west = std::f32::consts::FRAC_PI_2;
    for b in &u.bases {
        assert!((b.pose.angle - west).abs() < 1e-4, "every base faces west");
    }
    // Order along the new line: the head is the most westerly.
    let mut after = u.bases.clone();
    after.sort_by(|a, b| a.center().x.total_cmp(&b.center().x));
    for (k, b) in after.iter().enumerate() {
        // Front edge at x = P.x − run + k·d, from y = P.y (left, the pivot's side) to P.y + w.
        let front_x = p.x - run_on + k as f32 * d;
        assert!(
            close(b.front_left(), Vec2::new(front_x, p.y)),
            "base {k}: front-left corner {:?}",
            b.front_left()
        );
        assert!(close(b.front_right(), Vec2::new(front_x, p.y + w)));
    }
}

/// BFS-AMV-4: a base that has not passed the pivot when the move ends stays corner to corner with
/// the base in front: the Column forms a curve. Here the head only wheels 45°: its rear-left
/// corner swings into the Column's lane, d·cos 45° short of P, and the second base stops there;
/// the third closes up. In the next move the curved Column goes on after its head and is
/// straight again.
#[test]
fn bfs_amv_4_a_base_short_of_the_pivot_stays_corner_to_corner() {
    let mut g = column(1);
    let before = by_front(&g.unit(id(&g, "col")).bases);
    let d = before[0].half.y * 2.0;
    let p = before[0].front_left();
    let cmd = mv(&g, vec![bend(PivotCorner::FrontLeft, 45.0, 0.0)]);
    run(&mut g, cmd);
    let u = g.unit(id(&g, "col"));
    let mut bases = u.bases.clone();
    bases.sort_by(|a, b| {
        b.pose
            .angle
            .total_cmp(&a.pose.angle)
            .then(b.center().y.total_cmp(&a.center().y))
    });
    let (head, second, third) = (bases[0], bases[1], bases[2]);
    assert!((head.pose.angle - std::f32::consts::FRAC_PI_4).abs() < 1e-4);
    assert!(
        second.pose.angle.abs() < 1e-4,
        "the second base has not reached P"
    );
    let short = d * std::f32::consts::FRAC_1_SQRT_2;
    assert!(
        close(second.front_left(), Vec2::new(p.x, p.y - short)),
        "its front stops {short:.2} cm short of P, at the head's rear-left corner: {:?}",
        second.front_left()
    );
    assert!(rect_distance(&second, &head).unwrap() <= 0.01);
    assert!(close(
        third.front_left(),
        second.front_left() - Vec2::new(0.0, d)
    ));
    for (i, a) in bases.iter().enumerate() {
        for b in &bases[i + 1..] {
            assert!(!overlaps(a, b).unwrap(), "no two bases overlap");
        }
    }
    // A curved Column moves on only by following its head.
    let mut next = g.clone();
    next.unit_mut(id(&next, "col")).flags = Default::default();
    let forward = mv(&next, vec![MoveStep::Forward(2.0)]);
    assert_eq!(Bfs::legal(&next, &forward).unwrap_err().rule, "BFS-AMV-4");
    let cmd = mv(&next, vec![bend(PivotCorner::FrontLeft, 0.0, 3.0 * d)]);
    run(&mut next, cmd);
    let u = next.unit(id(&next, "col"));
    assert!(
        sandtable_bfs::column_bend::is_straight(&u.bases),
        "every base passes the pivot and the Column is straight again"
    );
    let mut after = u.bases.clone();
    after.sort_by(|a, b| b.center().y.total_cmp(&a.center().y));
    for pair in after.windows(2) {
        assert!(
            close(pair[1].front_left(), pair[0].rear_left()),
            "each base right behind the one in front"
        );
    }
}

/// BFS-AMV-4 with BFS-MOV-14: the bend costs the head's wheel (its diagonal × the angle) and
/// its run; more than the Move is refused. Only a Column bends, and only as the last step.
#[test]
fn bfs_amv_4_cost_and_who_may_bend() {
    let g = column(1);
    let head = g.unit(id(&g, "col")).bases[0];
    let (w, d) = (head.half.x * 2.0, head.half.y * 2.0);
    let basic = g.unit_profile(id(&g, "col")).movement.basic;
    // Measured, as every wheel by default, at the corner diagonally opposite the pivot.
    let arc = (w * w + d * d).sqrt() * std::f32::consts::FRAC_PI_2;
    let fits = basic - arc - 0.01;
    assert_eq!(
        Bfs::legal(&g, &mv(&g, vec![bend(PivotCorner::FrontRight, 90.0, fits)])),
        Ok(())
    );
    assert_eq!(
        Bfs::legal(
            &g,
            &mv(&g, vec![bend(PivotCorner::FrontRight, 90.0, fits + 0.1)])
        )
        .unwrap_err()
        .rule,
        "BFS-MOV-6"
    );
    let after = vec![
        bend(PivotCorner::FrontRight, 45.0, 0.0),
        MoveStep::Forward(1.0),
    ];
    assert_eq!(
        Bfs::legal(&g, &mv(&g, after)).unwrap_err().rule,
        "BFS-AMV-4"
    );
    let line = column(3);
    assert_eq!(
        Bfs::legal(
            &line,
            &mv(&line, vec![bend(PivotCorner::FrontLeft, 45.0, 0.0)])
        )
        .unwrap_err()
        .rule,
        "BFS-AMV-4"
    );
}
