//! A live check from the browser, without the I/O: the core's client run
//! against a real server one exchange at a time, recorded as the page's
//! [`Timeline`] on the real clock. The browser side (`hooks::live_fetch`)
//! does the `fetch`es and the timers and hands each answer here with the
//! milliseconds since the run started; this module decides nothing about
//! the protocol either: the client does ([`Client::handle_http`],
//! [`Client::handle_failure`], [`Client::handle_timeout`]).
//!
//! The flows are the catalog scenarios whose client scripts only discover,
//! list and send what a server must refuse ([`FLOWS`]): no tool of the
//! server's is ever called.
//!
//! Data layer: plain Rust over the core, tested natively against the core's
//! own server.

use mcp_lanes_core::client::{Client, ClientAction, ClientConfig, Step, TransportFailure};
use mcp_lanes_core::note::Note;
use mcp_lanes_core::protocol::jsonrpc::RequestId;
use mcp_lanes_core::protocol::ProtocolVersion;
use mcp_lanes_core::rules::{self, RuleId};
use mcp_lanes_core::scenarios;
use mcp_lanes_core::sim::{message_event, Event, EventKind, HttpInfo, Side, Summary, Timeline};
use mcp_lanes_core::transport::http::{self as core_http, HttpResponse};
use mcp_lanes_core::transport::{HttpRequest, TransportKind};
use serde_json::Value;

use crate::i18n::{t, tf};

/// The catalog scenarios whose set-ups a live check runs: discover and its
/// cache hints, unknown tool versus unknown method (a made-up tool name),
/// version mismatch and retry, missing `_meta`.
pub const FLOWS: [&str; 4] = [
    "discover",
    "unknown-tool-vs-unknown-method",
    "version-retry",
    "missing-meta",
];

/// How long one exchange may take, in milliseconds.
pub const EXCHANGE_MS: u64 = 10_000;

/// The largest answer read, in bytes.
pub const MAX_ANSWER_BYTES: usize = 4 * 1024 * 1024;

/// Most events one run records (a server that floods is stopped there).
pub const MAX_EVENTS: usize = 2_000;

/// One flow: a label, a client and its script.
#[derive(Debug, Clone)]
pub struct Flow {
    /// The lane's label.
    pub label: String,
    /// The client.
    pub client: ClientConfig,
    /// What it does.
    pub script: Vec<Step>,
}

/// The flows of [`FLOWS`], one per set-up.
pub fn flows() -> Vec<Flow> {
    FLOWS
        .iter()
        .filter_map(|id| scenarios::setups(id))
        .flatten()
        .map(|setup| Flow {
            label: setup.label,
            client: setup.client,
            script: setup.script,
        })
        .collect()
}

/// A POST to make.
#[derive(Debug, Clone, PartialEq)]
pub struct Post {
    /// The request (method, headers, body) the client chose.
    pub request: HttpRequest,
    /// Its event in the timeline.
    pub event: usize,
    /// The client's wait for its answer, if it waits for one.
    pub awaited: Option<u64>,
}

/// One run in progress.
pub struct LiveRun {
    client: Client,
    events: Vec<Event>,
    narration: Option<String>,
    revision: ProtocolVersion,
    label: String,
    target: String,
    client_label: String,
    /// What went wrong below the protocol, in words.
    pub problems: Vec<String>,
    closed: bool,
}

impl LiveRun {
    /// A run of `flow` against the server at `target` (a URL, for the
    /// timeline's header).
    pub fn new(flow: &Flow, target: &str) -> LiveRun {
        let mut config = flow.client.clone();
        config.request_timeout_ms = Some(EXCHANGE_MS);
        config.host_kill_ms = None;
        LiveRun {
            client_label: config.label(),
            client: Client::new(config, flow.script.clone(), TransportKind::Http),
            events: Vec::new(),
            narration: None,
            revision: ProtocolVersion::modern(),
            label: flow.label.clone(),
            target: target.to_string(),
            problems: Vec::new(),
            closed: false,
        }
    }

    /// Begins at `now` (milliseconds since the run started).
    pub fn start(&mut self, now: u64) {
        self.client.start(at(now));
    }

