//! `mcp-lanes client`: the core's client against real servers, over real
//! sockets and pipes: the simulator's own presets (`serve`), the official
//! SDK servers of `tests/peers/smoke`, and hostile servers that stay
//! silent, die, flood, send garbage or are not MCP. Every run has a hard
//! wall-clock guard: a client that hangs fails the test instead of it.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use common::{http_server, peers, run_guarded, Done, Peer, BIN};
use mcp_lanes_core::sim::{MessageKind, Side, Timeline};

/// Runs `mcp-lanes client ARGS`, killing it (and failing) after `guard`.
fn client_with(args: &[&str], env: &[(&str, &str)], guard: Duration) -> Done {
    let mut cmd = Command::new(BIN);
    cmd.arg("client")
        .args(args)
        .env_remove("MCP_CONFORMANCE_SCENARIO")
        .env_remove("MCP_CONFORMANCE_CONTEXT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    run_guarded(cmd, &format!("mcp-lanes client {args:?}"), guard)
}

fn client(args: &[&str]) -> Done {
    client_with(args, &[], Duration::from_secs(60))
}

fn url(port: u16) -> String {
    format!("http://127.0.0.1:{port}/mcp")
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-lanes-client-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Runs `--flow FLOW --out FILE TARGET...` (`file`: a name in a temporary
/// folder), checks it succeeded and reads the timelines it wrote.
fn recorded(flow: &str, file: &str, target: &[&str]) -> (Done, Vec<Timeline>) {
    let out = temp_file(file);
    let mut args = vec!["--flow", flow, "--out", out.to_str().expect("utf-8 path")];
    args.extend_from_slice(target);
    let done = client(&args);
    assert!(done.status.success(), "{}\n{}", done.stdout, done.stderr);
    let text = std::fs::read_to_string(&out).expect("the --out file");
    let timelines = Timeline::from_json(&text).expect("the page can read the --out file");
    (done, timelines)
}

/// Checks that `output` (a run's stdout or stderr) contains `needle`.
fn assert_has(output: &str, needle: &str) {
    assert!(output.contains(needle), "{needle:?} not in:\n{output}");
}

/// Labels of a timeline's messages, in order.
fn labels(t: &Timeline) -> Vec<String> {
    t.messages().map(|(_, m)| m.label.clone()).collect()
}

// ---- against `mcp-lanes serve` ----------------------------------------------

#[test]
fn m_discover_flow_against_serve_over_http_records_the_page_timeline() {
    let (_server, port) = http_server("deploy-console");
    let (done, timelines) = recorded("discover", "discover.json", &[&url(port)]);
    assert_has(&done.stdout, "POST server/discover");
    assert_eq!(timelines.len(), 1);
    let t = &timelines[0];
    assert_eq!(labels(t), ["server/discover", "200 result"]);
    assert_eq!(t.server_label, url(port));
    let (sent_at, request) = t
        .messages()
        .next()
        .map(|(e, m)| (e.at_ms, m.clone()))
        .expect("a request");
    let http = request.http.expect("HTTP info");
    assert_eq!(http.method.as_deref(), Some("POST"));
    assert!(http
        .headers
        .iter()
        .any(|(k, v)| k == "MCP-Protocol-Version" && v == "2026-07-28"));
    let (answered_at, answer) = t
        .messages()
        .nth(1)
        .map(|(e, m)| (e.at_ms, m.clone()))
        .expect("an answer");
    assert!(answered_at >= sent_at);
    assert_eq!(answer.http.and_then(|h| h.status), Some(200));
    assert!(answer.wire.contains("\"supportedVersions\""));
    assert!(request.delivered_at_ms.is_some());
    // The same text the file holds is what `serde_json` writes for the page.
    let again = serde_json::to_string(&timelines).expect("encode");
    assert_eq!(Timeline::from_json(&again).map(|t| t.len()), Some(1));
}

#[test]
fn m_version_retry_flow_against_serve_over_http() {
    let (_server, port) = http_server("deploy-console");
    let done = client(&["--flow", "version-retry", &url(port)]);
    assert!(done.status.success(), "{}\n{}", done.stdout, done.stderr);
    let order: Vec<&str> = done
        .stdout
        .lines()
        .filter(|l| l.contains("C ------> S") || l.contains("C <------ S"))
        .collect();
    assert_eq!(order.len(), 4, "{}", done.stdout);
    assert!(order[1].contains("400 -32022"), "{}", done.stdout);
    assert!(order[3].contains("200 result"), "{}", done.stdout);
    assert!(done.stdout.contains("M-VERSION-RETRY"));
}

#[test]
fn m_cap_required_capability_retry_flow_against_serve_over_http() {
    let (_server, port) = http_server("deploy-console");
    let (_, timelines) = recorded("capability-per-request", "capability.json", &[&url(port)]);
    let t = &timelines[0];
    assert_eq!(
        labels(t),
        [
            "tools/call",
            "400 -32021",
            "tools/call",
            "200 result",
            "tools/call",
            "400 -32021"
        ]
    );
    // A second later on the wall clock: the script's Wait step.
    let times: Vec<u64> = t.messages().map(|(e, _)| e.at_ms).collect();
    assert!(times[4] >= times[3] + 900, "{times:?}");
}

#[test]
fn c_mrtr_rounds_two_rounds_with_a_signed_request_state_against_serve_reference() {
    let (_server, port) = http_server("reference");
    let (_, timelines) = recorded("mrtr-sampling-roots", "mrtr.json", &[&url(port)]);
    let two = timelines
        .iter()
        .find(|t| t.label.contains("two rounds"))
        .expect("the two-round set-up");
    assert_eq!(
        labels(two),
        [
            "tools/call",
            "200 input_required",
            "tools/call",
            "200 input_required",
            "tools/call",
            "200 result"
        ]
    );
    // Each retry echoes exactly the requestState of the round before it.
    let wires: Vec<serde_json::Value> = two
        .messages()
        .map(|(_, m)| serde_json::from_str(&m.wire).expect("JSON"))
        .collect();
    for (answer, retry) in [(1, 2), (3, 4)] {
        let state = &wires[answer]["result"]["requestState"];
        assert!(state.is_string(), "{}", wires[answer]);
        assert_eq!(&wires[retry]["params"]["requestState"], state);
        assert_ne!(wires[retry]["id"], wires[retry - 2]["id"]);
    }
    assert_ne!(
        wires[1]["result"]["requestState"],
        wires[3]["result"]["requestState"]
    );
}

#[test]
fn e_probe_http_overview_falls_back_to_initialize_on_a_legacy_preset() {
    let (_server, port) = http_server("notes");
    let done = client(&[&url(port)]);
    assert!(done.status.success(), "{}\n{}", done.stdout, done.stderr);
    for needle in [
        "POST server/discover",
        "POST initialize",
        "POST notifications/initialized",
        "POST tools/list",
        "E-PROBE-HTTP",
    ] {
        assert!(done.stdout.contains(needle), "{needle}\n{}", done.stdout);
    }
}

#[test]
fn m_discover_flow_over_stdio_against_serve() {
    let cmd = format!("'{BIN}' serve --transport stdio --preset deploy-console");
    let (_, timelines) = recorded(
        "unknown-tool-vs-unknown-method",
        "stdio.json",
        &["--cmd", &cmd],
    );
    assert_eq!(timelines.len(), 2, "one timeline per set-up");
    assert_eq!(labels(&timelines[0]), ["tools/call", "-32602"]);
    assert_eq!(labels(&timelines[1]), ["incidents/close", "-32601"]);
    assert!(timelines
        .iter()
        .all(|t| t.transport == mcp_lanes_core::transport::TransportKind::Stdio));
}

#[test]
fn m_unknown_tool_the_flow_comes_from_mcp_conformance_scenario() {
    // MCP_CONFORMANCE_SCENARIO picks the flow when --flow is absent.
    let (_server, port) = http_server("deploy-console");
    let done = client_with(
        &[&url(port)],
        &[("MCP_CONFORMANCE_SCENARIO", "tools_call")],
        Duration::from_secs(60),
    );
    // deploy-console has no add_numbers: -32602, an answer, exit 0.
    assert!(done.status.success(), "{}\n{}", done.stdout, done.stderr);
    assert!(done.stdout.contains("== tools_call (reference client) =="));
    assert_has(&done.stdout, "-32602");
    let bad = client_with(
        &[&url(port)],
        &[("MCP_CONFORMANCE_SCENARIO", "no-such-flow")],
        Duration::from_secs(60),
    );
    assert_eq!(bad.status.code(), Some(2));
    assert_has(&bad.stderr, "unknown flow");
}

// ---- against the official SDK servers (tests/peers) -------------------------

#[test]
fn c_mrtr_rounds_against_the_typescript_sdk_v2_server() {
    let Some(dir) = peers() else { return };
    let peer = Peer::start(
        Path::new("node"),
        &[
            dir.join("smoke/server-v2.mjs").to_str().expect("path"),
            "--http",
            "--port",
            "0",
        ],
    );
    let (_, timelines) = recorded(
        "sep-2322-client-request-state",
        "ts.json",
        &[&url(peer.port)],
    );
    let t = &timelines[0];
    let l = labels(t);
    assert!(l.contains(&"200 input_required".to_string()), "{l:?}");
    assert_eq!(l.last().map(String::as_str), Some("200 result"));
    // The retry answered the SDK's MRTR elicitation: the tool paged.
    let started = Instant::now();
    while !peer.stderr().contains("paged") && started.elapsed() < Duration::from_secs(5) {
        thread::sleep(Duration::from_millis(50));
    }
    assert!(peer.stderr().contains("paged"), "{}", peer.stderr());
    // Every message the client sent is JSON-RPC the SDK accepted.
    assert!(t
        .messages()
        .filter(|(_, m)| m.from == Side::Server)
        .all(|(_, m)| m.kind == MessageKind::Result));
}

#[test]
fn c_mrtr_rounds_against_the_python_sdk_server() {
    let Some(dir) = peers() else { return };
    let python = dir.join(".venv/bin/python");
    let peer = Peer::start(
        &python,
        &[
            dir.join("smoke/server.py").to_str().expect("path"),
            "--http",
            "--port",
            "0",
        ],
    );
    let done = client(&["--flow", "sep-2322-client-request-state", &url(peer.port)]);
    assert!(done.status.success(), "{}\n{}", done.stdout, done.stderr);
    assert_has(&done.stdout, "input_required");
    assert_has(&done.stdout, "C-MRTR-ROUNDS");
}

#[test]
fn m_discover_against_the_python_sdk_server_over_stdio() {
    let Some(dir) = peers() else { return };
    let cmd = format!(
        "'{}' '{}'",
        dir.join(".venv/bin/python").display(),
        dir.join("smoke/server.py").display()
    );
    let (_, timelines) = recorded("request-metadata", "python-stdio.json", &["--cmd", &cmd]);
    let t = &timelines[0];
    assert_eq!(
        labels(t),
        ["server/discover", "result", "tools/list", "result"]
    );
    assert!(t
        .messages()
        .nth(3)
        .is_some_and(|(_, m)| m.wire.contains("notify_oncall")));
}

// ---- hostile servers --------------------------------------------------------

/// A TCP server on 127.0.0.1 answering every connection with `serve`.
fn hostile(serve: fn(TcpStream)) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || serve(stream));
        }
    });
    port
}

