//! Abandoned guns and manning them (BFS-MAN-21, BFS-ART-17; rules revision 11).
//!
//! A gun whose crew is lost (its one Strength Point gone, or its crew destroyed rather than put
//! to flight, BFS-ART-1) leaves its gun on the table, abandoned: [`Game::abandoned_guns`] keeps
//! where it stands. Infantry, dragoons or artillery of Skill 4 or more, with a Defense order,
//! within 10 cm of an abandoned gun (its own side's or the enemy's) with no enemy within 2 cm of
//! it, may man it as a Special Maneuver, a commander who may order the unit paying 1 CP. The
//! unit loses as many Strength Points as the gun had (no Morale test for a base lost so, but the
//! losses count for its Regiment's Motivation, as any). The gun is set up where it stood, facing
//! the way the manning unit faces or towards the nearest enemy, and is a unit of the manning
//! unit's side and Regiment from then on, under its commanders: Skill and Morale 4, no Quick
//! Loading, no special rules of its new crew's, its ammunition as it was, and no order this turn.
//!
//! Readings: the manned gun is a new unit on the table (the gun lost stays lost in the counts of
//! the side that lost it); it counts for no side's Force Value, losses or Breaking Points, as
//! the book says of Breaking Points ("manned guns don't affect the Breaking Points of the
//! regiments in which they didn't start the game"). A Regiment that mans its own lost gun again
//! gets 1 Breaking Point back each time (BFS-ART-17). The walk to the gun (Open Order movement,
//! never through the enemy) is not traced: the unit must already stand within 10 cm, and nothing
//! may stand on the gun. An abandoned gun is no obstacle and no target.

use crate::command::SpecialManeuver;
use crate::event::Event;
use crate::ids::{CommanderId, UnitId};
use crate::profile::{SpecialRule, UnitKind};
use crate::state::{Game, MoraleLevel, OrderKind, TurnFlags, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_geometry::{Pose, Rect};
use serde::{Deserialize, Serialize};

const RULE: &str = "BFS-MAN-21";
/// A manning unit stands this close to the gun, at most (BFS-MAN-21).
pub const REACH_CM: f32 = 10.0;
/// No enemy may stand this close to the gun (BFS-MAN-21).
pub const ENEMY_CLEAR_CM: f32 = 2.0;
/// Skill a unit needs to man a gun (BFS-MAN-21).
pub const MIN_SKILL: u8 = 4;
/// A manned gun's Skill and Morale (BFS-MAN-21).
pub const MANNED_SKILL: u8 = 4;
pub const MANNED_MORALE: u8 = 4;

/// A gun left on the table by its lost crew.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AbandonedGun {
    /// The gun unit that lost its crew.
    pub gun: UnitId,
    /// Where the gun stands.
    pub base: Rect,
    /// The block of pikemen its crew hides among, alive, when it was left by Hide Among the
    /// Pikemen (BFS-SPC-23, [`crate::hide_crew`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_with: Option<UnitId>,
    /// The turn the crew left it.
    #[serde(default)]
    pub since_turn: u32,
}

/// Do abandoned guns stay on the table in this battle (rules revision 11)?
pub fn rules_apply(game: &Game) -> bool {
    crate::revision::succession(game.info.options.rules_revision)
}

/// A gun unit has lost its crew with these bases: the gun stays where it stood.
pub fn abandon(game: &mut Game, unit: UnitId, bases: &[Rect]) {
    if !rules_apply(game)
        || game.unit_profile(unit).kind != UnitKind::Artillery
        || game.abandoned_guns.iter().any(|a| a.gun == unit)
    {
        return;
    }
    if let Some(base) = bases.first() {
        let since_turn = game.turn.number;
        game.abandoned_guns.push(AbandonedGun {
            gun: unit,
            base: *base,
            hidden_with: None,
            since_turn,
        });
    }
}

