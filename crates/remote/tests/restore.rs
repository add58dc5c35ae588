//! A side killed at any moment goes on from its kept files and private store: restored after
//! every file it receives or sends, mid-turn too, it plays the battle to the same end.

mod support;

use sandtable_bfs::Bfs;
use sandtable_engine::{Dice, Ruleset};
use sandtable_remote::verify::{NamedFile, verify};
use sandtable_remote::{Entropy, Peer};
use support::*;

/// Plays a battle; seat 1 is restored from its files and private store whenever `restore`
/// says so, at the points named (after receiving, after playing half its commands, after
/// sending). Returns the chain and both sides' final states.
#[derive(Clone, Copy, PartialEq)]
#[allow(dead_code)] // the points are named for the reader
enum Point {
    Received,
    MidTurn,
    Sent,
}

fn battle(seed: u64, restore: impl Fn(usize, Point) -> bool) -> (Vec<NamedFile>, [String; 2]) {
    let [id0, id1] = identities(seed as u8);
    let key1 = id1.clone();
    let mut choose = [random_player::<Bfs>(seed), random_player::<Bfs>(seed + 1)];
    let mut files: Vec<NamedFile> = Vec::new();
    let (p0, start) = Peer::<Bfs>::start(
        id0,
        0,
        bfs_setup("01-mill-ford-skirmish.ron"),
        &key1.public_hex(),
        Entropy::seeded(seed, 0),
    )
    .unwrap();
    files.push(("turn-0000".into(), start.clone()));
    let (p1, accept) =
        Peer::<Bfs>::accept(id1, "turn-0000", &start, Entropy::seeded(seed, 1)).unwrap();
    files.push(("turn-0001".into(), accept.clone()));
    let mut peers = [p0, p1];
    let mut writer = 0;
    let mut step = 0;
    let revive = |peers: &mut [Peer<Bfs>; 2], files: &[NamedFile]| {
        let private = peers[1].private();
        peers[1] = Peer::<Bfs>::restore(key1.clone(), files, private).unwrap();
    };
    loop {
        let (name, bytes) = files.last().unwrap().clone();
        peers[writer].receive(&name, &bytes).unwrap();
        step += 1;
        if writer == 1 && restore(step, Point::Received) {
            revive(&mut peers, &files);
        }
        let mut played = 0;
        while peers[writer].to_play() {
            let view = peers[writer].view().unwrap();
            let seat = peers[writer].seat();
            let cmd = choose[writer](&view, seat).unwrap();
            peers[writer].play(cmd).unwrap();
            played += 1;
            step += 1;
            if writer == 1 && played == 2 && restore(step, Point::MidTurn) {
                // Killed mid-turn: the commands not yet sent come back from the private store.
                revive(&mut peers, &files);
            }
        }
        if !peers[writer].to_write() {
            break;
        }
        let out = peers[writer].write().unwrap();
        files.push((format!("turn-{:04}", files.len()), out));
        step += 1;
        if writer == 1 && restore(step, Point::Sent) {
            revive(&mut peers, &files);
        }
        assert!(files.len() < 5000);
        writer = 1 - writer;
    }
    let whole = |p: &Peer<Bfs>| {
        let mut s = p.ledger().state().unwrap().clone();
        *<Bfs as Ruleset>::dice_mut(&mut s) = Dice::from_seed(0);
        sandtable_engine::session::state_hash(&s)
    };
    assert!(peers[0].done() && peers[1].done());
    (files, [whole(&peers[0]), whole(&peers[1])])
}

#[test]
fn a_side_restored_after_every_step_plays_the_battle_to_the_end() {
    for seed in [21, 22] {
        let (files, [a, b]) = battle(seed, |_, _| true);
        assert_eq!(a, b, "seed {seed}: both sides end with the same battle");
        let v = verify::<Bfs>(&files).unwrap();
        assert!(v.over && v.sealed == 0, "{v:?}");
    }
}

#[test]
fn restoring_at_any_point_changes_nothing() {
    // Restored after receiving, mid-turn or after sending, nothing is lost and no die is drawn
    // anew: the chain is byte for byte the one of a battle never interrupted.
    let (plain, _) = battle(23, |_, _| false);
    let (restored, _) = battle(23, |_, _| true);
    assert_eq!(plain.len(), restored.len());
    for (a, b) in plain.iter().zip(&restored) {
        assert!(a.1 == b.1, "{} differs", a.0);
    }
}
