//! The scheduler: wires a [`Client`], a simulated channel and a [`Server`],
//! jumps the virtual clock from one event to the next and records the
//! [`Timeline`]. Same [`Setup`] in, same timeline out, byte for byte.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::recorder::Recorder;
use super::scripted::{self, ScriptedNotice, ScriptedReply};
use super::timeline::{EventKind, HttpInfo, MessageEvent, MessageKind, Side, Summary, Timeline};
use super::SimTime;
use crate::client::Client;
use crate::client::{ClientAction, ClientConfig, ClientOutput, Step};
use crate::note::Note;
use crate::protocol::jsonrpc::{Envelope, RequestId};
use crate::protocol::{ProtocolVersion, ResultType};
use crate::rules::{self, RuleId};
use crate::server::{
    ConnId, HttpReply, OutputKind, Server, ServerConfig, ServerOutput, ServerTrigger,
};
use crate::transport::http::{self, HttpRequest, HttpResponse};
use crate::transport::{ChannelConfig, TransportKind};
pub(crate) use bearer::with_token;
pub use bearer::Bearer;
use later::Later;

/// Something scheduled to happen to the server at a given time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ServerEvent {
    /// Its tool list changes (legacy list_changed).
    ToolsChanged,
    /// Something it offers changes (prompts, resources, a resource): its
    /// listeners and sessions that asked hear of it.
    Changed {
        /// What changed.
        change: ServerTrigger,
    },
    /// It is upgraded in place to a new configuration.
    Upgrade {
        /// The new configuration.
        config: Box<ServerConfig>,
    },
    /// From now on, the next request it answers as scripted answers wrongly
    /// on purpose, drawn as a violation.
    Reply(ScriptedReply),
    /// It sends a notification of the set-up's, as written.
    Notify(ScriptedNotice),
}

/// One side-by-side set-up of a scenario: everything a run needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// Label shown above the lane.
    pub label: String,
    /// The client.
    pub client: ClientConfig,
    /// The server.
    pub server: ServerConfig,
    /// The channel between them.
    pub channel: ChannelConfig,
    /// What the client is asked to do.
    pub script: Vec<Step>,
    /// Things that happen to the server on their own, with their times.
    pub server_events: Vec<(SimTime, ServerEvent)>,
    /// The server is an OAuth protected resource (HTTP only, A-HTTP-ONLY).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<crate::auth::Protection>,
    /// A gateway between the client and the server (G-FORWARD).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateway: Option<crate::gateway::GatewayConfig>,
}

/// Runs stop after this much virtual time even if something is still pending.
pub const MAX_VIRTUAL_MS: SimTime = SimTime::from_millis(24 * 3_600_000);
/// Runs stop after this many events (a guard against runaway loops).
pub const MAX_EVENTS: usize = 5_000;
/// Runs stop after this many scheduler steps, even if no event was recorded.
pub const MAX_STEPS: usize = 20_000;

#[derive(Debug, Clone)]
enum Delivery {
    ToServerText {
        text: String,
        event: usize,
    },
    ToServerHttp {
        request: HttpRequest,
        event: usize,
    },
    ToClientText {
        text: String,
        event: usize,
    },
    ToClientHttp {
        response: HttpResponse,
        event: usize,
    },
    ServerSees(ServerEvent),
    CloseAtServer,
    /// A server message recorded when it is sent, later than the input
    /// that caused it (a tool that works for a while, `later.rs`), with the
    /// id of the request it belongs to: a cancellation drops it.
    Later(Later, Option<RequestId>),
    /// The client closed this stream (on HTTP, how it cancels a request).
    StreamClosed(String),
    /// A message on its way to the gateway, which decides what goes on.
    Gateway(Box<Delivery>),
}

