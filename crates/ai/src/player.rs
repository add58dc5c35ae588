//! The players a seat can have, behind one interface.

use crate::{RandomPlayer, ScriptedPlayer, SearchPlayer};
use sandtable_bfs::state::Game;
use sandtable_bfs::{Bfs, Command};
use sandtable_engine::Ruleset;

/// Who controls a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerKind {
    /// The search player.
    Ai,
    Random,
    Scripted,
    /// Follows the script's standing orders and otherwise waits (tutorials).
    Passive,
}

impl std::str::FromStr for PlayerKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "ai" => Ok(PlayerKind::Ai),
            "random" => Ok(PlayerKind::Random),
            "scripted" => Ok(PlayerKind::Scripted),
            "passive" => Ok(PlayerKind::Passive),
            other => Err(format!(
                "unknown player \"{other}\": use ai, random, scripted or passive"
            )),
        }
    }
}

pub enum Player {
    Ai(SearchPlayer),
    Random(RandomPlayer),
    Scripted,
    Passive,
}

impl Player {
    pub fn new(kind: PlayerKind, seed: u64) -> Self {
        match kind {
            PlayerKind::Ai => Player::Ai(SearchPlayer::new(seed)),
            PlayerKind::Random => Player::Random(RandomPlayer::new(seed)),
            PlayerKind::Scripted => Player::Scripted,
            PlayerKind::Passive => Player::Passive,
        }
    }

    /// The command for `seat`, decided from that seat's view of `state` only.
    pub fn choose(&mut self, state: &Game, seat: u8) -> Option<Command> {
        let view = Bfs::view(state, seat);
        match self {
            Player::Ai(p) => p.choose(&view),
            Player::Random(p) => p.choose(&view),
            Player::Scripted => ScriptedPlayer::choose(&view),
            Player::Passive => crate::PassivePlayer::choose(&view),
        }
    }
}
