//! Morale (NQ-MOR-1..4, G7, G7b, G8): the house D20 test against the morale number and the
//! sheet's modifiers, retreats with their reform roll, routs, disorder, and what a rout does to
//! the friends nearby and to a leader with the unit (G6).

use crate::event::Event;
use crate::facts::{Facts, modifiers};
use crate::force::Trait;
use crate::ground::cover;
use crate::options::EliteRule;
use crate::state::{Game, INCH, UnitId};
use crate::tables::tables;
use crate::vocab::{Arm, Formation, Rating, Standing};
use sandtable_engine::narration::{DieFace, RollReport};
use sandtable_engine::roll::{Modifier, Target, Test, total};
use sandtable_geometry::Vec2;

/// The bearing (degrees, 0 north, clockwise) of a direction.
pub fn bearing_of(d: Vec2) -> f32 {
    d.x.atan2(d.y).to_degrees().rem_euclid(360.0)
}

/// The facts about the unit itself that every morale check asks (NQ-MOR-2).
pub fn standing_facts(game: &Game, id: UnitId) -> Facts {
    let u = game.unit(id);
    let r = u.rect();
    let support = tables().distances.support * INCH;
    let supported = game
        .present_units(u.side)
        .any(|f| f.id != id && crate::footprint::gap(&r, &f.rect()) <= support);
    let lost = u.start_figures.saturating_sub(u.figures);
    Facts {
        supported,
        behind_cover: cover(game, &r).is_some(),
        figures_lost: lost,
        disordered: u.disordered(),
        retreat: u.in_retreat(),
        ridden_down: u.ridden_down,
        fatigue: u.fatigue,
        over_half_lost: lost * 2 > u.start_figures,
        ..Facts::default()
    }
}

/// The modifiers of a check with these facts.
pub fn morale_modifiers(facts: &Facts) -> Vec<Modifier> {
    modifiers(&tables().morale_modifiers, "NQ-MOR-2", facts)
}

/// The test a unit takes (G7): pass on the morale die at most its number plus the modifiers.
pub fn morale_test(game: &Game, id: UnitId, facts: &Facts) -> (Test, Vec<Modifier>) {
    let mods = morale_modifiers(facts);
    let need = game.unit(id).morale_number as i32 + total(&mods);
    (
        Test {
            sides: game.options.morale_die,
            target: Target::AtMost(need),
        },
        mods,
    )
}

/// The chance the unit passes a check with these facts (for previews).
pub fn pass_chance(game: &Game, id: UnitId, facts: &Facts) -> f64 {
    morale_test(game, id, facts).0.pass_chance()
}

/// Takes a morale check, recording it.
pub fn check(
    game: &mut Game,
    id: UnitId,
    why: &str,
    facts: &Facts,
    events: &mut Vec<Event>,
) -> bool {
    let (test, mods) = morale_test(game, id, facts);
    let out = test.roll(&mut game.dice);
    let Target::AtMost(need) = test.target else {
        unreachable!("morale tests roll under")
    };
    let u = game.unit(id);
    let report = RollReport {
        label: format!(
            "Morale check (G7): D{} needing {} or less (morale number {} {:+})",
            test.sides,
            need,
            u.morale_number,
            total(&mods)
        ),
        modifiers: mods,
        notes: vec![why.to_string()],
        faces: out
            .face
            .map(|f| DieFace {
                value: f as u32,
                success: out.passed,
            })
            .into_iter()
            .collect(),
        reroll: None,
        result: if out.passed { "passed" } else { "failed" }.into(),
    };
    events.push(Event::MoraleCheck {
        unit: id,
        why: why.to_string(),
        report,
        passed: out.passed,
    });
    out.passed
}

/// The reform roll (NQ-MOR-3/4): the actions a unit in retreat must spend standing.
pub fn reform_roll(game: &mut Game, id: UnitId) -> (u8, RollReport) {
    let u = game.unit(id);
    let elite = match game.options.reform_elite {
        EliteRule::RatedA => u.profile.rating == Rating::A,
        EliteRule::Threshold(n) => u.morale_number >= n,
    };
    let facts = Facts {
        elite,
        cavalry: u.arm().is_cavalry(),
        ridden_down: u.ridden_down,
        militia_like: u.profile.has(Trait::MilitiaLike),
        ..Facts::default()
    };
    let mods = modifiers(&tables().reform_modifiers, "NQ-MOR-4", &facts);
    let face = game.dice.d6();
    let roll = face as i32 + total(&mods);
    let actions = tables().reform_actions(roll);
    let report = RollReport {
        label: format!("Reform roll (NQ-MOR-3): D6 {:+}", total(&mods)),
        modifiers: mods,
        notes: vec![],
        faces: vec![DieFace {
            value: face as u32,
            success: true,
        }],
        reroll: None,
        result: format!("{roll}: {actions} action(s) to reform"),
    };
    (actions, report)
}

/// The formation a unit retreats in: a square or an unlimbered battery cannot retreat as it
/// stands (G8).
pub fn retreat_formation(u: &crate::state::Unit) -> Formation {
    match (u.arm(), u.formation) {
        (Arm::Artillery { .. }, _) => Formation::Limbered,
        (Arm::Infantry, Formation::Square) => Formation::Column,
        (_, f) => f,
    }
}

