//! A piece in words: its card in the side panel (profile and state), its hover tooltip, and the
//! command points of every commander.

use super::table::{Thing, thing};
use crate::authority;
use crate::ids::Side;
use crate::profile::UnitProfile;
use crate::state::{Commander, Formation, Game, MoraleLevel, Unit};
use crate::turn::Phase;
use sandtable_engine::Seat;
use sandtable_engine::present::{Card, PieceId, PoolLine};

pub fn card(view: &Game, piece: PieceId) -> Option<Card> {
    Some(match thing(view, piece)? {
        Thing::Unit(u) => unit_card(view, view.unit(u)),
        Thing::Commander(c) => commander_card(view, view.commander(c)),
    })
}

fn unit_card(game: &Game, u: &Unit) -> Card {
    let p = game.profile(u.profile);
    let pending = match u.pending_order {
        Some(po) => match po.kind {
            Some(k) => format!(" · new order (face down): {}", k.name()),
            None => " · a face-down order marker".into(),
        },
        None => String::new(),
    };
    let commanders: Vec<&str> = authority::commanders_who_may_order(game, u.id)
        .iter()
        .map(|c| game.commander(*c).name.as_str())
        .collect();
    Card {
        title: u.name.clone(),
        side: Some(u.side.0),
        lines: vec![
            format!("{} — {}", p.name, game.side(u.side).name),
            format!(
                "{} · {} of {} bases · {} casualty marker(s)",
                formation_name(u.formation),
                u.bases.len(),
                u.bases_at_start,
                u.casualty_markers
            ),
            format!(
                "Morale level: {} · Order: {}{pending}",
                morale_name(u.morale),
                u.order.map_or("none", |o| o.name())
            ),
            format!(
                "May be ordered by: {}",
                if commanders.is_empty() {
                    "nobody".into()
                } else {
                    commanders.join(", ")
                }
            ),
        ]
        .into_iter()
        .chain(
            u.supply
                .map(|s| format!("Ammunition: {} (BFS-AMM)", s.label())),
        )
        .chain(u.train.as_ref().map(crate::wagon::train::card_line))
        .chain(crate::battalion::card_line(game, u.id))
        .chain(crate::fortified_gun::dug_in(game, u.id).then(|| {
            "On its fortified base (Fort): Armor 6, shooters −1, with a Defense order it fights as infantry behind an obstacle; it cannot pivot here (BFS-ART-19)".to_string()
        }))
        .chain(u.dismounted.map(|d| {
            if d.holders > 0 {
                format!(
                    "Dismounted: {} base(s) hold the horses (H{}) and do not shoot; it may mount again (BFS-SPC-9)",
                    d.holders, d.holders
                )
            } else {
                "Its horses are gone: it fights on foot for the rest of the battle (BFS-SPC-9)"
                    .to_string()
            }
        }))
        .chain(game.abandoned_guns.iter().any(|a| a.gun == u.id).then(|| {
            "Abandoned: its crew is lost. Infantry, dragoons or artillery of Skill 4 or \
                     more, either side's, with a Defense order and within 10 cm may man it: 1 \
                     Special Maneuver and 1 CP, paid for with the gun's Strength (BFS-MAN-21)"
                .to_string()
        }))
        .chain(
            game.abandoned_guns
                .iter()
                .filter(|a| a.hidden_with == Some(u.id))
                .map(|a| {
                    format!(
                        "The crew of {} hides among them: it takes no part in combat, and is lost \
                         if they flee (BFS-SPC-23)",
                        game.unit(a.gun).name
                    )
                })
                .collect::<Vec<_>>(),
        )
        .chain(u.manned_from.map(|_| {
            "Manned from an abandoned gun: Skill and Morale 4, no Quick Loading; it counts for \
             no side's losses (BFS-MAN-21)"
                .to_string()
        }))
        .chain(u.flags.hail_of_arrows.then(|| {
            "Hail of arrows declared: +1 die a base after movement, no Break Off (BFS-OPT-2)"
                .to_string()
        }))
        .collect(),
        rows: profile_rows(p),
        notes: p.notes.clone(),
    }
}

