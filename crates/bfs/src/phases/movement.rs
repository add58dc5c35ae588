//! The Movement Phase (BFS-MOV-1..4): each side in turn reveals its orders and moves its units one
//! at a time; fleeing units flee; charges are declared and answered.

use crate::charge;
use crate::command::{MoveStep, SpecialManeuver, TurnKind};
use crate::event::Event;
use crate::flight;
use crate::geo::{self, frame_of};
use crate::ids::{CommanderId, Side, UnitId};
use crate::moves::{self, MovePlan};
use crate::sight;
use crate::state::{Formation, Game, MoraleLevel, OrderKind, UnitStatus};
use crate::turn::{CombatStage, Phase};
use sandtable_engine::RuleError;
use sandtable_geometry::formation::{self, FrontageFix, TurnSide};
use sandtable_geometry::movement::{self, Body};
use sandtable_geometry::{Pose, Rect, Vec2};

pub fn begin_movement(game: &mut Game, acting: Side, second: bool, events: &mut Vec<Event>) {
    game.turn.phase = Phase::Movement {
        acting,
        second,
        charge: None,
    };
    events.push(Event::PhaseBegan {
        phase: "Movement".into(),
        acting: Some(acting),
    });
    if game.turn.number == 1 && !second {
        crate::turn_one::at_first_movement(game, events);
    }
    reveal_orders(game, acting, events);
    crate::coward::at_movement_start(game, acting, events);
    crate::rabble::at_movement_start(game, acting, events);
    flee_in_movement(game, acting, events);
    crate::wagon::train::close_up(game, acting, events);
}

/// Step 1/3 of BFS-MOV-2: the side's face-down markers are turned up.
fn reveal_orders(game: &mut Game, side: Side, events: &mut Vec<Event>) {
    // Instructions first, then the orders, and then contrary orders are paid for (BFS-ORD-12).
    crate::instructions::reveal(game, side, events);
    let new_orders: Vec<(UnitId, OrderKind, Option<crate::ids::CommanderId>)> = game
        .units
        .iter()
        .filter(|u| u.side == side && u.status == UnitStatus::OnTable)
        .filter_map(|u| {
            let p = u.pending_order?;
            Some((u.id, p.kind?, p.issued_by))
        })
        .collect();
    let mut paid = Vec::new();
    let mut taken_away = crate::instructions::pay_for_contrary(game, &new_orders, &mut paid);
    // A coward's Charge orders cost 1 CP more, paid now (BFS-SCN-30).
    let standing: Vec<_> = new_orders
        .iter()
        .filter(|(u, _, _)| !taken_away.contains(u))
        .copied()
        .collect();
    taken_away.extend(crate::coward::pay_for_charges(game, &standing, &mut paid));
    // A unit behind friendly wagons cannot see to charge (BFS-WAG-4, BFS-WGN-2).
    let behind_wagons: Vec<UnitId> = new_orders
        .iter()
        .filter(|(_, kind, _)| *kind == OrderKind::Charge)
        .filter(|(u, _, _)| {
            crate::wagon::rules_apply(game)
                && crate::wagon::cover::behind_friendly(game, *u).is_some()
        })
        .map(|(u, _, _)| *u)
        .collect();
    let mut revealed = Vec::new();
    let mut lost = Vec::new();
    let mut lost_behind_wagons = Vec::new();
    for u in game
        .units
        .iter_mut()
        .filter(|u| u.side == side && u.status == UnitStatus::OnTable)
    {
        if taken_away.contains(&u.id) {
            u.pending_order = None;
            continue;
        }
        if let Some(p) = u.pending_order.take()
            && let Some(kind) = p.kind
        {
            let kind = if kind == OrderKind::Charge && u.flags.charged_in_front {
                lost.push(u.id);
                OrderKind::Move
            } else if kind == OrderKind::Charge && behind_wagons.contains(&u.id) {
                lost_behind_wagons.push(u.id);
                OrderKind::Move
            } else {
                kind
            };
            u.order = Some(kind);
            // A new order replaces a charge carried over from a failed charge (BFS-CHG-24).
            if kind != OrderKind::Charge {
                u.charge = None;
            }
            revealed.push((u.id, kind));
        }
    }
    events.push(Event::OrdersRevealed {
        side,
        orders: revealed,
    });
    events.extend(paid);
    for unit in lost {
        events.push(Event::OrderChanged {
            unit,
            from: Some(OrderKind::Charge),
            to: Some(OrderKind::Move),
            rule: "BFS-CHG-23".into(),
            reason: "an enemy charge struck its front before it could use its Charge order".into(),
        });
    }
    for unit in lost_behind_wagons {
        events.push(Event::OrderChanged {
            unit,
            from: Some(OrderKind::Charge),
            to: Some(OrderKind::Move),
            rule: "BFS-WAG-4".into(),
            reason: "it stands behind friendly wagons and cannot see the enemy: it may charge only once out from behind them".into(),
        });
    }
}

/// Fleeing units of the moving side run for their own table edge at Basic + Additional Move
/// (BFS-PSY-11). The engine moves them at the start of their side's step, before the player's
/// own activations.
fn flee_in_movement(game: &mut Game, side: Side, events: &mut Vec<Event>) {
    let fleeing: Vec<UnitId> = game
        .units_on_table(side)
        .filter(|u| u.morale == MoraleLevel::Flight)
        .map(|u| u.id)
        .collect();
    for unit in fleeing {
        let dir = moves::toward_home(game, side);
        let d = flight::flight_distance(game, unit);
        flight::flee(
            game,
            unit,
            dir,
            d,
            "fleeing in the Movement Phase (BFS-PSY-11)",
            events,
        );
        game.unit_mut(unit).flags.activated = true;
    }
}

/// The side moving now, or why nothing may move.
pub fn acting(game: &Game) -> Result<Side, RuleError> {
    match &game.turn.phase {
        Phase::Movement {
            acting,
            charge: None,
            ..
        } => Ok(*acting),
        Phase::Movement {
            charge: Some(_), ..
        } => Err(RuleError::new(
            "BFS-CHG-12",
            "A charge is waiting for the other side's reaction.",
        )),
        _ => Err(RuleError::new(
            "BFS-MOV-1",
            format!(
                "Units move in the Movement Phase; it is now the {} Phase.",
                game.turn.phase.title()
            ),
        )),
    }
}

