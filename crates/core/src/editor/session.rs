//! [`EditorSession`]: a simulated server the editor talks to, its connection
//! state, and every exchange so far (also as a timeline).

use serde_json::Value;

use super::edits::compact;
use super::edits::headers_for;
use super::pretty;
use super::reply::{describe, Exchanged};
use super::reply::{Exchange, ServerMessage};
use super::{Lint, Warning};
use crate::note::Note;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::ProtocolVersion;
use crate::rules::{self, RuleId};
use crate::server::{ConnId, HttpReply, OutputKind, Server, ServerConfig};
use crate::sim::engine::message_event;
use crate::sim::{Event, EventKind, HttpInfo, Side, SimTime, Timeline};
use crate::transport::http::{self, HttpRequest};
use crate::transport::TransportKind;

/// What a real server sent back for one request (status, headers, body),
/// or why nothing came.
pub type RemoteAnswer = Result<(u16, Vec<(String, String)>, String), String>;

/// A simulated server the editor talks to, with its connection state.
#[derive(Debug, Clone)]
pub struct EditorSession {
    server: Server,
    transport: TransportKind,
    http_session: Option<String>,
    clock: SimTime,
    history: Vec<Exchange>,
    /// The URL of a real server the page talks to instead of the simulated
    /// one ("Your server"): the page fetches, this session only records.
    remote: Option<String>,
    /// Request ids sent on the current connection (a new connection starts
    /// a new session and forgets them).
    used_ids: Vec<RequestId>,
}

impl EditorSession {
    /// A fresh server of this configuration on this transport.
    pub fn new(config: ServerConfig, transport: TransportKind) -> Self {
        Self {
            server: Server::new(config),
            transport,
            http_session: None,
            clock: SimTime::ZERO,
            history: Vec::new(),
            remote: None,
            used_ids: Vec::new(),
        }
    }

    /// A session for a real server at `url` over Streamable HTTP ("Your
    /// server"): the page sends each request itself ([`Self::remote_request`])
    /// and hands back what came ([`Self::record_remote`]); `config` only
    /// chooses the era the lint assumes.
    pub fn remote(url: &str, config: ServerConfig) -> Self {
        Self {
            remote: Some(url.to_string()),
            ..Self::new(config, TransportKind::Http)
        }
    }

    /// The real server's URL, when this session talks to one.
    pub fn remote_url(&self) -> Option<&str> {
        self.remote.as_deref()
    }

    /// The POST a conforming client sends a real server for `text`: the
    /// given headers (`None`: the ones [`headers_for`] derives from the
    /// body), plus the session id the server handed out, if any.
    pub fn remote_request(
        &self,
        text: &str,
        headers: Option<Vec<(String, String)>>,
    ) -> HttpRequest {
        let mut headers = headers.unwrap_or_else(|| headers_for(text));
        if let Some(session) = &self.http_session {
            if http::header(&headers, http::SESSION_HEADER).is_none() {
                headers.push((http::SESSION_HEADER.into(), session.clone()));
            }
        }
        HttpRequest::post(headers, text.to_string())
    }

    /// Records what a real server answered to `request`: `Ok((status,
    /// headers, body))` with a JSON body or a whole `text/event-stream`
    /// (its last message is the reply, earlier ones what the server sent on
    /// its own), or `Err(why)` when nothing came. Nothing is judged here but
    /// the reply's shape: the reply is whatever the server sent.
    pub fn record_remote(&mut self, request: &HttpRequest, answer: RemoteAnswer) -> Exchange {
        let text = request.body.clone();
        let asked = super::lint(&text).version.unwrap_or_default();
        let reused = match request_id(&text) {
            Some(id) if self.used_ids.contains(&id) => true,
            Some(id) => {
                self.used_ids.push(id);
                false
            }
            None => false,
        };
        let exchanged = match answer {
            Err(why) => Exchanged {
                sent: text,
                request_headers: request.headers.clone(),
                reply: None,
                status: None,
                response_headers: Vec::new(),
                rules: Vec::new(),
                note: crate::note!(
                    "editor.no_answer_from_server",
                    "No answer from the server: {why}.",
                    why = why
                ),
                side_effects: Vec::new(),
                revision: String::new(),
            },
            Ok((status, headers, body)) => {
                let mut response = http::HttpResponse::json(status, body);
                response.headers = headers;
                if let Some(session) = response.header(http::SESSION_HEADER) {
                    self.http_session = Some(session.to_string());
                }
                let mut messages: Vec<Value> = if http::is_event_stream(&response) {
                    http::sse_events(&response.body)
                        .iter()
                        .filter_map(|data| serde_json::from_str(data).ok())
                        .collect()
                } else {
                    serde_json::from_str(&response.body)
                        .ok()
                        .into_iter()
                        .collect()
                };
                // The reply is the message with the request's id; the rest
                // the server sent on its own.
                let id = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|v| v.get("id").cloned());
                let at = messages.iter().rposition(|m| {
                    m.get("method").is_none() && id.is_some() && m.get("id") == id.as_ref()
                });
                let reply = at.map(|i| messages.remove(i));
                let side_effects = messages
                    .into_iter()
                    .map(|m| ServerMessage {
                        text: pretty(&m),
                        message: Some(m),
                        event: None,
                        rules: Vec::new(),
                        note: crate::note!(
                            "editor.sent_by_server_own",
                            "Sent by the server on its own."
                        ),
                    })
                    .collect();
                let revision = reply
                    .as_ref()
                    .and_then(|r| r.pointer("/result/protocolVersion"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| asked.clone());
                Exchanged {
                    sent: text,
                    request_headers: request.headers.clone(),
                    reply,
                    status: Some(status),
                    response_headers: response.headers.clone(),
                    rules: Vec::new(),
                    note: crate::note!(
                        "editor.your_server_s_answer",
                        "Your server's answer: HTTP {status}.",
                        status = status
                    ),
                    side_effects,
                    revision,
                }
            }
        };
        let mut exchange = describe(exchanged);
        exchange.asked = asked;
        exchange.reused_id = reused;
        super::reply::lint_reply(&mut exchange, true);
        self.history.push(exchange.clone());
        exchange
    }

