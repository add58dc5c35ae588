//! Lessons and simple players for any ruleset: a lesson step's goal is checked through the
//! rules (the command accepted, the events it produced, the phase it led to), never by a timer.
//!
//! A ruleset says, through [`Teach`], how its commands, events and phases are named in lesson
//! files and which of its commands only move the game along; everything else here is shared.

use crate::problem::Problem;
use crate::ruleset::{Ruleset, Seat};
use crate::scenario_script::{Goal, LessonSpec, StepSpec};

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
}

pub trait Teach: Ruleset {
    const LESSON_NAMES: LessonNames;

    /// A command as a goal reads it; `state` is where it was given.
    fn command_parts(state: &Self::State, cmd: &Self::Command) -> GoalParts;
    /// An event as a goal reads it; `state` is after it.
    fn event_parts(state: &Self::State, event: &Self::Event) -> GoalParts;
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
            parts.kind == kind
                && unit
                    .as_ref()
                    .is_none_or(|k| parts.pieces.iter().any(|p| p.eq_ignore_ascii_case(k)))
                && same(value, parts.value.as_ref())
        }),
        Goal::Phase(name) => R::phase_name(after) == name,
        Goal::BattleOver => R::deciding(after).is_none(),
    }
}

/// Problems with a lesson's names (commands, events, phases) and the script's.
pub fn check_names<R: Teach>(
    lesson: Option<&LessonSpec>,
    script: &[crate::scenario_script::ScriptRule],
) -> Vec<Problem> {
    let mut out = R::check_script_names(script);
    let Some(lesson) = lesson else { return out };
    let names = R::LESSON_NAMES;
    for (i, step) in lesson.steps.iter().enumerate() {
        let who = format!("lesson step {} \"{}\"", i + 1, step.title);
        let (name, list, what) = match &step.until {
            Goal::Command { kind, .. } => (kind, names.commands, "command"),
            Goal::Event { kind, .. } => (kind, names.events, "event"),
            Goal::Phase(p) => (p, names.phases, "phase"),
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
    pub fn record<R: Teach>(
        &mut self,
        goal: &Goal,
        before: &R::State,
        cmd: &R::Command,
        after: &R::State,
        events: &[R::Event],
        by_learner: bool,
    ) -> bool {
        if self.done {
            return false;
        }
        if (by_learner || !matches!(goal, Goal::Command { .. }))
            && goal_met::<R>(goal, before, cmd, after, events)
        {
            self.done = true;
            self.wrong = None;
            return true;
        }
        if by_learner && matches!(goal, Goal::Command { .. }) && !R::routine(cmd) {
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

/// A lesson being followed: its steps and where the learner is.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonRun {
    pub spec: LessonSpec,
    pub progress: Progress,
}

impl LessonRun {
    pub fn new(spec: LessonSpec) -> Self {
        Self {
            spec,
            progress: Progress::default(),
        }
    }

    /// The step being worked on; `None` once the lesson is complete.
    pub fn step(&self) -> Option<&StepSpec> {
        self.spec.steps.get(self.progress.step)
    }

    pub fn finished(&self) -> bool {
        self.progress.step >= self.spec.steps.len()
    }

    /// The learner's seat.
    pub fn learner(&self) -> Seat {
        self.spec.learner.min(1) as Seat
    }
}