/// Is the unit the acting side's, on the table, in that side's Movement Phase (BFS-MOV-3)? For
/// the free declarations made there: a gun's load, a hail of arrows, holding a Salvo.
pub fn acting_unit(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let side = acting(game)?;
    let u = game.unit(unit);
    if u.side != side || u.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            "BFS-MOV-3",
            format!(
                "{} is not one of the acting side's units on the table.",
                u.name
            ),
        ));
    }
    Ok(())
}

/// Common checks for activating a unit (BFS-MOV-3).
fn activatable(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let side = acting(game)?;
    let u = game
        .units
        .get(unit.index())
        .ok_or_else(|| RuleError::new("BFS-MOV-3", "There is no such unit."))?;
    if u.side != side {
        return Err(RuleError::new(
            "BFS-MOV-1",
            format!("{} belongs to the other side, which moves later.", u.name),
        ));
    }
    if u.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            "BFS-MOV-3",
            format!("{} is no longer on the table.", u.name),
        ));
    }
    if u.flags.activated {
        return Err(RuleError::new(
            "BFS-MOV-3",
            format!(
                "{} has already acted this phase: a unit's move cannot be split.",
                u.name
            ),
        ));
    }
    if !flight::enemies_in_contact(game, unit).is_empty() {
        return Err(RuleError::new(
            "BFS-CHG-20",
            format!(
                "{} is in contact with the enemy and stays where it is until the combat is fought.",
                u.name
            ),
        ));
    }
    Ok(())
}

/// Musketeers that ran behind their pikes move no more this turn, but to flee, withdraw or
/// countermarch (BFS-SPC-22): no move, maneuver or charge.
fn check_not_ran_behind(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let u = game.unit(unit);
    if u.flags.ran_behind {
        return Err(RuleError::new(
            "BFS-SPC-22",
            format!(
                "{} ran behind the pikes this turn: it moves no more but to flee, withdraw or \
                 countermarch.",
                u.name
            ),
        ));
    }
    Ok(())
}

/// The allowance of a Move order: the Basic Move (BFS-MOV-6), a gun's by its class and limber
/// (BFS-ART-12).
pub fn allowance(game: &Game, unit: UnitId) -> f32 {
    let basic = crate::artillery::move_allowance(game, unit)
        .unwrap_or(game.unit_profile(unit).movement.basic);
    // A connected train crawls (BFS-WAG-14).
    let basic = crate::wagon::train::move_cap(game, unit).map_or(basic, |cap| basic.min(cap));
    crate::portable::allowance_cap(game, unit).map_or(basic, |cap| basic.min(cap))
}

/// Checks a Move command and returns its plan (the preview shows the same plan).
pub fn check_move(game: &Game, unit: UnitId, steps: &[MoveStep]) -> Result<MovePlan, RuleError> {
    activatable(game, unit)?;
    check_not_ran_behind(game, unit)?;
    crate::rabble::check_activation(game, unit, false)?;
    crate::shooting::ranks::check_move(game, unit, Some(steps))?;
    crate::building::stays_inside(game, unit)?;
    let u = game.unit(unit);
    match u.order {
        Some(OrderKind::Move) => {}
        Some(OrderKind::Charge) => {
            let scene = geo::scene(game);
            if !sight::visible_enemies(game, &scene, unit).is_empty() {
                return Err(RuleError::new(
                    "BFS-CHG-27",
                    format!(
                        "{} has a Charge order and sees an enemy: it must charge.",
                        u.name
                    ),
                ));
            }
        }
        Some(OrderKind::Defense) => {
            return Err(RuleError::new(
                "BFS-ORD-8",
                format!(
                    "{} has a Defense order: it may only make Special Maneuvers.",
                    u.name
                ),
            ));
        }
        None => {
            return Err(RuleError::new(
                "BFS-ORD-9",
                format!(
                    "{} has no order: it may stay or withdraw, not move.",
                    u.name
                ),
            ));
        }
    }
    // Dragoons mounting or dismounting: the whole move (BFS-SPC-9).
    if let [step @ (MoveStep::Mount | MoveStep::Dismount { .. })] = steps {
        return crate::dragoons::plan_as_move(game, unit, *step, allowance(game, unit));
    }
    let scene = geo::scene(game);
    if crate::march::is_march(steps) {
        crate::march::check_marker(steps)?;
        let bonus = crate::march::bonus_cm(game.unit_profile(unit));
        let plan = moves::plan(game, &scene, unit, steps, allowance(game, unit) + bonus)?;
        crate::march::check(game, unit, &plan)?;
        crate::rabble::check_result(game, unit, plan.files, plan.bases.len(), plan.open)?;
        return Ok(plan);
    }
    let plan = moves::plan(game, &scene, unit, steps, allowance(game, unit))?;
    crate::artillery::check_manhandled_ground(game, unit, &plan)?;
    crate::fortified_gun::check_no_pivot(game, unit, &plan.bases)?;
    crate::rabble::check_result(game, unit, plan.files, plan.bases.len(), plan.open)?;
    Ok(plan)
}

pub fn do_move(
    game: &mut Game,
    unit: UnitId,
    steps: &[MoveStep],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let plan = check_move(game, unit, steps)?;
    if !passes_entry_test(game, unit, &plan.bases, events) {
        return Ok(());
    }
    if game.unit(unit).order == Some(OrderKind::Charge) {
        // No enemy in view: the Charge order becomes a Move order (BFS-CHG-2, AMB-29).
        let u = game.unit_mut(unit);
        u.order = Some(OrderKind::Move);
        u.charge = None;
        events.push(Event::OrderChanged {
            unit,
            from: Some(OrderKind::Charge),
            to: Some(OrderKind::Move),
            rule: "BFS-CHG-2".into(),
            reason: "no enemy in its field of vision".into(),
        });
    }
    apply_plan(game, &plan);
    if let [MoveStep::Mount | MoveStep::Dismount { .. }] = steps {
        let dismount = match steps[0] {
            MoveStep::Dismount { keep_horses } => Some(keep_horses),
            _ => None,
        };
        crate::dragoons::switch(game, unit, dismount, events);
    }
    // A unit that marched does not shoot this turn (BFS-AMV-2).
    game.unit_mut(unit).flags.marched = crate::march::is_march(steps);
    events.push(Event::Moved {
        unit,
        cost_cm: plan.cost,
        allowance_cm: plan.allowance,
        description: plan.description.clone(),
    });
    crate::open_order::apply_forced_change(game, unit, events);
    let after = game.unit(unit).bases.clone();
    crate::portable::caltrops_test(game, unit, &after, events);
    if !plan.placed.is_empty() && game.unit(unit).bases == plan.bases {
        crate::portable::set_up(game, unit, &plan.placed, events);
    }
    passing_tests(game, unit, &plan.passed_through, events);
    Ok(())
}

