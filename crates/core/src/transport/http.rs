//! Streamable HTTP as data: requests with headers, responses with status.

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::protocol::{meta, methods};

/// Header carrying the protocol version of a modern POST.
pub const PROTOCOL_VERSION_HEADER: &str = "MCP-Protocol-Version";
/// Header mirroring the JSON-RPC method.
pub const METHOD_HEADER: &str = "Mcp-Method";
/// Header mirroring `params.name` / `params.uri`.
pub const NAME_HEADER: &str = "Mcp-Name";
/// Legacy (2025-03-26 .. 2025-11-25) session header.
pub const SESSION_HEADER: &str = "Mcp-Session-Id";
/// Header of a GET that resumes an SSE stream after the event it names.
pub const LAST_EVENT_ID_HEADER: &str = "Last-Event-ID";

/// An HTTP request to the MCP endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpRequest {
    /// `POST`, `GET` or `DELETE`.
    pub method: String,
    /// Request path, `/mcp`.
    pub path: String,
    /// Headers in the order sent.
    pub headers: Vec<(String, String)>,
    /// The body (a JSON-RPC message for POST).
    pub body: String,
}

/// An HTTP response from the MCP endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Headers.
    pub headers: Vec<(String, String)>,
    /// Body; empty for 202 and for silent servers.
    pub body: String,
    /// Set on an SSE response that stays open after its body: the key of
    /// the stream the server's later events for it belong to (a deferred
    /// legacy reply, a resumed or standalone GET stream of a legacy
    /// session, a `subscriptions/listen` stream). Every later message for
    /// it comes as an output whose [`crate::server::ServerOutput::event`]
    /// names this key; the one marked `closes` ends the stream. A driver
    /// writes them to this response, and tells the server with
    /// [`crate::server::Server::stream_closed`] when the client goes away
    /// first. `None`: the body is all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<String>,
}

/// Finds a header by case-insensitive name, trimming optional whitespace
/// around the value (RFC 9110 §5.5).
pub fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.trim_matches([' ', '\t']))
}

impl HttpRequest {
    /// A POST of `body` to `/mcp` with the given headers.
    pub fn post(headers: Vec<(String, String)>, body: String) -> Self {
        Self {
            method: "POST".into(),
            path: "/mcp".into(),
            headers,
            body,
        }
    }
    /// Looks a header up (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

impl HttpResponse {
    /// A JSON response.
    pub fn json(status: u16, body: String) -> Self {
        Self {
            status,
            headers: vec![("Content-Type".into(), "application/json".into())],
            body,
            stream: None,
        }
    }
    /// A response without a body.
    pub fn empty(status: u16) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: String::new(),
            stream: None,
        }
    }
    /// Looks a header up (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        header(&self.headers, name)
    }
}

impl HttpResponse {
    /// An SSE response (`text/event-stream`) with this body.
    pub fn event_stream(body: String) -> Self {
        Self {
            status: 200,
            headers: vec![("Content-Type".into(), "text/event-stream".into())],
            body,
            stream: None,
        }
    }
}

/// The reason phrase of a status code.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        413 => "Content Too Large",
        500 => "Internal Server Error",
        _ => "",
    }
}

/// The HTTP status the modern binding gives the reply to `request`
/// (H-STATUS), for a gateway that relays a server that cannot choose one:
/// [`modern_reply_status`], except that a -32602 to a request whose
/// `_meta` is malformed (M-META-REQUIRED) gets 400.
pub fn modern_reply_status_for(request: &Value, reply: &Value) -> u16 {
    let invalid_params = reply
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64)
        == Some(crate::protocol::jsonrpc::ErrorCode::INVALID_PARAMS.0);
    if invalid_params && meta_is_malformed(request) {
        return 400;
    }
    modern_reply_status(reply)
}

/// Whether a request's `params._meta` is missing or not shaped as every
/// modern request's must be (M-META-REQUIRED).
pub fn meta_is_malformed(request: &Value) -> bool {
    match request.get("params").and_then(|p| p.get("_meta")) {
        None => true,
        Some(m) => {
            crate::protocol::shape::check(m, "params._meta", crate::protocol::shape::REQUEST_META)
                .is_err()
        }
    }
}

/// One way a modern POST's headers contradict its body (H-HEADERS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderMismatch {
    /// The header's name.
    pub name: &'static str,
    /// What the header says (decoded), if it is there.
    pub header: Option<String>,
    /// What the body says it should say, if anything.
    pub body: Option<String>,
}

