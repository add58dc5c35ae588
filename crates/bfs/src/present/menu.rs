//! What the player on screen can do now, as menus: the bid and the Initiative choice with nothing
//! selected, orders, rallies and CP transfers in the Orders Phase, reactions to a charge, turns
//! and maneuvers in the Movement Phase. Every item is a rules command; the engine asks the rules
//! whether each is allowed, so a button is enabled exactly when the command is legal.

use super::table::{Thing, thing};
use crate::authority;
use crate::command::{Command, CommanderReaction, MoveStep, Reaction, SpecialManeuver, TurnKind};
use crate::ids::{CommanderId, Side, UnitId};
use crate::phases::initiative::max_bid;
use crate::phases::orders::{MAX_RALLY_EXTRA_CP, orders_are_free};
use crate::state::{Game, MoraleLevel, OrderKind, UnitStatus};
use crate::turn::{CombatStage, Phase};
use sandtable_engine::Seat;
use sandtable_engine::present::{Menu, MenuChoices, MenuItem, MenuParam, PieceId};

/// The menu param that picks which commander pays for orders.
pub const PAID_BY: &str = "paid_by";

/// The command that ends the current step ("Next"), if there is one.
pub fn next_step(view: &Game) -> Option<MenuItem<Command>> {
    let (cmd, label) = match &view.turn.phase {
        Phase::Orders { .. } => (Command::EndOrders, "End Orders"),
        Phase::Movement { charge: None, .. } => (Command::EndMovement, "End Movement"),
        Phase::Combat(stage) => (
            Command::Continue,
            match stage {
                CombatStage::DefendersFire => "Resolve Defender's Fire",
                CombatStage::CloseCombat => "Resolve Close Combat",
                CombatStage::ShootingAfterMovement => "Resolve Shooting after Movement",
            },
        ),
        _ => return None,
    };
    Some(MenuItem::new(label, cmd))
}

/// The commanders who may pay for an order to `unit`, cheapest first.
fn payers(game: &Game, unit: UnitId) -> Vec<CommanderId> {
    crate::phases::orders::who_may_place(game, unit)
}

