//! Command-range arithmetic (GEO-15, BFS-CMD-4/7): distances are shape to shape (see
//! [`crate::distance::set_distance`] and [`crate::scene::Scene::unit_distance`]); this module turns
//! a distance into "steps beyond range", counting a part of a step as a whole one.

use crate::error::{GeoError, check_non_negative, check_positive};
use crate::tolerance::LIMIT_EPS;

/// Is `d` within `range` (with the shared slack)?
pub fn in_range(d: f32, range: f32) -> Result<bool, GeoError> {
    check_non_negative("distance", d)?;
    check_non_negative("range", range)?;
    Ok(crate::tolerance::within(d, range))
}

/// `ceil(max(0, d − range) / step)`: the number of started steps beyond the range (BFS-CMD-4:
/// +1 CP per further 20/40 cm or part; BFS-CMD-7: 1 CP lost per 20/40 cm or part).
pub fn steps_beyond(d: f32, range: f32, step: f32) -> Result<u32, GeoError> {
    check_non_negative("distance", d)?;
    check_non_negative("range", range)?;
    check_positive("step", step)?;
    let excess = d - range;
    if excess <= LIMIT_EPS {
        return Ok(0);
    }
    let k = ((excess - LIMIT_EPS) / step).ceil();
    Ok(k.min(u32::MAX as f32) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfs_cmd_7_general_sends_4_cp() {
        // R = S = 40: within range all 4 arrive; at 60 cm 3; at 90 cm 2.
        let received = |d: f32| 4u32.saturating_sub(steps_beyond(d, 40.0, 40.0).unwrap());
        assert_eq!(received(30.0), 4);
        assert_eq!(received(40.0), 4);
        assert_eq!(received(60.0), 3);
        assert_eq!(received(90.0), 2);
        // BFS-CMD-4, a Junior at 20 cm: 45 cm away costs 1 + ceil(25/20) = 3 CP.
        assert_eq!(1 + steps_beyond(45.0, 20.0, 20.0).unwrap(), 3);
        assert_eq!(1 + steps_beyond(40.0, 20.0, 20.0).unwrap(), 2);
        assert!(in_range(20.00005, 20.0).unwrap());
        assert!(steps_beyond(1.0, 1.0, 0.0).is_err());
    }
}
