//! The state of a By Fire and Sword game. Plain data: everything that changes it is in the command
//! and phase modules, and the app only reads it.

use crate::ids::{CommanderId, ProfileId, RegimentId, Side, UnitId};
use crate::options::Options;
use crate::profile::UnitProfile;
use crate::scenario_spec::{CommanderRank, GameLevel};
use crate::turn::TurnState;
pub use crate::vocab::{MoraleLevel, OrderKind};
use sandtable_engine::scenario::{TableEdge, TerrainKind};
use sandtable_geometry::{Rect, Vec2};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Game {
    pub info: GameInfo,
    pub terrain: Vec<TerrainPiece>,
    pub sides: Vec<SideState>,
    pub profiles: Vec<UnitProfile>,
    pub units: Vec<Unit>,
    pub commanders: Vec<Commander>,
    pub regiments: Vec<Regiment>,
    pub turn: TurnState,
    /// Control markers (BFS-SCN-6/7).
    #[serde(default)]
    pub objectives: Vec<Objective>,
    /// The scenario's scripted rules, each with whether it has fired.
    #[serde(default)]
    pub script: Vec<crate::script_rule::Rule>,
    /// Standing orders the script gave to units, for whoever plays their side by computer. A
    /// secret of the units' side: views for the other side leave them out.
    #[serde(default)]
    pub standing_orders: Vec<(UnitId, OrderKind)>,
    /// Reserves called on by the script and still waiting for room at their arrival position.
    #[serde(default)]
    pub arriving: Vec<UnitId>,
    /// Guns whose crews were lost, standing on the table to be manned (BFS-MAN-21,
    /// [`crate::gun_manning`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub abandoned_guns: Vec<crate::gun_manning::AbandonedGun>,
    /// The battle's dice (design principle 1). Views replace it, so nobody can foresee a roll.
    pub dice: sandtable_engine::Dice,
}

/// What does not change during the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameInfo {
    pub scenario_name: String,
    pub level: GameLevel,
    pub turn_limit: u32,
    /// Table width and depth, cm.
    pub table: Vec2,
    pub options: Options,
    /// The side the pre-battle sequence gave the Initiative of turn 1 (BFS-SCN-15).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_initiative: Option<crate::ids::Side>,
    /// Additional Effects of the pre-battle sequence played in turn 1 (BFS-SCN-28, -33).
    #[serde(
        default,
        skip_serializing_if = "crate::scenario_spec::PreBattleEffects::is_empty"
    )]
    pub pre_battle: crate::scenario_spec::PreBattleEffects,
    /// Confusion's second half: the side that may change this many of its orders after both
    /// Orders Phases of turn 1, paying CP (BFS-SCN-44); `open` once its window has begun.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confusion_changes: Option<crate::turn_one::ConfusionChanges>,
    /// Fatigue's markers by the Stronger side's Commander (BFS-SCN-25, -26): how many are left.
    #[serde(default, skip_serializing_if = "crate::state::is_zero")]
    pub fatigue_markers: u8,
    /// Units Unexpected Reinforcements brought back, one per copy of the Effect (BFS-SCN-32).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reinforcements_returned: Vec<crate::ids::UnitId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TerrainPiece {
    pub kind: TerrainKind,
    pub name: Option<String>,
    /// The outline as simple polygons (a strip is several).
    pub polygons: Vec<Vec<Vec2>>,
    /// The unit that set up this portable obstacle (BFS-OBS-11: only it may carry it away).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<crate::ids::UnitId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SideState {
    pub name: String,
    pub army_list: String,
    pub home_edge: TableEdge,
    /// Force Value at the start (BFS-VIC-1).
    pub force_value: u32,
}

/// How the bases stand (BFS-FRM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Formation {
    /// Close order, `files` bases wide (1 = Column).
    Close {
        files: u8,
    },
    OpenOrder,
    NonStandard,
}

