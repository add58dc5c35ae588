//! The measuring tape's arithmetic (BFS-SCL-2: measuring is free, at any time, by either player).

pub use sandtable_engine::LengthUnit;
use sandtable_geometry::{Rect, Vec2};

/// One end of the tape: a table point, snapped to a base when it was put down on one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TapeEnd {
    pub point: Vec2,
    pub base: Option<Rect>,
}

/// What the tape shows: the two points it runs between and its length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measurement {
    pub from: Vec2,
    pub to: Vec2,
    pub length_cm: f32,
    /// True when both ends are snapped to bases and the tape runs between their closest points.
    pub base_to_base: bool,
}

/// Measures between two ends. Base to base is the closest-point distance between the bases (the
/// way the rules measure, GEO-2); base to point runs from the base's closest point; otherwise
/// point to point.
pub fn measure(a: TapeEnd, b: TapeEnd) -> Measurement {
    match (a.base, b.base) {
        (Some(ra), Some(rb)) if ra != rb => {
            let (pa, pb) = closest_points(&ra, &rb);
            Measurement {
                from: pa,
                to: pb,
                length_cm: pa.distance(pb),
                base_to_base: true,
            }
        }
        (Some(ra), None) => {
            let pa = ra.closest_point(b.point);
            Measurement {
                from: pa,
                to: b.point,
                length_cm: pa.distance(b.point),
                base_to_base: false,
            }
        }
        (None, Some(rb)) => {
            let pb = rb.closest_point(a.point);
            Measurement {
                from: a.point,
                to: pb,
                length_cm: pb.distance(a.point),
                base_to_base: false,
            }
        }
        _ => Measurement {
            from: a.point,
            to: b.point,
            length_cm: a.point.distance(b.point),
            base_to_base: false,
        },
    }
}

/// Closest points of two rectangles via the geometry crate (GEO-2).
/// Touching or overlapping bases are 0 cm apart; the tape then shrinks to the point of contact.
fn closest_points(a: &Rect, b: &Rect) -> (Vec2, Vec2) {
    match sandtable_geometry::distance::closest_points(a, b) {
        Ok(Some(pair)) => pair,
        _ => {
            let p = a.closest_point(b.center());
            (p, p)
        }
    }
}

/// The length as the tape label shows it: one decimal place.
pub fn format_length(cm: f32, unit: LengthUnit) -> String {
    unit.format(cm)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(x: f32, y: f32) -> Rect {
        Rect::try_new(Vec2::new(x, y), Vec2::new(4.0, 2.0), 0.0).unwrap()
    }

    #[test]
    fn point_to_point() {
        let m = measure(
            TapeEnd {
                point: Vec2::new(0.0, 0.0),
                base: None,
            },
            TapeEnd {
                point: Vec2::new(3.0, 4.0),
                base: None,
            },
        );
        assert_eq!(m.length_cm, 5.0);
        assert_eq!(
            format_length(m.length_cm, LengthUnit::Centimetres),
            "5.0 cm"
        );
    }

    #[test]
    fn base_to_base_is_closest_points() {
        // Side by side, 6 cm between centres, bases 4 wide: 2 cm gap between facing edges.
        let a = base(0.0, 0.0);
        let b = base(6.0, 0.0);
        let m = measure(
            TapeEnd {
                point: Vec2::new(0.0, 0.0),
                base: Some(a),
            },
            TapeEnd {
                point: Vec2::new(6.5, 0.5),
                base: Some(b),
            },
        );
        assert!(m.base_to_base);
        assert!((m.length_cm - 2.0).abs() < 1e-4, "{}", m.length_cm);
    }

    #[test]
    fn base_to_point_runs_from_the_nearest_edge() {
        let a = base(0.0, 0.0);
        let m = measure(
            TapeEnd {
                point: Vec2::ZERO,
                base: Some(a),
            },
            TapeEnd {
                point: Vec2::new(0.0, 11.0),
                base: None,
            },
        );
        assert!((m.length_cm - 10.0).abs() < 1e-4);
    }

    #[test]
    fn inches_to_one_decimal() {
        assert_eq!(format_length(25.4, LengthUnit::Inches), "10.0 in");
        assert_eq!(format_length(12.345, LengthUnit::Centimetres), "12.3 cm");
    }
}
