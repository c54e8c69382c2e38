//! The legacy session's own SSE stream (H-SSE-RESUME): once a 2025-11-25
//! session has an `Mcp-Session-Id`, the client opens GET on the endpoint
//! without `Last-Event-ID`; the server sends on it the requests and
//! notifications related to no request of the client (an elicitation a
//! tool asks for outside its call's stream, say). A task reads it and
//! hands each event's data to the driver, which delivers it to the client
//! while it waits on an answer. A server that answers the GET with
//! anything but a 200 stream (405 is allowed) simply has no such stream.

use http_body_util::BodyExt;
use mcp_lanes_core::rules;
use mcp_lanes_core::sim::{EventKind, Side};
use mcp_lanes_core::transport::http::{PROTOCOL_VERSION_HEADER, SESSION_HEADER};
use mcp_lanes_core::transport::sse::SseDecoder;
use mcp_lanes_core::transport::HttpRequest;
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver};
use tokio::time::Instant;

use super::http::HttpWire;
use super::Session;

/// The session stream: not tried yet, or its events as they come.
#[derive(Default)]
pub(super) struct Listen {
    tried: bool,
    events: Option<UnboundedReceiver<String>>,
}

impl Listen {
    /// The next event's data; pending forever when there is no stream.
    pub(super) async fn recv(&mut self) -> String {
        if let Some(rx) = &mut self.events {
            if let Some(text) = rx.recv().await {
                return text;
            }
            self.events = None;
        }
        std::future::pending().await
    }
}

/// The session id and protocol version headers of `request`, when it is
/// sent within a legacy session.
fn session_headers(request: &HttpRequest) -> Option<Vec<(String, String)>> {
    let find = |name: &str| {
        request
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(k, v)| (k.clone(), v.clone()))
    };
    let mut headers = vec![find(SESSION_HEADER)?];
    headers.extend(find(PROTOCOL_VERSION_HEADER));
    headers.push(("Accept".into(), "text/event-stream".into()));
    Some(headers)
}

/// Opens the session stream once, before the first request sent within a
/// legacy session.
pub(super) async fn open(wire: &mut HttpWire, session: &mut Session, request: &HttpRequest) {
    if wire.listen.tried {
        return;
    }
    let Some(headers) = session_headers(request) else {
        return;
    };
    wire.listen.tried = true;
    let get = HttpRequest {
        method: "GET".into(),
        path: request.path.clone(),
        headers,
        body: String::new(),
    };
    let deadline = Instant::now() + session.limits.exchange;
    let Some((response, sender)) = wire.fresh(&get, deadline).await else {
        return;
    };
    let stream = response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .is_some_and(|v| {
            v.to_str()
                .is_ok_and(|v| v.trim_start().starts_with("text/event-stream"))
        });
    if response.status().as_u16() != 200 || !stream {
        return;
    }
    session.rec.push(
        EventKind::Decision { side: Side::Client },
        vec![rules::H_SSE_RESUME],
        mcp_lanes_core::note!(
            "driver.listen_open",
            "The session has an id: the client keeps a GET stream open for what the server sends outside its answers."
        ),
    );
    let (tx, rx) = unbounded_channel();
    wire.listen.events = Some(rx);
    let limit = session.limits.max_message;
    let mut body = response.into_body();
    tokio::spawn(async move {
        let _connection = sender;
        let mut decoder = SseDecoder::new(limit);
        while let Some(Ok(frame)) = body.frame().await {
            let Ok(data) = frame.into_data() else {
                continue;
            };
            let Ok(events) = decoder.feed(&data) else {
                return;
            };
            for event in events {
                if !event.data.trim().is_empty() && tx.send(event.data).is_err() {
                    return;
                }
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h_sse_resume_the_session_stream_is_opened_only_within_a_session() {
        let mut post = HttpRequest {
            method: "POST".into(),
            path: "/mcp".into(),
            headers: vec![("MCP-Protocol-Version".into(), "2025-11-25".into())],
            body: "{}".into(),
        };
        assert!(session_headers(&post).is_none());
        post.headers.push(("Mcp-Session-Id".into(), "s".into()));
        let headers = session_headers(&post).unwrap_or_default();
        assert_eq!(headers.len(), 3);
        assert!(headers.iter().all(|(k, _)| k != "Last-Event-ID"));
    }
}
