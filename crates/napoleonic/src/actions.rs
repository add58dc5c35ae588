//! A unit's actions in its activation (NQ-ACT-1, NQ-MOV-*, G2, G5, G8): who may act, moving,
//! changing formation or facing, reforming, and standing. Fire, solid shot and charges have
//! their own files.

use crate::event::Event;
use crate::footprint::{gap, on_table, overlap};
use crate::ground::{on_road, path_cost};
use crate::morale::bearing_of;
use crate::state::{Game, INCH, Phase, UnitId};
use crate::tables::tables;
use crate::vocab::{Arm, Formation, Rating, Standing};
use sandtable_engine::RuleError;
use sandtable_geometry::{Rect, Vec2};

/// Is the unit in a close action waiting for step 9 (it has charged, or been charged)?
pub fn engaged(game: &Game, id: UnitId) -> bool {
    game.charges
        .iter()
        .any(|c| c.charger == id || c.target == id)
}

/// May the unit spend `cost` actions now (NQ-SEQ-3, NQ-ACT-1, G5)?
pub fn may_act(game: &Game, id: UnitId, cost: u8) -> Result<(), RuleError> {
    let Phase::Activation(act) = game.phase else {
        return Err(RuleError::new(
            "NQ-SEQ-1",
            "units act only in steps 3 to 7 of the period",
        ));
    };
    let Some(u) = game.units.get(id.0 as usize) else {
        return Err(RuleError::new("NQ-SEQ-3", "no such unit"));
    };
    if u.side != act.side {
        return Err(RuleError::new(
            "NQ-SEQ-3",
            format!("it is {}'s activation", game.side_names[act.side as usize]),
        ));
    }
    if !u.present() {
        return Err(RuleError::new("G8", format!("{} has routed", u.name)));
    }
    match act.current {
        Some(c) if c != id => {
            return Err(RuleError::new(
                "NQ-SEQ-3",
                format!("finish {} first", game.unit(c).name),
            ));
        }
        None if u.marks.moved => {
            return Err(RuleError::new(
                "NQ-SEQ-3",
                format!("{} has already been activated this period", u.name),
            ));
        }
        _ => {}
    }
    if engaged(game, id) {
        return Err(RuleError::new(
            "NQ-CA-1",
            format!("{} is in a close action, fought at step 9", u.name),
        ));
    }
    if cost > u.actions_left {
        return Err(RuleError::new(
            "NQ-ACT-1",
            format!("{} has {} action(s) left", u.name, u.actions_left),
        ));
    }
    if u.marks.out_of_command && u.marks.used + cost > game.options.out_of_command_actions {
        return Err(RuleError::new(
            "G5",
            format!(
                "{} is out of command: {} action(s) a period",
                u.name, game.options.out_of_command_actions
            ),
        ));
    }
    Ok(())
}

/// A unit in retreat status may only reform (G8).
fn not_retreating(game: &Game, id: UnitId) -> Result<(), RuleError> {
    if game.unit(id).in_retreat() {
        return Err(RuleError::new(
            "G8",
            format!("{} is in retreat: it must reform first", game.unit(id).name),
        ));
    }
    Ok(())
}

/// Inches a unit may move in one action in its formation (NQ-MOV-1/2/4, G19), and whether on
/// a road; `None` if it cannot move so.
pub fn move_rate(game: &Game, id: UnitId, road: bool) -> Option<f32> {
    let u = game.unit(id);
    let t = tables();
    match u.arm() {
        Arm::Artillery { horse, calibre, .. } => {
            use crate::vocab::{BatteryRow, Calibre};
            let row = match (horse, calibre) {
                (true, _) => BatteryRow::Horse3to6,
                (false, Calibre::Lb12) => BatteryRow::Foot12,
                (false, Calibre::Lb8to9) => BatteryRow::Foot8to9,
                _ => BatteryRow::Foot3to6,
            };
            let m = t.artillery_move(row);
            match u.formation {
                Formation::Unlimbered => Some(m.prolong),
                _ if road => Some(m.road),
                _ if u.profile.rating == Rating::A => Some(m.field_a),
                _ => Some(m.field_b),
            }
        }
        arm => {
            let row = t.move_row(arm.is_cavalry(), u.profile.rating);
            match u.formation {
                Formation::Line => Some(row.line),
                Formation::Column => Some(row.column),
                Formation::Skirmish => Some(row.skirmish),
                Formation::RoadColumn if road => Some(if arm.is_cavalry() {
                    row.road
                } else {
                    game.options.infantry_road
                }),
                // Off the road a road column moves as a column.
                Formation::RoadColumn => Some(row.column),
                Formation::Square => row.square,
                _ => None,
            }
        }
    }
}