/// Reads a request head (up to the blank line), at most a few KB.
fn read_head(stream: &mut TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    while let Ok(n) = stream.read(&mut buf) {
        if n == 0 {
            return;
        }
        seen.extend_from_slice(&buf[..n]);
        if seen.windows(4).any(|w| w == b"\r\n\r\n") || seen.len() > 65536 {
            return;
        }
    }
}

/// Runs the discover flow against `target` (a URL, or `--cmd COMMAND`) with
/// a 500 ms exchange deadline; it must end on its own, within a few seconds.
fn against_target(target: &[&str]) -> Done {
    let mut args = vec!["--flow", "discover", "--timeout", "500"];
    args.extend_from_slice(target);
    let done = client_with(&args, &[], Duration::from_secs(20));
    assert!(
        done.elapsed < Duration::from_secs(10),
        "took {:?}\n{}\n{}",
        done.elapsed,
        done.stdout,
        done.stderr
    );
    done
}

/// Runs the discover flow against a hostile server (see [`against_target`]).
fn against(port: u16) -> Done {
    against_target(&[&url(port)])
}

#[test]
fn l_timeout_a_silent_server_times_out_with_a_clear_message() {
    let port = hostile(|mut s| {
        read_head(&mut s);
        thread::sleep(Duration::from_secs(30));
    });
    let done = against(port);
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "no answer to request 1 within 500 ms");
    assert_has(&done.stdout, "timeout waiting for the answer to id 1");
}

