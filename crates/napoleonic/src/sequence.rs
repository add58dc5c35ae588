//! The period (NQ-SEQ-1..4): command control at step 1 (G5), the turn-point bid (NQ-SEQ-2, G3),
//! the A/D activation loop (NQ-SEQ-3, G4), leaders at step 8, close actions at step 9, the
//! step-10 morale checks, the step-11 clean-up (G14) and the end of the battle (G15).

use crate::event::Event;
use crate::footprint::gap;
use crate::morale::{check, fail, standing_facts};
use crate::state::{Activation, Bid, Game, INCH, Phase, UnitId};
use crate::tables::tables;
use crate::vocab::{Fatigue, Standing};
use sandtable_engine::RuleError;
use sandtable_engine::scenario_script::{ScriptAction, Trigger};
use sandtable_geometry::Vec2;
use sandtable_geometry::prim::point_in_polygon;

/// Step 1 and the bid: a new period begins (or the battle ends when the periods run out).
pub fn begin_period(game: &mut Game, events: &mut Vec<Event>) {
    if game.ending.is_some() {
        game.phase = Phase::Over;
        return;
    }
    game.period += 1;
    game.charges.clear();
    for u in &mut game.units {
        u.marks = Default::default();
        u.actions_left = if u.present() { 2 } else { 0 };
    }
    events.push(Event::PeriodBegan {
        period: game.period,
    });
    run_script(game, events);
    // Step 1 (G5): out of command if beyond the radius of the brigade's leader, or without one.
    let radius = game.options.command_radius * INCH;
    let mut out = Vec::new();
    for i in 0..game.units.len() {
        let u = &game.units[i];
        if !u.present() {
            continue;
        }
        let leader = game
            .brigades
            .get(u.brigade as usize)
            .map(|b| game.leader(b.leader));
        let in_command =
            leader.is_some_and(|l| l.alive && u.rect().distance_to_point(l.pos) <= radius);
        if !in_command {
            out.push(u.id);
            game.units[i].marks.out_of_command = true;
        }
    }
    if !out.is_empty() {
        events.push(Event::OutOfCommand { units: out });
    }
    game.phase = Phase::Bidding {
        bids: [Bid::None, Bid::None],
    };
}

/// The scenario's script: rules whose trigger has come true fire once (checked as each period
/// begins).
fn run_script(game: &mut Game, events: &mut Vec<Event>) {
    for i in 0..game.script.len() {
        if game.script[i].1 {
            continue;
        }
        let fire = match &game.script[i].0.when {
            Trigger::TurnBegins(n) => game.period >= *n,
            Trigger::UnitLost(k) => game
                .find_unit(k)
                .is_some_and(|u| !game.unit(u).present() || game.unit(u).in_retreat()),
            Trigger::SideEntersArea { side, area } => {
                let polys = sandtable_engine::scenario_geometry::shape_polygons(area);
                game.present_units(*side as u8).any(|u| {
                    let c = u.rect().center();
                    polys.iter().any(|p| point_in_polygon(c, p))
                })
            }
            Trigger::ObjectiveTaken { .. } => false,
        };
        if !fire {
            continue;
        }
        game.script[i].1 = true;
        for action in game.script[i].0.then.clone() {
            match action {
                ScriptAction::Orders { units, order } => {
                    for k in units {
                        if let Some(u) = game.find_unit(&k) {
                            game.standing_orders.retain(|(x, _)| *x != u);
                            game.standing_orders.push((u, order.clone()));
                        }
                    }
                }
                ScriptAction::Message(text) => events.push(Event::Message { text }),
                ScriptAction::Reserves(_) => {}
            }
        }
    }
}

