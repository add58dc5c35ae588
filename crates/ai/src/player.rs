//! The players a seat can have, by name, for any ruleset with an [`Evaluate`].

use crate::evaluate::Evaluate;
use crate::search::Level;
use crate::{PassivePlayer, RandomPlayer, ScriptedPlayer, SearchPlayer};
use sandtable_engine::{AnyPlayer, Player, Ruleset, Seat, Teach, TypedPlayer};

/// Who controls a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerKind {
    /// The search player, at a level of play.
    Ai(Level),
    Random,
    Scripted,
    /// Follows the script's standing orders and otherwise waits (tutorials).
    Passive,
    /// The computer opponent of 2026-11-26, frozen (`sandtable-ai-baseline`): the yardstick.
    Baseline,
}

impl PlayerKind {
    /// The search player at its default level, as "ai" names it.
    pub const AI: PlayerKind = PlayerKind::Ai(Level::Veteran);
}

impl std::str::FromStr for PlayerKind {
    type Err = String;
    /// "ai" (the default level), "ai:recruit", "ai:veteran", "ai:general", "baseline",
    /// "random", "scripted" or "passive".
    fn from_str(s: &str) -> Result<Self, String> {
        if let Some(level) = s.strip_prefix("ai:") {
            return level.parse().map(PlayerKind::Ai);
        }
        match s {
            "ai" => Ok(PlayerKind::AI),
            "random" => Ok(PlayerKind::Random),
            "scripted" => Ok(PlayerKind::Scripted),
            "passive" => Ok(PlayerKind::Passive),
            "baseline" => Ok(PlayerKind::Baseline),
            other => Err(format!(
                "unknown player \"{other}\": use ai (or ai:recruit, ai:veteran, ai:general), baseline, random, scripted or passive"
            )),
        }
    }
}

/// A player of any kind for ruleset `R`, judged by `E` when it searches.
pub enum AiPlayer<R: Ruleset + Teach, E: Evaluate<R> + 'static> {
    Search(Box<SearchPlayer<R, E>>),
    Random(RandomPlayer),
    Scripted,
    Passive,
    /// The frozen baseline, or another player the ruleset hands over whole.
    Boxed(Box<dyn Player<R>>),
}

impl<R: Ruleset + Teach, E: Evaluate<R> + 'static> AiPlayer<R, E> {
    /// The player named `kind`; an error where the ruleset has no such player.
    pub fn new(kind: PlayerKind, seed: u64) -> Result<Self, String> {
        Ok(match kind {
            PlayerKind::Ai(level) => {
                AiPlayer::Search(Box::new(SearchPlayer::new(seed).at_level(level)))
            }
            PlayerKind::Random => AiPlayer::Random(RandomPlayer::new(seed)),
            PlayerKind::Scripted => AiPlayer::Scripted,
            PlayerKind::Passive => AiPlayer::Passive,
            PlayerKind::Baseline => {
                AiPlayer::Boxed(E::baseline(seed).ok_or("this ruleset has no baseline player")?)
            }
        })
    }

    /// The command for `seat`, decided from that seat's view of `state` only.
    pub fn choose_from(&mut self, state: &R::State, seat: Seat) -> Option<R::Command> {
        let view = R::view(state, seat);
        self.choose(&view, seat)
    }
}

impl<R: Ruleset + Teach, E: Evaluate<R> + 'static> Player<R> for AiPlayer<R, E> {
    fn choose(&mut self, view: &R::State, seat: Seat) -> Option<R::Command> {
        match self {
            AiPlayer::Search(p) => p.choose(view, seat),
            AiPlayer::Random(p) => Player::<R>::choose(p, view, seat),
            AiPlayer::Scripted => Player::<R>::choose(&mut ScriptedPlayer, view, seat),
            AiPlayer::Passive => Player::<R>::choose(&mut PassivePlayer, view, seat),
            AiPlayer::Boxed(p) => p.choose(view, seat),
        }
    }

    fn explain_last(&self) -> Option<String> {
        match self {
            AiPlayer::Search(p) => p.explain_last(),
            AiPlayer::Boxed(p) => p.explain_last(),
            _ => None,
        }
    }

    fn coach(&mut self, view: &R::State, seat: Seat, cmd: &R::Command) -> Option<String> {
        match self {
            AiPlayer::Search(p) => p.coach(view, seat, cmd),
            _ => None,
        }
    }
}

/// The player named `kind` for ruleset `R`, erased for the app and the CLI (what their ruleset
/// registration hands the engine's registry).
pub fn any_player<R: Ruleset + Teach, E: Evaluate<R> + 'static>(
    kind: &str,
    seed: u64,
) -> Result<Box<dyn AnyPlayer>, String> {
    let kind: PlayerKind = kind.parse()?;
    Ok(TypedPlayer::<R, AiPlayer<R, E>>::boxed(AiPlayer::new(
        kind, seed,
    )?))
}
