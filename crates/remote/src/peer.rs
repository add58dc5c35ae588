//! One side of a remote battle: its identity, its ledger of the chain, and the secrets it keeps
//! until the rules turn them up.
//!
//! The flow, by email or live: the starter writes the Start ([`Peer::start`]); the other side
//! answers with its Accept ([`Peer::accept`]); from then on each side, on receiving a file
//! ([`Peer::receive`]), plays its commands while it decides ([`Peer::play`]) and then writes the
//! next file ([`Peer::write`]), until the battle is over and every secret is open.
//!
//! Every nonce and salt a side uses derives from one private master secret and its place in the
//! chain ([`Peer::nonce_for`]), so a side restored after a crash reveals exactly the nonce it
//! committed to, whatever moment the crash came.

use crate::digest::{Entropy, bytes32, commit_nonce, commit_secret, hash_parts};
use crate::error::RemoteError;
use crate::identity::Identity;
use crate::ledger::Ledger;
use crate::turn_file::{self, Body, Item, Kind, Opening, Parsed};
use crate::verify::NamedFile;
use sandtable_engine::{RuleError, Ruleset, Seat};
use serde::{Deserialize, Serialize};

/// What a side keeps to go on after a restart and never sends: its master secret and the
/// contents of its sealed commands.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename = "Private")]
pub struct Private {
    pub seat: Seat,
    pub master: String,
    pub secrets: Vec<Opening>,
    /// The commands played since the last file sent (RON), played again on restore: quitting
    /// and coming back never draws a turn's dice anew.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draft: Vec<String>,
}

pub struct Peer<R: Ruleset> {
    seat: Seat,
    identity: Identity,
    ledger: Ledger<R>,
    /// Whence every nonce and salt of this side's derives.
    master: [u8; 32],
    /// Openings already sent.
    sent: Vec<usize>,
    /// Is this side writing the next file (it has received the last one)?
    writing: bool,
}

impl<R: Ruleset> Peer<R> {
    /// Starts a battle of `setup` for `seat`, against the player whose public key is
    /// `opponent`. Returns the side and its Start file.
    pub fn start(
        identity: Identity,
        seat: Seat,
        setup: R::Setup,
        opponent: &str,
        mut entropy: Entropy,
    ) -> Result<(Self, Vec<u8>), RemoteError> {
        if seat > 1 {
            return Err(RemoteError::new("Start", "the seat must be 0 or 1"));
        }
        let master = entropy.draw();
        let mut players = [String::new(), String::new()];
        players[seat as usize] = identity.public_hex();
        players[1 - seat as usize] = opponent.to_string();
        let body: Body<R::Setup, R::Command> = Body {
            ruleset: R::ID.into(),
            index: 0,
            by: seat,
            prev: None,
            kind: Kind::Start { setup, players },
            nonce: None,
            // The starter's share of the seed, revealed in its first turn file (#2).
            commit: commit_nonce(&Self::derive(&master, b"nonce", 2)),
            openings: vec![],
            commands: vec![],
            public_hash: None,
        };
        let bytes = turn_file::write(&body, &identity).map_err(|e| RemoteError::new("Start", e))?;
        let parsed = turn_file::parse("Start", &bytes)?;
        let ledger = Ledger::from_start(&parsed, "turn file #0")?;
        Ok((
            Self {
                seat,
                identity,
                ledger,
                master,
                sent: vec![],
                writing: false,
            },
            bytes,
        ))
    }

    /// Accepts a Start naming this identity: returns the side and its Accept file.
    pub fn accept(
        identity: Identity,
        name: &str,
        start: &[u8],
        mut entropy: Entropy,
    ) -> Result<(Self, Vec<u8>), RemoteError> {
        let parsed: Parsed<R::Setup, R::Command> = turn_file::parse(name, start)?;
        let ledger = Ledger::from_start(&parsed, name)?;
        let seat = 1 - parsed.body.by;
        if ledger.players()[seat as usize] != identity.public_hex() {
            return Err(RemoteError::new(
                name,
                "this battle was offered to another player (its key is not yours)",
            ));
        }
        let mut peer = Self {
            seat,
            identity,
            ledger,
            master: entropy.draw(),
            sent: vec![],
            writing: true,
        };
        let share = peer.nonce_for(1);
        let body: Body<R::Setup, R::Command> = Body {
            ruleset: R::ID.into(),
            index: 1,
            by: seat,
            prev: Some(parsed.hash.clone()),
            kind: Kind::Accept,
            nonce: Some(hex::encode(share)),
            commit: commit_nonce(&peer.nonce_for(3)),
            openings: vec![],
            commands: vec![],
            public_hash: None,
        };
        let name = "turn file #1";
        let bytes =
            turn_file::write(&body, &peer.identity).map_err(|e| RemoteError::new(name, e))?;
        peer.ledger.begin_own(seat, None, false);
        peer.ledger
            .end_own(name.to_string(), crate::digest::file_hash(&bytes));
        peer.ledger.shares[1] = Some(share);
        peer.ledger.commits[seat as usize] = Some(body.commit.clone());
        peer.writing = false;
        Ok((peer, bytes))
    }

