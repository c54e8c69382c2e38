//! SSE streams that stay open after their response's first bytes, in both
//! eras, and the one way a later message names the stream it travels on:
//! the response that opens a stream carries its key
//! ([`HttpResponse::stream`](crate::transport::http::HttpResponse::stream)),
//! and every later message for it is an output tagged with an [`SseEvent`]
//! naming that key. A driver needs nothing else to route it.
//!
//! Two kinds of stream carry such events:
//!
//! - **Listen streams** (2026-07-28, `subscriptions/listen`, key
//!   `listen-N`): the stream is the subscription (M-LISTEN-FILTER). Its
//!   events have no id: a modern server keeps no session to resume against
//!   (H-SESSION), so a client that loses the stream listens again. Its
//!   client going away ends the subscription ([`Server::stream_closed`]).
//! - **Streams of legacy HTTP sessions** (H-SSE-STREAM, H-SSE-RESUME, key
//!   `SESSION/NUMBER`), kept here per session with their events.
//!
//! A legacy POST whose reply has to wait opens a stream for that request: the
//! server's messages for it travel there, and the request's JSON-RPC
//! response is the last event. A GET opens the session's standalone
//! stream (number 0) for messages unrelated to any request. Every event
//! gets the id `STREAM-N` (unique in the session); a GET with
//! `Last-Event-ID: STREAM-N` gets that stream's events after N again, and
//! the stream's later events if it is still open. Events are kept per
//! stream, bounded, until the session ends.

use std::collections::VecDeque;

use serde_json::Value;

use crate::protocol::jsonrpc::RequestId;
#[cfg(doc)]
use crate::server::Server;

/// Events kept per stream for replay; older ones are forgotten.
pub const KEPT_EVENTS: usize = 64;
/// Streams kept per session; the oldest finished one goes first.
pub const KEPT_STREAMS: usize = 16;

/// An event the server sends on an SSE stream that stays open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The stream, unique in this server (`SESSION/NUMBER` or `listen-N`):
    /// the [`crate::transport::http::HttpResponse::stream`] of the response
    /// that opened or resumed it.
    pub stream: String,
    /// The event id (`NUMBER-SEQ`, unique in the session) on streams of
    /// legacy sessions; `None` on listen streams, which cannot be resumed.
    pub id: Option<String>,
    /// Whether this event ends the stream (it carries the response to the
    /// request that opened it).
    pub closes: bool,
}

impl SseEvent {
    /// The event as `text/event-stream` bytes carrying `data`.
    pub fn frame(&self, data: &str) -> String {
        crate::transport::http::sse_event(self.id.as_deref(), data)
    }
}

/// One stream of a session.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Stream {
    /// 0 for the standalone GET stream, then 1, 2, ... per deferred POST.
    pub number: u32,
    /// The POSTed request it answers (`None` for the GET stream).
    pub request: Option<RequestId>,
    /// Events sent so far: (sequence number, data), the latest
    /// [`KEPT_EVENTS`].
    pub sent: VecDeque<(u32, String)>,
    /// The next sequence number.
    pub next_seq: u32,
    /// Whether its last event (the response) has been sent.
    pub done: bool,
}

/// The streams of one session.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Streams {
    list: Vec<Stream>,
    next_number: u32,
}

impl Streams {
    /// Opens a stream for the POSTed request `request`; its number.
    pub fn open_for(&mut self, request: RequestId) -> u32 {
        self.next_number += 1;
        let number = self.next_number;
        self.push(Stream {
            number,
            request: Some(request),
            sent: VecDeque::new(),
            next_seq: 1,
            done: false,
        });
        number
    }

    /// Opens the standalone stream (number 0) unless it is open already.
    pub fn open_standalone(&mut self) {
        if self.get(0).is_none() {
            self.push(Stream {
                number: 0,
                request: None,
                sent: VecDeque::new(),
                next_seq: 1,
                done: false,
            });
        }
    }

