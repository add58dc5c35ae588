//! Hashes, nonces and commitments: SHA-256 throughout, written as lowercase hex.

use sha2::{Digest, Sha256};

/// SHA-256 of `parts`, each length-prefixed so that no two lists of parts hash alike.
pub fn hash_parts(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().into()
}

/// SHA-256 of a whole file, hex: what the next file names as its `prev`. Taken of the file as
/// written (LF line ends, one at the end), so a mailer's CRLF does not break the chain.
pub fn file_hash(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => hex::encode(Sha256::digest(crate::turn_file::normalise(text).as_bytes())),
        Err(_) => hex::encode(Sha256::digest(bytes)),
    }
}

/// Where a side's nonces and salts come from: the operating system's generator in real play;
/// a seed for simulated battles and tests, which must replay alike (never in a real game: a
/// nonce the other side could guess would let it foresee the dice and test guesses against
/// commitments).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub enum Entropy {
    Os,
    Seeded { seed: [u8; 32], drawn: u64 },
}

impl Entropy {
    pub fn seeded(seed: u64, seat: u8) -> Self {
        Entropy::Seeded {
            seed: hash_parts(&[b"sandtable-entropy", &seed.to_le_bytes(), &[seat]]),
            drawn: 0,
        }
    }

    /// The next 32 bytes.
    pub fn draw(&mut self) -> [u8; 32] {
        match self {
            Entropy::Os => random_bytes(),
            Entropy::Seeded { seed, drawn } => {
                *drawn += 1;
                hash_parts(&[seed, &drawn.to_le_bytes()])
            }
        }
    }
}

/// 32 bytes from the operating system's generator: nonces, salts, new keys.
pub fn random_bytes() -> [u8; 32] {
    let mut b = [0u8; 32];
    // The OS generator failing leaves no safe way to play; say so rather than play with zeros.
    getrandom::fill(&mut b).expect("the operating system's random generator is unavailable");
    b
}

/// The commitment to a nonce: its hash, hex. Revealing the nonce later proves it was chosen
/// before the commitment was sent.
pub fn commit_nonce(nonce: &[u8; 32]) -> String {
    hex::encode(hash_parts(&[b"sandtable-nonce", nonce]))
}

/// The commitment to a secret command: the hash of its keys, a random salt (so a guess of the
/// command cannot be checked against it) and the command's RON text.
pub fn commit_secret(keys: &[String], salt: &[u8; 32], command_ron: &str) -> String {
    let keys = keys.join(",");
    hex::encode(hash_parts(&[
        b"sandtable-secret",
        keys.as_bytes(),
        salt,
        command_ron.as_bytes(),
    ]))
}

/// The battle's dice seed from both sides' nonces: neither side chose it alone.
pub fn seed_from(first: &[u8; 32], second: &[u8; 32]) -> u64 {
    let h = hash_parts(&[b"sandtable-seed", first, second]);
    u64::from_le_bytes(h[..8].try_into().expect("8 bytes"))
}

/// The salt that stirs the dice before a turn file's commands: the previous file (which its
/// writer could not steer without knowing this side's nonce) and the nonce this side committed
/// to before that file existed.
pub fn dice_salt(prev_file_hash: &str, nonce: &[u8; 32]) -> u64 {
    let h = hash_parts(&[b"sandtable-dice", prev_file_hash.as_bytes(), nonce]);
    u64::from_le_bytes(h[..8].try_into().expect("8 bytes"))
}

/// Parses 32 bytes of hex.
pub fn bytes32(hex_text: &str) -> Option<[u8; 32]> {
    let v = hex::decode(hex_text).ok()?;
    v.try_into().ok()
}
