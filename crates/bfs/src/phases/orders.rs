//! The Orders Phase (BFS-ORD-1): the Initiative player first, then the other. In any order:
//! issue face-down orders (BFS-ORD-3, BFS-CMD-4), rally (BFS-RAL-2..6), reorganise (BFS-RAL-7),
//! transfer command points (BFS-CMD-7).

use crate::authority::{self, OrderCost};
use crate::event::{Event, TestKind};
use crate::ids::{CommanderId, Side, UnitId};
use crate::morale::{self, MoraleCause};
use crate::state::{Game, MoraleLevel, OrderKind, PendingOrder, UnitStatus};
use crate::turn::Phase;
use sandtable_engine::RuleError;

pub fn begin_orders(game: &mut Game, acting: Side, second: bool, events: &mut Vec<Event>) {
    game.turn.phase = Phase::Orders { acting, second };
    events.push(Event::PhaseBegan {
        phase: "Orders".into(),
        acting: Some(acting),
    });
    if game.turn.number == 1 && !second {
        crate::turn_one::at_first_orders(game, events);
    }
}

/// The side acting in the Orders Phase, or why nobody may give orders now.
pub(crate) fn acting_side(game: &Game, rule: &str) -> Result<Side, RuleError> {
    match game.turn.phase {
        Phase::Orders { acting, .. } => Ok(acting),
        _ => Err(RuleError::new(
            rule,
            format!(
                "This is done in the Orders Phase; it is now the {} Phase.",
                game.turn.phase.title()
            ),
        )),
    }
}

/// The acting side's unit, on the table.
pub(crate) fn own_unit(
    game: &Game,
    unit: UnitId,
    acting: Side,
    rule: &str,
) -> Result<(), RuleError> {
    let u = game
        .units
        .get(unit.index())
        .ok_or_else(|| RuleError::new(rule, "There is no such unit."))?;
    if u.side != acting {
        return Err(RuleError::new(
            rule,
            format!(
                "{} belongs to the other side; it is {}'s turn to give orders.",
                u.name,
                game.side(acting).name
            ),
        ));
    }
    if u.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            rule,
            format!("{} is no longer on the table.", u.name),
        ));
    }
    Ok(())
}

fn own_commander(game: &Game, c: CommanderId, acting: Side, rule: &str) -> Result<(), RuleError> {
    let cm = game
        .commanders
        .get(c.index())
        .ok_or_else(|| RuleError::new(rule, "There is no such commander."))?;
    if cm.side != acting {
        return Err(RuleError::new(
            rule,
            format!("{} commands the other side.", cm.name),
        ));
    }
    if cm.status != UnitStatus::OnTable {
        return Err(RuleError::new(
            rule,
            format!("{} is no longer on the table.", cm.name),
        ));
    }
    if cm.fleeing {
        return Err(RuleError::new(
            "BFS-RAL-1",
            format!(
                "{} is fleeing and gives no orders until he rallies.",
                cm.name
            ),
        ));
    }
    Ok(())
}

/// An Independent unit takes any order for free, placed face up, from any commander of its side
/// (BFS-SPC-14; rules revision 6).
pub fn independent(game: &Game, unit: UnitId) -> bool {
    crate::revision::special_rules_6(game.info.options.rules_revision)
        && game
            .unit_profile(unit)
            .has(crate::profile::SpecialRule::Independent)
}

/// The commanders who may place an order for `unit`, cheapest first: those who may order it
/// (BFS-CMD-2), or for an Independent unit any commander of its side on the table (BFS-SPC-14).
pub fn who_may_place(game: &Game, unit: UnitId) -> Vec<CommanderId> {
    let mut who = if independent(game, unit) {
        let side = game.unit(unit).side;
        game.commanders
            .iter()
            .filter(|c| {
                c.side == side && c.status == crate::state::UnitStatus::OnTable && !c.fleeing
            })
            .map(|c| c.id)
            .collect()
    } else {
        authority::commanders_who_may_order(game, unit)
    };
    who.sort_by_key(|c| (authority::order_cost(game, *c, unit).cp, c.0));
    who
}