    fn derive(master: &[u8; 32], what: &[u8], index: usize) -> [u8; 32] {
        hash_parts(&[
            b"sandtable-derive",
            master,
            what,
            &(index as u64).to_le_bytes(),
        ])
    }

    /// The nonce this side reveals in file `index` of the chain (and commits to two files
    /// before).
    fn nonce_for(&self, index: usize) -> [u8; 32] {
        Self::derive(&self.master, b"nonce", index)
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }

    pub fn ledger(&self) -> &Ledger<R> {
        &self.ledger
    }

    /// The battle as this side may see it, once it has started.
    pub fn view(&self) -> Option<R::State> {
        self.ledger.state().map(|s| R::view(s, self.seat))
    }

    /// Files in the chain so far.
    pub fn file_count(&self) -> usize {
        self.ledger.file_count()
    }

    /// Reads the other side's next file; this side then writes the next one.
    pub fn receive(&mut self, name: &str, bytes: &[u8]) -> Result<(), RemoteError> {
        if self.writing {
            return Err(RemoteError::new(
                name,
                "out of turn: this side has not yet sent its own file",
            ));
        }
        let parsed: Parsed<R::Setup, R::Command> = turn_file::parse(name, bytes)?;
        self.ledger.receive(&parsed, name)?;
        self.begin_writing()
    }

    fn begin_writing(&mut self) -> Result<(), RemoteError> {
        self.writing = true;
        let index = self.ledger.file_count();
        let turn = index >= 2;
        self.ledger
            .begin_own(self.seat, Some(self.nonce_for(index)), turn);
        self.ledger.run()
    }

    /// May this side play a command now?
    pub fn to_play(&self) -> bool {
        self.writing && self.ledger.deciding() == Some(self.seat)
    }

    /// Must this side write a file now (it has received the last one, and either cannot play on
    /// or the battle needs the file to finish)?
    pub fn to_write(&self) -> bool {
        self.writing && !self.to_play() && !(self.ledger.finished() && self.nothing_to_say())
    }

    /// Is the battle over for this side, every secret open and nothing left to send?
    pub fn done(&self) -> bool {
        self.ledger.finished() && (!self.writing || self.nothing_to_say())
    }

    fn nothing_to_say(&self) -> bool {
        self.ledger.own_items().is_empty()
            && self.ledger.due_openings(self.seat, &self.sent).is_empty()
    }

    /// Plays a command of this side's, sealing it when the rules keep it secret.
    pub fn play(&mut self, cmd: R::Command) -> Result<(), RuleError> {
        if !self.to_play() {
            return Err(RuleError::new(
                "REMOTE",
                "It is not this side's turn to decide.",
            ));
        }
        let state = self.ledger.state().expect("caught up");
        R::legal(state, &cmd)?;
        let (item, opening) = match R::secret(state, &cmd) {
            Some(secret) => {
                let salt = Self::derive(&self.master, b"salt", self.ledger.len());
                let text = ron::to_string(&cmd)
                    .map_err(|e| RuleError::new("REMOTE", format!("cannot write: {e}")))?;
                let commitment = commit_secret(&secret.keys, &salt, &text);
                (
                    Item::Sealed {
                        keys: secret.keys,
                        commitment,
                        stand_in: secret.stand_in,
                    },
                    Some((hex::encode(salt), text)),
                )
            }
            None => (Item::Plain(cmd.clone()), None),
        };
        if let Err(e) = self.ledger.push_own(item, self.seat, cmd, opening) {
            self.ledger.pop_unplayed();
            return Err(RuleError::new("REMOTE", e.to_string()));
        }
        Ok(())
    }

    /// Takes back this side's last command of the file it is writing, when nothing came of it
    /// that it could not have known (`Session::take_back_kind` says Free).
    pub fn undo(&mut self) -> bool {
        self.writing && self.ledger.undo_own(self.seat).unwrap_or(false)
    }

    /// Would [`Peer::undo`] take a command back now?
    pub fn can_undo(&self) -> bool {
        self.writing && self.ledger.can_undo_own(self.seat)
    }

    /// What this side is waiting for, in words.
    pub fn waiting(&self) -> String {
        if self.done() {
            return "The battle is over and every secret is open.".into();
        }
        if let Some(b) = self.ledger.blocked() {
            return format!(
                "Waiting for the other side to open {} secret(s) that command #{} turns up.",
                b.waiting_for.len(),
                b.at + 1
            );
        }
        if self.ledger.state().is_none() {
            return "Waiting for the other side's first file (its share of the dice seed).".into();
        }
        if self.to_play() {
            return "Your decision.".into();
        }
        if self.to_write() {
            return format!("Send turn file #{} to the other side.", self.file_count());
        }
        format!(
            "Waiting for the other side's turn file #{}.",
            self.file_count()
        )
    }

