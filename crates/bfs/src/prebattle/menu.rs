//! What the seat to act may choose at each step, with the rules' reason for what it may not, and
//! how much the computer likes each choice (the same candidates a person is offered).

use super::book::{BookScenario, Effect, ReconEffect, enemy_effects_allowed};
use super::terrain_setup::{self, TerrainPick};
use super::{Choice, PreBattle, Step};
use crate::ids::Side;
use crate::profile::UnitKind;
use sandtable_engine::RuleError;

/// One entry of the menu.
pub struct Offer {
    pub choice: Choice,
    pub label: String,
    pub rule: &'static str,
    pub refused: Option<String>,
    pub score: i32,
}

impl Offer {
    /// A terrain element offered at a place: its kind and size group it, its centre places it.
    pub fn placement(&self) -> Option<(String, (f32, f32))> {
        match &self.choice {
            Choice::PlaceTerrain(p) | Choice::AddTerrain(p) => Some((
                format!(
                    "{} {:.0}×{:.0} cm",
                    super::terrain_setup::kind_name(p.kind),
                    p.size.0,
                    p.size.1
                ),
                p.center,
            )),
            _ => None,
        }
    }
}

fn refuse(rule: &str, message: impl Into<String>) -> Result<(), RuleError> {
    Err(RuleError::new(rule, message))
}

impl PreBattle {
    /// Whether `side` may make this choice now (the side to act is checked by the caller).
    pub fn check(&self, side: Side, choice: &Choice) -> Result<(), RuleError> {
        let wrong_step = || {
            RuleError::new(
                "BFS-SCN-9",
                format!("That is not a decision of this step ({:?}).", self.step),
            )
        };
        match (choice, &self.step) {
            (Choice::RollScenario, Step::RollScenario) => Ok(()),
            (Choice::PickScenario(s), Step::PickScenario) => self.check_pick(*s),
            (Choice::DiscardAll, Step::PickScenario) => {
                if self.may_discard_all() {
                    Ok(())
                } else {
                    refuse(
                        "BFS-SCN-16",
                        "Only a Weaker Defensive force may discard, and only Forage, Ambush and Night attack.",
                    )
                }
            }
            (Choice::Fortify(n), Step::Fortifications) => {
                if n % 2 != 0 {
                    refuse(
                        "BFS-SCN-13",
                        "Fortifications come in pairs of elements: 2 elements are 1 FSP (A-8).",
                    )
                } else if n / 2 > self.fortification_room() {
                    refuse(
                        "BFS-SCN-13",
                        format!(
                            "At most {} elements: fortifications may not exceed the FSP difference left after the scenario (A-25).",
                            self.fortification_room() * 2
                        ),
                    )
                } else {
                    Ok(())
                }
            }
            (Choice::RollEffect, Step::RollEffects) => {
                if self.effects_due <= self.effects_to_choose {
                    refuse(
                        "BFS-OPT-4",
                        "The effects left are chosen, not rolled (Choice of Effects: one in three).",
                    )
                } else {
                    Ok(())
                }
            }
            (Choice::ChooseEffect(e), Step::RollEffects) => self.check_choose_effect(*e),
            (Choice::GoodDay(own), Step::GoodOrBadDay) => {
                let enemy = side.other();
                let cp = self.forces[enemy.index()].summary.command_points as i32
                    + self.cp_change[enemy.index()] as i32;
                if !own && cp - 1 < 2 {
                    refuse(
                        "BFS-SCN-34",
                        format!(
                            "{}'s Commander has {cp} CP, and a Bad Day never takes him below 2.",
                            self.name(enemy)
                        ),
                    )
                } else {
                    Ok(())
                }
            }
            (Choice::PlaceTerrain(pick), Step::PlaceTerrain(_))
            | (Choice::AddTerrain(pick), Step::ChoiceOfTerrain) => {
                match terrain_setup::refusal(pick, &self.elements, self.table) {
                    Some(why) => refuse("BFS-SCN-20", why),
                    None => Ok(()),
                }
            }
            (Choice::RemoveTerrain(i), Step::ChoiceOfTerrain) => match self.elements.get(*i) {
                None => refuse("BFS-SCN-34", "There is no such element."),
                Some(e) if e.fixed => refuse(
                    "BFS-SCN-34",
                    format!(
                        "The {} is the scenario's own and may not be removed.",
                        e.spec.name.clone().unwrap_or_default().to_lowercase()
                    ),
                ),
                Some(_) => Ok(()),
            },
            (Choice::KeepTerrain, Step::ChoiceOfTerrain) => Ok(()),
            (Choice::Buy(e, unit), Step::Reconnaissance) => {
                self.check_buy(side, *e, unit.as_deref())
            }
            (Choice::EndReconnaissance, Step::Reconnaissance) => Ok(()),
            (Choice::RobbersPick(unit), Step::RobbersPick) => {
                let Some(due) = self.robbers_picks.first() else {
                    return refuse("BFS-SPC-28", "No Robbers pick is due.");
                };
                if self.robbers(due.owner).contains(unit) {
                    Ok(())
                } else {
                    refuse(
                        "BFS-SPC-28",
                        format!(
                            "\"{unit}\" is not one of {}'s Robbers units.",
                            self.name(due.owner)
                        ),
                    )
                }
            }
            (Choice::DeployLayout(style), Step::Deploy(_)) => {
                if *style > 1 {
                    return refuse("BFS-SCN-48", "There are two layouts, 0 and 1.");
                }
                self.layout(side, *style)
                    .map(|_| ())
                    .map_err(|why| RuleError::new("BFS-SCN-48", why))
            }
            (Choice::Deploy(ps), Step::Deploy(_)) => match self.deployment_refusal(side, ps) {
                Some(why) => refuse("BFS-SCN-48", why),
                None => Ok(()),
            },
            _ => Err(wrong_step()),
        }
    }

