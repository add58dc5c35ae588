//! Solid shot (NQ-ART-3..8, G12, G13): the line from the battery's centre through the point of
//! aim, the bounce beyond it, a to-hit roll for every unit the bounce meets (friend or foe),
//! damage points and their conversion into figures.

use crate::actions::{begin, may_act, spend};
use crate::event::{Event, ShotHit};
use crate::facts::modifiers;
use crate::fire::{ammunition_roll, check_ammo, guns_served, remove_figures, target_facts};
use crate::footprint::in_front_arc;
use crate::ground::{segment_hits, sight_blocked};
use crate::options::{BracketMeaning, SolidShotBlank};
use crate::state::{Game, INCH, MoraleMark, UnitId};
use crate::tables::tables;
use crate::vocab::{Ammo, Arm, Band, Calibre, Formation};
use sandtable_engine::RuleError;
use sandtable_engine::narration::{DieFace, RollReport};
use sandtable_engine::roll::{Modifier, total};
use sandtable_geometry::Vec2;

/// A solid shot before the dice: the line and who stands on the bounce.
#[derive(Debug, Clone, PartialEq)]
pub struct ShotPlan {
    pub from: Vec2,
    pub aim: Vec2,
    pub bounce_end: Vec2,
    /// Distance to the aim point, inches.
    pub range: f32,
    pub band: Band,
    /// The column of the Solid Shot Firing Table used (NQ-ART-4).
    pub column: Band,
    /// The lowest face that hits.
    pub needs: u8,
    pub actions: u8,
    /// Every unit the bounce meets, with its damage points per hit (NQ-ART-5/6).
    pub struck: Vec<(UnitId, i32, Vec<Modifier>)>,
}

impl ShotPlan {
    /// Expected figures lost by each unit on the line (the preview's figure).
    pub fn expected_losses(&self) -> Vec<(UnitId, f64)> {
        let p = (7 - self.needs.min(7) as i32).max(0) as f64 / 6.0;
        self.struck
            .iter()
            .map(|(u, dmg, _)| {
                let per_hit = expected_figures(*dmg);
                let e = if self.actions == 2 {
                    // Two hits add their damage first (NQ-ART-8).
                    p * p * expected_figures(dmg * 2) + 2.0 * p * (1.0 - p) * per_hit
                } else {
                    p * per_hit
                };
                (*u, e)
            })
            .collect()
    }
}

/// Expected figures from damage points (NQ-ART-7): a figure per full 6, and the remainder r
/// kills one more on a D6 of r or less.
pub fn expected_figures(damage: i32) -> f64 {
    if damage <= 0 {
        return 0.0;
    }
    (damage / 6) as f64 + (damage % 6) as f64 / 6.0
}

/// Damage points for one hit on `target` (NQ-ART-5/6, G13): the guns firing (howitzers
/// excluded), the modifiers, then doubled against a column or square.
pub fn damage(game: &Game, battery: UnitId, target: UnitId) -> (i32, Vec<Modifier>) {
    let u = game.unit(battery);
    let Arm::Artillery {
        guns, howitzers, ..
    } = u.arm()
    else {
        return (0, Vec::new());
    };
    let served = guns_served(guns as u32, u.figures, u.start_figures) as i32;
    let mut facts = target_facts(game, target);
    facts.howitzers = guns_served(howitzers as u32, u.figures, u.start_figures);
    let mut mods = modifiers(&tables().damage_modifiers, "NQ-ART-6", &facts);
    if game.options.ammunition && matches!(u.ammo, Ammo::RunningLow | Ammo::Critical) {
        mods.push(Modifier::new("G13", "ammunition running low", -2));
    }
    let mut points = served + total(&mods);
    if facts.target_column_or_square && points > 0 {
        points *= 2;
        mods.push(Modifier::new(
            "NQ-ART-5",
            "target in column or square: doubled",
            points / 2,
        ));
    }
    (points, mods)
}

