//! Close-order formations (BFS-FRM, GEO-16): a unit stored as the pose of its front-left corner,
//! a base size, a number of files and one (rank, file) slot per base, so its bases stay exactly in
//! contact (no float drift for BFS-MOV-11's tolerance to absorb). Also: recognising Line, Column
//! or Non-standard from free base rectangles (BFS-FRM-6), and the formation changes of
//! BFS-MAN-8/9/11 (turns, expanding and narrowing the frontage) laid out per AMB-16/17.

use crate::error::{GeoError, check_point};
use crate::maneuver::assign_bases;
use crate::pose::{Pose, normalize_angle};
use crate::rect::Rect;
use crate::tolerance::{LIMIT_EPS, PARALLEL_EPS_RAD};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The unit frame: where the front-left corner of the unit is, which way it faces, how big its
/// bases are and how many files wide it is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UnitFrame {
    /// Pose of the unit's front-left corner; its angle is the facing.
    pub anchor: Pose,
    /// Base width (along the front) and depth.
    pub base_size: Vec2,
    pub files: u16,
}

/// A base's place in the formation. `offset` shifts a base of a short last rank sideways (cm);
/// it is 0 elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Slot {
    pub rank: u16,
    pub file: u16,
    pub offset: f32,
}

impl Slot {
    pub const fn new(rank: u16, file: u16) -> Self {
        Self {
            rank,
            file,
            offset: 0.0,
        }
    }
}

impl UnitFrame {
    pub fn try_new(anchor: Pose, base_size: Vec2, files: u16) -> Result<Self, GeoError> {
        crate::error::check_finite("unit anchor", &[anchor.pos.x, anchor.pos.y, anchor.angle])?;
        crate::error::check_positive("base width", base_size.x)?;
        crate::error::check_positive("base depth", base_size.y)?;
        if files == 0 {
            return Err(GeoError::Degenerate {
                what: "formation",
                why: "zero files".into(),
            });
        }
        Ok(Self {
            anchor,
            base_size,
            files,
        })
    }

    /// Table centre of a slot: `anchor + (j·W + W/2 + offset)·r − (i·D + D/2)·f` (GEO-16).
    pub fn slot_center(&self, s: Slot) -> Vec2 {
        let (w, d) = (self.base_size.x, self.base_size.y);
        self.anchor.to_world(Vec2::new(
            s.file as f32 * w + w * 0.5 + s.offset,
            -(s.rank as f32 * d + d * 0.5),
        ))
    }

    pub fn slot_rect(&self, s: Slot) -> Rect {
        Rect::new(
            Pose::new(self.slot_center(s), self.anchor.angle),
            self.base_size * 0.5,
        )
    }

    /// The unit rectangle for `ranks` ranks (GEO-1: a short last rank counts as a full one).
    pub fn unit_rect(&self, ranks: u16) -> Rect {
        let hw = self.files as f32 * self.base_size.x * 0.5;
        let hd = ranks.max(1) as f32 * self.base_size.y * 0.5;
        Rect::new(
            Pose::new(self.anchor.to_world(Vec2::new(hw, -hd)), self.anchor.angle),
            Vec2::new(hw, hd),
        )
    }
}

/// Line or Column (BFS-FRM-2/3); anything else is Non-standard (BFS-FRM-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FormationKind {
    Line,
    Column,
    NonStandard,
}

/// Where the bases of a short last rank sit when the geometry lays a rank out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum RankAlign {
    Left,
    #[default]
    Centre,
    Right,
}

/// A valid close-order formation: a frame and one slot per base (in the caller's base order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CloseOrder {
    pub frame: UnitFrame,
    pub slots: Vec<Slot>,
}

