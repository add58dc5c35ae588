//! Play across two machines (`docs/remote.md`): turn files by email and the same messages live.
//!
//! - [`identity`]: each player's ed25519 key pair;
//! - [`digest`]: hashes, nonces, commitments, the seed and the dice stirs;
//! - [`turn_file`]: the signed, chained file one side sends the other;
//! - [`ledger`]: the chain replayed with what one side knows, stopping where a secret it does
//!   not know is turned up;
//! - [`peer`]: one side playing: sealing its secrets, opening them when the rules turn them up;
//! - [`verify`]: a whole chain checked, for `sandtable-cli pbem verify`.
//!
//! Generic over the engine's [`sandtable_engine::Ruleset`]: a ruleset takes part through its
//! `secret` and `opened_by` answers, and nothing here names one.

pub mod any_remote;
pub mod digest;
pub mod entry;
pub mod error;
pub mod identity;
pub mod ledger;
pub mod live;
pub mod peer;
pub mod play_out;
pub mod pump;
pub mod store;
pub mod turn_file;
pub mod verify;

pub use digest::Entropy;
pub use entry::{PlayedOut, RemoteEntry};
pub use error::RemoteError;
pub use identity::Identity;
pub use ledger::Ledger;
pub use peer::Peer;
