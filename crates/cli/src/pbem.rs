//! Play by email from the command line: `pbem key`, `pbem verify`, and `simulate --pbem`, which
//! writes a computer battle as the turn files two players would have sent.

use sandtable_engine::{DataDirs, Registry, registry::Variant};
use sandtable_remote::{Entropy, Identity, RemoteEntry, turn_file};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Largest turn file read (a Start carries the whole scenario and its army lists).
const MAX_FILE_BYTES: u64 = 8 << 20;

fn entry<'a>(remote: &'a [RemoteEntry], id: &str) -> Result<&'a RemoteEntry, String> {
    remote
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| format!("this program cannot play the ruleset \"{id}\" remotely"))
}

/// `pbem key`: this player's public key (the identity is made on first use).
pub fn key(identity: Option<&Path>) -> Result<(), String> {
    let path = identity.map_or_else(Identity::default_path, Path::to_path_buf);
    let id = Identity::load_or_create(&path)?;
    println!("{}", id.public_hex());
    Ok(())
}

#[derive(Debug, Serialize)]
struct VerifyReport {
    files: usize,
    commands: usize,
    over: bool,
    sealed: usize,
    public_hash: Option<String>,
}

/// `pbem verify`: the whole chain replayed and checked. With `complete`, the battle must be
/// over with every secret open.
pub fn verify(
    remote: &[RemoteEntry],
    paths: &[PathBuf],
    complete: bool,
    json: bool,
) -> Result<(), String> {
    let mut files = Vec::with_capacity(paths.len());
    for p in paths {
        let name = p.display().to_string();
        let len = std::fs::metadata(p)
            .map_err(|e| format!("{name}: {e}"))?
            .len();
        if len > MAX_FILE_BYTES {
            return Err(format!(
                "{name}: {len} bytes, more than a turn file may hold"
            ));
        }
        let bytes = std::fs::read(p).map_err(|e| format!("{name}: {e}"))?;
        files.push((name, bytes));
    }
    let Some((first, bytes)) = files.first() else {
        return Err("no files to verify".into());
    };
    let id = turn_file::ruleset_of(bytes).ok_or_else(|| {
        format!(
            "{first}: not a turn file (it should begin \"sandtable-turn\" and name its ruleset)"
        )
    })?;
    let v = entry(remote, &id)?
        .verify(&files)
        .map_err(|e| e.to_string())?;
    if complete && !(v.over && v.sealed == 0) {
        return Err(format!(
            "{}: the chain verifies but the battle is not complete ({}; {} secret(s) still sealed)",
            files[files.len() - 1].0,
            if v.over { "over" } else { "not over" },
            v.sealed
        ));
    }
    if json {
        let r = VerifyReport {
            files: v.files,
            commands: v.commands,
            over: v.over,
            sealed: v.sealed,
            public_hash: v.public_hash,
        };
        println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
    } else {
        println!(
            "verified: {} files, {} commands; the battle is {}{}",
            v.files,
            v.commands,
            if v.over { "over" } else { "in progress" },
            if v.sealed > 0 {
                format!(", {} secret(s) still sealed", v.sealed)
            } else {
                String::new()
            }
        );
    }
    Ok(())
}

/// `simulate --pbem DIR`: the battle between two computer players, each side with only its own
/// knowledge, written as `DIR/turn-NNNN.ron`. Keys and nonces come from the seed, so the same
/// seed writes the same files.
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    registry: &Registry,
    remote: &[RemoteEntry],
    scenario: &Path,
    dirs: &DataDirs,
    seed: u64,
    kinds: &[String; 2],
    turns: Option<u32>,
    dir: &Path,
    json: bool,
) -> Result<(), String> {
    let game = registry
        .open_scenario(
            scenario,
            dirs,
            Variant {
                turns,
                seed: Some(seed),
            },
        )
        .map_err(|e| e.to_string())?;
    let seats = crate::game::seat_players(registry, game.as_ref(), kinds, seed)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let identities = [0u8, 1].map(|s| {
        let mut b = [0u8; 32];
        b[..8].copy_from_slice(&seed.to_le_bytes());
        b[8] = s + 1;
        Identity::from_secret(b)
    });
    let mut failed = None;
    let mut sink = |i: usize, _by: u8, bytes: &[u8]| {
        let path = dir.join(format!("turn-{i:04}.ron"));
        let text = String::from_utf8_lossy(bytes);
        if let Err(e) = sandtable_engine::data_file::write_atomic(&path, &text) {
            failed.get_or_insert(format!("cannot write {}: {e}", path.display()));
        }
    };
    let out = entry(remote, game.ruleset())?.play_out(
        scenario,
        dirs,
        turns,
        seats,
        identities,
        [Entropy::seeded(seed, 0), Entropy::seeded(seed, 1)],
        &mut sink,
    )?;
    if let Some(e) = failed {
        return Err(e);
    }
    if json {
        #[derive(Serialize)]
        struct Report {
            winner: Option<u8>,
            result: Option<String>,
            files: usize,
            commands: usize,
            public_hash: Option<String>,
        }
        let r = Report {
            winner: out.winner,
            result: out.result,
            files: out.files,
            commands: out.commands,
            public_hash: out.public_hash,
        };
        println!("{}", serde_json::to_string(&r).map_err(|e| e.to_string())?);
    } else {
        let who = match out.winner {
            Some(w) => format!("side {} wins ({})", w + 1, out.result.unwrap_or_default()),
            None => "a draw".into(),
        };
        println!(
            "{who}; {} commands in {} turn files written to {}",
            out.commands,
            out.files,
            dir.display()
        );
    }
    Ok(())
}