struct Engine {
    now: SimTime,
    seq: u64,
    /// Pending deliveries, kept sorted by (time, sequence number).
    queue: Vec<((SimTime, u64), Delivery)>,
    rec: Recorder,
    latency: u64,
    transport: TransportKind,
    closed: bool,
    channel: ChannelConfig,
    sent_by_client: u32,
    sent_by_server: u32,
    /// Scripted replies armed and not used yet.
    armed: Vec<ScriptedReply>,
    /// Notifications waiting for the request they follow, with their delay.
    tied: Vec<(u64, ScriptedNotice)>,
    /// The streams that stay open after a response: (request id, key).
    streams: Vec<(String, String)>,
    /// A scripted notification went out on the response stream of the
    /// HTTP request being handled, so its answer is that stream's last
    /// event (H-SSE-RESPONSE).
    on_request_stream: bool,
    /// The gateway between the client and the server, if any (G-FORWARD).
    gateway: Option<crate::gateway::Gateway>,
    /// The tokens and checks of a run after the authorization flow.
    bearer: Option<Bearer>,
}

/// Runs a set-up to completion and returns its timeline.
pub fn run(setup: &Setup) -> Timeline {
    run_with(setup, None)
}

/// Runs a set-up whose client already holds an access token: every HTTP
/// request carries it, the server (and a gateway) check it
/// (`engine/bearer.rs`). The timeline starts at 0 on its own clock.
pub fn run_authorized(setup: &Setup, bearer: Bearer) -> Timeline {
    run_with(setup, Some(bearer))
}

fn run_with(setup: &Setup, bearer: Option<Bearer>) -> Timeline {
    let transport = setup.channel.kind;
    let mut config = setup.client.clone();
    if let Some(b) = &bearer {
        config.first_id = b.first_id;
    }
    let mut client = Client::new(config, setup.script.clone(), transport);
    let mut server = Server::new(setup.server.clone());
    if let Some(b) = &bearer {
        // A policy reads the caller from the token the flow got (or, behind
        // a gateway, the gateway's own), which the server's checks accept.
        server.trust_tokens_of(b.server.clone());
    }
    // Derived from the set-up, never drawn (M-MRTR-STATE): runs repeat.
    let state_key = crate::server::simulation_key(&setup.label, &setup.server);
    server.set_state_key(&state_key);
    let mut engine = Engine {
        now: SimTime::ZERO,
        seq: 0,
        queue: Vec::new(),
        rec: Recorder::new(),
        latency: setup.channel.latency_ms,
        transport,
        closed: false,
        channel: setup.channel.clone(),
        sent_by_client: 0,
        sent_by_server: 0,
        armed: Vec::new(),
        tied: Vec::new(),
        streams: Vec::new(),
        on_request_stream: false,
        gateway: setup.gateway.clone().map(crate::gateway::Gateway::new),
        bearer,
    };
    for (at, ev) in &setup.server_events {
        match ev {
            ServerEvent::Notify(n) if n.after.is_some() => {
                engine.tied.push((at.as_millis(), n.clone()))
            }
            _ => engine.schedule(*at, Delivery::ServerSees(ev.clone())),
        }
    }
    client.start(SimTime::ZERO);
    let mut truncated = false;
    let mut steps = 0usize;
    loop {
        engine.drain(&mut client, &mut server);
        steps += 1;
        let next_delivery = engine.queue.first().map(|((t, _), _)| *t);
        let next = [next_delivery, client.poll_timeout()]
            .into_iter()
            .flatten()
            .min();
        let Some(next) = next else { break };
        if next > MAX_VIRTUAL_MS || engine.rec.len() > MAX_EVENTS || steps > MAX_STEPS {
            truncated = true;
            break;
        }
        engine.now = engine.now.max(next);
        if next_delivery == Some(next) {
            let (_, delivery) = engine.queue.remove(0);
            engine.deliver(delivery, &mut client, &mut server);
        } else {
            client.handle_timeout(engine.now);
        }
    }
    engine.drain(&mut client, &mut server);
    let leaked = server.locks_held().len() as u32;
    let ended_at_ms = engine.rec.events().last().map(|e| e.at_ms).unwrap_or(0);
    let (outcome, outcome_msg) = outcome(engine.rec.events(), leaked, truncated).into_parts();
    Timeline {
        label: setup.label.clone(),
        transport,
        client_label: setup.client.label(),
        server_label: setup.server.label(),
        actors: gateway::actors(setup),
        events: engine.rec.into_events(),
        summary: Summary {
            leaked_locks: leaked,
            ended_at_ms,
            outcome,
            outcome_msg,
        },
    }
}

