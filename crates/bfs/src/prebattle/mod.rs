//! The pre-battle sequence of By Fire and Sword (BFS-SCN-9, steps A–J) as a state machine: from
//! two forces built from army lists to a scenario ready to fight.
//!
//! A. Army values: FSP, Force Value, loss chart, Reconnaissance Points ([`crate::force`]).
//! B. Weaker and Stronger by FSP; Defensive and Small Skirmish Forces (BFS-SCN-16, -17).
//! C/D. The scenario rolled on its table and chosen (BFS-SCN-10, -11, -12, -16).
//! E. Fortifications, where the scenario has them (BFS-SCN-13).
//! F. Additional Effects for the Weaker, rolled (BFS-SCN-14, -24..-34).
//! G. The battlefield: obligatory terrain, elements placed in turn, edges at random, Choice of
//!    Terrain (BFS-SCN-19..-23, -34).
//! H. Reconnaissance: the player with more RP buys effects with the difference (BFS-SCN-35..-47).
//! I. Deployment by the scenario's map, hidden from the other seat until both have deployed;
//!    Forced Marches after (BFS-SCN-48, -39).
//! J. The battle: the Weaker has the Initiative in turn 1 (BFS-SCN-15).
//!
//! Everything is decided by [`Choice`]s applied in order with the sequence's own dice, so a saved
//! sequence is its forces, its seed and its choices, replayed.

pub mod book;
mod builder;
mod deployment;
pub mod maps;
mod menu;
mod output;
mod seam;
mod terrain_setup;

use crate::army_list::ArmyList;
use crate::force::{Force, ForceFile};
use crate::ids::Side;
use crate::profile::SpecialRule;
use book::{BookScenario, Effect, ReconEffect, ScenarioTable};
use maps::{MapFrame, Roles, ScenarioMap};
use sandtable_engine::scenario::TerrainSpec;
use sandtable_engine::{Dice, RuleError};
use serde::{Deserialize, Serialize};

pub use deployment::Placement;
pub use seam::{BfsPreBattle, OPTIONS, apply_options, entry, resume_text, start_files};
pub use terrain_setup::TerrainPick;

/// The default table, 120 × 120 cm (BFS-SCN-2).
pub const TABLE_CM: (f32, f32) = (120.0, 120.0);

/// Where the sequence stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// C or D: the scenario is rolled (BFS-SCN-10, -11, -16).
    RollScenario,
    /// D: the Weaker picks one of the scenarios rolled (BFS-SCN-11, -12).
    PickScenario,
    /// E: the Weaker decides how many fortification elements (BFS-SCN-13).
    Fortifications,
    /// F: the Weaker rolls his Additional Effects one by one (BFS-SCN-14).
    RollEffects,
    /// F: Good/Bad Day: +1 CP for him or −1 for the enemy (BFS-SCN-34).
    GoodOrBadDay,
    /// G: a terrain element is placed by this side (BFS-SCN-20).
    PlaceTerrain(Side),
    /// G: Choice of Terrain, after the edges are known (BFS-SCN-34).
    ChoiceOfTerrain,
    /// H: the side with more RP buys Reconnaissance Effects (BFS-SCN-36).
    Reconnaissance,
    /// I: this side deploys (BFS-SCN-48).
    Deploy(Side),
    /// J: ready to fight.
    Ready,
    /// I, before any unit is placed: a seat picks a Robbers unit to take a loss (BFS-SPC-28).
    RobbersPick,
}

/// A decision of the seat to act.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Choice {
    RollScenario,
    PickScenario(BookScenario),
    /// A Weaker Defensive force discards every result it may discard: Delay the enemy is played
    /// (BFS-SCN-16).
    DiscardAll,
    Fortify(u32),
    RollEffect,
    /// Good/Bad Day: `true` for +1 CP to your Commander, `false` for −1 to the enemy's.
    GoodDay(bool),
    PlaceTerrain(TerrainPick),
    /// Choice of Terrain: add an element, remove one (by its index), or leave the table be.
    AddTerrain(TerrainPick),
    RemoveTerrain(usize),
    KeepTerrain,
    /// Buy a Reconnaissance Effect; the Forced March names its unit.
    Buy(ReconEffect, Option<String>),
    EndReconnaissance,
    /// Deploy by one of the ruleset's layouts (0: foot in the centre, horse on the wings; 1: foot
    /// in front, horse behind).
    DeployLayout(u8),
    /// Deploy each unit and commander where given.
    Deploy(Vec<Placement>),
    /// Choose an Additional Effect instead of rolling one (the optional Choice of Effects,
    /// BFS-OPT-4).
    ChooseEffect(Effect),
    /// Name the Robbers unit (by id) the pillage costs 1 SP (BFS-SPC-28).
    RobbersPick(String),
}

/// A pick the Robbers roll leaves to a seat (BFS-SPC-28): `picker` names one of `owner`'s
/// Robbers units to take 1 SP; on a 2–5 that unit also loses its free order in turn 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RobbersPickDue {
    pub owner: Side,
    pub picker: Side,
    pub no_free_order: bool,
}

/// What the pillage cost a Robbers unit: SP lost (not reorganized in turn 1) and whether it
/// lost its free turn-1 order (BFS-SPC-28).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pillaged {
    pub side: Side,
    pub unit: String,
    pub sp: u8,
    pub no_free_order: bool,
}

/// An Additional Effect taken, with what it struck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TakenEffect {
    pub effect: Effect,
    /// The unit or commander it struck, or the choice made, in words.
    pub detail: String,
}

/// A Reconnaissance Effect bought.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bought {
    pub effect: ReconEffect,
    pub unit: Option<String>,
    pub cost: u32,
}

/// One line of the record, with who may see it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub text: String,
    pub rule: String,
    pub dice: Vec<u8>,
    /// Only this side sees it (its hidden deployment); both when `None`.
    pub only: Option<Side>,
}

