//! `serve --transport http` with legacy sessions over real sockets: a
//! deferred reply's SSE stream stays open and ends with the result
//! (H-SSE-STREAM), resumption after a dropped connection (H-SSE-RESUME),
//! random session ids (L-SESSION-ID), expiry (L-SESSION-IDLE), and the
//! server's behaviour with slow, silent, half-closed and many clients and
//! at shutdown.

mod common;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use common::{http, http_server, http_server_with, post_legacy, Incoming, TIMEOUT};
use serde_json::{json, Value};

const V: &str = "2025-06-18";

fn initialize(port: u16, caps: Value) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": V, "capabilities": caps,
        "clientInfo": {"name": "test-host", "version": "1.0"}}});
    let reply = post_legacy(port, &init, &[]);
    assert_eq!(reply.status, 200);
    let session = reply
        .header("Mcp-Session-Id")
        .expect("a session id")
        .to_string();
    let done = post(
        port,
        &session,
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    assert_eq!(done.status, 202);
    session
}

fn post(port: u16, session: &str, body: &Value) -> common::HttpReply {
    post_legacy(
        port,
        body,
        &[("MCP-Protocol-Version", V), ("Mcp-Session-Id", session)],
    )
}

/// The next SSE event of a streamed response, as (id, data JSON).
fn event(streamed: &mut Incoming) -> (String, Value) {
    let text = streamed
        .chunk()
        .expect("an event, not the end of the stream");
    parse_event(&text)
}

fn parse_event(text: &str) -> (String, Value) {
    let id = text
        .lines()
        .find_map(|l| l.strip_prefix("id: "))
        .expect("an event id")
        .to_string();
    let data = text
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .expect("data");
    (id, serde_json::from_str(data).expect("JSON data"))
}

fn request_text(method: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut text = format!("{method} /mcp HTTP/1.1\r\nHost: x\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    text
}

fn purge_request(session: &str) -> String {
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "purge_index", "arguments": {"index": "docs"}}});
    request_text(
        "POST",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
            ("MCP-Protocol-Version", V),
            ("Mcp-Session-Id", session),
        ],
        &call.to_string(),
    )
}

fn accept(elicitation: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": elicitation["id"],
        "result": {"action": "accept", "content": {"retention_days": 30}}})
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
}

#[test]
fn h_sse_stream_legacy_elicitation_round_trip_with_the_result_on_the_same_stream() {
    let (mut server, port) = http_server("search-index");
    let session = initialize(port, json!({"elicitation": {}}));
    let mut call = Incoming::open(port, &purge_request(&session));
    assert!(
        call.head.starts_with("HTTP/1.1 200 OK\r\n"),
        "{}",
        call.head
    );
    assert_eq!(
        header(&call.head, "Content-Type"),
        Some("text/event-stream")
    );
    assert_eq!(header(&call.head, "Transfer-Encoding"), Some("chunked"));
    assert_eq!(header(&call.head, "Content-Length"), None);
    let (id, asked) = event(&mut call);
    assert_eq!(id, "1-1");
    assert_eq!(asked["method"], "elicitation/create");
    // The answer goes in its own POST: 202.
    let answered = post(port, &session, &accept(&asked));
    assert_eq!(answered.status, 202);
    // The result arrives on the first stream, which then ends.
    let (id, result) = event(&mut call);
    assert_eq!(id, "1-2");
    assert_eq!(result["id"], 5);
    assert_eq!(result["result"]["content"][0]["text"], "Purged docs.");
    assert_eq!(call.chunk(), None, "the stream ends after the response");
    server.stderr_line("sent on its SSE stream as event 1-2");
}

#[test]
fn h_sse_resume_after_a_dropped_connection_the_result_is_replayed() {
    let (_server, port) = http_server("search-index");
    let session = initialize(port, json!({"elicitation": {}}));
    let mut call = Incoming::open(port, &purge_request(&session));
    let (id, asked) = event(&mut call);
    assert_eq!(id, "1-1");
    // The client's connection drops mid-stream.
    drop(call);
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(post(port, &session, &accept(&asked)).status, 202);
    // It comes back with the last event it saw and gets the result.
    let resumed = http(
        port,
        "GET",
        "/mcp",
        &[
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", &session),
            ("Last-Event-ID", "1-1"),
        ],
        "",
    );
    assert_eq!(resumed.status, 200);
    let (id, result) = parse_event(&String::from_utf8_lossy(&resumed.body));
    assert_eq!(id, "1-2");
    assert_eq!(result["id"], 5);
    assert_eq!(result["result"]["content"][0]["text"], "Purged docs.");
}

#[test]
fn h_sse_resume_a_stream_resumed_early_carries_the_rest_live() {
    let (_server, port) = http_server("search-index");
    let session = initialize(port, json!({"elicitation": {}}));
    let mut call = Incoming::open(port, &purge_request(&session));
    let (_, asked) = event(&mut call);
    drop(call);
    let get = request_text(
        "GET",
        &[
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", &session),
            ("Last-Event-ID", "1-1"),
        ],
        "",
    );
    let mut resumed = Incoming::open(port, &get);
    assert_eq!(header(&resumed.head, "Transfer-Encoding"), Some("chunked"));
    assert_eq!(post(port, &session, &accept(&asked)).status, 202);
    let (id, result) = event(&mut resumed);
    assert_eq!((id.as_str(), result["id"].as_u64()), ("1-2", Some(5)));
    assert_eq!(resumed.chunk(), None);
}