    fn check_pick(&self, s: BookScenario) -> Result<(), RuleError> {
        let table = self.table_rolled.expect("rolled before picking");
        if !self.rolled.iter().any(|f| table.scenario(*f) == s) {
            return refuse(
                "BFS-SCN-12",
                format!("{} was not rolled; there are no rerolls.", s.name()),
            );
        }
        if !self.allowed_scenarios().contains(&s) {
            return refuse(
                "BFS-SCN-12",
                format!(
                    "{} is worth {} FSP, more than the {} FSP the Stronger side is ahead.",
                    s.name(),
                    s.value(self.weaker_is_defensive()),
                    self.difference()
                ),
            );
        }
        Ok(())
    }

    /// Choice of Effects (BFS-OPT-4): one in three of the effects due is chosen; never March
    /// Losses, Cowardly Commander or Exhaustion (so not Fatigue a second time), never a
    /// once-only effect twice, nor one that could not strike.
    fn check_choose_effect(&self, e: Effect) -> Result<(), RuleError> {
        let rule = "BFS-OPT-4";
        if !self.choice_of_effects {
            return refuse(
                rule,
                "Choice of Effects is an optional rule this sequence does not play.",
            );
        }
        if self.effects_to_choose == 0 {
            return refuse(rule, "No effect is left to choose: the rest are rolled.");
        }
        if !e.choosable() {
            return refuse(e.rule(), format!("{} may not be chosen.", e.name()));
        }
        let taken = |x: Effect| self.effects.iter().filter(|t| t.effect == x).count();
        let stronger = self.chooser().other();
        if e == Effect::Fatigue && taken(Effect::Fatigue) + taken(Effect::Exhaustion) > 0 {
            return refuse(
                "BFS-SCN-26",
                "Fatigue a second time would be Exhaustion, which may not be chosen.",
            );
        }
        if e.once() && taken(e) > 0 {
            return refuse(e.rule(), format!("{} is taken once only.", e.name()));
        }
        if e == Effect::Insubordination && self.insubordination_open(stronger).is_empty() {
            return refuse(e.rule(), "Every enemy unit is Insubordinate already.");
        }
        if e == Effect::Delay {
            let held = self.delayed.iter().filter(|d| d.0 == stronger).count();
            let eligible = self.delay_eligible(stronger).len() + held;
            if self.delay_eligible(stronger).is_empty() || held + 1 > eligible / 2 {
                return refuse(
                    e.rule(),
                    "At most half the enemy's units may be delayed (BFS-SCN-31).",
                );
            }
        }
        Ok(())
    }

