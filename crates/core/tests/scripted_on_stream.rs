//! A notification a set-up ties to a request (`"after": METHOD`, at once)
//! travels over HTTP on that request's response stream, and the answer is
//! the stream's last event: one POST, one SSE response (H-SSE-RESPONSE).
//! It used to be drawn as a stream event next to a separate JSON response.
//! Found by the course lessons on logging and audit (`tests/lessons/15`,
//! `29`).

mod common;

use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::Side;
use serde_json::json;

#[test]
fn h_sse_response_a_notification_tied_to_a_request_travels_on_its_response_stream() {
    let value = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "servers": [{"id": "s", "capabilities": {"tools": {}, "logging": {}}, "tools": [{"name": "build", "result": "built"}]}],
        "setups": [{
            "client": "plain", "server": "s", "transport": "http",
            "serverEvents": [{"atMs": 0, "event": "notify", "after": "tools/call",
                "message": {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "compiling"}}}],
            "steps": [
                {"do": "call", "tool": "build", "arguments": {}, "_meta": {"io.modelcontextprotocol/logLevel": "info"}},
                {"do": "call", "tool": "build", "arguments": {}}
            ]
        }]
    });
    let loaded = file::load_value(&value).expect("a valid file");
    let timeline = scenarios::run_setups(&loaded.setups).remove(0);
    common::assert_timeline_valid(&timeline);
    let server: Vec<_> = timeline
        .messages()
        .filter(|(_, m)| m.from == Side::Server)
        .map(|(_, m)| m.clone())
        .collect();
    let content_type = |i: usize| {
        server[i].http.as_ref().and_then(|h| {
            h.headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("content-type"))
                .map(|(_, v)| v.clone())
        })
    };
    assert_eq!(server.len(), 3, "{server:#?}");
    // The notification and the first call's answer: one SSE response.
    assert_eq!(content_type(0).as_deref(), Some("text/event-stream"));
    assert_eq!(server[0].http.as_ref().and_then(|h| h.status), Some(200));
    assert_eq!(
        content_type(1).as_deref(),
        Some("text/event-stream"),
        "{:?}",
        server[1].http
    );
    // The second call had nothing on its stream: plain JSON.
    assert_eq!(content_type(2).as_deref(), Some("application/json"));
}
