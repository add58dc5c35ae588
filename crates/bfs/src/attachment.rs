//! Commanders with units: joining one (BFS-CDR-3, BFS-CDR-12), leaving it (BFS-CDR-14), riding
//! with it wherever it goes and when it flees (BFS-CDR-15), and the risk an attached commander runs
//! when his unit is hit (BFS-CDR-11), with what his loss costs (BFS-CDR-18). A commander on his
//! own blocks no enemy, and makes way when one comes within 2 cm of him (BFS-CDR-5). What an attached
//! commander does for his unit (+1 die, +1 Morale, orders at 0 CP) is in the rules that roll
//! those dice ([`crate::losses`], [`crate::morale`], [`crate::authority`]).
//!
//! Not yet: a lone commander as the target of a charge or of shooting (BFS-CDR-7..10), the
//! succession of regimental commanders (BFS-CMD-6), Breaking Points (Division level).

use crate::command::MoveStep;
use crate::event::Event;
use crate::flight;
use crate::ids::{CommanderId, UnitId};
use crate::morale::MoraleCause;
use crate::phases::movement::{self, acting};
use crate::profile::UnitKind;
use crate::scenario_spec::GameLevel;
use crate::skill::{self, Test, Tester};
use crate::state::{Game, OrderKind, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_engine::scenario_check::rects_overlap;
use sandtable_geometry::{Pose, Rect, Vec2, distance};

/// Friendly units this close to a fallen commander test Morale (BFS-CDR-18).
pub const LOSS_TEST_RANGE_CM: f32 = 20.0;

/// A commander may join `unit` now (BFS-CDR-12): his side is moving, he has not moved this phase
/// and is with no unit; the unit is his side's, on the table, not a gun or wagon, has no
/// commander, may be joined by him (mounted or on foot; his own command at Division level), has
/// no Charge order unless it already fights; and it lies within his Move.
pub fn check_join(game: &Game, commander: CommanderId, unit: UnitId) -> Result<(), RuleError> {
    let side = acting(game)?;
    check_join_for(game, commander, unit, side)
}

/// [`check_join`] for a commander of `side`, whether or not that side is moving now (a lone
/// commander charged may join a unit in answer, BFS-CDR-8).
pub fn check_join_for(
    game: &Game,
    commander: CommanderId,
    unit: UnitId,
    side: crate::ids::Side,
) -> Result<(), RuleError> {
    crate::coward::check_may_join(game, commander)?;
    let c = game.commander(commander);
    let u = game.unit(unit);
    let refuse = |why: String| Err(RuleError::new("BFS-CDR-12", why));
    if c.side != side || c.status != UnitStatus::OnTable || c.fleeing {
        return refuse(format!("{} cannot act now.", c.name));
    }
    if c.moved {
        return refuse(format!(
            "{} has already moved this phase: he joins a unit with his move.",
            c.name
        ));
    }
    if let Some(with) = c.attached_to {
        return refuse(format!(
            "{} is with {}: he may not leave one unit and join another in the same move.",
            c.name,
            game.unit(with).name
        ));
    }
    if u.side != side || u.status != UnitStatus::OnTable {
        return refuse(format!("{} is not a unit of his on the table.", u.name));
    }
    let up = game.unit_profile(unit);
    if matches!(up.kind, UnitKind::Wagon | UnitKind::Artillery) {
        return refuse("A commander never joins wagons or guns.".into());
    }
    if !game.profile(c.profile).is_mounted() && up.kind != UnitKind::Infantry {
        return refuse(format!("{} is on foot: he may join only infantry.", c.name));
    }
    if let Some(other) = u.attached {
        return refuse(format!(
            "{} already has {} with it: one commander per unit.",
            u.name,
            game.commander(other).name
        ));
    }
    if game.info.level == GameLevel::Division
        && !crate::authority::is_senior(c.rank)
        && (u.regiment.is_none() || u.regiment != c.regiment)
    {
        return refuse(format!("{} is not under {}'s command.", u.name, c.name));
    }
    if u.order == Some(OrderKind::Charge) && flight::enemies_in_contact(game, unit).is_empty() {
        return refuse(format!(
            "{} has a Charge order and is not yet in contact with the enemy.",
            u.name
        ));
    }
    let d =
        distance::set_distance(std::slice::from_ref(&c.base), &u.bases).unwrap_or(f32::INFINITY);
    let reach = game.profile(c.profile).movement.basic;
    if d > reach + 1e-3 {
        return Err(RuleError::new(
            "BFS-CDR-12",
            format!(
                "{} is {d:.1} cm from {}: beyond his Move of {reach} cm.",
                c.name, u.name
            ),
        ));
    }
    Ok(())
}

/// The commander rides to the unit and joins it; it may not move again this turn.
pub fn join(
    game: &mut Game,
    commander: CommanderId,
    unit: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_join(game, commander, unit)?;
    join_unchecked(game, commander, unit, events);
    Ok(())
}

/// The join itself, its checks made by the caller.
pub fn join_unchecked(
    game: &mut Game,
    commander: CommanderId,
    unit: UnitId,
    events: &mut Vec<Event>,
) {
    {
        let c = game.commander_mut(commander);
        c.attached_to = Some(unit);
        c.moved = true;
    }
    {
        let u = game.unit_mut(unit);
        u.attached = Some(commander);
        u.flags.activated = true;
    }
    place_with(game, commander, unit);
    events.push(Event::CommanderMoved {
        commander,
        to: game.commander(commander).base.center(),
        joined: Some(unit),
    });
    events.push(Event::Ruling {
        rule: "BFS-CDR-12".into(),
        text: format!(
            "{} joins {}: +1 die in close combat and shooting, +1 Morale, its orders cost him \
             nothing (BFS-CDR-13); the unit moves no more this turn.",
            game.commander(commander).name,
            game.unit(unit).name
        ),
    });
}

/// Where an attached commander's steps take him as he leaves (BFS-CDR-14): only before his unit
/// has moved or maneuvered this turn, his move measured from the middle of the unit.
pub fn check_leave(
    game: &Game,
    commander: CommanderId,
    steps: &[MoveStep],
) -> Result<Rect, RuleError> {
    let side = acting(game)?;
    let c = game.commander(commander);
    let Some(unit) = c.attached_to else {
        return Err(RuleError::new(
            "BFS-CDR-14",
            format!("{} is with no unit.", c.name),
        ));
    };
    if c.side != side || c.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            "BFS-CDR-14",
            format!("{} cannot act now.", c.name),
        ));
    }
    let u = game.unit(unit);
    if u.flags.moved || u.flags.activated || u.flags.maneuvers > 0 || u.flags.special_maneuvers > 0
    {
        return Err(RuleError::new(
            "BFS-CDR-14",
            format!(
                "{} has already moved or maneuvered this turn: {} stays with it.",
                u.name, c.name
            ),
        ));
    }
    let frame = crate::geo::unit_frame(u);
    let start = Rect::new(Pose::new(frame.center(), frame.pose.angle), c.base.half);
    movement::commander_path(game, commander, start, steps)
}

