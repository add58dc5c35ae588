//! Planning the move of an Open Order unit (BFS-OO-3): each base keeps its own account of the
//! path its corners travel, against the unit's Move as the ground under that base changes it.
//! Straight moves cost the same forwards and backwards, wheels cost the arc of each base's
//! farthest corner, turns about a base's centre are free of the maneuver limit but their corner
//! path counts. Bases may also shift in any direction, together or one at a time. A close-order
//! unit whose rules allow it may begin its move by dispersing, and an Open Order unit may end
//! it by closing up (BFS-MAN-17/18). The result is the same [`MovePlan`] as a close-order move,
//! so `legal`, `preview` and `execute` agree.

use crate::command::{MoveStep, PivotCorner, TurnKind};
use crate::geo::frame_of;
use crate::ids::UnitId;
use crate::moves::{
    self, EPS, MovePlan, TerrainLimit, blocker_text, crossed_friends, maneuver_cost,
    obstacles_passing, slowing,
};
use crate::open_order::{self, check_faced, check_spaced, swing_cost, turn_cost, turned};
use crate::profile::UnitProfile;
use crate::state::{Formation, Game};
use sandtable_engine::RuleError;
use sandtable_geometry::maneuver::base_displacement;
use sandtable_geometry::movement::{self, Body};
use sandtable_geometry::{Rect, Scene, Vec2};

/// Does this move go by the Open Order rules: the unit is in Open Order, or it disperses first,
/// or it is Elite Cavalry in a Line or Column (BFS-SPC-10)?
pub fn applies(game: &Game, unit: UnitId, steps: &[MoveStep]) -> bool {
    open_order::rules_apply(game)
        && (moves_freely(game, unit) || steps.first() == Some(&MoveStep::Disperse))
}

/// Does the unit move any way, base by base, as Open Order does: it is in Open Order, or it is
/// Elite Cavalry in a Line or Column (BFS-OO-3, BFS-SPC-10)?
pub fn moves_freely(game: &Game, unit: UnitId) -> bool {
    open_order::rules_apply(game)
        && (game.unit(unit).formation == Formation::OpenOrder
            || crate::elite_cavalry::moves_base_by_base(game, unit))
}

/// The running accounts of an Open Order move, one per base.
struct Accounts {
    bases: Vec<Rect>,
    spent: Vec<f32>,
    limits: Vec<TerrainLimit>,
    /// Which base of the unit's start each entry is (closing up reorders them).
    origin: Vec<usize>,
    /// Elite Cavalry moving base by base in Close Order (BFS-SPC-10).
    elite: bool,
}

impl Accounts {
    /// Charges each base its cost and checks the ground it now stands in.
    fn charge(
        &mut self,
        game: &Game,
        scene: &Scene,
        p: &UnitProfile,
        costs: &[f32],
    ) -> Result<(), RuleError> {
        for (i, c) in costs.iter().enumerate() {
            // A base on a road is not slowed by the ground the road crosses (BFS-TER-22).
            if crate::geo::on_road(game, self.bases[i].center()) {
                self.spent[i] += c;
                self.limits[i].check(self.spent[i])?;
                continue;
            }
            for piece in scene.terrain() {
                if piece.overlap_area(&self.bases[i]).is_ok_and(|a| a > 1e-3)
                    && let Some(found) = slowing(game, p, piece.id as usize, p.movement.basic)
                {
                    self.limits[i].enter(self.spent[i], 0.0, found, 1.0)?;
                }
            }
            self.spent[i] += c;
            self.limits[i].check(self.spent[i])?;
        }
        Ok(())
    }