/// Starting orders are free in the first turn (BFS-ORD-15).
/// A Defense order for Commanded Musketeers: free and face up, "Take and Hold" (BFS-SPC-5).
pub fn take_and_hold(game: &Game, unit: UnitId, order: OrderKind) -> bool {
    order == OrderKind::Defense && crate::commanded::applies(game, unit)
}

pub fn orders_are_free(game: &Game) -> bool {
    game.turn.number == 1 && game.info.options.starting_orders
}

/// What issuing this order would cost, or why it may not be issued.
pub fn check_issue(
    game: &Game,
    unit: UnitId,
    order: OrderKind,
    by: CommanderId,
) -> Result<OrderCost, RuleError> {
    check_may_take(game, unit, order, by)?;
    if take_and_hold(game, unit, order) {
        // Commanded Musketeers take a Defense order for free, face up (BFS-SPC-5).
        check_subordinate(game, unit, by)?;
    }
    if independent(game, unit) || take_and_hold(game, unit, order) {
        // Any order, for free, whoever places it (BFS-SPC-14); 1 CP after Confusion took the
        // first (BFS-SCN-44).
        return Ok(OrderCost {
            cp: u8::from(game.unit(unit).flags.confused),
            distance_cm: authority::distance_to_unit(game, by, unit),
            range_cm: authority::command_range_cm(game, by),
            step_cm: authority::cost_step_cm(game, by),
            attached: false,
            insubordinate: false,
        });
    }
    check_subordinate(game, unit, by)?;
    checked_cost(game, unit, by)
}

/// May `unit` take a new order from `by` now, whatever it costs: the acting side's unit and
/// commander, in good order, not yet ordered this turn (BFS-ORD-3, -10, BFS-PSY-6, BFS-RAL-6,
/// BFS-SPC-3).
pub fn check_may_take(
    game: &Game,
    unit: UnitId,
    order: OrderKind,
    by: CommanderId,
) -> Result<(), RuleError> {
    let acting = acting_side(game, "BFS-ORD-1")?;
    own_unit(game, unit, acting, "BFS-ORD-3")?;
    own_commander(game, by, acting, "BFS-CMD-2")?;
    crate::instructions::check_starting_order(game, unit, order)?;
    crate::wagon::check_order(game, unit, order)?;
    let u = game.unit(unit);
    match u.morale {
        MoraleLevel::Flight => {
            return Err(RuleError::new(
                "BFS-ORD-10",
                format!(
                    "{} is fleeing: a fleeing unit takes no orders until it is rallied.",
                    u.name
                ),
            ));
        }
        MoraleLevel::Disorganized => {
            return Err(RuleError::new(
                "BFS-PSY-6",
                format!(
                    "{} is Disorganized: rally it first, then it can take an order.",
                    u.name
                ),
            ));
        }
        MoraleLevel::Good => {}
    }
    if u.flags.rallied_from_flight {
        return Err(RuleError::new(
            "BFS-RAL-6",
            format!(
                "{} rallied from flight this phase and cannot take an order until next turn.",
                u.name
            ),
        ));
    }
    if crate::turn_one::in_confusion_window(game) && !u.flags.ordered {
        return Err(RuleError::new(
            "BFS-SCN-44",
            format!(
                "Confusion lets you change orders already given; {} has none to change.",
                u.name
            ),
        ));
    }
    if u.flags.ordered && !crate::turn_one::may_change_order(game, unit) {
        return Err(RuleError::new(
            "BFS-ORD-3",
            format!(
                "{} already has a new order marker this turn (undo to change it).",
                u.name
            ),
        ));
    }
    if order == OrderKind::Charge
        && game
            .unit_profile(unit)
            .has(crate::profile::SpecialRule::CannotCharge)
    {
        return Err(RuleError::new(
            "BFS-SPC-3",
            format!("{} has the Cannot Charge rule.", u.name),
        ));
    }
    Ok(())
}

