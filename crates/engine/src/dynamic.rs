//! One handle for a game of any ruleset: what the app holds.
//!
//! The app must show and drive a battle without naming its ruleset, so a ruleset's typed session
//! is erased behind [`AnyGame`], and its commands behind [`AnyCommand`]. The choice, written down
//! (see `docs/architecture.md`): a boxed trait object over the typed session, with commands
//! erased as shared `Any` values rather than serialised text. An enum over the registered
//! rulesets would make every screen match on every ruleset; serialised commands would cost a
//! RON round trip on every drag of a preview. The erased command costs a pointer copy, and the
//! typed code behind the handle is the same the CLI and the AI run, monomorphised.
//!
//! Everything a seat is shown starts from `Ruleset::view` for that seat (cached per seat until
//! the game changes); whether a command is allowed is asked of `Ruleset::legal` on the whole
//! state, never decided here or in the app.

use crate::lesson_run::{LessonRun, Noted};
use crate::narration::Narration;
use crate::present::{
    Card, Handle, LengthUnit, Menu, MenuChoices, MenuItem, OddsChart, Outcome, OverlayKind,
    PieceId, PoolLine, PreviewReport, Shape, TableScene,
};
use crate::presenter::Present;
use crate::ruleset::{Prompt, RuleError, Ruleset, Seat};
use crate::scenario::ScenarioInfo;
use crate::scenario_script::Goal;
use crate::session::{Session, TakeBackKind};
use crate::teach::{Teach, choices, command_matches, describe_command, describe_goal, guide};
use sandtable_geometry::Vec2;
use std::any::Any;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A command of some ruleset, erased. Cheap to clone; compares equal to the same command.
#[derive(Clone)]
pub struct AnyCommand(Arc<dyn ErasedCommand>);

trait ErasedCommand: Any + Send + Sync {
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn ErasedCommand) -> bool;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T: Any + Send + Sync + PartialEq + fmt::Debug> ErasedCommand for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn ErasedCommand) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl AnyCommand {
    pub fn new<T: Any + Send + Sync + PartialEq + fmt::Debug>(cmd: T) -> Self {
        Self(Arc::new(cmd))
    }

    /// The typed command, if it is of type `T`.
    pub fn downcast<T: Any>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }
}

impl PartialEq for AnyCommand {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl fmt::Debug for AnyCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f)
    }
}

/// The whole state of a game, erased, for a computer player to decide from (it takes its own
/// seat's view of it: see [`crate::player`]).
#[derive(Clone)]
pub struct Snapshot(pub(crate) Arc<dyn Any + Send + Sync>);

impl Snapshot {
    /// A snapshot of a ruleset's state (a remote side's knowledge of the battle, say), for a
    /// computer player to decide from.
    pub fn of<T: Any + Send + Sync>(state: T) -> Self {
        Self(Arc::new(state))
    }

    /// The typed state, for tools and tests that know the ruleset.
    pub fn get<T: Any>(&self) -> Option<&T> {
        self.0.downcast_ref::<T>()
    }
}

/// A battle of any ruleset, as the app drives it. Methods that take a `seat` answer from that
/// seat's view.
pub trait AnyGame: Send + Sync {
    fn ruleset(&self) -> &'static str;
    fn ruleset_name(&self) -> &'static str;
    fn info(&self) -> &ScenarioInfo;
    fn seed(&self) -> u64;

