//! Regiment Motivation at Division level (BFS-PSY-25..30): each Regiment's Motivation Level, the
//! Breaking Points it has taken, the Regimental Commander's Motivation test in the
//! Reorganization Phase, and what a Regiment that fails it (Wiped Out) does to its own units and
//! to the independent units that watch it go.
//!
//! Readings where the book is silent, each said again where it is used:
//! - Additional Units are not told apart from a Regiment's own units in the scenario format, so
//!   every unit of the Regiment counts towards its Motivation Level (the book leaves Additional
//!   Units out of it, BFS-PSY-25).
//! - "Wiped Out friendly Main Forces" costs 1 BP once, when every Regiment marked `main_force`
//!   of the side is Wiped Out (the row has no "each").
//! - A Commander who left the table or is fleeing counts as a fled base (½ BP); one killed counts
//!   as lost (2 BP).
//! - The test is taken by the Regiment's highest-ranking Commander on the table; if all have
//!   fallen, with the Morale of the first of them and no Command Points.
//! - There is no camp on the table yet (the pre-battle sequence of issue 16), so its loss never
//!   counts.

use crate::dice::{Modifier, TestRoll};
use crate::event::{Event, TestKind, TestReport};
use crate::ids::{CommanderId, RegimentId, Side, UnitId};
use crate::scenario_spec::{CommanderRank, GameLevel};
use crate::state::{Game, MoraleLevel, UnitStatus};
use sandtable_engine::scenario::TableEdge;
use sandtable_geometry::Rect;
use sandtable_geometry::vision::VisionArc;

/// Enemy bases in good order this close to a side's own table edge cost it a Breaking Point
/// (BFS-PSY-26).
pub const ENEMY_NEAR_EDGE_CM: f32 = 30.0;
/// How many such enemy bases it takes (BFS-PSY-26).
pub const ENEMY_NEAR_EDGE_BASES: usize = 4;
/// A Wiped Out Regiment that started with at least this many bases costs its friends 2 BP, a
/// smaller one 1 (BFS-PSY-26).
pub const LARGE_REGIMENT_BASES: u32 = 10;
/// The most unused Command Points the Regimental Commander adds to the test (BFS-PSY-27).
pub const MAX_CP_BONUS: u8 = 3;

/// `bases × percent / 100`, rounding 0.5 up (BFS-PSY-25), in integers so that 18 × 50 % is
/// exactly 9.
pub fn round_half_up_percent(bases: u32, percent: u32) -> u32 {
    (bases * percent + 50) / 100
}

/// Bases the Regiment's units had at the start, commanders not counted (BFS-PSY-25).
pub fn starting_bases(game: &Game, regiment: RegimentId) -> u32 {
    game.units
        .iter()
        // A manned gun did not start the battle in it (BFS-ART-17).
        .filter(|u| u.regiment == Some(regiment) && u.manned_from.is_none())
        .map(|u| u.bases_at_start as u32)
        .sum()
}

/// The Regiment's Motivation Level, or `None` where it has no Motivation (below Division level,
/// or no coefficient; BFS-PSY-25, BFS-PSY-30).
pub fn motivation_level(game: &Game, regiment: RegimentId) -> Option<u32> {
    if game.info.level != GameLevel::Division {
        return None;
    }
    let pct = game.regiments[regiment.index()].motivation_percent?;
    Some(round_half_up_percent(starting_bases(game, regiment), pct))
}

/// One line of a Regiment's Breaking Points: how many, and for what (a gun it manned again gives
/// one back: −1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakingPoint {
    pub points: i32,
    pub reason: String,
}

