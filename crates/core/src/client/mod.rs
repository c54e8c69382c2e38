//! The simulated MCP client: a sans-IO state machine that works through a
//! scenario's [`Step`]s and makes every protocol decision itself: probing the
//! era, caching, version and capability retries, MRTR round trips, legacy
//! handshakes, timeouts and what to do with undeclared requests.
//!
//! Surface: [`Client::start`], then feed `handle_text` / `handle_http` and
//! `handle_timeout(now)` when [`Client::poll_timeout`] says so; after every
//! call drain [`Client::poll_output`] until it returns `None`.

mod background;
mod cache;
pub mod config;
mod identity;
mod legacy;
mod listed;
mod modern;
pub mod presets;
mod script;
mod skill_load;
pub mod skill_verify;
mod timers;

use std::collections::VecDeque;

use serde_json::Value;

use crate::note::Note;
use crate::protocol::jsonrpc::{Envelope, RequestId};
use crate::protocol::{ClientCapabilities, Era, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::sim::{EventKind, Side, SimTime};
use crate::transport::http::{self, HttpRequest, HttpResponse};
use crate::transport::TransportKind;

pub use config::{ClientConfig, Flow, Step, UndeclaredPolicy};
pub use listed::example_arguments;
pub use modern::{MAX_MRTR_ROUNDS, MAX_VERSION_RETRIES, ROOTS_LIST};
pub use script::MAX_EVENT_BYTES;

use cache::Known;
use legacy::Session;
use script::Answer;
use timers::{Timer, TimerTable};

/// What the client does, as the engine records it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[allow(clippy::large_enum_variant)] // short-lived, drained at once; boxing buys nothing
pub enum ClientAction {
    /// Send this text (and, on HTTP, this request).
    Send {
        /// Exact wire text.
        text: String,
        /// HTTP request, on the HTTP transport.
        http: Option<HttpRequest>,
        /// Revision whose schema the message follows.
        revision: ProtocolVersion,
        /// Why the message is broken on purpose, if it is.
        violation: Option<crate::note::Note>,
    },
    /// Something without a message (cache, timeout, drop, decision, kill).
    Record(EventKind),
    /// Close the connection.
    Close,
}

/// One output of [`Client::poll_output`].
#[derive(Debug, Clone, PartialEq)]
pub struct ClientOutput {
    /// What happens.
    pub action: ClientAction,
    /// Rules behind it.
    pub rules: Vec<RuleId>,
    /// One sentence for the learner.
    pub note: Note,
    /// The author's narration of the step that led here, if a scenario
    /// gave one ([`Step::Narrate`]).
    pub narration: Option<String>,
}

/// Why the client is waiting for a reply.
#[derive(Debug, Clone, PartialEq)]
enum Purpose {
    /// Dual-era era probe (E-PROBE-STDIO / E-PROBE-HTTP).
    Probe { version: ProtocolVersion },
    /// server/discover (discover-first, or a Discover step).
    Discover {
        version: ProtocolVersion,
        is_step: bool,
    },
    /// Legacy initialize.
    Initialize,
    /// The current step's request.
    Job,
}

/// The reply the client is waiting for (its deadline is [`Timer::Response`]).
#[derive(Debug, Clone, PartialEq)]
struct Waiting {
    id: Option<RequestId>,
    purpose: Purpose,
    era: Era,
}

/// What an MRTR retry carries (M-MRTR, C-MRTR-ROUNDS).
#[derive(Debug, Clone, PartialEq)]
struct Input {
    /// `inputResponses`, when the server asked for input.
    responses: Option<Value>,
    /// `requestState` exactly as the server sent it, when it sent one.
    state: Option<String>,
    /// Which round this retry answers (1 for the first input_required).
    round: u8,
    /// What the answers were, for the note ("the form", "a sampled reply").
    kinds: Vec<&'static str>,
}

/// The step in progress, with what the client has learned while doing it.
#[derive(Debug, Clone, PartialEq)]
struct Job {
    step: Step,
    declare: Option<ClientCapabilities>,
    version: Option<ProtocolVersion>,
    input: Option<Input>,
    /// Retries of this request for its version (C-VERSION-RETRY-ONCE).
    version_retries: u8,
    reprobed: bool,
    /// A discover result arrived for this very step: use it even if its
    /// ttlMs is 0 (stale means fetch again next time, not loop now).
    discovered: bool,
}

/// What is left to do and what is in progress (scheduled in `script.rs`).
#[derive(Debug, Clone, Default, PartialEq)]
struct Work {
    /// Steps not started yet.
    script: VecDeque<Step>,
    /// The step in progress.
    job: Option<Job>,
    /// The reply the client waits for.
    waiting: Option<Waiting>,
    /// Narration read from the script and not yet shown: the next output
    /// carries it.
    narration: Option<String>,
    /// Counts every wait started, so a driver can tell one wait from the
    /// next ([`Awaited::serial`]).
    wait_serial: u64,
    /// The skill being loaded, its files verified one by one
    /// (`skill_load.rs`).
    skill: Option<skill_load::SkillLoad>,
}

/// Whether the client still takes input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lifecycle {
    /// Connected and working.
    Open,
    /// It disconnected, or its host killed it: inputs are ignored.
    Closed,
}