    fn prompt(&self) -> Prompt;
    fn is_over(&self) -> bool {
        self.prompt().seat.is_none()
    }
    /// Would the screen changing hands show a secret (a hot-seat curtain must fall)?
    fn holds_secrets(&self) -> bool;
    /// The rule that says whose decision it is, cited when the wrong seat tries to act.
    fn turn_rule(&self) -> &'static str;
    /// Whether the rules allow `cmd` now, for the seat that must decide.
    fn legal(&self, cmd: &AnyCommand) -> Result<(), RuleError>;
    /// Executes `cmd`; a lesson being followed takes note of it.
    fn submit(&mut self, cmd: &AnyCommand) -> Result<(), RuleError>;
    /// Commands in force.
    fn len(&self) -> usize;
    /// Events of the commands in force.
    fn event_count(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What taking back would mean for `seat` now.
    fn take_back_kind(&self, seat: Seat) -> TakeBackKind;
    /// `seat`'s own last command, when it is free to take back.
    fn undo(&mut self, seat: Seat) -> bool;
    fn can_redo(&self) -> bool;
    fn redo(&mut self) -> bool;
    /// Takes back from `seat`'s last command on, re-drawing the dice with `salt` (see
    /// [`Session::take_back`]).
    fn take_back(&mut self, seat: Seat, salt: Option<u64>) -> usize;
    fn take_back_count(&self) -> usize;

    fn length_unit(&self) -> LengthUnit;
    fn help_file(&self) -> &'static str;
    fn scene(&self, seat: Seat) -> TableScene;
    fn overlays(&self) -> &'static [OverlayKind];
    fn shapes(&self, seat: Seat, selection: Option<PieceId>, overlays: &[&str]) -> Vec<Shape>;
    /// The menu for `seat`, every item's `allowed` filled in from the rules.
    fn menu(
        &self,
        seat: Seat,
        selection: Option<PieceId>,
        plan: Option<&AnyCommand>,
        choices: &MenuChoices,
    ) -> Menu<AnyCommand>;
    fn next_step(&self, seat: Seat) -> Option<MenuItem<AnyCommand>>;
    fn preview(&self, seat: Seat, cmd: &AnyCommand) -> PreviewReport;
    fn handles(&self, seat: Seat, piece: PieceId, plan: Option<&AnyCommand>) -> Vec<Handle>;
    #[allow(clippy::too_many_arguments)]
    fn drag(
        &self,
        seat: Seat,
        piece: PieceId,
        plan: Option<&AnyCommand>,
        handle: u8,
        from: Vec2,
        to: Vec2,
    ) -> Option<AnyCommand>;
    fn click(
        &self,
        seat: Seat,
        piece: PieceId,
        plan: Option<&AnyCommand>,
        target: PieceId,
    ) -> Option<AnyCommand>;
    fn drop_last(&self, plan: &AnyCommand) -> Option<AnyCommand>;
    fn card(&self, seat: Seat, piece: PieceId) -> Option<Card>;
    fn tooltip(&self, seat: Seat, piece: PieceId, selection: Option<PieceId>) -> Vec<String>;
    fn pools(&self, seat: Seat) -> Vec<PoolLine>;
    fn forecast(&self, seat: Seat) -> Vec<OddsChart>;
    /// The events of the commands from index `from` on, in words for `seat` (`None`: all).
    fn narration(&self, seat: Option<Seat>, from: usize) -> Vec<Vec<Narration>>;
    fn outcome(&self) -> Option<Outcome>;

    fn lesson(&self) -> Option<&LessonRun>;
    fn lesson_mut(&mut self) -> Option<&mut LessonRun>;
    /// A command that works towards the lesson step, for the learner deciding now ("Show me").
    fn lesson_guide(&self) -> Option<AnyCommand>;
    /// Plays on as a plain battle: the scenario's lesson, if it has one, is no longer followed.
    /// For computer players on both sides (`simulate`, `soak`): a lesson takes back whatever
    /// its learner's seat does that the step did not ask for.
    fn as_battle(&mut self);
    /// The commands on offer now that meet the step's goal or one of its branches: the
    /// choices the step leaves the learner.
    fn lesson_choices(&self) -> Vec<AnyCommand>;
    /// "Next": on to the next step (or where the ending branch leads).
    fn lesson_next(&mut self);
    /// "Back one step": the step before, with the battle as it was when that step began (dice
    /// drawn since are drawn anew). False on the first step.
    fn lesson_back(&mut self) -> bool;
    /// "Show me" played a command for the learner.
    fn lesson_shown(&mut self);
    /// One more hint on this step.
    fn lesson_more_hint(&mut self);
    /// The hints asked for so far on this step, in order: the nudge, the rule, the exact move.
    fn lesson_hints(&self) -> Vec<String>;
    /// The rules' candidate commands for `seat` now, from its own view.
    fn candidates(&self, seat: Seat) -> Vec<AnyCommand>;
    /// A command in words, as a lesson says it ("Issue order with Pancerni banner (Charge)").
    fn describe_command(&self, cmd: &AnyCommand) -> String;

    /// The whole state, for a computer player (which takes its own seat's view of it).
    fn snapshot(&self) -> Snapshot;
    /// The save file's text.
    fn save_text(&self) -> Result<String, String>;
    fn hash(&self) -> String;
    /// The same battle from its first command (a lesson from its first step).
    fn restart(&self) -> Result<Box<dyn AnyGame>, String>;
    /// The position as it stands with new dice from `dice_seed` and an empty log: for playing it
    /// on many times (the odds from here).
    fn fork(&self, dice_seed: u64) -> Box<dyn AnyGame>;
    fn clone_box(&self) -> Box<dyn AnyGame>;
}

/// A typed session behind [`AnyGame`].
pub struct TypedGame<R: Ruleset + Present + Teach> {
    session: Session<R>,
    info: ScenarioInfo,
    /// Each seat's view, computed once per change.
    views: [OnceLock<R::State>; 2],
    lesson: Option<LessonRun>,
}

impl<R: Ruleset + Present + Teach> TypedGame<R> {
    pub fn new(session: Session<R>, info: ScenarioInfo) -> Self {
        let lesson = info.lesson.clone().map(LessonRun::new);
        Self {
            session,
            info,
            views: Default::default(),
            lesson,
        }
    }

