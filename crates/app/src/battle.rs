//! The battle being played: the game (of whatever ruleset), whose eyes the screen shows, the
//! hand-over curtain, take-backs by the rules of a fair table, and the battle log. The app
//! changes the game only by submitting commands here, and shows a seat only what the game's
//! view for that seat holds.

use bevy::prelude::*;
use sandtable_engine::narration::Narration;
use sandtable_engine::{AnyCommand, AnyGame, Prompt, RuleError, Seat, TableScene, TakeBackKind};
use std::path::PathBuf;

/// Who plays a side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SeatKind {
    /// A person at this screen (hot-seat when both are).
    #[default]
    Human,
    /// The computer opponent, deciding off the frame.
    Computer,
    /// A person on another machine (`crate::remote`): their commands come in turn files.
    Remote,
}

impl SeatKind {
    pub fn label(self) -> &'static str {
        match self {
            SeatKind::Human => "Player",
            SeatKind::Computer => "Computer",
            SeatKind::Remote => "Remote",
        }
    }
}

/// What covers the screen until the person in front of it is the right one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curtain {
    /// Hand the screen to this seat: the next screen shows its secrets.
    HandOver(Seat),
    /// `asker` asks to take back its last `commands` commands (its own and what followed); the
    /// other seat decides, with the screen in its own hands.
    Consent { asker: Seat, commands: usize },
}

impl Curtain {
    /// The seat that must be in front of the screen.
    pub fn seat(self) -> Seat {
        match self {
            Curtain::HandOver(s) => s,
            Curtain::Consent { asker, .. } => 1 - asker.min(1),
        }
    }
}

/// The coach's player, shared by clones of a battle (the computer's thinking thread has one).
#[derive(Clone)]
pub struct Coach(pub std::sync::Arc<std::sync::Mutex<Box<dyn sandtable_engine::AnyPlayer>>>);

#[derive(Resource)]
pub struct Battle {
    pub game: Box<dyn AnyGame>,
    /// The scenario or save it was opened from.
    pub path: PathBuf,
    /// Who plays each side: a person at this screen, or the computer (solo play).
    pub seats: [SeatKind; 2],
    /// How the computer plays its seats: "ai:<level>" (the search player) or "passive" (in
    /// lessons).
    pub opponent: String,
    /// Why the computer chose its last command, in its own words ("Why?"); `None` when it
    /// gave no reason, or when the decision was secret (a face-down order, a bid), whose
    /// reasons would tell the person what the rules hide.
    pub computer_why: Option<String>,
    /// The seat whose view is on screen (hot-seat: the player in front of it).
    pub viewer: Seat,
    pub curtain: Option<Curtain>,
    /// The table as `viewer` sees it.
    pub scene: TableScene,
    /// The last command's events in the viewer's words, for the dice panel.
    pub last: Vec<Narration>,
    /// Every event so far in the viewer's words, with the turn it happened in.
    pub log: Vec<(u32, Narration)>,
    /// The last refusal or notice, shown until the next action.
    pub notice: Option<String>,
    /// Bumped on every change, so systems can tell a new state from an old one cheaply.
    pub revision: u64,
    /// Solo practice: take-backs keep the same dice instead of re-drawing them.
    pub same_dice: bool,
    /// A lesson's "Show me" is playing the step: when it played its last command (seconds of
    /// the app's clock).
    pub showing: Option<f64>,
    /// The command "Show me" played last, in words.
    pub shown_line: Option<String>,
    /// The coach: the computer's judgement, asked about a person's planned command before it
    /// is carried out (`Battle::coach_advice`). Shared by clones of the battle.
    pub coach: Option<Coach>,
    /// The side played here of a battle whose other side is on another machine.
    pub remote: Option<crate::remote::Remote>,
}

