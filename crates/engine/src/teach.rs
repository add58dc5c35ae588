//! Lessons and simple players for any ruleset: a lesson step's goal is checked through the
//! rules (the command accepted, the events it produced, the phase it led to), never by a timer.
//!
//! A ruleset says, through [`Teach`], how its commands, events, phases and states are named in
//! lesson files and which of its commands only move the game along; everything else here is
//! shared: branches, detours taken back, "Back one step", the three hints and the debrief
//! (`lesson_run`).

use crate::problem::Problem;
use crate::ruleset::{Ruleset, Seat};
use crate::scenario_script::{Goal, LessonSpec};

/// A command or an event as a lesson goal reads it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoalParts {
    /// The name lesson files use ("IssueOrder", "Volley").
    pub kind: &'static str,
    /// Scenario ids of the pieces it concerns, the acting one first.
    pub pieces: Vec<String>,
    /// The scenario id of its target.
    pub target: Option<String>,
    /// Its value as text: an order's name, a bid in CP, a reaction, a new morale level.
    pub value: Option<String>,
}

/// The names a lesson file may use.
#[derive(Debug, Clone, Copy)]
pub struct LessonNames {
    pub commands: &'static [&'static str],
    pub events: &'static [&'static str],
    pub phases: &'static [&'static str],
    /// What a `State` goal may ask of a piece ("Disorganized", "Gone"…).
    pub states: &'static [&'static str],
}

pub trait Teach: Ruleset {
    const LESSON_NAMES: LessonNames;

    /// A command as a goal reads it; `state` is where it was given.
    fn command_parts(state: &Self::State, cmd: &Self::Command) -> GoalParts;
    /// An event as a goal reads it; `state` is after it.
    fn event_parts(state: &Self::State, event: &Self::Event) -> GoalParts;
    /// An event's value as a goal about `piece` (a scenario id) reads it: a combat "Won",
    /// "Lost" or "Drawn" by that piece's side. By default the event's own value.
    fn event_value_for(state: &Self::State, event: &Self::Event, _piece: &str) -> Option<String> {
        Self::event_parts(state, event).value
    }
    /// Is the piece (scenario id) in the named state (one of [`LessonNames::states`])? `None`
    /// when the ruleset does not know the piece or the state.
    fn piece_is(_state: &Self::State, _piece: &str, _what: &str) -> Option<bool> {
        None
    }
    /// The piece's name as players read it, for a lesson's messages.
    fn piece_name(_state: &Self::State, _piece: &str) -> Option<String> {
        None
    }
    /// The phase the game is in, as lesson files name it.
    fn phase_name(state: &Self::State) -> &'static str;
    /// Commands that move the game along without being a choice worth correcting in a lesson.
    fn routine(cmd: &Self::Command) -> bool;
    /// Of `options`, the one that decides nothing (bid nothing, end the phase, stand): the
    /// passive opponent's and the guides' choice.
    fn waiting_choice(view: &Self::State, options: &[Self::Command]) -> Option<Self::Command>;
    /// A standing order of the scenario's script not yet carried out, if one is in `options`.
    fn standing_order(view: &Self::State, options: &[Self::Command]) -> Option<Self::Command>;
    /// A fixed, predictable choice for demos and screenshots.
    fn scripted_choice(view: &Self::State) -> Option<Self::Command>;
    /// Problems with ruleset names in a scenario's script (order names, say).
    fn check_script_names(_script: &[crate::scenario_script::ScriptRule]) -> Vec<Problem> {
        Vec::new()
    }
}

fn same(want: &Option<String>, got: Option<&String>) -> bool {
    want.as_ref()
        .is_none_or(|w| got.is_some_and(|g| g.eq_ignore_ascii_case(w)))
}

/// Does `cmd`, given in `state`, meet a `Command` goal?
pub fn command_matches<R: Teach>(goal: &Goal, state: &R::State, cmd: &R::Command) -> bool {
    let Goal::Command {
        kind,
        unit,
        target,
        value,
    } = goal
    else {
        return false;
    };
    let parts = R::command_parts(state, cmd);
    parts.kind == kind
        && same(unit, parts.pieces.first())
        && same(target, parts.target.as_ref())
        && same(value, parts.value.as_ref())
}

/// Is the goal met by `cmd`, given in `before`, which led to `after` with `events`?
pub fn goal_met<R: Teach>(
    goal: &Goal,
    before: &R::State,
    cmd: &R::Command,
    after: &R::State,
    events: &[R::Event],
) -> bool {
    match goal {
        Goal::Read => false,
        Goal::Command { .. } => command_matches::<R>(goal, before, cmd),
        Goal::Event { kind, unit, value } => events.iter().any(|e| {
            let parts = R::event_parts(after, e);
            if parts.kind != kind {
                return false;
            }
            match unit {
                None => same(value, parts.value.as_ref()),
                // An event that names no piece (an Initiative roll) concerns every piece: it
                // matches when it has a value for this one.
                Some(k) => {
                    let value_for = R::event_value_for(after, e, k);
                    let concerns = if parts.pieces.is_empty() {
                        value_for.is_some()
                    } else {
                        parts.pieces.iter().any(|p| p.eq_ignore_ascii_case(k))
                    };
                    concerns && (value.is_none() || same(value, value_for.as_ref()))
                }
            }
        }),
        Goal::Phase(name) => R::phase_name(after) == name,
        Goal::BattleOver => R::deciding(after).is_none(),
        Goal::State { .. } => state_met::<R>(goal, after),
    }
}

