//! Pairs the client's requests with the server's answers, in the order
//! they were sent, and keeps what earlier answers taught (the versions and
//! capabilities the server declared, the tools it listed).

use serde_json::Value;

use crate::note::Note;
use crate::protocol::meta;
use crate::protocol::methods;
use crate::rules;
use crate::sim::{Actor, EventKind, MessageEvent, Side, Timeline};
use crate::transport::TransportKind;

/// What came back for a request.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Answer<'a> {
    /// A JSON-RPC response with the request's id.
    Response {
        /// Its event index.
        index: usize,
        /// The message.
        message: &'a MessageEvent,
        /// Its JSON.
        body: &'a Value,
    },
    /// Nothing usable: no response with the request's id.
    Missing(Missing<'a>),
}

/// Why no response came, as far as the timeline shows.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Missing<'a> {
    /// The first answer that was not JSON-RPC (event index and message).
    pub not_json_rpc: Option<(usize, &'a MessageEvent)>,
    /// The first message the server sent back exactly as the client had
    /// sent it (an echo, such as `cat`'s), which answers nothing.
    pub echoed: Option<(usize, &'a MessageEvent)>,
    /// The request timed out.
    pub timed_out: bool,
    /// It was the stdio era probe, and silence there means legacy
    /// (E-PROBE-STDIO).
    pub probe_silence: bool,
    /// A side closed the connection, or the run was stopped.
    pub closed: bool,
    /// The client closed the connection first.
    pub client_left: bool,
    /// The client cancelled it with `notifications/cancelled` before an
    /// answer came: the server must send none.
    pub cancelled: bool,
}

/// One request and what came back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Exchange<'a> {
    /// The request's event index.
    pub index: usize,
    /// The request.
    pub message: &'a MessageEvent,
    /// Its JSON.
    pub body: &'a Value,
    /// Its method.
    pub method: &'a str,
    /// What came back.
    pub answer: Answer<'a>,
    /// The transport.
    pub transport: TransportKind,
    /// The rules the request was sent to show (a check's hand-written
    /// requests name the rule they probe).
    pub rules: &'a [rules::RuleId],
}

impl<'a> Exchange<'a> {
    /// The request's params (Null when absent).
    pub fn params(&self) -> &'a Value {
        self.body.get("params").unwrap_or(&Value::Null)
    }

    /// `params._meta`, if present.
    pub fn meta(&self) -> Option<&'a Value> {
        self.params().get("_meta")
    }

    /// The protocol version `_meta` names, when it is a string.
    pub fn meta_version(&self) -> Option<&'a str> {
        self.meta()?.get(meta::PROTOCOL_VERSION)?.as_str()
    }

    /// The request's declared client capabilities (`_meta` CAPS).
    pub fn declared(&self) -> Option<&'a Value> {
        self.meta()?.get(meta::CLIENT_CAPABILITIES)
    }

    /// The result object, when the answer is a result.
    pub fn result(&self) -> Option<&'a Value> {
        match self.answer {
            Answer::Response { body, .. } => body.get("result"),
            Answer::Missing(_) => None,
        }
    }

    /// The error object, when the answer is an error.
    pub fn error(&self) -> Option<&'a Value> {
        match self.answer {
            Answer::Response { body, .. } => body.get("error"),
            Answer::Missing(_) => None,
        }
    }

    /// The error code, when the answer is an error with an integer code.
    pub fn error_code(&self) -> Option<i64> {
        self.error()?.get("code")?.as_i64()
    }

    /// The event index a verdict on this exchange points at: the answer,
    /// else the request.
    pub fn at(&self) -> usize {
        match self.answer {
            Answer::Response { index, .. } => index,
            Answer::Missing(Missing {
                not_json_rpc: Some((index, _)),
                ..
            })
            | Answer::Missing(Missing {
                echoed: Some((index, _)),
                ..
            }) => index,
            Answer::Missing(_) => self.index,
        }
    }

    /// The HTTP status of the answer, on HTTP.
    pub fn status(&self) -> Option<u16> {
        match self.answer {
            Answer::Response { message, .. } => message.http.as_ref()?.status,
            Answer::Missing(m) => m.not_json_rpc?.1.http.as_ref()?.status,
        }
    }

    /// Whether the answer is an authorization challenge: HTTP 401, or 403
    /// for too little scope, with a `WWW-Authenticate: Bearer` header
    /// (A-CHALLENGE, A-SCOPE-STEP-UP): the client authorizes and sends the
    /// request again.
    pub fn challenged(&self) -> bool {
        let http = match self.answer {
            Answer::Response { message, .. } => message.http.as_ref(),
            Answer::Missing(m) => m
                .not_json_rpc
                .and_then(|(_, message)| message.http.as_ref()),
        };
        http.is_some_and(|h| {
            matches!(h.status, Some(401 | 403))
                && crate::transport::http::header(&h.headers, "www-authenticate")
                    .is_some_and(|v| v.trim_start().to_ascii_lowercase().starts_with("bearer"))
        })
    }

    /// A few words on what came back (server text, cut short).
    pub fn got(&self) -> Note {
        match self.answer {
            Answer::Response { body, .. } => {
                if let Some(error) = body.get("error") {
                    let code = error.get("code").map(Value::to_string).unwrap_or_default();
                    let text = error.get("message").and_then(Value::as_str).unwrap_or("");
                    Note::from(format!("error {code} {}", short(text, 80)))
                } else if let Some(result) = body.get("result") {
                    Note::from(format!("result {}", short(&result.to_string(), 120)))
                } else {
                    Note::from(short(&body.to_string(), 120))
                }
            }
            Answer::Missing(m) => missing_text(&m),
        }
    }
}

