//! Drivers: the core's sans-IO [`Client`] against a real server, over
//! Streamable HTTP ([`http`]) or a child process's stdio ([`stdio`]), on the
//! wall clock, recorded as the same [`Timeline`] the page draws.
//!
//! The driver decides nothing about the protocol: it moves the client's
//! messages to the wire and the server's back, turns the wall clock into
//! `SimTime` (milliseconds since the run started), calls
//! [`Client::handle_timeout`] when [`Client::poll_timeout`] says so, and
//! tells the client when an exchange failed below the protocol
//! ([`Client::handle_failure`]). Every wait has a deadline: the client's
//! own request timeout (set from [`Limits::exchange`]), the exchange limit
//! for messages nobody waits on, and [`Limits::run`] for the whole run.
//!
//! API (what `client` uses, and `check` will):
//!
//! ```text
//! let mut connection = Connection::open(&Target::Http { url }, Limits::default())?;
//! let run: Run = connection.run(&Flow { label, client, script });
//! // run.timeline: the page's format; run.problems: what went wrong below the protocol
//! let stderr_tail = connection.close();
//! ```

pub(crate) mod fetch;
mod http;
mod listen;
mod record;
mod resume;
pub(crate) mod stdio;

use std::time::Duration;

use mcp_lanes_core::client::{Client, ClientAction, TransportFailure};
use mcp_lanes_core::protocol::ProtocolVersion;
use mcp_lanes_core::rules;
use mcp_lanes_core::sim::{request_id, EventKind, Recorded, Side, SimTime, Timeline};
use mcp_lanes_core::transport::{HttpRequest, TransportKind};

use record::Recorder;

use crate::i18n::Keyed;

pub use http::Endpoint;

/// How long and how much the driver waits for and reads from a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest wait for one answer; also the client's request timeout
    /// (L-TIMEOUT), so its own timer decides.
    pub exchange: Duration,
    /// The longest wait for a TCP connection.
    pub connect: Duration,
    /// The largest response body, SSE event or stdio line, in bytes.
    pub max_message: usize,
    /// The longest a whole run may take.
    pub run: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            exchange: Duration::from_secs(10),
            connect: Duration::from_secs(5),
            max_message: mcp_lanes_core::client::MAX_EVENT_BYTES,
            run: Duration::from_secs(120),
        }
    }
}

/// Where the server is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A Streamable HTTP endpoint (`http://HOST:PORT/PATH`).
    Http {
        /// The endpoint URL.
        url: String,
    },
    /// A command to spawn; it speaks one JSON message per line on stdio.
    Stdio {
        /// The program and its arguments.
        command: Vec<String>,
    },
}

impl Target {
    /// How the timeline names the server.
    pub fn label(&self) -> String {
        match self {
            Target::Http { url } => url.clone(),
            Target::Stdio { command } => format!("stdio: {}", command.join(" ")),
        }
    }
}

/// One client script to run: the core's flow (a client and its steps).
pub use mcp_lanes_core::client::Flow;

/// What went wrong below the protocol during a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemKind {
    /// An answer did not come in time (the client's timeout fired).
    Timeout,
    /// An exchange failed: connection, size, not HTTP, stream cut short.
    Exchange,
    /// The server process exited or closed its output.
    ServerExited,
    /// What the server sent is not JSON-RPC (not MCP at all, or garbage).
    NotMcp,
    /// The run passed [`Limits::run`].
    RunTooLong,
    /// The server sent so much that the run reached [`MAX_EVENTS`].
    Flood,
    /// The client was left waiting on nothing (a bug in a flow, not the
    /// server's fault): the run ended early.
    Stalled,
}

/// The most events one run records; a server that floods the client is
/// stopped there (as the simulator stops a runaway run).
pub const MAX_EVENTS: usize = mcp_lanes_core::sim::engine::MAX_EVENTS;

/// One problem, with when it happened and what it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Milliseconds since the run started.
    pub at_ms: u64,
    /// What kind of problem.
    pub kind: ProblemKind,
    /// A sentence saying what happened (keyed, `driver.problem.*`, but
    /// for the transport's or the system's own words).
    pub detail: mcp_lanes_core::note::Note,
}

/// A finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Everything that happened, in the page's format.
    pub timeline: Timeline,
    /// What went wrong below the protocol (empty for a clean run).
    pub problems: Vec<Problem>,
}