/// NQ-SEQ-2, G3: a secret bid; when both are in, they are revealed together.
pub fn bid(
    game: &mut Game,
    seat: u8,
    points: u32,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Phase::Bidding { mut bids } = game.phase else {
        return Err(RuleError::new("NQ-SEQ-2", "bids are made at step 2"));
    };
    if bids[seat as usize] != Bid::None {
        return Err(RuleError::new("NQ-SEQ-2", "this side has bid already"));
    }
    if points > game.turn_points[seat as usize] {
        return Err(RuleError::new(
            "G3",
            format!(
                "only {} turn point(s) left",
                game.turn_points[seat as usize]
            ),
        ));
    }
    bids[seat as usize] = Bid::Placed(points);
    events.push(Event::BidPlaced { side: seat });
    let (Bid::Placed(a), Bid::Placed(b)) = (bids[0], bids[1]) else {
        game.phase = Phase::Bidding { bids };
        return Ok(());
    };
    // Equal bids: each side rolls a D6, the higher wins, ties roll again (house).
    let mut tie_rolls = Vec::new();
    let winner = if a != b {
        (b > a) as u8
    } else {
        loop {
            let (x, y) = (game.dice.d6(), game.dice.d6());
            tie_rolls.push((x, y));
            if x != y {
                break (y > x) as u8;
            }
        }
    };
    let paid = if game.options.winner_pays_only {
        let mut p = [0, 0];
        p[winner as usize] = [a, b][winner as usize];
        p
    } else {
        [a, b]
    };
    for (points, paid) in game.turn_points.iter_mut().zip(paid) {
        *points -= paid;
    }
    events.push(Event::BidsRevealed {
        bids: [a, b],
        winner,
        tie_rolls,
        paid,
    });
    game.phase = Phase::ChooseSide { chooser: winner };
    Ok(())
}

/// NQ-SEQ-2: the winner of the bid chooses to be A or D.
pub fn choose_side(game: &mut Game, be_a: bool, events: &mut Vec<Event>) -> Result<(), RuleError> {
    let Phase::ChooseSide { chooser } = game.phase else {
        return Err(RuleError::new("NQ-SEQ-2", "no side is choosing"));
    };
    game.side_a = if be_a { chooser } else { 1 - chooser };
    events.push(Event::SideChosen {
        side_a: game.side_a,
    });
    game.phase = Phase::Activation(Activation {
        side: game.side_a,
        left: 2,
        current: None,
        a_done: false,
    });
    settle(game, events);
    Ok(())
}

/// Units of `side` that may still be activated this period: not yet activated, and not waiting
/// in a close action (a charged unit keeps its actions for its defence, NQ-CA-1 step 3).
pub fn unmoved(game: &Game, side: u8) -> usize {
    game.present_units(side)
        .filter(|u| !u.marks.moved && !crate::actions::engaged(game, u.id))
        .count()
}

/// The activation of the current unit is over (NQ-SEQ-3).
pub fn finish_unit(game: &mut Game, events: &mut Vec<Event>) {
    let Phase::Activation(act) = &mut game.phase else {
        return;
    };
    if let Some(u) = act.current.take() {
        act.left = act.left.saturating_sub(1);
        events.push(Event::UnitFinished { unit: u });
    }
    settle(game, events);
}

/// Whose activation is next (NQ-SEQ-1 steps 3–7, G4): A two units, D one, until A is done; then D
/// finishes alone (G4) and, if D runs out first, A goes on two at a time.
pub fn settle(game: &mut Game, events: &mut Vec<Event>) {
    let Phase::Activation(mut act) = game.phase else {
        return;
    };
    if act.current.is_some() {
        return;
    }
    let (a, d) = (game.side_a, game.side_d());
    if unmoved(game, a) == 0 {
        act.a_done = true;
    }
    let a_can = !act.a_done;
    let d_can = unmoved(game, d) > 0 && (!act.a_done || game.options.d_finishes_after_a);
    if !a_can && !d_can {
        game.phase = Phase::Leaders { side: a };
        skip_leaders_without_moves(game, events);
        return;
    }
    let stay = act.left > 0 && if act.side == a { a_can } else { d_can };
    if !stay {
        if act.side == a {
            if d_can {
                (act.side, act.left) = (d, 1);
            } else {
                (act.side, act.left) = (a, 2);
            }
        } else if a_can {
            (act.side, act.left) = (a, 2);
        } else {
            (act.side, act.left) = (d, 1);
        }
    }
    game.phase = Phase::Activation(act);
}