/// The commander leaves his unit and moves; the unit may then move as usual.
pub fn leave(
    game: &mut Game,
    commander: CommanderId,
    steps: &[MoveStep],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let base = check_leave(game, commander, steps)?;
    let unit = game.commander(commander).attached_to.expect("checked");
    game.unit_mut(unit).attached = None;
    let c = game.commander_mut(commander);
    c.attached_to = None;
    c.base = base;
    c.moved = true;
    events.push(Event::CommanderMoved {
        commander,
        to: base.center(),
        joined: None,
    });
    events.push(Event::Ruling {
        rule: "BFS-CDR-14".into(),
        text: format!(
            "{} leaves {}.",
            game.commander(commander).name,
            game.unit(unit).name
        ),
    });
    Ok(())
}

/// An attached commander is a marker on his unit (BFS-CDR-12): his base sits behind the middle
/// of its rear rank, facing as it faces.
fn place_with(game: &mut Game, commander: CommanderId, unit: UnitId) {
    let frame = crate::geo::unit_frame(game.unit(unit));
    let half = game.commander(commander).base.half;
    let back = frame.facing() * -(frame.half.y + half.y);
    game.commander_mut(commander).base =
        Rect::new(Pose::new(frame.center() + back, frame.pose.angle), half);
}

/// After every command: attached commanders ride with their units, flee with them (BFS-CDR-15),
/// leave the table with them, and face the escape test when the unit they are with is destroyed.
pub fn keep_with_units(game: &mut Game, events: &mut Vec<Event>) {
    let attached: Vec<(CommanderId, UnitId)> = game
        .commanders
        .iter()
        .filter(|c| c.status == UnitStatus::OnTable)
        .filter_map(|c| c.attached_to.map(|u| (c.id, u)))
        .collect();
    for (c, u) in attached {
        match game.unit(u).status {
            UnitStatus::OnTable | UnitStatus::Reserve => {
                place_with(game, c, u);
                game.commander_mut(c).fleeing = false;
            }
            UnitStatus::Left => {
                game.unit_mut(u).attached = None;
                let cm = game.commander_mut(c);
                cm.attached_to = None;
                cm.status = UnitStatus::Left;
                events.push(Event::CommanderLost {
                    commander: c,
                    killed: false,
                    reason: format!("he fled off the table with {}", game.unit(u).name),
                });
            }
            UnitStatus::Destroyed => {
                game.unit_mut(u).attached = None;
                game.commander_mut(c).attached_to = None;
                escape_or_fall(
                    game,
                    c,
                    -2,
                    "BFS-CDR-15",
                    format!("{} was destroyed around him", game.unit(u).name),
                    events,
                );
            }
        }
    }
}

