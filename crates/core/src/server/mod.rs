//! The simulated MCP server: a sans-IO state machine.
//!
//! Inputs are `handle_*` calls carrying the virtual time and the exact text
//! (or HTTP request) that arrived; outputs are the returned [`Reply`] and
//! whatever [`Server::poll_output`] yields afterwards (server-initiated
//! requests and notifications, locks taken and released). Poll outputs after
//! every `handle_*` call, until it returns `None`.
//!
//! Every reply names the rules that produced it. The checks run in the order
//! a careful server runs them: framing and JSON-RPC validity, era selection,
//! `_meta`, HTTP headers, version, method, params, capabilities, and only then
//! the work and its side effects (M-CAP-BEFORE-WORK).
//!
//! A refusal names its `Fault` (`fault.rs`); `Fault::wire` is the one
//! table that gives it a JSON-RPC code and an HTTP status.

mod cancel;
pub mod config;
mod conn;
mod fault;
mod http_edge;
mod legacy;
mod legacy_call;
pub mod listing;
mod modern;
mod modern_call;
mod mrtr;
mod notices;
mod pages;
mod params;
pub mod policy;
pub mod presets;
mod prompts;
pub mod reference;
mod resources;
mod sessions;
mod signed;
mod streams;
mod subscriptions;
mod tool_checks;
pub mod tool_state;
mod tools;
mod used_ids;

use std::collections::VecDeque;

use crate::small_map::SmallMap;

use serde_json::{json, Value};

use crate::note::Note;
use crate::protocol::jsonrpc::{self, Envelope, ErrorObject, RequestId};
use crate::protocol::version::EraMode;
use crate::protocol::{meta, methods, ClientCapabilities, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::sim::SimTime;
use crate::transport::http::{self, HttpRequest, HttpResponse};

pub use config::{
    Behaviour, CacheScope, InputAsk, InputRound, MrtrSpec, ProgressStep, PromptArgument,
    PromptSpec, Question, ResourceSpec, ServerConfig, TemplateSpec, ToolFailure, ToolSpec,
    UnknownMethodPolicy,
};
pub use conn::ConnId;
pub(crate) use fault::Fault;
pub use mrtr::{simulation_key, SIMULATION_KEY};
pub use policy::{CallerResult, Policy, ToolPolicy};
pub use sessions::{SessionIds, SessionPolicy};
pub use streams::SseEvent;
pub use tool_state::{Quarantine, QuarantineScope, RateLimit, Returns, ToolState, Uses};
pub use tools::LOG_LEVELS;

use sessions::SessionTable;
use streams::Streams;

/// Largest message text the server parses; larger input is refused with a
/// clear -32600 instead of being parsed.
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

/// A reply the server sends to the message it was handed.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The JSON-RPC response.
    pub message: Value,
    /// HTTP status this reply maps to (H-STATUS).
    pub status: u16,
    /// Rules that produced it.
    pub rules: Vec<RuleId>,
    /// One sentence for the learner.
    pub note: Note,
    /// The revision whose schema the reply follows.
    pub revision: ProtocolVersion,
    /// Extra HTTP response headers (e.g. a legacy session id).
    pub headers: Vec<(String, String)>,
}

/// What [`Server::handle_http`] answers: the HTTP response, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpReply {
    /// The HTTP response (status, headers, body: JSON or an SSE stream).
    pub response: HttpResponse,
    /// Rules that produced it.
    pub rules: Vec<RuleId>,
    /// One sentence for the learner.
    pub note: Note,
    /// The revision whose schema the body follows.
    pub revision: ProtocolVersion,
}

impl HttpReply {
    fn new(
        response: HttpResponse,
        rules: Vec<RuleId>,
        note: Note,
        revision: ProtocolVersion,
    ) -> Self {
        Self {
            response,
            rules,
            note,
            revision,
        }
    }
}

/// Something the server does on its own after handling input.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OutputKind {
    /// Send a message to the client on a connection.
    Send {
        /// The message.
        message: Value,
        /// Its revision.
        revision: ProtocolVersion,
        /// Why it is a deliberate violation, if it is.
        violation: Option<crate::note::Note>,
    },
    /// A resource was acquired.
    LockTaken(String),
    /// A resource was released.
    LockReleased(String),
    /// Input was dropped with no answer.
    Dropped(String),
    /// A decision with nothing sent.
    Decision,
    /// A change every instance of this server must announce to its own
    /// listeners: a driver running several instances hands it to the
    /// others with [`Server::trigger`]; a single instance has done it.
    Broadcast(ServerTrigger),
}