impl Engine {
    fn schedule(&mut self, at: SimTime, delivery: Delivery) {
        let delivery = self.via_gateway(delivery);
        self.seq += 1;
        let key = (at, self.seq);
        let pos = self.queue.partition_point(|(k, _)| *k < key);
        self.queue.insert(pos, (key, delivery));
    }

    /// Counts a message from `from` and says whether the channel loses it;
    /// a lost message stays recorded as never delivered.
    fn lost(&mut self, from: Side) -> bool {
        let (count, list) = match from {
            Side::Client => (&mut self.sent_by_client, &self.channel.lose_from_client),
            Side::Server => (&mut self.sent_by_server, &self.channel.lose_from_server),
        };
        *count += 1;
        if !list.contains(count) {
            return false;
        }
        let n = *count;
        self.push(
            EventKind::Dropped {
                side: from.peer(),
                what: format!("message {n} from the {}", from.name()),
            },
            vec![rules::L_TIMEOUT],
            crate::note!("sim.channel_loses_s_message", "The channel loses the {from}'s message {n} in transit: it never arrives, and only a timeout can tell.", from = side_word(from), n = n),
        );
        true
    }

    fn push(&mut self, kind: EventKind, rules: Vec<RuleId>, note: impl Into<Note>) -> usize {
        self.rec.push(self.now.as_millis(), kind, rules, note)
    }

    /// Moves every pending output of both sides into events and deliveries.
    fn drain(&mut self, client: &mut Client, server: &mut Server) {
        loop {
            let mut progressed = false;
            while let Some(out) = client.poll_output() {
                progressed = true;
                self.client_output(out);
            }
            while let Some(out) = server.poll_output() {
                progressed = true;
                self.server_output(out);
            }
            if !progressed {
                return;
            }
        }
    }

    fn client_output(&mut self, out: ClientOutput) {
        let ClientOutput {
            action,
            rules,
            note,
            narration,
        } = out;
        let first = self.rec.len();
        self.rec.narrate(narration);
        self.client_action(action, rules, note);
        if self.rec.len() == first {
            // Nothing was recorded (a closed connection): the narration goes too.
            self.rec.take_narration();
        }
    }

    fn client_action(&mut self, action: ClientAction, mut rules: Vec<RuleId>, note: Note) {
        match action {
            ClientAction::Send {
                text,
                mut http,
                revision,
                violation,
            } => {
                if self.closed {
                    return;
                }
                if let Some(request) = http.as_mut() {
                    self.client_token(&mut request.headers, &mut rules);
                }
                let http_info = http.as_ref().map(|r| HttpInfo {
                    method: Some(r.method.clone()),
                    status: None,
                    headers: r.headers.clone(),
                    event_id: None,
                });
                let msg = message_event(Side::Client, &text, revision, violation, http_info);
                let index = self.push(EventKind::Message(msg), rules, note);
                if self.lost(Side::Client) {
                    return;
                }
                let at = self.now.plus_millis(self.latency);
                match http {
                    Some(request) => self.schedule(
                        at,
                        Delivery::ToServerHttp {
                            request,
                            event: index,
                        },
                    ),
                    None => self.schedule(at, Delivery::ToServerText { text, event: index }),
                }
            }
            ClientAction::Record(kind) => {
                self.cancels(&kind, &rules, &note);
                self.push(kind, rules, note);
            }
            ClientAction::Close => {
                self.push(EventKind::Disconnected { side: Side::Client }, rules, note);
                if !self.closed {
                    self.closed = true;
                    let at = self.now.plus_millis(self.latency);
                    self.schedule(at, Delivery::CloseAtServer);
                }
            }
        }
    }