pub fn menu(
    view: &Game,
    seat: Seat,
    selection: Option<PieceId>,
    plan: Option<&Command>,
    choices: &MenuChoices,
) -> Menu<Command> {
    let side = Side(seat.min(1));
    let selected = selection.and_then(|p| thing(view, p));
    let mut menu = Menu::default();
    match (&view.turn.phase, selected) {
        (Phase::InitiativeBids { .. }, _) => {
            let keys = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];
            for cp in 0..=max_bid(view, side) {
                let mut item = MenuItem::new(
                    format!("Bid {cp} CP in secret (+{} to the roll)", 2 * cp as u32),
                    Command::Bid { side, cp },
                );
                if let Some(k) = keys.get(cp as usize) {
                    item = item.key(*k);
                }
                menu.items.push(item);
            }
        }
        (Phase::InitiativeChoice { .. }, _) => {
            menu.items.push(
                MenuItem::new(
                    "Keep the Initiative (give orders and move first)",
                    Command::ChooseInitiative { keep: true },
                )
                .key('K'),
            );
            menu.items.push(
                MenuItem::new(
                    "Hand the Initiative over",
                    Command::ChooseInitiative { keep: false },
                )
                .key('L'),
            );
        }
        (Phase::Orders { .. }, Some(Thing::Unit(u)))
            if view.unit(u).side == side && view.unit(u).status == UnitStatus::OnTable =>
        {
            orders_menu(view, u, choices, &mut menu);
            battalion_items(view, u, &mut menu);
            steady_items(view, u, &mut menu);
        }
        (Phase::Orders { .. }, Some(Thing::Commander(c))) if view.commander(c).side == side => {
            instruction_menu(view, c, &mut menu);
            for to in view.commanders_on_table(side).filter(|t| t.id != c) {
                for amount in 1..=view.commander(c).cp {
                    menu.items.push(MenuItem::new(
                        format!("Send {amount} CP to {}", to.name),
                        Command::TransferCp {
                            from: c,
                            to: to.id,
                            amount,
                        },
                    ));
                }
            }
        }
        (
            Phase::Movement {
                charge:
                    Some(crate::turn::PendingCharge {
                        commander: Some(cm),
                        ..
                    }),
                ..
            },
            _,
        ) => {
            // A lone commander answers the charge on him (BFS-CDR-8).
            let cm = *cm;
            for reaction in crate::commander_charge::answers(view, cm) {
                let (label, key) = match reaction {
                    CommanderReaction::Stand => ("Stand his ground".to_string(), Some('S')),
                    CommanderReaction::BreakOff => (
                        "Break Off: ride away his Move (half if he has moved)".to_string(),
                        Some('B'),
                    ),
                    CommanderReaction::Join(u) => (
                        format!("Join {} (the charger may choose again)", view.unit(u).name),
                        None,
                    ),
                };
                let item = MenuItem::new(
                    label,
                    Command::CommanderReacts {
                        commander: cm,
                        reaction,
                    },
                );
                menu.items.push(match key {
                    Some(k) => item.key(k),
                    None => item,
                });
            }
        }
        (
            Phase::Movement {
                charge: Some(pc), ..
            },
            _,
        ) => {
            let reactor = pc.answering();
            let react = |reaction| Command::React {
                unit: reactor,
                reaction,
            };
            menu.items.push(
                MenuItem::new("Stand and receive the charge", react(Reaction::Stand)).key('S'),
            );
            menu.items.push(
                MenuItem::new(
                    "Countercharge (reveals a Charge order)",
                    react(Reaction::Countercharge),
                )
                .key('C'),
            );
            // Elite Cavalry may countercharge as a Close Order unit (BFS-SPC-10).
            let close = Command::CloseOrderCharge { unit: reactor };
            if crate::phases::check(view, &close).is_ok() {
                menu.items.push(MenuItem::new(
                    "First declare a Close Order charge: +2 Impetus, but no −1 to fire at it (BFS-SPC-10)",
                    close,
                ));
            }
            // A unit in a countercharge's path may only countercharge it or stand (BFS-AMV-1).
            let chained = !pc.reactions.is_empty();
            if !chained && crate::break_off::check(view, reactor).is_ok() {
                menu.items.push(
                    MenuItem::new(
                        format!(
                            "Break Off — ride {:.0} cm away, then a Skill test to face the enemy (BFS-SPC-16)",
                            crate::break_off::reach_cm(view, reactor)
                        ),
                        react(Reaction::BreakOff),
                    )
                    .key('B'),
                );
            }
            // Musketeers of a Battalion run behind their pikemen (BFS-SPC-22).
            if !chained && let Ok(pikes) = crate::run_behind::check(view, reactor, pc.charger) {
                let back = view.unit_profile(reactor).movement.basic * 0.5;
                let step = crate::run_behind::pikes_reach(view, pikes);
                let pikes = &view.unit(pikes).name;
                menu.items.push(MenuItem::new(
                    format!(
                        "Run Behind the Pikes — withdraw {back:.0} cm, {pikes} stand; the charger \
                         chooses again (BFS-SPC-22)"
                    ),
                    react(Reaction::RunBehindPikes { advance: false }),
                ));
                if step > 0.0 {
                    menu.items.push(MenuItem::new(
                        format!(
                            "Run Behind the Pikes — withdraw {back:.0} cm, {pikes} step {step:.1} cm \
                             forward; the charger chooses again (BFS-SPC-22)"
                        ),
                        react(Reaction::RunBehindPikes { advance: true }),
                    ));
                }
            }
            // A gun crew of a Battalion hides among its pikemen (BFS-SPC-23).
            if !chained && let Ok(pikes) = crate::hide_crew::check(view, reactor) {
                menu.items.push(MenuItem::new(
                    format!(
                        "Hide Among the Pikemen — the crew leaves the gun for {}; the charger \
                         chooses again (BFS-SPC-23)",
                        view.unit(pikes).name
                    ),
                    react(Reaction::HideAmongPikes),
                ));
            }
            for by in authority::commanders_who_may_order(view, reactor)
                .into_iter()
                .filter(|_| !chained)
            {
                menu.items.push(MenuItem::new(
                    format!(
                        "Hold fire for Reaction Fire — 1 CP from {}",
                        view.commander(by).name
                    ),
                    react(Reaction::HoldFire { by }),
                ));
            }
        }
        (Phase::Movement { .. }, Some(Thing::Unit(u)))
            if view.unit(u).side == side && view.unit(u).status == UnitStatus::OnTable =>
        {
            movement_menu(view, u, plan, &mut menu);
            battalion_items(view, u, &mut menu);
            steady_items(view, u, &mut menu);
        }
        (Phase::Movement { charge: None, .. }, Some(Thing::Commander(c)))
            if view.commander(c).side == side =>
        {
            commander_menu(view, c, &mut menu);
        }
        _ => {}
    }
    menu
}