/// Is `unit` subordinate to `by`: his own regiment's, or any for a senior commander, and not
/// while he is attached to another unit (BFS-CMD-2, BFS-CDR-13)?
pub fn check_subordinate(game: &Game, unit: UnitId, by: CommanderId) -> Result<(), RuleError> {
    let c = game.commander(by);
    if !authority::commanders_who_may_order(game, unit).contains(&by) {
        let why = if c.attached_to.is_some() {
            format!(
                "{} is attached to another unit and may order only that unit (BFS-CDR-13).",
                c.name
            )
        } else {
            format!("{} may order only units of his own regiment.", c.name)
        };
        return Err(RuleError::new("BFS-CMD-2", why));
    }
    Ok(())
}

/// The CP an order costs, after the checks above.
fn checked_cost(game: &Game, unit: UnitId, by: CommanderId) -> Result<OrderCost, RuleError> {
    let u = game.unit(unit);
    let c = game.commander(by);
    let mut cost = authority::order_cost(game, by, unit);
    // Confusion: a unit that lost its order, and the changes bought, pay CP (BFS-SCN-44).
    // A Robbers unit the pillage cost its free order pays as in any turn (BFS-SPC-28).
    let pillaged = u.pillage.is_some_and(|p| p.no_free_order);
    if u.flags.confused {
        cost.cp += 1;
    } else if orders_are_free(game) && !crate::turn_one::in_confusion_window(game) && !pillaged {
        cost.cp = 0;
    }
    if cost.cp > c.cp {
        let no_instruction = crate::instructions::no_instruction_surcharge(game, by);
        let beyond = cost.cp > 1 + u8::from(cost.insubordinate) + no_instruction && !cost.attached;
        let why = if beyond {
            format!(
                "Too far: this order costs {} CP because {} is {:.1} cm from {}, beyond his {} cm range{}, and he has only {} CP left.",
                cost.cp,
                u.name,
                cost.distance_cm,
                c.name,
                cost.range_cm,
                if cost.insubordinate {
                    ", +1 for an Insubordinate unit (BFS-SPC-15)"
                } else {
                    ""
                },
                c.cp
            )
        } else if cost.insubordinate {
            format!(
                "{} is Insubordinate: this order costs {} CP (BFS-SPC-15) and {} has {}.",
                u.name, cost.cp, c.name, c.cp
            )
        } else {
            format!(
                "{} has no command points left ({} needed).",
                c.name, cost.cp
            )
        };
        return Err(RuleError::new("BFS-CMD-4", why));
    }
    Ok(cost)
}

pub fn issue(
    game: &mut Game,
    unit: UnitId,
    order: OrderKind,
    by: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let cost = check_issue(game, unit, order, by)?;
    let free = orders_are_free(game) && cost.cp == 0;
    crate::turn_one::count_change(game, unit);
    let own_face_up = independent(game, unit) || take_and_hold(game, unit, order);
    let prisoner = !own_face_up && crate::turn_one::prisoner_talks(game, game.unit(unit).side);
    let face_up = own_face_up || prisoner;
    game.commander_mut(by).cp -= cost.cp;
    let u = game.unit_mut(unit);
    u.pending_order = Some(PendingOrder {
        kind: Some(order),
        issued_by: Some(by),
        face_up,
    });
    u.flags.ordered = true;
    events.push(Event::OrderIssued {
        unit,
        by,
        order: Some(order),
        cp: cost.cp,
        distance_cm: cost.distance_cm,
        free,
        independent: own_face_up,
        prisoner,
    });
    Ok(())
}

