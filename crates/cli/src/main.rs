//! `sandtable-cli`: the rules with no window.

mod files;
mod fuzz;
mod game;
mod lesson;
mod pbem;
mod rulesets;
mod setup;
mod soak;
mod stats;
mod stress;
mod tournament;
mod validate;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

const AFTER_HELP: &str = "\
EXAMPLES:
  Check every shipped scenario and army list:
    sandtable-cli validate scenarios/*.ron assets/armies/*.ron

  Two forces from the army lists, the pre-battle sequence run by the computer, then the battle:
    sandtable-cli setup --force-a assets/forces/polish-border-patrol.ron --force-b assets/forces/swedish-schwelick-column.ron --seed 3 --out my-battle.ron --log
    sandtable-cli simulate my-battle.ron --players ai,ai

  Play the default battle, the computer against a random player, and keep it:
    sandtable-cli simulate scenarios/01-mill-ford-skirmish.ron --seed 7 --players ai,random --save battle.ron

  Replay that save; the state hash matches the one simulate printed:
    sandtable-cli replay battle.ron --json

  Who is favoured from where the save stands, over 200 computer battles:
    sandtable-cli odds battle.ron --games 200

  Fuzz the loaders with a million mutations of the shipped files:
    sandtable-cli fuzz scenarios/*.ron scenarios/*/*.ron assets/armies/*.ron --cases 1000000

  A computer battle by email, then its chain checked:
    sandtable-cli simulate scenarios/01-mill-ford-skirmish.ron --players ai,random --pbem battle/
    sandtable-cli pbem verify battle/turn-*.ron --complete

  Soak: 10,000 random battles on every shipped scenario, each save replayed:
    sandtable-cli soak scenarios/*.ron scenarios/*/*.ron --games 10000

EXIT STATUS:
  0  success (validate: every file is valid; fuzz and soak: no failure)
  1  a file has problems, an argument is wrong, a battle could not be played, or fuzz or soak
     found a failure
  2  fuzz found a hang (a case ran past its time limit)
  2  the command line could not be parsed

FILES:
  Army lists are read from --armies, else from assets/armies in the current folder or beside
  the program. Scenarios, army lists and saves are RON text files of at most 8 MiB, nested at most 64 deep.";

