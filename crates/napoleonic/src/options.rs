//! The readings the sheet leaves open, as named options of the scenario (`options: {…}`), each
//! with the digest's default: the [M]/[L] readings of NQ rules and the house rules G1–G22 of the
//! digest's §10. An unknown name or a value of the wrong kind is refused, naming the option.

use sandtable_engine::Problem;
use sandtable_engine::scenario::OptionValue;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// NQ-ART-1 [L]: what the bracketed number after an artillery range is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BracketMeaning {
    /// The distance the ball bounces on past the point of aim (default).
    BounceLength,
    /// No meaning: a solid shot strikes only what stands at the point of aim.
    Ignored,
}

/// NQ-ART-4 [M]: which column of the Solid Shot Firing Table the sheet leaves blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SolidShotBlank {
    /// Close (canister range) is blank; solid shot at close range uses another column
    /// (`solid_shot_close_column`). Default.
    Close,
    /// Extreme is blank: the three entries are close, medium and long; no solid shot at extreme.
    Extreme,
}

/// NQ-MOR-4 under the house morale numbers: who counts as "morale number 20 or more".
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum EliteRule {
    /// A-rated units (house default: no house morale number reaches 20).
    RatedA,
    /// Units whose morale number is at least this (the sheet's literal reading: 20).
    Threshold(u32),
}

/// G9: the result of a close action whose products are equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeleeTie {
    /// The defender holds; the charger counts as the loser (default).
    DefenderHolds,
    /// Both roll again until the products differ.
    RollAgain,
}

/// G22: which figures choose the casualty chart's column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CasualtyColumn {
    /// The charging unit's figures in contact, for both sides (the sheet's words; default).
    ChargerFigures,
    /// Each side its own figures in contact.
    OwnFigures,
}

/// The end of a battle that runs out of periods with neither side broken (house).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Timeout {
    /// The side that took the larger share of the enemy's figures wins (default).
    Losses,
    /// A draw.
    Draw,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// NQ-MOV-1 [M]: infantry road rate, inches per action (15; the sheet prints 5).
    pub infantry_road: f32,
    /// NQ-MOV-5 [L]: how far leaders move in step 8, inches (30; the table says 15).
    pub leader_move: f32,
    /// G3: turn points each side starts with.
    pub turn_points: u32,
    /// G3: only the winning bid is paid.
    pub winner_pays_only: bool,
    /// G4: after A stops, D activates its remaining units one at a time.
    pub d_finishes_after_a: bool,
    /// G5: a unit is in command within this many inches of its brigade's leader.
    pub command_radius: f32,
    /// G5: actions an out-of-command unit may use.
    pub out_of_command_actions: u8,
    /// G7: the morale die (20: pass on D20 ≤ morale number + modifiers).
    pub morale_die: u32,
    /// G7: morale numbers by rating A..E.
    pub morale_numbers: [u32; 5],
    /// NQ-MOR-4: who counts as having a morale number of 20 or more.
    pub reform_elite: EliteRule,
    /// NQ-ART-1 [L]: the bracketed numbers.
    pub bracket_meaning: BracketMeaning,
    /// NQ-ART-4 [M]: the blank column.
    pub solid_shot_blank: SolidShotBlank,
    /// NQ-ART-4 (house): solid shot at close range uses the Medium column.
    pub solid_shot_at_close: bool,
    /// NQ-CA-6 step 3 [M]: cavalry from outside the infantry's front arc rides it down outright
    /// unless it faces the charge or forms square.
    pub outside_arc_rides_down: bool,
    /// G9: ties in a close action.
    pub melee_tie: MeleeTie,
    /// G22: the casualty chart's column.
    pub casualty_column: CasualtyColumn,
    /// G15: a side breaks at this share of its starting figures lost.
    pub break_fraction: f32,
    /// House: a battle that runs out of periods.
    pub timeout: Timeout,
    /// G14: a unit that stood all period with no enemy within 12" recovers a fatigue level.
    pub fatigue_recovery: bool,
    /// G13: batteries roll for ammunition.
    pub ammunition: bool,
    /// G20: infantry charge distance, inches.
    pub infantry_charge: f32,
    /// G6: a leader with a routing unit is killed on a D6 roll of 1.
    pub leaders_at_risk: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            infantry_road: 15.0,
            leader_move: 30.0,
            turn_points: 20,
            winner_pays_only: true,
            d_finishes_after_a: true,
            command_radius: 12.0,
            out_of_command_actions: 1,
            morale_die: 20,
            morale_numbers: [18, 15, 12, 10, 8],
            reform_elite: EliteRule::RatedA,
            bracket_meaning: BracketMeaning::BounceLength,
            solid_shot_blank: SolidShotBlank::Close,
            solid_shot_at_close: true,
            outside_arc_rides_down: true,
            melee_tie: MeleeTie::DefenderHolds,
            casualty_column: CasualtyColumn::ChargerFigures,
            break_fraction: 0.5,
            timeout: Timeout::Losses,
            fatigue_recovery: true,
            ammunition: true,
            infantry_charge: 12.0,
            leaders_at_risk: true,
        }
    }
}

