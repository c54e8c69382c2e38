//! What a run recorded: every message sent and delivered, timeouts, drops,
//! disconnects, cache decisions and locks, each with the rules behind it and
//! a sentence a learner can read. The UI renders this and nothing else.

use serde::Serialize;
use serde_json::Value;

use crate::rules::RuleId;
use crate::transport::TransportKind;

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

/// A participant of a run, drawn as a column of its own. A run of only
/// the two MCP sides names none (its timeline has no `actors`); one with an
/// authorization server or a gateway lists them all, in column order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The MCP client (the OAuth client too).
    Client,
    /// A gateway between the client and the server, forwarding, filtering
    /// or rewriting what passes.
    Gateway,
    /// The MCP server (the OAuth protected resource).
    Server,
    /// The OAuth authorization server.
    AuthServer,
}

impl Actor {
    /// Every actor, in the order their names are read.
    pub const ALL: [Actor; 4] = [
        Actor::Client,
        Actor::Gateway,
        Actor::Server,
        Actor::AuthServer,
    ];

    /// The actor of an MCP side.
    pub fn of(side: Side) -> Actor {
        match side {
            Side::Client => Actor::Client,
            Side::Server => Actor::Server,
        }
    }

    /// Its name in the serialized form (`client`, `gateway`, `server`,
    /// `auth_server`).
    pub fn name(self) -> &'static str {
        match self {
            Actor::Client => "client",
            Actor::Gateway => "gateway",
            Actor::Server => "server",
            Actor::AuthServer => "auth_server",
        }
    }

    /// The actor named `name` (see [`Actor::name`]).
    pub fn named(name: &str) -> Option<Actor> {
        Actor::ALL.into_iter().find(|a| a.name() == name)
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
    /// For a message sent as an SSE event: its event id (H-SSE-RESUME).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_id: Option<String>,
}

/// A message travelling from one side to the other.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MessageEvent {
    /// Who sent it: on a hop between other actors (see
    /// [`MessageEvent::from_actor`]), the side it plays there (`client`
    /// for the one asking, `server` for the one answering).
    pub from: Side,
    /// The actor that sent it, when not the MCP side `from` (absent from
    /// the serialized form then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_actor: Option<Actor>,
    /// The actor it is sent to, when not the MCP side opposite `from`
    /// (absent from the serialized form then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_actor: Option<Actor>,
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
    /// When it arrived (virtual ms, [`super::SimTime::as_millis`]), or
    /// `None` if it never did.
    pub delivered_at_ms: Option<u64>,
    /// The protocol revision whose schema this message follows.
    pub revision: String,
    /// True for messages of a legacy revision.
    pub legacy: bool,
    /// Set on a deliberately broken message, saying why it is broken.
    pub violation: Option<String>,
    /// `violation` as a catalog message (see [`crate::note`]), so a view
    /// can say it in another language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub violation_msg: Option<Value>,
    /// HTTP method/status and headers, on the HTTP transport.
    pub http: Option<HttpInfo>,
    /// Set on an imported message whose sender could not be decided
    /// (an unknown method, a response to an id nobody sent): why, in a
    /// sentence. `from` is then a placeholder, never a guess to draw: a
    /// view draws the message in the middle of the lane, and the grader
    /// leaves it out. Never set by the simulator (absent from the
    /// serialized form when unset).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided: Option<String>,
    /// `undecided` as a catalog message (see [`crate::note`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undecided_msg: Option<Value>,
}

impl MessageEvent {
    /// Whether the sender of this message is known (see
    /// [`MessageEvent::undecided`]).
    pub fn sender(&self) -> Option<Side> {
        self.undecided.is_none().then_some(self.from)
    }

    /// The actors it goes between: (sender, receiver).
    pub fn ends(&self) -> (Actor, Actor) {
        (
            self.from_actor.unwrap_or(Actor::of(self.from)),
            self.to_actor.unwrap_or(Actor::of(self.from.peer())),
        )
    }

    /// Whether it goes between the MCP client and server (not a hop to or
    /// from an authorization server or through a gateway).
    pub fn is_mcp(&self) -> bool {
        self.ends() == (Actor::of(self.from), Actor::of(self.from.peer()))
    }

    /// Whether it is an MCP message: between the client and the server, or
    /// a hop through a gateway (G-FORWARD), and so judged by the
    /// revision's schema; not a hop to or from an authorization server.
    pub fn carries_mcp(&self) -> bool {
        let (from, to) = self.ends();
        from != Actor::AuthServer && to != Actor::AuthServer
    }
}

