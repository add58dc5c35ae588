//! Dragoons (BFS-SPC-9; rules revision 11): mounted infantry, cavalry while on horseback and
//! infantry on foot (BFS-ATT-5). The army list gives a dragoon unit two profiles that name each
//! other (`other_form`): the mounted one (kind Dragoons, cavalry bases, with Poor Tactical
//! Discipline) and the one on foot (kind Infantry, foot bases). Mounting or dismounting swaps
//! the profile and lays the bases out again at their new size, the front edge where it was and
//! the same files, wherever they then fit.
//!
//! - With a Defense order it is a Special Maneuver; with a Move order it is a Movement Maneuver
//!   paying the Movement cost of the state before the change (AMB-77: 5 cm from horseback, 2 cm
//!   from foot), here made as the whole of that move (the book allows it at the start or the end
//!   of a longer move: not yet).
//! - Dismounting, the owner keeps one mounted base for every three on foot as horse holders
//!   (`ceil(bases / 4)` of them), or sends every horse away and may never mount again. Horse
//!   holders stand in the unit as foot bases here; they never shoot (the bases farthest from the
//!   target are taken for them). When the unit is in close combat the holders are attacked and
//!   become foot soldiers: it may never mount again (the book swaps them when they themselves are
//!   attacked; Sandtable counts any contact).
//! - On horseback it fights at −1 Skill in close combat, with Poor Tactical Discipline (the
//!   mounted profile's).
//! - A unit deployed on foot came to the battle without its horses: it does not mount.
//!
//! Not yet: mounting or dismounting before or after a move in one Move order, sending the horses
//! away during a move, and the Reconnaissance Point (issue 16).

use crate::event::Event;
use crate::ids::{ProfileId, UnitId};
use crate::profile::{SpecialRule, UnitKind};
use crate::scenario_spec::FormationSpec;
use crate::state::{Formation, Game, MoraleLevel, UnitStatus};
use sandtable_engine::RuleError;
use sandtable_geometry::{Pose, Rect};
use serde::{Deserialize, Serialize};

const RULE: &str = "BFS-SPC-9";

/// A dragoon unit on foot that came off its horses in the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dismounted {
    /// Bases holding the horses; 0 once the horses are gone, and the unit never mounts again.
    pub holders: u8,
}

/// Are dragoons played in this battle (rules revision 11)?
pub fn rules_apply(game: &Game) -> bool {
    crate::revision::succession(game.info.options.rules_revision)
}

/// Is the unit a dragoon unit on horseback?
pub fn mounted(game: &Game, unit: UnitId) -> bool {
    let p = game.unit_profile(unit);
    p.has(SpecialRule::Dragoons) && p.kind == UnitKind::Dragoons
}

/// The profile of the unit's other form: mounted if on foot, on foot if mounted.
pub fn other_form(game: &Game, unit: UnitId) -> Option<ProfileId> {
    let p = game.unit_profile(unit);
    let other = p.other_form.as_deref()?;
    game.profiles
        .iter()
        .position(|q| {
            q.id == other
                && q.other_form.as_deref() == Some(p.id.as_str())
                && q.has(SpecialRule::Dragoons)
        })
        .map(|i| ProfileId(i as u16))
}

/// Horse holders among the unit's bases, who do not shoot.
pub fn holders(game: &Game, unit: UnitId) -> usize {
    game.unit(unit)
        .dismounted
        .map_or(0, |d| d.holders as usize)
        .min(game.unit(unit).bases.len())
}

/// Horse holders a dismounting unit of `bases` keeps: one for every three on foot.
pub fn holders_for(bases: usize) -> u8 {
    bases.div_ceil(4) as u8
}

/// The profile and bases the unit takes by mounting (`keep_horses` none) or dismounting, or why
/// it may not now.
pub fn check_change(
    game: &Game,
    unit: UnitId,
    dismount: Option<bool>,
) -> Result<(ProfileId, Vec<Rect>), RuleError> {
    let refuse = |why: String| Err(RuleError::new(RULE, why));
    let u = game.unit(unit);
    if !rules_apply(game) || !game.unit_profile(unit).has(SpecialRule::Dragoons) {
        return refuse(format!("{} are not dragoons.", u.name));
    }
    let Some(other) = other_form(game, unit) else {
        return refuse(format!("{}'s list gives it no other form.", u.name));
    };
    if u.status != UnitStatus::OnTable || u.morale == MoraleLevel::Flight {
        return refuse(format!("{} is fleeing.", u.name));
    }
    match (mounted(game, unit), dismount) {
        (true, Some(_)) => {}
        (false, None) => match u.dismounted {
            Some(d) if d.holders > 0 => {}
            Some(_) => {
                return refuse(format!(
                    "{} sent its horses away: it never mounts again.",
                    u.name
                ));
            }
            None => {
                return refuse(format!(
                    "{} came to the battle on foot, without its horses.",
                    u.name
                ));
            }
        },
        (true, None) => return refuse(format!("{} is already mounted.", u.name)),
        (false, Some(_)) => return refuse(format!("{} is already on foot.", u.name)),
    }
    let formation = match u.formation {
        Formation::Close { files } if files <= 1 => FormationSpec::Column,
        Formation::Close { files } => FormationSpec::Line { files },
        _ => {
            return refuse(format!(
                "{} must stand in a Line or Column to mount or dismount.",
                u.name
            ));
        }
    };
    let frame = crate::geo::unit_frame(u);
    let front_mid = (frame.front_left() + frame.front_right()) * 0.5;
    let bearing = Pose::new(sandtable_geometry::Vec2::ZERO, frame.pose.angle).bearing_deg();
    let bases = crate::deploy::deployment_rects(
        formation,
        u.bases.len() as u8,
        game.profiles[other.index()].base_size(),
        front_mid,
        bearing,
    );
    let mut changed = game.clone();
    changed.unit_mut(unit).profile = other;
    let scene = crate::geo::scene_with(&changed, Some((unit, &bases)));
    crate::moves::check_final_position(&changed, &scene, unit, &bases).map_err(|e| {
        RuleError::new(
            RULE,
            format!("There is no room to lay the bases out again: {}", e.message),
        )
    })?;
    Ok((other, bases))
}

