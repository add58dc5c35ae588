//! `fuzz`: mutation fuzzing of every loader on stable Rust. Each case takes one of the given files
//! (shipped scenarios, army lists, saves), mutates its text the ways hostile or damaged files do
//! (flipped and inserted bytes, cut and repeated spans, numbers pushed to their extremes, deep
//! nesting, long strings, swapped lines), writes it to a temporary file and runs the same checks
//! as `validate`. A panic, a case slower than the time limit, or memory above the bound is a
//! failure; a refusal with a message is the expected outcome for most cases.

use sandtable_engine::{DataDirs, Registry};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The memory the whole run may use, resident: far above what loading any real file needs.
pub const MEMORY_BOUND_MB: u64 = 1024;
/// A case slower than this is a hang.
pub const CASE_LIMIT: Duration = Duration::from_secs(10);

#[derive(Debug, Default, Serialize)]
pub struct FuzzReport {
    pub cases: u64,
    /// Mutated files the loaders accepted (still valid after the mutation).
    pub accepted: u64,
    /// Mutated files refused with a message naming the file.
    pub refused: u64,
    /// Refusals that did not name the file.
    pub unnamed: Vec<String>,
    pub panics: Vec<String>,
    pub slowest_ms: u64,
    pub peak_memory_mb: u64,
}

impl FuzzReport {
    pub fn failed(&self) -> bool {
        !self.panics.is_empty() || !self.unnamed.is_empty() || self.peak_memory_mb > MEMORY_BOUND_MB
    }
}

/// splitmix64: the mutations' own generator, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const EXTREMES: &[&str] = &[
    "-1",
    "0",
    "-0.0",
    "1e30",
    "-1e30",
    "NaN",
    "inf",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999",
    "255",
    "256",
    "65536",
    "0.0000001",
];

/// One mutation of `text`.
fn mutate(text: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut v = text.to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        let len = v.len().max(1);
        match rng.below(9) {
            0 => {
                // Flip a byte.
                let i = rng.below(len);
                if let Some(b) = v.get_mut(i) {
                    *b ^= 1 << rng.below(8);
                }
            }
            1 => {
                // Insert a few random bytes.
                let i = rng.below(len);
                let n = 1 + rng.below(8);
                let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
                v.splice(i.min(v.len())..i.min(v.len()), bytes);
            }
            2 => {
                // Cut a span.
                let i = rng.below(len);
                let n = rng.below(200);
                let end = (i + n).min(v.len());
                v.drain(i.min(end)..end);
            }
            3 => {
                // Repeat a span many times (lists that grow without bound).
                let i = rng.below(len);
                let n = 1 + rng.below(300);
                let end = (i + n).min(v.len());
                let span = v[i.min(end)..end].to_vec();
                let times = 1 + rng.below(2000);
                let mut rep = Vec::with_capacity(span.len() * times);
                for _ in 0..times {
                    rep.extend_from_slice(&span);
                }
                v.splice(end..end, rep);
            }
            4 => {
                // Push a number to an extreme.
                let starts: Vec<usize> = v
                    .windows(2)
                    .enumerate()
                    .filter(|(_, w)| {
                        !w[0].is_ascii_alphanumeric() && (w[1].is_ascii_digit() || w[1] == b'-')
                    })
                    .map(|(i, _)| i + 1)
                    .collect();
                if !starts.is_empty() {
                    let s = starts[rng.below(starts.len())];
                    let e = s + v[s..]
                        .iter()
                        .position(|c| !(c.is_ascii_digit() || *c == b'.' || *c == b'-'))
                        .unwrap_or(0);
                    let x = EXTREMES[rng.below(EXTREMES.len())].as_bytes().to_vec();
                    v.splice(s..e.max(s), x);
                }
            }
            5 => {
                // Deep nesting.
                let i = rng.below(len).min(v.len());
                let depth = 1 + rng.below(10_000);
                let open = if rng.below(2) == 0 { b'[' } else { b'(' };
                v.splice(i..i, std::iter::repeat_n(open, depth));
            }
            6 => {
                // A long string.
                let i = rng.below(len).min(v.len());
                let n = rng.below(100_000);
                let mut s = b"\"".to_vec();
                s.extend(std::iter::repeat_n(b'x', n));
                s.push(b'"');
                v.splice(i..i, s);
            }
            7 => {
                // Swap two lines.
                let lines: Vec<&[u8]> = v.split(|c| *c == b'\n').collect();
                if lines.len() > 2 {
                    let (a, b) = (rng.below(lines.len()), rng.below(lines.len()));
                    let mut ls: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                    ls.swap(a, b);
                    v = ls.join(&b'\n');
                }
            }
            _ => {
                // Truncate.
                let keep = rng.below(len);
                v.truncate(keep);
            }
        }
    }
    v
}

