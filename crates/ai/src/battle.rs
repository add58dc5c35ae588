//! A whole battle between two computer players, as the CLI, the benches and the tests play it.

use crate::{Player, PlayerKind};
use sandtable_bfs::turn::Phase;
use sandtable_bfs::{BattleSetup, Bfs, BfsSession, Command, Event, Game, event::VictoryReport};
use sandtable_engine::{Dice, RuleError, Ruleset, Session};

/// Most commands one battle may take before it is stopped as stuck (it never should be).
pub const COMMAND_LIMIT: usize = 20_000;

/// The seed of each seat's player, derived from the battle's seed so that the two players never
/// share a sequence.
pub fn seat_seeds(seed: u64) -> [u64; 2] {
    [seed.wrapping_mul(31) ^ 1, seed.wrapping_mul(37) ^ 2]
}

/// Plays a battle to its end. Each seat's player sees only its own view, and every command goes
/// through the session, so an illegal one is an error here, never a silent skip.
pub fn play(setup: BattleSetup, seed: u64, players: [PlayerKind; 2]) -> Result<BfsSession, String> {
    let mut session = Session::<Bfs>::new(setup, seed)?;
    drive(
        &mut session,
        |s| s.state(),
        |s, cmd| s.submit(cmd).map(|_| ()),
        seed,
        players,
    )?;
    Ok(session)
}

/// Plays on from a position (a save's, say) to the end with fresh dice from `seed`, returning the
/// final state and the victory report: what `odds` needs, without recording a session.
pub fn play_from(
    position: &Game,
    seed: u64,
    players: [PlayerKind; 2],
) -> Result<(Game, Option<VictoryReport>), String> {
    let mut game = position.clone();
    game.dice = Dice::from_seed(seed);
    let mut report = None;
    drive(
        &mut game,
        |g| g,
        |g, cmd| {
            let events = Bfs::execute(g, &cmd)?;
            report = report.take().or_else(|| {
                events.into_iter().find_map(|e| {
                    if let Event::GameOver(r) = e {
                        Some(r)
                    } else {
                        None
                    }
                })
            });
            Ok(())
        },
        seed,
        players,
    )?;
    // A position already at its end has no GameOver event left to see: judge it as it stands.
    let report = report.or_else(|| {
        matches!(game.turn.phase, Phase::GameOver)
            .then(|| sandtable_bfs::victory::report(&game, "the battle was already over"))
    });
    Ok((game, report))
}

/// The decision loop shared by both: ask whoever must decide, submit, until nobody must.
fn drive<S>(
    s: &mut S,
    state: impl Fn(&S) -> &Game,
    mut submit: impl FnMut(&mut S, Command) -> Result<(), RuleError>,
    seed: u64,
    players: [PlayerKind; 2],
) -> Result<(), String> {
    let seeds = seat_seeds(seed);
    let mut seats = [
        Player::new(players[0], seeds[0]),
        Player::new(players[1], seeds[1]),
    ];
    for _ in 0..COMMAND_LIMIT {
        let prompt = Bfs::prompt(state(s));
        let Some(seat) = prompt.seat else {
            return Ok(());
        };
        let who = seat.min(1) as usize;
        let Some(cmd) = seats[who].choose(state(s), seat) else {
            return Err(format!(
                "the {:?} player of seat {seat} found no legal command at: {}",
                players[who], prompt.expected
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

/// The victory report of a finished battle.
pub fn report(session: &BfsSession) -> Option<VictoryReport> {
    session.events().iter().flatten().find_map(|e| {
        if let Event::GameOver(r) = e {
            Some(r.clone())
        } else {
            None
        }
    })
}
