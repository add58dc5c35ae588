//! Damaged saves are refused with a message naming what is wrong; nothing panics.

use sandtable_bfs::candidates::candidates;
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

    std::fs::remove_dir_all(&dir).unwrap();
}