/// NQ-SEQ-1 step 7: A stops, once it has activated at least half of its units.
pub fn end_activations(game: &mut Game, events: &mut Vec<Event>) -> Result<(), RuleError> {
    let Phase::Activation(mut act) = game.phase else {
        return Err(RuleError::new("NQ-SEQ-1", "not in the activation steps"));
    };
    if act.side != game.side_a || act.a_done {
        return Err(RuleError::new(
            "NQ-SEQ-1",
            "only side A declares itself finished",
        ));
    }
    if act.current.is_some() {
        return Err(RuleError::new(
            "NQ-SEQ-3",
            "finish the unit being activated first",
        ));
    }
    let a = game.side_a;
    let total = game.present_units(a).count();
    let done = total - unmoved(game, a);
    if done * 2 < total {
        return Err(RuleError::new(
            "NQ-SEQ-1",
            format!("A may stop only after activating half its units ({done} of {total} so far)"),
        ));
    }
    act.a_done = true;
    act.left = 0;
    game.phase = Phase::Activation(act);
    events.push(Event::ActivationsEnded { side: a });
    settle(game, events);
    Ok(())
}

/// Step 8: a leader moves (NQ-MOV-5), once, up to the step's distance.
pub fn move_leader(
    game: &mut Game,
    seat: u8,
    leader: crate::state::LeaderId,
    to: Vec2,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_leader_move(game, seat, leader, to)?;
    let l = &mut game.leaders[leader.0 as usize];
    let from = l.pos;
    l.pos = to;
    l.moved = true;
    events.push(Event::LeaderMoved { leader, from, to });
    Ok(())
}

pub fn check_leader_move(
    game: &Game,
    seat: u8,
    leader: crate::state::LeaderId,
    to: Vec2,
) -> Result<(), RuleError> {
    let Phase::Leaders { side } = game.phase else {
        return Err(RuleError::new("NQ-MOV-5", "leaders move only at step 8"));
    };
    let Some(l) = game.leaders.get(leader.0 as usize) else {
        return Err(RuleError::new("NQ-MOV-5", "no such leader"));
    };
    if l.side != side || side != seat {
        return Err(RuleError::new(
            "NQ-MOV-5",
            "not this side's leader to move now",
        ));
    }
    if !l.alive {
        return Err(RuleError::new("G6", format!("{} has fallen", l.name)));
    }
    if l.moved {
        return Err(RuleError::new(
            "NQ-MOV-5",
            format!("{} has moved this period", l.name),
        ));
    }
    if !(to.x.is_finite() && to.y.is_finite())
        || to.x < 0.0
        || to.y < 0.0
        || to.x > game.table.x
        || to.y > game.table.y
    {
        return Err(RuleError::new("G16", "that is off the table"));
    }
    let d = (to - l.pos).length() / INCH;
    if d > game.options.leader_move + 0.005 {
        return Err(RuleError::new(
            "NQ-MOV-5",
            format!(
                "{d:.1}\" is more than the {}\" a leader moves at step 8",
                game.options.leader_move
            ),
        ));
    }
    Ok(())
}

/// Step 8 done for the side moving leaders: A then D, then the close actions.
pub fn end_leaders(game: &mut Game, events: &mut Vec<Event>) -> Result<(), RuleError> {
    let Phase::Leaders { side } = game.phase else {
        return Err(RuleError::new("NQ-MOV-5", "leaders move only at step 8"));
    };
    events.push(Event::LeadersDone { side });
    next_leaders(game, side, events);
    Ok(())
}

fn next_leaders(game: &mut Game, side: u8, events: &mut Vec<Event>) {
    if side == game.side_a {
        game.phase = Phase::Leaders {
            side: game.side_d(),
        };
        skip_leaders_without_moves(game, events);
    } else {
        begin_close_actions(game, events);
    }
}