    fn server_output(&mut self, out: ServerOutput) {
        let ServerOutput {
            kind,
            rules,
            note,
            event,
            ..
        } = out;
        match kind {
            OutputKind::Send {
                message,
                revision,
                violation,
            } => {
                if self.closed {
                    return;
                }
                let text = message.to_string();
                // On HTTP a legacy server's own messages travel on the open
                // SSE stream of the request they belong to, as events with
                // ids (H-SSE-STREAM, H-SSE-RESUME).
                let http_info = (self.transport == TransportKind::Http).then(|| HttpInfo {
                    method: None,
                    status: None,
                    headers: vec![("Content-Type".into(), "text/event-stream".into())],
                    event_id: event.and_then(|e| e.id),
                });
                let msg = message_event(Side::Server, &text, revision, violation, http_info);
                let index = self.push(EventKind::Message(msg), rules, note);
                if self.lost(Side::Server) {
                    return;
                }
                let at = self.now.plus_millis(self.latency);
                self.schedule(at, Delivery::ToClientText { text, event: index });
            }
            OutputKind::LockTaken(name) => {
                self.push(EventKind::LockTaken { name }, rules, note);
            }
            OutputKind::LockReleased(name) => {
                self.push(EventKind::LockReleased { name }, rules, note);
            }
            OutputKind::Dropped(what) => {
                self.push(
                    EventKind::Dropped {
                        side: Side::Server,
                        what,
                    },
                    rules,
                    note,
                );
            }
            OutputKind::Decision => {
                self.push(EventKind::Decision { side: Side::Server }, rules, note);
            }
            // One simulated server: it has told its own listeners already.
            OutputKind::Broadcast(_) => {}
        }
    }

    /// The server reads one stdio line: its side effects first, then its reply.
    fn server_handles_line(&mut self, server: &mut Server, line: &str) {
        let now = self.now;
        if let Some(id) = later::cancelled(line) {
            self.drop_work(|work| work == &id);
        }
        let duration = later::duration_of(server, line);
        let reply = server.handle_text(now, &ConnId::stdio(), line);
        let mut outputs = Vec::new();
        while let Some(out) = server.poll_output() {
            outputs.push(out);
        }
        let works = reply.as_ref().is_some_and(|r| !later::at_once(&r.message));
        if let (Some(duration), true) = (duration, works) {
            let work = scripted::request_of(line).map(|(id, _, _)| id);
            self.space_out(duration, outputs, reply, work);
            return;
        }
        for out in outputs {
            self.server_output(out);
        }
        if let Some(reply) = reply {
            self.send_reply(reply);
        }
    }

    /// Records a stdio reply and schedules it to the client.
    fn send_reply(&mut self, reply: crate::server::Reply) {
        let text = reply.message.to_string();
        let msg = message_event(Side::Server, &text, reply.revision.clone(), None, None);
        let index = self.push(EventKind::Message(msg), reply.rules, reply.note);
        if self.lost(Side::Server) {
            return;
        }
        self.schedule(
            self.now.plus_millis(self.latency),
            Delivery::ToClientText { text, event: index },
        );
    }