/// After a unit has passed through friends, it and each of them take a Skill test; who fails is
/// Disorganized. Two Open Order units pass through each other freely (BFS-AMV-3, BFS-OO-11), as
/// do the members of a Pike and Shot Battalion (BFS-SPC-21). Wagons crossed count as friends passed through, but have no crew to test (BFS-WAG-4).
fn passing_tests(game: &mut Game, unit: UnitId, friends: &[UnitId], events: &mut Vec<Event>) {
    let open = |g: &Game, u: UnitId| g.unit(u).formation == Formation::OpenOrder;
    // Members of one Pike and Shot Battalion pass through one another with no test (BFS-SPC-21).
    let passed: Vec<UnitId> = friends
        .iter()
        .copied()
        .filter(|f| !(open(game, unit) && open(game, *f)))
        .filter(|f| !crate::battalion::mates(game, unit, *f))
        .collect();
    if passed.is_empty() {
        return;
    }
    let testers = passed
        .into_iter()
        .filter(|f| !crate::wagon::any_wagon(game, *f))
        .collect::<Vec<_>>();
    for who in std::iter::once(unit).chain(testers) {
        let cause = format!(
            "{} passed through friends",
            if who == unit { "it" } else { "a friendly unit" }
        );
        crate::skill::test_or_disorganized(game, who, "BFS-AMV-3", cause, events);
    }
}

/// The Skill test some ground demands before a unit moves into or on it (BFS-TER-7,
/// BFS-TER-21). Failed, the unit stays where it is and may not move this phase.
fn passes_entry_test(
    game: &mut Game,
    unit: UnitId,
    after: &[Rect],
    events: &mut Vec<Event>,
) -> bool {
    let before = game.unit(unit).bases.clone();
    let Some((rule, why)) = crate::ground::entry_test(game, unit, &before, after) else {
        return true;
    };
    let what = crate::skill::Test {
        rule,
        cause: why.into(),
        passed: "passed: it moves",
        failed: "failed: it stays where it is this phase",
    };
    let passed = crate::skill::test(
        game,
        crate::skill::Tester::Unit(unit),
        Vec::new(),
        what,
        events,
    );
    if !passed {
        game.unit_mut(unit).flags.activated = true;
    }
    passed
}

fn apply_plan(game: &mut Game, plan: &MovePlan) {
    let u = game.unit_mut(plan.unit);
    u.bases = plan.bases.clone();
    if let Some(f) = plan.files {
        u.formation = Formation::Close { files: f.max(1) };
    } else if plan.open {
        u.formation = Formation::OpenOrder;
    }
    u.flags.activated = true;
    u.flags.moved = plan.cost > 0.0;
    u.flags.maneuvers += plan.maneuvers;
}

/// Special Maneuvers allowed: 2, or fewer by Skill (BFS-MAN-4/5).
pub fn special_maneuver_limit(game: &Game, unit: UnitId) -> u8 {
    moves::maneuver_limit(game.unit_profile(unit)).min(2)
}

/// Special Maneuvers a list uses: Reform counts two (BFS-MAN-13).
fn maneuver_count(game: &Game, unit: UnitId, list: &[SpecialManeuver]) -> u8 {
    list.iter()
        .map(|m| match m {
            SpecialManeuver::Reform { .. } => 2,
            SpecialManeuver::SetUpObstacles => game
                .unit(unit)
                .carries
                .map_or(1, |c| c.kind.set_up_maneuvers()),
            SpecialManeuver::ClearObstacles => {
                crate::portable::check_clear(game, unit).map_or(1, |c| c.maneuvers)
            }
            SpecialManeuver::Limber => {
                crate::artillery::check_limber(game, unit, true).unwrap_or(1)
            }
            SpecialManeuver::Unlimber => {
                crate::artillery::check_limber(game, unit, false).unwrap_or(1)
            }
            SpecialManeuver::RetrieveAmmunition => crate::ammunition::RETRIEVE_MANEUVERS,
            SpecialManeuver::TakeAmmunition { .. } => crate::wagon::supply::maneuvers(game, unit),
            SpecialManeuver::ConnectWagons => crate::wagon::train::CONNECT_MANEUVERS,
            _ => 1,
        })
        .sum()
}