/// Where a unit is in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UnitStatus {
    OnTable,
    /// Every base destroyed.
    Destroyed,
    /// Left the table (fled or withdrew off it).
    Left,
    /// Held off the table until the scenario's script brings it on (BFS-SCN-50).
    Reserve,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    /// Identifier from the scenario file.
    pub key: String,
    pub name: String,
    pub side: Side,
    pub profile: ProfileId,
    pub regiment: Option<RegimentId>,
    /// Footprints of the bases still on the table, front rank first.
    pub bases: Vec<Rect>,
    pub formation: Formation,
    pub status: UnitStatus,
    pub morale: MoraleLevel,
    /// The revealed order in force; `None` is "No Order".
    pub order: Option<OrderKind>,
    /// A face-down order marker placed this Orders Phase (BFS-ORD-3); a secret of its side.
    pub pending_order: Option<PendingOrder>,
    /// Strength points lost on the wounded base (casualty markers, BFS-CBT-10).
    pub casualty_markers: u8,
    pub bases_at_start: u8,
    pub bases_destroyed: u8,
    pub bases_fled: u8,
    pub attached: Option<CommanderId>,
    pub lances_broken: bool,
    pub flags: TurnFlags,
    pub charge: Option<ChargeState>,
    /// Portable obstacles it carries (BFS-OBS); caltrops are its side's secret (BFS-OBS-5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carries: Option<crate::portable::Carried>,
    /// The building (its index in [`Game::terrain`]) the unit holds as its garrison
    /// (BFS-TER-29, [`crate::building`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garrison: Option<u16>,
    /// A gun's limber and the turn it last fired (BFS-ART); `None` for every other unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gun: Option<crate::artillery::GunState>,
    /// Its ammunition, when the battle plays the Ammunition rules (BFS-OPT-7,
    /// [`crate::ammunition`]); `None` otherwise and for units with no ranged weapon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supply: Option<crate::ammunition::Supply>,
    /// Its last Salvo or Ranked Fire: the turn after, it reloads (BFS-SPC-26, BFS-SPC-29).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_volley: Option<crate::shooting::ranks::LastVolley>,
    /// Whom a wagon was taken from in close combat (BFS-WAG-8): its bases, and those it had lost
    /// before, count among that side's losses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taken_from: Option<crate::wagon::assault::Taken>,
    /// A War Wagon Train's wagons, one for each base in order, and whether it is connected
    /// (BFS-WAG-12..14, [`crate::wagon::train`]); `None` for every other unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub train: Option<crate::wagon::train::Train>,
    /// The number of the side's Pike and Shot Battalion the unit belongs to (BFS-SPC-21,
    /// [`crate::battalion`]); `None` outside one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battalion: Option<u8>,
    /// A gun manned from an abandoned one: the gun unit it was (BFS-MAN-21,
    /// [`crate::gun_manning`]). It counts for no side's strength, losses or Breaking Points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manned_from: Option<UnitId>,
    /// A gun crew hiding among its Battalion's pikemen (BFS-SPC-23, [`crate::hide_crew`]): the
    /// block of pikemen. The unit is off the table meanwhile (`Reserve`), its gun abandoned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_among: Option<UnitId>,
    /// Dragoons on foot that came off their horses in the battle, and their horse holders
    /// (BFS-SPC-9, [`crate::dragoons`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dismounted: Option<crate::dragoons::Dismounted>,
    /// A medium gun's fortified base, where it was dug in (BFS-ART-19, [`crate::fortified_gun`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emplacement: Option<Rect>,
    /// Bases lost on the march before the battle (BFS-SCN-28): losses only if the unit is
    /// destroyed or flees by the end.
    #[serde(default, skip_serializing_if = "crate::state::is_zero")]
    pub march_losses: u8,
    /// Held back by the pre-battle sequence, and how it comes on (BFS-SCN-31, -46).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed: Option<crate::delay::Delay>,
    /// Bases that fled and were cut off at the end of the battle (BFS-SCN-47): lost, not fled.
    #[serde(default, skip_serializing_if = "crate::state::is_zero")]
    pub cut_off: u8,
    /// What the Robbers' pillage cost it before the battle (BFS-SPC-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pillage: Option<crate::scenario_spec::Pillage>,
    /// A caracole in progress: its first rank out, until the Combat Phase ends (BFS-SPC-4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caracole: Option<crate::caracole::Caracole>,
}

pub(crate) fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A face-down order marker (BFS-ORD-3). Everybody sees that it is there; only its owner sees
/// what it says: in the other side's view `kind` is `None`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingOrder {
    pub kind: Option<OrderKind>,
    pub issued_by: Option<CommanderId>,
    /// Placed face up: an Independent unit's order, which both sides see (BFS-SPC-14).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_up: bool,
}

