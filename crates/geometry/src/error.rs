//! Errors for geometric input that makes no sense. Every public function refuses such input with
//! an error instead of panicking or propagating NaN.

use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Error)]
pub enum GeoError {
    #[error("{what} is not a finite number")]
    NonFinite { what: &'static str },
    #[error("{what} is degenerate: {why}")]
    Degenerate { what: &'static str, why: String },
    #[error("{what} is out of range: {why}")]
    OutOfRange { what: &'static str, why: String },
}

/// Refuses NaN, infinities and coordinates beyond [`crate::tolerance::MAX_COORD_CM`].
pub fn check_finite(what: &'static str, values: &[f32]) -> Result<(), GeoError> {
    for v in values {
        if !v.is_finite() {
            return Err(GeoError::NonFinite { what });
        }
        if v.abs() > crate::tolerance::MAX_COORD_CM {
            return Err(GeoError::OutOfRange {
                what,
                why: format!("{v} is beyond ±{} cm", crate::tolerance::MAX_COORD_CM),
            });
        }
    }
    Ok(())
}

/// Refuses a negative (or non-finite) amount such as a distance, an allowance or a gap.
pub fn check_non_negative(what: &'static str, v: f32) -> Result<(), GeoError> {
    check_finite(what, &[v])?;
    if v < 0.0 {
        return Err(GeoError::OutOfRange {
            what,
            why: format!("{v} is negative"),
        });
    }
    Ok(())
}

/// Refuses a size that is not strictly positive (at least [`crate::tolerance::MIN_SIZE_CM`]).
pub fn check_positive(what: &'static str, v: f32) -> Result<(), GeoError> {
    check_finite(what, &[v])?;
    if v < crate::tolerance::MIN_SIZE_CM {
        return Err(GeoError::Degenerate {
            what,
            why: format!("{v} is not a positive size"),
        });
    }
    Ok(())
}

/// Refuses a non-finite point.
pub fn check_point(what: &'static str, p: glam::Vec2) -> Result<(), GeoError> {
    check_finite(what, &[p.x, p.y])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_nan_infinite_and_huge() {
        assert!(check_finite("x", &[f32::NAN]).is_err());
        assert!(check_finite("x", &[f32::NEG_INFINITY]).is_err());
        assert!(check_finite("x", &[2.0e6]).is_err());
        assert!(check_finite("x", &[1.0, -3.0]).is_ok());
        assert!(check_non_negative("d", -0.5).is_err());
        assert!(check_positive("w", 0.0).is_err());
        assert!(check_positive("w", 4.0).is_ok());
    }
}
