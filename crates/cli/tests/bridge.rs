//! `mcp-lanes bridge`: a stdio server as Streamable HTTP for the page, over
//! real sockets with real stdio servers (`mcp-lanes serve --transport
//! stdio`, the official Python SDK server of tests/peers when installed):
//! the core's client runs through it, CORS names the one origin allowed,
//! other Host and Origin headers get 403, and a server that exits or stays
//! silent gets a clear status instead of a hang.

mod common;

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{peers_having, raw_http, spawn_listening, Proc, BIN};

/// Starts `bridge --cmd CMD --port 0 EXTRA...` and returns it with its port.
fn bridge(cmd: &str, extra: &[&str]) -> (Proc, u16) {
    let mut args = vec!["bridge", "--cmd", cmd, "--port", "0"];
    args.extend_from_slice(extra);
    spawn_listening(&args)
}

/// `mcp-lanes serve --transport stdio --preset PRESET` as a command line.
fn serve_cmd(preset: &str) -> String {
    format!("{BIN} serve --transport stdio --preset {preset}")
}

/// Runs `mcp-lanes client ARGS URL` to its end (killed after a minute).
fn client(args: &[&str], port: u16) -> (bool, String) {
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut child = Command::new(BIN)
        .arg("client")
        .args(args)
        .arg(&url)
        .env_remove("MCP_CONFORMANCE_SCENARIO")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn client");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("client still running after a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// A POST of `body` with the given extra header lines.
fn post(port: u16, body: &str, extra: &str) -> common::HttpReply {
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    raw_http(port, request.as_bytes())
}

const PAGE: &str = "http://127.0.0.1:8080";

#[test]
fn the_core_client_runs_through_the_bridge() {
    for preset in ["notes", "dual-era", "deploy-console"] {
        let (_bridge, port) = bridge(&serve_cmd(preset), &[]);
        let (ok, text) = client(&[], port);
        assert!(ok, "{preset}: {text}");
        assert!(text.contains("200 result"), "{preset}: {text}");
    }
}

#[test]
fn h_headers_the_bridge_refuses_a_modern_post_whose_headers_contradict_its_body() {
    let (_bridge, port) = bridge(&serve_cmd("deploy-console"), &[]);
    let list = r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let wrong = "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: prompts/list\r\n";
    let reply = post(port, list, wrong);
    assert_eq!(reply.status, 400);
    assert_eq!(reply.json()["error"]["code"], -32020);
    assert_eq!(reply.json()["id"], 7);
    let right = "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n";
    assert_eq!(post(port, list, right).status, 200);
    // H-STATUS: a -32602 for malformed `_meta` is 400, as a server that
    // knows why would send it (the bridge relays the server's -32602).
    let caps_missing = r#"{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let reply = post(port, caps_missing, right);
    assert_eq!(reply.json()["error"]["code"], -32602);
    assert_eq!(reply.status, 400);
}

#[test]
fn cors_allows_the_one_origin_and_its_mcp_headers() {
    let (_bridge, port) = bridge(&serve_cmd("deploy-console"), &["--allow-origin", PAGE]);
    let preflight = format!(
        "OPTIONS /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {PAGE}\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-service\r\nConnection: close\r\n\r\n"
    );
    let reply = raw_http(port, preflight.as_bytes());
    assert_eq!(reply.status, 204);
    assert_eq!(reply.header("Access-Control-Allow-Origin"), Some(PAGE));
    assert_eq!(
        reply.header("Access-Control-Allow-Headers"),
        Some("content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-param-service")
    );
    let discover = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    // The modern binding's headers: the bridge checks them (H-HEADERS).
    let modern = "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\n";
    let reply = post(port, discover, &format!("Origin: {PAGE}\r\n{modern}"));
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    assert_eq!(reply.header("Access-Control-Allow-Origin"), Some(PAGE));
    assert!(reply
        .header("Access-Control-Expose-Headers")
        .is_some_and(|h| h.contains("Mcp-Session-Id") && h.contains("MCP-Protocol-Version")));
    assert_eq!(reply.json()["id"], 1);
    // Without an Origin (a native client): no CORS headers, still served.
    let reply = post(port, discover, modern);
    assert_eq!(reply.status, 200);
    assert_eq!(reply.header("Access-Control-Allow-Origin"), None);
}

#[test]
fn other_hosts_and_origins_are_refused_against_dns_rebinding() {
    let (_bridge, port) = bridge(&serve_cmd("deploy-console"), &["--allow-origin", PAGE]);
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let reply = post(port, body, "Origin: http://evil.example\r\n");
    assert_eq!(reply.status, 403);
    assert_eq!(reply.header("Access-Control-Allow-Origin"), None);
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: rebound.evil.example:{port}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    assert_eq!(raw_http(port, request.as_bytes()).status, 403);
    let preflight = format!(
        "OPTIONS /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n"
    );
    assert_eq!(raw_http(port, preflight.as_bytes()).status, 403);
    // No --allow-origin: no page at all.
    let (_closed, port) = bridge(&serve_cmd("deploy-console"), &[]);
    assert_eq!(post(port, body, &format!("Origin: {PAGE}\r\n")).status, 403);
}

#[test]
fn a_server_that_exits_gets_502_with_its_status_and_stderr() {
    let (mut bridge, port) = bridge("sh -c 'echo dying >&2; exit 3'", &[]);
    bridge.stderr_line("exited");
    let reply = post(port, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, "");
    assert_eq!(reply.status, 502);
    let text = String::from_utf8_lossy(&reply.body);
    assert!(
        text.contains("exit status: 3") && text.contains("dying"),
        "{text}"
    );
}

#[test]
fn a_silent_server_gets_504_within_the_timeout() {
    let (_bridge, port) = bridge("sleep 60", &["--timeout", "300"]);
    let started = Instant::now();
    let reply = post(port, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, "");
    assert_eq!(reply.status, 504);
    assert!(started.elapsed() < Duration::from_secs(5));
    // A notification is written and accepted at once.
    let reply = post(
        port,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "",
    );
    assert_eq!(reply.status, 202);
}

#[test]
fn garbage_from_the_server_is_relayed_not_hidden() {
    let (_bridge, port) = bridge("sh -c 'read line; echo not json at all; sleep 5'", &[]);
    let reply = post(port, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, "");
    assert_eq!(reply.status, 200);
    assert_eq!(String::from_utf8_lossy(&reply.body), "not json at all");
}

#[test]
fn a_usage_error_exits_2() {
    let out = common::run(&["bridge", "--cmd", "x", "--port", "0", "--allow-origin", "*"]);
    assert_eq!(out.status.code(), Some(2));
    let out = common::run(&["bridge", "--cmd", "/nonexistent/server", "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));
}

/// `tests/peers` (or `MCP_LANES_PEERS_DIR`) when the Python SDK, all this
/// file needs, is installed there.
fn peers() -> Option<PathBuf> {
    peers_having(&[".venv/bin/python"])
}

#[test]
fn the_python_sdk_stdio_server_runs_through_the_bridge() {
    let Some(dir) = peers() else { return };
    let cmd = format!(
        "{} {}",
        dir.join(".venv/bin/python").display(),
        dir.join("smoke/server.py").display()
    );
    let (_bridge, port) = bridge(&cmd, &[]);
    let (ok, text) = client(&[], port);
    assert!(ok, "{text}");
    assert!(text.contains("200 result"), "{text}");
}
