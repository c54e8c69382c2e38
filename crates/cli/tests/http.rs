//! `serve --transport http`: Streamable HTTP on 127.0.0.1, driven with a
//! raw HTTP/1.1 client over a TcpStream.

mod common;

use common::{http, http_server, modern, post, post_legacy, raw_http};
use serde_json::{json, Value};

const MODERN: &str = "2026-07-28";

fn discover(id: u64) -> Value {
    modern(id, "server/discover", json!({}), json!({}))
}

fn notify_oncall(id: u64, caps: Value) -> Value {
    modern(
        id,
        "tools/call",
        json!({"name": "notify_oncall", "arguments": {"incident": "INC-4211"}}),
        caps,
    )
}

#[test]
fn h_status_200_for_discover_with_matching_headers() {
    let (_server, port) = http_server("deploy-console");
    let reply = post(port, MODERN, &discover(1), &[]);
    assert_eq!(reply.status, 200);
    assert!(
        reply
            .header("Content-Type")
            .unwrap_or("")
            .starts_with("application/json"),
        "{:?}",
        reply.headers
    );
    let body = reply.json();
    assert_eq!(body["id"], 1);
    assert_eq!(body["result"]["supportedVersions"], json!([MODERN]));
    assert_eq!(body["result"]["cacheScope"], "public");
    assert!(reply.header("Mcp-Session-Id").is_none(), "H-SESSION");
}

#[test]
fn h_headers_version_mismatch_gets_400_with_32020() {
    let (_server, port) = http_server("deploy-console");
    // The header names 2025-11-25 while _meta names 2026-07-28.
    let reply = post(port, "2025-11-25", &discover(1), &[]);
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["error"]["code"], -32020);
}

#[test]
fn h_headers_method_mismatch_gets_400_with_32020() {
    let (_server, port) = http_server("deploy-console");
    let reply = http(
        port,
        "POST",
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("MCP-Protocol-Version", MODERN),
            ("Mcp-Method", "tools/list"),
        ],
        &discover(1).to_string(),
    );
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["error"]["code"], -32020);
}

#[test]
fn h_status_missing_capability_gets_400_with_32021() {
    let (_server, port) = http_server("deploy-console");
    let reply = post(port, MODERN, &notify_oncall(1, json!({})), &[]);
    assert_eq!(reply.status, 400);
    let body = reply.json();
    assert_eq!(body["error"]["code"], -32021);
    assert!(body["error"]["data"]["requiredCapabilities"]
        .get("elicitation")
        .is_some());
    let declared = post(
        port,
        MODERN,
        &notify_oncall(2, json!({"elicitation": {}})),
        &[],
    );
    assert_eq!(declared.status, 200);
    assert_eq!(declared.json()["result"]["resultType"], "complete");
}

#[test]
fn h_status_unknown_method_gets_404_with_32601() {
    let (_server, port) = http_server("deploy-console");
    let reply = post(
        port,
        MODERN,
        &modern(1, "no/such/method", json!({}), json!({})),
        &[],
    );
    assert_eq!(reply.status, 404);
    assert_eq!(reply.json()["error"]["code"], -32601);
}

#[test]
fn h_status_get_gets_405() {
    let (_server, port) = http_server("deploy-console");
    let reply = http(port, "GET", "/mcp", &[("Accept", "text/event-stream")], "");
    assert_eq!(reply.status, 405);
    assert_eq!(reply.header("Allow"), Some("POST"));
    let delete = http(port, "DELETE", "/mcp", &[], "");
    assert_eq!(delete.status, 405);
}

#[test]
fn h_status_notification_gets_202_with_empty_body() {
    let (_server, port) = http_server("deploy-console");
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let reply = http(
        port,
        "POST",
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("Mcp-Method", "notifications/initialized"),
        ],
        &note.to_string(),
    );
    assert_eq!(reply.status, 202);
    assert!(reply.body.is_empty());
}

#[test]
fn h_status_foreign_origin_gets_403() {
    let (_server, port) = http_server("deploy-console");
    let reply = post(
        port,
        MODERN,
        &discover(1),
        &[("Origin", "http://evil.example")],
    );
    assert_eq!(reply.status, 403);
    let local = post(
        port,
        MODERN,
        &discover(2),
        &[("Origin", "http://localhost:6274")],
    );
    assert_eq!(local.status, 200);
}

#[test]
fn h_status_other_paths_get_404() {
    let (_server, port) = http_server("deploy-console");
    for path in ["/", "/mcp/", "/sse", "/messages"] {
        let reply = http(port, "POST", path, &[], &discover(1).to_string());
        assert_eq!(reply.status, 404, "{path}");
    }
    // A query string does not change the path.
    let reply = http(
        port,
        "POST",
        "/mcp?x=1",
        &[
            ("MCP-Protocol-Version", MODERN),
            ("Mcp-Method", "server/discover"),
        ],
        &discover(1).to_string(),
    );
    assert_eq!(reply.status, 200);
}