/// Checks a Defense order's Special Maneuvers and returns the bases afterwards.
pub fn check_maneuver(
    game: &Game,
    unit: UnitId,
    list: &[SpecialManeuver],
) -> Result<Vec<Rect>, RuleError> {
    activatable(game, unit)?;
    check_not_ran_behind(game, unit)?;
    // A gun on its fortified base cannot pivot (BFS-ART-19).
    if crate::fortified_gun::dug_in(game, unit)
        && list.iter().any(|m| {
            matches!(
                m,
                SpecialManeuver::Turn(_) | SpecialManeuver::ChangePosition { .. }
            )
        })
    {
        return Err(RuleError::new(
            "BFS-ART-19",
            format!(
                "{} stands on its fortified base: it cannot pivot there.",
                game.unit(unit).name
            ),
        ));
    }
    // One crew a maneuver list: each gives its Strength, checked against what the unit has
    // (BFS-MAN-21, BFS-WAG-19, BFS-SPC-23).
    if list
        .iter()
        .filter(|m| {
            matches!(
                m,
                SpecialManeuver::ManGun { .. }
                    | SpecialManeuver::ManWagon { .. }
                    | SpecialManeuver::ReturnCrew { .. }
            )
        })
        .count()
        > 1
    {
        return Err(RuleError::new(
            "BFS-MAN-21",
            "A unit mans one gun or wagon at a time: one in each command.",
        ));
    }
    // A Rabble unit out of formation Reforms whatever its order (BFS-SPC-25).
    let forced_reform =
        game.unit(unit).flags.must_reform && matches!(list, [SpecialManeuver::Reform { .. }]);
    crate::rabble::check_activation(game, unit, forced_reform)?;
    crate::shooting::ranks::check_move(game, unit, None)?;
    crate::building::stays_inside(game, unit)?;
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if u.order != Some(OrderKind::Defense) && !forced_reform {
        return Err(RuleError::new(
            "BFS-MAN-1",
            format!(
                "Special Maneuvers need a Defense order; {} has {}.",
                u.name,
                u.order.map_or("none", |o| o.name())
            ),
        ));
    }
    if list.is_empty() {
        return Err(RuleError::new(
            "BFS-MAN-5",
            "Name at least one Special Maneuver.",
        ));
    }
    for m in list {
        crate::wagon::check_maneuver(game, unit, m)?;
    }
    let limit = special_maneuver_limit(game, unit);
    if maneuver_count(game, unit, list) > limit && !forced_reform {
        return Err(RuleError::new(
            "BFS-MAN-5",
            format!(
                "{} may make at most {limit} Special Maneuver(s) (2 under a Defense order, fewer by Skill {}).",
                u.name, p.skill
            ),
        ));
    }
    let mut bases = u.bases.clone();
    let basic = p.movement.basic;
    let open_rules = crate::open_order::rules_apply(game);
    let mut open = u.formation == Formation::OpenOrder;
    let mut changed_order = false;
    for m in list {
        bases = match *m {
            SpecialManeuver::Mount | SpecialManeuver::Dismount { .. } => {
                let dismount = match *m {
                    SpecialManeuver::Dismount { keep_horses } => Some(keep_horses),
                    _ => None,
                };
                if list.len() > 1 {
                    return Err(RuleError::new(
                        "BFS-SPC-9",
                        "Mounting or dismounting is a Special Maneuver on its own.",
                    ));
                }
                crate::dragoons::check_change(game, unit, dismount)?.1
            }
            SpecialManeuver::Turn(kind) if open && open_rules => {
                // Open Order bases turn about their centres (BFS-OO-3).
                let theta = match kind {
                    TurnKind::Left => std::f32::consts::FRAC_PI_2,
                    TurnKind::Right => -std::f32::consts::FRAC_PI_2,
                    TurnKind::About => std::f32::consts::PI,
                };
                bases
                    .iter()
                    .map(|b| crate::open_order::turned(b, theta))
                    .collect()
            }
            SpecialManeuver::Disperse | SpecialManeuver::CloseRanks { .. } => {
                let closing = matches!(m, SpecialManeuver::CloseRanks { .. });
                if !closing && game.info.options.basic_mode {
                    return Err(RuleError::new(
                        "BFS-GEN-4",
                        "In the learning simplification no unit spreads into Open Order.",
                    ));
                }
                if !open_rules {
                    return Err(RuleError::new(
                        "BFS-MAN-19",
                        "This battle was recorded before the change of order was played (rules revision 3).",
                    ));
                }
                if changed_order || open != closing {
                    return Err(RuleError::new(
                        "BFS-MAN-17",
                        format!(
                            "{} may change order once per Movement Phase, and only {}.",
                            u.name,
                            if closing {
                                "from Open Order"
                            } else {
                                "from close order"
                            }
                        ),
                    ));
                }
                if !crate::open_order::may_use_open(p)
                    || (closing && crate::open_order::always_open(p))
                {
                    return Err(RuleError::new(
                        "BFS-MAN-17",
                        format!("{}'s rules do not allow the change.", u.name),
                    ));
                }
                changed_order = true;
                open = !closing;
                let (after, reach, anchor_rule) = match *m {
                    SpecialManeuver::CloseRanks { files } => {
                        if files == 0 || files as usize > bases.len() {
                            return Err(RuleError::new(
                                "BFS-MAN-10",
                                format!(
                                    "{} cannot have {files} files with {} bases.",
                                    u.name,
                                    bases.len()
                                ),
                            ));
                        }
                        let (slots, from) = crate::open_order::closed(&bases, files);
                        let before: Vec<Rect> = from.iter().map(|&i| bases[i]).collect();
                        (slots, before, ("half its Move", 0.5 * basic))
                    }
                    _ => {
                        let (spread, _) = crate::open_order::dispersed(&bases);
                        (
                            spread,
                            bases.clone(),
                            ("1.5 × its Move (AMB-21)", 1.5 * basic),
                        )
                    }
                };
                for (a, b) in reach.iter().zip(&after) {
                    let d = sandtable_geometry::maneuver::base_displacement(a, b)
                        .unwrap_or(f32::INFINITY);
                    if d > anchor_rule.1 + 1e-3 {
                        return Err(RuleError::new(
                            "BFS-MAN-19",
                            format!(
                                "A base would move {d:.1} cm; changing order as a Special Maneuver moves no base more than {} ({:.1} cm).",
                                anchor_rule.0, anchor_rule.1
                            ),
                        ));
                    }
                }
                after
            }
            SpecialManeuver::SetUpObstacles | SpecialManeuver::ClearObstacles => {
                let setting_up = *m == SpecialManeuver::SetUpObstacles;
                if list.len() != 1 {
                    return Err(RuleError::new(
                        if setting_up {
                            "BFS-OBS-3"
                        } else {
                            "BFS-OBS-11"
                        },
                        "Setting up or clearing portable obstacles is the unit's only Special Maneuver of the turn.",
                    ));
                }
                if setting_up {
                    crate::portable::check_set_up(game, unit)?;
                } else {
                    crate::portable::check_clear(game, unit)?;
                }
                bases.clone()
            }
            SpecialManeuver::Reform { files, degrees } => {
                open = false;
                reformed(game, unit, &bases, list, files, degrees, forced_reform)?
            }
            SpecialManeuver::Turn(kind) => {
                let order = moves::close_order(&bases, &u.name)?;
                let t = match kind {
                    TurnKind::Left => formation::turn_90(&order, TurnSide::Left, Some(1.5 * basic)),
                    TurnKind::Right => {
                        formation::turn_90(&order, TurnSide::Right, Some(1.5 * basic))
                    }
                    TurnKind::About => formation::turn_180(&order, Some(1.5 * basic)),
                }
                .map_err(|e| {
                    RuleError::new("BFS-MAN-3", format!("The turn is not possible: {e}."))
                })?;
                t.base_rects()
            }
            SpecialManeuver::Frontage(change) => {
                if change == 0 || change.abs() > 2 {
                    return Err(RuleError::new(
                        "BFS-MAN-11",
                        "One Special Maneuver changes the frontage by 1 base on each side: −2..+2 files.",
                    ));
                }
                let order = moves::close_order(&bases, &u.name)?;
                let files = order.frame.files as i32 + change as i32;
                if files < 1 || files as usize > bases.len() {
                    return Err(RuleError::new(
                        "BFS-MAN-10",
                        format!(
                            "{} cannot have {files} files with {} bases.",
                            u.name,
                            bases.len()
                        ),
                    ));
                }
                formation::change_frontage(
                    &order,
                    files as u16,
                    FrontageFix::Centre,
                    Some(1.5 * basic),
                )
                .map_err(|e| {
                    RuleError::new(
                        "BFS-MAN-3",
                        format!("The frontage change is not possible: {e}."),
                    )
                })?
                .base_rects()
            }
            SpecialManeuver::Limber | SpecialManeuver::Unlimber => {
                crate::artillery::check_limber(game, unit, *m == SpecialManeuver::Limber)?;
                bases
            }
            SpecialManeuver::RetrieveAmmunition => {
                crate::ammunition::check_retrieve(game, unit)?;
                bases
            }
            SpecialManeuver::TakeAmmunition { wagon } => {
                crate::wagon::supply::check_take(game, unit, wagon)?;
                bases
            }
            SpecialManeuver::ConnectWagons => {
                crate::wagon::train::check_connect(game, unit)?;
                bases
            }
            SpecialManeuver::ManWagon { train, wagon, by } => {
                crate::wagon::manning::check(game, unit, train, wagon as usize, by)?;
                bases
            }
            SpecialManeuver::ManGun { gun, by, .. } => {
                crate::gun_manning::check(game, unit, gun, by)?;
                bases
            }
            SpecialManeuver::ReturnCrew { gun, by } => {
                crate::hide_crew::check_return(game, unit, gun, by)?;
                bases
            }
            SpecialManeuver::ChangePosition { dx, dy, degrees } => {
                crate::artillery::check_special_manhandling(game, unit)?;
                if !(dx.is_finite() && dy.is_finite() && degrees.is_finite())
                    || degrees.abs() > 90.0
                {
                    return Err(RuleError::new(
                        "BFS-MAN-14",
                        "That change of position makes no sense.",
                    ));
                }
                let frame = frame_of(&bases);
                let delta = frame.pose.dir_to_world(Vec2::new(dx, dy));
                let moved: Vec<Rect> = bases
                    .iter()
                    .map(|b| {
                        b.translated(delta)
                            .rotated_about(frame.center() + delta, degrees.to_radians())
                    })
                    .collect();
                for (a, b) in bases.iter().zip(&moved) {
                    let disp = sandtable_geometry::maneuver::base_displacement(a, b)
                        .unwrap_or(f32::INFINITY);
                    if disp > 2.0 + 1e-3 {
                        return Err(RuleError::new(
                            "BFS-MAN-14",
                            format!(
                                "A change of position moves no part of a base more than 2 cm; this moves one {disp:.1} cm."
                            ),
                        ));
                    }
                }
                moved
            }
            SpecialManeuver::CrossObstacle => {
                crate::obstacle::cross(game, &geo::scene(game), unit, &bases)?.0
            }
        };
    }
    // Open Order bases end 0.5–2 cm apart (BFS-OO-2, BFS-MAN-14), unless they did not start so.
    if open
        && open_rules
        && (changed_order || crate::open_order::check_spaced(&u.name, &u.bases).is_ok())
    {
        crate::open_order::check_spaced(&u.name, &bases)?;
    }
    let scene = geo::scene(game);
    moves::check_final_position(game, &scene, unit, &bases)?;
    let files = moves::close_order(&bases, "")
        .ok()
        .map(|o| o.frame.files as u8);
    crate::rabble::check_result(game, unit, files, bases.len(), open)?;
    Ok(bases)
}

