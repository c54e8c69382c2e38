//! The thin seam between hyper and the sans-IO core: `http::Request` parts
//! and body bytes in, the core's [`HttpRequest`] out, and the core's
//! [`HttpResponse`] back into an `http::Response`. Every call into the
//! core's HTTP entry goes through [`handle`], so a change of its signature
//! touches this file only.

use bytes::Bytes;
use http::header::{HeaderName, HeaderValue};
use http::request::Parts;
use http::Response;
use hyper::ext::ReasonPhrase;
use mcp_lanes_core::server::Server;
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{self as core_http, HttpRequest, HttpResponse};

use super::body::Body;

/// What the core made of one HTTP request: the response, its rules, note
/// and revision.
pub use mcp_lanes_core::server::HttpReply as Handled;

/// One request through the core's HTTP entry at `now` ms since start.
pub fn handle(server: &mut Server, now: u64, request: &HttpRequest) -> Handled {
    server.handle_http(SimTime::from_millis(now), request)
}

/// The request body is not UTF-8, so the core cannot be handed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotUtf8 {
    /// The decoding error (where the bad byte is).
    pub error: std::str::Utf8Error,
    /// The body's length in bytes.
    pub len: usize,
}

/// The core's request for a request head and its complete body. Header
/// values that are not UTF-8 are read lossily (U+FFFD), as the core only
/// compares them with text; the path drops any query (`/mcp?x` is `/mcp`).
pub fn to_core(parts: &Parts, body: Bytes) -> Result<HttpRequest, NotUtf8> {
    let body = match String::from_utf8(Vec::from(body)) {
        Ok(body) => body,
        Err(err) => {
            return Err(NotUtf8 {
                error: err.utf8_error(),
                len: err.as_bytes().len(),
            })
        }
    };
    let headers = parts
        .headers
        .iter()
        .map(|(name, value)| {
            (
                title_case(name.as_str()),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect();
    Ok(HttpRequest {
        method: parts.method.as_str().to_string(),
        path: parts.uri.path().to_string(),
        headers,
        body,
    })
}

/// `mcp-session-id` as `Mcp-Session-Id` (names arrive lower-cased; the core
/// compares them case-insensitively, the log reads better this way).
fn title_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = true;
    for c in name.chars() {
        out.push(if upper { c.to_ascii_uppercase() } else { c });
        upper = c == '-';
    }
    out
}

/// The reason phrase of a status code (the core's, then the few statuses
/// only the transport sends).
pub fn reason(status: u16) -> &'static str {
    match core_http::reason(status) {
        "" => match status {
            408 => "Request Timeout",
            431 => "Request Header Fields Too Large",
            501 => "Not Implemented",
            503 => "Service Unavailable",
            _ => "",
        },
        known => known,
    }
}

/// An `http::Response` with `status`, the given headers (framing headers
/// and fields that are not valid HTTP are left out: hyper frames the body)
/// and `body`.
pub fn response(status: u16, headers: &[(String, String)], body: Body) -> Response<Body> {
    let mut out = Response::new(body);
    *out.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR);
    if let Ok(phrase) = ReasonPhrase::try_from(reason(status).as_bytes()) {
        out.extensions_mut().insert(phrase);
    }
    let map = out.headers_mut();
    for (name, value) in headers {
        let framing = ["content-length", "transfer-encoding", "connection"]
            .iter()
            .any(|f| name.eq_ignore_ascii_case(f));
        if framing {
            continue;
        }
        let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.as_bytes()),
            HeaderValue::from_str(value),
        ) else {
            continue;
        };
        map.append(name, value);
    }
    // Framed here, before any `Connection` field hyper adds, so the head
    // reads as it always has: fields, Content-Length, Connection.
    if let Body::Full(Some(bytes)) = out.body() {
        let length = HeaderValue::from(bytes.len());
        out.headers_mut()
            .insert(http::header::CONTENT_LENGTH, length);
    }
    out
}

/// The core's response as an `http::Response` with a complete body.
pub fn from_core(response: HttpResponse) -> Response<Body> {
    let HttpResponse {
        status,
        headers,
        body,
        ..
    } = response;
    self::response(status, &headers, Body::full(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(builder: http::request::Builder) -> Parts {
        match builder.body(()) {
            Ok(request) => request.into_parts().0,
            Err(err) => panic!("bad test request: {err}"),
        }
    }

    #[test]
    fn converts_heads_and_bodies() {
        let head = parts(
            http::Request::post("http://127.0.0.1:3000/mcp?x=1")
                .header("mcp-session-id", "abc")
                .header(
                    "x-bytes",
                    HeaderValue::from_bytes(b"a\xffb").unwrap_or(HeaderValue::from_static("?")),
                ),
        );
        let request = to_core(&head, Bytes::from_static(b"{}")).ok();
        let Some(request) = request else {
            panic!("UTF-8 body refused")
        };
        assert_eq!(request.method, "POST");
        assert_eq!(request.path, "/mcp");
        assert_eq!(request.header("Mcp-Session-Id"), Some("abc"));
        assert_eq!(request.headers[0].0, "Mcp-Session-Id");
        assert_eq!(request.header("X-Bytes"), Some("a\u{fffd}b"));
        let bad = to_core(&head, Bytes::from_static(b"{\xff}"));
        assert!(matches!(bad, Err(NotUtf8 { len: 3, .. })));
    }

    #[test]
    fn responses_drop_framing_and_invalid_fields() {
        let headers = vec![
            ("Content-Type".to_string(), "application/json".to_string()),
            ("Content-Length".to_string(), "99".to_string()),
            ("Bad Name".to_string(), "x".to_string()),
            ("X-Split".to_string(), "a\r\nb".to_string()),
        ];
        let out = response(413, &headers, Body::full(String::new()));
        assert_eq!(out.status(), 413);
        assert_eq!(out.headers().len(), 2);
        assert_eq!(
            out.headers().get("content-length").map(|v| v.as_bytes()),
            Some(&b"0"[..])
        );
        assert_eq!(
            out.extensions().get::<ReasonPhrase>().map(|r| r.as_bytes()),
            Some(&b"Content Too Large"[..])
        );
        assert_eq!(response(1000, &[], Body::full(String::new())).status(), 500);
    }
}
