//! `simulate --pbem` and `pbem verify` as a player runs them: a computer battle by email
//! verifies, the same seed writes the same files, and a changed file is refused naming it.

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

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sandtable-pbem-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn files(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .collect();
    v.sort();
    v
}

fn simulate(d: &Path, seed: &str) -> Output {
    cli(&[
        "simulate",
        "scenarios/01-mill-ford-skirmish.ron",
        "--players",
        "ai,random",
        "--seed",
        seed,
        "--pbem",
        d.to_str().unwrap(),
        "--json",
    ])
}

fn verify(files: &[String]) -> Output {
    let mut args = vec!["pbem", "verify", "--complete", "--json"];
    args.extend(files.iter().map(String::as_str));
    cli(&args)
}

#[test]
fn a_computer_battle_by_email_verifies_and_a_changed_file_is_refused() {
    let d = dir("a");
    let o = simulate(&d, "4");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written = files(&d);
    assert!(written.len() > 10);
    let o = verify(&written);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["over"], true);
    assert_eq!(report["sealed"], 0);

    // The same seed writes the same files.
    let d2 = dir("b");
    assert!(simulate(&d2, "4").status.success());
    for (a, b) in written.iter().zip(files(&d2)) {
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(&b).unwrap(), "{a}");
    }

    // One digit changed in the middle of the chain.
    let victim = &written[written.len() / 2];
    let mut bytes = std::fs::read(victim).unwrap();
    let at = bytes.iter().rposition(u8::is_ascii_digit).unwrap();
    bytes[at] = if bytes[at] == b'7' { b'8' } else { b'7' };
    std::fs::write(victim, bytes).unwrap();
    let o = verify(&written);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(victim.as_str()), "names the file: {err}");

    // A file dropped.
    let mut fewer = files(&d2);
    fewer.remove(3);
    let o = verify(&fewer);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("out of order"));
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_dir_all(&d2);
}
