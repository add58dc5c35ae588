//! Named rule options of By Fire and Sword (design principle 6).
//!
//! Each optional rule and each "Proposed resolution" of an ambiguity in the digests is an option a
//! scenario may set by name. The defaults are the digests' proposals.

use sandtable_engine::Problem;
use sandtable_engine::scenario::OptionValue;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Which corner's travel a wheel costs (AMB-4, BFS-MOV-14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum WheelReference {
    /// The corner diagonally opposite the pivot (the literal reading; default).
    #[default]
    Diagonal,
    /// The outer front corner (the charge-alignment example's reading).
    OuterFront,
}

/// What happens when a target falls below 1 by more than one point (AMB-6, BFS-DICE-4): the
/// dice pipeline's own setting.
pub use crate::dice::BelowOne;

/// Which test a charger takes when it fails to reach the enemy (AMB-10, BFS-CHG-24).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum FailedChargeTest {
    /// Skill test, as the main rules text says (default).
    #[default]
    Skill,
    /// Morale test, as the Game Turn summary says.
    Morale,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    pub wheel_reference: WheelReference,
    pub below_one: BelowOne,
    pub failed_charge_test: FailedChargeTest,
    /// Senior commanders' command range and cost step in cm (AMB-8: 40, or 30 where a list says so).
    pub senior_command_range_cm: f32,
    /// The horse archers' 270° arc leaves out the right flank (AMB-12); false = front and both flanks.
    pub bow_arc_excludes_right: bool,
    /// Free starting orders in turn 1 (BFS-ORD-15).
    pub starting_orders: bool,
    /// A unit may form a Column, march and form a Line again in one phase (000 l.4185-4186);
    /// off by default: the Movement chapter forbids it (BFS-MOV-15, BFS-AMV-2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub march_between_reforms: bool,
    /// The scenario allows field fortifications, and so portable obstacles below Division level
    /// (BFS-OBS-1, BFS-OBS-12).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub field_fortifications: bool,
    /// A Regiment tests its Motivation only when its Breaking Points exceed its Motivation Level,
    /// as the quick reference says; off by default: the body text's "at least as many" (AMB-03,
    /// BFS-PSY-27).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub motivation_when_exceeded: bool,
    /// Case-shot's dice are capped as a cannonball's are (1 at Open Order, no more than the
    /// ranks from front or rear); off by default: the caps are written for cannonball (A-6 of
    /// part 3, BFS-ART-5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub case_shot_caps: bool,
    /// Flanking fire, an optional rule (BFS-OPT-1): a base firing firearms or a gun from the
    /// target's flank rolls one die more. Off by default, as the book says.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub flanking_fire: bool,
    /// The Ammunition rules, an optional rule (BFS-OPT-7, BFS-AMM), by the method the players
    /// chose: ammunition counted in units or tested with a die. Off by default, as the book says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammunition: Option<crate::ammunition::Method>,
    /// Hail of arrows, an optional rule (BFS-OPT-2): bowmen with a Defense order may hold their
    /// Defender's Fire for a volley with one die more a base after movement. Off by default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hail_of_arrows: bool,
    /// Group orders (BFS-OPT-3): one order for up to 4 units of a Regiment, 2 CP. On by default:
    /// the Commanders chapter makes it a standard command.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub group_orders: bool,
    /// How close a group's units stand: a chain within 10 cm (default) or every pair.
    #[serde(default, skip_serializing_if = "is_chain")]
    pub group_order_spacing: crate::phases::group_order::Spacing,
    /// The book's learning simplification (BFS-GEN-4): every unit plays as an ordinary
    /// close-order unit, with no special rules and no Open Order. Off by default.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub basic_mode: bool,
    /// The engine revision the battle is played under ([`crate::revision`]). Fixed by the save,
    /// not by the scenario, and left out of the state hash so that saves made before revisions
    /// were recorded still check.
    #[serde(skip, default = "crate::revision::current")]
    pub rules_revision: u32,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            wheel_reference: WheelReference::Diagonal,
            below_one: BelowOne::DiePerPoint,
            failed_charge_test: FailedChargeTest::Skill,
            senior_command_range_cm: 40.0,
            bow_arc_excludes_right: true,
            starting_orders: true,
            march_between_reforms: false,
            field_fortifications: false,
            motivation_when_exceeded: false,
            case_shot_caps: false,
            flanking_fire: false,
            ammunition: None,
            hail_of_arrows: false,
            group_orders: true,
            group_order_spacing: crate::phases::group_order::Spacing::Chain,
            basic_mode: false,
            rules_revision: crate::revision::CURRENT,
        }
    }
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn is_chain(s: &crate::phases::group_order::Spacing) -> bool {
    *s == crate::phases::group_order::Spacing::Chain
}

