//! Dice pipelines every ruleset can build on, each with exact odds: a pool of dice that succeed
//! on a target (roll-under or roll-over, any die), re-rolls of hits or of misses, a single-die
//! test with automatic results at the ends, the sum of several dice, and opposed rolls.
//!
//! A ruleset adds its own steps on top (By Fire and Sword's dice per base and target-below-1
//! rules live in its crate); what is rolled and why is recorded so the program can show it.

use crate::dice::Dice;
use serde::{Deserialize, Serialize};

/// A change to a target number, with the rule that grants it and a reason in plain words.
/// Positive helps the roller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modifier {
    pub rule: String,
    pub reason: String,
    pub delta: i32,
}

impl Modifier {
    pub fn new(rule: &str, reason: impl Into<String>, delta: i32) -> Self {
        Self {
            rule: rule.to_string(),
            reason: reason.into(),
            delta,
        }
    }
}

/// The sum of the modifiers' deltas.
pub fn total(modifiers: &[Modifier]) -> i32 {
    modifiers.iter().map(|m| m.delta).sum()
}

/// Which faces succeed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// Roll this or less (By Fire and Sword's tests).
    AtMost(i32),
    /// Roll this or more (most D6 games' to-hit rolls).
    AtLeast(i32),
}

impl Target {
    pub fn succeeds(self, face: u32) -> bool {
        match self {
            Target::AtMost(t) => face as i32 <= t,
            Target::AtLeast(t) => face as i32 >= t,
        }
    }

    /// Chance that one die with `sides` faces succeeds.
    pub fn chance(self, sides: u32) -> f64 {
        let sides = sides.max(1) as i32;
        let good = match self {
            Target::AtMost(t) => t.clamp(0, sides),
            Target::AtLeast(t) => (sides - t.max(1) + 1).clamp(0, sides),
        };
        good as f64 / sides as f64
    }

    /// "5 or less", "4 or more".
    pub fn words(self) -> String {
        match self {
            Target::AtMost(t) => format!("{t} or less"),
            Target::AtLeast(t) => format!("{t} or more"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Reroll {
    #[default]
    None,
    /// Roll the successes again; only second successes count.
    Hits,
    /// Roll the failures again; new successes count.
    Failures,
}

/// A pool of identical dice, each succeeding on its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool {
    pub dice: u32,
    pub sides: u32,
    pub target: Target,
    pub reroll: Reroll,
}

/// A rolled pool: its faces, the faces of any reroll, and the successes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolOutcome {
    pub faces: Vec<u8>,
    pub reroll_faces: Vec<u8>,
    pub successes: u32,
}

impl Pool {
    pub fn new(dice: u32, sides: u32, target: Target) -> Self {
        Self {
            dice,
            sides,
            target,
            reroll: Reroll::None,
        }
    }

    pub fn with_reroll(mut self, reroll: Reroll) -> Self {
        self.reroll = reroll;
        self
    }

    /// Chance that one die of this pool ends as a success, rerolls included.
    pub fn success_chance(&self) -> f64 {
        let p = self.target.chance(self.sides);
        match self.reroll {
            Reroll::None => p,
            Reroll::Hits => p * p,
            Reroll::Failures => p + (1.0 - p) * p,
        }
    }

    /// Rolls the pool: every die, then the rerolls, in that order.
    pub fn roll(&self, dice: &mut Dice) -> PoolOutcome {
        let faces: Vec<u8> = (0..self.dice)
            .map(|_| dice.roll(self.sides) as u8)
            .collect();
        let hit = |f: &u8| self.target.succeeds(*f as u32);
        let first = faces.iter().filter(|f| hit(f)).count() as u32;
        let (reroll_faces, successes) = match self.reroll {
            Reroll::None => (Vec::new(), first),
            Reroll::Hits => {
                let again: Vec<u8> = (0..first).map(|_| dice.roll(self.sides) as u8).collect();
                let s = again.iter().filter(|f| hit(f)).count() as u32;
                (again, s)
            }
            Reroll::Failures => {
                let again: Vec<u8> = (0..self.dice - first)
                    .map(|_| dice.roll(self.sides) as u8)
                    .collect();
                let s = first + again.iter().filter(|f| hit(f)).count() as u32;
                (again, s)
            }
        };
        PoolOutcome {
            faces,
            reroll_faces,
            successes,
        }
    }

    /// Exact distribution of successes: `p[k]` is the chance of exactly k.
    pub fn distribution(&self) -> Vec<f64> {
        crate::odds::binomial(self.dice, self.success_chance())
    }
}

/// A single-die test: passes on its target, with a pass or a fail that needs no roll where the
/// target is beyond the die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Test {
    pub sides: u32,
    pub target: Target,
}

/// A rolled test.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestOutcome {
    /// `None` when no roll was needed.
    pub face: Option<u8>,
    pub passed: bool,
}

impl Test {
    /// Passes whatever the die shows.
    pub fn sure_pass(&self) -> bool {
        self.target.chance(self.sides) >= 1.0
    }

    /// Fails whatever the die shows.
    pub fn sure_fail(&self) -> bool {
        self.target.chance(self.sides) <= 0.0
    }

