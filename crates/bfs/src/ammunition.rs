//! Ammunition, the optional rule BFS-OPT-7 (BFS-AMM). With the scenario's option `ammunition`
//! set to `"counting"` or `"test"`, every unit with a ranged weapon starts with a supply that
//! its volleys spend; a unit out of ammunition cannot shoot, but fights on in close combat
//! (BFS-AMM-1). The book offers two methods, and the players pick one for the battle:
//!
//! - **Counting** (BFS-AMM-2..4): 6 Ammunition Units (4 with Scarce Ammunition, 8 with Plenty),
//!   ½ spent by a volley of up to half the unit's bases, 1 by more; with only ½ left, only half
//!   the bases fire. Kept here in half units.
//! - **Ammunition test** (BFS-AMM-6, -7): each volley after the first rolls one more die, and
//!   the unit runs out on 8–10 (7–10 Scarce, 9–10 Plenty), one easier for a volley of up to half
//!   its bases.
//!
//! Either way a unit with a Defense order may take ammunition from the dead: 2 Special
//! Maneuvers and a Skill test (at −2 under the test method). Pistols serve in close combat while
//! the unit has ammunition, and spend it as a volley would (BFS-WPN-5); a hail of arrows spends
//! 2 units, or is tested twice (BFS-OPT-2).
//!
//! Replenishing from an ammunition wagon (BFS-AMM-5, BFS-AMM-8) is in [`crate::wagon::supply`].
//! A lone commander's shot (BFS-CDR-16) spends nothing: the book counts ammunition for units.

use crate::dice::{Modifier, TestRoll};
use crate::event::{Event, TestKind, TestReport};
use crate::ids::UnitId;
use crate::options::Options;
use crate::profile::{SpecialRule, UnitProfile};
use crate::state::{Game, UnitStatus};
use sandtable_engine::RuleError;
use serde::{Deserialize, Serialize};

/// Which of the book's two methods the battle uses (BFS-AMM-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Method {
    /// Ammunition Units counted on the unit card (BFS-AMM-2..5).
    Counting,
    /// An ammunition die rolled with every volley (BFS-AMM-6..8).
    Test,
}

/// A unit's ammunition rule in its description (BFS-AMM-2, BFS-AMM-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stock {
    Normal,
    Scarce,
    Plenty,
}

impl Stock {
    pub fn of(p: &UnitProfile) -> Self {
        if p.has(SpecialRule::ScarceAmmunition) {
            Stock::Scarce
        } else if p.has(SpecialRule::PlentyOfAmmunition) {
            Stock::Plenty
        } else {
            Stock::Normal
        }
    }

    /// Ammunition Units at the start, counting (BFS-AMM-2).
    pub fn units(self) -> u8 {
        match self {
            Stock::Normal => 6,
            Stock::Scarce => 4,
            Stock::Plenty => 8,
        }
    }

    /// The highest ammunition die that keeps the ammunition after a volley of more than half
    /// the bases (BFS-AMM-6): out on 8–10, Scarce 7–10, Plenty 9–10.
    pub fn test_target(self) -> i32 {
        match self {
            Stock::Normal => 7,
            Stock::Scarce => 6,
            Stock::Plenty => 8,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Stock::Normal => "the usual ammunition",
            Stock::Scarce => "Scarce Ammunition",
            Stock::Plenty => "Plenty of Ammunition",
        }
    }
}

/// What a unit has left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Supply {
    /// Half Ammunition Units left, and at the start (BFS-AMM-2, -3).
    Counting { halves: u8, start: u8 },
    /// Whether it has shot yet (its first volley needs no test) and whether it ran out
    /// (BFS-AMM-6).
    Test { shot_before: bool, out: bool },
}

impl Supply {
    pub fn is_out(self) -> bool {
        match self {
            Supply::Counting { halves, .. } => halves == 0,
            Supply::Test { out, .. } => out,
        }
    }

