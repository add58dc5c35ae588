//! The battle being played: the command log (session), whose eyes the screen shows, the hand-over
//! curtain, and the battle log. The app changes the game only by submitting commands here.

use bevy::prelude::*;
use sandtable_ai::PlayerKind;
use sandtable_bfs::ids::Side;
use sandtable_bfs::lesson::Progress;
use sandtable_bfs::state::Game;
use sandtable_bfs::turn::{Bid, Phase};
use sandtable_bfs::{BattleSetup, Bfs, BfsSession, Command, Event, LoadedScenario};
use sandtable_engine::scenario_script::{LessonSpec, StepSpec};
use sandtable_engine::{Prompt, RuleError, Ruleset};

#[derive(Resource, Clone)]
pub struct Battle {
    pub loaded: LoadedScenario,
    /// Who plays each side: a person at this screen, or the computer (solo play).
    pub seats: [SeatKind; 2],
    /// How the computer plays its seats: the search player, or passively in lessons.
    pub opponent: PlayerKind,
    /// The tutorial lesson being followed, if this battle is one.
    pub lesson: Option<LessonRun>,
    pub session: BfsSession,
    /// The seat whose view is on screen (hot-seat: the player in front of it).
    pub viewer: Side,
    /// The game as `viewer` may see it: what the table draws and the panels read.
    pub game: Game,
    /// Hand the screen to this side before showing anything more (a curtain covers the table).
    pub curtain: Option<Side>,
    /// Events of the last command, for the dice panel.
    pub last_events: Vec<Event>,
    /// Every event so far with the turn it happened in.
    pub log: Vec<(u32, Event)>,
    /// The last refusal or notice, shown until the next action.
    pub notice: Option<String>,
    /// Bumped on every change, so systems can tell a new state from an old one cheaply.
    pub revision: u64,
}

impl Battle {
    pub fn new(loaded: LoadedScenario) -> Result<Self, String> {
        Self::with_seats(loaded, [SeatKind::Human; 2])
    }

    pub fn with_seats(loaded: LoadedScenario, seats: [SeatKind; 2]) -> Result<Self, String> {
        let seed = loaded.scenario.seed;
        let session = BfsSession::new(BattleSetup::from(&loaded), seed)?;
        let lesson = loaded.scenario.lesson.clone();
        let mut b = Self::from_session(loaded, session);
        // A lesson decides for itself: the learner at the screen, the computer on the other side.
        match lesson {
            Some(spec) => {
                let mut seats = [SeatKind::Computer; 2];
                seats[spec.learner.min(1)] = SeatKind::Human;
                b.opponent = if spec.opponent == "computer" {
                    PlayerKind::Ai
                } else {
                    PlayerKind::Passive
                };
                b.lesson = Some(LessonRun {
                    spec,
                    progress: Progress::default(),
                });
                b.set_seats(seats);
            }
            None => b.set_seats(seats),
        }
        Ok(b)
    }

    /// Changes who plays each side; with one person at the screen, the screen is theirs.
    pub fn set_seats(&mut self, seats: [SeatKind; 2]) {
        self.seats = seats;
        if let Some(person) = self.only_person() {
            self.viewer = person;
            self.curtain = None;
        } else if !seats.contains(&SeatKind::Human) {
            self.curtain = None;
        }
        self.refresh();
    }

    /// The side of the one person playing, when the other side is the computer.
    pub fn only_person(&self) -> Option<Side> {
        match self.seats {
            [SeatKind::Human, SeatKind::Computer] => Some(Side::A),
            [SeatKind::Computer, SeatKind::Human] => Some(Side::B),
            _ => None,
        }
    }

    /// Is the side that must decide now played by the computer?
    pub fn computer_to_decide(&self) -> Option<Side> {
        self.deciding()
            .filter(|s| self.seats[s.0 as usize] == SeatKind::Computer)
    }

