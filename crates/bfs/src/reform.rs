//! Re-forming a unit about one base that stays put: the Reform Special Maneuver (BFS-MAN-13)
//! and the closing up of an Open Order unit (BFS-MAN-18/19) both build a Line of some files
//! about an anchor base and send every other base to the nearest free place.

use crate::geo::frame_of;
use crate::scenario_spec::FormationSpec;
use sandtable_geometry::{Pose, Rect, Vec2};

/// The base nearest the middle of the unit's front: the one that stays put.
pub fn anchor(bases: &[Rect]) -> usize {
    let frame = frame_of(bases);
    let front_mid = frame.center() + frame.facing() * frame.half.y;
    (0..bases.len())
        .min_by(|&a, &b| {
            bases[a]
                .center()
                .distance(front_mid)
                .total_cmp(&bases[b].center().distance(front_mid))
        })
        .unwrap_or(0)
}

/// A Line of `files` files (a Column for 1) facing `angle` (radians, the pose angle), with base
/// `anchor` where it stands in the middle of the front rank; the others take the nearest free
/// places, shortest moves first. Returns the bases in rank order and, for each, the index of
/// the base that went there.
pub fn line_about(bases: &[Rect], anchor: usize, files: u8, angle: f32) -> (Vec<Rect>, Vec<usize>) {
    line_with_anchor_at(bases, anchor, files, angle, files as usize / 2)
}

/// As [`line_about`], the anchor taking file `slot` (0 = left) of the front rank.
pub fn line_with_anchor_at(
    bases: &[Rect],
    anchor: usize,
    files: u8,
    angle: f32,
    slot: usize,
) -> (Vec<Rect>, Vec<usize>) {
    let n = bases.len();
    let files = (files as usize).clamp(1, n.max(1));
    let a = Rect::new(Pose::new(bases[anchor].center(), angle), bases[anchor].half);
    let size = a.size();
    let middle = slot.min(files - 1);
    let x_mid = (middle as f32 - (files as f32 - 1.0) * 0.5) * size.x;
    let anchor_front = a.center() + a.facing() * a.half.y;
    let right = Vec2::new(a.facing().y, -a.facing().x);
    let slots = crate::deploy::deployment_rects(
        FormationSpec::Line { files: files as u8 },
        n as u8,
        (size.x, size.y),
        anchor_front - right * x_mid,
        Pose::new(Vec2::ZERO, angle).bearing_deg(),
    );
    let who = nearest_free(bases, &slots, Some((anchor, middle)));
    let from = who.iter().map(|w| w.unwrap_or(0)).collect();
    (slots, from)
}

/// Which base takes each of `places`: `fixed` (base, place) first, then the closest pair of a
/// free base and a free place, again and again, so that the shortest moves are made and a base
/// already standing on a place keeps it. Places left over get `None`.
pub fn nearest_free(
    bases: &[Rect],
    places: &[Rect],
    fixed: Option<(usize, usize)>,
) -> Vec<Option<usize>> {
    let mut who: Vec<Option<usize>> = vec![None; places.len()];
    let mut placed = vec![false; bases.len()];
    if let Some((base, place)) = fixed {
        who[place] = Some(base);
        placed[base] = true;
    }
    loop {
        let mut best: Option<(f32, usize, usize)> = None;
        for (s, slot) in places.iter().enumerate().filter(|(s, _)| who[*s].is_none()) {
            for (i, b) in bases.iter().enumerate().filter(|(i, _)| !placed[*i]) {
                let d = b.center().distance(slot.center());
                if best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some((d, s, i));
                }
            }
        }
        let Some((_, s, i)) = best else {
            return who;
        };
        who[s] = Some(i);
        placed[i] = true;
    }
}
