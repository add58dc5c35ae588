//! Live play in one process, over loopback: a message that was tampered with, or a wrong join
//! code, is refused and the sender is told why.

mod support;

use sandtable_bfs::Bfs;
use sandtable_remote::live::{Link, Message, Side};
use sandtable_remote::store::Store;
use std::net::TcpListener;
use support::*;

/// A host on a free port, in a thread, with a random player. Returns its address and the
/// thread, whose result is the host's.
fn host(
    code: &str,
    dir: &std::path::Path,
) -> (String, std::thread::JoinHandle<Result<(), String>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let code = code.to_string();
    let dir = dir.to_path_buf();
    let t = std::thread::spawn(move || {
        let mut choose = random_player::<Bfs>(1);
        let mut log = |_: &str| {};
        let mut side = Side::<Bfs> {
            store: Store::new(&dir),
            identity: identities(40)[0].clone(),
            code,
            chooser: &mut choose,
            log: &mut log,
            chat: vec![],
        };
        // One connection is enough for these tests: the host returns when it is refused.
        side.host(&listener, bfs_setup("01-mill-ford-skirmish.ron"))
            .map(|_| ())
    });
    (addr, t)
}

fn hello(link: &mut Link, code: &str, key: &str) {
    let Message::Hello { .. } = link.recv().unwrap() else {
        panic!("the host speaks first")
    };
    link.send(&Message::Hello {
        ruleset: "bfs".into(),
        key: key.into(),
        code: code.into(),
        files: 0,
    })
    .unwrap();
}

#[test]
fn a_tampered_file_is_refused_and_the_sender_told_why() {
    let dir = std::env::temp_dir().join(format!("sandtable-live-t-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (addr, _host) = host("CODE22", &dir);
    let me = identities(40)[1].clone();
    let mut link = Link::connect(&addr).unwrap();
    hello(&mut link, "CODE22", &me.public_hex());
    let Message::File { index: 0, text } = link.recv().unwrap() else {
        panic!("the Start comes first")
    };
    let (_peer, accept) = sandtable_remote::Peer::<Bfs>::accept(
        me,
        "start",
        text.as_bytes(),
        sandtable_remote::Entropy::Os,
    )
    .unwrap();
    // One digit of the nonce changed after signing.
    let mut text = String::from_utf8(accept).unwrap();
    let at = text.find("nonce: Some(\"").unwrap() + "nonce: Some(\"".len();
    let d = text.as_bytes()[at];
    text.replace_range(at..at + 1, if d == b'1' { "2" } else { "1" });
    link.send(&Message::File { index: 1, text }).unwrap();
    match link.recv().unwrap() {
        Message::Refused(why) => assert!(why.contains("bad signature"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_wrong_join_code_is_refused() {
    let dir = std::env::temp_dir().join(format!("sandtable-live-c-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (addr, _host) = host("RIGHT1", &dir);
    let mut link = Link::connect(&addr).unwrap();
    hello(&mut link, "WRONG1", &identities(40)[1].public_hex());
    match link.recv().unwrap() {
        Message::Refused(why) => assert!(why.contains("join code"), "{why}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_host_never_says_its_join_code() {
    let dir = std::env::temp_dir().join(format!("sandtable-live-s-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (addr, _host) = host("SECRET", &dir);
    let mut link = Link::connect(&addr).unwrap();
    let Message::Hello { code, .. } = link.recv().unwrap() else {
        panic!("the host speaks first")
    };
    assert_eq!(
        code, "",
        "a stranger who connects learns nothing to answer with"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
