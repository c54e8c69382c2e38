//! What a run recorded: every message sent and delivered, timeouts, drops,
//! disconnects, cache decisions and locks, each with the rules behind it and
//! a sentence a learner can read. The UI renders this and nothing else.

use serde::Serialize;
use serde_json::Value;

use crate::rules::RuleId;
use crate::transport::TransportKind;

use super::SimTime;

/// One side of a lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The simulated client (left column).
    Client,
    /// The simulated server (right column).
    Server,
}

impl Side {
    /// The other side.
    pub fn peer(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        }
    }
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }
}

/// The JSON-RPC kind of a message, used for colour and labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MessageKind {
    /// A request (has `method` and `id`).
    Request,
    /// A notification (has `method`, no `id`).
    Notification,
    /// A result response.
    Result,
    /// An error response.
    Error,
    /// Not a JSON-RPC message at all (e.g. deliberately broken text, or an
    /// HTTP response without a body).
    Other,
}

/// HTTP details of a message on the Streamable HTTP transport.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HttpInfo {
    /// Request method (`POST`, ...) for client messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Status code for server responses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Headers in order.
    pub headers: Vec<(String, String)>,
}

/// A message travelling from one side to the other.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MessageEvent {
    /// Who sent it.
    pub from: Side,
    /// Request, notification, result or error.
    pub kind: MessageKind,
    /// Short label for the arrow: the method, `result`, `input_required`
    /// or the error code.
    pub label: String,
    /// The exact wire text (one stdio line without its newline, or the HTTP body).
    pub wire: String,
    /// The parsed message, when the wire text is JSON.
    #[serde(skip)]
    pub json: Option<Value>,
    /// When it arrived, or `None` if it never did.
    pub delivered_at_ms: Option<SimTime>,
    /// The protocol revision whose schema this message follows.
    pub revision: String,
    /// True for messages of a legacy revision.
    pub legacy: bool,
    /// Set on a deliberately broken message, saying why it is broken.
    pub violation: Option<String>,
    /// HTTP method/status and headers, on the HTTP transport.
    pub http: Option<HttpInfo>,
}

/// What happened at one point of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // most events are messages; boxing buys nothing
pub enum EventKind {
    /// A message was sent (its arrival time is inside).
    Message(MessageEvent),
    /// A request went unanswered past its deadline.
    Timeout {
        /// The side that gave up waiting.
        side: Side,
        /// The id it was waiting on.
        request_id: String,
    },
    /// A message arrived and was dropped without any answer.
    Dropped {
        /// The side that dropped it.
        side: Side,
        /// What was dropped.
        what: String,
    },
    /// A side closed the connection.
    Disconnected {
        /// Who closed it.
        side: Side,
    },
    /// A cached result was used instead of asking again.
    CacheHit {
        /// What was cached.
        key: String,
    },
    /// Nothing cached: the client has to ask.
    CacheMiss {
        /// What was looked up.
        key: String,
    },
    /// A cached result went stale.
    CacheExpired {
        /// What expired.
        key: String,
    },
    /// A result was stored in the cache.
    CacheStored {
        /// What was stored.
        key: String,
        /// For how long it is fresh.
        ttl_ms: u64,
    },
    /// The server acquired a resource (a lock, a transaction).
    LockTaken {
        /// Resource name.
        name: String,
    },
    /// The server released it.
    LockReleased {
        /// Resource name.
        name: String,
    },
    /// The host framework killed the run (nothing is sent to the server).
    HostKill,
    /// A decision without a message (era chosen, giving up, degrading).
    Decision {
        /// Who decided.
        side: Side,
    },
}

/// One entry of a timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    /// Position in the timeline (0-based).
    pub index: usize,
    /// Virtual time at which it happened.
    pub at_ms: SimTime,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
    /// The rules that caused it.
    pub rules: Vec<RuleId>,
    /// One sentence for the learner.
    pub note: String,
}

impl Event {
    /// The message, if this event is one.
    pub fn message(&self) -> Option<&MessageEvent> {
        match &self.kind {
            EventKind::Message(m) => Some(m),
            _ => None,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Locks still held when the run ended (leaked).
    pub leaked_locks: u32,
    /// Virtual time of the last event.
    pub ended_at_ms: SimTime,
    /// One sentence describing the outcome.
    pub outcome: String,
}

/// Everything one set-up did, in time order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timeline {
    /// The set-up's label (e.g. "plain client").
    pub label: String,
    /// The transport between the two columns.
    pub transport: TransportKind,
    /// Client description for the lane header.
    pub client_label: String,
    /// Server description for the lane header.
    pub server_label: String,
    /// Events in time order (ties in the order they happened).
    pub events: Vec<Event>,
    /// How it ended.
    pub summary: Summary,
}

impl Timeline {
    /// The messages only, in wire (send) order.
    pub fn messages(&self) -> impl Iterator<Item = (&Event, &MessageEvent)> {
        self.events
            .iter()
            .filter_map(|e| e.message().map(|m| (e, m)))
    }
}
