//! Several instances of the simulated server, so requests on different
//! cores do not wait for one lock. A modern request needs nothing from an
//! earlier one, so any free instance answers it. A legacy session lives in
//! one instance: its id (128 random bits, L-SESSION-ID) is drawn so that
//! it hashes to the instance that minted it, and every request naming it
//! goes there. Each instance also holds the senders of the SSE streams
//! open on it (a deferred legacy reply's, a legacy session's GET stream, a
//! `subscriptions/listen` stream): every later message the core tags with
//! a stream's key ([`ServerOutput::event`]) is written to it under the same
//! lock that produced it, so none is lost between a stream's opening and
//! its next event. A change one instance announces to every instance
//! (`OutputKind::Broadcast`, e.g. a tool that changes the tool list) is
//! replayed on the others, so the listeners of every instance hear it; and
//! when a stream's client goes away, the instance that holds it is told
//! (`Server::stream_closed`).

use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use bytes::Bytes;
use mcp_lanes_core::auth::resource::ProtectedResource;
use mcp_lanes_core::server::{
    OutputKind, Server, ServerConfig, ServerOutput, ServerTrigger, SessionIds, SessionPolicy,
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
    pub stream: Option<OpenStream>,
}

/// An SSE response that stays open.
#[derive(Debug)]
pub struct OpenStream {
    /// Its key ([`mcp_lanes_core::transport::http::HttpResponse::stream`]).
    pub key: String,
    /// The instance that holds it.
    pub shard: usize,
    /// Its later events.
    pub rest: mpsc::Receiver<Bytes>,
}

