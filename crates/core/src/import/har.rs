//! HAR 1.2 captures of Streamable HTTP (what a browser's devtools export):
//! each POST whose body is a JSON-RPC message or batch is the client's, its
//! answer the server's (a JSON body, a batch, a `text/event-stream` body cut
//! into its events, or no body: a 202, a 4xx without a JSON-RPC error); a
//! GET or DELETE to the same URL (a GET stream, the end of a session) is
//! kept too. Other entries (other URLs, OPTIONS preflights) are left out,
//! and a notice says how many. Times come from each entry's
//! `startedDateTime`, `time` and `timings`.

use base64::Engine;
use serde_json::Value;

use super::build::{self, Entry};
use super::detect;
use super::time::parse_ms;
use super::{Format, ImportError, ImportErrorKind, Imported, Notice, MAX_BYTES, MAX_MESSAGES};
use crate::note::Note;
use crate::sim::{HttpInfo, Side, Timeline};
use crate::transport::sse;

/// A message and when it was sent: (sent, arrived, entry index, entry).
type Timed = (i64, i64, usize, Entry);

/// Reads a HAR capture: a lane per session (one when the capture has at
/// most one `Mcp-Session-Id`).
pub(super) fn read(source: &str, value: &Value) -> Result<Imported, ImportError> {
    let Some(entries) = value
        .get("log")
        .and_then(|l| l.get("entries"))
        .and_then(Value::as_array)
    else {
        return Err(detect::unrecognised(
            source,
            crate::note!(
                "import.har_no_entries",
                "it has a `log` without an `entries` array, and a HAR capture is {{\"log\": {{\"entries\": […]}}}}"
            ),
        ));
    };
    // The MCP endpoints: where a POST of JSON-RPC went (sorted, for
    // binary search: a hostile capture may name many).
    let mut endpoints: Vec<&str> = entries
        .iter()
        .filter_map(|e| {
            let request = e.get("request")?;
            let post = request.get("method")?.as_str()? == "POST";
            let body = request.get("postData")?.get("text")?.as_str()?;
            (post && json_rpc(body).is_some()).then_some(request.get("url")?.as_str()?)
        })
        .collect();
    endpoints.sort_unstable();
    endpoints.dedup();
    let mut timed: Vec<Timed> = Vec::new();
    let mut notices = Vec::new();
    let mut ignored = 0usize;
    for (index, e) in entries.iter().enumerate() {
        match entry(index, e, &endpoints, &mut timed) {
            Ok(Read::Mcp) => {}
            Ok(Read::NotMcp) => ignored += 1,
            Ok(Read::NoBody) => notices.push(Notice {
                lane: 0,
                entry: Some(index),
                note: crate::note!(
                    "import.har_no_body",
                    "HAR entry {index} is a POST to the MCP endpoint whose body the capture does not hold: it is left out.",
                    index = index
                ),
            }),
            Err(why) => {
                notices.push(Notice {
                    lane: 0,
                    entry: Some(index),
                    note: crate::note!(
                        "import.har_entry_malformed",
                        "HAR entry {index} cannot be read ({why}): the capture is drawn up to the entry before it.",
                        index = index,
                        why = why
                    ),
                });
                break;
            }
        }
        if timed.len() > MAX_MESSAGES {
            return Err(detect::too_many(source));
        }
    }
    if ignored > 0 {
        notices.push(Notice {
            lane: 0,
            entry: None,
            note: crate::note!(
                "import.har_ignored",
                "{count} of the capture's {total} entries are not MCP (other URLs, OPTIONS preflights) and were left out.",
                count = ignored,
                total = entries.len()
            ),
        });
    }
    // The entries read, in order.
    let mut read: Vec<usize> = timed.iter().map(|t| t.2).collect();
    read.dedup();
    for (index, e) in entries.iter().enumerate() {
        let sse = e
            .get("response")
            .and_then(|r| r.get("content"))
            .filter(|c| mime(c).contains("text/event-stream"))
            .is_some_and(|c| {
                c.get("text")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
            });
        let mcp = e
            .get("request")
            .and_then(|r| r.get("url"))
            .and_then(Value::as_str)
            .is_some_and(|u| endpoints.binary_search(&u).is_ok());
        if sse && mcp && read.binary_search(&index).is_ok() {
            notices.push(Notice {
                lane: 0,
                entry: Some(index),
                note: crate::note!(
                    "import.har_stream_not_captured",
                    "HAR entry {index} is an event stream whose events the capture does not hold (browsers often leave them out): only its status is drawn.",
                    index = index
                ),
            });
        }
    }
    if timed.is_empty() && notices.iter().all(|n| n.entry.is_none()) {
        return Err(ImportError::new(
            ImportErrorKind::Empty,
            crate::note!(
                "import.har_no_mcp",
                "{source} is a HAR capture, but none of its {count} entries is a POST of JSON-RPC.",
                source = source,
                count = entries.len()
            ),
        ));
    }
    let start = timed.iter().map(|t| t.0).min().unwrap_or(0);
    // In time order; an entry's messages in the order they were read.
    timed.sort_by_key(|t| t.0);
    let since = |ms: i64| u64::try_from(ms.saturating_sub(start)).unwrap_or(0);
    // A lane per session (`Mcp-Session-Id`), in the order they begin: ids
    // start over in each session, so one lane would mix conversations.
    let keys: Vec<Option<String>> = timed.iter().map(|t| session(&entries[t.2])).collect();
    let mut order: Vec<Option<String>> = Vec::new();
    for key in &keys {
        if !order.contains(key) {
            order.push(key.clone());
        }
    }
    let sessions = order.iter().filter(|k| k.is_some()).count();
    let lane_of = |key: &Option<String>| {
        if sessions > 1 {
            order.iter().position(|k| k == key).unwrap_or(0)
        } else {
            0
        }
    };
    let count = if sessions > 1 { order.len() } else { 1 };
    let mut groups: Vec<Vec<Entry>> = (0..count).map(|_| Vec::new()).collect();
    let mut lane_of_entry: Vec<(usize, usize)> = Vec::new();
    for ((at, arrived, index, mut entry), key) in timed.into_iter().zip(&keys) {
        entry.at_ms = Some(since(at));
        entry.delivered_ms = Some(since(arrived));
        let lane = lane_of(key);
        lane_of_entry.push((index, lane));
        groups[lane].push(entry);
    }
    for notice in &mut notices {
        if let Some(index) = notice.entry {
            if let Some((_, lane)) = lane_of_entry.iter().find(|(i, _)| *i == index) {
                notice.lane = *lane;
            }
        }
    }
    let lanes: Vec<Timeline> = groups
        .into_iter()
        .enumerate()
        .map(|(n, group)| {
            let label = match &order[n] {
                Some(id) if count > 1 => super::sessions::title(source, id),
                _ => source.to_string(),
            };
            build::lane(&label, source, group)
        })
        .collect();
    for (n, lane) in lanes.iter().enumerate() {
        super::undecided_notices(n, lane, false, &mut notices);
    }
    Ok(Imported {
        format: Format::Har,
        lanes,
        notices,
        report: None,
    })
}