    fn check_buy(&self, side: Side, e: ReconEffect, unit: Option<&str>) -> Result<(), RuleError> {
        // Splitting needs an enemy Squadron that can be split; forces the sequence deploys form
        // none (BFS-SCN-43, BFS-SCN-48).
        if e == ReconEffect::Splitting {
            return refuse(
                e.rule(),
                "The enemy has no Squadron to split: the sequence deploys every unit on its own, forming no Squadrons.",
            );
        }
        if !e.played() {
            return refuse(
                e.rule(),
                format!(
                    "{} is not yet played by Sandtable's battle, so it is not offered.",
                    e.name()
                ),
            );
        }
        let already = self.bought.iter().filter(|b| b.effect == e).count() as u32;
        if e.most().is_some_and(|m| already >= m) {
            return refuse(
                e.rule(),
                format!(
                    "{} may be bought at most {} times.",
                    e.name(),
                    e.most().unwrap_or(0)
                ),
            );
        }
        if self.bought.len() as u32 >= self.recon_cap(side) {
            return refuse(
                "BFS-SCN-36",
                format!(
                    "No more than {} effects: as many as your Commander's Command Points.",
                    self.recon_cap(side)
                ),
            );
        }
        if e.against_enemy() {
            let cap = enemy_effects_allowed(self.fsp(side.other()));
            let used = self
                .bought
                .iter()
                .filter(|b| b.effect.against_enemy())
                .count() as u32;
            if used >= cap {
                return refuse(
                    "BFS-SCN-42",
                    format!(
                        "Against a force of {} FSP you may buy {cap} Effects Affecting the Enemy.",
                        self.fsp(side.other())
                    ),
                );
            }
        }
        if e == ReconEffect::ForcedMarch {
            let Some(id) = unit else {
                return refuse("BFS-SCN-39", "A Forced March names its unit.");
            };
            let Some(u) = self.forces[side.index()].units.iter().find(|u| u.id == id) else {
                return refuse("BFS-SCN-39", format!("\"{id}\" is not in your force."));
            };
            let kind = self.lists[side.index()].profile(&u.profile).map(|p| p.kind);
            if matches!(kind, Some(UnitKind::Wagon | UnitKind::Artillery)) {
                return refuse(
                    "BFS-SCN-39",
                    "Wagons and artillery do not make Forced Marches.",
                );
            }
            if self.delayed.iter().any(|d| d.0 == side && d.1 == id) {
                return refuse(
                    "BFS-SCN-39",
                    format!("{} is held back and does not deploy.", u.name),
                );
            }
            if self
                .bought
                .iter()
                .any(|b| b.effect == e && b.unit.as_deref() == Some(id))
            {
                return refuse("BFS-SCN-39", format!("{} already marches.", u.name));
            }
        }
        let cost = self.recon_cost(side, e, unit);
        if cost > self.rp_left {
            return refuse(
                e.rule(),
                format!("It costs {cost} RP; {} are left.", self.rp_left),
            );
        }
        Ok(())
    }

