//! The simulated MCP client: a sans-IO state machine that works through a
//! scenario's [`Step`]s and makes every protocol decision itself: probing the
//! era, caching, version and capability retries, MRTR round trips, legacy
//! handshakes, timeouts and what to do with undeclared requests.
//!
//! Surface: [`Client::start`], then feed `handle_text` / `handle_http` and
//! `handle_timeout(now)` when [`Client::poll_timeout`] says so; after every
//! call drain [`Client::poll_output`] until it returns `None`.

mod cache;
pub mod config;
mod legacy;
mod modern;
pub mod presets;
mod script;
mod timers;

use std::collections::VecDeque;

use serde_json::Value;

use crate::protocol::jsonrpc::{Envelope, RequestId};
use crate::protocol::version::EraMode;
use crate::protocol::{ClientCapabilities, Era, ProtocolVersion};
use crate::rules::{self, RuleId};
use crate::sim::{EventKind, Side, SimTime};
use crate::transport::http::{self, HttpRequest, HttpResponse};
use crate::transport::TransportKind;

pub use config::{ClientConfig, Step, UndeclaredPolicy};

use cache::CachedDiscover;
use legacy::Session;
use script::Answer;

/// What the client does, as the engine records it.
#[derive(Debug, Clone, PartialEq)]
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
        violation: Option<String>,
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
    pub note: String,
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

#[derive(Debug, Clone, PartialEq)]
struct Waiting {
    id: Option<RequestId>,
    purpose: Purpose,
    deadline: Option<SimTime>,
    era: Era,
}

/// The step in progress, with what the client has learned while doing it.
#[derive(Debug, Clone, PartialEq)]
struct Job {
    step: Step,
    declare: Option<ClientCapabilities>,
    version: Option<ProtocolVersion>,
    input: Option<(Value, String)>,
    reprobed: bool,
    /// A discover result arrived for this very step: use it even if its
    /// ttlMs is 0 (stale means fetch again next time, not loop now).
    discovered: bool,
}

/// The simulated client.
#[derive(Debug, Clone)]
pub struct Client {
    config: ClientConfig,
    transport: TransportKind,
    script: VecDeque<Step>,
    job: Option<Job>,
    waiting: Option<Waiting>,
    sleeping_until: Option<SimTime>,
    next_id: i64,
    era: Option<Era>,
    discover: Option<CachedDiscover>,
    session: Option<Session>,
    relist_at: Option<SimTime>,
    relists: Vec<RequestId>,
    worked_modern: bool,
    pending_http_session: Option<String>,
    closed: bool,
    outbox: VecDeque<ClientOutput>,
}

impl Client {
    /// A client that will work through `script` over `transport`.
    pub fn new(config: ClientConfig, script: Vec<Step>, transport: TransportKind) -> Self {
        let next_id = config.first_id;
        let era = match config.era {
            EraMode::ModernOnly => Some(Era::Modern),
            EraMode::LegacyOnly => Some(Era::Legacy),
            EraMode::DualEra => None,
        };
        Self {
            config,
            transport,
            script: script.into(),
            job: None,
            waiting: None,
            sleeping_until: None,
            next_id,
            era,
            discover: None,
            session: None,
            relist_at: None,
            relists: Vec::new(),
            worked_modern: false,
            pending_http_session: None,
            closed: false,
            outbox: VecDeque::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// Whether the client has closed its connection or been killed.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Begins work at time `now`.
    pub fn start(&mut self, now: SimTime) {
        self.advance(now);
    }

    /// The next output, if any.
    pub fn poll_output(&mut self) -> Option<ClientOutput> {
        self.outbox.pop_front()
    }

    /// The earliest time at which [`Client::handle_timeout`] must be called.
    pub fn poll_timeout(&self) -> Option<SimTime> {
        if self.closed {
            return None;
        }
        let busy = self.waiting.is_some()
            || self.sleeping_until.is_some()
            || self.job.is_some()
            || !self.script.is_empty();
        [
            self.waiting.as_ref().and_then(|w| w.deadline),
            self.sleeping_until,
            // A re-list waits for the outstanding request; it is re-checked
            // when that request is answered.
            self.relist_at,
            if busy {
                self.config.host_kill_ms.map(SimTime::from_millis)
            } else {
                None
            },
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Time has reached a deadline the client asked for.
    pub fn handle_timeout(&mut self, now: SimTime) {
        if self.closed {
            return;
        }
        if let Some(kill) = self.config.host_kill_ms {
            if now >= SimTime::from_millis(kill) && (self.waiting.is_some() || self.job.is_some()) {
                self.closed = true;
                self.waiting = None;
                self.record(EventKind::HostKill, &[rules::L_UNDECLARED, rules::L_TIMEOUT],
                    format!("The host framework kills the run at {} s. Killing a run sends nothing to the server, which keeps waiting and keeps whatever it holds.", kill / 1000));
                return;
            }
        }
        let expired = |w: &mut Waiting| w.deadline.is_some_and(|d| now >= d);
        if let Some(w) = self.waiting.take_if(expired) {
            self.on_timeout(now, w);
        }
        if self.sleeping_until.is_some_and(|t| now >= t) {
            self.sleeping_until = None;
        }
        if self.relist_at.is_some_and(|t| now >= t) {
            self.relist_at = None;
            self.send_relist(now);
        }
        self.advance(now);
    }

    /// A message arrived on stdio (or any text channel).
    pub fn handle_text(&mut self, now: SimTime, text: &str) {
        if self.closed {
            return;
        }
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
                "The client cannot read this as JSON-RPC and ignores it.",
            ),
        }
    }

    /// An HTTP response arrived for the client's last POST.
    pub fn handle_http(&mut self, now: SimTime, response: &HttpResponse) {
        if self.closed {
            return;
        }
        if let Some(session) = response.header(http::SESSION_HEADER) {
            if let Some(w) = &self.waiting {
                if w.purpose == Purpose::Initialize {
                    self.pending_http_session = Some(session.to_string());
                }
            }
        }
        let parsed = serde_json::from_str::<Value>(&response.body)
            .ok()
            .and_then(|v| Envelope::classify(&v).ok());
        match parsed {
            Some(env) => self.handle_envelope(now, env),
            None if response.status == 202 => {}
            None => {
                // An empty or unreadable body: only the status is known.
                if let Some(w) = self.waiting.take() {
                    self.on_unreadable_http(now, w, response.status);
                }
            }
        }
    }
}