/// The session a HAR entry belongs to: its request's `Mcp-Session-Id`,
/// else its answer's (the answer to `initialize` gives the session).
fn session(e: &Value) -> Option<String> {
    ["request", "response"].iter().find_map(|side| {
        e.get(side)?
            .get("headers")?
            .as_array()?
            .iter()
            .find(|h| {
                h.get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| n.eq_ignore_ascii_case("mcp-session-id"))
            })?
            .get("value")?
            .as_str()
            .map(str::to_string)
    })
}

/// The JSON-RPC messages of a body: one message, or a batch (each as its
/// own text). `None` if it is not JSON-RPC.
fn json_rpc(body: &str) -> Option<Vec<String>> {
    let value: Value = serde_json::from_str(body).ok()?;
    let is_message = |v: &Value| v.get("jsonrpc").is_some();
    match &value {
        Value::Object(_) if is_message(&value) => Some(vec![body.trim().to_string()]),
        Value::Array(items) if !items.is_empty() && items.iter().all(is_message) => {
            Some(items.iter().map(Value::to_string).collect())
        }
        _ => None,
    }
}

/// A content's MIME type (`content.mimeType`), lower case.
fn mime(content: &Value) -> String {
    content
        .get("mimeType")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// A HAR `headers` list as (name, value) pairs.
fn headers(v: Option<&Value>) -> Result<Vec<(String, String)>, Note> {
    let Some(list) = v else {
        return Ok(Vec::new());
    };
    let list = list.as_array().ok_or_else(|| {
        crate::note!(
            "import.har_headers",
            "its headers are not a list of {{\"name\", \"value\"}}"
        )
    })?;
    list.iter()
        .map(|h| {
            let name = h.get("name").and_then(Value::as_str);
            let value = h.get("value").and_then(Value::as_str);
            match (name, value) {
                (Some(n), Some(v)) => Ok((n.to_string(), v.to_string())),
                _ => Err(crate::note!(
                    "import.har_headers",
                    "its headers are not a list of {{\"name\", \"value\"}}"
                )),
            }
        })
        .collect()
}

/// What one HAR entry was.
enum Read {
    /// MCP traffic, read.
    Mcp,
    /// Something else (another URL, a preflight), left out.
    NotMcp,
    /// A POST to the MCP endpoint without its body, left out.
    NoBody,
}

/// Reads HAR entry `index`'s messages into `out`, or says why it cannot
/// be read.
fn entry(index: usize, e: &Value, endpoints: &[&str], out: &mut Vec<Timed>) -> Result<Read, Note> {
    let request = e
        .get("request")
        .filter(|r| r.is_object())
        .ok_or_else(|| crate::note!("import.har_no_request", "it has no `request` object"))?;
    let method = request.get("method").and_then(Value::as_str).unwrap_or("");
    let url = request.get("url").and_then(Value::as_str).unwrap_or("");
    let body = request
        .get("postData")
        .and_then(|p| p.get("text"))
        .and_then(Value::as_str);
    let sent = match (method, body.and_then(json_rpc)) {
        ("POST", Some(messages)) => messages,
        ("GET" | "DELETE", _) if endpoints.binary_search(&url).is_ok() => vec![String::new()],
        ("POST", None)
            if endpoints.binary_search(&url).is_ok()
                && body.is_none_or(|b| b.trim().is_empty()) =>
        {
            return Ok(Read::NoBody)
        }
        _ => return Ok(Read::NotMcp),
    };
    let started = e
        .get("startedDateTime")
        .and_then(Value::as_str)
        .and_then(parse_ms)
        .ok_or_else(|| {
            crate::note!(
                "import.har_no_time",
                "its `startedDateTime` is not an ISO 8601 date and time"
            )
        })?;
    let timing = |key: &str| {
        e.get("timings")
            .and_then(|t| t.get(key))
            .and_then(Value::as_f64)
            .filter(|t| t.is_finite() && *t >= 0.0)
            .map_or(0, |t| t.min(1e12) as i64)
    };
    let request_sent = started + timing("blocked") + timing("dns") + timing("connect");
    let request_arrived = request_sent + timing("send");
    let answer_sent = request_arrived + timing("wait");
    let total = e
        .get("time")
        .and_then(Value::as_f64)
        .filter(|t| t.is_finite() && *t >= 0.0)
        .map_or(0, |t| t.min(1e12) as i64);
    let answer_done = (started + total).max(answer_sent + timing("receive"));
    let request_headers = headers(request.get("headers"))?;
    for wire in sent {
        out.push((
            request_sent,
            request_arrived,
            index,
            Entry {
                wire,
                from: Some(Side::Client),
                http: Some(HttpInfo {
                    method: Some(method.to_string()),
                    status: None,
                    headers: request_headers.clone(),
                    event_id: None,
                }),
                ..Entry::default()
            },
        ));
    }
    let response = e.get("response");
    let status = response
        .and_then(|r| r.get("status"))
        .and_then(Value::as_u64)
        .and_then(|s| u16::try_from(s).ok())
        .filter(|s| *s >= 100);
    let (Some(response), Some(status)) = (response, status) else {
        // No answer recorded (status 0: the request failed or was cut).
        return Ok(Read::Mcp);
    };
    let response_headers = headers(response.get("headers"))?;
    let content = response.get("content");
    let mut text = content
        .and_then(|c| c.get("text"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if content
        .and_then(|c| c.get("encoding"))
        .and_then(Value::as_str)
        == Some("base64")
    {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(text.trim())
            .map_err(|_| {
                crate::note!("import.har_base64", "its response body is not valid base64")
            })?;
        text = String::from_utf8_lossy(&bytes).into_owned();
    }
    let content_type = content.map(mime).unwrap_or_default();
    let header_type = crate::transport::http::header(&response_headers, "content-type")
        .unwrap_or("")
        .to_ascii_lowercase();
    let stream =
        content_type.contains("text/event-stream") || header_type.contains("text/event-stream");
    // (wire, SSE event id) of each answer.
    let answers: Vec<(String, Option<String>)> = if text.trim().is_empty() {
        vec![(String::new(), None)]
    } else if stream {
        let events = sse::events(&text, MAX_BYTES).map_err(|e| {
            crate::note!(
                "import.har_sse",
                "its event stream cannot be read: {error}",
                error = e.to_string()
            )
        })?;
        let answers: Vec<_> = events
            .into_iter()
            .filter(|ev| !ev.data.is_empty())
            .map(|ev| (ev.data, ev.id))
            .collect();
        if answers.is_empty() {
            vec![(String::new(), None)]
        } else {
            answers
        }
    } else {
        match json_rpc(&text) {
            Some(messages) if messages.len() > 1 => {
                messages.into_iter().map(|m| (m, None)).collect()
            }
            _ => vec![(text.trim().to_string(), None)],
        }
    };
    let span = answer_done - answer_sent;
    let n = answers.len() as i64;
    for (k, (wire, event_id)) in answers.into_iter().enumerate() {
        let k = k as i64;
        out.push((
            answer_sent + span * k / n,
            answer_sent + span * (k + 1) / n,
            index,
            Entry {
                wire,
                from: Some(Side::Server),
                http: Some(HttpInfo {
                    method: None,
                    status: Some(status),
                    headers: response_headers.clone(),
                    event_id,
                }),
                ..Entry::default()
            },
        ));
    }
    Ok(Read::Mcp)
}
