//! Resuming an SSE answer the server ended before its response (SSE
//! polling in a 2025-11-25 session, H-SSE-POLL): wait the stream's
//! `retry:` time, then GET the endpoint with `Last-Event-ID` and the
//! session's headers, and read that stream as the rest of the answer.

use std::time::Duration;

use mcp_lanes_core::rules;
use mcp_lanes_core::sim::{EventKind, HttpInfo, Side};
use mcp_lanes_core::transport::http::{
    LAST_EVENT_ID_HEADER, PROTOCOL_VERSION_HEADER, SESSION_HEADER,
};
use mcp_lanes_core::transport::sse::SseDecoder;
use mcp_lanes_core::transport::HttpRequest;
use tokio::time::Instant;

use super::http::{headers_of, read_stream, Exchange, HttpWire, Stop};
use super::{Outgoing, Session};
use std::collections::VecDeque;

/// Resumptions of one answer at most: a server that keeps ending its
/// streams without the response is not waited on forever.
const MAX_RESUMES: u32 = 3;
/// The wait when the stream named no `retry:` time.
const DEFAULT_RETRY_MS: u64 = 1_000;

/// The GET that resumes the stream opened by `request` after event
/// `last_id`: only within a legacy session (a modern-only server answers
/// GET with 405, H-SSE-RESUME).
fn resumption(request: &HttpRequest, last_id: &str) -> Option<HttpRequest> {
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let session = header(SESSION_HEADER)?;
    let mut headers = vec![
        ("Accept".to_string(), "text/event-stream".to_string()),
        (SESSION_HEADER.to_string(), session),
        (LAST_EVENT_ID_HEADER.to_string(), last_id.to_string()),
    ];
    if let Some(version) = header(PROTOCOL_VERSION_HEADER) {
        headers.push((PROTOCOL_VERSION_HEADER.to_string(), version));
    }
    Some(HttpRequest {
        method: "GET".into(),
        path: request.path.clone(),
        headers,
        body: String::new(),
    })
}

/// Resumes the stream `decoder` read, if it can be: returns whether the
/// rest of the answer was read (else the caller reports the stream's end).
pub(super) async fn resume(
    wire: &mut HttpWire,
    session: &mut Session,
    decoder: &SseDecoder,
    exchange: &Exchange<'_>,
    queue: &mut VecDeque<Outgoing>,
) -> bool {
    if exchange.resumed >= MAX_RESUMES {
        return false;
    }
    let Some(last_id) = decoder.last_event_id() else {
        return false;
    };
    let Some(get) = resumption(exchange.request, last_id) else {
        return false;
    };
    let wait = decoder.retry_ms().unwrap_or(DEFAULT_RETRY_MS);
    session.rec.push(
        EventKind::Decision { side: Side::Client },
        vec![rules::H_SSE_POLL, rules::H_SSE_RESUME],
        mcp_lanes_core::note!(
            "driver.sse_resume",
            "The server ended the stream answering {what} before the response: the client waits the stream's retry time ({ms} ms), then resumes it with GET and Last-Event-ID {id}.",
            what = exchange.what,
            ms = wait,
            id = last_id
        ),
    );
    let deadline = Instant::now() + session.limits.exchange;
    tokio::time::sleep(Duration::from_millis(wait)).await;
    let (response, sender) = match wire.post(&get, deadline).await {
        Ok(found) => found,
        Err(Stop::Deadline | Stop::Failed(_)) => return false,
    };
    let status = response.status().as_u16();
    let headers = headers_of(&response);
    let is_stream = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("content-type") && v.trim_start().starts_with("text/event-stream")
    });
    if status != 200 || !is_stream {
        return false;
    }
    let info = HttpInfo {
        method: None,
        status: Some(status),
        headers,
        event_id: None,
    };
    let next = Exchange {
        awaited: exchange.awaited,
        fixed: deadline,
        what: exchange.what,
        request: exchange.request,
        resumed: exchange.resumed + 1,
    };
    let mut body = response.into_body();
    read_stream(wire, session, &mut body, sender, &info, &next, queue).await;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h_sse_poll_the_resumption_is_a_get_with_the_session_and_last_event_id() {
        let post = HttpRequest {
            method: "POST".into(),
            path: "/mcp".into(),
            headers: vec![
                ("mcp-session-id".into(), "s1".into()),
                ("MCP-Protocol-Version".into(), "2025-11-25".into()),
            ],
            body: "{}".into(),
        };
        let get = resumption(&post, "event-1").unwrap_or_else(|| panic!("a GET"));
        assert_eq!(get.method, "GET");
        assert!(get.body.is_empty());
        assert!(get
            .headers
            .contains(&(LAST_EVENT_ID_HEADER.to_string(), "event-1".to_string())));
        assert!(get
            .headers
            .contains(&(SESSION_HEADER.to_string(), "s1".to_string())));
        let modern = HttpRequest {
            headers: Vec::new(),
            ..post
        };
        assert!(resumption(&modern, "event-1").is_none());
    }
}
