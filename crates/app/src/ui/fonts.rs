//! The fonts of the panels: egui's own text font first, then DejaVu Sans (assets/fonts,
//! Bitstream Vera licence) for every character it lacks, such as the "→" of the log and the dice
//! panel, and only then egui's emoji fonts, whose arrows drew as empty boxes.

use bevy_egui::egui;

/// DejaVu Sans, the fallback for characters egui's fonts lack.
const FALLBACK: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");

/// The name the fallback font goes by in egui.
pub const FALLBACK_NAME: &str = "DejaVuSans";

/// egui's default fonts with DejaVu Sans second in both families: right after the text font,
/// before the emoji fonts.
pub fn definitions() -> egui::FontDefinitions {
    let mut defs = egui::FontDefinitions::default();
    defs.font_data.insert(
        FALLBACK_NAME.into(),
        std::sync::Arc::new(egui::FontData::from_static(FALLBACK)),
    );
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        let list = defs.families.entry(family).or_default();
        let at = list.len().min(1);
        list.insert(at, FALLBACK_NAME.into());
    }
    defs
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                if !p.ends_with("target") {
                    files(&p, ext, out);
                }
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }

    /// Every character the program can print is in a font the panels have: the help, the
    /// scenarios, the army lists, and the sources of every crate (their narration, menus,
    /// rulings and names; comments too, which costs nothing and leaves no string out).
    #[test]
    fn every_character_the_program_prints_has_a_glyph() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut paths = Vec::new();
        files(&root.join("crates"), "rs", &mut paths);
        files(&root.join("assets"), "ron", &mut paths);
        files(&root.join("scenarios"), "ron", &mut paths);
        assert!(paths.len() > 100, "found only {} files", paths.len());
        let mut chars: BTreeSet<char> = BTreeSet::new();
        for p in &paths {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            chars.extend(text.chars().filter(|c| !c.is_ascii() && !c.is_control()));
        }
        assert!(
            chars.contains(&'→'),
            "the arrow is among the characters checked"
        );
        // egui's own check (`Fonts::has_glyph`) says no for any character of the face that
        // holds its replacement glyph, so the fonts' character maps are read directly.
        let defs = definitions();
        for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
            let faces: Vec<&[u8]> = defs.families[&family]
                .iter()
                .map(|name| defs.font_data[name].font.as_ref())
                .collect();
            let covered = |c: char| {
                faces.iter().any(|bytes| {
                    skrifa::FontRef::new(bytes).is_ok_and(|f| {
                        use skrifa::MetadataProvider;
                        f.charmap().map(c).is_some()
                    })
                })
            };
            let missing: Vec<char> = chars.iter().copied().filter(|c| !covered(*c)).collect();
            assert!(missing.is_empty(), "{family:?} lacks {missing:?}");
            // The arrow is drawn by a text font (DejaVu Sans, or the monospace Hack), not by an
            // emoji font after it: egui takes the first face that has a character.
            let first = defs.families[&family]
                .iter()
                .find(|name| {
                    skrifa::FontRef::new(defs.font_data[*name].font.as_ref()).is_ok_and(|f| {
                        use skrifa::MetadataProvider;
                        f.charmap().map('→').is_some()
                    })
                })
                .cloned();
            assert!(
                first
                    .as_deref()
                    .is_some_and(|f| f == FALLBACK_NAME || f == "Hack"),
                "{family:?}: {first:?}"
            );
        }
    }
}