/// The bases after a Reform (BFS-MAN-13): a Line of `files` files turned `degrees` about the
/// base nearest the middle of the front, which stays put; the only Special Maneuver of the turn,
/// and no base further than its Move, the ground it stands in included.
fn reformed(
    game: &Game,
    unit: UnitId,
    bases: &[Rect],
    list: &[SpecialManeuver],
    files: u8,
    degrees: f32,
    forced: bool,
) -> Result<Vec<Rect>, RuleError> {
    let u = game.unit(unit);
    let p = game.unit_profile(unit);
    if list.len() != 1 {
        return Err(RuleError::new(
            "BFS-MAN-13",
            "Reforming takes both Special Maneuvers: it is the unit's only one this turn.",
        ));
    }
    // Rabble out of formation Reforms whatever its Skill allows (BFS-SPC-25).
    if special_maneuver_limit(game, unit) < 2 && !forced {
        return Err(RuleError::new(
            "BFS-MAN-5",
            format!(
                "{} (Skill {}) may make only one Special Maneuver: it cannot reform (2).",
                u.name, p.skill
            ),
        ));
    }
    if files == 0 || files as usize > bases.len() || !degrees.is_finite() || degrees.abs() > 360.0 {
        return Err(RuleError::new(
            "BFS-MAN-13",
            format!(
                "{} cannot reform into {files} files turned {degrees}°.",
                u.name
            ),
        ));
    }
    let anchor = crate::reform::anchor(bases);
    let angle = bases[anchor].pose.angle + degrees.to_radians();
    let scene = geo::scene(game);
    // The anchor may take any file of the front rank: the one that moves no base further wins.
    let (slots, from) = (0..files as usize)
        .map(|s| crate::reform::line_with_anchor_at(bases, anchor, files, angle, s))
        .min_by(|a, b| {
            let worst = |(slots, from): &(Vec<Rect>, Vec<usize>)| {
                slots
                    .iter()
                    .zip(from)
                    .map(|(s, &i)| {
                        sandtable_geometry::maneuver::base_displacement(&bases[i], s)
                            .unwrap_or(f32::INFINITY)
                    })
                    .fold(0.0, f32::max)
            };
            worst(a).total_cmp(&worst(b))
        })
        .unwrap_or_default();
    for (slot, &i) in slots.iter().zip(&from) {
        let mut reach = p.movement.basic;
        for piece in scene.terrain() {
            let touches = |r: &Rect| piece.overlap_area(r).is_ok_and(|a| a > 1e-3);
            if (touches(&bases[i]) || touches(slot))
                && let Some(t) = game.terrain.get(piece.id as usize)
                && let Some((cap, _, _)) =
                    geo::slowed_move(geo::terrain_class(t.kind, p), p.movement.basic)
            {
                reach = reach.min(cap);
            }
        }
        let moved = sandtable_geometry::maneuver::base_displacement(&bases[i], slot)
            .unwrap_or(f32::INFINITY);
        let travelled = if i == anchor {
            slot.center().distance(bases[i].center())
        } else {
            moved
        };
        if travelled > reach + 1e-3 {
            return Err(RuleError::new(
                "BFS-MAN-13",
                format!(
                    "Reforming would move a base of {} {travelled:.1} cm; no base may move further than its Move here ({reach:.1} cm).",
                    u.name
                ),
            ));
        }
    }
    Ok(slots)
}

