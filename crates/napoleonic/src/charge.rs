//! Charges (NQ-ACT-2, NQ-MOV-3, G20, digest §9): how far a unit may charge, where it makes
//! contact (its front against the face of the target it comes at, centred on it), what part of
//! the target it strikes, the figures in contact, partial contact and the enfilade values.

use crate::actions::{begin, engaged, may_act};
use crate::event::Event;
use crate::footprint::{arc_of, figures_along, on_table, overlap, rect_in_front_arc};
use crate::ground::path_cost;
use crate::morale::bearing_of;
use crate::state::{Charge, ChargeStage, Facing, Game, INCH, Phase, UnitId};
use crate::tables::tables;
use crate::vocab::{Arm, CavWeight, Formation};
use sandtable_engine::RuleError;
use sandtable_geometry::{Edge, Rect, Vec2};

/// How far the unit may charge in its one charging action, inches; 0 if it cannot charge.
pub fn charge_reach(game: &Game, id: UnitId) -> f32 {
    let u = game.unit(id);
    let t = tables();
    match u.arm() {
        Arm::Cavalry(CavWeight::Light) => t.cavalry_charge.light,
        Arm::Cavalry(CavWeight::Medium) => t.cavalry_charge.medium,
        Arm::Cavalry(CavWeight::Heavy) => t.cavalry_charge.heavy,
        Arm::Infantry if u.formation == Formation::Square => 0.0,
        Arm::Infantry => game.options.infantry_charge,
        Arm::Artillery { .. } => 0.0,
    }
}

/// Where a charge makes contact and what it finds there.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    pub front: Vec2,
    pub bearing: f32,
    pub facing: Facing,
    /// Length of the charger's front touching the target, inches.
    pub overlap: f32,
    /// The charger's front width, inches.
    pub width: f32,
    /// The target's face, inches.
    pub face: f32,
}

/// The charger placed against the face of `target` that it comes at from where it stands.
pub fn contact(game: &Game, charger: UnitId, target: UnitId) -> Contact {
    let c = game.unit(charger);
    let t = game.unit(target);
    let tr = t.rect();
    let cr = c.rect();
    let facing = arc_of(&tr, cr.center(), t.formation == Formation::Square);
    let edge = match facing {
        Facing::Front => Edge::Front,
        Facing::Rear => Edge::Rear,
        Facing::Flank if tr.pose.to_local(cr.center()).x >= 0.0 => Edge::Right,
        Facing::Flank => Edge::Left,
    };
    // A square is met on the face nearest the charger.
    let edge = if t.formation == Formation::Square {
        *Edge::ALL
            .iter()
            .min_by(|a, b| {
                let da = tr.edge(**a).midpoint().distance(cr.center());
                let db = tr.edge(**b).midpoint().distance(cr.center());
                da.total_cmp(&db)
            })
            .unwrap_or(&edge)
    } else {
        edge
    };
    let seg = tr.edge(edge);
    let normal = tr.edge_normal(edge);
    let bearing = bearing_of(-normal);
    let width = cr.half.x * 2.0 / INCH;
    let face = seg.length() / INCH;
    Contact {
        front: seg.midpoint(),
        bearing,
        facing,
        overlap: width.min(face),
        width,
        face,
    }
}