/// Where a unit retreating from `cause` ends (G8): one retreat action (NQ-MOV-6) straight away,
/// facing away, stopping short of any unit in the way (where it stands if it cannot get clear).
/// `None` if it is driven off the table.
pub fn retreat_spot(game: &Game, id: UnitId, cause: Vec2) -> Option<(Vec2, f32, Formation)> {
    let u = game.unit(id);
    let r = u.rect();
    let mut dir = (r.center() - cause).normalize_or_zero();
    if dir == Vec2::ZERO {
        dir = -r.facing();
    }
    let t = tables();
    let dist = if u.arm().is_mounted() {
        t.retreat_move.mounted
    } else {
        t.retreat_move.foot
    } * INCH;
    let bearing = bearing_of(dir);
    let formation = retreat_formation(u);
    let (_, depth) = crate::footprint::size_inches(u.arm(), formation, u.figures);
    let mut d = dist;
    while d > 0.0 {
        let centre = r.center() + dir * d;
        let front = centre + dir * depth * INCH * 0.5;
        let rect = crate::footprint::rect(u.arm(), formation, u.figures, front, bearing);
        if !crate::footprint::on_table(&rect, game.table) {
            return None;
        }
        let clear = game
            .units
            .iter()
            .filter(|o| o.id != id && o.present())
            .all(|o| !crate::footprint::overlap(&rect, &o.rect()));
        if clear {
            return Some((front, bearing, formation));
        }
        d -= 0.5 * INCH;
    }
    Some((u.front, u.bearing, u.formation))
}

/// A failed check (G7b, G8): retreat status with a retreat move, or a rout if the unit was
/// already retreating (or is driven off the table).
pub fn fail(game: &mut Game, id: UnitId, cause: Vec2, events: &mut Vec<Event>) {
    if game.unit(id).in_retreat() {
        rout(game, id, events);
    } else {
        retreat(game, id, cause, events);
    }
}

/// A retreat (G8): the move, then retreat status until the reform roll's actions are spent.
pub fn retreat(game: &mut Game, id: UnitId, cause: Vec2, events: &mut Vec<Event>) {
    let Some((front, bearing, formation)) = retreat_spot(game, id, cause) else {
        rout(game, id, events);
        return;
    };
    let (to_reform, report) = reform_roll(game, id);
    let u = game.unit_mut(id);
    let from = u.front;
    u.front = front;
    u.bearing = bearing;
    u.formation = formation;
    u.standing = Standing::Retreat { to_reform };
    events.push(Event::Retreated {
        unit: id,
        from,
        to: front,
        to_reform,
        report: Some(report),
    });
}

/// A rout (G8): the unit leaves at step 11; friends within 6" must check (G7b); a leader with
/// it dies on a 1 (G6).
pub fn rout(game: &mut Game, id: UnitId, events: &mut Vec<Event>) {
    let r = game.unit(id).rect();
    let side = game.unit(id).side;
    game.unit_mut(id).standing = Standing::Routed;
    game.unit_mut(id).actions_left = 0;
    events.push(Event::Routed { unit: id });
    let support = tables().distances.support * INCH;
    let near: Vec<UnitId> = game
        .present_units(side)
        .filter(|f| f.id != id && crate::footprint::gap(&r, &f.rect()) <= support)
        .map(|f| f.id)
        .collect();
    for f in near {
        let m = game.unit_mut(f).marks.morale.get_or_insert_default();
        m.friend_routed = true;
    }
    if game.options.leaders_at_risk {
        let reach = tables().distances.leader_attached * INCH;
        let attached: Vec<usize> = game
            .leaders
            .iter()
            .enumerate()
            .filter(|(_, l)| l.alive && l.side == side && r.distance_to_point(l.pos) <= reach)
            .map(|(i, _)| i)
            .collect();
        for i in attached {
            let face = game.dice.d6();
            let killed = face == 1;
            if killed {
                game.leaders[i].alive = false;
                events.push(Event::LeaderKilled {
                    leader: game.leaders[i].id,
                    report: RollReport {
                        label: "Leader with a routing unit (G6): killed on a 1".into(),
                        faces: vec![DieFace {
                            value: 1,
                            success: true,
                        }],
                        result: "killed".into(),
                        ..RollReport::default()
                    },
                });
            }
        }
    }
}

/// Disordered or unformed (NQ-CA-1 step 4); a unit already worse off stays so.
pub fn disorder(game: &mut Game, id: UnitId, events: &mut Vec<Event>) {
    let u = game.unit_mut(id);
    if u.standing == Standing::Good {
        u.standing = Standing::Disordered;
        events.push(Event::Disordered { unit: id });
    }
}

/// One fatigue level more (NQ-FAT-2), capped at exhausted (G14).
pub fn tire(game: &mut Game, id: UnitId, events: &mut Vec<Event>) {
    let u = game.unit_mut(id);
    if !u.present() {
        return;
    }
    let next = u.fatigue.worse();
    if next != u.fatigue {
        u.fatigue = next;
        events.push(Event::FatigueChanged {
            unit: id,
            level: next,
        });
    }
}
