//! War Wagon Trains, the tabor (BFS-WAG-12..17): war wagons grouped into one unit whose wagons
//! are fought wagon by wagon. Each wagon base has two Strength tracks: the wagon itself (2 SP,
//! Armor 13 against shooting) and its crew (the profile's Strength, usually 3 SP, at the
//! profile's Armor, usually 5). A shooting hit is tested against both; a close combat hit
//! against the crew alone. A wagon whose structure is destroyed is taken off with its crew; a
//! wagon whose crew is gone stays, crewless: it can still be driven, but neither fights nor
//! shoots, and the enemy may take or destroy it (BFS-WAG-16). A train whose every crew is gone is
//! crewless as a whole, and the transport wagons' rules apply to it ([`super::crewless`]).
//!
//! Trains never flee and are never Disorganized: a failed Morale test costs crews instead, 1 SP,
//! or 2 for a failure by 5 or more (BFS-WAG-17). They never withdraw after a lost combat.
//!
//! Readings, said again where they apply:
//! - The owner chooses which wagon's crew takes a Morale test's loss; Sandtable takes it from
//!   the wagon with most crew left, so that no crew dies of it while another has more.
//! - "Each war wagon is a separate target": the hits of a volley at a train land on the wagon
//!   nearest the shooter.
//! - A train cut in two closes up by itself at the start of its side's Movement Phase (the
//!   book: the parts must try to reconnect, moving only towards one another); its rear part moves.

use crate::event::Event;
use crate::ids::UnitId;
use crate::profile::{SpecialRule, UnitProfile};
use crate::state::{Game, UnitStatus};
use serde::{Deserialize, Serialize};

/// Armor of a war wagon's structure against shooting, "usually 13" (BFS-WAG-13).
pub const STRUCTURE_ARMOR: i32 = 13;
/// Strength Points of a war wagon's structure (BFS-WAG-13).
pub const STRUCTURE_SP: u8 = 2;
/// A crewed war wagon counts as this many bases in the Combat Resolution (BFS-WAG-13).
pub const CREWED_WAGON_BASES: usize = 2;
/// Move of a connected train, cm (BFS-WAG-14).
pub const CONNECTED_MOVE_CM: f32 = 5.0;
/// Special Maneuvers that connect a train (BFS-WAG-14).
pub const CONNECT_MANEUVERS: u8 = 2;

/// One war wagon: what is left of its structure and of its crew.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarWagon {
    pub structure: u8,
    pub crew: u8,
}

/// A War Wagon Train's wagons, in the order of the unit's bases, and whether it is connected.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Train {
    pub wagons: Vec<WarWagon>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub connected: bool,
    /// A middle wagon was destroyed and the train stands in two parts (BFS-WAG-12): the index of
    /// the first wagon of the rear part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_at: Option<usize>,
}

impl Train {
    /// A fresh train of `bases` wagons for a War Wagon profile; `None` for any other.
    pub fn new(p: &UnitProfile, bases: usize) -> Option<Self> {
        p.has(SpecialRule::WarWagon).then(|| Train {
            wagons: vec![
                WarWagon {
                    structure: STRUCTURE_SP,
                    crew: p.strength,
                };
                bases
            ],
            connected: false,
            cut_at: None,
        })
    }

    /// Crew Strength Points left in the whole train.
    pub fn crew_left(&self) -> u32 {
        self.wagons.iter().map(|w| w.crew as u32).sum()
    }

    /// Wagons with a crew.
    pub fn crewed(&self) -> usize {
        self.wagons.iter().filter(|w| w.crew > 0).count()
    }
}

/// Is this unit a War Wagon Train?
pub fn is_train(game: &Game, unit: UnitId) -> bool {
    game.unit(unit).train.is_some()
}

/// Does wagon `i` of train `unit` still have a crew?
pub fn wagon_crewed(game: &Game, unit: UnitId, i: usize) -> bool {
    game.unit(unit)
        .train
        .as_ref()
        .and_then(|t| t.wagons.get(i))
        .is_some_and(|w| w.crew > 0)
}

/// Bases the train counts in the Combat Resolution: 2 for each crewed wagon, none for a
/// crewless one (BFS-WAG-13).
pub fn resolution_bases(game: &Game, unit: UnitId) -> Option<usize> {
    let t = game.unit(unit).train.as_ref()?;
    Some(CREWED_WAGON_BASES * t.crewed())
}

