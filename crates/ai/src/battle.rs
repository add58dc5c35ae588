//! A whole battle between two computer players, as the tests and benches play it, for any
//! ruleset with an [`Evaluate`].

use crate::evaluate::Evaluate;
use crate::player::{AiPlayer, PlayerKind};
use sandtable_engine::present::Outcome;
use sandtable_engine::{Dice, RuleError, Ruleset, Session, Teach};

/// Most commands one battle may take before it is stopped as stuck (it never should be).
pub const COMMAND_LIMIT: usize = 20_000;

/// The seed of each seat's player, derived from the battle's seed so that the two players never
/// share a sequence.
pub fn seat_seeds(seed: u64) -> [u64; 2] {
    [seed.wrapping_mul(31) ^ 1, seed.wrapping_mul(37) ^ 2]
}

/// Plays a battle to its end. Each seat's player sees only its own view, and every command goes
/// through the session, so an illegal one is an error here, never a silent skip.
pub fn play<R: Ruleset + Teach, E: Evaluate<R> + 'static>(
    setup: R::Setup,
    seed: u64,
    players: [PlayerKind; 2],
) -> Result<Session<R>, String> {
    let mut session = Session::<R>::new(setup, seed)?;
    drive::<R, E, _>(
        &mut session,
        |s| s.state(),
        |s, cmd| s.submit(cmd).map(|_| ()),
        seed,
        players,
    )?;
    Ok(session)
}

/// Plays on from a position (a save's, say) to the end with fresh dice from `seed`, returning the
/// final state and its outcome: what `odds` needs, without recording a session.
pub fn play_from<R: Ruleset + Teach, E: Evaluate<R> + 'static>(
    position: &R::State,
    seed: u64,
    players: [PlayerKind; 2],
) -> Result<(R::State, Option<Outcome>), String> {
    let mut state = position.clone();
    *R::dice_mut(&mut state) = Dice::from_seed(seed);
    drive::<R, E, _>(
        &mut state,
        |g| g,
        |g, cmd| R::execute(g, &cmd).map(|_| ()),
        seed,
        players,
    )?;
    let outcome = R::outcome(&state);
    Ok((state, outcome))
}

/// The decision loop shared by both: ask whoever must decide, submit, until nobody must.
fn drive<R: Ruleset + Teach, E: Evaluate<R> + 'static, S>(
    s: &mut S,
    state: impl Fn(&S) -> &R::State,
    mut submit: impl FnMut(&mut S, R::Command) -> Result<(), RuleError>,
    seed: u64,
    players: [PlayerKind; 2],
) -> Result<(), String> {
    let seeds = seat_seeds(seed);
    let mut seats = [
        AiPlayer::<R, E>::new(players[0], seeds[0])?,
        AiPlayer::<R, E>::new(players[1], seeds[1])?,
    ];
    for _ in 0..COMMAND_LIMIT {
        let Some(seat) = R::deciding(state(s)) else {
            return Ok(());
        };
        let who = seat.min(1) as usize;
        let Some(cmd) = seats[who].choose_from(state(s), seat) else {
            return Err(format!(
                "the {:?} player of seat {seat} found no legal command at: {}",
                players[who],
                R::prompt(state(s)).expected
            ));
        };
        submit(s, cmd.clone()).map_err(|e| {
            format!(
                "the {:?} player chose an illegal command {cmd:?}: {e}",
                players[who]
            )
        })?;
    }
    Err(format!(
        "the battle did not end within {COMMAND_LIMIT} commands"
    ))
}