#[test]
fn c_exchange_failed_a_server_that_dies_mid_exchange_is_named() {
    let port = hostile(|mut s| {
        read_head(&mut s);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"");
        // and closes before the body is complete.
    });
    let done = against(port);
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "closed the connection");
    assert_has(&done.stdout, "C-EXCHANGE-FAILED");
}

#[test]
fn c_exchange_failed_garbage_bytes_are_not_http() {
    let port = hostile(|mut s| {
        read_head(&mut s);
        let _ = s.write_all(b"\x00\xff\xfeSSH-2.0-garbage\r\n\r\n not http at all");
        thread::sleep(Duration::from_millis(200));
    });
    let done = against(port);
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "not HTTP");
}

#[test]
fn c_exchange_failed_a_flooding_body_stops_at_the_size_limit() {
    let port = hostile(|mut s| {
        read_head(&mut s);
        let _ = s.write_all(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
        );
        let chunk = format!("{:x}\r\n{}\r\n", 65536, "a".repeat(65536));
        while s.write_all(chunk.as_bytes()).is_ok() {}
    });
    let done = against(port);
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "larger than the");
}

#[test]
fn c_sse_read_a_flooding_event_stream_is_stopped() {
    let port = hostile(|mut s| {
        read_head(&mut s);
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n");
        let event = "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"spam\"}}\n\n".repeat(64);
        while s.write_all(event.as_bytes()).is_ok() {}
    });
    let done = against(port);
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert!(
        done.stderr.contains("events") || done.stderr.contains("no answer"),
        "{}",
        done.stderr
    );
}