/// A placed terrain element.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Element {
    pub spec: TerrainSpec,
    /// Obligatory for the scenario, or field fortifications: not the players' to remove.
    pub fixed: bool,
    /// A player's element and what it was placed as.
    pub pick: Option<TerrainPick>,
}

/// The sequence.
#[derive(Debug, Clone)]
pub struct PreBattle {
    pub lists: [ArmyList; 2],
    pub forces: [Force; 2],
    pub table: (f32, f32),
    pub seed: u64,
    /// The sequence's dice; views of it go to no seat (tests script them).
    pub dice: Dice,
    pub step: Step,
    /// The Weaker side; `None` when the FSP are equal.
    pub weaker: Option<Side>,
    pub table_rolled: Option<ScenarioTable>,
    pub rolled: Vec<u8>,
    pub scenario: Option<BookScenario>,
    pub scenario_value: u32,
    /// The side whose edge is the map's defender edge.
    pub defender: Side,
    pub fortifications: u32,
    pub effects_due: u32,
    /// The optional rule Choice of Effects is played (BFS-OPT-4).
    pub choice_of_effects: bool,
    /// Of the effects due, how many are still to be chosen rather than rolled (BFS-OPT-4).
    pub effects_to_choose: u32,
    pub effects: Vec<TakenEffect>,
    /// Command Points added to (or taken from) each side's Skirmish Force Commander.
    pub cp_change: [i8; 2],
    /// Units made Insubordinate by the Additional Effect, by side and id.
    pub insubordinate: Vec<(Side, String)>,
    /// The commander Cowardly Commander struck, by side and id (BFS-SCN-30).
    pub coward: Option<(Side, String)>,
    /// Robbers picks still to make, first first (BFS-SPC-28).
    pub robbers_picks: Vec<RobbersPickDue>,
    /// What pillage cost each Robbers unit (BFS-SPC-28).
    pub pillaged: Vec<Pillaged>,
    /// Units held back before deployment, by side and id, and how they come on (BFS-SCN-31,
    /// -46).
    pub delayed: Vec<(Side, String, crate::delay::Delay)>,
    pub elements: Vec<Element>,
    pub elements_left: u32,
    /// Whether side A's own edge is the south edge (else north), once drawn.
    pub a_south: Option<bool>,
    pub recon_buyer: Option<Side>,
    pub rp_left: u32,
    pub bought: Vec<Bought>,
    pub deployed: [Option<Vec<Placement>>; 2],
    pub log: Vec<Entry>,
    /// Every choice made, in order, by side: the sequence's save.
    pub made: Vec<(Side, Choice)>,
}

impl PreBattle {
    /// Step A and B: the forces' values, Weaker and Stronger, and the first decision.
    pub fn new(lists: [ArmyList; 2], files: [ForceFile; 2], seed: u64) -> Result<Self, String> {
        let resolve = |i: usize| {
            files[i].resolve(&lists[i]).map_err(|ps| {
                format!(
                    "force \"{}\": {}",
                    files[i].name,
                    ps.iter()
                        .map(|p| format!("{}: {}", p.entity, p.message))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            })
        };
        let forces = [resolve(0)?, resolve(1)?];
        let mut seq = PreBattle {
            lists,
            forces,
            table: TABLE_CM,
            seed,
            dice: Dice::from_seed(seed),
            step: Step::RollScenario,
            weaker: None,
            table_rolled: None,
            rolled: Vec::new(),
            scenario: None,
            scenario_value: 0,
            defender: Side::A,
            fortifications: 0,
            effects_due: 0,
            choice_of_effects: false,
            effects_to_choose: 0,
            effects: Vec::new(),
            cp_change: [0, 0],
            insubordinate: Vec::new(),
            coward: None,
            robbers_picks: Vec::new(),
            pillaged: Vec::new(),
            delayed: Vec::new(),
            elements: Vec::new(),
            elements_left: 0,
            a_south: None,
            recon_buyer: None,
            rp_left: 0,
            bought: Vec::new(),
            deployed: [None, None],
            log: Vec::new(),
            made: Vec::new(),
        };
        for side in Side::BOTH {
            let s = &seq.forces[side.index()].summary;
            let text = format!(
                "{}: {} FSP, Force Value {} (losses: Minor to {}, Acceptable to {}, Heavy to {}, Very heavy to {}), {} Reconnaissance Points{}{}.",
                seq.forces[side.index()].file.name,
                s.fsp,
                s.force_value,
                s.thresholds[0],
                s.thresholds[1],
                s.thresholds[2],
                s.thresholds[3],
                s.reconnaissance_points,
                if s.small {
                    "; a Small Skirmish Force"
                } else {
                    ""
                },
                if s.defensive {
                    "; a Defensive Skirmish Force"
                } else {
                    ""
                },
            );
            seq.say(text, "BFS-LST-1", vec![]);
        }
        let (fa, fb) = (seq.fsp(Side::A), seq.fsp(Side::B));
        seq.weaker = match fa.cmp(&fb) {
            std::cmp::Ordering::Less => Some(Side::A),
            std::cmp::Ordering::Greater => Some(Side::B),
            std::cmp::Ordering::Equal => None,
        };
        let line = match seq.weaker {
            Some(w) => format!(
                "{} is the Weaker side by {} FSP.",
                seq.name(w),
                seq.fsp(w.other()) - seq.fsp(w)
            ),
            None => format!("Both forces have {fa} FSP: equal strength."),
        };
        seq.say(line, "BFS-SCN-9", vec![]);
        for side in Side::BOTH {
            let small = seq.forces[side.index()].summary.small;
            if small && seq.fsp(side.other()) > 8 {
                let line = format!(
                    "{} is a Small Skirmish Force facing {} FSP: the book advises against more than 7–8 in a casual game.",
                    seq.name(side),
                    seq.fsp(side.other())
                );
                seq.say(line, "BFS-SCN-17", vec![]);
            }
        }
        Ok(seq)
    }

    pub fn fsp(&self, side: Side) -> u32 {
        self.forces[side.index()].summary.fsp
    }

    pub fn name(&self, side: Side) -> &str {
        &self.forces[side.index()].file.name
    }

    fn defensive(&self, side: Side) -> bool {
        self.forces[side.index()].summary.defensive
    }

    fn say(&mut self, text: impl Into<String>, rule: &str, dice: Vec<u8>) {
        self.log.push(Entry {
            text: text.into(),
            rule: rule.into(),
            dice,
            only: None,
        });
    }

    /// The FSP difference, 0 when equal.
    pub fn difference(&self) -> u32 {
        self.fsp(Side::A).abs_diff(self.fsp(Side::B))
    }

    /// The side that decides at steps C–F: the Weaker, or side A when equal.
    fn chooser(&self) -> Side {
        self.weaker.unwrap_or(Side::A)
    }

    /// Who decides now.
    pub fn to_act(&self) -> Option<Side> {
        match &self.step {
            Step::RollScenario
            | Step::PickScenario
            | Step::Fortifications
            | Step::RollEffects
            | Step::GoodOrBadDay
            | Step::ChoiceOfTerrain => Some(self.chooser()),
            Step::PlaceTerrain(s) | Step::Deploy(s) => Some(*s),
            Step::Reconnaissance => self.recon_buyer,
            Step::RobbersPick => self.robbers_picks.first().map(|p| p.picker),
            Step::Ready => None,
        }
    }

    pub fn map(&self) -> Option<&'static ScenarioMap> {
        self.scenario.map(maps::map)
    }

