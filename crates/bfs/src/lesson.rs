//! By Fire and Sword behind the engine's [`Teach`] seam: the names lesson files use for its
//! commands, events and phases (checked when a scenario loads), and the choices of the simple
//! players — the move that decides nothing, the script's standing orders, the scripted demo
//! player's fixed preferences.

use crate::authority;
use crate::command::{Command, MoveStep, Reaction};
use crate::event::Event;
use crate::narrate::units_in;
use crate::ruleset::Bfs;
use crate::state::{Game, OrderKind};
use crate::turn::Phase;
use sandtable_engine::Problem;
use sandtable_engine::scenario_script::{ScriptAction, ScriptRule};
use sandtable_engine::teach::{GoalParts, LessonNames, Teach};

/// Command names a goal may wait for.
pub const COMMANDS: &[&str] = &[
    "Bid",
    "ChooseInitiative",
    "IssueOrder",
    "Rally",
    "Reorganize",
    "TransferCp",
    "EndOrders",
    "Move",
    "Maneuver",
    "Withdraw",
    "Hold",
    "Load",
    "DeclareCharge",
    "React",
    "MoveCommander",
    "JoinUnit",
    "LeaveUnit",
    "OccupyBuilding",
    "LeaveBuilding",
    "EndMovement",
    "Continue",
    "ChargeCommander",
    "CommanderReacts",
    "HailOfArrows",
    "GroupOrder",
    "OrdinaryFire",
    "RallyItself",
    "IssueInstruction",
    "BurnWagons",
    "FormBattalion",
    "AimFire",
    "Steady",
    "HoldPursuit",
    "SpendEnthusiasm",
    "CloseOrderCharge",
    "Caracole",
];

/// Event names a goal may wait for.
pub const EVENTS: &[&str] = &[
    "InitiativeRolled",
    "OrdersRevealed",
    "Moved",
    "ChargeDeclared",
    "ChargeMoved",
    "Volley",
    "Melee",
    "CombatResolved",
    "Test",
    "Losses",
    "MoraleChanged",
    "Withdrew",
    "Fled",
    "UnitDestroyed",
    "ReservesArrived",
    "ObjectiveChanged",
    "GameOver",
    "WagonTaken",
];

/// Phase names a goal may wait for.
pub const PHASES: &[&str] = &["Initiative", "Orders", "Movement", "Combat", "GameOver"];

/// States a lesson's `State` goal may ask of a unit or commander.
pub const STATES: &[&str] = &[
    "Good",
    "Disorganized",
    "Flight",
    "Gone",
    "OnTable",
    "Ordered",
    "Initiative",
    "NoInitiative",
];

/// This turn's Initiative as seen from `side`: `Some(true)` when it holds it or is choosing
/// what to do with it (BFS-INI-4), `Some(false)` when the other side does, `None` while the
/// bids are still out.
fn initiative_of(game: &Game, side: crate::ids::Side) -> Option<bool> {
    match &game.turn.phase {
        Phase::InitiativeBids { .. } => None,
        Phase::InitiativeChoice { winner } => Some(*winner == side),
        _ => game.turn.initiative.map(|s| s == side),
    }
}

/// The side of the unit or commander a lesson names by its scenario id.
fn side_of(game: &Game, key: &str) -> Option<crate::ids::Side> {
    game.units
        .iter()
        .find(|u| u.key.eq_ignore_ascii_case(key))
        .map(|u| u.side)
        .or_else(|| {
            game.commanders
                .iter()
                .find(|c| c.key.eq_ignore_ascii_case(key))
                .map(|c| c.side)
        })
}

