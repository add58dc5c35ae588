//! One ruleset's remote play, erased, for the programs that name rulesets in one place (the
//! CLI's and the app's `rulesets.rs`): verify a chain, play a battle out by email.

use crate::digest::Entropy;
use crate::error::RemoteError;
use crate::identity::Identity;
use crate::play_out::play_out;
use crate::verify::{NamedFile, Verified, verify};
use sandtable_engine::files::{DataDirs, Files};
use sandtable_engine::{AnyCommand, AnyPlayer, Ruleset, Seat, Snapshot, data_file};
use std::path::Path;

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

#[derive(Clone, Copy)]
pub struct RemoteEntry {
    pub id: &'static str,
    verify: VerifyFn,
    play_out: PlayOutFn,
}

impl RemoteEntry {
    pub fn new<R: Ruleset + Files>() -> Self {
        Self {
            id: R::ID,
            verify: verify::<R>,
            play_out: play_out_erased::<R>,
        }
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

/// A computer player's choice from a seat's view, typed.
fn choose<R: Ruleset>(
    player: &mut Box<dyn AnyPlayer>,
    view: &R::State,
    seat: Seat,
) -> Option<R::Command> {
    let cmd: AnyCommand = player.choose(&Snapshot::of(view.clone()), seat)?;
    cmd.downcast::<R::Command>().cloned()
}
