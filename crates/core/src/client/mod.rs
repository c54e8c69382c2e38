//! The simulated MCP client: a sans-IO state machine that works through a
//! scenario's [`Step`]s and makes every protocol decision itself: probing the
//! era, caching, version and capability retries, MRTR round trips, legacy
//! handshakes, timeouts and what to do with undeclared requests.
//!
//! Surface: [`Client::start`], then feed `handle_text` / `handle_http` and
//! `handle_timeout(now)` when [`Client::poll_timeout`] says so; after every
//! call drain [`Client::poll_output`] until it returns `None`.

pub mod config;
pub mod presets;

use std::collections::VecDeque;

use serde_json::{json, Map, Value};

use crate::protocol::jsonrpc::{self, Envelope, ErrorCode, ErrorObject, RequestId};
use crate::protocol::version::{pick_mutual, EraMode};
use crate::protocol::{meta, methods, ClientCapabilities, Era, ProtocolVersion, ResultType};
use crate::rules::{self, RuleId};
use crate::sim::{EventKind, Side, SimTime};
use crate::transport::http::{self, HttpRequest, HttpResponse};
use crate::transport::TransportKind;

pub use config::{ClientConfig, Step, UndeclaredPolicy};

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

/// A cached discover result (M-CACHE-FRESH).
#[derive(Debug, Clone, PartialEq)]
struct CachedDiscover {
    supported: Vec<String>,
    received_at: SimTime,
    ttl_ms: u64,
}

impl CachedDiscover {
    fn fresh(&self, now: SimTime) -> bool {
        self.ttl_ms > 0 && now < self.received_at.plus_millis(self.ttl_ms)
    }
}

/// An established legacy session.
#[derive(Debug, Clone, PartialEq)]
struct Session {
    version: ProtocolVersion,
    http_session: Option<String>,
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

// ---- driving the script -------------------------------------------------

impl Client {
    fn record(&mut self, kind: EventKind, rules: &[RuleId], note: impl Into<String>) {
        self.outbox.push_back(ClientOutput {
            action: ClientAction::Record(kind),
            rules: rules.to_vec(),
            note: note.into(),
        });
    }

    fn decide(&mut self, rules: &[RuleId], note: impl Into<String>) {
        self.record(EventKind::Decision { side: Side::Client }, rules, note);
    }

    fn close(&mut self, rules: &[RuleId], note: impl Into<String>) {
        self.closed = true;
        self.waiting = None;
        self.outbox.push_back(ClientOutput {
            action: ClientAction::Close,
            rules: rules.to_vec(),
            note: note.into(),
        });
    }

    fn fresh_id(&mut self) -> RequestId {
        let id = RequestId::Number(self.next_id);
        self.next_id += 1;
        id
    }

    /// Gives up on the current step and moves on.
    fn abandon(&mut self, now: SimTime, rules: &[RuleId], note: impl Into<String>) {
        self.decide(rules, note);
        self.job = None;
        self.advance(now);
    }

    /// Starts whatever comes next, unless the client is busy.
    fn advance(&mut self, now: SimTime) {
        if self.closed || self.waiting.is_some() || self.sleeping_until.is_some() {
            return;
        }
        if self.job.is_none() {
            let Some(step) = self.script.pop_front() else {
                return;
            };
            let (declare, version) = match &step {
                Step::Request {
                    declare, version, ..
                } => (
                    declare.clone(),
                    version.as_deref().map(ProtocolVersion::new),
                ),
                Step::Discover { version } => (None, version.as_deref().map(ProtocolVersion::new)),
                _ => (None, None),
            };
            self.job = Some(Job {
                step,
                declare,
                version,
                input: None,
                reprobed: false,
                discovered: false,
            });
        }
        let Some(job) = self.job.clone() else { return };
        match &job.step {
            Step::Wait { ms } => {
                self.sleeping_until = Some(now.plus_millis(*ms));
                self.job = None;
            }
            Step::Disconnect => {
                self.job = None;
                self.close(&[rules::L_UNDECLARED], "The client closes the connection.");
            }
            Step::Raw { .. } => self.send_raw(now, job.step.clone()),
            Step::Discover { .. } | Step::Request { .. } => {
                if self.ensure_ready(now, &job) {
                    self.send_job(now);
                }
            }
        }
    }