/// Every option's name, for the error that lists them.
pub const NAMES: &[&str] = &[
    "movement.infantry_road",
    "leader.move_step8",
    "turn_points.initial",
    "turn_points.winner_pays_only",
    "sequence.d_finishes_after_a",
    "command.radius",
    "command.ooc_max_actions",
    "morale.die",
    "morale.numbers",
    "reform.elite_threshold",
    "artillery.bracket_value_meaning",
    "artillery.solid_shot_blank",
    "artillery.solid_shot_close_column",
    "cav_charge.outside_front_arc_auto_ride_down",
    "melee.tie_rule",
    "melee.casualty_column",
    "victory.break_fraction",
    "victory.timeout",
    "fatigue.recovery",
    "artillery.ammo",
    "movement.infantry_charge",
    "leader.at_risk",
];

impl Options {
    /// The options of a scenario, or a problem for each one that cannot be read.
    pub fn from_scenario(map: &BTreeMap<String, OptionValue>) -> Result<Self, Vec<Problem>> {
        let mut o = Options::default();
        let mut problems = Vec::new();
        for (key, value) in map {
            let who = format!("option \"{key}\"");
            let mut bad = |want: &str| {
                problems.push(Problem::new(who.clone(), format!("expects {want}")));
            };
            let num = |v: &OptionValue| match v {
                OptionValue::Number(n) if n.is_finite() => Some(*n),
                _ => None,
            };
            let flag = |v: &OptionValue| match v {
                OptionValue::Bool(b) => Some(*b),
                _ => None,
            };
            fn text(v: &OptionValue) -> Option<&str> {
                match v {
                    OptionValue::Text(t) => Some(t.as_str()),
                    _ => None,
                }
            }
            match key.as_str() {
                "movement.infantry_road" => match num(value) {
                    Some(n) if (1.0..=60.0).contains(&n) => o.infantry_road = n as f32,
                    _ => bad("inches per action, 1 to 60 (15, or 5 as printed)"),
                },
                "leader.move_step8" => match num(value) {
                    Some(n) if (1.0..=60.0).contains(&n) => o.leader_move = n as f32,
                    _ => bad("inches, 1 to 60 (30, or 15 as the table says)"),
                },
                "turn_points.initial" => match num(value) {
                    Some(n) if (0.0..=1000.0).contains(&n) => o.turn_points = n as u32,
                    _ => bad("a number of turn points, 0 to 1000"),
                },
                "turn_points.winner_pays_only" => match flag(value) {
                    Some(b) => o.winner_pays_only = b,
                    None => bad("true or false"),
                },
                "sequence.d_finishes_after_a" => match flag(value) {
                    Some(b) => o.d_finishes_after_a = b,
                    None => bad("true or false"),
                },
                "command.radius" => match num(value) {
                    Some(n) if (1.0..=100.0).contains(&n) => o.command_radius = n as f32,
                    _ => bad("inches, 1 to 100"),
                },
                "command.ooc_max_actions" => match num(value) {
                    Some(n) if (0.0..=2.0).contains(&n) => o.out_of_command_actions = n as u8,
                    _ => bad("0, 1 or 2 actions"),
                },
                "morale.die" => match num(value) {
                    Some(n) if [6.0, 10.0, 20.0].contains(&n) => o.morale_die = n as u32,
                    _ => bad("the sides of the morale die: 6, 10 or 20"),
                },
                "morale.numbers" => match text(value).map(|t| {
                    t.split(',')
                        .map(|x| x.trim().parse::<u32>().ok().filter(|n| *n <= 40))
                        .collect::<Option<Vec<u32>>>()
                }) {
                    Some(Some(v)) if v.len() == 5 => {
                        o.morale_numbers = [v[0], v[1], v[2], v[3], v[4]]
                    }
                    _ => bad("five numbers for ratings A to E, like \"18,15,12,10,8\""),
                },
                "reform.elite_threshold" => match (text(value), num(value)) {
                    (Some("rated_a"), _) => o.reform_elite = EliteRule::RatedA,
                    (_, Some(n)) if (0.0..=40.0).contains(&n) => {
                        o.reform_elite = EliteRule::Threshold(n as u32)
                    }
                    _ => bad("\"rated_a\" or a morale number such as 20"),
                },
                "artillery.bracket_value_meaning" => match text(value) {
                    Some("bounce_length") => o.bracket_meaning = BracketMeaning::BounceLength,
                    Some("ignored") => o.bracket_meaning = BracketMeaning::Ignored,
                    _ => bad("\"bounce_length\" or \"ignored\""),
                },
                "artillery.solid_shot_blank" => match text(value) {
                    Some("close") => o.solid_shot_blank = SolidShotBlank::Close,
                    Some("extreme") => o.solid_shot_blank = SolidShotBlank::Extreme,
                    _ => bad("\"close\" or \"extreme\""),
                },
                "artillery.solid_shot_close_column" => match text(value) {
                    Some("medium") => o.solid_shot_at_close = true,
                    Some("none") => o.solid_shot_at_close = false,
                    _ => bad("\"medium\" or \"none\""),
                },
                "cav_charge.outside_front_arc_auto_ride_down" => match flag(value) {
                    Some(b) => o.outside_arc_rides_down = b,
                    None => bad("true or false"),
                },
                "melee.tie_rule" => match text(value) {
                    Some("defender_holds") => o.melee_tie = MeleeTie::DefenderHolds,
                    Some("roll_again") => o.melee_tie = MeleeTie::RollAgain,
                    _ => bad("\"defender_holds\" or \"roll_again\""),
                },
                "melee.casualty_column" => match text(value) {
                    Some("charger_figures") => o.casualty_column = CasualtyColumn::ChargerFigures,
                    Some("own_figures") => o.casualty_column = CasualtyColumn::OwnFigures,
                    _ => bad("\"charger_figures\" or \"own_figures\""),
                },
                "victory.break_fraction" => match num(value) {
                    Some(n) if n > 0.0 && n <= 1.0 => o.break_fraction = n as f32,
                    _ => bad("a fraction above 0 and at most 1"),
                },
                "victory.timeout" => match text(value) {
                    Some("losses") => o.timeout = Timeout::Losses,
                    Some("draw") => o.timeout = Timeout::Draw,
                    _ => bad("\"losses\" or \"draw\""),
                },
                "fatigue.recovery" => match flag(value) {
                    Some(b) => o.fatigue_recovery = b,
                    None => bad("true or false"),
                },
                "artillery.ammo" => match flag(value) {
                    Some(b) => o.ammunition = b,
                    None => bad("true or false"),
                },
                "movement.infantry_charge" => match num(value) {
                    Some(n) if (1.0..=30.0).contains(&n) => o.infantry_charge = n as f32,
                    _ => bad("inches, 1 to 30"),
                },
                "leader.at_risk" => match flag(value) {
                    Some(b) => o.leaders_at_risk = b,
                    None => bad("true or false"),
                },
                _ => problems.push(Problem::new(
                    who.clone(),
                    format!("is no option of this ruleset; it has: {}", NAMES.join(", ")),
                )),
            }
        }
        if problems.is_empty() {
            Ok(o)
        } else {
            Err(problems)
        }
    }

    /// The morale number of a rating (G7).
    pub fn morale_number(&self, rating: crate::vocab::Rating) -> u32 {
        self.morale_numbers[rating as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_digests_and_alternatives_are_selectable() {
        let o = Options::default();
        assert_eq!(o.infantry_road, 15.0);
        assert_eq!(o.leader_move, 30.0);
        let mut m = BTreeMap::new();
        m.insert("movement.infantry_road".into(), OptionValue::Number(5.0));
        m.insert("reform.elite_threshold".into(), OptionValue::Number(20.0));
        m.insert(
            "artillery.solid_shot_blank".into(),
            OptionValue::Text("extreme".into()),
        );
        let o = Options::from_scenario(&m).unwrap();
        assert_eq!(o.infantry_road, 5.0);
        assert_eq!(o.reform_elite, EliteRule::Threshold(20));
        assert_eq!(o.solid_shot_blank, SolidShotBlank::Extreme);
        m.insert("movement.warp".into(), OptionValue::Bool(true));
        let e = Options::from_scenario(&m).unwrap_err();
        assert!(e[0].entity.contains("movement.warp"));
    }
}