/// A Regiment's Breaking Points, line by line (BFS-PSY-26).
pub fn breaking_points(game: &Game, regiment: RegimentId) -> Vec<BreakingPoint> {
    let side = game.regiments[regiment.index()].side;
    let mut lines = Vec::new();
    let mut add = |points: u32, reason: String| {
        if points > 0 {
            lines.push(BreakingPoint {
                points: points as i32,
                reason,
            });
        }
    };
    // Manned guns count for no Regiment's Breaking Points (BFS-ART-17).
    let units = || {
        game.units
            .iter()
            .filter(|u| u.regiment == Some(regiment) && u.manned_from.is_none())
    };
    let commanders = || {
        game.commanders
            .iter()
            .filter(|c| c.regiment == Some(regiment))
    };
    // ½ for each base fled, withdrawn off the table or fleeing, commanders included; the total
    // rounded up.
    let fled: u32 = units()
        .map(|u| {
            let fleeing = if u.status == UnitStatus::OnTable && u.morale == MoraleLevel::Flight {
                u.bases.len() as u32
            } else {
                0
            };
            u.bases_fled as u32 + fleeing
        })
        .sum::<u32>()
        + commanders()
            .filter(|c| {
                c.status == UnitStatus::Left || (c.status == UnitStatus::OnTable && c.fleeing)
            })
            .count() as u32;
    add(
        fled.div_ceil(2),
        format!("{fled} base(s) fled or fleeing, ½ each rounded up"),
    );
    let destroyed: u32 = units().map(|u| u.bases_destroyed as u32).sum();
    add(destroyed, format!("{destroyed} base(s) destroyed"));
    let killed = commanders()
        .filter(|c| c.status == UnitStatus::Destroyed)
        .count() as u32;
    add(2 * killed, format!("{killed} of its commanders lost"));
    for other in game
        .regiments
        .iter()
        .filter(|r| r.side == side && r.id != regiment && r.wiped_out)
    {
        let strength = starting_bases(game, other.id);
        let points = if strength >= LARGE_REGIMENT_BASES {
            2
        } else {
            1
        };
        add(
            points,
            format!("{} Wiped Out ({strength} bases at the start)", other.name),
        );
    }
    let main: Vec<_> = game
        .regiments
        .iter()
        .filter(|r| r.side == side && r.main_force && r.id != regiment)
        .collect();
    if !main.is_empty() && main.iter().all(|r| r.wiped_out) {
        add(1, "the Main Forces Wiped Out".into());
    }
    let near = enemy_bases_near_edge(game, side);
    if near >= ENEMY_NEAR_EDGE_BASES {
        add(
            1,
            format!(
                "{near} enemy bases in good order within {ENEMY_NEAR_EDGE_CM} cm of our table edge"
            ),
        );
    }
    let lost = |pick: &dyn Fn(&crate::state::Commander) -> bool| {
        game.commanders
            .iter()
            .filter(|c| c.side == side && pick(c))
            .any(|c| matches!(c.status, UnitStatus::Destroyed | UnitStatus::Left))
    };
    if lost(&|c| c.deputy) {
        add(1, "the deputy Commander-in-Chief lost".into());
    }
    if lost(&|c| c.rank == CommanderRank::CommanderInChief) {
        add(3, "the Commander-in-Chief lost".into());
    }
    let regained = crate::gun_manning::regained_breaking_points(game, regiment);
    if regained > 0 {
        lines.push(BreakingPoint {
            points: -(regained as i32),
            reason: format!("{regained} of its own lost guns manned again (BFS-ART-17)"),
        });
    }
    lines
}

/// The total of [`breaking_points`], never below 0.
pub fn total(lines: &[BreakingPoint]) -> u32 {
    lines.iter().map(|l| l.points).sum::<i32>().max(0) as u32
}

/// Enemy bases at Good Morale with any part within 30 cm of `side`'s own table edge.
fn enemy_bases_near_edge(game: &Game, side: Side) -> usize {
    let edge = game.side(side).home_edge;
    game.units_on_table(side.other())
        .filter(|u| u.morale == MoraleLevel::Good)
        .flat_map(|u| u.bases.iter())
        .filter(|b| distance_to_edge(game, edge, b) <= ENEMY_NEAR_EDGE_CM)
        .count()
}

/// How far the nearest corner of a base is from a table edge.
fn distance_to_edge(game: &Game, edge: TableEdge, base: &Rect) -> f32 {
    let t = game.info.table;
    base.corners()
        .iter()
        .map(|p| match edge {
            TableEdge::South => p.y,
            TableEdge::North => t.y - p.y,
            TableEdge::West => p.x,
            TableEdge::East => t.x - p.x,
        })
        .fold(f32::INFINITY, f32::min)
}

/// Must the Regiment test now: its Breaking Points at least its Motivation Level, or above it
/// under the option `motivation_when_exceeded` (AMB-03, BFS-PSY-27)?
pub fn must_test(game: &Game, regiment: RegimentId) -> Option<(u32, u32)> {
    let r = &game.regiments[regiment.index()];
    if r.wiped_out {
        return None;
    }
    let level = motivation_level(game, regiment)?;
    let bp = total(&breaking_points(game, regiment));
    let reached = if game.info.options.motivation_when_exceeded {
        bp > level
    } else {
        bp >= level
    };
    reached.then_some((bp, level))
}

