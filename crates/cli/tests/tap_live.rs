//! `mcp-lanes tap --live N`: the conversation as server-sent events while it
//! happens. A page that watches from the start gets each message as it
//! passes (before the next one is sent), every entry a transcript's
//! wrapper the importer reads, and `end` when the server exits; only
//! loopback names with tap's port and the `--allow-origin` page get it.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::{Proc, BIN};
use serde_json::{json, Value};

/// A page's stream: the events read one by one.
struct Watcher {
    lines: BufReader<TcpStream>,
}

impl Watcher {
    fn open(port: u16, origin: &str) -> Watcher {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("a deadline");
        let request =
            format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\n\r\n");
        stream.write_all(request.as_bytes()).expect("write");
        Watcher {
            lines: BufReader::new(stream),
        }
    }

    /// The next event: its name and data (the head's lines come as one
    /// event named by the status line).
    fn next(&mut self) -> (String, String) {
        let (mut name, mut data) = ("message".to_string(), String::new());
        loop {
            let mut line = String::new();
            let n = self.lines.read_line(&mut line).expect("a line in time");
            assert!(n > 0, "the stream ended");
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if !data.is_empty() || name != "message" {
                    return (name, data);
                }
                continue;
            }
            if let Some(rest) = line.strip_prefix("HTTP/1.1 ") {
                name = format!("status {rest}");
            } else if let Some(rest) = line.strip_prefix("event: ") {
                name = rest.to_string();
            } else if let Some(rest) = line.strip_prefix("data: ") {
                data = rest.to_string();
            }
        }
    }

    /// The next recorded entry (skipping what is not one).
    fn entry(&mut self) -> Value {
        loop {
            let (name, data) = self.next();
            if name == "message" {
                return serde_json::from_str(&data).expect("an entry is JSON");
            }
        }
    }
}

#[test]
fn tap_live_sends_each_message_as_it_passes_and_the_end() {
    let origin = "http://127.0.0.1:8080";
    let serve = format!("{BIN} serve --preset reference");
    let mut args = vec!["tap", "--live", "0", "--allow-origin", origin, "--"];
    args.extend(serve.split(' '));
    let mut tap = Proc::spawn(&args);
    let said = tap.stderr_line("/?tap=");
    let port: u16 = said
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("a port in {said:?}"));
    let mut page = Watcher::open(port, origin);
    let (status, _) = page.next();
    assert!(status.starts_with("status 200"), "{status}");
    let (hello, label) = page.next();
    assert_eq!(hello, "hello");
    let label: Value = serde_json::from_str(&label).expect("JSON");
    assert_eq!(label["label"], serve);
    // Each message reaches the page before the next one is sent.
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "live-test", "version": "1"}}});
    tap.call(&init);
    let first = page.entry();
    assert_eq!(first["from"], "client");
    assert_eq!(first["message"], init);
    let answer = page.entry();
    assert_eq!(answer["from"], "server");
    assert_eq!(answer["message"]["id"], 1);
    tap.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    assert_eq!(
        page.entry()["message"]["method"],
        "notifications/initialized"
    );
    tap.call(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    assert_eq!(page.entry()["message"]["method"], "tools/list");
    assert!(page.entry()["message"]["result"]["tools"].is_array());
    // Another page, or a name that is not loopback: 403.
    let mut other = Watcher::open(port, "http://evil.example");
    assert!(other.next().0.starts_with("status 403"));
    // The client leaves (the page is told), the server exits: the page
    // gets the end.
    tap.close_stdin();
    let (closed, data) = page.next();
    assert_eq!(closed, "closed");
    assert!(data.contains("\"closed_stdin\""), "{data}");
    let (end, _) = page.next();
    assert_eq!(end, "end");
    assert!(tap.wait_exit().success());
}

#[test]
fn rpc_id_a_server_that_crashes_mid_call_ends_the_live_stream_and_is_said() {
    let origin = "http://127.0.0.1:8080";
    // A server that reads one request and dies without answering it.
    let mut tap = Proc::spawn(&[
        "tap",
        "--live",
        "0",
        "--allow-origin",
        origin,
        "--",
        "sh",
        "-c",
        "read line; exit 3",
    ]);
    let said = tap.stderr_line("/?tap=");
    let port: u16 = said
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("a port in {said:?}"));
    let mut page = Watcher::open(port, origin);
    assert!(page.next().0.starts_with("status 200"));
    assert_eq!(page.next().0, "hello");
    tap.send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "slow", "arguments": {}}}));
    assert_eq!(page.entry()["message"]["id"], 7);
    // The server is gone: the page gets the end, tap its status, and the
    // last grade says the call was never answered.
    assert_eq!(page.next().0, "end");
    assert_eq!(tap.wait_exit().code(), Some(3));
    let log = tap.stderr_text();
    assert!(
        log.lines()
            .any(|l| l.contains("tools/call") && l.contains("breaks")),
        "{log}"
    );
}

#[test]
fn tap_live_a_5_mib_request_over_http_passes_on_unrecorded_said_and_the_tap_goes_on() {
    use common::{http, http_server};
    let (_server, upstream) = http_server("reference");
    let url = format!("http://127.0.0.1:{upstream}/mcp");
    let origin = "http://127.0.0.1:8080";
    let mut tap = Proc::spawn(&[
        "tap",
        "--upstream",
        &url,
        "--port",
        "0",
        "--live",
        "0",
        "--allow-origin",
        origin,
    ]);
    let live = common::port_in(&tap.stderr_line("/?tap="));
    let proxy = common::tap_port(&mut tap);
    let mut page = Watcher::open(live, origin);
    assert!(page.next().0.starts_with("status 200"));
    assert_eq!(page.next().0, "hello");
    let pad = "x".repeat(5 * 1024 * 1024);
    let huge = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "test_simple_text", "arguments": {"pad": pad}}})
    .to_string();
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    // Passed on as it came: the upstream's answer is the one it gives
    // directly; tap says it did not record it.
    let direct = http(upstream, "POST", "/mcp", &headers, &huge);
    let passed = http(proxy, "POST", "/mcp", &headers, &huge);
    assert_eq!(passed.status, direct.status);
    assert_eq!(passed.body, direct.body);
    assert!(tap
        .stderr_line("is over what tap records")
        .contains("(POST /mcp)"));
    // The tap goes on: the next request passes, and the page gets it; the
    // huge one was never recorded (its answer may be).
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string();
    let next = http(proxy, "POST", "/mcp", &headers, &ping);
    assert_ne!(next.status, 413);
    loop {
        let entry = page.entry();
        assert!(
            !(entry["from"] == "client" && entry["message"]["id"] == 1),
            "the huge request was recorded"
        );
        if entry["from"] == "client" && entry["message"]["id"] == 2 {
            break;
        }
    }
    tap.terminate();
}
