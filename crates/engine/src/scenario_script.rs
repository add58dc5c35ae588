//! What a scenario file may add to a battle beyond the opening position, for every ruleset:
//!
//! - **objectives**: control markers that are worth Victory Points to whoever holds them at the
//!   end (the ruleset decides how they count);
//! - **script**: rules that fire once when their trigger comes true (a turn begins, a unit is lost,
//!   a side enters an area, an objective changes hands) and then act (give standing orders to the
//!   computer's units, bring reserves on, show a message);
//! - **lesson**: the guided steps of a tutorial.
//!
//! Names of commands and events in lesson goals are the ruleset's (e.g. `"IssueOrder"`); the
//! ruleset checks them when it loads the scenario.

use crate::vocab::ShapeSpec;
use serde::{Deserialize, Serialize};

/// A control marker: a point, held by the side with pieces within `radius` cm of it when the
/// other side has none there (the ruleset may refine how control passes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Objective")]
pub struct ObjectiveSpec {
    pub id: String,
    pub name: String,
    pub position: (f32, f32),
    /// Control radius, cm.
    pub radius: f32,
    /// Victory Points for the side holding it at the end of the battle.
    pub vp: u32,
    /// Who holds it at the start: a side index, or none.
    #[serde(default)]
    pub held_by: Option<usize>,
}

/// One scripted rule: when `when` first comes true, do everything in `then`, once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Rule")]
pub struct ScriptRule {
    pub when: Trigger,
    pub then: Vec<ScriptAction>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Trigger {
    /// Turn `n` has begun.
    TurnBegins(u32),
    /// The unit (scenario id) is destroyed, has fled, or is in Flight.
    UnitLost(String),
    /// A base of side `side` stands at least partly in the area.
    SideEntersArea { side: usize, area: ShapeSpec },
    /// The objective is now held by `side`.
    ObjectiveTaken { objective: String, side: usize },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ScriptAction {
    /// Standing orders for these units: whoever plays their side by computer issues them at the
    /// next Orders Phase, paying CP as usual. Order names are the ruleset's (e.g. `"Charge"`).
    Orders { units: Vec<String>, order: String },
    /// Units held back in reserve (`reserve: true` in the scenario) arrive at their listed
    /// position at the start of the next Movement Phase.
    Reserves(Vec<String>),
    /// A message for both players.
    Message(String),
}

/// A tutorial lesson: the learner plays `learner`'s side, the computer the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Lesson")]
pub struct LessonSpec {
    /// The learner's side index.
    pub learner: usize,
    /// How the other side plays: "computer" (the AI, following the script's standing orders) or
    /// "passive" (it only does what the script orders and otherwise waits).
    #[serde(default = "default_opponent")]
    pub opponent: String,
    pub steps: Vec<StepSpec>,
    /// What to try after this lesson, for the debrief (e.g. "Lesson 6: Shooting").
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub try_next: String,
}

fn default_opponent() -> String {
    "passive".into()
}

/// One step of a lesson.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Step")]
pub struct StepSpec {
    pub title: String,
    /// What to look at and what to do, in plain words.
    pub say: String,
    /// Units or commanders (scenario ids) to highlight on the table.
    #[serde(default)]
    pub look_at: Vec<String>,
    /// What completes the step, checked through the rules engine.
    pub until: Goal,
    /// What happened and why, shown once the step is done; cite rule IDs.
    pub explain: String,
    /// The first hint, a nudge: shown after a wrong action, with the rules' refusal, or when
    /// the learner asks. The second hint is the rule (`rules`, else the IDs the step cites), the
    /// third the exact move (the command "Show me" would play).
    #[serde(default)]
    pub hint: String,
    /// A name other steps' branches (and `goto`) may lead to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Other ways the step can end, tried in order after `until`: a roll that fell the other
    /// way, a choice the learner was free to make, a state the battle is already in (checked
    /// also when the step begins). Each explains what happened and may lead elsewhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<BranchSpec>,
    /// The step `until` leads to (an `id`), instead of the next one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goto: Option<String>,
    /// Rule IDs the step teaches (the second hint and the debrief); by default those its text
    /// cites.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// The learner may play anything here: nothing is taken back as a detour. A free step needs
    /// branches for whatever its goal may never see.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub free: bool,
}

/// Another way a step can end (see [`StepSpec::branches`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Branch")]
pub struct BranchSpec {
    /// What ends the step this way. A `Command` is the learner's choice; an `Event` may carry
    /// the outcome as its value ("Passed" / "Failed", "Hit" / "Missed", "Won" / "Lost" /
    /// "Drawn" for the named unit's side).
    pub when: Goal,
    /// What happened and why, shown once the step ends this way; cite rule IDs.
    pub explain: String,
    /// The step to go on to (an `id`); the next one by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goto: Option<String>,
}

/// What completes a lesson step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Goal {
    /// Nothing to do but read: the learner presses "Next".
    Read,
    /// The learner's command of this kind (the ruleset's name), optionally for this unit or
    /// commander, against this target, with this value (an order's name, a bid in CP, a reaction).
    Command {
        kind: String,
        #[serde(default)]
        unit: Option<String>,
        #[serde(default)]
        target: Option<String>,
        #[serde(default)]
        value: Option<String>,
    },
    /// An event of this kind happens (the ruleset's name), optionally to this unit.
    Event {
        kind: String,
        #[serde(default)]
        unit: Option<String>,
        #[serde(default)]
        value: Option<String>,
    },
    /// The game reaches this phase (the ruleset's name).
    Phase(String),
    /// The battle is over.
    BattleOver,
    /// A piece (scenario id) is in a state the ruleset names ("Disorganized", "Flight",
    /// "Gone"…): for branches on the state of the battle.
    State { unit: String, is: String },
}
