//! The Napoleonic ruleset behind the engine's [`Teach`] seam: the names lesson files use for its
//! commands, events and phases, and the choices of the simple players (the move that decides
//! nothing, the script's standing orders, a fixed demo choice).

use crate::command::Command;
use crate::event::Event;
use crate::ruleset::Napoleonic;
use crate::state::{Defence, Game, Phase, Wait};
use sandtable_engine::Problem;
use sandtable_engine::scenario_script::{ScriptAction, ScriptRule};
use sandtable_engine::teach::{GoalParts, LessonNames, Teach};

/// Phase names a goal may wait for.
pub const PHASES: &[&str] = &[
    "Bid",
    "ChooseSide",
    "Activation",
    "Leaders",
    "CloseActions",
    "Over",
];

/// The standing orders a script may give the computer's units.
pub const ORDERS: &[&str] = &["Hold", "Advance", "Attack"];

pub fn phase_name(game: &Game) -> &'static str {
    match game.phase {
        Phase::Bidding { .. } => "Bid",
        Phase::ChooseSide { .. } => "ChooseSide",
        Phase::Activation(_) => "Activation",
        Phase::Leaders { .. } => "Leaders",
        Phase::CloseActions(_) => "CloseActions",
        Phase::Over => "Over",
    }
}

fn command_parts(game: &Game, cmd: &Command) -> GoalParts {
    let key = |u: crate::state::UnitId| game.units.get(u.0 as usize).map(|x| x.key.clone());
    let mut parts = GoalParts {
        kind: cmd.kind(),
        ..GoalParts::default()
    };
    if let Some(u) = cmd.unit().and_then(key) {
        parts.pieces.push(u);
    }
    match cmd {
        Command::Bid { points } => parts.value = Some(points.to_string()),
        Command::ChooseSide { be_a } => parts.value = Some(if *be_a { "A" } else { "D" }.into()),
        // A volley's value is the actions it takes ("1" or "2", NQ-ACT-1).
        Command::Fire {
            target, actions, ..
        } => {
            parts.target = key(*target);
            parts.value = Some(actions.to_string());
        }
        Command::Charge { target, .. } => parts.target = key(*target),
        Command::Formation { to, .. } => parts.value = Some(format!("{to:?}")),
        Command::MoveLeader { leader, .. } => {
            if let Some(l) = game.leaders.get(leader.0 as usize) {
                parts.pieces.push(l.key.clone());
            }
        }
        Command::Defend { choice } => parts.value = Some(format!("{choice:?}")),
        Command::FallBack { halt } => {
            parts.value = Some(if *halt { "Halt" } else { "Retreat" }.into())
        }
        _ => {}
    }
    parts
}

fn event_parts(game: &Game, e: &Event) -> GoalParts {
    let key = |u: crate::state::UnitId| game.units.get(u.0 as usize).map(|x| x.key.clone());
    let mut parts = GoalParts {
        kind: e.kind(),
        ..GoalParts::default()
    };
    let (unit, target) = match e {
        Event::Volley { unit, target, .. } | Event::Charged { unit, target, .. } => {
            (Some(*unit), Some(*target))
        }
        Event::Melee {
            charger, target, ..
        } => (Some(*charger), Some(*target)),
        Event::Activated { unit }
        | Event::Stood { unit }
        | Event::Moved { unit, .. }
        | Event::FormationChanged { unit, .. }
        | Event::Faced { unit, .. }
        | Event::SolidShot { unit, .. }
        | Event::MoraleCheck { unit, .. }
        | Event::Casualties { unit, .. }
        | Event::RiddenDown { unit, .. }
        | Event::Retreated { unit, .. }
        | Event::Routed { unit }
        | Event::Disordered { unit }
        | Event::Reformed { unit, .. }
        | Event::FatigueChanged { unit, .. } => (Some(*unit), None),
        _ => (None, None),
    };
    parts.pieces.extend(unit.and_then(key));
    parts.target = target.and_then(key);
    parts.value = match e {
        Event::MoraleCheck { passed, .. } => Some(if *passed { "passed" } else { "failed" }.into()),
        Event::SideChosen { side_a } => Some(game.side_names[*side_a as usize].clone()),
        Event::FatigueChanged { level, .. } => Some(format!("{level:?}")),
        _ => None,
    };
    parts
}