/// What happened at one point of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(clippy::large_enum_variant)] // most events are messages; boxing buys nothing
#[non_exhaustive]
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
    /// Virtual time at which it happened, in ms since the start of the run
    /// ([`super::SimTime::as_millis`]): the timeline is a record, so it keeps
    /// plain numbers.
    pub at_ms: u64,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
    /// The rules that caused it.
    pub rules: Vec<RuleId>,
    /// One sentence for the learner (English).
    pub note: String,
    /// The note as a catalog message (key and arguments, the JSON of
    /// [`crate::note::Msg`]), for a view in another language
    /// ([`crate::note::render`]); absent for a note made from plain text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note_msg: Option<Value>,
    /// What a scenario's author tells the reader at this point (a file's
    /// `say`), when it did; absent from the serialized form otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub narration: Option<String>,
    /// The actor whose column a marker sits on, when not the one its kind
    /// names (a decision of the authorization server); absent from the
    /// serialized form otherwise. Never set on a message (see
    /// [`MessageEvent::ends`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<Actor>,
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
    /// Virtual time of the last event, in ms.
    pub ended_at_ms: u64,
    /// One sentence describing the outcome (English).
    pub outcome: String,
    /// The outcome as a catalog message (see [`Event::note_msg`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome_msg: Option<Value>,
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
    /// Every actor, in column order, when the run has more than the two
    /// MCP sides; empty (and absent from the serialized form) for a run
    /// of a client and a server alone. See [`Timeline::columns`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actors: Vec<Actor>,
    /// Events in time order (ties in the order they happened).
    pub events: Vec<Event>,
    /// How it ended.
    pub summary: Summary,
}

impl Timeline {
    /// The actors drawn as columns, left to right: [`Timeline::actors`],
    /// or the client and the server.
    pub fn columns(&self) -> Vec<Actor> {
        if self.actors.is_empty() {
            vec![Actor::Client, Actor::Server]
        } else {
            self.actors.clone()
        }
    }

    /// The messages only, in wire (send) order.
    pub fn messages(&self) -> impl Iterator<Item = (&Event, &MessageEvent)> {
        self.events
            .iter()
            .filter_map(|e| e.message().map(|m| (e, m)))
    }
}

impl Timeline {
    /// Reads what `serde_json::to_string(&timelines)` wrote for a list of
    /// timelines (the page's recorded runs) and re-parses each message's
    /// wire text, which the serialized form leaves out. Read by hand from a
    /// `Value`: derived readers for these types (a flattened, tagged enum)
    /// cost about 12 KB gzip of WebAssembly. `None` if anything is missing,
    /// mistyped or names a rule the catalog does not know.
    pub fn from_json(text: &str) -> Option<Vec<Timeline>> {
        let value: Value = serde_json::from_str(text).ok()?;
        value.as_array()?.iter().map(read::timeline).collect()
    }

    /// Reads one timeline from its serialized `Value` (as
    /// [`Timeline::from_json`] reads each of a list).
    pub fn from_value(value: &Value) -> Option<Timeline> {
        read::timeline(value)
    }
}

/// The readers behind [`Timeline::from_json`].
mod read {
    use serde_json::Value;

    use super::*;

    fn text(v: &Value, key: &str) -> Option<String> {
        v.get(key)?.as_str().map(str::to_string)
    }

    fn time(v: &Value, key: &str) -> Option<u64> {
        v.get(key)?.as_u64()
    }