/// Orders, rallies and reorganisation for one unit, paid by the commander chosen in the
/// "paid by" param (the cheapest by default).
fn orders_menu(view: &Game, u: UnitId, choices: &MenuChoices, menu: &mut Menu<Command>) {
    let who = payers(view, u);
    let Some(&cheapest) = who.first() else {
        return;
    };
    let chosen = choices
        .get(PAID_BY)
        .copied()
        .unwrap_or(0)
        .min(who.len() - 1);
    let by = who.get(chosen).copied().unwrap_or(cheapest);
    if who.len() > 1 {
        menu.params.push(MenuParam {
            id: PAID_BY.into(),
            label: "paid by".into(),
            options: who
                .iter()
                .map(|c| {
                    let cost = authority::order_cost(view, *c, u);
                    format!(
                        "{} ({} CP, {:.1} cm)",
                        view.commander(*c).name,
                        cost.cp,
                        cost.distance_cm
                    )
                })
                .collect(),
            chosen,
        });
    }
    let unit = view.unit(u);
    let cost = authority::order_cost(view, by, u);
    let payer = &view.commander(by).name;
    for (order, key) in [
        (OrderKind::Move, '1'),
        (OrderKind::Charge, '2'),
        (OrderKind::Defense, '3'),
    ] {
        // What this order costs: free in the first turn, for an Independent unit, and for
        // Commanded Musketeers' Defense order (BFS-ORD-15, BFS-SPC-14, BFS-SPC-5).
        let cp = crate::phases::orders::check_issue(view, u, order, by).map_or(cost.cp, |c| c.cp);
        let price = if crate::phases::orders::take_and_hold(view, u, order)
            && !orders_are_free(view)
        {
            "free, face up (Take and Hold)".to_string()
        } else if order == OrderKind::Charge && crate::coward::charge_surcharge_due(view, by, u) {
            format!(
                "{}, and 1 CP more when it is turned up (a coward, BFS-SCN-30)",
                price(view, cp)
            )
        } else {
            price(view, cp)
        };
        menu.items.push(
            MenuItem::new(
                format!(
                    "{} order — {price} ({payer}, {:.1} cm)",
                    order.name(),
                    cost.distance_cm
                ),
                Command::IssueOrder { unit: u, order, by },
            )
            .key(key),
        );
    }
    // The same order for the unit and its neighbours of one Regiment (BFS-OPT-3).
    let group = crate::phases::group_order::group_around(view, u, by);
    let names: Vec<&str> = group[1..]
        .iter()
        .map(|g| view.unit(*g).name.as_str())
        .collect();
    for order in [OrderKind::Move, OrderKind::Charge, OrderKind::Defense] {
        let cmd = Command::GroupOrder {
            units: group.clone(),
            order,
            by,
        };
        if let Ok(cp) = crate::phases::group_order::check(view, &group, order, by) {
            let price = price(view, cp);
            menu.items.push(MenuItem::new(
                format!(
                    "Group {} order with {} — {price} (BFS-OPT-3)",
                    order.name(),
                    names.join(", ")
                ),
                cmd,
            ));
        }
    }
    if unit.morale != MoraleLevel::Good {
        let itself = Command::RallyItself { unit: u };
        if crate::phases::check(view, &itself).is_ok() {
            menu.items.push(MenuItem::new(
                "Rally itself — free, no CP to help (Independent, BFS-SPC-14)",
                itself,
            ));
        }
        for extra in 0..=MAX_RALLY_EXTRA_CP {
            let mut item = MenuItem::new(
                format!("Rally — {} CP, Morale +{extra}", 1 + extra),
                Command::Rally {
                    unit: u,
                    by,
                    extra_cp: extra,
                },
            );
            if extra == 0 {
                item = item.key('R');
            }
            menu.items.push(item);
        }
    }
    if unit.casualty_markers > 0 {
        menu.items.push(
            MenuItem::new(
                "Reorganise — 1 CP for one Morale test",
                Command::Reorganize { unit: u, by },
            )
            .key('O'),
        );
    }
}

/// CP set aside for the unit's next Morale or Skill test this turn (BFS-CMD-8).
fn steady_items(view: &Game, u: UnitId, menu: &mut Menu<Command>) {
    for by in crate::hold_pursuit::options(view, u) {
        menu.items.push(MenuItem::new(
            format!(
                "Stop its pursuit this turn — 1 CP from {} if it wins (BFS-CC-29)",
                view.commander(by).name
            ),
            Command::HoldPursuit { unit: u, by },
        ));
    }
    // Elite Cavalry gives up its shelter from fire for the Close Order charge's Impetus.
    let close = Command::CloseOrderCharge { unit: u };
    if crate::phases::check(view, &close).is_ok() {
        menu.items.push(MenuItem::new(
            "Charge as a Close Order unit this turn: +2 Impetus, but no −1 to fire at it (BFS-SPC-10)",
            close,
        ));
    }
    if crate::enthusiasm::check(view, u).is_ok() {
        menu.items.push(MenuItem::new(
            "Enthusiasm: pass its next Morale test this turn outright, discarding the marker (BFS-SCN-27)",
            Command::SpendEnthusiasm { unit: u },
        ));
    }
    for (by, cp) in crate::steady::options(view, u) {
        menu.items.push(MenuItem::new(
            format!(
                "Steady: +{cp} to its next Morale or Skill test this turn — {cp} CP from {} when it comes (BFS-CMD-8)",
                view.commander(by).name
            ),
            Command::Steady { unit: u, by, cp },
        ));
    }
}

/// A Pike and Shot Battalion the unit could be part of now, around its block of pikemen
/// (BFS-SPC-21).
fn battalion_items(view: &Game, u: UnitId, menu: &mut Menu<Command>) {
    let side = view.unit(u).side;
    for (units, by) in crate::battalion::offers(view, side) {
        if !units.contains(&u) {
            continue;
        }
        let Ok(cp) = crate::battalion::check_form(view, &units, by) else {
            continue;
        };
        let names: Vec<&str> = units.iter().map(|m| view.unit(*m).name.as_str()).collect();
        let price = match by {
            None => "free in the first turn".to_string(),
            Some(c) => format!("{cp} CP ({})", view.commander(c).name),
        };
        menu.items.push(MenuItem::new(
            format!(
                "Form a Battalion: {} — {price} (BFS-SPC-21)",
                names.join(", ")
            ),
            Command::FormBattalion { units, by },
        ));
    }
}

