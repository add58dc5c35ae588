//! A game in progress as its command log: submit, take back and redo, save and load.
//!
//! A save is RON: a format version, the ruleset, the seed, the setup (scenario and army lists),
//! the commands, the take-backs that re-drew the dice, and the state hash at the end. Loading
//! replays the commands; each must be legal at its point, and the replayed hash must match.
//!
//! Take-backs follow the rules of a fair table (see `docs/reliability.md`):
//!
//! - a seat may take back its own last command while nothing came of it that it could not have
//!   known before (no die rolled, no secret turned up) and the screen has not changed hands:
//!   [`Session::undo`], exact, and [`Session::redo`] puts it back;
//! - anything further back needs the other side's consent (the app asks it), and then the dice
//!   that follow are re-drawn: [`Session::take_back`] logs a [`TakeBack`] with a fresh salt, so a
//!   replay reproduces the game exactly and nobody could have foreseen the new dice.

use crate::data_file;
use crate::ruleset::{RuleError, Ruleset, Seat};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// Current save format.
pub const SAVE_FORMAT: u32 = 1;

/// Most commands a save may hold: a long Division battle makes a few thousand.
pub const MAX_SAVED_COMMANDS: usize = 200_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename = "Save")]
pub struct SaveFile<S, C> {
    pub format: u32,
    pub ruleset: String,
    pub seed: u64,
    pub setup: S,
    pub commands: Vec<C>,
    /// Take-backs that re-drew the dice, in the order they happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub take_backs: Vec<TakeBack>,
    /// Hash of the state after the last command, hex; checked on load.
    pub state_hash: Option<String>,
}

/// A take-back recorded in the log: after the first `kept` commands, `undone` later ones were
/// taken back by `by`, and (with a `salt`) the dice stream was moved on so that the dice that
/// follow are new.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakeBack {
    pub kept: usize,
    pub undone: usize,
    pub by: Seat,
    /// The dice are re-drawn with this salt; `None` keeps them (solo "same dice" practice).
    pub salt: Option<u64>,
}

/// Why a save could not be loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SaveError {
    #[error("{0}")]
    Load(#[from] crate::LoadError),
    #[error("{file}: this program reads save format {SAVE_FORMAT}, the file says {found}")]
    Format { file: String, found: u32 },
    #[error("{file}: the save is for the ruleset \"{found}\", not \"{expected}\"")]
    Ruleset {
        file: String,
        found: String,
        expected: String,
    },
    #[error("{file}: the battle cannot be set up: {why}")]
    Setup { file: String, why: String },
    #[error("{file}: {why}")]
    Invalid { file: String, why: String },
    #[error("{file}: command #{index} ({command}) is illegal at that point: {error}")]
    IllegalCommand {
        file: String,
        index: usize,
        command: String,
        error: RuleError,
    },
    #[error("{file}: replaying the commands gives state {found}, but the save says {expected}")]
    HashMismatch {
        file: String,
        expected: String,
        found: String,
    },
}

/// One command of the log, who gave it and what came of it.
#[derive(Debug)]
pub struct Entry<R: Ruleset> {
    pub command: R::Command,
    /// The seat that decided it (`None` for a command given when nobody was asked).
    pub by: Option<Seat>,
    pub events: Vec<R::Event>,
    /// Something came of it that nobody could know before: a die, a secret turned up.
    pub revealed: bool,
    /// After it, another seat must decide: the screen changed hands.
    pub handed_over: bool,
}

impl<R: Ruleset> Clone for Entry<R> {
    fn clone(&self) -> Self {
        Self {
            command: self.command.clone(),
            by: self.by,
            events: self.events.clone(),
            revealed: self.revealed,
            handed_over: self.handed_over,
        }
    }
}

/// What taking back would mean for a seat now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TakeBackKind {
    /// Nothing of this seat's to take back.
    Nothing,
    /// Its own last command, which showed nothing new: free, and exact.
    Free,
    /// Back to before its last command, `commands` in all: needs the other side's consent and
    /// re-draws the dice.
    NeedsConsent { commands: usize },
}