/// Is the unit or commander `key` in the named state? `None` for a key or state it does not
/// know. "Initiative" and "NoInitiative" are about its side this turn.
fn piece_is(game: &Game, key: &str, what: &str) -> Option<bool> {
    use crate::state::UnitStatus;
    use crate::vocab::MoraleLevel;
    let side = side_of(game, key)?;
    match what {
        "Initiative" => return Some(initiative_of(game, side) == Some(true)),
        "NoInitiative" => return Some(initiative_of(game, side) == Some(false)),
        _ => {}
    }
    if let Some(u) = game.units.iter().find(|u| u.key.eq_ignore_ascii_case(key)) {
        let on_table = u.status == UnitStatus::OnTable;
        return Some(match what {
            "Good" => on_table && u.morale == MoraleLevel::Good,
            "Disorganized" => on_table && u.morale == MoraleLevel::Disorganized,
            "Flight" => on_table && u.morale == MoraleLevel::Flight,
            "Gone" => matches!(u.status, UnitStatus::Destroyed | UnitStatus::Left),
            "OnTable" => on_table,
            // An order in force or placed face down this turn.
            "Ordered" => u.order.is_some() || u.pending_order.is_some(),
            _ => return None,
        });
    }
    let c = game
        .commanders
        .iter()
        .find(|c| c.key.eq_ignore_ascii_case(key))?;
    Some(match what {
        "Gone" => c.status != UnitStatus::OnTable,
        "OnTable" => c.status == UnitStatus::OnTable,
        _ => return None,
    })
}

/// An event's outcome for the unit or commander `key`: an Initiative roll "Won" or "Lost" by
/// its side (BFS-INI-3), a test "Passed" or "Failed", a volley that "Hit" or
/// "Missed", a combat "Won", "Lost" or "Drawn" by its side, a new Morale Level.
fn event_value_for(game: &Game, e: &Event, key: &str) -> Option<String> {
    match e {
        Event::InitiativeRolled { winner, .. } => {
            side_of(game, key).map(|s| if s == *winner { "Won" } else { "Lost" }.into())
        }
        // Only the unit's or commander's own test (a commander's test names no unit).
        Event::Test(t) => {
            let own = t
                .unit
                .is_some_and(|u| game.unit(u).key.eq_ignore_ascii_case(key))
                || t.commander.is_some_and(|c| {
                    game.commanders
                        .get(c.index())
                        .is_some_and(|c| c.key.eq_ignore_ascii_case(key))
                });
            own.then(|| if t.roll.passed { "Passed" } else { "Failed" }.into())
        }
        Event::Volley(v) => Some(if v.hits > 0 { "Hit" } else { "Missed" }.into()),
        Event::CombatResolved(r) => Some(
            match (r.winner, side_of(game, key)) {
                (None, _) => "Drawn",
                (Some(w), Some(s)) if w == s => "Won",
                (Some(_), Some(_)) => "Lost",
                (Some(_), None) => return None,
            }
            .into(),
        ),
        _ => event_value(e),
    }
}

/// The name of an event, as lesson files write it.
pub fn event_name(e: &Event) -> &'static str {
    match e {
        Event::InitiativeRolled { .. } => "InitiativeRolled",
        Event::OrdersRevealed { .. } => "OrdersRevealed",
        Event::Moved { .. } => "Moved",
        Event::ChargeDeclared { .. } => "ChargeDeclared",
        Event::ChargeMoved { .. } => "ChargeMoved",
        Event::Volley(_) => "Volley",
        Event::Melee(_) => "Melee",
        Event::CombatResolved(_) => "CombatResolved",
        Event::Test(_) => "Test",
        Event::Losses { .. } => "Losses",
        Event::MoraleChanged { .. } => "MoraleChanged",
        Event::Withdrew { .. } => "Withdrew",
        Event::Fled { .. } => "Fled",
        Event::UnitDestroyed { .. } => "UnitDestroyed",
        Event::ReservesArrived { .. } => "ReservesArrived",
        Event::ObjectiveChanged { .. } => "ObjectiveChanged",
        Event::GameOver(_) => "GameOver",
        Event::WagonTaken { .. } => "WagonTaken",
        _ => "",
    }
}

/// The name of a phase, as lesson files write it.
pub fn phase_name(p: &Phase) -> &'static str {
    match p {
        Phase::InitiativeBids { .. } | Phase::InitiativeChoice { .. } => "Initiative",
        Phase::Orders { .. } => "Orders",
        Phase::Movement { .. } => "Movement",
        Phase::Combat(_) => "Combat",
        Phase::GameOver => "GameOver",
    }
}