/// Who takes the Regiment's test: its highest-ranking Commander on the table, else the first of
/// its fallen Commanders (for his Morale only).
fn tester(game: &Game, regiment: RegimentId) -> Option<(CommanderId, bool)> {
    let mut mine: Vec<_> = game
        .commanders
        .iter()
        .filter(|c| c.regiment == Some(regiment))
        .collect();
    mine.sort_by_key(|c| (c.status != UnitStatus::OnTable, c.rank, c.id));
    mine.first()
        .map(|c| (c.id, c.status == UnitStatus::OnTable))
}

/// The Motivation tests of the Reorganization Phase (BFS-PSY-22 step 1, BFS-PSY-27): the player
/// without the Initiative first, each Regiment at most once, Regiments Wiped Out in the meantime
/// adding to the others' Breaking Points. Allied Regiments whose Commander-in-Chief has fallen
/// are Wiped Out first (BFS-PSY-30). Nothing happens below Division level.
pub fn reorganization_tests(game: &mut Game, events: &mut Vec<Event>) {
    if game.info.level != GameLevel::Division
        || !crate::revision::motivation_rules(game.info.options.rules_revision)
    {
        return;
    }
    hold_out_tests(game, events);
    let first = game.turn.initiative.map_or(Side::B, |s| s.other());
    for side in [first, first.other()] {
        let chief_lost = game.commanders.iter().any(|c| {
            c.side == side
                && c.rank == CommanderRank::CommanderInChief
                && matches!(c.status, UnitStatus::Destroyed | UnitStatus::Left)
        });
        if chief_lost {
            let allied: Vec<RegimentId> = game
                .regiments
                .iter()
                .filter(|r| r.side == side && r.allied && !r.wiped_out)
                .map(|r| r.id)
                .collect();
            for r in allied {
                wipe_out(
                    game,
                    r,
                    "the Commander-in-Chief has fallen: an Allied Regiment leaves the field",
                    "BFS-PSY-30",
                    events,
                );
            }
        }
        let mut tested: Vec<RegimentId> = Vec::new();
        while let Some((r, bp, level)) = game
            .regiments
            .iter()
            .filter(|r| r.side == side && !tested.contains(&r.id))
            .find_map(|r| must_test(game, r.id).map(|(bp, l)| (r.id, bp, l)))
        {
            tested.push(r);
            if !test(game, r, bp, level, events) {
                wipe_out(game, r, "failed its Motivation test", "BFS-PSY-28", events);
            }
        }
        let has_regiments = game.regiments.iter().any(|r| r.side == side);
        if has_regiments && all_wiped_out(game, side) {
            // The battle is over: the other side makes no Motivation rolls (BFS-PSY-22).
            return;
        }
    }
}

/// Are all of the side's Regiments Wiped Out (BFS-PSY-22 step 3)?
pub fn all_wiped_out(game: &Game, side: Side) -> bool {
    game.regiments
        .iter()
        .filter(|r| r.side == side)
        .all(|r| r.wiped_out)
}

/// The Regimental Commander's Motivation test: his Morale, + his unused CP (at most 3), −1 for
/// every Breaking Point above the Motivation Level (BFS-PSY-27). Returns whether it passed.
fn test(
    game: &mut Game,
    regiment: RegimentId,
    bp: u32,
    level: u32,
    events: &mut Vec<Event>,
) -> bool {
    let name = game.regiments[regiment.index()].name.clone();
    let Some((c, present)) = tester(game, regiment) else {
        // A Regiment with no Commander at all cannot be rallied to fight on.
        return false;
    };
    let morale = crate::coward::morale(game, c) as i32;
    let mut mods = Vec::new();
    let cp = if present {
        game.commander(c).cp.min(MAX_CP_BONUS)
    } else {
        0
    };
    if cp > 0 {
        mods.push(Modifier::new(
            "BFS-PSY-27",
            format!("{cp} unused CP of the Regimental Commander"),
            cp as i32,
        ));
    }
    if bp > level {
        mods.push(Modifier::new(
            "BFS-PSY-27",
            format!(
                "{} Breaking Point(s) above the Motivation Level",
                bp - level
            ),
            -((bp - level) as i32),
        ));
    }
    let roll = TestRoll::roll(morale, mods, &mut game.dice, 10);
    let passed = roll.passed;
    events.push(Event::Test(TestReport {
        unit: None,
        commander: Some(c),
        kind: TestKind::Morale,
        rule: "BFS-PSY-27".into(),
        cause: format!("{name} has {bp} Breaking Points against a Motivation Level of {level}"),
        roll,
        outcome: if passed {
            "passed: the Regiment fights on".into()
        } else {
            "failed: the Regiment is Wiped Out".into()
        },
    }));
    passed
}