    /// The slowing ground each base meets as it swings by `theta` radians about `pivot_of` it
    /// (its own centre, or the unit's wheeling corner), from where its sweep first touches it,
    /// even if the swing ends clear of it (BFS-TER-2/3, revision 14). `costs`: each base's
    /// whole swing, in cm.
    fn meet_swing(
        &mut self,
        game: &Game,
        scene: &Scene,
        p: &UnitProfile,
        pivot_of: impl Fn(&Rect) -> Vec2,
        theta: f32,
        costs: &[f32],
    ) -> Result<(), RuleError> {
        if !crate::revision::ground_met_on_the_way(game.info.options.rules_revision) {
            return Ok(());
        }
        let legacy = !crate::revision::sliver_met_at_once(game.info.options.rules_revision);
        for (i, c) in costs.iter().enumerate() {
            let b = self.bases[i];
            if crate::geo::on_road(game, b.center()) {
                continue;
            }
            for piece in scene.terrain() {
                if let Ok(Some(t)) = piece.wheel_entry_as(legacy, &b, pivot_of(&b), theta)
                    && let Some(found) = slowing(game, p, piece.id as usize, p.movement.basic)
                {
                    self.limits[i].enter(self.spent[i], t * c, found, *c)?;
                }
            }
        }
        Ok(())
    }

    /// Turns every base `theta` radians about its own centre, paying the path of its corners. Elite
    /// Cavalry, which must stay in Close Order, then sends each base straight (its path checked)
    /// to its place in the unit turned as a block about its middle, the nearest place first
    /// (BFS-SPC-10). Returns the most one base spent.
    fn turn_all(
        &mut self,
        game: &Game,
        scene: &Scene,
        unit: UnitId,
        theta: f32,
        passed: &mut Vec<UnitId>,
    ) -> Result<f32, RuleError> {
        let p = game.unit_profile(unit);
        let places = self
            .elite
            .then(|| crate::elite_cavalry::turned_as_block(&self.bases, theta));
        let costs: Vec<f32> = self.bases.iter().map(|b| turn_cost(b, theta)).collect();
        self.meet_swing(game, scene, p, |b| b.center(), theta, &costs)?;
        self.bases = self.bases.iter().map(|b| turned(b, theta)).collect();
        self.charge(game, scene, p, &costs)?;
        let mut most = costs.iter().copied().fold(0.0, f32::max);
        if let Some(places) = places {
            for (i, place) in crate::elite_cavalry::nearest_places(&self.bases, &places)
                .into_iter()
                .enumerate()
            {
                let delta = places[place].center() - self.bases[i].center();
                self.translate(game, scene, unit, &[i], delta, passed)?;
                most = most.max(costs[i] + delta.length());
            }
        }
        Ok(most)
    }

    /// Moves the bases `which` by `delta`, stopping the plan at anything in the way; records the
    /// slowing ground each enters and the friends it crosses.
    fn translate(
        &mut self,
        game: &Game,
        scene: &Scene,
        unit: UnitId,
        which: &[usize],
        delta: Vec2,
        passed: &mut Vec<UnitId>,
    ) -> Result<(), RuleError> {
        let len = delta.length();
        if len < 1e-6 {
            return Ok(());
        }
        let moving: Vec<Rect> = which.iter().map(|&i| self.bases[i]).collect();
        let frame = frame_of(&moving);
        let passing = obstacles_passing(game, unit);
        let out = movement::move_along(scene, &Body::new(frame, &moving), delta, &passing)
            .map_err(|e| RuleError::new("BFS-OO-3", format!("The move cannot be measured: {e}")))?;
        if out.travelled < len - EPS {
            let side = game.unit(unit).side.0;
            let (why, rule) = out
                .blocked
                .map(|b| blocker_text(game, &b, side))
                .unwrap_or(("something is in the way".into(), "BFS-OO-3"));
            return Err(RuleError::new(
                rule,
                format!("Blocked after {:.1} cm: {why}.", out.travelled),
            ));
        }
        let p = game.unit_profile(unit);
        for &i in which {
            if crate::geo::keeps_to_road(game, &self.bases[i], delta) {
                continue;
            }
            for piece in scene.terrain() {
                if let Some(found) = slowing(game, p, piece.id as usize, p.movement.basic) {
                    let entry = piece
                        .swept_intervals(&self.bases[i], delta)
                        .ok()
                        .and_then(|iv| iv.first().map(|(t0, _)| t0 * len));
                    if let Some(entry) = entry {
                        self.limits[i].enter(self.spent[i], entry, found, len)?;
                    }
                }
            }
        }
        for f in crossed_friends(game, unit, &moving, delta) {
            // Two Open Order units at the same Morale Level pass freely (BFS-OO-11).
            // Elite Cavalry is a close-order unit, which tests (BFS-SPC-10).
            let free = game.unit(f).formation == Formation::OpenOrder
                && !self.elite
                && game.unit(f).morale == game.unit(unit).morale;
            if !free && !passed.contains(&f) {
                passed.push(f);
            }
        }
        for &i in which {
            self.bases[i] = self.bases[i].translated(delta);
            self.spent[i] += len;
            self.limits[i].check(self.spent[i])?;
        }
        Ok(())
    }
}