/// A command as a goal reads it: the pieces it is about, its target, its value.
fn command_parts(game: &Game, cmd: &Command) -> GoalParts {
    let unit = |u: crate::ids::UnitId| game.unit(u).key.clone();
    // A commander's key, if the id names one (a goal's command may come from a stale game).
    let commander =
        |c: crate::ids::CommanderId| game.commanders.get(c.index()).map(|c| c.key.clone());
    let (pieces, target, value): (Vec<String>, Option<String>, Option<String>) = match cmd {
        Command::Bid { cp, .. } => (vec![], None, Some(cp.to_string())),
        Command::ChooseInitiative { keep } => (
            vec![],
            None,
            Some(if *keep { "keep" } else { "hand over" }.into()),
        ),
        Command::IssueOrder { unit: u, order, .. } => {
            (vec![unit(*u)], None, Some(order.name().into()))
        }
        Command::IssueInstruction {
            commander: c,
            instruction,
            ..
        } => (
            commander(*c).into_iter().collect(),
            None,
            Some(instruction.name().into()),
        ),
        Command::GroupOrder { units, order, .. } => (
            units.iter().map(|u| unit(*u)).collect(),
            None,
            Some(order.name().into()),
        ),
        Command::FormBattalion { units, .. } => {
            (units.iter().map(|u| unit(*u)).collect(), None, None)
        }
        Command::AimFire {
            unit: u, target, ..
        } => (vec![unit(*u)], Some(unit(*target)), None),
        Command::Steady { unit: u, cp, .. } => (vec![unit(*u)], None, Some(cp.to_string())),
        Command::HoldPursuit { unit: u, .. }
        | Command::SpendEnthusiasm { unit: u }
        | Command::CloseOrderCharge { unit: u }
        | Command::Caracole { unit: u, .. } => (vec![unit(*u)], None, None),
        Command::HailOfArrows { unit: u }
        | Command::BurnWagons { unit: u }
        | Command::OrdinaryFire { unit: u }
        | Command::RallyItself { unit: u } => (vec![unit(*u)], None, None),
        Command::Rally { unit: u, .. } | Command::Reorganize { unit: u, .. } => {
            (vec![unit(*u)], None, None)
        }
        // A Special Maneuver's value is the first maneuver's name (`"Limber"`, `"Turn"`…).
        Command::Maneuver { unit: u, maneuvers } => (
            vec![unit(*u)],
            None,
            maneuvers.first().map(|m| {
                let name = format!("{m:?}");
                name.split([' ', '(', '{'])
                    .next()
                    .unwrap_or_default()
                    .to_string()
            }),
        ),
        Command::Move { unit: u, .. }
        | Command::Withdraw { unit: u }
        | Command::Hold { unit: u } => (vec![unit(*u)], None, None),
        Command::Load {
            unit: u,
            ammunition,
        } => (
            vec![unit(*u)],
            None,
            Some(crate::artillery::load_name(*ammunition).into()),
        ),
        Command::DeclareCharge {
            unit: u, target, ..
        } => (vec![unit(*u)], Some(unit(*target)), None),
        Command::ChargeCommander {
            unit: u,
            commander: c,
        } => (vec![unit(*u)], commander(*c), None),
        Command::CommanderReacts {
            commander: c,
            reaction,
        } => (
            commander(*c).into_iter().collect(),
            match reaction {
                crate::command::CommanderReaction::Join(u) => {
                    game.units.get(u.index()).map(|x| x.key.clone())
                }
                _ => None,
            },
            Some(
                match reaction {
                    crate::command::CommanderReaction::Stand => "Stand",
                    crate::command::CommanderReaction::BreakOff => "BreakOff",
                    crate::command::CommanderReaction::Join(_) => "Join",
                }
                .into(),
            ),
        ),
        Command::React { unit: u, reaction } => (
            vec![unit(*u)],
            None,
            Some(
                match reaction {
                    Reaction::Stand => "Stand",
                    Reaction::Countercharge => "Countercharge",
                    Reaction::HoldFire { .. } => "HoldFire",
                    Reaction::BreakOff => "BreakOff",
                    Reaction::RunBehindPikes { .. } => "RunBehindPikes",
                    Reaction::HideAmongPikes => "HideAmongPikes",
                }
                .into(),
            ),
        ),
        Command::MoveCommander { commander, .. } | Command::LeaveUnit { commander, .. } => (
            game.commanders
                .get(commander.index())
                .map(|c| c.key.clone())
                .into_iter()
                .collect(),
            None,
            None,
        ),
        Command::JoinUnit { commander, unit: u } => (
            game.commanders
                .get(commander.index())
                .map(|c| c.key.clone())
                .into_iter()
                .collect(),
            Some(unit(*u)),
            None,
        ),
        Command::OccupyBuilding { unit: u, .. } | Command::LeaveBuilding { unit: u, .. } => {
            (vec![unit(*u)], None, None)
        }
        Command::TransferCp { amount, .. } => (vec![], None, Some(amount.to_string())),
        Command::EndOrders | Command::EndMovement | Command::Continue => (vec![], None, None),
    };
    GoalParts {
        kind: cmd.kind(),
        pieces,
        target,
        value,
    }
}

