//! What the HTTP tap must pass as a reverse proxy does (issue 29, point
//! 2), against an upstream written here so that each case is exact: a 401
//! and its `WWW-Authenticate` come back unchanged; a GET stream and its
//! `Last-Event-ID` go on, and each of its events comes back as it comes
//! (the second is sent only once the first has arrived: a tap that
//! buffered would time out here); a `Host` that is not loopback with tap's port gets
//! 403 before anything reaches the upstream, as `bridge` answers it. An
//! upstream that crashes mid-call gets the client a 502 saying so, and the
//! tap goes on.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::mpsc;

use common::{http, raw_http, Incoming, Proc};

/// The challenge the upstream sends with its 401.
const CHALLENGE: &str =
    r#"Bearer resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource/mcp""#;

/// An upstream answering POST with 401 and [`CHALLENGE`], and GET with an
/// SSE stream: an event, then (once `go` says so) a second, then its end.
/// Each request's head goes to `heads`.
fn upstream(go: mpsc::Receiver<()>) -> (u16, mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
    let port = listener.local_addr().expect("address").port();
    let (heads, seen) = mpsc::channel();
    std::thread::spawn(move || {
        let mut go = Some(go);
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut got = Vec::new();
            let mut buf = [0u8; 4096];
            while !got.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => got.extend_from_slice(&buf[..n]),
                }
            }
            let head = String::from_utf8_lossy(&got).into_owned();
            let _ = heads.send(head.clone());
            if head.starts_with("GET ") {
                let first = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\nid: 8\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n";
                let _ = stream.write_all(first.as_bytes());
                let _ = stream.flush();
                if let Some(go) = go.take() {
                    let _ = go.recv();
                }
                let second = "id: 9\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}\n\n";
                let _ = stream.write_all(second.as_bytes());
            } else {
                let body = r#"{"error":"invalid_token"}"#;
                let answer = format!(
                    "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: {CHALLENGE}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes());
            }
        }
    });
    (port, seen)
}

#[test]
fn h_status_a_401_its_challenge_and_a_get_stream_with_last_event_id_pass_unchanged() {
    let (go, wait) = mpsc::channel();
    let (upstream, heads) = upstream(wait);
    let url = format!("http://127.0.0.1:{upstream}/mcp");
    let mut tap = Proc::spawn(&["tap", "--upstream", &url, "--port", "0"]);
    let port = common::tap_port(&mut tap);
    let json = [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    // The 401, its challenge and its body, as the upstream sent them.
    let ping = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let refused = http(port, "POST", "/mcp", &json, ping);
    assert_eq!(refused.status, 401);
    assert_eq!(refused.header("WWW-Authenticate"), Some(CHALLENGE));
    assert_eq!(
        String::from_utf8_lossy(&refused.body),
        r#"{"error":"invalid_token"}"#
    );
    assert!(heads
        .recv()
        .expect("the POST went on")
        .starts_with("POST /mcp "));
    // A GET stream resumed from event 7: the header goes on, and the first
    // event comes back before the upstream sends the second.
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\nLast-Event-ID: 7\r\n\r\n"
    );
    let mut stream = Incoming::open(port, &get);
    assert!(stream.head.starts_with("HTTP/1.1 200"), "{}", stream.head);
    assert!(
        stream
            .head
            .to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{}",
        stream.head
    );
    let head = heads.recv().expect("the GET went on");
    assert!(head.starts_with("GET /mcp "), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("last-event-id: 7\r\n"),
        "{head}"
    );
    let mut text = String::new();
    while !text.contains("tools/list_changed") {
        text.push_str(&stream.chunk().expect("the first event, alone"));
    }
    assert!(text.starts_with("id: 8\n"), "{text}");
    assert!(!text.contains("resources/list_changed"), "{text}");
    go.send(()).expect("the upstream waits");
    let mut rest = String::new();
    while let Some(chunk) = stream.chunk() {
        rest.push_str(&chunk);
    }
    assert!(
        rest.starts_with("id: 9\n") && rest.contains("resources/list_changed"),
        "{rest}"
    );
    // A Host that is not loopback with tap's port: 403, nothing passed on.
    let rebound = format!(
        "POST /mcp HTTP/1.1\r\nHost: evil.example:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{ping}",
        ping.len()
    );
    assert_eq!(raw_http(port, rebound.as_bytes()).status, 403);
    assert!(
        heads
            .recv_timeout(std::time::Duration::from_millis(300))
            .is_err(),
        "the refused request reached the upstream"
    );
    tap.terminate();
    assert!(tap.wait_exit_status().success());
}

#[test]
fn an_upstream_that_crashes_mid_call_gets_502_with_the_reason_and_the_tap_goes_on() {
    // An upstream that reads each request and closes without an answer,
    // as a server that crashes mid-call does.
    let listener = TcpListener::bind("127.0.0.1:0").expect("listen");
    let upstream = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
        }
    });
    let url = format!("http://127.0.0.1:{upstream}/mcp");
    let mut tap = Proc::spawn(&["tap", "--upstream", &url, "--port", "0"]);
    let port = common::tap_port(&mut tap);
    let json = [("Content-Type", "application/json")];
    let call =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}"#;
    for _ in 0..2 {
        let crashed = http(port, "POST", "/mcp", &json, call);
        assert_eq!(crashed.status, 502);
        assert!(
            String::from_utf8_lossy(&crashed.body).contains("did not answer"),
            "{}",
            String::from_utf8_lossy(&crashed.body)
        );
    }
    assert!(tap.running(), "the tap goes on");
    tap.terminate();
    assert!(tap.wait_exit_status().success());
}
