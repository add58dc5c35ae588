//! `simulate`, `replay` and `odds`: battles between computer players.

use indicatif::{ProgressBar, ProgressStyle};
use sandtable_ai::{Player, PlayerKind};
use sandtable_bfs::{BattleSetup, Bfs, BfsSession, Event, load_scenario};
use sandtable_engine::{Ruleset, Session};
use serde::Serialize;
use std::path::Path;

/// What `simulate` and `replay` print with --json.
#[derive(Debug, Serialize, PartialEq)]
pub struct Summary {
    /// The winning side's index, or null for a draw.
    pub winner: Option<u8>,
    pub turns: u32,
    pub commands: usize,
    pub events: usize,
    pub state_hash: String,
    /// "tactical victory", "draw", … (BFS-VIC-7).
    pub result: Option<String>,
}

fn parse_players(s: &str) -> Result<[PlayerKind; 2], String> {
    let v: Vec<&str> = s.split(',').map(str::trim).collect();
    if v.len() != 2 {
        return Err(format!("--players needs two controllers, like ai,random; got \"{s}\""));
    }
    Ok([v[0].parse()?, v[1].parse()?])
}

/// Most commands one battle may take before it is stopped as stuck (it never should be).
const COMMAND_LIMIT: usize = 20_000;

/// Plays a battle to its end. Each seat's player sees only its own view.
pub fn play(setup: BattleSetup, seed: u64, players: [PlayerKind; 2]) -> Result<BfsSession, String> {
    let mut session = Session::<Bfs>::new(setup, seed)?;
    let mut seats = [Player::new(players[0], seed.wrapping_mul(31) ^ 1), Player::new(players[1], seed.wrapping_mul(37) ^ 2)];
    for _ in 0..COMMAND_LIMIT {
        let prompt = Bfs::prompt(session.state());
        let Some(seat) = prompt.seat else { return Ok(session) };
        let Some(cmd) = seats[seat.min(1) as usize].choose(session.state(), seat) else {
            return Err(format!("the {:?} player of seat {seat} found no legal command at: {}", players[seat.min(1) as usize], prompt.expected));
        };
        session.submit(cmd.clone()).map_err(|e| format!("the player chose an illegal command {cmd:?}: {e}"))?;
    }
    Err(format!("the battle did not end within {COMMAND_LIMIT} commands"))
}

pub fn summary(session: &BfsSession) -> Summary {
    let state = session.state();
    let report = session.events().iter().flatten().find_map(|e| if let Event::GameOver(r) = e { Some(r.clone()) } else { None });
    Summary {
        winner: report.as_ref().and_then(|r| r.winner.map(|w| w.0)),
        turns: state.turn.number,
        commands: session.commands().len(),
        events: session.events().iter().map(Vec::len).sum(),
        state_hash: session.hash(),
        result: report.map(|r| r.result),
    }
}

fn print(s: &Summary, json: bool) -> Result<(), String> {
    if json {
        println!("{}", serde_json::to_string(s).map_err(|e| e.to_string())?);
    } else {
        let who = match s.winner {
            Some(w) => format!("side {} wins ({})", w + 1, s.result.clone().unwrap_or_default()),
            None => "a draw".into(),
        };
        println!("{who} after {} turn(s), {} commands, {} events; state {}", s.turns, s.commands, s.events, s.state_hash);
    }
    Ok(())
}

fn setup_from(scenario: &Path, armies: &Path, turns: Option<u32>) -> Result<BattleSetup, String> {
    let loaded = load_scenario(scenario, armies).map_err(|e| e.to_string())?;
    let mut setup = BattleSetup::from(&loaded);
    if let Some(t) = turns {
        if t == 0 || t > 99 {
            return Err("--turns must be 1..99".into());
        }
        setup.scenario.turn_limit = t;
    }
    Ok(setup)
}

pub fn simulate(scenario: &Path, armies: &Path, seed: u64, players: &str, turns: Option<u32>, save: Option<&Path>, json: bool) -> Result<(), String> {
    let players = parse_players(players)?;
    let setup = setup_from(scenario, armies, turns)?;
    let spinner = (!json).then(|| {
        let s = ProgressBar::new_spinner();
        s.set_message("playing…");
        s
    });
    let session = play(setup, seed, players)?;
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    if let Some(out) = save {
        session.save_to(out)?;
    }
    print(&summary(&session), json)
}

pub fn replay(save: &Path, json: bool) -> Result<(), String> {
    let session = Session::<Bfs>::load(save).map_err(|e| e.to_string())?;
    print(&summary(&session), json)
}

#[derive(Debug, Serialize)]
struct OddsReport {
    games: u32,
    wins: [u32; 2],
    draws: u32,
    /// Win rate of each side with its 95% Wilson interval.
    win_rate: [Rate; 2],
    draw_rate: Rate,
}

#[derive(Debug, Serialize)]
struct Rate {
    rate: f64,
    low: f64,
    high: f64,
}

/// Wilson score interval at 95%.
fn wilson(k: u32, n: u32) -> Rate {
    if n == 0 {
        return Rate { rate: 0.0, low: 0.0, high: 1.0 };
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    Rate { rate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
}

pub fn odds(scenario: &Path, armies: &Path, games: u32, seed: u64, players: &str, json: bool) -> Result<(), String> {
    let players = parse_players(players)?;
    let setup = setup_from(scenario, armies, None)?;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(games.max(1) as usize);
    let bar = if json { ProgressBar::hidden() } else { ProgressBar::new(games as u64) };
    bar.set_style(ProgressStyle::with_template("{bar:40} {pos}/{len} battles, {eta} left").unwrap_or_else(|_| ProgressStyle::default_bar()));
    let results: Vec<Result<Option<u8>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let setup = setup.clone();
                let bar = bar.clone();
                scope.spawn(move || {
                    (t as u32..games)
                        .step_by(threads)
                        .map(|g| {
                            let r = play(setup.clone(), seed.wrapping_add(g as u64), players).map(|s| summary(&s).winner);
                            bar.inc(1);
                            r
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|_| vec![Err("a worker thread failed".into())])).collect()
    });
    bar.finish_and_clear();
    let mut wins = [0u32; 2];
    let mut draws = 0;
    for r in results {
        match r? {
            Some(w) => wins[w.min(1) as usize] += 1,
            None => draws += 1,
        }
    }
    let report = OddsReport { games, wins, draws, win_rate: [wilson(wins[0], games), wilson(wins[1], games)], draw_rate: wilson(draws, games) };
    if json {
        println!("{}", serde_json::to_string(&report).map_err(|e| e.to_string())?);
    } else {
        for (i, r) in report.win_rate.iter().enumerate() {
            println!("side {}: {:.1}% wins (95%: {:.1}–{:.1}%)", i + 1, r.rate * 100.0, r.low * 100.0, r.high * 100.0);
        }
        println!("draws: {:.1}% ({} of {games} battles)", report.draw_rate.rate * 100.0, draws);
    }
    Ok(())
}
