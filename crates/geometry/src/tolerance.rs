//! Every tolerance the geometry uses, in one place (design principle 7).
//!
//! Rules numbers (2 cm, 1 cm, 0.5 cm …) are *not* here: they belong to the rules crate and reach the
//! geometry as parameters. What lives here is how exactly the geometry compares numbers.

/// Two shapes closer than this are in contact (GEO-3: "we propose 0.01 cm").
pub const CONTACT_EPS: f32 = 0.01;

/// Where a move, wheel or charge that is allowed to reach contact actually stops: half the contact
/// tolerance short of touching. The shapes then count as in contact (distance ≤ [`CONTACT_EPS`])
/// yet never overlap, whatever rounding the arithmetic did (GEO-9 "a shape cast never ends
/// overlapping").
pub const CONTACT_GAP: f32 = 0.5 * CONTACT_EPS;

/// Slack when comparing a measured value against a rules limit: `value <= limit + LIMIT_EPS`.
pub const LIMIT_EPS: f32 = 1e-4;

/// Two edges are treated as parallel (or anti-parallel) within this angle, in radians (GEO-3: 0.5°).
pub const PARALLEL_EPS_RAD: f32 = 0.5 * core::f32::consts::PI / 180.0;

/// Largest step any corner may travel between two collision checks along a wheel arc (GEO-10).
///
/// The crate's wheel collision test is exact (continuous, see `cast`), so this step only bounds the
/// poses a caller gets back from [`crate::wheel::arc_poses`] for drawing or for its own checks.
pub const ARC_SUBSTEP_CM: f32 = 0.25;

/// Coordinates beyond this magnitude (cm) are refused as nonsense input: no table is 10 km wide.
pub const MAX_COORD_CM: f32 = 1.0e6;

/// Sizes below this (cm) are degenerate.
pub const MIN_SIZE_CM: f32 = 1.0e-3;

/// Areas (cm²) below this count as empty: a shape "in" a zone or a terrain piece must overlap it by
/// more than a sliver (GEO-6, BFS-GEOC-7 "area > 0"). One contact tolerance squared.
pub const AREA_EPS_CM2: f32 = CONTACT_EPS * CONTACT_EPS;

/// A cast event this far (cm) before its start still counts as "now": absorbs rounding when a shape
/// starts exactly on the boundary it may not cross.
pub const CAST_START_SLACK_CM: f32 = 1.0e-3;

/// Cast arithmetic (see `cast`): a segment parameter this far outside `[0, 1]` still counts as on
/// the segment, so a corner meeting a corner exactly is not missed.
pub const PARAM_SLACK: f32 = 1e-6;

/// Cast arithmetic: a motion whose approach speed toward a boundary is below this fraction of its
/// speed slides along it (rounding of exactly parallel edges) rather than crossing it.
pub const DIR_SLACK: f32 = 1e-6;

/// Cast arithmetic: a path that only grazes a gap circle within this depth (cm) does not enter
/// it, and a contact within this distance of an edge's end is a corner contact.
pub const GRAZE_CM: f32 = 1e-5;

/// Path lengths inside terrain: a path running exactly along an edge (within this, cm) is
/// outside.
pub const PATH_MARGIN_CM: f32 = 1e-5;

/// Occlusion certificates (vision culling): a sight line is certified blocked without the exact
/// test only when it passes through the blocker shrunk by this much (cm), so that it crosses the
/// blocker itself over at least this length, far above the exact test's 1e-6 cm threshold and
/// its rounding. Must stay well below every base size.
pub const CERT_INSET_CM: f32 = 4.0e-3;

/// Occlusion certificates: angular slack, in pseudo-angle units (at least this many radians),
/// kept between a certified direction and the edge of a blocker's shadow, far above the rounding
/// of the direction arithmetic.
pub const CERT_ANGLE_SLACK: f32 = 1.0e-5;

/// `value <= limit` with the shared slack.
#[inline]
pub fn within(value: f32, limit: f32) -> bool {
    value <= limit + LIMIT_EPS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_uses_the_shared_slack() {
        assert!(within(10.00005, 10.0));
        assert!(!within(10.001, 10.0));
    }

    const _: () = assert!(CONTACT_GAP > 0.0 && CONTACT_GAP < CONTACT_EPS);
}
