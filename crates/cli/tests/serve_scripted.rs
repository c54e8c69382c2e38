//! `serve --file` plays the file's scripted server events (`reply`,
//! `notify`) for the server it serves, on stdio and over HTTP, as the
//! simulator does on its virtual clock.

mod common;

use common::{modern, post, post_legacy, serve_file_http, Incoming, Proc};
use serde_json::{json, Value};

/// Writes scenario file `file` to a temporary path of its own; the path.
fn write_file(name: &str, file: &Value) -> String {
    let dir = std::env::temp_dir().join(format!("mcp-lanes-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, file.to_string()).expect("write the file");
    path.display().to_string()
}

/// `serve --file PATH --server srv` over HTTP, and its port.
fn serve_http(path: &str) -> (Proc, u16) {
    serve_file_http(path, "srv")
}

fn scripted_file() -> String {
    let file = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "scripted",
        "servers": [{"id": "srv", "tools": [{"name": "stock", "result": "14 in stock."}]}],
        "setups": [{
            "client": "plain", "server": "srv", "transport": "stdio",
            "steps": [{"do": "call", "tool": "stock"}],
            "serverEvents": [
                {"atMs": 0, "event": "reply", "method": "tools/call", "tool": "stock",
                 "reply": {"jsonrpc": "2.0", "result": {"content": [{"type": "text", "text": "14"}]}},
                 "violation": "a 2026-07-28 result without resultType", "rules": ["M-RESULT-TYPE"]},
                {"atMs": 0, "event": "notify", "after": "tools/call",
                 "message": {"jsonrpc": "2.0", "method": "notifications/message",
                             "params": {"level": "info", "data": "tied"}}},
                {"atMs": 1500, "event": "notify",
                 "message": {"jsonrpc": "2.0", "method": "notifications/message",
                             "params": {"level": "info", "data": "timed"}}}
            ]
        }]
    });
    write_file("scripted", &file)
}

fn call(id: u64) -> Value {
    modern(
        id,
        "tools/call",
        json!({"name": "stock", "arguments": {}}),
        json!({}),
    )
}

#[test]
fn serve_file_plays_the_scripted_reply_and_notifications_on_stdio() {
    let mut p = Proc::spawn(&["serve", "--file", &scripted_file(), "--server", "srv"]);
    p.send(&call(1));
    let got: Vec<Value> = (0..3).map(|_| p.recv()).collect();
    let data = |m: &Value| m["params"]["data"].as_str().map(str::to_string);
    assert!(
        got.iter().any(|m| data(m).as_deref() == Some("tied")),
        "{got:?}"
    );
    assert!(
        got.iter().any(|m| data(m).as_deref() == Some("timed")),
        "{got:?}"
    );
    let reply = got.iter().find(|m| m.get("id").is_some()).expect("a reply");
    assert_eq!(reply["id"], 1);
    assert_eq!(
        reply["result"]["content"][0]["text"], "14",
        "the scripted reply"
    );
    assert!(reply["result"].get("resultType").is_none(), "{reply}");
    // Once: the next call gets the server's own answer.
    let own = p.call(&call(2));
    assert_eq!(own["result"]["resultType"], "complete", "{own}");
    assert_eq!(own["result"]["content"][0]["text"], "14 in stock.");
    assert!(p.close_and_wait().success());
}

#[test]
fn serve_file_plays_the_scripted_reply_over_http() {
    let file = scripted_file();
    let (_proc, port) = serve_http(&file);
    // The notification tied to tools/call travels on the call's own
    // response, before its answer (H-SSE-RESPONSE), as in the simulator.
    let first = post(port, "2026-07-28", &call(1), &[]);
    assert_eq!(first.status, 200);
    assert_eq!(first.header("Content-Type"), Some("text/event-stream"));
    let events = first.events();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["params"]["data"], "tied", "{events:?}");
    let body = &events[1];
    assert_eq!(body["id"], 1);
    assert_eq!(body["result"]["content"][0]["text"], "14", "{body}");
    // Once: the next call gets the server's own answer, as plain JSON.
    let second = post(port, "2026-07-28", &call(2), &[]).json();
    assert_eq!(second["result"]["resultType"], "complete", "{second}");
}

#[test]
fn serve_file_sends_a_tied_notification_on_the_requests_own_stream_over_http() {
    let file = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "tied-http",
        "servers": [{"id": "srv", "tools": [{"name": "stock", "result": "14 in stock."}]}],
        "setups": [{
            "client": "plain", "server": "srv", "transport": "http",
            "steps": [{"do": "call", "tool": "stock"}],
            "serverEvents": [
                {"atMs": 0, "event": "notify", "after": "tools/call",
                 "message": {"jsonrpc": "2.0", "method": "notifications/message",
                             "params": {"level": "info", "data": "audit: stock read"}}}
            ]
        }]
    });
    let path = write_file("tied-http", &file);
    let (mut proc, port) = serve_http(&path);
    let reply = post(port, "2026-07-28", &call(1), &[]);
    assert_eq!(reply.status, 200);
    let events = reply.events();
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(events[0]["method"], "notifications/message");
    assert_eq!(events[0]["params"]["data"], "audit: stock read");
    assert_eq!(events[1]["id"], 1);
    assert_eq!(events[1]["result"]["content"][0]["text"], "14 in stock.");
    assert!(
        !proc.stderr_text().contains("not sent"),
        "the tied notification had a stream to travel on"
    );
}

#[test]
fn serve_file_sends_a_scripted_notification_on_a_sessions_stream_over_http() {
    const V: &str = "2025-06-18";
    let file = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "scripted-http",
        "servers": [{"id": "srv", "era": "legacy", "legacyVersions": [V],
                     "tools": [{"name": "stock", "result": "14 in stock."}]}],
        "setups": [{
            "client": "plain", "server": "srv", "transport": "http",
            "steps": [{"do": "call", "tool": "stock"}],
            "serverEvents": [
                {"atMs": 1000, "event": "notify",
                 "message": {"jsonrpc": "2.0", "method": "notifications/message",
                             "params": {"level": "info", "data": "timed"}}}
            ]
        }]
    });
    let path = write_file("scripted-http", &file);
    let (_proc, port) = serve_http(&path);
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": V, "capabilities": {},
        "clientInfo": {"name": "test-host", "version": "1.0"}}});
    let reply = post_legacy(port, &init, &[]);
    assert_eq!(reply.status, 200);
    let session = reply
        .header("Mcp-Session-Id")
        .expect("a session id")
        .to_string();
    let headers = [
        ("MCP-Protocol-Version", V),
        ("Mcp-Session-Id", session.as_str()),
    ];
    let done = post_legacy(
        port,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        &headers,
    );
    assert_eq!(done.status, 202);
    // The session's standalone stream.
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: {V}\r\nMcp-Session-Id: {session}\r\n\r\n"
    );
    let mut stream = Incoming::open(port, &get);
    assert!(stream.head.starts_with("HTTP/1.1 200"), "{}", stream.head);
    // Once its time has come, the next request plays it: on the stream.
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let ping = post_legacy(
        port,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        &headers,
    );
    assert_eq!(ping.status, 200);
    let event = stream.chunk().expect("an event on the standalone stream");
    let data = event
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or_else(|| panic!("no data in {event:?}"));
    let message: Value = serde_json::from_str(data).expect("JSON");
    assert_eq!(message["method"], "notifications/message", "{message}");
    assert_eq!(message["params"]["data"], "timed");
}
