//! Every event in plain words, for the battle log (and the CLI). Rolls list their target, the
//! modifiers with their rules, and the faces.

use crate::dice::{Modifier, PoolRoll, TestRoll};
use crate::event::*;
use crate::state::{Game, MoraleLevel};

fn unit(game: &Game, u: crate::ids::UnitId) -> String {
    game.units
        .get(u.index())
        .map_or_else(|| format!("unit {}", u.0), |x| x.name.clone())
}

/// A unit's or a commander's name (who fired a volley, and at whom).
fn piece(game: &Game, t: crate::event::Piece) -> String {
    match t {
        crate::event::Piece::Unit(u) => unit(game, u),
        crate::event::Piece::Commander(c) => commander(game, c),
    }
}

fn commander(game: &Game, c: crate::ids::CommanderId) -> String {
    game.commanders
        .get(c.index())
        .map_or_else(|| format!("commander {}", c.0), |x| x.name.clone())
}

fn side(game: &Game, s: crate::ids::Side) -> String {
    game.sides
        .get(s.index())
        .map_or_else(|| format!("side {}", s.0 + 1), |x| x.name.clone())
}

/// "+1 attached commander (BFS-PSY-4), −1 lost by 1 (BFS-PSY-4)".
pub fn modifiers(m: &[Modifier]) -> String {
    m.iter()
        .map(|m| format!("{:+} {} ({})", m.delta, m.reason, m.rule))
        .collect::<Vec<_>>()
        .join(", ")
}