    /// Map coordinates to the table, once the edges are drawn.
    pub fn frame(&self) -> Option<MapFrame> {
        let a_south = self.a_south?;
        Some(MapFrame {
            width: self.table.0,
            depth: self.table.1,
            defender_south: (self.defender == Side::A) == a_south,
        })
    }

    /// Whether `side`'s own edge is the south edge, once drawn.
    pub fn south(&self, side: Side) -> Option<bool> {
        self.a_south.map(|a| a == (side == Side::A))
    }

    /// Applies a choice of `side`.
    pub fn apply(&mut self, side: Side, choice: Choice) -> Result<(), RuleError> {
        if self.to_act() != Some(side) {
            return Err(RuleError::new(
                "BFS-SCN-9",
                match self.to_act() {
                    Some(s) => format!("It is {}'s decision now.", self.name(s)),
                    None => "The sequence is over: the battle is ready.".into(),
                },
            ));
        }
        self.check(side, &choice)?;
        let made = choice.clone();
        match choice {
            Choice::RollScenario => self.roll_scenario(),
            Choice::PickScenario(s) => self.set_scenario(s, "BFS-SCN-12"),
            Choice::DiscardAll => {
                self.say(
                    format!(
                        "{} discards every scenario rolled: Delay the enemy is played.",
                        self.name(side)
                    ),
                    "BFS-SCN-16",
                    vec![],
                );
                self.set_scenario(BookScenario::DelayTheEnemy, "BFS-SCN-16");
            }
            Choice::Fortify(n) => self.fortify(n),
            Choice::RollEffect => self.roll_effect(),
            Choice::ChooseEffect(e) => self.choose_effect(e),
            Choice::RobbersPick(u) => self.pick_robbers(&u),
            Choice::GoodDay(own) => self.good_day(own),
            Choice::PlaceTerrain(pick) => self.place_terrain(side, pick),
            Choice::AddTerrain(pick) => {
                self.say(
                    format!(
                        "Choice of Terrain: {} adds {}.",
                        self.name(side),
                        pick.describe()
                    ),
                    "BFS-SCN-34",
                    vec![],
                );
                self.elements.push(Element {
                    spec: pick.spec(),
                    fixed: false,
                    pick: Some(pick),
                });
                self.begin_reconnaissance();
            }
            Choice::RemoveTerrain(i) => {
                let e = self.elements.remove(i);
                self.say(
                    format!(
                        "Choice of Terrain: {} removes {}.",
                        self.name(side),
                        e.spec.name.clone().unwrap_or_default()
                    ),
                    "BFS-SCN-34",
                    vec![],
                );
                self.begin_reconnaissance();
            }
            Choice::KeepTerrain => {
                self.say(
                    format!(
                        "Choice of Terrain: {} leaves the table as it is.",
                        self.name(side)
                    ),
                    "BFS-SCN-34",
                    vec![],
                );
                self.begin_reconnaissance();
            }
            Choice::Buy(effect, unit) => self.buy(side, effect, unit),
            Choice::EndReconnaissance => {
                self.say(
                    format!(
                        "{} ends the reconnaissance with {} RP unspent.",
                        self.name(side),
                        self.rp_left
                    ),
                    "BFS-SCN-36",
                    vec![],
                );
                self.begin_deployment();
            }
            Choice::DeployLayout(style) => {
                let placements = self
                    .layout(side, style)
                    .expect("checked: the layout is legal");
                self.deploy(side, placements);
            }
            Choice::Deploy(placements) => self.deploy(side, placements),
        }
        self.made.push((side, made));
        Ok(())
    }