    /// The server's configuration.
    pub fn config(&self) -> &ServerConfig {
        self.server.config()
    }

    /// The transport.
    pub fn transport(&self) -> TransportKind {
        self.transport
    }

    /// The legacy HTTP session id the editor adds to later requests.
    pub fn http_session(&self) -> Option<&str> {
        self.http_session.as_deref()
    }

    /// Drops the connection: a legacy session ends, a new one needs initialize.
    pub fn new_connection(&mut self) {
        self.clock = self.clock.plus_millis(1);
        let conn = match self.transport {
            TransportKind::Http => ConnId::for_http(self.http_session.as_deref()),
            TransportKind::Stdio => ConnId::stdio(),
        };
        self.server.handle_disconnect(self.clock, &conn);
        while self.server.poll_output().is_some() {}
        self.http_session = None;
        self.used_ids.clear();
    }

    /// What the core says about `text` before it is sent to this server:
    /// [`super::lint_for`] its era, plus a warning when its id was already
    /// used on this connection (RPC-ID: a retry is a new request with a new
    /// id; a legacy server refuses the duplicate).
    pub fn lint(&self, text: &str) -> Lint {
        let mut lint = super::lint_for(text, self.config().era);
        if let Some(id) = request_id(text).filter(|id| self.used_ids.contains(id)) {
            let legacy = self.config().era.speaks_legacy()
                && lint.revision.as_deref() != Some(ProtocolVersion::MODERN);
            let message = if legacy {
                crate::note!(
                    "lint.id_used_in_session",
                    "{id} was already used in this session: a retry is a new request with a new id (this server refuses the duplicate with -32600)",
                    id = id
                )
            } else {
                crate::note!(
                    "lint.id_used_on_connection",
                    "{id} was already used on this connection: a retry is a new request with a new id",
                    id = id
                )
            };
            lint.warnings.push(Warning {
                path: "id".into(),
                message,
                rule: Some(rules::RPC_ID),
            });
        }
        lint.warnings.extend(self.argument_warnings(text));
        lint
    }

    /// The arguments of a `tools/call` checked against the tool's
    /// `inputSchema` (M-TOOL-INPUT): one warning per problem, at its
    /// path in the text (`params.arguments.days`).
    fn argument_warnings(&self, text: &str) -> Vec<Warning> {
        let Ok(value) = serde_json::from_str::<Value>(text) else {
            return Vec::new();
        };
        if value.get("method").and_then(Value::as_str) != Some(crate::protocol::methods::TOOLS_CALL)
        {
            return Vec::new();
        }
        let params = value.get("params");
        let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let Some(tool) = name.and_then(|n| self.config().tool(n)) else {
            return Vec::new();
        };
        let empty = Value::Object(serde_json::Map::new());
        let arguments = params.and_then(|p| p.get("arguments")).unwrap_or(&empty);
        crate::protocol::input_schema::validate(&tool.input_schema, arguments)
            .into_iter()
            .map(|e| Warning {
                path: format!("params.arguments{}", e.path.trim_start_matches('$')),
                message: e.note(),
                rule: Some(rules::M_TOOL_INPUT),
            })
            .collect()
    }

    /// The arguments form of `text` when it calls one of this server's
    /// tools ([`super::arguments_form::form_for`] with its schemas).
    pub fn arguments_form(&self, text: &str) -> Option<super::arguments_form::Form> {
        let config = self.config();
        super::arguments_form::form_for(text, |name| config.tool(name).map(|t| &t.input_schema))
    }