    pub fn session(&self) -> &Session<R> {
        &self.session
    }

    fn view(&self, seat: Seat) -> &R::State {
        let seat = seat.min(1);
        self.views[seat as usize].get_or_init(|| R::view(self.session.state(), seat))
    }

    fn changed(&mut self) {
        self.views = Default::default();
    }

    fn typed<'a>(&self, cmd: &'a AnyCommand) -> Option<&'a R::Command> {
        cmd.downcast::<R::Command>()
    }

    /// `seat` may act only when the rules ask it to.
    fn seat_check(&self, seat: Seat) -> Result<(), RuleError> {
        match R::deciding(self.session.state()) {
            Some(s) if s == seat => Ok(()),
            Some(_) => Err(RuleError::new(
                R::TURN_RULE,
                "It is the other side's decision.",
            )),
            None => Err(RuleError::new(R::TURN_RULE, "The battle is over.")),
        }
    }

    fn allowed(&self, seat: Seat, cmd: &R::Command) -> Result<(), RuleError> {
        self.seat_check(seat)?;
        R::legal(self.session.state(), cmd)
    }

    /// What "Show me" would play for the learner now, typed.
    fn guide_command(&self) -> Option<R::Command> {
        let lesson = self.lesson.as_ref()?;
        let step = lesson.step()?;
        let seat = lesson.learner();
        guide::<R>(self.view(seat), &step.until, seat)
    }

    /// Takes the battle back to `kept` commands for the learner. Dice drawn (or secrets shown)
    /// in the part taken back are drawn anew, so that taking back never lets the learner
    /// foresee a die; otherwise the battle is exactly as it was.
    fn lesson_take_back_to(&mut self, kept: usize) {
        let Some(seat) = self.lesson.as_ref().map(LessonRun::learner) else {
            return;
        };
        let salt = self.session.revealed_since(kept).then(|| {
            // A new salt for every take-back: the same point taken back twice draws anew.
            (self.session.take_back_count() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ self.session.seed()
        });
        self.session.take_back_to(kept, seat, salt);
        self.changed();
    }

    /// After an undo or take-back by a player (Ctrl+Z): the lesson goes back with the battle,
    /// to the step the remaining commands had reached, and no redo may replay a command the
    /// lesson would not see.
    fn lesson_follows_take_back(&mut self) {
        let len = self.session.len();
        if let Some(l) = self.lesson.as_mut() {
            l.rewound(len);
            l.check_state::<R>(self.session.state(), len);
            self.session.forget_redo();
        }
    }

    /// A detour (the learner's last command) taken back: undone exactly when it showed
    /// nothing, else with the dice drawn anew.
    fn take_back_detour(&mut self, kept: usize) {
        let Some(seat) = self.lesson.as_ref().map(LessonRun::learner) else {
            return;
        };
        if self.session.len() == kept + 1
            && self.session.take_back_kind(seat) == TakeBackKind::Free
            && self.session.undo(seat)
        {
            self.session.forget_redo();
            self.changed();
        } else {
            self.lesson_take_back_to(kept);
        }
    }
}