impl Clone for Battle {
    fn clone(&self) -> Self {
        Self {
            game: self.game.clone_box(),
            path: self.path.clone(),
            seats: self.seats,
            opponent: self.opponent.clone(),
            computer_why: self.computer_why.clone(),
            viewer: self.viewer,
            curtain: self.curtain,
            scene: self.scene.clone(),
            last: self.last.clone(),
            log: self.log.clone(),
            notice: self.notice.clone(),
            revision: self.revision,
            same_dice: self.same_dice,
            showing: self.showing,
            shown_line: self.shown_line.clone(),
            coach: self.coach.clone(),
            remote: self.remote.clone(),
        }
    }
}

/// A salt for re-drawing the dice nobody could know in advance (the system's entropy; the
/// clock if that fails).
fn fresh_salt() -> u64 {
    getrandom::u64().unwrap_or_else(|_| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    })
}

impl Battle {
    /// A battle between two people at this screen.
    pub fn new(game: Box<dyn AnyGame>, path: PathBuf) -> Self {
        Self::with_seats(game, path, [SeatKind::Human; 2])
    }

    pub fn with_seats(game: Box<dyn AnyGame>, path: PathBuf, seats: [SeatKind; 2]) -> Self {
        let viewer = game.prompt().seat.unwrap_or(0);
        let scene = game.scene(viewer);
        let mut b = Self {
            game,
            path,
            seats,
            opponent: "ai".into(),
            computer_why: None,
            viewer,
            curtain: None,
            scene,
            last: Vec::new(),
            log: Vec::new(),
            notice: None,
            revision: 0,
            same_dice: false,
            showing: None,
            shown_line: None,
            coach: None,
            remote: None,
        };
        // A lesson decides for itself: the learner at the screen, the computer on the other side.
        let lesson = b.game.info().lesson.clone();
        match lesson {
            Some(spec) => {
                let mut seats = [SeatKind::Computer; 2];
                seats[spec.learner.min(1)] = SeatKind::Human;
                b.opponent = if spec.opponent == "computer" {
                    "ai".into()
                } else {
                    "passive".into()
                };
                b.set_seats(seats);
            }
            None => {
                b.set_seats(seats);
                // Open on a curtain when the first decision is secret (the opening bid).
                if b.hot_seat() && b.prompt().secret {
                    b.curtain = Some(Curtain::HandOver(viewer));
                }
            }
        }
        b.rebuild_log();
        b
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

    /// The seat of the one person playing, when the other side is the computer.
    pub fn only_person(&self) -> Option<Seat> {
        match self.seats {
            [SeatKind::Human, SeatKind::Computer | SeatKind::Remote] => Some(0),
            [SeatKind::Computer | SeatKind::Remote, SeatKind::Human] => Some(1),
            _ => None,
        }
    }

    /// Solo practice: one person against the computer.
    pub fn solo(&self) -> bool {
        self.only_person().is_some() && self.seats.contains(&SeatKind::Computer)
    }

    pub fn hot_seat(&self) -> bool {
        self.seats == [SeatKind::Human; 2]
    }

    pub fn prompt(&self) -> Prompt {
        self.game.prompt()
    }

    /// The seat that must decide now.
    pub fn deciding(&self) -> Option<Seat> {
        self.prompt().seat
    }

    /// Is the seat that must decide now played by the computer?
    pub fn computer_to_decide(&self) -> Option<Seat> {
        self.deciding()
            .filter(|s| self.seats[(*s).min(1) as usize] == SeatKind::Computer)
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The side's name.
    pub fn side_name(&self, seat: Seat) -> String {
        self.game.info().side_name(seat)
    }

    /// Why the person at the screen may not act now, if they may not: the curtain, the other
    /// side's turn, the computer's.
    pub fn screen_refusal(&self) -> Option<RuleError> {
        let rule = self.game.turn_rule();
        if self.curtain.is_some() {
            return Some(RuleError::new(rule, "Hand the screen over first."));
        }
        if self.deciding() != Some(self.viewer) {
            return Some(RuleError::new(rule, "It is the other side's decision."));
        }
        if self.computer_to_decide().is_some() {
            return Some(RuleError::new(
                rule,
                "The computer is deciding for this side.",
            ));
        }
        if let Some(r) = &self.remote {
            let waiting = {
                let side = r.lock();
                (!side.handle.to_play()).then(|| side.handle.waiting())
            };
            if let Some(w) = waiting {
                return Some(RuleError::new(rule, w));
            }
        }
        None
    }

    /// Is the command legal for the side whose screen this is?
    pub fn check(&self, cmd: &AnyCommand) -> Result<(), RuleError> {
        if let Some(e) = self.screen_refusal() {
            return Err(e);
        }
        self.game.legal(cmd)
    }

    /// Submits a command for the side on screen. On success the events are logged and the
    /// screen is handed over if the next decision belongs to the other side.
    pub fn submit(&mut self, cmd: &AnyCommand) -> Result<(), RuleError> {
        if let Some(e) = self.screen_refusal() {
            self.notice = Some(e.to_string());
            if let Some(l) = self.game.lesson_mut() {
                l.refused(e.to_string());
            }
            return Err(e);
        }
        self.apply(cmd)
    }

    /// Submits the computer's command for `seat`, which must be a computer seat with the
    /// decision. The rules still check it like any other. Its reason is kept for "Why?" only
    /// if the decision was public.
    pub fn submit_computer(
        &mut self,
        seat: Seat,
        cmd: &AnyCommand,
        why: Option<String>,
    ) -> Result<(), RuleError> {
        if self.computer_to_decide() != Some(seat) {
            return Err(RuleError::new(
                self.game.turn_rule(),
                "It is not the computer's decision.",
            ));
        }
        let secret = self.prompt().secret;
        self.apply(cmd)?;
        self.computer_why = why.filter(|_| !secret);
        Ok(())
    }

    /// Sets the computer's level ("ai" becomes "ai:<level>"); a lesson's passive opponent
    /// stays passive.
    pub fn set_level(&mut self, level: sandtable_ai::Level) {
        if self.opponent == "ai" || self.opponent.starts_with("ai:") {
            self.opponent = format!("ai:{}", level.name());
        }
    }

    fn apply(&mut self, cmd: &AnyCommand) -> Result<(), RuleError> {
        if let Some(remote) = self.remote.clone() {
            // The side plays it (sealing it if the rules keep it secret); the screen shows the
            // side's battle.
            let before = self.game.len();
            {
                let mut side = remote.lock();
                if let Err(e) = side.handle.play(cmd) {
                    self.notice = Some(e.to_string());
                    return Err(e);
                }
                if let Some(g) = side.handle.game() {
                    self.game = g;
                }
                // Kept before its result shows: quitting and coming back plays it again, with
                // the same dice.
                let private = side.handle.private();
                if let Err(e) = side.store.keep_private(&private) {
                    self.notice = Some(format!("Could not keep your command: {e}"));
                    return Ok(());
                }
            }
            self.notice = None;
            self.append_log(before);
            self.refresh();
            self.remote_flush();
            return Ok(());
        }
        let before = self.game.len();
        if let Err(e) = self.game.submit(cmd) {
            self.notice = Some(e.to_string());
            return Err(e);
        }
        self.notice = None;
        self.append_log(before);
        self.after_change();
        Ok(())
    }

    /// Starts the same battle again from its first command, with the same players; a lesson
    /// starts again at its first step. The way out of a lesson whose dice went another way.
    pub fn restart(&mut self) -> Result<(), String> {
        let game = self.game.restart()?;
        *self = Self::with_seats(game, self.path.clone(), self.seats);
        Ok(())
    }

    /// What Undo would do for the person at the screen now, in words for its button; `None`
    /// when there is nothing they may take back.
    pub fn undo_offer(&self) -> Option<String> {
        if self.curtain.is_some() || self.seats == [SeatKind::Computer; 2] {
            return None;
        }
        if let Some(r) = &self.remote {
            // Local only, and never across a file sent (`docs/remote.md`).
            return r
                .lock()
                .handle
                .can_undo()
                .then(|| "Take back your last command (not yet sent)".into());
        }
        let seat = self.only_person().unwrap_or(self.viewer);
        match self.game.take_back_kind(seat) {
            TakeBackKind::Nothing => None,
            TakeBackKind::Free => Some("Take back your last command".into()),
            TakeBackKind::NeedsConsent { commands } if self.solo() => Some(format!(
                "Take back {commands} command(s) to your last decision{}",
                if self.same_dice {
                    " (practice: the same dice)"
                } else {
                    "; the dice that follow are re-drawn"
                }
            )),
            TakeBackKind::NeedsConsent { commands } => Some(format!(
                "Ask {} to allow taking back {commands} command(s); the dice that follow are re-drawn",
                self.side_name(1 - seat.min(1))
            )),
        }
    }

    /// Undo, by the rules of a fair table (`docs/reliability.md`): the seat's own last command
    /// while it showed nothing new is taken back at once; anything further back needs the other
    /// side's consent, asked behind the curtain, and re-draws the dice. Against the computer a
    /// take-back goes back to the person's last decision and re-draws the dice unless the player
    /// practises with the same dice. Nothing happens while the curtain is down.
    pub fn undo(&mut self) -> bool {
        if self.curtain.is_some() {
            return false;
        }
        if let Some(remote) = self.remote.clone() {
            let done = {
                let mut side = remote.lock();
                let done = side.handle.undo();
                if done && let Some(g) = side.handle.game() {
                    self.game = g;
                }
                if done {
                    let private = side.handle.private();
                    let _ = side.store.keep_private(&private);
                }
                done
            };
            if done {
                self.changed_history();
            }
            return done;
        }
        let seat = match (self.only_person(), self.seats) {
            (Some(p), _) => p,
            (None, [SeatKind::Human, SeatKind::Human]) => self.viewer,
            _ => return false,
        };
        match self.game.take_back_kind(seat) {
            TakeBackKind::Nothing => false,
            TakeBackKind::Free => {
                let done = self.game.undo(seat);
                self.changed_history();
                done
            }
            TakeBackKind::NeedsConsent { .. } if self.solo() => {
                // In a lesson the dice are always drawn anew: a learner never replays a step
                // knowing its dice.
                let salt = (!self.same_dice || self.game.lesson().is_some()).then(fresh_salt);
                let n = self.game.take_back(seat, salt);
                self.changed_history();
                self.notice = Some(format!(
                    "Took back {n} command(s){}.",
                    if salt.is_some() {
                        "; the dice that follow are re-drawn"
                    } else {
                        " (practice: the same dice)"
                    }
                ));
                n > 0
            }
            TakeBackKind::NeedsConsent { commands } => {
                self.curtain = Some(Curtain::Consent {
                    asker: seat,
                    commands,
                });
                self.refresh();
                true
            }
        }
    }

    /// The other side's answer to a take-back request, given behind the curtain.
    pub fn answer_take_back(&mut self, allow: bool) {
        let Some(Curtain::Consent { asker, .. }) = self.curtain else {
            return;
        };
        let other = 1 - asker.min(1);
        // The screen is in the other player's hands now.
        self.viewer = other;
        self.curtain = None;
        if allow {
            let n = self.game.take_back(asker, Some(fresh_salt()));
            self.rebuild_log();
            self.notice = Some(format!(
                "{} allowed {} to take back {n} command(s); the dice that follow are re-drawn.",
                self.side_name(other),
                self.side_name(asker)
            ));
        } else {
            self.notice = Some(format!("{} refused the take-back.", self.side_name(other)));
        }
        // Back to whoever decides now, behind the curtain if the screen would show secrets.
        self.hand_to(self.deciding().unwrap_or(asker));
    }

    /// Gives the battle its coach: the ruleset's search player, which judges from the deciding
    /// seat's view only.
    pub fn with_coach(mut self, registry: &sandtable_engine::Registry) -> Self {
        let seed = self.game.seed() ^ 0xC0AC;
        self.coach = registry
            .player(self.game.ruleset(), "ai", seed)
            .ok()
            .map(|p| Coach(std::sync::Arc::new(std::sync::Mutex::new(p))));
        self
    }

    /// The coach's word on `cmd`, which the person deciding now plans: one sentence when the
    /// computer reckons it a clear blunder, else `None`. Silent in lessons (the lesson teaches
    /// there) and when the computer decides.
    pub fn coach_advice(&self, cmd: &AnyCommand) -> Option<String> {
        let coach = self.coach.as_ref()?;
        if self.game.lesson().is_some() || self.computer_to_decide().is_some() {
            return None;
        }
        let seat = self.deciding()?;
        let mut player = coach.0.lock().ok()?;
        player.coach(&self.game.snapshot(), seat, cmd)
    }

    /// A lesson step is to be read (or its explanation shows): the other side waits for the
    /// learner's "Next", so that nothing it does passes unseen by the step that follows.
    pub fn lesson_reading(&self) -> bool {
        self.game.lesson().is_some_and(|l| l.reading())
    }

    /// A lesson's "Back one step": the step before, the battle as it was when that step began.
    pub fn lesson_back(&mut self) -> bool {
        self.showing = None;
        let done = self.game.lesson_back();
        if done {
            self.changed_history();
        }
        done
    }

    /// Redoes a command taken back freely (its own, showing nothing new).
    pub fn redo(&mut self) -> bool {
        if self.curtain.is_some() || self.remote.is_some() || !self.game.can_redo() {
            return false;
        }
        let done = self.game.redo();
        self.changed_history();
        done
    }

    fn changed_history(&mut self) {
        self.rebuild_log();
        self.after_change();
    }

    /// Every event so far, narrated for the viewer.
    pub(crate) fn rebuild_log(&mut self) {
        self.log.clear();
        self.append_log(0);
    }

    /// The events of the commands from `from` on, added to the log; the dice panel shows the
    /// last command's.
    fn append_log(&mut self, from: usize) {
        let mut turn = self.log.last().map_or(1, |l| l.0);
        let new = self.game.narration(Some(self.viewer), from);
        for lines in &new {
            for n in lines {
                if let Some(t) = n.turn_began {
                    turn = t;
                }
                self.log.push((turn, n.clone()));
            }
        }
        self.last = new.last().cloned().unwrap_or_default();
    }

    /// Who sees the screen next: the deciding seat, behind a curtain if the state holds secrets
    /// the current viewer must not see or the next viewer must not be shown by accident.
    fn after_change(&mut self) {
        // Any change (a command, a take-back, a redo) leaves the computer's last reason behind
        // it; `submit_computer` sets the new one after its own command.
        self.computer_why = None;
        // With the computer on one side the person's screen never changes hands; with the
        // computer on both, side A's view is shown.
        if self.seats.contains(&SeatKind::Computer) || self.seats.contains(&SeatKind::Remote) {
            self.viewer = self.only_person().unwrap_or(0);
            self.curtain = None;
            self.refresh();
            return;
        }
        match self.deciding() {
            Some(next) => self.hand_to(next),
            None => self.refresh(),
        }
    }

    /// Gives the screen to `seat`: at once when nothing secret could show, else behind a curtain.
    fn hand_to(&mut self, seat: Seat) {
        if seat != self.viewer {
            if self.game.holds_secrets() {
                self.curtain = Some(Curtain::HandOver(seat));
            } else {
                self.viewer = seat;
                self.rebuild_log();
            }
        }
        self.refresh();
    }

    /// Shows the screen to `seat` at once, with no curtain (for `--autoplay` screenshots and
    /// tests that play both sides).
    pub fn look_as(&mut self, seat: Seat) {
        self.curtain = None;
        if seat != self.viewer {
            self.viewer = seat;
            self.rebuild_log();
        }
        self.refresh();
    }

    /// The player on the other side of the curtain is ready.
    pub fn lift_curtain(&mut self) {
        if let Some(Curtain::HandOver(seat)) = self.curtain {
            self.curtain = None;
            if seat != self.viewer {
                self.viewer = seat;
                self.rebuild_log();
            }
            self.refresh();
        }
    }

    /// Shows the table again as the viewer sees it.
    pub fn refresh(&mut self) {
        self.scene = self.game.scene(self.viewer);
        self.revision += 1;
    }
}