pub fn plan(game: &Game, id: UnitId, aim: Vec2, actions: u8) -> Result<ShotPlan, RuleError> {
    let u = game.unit(id);
    let Arm::Artillery { calibre, guns, .. } = u.arm() else {
        return Err(RuleError::new(
            "NQ-ART-3",
            format!("{} has no guns", u.name),
        ));
    };
    if !(1..=2).contains(&actions) {
        return Err(RuleError::new(
            "NQ-ART-8",
            "solid shot for one action or two",
        ));
    }
    if !(aim.x.is_finite() && aim.y.is_finite()) {
        return Err(RuleError::new(
            "NQ-ART-3",
            "the point of aim is not on the table",
        ));
    }
    if u.formation != Formation::Unlimbered {
        return Err(RuleError::new("NQ-ART-3", "a limbered battery cannot fire"));
    }
    if guns == 0 {
        return Err(RuleError::new(
            "NQ-ART-5",
            "howitzers alone do no solid-shot damage: they fire canister",
        ));
    }
    if u.in_retreat() {
        return Err(RuleError::new("G8", format!("{} is in retreat", u.name)));
    }
    check_ammo(game, id, actions)?;
    let r = u.rect();
    let from = r.center();
    if !in_front_arc(&r, aim) {
        return Err(RuleError::new(
            "G12",
            "the point of aim must be in the battery's front arc",
        ));
    }
    let range = (aim - from).length() / INCH;
    let t = tables();
    let Some((band, bounce)) = t.artillery_band(calibre, range) else {
        return Err(RuleError::new(
            "NQ-ART-1",
            format!("{range:.1}\" is beyond {} extreme range", calibre.name()),
        ));
    };
    let row = t
        .solid_shot
        .iter()
        .find(|r| r.rating == u.profile.rating)
        .or(t.solid_shot.last());
    let (column, needs) = match game.options.solid_shot_blank {
        SolidShotBlank::Close => {
            let column = if band == Band::Close && game.options.solid_shot_at_close {
                Band::Medium
            } else {
                band
            };
            (column, t.solid_shot_needs(u.profile.rating, column))
        }
        // The three printed entries are close, medium and long; nothing at extreme.
        SolidShotBlank::Extreme => (
            band,
            row.and_then(|r| match band {
                Band::Close => r.medium,
                Band::Medium => r.long,
                Band::Long => r.extreme,
                Band::Extreme => None,
            }),
        ),
    };
    let Some(needs) = needs else {
        return Err(RuleError::new(
            "NQ-ART-4",
            format!("no solid shot at {} range: fire canister", band.name()),
        ));
    };
    if let Some(what) = sight_blocked(
        game,
        from,
        aim,
        &game.units.iter().map(|u| u.id).collect::<Vec<_>>(),
    ) {
        return Err(RuleError::new(
            "G17",
            format!("{what} hides the point of aim"),
        ));
    }
    let bounce = match game.options.bracket_meaning {
        BracketMeaning::BounceLength => bounce,
        BracketMeaning::Ignored => 0.0,
    } * INCH;
    let dir = (aim - from).normalize_or_zero();
    let bounce_end = aim + dir * bounce;
    let struck = game
        .units
        .iter()
        .filter(|o| o.id != id && o.present() && segment_hits(aim, bounce_end, &o.rect()))
        .map(|o| {
            let (d, m) = damage(game, id, o.id);
            (o.id, d, m)
        })
        .collect();
    Ok(ShotPlan {
        from,
        aim,
        bounce_end,
        range,
        band,
        column,
        needs,
        actions,
        struck,
    })
}

pub fn do_solid_shot(
    game: &mut Game,
    id: UnitId,
    aim: Vec2,
    actions: u8,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    may_act(game, id, actions)?;
    let plan = plan(game, id, aim, actions)?;
    begin(game, id, events);
    let mut hits = Vec::new();
    let battery_is_12lb = matches!(
        game.unit(id).arm(),
        Arm::Artillery {
            calibre: Calibre::Lb12,
            ..
        }
    );
    for (target, dmg, mods) in &plan.struck {
        let faces: Vec<u8> = (0..actions).map(|_| game.dice.d6()).collect();
        let n_hits = faces.iter().filter(|f| **f >= plan.needs).count() as i32;
        let points = dmg * n_hits;
        let mut removed = 0;
        let mut rem_face = None;
        if points > 0 {
            removed = (points / 6) as u32;
            let rem = points % 6;
            if rem > 0 {
                let f = game.dice.d6();
                rem_face = Some(f);
                if f as i32 <= rem {
                    removed += 1;
                }
            }
        }
        let mut faces_report: Vec<DieFace> = faces
            .iter()
            .map(|f| DieFace {
                value: *f as u32,
                success: *f >= plan.needs,
            })
            .collect();
        let mut notes = vec![format!(
            "{} range {:.1}\": {}+ to hit ({} column, NQ-ART-4)",
            plan.band.name(),
            plan.range,
            plan.needs,
            plan.column.name()
        )];
        if let Some(f) = rem_face {
            notes.push(format!(
                "{points} damage point(s): {} figure(s) for the full sixes, and the remainder {} kills one more on {} or less: rolled {f} (NQ-ART-7)",
                points / 6,
                points % 6,
                points % 6
            ));
            faces_report.push(DieFace {
                value: f as u32,
                success: f as i32 <= points % 6,
            });
        }
        let report = RollReport {
            label: format!(
                "Solid shot (NQ-ART-3): {} die/dice needing {}+",
                actions, plan.needs
            ),
            modifiers: mods.clone(),
            notes,
            faces: faces_report,
            reroll: None,
            result: format!("{n_hits} hit(s), {points} damage point(s): {removed} figure(s)"),
        };
        hits.push(ShotHit {
            unit: *target,
            report,
            damage: points,
            removed,
        });
        remove_figures(game, *target, removed, events);
        if removed > 0 {
            let range_to = game.unit(*target).rect().distance_to_point(plan.from) / INCH;
            let flank = crate::footprint::arc_of(
                &game.unit(*target).rect(),
                plan.from,
                game.unit(*target).formation == Formation::Square,
            ) != crate::state::Facing::Front;
            let art = game.unit(*target).arm().is_artillery();
            let m = game
                .unit_mut(*target)
                .marks
                .morale
                .get_or_insert_with(MoraleMark::default);
            m.fire_losses = true;
            m.flank_fire |= flank;
            m.artillery_by_artillery |= art;
            m.by_12lb_close |=
                battery_is_12lb && range_to <= tables().distances.twelve_pounder_close + 1e-3;
        }
    }
    events.push(Event::SolidShot {
        unit: id,
        aim,
        bounce_end: plan.bounce_end,
        hits,
    });
    game.unit_mut(id).marks.fired += actions;
    ammunition_roll(game, id, actions, events);
    spend(game, id, actions, events);
    Ok(())
}