/// Why a connection could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenError {
    /// The target is malformed (a URL that is not `http://…`, an empty
    /// command): a usage error of the catalogs, said by the caller in its
    /// `--lang`.
    Usage(Keyed),
    /// Nothing answers there, or the command cannot be started.
    Unreachable(String),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Usage(msg) => msg.fmt(f),
            OpenError::Unreachable(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for OpenError {}

enum Wire {
    Http(http::HttpWire),
    Stdio(stdio::StdioWire),
}

/// A server to run flows against: an HTTP endpoint or a running child.
pub struct Connection {
    runtime: tokio::runtime::Runtime,
    wire: Wire,
    target: Target,
    limits: Limits,
}

impl Connection {
    /// Connects to an HTTP endpoint (one TCP connection, to tell an
    /// unreachable server at once) or spawns the command.
    pub fn open(target: &Target, limits: Limits) -> Result<Connection, OpenError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| OpenError::Unreachable(format!("cannot start the I/O runtime: {e}")))?;
        let wire = match target {
            Target::Http { url } => {
                let endpoint = Endpoint::parse(url).map_err(OpenError::Usage)?;
                let wire = runtime.block_on(http::HttpWire::open(endpoint, limits))?;
                Wire::Http(wire)
            }
            Target::Stdio { command } => {
                let _guard = runtime.enter();
                Wire::Stdio(stdio::StdioWire::spawn(command, limits)?)
            }
        };
        Ok(Connection {
            runtime,
            wire,
            target: target.clone(),
            limits,
        })
    }

    /// Runs one flow to its end (or to a limit) and returns what happened.
    pub fn run(&mut self, flow: &Flow) -> Run {
        let mut config = flow.client.clone();
        config.request_timeout_ms = Some(millis(self.limits.exchange));
        // A host that kills a run after minutes is the simulation's story;
        // here the run limit does that job.
        config.host_kill_ms = None;
        let transport = match self.wire {
            Wire::Http(_) => TransportKind::Http,
            Wire::Stdio(_) => TransportKind::Stdio,
        };
        let mut client = Client::new(config.clone(), flow.script.clone(), transport);
        client.set_frontmatter_reader(crate::frontmatter::read);
        let mut session = Session::new(client, self.limits);
        if let Wire::Http(wire) = &mut self.wire {
            // Each run is a session of its own: its GET stream too.
            wire.listen = listen::Listen::default();
        }
        match &mut self.wire {
            Wire::Http(wire) => self.runtime.block_on(http::run(wire, &mut session)),
            Wire::Stdio(wire) => self.runtime.block_on(stdio::run(wire, &mut session)),
        }
        // What the client did after the last message went out (a run that
        // was stopped may leave messages that never went out: recorded as
        // never arriving).
        while session.next_send().is_some() {}
        session.finish_problems();
        let problems = session.problems.clone();
        let timeline = session.rec.finish(
            &flow.label,
            transport,
            config.label(),
            self.target.label(),
            &problems,
        );
        Run { timeline, problems }
    }

    /// Sends `Authorization: Bearer TOKEN` with every request from now
    /// on (HTTP; nothing on stdio, where credentials come from the
    /// environment, A-HTTP-ONLY).
    pub fn set_bearer(&mut self, token: &str) {
        if let Wire::Http(wire) = &mut self.wire {
            wire.authorization = Some(format!("Bearer {token}"));
            wire.dpop = None;
        }
    }

    /// Sends `Authorization: DPoP TOKEN` with every request from now on,
    /// each with a fresh proof signed by `key` (A-DPOP-PRESENT; HTTP only).
    pub fn set_dpop(&mut self, token: &str, key: std::sync::Arc<crate::dpop::Key>) {
        if let Wire::Http(wire) = &mut self.wire {
            wire.dpop = Some(http::DpopAuth {
                key,
                token: token.to_string(),
                nonce: None,
            });
        }
    }

    /// The nonce the DPoP proofs carry: `Some(None)` while the token is
    /// DPoP-bound and no server asked for one, `None` without DPoP.
    pub fn dpop_nonce(&self) -> Option<Option<&str>> {
        match &self.wire {
            Wire::Http(wire) => wire.dpop.as_ref().map(|d| d.nonce.as_deref()),
            Wire::Stdio(_) => None,
        }
    }

    /// Puts `nonce` in every DPoP proof from now on (A-DPOP-NONCE).
    pub fn set_dpop_nonce(&mut self, nonce: String) {
        if let Wire::Http(wire) = &mut self.wire {
            if let Some(dpop) = wire.dpop.as_mut() {
                dpop.nonce = Some(nonce);
            }
        }
    }

    /// Closes the connection: a child gets end of input, then is killed if
    /// it has not exited within a second. Returns the last lines the child
    /// wrote on stderr, if any.
    pub fn close(self) -> Option<String> {
        match self.wire {
            Wire::Http(_) => None,
            Wire::Stdio(wire) => self.runtime.block_on(wire.close()),
        }
    }
}

