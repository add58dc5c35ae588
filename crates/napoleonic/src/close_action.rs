//! Step 9: close actions (NQ-CA-1..7, NQ-FAT-2, G9, G10, G22). Each charge that made contact is
//! resolved in the order it was made; the resolution runs by itself until a side must decide (the
//! defender's defence action, or a failed charger's retreat or halt), then waits for that command.

use crate::charge::{Contact, charge_record, contact};
use crate::event::Event;
use crate::facts::{Facts, modifiers};
use crate::fire::{plan as volley_plan, roll_volley};
use crate::ground::{cover, high_ground};
use crate::morale::{check, disorder, fail, retreat, rout, standing_facts, tire};
use crate::options::{CasualtyColumn, MeleeTie};
use crate::state::{ChargeStage, Defence, Facing, Game, INCH, Phase, UnitId, Wait};
use crate::tables::{Cover, tables};
use crate::vocab::{Arm, CavWeight, Formation};
use sandtable_engine::RuleError;
use sandtable_engine::narration::{DieFace, RollReport};
use sandtable_engine::roll::total;

/// Cavalry charging infantry or artillery follows NQ-CA-6 instead of NQ-CA-1..5.
pub fn cavalry_on_foot(game: &Game, i: usize) -> bool {
    let ch = &game.charges[i];
    game.unit(ch.charger).arm().is_cavalry() && !game.unit(ch.target).arm().is_cavalry()
}

/// The facts of the defender's first check (NQ-CA-1 step 2, NQ-CA-6 step 2).
pub fn defender_facts(game: &Game, i: usize) -> Facts {
    let ch = &game.charges[i];
    let (c, t) = (game.unit(ch.charger), game.unit(ch.target));
    let mut f = standing_facts(game, ch.target);
    let cav = c.arm().is_cavalry();
    f.charged_in_flank = ch.facing != Facing::Front;
    f.charged_by_heavy_cavalry = c.arm() == Arm::Cavalry(CavWeight::Heavy)
        && matches!(
            t.arm(),
            Arm::Infantry | Arm::Cavalry(CavWeight::Light | CavWeight::Medium)
        );
    f.line_or_column_charged_by_cavalry = cav
        && t.arm() == Arm::Infantry
        && matches!(t.formation, Formation::Line | Formation::Column);
    f.square_facing_cavalry = cav && t.formation == Formation::Square;
    f.square_against_infantry = c.arm() == Arm::Infantry
        && t.formation == Formation::Square
        && c.formation != Formation::Square;
    f
}

/// The facts of the charger's check before closing (NQ-CA-1 step 5, NQ-CA-6 step 5).
pub fn charger_facts(game: &Game, i: usize) -> Facts {
    let ch = &game.charges[i];
    let (c, t) = (game.unit(ch.charger), game.unit(ch.target));
    let mut f = standing_facts(game, ch.charger);
    f.charging_flank = ch.facing != Facing::Front;
    f.charging_artillery_after_hits =
        t.arm().is_artillery() && ch.facing == Facing::Front && c.marks.hit;
    f
}

/// The facts of a defender's check to change facing or formation (NQ-CA-1 step 4, NQ-CA-7).
pub fn change_facts(game: &Game, i: usize) -> Facts {
    let ch = &game.charges[i];
    let mut f = standing_facts(game, ch.target);
    if cavalry_on_foot(game, i) {
        f.long_cavalry_run = ch.run >= tables().distances.bonus_from * INCH - 1e-3;
    } else {
        f.charger_used_both_actions = ch.both_actions;
    }
    f
}

