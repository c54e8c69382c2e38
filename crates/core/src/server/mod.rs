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

pub mod config;
mod conn;
mod fault;
mod legacy;
mod modern;
mod mrtr;
mod params;
pub mod presets;
mod prompts;
pub mod reference;
mod resources;
mod sessions;
mod streams;
mod subscriptions;
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
    Behaviour, CacheScope, InputAsk, InputRound, MrtrSpec, PromptArgument, PromptSpec, Question,
    ResourceSpec, ServerConfig, TemplateSpec, ToolSpec, UnknownMethodPolicy,
};
pub use conn::ConnId;
pub(crate) use fault::Fault;
pub use mrtr::SIMULATION_KEY;
pub use sessions::{SessionIds, SessionPolicy};
pub use streams::SseEvent;
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

    /// Handles one HTTP request to the MCP endpoint and returns the response
    /// together with the reply's rules and note.
    pub fn handle_http(&mut self, now: SimTime, request: &HttpRequest) -> HttpReply {
        self.now = now;
        self.opened_stream = None;
        self.poll_reply = None;
        let reply = self.handle_http_inner(request);
        self.poll_reply = None;
        self.place_events();
        reply
    }

    fn handle_http_inner(&mut self, request: &HttpRequest) -> HttpReply {
        let now = self.now;
        let fallback_revision = self.default_revision();
        let session = request.header(http::SESSION_HEADER).map(str::to_string);
        if let (Some(id), Some(idle)) = (&session, self.policy.idle_ms) {
            let conn = ConnId::http_session(id);
            let expired = self
                .sessions
                .get(&conn)
                .is_some_and(|s| now.millis_since(s.last_seen) > idle);
            if expired {
                self.retire(now, &conn, "was idle longer than the server's limit");
                return HttpReply::new(HttpResponse::empty(404), vec![rules::L_SESSION_IDLE, rules::L_INIT],
                    crate::note!("server.session_expired_after_more", "Session {id} expired after more than {idle} ms unused: 404 tells the client to initialize again.", id = id, idle = idle), fallback_revision);
            }
        }
        if let Some(id) = &session {
            if let Some(s) = self.sessions.get_mut(&ConnId::http_session(id)) {
                s.last_seen = now;
            }
        }
        // Legacy Streamable HTTP ends a session with DELETE.
        if request.method == "DELETE" && self.config.era.speaks_legacy() {
            if let Some(id) = &session {
                let conn = ConnId::http_session(id);
                if self.sessions.contains_key(&conn) {
                    self.handle_disconnect(now, &conn);
                    return HttpReply::new(
                        HttpResponse::empty(200),
                        vec![rules::L_INIT],
                        crate::note!(
                            "server.delete_ends_legacy_session",
                            "DELETE ends legacy session {id}; a new one needs initialize.",
                            id = id
                        ),
                        fallback_revision,
                    );
                }
                return HttpReply::new(
                    HttpResponse::empty(404),
                    vec![rules::L_INIT],
                    crate::note!(
                        "server.there_no_session_end",
                        "There is no session {id} to end.",
                        id = id
                    ),
                    fallback_revision,
                );
            }
        }
        // Legacy Streamable HTTP: GET opens or resumes a session's stream.
        if request.method == "GET" && self.config.era.speaks_legacy() {
            if let Some(id) = &session {
                return self.legacy_get(id, request, fallback_revision);
            }
        }
        if request.method != "POST" {
            let note = crate::note!("server.mcp_endpoint_server_keeps", "{method} to the MCP endpoint: this server keeps no sessions or standalone streams, so only POST is allowed.", method = request.method);
            let mut resp = HttpResponse::empty(405);
            resp.headers.push(("Allow".into(), "POST".into()));
            return HttpReply::new(
                resp,
                vec![rules::H_STATUS, rules::H_SESSION],
                note,
                fallback_revision,
            );
        }
        if let Some(host) = request.header("Host").filter(|_| self.config.checks_host) {
            if !host_allowed(host) {
                let refusal = Refusal::new(Fault::ForbiddenHost, "Forbidden: host not allowed", &[rules::H_HOST, rules::H_STATUS],
                    crate::note!("server.host_not_loopback_server", "Host \"{host}\" is not this loopback server's name: 403, so a page on another site that rebinds its DNS name to 127.0.0.1 cannot reach it.", host = host));
                return self.refuse_http(None, refusal, fallback_revision);
            }
        }
        if let Some(origin) = request.header("Origin") {
            if !origin_allowed(origin) {
                let refusal = Refusal::new(Fault::ForbiddenOrigin, "Forbidden: origin not allowed", &[rules::H_STATUS],
                    crate::note!("server.origin_not_allowed_403", "Origin \"{origin}\" is not allowed: 403 protects a local server from DNS rebinding.", origin = origin));
                return self.refuse_http(None, refusal, fallback_revision);
            }
        }
        let conn = match (&session, self.config.era) {
            (Some(id), era) if era.speaks_legacy() => ConnId::http_session(id),
            _ => ConnId::http(),
        };
        if request.body.len() > MAX_MESSAGE_BYTES {
            let refusal = Refusal::new(Fault::BodyTooLarge, format!("Invalid Request: body of {} bytes exceeds this server's {MAX_MESSAGE_BYTES} byte limit", request.body.len()),
                &[rules::RPC_INVALID, rules::H_STATUS], crate::note!("server.body_larger_than_server", "The body is larger than the server accepts: refused before parsing."));
            return self.refuse_http(None, refusal, fallback_revision);
        }
        // Legacy sessions: an unknown session id is 404 (the client must
        // initialize again); an unsupported protocol version header is 400.
        if self.config.era.speaks_legacy() {
            if let Some(id) = &session {
                // (A dual-era server still serves modern requests statelessly.)
                let modern_on_dual = self.config.era == EraMode::DualEra
                    && request.body.contains(meta::PROTOCOL_VERSION);
                if !self.sessions.contains_key(&conn) && !modern_on_dual {
                    return HttpReply::new(HttpResponse::empty(404), vec![rules::L_INIT],
                        crate::note!("server.session_unknown_ended_or", "Session {id} is unknown (ended or never started): 404 tells the client to initialize again.", id = id), fallback_revision);
                }
                let known = self.sessions.get(&conn).map(|s| s.version.clone());
                if let (Some(version), Some(header)) =
                    (known, request.header(http::PROTOCOL_VERSION_HEADER))
                {
                    if version != header && !self.config.legacy_versions.iter().any(|v| v == header)
                    {
                        let refusal = Refusal::new(Fault::UnsupportedVersion, format!("Bad Request: unsupported MCP-Protocol-Version {header}"), &[rules::L_VERSION, rules::H_STATUS],
                            crate::note!("server.session_speaks_request_naming", "The session speaks {version}; a request naming {header} in MCP-Protocol-Version is refused with 400.", version = version, header = header));
                        return self.refuse_http(None, refusal, version);
                    }
                }
            }
        }
        let mut extra_rules = Vec::new();
        if session.is_some() && self.config.era == EraMode::ModernOnly {
            extra_rules.push(rules::H_SESSION);
        }
        // A legacy-only server without a session answers everything but
        // initialize the way legacy SDKs do (E-PROBE-HTTP sees a non-modern body).
        if self.config.era == EraMode::LegacyOnly && !self.sessions.contains_key(&conn) {
            if let Some(resp) = self.legacy_http_without_session(request) {
                return resp;
            }
        }
        let request_id = serde_json::from_str::<Value>(&request.body)
            .ok()
            .filter(|v| v.get("method").is_some())
            .and_then(|v| v.get("id").and_then(RequestId::from_json));
        let is_response = serde_json::from_str::<Value>(&request.body)
            .is_ok_and(|v| v.get("method").is_none() && v.get("id").is_some());
        match self.handle_message(&conn, &request.body, Some(request)) {
            Some(reply) => {
                if let (Some(retry_ms), Some(id)) = (self.poll_reply.take(), &request_id) {
                    if let Some(polled) = self.polled_response(&conn, id, &reply, retry_ms) {
                        return polled;
                    }
                }
                let (sends, send_rules, send_note) = self.take_sends(&conn);
                let mut rules = reply.rules.clone();
                let mut note = reply.note.clone();
                let mut resp = if !sends.is_empty() && reply.status == 200 {
                    // Notifications for this request travel first, on its own
                    // SSE stream, then the response (H-SSE-RESPONSE).
                    let mut body = String::new();
                    for message in sends.iter().chain([&reply.message]) {
                        body.push_str(&format!("event: message\ndata: {message}\n\n"));
                    }
                    for rule in send_rules.into_iter().chain([rules::H_SSE_RESPONSE]) {
                        if !rules.contains(&rule) {
                            rules.push(rule);
                        }
                    }
                    note = crate::note!("server.response_sse_stream_notification", "The response is an SSE stream: {count} notification(s) for this request first ({send_note}), then the result. {note}", count = sends.len(), send_note = send_note, note = note);
                    HttpResponse::event_stream(body)
                } else {
                    HttpResponse::json(reply.status, reply.message.to_string())
                };
                resp.headers.extend(reply.headers.iter().cloned());
                rules.extend(extra_rules);
                if rules.contains(&rules::H_SESSION) && !reply.rules.contains(&rules::H_SESSION) {
                    note.push(crate::note!(
                        "server.session_header_ignored",
                        "The Mcp-Session-Id header was ignored: a modern server keeps no sessions."
                    ));
                }
                HttpReply::new(resp, rules, note, reply.revision)
            }
            None => {
                let dropped = self
                    .outbox
                    .iter()
                    .any(|o| matches!(o.kind, OutputKind::Dropped(_)));
                if let Some(key) = self.opened_stream.take() {
                    self.listen_response(key)
                } else if dropped && self.config.unknown_method == UnknownMethodPolicy::Silent {
                    HttpReply::new(
                        HttpResponse::empty(404),
                        vec![rules::E_PROBE_HTTP],
                        crate::note!("server.legacy_server_has_no", "The legacy server has no such endpoint behaviour: 404 with an empty body."),
                        fallback_revision,
                    )
                } else if let Some(id) = request_id {
                    self.sse_response(&conn, id, fallback_revision)
                } else if is_response {
                    HttpReply::new(
                        HttpResponse::empty(202),
                        vec![rules::H_STATUS, rules::L_CAP_SESSION],
                        crate::note!("server.client_s_answer_accepted", "The client's answer is accepted with 202; the server continues the call it belongs to."),
                        fallback_revision,
                    )
                } else {
                    HttpReply::new(HttpResponse::empty(202), vec![rules::RPC_NOTIFY, rules::H_STATUS], crate::note!("server.notification_accepted_202_no", "Notification accepted: 202 with no body, since a notification never gets a response."), fallback_revision)
                }
            }
        }
    }

    /// A legacy request whose answer has to wait for the client (e.g. an
    /// elicitation): the response is an SSE stream for this request that
    /// stays open (H-SSE-STREAM). Its body carries the server's messages so
    /// far as events with ids (H-SSE-RESUME); the later ones, ending with
    /// the request's response, come as outputs of later calls tagged with
    /// the same stream.
    fn sse_response(
        &mut self,
        conn: &ConnId,
        id: RequestId,
        revision: ProtocolVersion,
    ) -> HttpReply {
        let session_id = conn.session_id().map(str::to_string);
        let number = self.sessions.get_mut(conn).map(|s| s.streams.open_for(id));
        let key = session_id
            .as_deref()
            .zip(number)
            .map(|(session, n)| streams::stream_key(session, n));
        // The server's messages for this request so far become the stream's
        // first events.
        let mut outbox = std::mem::take(&mut self.outbox);
        for out in outbox.iter_mut() {
            if out.conn != *conn || out.event.is_some() {
                continue;
            }
            let (OutputKind::Send { message, .. }, Some(key), Some(number)) =
                (&out.kind, &key, number)
            else {
                continue;
            };
            out.event = self
                .sessions
                .get_mut(conn)
                .and_then(|s| s.streams.record(number, message, false))
                .map(|event_id| SseEvent {
                    stream: key.clone(),
                    id: Some(event_id),
                    closes: false,
                });
        }
        self.outbox = outbox;
        let (body, mut rules) = match &key {
            Some(key) => self.stream_body(key),
            // No session to keep a stream in: what is there is all.
            None => self.take_untagged_sends(conn),
        };
        rules.splice(0..0, [rules::H_STATUS, rules::H_SSE_STREAM]);
        let mut resp = HttpResponse::event_stream(body);
        if let Some(session) = &session_id {
            resp.headers
                .push((http::SESSION_HEADER.into(), session.clone()));
            resp.stream = key;
        }
        HttpReply::new(resp, rules, crate::note!("server.answer_has_wait_server", "The answer has to wait: the server opens an SSE stream for this request and sends its own request on it, with an event id; the stream stays open, and the result will follow on it as its last event."), revision)
    }

    /// SSE polling (H-SSE-POLL): in a 2025-11-25 session, the POST's
    /// stream is primed (an event id, `retry:`, no data) and ends at once;
    /// the request's notifications and its response become the stream's
    /// later events, kept for the GET with `Last-Event-ID` that follows.
    /// `None`: the session's revision has no priming, so the reply goes out
    /// as usual.
    fn polled_response(
        &mut self,
        conn: &ConnId,
        id: &RequestId,
        reply: &Reply,
        retry_ms: u64,
    ) -> Option<HttpReply> {
        let session_id = conn.session_id()?.to_string();
        let session = self.sessions.get_mut(conn)?;
        if session.version.as_str() < "2025-11-25" || reply.status != 200 {
            return None;
        }
        let revision = session.version.clone();
        let number = session.streams.open_for(id.clone());
        let primed = session.streams.prime(number)?;
        let (sends, _, _) = self.take_sends(conn);
        let session = self.sessions.get_mut(conn)?;
        for message in &sends {
            session.streams.record(number, message, false);
        }
        let last = session.streams.record(number, &reply.message, true)?;
        let mut resp =
            HttpResponse::event_stream(format!("id: {primed}\nretry: {retry_ms}\ndata: \n\n"));
        resp.headers.push((http::SESSION_HEADER.into(), session_id));
        let mut rules = vec![rules::H_SSE_POLL, rules::H_SSE_RESUME, rules::H_STATUS];
        rules.extend(reply.rules.iter().copied());
        let note = crate::note!("server.sse_polling_stream_opens", "SSE polling: the stream opens with a priming event ({primed}: an id and no data) and retry: {retry_ms}, then the server ends the response before the result. The result waits as event {last}; the client gets it by reconnecting with GET and Last-Event-ID: {primed}. {note}", primed = primed, retry_ms = retry_ms, last = last, note = reply.note);
        Some(HttpReply::new(resp, rules, note, revision))
    }

    /// GET on a legacy server with a session: resumes the stream named by
    /// `Last-Event-ID` (its events after that one, then its later ones), or
    /// opens the session's stream for messages unrelated to a request
    /// (H-SSE-RESUME). An unknown session gets 404.
    fn legacy_get(
        &mut self,
        id: &str,
        request: &HttpRequest,
        revision: ProtocolVersion,
    ) -> HttpReply {
        let conn = ConnId::http_session(id);
        let Some(session) = self.sessions.get_mut(&conn) else {
            return HttpReply::new(HttpResponse::empty(404), vec![rules::L_INIT],
                crate::note!("server.session_unknown_ended_or", "Session {id} is unknown (ended or never started): 404 tells the client to initialize again.", id = id), revision);
        };
        let revision = session.version.clone();
        let mut resp = HttpResponse {
            status: 200,
            headers: vec![
                ("Content-Type".into(), "text/event-stream".into()),
                (http::SESSION_HEADER.into(), id.to_string()),
            ],
            body: String::new(),
            stream: None,
        };
        let rules = vec![rules::H_SSE_RESUME, rules::H_STATUS];
        let Some(last) = request.header(http::LAST_EVENT_ID_HEADER) else {
            session.streams.open_standalone();
            resp.stream = Some(streams::stream_key(id, 0));
            return HttpReply::new(resp, rules, crate::note!("server.get_opens_session_s", "GET opens session {id}'s stream for server messages unrelated to a request; it stays open.", id = id), revision);
        };
        let found = streams::parse_event_id(last)
            .and_then(|(number, seq)| session.streams.get(number).map(|s| (s, seq)));
        let Some((stream, after)) = found else {
            let refusal = Refusal::new(Fault::InvalidRequest, format!("Bad Request: no stream of session {id} has event {last}"),
                &[rules::H_SSE_RESUME, rules::H_STATUS],
                crate::note!("server.last_event_id_names", "Last-Event-ID {last} names no stream this session still has: nothing can be replayed, 400.", last = last));
            return self.refuse_http(None, refusal, revision);
        };
        let mut replayed = 0;
        for (seq, data) in stream.sent.iter().filter(|(seq, _)| *seq > after) {
            resp.body.push_str(&http::sse_event(
                Some(&streams::event_id(stream.number, *seq)),
                data,
            ));
            replayed += 1;
        }
        let note = if stream.done {
            crate::note!("server.get_last_event_id_2", "GET with Last-Event-ID {last} resumes the stream: the {replayed} event(s) after it are sent again, ending with the response; the stream is complete.", last = last, replayed = replayed)
        } else {
            resp.stream = Some(streams::stream_key(id, stream.number));
            crate::note!("server.get_last_event_id", "GET with Last-Event-ID {last} resumes the stream: the {replayed} event(s) after it are sent again, and the stream stays open for the rest.", last = last, replayed = replayed)
        };
        HttpReply::new(resp, rules, note, revision)
    }

    /// Gives every message for a legacy HTTP session that no stream carries
    /// yet the session's standalone stream, if it is open (H-SSE-RESUME).
    fn place_events(&mut self) {
        let mut outbox = std::mem::take(&mut self.outbox);
        for out in outbox.iter_mut() {
            let (Some(session), None, OutputKind::Send { message, .. }) =
                (out.conn.session_id(), &out.event, &out.kind)
            else {
                continue;
            };
            let Some(s) = self.sessions.get_mut(&out.conn) else {
                continue;
            };
            if !s.streams.has_standalone() {
                continue;
            }
            out.event = s.streams.record(0, message, false).map(|id| SseEvent {
                stream: streams::stream_key(session, 0),
                id: Some(id),
                closes: false,
            });
        }
        self.outbox = outbox;
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
            methods::CANCELLED => {
                let listen = params
                    .get("requestId")
                    .and_then(RequestId::from_json)
                    .filter(|id| self.stop_listening(conn, id));
                match listen {
                    Some(id) => self.note(conn, OutputKind::Decision, &[rules::M_LISTEN_FILTER, rules::RPC_NOTIFY],
                        crate::note!("server.client_cancelled_listen_stream", "The client cancelled listen stream {id}: the subscription ends, and the server forgets it.", id = id)),
                    None => self.note(conn, OutputKind::Decision, &[rules::L_TIMEOUT, rules::RPC_NOTIFY],
                        crate::note!("server.client_cancelled_request_server", "The client cancelled a request; the server stops working on it and sends no response.")),
                }
            }
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
            .or_else(|| listen_event(conn, &kind));
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

/// Takes the messages the server queued for `conn` while handling the
/// current request (progress, log messages: they travel before its response).
impl Server {
    fn take_sends(&mut self, conn: &ConnId) -> (Vec<Value>, Vec<RuleId>, Note) {
        let mut sends = Vec::new();
        let mut rules = Vec::new();
        let mut note = Note::default();
        let mut rest = VecDeque::new();
        while let Some(out) = self.outbox.pop_front() {
            match &out.kind {
                OutputKind::Send { message, .. }
                    if out.conn == *conn && message.get("id").is_none() =>
                {
                    sends.push(message.clone());
                    for rule in &out.rules {
                        if !rules.contains(rule) {
                            rules.push(*rule);
                        }
                    }
                    if note.is_empty() {
                        note = out.note.clone();
                        note.trim_end_period();
                    }
                }
                _ => rest.push_back(out),
            }
        }
        self.outbox = rest;
        (sends, rules, note)
    }

    /// The response of a `subscriptions/listen` POST: an SSE stream that
    /// stays open, its acknowledgement first (M-LISTEN-ACK).
    fn listen_response(&mut self, key: String) -> HttpReply {
        let (body, mut rules) = self.stream_body(&key);
        rules.insert(0, rules::H_STATUS);
        let mut resp = HttpResponse::event_stream(body);
        resp.stream = Some(key.clone());
        let note = crate::note!("server.subscriptions_listen_response_sse", "subscriptions/listen: the response is an SSE stream that stays open ({key}); the acknowledgement is its first event, and later notifications follow on it until the client closes it.", key = key);
        HttpReply::new(resp, rules, note, ProtocolVersion::modern())
    }
}

impl Server {
    /// Takes the messages queued for stream `key` out of the outbox: they
    /// are the first events of the response that opens it, its body.
    fn stream_body(&mut self, key: &str) -> (String, Vec<RuleId>) {
        let mut body = String::new();
        let mut rules = Vec::new();
        let mut rest = VecDeque::new();
        while let Some(out) = self.outbox.pop_front() {
            match (&out.kind, &out.event) {
                (OutputKind::Send { message, .. }, Some(event)) if event.stream == key => {
                    body.push_str(&event.frame(&message.to_string()));
                    rules.extend(out.rules.iter().copied());
                }
                _ => rest.push_back(out),
            }
        }
        self.outbox = rest;
        (body, rules)
    }

    /// Takes every message queued for `conn` that no stream carries, as
    /// events without ids.
    fn take_untagged_sends(&mut self, conn: &ConnId) -> (String, Vec<RuleId>) {
        let mut body = String::new();
        let mut rules = Vec::new();
        let mut rest = VecDeque::new();
        while let Some(out) = self.outbox.pop_front() {
            match &out.kind {
                OutputKind::Send { message, .. } if out.conn == *conn && out.event.is_none() => {
                    body.push_str(&http::sse_event(None, &message.to_string()));
                    rules.extend(out.rules.iter().copied());
                }
                _ => rest.push_back(out),
            }
        }
        self.outbox = rest;
        (body, rules)
    }
}

/// A message to a listen stream travels on it as an event without an id
/// (M-LISTEN-TAG: the subscription id is in the message itself).
fn listen_event(conn: &ConnId, kind: &OutputKind) -> Option<SseEvent> {
    match (conn, kind) {
        (ConnId::HttpStream(key), OutputKind::Send { .. }) => Some(SseEvent {
            stream: key.clone(),
            id: None,
            closes: false,
        }),
        _ => None,
    }
}

/// Loopback host names only (the `Host` header, port ignored).
fn host_allowed(host: &str) -> bool {
    let name = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']')
            .next()
            .map(|h| format!("[{h}]"))
            .unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or("").to_string()
    };
    matches!(
        name.to_ascii_lowercase().as_str(),
        "localhost" | "127.0.0.1" | "[::1]"
    )
}

/// Loopback origins only. `null` (sandboxed iframes, file pages) is refused:
/// any website can produce it, which would defeat the DNS-rebinding guard.
fn origin_allowed(origin: &str) -> bool {
    let Some(rest) = origin.split_once("://").map(|(_, r)| r) else {
        return false;
    };
    let authority = rest.split('/').next().unwrap_or("");
    let host = if let Some(v6) = authority.strip_prefix('[') {
        v6.split(']')
            .next()
            .map(|h| format!("[{h}]"))
            .unwrap_or_default()
    } else {
        authority.split(':').next().unwrap_or("").to_string()
    };
    matches!(host.as_str(), "localhost" | "127.0.0.1" | "[::1]")
}