    fn roll_scenario(&mut self) {
        let one_defensive = self.defensive(Side::A) != self.defensive(Side::B);
        // Equal FSP with one Defensive force: Delay the enemy (BFS-SCN-16).
        if self.weaker.is_none() && one_defensive {
            self.say(
                "Equal FSP with one Defensive Skirmish Force: Delay the enemy is played.",
                "BFS-SCN-16",
                vec![],
            );
            self.set_scenario(BookScenario::DelayTheEnemy, "BFS-SCN-16");
            return;
        }
        // Both forces defensive: the equal-strength procedure (BFS-SCN-16).
        let table = match (self.weaker, one_defensive) {
            (None, _) => ScenarioTable::Equal,
            (Some(_), true) => ScenarioTable::Defensive,
            (Some(_), false) if self.defensive(Side::A) => ScenarioTable::Equal,
            (Some(_), false) => ScenarioTable::Unequal,
        };
        self.table_rolled = Some(table);
        match table {
            ScenarioTable::Equal => {
                let face = self.dice.d10();
                let s = table.scenario(face);
                self.rolled = vec![face];
                self.say(
                    format!("The scenario die shows {face}: {}.", s.name()),
                    table.rule(),
                    vec![face],
                );
                self.set_scenario(s, table.rule());
            }
            ScenarioTable::Unequal | ScenarioTable::Defensive => {
                // As many dice as the Weaker's Commander's CP in the army list.
                let w = self.chooser();
                let n = self.forces[w.index()].summary.command_points.max(1) as usize;
                let faces = self.dice.d10s(n);
                let names: Vec<&str> = faces.iter().map(|f| table.scenario(*f).name()).collect();
                self.rolled = faces.clone();
                self.say(
                    format!(
                        "{} rolls {n} D10 on the {} table: {}.",
                        self.name(w),
                        if table == ScenarioTable::Defensive {
                            "defensive"
                        } else {
                            "unequal-strength"
                        },
                        names.join(", ")
                    ),
                    table.rule(),
                    faces,
                );
                if self.allowed_scenarios().is_empty() && !self.may_discard_all() {
                    // None allowed: the equal-strength procedure (BFS-SCN-12).
                    let face = self.dice.d10();
                    let s = ScenarioTable::Equal.scenario(face);
                    self.say(
                        format!(
                            "No scenario rolled is allowed by the FSP difference; the equal table's die shows {face}: {}.",
                            s.name()
                        ),
                        "BFS-SCN-12",
                        vec![face],
                    );
                    self.set_scenario(s, "BFS-SCN-12");
                } else {
                    self.step = Step::PickScenario;
                }
            }
        }
    }

    /// Whether the Weaker side commands the one Defensive force.
    fn weaker_is_defensive(&self) -> bool {
        self.weaker
            .is_some_and(|w| self.defensive(w) && !self.defensive(w.other()))
    }

    /// The rolled scenarios the Weaker may pick: value within the FSP difference (BFS-SCN-12).
    pub fn allowed_scenarios(&self) -> Vec<BookScenario> {
        let Some(table) = self.table_rolled else {
            return vec![];
        };
        let mut out: Vec<BookScenario> = Vec::new();
        for f in &self.rolled {
            let s = table.scenario(*f);
            if !out.contains(&s) && s.value(self.weaker_is_defensive()) <= self.difference() {
                out.push(s);
            }
        }
        out
    }

    /// A Weaker Defensive force may discard results 6, 9 and 10 (BFS-SCN-16); if all it rolled
    /// may be discarded, it may discard them all and play Delay the enemy.
    fn may_discard_all(&self) -> bool {
        self.table_rolled == Some(ScenarioTable::Defensive)
            && self.weaker_is_defensive()
            && self.rolled.iter().all(|f| {
                ScenarioTable::Defensive
                    .scenario(*f)
                    .discardable_by_defensive()
            })
    }

    fn set_scenario(&mut self, s: BookScenario, rule: &str) {
        let value = if self.weaker.is_some() {
            s.value(self.weaker_is_defensive())
        } else {
            0
        };
        self.scenario = Some(s);
        self.scenario_value = value.min(self.difference());
        let map = maps::map(s);
        // Who defends: the map's roles, by a die when the FSP are equal.
        let defensive_side = Side::BOTH
            .into_iter()
            .find(|s| self.defensive(*s) && !self.defensive(s.other()));
        self.defender = match (map.roles, self.weaker) {
            (Roles::WeakerDefends, Some(w)) => w,
            // Equal strength with one Defensive force: it delays the other (BFS-SCN-16).
            (Roles::WeakerDefends, None) if defensive_side.is_some() => {
                defensive_side.expect("checked")
            }
            (Roles::WeakerAttacks, Some(w)) => w.other(),
            (Roles::Meeting, _) => Side::A,
            (_, None) => {
                let face = self.dice.d10();
                let d = if face <= 5 { Side::A } else { Side::B };
                self.say(
                    format!(
                        "Equal strength: the die shows {face}, so {} defends.",
                        self.name(d)
                    ),
                    "BFS-SCN-52",
                    vec![face],
                );
                d
            }
        };
        self.say(
            format!(
                "The scenario is {} (value {value}{}). {} {}",
                s.name(),
                if s.variable() {
                    ", its printed minimum"
                } else {
                    ""
                },
                map.briefing,
                match map.roles {
                    Roles::Meeting => String::new(),
                    _ => format!("{} defends.", self.name(self.defender)),
                }
            ),
            rule,
            vec![],
        );
        self.after_scenario();
    }

    fn after_scenario(&mut self) {
        if self.weaker.is_some() && self.has_fortifications() && self.fortification_room() > 0 {
            self.step = Step::Fortifications;
        } else {
            self.begin_effects();
        }
    }

    /// Whether the scenario is fought over field fortifications: the house maps give them to the
    /// Weaker defending a village or a crossing (BFS-SCN-13).
    pub fn has_fortifications(&self) -> bool {
        matches!(
            self.scenario,
            Some(BookScenario::DefendTheVillage | BookScenario::DefendTheCrossing)
        ) && self.weaker == Some(self.defender)
    }