    /// An integer id not yet used on this connection (one more than the
    /// largest used so far), for templates.
    pub fn fresh_id(&self) -> i64 {
        self.used_ids
            .iter()
            .filter_map(|id| match id {
                RequestId::Number(n) => Some(*n),
                RequestId::Text(_) => None,
            })
            .max()
            .map_or(1, |n| n.saturating_add(1))
    }

    /// Sends `text` (with `headers` on HTTP; `None` = what a conforming
    /// client would send) and describes the reply.
    pub fn send(&mut self, text: &str, headers: Option<Vec<(String, String)>>) -> Exchange {
        let asked = super::lint(text).version.unwrap_or_default();
        let reused = match request_id(text) {
            Some(id) if self.used_ids.contains(&id) => true,
            Some(id) => {
                self.used_ids.push(id);
                false
            }
            None => false,
        };
        let mut exchange = self.exchange(text, headers);
        exchange.asked = asked;
        exchange.reused_id = reused;
        exchange.wire_error = super::reply::wire_error(text, &exchange.sent);
        super::reply::lint_reply(&mut exchange, false);
        self.history.push(exchange.clone());
        exchange
    }

    /// Every exchange sent so far, oldest first.
    pub fn history(&self) -> &[Exchange] {
        &self.history
    }

    /// The exchanges as a timeline (one virtual second apart), so the page
    /// can draw them as a lane like any run.
    pub fn timeline(&self) -> Timeline {
        self.timeline_from(0, 0)
    }

    /// The exchanges from position `first` on as a timeline, their events
    /// numbered from `first_index` and timed as in [`Self::timeline`], with
    /// the session's leaked locks in the summary: a view that already shows the
    /// earlier exchanges appends these events instead of rebuilding (and
    /// re-reading every earlier message of) the whole lane after each send.
    pub fn timeline_from(&self, first: usize, first_index: usize) -> Timeline {
        let mut events: Vec<Event> = Vec::new();
        let revision = |r: &str| {
            if r.is_empty() {
                ProtocolVersion::modern()
            } else {
                ProtocolVersion::new(r)
            }
        };
        let push = |events: &mut Vec<Event>,
                    at_ms: u64,
                    kind: EventKind,
                    rules: Vec<RuleId>,
                    note: Note| {
            let index = first_index + events.len();
            let (note, note_msg) = note.into_parts();
            events.push(Event {
                index,
                at_ms,
                kind,
                rules,
                note,
                note_msg,
                narration: None,
                actor: None,
            });
        };
        for (i, ex) in self.history.iter().enumerate().skip(first) {
            let at = i as u64 * 1000;
            let http = (self.transport == TransportKind::Http).then(|| HttpInfo {
                method: Some("POST".into()),
                status: None,
                headers: ex.request_headers.clone(),
                event_id: None,
            });
            // The request speaks the version it names; the reply, the
            // version the server answers in.
            let asked = if ex.asked.is_empty() {
                &ex.revision
            } else {
                &ex.asked
            };
            let reused = ex.reused_id.then(|| {
                crate::note!(
                    "editor.violation_reused_id",
                    "its id was already used on this connection (RPC-ID)"
                )
            });
            let mut sent = message_event(Side::Client, &ex.sent, revision(asked), reused, http);
            sent.delivered_at_ms = Some(at + 20);
            let (rules, note) = if ex.reused_id {
                (vec![rules::RPC_ID], crate::note!("editor.sent_from_editor_id", "Sent from the editor with an id already used on this connection: a retry is a new request with a new id."))
            } else {
                (
                    Vec::new(),
                    crate::note!("editor.sent_from_editor", "Sent from the editor."),
                )
            };
            push(&mut events, at, EventKind::Message(sent), rules, note);
            // What the server sent arrives 20 ms later; locks and drops are markers.
            let server_says = |events: &mut Vec<Event>,
                               message: &Value,
                               http: Option<HttpInfo>,
                               rules: Vec<RuleId>,
                               note: Note| {
                let mut msg = message_event(
                    Side::Server,
                    &message.to_string(),
                    revision(&ex.revision),
                    None,
                    http,
                );
                msg.delivered_at_ms = Some(at + 40);
                push(events, at + 20, EventKind::Message(msg), rules, note);
            };
            for effect in &ex.side_effects {
                match (&effect.message, &effect.event) {
                    (Some(m), _) => server_says(
                        &mut events,
                        m,
                        None,
                        effect.rules.clone(),
                        effect.note.clone(),
                    ),
                    (None, Some(kind)) => push(
                        &mut events,
                        at + 20,
                        kind.clone(),
                        effect.rules.clone(),
                        effect.note.clone(),
                    ),
                    (None, None) => {}
                }
            }
            if let Some(reply) = &ex.reply_json {
                let http = ex.status.map(|s| HttpInfo {
                    method: None,
                    status: Some(s),
                    headers: ex.response_headers.clone(),
                    event_id: None,
                });
                server_says(&mut events, reply, http, ex.rules.clone(), ex.note.clone());
            }
        }
        Timeline {
            label: "editor".into(),
            transport: self.transport,
            client_label: super::CLIENT_LABEL.into(),
            server_label: self
                .remote
                .clone()
                .unwrap_or_else(|| self.server.config().label()),
            actors: Vec::new(),
            summary: crate::sim::Summary {
                leaked_locks: self.server.locks_held().len() as u32,
                ended_at_ms: events.last().map(|e| e.at_ms).unwrap_or(0),
                outcome: String::new(),
                outcome_msg: None,
            },
            events,
        }
    }