/// What something paid in CP costs, as a menu says it: free in the first turn's orders
/// (BFS-ORD-15).
fn price(view: &Game, cp: u8) -> String {
    if orders_are_free(view) {
        "free".to_string()
    } else {
        format!("{cp} CP")
    }
}

/// A Regimental commander's Instruction at Division level, from each Senior commander who may
/// pay for it (BFS-ORD-11).
fn instruction_menu(view: &Game, c: CommanderId, menu: &mut Menu<Command>) {
    let seniors: Vec<CommanderId> = view
        .commanders
        .iter()
        .filter(|s| s.side == view.commander(c).side && authority::is_senior(s.rank))
        .map(|s| s.id)
        .collect();
    for by in seniors {
        for instruction in [OrderKind::Move, OrderKind::Charge, OrderKind::Defense] {
            if let Ok(cp) = crate::instructions::check(view, c, instruction, by) {
                let price = price(view, cp);
                menu.items.push(MenuItem::new(
                    format!(
                        "{} Instruction — {price} ({}, BFS-ORD-11)",
                        instruction.name(),
                        view.commander(by).name
                    ),
                    Command::IssueInstruction {
                        commander: c,
                        instruction,
                        by,
                    },
                ));
            }
        }
    }
}

/// Turns, maneuvers, withdrawing and holding for one unit in the Movement Phase. A moving unit's
/// maneuvers join its planned move.
/// A commander in the Movement Phase: join a unit within his Move, or leave the one he is with
/// (BFS-CDR-12, BFS-CDR-14). Moving him is done by dragging his base.
fn commander_menu(view: &Game, c: CommanderId, menu: &mut Menu<Command>) {
    let cm = view.commander(c);
    if let Some(with) = cm.attached_to {
        // He rides out behind the unit: from its middle, about face and clear its rear by 1 cm.
        let frame = crate::geo::unit_frame(view.unit(with));
        let out = frame.half.y + cm.base.half.y * 2.0 + 1.0;
        let steps = vec![
            MoveStep::Wheel {
                pivot: crate::command::PivotCorner::FrontLeft,
                degrees: 180.0,
            },
            MoveStep::Forward(out),
        ];
        if crate::attachment::check_leave(view, c, &steps).is_ok() {
            menu.items.push(
                MenuItem::new(
                    format!("Leave {} (ride out behind it)", view.unit(with).name),
                    Command::LeaveUnit {
                        commander: c,
                        steps,
                    },
                )
                .key('L'),
            );
        }
        return;
    }
    for u in view.units_on_table(cm.side) {
        if crate::attachment::check_join(view, c, u.id).is_ok() {
            menu.items.push(MenuItem::new(
                format!(
                    "Join {} (+1 die, +1 Morale; it moves no more this turn)",
                    u.name
                ),
                Command::JoinUnit {
                    commander: c,
                    unit: u.id,
                },
            ));
        }
    }
}

/// The change of order a unit's rules allow now, as a menu label and a move step
/// (BFS-MAN-17): disperse from close order, or close up into a Line from Open Order.
fn change_of_order(view: &Game, u: UnitId) -> Option<(String, MoveStep)> {
    if !crate::open_order::rules_apply(view) {
        return None;
    }
    let unit = view.unit(u);
    let p = view.unit_profile(u);
    if !crate::open_order::may_use_open(p) {
        return None;
    }
    match unit.formation {
        crate::state::Formation::OpenOrder if !crate::open_order::always_open(p) => {
            let files = unit.bases.len().min(if p.is_mounted() { 3 } else { 4 }) as u8;
            Some((
                format!("Close ranks into a Line of {files} files"),
                MoveStep::CloseRanks { files },
            ))
        }
        crate::state::Formation::Close { .. } => {
            Some(("Disperse into Open Order".into(), MoveStep::Disperse))
        }
        _ => None,
    }
}

/// Entering a building, or leaving the one the unit holds (BFS-TER-29, BFS-TER-31).
fn building_items(view: &Game, u: UnitId, menu: &mut Menu<Command>) {
    for cmd in crate::building::offers(view, u) {
        let label = match &cmd {
            Command::OccupyBuilding { building, by, .. } => format!(
                "Occupy {} (1 S-M; 1 CP from {})",
                crate::building::name(view, *building as usize),
                view.commander(*by).name
            ),
            Command::LeaveBuilding { wall, by, .. } => {
                let b = view.unit(u).garrison.unwrap_or(0) as usize;
                format!(
                    "Leave {} by its {} wall (1 CP from {}; no order this turn)",
                    crate::building::name(view, b),
                    crate::building::wall_name(view, b, *wall),
                    view.commander(*by).name
                )
            }
            _ => continue,
        };
        menu.items.push(MenuItem::new(label, cmd));
    }
}