    /// An optional field: absent or null is `Some(None)`, a wrong type `None`.
    fn optional<T>(v: &Value, key: &str, read: impl Fn(&Value) -> Option<T>) -> Option<Option<T>> {
        match v.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(x) => read(x).map(Some),
        }
    }

    fn side(v: &Value) -> Option<Side> {
        match v.get("side").or(v.get("from"))?.as_str()? {
            "client" => Some(Side::Client),
            "server" => Some(Side::Server),
            _ => None,
        }
    }

    fn actor(v: &Value) -> Option<Actor> {
        Actor::named(v.as_str()?)
    }

    fn kind(v: &Value) -> Option<MessageKind> {
        Some(match v.as_str()? {
            "request" => MessageKind::Request,
            "notification" => MessageKind::Notification,
            "result" => MessageKind::Result,
            "error" => MessageKind::Error,
            "other" => MessageKind::Other,
            _ => return None,
        })
    }

    fn http(v: &Value) -> Option<HttpInfo> {
        let headers = v
            .get("headers")?
            .as_array()?
            .iter()
            .map(|pair| Some((pair.get(0)?.as_str()?.into(), pair.get(1)?.as_str()?.into())))
            .collect::<Option<_>>()?;
        Some(HttpInfo {
            method: optional(v, "method", |m| m.as_str().map(str::to_string))?,
            status: optional(v, "status", |s| s.as_u64()?.try_into().ok())?,
            headers,
            event_id: optional(v, "event_id", |e| e.as_str().map(str::to_string))?,
        })
    }

    fn message(v: &Value) -> Option<MessageEvent> {
        let wire = text(v, "wire")?;
        Some(MessageEvent {
            from: side(v)?,
            from_actor: optional(v, "from_actor", actor)?,
            to_actor: optional(v, "to_actor", actor)?,
            kind: kind(v.get("kind")?)?,
            label: text(v, "label")?,
            json: serde_json::from_str(&wire).ok(),
            wire,
            delivered_at_ms: optional(v, "delivered_at_ms", Value::as_u64)?,
            revision: text(v, "revision")?,
            legacy: v.get("legacy")?.as_bool()?,
            violation: optional(v, "violation", |x| x.as_str().map(str::to_string))?,
            violation_msg: optional(v, "violation_msg", |m| Some(m.clone()))?,
            http: optional(v, "http", http)?,
            undecided: optional(v, "undecided", |x| x.as_str().map(str::to_string))?,
            undecided_msg: optional(v, "undecided_msg", |m| Some(m.clone()))?,
        })
    }

    fn event_kind(v: &Value) -> Option<EventKind> {
        let key = || text(v, "key");
        let name = || text(v, "name");
        Some(match v.get("type")?.as_str()? {
            "message" => EventKind::Message(message(v)?),
            "timeout" => EventKind::Timeout {
                side: side(v)?,
                request_id: text(v, "request_id")?,
            },
            "dropped" => EventKind::Dropped {
                side: side(v)?,
                what: text(v, "what")?,
            },
            "disconnected" => EventKind::Disconnected { side: side(v)? },
            "cache_hit" => EventKind::CacheHit { key: key()? },
            "cache_miss" => EventKind::CacheMiss { key: key()? },
            "cache_expired" => EventKind::CacheExpired { key: key()? },
            "cache_stored" => EventKind::CacheStored {
                key: key()?,
                ttl_ms: time(v, "ttl_ms")?,
            },
            "lock_taken" => EventKind::LockTaken { name: name()? },
            "lock_released" => EventKind::LockReleased { name: name()? },
            "host_kill" => EventKind::HostKill,
            "decision" => EventKind::Decision { side: side(v)? },
            _ => return None,
        })
    }

    fn event(v: &Value) -> Option<Event> {
        Some(Event {
            index: v.get("index")?.as_u64()?.try_into().ok()?,
            at_ms: time(v, "at_ms")?,
            kind: event_kind(v)?,
            rules: v
                .get("rules")?
                .as_array()?
                .iter()
                .map(|id| crate::rules::find(id.as_str()?).map(|rule| rule.id))
                .collect::<Option<_>>()?,
            note: text(v, "note")?,
            note_msg: optional(v, "note_msg", |m| Some(m.clone()))?,
            narration: optional(v, "narration", |x| x.as_str().map(str::to_string))?,
            actor: optional(v, "actor", actor)?,
        })
    }

    pub(super) fn timeline(v: &Value) -> Option<Timeline> {
        let summary = v.get("summary")?;
        Some(Timeline {
            label: text(v, "label")?,
            transport: match v.get("transport")?.as_str()? {
                "stdio" => TransportKind::Stdio,
                "http" => TransportKind::Http,
                _ => return None,
            },
            client_label: text(v, "client_label")?,
            server_label: text(v, "server_label")?,
            actors: optional(v, "actors", |a| {
                a.as_array()?.iter().map(actor).collect::<Option<_>>()
            })?
            .unwrap_or_default(),
            events: v
                .get("events")?
                .as_array()?
                .iter()
                .map(event)
                .collect::<Option<_>>()?,
            summary: Summary {
                leaked_locks: summary.get("leaked_locks")?.as_u64()?.try_into().ok()?,
                ended_at_ms: time(summary, "ended_at_ms")?,
                outcome: text(summary, "outcome")?,
                outcome_msg: optional(summary, "outcome_msg", |m| Some(m.clone()))?,
            },
        })
    }
}