/// Mounts or dismounts the unit (checked by [`check_change`]).
pub fn change(
    game: &mut Game,
    unit: UnitId,
    dismount: Option<bool>,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let (_, bases) = check_change(game, unit, dismount)?;
    game.unit_mut(unit).bases = bases;
    switch(game, unit, dismount, events);
    Ok(())
}

/// The unit, its bases already laid out for its other form, takes that form (checked by
/// [`check_change`]).
pub(crate) fn switch(
    game: &mut Game,
    unit: UnitId,
    dismount: Option<bool>,
    events: &mut Vec<Event>,
) {
    let Some(other) = other_form(game, unit) else {
        return;
    };
    let n = game.unit(unit).bases.len();
    let u = game.unit_mut(unit);
    u.profile = other;
    u.dismounted = match dismount {
        None => None,
        Some(true) => Some(Dismounted {
            holders: holders_for(n),
        }),
        Some(false) => Some(Dismounted { holders: 0 }),
    };
    let text = match dismount {
        None => format!("{}: on horseback, cavalry now.", game.unit(unit).name),
        Some(true) => format!(
            "{}: dismounted, infantry now; {} base(s) hold the horses and do not shoot.",
            game.unit(unit).name,
            holders_for(n)
        ),
        Some(false) => format!(
            "{}: dismounted, the horses sent away; infantry for the rest of the battle.",
            game.unit(unit).name
        ),
    };
    events.push(Event::Ruling {
        rule: RULE.into(),
        text,
    });
}

/// Mounting or dismounting as the whole move of a Move order: a Movement Maneuver paying the
/// Movement cost of the state before the change (AMB-77).
pub fn plan_as_move(
    game: &Game,
    unit: UnitId,
    step: crate::command::MoveStep,
    allowance: f32,
) -> Result<crate::moves::MovePlan, RuleError> {
    let dismount = match step {
        crate::command::MoveStep::Dismount { keep_horses } => Some(keep_horses),
        _ => None,
    };
    let (_, bases) = check_change(game, unit, dismount)?;
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    let cost = crate::moves::maneuver_cost(p);
    if cost > allowance + 1e-4 {
        return Err(RuleError::new(
            RULE,
            format!(
                "{} may move {allowance:.1} cm; the change costs {cost:.0} cm.",
                u.name
            ),
        ));
    }
    crate::moves::check_maneuver_limit(game, unit, 1)?;
    let files = match u.formation {
        Formation::Close { files } => Some(files),
        _ => None,
    };
    Ok(crate::moves::MovePlan {
        unit,
        path: vec![crate::geo::frame_of(&u.bases), crate::geo::frame_of(&bases)],
        bases,
        cost,
        allowance,
        maneuvers: 1,
        files,
        open: false,
        ever_column: files == Some(1),
        placed: Vec::new(),
        passed_through: Vec::new(),
        description: format!(
            "{} ({cost:.0} cm, a Movement Maneuver)",
            match dismount {
                None => "mount",
                Some(true) => "dismount, keeping horse holders",
                Some(false) => "dismount, sending the horses away",
            }
        ),
    })
}

/// After every command: dragoons on foot in close combat lose their horse holders, and with them
/// the chance to mount again.
pub fn horses_lost(game: &mut Game, events: &mut Vec<Event>) {
    let hit: Vec<UnitId> = game
        .units
        .iter()
        .filter(|u| u.status == UnitStatus::OnTable && u.dismounted.is_some_and(|d| d.holders > 0))
        .map(|u| u.id)
        .filter(|u| !crate::flight::enemies_in_contact(game, *u).is_empty())
        .collect();
    for u in hit {
        game.unit_mut(u).dismounted = Some(Dismounted { holders: 0 });
        events.push(Event::Ruling {
            rule: RULE.into(),
            text: format!(
                "{}'s horse holders are attacked and fight on foot: it never mounts again.",
                game.unit(u).name
            ),
        });
    }
}

/// The close combat modifier of dragoons on horseback: −1 Skill (BFS-SPC-9).
pub fn mounted_penalty(game: &Game, unit: UnitId) -> Option<crate::dice::Modifier> {
    (rules_apply(game) && mounted(game, unit))
        .then(|| crate::dice::Modifier::new(RULE, "dragoons fighting on horseback", -1))
}
