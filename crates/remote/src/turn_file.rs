//! The turn file: what one side sends the other at each hand-over, by email or over the network.
//!
//! ```text
//! sandtable-turn 1 <ed25519 signature of everything after this line, hex>
//! Turn( ruleset: "bfs", index: 4, by: 1, prev: Some("<sha-256 of file #3>"), ... )
//! ```
//!
//! The signature covers the body's exact bytes, so changing any byte of a file is refused; the
//! `prev` hash chains each file to the one before, so files cannot be reordered, dropped or
//! replaced unnoticed. The body is RON.

use crate::error::RemoteError;
use crate::identity::{Identity, verify};
use sandtable_engine::Seat;
use serde::{Deserialize, Serialize};

/// The first line's magic word and the format it announces.
pub const MAGIC: &str = "sandtable-turn";
pub const FORMAT: u32 = 1;

/// What a file does in the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Kind<S> {
    /// The challenge: the battle (scenario and army lists) and both players' public keys, by
    /// seat. Its `commit` is the writer's share of the dice seed.
    Start { setup: S, players: [String; 2] },
    /// The other player agrees: its `nonce`, in the clear, is its share of the seed.
    Accept,
    /// A turn: commands, and the openings of secrets the rules have turned up.
    Turn,
}

/// One command as the other side receives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Item<C> {
    /// A command the other side may see whole.
    Plain(C),
    /// A secret one: the keys naming it, the commitment to it and its public stand-in
    /// ([`sandtable_engine::Secret`]).
    Sealed {
        keys: Vec<String>,
        commitment: String,
        stand_in: C,
    },
}

/// A secret turned up: the sealed command it opens (its number in the battle's log, from 0),
/// the salt and the command's RON text, which hash to the commitment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    pub item: usize,
    pub salt: String,
    pub command: String,
}

/// A turn file's signed body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "Turn")]
pub struct Body<S, C> {
    pub ruleset: String,
    /// Its place in the chain, from 0.
    pub index: usize,
    /// The seat that wrote and signed it.
    pub by: Seat,
    /// SHA-256 of the previous file's bytes (none for the first).
    pub prev: Option<String>,
    pub kind: Kind<S>,
    /// The nonce the writer committed to in its previous file, revealed (in the Accept: its
    /// share of the seed).
    pub nonce: Option<String>,
    /// Commitment to the nonce the writer reveals in its next file.
    pub commit: String,
    pub openings: Vec<Opening>,
    pub commands: Vec<Item<C>>,
    /// Hash of what both seats may see after the file's commands, when the writer could know it.
    pub public_hash: Option<String>,
}

/// Writes and signs a body.
pub fn write<S: Serialize, C: Serialize>(
    body: &Body<S, C>,
    identity: &Identity,
) -> Result<Vec<u8>, String> {
    let text = ron::ser::to_string_pretty(body, ron::ser::PrettyConfig::default())
        .map_err(|e| format!("cannot write the turn file: {e}"))?;
    let signature = identity.sign(text.as_bytes());
    Ok(format!("{MAGIC} {FORMAT} {signature}\n{text}\n").into_bytes())
}

/// A file read: its body, signature and hash.
#[derive(Debug, Clone)]
pub struct Parsed<S, C> {
    pub body: Body<S, C>,
    pub signature: String,
    /// The signed bytes.
    pub signed: Vec<u8>,
    pub hash: String,
}

/// Reads a file without yet checking its signature (the key depends on the chain).
pub fn parse<S: for<'de> Deserialize<'de>, C: for<'de> Deserialize<'de>>(
    name: &str,
    bytes: &[u8],
) -> Result<Parsed<S, C>, RemoteError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|e| RemoteError::new(name, format!("not UTF-8 text: {e}")))?;
    // A mailer may turn line ends into CRLF or drop the last one: the file is read, signed and
    // chained as written (LF, one at the end).
    let normal = normalise(text);
    let text = normal.as_str();
    let (first, rest) = text
        .split_once('\n')
        .ok_or_else(|| RemoteError::new(name, "not a turn file (no header line)"))?;
    let mut words = first.split(' ');
    if words.next() != Some(MAGIC) {
        return Err(RemoteError::new(
            name,
            format!("line 1: not a turn file (it should begin \"{MAGIC}\")"),
        ));
    }
    let format = words.next().and_then(|f| f.parse::<u32>().ok());
    if format != Some(FORMAT) {
        return Err(RemoteError::new(
            name,
            format!("line 1: this program reads turn-file format {FORMAT}"),
        ));
    }
    let signature = words
        .next()
        .filter(|s| s.len() == 128)
        .ok_or_else(|| RemoteError::new(name, "line 1: the signature is missing or cut"))?
        .to_string();
    if words.next().is_some() {
        return Err(RemoteError::new(
            name,
            "line 1: unexpected text after the signature",
        ));
    }
    let signed = rest.strip_suffix('\n').unwrap_or(rest);
    let body: Body<S, C> = ron::from_str(signed).map_err(|e| {
        RemoteError::new(
            name,
            format!(
                "line {}, column {}: {}",
                e.span.start.line + 1,
                e.span.start.col,
                e.code
            ),
        )
    })?;
    Ok(Parsed {
        body,
        signature,
        signed: signed.as_bytes().to_vec(),
        hash: crate::digest::file_hash(bytes),
    })
}

impl<S, C> Parsed<S, C> {
    /// Is it signed by `public_hex`?
    pub fn signed_by(&self, public_hex: &str) -> bool {
        verify(public_hex, &self.signed, &self.signature)
    }
}

/// The ruleset a file is for, read without knowing its types (to pick the ruleset that reads
/// the whole chain).
pub fn ruleset_of(bytes: &[u8]) -> Option<String> {
    head(bytes).map(|h| h.ruleset)
}

/// A file's place in its chain, read without knowing its types.
pub fn index_of(bytes: &[u8]) -> Option<usize> {
    head(bytes).map(|h| h.index)
}

/// The hash of the file a file follows (none for a Start), read without knowing its types.
pub fn prev_of(bytes: &[u8]) -> Option<String> {
    head(bytes).and_then(|h| h.prev)
}

#[derive(Deserialize)]
#[serde(rename = "Turn")]
struct Head {
    ruleset: String,
    index: usize,
    #[serde(default)]
    prev: Option<String>,
}

fn head(bytes: &[u8]) -> Option<Head> {
    let text = std::str::from_utf8(bytes).ok()?;
    let (_, body) = text.split_once('\n')?;
    ron::from_str::<Head>(body).ok()
}

/// The text as written: LF line ends, exactly one at the end.
pub(crate) fn normalise(text: &str) -> String {
    let mut t = text.replace("\r\n", "\n");
    while t.ends_with('\n') {
        t.pop();
    }
    t.push('\n');
    t
}
