//! Odds before a roll: the rules' exact distributions as bar charts, and the volleys the next
//! shooting stage will fire (BFS-SHO), shown before the stage is resolved.

use crate::preview::{self, Odds};
use crate::shooting::{self, FireStage};
use crate::state::Game;
use crate::turn::{CombatStage, Phase};
use sandtable_engine::present::OddsChart;

/// A distribution of Strength points lost as a chart.
pub fn odds_chart(o: &Odds) -> OddsChart {
    OddsChart {
        title: o.description.clone(),
        chances: o.losses.clone(),
        counts: "Strength points the target loses".into(),
    }
}

/// Before a shooting stage is resolved: every volley it will fire, with its odds.
pub fn forecast(view: &Game) -> Vec<OddsChart> {
    let stage = match view.turn.phase {
        Phase::Combat(CombatStage::DefendersFire) => FireStage::DefendersFire,
        Phase::Combat(CombatStage::ShootingAfterMovement) => FireStage::AfterMovement,
        _ => return Vec::new(),
    };
    view.units
        .iter()
        .filter(|u| shooting::shoots_in(view, u.id, stage))
        .map(|u| match preview::volley_odds(view, u.id, stage) {
            Some(o) => odds_chart(&o),
            None => OddsChart {
                title: format!(
                    "{} ({}): no target in range and in sight",
                    u.name,
                    stage.name()
                ),
                chances: Vec::new(),
                counts: String::new(),
            },
        })
        .collect()
}
