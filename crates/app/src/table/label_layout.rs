//! Where the names go on the table so that none covers another or a base (issue 19: at Task Force
//! scale the names ran into each other).
//!
//! Labels keep their size on screen, so their size on the table changes with the zoom and the
//! layout is made again whenever the view changes. It is greedy: the labels with fewest spots
//! open to them go first (a long name at the table's edge), the rest in a fixed order (terrain
//! names, then units, then leaders), and each takes the first of its candidate spots (the
//! ruleset's own spot first, then below and above its piece, centred or flush with either end,
//! then beside it, then a row further out, then the corners)
//! where it covers no base and no label already placed: whole at its own spot or centred below or
//! above, then those three cut to its first words with an ellipsis, then the rest; one with no free spot is hidden until its piece is hovered
//! or selected. Pure arithmetic on boxes, so it is tested headless.

use bevy::math::Vec2;

/// Approximate box of a label of `chars` characters at `font_px`, in logical pixels. The bundled
/// sans font averages a little over half an em per character.
pub fn text_box_px(chars: usize, font_px: f32) -> Vec2 {
    Vec2::new(chars as f32 * font_px * 0.56 + 4.0, font_px * 1.25)
}

/// One label to place.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelRequest {
    /// The ruleset's spot for its middle, table cm.
    pub at: Vec2,
    /// The box of its piece (`lo`, `hi`), table cm; `None` for a label that stays at `at`.
    pub around: Option<(Vec2, Vec2)>,
    /// Its size on screen, logical pixels.
    pub size_px: Vec2,
    /// The size of its shortened form ([`shorten`]), tried where the whole name fits nowhere.
    pub short_px: Option<Vec2>,
}

/// A name cut to its first words, at most `max` characters, with an ellipsis (or to its longest
/// word, when the first words are only a title such as "Col."); `None` when it is short enough
/// already.
pub fn shorten(text: &str, max: usize) -> Option<String> {
    if text.chars().count() <= max {
        return None;
    }
    let mut out = String::new();
    for w in text.split_whitespace() {
        let next = if out.is_empty() {
            w.to_string()
        } else {
            format!("{out} {w}")
        };
        if next.chars().count() + 1 > max {
            break;
        }
        out = next;
    }
    // Not ending on a particle ("Reiters of the…").
    const PARTICLES: [&str; 9] = ["of", "the", "von", "van", "de", "du", "la", "le", "and"];
    let particle = |w: &str| PARTICLES.contains(&w);
    while out.contains(' ') && out.rsplit(' ').next().is_some_and(particle) {
        if let Some(i) = out.rfind(' ') {
            out.truncate(i);
        }
    }
    // A title alone ("Col.", "Col. von") names nobody: keep the longest word instead (the
    // family name).
    let only_titles = out
        .split_whitespace()
        .all(|w| w.ends_with('.') || particle(w));
    if out.chars().count() < 6 || only_titles {
        let longest = text
            .split_whitespace()
            .max_by_key(|w| w.chars().count())
            .unwrap_or(text);
        return Some(if longest.chars().count() <= max {
            longest.to_string()
        } else {
            format!(
                "{}…",
                longest
                    .chars()
                    .take(max.saturating_sub(1))
                    .collect::<String>()
            )
        });
    }
    Some(format!("{out}…"))
}

/// Axis-aligned box `(lo, hi)`, table cm.
pub type Box2 = (Vec2, Vec2);

fn overlaps(a: &Box2, b: &Box2) -> bool {
    a.0.x < b.1.x && b.0.x < a.1.x && a.0.y < b.1.y && b.0.y < a.1.y
}

/// The spots tried for a label of half-size `h` around the box `(lo, hi)`, best first.
fn candidates(r: &LabelRequest, h: Vec2, gap: f32) -> Vec<Vec2> {
    let mut v = vec![r.at];
    if let Some((lo, hi)) = r.around {
        let c = (lo + hi) * 0.5;
        let below = lo.y - h.y - gap;
        let above = hi.y + h.y + gap;
        let right = hi.x + h.x + gap;
        let left = lo.x - h.x - gap;
        // Flush with the piece's left or right end: still plainly its name.
        let (flush_left, flush_right) = (lo.x + h.x, hi.x - h.x);
        v.extend([
            Vec2::new(c.x, below),
            Vec2::new(flush_left, below),
            Vec2::new(flush_right, below),
            Vec2::new(c.x, above),
            Vec2::new(flush_left, above),
            Vec2::new(flush_right, above),
            Vec2::new(right, c.y),
            Vec2::new(left, c.y),
            Vec2::new(c.x, below - 2.0 * h.y - gap),
            Vec2::new(c.x, above + 2.0 * h.y + gap),
            Vec2::new(right, below),
            Vec2::new(left, below),
            Vec2::new(right, above),
            Vec2::new(left, above),
        ]);
    }
    v
}

/// Where a label went: its middle, and whether it is the shortened form.
pub type Spot = (Vec2, bool);

