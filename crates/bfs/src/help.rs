//! The program's own plain-language help for the rules it cites (`assets/help/bfs-rules.ron`):
//! clicking a rule ID on a roll, a modifier or a refusal opens its entry. Written for Sandtable;
//! the digests in `shared/rules` are the reference, not text to show.

use sandtable_engine::{LoadError, data_file};
use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename = "RuleHelp")]
pub struct RuleHelp {
    pub format: u32,
    pub ruleset: String,
    pub entries: Vec<HelpEntry>,
}

/// One rule's help, or a family's ("BFS-SHO") for the rules without their own.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename = "Entry")]
pub struct HelpEntry {
    pub id: String,
    pub title: String,
    pub text: String,
    #[serde(default)]
    pub see_also: Vec<String>,
}

impl RuleHelp {
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        data_file::read_ron(path)
    }

    /// The entry for `id`, or its family's (`BFS-SHO-14` → `BFS-SHO`).
    pub fn lookup(&self, id: &str) -> Option<&HelpEntry> {
        self.entries.iter().find(|e| e.id == id).or_else(|| {
            let family = id.rsplit_once('-').map(|(f, _)| f)?;
            self.entries.iter().find(|e| e.id == family)
        })
    }
}

/// Rule IDs (`BFS-SHO-14`, `BFS-DICE-4`) in a text, with their byte ranges, in order.
pub fn rule_ids_in(text: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(pos) = text[i..].find("BFS-") {
        let start = i + pos;
        let mut end = start + 4;
        let letters = bytes[end..]
            .iter()
            .take_while(|b| b.is_ascii_uppercase())
            .count();
        end += letters;
        if letters > 0 && bytes.get(end) == Some(&b'-') {
            let digits = bytes[end + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits > 0 {
                end += 1 + digits;
                out.push((start..end, &text[start..end]));
                i = end;
                continue;
            }
        }
        i = start + 4;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_rule_ids_in_text() {
        let found: Vec<&str> =
            rule_ids_in("needs 4 (BFS-SHO-14), see BFS-DICE-4 and BFS-X or BFS-CC-")
                .into_iter()
                .map(|x| x.1)
                .collect();
        assert_eq!(found, ["BFS-SHO-14", "BFS-DICE-4"]);
    }
}