/// A sentence for a missing answer.
pub(crate) fn missing_text(m: &Missing<'_>) -> Note {
    if let Some((_, message)) = m.echoed {
        return crate::note!(
            "check.echoed",
            "the client's own message sent back unchanged (an echo answers nothing): {text}",
            text = short(&message.wire, 60)
        );
    }
    if let Some((_, message)) = m.not_json_rpc {
        let status = message
            .http
            .as_ref()
            .and_then(|h| h.status)
            .map(|s| format!("HTTP {s} "))
            .unwrap_or_default();
        if message.wire.is_empty() {
            return crate::note!(
                "check.no_jsonrpc_body",
                "{status}without a JSON-RPC body",
                status = status
            );
        }
        return crate::note!(
            "check.not_jsonrpc",
            "{status}text that is not JSON-RPC: {text}",
            status = status,
            text = short(&message.wire, 60)
        );
    }
    if m.timed_out {
        crate::note!("check.no_answer_deadline", "no answer before the deadline")
    } else if m.closed {
        crate::note!(
            "check.connection_closed",
            "the connection closed before an answer"
        )
    } else {
        crate::note!("check.no_answer", "no answer")
    }
}

/// `text` cut to `max` characters, with an ellipsis when cut.
pub(crate) fn short(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push('…');
    out
}