impl CloseOrder {
    /// Validates BFS-FRM-6: every rank but the last is full across `files`, the last has
    /// 1..=files bases, no two bases share or overlap a place, offsets only in a short last rank
    /// and within the frontage.
    pub fn new(frame: UnitFrame, slots: Vec<Slot>) -> Result<Self, GeoError> {
        let bad = |why: String| {
            Err(GeoError::Degenerate {
                what: "formation",
                why,
            })
        };
        if slots.is_empty() {
            return bad("no bases".into());
        }
        let files = frame.files as usize;
        let ranks = slots.iter().map(|s| s.rank).max().unwrap_or(0) as usize + 1;
        let mut per_rank = vec![Vec::<&Slot>::new(); ranks];
        for s in &slots {
            crate::error::check_finite("slot offset", &[s.offset])?;
            if s.file as usize >= files {
                return bad(format!("file {} outside {} files", s.file, files));
            }
            per_rank[s.rank as usize].push(s);
        }
        for (i, r) in per_rank.iter().enumerate() {
            let last = i + 1 == ranks;
            if r.is_empty() {
                return bad(format!("rank {i} is empty"));
            }
            if !last || r.len() == files {
                // A full rank: each file once, no offsets.
                let mut seen = vec![false; files];
                for s in r {
                    if s.offset.abs() > LIMIT_EPS || seen[s.file as usize] {
                        return bad(format!("rank {i} is not a full rank"));
                    }
                    seen[s.file as usize] = true;
                }
                if r.len() != files {
                    return bad(format!("rank {i} has {} of {files} bases", r.len()));
                }
            } else {
                // A short last rank: positions anywhere along the rank, within the frontage,
                // not overlapping each other.
                let w = frame.base_size.x;
                let mut xs: Vec<f32> = r.iter().map(|s| s.file as f32 * w + s.offset).collect();
                xs.sort_by(f32::total_cmp);
                if xs[0] < -LIMIT_EPS || xs[xs.len() - 1] > (files - 1) as f32 * w + LIMIT_EPS {
                    return bad(format!("rank {i} sticks out of the frontage"));
                }
                if xs.windows(2).any(|p| p[1] - p[0] < w - LIMIT_EPS) {
                    return bad(format!("bases of rank {i} overlap"));
                }
            }
        }
        Ok(Self { frame, slots })
    }

    /// A regular formation of `n` bases `files` wide, ranks filled from the front, the short last
    /// rank placed by `align`.
    pub fn regular(
        anchor: Pose,
        base_size: Vec2,
        files: u16,
        n: usize,
        align: RankAlign,
    ) -> Result<Self, GeoError> {
        let frame = UnitFrame::try_new(anchor, base_size, files)?;
        if n == 0 {
            return Err(GeoError::Degenerate {
                what: "formation",
                why: "no bases".into(),
            });
        }
        let f = files as usize;
        let full = n / f;
        let rest = n % f;
        let mut slots = Vec::with_capacity(n);
        for i in 0..full {
            for j in 0..f {
                slots.push(Slot::new(i as u16, j as u16));
            }
        }
        if rest > 0 {
            let shift = match align {
                RankAlign::Left => 0.0,
                RankAlign::Centre => (f - rest) as f32 * 0.5,
                RankAlign::Right => (f - rest) as f32,
            };
            for j in 0..rest {
                let x = (j as f32 + shift) * base_size.x;
                let file = (x / base_size.x).floor() as u16;
                slots.push(Slot {
                    rank: full as u16,
                    file,
                    offset: x - file as f32 * base_size.x,
                });
            }
        }
        Self::new(frame, slots)
    }

    pub fn ranks(&self) -> u16 {
        self.slots.iter().map(|s| s.rank).max().unwrap_or(0) + 1
    }

    /// Column when one file wide (a single base always counts as a Column, BFS-FRM-4).
    pub fn kind(&self) -> FormationKind {
        if self.frame.files == 1 {
            FormationKind::Column
        } else {
            FormationKind::Line
        }
    }

    pub fn unit_rect(&self) -> Rect {
        self.frame.unit_rect(self.ranks())
    }

    /// Depth of the formation in cm (ranks × base depth), as BFS-MAN-9 measures it.
    pub fn depth(&self) -> f32 {
        self.ranks() as f32 * self.frame.base_size.y
    }

    /// The base rectangles, in base order.
    pub fn base_rects(&self) -> Vec<Rect> {
        self.slots
            .iter()
            .map(|s| self.frame.slot_rect(*s))
            .collect()
    }

