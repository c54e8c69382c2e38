//! Tap between real peers, both sides captured (issue 29, point 6): the
//! official SDK clients (TypeScript v1 1.32.2, Python mcp 2.3.0) in front,
//! the official SDK servers (TypeScript v2 2.4.0, Python mcp 2.3.0) and
//! `serve` behind, over stdio and over Streamable HTTP. What the server
//! received equals what the client sent, and what the client received
//! equals what the server sent.
//!
//! Over stdio each side of tap is a `tee` into a file (the client's
//! command is `tee | tap -- (tee | SERVER | tee) | tee`): the four files
//! compare byte for byte. Over HTTP a recording relay sits on each side of
//! `tap --upstream` (`wire::Relay`): the client talks to the outer one on
//! `[::1]` with tap's port (a Host tap admits), tap to the inner one; each
//! request's method, path, end-to-end headers and body, and each answer's
//! status, end-to-end headers and body, compare exactly (`Host` and the
//! framing headers are a hop's own; an SSE stream is compared after its
//! chunked framing). Skipped without the peers (`scripts/setup.sh peers`),
//! failing instead under `MCP_LANES_REQUIRE_PEERS`.

mod common;
mod wire;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{peers_having, Peer, BIN};
use serde_json::Value;

/// An official SDK client: its program, script and what it calls.
#[derive(Clone, Copy)]
enum Client {
    /// `smoke/client-v1.mjs`, TypeScript SDK v1.
    Ts,
    /// `smoke/client.py`, Python SDK.
    Py,
}

/// A server behind tap.
#[derive(Clone, Copy)]
enum Server {
    /// `smoke/server-v2.mjs`, TypeScript SDK v2.
    Ts,
    /// `smoke/server.py`, Python SDK.
    Py,
    /// `mcp-lanes serve`.
    Serve,
}

/// The peers' folder, or `None` (skipped) when they are not installed.
fn dir() -> Option<PathBuf> {
    peers_having(&[
        "node_modules/@modelcontextprotocol/sdk",
        "node_modules/@modelcontextprotocol/server",
        ".venv/bin/python",
    ])
}