    pub fn pass_chance(&self) -> f64 {
        self.target.chance(self.sides)
    }

    /// Rolls the die, unless the result is certain (then no die is drawn).
    pub fn roll(&self, dice: &mut Dice) -> TestOutcome {
        if self.sure_pass() || self.sure_fail() {
            return TestOutcome {
                face: None,
                passed: self.sure_pass(),
            };
        }
        let face = dice.roll(self.sides) as u8;
        TestOutcome {
            face: Some(face),
            passed: self.target.succeeds(face as u32),
        }
    }
}

/// `p[s]` = chance that `n` dice with `sides` faces sum to `s` (2D6 and the like).
pub fn sum_distribution(n: u32, sides: u32) -> Vec<f64> {
    let one: Vec<f64> = std::iter::once(0.0)
        .chain((1..=sides).map(|_| 1.0 / sides.max(1) as f64))
        .collect();
    (0..n).fold(vec![1.0], |acc, _| crate::odds::convolve(&acc, &one))
}

/// The chances that the first of two opposed totals beats, ties and loses to the second, each
/// given as a distribution over its value (`a[v]` = chance of total v).
pub fn opposed(a: &[f64], b: &[f64]) -> (f64, f64, f64) {
    let (mut win, mut tie, mut lose) = (0.0, 0.0, 0.0);
    for (va, pa) in a.iter().enumerate() {
        for (vb, pb) in b.iter().enumerate() {
            let p = pa * pb;
            match va.cmp(&vb) {
                std::cmp::Ordering::Greater => win += p,
                std::cmp::Ordering::Equal => tie += p,
                std::cmp::Ordering::Less => lose += p,
            }
        }
    }
    (win, tie, lose)
}

/// Shifts a distribution by a whole modifier: `shift(d, 2)[v + 2] = d[v]` (values below zero
/// are counted at zero).
pub fn shift(dist: &[f64], by: i32) -> Vec<f64> {
    let len = (dist.len() as i32 + by.max(0)).max(1) as usize;
    let mut out = vec![0.0; len];
    for (v, p) in dist.iter().enumerate() {
        let at = (v as i32 + by).max(0) as usize;
        out[at] += p;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roll_under_and_roll_over_chances() {
        assert_eq!(Target::AtMost(4).chance(10), 0.4);
        assert_eq!(Target::AtMost(0).chance(10), 0.0);
        assert_eq!(Target::AtMost(12).chance(10), 1.0);
        assert!((Target::AtLeast(4).chance(6) - 0.5).abs() < 1e-12);
        assert_eq!(Target::AtLeast(7).chance(6), 0.0);
        assert_eq!(Target::AtLeast(1).chance(6), 1.0);
        assert_eq!(Target::AtLeast(-3).chance(6), 1.0);
    }

    #[test]
    fn a_pool_counts_its_successes_from_its_faces() {
        let mut d = Dice::from_seed(3);
        for target in [Target::AtMost(5), Target::AtLeast(4)] {
            let pool = Pool::new(8, 6, target);
            for _ in 0..50 {
                let r = pool.roll(&mut d);
                assert_eq!(r.faces.len(), 8);
                let hits = r
                    .faces
                    .iter()
                    .filter(|f| target.succeeds(**f as u32))
                    .count();
                assert_eq!(r.successes as usize, hits);
            }
        }
    }

    #[test]
    fn rerolling_hits_squares_the_chance_and_rerolling_misses_adds_a_second_try() {
        let p = Pool::new(6, 10, Target::AtMost(4)).with_reroll(Reroll::Hits);
        assert!((p.success_chance() - 0.16).abs() < 1e-12);
        let q = Pool::new(6, 6, Target::AtLeast(5)).with_reroll(Reroll::Failures);
        assert!((q.success_chance() - (1.0 / 3.0 + 2.0 / 3.0 / 3.0)).abs() < 1e-12);
    }

    #[test]
    fn certain_tests_draw_no_die() {
        let mut d = Dice::from_seed(1);
        let before = d.position();
        let pass = Test {
            sides: 10,
            target: Target::AtMost(10),
        }
        .roll(&mut d);
        let fail = Test {
            sides: 6,
            target: Target::AtLeast(7),
        }
        .roll(&mut d);
        assert_eq!((pass.face, pass.passed), (None, true));
        assert_eq!((fail.face, fail.passed), (None, false));
        assert_eq!(d.position(), before);
    }

    #[test]
    fn two_d6_and_opposed_rolls_are_exact() {
        let s = sum_distribution(2, 6);
        assert!((s[7] - 6.0 / 36.0).abs() < 1e-12);
        assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let d6 = sum_distribution(1, 6);
        let (win, tie, lose) = opposed(&d6, &d6);
        assert!((tie - 1.0 / 6.0).abs() < 1e-12);
        assert!((win - lose).abs() < 1e-12);
        // A +1 turns ties into wins: 21/36.
        let (win, _, _) = opposed(&shift(&d6, 1), &d6);
        assert!((win - 21.0 / 36.0).abs() < 1e-12);
    }
}