/// One output of [`Server::poll_output`].
#[derive(Debug, Clone, PartialEq)]
pub struct ServerOutput {
    /// The connection it concerns.
    pub conn: ConnId,
    /// What happened.
    pub kind: OutputKind,
    /// Rules behind it.
    pub rules: Vec<RuleId>,
    /// One sentence for the learner.
    pub note: Note,
    /// For a message that travels on an SSE stream still open (a deferred
    /// legacy reply's, a legacy session's GET stream, a listen stream): the
    /// stream and the event it travels as. `None`: no open stream carries
    /// it (over HTTP; on stdio every message simply goes out).
    pub event: Option<SseEvent>,
}

/// Things a scenario can make the server do (not caused by a message), and
/// what a reference tool announces (`Behaviour::Announce`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ServerTrigger {
    /// The tool list changed: legacy sessions that declared nothing special
    /// get `notifications/tools/list_changed` if the server declared
    /// listChanged, and so do listen streams that asked for it.
    ToolsChanged,
    /// The prompt list changed (`notifications/prompts/list_changed`).
    PromptsChanged,
    /// The resource list changed (`notifications/resources/list_changed`).
    ResourcesChanged,
    /// A resource changed (`notifications/resources/updated` to whoever
    /// subscribed to it).
    ResourceUpdated {
        /// Its URI.
        uri: String,
    },
}

/// Per-connection state of a legacy session (L-INIT), named after what it
/// waits for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SessionState {
    /// initialize answered; waiting for notifications/initialized.
    AwaitingInitialized,
    /// Handshake complete.
    Operating,
}

/// `"1 tool"`, `"2 tools"`: a count with its noun in the right number.
pub(crate) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// "1 tool", "3 tools": a list's size, said in any language.
pub(crate) fn tools_count(n: usize) -> crate::note::Note {
    if n == 1 {
        crate::note!("server.one_tool", "1 tool")
    } else {
        crate::note!("server.tools", "{count} tools", count = n)
    }
}

/// A legacy session's state on one connection.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LegacySession {
    pub state: SessionState,
    pub version: ProtocolVersion,
    pub client_caps: ClientCapabilities,
    pub client_name: String,
    /// The minimum level of log messages (logging/setLevel), if set.
    pub log_level: Option<String>,
    /// Resources the session subscribed to (resources/subscribe).
    pub subscribed: Vec<String>,
    /// When it was last used, for the idle limit.
    pub last_seen: SimTime,
    /// Creation order, for messages to every session.
    pub seq: u64,
    /// Its SSE streams (HTTP sessions only).
    pub streams: Streams,
    /// The request ids the client used in this session, initialize's
    /// included: none may come again (RPC-ID, 2025-11-25). Bounded.
    pub used_ids: used_ids::UsedIds,
}

/// A tools/call waiting for the client's answer to a server request.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PendingCall {
    pub call_id: RequestId,
    pub tool: String,
    pub arguments: Value,
    pub lock: Option<String>,
    pub revision: ProtocolVersion,
    /// The method of the server's request it waits on.
    pub asked: String,
}

