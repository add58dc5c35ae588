//! "Why?" for By Fire and Sword: the computer's last command in one or two sentences, from the
//! numbers its search used (the rules' odds, the evaluation's terms, the sampled combats). It
//! speaks from the computer's own view, so it names only what that side knows; whether a person
//! may read it (a face-down order may not be explained to the other side) is the app's call.

use super::eval::{self, Breakdown, Matchups};
use super::{Arrival, arrival, melee_odds};
use crate::evaluate::{Chosen, Reasoning};
use sandtable_bfs::command::{Command, Reaction};
use sandtable_bfs::ids::{Side, UnitId};
use sandtable_bfs::state::{Game, OrderKind};
use sandtable_bfs::{Bfs, preview};
use sandtable_engine::Ruleset;

/// The sentence for `cmd`, chosen by `side` in `view`.
pub fn why(
    view: &Game,
    side: Side,
    cmd: &Command,
    reasoning: &Reasoning<Command>,
    matchups: Option<&Matchups>,
) -> Option<String> {
    let name = |u: UnitId| view.unit(u).name.clone();
    Some(match cmd {
        Command::Bid { cp, .. } if *cp > 0 => format!(
            "Bid {cp} CP for the Initiative: orders are free in the first turn, so command points buy most there."
        ),
        Command::Bid { .. } => {
            "Bid nothing for the Initiative: its command points are worth more as orders.".into()
        }
        Command::ChooseInitiative { keep: true } => {
            "Kept the Initiative: acting first chooses where the fighting starts.".into()
        }
        Command::React {
            unit,
            reaction: Reaction::Countercharge,
        } => {
            let (ours, theirs) = melee_odds(view, *unit, charger(view)?);
            format!(
                "{} countercharged: it expected to take {ours:.1} SP off the charger, against {theirs:.1} the charger would take off it (the rules' odds).",
                name(*unit)
            )
        }
        Command::React {
            unit,
            reaction: Reaction::BreakOff,
        } => {
            let (ours, theirs) = melee_odds(view, *unit, charger(view)?);
            format!(
                "{} broke off: the charger expected to take {theirs:.1} SP off it, and it only {ours:.1} back (BFS-SPC-16).",
                name(*unit)
            )
        }
        Command::React {
            unit,
            reaction: Reaction::HoldFire { .. },
        } => format!(
            "{} held its fire: a volley at close range, just before contact, hits harder than one at the charger's start (BFS-CBT-8).",
            name(*unit)
        ),
        // Nothing about the answers it passed over: whether it could have countercharged
        // would tell the other side its face-down order.
        Command::React { unit, .. } => {
            let charger = charger(view)?;
            let theirs = melee_odds(view, *unit, charger).1;
            let ours =
                preview::reply_odds(view, *unit, charger).map_or(0.0, |o| o.expected_losses());
            format!(
                "{} stood to receive the charge: the charger expects to take {theirs:.1} SP off it, and it {ours:.1} back.",
                name(*unit)
            )
        }
        Command::DeclareCharge { unit, target, .. } => charge_why(view, *unit, *target, reasoning)?,
        Command::IssueOrder { unit, order, .. } => order_why(view, side, *unit, *order, matchups),
        Command::GroupOrder { units, order, .. } => format!(
            "One order for {} units at once (BFS-OPT-3). {}",
            units.len(),
            order_why(view, side, *units.first()?, *order, matchups)
        ),
        Command::Rally { unit, .. } => format!(
            "Rallied {}: only a unit in good order can take an order again (BFS-RAL-2).",
            name(*unit)
        ),
        Command::Move { unit, .. } | Command::Maneuver { unit, .. } => {
            move_why(view, side, cmd, &name(*unit), reasoning, matchups?)?
        }
        Command::EndOrders | Command::EndMovement if reasoning.how == Chosen::Searched => {
            let alt = reasoning
                .runner_up
                .as_ref()
                .map_or(String::new(), |(s, _)| {
                    format!(
                        " (the best of {} others scored {:+.2})",
                        reasoning.options.saturating_sub(1),
                        s - reasoning.base
                    )
                });
            format!("Nothing more this phase looked better than standing as it is{alt}.")
        }
        _ => return None,
    })
}

/// The charger of the charge awaiting reactions.
fn charger(view: &Game) -> Option<UnitId> {
    match &view.turn.phase {
        sandtable_bfs::turn::Phase::Movement {
            charge: Some(c), ..
        } => Some(c.charger),
        _ => None,
    }
}

fn charge_why(
    view: &Game,
    unit: UnitId,
    target: UnitId,
    reasoning: &Reasoning<Command>,
) -> Option<String> {
    let (ours, back) = melee_odds(view, unit, target);
    let fire = eval::defenders_fire(view, view.unit(target), view.unit(unit));
    let reach = match arrival(view, unit, target) {
        Arrival::Basic => "it reaches with its Basic Move",
        Arrival::Additional => {
            "it needs its Additional Move and may fail a Skill test (BFS-CHG-24)"
        }
        Arrival::Short => "it may not reach",
    };
    let fire = if fire > 0.05 {
        format!(", after about {fire:.1} SP of Defender's Fire")
    } else {
        String::new()
    };
    let mut s = format!(
        "{} charges {}: {reach}; the rules' odds give {ours:.1} SP off them in the first round for {back:.1} back{fire}.",
        view.unit(unit).name,
        view.unit(target).name
    );
    if let Some((n, gain)) = reasoning.sampled {
        s.push_str(&format!(
            " Played out {n} times with sampled dice, it left the position {gain:+.1} better than not charging."
        ));
    }
    Some(s)
}