    /// The bases of the front rank (BFS-SHO-1, AMB-43), as indices.
    pub fn front_rank(&self) -> Vec<usize> {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.rank == 0)
            .map(|(i, _)| i)
            .collect()
    }
}

/// How a unit's bases are held (GEO-16): in formation slots (close order: Line or Column), or as
/// free poses (Open Order, Non-standard formations, single bases).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum UnitLayout {
    Close(CloseOrder),
    Free(Vec<Rect>),
}

impl UnitLayout {
    /// The base rectangles, in base order.
    pub fn bases(&self) -> Vec<Rect> {
        match self {
            UnitLayout::Close(c) => c.base_rects(),
            UnitLayout::Free(v) => v.clone(),
        }
    }

    /// What the unit sees and shoots from (GEO-5/6, AMB-43): the unit rectangle in close order,
    /// every base otherwise.
    pub fn eyes(&self) -> Vec<Rect> {
        match self {
            UnitLayout::Close(c) => vec![c.unit_rect()],
            UnitLayout::Free(v) => v.clone(),
        }
    }
}

/// The answer of [`classify`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classified {
    pub kind: FormationKind,
    /// The recognised formation (slots in the input order), for Line and Column.
    pub order: Option<CloseOrder>,
}

/// Recognises a free set of base rectangles as a Line, a Column or a Non-standard formation
/// (BFS-FRM-6): same size and facing, centres on a W × D grid within `tol` cm, every rank but the
/// last full, the last rank anywhere along the frontage without overlaps.
pub fn classify(rects: &[Rect], tol: f32) -> Result<Classified, GeoError> {
    crate::error::check_non_negative("tolerance", tol)?;
    let non = Ok(Classified {
        kind: FormationKind::NonStandard,
        order: None,
    });
    let first = rects.first().ok_or(GeoError::Degenerate {
        what: "formation",
        why: "no bases".into(),
    })?;
    for r in rects {
        r.check("base")?;
    }
    let size = first.size();
    let angle = first.pose.angle;
    for r in rects {
        if (r.size() - size).abs().max_element() > tol
            || normalize_angle(r.pose.angle - angle).abs() > PARALLEL_EPS_RAD
        {
            return non;
        }
    }
    let (w, d) = (size.x, size.y);
    let frame_pose = Pose::new(first.center(), angle);
    let local: Vec<Vec2> = rects
        .iter()
        .map(|r| frame_pose.to_local(r.center()))
        .collect();
    let y_max = local.iter().map(|p| p.y).fold(f32::NEG_INFINITY, f32::max);
    let mut ranks: Vec<u16> = Vec::with_capacity(rects.len());
    for p in &local {
        let k = ((y_max - p.y) / d).round();
        if ((y_max - p.y) - k * d).abs() > tol || k > u16::MAX as f32 {
            return non;
        }
        ranks.push(k as u16);
    }
    let n_ranks = *ranks.iter().max().unwrap_or(&0) as usize + 1;
    let front: Vec<f32> = local
        .iter()
        .zip(&ranks)
        .filter(|(_, r)| **r == 0)
        .map(|(p, _)| p.x)
        .collect();
    let x_min = front.iter().copied().fold(f32::INFINITY, f32::min);
    let files = if n_ranks == 1 {
        rects.len()
    } else {
        front.len()
    };
    let mut slots = Vec::with_capacity(rects.len());
    for (p, &rank) in local.iter().zip(&ranks) {
        let x = p.x - x_min;
        let last_short = n_ranks > 1 && rank as usize == n_ranks - 1;
        let j = (x / w).round();
        if !last_short {
            if (x - j * w).abs() > tol || j < 0.0 || j as usize >= files {
                return non;
            }
            slots.push(Slot::new(rank, j as u16));
        } else {
            if x < -tol || x > (files as f32 - 1.0) * w + tol {
                return non;
            }
            let x = x.clamp(0.0, (files as f32 - 1.0) * w);
            let file = ((x / w).floor() as u16).min(files as u16 - 1);
            let mut offset = x - file as f32 * w;
            if offset.abs() <= tol {
                offset = 0.0;
            }
            slots.push(Slot { rank, file, offset });
        }
    }
    // The last rank, if full, must sit exactly on the grid too.
    if n_ranks > 1 {
        let last = (n_ranks - 1) as u16;
        let count = slots.iter().filter(|s| s.rank == last).count();
        if count == files {
            for (s, p) in slots.iter_mut().zip(&local) {
                if s.rank == last {
                    let x = p.x - x_min;
                    let j = (x / w).round();
                    if (x - j * w).abs() > tol {
                        return non;
                    }
                    *s = Slot::new(last, j as u16);
                }
            }
        }
    }
    if files == 0 || files > u16::MAX as usize {
        return non;
    }
    let anchor = Pose::new(
        frame_pose.to_world(Vec2::new(x_min - w * 0.5, y_max + d * 0.5)),
        angle,
    );
    let frame = UnitFrame::try_new(anchor, size, files as u16)?;
    // Loosen the slot validation by the caller's tolerance: re-check with exact slots.
    match CloseOrder::new(frame, slots) {
        Ok(order) => Ok(Classified {
            kind: order.kind(),
            order: Some(order),
        }),
        Err(_) => non,
    }
}