/// The defence actions the defender may take now (NQ-CA-1 steps 3–4, NQ-CA-6 steps 3–4, NQ-CA-7).
pub fn defence_options(game: &Game, i: usize) -> Vec<(Defence, Result<(), RuleError>)> {
    let ch = &game.charges[i];
    let t = game.unit(ch.target);
    let mut out = vec![(Defence::None, Ok(()))];
    let fire = volley_plan(game, ch.target, ch.charger, 1).map(|_| ());
    out.push((Defence::Fire, fire));
    let close_run =
        cavalry_on_foot(game, i) && ch.run <= tables().distances.no_change_within * INCH + 1e-3;
    let no_change = || {
        Err(RuleError::new(
            "NQ-CA-7",
            format!(
                "the cavalry came only {:.0}\": too close to change facing or formation",
                ch.run / INCH
            ),
        ))
    };
    let face = if close_run {
        no_change()
    } else if ch.facing == Facing::Front {
        Err(RuleError::new("NQ-CA-1", "it already faces the charge"))
    } else {
        meet_the_charge(game, i, Defence::Face).map(|_| ())
    };
    out.push((Defence::Face, face));
    for f in crate::actions::formations_for(game, ch.target) {
        if f == t.formation {
            continue;
        }
        let ok = if close_run {
            no_change()
        } else {
            crate::actions::check_formation(game, ch.target, f, true)
                .and_then(|_| meet_the_charge(game, i, Defence::Form(f)).map(|_| ()))
        };
        out.push((Defence::Form(f), ok));
    }
    out
}

/// The target turned about its centre to face the charger: its new front centre and bearing.
fn faced(game: &Game, i: usize) -> (sandtable_geometry::Vec2, f32) {
    let ch = &game.charges[i];
    let towards = game.unit(ch.charger).rect().center();
    let r = game.unit(ch.target).rect();
    let b = crate::morale::bearing_of(towards - r.center());
    let dir =
        sandtable_geometry::Pose::from_bearing_deg(sandtable_geometry::Vec2::ZERO, b).facing();
    (r.center() + dir * r.half.y, b)
}

/// A defender that turns or changes formation to meet a charge (NQ-CA-1 step 4): where it
/// then stands, and every charger against it brought to the face now turned to it.
#[derive(Debug, Clone)]
pub struct Meeting {
    pub front: sandtable_geometry::Vec2,
    pub bearing: f32,
    pub formation: Formation,
    /// Each charge against the defender (by index) and where its charger now makes contact.
    pub chargers: Vec<(usize, Contact)>,
}

/// Plans the defender's turn or change of formation against charge `i`. Refused (G1) when the
/// defender or any charger brought against its new face would land on another unit or off the
/// table: a change that left bodies on top of each other is none a table allows.
pub fn meet_the_charge(game: &Game, i: usize, choice: Defence) -> Result<Meeting, RuleError> {
    let target = game.charges[i].target;
    let t = game.unit(target);
    let (front, bearing, formation) = match choice {
        Defence::Face => {
            let (front, bearing) = faced(game, i);
            (front, bearing, t.formation)
        }
        Defence::Form(f) => (t.front, t.bearing, f),
        Defence::None | Defence::Fire => (t.front, t.bearing, t.formation),
    };
    let mut after = game.clone();
    {
        let t = after.unit_mut(target);
        t.front = front;
        t.bearing = bearing;
        t.formation = formation;
    }
    let engaged: Vec<usize> = (0..game.charges.len())
        .filter(|&k| {
            let c = &game.charges[k];
            c.target == target && c.stage != ChargeStage::Done && game.unit(c.charger).present()
        })
        .collect();
    let mut chargers = Vec::new();
    for &k in &engaged {
        let charger = game.charges[k].charger;
        let c = contact(&after, charger, target);
        let u = after.unit_mut(charger);
        u.front = c.front;
        u.bearing = c.bearing;
        chargers.push((k, c));
    }
    let moved: Vec<UnitId> = std::iter::once(target)
        .chain(engaged.iter().map(|&k| game.charges[k].charger))
        .collect();
    for &id in &moved {
        let r = after.unit(id).rect();
        if !crate::footprint::on_table(&r, game.table) {
            return Err(RuleError::new(
                "G1",
                "no room to meet the charge: the table edge is in the way",
            ));
        }
        let blocker = after
            .units
            .iter()
            .find(|o| o.id != id && o.present() && crate::footprint::overlap(&r, &o.rect()));
        if let Some(o) = blocker {
            return Err(RuleError::new(
                "G1",
                format!("no room to meet the charge: {} is in the way", o.name),
            ));
        }
    }
    Ok(Meeting {
        front,
        bearing,
        formation,
        chargers,
    })
}