    /// Makes sure the era is known and the connection usable; sends a probe,
    /// discover or initialize if needed and returns false while waiting.
    fn ensure_ready(&mut self, now: SimTime, job: &Job) -> bool {
        let is_discover_step = matches!(job.step, Step::Discover { .. });
        match self.era {
            None => {
                self.record(
                    EventKind::CacheMiss { key: "era".into() },
                    &[rules::E_CACHE],
                    "No era is cached for this server yet, so the dual-era client probes.",
                );
                self.send_probe(now, self.preferred_modern());
                false
            }
            Some(Era::Legacy) => {
                if self.session.is_some() {
                    return true;
                }
                if self.config.era == EraMode::ModernOnly {
                    self.abandon(now, &[rules::E_MATRIX], "A modern-only client cannot talk to a legacy server: it surfaces an actionable error instead.");
                    return false;
                }
                self.send_initialize(now);
                false
            }
            Some(Era::Modern) => {
                let wants_discover =
                    self.config.era == EraMode::DualEra || self.config.discover_first;
                if !wants_discover || is_discover_step {
                    return true;
                }
                match &self.discover {
                    Some(_) if job.discovered => true,
                    Some(cached) if cached.fresh(now) => {
                        let left = cached
                            .received_at
                            .plus_millis(cached.ttl_ms)
                            .millis_since(now);
                        self.record(EventKind::CacheHit { key: "server/discover".into() }, &[rules::M_CACHE_FRESH, rules::E_CACHE],
                            format!("The cached discover result is still fresh ({} s left of ttlMs), so no probe is needed.", left / 1000));
                        true
                    }
                    Some(_) => {
                        self.discover = None;
                        self.record(EventKind::CacheExpired { key: "server/discover".into() }, &[rules::M_CACHE_FRESH, rules::E_CACHE],
                            "The cached discover result's ttlMs has run out: the client asks again before relying on it.");
                        if self.config.era == EraMode::DualEra {
                            self.era = None;
                            self.send_probe(now, self.preferred_modern());
                        } else {
                            self.send_discover(now, self.preferred_modern(), false);
                        }
                        false
                    }
                    None => {
                        self.record(
                            EventKind::CacheMiss {
                                key: "server/discover".into(),
                            },
                            &[rules::M_CACHE_FRESH],
                            "Nothing cached for this server: discover first.",
                        );
                        self.send_discover(now, self.preferred_modern(), false);
                        false
                    }
                }
            }
        }
    }

    fn preferred_modern(&self) -> ProtocolVersion {
        self.config
            .modern_versions
            .first()
            .map_or_else(ProtocolVersion::modern, |v| {
                ProtocolVersion::new(v.as_str())
            })
    }

    /// The version for the next modern request: a mutual one if the server
    /// told us its list, else our preferred one.
    fn chosen_version(&self) -> ProtocolVersion {
        if let Some(cached) = &self.discover {
            if let Some(v) = pick_mutual(&self.config.modern_versions, &cached.supported) {
                return v;
            }
        }
        self.preferred_modern()
    }

    fn meta(&self, version: &ProtocolVersion, declare: &ClientCapabilities) -> Value {
        json!({
            meta::PROTOCOL_VERSION: version,
            meta::CLIENT_CAPABILITIES: declare.to_json(),
            meta::CLIENT_INFO: self.config.info.to_json(),
        })
    }

    fn deadline(&self, now: SimTime) -> Option<SimTime> {
        self.config.request_timeout_ms.map(|t| now.plus_millis(t))
    }

    /// Emits a message and starts waiting if it is a request.
    fn emit(
        &mut self,
        message: Value,
        era: Era,
        purpose: Option<Purpose>,
        deadline: Option<SimTime>,
        rules: &[RuleId],
        note: String,
    ) {
        let revision = match era {
            Era::Modern => ProtocolVersion::modern(),
            Era::Legacy => match &self.session {
                Some(session) => session.version.clone(),
                None => ProtocolVersion::legacy_default(&self.config.legacy_versions),
            },
        };
        let text = message.to_string();
        let http = (self.transport == TransportKind::Http).then(|| {
            let headers = match era {
                Era::Modern => http::modern_headers(&message),
                Era::Legacy => http::legacy_headers(
                    self.session.as_ref().map(|s| s.version.as_str()),
                    self.session
                        .as_ref()
                        .and_then(|s| s.http_session.as_deref()),
                ),
            };
            HttpRequest::post(headers, text.clone())
        });
        let id = message.get("id").and_then(RequestId::from_json);
        if let Some(purpose) = purpose {
            self.waiting = Some(Waiting {
                id,
                purpose,
                deadline,
                era,
            });
        }
        self.outbox.push_back(ClientOutput {
            action: ClientAction::Send {
                text,
                http,
                revision,
                violation: None,
            },
            rules: rules.to_vec(),
            note,
        });
    }

