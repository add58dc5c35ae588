//! A player's identity: an ed25519 key pair, kept in the user's config folder and made on
//! first use. The public key (hex) is what the other player names when starting a game.

use crate::digest::random_bytes;
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use std::path::{Path, PathBuf};

/// One player's signing key.
#[derive(Clone)]
pub struct Identity {
    key: SigningKey,
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the private half.
        write!(f, "Identity({})", self.public_hex())
    }
}

impl Identity {
    /// A new identity from the operating system's generator.
    pub fn generate() -> Self {
        Self {
            key: SigningKey::from_bytes(&random_bytes()),
        }
    }

    /// An identity from fixed bytes: tests and simulated battles.
    pub fn from_secret(bytes: [u8; 32]) -> Self {
        Self {
            key: SigningKey::from_bytes(&bytes),
        }
    }

    /// The public key, hex: safe to share.
    pub fn public_hex(&self) -> String {
        hex::encode(self.key.verifying_key().to_bytes())
    }

    /// The signature of `bytes`, hex.
    pub fn sign(&self, bytes: &[u8]) -> String {
        hex::encode(self.key.sign(bytes).to_bytes())
    }

    /// Loads the identity kept at `path`, or makes one and keeps it there (written atomically,
    /// readable by its owner only on Unix).
    pub fn load_or_create(path: &Path) -> Result<Self, String> {
        match std::fs::read_to_string(path) {
            Ok(text) => {
                let bytes = crate::digest::bytes32(text.trim()).ok_or_else(|| {
                    format!(
                        "{}: not an identity (64 hex digits expected)",
                        path.display()
                    )
                })?;
                Ok(Self::from_secret(bytes))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let id = Self::generate();
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                }
                crate::store::write_private(path, &hex::encode(id.key.to_bytes()))
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(id)
            }
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Where the identity is kept: `$SANDTABLE_IDENTITY`, else the user's config folder
    /// (`$XDG_CONFIG_HOME/sandtable/identity.key`, `~/.config/sandtable/identity.key`).
    pub fn default_path() -> PathBuf {
        if let Some(p) = std::env::var_os("SANDTABLE_IDENTITY") {
            return PathBuf::from(p);
        }
        let base = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
            .unwrap_or_else(|| PathBuf::from("."));
        base.join("sandtable").join("identity.key")
    }
}

/// Does `signature_hex` sign `bytes` under the public key `public_hex`?
pub fn verify(public_hex: &str, bytes: &[u8], signature_hex: &str) -> bool {
    let Some(pk) = crate::digest::bytes32(public_hex) else {
        return false;
    };
    let Ok(key) = VerifyingKey::from_bytes(&pk) else {
        return false;
    };
    let Ok(sig) = hex::decode(signature_hex) else {
        return false;
    };
    let Ok(sig) = <[u8; 64]>::try_from(sig.as_slice()) else {
        return false;
    };
    key.verify(bytes, &Signature::from_bytes(&sig)).is_ok()
}

/// Is `public_hex` an ed25519 public key (64 hex digits of a valid point)?
pub fn valid_key(public_hex: &str) -> bool {
    crate::digest::bytes32(public_hex).is_some_and(|b| VerifyingKey::from_bytes(&b).is_ok())
}
