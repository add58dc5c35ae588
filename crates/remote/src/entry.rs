//! One ruleset's remote play, erased, for the programs that name rulesets in one place (the
//! CLI's and the app's `rulesets.rs`): verify a chain, play a battle out by email.

use crate::any_remote::{AnyRemote, RemoteGame};
use crate::digest::Entropy;
use crate::error::RemoteError;
use crate::identity::Identity;
use crate::live::{Finished, Link, Message, Side};
use crate::peer::{Peer, Private};
use crate::play_out::play_out;
use crate::store::Store;
use crate::verify::{NamedFile, Verified, verify};
use sandtable_engine::files::{DataDirs, Files};
use sandtable_engine::{AnyCommand, AnyPlayer, Present, Ruleset, Seat, Snapshot, Teach, data_file};
use std::net::TcpListener;
use std::path::Path;
use std::time::Duration;

/// Hands each file written to the caller: (index, writer, bytes).
pub type FileSink<'a> = &'a mut dyn FnMut(usize, Seat, &[u8]);

/// How a battle played by email ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedOut {
    pub files: usize,
    pub commands: usize,
    /// The winning seat, or `None` for a draw.
    pub winner: Option<Seat>,
    pub result: Option<String>,
    pub public_hash: Option<String>,
}

type VerifyFn = fn(&[NamedFile]) -> Result<Verified, RemoteError>;
type PlayOutFn = fn(
    &Path,
    &DataDirs,
    Option<u32>,
    [Box<dyn AnyPlayer>; 2],
    [Identity; 2],
    [Entropy; 2],
    FileSink<'_>,
) -> Result<PlayedOut, String>;

/// What a live side needs besides its ruleset: its store, identity, join code, player, chat
/// and where it reports.
pub struct LiveOptions<'a> {
    pub store: Store,
    pub identity: Identity,
    pub code: String,
    pub player: Box<dyn AnyPlayer>,
    pub chat: Vec<String>,
    pub log: &'a mut dyn FnMut(&str),
}

type StartFn =
    fn(&Path, &DataDirs, Identity, Seat, &str) -> Result<(Box<dyn AnyRemote>, Vec<u8>), String>;