/// The value an event goal may ask for: the new Morale Level, say.
fn event_value(e: &Event) -> Option<String> {
    match e {
        Event::MoraleChanged { to, .. } => Some(format!("{to:?}")),
        _ => None,
    }
}

/// The order named in a script must be one of Move, Charge, Defense.
fn check_script_names(script: &[ScriptRule]) -> Vec<Problem> {
    let mut out = Vec::new();
    for (i, rule) in script.iter().enumerate() {
        for a in &rule.then {
            if let ScriptAction::Orders { order, .. } = a
                && crate::script::order_named(order).is_none()
            {
                out.push(Problem::new(
                    format!("script rule #{}", i + 1),
                    format!("\"{order}\" is no order: use Move, Charge or Defense"),
                ));
            }
        }
    }
    out
}

/// Of `options`, the one that moves the game along without deciding anything: bid nothing, keep
/// the Initiative, end the phase, stand when charged; else a charge the rules insist on
/// (BFS-CHG-27) or holding a unit. For the passive opponent and for lesson guides.
pub fn waiting_choice(options: &[Command]) -> Option<Command> {
    let along = |c: &&Command| match c {
        Command::Bid { cp, .. } => *cp == 0,
        Command::ChooseInitiative { keep } => *keep,
        Command::EndOrders | Command::EndMovement | Command::Continue => true,
        Command::React { reaction, .. } => *reaction == Reaction::Stand,
        _ => false,
    };
    options
        .iter()
        .find(along)
        .or_else(|| {
            options
                .iter()
                .find(|c| matches!(c, Command::DeclareCharge { .. } | Command::Hold { .. }))
        })
        .or(options.first())
        .cloned()
}

/// The command that carries out a standing order of the script (`Game::standing_orders`) not
/// yet in force, if one is among `options`: whoever plays the side by computer issues them at
/// its Orders Phase before deciding anything else, paying CP as usual.
pub fn standing_order(view: &Game, options: &[Command]) -> Option<Command> {
    view.standing_orders.iter().find_map(|(unit, order)| {
        let u = view.unit(*unit);
        let in_force = u.pending_order.and_then(|p| p.kind).or(u.order) == Some(*order);
        if in_force {
            return None;
        }
        options
            .iter()
            .find(|c| matches!(c, Command::IssueOrder { unit: x, order: o, .. } if x == unit && o == order))
            .cloned()
    })
}