    /// For the unit card: "3½ of 6 Ammunition Units", "ammunition", "out of ammunition".
    pub fn label(self) -> String {
        match self {
            Supply::Counting { halves, start } => {
                format!("{} of {} Ammunition Units", half_units(halves), start / 2)
            }
            Supply::Test { out: true, .. } => "out of ammunition".into(),
            Supply::Test {
                shot_before: false, ..
            } => "ammunition; the first volley needs no test".into(),
            Supply::Test { .. } => "ammunition; each volley tests it".into(),
        }
    }
}

/// "3½", "½", "0".
pub fn half_units(halves: u8) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".into(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// The supply a unit starts the battle with, when the battle plays the optional rule: every
/// unit with a ranged weapon, guns included (the book has a re-manned gun keep its ammunition).
pub fn starting_supply(options: &Options, p: &UnitProfile) -> Option<Supply> {
    p.ranged?;
    let stock = Stock::of(p);
    match options.ammunition? {
        Method::Counting => Some(Supply::Counting {
            halves: 2 * stock.units(),
            start: 2 * stock.units(),
        }),
        Method::Test => Some(Supply::Test {
            shot_before: false,
            out: false,
        }),
    }
}

/// May the unit shoot at all (BFS-AMM-1)? Not when it is out, nor with only ½ unit left when
/// half its bases is none (BFS-AMM-3: a lone gun with ½ unit left cannot fire).
pub fn may_shoot(game: &Game, unit: UnitId) -> bool {
    bases_allowed(game, unit) != Some(0)
}

/// How many of its bases may fire now, when its ammunition limits them: none when out, half
/// (rounded down) with only ½ Ammunition Unit left (BFS-AMM-3).
pub fn bases_allowed(game: &Game, unit: UnitId) -> Option<usize> {
    let u = game.unit(unit);
    match u.supply? {
        s if s.is_out() => Some(0),
        Supply::Counting { halves: 1, .. } => Some(u.bases.len() / 2),
        _ => None,
    }
}

/// Why a volley spends ammunition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spent {
    /// A volley of this many bases.
    Volley(u32),
    /// One of the two volleys of a Countermarch: ½ unit each (BFS-SPC-8).
    Countermarch,
    /// A hail of arrows: 2 units whatever the bases, or a passed test rolled again (BFS-OPT-2).
    HailOfArrows(u32),
    /// Pistols in close combat, used as if fired (BFS-WPN-5).
    Pistols(u32),
}

impl Spent {
    fn bases(self) -> Option<u32> {
        match self {
            Spent::Volley(b) | Spent::HailOfArrows(b) | Spent::Pistols(b) => Some(b),
            Spent::Countermarch => None,
        }
    }

    fn rule(self) -> &'static str {
        match self {
            Spent::Volley(_) => "BFS-AMM-3",
            Spent::Countermarch => "BFS-SPC-8",
            Spent::HailOfArrows(_) => "BFS-OPT-2",
            Spent::Pistols(_) => "BFS-WPN-5",
        }
    }
}

/// Up to half the unit's bases (BFS-AMM-3, BFS-AMM-6).
fn up_to_half(game: &Game, unit: UnitId, bases: u32) -> bool {
    2 * bases as usize <= game.unit(unit).bases.len()
}