/// The charge's checks: who may charge (NQ-ACT-2, G5, G8), at whom (front arc, reach), and that
/// the way and the place of contact are clear. Returns the contact and the distance in inches.
pub fn check_charge(game: &Game, id: UnitId, target: UnitId) -> Result<(Contact, f32), RuleError> {
    may_act(game, id, 1)?;
    let u = game.unit(id);
    let Some(t) = game.units.get(target.0 as usize) else {
        return Err(RuleError::new("NQ-CA-1", "no such target"));
    };
    if t.side == u.side || !t.present() {
        return Err(RuleError::new(
            "NQ-CA-1",
            format!("{} is not an enemy", t.name),
        ));
    }
    if u.marks.charged {
        return Err(RuleError::new(
            "NQ-ACT-2",
            "a unit charges once a period, for one action",
        ));
    }
    if u.disordered() {
        return Err(RuleError::new(
            "G8",
            format!("{} must reform before it charges", u.name),
        ));
    }
    if u.marks.out_of_command {
        return Err(RuleError::new(
            "G5",
            "an out-of-command unit may not end a move closer to the enemy",
        ));
    }
    let reach = charge_reach(game, id);
    if reach <= 0.0 {
        return Err(RuleError::new(
            "NQ-MOV-3",
            format!("{} cannot charge in {}", u.name, u.formation.name()),
        ));
    }
    if engaged(game, target)
        && game
            .charges
            .iter()
            .any(|c| c.target == target && c.charger == id)
    {
        return Err(RuleError::new(
            "NQ-CA-1",
            "it is already charging that unit",
        ));
    }
    let ur = u.rect();
    if !rect_in_front_arc(&ur, &t.rect()) {
        return Err(RuleError::new(
            "NQ-CA-1",
            format!("{} is not in {}'s front arc", t.name, u.name),
        ));
    }
    let c = contact(game, id, target);
    let dist = path_cost(game, u.arm(), u.front, c.front)? / INCH;
    if dist > reach + 0.005 {
        return Err(RuleError::new(
            "NQ-MOV-3",
            format!(
                "{} is {dist:.1}\" away; {} charges {reach}\" at most",
                t.name, u.name
            ),
        ));
    }
    let rect = crate::footprint::rect(u.arm(), u.formation, u.figures, c.front, c.bearing);
    if !on_table(&rect, game.table) {
        return Err(RuleError::new(
            "G16",
            "there is no room on the table to make contact",
        ));
    }
    for o in game
        .units
        .iter()
        .filter(|o| o.id != id && o.id != target && o.present())
    {
        if overlap(&rect, &o.rect()) {
            return Err(RuleError::new("G1", format!("{} is in the way", o.name)));
        }
    }
    // The way in: the footprint along the line must not run through anyone else.
    let steps = ((c.front - u.front).length() / (0.5 * INCH)).ceil() as usize;
    for i in 1..steps {
        let k = i as f32 / steps as f32;
        let r = Rect::new(
            sandtable_geometry::Pose::new(ur.center().lerp(rect.center(), k), ur.pose.angle),
            ur.half,
        );
        if let Some(o) = game
            .units
            .iter()
            .find(|o| o.id != id && o.id != target && o.present() && overlap(&r, &o.rect()))
        {
            return Err(RuleError::new("G1", format!("{} is in the way", o.name)));
        }
    }
    Ok((c, dist))
}

/// Fills in what the close action needs from the contact (NQ-CA-3/4/6, G10).
pub fn charge_record(
    game: &Game,
    id: UnitId,
    target: UnitId,
    c: &Contact,
    run: f32,
    both: bool,
    from: Vec2,
) -> Charge {
    let u = game.unit(id);
    let t = game.unit(target);
    let d = &tables().distances;
    let charger_figures = figures_along(u.arm(), u.formation, u.figures, c.overlap, Facing::Front);
    let target_figures = figures_along(t.arm(), t.formation, t.figures, c.overlap, c.facing);
    let over_c = ((c.width - c.face).max(0.0)).min(2.0 * d.enfilade_reach);
    let over_t = ((c.face - c.width).max(0.0)).min(2.0 * d.enfilade_reach);
    let charger_enfilade =
        charger_figures + figures_along(u.arm(), u.formation, u.figures, over_c, Facing::Front);
    let target_enfilade =
        target_figures + figures_along(t.arm(), t.formation, t.figures, over_t, c.facing);
    // NQ-CA-6 step 6b: infantry in line struck in front, 1.5 : 1 with fractions in the
    // cavalry's favour (infantry rounded down, cavalry up).
    let steady_line = u.arm().is_cavalry()
        && t.arm() == Arm::Infantry
        && t.formation == Formation::Line
        && c.facing == Facing::Front
        && {
            let inf = (c.overlap / tables().figures.infantry.0 + 1e-3).floor();
            let cav = (c.overlap / tables().figures.cavalry.0 - 1e-3)
                .ceil()
                .max(1.0);
            inf >= 1.5 * cav
        };
    Charge {
        charger: id,
        target,
        facing: c.facing,
        run,
        both_actions: both,
        partial: c.overlap < c.width / 2.0 - 1e-3,
        charger_figures,
        target_figures,
        charger_enfilade,
        target_enfilade,
        steady_line,
        from,
        stage: ChargeStage::Declared,
    }
}

pub fn do_charge(
    game: &mut Game,
    id: UnitId,
    target: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let (c, dist) = check_charge(game, id, target)?;
    begin(game, id, events);
    let u = game.unit(id);
    let from = u.front;
    let both = u.marks.used >= 1;
    let mut run = u.marks.run + (c.front - u.front).length();
    if u.marks.turned {
        run += tables().distances.turn_allowance * INCH;
    }
    let record = charge_record(game, id, target, &c, run, both, from);
    let u = game.unit_mut(id);
    u.front = c.front;
    u.bearing = c.bearing;
    u.marks.charged = true;
    u.marks.run = run;
    u.actions_left -= 1;
    u.marks.used += 1;
    events.push(Event::Charged {
        unit: id,
        target,
        facing: c.facing,
        inches: dist,
    });
    game.charges.push(record);
    // Once in contact the unit waits for step 9: its activation is over.
    if matches!(game.phase, Phase::Activation(_)) {
        crate::sequence::finish_unit(game, events);
    }
    Ok(())
}
