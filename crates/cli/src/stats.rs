//! Rates with their 95% confidence intervals, for `odds` and `tournament`.

use serde::Serialize;

/// A rate and its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// Wilson score interval at 95% for `k` successes in `n` trials. `k` may be fractional: a
/// tournament's score counts a draw as half a win, and the interval is then the usual
/// approximation (wider at the extremes than the normal one, never outside 0–1).
pub fn wilson(k: f64, n: u32) -> Rate {
    if n == 0 {
        return Rate {
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let (n, z) = (n as f64, 1.96f64);
    let p = (k / n).clamp(0.0, 1.0);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    Rate {
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_textbook_figures() {
        // 8 of 10: 49.0–94.3 % (Wilson, z = 1.96).
        let r = wilson(8.0, 10);
        assert!(
            (r.low - 0.4902).abs() < 1e-3 && (r.high - 0.9433).abs() < 1e-3,
            "{r:?}"
        );
        // All won still leaves room below.
        let r = wilson(20.0, 20);
        assert!(
            r.rate == 1.0 && r.high == 1.0 && (r.low - 0.8389).abs() < 1e-3,
            "{r:?}"
        );
    }
}
