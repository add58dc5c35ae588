//! Play by email end to end: two sides, each with its own knowledge, play a battle through turn
//! files; the chain verifies; both sides end with the same battle.

mod support;

use sandtable_bfs::Bfs;
use sandtable_engine::session::state_hash;
use sandtable_engine::{Dice, Ruleset};
use sandtable_remote::Entropy;
use sandtable_remote::play_out::play_out;
use sandtable_remote::verify::{NamedFile, verify};
use support::*;

fn battle(seed: u64) -> (Vec<NamedFile>, [sandtable_remote::Peer<Bfs>; 2]) {
    let mut files = Vec::new();
    let mut a = random_player::<Bfs>(seed);
    let mut b = random_player::<Bfs>(seed + 1000);
    let peers = play_out::<Bfs>(
        bfs_setup("01-mill-ford-skirmish.ron"),
        identities(seed as u8),
        [Entropy::seeded(seed, 0), Entropy::seeded(seed, 1)],
        [&mut a, &mut b],
        |i, _, bytes| files.push((format!("turn-{i:04}.ron"), bytes.to_vec())),
    )
    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    (files, peers)
}

#[test]
fn a_random_battle_by_email_ends_the_same_on_both_sides_and_verifies() {
    let (files, peers) = battle(1);
    let [a, b] = &peers;
    assert!(a.done() && b.done());
    // Everything but the dice stream, which the side writing next has already stirred.
    let whole = |p: &sandtable_remote::Peer<Bfs>| {
        let mut s = p.ledger().state().unwrap().clone();
        *<Bfs as Ruleset>::dice_mut(&mut s) = Dice::from_seed(0);
        state_hash(&s)
    };
    assert_eq!(
        whole(a),
        whole(b),
        "both sides hold the same battle at the end, secrets and all"
    );
    let v = verify::<Bfs>(&files).unwrap();
    assert!(v.over);
    assert_eq!(v.sealed, 0);
    assert!(v.commands > 50, "{v:?}");
}

/// Every file's body, parsed.
fn bodies(files: &[NamedFile]) -> Vec<sandtable_remote::ledger::TurnBody<Bfs>> {
    files
        .iter()
        .map(|(n, b)| sandtable_remote::turn_file::parse(n, b).unwrap().body)
        .collect()
}

#[test]
fn secrets_are_in_no_file_before_the_rules_turn_them_up() {
    let mut sealed_total = 0;
    let mut differing = 0;
    for seed in [2, 3, 4] {
        let (files, _) = battle(seed);
        let bodies = bodies(&files);
        // Where each sealed command was sent, and its stand-in's text.
        let mut sealed: Vec<(usize, usize, String)> = Vec::new();
        let mut global = 0;
        for (f, b) in bodies.iter().enumerate() {
            for item in &b.commands {
                if let sandtable_remote::turn_file::Item::Sealed { stand_in, .. } = item {
                    sealed.push((global, f, ron::to_string(stand_in).unwrap()));
                }
                global += 1;
            }
        }
        sealed_total += sealed.len();
        for (f, b) in bodies.iter().enumerate() {
            for o in &b.openings {
                let (_, sent_in, stand_in) = sealed.iter().find(|s| s.0 == o.item).unwrap();
                assert!(f >= *sent_in);
                if o.command == *stand_in {
                    continue;
                }
                differing += 1;
                // Neither the command nor its salt is in any file before the one that opens it.
                for (earlier, (name, bytes)) in files.iter().enumerate().take(f) {
                    let text = String::from_utf8_lossy(bytes);
                    assert!(
                        !text.contains(&o.salt),
                        "seed {seed}: the salt of command #{} is in {name} (file {earlier}), \
                         before file {f} opens it",
                        o.item + 1
                    );
                    // The same text may be in it as the opening of another secret (last
                    // turn's bid of the same points); nowhere else.
                    let as_other_openings = bodies[earlier]
                        .openings
                        .iter()
                        .filter(|p| p.command == o.command)
                        .count();
                    assert_eq!(
                        text.matches(o.command.as_str()).count(),
                        as_other_openings,
                        "seed {seed}: {} is in {name} before file {f} opens it",
                        o.command
                    );
                }
            }
        }
    }
    assert!(
        sealed_total > 30,
        "face-down orders and bids were sealed: {sealed_total}"
    );
    assert!(
        differing > 10,
        "secrets that differ from their stand-in: {differing}"
    );
}