/// The simulated server.
#[derive(Debug, Clone)]
pub struct Server {
    pub(crate) config: ServerConfig,
    pub(crate) sessions: SessionTable<ConnId, LegacySession>,
    pub(crate) policy: SessionPolicy,
    pub(crate) session_seq: u64,
    /// The time of the input being handled.
    pub(crate) now: SimTime,
    pub(crate) pending: SmallMap<(ConnId, RequestId), PendingCall>,
    pub(crate) locks_held: Vec<String>,
    pub(crate) next_request_id: i64,
    pub(crate) next_session: u32,
    pub(crate) outbox: VecDeque<ServerOutput>,
    /// Open `subscriptions/listen` streams (the only per-client state of
    /// the modern era: it lives as long as its stream).
    pub(crate) listeners: Vec<subscriptions::Listener>,
    /// Number of the last listen stream opened over HTTP.
    pub(crate) next_stream: u64,
    /// The stream the request being handled opened, if any.
    pub(crate) opened_stream: Option<String>,
    /// The key that signs MRTR requestState (M-MRTR-STATE).
    pub(crate) state_key: Vec<u8>,
    /// Set while handling a call whose tool polls (H-SSE-POLL): the
    /// `retry:` in ms, if the session lets the stream end early.
    pub(crate) poll_reply: Option<u64>,
    /// What the tools keep from one call to the next (rate limits,
    /// handles, quarantines).
    pub(crate) ledger: tool_state::Ledger,
    /// Over HTTP, with a policy: the caller its token named.
    pub(crate) http_caller: Option<crate::identity::Caller>,
    /// Over HTTP, with a policy: whose tokens name the caller. `None`:
    /// the identities' tokens ([`crate::identity::resource`]).
    pub(crate) token_checks: Option<crate::auth::resource::ProtectedResource>,
}

/// An error reply in the making: why ([`Fault`]), the message, data, rules
/// and note. [`Server::refuse`] turns it into a reply, taking the code and
/// status from [`Fault::wire`].
pub(crate) struct Refusal {
    pub fault: Fault,
    pub message: String,
    pub data: Option<Value>,
    pub rules: Vec<RuleId>,
    pub note: Note,
}

impl Refusal {
    pub fn new(fault: Fault, message: impl Into<String>, rules: &[RuleId], note: Note) -> Self {
        Self {
            fault,
            message: message.into(),
            data: None,
            rules: rules.to_vec(),
            note,
        }
    }
    pub fn data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }
}

