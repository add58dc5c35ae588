//! The turn sequence (BFS-SEQ-2): one module per phase. `execute` routes each command to its
//! phase after checking it; `check` runs only the checks.

pub mod combat;
pub mod group_order;
pub mod initiative;
pub mod movement;
pub mod orders;
pub mod reorganization;
pub mod self_rally;

use crate::command::Command;
use crate::event::Event;
use crate::state::Game;
use sandtable_engine::RuleError;

/// Is the command legal now? Nothing changes.
pub fn check(game: &Game, cmd: &Command) -> Result<(), RuleError> {
    if matches!(game.turn.phase, crate::turn::Phase::GameOver) {
        return Err(RuleError::new("BFS-VIC-9", "The battle is over."));
    }
    names_exist(game, cmd)?;
    // Confusion's window is for changing orders, nothing else (BFS-SCN-44).
    if crate::turn_one::in_confusion_window(game)
        && crate::revision::prebattle_effects_12(game.info.options.rules_revision)
        && !matches!(
            cmd,
            Command::IssueOrder { .. } | Command::GroupOrder { .. } | Command::EndOrders
        )
    {
        return Err(RuleError::new(
            "BFS-SCN-44",
            "Confusion's extra Orders Phase is only for changing orders already given: give new orders (paid for) or end it.",
        ));
    }
    match cmd {
        Command::Bid { side, cp } => initiative::check_bid(game, *side, *cp),
        Command::ChooseInitiative { .. } => initiative::check_choose(game).map(|_| ()),
        Command::IssueOrder { unit, order, by } => {
            orders::check_issue(game, *unit, *order, *by).map(|_| ())
        }
        Command::Rally { unit, by, extra_cp } => {
            orders::check_rally(game, *unit, *by, *extra_cp).map(|_| ())
        }
        Command::Reorganize { unit, by } => orders::check_reorganize(game, *unit, *by),
        Command::TransferCp { from, to, amount } => {
            orders::check_transfer(game, *from, *to, *amount).map(|_| ())
        }
        Command::EndOrders => orders::check_end(game),
        Command::Move { unit, steps } => movement::check_move(game, *unit, steps).map(|_| ()),
        Command::Maneuver { unit, maneuvers } => {
            movement::check_maneuver(game, *unit, maneuvers).map(|_| ())
        }
        Command::Withdraw { unit } => movement::check_withdraw(game, *unit),
        Command::Hold { unit } => movement::check_hold(game, *unit),
        Command::Load { unit, ammunition } => {
            crate::artillery::check_load(game, *unit, *ammunition)
        }
        Command::HailOfArrows { unit } => crate::shooting::hail::check(game, *unit),
        Command::BurnWagons { unit } => crate::wagon::assault::check_burn(game, *unit),
        Command::OrdinaryFire { unit } => crate::shooting::ranks::check_hold(game, *unit),
        Command::RallyItself { unit } => self_rally::check(game, *unit),
        Command::IssueInstruction {
            commander,
            instruction,
            by,
        } => crate::instructions::check(game, *commander, *instruction, *by).map(|_| ()),
        Command::GroupOrder { units, order, by } => {
            group_order::check(game, units, *order, *by).map(|_| ())
        }
        Command::AimFire { unit, target, by } => {
            crate::shooting::aim::check(game, *unit, *target, *by)
        }
        Command::Steady { unit, by, cp } => crate::steady::check(game, *unit, *by, *cp),
        Command::HoldPursuit { unit, by } => crate::hold_pursuit::check(game, *unit, *by),
        Command::SpendEnthusiasm { unit } => crate::enthusiasm::check(game, *unit),
        Command::CloseOrderCharge { unit } => crate::elite_cavalry::check_close_charge(game, *unit),
        Command::Caracole { unit, distance } => {
            crate::caracole::plan(game, *unit, *distance).map(|_| ())
        }
        Command::FormBattalion { units, by } => {
            if units.is_empty() {
                return Err(RuleError::new("BFS-SPC-21", "A Battalion names its units."));
            }
            crate::battalion::check_form(game, units, *by).map(|_| ())
        }
        Command::DeclareCharge { unit, target, pay } => {
            movement::check_declare_charge(game, *unit, *target, *pay)
        }
        Command::React { unit, reaction } => {
            crate::charge::check_react(game, *unit, *reaction).map(|_| ())
        }
        Command::ChargeCommander { unit, commander } => {
            movement::check_charge_commander(game, *unit, *commander)
        }
        Command::CommanderReacts {
            commander,
            reaction,
        } => crate::commander_charge::check_react(game, *commander, *reaction),
        Command::MoveCommander { commander, steps } => {
            movement::check_move_commander(game, *commander, steps).map(|_| ())
        }
        Command::JoinUnit { commander, unit } => {
            crate::attachment::check_join(game, *commander, *unit)
        }
        Command::LeaveUnit { commander, steps } => {
            crate::attachment::check_leave(game, *commander, steps).map(|_| ())
        }
        Command::OccupyBuilding { unit, building, by } => {
            movement::check_occupy(game, *unit, *building, *by)
        }
        Command::LeaveBuilding { unit, wall, by } => {
            movement::check_leave_building(game, *unit, *wall, *by).map(|_| ())
        }
        Command::EndMovement => movement::check_end(game),
        Command::Continue => combat::check_continue(game).map(|_| ()),
    }
}

