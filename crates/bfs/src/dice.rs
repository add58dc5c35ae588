//! By Fire and Sword's dice (BFS-DICE-1..9) on the engine's pipelines: roll-under D10 pools with
//! dice per base, dice adjustments, target modifiers (BFS-DICE-3), the target-below-1 and
//! zero-dice rules, rerolls; and the single-die tests. Every step is recorded so that the program
//! can show why a roll needed what it needed.

use sandtable_engine::Dice;
pub use sandtable_engine::roll::{Modifier, Reroll};
use sandtable_engine::roll::{Pool, Target, Test};
use serde::{Deserialize, Serialize};

/// Faces of By Fire and Sword's die: a D10 whose "0" counts 10 (BFS-DICE-1).
pub const SIDES: u32 = 10;

/// A change to the number of dice (losses, flank attacks, support…), BFS-DICE-9 step 3.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceChange {
    pub rule: String,
    pub reason: String,
    /// Dice added (positive) or removed (negative), on the base given.
    pub delta: i32,
    /// Which base of the pool (0-based) gains or loses the dice.
    pub base: usize,
}

/// How to treat a target pushed below 1 (AMB-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum BelowOne {
    /// One die fewer per base for each point below 1 (the proposed resolution).
    #[default]
    DiePerPoint,
    /// One die fewer per base however far below 1 (the literal text).
    OneDie,
}

/// What to roll, before the pipeline of BFS-DICE-9 is applied.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolSpec {
    /// Dice each base rolls after any "set to 1" rule (BFS-DICE-9 steps 1-2).
    pub dice_per_base: Vec<u32>,
    pub dice_changes: Vec<DiceChange>,
    /// The unmodified target (Skill, Armor, Morale…).
    pub base_target: i32,
    pub modifiers: Vec<Modifier>,
    pub below_one: BelowOne,
    pub reroll: Reroll,
    /// Faces of the die (10 for BFaS).
    pub sides: u32,
}

/// The pool after the pipeline: how many dice, needing what, and the notes that explain it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolPlan {
    pub dice: u32,
    /// Roll this or less to succeed, after all modifiers and clamping.
    pub target: i32,
    /// The target before the below-1 clamp (what the modifiers add up to).
    pub raw_target: i32,
    pub modifiers: Vec<Modifier>,
    pub dice_changes: Vec<DiceChange>,
    /// Rules applied by the pipeline itself (zero dice, below 1), with their effect.
    pub notes: Vec<String>,
    /// No dice left: the test fails without a roll (BFS-DICE-4).
    pub auto_fail: bool,
    pub reroll: Reroll,
    pub sides: u32,
}

/// A rolled pool: the plan, the faces and the successes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolRoll {
    pub plan: PoolPlan,
    pub faces: Vec<u8>,
    /// Faces of the reroll, if any.
    pub reroll_faces: Vec<u8>,
    pub successes: u32,
}

impl PoolSpec {
    /// A pool of `bases` bases rolling `per_base` dice each against `target`.
    pub fn new(bases: usize, per_base: u32, target: i32) -> Self {
        Self {
            dice_per_base: vec![per_base; bases],
            dice_changes: Vec::new(),
            base_target: target,
            modifiers: Vec::new(),
            below_one: BelowOne::default(),
            reroll: Reroll::None,
            sides: SIDES,
        }
    }

    /// Applies BFS-DICE-9 steps 3-6: dice changes, zero dice, target modifiers, target below 1.
    pub fn plan(&self) -> PoolPlan {
        let mut per_base: Vec<i64> = self.dice_per_base.iter().map(|d| *d as i64).collect();
        let printed: i64 = per_base.iter().sum();
        for c in &self.dice_changes {
            if let Some(b) = per_base.get_mut(c.base) {
                *b = (*b + c.delta as i64).max(0);
            }
        }
        let mut modifiers = self.modifiers.clone();
        let mut notes = Vec::new();
        let after_changes: i64 = per_base.iter().sum();
        // BFS-DICE-5: losses leaving no dice at all give one die at −1.
        if after_changes == 0 && printed > 0 && !per_base.is_empty() {
            per_base = vec![0; per_base.len()];
            per_base[0] = 1;
            modifiers.push(Modifier::new(
                "BFS-DICE-5",
                "no dice left after losses: roll 1 die at −1",
                -1,
            ));
            notes.push("BFS-DICE-5: losses left no dice, so 1 die rolls at −1".into());
        }
        let raw_target = self.base_target + modifiers.iter().map(|m| m.delta).sum::<i32>();
        let mut target = raw_target;
        // BFS-DICE-4 / AMB-6: below 1, each base loses dice and the target becomes 1.
        if target < 1 {
            let deficit = match self.below_one {
                BelowOne::DiePerPoint => (1 - target) as i64,
                BelowOne::OneDie => 1,
            };
            for b in per_base.iter_mut() {
                *b = (*b - deficit).max(0);
            }
            notes.push(format!("BFS-DICE-4: target {raw_target} is below 1, so each base rolls {deficit} die fewer and needs a 1"));
            target = 1;
        }
        let dice: u32 = per_base.iter().sum::<i64>().clamp(0, u32::MAX as i64) as u32;
        let auto_fail = dice == 0;
        if auto_fail && printed > 0 {
            notes.push("BFS-DICE-4: no dice left, so the test fails automatically".into());
        }
        PoolPlan {
            dice,
            target: target.min(self.sides as i32),
            raw_target,
            modifiers,
            dice_changes: self.dice_changes.clone(),
            notes,
            auto_fail,
            reroll: self.reroll,
            sides: self.sides,
        }
    }
}

