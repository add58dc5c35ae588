//! A lesson being followed: which step the learner is on, how each step ended (its goal or one of
//! its branches), the detours taken back, the hints asked for, and the trail of steps for "Back
//! one step" and the debrief. Shared by every ruleset; the rules themselves are asked through
//! [`Teach`].
//!
//! **Detours.** A learner's command that the step did not ask for is a detour, and the game
//! takes it back at once (see `dynamic::TypedGame::submit`) with a message saying how it differs
//! from what was asked. A command is no detour when it meets the step's goal or a branch, when
//! it is what "Show me" would have played, or when it is routine (`Teach::routine`) while the
//! step's own command is not yet on offer. On a `free` step nothing is a detour. This is what
//! keeps a lesson from stalling: the battle never wanders from the line the steps expect,
//! except by the dice, which branches answer.

use crate::help::rule_ids_in;
use crate::ruleset::Seat;
use crate::scenario_script::{Goal, LessonSpec, StepSpec};
use crate::teach::{
    Teach, command_matches, describe_command, describe_goal, goal_met, state_met, words,
};

/// Where a learner is in the current step.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Progress {
    /// The step being worked on.
    pub step: usize,
    /// Its goal (or a branch) is met: its explanation shows until the learner moves on.
    pub done: bool,
    /// The last refusal, or the last detour taken back, shown with the first hint.
    pub wrong: Option<String>,
    /// How many hints the learner has asked for on this step (0 to 3).
    pub hints: u8,
}

/// One step as the learner went through it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Visit {
    pub step: usize,
    /// Commands in force when the step began: "Back one step" returns the battle here.
    pub log_len: usize,
    /// How the step ended: `Some(None)` by its own goal, `Some(Some(b))` by branch `b`.
    pub ended: Option<Option<usize>>,
    /// Detours taken back on this step.
    pub detours: u32,
    /// Hints asked for.
    pub hints: u8,
    /// "Show me" played part of it.
    pub shown: bool,
    /// Commands in force once it ended: an undo below this opens it again.
    pub ended_at: Option<usize>,
}

/// What a command the rules accepted means to the lesson.
#[derive(Debug, Clone, PartialEq)]
pub enum Noted {
    /// Nothing yet: the battle moves on.
    Nothing,
    /// It ended the step.
    Completed,
    /// The learner's command was not what the step asked for: take it back. The message says
    /// how it differs.
    Detour(String),
}

/// The end-of-lesson summary.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Debrief {
    /// Each step visited, in order: its title and, when a branch ended it, the branch's words.
    pub steps: Vec<(String, Option<String>)>,
    /// Detours taken back, hints asked for, steps "Show me" played.
    pub detours: u32,
    pub hints: u32,
    pub shown: u32,
    /// Every rule ID the visited steps taught, in first-seen order.
    pub rules: Vec<String>,
    /// What to try next.
    pub try_next: String,
}

/// A lesson being followed: its steps and where the learner is.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonRun {
    pub spec: LessonSpec,
    pub progress: Progress,
    /// The steps visited, the current one last.
    pub trail: Vec<Visit>,
    /// The explanation of how the current step ended, once it has.
    pub outcome: Option<String>,
    /// The step "Next" leads to, once the current one has ended.
    next_step: Option<usize>,
}

impl LessonRun {
    pub fn new(spec: LessonSpec) -> Self {
        Self {
            spec,
            progress: Progress::default(),
            trail: vec![Visit::default()],
            outcome: None,
            next_step: None,
        }
    }

    /// The step being worked on; `None` once the lesson is complete.
    pub fn step(&self) -> Option<&StepSpec> {
        self.spec.steps.get(self.progress.step)
    }

    pub fn finished(&self) -> bool {
        self.progress.step >= self.spec.steps.len()
    }

    /// Is it the learner's turn to read: a step with nothing to do but read, or one whose
    /// explanation shows? "Next" moves on; the other side waits meanwhile.
    pub fn reading(&self) -> bool {
        self.step()
            .is_some_and(|s| self.progress.done || s.until == Goal::Read)
    }

    /// The learner's seat.
    pub fn learner(&self) -> Seat {
        self.spec.learner.min(1) as Seat
    }

    fn visit(&mut self) -> &mut Visit {
        if self.trail.is_empty() {
            self.trail.push(Visit::default());
        }
        let n = self.trail.len() - 1;
        &mut self.trail[n]
    }