/// The command carrying out a unit's standing order, if one is among `options`.
fn standing_order(view: &Game, options: &[Command]) -> Option<Command> {
    let Phase::Activation(a) = view.phase else {
        return None;
    };
    for (unit, order) in &view.standing_orders {
        let u = view.unit(*unit);
        if u.side != a.side || (u.marks.moved && a.current != Some(*unit)) || !u.present() {
            continue;
        }
        let mine = options.iter().filter(|c| c.unit() == Some(*unit));
        let pick = match order.as_str() {
            "Hold" => options
                .iter()
                .find(|c| matches!(c, Command::Fire { unit: x, actions: 1, .. } | Command::SolidShot { unit: x, actions: 1, .. } if x == unit))
                .or_else(|| options.iter().find(|c| matches!(c, Command::Stand { unit: x } if x == unit)))
                .or_else(|| options.iter().find(|c| matches!(c, Command::FinishUnit) && a.current == Some(*unit))),
            "Attack" => options
                .iter()
                .find(|c| matches!(c, Command::Charge { unit: x, .. } if x == unit))
                .or_else(|| options.iter().find(|c| matches!(c, Command::Fire { unit: x, .. } if x == unit)))
                .or_else(|| mine.clone().find(|c| matches!(c, Command::Move { .. }))),
            _ => options
                .iter()
                .find(|c| matches!(c, Command::Fire { unit: x, .. } if x == unit))
                .or_else(|| mine.clone().find(|c| matches!(c, Command::Move { .. }))),
        };
        if pick.is_some() {
            return pick.cloned();
        }
    }
    None
}

impl Teach for Napoleonic {
    const LESSON_NAMES: LessonNames = LessonNames {
        commands: Command::KINDS,
        events: Event::KINDS,
        phases: PHASES,
        states: &["Good", "Disordered", "Retreat", "Routed", "Gone"],
    };

    /// A unit's standing (NQ-MOR), by name.
    fn piece_is(state: &Game, piece: &str, what: &str) -> Option<bool> {
        use crate::vocab::Standing;
        let u = state
            .units
            .iter()
            .find(|u| u.key.eq_ignore_ascii_case(piece))?;
        Some(match what {
            "Good" => u.standing == Standing::Good,
            "Disordered" => u.standing == Standing::Disordered,
            "Retreat" => matches!(u.standing, Standing::Retreat { .. }),
            "Routed" => u.standing == Standing::Routed,
            "Gone" => u.standing == Standing::Gone,
            _ => return None,
        })
    }

    fn piece_name(state: &Game, piece: &str) -> Option<String> {
        state
            .units
            .iter()
            .find(|u| u.key.eq_ignore_ascii_case(piece))
            .map(|u| u.name.clone())
    }

    fn command_parts(state: &Game, cmd: &Command) -> GoalParts {
        command_parts(state, cmd)
    }

    fn event_parts(state: &Game, event: &Event) -> GoalParts {
        event_parts(state, event)
    }

    fn phase_name(state: &Game) -> &'static str {
        phase_name(state)
    }

    fn routine(cmd: &Command) -> bool {
        matches!(
            cmd,
            Command::FinishUnit | Command::EndLeaders | Command::EndActivations
        )
    }

    /// Bid nothing, take side A, stand, end the step, keep the actions, halt.
    fn waiting_choice(_view: &Game, options: &[Command]) -> Option<Command> {
        let along = |c: &&Command| match c {
            Command::Bid { points } => *points == 0,
            Command::ChooseSide { be_a } => *be_a,
            Command::Stand { .. } | Command::FinishUnit | Command::EndLeaders => true,
            Command::Defend { choice } => *choice == Defence::None,
            Command::FallBack { halt } => *halt,
            _ => false,
        };
        options.iter().find(along).or(options.first()).cloned()
    }

    fn standing_order(view: &Game, options: &[Command]) -> Option<Command> {
        standing_order(view, options)
    }

    /// A fixed choice for demos: the first candidate that is not a stand-still, or the waiting
    /// choice.
    fn scripted_choice(view: &Game) -> Option<Command> {
        let options = crate::candidates::candidates(view);
        if let Phase::CloseActions(Wait::Defence(_)) = view.phase {
            return Self::waiting_choice(view, &options);
        }
        options
            .iter()
            .find(|c| matches!(c, Command::Fire { .. }))
            .or_else(|| options.iter().find(|c| matches!(c, Command::Move { .. })))
            .cloned()
            .or_else(|| Self::waiting_choice(view, &options))
    }

    fn check_script_names(script: &[ScriptRule]) -> Vec<Problem> {
        let mut out = Vec::new();
        for (i, rule) in script.iter().enumerate() {
            for a in &rule.then {
                if let ScriptAction::Orders { order, .. } = a
                    && !ORDERS.contains(&order.as_str())
                {
                    out.push(Problem::new(
                        format!("script rule #{}", i + 1),
                        format!(
                            "\"{order}\" is no standing order: use {}",
                            ORDERS.join(", ")
                        ),
                    ));
                }
            }
        }
        out
    }
}
