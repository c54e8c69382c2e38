//! A client that leaves mid-call, through tap (issue 29, point 6). Over
//! stdio: the client closes tap's stdin or is killed; tap says so in its
//! log and on the live stream, closes the server's stdin and exits with
//! the server's status, ending a server that does not exit. Over HTTP: the
//! client drops its connection during an SSE stream or while its POST
//! waits; tap says so and stays up for the next client. Nothing hangs.
//! Each way of leaving is recorded in `--out` as the client disconnecting,
//! which the importer draws, `check --transcript` grades as a simulated
//! client's leaving, and `tap --replay` serves.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{http, http_server, post_legacy, Incoming, Proc, BIN};
use mcp_lanes_core::sim::{EventKind, Side};
use serde_json::{json, Value};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-lanes-tap-gone-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

/// The text of `path` once it holds `needle` (the log writes within its
/// pause); panics after a few seconds.
fn holds(path: &Path, needle: &str) -> String {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if text.contains(needle) {
            return text;
        }
        assert!(Instant::now() < until, "no {needle:?} in the log:\n{text}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The recording at `out` holds the client's leaving, said in `words`
/// (the importer's note), after the message naming `after`; it reads back
/// as the simulator's own leaving does: the importer draws the client
/// disconnecting there, `check --transcript` grades the request left
/// waiting (`waiting`, if one was) as the simulated client's leaving is
/// graded (S-ANSWER, not applicable: the client closed the connection),
/// and `tap --replay` serves the file, answering `request` with what was
/// recorded after it and ending when its client does.
fn left_in(out: &Path, words: &[&str], after: &str, waiting: Option<&str>, request: &Value) {
    let text = std::fs::read_to_string(out).expect("--out written");
    let imported = mcp_lanes_core::import::read("out.json", &text).expect("the file imports");
    let events: Vec<_> = imported.lanes.iter().flat_map(|l| &l.events).collect();
    let left: Vec<_> = events
        .iter()
        .filter(|e| e.kind == EventKind::Disconnected { side: Side::Client })
        .collect();
    assert!(!left.is_empty(), "no leaving in {text}");
    for word in words {
        assert!(
            left.iter().any(|e| e.note.contains(word)),
            "no {word:?} among {:?}",
            left.iter().map(|e| &e.note).collect::<Vec<_>>()
        );
        // Both languages: the note carries its catalog message.
        assert!(left.iter().all(|e| e.note_msg.is_some()));
    }
    let message_at = events
        .iter()
        .position(|e| matches!(&e.kind, EventKind::Message(m) if m.wire.contains(after)))
        .unwrap_or_else(|| panic!("no {after} in {text}"));
    let left_at = events
        .iter()
        .position(|e| matches!(e.kind, EventKind::Disconnected { .. }))
        .expect("a leaving");
    assert!(message_at < left_at, "{after} is drawn before the leaving");
    assert!(events[left_at].at_ms >= events[message_at].at_ms);
    // Graded as the simulated client's leaving.
    let out_arg = out.to_str().expect("UTF-8");
    let graded = Command::new(BIN)
        .args(["check", "--transcript", out_arg, "--format", "json"])
        .output()
        .expect("check runs");
    let report: Value = serde_json::from_slice(&graded.stdout)
        .unwrap_or_else(|_| panic!("a report: {}", String::from_utf8_lossy(&graded.stderr)));
    let verdicts = report["verdicts"].as_array().expect("verdicts");
    if let Some(method) = waiting {
        let answer = verdicts
            .iter()
            .find(|v| {
                v["rule"] == "S-ANSWER"
                    && v["got"]
                        .as_str()
                        .is_some_and(|g| g.contains("client closed the connection"))
            })
            .unwrap_or_else(|| panic!("no S-ANSWER for the {method} left waiting: {verdicts:?}"));
        assert_ne!(answer["verdict"], "fail", "{answer}");
    }
    // Replayed: the file serves, and its client's leaving ends it.
    let mut replay = Command::new(BIN)
        .args(["tap", "--replay", out_arg])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("replay runs");
    let mut stdin = replay.stdin.take().expect("stdin");
    stdin
        .write_all(format!("{request}\n").as_bytes())
        .expect("write");
    drop(stdin);
    let replayed = replay.wait_with_output().expect("replay ends");
    assert!(replayed.status.success(), "{replayed:?}");
}

/// The events of tap's live stream on `port`, as (name, data), until
/// `end`.
fn live_events(port: u16) -> std::thread::JoinHandle<Vec<(String, String)>> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .expect("a deadline");
    let request = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    stream.write_all(request.as_bytes()).expect("write");
    std::thread::spawn(move || {
        let mut events = Vec::new();
        let (mut name, mut data) = ("message".to_string(), String::new());
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            if let Some(rest) = line.strip_prefix("event: ") {
                name = rest.to_string();
            } else if let Some(rest) = line.strip_prefix("data: ") {
                data = rest.to_string();
            } else if line.is_empty() && !data.is_empty() {
                let done = name == "end";
                events.push((
                    std::mem::replace(&mut name, "message".into()),
                    std::mem::take(&mut data),
                ));
                if done {
                    break;
                }
            }
        }
        events
    })
}