#[test]
fn l_session_id_ids_are_128_random_bits() {
    let (_server, port) = http_server("dual-era");
    let a = initialize(port, json!({}));
    let b = initialize(port, json!({}));
    for id in [&a, &b] {
        assert_eq!(id.len(), 32, "{id}");
        assert!(id.bytes().all(|c| c.is_ascii_hexdigit()), "{id}");
    }
    assert_ne!(a, b);
    // A guessed id is unknown: 404.
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    assert_eq!(post(port, "session-1", &ping).status, 404);
    assert_eq!(post(port, &a, &ping).status, 200);
}

#[test]
fn l_session_idle_an_expired_session_gets_404_and_the_client_starts_again() {
    let (mut server, port) = http_server_with("notes", &["--session-idle", "1"]);
    let session = initialize(port, json!({}));
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    assert_eq!(post(port, &session, &ping).status, 200);
    std::thread::sleep(Duration::from_millis(2_500));
    assert_eq!(post(port, &session, &ping).status, 404);
    server.stderr_line("L-SESSION-IDLE");
    let again = initialize(port, json!({}));
    assert_eq!(post(port, &again, &ping).status, 200);
}

#[test]
fn l_session_idle_the_cap_drops_the_session_idle_longest() {
    let (_server, port) = http_server_with("notes", &["--max-sessions", "2", "--threads", "1"]);
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
    let first = initialize(port, json!({}));
    std::thread::sleep(Duration::from_millis(20));
    let second = initialize(port, json!({}));
    std::thread::sleep(Duration::from_millis(20));
    assert_eq!(post(port, &first, &ping).status, 200);
    std::thread::sleep(Duration::from_millis(20));
    let third = initialize(port, json!({}));
    // A new id: an id may not come twice in one session (RPC-ID).
    let ping_again = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"});
    assert_eq!(post(port, &first, &ping_again).status, 200);
    assert_eq!(post(port, &second, &ping).status, 404);
    assert_eq!(post(port, &third, &ping).status, 200);
}

#[test]
fn many_keep_alive_connections_are_all_served() {
    let (_server, port) = http_server("deploy-console");
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}}})
    .to_string();
    let request = request_text(
        "POST",
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "server/discover"),
        ],
        &body,
    );
    // Far more than the old fixed cap of 64, all open at once.
    let mut conns: Vec<TcpStream> = (0..300)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).expect("connect"))
        .collect();
    for conn in &mut conns {
        conn.set_read_timeout(Some(TIMEOUT)).expect("timeout");
        conn.write_all(request.as_bytes()).expect("write");
    }
    for conn in &mut conns {
        let mut seen = Vec::new();
        let mut chunk = [0u8; 4096];
        while !seen.ends_with(b"}}}") {
            let n = conn.read(&mut chunk).expect("read");
            assert!(n > 0, "closed: {:?}", String::from_utf8_lossy(&seen));
            seen.extend_from_slice(&chunk[..n]);
        }
        assert!(seen.starts_with(b"HTTP/1.1 200 OK\r\n"));
    }
}

/// Reads until the server closes; how long that took.
fn time_to_close(mut conn: TcpStream) -> Duration {
    conn.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let began = Instant::now();
    let mut sink = [0u8; 1024];
    loop {
        match conn.read(&mut sink) {
            Ok(0) | Err(_) => return began.elapsed(),
            Ok(_) => {}
        }
    }
}

#[test]
fn slow_silent_and_half_closed_clients_are_dropped() {
    let (_server, port) = http_server("deploy-console");
    // Slowloris: half a request head, then nothing.
    let mut slow = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: x\r\n")
        .expect("write");
    // Silent: connects and never sends a byte.
    let silent = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    // Half-closed: closes its sending side straight away.
    let half = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    half.shutdown(Shutdown::Write).expect("shutdown");
    let half_closed = std::thread::spawn(move || time_to_close(half));
    let slow_closed = std::thread::spawn(move || time_to_close(slow));
    let silent_closed = time_to_close(silent);
    let slow_closed = slow_closed.join().expect("slow");
    let half_closed = half_closed.join().expect("half");
    assert!(half_closed < Duration::from_secs(3), "{half_closed:?}");
    // The header-read timeout is 10 s.
    for took in [slow_closed, silent_closed] {
        assert!(
            took >= Duration::from_secs(8) && took < Duration::from_secs(20),
            "{took:?}"
        );
    }
}

#[test]
fn shutdown_on_sigterm_ends_open_streams_cleanly_and_exits() {
    let (mut server, port) = http_server("search-index");
    let session = initialize(port, json!({"elicitation": {}}));
    let mut call = Incoming::open(port, &purge_request(&session));
    let (id, _) = event(&mut call);
    assert_eq!(id, "1-1");
    server.terminate();
    // The open stream ends with the chunked terminator, not a reset.
    assert_eq!(call.chunk(), None);
    let status = server.wait_exit_status();
    assert!(status.success(), "{status:?}");
    server.stderr_line("SIGTERM");
}