/// The options `host` and `join` share.
pub struct Live<'a> {
    pub state: &'a Path,
    pub identity: Option<&'a Path>,
    pub code: Option<String>,
    pub player: &'a str,
    pub seed: u64,
    pub chat: Vec<String>,
}

fn identity(path: Option<&Path>) -> Result<Identity, String> {
    let path = path.map_or_else(Identity::default_path, Path::to_path_buf);
    Identity::load_or_create(&path)
}

fn report(line: &str) {
    use std::io::Write;
    println!("{line}");
    let _ = std::io::stdout().flush();
}

fn finished(f: &sandtable_remote::live::Finished) {
    report(&format!(
        "done: {} files, {} commands; public hash {}",
        f.files,
        f.commands,
        f.public_hash.as_deref().unwrap_or("-")
    ));
}

/// What a live side of the CLI plays with: its folder, identity, code, computer player, chat
/// and the report on standard output.
fn live_options<'a>(
    live: &Live,
    code: String,
    player: Box<dyn sandtable_engine::AnyPlayer>,
    log: &'a mut dyn FnMut(&str),
) -> Result<sandtable_remote::entry::LiveOptions<'a>, String> {
    Ok(sandtable_remote::entry::LiveOptions {
        store: sandtable_remote::store::Store::new(live.state),
        identity: identity(live.identity)?,
        code,
        player,
        chat: live.chat.clone(),
        log,
    })
}

/// `host`: offers the scenario on `bind` and plays its first side with a computer player
/// against whoever joins with the code, until the battle is done.
pub fn host(
    registry: &Registry,
    remote: &[RemoteEntry],
    scenario: &Path,
    dirs: &DataDirs,
    bind: &str,
    live: Live,
) -> Result<(), String> {
    let game = registry
        .open_scenario(scenario, dirs, Variant::default())
        .map_err(|e| e.to_string())?;
    let entry = entry(remote, game.ruleset())?;
    let player = registry.player(game.ruleset(), live.player, live.seed)?;
    let listener = std::net::TcpListener::bind(bind).map_err(|e| format!("{bind}: {e}"))?;
    let code = live
        .code
        .clone()
        .unwrap_or_else(sandtable_remote::live::join_code);
    report(&format!(
        "listening on {}",
        listener.local_addr().map_err(|e| e.to_string())?
    ));
    report(&format!("join code: {code}"));
    let mut log = report;
    let opts = live_options(&live, code, player, &mut log)?;
    let f = entry.host(&listener, scenario, dirs, opts)?;
    finished(&f);
    Ok(())
}

/// `join`: connects to a host and plays the other seat with a computer player.
pub fn join(
    registry: &Registry,
    remote: &[RemoteEntry],
    addr: &str,
    patience_s: u64,
    live: Live,
) -> Result<(), String> {
    let patience = std::time::Duration::from_secs(patience_s);
    let first = sandtable_remote::live::greet(addr, patience)?;
    let sandtable_remote::live::Message::Hello { ruleset, .. } = &first.1 else {
        return Err(format!("{addr}: the host did not say hello"));
    };
    let entry = entry(remote, ruleset)?;
    let player = registry.player(ruleset, live.player, live.seed)?;
    let code = live
        .code
        .clone()
        .ok_or_else(|| "join needs the host's --code".to_string())?;
    let mut log = report;
    let opts = live_options(&live, code, player, &mut log)?;
    let f = entry.join(addr, first, patience, opts)?;
    finished(&f);
    Ok(())
}