/// Milliseconds of a duration, saturating.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A message the client sent, waiting to go on the wire.
#[derive(Debug, Clone)]
struct Outgoing {
    /// The exact text.
    text: String,
    /// The HTTP request, on HTTP.
    http: Option<HttpRequest>,
    /// Its event in the timeline.
    event: usize,
    /// The serial of the client's wait for its answer, if it waits for one.
    awaited: Option<u64>,
}

/// One run in progress: the client, the recorder and the problems so far.
struct Session {
    client: Client,
    rec: Recorder,
    limits: Limits,
    deadline: tokio::time::Instant,
    problems: Vec<Problem>,
    /// The revision of the last message the client sent: what the server's
    /// next messages follow.
    revision: ProtocolVersion,
    /// The client closed its connection.
    closed: bool,
    /// The run passed its limit.
    stopped: bool,
    /// Server messages that were not JSON-RPC.
    not_mcp: usize,
}

impl Session {
    fn new(client: Client, limits: Limits) -> Session {
        let rec = Recorder::new();
        let deadline = tokio::time::Instant::from_std(rec.started()) + limits.run;
        Session {
            client,
            rec,
            limits,
            deadline,
            problems: Vec::new(),
            revision: ProtocolVersion::modern(),
            closed: false,
            stopped: false,
            not_mcp: 0,
        }
    }

    /// Records a message from the server, read now. An answer that is not
    /// JSON-RPC (other than an empty 202) is a problem, counted once.
    fn received(
        &mut self,
        text: &str,
        http: Option<mcp_lanes_core::sim::HttpInfo>,
        note: mcp_lanes_core::note::Note,
    ) -> usize {
        let status = http.as_ref().and_then(|h| h.status);
        let revision = self.revision.clone();
        let index = self.rec.received(text, revision, http, note);
        let other = self.rec.is_other(index);
        let accepted = text.is_empty() && status == Some(202);
        if other && !accepted {
            self.not_mcp += 1;
            if self.not_mcp == 1 {
                let what = match (status, text.is_empty()) {
                    (Some(s), true) => mcp_lanes_core::note!(
                        "driver.problem.http_no_body",
                        "an HTTP {status} answer without a body",
                        status = s
                    ),
                    (Some(s), false) => mcp_lanes_core::note!(
                        "driver.problem.http_not_jsonrpc",
                        "an HTTP {status} answer whose body is not JSON-RPC",
                        status = s
                    ),
                    (None, _) => mcp_lanes_core::note!(
                        "driver.problem.line_not_jsonrpc",
                        "a line that is not JSON-RPC"
                    ),
                };
                self.problem(
                    ProblemKind::NotMcp,
                    mcp_lanes_core::note!(
                        "driver.problem.not_mcp",
                        "the server sent {what}: is it an MCP server?",
                        what = what
                    ),
                );
            }
        }
        index
    }

    /// Stops a run whose server floods it (once).
    fn flooded(&mut self) -> bool {
        if self.rec.len() < MAX_EVENTS {
            return false;
        }
        if !self.stopped {
            self.stopped = true;
            self.rec.push(
                EventKind::HostKill,
                vec![rules::C_EXCHANGE_FAILED],
                mcp_lanes_core::note!(
                    "driver.flood",
                    "The run reached {max} events: the server floods the client, and mcp-lanes stops the run.",
                    max = MAX_EVENTS
                ),
            );
            self.problem(
                ProblemKind::Flood,
                mcp_lanes_core::note!(
                    "driver.problem.flood",
                    "the server sent so much that the run reached {max} events",
                    max = MAX_EVENTS
                ),
            );
        }
        true
    }

    /// Folds the count of non-JSON-RPC answers into its problem.
    fn finish_problems(&mut self) {
        let count = self.not_mcp;
        if count > 1 {
            if let Some(p) = self
                .problems
                .iter_mut()
                .find(|p| p.kind == ProblemKind::NotMcp)
            {
                p.detail.push(mcp_lanes_core::note!(
                    "driver.problem.such_answers",
                    "({count} such answers)",
                    count = count
                ));
            }
        }
    }

    fn now(&self) -> SimTime {
        self.rec.now()
    }

    /// The wall-clock instant of a client deadline.
    fn instant(&self, at: SimTime) -> tokio::time::Instant {
        tokio::time::Instant::from_std(self.rec.started()) + Duration::from_millis(at.as_millis())
    }

    /// The client's next deadline, capped by the run's.
    fn next_deadline(&self) -> Option<tokio::time::Instant> {
        self.client
            .poll_timeout()
            .map(|t| self.instant(t).min(self.deadline))
    }

