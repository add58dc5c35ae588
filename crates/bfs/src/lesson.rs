//! Tutorial lessons: each step's goal is checked through the rules engine (the command the learner
//! had accepted, the events it produced, the phase it led to), never by a timer.
//!
//! The names a lesson file may use for commands, events and phases are listed here, and checked
//! when the scenario loads.

use crate::command::{Command, Reaction};
use crate::event::Event;
use crate::ids::Side;
use crate::narrate::units_in;
use crate::state::Game;
use crate::turn::Phase;
use sandtable_engine::Problem;
use sandtable_engine::scenario::Scenario;
use sandtable_engine::scenario_script::Goal;

/// Command names a goal may wait for.
pub const COMMANDS: &[&str] = &[
    "Bid",
    "ChooseInitiative",
    "IssueOrder",
    "Rally",
    "Reorganize",
    "TransferCp",
    "EndOrders",
    "Move",
    "Maneuver",
    "Withdraw",
    "Hold",
    "DeclareCharge",
    "React",
    "MoveCommander",
    "EndMovement",
    "Continue",
];

/// Event names a goal may wait for.
pub const EVENTS: &[&str] = &[
    "InitiativeRolled",
    "OrdersRevealed",
    "Moved",
    "ChargeDeclared",
    "ChargeMoved",
    "Volley",
    "Melee",
    "CombatResolved",
    "Test",
    "Losses",
    "MoraleChanged",
    "Withdrew",
    "Fled",
    "UnitDestroyed",
    "ReservesArrived",
    "ObjectiveChanged",
    "GameOver",
];

/// Phase names a goal may wait for.
pub const PHASES: &[&str] = &["Initiative", "Orders", "Movement", "Combat", "GameOver"];

/// The name of a command, as lesson files write it.
pub fn command_name(cmd: &Command) -> &'static str {
    match cmd {
        Command::Bid { .. } => "Bid",
        Command::ChooseInitiative { .. } => "ChooseInitiative",
        Command::IssueOrder { .. } => "IssueOrder",
        Command::Rally { .. } => "Rally",
        Command::Reorganize { .. } => "Reorganize",
        Command::TransferCp { .. } => "TransferCp",
        Command::EndOrders => "EndOrders",
        Command::Move { .. } => "Move",
        Command::Maneuver { .. } => "Maneuver",
        Command::Withdraw { .. } => "Withdraw",
        Command::Hold { .. } => "Hold",
        Command::DeclareCharge { .. } => "DeclareCharge",
        Command::React { .. } => "React",
        Command::MoveCommander { .. } => "MoveCommander",
        Command::EndMovement => "EndMovement",
        Command::Continue => "Continue",
    }
}

/// The name of an event, as lesson files write it.
pub fn event_name(e: &Event) -> &'static str {
    match e {
        Event::InitiativeRolled { .. } => "InitiativeRolled",
        Event::OrdersRevealed { .. } => "OrdersRevealed",
        Event::Moved { .. } => "Moved",
        Event::ChargeDeclared { .. } => "ChargeDeclared",
        Event::ChargeMoved { .. } => "ChargeMoved",
        Event::Volley(_) => "Volley",
        Event::Melee(_) => "Melee",
        Event::CombatResolved(_) => "CombatResolved",
        Event::Test(_) => "Test",
        Event::Losses { .. } => "Losses",
        Event::MoraleChanged { .. } => "MoraleChanged",
        Event::Withdrew { .. } => "Withdrew",
        Event::Fled { .. } => "Fled",
        Event::UnitDestroyed { .. } => "UnitDestroyed",
        Event::ReservesArrived { .. } => "ReservesArrived",
        Event::ObjectiveChanged { .. } => "ObjectiveChanged",
        Event::GameOver(_) => "GameOver",
        _ => "",
    }
}

/// The name of a phase, as lesson files write it.
pub fn phase_name(p: &Phase) -> &'static str {
    match p {
        Phase::InitiativeBids { .. } | Phase::InitiativeChoice { .. } => "Initiative",
        Phase::Orders { .. } => "Orders",
        Phase::Movement { .. } => "Movement",
        Phase::Combat(_) => "Combat",
        Phase::GameOver => "GameOver",
    }
}