/// What became of a message the server sent on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fate {
    /// Not a message.
    NotSent,
    /// Written to open stream `stream`, as event `id` (listen streams have
    /// no event ids).
    OnStream {
        /// The stream's key.
        stream: String,
        /// The event id.
        id: Option<String>,
    },
    /// The stream's client is gone or behind: kept as this event for it to
    /// resume.
    Kept(String),
    /// The listen stream's client is gone or behind: the subscription ends.
    Lost(String),
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

    /// Every instance's policy reads its caller from the tokens `resource`
    /// accepts (`serve --auth`: the lab authorization server's).
    pub fn trust_tokens_of(&self, resource: &ProtectedResource) {
        for shard in &self.shards {
            lock(shard).server.trust_tokens_of(resource.clone());
        }
    }

    /// How many instances there are.
    pub fn len(&self) -> usize {
        self.shards.len()
    }

    /// Whether there is no instance (never: there is at least one).
    pub fn is_empty(&self) -> bool {
        self.shards.is_empty()
    }

    /// The instance for `request`: its session's, or the first free one
    /// after the one handed out last (if all are busy, wait for that one).
    fn pick(&self, request: &HttpRequest) -> (usize, MutexGuard<'_, Shard>) {
        let n = self.shards.len();
        if let Some(session) = request.header(core_http::SESSION_HEADER) {
            let k = shard_of(session, n);
            return (k, lock(&self.shards[k]));
        }
        let start = self.next.fetch_add(1, Ordering::Relaxed) % n;
        for i in 0..n {
            let k = (start + i) % n;
            if let Ok(shard) = self.shards[k].try_lock() {
                return (k, shard);
            }
        }
        (start, lock(&self.shards[start]))
    }

    /// One request through the core, with the outputs it produced, its
    /// messages written to their open streams, and the changes it announced
    /// to every instance replayed on the others. A panic inside the core (a
    /// bug) is caught: the instance keeps serving.
    pub fn handle(&self, now: u64, request: &HttpRequest) -> Result<Outcome, Panicked> {
        let (index, mut guard) = self.pick(request);
        let shard = &mut *guard;
        let mut outcome = panic::catch_unwind(AssertUnwindSafe(|| {
            let handled = adapter::handle(&mut shard.server, now, request);
            let stream = handled.response.stream.clone().map(|key| {
                let (tx, rx) = mpsc::channel(STREAM_BUFFER);
                // A second connection on the same stream replaces the first.
                shard.streams.insert(key.clone(), tx);
                OpenStream {
                    key,
                    shard: index,
                    rest: rx,
                }
            });
            let outputs = shard.deliver(now);
            Outcome {
                handled,
                outputs,
                stream,
            }
        }))
        .map_err(|_| Panicked)?;
        // One instance at a time: never two locks held at once.
        drop(guard);
        let changes: Vec<ServerTrigger> = outcome
            .outputs
            .iter()
            .filter_map(|(out, _)| match &out.kind {
                OutputKind::Broadcast(change) => Some(change.clone()),
                _ => None,
            })
            .collect();
        for change in changes {
            outcome.outputs.extend(self.broadcast(now, index, &change));
        }
        Ok(outcome)
    }

    /// Applies `change` (a scripted list change) on every instance, so
    /// their listeners and sessions hear it.
    pub fn trigger_all(&self, now: u64, change: &ServerTrigger) -> Vec<(ServerOutput, Fate)> {
        self.broadcast(now, usize::MAX, change)
    }

    /// Sends a scripted notification on every instance
    /// ([`Server::send_scripted`]): each session's or listen stream's
    /// instance writes it to its stream.
    pub fn notify_all(&self, now: u64, message: &serde_json::Value) -> Vec<(ServerOutput, Fate)> {
        let mut all = Vec::new();
        for shard in &self.shards {
            let mut shard = lock(shard);
            let shard = &mut *shard;
            let done = panic::catch_unwind(AssertUnwindSafe(|| {
                shard
                    .server
                    .send_scripted(SimTime::from_millis(now), message);
                shard.deliver(now)
            }));
            all.extend(done.unwrap_or_default());
        }
        all
    }

    /// Replays `change`, announced by instance `from`, on every other
    /// instance, so their listeners and sessions hear it too.
    fn broadcast(
        &self,
        now: u64,
        from: usize,
        change: &ServerTrigger,
    ) -> Vec<(ServerOutput, Fate)> {
        let mut all = Vec::new();
        for (k, shard) in self.shards.iter().enumerate() {
            if k == from {
                continue;
            }
            let mut shard = lock(shard);
            let shard = &mut *shard;
            let done = panic::catch_unwind(AssertUnwindSafe(|| {
                shard
                    .server
                    .trigger(SimTime::from_millis(now), change.clone());
                shard.deliver(now)
            }));
            all.extend(done.unwrap_or_default());
        }
        all
    }

    /// The client of stream `key` on instance `shard` went away (its
    /// response body was dropped before or after its end): the instance
    /// forgets the stream's sender and is told, so a listen subscription
    /// ends (M-LISTEN-FILTER) while a legacy stream keeps its events for a
    /// resumption. Nothing happens if another connection has taken the
    /// stream over since.
    pub fn stream_closed(&self, now: u64, shard: usize, key: &str) -> Vec<(ServerOutput, Fate)> {
        let Some(shard) = self.shards.get(shard) else {
            return Vec::new();
        };
        let mut shard = lock(shard);
        let shard = &mut *shard;
        if shard.streams.get(key).is_some_and(|tx| !tx.is_closed()) {
            return Vec::new();
        }
        shard.streams.remove(key);
        panic::catch_unwind(AssertUnwindSafe(|| {
            shard.server.stream_closed(SimTime::from_millis(now), key);
            shard.deliver(now)
        }))
        .unwrap_or_default()
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
                let outputs = shard.deliver(now);
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
    /// closed. A listen stream whose client is gone or too far behind ends
    /// its subscription (the core is told at once).
    fn deliver(&mut self, now: u64) -> Vec<(ServerOutput, Fate)> {
        let mut outputs = Vec::new();
        let mut lost = Vec::new();
        while let Some(out) = self.server.poll_output() {
            let fate = match (&out.kind, &out.event) {
                (OutputKind::Send { message, .. }, Some(event)) => {
                    let frame = event.frame(&message.to_string());
                    let sent = self
                        .streams
                        .get(&event.stream)
                        .is_some_and(|tx| tx.try_send(Bytes::from(frame)).is_ok());
                    if !sent || event.closes {
                        self.streams.remove(&event.stream);
                    }
                    match (&event.id, sent) {
                        (id, true) => Fate::OnStream {
                            stream: event.stream.clone(),
                            id: id.clone(),
                        },
                        (Some(id), false) => Fate::Kept(id.clone()),
                        (None, false) => {
                            lost.push(event.stream.clone());
                            Fate::Lost(event.stream.clone())
                        }
                    }
                }
                (OutputKind::Send { .. }, None) => Fate::Undeliverable,
                _ => Fate::NotSent,
            };
            outputs.push((out, fate));
            // The core forgets a lost listen stream before anything more is
            // sent to it.
            for key in lost.drain(..) {
                self.server.stream_closed(SimTime::from_millis(now), &key);
            }
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