#[test]
fn h_status_a_server_that_is_not_mcp_is_named() {
    let port = hostile(|mut s| {
        read_head(&mut s);
        let body = "<html><body>Welcome to nginx!</body></html>";
        let _ = s.write_all(
            format!(
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        );
    });
    let done = against(port);
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "is it an MCP server?");
    assert!(
        done.stdout.contains("404 (not JSON-RPC)"),
        "{}",
        done.stdout
    );
    assert_has(&done.stdout, "H-STATUS");
}

#[test]
fn c_exchange_failed_nothing_listening_is_a_usage_exit() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    let done = against(port);
    assert_eq!(done.status.code(), Some(2), "{}", done.stderr);
    assert_has(&done.stderr, "cannot reach the server");
    let https = client(&["https://example.com/mcp"]);
    assert_eq!(https.status.code(), Some(2));
    assert_has(&https.stderr, "https is not supported");
}

/// Runs the discover flow against `sh -c SCRIPT` over stdio (see
/// [`against_target`]).
fn against_command(script: &str) -> Done {
    let cmd = format!("sh -c '{script}'");
    against_target(&["--cmd", &cmd])
}

#[test]
fn c_exchange_failed_a_command_that_exits_is_named_with_its_stderr() {
    let done = against_command("echo cannot open the database >&2; exit 3");
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "exit status: 3");
    assert_has(&done.stderr, "cannot open the database");
}

#[test]
fn l_timeout_a_silent_command_times_out_and_is_stopped() {
    let done = against_command("exec sleep 30");
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "within 500 ms");
}

#[test]
fn c_exchange_failed_a_command_writing_an_endless_line_is_cut_off() {
    let done = against_command("head -c 20000000 /dev/zero; sleep 30");
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "over the");
}

#[test]
fn c_exchange_failed_a_command_flooding_garbage_lines_is_stopped() {
    let done = against_command("exec yes garbage");
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert_has(&done.stderr, "is it an MCP server?");
    assert!(
        done.stderr.contains("events") || done.stderr.contains("within 500 ms"),
        "{}",
        done.stderr
    );
}
