//! What tap saw: each line with the pipe it came through and when, kept
//! within the importer's limits, then turned into the page's timeline by
//! the core's importer (`mcp_lanes_core::import`). Who sent a line is the
//! pipe it came through, never guessed: the host's stdin is the client's,
//! the server's stdout the server's.

use std::time::Instant;

use mcp_lanes_core::import::{self, MAX_BYTES, MAX_MESSAGES};
use mcp_lanes_core::sim::Timeline;
use serde_json::{json, Value};

use super::lines::Line;

/// The room a recorded line takes in the transcript besides its text
/// (the wrapper's keys), counted against [`MAX_BYTES`].
const WRAPPER_BYTES: usize = 64;

/// The side a line came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pipe {
    /// The host (the MCP client), on tap's stdin.
    Client,
    /// The server, on its stdout.
    Server,
}

impl Pipe {
    fn as_str(self) -> &'static str {
        match self {
            Pipe::Client => "client",
            Pipe::Server => "server",
        }
    }
}

/// What tap has to say about a line, for its stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Said {
    /// Line `index` (from 1) from `from` is not JSON.
    NotJson {
        from: Pipe,
        index: usize,
        error: String,
    },
    /// Line `index` from `from` is over the size kept.
    TooLong {
        from: Pipe,
        index: usize,
        bytes: usize,
    },
    /// The record is full: later lines pass through, unrecorded.
    Full { messages: usize },
}

/// The conversation as recorded so far.
#[derive(Debug)]
pub struct Tape {
    start: Instant,
    entries: Vec<Value>,
    bytes: usize,
    /// Lines read so far from the client and from the server.
    lines: [usize; 2],
    /// Entries that are a side leaving, not a message.
    departures: usize,
    full: bool,
}

impl Tape {
    /// An empty record; times count from now.
    pub fn new() -> Tape {
        Tape {
            start: Instant::now(),
            entries: Vec::new(),
            bytes: 0,
            lines: [0, 0],
            departures: 0,
            full: false,
        }
    }