/// The side acting in an Orders Phase, or in a Movement Phase with no charge awaiting its
/// reactions: when CP are set aside or groups formed for what comes later in the turn.
pub(crate) fn orders_or_movement_side(game: &Game) -> Option<crate::ids::Side> {
    match &game.turn.phase {
        crate::turn::Phase::Orders { acting, .. } => Some(*acting),
        crate::turn::Phase::Movement {
            acting,
            charge: None,
            ..
        } => Some(*acting),
        _ => None,
    }
}

/// Which Phase or Stage the game is in, to see when one ends: the turn, the phase, its acting side
/// and the Combat stage.
fn stage_key(game: &Game) -> (u32, u8, u8, u8) {
    use crate::turn::{CombatStage, Phase};
    let t = game.turn.number;
    match &game.turn.phase {
        Phase::InitiativeBids { .. } | Phase::InitiativeChoice { .. } => (t, 0, 0, 0),
        Phase::Orders { acting, second } => (t, 1, acting.0, u8::from(*second)),
        Phase::Movement { acting, second, .. } => (t, 2, acting.0, u8::from(*second)),
        Phase::Combat(stage) => (
            t,
            3,
            match stage {
                CombatStage::DefendersFire => 0,
                CombatStage::CloseCombat => 1,
                CombatStage::ShootingAfterMovement => 2,
            },
            0,
        ),
        Phase::GameOver => (t, 4, 0, 0),
    }
}

/// Every unit, commander and side the command names is in this battle: the rules below look
/// them up by index, and a command may come from an untrusted save.
pub(crate) fn names_exist(game: &Game, cmd: &Command) -> Result<(), RuleError> {
    let (units, commanders, side) = cmd.names();
    if let Some(u) = units.iter().find(|u| u.index() >= game.units.len()) {
        return Err(RuleError::new(
            "GEN",
            format!("There is no unit #{} in this battle.", u.0),
        ));
    }
    if let Some(c) = commanders
        .iter()
        .find(|c| c.index() >= game.commanders.len())
    {
        return Err(RuleError::new(
            "GEN",
            format!("There is no commander #{} in this battle.", c.0),
        ));
    }
    if let Some(s) = side.filter(|s| s.0 > 1) {
        return Err(RuleError::new("GEN", format!("There is no side #{}.", s.0)));
    }
    Ok(())
}

