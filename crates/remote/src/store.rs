//! A side's files on its own disk, so that a killed program goes on where it stood: the chain
//! (`chain/turn-NNNN.ron`, sent and received) and the private store (`private.ron`: the contents
//! of its sealed commands and its committed nonce, never sent). Every write is atomic, and a
//! file is kept before it is sent.

use crate::error::RemoteError;
use crate::peer::Private;
use crate::verify::NamedFile;
use sandtable_engine::data_file::write_atomic;
use std::path::{Path, PathBuf};

pub struct Store {
    dir: PathBuf,
}

impl Store {
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
        }
    }

    fn chain(&self) -> PathBuf {
        self.dir.join("chain")
    }

    fn private_path(&self) -> PathBuf {
        self.dir.join("private.ron")
    }

    /// The path of file `index` of the chain.
    pub fn file_path(&self, index: usize) -> PathBuf {
        self.chain().join(format!("turn-{index:04}.ron"))
    }

    fn io(&self, path: &Path, e: impl std::fmt::Display) -> RemoteError {
        RemoteError::new(path.display().to_string(), e.to_string())
    }

    /// Keeps file `index` of the chain.
    pub fn keep_file(&self, index: usize, bytes: &[u8]) -> Result<(), RemoteError> {
        std::fs::create_dir_all(self.chain()).map_err(|e| self.io(&self.chain(), e))?;
        let path = self.file_path(index);
        let text = std::str::from_utf8(bytes).map_err(|e| self.io(&path, e))?;
        write_atomic(&path, text).map_err(|e| self.io(&path, e))
    }

    /// Keeps the private store.
    pub fn keep_private(&self, private: &Private) -> Result<(), RemoteError> {
        std::fs::create_dir_all(&self.dir).map_err(|e| self.io(&self.dir, e))?;
        let path = self.private_path();
        let text = ron::ser::to_string_pretty(private, ron::ser::PrettyConfig::default())
            .map_err(|e| self.io(&path, e))?;
        write_private(&path, &text).map_err(|e| self.io(&path, e))
    }

    /// The kept chain, in order, and the private store; `None` when nothing was kept yet.
    pub fn load(&self) -> Result<Option<(Vec<NamedFile>, Private)>, RemoteError> {
        let path = self.private_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.io(&path, e)),
        };
        let private: Private = ron::from_str(&text).map_err(|e| {
            RemoteError::new(
                path.display().to_string(),
                format!(
                    "line {}, column {}: {}",
                    e.span.start.line, e.span.start.col, e.code
                ),
            )
        })?;
        let mut files = Vec::new();
        loop {
            let p = self.file_path(files.len());
            match std::fs::read(&p) {
                Ok(bytes) => files.push((p.display().to_string(), bytes)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                Err(e) => return Err(self.io(&p, e)),
            }
        }
        Ok(Some((files, private)))
    }
}

/// Writes a file only its owner may read (on Unix, mode 0600 from its creation), atomically: a
/// temporary file beside it, then a rename.
pub fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let tmp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut f = options.open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)
}
