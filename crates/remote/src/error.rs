//! Why a turn file or message was refused: always naming the file and, where one is at fault,
//! the command.

/// A refusal: the file (its path, or "turn file #k" for a message), the command at fault (its
/// number in the whole battle, from 1) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {why}", .command.map(|c| format!(": command #{c}")).unwrap_or_default())]
pub struct RemoteError {
    pub file: String,
    pub command: Option<usize>,
    pub why: String,
}

impl RemoteError {
    pub fn new(file: impl Into<String>, why: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            command: None,
            why: why.into(),
        }
    }

    /// The same refusal, naming the command (0-based index in the battle's log).
    pub fn at(mut self, index: usize) -> Self {
        self.command = Some(index + 1);
        self
    }
}