fn commander_card(game: &Game, c: &Commander) -> Card {
    let p = game.profile(c.profile);
    Card {
        title: c.name.clone(),
        side: Some(c.side.0),
        lines: vec![
            format!("{} — {}", c.rank.name(), game.side(c.side).name),
            format!(
                "Command points: {} of {} · Command range {} cm",
                c.cp,
                c.cp_max,
                authority::command_range_cm(game, c.id)
            ),
        ]
        .into_iter()
        .chain(
            (crate::instructions::apply(game)
                && c.rank == crate::scenario_spec::CommanderRank::Regimental)
                .then(|| {
                    let now = c.instruction.map_or(
                        "none (each order costs 1 CP more, BFS-ORD-13)".to_string(),
                        |o| o.name().to_string(),
                    );
                    let new = match c.pending_instruction {
                        Some(p) => match p.kind {
                            Some(k) => format!(" · new (face down): {}", k.name()),
                            None => " · a face-down Instruction".into(),
                        },
                        None => String::new(),
                    };
                    format!("Instruction: {now}{new} (BFS-ORD-11)")
                }),
        )
        .chain(c.coward.then(|| {
            "A coward (BFS-SCN-30): a Charge order from him costs 1 CP more; he joins no unit, \
             rides away from a charge, and keeps 10 cm from the enemy"
                .to_string()
        }))
        .collect(),
        rows: profile_rows(p)
            .into_iter()
            .map(|(k, v)| {
                if k == "Morale" && c.coward {
                    (
                        k,
                        format!("{} Cowardly (BFS-SCN-30)", crate::coward::MORALE),
                    )
                } else {
                    (k, v)
                }
            })
            .collect(),
        notes: String::new(),
    }
}

