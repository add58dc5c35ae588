//! One side of a remote battle behind one handle, for the app: the battle as this side knows it
//! (a game of the engine's `AnyGame`, which the screens draw like any other), the commands it
//! plays, its files in and out.

use crate::error::RemoteError;
use crate::peer::{Peer, Private};
use sandtable_engine::dynamic::TypedGame;
use sandtable_engine::files::Files;
use sandtable_engine::{AnyCommand, AnyGame, Present, RuleError, Ruleset, Seat, Teach};

pub trait AnyRemote: Send + Sync {
    fn ruleset(&self) -> &'static str;
    /// The seat this side plays.
    fn seat(&self) -> Seat;
    /// The battle as this side knows it (the other side's unopened secrets as their stand-ins;
    /// every screen starts from this side's view of it). `None` until the seed is known.
    fn game(&self) -> Option<Box<dyn AnyGame>>;
    /// The battle's opening position (dice not yet known), to show before the seed is.
    fn opening(&self) -> Box<dyn AnyGame>;
    /// Plays one of this side's commands.
    fn play(&mut self, cmd: &AnyCommand) -> Result<(), RuleError>;
    /// Takes back this side's last command of the file it is writing, when free.
    fn undo(&mut self) -> bool;
    fn can_undo(&self) -> bool;
    /// Both players' public keys, by seat.
    fn players(&self) -> [String; 2];
    fn to_play(&self) -> bool;
    fn to_write(&self) -> bool;
    fn done(&self) -> bool;
    /// Writes the next file.
    fn write(&mut self) -> Result<Vec<u8>, RemoteError>;
    /// Reads the other side's next file.
    fn receive(&mut self, name: &str, bytes: &[u8]) -> Result<(), RemoteError>;
    fn file_count(&self) -> usize;
    fn private(&self) -> Private;
    /// What this side waits for, in words.
    fn waiting(&self) -> String;
    /// Hash of what both seats may see, when the replay has caught up.
    fn public_hash(&self) -> Option<String>;
}

pub(crate) struct RemoteGame<R: Ruleset + Present + Teach + Files> {
    pub peer: Peer<R>,
}

impl<R: Ruleset + Present + Teach + Files> AnyRemote for RemoteGame<R> {
    fn ruleset(&self) -> &'static str {
        R::ID
    }

    fn seat(&self) -> Seat {
        self.peer.seat()
    }

    fn game(&self) -> Option<Box<dyn AnyGame>> {
        let session = self.peer.ledger().session()?.clone();
        let info = R::scenario(self.peer.ledger().setup()).info();
        Some(Box::new(TypedGame::new(session, info)))
    }

    fn opening(&self) -> Box<dyn AnyGame> {
        let setup = self.peer.ledger().setup().clone();
        let info = R::scenario(&setup).info();
        // Checked when the Start was read: the battle sets up.
        let session = sandtable_engine::Session::<R>::new(setup, 0).expect("the battle sets up");
        Box::new(TypedGame::new(session, info))
    }

    fn play(&mut self, cmd: &AnyCommand) -> Result<(), RuleError> {
        let typed = cmd
            .downcast::<R::Command>()
            .ok_or_else(|| RuleError::new("REMOTE", "A command of another ruleset."))?;
        self.peer.play(typed.clone())
    }

    fn undo(&mut self) -> bool {
        self.peer.undo()
    }

    fn can_undo(&self) -> bool {
        self.peer.can_undo()
    }

    fn players(&self) -> [String; 2] {
        self.peer.ledger().players().clone()
    }

    fn to_play(&self) -> bool {
        self.peer.to_play()
    }

    fn to_write(&self) -> bool {
        self.peer.to_write()
    }

    fn done(&self) -> bool {
        self.peer.done()
    }

    fn write(&mut self) -> Result<Vec<u8>, RemoteError> {
        self.peer.write()
    }

    fn receive(&mut self, name: &str, bytes: &[u8]) -> Result<(), RemoteError> {
        self.peer.receive(name, bytes)
    }

    fn file_count(&self) -> usize {
        self.peer.file_count()
    }

    fn private(&self) -> Private {
        self.peer.private()
    }

    fn waiting(&self) -> String {
        self.peer.waiting()
    }

    fn public_hash(&self) -> Option<String> {
        self.peer.ledger().public_hash()
    }
}