/// Carries out a planned meeting: the defender turns or changes formation and its chargers
/// come on against its new face.
fn apply_meeting(game: &mut Game, target: UnitId, m: Meeting, events: &mut Vec<Event>) {
    let u = game.unit_mut(target);
    let (from_formation, from_bearing) = (u.formation, u.bearing);
    u.front = m.front;
    u.bearing = m.bearing;
    u.formation = m.formation;
    if m.formation != from_formation {
        events.push(Event::FormationChanged {
            unit: target,
            from: from_formation,
            to: m.formation,
        });
    }
    if m.bearing != from_bearing {
        events.push(Event::Faced {
            unit: target,
            bearing: m.bearing,
        });
    }
    for (k, c) in m.chargers {
        let old = game.charges[k].clone();
        let mut record = charge_record(
            game,
            old.charger,
            target,
            &c,
            old.run,
            old.both_actions,
            old.from,
        );
        record.stage = old.stage;
        let cu = game.unit_mut(old.charger);
        cu.front = c.front;
        cu.bearing = c.bearing;
        game.charges[k] = record;
    }
}

/// Resolves close actions until one needs a decision, then waits; when all are done, runs
/// steps 10 and 11.
pub fn resume(game: &mut Game, events: &mut Vec<Event>) {
    while let Some(i) = game
        .charges
        .iter()
        .position(|c| c.stage != ChargeStage::Done)
    {
        let ch = game.charges[i].clone();
        let (c, t) = (game.unit(ch.charger), game.unit(ch.target));
        if !c.present() || !t.present() || crate::footprint::gap(&c.rect(), &t.rect()) > 0.05 * INCH
        {
            // The target was driven off by an earlier close action, or the charger is gone.
            game.charges[i].stage = ChargeStage::Done;
            continue;
        }
        match ch.stage {
            ChargeStage::Declared => defender_check(game, i, events),
            ChargeStage::DefenderHeld => {
                // One defence action, however many units charged it (NQ-CA-1 step 3).
                let t = game.unit(ch.target);
                if t.actions_left > 0 && !t.marks.defended {
                    game.phase = Phase::CloseActions(Wait::Defence(i));
                    return;
                }
                after_defence(game, i, Defence::None, events);
            }
            ChargeStage::Defended => {
                let facts = charger_facts(game, i);
                let why = format!(
                    "{} closes with {} (NQ-CA-1 step 5)",
                    game.unit(ch.charger).name,
                    game.unit(ch.target).name
                );
                if check(game, ch.charger, &why, &facts, events) {
                    fight(game, i, events);
                } else {
                    game.charges[i].stage = ChargeStage::ChargerFailed;
                    game.phase = Phase::CloseActions(Wait::FallBack(i));
                    return;
                }
            }
            ChargeStage::ChargerFailed => {
                game.phase = Phase::CloseActions(Wait::FallBack(i));
                return;
            }
            ChargeStage::Done => {}
        }
    }
    crate::sequence::after_close_actions(game, events);
}

/// NQ-CA-1 step 2 / NQ-CA-6 step 2: the defender checks once, however many charged it.
fn defender_check(game: &mut Game, i: usize, events: &mut Vec<Event>) {
    let ch = game.charges[i].clone();
    game.unit_mut(ch.charger).marks.close_action = true;
    let already = game.unit(ch.target).marks.close_action;
    game.unit_mut(ch.target).marks.close_action = true;
    if already && game.charges[..i].iter().any(|o| o.target == ch.target) {
        game.charges[i].stage = ChargeStage::DefenderHeld;
        return;
    }
    let facts = defender_facts(game, i);
    let why = format!(
        "{} is charged by {} (NQ-CA-1 step 2)",
        game.unit(ch.target).name,
        game.unit(ch.charger).name
    );
    if check(game, ch.target, &why, &facts, events) {
        game.charges[i].stage = ChargeStage::DefenderHeld;
        return;
    }
    game.charges[i].stage = ChargeStage::Done;
    if cavalry_on_foot(game, i) {
        ridden_down(game, i, events);
    } else {
        let cause = game.unit(ch.charger).rect().center();
        fail(game, ch.target, cause, events);
    }
}

