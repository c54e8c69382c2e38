//! The timeline of a real run: the core's [`CoreRecorder`] (the one the
//! simulator and the page's live check use) on the wall clock: events in
//! the order they happened, each stamped with the milliseconds since the
//! run started (`at_ms`), messages with their exact wire text and HTTP
//! info.

use std::time::Instant;

use mcp_lanes_core::client::ClientOutput;
use mcp_lanes_core::note::Note;
use mcp_lanes_core::protocol::ProtocolVersion;
use mcp_lanes_core::rules::RuleId;
use mcp_lanes_core::sim::{
    EventKind, HttpInfo, Recorded, Recorder as CoreRecorder, Side, SimTime, Summary, Timeline,
};
use mcp_lanes_core::transport::TransportKind;

use super::Problem;

/// Collects the events of one run, on the wall clock.
pub(super) struct Recorder {
    started: Instant,
    rec: CoreRecorder,
}

impl Recorder {
    /// Starts the clock.
    pub(super) fn new() -> Recorder {
        Recorder {
            started: Instant::now(),
            rec: CoreRecorder::new(),
        }
    }

    /// When the run started.
    pub(super) fn started(&self) -> Instant {
        self.started
    }

    /// Milliseconds since the run started, as the core's time.
    pub(super) fn now(&self) -> SimTime {
        SimTime::from_millis(u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX))
    }

    /// Records one output of the client now.
    pub(super) fn client_output(&mut self, out: ClientOutput) -> Recorded {
        let now = self.now().as_millis();
        self.rec.client_output(now, out)
    }

    /// Records an event now; returns its index.
    pub(super) fn push(
        &mut self,
        kind: EventKind,
        rules: Vec<RuleId>,
        note: impl Into<Note>,
    ) -> usize {
        let now = self.now().as_millis();
        self.rec.push(now, kind, rules, note)
    }

    /// Records a message received from the server now. An empty HTTP
    /// answer is labelled with its status.
    pub(super) fn received(
        &mut self,
        text: &str,
        revision: ProtocolVersion,
        http: Option<HttpInfo>,
        note: impl Into<Note>,
    ) -> usize {
        let empty_http_status = match &http {
            Some(info) if text.is_empty() => info.status,
            _ => None,
        };
        let now = self.now().as_millis();
        let index = self.rec.message(
            now,
            Side::Server,
            text,
            revision,
            None,
            http,
            Vec::new(),
            note,
        );
        if let (Some(status), Some(EventKind::Message(msg))) = (
            empty_http_status,
            self.rec.event_mut(index).map(|e| &mut e.kind),
        ) {
            msg.label = format!("{status} {}", reason(status));
        }
        index
    }

    /// How many events so far.
    pub(super) fn len(&self) -> usize {
        self.rec.len()
    }

    /// Whether event `index` is a message that is not JSON-RPC.
    pub(super) fn is_other(&self, index: usize) -> bool {
        self.rec.is_other(index)
    }

    /// Marks a client message as arrived now (its answer began).
    pub(super) fn delivered(&mut self, index: usize) {
        let now = self.now().as_millis();
        self.rec.delivered(index, now);
    }

    /// The finished timeline.
    pub(super) fn finish(
        self,
        label: &str,
        transport: TransportKind,
        client_label: String,
        server_label: String,
        problems: &[Problem],
    ) -> Timeline {
        let events = self.rec.into_events();
        let ended_at_ms = events.last().map(|e| e.at_ms).unwrap_or(0);
        let last = events
            .iter()
            .rev()
            .find_map(|e| e.message().map(|m| (m.from, m.label.clone())));
        let mut outcome = match last {
            Some((Side::Server, label)) => mcp_lanes_core::note!(
                "driver.last_from_server",
                "Last message: {label} from the server.",
                label = label
            ),
            Some((_, label)) => mcp_lanes_core::note!(
                "driver.last_from_client",
                "Last message: {label} from the client.",
                label = label
            ),
            None => mcp_lanes_core::note!("driver.no_message", "No message was exchanged."),
        };
        outcome.push(match problems.len() {
            0 => mcp_lanes_core::note!("driver.real_run", "A real run, timed by the wall clock."),
            n => mcp_lanes_core::note!(
                "driver.real_run_problems",
                "A real run with {count} problem(s) below the protocol: {problems}.",
                count = n,
                problems = problems
                    .iter()
                    .map(|p| p.detail.clone())
                    .reduce(|list, next| mcp_lanes_core::note!(
                        "driver.problems_join",
                        "{list}; {next}",
                        list = list,
                        next = next
                    ))
                    .unwrap_or_default()
            ),
        });
        let (outcome, outcome_msg) = outcome.into_parts();
        Timeline {
            label: label.to_string(),
            transport,
            client_label,
            server_label,
            actors: Vec::new(),
            events,
            summary: Summary {
                leaked_locks: 0,
                ended_at_ms,
                outcome,
                outcome_msg,
            },
        }
    }
}

/// The reason phrase of a status the core has none for.
fn reason(status: u16) -> &'static str {
    match mcp_lanes_core::transport::http::reason(status) {
        "" => match status {
            401 => "Unauthorized",
            406 => "Not Acceptable",
            408 => "Request Timeout",
            415 => "Unsupported Media Type",
            429 => "Too Many Requests",
            431 => "Request Header Fields Too Large",
            502 => "Bad Gateway",
            503 => "Service Unavailable",
            _ => "(no body)",
        },
        known => known,
    }
}
