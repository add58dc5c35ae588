//! Manning a war wagon (BFS-WAG-19): infantry, dragoons or artillery of Skill 4 or more, with a
//! Defense order, within 10 cm of an abandoned war wagon of its own side's train and with no
//! enemy within 2 cm of the wagon, spends a Special Maneuver and its commander 1 CP: the wagon has
//! a full crew again, and the unit loses as many Strength Points (no Morale test for a base lost
//! so). The wagon shares its train's order, as the book has it for a wagon of a train.
//!
//! Readings and limits: the manned crew takes the train's profile, where the book gives it
//! Skill and Morale 4 (per-wagon values are not kept); manning an enemy's abandoned wagon, or an
//! abandoned gun, is not offered yet (an enemy wagon taken in combat changes sides instead,
//! BFS-WAG-8).

use crate::event::Event;
use crate::ids::{CommanderId, UnitId};
use crate::state::{Game, OrderKind, UnitStatus};
use sandtable_engine::RuleError;

/// A manning unit stands this close to the wagon, at most (BFS-WAG-19).
pub const REACH_CM: f32 = 10.0;
/// No enemy may be this close to the wagon (BFS-WAG-19).
pub const ENEMY_CLEAR_CM: f32 = 2.0;
/// Skill a unit needs to man a wagon, as a gun (BFS-WAG-19, BFS-MAN-21).
pub use crate::gun_manning::MIN_SKILL;

/// May `unit` man wagon `wagon` of `train` now, paid by `by`?
pub fn check(
    game: &Game,
    unit: UnitId,
    train: UnitId,
    wagon: usize,
    by: CommanderId,
) -> Result<(), RuleError> {
    let refuse = |why: String| Err(RuleError::new("BFS-WAG-19", why));
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if !super::rules_apply(game) {
        return refuse("This battle was recorded before war wagons were played.".into());
    }
    if !crate::gun_manning::may_crew(p) {
        return refuse(format!(
            "Only infantry, dragoons or artillery of Skill {MIN_SKILL} or more man a wagon; {} cannot.",
            u.name
        ));
    }
    let t = game.unit(train);
    let Some(state) = &t.train else {
        return refuse(format!("{} is not a War Wagon Train.", t.name));
    };
    if t.side != u.side || t.status != UnitStatus::OnTable {
        return refuse(format!(
            "{} is not one of this side's trains on the table.",
            t.name
        ));
    }
    let (Some(w), Some(base)) = (state.wagons.get(wagon), t.bases.get(wagon)) else {
        return refuse(format!("{} has no wagon #{}.", t.name, wagon + 1));
    };
    if w.crew > 0 {
        return refuse(format!(
            "Wagon #{} of {} still has its crew.",
            wagon + 1,
            t.name
        ));
    }
    let d = sandtable_geometry::distance::set_distance(&u.bases, std::slice::from_ref(base))
        .unwrap_or(f32::MAX);
    if d > REACH_CM + sandtable_geometry::tolerance::LIMIT_EPS {
        return refuse(format!(
            "{} is {d:.1} cm from the wagon: it mans one within {REACH_CM} cm.",
            u.name
        ));
    }
    let enemy_near = game.units_on_table(u.side.other()).any(|e| {
        sandtable_geometry::distance::set_distance(&e.bases, std::slice::from_ref(base))
            .is_ok_and(|d| d < ENEMY_CLEAR_CM)
    });
    if enemy_near {
        return refuse(format!(
            "An enemy stands within {ENEMY_CLEAR_CM} cm of the wagon."
        ));
    }
    let crew = game.unit_profile(train).strength as u32;
    if crate::losses::sp_left(game, unit) <= crew {
        return refuse(format!(
            "{} has too few Strength Points to give the wagon a crew of {crew}.",
            u.name
        ));
    }
    if u.order != Some(OrderKind::Defense) {
        return refuse(format!("{} needs a Defense order.", u.name));
    }
    crate::building::check_payer(game, unit, by, "BFS-WAG-19")
}

/// The wagon gets a full crew from `unit`, which loses as many Strength Points; `by` pays 1 CP.
pub fn man(
    game: &mut Game,
    unit: UnitId,
    train: UnitId,
    wagon: usize,
    by: CommanderId,
    events: &mut Vec<Event>,
) {
    let crew = game.unit_profile(train).strength;
    crate::building::pay(
        game,
        by,
        "BFS-WAG-19",
        "manning an abandoned war wagon",
        events,
    );
    if let Some(w) = game
        .unit_mut(train)
        .train
        .as_mut()
        .and_then(|t| t.wagons.get_mut(wagon))
    {
        w.crew = crew;
    }
    events.push(Event::Ruling {
        rule: "BFS-WAG-19".into(),
        text: format!(
            "{} mans wagon #{} of {}: a crew of {crew} SP, taken from its own ranks.",
            game.unit(unit).name,
            wagon + 1,
            game.unit(train).name
        ),
    });
    crate::losses::apply(
        game,
        unit,
        crew as u32,
        crate::losses::LossCause::Detached,
        "men sent to crew a war wagon (BFS-WAG-19)",
        events,
    );
}

/// Every manning `unit` could do now, as Special Maneuvers: each abandoned wagon of its side's
/// trains in reach, paid by the first of its commanders who may.
pub fn options(game: &Game, unit: UnitId) -> Vec<crate::command::SpecialManeuver> {
    if !super::rules_apply(game) || game.unit(unit).order != Some(OrderKind::Defense) {
        return Vec::new();
    }
    let side = game.unit(unit).side;
    let mut out = Vec::new();
    for t in game.units_on_table(side).filter(|t| t.train.is_some()) {
        let n = t.train.as_ref().map_or(0, |tr| tr.wagons.len());
        for wagon in 0..n {
            let payer = crate::authority::commanders_who_may_order(game, unit)
                .into_iter()
                .find(|by| check(game, unit, t.id, wagon, *by).is_ok());
            if let Some(by) = payer {
                out.push(crate::command::SpecialManeuver::ManWagon {
                    train: t.id,
                    wagon: wagon as u8,
                    by,
                });
            }
        }
    }
    out
}