/// The first of `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` whose
/// value in `sent` differs from what `body` says. Names compare
/// case-insensitively, values after trimming and decoding the
/// `=?base64?…?=` form.
pub fn header_mismatch(sent: &[(String, String)], body: &Value) -> Option<HeaderMismatch> {
    let expected = modern_headers(body);
    let decode = |value: &str| {
        let value = value.trim();
        decode_header_value(value).unwrap_or_else(|| value.to_string())
    };
    for name in [PROTOCOL_VERSION_HEADER, METHOD_HEADER, NAME_HEADER] {
        let want = header(&expected, name).map(decode);
        let have = header(sent, name).map(decode);
        if want != have {
            return Some(HeaderMismatch {
                name,
                header: have,
                body: want,
            });
        }
    }
    None
}

/// The HTTP status the modern Streamable HTTP binding gives a JSON-RPC
/// reply (H-STATUS), for a gateway that relays the replies of a server that
/// cannot choose one (`mcp-lanes bridge` in front of a stdio server): 400
/// for -32700, -32600, -32020, -32021 and -32022; 404 for -32601; 200 for a
/// result and for any other error. A -32602 caused by malformed `_meta`
/// (400 from a server that knows why) cannot be told from an unknown
/// tool's -32602 (200) by its code alone: it gets 200 here
/// ([`modern_reply_status_for`] reads the request too).
pub fn modern_reply_status(reply: &Value) -> u16 {
    use crate::protocol::jsonrpc::ErrorCode;
    let code = reply
        .get("error")
        .and_then(|e| e.get("code"))
        .and_then(Value::as_i64);
    let bad_request = [
        ErrorCode::PARSE_ERROR,
        ErrorCode::INVALID_REQUEST,
        ErrorCode::HEADER_MISMATCH,
        ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY,
        ErrorCode::UNSUPPORTED_PROTOCOL_VERSION,
    ];
    match code {
        Some(c) if bad_request.iter().any(|b| b.0 == c) => 400,
        Some(c) if ErrorCode::METHOD_NOT_FOUND.0 == c => 404,
        _ => 200,
    }
}

/// Encodes a header value, using the `=?base64?…?=` form when the value is
/// not plain visible ASCII and spaces (a control character such as tab, CR
/// or LF, or anything non-ASCII), has surrounding whitespace, or looks like
/// the sentinel itself (C-PARAM-HEADERS, H-HEADERS).
pub fn encode_header_value(value: &str) -> String {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && value.trim() == value
        && !(value.starts_with("=?base64?") && value.ends_with("?="));
    if plain {
        value.to_string()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(value.as_bytes())
        )
    }
}

/// Decodes a header value that may use the `=?base64?…?=` form.
pub fn decode_header_value(value: &str) -> Option<String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(encoded) => base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(value.to_string()),
    }
}

/// The headers a conforming modern client puts on a POST of `message`
/// (H-HEADERS): content negotiation, protocol version, method and name.
pub fn modern_headers(message: &Value) -> Vec<(String, String)> {
    let mut headers = base_headers();
    let params = message.get("params");
    if let Some(pv) = params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(meta::PROTOCOL_VERSION))
        .and_then(Value::as_str)
    {
        headers.push((PROTOCOL_VERSION_HEADER.into(), pv.into()));
    }
    if let Some(method) = message.get("method").and_then(Value::as_str) {
        headers.push((METHOD_HEADER.into(), method.into()));
        if let Some(key) = methods::name_param(method) {
            if let Some(name) = params.and_then(|p| p.get(key)).and_then(Value::as_str) {
                headers.push((NAME_HEADER.into(), encode_header_value(name)));
            }
        }
    }
    headers
}

/// The headers of a legacy Streamable HTTP POST (protocol version header
/// after initialize, and the session id the server minted).
pub fn legacy_headers(version: Option<&str>, session: Option<&str>) -> Vec<(String, String)> {
    let mut headers = base_headers();
    if let Some(version) = version {
        headers.push((PROTOCOL_VERSION_HEADER.into(), version.into()));
    }
    if let Some(session) = session {
        headers.push((SESSION_HEADER.into(), session.into()));
    }
    headers
}

fn base_headers() -> Vec<(String, String)> {
    vec![
        ("Content-Type".into(), "application/json".into()),
        (
            "Accept".into(),
            "application/json, text/event-stream".into(),
        ),
    ]
}