pub fn do_maneuver(
    game: &mut Game,
    unit: UnitId,
    list: &[SpecialManeuver],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let bases = check_maneuver(game, unit, list)?;
    if !passes_entry_test(game, unit, &bases, events) {
        return Ok(());
    }
    let files = moves::close_order(&bases, "")
        .ok()
        .map(|o| o.frame.files as u8);
    let dispersed = list.contains(&SpecialManeuver::Disperse);
    let used = maneuver_count(game, unit, list);
    // Friendly wagons crossed: a Skill test after, unless infantry and wagons both defend
    // (BFS-WAG-4).
    let crossed_wagon = list
        .contains(&SpecialManeuver::CrossObstacle)
        .then(|| crate::wagon::crossing::wagon_at_front(game, unit, &game.unit(unit).bases))
        .flatten()
        .filter(|w| !crate::wagon::crossing::free_passage(game, unit, *w));
    let clearing = list
        .contains(&SpecialManeuver::ClearObstacles)
        .then(|| crate::portable::check_clear(game, unit))
        .transpose()?;
    // Dragoons mounting or dismounting take their other profile (BFS-SPC-9).
    let remount = list.iter().find_map(|m| match m {
        SpecialManeuver::Mount => Some(None),
        SpecialManeuver::Dismount { keep_horses } => Some(Some(*keep_horses)),
        _ => None,
    });
    if let Some(dismount) = remount {
        game.unit_mut(unit).bases = bases.clone();
        crate::dragoons::switch(game, unit, dismount, events);
    }
    let u = game.unit_mut(unit);
    u.bases = bases;
    if dispersed {
        u.formation = Formation::OpenOrder;
    } else if let Some(f) = files {
        u.formation = Formation::Close { files: f };
    }
    u.flags.activated = true;
    u.flags.special_maneuvers = used;
    u.flags.maneuvers += used;
    // A gun limbered or unlimbered (BFS-ART-16).
    for m in list {
        if let (Some(gun), SpecialManeuver::Limber | SpecialManeuver::Unlimber) =
            (u.gun.as_mut(), m)
        {
            gun.limbered = *m == SpecialManeuver::Limber;
        }
    }
    // Reformed, it neither shoots nor counts as having an order this turn (BFS-MAN-13).
    u.flags.reformed |= list
        .iter()
        .any(|m| matches!(m, SpecialManeuver::Reform { .. }));
    // A Rabble unit's forced Reform is done (BFS-SPC-25).
    u.flags.must_reform &= !u.flags.reformed;
    let text = list
        .iter()
        .map(|m| format!("{m:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let note = if list.len() >= 2 {
        " (two Special Maneuvers: it will not shoot this turn, BFS-MAN-5)"
    } else {
        ""
    };
    events.push(Event::Moved {
        unit,
        cost_cm: 0.0,
        allowance_cm: 0.0,
        description: format!("Special Maneuvers: {text}{note}"),
    });
    crate::open_order::apply_forced_change(game, unit, events);
    let after = game.unit(unit).bases.clone();
    crate::portable::caltrops_test(game, unit, &after, events);
    if let Some(c) = clearing {
        crate::portable::clear(game, unit, &c, events);
    }
    if list.contains(&SpecialManeuver::RetrieveAmmunition) {
        crate::ammunition::retrieve(game, unit, events);
    }
    if let Some(w) = crossed_wagon {
        passing_tests(game, unit, &[w], events);
    }
    for m in list {
        match *m {
            SpecialManeuver::TakeAmmunition { wagon } => {
                crate::wagon::supply::take(game, unit, wagon, events)
            }
            SpecialManeuver::ConnectWagons => crate::wagon::train::connect(game, unit, events),
            SpecialManeuver::ManWagon { train, wagon, by } => {
                crate::wagon::manning::man(game, unit, train, wagon as usize, by, events)
            }
            SpecialManeuver::ManGun {
                gun,
                by,
                toward_enemy,
            } => crate::gun_manning::man(game, unit, gun, by, toward_enemy, events),
            SpecialManeuver::ReturnCrew { gun, by } => {
                crate::hide_crew::return_crew(game, unit, gun, by, events)
            }
            _ => {}
        }
    }
    if list.contains(&SpecialManeuver::SetUpObstacles) {
        let spots = crate::portable::check_set_up(game, unit)?;
        crate::portable::set_up(game, unit, &spots, events);
    }
    Ok(())
}

pub fn check_withdraw(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    activatable(game, unit)?;
    crate::rabble::check_activation(game, unit, false)?;
    crate::building::stays_inside(game, unit)?;
    let u = game.unit(unit);
    if u.order.is_some() {
        return Err(RuleError::new(
            "BFS-PSY-20",
            format!(
                "Only a unit with no order may withdraw by choice; {} has a {} order.",
                u.name,
                u.order.map_or("", |o| o.name())
            ),
        ));
    }
    if u.morale == MoraleLevel::Flight {
        return Err(RuleError::new(
            "BFS-PSY-11",
            format!("{} is fleeing.", u.name),
        ));
    }
    if u.flags.rallied_from_flight {
        return Err(RuleError::new(
            "BFS-RAL-6",
            format!(
                "{} rallied from flight this turn and cannot withdraw.",
                u.name
            ),
        ));
    }
    Ok(())
}

/// A unit with no order withdraws half its Move towards its own table edge (BFS-PSY-20).
pub fn do_withdraw(
    game: &mut Game,
    unit: UnitId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_withdraw(game, unit)?;
    let dir = moves::toward_home(game, game.unit(unit).side);
    flight::withdraw(game, unit, dir, "voluntary withdrawal (BFS-PSY-20)", events);
    game.unit_mut(unit).flags.activated = true;
    Ok(())
}

pub fn check_hold(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    activatable(game, unit)?;
    let u = game.unit(unit);
    // A garrison cannot charge out of its building (BFS-TER-31): it holds.
    if u.order == Some(OrderKind::Charge) && u.garrison.is_none() {
        let scene = geo::scene(game);
        if !sight::visible_enemies(game, &scene, unit).is_empty() {
            return Err(RuleError::new(
                "BFS-CHG-27",
                format!(
                    "{} has a Charge order and sees an enemy: it must charge.",
                    u.name
                ),
            ));
        }
    }
    Ok(())
}

pub fn do_hold(game: &mut Game, unit: UnitId, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check_hold(game, unit)?;
    game.unit_mut(unit).flags.activated = true;
    events.push(Event::Moved {
        unit,
        cost_cm: 0.0,
        allowance_cm: 0.0,
        description: "stays where it is".into(),
    });
    Ok(())
}

/// A commander moves as a one-base Open Order unit with a Move order (BFS-CDR-2): straight steps
/// and wheels of his base; he passes through friends (BFS-CDR-5 and -6).
pub fn check_move_commander(
    game: &Game,
    commander: CommanderId,
    steps: &[MoveStep],
) -> Result<Rect, RuleError> {
    let side = acting(game)?;
    let c = game
        .commanders
        .get(commander.index())
        .ok_or_else(|| RuleError::new("BFS-CDR-2", "There is no such commander."))?;
    if c.side != side || c.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            "BFS-CDR-2",
            format!("{} cannot move now.", c.name),
        ));
    }
    if c.moved {
        return Err(RuleError::new(
            "BFS-MOV-3",
            format!("{} has already moved this phase.", c.name),
        ));
    }
    if let Some(unit) = c.attached_to {
        return Err(RuleError::new(
            "BFS-CDR-14",
            format!(
                "{} is with {}: he leaves it first (Leave the unit).",
                c.name,
                game.unit(unit).name
            ),
        ));
    }
    let end = commander_path(game, commander, c.base, steps)?;
    crate::coward::check_move_end(game, commander, &end)?;
    Ok(end)
}

