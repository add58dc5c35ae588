//! A whole chain checked: every signature, every link, every nonce against its commitment,
//! every opening against its commitment and stand-in, every command legal where it stands, and
//! the public state after every file. `sandtable-cli pbem verify` calls it.

use crate::error::RemoteError;
use crate::ledger::Ledger;
use crate::turn_file::{self, Parsed};
use sandtable_engine::Ruleset;

/// A file as read: its name (a path, or "turn file #k") and its bytes.
pub type NamedFile = (String, Vec<u8>);

/// What a chain that verified holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub files: usize,
    pub commands: usize,
    /// The battle is over (the whole log replayed, nobody left to decide).
    pub over: bool,
    /// Sealed commands not yet opened (a chain in progress keeps some).
    pub sealed: usize,
    /// The public hash after the last file, when the replay has caught up.
    pub public_hash: Option<String>,
}

/// Verifies files given in chain order, each as (name, bytes).
pub fn verify<R: Ruleset>(files: &[NamedFile]) -> Result<Verified, RemoteError> {
    let Some((name, bytes)) = files.first() else {
        return Err(RemoteError::new("(no files)", "nothing to verify"));
    };
    let start: Parsed<R::Setup, R::Command> = turn_file::parse(name, bytes)?;
    let mut ledger = Ledger::<R>::from_start(&start, name)?;
    for (name, bytes) in &files[1..] {
        let parsed: Parsed<R::Setup, R::Command> = turn_file::parse(name, bytes)?;
        ledger.receive(&parsed, name)?;
    }
    // Once the battle is over, each side's next file opens every secret it still keeps: the
    // last file's writer knew the battle was over when it wrote it.
    if ledger.over() && files.len() > 2 {
        let by_last = ledger.files.last().map(|f| f.by);
        if let Some(i) = ledger
            .unopened()
            .find(|&i| Some(ledger.entries[i].by) == by_last)
        {
            let (name, _) = &files[files.len() - 1];
            return Err(RemoteError::new(
                name,
                "the battle is over but its writer left one of its secrets sealed",
            )
            .at(i));
        }
    }
    Ok(Verified {
        files: files.len(),
        commands: ledger.len(),
        over: ledger.over(),
        sealed: ledger.unopened().count(),
        public_hash: ledger.public_hash(),
    })
}