/// A Regiment Wiped Out (BFS-PSY-28): its Commanders and units turn to their own edge and flee,
/// never to rally; independent units that see it go test Morale (BFS-PSY-30).
pub fn wipe_out(
    game: &mut Game,
    regiment: RegimentId,
    why: &str,
    rule: &str,
    events: &mut Vec<Event>,
) {
    let side = game.regiments[regiment.index()].side;
    let members: Vec<UnitId> = game
        .units_on_table(side)
        .filter(|u| u.regiment == Some(regiment))
        .map(|u| u.id)
        .collect();
    let scene = crate::geo::scene(game);
    let watchers: Vec<UnitId> = game
        .units_on_table(side)
        .filter(|u| u.regiment.is_none() && u.morale != MoraleLevel::Flight)
        .filter(|u| {
            members
                .iter()
                .any(|m| crate::sight::sees(game, &scene, u.id, *m, Some(VisionArc::All360)))
        })
        .map(|u| u.id)
        .collect();
    game.regiments[regiment.index()].wiped_out = true;
    events.push(Event::RegimentWipedOut {
        regiment,
        rule: rule.into(),
        reason: why.into(),
    });
    for c in game
        .commanders
        .iter_mut()
        .filter(|c| c.regiment == Some(regiment) && c.status == UnitStatus::OnTable)
    {
        c.fleeing = true;
        c.cp = 0;
    }
    for u in members {
        // Wagons with no crew are taken off the table; ammunition wagons do not explode
        // (BFS-PSY-29, BFS-WAG-11).
        if crate::wagon::crewless(game, u) {
            crate::losses::destroy_unit(
                game,
                u,
                "BFS-PSY-29",
                "wagons with no crew of a Wiped Out Regiment are taken off the table (an ammunition wagon does not explode)".into(),
                events,
            );
            continue;
        }
        // Its war wagons without crews go (BFS-PSY-29).
        crate::wagon::train::remove_crewless_wagons(game, u, events);
        // A garrison does not flee, nor does a War Wagon Train: they test every turn instead
        // (BFS-PSY-29, BFS-WAG-17).
        if game.unit(u).morale != MoraleLevel::Flight
            && game.unit(u).garrison.is_none()
            && game.unit(u).train.is_none()
        {
            crate::flight::apply_level(
                game,
                u,
                MoraleLevel::Flight,
                "its Regiment is Wiped Out",
                None,
                events,
            );
        }
    }
    let cause = crate::morale::MoraleCause::Other {
        rule: "BFS-PSY-30",
        reason: format!("saw {} Wiped Out", game.regiments[regiment.index()].name),
    };
    for w in watchers {
        crate::flight::test_and_apply(game, w, &cause, events);
    }
}

/// Units of a Wiped Out Regiment that cannot flee, a garrison in a building, test Morale every
/// turn; each failure costs 2 SP (BFS-PSY-29). (War wagons come with the wagon rules.)
fn hold_out_tests(game: &mut Game, events: &mut Vec<Event>) {
    let holding: Vec<UnitId> = game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable && (u.garrison.is_some() || u.train.is_some()))
        .filter(|u| {
            u.regiment
                .is_some_and(|r| game.regiments[r.index()].wiped_out)
        })
        .map(|u| u.id)
        .collect();
    for u in holding {
        let reason = if game.unit(u).train.is_some() {
            "its Regiment is Wiped Out and its war wagons hold out"
        } else {
            "its Regiment is Wiped Out and it holds out in a building"
        };
        let cause = crate::morale::MoraleCause::Other {
            rule: "BFS-PSY-29",
            reason: reason.into(),
        };
        let roll = crate::morale::morale_test(game, u, &cause);
        let passed = roll.passed;
        let outcome = if passed {
            "passed: it holds out"
        } else {
            "failed: it loses 2 SP"
        };
        events.push(crate::morale::report(
            u,
            TestKind::Morale,
            &cause,
            roll,
            outcome.into(),
        ));
        if !passed {
            crate::losses::apply(
                game,
                u,
                2,
                crate::losses::LossCause::Shooting,
                "holding out after its Regiment was Wiped Out (BFS-PSY-29)",
                events,
            );
            crate::building::relayout(game, u);
        }
        crate::wagon::train::remove_crewless_wagons(game, u, events);
    }
}