fn faces(f: &[u8]) -> String {
    f.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A pool in words: "8 dice needing 5: 3 9 7 2 10 6 8 3 → 3".
pub fn pool(r: &PoolRoll) -> String {
    let p = &r.plan;
    if p.auto_fail {
        return format!("no dice left, automatic failure ({})", p.notes.join("; "));
    }
    let mut s = format!(
        "{} dice needing {} or less: {} → {}",
        p.dice,
        p.target,
        faces(&r.faces),
        r.successes
    );
    if !r.reroll_faces.is_empty() {
        s.push_str(&format!(
            " (rerolled at long range: {})",
            faces(&r.reroll_faces)
        ));
    }
    if !p.modifiers.is_empty() {
        s.push_str(&format!(" [{}]", modifiers(&p.modifiers)));
    }
    for c in &p.dice_changes {
        s.push_str(&format!(" [{:+} dice: {} ({})]", c.delta, c.reason, c.rule));
    }
    s
}

pub fn test(r: &TestRoll) -> String {
    let face = match (r.rerolled, r.face) {
        (Some(first), Some(f)) => {
            format!("rolled {first}, failed, and again (To the Last Man, BFS-SPC-33): {f}")
        }
        _ => r
            .face
            .map_or("no roll needed".to_string(), |f| format!("rolled {f}")),
    };
    let mods = if r.modifiers.is_empty() {
        String::new()
    } else {
        format!(" [{}]", modifiers(&r.modifiers))
    };
    format!(
        "needs {} or less{mods}: {face}, {}",
        r.target,
        if r.passed { "passed" } else { "failed" }
    )
}

/// The armor tests as a sentence after a roll (" Armor 4 → saves on 3: … saved."), or nothing
/// when no hit got through to an armor test.
fn armor(a: &[ArmorReport]) -> String {
    if a.is_empty() {
        return String::new();
    }
    let tests = a
        .iter()
        .map(|x| {
            let mods = if x.modifiers.is_empty() {
                String::new()
            } else {
                format!(" [{}]", modifiers(&x.modifiers))
            };
            format!(
                "Armor {} → saves on {}{mods}: {} → {} saved",
                x.armor,
                x.target,
                faces(&x.faces),
                x.saved
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    format!(" {tests}.")
}

fn level(l: MoraleLevel) -> &'static str {
    match l {
        MoraleLevel::Good => "good order",
        MoraleLevel::Disorganized => "Disorganized",
        MoraleLevel::Flight => "Flight",
    }
}

/// One line for one event. `game` supplies names (the state after the command is fine).
pub fn describe(game: &Game, e: &Event) -> String {
    match e {
        Event::TurnBegan { turn } => format!("— Turn {turn} begins —"),
        Event::PhaseBegan { phase, acting } => match acting {
            Some(s) => format!("{phase}: {} acts.", side(game, *s)),
            None => format!("{phase}."),
        },
        Event::CpRestored { commander: c, cp } => {
            format!("{} has {cp} CP (BFS-INI-1).", commander(game, *c))
        }
        Event::BidPlaced { side: s } => {
            format!("{} has placed a secret Initiative bid.", side(game, *s))
        }
        Event::BidsRevealed { bids } => format!(
            "Bids revealed: {} {} CP, {} {} CP (BFS-INI-2).",
            side(game, crate::ids::Side::A),
            bids[0],
            side(game, crate::ids::Side::B),
            bids[1]
        ),
        Event::InitiativeRolled {
            rounds,
            bonus,
            winner,
        } => {
            let r: Vec<String> = rounds
                .iter()
                .map(|f| format!("{}+{} against {}+{}", f[0], bonus[0], f[1], bonus[1]))
                .collect();
            format!(
                "Initiative roll (BFS-INI-3): {}. {} wins.",
                r.join(", then (tie) "),
                side(game, *winner)
            )
        }
        Event::InitiativeChosen {
            winner,
            keep,
            initiative,
        } => {
            if *keep {
                format!("{} keeps the Initiative (BFS-INI-4).", side(game, *winner))
            } else {
                format!(
                    "{} hands the Initiative to {} (BFS-INI-4).",
                    side(game, *winner),
                    side(game, *initiative)
                )
            }
        }
        Event::OrderIssued {
            unit: u,
            by,
            order,
            cp,
            distance_cm,
            free,
            independent,
            prisoner,
        } => {
            let what = order.map_or("a face-down order".to_string(), |o| {
                format!("a {} order", o.name())
            });
            let take_and_hold =
                order.is_some_and(|o| crate::phases::orders::take_and_hold(game, *u, o));
            let cost = if *independent && take_and_hold {
                "free and face up: Commanded Musketeers Take and Hold (BFS-SPC-5)".to_string()
            } else if *prisoner {
                format!(
                    "{}, face up: the enemy's Big Mouthed Prisoner gave the plans away (BFS-SCN-38)",
                    if *free {
                        "free (BFS-ORD-15)".to_string()
                    } else {
                        format!("{cp} CP")
                    }
                )
            } else if *independent {
                "free and face up: an Independent unit (BFS-SPC-14)".to_string()
            } else if *free {
                "free: a starting order (BFS-ORD-15)".to_string()
            } else {
                let insubordinate = game
                    .unit_profile(*u)
                    .has(crate::profile::SpecialRule::Insubordinate);
                format!(
                    "{cp} CP at {distance_cm:.1} cm (BFS-CMD-4){}",
                    if insubordinate {
                        ", one of them because the unit is Insubordinate (BFS-SPC-15)"
                    } else {
                        ""
                    }
                )
            };
            format!(
                "{} gives {} {what}, {cost}.",
                commander(game, *by),
                unit(game, *u)
            )
        }
        Event::InstructionIssued {
            commander: c,
            by,
            instruction,
            cp,
            ..
        } => format!(
            "{} gives {} {}, {cp} CP (BFS-ORD-11).",
            commander(game, *by),
            commander(game, *c),
            instruction.map_or("a face-down Instruction".to_string(), |o| format!(
                "a {} Instruction",
                o.name()
            ))
        ),
        Event::CpSpent {
            commander: c,
            cp,
            rule,
            reason,
        } => format!("{} spends {cp} CP: {reason} ({rule}).", commander(game, *c)),
        Event::CpTransferred {
            from,
            to,
            sent,
            received,
            distance_cm,
        } => format!(
            "{} sends {sent} CP to {} at {distance_cm:.1} cm; {received} arrive (BFS-CMD-7).",
            commander(game, *from),
            commander(game, *to)
        ),
        Event::OrdersRevealed { side: s, orders } => {
            if orders.is_empty() {
                format!("{} has no new orders to reveal.", side(game, *s))
            } else {
                let list: Vec<String> = orders
                    .iter()
                    .map(|(u, o)| format!("{} {}", unit(game, *u), o.name()))
                    .collect();
                format!(
                    "{} reveals its orders (BFS-MOV-2): {}.",
                    side(game, *s),
                    list.join(", ")
                )
            }
        }
        Event::OrderChanged {
            unit: u,
            from,
            to,
            rule,
            reason,
        } => format!(
            "{}: {} order becomes {} — {reason} ({rule}).",
            unit(game, *u),
            from.map_or("no", |o| o.name()),
            to.map_or("no order".to_string(), |o| format!("a {} order", o.name()))
        ),
        Event::Test(t) => {
            let who = t
                .unit
                .map(|u| unit(game, u))
                .or(t.commander.map(|c| commander(game, c)))
                .unwrap_or_default();
            format!(
                "{who}: {:?} test for {} ({}): {} — {}.",
                t.kind,
                t.cause,
                t.rule,
                test(&t.roll),
                t.outcome
            )
        }
        Event::CasualtyMarkerRemoved { unit: u } => {
            format!("{} removes a casualty marker (BFS-RAL-7).", unit(game, *u))
        }
        Event::Moved {
            unit: u,
            cost_cm,
            allowance_cm,
            description,
        } => {
            if *allowance_cm > 0.0 {
                format!(
                    "{}: {description} — {cost_cm:.1} of {allowance_cm:.1} cm.",
                    unit(game, *u)
                )
            } else {
                format!("{}: {description}.", unit(game, *u))
            }
        }
        Event::CommanderMoved {
            commander: c,
            joined: Some(u),
            ..
        } => format!(
            "{} rides to {} and joins it.",
            commander(game, *c),
            unit(game, *u)
        ),
        Event::CommanderMoved {
            commander: c, to, ..
        } => format!(
            "{} moves to ({:.0}, {:.0}).",
            commander(game, *c),
            to.x,
            to.y
        ),
        Event::ChargeDeclared {
            unit: u,
            target,
            paid_by,
        } => match paid_by {
            Some(c) => format!(
                "{} charges {} ({} paid 1 CP to choose this target, BFS-CHG-4)!",
                unit(game, *u),
                unit(game, *target),
                commander(game, *c)
            ),
            None => format!("{} charges {}!", unit(game, *u), unit(game, *target)),
        },
        Event::Reacted {
            unit: u, reaction, ..
        } => format!("{} {reaction}.", unit(game, *u)),
        Event::ChargeMoved {
            unit: u,
            description,
            ..
        } => format!("{}: {description}.", unit(game, *u)),
        Event::Volley(v) => {
            let groups: Vec<String> = v
                .groups
                .iter()
                .map(|g| {
                    format!(
                        "{} base(s) at {:?} range {:.1} cm: {}",
                        g.bases,
                        g.band,
                        g.distance_cm,
                        pool(&g.roll)
                    )
                })
                .collect();
            let mut a = armor(&v.armor);
            if !v.structure.is_empty() {
                a += &format!(
                    " The wagon:{} {} structure SP lost (BFS-WAG-13).",
                    armor(&v.structure),
                    v.structure_lost
                );
            }
            let notes: String = v.notes.iter().map(|n| format!(" {n}")).collect();
            format!(
                "{} ({}) fires its {} at {}: {}; {} hit(s).{notes}{a} {} SP lost.",
                piece(game, v.shooter),
                v.stage,
                v.weapon,
                piece(game, v.target),
                groups.join("; "),
                v.hits,
                v.sp_lost
            )
        }
        Event::CommanderStruck(m) => {
            let groups: Vec<String> = m
                .groups
                .iter()
                .map(|g| format!("{} base(s): {}", g.bases, pool(&g.roll)))
                .collect();
            let a = armor(&m.armor);
            format!(
                "{} strikes {} with {}: {}; {} hit(s).{a} {} SP lost (BFS-CDR-7).",
                unit(game, m.attacker),
                commander(game, m.commander),
                m.weapon,
                groups.join("; "),
                m.hits,
                m.sp_lost
            )
        }
        Event::Melee(m) => {
            let groups: Vec<String> = m
                .groups
                .iter()
                .map(|g| format!("{} base(s): {}", g.bases, pool(&g.roll)))
                .collect();
            let a = armor(&m.armor);
            let first = if m.first_strike {
                " strikes first and"
            } else {
                ""
            };
            format!(
                "Round {}: {}{first} fights {} with {}: {}; {} hit(s).{a} {} SP lost.",
                m.round,
                unit(game, m.attacker),
                unit(game, m.target),
                m.weapon,
                groups.join("; "),
                m.hits,
                m.sp_lost
            )
        }
        Event::CombatResolved(r) => {
            let s: Vec<String> = r
                .sides
                .iter()
                .map(|x| {
                    let mods = if x.modifiers.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", modifiers(&x.modifiers))
                    };
                    format!(
                        "{} {} SP{mods} = {}",
                        side(game, x.side),
                        x.sp_inflicted,
                        x.total
                    )
                })
                .collect();
            let result = match r.winner {
                Some(w) => format!("{} wins by {}", side(game, w), r.margin),
                None => "a draw".into(),
            };
            format!(
                "Combat resolution, round {} (BFS-CC-19): {} — {result}.",
                r.round,
                s.join("; ")
            )
        }
        Event::Losses {
            unit: u,
            sp,
            bases_removed,
            markers,
            cause,
        } => {
            let b = if *bases_removed > 0 {
                format!(", {bases_removed} base(s) removed")
            } else {
                String::new()
            };
            format!(
                "{} loses {sp} SP in {cause}{b}; {markers} casualty marker(s) (BFS-CBT-10).",
                unit(game, *u)
            )
        }
        Event::MoraleChanged {
            unit: u,
            from,
            to,
            rule,
            reason,
        } => format!(
            "{}: {} → {} — {reason} ({rule}).",
            unit(game, *u),
            level(*from),
            level(*to)
        ),
        Event::Withdrew {
            unit: u,
            distance_cm,
            reason,
        } => format!(
            "{} withdraws {distance_cm:.1} cm: {reason}.",
            unit(game, *u)
        ),
        Event::Fled {
            unit: u,
            distance_cm,
            bases_destroyed,
            bases_left_table,
            reason,
        } => {
            let mut s = format!(
                "{} flees {distance_cm:.1} cm ({reason}, BFS-PSY-9)",
                unit(game, *u)
            );
            if *bases_destroyed > 0 {
                s.push_str(&format!(
                    "; {bases_destroyed} base(s) destroyed by the enemy (BFS-PSY-12)"
                ));
            }
            if *bases_left_table > 0 {
                s.push_str(&format!(
                    "; {bases_left_table} base(s) left the field (BFS-PSY-21)"
                ));
            }
            s + "."
        }
        Event::Pursued {
            unit: u,
            target,
            distance_cm,
            contact,
        } => format!(
            "{} pursues {} {distance_cm:.1} cm{} (BFS-CC-30).",
            unit(game, *u),
            unit(game, *target),
            if *contact {
                " and catches it: a second round"
            } else {
                " without catching it"
            }
        ),
        Event::UnitDestroyed {
            unit: u,
            rule,
            reason,
        } => format!("{} is destroyed: {reason} ({rule}).", unit(game, *u)),
        Event::UnitLeftTable { unit: u } => format!("{} has left the battlefield.", unit(game, *u)),
        Event::CommanderLost {
            commander: c,
            reason,
            ..
        } => format!("{} is lost: {reason}.", commander(game, *c)),
        Event::CommanderRallied { commander: c } => {
            format!("{} rallies (BFS-RAL-1).", commander(game, *c))
        }
        Event::RegimentWipedOut {
            regiment,
            rule,
            reason,
        } => format!(
            "{} is Wiped Out: {reason}. Its units and commanders flee and will never rally ({rule}).",
            game.regiments
                .get(regiment.index())
                .map_or("A regiment", |r| r.name.as_str())
        ),
        Event::Ruling { rule, text } => format!("{text} ({rule})"),
        Event::GameOver(v) => match v.winner {
            Some(w) => format!(
                "The battle is over ({}): {} — a {}, by {} VP.",
                v.reason,
                side(game, w),
                v.result,
                v.margin
            ),
            None => format!("The battle is over ({}): a draw.", v.reason),
        },
        Event::ScriptMessage { text } => text.clone(),
        Event::ReservesArrived { unit } => format!(
            "{} arrives from reserve with a Move order (BFS-SCN-50).",
            game.unit(*unit).name
        ),
        Event::ObjectiveChanged { objective, held_by } => {
            let name = game
                .objectives
                .get(*objective)
                .map_or("An objective", |o| o.name.as_str());
            match held_by {
                Some(s) => format!("{name} is now held by {} (BFS-SCN-7).", side(game, *s)),
                None => format!("{name} is held by nobody (BFS-SCN-7)."),
            }
        }
        Event::WagonTaken { wagon, side: s } => format!(
            "{} take over {}: theirs from now on, to be ordered from next turn (BFS-WAG-8).",
            side(game, *s),
            unit(game, *wagon)
        ),
    }
}

/// The units an event concerns, for filtering the log by unit.
pub fn units_in(e: &Event) -> Vec<crate::ids::UnitId> {
    match e {
        Event::OrderIssued { unit, .. }
        | Event::OrderChanged { unit, .. }
        | Event::CasualtyMarkerRemoved { unit }
        | Event::Moved { unit, .. }
        | Event::ChargeMoved { unit, .. }
        | Event::Losses { unit, .. }
        | Event::MoraleChanged { unit, .. }
        | Event::Withdrew { unit, .. }
        | Event::Fled { unit, .. }
        | Event::UnitDestroyed { unit, .. }
        | Event::ReservesArrived { unit }
        | Event::WagonTaken { wagon: unit, .. }
        | Event::UnitLeftTable { unit } => vec![*unit],
        Event::ChargeDeclared { unit, target, .. } | Event::Pursued { unit, target, .. } => {
            vec![*unit, *target]
        }
        Event::Reacted { unit, to, .. } => vec![*unit, *to],
        Event::Volley(v) => [v.shooter.unit(), v.target.unit()]
            .into_iter()
            .flatten()
            .collect(),
        Event::Melee(m) => vec![m.attacker, m.target],
        Event::CommanderStruck(m) => vec![m.attacker],
        Event::CombatResolved(r) => r.sides.iter().flat_map(|s| s.units.clone()).collect(),
        Event::Test(t) => t.unit.into_iter().collect(),
        Event::OrdersRevealed { orders, .. } => orders.iter().map(|o| o.0).collect(),
        _ => Vec::new(),
    }
}