    fn send_probe(&mut self, now: SimTime, version: ProtocolVersion) {
        let id = self.fresh_id();
        let msg = jsonrpc::request(
            &id,
            methods::DISCOVER,
            json!({"_meta": self.meta(&version, &self.config.capabilities.clone())}),
        );
        let (rules, note, deadline): (&[RuleId], String, Option<SimTime>) = match self.transport {
            TransportKind::Stdio => (&[rules::E_PROBE_STDIO], format!(
                "The dual-era client probes with server/discover naming {version}: a DiscoverResult or a modern error means modern; any other error or {} s of silence means legacy.", self.config.probe_timeout_ms / 1000),
                Some(now.plus_millis(self.config.probe_timeout_ms))),
            TransportKind::Http => (&[rules::E_PROBE_HTTP], format!(
                "The dual-era client tries a modern request (server/discover, {version}); on 400/404/405 it will read the body to decide the era."), self.deadline(now)),
        };
        self.emit(
            msg,
            Era::Modern,
            Some(Purpose::Probe { version }),
            deadline,
            rules,
            note,
        );
    }

    fn send_discover(&mut self, now: SimTime, version: ProtocolVersion, is_step: bool) {
        let id = self.fresh_id();
        let declare = self
            .job
            .as_ref()
            .and_then(|j| j.declare.clone())
            .unwrap_or_else(|| self.config.capabilities.clone());
        let msg = jsonrpc::request(
            &id,
            methods::DISCOVER,
            json!({"_meta": self.meta(&version, &declare)}),
        );
        let note = if is_step {
            format!("The client asks the server to describe itself: server/discover naming {version}. Calling it is optional for clients.")
        } else {
            format!("Discover first: one round trip for versions, capabilities and cache hints ({version}).")
        };
        let deadline = self.deadline(now);
        self.emit(
            msg,
            Era::Modern,
            Some(Purpose::Discover { version, is_step }),
            deadline,
            &[rules::M_DISCOVER, rules::M_META_REQUIRED],
            note,
        );
    }

    fn send_initialize(&mut self, now: SimTime) {
        let id = self.fresh_id();
        let version = ProtocolVersion::legacy_default(&self.config.legacy_versions);
        let msg = jsonrpc::request(
            &id,
            methods::INITIALIZE,
            json!({
                "protocolVersion": version,
                "capabilities": self.config.capabilities.to_json(),
                "clientInfo": self.config.info.to_json(),
            }),
        );
        let caps = self.config.capabilities.names();
        let note = format!("Legacy handshake: initialize asks for {version} and declares {} once, for the whole session.",
            if caps.is_empty() { "no capabilities".to_string() } else { caps.join(", ") });
        let deadline = self.deadline(now);
        self.emit(
            msg,
            Era::Legacy,
            Some(Purpose::Initialize),
            deadline,
            &[rules::L_INIT, rules::L_CAP_SESSION],
            note,
        );
    }

    fn send_relist(&mut self, _now: SimTime) {
        let id = self.fresh_id();
        let (msg, era) = match self.era {
            Some(Era::Legacy) => (
                jsonrpc::request(&id, methods::TOOLS_LIST, Value::Null),
                Era::Legacy,
            ),
            _ => {
                let caps = self.config.capabilities.clone();
                (
                    jsonrpc::request(
                        &id,
                        methods::TOOLS_LIST,
                        json!({"_meta": self.meta(&self.chosen_version(), &caps)}),
                    ),
                    Era::Modern,
                )
            }
        };
        self.relists.push(id);
        let note = if self.config.debounce_ms == 0 {
            "tools/list again, for this notice alone."
        } else {
            "The list_changed burst is over: one tools/list refreshes the cached list."
        };
        self.emit(msg, era, None, None, &[rules::L_LIST_CHANGED], note.into());
    }

    /// Sends a scenario's hand-written message exactly as written.
    fn send_raw(&mut self, now: SimTime, step: Step) {
        let Step::Raw {
            text,
            headers,
            violation,
            note,
            rules: rule_ids,
        } = step
        else {
            return;
        };
        let parsed: Option<Value> = serde_json::from_str(&text).ok();
        let id = parsed
            .as_ref()
            .and_then(|v| v.get("id"))
            .and_then(RequestId::from_json);
        let is_request = id.is_some() || parsed.is_none();
        let http = (self.transport == TransportKind::Http).then(|| {
            let headers = headers.unwrap_or_else(|| {
                parsed
                    .as_ref()
                    .map(http::modern_headers)
                    .unwrap_or_default()
            });
            HttpRequest::post(headers, text.clone())
        });
        if is_request {
            self.waiting = Some(Waiting {
                id,
                purpose: Purpose::Job,
                deadline: self.deadline(now),
                era: Era::Modern,
            });
        } else {
            self.job = None;
        }
        let rules: Vec<RuleId> = rule_ids
            .iter()
            .filter_map(|id| rules::find(id))
            .map(|r| r.id)
            .collect();
        self.outbox.push_back(ClientOutput {
            action: ClientAction::Send {
                text,
                http,
                revision: ProtocolVersion::modern(),
                violation,
            },
            rules,
            note,
        });
    }

