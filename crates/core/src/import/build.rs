//! A lane's messages, as a format module read them ([`Entry`]), made into
//! the [`Timeline`] the page draws and the grader judges: each message's
//! sender (`direction`), revision (`era`), kind and label (the simulator's
//! own [`crate::sim::message_event`]), and times: the recording's where it
//! has them, else one [`STEP_MS`] per message, as the simulator spaces a
//! run.

use serde_json::Value;

use super::{direction, era, STEP_MS};
use crate::note::Note;
use crate::protocol::meta;
use crate::sim::{message_event, Actor, Event, EventKind, HttpInfo, Side, Summary, Timeline};
use crate::transport::TransportKind;

/// One message as a format module read it.
#[derive(Debug, Clone, Default)]
pub(super) struct Entry {
    /// Its exact text: the JSON-RPC message, an HTTP body, an SSE event's
    /// data; empty for a body-less HTTP answer (a 202).
    pub wire: String,
    /// Who sent it, when the recording says so.
    pub from: Option<Side>,
    /// The recording says who sent it is unknown (`"direction": "undecided"`).
    pub undecided: bool,
    /// Marked as a message of an earlier revision (`"legacy": true`), or
    /// of the modern one (`false`, as mcp-lanes writes it); `None`: read
    /// from the message.
    pub legacy: Option<bool>,
    /// Marked as deliberately wrong, and why.
    pub violation: Option<String>,
    /// The HTTP request or response around it.
    pub http: Option<HttpInfo>,
    /// When it was sent, if the recording says.
    pub at_ms: Option<u64>,
    /// When it arrived, if the recording says.
    pub delivered_ms: Option<u64>,
    /// Not a message: the side `from` left, and how (the event's note).
    pub departure: Option<Note>,
    /// The two actors of a hop through a gateway or to an authorization
    /// server (`"between": "client->gateway"`).
    pub between: Option<(Actor, Actor)>,
}

/// The timeline of one lane called `label`, read from `source`.
pub(super) fn lane(label: &str, source: &str, entries: Vec<Entry>) -> Timeline {
    let times = times(&entries);
    // A side that left is no message: who sent what, and the eras, are
    // read from the messages alone.
    let mut departures: Vec<(usize, Side, Note, u64)> = Vec::new();
    let mut kept = Vec::with_capacity(entries.len());
    let mut kept_times = Vec::with_capacity(entries.len());
    for (entry, time) in entries.into_iter().zip(times) {
        match entry.departure {
            Some(note) => {
                departures.push((kept.len(), entry.from.unwrap_or(Side::Client), note, time.0))
            }
            None => {
                kept.push(entry);
                kept_times.push(time);
            }
        }
    }
    let (entries, times) = (kept, kept_times);
    let json: Vec<Option<Value>> = entries
        .iter()
        .map(|e| serde_json::from_str(&e.wire).ok())
        .collect();
    let sides = direction::decide(&entries, &json);
    let revisions = era::revisions(&entries, &json);
    let transport = if entries.iter().any(|e| e.http.is_some()) {
        TransportKind::Http
    } else {
        TransportKind::Stdio
    };
    let mut events = Vec::with_capacity(entries.len() + departures.len());
    let mut ended = 0u64;
    let mut departures = departures.into_iter().peekable();
    for (n, (((entry, side), revision), (at, delivered))) in entries
        .into_iter()
        .zip(sides)
        .zip(revisions)
        .zip(times)
        .enumerate()
    {
        while let Some((_, side, note, at)) = departures.next_if(|d| d.0 == n) {
            ended = ended.max(at);
            events.push(left(events.len(), side, note, at));
        }
        let violation = entry.violation.map(Note::from);
        let between = entry.between;
        let mut message = message_event(
            *side.as_ref().unwrap_or(&Side::Client),
            &entry.wire,
            revision,
            violation,
            entry.http,
        );
        message.delivered_at_ms = Some(delivered);
        if let (Some((from, to)), Ok(side)) = (between, &side) {
            if (from, to) != (Actor::of(*side), Actor::of(side.peer())) {
                message.from_actor = Some(from);
                message.to_actor = Some(to);
            }
        }
        let note = match (&side, &message.violation) {
            (Err(why), _) => crate::note!(
                "import.undecided",
                "Who sent this is not known: {why}.",
                why = why.clone()
            ),
            (Ok(_), Some(why)) => crate::note!(
                "import.violation",
                "Marked as a deliberate violation: {why}",
                why = why.clone()
            ),
            (Ok(Side::Client), None) => crate::note!(
                "import.client_sent",
                "Recorded: the client sent {label}.",
                label = message.label.clone()
            ),
            (Ok(Side::Server), None) => crate::note!(
                "import.server_sent",
                "Recorded: the server sent {label}.",
                label = message.label.clone()
            ),
        };
        if let Err(why) = side {
            let (text, msg) = why.into_parts();
            message.undecided = Some(text);
            message.undecided_msg = msg;
        }
        let (note, note_msg) = note.into_parts();
        ended = ended.max(delivered);
        events.push(Event {
            index: events.len(),
            at_ms: at,
            kind: EventKind::Message(message),
            rules: Vec::new(),
            note,
            note_msg,
            narration: None,
            actor: None,
        });
    }
    for (_, side, note, at) in departures {
        ended = ended.max(at);
        events.push(left(events.len(), side, note, at));
    }
    let messages = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Message(_)))
        .count();
    let (client_label, server_label) = names(&json);
    // The columns: the client and the server, and any other actor a hop
    // names, in their usual order.
    let named: Vec<Actor> = events
        .iter()
        .filter_map(Event::message)
        .flat_map(|m| [m.ends().0, m.ends().1])
        .collect();
    let actors = if named
        .iter()
        .any(|a| !matches!(a, Actor::Client | Actor::Server))
    {
        Actor::ALL
            .into_iter()
            .filter(|a| matches!(a, Actor::Client | Actor::Server) || named.contains(a))
            .collect()
    } else {
        Vec::new()
    };
    let (outcome, outcome_msg) = if messages == 1 {
        crate::note!(
            "import.outcome_one",
            "1 message recorded in {source}.",
            source = source
        )
    } else {
        crate::note!(
            "import.outcome",
            "{count} messages recorded in {source}.",
            count = messages,
            source = source
        )
    }
    .into_parts();
    Timeline {
        label: label.to_string(),
        transport,
        client_label,
        server_label,
        actors,
        events,
        summary: Summary {
            leaked_locks: 0,
            ended_at_ms: ended,
            outcome,
            outcome_msg,
        },
    }
}