/// Sandtable's headless referee: check data files, play battles between computer players, replay
/// saves and estimate the odds of a scenario, for every ruleset the program knows.
///
/// Every command that plays is deterministic: the same scenario, seed and players give the same
/// battle, down to the state hash printed at the end.
#[derive(Debug, Parser)]
#[command(name = "sandtable-cli", version, about, long_about, propagate_version = true, after_long_help = AFTER_HELP)]
struct Cli {
    /// Folder of army lists (default: assets/armies next to the program or in the current folder).
    #[arg(long, global = true, value_name = "DIR")]
    armies: Option<PathBuf>,

    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Check scenarios, army lists and saves.
    ///
    /// Prints one line per problem, `FILE:LINE:COL: message` for syntax and `FILE: <entity>:
    /// message` for meaning, and exits with 1 if any file has a problem, else 0. Hostile files
    /// (binary, not UTF-8, deeply nested, huge) are refused quickly with bounded memory.
    Validate {
        /// Files to check; the kind (scenario, army list, save) is read from the file itself.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Play a battle headless between computer players.
    ///
    /// With --json, prints one JSON object: winner (0, 1 or null for a draw), turns, commands,
    /// events and state_hash.
    Simulate {
        /// The scenario to play (a .ron file).
        scenario: PathBuf,
        /// Seed of the dice (and of the players' tie-breaks).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Controller of each side in scenario order: ai, random or scripted.
        #[arg(long, default_value = "ai,ai", value_name = "A,B")]
        players: String,
        /// Play this many turns instead of the scenario's limit.
        #[arg(long)]
        turns: Option<u32>,
        /// Write the battle as a save file.
        #[arg(long, value_name = "OUT")]
        save: Option<PathBuf>,
        /// Print one JSON object instead of a sentence (and no progress spinner).
        #[arg(long)]
        json: bool,
        /// Print the battle's log first: every event in words, as the app's log shows it.
        #[arg(long)]
        log: bool,
        /// Play it by email instead: each side knows only what its files tell it, and every
        /// turn file is written to DIR as `turn-NNNN.ron` (check them with `pbem verify`).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["save", "log"])]
        pbem: Option<PathBuf>,
    },
    /// Run the pre-battle sequence headless: from two forces built from army lists to a battle.
    ///
    /// Each side's player makes its choices (scenario, effects, terrain, reconnaissance,
    /// deployment): ai (the ruleset's sensible choice), random, or file:PATH (one choice key a
    /// line, in order). Writes a scenario that `validate` accepts and `simulate` plays.
    Setup {
        /// The first side's force file.
        #[arg(long, value_name = "FILE")]
        force_a: PathBuf,
        /// The second side's force file.
        #[arg(long, value_name = "FILE")]
        force_b: PathBuf,
        /// Seed of the sequence's dice (the battle's dice follow from it).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Who decides for each side: ai, random or file:PATH.
        #[arg(long, default_value = "ai,ai", value_name = "A,B")]
        players: String,
        /// An optional rule of the sequence to play, e.g. choice_of_effects (BFS-OPT-4); may be
        /// given more than once.
        #[arg(long = "option", value_name = "NAME")]
        options: Vec<String>,
        /// The scenario file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Print the sequence's record: every roll and choice with its rule.
        #[arg(long)]
        log: bool,
        /// Print one JSON object instead of a sentence.
        #[arg(long, conflicts_with = "log")]
        json: bool,
    },
    /// Host a live battle: offer the scenario on the network and play its first side with a
    /// computer player against whoever joins with the printed code. Killed and started again with the
    /// same --state, it goes on where it stood.
    Host {
        scenario: PathBuf,
        /// Address to listen on (port 0: any free port; the one chosen is printed).
        #[arg(long, default_value = "0.0.0.0:7878")]
        bind: String,
        /// The join code (default: a new random one, printed).
        #[arg(long)]
        code: Option<String>,
        /// Folder where this side keeps its files and secrets.
        #[arg(long, value_name = "DIR")]
        state: PathBuf,
        /// This side's computer player: ai, random, passive…
        #[arg(long, default_value = "ai")]
        player: String,
        /// The identity file (default: in the config folder).
        #[arg(long, value_name = "FILE")]
        identity: Option<PathBuf>,
        /// Seed of the computer player's own choices.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A chat line to send once connected.
        #[arg(long)]
        chat: Vec<String>,
    },
    /// Join a live battle at ADDR (host:port) with the host's code, and play the other side.
    Join {
        addr: String,
        #[arg(long)]
        code: String,
        #[arg(long, value_name = "DIR")]
        state: PathBuf,
        #[arg(long, default_value = "ai")]
        player: String,
        #[arg(long, value_name = "FILE")]
        identity: Option<PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Seconds to keep trying while the host cannot be reached.
        #[arg(long, default_value_t = 30)]
        patience: u64,
        #[arg(long)]
        chat: Vec<String>,
    },
    /// Play by email: your public key, and checking a chain of turn files.
    Pbem {
        #[command(subcommand)]
        command: PbemCmd,
    },
    /// Replay a save and print what `simulate` printed for it (the same state hash).
    Replay {
        /// A save written by the app or by `simulate --save`.
        save: PathBuf,
        /// Print one JSON object, as `simulate --json` does.
        #[arg(long)]
        json: bool,
    },
    /// Play many AI-against-AI battles from a scenario's start, or from the position a save has
    /// reached, and report each side's win rate with a 95% confidence interval. Uses every core.
    Odds {
        /// A scenario, or a save to play on from.
        scenario: PathBuf,
        /// How many battles to play.
        #[arg(long, default_value_t = 100)]
        games: u32,
        /// Seed of the first battle; battle k uses seed + k.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Controller of each side, as for simulate.
        #[arg(long, default_value = "ai,ai", value_name = "A,B")]
        players: String,
        /// Print one JSON object with the counts and rates (and no progress bar).
        #[arg(long)]
        json: bool,
    },
    /// Play every pair of players against each other on every scenario and seed, each player
    /// taking each side once per seed, on every core; print each pair's wins, losses, draws and
    /// score (a draw counts half) with a 95% interval, per scenario and over all of them.
    ///
    /// Example: `sandtable-cli tournament --players ai,random,scripted --scenarios
    /// 'scenarios/*.ron' 'scenarios/solo/*.ron' --seeds 1..=20`.
    Tournament {
        /// Two or more players: ai, random, scripted or passive.
        #[arg(long, value_delimiter = ',', required = true, value_name = "A,B[,C…]")]
        players: Vec<String>,
        /// Scenario files, or glob patterns in quotes.
        #[arg(long, required = true, num_args = 1.., value_name = "GLOB")]
        scenarios: Vec<String>,
        /// Seeds, FROM..TO (TO excluded) or FROM..=TO (included).
        #[arg(long, default_value = "1..=10", value_name = "FROM..TO")]
        seeds: String,
        /// Worker threads (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Print one JSON object (and no progress bar).
        #[arg(long)]
        json: bool,
    },
    /// Fuzz every loader with mutations of the given files (scenarios, army lists, saves).
    ///
    /// Each case mutates one file (bytes flipped or inserted, spans cut or repeated, numbers at
    /// their extremes, deep nesting, long strings, swapped lines) and runs the checks of
    /// `validate` on it. Fails on a panic, a refusal that does not name the file, memory above
    /// 1 GiB resident, or a case running past 10 s (a hang, exit status 2).
    Fuzz {
        /// Files to mutate.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, default_value_t = 10_000)]
        cases: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        #[arg(long)]
        json: bool,
    },
    /// Play many battles between random, scripted, passive and search players on the given
    /// scenarios, with random seeds and lengths; every battle must end with only legal commands
    /// and its save must replay to the same state hash.
    Soak {
        /// Scenarios to play.
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Worker threads (default: every core).
        #[arg(long)]
        jobs: Option<usize>,
        #[arg(long)]
        json: bool,
    },
    /// Play a lesson as a scripted learner who strays: DETOURS commands the step did not ask
    /// for, made at random points (the lesson takes them back), an occasional "Back one step",
    /// and whichever branch a step leaves open. Exits 0 when every lesson reaches its end, 1
    /// naming the step where one stalled.
    ///
    /// Example: `sandtable-cli lesson scenarios/tutorial/*.ron --detours 6 --seed 3`.
    Lesson {
        /// Lesson files (scenarios with a `lesson`).
        #[arg(required = true)]
        lessons: Vec<PathBuf>,
        /// Commands the step did not ask for, per lesson.
        #[arg(long, default_value_t = 0)]
        detours: u32,
        /// Seed of the learner's choices (where it strays, and how).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Roll the lesson's dice from this seed instead of its own: no step may wait on one
        /// roll falling one way.
        #[arg(long)]
        dice: Option<u64>,
        /// One JSON object per lesson.
        #[arg(long)]
        json: bool,
    },
    /// For the kill test: play a battle with random players, autosaving after every command as
    /// the app does and printing `ack N` once the autosave holds N commands; resumes from the
    /// autosave in FOLDER.
    #[command(hide = true)]
    AutosaveStress {
        scenario: PathBuf,
        #[arg(long)]
        folder: PathBuf,
        #[arg(long, default_value_t = 100_000)]
        commands: usize,
    },
}

#[derive(Debug, Subcommand)]
enum PbemCmd {
    /// Print this player's public key, the one to send the other player (the key pair is made
    /// on first use and kept in the config folder, or at --identity).
    Key {
        #[arg(long, value_name = "FILE")]
        identity: Option<PathBuf>,
    },
    /// Replay a whole chain of turn files, in order, checking every signature, link, nonce,
    /// commitment, command and state hash. Exits 0, or 1 naming the file and the command at
    /// fault (bad signature, broken chain, hash mismatch, an opening that does not match its
    /// commitment, an illegal command).
    ///
    /// Example: `sandtable-cli pbem verify battle/turn-*.ron --complete`.
    Verify {
        /// The files, first to last.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The battle must be over, with every secret opened.
        #[arg(long)]
        complete: bool,
        #[arg(long)]
        json: bool,
    },
}

fn cores(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let dirs = files::data_dirs(cli.armies.as_deref());
    let registry = rulesets::registry();
    let result = match cli.command {
        Cmd::Validate { files } => return validate::run(&registry, &files, &dirs),
        Cmd::Setup {
            force_a,
            force_b,
            seed,
            players,
            options,
            out,
            log,
            json,
        } => setup::run(
            &registry,
            &rulesets::prebattle(),
            &dirs,
            setup::Setup {
                forces: [&force_a, &force_b],
                seed,
                players: &players,
                options: &options,
                out: &out,
                log,
                json,
            },
        ),
        Cmd::Simulate {
            scenario,
            seed,
            players,
            turns,
            save: _,
            json,
            log: _,
            pbem: Some(dir),
        } => game::parse_players(&players).and_then(|kinds| {
            pbem::simulate(
                &registry,
                &rulesets::remote(),
                &scenario,
                &dirs,
                seed,
                &kinds,
                turns,
                &dir,
                json,
            )
        }),
        Cmd::Host {
            scenario,
            bind,
            code,
            state,
            player,
            identity,
            seed,
            chat,
        } => pbem::host(
            &registry,
            &rulesets::remote(),
            &scenario,
            &dirs,
            &bind,
            pbem::Live {
                state: &state,
                identity: identity.as_deref(),
                code,
                player: &player,
                seed,
                chat,
            },
        ),
        Cmd::Join {
            addr,
            code,
            state,
            player,
            identity,
            seed,
            patience,
            chat,
        } => pbem::join(
            &registry,
            &rulesets::remote(),
            &addr,
            patience,
            pbem::Live {
                state: &state,
                identity: identity.as_deref(),
                code: Some(code),
                player: &player,
                seed,
                chat,
            },
        ),
        Cmd::Pbem { command } => match command {
            PbemCmd::Key { identity } => pbem::key(identity.as_deref()),
            PbemCmd::Verify {
                files,
                complete,
                json,
            } => pbem::verify(&rulesets::remote(), &files, complete, json),
        },
        Cmd::Simulate {
            scenario,
            seed,
            players,
            turns,
            save,
            json,
            log,
            pbem: None,
        } => game::simulate(
            &registry,
            &scenario,
            &dirs,
            game::Simulate {
                seed,
                players: &players,
                turns,
                save: save.as_deref(),
                json,
                log,
            },
        ),
        Cmd::Replay { save, json } => game::replay(&registry, &save, json),
        Cmd::Lesson {
            lessons,
            detours,
            seed,
            dice,
            json,
        } => lesson::run(
            &registry,
            &lessons,
            &dirs,
            &lesson::Options {
                detours,
                seed,
                dice,
                json,
            },
        ),
        Cmd::Odds {
            scenario,
            games,
            seed,
            players,
            json,
        } => game::odds(&registry, &scenario, &dirs, games, seed, &players, json),
        Cmd::Tournament {
            players,
            scenarios,
            seeds,
            jobs,
            json,
        } => tournament::parse_seeds(&seeds)
            .and_then(|seeds| {
                let scenarios = tournament::expand_scenarios(&scenarios)?;
                let opts = tournament::Options {
                    players,
                    scenarios,
                    seeds,
                    jobs: cores(jobs),
                    json,
                };
                tournament::run(&registry, &dirs, &opts)
            })
            .and_then(|r| {
                if json {
                    println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
                } else {
                    for l in tournament::lines(&r) {
                        println!("{l}");
                    }
                }
                Ok(())
            }),
        Cmd::Fuzz {
            files,
            cases,
            seed,
            jobs,
            json,
        } => fuzz::run(&registry, &dirs, &files, cases, seed, cores(jobs)).and_then(|r| {
            if json {
                println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
            } else {
                println!(
                    "{} cases: {} refused with a message, {} still valid; {} panics; slowest {} ms; peak memory {} MB (bound {} MB)",
                    r.cases,
                    r.refused,
                    r.accepted,
                    r.panics.len(),
                    r.slowest_ms,
                    r.peak_memory_mb,
                    fuzz::MEMORY_BOUND_MB
                );
                for p in r.panics.iter().chain(&r.unnamed) {
                    println!("  {p}");
                }
            }
            if r.failed() {
                Err("the fuzz run found failures".into())
            } else {
                Ok(())
            }
        }),
        Cmd::Soak {
            scenarios,
            games,
            seed,
            jobs,
            json,
        } => {
            let bar = if json {
                indicatif::ProgressBar::hidden()
            } else {
                indicatif::ProgressBar::new(games)
            };
            let r = soak::run(&registry, &dirs, &scenarios, games, seed, cores(jobs), || {
                bar.inc(1)
            });
            bar.finish_and_clear();
            if json {
                match serde_json::to_string(&r) {
                    Ok(t) => println!("{t}"),
                    Err(e) => eprintln!("{e}"),
                }
            } else {
                println!(
                    "{} games, {} commands, {} failures",
                    r.games,
                    r.commands,
                    r.failures.len()
                );
                for f in &r.failures {
                    println!("  {f}");
                }
            }
            if r.failures.is_empty() {
                Ok(())
            } else {
                Err("the soak found failures".into())
            }
        }
        Cmd::AutosaveStress {
            scenario,
            folder,
            commands,
        } => stress::run(&registry, &dirs, &scenario, &folder, commands),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sandtable-cli: {e}");
            ExitCode::FAILURE
        }
    }
}
