//! Errors from loading data files. Their `Display` is the form the CLI prints and the app shows:
//! `FILE:LINE:COL: message` for syntax, `FILE: <entity>: message` for meaning.

use std::fmt;
use std::path::PathBuf;

/// One thing wrong with the meaning of an otherwise well-formed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What is at fault, as a reader would find it in the file: `unit "hussars-1"`, `terrain #3`.
    pub entity: String,
    pub message: String,
}

impl Problem {
    pub fn new(entity: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            entity: entity.into(),
            message: message.into(),
        }
    }
}

/// Why a file could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The file could not be read at all (missing, unreadable, too large, not UTF-8).
    Io { file: PathBuf, message: String },
    /// The text is not valid RON for the expected structure.
    Syntax {
        file: PathBuf,
        line: usize,
        col: usize,
        message: String,
    },
    /// The structure is valid but its content is not; every problem found is listed.
    Semantic {
        file: PathBuf,
        problems: Vec<Problem>,
    },
}

impl LoadError {
    pub fn file(&self) -> &PathBuf {
        match self {
            LoadError::Io { file, .. }
            | LoadError::Syntax { file, .. }
            | LoadError::Semantic { file, .. } => file,
        }
    }

    /// One line per problem, in the `FILE:LINE:COL: message` / `FILE: entity: message` forms.
    pub fn lines(&self) -> Vec<String> {
        match self {
            LoadError::Io { file, message } => vec![format!("{}: {message}", file.display())],
            LoadError::Syntax {
                file,
                line,
                col,
                message,
            } => {
                vec![format!("{}:{line}:{col}: {message}", file.display())]
            }
            LoadError::Semantic { file, problems } => problems
                .iter()
                .map(|p| format!("{}: {}: {}", file.display(), p.entity, p.message))
                .collect(),
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.lines().join("\n"))
    }
}

impl std::error::Error for LoadError {}