    /// How many FSP of difference fortifications may still take up, no more than the
    /// elements that fit in front of the defender's area.
    pub fn fortification_room(&self) -> u32 {
        let Some(map) = self.map() else {
            return 0;
        };
        let frame = MapFrame {
            width: self.table.0,
            depth: self.table.1,
            defender_south: true,
        };
        let obligatory: Vec<Element> = map
            .obligatory
            .iter()
            .map(|t| Element {
                spec: frame.terrain(t),
                fixed: true,
                pick: None,
            })
            .collect();
        let slots =
            terrain_setup::fortification_line(1000, self.table, map.defender_depth, &obligatory)
                .len() as u32;
        self.difference()
            .saturating_sub(self.scenario_value)
            .min(slots / 2)
    }

    fn fortify(&mut self, elements: u32) {
        self.fortifications = elements;
        self.say(
            format!(
                "{} takes {elements} field fortification elements (+{} FSP).",
                self.name(self.chooser()),
                elements / 2
            ),
            "BFS-SCN-13",
            vec![],
        );
        self.begin_effects();
    }

    /// Additional Effects due (BFS-SCN-14): the difference less the scenario's value and the
    /// fortifications', never below 0.
    fn begin_effects(&mut self) {
        self.effects_due = self
            .difference()
            .saturating_sub(self.scenario_value + self.fortifications / 2);
        if self.weaker.is_some() && self.effects_due > 0 {
            self.say(
                format!(
                    "{} is owed {} Additional Effect{}.",
                    self.name(self.chooser()),
                    self.effects_due,
                    if self.effects_due == 1 { "" } else { "s" }
                ),
                "BFS-SCN-14",
                vec![],
            );
            if self.choice_of_effects && self.effects_due >= 3 {
                // One in three is chosen instead of rolled (BFS-OPT-4).
                self.effects_to_choose = self.effects_due / 3;
                self.say(
                    format!(
                        "Choice of Effects: {} of them {} chosen instead of rolled.",
                        self.effects_to_choose,
                        if self.effects_to_choose == 1 {
                            "is"
                        } else {
                            "are"
                        }
                    ),
                    "BFS-OPT-4",
                    vec![],
                );
            }
            self.step = Step::RollEffects;
        } else {
            self.begin_terrain();
        }
    }

    fn roll_effect(&mut self) {
        let weaker = self.chooser();
        let stronger = weaker.other();
        let mut faces = Vec::new();
        // Rolled until one may be taken: once-only duplicates and impossible ones are rolled
        // again (BFS-SCN-24); the loop is bounded, and Panic can always be taken.
        let effect = loop {
            let face = self.dice.d10();
            faces.push(face);
            let mut e = Effect::from_face(face);
            let taken = |e: Effect| self.effects.iter().filter(|t| t.effect == e).count();
            if e == Effect::Fatigue {
                match (taken(Effect::Fatigue), taken(Effect::Exhaustion)) {
                    (0, 0) => {}
                    (1, 0) => e = Effect::Exhaustion,
                    _ => continue,
                }
            }
            if e.once() && taken(e) > 0 {
                continue;
            }
            if e == Effect::Insubordination && self.insubordination_open(stronger).is_empty() {
                // All are Insubordinate already: roll another Effect (BFS-SCN-29).
                continue;
            }
            if e == Effect::CowardlyCommander && self.coward_open(stronger).is_empty() {
                // Only named historical commanders: roll another Effect (BFS-SCN-30).
                continue;
            }
            if e == Effect::Delay {
                let eligible = self.delay_eligible(stronger).len() as u32
                    + self.delayed.iter().filter(|d| d.0 == stronger).count() as u32;
                if taken(Effect::Delay) as u32 >= eligible / 2
                    || self.delay_eligible(stronger).is_empty()
                {
                    // More than half delayed: the excess becomes Panic (BFS-SCN-31, A-26).
                    e = Effect::Panic;
                }
            }
            if faces.len() > 200 {
                e = Effect::Panic;
            }
            break e;
        };
        self.take_effect(effect, faces, false);
    }

    /// Choice of Effects: the Weaker side takes `effect` instead of rolling (BFS-OPT-4); checked
    /// by the menu.
    fn choose_effect(&mut self, effect: Effect) {
        let effect = if effect == Effect::Fatigue
            && self.effects.iter().any(|t| t.effect == Effect::Fatigue)
        {
            Effect::Exhaustion
        } else {
            effect
        };
        self.effects_to_choose = self.effects_to_choose.saturating_sub(1);
        self.take_effect(effect, Vec::new(), true);
    }

    /// An Additional Effect rolled (with `faces`) or chosen: what it strikes, the record, and the
    /// next step.
    fn take_effect(&mut self, effect: Effect, mut faces: Vec<u8>, chosen: bool) {
        let stronger = self.chooser().other();
        let detail = match effect {
            Effect::Insubordination => {
                let open = self.insubordination_open(stronger);
                let face = self.dice.roll(open.len() as u32);
                faces.push(face as u8);
                let unit = open[face as usize - 1].clone();
                let name = self.unit_name(stronger, &unit);
                self.insubordinate.push((stronger, unit));
                format!("{name} becomes Insubordinate")
            }
            Effect::CowardlyCommander => {
                let open = self.coward_open(stronger);
                let face = self.dice.roll(open.len() as u32);
                faces.push(face as u8);
                let (id, name) = open[face as usize - 1].clone();
                self.coward = Some((stronger, id));
                format!("{name} turns out a coward")
            }
            Effect::Delay => {
                let open = self.delay_eligible(stronger);
                let face = self.dice.roll(open.len() as u32);
                faces.push(face as u8);
                let unit = open[face as usize - 1].clone();
                let name = self.unit_name(stronger, &unit);
                self.delayed
                    .push((stronger, unit, crate::delay::Delay::SkillTest));
                format!("{name} goes to Reserves")
            }
            Effect::Exhaustion => {
                // Exhaustion replaces the Fatigue taken before it (BFS-SCN-25, -26).
                self.effects.retain(|t| t.effect != Effect::Fatigue);
                "Fatigue taken twice".into()
            }
            _ => String::new(),
        };
        self.say(
            format!(
                "Additional Effect{}: {}{}{}.",
                if chosen { " chosen (BFS-OPT-4)" } else { "" },
                effect.name(),
                if detail.is_empty() { "" } else { ": " },
                detail
            ),
            effect.rule(),
            faces,
        );
        self.effects.push(TakenEffect { effect, detail });
        self.effects_due -= 1;
        if effect == Effect::GoodBadDay {
            self.step = Step::GoodOrBadDay;
        } else if self.effects_due == 0 {
            self.begin_terrain();
        }
    }

