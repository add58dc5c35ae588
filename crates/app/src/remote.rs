//! Remote play in the app (`docs/remote.md`): a battle whose other side is played on another
//! machine, by email (turn files exported and imported) or live (a connection thread).
//!
//! The side itself (`AnyRemote`) keeps the chain and the secrets; the battle on screen is its
//! game, refreshed after every change, so every screen draws it like any other. Each battle
//! keeps its files in a folder of its own under the data folder's `remote/`:
//!
//! - `chain/turn-NNNN.ron`: every file, sent and received;
//! - `private.ron`: never sent;
//! - the folder itself is the inbox: a turn file the other player sent, saved there, is read
//!   as soon as it is the next one.

use crate::battle::{Battle, SeatKind};
use crate::rulesets::{RemoteRulesets, Rulesets};
use bevy::prelude::*;
use sandtable_engine::{DataDirs, Seat, registry::Variant};
use sandtable_remote::any_remote::AnyRemote;
use sandtable_remote::live::Message;
use sandtable_remote::pump::{Pump, Report, Role, Shared};
use sandtable_remote::store::Store;
use sandtable_remote::{Identity, RemoteEntry, digest, entry::entry_for};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// One side of a remote battle, as the app holds it.
pub struct RemoteSide {
    pub handle: Box<dyn AnyRemote>,
    pub store: Store,
    pub folder: PathBuf,
    /// The live connection, or none when playing by email.
    pub pump: Option<Pump>,
    /// The connection's state in words (live only).
    pub connection: String,
    /// The last file written, to say where it is.
    pub exported: Option<PathBuf>,
    /// The last file refused, and why.
    pub refused: Option<String>,
    /// The hash of the inbox file last refused: read again only once it has changed.
    pub refused_inbox: Option<String>,
    /// Chat lines: (mine, text).
    pub chat: Vec<(bool, String)>,
}

impl RemoteSide {
    /// A side kept in `folder`, by email until a connection is given.
    pub fn new(handle: Box<dyn AnyRemote>, store: Store, folder: PathBuf) -> Self {
        Self {
            handle,
            store,
            folder,
            pump: None,
            connection: String::new(),
            exported: None,
            refused: None,
            refused_inbox: None,
            chat: vec![],
        }
    }
}

/// The side, shared by clones of the battle.
#[derive(Clone)]
pub struct Remote(pub Arc<Mutex<RemoteSide>>);

impl Remote {
    pub fn new(side: RemoteSide) -> Self {
        Self(Arc::new(Mutex::new(side)))
    }

    /// The side, locked. A poisoned lock still holds a usable side: a file refused changes
    /// nothing in it (`Ledger::receive` works on a copy).
    pub fn lock(&self) -> std::sync::MutexGuard<'_, RemoteSide> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// This player's identity, made on first use.
pub fn identity() -> Result<Identity, String> {
    Identity::load_or_create(&Identity::default_path())
}

/// A new folder for a battle: `<remote>/<name>-<first 8 hex of the Start's hash>`.
fn battle_folder(name: &str, start: &[u8]) -> PathBuf {
    let stem: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { '-' })
        .collect();
    crate::paths::remote_dir().join(format!("{stem}-{}", &digest::file_hash(start)[..8]))
}

fn keep_all(store: &Store, handle: &dyn AnyRemote, files: &[(usize, &[u8])]) -> Result<(), String> {
    // The files first: a private store without them reads as no battle yet.
    for (i, b) in files {
        store.keep_file(*i, b).map_err(|e| e.to_string())?;
    }
    store
        .keep_private(&handle.private())
        .map_err(|e| e.to_string())
}

/// A battle on screen for a remote side: the other seat remote, no coach (the computer's
/// judgement is not a player's to consult against another person).
fn battle_for(side: RemoteSide, path: PathBuf) -> Battle {
    let seat = side.handle.seat();
    let game = side.handle.game().unwrap_or_else(|| side.handle.opening());
    let mut seats = [SeatKind::Remote; 2];
    seats[seat.min(1) as usize] = SeatKind::Human;
    let mut b = Battle::with_seats(game, path, seats);
    b.remote = Some(Remote::new(side));
    b.coach = None;
    b
}

