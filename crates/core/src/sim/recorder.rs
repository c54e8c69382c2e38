//! The one recorder: turns what a client does ([`ClientOutput`]) and what a
//! transport sees (a message read, a message delivered, a failure) into
//! timeline [`Event`]s, in the order they happen, each stamped with the
//! milliseconds its caller's clock says (virtual time in the simulator,
//! the wall clock in `mcp-lanes client`/`check`, the page's clock in a live
//! check). The simulator, the CLI's drivers and the page's live check all
//! record through it, so a message, a narration or a close is recorded the
//! same way everywhere.

use serde_json::Value;

use super::engine::message_event;
use super::timeline::{Event, EventKind, HttpInfo, MessageKind, Side};
use crate::client::{ClientAction, ClientOutput};
use crate::note::Note;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::ProtocolVersion;
use crate::rules::RuleId;
use crate::transport::HttpRequest;

/// What one client output became.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Recorded {
    /// The client sent a message (recorded as event `event`): the caller
    /// puts `text` (or `http`, on HTTP) on its wire.
    Sent {
        /// The message's event.
        event: usize,
        /// The exact wire text.
        text: String,
        /// The HTTP request, on HTTP.
        http: Option<HttpRequest>,
        /// The revision the message follows.
        revision: ProtocolVersion,
    },
    /// Something without a message (a decision, a timeout, a cache hit),
    /// recorded as event `event`.
    Noted {
        /// Its event.
        event: usize,
    },
    /// The client closed its connection (event `event`).
    Closed {
        /// Its event.
        event: usize,
    },
}

/// Collects the events of one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorder {
    events: Vec<Event>,
    /// The narration the next event carries (a scenario's `say`).
    narration: Option<String>,
}

impl Recorder {
    /// An empty recording.
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// The next event carries this narration (when there is one).
    pub fn narrate(&mut self, narration: Option<String>) {
        if narration.is_some() {
            self.narration = narration;
        }
    }

    /// Drops the narration waiting for the next event (what led to it
    /// recorded nothing), and returns it.
    pub fn take_narration(&mut self) -> Option<String> {
        self.narration.take()
    }

    /// Records an event at `at_ms`; returns its index.
    pub fn push(
        &mut self,
        at_ms: u64,
        kind: EventKind,
        rules: Vec<RuleId>,
        note: impl Into<Note>,
    ) -> usize {
        let index = self.events.len();
        let (note, note_msg) = note.into().into_parts();
        self.events.push(Event {
            index,
            at_ms,
            kind,
            rules,
            note,
            note_msg,
            narration: self.narration.take(),
            actor: None,
        });
        index
    }

    /// Records a message sent (client) or read (server) at `at_ms`. A
    /// server message counts as delivered when it is read; a client
    /// message when [`Recorder::delivered`] says so, or never.
    #[allow(clippy::too_many_arguments)]
    pub fn message(
        &mut self,
        at_ms: u64,
        from: Side,
        text: &str,
        revision: ProtocolVersion,
        violation: Option<Note>,
        http: Option<HttpInfo>,
        rules: Vec<RuleId>,
        note: impl Into<Note>,
    ) -> usize {
        let mut msg = message_event(from, text, revision, violation, http);
        if from == Side::Server {
            msg.delivered_at_ms = Some(at_ms);
        }
        self.push(at_ms, EventKind::Message(msg), rules, note)
    }

    /// Records one output of the client at `at_ms`: its narration, and the
    /// message it sent, what it noted, or its close.
    pub fn client_output(&mut self, at_ms: u64, out: ClientOutput) -> Recorded {
        self.narrate(out.narration);
        match out.action {
            ClientAction::Send {
                text,
                http,
                revision,
                violation,
            } => {
                let info = http.as_ref().map(|r| HttpInfo {
                    method: Some(r.method.clone()),
                    status: None,
                    headers: r.headers.clone(),
                    event_id: None,
                });
                let event = self.message(
                    at_ms,
                    Side::Client,
                    &text,
                    revision.clone(),
                    violation,
                    info,
                    out.rules,
                    out.note,
                );
                Recorded::Sent {
                    event,
                    text,
                    http,
                    revision,
                }
            }
            ClientAction::Record(kind) => Recorded::Noted {
                event: self.push(at_ms, kind, out.rules, out.note),
            },
            ClientAction::Close => Recorded::Closed {
                event: self.push(
                    at_ms,
                    EventKind::Disconnected { side: Side::Client },
                    out.rules,
                    out.note,
                ),
            },
        }
    }

    /// Marks message `index` as arrived at `at_ms` (the first time only).
    pub fn delivered(&mut self, index: usize, at_ms: u64) {
        if let Some(EventKind::Message(m)) = self.events.get_mut(index).map(|e| &mut e.kind) {
            if m.delivered_at_ms.is_none() {
                m.delivered_at_ms = Some(at_ms);
            }
        }
    }

    /// The events so far.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Event `index`, if recorded.
    pub fn event_mut(&mut self, index: usize) -> Option<&mut Event> {
        self.events.get_mut(index)
    }

    /// How many events so far.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// Whether event `index` is a message that is not JSON-RPC.
    pub fn is_other(&self, index: usize) -> bool {
        self.events
            .get(index)
            .and_then(|e| e.message())
            .is_some_and(|m| m.kind == MessageKind::Other)
    }

    /// The recorded events.
    pub fn into_events(self) -> Vec<Event> {
        self.events
    }
}

/// The id of a JSON-RPC message's text, if it has one.
pub fn request_id(text: &str) -> Option<RequestId> {
    serde_json::from_str::<Value>(text)
        .ok()
        .as_ref()
        .and_then(|v| v.get("id"))
        .and_then(RequestId::from_json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narration_goes_with_the_next_event_and_server_messages_are_delivered_when_read() {
        let mut rec = Recorder::new();
        rec.narrate(Some("Watch the id.".into()));
        rec.narrate(None);
        let sent = rec.message(
            5,
            Side::Client,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            ProtocolVersion::modern(),
            None,
            None,
            Vec::new(),
            "sent",
        );
        let read = rec.message(
            9,
            Side::Server,
            "not json",
            ProtocolVersion::modern(),
            None,
            None,
            Vec::new(),
            "read",
        );
        rec.delivered(sent, 7);
        rec.delivered(sent, 8);
        let events = rec.events();
        assert_eq!(events[0].narration.as_deref(), Some("Watch the id."));
        assert_eq!(events[1].narration, None);
        assert_eq!(events[0].message().and_then(|m| m.delivered_at_ms), Some(7));
        assert_eq!(events[1].message().and_then(|m| m.delivered_at_ms), Some(9));
        assert!(rec.is_other(read));
        assert_eq!(
            request_id(r#"{"id":"a"}"#),
            Some(RequestId::Text("a".into()))
        );
    }
}