pub struct Session<R: Ruleset> {
    setup: R::Setup,
    seed: u64,
    initial: R::State,
    state: R::State,
    log: Vec<Entry<R>>,
    take_backs: Vec<TakeBack>,
    /// Take-backs made and then themselves taken back (they re-drew dice in a timeline that no
    /// longer exists); counted, not replayed.
    forgotten_take_backs: usize,
    redo: Vec<R::Command>,
}

impl<R: Ruleset> Clone for Session<R> {
    fn clone(&self) -> Self {
        Self {
            setup: self.setup.clone(),
            seed: self.seed,
            initial: self.initial.clone(),
            state: self.state.clone(),
            log: self.log.clone(),
            take_backs: self.take_backs.clone(),
            forgotten_take_backs: self.forgotten_take_backs,
            redo: self.redo.clone(),
        }
    }
}

impl<R: Ruleset> Session<R> {
    pub fn new(setup: R::Setup, seed: u64) -> Result<Self, String> {
        let initial = R::setup(&setup, seed)?;
        Ok(Self {
            setup,
            seed,
            state: initial.clone(),
            initial,
            log: Vec::new(),
            take_backs: Vec::new(),
            forgotten_take_backs: 0,
            redo: Vec::new(),
        })
    }

    /// A session that starts where `position` stands, with new dice from `dice_seed`: for
    /// playing a position on many times (the odds from a save). Its log starts empty.
    pub fn from_position(setup: R::Setup, dice_seed: u64, position: &R::State) -> Self {
        let mut initial = position.clone();
        *R::dice_mut(&mut initial) = crate::Dice::from_seed(dice_seed);
        Self {
            setup,
            seed: dice_seed,
            state: initial.clone(),
            initial,
            log: Vec::new(),
            take_backs: Vec::new(),
            forgotten_take_backs: 0,
            redo: Vec::new(),
        }
    }