/// A side with no living leader to move skips step 8.
fn skip_leaders_without_moves(game: &mut Game, events: &mut Vec<Event>) {
    let Phase::Leaders { side } = game.phase else {
        return;
    };
    if !game.leaders.iter().any(|l| l.side == side && l.alive) {
        next_leaders(game, side, events);
    }
}

/// Step 9.
fn begin_close_actions(game: &mut Game, events: &mut Vec<Event>) {
    for l in &mut game.leaders {
        l.moved = false;
    }
    if !game.charges.is_empty() {
        events.push(Event::CloseActionsBegan {
            count: game.charges.len(),
        });
    }
    crate::close_action::resume(game, events);
}

/// Steps 10 and 11, and the next period or the end.
pub fn after_close_actions(game: &mut Game, events: &mut Vec<Event>) {
    morale_step(game, events);
    cleanup(game, events);
    if let Some(end) = crate::victory::ending(game) {
        events.push(Event::BattleEnded {
            winner: end.winner,
            reason: end.reason.clone(),
        });
        game.ending = Some(end);
        game.phase = Phase::Over;
        return;
    }
    begin_period(game, events);
}

/// Step 10 (NQ-SEQ-4, G7b): marked units check, unless they fought a close action; a rout in
/// this step marks the friends near it, who check in this step too.
fn morale_step(game: &mut Game, events: &mut Vec<Event>) {
    let mut checked: Vec<UnitId> = Vec::new();
    loop {
        let next = game
            .units
            .iter()
            .find(|u| {
                u.present()
                    && u.marks.morale.is_some()
                    && !u.marks.close_action
                    && !checked.contains(&u.id)
            })
            .map(|u| u.id);
        let Some(id) = next else {
            break;
        };
        checked.push(id);
        let mark = game.unit(id).marks.morale.unwrap_or_default();
        let mut f = standing_facts(game, id);
        f.fire_from_flank = mark.flank_fire;
        f.fired_on_by_12lb_close = mark.by_12lb_close && !game.unit(id).arm().is_artillery();
        f.artillery_fired_on_by_artillery = mark.artillery_by_artillery;
        let why = match (mark.fire_losses, mark.friend_routed) {
            (true, true) => "losses to fire and a friend's rout (step 10, G7b)",
            (true, false) => "losses to fire (step 10, G7b)",
            _ => "a friend within 6\" routed (step 10, G7b)",
        };
        if !check(game, id, why, &f, events) {
            let side = game.unit(id).side;
            let r = game.unit(id).rect();
            let cause = game
                .enemies_of(side)
                .min_by(|a, b| gap(&r, &a.rect()).total_cmp(&gap(&r, &b.rect())))
                .map_or(r.center() + r.facing(), |e| e.rect().center());
            fail(game, id, cause, events);
        }
    }
}

/// Step 11: markers go, routed units leave the table, and units that stood all period clear of
/// the enemy recover a level of fatigue (G14).
fn cleanup(game: &mut Game, events: &mut Vec<Event>) {
    let clear = tables().distances.recovery_clear * INCH;
    for i in 0..game.units.len() {
        if game.units[i].standing == Standing::Routed {
            game.units[i].standing = Standing::Gone;
            events.push(Event::LeftTable {
                unit: game.units[i].id,
            });
            continue;
        }
        let u = &game.units[i];
        if !u.present() || !game.options.fatigue_recovery || u.fatigue == Fatigue::Fresh {
            continue;
        }
        let r = u.rect();
        let rested = u.marks.used == 0 && !u.marks.close_action;
        let safe = game.enemies_of(u.side).all(|e| gap(&r, &e.rect()) > clear);
        if rested && safe {
            let level = u.fatigue.better();
            let id = u.id;
            game.units[i].fatigue = level;
            events.push(Event::FatigueChanged { unit: id, level });
        }
    }
}
