//! Every event in words, with its dice for the dice panel. Bids stay secret until both are in:
//! the event of a placed bid carries no amount.

use super::table::{leader_piece, unit_piece};
use crate::event::Event;
use crate::state::{Defence, Facing, Game, INCH, UnitId};
use sandtable_engine::Seat;
use sandtable_engine::narration::{DiceReport, LineStyle, Narration, RollReport};

fn name(g: &Game, u: UnitId) -> String {
    g.units
        .get(u.0 as usize)
        .map_or("?".into(), |x| x.name.clone())
}

fn dice(
    heading: String,
    detail: &str,
    rolls: Vec<RollReport>,
    outcome: Vec<String>,
) -> Option<DiceReport> {
    Some(DiceReport {
        heading,
        detail: detail.into(),
        rolls,
        outcome,
    })
}

pub fn narrate(g: &Game, _seat: Option<Seat>, e: &Event) -> Narration {
    let side = |s: u8| g.side_names[s as usize].clone();
    let mut n = Narration::default();
    let unit_pieces = |units: &[UnitId]| units.iter().map(|u| unit_piece(*u)).collect::<Vec<_>>();
    match e {
        Event::PeriodBegan { period } => {
            n.text = format!("Period {period} of {} (NQ-SEQ-1)", g.periods);
            n.style = LineStyle::Heading;
            n.turn_began = Some(*period);
        }
        Event::OutOfCommand { units } => {
            n.text = format!(
                "Out of command (step 1, G5): {}",
                units
                    .iter()
                    .map(|u| name(g, *u))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            n.pieces = unit_pieces(units);
        }
        Event::BidPlaced { side: s } => {
            n.text = format!("{} has bid in secret (NQ-SEQ-2)", side(*s))
        }
        Event::BidsRevealed {
            bids,
            winner,
            tie_rolls,
            paid,
        } => {
            n.text = format!(
                "Bids revealed: {} {}, {} {}{}; {} wins the bid and pays {} (G3)",
                side(0),
                bids[0],
                side(1),
                bids[1],
                if tie_rolls.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; tie broken by D6 roll-off {}",
                        tie_rolls
                            .iter()
                            .map(|(a, b)| format!("{a}–{b}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                },
                side(*winner),
                paid[*winner as usize]
            );
            n.style = LineStyle::Aside;
        }
        Event::SideChosen { side_a } => {
            n.text = format!(
                "{} is side A this period, {} side D (NQ-SEQ-3)",
                side(*side_a),
                side(1 - side_a)
            );
            n.style = LineStyle::Aside;
        }
        Event::Activated { unit } => {
            n.text = format!("{} is activated", name(g, *unit));
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Stood { unit } => {
            n.text = format!("{} stands, keeping its actions (NQ-SEQ-3)", name(g, *unit));
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Moved {
            unit, inches, road, ..
        } => {
            n.text = format!(
                "{} moves {inches:.1}\"{}",
                name(g, *unit),
                if *road { " by road" } else { "" }
            );
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::FormationChanged { unit, from, to } => {
            n.text = format!(
                "{} changes from {} to {} (G2)",
                name(g, *unit),
                from.name(),
                to.name()
            );
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Faced { unit, bearing } => {
            n.text = format!("{} turns to face {bearing:.0}° (G2)", name(g, *unit));
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Volley {
            unit,
            target,
            canister,
            report,
            removed,
        } => {
            let what = if *canister {
                "fires canister at"
            } else {
                "fires at"
            };
            n.text = format!(
                "{} {what} {}: {removed} figure(s) removed",
                name(g, *unit),
                name(g, *target)
            );
            n.pieces = vec![unit_piece(*unit), unit_piece(*target)];
            n.dice = dice(
                format!("{} {what} {}", name(g, *unit), name(g, *target)),
                if *canister {
                    "Canister (NQ-ART-2)"
                } else {
                    "Musketry (NQ-FIRE-1)"
                },
                vec![report.clone()],
                vec![format!("{removed} figure(s) removed")],
            );
        }
        Event::SolidShot { unit, hits, .. } => {
            let total: u32 = hits.iter().map(|h| h.removed).sum();
            n.text = format!(
                "{} fires solid shot: {}",
                name(g, *unit),
                if hits.is_empty() {
                    "nothing stands on the bounce".to_string()
                } else {
                    hits.iter()
                        .map(|h| format!("{} loses {}", name(g, h.unit), h.removed))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            );
            n.pieces = std::iter::once(unit_piece(*unit))
                .chain(hits.iter().map(|h| unit_piece(h.unit)))
                .collect();
            n.dice = dice(
                format!("{} fires solid shot", name(g, *unit)),
                "Solid shot (NQ-ART-3..8)",
                hits.iter()
                    .map(|h| {
                        let mut r = h.report.clone();
                        r.label = format!("{} — {}", name(g, h.unit), r.label);
                        r
                    })
                    .collect(),
                vec![format!("{total} figure(s) removed")],
            );
        }
        Event::Ammunition { unit, state, .. } => {
            n.text = format!(
                "{} rolls a 6 for ammunition: {} (NQ-ART-9)",
                name(g, *unit),
                state.name()
            );
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Charged {
            unit,
            target,
            facing,
            inches,
        } => {
            n.text = format!(
                "{} charges {} {} ({inches:.1}\"): the close action is fought at step 9 (NQ-CA-1)",
                name(g, *unit),
                name(g, *target),
                match facing {
                    Facing::Front => "in front",
                    Facing::Flank => "in the flank",
                    Facing::Rear => "in the rear",
                }
            );
            n.pieces = vec![unit_piece(*unit), unit_piece(*target)];
        }
        Event::UnitFinished { unit } => {
            n.text = format!("{} has finished", name(g, *unit));
            n.style = LineStyle::Aside;
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::ActivationsEnded { side: s } => {
            n.text = format!("{} (A) ends its activations (NQ-SEQ-1 step 7)", side(*s));
            n.style = LineStyle::Aside;
        }
        Event::LeaderMoved { leader, from, to } => {
            let l = &g.leaders[leader.0 as usize];
            n.text = format!(
                "{} rides {:.1}\" (NQ-MOV-5)",
                l.name,
                (*to - *from).length() / INCH
            );
            n.pieces = vec![leader_piece(*leader)];
        }
        Event::LeadersDone { side: s } => {
            n.text = format!("{} has moved its leaders (step 8)", side(*s));
            n.style = LineStyle::Aside;
        }
        Event::CloseActionsBegan { count } => {
            n.text = format!("Step 9: {count} close action(s) (NQ-CA-1)");
            n.style = LineStyle::Aside;
        }
        Event::MoraleCheck {
            unit,
            why,
            report,
            passed,
        } => {
            n.text = format!(
                "{} {} a morale check: {why}",
                name(g, *unit),
                if *passed { "passes" } else { "fails" }
            );
            n.pieces = vec![unit_piece(*unit)];
            n.dice = dice(
                format!("{}: morale check", name(g, *unit)),
                "Morale (NQ-MOR-1, NQ-MOR-2, G7)",
                vec![report.clone()],
                vec![if *passed {
                    "passed".into()
                } else {
                    "failed".into()
                }],
            );
        }
        Event::DefenceTaken { unit, choice } => {
            n.text = format!(
                "{} takes a defence action: {} (NQ-CA-1 step 4)",
                name(g, *unit),
                match choice {
                    Defence::None => "none".to_string(),
                    Defence::Fire => "fire".into(),
                    Defence::Face => "face the charge".into(),
                    Defence::Form(f) => format!("form {}", f.name()),
                }
            );
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Melee {
            charger,
            target,
            reports,
            winner,
        } => {
            n.text = format!(
                "Melee: {} against {}: {} wins (NQ-CA-2)",
                name(g, *charger),
                name(g, *target),
                name(g, *winner)
            );
            n.pieces = vec![unit_piece(*charger), unit_piece(*target)];
            n.dice = dice(
                format!("{} against {}", name(g, *charger), name(g, *target)),
                "Close action: D6 × melee value (NQ-CA-2, NQ-CA-3)",
                reports.clone(),
                vec![format!("{} wins", name(g, *winner))],
            );
        }
        Event::Casualties {
            unit,
            report,
            removed,
        } => {
            n.text = format!(
                "{} loses {removed} figure(s) in the close action (NQ-CA-4)",
                name(g, *unit)
            );
            n.pieces = vec![unit_piece(*unit)];
            n.dice = dice(
                format!("Casualties on {}", name(g, *unit)),
                "Close action casualty chart (NQ-CA-4)",
                vec![report.clone()],
                vec![format!("{removed} figure(s) lost")],
            );
        }
        Event::RiddenDown { unit, by } => {
            n.text = format!(
                "{} is ridden down by {} (NQ-CA-6)",
                name(g, *unit),
                name(g, *by)
            );
            n.pieces = vec![unit_piece(*unit), unit_piece(*by)];
        }
        Event::Repulsed { unit, why } => {
            n.text = format!(
                "{} cannot ride them down: {why}; it retreats",
                name(g, *unit)
            );
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Halted { unit } => {
            n.text = format!("{} halts 3\" short (NQ-CA-1 step 5)", name(g, *unit));
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Retreated {
            unit,
            to_reform,
            report,
            ..
        } => {
            n.text = format!(
                "{} retreats; {to_reform} action(s) to reform (G8, NQ-MOR-3)",
                name(g, *unit)
            );
            n.pieces = vec![unit_piece(*unit)];
            n.dice = report.as_ref().and_then(|r| {
                dice(
                    format!("{}: reform roll", name(g, *unit)),
                    "Reform roll (NQ-MOR-3, NQ-MOR-4)",
                    vec![r.clone()],
                    vec![format!("{to_reform} action(s)")],
                )
            });
        }
        Event::Routed { unit } => {
            n.text = format!("{} routs and will leave the field (G8)", name(g, *unit));
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Disordered { unit } => {
            n.text = format!("{} is disordered (NQ-CA-1 step 4)", name(g, *unit));
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Reformed { unit, left } => {
            n.text = if *left == 0 {
                format!("{} reforms (G8)", name(g, *unit))
            } else {
                format!(
                    "{} spends an action reforming: {left} more (G8)",
                    name(g, *unit)
                )
            };
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::FatigueChanged { unit, level } => {
            n.text = format!("{} is now {} (NQ-FAT-1)", name(g, *unit), level.name());
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::LeaderKilled { leader, report } => {
            n.text = format!(
                "{} falls with the routing unit (G6)",
                g.leaders[leader.0 as usize].name
            );
            n.pieces = vec![leader_piece(*leader)];
            n.dice = dice(
                n.text.clone(),
                "Leader loss (G6)",
                vec![report.clone()],
                vec!["killed".into()],
            );
        }
        Event::LeftTable { unit } => {
            n.text = format!("{} leaves the field (step 11)", name(g, *unit));
            n.pieces = vec![unit_piece(*unit)];
        }
        Event::Message { text } => n.text = text.clone(),
        Event::BattleEnded { winner, reason } => {
            n.text = format!(
                "The battle is over: {} — {reason}",
                winner.map_or("a draw".to_string(), |w| format!("{} wins", side(w)))
            );
            n.style = LineStyle::Heading;
        }
    }
    n
}