    /// Writes this side's next file: the nonce it committed to, the commitment to its next, the
    /// openings the rules have made due, its commands and the public hash.
    pub fn write(&mut self) -> Result<Vec<u8>, RemoteError> {
        let index = self.ledger.file_count();
        let name = format!("turn file #{index}");
        if !self.writing {
            return Err(RemoteError::new(
                name,
                "this side has already sent its file",
            ));
        }
        let openings = self.ledger.due_openings(self.seat, &self.sent);
        let body: Body<R::Setup, R::Command> = Body {
            ruleset: R::ID.into(),
            index,
            by: self.seat,
            prev: self.ledger.last_hash().map(str::to_string),
            kind: Kind::Turn,
            nonce: Some(hex::encode(self.nonce_for(index))),
            commit: commit_nonce(&self.nonce_for(index + 2)),
            openings: openings.clone(),
            commands: self.ledger.own_items(),
            public_hash: self.ledger.public_hash(),
        };
        let bytes =
            turn_file::write(&body, &self.identity).map_err(|e| RemoteError::new(&name, e))?;
        self.ledger.end_own(name, crate::digest::file_hash(&bytes));
        self.ledger.commits[self.seat as usize] = Some(body.commit.clone());
        self.sent.extend(openings.iter().map(|o| o.item));
        for o in &openings {
            self.ledger.entries[o.item].opened_in_file = true;
        }
        self.writing = false;
        Ok(bytes)
    }

    /// What this side keeps to itself, for [`Peer::restore`]: its master secret and the
    /// contents of every sealed command it has played (those not yet sent are played again
    /// after a restart, and their contents are then ignored).
    pub fn private(&self) -> Private {
        let first = self
            .ledger
            .files
            .last()
            .filter(|f| f.hash.is_none())
            .map_or(self.ledger.entries.len(), |f| f.first);
        Private {
            seat: self.seat,
            draft: self.ledger.entries[first..]
                .iter()
                .filter(|e| e.by == self.seat)
                .filter_map(|e| e.truth.as_ref().and_then(|c| ron::to_string(c).ok()))
                .collect(),
            master: hex::encode(self.master),
            secrets: self
                .ledger
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.by == self.seat)
                .filter_map(|(i, e)| {
                    let (salt, command) = e.opening.clone()?;
                    Some(Opening {
                        item: i,
                        salt,
                        command,
                    })
                })
                .collect(),
        }
    }

    /// A side again from the chain's files (its own and the other's, in order) and its private
    /// store, as it stood after the last file.
    pub fn restore(
        identity: Identity,
        files: &[NamedFile],
        private: Private,
    ) -> Result<Self, RemoteError> {
        let Some((name, bytes)) = files.first() else {
            return Err(RemoteError::new("(no files)", "nothing to restore"));
        };
        let start: Parsed<R::Setup, R::Command> = turn_file::parse(name, bytes)?;
        let mut ledger = Ledger::<R>::from_start(&start, name)?;
        if private.seat > 1 || ledger.players()[private.seat as usize] != identity.public_hex() {
            return Err(RemoteError::new(name, "this battle is not this identity's"));
        }
        let mut sent = Vec::new();
        for (name, bytes) in &files[1..] {
            let parsed: Parsed<R::Setup, R::Command> = turn_file::parse(name, bytes)?;
            if parsed.body.by == private.seat {
                sent.extend(parsed.body.openings.iter().map(|o| o.item));
            }
            ledger.receive(&parsed, name)?;
        }
        let kept = ledger.len();
        for o in private.secrets.iter().filter(|o| o.item < kept) {
            ledger.know(o)?;
        }
        ledger.rebuild()?;
        let master = bytes32(&private.master).ok_or_else(|| {
            RemoteError::new(
                "the private store",
                "its master secret is not 64 hex digits",
            )
        })?;
        let mut peer = Self {
            seat: private.seat,
            identity,
            ledger,
            master,
            sent,
            writing: false,
        };
        if peer.ledger.files.last().map(|f| f.by) != Some(private.seat) {
            peer.begin_writing()?;
            // The commands played before the restart, played again: their dice are the same.
            for text in &private.draft {
                let cmd: R::Command = ron::from_str(text).map_err(|e| {
                    RemoteError::new(
                        "the private store",
                        format!("a kept command does not read: {}", e.code),
                    )
                })?;
                if peer.play(cmd).is_err() {
                    break;
                }
            }
        }
        Ok(peer)
    }
}
