//! The rules' entry points: who must decide (the prompt), applying a command, and what a seat may
//! see. Commands are applied to a copy and kept only if every check passed, so a refused command
//! leaves the game as it was.

use crate::command::Command;
use crate::event::Event;
use crate::state::{Bid, Game, Phase, Wait};
use sandtable_engine::{Prompt, RuleError, Seat};

/// The deciding seat, if any.
pub fn deciding_seat(game: &Game) -> Option<Seat> {
    match game.phase {
        Phase::Bidding { bids } => bids.iter().position(|b| *b == Bid::None).map(|s| s as u8),
        Phase::ChooseSide { chooser } => Some(chooser),
        Phase::Activation(a) => Some(a.side),
        Phase::Leaders { side } => Some(side),
        Phase::CloseActions(Wait::Defence(i)) => {
            game.charges.get(i).map(|c| game.unit(c.target).side)
        }
        Phase::CloseActions(Wait::FallBack(i)) => {
            game.charges.get(i).map(|c| game.unit(c.charger).side)
        }
        Phase::Over => None,
    }
}

/// The step of the period as the phase bar names it.
pub fn phase_name(game: &Game) -> (&'static str, String) {
    let side = |s: u8| game.side_names[s as usize].clone();
    match game.phase {
        Phase::Bidding { .. } => ("Step 2: turn-point bid", "both sides bid in secret".into()),
        Phase::ChooseSide { chooser } => (
            "Step 2: choose A or D",
            format!("{} won the bid", side(chooser)),
        ),
        Phase::Activation(a) => (
            "Steps 3–7: activation",
            format!(
                "{} ({}) activates {}",
                side(a.side),
                if a.side == game.side_a { "A" } else { "D" },
                match a.current {
                    Some(u) => game.unit(u).name.clone(),
                    None if a.left == 1 => "one unit".into(),
                    None => format!("{} units", a.left),
                }
            ),
        ),
        Phase::Leaders { side: s } => ("Step 8: leaders", format!("{} moves its leaders", side(s))),
        Phase::CloseActions(_) => (
            "Step 9: close actions",
            "a close action waits for a decision".into(),
        ),
        Phase::Over => ("Battle over", String::new()),
    }
}

pub fn prompt(game: &Game) -> Prompt {
    let (phase, step) = phase_name(game);
    let seat = deciding_seat(game);
    let name = |s: u8| game.side_names[s as usize].clone();
    let expected = match game.phase {
        Phase::Bidding { .. } => format!(
            "{}: bid turn points in secret (NQ-SEQ-2); you have {}. The higher bid chooses to be A or D.",
            name(seat.unwrap_or(0)),
            game.turn_points[seat.unwrap_or(0) as usize]
        ),
        Phase::ChooseSide { chooser } => format!(
            "{}: be side A (activates two units to D's one) or side D (NQ-SEQ-2, NQ-SEQ-3).",
            name(chooser)
        ),
        Phase::Activation(a) => match a.current {
            Some(u) => format!(
                "{}: {} has {} action(s) left; act again or finish it (NQ-ACT-1).",
                name(a.side),
                game.unit(u).name,
                game.unit(u).actions_left
            ),
            None => format!(
                "{}: activate {} unit(s) not yet moved: move, fire, charge, or stand (NQ-SEQ-3).{}",
                name(a.side),
                a.left,
                if a.side == game.side_a && !a.a_done {
                    " A may end its activations once half its units have acted (NQ-SEQ-1 step 7)."
                } else {
                    ""
                }
            ),
        },
        Phase::Leaders { side } => format!(
            "{}: move leaders up to {}\" (NQ-MOV-5), then end step 8.",
            name(side),
            game.options.leader_move
        ),
        Phase::CloseActions(Wait::Defence(i)) => {
            let c = &game.charges[i];
            format!(
                "{}: {} is charged by {}: take a defence action (fire, face, change formation) or none (NQ-CA-1 step 4).",
                name(seat.unwrap_or(0)),
                game.unit(c.target).name,
                game.unit(c.charger).name
            )
        }
        Phase::CloseActions(Wait::FallBack(i)) => format!(
            "{}: {} failed to close: retreat, or halt 3\" short (NQ-CA-1 step 5).",
            name(seat.unwrap_or(0)),
            game.unit(game.charges[i].charger).name
        ),
        Phase::Over => game
            .ending
            .as_ref()
            .map_or(String::new(), |e| e.reason.clone()),
    };
    Prompt {
        turn: game.period,
        turn_limit: Some(game.periods),
        phase: phase.into(),
        step,
        seat,
        expected,
        secret: matches!(game.phase, Phase::Bidding { .. }),
    }
}

