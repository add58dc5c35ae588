//! The game's dice: one seeded, portable generator inside the game state (design principle 1).
//!
//! ChaCha8 gives the same stream on every platform. The state is saved as its seed, stream and
//! word position, so a save's replay draws exactly the same faces.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Clone, Debug, PartialEq)]
pub struct Dice {
    rng: ChaCha8Rng,
    /// Faces to return before drawing from the generator: rules tests fix the dice the book's
    /// examples give. Empty in real games.
    script: std::collections::VecDeque<u8>,
}

impl Dice {
    /// A generator for one battle from the scenario's (or the player's) seed.
    pub fn from_seed(seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            script: Default::default(),
        }
    }

    /// Queues faces to be rolled next, in order (for tests that fix the dice).
    pub fn script(&mut self, faces: impl IntoIterator<Item = u8>) {
        self.script.extend(faces);
    }

    /// Scripted faces not yet rolled.
    pub fn scripted_left(&self) -> usize {
        self.script.len()
    }

    /// One die with `sides` faces, 1..=sides (a D10's "0" face counts 10).
    /// Unbiased: rejection sampling on 32-bit draws.
    pub fn roll(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        if let Some(f) = self.script.pop_front() {
            return (f as u32).clamp(1, sides);
        }
        let zone = u32::MAX - (u32::MAX % sides);
        loop {
            let x = self.rng.next_u32();
            if x < zone {
                return x % sides + 1;
            }
        }
    }

    /// One ten-sided die.
    pub fn d10(&mut self) -> u8 {
        self.roll(10) as u8
    }

    /// `n` ten-sided dice.
    pub fn d10s(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.d10()).collect()
    }

    /// One six-sided die.
    pub fn d6(&mut self) -> u8 {
        self.roll(6) as u8
    }

    /// Moves the stream to a new one derived from where it stands and `salt`: after a consented
    /// take-back, the dice that follow are not the ones the players have already seen coming.
    /// Deterministic, so a save that records the salt replays exactly.
    pub fn redraw(&mut self, salt: u64) {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update(self.rng.get_seed());
        h.update(self.rng.get_stream().to_le_bytes());
        h.update(self.rng.get_word_pos().to_le_bytes());
        h.update(salt.to_le_bytes());
        self.rng = ChaCha8Rng::from_seed(h.finalize().into());
    }

    /// How far the stream has advanced (for tests and diagnostics).
    pub fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }
}

#[derive(Serialize, Deserialize)]
struct DiceState {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    script: Vec<u8>,
    seed: [u8; 32],
    stream: u64,
    /// The 128-bit word position as (high, low) halves: RON has no 128-bit integers.
    word_pos: (u64, u64),
}

impl Serialize for Dice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let pos = self.rng.get_word_pos();
        DiceState {
            script: self.script.iter().copied().collect(),
            seed: self.rng.get_seed(),
            stream: self.rng.get_stream(),
            word_pos: ((pos >> 64) as u64, pos as u64),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let st = DiceState::deserialize(d)?;
        let mut rng = ChaCha8Rng::from_seed(st.seed);
        rng.set_stream(st.stream);
        rng.set_word_pos(((st.word_pos.0 as u128) << 64) | st.word_pos.1 as u128);
        Ok(Self {
            rng,
            script: st.script.into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_faces() {
        let mut a = Dice::from_seed(7);
        let mut b = Dice::from_seed(7);
        assert_eq!(a.d10s(50), b.d10s(50));
    }

    #[test]
    fn faces_are_one_to_ten_and_all_appear() {
        let mut d = Dice::from_seed(1);
        let faces = d.d10s(2000);
        assert!(faces.iter().all(|f| (1..=10).contains(f)));
        for f in 1..=10u8 {
            let n = faces.iter().filter(|x| **x == f).count();
            // Expect 200 of each; 5 sigma is about 67.
            assert!((133..=267).contains(&n), "face {f}: {n}");
        }
    }

    #[test]
    fn scripted_faces_come_first() {
        let mut d = Dice::from_seed(5);
        let mut plain = Dice::from_seed(5);
        d.script([2, 10, 8, 3]);
        assert_eq!(d.d10s(4), vec![2, 10, 8, 3]);
        assert_eq!(d.d10s(5), plain.d10s(5));
    }

    #[test]
    fn a_redraw_gives_new_faces_the_same_way_every_time() {
        let mut a = Dice::from_seed(3);
        let mut b = Dice::from_seed(3);
        let mut plain = Dice::from_seed(3);
        a.redraw(42);
        b.redraw(42);
        let fa = a.d10s(20);
        assert_eq!(fa, b.d10s(20));
        assert_ne!(fa, plain.d10s(20));
        let mut c = Dice::from_seed(3);
        c.redraw(43);
        assert_ne!(fa, c.d10s(20));
    }

    #[test]
    fn serialised_dice_continue_the_same_stream() {
        let mut d = Dice::from_seed(99);
        d.d10s(17);
        let text = ron::to_string(&d).unwrap();
        let mut e: Dice = ron::from_str(&text).unwrap();
        assert_eq!(d.d10s(20), e.d10s(20));
    }
}
