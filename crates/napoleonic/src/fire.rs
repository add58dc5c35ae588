//! Musketry and canister (NQ-FIRE-1..4, NQ-ART-2, G11, G13, G21): who may fire at whom, the
//! row and the modifiers, the roll on the Musket Firing Table, the figures removed, and the
//! ammunition die of a battery.

use crate::actions::{begin, may_act, spend};
use crate::event::Event;
use crate::facts::{Facts, modifiers};
use crate::footprint::{arc_of, figures_firing, gap, rect_in_front_arc};
use crate::force::Trait;
use crate::ground::{cover, sight_blocked};
use crate::state::{Facing, Game, INCH, MoraleMark, UnitId};
use crate::tables::tables;
use crate::vocab::{Ammo, Arm, Band, Calibre, Formation};
use sandtable_engine::RuleError;
use sandtable_engine::narration::{DieFace, RollReport};
use sandtable_engine::roll::{Modifier, total};

/// A volley as the rules would roll it: the row, the modifiers, and what each face removes.
#[derive(Debug, Clone, PartialEq)]
pub struct VolleyPlan {
    pub canister: bool,
    /// Distance, inches.
    pub range: f32,
    pub band: Band,
    /// The row of the Musket Firing Table (figures, or twice the guns).
    pub row: u32,
    pub modifiers: Vec<Modifier>,
    /// Words on how the row was found.
    pub row_note: String,
}

impl VolleyPlan {
    /// Figures removed for each face 1..=6.
    pub fn removed_by_face(&self) -> [u32; 6] {
        let m = total(&self.modifiers);
        std::array::from_fn(|i| tables().musket_removed(self.row, i as i32 + 1 + m))
    }

    /// `p[k]`: the chance of removing exactly k figures.
    pub fn distribution(&self) -> Vec<f64> {
        tables().musket_distribution(self.row, total(&self.modifiers))
    }
}

/// Real guns still served: the battery's guns in proportion to the crew left (house).
pub fn guns_served(guns: u32, figures: u32, start: u32) -> u32 {
    if start == 0 {
        return guns;
    }
    (guns * figures).div_ceil(start).min(guns)
}

/// The facts of fire at a target (NQ-FIRE-3 and NQ-ART-6 share the target's half).
pub fn target_facts(game: &Game, target: UnitId) -> Facts {
    let t = game.unit(target);
    Facts {
        target_column_or_square: matches!(
            t.formation,
            Formation::Column | Formation::Square | Formation::RoadColumn
        ),
        target_unlimbered: t.arm().is_artillery() && t.formation == Formation::Unlimbered,
        target_limbered: t.arm().is_artillery() && t.formation != Formation::Unlimbered,
        target_cover: cover(game, &t.rect()),
        target_skirmishers: t.formation == Formation::Skirmish,
        ..Facts::default()
    }
}

