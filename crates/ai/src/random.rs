//! A player that picks uniformly among the legal candidates, with its own seeded generator (not
//! the game's dice): the baseline opponent for tests and the CLI.

use sandtable_engine::{Player, Ruleset, Seat};

pub struct RandomPlayer {
    state: u64,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> Self {
        Self {
            state: seed ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// splitmix64: small, fast, and the same on every platform.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index below `n`, uniformly.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

impl<R: Ruleset> Player<R> for RandomPlayer {
    /// A legal command chosen at random for whoever must decide in `view`.
    fn choose(&mut self, view: &R::State, _seat: Seat) -> Option<R::Command> {
        let options = R::candidates(view);
        if options.is_empty() {
            return None;
        }
        let i = self.below(options.len());
        Some(options[i].clone())
    }
}