#[test]
fn rpc_id_a_stdio_client_that_closes_mid_call_is_said_and_tap_exits_with_the_servers_status() {
    let log = scratch("closed.log");
    let out = scratch("closed.json");
    // A server that reads a call, never answers it, and exits 4 when its
    // stdin closes.
    let mut tap = Proc::spawn(&[
        "tap",
        "--live",
        "0",
        "--log",
        log.to_str().expect("UTF-8"),
        "--out",
        out.to_str().expect("UTF-8"),
        "--",
        "sh",
        "-c",
        "read line; cat > /dev/null; exit 4",
    ]);
    let live = live_events(common::port_in(&tap.stderr_line("/?tap=")));
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "slow", "arguments": {}}});
    tap.send(&call);
    holds(&log, "tools/call");
    let started = Instant::now();
    tap.close_stdin();
    assert_eq!(tap.wait_exit().code(), Some(4), "the server's status");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // The log: the call, then the client's leaving; the call left
    // unanswered is no failure of the server's (the client left first, as
    // `check` grades a simulated client's leaving).
    let text = holds(&log, "the client closed its end");
    assert!(!text.contains("breaks"), "{text}");
    let closed = text
        .find("the client closed its end")
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        text.find("tools/call").is_some_and(|at| at < closed),
        "{text}"
    );
    // The live stream: the call, `closed` (the recorded entry), the end.
    let events = live.join().expect("the live stream");
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["hello", "message", "closed", "end"], "{events:?}");
    let closed: Value = serde_json::from_str(&events[2].1).expect("JSON");
    assert_eq!(closed["left"], "client");
    assert_eq!(closed["why"], "closed_stdin");
    assert!(closed["at_ms"].is_u64(), "{closed}");
    // The recording holds the call, then the client's leaving.
    left_in(
        &out,
        &["closed its end of stdio"],
        "tools/call",
        Some("tools/call"),
        &call,
    );
}

#[test]
fn a_killed_stdio_client_is_said_and_what_the_server_sends_after_is_not_passed_on() {
    // The client goes (stdin closed, stdout no longer read) while the
    // server still has an answer to send.
    let out = scratch("killed.json");
    let mut child = Command::new(BIN)
        .args([
            "tap",
            "--out",
            out.to_str().expect("UTF-8"),
            "--",
            "sh",
            "-c",
            r#"read line; sleep 0.5; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; sleep 0.2; echo '{"jsonrpc":"2.0","id":2,"result":{}}'; exit 5"#,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tap runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n")
        .expect("write");
    drop(stdin);
    drop(child.stdout.take());
    let started = Instant::now();
    let output = child.wait_with_output().expect("tap ends");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(output.status.code(), Some(5), "the server's status");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("the client closed its end"), "{stderr}");
    assert!(stderr.contains("the client no longer reads"), "{stderr}");
    // Both recorded, after the ping; what the server sent after it is
    // recorded too, and answers the ping in the replay.
    left_in(
        &out,
        &["closed its end of stdio", "stopped reading"],
        "ping",
        None,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
    );
}

#[test]
fn a_server_that_stays_after_the_client_left_is_ended_and_nothing_hangs() {
    let mut tap = Proc::spawn(&["tap", "--", "sh", "-c", "trap '' TERM; exec sleep 60"]);
    tap.close_stdin();
    let started = Instant::now();
    let status = tap.wait_exit_status();
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(status.code(), Some(128 + 9), "ended by tap");
    assert!(tap.stderr_text().contains("did not exit within 5 s"));
}

/// Starts `tap --upstream` in front of `upstream` with `--log` and
/// `--live`: the process, its port and the live events' reader.
fn http_tap(
    upstream: u16,
    log: &Path,
    out: &Path,
) -> (Proc, u16, std::thread::JoinHandle<Vec<(String, String)>>) {
    let url = format!("http://127.0.0.1:{upstream}/mcp");
    let mut tap = Proc::spawn(&[
        "tap",
        "--upstream",
        &url,
        "--port",
        "0",
        "--live",
        "0",
        "--log",
        log.to_str().expect("UTF-8"),
        "--out",
        out.to_str().expect("UTF-8"),
        "--har",
        out.with_extension("har").to_str().expect("UTF-8"),
    ]);
    let live = live_events(common::port_in(&tap.stderr_line("/?tap=")));
    let port = common::tap_port(&mut tap);
    (tap, port, live)
}

/// A request's raw text for tap on `port`.
fn request(port: u16, headers: &[(&str, &str)], body: &str) -> String {
    let mut text = format!("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str(&format!("Content-Length: {}\r\n\r\n{body}", body.len()));
    text
}

#[test]
fn h_sse_stream_a_client_that_drops_its_stream_mid_call_is_said_and_the_proxy_goes_on() {
    let (_server, upstream) = http_server("search-index");
    let log = scratch("stream.log");
    let out = scratch("stream.json");
    let (mut tap, port, live) = http_tap(upstream, &log, &out);
    let v = "2025-06-18";
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": v, "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "leaving", "version": "1"}}});
    let reply = post_legacy(port, &init, &[]);
    assert_eq!(reply.status, 200);
    let session = reply
        .header("Mcp-Session-Id")
        .expect("a session")
        .to_string();
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", v),
        ("Mcp-Session-Id", session.as_str()),
    ];
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    assert_eq!(http(port, "POST", "/mcp", &headers, &done).status, 202);
    // The call's stream brings the elicitation; the client leaves then.
    let call = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "purge_index", "arguments": {"index": "docs"}}});
    let mut stream = Incoming::open(port, &request(port, &headers, &call.to_string()));
    let asked = stream.chunk().expect("an event");
    assert!(asked.contains("elicitation/create"), "{asked}");
    drop(stream);
    let text = holds(&log, "dropped its connection");
    assert!(
        text.contains("during the answer to POST /mcp (1 messages passed)"),
        "{text}"
    );
    // The proxy goes on: the next client is served.
    let ping = json!({"jsonrpc": "2.0", "id": 9, "method": "ping"}).to_string();
    let next = http(port, "POST", "/mcp", &headers, &ping);
    assert_eq!(next.status, 200, "{}", String::from_utf8_lossy(&next.body));
    tap.terminate();
    assert!(tap.wait_exit_status().success());
    let events = live.join().expect("the live stream");
    let closed = events
        .iter()
        .find(|(name, _)| name == "closed")
        .unwrap_or_else(|| panic!("{events:?}"));
    let closed: Value = serde_json::from_str(&closed.1).expect("JSON");
    assert_eq!(closed["why"], "mid_stream");
    assert_eq!(closed["events"], 1);
    assert_eq!(
        closed["http"]["headers"]["mcp-session-id"],
        session.as_str()
    );
    left_in(
        &out,
        &["during the answer to POST /mcp, after its first message"],
        "elicitation/create",
        Some("tools/call"),
        &call,
    );
}