    /// Sends the current job's request in the current era.
    fn send_job(&mut self, now: SimTime) {
        let Some(job) = self.job.clone() else { return };
        let era = self.era.unwrap_or(Era::Modern);
        if let Step::Discover { .. } = job.step {
            if era == Era::Legacy {
                self.abandon(now, &[rules::E_TERMS], "server/discover is a modern method; this server speaks the legacy era, so the step is skipped.");
                return;
            }
            let version = job.version.clone().unwrap_or_else(|| self.chosen_version());
            self.send_discover(now, version, true);
            return;
        }
        let Step::Request { method, params, .. } = &job.step else {
            return;
        };
        let id = self.fresh_id();
        let mut params = params.clone();
        if let Some((responses, state)) = &job.input {
            params["inputResponses"] = responses.clone();
            params["requestState"] = json!(state);
        }
        let deadline = self.deadline(now);
        match era {
            Era::Modern => {
                let version = job.version.clone().unwrap_or_else(|| self.chosen_version());
                let declare = job
                    .declare
                    .clone()
                    .unwrap_or_else(|| self.config.capabilities.clone());
                params["_meta"] = self.meta(&version, &declare);
                let caps = declare.names();
                let mut rules = vec![rules::M_META_REQUIRED, rules::M_STATELESS];
                let note = if job.input.is_some() {
                    rules.push(rules::M_MRTR);
                    rules.push(rules::RPC_ID);
                    format!("The client retries {method} with a new id, the user's answer in inputResponses and requestState echoed unchanged.")
                } else {
                    format!(
                        "{method} with _meta: version {version}, capabilities {}.",
                        if caps.is_empty() {
                            "{} (only the basics)".to_string()
                        } else {
                            caps.join(", ")
                        }
                    )
                };
                let msg = jsonrpc::request(&id, method, params);
                self.emit(msg, Era::Modern, Some(Purpose::Job), deadline, &rules, note);
            }
            Era::Legacy => {
                if let Some(obj) = params.as_object_mut() {
                    obj.remove("_meta");
                }
                let params = if params.as_object().is_some_and(|o| o.is_empty()) {
                    Value::Null
                } else {
                    params
                };
                let msg = jsonrpc::request(&id, method, params);
                self.emit(msg, Era::Legacy, Some(Purpose::Job), deadline, &[rules::L_CAP_SESSION],
                    format!("{method} inside the legacy session: no _meta, the capabilities negotiated at initialize apply."));
            }
        }
    }
}

// ---- reacting to what arrives -------------------------------------------

/// What came back for a request.
enum Answer {
    Result(Value),
    Error(ErrorObject),
}

impl Client {
    fn handle_envelope(&mut self, now: SimTime, env: Envelope) {
        match env {
            Envelope::Request { id, method, params } => {
                self.on_server_request(now, id, &method, &params)
            }
            Envelope::Notification { method, .. } => self.on_server_notification(now, &method),
            Envelope::Result { id, result } => {
                self.on_answer(now, Some(id), Answer::Result(result))
            }
            Envelope::Error { id, error } => self.on_answer(now, id, Answer::Error(error)),
        }
    }

    fn on_answer(&mut self, now: SimTime, id: Option<RequestId>, answer: Answer) {
        if let Some(pos) = id
            .as_ref()
            .and_then(|id| self.relists.iter().position(|r| r == id))
        {
            self.relists.remove(pos);
            let note = if self.config.debounce_ms == 0 {
                "One more full tool list: without a debounce, every notice costs a round trip."
            } else {
                "The tool list is refreshed once for the whole burst of notices."
            };
            self.decide(&[rules::L_LIST_CHANGED], note);
            return;
        }
        let matches = self
            .waiting
            .as_ref()
            .is_some_and(|w| w.id.is_none() || id.is_none() || w.id == id);
        if !matches {
            self.record(
                EventKind::Dropped {
                    side: Side::Client,
                    what: "a response to nothing pending".into(),
                },
                &[rules::RPC_ID],
                "This response matches no request the client is waiting on.",
            );
            return;
        }
        let Some(w) = self.waiting.take() else { return };
        match w.purpose.clone() {
            Purpose::Probe { version } => self.on_probe_answer(now, version, answer),
            Purpose::Discover { version, is_step } => {
                self.on_discover_answer(now, version, is_step, answer)
            }
            Purpose::Initialize => self.on_initialize_answer(now, answer),
            Purpose::Job => self.on_job_answer(now, w.era, answer),
        }
    }