/// Applies a command. An illegal one is refused and the game is left exactly as it was.
pub fn execute(game: &mut Game, cmd: &Command) -> Result<Vec<Event>, RuleError> {
    check(game, cmd)?;
    let before = stage_key(game);
    let mut events = Vec::new();
    let e = &mut events;
    match cmd {
        Command::Bid { side, cp } => initiative::bid(game, *side, *cp, e)?,
        Command::ChooseInitiative { keep } => initiative::choose(game, *keep, e)?,
        Command::IssueOrder { unit, order, by } => orders::issue(game, *unit, *order, *by, e)?,
        Command::Rally { unit, by, extra_cp } => orders::rally(game, *unit, *by, *extra_cp, e)?,
        Command::Reorganize { unit, by } => orders::reorganize(game, *unit, *by, e)?,
        Command::TransferCp { from, to, amount } => orders::transfer(game, *from, *to, *amount, e)?,
        Command::EndOrders => orders::end_orders(game, e)?,
        Command::Move { unit, steps } => movement::do_move(game, *unit, steps, e)?,
        Command::Maneuver { unit, maneuvers } => movement::do_maneuver(game, *unit, maneuvers, e)?,
        Command::Withdraw { unit } => movement::do_withdraw(game, *unit, e)?,
        Command::Hold { unit } => movement::do_hold(game, *unit, e)?,
        Command::Load { unit, ammunition } => crate::artillery::load(game, *unit, *ammunition, e)?,
        Command::HailOfArrows { unit } => crate::shooting::hail::declare(game, *unit, e)?,
        Command::BurnWagons { unit } => crate::wagon::assault::burn(game, *unit, e)?,
        Command::OrdinaryFire { unit } => crate::shooting::ranks::hold(game, *unit, e)?,
        Command::RallyItself { unit } => self_rally::rally(game, *unit, e)?,
        Command::IssueInstruction {
            commander,
            instruction,
            by,
        } => crate::instructions::give(game, *commander, *instruction, *by, e)?,
        Command::GroupOrder { units, order, by } => group_order::give(game, units, *order, *by, e)?,
        Command::FormBattalion { units, by } => crate::battalion::form(game, units, *by, e)?,
        Command::AimFire { unit, target, by } => {
            crate::shooting::aim::aim(game, *unit, *target, *by, e)?
        }
        Command::Steady { unit, by, cp } => crate::steady::declare(game, *unit, *by, *cp, e)?,
        Command::HoldPursuit { unit, by } => crate::hold_pursuit::declare(game, *unit, *by, e)?,
        Command::SpendEnthusiasm { unit } => crate::enthusiasm::declare(game, *unit, e)?,
        Command::CloseOrderCharge { unit } => {
            crate::elite_cavalry::declare_close_charge(game, *unit, e)?
        }
        Command::Caracole { unit, distance } => {
            crate::caracole::declare(game, *unit, *distance, e)?
        }
        Command::DeclareCharge { unit, target, pay } => {
            movement::declare_charge(game, *unit, *target, *pay, e)?
        }
        Command::React { unit, reaction } => crate::charge::react(game, *unit, *reaction, e)?,
        Command::ChargeCommander { unit, commander } => {
            movement::check_charge_commander(game, *unit, *commander)?;
            crate::commander_charge::declare(game, *unit, *commander, e)?
        }
        Command::CommanderReacts {
            commander,
            reaction,
        } => crate::commander_charge::react(game, *commander, *reaction, e)?,
        Command::MoveCommander { commander, steps } => {
            movement::do_move_commander(game, *commander, steps, e)?
        }
        Command::JoinUnit { commander, unit } => {
            crate::attachment::join(game, *commander, *unit, e)?
        }
        Command::LeaveUnit { commander, steps } => {
            crate::attachment::leave(game, *commander, steps, e)?
        }
        Command::OccupyBuilding { unit, building, by } => {
            movement::occupy(game, *unit, *building, *by, e)?
        }
        Command::LeaveBuilding { unit, wall, by } => {
            movement::leave_building(game, *unit, *wall, *by, e)?
        }
        Command::EndMovement => movement::end_movement(game, e)?,
        Command::Continue => combat::continue_combat(game, e)?,
    }
    crate::attachment::keep_with_units(game, &mut events);
    crate::attachment::make_way(game, &mut events);
    crate::succession::fill_vacancies(game, &mut events);
    crate::hide_crew::lose_hidden(game, &mut events);
    crate::dragoons::horses_lost(game, &mut events);
    if stage_key(game) != before {
        // The end of a Phase or Stage: Battalions lose the members that strayed (BFS-SPC-21).
        crate::battalion::lapse(game, &mut events);
    }
    crate::script::run(game, &mut events);
    Ok(events)
}