    /// Records an HTTP response (or each event of an SSE response) and
    /// schedules it to the client.
    fn http_response(&mut self, reply: HttpReply, held: Option<(u64, Option<RequestId>)>) {
        let work = held.as_ref().and_then(|(_, id)| id.clone());
        let duration = held.map(|(duration, _)| duration);
        if let Some(duration) = duration {
            let body: Option<Value> = serde_json::from_str(&reply.response.body).ok();
            let works = body.as_ref().is_some_and(|b| !later::at_once(b));
            if works && !http::is_event_stream(&reply.response) {
                let at = self.now.plus_millis(duration);
                self.schedule(at, Delivery::Later(Later::Http(reply), work));
                return;
            }
        }
        let HttpReply {
            response,
            rules,
            note,
            revision,
        } = reply;
        let now = self.now;
        let info = HttpInfo {
            method: None,
            status: Some(response.status),
            headers: response.headers.clone(),
            event_id: None,
        };
        if http::is_event_stream(&response) {
            // Each SSE event is its own message on the stream.
            let ids = http::sse_event_ids(&response.body);
            let events = http::sse_events(&response.body);
            let count = events.len();
            for (i, data) in events.into_iter().enumerate() {
                let mut info = info.clone();
                info.event_id = ids.get(i).cloned().flatten();
                if let Some(duration) = duration {
                    let at = self.spaced(duration, i, count);
                    let event = Later::Event {
                        data,
                        info,
                        revision: revision.clone(),
                        rules: rules.clone(),
                        note: note.clone(),
                    };
                    self.schedule(at, Delivery::Later(event, work.clone()));
                    continue;
                }
                let msg = message_event(Side::Server, &data, revision.clone(), None, Some(info));
                let index = self.push(EventKind::Message(msg), rules.clone(), note.clone());
                if !self.lost(Side::Server) {
                    self.schedule(
                        now.plus_millis(self.latency),
                        Delivery::ToClientText {
                            text: data,
                            event: index,
                        },
                    );
                }
            }
            return;
        }
        let mut msg = message_event(Side::Server, &response.body, revision, None, Some(info));
        if response.body.is_empty() {
            msg.label = format!("{} {}", response.status, http::reason(response.status));
        }
        let index = self.push(EventKind::Message(msg), rules, note);
        if self.lost(Side::Server) {
            return;
        }
        self.schedule(
            now.plus_millis(self.latency),
            Delivery::ToClientHttp {
                response,
                event: index,
            },
        );
    }

    fn mark_delivered(&mut self, event: usize) {
        let now = self.now;
        if let Some(EventKind::Message(m)) = self.rec.event_mut(event).map(|e| &mut e.kind) {
            m.delivered_at_ms = Some(now.as_millis());
        }
    }

    fn deliver(&mut self, delivery: Delivery, client: &mut Client, server: &mut Server) {
        let now = self.now;
        match delivery {
            Delivery::ToServerText { text, event } => {
                if self.closed {
                    return;
                }
                self.mark_delivered(event);
                let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
                if lines.len() > 1 {
                    // stdio is one message per line: an embedded newline splits
                    // the text into several (broken) messages.
                    self.push(
                        EventKind::Decision { side: Side::Server },
                        vec![rules::RPC_PARSE],
                        crate::note!("sim.framing_error_text_spans", "Framing error: the text spans {count} lines, and stdio delivers each line as its own message.", count = lines.len()),
                    );
                    for line in lines {
                        self.server_handles_line(server, line);
                    }
                    return;
                }
                if self.scripted_reply(&text, false, server.revision_for(&ConnId::stdio())) {
                    return;
                }
                self.server_handles_line(server, &text);
            }
            Delivery::ToServerHttp { request, event } => {
                self.mark_delivered(event);
                if self.server_refuses(&request.headers) {
                    return;
                }
                let duration = later::duration_of(server, &request.body);
                if self.scripted_reply(&request.body, true, ProtocolVersion::modern()) {
                    self.on_request_stream = false;
                    return;
                }
                let mut reply = server.handle_http(now, &request);
                if std::mem::take(&mut self.on_request_stream) {
                    later::onto_stream(&mut reply);
                }
                self.opened(&request.body, &reply);
                // Effects of handling (locks, decisions) come before the
                // response; messages the server sends on an already open SSE
                // stream come after it.
                let mut on_stream = Vec::new();
                while let Some(out) = server.poll_output() {
                    if matches!(out.kind, OutputKind::Send { .. }) {
                        on_stream.push(out);
                    } else {
                        self.server_output(out);
                    }
                }
                let work = scripted::request_of(&request.body).map(|(id, _, _)| id);
                self.http_response(reply, duration.map(|d| (d, work)));
                for out in on_stream {
                    self.server_output(out);
                }
            }
            Delivery::ToClientText { text, event } => {
                if self.closed {
                    return;
                }
                self.mark_delivered(event);
                client.handle_text(now, &text);
            }
            Delivery::ToClientHttp { response, event } => {
                self.mark_delivered(event);
                client.handle_http(now, &response);
            }
            Delivery::ServerSees(ev) => match ev {
                ServerEvent::Reply(reply) => self.armed.push(reply),
                ServerEvent::Notify(notice) => {
                    let revision = server.revision_for(&ConnId::stdio());
                    self.scripted_notice(notice, revision);
                }
                ServerEvent::ToolsChanged => server.trigger(now, ServerTrigger::ToolsChanged),
                ServerEvent::Changed { change } => server.trigger(now, change),
                ServerEvent::Upgrade { config } => {
                    let note = crate::note!(
                        "sim.server_upgraded_place_now",
                        "The server is upgraded in place: it now runs {label}.",
                        label = config.label()
                    );
                    // The same deployment, upgraded: the same key.
                    let key = std::mem::take(&mut server.state_key);
                    *server = Server::new(*config);
                    server.set_state_key(&key);
                    self.push(
                        EventKind::Decision { side: Side::Server },
                        vec![rules::E_CACHE],
                        note,
                    );
                }
            },
            Delivery::CloseAtServer => server.handle_disconnect(now, &ConnId::stdio()),
            Delivery::Later(later, _) => self.later(later),
            Delivery::StreamClosed(key) => server.stream_closed(now, &key),
            Delivery::Gateway(delivery) => self.at_gateway(*delivery),
        }
    }
}