    fn mark_discovered(&mut self) {
        if let Some(job) = self.job.as_mut() {
            job.discovered = true;
        }
    }

    fn cache_discover(&mut self, now: SimTime, result: &Value) {
        let supported: Vec<String> = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let ttl = result
            .get("ttlMs")
            .and_then(Value::as_i64)
            .unwrap_or(0)
            .max(0) as u64;
        self.discover = Some(CachedDiscover {
            supported,
            received_at: now,
            ttl_ms: ttl,
        });
        self.record(EventKind::CacheStored { key: "server/discover".into(), ttl_ms: ttl }, &[rules::M_CACHE_FRESH, rules::E_CACHE],
            if ttl == 0 { "ttlMs is 0: the result is stale at once and will be fetched again when needed.".to_string() }
            else { format!("The client caches the discover result (and the era) for ttlMs = {ttl} ms ({} min).", ttl / 60_000) });
    }

    fn on_probe_answer(&mut self, now: SimTime, version: ProtocolVersion, answer: Answer) {
        let probe_rule = if self.transport == TransportKind::Http {
            rules::E_PROBE_HTTP
        } else {
            rules::E_PROBE_STDIO
        };
        match answer {
            Answer::Result(result) => {
                self.era = Some(Era::Modern);
                self.decide(&[probe_rule, rules::E_CACHE], "A DiscoverResult: the server is modern. The era is a property of the server, so the client caches it.");
                self.cache_discover(now, &result);
                self.mark_discovered();
                self.advance(now);
            }
            Answer::Error(err) if err.code.is_recognized_modern() => {
                self.era = Some(Era::Modern);
                if err.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION {
                    let supported = supported_list(&err);
                    match pick_mutual(&self.config.modern_versions, &supported) {
                        Some(v) if v != version => {
                            self.decide(&[probe_rule, rules::M_VERSION_RETRY], format!("-32022 is a modern error, so the server is modern: no fallback. The client retries the probe with {v}, a version both support."));
                            self.send_probe(now, v);
                        }
                        _ => self.abandon(now, &[probe_rule, rules::M_VERSION_RETRY], "The server is modern but shares no version with this client: the client tells the user."),
                    }
                } else {
                    self.decide(
                        &[probe_rule],
                        format!(
                            "{} is a recognized modern error: the server is modern.",
                            err.code
                        ),
                    );
                    self.advance(now);
                }
            }
            Answer::Error(err) => {
                self.decide(&[probe_rule, rules::E_CACHE], format!(
                    "{} {} is not a modern error, so the server is legacy: fall back to initialize (never keyed to one specific code).", err.code, err.message));
                self.era = Some(Era::Legacy);
                self.advance(now);
            }
        }
    }

    fn on_unreadable_http(&mut self, now: SimTime, w: Waiting, status: u16) {
        match w.purpose {
            Purpose::Probe { .. } => {
                self.decide(&[rules::E_PROBE_HTTP, rules::E_CACHE], format!("HTTP {status} with an empty or unrecognized body: the server is legacy, fall back to initialize."));
                self.era = Some(Era::Legacy);
                self.advance(now);
            }
            _ => self.abandon(
                now,
                &[rules::H_STATUS],
                format!("HTTP {status} without a JSON-RPC body: the request failed."),
            ),
        }
    }