/// Which way a unit turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TurnSide {
    Left,
    Right,
}

/// Lays `n` bases out on `frame`-like frames with each of the three short-rank alignments and
/// assigns bases to slots; keeps the layout whose assignment moves bases least.
fn rebuild(
    old: &CloseOrder,
    anchor: Pose,
    files: u16,
    cap: Option<f32>,
) -> Result<CloseOrder, GeoError> {
    let before = old.base_rects();
    let n = before.len();
    let mut best: Option<(f32, f32, CloseOrder)> = None;
    for align in [RankAlign::Centre, RankAlign::Left, RankAlign::Right] {
        let layout = CloseOrder::regular(anchor, old.frame.base_size, files, n, align)?;
        let targets = layout.base_rects();
        let assign = assign_bases(&before, &targets, cap)?;
        let moves: Vec<f32> = (0..n)
            .map(|i| crate::maneuver::displacement_unchecked(&before[i], &targets[assign[i]]))
            .collect();
        let worst = moves.iter().copied().fold(0.0, f32::max);
        let total: f32 = moves.iter().sum();
        let slots: Vec<Slot> = (0..n).map(|i| layout.slots[assign[i]]).collect();
        let cand = CloseOrder {
            frame: layout.frame,
            slots,
        };
        let better = match &best {
            None => true,
            Some((bw, bt, _)) => {
                worst < bw - LIMIT_EPS
                    || ((worst - bw).abs() <= LIMIT_EPS && total < bt - LIMIT_EPS)
            }
        };
        if better {
            best = Some((worst, total, cand));
        }
    }
    best.map(|b| b.2).ok_or(GeoError::Degenerate {
        what: "formation",
        why: "no layout".into(),
    })
}

/// Turn 90° to a side as a Movement Maneuver (BFS-MAN-9, AMB-16): every base turns; the new
/// frontage is one base per base width of the old depth, counting a part as a whole
/// (`ceil(depth / W)`: infantry 2 ranks deep (4 cm) → 1 file, cavalry 2 ranks (6 cm) → 2 files);
/// the new front edge lies along the old flank edge on the side turned to, starting at the old
/// front corner there, and the ranks fill backward into the old footprint. `cap` (e.g. 1.5 ×
/// Move) steers which base goes where; check the result with [`crate::maneuver`].
pub fn turn_90(old: &CloseOrder, side: TurnSide, cap: Option<f32>) -> Result<CloseOrder, GeoError> {
    let f = &old.frame;
    let w = f.base_size.x;
    let n = old.slots.len();
    let new_files = (((old.depth() / w) - LIMIT_EPS).ceil().max(1.0) as usize).min(n) as u16;
    let unit = old.unit_rect();
    let (new_angle, anchor_pos) = match side {
        TurnSide::Right => {
            // New facing = old right; new front-left corner = old front-right corner.
            (
                normalize_angle(f.anchor.angle - core::f32::consts::FRAC_PI_2),
                unit.front_right(),
            )
        }
        TurnSide::Left => {
            // New facing = old left; the new front-right corner is the old front-left corner.
            let a = normalize_angle(f.anchor.angle + core::f32::consts::FRAC_PI_2);
            let p = Pose::new(unit.front_left(), a);
            (a, unit.front_left() - p.right() * (new_files as f32 * w))
        }
    };
    rebuild(old, Pose::new(anchor_pos, new_angle), new_files, cap)
}