/// Applies `cmd` for the deciding seat.
fn apply(game: &mut Game, cmd: &Command) -> Result<Vec<Event>, RuleError> {
    let Some(seat) = deciding_seat(game) else {
        return Err(RuleError::new("G15", "the battle is over"));
    };
    // The rules look units and leaders up by index; a command may come from an untrusted save.
    let (units, leader) = cmd.names();
    if let Some(u) = units.iter().find(|u| u.0 as usize >= game.units.len()) {
        return Err(RuleError::new(
            "G1",
            format!("there is no unit #{} in this battle", u.0),
        ));
    }
    if let Some(l) = leader.filter(|l| l.0 as usize >= game.leaders.len()) {
        return Err(RuleError::new(
            "G5",
            format!("there is no leader #{} in this battle", l.0),
        ));
    }
    let mut ev = Vec::new();
    match cmd {
        Command::Bid { points } => crate::sequence::bid(game, seat, *points, &mut ev)?,
        Command::ChooseSide { be_a } => crate::sequence::choose_side(game, *be_a, &mut ev)?,
        Command::Move { unit, to, bearing } => {
            crate::actions::do_move(game, *unit, *to, *bearing, &mut ev)?
        }
        Command::Formation { unit, to } => crate::actions::do_formation(game, *unit, *to, &mut ev)?,
        Command::Face { unit, bearing } => crate::actions::do_face(game, *unit, *bearing, &mut ev)?,
        Command::Fire {
            unit,
            target,
            actions,
        } => crate::fire::do_fire(game, *unit, *target, *actions, &mut ev)?,
        Command::SolidShot { unit, aim, actions } => {
            crate::solid_shot::do_solid_shot(game, *unit, *aim, *actions, &mut ev)?
        }
        Command::Charge { unit, target } => {
            crate::charge::do_charge(game, *unit, *target, &mut ev)?
        }
        Command::Reform { unit } => crate::actions::do_reform(game, *unit, &mut ev)?,
        Command::Stand { unit } => crate::actions::do_stand(game, *unit, &mut ev)?,
        Command::FinishUnit => {
            let Phase::Activation(a) = game.phase else {
                return Err(RuleError::new("NQ-SEQ-3", "no unit is being activated"));
            };
            if a.current.is_none() {
                return Err(RuleError::new("NQ-SEQ-3", "no unit is being activated"));
            }
            crate::sequence::finish_unit(game, &mut ev)
        }
        Command::EndActivations => crate::sequence::end_activations(game, &mut ev)?,
        Command::MoveLeader { leader, to } => {
            crate::sequence::move_leader(game, seat, *leader, *to, &mut ev)?
        }
        Command::EndLeaders => crate::sequence::end_leaders(game, &mut ev)?,
        Command::Defend { choice } => crate::close_action::defend(game, *choice, &mut ev)?,
        Command::FallBack { halt } => crate::close_action::fall_back(game, *halt, &mut ev)?,
    }
    Ok(ev)
}

/// Applies a command, or refuses it leaving the game unchanged.
pub fn execute(game: &mut Game, cmd: &Command) -> Result<Vec<Event>, RuleError> {
    let mut next = game.clone();
    let events = apply(&mut next, cmd)?;
    *game = next;
    Ok(events)
}

/// Would the rules accept `cmd` now?
pub fn legal(game: &Game, cmd: &Command) -> Result<(), RuleError> {
    let mut copy = game.clone();
    apply(&mut copy, cmd).map(|_| ())
}

/// What `seat` may see: the other side's bid until both are in, the other side's standing orders
/// and the dice to come are removed.
pub fn view(game: &Game, seat: Seat) -> Game {
    let mut v = game.clone();
    if let Phase::Bidding { bids } = &mut v.phase {
        let other = (1 - seat.min(1)) as usize;
        if let Bid::Placed(_) = bids[other] {
            bids[other] = Bid::Hidden;
        }
    }
    v.standing_orders
        .retain(|(u, _)| game.unit(*u).side == seat);
    v.dice = sandtable_engine::Dice::from_seed(0);
    v
}
