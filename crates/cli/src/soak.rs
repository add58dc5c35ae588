//! `soak`: many whole battles between computer players (random, scripted, passive and the search
//! player) on every given scenario, with random seeds and lengths, checking what must always hold:
//! every command the players choose is legal, every battle ends, and its save replays to the same
//! state hash.

use crate::game::{play_out, summary};
use sandtable_engine::registry::Variant;
use sandtable_engine::{AnyPlayer, DataDirs, Registry, data_file};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default, Serialize)]
pub struct SoakReport {
    pub games: u64,
    pub commands: u64,
    pub failures: Vec<String>,
}

/// The players of one soak game: mostly fast ones, the search player now and then.
const KINDS: &[&str] = &["random", "random", "random", "scripted", "passive", "ai"];

fn pick(x: u64, of: usize) -> usize {
    (x % of.max(1) as u64) as usize
}

/// One soak game: `Ok(commands)` or what went wrong.
fn one(registry: &Registry, dirs: &DataDirs, file: &Path, game_seed: u64) -> Result<u64, String> {
    let mut x = game_seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let probe = registry
        .open_scenario(file, dirs, Variant::default())
        .map_err(|e| e.to_string())?;
    let limit = probe.info().turn_limit.max(1);
    let variant = Variant {
        turns: Some(1 + pick(next(), limit as usize) as u32),
        seed: Some(next()),
    };
    let mut game = registry
        .open_scenario(file, dirs, variant)
        .map_err(|e| e.to_string())?;
    game.as_battle();
    let kinds = [
        KINDS[pick(next(), KINDS.len())],
        KINDS[pick(next(), KINDS.len())],
    ];
    let mut seats: [Box<dyn AnyPlayer>; 2] = [
        registry.player(game.ruleset(), kinds[0], next())?,
        registry.player(game.ruleset(), kinds[1], next())?,
    ];
    play_out(game.as_mut(), &mut seats).map_err(|e| format!("{kinds:?}: {e}"))?;
    if !game.is_over() {
        return Err(format!("{kinds:?}: the battle did not end"));
    }
    let text = game.save_text()?;
    let path = std::env::temp_dir().join(format!(
        "sandtable-soak-{}-{game_seed}.ron",
        std::process::id()
    ));
    data_file::write_atomic(&path, &text).map_err(|e| e.to_string())?;
    let replayed = registry.open_save(&path);
    let _ = std::fs::remove_file(&path);
    let replayed = replayed.map_err(|e| format!("{kinds:?}: the save does not load: {e}"))?;
    if summary(replayed.as_ref()) != summary(game.as_ref()) {
        return Err(format!("{kinds:?}: the save replays to another state"));
    }
    Ok(game.len() as u64)
}

pub fn run(
    registry: &Registry,
    dirs: &DataDirs,
    files: &[PathBuf],
    games: u64,
    seed: u64,
    jobs: usize,
    progress: impl Fn() + Sync,
) -> SoakReport {
    let report = Mutex::new(SoakReport::default());
    let next = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let game_seed = seed.wrapping_add(g);
                    let file = &files[pick(game_seed.wrapping_mul(7919), files.len())];
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        one(registry, dirs, file, game_seed)
                    }))
                    .unwrap_or_else(|_| Err("panicked".into()));
                    if let Ok(mut r) = report.lock() {
                        r.games += 1;
                        match result {
                            Ok(n) => r.commands += n,
                            Err(e) => r
                                .failures
                                .push(format!("{} (game seed {game_seed}): {e}", file.display())),
                        }
                    }
                    progress();
                }
            });
        }
    });
    report.into_inner().unwrap_or_default()
}