/// Takes `sp` crew Strength Points off wagon `at` (or, with `None`, off the wagons with most
/// crew left, one at a time), reporting them. Returns the SP actually lost.
pub fn crew_losses(
    game: &mut Game,
    unit: UnitId,
    at: Option<usize>,
    sp: u32,
    reason: &str,
    events: &mut Vec<Event>,
) -> u32 {
    let Some(train) = game.unit_mut(unit).train.as_mut() else {
        return 0;
    };
    let mut lost = 0;
    for _ in 0..sp {
        let i = match at {
            Some(i) if train.wagons.get(i).is_some_and(|w| w.crew > 0) => i,
            Some(_) => break,
            None => match (0..train.wagons.len())
                .filter(|i| train.wagons[*i].crew > 0)
                .max_by_key(|i| (train.wagons[*i].crew, std::cmp::Reverse(*i)))
            {
                Some(i) => i,
                None => break,
            },
        };
        train.wagons[i].crew -= 1;
        lost += 1;
    }
    if lost > 0 {
        let left = train.crew_left();
        let crewless = train.wagons.iter().filter(|w| w.crew == 0).count();
        events.push(Event::Ruling {
            rule: "BFS-WAG-13".into(),
            text: format!(
                "{} loses {lost} crew SP ({reason}): {left} crew SP left, {crewless} wagon(s) without a crew.",
                game.unit(unit).name
            ),
        });
    }
    lost
}

/// Takes `sp` structure Strength Points off wagon `at`; a wagon whose structure is gone is
/// taken off the table with its crew (BFS-WAG-13). Returns whether a wagon was removed.
pub fn structure_losses(
    game: &mut Game,
    unit: UnitId,
    at: usize,
    sp: u32,
    events: &mut Vec<Event>,
) -> bool {
    let u = game.unit_mut(unit);
    let Some(train) = u.train.as_mut() else {
        return false;
    };
    let Some(w) = train.wagons.get_mut(at) else {
        return false;
    };
    if sp == 0 {
        return false;
    }
    w.structure = w.structure.saturating_sub(sp.min(255) as u8);
    if w.structure > 0 {
        events.push(Event::Ruling {
            rule: "BFS-WAG-13".into(),
            text: format!(
                "A wagon of {} is damaged: {} structure SP left.",
                u.name, w.structure
            ),
        });
        return false;
    }
    train.wagons.remove(at);
    if at < u.bases.len() {
        u.bases.remove(at);
        u.bases_destroyed += 1;
    }
    // A middle wagon gone leaves the train in two parts, which must close up (BFS-WAG-12).
    let gap = at > 0
        && at < u.bases.len()
        && sandtable_geometry::distance::set_distance(
            std::slice::from_ref(&u.bases[at - 1]),
            std::slice::from_ref(&u.bases[at]),
        )
        .is_ok_and(|d| d > 0.1);
    if gap {
        train.cut_at = Some(at);
    } else if train.cut_at.is_some_and(|c| c > at) {
        train.cut_at = train.cut_at.map(|c| c - 1);
    }
    events.push(Event::Ruling {
        rule: "BFS-WAG-13".into(),
        text: format!("A wagon of {} is destroyed, and its crew with it.", u.name),
    });
    if u.bases.is_empty() {
        events.push(crate::losses::take_off(
            u,
            "BFS-WAG-13",
            "its last wagon was destroyed",
        ));
    }
    true
}

/// The index of the train's wagon nearest `from`'s bases: the one a volley's hits land on.
pub fn nearest_wagon(game: &Game, unit: UnitId, from: &[sandtable_geometry::Rect]) -> usize {
    let bases = &game.unit(unit).bases;
    (0..bases.len())
        .min_by(|a, b| {
            let d = |i: usize| {
                sandtable_geometry::distance::set_distance(std::slice::from_ref(&bases[i]), from)
                    .unwrap_or(f32::MAX)
            };
            d(*a).total_cmp(&d(*b)).then(a.cmp(b))
        })
        .unwrap_or(0)
}

/// The second Armor test of each hit on a war wagon: against the wagon's own Armor, 13, less
/// the weapon's effectiveness (BFS-WAG-13). Cover and shields are the crew's, not the wagon's.
pub fn structure_tests(
    game: &mut Game,
    group: &crate::shooting::GroupPlan,
    hits: u32,
) -> crate::event::ArmorReport {
    let modifiers: Vec<crate::dice::Modifier> = group
        .armor_mods
        .iter()
        .filter(|m| m.rule == "BFS-SHO-15")
        .cloned()
        .collect();
    crate::dice::armor_tests(&mut game.dice, STRUCTURE_ARMOR, modifiers, hits)
}