/// The unit has fired (or used its pistols): spend or test its ammunition, and say so.
pub fn spend(game: &mut Game, unit: UnitId, how: Spent, events: &mut Vec<Event>) {
    let Some(supply) = game.unit(unit).supply else {
        return;
    };
    let half = how.bases().is_none_or(|b| up_to_half(game, unit, b));
    match supply {
        Supply::Counting { halves, start } => {
            let cost = match how {
                Spent::HailOfArrows(_) => 4,
                Spent::Countermarch => 1,
                _ if half => 1,
                _ => 2,
            };
            let left = halves.saturating_sub(cost);
            game.unit_mut(unit).supply = Some(Supply::Counting {
                halves: left,
                start,
            });
            let u = game.unit(unit);
            let why = match how {
                Spent::HailOfArrows(_) => "a hail of arrows always spends 2".to_string(),
                Spent::Countermarch => "each volley of a Countermarch spends ½".into(),
                _ if half => "up to half its bases fired: ½".into(),
                _ => "more than half its bases fired: 1".into(),
            };
            let out = if left == 0 {
                " It is out of ammunition and cannot shoot (BFS-AMM-1)."
            } else if left == 1 {
                " With ½ left, only half its bases may fire (BFS-AMM-3)."
            } else {
                ""
            };
            events.push(Event::Ruling {
                rule: how.rule().into(),
                text: format!(
                    "{} spends {} Ammunition Unit ({why}); {} left.{out}",
                    u.name,
                    half_units(cost),
                    half_units(left),
                ),
            });
        }
        Supply::Test { shot_before, out } => {
            if out {
                return;
            }
            if !shot_before {
                game.unit_mut(unit).supply = Some(Supply::Test {
                    shot_before: true,
                    out: false,
                });
                events.push(Event::Ruling {
                    rule: "BFS-AMM-6".into(),
                    text: format!(
                        "{}'s first volley of the battle: no ammunition test.",
                        game.unit(unit).name
                    ),
                });
                return;
            }
            let tries = if matches!(how, Spent::HailOfArrows(_)) {
                2
            } else {
                1
            };
            let mut ran_out = false;
            for attempt in 0..tries {
                if !ammunition_test(game, unit, half, how, attempt > 0, events) {
                    ran_out = true;
                    break;
                }
            }
            game.unit_mut(unit).supply = Some(Supply::Test {
                shot_before: true,
                out: ran_out,
            });
        }
    }
}

/// One ammunition die (BFS-AMM-6): passed keeps the ammunition.
fn ammunition_test(
    game: &mut Game,
    unit: UnitId,
    half: bool,
    how: Spent,
    again: bool,
    events: &mut Vec<Event>,
) -> bool {
    let stock = Stock::of(game.unit_profile(unit));
    let mut modifiers = Vec::new();
    if half {
        modifiers.push(Modifier::new("BFS-AMM-6", "up to half its bases fired", 1));
    }
    let roll = TestRoll::roll(stock.test_target(), modifiers, &mut game.dice, 10);
    let passed = roll.passed;
    let cause = match (how, again) {
        (Spent::HailOfArrows(_), true) => {
            "a hail of arrows: a passed ammunition test is rolled again (BFS-OPT-2)".to_string()
        }
        (Spent::Pistols(_), _) => "pistols used in close combat (BFS-WPN-5)".into(),
        _ => format!("it fired, with {}", stock.name()),
    };
    events.push(Event::Test(TestReport {
        unit: Some(unit),
        commander: None,
        kind: TestKind::Ammunition,
        rule: "BFS-AMM-6".into(),
        cause,
        roll,
        outcome: if passed {
            "it has ammunition left"
        } else {
            "it is out of ammunition and cannot shoot (BFS-AMM-1)"
        }
        .into(),
    }));
    passed
}

/// How much of its ammunition the unit has left, from 0 (out) to 1 (as it began, or no count
/// kept): for the computer's judgement of what a unit's fire is still worth.
pub fn share_left(u: &crate::state::Unit) -> f64 {
    match u.supply {
        None => 1.0,
        Some(Supply::Counting { halves, start }) => halves as f64 / start.max(1) as f64,
        Some(Supply::Test { out: true, .. }) => 0.0,
        Some(Supply::Test { out: false, .. }) => 1.0,
    }
}