/// The profile as the army lists print it (BFS-PRF).
fn profile_rows(p: &UnitProfile) -> Vec<(String, String)> {
    let skill = match p.skill {
        3 => "Recruit",
        4 => "Trained",
        5 => "Veteran",
        _ => "",
    };
    let morale = match p.morale {
        4 => "Cowardly",
        5 => "Average",
        6 => "Courageous",
        7 => "Fearless",
        _ => "",
    };
    let m = p.melee.stats();
    let mut rows = vec![
        ("Move".to_string(), format!("{} cm", p.movement)),
        ("Close combat".into(), dice_per_base(p.close_combat)),
        ("Shooting".into(), dice_per_base(p.shooting)),
        ("Armor".into(), p.armor.to_string()),
        ("Skill".into(), format!("{} {skill}", p.skill)),
        ("Morale".into(), format!("{} {morale}", p.morale)),
        ("Strength".into(), format!("{} per base", p.strength)),
        (
            "Melee".into(),
            format!("{} ({}/{})", m.name, m.effectiveness.0, m.effectiveness.1),
        ),
    ];
    if let Some(g) = crate::artillery::gun_of(p) {
        rows.extend(gun_rows(g));
    } else if let Some(r) = p.ranged {
        let s = r.stats(p.is_mounted());
        let range = s.long_cm.map_or(format!("{}", s.effective_cm), |l| {
            format!("{}/{}", s.effective_cm, l)
        });
        rows.push((
            "Ranged".into(),
            format!(
                "{} ({range} cm, {}/{})",
                s.name, s.effectiveness.0, s.effectiveness.1
            ),
        ));
    }
    if !p.special_rules.is_empty() {
        rows.push((
            "Special".into(),
            p.special_rules
                .iter()
                .map(|r| r.name())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    rows
}

/// A gun's row of the artillery table, and how it moves (BFS-ART-5, BFS-ART-9, BFS-ART-12); the
/// gun's name is the profile's, on the card's first line.
fn gun_rows(g: crate::artillery::Gun) -> Vec<(String, String)> {
    let s = g.stats();
    let (carried, pulled) = s.moves_as.moves_cm();
    let cm = |d: Option<f32>| d.map_or("cannot".to_string(), |d| format!("{d} cm"));
    let dice = |n: u8| {
        if n == 1 {
            "1 die".to_string()
        } else {
            format!("{n} dice")
        }
    };
    vec![
        (
            "Cannonball".into(),
            format!(
                "{}, {}/{} cm, effectiveness {}",
                dice(s.shooting),
                s.range_cm.0,
                s.range_cm.1,
                s.effectiveness
            ),
        ),
        (
            "Case-shot".into(),
            format!(
                "{} to {} cm, effectiveness {}",
                dice(s.shooting + 1),
                s.case_range_cm,
                s.case_effectiveness
            ),
        ),
        (
            "Gun".into(),
            format!(
                "{:?}{}",
                s.class,
                if g.quick_loading() {
                    ", Quick Loading"
                } else {
                    ""
                }
            ),
        ),
        (
            "Gun move".into(),
            format!(
                "{}, limbered {}{}",
                cm(carried),
                cm(pulled),
                if s.moves_as != s.class {
                    format!(" (as a {:?} gun)", s.moves_as)
                } else {
                    String::new()
                }
            ),
        ),
    ]
}

fn formation_name(f: Formation) -> String {
    match f {
        Formation::Close { files: 1 } => "Column".into(),
        Formation::Close { files } => format!("Line, {files} files"),
        Formation::OpenOrder => "Open Order".into(),
        Formation::NonStandard => "Non-standard".into(),
    }
}

pub fn morale_name(m: MoraleLevel) -> &'static str {
    match m {
        MoraleLevel::Good => "Good",
        MoraleLevel::Disorganized => "Disorganized",
        MoraleLevel::Flight => "Flight",
    }
}

/// The hover tooltip: name, strength and state; with a commander of the same side selected in
/// the Orders Phase, what an order from him would cost and why (BFS-CMD-4).
pub fn tooltip(view: &Game, piece: PieceId, selection: Option<PieceId>) -> Vec<String> {
    match thing(view, piece) {
        Some(Thing::Unit(id)) => {
            let u = view.unit(id);
            let p = view.profile(u.profile);
            let order = match (u.order, u.pending_order) {
                (_, Some(po)) => po.kind.map_or("a face-down order marker".to_string(), |k| {
                    format!("new order (face down): {}", k.name())
                }),
                (Some(o), None) => format!("{} order", o.name()),
                (None, None) => "no order".into(),
            };
            let mut lines = vec![
                u.name.clone(),
                format!(
                    "{} · {} of {} bases · Move {} cm",
                    p.name,
                    u.bases.len(),
                    u.bases_at_start,
                    // A gun's Move is its class's, limbered or not (BFS-ART-12).
                    crate::artillery::move_allowance(view, id).map_or(
                        p.movement.to_string(),
                        |d| match u.gun {
                            Some(g) if g.limbered => format!("{d} (limbered)"),
                            _ => d.to_string(),
                        }
                    )
                ),
                format!("{} · {order}", morale_name(u.morale)),
            ];
            if let Some(s) = u.supply {
                lines.push(format!("Ammunition: {}", s.label()));
            }
            if let Some(t) = &u.train {
                lines.push(crate::wagon::train::card_line(t));
            }
            if let Some(line) = crate::battalion::card_line(view, id) {
                lines.push(line);
            }
            if authority::out_of_command(view, id) {
                lines.push(
                    "Out of command (OoC): no commander who may order it is within range, so every order costs more than 1 CP (BFS-CMD-3, BFS-CMD-4)".into(),
                );
            }
            if let (Phase::Orders { .. }, Some(Thing::Commander(c))) =
                (&view.turn.phase, selection.and_then(|s| thing(view, s)))
                && view.commander(c).side == u.side
            {
                let cost = authority::order_cost(view, c, id);
                lines.push(format!(
                    "An order from {} costs {} CP: {:.1} cm away, range {} cm (BFS-CMD-4)",
                    view.commander(c).name,
                    cost.cp,
                    cost.distance_cm,
                    cost.range_cm
                ));
            }
            lines
        }
        Some(Thing::Commander(id)) => {
            let c = view.commander(id);
            vec![
                c.name.clone(),
                format!(
                    "{:?} · {} of {} CP · range {} cm",
                    c.rank,
                    c.cp,
                    c.cp_max,
                    authority::command_range_cm(view, id)
                ),
            ]
        }
        None => Vec::new(),
    }
}

/// Every commander's command points (BFS-INI-1).
pub fn pools(view: &Game) -> Vec<PoolLine> {
    view.commanders
        .iter()
        .map(|c| PoolLine {
            side: c.side.0,
            text: format!("{}: {} of {} CP", c.name, c.cp, c.cp_max),
        })
        .collect()
}

/// The side a seat plays.
pub fn side_of(seat: Seat) -> Side {
    Side(seat.min(1))
}

/// "1 die per base", "2 dice per base".
fn dice_per_base(n: u8) -> String {
    format!("{n} {} per base", if n == 1 { "die" } else { "dice" })
}
