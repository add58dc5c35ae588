//! The program's own plain-language help for the rules a ruleset cites (`assets/help/*.ron`):
//! clicking a rule ID on a roll, a modifier or a refusal opens its entry. Each ruleset ships its
//! own file; the digests in `shared/rules` are the reference, not text to show.

use crate::{LoadError, data_file};
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

    /// Several rulesets' help as one book (rule IDs never clash: each has its own prefix).
    pub fn merge(books: impl IntoIterator<Item = RuleHelp>) -> Self {
        let mut out = RuleHelp {
            format: 1,
            ruleset: String::new(),
            entries: Vec::new(),
        };
        for b in books {
            out.entries.extend(b.entries);
        }
        out
    }

    /// The entry for `id`, or its family's (`BFS-SHO-14` → `BFS-SHO`).
    pub fn lookup(&self, id: &str) -> Option<&HelpEntry> {
        self.entries.iter().find(|e| e.id == id).or_else(|| {
            let family = id.rsplit_once('-').map(|(f, _)| f)?;
            self.entries.iter().find(|e| e.id == family)
        })
    }

    /// Entries whose ID, title or text holds every word of `query` (case-insensitive), IDs
    /// matching first.
    pub fn search(&self, query: &str) -> Vec<&HelpEntry> {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        if words.is_empty() {
            return self.entries.iter().collect();
        }
        let mut hits: Vec<(u8, &HelpEntry)> = self
            .entries
            .iter()
            .filter_map(|e| {
                let hay = format!("{} {} {}", e.id, e.title, e.text).to_lowercase();
                words.iter().all(|w| hay.contains(w)).then(|| {
                    let id_hit = words.iter().any(|w| e.id.to_lowercase().contains(w));
                    (u8::from(!id_hit), e)
                })
            })
            .collect();
        hits.sort_by_key(|h| h.0);
        hits.into_iter().map(|h| h.1).collect()
    }
}

/// Rule IDs (`BFS-SHO-14`, `NQ-FIRE-2`, `C7-CMD-3`) in a text, with their byte ranges, in order:
/// a prefix of one to four capitals or digits starting with a capital, a family of capitals, and
/// a number, at the start of a word.
pub fn rule_ids_in(text: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let word_start = i == 0 || !b[i - 1].is_ascii_alphanumeric();
        if word_start
            && b[i].is_ascii_uppercase()
            && let Some(end) = rule_id_end(b, i)
        {
            out.push((i..end, &text[i..end]));
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

/// Where a rule ID starting at `start` ends, if one does.
fn rule_id_end(b: &[u8], start: usize) -> Option<usize> {
    let run = |from: usize, ok: fn(u8) -> bool| b[from..].iter().take_while(|c| ok(**c)).count();
    let prefix = run(start, |c| c.is_ascii_uppercase() || c.is_ascii_digit());
    if !(1..=4).contains(&prefix) {
        return None;
    }
    let mut at = start + prefix;
    (b.get(at) == Some(&b'-')).then_some(())?;
    at += 1;
    let family = run(at, |c| c.is_ascii_uppercase());
    (family > 0).then_some(())?;
    at += family;
    (b.get(at) == Some(&b'-')).then_some(())?;
    at += 1;
    let digits = run(at, |c| c.is_ascii_digit());
    (digits > 0).then_some(())?;
    at += digits;
    // "BFS-SHO-14a" or "BFS-SHO-14-2" are not IDs of ours: stop at a word end.
    (!b.get(at).is_some_and(|c| c.is_ascii_alphanumeric())).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_rule_ids_of_every_ruleset_in_text() {
        let found: Vec<&str> = rule_ids_in(
            "needs 4 (BFS-SHO-14), see BFS-DICE-4 and NQ-FIRE-2, C7-CMD-3; not BFS-X, BFS-CC-, AMB-6 or xBFS-CC-1",
        )
        .into_iter()
        .map(|x| x.1)
        .collect();
        assert_eq!(found, ["BFS-SHO-14", "BFS-DICE-4", "NQ-FIRE-2", "C7-CMD-3"]);
    }

    #[test]
    fn search_finds_by_words_ids_first() {
        let help = RuleHelp {
            format: 1,
            ruleset: "x".into(),
            entries: vec![
                HelpEntry {
                    id: "X-A-1".into(),
                    title: "Charges".into(),
                    text: "About shooting at chargers.".into(),
                    see_also: vec![],
                },
                HelpEntry {
                    id: "X-SHO-2".into(),
                    title: "Shooting".into(),
                    text: "Dice per base.".into(),
                    see_also: vec![],
                },
            ],
        };
        let ids: Vec<&str> = help.search("sho").iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["X-SHO-2", "X-A-1"]);
        assert!(help.search("dice base").len() == 1);
    }
}
