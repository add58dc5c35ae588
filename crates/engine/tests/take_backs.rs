//! Take-backs by the rules of a fair table, on the toy ruleset of `examples/toy_ruleset.rs`: a
//! seat's own last command is free to take back while it showed nothing new and the turn has not
//! passed; anything further back is a consented take-back that re-draws the dice, is logged, and
//! replays exactly from a save.

#[path = "../examples/toy_ruleset.rs"]
#[allow(dead_code)]
mod toy;

use sandtable_engine::session::state_hash;
use sandtable_engine::{Ruleset, SaveError, Session, TakeBackKind, data_file};
use std::path::Path;
use toy::{Move, Toy, race_setup};

fn race(seed: u64) -> Session<Toy> {
    Session::<Toy>::new(race_setup(), seed).unwrap()
}

#[test]
fn a_choice_that_shows_nothing_is_free_to_take_back_and_exact() {
    let mut s = race(7);
    let before = s.hash();
    s.submit(Move::Choose(2)).unwrap();
    assert_eq!(s.take_back_kind(0), TakeBackKind::Free);
    assert_eq!(s.take_back_kind(1), TakeBackKind::Nothing);
    let after = s.hash();
    assert!(!s.undo(1), "the other seat cannot take it back");
    assert!(s.undo(0));
    assert_eq!(s.hash(), before);
    assert!(s.redo().unwrap());
    assert_eq!(s.hash(), after);
}

#[test]
fn a_roll_or_a_hand_over_needs_consent_and_redraws_the_dice() {
    let mut s = race(7);
    s.submit(Move::Roll).unwrap();
    // The die showed and the turn passed: no free take-back.
    assert_eq!(
        s.take_back_kind(0),
        TakeBackKind::NeedsConsent { commands: 1 }
    );
    assert!(!s.undo(0));
    let first = s.state().totals[0];
    let n = s.take_back(0, Some(12345));
    assert_eq!(n, 1);
    assert!(s.is_empty());
    assert_eq!(s.take_backs().len(), 1);
    assert!(!s.can_redo(), "a consented take-back cannot be redone");
    // The same roll now draws from a new stream: the dice the players saw coming are gone.
    s.submit(Move::Roll).unwrap();
    let mut plain = race(7);
    plain.submit(Move::Roll).unwrap();
    assert_eq!(plain.state().totals[0], first);
    assert_ne!(
        state_hash(&s.state().dice),
        state_hash(&plain.state().dice),
        "the stream moved on"
    );
}

#[test]
fn a_save_with_take_backs_replays_exactly_and_a_tampered_one_is_refused() {
    let mut s = race(3);
    for m in [Move::Roll, Move::Choose(2), Move::Roll, Move::Stand] {
        s.submit(m).unwrap();
    }
    s.take_back(1, Some(99));
    s.submit(Move::Roll).unwrap();
    s.submit(Move::Roll).unwrap();
    let text = data_file::to_ron_pretty(&s.to_save()).unwrap();
    assert!(text.contains("take_backs"), "{text}");
    let loaded = Session::<Toy>::from_save(
        data_file::parse_ron(Path::new("race.ron"), &text).unwrap(),
        "race.ron",
    )
    .unwrap();
    assert_eq!(loaded.hash(), s.hash());
    assert_eq!(loaded.take_back_count(), 1);
    // Change the salt: the dice after the take-back differ, so the hash does not match.
    let tampered = text.replace("salt: Some(99)", "salt: Some(98)");
    assert_ne!(tampered, text);
    let err = Session::<Toy>::from_save(
        data_file::parse_ron(Path::new("race.ron"), &tampered).unwrap(),
        "race.ron",
    )
    .err()
    .expect("refused");
    assert!(matches!(err, SaveError::HashMismatch { .. }), "{err}");
}

#[test]
fn a_take_back_inside_a_later_one_is_forgotten_but_counted() {
    let mut s = race(5);
    s.submit(Move::Roll).unwrap(); // seat 0
    s.submit(Move::Roll).unwrap(); // seat 1
    s.take_back(1, Some(1)); // one command kept
    s.submit(Move::Roll).unwrap(); // seat 1 again
    s.take_back(0, Some(2)); // back to before seat 0's roll: none kept
    assert!(s.is_empty());
    assert_eq!(
        s.take_backs().len(),
        1,
        "only the take-back still in the timeline"
    );
    assert_eq!(s.take_back_count(), 2);
    assert_eq!(Toy::prompt(s.state()).seat, Some(0));
}
