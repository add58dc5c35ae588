//! Regression: a wheel that begins with a base touching an obstacle (at the contact gap) must not
//! end inside it. Found by the rules crate's random games: reiters touching their own musketeers
//! wheeled 8.5° into them.

use sandtable_geometry::movement::{Body, SidePolicy};
use sandtable_geometry::wheel::rotate_body;
use sandtable_geometry::{Pose, Rect, Scene, SceneBase, Vec2};

fn rect(x: f32, y: f32, angle: f32, hx: f32, hy: f32) -> Rect {
    Rect::new(Pose::new(Vec2::new(x, y), angle), Vec2::new(hx, hy))
}

#[test]
fn a_wheel_starting_in_contact_never_ends_overlapping() {
    let reiters = [
        rect(47.495087, 85.174576, -2.50638, 2.0, 1.5),
        rect(44.275307, 82.80118, -2.50638, 2.0, 1.5),
        rect(41.055523, 80.42779, -2.50638, 2.0, 1.5),
    ];
    let musketeers = [
        rect(64.0, 84.153404, std::f32::consts::PI, 2.0, 1.0),
        rect(60.0, 84.153404, std::f32::consts::PI, 2.0, 1.0),
        rect(56.0, 84.153404, std::f32::consts::PI, 2.0, 1.0),
        rect(52.0, 84.153404, std::f32::consts::PI, 2.0, 1.0),
    ];
    let mut bases: Vec<SceneBase> = reiters
        .iter()
        .map(|r| SceneBase {
            rect: *r,
            unit: 5,
            side: 1,
        })
        .collect();
    bases.extend(musketeers.iter().map(|r| SceneBase {
        rect: *r,
        unit: 7,
        side: 1,
    }));
    let scene = Scene::new(bases, vec![]).unwrap();
    // The line of three: the middle base's pose, three bases wide.
    let frame = rect(44.275307, 82.80118, -2.50638, 6.0, 1.5);
    let body = Body::new(frame, &reiters);
    // The failing game's wheel: 8.5° clockwise about a front corner, friends solid.
    for pivot in [
        frame.front_left(),
        frame.front_right(),
        frame.rear_left(),
        frame.rear_right(),
    ] {
        for theta in [-0.148f32, 0.148, -0.6, 0.6] {
            let out =
                rotate_body(&scene, &body, pivot, theta, &SidePolicy::charging(5, 1)).unwrap();
            for r in &reiters {
                let moved = out.apply(r);
                for m in &musketeers {
                    assert!(
                        !sandtable_geometry::distance::overlaps(&moved, m).unwrap(),
                        "pivot {pivot:?}, θ {theta}: ends at {} inside a musketeer base",
                        out.theta
                    );
                }
            }
        }
    }
}