/// An upstream that never answers its first connection's request and
/// answers every later one with an empty JSON-RPC result.
fn silent_then_answering() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for (n, stream) in listener.incoming().flatten().enumerate() {
            if n == 0 {
                held.push(stream);
                continue;
            }
            std::thread::spawn(move || {
                let mut stream = stream;
                let mut buf = vec![0u8; 16 * 1024];
                let mut got = Vec::new();
                while !got.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(n) => got.extend_from_slice(&buf[..n]),
                    }
                }
                let body = r#"{"jsonrpc":"2.0","id":2,"result":{}}"#;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes());
            });
        }
    });
    port
}

#[test]
fn a_client_that_drops_a_waiting_post_is_said_and_the_proxy_goes_on() {
    let upstream = silent_then_answering();
    let log = scratch("waiting.log");
    let out = scratch("waiting.json");
    let (mut tap, port, live) = http_tap(upstream, &log, &out);
    let headers = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "slow", "arguments": {}}});
    let mut waiting = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    waiting
        .write_all(request(port, &headers, &call.to_string()).as_bytes())
        .expect("write");
    holds(&log, "tools/call");
    drop(waiting);
    let text = holds(&log, "dropped its connection");
    assert!(
        text.contains("before the answer to POST /mcp came"),
        "{text}"
    );
    let ping = json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}).to_string();
    let next = http(port, "POST", "/mcp", &headers, &ping);
    assert_eq!(next.status, 200, "{}", String::from_utf8_lossy(&next.body));
    tap.terminate();
    assert!(tap.wait_exit_status().success());
    let events = live.join().expect("the live stream");
    assert!(
        events
            .iter()
            .any(|(name, data)| name == "closed" && data.contains("before_answer")),
        "{events:?}"
    );
    // The HAR capture cannot say it: the dropped request is an entry with
    // status 0 and no answer (docs/src/tap.md).
    let har: Value = serde_json::from_str(
        &std::fs::read_to_string(out.with_extension("har")).expect("--har written"),
    )
    .expect("JSON");
    let entries = har["log"]["entries"].as_array().expect("entries");
    assert_eq!(entries[0]["response"]["status"], 0, "{har}");
    assert_eq!(entries[0]["response"]["content"]["text"], "", "{har}");
    left_in(
        &out,
        &["before the answer to POST /mcp came"],
        "tools/call",
        Some("tools/call"),
        &call,
    );
}