/// Pistols in close combat (BFS-WPN-5): a unit with pistols that still has ammunition must use
/// them, at +1 to hit, with these bases fighting.
pub fn pistols_in_combat(game: &Game, unit: UnitId, bases: u32) -> bool {
    game.unit_profile(unit).ranged == Some(crate::weapons::RangedWeapon::Pistol)
        && bases_allowed(game, unit).is_none_or(|cap| bases as usize <= cap)
        && game.unit(unit).supply.is_some_and(|s| !s.is_out())
}

/// Special Maneuvers taking ammunition from the dead costs (BFS-AMM-4, BFS-AMM-7).
pub const RETRIEVE_MANEUVERS: u8 = 2;

/// May the unit take ammunition from the dead now: the battle counts ammunition and the unit
/// has less than it started with (BFS-AMM-4) or is out (BFS-AMM-7)?
pub fn check_retrieve(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let u = game.unit(unit);
    match u.supply {
        None => Err(RuleError::new(
            "BFS-AMM-1",
            format!(
                "{} keeps no ammunition: the battle is played without the Ammunition rules, or it has no ranged weapon.",
                u.name
            ),
        )),
        Some(Supply::Counting { halves, start }) if halves >= start => Err(RuleError::new(
            "BFS-AMM-4",
            format!(
                "{} has {} of its {} Ammunition Units: it may not take more than it began with.",
                u.name,
                half_units(halves),
                start / 2
            ),
        )),
        Some(Supply::Test { out: false, .. }) => Err(RuleError::new(
            "BFS-AMM-7",
            format!("{} still has ammunition.", u.name),
        )),
        Some(_) if u.status != UnitStatus::OnTable => Err(RuleError::new(
            "BFS-AMM-4",
            format!("{} is not on the table.", u.name),
        )),
        Some(_) => Ok(()),
    }
}

/// Takes ammunition from the dead: a Skill test, at −2 under the test method; passed, 1 unit
/// more (BFS-AMM-4) or the ammunition back (BFS-AMM-7).
pub fn retrieve(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) {
    let Some(supply) = game.unit(unit).supply else {
        return;
    };
    let (rule, modifiers, passed_text) = match supply {
        Supply::Counting { .. } => ("BFS-AMM-4", vec![], "it takes 1 Ammunition Unit"),
        Supply::Test { .. } => (
            "BFS-AMM-7",
            vec![Modifier::new(
                "BFS-AMM-7",
                "ammunition from the dead, test method",
                -2,
            )],
            "it has ammunition again",
        ),
    };
    let passed = crate::skill::test(
        game,
        crate::skill::Tester::Unit(unit),
        modifiers,
        crate::skill::Test {
            rule,
            cause: "it takes ammunition from the dead".into(),
            passed: passed_text,
            failed: "it finds none",
        },
        events,
    );
    if passed {
        game.unit_mut(unit).supply = Some(match supply {
            Supply::Counting { halves, start } => Supply::Counting {
                halves: (halves + 2).min(start),
                start,
            },
            Supply::Test { .. } => Supply::Test {
                shot_before: true,
                out: false,
            },
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bfs_amm_2_stocks() {
        assert_eq!(Stock::Normal.units(), 6);
        assert_eq!(Stock::Scarce.units(), 4);
        assert_eq!(Stock::Plenty.units(), 8);
    }

    #[test]
    fn bfs_amm_6_out_on_eight_to_ten_and_one_easier_for_half() {
        // Normal: out on 8-10, on 9-10 for up to half; Scarce 7-10; Plenty 9-10 (and only 10).
        assert_eq!(Stock::Normal.test_target(), 7);
        assert_eq!(Stock::Normal.test_target() + 1, 8);
        assert_eq!(Stock::Scarce.test_target(), 6);
        assert_eq!(Stock::Plenty.test_target() + 1, 9);
    }

    #[test]
    fn half_units_read_as_the_card_marks_them() {
        assert_eq!(half_units(7), "3½");
        assert_eq!(half_units(1), "½");
        assert_eq!(half_units(12), "6");
        assert_eq!(half_units(0), "0");
    }
}