/// Every request of the timeline with its answer, in send order.
pub(crate) fn exchanges(timeline: &Timeline) -> Vec<Exchange<'_>> {
    let mut out: Vec<Exchange<'_>> = Vec::new();
    // Indexes into `out` of requests still waiting for an answer.
    let mut pending: Vec<usize> = Vec::new();
    // Requests still waiting when the client left: over stdio a client
    // that closed its input may still read the answers to them (a
    // recording holds what the server then sent).
    let mut left_waiting: Vec<usize> = Vec::new();
    // The wire text of every message the client sent, to tell an echo.
    let mut sent: Vec<&str> = Vec::new();
    for event in &timeline.events {
        match &event.kind {
            // A message whose sender is unknown (an imported one) pairs
            // with nothing: guessing would judge the wrong side.
            EventKind::Message(message) if message.undecided.is_some() => {}
            // Through a gateway the client's conversation is with the
            // gateway (G-FORWARD): its hops to and from the server are not
            // what the client saw.
            EventKind::Message(message)
                if message.ends().0 != Actor::Client && message.ends().1 != Actor::Client => {}
            EventKind::Message(message) => {
                if message.from == Side::Client {
                    sent.push(&message.wire);
                } else if !message.wire.is_empty() && sent.contains(&message.wire.as_str()) {
                    if let Some(&at) = pending.last() {
                        if let Answer::Missing(m) = &mut out[at].answer {
                            m.echoed.get_or_insert((event.index, message));
                        }
                        // On HTTP the echo was that POST's whole answer.
                        if timeline.transport == TransportKind::Http {
                            pending.pop();
                        }
                    }
                    continue;
                }
                let Some(body) = message.json.as_ref() else {
                    if message.from == Side::Server {
                        not_json_rpc(
                            &mut out,
                            &mut pending,
                            event.index,
                            message,
                            timeline.transport,
                        );
                    }
                    continue;
                };
                let method = body.get("method").and_then(Value::as_str);
                let id = body.get("id").filter(|id| !id.is_null());
                match (message.from, method, id) {
                    (Side::Client, Some(method), Some(_)) => {
                        pending.push(out.len());
                        out.push(Exchange {
                            index: event.index,
                            message,
                            body,
                            method,
                            answer: Answer::Missing(Missing::default()),
                            transport: timeline.transport,
                            rules: &event.rules,
                        });
                    }
                    // The client cancels a request it still awaits: no
                    // answer is owed any more (L-TIMEOUT).
                    (Side::Client, Some(methods::CANCELLED), None) => {
                        let cancelled = body.pointer("/params/requestId");
                        if let Some(p) = pending.iter().rposition(|&at| {
                            cancelled.is_some() && out[at].body.get("id") == cancelled
                        }) {
                            let at = pending.remove(p);
                            if let Answer::Missing(m) = &mut out[at].answer {
                                m.cancelled = true;
                            }
                        }
                    }
                    (Side::Server, None, Some(id))
                        if body.get("result").is_some() || body.get("error").is_some() =>
                    {
                        // The latest request with that id (ids repeat across flows).
                        let found = pending
                            .iter()
                            .rposition(|&at| out[at].body.get("id") == Some(id));
                        let late = || {
                            left_waiting
                                .iter()
                                .rposition(|&at| out[at].body.get("id") == Some(id))
                        };
                        let at = match found {
                            Some(p) => Some(pending.remove(p)),
                            None => late().map(|p| left_waiting.remove(p)),
                        };
                        if let Some(at) = at {
                            out[at].answer = Answer::Response {
                                index: event.index,
                                message,
                                body,
                            };
                        }
                    }
                    (Side::Server, None, _)
                        if body.get("result").is_none() && body.get("error").is_none() =>
                    {
                        not_json_rpc(
                            &mut out,
                            &mut pending,
                            event.index,
                            message,
                            timeline.transport,
                        );
                    }
                    // An error with id null (parse error, invalid request):
                    // the answer of the latest request on HTTP.
                    (Side::Server, None, None) if timeline.transport == TransportKind::Http => {
                        if let Some(p) = pending.pop() {
                            out[p].answer = Answer::Response {
                                index: event.index,
                                message,
                                body,
                            };
                        }
                    }
                    _ => {}
                }
            }
            EventKind::Timeout {
                side: Side::Client,
                request_id,
            } => {
                if let Some(p) = pending.iter().rposition(|&at| {
                    out[at]
                        .body
                        .get("id")
                        .map(id_text)
                        .is_some_and(|t| &t == request_id)
                }) {
                    let at = pending.remove(p);
                    if let Answer::Missing(m) = &mut out[at].answer {
                        m.timed_out = true;
                        m.probe_silence = event.rules.contains(&rules::E_PROBE_STDIO);
                    }
                }
            }
            EventKind::Disconnected { side } => {
                for at in pending.drain(..) {
                    if let Answer::Missing(m) = &mut out[at].answer {
                        m.closed = true;
                        m.client_left = *side == Side::Client;
                    }
                    if *side == Side::Client {
                        left_waiting.push(at);
                    }
                }
            }
            EventKind::HostKill => {
                for at in pending.drain(..) {
                    if let Answer::Missing(m) = &mut out[at].answer {
                        m.closed = true;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A request id as the timeline's Timeout event writes it (a string id
/// quoted, as `RequestId`'s `Display` does).
fn id_text(id: &Value) -> String {
    id.to_string()
}

/// A server message that is not JSON-RPC: on HTTP the answer to the
/// latest request (it was that POST's response, so the request waits for
/// nothing more); on stdio it spoils the latest request, which may still
/// get a proper answer later.
fn not_json_rpc<'a>(
    out: &mut [Exchange<'a>],
    pending: &mut Vec<usize>,
    index: usize,
    message: &'a MessageEvent,
    transport: TransportKind,
) {
    // An empty 202 is the acceptance of a notification, not an answer.
    let accepted =
        message.wire.is_empty() && message.http.as_ref().and_then(|h| h.status) == Some(202);
    if accepted {
        return;
    }
    if let Some(&at) = pending.last() {
        if let Answer::Missing(m) = &mut out[at].answer {
            if m.not_json_rpc.is_none() {
                m.not_json_rpc = Some((index, message));
            }
        }
        if transport == TransportKind::Http {
            pending.pop();
        }
    }
}

/// What the server said about itself in earlier answers.
#[derive(Debug, Clone, Default)]
pub(crate) struct Known {
    /// `supportedVersions` of a discover result.
    pub versions: Option<Vec<String>>,
    /// The server capabilities of a discover or initialize result.
    pub capabilities: Option<Value>,
    /// Tool names of tools/list results; `complete` once a page came
    /// without `nextCursor`.
    pub tools: Vec<String>,
    /// A tools/list result without `nextCursor` was seen.
    pub tools_complete: bool,
}

impl Known {
    /// Learns from one exchange's answer.
    pub fn learn(&mut self, exchange: &Exchange<'_>) {
        let Some(result) = exchange.result() else {
            return;
        };
        match exchange.method {
            methods::DISCOVER => {
                if let Some(list) = result.get("supportedVersions").and_then(Value::as_array) {
                    self.versions = Some(
                        list.iter()
                            .filter_map(Value::as_str)
                            .map(str::to_string)
                            .collect(),
                    );
                }
                if let Some(caps) = result.get("capabilities").filter(|c| c.is_object()) {
                    self.capabilities = Some(caps.clone());
                }
            }
            methods::INITIALIZE => {
                if let Some(caps) = result.get("capabilities").filter(|c| c.is_object()) {
                    self.capabilities.get_or_insert_with(|| caps.clone());
                }
            }
            methods::TOOLS_LIST => {
                if let Some(tools) = result.get("tools").and_then(Value::as_array) {
                    for name in tools
                        .iter()
                        .filter_map(|t| t.get("name").and_then(Value::as_str))
                    {
                        if !self.tools.iter().any(|t| t == name) {
                            self.tools.push(name.to_string());
                        }
                    }
                    if result.get("nextCursor").is_none_or(Value::is_null) {
                        self.tools_complete = true;
                    }
                }
            }
            _ => {}
        }
    }
}