/// One SSE event carrying a JSON-RPC message, with its event id if the
/// stream has them (for resumption with `Last-Event-ID`).
pub fn sse_event(id: Option<&str>, data: &str) -> String {
    match id {
        Some(id) => format!("id: {id}\nevent: message\ndata: {data}\n\n"),
        None => format!("event: message\ndata: {data}\n\n"),
    }
}

/// The `id` of every event of a `text/event-stream` body that has one, in
/// order, paired with the event's index among the events with data.
pub fn sse_event_ids(body: &str) -> Vec<Option<String>> {
    body.split("\n\n")
        .filter(|event| event.lines().any(|l| l.starts_with("data:")))
        .map(|event| {
            event
                .lines()
                .find_map(|l| l.strip_prefix("id:"))
                .map(|id| id.trim_start().to_string())
        })
        .collect()
}

/// The `data` payloads of a `text/event-stream` body, one per event.
pub fn sse_events(body: &str) -> Vec<String> {
    body.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| d.trim_start())
                .collect();
            (!data.is_empty()).then(|| data.join("\n"))
        })
        .collect()
}

/// Puts `messages` on `response` as SSE events before its own message(s):
/// a 200 JSON answer becomes a stream of those events and then the answer
/// (H-SSE-RESPONSE), a stream gets them first. Any other response has no
/// stream to carry them: false, and `response` is left as it was.
pub fn events_first(response: &mut HttpResponse, messages: &[String]) -> bool {
    if response.status != 200 {
        return false;
    }
    let mut body: String = messages.iter().map(|m| sse_event(None, m)).collect();
    if is_event_stream(response) {
        body.push_str(&response.body);
    } else if !response.body.is_empty()
        && response
            .header("Content-Type")
            .is_some_and(|v| v.starts_with("application/json"))
    {
        body.push_str(&sse_event(None, &response.body));
        for (name, value) in &mut response.headers {
            if name.eq_ignore_ascii_case("Content-Type") {
                *value = "text/event-stream".into();
            }
        }
    } else {
        return false;
    }
    response.body = body;
    true
}

/// Whether a response carries an SSE stream.
pub fn is_event_stream(response: &HttpResponse) -> bool {
    response
        .header("Content-Type")
        .is_some_and(|v| v.starts_with("text/event-stream"))
}

#[cfg(test)]
mod relay_tests {
    use super::*;

    #[test]
    fn h_sse_response_events_first_turn_a_json_answer_into_a_stream_that_ends_with_it() {
        let note = r#"{"jsonrpc":"2.0","method":"notifications/message"}"#.to_string();
        let mut json = HttpResponse::json(200, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into());
        json.headers.push(("Mcp-Session-Id".into(), "s1".into()));
        assert!(events_first(&mut json, std::slice::from_ref(&note)));
        assert!(is_event_stream(&json));
        assert_eq!(
            json.header("Mcp-Session-Id"),
            Some("s1"),
            "other headers stay"
        );
        let events = sse_events(&json.body);
        assert_eq!(
            events,
            [note.as_str(), r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]
        );
        // A stream gets them first; an error status or an empty body has
        // no stream to carry them.
        let mut stream = HttpResponse::event_stream(sse_event(None, "{}"));
        assert!(events_first(&mut stream, std::slice::from_ref(&note)));
        assert_eq!(sse_events(&stream.body), [note.as_str(), "{}"]);
        for mut other in [
            HttpResponse::json(400, "{}".into()),
            HttpResponse::empty(202),
        ] {
            let before = other.clone();
            assert!(!events_first(&mut other, std::slice::from_ref(&note)));
            assert_eq!(other, before);
        }
    }

    #[test]
    fn h_status_of_a_relayed_modern_reply() {
        let reply = |code: i64| serde_json::json!({"jsonrpc": "2.0", "id": 1, "error": {"code": code, "message": "x"}});
        for code in [-32700, -32600, -32020, -32021, -32022] {
            assert_eq!(modern_reply_status(&reply(code)), 400, "{code}");
        }
        assert_eq!(modern_reply_status(&reply(-32601)), 404);
        assert_eq!(modern_reply_status(&reply(-32602)), 200);
        assert_eq!(modern_reply_status(&reply(-32603)), 200);
        let result = serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {}});
        assert_eq!(modern_reply_status(&result), 200);
    }
}