/// The middle of each label (and whether shortened), or `None` where no spot is free; `blockers` are the boxes labels
/// must not cover (bases, leaders, markers), `within` the box a moved label must stay inside (the
/// table), `px_per_cm` the zoom. A label at the ruleset's own spot is not held to `within`.
pub fn layout(
    requests: &[LabelRequest],
    blockers: &[Box2],
    within: Box2,
    px_per_cm: f32,
) -> Vec<Option<Spot>> {
    let px = px_per_cm.max(1e-3);
    let gap = 2.0 / px;
    let inside = |r: &LabelRequest, c: Vec2, b: &Box2| {
        c == r.at
            || (b.0.x >= within.0.x
                && b.0.y >= within.0.y
                && b.1.x <= within.1.x
                && b.1.y <= within.1.y)
    };
    // Each label's tries, best first: every spot whole, then shortened, so that a crowded name
    // stays by its piece in short rather than wandering off whole; only those on the table and
    // covering no base.
    let tries: Vec<Vec<(Vec2, bool, Box2)>> = requests
        .iter()
        .map(|r| {
            let mut v = Vec::new();
            let whole = candidates(r, r.size_px * 0.5 / px, gap);
            let short = r.short_px.map(|s| candidates(r, s * 0.5 / px, gap));
            let mut push = |k: usize, shortened: bool| {
                if shortened {
                    if let (Some(sp), Some(size)) = (&short, r.short_px) {
                        let h = size * 0.5 / px;
                        v.push((sp[k], true, (sp[k] - h, sp[k] + h)));
                    }
                } else {
                    let h = r.size_px * 0.5 / px;
                    v.push((whole[k], false, (whole[k] - h, whole[k] + h)));
                }
            };
            // Whole at its own spot or centred below or above; then the same shortened; then
            // every other spot, whole before short.
            let first: Vec<usize> = [0, 1, 4].into_iter().filter(|&k| k < whole.len()).collect();
            for &k in &first {
                push(k, false);
            }
            for &k in &first {
                push(k, true);
            }
            for k in (0..whole.len()).filter(|k| !first.contains(k)) {
                push(k, false);
                push(k, true);
            }
            v.retain(|(c, _, b)| inside(r, *c, b) && !blockers.iter().any(|p| overlaps(b, p)));
            v
        })
        .collect();
    // The most hemmed-in first (a long name at the table's edge has few spots), then in order.
    let mut turn: Vec<usize> = (0..requests.len()).collect();
    turn.sort_by_key(|&i| tries[i].len().min(3));
    let mut placed: Vec<Box2> = Vec::with_capacity(requests.len());
    let mut out = vec![None; requests.len()];
    for i in turn {
        if let Some((c, short, b)) = tries[i]
            .iter()
            .find(|(_, _, b)| !placed.iter().any(|p| overlaps(b, p)))
        {
            placed.push(*b);
            out[i] = Some((*c, *short));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_at(x: f32, y: f32, chars: usize) -> (LabelRequest, Box2) {
        let (lo, hi) = (Vec2::new(x - 6.0, y), Vec2::new(x + 6.0, y + 3.0));
        (
            LabelRequest {
                at: Vec2::new(x, y - 1.5),
                around: Some((lo, hi)),
                size_px: text_box_px(chars, 13.0),
                short_px: None,
            },
            (lo, hi),
        )
    }

    /// A row of units 14 cm apart with long names at a zoom where each name is wider than the
    /// gap: no two placed labels overlap, none covers a base, and most find a spot.
    #[test]
    fn names_in_a_crowded_row_never_overlap() {
        let (reqs, bases): (Vec<_>, Vec<_>) = (0..8)
            .map(|k| unit_at(10.0 + 14.0 * k as f32, 20.0, 24))
            .unzip();
        let px = 5.0;
        let table = (Vec2::new(0.0, 0.0), Vec2::new(130.0, 60.0));
        let out = layout(&reqs, &bases, table, px);
        let boxes: Vec<Box2> = reqs
            .iter()
            .zip(&out)
            .filter_map(|(r, c)| {
                c.map(|(c, _)| (c - r.size_px * 0.5 / px, c + r.size_px * 0.5 / px))
            })
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                assert!(!overlaps(a, b), "{a:?} {b:?}");
            }
            for b in &bases {
                assert!(!overlaps(a, b), "label {a:?} on base {b:?}");
            }
        }
        assert!(out.iter().filter(|c| c.is_some()).count() >= 6, "{out:?}");
        // Zoomed in, every name fits at the ruleset's own spot.
        for (r, c) in reqs.iter().zip(&out) {
            if let Some((c, _)) = c.filter(|c| c.0 != r.at) {
                let h = r.size_px * 0.5 / px;
                assert!(
                    c.x - h.x >= 0.0 && c.x + h.x <= 130.0,
                    "moved labels stay on the table"
                );
            }
        }
        let near = layout(&reqs, &bases, table, 40.0);
        assert!(
            near.iter()
                .zip(&reqs)
                .all(|(c, r)| *c == Some((r.at, false))),
            "{near:?}"
        );
    }

    #[test]
    fn long_names_shorten_at_a_word() {
        assert_eq!(
            shorten("Finnish horse of the rearguard", 16).as_deref(),
            Some("Finnish horse…")
        );
        assert_eq!(shorten("Pike company", 16), None);
        assert_eq!(shorten("Wojniłłowiczowski", 8).as_deref(), Some("Wojniłł…"));
        assert_eq!(
            shorten("Col. Wołodyjowski", 16).as_deref(),
            Some("Wołodyjowski")
        );
    }

    /// A label with nowhere to go is hidden rather than drawn on another.
    #[test]
    fn a_label_with_no_free_spot_is_hidden() {
        let (a, base_a) = unit_at(10.0, 10.0, 10);
        let wall = (Vec2::new(-100.0, -100.0), Vec2::new(100.0, 100.0));
        let table = (Vec2::splat(-200.0), Vec2::splat(200.0));
        let out = layout(&[a], &[base_a, wall], table, 10.0);
        assert_eq!(out, vec![None]);
    }
}