/// Optional rules of the book that the engine does not play yet; enabling one is refused with a
/// clear message rather than silently ignored.
const NOT_YET: &[(&str, &str)] = &[
    ("fortune_favors_the_bold", "BFS-OPT-5"),
    ("numerical_superiority_markers", "BFS-OPT-6"),
];

impl Options {
    /// Every option name a scenario may use.
    pub const NAMES: &'static [&'static str] = &[
        "wheel_reference",
        "below_one",
        "failed_charge_test",
        "senior_command_range",
        "bow_arc_excludes_right",
        "starting_orders",
        "march_between_reforms",
        "field_fortifications",
        "motivation_when_exceeded",
        "case_shot_caps",
        "flanking_fire",
        "ammunition",
        "hail_of_arrows",
        "group_orders",
        "group_order_spacing",
        "basic_mode",
    ];

    pub fn from_scenario(map: &BTreeMap<String, OptionValue>) -> Result<Self, Vec<Problem>> {
        let mut o = Options::default();
        let mut problems = Vec::new();
        for (name, value) in map {
            let who = format!("option \"{name}\"");
            let mut bad = |expected: &str| {
                problems.push(Problem::new(
                    who.clone(),
                    format!("expected {expected}, found {value:?}"),
                ))
            };
            match (name.as_str(), value) {
                ("wheel_reference", OptionValue::Text(t)) => match t.as_str() {
                    "diagonal" => o.wheel_reference = WheelReference::Diagonal,
                    "outer_front" => o.wheel_reference = WheelReference::OuterFront,
                    _ => bad("\"diagonal\" or \"outer_front\""),
                },
                ("below_one", OptionValue::Text(t)) => match t.as_str() {
                    "die_per_point" => o.below_one = BelowOne::DiePerPoint,
                    "one_die" => o.below_one = BelowOne::OneDie,
                    _ => bad("\"die_per_point\" or \"one_die\""),
                },
                ("failed_charge_test", OptionValue::Text(t)) => match t.as_str() {
                    "skill" => o.failed_charge_test = FailedChargeTest::Skill,
                    "morale" => o.failed_charge_test = FailedChargeTest::Morale,
                    _ => bad("\"skill\" or \"morale\""),
                },
                ("senior_command_range", OptionValue::Number(n)) if *n == 30.0 || *n == 40.0 => {
                    o.senior_command_range_cm = *n as f32
                }
                ("senior_command_range", _) => bad("30 or 40"),
                ("bow_arc_excludes_right", OptionValue::Bool(b)) => o.bow_arc_excludes_right = *b,
                ("starting_orders", OptionValue::Bool(b)) => o.starting_orders = *b,
                ("march_between_reforms", OptionValue::Bool(b)) => o.march_between_reforms = *b,
                ("field_fortifications", OptionValue::Bool(b)) => o.field_fortifications = *b,
                ("motivation_when_exceeded", OptionValue::Bool(b)) => {
                    o.motivation_when_exceeded = *b
                }
                ("case_shot_caps", OptionValue::Bool(b)) => o.case_shot_caps = *b,
                ("flanking_fire", OptionValue::Bool(b)) => o.flanking_fire = *b,
                ("ammunition", OptionValue::Bool(false)) => o.ammunition = None,
                ("ammunition", OptionValue::Text(t)) => match t.as_str() {
                    "counting" => o.ammunition = Some(crate::ammunition::Method::Counting),
                    "test" => o.ammunition = Some(crate::ammunition::Method::Test),
                    _ => bad("\"counting\", \"test\" or false"),
                },
                ("ammunition", _) => bad("\"counting\", \"test\" or false"),
                ("hail_of_arrows", OptionValue::Bool(b)) => o.hail_of_arrows = *b,
                ("group_orders", OptionValue::Bool(b)) => o.group_orders = *b,
                ("basic_mode", OptionValue::Bool(b)) => o.basic_mode = *b,
                ("group_order_spacing", OptionValue::Text(t)) => match t.as_str() {
                    "chain" => o.group_order_spacing = crate::phases::group_order::Spacing::Chain,
                    "all_pairs" => {
                        o.group_order_spacing = crate::phases::group_order::Spacing::AllPairs
                    }
                    _ => bad("\"chain\" or \"all_pairs\""),
                },
                (n, OptionValue::Bool(false)) if NOT_YET.iter().any(|(k, _)| *k == n) => {}
                // Choice of Effects is played while the battle is set up, not in it.
                ("choice_of_effects", OptionValue::Bool(false)) => {}
                ("choice_of_effects", _) => problems.push(Problem::new(
                    who.clone(),
                    "Choice of Effects (BFS-OPT-4) is a rule of the pre-battle sequence, which sets up a battle: name it there (the set-up window's box, or sandtable-cli setup --option choice_of_effects), not in a scenario",
                )),
                (n, _) if NOT_YET.iter().any(|(k, _)| *k == n) => {
                    let rule = NOT_YET
                        .iter()
                        .find(|(k, _)| *k == n)
                        .map(|(_, r)| *r)
                        .unwrap_or("");
                    problems.push(Problem::new(who.clone(), format!("the optional rule {rule} is not implemented yet, so it cannot be switched on")))
                }
                (n, _) if Self::NAMES.contains(&n) => bad("a different kind of value"),
                _ => problems.push(Problem::new(
                    who.clone(),
                    format!(
                        "unknown option; known options are: {}",
                        Self::NAMES.join(", ")
                    ),
                )),
            }
        }
        if problems.is_empty() {
            Ok(o)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_proposed_resolutions() {
        let o = Options::from_scenario(&BTreeMap::new()).unwrap();
        assert_eq!(o.wheel_reference, WheelReference::Diagonal);
        assert_eq!(o.failed_charge_test, FailedChargeTest::Skill);
        assert_eq!(o.senior_command_range_cm, 40.0);
    }

    #[test]
    fn unknown_and_unimplemented_options_are_refused() {
        let mut m = BTreeMap::new();
        m.insert(
            "wheel_refrence".to_string(),
            OptionValue::Text("diagonal".into()),
        );
        m.insert(
            "fortune_favors_the_bold".to_string(),
            OptionValue::Bool(true),
        );
        m.insert("choice_of_effects".to_string(), OptionValue::Bool(true));
        m.insert(
            "numerical_superiority_markers".to_string(),
            OptionValue::Bool(true),
        );
        let errs = Options::from_scenario(&m).unwrap_err();
        assert_eq!(errs.len(), 4);
        assert!(errs.iter().any(|p| p.message.contains("BFS-OPT-5")));
        assert!(errs.iter().any(|p| p.message.contains("BFS-OPT-6")));
        assert!(errs.iter().any(|p| p.message.contains("unknown option")));
        // Choice of Effects belongs to the pre-battle sequence, and the message says where.
        assert!(
            errs.iter()
                .any(|p| p.message.contains("--option choice_of_effects"))
        );
    }

    #[test]
    fn bfs_opt_7_the_ammunition_method_is_named() {
        let mut m = BTreeMap::new();
        m.insert("ammunition".to_string(), OptionValue::Text("test".into()));
        let o = Options::from_scenario(&m).unwrap();
        assert_eq!(o.ammunition, Some(crate::ammunition::Method::Test));
        m.insert("ammunition".to_string(), OptionValue::Text("lots".into()));
        let errs = Options::from_scenario(&m).unwrap_err();
        assert!(errs[0].message.contains("\"counting\""), "{errs:?}");
        assert_eq!(
            Options::default().ammunition,
            None,
            "off by default (BFS-OPT-7)"
        );
    }
}
