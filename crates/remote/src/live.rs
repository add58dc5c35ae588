//! Live play over the network: the same turn files as play by email, sent as WebSocket text
//! messages (tungstenite over TCP; `docs/remote.md` says why), so every guarantee of the files
//! holds live. A connection dropped is taken up again from the chain each side keeps; a
//! file refused is answered with the reason, and the game stops there.
//!
//! The exchange: both sides say `Hello` (their key, the join code, how many files they hold);
//! each sends the files the other lacks; then they play, each sending its file when it hands
//! over, with `Chat` and `Ready` between. `Bye` when the battle is done.

use crate::digest::Entropy;
use crate::error::RemoteError;
use crate::identity::Identity;
use crate::peer::Peer;
use crate::play_out::Chooser;
use crate::store::Store;
use sandtable_engine::Ruleset;
use serde::{Deserialize, Serialize};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};
use tungstenite::WebSocket;

/// One message between the two programs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Message {
    /// The ruleset, who this is, the join code, and how many files of the chain it holds.
    /// The host speaks first.
    Hello {
        ruleset: String,
        key: String,
        code: String,
        files: usize,
    },
    /// File `index` of the chain, whole.
    File { index: usize, text: String },
    /// A line for the other player.
    Chat(String),
    /// "I have read what happened; go on."
    Ready,
    /// The last message was refused, and why; the game stops.
    Refused(String),
    /// The battle is done on this side.
    Bye,
}

/// How long a new connection may take to say hello: a stray connection (a port scanner) does
/// not hold the host.
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

/// A connection to the other program.
pub struct Link {
    ws: WebSocket<TcpStream>,
    /// A frame (a pong, a ping) came in since [`Link::heard_anything`] was last asked.
    heard: bool,
}

/// Why a conversation ended early.
#[derive(Debug)]
pub enum Broken {
    /// The connection dropped: take it up again.
    Dropped(String),
    /// A file or message was refused (by either side): the game cannot go on.
    Refused(String),
}

impl Link {
    /// Waits for the other program to connect.
    pub fn accept(listener: &TcpListener) -> Result<Self, String> {
        let (stream, _) = listener.accept().map_err(|e| e.to_string())?;
        Self::handshake(stream)
    }

    /// The WebSocket handshake on a connection accepted, within [`HELLO_TIMEOUT`]; later reads
    /// wait as long as the other player thinks.
    pub fn handshake(stream: TcpStream) -> Result<Self, String> {
        let _ = stream.set_read_timeout(Some(HELLO_TIMEOUT));
        let ws = tungstenite::accept(stream).map_err(|e| e.to_string())?;
        Ok(Self { ws, heard: false })
    }

    /// Connects to a host at `addr` ("host:port").
    pub fn connect(addr: &str) -> Result<Self, String> {
        let sock = addr
            .to_socket_addrs()
            .map_err(|e| format!("{addr}: {e}"))?
            .next()
            .ok_or_else(|| format!("{addr}: no such address"))?;
        let stream = TcpStream::connect_timeout(&sock, Duration::from_secs(5))
            .map_err(|e| format!("{addr}: {e}"))?;
        let _ = stream.set_read_timeout(Some(HELLO_TIMEOUT));
        let (ws, _) = tungstenite::client(format!("ws://{addr}/"), stream)
            .map_err(|e| format!("{addr}: {e}"))?;
        Ok(Self { ws, heard: false })
    }

    /// Sends a ping; the other side's WebSocket answers it with a pong.
    pub fn ping(&mut self) -> Result<(), Broken> {
        self.ws
            .send(tungstenite::Message::Ping(Vec::new().into()))
            .map_err(|e| Broken::Dropped(e.to_string()))
    }

    /// Did any frame come in since last asked (a pong counts)?
    pub fn heard_anything(&mut self) -> bool {
        std::mem::take(&mut self.heard)
    }

    /// Sets how long [`Link::poll`] waits for a message.
    pub fn set_read_timeout(&mut self, t: Option<Duration>) {
        let _ = self.ws.get_ref().set_read_timeout(t);
    }

