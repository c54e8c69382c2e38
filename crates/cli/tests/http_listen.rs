//! `serve --transport http --preset reference` with 2026-07-28 listen
//! streams over real sockets: the `subscriptions/listen` response stays
//! open and carries the notifications of changes made through any server
//! instance (M-LISTEN-ACK, M-LISTEN-TAG), and a client that leaves ends its
//! subscription (M-LISTEN-FILTER).

mod common;

use common::{http, http_server_with, Incoming};
use serde_json::{json, Value};

const V: &str = "2026-07-28";

fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": V,
        "io.modelcontextprotocol/clientInfo": {"name": "test-host", "version": "1.0"},
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

fn request(id: u64, method: &str, mut params: Value) -> Value {
    params["_meta"] = meta();
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn headers<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut h = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", V),
        ("Mcp-Method", method),
    ];
    if let Some(name) = name {
        h.push(("Mcp-Name", name));
    }
    h
}

/// Calls `tool` (no arguments) and checks it completed.
fn call(port: u16, id: u64, tool: &str) {
    let body = request(id, "tools/call", json!({"name": tool, "arguments": {}}));
    let reply = http(
        port,
        "POST",
        "/mcp",
        &headers("tools/call", Some(tool)),
        &body.to_string(),
    );
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
}

/// An open listen stream read as its chunks arrive.
struct Listen(Incoming);

impl Listen {
    fn open(port: u16, id: u64, notifications: Value) -> Listen {
        let body = request(
            id,
            "subscriptions/listen",
            json!({"notifications": notifications}),
        )
        .to_string();
        let mut text = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_string();
        for (name, value) in headers("subscriptions/listen", None) {
            text.push_str(&format!("{name}: {value}\r\n"));
        }
        text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
        let listen = Incoming::open(port, &text);
        let head = &listen.head;
        assert!(head.starts_with("HTTP/1.1 200 OK\r\n"), "{head}");
        assert!(head.contains("text/event-stream"), "{head}");
        assert!(head.contains("chunked"), "an open stream: {head}");
        Listen(listen)
    }

    /// The next message on the stream (chunk framing and keep-alive
    /// comments skipped).
    fn message(&mut self) -> Value {
        loop {
            let end = self.0.until(b"\n\n");
            let event: Vec<u8> = self.0.buf.drain(..end + 2).collect();
            let event = String::from_utf8_lossy(&event).into_owned();
            if let Some(data) = event.lines().find_map(|l| l.strip_prefix("data: ")) {
                assert!(
                    !event.lines().any(|l| l.starts_with("id:")),
                    "listen events carry no id: {event:?}"
                );
                return serde_json::from_str(data).expect("JSON data");
            }
        }
    }
}

#[test]
fn m_listen_tag_changes_through_every_instance_reach_the_open_stream() {
    // Four instances: the calls below go to each in turn, and the change
    // each announces must reach the stream held by one of them.
    let (_server, port) = http_server_with("reference", &["--threads", "4"]);
    let mut listen = Listen::open(port, 7, json!({"toolsListChanged": true}));
    let ack = listen.message();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
    for i in 0..4 {
        call(port, 100 + i, "test_trigger_tool_change");
        let news = listen.message();
        assert_eq!(
            news["method"], "notifications/tools/list_changed",
            "call {i}"
        );
        assert_eq!(
            news["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            7
        );
    }
    // What it did not ask for does not come.
    call(port, 200, "test_trigger_prompt_change");
    call(port, 201, "test_trigger_tool_change");
    assert_eq!(
        listen.message()["method"],
        "notifications/tools/list_changed"
    );
}

#[test]
fn m_listen_filter_a_client_that_leaves_ends_its_subscription() {
    let (mut server, port) =
        http_server_with("reference", &["--threads", "2", "--keep-alive", "1"]);
    let mut listen = Listen::open(port, 3, json!({"promptsListChanged": true}));
    assert_eq!(
        listen.message()["method"],
        "notifications/subscriptions/acknowledged"
    );
    drop(listen);
    // The next keep-alive comments find the connection gone; the instance
    // holding the stream is told and forgets the subscription.
    let line = server.stderr_line("the stream was the subscription");
    assert!(line.contains("listen-"), "{line}");
}
