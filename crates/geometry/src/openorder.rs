//! Open Order spacing (GEO-18, AMB-22): every base at least `min_gap` from every other base of
//! its unit (they never touch), every base within `max_gap` of at least one other, and the graph
//! "within `max_gap`" connected.

use crate::distance::rect_distance_unchecked;
use crate::error::{GeoError, check_non_negative};
use crate::rect::Rect;
use crate::tolerance::LIMIT_EPS;
use serde::{Deserialize, Serialize};

/// The spacing limits. BFaS: 0.5 cm and 2 cm (BFS-MAN-18/19, → 000 l.3528-3538).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spacing {
    pub min_gap: f32,
    pub max_gap: f32,
}

impl Default for Spacing {
    fn default() -> Self {
        Self {
            min_gap: 0.5,
            max_gap: 2.0,
        }
    }
}

/// What [`check_spacing`] found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpacingReport {
    /// Pairs `(i, j)` closer than `min_gap`.
    pub too_close: Vec<(usize, usize)>,
    /// Bases with no other base within `max_gap`.
    pub isolated: Vec<usize>,
    /// Is the "within `max_gap`" graph connected?
    pub connected: bool,
}

impl SpacingReport {
    pub fn ok(&self) -> bool {
        self.too_close.is_empty() && self.isolated.is_empty() && self.connected
    }
}

/// Checks a unit's Open Order spacing (GEO-18). A single base is trivially fine.
pub fn check_spacing(bases: &[Rect], spacing: Spacing) -> Result<SpacingReport, GeoError> {
    check_non_negative("min gap", spacing.min_gap)?;
    check_non_negative("max gap", spacing.max_gap)?;
    if bases.is_empty() {
        return Err(GeoError::Degenerate {
            what: "open order",
            why: "no bases".into(),
        });
    }
    for b in bases {
        b.check("base")?;
    }
    let n = bases.len();
    let mut too_close = Vec::new();
    let mut adj = vec![Vec::new(); n];
    for i in 0..n {
        for j in (i + 1)..n {
            let d = rect_distance_unchecked(&bases[i], &bases[j]);
            if d < spacing.min_gap - LIMIT_EPS {
                too_close.push((i, j));
            }
            if d <= spacing.max_gap + LIMIT_EPS {
                adj[i].push(j);
                adj[j].push(i);
            }
        }
    }
    let isolated = if n > 1 {
        (0..n).filter(|&i| adj[i].is_empty()).collect()
    } else {
        Vec::new()
    };
    let mut seen = vec![false; n];
    let mut stack = vec![0usize];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for &j in &adj[i] {
            if !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    Ok(SpacingReport {
        too_close,
        isolated,
        connected: seen.iter().all(|s| *s),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn b(x: f32) -> Rect {
        Rect::try_new(Vec2::new(x, 0.0), Vec2::new(4.0, 2.0), 0.0).unwrap()
    }

    #[test]
    fn spacing_rules() {
        // Gaps of 1 cm: centres 5 cm apart.
        assert!(
            check_spacing(&[b(0.0), b(5.0), b(10.0)], Spacing::default())
                .unwrap()
                .ok()
        );
        // Exactly 0.5 and exactly 2 cm are allowed.
        assert!(
            check_spacing(&[b(0.0), b(4.5), b(10.5)], Spacing::default())
                .unwrap()
                .ok()
        );
        // Touching: too close.
        let r = check_spacing(&[b(0.0), b(4.0)], Spacing::default()).unwrap();
        assert_eq!(r.too_close, vec![(0, 1)]);
        // A base 3 cm away from everyone: isolated and disconnected.
        let r = check_spacing(&[b(0.0), b(5.0), b(12.0)], Spacing::default()).unwrap();
        assert_eq!(r.isolated, vec![2]);
        assert!(!r.connected);
        // Two pairs, each fine, 5 cm apart: nobody isolated, yet not connected.
        let r = check_spacing(&[b(0.0), b(5.0), b(14.0), b(19.0)], Spacing::default()).unwrap();
        assert!(r.isolated.is_empty() && !r.connected && !r.ok());
        assert!(check_spacing(&[b(0.0)], Spacing::default()).unwrap().ok());
        assert!(check_spacing(&[], Spacing::default()).is_err());
    }
}