    fn push(
        &mut self,
        now: u64,
        kind: EventKind,
        rules: Vec<RuleId>,
        note: impl Into<Note>,
    ) -> usize {
        let index = self.events.len();
        let (note, note_msg) = note.into().into_parts();
        self.events.push(Event {
            index,
            at_ms: now,
            kind,
            rules,
            note,
            note_msg,
            narration: self.narration.take(),
        });
        index
    }

    /// The next POST the client makes, recording what it did before it;
    /// `None` when it has nothing to send now.
    pub fn next_post(&mut self, now: u64) -> Option<Post> {
        while let Some(out) = self.client.poll_output() {
            if out.narration.is_some() {
                self.narration = out.narration;
            }
            match out.action {
                ClientAction::Send {
                    text,
                    http,
                    revision,
                    violation,
                } => {
                    self.revision = revision.clone();
                    let info = http.as_ref().map(|r| HttpInfo {
                        method: Some(r.method.clone()),
                        status: None,
                        headers: r.headers.clone(),
                        event_id: None,
                    });
                    let msg = message_event(Side::Client, &text, revision, violation, info);
                    let event = self.push(now, EventKind::Message(msg), out.rules, out.note);
                    let awaited = self
                        .client
                        .awaited()
                        .filter(|a| body_id(&text) == a.id)
                        .map(|a| a.serial);
                    if let Some(request) = http {
                        return Some(Post {
                            request,
                            event,
                            awaited,
                        });
                    }
                }
                ClientAction::Record(kind) => {
                    if let EventKind::Timeout { request_id, .. } = &kind {
                        self.problems.push(tf(
                            "live.no_answer",
                            &[
                                ("id", &request_id.to_string()),
                                ("ms", &EXCHANGE_MS.to_string()),
                            ],
                        ));
                    }
                    self.push(now, kind, out.rules, out.note);
                }
                ClientAction::Close => {
                    self.closed = true;
                    self.push(
                        now,
                        EventKind::Disconnected { side: Side::Client },
                        out.rules,
                        out.note,
                    );
                }
            }
        }
        None
    }

    /// The answer to `post` came at `now`: its status, headers and body (a
    /// JSON body, or a whole `text/event-stream`).
    pub fn answered(
        &mut self,
        now: u64,
        post: &Post,
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    ) {
        if let Some(EventKind::Message(m)) = self.events.get_mut(post.event).map(|e| &mut e.kind) {
            m.delivered_at_ms = Some(now);
        }
        let info = HttpInfo {
            method: None,
            status: Some(status),
            headers: headers.clone(),
            event_id: None,
        };
        let mut response = HttpResponse::json(status, body);
        response.headers = headers;
        let note = tf("live.http_answer", &[("status", &status.to_string())]);
        if core_http::is_event_stream(&response) {
            for data in core_http::sse_events(&response.body) {
                self.received(now, &data, Some(info.clone()), note.clone());
            }
        } else {
            self.received(now, &response.body, Some(info), note);
        }
        if self.events.len() >= MAX_EVENTS {
            self.problems
                .push(tf("live.too_many", &[("count", &MAX_EVENTS.to_string())]));
            self.closed = true;
            return;
        }
        self.client.handle_http(at(now), &response);
    }

    fn received(&mut self, now: u64, text: &str, http: Option<HttpInfo>, note: String) {
        let mut msg = message_event(Side::Server, text, self.revision.clone(), None, http);
        msg.delivered_at_ms = Some(now);
        self.push(now, EventKind::Message(msg), Vec::new(), note);
    }

    /// The exchange of `post` failed below the protocol (`why`: what the
    /// browser said).
    pub fn failed(&mut self, now: u64, post: &Post, why: &str) {
        self.problems.push(why.to_string());
        let failure = TransportFailure::Closed(why.to_string());
        let still =
            post.awaited.is_some() && self.client.awaited().map(|a| a.serial) == post.awaited;
        if still {
            self.client.handle_failure(at(now), &failure);
        } else {
            self.push(
                now,
                EventKind::Dropped {
                    side: Side::Client,
                    what: why.to_string(),
                },
                vec![rules::C_EXCHANGE_FAILED],
                tf("live.unawaited", &[("why", why)]),
            );
        }
    }