/// May the unit be rallied at all this turn: not in good order, its Regiment not Wiped Out, no
/// rally tried yet this turn (BFS-RAL-2, BFS-RAL-3, BFS-PSY-28)?
pub fn check_may_rally(game: &Game, unit: UnitId) -> Result<(), RuleError> {
    let u = game.unit(unit);
    if u.morale == MoraleLevel::Good {
        return Err(RuleError::new(
            "BFS-RAL-2",
            format!("{} is in good order and needs no rally.", u.name),
        ));
    }
    if let Some(r) = u.regiment
        && game.regiments[r.index()].wiped_out
    {
        return Err(RuleError::new(
            "BFS-PSY-28",
            format!(
                "{}'s regiment is Wiped Out: its units can never be rallied.",
                u.name
            ),
        ));
    }
    if u.flags.rally_attempted {
        return Err(RuleError::new(
            "BFS-RAL-3",
            format!(
                "{} has already had its one rally attempt this turn.",
                u.name
            ),
        ));
    }
    Ok(())
}

/// Checks a rally: returns its CP cost (BFS-RAL-2, BFS-RAL-3).
/// Most extra CP a rally may spend, each for +1 Morale (BFS-RAL-2).
pub const MAX_RALLY_EXTRA_CP: u8 = 3;

pub fn check_rally(
    game: &Game,
    unit: UnitId,
    by: CommanderId,
    extra_cp: u8,
) -> Result<u8, RuleError> {
    let acting = acting_side(game, "BFS-RAL-3")?;
    own_unit(game, unit, acting, "BFS-RAL-3")?;
    own_commander(game, by, acting, "BFS-RAL-3")?;
    check_may_rally(game, unit)?;
    let u = game.unit(unit);
    let c = game.commander(by);
    if extra_cp > MAX_RALLY_EXTRA_CP {
        return Err(RuleError::new(
            "BFS-RAL-2",
            format!(
                "At most {MAX_RALLY_EXTRA_CP} extra CP (+{MAX_RALLY_EXTRA_CP} Morale) may be spent on a rally."
            ),
        ));
    }
    // A tired side's commander raises a Morale test by 2 at most (BFS-SCN-25, -26).
    if let Some(cap) = crate::turn_one::fatigue_boost_cap(game, c.side)
        && extra_cp > cap
    {
        return Err(RuleError::new(
            "BFS-SCN-25",
            format!(
                "Fatigue: {} may raise a Morale test by {cap} at most, so no more than {cap} extra CP on a rally.",
                c.name
            ),
        ));
    }
    if !authority::commanders_who_may_order(game, unit).contains(&by) {
        return Err(RuleError::new(
            "BFS-RAL-3",
            format!("{} is not subordinate to {}.", u.name, c.name),
        ));
    }
    let d = authority::distance_to_unit(game, by, unit);
    let range = authority::command_range_cm(game, by);
    if d > range + sandtable_geometry::tolerance::LIMIT_EPS {
        return Err(RuleError::new(
            "BFS-RAL-3",
            format!(
                "Out of range: {} is {:.1} cm from {}, beyond his {} cm command range.",
                u.name, d, c.name, range
            ),
        ));
    }
    let cost = 1 + extra_cp;
    if cost > c.cp {
        return Err(RuleError::new(
            "BFS-RAL-2",
            format!("This rally costs {cost} CP; {} has {}.", c.name, c.cp),
        ));
    }
    Ok(cost)
}

/// A rally is a Morale test; a pass restores Good. A unit rallied from flight reforms at once or
/// the rally fails (BFS-RAL-4..6).
pub fn rally(
    game: &mut Game,
    unit: UnitId,
    by: CommanderId,
    extra_cp: u8,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let cost = check_rally(game, unit, by, extra_cp)?;
    game.commander_mut(by).cp -= cost;
    events.push(Event::CpSpent {
        commander: by,
        cp: cost,
        rule: "BFS-RAL-2".into(),
        reason: format!("rally {}", game.unit(unit).name),
    });
    rally_test(game, unit, extra_cp, events);
    Ok(())
}