/// May `unit` man the abandoned `gun` now, paid by `by`?
pub fn check(game: &Game, unit: UnitId, gun: UnitId, by: CommanderId) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    let Some(abandoned) = game.abandoned_guns.iter().find(|a| a.gun == gun) else {
        return refuse(format!(
            "{} is not an abandoned gun.",
            game.units
                .get(gun.index())
                .map_or("That", |g| g.name.as_str())
        ));
    };
    if let Some(pikes) = abandoned.hidden_with
        && game.unit(pikes).side == u.side
    {
        return Err(RuleError::new(
            "BFS-SPC-23",
            format!(
                "Its own crew hides among {}: they send it back from their menu.",
                game.unit(pikes).name
            ),
        ));
    }
    if !may_crew(p) {
        return refuse(format!(
            "Only infantry, dragoons or artillery of Skill {MIN_SKILL} or more man a gun; {} cannot.",
            u.name
        ));
    }
    if u.order != Some(OrderKind::Defense) {
        return refuse(format!(
            "{} needs a Defense order: manning is a Special Maneuver.",
            u.name
        ));
    }
    let base = std::slice::from_ref(&abandoned.base);
    let d = sandtable_geometry::distance::set_distance(&u.bases, base).unwrap_or(f32::MAX);
    if d > REACH_CM + sandtable_geometry::tolerance::LIMIT_EPS {
        return refuse(format!(
            "{} is {d:.1} cm from the gun: it mans one within {REACH_CM} cm.",
            u.name
        ));
    }
    site_clear(game, u.side, &abandoned.base).or_else(refuse)?;
    let crew = crew_sp(game, gun);
    if crate::losses::sp_left(game, unit) <= crew {
        return refuse(format!(
            "{} has too few Strength Points to give the gun a crew of {crew}.",
            u.name
        ));
    }
    crate::building::check_payer(game, unit, by, RULE)
}

/// Infantry, dragoons or artillery of Skill 4 or more: who may man a gun or a wagon
/// (BFS-MAN-21, BFS-WAG-19).
pub fn may_crew(p: &crate::profile::UnitProfile) -> bool {
    matches!(
        p.kind,
        UnitKind::Infantry | UnitKind::Dragoons | UnitKind::Artillery
    ) && p.skill >= MIN_SKILL
}

/// Is the gun at `base` free to be manned by side `side`: no enemy within 2 cm of it, and no
/// unit standing on it (BFS-MAN-21)? Otherwise why not.
pub(crate) fn site_clear(game: &Game, side: crate::ids::Side, base: &Rect) -> Result<(), String> {
    let gun = std::slice::from_ref(base);
    if game.units_on_table(side.other()).any(|e| {
        sandtable_geometry::distance::set_distance(&e.bases, gun).is_ok_and(|d| d < ENEMY_CLEAR_CM)
    }) {
        return Err(format!(
            "An enemy stands within {ENEMY_CLEAR_CM} cm of the gun."
        ));
    }
    if game
        .units
        .iter()
        .filter(|o| o.status == UnitStatus::OnTable)
        .flat_map(|o| o.bases.iter())
        .any(|b| sandtable_engine::scenario_check::rects_overlap(b, base))
    {
        return Err("A unit stands on the gun.".into());
    }
    Ok(())
}

/// The Strength Points the gun had: what its new crew costs the manning unit.
fn crew_sp(game: &Game, gun: UnitId) -> u32 {
    game.unit_profile(gun).strength as u32 * game.unit(gun).bases_at_start.max(1) as u32
}

/// Mans the gun (checked by [`check`]): a new unit of the manning unit's side stands where the
/// gun stood, facing as the manning unit does or towards the nearest enemy.
pub fn man(
    game: &mut Game,
    unit: UnitId,
    gun: UnitId,
    by: CommanderId,
    toward_enemy: bool,
    events: &mut Vec<Event>,
) {
    let Some(k) = game.abandoned_guns.iter().position(|a| a.gun == gun) else {
        return;
    };
    let abandoned = game.abandoned_guns.remove(k);
    crate::building::pay(game, by, RULE, "manning an abandoned gun", events);
    let crew = crew_sp(game, gun);
    let facing = if toward_enemy {
        nearest_enemy_direction(game, unit, abandoned.base.center())
    } else {
        None
    }
    .unwrap_or_else(|| crate::geo::unit_frame(game.unit(unit)).facing());
    let angle = (-facing.x).atan2(facing.y);
    let base = Rect::new(
        Pose::new(abandoned.base.center(), angle),
        abandoned.base.half,
    );
    let profile = manned_profile(game, gun);
    let (side, regiment) = (game.unit(unit).side, game.unit(unit).regiment);
    let id = UnitId(game.units.len() as u16);
    let mut g = game.unit(gun).clone();
    g.id = id;
    g.key = format!("{}-manned-{}", g.key, id.0);
    g.name = format!("{} (manned by {})", g.name, game.unit(unit).name);
    g.side = side;
    g.profile = profile;
    g.regiment = regiment;
    g.bases = vec![base];
    g.status = UnitStatus::OnTable;
    g.morale = MoraleLevel::Good;
    g.order = None;
    g.pending_order = None;
    g.casualty_markers = 0;
    g.bases_at_start = 1;
    g.bases_destroyed = 0;
    g.bases_fled = 0;
    g.attached = None;
    g.charge = None;
    g.battalion = None;
    g.taken_from = None;
    // Manned after the orders were given: no order and nothing more this turn.
    g.flags = TurnFlags {
        activated: true,
        ordered: true,
        ..TurnFlags::default()
    };
    g.manned_from = Some(gun);
    g.hidden_among = None;
    if let Some(state) = g.gun.as_mut() {
        // The old crew's extra hands and its choice of load went with it.
        state.limbered = false;
        state.additional_crew = false;
        state.load = None;
        state.last_fired_turn = None;
    }
    game.units.push(g);
    events.push(Event::Ruling {
        rule: RULE.into(),
        text: format!(
            "{} mans {}: a crew of {crew} SP from its own ranks, Skill and Morale 4, no Quick \
             Loading, no order this turn.",
            game.unit(unit).name,
            game.unit(gun).name
        ),
    });
    crate::losses::apply(
        game,
        unit,
        crew,
        crate::losses::LossCause::Detached,
        "men sent to crew a gun (BFS-MAN-21)",
        events,
    );
}

