//! Damaged saves are refused with a message naming what is wrong; nothing panics.

use sandtable_bfs::candidates::candidates;
use sandtable_bfs::command::Reaction;
use sandtable_bfs::ids::{CommanderId, Side, UnitId};
use sandtable_bfs::vocab::OrderKind;
use sandtable_bfs::{BattleSetup, Bfs, Command, load_scenario};
use sandtable_engine::Session;
use sandtable_engine::session::{SaveError, SaveFile};
use std::path::Path;

fn session(n: usize) -> Session<Bfs> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let setup = BattleSetup::from(
        &load_scenario(
            &root.join("scenarios/01-mill-ford-skirmish.ron"),
            &root.join("assets/armies"),
        )
        .unwrap(),
    );
    let mut s = Session::<Bfs>::new(setup, 5).unwrap();
    for _ in 0..n {
        let c = candidates(s.state());
        s.submit(c[c.len() / 2].clone()).unwrap();
    }
    s
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn bad_saves_are_refused_with_reasons() {
    let dir = std::env::temp_dir().join(format!("sandtable-bad-saves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let s = session(20);
    let good = s.to_save();
    let text = sandtable_engine::data_file::to_ron_pretty(&good).unwrap();

    // A good save loads to the same hash.
    let p = write(&dir, "good.ron", &text);
    assert_eq!(Session::<Bfs>::load(&p).unwrap().hash(), s.hash());

    // Wrong version.
    let mut v = good.clone();
    v.format = 99;
    let p = write(
        &dir,
        "version.ron",
        &sandtable_engine::data_file::to_ron_pretty(&v).unwrap(),
    );
    assert!(matches!(
        Session::<Bfs>::load(&p),
        Err(SaveError::Format { found: 99, .. })
    ));

    // Truncated.
    let p = write(&dir, "truncated.ron", &text[..text.len() / 2]);
    let e = Session::<Bfs>::load(&p).err().expect("refused");
    assert!(matches!(e, SaveError::Load(_)), "{e}");
    assert!(e.to_string().contains("truncated.ron:"), "{e}");

    // A command illegal at its point in the log: end the Orders Phase before bidding.
    let mut bad: SaveFile<BattleSetup, Command> = good.clone();
    bad.commands.insert(0, Command::EndOrders);
    bad.state_hash = None;
    let p = write(
        &dir,
        "illegal.ron",
        &sandtable_engine::data_file::to_ron_pretty(&bad).unwrap(),
    );
    match Session::<Bfs>::load(&p) {
        Err(SaveError::IllegalCommand { index, .. }) => assert_eq!(index, 1),
        other => panic!("expected an illegal command, got {:?}", other.err()),
    }

    // A tampered hash.
    let mut h = good.clone();
    h.state_hash = Some("0000000000000000".into());
    let p = write(
        &dir,
        "hash.ron",
        &sandtable_engine::data_file::to_ron_pretty(&h).unwrap(),
    );
    assert!(matches!(
        Session::<Bfs>::load(&p),
        Err(SaveError::HashMismatch { .. })
    ));

    // A battle played under a rules revision this program does not know (revision.rs).
    assert!(
        text.contains(&format!(
            "rules_revision: {}",
            sandtable_bfs::revision::CURRENT
        )),
        "a new save records its revision"
    );
    let mut future = good.clone();
    future.setup.rules_revision = sandtable_bfs::revision::CURRENT + 1;
    let p = write(
        &dir,
        "future.ron",
        &sandtable_engine::data_file::to_ron_pretty(&future).unwrap(),
    );
    let e = Session::<Bfs>::load(&p).err().expect("refused");
    let newer = format!("rules revision {}", sandtable_bfs::revision::CURRENT + 1);
    assert!(e.to_string().contains(&newer), "{e}");

    std::fs::remove_dir_all(&dir).unwrap();
}

/// A save naming a unit, commander or side the battle does not have is refused at that command,
/// whatever the phase (found by `sandtable-cli fuzz`: a reaction by unit #255 panicked).
#[test]
fn a_command_naming_what_the_battle_lacks_is_refused_not_a_panic() {
    let s = session(20);
    let good = s.to_save();
    let (u, c) = (UnitId(300), CommanderId(300));
    let bad = [
        Command::React {
            unit: u,
            reaction: Reaction::Stand,
        },
        Command::IssueOrder {
            unit: u,
            order: OrderKind::Move,
            by: CommanderId(0),
        },
        Command::IssueOrder {
            unit: UnitId(0),
            order: OrderKind::Move,
            by: c,
        },
        Command::Bid {
            side: Side(9),
            cp: 0,
        },
        Command::DeclareCharge {
            unit: UnitId(0),
            target: u,
            pay: None,
        },
        Command::TransferCp {
            from: c,
            to: CommanderId(0),
            amount: 1,
        },
        Command::MoveCommander {
            commander: c,
            steps: vec![],
        },
        Command::Withdraw { unit: u },
    ];
    for kept in 0..=good.commands.len() {
        for cmd in &bad {
            let mut save = good.clone();
            save.commands.truncate(kept);
            save.commands.push(cmd.clone());
            save.state_hash = None;
            match Session::<Bfs>::from_save(save, "bad.ron") {
                Err(SaveError::IllegalCommand { index, error, .. }) => {
                    assert_eq!(index, kept + 1);
                    assert_eq!(error.rule, "GEN", "{error:?}");
                }
                other => panic!("{cmd:?} after {kept}: {:?}", other.err()),
            }
        }
    }
}