    pub fn from_session(loaded: LoadedScenario, session: BfsSession) -> Self {
        let viewer = Bfs::prompt(session.state())
            .seat
            .map(|s| Side(s.min(1)))
            .unwrap_or(Side::A);
        let game = Bfs::view(session.state(), viewer.0);
        let log = session
            .events()
            .iter()
            .flat_map(|evs| evs.iter().map(|e| (0, e.clone())))
            .collect();
        let mut b = Self {
            loaded,
            seats: [SeatKind::Human; 2],
            opponent: PlayerKind::Ai,
            lesson: None,
            session,
            viewer,
            game,
            curtain: None,
            last_events: Vec::new(),
            log,
            notice: None,
            revision: 0,
        };
        b.renumber_log();
        // Open on a curtain when the first decision is secret (the opening bid).
        b.curtain = Bfs::prompt(b.session.state()).secret.then_some(viewer);
        b
    }

    pub fn prompt(&self) -> Prompt {
        Bfs::prompt(self.session.state())
    }

    /// The side that must decide now.
    pub fn deciding(&self) -> Option<Side> {
        self.prompt().seat.map(|s| Side(s.min(1)))
    }

    /// Is the command legal for the side whose screen this is?
    pub fn check(&self, cmd: &Command) -> Result<(), RuleError> {
        if self.curtain.is_some() {
            return Err(RuleError::new("BFS-GEN", "Hand the screen over first."));
        }
        if self.deciding() != Some(self.viewer) {
            return Err(RuleError::new(
                "BFS-SEQ-1",
                "It is the other side's decision.",
            ));
        }
        if self.computer_to_decide().is_some() {
            return Err(RuleError::new(
                "BFS-SEQ-1",
                "The computer is deciding for this side.",
            ));
        }
        Bfs::legal(self.session.state(), cmd)
    }

    /// Submits a command for the side on screen. On success the events are logged and the
    /// screen is handed over if the next decision belongs to the other side.
    pub fn submit(&mut self, cmd: Command) -> Result<(), RuleError> {
        if let Err(e) = self.check(&cmd) {
            self.notice = Some(e.to_string());
            if let Some(l) = self.lesson.as_mut() {
                l.progress.refused(e.to_string());
            }
            return Err(e);
        }
        self.apply(cmd)
    }

    /// Submits the computer's command for `side`, which must be a computer seat with the
    /// decision. The rules still check it like any other.
    pub fn submit_computer(&mut self, side: Side, cmd: Command) -> Result<(), RuleError> {
        if self.computer_to_decide() != Some(side) {
            return Err(RuleError::new(
                "BFS-SEQ-1",
                "It is not the computer's decision.",
            ));
        }
        self.apply(cmd)
    }

    fn apply(&mut self, cmd: Command) -> Result<(), RuleError> {
        let turn = self.session.state().turn.number;
        let by = self.deciding();
        let before = self.lesson.is_some().then(|| self.session.state().clone());
        let events = match self.session.submit(cmd.clone()) {
            Ok(ev) => ev.to_vec(),
            Err(e) => {
                self.notice = Some(e.to_string());
                return Err(e);
            }
        };
        self.log.extend(events.iter().map(|e| (turn, e.clone())));
        // A lesson's step may be completed by this command or by what it led to.
        if let (Some(l), Some(before)) = (self.lesson.as_mut(), before.as_ref()) {
            let learner = by.is_some_and(|b| b.index() == l.spec.learner);
            if let Some(step) = l.spec.steps.get(l.progress.step) {
                l.progress.record(
                    &step.until,
                    before,
                    &cmd,
                    self.session.state(),
                    &events,
                    learner,
                );
            }
        }
        self.last_events = events;
        self.notice = None;
        self.after_change();
        Ok(())
    }

    /// Starts the same battle again from its first command, with the same players; a lesson
    /// starts again at its first step. The way out of a lesson whose dice went another way.
    pub fn restart(&mut self) -> Result<(), String> {
        *self = Self::with_seats(self.loaded.clone(), self.seats)?;
        Ok(())
    }