/// A volley's losses on a train: crew and structure SP on the wagon nearest the shooter
/// (BFS-WAG-13, BFS-WAG-15). Returns whether a wagon lost its whole crew: the train then tests
/// Morale, as a unit losing a base to shooting would (BFS-WAG-17).
pub fn shot(
    game: &mut Game,
    unit: UnitId,
    shooter: crate::event::Piece,
    crew_sp: u32,
    structure_sp: u32,
    events: &mut Vec<Event>,
) -> bool {
    if game.unit(unit).status != UnitStatus::OnTable || crew_sp + structure_sp == 0 {
        return false;
    }
    let from = match shooter {
        crate::event::Piece::Unit(s) => game.unit(s).bases.clone(),
        crate::event::Piece::Commander(c) => vec![game.commander(c).base],
    };
    let at = nearest_wagon(game, unit, &from);
    let crews_before = game.unit(unit).train.as_ref().map_or(0, |t| t.crewed());
    crew_losses(game, unit, Some(at), crew_sp, "shot", events);
    structure_losses(game, unit, at, structure_sp, events);
    let crews_after = game.unit(unit).train.as_ref().map_or(0, |t| t.crewed());
    crews_after < crews_before
}

/// Instead of Disorganization or Flight, a train's crews lose Strength: 1 SP for a failed
/// Morale test, 2 for one failed by 5 or more (a fall of two levels), from the wagons with most
/// crew (BFS-WAG-17).
pub fn morale_losses(game: &mut Game, unit: UnitId, levels: u8, events: &mut Vec<Event>) {
    if levels == 0 {
        return;
    }
    crew_losses(
        game,
        unit,
        None,
        levels.min(2) as u32,
        "a failed Morale test: a train never flees nor is Disorganized (BFS-WAG-17)",
        events,
    );
}

/// Does the contact `c` (this wagon's base first) meet it at a short end, its front or rear
/// edge, rather than along a long side? Attacked there, the crew rolls one die fewer
/// (BFS-WAG-15).
pub fn at_short_end(c: &sandtable_geometry::contact::Contact) -> bool {
    use sandtable_geometry::Edge;
    let long = c.length_on_a(Edge::Left).max(c.length_on_a(Edge::Right));
    let short = c.length_on_a(Edge::Front).max(c.length_on_a(Edge::Rear));
    short > long
        || (long <= 0.01
            && short <= 0.01
            && !matches!(
                c.feature_a,
                Some(sandtable_geometry::contact::Feature::Edge(
                    Edge::Left | Edge::Right
                ))
            ))
}

/// +1 in the Combat Resolution for a train with a Defense order fighting cavalry only
/// (BFS-WAG-15).
pub fn defends_against_cavalry(
    game: &Game,
    side_units: &[UnitId],
    enemies: &[UnitId],
) -> Option<crate::dice::Modifier> {
    let defends = side_units.iter().any(|u| {
        is_train(game, *u)
            && game.unit(*u).order == Some(crate::state::OrderKind::Defense)
            && game.unit(*u).train.as_ref().is_some_and(|t| t.crewed() > 0)
    });
    let cavalry = !enemies.is_empty() && enemies.iter().all(|e| game.unit_profile(*e).is_mounted());
    (defends && cavalry).then(|| {
        crate::dice::Modifier::new(
            "BFS-WAG-15",
            "war wagons with a Defense order against cavalry",
            1,
        )
    })
}