    /// The next message if one comes within the read timeout, else `None`.
    pub fn poll(&mut self) -> Result<Option<Message>, Broken> {
        loop {
            match self.ws.read() {
                Ok(tungstenite::Message::Text(t)) => {
                    return ron::from_str(t.as_str()).map(Some).map_err(|e| {
                        Broken::Refused(format!("a message that does not read: {}", e.code))
                    });
                }
                Ok(tungstenite::Message::Close(_)) => {
                    return Err(Broken::Dropped(
                        "the other side closed the connection".into(),
                    ));
                }
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Ok(None);
                }
                Err(e) => return Err(Broken::Dropped(e.to_string())),
            }
        }
    }

    pub fn send(&mut self, m: &Message) -> Result<(), Broken> {
        let text = ron::to_string(m).map_err(|e| Broken::Dropped(e.to_string()))?;
        self.ws
            .send(tungstenite::Message::text(text))
            .map_err(|e| Broken::Dropped(e.to_string()))
    }

    /// The next message; a dropped connection is [`Broken::Dropped`], a message that does not
    /// read is refused.
    pub fn recv(&mut self) -> Result<Message, Broken> {
        loop {
            match self.ws.read() {
                Ok(tungstenite::Message::Text(t)) => {
                    return ron::from_str(t.as_str()).map_err(|e| {
                        Broken::Refused(format!("a message that does not read: {}", e.code))
                    });
                }
                Ok(tungstenite::Message::Close(_)) => {
                    return Err(Broken::Dropped(
                        "the other side closed the connection".into(),
                    ));
                }
                Ok(_) => continue,
                Err(e) => return Err(Broken::Dropped(e.to_string())),
            }
        }
    }
}

/// One side of a live game: where it keeps its files, who it is, the join code, who decides
/// its commands, and where it reports what happens.
pub struct Side<'a, R: Ruleset> {
    pub store: Store,
    pub identity: Identity,
    pub code: String,
    pub chooser: Chooser<'a, R>,
    pub log: &'a mut dyn FnMut(&str),
    /// Chat lines to send once connected.
    pub chat: Vec<String>,
}

/// How a live game ended for this side.
#[derive(Debug, Clone)]
pub struct Finished {
    pub files: usize,
    pub commands: usize,
    pub public_hash: Option<String>,
}

fn refused(e: RemoteError) -> Broken {
    Broken::Refused(e.to_string())
}

