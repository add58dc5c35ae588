//! The shipped rule help covers every rule ID the program cites, and its cross-references lead
//! somewhere.

use sandtable_engine::help::{RuleHelp, rule_ids_in};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_cited_rule_has_help() {
    let help =
        RuleHelp::load(&root().join("assets/help/bfs-rules.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(help.ruleset, "bfs");
    let mut files = Vec::new();
    sources(&root().join("crates/bfs/src"), &mut files);
    let mut cited = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (_, id) in rule_ids_in(&text) {
            cited.insert(id.to_string());
        }
    }
    let missing: Vec<&String> = cited
        .iter()
        .filter(|id| help.lookup(id).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "rule IDs cited with no help entry (nor a family entry): {missing:?}"
    );
    let ids: BTreeSet<&str> = help.entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids.len(), help.entries.len(), "an id is listed twice");
    for e in &help.entries {
        assert!(
            !e.title.trim().is_empty() && !e.text.trim().is_empty(),
            "{} is empty",
            e.id
        );
        for s in &e.see_also {
            assert!(
                ids.contains(s.as_str()),
                "{} refers to {s}, which has no entry",
                e.id
            );
        }
    }
}