/// Formations that turn as they move (G2: others pay an action to face).
pub fn turns_freely(f: Formation) -> bool {
    matches!(
        f,
        Formation::Column | Formation::RoadColumn | Formation::Skirmish | Formation::Limbered
    )
}

/// Can `rect` stand here: on the table, on nobody, clear of the enemy (a move that is not a
/// charge keeps half an inch away)?
pub fn place_ok(game: &Game, id: UnitId, rect: &Rect) -> Result<(), RuleError> {
    if !on_table(rect, game.table) {
        return Err(RuleError::new("G16", "it would leave the table"));
    }
    let side = game.unit(id).side;
    let clear = tables().distances.keep_clear * INCH;
    for o in game.units.iter().filter(|o| o.id != id && o.present()) {
        let r = o.rect();
        if overlap(rect, &r) {
            return Err(RuleError::new(
                "G1",
                format!("it would stand on {}", o.name),
            ));
        }
        if o.side != side && gap(rect, &r) < clear - 0.01 {
            return Err(RuleError::new(
                "NQ-CA-1",
                format!("only a charge may come into contact with {}", o.name),
            ));
        }
    }
    Ok(())
}

/// Does the path between two placements run through an enemy?
fn path_blocked(game: &Game, id: UnitId, from: &Rect, to: &Rect) -> Option<String> {
    let side = game.unit(id).side;
    let steps = ((to.center() - from.center()).length() / (0.5 * INCH)).ceil() as usize;
    for i in 1..steps.max(1) {
        let k = i as f32 / steps as f32;
        let r = Rect::new(
            sandtable_geometry::Pose::new(from.center().lerp(to.center(), k), from.pose.angle),
            from.half,
        );
        if let Some(o) = game
            .units
            .iter()
            .find(|o| o.present() && o.side != side && overlap(&r, &o.rect()))
        {
            return Some(o.name.clone());
        }
    }
    None
}

/// The nearest enemy's distance from a footprint, cm.
pub fn nearest_enemy(game: &Game, side: u8, r: &Rect) -> f32 {
    game.enemies_of(side)
        .map(|e| gap(r, &e.rect()))
        .fold(f32::MAX, f32::min)
}

/// The cost and checks of a move (NQ-MOV-*, G2, G5, G17): inches used of the action's budget,
/// the budget, and whether it went by road.
pub fn check_move(
    game: &Game,
    id: UnitId,
    to: Vec2,
    bearing: f32,
) -> Result<(f32, f32, bool), RuleError> {
    may_act(game, id, 1)?;
    not_retreating(game, id)?;
    let u = game.unit(id);
    if !(to.x.is_finite() && to.y.is_finite() && bearing.is_finite()) {
        return Err(RuleError::new(
            "NQ-MOV-1",
            "the move is not a place on the table",
        ));
    }
    let turn = ((bearing - u.bearing + 540.0).rem_euclid(360.0) - 180.0).abs();
    if turn > 0.5 && !turns_freely(u.formation) {
        return Err(RuleError::new(
            "G2",
            format!(
                "a unit in {} keeps its facing as it moves: changing facing is an action",
                u.formation.name()
            ),
        ));
    }
    let road = on_road(game, u.front, to);
    let Some(rate) = move_rate(
        game,
        id,
        road && matches!(u.formation, Formation::RoadColumn | Formation::Limbered),
    ) else {
        return Err(RuleError::new(
            "NQ-MOV-1",
            format!("{} cannot move in {}", u.name, u.formation.name()),
        ));
    };
    let cost = path_cost(game, u.arm(), u.front, to)? / INCH;
    if cost > rate + 0.005 {
        return Err(RuleError::new(
            "NQ-MOV-1",
            format!("{cost:.1}\" of movement is more than the {rate}\" of one action"),
        ));
    }
    let from = u.rect();
    let rect = crate::footprint::rect(u.arm(), u.formation, u.figures, to, bearing);
    place_ok(game, id, &rect)?;
    if let Some(name) = path_blocked(game, id, &from, &rect) {
        return Err(RuleError::new("G1", format!("{name} is in the way")));
    }
    if u.marks.out_of_command
        && nearest_enemy(game, u.side, &rect) < nearest_enemy(game, u.side, &from) - 0.01
    {
        return Err(RuleError::new(
            "G5",
            "an out-of-command unit may not end a move closer to the enemy",
        ));
    }
    Ok((cost, rate, road))
}