    fn push(&mut self, stream: Stream) {
        if self.list.len() >= KEPT_STREAMS {
            let oldest_done = self.list.iter().position(|s| s.done);
            self.list.remove(oldest_done.unwrap_or(0));
        }
        self.list.push(stream);
    }

    /// Stream `number`, if kept.
    pub fn get(&self, number: u32) -> Option<&Stream> {
        self.list.iter().find(|s| s.number == number)
    }

    /// The open stream answering `request`, if any.
    pub fn answering(&self, request: &RequestId) -> Option<u32> {
        self.list
            .iter()
            .find(|s| !s.done && s.request.as_ref() == Some(request))
            .map(|s| s.number)
    }

    /// Whether the standalone stream is open.
    pub fn has_standalone(&self) -> bool {
        self.get(0).is_some()
    }

    /// Records `message` as the next event of stream `number`; its event id
    /// (`None` if there is no such stream).
    pub fn record(&mut self, number: u32, message: &Value, closes: bool) -> Option<String> {
        let stream = self.list.iter_mut().find(|s| s.number == number)?;
        let seq = stream.next_seq;
        stream.next_seq += 1;
        if stream.sent.len() >= KEPT_EVENTS {
            stream.sent.pop_front();
        }
        stream.sent.push_back((seq, message.to_string()));
        if closes {
            stream.done = true;
        }
        Some(event_id(number, seq))
    }

    /// Records the priming event of stream `number` (an id and no data:
    /// H-SSE-POLL); its event id.
    pub fn prime(&mut self, number: u32) -> Option<String> {
        let stream = self.list.iter_mut().find(|s| s.number == number)?;
        let seq = stream.next_seq;
        stream.next_seq += 1;
        if stream.sent.len() >= KEPT_EVENTS {
            stream.sent.pop_front();
        }
        stream.sent.push_back((seq, String::new()));
        Some(event_id(number, seq))
    }

    /// Whether stream `number` is kept and still open.
    pub fn is_open(&self, number: u32) -> bool {
        self.get(number).is_some_and(|s| !s.done)
    }
}

/// The event id of event `seq` of stream `number`.
pub fn event_id(number: u32, seq: u32) -> String {
    format!("{number}-{seq}")
}

/// Reads an event id back: (stream number, sequence number).
pub fn parse_event_id(id: &str) -> Option<(u32, u32)> {
    let (number, seq) = id.trim().split_once('-')?;
    Some((number.parse().ok()?, seq.parse().ok()?))
}

/// The server-wide key of stream `number` of the session with id `session`.
pub fn stream_key(session: &str, number: u32) -> String {
    format!("{session}/{number}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn streams_number_events_and_keep_a_bounded_tail() {
        let mut streams = Streams::default();
        let one = streams.open_for(RequestId::Number(5));
        assert_eq!(one, 1);
        assert_eq!(streams.answering(&RequestId::Number(5)), Some(1));
        assert_eq!(streams.record(1, &json!(1), false).as_deref(), Some("1-1"));
        assert_eq!(streams.record(1, &json!(2), true).as_deref(), Some("1-2"));
        assert_eq!(streams.answering(&RequestId::Number(5)), None);
        assert!(!streams.is_open(1));
        assert_eq!(streams.record(9, &json!(0), false), None);
        streams.open_standalone();
        for i in 0..(KEPT_EVENTS + 5) {
            streams.record(0, &json!(i), false);
        }
        assert_eq!(streams.get(0).map(|s| s.sent.len()), Some(KEPT_EVENTS));
        for i in 0..(KEPT_STREAMS + 3) {
            let n = streams.open_for(RequestId::Number(100 + i as i64));
            streams.record(n, &json!(i), true);
        }
        assert!(streams.list.len() <= KEPT_STREAMS);
        assert!(
            streams.has_standalone(),
            "open streams outlive finished ones"
        );
        assert_eq!(parse_event_id(" 3-14"), Some((3, 14)));
        assert_eq!(parse_event_id("3"), None);
        assert_eq!(parse_event_id("a-1"), None);
        assert_eq!(stream_key("abc", 2), "abc/2");
    }
}
