//! Exact probability distributions for previews: how many hits a pool scores, how many of them
//! armor stops, how many strength points are lost.

/// `p[k]` = chance of exactly `k` successes in `n` independent trials of chance `q`.
pub fn binomial(n: u32, q: f64) -> Vec<f64> {
    let q = q.clamp(0.0, 1.0);
    let mut dist = vec![1.0];
    for _ in 0..n {
        dist = convolve(&dist, &[1.0 - q, q]);
    }
    dist
}

/// Distribution of the sum of two independent counts.
pub fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    if a.is_empty() || b.is_empty() {
        return vec![1.0];
    }
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        if *x == 0.0 {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// Given a distribution of hits, the distribution of hits that get through when each one is
/// stopped independently with chance `save`.
pub fn thin(hits: &[f64], save: f64) -> Vec<f64> {
    let mut out = vec![0.0; hits.len().max(1)];
    for (h, p) in hits.iter().enumerate() {
        if *p == 0.0 {
            continue;
        }
        for (k, q) in binomial(h as u32, 1.0 - save).iter().enumerate() {
            out[k] += p * q;
        }
    }
    out
}

/// Expected value of a distribution.
pub fn mean(dist: &[f64]) -> f64 {
    dist.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_sums_to_one_and_has_the_right_mean() {
        let d = binomial(8, 0.5);
        assert!((d.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((mean(&d) - 4.0).abs() < 1e-12);
        assert!((d[0] - 1.0 / 256.0).abs() < 1e-15);
    }

    #[test]
    fn thinning_by_saves() {
        // Two certain hits, each saved half the time: 0, 1, 2 get through with 1/4, 1/2, 1/4.
        let d = thin(&[0.0, 0.0, 1.0], 0.5);
        assert!(
            (d[0] - 0.25).abs() < 1e-12
                && (d[1] - 0.5).abs() < 1e-12
                && (d[2] - 0.25).abs() < 1e-12
        );
    }
}