/// The reply a client waits for, as a driver sees it: the request's id
/// (if it has one) and a serial number that changes with every new wait.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Awaited {
    /// The id of the request whose answer is awaited.
    pub id: Option<RequestId>,
    /// Distinguishes this wait from every other one of the run.
    pub serial: u64,
}

/// Why an exchange failed below the protocol, so that no answer will come
/// for it (told to the client with [`Client::handle_failure`]). Timeouts are
/// not failures: the client's own timer decides them (L-TIMEOUT).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportFailure {
    /// An SSE response stream ended before the response it carries
    /// (C-SSE-READ).
    StreamEnded,
    /// The connection could not be made or closed before the answer, or
    /// the server process exited (C-EXCHANGE-FAILED).
    Closed(String),
    /// The answer is larger than the limit (C-EXCHANGE-FAILED).
    TooLarge(String),
    /// What came is not HTTP, not text, or not a readable stream
    /// (C-EXCHANGE-FAILED).
    Garbled(String),
}

impl TransportFailure {
    /// What went wrong, as a sentence fragment.
    pub fn describe(&self) -> String {
        match self {
            TransportFailure::StreamEnded => {
                "the SSE response stream ended before the response".into()
            }
            TransportFailure::Closed(why)
            | TransportFailure::TooLarge(why)
            | TransportFailure::Garbled(why) => why.clone(),
        }
    }
}

/// The simulated client.
#[derive(Debug, Clone)]
pub struct Client {
    config: ClientConfig,
    transport: TransportKind,
    lifecycle: Lifecycle,
    /// The script and the step in progress (`script.rs`).
    work: Work,
    /// What it knows about the server: era, discover result, legacy
    /// session (`cache.rs`).
    known: Known,
    /// Re-lists after list_changed not yet answered (`legacy.rs`).
    relists: Vec<RequestId>,
    /// Requests running in the background, not answered yet
    /// (`background.rs`).
    background: Vec<background::Background>,
    /// Every deadline (`timers.rs`).
    timers: TimerTable,
    next_id: i64,
    /// The ids it sent (bounded, [`script::MAX_USED_IDS`]): its counter
    /// skips those a hand-written message used (RPC-ID).
    used_ids: Vec<RequestId>,
    outbox: VecDeque<ClientOutput>,
    /// Reads a `SKILL.md`'s YAML frontmatter (C-SKILL-FRONTMATTER): set by
    /// the caller, since the core links no YAML parser.
    frontmatter_reader: Option<skill_verify::FrontmatterReader>,
}

impl Client {
    /// A client that will work through `script` over `transport`.
    pub fn new(config: ClientConfig, script: Vec<Step>, transport: TransportKind) -> Self {
        let next_id = config.first_id;
        let known = Known::new(config.era);
        let mut timers = TimerTable::default();
        timers.set(
            Timer::HostKill,
            config.host_kill_ms.map(SimTime::from_millis),
        );
        Self {
            config,
            transport,
            lifecycle: Lifecycle::Open,
            work: Work {
                script: script.into(),
                ..Work::default()
            },
            known,
            relists: Vec::new(),
            background: Vec::new(),
            timers,
            next_id,
            used_ids: Vec::new(),
            outbox: VecDeque::new(),
            frontmatter_reader: None,
        }
    }