/// Event `index`: `side` left at `at`, as `note` says.
fn left(index: usize, side: Side, note: Note, at: u64) -> Event {
    let (note, note_msg) = note.into_parts();
    Event {
        index,
        at_ms: at,
        kind: EventKind::Disconnected { side },
        rules: Vec::new(),
        note,
        note_msg,
        narration: None,
        actor: None,
    }
}

/// A timeline with nothing in it.
pub(super) fn empty(label: &str) -> Timeline {
    lane(label, label, Vec::new())
}

/// Each entry's send and arrival time: the recording's, kept in order
/// (a time before the previous message's is taken as the previous one's),
/// else a step after the previous message; a message arrives when the
/// recording says, else a step later or when the next one is sent,
/// whichever comes first.
fn times(entries: &[Entry]) -> Vec<(u64, u64)> {
    let mut sent = Vec::with_capacity(entries.len());
    let mut last: Option<u64> = None;
    for e in entries {
        let at = match (e.at_ms, last) {
            (Some(at), Some(l)) => at.max(l),
            (Some(at), None) => at,
            (None, Some(l)) => l.saturating_add(STEP_MS),
            (None, None) => 0,
        };
        last = Some(at);
        sent.push(at);
    }
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let at = sent[i];
            let step = at.saturating_add(STEP_MS);
            let delivered = match e.delivered_ms {
                Some(d) => d.max(at),
                None => sent.get(i + 1).map_or(step, |next| (*next).clamp(at, step)),
            };
            (at, delivered)
        })
        .collect()
}

/// The lane's client and server names: `clientInfo` / `serverInfo` of an
/// initialize, or the `_meta` clientInfo / serverInfo of a modern message;
/// "client" and "server" without them.
fn names(json: &[Option<Value>]) -> (String, String) {
    let name = |v: Option<&Value>| {
        v.and_then(|i| i.get("name"))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let mut client = None;
    let mut server = None;
    for body in json.iter().flatten() {
        let params = body.get("params");
        let result = body.get("result");
        if client.is_none() {
            client = name(params.and_then(|p| p.get("clientInfo"))).or_else(|| {
                name(
                    params
                        .and_then(|p| p.get("_meta"))
                        .and_then(|m| m.get(meta::CLIENT_INFO)),
                )
            });
        }
        if server.is_none() {
            server = name(result.and_then(|r| r.get("serverInfo"))).or_else(|| {
                name(
                    result
                        .and_then(|r| r.get("_meta"))
                        .and_then(|m| m.get(meta::SERVER_INFO)),
                )
            });
        }
        if client.is_some() && server.is_some() {
            break;
        }
    }
    (
        client.unwrap_or_else(|| "client".to_string()),
        server.unwrap_or_else(|| "server".to_string()),
    )
}