/// The remote entry for a scenario's ruleset.
fn entry_for_scenario<'a>(
    remote: &'a RemoteRulesets,
    rulesets: &Rulesets,
    scenario: &Path,
    dirs: &DataDirs,
) -> Result<&'a RemoteEntry, String> {
    let game = rulesets
        .0
        .open_scenario(scenario, dirs, Variant::default())
        .map_err(|e| e.to_string())?;
    remote
        .0
        .iter()
        .find(|e| e.id == game.ruleset())
        .ok_or_else(|| format!("{} cannot be played remotely yet", game.ruleset_name()))
}

/// Starts a battle by email: this player takes `seat` against the player whose key is
/// `opponent`. The Start is written at once; send it to the other player.
pub fn start_by_email(
    remote: &RemoteRulesets,
    rulesets: &Rulesets,
    scenario: &Path,
    dirs: &DataDirs,
    seat: Seat,
    opponent: &str,
) -> Result<Battle, String> {
    let entry = entry_for_scenario(remote, rulesets, scenario, dirs)?;
    let (handle, start) = entry.start(scenario, dirs, identity()?, seat, opponent.trim())?;
    let name = scenario
        .file_stem()
        .map_or("battle".into(), |s| s.to_string_lossy().into_owned());
    let folder = battle_folder(&name, &start);
    let store = Store::new(&folder);
    keep_all(&store, handle.as_ref(), &[(0, &start)])?;
    let exported = store.file_path(0);
    let mut side = RemoteSide::new(handle, store, folder.clone());
    side.exported = Some(exported.clone());
    let mut b = battle_for(side, folder);
    b.notice = Some(format!(
        "The battle is offered: send {} to the other player. Their answer, saved into {}, is read at once.",
        exported.display(),
        b.remote_folder()
            .map(|f| f.display().to_string())
            .unwrap_or_default()
    ));
    Ok(b)
}

/// Opens a turn file from the start screen: a Start offered to this player is accepted (a new
/// battle); a file of a battle in progress goes to that battle.
pub fn open_turn_file(remote: &RemoteRulesets, path: &Path) -> Result<Battle, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.display().to_string();
    let entry = entry_for(&remote.0, &bytes)
        .ok_or_else(|| format!("{name}: not a turn file of a ruleset this program plays"))?;
    // A file of a battle in progress: the battle whose chain it continues.
    if let Some(folder) = find_battle_of(&bytes) {
        let mut b = resume(remote, &folder)?;
        b.remote_import(&name, &bytes);
        return Ok(b);
    }
    let stem = path
        .file_stem()
        .map_or("battle".into(), |s| s.to_string_lossy().into_owned());
    let folder = battle_folder(&stem, &bytes);
    // A Start accepted before: the battle goes on (accepting again would forget its secrets).
    if folder.join("private.ron").is_file() {
        return resume(remote, &folder);
    }
    let (handle, accept) = entry
        .accept(identity()?, &name, &bytes)
        .map_err(|e| e.to_string())?;
    let store = Store::new(&folder);
    keep_all(&store, handle.as_ref(), &[(0, &bytes), (1, &accept)])?;
    let exported = store.file_path(1);
    let mut side = RemoteSide::new(handle, store, folder.clone());
    side.exported = Some(exported.clone());
    let mut b = battle_for(side, folder);
    b.notice = Some(format!(
        "Accepted: send {} back to the other player.",
        exported.display()
    ));
    Ok(b)
}