/// A gun's load for this turn's shots, chosen before the Combat Phase (BFS-ART-3).
fn load_items(view: &Game, u: UnitId, menu: &mut Menu<Command>) {
    use crate::artillery::Ammunition;
    for load in [
        Some(Ammunition::Cannonball),
        Some(Ammunition::CaseShot),
        None,
    ] {
        if crate::artillery::check_load(view, u, load).is_ok() {
            menu.items.push(MenuItem::new(
                format!("Fire {} (free)", crate::artillery::load_name(load)),
                Command::Load {
                    unit: u,
                    ammunition: load,
                },
            ));
        }
    }
}

/// A target other than the closest for this turn's shooting, for 1 CP (BFS-SHO-10).
fn aim_items(view: &Game, u: UnitId, menu: &mut Menu<Command>) {
    for (target, by) in crate::shooting::aim::options(view, u) {
        menu.items.push(MenuItem::new(
            format!(
                "Shoot at {} this turn — 1 CP from {} (BFS-SHO-10)",
                view.unit(target).name,
                view.commander(by).name
            ),
            Command::AimFire {
                unit: u,
                target,
                by,
            },
        ));
    }
}

/// Dragoons mount or dismount: a Special Maneuver with a Defense order, the whole move with a Move
/// order (BFS-SPC-9).
fn dragoon_items(view: &Game, u: UnitId, menu: &mut Menu<Command>) {
    for (label, m, step) in [
        ("Mount", SpecialManeuver::Mount, MoveStep::Mount),
        (
            "Dismount, one base in four holding the horses",
            SpecialManeuver::Dismount { keep_horses: true },
            MoveStep::Dismount { keep_horses: true },
        ),
        (
            "Dismount and send the horses away (never to mount again)",
            SpecialManeuver::Dismount { keep_horses: false },
            MoveStep::Dismount { keep_horses: false },
        ),
    ] {
        let special = Command::Maneuver {
            unit: u,
            maneuvers: vec![m],
        };
        let moving = Command::Move {
            unit: u,
            steps: vec![step],
        };
        if crate::phases::check(view, &special).is_ok() {
            menu.items.push(MenuItem::new(
                format!("{label} (Special Maneuver, BFS-SPC-9)"),
                special,
            ));
        } else if crate::phases::check(view, &moving).is_ok() {
            menu.items.push(MenuItem::new(
                format!("{label} (the whole move, a Movement Maneuver, BFS-SPC-9)"),
                moving,
            ));
        }
    }
}