/// What a unit has done this turn; cleared in the Initiative Phase.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct TurnFlags {
    pub activated: bool,
    pub moved: bool,
    pub maneuvers: u8,
    pub special_maneuvers: u8,
    pub reformed: bool,
    pub marched: bool,
    pub shot: bool,
    pub fought: bool,
    pub charged: bool,
    pub rally_attempted: bool,
    /// Rallied from Flight this turn: no orders this phase, no Withdrawal next (BFS-RAL-6).
    pub rallied_from_flight: bool,
    /// A new order marker was placed this Orders Phase.
    pub ordered: bool,
    /// Losses to shooting this Combat Phase, in bases (for Morale tests, BFS-PSY-4).
    pub bases_lost_to_shooting: u8,
    /// Took a Morale test in the current step or stage (BFS-CC-26).
    pub tested_this_step: bool,
    /// An enemy charge touched its front while it held a Charge order it did not use to
    /// countercharge: the order becomes a Move order (BFS-CHG-23).
    pub charged_in_front: bool,
    pub delayed_fire: bool,
    pub withdrew: bool,
    pub fled_this_step: bool,
    /// Tested Skill on caltrops this phase (BFS-OBS-7).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub caltrops_tested: bool,
    /// Entered or left a building this turn: the same bases may not do both (BFS-TER-29).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub building_changed: bool,
    /// Lost its free starting order to the enemy's Confusion: a new one costs CP and 1 more
    /// (BFS-SCN-44).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub confused: bool,
    /// Its next Morale test this turn is passed by discarding the Enthusiasm marker
    /// (BFS-SCN-27, [`crate::enthusiasm`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub enthusiasm_pass: bool,
    /// Elite Cavalry that declared it charges as a Close Order unit this turn: +2 Impetus, no
    /// −1 to fire at it (BFS-SPC-10, [`crate::elite_cavalry`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub close_order_charge: bool,
    /// Broke Off from a charge this turn: once a turn, and no move after it (BFS-SPC-16).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub broke_off: bool,
    /// Fired the first of two volleys in Defender's Fire: it may fire again in Shooting after
    /// Movement (Quick Loading, BFS-ART-7; Countermarch, BFS-SPC-8).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fired_first_of_two: bool,
    /// The gun's load was chosen this turn: once a turn, before its shots (BFS-ART-3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub load_chosen: bool,
    /// Declared a hail of arrows: no Defender's Fire and no Break Off this turn, one die more a
    /// base in Shooting after Movement (BFS-OPT-2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hail_of_arrows: bool,
    /// Its owner chose to destroy the wagons it beats this turn rather than take them over
    /// (BFS-WAG-6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub burn_wagons: bool,
    /// Its owner holds its Salvo or Ranked Fire this turn (BFS-SPC-26, BFS-SPC-29).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ordinary_fire: bool,
    /// A Rabble unit out of formation at the start of the Movement Phase: it must Reform and do
    /// nothing else (BFS-SPC-25).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub must_reform: bool,
    /// Ran behind its Battalion's pikemen this turn: it moves no more but to flee, withdraw or
    /// countermarch (BFS-SPC-22).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ran_behind: bool,
    /// The target paid for this turn's shooting (BFS-SHO-10, [`crate::shooting::aim`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aim: Option<UnitId>,
    /// CP a commander stands ready to spend on the unit's next Morale or Skill test this turn
    /// (BFS-CMD-8, [`crate::steady`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steady: Option<(CommanderId, u8)>,
    /// The commander who stands ready to stop the unit's pursuit this turn for 1 CP (BFS-CC-29,
    /// [`crate::hold_pursuit`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold_pursuit: Option<CommanderId>,
}

