//! `tournament`: every pair of players on every scenario and seed, each from both sides, on every
//! core; wins, losses, draws and the score (a draw counts half) with a 95% interval, per pair and
//! scenario and per pair over all scenarios (issue 17).

use crate::game::{parse_player, play_out, seat_players, start_position};
use crate::stats::{Rate, wilson};
use indicatif::{ProgressBar, ProgressStyle};
use sandtable_engine::{AnyGame, DataDirs, Registry};
use serde::Serialize;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What to play.
pub struct Options {
    pub players: Vec<String>,
    pub scenarios: Vec<PathBuf>,
    pub seeds: Range<u64>,
    pub jobs: usize,
    pub json: bool,
}

/// `FROM..TO` (TO excluded) or `FROM..=TO` (TO included), as Rust writes ranges.
pub fn parse_seeds(s: &str) -> Result<Range<u64>, String> {
    let bad = || format!("--seeds wants FROM..TO or FROM..=TO, like 1..51; got \"{s}\"");
    let (from, to, inclusive) = match s.split_once("..=") {
        Some((a, b)) => (a, b, true),
        None => {
            let (a, b) = s.split_once("..").ok_or_else(bad)?;
            (a, b, false)
        }
    };
    let from: u64 = from.trim().parse().map_err(|_| bad())?;
    let to: u64 = to.trim().parse().map_err(|_| bad())?;
    let end = if inclusive { to.saturating_add(1) } else { to };
    if end <= from {
        return Err(format!("--seeds {s} holds no seed"));
    }
    Ok(from..end)
}

/// The scenario files named: each argument a file, or a glob pattern (quoted, so that the shell
/// leaves it alone) such as `'scenarios/*.ron'`.
pub fn expand_scenarios(patterns: &[String]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    for p in patterns {
        let matched: Vec<PathBuf> = glob::glob(p)
            .map_err(|e| format!("--scenarios {p}: {e}"))?
            .filter_map(Result::ok)
            .filter(|f| f.is_file())
            .collect();
        if matched.is_empty() {
            return Err(format!("--scenarios {p}: no file matches"));
        }
        out.extend(matched);
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// One pairing's results from the first player's side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    pub a: String,
    pub b: String,
    /// The scenario, or null for the total over all of them.
    pub scenario: Option<String>,
    pub games: u32,
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
    /// A's score (a win 1, a draw ½) with its 95% interval.
    pub score: Rate,
}

/// Every pairing, per scenario and in total.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub standings: Vec<Standing>,
}

/// One battle to play: which pair, which scenario, which seed, and whether the pair's first
/// player takes the scenario's first side.
#[derive(Debug, Clone, Copy)]
struct Job {
    pair: usize,
    scenario: usize,
    seed: u64,
    a_first: bool,
}

/// The winner of one battle, as the pair's player: `Some(true)` for A, `Some(false)` for B.
fn play(
    registry: &Registry,
    start: &dyn AnyGame,
    players: [&str; 2],
    job: Job,
) -> Result<Option<bool>, String> {
    let mut game = start.fork(job.seed);
    let kinds = if job.a_first {
        [players[0].to_string(), players[1].to_string()]
    } else {
        [players[1].to_string(), players[0].to_string()]
    };
    let mut seats = seat_players(registry, game.as_ref(), &kinds, job.seed)?;
    play_out(game.as_mut(), &mut seats)?;
    Ok(game
        .outcome()
        .and_then(|o| o.winner)
        .map(|w| (w == 0) == job.a_first))
}