    /// Gives the client a YAML reader for skill frontmatter
    /// (C-SKILL-FRONTMATTER). Without one, no skill is ever loaded: its
    /// `SKILL.md` cannot be verified.
    pub fn set_frontmatter_reader(&mut self, reader: skill_verify::FrontmatterReader) {
        self.frontmatter_reader = Some(reader);
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Whether the client has closed its connection or been killed.
    pub fn is_closed(&self) -> bool {
        self.lifecycle == Lifecycle::Closed
    }

    /// Begins work at time `now`.
    pub fn start(&mut self, now: SimTime) {
        self.advance(now);
    }

    /// The next output, if any.
    pub fn poll_output(&mut self) -> Option<ClientOutput> {
        self.outbox.pop_front()
    }

    /// The earliest time at which [`Client::handle_timeout`] must be called:
    /// the earliest armed timer (`timers.rs`).
    pub fn poll_timeout(&self) -> Option<SimTime> {
        self.timers.next()
    }

    /// Time has reached a deadline the client asked for.
    pub fn handle_timeout(&mut self, now: SimTime) {
        self.when_open(|client| client.on_timers(now));
    }

    /// A message arrived on stdio (or any text channel).
    pub fn handle_text(&mut self, now: SimTime, text: &str) {
        self.when_open(|client| client.on_text(now, text));
    }

    /// An HTTP response arrived for the client's last POST. A
    /// `text/event-stream` body is read event by event (C-SSE-READ).
    pub fn handle_http(&mut self, now: SimTime, response: &HttpResponse) {
        self.when_open(|client| client.on_http(now, response));
    }

    /// An SSE answer started: its headers arrived, its events will come one
    /// by one through [`Client::handle_text`] (a driver reading the stream
    /// as it arrives). Keeps what the headers say, e.g. the session id.
    pub fn handle_http_headers(&mut self, response: &HttpResponse) {
        if !self.is_closed() {
            self.on_http_headers(response);
        }
    }

    /// The exchange of the reply the client waits for failed below the
    /// protocol: no answer will come. The client gives up on that request
    /// and goes on with its script (C-SSE-READ, C-EXCHANGE-FAILED). A
    /// driver calls this only while [`Client::awaited`] is still the wait
    /// whose exchange failed; with nothing awaited it records the failure.
    pub fn handle_failure(&mut self, now: SimTime, failure: &TransportFailure) {
        self.when_open(|client| client.on_failure(now, failure));
    }

    /// The reply the client waits for, if any.
    pub fn awaited(&self) -> Option<Awaited> {
        self.work.waiting.as_ref().map(|w| Awaited {
            id: w.id.clone(),
            serial: self.work.wait_serial,
        })
    }

    /// Whether the client has nothing left to do: no step left or in
    /// progress, no reply awaited, no timer armed. Input may still come.
    pub fn is_done(&self) -> bool {
        self.is_closed()
            || (self.work.script.is_empty()
                && self.work.job.is_none()
                && self.work.waiting.is_none()
                && self.relists.is_empty()
                && self.timers.next().is_none())
    }

    /// Runs an input unless the client has closed: the one place where a
    /// closed client ignores what arrives.
    fn when_open(&mut self, input: impl FnOnce(&mut Self)) {
        if self.lifecycle == Lifecycle::Open {
            input(self);
        }
    }

    /// Closes for good: no more input, no timers, nothing left to do.
    fn shut_down(&mut self) {
        self.lifecycle = Lifecycle::Closed;
        self.work = Work::default();
        self.timers.clear();
    }

    fn on_text(&mut self, now: SimTime, text: &str) {
        match serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| Envelope::classify(&v).ok())
        {
            Some(env) => self.handle_envelope(now, env),
            None => self.record(
                EventKind::Dropped {
                    side: Side::Client,
                    what: "unreadable text".into(),
                },
                &[rules::RPC_PARSE],
                crate::note!(
                    "client.client_cannot_read_json",
                    "The client cannot read this as JSON-RPC and ignores it."
                ),
            ),
        }
    }

    /// What the headers of an answer tell before its body: the
    /// `Mcp-Session-Id` of the initialize response (L-INIT).
    fn on_http_headers(&mut self, response: &HttpResponse) {
        if let Some(session) = response.header(http::SESSION_HEADER) {
            if let Some(w) = &self.work.waiting {
                if w.purpose == Purpose::Initialize {
                    self.known.pending_http_session = Some(session.to_string());
                }
            }
        }
    }

    fn on_http(&mut self, now: SimTime, response: &HttpResponse) {
        self.on_http_headers(response);
        if http::is_event_stream(response) {
            self.on_event_stream(now, &response.body);
            return;
        }
        let parsed = serde_json::from_str::<Value>(&response.body)
            .ok()
            .and_then(|v| Envelope::classify(&v).ok());
        match parsed {
            Some(env) => self.handle_envelope(now, env),
            None if response.status == 202 => {}
            None => {
                // An empty or unreadable body: only the status is known.
                if let Some(w) = self.stop_waiting() {
                    if !self.on_challenge(now, response) {
                        self.on_unreadable_http(now, w, response.status);
                    }
                }
            }
        }
    }
}