    fn on_discover_answer(
        &mut self,
        now: SimTime,
        version: ProtocolVersion,
        is_step: bool,
        answer: Answer,
    ) {
        match answer {
            Answer::Result(result) => {
                self.worked_modern = true;
                self.cache_discover(now, &result);
                if is_step {
                    self.job = None;
                } else {
                    self.mark_discovered();
                }
                self.advance(now);
            }
            Answer::Error(err) if err.code == ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
                let supported = supported_list(&err);
                match pick_mutual(&self.config.modern_versions, &supported) {
                    Some(v) if v != version => {
                        self.decide(&[rules::M_VERSION_RETRY, rules::RPC_ID], format!("-32022 lists {}; the client picks {v}, which it supports too, and retries with a new id.", supported.join(", ")));
                        if let Some(job) = self.job.as_mut() { job.version = Some(v.clone()); }
                        self.send_discover(now, v, is_step);
                    }
                    _ => self.abandon(now, &[rules::M_VERSION_RETRY], "No version in data.supported is one this client speaks: it tells the user."),
                }
            }
            Answer::Error(err) => {
                if self.config.era == EraMode::ModernOnly && !err.code.is_recognized_modern() {
                    self.abandon(now, &[rules::E_MATRIX], format!("{} to server/discover: the server is not modern, and a modern-only client cannot fall back. It fails deterministically and tells the user.", err.code));
                } else {
                    self.abandon(
                        now,
                        &[rules::M_DISCOVER],
                        format!("server/discover failed with {}.", err.code),
                    );
                }
            }
        }
    }

    fn on_initialize_answer(&mut self, now: SimTime, answer: Answer) {
        match answer {
            Answer::Result(result) => {
                let version = result
                    .get("protocolVersion")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                if !self.config.legacy_versions.contains(&version) {
                    self.close(&[rules::L_VERSION], format!(
                        "The server answered {version}, which this client cannot speak ({}): it disconnects instead of carrying on.", self.config.legacy_versions.join(", ")));
                    return;
                }
                let http_session = self.pending_http_session.take();
                let version = ProtocolVersion::new(version);
                self.session = Some(Session {
                    version: version.clone(),
                    http_session,
                });
                self.era = Some(Era::Legacy);
                let msg = jsonrpc::notification(methods::INITIALIZED, Value::Null);
                self.emit(msg, Era::Legacy, None, None, &[rules::L_INIT, rules::RPC_NOTIFY],
                    format!("The client can speak {version}, so it confirms with notifications/initialized (a notification: no reply)."));
                if let Some(instructions) = result.get("instructions").and_then(Value::as_str) {
                    self.decide(&[rules::L_INIT], format!("The host shows the server's instructions to the model once, labelled: \u{201c}{instructions}\u{201d}"));
                }
                let caps = result.get("capabilities").cloned().unwrap_or(Value::Null);
                if caps.get("prompts").is_none() {
                    self.decide(
                        &[rules::L_DEGRADE],
                        "No prompts capability: the host hides its prompt menu instead of failing.",
                    );
                }
                if caps.get("logging").is_none() {
                    self.decide(
                        &[rules::L_DEGRADE],
                        "No logging capability: the client will not wait for log lines.",
                    );
                }
                self.advance(now);
            }
            Answer::Error(err) => {
                let mut rules = vec![rules::E_MATRIX];
                if err.data.as_ref().and_then(|d| d.get("supported")).is_some()
                    || err.message.contains(ProtocolVersion::MODERN)
                {
                    rules.push(rules::M_INIT_ON_MODERN);
                }
                self.job = None;
                self.script.clear();
                self.decide(&rules, format!("initialize refused ({}): a legacy client has no fall-forward, so all it can do is show the user this message: {}", err.code, err.message));
            }
        }
    }

    fn on_job_answer(&mut self, now: SimTime, era: Era, answer: Answer) {
        let Some(mut job) = self.job.clone() else {
            return;
        };
        match answer {
            Answer::Result(result) => {
                match ResultType::of(&result) {
                    Some(kind) if kind == ResultType::INPUT_REQUIRED => {
                        let Some((responses, state)) = self.answer_input_requests(&result) else {
                            self.abandon(now, &[rules::M_MRTR], "The server asked for input this client cannot give.");
                            return;
                        };
                        job.input = Some((responses, state));
                        self.job = Some(job);
                        self.decide(&[rules::M_MRTR], "input_required: the client shows the form to the user and collects the answer.");
                        self.send_job(now);
                    }
                    Some(kind) if kind != ResultType::COMPLETE => self.abandon(now, &[rules::M_RESULT_TYPE], format!("resultType \"{kind}\" is unknown to this client, so the result is invalid.")),
                    kind => {
                        if era == Era::Modern {
                            self.worked_modern = true;
                        }
                        if kind.is_none() && era == Era::Modern {
                            self.decide(&[rules::M_RESULT_TYPE], "No resultType: treated as complete, as for an older server.");
                        }
                        if result.get("isError") == Some(&Value::Bool(true)) {
                            self.decide(&[rules::L_FALLBACK], "A tool error: the model reads it and can re-call with what it names.");
                        }
                        self.job = None;
                        self.advance(now);
                    }
                }
            }
            Answer::Error(err) => self.on_job_error(now, era, job, err),
        }
    }