/// Where a commander's steps take his base from `start` (BFS-CDR-2): his own Move, through
/// friends, 2 cm clear of enemies, never into impassable terrain or off the table.
pub fn commander_path(
    game: &Game,
    commander: CommanderId,
    start: Rect,
    steps: &[MoveStep],
) -> Result<Rect, RuleError> {
    let side = acting(game)?;
    let c = game.commander(commander);
    let p = game.profile(c.profile);
    // A commander may march, even within 20 cm of the enemy (BFS-CDR-4, BFS-AMV-2).
    let marching = crate::march::is_march(steps);
    if marching {
        crate::march::check_marker(steps)?;
        if let Some(name) = crate::march::off_road(game, std::slice::from_ref(&start)) {
            return Err(RuleError::new(
                "BFS-AMV-2",
                format!(
                    "{} stands in {name}: a march goes over open ground or along a road.",
                    c.name
                ),
            ));
        }
    }
    let allowance = p.movement.basic
        + if marching {
            crate::march::bonus_cm(p)
        } else {
            0.0
        };
    let scene = geo::scene(game);
    // Commanders pass through friends, and keep 2 cm from enemies (BFS-CDR-5, BFS-MOV-7).
    let obs = moves::commander_obstacles(game, side.0, p);
    let mut base = start;
    let mut spent = 0.0;
    for step in steps {
        match *step {
            MoveStep::March => {}
            MoveStep::Forward(d) | MoveStep::Backward(d) => {
                if !d.is_finite() || d <= 0.0 || d > 1000.0 {
                    return Err(RuleError::new(
                        "BFS-MOV-5",
                        format!("A move of {d} cm makes no sense."),
                    ));
                }
                let signed = if matches!(step, MoveStep::Forward(_)) {
                    d
                } else {
                    -d
                };
                let bases = [base];
                let out = movement::move_straight(
                    &scene,
                    &Body::new(base, &bases),
                    signed,
                    &obs,
                    sandtable_geometry::movement::MoveCost {
                        forward: 1.0,
                        backward: 1.0,
                    },
                )
                .map_err(|e| RuleError::new("BFS-MOV-5", e.to_string()))?;
                if out.travelled.abs() < d - 1e-3 {
                    return Err(RuleError::new(
                        "BFS-MOV-7",
                        format!("Blocked after {:.1} cm.", out.travelled.abs()),
                    ));
                }
                base = base.translated(out.delta);
                spent += d;
            }
            MoveStep::Wheel { degrees, .. } => {
                // An Open Order base turns freely (BFS-OO-3).
                if !degrees.is_finite() {
                    return Err(RuleError::new("BFS-MOV-14", "That turn makes no sense."));
                }
                base = Rect::new(
                    Pose::new(base.center(), base.pose.angle + degrees.to_radians()),
                    base.half,
                );
            }
            _ => {
                return Err(RuleError::new(
                    "BFS-CDR-2",
                    "A commander moves and turns; he makes no formation maneuvers.",
                ));
            }
        }
    }
    if spent > allowance + 1e-3 {
        return Err(RuleError::new(
            "BFS-MOV-6",
            format!(
                "Too far: {} may move {allowance} cm; this is {spent:.1} cm.",
                c.name
            ),
        ));
    }
    if marching && let Some(name) = crate::march::off_road(game, std::slice::from_ref(&base)) {
        return Err(RuleError::new(
            "BFS-AMV-2",
            format!(
                "The march would end in {name}: a march goes over open ground or along a road."
            ),
        ));
    }
    let t = game.info.table;
    if base
        .corners()
        .iter()
        .any(|p| p.x < 0.0 || p.y < 0.0 || p.x > t.x || p.y > t.y)
    {
        return Err(RuleError::new(
            "BFS-PSY-21",
            "The commander would leave the table.",
        ));
    }
    Ok(base)
}

