//! The chain of turn files as one side knows it, replayed into a state.
//!
//! Every file's commands join one log. A side knows the whole of its own commands and of the
//! other's plain ones; for the other side's sealed commands it knows only the commitment and the
//! stand-in, until an opening arrives. The replay executes what it knows and the stand-in for
//! the rest, stirring the dice at the start of each turn file ([`crate::digest::dice_salt`]).
//! When a command's events turn up a secret this side does not know, the replay stops there
//! ([`Ledger::blocked`]) until the owner's opening arrives: nothing the rules show is ever
//! computed from a stand-in. The verifier ([`crate::verify`]) is a ledger fed every file.

use crate::digest::{bytes32, commit_nonce, commit_secret, dice_salt, seed_from};
use crate::error::RemoteError;
use crate::turn_file::{Body, Item, Kind, Opening, Parsed};
use sandtable_engine::session::state_hash;
use sandtable_engine::{Ruleset, Seat, Session};

/// A file of the chain, as far as the replay needs it.
#[derive(Debug, Clone)]
pub(crate) struct FileRec {
    pub name: String,
    pub by: Seat,
    /// SHA-256 of its bytes; `None` for the file this side is still writing.
    pub hash: Option<String>,
    /// Index of its first command in the log.
    pub first: usize,
    /// The dice stir before its commands (turn files only).
    pub stir: Option<u64>,
    pub public_hash: Option<String>,
    pub hash_checked: bool,
}

/// One command of the log.
#[derive(Debug)]
pub(crate) struct Entry<R: Ruleset> {
    pub item: Item<R::Command>,
    pub by: Seat,
    pub file: usize,
    /// The command itself, where this side knows it: plain, its own, or opened.
    pub truth: Option<R::Command>,
    /// For a sealed command this side wrote or received the opening of: salt and RON text.
    pub opening: Option<(String, String)>,
    /// The command whose events turned this secret up, once the replay has met it.
    pub opened_at: Option<usize>,
    /// Its opening is in a file of the chain (received, or written by this side).
    pub opened_in_file: bool,
}

impl<R: Ruleset> Clone for Entry<R> {
    fn clone(&self) -> Self {
        Self {
            item: self.item.clone(),
            by: self.by,
            file: self.file,
            truth: self.truth.clone(),
            opening: self.opening.clone(),
            opened_at: self.opened_at,
            opened_in_file: self.opened_in_file,
        }
    }
}

/// The replay stopped on a secret it does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    /// The command whose events turn it up.
    pub at: usize,
    /// The sealed commands it waits for.
    pub waiting_for: Vec<usize>,
}

pub struct Ledger<R: Ruleset> {
    pub(crate) setup: R::Setup,
    pub(crate) players: [String; 2],
    /// Seat of the Start file's writer.
    pub(crate) starter: Seat,
    pub(crate) files: Vec<FileRec>,
    pub(crate) entries: Vec<Entry<R>>,
    /// Each seat's last nonce commitment, to check the next reveal against.
    pub(crate) commits: [Option<String>; 2],
    /// The seed's two shares: the starter's (revealed in its first turn file) and the other's.
    pub(crate) shares: [Option<[u8; 32]>; 2],
    /// The replay so far, as a session (its log is what the screen narrates).
    session: Option<Session<R>>,
    cursor: usize,
    entered: usize,
    blocked: Option<Blocked>,
    /// The replay as it stood on entering each file (before its stir): an opening replays from
    /// the file of the command it opens, not from the battle's start.
    checkpoints: Vec<Option<std::sync::Arc<Session<R>>>>,
}

impl<R: Ruleset> Clone for Ledger<R> {
    fn clone(&self) -> Self {
        Self {
            setup: self.setup.clone(),
            players: self.players.clone(),
            starter: self.starter,
            files: self.files.clone(),
            entries: self.entries.clone(),
            commits: self.commits.clone(),
            shares: self.shares,
            session: self.session.clone(),
            cursor: self.cursor,
            entered: self.entered,
            blocked: self.blocked.clone(),
            checkpoints: self.checkpoints.clone(),
        }
    }
}

