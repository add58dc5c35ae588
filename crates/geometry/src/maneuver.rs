//! Per-base displacement caps for maneuvers (GEO-17, BFS-MAN-3/13/14/18/19, BFS-RAL-6), and the
//! assignment of bases to the slots of a new formation that keeps those displacements small.

use crate::error::{GeoError, check_non_negative};
use crate::rect::Rect;
use crate::tolerance::{CONTACT_EPS, LIMIT_EPS};
use serde::{Deserialize, Serialize};

/// Displacement of one base (GEO-17): the largest distance any of its corners moved, corners
/// matched by name (front-left to front-left …), so turning in place counts.
pub fn base_displacement(before: &Rect, after: &Rect) -> Result<f32, GeoError> {
    before.check("base before")?;
    after.check("base after")?;
    Ok(displacement_unchecked(before, after))
}

pub(crate) fn displacement_unchecked(before: &Rect, after: &Rect) -> f32 {
    let a = before.corners();
    let b = after.corners();
    (0..4).map(|k| a[k].distance(b[k])).fold(0.0, f32::max)
}

/// The caps of GEO-17, as functions of the unit's Move (terrain already applied where the rule
/// says "including terrain").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum ManeuverCap {
    /// Any maneuver: 1.5 × Move (BFS-MAN-3).
    Maneuver,
    /// Reform: Move, with one base staying in place (BFS-MAN-13).
    Reform,
    /// Closing ranks as a Special Maneuver: Move / 2 (BFS-MAN-19).
    ClosingRanks,
    /// Change of position: 2 cm (BFS-MAN-14, AMB-18).
    ChangeOfPosition,
    /// Reforming after a rally: the basic Move (BFS-RAL-6).
    RallyReform,
    /// Open/Close order as a Movement Maneuver: Move − the M-M cost (BFS-MAN-18).
    OpenCloseMovement { mm_cost: f32 },
}

impl ManeuverCap {
    /// The largest displacement allowed for a unit with this Move.
    pub fn limit(self, move_cm: f32) -> Result<f32, GeoError> {
        check_non_negative("move", move_cm)?;
        Ok(match self {
            ManeuverCap::Maneuver => 1.5 * move_cm,
            ManeuverCap::Reform | ManeuverCap::RallyReform => move_cm,
            ManeuverCap::ClosingRanks => 0.5 * move_cm,
            ManeuverCap::ChangeOfPosition => 2.0,
            ManeuverCap::OpenCloseMovement { mm_cost } => {
                check_non_negative("maneuver cost", mm_cost)?;
                (move_cm - mm_cost).max(0.0)
            }
        })
    }

    /// Does this cap also need a base that did not move (Reform)?
    pub fn needs_anchor_base(self) -> bool {
        matches!(self, ManeuverCap::Reform)
    }
}

/// Displacements of a set of bases (same order before and after).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DisplacementReport {
    pub per_base: Vec<f32>,
    pub max: f32,
    /// Bases whose centre did not move (within [`CONTACT_EPS`]); they may have turned in place.
    pub unmoved: usize,
    /// `max ≤ limit` (with the shared slack) and, if required, at least one unmoved base.
    pub ok: bool,
}

/// Measures every base's displacement against a limit (GEO-17).
pub fn check_displacements(
    before: &[Rect],
    after: &[Rect],
    limit: f32,
    need_unmoved: bool,
) -> Result<DisplacementReport, GeoError> {
    check_non_negative("limit", limit)?;
    if before.len() != after.len() || before.is_empty() {
        return Err(GeoError::Degenerate {
            what: "displacement",
            why: format!("{} bases before, {} after", before.len(), after.len()),
        });
    }
    let mut per_base = Vec::with_capacity(before.len());
    let mut unmoved = 0;
    for (a, b) in before.iter().zip(after) {
        per_base.push(base_displacement(a, b)?);
        if a.center().distance(b.center()) <= CONTACT_EPS {
            unmoved += 1;
        }
    }
    let max = per_base.iter().copied().fold(0.0, f32::max);
    let ok = max <= limit + LIMIT_EPS && (!need_unmoved || unmoved > 0);
    Ok(DisplacementReport {
        per_base,
        max,
        unmoved,
        ok,
    })
}

