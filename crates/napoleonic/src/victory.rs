//! The end of the battle (G15): a side breaks when it has lost half its starting figures
//! (casualties and routed units); otherwise the battle ends after its last period, won by the
//! side that took the larger share of the enemy (or drawn, by option).

use crate::options::Timeout;
use crate::state::{Ending, Game};
use sandtable_engine::present::Outcome;

/// A side's losses as a share of its starting figures.
pub fn loss_share(game: &Game, side: u8) -> f32 {
    game.losses(side) as f32 / game.start_figures[side as usize].max(1) as f32
}

/// Has `side` broken (G15)?
pub fn broken(game: &Game, side: u8) -> bool {
    loss_share(game, side) >= game.options.break_fraction - 1e-6
        || game.present_units(side).next().is_none()
}

/// The battle's end, if it has come (checked at step 11).
pub fn ending(game: &Game) -> Option<Ending> {
    let pct = |s: u8| (loss_share(game, s) * 100.0).round();
    let (b0, b1) = (broken(game, 0), broken(game, 1));
    let name = |s: u8| game.side_names[s as usize].clone();
    match (b0, b1) {
        (true, true) => Some(Ending {
            winner: None,
            reason: format!(
                "both sides broke in period {} ({}% and {}% lost, G15)",
                game.period,
                pct(0),
                pct(1)
            ),
        }),
        (true, false) | (false, true) => {
            let loser = if b0 { 0 } else { 1 };
            Some(Ending {
                winner: Some(1 - loser),
                reason: format!(
                    "{} broke, having lost {}% of its figures (G15: {}%)",
                    name(loser),
                    pct(loser),
                    (game.options.break_fraction * 100.0).round()
                ),
            })
        }
        _ if game.period >= game.periods => {
            let (s0, s1) = (loss_share(game, 1), loss_share(game, 0));
            let winner = match game.options.timeout {
                Timeout::Draw => None,
                Timeout::Losses if (s0 - s1).abs() < 1e-6 => None,
                Timeout::Losses => Some(if s0 > s1 { 0 } else { 1 }),
            };
            Some(Ending {
                winner,
                reason: format!(
                    "the last period ({}) is over: {} lost {}%, {} lost {}%",
                    game.periods,
                    name(0),
                    pct(0),
                    name(1),
                    pct(1)
                ),
            })
        }
        _ => None,
    }
}

/// The end screen's table and words.
pub fn outcome(game: &Game) -> Option<Outcome> {
    let end = game.ending.as_ref()?;
    let mut table = vec![vec![
        "Side".to_string(),
        "Figures at start".into(),
        "Lost (routed units whole)".into(),
        "Share lost".into(),
        "Units left".into(),
    ]];
    for s in 0..2u8 {
        table.push(vec![
            game.side_names[s as usize].clone(),
            game.start_figures[s as usize].to_string(),
            game.losses(s).to_string(),
            format!("{:.0}%", loss_share(game, s) * 100.0),
            game.present_units(s).count().to_string(),
        ]);
    }
    let result = match end.winner {
        Some(w) => format!("{} wins", game.side_names[w as usize]),
        None => "draw".into(),
    };
    Some(Outcome {
        winner: end.winner,
        result,
        reason: end.reason.clone(),
        table,
        explanation: format!(
            "A side breaks when it has lost {:.0}% of its starting figures, counting routed units whole (G15). A battle that reaches its last period unbroken goes to the side that took the larger share of the enemy's figures{}.",
            game.options.break_fraction * 100.0,
            if game.options.timeout == Timeout::Draw {
                " (this scenario calls it a draw)"
            } else {
                ""
            }
        ),
    })
}
