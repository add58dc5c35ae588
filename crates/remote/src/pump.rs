//! Live play for a program that keeps its own loop (the app): a thread that holds the
//! connection, says hello, sends the files the other side lacks, and passes messages both ways
//! through channels. It connects again (joining) or waits for the other side again (hosting)
//! whenever the connection drops. It knows no ruleset: the side itself stays with the caller.

use crate::live::{Greeting, Link, Message, exchange, refusal};
use crate::store::Store;
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often a live connection is pinged.
const PING_EVERY: Duration = Duration::from_secs(5);
/// A connection silent this long (no message, no answer to a ping) is taken for dropped.
const SILENCE_LIMIT: Duration = Duration::from_secs(30);

/// Host or join.
pub enum Role {
    Host(TcpListener),
    Join(String),
}

/// What the connection thread reports.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// Connected and greeted: the other side's key and ruleset, and how many files it holds.
    Greeted {
        key: String,
        ruleset: String,
        files: usize,
    },
    /// A message from the other side (a file, a chat line, "ready", a refusal, goodbye).
    Got(Message),
    /// The connection dropped; the thread is trying again.
    Lost(String),
    /// The other side was refused at hello (wrong code, not this battle's player).
    Turned(String),
}

/// What the thread knows of this side, shared with the caller.
pub struct Shared {
    pub ruleset: String,
    pub key: String,
    pub code: String,
    /// Files of the chain this side holds (the caller updates it as it keeps them).
    pub files: AtomicUsize,
    /// The other player's key, once the battle names it: anyone else is refused.
    pub expect: Mutex<Option<String>>,
    /// Where this side keeps its files (to send the other what it lacks); set once the
    /// battle has a folder.
    pub folder: Mutex<PathBuf>,
    pub stop: AtomicBool,
}

impl Shared {
    /// A side with no battle yet: no files, any player, no folder.
    pub fn new(ruleset: String, key: String, code: String) -> Self {
        Self {
            ruleset,
            key,
            code,
            files: AtomicUsize::new(0),
            expect: Mutex::new(None),
            folder: Mutex::new(PathBuf::new()),
            stop: AtomicBool::new(false),
        }
    }
}

/// The caller's end of the connection thread.
pub struct Pump {
    pub shared: Arc<Shared>,
    out: Sender<Message>,
    /// Behind a lock so that the pump may live in a resource shared across threads.
    reports: Mutex<Receiver<Report>>,
}

impl Pump {
    /// Starts the thread.
    pub fn start(role: Role, shared: Shared) -> Self {
        let shared = Arc::new(shared);
        let (out, out_rx) = channel::<Message>();
        let (rep_tx, reports) = channel::<Report>();
        let s = shared.clone();
        std::thread::spawn(move || run(role, &s, &out_rx, &rep_tx));
        Self {
            shared,
            out,
            reports: Mutex::new(reports),
        }
    }

    /// Sends a message (queued while the connection is down).
    pub fn send(&self, m: Message) {
        let _ = self.out.send(m);
    }

    /// The reports that have come in.
    pub fn reports(&self) -> Vec<Report> {
        let mut v = Vec::new();
        if let Ok(rx) = self.reports.lock() {
            while let Ok(r) = rx.try_recv() {
                v.push(r);
            }
        }
        v
    }
}

impl Drop for Pump {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

fn run(role: Role, s: &Shared, out: &Receiver<Message>, rep: &Sender<Report>) {
    if let Role::Host(l) = &role {
        // Accept with a timeout, so that a battle closed on this side ends the thread.
        let _ = l.set_nonblocking(true);
    }
    while !s.stop.load(Ordering::Relaxed) {
        let link = match &role {
            Role::Host(l) => match l.accept() {
                Ok((stream, _)) => {
                    let _ = stream.set_nonblocking(false);
                    Link::handshake(stream)
                }
                Err(_) => {
                    std::thread::sleep(Duration::from_millis(100));
                    continue;
                }
            },
            Role::Join(addr) => Link::connect(addr),
        };
        let mut link = match link {
            Ok(l) => l,
            Err(_) => {
                std::thread::sleep(Duration::from_millis(300));
                continue;
            }
        };
        let hosting = matches!(role, Role::Host(_));
        match converse(&mut link, hosting, s, out, rep) {
            Ok(()) => return,
            Err(why) => {
                if rep.send(Report::Lost(why)).is_err() {
                    return;
                }
            }
        }
    }
}

/// Hello, catch-up, then messages both ways until the connection drops (`Err`) or this side
/// stops (`Ok`).
fn converse(
    link: &mut Link,
    hosting: bool,
    s: &Shared,
    out: &Receiver<Message>,
    rep: &Sender<Report>,
) -> Result<(), String> {
    let ours = Greeting {
        ruleset: s.ruleset.clone(),
        key: s.key.clone(),
        code: s.code.clone(),
        files: s.files.load(Ordering::Relaxed),
    };
    link.set_read_timeout(Some(crate::live::HELLO_TIMEOUT));
    let dropped = |e: crate::live::Broken| format!("{e:?}");
    let theirs = exchange(link, hosting, &ours, None).map_err(dropped)?;
    let expected = s.expect.lock().map(|e| e.clone()).unwrap_or(None);
    let refusal = refusal(hosting, &ours, expected.as_deref(), &theirs);
    if let Some(why) = refusal {
        let _ = link.send(&Message::Refused(why.clone()));
        let _ = rep.send(Report::Turned(why.clone()));
        return Err(why);
    }
    let Greeting {
        key,
        ruleset,
        files,
        ..
    } = theirs;
    rep.send(Report::Greeted {
        key,
        ruleset,
        files,
    })
    .map_err(|_| "closed".to_string())?;
    let folder = s.folder.lock().map(|f| f.clone()).unwrap_or_default();
    let store = Store::new(&folder);
    let mine = s.files.load(Ordering::Relaxed);
    for index in files..mine {
        let text = std::fs::read_to_string(store.file_path(index)).map_err(|e| e.to_string())?;
        link.send(&Message::File { index, text }).map_err(dropped)?;
    }
    link.set_read_timeout(Some(Duration::from_millis(50)));
    // A half-open connection looks alive: ping now and then, and give up on a silent one.
    let mut last_heard = Instant::now();
    let mut last_ping = Instant::now();
    loop {
        if s.stop.load(Ordering::Relaxed) {
            let _ = link.send(&Message::Bye);
            return Ok(());
        }
        if last_ping.elapsed() > PING_EVERY {
            last_ping = Instant::now();
            link.ping().map_err(dropped)?;
        }
        if last_heard.elapsed() > SILENCE_LIMIT {
            return Err(format!("nothing heard for {} s", SILENCE_LIMIT.as_secs()));
        }
        loop {
            match out.try_recv() {
                Ok(m) => link.send(&m).map_err(dropped)?,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return Ok(()),
            }
        }
        match link.poll() {
            Ok(Some(m)) => {
                last_heard = Instant::now();
                if rep.send(Report::Got(m)).is_err() {
                    return Ok(());
                }
            }
            Ok(None) => {
                if link.heard_anything() {
                    last_heard = Instant::now();
                }
            }
            Err(e) => return Err(dropped(e)),
        }
    }
}