#[test]
fn h_status_oversized_body_gets_413() {
    let (_server, port) = http_server("deploy-console");
    let body = " ".repeat(4 * 1024 * 1024 + 1);
    let reply = http(port, "POST", "/mcp", &[], &body);
    assert_eq!(reply.status, 413);
    // A Content-Length far beyond memory is refused without reading it.
    let reply = raw_http(
        port,
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999999999\r\n\r\n{}",
    );
    assert_eq!(reply.status, 413);
}

#[test]
fn rpc_parse_bodies_that_are_not_json_or_not_utf8_get_400_with_32700() {
    let (_server, port) = http_server("deploy-console");
    let reply = http(port, "POST", "/mcp", &[], "not json");
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["error"]["code"], -32700);
    let mut raw =
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nConnection: close\r\n\r\n".to_vec();
    raw.extend_from_slice(b"{\xff}\n");
    let reply = raw_http(port, &raw);
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["error"]["code"], -32700);
}

#[test]
fn h_status_still_serves_after_every_bad_request() {
    let (mut server, port) = http_server("deploy-console");
    post(port, "2025-11-25", &discover(1), &[]);
    post(port, MODERN, &notify_oncall(2, json!({})), &[]);
    post(port, MODERN, &modern(3, "nope", json!({}), json!({})), &[]);
    post(
        port,
        MODERN,
        &discover(4),
        &[("Origin", "http://evil.example")],
    );
    http(port, "GET", "/mcp", &[], "");
    http(port, "POST", "/elsewhere", &[], "{}");
    http(port, "POST", "/mcp", &[], "{\"jsonrpc\":");
    raw_http(port, b"THIS IS NOT HTTP\r\n\r\n");
    raw_http(port, b"POST /mcp HTTP/1.1\r\nContent-Length: -5\r\n\r\n");
    raw_http(
        port,
        b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{}",
    );
    let reply = post(port, MODERN, &discover(5), &[]);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["id"], 5);
    assert!(server.running());
    server.stderr_line("listening on http://127.0.0.1:");
}

#[test]
fn keep_alive_serves_several_requests_on_one_connection() {
    use std::io::{Read, Write};
    let (_server, port) = http_server("deploy-console");
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(common::TIMEOUT))
        .expect("timeout");
    let one = |id: u64| {
        let body = discover(id).to_string();
        format!(
            "POST /mcp HTTP/1.1\r\nHost: x\r\nMCP-Protocol-Version: {MODERN}\r\nMcp-Method: server/discover\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    // Two pipelined requests, then read both responses.
    stream
        .write_all(format!("{}{}", one(1), one(2)).as_bytes())
        .expect("write");
    let mut raw = Vec::new();
    let mut chunk = [0u8; 4096];
    while raw.windows(8).filter(|w| w == b"HTTP/1.1").count() < 2 || !raw.ends_with(b"}}}") {
        let n = stream.read(&mut chunk).expect("read");
        assert!(n > 0, "connection closed early");
        raw.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8_lossy(&raw);
    assert_eq!(text.matches("HTTP/1.1 200 OK").count(), 2, "{text}");
    assert!(
        text.contains("\"id\":1") && text.contains("\"id\":2"),
        "{text}"
    );
}

#[test]
fn chunked_request_bodies_are_read() {
    let (_server, port) = http_server("deploy-console");
    let body = discover(1).to_string();
    let (a, b) = body.split_at(10);
    let raw = format!(
        "POST /mcp HTTP/1.1\r\nHost: x\r\nMCP-Protocol-Version: {MODERN}\r\nMcp-Method: server/discover\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{a}\r\n{:x}\r\n{b}\r\n0\r\n\r\n",
        a.len(),
        b.len()
    );
    let reply = raw_http(port, raw.as_bytes());
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["id"], 1);
}

#[test]
fn l_init_legacy_session_over_http() {
    let (_server, port) = http_server("notes");
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test-host", "version": "1.0"}
        }
    });
    let reply = post_legacy(port, &init, &[]);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["result"]["protocolVersion"], "2025-06-18");
    let session = reply
        .header("Mcp-Session-Id")
        .expect("a legacy session id")
        .to_string();
    let headers = [
        ("Content-Type", "application/json"),
        ("MCP-Protocol-Version", "2025-06-18"),
        ("Mcp-Session-Id", session.as_str()),
    ];
    let done = http(
        port,
        "POST",
        "/mcp",
        &headers,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
    );
    assert_eq!(done.status, 202);
    let tools = http(
        port,
        "POST",
        "/mcp",
        &headers,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string(),
    );
    assert_eq!(tools.status, 200);
    assert!(tools.json()["result"]["tools"].is_array());
}