/// Begins the unit's activation if this is its first action (NQ-SEQ-3).
pub fn begin(game: &mut Game, id: UnitId, events: &mut Vec<Event>) {
    if let Phase::Activation(act) = &mut game.phase
        && act.current.is_none()
    {
        act.current = Some(id);
        game.units[id.0 as usize].marks.moved = true;
        game.units[id.0 as usize].marks.run = 0.0;
        game.units[id.0 as usize].marks.turned = false;
        events.push(Event::Activated { unit: id });
    }
}

/// Spends actions; the activation ends by itself when none are left.
pub fn spend(game: &mut Game, id: UnitId, n: u8, events: &mut Vec<Event>) {
    let u = game.unit_mut(id);
    u.actions_left = u.actions_left.saturating_sub(n);
    u.marks.used += n;
    let out = u.actions_left == 0
        || (u.marks.out_of_command && u.marks.used >= game.options.out_of_command_actions);
    if out {
        crate::sequence::finish_unit(game, events);
    }
}

pub fn do_move(
    game: &mut Game,
    id: UnitId,
    to: Vec2,
    bearing: f32,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let (cost, _, road) = check_move(game, id, to, bearing)?;
    begin(game, id, events);
    let u = game.unit_mut(id);
    let from = u.front;
    u.marks.run += (to - from).length();
    // A turn on the way counts as a change of facing for NQ-CA-7.
    if ((bearing - u.bearing + 540.0).rem_euclid(360.0) - 180.0).abs() > 0.5 {
        u.marks.turned = true;
    }
    u.front = to;
    u.bearing = bearing.rem_euclid(360.0);
    events.push(Event::Moved {
        unit: id,
        from,
        to,
        bearing: u.bearing,
        inches: cost,
        road,
    });
    spend(game, id, 1, events);
    Ok(())
}

/// Formations an arm may take (G1, G18).
pub fn formations_for(game: &Game, id: UnitId) -> Vec<Formation> {
    let u = game.unit(id);
    let skirmish = u.profile.has(crate::force::Trait::Skirmishers);
    match u.arm() {
        Arm::Artillery { .. } => vec![Formation::Limbered, Formation::Unlimbered],
        Arm::Cavalry(_) => {
            let mut v = vec![Formation::Line, Formation::Column, Formation::RoadColumn];
            if skirmish {
                v.push(Formation::Skirmish);
            }
            v
        }
        Arm::Infantry => {
            let mut v = vec![
                Formation::Line,
                Formation::Column,
                Formation::RoadColumn,
                Formation::Square,
            ];
            if skirmish {
                v.push(Formation::Skirmish);
            }
            v
        }
    }
}

/// The footprint after a change of formation, the front centre kept (a square keeps its centre
/// on the old front's line).
pub fn formed_rect(game: &Game, id: UnitId, to: Formation) -> Rect {
    let u = game.unit(id);
    crate::footprint::rect(u.arm(), to, u.figures, u.front, u.bearing)
}

pub fn check_formation(
    game: &Game,
    id: UnitId,
    to: Formation,
    defence: bool,
) -> Result<(), RuleError> {
    if !defence {
        may_act(game, id, 1)?;
        not_retreating(game, id)?;
    }
    let u = game.unit(id);
    if u.formation == to {
        return Err(RuleError::new(
            "G2",
            format!("{} is already in {}", u.name, to.name()),
        ));
    }
    if !formations_for(game, id).contains(&to) {
        return Err(RuleError::new(
            "G1",
            format!("{} cannot form {}", u.name, to.name()),
        ));
    }
    let rect = formed_rect(game, id, to);
    if !on_table(&rect, game.table) {
        return Err(RuleError::new("G16", "it would leave the table"));
    }
    let others = game
        .units
        .iter()
        .filter(|o| o.id != id && o.present() && !(defence && engaged_with(game, id, o.id)));
    for o in others {
        if overlap(&rect, &o.rect()) {
            return Err(RuleError::new("G1", format!("{} is in the way", o.name)));
        }
    }
    Ok(())
}

fn engaged_with(game: &Game, a: UnitId, b: UnitId) -> bool {
    game.charges
        .iter()
        .any(|c| (c.charger == a && c.target == b) || (c.charger == b && c.target == a))
}

pub fn do_formation(
    game: &mut Game,
    id: UnitId,
    to: Formation,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_formation(game, id, to, false)?;
    begin(game, id, events);
    let u = game.unit_mut(id);
    let from = u.formation;
    u.formation = to;
    u.marks.turned = true;
    events.push(Event::FormationChanged { unit: id, from, to });
    spend(game, id, 1, events);
    Ok(())
}

