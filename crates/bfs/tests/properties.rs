//! Property tests: random legal games never panic and keep the invariants; save → load replays to
//! the same state hash. `PROPTEST_CASES` sets the number of games (CI uses a modest count).

use proptest::prelude::*;
use sandtable_bfs::candidates::candidates;
use sandtable_bfs::state::{Game, UnitStatus};
use sandtable_bfs::{BattleSetup, Bfs, load_scenario};
use sandtable_engine::TakeBackKind;
use sandtable_engine::scenario_check::rects_overlap;
use sandtable_engine::{Ruleset, Session};
use std::path::Path;

fn setup() -> BattleSetup {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    BattleSetup::from(
        &load_scenario(
            &root.join("scenarios/01-mill-ford-skirmish.ron"),
            &root.join("assets/armies"),
        )
        .unwrap(),
    )
}

/// The invariants every reachable position keeps.
fn check_invariants(g: &Game) -> Result<(), String> {
    let live: Vec<_> = g
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable)
        .collect();
    for (i, a) in live.iter().enumerate() {
        // Bases leave only through the rules: every base is on the table, destroyed or fled.
        let accounted = a.bases.len() + a.bases_destroyed as usize + a.bases_fled as usize;
        if accounted != a.bases_at_start as usize {
            return Err(format!(
                "{}: {} bases on table + {} destroyed + {} fled != {}",
                a.name,
                a.bases.len(),
                a.bases_destroyed,
                a.bases_fled,
                a.bases_at_start
            ));
        }
        if a.bases.is_empty() {
            return Err(format!("{} is on the table with no bases", a.name));
        }
        let strength = g.profile(a.profile).strength;
        if a.casualty_markers >= strength {
            return Err(format!(
                "{} has {} casualty markers with {} SP per base",
                a.name, a.casualty_markers, strength
            ));
        }
        for b in &a.bases {
            let c = b.center();
            if !(c.x.is_finite() && c.y.is_finite()) {
                return Err(format!("{} has a base at a non-finite position", a.name));
            }
        }
        // No two units' bases overlap (touching is contact, allowed).
        for other in &live[i + 1..] {
            for x in &a.bases {
                for y in &other.bases {
                    if rects_overlap(x, y) {
                        return Err(format!("{} overlaps {}", a.name, other.name));
                    }
                }
            }
        }
    }
    for c in &g.commanders {
        if c.cp > c.cp_max.saturating_add(20) {
            return Err(format!("{} has an impossible {} CP", c.name, c.cp));
        }
    }
    Ok(())
}

fn play(seed: u64, choices: &[u16], limit: usize) -> Result<Session<Bfs>, String> {
    let mut s = Session::<Bfs>::new(setup(), seed).map_err(|e| e.to_string())?;
    for i in 0..limit {
        let c = candidates(s.state());
        if c.is_empty() {
            break;
        }
        let pick = c[choices[i % choices.len()] as usize % c.len()].clone();
        // Everything the candidate list offers must be legal and must execute.
        if let Err(e) = s.submit(pick.clone()) {
            return Err(format!("{pick:?} was offered but refused: {e}"));
        }
        check_invariants(s.state()).map_err(|e| format!("after {pick:?}: {e}"))?;
        // The view never shows the other side's face-down orders.
        for seat in 0..2u8 {
            let v = Bfs::view(s.state(), seat);
            if v.units
                .iter()
                .any(|u| u.side.0 != seat && u.pending_order.is_some_and(|p| p.kind.is_some()))
            {
                return Err(format!("seat {seat} sees a face-down order"));
            }
        }
    }
    Ok(s)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(24), ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_keep_the_invariants(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..64)) {
        let s = play(seed, &choices, 400).map_err(TestCaseError::fail)?;
        // Save, load and compare: the replay reproduces the state exactly.
        let text = sandtable_engine::data_file::to_ron_pretty(&s.to_save()).map_err(TestCaseError::fail)?;
        let save = sandtable_engine::data_file::parse_ron(Path::new("game.ron"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let loaded = Session::<Bfs>::from_save(save, "game.ron").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(loaded.hash(), s.hash());
    }

    /// A free take-back (the seat's own last command, which showed nothing new) is exact, and
    /// redo puts it back.
    #[test]
    fn undo_is_exact(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..32)) {
        let mut s = play(seed, &choices, 60).map_err(TestCaseError::fail)?;
        let Some(seat) = s.entries().last().and_then(|e| e.by) else { return Ok(()) };
        if s.take_back_kind(seat) == TakeBackKind::Free {
            let before_last = {
                let mut t = Session::<Bfs>::new(setup(), seed).unwrap();
                let n = s.len();
                for c in s.commands().take(n - 1) {
                    t.submit(c.clone()).unwrap();
                }
                t.hash()
            };
            let after = s.hash();
            prop_assert!(s.undo(seat));
            prop_assert_eq!(s.hash(), before_last);
            s.redo().unwrap();
            prop_assert_eq!(s.hash(), after);
        }
    }

    /// A consented take-back re-draws the dice that follow, is logged, and a save with it
    /// replays to the same state.
    #[test]
    fn a_consented_take_back_is_logged_and_replays_exactly(seed in any::<u64>(), choices in prop::collection::vec(any::<u16>(), 1..48), salt in any::<u64>()) {
        let mut s = play(seed, &choices, 120).map_err(TestCaseError::fail)?;
        let Some(seat) = s.entries().last().and_then(|e| e.by) else { return Ok(()) };
        let n = s.len();
        let undone = s.take_back(seat, Some(salt));
        prop_assert!(undone >= 1 && s.len() == n - undone);
        prop_assert_eq!(s.take_backs().len(), 1);
        // Play on a little after the take-back, then save and load.
        let mut more = 0;
        while more < 6 {
            let Some(c) = Bfs::candidates(s.state()).into_iter().next() else { break };
            s.submit(c).map_err(|e| TestCaseError::fail(e.to_string()))?;
            more += 1;
        }
        let text = sandtable_engine::data_file::to_ron_pretty(&s.to_save()).map_err(TestCaseError::fail)?;
        let save = sandtable_engine::data_file::parse_ron(Path::new("game.ron"), &text).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let loaded = Session::<Bfs>::from_save(save, "game.ron").map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(loaded.hash(), s.hash());
    }
}

/// The same seed and the same commands give the same game.
#[test]
fn determinism_same_seed_same_hash() {
    let a = play(42, &[3, 1, 4, 1, 5, 9, 2, 6], 300).unwrap();
    let b = play(42, &[3, 1, 4, 1, 5, 9, 2, 6], 300).unwrap();
    assert_eq!(a.hash(), b.hash());
    let c = play(43, &[3, 1, 4, 1, 5, 9, 2, 6], 300).unwrap();
    assert_ne!(a.hash(), c.hash());
}