impl PoolPlan {
    /// Chance that one die of this pool ends as a success, rerolls included.
    pub fn success_chance(&self) -> f64 {
        if self.auto_fail {
            return 0.0;
        }
        self.pool().success_chance()
    }

    /// The roll-under pool this plan rolls (BFS-DICE-1, -2, -6, -7).
    fn pool(&self) -> Pool {
        Pool::new(self.dice, self.sides, Target::AtMost(self.target)).with_reroll(self.reroll)
    }

    /// Rolls the pool (BFS-DICE-1, -2, -6, -7).
    pub fn roll(&self, dice: &mut Dice) -> PoolRoll {
        if self.auto_fail {
            return PoolRoll {
                plan: self.clone(),
                faces: Vec::new(),
                reroll_faces: Vec::new(),
                successes: 0,
            };
        }
        let out = self.pool().roll(dice);
        PoolRoll {
            plan: self.clone(),
            faces: out.faces,
            reroll_faces: out.reroll_faces,
            successes: out.successes,
        }
    }

    /// Exact distribution of successes: `p[k]` is the chance of exactly k.
    pub fn distribution(&self) -> Vec<f64> {
        sandtable_engine::odds::binomial(self.dice, self.success_chance())
    }
}

/// A single-die test against a target (Morale, Skill, Armor): passes on `face <= target`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestRoll {
    pub base_target: i32,
    pub modifiers: Vec<Modifier>,
    pub target: i32,
    /// `None` when no roll was needed (an automatic result).
    pub face: Option<u8>,
    pub passed: bool,
    /// `face - target` when failed (how badly), else 0.
    pub failed_by: i32,
    /// The first face, when a special rule had the failed test rolled again (To the Last Man,
    /// BFS-SPC-33); `face` is then the second roll, which stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rerolled: Option<u8>,
}

impl TestRoll {
    /// Rolls one die against `base + modifiers`. Targets of `sides` or more pass and targets
    /// below 1 fail without a roll (BFS-PSY-2 uses 10 and 0 as its limits).
    pub fn roll(base_target: i32, modifiers: Vec<Modifier>, dice: &mut Dice, sides: u32) -> Self {
        let target = base_target + sandtable_engine::roll::total(&modifiers);
        let out = Test {
            sides,
            target: Target::AtMost(target),
        }
        .roll(dice);
        let failed_by = match (out.passed, out.face) {
            (true, _) => 0,
            (false, Some(face)) => face as i32 - target,
            (false, None) => sides as i32,
        };
        Self {
            base_target,
            modifiers,
            target,
            face: out.face,
            passed: out.passed,
            failed_by,
            rerolled: None,
        }
    }

    /// Chance of passing.
    pub fn pass_chance(&self) -> f64 {
        Target::AtMost(self.target).chance(SIDES)
    }
}