    fn on_job_error(&mut self, now: SimTime, era: Era, mut job: Job, err: ErrorObject) {
        let retry = matches!(
            job.step,
            Step::Request {
                retry_on_missing_capability: true,
                ..
            }
        );
        match err.code {
            ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => {
                let cached_era_failed = self.config.era == EraMode::DualEra
                    && (self.worked_modern || era == Era::Legacy || self.session.is_some())
                    && !job.reprobed;
                if cached_era_failed {
                    job.reprobed = true;
                    job.version = None;
                    self.job = Some(job);
                    self.era = None;
                    self.discover = None;
                    self.session = None;
                    self.record(EventKind::CacheExpired { key: "era".into() }, &[rules::E_CACHE],
                        "A call that used to work now returns a version error: the server was upgraded underneath. The cached era is dropped and the client probes again.");
                    self.send_probe(now, self.preferred_modern());
                    return;
                }
                let supported = supported_list(&err);
                let current = job.version.clone().unwrap_or_else(|| self.chosen_version());
                match pick_mutual(&self.config.modern_versions, &supported) {
                    Some(v) if v != current => {
                        self.decide(&[rules::M_VERSION_RETRY, rules::RPC_ID], format!(
                            "-32022: the server supports {}; the client picks {v} and retries the same request with a new id.", supported.join(", ")));
                        job.version = Some(v);
                        self.job = Some(job);
                        self.send_job(now);
                    }
                    _ => self.abandon(now, &[rules::M_VERSION_RETRY], "No mutually supported version: the client tells the user instead of retrying."),
                }
            }
            ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY => {
                let required: ClientCapabilities = err
                    .data
                    .as_ref()
                    .and_then(|d| d.get("requiredCapabilities"))
                    .map(ClientCapabilities::from_json)
                    .unwrap_or_default();
                let declared = job
                    .declare
                    .clone()
                    .unwrap_or_else(|| self.config.capabilities.clone());
                let names = required.names().join(", ");
                if retry
                    && self.config.capabilities.covers(&required)
                    && !declared.covers(&required)
                {
                    let mut declare = declared;
                    merge_caps(&mut declare, &required, &self.config.capabilities);
                    job.declare = Some(declare);
                    self.job = Some(job);
                    self.decide(&[rules::M_CAP_REQUIRED, rules::RPC_ID], format!(
                        "-32021 names {names}. This client has it, so it retries the call declaring {names} on that request, with a new id."));
                    self.send_job(now);
                } else if !self.config.capabilities.covers(&required) {
                    self.abandon(now, &[rules::M_CAP_REQUIRED], format!("-32021 names {names}, which this client does not have: it tells the user this tool needs a feature the app lacks."));
                } else {
                    self.abandon(now, &[rules::M_CAP_REQUIRED, rules::M_STATELESS], format!("-32021 again: {names} was not declared on this request, and the server never remembers an earlier declaration."));
                }
            }
            ErrorCode::HEADER_MISMATCH => self.abandon(
                now,
                &[rules::H_HEADERS],
                "-32020: the headers disagreed with the body; the client must fix its request.",
            ),
            code => {
                let rules: Vec<RuleId> = match code {
                    ErrorCode::METHOD_NOT_FOUND => vec![rules::M_UNKNOWN_METHOD],
                    ErrorCode::INVALID_PARAMS if err.message.starts_with("Unknown tool") => {
                        vec![rules::M_UNKNOWN_TOOL]
                    }
                    ErrorCode::INVALID_PARAMS if err.message.contains("_meta") => {
                        vec![rules::M_META_REQUIRED]
                    }
                    _ => vec![rules::RPC_CODES],
                };
                self.abandon(
                    now,
                    &rules,
                    format!("The request failed with {code}: {}.", err.message),
                )
            }
        }
    }

    /// Builds inputResponses for an input_required result, answering as the
    /// user would (every requested field filled with a sensible value).
    fn answer_input_requests(&mut self, result: &Value) -> Option<(Value, String)> {
        let requests = result.get("inputRequests").and_then(Value::as_object)?;
        let state = result
            .get("requestState")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let mut responses = Map::new();
        for (key, request) in requests {
            if request.get("method").and_then(Value::as_str) != Some(methods::ELICITATION_CREATE) {
                return None;
            }
            self.config.capabilities.elicitation.as_ref()?;
            responses.insert(
                key.clone(),
                crate::protocol::elicitation::accept_with_defaults(
                    request.get("params").and_then(|p| p.get("requestedSchema")),
                ),
            );
        }
        Some((Value::Object(responses), state))
    }

