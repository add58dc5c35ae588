//! What the game is waiting for, in words a newcomer understands (the phase bar and the AI read it).

use crate::phases::movement;
use crate::state::Game;
use crate::turn::{Bid, CombatStage, Phase};
use sandtable_engine::Prompt;

/// The seat that decides now, without wording the prompt (which may look across the table, as
/// the Movement prompt's BFS-CHG-27 reminder does): a session asks it around every command.
pub fn deciding(game: &Game) -> Option<u8> {
    match &game.turn.phase {
        Phase::InitiativeBids { bids } => Some(if bids[0] == Bid::Waiting {
            crate::ids::Side::A.0
        } else {
            crate::ids::Side::B.0
        }),
        Phase::InitiativeChoice { winner } => Some(winner.0),
        Phase::Orders { acting, .. } => Some(acting.0),
        Phase::Movement {
            charge: Some(c), ..
        } => {
            if let Some(cm) = c.commander {
                return Some(game.commander(cm).side.0);
            }
            let reactor = c.answering();
            Some(game.unit(reactor).side.0)
        }
        Phase::Movement { acting, .. } => Some(acting.0),
        Phase::Combat(_) => game.turn.initiative.map(|s| s.0),
        Phase::GameOver => None,
    }
}

pub fn prompt(game: &Game) -> Prompt {
    let turn = game.turn.number;
    let seat = deciding(game);
    let p = |phase: &str, step: &str, expected: String, secret: bool| Prompt {
        turn,
        turn_limit: Some(game.info.turn_limit),
        phase: phase.into(),
        step: step.into(),
        seat,
        expected,
        secret,
    };
    let name = |s: crate::ids::Side| game.side(s).name.clone();
    match &game.turn.phase {
        Phase::InitiativeBids { bids } => {
            let side = if bids[0] == Bid::Waiting {
                crate::ids::Side::A
            } else {
                crate::ids::Side::B
            };
            let max = crate::phases::initiative::max_bid(game, side);
            p(
                "Initiative",
                "Secret bid",
                format!(
                    "{}: secretly bid 0–{max} of your commander-in-chief's CP; each adds +2 to your Initiative roll (BFS-INI-2).",
                    name(side)
                ),
                true,
            )
        }
        Phase::InitiativeChoice { winner } => p(
            "Initiative",
            "Keep or hand over",
            if game.turn.number == 1 && game.info.first_initiative == Some(*winner) {
                format!(
                    "{} has the Initiative in turn 1 as the Weaker side (BFS-SCN-15): keep it (act first this turn) or hand it over (A-22).",
                    name(*winner)
                )
            } else {
                format!(
                    "{} won the Initiative: keep it (act first this turn) or hand it over (BFS-INI-4).",
                    name(*winner)
                )
            },
            false,
        ),
        Phase::Orders { acting, .. } if crate::turn_one::in_confusion_window(game) => {
            let left = game.info.confusion_changes.map_or(0, |c| c.left);
            p(
                "Orders",
                "Confusion: change orders",
                format!(
                    "{}: Confusion lets you change {left} of your orders already given, paying CP for each new one (BFS-SCN-44); then end your Orders.",
                    name(*acting)
                ),
                true,
            )
        }
        Phase::Orders { acting, .. } => p(
            "Orders",
            "Orders, rallies, transfers",
            format!(
                "{}: place face-down orders (Move, Charge, Defense), rally or reorganise units, transfer CP; then end your Orders{}.",
                name(*acting),
                if crate::phases::orders::orders_are_free(game) {
                    " (starting orders are free this turn, BFS-ORD-15)"
                } else {
                    ""
                }
            ),
            true,
        ),
        Phase::Movement {
            acting,
            charge: Some(c),
            ..
        } if c.commander.is_some() => {
            let cm = c.commander.map(|x| game.commander(x).name.clone());
            p(
                "Movement",
                "Charge reaction",
                format!(
                    "{} is charged by {}: stand, Break Off or join a unit (BFS-CDR-8).",
                    cm.unwrap_or_default(),
                    game.unit(c.charger).name
                ),
                true,
            )
            .with_acting(*acting)
        }
        Phase::Movement {
            acting,
            charge: Some(c),
            ..
        } => {
            let reactor = c.answering();
            let expected = if c.reactions.is_empty()
                && crate::break_off::check(game, reactor).is_ok()
            {
                format!(
                    "{} is charged by {}: stand, Break Off or react as its order allows (BFS-CHG-12, BFS-SPC-16).",
                    game.unit(reactor).name,
                    game.unit(c.charger).name
                )
            } else if c.reactions.is_empty() {
                format!(
                    "{} is charged by {}: stand, countercharge or hold fire (BFS-CHG-12).",
                    game.unit(reactor).name,
                    game.unit(c.charger).name
                )
            } else {
                format!(
                    "{} stands in the path of {}'s countercharge: stand, or countercharge it (BFS-AMV-1).",
                    game.unit(reactor).name,
                    game.unit(c.target).name
                )
            };
            p("Movement", "Charge reaction", expected, true).with_acting(*acting)
        }
        Phase::Movement { acting, .. } => {
            let left = movement::units_to_activate(game).len();
            let must = movement::must_still_charge(game, *acting);
            let expected = if let Some(u) = must.first() {
                format!(
                    "{}: {} has a Charge order and must charge (BFS-CHG-27); {left} unit(s) still to act.",
                    name(*acting),
                    game.unit(*u).name
                )
            } else {
                format!(
                    "{}: move your units one at a time ({left} still to act), then end your Movement.",
                    name(*acting)
                )
            };
            p("Movement", "Move units", expected, false)
        }
        Phase::Combat(stage) => {
            let step = match stage {
                CombatStage::DefendersFire => "Defender's Fire",
                CombatStage::CloseCombat => "Close Combat",
                CombatStage::ShootingAfterMovement => "Shooting after Movement",
            };
            p(
                "Combat",
                step,
                format!("Resolve {step} (BFS-CBT-2)."),
                false,
            )
        }
        Phase::GameOver => p("Game over", "", "The battle is over.".into(), false),
    }
}

trait WithActing {
    fn with_acting(self, acting: crate::ids::Side) -> Self;
}

impl WithActing for Prompt {
    /// The reaction prompt belongs to the moving side's phase; nothing else changes.
    fn with_acting(self, _acting: crate::ids::Side) -> Self {
        self
    }
}
