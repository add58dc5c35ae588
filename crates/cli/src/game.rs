//! `simulate`, `replay` and `odds`: battles between computer players, for any registered
//! ruleset, through the engine's seam.

use crate::stats::{Rate, wilson};
use indicatif::{ProgressBar, ProgressStyle};
use sandtable_ai::battle::{COMMAND_LIMIT, seat_seeds};
use sandtable_engine::registry::{FileKind, Variant};
use sandtable_engine::{AnyGame, AnyPlayer, DataDirs, Registry, data_file};
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
    /// "tactical victory", "draw", … as the ruleset names its results.
    pub result: Option<String>,
}

/// The two controllers named by `--players`, checked.
pub(crate) fn parse_player(s: &str) -> Result<String, String> {
    s.trim().parse::<sandtable_ai::PlayerKind>()?;
    Ok(s.trim().to_string())
}

pub(crate) fn parse_players(s: &str) -> Result<[String; 2], String> {
    let v: Vec<&str> = s.split(',').map(str::trim).collect();
    if v.len() != 2 {
        return Err(format!(
            "--players needs two controllers, like ai,random; got \"{s}\""
        ));
    }
    for p in &v {
        p.parse::<sandtable_ai::PlayerKind>()?;
    }
    Ok([v[0].to_string(), v[1].to_string()])
}

pub(crate) fn seat_players(
    registry: &Registry,
    game: &dyn AnyGame,
    kinds: &[String; 2],
    seed: u64,
) -> Result<[Box<dyn AnyPlayer>; 2], String> {
    let seeds = seat_seeds(seed);
    Ok([
        registry.player(game.ruleset(), &kinds[0], seeds[0])?,
        registry.player(game.ruleset(), &kinds[1], seeds[1])?,
    ])
}

/// Plays `game` to its end: whoever must decide is asked, from its own seat's view.
pub fn play_out(game: &mut dyn AnyGame, seats: &mut [Box<dyn AnyPlayer>; 2]) -> Result<(), String> {
    for _ in 0..COMMAND_LIMIT {
        let prompt = game.prompt();
        let Some(seat) = prompt.seat else {
            return Ok(());
        };
        let who = seat.min(1) as usize;
        let Some(cmd) = seats[who].choose(&game.snapshot(), seat) else {
            return Err(format!(
                "the player of seat {seat} found no legal command at: {}",
                prompt.expected
            ));
        };
        game.submit(&cmd).map_err(|e| {
            format!("the player of seat {seat} chose an illegal command {cmd:?}: {e}")
        })?;
    }
    Err(format!(
        "the battle did not end within {COMMAND_LIMIT} commands"
    ))
}

pub fn summary(game: &dyn AnyGame) -> Summary {
    let outcome = game.outcome();
    Summary {
        winner: outcome.as_ref().and_then(|o| o.winner),
        turns: game.prompt().turn,
        commands: game.len(),
        events: game.event_count(),
        state_hash: game.hash(),
        result: outcome.map(|o| o.result),
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

/// The options of `simulate`.
pub struct Simulate<'a> {
    pub seed: u64,
    pub players: &'a str,
    pub turns: Option<u32>,
    pub save: Option<&'a Path>,
    pub json: bool,
    /// Print every event in words before the summary.
    pub log: bool,
}

pub fn simulate(
    registry: &Registry,
    scenario: &Path,
    dirs: &DataDirs,
    opts: Simulate,
) -> Result<(), String> {
    let kinds = parse_players(opts.players)?;
    let max = sandtable_engine::scenario_check::MAX_TURNS;
    if let Some(t) = opts.turns
        && (t == 0 || t > max)
    {
        return Err(format!("--turns must be 1..{max}"));
    }
    let variant = Variant {
        turns: opts.turns,
        seed: Some(opts.seed),
    };
    let mut game = registry
        .open_scenario(scenario, dirs, variant)
        .map_err(|e| e.to_string())?;
    game.as_battle();
    let mut seats = seat_players(registry, game.as_ref(), &kinds, opts.seed)?;
    let spinner = (!opts.json).then(|| {
        let s = ProgressBar::new_spinner();
        s.set_message("playing…");
        s
    });
    play_out(game.as_mut(), &mut seats).map_err(|e| format!("{}: {e}", scenario.display()))?;
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    if opts.log {
        for line in game.narration(None, 0).iter().flatten() {
            let indent = if line.turn_began.is_some() { "" } else { "  " };
            println!("{indent}{}", line.text);
        }
    }
    if let Some(out) = opts.save {
        let text = game.save_text()?;
        data_file::write_atomic(out, &text)
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    print(&summary(game.as_ref()), opts.json)
}

pub fn replay(registry: &Registry, save: &Path, json: bool) -> Result<(), String> {
    let game = registry.open_save(save).map_err(|e| e.to_string())?;
    print(&summary(game.as_ref()), json)
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

/// The position `odds` starts from: a scenario's first, or the one a save has reached.
pub(crate) fn start_position(
    registry: &Registry,
    file: &Path,
    dirs: &DataDirs,
) -> Result<Box<dyn AnyGame>, String> {
    let text = data_file::read_text(file).map_err(|e| e.to_string())?;
    let mut game = match registry.kind_of(&text) {
        Some(FileKind::Save) => registry.open_save(file).map_err(|e| e.to_string())?,
        _ => registry
            .open_scenario(file, dirs, Variant::default())
            .map_err(|e| e.to_string())?,
    };
    // Computer players on both sides: a lesson's steps are not followed.
    game.as_battle();
    Ok(game)
}

pub fn odds(
    registry: &Registry,
    scenario: &Path,
    dirs: &DataDirs,
    games: u32,
    seed: u64,
    players: &str,
    json: bool,
) -> Result<(), String> {
    let kinds = parse_players(players)?;
    let position = start_position(registry, scenario, dirs)?;
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
                let (position, kinds, bar) = (&position, &kinds, bar.clone());
                scope.spawn(move || {
                    (t as u32..games)
                        .step_by(threads)
                        .map(|g| {
                            let seed = seed.wrapping_add(g as u64);
                            let mut game = position.fork(seed);
                            let r = seat_players(registry, game.as_ref(), kinds, seed)
                                .and_then(|mut seats| play_out(game.as_mut(), &mut seats))
                                .map(|()| game.outcome().and_then(|o| o.winner));
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
        match r.map_err(|e| format!("{}: {e}", scenario.display()))? {
            Some(w) => wins[w.min(1) as usize] += 1,
            None => draws += 1,
        }
    }
    let report = OddsReport {
        games,
        wins,
        draws,
        win_rate: [wilson(wins[0] as f64, games), wilson(wins[1] as f64, games)],
        draw_rate: wilson(draws as f64, games),
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