    /// Every entry of the menu of `side` now.
    pub fn offers(&self, side: Side) -> Vec<Offer> {
        if self.to_act() != Some(side) {
            return Vec::new();
        }
        let mut raw: Vec<(Choice, String, &'static str, i32)> = Vec::new();
        match &self.step {
            Step::RollScenario => raw.push((
                Choice::RollScenario,
                match self.weaker {
                    None => "Roll the scenario (equal strength)".into(),
                    Some(_) => format!(
                        "Roll {} D10 for the scenario",
                        self.forces[side.index()].summary.command_points
                    ),
                },
                "BFS-SCN-9",
                0,
            )),
            Step::PickScenario => {
                let table = self.table_rolled.expect("rolled");
                let mut seen = Vec::new();
                for f in &self.rolled {
                    let s = table.scenario(*f);
                    if seen.contains(&s) {
                        continue;
                    }
                    seen.push(s);
                    let v = s.value(self.weaker_is_defensive());
                    let defends = self.weaker.is_some_and(|w| {
                        matches!(super::maps::map(s).roles, super::maps::Roles::WeakerDefends)
                            && w == side
                    });
                    raw.push((
                        Choice::PickScenario(s),
                        format!("Play {} (value {v})", s.name()),
                        "BFS-SCN-12",
                        v as i32 * 10 + if defends { 5 } else { 0 },
                    ));
                }
                raw.push((
                    Choice::DiscardAll,
                    "Discard them all: play Delay the enemy".into(),
                    "BFS-SCN-16",
                    -5,
                ));
            }
            Step::Fortifications => {
                for n in 0..=self.fortification_room() {
                    raw.push((
                        Choice::Fortify(n * 2),
                        format!("{} fortification elements (+{n} FSP)", n * 2),
                        "BFS-SCN-13",
                        n as i32,
                    ));
                }
            }
            Step::RollEffects => {
                raw.push((
                    Choice::RollEffect,
                    format!(
                        "Roll an Additional Effect ({} to go)",
                        self.effects_due - self.effects_to_choose.min(self.effects_due)
                    ),
                    "BFS-SCN-24",
                    0,
                ));
                if self.choice_of_effects && self.effects_to_choose > 0 {
                    for e in Effect::ROLLED.into_iter().filter(|e| e.choosable()) {
                        raw.push((
                            Choice::ChooseEffect(e),
                            format!("Choose {} ({} to choose)", e.name(), self.effects_to_choose),
                            "BFS-OPT-4",
                            choose_score(e),
                        ));
                    }
                }
            }
            Step::GoodOrBadDay => {
                raw.push((
                    Choice::GoodDay(true),
                    "Good Day: your Commander gains 1 CP".into(),
                    "BFS-SCN-34",
                    10,
                ));
                raw.push((
                    Choice::GoodDay(false),
                    "Bad Day: the enemy Commander loses 1 CP".into(),
                    "BFS-SCN-34",
                    8,
                ));
            }
            Step::PlaceTerrain(_) => {
                for pick in terrain_setup::candidates(&self.elements, self.table) {
                    let score = terrain_setup::computer_score(&pick, &self.elements);
                    raw.push((
                        Choice::PlaceTerrain(pick),
                        format!("Place {}", pick.describe()),
                        "BFS-SCN-20",
                        score,
                    ));
                }
            }
            Step::ChoiceOfTerrain => {
                raw.push((
                    Choice::KeepTerrain,
                    "Leave the terrain as it is".into(),
                    "BFS-SCN-34",
                    30,
                ));
                for (i, e) in self.elements.iter().enumerate() {
                    raw.push((
                        Choice::RemoveTerrain(i),
                        format!(
                            "Remove the {}",
                            e.spec.name.clone().unwrap_or_default().to_lowercase()
                        ),
                        "BFS-SCN-34",
                        -10,
                    ));
                }
                let own_half = |p: &TerrainPick| {
                    self.south(side)
                        .is_some_and(|s| (p.center.1 < self.table.1 * 0.5) == s)
                };
                for pick in terrain_setup::candidates(&self.elements, self.table) {
                    let score = terrain_setup::computer_score(&pick, &self.elements) / 2
                        + if own_half(&pick) { 20 } else { -20 };
                    raw.push((
                        Choice::AddTerrain(pick),
                        format!("Add {}", pick.describe()),
                        "BFS-SCN-34",
                        score,
                    ));
                }
            }
            Step::Reconnaissance => {
                for e in ReconEffect::ALL {
                    if e == ReconEffect::ForcedMarch {
                        for u in &self.forces[side.index()].units {
                            let foot = self.lists[side.index()]
                                .profile(&u.profile)
                                .is_some_and(|p| p.kind == UnitKind::Infantry);
                            raw.push((
                                Choice::Buy(e, Some(u.id.clone())),
                                format!(
                                    "Forced March for {} ({} RP)",
                                    u.name,
                                    e.cost(0, u.bases as u32)
                                ),
                                e.rule(),
                                if foot { 20 } else { 12 } + u.bases as i32,
                            ));
                        }
                    } else {
                        raw.push((
                            Choice::Buy(e, None),
                            format!("{} ({} RP)", e.name(), self.recon_cost(side, e, None)),
                            e.rule(),
                            10,
                        ));
                    }
                }
                raw.push((
                    Choice::EndReconnaissance,
                    format!("End the reconnaissance ({} RP left)", self.rp_left),
                    "BFS-SCN-36",
                    5,
                ));
            }
            Step::Deploy(_) => {
                raw.push((
                    Choice::DeployLayout(0),
                    "Deploy: foot in the centre, horse on the wings".into(),
                    "BFS-SCN-48",
                    10,
                ));
                raw.push((
                    Choice::DeployLayout(1),
                    "Deploy: foot in front, horse behind".into(),
                    "BFS-SCN-48",
                    5,
                ));
            }
            Step::RobbersPick => {
                if let Some(due) = self.robbers_picks.first().copied() {
                    for unit in self.robbers(due.owner) {
                        // The enemy takes the strongest, the owner spares it: bases left.
                        let bases = self.forces[due.owner.index()]
                            .units
                            .iter()
                            .find(|u| u.id == unit)
                            .map_or(0, |u| u.bases as i32);
                        let score = if due.picker == due.owner {
                            -bases
                        } else {
                            bases
                        };
                        raw.push((
                            Choice::RobbersPick(unit.clone()),
                            format!("{} loses 1 SP", self.unit_name(due.owner, &unit)),
                            "BFS-SPC-28",
                            score,
                        ));
                    }
                }
            }
            Step::Ready => {}
        }
        raw.into_iter()
            .map(|(choice, label, rule, score)| Offer {
                refused: self.check(side, &choice).err().map(|e| e.message),
                choice,
                label,
                rule,
                score,
            })
            .collect()
    }
}

/// How much the computer likes choosing an effect (BFS-OPT-4): a unit held back or panicked hurts
/// the enemy most at once, then what weakens his tests, then what helps one's own.
fn choose_score(e: Effect) -> i32 {
    match e {
        Effect::Delay => 9,
        Effect::Panic => 8,
        Effect::Fatigue => 7,
        Effect::Enthusiasm => 6,
        Effect::Insubordination => 5,
        Effect::GoodBadDay => 5,
        Effect::UnexpectedReinforcements => 4,
        Effect::ChoiceOfTerrain => 3,
        _ => 0,
    }
}