/// Is a `State` goal true of `state`?
pub fn state_met<R: Teach>(goal: &Goal, state: &R::State) -> bool {
    match goal {
        Goal::State { unit, is } => R::piece_is(state, unit, is) == Some(true),
        _ => false,
    }
}

/// Problems with a lesson's names (commands, events, phases, states, step ids) and the script's.
pub fn check_names<R: Teach>(
    lesson: Option<&LessonSpec>,
    script: &[crate::scenario_script::ScriptRule],
) -> Vec<Problem> {
    let mut out = R::check_script_names(script);
    let Some(lesson) = lesson else { return out };
    let names = R::LESSON_NAMES;
    let check_goal = |out: &mut Vec<Problem>, who: &str, goal: &Goal| {
        let (name, list, what) = match goal {
            Goal::Command { kind, .. } => (kind, names.commands, "command"),
            Goal::Event { kind, .. } => (kind, names.events, "event"),
            Goal::Phase(p) => (p, names.phases, "phase"),
            Goal::State { is, .. } => (is, names.states, "state"),
            Goal::Read | Goal::BattleOver => return,
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
    };
    let ids: Vec<&str> = lesson
        .steps
        .iter()
        .filter_map(|s| s.id.as_deref())
        .collect();
    for (i, step) in lesson.steps.iter().enumerate() {
        let who = format!("lesson step {} \"{}\"", i + 1, step.title);
        check_goal(&mut out, &who, &step.until);
        if let Some(id) = &step.id
            && ids.iter().filter(|x| **x == id).count() > 1
        {
            out.push(Problem::new(
                &who,
                format!("the step id \"{id}\" is used twice"),
            ));
        }
        let gotos = step.goto.iter().map(|g| (who.clone(), g)).chain(
            step.branches.iter().enumerate().filter_map(|(b, br)| {
                br.goto
                    .as_ref()
                    .map(|g| (format!("{who}, branch {}", b + 1), g))
            }),
        );
        for (who, g) in gotos {
            if !ids.contains(&g.as_str()) {
                out.push(Problem::new(
                    who,
                    format!("goes to \"{g}\", which no step of this lesson is called"),
                ));
            }
        }
        for (b, br) in step.branches.iter().enumerate() {
            let who = format!("{who}, branch {}", b + 1);
            if br.when == Goal::Read {
                out.push(Problem::new(&who, "a branch cannot wait for Read"));
            }
            check_goal(&mut out, &who, &br.when);
        }
    }
    out
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
            let mut s = words(kind).to_lowercase();
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
        Goal::Event { kind, .. } => format!("wait for {}", words(kind).to_lowercase()),
        Goal::Phase(p) => format!("go on to the {p} phase"),
        Goal::BattleOver => "play to the end of the battle".into(),
        Goal::State { unit, is } => format!("wait until {unit} is {is}"),
    }
}

/// A lesson-file name in words: "DeclareCharge" is "Declare charge".
pub fn words(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A command in words from its goal parts, with the pieces' names where the ruleset gives
/// them: "Issue order with Pancerni banner (Charge)".
pub fn describe_command<R: Teach>(state: &R::State, cmd: &R::Command) -> String {
    let parts = R::command_parts(state, cmd);
    let name = |k: &String| R::piece_name(state, k).unwrap_or_else(|| k.clone());
    let mut s = words(parts.kind);
    if !parts.pieces.is_empty() {
        let names: Vec<String> = parts.pieces.iter().map(name).collect();
        s += &format!(" with {}", names.join(", "));
    }
    if let Some(t) = &parts.target {
        s += &format!(" at {}", name(t));
    }
    if let Some(v) = &parts.value {
        s += &format!(" ({v})");
    }
    s
}

/// A command the learner (`seat`, deciding now) could give to work towards `goal`: the first of
/// the rules' candidates that meets a Command goal, else what moves the game along. For the
/// lesson's "Show me" button and for tests that play every lesson through.
pub fn guide<R: Teach>(view: &R::State, goal: &Goal, seat: Seat) -> Option<R::Command> {
    if R::deciding(view) != Some(seat) {
        return None;
    }
    let options = R::candidates(view);
    if let Goal::Command { .. } = goal
        && let Some(c) = options.iter().find(|c| command_matches::<R>(goal, view, c))
    {
        return Some(c.clone());
    }
    R::waiting_choice(view, &options)
}

/// For each of `goals` that is a command (a step's goal, then its branches'), the first of the
/// rules' candidates that meets it: the choices a step leaves the learner, one per way on.
pub fn choices<R: Teach>(view: &R::State, goals: &[&Goal], seat: Seat) -> Vec<R::Command> {
    if R::deciding(view) != Some(seat) {
        return Vec::new();
    }
    let options = R::candidates(view);
    let mut out: Vec<R::Command> = Vec::new();
    for g in goals {
        if let Some(c) = options.iter().find(|c| command_matches::<R>(g, view, c))
            && !out.contains(c)
        {
            out.push(c.clone());
        }
    }
    out
}