    /// The goals of the current step a command can meet: its own, then its branches'.
    pub fn goals(&self) -> Vec<&Goal> {
        self.step()
            .map(|s| {
                std::iter::once(&s.until)
                    .chain(s.branches.iter().map(|b| &b.when))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// How the current step ends by its goal (`None`) or branch `b`: the explanation to show,
    /// and the step "Next" leads to.
    fn ending(&self, branch: Option<usize>) -> Option<(String, usize)> {
        let step = self.step()?;
        let (explain, goto) = match branch {
            Some(b) => {
                let br = step.branches.get(b)?;
                (br.explain.clone(), br.goto.clone())
            }
            None => (step.explain.clone(), step.goto.clone()),
        };
        let next = goto
            .and_then(|id| {
                self.spec
                    .steps
                    .iter()
                    .position(|s| s.id.as_deref() == Some(id.as_str()))
            })
            .unwrap_or(self.progress.step + 1);
        Some((explain, next))
    }

    /// Ends the current step by its goal or branch, `log_len` commands then in force.
    fn end_step(&mut self, branch: Option<usize>, log_len: usize) {
        let Some((explain, next)) = self.ending(branch) else {
            return;
        };
        self.progress.done = true;
        self.progress.wrong = None;
        self.outcome = Some(explain);
        self.next_step = Some(next);
        let v = self.visit();
        v.ended = Some(branch);
        v.ended_at = Some(log_len);
    }

    /// Takes note of a command the rules accepted, from the learner or from the other side
    /// (whose moves can meet an event, phase or state, never a command). `expected` is what
    /// "Show me" would have played for the learner just before. A command given while a step's
    /// explanation shows is not judged (the caller moves the learner on to the next step first;
    /// the other side waits while the learner reads).
    #[allow(clippy::too_many_arguments)]
    pub fn record<R: Teach>(
        &mut self,
        before: &R::State,
        cmd: &R::Command,
        after: &R::State,
        events: &[R::Event],
        by_learner: bool,
        expected: Option<&R::Command>,
        log_len_before: usize,
    ) -> Noted {
        let Some(step) = self.step().cloned() else {
            return Noted::Nothing;
        };
        if self.progress.done {
            return Noted::Nothing;
        }
        let applies = |g: &Goal| match g {
            Goal::Read => false,
            Goal::Command { .. } => by_learner,
            _ => true,
        };
        if applies(&step.until) && goal_met::<R>(&step.until, before, cmd, after, events) {
            self.end_step(None, log_len_before + 1);
            return Noted::Completed;
        }
        for (b, br) in step.branches.iter().enumerate() {
            if applies(&br.when) && goal_met::<R>(&br.when, before, cmd, after, events) {
                self.end_step(Some(b), log_len_before + 1);
                return Noted::Completed;
            }
        }
        if !by_learner || step.free {
            return Noted::Nothing;
        }
        if step.until == Goal::Read {
            return Noted::Detour(format!(
                "this step is for reading first: press Next. ({} was taken back.)",
                describe_command::<R>(before, cmd)
            ));
        }
        if expected == Some(cmd) {
            return Noted::Nothing;
        }
        let goals = self.goals();
        let offered = expected.is_some_and(|e| {
            goals
                .iter()
                .any(|g| matches!(g, Goal::Command { .. }) && command_matches::<R>(g, before, e))
        });
        if R::routine(cmd) && !offered {
            return Noted::Nothing;
        }
        Noted::Detour(self.difference::<R>(before, cmd, expected))
    }

    /// How the learner's command differs from what the step asks, in one or two sentences.
    fn difference<R: Teach>(
        &self,
        before: &R::State,
        cmd: &R::Command,
        expected: Option<&R::Command>,
    ) -> String {
        let Some(step) = self.step() else {
            return String::new();
        };
        let got = R::command_parts(before, cmd);
        let name = |k: &String| R::piece_name(before, k).unwrap_or_else(|| k.clone());
        let said = describe_command::<R>(before, cmd);
        let why = match &step.until {
            Goal::Command {
                kind,
                unit,
                target,
                value,
            } => {
                fn differs<'a>(
                    want: &'a Option<String>,
                    have: Option<&String>,
                ) -> Option<&'a String> {
                    want.as_ref()
                        .filter(|w| !have.is_some_and(|h| h.eq_ignore_ascii_case(w)))
                }
                if got.kind != kind {
                    format!(
                        "this step asks for {}, not {}",
                        words(kind),
                        words(got.kind)
                    )
                } else if let Some(u) = differs(unit, got.pieces.first()) {
                    format!(
                        "the right command, but this step asks for it with {}",
                        name(u)
                    )
                } else if let Some(t) = differs(target, got.target.as_ref()) {
                    format!("the right unit, but this step's target is {}", name(t))
                } else if let Some(v) = differs(value, got.value.as_ref()) {
                    format!(
                        "this step asks for {v}, not {}",
                        got.value.clone().unwrap_or_else(|| "that".into())
                    )
                } else {
                    format!("this step asks for {}", describe_goal(&step.until))
                }
            }
            goal => {
                let along = expected
                    .map(|e| format!(": {} moves it on", describe_command::<R>(before, e)))
                    .unwrap_or_default();
                format!("this step asks you to {}{along}", describe_goal(goal))
            }
        };
        format!("You gave {said}; {why}. It has been taken back, so the lesson stays on course.")
    }

    /// Takes note of a refusal by the rules.
    pub fn refused(&mut self, why: String) {
        self.progress.wrong = Some(why);
    }

    /// Takes note of a detour taken back.
    pub fn detour_taken_back(&mut self, why: String) {
        self.progress.wrong = Some(why);
        self.visit().detours += 1;
    }

    /// On to the next step (or the one the ending branch named): `log_len` commands are in
    /// force. A branch on a `State` already true ends the new step at once.
    pub fn next<R: Teach>(&mut self, state: &R::State, log_len: usize) {
        let to = self.next_step.take().unwrap_or(self.progress.step + 1);
        self.progress = Progress {
            step: to,
            ..Default::default()
        };
        self.outcome = None;
        self.trail.push(Visit {
            step: to,
            log_len,
            ..Default::default()
        });
        self.check_state::<R>(state, log_len);
    }

    /// Ends the current step by a `State` branch or goal already true of `state`, with
    /// `log_len` commands in force.
    pub fn check_state<R: Teach>(&mut self, state: &R::State, log_len: usize) {
        let Some(step) = self.step().cloned() else {
            return;
        };
        if self.progress.done {
            return;
        }
        if state_met::<R>(&step.until, state) {
            self.end_step(None, log_len);
        } else if let Some(b) = step
            .branches
            .iter()
            .position(|b| state_met::<R>(&b.when, state))
        {
            self.end_step(Some(b), log_len);
        }
    }

    /// Back to the step before this one, as it began. Returns how many commands were in force
    /// then (the caller takes the battle back there), or `None` on the first step.
    pub fn back(&mut self) -> Option<usize> {
        if self.trail.len() < 2 {
            return None;
        }
        self.trail.pop();
        let v = self.visit();
        v.ended = None;
        v.ended_at = None;
        let (step, log_len) = (v.step, v.log_len);
        self.progress = Progress {
            step,
            ..Default::default()
        };
        self.outcome = None;
        self.next_step = None;
        Some(log_len)
    }

    /// The battle was taken back to `log_len` commands by a player: back to the step those
    /// commands had reached, and open again if the command that ended it is gone.
    pub fn rewound(&mut self, log_len: usize) {
        let before = self.trail.len();
        while self.trail.len() > 1 && self.trail.last().is_some_and(|v| v.log_len > log_len) {
            self.trail.pop();
        }
        let v = self.visit();
        let reopen = v.ended_at.is_some_and(|at| at > log_len);
        if reopen {
            v.ended = None;
            v.ended_at = None;
        }
        let (step, ended) = (v.step, v.ended);
        if self.trail.len() == before && !reopen {
            return;
        }
        self.progress = Progress {
            step,
            ..Default::default()
        };
        self.outcome = None;
        self.next_step = None;
        if let Some(branch) = ended
            && let Some((explain, next)) = self.ending(branch)
        {
            self.progress.done = true;
            self.outcome = Some(explain);
            self.next_step = Some(next);
        }
    }

    /// The learner asks for one more hint (at most three).
    pub fn more_hint(&mut self) {
        if self.progress.hints < 3 {
            self.progress.hints += 1;
            let h = self.progress.hints;
            let v = self.visit();
            v.hints = v.hints.max(h);
        }
    }

    /// "Show me" played a command on this step.
    pub fn shown(&mut self) {
        self.visit().shown = true;
    }

    /// The rule IDs the current step teaches: its `rules`, else those its text cites.
    pub fn step_rules(step: &StepSpec) -> Vec<String> {
        if !step.rules.is_empty() {
            return step.rules.clone();
        }
        let mut out: Vec<String> = Vec::new();
        for text in [&step.say, &step.explain, &step.hint] {
            for (_, id) in rule_ids_in(text) {
                if !out.iter().any(|x| x == id) {
                    out.push(id.to_string());
                }
            }
        }
        out
    }

    /// The summary at the end: what the learner did and which rules came up.
    pub fn debrief(&self) -> Debrief {
        let mut d = Debrief {
            try_next: self.spec.try_next.clone(),
            ..Default::default()
        };
        for v in &self.trail {
            let Some(step) = self.spec.steps.get(v.step) else {
                continue;
            };
            let branch = match v.ended {
                Some(Some(b)) => step.branches.get(b).map(|b| b.explain.clone()),
                _ => None,
            };
            d.steps.push((step.title.clone(), branch.clone()));
            d.detours += v.detours;
            d.hints += v.hints as u32;
            d.shown += v.shown as u32;
            let mut ids = Self::step_rules(step);
            if let Some(b) = &branch {
                ids.extend(rule_ids_in(b).into_iter().map(|(_, id)| id.to_string()));
            }
            for id in ids {
                if !d.rules.contains(&id) {
                    d.rules.push(id);
                }
            }
        }
        d
    }
}
