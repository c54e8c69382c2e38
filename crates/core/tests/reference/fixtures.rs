//! What the concerns share: the reference server, schema validation of
//! every message, and HTTP exchanges that validate what comes back.

use crate::common::schema::schemas;
use crate::common::*;
use mcp_lanes_core::server::{ConnId, OutputKind, Server};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{self, HttpRequest, HttpResponse};
use serde_json::{json, Value};

pub const ALL_CAPS: fn() -> Value =
    || json!({"sampling": {}, "elicitation": {}, "roots": {"listChanged": true}});

pub fn reference() -> Server {
    server("reference")
}

/// Validates `message` against the schema of `rev` (`origin`: the method of
/// the request a result answers).
pub fn valid(rev: &str, message: &Value, origin: Option<&str>) {
    if let Err(failure) = schemas().validate_message(rev, message, origin) {
        panic!("{message} is not a valid {rev} message: {failure:?}");
    }
}

/// POSTs a modern request with the headers a conforming client sends and
/// returns the response and every JSON-RPC message of its body (SSE events
/// or the one JSON body), each validated.
pub fn exchange(server: &mut Server, message: &Value) -> (HttpResponse, Vec<Value>) {
    exchange_req(server, &post(message), message)
}

pub fn exchange_req(
    server: &mut Server,
    request: &HttpRequest,
    message: &Value,
) -> (HttpResponse, Vec<Value>) {
    let response = server.handle_http(SimTime::ZERO, request).response;
    let bodies: Vec<String> = if http::is_event_stream(&response) {
        http::sse_events(&response.body)
    } else if response.body.is_empty() {
        Vec::new()
    } else {
        vec![response.body.clone()]
    };
    let method = message["method"].as_str();
    let messages: Vec<Value> = bodies
        .iter()
        .map(|b| serde_json::from_str(b).unwrap_or_else(|e| panic!("{e}: {b}")))
        .collect();
    for m in &messages {
        valid("2026-07-28", m, method);
    }
    (response, messages)
}

/// The final response among `messages` (the one with an id).
pub fn response(messages: &[Value]) -> Value {
    messages
        .iter()
        .rev()
        .find(|m| m.get("id").is_some())
        .cloned()
        .unwrap_or_else(|| panic!("no response among {messages:?}"))
}

pub fn result(messages: &[Value]) -> Value {
    let r = response(messages);
    assert!(r.get("result").is_some(), "expected a result: {r}");
    r["result"].clone()
}

/// Sends on `conn` whatever the server queued for it, validated.
pub fn sends_to(outputs: &[mcp_lanes_core::server::ServerOutput], conn: &ConnId) -> Vec<Value> {
    outputs
        .iter()
        .filter(|o| o.conn == *conn)
        .filter_map(|o| match &o.kind {
            OutputKind::Send {
                message, revision, ..
            } => {
                if message.get("method").is_some() {
                    valid(revision.as_str(), message, None);
                }
                Some(message.clone())
            }
            _ => None,
        })
        .collect()
}
