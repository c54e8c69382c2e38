//! How legacy HTTP sessions are named, looked up and retired (L-SESSION-ID,
//! L-SESSION-IDLE). The simulation numbers sessions `session-1`,
//! `session-2`, ... so its transcripts repeat exactly, and keeps them until
//! they end; a real server replaces the names with random ones (the core
//! reads no randomness: the caller supplies the source) and sets an idle
//! limit and a cap, see [`SessionPolicy`].

use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// The session table: constant-time lookup by connection name. The hasher
/// has fixed keys, so the table never reads randomness; session names are
/// minted by the server (random in a real server), never by a client, so
/// nobody outside can choose keys that collide.
pub(crate) type SessionTable<K, V> =
    HashMap<K, V, BuildHasherDefault<std::collections::hash_map::DefaultHasher>>;

/// A source of session ids, e.g. 128 random bits from the operating
/// system's generator, drawn by the caller.
#[derive(Clone)]
pub struct SessionIds(Arc<dyn Fn() -> String + Send + Sync>);

impl SessionIds {
    /// Ids drawn from `source`. Each must be unique and made of visible
    /// ASCII (it travels in the `Mcp-Session-Id` header).
    pub fn new(source: impl Fn() -> String + Send + Sync + 'static) -> Self {
        Self(Arc::new(source))
    }

    /// The next id.
    pub fn next(&self) -> String {
        (self.0)()
    }
}

impl fmt::Debug for SessionIds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionIds(..)")
    }
}

/// How a server names and retires legacy HTTP sessions. The default is the
/// simulation's: numbered ids, no idle limit, no cap.
#[derive(Debug, Clone, Default)]
pub struct SessionPolicy {
    /// Where session ids come from (`None`: `session-1`, `session-2`, ...).
    pub ids: Option<SessionIds>,
    /// A session unused for longer than this (ms) expires: its id gets
    /// 404 and its waiting calls are cancelled.
    pub idle_ms: Option<u64>,
    /// At most this many sessions; a new one beyond it retires the one
    /// idle the longest.
    pub max_sessions: Option<usize>,
}
