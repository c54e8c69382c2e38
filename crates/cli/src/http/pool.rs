//! Several instances of the simulated server, so requests on different
//! cores do not wait for one lock. A modern server keeps nothing between
//! requests, so any free instance answers any request. A server that
//! speaks the legacy era keeps sessions, so it is one instance for now:
//! every request of a session must reach the instance that holds it.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use mcp_lanes_core::server::{Server, ServerConfig, ServerOutput};
use mcp_lanes_core::transport::http::HttpRequest;

use super::adapter::{self, Handled};

/// The simulated server's instances.
#[derive(Debug)]
pub struct Pool {
    shards: Vec<Mutex<Server>>,
    next: AtomicUsize,
}

/// The simulated server failed on a request (a bug in the core).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Panicked;

impl Pool {
    /// `shards` instances of `config` (one when it speaks the legacy era),
    /// each signing requestState with `state_key`.
    pub fn new(config: &ServerConfig, shards: usize, state_key: &[u8]) -> Self {
        let shards = if config.era.speaks_legacy() {
            1
        } else {
            shards.max(1)
        };
        Self {
            shards: (0..shards)
                .map(|_| {
                    let mut server = Server::new(config.clone());
                    server.set_state_key(state_key);
                    Mutex::new(server)
                })
                .collect(),
            next: AtomicUsize::new(0),
        }
    }

    /// How many instances there are.
    pub fn len(&self) -> usize {
        self.shards.len()
    }

    /// An instance for the next request: the first free one, starting
    /// after the one handed out last; if all are busy, wait for that one.
    fn any(&self) -> MutexGuard<'_, Server> {
        let n = self.shards.len();
        let start = self.next.fetch_add(1, Ordering::Relaxed) % n;
        for i in 0..n {
            if let Ok(server) = self.shards[(start + i) % n].try_lock() {
                return server;
            }
        }
        lock(&self.shards[start])
    }

    /// One request through the core, with the outputs it produced. A panic
    /// inside the core (a bug) is caught: the instance keeps serving.
    pub fn handle(
        &self,
        now: u64,
        request: &HttpRequest,
    ) -> Result<(Handled, Vec<ServerOutput>), Panicked> {
        let mut server = self.any();
        let handled = panic::catch_unwind(AssertUnwindSafe(|| {
            let handled = adapter::handle(&mut server, now, request);
            let mut outputs = Vec::new();
            while let Some(out) = server.poll_output() {
                outputs.push(out);
            }
            (handled, outputs)
        }));
        handled.map_err(|_| Panicked)
    }
}

/// Locks an instance; a lock poisoned by a caught panic is still usable.
fn lock(shard: &Mutex<Server>) -> MutexGuard<'_, Server> {
    shard
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
