//! `tap --upstream URL --har FILE`: what passed through the HTTP tap as a
//! HAR 1.2 capture, an entry per request with its answer (headers, status,
//! bodies, SSE streams whole), written when tap stops. What browsers'
//! devtools export, so other tools read it; `check --transcript` and the
//! page read it back (the core's importer).

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Map, Value};

/// The most of one answer's body kept in the capture (the importer's
/// limit for a whole file).
const MAX_BODY: usize = mcp_lanes_core::import::MAX_BYTES;

/// One request and its answer as they pass.
#[derive(Debug, Clone)]
pub struct Exchange {
    started: SystemTime,
    clock: Instant,
    method: String,
    url: String,
    request_headers: Map<String, Value>,
    request_body: String,
    status: Option<u16>,
    response_headers: Map<String, Value>,
    response_body: Vec<u8>,
    /// Milliseconds from the request to its answer's headers, and to the
    /// last byte of its body.
    wait_ms: f64,
    total_ms: f64,
}

impl Exchange {
    /// A request as it came (`url` as the client named it).
    pub fn new(method: &str, url: String, headers: Map<String, Value>, body: &[u8]) -> Exchange {
        Exchange {
            started: SystemTime::now(),
            clock: Instant::now(),
            method: method.to_string(),
            url,
            request_headers: headers,
            request_body: String::from_utf8_lossy(&body[..body.len().min(MAX_BODY)]).into_owned(),
            status: None,
            response_headers: Map::new(),
            response_body: Vec::new(),
            wait_ms: 0.0,
            total_ms: 0.0,
        }
    }

    /// The answer's status and headers, as they came.
    pub fn answered(&mut self, status: u16, headers: Map<String, Value>) {
        self.status = Some(status);
        self.response_headers = headers;
        self.wait_ms = self.clock.elapsed().as_secs_f64() * 1000.0;
        self.total_ms = self.wait_ms;
    }

    /// More of the answer's body (kept up to [`MAX_BODY`]).
    pub fn body(&mut self, data: &[u8]) {
        let room = MAX_BODY.saturating_sub(self.response_body.len());
        self.response_body
            .extend_from_slice(&data[..data.len().min(room)]);
        self.total_ms = self.clock.elapsed().as_secs_f64() * 1000.0;
    }

    /// The HAR entry.
    fn to_har(&self) -> Value {
        let headers = |map: &Map<String, Value>| -> Vec<Value> {
            map.iter()
                .map(|(name, value)| json!({"name": name, "value": value}))
                .collect()
        };
        let mime = |map: &Map<String, Value>| {
            map.get("content-type")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let mut request = json!({
            "method": self.method,
            "url": self.url,
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": headers(&self.request_headers),
            "queryString": [],
            "headersSize": -1,
            "bodySize": self.request_body.len(),
        });
        if !self.request_body.is_empty() {
            request["postData"] = json!({
                "mimeType": mime(&self.request_headers),
                "text": self.request_body,
            });
        }
        let text = String::from_utf8_lossy(&self.response_body);
        json!({
            "startedDateTime": iso8601(self.started),
            "time": self.total_ms,
            "request": request,
            "response": {
                "status": self.status.unwrap_or(0),
                "statusText": "",
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": headers(&self.response_headers),
                "content": {
                    "size": self.response_body.len(),
                    "mimeType": mime(&self.response_headers),
                    "text": text,
                },
                "redirectURL": "",
                "headersSize": -1,
                "bodySize": self.response_body.len(),
            },
            "cache": {},
            "timings": {
                "send": 0,
                "wait": self.wait_ms,
                "receive": (self.total_ms - self.wait_ms).max(0.0),
            },
        })
    }
}

/// The capture of `exchanges`, in the order their requests came.
pub fn capture(exchanges: &[Exchange]) -> Value {
    json!({
        "log": {
            "version": "1.2",
            "creator": {"name": "mcp-lanes tap", "version": env!("CARGO_PKG_VERSION")},
            "entries": exchanges.iter().map(Exchange::to_har).collect::<Vec<_>>(),
        }
    })
}

/// `time` as HAR writes it: ISO 8601 in UTC, with milliseconds.
fn iso8601(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

/// The calendar date of a day counted from 1970-01-01 (the proleptic
/// Gregorian calendar).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn times_are_written_as_har_writes_them() {
        assert_eq!(iso8601(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_796_300_000_123);
        assert_eq!(iso8601(t), "2026-12-03T12:13:20.123Z");
        assert_eq!(civil(-1), (1969, 12, 31));
        assert_eq!(civil(11_016), (2000, 2, 29));
    }

    #[test]
    fn a_capture_reads_back_through_the_importer() {
        let mut ex = Exchange::new(
            "POST",
            "http://127.0.0.1:9000/mcp".into(),
            Map::from_iter([("content-type".to_string(), json!("application/json"))]),
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        );
        ex.answered(
            200,
            Map::from_iter([("content-type".to_string(), json!("text/event-stream"))]),
        );
        ex.body(
            b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}\n\n",
        );
        let har = capture(&[ex]).to_string();
        let imported = mcp_lanes_core::import::read("t.har", &har).expect("a HAR");
        assert_eq!(imported.lanes[0].messages().count(), 2);
    }
}