    /// The client's next deadline, in milliseconds since the start.
    pub fn deadline(&self) -> Option<u64> {
        self.client.poll_timeout().map(|t| t.as_millis())
    }

    /// Time reached the client's deadline.
    pub fn timeout(&mut self, now: u64) {
        self.client.handle_timeout(at(now));
    }

    /// Whether the run is over.
    pub fn is_done(&self) -> bool {
        self.closed || self.client.is_done()
    }

    /// The timeline so far (the page draws it as it grows).
    pub fn timeline(&self) -> Timeline {
        let ended_at_ms = self.events.last().map(|e| e.at_ms).unwrap_or(0);
        let outcome = if self.problems.is_empty() {
            t("live.outcome")
        } else {
            tf(
                "live.outcome_problems",
                &[
                    ("count", &self.problems.len().to_string()),
                    ("problems", &self.problems.join("; ")),
                ],
            )
        };
        Timeline {
            label: self.label.clone(),
            transport: TransportKind::Http,
            client_label: self.client_label.clone(),
            server_label: self.target.clone(),
            events: self.events.clone(),
            summary: Summary {
                leaked_locks: 0,
                ended_at_ms,
                outcome,
                outcome_msg: None,
            },
        }
    }
}

fn at(ms: u64) -> mcp_lanes_core::sim::SimTime {
    mcp_lanes_core::sim::SimTime::from_millis(ms)
}

/// The id of a JSON-RPC message's text, if it has one.
fn body_id(text: &str) -> Option<RequestId> {
    serde_json::from_str::<Value>(text)
        .ok()
        .as_ref()
        .and_then(|v| v.get("id"))
        .and_then(RequestId::from_json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_lanes_core::check::{self, Outcome};
    use mcp_lanes_core::server::{presets, Server};
    use mcp_lanes_core::sim::SimTime;

    /// Runs every flow against the core's own server over its HTTP entry,
    /// as the browser would over fetch.
    fn run_against(preset: &str) -> Vec<Timeline> {
        let config = presets::server(preset).expect("preset");
        flows()
            .iter()
            .map(|flow| {
                let mut server = Server::new(config.clone());
                let mut run = LiveRun::new(flow, "http://127.0.0.1:1/mcp");
                let mut now = 0;
                run.start(now);
                for _ in 0..200 {
                    if let Some(post) = run.next_post(now) {
                        now += 1;
                        let reply = server.handle_http(SimTime::from_millis(now), &post.request);
                        let r = reply.response;
                        run.answered(now, &post, r.status, r.headers, r.body);
                        continue;
                    }
                    if run.is_done() {
                        break;
                    }
                    match run.deadline() {
                        Some(t) => {
                            now = now.max(t);
                            run.timeout(now);
                        }
                        None => break,
                    }
                }
                run.timeline()
            })
            .collect()
    }

    #[test]
    fn a_live_check_of_a_correct_server_fails_nothing() {
        let timelines = run_against("deploy-console");
        assert_eq!(timelines.len(), flows().len());
        for t in &timelines {
            assert!(
                t.events
                    .iter()
                    .any(|e| e.message().is_some_and(|m| m.from == Side::Server)),
                "{}",
                t.label
            );
            let failed: Vec<_> = check::grade(t)
                .into_iter()
                .filter(|v| v.verdict == Outcome::Fail)
                .collect();
            assert!(failed.is_empty(), "{}: {failed:?}", t.label);
        }
    }

    #[test]
    fn a_failed_exchange_goes_to_the_client() {
        let flow = &flows()[0];
        let mut run = LiveRun::new(flow, "http://127.0.0.1:1/mcp");
        run.start(0);
        let post = run.next_post(0).expect("a first POST");
        run.failed(5, &post, "TypeError: Failed to fetch");
        assert_eq!(run.problems.len(), 1);
        let t = run.timeline();
        assert!(t.summary.outcome.contains("Failed to fetch"));
    }
}