/// The resident memory high-water mark of this process, MB (Linux; 0 elsewhere).
pub fn peak_memory_mb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}

/// Fuzzes the loaders with `cases` mutations of `files`, on `jobs` threads.
pub fn run(
    registry: &Registry,
    dirs: &DataDirs,
    files: &[PathBuf],
    cases: u64,
    seed: u64,
    jobs: usize,
) -> Result<FuzzReport, String> {
    let originals: Vec<(PathBuf, Vec<u8>)> = files
        .iter()
        .map(|f| {
            std::fs::read(f)
                .map(|t| (f.clone(), t))
                .map_err(|e| format!("{}: {e}", f.display()))
        })
        .collect::<Result<_, _>>()?;
    if originals.is_empty() {
        return Err("fuzz needs at least one file to mutate".into());
    }
    let dir = std::env::temp_dir().join(format!("sandtable-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let report = Arc::new(Mutex::new(FuzzReport::default()));
    let next = AtomicU64::new(0);
    // A watchdog: a case that runs past the limit stops the run as a hang.
    let started = Arc::new(Mutex::new(vec![None::<(u64, Instant)>; jobs.max(1)]));
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                for (case, since) in started.lock().map(|s| s.clone()).unwrap_or_default().iter().flatten() {
                    if since.elapsed() > CASE_LIMIT {
                        eprintln!("sandtable-cli fuzz: case {case} (seed {seed}) ran past {CASE_LIMIT:?}: a hang");
                        std::process::exit(2);
                    }
                }
            }
        });
        let workers: Vec<_> = (0..jobs.max(1))
            .map(|job| {
                let (report, started, next, originals, dir) =
                    (&report, &started, &next, &originals, &dir);
                scope.spawn(move || {
                    loop {
                        let case = next.fetch_add(1, Ordering::Relaxed);
                        if case >= cases {
                            break;
                        }
                        let mut rng = Rng(seed ^ case.wrapping_mul(0xA24B_AED4_963E_E407));
                        let (orig_path, text) = &originals[rng.below(originals.len())];
                        let mutated = mutate(text, &mut rng);
                        let path = dir.join(format!(
                            "case-{job}-{}",
                            orig_path
                                .file_name()
                                .map_or("x.ron".into(), |n| n.to_string_lossy())
                        ));
                        if std::fs::write(&path, &mutated).is_err() {
                            continue;
                        }
                        if let Ok(mut s) = started.lock() {
                            s[job] = Some((case, Instant::now()));
                        }
                        let t = Instant::now();
                        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            registry.check_file(&path, dirs)
                        }));
                        let ms = t.elapsed().as_millis() as u64;
                        if let Ok(mut s) = started.lock() {
                            s[job] = None;
                        }
                        let Ok(mut r) = report.lock() else { break };
                        r.cases += 1;
                        r.slowest_ms = r.slowest_ms.max(ms);
                        match result {
                            Ok(problems) if problems.is_empty() => r.accepted += 1,
                            Ok(problems) => {
                                r.refused += 1;
                                let name = path.display().to_string();
                                if !problems[0].starts_with(&name) && r.unnamed.len() < 20 {
                                    r.unnamed.push(format!(
                                        "case {case} from {}: {}",
                                        orig_path.display(),
                                        problems[0]
                                    ));
                                }
                            }
                            Err(_) => r.panics.push(format!(
                                "case {case} (seed {seed}) from {}",
                                orig_path.display()
                            )),
                        }
                    }
                })
            })
            .collect();
        for w in workers {
            let _ = w.join();
        }
        done.store(true, Ordering::Relaxed);
    });
    let _ = std::fs::remove_dir_all(&dir);
    let mut r = Arc::try_unwrap(report)
        .map_err(|_| "fuzz workers still hold the report")?
        .into_inner()
        .map_err(|_| "a fuzz worker failed")?;
    r.peak_memory_mb = peak_memory_mb();
    Ok(r)
}