/// The beaten train's unmanned wagons touching the enemy are destroyed (BFS-WAG-20 C): at
/// once if the train is not connected; if it is, one for each Skill test passed, a test for
/// each attacking base touching it (BFS-WAG-14). The winners take none of a connected train
/// over: Sandtable destroys them (the book lets the winner choose).
pub fn strip_unmanned(
    game: &mut Game,
    unit: UnitId,
    attackers: &[UnitId],
    events: &mut Vec<Event>,
) {
    let Some(train) = game.unit(unit).train.clone() else {
        return;
    };
    let touched_by = |g: &Game, i: usize| -> Vec<(UnitId, usize)> {
        let Some(wb) = g.unit(unit).bases.get(i) else {
            return Vec::new();
        };
        attackers
            .iter()
            .flat_map(|a| {
                g.unit(*a)
                    .bases
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| {
                        sandtable_geometry::distance::distance(b, wb).is_ok_and(|d| d <= 0.1)
                    })
                    .map(|(j, _)| (*a, j))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let unmanned: Vec<usize> = (0..train.wagons.len())
        .filter(|i| train.wagons[*i].crew == 0 && !touched_by(game, *i).is_empty())
        .collect();
    if unmanned.is_empty() {
        return;
    }
    let mut destroy = unmanned.len();
    if train.connected {
        let testers: Vec<(UnitId, usize)> = {
            let mut all: Vec<(UnitId, usize)> =
                unmanned.iter().flat_map(|i| touched_by(game, *i)).collect();
            all.sort();
            all.dedup();
            all
        };
        let mut passed = 0;
        for (a, _) in testers {
            if crate::skill::test(
                game,
                crate::skill::Tester::Unit(a),
                Vec::new(),
                crate::skill::Test {
                    rule: "BFS-WAG-14",
                    cause: "to break up a connected war wagon abandoned by its crew".into(),
                    passed: "passed: one wagon destroyed",
                    failed: "failed",
                },
                events,
            ) {
                passed += 1;
            }
        }
        destroy = destroy.min(passed);
    }
    // From the back of the list, so that the indices of the others stay put.
    for &i in unmanned.iter().rev().take(destroy) {
        if game.unit(unit).status != UnitStatus::OnTable {
            break;
        }
        structure_losses(game, unit, i, STRUCTURE_SP as u32, events);
    }
}

/// May `unit` connect now: a War Wagon Train not connected yet (BFS-WAG-14)? The Special
/// Maneuvers' own checks (a Defense order, two of them) are the phase's.
pub fn check_connect(game: &Game, unit: UnitId) -> Result<(), sandtable_engine::RuleError> {
    match &game.unit(unit).train {
        None => Err(sandtable_engine::RuleError::new(
            "BFS-WAG-14",
            format!("{} is not a War Wagon Train.", game.unit(unit).name),
        )),
        Some(t) if t.connected => Err(sandtable_engine::RuleError::new(
            "BFS-WAG-14",
            format!("{} is already connected.", game.unit(unit).name),
        )),
        Some(_) => Ok(()),
    }
}

/// The train connects and prepares for defence (BFS-WAG-14).
pub fn connect(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) {
    if let Some(t) = game.unit_mut(unit).train.as_mut() {
        t.connected = true;
        events.push(Event::Ruling {
            rule: "BFS-WAG-14".into(),
            text: format!(
                "{} connects its wagons: from now on it moves {CONNECTED_MOVE_CM} cm and never marches.",
                game.unit(unit).name
            ),
        });
    }
}

/// A connected train's Move (BFS-WAG-14); `None` for any other unit.
pub fn move_cap(game: &Game, unit: UnitId) -> Option<f32> {
    game.unit(unit)
        .train
        .as_ref()
        .filter(|t| t.connected)
        .map(|_| CONNECTED_MOVE_CM)
}

/// Where a war wagon's shot leaves from: the middle of whichever long side is nearer the target
/// (BFS-WAG-15).
pub fn fire_origin(
    base: &sandtable_geometry::Rect,
    target: &[sandtable_geometry::Rect],
) -> sandtable_geometry::Vec2 {
    use sandtable_geometry::Edge;
    let left = base.edge(Edge::Left).midpoint();
    let right = base.edge(Edge::Right).midpoint();
    let d = |p: sandtable_geometry::Vec2| {
        target
            .iter()
            .map(|t| (t.center() - p).length())
            .fold(f32::INFINITY, f32::min)
    };
    if d(left) <= d(right) { left } else { right }
}

/// What the scenario gets wrong about its War Wagon Trains (BFS-WAG-12): a train stands in a
/// Column (its wagons in contact), and there are no more trains than Regiments, or than
/// commanders at Skirmish level.
pub fn organisation_problems(
    force: &crate::scenario_spec::ForceSpec,
    army: &crate::army_list::ArmyList,
    level: crate::scenario_spec::GameLevel,
) -> Vec<sandtable_engine::Problem> {
    use crate::scenario_spec::{FormationSpec, GameLevel};
    let trains: Vec<&crate::scenario_spec::UnitSpec> = force
        .units
        .iter()
        .filter(|u| {
            army.profile(&u.profile)
                .is_some_and(|p| p.has(SpecialRule::WarWagon))
        })
        .collect();
    let mut out = Vec::new();
    for t in &trains {
        if t.bases > 1 && t.formation != FormationSpec::Column {
            out.push(sandtable_engine::Problem::new(
                format!("unit \"{}\"", t.id),
                "a War Wagon Train's wagons stand in contact, one behind the other: give it `formation: Column` (BFS-WAG-12)",
            ));
        }
    }
    let (limit, what) = if level == GameLevel::Skirmish {
        (force.commanders.len(), "commanders at Skirmish level")
    } else {
        (force.regiments.len().max(1), "Regiments")
    };
    if trains.len() > limit {
        out.push(sandtable_engine::Problem::new(
            format!("force \"{}\"", force.army_list),
            format!(
                "{} War Wagon Trains: no more than {limit}, the number of {what} (BFS-WAG-12)",
                trains.len()
            ),
        ));
    }
    out
}

/// The unit card's line for a train: each wagon's crew and structure, and whether it is
/// connected (BFS-WAG-13, BFS-WAG-14).
pub fn card_line(t: &Train) -> String {
    let wagons: Vec<String> = t
        .wagons
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if w.crew == 0 {
                format!("#{} no crew, wagon {}/{STRUCTURE_SP}", i + 1, w.structure)
            } else {
                format!(
                    "#{} crew {}, wagon {}/{STRUCTURE_SP}",
                    i + 1,
                    w.crew,
                    w.structure
                )
            }
        })
        .collect();
    format!(
        "War wagons (Armor {STRUCTURE_ARMOR} the wagon, the profile's the crew){}: {} (BFS-WAG-13)",
        if t.connected { ", connected" } else { "" },
        wagons.join("; ")
    )
}