/// Turn 180° (BFS-MAN-7/8): the front becomes the rear; the unit keeps its footprint and files,
/// and a short rank that would now be in front is filled from the back (MAN-8).
pub fn turn_180(old: &CloseOrder, cap: Option<f32>) -> Result<CloseOrder, GeoError> {
    let unit = old.unit_rect();
    let a = normalize_angle(old.frame.anchor.angle + core::f32::consts::PI);
    // New front-left corner = old rear-right corner.
    rebuild(old, Pose::new(unit.rear_right(), a), old.frame.files, cap)
}

/// Which point of the front stays put when the frontage changes (AMB-17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FrontageFix {
    /// Both sides change: the middle of the front stays.
    Centre,
    /// Only the right side changes: the front-left corner stays.
    LeftCorner,
    /// Only the left side changes: the front-right corner stays.
    RightCorner,
}

/// Expand or narrow the frontage to `files` (BFS-MAN-10..12, AMB-17): bases leaving the front go
/// to the rear, bases for new files come from the rear, and the fixed point stays.
pub fn change_frontage(
    old: &CloseOrder,
    files: u16,
    fix: FrontageFix,
    cap: Option<f32>,
) -> Result<CloseOrder, GeoError> {
    if files == 0 || files as usize > old.slots.len() {
        return Err(GeoError::OutOfRange {
            what: "files",
            why: format!("{files} files for {} bases", old.slots.len()),
        });
    }
    let f = &old.frame;
    let w = f.base_size.x;
    let old_w = f.files as f32 * w;
    let new_w = files as f32 * w;
    let r = f.anchor.right();
    let pos = match fix {
        FrontageFix::LeftCorner => f.anchor.pos,
        FrontageFix::Centre => f.anchor.pos + r * ((old_w - new_w) * 0.5),
        FrontageFix::RightCorner => f.anchor.pos + r * (old_w - new_w),
    };
    rebuild(old, Pose::new(pos, f.anchor.angle), files, cap)
}

