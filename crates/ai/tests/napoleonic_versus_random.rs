//! The computer player against a random-legal player on the Napoleonic brigade action, from both
//! sides, checked deterministically (decisions are budgeted in nodes, never in time). Issue 13
//! asks for at least 90% wins from each side; `SANDTABLE_AI_GAMES` plays more (the figures in
//! docs/ai.md were measured on seeds this test does not use).

use sandtable_ai::PlayerKind;
use sandtable_ai::battle::play;
use sandtable_ai::napoleonic::NapEvaluation;
use sandtable_engine::Ruleset;
use sandtable_engine::files::{DataDirs, Files};
use sandtable_napoleonic::Napoleonic;
use std::path::Path;

const MIN_WIN_RATE_EACH_SIDE: f64 = 0.9;

#[test]
fn ai_beats_random_play_from_both_sides_of_the_brigade_action() {
    let games: u64 = std::env::var("SANDTABLE_AI_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join("scenarios/10-rossbach-brigade-action.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let setup = Napoleonic::load_scenario(&path, &text, &DataDirs::under(&root.join("assets")))
        .unwrap_or_else(|e| panic!("{}", e.lines().join("\n")));
    let mut wins = [0u64; 2];
    let mut played = [0u64; 2];
    for seed in 0..games {
        let ai_seat = (seed % 2) as u8;
        let players = if ai_seat == 0 {
            [PlayerKind::AI, PlayerKind::Random]
        } else {
            [PlayerKind::Random, PlayerKind::AI]
        };
        let session = play::<Napoleonic, NapEvaluation>(setup.clone(), 10_000 + seed, players)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let outcome = Napoleonic::outcome(session.state()).expect("the battle ended with a result");
        played[ai_seat as usize] += 1;
        if outcome.winner == Some(ai_seat) {
            wins[ai_seat as usize] += 1;
        }
    }
    for side in 0..2 {
        let rate = wins[side] as f64 / played[side].max(1) as f64;
        println!(
            "AI as side {side}: {} wins in {} battles",
            wins[side], played[side]
        );
        assert!(
            rate >= MIN_WIN_RATE_EACH_SIDE,
            "as side {side} the AI won {} of {} ({:.0}%)",
            wins[side],
            played[side],
            rate * 100.0
        );
    }
}