#[test]
fn a_napoleonic_battle_by_email_seals_its_bids_and_verifies() {
    use sandtable_napoleonic::Napoleonic;
    let root = root();
    let path = root.join("scenarios/10-rossbach-brigade-action.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let dirs = sandtable_engine::DataDirs::under(&root.join("assets"));
    let setup =
        <Napoleonic as sandtable_engine::Files>::load_scenario(&path, &text, &dirs).unwrap();
    let mut files = Vec::new();
    let mut a = random_player::<Napoleonic>(5);
    let mut b = random_player::<Napoleonic>(6);
    let peers = play_out::<Napoleonic>(
        setup,
        identities(9),
        [Entropy::Os, Entropy::Os],
        [&mut a, &mut b],
        |i, _, bytes| files.push((format!("turn-{i:04}.ron"), bytes.to_vec())),
    )
    .unwrap();
    assert!(peers.iter().all(|p| p.done()));
    let v = verify::<Napoleonic>(&files).unwrap();
    assert!(v.over && v.sealed == 0, "{v:?}");
    let sealed = files
        .iter()
        .filter(|(_, b)| String::from_utf8_lossy(b).contains("Sealed("))
        .count();
    assert!(sealed > 0, "the bids went sealed");
}

#[test]
fn an_illegal_command_signed_by_its_player_is_refused_naming_file_and_command() {
    use sandtable_remote::turn_file::{Item, write};
    let (files, _) = battle(31);
    let bodies = bodies(&files);
    // The first turn file of seat 1 with a plain command, after a chain the verifier replays
    // whole (not waiting on a secret): that command given twice.
    let (k, mut body) = bodies
        .iter()
        .enumerate()
        .skip(2)
        .find(|(k, b)| {
            b.by == 1
                && b.commands.iter().any(|c| matches!(c, Item::Plain(_)))
                && verify::<Bfs>(&files[..=*k]).unwrap().public_hash.is_some()
        })
        .map(|(k, b)| (k, b.clone()))
        .unwrap();
    let at = body
        .commands
        .iter()
        .position(|c| matches!(c, Item::Plain(_)))
        .unwrap();
    let again = body.commands[at].clone();
    body.commands.insert(at + 1, again);
    let forged = write(&body, &identities(31)[1]).unwrap();
    let mut chain = files[..k].to_vec();
    chain.push(("forged.ron".into(), forged));
    let err = verify::<Bfs>(&chain).unwrap_err();
    assert_eq!(err.file, "forged.ron");
    assert!(err.command.is_some(), "{err}");
    assert!(err.why.contains("illegal command"), "{err}");
}

/// The chain up to file `k`, then `body` as file `k`, signed by its writer.
fn forged(
    files: &[NamedFile],
    k: usize,
    body: &sandtable_remote::ledger::TurnBody<Bfs>,
    seed: u8,
) -> Vec<NamedFile> {
    let bytes =
        sandtable_remote::turn_file::write(body, &identities(seed)[body.by as usize]).unwrap();
    let mut chain = files[..k].to_vec();
    chain.push(("forged.ron".into(), bytes));
    chain
}

#[test]
fn a_file_that_hands_over_early_is_refused() {
    use sandtable_remote::turn_file::Item;
    let (files, _) = battle(41);
    let bodies = bodies(&files);
    // A file of several plain commands, cut after its first: its writer still decides, so it
    // could only be sent to have the dice stirred anew.
    let (k, mut body) = bodies
        .iter()
        .enumerate()
        .skip(2)
        .find(|(k, b)| {
            b.commands.len() >= 2
                && b.commands.iter().all(|c| matches!(c, Item::Plain(_)))
                && b.openings.is_empty()
                && verify::<Bfs>(&files[..=*k]).unwrap().public_hash.is_some()
        })
        .map(|(k, b)| (k, b.clone()))
        .unwrap();
    body.commands.truncate(1);
    body.public_hash = None;
    let err = verify::<Bfs>(&forged(&files, k, &body, 41)).unwrap_err();
    assert_eq!(err.file, "forged.ron");
    assert!(err.why.contains("still decides"), "{err}");
}

#[test]
fn a_file_that_holds_back_an_opening_the_rules_made_due_is_refused() {
    let (files, _) = battle(42);
    let bodies = bodies(&files);
    // A file that opens a secret of its writer's turned up by its own commands, with the
    // opening taken out.
    let (k, mut body) = bodies
        .iter()
        .enumerate()
        .skip(2)
        .find(|(_, b)| {
            !b.openings.is_empty() && !b.commands.is_empty() && {
                let first = bodies[..b.index]
                    .iter()
                    .map(|x| x.commands.len())
                    .sum::<usize>();
                b.openings.iter().all(|o| o.item >= first)
            }
        })
        .map(|(k, b)| (k, b.clone()))
        .unwrap();
    body.openings.clear();
    body.public_hash = None;
    let err = verify::<Bfs>(&forged(&files, k, &body, 42)).unwrap_err();
    assert_eq!(err.file, "forged.ron");
    assert!(err.why.contains("holds back"), "{err}");
}

#[test]
fn files_whose_line_ends_a_mailer_changed_still_verify() {
    let (files, _) = battle(43);
    let crlf: Vec<NamedFile> = files
        .iter()
        .map(|(n, b)| {
            let t = String::from_utf8(b.clone()).unwrap().replace('\n', "\r\n");
            (n.clone(), t.trim_end().as_bytes().to_vec())
        })
        .collect();
    let v = verify::<Bfs>(&crlf).unwrap();
    assert!(v.over && v.sealed == 0);
}

#[test]
fn a_division_battle_with_instructions_is_refused_for_remote_play_with_the_reason() {
    let err = sandtable_remote::Peer::<Bfs>::start(
        identities(44)[0].clone(),
        0,
        bfs_setup("04-division-sobota.ron"),
        &identities(44)[1].public_hex(),
        Entropy::seeded(44, 0),
    )
    .err()
    .expect("refused");
    assert!(
        err.why.contains("Instruction") && err.why.contains("BFS-ORD-11"),
        "{err}"
    );
}

#[test]
fn a_stand_in_that_is_not_the_rulesets_own_is_refused_on_arrival() {
    use sandtable_bfs::Command;
    use sandtable_remote::turn_file::Item;
    let (files, _) = battle(45);
    let bodies = bodies(&files);
    // A sealed bid whose stand-in claims 2 CP rather than the ruleset's 0.
    let (k, mut body) = bodies
        .iter()
        .enumerate()
        .find(|(_, b)| {
            b.commands.iter().any(|c| {
                matches!(
                    c,
                    Item::Sealed {
                        stand_in: Command::Bid { .. },
                        ..
                    }
                )
            })
        })
        .map(|(k, b)| (k, b.clone()))
        .unwrap();
    for c in &mut body.commands {
        if let Item::Sealed {
            stand_in: Command::Bid { cp, .. },
            ..
        } = c
        {
            *cp = 2;
        }
    }
    body.public_hash = None;
    body.openings.clear();
    let err = verify::<Bfs>(&forged(&files, k, &body, 45)).unwrap_err();
    assert_eq!(err.file, "forged.ron");
    assert!(err.why.contains("stand-in"), "{err}");
}

#[test]
fn a_file_that_opens_another_secret_instead_of_the_one_due_is_refused() {
    use sandtable_remote::turn_file::{Item, Opening};
    // A file that owes openings (secrets of its writer's turned up by the other side's last
    // command) and carries sealed commands of its own: the owed openings taken out, the
    // opening of one of its own new sealed commands put in instead.
    for seed in 50..60 {
        let (files, peers) = battle(seed);
        let bodies = bodies(&files);
        let mut first = 0;
        let mut found = None;
        for (k, b) in bodies.iter().enumerate() {
            let owed = b.openings.iter().any(|o| o.item < first);
            let sealed: Vec<usize> = b
                .commands
                .iter()
                .enumerate()
                .filter(|(_, c)| matches!(c, Item::Sealed { .. }))
                .map(|(i, _)| first + i)
                .collect();
            if k >= 2 && owed && !sealed.is_empty() {
                found = Some((k, b.clone(), sealed[0]));
                break;
            }
            first += b.commands.len();
        }
        let Some((k, mut body, s)) = found else {
            continue;
        };
        let own: Opening = peers[body.by as usize]
            .private()
            .secrets
            .into_iter()
            .find(|o| o.item == s)
            .unwrap();
        body.openings = vec![own];
        body.public_hash = None;
        let err = verify::<Bfs>(&forged(&files, k, &body, seed as u8)).unwrap_err();
        assert_eq!(err.file, "forged.ron");
        assert!(err.why.contains("holds back"), "seed {seed}: {err}");
        return;
    }
    panic!("no battle had such a file");
}

#[test]
fn a_file_names_the_hash_of_the_one_before() {
    use sandtable_remote::digest::file_hash;
    use sandtable_remote::turn_file::{index_of, prev_of};
    let (files, _) = battle(61);
    assert_eq!(prev_of(&files[0].1), None, "the Start follows nothing");
    for k in 1..files.len() {
        assert_eq!(prev_of(&files[k].1), Some(file_hash(&files[k - 1].1)));
        assert_eq!(index_of(&files[k].1), Some(k));
    }
}