/// The rally's Morale test and what follows it (BFS-RAL-4..6); the CP are paid already.
pub fn rally_test(game: &mut Game, unit: UnitId, extra_cp: u8, events: &mut Vec<Event>) {
    game.unit_mut(unit).flags.rally_attempted = true;
    let cause = MoraleCause::Rally { extra_cp };
    let roll = morale::morale_test(game, unit, &cause);
    let was = game.unit(unit).morale;
    if !roll.passed {
        events.push(morale::report(
            unit,
            TestKind::Rally,
            &cause,
            roll,
            "failed: no change".into(),
        ));
        return;
    }
    if was == MoraleLevel::Flight {
        match crate::flight::reform_after_rally(game, unit) {
            Ok(()) => {}
            Err(why) => {
                events.push(morale::report(
                    unit,
                    TestKind::Rally,
                    &cause,
                    roll,
                    format!("passed, but the rally fails: {why}"),
                ));
                return;
            }
        }
        game.unit_mut(unit).flags.rallied_from_flight = true;
    }
    let u = game.unit_mut(unit);
    u.morale = MoraleLevel::Good;
    events.push(morale::report(
        unit,
        TestKind::Rally,
        &cause,
        roll,
        "passed: the unit is in good order again".into(),
    ));
    events.push(Event::MoraleChanged {
        unit,
        from: was,
        to: MoraleLevel::Good,
        rule: "BFS-RAL-4".into(),
        reason: "rallied".into(),
    });
}

pub fn check_reorganize(game: &Game, unit: UnitId, by: CommanderId) -> Result<(), RuleError> {
    let acting = acting_side(game, "BFS-RAL-7")?;
    own_unit(game, unit, acting, "BFS-RAL-7")?;
    own_commander(game, by, acting, "BFS-RAL-7")?;
    crate::wagon::check_reorganize(game, unit)?;
    let u = game.unit(unit);
    let c = game.commander(by);
    if u.casualty_markers == 0 {
        return Err(RuleError::new(
            "BFS-RAL-7",
            format!("{} has no casualty markers to remove.", u.name),
        ));
    }
    if game.turn.number == 1 && u.pillage.is_some_and(|p| p.sp > 0) {
        return Err(RuleError::new(
            "BFS-SPC-28",
            format!(
                "{}'s losses while pillaging may not be reorganized in the first turn.",
                u.name
            ),
        ));
    }
    if u.morale != MoraleLevel::Good {
        return Err(RuleError::new(
            "BFS-RAL-7",
            format!("{} must be rallied before it can reorganise.", u.name),
        ));
    }
    if !authority::commanders_who_may_order(game, unit).contains(&by) {
        return Err(RuleError::new(
            "BFS-RAL-7",
            format!("{} is not one of {}'s commanders.", c.name, u.name),
        ));
    }
    let d = authority::distance_to_unit(game, by, unit);
    let range = authority::command_range_cm(game, by);
    if d > range + sandtable_geometry::tolerance::LIMIT_EPS {
        return Err(RuleError::new(
            "BFS-RAL-7",
            format!(
                "Out of range: {} is {:.1} cm from {}, beyond his {} cm range.",
                u.name, d, c.name, range
            ),
        ));
    }
    if c.cp < 1 {
        return Err(RuleError::new(
            "BFS-RAL-7",
            format!("{} has no command points left.", c.name),
        ));
    }
    Ok(())
}