impl<R: Ruleset> Ledger<R> {
    /// A ledger from the Start file, checked and signed by the seat it names.
    pub fn from_start(
        parsed: &Parsed<R::Setup, R::Command>,
        name: &str,
    ) -> Result<Self, RemoteError> {
        let b = &parsed.body;
        let err = |why: &str| RemoteError::new(name, why);
        let Kind::Start { setup, players } = &b.kind else {
            return Err(err("the first file of a battle must be its Start"));
        };
        if b.index != 0 || b.prev.is_some() {
            return Err(err("the Start must be file #0 of the chain"));
        }
        if b.ruleset != R::ID {
            return Err(err(&format!(
                "the battle is for the ruleset \"{}\"",
                b.ruleset
            )));
        }
        if b.by > 1 {
            return Err(err("the writer's seat must be 0 or 1"));
        }
        if !parsed.signed_by(&players[b.by as usize]) {
            return Err(err("bad signature: not signed by the player it names"));
        }
        if !b.commands.is_empty() || !b.openings.is_empty() || b.nonce.is_some() {
            return Err(err("the Start carries no commands, openings or nonce"));
        }
        // The battle must set up (with any seed) before anyone agrees to play it.
        let opening =
            R::setup(setup, 0).map_err(|e| err(&format!("the battle cannot be set up: {e}")))?;
        if let Some(why) = R::remote_refusal(&opening) {
            return Err(err(&why));
        }
        let mut commits: [Option<String>; 2] = [None, None];
        commits[b.by as usize] = Some(b.commit.clone());
        Ok(Self {
            setup: setup.clone(),
            players: players.clone(),
            starter: b.by,
            files: vec![FileRec {
                name: name.to_string(),
                by: b.by,
                hash: Some(parsed.hash.clone()),
                first: 0,
                stir: None,
                public_hash: None,
                hash_checked: true,
            }],
            entries: Vec::new(),
            commits,
            shares: [None, None],
            session: None,
            cursor: 0,
            entered: 1,
            blocked: None,
            checkpoints: Vec::new(),
        })
    }

    pub fn players(&self) -> &[String; 2] {
        &self.players
    }

    pub fn setup(&self) -> &R::Setup {
        &self.setup
    }

    /// The state as this side knows it (the other side's unopened secrets as their stand-ins),
    /// once both shares of the seed are known.
    pub fn state(&self) -> Option<&R::State> {
        self.session.as_ref().map(Session::state)
    }

    /// The replay as a session: what the screen shows and narrates.
    pub fn session(&self) -> Option<&Session<R>> {
        self.session.as_ref()
    }

    pub fn blocked(&self) -> Option<&Blocked> {
        self.blocked.as_ref()
    }

    /// Files in the chain (the one being written not counted).
    pub fn file_count(&self) -> usize {
        self.files.iter().filter(|f| f.hash.is_some()).count()
    }

    pub(crate) fn last_hash(&self) -> Option<&str> {
        self.files.iter().rev().find_map(|f| f.hash.as_deref())
    }

    /// Commands in the log.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Has the whole log been replayed, with nothing waiting?
    pub fn caught_up(&self) -> bool {
        self.session.is_some() && self.blocked.is_none() && self.cursor == self.entries.len()
    }

    /// The battle is over and every secret in the log is open.
    pub fn finished(&self) -> bool {
        self.over() && self.unopened().next().is_none()
    }

    /// The battle is over (the whole log replayed and nobody left to decide).
    pub fn over(&self) -> bool {
        self.caught_up() && self.state().is_some_and(|s| R::deciding(s).is_none())
    }

