//! The timeline of a real run, built as the engine builds a simulated one:
//! events in the order they happened, each stamped with the wall-clock
//! milliseconds since the run started (`at_ms`), messages with their exact
//! wire text and HTTP info.

use std::time::Instant;

use mcp_lanes_core::note::Note;
use mcp_lanes_core::protocol::ProtocolVersion;
use mcp_lanes_core::rules::RuleId;
use mcp_lanes_core::sim::{
    message_event, Event, EventKind, HttpInfo, Side, SimTime, Summary, Timeline,
};
use mcp_lanes_core::transport::TransportKind;

use super::Problem;

/// Collects the events of one run.
pub(super) struct Recorder {
    started: Instant,
    events: Vec<Event>,
    /// The narration the next event carries (a scenario's `say`).
    narration: Option<String>,
}

impl Recorder {
    /// Starts the clock.
    pub(super) fn new() -> Recorder {
        Recorder {
            started: Instant::now(),
            events: Vec::new(),
            narration: None,
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

    /// The next event carries this narration (the client's output did).
    pub(super) fn narrate(&mut self, narration: Option<String>) {
        if narration.is_some() {
            self.narration = narration;
        }
    }

    /// Records an event now; returns its index.
    pub(super) fn push(
        &mut self,
        kind: EventKind,
        rules: Vec<RuleId>,
        note: impl Into<Note>,
    ) -> usize {
        let index = self.events.len();
        let (note, note_msg) = note.into().into_parts();
        self.events.push(Event {
            index,
            at_ms: self.now().as_millis(),
            kind,
            rules,
            note,
            note_msg,
            narration: self.narration.take(),
        });
        index
    }

    /// Records a message sent (client) or received (server) now. A server
    /// message is delivered when it is read; a client message when its
    /// answer starts to arrive ([`Recorder::delivered`]), or never.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn message(
        &mut self,
        from: Side,
        text: &str,
        revision: ProtocolVersion,
        violation: Option<Note>,
        http: Option<HttpInfo>,
        rules: Vec<RuleId>,
        note: impl Into<Note>,
    ) -> usize {
        let empty_http_status = match (&http, from) {
            (Some(info), Side::Server) if text.is_empty() => info.status,
            _ => None,
        };
        let mut msg = message_event(from, text, revision, violation, http);
        if let Some(status) = empty_http_status {
            msg.label = format!("{status} {}", reason(status));
        }
        if from == Side::Server {
            msg.delivered_at_ms = Some(self.now().as_millis());
        }
        self.push(EventKind::Message(msg), rules, note)
    }

    /// How many events so far.
    pub(super) fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether event `index` is a message that is not JSON-RPC.
    pub(super) fn is_other(&self, index: usize) -> bool {
        self.events
            .get(index)
            .and_then(|e| e.message())
            .is_some_and(|m| m.kind == mcp_lanes_core::sim::MessageKind::Other)
    }

    /// Marks a client message as arrived now (its answer began).
    pub(super) fn delivered(&mut self, index: usize) {
        let now = self.now().as_millis();
        if let Some(EventKind::Message(m)) = self.events.get_mut(index).map(|e| &mut e.kind) {
            if m.delivered_at_ms.is_none() {
                m.delivered_at_ms = Some(now);
            }
        }
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
        let ended_at_ms = self.events.last().map(|e| e.at_ms).unwrap_or(0);
        let last = self
            .events
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
            events: self.events,
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