/// One CP buys one Morale test; a pass removes one casualty marker (BFS-RAL-7).
pub fn reorganize(
    game: &mut Game,
    unit: UnitId,
    by: CommanderId,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    check_reorganize(game, unit, by)?;
    game.commander_mut(by).cp -= 1;
    events.push(Event::CpSpent {
        commander: by,
        cp: 1,
        rule: "BFS-RAL-7".into(),
        reason: format!("reorganise {}", game.unit(unit).name),
    });
    let cause = MoraleCause::Reorganize;
    let roll = morale::morale_test(game, unit, &cause);
    let passed = roll.passed;
    let outcome = if passed {
        "passed: one casualty marker removed"
    } else {
        "failed: the marker stays"
    };
    events.push(morale::report(
        unit,
        TestKind::Reorganize,
        &cause,
        roll,
        outcome.into(),
    ));
    if passed {
        game.unit_mut(unit).casualty_markers -= 1;
        events.push(Event::CasualtyMarkerRemoved { unit });
    }
    Ok(())
}

/// Checks a transfer: returns (received, distance) (BFS-CMD-7).
pub fn check_transfer(
    game: &Game,
    from: CommanderId,
    to: CommanderId,
    amount: u8,
) -> Result<(u8, f32), RuleError> {
    let acting = acting_side(game, "BFS-CMD-7")?;
    own_commander(game, from, acting, "BFS-CMD-7")?;
    own_commander(game, to, acting, "BFS-CMD-7")?;
    let (f, t) = (game.commander(from), game.commander(to));
    if from == to {
        return Err(RuleError::new(
            "BFS-CMD-7",
            "A commander cannot transfer points to himself.",
        ));
    }
    if f.attached_to.is_some() {
        return Err(RuleError::new(
            "BFS-CDR-13",
            format!("{} is attached to a unit and may not transfer CP.", f.name),
        ));
    }
    let subordinate = t.rank > f.rank
        && (authority::is_senior(f.rank) || (f.regiment.is_some() && f.regiment == t.regiment));
    if !subordinate {
        return Err(RuleError::new(
            "BFS-CMD-7",
            format!(
                "{} is not subordinate to {}: points go only down the chain of command.",
                t.name, f.name
            ),
        ));
    }
    if amount == 0 || amount > f.cp {
        return Err(RuleError::new(
            "BFS-CMD-7",
            format!("{} has {} CP; choose 1 to {} to send.", f.name, f.cp, f.cp),
        ));
    }
    let d = sandtable_geometry::distance::distance(&f.base, &t.base).unwrap_or(f32::INFINITY);
    let lost = authority::steps_beyond(
        d,
        authority::command_range_cm(game, from),
        authority::cost_step_cm(game, from),
    );
    Ok((amount.saturating_sub(lost), d))
}

pub fn transfer(
    game: &mut Game,
    from: CommanderId,
    to: CommanderId,
    amount: u8,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let (received, d) = check_transfer(game, from, to, amount)?;
    game.commander_mut(from).cp -= amount;
    let t = game.commander_mut(to);
    t.cp = t.cp.saturating_add(received);
    events.push(Event::CpTransferred {
        from,
        to,
        sent: amount,
        received,
        distance_cm: d,
    });
    Ok(())
}

pub fn check_end(game: &Game) -> Result<(), RuleError> {
    acting_side(game, "BFS-ORD-1").map(|_| ())
}

/// The acting player is done: the other player's Orders, or the Movement Phase (BFS-SEQ-2).
pub fn end_orders(game: &mut Game, events: &mut Vec<Event>) -> Result<(), RuleError> {
    let Phase::Orders { acting, second } = game.turn.phase else {
        return Err(RuleError::new("BFS-ORD-1", "It is not the Orders Phase."));
    };
    // Confusion strikes the side ending its turn-1 orders: it stays to order again (BFS-SCN-44).
    if crate::turn_one::confusion_strikes(game, acting, events) {
        return Ok(());
    }
    if second && crate::turn_one::confusion_window(game, events) {
        return Ok(());
    }
    if !second {
        begin_orders(game, acting.other(), true, events);
    } else {
        let first = game.turn.initiative.unwrap_or(Side::A);
        super::movement::begin_movement(game, first, false, events);
    }
    Ok(())
}