    /// The Stronger units not yet Insubordinate, one of which the effect strikes at random
    /// (BFS-SCN-29).
    fn insubordination_open(&self, side: Side) -> Vec<String> {
        let list = &self.lists[side.index()];
        self.forces[side.index()]
            .units
            .iter()
            .filter(|u| {
                !list
                    .profile(&u.profile)
                    .is_some_and(|p| p.has(SpecialRule::Insubordinate))
                    && !self
                        .insubordinate
                        .iter()
                        .any(|(s, id)| *s == side && id == &u.id)
            })
            .map(|u| u.id.clone())
            .collect()
    }

    /// The commanders of `side` Cowardly Commander may strike, by id and name: all but named
    /// historical ones (BFS-SCN-30).
    fn coward_open(&self, side: Side) -> Vec<(String, String)> {
        let list = &self.lists[side.index()];
        self.forces[side.index()]
            .commanders
            .iter()
            .filter(|c| !list.profile(&c.profile).is_some_and(|p| p.historical))
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect()
    }

    /// Units a Delay or an Outmaneuver may hold back: not yet held, and not wagons or rabble
    /// (BFS-SCN-31).
    pub fn delay_eligible(&self, side: Side) -> Vec<String> {
        let list = &self.lists[side.index()];
        self.forces[side.index()]
            .units
            .iter()
            .filter(|u| {
                list.profile(&u.profile).is_some_and(|p| {
                    p.kind != crate::profile::UnitKind::Wagon
                        && !p.has(SpecialRule::Rabble)
                        && !p.has(SpecialRule::WarWagon)
                        && !p.no_reserves
                })
            })
            .filter(|u| !self.delayed.iter().any(|d| d.0 == side && d.1 == u.id))
            .map(|u| u.id.clone())
            .collect()
    }

    fn unit_name(&self, side: Side, id: &str) -> String {
        self.forces[side.index()]
            .units
            .iter()
            .find(|u| u.id == id)
            .map_or_else(|| id.to_string(), |u| u.name.clone())
    }

    fn good_day(&mut self, own: bool) {
        let w = self.chooser();
        let text = if own {
            self.cp_change[w.index()] += 1;
            format!(
                "Good Day: {}'s Commander gains 1 CP for this battle.",
                self.name(w)
            )
        } else {
            self.cp_change[w.other().index()] -= 1;
            format!(
                "Bad Day: {}'s Commander loses 1 CP for this battle.",
                self.name(w.other())
            )
        };
        self.say(text, "BFS-SCN-34", vec![]);
        self.effects
            .last_mut()
            .expect("Good/Bad Day was rolled")
            .detail = if own {
            "Good Day".into()
        } else {
            "Bad Day".into()
        };
        if self.effects_due == 0 {
            self.begin_terrain();
        } else {
            self.step = Step::RollEffects;
        }
    }

    /// Step G begins: the scenario's obligatory terrain and fortifications, then the elements
    /// placed in turn, the first player drawn at random (BFS-SCN-19, -20).
    fn begin_terrain(&mut self) {
        let map = self.map().expect("the scenario is known");
        // The obligatory terrain is laid out with the defender's edge south; the edges are
        // drawn later, and the whole table is turned then if need be.
        let frame = MapFrame {
            width: self.table.0,
            depth: self.table.1,
            defender_south: true,
        };
        for t in &map.obligatory {
            self.elements.push(Element {
                spec: frame.terrain(t),
                fixed: true,
                pick: None,
            });
        }
        for spec in terrain_setup::fortification_line(
            self.fortifications,
            self.table,
            map.defender_depth,
            &self.elements,
        ) {
            self.elements.push(Element {
                spec,
                fixed: true,
                pick: None,
            });
        }
        self.elements_left = book::terrain_elements(self.table.0, self.table.1);
        let face = self.dice.d10();
        let first = if face <= 5 { Side::A } else { Side::B };
        self.say(
            format!(
                "{} terrain elements for a {}×{} cm table; the die shows {face}: {} places first.",
                self.elements_left,
                self.table.0,
                self.table.1,
                self.name(first)
            ),
            "BFS-SCN-20",
            vec![face],
        );
        self.step = Step::PlaceTerrain(first);
    }

    fn place_terrain(&mut self, side: Side, pick: TerrainPick) {
        self.say(
            format!("{} places {}.", self.name(side), pick.describe()),
            "BFS-SCN-20",
            vec![],
        );
        self.elements.push(Element {
            spec: pick.spec(),
            fixed: false,
            pick: Some(pick),
        });
        self.elements_left -= 1;
        if self.elements_left > 0 {
            self.step = Step::PlaceTerrain(side.other());
            return;
        }
        if self.elements.iter().any(|e| e.fixed) {
            // The map's own terrain (the village, the river, the defender's fortifications) was
            // laid out on the defender's side of the table, the south: the map gives him that
            // edge (house maps, A-1).
            self.a_south = Some(self.defender == Side::A);
            self.say(
                format!(
                    "The scenario's map gives {} the south edge, by its own terrain, and {} the north.",
                    self.name(self.defender),
                    self.name(self.defender.other())
                ),
                "BFS-SCN-52",
                vec![],
            );
        } else {
            // Edges at random once the terrain is down (BFS-SCN-20 step 4).
            let face = self.dice.d10();
            let a_south = face <= 5;
            self.a_south = Some(a_south);
            let south = if a_south { Side::A } else { Side::B };
            self.say(
                format!(
                    "The edges are drawn: the die shows {face}, so {} takes the south edge and {} the north.",
                    self.name(south),
                    self.name(south.other())
                ),
                "BFS-SCN-20",
                vec![face],
            );
        }
        if self
            .effects
            .iter()
            .any(|t| t.effect == Effect::ChoiceOfTerrain)
        {
            self.step = Step::ChoiceOfTerrain;
        } else {
            self.begin_reconnaissance();
        }
    }

