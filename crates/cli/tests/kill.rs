//! Crash safety of the autosave: the writer the app uses is killed with SIGKILL at random moments
//! (many of them in the middle of a write), again and again, and resumed each time. Every resume
//! loads, no command it had acknowledged is lost, and the temporary files of killed writes are
//! cleaned at the next start.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the writer until killed after `after`; returns the last acknowledged count and hash.
fn run_and_kill(folder: &Path, after: Duration) -> Option<(usize, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
        .current_dir(root())
        .args([
            "autosave-stress",
            "scenarios/02-warka-task-force.ron",
            "--folder",
            folder.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the writer starts");
    let out = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let mut w = line.split_whitespace();
            if w.next() == Some("ack") {
                let n: usize = w.next().unwrap().parse().unwrap();
                let hash = w.next().unwrap().to_string();
                if tx.send((n, hash)).is_err() {
                    break;
                }
            }
        }
    });
    std::thread::sleep(after);
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let _ = reader.join();
    rx.try_iter().last()
}

fn temps_in(f: &Path) -> usize {
    std::fs::read_dir(f)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
                .count()
        })
        .unwrap_or(0)
}

/// What `replay` says of a save: its command count and state hash.
fn replay(save: &Path) -> (usize, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
        .args(["replay", save.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{} does not load: {}",
        save.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    (
        v["commands"].as_u64().unwrap() as usize,
        v["state_hash"].as_str().unwrap().to_string(),
    )
}

#[test]
fn killed_autosaves_lose_no_acknowledged_command() {
    let top = std::env::temp_dir().join(format!("sandtable-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&top);
    // One folder a battle: when a battle has ended, the next round starts another, so every
    // round kills a writer at work.
    let mut battles = 1;
    let mut folder = top.join("battle-1");
    let (mut mid_write, mut live) = (0, 0);
    let rounds: u64 = std::env::var("SANDTABLE_KILL_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(16);
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut acknowledged = 0;
    for round in 0..rounds {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let after = Duration::from_millis(20 + x % 150);
        let acked = run_and_kill(&folder, after);
        if acked.is_some() {
            live += 1;
        } else if acknowledged > 0 {
            // Nothing acknowledged: the battle is over (its autosave is checked below first).
            battles += 1;
        }
        let autosave = folder.join("autosave.ron");
        if !autosave.is_file() {
            assert!(
                acked.is_none(),
                "round {round}: acknowledged but no autosave"
            );
            continue;
        }
        let (n, hash) = replay(&autosave);
        assert!(
            n >= acknowledged,
            "round {round}: the autosave went back from {acknowledged} to {n} commands"
        );
        if let Some((acked_n, acked_hash)) = acked.clone() {
            assert!(
                n >= acked_n,
                "round {round}: {acked_n} commands acknowledged, the autosave holds {n}"
            );
            if n == acked_n {
                assert_eq!(
                    hash, acked_hash,
                    "round {round}: the same commands, another state"
                );
            }
        }
        let temps = temps_in(&folder);
        mid_write += usize::from(temps > 0);
        println!(
            "round {round}: killed after {after:?}, {n} commands saved, last ack {acked:?}, temporary files left: {temps}"
        );
        acknowledged = n;
        if acked.is_none() && n > 0 {
            // Clean this battle's leftovers as its next start would, and begin another.
            run_writer(&folder, 0);
            assert_eq!(temps_in(&folder), 0, "stale temporary files are cleaned");
            folder = top.join(format!("battle-{battles}"));
            acknowledged = 0;
        }
    }
    println!(
        "{rounds} rounds over {battles} battles: {live} kills of a writer at work, {mid_write} in the middle of a write"
    );
    assert!(live > 0, "the writer made progress");
    // A start after the kills cleans what killed writes left behind.
    run_writer(&folder, 0);
    assert_eq!(temps_in(&folder), 0, "stale temporary files are cleaned");
    let _ = std::fs::remove_dir_all(&top);
}

/// Starts the writer on `folder` for `commands` more commands and waits for it.
fn run_writer(folder: &Path, commands: usize) {
    let out = Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
        .current_dir(root())
        .args([
            "autosave-stress",
            "scenarios/02-warka-task-force.ron",
            "--folder",
            folder.to_str().unwrap(),
            "--commands",
            &commands.to_string(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
}