    fn on_timeout(&mut self, now: SimTime, w: Waiting) {
        let id = w.id.as_ref().map(|i| i.to_string()).unwrap_or_default();
        let probe = matches!(w.purpose, Purpose::Probe { .. });
        if probe {
            self.record(EventKind::Timeout { side: Side::Client, request_id: id.clone() }, &[rules::E_PROBE_STDIO, rules::L_TIMEOUT],
                "No answer to the probe within the timeout: silence means legacy. The client falls back to initialize.");
        } else {
            self.record(
                EventKind::Timeout {
                    side: Side::Client,
                    request_id: id.clone(),
                },
                &[rules::L_TIMEOUT],
                format!("Request {id} timed out: the client stops waiting."),
            );
        }
        // On stdio the sender cancels what it stopped waiting for; on HTTP
        // closing the response stream is the cancellation, nothing is sent.
        if let (TransportKind::Stdio, Some(req)) = (self.transport, &w.id) {
            let mut params = json!({"requestId": req.to_json(), "reason": "timed out"});
            if w.era == Era::Modern {
                params["_meta"] = self.meta(&self.chosen_version(), &ClientCapabilities::none());
            }
            let msg = jsonrpc::notification(methods::CANCELLED, params);
            self.emit(
                msg,
                w.era,
                None,
                None,
                &[rules::L_TIMEOUT, rules::RPC_NOTIFY],
                format!("The client sends notifications/cancelled for {id}."),
            );
        }
        if probe {
            self.era = Some(Era::Legacy);
        } else {
            self.job = None;
        }
        self.advance(now);
    }

    fn on_server_request(&mut self, now: SimTime, id: RequestId, method: &str, params: &Value) {
        let declared =
            method == methods::ELICITATION_CREATE && self.config.capabilities.elicitation.is_some();
        if declared {
            let answer =
                crate::protocol::elicitation::accept_with_defaults(params.get("requestedSchema"));
            let msg = jsonrpc::result(&id, answer.clone());
            self.emit(msg, Era::Legacy, None, None, &[rules::L_CAP_SESSION],
                format!("The client declared elicitation, so it shows the question and returns the user's answer {}.", answer.get("content").cloned().unwrap_or(Value::Null)));
            return;
        }
        match self.config.undeclared {
            UndeclaredPolicy::MethodNotFound => {
                let msg = jsonrpc::error(Some(&id), &ErrorObject::new(ErrorCode::METHOD_NOT_FOUND, format!("Method not found: {method}")));
                self.emit(msg, Era::Legacy, None, None, &[rules::L_UNDECLARED],
                    format!("This client's SDK has no handler for {method} and answers -32601: the well-behaved case, the server can catch it."));
            }
            UndeclaredPolicy::Drop => self.record(EventKind::Dropped { side: Side::Client, what: format!("{method} id {id}") }, &[rules::L_UNDECLARED],
                format!("This client's SDK logs the unknown {method} at debug level and drops it: the server will wait for id {id} forever.")),
            UndeclaredPolicy::Close => self.close(&[rules::L_UNDECLARED],
                format!("This client's SDK treats the undeclared {method} as a protocol violation and closes the connection.")),
        }
        let _ = now;
    }

    fn on_server_notification(&mut self, now: SimTime, method: &str) {
        if method == methods::TOOLS_LIST_CHANGED {
            if self.config.debounce_ms == 0 {
                self.decide(
                    &[rules::L_LIST_CHANGED],
                    "No debounce: every notice triggers its own re-list.",
                );
                self.send_relist(now);
            } else {
                let at = now.plus_millis(self.config.debounce_ms);
                self.relist_at = Some(at);
                self.decide(&[rules::L_LIST_CHANGED], format!(
                    "list_changed is a hint, not a new list: the client waits {} ms for the burst to end before re-listing once.", self.config.debounce_ms));
            }
        }
    }
}

fn supported_list(err: &ErrorObject) -> Vec<String> {
    err.data
        .as_ref()
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Adds to `declare` the parts of `required` the client has.
fn merge_caps(
    declare: &mut ClientCapabilities,
    required: &ClientCapabilities,
    have: &ClientCapabilities,
) {
    if required.elicitation.is_some() {
        declare.elicitation = have.elicitation.clone();
    }
    if required.sampling.is_some() {
        declare.sampling = have.sampling.clone();
    }
    if required.roots.is_some() {
        declare.roots = have.roots.clone();
    }
    if required.extensions.is_some() {
        declare.extensions = have.extensions.clone();
    }
}
