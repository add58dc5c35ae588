//! Resuming an unfinished battle: the autosave is offered; a damaged autosave is refused with its
//! reason, left as it is, and the one before it is offered instead.

use sandtable_app::battle::Battle;
use sandtable_app::rulesets::Rulesets;
use sandtable_app::saves::{ResumeOffer, SaveDir, autosave};
use sandtable_bfs::{Command, Side};
use sandtable_engine::registry::Variant;
use sandtable_engine::{AnyCommand, DataDirs};

fn battle_after_a_bid() -> Battle {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join("scenarios/01-mill-ford-skirmish.ron");
    let game = Rulesets::default()
        .0
        .open_scenario(
            &path,
            &DataDirs::under(&root.join("assets")),
            Variant::default(),
        )
        .unwrap();
    let mut b = Battle::new(game, path);
    b.lift_curtain();
    b.submit(&AnyCommand::new(Command::Bid {
        side: Side::A,
        cp: 1,
    }))
    .unwrap();
    b
}

#[test]
fn the_autosave_is_offered_and_a_damaged_one_falls_back_to_the_previous() {
    // Removed with what the test wrote when dropped.
    let folder = tempfile::Builder::new()
        .prefix("sandtable-resume-")
        .tempdir()
        .unwrap();
    let dir = SaveDir(folder.path().join("saves"));
    // Nothing saved: nothing offered.
    let none = ResumeOffer::scan(&dir, &Rulesets::default());
    assert!(none.path.is_none() && none.problem.is_none());

    let b = battle_after_a_bid();
    autosave(&dir, &b).unwrap();
    let offer = ResumeOffer::scan(&dir, &Rulesets::default());
    assert_eq!(offer.path.as_deref(), Some(dir.autosave().as_path()));
    assert!(
        offer.title.contains("Mill Ford") && offer.title.contains("turn 1"),
        "{}",
        offer.title
    );

    // A second autosave keeps the first as the previous one; then the newest is damaged.
    autosave(&dir, &b).unwrap();
    std::fs::write(dir.autosave(), b"Save(format: 1, setup: (((").unwrap();
    let offer = ResumeOffer::scan(&dir, &Rulesets::default());
    assert_eq!(
        offer.path.as_deref(),
        Some(dir.previous_autosave().as_path()),
        "the previous autosave is offered"
    );
    assert!(
        offer
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("autosave.ron")),
        "{:?}",
        offer.problem
    );
    assert_eq!(
        std::fs::read(dir.autosave()).unwrap(),
        b"Save(format: 1, setup: (((",
        "the damaged file is left as it is"
    );
    let resumed =
        sandtable_app::saves::load(&Rulesets::default().0, offer.path.as_ref().unwrap()).unwrap();
    assert_eq!(resumed.game.len(), 1);
}