    /// Step H: the side with more RP buys effects with the difference (BFS-SCN-36).
    fn begin_reconnaissance(&mut self) {
        let rp = |s: Side| self.forces[s.index()].summary.reconnaissance_points;
        let (a, b) = (rp(Side::A), rp(Side::B));
        self.recon_buyer = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Side::A),
            std::cmp::Ordering::Less => Some(Side::B),
            std::cmp::Ordering::Equal => None,
        };
        self.rp_left = a.abs_diff(b);
        match self.recon_buyer {
            Some(buyer) => {
                self.say(
                    format!(
                        "Reconnaissance: {} has {} RP against {}: {} to spend, on at most {} effects.",
                        self.name(buyer),
                        rp(buyer),
                        rp(buyer.other()),
                        self.rp_left,
                        self.recon_cap(buyer)
                    ),
                    "BFS-SCN-36",
                    vec![],
                );
                self.step = Step::Reconnaissance;
            }
            None => {
                self.say(
                    format!("Reconnaissance: both sides have {a} RP; nothing is bought."),
                    "BFS-SCN-36",
                    vec![],
                );
                self.begin_deployment();
            }
        }
    }

    /// At most as many effects as the buyer's Skirmish Force Commander's CP (BFS-SCN-36).
    pub fn recon_cap(&self, buyer: Side) -> u32 {
        // Good/Bad Day has changed the Commander's CP for this game by now (BFS-SCN-34).
        (self.forces[buyer.index()].summary.command_points as i32
            + self.cp_change[buyer.index()] as i32)
            .max(0) as u32
    }

    fn buy(&mut self, side: Side, effect: ReconEffect, unit: Option<String>) {
        let cost = self.recon_cost(side, effect, unit.as_deref());
        self.rp_left -= cost;
        self.say(
            format!(
                "{} buys {} for {cost} RP ({} left).",
                self.name(side),
                effect.name(),
                self.rp_left
            ),
            effect.rule(),
            vec![],
        );
        // Which unit marches is the buyer's to know until it moves (BFS-SCN-39).
        if let Some(u) = unit.as_deref() {
            self.log.push(Entry {
                text: format!("The Forced March is for {}.", self.unit_name(side, u)),
                rule: effect.rule().into(),
                dice: vec![],
                only: Some(side),
            });
        }
        // Outmaneuver: a random enemy unit is Delayed, coming on at the end of turn 1
        // (BFS-SCN-46).
        if effect == ReconEffect::Outmaneuver {
            let enemy = side.other();
            let open = self.delay_eligible(enemy);
            if !open.is_empty() {
                let face = self.dice.roll(open.len() as u32);
                let unit = open[face as usize - 1].clone();
                let line = format!(
                    "Outmaneuver: {} is held back until the end of turn 1.",
                    self.unit_name(enemy, &unit)
                );
                self.say(line, effect.rule(), vec![face as u8]);
                self.delayed
                    .push((enemy, unit, crate::delay::Delay::EndOfTurnOne));
            }
        }
        self.bought.push(Bought { effect, unit, cost });
        let left_to_buy = self.bought.len() < self.recon_cap(side) as usize;
        if !left_to_buy || self.rp_left == 0 {
            self.begin_deployment();
        }
    }

    fn recon_cost(&self, side: Side, effect: ReconEffect, unit: Option<&str>) -> u32 {
        let already = self.bought.iter().filter(|b| b.effect == effect).count() as u32;
        let bases = unit
            .and_then(|u| self.forces[side.index()].units.iter().find(|x| x.id == u))
            .map_or(0, |u| u.bases as u32);
        effect.cost(already, bases)
    }

    /// Step I: the defender deploys first; each side's deployment is hidden from the other until
    /// both have deployed (BFS-SCN-48).
    fn begin_deployment(&mut self) {
        self.say(
            format!(
                "Deployment by the scenario's map: {} deploys first, hidden from the other side until both have deployed.",
                self.name(self.defender)
            ),
            "BFS-SCN-48",
            vec![],
        );
        self.roll_robbers();
        self.step = if self.robbers_picks.is_empty() {
            Step::Deploy(self.defender)
        } else {
            Step::RobbersPick
        };
    }

    /// The Robbers units of `side`, by id (BFS-SPC-28).
    pub fn robbers(&self, side: Side) -> Vec<String> {
        let list = &self.lists[side.index()];
        self.forces[side.index()]
            .units
            .iter()
            .filter(|u| {
                list.profile(&u.profile)
                    .is_some_and(|p| p.has(SpecialRule::Robbers))
            })
            .map(|u| u.id.clone())
            .collect()
    }

    fn pillage(&mut self, side: Side, unit: &str, sp: u8, no_free_order: bool) {
        match self
            .pillaged
            .iter_mut()
            .find(|p| p.side == side && p.unit == unit)
        {
            Some(p) => {
                p.sp += sp;
                p.no_free_order |= no_free_order;
            }
            None => self.pillaged.push(Pillaged {
                side,
                unit: unit.to_string(),
                sp,
                no_free_order,
            }),
        }
    }

    /// Before any unit is placed, each force with Robbers rolls a die for them (two for 7 or
    /// more): 1 nothing; 2–5 the enemy picks one to lose 1 SP and its free turn-1 order; 6–7 the
    /// enemy picks one and then its owner picks one, each 1 SP; 8–9 a random one loses its free
    /// order (a held-back one: as 6–7); 0 as 8–9, the placement near a point the enemy picks not
    /// played (BFS-SPC-28).
    fn roll_robbers(&mut self) {
        for side in [self.defender, self.defender.other()] {
            let units = self.robbers(side);
            if units.is_empty() {
                continue;
            }
            let dice = if units.len() >= 7 { 2 } else { 1 };
            for _ in 0..dice {
                let face = self.dice.d10();
                let mut faces = vec![face];
                let enemy = side.other();
                let both = |s: &mut Self| {
                    s.robbers_picks.push(RobbersPickDue {
                        owner: side,
                        picker: enemy,
                        no_free_order: false,
                    });
                    s.robbers_picks.push(RobbersPickDue {
                        owner: side,
                        picker: side,
                        no_free_order: false,
                    });
                };
                let text = match face {
                    1 => "the looting was prevented: nothing happens".to_string(),
                    2..=5 => {
                        self.robbers_picks.push(RobbersPickDue {
                            owner: side,
                            picker: enemy,
                            no_free_order: true,
                        });
                        format!(
                            "losses while pillaging: {} picks a Robbers unit to lose 1 SP and its free order in turn 1",
                            self.name(enemy)
                        )
                    }
                    6 | 7 => {
                        both(self);
                        format!(
                            "heavy losses while pillaging: {} picks a Robbers unit to lose 1 SP, then {} picks one",
                            self.name(enemy),
                            self.name(side)
                        )
                    }
                    _ => {
                        let k = self.dice.roll(units.len() as u32);
                        faces.push(k as u8);
                        let unit = units[k as usize - 1].clone();
                        let name = self.unit_name(side, &unit);
                        if self.delayed.iter().any(|d| d.0 == side && d.1 == unit) {
                            both(self);
                            format!(
                                "{name} left the line for plunder but is held back: as heavy losses, each side picks a Robbers unit to lose 1 SP"
                            )
                        } else {
                            self.pillage(side, &unit, 0, true);
                            if face == 10 {
                                format!(
                                    "{name} lingered to plunder: it starts without its free order (where the enemy would have it deploy is not played: it deploys with its side)"
                                )
                            } else {
                                format!(
                                    "{name} left the line for plunder: it starts without its free order"
                                )
                            }
                        }
                    }
                };
                self.say(
                    format!("Robbers of {}: {text}.", self.name(side)),
                    "BFS-SPC-28",
                    faces,
                );
            }
        }
    }

    /// A Robbers pick made: the unit loses 1 SP (and maybe its free order); the next pick, or
    /// the deployment.
    fn pick_robbers(&mut self, unit: &str) {
        let Some(due) = (!self.robbers_picks.is_empty()).then(|| self.robbers_picks.remove(0))
        else {
            return;
        };
        self.pillage(due.owner, unit, 1, due.no_free_order);
        let name = self.unit_name(due.owner, unit);
        self.say(
            format!(
                "{} picks {name}: 1 SP lost while pillaging{}.",
                self.name(due.picker),
                if due.no_free_order {
                    ", and no free order in turn 1"
                } else {
                    ""
                }
            ),
            "BFS-SPC-28",
            vec![],
        );
        if self.robbers_picks.is_empty() {
            self.step = Step::Deploy(self.defender);
        }
    }

    fn deploy(&mut self, side: Side, placements: Vec<Placement>) {
        self.log.push(Entry {
            text: format!(
                "{} deploys {} units and commanders.",
                self.name(side),
                placements.len()
            ),
            rule: "BFS-SCN-48".into(),
            dice: vec![],
            only: Some(side),
        });
        self.deployed[side.index()] = Some(placements);
        if self.deployed[side.other().index()].is_none() {
            self.say(
                format!("{} has deployed.", self.name(side)),
                "BFS-SCN-48",
                vec![],
            );
            self.step = Step::Deploy(side.other());
            return;
        }
        self.say(
            "Both sides have deployed: the deployments are revealed.",
            "BFS-SCN-48",
            vec![],
        );
        self.forced_marches();
        let first = match self.weaker {
            Some(w) => format!(
                "{} has the Initiative in turn 1, and may keep it or hand it over.",
                self.name(w)
            ),
            None => "Equal strength: the Initiative of turn 1 is rolled as usual.".into(),
        };
        self.say(
            format!("The battle is ready. {first}"),
            "BFS-SCN-15",
            vec![],
        );
        self.step = Step::Ready;
    }

    /// After both sides deploy, each Forced March moves its unit (BFS-SCN-39).
    fn forced_marches(&mut self) {
        let Some(buyer) = self.recon_buyer else {
            return;
        };
        let units: Vec<String> = self
            .bought
            .iter()
            .filter(|b| b.effect == ReconEffect::ForcedMarch)
            .filter_map(|b| b.unit.clone())
            .collect();
        for unit in units {
            let line = match deployment::forced_march(self, buyer, &unit) {
                Some(cm) => format!(
                    "Forced March: {} advances {cm:.1} cm.",
                    self.unit_name(buyer, &unit)
                ),
                None => format!(
                    "Forced March: {} cannot advance without coming within 20 cm of the enemy.",
                    self.unit_name(buyer, &unit)
                ),
            };
            self.say(line, "BFS-SCN-39", vec![]);
        }
    }

    /// Replays a saved sequence's choices.
    pub fn replay(&mut self, made: &[(Side, Choice)]) -> Result<(), String> {
        for (i, (side, c)) in made.iter().enumerate() {
            self.apply(*side, c.clone())
                .map_err(|e| format!("choice #{}: {} ({})", i + 1, e.message, e.rule))?;
        }
        Ok(())
    }
}
