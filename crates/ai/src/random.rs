//! A player that picks uniformly among the legal candidates, with its own seeded generator (not
//! the game's dice): the baseline opponent for tests and the CLI.

use sandtable_bfs::Command;
use sandtable_bfs::candidates::candidates;
use sandtable_bfs::state::Game;

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

    /// A legal command chosen at random for whoever must decide in `view`.
    pub fn choose(&mut self, view: &Game) -> Option<Command> {
        let options = candidates(view);
        if options.is_empty() {
            return None;
        }
        let i = (self.next() % options.len() as u64) as usize;
        Some(options[i].clone())
    }
}
