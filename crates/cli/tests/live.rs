//! Two CLI peers play a whole battle over loopback; the joiner, killed mid-battle and started
//! again on its kept files, resumes with the same state and the battle ends the same on both
//! sides, its chain complete.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn spawn(args: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
        .current_dir(root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the CLI runs");
    let out: ChildStdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// Lines until one satisfies `want` (all of them returned), or a minute passes.
fn until(rx: &mpsc::Receiver<String>, want: impl Fn(&str) -> bool) -> Vec<String> {
    let mut seen = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no line came; so far: {seen:#?}"));
        let done = want(&line);
        seen.push(line);
        if done {
            return seen;
        }
    }
}

fn hash_in(line: &str) -> String {
    line.rsplit("public hash ")
        .next()
        .unwrap()
        .trim_end_matches(')')
        .to_string()
}

#[test]
fn two_peers_play_over_loopback_and_a_killed_joiner_resumes() {
    let tmp = std::env::temp_dir().join(format!("sandtable-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let s = |n: &str| tmp.join(n).display().to_string();
    let (mut host, host_out) = spawn(&[
        "host",
        "scenarios/01-mill-ford-skirmish.ron",
        "--bind",
        "127.0.0.1:0",
        "--code",
        "K7Q2ZD",
        "--player",
        "random",
        "--state",
        &s("host"),
        "--identity",
        &s("host.key"),
    ]);
    let lines = until(&host_out, |l| l.starts_with("listening on "));
    let addr = lines.last().unwrap()["listening on ".len()..].to_string();
    let join_args = [
        "join",
        addr.as_str(),
        "--code",
        "K7Q2ZD",
        "--player",
        "random",
        "--state",
        &s("join"),
        "--identity",
        &s("join.key"),
    ];
    let (mut joiner, join_out) = spawn(&join_args);
    let before = until(&join_out, |l| l.starts_with("received file #12 "));
    joiner.kill().unwrap();
    joiner.wait().unwrap();
    let last_hash = before
        .iter()
        .rev()
        .find(|l| l.contains("public hash") && !l.ends_with("-)"))
        .map(|l| hash_in(l));

    let (mut joiner, join_out) = spawn(&join_args);
    let resumed = until(&join_out, |l| l.starts_with("resumed from "));
    let resumed_line = resumed.last().unwrap();
    if let Some(h) = &last_hash {
        let kept: usize = resumed_line["resumed from ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        // Killed after a file was kept and before it was logged, the restart holds one more.
        if kept == 13 {
            assert_eq!(&hash_in(resumed_line), h, "resumed with the state it had");
        }
    }
    let join_end = until(&join_out, |l| l.starts_with("done: "));
    let host_end = until(&host_out, |l| l.starts_with("done: "));
    assert!(joiner.wait().unwrap().success());
    assert!(host.wait().unwrap().success());
    let (j, h) = (join_end.last().unwrap(), host_end.last().unwrap());
    assert_eq!(
        hash_in(j),
        hash_in(h),
        "both sides end with the same battle"
    );
    assert!(
        host_end.iter().any(|l| l.starts_with("connection lost")),
        "{host_end:#?}"
    );

    // Both sides kept the same chain, and it is a complete battle.
    let chain = |side: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(tmp.join(side).join("chain"))
            .unwrap()
            .map(|e| e.unwrap().path().display().to_string())
            .collect();
        v.sort();
        v
    };
    let (hc, jc) = (chain("host"), chain("join"));
    assert_eq!(hc.len(), jc.len());
    for (a, b) in hc.iter().zip(&jc) {
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
    }
    let mut args = vec!["pbem", "verify", "--complete"];
    args.extend(hc.iter().map(String::as_str));
    let o = Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
        .current_dir(root())
        .args(&args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = std::fs::remove_dir_all(&tmp);
}