/// A simple, fully predictable choice with fixed preferences (cavalry charge, shooters defend,
/// the rest advance): the demo player of `--autoplay`, screenshots and scripted tests.
pub fn scripted_choice(state: &Game) -> Option<Command> {
    use sandtable_engine::Ruleset;
    let options = Bfs::candidates(state);
    if options.is_empty() {
        return None;
    }
    let pick = |want: &dyn Fn(&Command) -> bool| options.iter().find(|c| want(c)).cloned();
    let chosen = match &state.turn.phase {
        Phase::InitiativeBids { .. } => pick(&|c| matches!(c, Command::Bid { cp: 1, .. }))
            .or_else(|| pick(&|c| matches!(c, Command::Bid { cp: 0, .. }))),
        Phase::InitiativeChoice { .. } => {
            pick(&|c| matches!(c, Command::ChooseInitiative { keep: true }))
        }
        Phase::Orders { acting, .. } => {
            let acting = *acting;
            // Battalions first while they are free (BFS-SPC-21): they cost nothing and help.
            // Each unit without a new order then gets its preferred order, cheapest commander
            // first.
            let mut next = crate::battalion::offers(state, acting)
                .into_iter()
                .find(|(_, by)| by.is_none())
                .map(|(units, by)| Command::FormBattalion { units, by });
            for u in state
                .units_on_table(acting)
                .filter(|u| !u.flags.ordered && u.pending_order.is_none())
                .filter(|_| next.is_none())
            {
                let p = state.profile(u.profile);
                let want = if p.is_mounted() {
                    OrderKind::Charge
                } else if p.shooting > 0 {
                    OrderKind::Defense
                } else {
                    OrderKind::Move
                };
                let by = authority::commanders_who_may_order(state, u.id)
                    .into_iter()
                    .min_by_key(|c| (authority::order_cost(state, *c, u.id).cp, c.0));
                if let Some(by) = by {
                    let c = Command::IssueOrder {
                        unit: u.id,
                        order: want,
                        by,
                    };
                    if Bfs::legal(state, &c).is_ok() {
                        next = Some(c);
                        break;
                    }
                }
            }
            next.or(Some(Command::EndOrders))
        }
        Phase::Movement {
            charge: Some(_), ..
        } => pick(&|c| {
            matches!(
                c,
                Command::React {
                    reaction: Reaction::Countercharge,
                    ..
                }
            )
        })
        .or_else(|| {
            pick(&|c| {
                matches!(
                    c,
                    Command::React {
                        reaction: Reaction::Stand,
                        ..
                    }
                )
            })
        }),
        Phase::Movement { .. } => pick(&|c| matches!(c, Command::DeclareCharge { .. }))
            .or_else(|| {
                pick(&|c| {
                    matches!(c, Command::Move { steps, .. } if steps.len() == 1 && matches!(steps[0], MoveStep::Forward(_)))
                })
            })
            .or_else(|| pick(&|c| matches!(c, Command::Hold { .. })))
            .or_else(|| pick(&|c| matches!(c, Command::EndMovement))),
        Phase::Combat(_) => pick(&|c| matches!(c, Command::Continue)),
        Phase::GameOver => None,
    };
    chosen.or_else(|| options.first().cloned())
}

impl Teach for Bfs {
    const LESSON_NAMES: LessonNames = LessonNames {
        commands: COMMANDS,
        events: EVENTS,
        phases: PHASES,
        states: STATES,
    };

    fn command_parts(state: &Game, cmd: &Command) -> GoalParts {
        command_parts(state, cmd)
    }

    fn event_parts(state: &Game, event: &Event) -> GoalParts {
        GoalParts {
            kind: event_name(event),
            pieces: units_in(event)
                .into_iter()
                .filter_map(|u| state.units.get(u.index()).map(|x| x.key.clone()))
                .collect(),
            target: None,
            value: event_value(event),
        }
    }

    fn event_value_for(state: &Game, event: &Event, piece: &str) -> Option<String> {
        event_value_for(state, event, piece)
    }

    fn piece_is(state: &Game, piece: &str, what: &str) -> Option<bool> {
        piece_is(state, piece, what)
    }

    fn piece_name(state: &Game, piece: &str) -> Option<String> {
        state
            .units
            .iter()
            .find(|u| u.key.eq_ignore_ascii_case(piece))
            .map(|u| u.name.clone())
            .or_else(|| {
                state
                    .commanders
                    .iter()
                    .find(|c| c.key.eq_ignore_ascii_case(piece))
                    .map(|c| c.name.clone())
            })
    }

    fn phase_name(state: &Game) -> &'static str {
        phase_name(&state.turn.phase)
    }

    /// Commands that move the game along without being a choice worth correcting: a combat
    /// stage continued, a bid of nothing, the Initiative kept. A bid of CP is a choice: it
    /// spends points a lesson's later step may need.
    fn routine(cmd: &Command) -> bool {
        matches!(
            cmd,
            Command::Continue
                | Command::Bid { cp: 0, .. }
                | Command::ChooseInitiative { keep: true }
        )
    }

    fn waiting_choice(_view: &Game, options: &[Command]) -> Option<Command> {
        waiting_choice(options)
    }

    fn standing_order(view: &Game, options: &[Command]) -> Option<Command> {
        standing_order(view, options)
    }

    fn scripted_choice(view: &Game) -> Option<Command> {
        scripted_choice(view)
    }

    fn check_script_names(script: &[ScriptRule]) -> Vec<Problem> {
        check_script_names(script)
    }
}