/// The direction from `from` to the nearest enemy of `unit`'s side, if any is on the table.
fn nearest_enemy_direction(
    game: &Game,
    unit: UnitId,
    from: sandtable_geometry::Vec2,
) -> Option<sandtable_geometry::Vec2> {
    game.units_on_table(game.unit(unit).side.other())
        .flat_map(|e| e.bases.iter())
        .map(|b| b.center() - from)
        .filter(|d| d.length_squared() > 1e-6)
        .min_by(|a, b| a.length_squared().total_cmp(&b.length_squared()))
        .map(|d| d.normalize())
}

/// The profile a manned gun takes: its own, with Skill and Morale 4 and the `Manned` flag (no
/// Quick Loading), added to the battle's profiles once. The manning unit's special rules are
/// not the gun's, so nothing of them comes along.
fn manned_profile(game: &mut Game, gun: UnitId) -> crate::ids::ProfileId {
    let base = game.unit_profile(gun).clone();
    let id = format!("{}-manned", base.id);
    if let Some(i) = game.profiles.iter().position(|p| p.id == id) {
        return crate::ids::ProfileId(i as u16);
    }
    let mut p = base;
    p.id = id;
    p.skill = MANNED_SKILL;
    p.morale = MANNED_MORALE;
    p.special_rules.push(SpecialRule::Manned);
    game.profiles.push(p);
    crate::ids::ProfileId((game.profiles.len() - 1) as u16)
}

/// Every gun `unit` could man now, as Special Maneuvers, paid by the first of its commanders who
/// may, set up facing the nearest enemy.
pub fn options(game: &Game, unit: UnitId) -> Vec<SpecialManeuver> {
    if !rules_apply(game) || game.unit(unit).order != Some(OrderKind::Defense) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for a in &game.abandoned_guns {
        let payer = crate::authority::commanders_who_may_order(game, unit)
            .into_iter()
            .find(|by| check(game, unit, a.gun, *by).is_ok());
        if let Some(by) = payer {
            out.push(SpecialManeuver::ManGun {
                gun: a.gun,
                by,
                toward_enemy: true,
            });
        }
    }
    out
}

/// The gun a manned gun first was, before any manning (a gun may be lost and manned again more
/// than once, by either side).
pub fn original_gun(game: &Game, unit: UnitId) -> UnitId {
    let mut g = unit;
    // Each manning adds a later unit, so the chain ends; the bound guards a bad save.
    for _ in 0..game.units.len() {
        match game.unit(g).manned_from {
            Some(before) => g = before,
            None => break,
        }
    }
    g
}

/// Breaking Points a Regiment gets back for its own lost guns that it manned again
/// (BFS-ART-17): 1 each time, for a gun it started the battle with.
pub fn regained_breaking_points(game: &Game, regiment: crate::ids::RegimentId) -> u32 {
    game.units
        .iter()
        .filter(|u| {
            u.regiment == Some(regiment)
                && u.manned_from.is_some()
                && game.unit(original_gun(game, u.id)).regiment == Some(regiment)
        })
        .count() as u32
}
