//! An incremental reader of `text/event-stream` bodies (the SSE framing of
//! the HTML standard, §9.2.6) for a client reading a Streamable HTTP
//! response as it arrives (C-SSE-READ): bytes in, complete events out.
//!
//! Lines end in LF, CR or CRLF; a blank line ends an event; `data:` lines
//! are joined with LF; lines starting with `:` are comments; `event`, `id`
//! and `retry` are kept or ignored; unknown fields are ignored. An event
//! with no data is not dispatched. Bounded: an event larger than the limit
//! is an error, never an allocation the peer chooses.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if any (MCP sends `message` or none).
    pub event: Option<String>,
    /// The `id:` field, if any.
    pub id: Option<String>,
    /// The data lines joined with `\n`: one JSON-RPC message in MCP.
    pub data: String,
}

/// Why a stream cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SseError {
    /// An event (or a line) is longer than the limit, in bytes.
    TooLarge(usize),
    /// A line is not UTF-8.
    NotUtf8,
}

impl std::fmt::Display for SseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SseError::TooLarge(limit) => {
                write!(f, "an SSE event is larger than the {limit}-byte limit")
            }
            SseError::NotUtf8 => f.write_str("the SSE stream is not UTF-8 text"),
        }
    }
}

impl std::error::Error for SseError {}

/// Reads an event stream chunk by chunk.
#[derive(Debug, Clone)]
pub struct SseDecoder {
    limit: usize,
    line: Vec<u8>,
    /// The last byte fed was a CR ending a line: skip an LF right after it.
    after_cr: bool,
    event: Option<String>,
    id: Option<String>,
    data: String,
    has_data: bool,
    started: bool,
    retry: Option<u64>,
}

impl SseDecoder {
    /// A decoder refusing events (and lines) over `limit` bytes.
    pub fn new(limit: usize) -> Self {
        Self {
            limit,
            line: Vec::new(),
            after_cr: false,
            event: None,
            id: None,
            data: String::new(),
            has_data: false,
            started: false,
            retry: None,
        }
    }

    /// The last event id the stream set (the standard's "last event ID
    /// buffer"), also by events without data such as a priming event: what
    /// a client resuming the stream sends as `Last-Event-ID` (H-SSE-POLL).
    pub fn last_event_id(&self) -> Option<&str> {
        self.id.as_deref().filter(|id| !id.is_empty())
    }

    /// The last `retry:` field, in milliseconds: how long to wait before
    /// reconnecting (H-SSE-POLL).
    pub fn retry_ms(&self) -> Option<u64> {
        self.retry
    }

    /// Feeds the next bytes; returns the events they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    let line = std::mem::take(&mut self.line);
                    self.end_line(&line, &mut out)?;
                }
                _ => {
                    if self.line.len() + self.data.len() >= self.limit {
                        return Err(SseError::TooLarge(self.limit));
                    }
                    self.line.push(b);
                }
            }
        }
        Ok(out)
    }

    /// The stream ended: an unterminated last line is processed, and an
    /// event not ended by a blank line is dropped, as the standard says.
    pub fn finish(&mut self) -> Result<(), SseError> {
        let line = std::mem::take(&mut self.line);
        if !line.is_empty() {
            let mut ignored = Vec::new();
            self.end_line(&line, &mut ignored)?;
        }
        Ok(())
    }

    fn end_line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        let mut line = std::str::from_utf8(line).map_err(|_| SseError::NotUtf8)?;
        if !self.started {
            // A byte order mark may start the stream.
            line = line.strip_prefix('\u{feff}').unwrap_or(line);
            self.started = true;
        }
        if line.is_empty() {
            if self.has_data {
                out.push(SseEvent {
                    event: self.event.take(),
                    id: self.id.clone(),
                    data: std::mem::take(&mut self.data),
                });
            }
            self.has_data = false;
            self.data.clear();
            self.event = None;
            return Ok(());
        }
        if line.starts_with(':') {
            return Ok(());
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
                if self.data.len() > self.limit {
                    return Err(SseError::TooLarge(self.limit));
                }
            }
            "event" => self.event = Some(value.to_string()),
            "id" if !value.contains('\0') => self.id = Some(value.to_string()),
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                self.retry = value.parse().ok();
            }
            _ => {}
        }
        Ok(())
    }
}

/// Every event of a complete body (what [`SseDecoder`] yields for it).
pub fn events(body: &str, limit: usize) -> Result<Vec<SseEvent>, SseError> {
    let mut decoder = SseDecoder::new(limit);
    let events = decoder.feed(body.as_bytes())?;
    decoder.finish()?;
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_sse_read_events_split_anywhere_decode_the_same() {
        let body = ": keep-alive\r\nevent: message\r\nid: 7\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\nretry: 5\ndata:x\n\n";
        let whole = events(body, 1024).unwrap();
        assert_eq!(whole.len(), 2);
        assert_eq!(whole[0].data, "{\"a\":\n1}");
        assert_eq!(whole[0].id.as_deref(), Some("7"));
        assert_eq!(whole[1].data, "x");
        for split in 0..body.len() {
            let mut d = SseDecoder::new(1024);
            let mut got = d.feed(&body.as_bytes()[..split]).unwrap();
            got.extend(d.feed(&body.as_bytes()[split..]).unwrap());
            assert_eq!(got, whole, "split at {split}");
        }
    }

    #[test]
    fn h_sse_poll_a_priming_event_sets_the_id_and_retry_to_resume_with() {
        let mut d = SseDecoder::new(1024);
        assert_eq!(d.feed(b"id: e-1\nretry: 500\ndata: \n\n").unwrap().len(), 1);
        assert_eq!(d.last_event_id(), Some("e-1"));
        assert_eq!(d.retry_ms(), Some(500));
        let mut d = SseDecoder::new(1024);
        assert_eq!(d.feed(b"id: 2\nretry: x5\n\n").unwrap(), []);
        assert_eq!(d.last_event_id(), Some("2"));
        assert_eq!(d.retry_ms(), None);
    }

    #[test]
    fn c_sse_read_refuses_oversized_events_and_drops_unterminated_ones() {
        let mut d = SseDecoder::new(16);
        assert_eq!(
            d.feed(b"data: 0123456789abcdefghij\n\n"),
            Err(SseError::TooLarge(16))
        );
        let mut d = SseDecoder::new(16);
        assert_eq!(d.feed(b"data: partial").unwrap(), []);
        assert_eq!(d.finish(), Ok(()));
        assert_eq!(events("data: \u{1}\n\n", 16).unwrap()[0].data, "\u{1}");
        assert_eq!(
            SseDecoder::new(64).feed(b"data: \xff\n\n"),
            Err(SseError::NotUtf8)
        );
    }
}