/// NQ-CA-6 step 7: ridden down, the unit checks again: rout on a failure, retreat on a pass.
fn ridden_down(game: &mut Game, i: usize, events: &mut Vec<Event>) {
    let ch = game.charges[i].clone();
    game.unit_mut(ch.target).ridden_down = true;
    events.push(Event::RiddenDown {
        unit: ch.target,
        by: ch.charger,
    });
    let facts = standing_facts(game, ch.target);
    let why = format!(
        "{} was ridden down (NQ-CA-6 step 7)",
        game.unit(ch.target).name
    );
    if check(game, ch.target, &why, &facts, events) {
        let cause = game.unit(ch.charger).rect().center();
        retreat(game, ch.target, cause, events);
    } else {
        rout(game, ch.target, events);
    }
}

/// The defender's decision (a command): check it and carry it out.
pub fn defend(game: &mut Game, choice: Defence, events: &mut Vec<Event>) -> Result<(), RuleError> {
    let Phase::CloseActions(Wait::Defence(i)) = game.phase else {
        return Err(RuleError::new("NQ-CA-1", "no defence action is waiting"));
    };
    let allowed = defence_options(game, i)
        .into_iter()
        .find(|(d, _)| *d == choice)
        .map(|(_, ok)| ok)
        .unwrap_or_else(|| {
            Err(RuleError::new(
                "NQ-CA-1",
                "not a defence action this unit can take",
            ))
        });
    allowed?;
    after_defence(game, i, choice, events);
    resume(game, events);
    Ok(())
}

fn after_defence(game: &mut Game, i: usize, choice: Defence, events: &mut Vec<Event>) {
    let ch = game.charges[i].clone();
    let target = ch.target;
    game.unit_mut(target).marks.defended = true;
    if choice != Defence::None {
        let u = game.unit_mut(target);
        u.actions_left = u.actions_left.saturating_sub(1);
        u.marks.used += 1;
        events.push(Event::DefenceTaken {
            unit: target,
            choice,
        });
    }
    match choice {
        Defence::None => {}
        Defence::Fire => {
            if let Ok(plan) = volley_plan(game, target, ch.charger, 1) {
                roll_volley(game, target, ch.charger, &plan, events);
                game.unit_mut(target).marks.fired += 1;
                crate::fire::ammunition_roll(game, target, 1, events);
            }
        }
        Defence::Face | Defence::Form(_) => {
            let facts = change_facts(game, i);
            let why = format!(
                "{} changes {} to meet the charge (NQ-CA-1 step 4)",
                game.unit(target).name,
                if choice == Defence::Face {
                    "facing"
                } else {
                    "formation"
                }
            );
            if check(game, target, &why, &facts, events) {
                // Checked when the choice was offered; the check's die moves nothing.
                if let Ok(m) = meet_the_charge(game, i, choice) {
                    apply_meeting(game, target, m, events);
                }
            } else {
                disorder(game, target, events);
            }
        }
    }
    // NQ-CA-6 step 3: cavalry from outside the front arc rides down infantry that neither
    // faced it nor formed square.
    let ch = game.charges[i].clone();
    let t = game.unit(target);
    if game.options.outside_arc_rides_down
        && cavalry_on_foot(game, i)
        && t.present()
        && t.arm() == Arm::Infantry
        && ch.facing != Facing::Front
        && t.formation != Formation::Square
    {
        game.charges[i].stage = ChargeStage::Done;
        ridden_down(game, i, events);
        tire(game, ch.charger, events);
        tire(game, target, events);
        return;
    }
    game.charges[i].stage = if game.unit(target).present() {
        ChargeStage::Defended
    } else {
        ChargeStage::Done
    };
}

