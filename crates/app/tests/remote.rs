//! A battle by email between two players of the app, in one process: each side's battle as
//! the screen holds it, commands submitted as a person would, turn files exported and
//! imported. Undo stays local and never crosses a file sent; a changed file is refused; both
//! sides end with the same battle and the chain verifies.

use sandtable_app::battle::{Battle, SeatKind};
use sandtable_app::paths::DataPaths;
use sandtable_app::remote;
use sandtable_app::rulesets::{RemoteRulesets, Rulesets};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Sets whose identity the next battle is made with.
fn as_player(key: &Path) {
    // One test in this file: nothing else reads the environment meanwhile.
    unsafe { std::env::set_var("SANDTABLE_IDENTITY", key) };
}

fn exported(b: &Battle) -> PathBuf {
    b.remote
        .as_ref()
        .unwrap()
        .lock()
        .exported
        .clone()
        .expect("a file was written")
}

fn count(b: &Battle) -> usize {
    b.remote.as_ref().unwrap().lock().handle.file_count()
}

#[test]
fn two_players_of_the_app_play_a_battle_by_email() {
    let tmp = std::env::temp_dir().join(format!("sandtable-app-remote-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    unsafe { std::env::set_var("SANDTABLE_REMOTE_DIR", tmp.join("remote")) };
    let paths = DataPaths::under(&root());
    let (rulesets, remotes) = (Rulesets::default(), RemoteRulesets::default());
    let scenario = root().join("scenarios/01-mill-ford-skirmish.ron");
    let (key_a, key_b) = (tmp.join("a.key"), tmp.join("b.key"));
    as_player(&key_b);
    let b_public = remote::identity().unwrap().public_hex();

    // A offers the battle; B opens the file and accepts.
    as_player(&key_a);
    let mut a =
        remote::start_by_email(&remotes, &rulesets, &scenario, &paths.dirs, 0, &b_public).unwrap();
    assert_eq!(a.seats, [SeatKind::Human, SeatKind::Remote]);
    assert!(a.coach.is_none(), "no coach against another person");
    assert!(
        a.screen_refusal().is_some(),
        "nothing to do before the other side accepts"
    );
    as_player(&key_b);
    let b = remote::open_turn_file(&remotes, &exported(&a)).unwrap();
    assert_eq!(b.seats, [SeatKind::Remote, SeatKind::Human]);

    // A changed file is refused, with the reason on A's card, and nothing changes.
    let mut forged = std::fs::read(exported(&b)).unwrap();
    let at = forged.iter().rposition(u8::is_ascii_digit).unwrap();
    forged[at] = if forged[at] == b'3' { b'4' } else { b'3' };
    a.remote_import("forged.ron", &forged);
    assert!(
        a.notice.as_deref().unwrap_or("").contains("Refused"),
        "{:?}",
        a.notice
    );
    assert_eq!(count(&a), 1);

    // By the inbox: a refused file is read once, not refused again every second; the right file
    // saved over it is read.
    let inbox = a.remote_folder().unwrap().join("turn-0001.ron");
    std::fs::write(&inbox, &forged).unwrap();
    a.notice = None;
    a.remote_poll(true);
    assert!(
        a.notice.as_deref().unwrap_or("").contains("Refused"),
        "{:?}",
        a.notice
    );
    a.notice = None;
    a.remote_poll(true);
    assert_eq!(a.notice, None, "the same refused file is not read again");
    std::fs::copy(exported(&b), &inbox).unwrap();
    a.remote_poll(true);
    assert_eq!(
        count(&a),
        2,
        "the other player's file saved into the folder is read"
    );

    let mut sides = [a, b];
    let mut undone = 0;
    let mut x: u64 = 12345;
    for _ in 0..5000 {
        let mover = (0..2).find(|&i| sides[i].remote.as_ref().unwrap().lock().handle.to_play());
        match mover {
            Some(i) => {
                let seat = i as u8;
                let c = sides[i].game.candidates(seat);
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let cmd = c[(x % c.len() as u64) as usize].clone();
                let before = count(&sides[i]);
                sides[i].submit(&cmd).unwrap();
                // Undo: only while the command is this side's and unsent.
                if sides[i].undo_offer().is_some() && undone < 3 {
                    let n = sides[i].game.len();
                    assert!(sides[i].undo());
                    assert_eq!(sides[i].game.len(), n - 1);
                    undone += 1;
                    continue;
                }
                if count(&sides[i]) > before {
                    // The file just written cannot be taken back.
                    assert!(sides[i].undo_offer().is_none());
                    let file = std::fs::read(exported(&sides[i])).unwrap();
                    let name = exported(&sides[i]).display().to_string();
                    sides[1 - i].remote_import(&name, &file);
                    assert!(
                        sides[1 - i]
                            .notice
                            .as_deref()
                            .is_none_or(|n| !n.contains("Refused")),
                        "{:?}",
                        sides[1 - i].notice
                    );
                }
            }
            None => {
                // Nobody plays: a side owes a file (openings), or the battle is done.
                let owed = (0..2).find(|&i| count(&sides[i]) > count(&sides[1 - i]));
                match owed {
                    Some(i) => {
                        let file = std::fs::read(exported(&sides[i])).unwrap();
                        sides[1 - i].remote_import("file", &file);
                    }
                    None => break,
                }
            }
        }
    }
    assert!(undone > 0, "undo was tried");
    let done = |b: &Battle| b.remote.as_ref().unwrap().lock().handle.done();
    assert!(
        done(&sides[0]) && done(&sides[1]),
        "the battle ended on both sides"
    );
    let public = |b: &Battle| b.remote.as_ref().unwrap().lock().handle.public_hash();
    assert!(public(&sides[0]).is_some());
    assert_eq!(
        public(&sides[0]),
        public(&sides[1]),
        "the same battle on both sides"
    );
    assert_eq!(sides[0].game.len(), sides[1].game.len());

    // A's kept chain verifies as a complete battle.
    let folder = sides[0].remote_folder().unwrap().join("chain");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (p.display().to_string(), std::fs::read(&p).unwrap())
        })
        .collect();
    files.sort();
    let v = remotes.0[0].verify(&files).unwrap();
    assert!(v.over && v.sealed == 0, "{v:?}");
    let _ = std::fs::remove_dir_all(&tmp);
}
