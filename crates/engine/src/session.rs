//! A game in progress as its command log: submit, undo and redo by replay, save and load.
//!
//! A save is RON: a format version, the ruleset, the seed, the setup (scenario and army lists)
//! and the commands, plus the state hash at the end. Loading replays the commands; each must be
//! legal at its point, and the replayed hash must match the saved one.

use crate::data_file;
use crate::ruleset::{RuleError, Ruleset};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;

/// Current save format.
pub const SAVE_FORMAT: u32 = 1;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename = "Save")]
pub struct SaveFile<S, C> {
    pub format: u32,
    pub ruleset: String,
    pub seed: u64,
    pub setup: S,
    pub commands: Vec<C>,
    /// Hash of the state after the last command, hex; checked on load.
    pub state_hash: Option<String>,
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

pub struct Session<R: Ruleset> {
    setup: R::Setup,
    seed: u64,
    initial: R::State,
    state: R::State,
    log: Vec<R::Command>,
    events: Vec<Vec<R::Event>>,
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
            events: self.events.clone(),
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
            events: Vec::new(),
            redo: Vec::new(),
        })
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
    pub fn commands(&self) -> &[R::Command] {
        &self.log
    }
    /// Events of every command so far, one list per command.
    pub fn events(&self) -> &[Vec<R::Event>] {
        &self.events
    }
    pub fn can_undo(&self) -> bool {
        !self.log.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Executes a command; on success it joins the log and clears the redo list.
    pub fn submit(&mut self, cmd: R::Command) -> Result<&[R::Event], RuleError> {
        let events = R::execute(&mut self.state, &cmd)?;
        self.log.push(cmd);
        self.events.push(events);
        self.redo.clear();
        Ok(self.events.last().map(Vec::as_slice).unwrap_or(&[]))
    }

    /// Takes back the last command by replaying all the others from the start, so the result is
    /// exactly the state before it (dice included).
    pub fn undo(&mut self) -> bool {
        let Some(last) = self.log.pop() else {
            return false;
        };
        self.redo.push(last);
        self.events.pop();
        self.replay_log();
        true
    }

    /// Re-applies the last undone command.
    pub fn redo(&mut self) -> Result<bool, RuleError> {
        let Some(cmd) = self.redo.pop() else {
            return Ok(false);
        };
        let events = R::execute(&mut self.state, &cmd)?;
        self.log.push(cmd);
        self.events.push(events);
        Ok(true)
    }

    fn replay_log(&mut self) {
        let mut state = self.initial.clone();
        let mut events = Vec::with_capacity(self.log.len());
        for cmd in &self.log {
            // Every logged command was legal when it was made, and replay is deterministic.
            events.push(R::execute(&mut state, cmd).unwrap_or_default());
        }
        self.state = state;
        self.events = events;
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
            commands: self.log.clone(),
            state_hash: Some(self.hash()),
        }
    }

    /// Writes the save atomically (temporary file, then rename).
    pub fn save_to(&self, path: &Path) -> Result<(), String> {
        let text = data_file::to_ron_pretty(&self.to_save())?;
        data_file::write_atomic(path, &text)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Rebuilds a session from a save, checking every command and the final hash.
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
        let mut s = Session::<R>::new(save.setup, save.seed).map_err(|why| SaveError::Setup {
            file: file.into(),
            why,
        })?;
        for (i, cmd) in save.commands.into_iter().enumerate() {
            let shown = format!("{cmd:?}");
            if let Err(error) = s.submit(cmd) {
                return Err(SaveError::IllegalCommand {
                    file: file.into(),
                    index: i + 1,
                    command: shown,
                    error,
                });
            }
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