    fn over_time(&self) -> bool {
        tokio::time::Instant::now() >= self.deadline
    }

    fn problem(&mut self, kind: ProblemKind, detail: mcp_lanes_core::note::Note) {
        let at_ms = self.now().as_millis();
        self.problems.push(Problem {
            at_ms,
            kind,
            detail,
        });
    }

    /// Ends a run whose client is not done yet waits on no answer and has
    /// no deadline: nothing can move it on, so the run ends now instead of
    /// at its limit (no flow waits on nothing).
    fn stalled(&mut self) {
        self.rec.push(
            EventKind::Decision { side: Side::Client },
            vec![rules::C_EXCHANGE_FAILED],
            mcp_lanes_core::note!(
                "driver.stalled",
                "The client waits on no answer and has no deadline: nothing can happen, and the run ends here."
            ),
        );
        self.problem(
            ProblemKind::Stalled,
            mcp_lanes_core::note!(
                "driver.problem.stalled",
                "the client was left with nothing to wait for"
            ),
        );
    }

    /// Stops a run that passed its limit (once).
    fn stop_run(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let limit = self.limits.run.as_secs();
        self.rec.push(
            EventKind::HostKill,
            vec![rules::L_TIMEOUT, rules::C_EXCHANGE_FAILED],
            mcp_lanes_core::note!(
                "driver.run_limit",
                "The run passed its {limit} s limit: mcp-lanes stops it. Nothing more is sent.",
                limit = limit
            ),
        );
        self.problem(
            ProblemKind::RunTooLong,
            mcp_lanes_core::note!(
                "driver.problem.run_limit",
                "the run passed its {limit} s limit",
                limit = limit
            ),
        );
    }

    /// An exchange failed: the client hears of it when it waits on it
    /// (`awaited`); otherwise the failure is recorded as a dropped message,
    /// `lost` saying what became of it ("got no answer").
    fn exchange_failed(
        &mut self,
        awaited: Option<u64>,
        failure: TransportFailure,
        lost: mcp_lanes_core::note::Note,
    ) {
        let detail = failure.describe();
        // The transport's own words.
        self.problem(ProblemKind::Exchange, detail.clone().into());
        if self.still_awaits(awaited) {
            let now = self.now();
            self.client.handle_failure(now, &failure);
        } else {
            self.rec.push(
                EventKind::Dropped {
                    side: Side::Client,
                    what: detail.clone(),
                },
                vec![rules::C_EXCHANGE_FAILED],
                mcp_lanes_core::note!(
                    "driver.nobody_waits",
                    "A message nobody waits on {lost}: {detail}.",
                    lost = lost,
                    detail = detail
                ),
            );
        }
    }

    /// Whether the client still waits on the wait `awaited` names.
    fn still_awaits(&self, awaited: Option<u64>) -> bool {
        awaited.is_some() && self.client.awaited().map(|a| a.serial) == awaited
    }

    /// Records what the client did up to its next message and returns
    /// that message, marked when it is the one whose answer the client
    /// awaits; `None` when it has nothing to send now. One message at a
    /// time, so a message is recorded when it goes on the wire.
    fn next_send(&mut self) -> Option<Outgoing> {
        while let Some(out) = self.client.poll_output() {
            // A silent probe is an answer on stdio (legacy), not a problem.
            let probe = out.rules.contains(&rules::E_PROBE_STDIO);
            let timeout = match &out.action {
                ClientAction::Record(EventKind::Timeout { request_id, .. }) if !probe => {
                    Some(request_id.clone())
                }
                _ => None,
            };
            match self.rec.client_output(out) {
                Recorded::Sent {
                    event,
                    text,
                    http,
                    revision,
                } => {
                    self.revision = revision;
                    let awaited = self
                        .client
                        .awaited()
                        .filter(|a| request_id(&text) == a.id)
                        .map(|a| a.serial);
                    return Some(Outgoing {
                        text,
                        http,
                        event,
                        awaited,
                    });
                }
                Recorded::Noted { .. } => {
                    if let Some(id) = timeout {
                        let exchange = self.limits.exchange.as_millis();
                        self.problem(
                            ProblemKind::Timeout,
                            mcp_lanes_core::note!(
                                "driver.problem.timeout_id",
                                "no answer to request {id} within {ms} ms",
                                id = id,
                                ms = exchange
                            ),
                        );
                    }
                }
                Recorded::Closed { .. } => self.closed = true,
                // Anything newer is recorded already and has nothing to send.
                _ => {}
            }
        }
        None
    }
}