/// The unit or commander key a command is about, its target's key, and its value as text.
fn command_parts(game: &Game, cmd: &Command) -> (Option<String>, Option<String>, Option<String>) {
    let unit = |u: crate::ids::UnitId| Some(game.unit(u).key.clone());
    match cmd {
        Command::Bid { cp, .. } => (None, None, Some(cp.to_string())),
        Command::ChooseInitiative { keep } => (
            None,
            None,
            Some(if *keep { "keep" } else { "hand over" }.into()),
        ),
        Command::IssueOrder { unit: u, order, .. } => (unit(*u), None, Some(order.name().into())),
        Command::Rally { unit: u, .. } | Command::Reorganize { unit: u, .. } => {
            (unit(*u), None, None)
        }
        Command::Move { unit: u, .. }
        | Command::Maneuver { unit: u, .. }
        | Command::Withdraw { unit: u }
        | Command::Hold { unit: u } => (unit(*u), None, None),
        Command::DeclareCharge {
            unit: u, target, ..
        } => (unit(*u), unit(*target), None),
        Command::React { unit: u, reaction } => (
            unit(*u),
            None,
            Some(
                match reaction {
                    Reaction::Stand => "Stand",
                    Reaction::Countercharge => "Countercharge",
                    Reaction::HoldFire { .. } => "HoldFire",
                }
                .into(),
            ),
        ),
        Command::MoveCommander { commander, .. } => (
            game.commanders
                .get(commander.index())
                .map(|c| c.key.clone()),
            None,
            None,
        ),
        Command::TransferCp { amount, .. } => (None, None, Some(amount.to_string())),
        Command::EndOrders | Command::EndMovement | Command::Continue => (None, None, None),
    }
}

fn same(want: &Option<String>, got: &Option<String>) -> bool {
    want.as_ref()
        .is_none_or(|w| got.as_ref().is_some_and(|g| g.eq_ignore_ascii_case(w)))
}

/// Does this command match a `Command` goal? `game` is the state the command was given in.
pub fn command_matches(goal: &Goal, game: &Game, cmd: &Command) -> bool {
    let Goal::Command {
        kind,
        unit,
        target,
        value,
    } = goal
    else {
        return false;
    };
    if command_name(cmd) != kind {
        return false;
    }
    let (u, t, v) = command_parts(game, cmd);
    same(unit, &u) && same(target, &t) && same(value, &v)
}

/// Is the goal met by `cmd`, given in `before`, which led to `after` with `events`?
pub fn goal_met(goal: &Goal, before: &Game, cmd: &Command, after: &Game, events: &[Event]) -> bool {
    match goal {
        Goal::Read => false,
        Goal::Command { .. } => command_matches(goal, before, cmd),
        Goal::Event { kind, unit, value } => events.iter().any(|e| {
            event_name(e) == kind
                && unit.as_ref().is_none_or(|k| {
                    units_in(e)
                        .iter()
                        .any(|u| after.unit(*u).key.eq_ignore_ascii_case(k))
                })
                && value
                    .as_ref()
                    .is_none_or(|v| event_value(e).is_some_and(|x| x.eq_ignore_ascii_case(v)))
        }),
        Goal::Phase(name) => phase_name(&after.turn.phase) == name,
        Goal::BattleOver => matches!(after.turn.phase, Phase::GameOver),
    }
}

/// The value an event goal may ask for: the new Morale Level, say.
fn event_value(e: &Event) -> Option<String> {
    match e {
        Event::MoraleChanged { to, .. } => Some(format!("{to:?}")),
        _ => None,
    }
}

/// Problems with a lesson's names (commands, events, phases) and with script order names.
pub fn check_names(s: &Scenario) -> Vec<Problem> {
    let mut out = Vec::new();
    for (i, rule) in s.script.iter().enumerate() {
        for a in &rule.then {
            if let sandtable_engine::scenario_script::ScriptAction::Orders { order, .. } = a
                && crate::script::order_named(order).is_none()
            {
                out.push(Problem::new(
                    format!("script rule #{}", i + 1),
                    format!("\"{order}\" is no order: use Move, Charge or Defense"),
                ));
            }
        }
    }
    let Some(lesson) = &s.lesson else { return out };
    for (i, step) in lesson.steps.iter().enumerate() {
        let who = format!("lesson step {} \"{}\"", i + 1, step.title);
        let (name, list, what) = match &step.until {
            Goal::Command { kind, .. } => (kind, COMMANDS, "command"),
            Goal::Event { kind, .. } => (kind, EVENTS, "event"),
            Goal::Phase(p) => (p, PHASES, "phase"),
            Goal::Read | Goal::BattleOver => continue,
        };
        if !list.contains(&name.as_str()) {
            out.push(Problem::new(
                who,
                format!(
                    "\"{name}\" is no {what} name; use one of: {}",
                    list.join(", ")
                ),
            ));
        }
    }
    out
}

