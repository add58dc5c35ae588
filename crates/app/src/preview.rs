//! A scenario's thumbnail for the start screen: its table, terrain and the pieces both sides may
//! see at the start, in plain shapes. Only what every seat sees is kept, so the start screen,
//! which both players of a hot-seat battle look at, shows no secret.

use sandtable_engine::present::TableScene;
use sandtable_engine::scenario::TerrainKind;
use sandtable_geometry::Vec2;

/// What the thumbnail draws, in table centimetres.
#[derive(Debug, Clone, PartialEq)]
pub struct Preview {
    /// Width and depth of the table.
    pub size: Vec2,
    pub terrain: Vec<(TerrainKind, Vec<Vec2>)>,
    /// Each base's corners, with its side.
    pub bases: Vec<(u8, [Vec2; 4])>,
}

impl Preview {
    /// The pieces of `a` that `b` sees too (by scenario key), with `a`'s table and terrain.
    pub fn public(a: &TableScene, b: &TableScene) -> Self {
        let both = |key: &str| b.pieces.iter().any(|p| p.key == key);
        Self {
            size: a.size,
            terrain: a
                .terrain
                .iter()
                .flat_map(|t| t.polygons.iter().map(|p| (t.kind, p.clone())))
                .collect(),
            bases: a
                .pieces
                .iter()
                .filter(|p| both(&p.key))
                .flat_map(|p| p.bases.iter().map(|r| (p.side, r.ccw_corners())))
                .collect(),
        }
    }
}

/// The first sentence of a briefing (up to `max` characters, cut at a word), for the list.
pub fn one_line(briefing: &str, max: usize) -> String {
    let text = briefing.split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = match text.find(". ") {
        Some(i) => &text[..=i],
        None => text.as_str(),
    };
    if sentence.chars().count() <= max {
        return sentence.to_string();
    }
    let mut out = String::new();
    for w in sentence.split(' ') {
        if out.chars().count() + w.chars().count() + 2 > max {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_line_description_is_the_first_sentence_cut_at_a_word() {
        assert_eq!(
            one_line("Hold the ford.  The Swedes come at dawn.", 80),
            "Hold the ford."
        );
        assert_eq!(
            one_line(
                "A long march through the marshes of Podlasie in the rain",
                30
            ),
            "A long march through the…"
        );
    }
}