impl<R: Ruleset> Side<'_, R> {
    fn restore(&mut self) -> Result<Option<Peer<R>>, Broken> {
        match self.store.load().map_err(refused)? {
            Some((files, private)) => {
                let p = Peer::restore(self.identity.clone(), &files, private).map_err(refused)?;
                (self.log)(&format!(
                    "resumed from {} files (public hash {})",
                    p.file_count(),
                    hash_of(&p)
                ));
                Ok(Some(p))
            }
            None => Ok(None),
        }
    }

    /// Hosts a battle of `setup` on `listener`, playing seat 0, until it is done. Dropped
    /// connections are waited for again; a restarted host goes on from its store.
    pub fn host(&mut self, listener: &TcpListener, setup: R::Setup) -> Result<Finished, String> {
        let mut peer = self.restore().map_err(|b| format!("{b:?}"))?;
        loop {
            let mut link = Link::accept(listener)?;
            match self.hello(&mut link, &mut peer, Some(&setup), None) {
                Ok(()) => {}
                Err(Broken::Dropped(why)) => {
                    (self.log)(&format!("connection lost: {why}"));
                    continue;
                }
                Err(Broken::Refused(why)) => {
                    let _ = link.send(&Message::Refused(why.clone()));
                    (self.log)(&format!("refused a connection: {why}"));
                    continue;
                }
            }
            match self.converse(&mut link, &mut peer) {
                Ok(f) => return Ok(f),
                Err(Broken::Dropped(why)) => (self.log)(&format!("connection lost: {why}")),
                Err(Broken::Refused(why)) => return Err(why),
            }
        }
    }

    /// Joins the host at `addr` on the connection [`greet`] opened (with the host's hello),
    /// connecting again for up to `patience` whenever the connection drops, until the battle
    /// is done.
    pub fn join(
        &mut self,
        addr: &str,
        first: (Link, Message),
        patience: Duration,
    ) -> Result<Finished, String> {
        let mut peer = self.restore().map_err(|b| format!("{b:?}"))?;
        let mut next = Some(first);
        loop {
            let (mut link, theirs) = match next.take() {
                Some(f) => f,
                None => greet(addr, patience)?,
            };
            let r = self
                .hello(&mut link, &mut peer, None, Some(theirs))
                .and_then(|()| self.converse(&mut link, &mut peer));
            match r {
                Ok(f) => return Ok(f),
                Err(Broken::Dropped(why)) => (self.log)(&format!("connection lost: {why}")),
                Err(Broken::Refused(why)) => return Err(why),
            }
        }
    }

    /// Says who this is, checks who the other is, and sends the files it lacks. A host that has
    /// no battle yet starts one naming the joiner's key.
    fn hello(
        &mut self,
        link: &mut Link,
        peer: &mut Option<Peer<R>>,
        setup: Option<&R::Setup>,
        theirs: Option<Message>,
    ) -> Result<(), Broken> {
        let hosting = setup.is_some();
        let expected = peer
            .as_ref()
            .map(|p| p.ledger().players()[1 - p.seat() as usize].clone());
        let ours = Greeting {
            ruleset: R::ID.into(),
            key: self.identity.public_hex(),
            code: self.code.clone(),
            files: peer.as_ref().map_or(0, Peer::file_count),
        };
        let theirs = exchange(link, hosting, &ours, theirs)?;
        if let Some(why) = refusal(hosting, &ours, expected.as_deref(), &theirs) {
            return Err(Broken::Refused(why));
        }
        let Greeting { key, files, .. } = theirs;
        if let (None, Some(setup)) = (peer.as_ref(), setup) {
            let (p, start) =
                Peer::<R>::start(self.identity.clone(), 0, setup.clone(), &key, Entropy::Os)
                    .map_err(refused)?;
            // The file first: a private store without it reads as no battle yet.
            self.store.keep_file(0, &start).map_err(refused)?;
            self.store.keep_private(&p.private()).map_err(refused)?;
            *peer = Some(p);
        }
        // Greeted: a read now waits as long as a computer player may think, and a connection
        // silent for longer is taken for dropped (and taken up again).
        link.set_read_timeout(Some(Duration::from_secs(300)));
        for m in std::mem::take(&mut self.chat) {
            link.send(&Message::Chat(m))?;
        }
        let mine = peer.as_ref().map_or(0, Peer::file_count);
        for index in files..mine {
            let bytes = std::fs::read(self.store.file_path(index))
                .map_err(|e| Broken::Refused(format!("file #{index}: {e}")))?;
            let text = String::from_utf8(bytes).map_err(|e| Broken::Refused(e.to_string()))?;
            link.send(&Message::File { index, text })?;
        }
        Ok(())
    }

    /// Plays and exchanges files until the battle is done on both sides.
    fn converse(
        &mut self,
        link: &mut Link,
        peer: &mut Option<Peer<R>>,
    ) -> Result<Finished, Broken> {
        loop {
            if let Some(p) = peer.as_mut() {
                while p.to_play() {
                    let view = p.view().expect("the battle has begun");
                    let cmd = (self.chooser)(&view, p.seat())
                        .ok_or_else(|| Broken::Refused("this side found nothing to play".into()))?;
                    p.play(cmd).map_err(|e| Broken::Refused(e.to_string()))?;
                    // Kept at once: a restart plays it again, with the same dice.
                    self.store.keep_private(&p.private()).map_err(refused)?;
                }
                if p.to_write() {
                    let index = p.file_count();
                    let bytes = p.write().map_err(refused)?;
                    // Kept before it is sent: a crash after this sends it again. The file
                    // first: its secrets are in the private store since they were played.
                    self.store.keep_file(index, &bytes).map_err(refused)?;
                    self.store.keep_private(&p.private()).map_err(refused)?;
                    (self.log)(&format!("sent file #{index} (public hash {})", hash_of(p)));
                    let text =
                        String::from_utf8(bytes).map_err(|e| Broken::Refused(e.to_string()))?;
                    link.send(&Message::File { index, text })?;
                    continue;
                }
                if p.done() {
                    let _ = link.send(&Message::Bye);
                    return Ok(Finished {
                        files: p.file_count(),
                        commands: p.ledger().len(),
                        public_hash: p.ledger().public_hash(),
                    });
                }
            }
            match link.recv()? {
                Message::File { index, text } => self.take_file(link, peer, index, text)?,
                Message::Chat(t) => (self.log)(&format!("chat: {t}")),
                Message::Ready => (self.log)("the other player is ready"),
                Message::Refused(why) => {
                    return Err(Broken::Refused(format!(
                        "the other side refused our file: {why}"
                    )));
                }
                Message::Bye | Message::Hello { .. } => {
                    if peer.as_ref().is_some_and(Peer::done) {
                        continue;
                    }
                }
            }
        }
    }

    /// A file received: the Start (this side then accepts), a file already held (sent again
    /// after a reconnection), or the next one.
    fn take_file(
        &mut self,
        link: &mut Link,
        peer: &mut Option<Peer<R>>,
        index: usize,
        text: String,
    ) -> Result<(), Broken> {
        let name = format!("turn file #{index}");
        let bytes = text.into_bytes();
        let refuse = |link: &mut Link, e: RemoteError| {
            let why = e.to_string();
            let _ = link.send(&Message::Refused(why.clone()));
            Broken::Refused(why)
        };
        match peer {
            None => {
                if index != 0 {
                    return Err(refuse(
                        link,
                        RemoteError::new(&name, "expected the battle's Start first"),
                    ));
                }
                let (p, accept) =
                    Peer::<R>::accept(self.identity.clone(), &name, &bytes, Entropy::Os)
                        .map_err(|e| refuse(link, e))?;
                // The files first: a private store without them reads as no battle yet.
                self.store.keep_file(0, &bytes).map_err(refused)?;
                self.store.keep_file(1, &accept).map_err(refused)?;
                self.store.keep_private(&p.private()).map_err(refused)?;
                (self.log)("accepted the battle");
                let text = String::from_utf8(accept).map_err(|e| Broken::Refused(e.to_string()))?;
                *peer = Some(p);
                link.send(&Message::File { index: 1, text })
            }
            Some(p) if index < p.file_count() => Ok(()),
            Some(p) => {
                p.receive(&name, &bytes).map_err(|e| refuse(link, e))?;
                // Kept under its place in the chain, whatever the message said.
                let index = p.file_count() - 1;
                self.store.keep_file(index, &bytes).map_err(refused)?;
                (self.log)(&format!(
                    "received file #{index} (public hash {})",
                    hash_of(p)
                ));
                Ok(())
            }
        }
    }
}