fn movement_menu(view: &Game, u: UnitId, plan: Option<&Command>, menu: &mut Menu<Command>) {
    load_items(view, u, menu);
    aim_items(view, u, menu);
    dragoon_items(view, u, menu);
    // A Rabble unit out of formation must Reform (BFS-SPC-25).
    if view.unit(u).flags.must_reform {
        for m in crate::rabble::reforms(view, u) {
            let SpecialManeuver::Reform { files, .. } = m else {
                continue;
            };
            let cmd = Command::Maneuver {
                unit: u,
                maneuvers: vec![m],
            };
            if crate::phases::check(view, &cmd).is_ok() {
                menu.items.push(MenuItem::new(
                    format!("Reform {files} wide, as Rabble must (both S-M, BFS-SPC-25)"),
                    cmd,
                ));
            }
        }
    }
    // Hold a Salvo or Ranked Fire this turn, so as not to reload the next (BFS-SPC-26, -29).
    let ordinary = Command::OrdinaryFire { unit: u };
    if crate::phases::check(view, &ordinary).is_ok() {
        menu.items.push(MenuItem::new(
            "Ordinary volleys this turn: no Salvo or Ranked Fire, no reloading next turn (free)",
            ordinary,
        ));
    }
    // Cavalry caracoles instead of moving (BFS-SPC-4).
    if let Some(distance) = crate::caracole::offered_distance(view, u) {
        menu.items.push(MenuItem::new(
            format!(
                "Caracole: the first rank rides {distance:.1} cm out and fires, the ranks behind fire after movement (BFS-SPC-4)"
            ),
            Command::Caracole { unit: u, distance },
        ));
    }
    // Bowmen hold their Defender's Fire for a hail of arrows (BFS-OPT-2).
    let hail = Command::HailOfArrows { unit: u };
    if crate::phases::check(view, &hail).is_ok() {
        menu.items.push(MenuItem::new(
            "Hail of arrows: hold Defender's Fire, +1 die a base after movement (no Break Off)",
            hail,
        ));
    }
    // The winner's choice over the wagons it beats (BFS-WAG-6).
    let burn = Command::BurnWagons { unit: u };
    if crate::phases::check(view, &burn).is_ok() {
        menu.items.push(MenuItem::new(
            "Destroy the wagons it beats this turn, rather than take them (BFS-WAG-6)",
            burn,
        ));
    }
    // An obstacle at the unit's front: cross it, as a Special or a Movement Maneuver.
    let cross = match view.unit(u).order {
        Some(OrderKind::Defense) => Some(Command::Maneuver {
            unit: u,
            maneuvers: vec![SpecialManeuver::CrossObstacle],
        }),
        Some(OrderKind::Move | OrderKind::Charge) => Some(Command::Move {
            unit: u,
            steps: vec![MoveStep::CrossObstacle],
        }),
        None => None,
    };
    if let Some(cmd) = cross.filter(|c| crate::phases::check(view, c).is_ok()) {
        // Friendly wagons ahead are crossed the same way (BFS-WAG-4).
        let label = match crate::wagon::crossing::wagon_at_front(view, u, &view.unit(u).bases) {
            Some(w)
                if crate::wagon::crossing::free_passage(view, u, w)
                    && matches!(cmd, Command::Maneuver { .. }) =>
            {
                format!("Pass through {} (1 S-M, no test)", view.unit(w).name)
            }
            Some(w) => format!(
                "Cross {} (an obstacle; a Skill test after, as through friends)",
                view.unit(w).name
            ),
            None => "Cross the obstacle ahead".to_string(),
        };
        menu.items.push(MenuItem::new(label, cmd).key('X'));
    }
    building_items(view, u, menu);
    let hold = || MenuItem::new("Stay where it is", Command::Hold { unit: u }).key('H');
    match view.unit(u).order {
        Some(OrderKind::Defense) => {
            for (label, m) in [
                (
                    "Turn to the left (1 S-M)",
                    SpecialManeuver::Turn(TurnKind::Left),
                ),
                (
                    "Turn to the right (1 S-M)",
                    SpecialManeuver::Turn(TurnKind::Right),
                ),
                ("About face (1 S-M)", SpecialManeuver::Turn(TurnKind::About)),
                (
                    "Widen the front by 1 base (1 S-M)",
                    SpecialManeuver::Frontage(1),
                ),
                (
                    "Narrow the front by 1 base (1 S-M)",
                    SpecialManeuver::Frontage(-1),
                ),
                (
                    "Step 2 cm forward (1 S-M)",
                    SpecialManeuver::ChangePosition {
                        dx: 0.0,
                        dy: 2.0,
                        degrees: 0.0,
                    },
                ),
                (
                    "Step 2 cm back (1 S-M)",
                    SpecialManeuver::ChangePosition {
                        dx: 0.0,
                        dy: -2.0,
                        degrees: 0.0,
                    },
                ),
            ] {
                menu.items.push(MenuItem::new(
                    label,
                    Command::Maneuver {
                        unit: u,
                        maneuvers: vec![m],
                    },
                ));
            }
            // A gun limbers to move at the horses' pace, or unlimbers to fire (BFS-ART-16).
            for (limber, m) in [
                (true, SpecialManeuver::Limber),
                (false, SpecialManeuver::Unlimber),
            ] {
                if let Ok(n) = crate::artillery::check_limber(view, u, limber) {
                    let label = format!(
                        "{} the gun ({n} S-M)",
                        if limber { "Limber" } else { "Unlimber" }
                    );
                    menu.items.push(
                        MenuItem::new(
                            label,
                            Command::Maneuver {
                                unit: u,
                                maneuvers: vec![m],
                            },
                        )
                        .key('L'),
                    );
                }
            }
            // Ammunition from the dead, under the Ammunition rules (BFS-AMM-4, BFS-AMM-7).
            let retrieve = Command::Maneuver {
                unit: u,
                maneuvers: vec![SpecialManeuver::RetrieveAmmunition],
            };
            if crate::phases::check(view, &retrieve).is_ok() {
                let test = match view.unit(u).supply {
                    Some(crate::ammunition::Supply::Test { .. }) => "Skill test at −2",
                    _ => "Skill test: 1 Ammunition Unit",
                };
                menu.items.push(MenuItem::new(
                    format!("Take ammunition from the dead (2 S-M, {test})"),
                    retrieve,
                ));
            }
            // A crew for an abandoned war wagon of its side (BFS-WAG-19).
            for m in crate::wagon::manning::options(view, u) {
                if let SpecialManeuver::ManWagon { train, wagon, by } = m {
                    let cmd = Command::Maneuver {
                        unit: u,
                        maneuvers: vec![m],
                    };
                    if crate::phases::check(view, &cmd).is_ok() {
                        menu.items.push(MenuItem::new(
                            format!(
                                "Man wagon #{} of {} (1 S-M, 1 CP from {}; it gives the crew's SP)",
                                wagon + 1,
                                view.unit(train).name,
                                view.commander(by).name
                            ),
                            cmd,
                        ));
                    }
                }
            }
            // A crew for an abandoned gun within 10 cm, either side's (BFS-MAN-21).
            for m in crate::gun_manning::options(view, u) {
                if let SpecialManeuver::ManGun { gun, by, .. } = m {
                    for toward_enemy in [true, false] {
                        let cmd = Command::Maneuver {
                            unit: u,
                            maneuvers: vec![SpecialManeuver::ManGun {
                                gun,
                                by,
                                toward_enemy,
                            }],
                        };
                        if crate::phases::check(view, &cmd).is_ok() {
                            menu.items.push(MenuItem::new(
                                format!(
                                    "Man the abandoned {}, facing {} (1 S-M, 1 CP from {}; it gives the gun's SP)",
                                    view.unit(gun).name,
                                    if toward_enemy {
                                        "the nearest enemy"
                                    } else {
                                        "as this unit faces"
                                    },
                                    view.commander(by).name
                                ),
                                cmd,
                            ));
                        }
                    }
                }
            }
            // A gun crew hiding among these pikemen goes back to its gun (BFS-SPC-23).
            for m in crate::hide_crew::options(view, u) {
                if let SpecialManeuver::ReturnCrew { gun, by } = m {
                    let cmd = Command::Maneuver {
                        unit: u,
                        maneuvers: vec![m],
                    };
                    if crate::phases::check(view, &cmd).is_ok() {
                        menu.items.push(MenuItem::new(
                            format!(
                                "Send the crew of {} back to its gun (1 S-M, 1 CP from {})",
                                view.unit(gun).name,
                                view.commander(by).name
                            ),
                            cmd,
                        ));
                    }
                }
            }
            // A War Wagon Train connects for defence (BFS-WAG-14).
            let connect = Command::Maneuver {
                unit: u,
                maneuvers: vec![SpecialManeuver::ConnectWagons],
            };
            if crate::phases::check(view, &connect).is_ok() {
                menu.items.push(MenuItem::new(
                    "Connect the wagons (2 S-M): 5 cm moves from now on, no march",
                    connect,
                ));
            }
            // Ammunition from the side's ammunition wagons (BFS-AMM-5, BFS-AMM-8, BFS-WAG-11).
            for w in crate::wagon::supply::wagons_in_reach(view, u) {
                let take = Command::Maneuver {
                    unit: u,
                    maneuvers: vec![SpecialManeuver::TakeAmmunition { wagon: w }],
                };
                if crate::phases::check(view, &take).is_ok() {
                    let (cost, gain) = match view.unit(u).supply {
                        Some(crate::ammunition::Supply::Test { .. }) => {
                            ("2 S-M", "ammunition back")
                        }
                        _ => ("1 S-M", "+3 Ammunition Units"),
                    };
                    menu.items.push(MenuItem::new(
                        format!(
                            "Take ammunition from {} ({cost}, {gain}; a 0 risks an explosion)",
                            view.unit(w).name
                        ),
                        take,
                    ));
                }
            }
            // Portable obstacles it carries (BFS-OBS-3, -6, -9).
            if let Some(c) = view.unit(u).carries {
                let cmd = Command::Maneuver {
                    unit: u,
                    maneuvers: vec![SpecialManeuver::SetUpObstacles],
                };
                if crate::phases::check(view, &cmd).is_ok() {
                    menu.items.push(MenuItem::new(
                        format!(
                            "{} {} in front ({} S-M)",
                            if c.kind == crate::portable::PortableKind::Caltrops {
                                "Scatter the"
                            } else {
                                "Set up the"
                            },
                            c.kind.name(),
                            c.kind.set_up_maneuvers()
                        ),
                        cmd,
                    ));
                }
            }
            let clear = Command::Maneuver {
                unit: u,
                maneuvers: vec![SpecialManeuver::ClearObstacles],
            };
            if let Ok(c) = crate::portable::check_clear(view, u) {
                let what = if c.maneuvers == 2 {
                    "Clear the caltrops nearby (2 S-M)"
                } else if c.carry_away {
                    "Take up our chevaux de frise (1 S-M)"
                } else {
                    "Destroy the chevaux de frise it touches (1 S-M)"
                };
                if crate::phases::check(view, &clear).is_ok() {
                    menu.items.push(MenuItem::new(what, clear));
                }
            }
            // Reform about the middle of the front, facing another way (BFS-MAN-13): offered
            // where the rules allow it.
            let files = match view.unit(u).formation {
                crate::state::Formation::Close { files } => files,
                _ => view.unit(u).bases.len().min(3) as u8,
            };
            for (label, degrees) in [
                ("Reform facing left (2 S-M, no shooting)", 90.0),
                ("Reform facing right (2 S-M, no shooting)", -90.0),
                ("Reform facing about (2 S-M, no shooting)", 180.0),
            ] {
                let cmd = Command::Maneuver {
                    unit: u,
                    maneuvers: vec![SpecialManeuver::Reform { files, degrees }],
                };
                if crate::phases::check(view, &cmd).is_ok() {
                    menu.items.push(MenuItem::new(label, cmd));
                }
            }
            if let Some((label, m)) = change_of_order(view, u) {
                let m = match m {
                    MoveStep::CloseRanks { files } => SpecialManeuver::CloseRanks { files },
                    _ => SpecialManeuver::Disperse,
                };
                menu.items.push(MenuItem::new(
                    format!("{label} (1 S-M)"),
                    Command::Maneuver {
                        unit: u,
                        maneuvers: vec![m],
                    },
                ));
            }
            menu.items.push(
                MenuItem::new(
                    "Stay and keep both maneuvers for fire",
                    Command::Hold { unit: u },
                )
                .key('H'),
            );
        }
        None => {
            menu.items.push(
                MenuItem::new(
                    "Withdraw half a Move towards your table edge",
                    Command::Withdraw { unit: u },
                )
                .key('W'),
            );
            menu.items.push(hold());
        }
        Some(order @ (OrderKind::Move | OrderKind::Charge)) => {
            let open = view.unit(u).formation == crate::state::Formation::OpenOrder
                && crate::open_order::rules_apply(view);
            let elite = crate::elite_cavalry::moves_base_by_base(view, u);
            menu.hint = Some(
                if elite {
                    "Elite Cavalry: drag the unit any way; it turns, wheels and re-forms without maneuvers, each base within its Move, and ends in a Line or Column (BFS-SPC-10)."
                } else if open {
                    "Open Order: drag the unit any way, sideways, diagonally or back at full speed; each base counts the path of its corners (BFS-OO-3)."
                } else if order == OrderKind::Charge {
                    "Click an enemy to charge it (BFS-CHG-2), or drag the unit forward or back and drag a front corner to wheel."
                } else {
                    "Drag the unit forward or back; drag a front corner to wheel about the other (BFS-MOV-14)."
                }
                .into(),
            );
            // A lone enemy commander who is its closest target (BFS-CDR-7).
            if order == OrderKind::Charge {
                for c in crate::commander_charge::targets(view, u) {
                    menu.items.push(MenuItem::new(
                        format!(
                            "Charge {} (a lone commander, BFS-CDR-7)",
                            view.commander(c).name
                        ),
                        Command::ChargeCommander {
                            unit: u,
                            commander: c,
                        },
                    ));
                }
            }
            let steps_so_far = match plan {
                Some(Command::Move { unit, steps }) if *unit == u => steps.clone(),
                _ => Vec::new(),
            };
            let mut choices: Vec<(String, MoveStep)> = if elite {
                vec![
                    ("Turn left (free)".into(), MoveStep::Turn(TurnKind::Left)),
                    ("Turn right (free)".into(), MoveStep::Turn(TurnKind::Right)),
                    ("About face (free)".into(), MoveStep::Turn(TurnKind::About)),
                    ("Narrow the front (free)".into(), MoveStep::Frontage(-1)),
                    ("Widen the front (free)".into(), MoveStep::Frontage(1)),
                ]
            } else if open {
                vec![
                    (
                        "Every base turns left (free)".into(),
                        MoveStep::Turn(TurnKind::Left),
                    ),
                    (
                        "Every base turns right (free)".into(),
                        MoveStep::Turn(TurnKind::Right),
                    ),
                    (
                        "Every base turns about (free)".into(),
                        MoveStep::Turn(TurnKind::About),
                    ),
                ]
            } else {
                vec![
                    (
                        "Turn left (maneuver)".into(),
                        MoveStep::Turn(TurnKind::Left),
                    ),
                    (
                        "Turn right (maneuver)".into(),
                        MoveStep::Turn(TurnKind::Right),
                    ),
                    (
                        "About face (maneuver)".into(),
                        MoveStep::Turn(TurnKind::About),
                    ),
                    ("Narrow the front (maneuver)".into(), MoveStep::Frontage(-1)),
                    ("Widen the front (maneuver)".into(), MoveStep::Frontage(1)),
                ]
            };
            // Chevaux de frise and caltrops go up as a move's last step (BFS-OBS-6, BFS-OBS-9).
            if let Some(c) = view
                .unit(u)
                .carries
                .filter(|c| c.kind != crate::portable::PortableKind::Kobylica)
            {
                choices.push((
                    format!("Set up the {} (maneuver, ends the move)", c.kind.name()),
                    MoveStep::SetUpObstacles,
                ));
            }
            // Marching is the whole move: offered before the first step (BFS-AMV-2).
            if steps_so_far.is_empty() && order == OrderKind::Move {
                let bonus = crate::march::bonus_cm(view.unit_profile(u));
                choices.push((
                    format!("March (+{bonus:.0} cm, open ground and roads, no shooting this turn)"),
                    MoveStep::March,
                ));
            }
            // A Column may follow a bend instead of wheeling (BFS-AMV-4).
            choices.extend(crate::column_bend::offers(view, u, &steps_so_far));
            if let Some((label, step)) = change_of_order(view, u) {
                // Dispersing opens a move, closing up ends it (BFS-MAN-17/18).
                let fits = match step {
                    MoveStep::Disperse => steps_so_far.is_empty(),
                    _ => true,
                };
                if fits {
                    choices.push((format!("{label} (maneuver)"), step));
                }
            }
            for (label, step) in choices {
                let mut steps = steps_so_far.clone();
                steps.push(step);
                menu.items
                    .push(MenuItem::new(label, Command::Move { unit: u, steps }).plan());
            }
            menu.items.push(hold());
        }
    }
}