/// The folder of the battle whose chain `bytes` continues (its `prev` is the hash of a file
/// kept there), if any.
fn find_battle_of(bytes: &[u8]) -> Option<PathBuf> {
    let prev = sandtable_remote::turn_file::prev_of(bytes)?;
    for dir in std::fs::read_dir(crate::paths::remote_dir())
        .ok()?
        .flatten()
    {
        let chain = dir.path().join("chain");
        let Ok(files) = std::fs::read_dir(&chain) else {
            continue;
        };
        for f in files.flatten() {
            if std::fs::read(f.path()).is_ok_and(|b| digest::file_hash(&b) == prev) {
                return Some(dir.path());
            }
        }
    }
    None
}

/// Battles in progress: each folder under `remote/` with a private store, newest first.
pub fn battles_in_progress() -> Vec<PathBuf> {
    let Ok(dirs) = std::fs::read_dir(crate::paths::remote_dir()) else {
        return vec![];
    };
    let mut v: Vec<(std::time::SystemTime, PathBuf)> = dirs
        .flatten()
        .map(|d| d.path())
        .filter(|p| p.join("private.ron").is_file())
        .map(|p| {
            let t = std::fs::metadata(p.join("private.ron"))
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (t, p)
        })
        .collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.0));
    v.into_iter().map(|(_, p)| p).collect()
}

/// A battle again from its folder.
pub fn resume(remote: &RemoteRulesets, folder: &Path) -> Result<Battle, String> {
    let store = Store::new(folder);
    let (files, private) = store
        .load()
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("{}: no battle kept there", folder.display()))?;
    let first = files
        .first()
        .ok_or_else(|| format!("{}: the battle's first file is missing", folder.display()))?;
    let entry = entry_for(&remote.0, &first.1)
        .ok_or_else(|| format!("{}: not a battle of a ruleset this program plays", first.0))?;
    let handle = entry
        .restore(identity()?, &files, private)
        .map_err(|e| e.to_string())?;
    let mut side = RemoteSide::new(handle, store, folder.to_path_buf());
    // A live battle connects again, as it did.
    if let Some(spec) = std::fs::read_to_string(folder.join("live.ron"))
        .ok()
        .and_then(|t| ron::from_str::<LiveSpec>(&t).ok())
    {
        match reconnect(&side, &spec) {
            Ok(pump) => {
                side.pump = Some(pump);
                side.connection = "Connecting again…".into();
            }
            Err(e) => side.connection = format!("Cannot connect again ({e}): play on by email."),
        }
    }
    let mut b = battle_for(side, folder.to_path_buf());
    b.remote_flush();
    Ok(b)
}

/// The connection thread of a live battle resumed: hosting on its address again, or joining
/// its host again; it knows the battle's files and the other player's key already.
fn reconnect(side: &RemoteSide, spec: &LiveSpec) -> Result<Pump, String> {
    let role = match (&spec.host, &spec.join) {
        (Some(bind), _) => {
            Role::Host(std::net::TcpListener::bind(bind).map_err(|e| format!("{bind}: {e}"))?)
        }
        (None, Some(addr)) => Role::Join(addr.clone()),
        (None, None) => return Err("no address kept".into()),
    };
    let seat = side.handle.seat();
    let other = side.handle.players()[1 - seat.min(1) as usize].clone();
    let mut shared = Shared::new(
        side.handle.ruleset().into(),
        identity()?.public_hex(),
        spec.code.clone(),
    );
    shared.files = side.handle.file_count().into();
    shared.expect = Mutex::new(Some(other));
    shared.folder = Mutex::new(side.folder.clone());
    Ok(Pump::start(role, shared))
}

/// A live game being set up on the start screen: a host waiting for a player, or a joiner
/// waiting for the battle.
#[derive(Resource)]
pub struct PendingLive {
    /// Taken by the battle once it exists.
    pub pump: Option<Pump>,
    /// The scenario, for a host.
    pub scenario: Option<PathBuf>,
    /// What to show while waiting.
    pub status: String,
    pub code: String,
    /// How to connect again after a restart (kept in the battle's folder as `live.ron`).
    pub again: LiveSpec,
}

