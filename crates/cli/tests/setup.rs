//! `sandtable-cli setup`: two shipped forces through the pre-battle sequence (BFS-SCN-9) to a
//! scenario that `validate` accepts and `simulate` plays to its end.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("the CLI runs")
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A fresh temporary folder, removed with what the test wrote in it when dropped.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("sandtable-setup-test-")
        .tempdir()
        .expect("temp dir")
}

#[test]
fn setup_turns_two_shipped_forces_into_a_battle_that_validates_and_plays() {
    let dir = scratch();
    let pairs = [
        (
            "assets/forces/polish-border-patrol.ron",
            "assets/forces/swedish-schwelick-column.ron",
            "ai,ai",
        ),
        (
            "assets/forces/swedish-foraging-party.ron",
            "assets/forces/polish-sosinski-banners.ron",
            "random,ai",
        ),
    ];
    for (k, (a, b, players)) in pairs.iter().enumerate() {
        let out = dir.path().join(format!("battle-{k}.ron"));
        let out_s = out.to_str().unwrap();
        let text = ok(&cli(&[
            "setup",
            "--force-a",
            a,
            "--force-b",
            b,
            "--seed",
            &(k + 5).to_string(),
            "--players",
            players,
            "--out",
            out_s,
            "--log",
        ]));
        assert!(text.contains("(BFS-SCN-15)"), "{text}");
        assert!(text.contains("written to"), "{text}");
        ok(&cli(&["validate", out_s]));
        let played = ok(&cli(&[
            "simulate",
            out_s,
            "--players",
            "ai,random",
            "--json",
        ]));
        let v: serde_json::Value = serde_json::from_str(played.trim()).unwrap();
        assert!(v["turns"].as_u64().unwrap() >= 1, "{v}");
    }
}

/// The same forces, seed and players write the same battle.
#[test]
fn setup_is_deterministic() {
    let dir = scratch();
    let run = |name: &str| {
        let out = dir.path().join(name);
        ok(&cli(&[
            "setup",
            "--force-a",
            "assets/forces/polish-sosinski-banners.ron",
            "--force-b",
            "assets/forces/swedish-schwelick-column.ron",
            "--seed",
            "12",
            "--players",
            "random,random",
            "--out",
            out.to_str().unwrap(),
        ]));
        let text = std::fs::read_to_string(&out).unwrap();
        // The header names the output file's inputs, not the file itself.
        text
    };
    assert_eq!(run("same-1.ron"), run("same-2.ron"));
}

/// A force that breaks its card is refused with the rule named, and no file is written; a file
/// of choices that runs out says where.
#[test]
fn setup_refuses_bad_forces_and_short_choice_files() {
    let dir = scratch();
    let bad = dir.path().join("bad-force.ron");
    std::fs::write(
        &bad,
        "SkirmishForce(format: 1, name: \"x\", army_list: \"swedish-1655\", units: [Pick(card: \"reiters\", bases: 3)])\n",
    )
    .unwrap();
    let out = dir.path().join("never.ron");
    let o = cli(&[
        "setup",
        "--force-a",
        bad.to_str().unwrap(),
        "--force-b",
        "assets/forces/swedish-foraging-party.ron",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad-force.ron") && err.contains("BFS-LST-3") && err.contains("musketeers"),
        "{err}"
    );
    assert!(!out.exists());
    let validate = cli(&["validate", bad.to_str().unwrap()]);
    assert!(!validate.status.success());
    assert!(String::from_utf8_lossy(&validate.stdout).contains("BFS-LST-3"));

    let choices = dir.path().join("choices.ron");
    std::fs::write(&choices, "// only the first roll\nRollScenario\n").unwrap();
    let o = cli(&[
        "setup",
        "--force-a",
        "assets/forces/polish-border-patrol.ron",
        "--force-b",
        "assets/forces/swedish-schwelick-column.ron",
        "--players",
        &format!("file:{},ai", choices.display()),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("choices.ron") && err.contains("no choice left"),
        "{err}"
    );
}

/// BFS-OPT-4 from the command line: `--option choice_of_effects` plays Choice of Effects (the
/// record says which effects were chosen, and the battle validates); an unknown optional rule is
/// refused with the names there are.
#[test]
fn setup_plays_an_optional_rule_when_named() {
    let dir = scratch();
    let mut chosen = 0;
    for seed in 1..=12u64 {
        let out = dir.path().join(format!("choice-{seed}.ron"));
        let out_s = out.to_str().unwrap();
        let log = ok(&cli(&[
            "setup",
            "--force-a",
            "assets/forces/swedish-foraging-party.ron",
            "--force-b",
            "assets/forces/swedish-schwelick-column.ron",
            "--seed",
            &seed.to_string(),
            "--option",
            "choice_of_effects",
            "--out",
            out_s,
            "--log",
        ]));
        chosen += log.matches("chosen (BFS-OPT-4)").count();
        ok(&cli(&["validate", out_s]));
    }
    assert!(chosen > 0, "some seed owed three effects or more");
    let o = cli(&[
        "setup",
        "--force-a",
        "assets/forces/swedish-foraging-party.ron",
        "--force-b",
        "assets/forces/swedish-schwelick-column.ron",
        "--option",
        "fortune",
        "--out",
        dir.path().join("never.ron").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("choice_of_effects"), "{err}");
}
