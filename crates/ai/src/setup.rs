//! Computer players for a ruleset's pre-battle sequence (the engine's `prebattle` seam): they
//! choose among the same offers a person sees, the "ai" by the ruleset's own score for each, the
//! "random" player uniformly.

use crate::random::RandomPlayer;
use sandtable_engine::prebattle::{PreBattle, SetupChoice};

/// Scores this close to the best count as the best.
const NEAR: i32 = 3;

/// A seat's chooser for the sequence.
pub type SetupChooser = Box<dyn FnMut(&dyn PreBattle, &[SetupChoice]) -> String + Send>;

/// The chooser named `kind` ("ai" or "random", "ai:LEVEL" taken as "ai"), with its own seed for
/// choosing among near-equal offers.
pub fn setup_chooser(kind: &str, seed: u64) -> Result<SetupChooser, String> {
    let mut rng = RandomPlayer::new(seed);
    match kind.split(':').next().unwrap_or(kind) {
        "ai" => Ok(Box::new(move |_, offered: &[SetupChoice]| {
            let best = offered.iter().map(|c| c.computer_score).max().unwrap_or(0);
            // Near-equal choices are equal: the computer is not predictable between them.
            let top: Vec<&SetupChoice> = offered
                .iter()
                .filter(|c| c.computer_score >= best - NEAR)
                .collect();
            top[rng.below(top.len())].key.clone()
        })),
        "random" => Ok(Box::new(move |_, offered: &[SetupChoice]| {
            offered[rng.below(offered.len())].key.clone()
        })),
        other => Err(format!(
            "\"{other}\" cannot take a side of the pre-battle sequence: use ai or random"
        )),
    }
}