impl Server {
    /// A server with the given configuration and no connections.
    pub fn new(mut config: ServerConfig) -> Self {
        reference::expand(&mut config);
        let next_request_id = config.first_request_id;
        Self {
            config,
            sessions: SessionTable::default(),
            policy: SessionPolicy::default(),
            session_seq: 0,
            now: SimTime::ZERO,
            pending: SmallMap::new(),
            locks_held: Vec::new(),
            next_request_id,
            next_session: 1,
            outbox: VecDeque::new(),
            listeners: Vec::new(),
            next_stream: 0,
            opened_stream: None,
            state_key: mrtr::SIMULATION_KEY.to_vec(),
            poll_reply: None,
            ledger: tool_state::Ledger::default(),
            http_caller: None,
            token_checks: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// Sets how legacy HTTP sessions are named and retired (L-SESSION-ID,
    /// L-SESSION-IDLE). A real server gives random ids, an idle limit and
    /// a cap; the simulation keeps the default (numbered, kept).
    pub fn set_session_policy(&mut self, policy: SessionPolicy) {
        self.policy = policy;
    }

    /// Legacy sessions currently held.
    pub fn session_count(&self) -> usize {
        self.sessions.len()
    }

    /// Whether the SSE stream `key` (an [`HttpResponse::stream`]) is still
    /// open: its listen subscription lasts, or its legacy session exists
    /// and its last event is not sent yet.
    pub fn stream_is_open(&self, key: &str) -> bool {
        if self.listens_on(key) {
            return true;
        }
        let Some((session, number)) = key.rsplit_once('/') else {
            return false;
        };
        let Ok(number) = number.parse() else {
            return false;
        };
        self.sessions
            .get(&ConnId::http_session(session))
            .is_some_and(|s| s.streams.is_open(number))
    }

    /// The client of the SSE stream `key` went away before the stream ended
    /// (the driver saw its connection close). A listen stream is the
    /// subscription, so it ends and is forgotten (M-LISTEN-FILTER); a
    /// legacy session's stream loses nothing: its later events are kept
    /// for a GET with `Last-Event-ID` (H-SSE-RESUME).
    pub fn stream_closed(&mut self, now: SimTime, key: &str) {
        self.now = now;
        if self.listens_on(key) {
            let conn = ConnId::http_stream(key);
            self.note(&conn, OutputKind::Decision, &[rules::M_LISTEN_FILTER],
                crate::note!("server.client_closed_listen_stream", "The client closed listen stream {key}: the stream was the subscription, so it ends and the server forgets it.", key = key));
            self.handle_disconnect(now, &conn);
        } else if self.stream_is_open(key) {
            let session = key.rsplit_once('/').map_or(key, |(s, _)| s);
            self.note(&ConnId::http_session(session), OutputKind::Decision, &[rules::H_SSE_RESUME],
                crate::note!("server.client_dropped_stream_before", "The client dropped stream {key} before its end: the session and its waiting call go on, and the events sent meanwhile are kept for a GET with Last-Event-ID.", key = key));
        }
    }

    /// Whether `key` is an open listen stream.
    fn listens_on(&self, key: &str) -> bool {
        self.listeners
            .iter()
            .any(|l| matches!(&l.conn, ConnId::HttpStream(k) if k == key))
    }

    /// Ends every legacy HTTP session idle for longer than the policy's
    /// limit at `now` (L-SESSION-IDLE); how many ended.
    pub fn expire_sessions(&mut self, now: SimTime) -> usize {
        let Some(idle) = self.policy.idle_ms else {
            return 0;
        };
        let mut idle_conns: Vec<(u64, ConnId)> = self
            .sessions
            .iter()
            .filter(|(conn, s)| conn.session_id().is_some() && now.millis_since(s.last_seen) > idle)
            .map(|(conn, s)| (s.seq, conn.clone()))
            .collect();
        idle_conns.sort();
        for (_, conn) in &idle_conns {
            self.retire(now, conn, "was idle longer than the server's limit");
        }
        idle_conns.len()
    }

    /// Ends session `conn` on the server's own initiative: its waiting
    /// calls fail without side effects, its streams close.
    pub(crate) fn retire(&mut self, now: SimTime, conn: &ConnId, why: &str) {
        let id = conn.session_id().unwrap_or_default().to_string();
        self.note(conn, OutputKind::Decision, &[rules::L_SESSION_IDLE],
            crate::note!("server.session_ends_waiting_calls", "Session {id} {why}: it ends, its waiting calls are cancelled with no side effect, and its id now gets 404 so the client initializes again.", id = id, why = why));
        self.handle_disconnect(now, conn);
    }
    /// Locks currently held (leaked if the run ends now).
    pub fn locks_held(&self) -> &[String] {
        &self.locks_held
    }

    /// The next thing the server does on its own, if any.
    pub fn poll_output(&mut self) -> Option<ServerOutput> {
        self.outbox.pop_front()
    }

    /// Handles one stdio line (or any raw message text) from connection
    /// `conn`. Returns the reply to send back, if the message gets one.
    pub fn handle_text(&mut self, now: SimTime, conn: &ConnId, text: &str) -> Option<Reply> {
        self.now = now;
        let mut reply = self.handle_message(conn, text, None);
        // stdio has no SSE stream to end early.
        self.poll_reply = None;
        // H-STATUS is about HTTP status codes: a stdio reply has none.
        if let Some(reply) = reply.as_mut() {
            reply.rules.retain(|r| *r != rules::H_STATUS);
        }
        reply
    }

    /// The client closed connection `conn`: any call waiting on it fails, and
    /// its handler unwinds and releases what it held.
    pub fn handle_disconnect(&mut self, _now: SimTime, conn: &ConnId) {
        let keys: Vec<_> = self
            .pending
            .keys()
            .filter(|(c, _)| c == conn)
            .cloned()
            .collect();
        for key in keys {
            if let Some(call) = self.pending.remove(&key) {
                if let Some(lock) = call.lock {
                    self.release(conn, &lock, &[rules::L_UNDECLARED],
                        crate::note!("server.connection_closed_while_waited", "The connection closed while {tool} waited for its elicitation; the handler fails with a connection error and releases {lock}.", tool = call.tool, lock = lock));
                }
            }
        }
        self.sessions.remove(conn);
        self.listeners.retain(|l| l.conn != *conn);
    }

    /// Makes the server act on its own (e.g. its tool list changes).
    pub fn trigger(&mut self, now: SimTime, trigger: ServerTrigger) {
        self.now = now;
        self.announce(&trigger);
        self.place_events();
    }

    /// The revision of a message outside any legacy session.
    fn default_revision(&self) -> ProtocolVersion {
        if self.config.era == EraMode::LegacyOnly {
            ProtocolVersion::legacy_default(&self.config.legacy_versions)
        } else {
            ProtocolVersion::modern()
        }
    }

    /// The shared entry: parse, classify, route.
    fn handle_message(
        &mut self,
        conn: &ConnId,
        text: &str,
        http: Option<&HttpRequest>,
    ) -> Option<Reply> {
        let revision = self.revision_for(conn);
        if text.len() > MAX_MESSAGE_BYTES {
            return Some(self.refuse(None, Refusal::new(Fault::MessageTooLarge,
                format!("Invalid Request: message of {} bytes exceeds this server's {} byte limit", text.len(), MAX_MESSAGE_BYTES), &[rules::RPC_INVALID, rules::H_STATUS], crate::note!("server.message_larger_than_server", "The message is larger than the server accepts, so it is refused without being parsed.")), revision));
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(err) => {
                let detail = if err.to_string().contains("recursion limit") {
                    "nested too deeply to parse".to_string()
                } else {
                    format!("{err}")
                };
                return Some(self.refuse(None, Refusal::new(Fault::ParseError, format!("Parse error: {detail}"),
                    &[rules::RPC_PARSE, rules::H_STATUS],
                    crate::note!("server.text_not_json_server", "The text is not JSON, so the server cannot read an id: -32700 Parse error with no id.")), revision));
            }
        };
        let envelope = match Envelope::classify(&value) {
            Ok(e) => e,
            Err(invalid) => {
                return Some(self.refuse(invalid.id.as_ref(), Refusal::new(Fault::InvalidRequest,
                    format!("Invalid Request: {}", invalid.reason), &[rules::RPC_INVALID, rules::H_STATUS],
                    crate::note!("server.json_not_valid_json", "This JSON is not a valid JSON-RPC request ({reason}): -32600 Invalid Request.", reason = invalid.reason)), revision));
            }
        };
        match envelope {
            Envelope::Result { id, result } => {
                self.legacy_client_answered(conn, &id, Ok(result));
                None
            }
            Envelope::Error {
                id: Some(id),
                error,
            } => {
                self.legacy_client_answered(conn, &id, Err(error));
                None
            }
            Envelope::Error { id: None, .. } => {
                self.note(conn, OutputKind::Dropped("an error response with no id".into()), &[rules::RPC_NOTIFY],
                    crate::note!("server.error_response_without_id", "An error response without an id answers nothing the server asked; it is ignored."));
                None
            }
            Envelope::Notification { method, params } => {
                self.handle_notification(conn, &method, &params);
                None
            }
            Envelope::Request { id, method, params } => {
                self.route_request(conn, id, &method, params, http)
            }
        }
    }

    fn route_request(
        &mut self,
        conn: &ConnId,
        id: RequestId,
        method: &str,
        params: Value,
        http: Option<&HttpRequest>,
    ) -> Option<Reply> {
        let has_modern_meta = params
            .get("_meta")
            .and_then(|m| m.get(meta::PROTOCOL_VERSION))
            .is_some();
        let era = self.config.era;
        // A POST naming a modern version in MCP-Protocol-Version is a modern
        // request whatever its method (E-HEADER-ROUTE): no legacy client
        // sends that header on initialize.
        let modern_header = http
            .and_then(|r| r.header(http::PROTOCOL_VERSION_HEADER))
            .is_some_and(|v| self.config.modern_versions.iter().any(|m| m == v));
        if method == methods::INITIALIZE && era == EraMode::DualEra && modern_header {
            return self.modern_request(conn, id, method, &params, http);
        }
        if method == methods::INITIALIZE {
            return Some(if era.speaks_legacy() {
                self.legacy_initialize(conn, id, &params, http.is_some())
            } else {
                self.modern_refuses_initialize(id, &params, http)
            });
        }
        let in_session = self.sessions.contains_key(conn);
        let legacy = match era {
            EraMode::LegacyOnly => true,
            EraMode::ModernOnly => false,
            EraMode::DualEra => in_session && !has_modern_meta,
        };
        if legacy {
            self.legacy_request(conn, id, method, &params)
        } else {
            self.modern_request(conn, id, method, &params, http)
        }
    }

    fn handle_notification(&mut self, conn: &ConnId, method: &str, params: &Value) {
        match method {
            methods::INITIALIZED => {
                if let Some(session) = self.sessions.get_mut(conn) {
                    session.state = SessionState::Operating;
                    self.note(conn, OutputKind::Decision, &[rules::L_INIT, rules::RPC_NOTIFY],
                        crate::note!("server.notifications_initialized_completes_handshake", "notifications/initialized completes the handshake; the session is now operating (no response, it is a notification)."));
                    return;
                }
                self.note(conn, OutputKind::Decision, &[rules::RPC_NOTIFY], crate::note!("server.notifications_initialized_outside_legacy", "notifications/initialized outside a legacy session is ignored; notifications never get a response."));
            }
            methods::CANCELLED => self.cancelled(conn, params),
            other => self.note(
                conn,
                OutputKind::Decision,
                &[rules::RPC_NOTIFY],
                crate::note!(
                    "server.notification_needs_no_response",
                    "Notification {other} needs no response, and gets none.",
                    other = other
                ),
            ),
        }
    }

    /// Which revision messages on `conn` speak.
    pub(crate) fn revision_for(&self, conn: &ConnId) -> ProtocolVersion {
        match self.sessions.get(conn) {
            Some(s) => s.version.clone(),
            None => self.default_revision(),
        }
    }

    pub(crate) fn refuse(
        &self,
        id: Option<&RequestId>,
        refusal: Refusal,
        revision: ProtocolVersion,
    ) -> Reply {
        let (code, status) = refusal.fault.wire(revision.era());
        let mut error = ErrorObject::new(code, refusal.message);
        error.data = refusal.data;
        Reply {
            message: jsonrpc::error(id, &error),
            status,
            rules: refusal.rules,
            note: refusal.note,
            revision,
            headers: Vec::new(),
        }
    }

    /// [`Server::refuse`] as an HTTP response with a JSON body.
    pub(crate) fn refuse_http(
        &self,
        id: Option<&RequestId>,
        refusal: Refusal,
        revision: ProtocolVersion,
    ) -> HttpReply {
        let reply = self.refuse(id, refusal, revision);
        HttpReply::new(
            HttpResponse::json(reply.status, reply.message.to_string()),
            reply.rules,
            reply.note,
            reply.revision,
        )
    }

    pub(crate) fn note(&mut self, conn: &ConnId, kind: OutputKind, rules: &[RuleId], note: Note) {
        let event = self
            .response_event(conn, &kind)
            .or_else(|| http_edge::listen_event(conn, &kind));
        self.outbox.push_back(ServerOutput {
            conn: conn.clone(),
            kind,
            rules: rules.to_vec(),
            note,
            event,
        });
    }

    /// A response to a request whose POST opened a stream on a legacy HTTP
    /// session is that stream's last event (H-SSE-STREAM).
    fn response_event(&mut self, conn: &ConnId, kind: &OutputKind) -> Option<SseEvent> {
        let OutputKind::Send { message, .. } = kind else {
            return None;
        };
        if message.get("method").is_some() {
            return None;
        }
        let session = conn.session_id()?;
        let id = message.get("id").and_then(RequestId::from_json)?;
        let streams = &mut self.sessions.get_mut(conn)?.streams;
        let number = streams.answering(&id)?;
        let event_id = streams.record(number, message, true)?;
        Some(SseEvent {
            stream: streams::stream_key(session, number),
            id: Some(event_id),
            closes: true,
        })
    }

    pub(crate) fn take(&mut self, conn: &ConnId, lock: &str, rules: &[RuleId], note: Note) {
        self.locks_held.push(lock.to_string());
        self.note(conn, OutputKind::LockTaken(lock.to_string()), rules, note);
    }

    pub(crate) fn release(&mut self, conn: &ConnId, lock: &str, rules: &[RuleId], note: Note) {
        if let Some(pos) = self.locks_held.iter().position(|l| l == lock) {
            self.locks_held.remove(pos);
        }
        self.note(
            conn,
            OutputKind::LockReleased(lock.to_string()),
            rules,
            note,
        );
    }

    pub(crate) fn next_id(&mut self) -> RequestId {
        let id = RequestId::Number(self.next_request_id);
        self.next_request_id += 1;
        id
    }

    /// A text content block list.
    pub(crate) fn text_content(text: &str) -> Value {
        json!([{"type": "text", "text": text}])
    }
}