    fn exchange(&mut self, text: &str, headers: Option<Vec<(String, String)>>) -> Exchange {
        self.clock = self.clock.plus_millis(1);
        let now = self.clock;
        match self.transport {
            TransportKind::Stdio => {
                // stdio frames one message per line: valid JSON is sent with
                // the whitespace between its tokens taken out (as written
                // otherwise), anything else with its line breaks as spaces.
                let sent = if serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok() {
                    compact(text)
                } else {
                    text.replace(['\n', '\r'], " ")
                };
                let reply = self.server.handle_text(now, &ConnId::stdio(), &sent);
                let side_effects = self.drain();
                match reply {
                    Some(reply) => describe(Exchanged {
                        sent,
                        request_headers: Vec::new(),
                        reply: Some(reply.message),
                        status: None,
                        response_headers: Vec::new(),
                        rules: reply.rules,
                        note: reply.note,
                        side_effects,
                        revision: reply.revision.into_string(),
                    }),
                    None => {
                        let note =
                            side_effects
                                .last()
                                .map(|m| m.note.clone())
                                .unwrap_or_else(|| {
                                    crate::note!(
                                        "editor.no_reply_notification_never",
                                        "No reply: a notification never gets a response."
                                    )
                                });
                        let rules = if side_effects.is_empty() {
                            vec![rules::RPC_NOTIFY]
                        } else {
                            Vec::new()
                        };
                        describe(Exchanged {
                            sent,
                            request_headers: Vec::new(),
                            reply: None,
                            status: None,
                            response_headers: Vec::new(),
                            rules,
                            note,
                            side_effects,
                            revision: String::new(),
                        })
                    }
                }
            }
            TransportKind::Http => {
                let mut headers = headers.unwrap_or_else(|| headers_for(text));
                if let Some(session) = &self.http_session {
                    if http::header(&headers, http::SESSION_HEADER).is_none() {
                        headers.push((http::SESSION_HEADER.into(), session.clone()));
                    }
                }
                let request = HttpRequest::post(headers.clone(), text.to_string());
                let HttpReply {
                    response,
                    rules,
                    note,
                    revision,
                } = self.server.handle_http(now, &request);
                if let Some(session) = response.header(http::SESSION_HEADER) {
                    self.http_session = Some(session.to_string());
                }
                let side_effects = self.drain();
                let json = serde_json::from_str::<Value>(&response.body).ok();
                describe(Exchanged {
                    sent: text.to_string(),
                    request_headers: headers,
                    reply: json,
                    status: Some(response.status),
                    response_headers: response.headers.clone(),
                    rules,
                    note,
                    side_effects,
                    revision: revision.into_string(),
                })
            }
        }
    }

    fn drain(&mut self) -> Vec<ServerMessage> {
        let mut out = Vec::new();
        while let Some(o) = self.server.poll_output() {
            let (text, message, event) = match o.kind {
                OutputKind::Send { message, .. } => (pretty(&message), Some(message), None),
                OutputKind::LockTaken(name) => (
                    format!("lock taken: {name}"),
                    None,
                    Some(EventKind::LockTaken { name }),
                ),
                OutputKind::LockReleased(name) => (
                    format!("lock released: {name}"),
                    None,
                    Some(EventKind::LockReleased { name }),
                ),
                OutputKind::Dropped(what) => (
                    format!("dropped: {what}"),
                    None,
                    Some(EventKind::Dropped {
                        side: Side::Server,
                        what,
                    }),
                ),
                OutputKind::Decision | OutputKind::Broadcast(_) => continue,
            };
            out.push(ServerMessage {
                text,
                message,
                event,
                rules: o.rules,
                note: o.note,
            });
        }
        out
    }
}

/// The id of `text` when it is a JSON-RPC request (has a method and an id).
fn request_id(text: &str) -> Option<RequestId> {
    if text.len() > super::MAX_REQUEST_BYTES {
        return None;
    }
    let value: Value = serde_json::from_str(text).ok()?;
    value.get("method")?;
    RequestId::from_json(value.get("id")?)
}
