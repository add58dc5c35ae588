//! A live battle between two players of the app over loopback, in one process: the host's
//! "Waiting for a player", the joiner's connection, the battle on both screens, commands and
//! files passed by the connection threads, chat; the joiner closes the app mid-battle and
//! resumes it, connecting again; both sides end with the same battle.

use sandtable_app::battle::Battle;
use sandtable_app::paths::DataPaths;
use sandtable_app::remote;
use sandtable_app::rulesets::{RemoteRulesets, Rulesets};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn as_player(key: &Path) {
    // One test in this file: nothing else reads the environment meanwhile.
    unsafe { std::env::set_var("SANDTABLE_IDENTITY", key) };
}

#[test]
fn two_players_of_the_app_play_live_over_loopback() {
    let tmp = std::env::temp_dir().join(format!("sandtable-app-live-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    unsafe { std::env::set_var("SANDTABLE_REMOTE_DIR", tmp.join("remote")) };
    let paths = DataPaths::under(&root());
    let (rulesets, remotes) = (Rulesets::default(), RemoteRulesets::default());
    let scenario = root().join("scenarios/01-mill-ford-skirmish.ron");

    as_player(&tmp.join("host.key"));
    let mut host =
        remote::host(&remotes, &rulesets, &scenario, &paths.dirs, "127.0.0.1:0").unwrap();
    let port: String = host
        .status
        .split("port ")
        .nth(1)
        .unwrap()
        .split(':')
        .next()
        .unwrap()
        .into();
    as_player(&tmp.join("join.key"));
    let mut join = remote::join(&format!("127.0.0.1:{port}"), &host.code.clone()).unwrap();

    // Both settle into a battle.
    let since = Instant::now();
    let (mut a, mut b): (Option<Battle>, Option<Battle>) = (None, None);
    while a.is_none() || b.is_none() {
        assert!(
            since.elapsed() < Duration::from_secs(20),
            "host: {} / join: {}",
            host.status,
            join.status
        );
        if a.is_none() {
            as_player(&tmp.join("host.key"));
            a = remote::settle(&mut host, &remotes, &rulesets, &paths.dirs).map(Result::unwrap);
        }
        if b.is_none() {
            as_player(&tmp.join("join.key"));
            b = remote::settle(&mut join, &remotes, &rulesets, &paths.dirs).map(Result::unwrap);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut sides = [a.unwrap(), b.unwrap()];
    sides[1]
        .remote
        .as_ref()
        .unwrap()
        .lock()
        .pump
        .as_ref()
        .unwrap()
        .send(sandtable_remote::live::Message::Chat("good luck".into()));

    let mut x: u64 = 99;
    let since = Instant::now();
    let done = |b: &Battle| b.remote.as_ref().unwrap().lock().handle.done();
    let files = |b: &Battle| b.remote.as_ref().unwrap().lock().handle.file_count();
    let mut resumed = false;
    while !(done(&sides[0]) && done(&sides[1])) {
        if !resumed && files(&sides[1]) >= 10 {
            // The joiner closes the app mid-battle and comes back: the battle resumes from its
            // folder and connects to the host again.
            resumed = true;
            let folder = sides[1].remote_folder().unwrap();
            let before = files(&sides[1]);
            as_player(&tmp.join("join.key"));
            let again = remote::resume(&remotes, &folder).unwrap();
            sides[1] = again;
            assert_eq!(files(&sides[1]), before, "nothing kept was lost");
            assert!(
                sides[1].remote.as_ref().unwrap().lock().pump.is_some(),
                "it connects live again"
            );
        }
        assert!(
            since.elapsed() < Duration::from_secs(60),
            "the battle did not end"
        );
        for side in sides.iter_mut() {
            side.remote_poll(false);
        }
        let mover = (0..2).find(|&i| sides[i].remote.as_ref().unwrap().lock().handle.to_play());
        if let Some(i) = mover {
            let c = sides[i].game.candidates(i as u8);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let cmd = c[(x % c.len() as u64) as usize].clone();
            sides[i].submit(&cmd).unwrap();
        } else {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let public = |b: &Battle| b.remote.as_ref().unwrap().lock().handle.public_hash();
    assert!(public(&sides[0]).is_some());
    assert_eq!(public(&sides[0]), public(&sides[1]));
    assert!(resumed, "the joiner was resumed mid-battle");
    let chat = sides[0].remote.as_ref().unwrap().lock().chat.clone();
    assert_eq!(chat, vec![(false, "good luck".to_string())]);
    let _ = std::fs::remove_dir_all(&tmp);
}