/// Everything about a volley or canister shot that does not need the die; refused with the
/// rule when it may not be fired. `defence` skips the activation checks (NQ-CA-1 step 4).
pub fn plan(game: &Game, id: UnitId, target: UnitId, actions: u8) -> Result<VolleyPlan, RuleError> {
    let u = game.unit(id);
    let Some(t) = game.units.get(target.0 as usize) else {
        return Err(RuleError::new("NQ-FIRE-1", "no such target"));
    };
    if t.side == u.side || !t.present() {
        return Err(RuleError::new(
            "NQ-FIRE-1",
            format!("{} is not an enemy to fire at", t.name),
        ));
    }
    if !(1..=2).contains(&actions) {
        return Err(RuleError::new("G2", "fire for one action or two"));
    }
    if u.in_retreat() {
        return Err(RuleError::new("G8", format!("{} is in retreat", u.name)));
    }
    let (ur, tr) = (u.rect(), t.rect());
    if u.formation != Formation::Square && !rect_in_front_arc(&ur, &tr) {
        return Err(RuleError::new(
            "G11",
            format!("{} is not in {}'s front arc", t.name, u.name),
        ));
    }
    let mut facts = target_facts(game, target);
    facts.firer_rating = Some(u.profile.rating);
    facts.firer_fatigue = u.fatigue;
    facts.firer_two_rank = u.profile.has(Trait::TwoRankTrained);
    let tables = tables();
    let (canister, range, band, row, note) = match u.arm() {
        Arm::Artillery {
            calibre,
            guns,
            howitzers,
            ..
        } => {
            if u.formation != Formation::Unlimbered {
                return Err(RuleError::new("NQ-ART-2", "a limbered battery cannot fire"));
            }
            check_ammo(game, id, actions)?;
            // Artillery measures from the battery's centre (digest §9).
            let range = tr.distance_to_point(ur.center()) / INCH;
            let close = tables.artillery_range(calibre).close;
            let served = guns_served(guns as u32, u.figures, u.start_figures);
            let how = guns_served(howitzers as u32, u.figures, u.start_figures);
            let pieces = if range <= tables.howitzer_canister + 1e-3 {
                served + how
            } else if range <= close + 1e-3 && served > 0 {
                served
            } else {
                return Err(RuleError::new(
                    "NQ-ART-2",
                    format!(
                        "{range:.1}\" is beyond canister range ({close}\" for {}, {}\" for howitzers): use solid shot",
                        calibre.name(),
                        tables.howitzer_canister
                    ),
                ));
            };
            facts.canister = Some(calibre);
            let row = 2 * pieces * actions as u32;
            let note = format!(
                "{pieces} gun(s) firing: row {} (twice the guns{}, NQ-ART-2)",
                row,
                if actions == 2 {
                    ", doubled for two actions"
                } else {
                    ""
                }
            );
            (true, range, Band::Close, row, note)
        }
        _ => {
            let weapon = u
                .profile
                .small_arm()
                .expect("foot and horse carry small arms");
            facts.firer_rifles = u.profile.has(Trait::Rifles);
            let range = gap(&ur, &tr) / INCH;
            let Some(band) = tables.range_band(weapon, range) else {
                return Err(RuleError::new(
                    "NQ-FIRE-4",
                    format!("{} is {range:.1}\" away: out of range", t.name),
                ));
            };
            facts.range = Some(band);
            let firing = figures_firing(u.arm(), u.formation, u.figures);
            let row = firing / 4 * 4 * actions as u32;
            let note = format!(
                "{firing} figure(s) can fire in {} (G11): row {}{}",
                u.formation.name(),
                row,
                if actions == 2 {
                    ", doubled for two actions (G2)"
                } else {
                    ""
                }
            );
            (false, range, band, row, note)
        }
    };
    if row < 4 {
        return Err(RuleError::new(
            "G11",
            format!("{} has fewer than 4 figures that can fire", u.name),
        ));
    }
    let (a, b) = sandtable_geometry::distance::closest_points(&ur, &tr)
        .ok()
        .flatten()
        .unwrap_or((ur.center(), tr.center()));
    if let Some(what) = sight_blocked(game, a, b, &[id, target]) {
        return Err(RuleError::new(
            "G17",
            format!("{what} blocks the line of fire"),
        ));
    }
    let mut mods = modifiers(&tables.fire_modifiers, "NQ-FIRE-3", &facts);
    if canister && matches!(u.ammo, Ammo::RunningLow | Ammo::Critical) {
        mods.push(Modifier::new("G13", "ammunition running low", -1));
    }
    Ok(VolleyPlan {
        canister,
        range,
        band,
        row,
        modifiers: mods,
        row_note: note,
    })
}

/// A battery's ammunition allows this much fire (G13): none when out, one firing action a
/// period when critical.
pub fn check_ammo(game: &Game, id: UnitId, actions: u8) -> Result<(), RuleError> {
    let u = game.unit(id);
    if !game.options.ammunition {
        return Ok(());
    }
    match u.ammo {
        Ammo::Out => Err(RuleError::new(
            "NQ-ART-9",
            format!("{} is out of ammunition", u.name),
        )),
        Ammo::Critical if u.marks.fired + actions > 1 => Err(RuleError::new(
            "G13",
            "ammunition is critical: one firing action a period",
        )),
        _ => Ok(()),
    }
}