/// In a Regiment Wiped Out, war wagons that have lost their crews are taken off the table
/// (BFS-PSY-29, 000 l.4116-4119).
pub fn remove_crewless_wagons(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) {
    let Some(t) = game.unit(unit).train.clone() else {
        return;
    };
    for i in (0..t.wagons.len()).rev() {
        if t.wagons[i].crew == 0 && game.unit(unit).status == UnitStatus::OnTable {
            structure_losses(game, unit, i, STRUCTURE_SP as u32, events);
        }
    }
}

/// A train in two parts closes up at the start of its side's Movement Phase: its rear part moves
/// straight towards the front part, up to the train's Move, and stops short of anything in the
/// way. Until it is whole again it does nothing else (BFS-WAG-12: the parts may move only
/// towards one another, and operate normally only once reconnected).
pub fn close_up(game: &mut Game, side: crate::ids::Side, events: &mut Vec<Event>) {
    let cut: Vec<(UnitId, usize)> = game
        .units_on_table(side)
        .filter_map(|u| u.train.as_ref().and_then(|t| t.cut_at).map(|c| (u.id, c)))
        .collect();
    for (unit, at) in cut {
        let bases = game.unit(unit).bases.clone();
        if at == 0 || at >= bases.len() {
            if let Some(t) = game.unit_mut(unit).train.as_mut() {
                t.cut_at = None;
            }
            continue;
        }
        let (front, rear) = bases.split_at(at);
        let gap = sandtable_geometry::distance::set_distance(front, rear).unwrap_or(0.0);
        let dir = (front[at - 1].center() - rear[0].center()).normalize_or_zero();
        let allowance = crate::phases::movement::allowance(game, unit);
        let step = gap.min(allowance);
        // As any move: stopped by units, impassable ground and the enemy's 2 cm (BFS-MOV-7).
        let d = {
            let scene = crate::geo::scene(game);
            let obs = crate::moves::obstacles(game, unit, crate::moves::ENEMY_GAP_CM);
            let body = sandtable_geometry::Body::new(crate::geo::frame_of(rear), rear);
            sandtable_geometry::movement::move_along(&scene, &body, dir * step, &obs)
                .map_or(0.0, |o| o.travelled)
        };
        let whole = d >= gap - 1e-3;
        let u = game.unit_mut(unit);
        for b in u.bases[at..].iter_mut() {
            *b = b.translated(dir * d);
        }
        u.flags.activated = true;
        if let Some(t) = u.train.as_mut() {
            t.cut_at = (!whole).then_some(at);
        }
        events.push(Event::Ruling {
            rule: "BFS-WAG-12".into(),
            text: format!(
                "{}'s rear wagons close up {d:.1} cm towards the front ones{}",
                game.unit(unit).name,
                if whole {
                    ": the train is whole again."
                } else {
                    "; it stays in two parts and does nothing else this turn."
                }
            ),
        });
    }
}
