//! [`EditorSession`]: a simulated server the editor talks to, its connection
//! state, and every exchange so far (also as a timeline).

use serde_json::Value;

use super::edits::compact;
use super::edits::headers_for;
use super::pretty;
use super::reply::{describe, Exchanged};
use super::reply::{Exchange, ServerMessage};
use crate::protocol::ProtocolVersion;
use crate::rules::{self, RuleId};
use crate::server::{ConnId, HttpReply, OutputKind, Server, ServerConfig};
use crate::sim::engine::message_event;
use crate::sim::{Event, EventKind, HttpInfo, Side, SimTime, Timeline};
use crate::transport::http::{self, HttpRequest};
use crate::transport::TransportKind;

/// A simulated server the editor talks to, with its connection state.
#[derive(Debug, Clone)]
pub struct EditorSession {
    server: Server,
    transport: TransportKind,
    http_session: Option<String>,
    clock: SimTime,
    history: Vec<Exchange>,
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
        }
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
    }

    /// Sends `text` (with `headers` on HTTP; `None` = what a conforming
    /// client would send) and describes the reply.
    pub fn send(&mut self, text: &str, headers: Option<Vec<(String, String)>>) -> Exchange {
        let exchange = self.exchange(text, headers);
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
                    note: String| {
            let index = first_index + events.len();
            events.push(Event {
                index,
                at_ms,
                kind,
                rules,
                note,
                narration: None,
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
            let mut sent =
                message_event(Side::Client, &ex.sent, revision(&ex.revision), None, http);
            sent.delivered_at_ms = Some(at + 20);
            push(
                &mut events,
                at,
                EventKind::Message(sent),
                Vec::new(),
                "Sent from the editor.".into(),
            );
            // What the server sent arrives 20 ms later; locks and drops are markers.
            let server_says = |events: &mut Vec<Event>,
                               message: &Value,
                               http: Option<HttpInfo>,
                               rules: Vec<RuleId>,
                               note: String| {
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
            client_label: "you (the editor)".into(),
            server_label: self.server.config().label(),
            summary: crate::sim::Summary {
                leaked_locks: self.server.locks_held().len() as u32,
                ended_at_ms: events.last().map(|e| e.at_ms).unwrap_or(0),
                outcome: String::new(),
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
                                    "No reply: a notification never gets a response.".into()
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