fn foreign() -> RuleError {
    RuleError::new("GEN", "This command belongs to another ruleset.")
}

impl<R: Ruleset + Present + Teach> AnyGame for TypedGame<R> {
    fn ruleset(&self) -> &'static str {
        R::ID
    }
    fn ruleset_name(&self) -> &'static str {
        R::NAME
    }
    fn info(&self) -> &ScenarioInfo {
        &self.info
    }
    fn seed(&self) -> u64 {
        self.session.seed()
    }
    fn prompt(&self) -> Prompt {
        R::prompt(self.session.state())
    }
    fn holds_secrets(&self) -> bool {
        R::holds_secrets(self.session.state())
    }
    fn turn_rule(&self) -> &'static str {
        R::TURN_RULE
    }
    fn legal(&self, cmd: &AnyCommand) -> Result<(), RuleError> {
        let cmd = self.typed(cmd).ok_or_else(foreign)?;
        R::legal(self.session.state(), cmd)
    }

    fn submit(&mut self, cmd: &AnyCommand) -> Result<(), RuleError> {
        let cmd = self.typed(cmd).ok_or_else(foreign)?.clone();
        let by = R::deciding(self.session.state());
        let learner = self
            .lesson
            .as_ref()
            .filter(|l| !l.finished())
            .map(LessonRun::learner);
        let by_learner = by.is_some() && by == learner;
        // A learner acting while a step's explanation shows has moved on to the next step.
        if by_learner
            && let Some(l) = self.lesson.as_mut()
            && l.progress.done
        {
            l.next::<R>(self.session.state(), self.session.len());
        }
        let before = learner.map(|_| self.session.state().clone());
        let expected = by_learner.then(|| self.guide_command()).flatten();
        let len_before = self.session.len();
        let result = self.session.submit(cmd.clone()).map(<[_]>::to_vec);
        self.changed();
        match result {
            Ok(events) => {
                if let (Some(lesson), Some(before)) = (self.lesson.as_mut(), before.as_ref()) {
                    let noted = lesson.record::<R>(
                        before,
                        &cmd,
                        self.session.state(),
                        &events,
                        by_learner,
                        expected.as_ref(),
                        len_before,
                    );
                    if let Noted::Detour(why) = noted {
                        self.take_back_detour(len_before);
                        if let Some(l) = self.lesson.as_mut() {
                            l.detour_taken_back(why);
                        }
                    }
                }
                Ok(())
            }
            Err(e) => {
                if let Some(l) = self.lesson.as_mut() {
                    l.refused(e.to_string());
                }
                Err(e)
            }
        }
    }

    fn len(&self) -> usize {
        self.session.len()
    }
    fn event_count(&self) -> usize {
        self.session.events().map(<[_]>::len).sum()
    }

    fn take_back_kind(&self, seat: Seat) -> TakeBackKind {
        self.session.take_back_kind(seat)
    }
    fn undo(&mut self, seat: Seat) -> bool {
        let done = self.session.undo(seat);
        self.changed();
        self.lesson_follows_take_back();
        done
    }
    fn can_redo(&self) -> bool {
        self.session.can_redo()
    }
    fn redo(&mut self) -> bool {
        let done = self.session.redo().unwrap_or(false);
        self.changed();
        done
    }
    fn take_back(&mut self, seat: Seat, salt: Option<u64>) -> usize {
        let n = self.session.take_back(seat, salt);
        self.changed();
        self.lesson_follows_take_back();
        n
    }
    fn take_back_count(&self) -> usize {
        self.session.take_back_count()
    }

    fn length_unit(&self) -> LengthUnit {
        R::length_unit()
    }
    fn help_file(&self) -> &'static str {
        R::help_file()
    }
    fn scene(&self, seat: Seat) -> TableScene {
        R::table(self.view(seat), seat)
    }
    fn overlays(&self) -> &'static [OverlayKind] {
        R::overlays()
    }
    fn shapes(&self, seat: Seat, selection: Option<PieceId>, overlays: &[&str]) -> Vec<Shape> {
        R::shapes(self.view(seat), seat, selection, overlays)
    }

    fn menu(
        &self,
        seat: Seat,
        selection: Option<PieceId>,
        plan: Option<&AnyCommand>,
        choices: &MenuChoices,
    ) -> Menu<AnyCommand> {
        let plan = plan.and_then(|p| self.typed(p));
        let mut menu = R::menu(self.view(seat), seat, selection, plan, choices);
        for item in &mut menu.items {
            item.allowed = self.allowed(seat, &item.command);
        }
        menu.map(AnyCommand::new)
    }

    fn next_step(&self, seat: Seat) -> Option<MenuItem<AnyCommand>> {
        let mut item = R::next_step(self.view(seat), seat)?;
        item.allowed = self.allowed(seat, &item.command);
        Some(item.map(AnyCommand::new))
    }

    fn preview(&self, seat: Seat, cmd: &AnyCommand) -> PreviewReport {
        let Some(cmd) = self.typed(cmd) else {
            return PreviewReport {
                refused: Some(foreign()),
                ..Default::default()
            };
        };
        let view = self.view(seat);
        R::describe(view, seat, cmd, R::preview(view, cmd))
    }

    fn handles(&self, seat: Seat, piece: PieceId, plan: Option<&AnyCommand>) -> Vec<Handle> {
        if self.seat_check(seat).is_err() {
            return Vec::new();
        }
        let plan = plan.and_then(|p| self.typed(p));
        R::handles(self.view(seat), seat, piece, plan)
    }

    fn drag(
        &self,
        seat: Seat,
        piece: PieceId,
        plan: Option<&AnyCommand>,
        handle: u8,
        from: Vec2,
        to: Vec2,
    ) -> Option<AnyCommand> {
        let plan = plan.and_then(|p| self.typed(p));
        R::drag(self.view(seat), seat, piece, plan, handle, from, to).map(AnyCommand::new)
    }

    fn click(
        &self,
        seat: Seat,
        piece: PieceId,
        plan: Option<&AnyCommand>,
        target: PieceId,
    ) -> Option<AnyCommand> {
        if self.seat_check(seat).is_err() {
            return None;
        }
        let plan = plan.and_then(|p| self.typed(p));
        R::click(self.view(seat), seat, piece, plan, target).map(AnyCommand::new)
    }

    fn drop_last(&self, plan: &AnyCommand) -> Option<AnyCommand> {
        R::drop_last(self.typed(plan)?).map(AnyCommand::new)
    }

    fn card(&self, seat: Seat, piece: PieceId) -> Option<Card> {
        R::card(self.view(seat), seat, piece)
    }
    fn tooltip(&self, seat: Seat, piece: PieceId, selection: Option<PieceId>) -> Vec<String> {
        R::tooltip(self.view(seat), seat, piece, selection)
    }
    fn pools(&self, seat: Seat) -> Vec<PoolLine> {
        R::pools(self.view(seat), seat)
    }
    fn forecast(&self, seat: Seat) -> Vec<OddsChart> {
        R::forecast(self.view(seat), seat)
    }

    fn narration(&self, seat: Option<Seat>, from: usize) -> Vec<Vec<Narration>> {
        // Names come from the state as it is now: units keep their names all battle.
        let state = self.session.state();
        self.session
            .events()
            .skip(from)
            .map(|events| events.iter().map(|e| R::narrate(state, seat, e)).collect())
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        R::outcome(self.session.state())
    }

    fn lesson(&self) -> Option<&LessonRun> {
        self.lesson.as_ref()
    }
    fn lesson_mut(&mut self) -> Option<&mut LessonRun> {
        self.lesson.as_mut()
    }
    fn lesson_guide(&self) -> Option<AnyCommand> {
        self.guide_command().map(AnyCommand::new)
    }
    fn as_battle(&mut self) {
        self.lesson = None;
    }
    fn lesson_choices(&self) -> Vec<AnyCommand> {
        let Some(lesson) = self.lesson.as_ref() else {
            return Vec::new();
        };
        if lesson.progress.done {
            return Vec::new();
        }
        let seat = lesson.learner();
        let goals = lesson.goals();
        choices::<R>(self.view(seat), &goals, seat)
            .into_iter()
            .map(AnyCommand::new)
            .collect()
    }
    fn lesson_next(&mut self) {
        let len = self.session.len();
        if let Some(l) = self.lesson.as_mut()
            && !l.finished()
        {
            l.next::<R>(self.session.state(), len);
        }
    }
    fn lesson_back(&mut self) -> bool {
        let Some(kept) = self.lesson.as_mut().and_then(LessonRun::back) else {
            return false;
        };
        self.lesson_take_back_to(kept);
        // A step that a state of the battle ends at once ends so again.
        let len = self.session.len();
        if let Some(l) = self.lesson.as_mut() {
            l.check_state::<R>(self.session.state(), len);
        }
        true
    }
    fn lesson_shown(&mut self) {
        if let Some(l) = self.lesson.as_mut() {
            l.shown();
        }
    }
    fn lesson_more_hint(&mut self) {
        if let Some(l) = self.lesson.as_mut() {
            l.more_hint();
        }
    }
    fn lesson_hints(&self) -> Vec<String> {
        let Some(lesson) = self.lesson.as_ref() else {
            return Vec::new();
        };
        let Some(step) = lesson.step() else {
            return Vec::new();
        };
        let level = lesson
            .progress
            .hints
            .max(lesson.progress.wrong.is_some() as u8);
        let mut out = Vec::new();
        if level >= 1 {
            out.push(if step.hint.is_empty() {
                format!("This step asks you to {}.", describe_goal(&step.until))
            } else {
                step.hint.clone()
            });
        }
        if level >= 2 {
            let ids = LessonRun::step_rules(step);
            out.push(if ids.is_empty() {
                "The rule: read the step's explanation in the help (F1).".into()
            } else {
                format!("The rule: {} (click an ID to read it).", ids.join(", "))
            });
        }
        if level >= 3 {
            let seat = lesson.learner();
            out.push(match self.guide_command() {
                Some(c) if command_matches::<R>(&step.until, self.view(seat), &c) => format!(
                    "The exact move: {}, drawn on the table. \"Show me\" plays it for you.",
                    describe_command::<R>(self.view(seat), &c)
                ),
                Some(c) if matches!(step.until, Goal::Command { .. }) => format!(
                    "First move the battle on: {}. The step's own command ({}) comes after; \"Show me\" plays both.",
                    describe_command::<R>(self.view(seat), &c),
                    describe_goal(&step.until)
                ),
                Some(c) => format!(
                    "The exact move: {}, which moves the battle on; this step asks you to {}.",
                    describe_command::<R>(self.view(seat), &c),
                    describe_goal(&step.until)
                ),
                None => {
                    "The exact move: nothing yet; the other side is deciding, wait for it.".into()
                }
            });
        }
        out
    }
    fn describe_command(&self, cmd: &AnyCommand) -> String {
        // In the deciding seat's view: the words never name what that seat may not see.
        let seat = R::deciding(self.session.state()).unwrap_or(0);
        self.typed(cmd)
            .map(|c| describe_command::<R>(self.view(seat), c))
            .unwrap_or_default()
    }
    fn candidates(&self, seat: Seat) -> Vec<AnyCommand> {
        if R::deciding(self.session.state()) != Some(seat) {
            return Vec::new();
        }
        R::candidates(self.view(seat))
            .into_iter()
            .map(AnyCommand::new)
            .collect()
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot(Arc::new(self.session.state().clone()))
    }
    fn save_text(&self) -> Result<String, String> {
        crate::data_file::to_ron_pretty(&self.session.to_save())
    }
    fn hash(&self) -> String {
        self.session.hash()
    }
    fn restart(&self) -> Result<Box<dyn AnyGame>, String> {
        let session = Session::<R>::new(self.session.setup().clone(), self.session.seed())?;
        Ok(Box::new(TypedGame::new(session, self.info.clone())))
    }
    fn fork(&self, dice_seed: u64) -> Box<dyn AnyGame> {
        let session = Session::<R>::from_position(
            self.session.setup().clone(),
            dice_seed,
            self.session.state(),
        );
        Box::new(TypedGame {
            session,
            info: self.info.clone(),
            views: Default::default(),
            lesson: None,
        })
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(TypedGame {
            session: self.session.clone(),
            info: self.info.clone(),
            views: self.views.clone(),
            lesson: self.lesson.clone(),
        })
    }
}
