//! `simulate`, `replay` and `odds`: battles between computer players.

use indicatif::{ProgressBar, ProgressStyle};
use sandtable_ai::PlayerKind;
use sandtable_bfs::{BattleSetup, Bfs, BfsSession, Game, load_scenario};
use sandtable_engine::Session;
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
        return Err(format!(
            "--players needs two controllers, like ai,random; got \"{s}\""
        ));
    }
    Ok([v[0].parse()?, v[1].parse()?])
}

pub use sandtable_ai::battle::play;

pub fn summary(session: &BfsSession) -> Summary {
    let state = session.state();
    let report = sandtable_ai::battle::report(session);
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
            Some(w) => format!(
                "side {} wins ({})",
                w + 1,
                s.result.clone().unwrap_or_default()
            ),
            None => "a draw".into(),
        };
        println!(
            "{who} after {} turn(s), {} commands, {} events; state {}",
            s.turns, s.commands, s.events, s.state_hash
        );
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

pub fn simulate(
    scenario: &Path,
    armies: &Path,
    seed: u64,
    players: &str,
    turns: Option<u32>,
    save: Option<&Path>,
    json: bool,
) -> Result<(), String> {
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
        return Rate {
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    Rate {
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// The position `odds` starts from: a scenario's first, or the one a save has reached.
fn start_position(file: &Path, armies: &Path) -> Result<Game, String> {
    let text = sandtable_engine::data_file::read_text(file).map_err(|e| e.to_string())?;
    match crate::files::kind_of(&text) {
        Some(crate::files::Kind::Save) => Ok(Session::<Bfs>::load(file)
            .map_err(|e| e.to_string())?
            .state()
            .clone()),
        _ => Ok(Session::<Bfs>::new(setup_from(file, armies, None)?, 0)?
            .state()
            .clone()),
    }
}

pub fn odds(
    scenario: &Path,
    armies: &Path,
    games: u32,
    seed: u64,
    players: &str,
    json: bool,
) -> Result<(), String> {
    let players = parse_players(players)?;
    let position = start_position(scenario, armies)?;
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(games.max(1) as usize);
    let bar = if json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} battles, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let results: Vec<Result<Option<u8>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let position = &position;
                let bar = bar.clone();
                scope.spawn(move || {
                    (t as u32..games)
                        .step_by(threads)
                        .map(|g| {
                            let r = sandtable_ai::battle::play_from(
                                position,
                                seed.wrapping_add(g as u64),
                                players,
                            )
                            .map(|(_, report)| report.and_then(|r| r.winner.map(|w| w.0)));
                            bar.inc(1);
                            r
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|_| vec![Err("a worker thread failed".into())])
            })
            .collect()
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
    let report = OddsReport {
        games,
        wins,
        draws,
        win_rate: [wilson(wins[0], games), wilson(wins[1], games)],
        draw_rate: wilson(draws, games),
    };
    if json {
        println!(
            "{}",
            serde_json::to_string(&report).map_err(|e| e.to_string())?
        );
    } else {
        for (i, r) in report.win_rate.iter().enumerate() {
            println!(
                "side {}: {:.1}% wins (95%: {:.1}–{:.1}%)",
                i + 1,
                r.rate * 100.0,
                r.low * 100.0,
                r.high * 100.0
            );
        }
        println!(
            "draws: {:.1}% ({} of {games} battles)",
            report.draw_rate.rate * 100.0,
            draws
        );
    }
    Ok(())
}