pub fn run(registry: &Registry, dirs: &DataDirs, o: &Options) -> Result<Report, String> {
    let players: Vec<String> = o
        .players
        .iter()
        .map(|p| parse_player(p))
        .collect::<Result<_, _>>()?;
    if players.len() < 2 {
        return Err("--players needs at least two players, like ai,random".into());
    }
    let starts: Vec<Box<dyn AnyGame>> = o
        .scenarios
        .iter()
        .map(|f| start_position(registry, f, dirs).map_err(|e| format!("{}: {e}", f.display())))
        .collect::<Result<_, _>>()?;
    let pairs: Vec<(usize, usize)> = (0..players.len())
        .flat_map(|i| (i + 1..players.len()).map(move |j| (i, j)))
        .collect();
    let mut jobs = Vec::new();
    for pair in 0..pairs.len() {
        for scenario in 0..starts.len() {
            for seed in o.seeds.clone() {
                for a_first in [true, false] {
                    jobs.push(Job {
                        pair,
                        scenario,
                        seed,
                        a_first,
                    });
                }
            }
        }
    }
    let bar = if o.json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(jobs.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} battles, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    // Each battle's job and its result: the winner (`Some(true)` for the pair's first player,
    // `None` for a draw), or why it could not be played.
    type Played = (Job, Result<Option<bool>, String>);
    let results: Mutex<Vec<Played>> = Mutex::new(Vec::new());
    let threads = o.jobs.clamp(1, jobs.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&job) = jobs.get(k) else { break };
                    let (a, b) = pairs[job.pair];
                    let r = play(
                        registry,
                        starts[job.scenario].as_ref(),
                        [&players[a], &players[b]],
                        job,
                    );
                    if let Ok(mut v) = results.lock() {
                        v.push((job, r));
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let results = results.into_inner().map_err(|_| "a worker thread failed")?;
    if results.len() != jobs.len() {
        return Err("a worker thread failed".into());
    }
    let name = |s: usize| {
        o.scenarios[s].file_name().map_or_else(
            || o.scenarios[s].display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
    };
    let mut standings = Vec::new();
    for (p, &(a, b)) in pairs.iter().enumerate() {
        let mut total = Tally::default();
        for s in 0..starts.len() {
            let mut t = Tally::default();
            for (job, r) in results
                .iter()
                .filter(|(j, _)| j.pair == p && j.scenario == s)
            {
                let won = r.as_ref().map_err(|e| {
                    format!(
                        "{} vs {} on {}, seed {}: {e}",
                        players[a],
                        players[b],
                        o.scenarios[s].display(),
                        job.seed
                    )
                })?;
                t.add(*won);
                total.add(*won);
            }
            standings.push(t.standing(&players[a], &players[b], Some(name(s))));
        }
        standings.push(total.standing(&players[a], &players[b], None));
    }
    Ok(Report { standings })
}

#[derive(Default)]
struct Tally {
    a: u32,
    b: u32,
    draws: u32,
}

impl Tally {
    fn add(&mut self, won: Option<bool>) {
        match won {
            Some(true) => self.a += 1,
            Some(false) => self.b += 1,
            None => self.draws += 1,
        }
    }

    fn standing(&self, a: &str, b: &str, scenario: Option<String>) -> Standing {
        let games = self.a + self.b + self.draws;
        Standing {
            a: a.into(),
            b: b.into(),
            scenario,
            games,
            a_wins: self.a,
            b_wins: self.b,
            draws: self.draws,
            score: wilson(self.a as f64 + 0.5 * self.draws as f64, games),
        }
    }
}

/// The report as lines of text.
pub fn lines(r: &Report) -> Vec<String> {
    r.standings
        .iter()
        .map(|s| {
            format!(
                "{} vs {} {}: {} battles, {} won {}, lost {}, drew {}; score {:.1}% (95%: {:.1}–{:.1}%)",
                s.a,
                s.b,
                s.scenario
                    .as_deref()
                    .map_or_else(|| "over all scenarios".to_string(), |n| format!("on {n}")),
                s.games,
                s.a,
                s.a_wins,
                s.b_wins,
                s.draws,
                s.score.rate * 100.0,
                s.score.low * 100.0,
                s.score.high * 100.0
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_read_as_rust_ranges() {
        assert_eq!(parse_seeds("1..51"), Ok(1..51));
        assert_eq!(parse_seeds("1..=50"), Ok(1..51));
        assert!(parse_seeds("5..5").is_err());
        assert!(parse_seeds("a..b").is_err());
        assert!(parse_seeds("7").is_err());
    }
}