/// A formation moved rigidly: the new anchor for a translation and/or rotation applied to the
/// whole unit (wheel outcomes, straight moves), keeping the slots.
pub fn moved(
    order: &CloseOrder,
    delta: Vec2,
    pivot: Vec2,
    theta: f32,
) -> Result<CloseOrder, GeoError> {
    check_point("move", delta)?;
    check_point("pivot", pivot)?;
    crate::error::check_finite("angle", &[theta])?;
    let anchor = order
        .frame
        .anchor
        .rotated_about(pivot, theta)
        .translated(delta);
    Ok(CloseOrder {
        frame: UnitFrame {
            anchor,
            ..order.frame
        },
        slots: order.slots.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::{ContactKind, contact};

    const INF: Vec2 = Vec2::new(4.0, 2.0);
    const CAV: Vec2 = Vec2::new(4.0, 3.0);

    fn line(n: usize, files: u16, size: Vec2) -> CloseOrder {
        CloseOrder::regular(
            Pose::new(Vec2::new(10.0, 50.0), 0.0),
            size,
            files,
            n,
            RankAlign::Centre,
        )
        .unwrap()
    }

    #[test]
    fn slots_put_bases_exactly_in_contact() {
        let co = line(5, 3, INF);
        let rects = co.base_rects();
        // Slot (0, 0): centre = anchor + (2, −1).
        assert_eq!(rects[0].center(), Vec2::new(12.0, 49.0));
        // Side by side, their 2 cm deep side edges touch exactly.
        let c = contact(&rects[0], &rects[1]).unwrap();
        assert_eq!(c.kind, ContactKind::Edge);
        assert!((c.edge_length - 2.0).abs() < 1e-5);
        // The 2 bases of the short rank are centred: shifted half a file, their left edges are
        // 2 and 6 cm from the unit's left edge, so their centres 4 and 8 cm.
        assert_eq!(co.ranks(), 2);
        assert!((rects[3].center() - Vec2::new(10.0 + 4.0, 47.0)).length() < 1e-5);
        assert!((rects[4].center() - Vec2::new(10.0 + 8.0, 47.0)).length() < 1e-5);
        let u = co.unit_rect();
        assert_eq!(u.size(), Vec2::new(12.0, 4.0));
        assert_eq!(co.front_rank(), vec![0, 1, 2]);
        assert_eq!(co.kind(), FormationKind::Line);
    }

    #[test]
    fn validation_refuses_holes_and_overlaps() {
        let f = UnitFrame::try_new(Pose::default(), INF, 3).unwrap();
        // A hole in the front rank.
        assert!(
            CloseOrder::new(f, vec![Slot::new(0, 0), Slot::new(0, 2), Slot::new(1, 1)]).is_err()
        );
        // Two bases in one place.
        assert!(
            CloseOrder::new(f, vec![Slot::new(0, 0), Slot::new(0, 0), Slot::new(0, 1)]).is_err()
        );
        // A short last rank overlapping itself.
        let s = vec![
            Slot::new(0, 0),
            Slot::new(0, 1),
            Slot::new(0, 2),
            Slot::new(1, 0),
            Slot {
                rank: 1,
                file: 0,
                offset: 2.0,
            },
        ];
        assert!(CloseOrder::new(f, s).is_err());
        // Sticking out.
        let s = vec![
            Slot::new(0, 0),
            Slot::new(0, 1),
            Slot::new(0, 2),
            Slot {
                rank: 1,
                file: 2,
                offset: 1.0,
            },
        ];
        assert!(CloseOrder::new(f, s).is_err());
        assert!(UnitFrame::try_new(Pose::default(), INF, 0).is_err());
    }

    #[test]
    fn classify_free_bases() {
        let co = line(5, 3, INF).with_angle_for_test(0.6);
        let rects = co.base_rects();
        let c = classify(&rects, 0.01).unwrap();
        assert_eq!(c.kind, FormationKind::Line);
        let order = c.order.unwrap();
        assert_eq!(order.frame.files, 3);
        for (a, b) in order.base_rects().iter().zip(&rects) {
            assert!((a.center() - b.center()).length() < 1e-3);
        }
        // A column of 3.
        let col = line(3, 1, CAV).base_rects();
        assert_eq!(classify(&col, 0.01).unwrap().kind, FormationKind::Column);
        // One base: a column.
        assert_eq!(
            classify(&col[..1], 0.01).unwrap().kind,
            FormationKind::Column
        );
        // A base nudged 0.5 cm off the grid: non-standard.
        let mut bad = rects.clone();
        bad[1] = bad[1].translated(Vec2::new(0.0, 0.5));
        assert_eq!(
            classify(&bad, 0.01).unwrap().kind,
            FormationKind::NonStandard
        );
        // A base turned: non-standard.
        let mut turned = rects.clone();
        turned[2] = Rect::new(
            Pose::new(turned[2].center(), turned[2].pose.angle + 0.3),
            turned[2].half,
        );
        assert_eq!(
            classify(&turned, 0.01).unwrap().kind,
            FormationKind::NonStandard
        );
        // Two bases far apart: non-standard.
        let apart = [rects[0], rects[0].translated(Vec2::new(10.0, 0.0))];
        assert_eq!(
            classify(&apart, 0.01).unwrap().kind,
            FormationKind::NonStandard
        );
    }

    impl CloseOrder {
        fn with_angle_for_test(mut self, a: f32) -> Self {
            self.frame.anchor.angle = a;
            self
        }
    }

    #[test]
    fn bfs_man_9_turns() {
        // Infantry 2 ranks deep (4 cm): turning 90° gives a column (1 file).
        let inf = line(4, 2, INF);
        assert!((inf.depth() - 4.0).abs() < 1e-6);
        let t = turn_90(&inf, TurnSide::Right, None).unwrap();
        assert_eq!(t.frame.files, 1);
        assert_eq!(t.kind(), FormationKind::Column);
        // New front-left corner = old front-right corner, facing east.
        assert!((t.frame.anchor.pos - inf.unit_rect().front_right()).length() < 1e-5);
        assert!((t.frame.anchor.facing() - Vec2::X).length() < 1e-5);
        // Cavalry 2 ranks deep (6 cm): 2 files.
        let cav = line(4, 2, CAV);
        let t = turn_90(&cav, TurnSide::Left, None).unwrap();
        assert_eq!(t.frame.files, 2);
        assert_eq!(t.kind(), FormationKind::Line);
        // Facing west; its front-right corner is the old front-left corner.
        assert!((t.frame.anchor.facing() - Vec2::NEG_X).length() < 1e-5);
        assert!((t.unit_rect().front_right() - cav.unit_rect().front_left()).length() < 1e-4);
        // Every turned base stays a valid formation, bases in contact.
        assert_eq!(
            classify(&t.base_rects(), 0.01).unwrap().kind,
            FormationKind::Line
        );
    }

    #[test]
    fn turn_180_fills_the_new_front() {
        // 5 bases, 3 files: the short rank (2 bases) must not be the new front.
        let co = line(5, 3, INF);
        let t = turn_180(&co, None).unwrap();
        assert_eq!(t.frame.files, 3);
        assert_eq!(t.slots.iter().filter(|s| s.rank == 0).count(), 3);
        assert!((t.frame.anchor.facing() - Vec2::NEG_Y).length() < 1e-5);
        // Same footprint.
        let (a, b) = (co.unit_rect(), t.unit_rect());
        assert!((a.center() - b.center()).length() < 1e-4);
    }

    #[test]
    fn narrowing_keeps_the_fixed_point_and_moves_end_bases_back() {
        // 6 bases, 3 files × 2 ranks → 2 files × 3 ranks, left corner fixed.
        let co = line(6, 3, INF);
        let n = change_frontage(&co, 2, FrontageFix::LeftCorner, None).unwrap();
        assert_eq!(n.frame.files, 2);
        assert_eq!(n.ranks(), 3);
        assert!((n.frame.anchor.pos - co.frame.anchor.pos).length() < 1e-6);
        // The four bases in files 0–1 of the old formation stay where they were.
        let before = co.base_rects();
        let after = n.base_rects();
        let unmoved = before
            .iter()
            .zip(&after)
            .filter(|(a, b)| a.center().distance(b.center()) < 1e-4)
            .count();
        assert_eq!(unmoved, 4);
        // Centre fix: widening 2 → 3 keeps the middle of the front.
        let two = line(6, 2, INF);
        let w = change_frontage(&two, 3, FrontageFix::Centre, None).unwrap();
        let mid = |c: &CloseOrder| c.unit_rect().edge(crate::rect::Edge::Front).midpoint();
        assert!((mid(&w) - mid(&two)).length() < 1e-4);
        assert!(change_frontage(&two, 7, FrontageFix::Centre, None).is_err());
    }

    #[test]
    fn layouts() {
        let co = line(3, 3, INF);
        let l = UnitLayout::Close(co.clone());
        assert_eq!(l.eyes(), vec![co.unit_rect()]);
        assert_eq!(l.bases().len(), 3);
        let f = UnitLayout::Free(co.base_rects());
        assert_eq!(f.eyes().len(), 3);
    }

    #[test]
    fn moved_formation_keeps_slots() {
        let co = line(3, 3, INF);
        let m = moved(&co, Vec2::new(0.0, 5.0), Vec2::ZERO, 0.0).unwrap();
        assert!(
            (m.base_rects()[0].center() - co.base_rects()[0].center() - Vec2::new(0.0, 5.0))
                .length()
                < 1e-5
        );
    }
}