pub fn do_move_commander(
    game: &mut Game,
    commander: CommanderId,
    steps: &[MoveStep],
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let base = check_move_commander(game, commander, steps)?;
    let c = game.commander_mut(commander);
    c.base = base;
    c.moved = true;
    events.push(Event::CommanderMoved {
        commander,
        to: base.center(),
        joined: None,
    });
    Ok(())
}

/// Units of the acting side that still must charge (BFS-CHG-27).
pub fn must_still_charge(game: &Game, side: Side) -> Vec<UnitId> {
    let scene = geo::scene(game);
    game.units_on_table(side)
        .filter(|u| {
            u.order == Some(OrderKind::Charge)
                && !u.flags.activated
                && u.morale == MoraleLevel::Good
        })
        .filter(|u| flight::enemies_in_contact(game, u.id).is_empty())
        .filter(|u| !sight::visible_enemies(game, &scene, u.id).is_empty())
        .map(|u| u.id)
        .collect()
}

pub fn check_end(game: &Game) -> Result<(), RuleError> {
    let side = acting(game)?;
    let pending = must_still_charge(game, side);
    if let Some(u) = pending.first() {
        return Err(RuleError::new(
            "BFS-CHG-27",
            format!(
                "{} has a Charge order and sees an enemy: it must charge before the phase ends.",
                game.unit(*u).name
            ),
        ));
    }
    Ok(())
}

pub fn end_movement(game: &mut Game, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check_end(game)?;
    let Phase::Movement { acting, second, .. } = game.turn.phase.clone() else {
        unreachable!("checked")
    };
    // Charge orders with no enemy in view become Move orders (BFS-CHG-2).
    let idle: Vec<UnitId> = game
        .units_on_table(acting)
        .filter(|u| u.order == Some(OrderKind::Charge) && !u.flags.charged && u.charge.is_none())
        .map(|u| u.id)
        .collect();
    for unit in idle {
        game.unit_mut(unit).order = Some(OrderKind::Move);
        events.push(Event::OrderChanged {
            unit,
            from: Some(OrderKind::Charge),
            to: Some(OrderKind::Move),
            rule: "BFS-CHG-2".into(),
            reason: "no enemy in its field of vision".into(),
        });
    }
    if !second {
        begin_movement(game, acting.other(), true, events);
    } else {
        game.turn.phase = Phase::Combat(CombatStage::DefendersFire);
        events.push(Event::PhaseBegan {
            phase: "Combat".into(),
            acting: game.turn.initiative,
        });
    }
    Ok(())
}

/// Units that can still be activated by the acting side (for prompts and the AI).
pub fn units_to_activate(game: &Game) -> Vec<UnitId> {
    let Ok(side) = acting(game) else {
        return Vec::new();
    };
    game.units_on_table(side)
        .filter(|u| !u.flags.activated && u.morale != MoraleLevel::Flight)
        .map(|u| u.id)
        .collect()
}

/// The charge module does the work; the Movement Phase only routes the command.
pub fn declare_charge(
    game: &mut Game,
    unit: UnitId,
    target: UnitId,
    pay: Option<CommanderId>,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_declare_charge(game, unit, target, pay)?;
    charge::declare(game, unit, target, pay, events)
}

pub fn check_declare_charge(
    game: &Game,
    unit: UnitId,
    target: UnitId,
    pay: Option<CommanderId>,
) -> Result<(), RuleError> {
    activatable(game, unit)?;
    check_not_ran_behind(game, unit)?;
    crate::building::stays_inside(game, unit)?;
    charge::check_declare(game, unit, target, pay)
}

/// A charge on a lone commander (BFS-CDR-7): see [`crate::commander_charge::check_declare`].
pub fn check_charge_commander(
    game: &Game,
    unit: UnitId,
    commander: CommanderId,
) -> Result<(), RuleError> {
    activatable(game, unit)?;
    crate::building::stays_inside(game, unit)?;
    crate::commander_charge::check_declare(game, unit, commander)
}

/// Infantry enters a building (BFS-TER-29, BFS-MAN-22): see [`crate::building::check_occupy`].
pub fn check_occupy(
    game: &Game,
    unit: UnitId,
    building: u16,
    by: CommanderId,
) -> Result<(), RuleError> {
    activatable(game, unit)?;
    crate::building::check_occupy(game, unit, building as usize, by)
}

pub fn occupy(
    game: &mut Game,
    unit: UnitId,
    building: u16,
    by: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_occupy(game, unit, building, by)?;
    crate::building::occupy(game, unit, building as usize, by, events);
    Ok(())
}

/// A garrison comes out (BFS-TER-31): see [`crate::building::check_leave`].
pub fn check_leave_building(
    game: &Game,
    unit: UnitId,
    wall: u8,
    by: CommanderId,
) -> Result<Vec<Rect>, RuleError> {
    activatable(game, unit)?;
    crate::building::check_leave(game, unit, wall, by)
}

pub fn leave_building(
    game: &mut Game,
    unit: UnitId,
    wall: u8,
    by: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let rects = check_leave_building(game, unit, wall, by)?;
    crate::building::leave(game, unit, rects, by, events);
    Ok(())
}
