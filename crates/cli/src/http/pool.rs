//! Several instances of the simulated server, so requests on different
//! cores do not wait for one lock. A modern request needs nothing from an
//! earlier one, so any free instance answers it. A legacy session lives in
//! one instance: its id (128 random bits, L-SESSION-ID) is drawn so that
//! it hashes to the instance that minted it, and every request naming it
//! goes there. Each instance also holds the senders of the SSE streams
//! open on its sessions (H-SSE-STREAM): the server's later messages are
//! written to them under the same lock that produced them, so none is
//! lost between a stream's opening and its next event.

use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use bytes::Bytes;
use mcp_lanes_core::server::{
    OutputKind, Server, ServerConfig, ServerOutput, SessionIds, SessionPolicy,
};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{self as core_http, HttpRequest};
use tokio::sync::mpsc;

use super::adapter::{self, Handled};

/// Events an SSE stream may have waiting for its client; a client that
/// falls further behind loses the stream (and can resume it).
pub const STREAM_BUFFER: usize = 64;

/// How sessions are kept: idle limit and cap (the cap over all instances).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sessions {
    /// A session unused this long (ms) expires.
    pub idle_ms: u64,
    /// At most this many sessions overall.
    pub max: usize,
}

/// One instance and the streams open on its sessions.
#[derive(Debug)]
struct Shard {
    server: Server,
    streams: HashMap<String, mpsc::Sender<Bytes>>,
}

/// The simulated server's instances.
#[derive(Debug)]
pub struct Pool {
    shards: Vec<Mutex<Shard>>,
    next: AtomicUsize,
}

/// The simulated server failed on a request (a bug in the core).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panicked;

/// What one request produced.
#[derive(Debug)]
pub struct Outcome {
    /// The core's answer.
    pub handled: Handled,
    /// What the server did besides (each `Send` with its fate).
    pub outputs: Vec<(ServerOutput, Fate)>,
    /// For an answer that stays open: the rest of its SSE stream.
    pub stream: Option<mpsc::Receiver<Bytes>>,
}

/// What became of a message the server sent on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// Not a message.
    NotSent,
    /// Written to the open stream, as this event.
    OnStream(String),
    /// The stream's client is gone or behind: kept for it to resume.
    Kept(String),
    /// No stream carries it.
    Undeliverable,
}

/// The instance a session id belongs to (FNV-1a of the id).
pub fn shard_of(session: &str, shards: usize) -> usize {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in session.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    usize::try_from(hash % shards.max(1) as u64).unwrap_or(0)
}

/// A fresh session id: 128 bits from the operating system's generator,
/// as 32 hex digits, drawn again until it belongs to instance `shard`
/// (about `shards` draws). `None` if the generator fails (checked when the
/// server starts, so this does not happen in practice).
fn random_id(shard: usize, shards: usize) -> Option<String> {
    for _ in 0..10_000 {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).ok()?;
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        if shard_of(&id, shards) == shard {
            return Some(id);
        }
    }
    None
}

/// Whether the operating system's generator works.
pub fn generator_works() -> bool {
    random_id(0, 1).is_some()
}

impl Pool {
    /// `instances` instances of `config`, each signing requestState with
    /// `state_key`, keeping sessions as `sessions` says.
    pub fn new(
        config: &ServerConfig,
        instances: usize,
        state_key: &[u8],
        sessions: Sessions,
    ) -> Self {
        let n = instances.max(1);
        let per_shard = sessions.max.div_ceil(n).max(1);
        let shards = (0..n)
            .map(|k| {
                let mut server = Server::new(config.clone());
                server.set_state_key(state_key);
                server.set_session_policy(SessionPolicy {
                    // No id without the generator: an empty id never matches a
                    // session, so such a client gets 404, never a guessable id.
                    ids: Some(SessionIds::new(move || random_id(k, n).unwrap_or_default())),
                    idle_ms: Some(sessions.idle_ms),
                    max_sessions: Some(per_shard),
                });
                Mutex::new(Shard {
                    server,
                    streams: HashMap::new(),
                })
            })
            .collect();
        Self {
            shards,
            next: AtomicUsize::new(0),
        }
    }

    /// How many instances there are.
    pub fn len(&self) -> usize {
        self.shards.len()
    }