/// The failed charger's decision (NQ-CA-1 step 5, NQ-CA-6 step 5).
pub fn fall_back(game: &mut Game, halt: bool, events: &mut Vec<Event>) -> Result<(), RuleError> {
    let Phase::CloseActions(Wait::FallBack(i)) = game.phase else {
        return Err(RuleError::new("NQ-CA-1", "no failed charge is waiting"));
    };
    let ch = game.charges[i].clone();
    game.charges[i].stage = ChargeStage::Done;
    if halt {
        // Back along its line, 3" short, or as far as the ground behind it allows.
        let short = tables().distances.halt_short * INCH;
        let u = game.unit(ch.charger);
        let back = -u.rect().facing();
        let mut d = short;
        let mut front = u.front;
        while d > 0.0 {
            let f = u.front + back * d;
            let r = crate::footprint::rect(u.arm(), u.formation, u.figures, f, u.bearing);
            let clear = crate::footprint::on_table(&r, game.table)
                && game
                    .units
                    .iter()
                    .filter(|o| o.id != ch.charger && o.present())
                    .all(|o| !crate::footprint::overlap(&r, &o.rect()));
            if clear {
                front = f;
                break;
            }
            d -= 0.5 * INCH;
        }
        game.unit_mut(ch.charger).front = front;
        events.push(Event::Halted { unit: ch.charger });
        if cavalry_on_foot(game, i) {
            tire(game, ch.charger, events);
        }
    } else {
        let cause = game.unit(ch.target).rect().center();
        retreat(game, ch.charger, cause, events);
    }
    resume(game, events);
    Ok(())
}

/// The melee value and its modifiers (NQ-CA-3, G9).
pub fn melee_value(
    game: &Game,
    i: usize,
    charger: bool,
) -> (i32, Vec<sandtable_engine::roll::Modifier>, i32) {
    let ch = &game.charges[i];
    let (me, them) = if charger {
        (game.unit(ch.charger), game.unit(ch.target))
    } else {
        (game.unit(ch.target), game.unit(ch.charger))
    };
    let base = tables().base_melee(
        me.arm(),
        me.profile.rating,
        me.formation != Formation::Unlimbered,
    );
    let mut f = Facts {
        disordered: me.disordered(),
        retreat: me.in_retreat(),
        fatigue: me.fatigue,
        road_column: me.formation == Formation::RoadColumn,
        square_against_infantry: me.formation == Formation::Square
            && them.arm() == Arm::Infantry
            && them.formation != Formation::Square,
        lighter_against_heavy_cavalry: matches!(
            me.arm(),
            Arm::Cavalry(CavWeight::Light | CavWeight::Medium)
        ) && them.arm() == Arm::Cavalry(CavWeight::Heavy),
        ..Facts::default()
    };
    let (mine, theirs) = if charger {
        (ch.charger_enfilade, ch.target_enfilade)
    } else {
        (ch.target_enfilade, ch.charger_enfilade)
    };
    f.enfilade = mine > 0 && mine >= 2 * theirs;
    if charger {
        let tr = them.rect();
        f.charging_uphill =
            high_ground(game, tr.center()) && !high_ground(game, me.rect().center());
        let c = cover(game, &tr);
        f.charging_behind_hedges = c == Some(Cover::Hedges);
        f.charging_behind_walls = c == Some(Cover::Walls);
        f.partial_contact = ch.partial;
        f.charging_flank = ch.facing == Facing::Flank;
        f.charging_rear = ch.facing == Facing::Rear;
    }
    let mods = modifiers(&tables().melee_modifiers, "NQ-CA-3", &f);
    let value = (base + total(&mods)).max(tables().melee.minimum);
    (value, mods, base)
}

