//! Reading RON data files without trusting them.
//!
//! Every file the program reads (scenario, army list, save) comes through here. Hostile input is
//! refused quickly and with bounded memory: the size is capped before reading, the bytes must be
//! UTF-8, and nesting is limited so that a file nested thousands deep cannot overflow the stack.

use crate::problem::LoadError;
use serde::de::DeserializeOwned;
use std::io::Read;
use std::path::Path;

/// Largest data file we accept. Real scenarios and saves are a few hundred kilobytes at most.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Deepest RON nesting we accept; real files nest fewer than ten levels.
pub const MAX_NESTING: usize = 64;

/// Reads a file as UTF-8 text, refusing files over [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let io = |message: String| LoadError::Io {
        file: path.to_path_buf(),
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| io(format!("cannot open: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| io(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(io("not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(io(format!(
            "file is {} bytes; the limit is {MAX_FILE_BYTES} bytes",
            meta.len()
        )));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // Read at most one byte past the cap in case the file grew after the metadata call.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| io(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(io(format!(
            "file is larger than the limit of {MAX_FILE_BYTES} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let (line, col) = line_col(&String::from_utf8_lossy(&e.into_bytes()[..at]), at);
        io(format!(
            "not UTF-8 text (invalid byte at line {line}, column {col})"
        ))
    })
}

/// Parses RON text into `T`, naming `path` and the line and column of any syntax error.
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, LoadError> {
    let options = ron::Options::default().with_recursion_limit(MAX_NESTING);
    options.from_str::<T>(text).map_err(|e| LoadError::Syntax {
        file: path.to_path_buf(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: describe_ron_error(&e.code),
    })
}

/// Reads and parses a RON file.
pub fn read_ron<T: DeserializeOwned>(path: &Path) -> Result<T, LoadError> {
    let text = read_text(path)?;
    parse_ron(path, &text)
}

/// Serialises `value` as pretty RON.
pub fn to_ron_pretty<T: serde::Serialize>(value: &T) -> Result<String, String> {
    let config = ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("  ".to_string());
    ron::Options::default()
        .to_string_pretty(value, config)
        .map_err(|e| e.to_string())
}

/// Writes `text` to `path` atomically: a temporary file in the same folder, flushed, then renamed
/// over the target, so that a crash never leaves a half-written file in place of a good one.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

fn describe_ron_error(code: &ron::Error) -> String {
    let s = code.to_string();
    match code {
        ron::Error::ExceededRecursionLimit => {
            format!("nesting is deeper than the limit of {MAX_NESTING} levels")
        }
        _ => s,
    }
}

/// 1-based line and column of byte offset `at` in `text`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Sample {
        name: String,
        size: u32,
    }

    #[test]
    fn syntax_error_names_line_and_column() {
        let err = parse_ron::<Sample>(Path::new("x.ron"), "(\n  name: \"a\",\n  size: -,\n)")
            .unwrap_err();
        match err {
            LoadError::Syntax { line, col, .. } => {
                assert_eq!(line, 3);
                assert!((7..=10).contains(&col), "column {col}");
            }
            other => panic!("expected a syntax error, got {other:?}"),
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let text = "[".repeat(10_000) + &"]".repeat(10_000);
        let err = parse_ron::<ron::Value>(Path::new("deep.ron"), &text).unwrap_err();
        assert!(err.to_string().contains("nesting"), "{err}");
    }

    #[test]
    fn atomic_write_replaces_file() {
        let dir = std::env::temp_dir().join(format!("sandtable-atomic-{}", std::process::id()));
        let path = dir.join("f.ron");
        write_atomic(&path, "one").unwrap();
        write_atomic(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let leftovers: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn invalid_utf8_is_refused() {
        let dir = std::env::temp_dir().join(format!("sandtable-utf8-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.ron");
        std::fs::write(&path, b"(name: \"\xff\xfe\")").unwrap();
        let err = read_ron::<Sample>(&path).unwrap_err();
        assert!(err.to_string().contains("not UTF-8"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