/// Where a learner is in a lesson.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    /// The step being worked on.
    pub step: usize,
    /// Its goal is met: its explanation shows until the learner moves on.
    pub done: bool,
    /// The last refusal or wrong move, shown with the step's hint.
    pub wrong: Option<String>,
}

impl Progress {
    /// Takes note of a command the rules accepted, from the learner or from the other side (whose
    /// moves can complete an event or phase goal, never a command goal). Returns true when it
    /// completed the step.
    pub fn record(
        &mut self,
        goal: &Goal,
        before: &Game,
        cmd: &Command,
        after: &Game,
        events: &[Event],
        by_learner: bool,
    ) -> bool {
        if self.done {
            return false;
        }
        if (by_learner || !matches!(goal, Goal::Command { .. }))
            && goal_met(goal, before, cmd, after, events)
        {
            self.done = true;
            self.wrong = None;
            return true;
        }
        if by_learner && matches!(goal, Goal::Command { .. }) && !is_routine(cmd) {
            self.wrong = Some(format!(
                "That was legal, but this step asks for something else: {}. Undo it (Ctrl+Z) and try again.",
                describe_goal(goal)
            ));
        }
        false
    }

    /// Takes note of a refusal by the rules.
    pub fn refused(&mut self, why: String) {
        self.wrong = Some(why);
    }

    /// On to the next step.
    pub fn next(&mut self) {
        self.step += 1;
        self.done = false;
        self.wrong = None;
    }
}

/// Commands that move the game along without being a choice worth correcting.
fn is_routine(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Continue | Command::Bid { .. } | Command::ChooseInitiative { .. }
    )
}

/// A goal in words, for hints.
pub fn describe_goal(goal: &Goal) -> String {
    match goal {
        Goal::Read => "read on".into(),
        Goal::Command {
            kind,
            unit,
            target,
            value,
        } => {
            let mut s = kind.clone();
            if let Some(u) = unit {
                s += &format!(" with {u}");
            }
            if let Some(t) = target {
                s += &format!(" at {t}");
            }
            if let Some(v) = value {
                s += &format!(" ({v})");
            }
            s
        }
        Goal::Event { kind, .. } => format!("wait for {kind}"),
        Goal::Phase(p) => format!("go on to the {p} phase"),
        Goal::BattleOver => "play to the end of the battle".into(),
    }
}

/// A command the learner (`side`, deciding now) could give to work towards `goal`: the first of
/// the rules' candidates that meets a Command goal, else what moves the game along. For the
/// lesson's "Show me" button and for tests that play every lesson through.
pub fn guide(game: &Game, goal: &Goal, side: Side) -> Option<Command> {
    if crate::prompt::prompt(game).seat != Some(side.0) {
        return None;
    }
    let options = crate::candidates::candidates(game);
    if let Goal::Command { .. } = goal
        && let Some(c) = options.iter().find(|c| command_matches(goal, game, c))
    {
        return Some(c.clone());
    }
    waiting_choice(&options)
}

/// Of `options`, the one that moves the game along without deciding anything: bid nothing, keep
/// the Initiative, end the phase, stand when charged; else a charge the rules insist on
/// (BFS-CHG-27) or holding a unit. For the passive opponent and for lesson guides.
pub fn waiting_choice(options: &[Command]) -> Option<Command> {
    let along = |c: &&Command| match c {
        Command::Bid { cp, .. } => *cp == 0,
        Command::ChooseInitiative { keep } => *keep,
        Command::EndOrders | Command::EndMovement | Command::Continue => true,
        Command::React { reaction, .. } => *reaction == Reaction::Stand,
        _ => false,
    };
    options
        .iter()
        .find(along)
        .or_else(|| {
            options
                .iter()
                .find(|c| matches!(c, Command::DeclareCharge { .. } | Command::Hold { .. }))
        })
        .or(options.first())
        .cloned()
}