/// NQ-CA-2..5, or NQ-CA-6 steps 6–8 for cavalry against foot.
fn fight(game: &mut Game, i: usize, events: &mut Vec<Event>) {
    let ch = game.charges[i].clone();
    game.charges[i].stage = ChargeStage::Done;
    if cavalry_on_foot(game, i) {
        let t = game.unit(ch.target);
        let why = if t.arm() == Arm::Infantry && t.formation == Formation::Square {
            Some("the infantry stands in square (NQ-CA-6 step 6a)".to_string())
        } else if ch.steady_line {
            Some("the line meets it 1.5 to 1 from the front (NQ-CA-6 step 6b)".to_string())
        } else {
            None
        };
        match why {
            Some(why) => {
                events.push(Event::Repulsed {
                    unit: ch.charger,
                    why,
                });
                let cause = game.unit(ch.target).rect().center();
                retreat(game, ch.charger, cause, events);
            }
            None => ridden_down(game, i, events),
        }
        tire(game, ch.charger, events);
        tire(game, ch.target, events);
        return;
    }
    // NQ-CA-2: each side rolls a D6 and multiplies it by its modified melee value.
    let (mv_c, mods_c, base_c) = melee_value(game, i, true);
    let (mv_t, mods_t, base_t) = melee_value(game, i, false);
    let mut reports = Vec::new();
    let charger_wins = loop {
        let (fc, ft) = (game.dice.d6() as i32, game.dice.d6() as i32);
        let (pc, pt) = (fc * mv_c, ft * mv_t);
        for (who, face, mv, mods, base, product) in [
            (ch.charger, fc, mv_c, &mods_c, base_c, pc),
            (ch.target, ft, mv_t, &mods_t, base_t, pt),
        ] {
            reports.push(RollReport {
                label: format!(
                    "{}: D6 × melee value {mv} (base {base}, G9)",
                    game.unit(who).name
                ),
                modifiers: mods.clone(),
                notes: vec![],
                faces: vec![DieFace {
                    value: face as u32,
                    success: true,
                }],
                reroll: None,
                result: format!("{face} × {mv} = {product}"),
            });
        }
        if pc != pt {
            break pc > pt;
        }
        match game.options.melee_tie {
            MeleeTie::DefenderHolds => break false,
            MeleeTie::RollAgain if reports.len() < 40 => continue,
            MeleeTie::RollAgain => break false,
        }
    };
    let (winner, loser) = if charger_wins {
        (ch.charger, ch.target)
    } else {
        (ch.target, ch.charger)
    };
    events.push(Event::Melee {
        charger: ch.charger,
        target: ch.target,
        reports,
        winner,
    });
    // NQ-CA-4: each side rolls for the casualties it inflicts.
    let cav_v_cav =
        game.unit(ch.charger).arm().is_cavalry() && game.unit(ch.target).arm().is_cavalry();
    let mut losses = Vec::new();
    for (by, on) in [(ch.charger, ch.target), (ch.target, ch.charger)] {
        let f = Facts {
            winner: by == winner,
            cavalry_against_cavalry: cav_v_cav,
            charger_hit_flank: by == ch.charger && ch.facing != Facing::Front,
            ..Facts::default()
        };
        let mods = modifiers(&tables().casualty_modifiers, "NQ-CA-4", &f);
        let column = match game.options.casualty_column {
            CasualtyColumn::ChargerFigures => ch.charger_figures,
            CasualtyColumn::OwnFigures if by == ch.charger => ch.charger_figures,
            CasualtyColumn::OwnFigures => ch.target_figures,
        };
        let face = game.dice.d6() as i32;
        let roll = face + total(&mods);
        let removed = tables().casualties(roll, column);
        let report = RollReport {
            label: format!(
                "Casualties inflicted by {} (NQ-CA-4): D6 {:+}, column {} figure(s) in contact",
                game.unit(by).name,
                total(&mods),
                column
            ),
            modifiers: mods,
            notes: vec![],
            faces: vec![DieFace {
                value: face as u32,
                success: removed > 0,
            }],
            reroll: None,
            result: format!("{roll}: {removed} figure(s) lost"),
        };
        losses.push((on, removed, report));
    }
    for (on, removed, report) in losses {
        events.push(Event::Casualties {
            unit: on,
            report,
            removed,
        });
        crate::fire::remove_figures(game, on, removed, events);
    }
    // NQ-CA-5: the loser checks again; the charger gets +2 if it lost.
    if game.unit(loser).present() {
        let mut f = standing_facts(game, loser);
        f.loser_was_charger = loser == ch.charger;
        // G10: counted in figures of every unit in the close action (all the target's chargers).
        let chargers: u32 = game
            .charges
            .iter()
            .filter(|o| o.target == ch.target && game.unit(o.charger).present())
            .map(|o| game.unit(o.charger).figures)
            .sum();
        let target_figs = game.unit(ch.target).figures;
        let (lf, wf) = if loser == ch.target {
            (target_figs, chargers)
        } else {
            (chargers, target_figs)
        };
        f.outnumbered = match wf / lf.max(1) {
            n if n >= 3 => 3,
            2 => 2,
            _ => 0,
        };
        let why = format!("{} lost the close action (NQ-CA-5)", game.unit(loser).name);
        if check(game, loser, &why, &f, events) {
            let cause = game.unit(winner).rect().center();
            retreat(game, loser, cause, events);
        } else {
            rout(game, loser, events);
        }
    }
    tire(game, ch.charger, events);
    tire(game, ch.target, events);
}