/// One Armor test for each of `hits` (BFS-SHO-15, BFS-CC-17): a D10 at or under the Armor,
/// after its modifiers, saves the hit; 10 or more saves all, under 1 none.
pub fn armor_tests(
    dice: &mut Dice,
    armor: i32,
    modifiers: Vec<Modifier>,
    hits: u32,
) -> crate::event::ArmorReport {
    let target = armor + modifiers.iter().map(|m| m.delta).sum::<i32>();
    let faces = dice.d10s(hits as usize);
    let saved = if target >= 10 {
        hits
    } else if target < 1 {
        0
    } else {
        faces.iter().filter(|f| (**f as i32) <= target).count() as u32
    };
    crate::event::ArmorReport {
        armor,
        modifiers,
        target,
        faces,
        saved,
        failed: hits - saved,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfs_dice_2_example_two_hits() {
        // 4 dice needing 3 or less roll 2, 10, 8, 3: two hits.
        let faces = [2u8, 10, 8, 3];
        assert_eq!(faces.iter().filter(|f| **f <= 3).count(), 2);
    }

    #[test]
    fn bfs_dice_4_example_target_below_one() {
        // 3 infantry bases, Skill 3, 2 dice each; fortifications −1, fog −1, moved −1 → target 0.
        let mut spec = PoolSpec::new(3, 2, 3);
        for r in ["fortifications", "fog", "moved"] {
            spec.modifiers.push(Modifier::new("BFS-SHO-17", r, -1));
        }
        let plan = spec.plan();
        assert_eq!(plan.raw_target, 0);
        assert_eq!(plan.dice, 3, "1 die per base instead of 2");
        assert_eq!(plan.target, 1, "each needs a 1");
        assert!(!plan.auto_fail);
    }

    #[test]
    fn amb_6_two_below_one_removes_two_dice_per_base_by_default() {
        let mut spec = PoolSpec::new(3, 2, 3);
        spec.modifiers.push(Modifier::new("X", "x", -4));
        assert!(spec.plan().auto_fail);
        spec.below_one = BelowOne::OneDie;
        assert_eq!(spec.plan().dice, 3);
    }

    #[test]
    fn bfs_dice_5_example_1_losses_do_not_trigger_zero_dice() {
        // 3-base reiter column, lost a Strength point, pistols while charging: 1 die per base,
        // the loss marker takes one: 2 dice, hitting on 4 or less.
        let mut spec = PoolSpec::new(3, 1, 4);
        spec.dice_changes.push(DiceChange {
            rule: "BFS-CBT-10".into(),
            reason: "casualty marker".into(),
            delta: -1,
            base: 0,
        });
        let plan = spec.plan();
        assert_eq!(plan.dice, 2);
        assert_eq!(plan.target, 4);
    }

    #[test]
    fn bfs_dice_5_example_2_one_die_at_minus_one() {
        // A 1-base musketeer unit with losses in close combat: its 1 die drops to 0, so it
        // rolls 1 die at −1.
        let mut spec = PoolSpec::new(1, 1, 4);
        spec.dice_changes.push(DiceChange {
            rule: "BFS-CBT-10".into(),
            reason: "casualty marker".into(),
            delta: -1,
            base: 0,
        });
        let plan = spec.plan();
        assert_eq!(plan.dice, 1);
        assert_eq!(plan.target, 3);
        assert!(plan.modifiers.iter().any(|m| m.rule == "BFS-DICE-5"));
    }

    #[test]
    fn bfs_dice_6_reroll_hits_counts_only_second_successes() {
        // The example: 6 dice needing 4: 2, 8, 4, 0, 7, 5 → 2 successes; reroll 3 and 8 → 1 hit.
        let first = [2u8, 8, 4, 10, 7, 5];
        let kept: Vec<u8> = first.iter().copied().filter(|f| *f <= 4).collect();
        assert_eq!(kept.len(), 2);
        let again = [3u8, 8];
        assert_eq!(again.iter().filter(|f| **f <= 4).count(), 1);
        // And the engine's probability matches p².
        let mut spec = PoolSpec::new(6, 1, 4);
        spec.reroll = Reroll::Hits;
        assert!((spec.plan().success_chance() - 0.16).abs() < 1e-12);
    }

    #[test]
    fn rolled_successes_never_exceed_dice_and_follow_the_faces() {
        let mut d = Dice::from_seed(3);
        let plan = PoolSpec::new(4, 2, 5).plan();
        for _ in 0..100 {
            let r = plan.roll(&mut d);
            assert_eq!(r.faces.len(), 8);
            assert_eq!(
                r.successes as usize,
                r.faces.iter().filter(|f| **f <= 5).count()
            );
        }
    }

    #[test]
    fn test_roll_limits() {
        let mut d = Dice::from_seed(1);
        assert!(TestRoll::roll(10, vec![], &mut d, 10).passed);
        let t = TestRoll::roll(5, vec![Modifier::new("X", "x", -6)], &mut d, 10);
        assert!(!t.passed && t.face.is_none());
    }
}