    /// Takes back the last command (replaying the log, so it is exact). Against the computer it
    /// takes back the computer's replies too, back to the person's own last decision.
    pub fn undo(&mut self) -> bool {
        let done = self.session.undo();
        if done && self.seats.contains(&SeatKind::Computer) && self.seats.contains(&SeatKind::Human)
        {
            while self.computer_to_decide().is_some() && self.session.undo() {}
        }
        if done {
            self.rebuild_log();
            self.after_change();
        }
        done
    }

    pub fn redo(&mut self) -> bool {
        let done = self.session.redo().unwrap_or(false);
        if done {
            self.rebuild_log();
            self.after_change();
        }
        done
    }

    fn rebuild_log(&mut self) {
        self.log = self
            .session
            .events()
            .iter()
            .flat_map(|evs| evs.iter().map(|e| (0, e.clone())))
            .collect();
        self.renumber_log();
        self.last_events = self.session.events().last().cloned().unwrap_or_default();
    }

    /// Turn numbers for log lines, from the TurnBegan events.
    fn renumber_log(&mut self) {
        let mut turn = 1;
        for (t, e) in self.log.iter_mut() {
            if let Event::TurnBegan { turn: n } = e {
                turn = *n;
            }
            *t = turn;
        }
    }

    /// Who sees the screen next: the deciding side, behind a curtain if the state holds secrets
    /// the current viewer must not see or the next viewer must not be shown by accident.
    fn after_change(&mut self) {
        // With the computer on one side the person's screen never changes hands; with the
        // computer on both, side A's view is shown.
        if self.seats.contains(&SeatKind::Computer) {
            self.viewer = self.only_person().unwrap_or(Side::A);
            self.curtain = None;
            self.refresh();
            return;
        }
        if let Some(next) = self.deciding()
            && next != self.viewer
        {
            if has_secrets(self.session.state()) {
                self.curtain = Some(next);
            } else {
                self.viewer = next;
            }
        }
        self.refresh();
    }

    /// The player on the other side of the curtain is ready.
    pub fn lift_curtain(&mut self) {
        if let Some(side) = self.curtain.take() {
            self.viewer = side;
            self.refresh();
        }
    }

    pub fn refresh(&mut self) {
        self.game = Bfs::view(self.session.state(), self.viewer.0);
        self.revision += 1;
    }

    pub fn is_over(&self) -> bool {
        matches!(self.session.state().turn.phase, Phase::GameOver)
    }

    /// Log lines the viewer may read: the other side's face-down orders stay face down.
    pub fn visible_event(&self, e: &Event) -> Event {
        let g = self.session.state();
        e.redacted_for(self.viewer, |u| g.unit(u).side)
    }
}

/// Does the game hold a secret that one seat may see and the other not (face-down orders, a
/// placed bid)? Then the screen must be handed over behind a curtain.
pub fn has_secrets(game: &Game) -> bool {
    let bids = matches!(&game.turn.phase, Phase::InitiativeBids { bids } if bids.iter().any(|b| matches!(b, Bid::Placed(_))));
    bids || game
        .units
        .iter()
        .any(|u| u.pending_order.is_some_and(|p| p.kind.is_some()))
}

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SeatKind {
    /// A person at this screen (hot-seat when both are).
    #[default]
    Human,
    /// The computer opponent (`sandtable_ai::SearchPlayer`), deciding off the frame.
    Computer,
}

impl SeatKind {
    pub fn label(self) -> &'static str {
        match self {
            SeatKind::Human => "Player",
            SeatKind::Computer => "Computer",
        }
    }
}

/// A lesson being followed: its steps and where the learner is.
#[derive(Debug, Clone)]
pub struct LessonRun {
    pub spec: LessonSpec,
    pub progress: Progress,
}

impl LessonRun {
    /// The step being worked on; `None` once the lesson is complete.
    pub fn step(&self) -> Option<&StepSpec> {
        self.spec.steps.get(self.progress.step)
    }

    pub fn finished(&self) -> bool {
        self.progress.step >= self.spec.steps.len()
    }
}
