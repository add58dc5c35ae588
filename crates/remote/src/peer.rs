//! One side of a remote battle: its identity, its ledger of the chain, the secrets it keeps
//! until the rules turn them up, and the nonces it has committed to.
//!
//! The flow, by email or live: the starter writes the Start ([`Peer::start`]); the other side
//! answers with its Accept ([`Peer::accept`]); from then on each side, on receiving a file
//! ([`Peer::receive`]), plays its commands while it decides ([`Peer::play`]) and then writes the
//! next file ([`Peer::write`]), until the battle is over and every secret is open.

use crate::digest::{Entropy, bytes32, commit_nonce, commit_secret};
use crate::error::RemoteError;
use crate::identity::Identity;
use crate::ledger::Ledger;
use crate::turn_file::{self, Body, Item, Kind, Parsed};
use sandtable_engine::{RuleError, Ruleset, Seat};

pub struct Peer<R: Ruleset> {
    seat: Seat,
    identity: Identity,
    ledger: Ledger<R>,
    /// The nonce this side committed to in its last file, revealed in its next.
    nonce: [u8; 32],
    /// Openings already sent.
    sent: Vec<usize>,
    /// Is this side writing the next file (it has received the last one)?
    writing: bool,
    entropy: Entropy,
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
        let nonce = entropy.draw();
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
            commit: commit_nonce(&nonce),
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
                nonce,
                sent: vec![],
                writing: false,
                entropy,
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
        let share = entropy.draw();
        let mut peer = Self {
            seat,
            identity,
            ledger,
            nonce: entropy.draw(),
            sent: vec![],
            writing: true,
            entropy,
        };
        let body: Body<R::Setup, R::Command> = Body {
            ruleset: R::ID.into(),
            index: 1,
            by: seat,
            prev: Some(parsed.hash.clone()),
            kind: Kind::Accept,
            nonce: Some(hex::encode(share)),
            commit: commit_nonce(&peer.nonce),
            openings: vec![],
            commands: vec![],
            public_hash: None,
        };
        let bytes = peer.sign_and_add(body, "turn file #1")?;
        Ok((peer, bytes))
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
        self.writing = true;
        let turn = self.ledger.file_count() >= 2;
        self.ledger.begin_own(self.seat, Some(self.nonce), turn);
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
                let salt = self.entropy.draw();
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

    /// Writes this side's next file: the nonce it committed to, a new commitment, the openings
    /// the rules have made due, its commands and the public hash.
    pub fn write(&mut self) -> Result<Vec<u8>, RemoteError> {
        let name = format!("turn file #{}", self.ledger.file_count());
        if !self.writing {
            return Err(RemoteError::new(
                name,
                "this side has already sent its file",
            ));
        }
        let openings = self.ledger.due_openings(self.seat, &self.sent);
        let next = self.entropy.draw();
        let body: Body<R::Setup, R::Command> = Body {
            ruleset: R::ID.into(),
            index: self.ledger.file_count(),
            by: self.seat,
            prev: self.ledger.last_hash().map(str::to_string),
            kind: Kind::Turn,
            nonce: Some(hex::encode(self.nonce)),
            commit: commit_nonce(&next),
            openings: openings.clone(),
            commands: self.ledger.own_items(),
            public_hash: self.ledger.public_hash(),
        };
        let bytes =
            turn_file::write(&body, &self.identity).map_err(|e| RemoteError::new(&name, e))?;
        self.ledger.end_own(name, crate::digest::file_hash(&bytes));
        self.ledger.commits[self.seat as usize] = Some(body.commit.clone());
        self.sent.extend(openings.iter().map(|o| o.item));
        self.nonce = next;
        self.writing = false;
        Ok(bytes)
    }

    /// Signs an Accept and adds it to the ledger as sent.
    fn sign_and_add(
        &mut self,
        body: Body<R::Setup, R::Command>,
        name: &str,
    ) -> Result<Vec<u8>, RemoteError> {
        let bytes =
            turn_file::write(&body, &self.identity).map_err(|e| RemoteError::new(name, e))?;
        let share = body
            .nonce
            .as_deref()
            .and_then(bytes32)
            .expect("written above");
        self.ledger.begin_own(self.seat, None, false);
        self.ledger
            .end_own(name.to_string(), crate::digest::file_hash(&bytes));
        self.ledger.shares[1] = Some(share);
        self.ledger.commits[self.seat as usize] = Some(body.commit.clone());
        self.writing = false;
        Ok(bytes)
    }
}