fn nonsense(rule: &'static str, what: &str) -> RuleError {
    RuleError::new(rule, format!("{what} makes no sense."))
}

fn check_shift(dx: f32, dy: f32, degrees: f32) -> Result<(), RuleError> {
    if !(dx.is_finite() && dy.is_finite() && degrees.is_finite())
        || dx.abs() > 1000.0
        || dy.abs() > 1000.0
        || degrees.abs() > 360.0
    {
        return Err(nonsense("BFS-OO-3", "That shift"));
    }
    Ok(())
}

/// Plans `steps` for an Open Order unit (or one that disperses first) with `allowance` cm.
pub fn plan(
    game: &Game,
    scene: &Scene,
    unit: UnitId,
    steps: &[MoveStep],
    allowance: f32,
) -> Result<MovePlan, RuleError> {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    // Elite Cavalry moves base by base but ends in Close Order (BFS-SPC-10); one whose rules
    // also allow Open Order may disperse instead, and then moves as Open Order.
    let elite = crate::elite_cavalry::moves_base_by_base(game, unit)
        && steps.first() != Some(&MoveStep::Disperse);
    if steps.len() > 64 {
        return Err(RuleError::new(
            "BFS-MOV-3",
            "A move may have at most 64 steps.",
        ));
    }
    let n = u.bases.len();
    let mut acc = Accounts {
        bases: u.bases.clone(),
        spent: vec![0.0; n],
        limits: (0..n).map(|_| TerrainLimit::default()).collect(),
        origin: (0..n).collect(),
        elite,
    };
    // Ground a base starts in limits that base from the start (BFS-TER-2/3, BFS-OO-3).
    for (i, b) in u.bases.iter().enumerate() {
        for piece in scene.terrain() {
            if piece.overlap_area(b).is_ok_and(|a| a > 1e-3)
                && let Some(found) = slowing(game, p, piece.id as usize, p.movement.basic)
            {
                acc.limits[i].enter(0.0, 0.0, found, 0.0)?;
            }
        }
    }
    let spaced_at_start =
        u.formation != Formation::OpenOrder || check_spaced(&u.name, &u.bases).is_ok();
    let mut maneuvers = 0u8;
    let mut files: Option<u8> = None;
    // The cost of a change of order made in this move (BFS-MAN-18).
    let mut change_cost: Option<f32> = None;
    let mut placed = Vec::new();
    let mut passed: Vec<UnitId> = Vec::new();
    let mut words = Vec::new();
    let mut path = vec![frame_of(&acc.bases)];
    for (k, step) in steps.iter().enumerate() {
        if files.is_some() {
            return Err(RuleError::new(
                "BFS-MAN-18",
                "Closing up ends the move: plan it as the last step.",
            ));
        }
        match *step {
            MoveStep::Mount | MoveStep::Dismount { .. } => {
                return Err(RuleError::new(
                    "BFS-SPC-9",
                    "Mounting or dismounting is the whole of a move here: plan it alone.",
                ));
            }
            MoveStep::March => words.push("march".to_string()),
            MoveStep::Bend { .. } => {
                return Err(RuleError::new(
                    "BFS-AMV-4",
                    "Only a Column in close order follows a bend; Open Order bases move each on its own.",
                ));
            }
            MoveStep::SetUpObstacles => {
                placed = moves::set_up_last(game, unit, &acc.bases, k, steps.len())?;
                acc.charge(game, scene, p, &vec![maneuver_cost(p); n])?;
                maneuvers += 1;
                words.push(format!(
                    "set up {} element(s) of portable obstacles",
                    placed.len()
                ));
            }
            MoveStep::Disperse => {
                if k != 0 || u.formation == Formation::OpenOrder {
                    return Err(RuleError::new(
                        "BFS-MAN-17",
                        format!(
                            "{} may change order once, at the start of its move, and only from Close Order.",
                            u.name
                        ),
                    ));
                }
                if !open_order::may_use_open(p) {
                    return Err(RuleError::new(
                        "BFS-MAN-17",
                        format!("{}'s rules do not allow Open Order.", u.name),
                    ));
                }
                let (spread, _) = open_order::dispersed(&acc.bases);
                let cost = maneuver_cost(p);
                acc.bases = spread;
                acc.charge(game, scene, p, &vec![cost; n])?;
                change_cost = Some(cost);
                maneuvers += 1;
                words.push(format!("disperse into Open Order ({cost:.0} cm)"));
            }
            MoveStep::CloseRanks { files: f } => {
                if u.formation != Formation::OpenOrder
                    || !open_order::may_use_open(p)
                    || open_order::always_open(p)
                {
                    return Err(RuleError::new(
                        "BFS-MAN-17",
                        format!(
                            "{} may close up only from Open Order, by a change of order its rules allow once per move.",
                            u.name
                        ),
                    ));
                }
                if f == 0 || f as usize > n {
                    return Err(RuleError::new(
                        "BFS-MAN-10",
                        format!("{} cannot have {f} files with {n} bases.", u.name),
                    ));
                }
                let (slots, from) = open_order::closed(&acc.bases, f);
                let cost = maneuver_cost(p);
                let mut next = Accounts {
                    bases: slots,
                    spent: from.iter().map(|&i| acc.spent[i]).collect(),
                    limits: from.iter().map(|&i| acc.limits[i].clone()).collect(),
                    origin: from.iter().map(|&i| acc.origin[i]).collect(),
                    elite: acc.elite,
                };
                next.charge(game, scene, p, &vec![cost; n])?;
                acc = next;
                change_cost = Some(cost);
                maneuvers += 1;
                files = Some(f);
                words.push(format!("close up into {f} file(s) ({cost:.0} cm)"));
            }
            MoveStep::Forward(d) | MoveStep::Backward(d) => {
                if !d.is_finite() || d <= 0.0 || d > 1000.0 {
                    return Err(nonsense("BFS-MOV-5", &format!("A move of {d} cm")));
                }
                let forward = matches!(step, MoveStep::Forward(_));
                let facing = frame_of(&acc.bases).facing();
                let all: Vec<usize> = (0..n).collect();
                let delta = facing * if forward { d } else { -d };
                acc.translate(game, scene, unit, &all, delta, &mut passed)?;
                words.push(format!(
                    "{} {d:.1} cm",
                    if forward {
                        "forward"
                    } else {
                        "back (full speed in Open Order)"
                    }
                ));
            }
            MoveStep::Shift { dx, dy, degrees } => {
                check_shift(dx, dy, degrees)?;
                let frame = frame_of(&acc.bases);
                let delta = frame.pose.dir_to_world(Vec2::new(dx, dy));
                let all: Vec<usize> = (0..n).collect();
                acc.translate(game, scene, unit, &all, delta, &mut passed)?;
                let theta = degrees.to_radians();
                acc.turn_all(game, scene, unit, theta, &mut passed)?;
                words.push(shift_words("every base", delta.length(), degrees));
            }
            MoveStep::ShiftBase {
                base,
                dx,
                dy,
                degrees,
            } => {
                check_shift(dx, dy, degrees)?;
                let i = base as usize;
                if i >= n {
                    return Err(RuleError::new(
                        "BFS-OO-3",
                        format!("{} has no base {}.", u.name, i + 1),
                    ));
                }
                let frame = frame_of(&acc.bases);
                let delta = frame.pose.dir_to_world(Vec2::new(dx, dy));
                acc.translate(game, scene, unit, &[i], delta, &mut passed)?;
                let theta = degrees.to_radians();
                let mut costs = vec![0.0; n];
                costs[i] = turn_cost(&acc.bases[i], theta);
                acc.bases[i] = turned(&acc.bases[i], theta);
                acc.charge(game, scene, p, &costs)?;
                words.push(shift_words(
                    &format!("base {}", i + 1),
                    delta.length(),
                    degrees,
                ));
            }
            MoveStep::Wheel { pivot, degrees } => {
                let frame = frame_of(&acc.bases);
                let body = Body::new(frame, &acc.bases);
                let (w, out) = moves::checked_wheel(game, scene, unit, &body, pivot, degrees)?;
                let pivot_point = match pivot {
                    PivotCorner::FrontLeft => frame.front_left(),
                    PivotCorner::FrontRight => frame.front_right(),
                };
                let costs: Vec<f32> = acc
                    .bases
                    .iter()
                    .map(|b| swing_cost(b, pivot_point, w.angle))
                    .collect();
                acc.meet_swing(game, scene, p, |_| out.pivot, out.theta, &costs)?;
                acc.bases = acc.bases.iter().map(|b| out.apply(b)).collect();
                acc.charge(game, scene, p, &costs)?;
                words.push(format!(
                    "wheel {:.0}° (no maneuver in Open Order; up to {:.1} cm for a corner)",
                    degrees.abs(),
                    costs.iter().copied().fold(0.0, f32::max)
                ));
            }
            MoveStep::Turn(kind) => {
                let theta = match kind {
                    TurnKind::Left => std::f32::consts::FRAC_PI_2,
                    TurnKind::Right => -std::f32::consts::FRAC_PI_2,
                    TurnKind::About => std::f32::consts::PI,
                };
                let most = acc.turn_all(game, scene, unit, theta, &mut passed)?;
                let way = match kind {
                    TurnKind::Left => "left",
                    TurnKind::Right => "right",
                    TurnKind::About => "about",
                };
                words.push(if elite {
                    format!(
                        "the unit turns {way}, each base turning and going straight to its place (no maneuver for Elite Cavalry; up to {most:.1} cm for a base)"
                    )
                } else {
                    format!(
                        "every base turns {way} about its centre (free in Open Order; {most:.1} cm for its corners)"
                    )
                });
            }
            MoveStep::Frontage(change) if elite => {
                // Each base goes straight to its place in the new frontage (the book's Example 1).
                let now = crate::elite_cavalry::close_files(&u.name, &acc.bases)? as i32;
                let wanted = now + change as i32;
                if change == 0 || wanted < 1 || wanted as usize > n {
                    return Err(RuleError::new(
                        "BFS-MAN-10",
                        format!("{} cannot have {wanted} files with {n} bases.", u.name),
                    ));
                }
                let (slots, from) = crate::open_order::closed(&acc.bases, wanted as u8);
                // Each base rides straight to its place, its path checked.
                let mut most = 0.0f32;
                for (s, &i) in slots.iter().zip(&from) {
                    let delta = s.center() - acc.bases[i].center();
                    acc.translate(game, scene, unit, &[i], delta, &mut passed)?;
                    most = most.max(delta.length());
                }
                acc = Accounts {
                    bases: slots,
                    spent: from.iter().map(|&i| acc.spent[i]).collect(),
                    limits: from.iter().map(|&i| acc.limits[i].clone()).collect(),
                    origin: from.iter().map(|&i| acc.origin[i]).collect(),
                    elite: acc.elite,
                };
                words.push(format!(
                    "re-form {wanted} base(s) wide, each base straight to its place (up to {most:.1} cm)"
                ));
            }
            MoveStep::Frontage(_) => {
                return Err(RuleError::new(
                    "BFS-OO-3",
                    format!(
                        "{} is in Open Order: it has no frontage to change; move its bases instead.",
                        u.name
                    ),
                ));
            }
            MoveStep::CrossObstacle => {
                // Wagons crossed are friends passed through too (BFS-WAG-4).
                if let Some(w) = crate::wagon::crossing::wagon_at_front(game, unit, &acc.bases)
                    && !passed.contains(&w)
                {
                    passed.push(w);
                }
                let (across, d) = crate::obstacle::cross(game, scene, unit, &acc.bases)?;
                let cost = d + crate::obstacle::crossing_cost(game, unit);
                acc.bases = across;
                acc.charge(game, scene, p, &vec![cost; n])?;
                maneuvers += 1;
                words.push(format!(
                    "cross the obstacle ({d:.1} cm + {:.0} cm)",
                    cost - d
                ));
            }
        }
        path.push(frame_of(&acc.bases));
    }
    // Changing order, a base goes straight to its new place: it pays the maneuver and the
    // longer of its path (the change itself left out) and the straight line from where it
    // started (BFS-MAN-18).
    if let Some(cost) = change_cost {
        for (i, s) in acc.spent.iter_mut().enumerate() {
            let start = &u.bases[acc.origin[i]];
            let straight = base_displacement(start, &acc.bases[i]).unwrap_or(f32::INFINITY);
            *s = s.max(cost + straight);
        }
    }
    // Each base within the Move its own ground allows (BFS-OO-3).
    let mut tightest: Option<(f32, f32)> = None;
    for (i, s) in acc.spent.iter().enumerate() {
        let cap = acc.limits[i]
            .cap_cm()
            .map_or(allowance, |c| c.min(allowance));
        if *s > cap + EPS {
            return Err(RuleError::new(
                "BFS-OO-3",
                format!(
                    "Too far: base {} of {} would move {s:.1} cm, and it may move {cap:.1} cm (each base counts the path of its corners).",
                    i + 1,
                    u.name
                ),
            ));
        }
        if tightest.is_none_or(|(ts, tc)| cap - s < tc - ts) {
            tightest = Some((*s, cap));
        }
    }
    crate::moves::check_maneuver_limit(game, unit, maneuvers)?;
    if elite {
        files = Some(crate::elite_cavalry::close_files(&u.name, &acc.bases)?);
    } else if files.is_none() {
        if spaced_at_start {
            check_spaced(&u.name, &acc.bases)?;
        }
        check_faced(&u.name, &acc.bases)?;
    }
    moves::check_final_position(game, scene, unit, &acc.bases)?;
    if !passed.is_empty() {
        let names: Vec<&str> = passed.iter().map(|f| game.unit(*f).name.as_str()).collect();
        words.push(format!(
            "through {} (both test Skill afterwards, BFS-AMV-3)",
            names.join(", ")
        ));
    }
    let (cost, cap) = tightest.unwrap_or((0.0, allowance));
    Ok(MovePlan {
        unit,
        bases: acc.bases,
        path,
        cost,
        allowance: cap,
        maneuvers,
        files,
        open: files.is_none(),
        ever_column: files == Some(1),
        placed,
        description: words.join(", "),
        passed_through: passed,
    })
}

fn shift_words(who: &str, cm: f32, degrees: f32) -> String {
    match (cm > 1e-3, degrees.abs() > 1e-3) {
        (true, true) => format!("{who} {cm:.1} cm and turns {:.0}°", degrees.abs()),
        (true, false) => format!("{who} {cm:.1} cm"),
        (false, _) => format!("{who} turns {:.0}°", degrees.abs()),
    }
}