    /// The instance for `request`: its session's, or the first free one
    /// after the one handed out last (if all are busy, wait for that one).
    fn pick(&self, request: &HttpRequest) -> MutexGuard<'_, Shard> {
        let n = self.shards.len();
        if let Some(session) = request.header(core_http::SESSION_HEADER) {
            return lock(&self.shards[shard_of(session, n)]);
        }
        let start = self.next.fetch_add(1, Ordering::Relaxed) % n;
        for i in 0..n {
            if let Ok(shard) = self.shards[(start + i) % n].try_lock() {
                return shard;
            }
        }
        lock(&self.shards[start])
    }

    /// One request through the core, with the outputs it produced, its
    /// messages written to their open streams. A panic inside the core (a
    /// bug) is caught: the instance keeps serving.
    pub fn handle(&self, now: u64, request: &HttpRequest) -> Result<Outcome, Panicked> {
        let mut shard = self.pick(request);
        let shard = &mut *shard;
        panic::catch_unwind(AssertUnwindSafe(|| {
            let handled = adapter::handle(&mut shard.server, now, request);
            let stream = handled.response.stream.clone().map(|key| {
                let (tx, rx) = mpsc::channel(STREAM_BUFFER);
                // A second connection on the same stream replaces the first.
                shard.streams.insert(key, tx);
                rx
            });
            let outputs = shard.deliver();
            Outcome {
                handled,
                outputs,
                stream,
            }
        }))
        .map_err(|_| Panicked)
    }

    /// Ends every session idle past its limit, in every instance, and drops
    /// the streams that are no longer open; what the servers did.
    pub fn expire(&self, now: u64) -> Vec<(ServerOutput, Fate)> {
        let mut all = Vec::new();
        for shard in &self.shards {
            let mut shard = lock(shard);
            let shard = &mut *shard;
            let expired = panic::catch_unwind(AssertUnwindSafe(|| {
                shard.server.expire_sessions(SimTime::from_millis(now));
                let outputs = shard.deliver();
                let server = &shard.server;
                shard.streams.retain(|key, _| server.stream_is_open(key));
                outputs
            }));
            all.extend(expired.unwrap_or_default());
        }
        all
    }

    /// Ends every open stream (at shutdown): their bodies finish cleanly.
    pub fn close_streams(&self) {
        for shard in &self.shards {
            lock(shard).streams.clear();
        }
    }

    /// Open streams over all instances.
    pub fn open_streams(&self) -> usize {
        self.shards.iter().map(|s| lock(s).streams.len()).sum()
    }
}

impl Shard {
    /// Polls the server's outputs, writing each message that travels as an
    /// SSE event to its stream; a stream whose last event went out is
    /// closed.
    fn deliver(&mut self) -> Vec<(ServerOutput, Fate)> {
        let mut outputs = Vec::new();
        while let Some(out) = self.server.poll_output() {
            let fate = match (&out.kind, &out.event) {
                (OutputKind::Send { message, .. }, Some(event)) => {
                    let frame = core_http::sse_event(&event.id, &message.to_string());
                    let sent = self
                        .streams
                        .get(&event.stream)
                        .is_some_and(|tx| tx.try_send(Bytes::from(frame)).is_ok());
                    if !sent || event.closes {
                        self.streams.remove(&event.stream);
                    }
                    if sent {
                        Fate::OnStream(event.id.clone())
                    } else {
                        Fate::Kept(event.id.clone())
                    }
                }
                (OutputKind::Send { .. }, None) => Fate::Undeliverable,
                _ => Fate::NotSent,
            };
            outputs.push((out, fate));
        }
        outputs
    }
}

/// Locks an instance; a lock poisoned by a caught panic is still usable.
fn lock(shard: &Mutex<Shard>) -> MutexGuard<'_, Shard> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l_session_id_random_ids_belong_to_their_instance() {
        for shards in [1, 2, 3, 8] {
            for k in 0..shards {
                let id = random_id(k, shards).unwrap_or_default();
                assert_eq!(id.len(), 32);
                assert!(id.bytes().all(|b| b.is_ascii_hexdigit()));
                assert_eq!(shard_of(&id, shards), k);
            }
        }
        assert_ne!(random_id(0, 1), random_id(0, 1));
        assert!(generator_works());
        assert_eq!(shard_of("anything", 0), 0);
    }
}