/// A charge in progress (BFS-CHG).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChargeState {
    pub target: UnitId,
    pub countercharge: bool,
    /// Distance between charger and target when the charge was declared (Impetus needs 10 cm,
    /// BFS-CC-14).
    pub start_distance: f32,
    /// Straight distance covered without wheel or maneuver just before contact (BFS-CC-14).
    pub straight_run: f32,
    pub contact: bool,
    /// The target's side that was struck: front, a flank or the rear (BFS-CHG-18).
    pub struck: Option<sandtable_geometry::Edge>,
    /// The charge carries over from a failed charge whose test passed (BFS-CHG-24).
    pub carried_over: bool,
    /// A pursuit: a charge at the Additional Move without Impetus (BFS-CC-30).
    pub pursuit: bool,
    /// Cavalry that set out from a wheat or ploughed field: no Impetus, and its Additional Move
    /// stops at +10 cm (BFS-TER-25/26). Left out of the state hash when false, so battles
    /// recorded before rules revision 2 keep their hashes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub through_field: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Commander {
    pub id: CommanderId,
    pub key: String,
    pub name: String,
    pub side: Side,
    pub rank: CommanderRank,
    pub profile: ProfileId,
    pub regiment: Option<RegimentId>,
    /// Command points restored each Initiative Phase (BFS-INI-1).
    pub cp_max: u8,
    pub cp: u8,
    pub base: Rect,
    pub status: UnitStatus,
    pub fleeing: bool,
    pub attached_to: Option<UnitId>,
    pub moved: bool,
    pub shot: bool,
    /// No CP next turn after escaping death (BFS-CDR-9).
    pub stunned_until_turn: u32,
    /// The deputy Commander-in-Chief (BFS-PSY-26).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deputy: bool,
    /// Struck by Cowardly Commander (BFS-SCN-30, [`crate::coward`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub coward: bool,
    /// The turn an Artillery Commander last had a gun roll a failed shot again: once a turn
    /// (BFS-ART-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gun_reroll_turn: Option<u32>,
    /// A Regimental commander's Instruction in force, at Division level (BFS-ORD-11).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction: Option<OrderKind>,
    /// A new Instruction placed face down this Orders Phase; a secret of its side until turned
    /// up with the orders ([`crate::instructions`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_instruction: Option<PendingOrder>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Regiment {
    pub id: RegimentId,
    pub key: String,
    pub name: String,
    pub side: Side,
    pub motivation_percent: Option<u32>,
    pub wiped_out: bool,
    /// One of the Division's Main Forces (BFS-PSY-26).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub main_force: bool,
    /// An Allied Regiment (BFS-PSY-30).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub allied: bool,
}

impl Game {
    pub fn unit(&self, id: UnitId) -> &Unit {
        &self.units[id.index()]
    }
    pub fn unit_mut(&mut self, id: UnitId) -> &mut Unit {
        &mut self.units[id.index()]
    }
    pub fn commander(&self, id: CommanderId) -> &Commander {
        &self.commanders[id.index()]
    }
    pub fn commander_mut(&mut self, id: CommanderId) -> &mut Commander {
        &mut self.commanders[id.index()]
    }
    pub fn profile(&self, id: ProfileId) -> &UnitProfile {
        &self.profiles[id.index()]
    }
    pub fn unit_profile(&self, id: UnitId) -> &UnitProfile {
        self.profile(self.unit(id).profile)
    }
    pub fn side(&self, side: Side) -> &SideState {
        &self.sides[side.index()]
    }
    /// Units of a side still on the table.
    pub fn units_on_table(&self, side: Side) -> impl Iterator<Item = &Unit> {
        self.units
            .iter()
            .filter(move |u| u.side == side && u.status == UnitStatus::OnTable)
    }
    /// Commanders of a side still on the table.
    pub fn commanders_on_table(&self, side: Side) -> impl Iterator<Item = &Commander> {
        self.commanders
            .iter()
            .filter(move |c| c.side == side && c.status == UnitStatus::OnTable)
    }
    /// The side's Commander-in-Chief, if he is still on the table.
    pub fn commander_in_chief(&self, side: Side) -> Option<&Commander> {
        self.commanders_on_table(side)
            .find(|c| c.rank == CommanderRank::CommanderInChief)
    }
}

impl Unit {
    /// Middle of the unit's bases, for labels and messages.
    pub fn centroid(&self) -> Vec2 {
        if self.bases.is_empty() {
            return Vec2::ZERO;
        }
        self.bases.iter().map(|b| b.center()).sum::<Vec2>() / self.bases.len() as f32
    }
    pub fn facing(&self) -> Vec2 {
        self.bases.first().map(|b| b.facing()).unwrap_or(Vec2::Y)
    }
}

/// A control marker (BFS-SCN-6): a point and a control radius; held by a side with bases wholly or
/// partly within the radius while the other side has none there (BFS-SCN-7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    pub key: String,
    pub name: String,
    pub position: Vec2,
    pub radius: f32,
    /// Victory Points for its holder at the end (BFS-VIC-6).
    pub vp: u32,
    pub held_by: Option<Side>,
}