/// A folder of this case's own.
fn scratch(case: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("mcp-lanes-tap-peers-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// The tool each server gets called with, its arguments and the answer
/// to its elicitation (each asks one: the deploy console before paging,
/// search-index before purging).
fn call(server: Server) -> [&'static str; 3] {
    match server {
        Server::Ts | Server::Py => [
            "notify_oncall",
            r#"{"service":"checkout","message":"through tap"}"#,
            r#"{"confirm":true}"#,
        ],
        Server::Serve => [
            "purge_index",
            r#"{"index":"prod-catalog"}"#,
            r#"{"retention_days":30}"#,
        ],
    }
}

/// Runs `client` against `url` (an HTTP URL or `stdio:COMMAND`) calling
/// `server`'s tool; its summary, checked to have completed; its stderr.
fn run_client(dir: &Path, client: Client, url: &str, server: Server) -> (Value, String) {
    let [tool, args, elicit] = call(server);
    let mut command = match client {
        Client::Ts => {
            let mut c = Command::new("node");
            c.arg(dir.join("smoke/client-v1.mjs"));
            c.args([url, "--timeout", "15000"]);
            c
        }
        Client::Py => {
            let mut c = Command::new(dir.join(".venv/bin/python"));
            c.arg(dir.join("smoke/client.py"));
            c.args([url, "--timeout", "15"]);
            c
        }
    };
    command.args(["--tool", tool, "--args", args, "--elicit", elicit]);
    let run = command.output().expect("the client runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    let summary: Value = serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|e| panic!("no summary ({e}): {stdout}\n{stderr}"));
    assert_eq!(summary["ok"], true, "{summary}\n{stderr}");
    (summary, stderr)
}

/// The server's stdio command line (words without spaces: the TypeScript
/// client splits on them).
fn stdio_server(dir: &Path, server: Server) -> String {
    match server {
        Server::Ts => format!("node {}", dir.join("smoke/server-v2.mjs").display()),
        Server::Py => format!(
            "{} {}",
            dir.join(".venv/bin/python").display(),
            dir.join("smoke/server.py").display()
        ),
        Server::Serve => format!("{BIN} serve --preset search-index"),
    }
}

/// Reads `path` once it stops growing (the `tee`s finish after tap).
fn settled(path: &Path) -> Vec<u8> {
    let mut last = None;
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        let now = std::fs::read(path).unwrap_or_default();
        if last.as_ref() == Some(&now) || Instant::now() > until {
            return now;
        }
        last = Some(now);
        std::thread::sleep(Duration::from_millis(150));
    }
}

/// The stdio case: `client` starts tap around `server`, a `tee` on each
/// side of tap; the four captures compare byte for byte, and tap's
/// recording holds every line that passed.
fn stdio_case(name: &str, client: Client, server: Server) {
    let Some(dir) = dir() else { return };
    let at = scratch(name);
    let file = |f: &str| at.join(f).display().to_string();
    std::fs::write(
        at.join("inner.sh"),
        format!(
            "tee {} | {} | tee {}\n",
            file("server-got"),
            stdio_server(&dir, server),
            file("server-sent")
        ),
    )
    .expect("inner.sh");
    std::fs::write(
        at.join("outer.sh"),
        format!(
            "tee {} | {BIN} tap --out {} -- sh {} | tee {}\n",
            file("client-sent"),
            file("out.json"),
            file("inner.sh"),
            file("client-got")
        ),
    )
    .expect("outer.sh");
    let started = Instant::now();
    let (summary, stderr) = run_client(
        &dir,
        client,
        &format!("stdio:sh {}", file("outer.sh")),
        server,
    );
    let elicited = summary["elicitations"].as_array().map_or(0, Vec::len);
    assert_eq!(elicited, 1, "{summary}");
    // tap writes --out when the server has exited (the client closed it).
    let until = Instant::now() + Duration::from_secs(10);
    while !at.join("out.json").exists() {
        assert!(Instant::now() < until, "tap never finished:\n{stderr}");
        std::thread::sleep(Duration::from_millis(50));
    }
    let sent = settled(&at.join("client-sent"));
    let got = settled(&at.join("client-got"));
    let server_got = std::fs::read(at.join("server-got")).expect("server-got");
    let server_sent = std::fs::read(at.join("server-sent")).expect("server-sent");
    assert!(
        String::from_utf8_lossy(&sent).contains(call(server)[0]),
        "the client called nothing"
    );
    assert!(
        sent == server_got,
        "the server did not receive what the client sent:\n{}\n---\n{}",
        String::from_utf8_lossy(&sent),
        String::from_utf8_lossy(&server_got)
    );
    assert!(
        got == server_sent,
        "the client did not receive what the server sent:\n{}\n---\n{}",
        String::from_utf8_lossy(&got),
        String::from_utf8_lossy(&server_sent)
    );
    // Tap recorded each line, and said how many.
    let lines = |b: &[u8]| b.split(|&c| c == b'\n').filter(|l| !l.is_empty()).count();
    let recorded = format!("{} messages written to", lines(&sent) + lines(&server_sent));
    assert!(stderr.contains(&recorded), "{recorded}?\n{stderr}");
    let _ = std::fs::remove_dir_all(&at);
    eprintln!("{name}: {:?}", started.elapsed());
}

#[test]
fn tap_peers_stdio_ts_client_to_ts_server() {
    stdio_case("stdio-ts-ts", Client::Ts, Server::Ts);
}

#[test]
fn tap_peers_stdio_ts_client_to_python_server() {
    stdio_case("stdio-ts-py", Client::Ts, Server::Py);
}

#[test]
fn tap_peers_stdio_ts_client_to_serve() {
    stdio_case("stdio-ts-serve", Client::Ts, Server::Serve);
}

#[test]
fn tap_peers_stdio_python_client_to_ts_server() {
    stdio_case("stdio-py-ts", Client::Py, Server::Ts);
}

#[test]
fn tap_peers_stdio_python_client_to_python_server() {
    stdio_case("stdio-py-py", Client::Py, Server::Py);
}

#[test]
fn tap_peers_stdio_python_client_to_serve() {
    stdio_case("stdio-py-serve", Client::Py, Server::Serve);
}

/// An HTTP server behind tap, held until the case ends (dropped, it
/// stops).
#[allow(dead_code)]
enum Upstream {
    Peer(Peer),
    Serve(common::Proc),
}

/// Starts `server` over HTTP on a free port.
fn http_server(dir: &Path, server: Server) -> (Upstream, u16) {
    match server {
        Server::Ts => {
            let script = dir.join("smoke/server-v2.mjs");
            let peer = Peer::start(
                Path::new("node"),
                &[script.to_str().expect("path"), "--http", "--port", "0"],
            );
            let port = peer.port;
            (Upstream::Peer(peer), port)
        }
        Server::Py => {
            // Stateful: a legacy session (the TypeScript v1 client's) can
            // be sent elicitation/create on its stream.
            let script = dir.join("smoke/server.py");
            let peer = Peer::start(
                &dir.join(".venv/bin/python"),
                &[
                    script.to_str().expect("path"),
                    "--http",
                    "--port",
                    "0",
                    "--stateful",
                ],
            );
            let port = peer.port;
            (Upstream::Peer(peer), port)
        }
        Server::Serve => {
            let (proc, port) = common::http_server("search-index");
            (Upstream::Serve(proc), port)
        }
    }
}

/// The HTTP case: `client` -> relay -> tap -> relay -> `server`; every
/// exchange the same on both sides.
fn http_case(client: Client, server: Server) {
    let Some(dir) = dir() else { return };
    let started = Instant::now();
    let (_upstream, port) = http_server(&dir, server);
    let inner = wire::Relay::start("127.0.0.1:0", SocketAddr::from(([127, 0, 0, 1], port)));
    let url = format!("http://127.0.0.1:{}/mcp", inner.port);
    let mut tap = common::Proc::spawn(&["tap", "--upstream", &url, "--port", "0"]);
    let tap_port = common::tap_port(&mut tap);
    // The outer relay on [::1] with tap's port: the Host the client sends
    // is one tap admits, and reaches tap unchanged.
    let outer = wire::Relay::start(
        &format!("[::1]:{tap_port}"),
        SocketAddr::from(([127, 0, 0, 1], tap_port)),
    );
    let (summary, _) = run_client(
        &dir,
        client,
        &format!("http://[::1]:{tap_port}/mcp"),
        server,
    );
    if !matches!((client, server), (Client::Ts, Server::Ts)) {
        // The v2 server's stateless legacy fallback cannot ask a v1 client.
        let elicited = summary["elicitations"].as_array().map_or(0, Vec::len);
        assert_eq!(elicited, 1, "{summary}");
    }
    // What is still in flight (a client's DELETE, a closing stream) settles.
    std::thread::sleep(Duration::from_millis(300));
    let compared = wire::same_exchanges(&outer.conns(), &inner.conns());
    assert!(compared >= 3, "only {compared} exchanges: {summary}");
    tap.terminate();
    assert!(tap.wait_exit_status().success());
    eprintln!("{compared} exchanges compared in {:?}", started.elapsed());
}

#[test]
fn tap_peers_http_ts_client_to_ts_server() {
    http_case(Client::Ts, Server::Ts);
}

#[test]
fn tap_peers_http_ts_client_to_python_server() {
    http_case(Client::Ts, Server::Py);
}

#[test]
fn tap_peers_http_ts_client_to_serve() {
    http_case(Client::Ts, Server::Serve);
}

#[test]
fn tap_peers_http_python_client_to_ts_server() {
    http_case(Client::Py, Server::Ts);
}

#[test]
fn tap_peers_http_python_client_to_python_server() {
    http_case(Client::Py, Server::Py);
}

#[test]
fn tap_peers_http_python_client_to_serve() {
    http_case(Client::Py, Server::Serve);
}

#[test]
fn tap_peers_the_comparison_sees_one_byte_changed_and_an_answer_cut_short() {
    let conn = |answer: &str| {
        wire::Conn {
        up: b"POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}".to_vec(),
        down: format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{answer}\r\n0\r\n\r\n",
            answer.len()
        )
        .into_bytes(),
    }
    };
    let same = conn("data: {\"id\":1}\n\n");
    let one = std::slice::from_ref;
    assert_eq!(wire::same_exchanges(one(&same), one(&same)), 1);
    let changed = conn("data: {\"id\":2}\n\n");
    let caught = std::panic::catch_unwind(|| wire::same_exchanges(one(&same), one(&changed)));
    assert!(caught.is_err(), "a changed byte passed");
    // The client left during the answer: what it got is a beginning of
    // what was sent, and that is no difference; more than was sent is.
    let mut cut = same.clone();
    cut.down.truncate(cut.down.len() - 12);
    assert_eq!(wire::same_exchanges(one(&cut), one(&same)), 1);
    let caught = std::panic::catch_unwind(|| wire::same_exchanges(one(&same), one(&cut)));
    assert!(caught.is_err(), "the client got more than the server sent");
}