/// Builds the message record for wire text: its kind and arrow label (the
/// method, `result`, `input_required`, the error code; prefixed with the
/// HTTP status of a server message), legacy flag and HTTP info. Shared by
/// the engine, the editor and the CLI's drivers of real transports.
pub fn message_event(
    from: Side,
    text: &str,
    revision: ProtocolVersion,
    violation: Option<Note>,
    http: Option<HttpInfo>,
) -> MessageEvent {
    let (violation, violation_msg) = match violation.map(Note::into_parts) {
        Some((text, msg)) => (Some(text), msg),
        None => (None, None),
    };
    let json: Option<Value> = serde_json::from_str(text).ok();
    let envelope = json.as_ref().and_then(|v| Envelope::classify(v).ok());
    let (kind, label) = match &envelope {
        Some(Envelope::Request { method, .. }) => (MessageKind::Request, method.clone()),
        Some(Envelope::Notification { method, .. }) => (MessageKind::Notification, method.clone()),
        Some(Envelope::Result { result, .. }) => {
            let label = match ResultType::of(result) {
                Some(kind) if kind == ResultType::INPUT_REQUIRED => kind.to_string(),
                _ if result.get("isError") == Some(&Value::Bool(true)) => {
                    "result (isError)".to_string()
                }
                _ => "result".to_string(),
            };
            (MessageKind::Result, label)
        }
        Some(Envelope::Error { error, .. }) => (MessageKind::Error, error.code.to_string()),
        None => (
            MessageKind::Other,
            if text.is_empty() {
                "(empty)".into()
            } else {
                "(not JSON-RPC)".into()
            },
        ),
    };
    let label = match (&http, from) {
        (
            Some(HttpInfo {
                status: Some(status),
                ..
            }),
            Side::Server,
        ) if !text.is_empty() => format!("{status} {label}"),
        _ => label,
    };
    let legacy = revision.era() == crate::protocol::Era::Legacy;
    MessageEvent {
        from,
        from_actor: None,
        to_actor: None,
        kind,
        label,
        wire: text.to_string(),
        json,
        delivered_at_ms: None,
        revision: revision.into_string(),
        legacy,
        violation,
        violation_msg,
        http,
        undecided: None,
        undecided_msg: None,
    }
}

/// "client" or "server", as a word of a note (translated).
fn side_word(side: Side) -> Note {
    match side {
        Side::Client => crate::note!("sim.side_client", "client"),
        Side::Server => crate::note!("sim.side_server", "server"),
    }
}

mod bearer;
mod cancel;
mod gateway;
mod later;
mod outcome;
mod scripted_server;

use outcome::outcome;
#[cfg(test)]
mod tests;
