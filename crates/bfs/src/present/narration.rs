//! Every event as the log and the dice panel show it: the sentence of [`crate::narrate`],
//! redacted for the seat reading it (the other side's face-down orders stay face down,
//! BFS-ORD-3), and the dice behind it — each pool with its target, every modifier with its rule,
//! the faces (successes marked), armor tests and the losses.

use super::table::unit_piece;
use crate::dice::{Modifier, PoolRoll};
use crate::event::{ArmorReport, Event};
use crate::ids::Side;
use crate::narrate;
use crate::state::Game;
use sandtable_engine::Seat;
use sandtable_engine::narration::{DiceReport, DieFace, LineStyle, Narration, RollReport};

pub fn narrate(state: &Game, seat: Option<Seat>, event: &Event) -> Narration {
    let shown = match seat {
        Some(s) => event.redacted_for(Side(s.min(1)), |u| state.unit(u).side),
        None => event.clone(),
    };
    Narration {
        text: narrate::describe(state, &shown),
        style: match event {
            Event::TurnBegan { .. } => LineStyle::Heading,
            Event::PhaseBegan { .. } => LineStyle::Aside,
            _ => LineStyle::Plain,
        },
        turn_began: match event {
            Event::TurnBegan { turn } => Some(*turn),
            _ => None,
        },
        pieces: narrate::units_in(event)
            .into_iter()
            .map(unit_piece)
            .collect(),
        dice: dice_report(state, &shown),
    }
}

fn faces(faces: &[u8], target: i32) -> Vec<DieFace> {
    faces
        .iter()
        .map(|f| DieFace {
            value: *f as u32,
            success: (*f as i32) <= target,
        })
        .collect()
}

fn modifier_notes(m: &[crate::dice::DiceChange]) -> Vec<String> {
    m.iter()
        .map(|c| format!("{:+} dice  {} — {}", c.delta, c.reason, c.rule))
        .collect()
}

/// One pool of a volley or a melee (BFS-DICE-9).
fn pool(label: &str, r: &PoolRoll) -> RollReport {
    let p = &r.plan;
    if p.auto_fail {
        return RollReport {
            label: format!("{label}: no dice left — automatic failure"),
            notes: p.notes.clone(),
            result: "→ 0 successes".into(),
            ..Default::default()
        };
    }
    let base = p.raw_target - sandtable_engine::roll::total(&p.modifiers);
    let mut notes = modifier_notes(&p.dice_changes);
    notes.extend(p.notes.iter().cloned());
    RollReport {
        label: format!(
            "{label}: {} dice, need {} or less (base {base})",
            p.dice, p.target
        ),
        modifiers: p.modifiers.clone(),
        notes,
        faces: faces(&r.faces, p.target),
        reroll: (!r.reroll_faces.is_empty()).then(|| {
            (
                "Long range: the hits are rolled again (BFS-SHO-14)".to_string(),
                faces(&r.reroll_faces, p.target),
            )
        }),
        result: format!("→ {} success(es)", r.successes),
    }
}

/// The armor tests (BFS-CC-21, BFS-SHO-21) of a volley or a melee.
fn armor(a: &[ArmorReport]) -> Vec<RollReport> {
    a.iter()
        .map(|x| RollReport {
            label: format!(
                "Armor tests: Armor {} → saves on {} or less",
                x.armor, x.target
            ),
            modifiers: x.modifiers.clone(),
            faces: faces(&x.faces, x.target),
            result: format!("→ {} saved", x.saved),
            ..Default::default()
        })
        .collect()
}

fn outcome(hits: u32, sp_lost: u32) -> Vec<String> {
    vec![format!("{hits} hit(s), {sp_lost} Strength point(s) lost")]
}

/// The dice behind an event, if it rolled any.
fn dice_report(game: &Game, e: &Event) -> Option<DiceReport> {
    let name = |u| game.unit(u).name.clone();
    let piece = |p: crate::event::Piece| match p {
        crate::event::Piece::Unit(u) => game.unit(u).name.clone(),
        crate::event::Piece::Commander(c) => game.commander(c).name.clone(),
    };
    Some(match e {
        Event::Volley(v) => {
            let mut rolls: Vec<RollReport> = v
                .groups
                .iter()
                .map(|g| {
                    pool(
                        &format!(
                            "{} base(s), {:?} range, {:.1} cm",
                            g.bases, g.band, g.distance_cm
                        ),
                        &g.roll,
                    )
                })
                .collect();
            rolls.extend(armor(&v.armor));
            DiceReport {
                heading: format!("{} fires at {}", piece(v.shooter), piece(v.target)),
                detail: std::iter::once(format!("{} — {}", v.stage, v.weapon))
                    .chain(v.notes.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" "),
                rolls,
                outcome: outcome(v.hits, v.sp_lost),
            }
        }
        Event::Melee(m) => {
            let mut rolls: Vec<RollReport> = m
                .groups
                .iter()
                .map(|g| pool(&format!("{} base(s)", g.bases), &g.roll))
                .collect();
            rolls.extend(armor(&m.armor));
            DiceReport {
                heading: format!(
                    "Round {}: {} strikes {}",
                    m.round,
                    name(m.attacker),
                    name(m.target)
                ),
                detail: format!(
                    "{}{}",
                    m.weapon,
                    if m.first_strike {
                        " — strikes first"
                    } else {
                        ""
                    }
                ),
                rolls,
                outcome: outcome(m.hits, m.sp_lost),
            }
        }
        Event::CommanderStruck(m) => {
            let mut rolls: Vec<RollReport> = m
                .groups
                .iter()
                .map(|g| pool(&format!("{} base(s) in contact", g.bases), &g.roll))
                .collect();
            rolls.extend(armor(&m.armor));
            DiceReport {
                heading: format!(
                    "{} strikes {}",
                    name(m.attacker),
                    game.commander(m.commander).name
                ),
                detail: format!("{} — a charge on a lone commander (BFS-CDR-7)", m.weapon),
                rolls,
                outcome: outcome(m.hits, m.sp_lost),
            }
        }
        Event::Test(t) => {
            let who = t.unit.map(name).unwrap_or_default();
            DiceReport {
                heading: format!("{who}: {:?} test — {}", t.kind, t.cause),
                detail: String::new(),
                rolls: vec![RollReport {
                    label: format!(
                        "needs {} or less (base {})",
                        t.roll.target, t.roll.base_target
                    ),
                    modifiers: t.roll.modifiers.clone(),
                    // A test rolled again (To the Last Man) shows its first face, then the one
                    // that stands.
                    faces: t
                        .roll
                        .rerolled
                        .or(t.roll.face)
                        .map(|f| faces(&[f], t.roll.target))
                        .unwrap_or_default(),
                    reroll: t.roll.rerolled.and(t.roll.face).map(|f| {
                        (
                            "To the Last Man: the failed test is rolled again, and the new roll stands (BFS-SPC-33)".into(),
                            faces(&[f], t.roll.target),
                        )
                    }),
                    result: if t.roll.face.is_none() {
                        "no roll needed".into()
                    } else {
                        String::new()
                    },
                    ..Default::default()
                }],
                outcome: vec![format!("→ {}", t.outcome)],
            }
        }
        Event::CombatResolved(_) | Event::InitiativeRolled { .. } => DiceReport {
            heading: narrate::describe(game, e),
            ..Default::default()
        },
        _ => return None,
    })
}

/// "+1 attached commander (BFS-PSY-4)": a modifier as the dice panel lists it.
pub fn modifier_line(m: &Modifier) -> String {
    format!("{:+}  {} — {}", m.delta, m.reason, m.rule)
}