/// The unit pivoted about its centre to face `bearing`.
pub fn faced_front(game: &Game, id: UnitId, bearing: f32) -> Vec2 {
    let u = game.unit(id);
    let r = u.rect();
    let dir = sandtable_geometry::Pose::from_bearing_deg(Vec2::ZERO, bearing).facing();
    r.center() + dir * r.half.y
}

pub fn check_face(game: &Game, id: UnitId, bearing: f32) -> Result<(), RuleError> {
    may_act(game, id, 1)?;
    not_retreating(game, id)?;
    let u = game.unit(id);
    if !bearing.is_finite() {
        return Err(RuleError::new("G2", "not a bearing"));
    }
    let turn = ((bearing - u.bearing + 540.0).rem_euclid(360.0) - 180.0).abs();
    if turn < 1.0 {
        return Err(RuleError::new(
            "G2",
            format!("{} already faces that way", u.name),
        ));
    }
    let front = faced_front(game, id, bearing);
    let rect = crate::footprint::rect(u.arm(), u.formation, u.figures, front, bearing);
    if !on_table(&rect, game.table) {
        return Err(RuleError::new("G16", "it would leave the table"));
    }
    if let Some(o) = game
        .units
        .iter()
        .find(|o| o.id != id && o.present() && overlap(&rect, &o.rect()))
    {
        return Err(RuleError::new("G1", format!("{} is in the way", o.name)));
    }
    Ok(())
}

pub fn do_face(
    game: &mut Game,
    id: UnitId,
    bearing: f32,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_face(game, id, bearing)?;
    begin(game, id, events);
    let front = faced_front(game, id, bearing);
    let u = game.unit_mut(id);
    u.front = front;
    u.bearing = bearing.rem_euclid(360.0);
    u.marks.turned = true;
    events.push(Event::Faced {
        unit: id,
        bearing: u.bearing,
    });
    spend(game, id, 1, events);
    Ok(())
}

/// Turn towards a point: the bearing from the unit's centre.
pub fn bearing_towards(game: &Game, id: UnitId, p: Vec2) -> f32 {
    bearing_of(p - game.unit(id).rect().center())
}

/// Is an enemy close enough to charge the unit (G8b)?
pub fn in_charge_reach(game: &Game, id: UnitId) -> bool {
    let u = game.unit(id);
    let r = u.rect();
    game.enemies_of(u.side).any(|e| {
        let reach = crate::charge::charge_reach(game, e.id);
        reach > 0.0 && gap(&r, &e.rect()) <= reach * INCH
    })
}

pub fn check_reform(game: &Game, id: UnitId) -> Result<(), RuleError> {
    may_act(game, id, 1)?;
    let u = game.unit(id);
    match u.standing {
        Standing::Retreat { .. } => Ok(()),
        Standing::Disordered if in_charge_reach(game, id) => Err(RuleError::new(
            "G8b",
            "a disordered unit reforms only out of the enemy's charge reach",
        )),
        Standing::Disordered => Ok(()),
        _ => Err(RuleError::new("G8", format!("{} is in good order", u.name))),
    }
}

pub fn do_reform(game: &mut Game, id: UnitId, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check_reform(game, id)?;
    begin(game, id, events);
    let u = game.unit_mut(id);
    let left = match u.standing {
        Standing::Retreat { to_reform } => to_reform.saturating_sub(1),
        _ => 0,
    };
    if left == 0 {
        u.standing = Standing::Good;
        u.ridden_down = false;
    } else {
        u.standing = Standing::Retreat { to_reform: left };
    }
    events.push(Event::Reformed { unit: id, left });
    spend(game, id, 1, events);
    Ok(())
}

pub fn check_stand(game: &Game, id: UnitId) -> Result<(), RuleError> {
    may_act(game, id, 0)?;
    if game.unit(id).marks.moved {
        return Err(RuleError::new(
            "NQ-SEQ-3",
            "only a unit not yet activated may stand",
        ));
    }
    Ok(())
}

pub fn do_stand(game: &mut Game, id: UnitId, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check_stand(game, id)?;
    let u = game.unit_mut(id);
    u.marks.moved = true;
    u.marks.stand = true;
    events.push(Event::Stood { unit: id });
    if let Phase::Activation(act) = &mut game.phase {
        act.current = Some(id);
    }
    crate::sequence::finish_unit(game, events);
    Ok(())
}