type AcceptFn = fn(Identity, &str, &[u8]) -> Result<(Box<dyn AnyRemote>, Vec<u8>), RemoteError>;
type RestoreFn = fn(Identity, &[NamedFile], Private) -> Result<Box<dyn AnyRemote>, RemoteError>;
type HostFn = fn(&TcpListener, &Path, &DataDirs, LiveOptions<'_>) -> Result<Finished, String>;
type JoinFn = fn(&str, (Link, Message), Duration, LiveOptions<'_>) -> Result<Finished, String>;

#[derive(Clone, Copy)]
pub struct RemoteEntry {
    pub id: &'static str,
    verify: VerifyFn,
    play_out: PlayOutFn,
    host: HostFn,
    join: JoinFn,
    start: StartFn,
    accept: AcceptFn,
    restore: RestoreFn,
}

impl RemoteEntry {
    pub fn new<R: Ruleset + Files + Present + Teach>() -> Self {
        Self {
            id: R::ID,
            verify: verify::<R>,
            play_out: play_out_erased::<R>,
            host: host_erased::<R>,
            join: join_erased::<R>,
            start: start_erased::<R>,
            accept: |identity, name, bytes| {
                let (peer, accept) = Peer::<R>::accept(identity, name, bytes, Entropy::Os)?;
                Ok((Box::new(RemoteGame { peer }) as Box<dyn AnyRemote>, accept))
            },
            restore: |identity, files, private| {
                let peer = Peer::<R>::restore(identity, files, private)?;
                Ok(Box::new(RemoteGame { peer }) as Box<dyn AnyRemote>)
            },
        }
    }

    /// Starts a battle of the scenario at `path` for `seat` against the player whose public
    /// key is `opponent`: this side, and its Start file.
    pub fn start(
        &self,
        path: &Path,
        dirs: &DataDirs,
        identity: Identity,
        seat: Seat,
        opponent: &str,
    ) -> Result<(Box<dyn AnyRemote>, Vec<u8>), String> {
        (self.start)(path, dirs, identity, seat, opponent)
    }

    /// Accepts a Start file offered to this identity: this side, and its Accept file.
    pub fn accept(
        &self,
        identity: Identity,
        name: &str,
        bytes: &[u8],
    ) -> Result<(Box<dyn AnyRemote>, Vec<u8>), RemoteError> {
        (self.accept)(identity, name, bytes)
    }

    /// This side again from its kept files and private store.
    pub fn restore(
        &self,
        identity: Identity,
        files: &[NamedFile],
        private: Private,
    ) -> Result<Box<dyn AnyRemote>, RemoteError> {
        (self.restore)(identity, files, private)
    }

    /// Hosts the scenario at `path` live on `listener` until the battle is done.
    pub fn host(
        &self,
        listener: &TcpListener,
        path: &Path,
        dirs: &DataDirs,
        opts: LiveOptions<'_>,
    ) -> Result<Finished, String> {
        (self.host)(listener, path, dirs, opts)
    }

    /// Joins the host at `addr` on the connection [`crate::live::greet`] opened.
    pub fn join(
        &self,
        addr: &str,
        first: (Link, Message),
        patience: Duration,
        opts: LiveOptions<'_>,
    ) -> Result<Finished, String> {
        (self.join)(addr, first, patience, opts)
    }

    /// Verifies a chain given in order.
    pub fn verify(&self, files: &[NamedFile]) -> Result<Verified, RemoteError> {
        (self.verify)(files)
    }

    /// Plays the scenario at `path` (for `turns` turns, when given) by email between two
    /// computer players.
    #[allow(clippy::too_many_arguments)]
    pub fn play_out(
        &self,
        path: &Path,
        dirs: &DataDirs,
        turns: Option<u32>,
        players: [Box<dyn AnyPlayer>; 2],
        identities: [Identity; 2],
        entropy: [Entropy; 2],
        sink: FileSink<'_>,
    ) -> Result<PlayedOut, String> {
        (self.play_out)(path, dirs, turns, players, identities, entropy, sink)
    }
}

fn play_out_erased<R: Ruleset + Files>(
    path: &Path,
    dirs: &DataDirs,
    turns: Option<u32>,
    players: [Box<dyn AnyPlayer>; 2],
    identities: [Identity; 2],
    entropy: [Entropy; 2],
    sink: FileSink<'_>,
) -> Result<PlayedOut, String> {
    let text = data_file::read_text(path).map_err(|e| e.to_string())?;
    let mut setup = R::load_scenario(path, &text, dirs).map_err(|e| e.to_string())?;
    if let Some(t) = turns {
        setup = R::with_turn_limit(setup, t);
    }
    let [mut p0, mut p1] = players;
    let mut c0 = |view: &R::State, seat: Seat| choose::<R>(&mut p0, view, seat);
    let mut c1 = |view: &R::State, seat: Seat| choose::<R>(&mut p1, view, seat);
    let mut files = 0;
    let peers = play_out::<R>(
        setup,
        identities,
        entropy,
        [&mut c0, &mut c1],
        |i, by, bytes| {
            files += 1;
            sink(i, by, bytes)
        },
    )
    .map_err(|e| e.to_string())?;
    let ledger = peers[0].ledger();
    let outcome = ledger.state().and_then(R::outcome);
    Ok(PlayedOut {
        files,
        commands: ledger.len(),
        winner: outcome.as_ref().and_then(|o| o.winner),
        result: outcome.map(|o| o.result),
        public_hash: ledger.public_hash(),
    })
}

fn start_erased<R: Ruleset + Files + Present + Teach>(
    path: &Path,
    dirs: &DataDirs,
    identity: Identity,
    seat: Seat,
    opponent: &str,
) -> Result<(Box<dyn AnyRemote>, Vec<u8>), String> {
    let text = data_file::read_text(path).map_err(|e| e.to_string())?;
    let setup = R::load_scenario(path, &text, dirs).map_err(|e| e.to_string())?;
    if crate::digest::bytes32(opponent).is_none() {
        return Err(
            "the other player's key must be 64 hex digits (sandtable-cli pbem key prints it)"
                .into(),
        );
    }
    let (peer, bytes) = Peer::<R>::start(identity, seat, setup, opponent, Entropy::Os)
        .map_err(|e| e.to_string())?;
    Ok((Box::new(RemoteGame { peer }), bytes))
}

/// The entry for the ruleset a turn file names.
pub fn entry_for<'a>(entries: &'a [RemoteEntry], bytes: &[u8]) -> Option<&'a RemoteEntry> {
    let id = crate::turn_file::ruleset_of(bytes)?;
    entries.iter().find(|e| e.id == id)
}

fn host_erased<R: Ruleset + Files>(
    listener: &TcpListener,
    path: &Path,
    dirs: &DataDirs,
    opts: LiveOptions<'_>,
) -> Result<Finished, String> {
    let text = data_file::read_text(path).map_err(|e| e.to_string())?;
    let setup = R::load_scenario(path, &text, dirs).map_err(|e| e.to_string())?;
    live_side::<R, _>(opts, |side| side.host(listener, setup))
}

fn join_erased<R: Ruleset + Files>(
    addr: &str,
    first: (Link, Message),
    patience: Duration,
    opts: LiveOptions<'_>,
) -> Result<Finished, String> {
    live_side::<R, _>(opts, |side| side.join(addr, first, patience))
}

/// Runs `f` on a live side made from `opts`, its computer player deciding.
fn live_side<R: Ruleset, T>(opts: LiveOptions<'_>, f: impl FnOnce(&mut Side<'_, R>) -> T) -> T {
    let mut player = opts.player;
    let mut chooser = |view: &R::State, seat: Seat| choose::<R>(&mut player, view, seat);
    let mut side = Side::<R> {
        store: opts.store,
        identity: opts.identity,
        code: opts.code,
        chooser: &mut chooser,
        log: opts.log,
        chat: opts.chat,
    };
    f(&mut side)
}

/// A computer player's choice from a seat's view, typed.
fn choose<R: Ruleset>(
    player: &mut Box<dyn AnyPlayer>,
    view: &R::State,
    seat: Seat,
) -> Option<R::Command> {
    let cmd: AnyCommand = player.choose(&Snapshot::of(view.clone()), seat)?;
    cmd.downcast::<R::Command>().cloned()
}