fn order_why(
    view: &Game,
    side: Side,
    unit: UnitId,
    order: OrderKind,
    matchups: Option<&Matchups>,
) -> String {
    let u = view.unit(unit);
    let nearest = view
        .units_on_table(side.other())
        .map(|e| (eval::distance(u, e), e))
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match (order, nearest) {
        (OrderKind::Charge, Some(_)) => {
            let best = view
                .units_on_table(side.other())
                .map(|e| (matchups.map_or(0.0, |m| m.edge(unit, e.id)), e))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            match best {
                Some((edge, e)) => format!(
                    "Gave {} a Charge order: {} is in reach, and it expects to come out {edge:.1} SP ahead in the first round. The order must be carried out (BFS-CHG-27).",
                    u.name, e.name
                ),
                None => format!("Gave {} a Charge order.", u.name),
            }
        }
        (OrderKind::Defense, Some((d, e))) => format!(
            "Gave {} a Defense order: {} is {d:.0} cm away, within reach of its fire, and a Defense order fires first at a charger (BFS-CBT-3).",
            u.name, e.name
        ),
        (OrderKind::Move, Some((d, e))) => format!(
            "Gave {} a Move order: to close on {}, {d:.0} cm away.",
            u.name, e.name
        ),
        (order, None) => format!("Gave {} a {} order.", u.name, order.name()),
    }
}

/// A move by the term of the evaluation it changed most.
fn move_why(
    view: &Game,
    side: Side,
    cmd: &Command,
    unit: &str,
    reasoning: &Reasoning<Command>,
    matchups: &Matchups,
) -> Option<String> {
    let mut after = view.clone();
    Bfs::execute(&mut after, cmd).ok()?;
    let before = eval::breakdown(view, side, matchups);
    let now = eval::breakdown(&after, side, matchups);
    let gain = now.total() - before.total();
    let (term, change) = biggest_change(&before, &now);
    let unit_id = match cmd {
        Command::Move { unit, .. } | Command::Maneuver { unit, .. } => *unit,
        _ => return None,
    };
    let about = enemy_it_is_about(view, &after, side, unit_id, matchups)
        .map_or(String::new(), |s| format!(" ({s})"));
    let alt = match &reasoning.runner_up {
        Some((s, _)) if reasoning.score.is_some() => format!(
            " The next best of its {} options scored {:.2} less.",
            reasoning.options.saturating_sub(1),
            reasoning.score.unwrap_or(0.0) - s
        ),
        _ => String::new(),
    };
    Some(format!(
        "Moved {unit}: it judged the new position {gain:+.2} better than before, most of it ({change:+.2}) from {term}{about}.{alt}"
    ))
}

/// The enemy whose matchup with the moved unit changed its worth most, in words: closing on
/// it, into range of it, or away from its charge or its fire.
fn enemy_it_is_about(
    before: &Game,
    after: &Game,
    side: Side,
    unit: UnitId,
    matchups: &Matchups,
) -> Option<String> {
    let terms = |g: &Game, e: &sandtable_bfs::state::Unit| {
        let enemy = [eval::Placed::new(g, e)];
        eval::unit_terms(g, &eval::Placed::new(g, g.unit(unit)), &enemy, matchups)
    };
    let (change, e, was, now) = before
        .units_on_table(side.other())
        .map(|e| {
            let (was, now) = (terms(before, e), terms(after, e));
            (now.worth(matchups) - was.worth(matchups), e, was, now)
        })
        .max_by(|a, b| a.0.abs().total_cmp(&b.0.abs()))?;
    if change.abs() < 0.01 {
        return None;
    }
    let name = &e.name;
    Some(if now.attack > was.attack + 1e-6 {
        format!("closing on {name} to charge")
    } else if now.danger + 1e-6 < was.danger {
        format!("out of {name}'s charge")
    } else if now.shot > was.shot + 1e-6 {
        format!("bringing its fire to bear on {name}")
    } else if now.shot_at + 1e-6 < was.shot_at {
        format!("out of {name}'s fire")
    } else if change < 0.0 {
        format!("at some risk from {name}")
    } else {
        format!("against {name}")
    })
}

/// The evaluation term that changed most between two breakdowns, in words, with its change.
fn biggest_change(before: &Breakdown, now: &Breakdown) -> (&'static str, f64) {
    let terms = [
        (
            "the charges and volleys it can make, less those it risks",
            now.threat - before.threat,
        ),
        ("strength on the table", now.material - before.material),
        ("losses", now.losses - before.losses),
        ("room to move and the ground", now.room - before.room),
        ("the objectives", now.objectives - before.objectives),
        (
            "keeping its commanders within reach of their units",
            now.command - before.command,
        ),
    ];
    terms
        .into_iter()
        .max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
        .unwrap_or(("nothing", 0.0))
}