/// Whether an attached commander is hurt when his unit's Armor tests roll more than one "0"
/// (BFS-CDR-11): one Skill test for the second "0" and one more for each further one. Returns
/// true if he fell.
pub fn risk_to_attached(
    game: &mut Game,
    unit: UnitId,
    armor_faces: &[u8],
    events: &mut Vec<Event>,
) -> bool {
    let Some(c) = game.unit(unit).attached else {
        return false;
    };
    let zeros = armor_faces.iter().filter(|f| **f == 10).count();
    if zeros < 2 || game.commander(c).status != UnitStatus::OnTable {
        return false;
    }
    for i in 0..zeros - 1 {
        let cause = format!(
            "{} zeros in {}'s Armor tests: the commander with it is at risk (test {} of {})",
            zeros,
            game.unit(unit).name,
            i + 1,
            zeros - 1
        );
        let what = Test {
            rule: "BFS-CDR-11",
            cause,
            passed: "passed: unhurt",
            failed: "failed: he falls",
        };
        let passed = skill::test(game, Tester::Commander(c), Vec::new(), what, events);
        if !passed {
            game.unit_mut(unit).attached = None;
            game.commander_mut(c).attached_to = None;
            fall(
                game,
                c,
                format!("struck down with {}", game.unit(unit).name),
                events,
            );
            return true;
        }
    }
    false
}

/// A commander whose escort is gone takes a Skill test with `modifier` (BFS-CDR-9, BFS-CDR-15):
/// passed, he gets away within his Move towards his own edge, with no CP this turn or the next;
/// failed, he is killed.
fn escape_or_fall(
    game: &mut Game,
    c: CommanderId,
    modifier: i32,
    rule: &'static str,
    cause: String,
    events: &mut Vec<Event>,
) {
    let mods = if modifier != 0 {
        vec![sandtable_engine::Modifier::new(
            rule,
            "escaping from a destroyed unit",
            modifier,
        )]
    } else {
        Vec::new()
    };
    let what = Test {
        rule,
        cause: cause.clone(),
        passed: "passed: his escort covers his escape",
        failed: "failed: he is killed",
    };
    let passed = skill::test(game, Tester::Commander(c), mods, what, events);
    if !passed {
        fall(game, c, cause, events);
        return;
    }
    escape(game, c, events);
}

/// A lone commander who lost `sp` Strength Points (BFS-CDR-9, BFS-CDR-10): a Skill test for each
/// unsaved hit, one die each; he escapes only if he passes them all, and is killed at the first
/// he fails.
pub fn lone_commander_hit(
    game: &mut Game,
    c: CommanderId,
    sp: u32,
    cause: String,
    events: &mut Vec<Event>,
) {
    if sp == 0 || game.commander(c).status != UnitStatus::OnTable {
        return;
    }
    let rule = if sp > 1 { "BFS-CDR-10" } else { "BFS-CDR-9" };
    for i in 0..sp {
        let what = Test {
            rule,
            cause: if sp > 1 {
                format!("{cause}: {sp} unsaved hits, test {} of {sp}", i + 1)
            } else {
                format!("{cause}: an unsaved hit")
            },
            passed: "passed: his escort covers him",
            failed: "failed: he is killed",
        };
        if !skill::test(game, Tester::Commander(c), Vec::new(), what, events) {
            fall(game, c, cause, events);
            return;
        }
    }
    escape(game, c, events);
}

/// A commander whose escort sacrificed itself gets away: his Move towards his own edge, no CP
/// this turn or the next, 1 SP again (BFS-CDR-9).
fn escape(game: &mut Game, c: CommanderId, events: &mut Vec<Event>) {
    let side = game.commander(c).side;
    let reach = game.profile(game.commander(c).profile).movement.basic;
    let dir = crate::moves::toward_home(game, side);
    let t = game.info.table;
    let turn = game.turn.number;
    let cm = game.commander_mut(c);
    let half = cm.base.half;
    let to = cm.base.center() + dir * reach;
    let m = half.length();
    let to = Vec2::new(to.x.clamp(m, t.x - m), to.y.clamp(m, t.y - m));
    cm.base = Rect::new(Pose::new(to, cm.base.pose.angle), half);
    cm.cp = 0;
    cm.stunned_until_turn = turn + 1;
    events.push(Event::Ruling {
        rule: "BFS-CDR-9".into(),
        text: format!(
            "{} escapes {reach} cm towards his own edge; he has no CP this turn or the next.",
            game.commander(c).name
        ),
    });
}