/// How a live battle connects, kept beside its files so that a battle resumed after a
/// restart connects again: host on `host`'s address, or join the host at `join`.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LiveSpec {
    #[serde(default)]
    pub host: Option<String>,
    #[serde(default)]
    pub join: Option<String>,
    pub code: String,
}

/// Starts hosting `scenario` on `bind` (e.g. "0.0.0.0:7878").
pub fn host(
    remote: &RemoteRulesets,
    rulesets: &Rulesets,
    scenario: &Path,
    dirs: &DataDirs,
    bind: &str,
) -> Result<PendingLive, String> {
    let entry = entry_for_scenario(remote, rulesets, scenario, dirs)?;
    let listener = std::net::TcpListener::bind(bind).map_err(|e| format!("{bind}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let code = sandtable_remote::live::join_code();
    let id = identity()?;
    let pump = Pump::start(
        Role::Host(listener),
        Shared::new(entry.id.into(), id.public_hex(), code.clone()),
    );
    Ok(PendingLive {
        again: LiveSpec {
            host: Some(addr.to_string()),
            join: None,
            code: code.clone(),
        },
        pump: Some(pump),
        scenario: Some(scenario.to_path_buf()),
        status: format!(
            "Waiting for a player on port {}: give them the code {code}.",
            addr.port()
        ),
        code,
    })
}

/// Joins the host at `addr` with its `code`.
pub fn join(addr: &str, code: &str) -> Result<PendingLive, String> {
    let id = identity()?;
    // A joiner with no battle yet names no ruleset: it plays the host's.
    let pump = Pump::start(
        Role::Join(addr.trim().to_string()),
        Shared::new(String::new(), id.public_hex(), code.trim().to_uppercase()),
    );
    Ok(PendingLive {
        again: LiveSpec {
            host: None,
            join: Some(addr.trim().to_string()),
            code: code.trim().to_uppercase(),
        },
        pump: Some(pump),
        scenario: None,
        status: format!("Connecting to {addr}…"),
        code: code.to_string(),
    })
}

/// A live game being set up: the host starts the battle naming the player who joined; the
/// joiner accepts the Start the host sends. Returns the battle once it exists.
pub fn settle(
    pending: &mut PendingLive,
    remote: &RemoteRulesets,
    rulesets: &Rulesets,
    dirs: &DataDirs,
) -> Option<Result<Battle, String>> {
    let reports = pending.pump.as_ref().map(Pump::reports).unwrap_or_default();
    for r in reports {
        match r {
            Report::Greeted { key, .. } => {
                let Some(scenario) = pending.scenario.clone() else {
                    pending.status = "Connected: waiting for the battle…".into();
                    continue;
                };
                return Some(host_start(pending, remote, rulesets, &scenario, dirs, &key));
            }
            Report::Got(Message::File { index: 0, text }) if pending.scenario.is_none() => {
                return Some(join_accept(pending, remote, text.as_bytes()));
            }
            Report::Got(Message::Refused(why)) | Report::Turned(why) => {
                pending.status = format!("Refused: {why}");
            }
            Report::Lost(why) => pending.status = format!("Connection lost ({why}); trying again…"),
            Report::Got(_) => {}
        }
    }
    None
}

fn host_start(
    pending: &mut PendingLive,
    remote: &RemoteRulesets,
    rulesets: &Rulesets,
    scenario: &Path,
    dirs: &DataDirs,
    key: &str,
) -> Result<Battle, String> {
    let entry = entry_for_scenario(remote, rulesets, scenario, dirs)?;
    let (handle, start) = entry.start(scenario, dirs, identity()?, 0, key)?;
    let name = scenario
        .file_stem()
        .map_or("battle".into(), |s| s.to_string_lossy().into_owned());
    let folder = battle_folder(&name, &start);
    let store = Store::new(&folder);
    keep_all(&store, handle.as_ref(), &[(0, &start)])?;
    Ok(live_battle(pending, handle, store, folder, &[(0, start)]))
}

fn join_accept(
    pending: &mut PendingLive,
    remote: &RemoteRulesets,
    start: &[u8],
) -> Result<Battle, String> {
    let entry = entry_for(&remote.0, start)
        .ok_or("the host offers a ruleset this program does not play")?;
    let (handle, accept) = entry
        .accept(identity()?, "the host's Start", start)
        .map_err(|e| e.to_string())?;
    let folder = battle_folder("live", start);
    let store = Store::new(&folder);
    keep_all(&store, handle.as_ref(), &[(0, start), (1, &accept)])?;
    Ok(live_battle(pending, handle, store, folder, &[(1, accept)]))
}

/// The battle of a live game: the pump moves into the side, learns the battle's folder and the
/// other player's key, and carries the files just made.
fn live_battle(
    pending: &mut PendingLive,
    handle: Box<dyn AnyRemote>,
    store: Store,
    folder: PathBuf,
    send: &[(usize, Vec<u8>)],
) -> Battle {
    let seat = handle.seat();
    let other = handle.players()[1 - seat.min(1) as usize].clone();
    if let Ok(text) = ron::to_string(&pending.again) {
        let _ = sandtable_engine::data_file::write_atomic(&folder.join("live.ron"), &text);
    }
    let pump = pending.pump.take();
    if let Some(pump) = &pump {
        let shared = &pump.shared;
        shared.files.store(handle.file_count(), Ordering::Relaxed);
        if let Ok(mut e) = shared.expect.lock() {
            *e = Some(other);
        }
        // The thread reads files to send again from the battle's folder from now on.
        if let Ok(mut f) = shared.folder.lock() {
            *f = folder.clone();
        }
        for (index, bytes) in send {
            pump.send(Message::File {
                index: *index,
                text: String::from_utf8_lossy(bytes).into_owned(),
            });
        }
    }
    let mut side = RemoteSide::new(handle, store, folder.clone());
    side.pump = pump;
    side.connection = "Connected.".into();
    battle_for(side, folder)
}

/// Reads what came in for a remote battle, every frame: the inbox once a second (by email),
/// the connection's reports (live).
pub fn poll(battle: Option<ResMut<Battle>>, time: Res<Time>, mut last_scan: Local<f32>) {
    let Some(mut battle) = battle else {
        return;
    };
    let now = time.elapsed_secs();
    let scan = now - *last_scan > 1.0;
    if scan {
        *last_scan = now;
    }
    battle.remote_poll(scan);
}

impl Battle {
    /// Takes in what came for a remote battle: files, chat, refusals, the connection's state;
    /// with `scan_inbox`, a turn file saved into the battle's folder (by email).
    pub fn remote_poll(&mut self, scan_inbox: bool) {
        let Some(remote) = self.remote.clone() else {
            return;
        };
        let (reports, inbox) = {
            let side = remote.lock();
            let reports = side.pump.as_ref().map(Pump::reports).unwrap_or_default();
            let inbox = (side.pump.is_none() && scan_inbox).then(|| {
                side.folder
                    .join(format!("turn-{:04}.ron", side.handle.file_count()))
            });
            (reports, inbox)
        };
        if let Some(path) = inbox.filter(|p| p.is_file())
            && let Ok(bytes) = std::fs::read(&path)
        {
            let hash = sandtable_remote::digest::file_hash(&bytes);
            let (seen, before) = {
                let side = remote.lock();
                (side.refused_inbox.clone(), side.handle.file_count())
            };
            if seen.as_deref() != Some(hash.as_str()) {
                self.remote_import(&path.display().to_string(), &bytes);
                let mut side = remote.lock();
                // Refused: not read again (and not refused again every second) until changed.
                side.refused_inbox = (side.handle.file_count() == before).then_some(hash);
            }
        }
        for r in reports {
            match r {
                Report::Got(Message::File { index, text }) => {
                    self.remote_import(&format!("turn file #{index}"), text.as_bytes());
                }
                Report::Got(Message::Chat(t)) => remote.lock().chat.push((false, t)),
                Report::Got(Message::Ready) => {
                    self.notice = Some("The other player is ready.".into());
                }
                Report::Got(Message::Refused(why)) => {
                    remote.lock().refused = Some(format!("The other side refused our file: {why}"));
                }
                Report::Got(Message::Bye) | Report::Got(Message::Hello { .. }) => {}
                Report::Greeted { .. } => remote.lock().connection = "Connected.".into(),
                Report::Lost(why) => {
                    remote.lock().connection = format!("Connection lost ({why}); trying again…")
                }
                Report::Turned(why) => {
                    remote.lock().connection = format!("Refused a connection: {why}")
                }
            }
        }
    }

    /// The battle's folder, for a remote battle.
    pub fn remote_folder(&self) -> Option<PathBuf> {
        self.remote.as_ref().map(|r| r.lock().folder.clone())
    }

    /// Reads a turn file of the other side's: refused with the reason, or taken in (kept, the
    /// battle refreshed, and this side's answer written if one is due).
    pub fn remote_import(&mut self, name: &str, bytes: &[u8]) {
        let Some(remote) = self.remote.clone() else {
            return;
        };
        {
            let mut side = remote.lock();
            let index = side.handle.file_count();
            if let Some(i) = sandtable_remote::turn_file::index_of(bytes)
                && i < index
            {
                // Sent again after a reconnection: already held.
                return;
            }
            if let Err(e) = side.handle.receive(name, bytes) {
                side.refused = Some(e.to_string());
                self.notice = Some(format!("Refused: {e}"));
                if let Some(p) = &side.pump {
                    p.send(Message::Refused(e.to_string()));
                }
                return;
            }
            side.refused = None;
            self.notice = None;
            if let Err(e) = side.store.keep_file(index, bytes) {
                self.notice = Some(format!("Could not keep the file: {e}"));
            }
            if let Some(p) = &side.pump {
                p.shared
                    .files
                    .store(side.handle.file_count(), Ordering::Relaxed);
            }
            if let Some(g) = side.handle.game() {
                self.game = g;
            }
        }
        self.remote_changed();
        self.remote_flush();
    }

    /// After a command or a file: the log, the screen.
    pub(crate) fn remote_changed(&mut self) {
        self.rebuild_log();
        self.refresh();
    }

    /// Writes this side's next file when one is due: kept, then sent (live) or left for the
    /// player to send (by email).
    pub fn remote_flush(&mut self) {
        let Some(remote) = self.remote.clone() else {
            return;
        };
        let mut side = remote.lock();
        while side.handle.to_write() {
            let index = side.handle.file_count();
            let bytes = match side.handle.write() {
                Ok(b) => b,
                Err(e) => {
                    self.notice = Some(format!("Could not write the turn file: {e}"));
                    return;
                }
            };
            // Kept before it is sent. The file first: its secrets are in the private store
            // since they were played, and a private store kept without the file would forget
            // the commands the file carries.
            let private = side.handle.private();
            let kept = side
                .store
                .keep_file(index, &bytes)
                .and_then(|()| side.store.keep_private(&private));
            if let Err(e) = kept {
                // Not sent: resuming the battle writes the same file again (its commands are
                // in the private store, its nonces derive from the master secret).
                self.notice = Some(format!(
                    "Could not keep the turn file, so it was not sent: {e}. Free the disk and resume the battle to write it again."
                ));
                return;
            }
            let path = side.store.file_path(index);
            match &side.pump {
                Some(p) => {
                    p.shared
                        .files
                        .store(side.handle.file_count(), Ordering::Relaxed);
                    p.send(Message::File {
                        index,
                        text: String::from_utf8_lossy(&bytes).into_owned(),
                    });
                }
                None => {
                    self.notice = Some(format!(
                        "Your turn is done: send {} to the other player.",
                        path.display()
                    ));
                }
            }
            side.exported = Some(path);
        }
    }

    /// What the remote side waits for, in words.
    pub fn remote_waiting(&self) -> Option<String> {
        self.remote.as_ref().map(|r| r.lock().handle.waiting())
    }
}