    /// Sealed commands whose content this side does not know.
    pub(crate) fn unopened(&self) -> impl Iterator<Item = usize> + '_ {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.item, Item::Sealed { .. }) && e.truth.is_none())
            .map(|(i, _)| i)
    }

    /// The seat that decides now, when the replay has caught up.
    pub fn deciding(&self) -> Option<Seat> {
        if !self.caught_up() {
            return None;
        }
        self.state().and_then(R::deciding)
    }

    /// Checks a received file's place in the chain and signature, and adds it: its openings,
    /// its commands, its nonce. Then replays as far as the knowledge goes, and checks that the
    /// file ends where a file must: at a hand-over. A file refused changes nothing.
    pub fn receive(
        &mut self,
        parsed: &Parsed<R::Setup, R::Command>,
        name: &str,
    ) -> Result<(), RemoteError> {
        let mut next = self.clone();
        next.take_in(parsed, name)?;
        next.check_hand_over(parsed.body.by, name)?;
        *self = next;
        Ok(())
    }

    /// A file must end where its writer can go no further:
    ///
    /// - the other seat decides, or nobody does;
    /// - or the writer's last command turned up a secret of the other seat's, which the other
    ///   must open before anyone can go on.
    ///
    /// And it must open every secret of its writer's that the rules have turned up by then.
    /// Otherwise a writer could hand over early to have its dice stirred anew, or hold back an
    /// opening to make the other side answer with an empty file (which stirs them too).
    fn check_hand_over(&self, writer: Seat, name: &str) -> Result<(), RemoteError> {
        let Some(state) = self.state() else {
            return Ok(());
        };
        if let Some(b) = &self.blocked {
            if b.waiting_for.iter().any(|&j| self.entries[j].by == writer) {
                return Err(RemoteError::new(
                    name,
                    "it holds back the opening of a secret of its writer's that the rules have turned up",
                )
                .at(b.at));
            }
            return Ok(());
        }
        if self.cursor < self.entries.len() || R::deciding(state) != Some(writer) {
            return Ok(());
        }
        let end = self.entries.len();
        let turned_up_mine = end > 0
            && self.entries.iter().any(|e| {
                e.by != writer
                    && matches!(e.item, Item::Sealed { .. })
                    && e.opened_at == Some(end - 1)
                    && !e.opened_in_file
            });
        if turned_up_mine {
            return Ok(());
        }
        Err(RemoteError::new(
            name,
            "it ends while its writer still decides: a file is sent only at a hand-over",
        ))
    }

    fn take_in(
        &mut self,
        parsed: &Parsed<R::Setup, R::Command>,
        name: &str,
    ) -> Result<(), RemoteError> {
        let b = &parsed.body;
        let err = |why: String| RemoteError::new(name, why);
        if b.ruleset != R::ID {
            return Err(err(format!(
                "the file is for the ruleset \"{}\"",
                b.ruleset
            )));
        }
        if b.by > 1 {
            return Err(err("the writer's seat must be 0 or 1".into()));
        }
        // A file changed in any byte fails here, before anything it says is believed.
        if !parsed.signed_by(&self.players[b.by as usize]) {
            return Err(err(format!(
                "bad signature: not signed by the player of seat {}",
                b.by
            )));
        }
        let expected = self.file_count();
        if b.index != expected {
            return Err(err(format!(
                "out of order: it is file #{} of its chain, file #{expected} was expected",
                b.index
            )));
        }
        if b.prev.as_deref() != self.last_hash() {
            return Err(err(format!(
                "broken chain: it does not follow file #{} (its previous-file hash differs)",
                expected - 1
            )));
        }
        let last_by = self.files.last().map(|f| f.by);
        if Some(b.by) == last_by {
            return Err(err("out of turn: the two players' files alternate".into()));
        }
        let nonce = b.nonce.as_deref().and_then(bytes32);
        match &b.kind {
            Kind::Start { .. } => return Err(err("a second Start in one chain".into())),
            Kind::Accept => {
                if expected != 1 || !b.commands.is_empty() || !b.openings.is_empty() {
                    return Err(err("an Accept is file #1 and carries no commands".into()));
                }
                let n = nonce.ok_or_else(|| err("the Accept must carry its nonce".into()))?;
                self.shares[1] = Some(n);
            }
            Kind::Turn => {
                if expected < 2 {
                    return Err(err("a turn file before the battle was accepted".into()));
                }
                let n = nonce.ok_or_else(|| err("a turn file must reveal its nonce".into()))?;
                if self.commits[b.by as usize].as_deref() != Some(commit_nonce(&n).as_str()) {
                    return Err(err(
                        "its nonce does not match the commitment of the writer's last file".into(),
                    ));
                }
            }
        }
        self.commits[b.by as usize] = Some(b.commit.clone());
        let file = self.files.len();
        let first = self.entries.len();
        let stir = match (&b.kind, nonce) {
            (Kind::Turn, Some(n)) => {
                let prev = b.prev.clone().unwrap_or_default();
                Some(self.stir_for(&prev, n, b.by))
            }
            _ => None,
        };
        self.files.push(FileRec {
            name: name.to_string(),
            by: b.by,
            hash: Some(parsed.hash.clone()),
            first,
            stir,
            public_hash: b.public_hash.clone(),
            hash_checked: false,
        });
        for item in &b.commands {
            let truth = match item {
                Item::Plain(c) => Some(c.clone()),
                Item::Sealed { .. } => None,
            };
            self.entries.push(Entry {
                item: item.clone(),
                by: b.by,
                file,
                truth,
                opening: None,
                opened_at: None,
                opened_in_file: false,
            });
        }
        // Openings may name commands of this very file.
        let mut first_opened: Option<usize> = None;
        for o in &b.openings {
            if self.open(o, name)? {
                first_opened = Some(first_opened.map_or(o.item, |f| f.min(o.item)));
            }
        }
        match first_opened {
            Some(j) => self.replay_from(j),
            None => self.run(),
        }
    }

    /// Replays again from the file of command `j`, whose content has just become known: from
    /// the checkpoint taken on entering that file, or on from where the replay stands when it
    /// has not got that far.
    fn replay_from(&mut self, j: usize) -> Result<(), RemoteError> {
        let f = self.entries[j].file;
        let Some(cp) = self.checkpoints.get(f).cloned().flatten() else {
            // A file the replay has not entered: nothing replayed changes. A block stands (what
            // it waits for lies in files already entered, so only their openings lift it).
            return self.run();
        };
        let first = self.files[f].first;
        // Later checkpoints hold what the stand-in did: they are taken again as the replay
        // enters their files.
        self.checkpoints.truncate(f + 1);
        // Their public hashes are checked again, with the command now known.
        for x in &mut self.files[f..] {
            x.hash_checked = x.hash.is_none() || x.public_hash.is_none();
        }
        self.session = Some((*cp).clone());
        self.cursor = first;
        self.entered = f;
        self.blocked = None;
        // What the commands from there turned up is worked out again.
        for e in &mut self.entries {
            if e.opened_at.is_some_and(|at| at >= first) {
                e.opened_at = None;
            }
        }
        self.run()
    }

    /// The dice stir of a turn file, and (for the starter's first) the seed.
    pub(crate) fn stir_for(&mut self, prev: &str, nonce: [u8; 32], by: Seat) -> u64 {
        if by == self.starter && self.shares[0].is_none() {
            self.shares[0] = Some(nonce);
        }
        dice_salt(prev, &nonce)
    }

    /// Applies an opening: checks it against the commitment. Returns whether it changes a
    /// command already replayed (or waited on), so the replay must start again.
    fn open(&mut self, o: &Opening, name: &str) -> Result<bool, RemoteError> {
        let err = |why: &str| RemoteError::new(name, why).at(o.item);
        let e = self
            .entries
            .get_mut(o.item)
            .ok_or_else(|| err("an opening for a command that is not in the log"))?;
        let Item::Sealed {
            keys, commitment, ..
        } = &e.item
        else {
            return Err(err("an opening for a command that was not sealed"));
        };
        let salt =
            bytes32(&o.salt).ok_or_else(|| err("an opening whose salt is not 64 hex digits"))?;
        if commit_secret(keys, &salt, &o.command) != *commitment {
            return Err(err("the opening does not match its commitment"));
        }
        let cmd: R::Command = ron::from_str(&o.command)
            .map_err(|e| err(&format!("the opened command does not read: {}", e.code)))?;
        e.opened_in_file |= name != "the private store";
        if e.truth.is_some() {
            return Ok(false);
        }
        e.truth = Some(cmd);
        e.opening = Some((o.salt.clone(), o.command.clone()));
        Ok(true)
    }

    /// Learns the content of one of this side's own sealed commands again (a side restored
    /// from its files and its private store), checked against the commitment.
    pub(crate) fn know(&mut self, o: &Opening) -> Result<(), RemoteError> {
        self.open(o, "the private store").map(|_| ())
    }

    /// Replays the whole log from the opening position.
    pub(crate) fn rebuild(&mut self) -> Result<(), RemoteError> {
        self.session = None;
        self.checkpoints.clear();
        self.cursor = 0;
        self.entered = 1;
        self.blocked = None;
        for f in &mut self.files {
            f.hash_checked = f.hash.is_none() || f.public_hash.is_none();
        }
        for e in &mut self.entries {
            e.opened_at = None;
        }
        self.run()
    }

    /// Replays on from where the replay stands, as far as this side's knowledge goes.
    pub(crate) fn run(&mut self) -> Result<(), RemoteError> {
        if self.session.is_none() {
            let (Some(a), Some(b)) = (self.shares[0], self.shares[1]) else {
                return Ok(());
            };
            let seed = seed_from(&a, &b);
            let s = Session::new(self.setup.clone(), seed)
                .map_err(|e| RemoteError::new(&self.files[0].name, e))?;
            self.session = Some(s);
        }
        if self.blocked.is_some() {
            return Ok(());
        }
        loop {
            while self.entered < self.files.len() && self.files[self.entered].first == self.cursor {
                self.check_public_hash(self.entered - 1)?;
                let session = self.session.as_mut().expect("set up above");
                if self.checkpoints.len() <= self.entered {
                    self.checkpoints.resize(self.entered + 1, None);
                }
                self.checkpoints[self.entered] = Some(std::sync::Arc::new(session.clone()));
                if let Some(salt) = self.files[self.entered].stir {
                    session.stir(self.files[self.entered].by, salt);
                }
                self.entered += 1;
            }
            if self.cursor == self.entries.len() {
                if self.entered == self.files.len() {
                    self.check_public_hash(self.entered - 1)?;
                }
                return Ok(());
            }
            let i = self.cursor;
            let state = self.session.as_ref().expect("set up above").state();
            let e = &self.entries[i];
            let file = &self.files[e.file].name;
            let cmd = match (&e.item, &e.truth) {
                (Item::Plain(c), _) => c.clone(),
                (Item::Sealed { keys, stand_in, .. }, Some(t)) => {
                    // Legal first: the ruleset's secret answer may assume the names it meets exist.
                    R::legal(state, t).map_err(|err| {
                        RemoteError::new(file, format!("an opened command is illegal: {err}")).at(i)
                    })?;
                    let s = R::secret(state, t).ok_or_else(|| {
                        RemoteError::new(file, "a sealed command that keeps no secret").at(i)
                    })?;
                    if s.keys != *keys || s.stand_in != *stand_in {
                        return Err(RemoteError::new(
                            file,
                            "the opened command does not match the stand-in it was sent with",
                        )
                        .at(i));
                    }
                    t.clone()
                }
                (Item::Sealed { keys, stand_in, .. }, None) => {
                    // The stand-in must be the ruleset's own for a command like it: a writer
                    // cannot pass off another public effect (fewer points spent, say) until
                    // the opening shows it.
                    R::legal(state, stand_in).map_err(|err| {
                        RemoteError::new(file, format!("an illegal stand-in: {err}")).at(i)
                    })?;
                    let own = R::secret(state, stand_in);
                    if own
                        .as_ref()
                        .is_none_or(|s| s.keys != *keys || s.stand_in != *stand_in)
                    {
                        return Err(RemoteError::new(
                            file,
                            "a sealed command whose stand-in is not the ruleset's",
                        )
                        .at(i));
                    }
                    stand_in.clone()
                }
            };
            if let Some(d) = R::deciding(state)
                && d != e.by
            {
                return Err(RemoteError::new(
                    file,
                    format!(
                        "illegal command {}: seat {} gave it when seat {d} decides",
                        match &e.item {
                            Item::Plain(c) => format!("{c:?}"),
                            Item::Sealed { .. } => "(sealed)".to_string(),
                        },
                        e.by
                    ),
                )
                .at(i));
            }
            let mut next = state.clone();
            // A refusal names a sealed command by its place only: the message may be sent.
            let shown = match &e.item {
                Item::Plain(c) => format!("{c:?}"),
                Item::Sealed { .. } => "(sealed)".to_string(),
            };
            let events = R::execute(&mut next, &cmd).map_err(|err| {
                RemoteError::new(file, format!("illegal command {shown}: {err}")).at(i)
            })?;
            let opened: Vec<String> = events
                .iter()
                .filter(|ev| R::reveals(ev))
                .flat_map(|ev| R::opened_by(state, ev))
                .collect();
            let mut waiting = Vec::new();
            if !opened.is_empty() {
                for (j, e) in self.entries[..=i].iter_mut().enumerate() {
                    if let Item::Sealed { keys, .. } = &e.item
                        && e.opened_at.is_none()
                        && keys.iter().any(|k| opened.contains(k))
                    {
                        e.opened_at = Some(i);
                        if e.truth.is_none() {
                            waiting.push(j);
                        }
                    }
                }
            }
            if !waiting.is_empty() {
                self.blocked = Some(Blocked {
                    at: i,
                    waiting_for: waiting,
                });
                return Ok(());
            }
            drop(next);
            // Executed once more in the session, which keeps the log the screen narrates.
            self.session
                .as_mut()
                .expect("set up above")
                .submit(cmd)
                .map_err(|err| {
                    RemoteError::new(&self.files[self.entries[i].file].name, err.to_string()).at(i)
                })?;
            self.cursor += 1;
        }
    }

    /// Compares a finished file's public hash with the replay's.
    fn check_public_hash(&mut self, file: usize) -> Result<(), RemoteError> {
        let f = &mut self.files[file];
        if f.hash_checked {
            return Ok(());
        }
        f.hash_checked = true;
        let (Some(expected), Some(session)) = (&f.public_hash, &self.session) else {
            return Ok(());
        };
        let found = public_hash::<R>(session.state());
        if *expected != found {
            return Err(RemoteError::new(
                &f.name,
                format!(
                    "after its commands the battle should be {expected}, but replaying them gives {found}"
                ),
            ));
        }
        Ok(())
    }

    /// Adds one of this side's own commands to the file it is writing and replays it.
    pub(crate) fn push_own(
        &mut self,
        item: Item<R::Command>,
        by: Seat,
        truth: R::Command,
        opening: Option<(String, String)>,
    ) -> Result<(), RemoteError> {
        let file = self.files.len() - 1;
        self.entries.push(Entry {
            item,
            by,
            file,
            truth: Some(truth),
            opening,
            opened_at: None,
            opened_in_file: false,
        });
        self.run()
    }

    /// May [`Ledger::undo_own`] take a command back?
    pub(crate) fn can_undo_own(&self, me: Seat) -> bool {
        let Some(draft) = self.files.last().filter(|f| f.hash.is_none()) else {
            return false;
        };
        self.entries.len() > draft.first
            && self.caught_up()
            && self.entries.last().is_some_and(|e| e.by == me)
            && self
                .session
                .as_ref()
                .is_some_and(|s| s.take_back_kind(me) == sandtable_engine::TakeBackKind::Free)
    }

    /// Takes back this side's own last command, in the file it is still writing, when it
    /// showed nothing new (no die, no secret turned up): undo never crosses a file sent.
    pub(crate) fn undo_own(&mut self, me: Seat) -> Result<bool, RemoteError> {
        if !self.can_undo_own(me) {
            return Ok(false);
        }
        // On a copy: a rebuild that fails leaves this side as it was.
        let mut next = self.clone();
        next.entries.pop();
        next.rebuild()?;
        *self = next;
        Ok(true)
    }

    /// Takes back the last command if the replay refused it.
    pub(crate) fn pop_unplayed(&mut self) {
        if self.entries.len() > self.cursor && self.blocked.is_none() {
            self.entries.pop();
        }
    }

    /// Begins this side's own file: the chain's new record, with its stir.
    pub(crate) fn begin_own(&mut self, by: Seat, nonce: Option<[u8; 32]>, turn: bool) {
        let stir = match (turn, nonce) {
            (true, Some(n)) => {
                let prev = self.last_hash().unwrap_or_default().to_string();
                Some(self.stir_for(&prev, n, by))
            }
            _ => None,
        };
        self.files.push(FileRec {
            name: "this side's file".into(),
            by,
            hash: None,
            first: self.entries.len(),
            stir,
            public_hash: None,
            hash_checked: true,
        });
    }

    /// Seals this side's file once written.
    pub(crate) fn end_own(&mut self, name: String, hash: String) {
        let f = self.files.last_mut().expect("begun");
        f.name = name;
        f.hash = Some(hash);
    }

    /// The replayed state's public hash, when the replay has caught up.
    pub fn public_hash(&self) -> Option<String> {
        if !self.caught_up() {
            return None;
        }
        self.state().map(public_hash::<R>)
    }

    /// This side's own sealed commands that the log has turned up (or all of them, once the
    /// battle is over) and that no file has opened yet: (index, salt, RON).
    pub(crate) fn due_openings(&self, me: Seat, sent: &[usize]) -> Vec<Opening> {
        let over = self.over();
        self.entries
            .iter()
            .enumerate()
            .filter(|(i, e)| {
                e.by == me
                    && matches!(e.item, Item::Sealed { .. })
                    && (e.opened_at.is_some() || over)
                    && !sent.contains(i)
            })
            .filter_map(|(i, e)| {
                let (salt, command) = e.opening.clone()?;
                Some(Opening {
                    item: i,
                    salt,
                    command,
                })
            })
            .collect()
    }

    /// The body fields that a file of this side's would carry (helpers for the peer).
    pub(crate) fn own_items(&self) -> Vec<Item<R::Command>> {
        let first = self.files.last().map_or(0, |f| f.first);
        self.entries[first..]
            .iter()
            .map(|e| e.item.clone())
            .collect()
    }
}

/// Hash of what both seats may see: each seat's secrets removed from the other's view, the
/// dice stream with them.
pub fn public_hash<R: Ruleset>(state: &R::State) -> String {
    state_hash(&R::view(&R::view(state, 0), 1))
}

/// The body of a file, for tools that read one.
pub type TurnBody<R> = Body<<R as Ruleset>::Setup, <R as Ruleset>::Command>;