    /// Records a line from `from`; what there is to say about it (lines
    /// are numbered from 1, on each side).
    pub fn record(&mut self, from: Pipe, line: Line) -> Option<Said> {
        let count = &mut self.lines[from as usize];
        *count += 1;
        let index = *count;
        let text = match line {
            Line::TooLong(bytes) => return Some(Said::TooLong { from, index, bytes }),
            Line::Text(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        };
        if text.trim().is_empty() {
            return None;
        }
        if self.full {
            return None;
        }
        if self.entries.len() >= MAX_MESSAGES || self.bytes + text.len() + WRAPPER_BYTES > MAX_BYTES
        {
            self.full = true;
            return Some(Said::Full {
                messages: self.entries.len(),
            });
        }
        let at_ms = self.start.elapsed().as_millis() as u64;
        let (message, said) = match serde_json::from_str::<Value>(&text) {
            Ok(value) => (value, None),
            Err(e) => (
                Value::String(text.clone()),
                Some(Said::NotJson {
                    from,
                    index,
                    error: e.to_string(),
                }),
            ),
        };
        self.bytes += text.len() + WRAPPER_BYTES;
        self.entries
            .push(json!({"message": message, "from": from.as_str(), "at_ms": at_ms}));
        said
    }

    /// Records one JSON-RPC message from `from` read off HTTP, with the
    /// `http` it came with (method and headers of a request, status and
    /// headers of an answer); the entry recorded, or nothing when the
    /// record is full.
    pub fn record_message(
        &mut self,
        from: Pipe,
        message: Value,
        http: Option<Value>,
    ) -> Option<Value> {
        let size = message.to_string().len() + WRAPPER_BYTES;
        if self.full || self.entries.len() >= MAX_MESSAGES || self.bytes + size > MAX_BYTES {
            self.full = true;
            return None;
        }
        let at_ms = self.start.elapsed().as_millis() as u64;
        let mut entry = json!({"message": message, "from": from.as_str(), "at_ms": at_ms});
        if let Some(http) = http {
            entry["http"] = http;
        }
        self.bytes += size;
        self.entries.push(entry.clone());
        Some(entry)
    }

    /// Records that the client left (`how`: the entry's `why` and what
    /// goes with it, [`super::gone::Gone::fields`]; `session`: the HTTP
    /// session it left, which puts it in that session's lane): the
    /// transcript's entry `{"left": "client", "why", "at_ms", …}`, which
    /// the importer reads as the client disconnecting. The entry, recorded
    /// or not (a full record keeps no more, but the live view and the log
    /// still say it).
    pub fn record_departure(&mut self, how: Value, session: Option<&str>) -> (Value, bool) {
        let mut entry = json!({"left": "client", "at_ms": self.now_ms()});
        if let (Some(entry), Value::Object(how)) = (entry.as_object_mut(), how) {
            entry.extend(how);
        }
        if let Some(session) = session {
            entry["http"] = json!({"headers": {"mcp-session-id": session}});
        }
        let size = entry.to_string().len();
        if self.full || self.entries.len() >= MAX_MESSAGES || self.bytes + size > MAX_BYTES {
            self.full = true;
            return (entry, false);
        }
        self.bytes += size;
        self.departures += 1;
        self.entries.push(entry.clone());
        (entry, true)
    }

    /// Milliseconds since the record began (what `at_ms` counts).
    pub fn now_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// The entry recorded last (the transcript's wrapper).
    pub fn last(&self) -> Option<&Value> {
        self.entries.last()
    }

    /// How many messages are recorded (a side leaving is no message).
    pub fn len(&self) -> usize {
        self.entries.len() - self.departures
    }

    /// The record as a transcript (wrappers with `from` and `at_ms`).
    pub fn transcript(&self) -> Value {
        Value::Array(self.entries.clone())
    }

    /// The record as the page's timelines, through the importer (`label`
    /// names the run). An error in words when there is nothing to draw.
    pub fn timelines(&self, label: &str) -> Result<Vec<Timeline>, String> {
        let text = self.transcript().to_string();
        let imported = import::read(label, &text).map_err(|e| e.note.text().to_string())?;
        let mut lanes = imported.lanes;
        for lane in &mut lanes {
            lane.label = label.to_string();
        }
        Ok(lanes)
    }
}

impl Default for Tape {
    fn default() -> Tape {
        Tape::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Line {
        Line::Text(s.as_bytes().to_vec())
    }

    #[test]
    fn each_line_keeps_its_pipe_and_what_is_not_json_is_said() {
        let mut tape = Tape::new();
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        assert_eq!(tape.record(Pipe::Client, line(init)), None);
        assert_eq!(tape.record(Pipe::Server, line("")), None);
        assert!(matches!(
            tape.record(Pipe::Server, line("starting up...")),
            Some(Said::NotJson {
                from: Pipe::Server,
                index: 2,
                ..
            })
        ));
        assert_eq!(tape.len(), 2);
        let t = tape.transcript();
        assert_eq!(t[0]["from"], "client");
        assert_eq!(t[1]["message"], "starting up...");
        let lanes = tape.timelines("tap").expect("a lane");
        assert_eq!(lanes.len(), 1);
        assert_eq!(lanes[0].label, "tap");
    }

    #[test]
    fn a_client_that_left_is_an_entry_and_no_message() {
        let mut tape = Tape::new();
        let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        assert_eq!(tape.record(Pipe::Client, line(ping)), None);
        let (entry, recorded) = tape.record_departure(
            json!({"why": "before_answer", "request": "POST /mcp"}),
            Some("s-1"),
        );
        assert!(recorded);
        assert_eq!(entry["left"], "client");
        assert_eq!(entry["why"], "before_answer");
        assert_eq!(entry["http"]["headers"]["mcp-session-id"], "s-1");
        // "N messages written" counts messages only.
        assert_eq!(tape.len(), 1);
        let lanes = tape.timelines("tap").expect("a lane");
        assert!(matches!(
            lanes[0].events[1].kind,
            mcp_lanes_core::sim::EventKind::Disconnected { .. }
        ));
    }

    #[test]
    fn a_huge_line_is_said_and_not_recorded() {
        let mut tape = Tape::new();
        assert_eq!(
            tape.record(Pipe::Client, Line::TooLong(9_000_000)),
            Some(Said::TooLong {
                from: Pipe::Client,
                index: 1,
                bytes: 9_000_000
            })
        );
        assert_eq!(tape.len(), 0);
    }
}