/// A commander killed: his base leaves the table, and every friendly unit within 20 cm of where
/// he fell tests Morale (BFS-CDR-18).
fn fall(game: &mut Game, c: CommanderId, reason: String, events: &mut Vec<Event>) {
    let at = game.commander(c).base;
    let side = game.commander(c).side;
    {
        let cm = game.commander_mut(c);
        cm.status = UnitStatus::Destroyed;
        cm.cp = 0;
    }
    events.push(Event::CommanderLost {
        commander: c,
        killed: true,
        reason,
    });
    let near: Vec<UnitId> = game
        .units_on_table(side)
        .filter(|u| {
            distance::set_distance(std::slice::from_ref(&at), &u.bases)
                .is_ok_and(|d| d <= LOSS_TEST_RANGE_CM)
        })
        .map(|u| u.id)
        .collect();
    let cause = MoraleCause::Other {
        rule: "BFS-CDR-18",
        reason: format!("{} fell nearby", game.commander(c).name),
    };
    for u in near {
        flight::test_and_apply(game, u, &cause, events);
    }
}

/// Enemies end their moves where they like; a lone commander then rides clear at once, by the
/// shortest way, to more than 2 cm from every enemy base (BFS-CDR-5), and out of the way of
/// friends who fled or withdrew over him (BFS-CDR-6). Battles recorded before rules revision 2
/// left him where he was.
pub fn make_way(game: &mut Game, events: &mut Vec<Event>) {
    if !crate::revision::ground_rules(game.info.options.rules_revision) {
        return;
    }
    const CLEAR_CM: f32 = 2.0;
    let lone: Vec<CommanderId> = game
        .commanders
        .iter()
        .filter(|c| c.status == UnitStatus::OnTable && c.attached_to.is_none())
        .map(|c| c.id)
        .collect();
    for c in lone {
        let side = game.commander(c).side;
        // Enemy bases he keeps 2 cm from; friends only clear of (BFS-CDR-6: a unit fleeing or
        // withdrawing through him moves him out of its way).
        let start = game.commander(c).base;
        // Only bases within reach of his spot (and of the farthest he may be moved) matter.
        let reach = start.half.length() + CLEAR_CM + 15.0 + 4.0;
        let others: Vec<(Rect, f32)> = game
            .units
            .iter()
            .filter(|u| u.status == UnitStatus::OnTable)
            .flat_map(|u| {
                let gap = if u.side != side { CLEAR_CM } else { 0.0 };
                u.bases.iter().map(move |b| (*b, gap))
            })
            .filter(|(b, _)| b.center().distance(start.center()) <= reach + b.half.length())
            .collect();
        // The shortest way clear: the nearest spot, in 16 directions and 0.25 cm steps up to
        // 15 cm, more than 2 cm from every enemy base and off every friend's.
        let clear = |r: &Rect| {
            others.iter().all(|(o, gap)| {
                if *gap > 0.0 {
                    distance::distance(r, o).is_ok_and(|d| d > *gap)
                } else {
                    !rects_overlap(r, o)
                }
            })
        };
        if clear(&start) {
            continue;
        }
        // The first ring of distances with a clear spot; each clear direction narrowed down to
        // the hundredth of a centimetre; the shortest wins.
        let directions: Vec<Vec2> = (0..16)
            .map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 16.0))
            .collect();
        let narrowed = |dir: Vec2, t: f32| {
            let (mut lo, mut hi) = (t - 0.25, t);
            while hi - lo > 0.005 {
                let mid = 0.5 * (lo + hi);
                if clear(&start.translated(dir * mid)) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            hi + 0.01
        };
        let mut base = start;
        for k in 1..=60 {
            let t = k as f32 * 0.25;
            let best = directions
                .iter()
                .filter(|d| clear(&start.translated(**d * t)))
                .map(|d| (*d, narrowed(*d, t)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((dir, t)) = best {
                base = start.translated(dir * t);
                break;
            }
        }
        if base == start {
            continue;
        }
        let t = game.info.table;
        let m = base.half.length();
        let at = Vec2::new(
            base.center().x.clamp(m, t.x - m),
            base.center().y.clamp(m, t.y - m),
        );
        let base = Rect::new(Pose::new(at, base.pose.angle), base.half);
        let moved = (base.center() - start.center()).length();
        game.commander_mut(c).base = base;
        events.push(Event::Ruling {
            rule: "BFS-CDR-5".into(),
            text: format!(
                "{} makes way: {moved:.1} cm, clear of the units around him.",
                game.commander(c).name
            ),
        });
    }
}