/// The public hash of what a side knows, as its log prints it ("-" while it waits).
fn hash_of<R: Ruleset>(p: &Peer<R>) -> String {
    p.ledger().public_hash().unwrap_or_else(|| "-".into())
}

/// A short join code: six letters and digits that are not easily mistaken.
pub fn join_code() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
    crate::digest::random_bytes()[..6]
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// Connects to the host at `addr` (trying again for up to `patience`) and reads its hello,
/// which names the ruleset.
pub fn greet(addr: &str, patience: Duration) -> Result<(Link, Message), String> {
    let since = Instant::now();
    loop {
        match Link::connect(addr) {
            Ok(mut link) => match link.recv() {
                Ok(hello @ Message::Hello { .. }) => return Ok((link, hello)),
                Ok(other) => return Err(format!("{addr}: the host said {other:?} before hello")),
                Err(Broken::Refused(why)) => return Err(format!("{addr}: {why}")),
                Err(Broken::Dropped(_)) if since.elapsed() < patience => {}
                Err(Broken::Dropped(why)) => return Err(format!("{addr}: {why}")),
            },
            Err(_) if since.elapsed() < patience => {}
            Err(e) => return Err(e),
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// What a hello says.
#[derive(Debug, Clone, PartialEq)]
pub struct Greeting {
    pub ruleset: String,
    pub key: String,
    /// The join code (only the joiner says it).
    pub code: String,
    /// Files of the chain held.
    pub files: usize,
}

/// Says hello and hears the other's. The host speaks first, to whoever connected, and never
/// says the code; the joiner answers (`heard`: the host's hello, when already read).
pub fn exchange(
    link: &mut Link,
    hosting: bool,
    ours: &Greeting,
    heard: Option<Message>,
) -> Result<Greeting, Broken> {
    let mine = Message::Hello {
        ruleset: ours.ruleset.clone(),
        key: ours.key.clone(),
        code: if hosting {
            String::new()
        } else {
            ours.code.clone()
        },
        files: ours.files,
    };
    if hosting {
        link.send(&mine)?;
    }
    let theirs = match heard {
        Some(m) => m,
        None => link.recv()?,
    };
    if !hosting {
        link.send(&mine)?;
    }
    match theirs {
        Message::Hello {
            ruleset,
            key,
            code,
            files,
        } => Ok(Greeting {
            ruleset,
            key,
            code,
            files,
        }),
        _ => Err(Broken::Refused("the other side did not say hello".into())),
    }
}

/// Why the other side's hello is refused, if it is: a wrong code (the host checks it), another
/// ruleset (a joiner with no battle yet names none), a key that is not one, or not the player
/// the battle names.
pub fn refusal(
    hosting: bool,
    ours: &Greeting,
    expected: Option<&str>,
    theirs: &Greeting,
) -> Option<String> {
    if hosting && theirs.code != ours.code {
        Some("wrong join code".into())
    } else if theirs.ruleset != ours.ruleset
        && !ours.ruleset.is_empty()
        && !theirs.ruleset.is_empty()
    {
        Some(format!(
            "the other side plays the ruleset \"{}\", not \"{}\"",
            theirs.ruleset, ours.ruleset
        ))
    } else if !crate::identity::valid_key(&theirs.key) {
        Some("the other side's key is not an ed25519 public key".into())
    } else if expected.is_some_and(|k| k != theirs.key) {
        Some("this is not the player of this battle".into())
    } else {
        None
    }
}