    pub fn state(&self) -> &R::State {
        &self.state
    }
    pub fn setup(&self) -> &R::Setup {
        &self.setup
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The commands in force, oldest first.
    pub fn commands(&self) -> impl ExactSizeIterator<Item = &R::Command> {
        self.log.iter().map(|e| &e.command)
    }
    pub fn len(&self) -> usize {
        self.log.len()
    }
    pub fn is_empty(&self) -> bool {
        self.log.is_empty()
    }
    pub fn entries(&self) -> &[Entry<R>] {
        &self.log
    }
    /// Events of every command so far, one list per command.
    pub fn events(&self) -> impl Iterator<Item = &[R::Event]> {
        self.log.iter().map(|e| e.events.as_slice())
    }
    /// The take-backs that crossed something revealed, in order.
    pub fn take_backs(&self) -> &[TakeBack] {
        &self.take_backs
    }
    /// How many take-backs this battle has seen (the result screen counts them).
    pub fn take_back_count(&self) -> usize {
        // A remote battle's dice stirs are logged like take-backs of nothing: not counted.
        self.take_backs.iter().filter(|t| t.undone > 0).count() + self.forgotten_take_backs
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Executes a command; on success it joins the log and clears the redo list.
    pub fn submit(&mut self, cmd: R::Command) -> Result<&[R::Event], RuleError> {
        self.push(cmd)?;
        self.redo.clear();
        Ok(self.log.last().map(|e| e.events.as_slice()).unwrap_or(&[]))
    }

    fn push(&mut self, cmd: R::Command) -> Result<(), RuleError> {
        let by = R::deciding(&self.state);
        let dice_before = R::dice_mut(&mut self.state).position();
        let events = R::execute(&mut self.state, &cmd)?;
        // A die drawn is a die seen: whatever the ruleset's events say, it counts as revealed.
        let rolled = R::dice_mut(&mut self.state).position() != dice_before;
        let revealed = rolled || events.iter().any(R::reveals);
        let next = R::deciding(&self.state);
        self.log.push(Entry {
            command: cmd,
            by,
            events,
            revealed,
            handed_over: next != by,
        });
        Ok(())
    }

    /// What taking back would mean for `seat` now.
    pub fn take_back_kind(&self, seat: Seat) -> TakeBackKind {
        let Some(last_own) = self.log.iter().rposition(|e| e.by == Some(seat)) else {
            return TakeBackKind::Nothing;
        };
        let last = &self.log[last_own];
        if last_own + 1 == self.log.len() && !last.revealed && !last.handed_over {
            TakeBackKind::Free
        } else {
            TakeBackKind::NeedsConsent {
                commands: self.log.len() - last_own,
            }
        }
    }

    /// Takes back the last command when it is `seat`'s own and free to take back
    /// ([`TakeBackKind::Free`]): the state is exactly as before it, and [`Session::redo`] can
    /// put it back.
    pub fn undo(&mut self, seat: Seat) -> bool {
        if self.take_back_kind(seat) != TakeBackKind::Free {
            return false;
        }
        let Some(last) = self.log.pop() else {
            return false;
        };
        self.redo.push(last.command);
        self.replay_log();
        true
    }

    /// Re-applies the last command undone by [`Session::undo`].
    pub fn redo(&mut self) -> Result<bool, RuleError> {
        let Some(cmd) = self.redo.pop() else {
            return Ok(false);
        };
        self.push(cmd)?;
        Ok(true)
    }

    /// Takes back everything from `seat`'s last command on (the other side having consented, or
    /// the computer being the other side) and, with a `salt`, re-draws the dice that follow.
    /// The take-back is logged, so the log shows it and a replay reproduces it. Returns how
    /// many commands were taken back.
    pub fn take_back(&mut self, seat: Seat, salt: Option<u64>) -> usize {
        let Some(last_own) = self.log.iter().rposition(|e| e.by == Some(seat)) else {
            return 0;
        };
        self.take_back_to(last_own, seat, salt)
    }

    /// Takes back every command after the first `kept`, for `seat` (a lesson's "Back one step",
    /// a detour taken back), logged as [`Session::take_back`] does. Returns how many commands
    /// were taken back.
    pub fn take_back_to(&mut self, kept: usize, seat: Seat, salt: Option<u64>) -> usize {
        if kept >= self.log.len() {
            return 0;
        }
        let undone = self.log.len() - kept;
        self.log.truncate(kept);
        self.redo.clear();
        // Take-backs inside the part taken back belonged to a timeline that is gone.
        let before = self.take_backs.len();
        self.take_backs.retain(|t| t.kept <= kept);
        self.forgotten_take_backs += before - self.take_backs.len();
        self.take_backs.push(TakeBack {
            kept,
            undone,
            by: seat,
            salt,
        });
        self.replay_log();
        undone
    }

    /// Stirs the dice before the next command (remote play: each turn file's dice are stirred
    /// with a salt neither side chose alone, `docs/remote.md`). Logged like a take-back of
    /// nothing, so a replay stirs them at the same point.
    pub fn stir(&mut self, by: Seat, salt: u64) {
        self.take_backs.push(TakeBack {
            kept: self.log.len(),
            undone: 0,
            by,
            salt: Some(salt),
        });
        R::dice_mut(&mut self.state).redraw(salt);
    }

    /// Did any command after the first `kept` show something nobody could know before (a die,
    /// a secret)? Taking them back must then re-draw the dice.
    pub fn revealed_since(&self, kept: usize) -> bool {
        self.log.iter().skip(kept).any(|e| e.revealed)
    }

    /// Forgets the commands [`Session::undo`] kept for redoing.
    pub fn forget_redo(&mut self) {
        self.redo.clear();
    }

    /// Re-runs the log from the opening position, moving the dice on where take-backs did.
    fn replay_log(&mut self) {
        let commands: Vec<R::Command> = self.log.drain(..).map(|e| e.command).collect();
        self.state = self.initial.clone();
        self.apply_take_backs_at(0);
        for (i, cmd) in commands.into_iter().enumerate() {
            // Every logged command was legal when it was made, and replay is deterministic.
            if self.push(cmd).is_err() {
                break;
            }
            self.apply_take_backs_at(i + 1);
        }
    }

    /// Re-draws the dice for every take-back recorded after the first `kept` commands.
    fn apply_take_backs_at(&mut self, kept: usize) {
        for t in self.take_backs.iter().filter(|t| t.kept == kept) {
            if let Some(salt) = t.salt {
                R::dice_mut(&mut self.state).redraw(salt);
            }
        }
    }

    /// Hash of the current state (hex), proving two replays identical.
    pub fn hash(&self) -> String {
        state_hash(&self.state)
    }

    pub fn to_save(&self) -> SaveFile<R::Setup, R::Command> {
        SaveFile {
            format: SAVE_FORMAT,
            ruleset: R::ID.to_string(),
            seed: self.seed,
            setup: self.setup.clone(),
            commands: self.commands().cloned().collect(),
            take_backs: self.take_backs.clone(),
            state_hash: Some(self.hash()),
        }
    }

    /// Writes the save atomically (temporary file, then rename).
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        let text = data_file::to_ron_pretty(&self.to_save())?;
        data_file::write_atomic(path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Rebuilds a session from a save, checking every command, every take-back and the final
    /// hash.
    pub fn from_save(save: SaveFile<R::Setup, R::Command>, file: &str) -> Result<Self, SaveError> {
        if save.format != SAVE_FORMAT {
            return Err(SaveError::Format {
                file: file.into(),
                found: save.format,
            });
        }
        if save.ruleset != R::ID {
            return Err(SaveError::Ruleset {
                file: file.into(),
                found: save.ruleset,
                expected: R::ID.into(),
            });
        }
        if save.commands.len() > MAX_SAVED_COMMANDS {
            return Err(SaveError::Invalid {
                file: file.into(),
                why: format!(
                    "{} commands; the limit is {MAX_SAVED_COMMANDS}",
                    save.commands.len()
                ),
            });
        }
        let mut previous = 0;
        for (i, t) in save.take_backs.iter().enumerate() {
            if t.kept < previous || t.kept > save.commands.len() || t.by > 1 {
                return Err(SaveError::Invalid {
                    file: file.into(),
                    why: format!(
                        "take-back #{} (after command {}) is out of order or out of range",
                        i + 1,
                        t.kept
                    ),
                });
            }
            previous = t.kept;
        }
        let mut s = Session::<R>::new(save.setup, save.seed).map_err(|why| SaveError::Setup {
            file: file.into(),
            why,
        })?;
        s.take_backs = save.take_backs;
        s.apply_take_backs_at(0);
        for (i, cmd) in save.commands.into_iter().enumerate() {
            // Worded only when refused: a replay runs thousands of commands.
            if let Err(error) = s.push(cmd.clone()) {
                return Err(SaveError::IllegalCommand {
                    file: file.into(),
                    index: i + 1,
                    command: format!("{cmd:?}"),
                    error,
                });
            }
            s.apply_take_backs_at(i + 1);
        }
        if let Some(expected) = save.state_hash {
            let found = s.hash();
            if found != expected {
                return Err(SaveError::HashMismatch {
                    file: file.into(),
                    expected,
                    found,
                });
            }
        }
        Ok(s)
    }

    /// Reads and replays a save file.
    pub fn load(path: &Path) -> Result<Self, SaveError> {
        let save: SaveFile<R::Setup, R::Command> = data_file::read_ron(path)?;
        Self::from_save(save, &path.display().to_string())
    }
}

/// SHA-256 of the state's compact binary form, as 16 hex digits.
pub fn state_hash<T: Serialize>(state: &T) -> String {
    let bytes = postcard::to_allocvec(state).unwrap_or_default();
    let digest = Sha256::digest(&bytes);
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}