/// The ammunition die, once per action of fire (NQ-ART-9, G13).
pub fn ammunition_roll(game: &mut Game, id: UnitId, actions: u8, events: &mut Vec<Event>) {
    if !game.options.ammunition || !game.unit(id).arm().is_artillery() {
        return;
    }
    for _ in 0..actions {
        let face = game.dice.d6();
        if face == 6 {
            let u = game.unit_mut(id);
            u.sixes += 1;
            let states = &tables().ammunition;
            u.ammo = states
                .get(u.sixes as usize - 1)
                .copied()
                .unwrap_or(Ammo::Out);
            events.push(Event::Ammunition {
                unit: id,
                face,
                state: u.ammo,
            });
        }
    }
}

/// Removes figures; a unit left with none has routed away (it counts as lost, G15), with what a
/// rout does to friends and leaders nearby (G7b, G6).
pub fn remove_figures(game: &mut Game, id: UnitId, n: u32, events: &mut Vec<Event>) {
    let u = game.unit_mut(id);
    u.figures = u.figures.saturating_sub(n);
    if n > 0 {
        u.marks.hit = true;
    }
    if u.figures == 0 && u.present() {
        crate::morale::rout(game, id, events);
    }
}

/// Rolls a planned volley: the die, the table, the losses and the target's morale mark.
pub fn roll_volley(
    game: &mut Game,
    id: UnitId,
    target: UnitId,
    plan: &VolleyPlan,
    events: &mut Vec<Event>,
) -> u32 {
    let face = game.dice.d6() as i32;
    let m = total(&plan.modifiers);
    let removed = tables().musket_removed(plan.row, face + m);
    let u = game.unit(id);
    let t = game.unit(target);
    let label = if plan.canister {
        format!("Canister (NQ-ART-2): D6 {m:+} on row {}", plan.row)
    } else {
        format!(
            "Musketry (NQ-FIRE-1): D6 {m:+} on row {}, {} range {:.1}\"",
            plan.row,
            plan.band.name(),
            plan.range
        )
    };
    let flank = arc_of(
        &t.rect(),
        u.rect().center(),
        t.formation == Formation::Square,
    ) != Facing::Front;
    let big_gun_close = matches!(
        u.arm(),
        Arm::Artillery {
            calibre: Calibre::Lb12,
            ..
        }
    ) && plan.range <= tables().distances.twelve_pounder_close + 1e-3;
    let report = RollReport {
        label,
        modifiers: plan.modifiers.clone(),
        notes: vec![plan.row_note.clone()],
        faces: vec![DieFace {
            value: face as u32,
            success: removed > 0,
        }],
        reroll: None,
        result: format!(
            "modified roll {}: {} figure(s) removed (NQ-FIRE-2)",
            face + m,
            removed
        ),
    };
    let art_on_art = u.arm().is_artillery() && t.arm().is_artillery();
    events.push(Event::Volley {
        unit: id,
        target,
        canister: plan.canister,
        report,
        removed,
    });
    remove_figures(game, target, removed, events);
    if removed > 0 {
        let mark = game
            .unit_mut(target)
            .marks
            .morale
            .get_or_insert_with(MoraleMark::default);
        mark.fire_losses = true;
        mark.flank_fire |= flank;
        mark.by_12lb_close |= big_gun_close;
        mark.artillery_by_artillery |= art_on_art;
    }
    removed
}

pub fn do_fire(
    game: &mut Game,
    id: UnitId,
    target: UnitId,
    actions: u8,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    may_act(game, id, actions)?;
    let plan = plan(game, id, target, actions)?;
    begin(game, id, events);
    roll_volley(game, id, target, &plan, events);
    game.unit_mut(id).marks.fired += actions;
    ammunition_roll(game, id, actions, events);
    spend(game, id, actions, events);
    Ok(())
}
