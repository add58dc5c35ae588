//! "Why?" for the Napoleonic quick-reference rules: the computer's last command in a sentence,
//! from the rules' previews (the Musket Firing Table, solid shot's damage, a charge's chances)
//! and the search's scores. Like By Fire and Sword's, it speaks from the computer's own view.

use crate::evaluate::{Chosen, Reasoning};
use sandtable_engine::Ruleset;
use sandtable_napoleonic::command::Command;
use sandtable_napoleonic::preview::Preview;
use sandtable_napoleonic::state::Defence;
use sandtable_napoleonic::{Game, Napoleonic};

/// The sentence for `cmd`, chosen by `seat` in `view`.
pub fn why(view: &Game, seat: u8, cmd: &Command, reasoning: &Reasoning<Command>) -> Option<String> {
    let name = |u| view.unit(u).name.clone();
    Some(match cmd {
        Command::Bid { points } => format!(
            "Bid {points} turn points: what it has left, spread over the periods still to come."
        ),
        Command::ChooseSide { be_a: true } => {
            "Chose to be A: two activations to the other side's one (NQ-SEQ-2).".into()
        }
        Command::Defend { choice } => match choice {
            Defence::Form(_) => "Formed square: cavalry is charging infantry (NQ-CA-7).".into(),
            Defence::Fire => "Fired at the charger: a volley before contact may stop it.".into(),
            _ => return None,
        },
        Command::Fire {
            unit,
            target,
            actions,
        } => {
            let Ok(Preview::Fire(plan)) = Napoleonic::preview(view, cmd) else {
                return None;
            };
            let mean = super::expected_figures(&plan);
            format!(
                "{} fires at {} with {actions} action(s): the firing table gives {mean:.1} figures expected off them.",
                name(*unit),
                name(*target)
            )
        }
        Command::SolidShot { unit, .. } => {
            let Ok(Preview::SolidShot(plan)) = Napoleonic::preview(view, cmd) else {
                return None;
            };
            let (theirs, ours) =
                plan.expected_losses()
                    .iter()
                    .fold((0.0, 0.0), |(t, o), (u, e)| {
                        if view.unit(*u).side == seat {
                            (t, o + e)
                        } else {
                            (t + e, o)
                        }
                    });
            format!(
                "{} fires solid shot: {theirs:.1} enemy figures expected along its line, {ours:.1} of its own side's.",
                name(*unit)
            )
        }
        Command::Charge { unit, target } => {
            let Ok(Preview::Charge(o)) = Napoleonic::preview(view, cmd) else {
                return None;
            };
            let success = super::charge_success(&o);
            format!(
                "{} charges {}: {:.0}% to succeed by the rules' chances ({:.0}% that they stand, {:.0}% that it closes if they do).",
                name(*unit),
                name(*target),
                100.0 * success,
                100.0 * o.defender_holds,
                100.0 * o.charger_closes
            )
        }
        Command::Move { unit, .. }
        | Command::Formation { unit, .. }
        | Command::Face { unit, .. }
            if reasoning.how == Chosen::Searched =>
        {
            let gain = reasoning.score.unwrap_or(reasoning.base) - reasoning.base;
            let alt = reasoning
                .runner_up
                .as_ref()
                .map_or(String::new(), |(s, _)| {
                    format!(
                        " The next best of its {} options scored {:.2} less.",
                        reasoning.options.saturating_sub(1),
                        reasoning.score.unwrap_or(0.0) - s
                    )
                });
            let verb = match cmd {
                Command::Move { .. } => "Moved",
                Command::Formation { .. } => "Changed the formation of",
                _ => "Turned",
            };
            format!(
                "{verb} {}: it judged the position {gain:+.2} better for it (figures, fire in hand, distance to the enemy, command).{alt}",
                name(*unit)
            )
        }
        _ => return None,
    })
}