/// Assigns each base to one target slot (a formation change, BFS-MAN-8/9/11): the assignment with
/// the smallest total displacement among those whose largest displacement stays within `cap` — so
/// bases that need not move stay put (AMB-17: only the end bases go to the rear). With no cap, or
/// when no assignment fits the cap, the cap is raised to the smallest achievable largest
/// displacement (bottleneck). Returns `slot[i]` for base `i`.
pub fn assign_bases(
    before: &[Rect],
    targets: &[Rect],
    cap: Option<f32>,
) -> Result<Vec<usize>, GeoError> {
    let n = before.len();
    if n != targets.len() || n == 0 {
        return Err(GeoError::Degenerate {
            what: "assignment",
            why: format!("{n} bases for {} slots", targets.len()),
        });
    }
    if n > 64 {
        return Err(GeoError::OutOfRange {
            what: "assignment",
            why: format!("{n} bases is more than 64"),
        });
    }
    for r in before.iter().chain(targets) {
        r.check("base")?;
    }
    let cost: Vec<Vec<f32>> = before
        .iter()
        .map(|a| {
            targets
                .iter()
                .map(|b| displacement_unchecked(a, b))
                .collect()
        })
        .collect();
    // Bottleneck: the smallest threshold admitting a perfect matching.
    let mut values: Vec<f32> = cost.iter().flatten().copied().collect();
    values.sort_by(f32::total_cmp);
    values.dedup();
    let (mut lo, mut hi) = (0usize, values.len() - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if perfect_matching(&cost, values[mid]).is_some() {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let threshold = match cap {
        Some(c) => {
            check_non_negative("cap", c)?;
            values[lo].max(c + LIMIT_EPS)
        }
        None => f32::INFINITY,
    };
    // Minimum total among the assignments under the threshold (Hungarian algorithm).
    let big = 1.0e9f64;
    let c: Vec<Vec<f64>> = cost
        .iter()
        .map(|row| {
            row.iter()
                .map(|&v| if v <= threshold { v as f64 } else { big })
                .collect()
        })
        .collect();
    Ok(hungarian(&c))
}

fn perfect_matching(cost: &[Vec<f32>], t: f32) -> Option<Vec<usize>> {
    let n = cost.len();
    let mut match_slot: Vec<Option<usize>> = vec![None; n];
    fn augment(
        i: usize,
        cost: &[Vec<f32>],
        t: f32,
        seen: &mut [bool],
        ms: &mut [Option<usize>],
    ) -> bool {
        for j in 0..cost.len() {
            if cost[i][j] <= t && !seen[j] {
                seen[j] = true;
                if ms[j].is_none_or(|k| augment(k, cost, t, seen, ms)) {
                    ms[j] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    for i in 0..n {
        let mut seen = vec![false; n];
        if !augment(i, cost, t, &mut seen, &mut match_slot) {
            return None;
        }
    }
    let mut out = vec![0; n];
    for (j, m) in match_slot.iter().enumerate() {
        out[(*m)?] = j;
    }
    Some(out)
}

/// Minimum-cost perfect assignment (rows to columns) of a square matrix, O(n³).
fn hungarian(c: &[Vec<f64>]) -> Vec<usize> {
    let n = c.len();
    let inf = f64::INFINITY;
    let mut u = vec![0.0; n + 1];
    let mut v = vec![0.0; n + 1];
    let mut p = vec![0usize; n + 1];
    let mut way = vec![0usize; n + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0usize;
        let mut minv = vec![inf; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0usize;
            for j in 1..=n {
                if !used[j] {
                    let cur = c[i0 - 1][j - 1] - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut out = vec![0usize; n];
    for j in 1..=n {
        if p[j] > 0 {
            out[p[j] - 1] = j - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn b(x: f32, y: f32, a: f32) -> Rect {
        Rect::try_new(Vec2::new(x, y), Vec2::new(4.0, 2.0), a).unwrap()
    }

    #[test]
    fn displacement_is_the_largest_corner_move() {
        // A straight 3 cm shift moves every corner 3 cm.
        assert!(
            (base_displacement(&b(0.0, 0.0, 0.0), &b(0.0, 3.0, 0.0)).unwrap() - 3.0).abs() < 1e-6
        );
        // Turning 180° in place: FL goes to RR, the diagonal √(16 + 4).
        let d = base_displacement(&b(0.0, 0.0, 0.0), &b(0.0, 0.0, core::f32::consts::PI)).unwrap();
        assert!((d - 20f32.sqrt()).abs() < 1e-5);
    }

    #[test]
    fn caps() {
        assert_eq!(ManeuverCap::Maneuver.limit(10.0).unwrap(), 15.0);
        assert_eq!(ManeuverCap::ClosingRanks.limit(20.0).unwrap(), 10.0);
        assert_eq!(ManeuverCap::ChangeOfPosition.limit(20.0).unwrap(), 2.0);
        // BFS-MAN-18 example: Move 20, cavalry M-M cost 5 → 15 cm.
        assert_eq!(
            ManeuverCap::OpenCloseMovement { mm_cost: 5.0 }
                .limit(20.0)
                .unwrap(),
            15.0
        );
        let before = [b(0.0, 0.0, 0.0), b(4.0, 0.0, 0.0)];
        let after = [b(0.0, 0.0, 0.0), b(4.0, 1.5, 0.0)];
        let r = check_displacements(&before, &after, 2.0, true).unwrap();
        assert!(r.ok && r.unmoved == 1 && (r.max - 1.5).abs() < 1e-6);
        let r = check_displacements(&before, &after, 1.0, false).unwrap();
        assert!(!r.ok);
        let moved = [b(0.0, 0.5, 0.0), b(4.0, 1.5, 0.0)];
        assert!(!check_displacements(&before, &moved, 2.0, true).unwrap().ok);
    }

    #[test]
    fn assignment_keeps_bases_in_place_and_minimises_the_worst_move() {
        // Slots are the same positions shuffled: identity assignment, zero moves.
        let before = [b(0.0, 0.0, 0.0), b(4.0, 0.0, 0.0), b(8.0, 0.0, 0.0)];
        let targets = [b(8.0, 0.0, 0.0), b(0.0, 0.0, 0.0), b(4.0, 0.0, 0.0)];
        assert_eq!(
            assign_bases(&before, &targets, None).unwrap(),
            vec![1, 2, 0]
        );
        // Narrowing 3 files to 2: the end base goes to the rear (√(6² + 2²) ≈ 6.3 cm), the others
        // stay (total 6.3, against 2.8 + 4 + 4 = 10.8 for shifting everyone along).
        let targets = [b(0.0, 0.0, 0.0), b(4.0, 0.0, 0.0), b(2.0, -2.0, 0.0)];
        assert_eq!(
            assign_bases(&before, &targets, None).unwrap(),
            vec![0, 1, 2]
        );
        assert_eq!(
            assign_bases(&before, &targets, Some(15.0)).unwrap(),
            vec![0, 1, 2]
        );
        // Under a 5 cm cap the end base may not go that far: the middle base drops back
        // (√(2² + 2²) ≈ 2.8) and the end base closes in (4); the left base stays.
        assert_eq!(
            assign_bases(&before, &targets, Some(5.0)).unwrap(),
            vec![0, 2, 1]
        );
        // A 3 cm cap cannot be met: the smallest worst case (4) is used instead.
        assert_eq!(
            assign_bases(&before, &targets, Some(3.0)).unwrap(),
            vec![0, 2, 1]
        );
        assert!(assign_bases(&before, &targets[..2], None).is_err());
    }
}
