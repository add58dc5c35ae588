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

/// Reads a file as UTF-8 text, refusing anything but a regular file and files over
/// [`MAX_FILE_BYTES`].
///
/// The kind of file is checked before it is opened: opening a named pipe (FIFO) for reading
/// blocks until a writer appears, so a FIFO called `x.ron` would hang every loader. On Unix the
/// file is also opened non-blocking, in case it was swapped for a pipe between the check and
/// the open, and checked again once open.
pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let io = |message: String| LoadError::Io {
        file: path.to_path_buf(),
        message,
    };
    let kind = std::fs::metadata(path).map_err(|e| io(format!("cannot open: {e}")))?;
    if !kind.is_file() {
        return Err(io(not_regular(&kind)));
    }
    let file = open_for_reading(path).map_err(|e| io(format!("cannot open: {e}")))?;
    let meta = file
        .metadata()
        .map_err(|e| io(format!("cannot read: {e}")))?;
    if !meta.is_file() {
        return Err(io(not_regular(&meta)));
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

/// What a path that is not a regular file is, in words.
fn not_regular(meta: &std::fs::Metadata) -> String {
    let what = if meta.is_dir() {
        "a folder"
    } else {
        special_kind(meta)
    };
    format!("not a regular file ({what})")
}

#[cfg(unix)]
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::Metadata) -> &'static str {
    "a special file"
}

/// Opens a file for reading without ever blocking on a pipe.
#[cfg(unix)]
fn open_for_reading(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    /// `O_NONBLOCK` on Linux and the BSDs; harmless on regular files.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    const O_NONBLOCK: i32 = 0o4000;
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    const O_NONBLOCK: i32 = 0x0004;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_for_reading(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
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
    let tmp = write_temp_beside(path, text)?;
    std::fs::rename(&tmp, path)
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
        .and_then(|()| sync_folder(path))
}

/// Writes `text` to `path` atomically and keeps the file it replaces as `previous`.
///
/// The order matters for a kill at any moment: the new text is complete on disk before anything
/// is moved; the previous file is then copied aside by a hard link (also atomic), and only then
/// does the new file take its name. So `path` always holds either the old or the new text, whole,
/// and `previous` holds an older whole one or nothing.
pub fn write_atomic_keeping_previous(
    path: &Path,
    previous: &Path,
    text: &str,
) -> std::io::Result<()> {
    let tmp = write_temp_beside(path, text)?;
    let cleanup = |e: std::io::Error| {
        let _ = std::fs::remove_file(&tmp);
        e
    };
    if path.is_file() {
        let aside = temp_name(previous);
        let _ = std::fs::remove_file(&aside);
        std::fs::hard_link(path, &aside)
            .or_else(|_| std::fs::copy(path, &aside).map(|_| ()))
            .and_then(|()| std::fs::rename(&aside, previous))
            .map_err(cleanup)?;
    }
    std::fs::rename(&tmp, path).map_err(cleanup)?;
    sync_folder(path)
}

/// Removes temporary files that [`write_atomic`] left beside `path` when a process was killed
/// mid-write (they are named `.NAME.PID.tmp`). Returns how many were removed.
pub fn remove_stale_temps(folder: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    let own = format!(".{}.tmp", std::process::id());
    entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with('.') && name.ends_with(".tmp") && !name.ends_with(&own)
        })
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter(|e| std::fs::remove_file(e.path()).is_ok())
        .count()
}

/// `.NAME.PID.tmp` beside `path`.
fn temp_name(path: &Path) -> std::path::PathBuf {
    let dir = folder_of(path);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    dir.join(format!(".{name}.{}.tmp", std::process::id()))
}

fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Writes and flushes `text` to a temporary file beside `path`; returns its name.
fn write_temp_beside(path: &Path, text: &str) -> std::io::Result<std::path::PathBuf> {
    use std::io::Write;
    std::fs::create_dir_all(folder_of(path))?;
    let tmp = temp_name(path);
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()
    })();
    written.inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    Ok(tmp)
}

/// Flushes the folder entry after a rename, so the new name survives a power cut (Unix; a no-op
/// elsewhere).
fn sync_folder(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        if let Ok(dir) = std::fs::File::open(folder_of(path)) {
            let _ = dir.sync_all();
        }
    }
    let _ = path;
    Ok(())
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
    fn a_folder_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("sandtable-dir-{}.ron", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = read_text(&dir).unwrap_err();
        assert!(
            err.to_string().contains("not a regular file (a folder)"),
            "{err}"
        );
        assert!(
            err.to_string().contains(&dir.display().to_string()),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A named pipe would block `open` for ever; it is refused before it is opened.
    #[cfg(unix)]
    #[test]
    fn a_named_pipe_is_refused_without_hanging() {
        let dir = std::env::temp_dir().join(format!("sandtable-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("x.ron");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("mkfifo is not available; skipped");
            return;
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || tx.send(read_text(&path).map(|_| ())));
        let result = rx
            .recv_timeout(std::time::Duration::from_secs(5))
            .expect("reading a FIFO must not block");
        let err = result.unwrap_err();
        assert!(err.to_string().contains("named pipe"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn keeping_the_previous_file_leaves_both_whole() {
        let dir = std::env::temp_dir().join(format!("sandtable-prev-{}", std::process::id()));
        let (path, prev) = (dir.join("autosave.ron"), dir.join("autosave.prev.ron"));
        write_atomic_keeping_previous(&path, &prev, "one").unwrap();
        assert!(!prev.exists(), "nothing to keep the first time");
        write_atomic_keeping_previous(&path, &prev, "two").unwrap();
        write_atomic_keeping_previous(&path, &prev, "three").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "three");
        assert_eq!(std::fs::read_to_string(&prev).unwrap(), "two");
        std::fs::write(dir.join(".autosave.ron.999999.tmp"), "half").unwrap();
        assert_eq!(remove_stale_temps(&dir), 1);
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
