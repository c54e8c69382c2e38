//! Helpers shared by the CLI integration tests: spawning the built binary
//! with a guard that always kills it, reading its stdout and stderr with
//! per-read timeouts, and a tiny raw HTTP/1.1 client.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long any single read may take before the test fails.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_mcp-lanes");

/// Runs the binary to completion with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("spawn mcp-lanes")
}

/// A running `mcp-lanes`, killed when dropped (also when a test fails).
pub struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Receiver<Vec<u8>>,
    stderr: Receiver<String>,
    stderr_seen: Vec<String>,
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn pump_lines<R: Read + Send + 'static>(source: R) -> Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(source);
        loop {
            let mut line = Vec::new();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => return,
                Ok(_) => {
                    if line.last() == Some(&b'\n') {
                        line.pop();
                    }
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            }
        }
    });
    rx
}

impl Proc {
    /// Spawns the binary with piped stdin, stdout and stderr.
    pub fn spawn(args: &[&str]) -> Proc {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn mcp-lanes");
        let stdin = child.stdin.take();
        let stdout = pump_lines(child.stdout.take().expect("stdout"));
        let raw_err = pump_lines(child.stderr.take().expect("stderr"));
        let (tx, stderr) = mpsc::channel();
        thread::spawn(move || {
            for line in raw_err {
                if tx
                    .send(String::from_utf8_lossy(&line).into_owned())
                    .is_err()
                {
                    return;
                }
            }
        });
        Proc {
            child,
            stdin,
            stdout,
            stderr,
            stderr_seen: Vec::new(),
        }
    }

    /// `serve --transport stdio --preset PRESET`.
    pub fn stdio(preset: &str) -> Proc {
        Proc::spawn(&["serve", "--transport", "stdio", "--preset", preset])
    }

    /// Writes raw bytes to stdin.
    pub fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write stdin");
        stdin.flush().expect("flush stdin");
    }

    /// Writes one line (a newline is added).
    pub fn send_line(&mut self, line: &str) {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.write(&bytes);
    }

    /// Writes one message as one line.
    pub fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// The next stdout line, parsed as JSON; fails after [`TIMEOUT`].
    pub fn recv(&mut self) -> Value {
        match self.stdout.recv_timeout(TIMEOUT) {
            Ok(line) => serde_json::from_slice(&line).unwrap_or_else(|err| {
                panic!(
                    "stdout line is not JSON ({err}): {:?}",
                    String::from_utf8_lossy(&line)
                )
            }),
            Err(err) => panic!(
                "no stdout line within {TIMEOUT:?} ({err:?}); stderr so far:\n{}",
                self.stderr_text()
            ),
        }
    }

    /// Sends a request and returns the next line, checking it answers `id`.
    pub fn call(&mut self, message: &Value) -> Value {
        self.send(message);
        let reply = self.recv();
        assert_eq!(reply["id"], message["id"], "reply to the wrong id: {reply}");
        reply
    }

    /// Everything read from stderr so far (draining what is buffered).
    pub fn stderr_text(&mut self) -> String {
        while let Ok(line) = self.stderr.try_recv() {
            self.stderr_seen.push(line);
        }
        self.stderr_seen.join("\n")
    }

    /// Waits for a stderr line containing `needle` and returns it.
    pub fn stderr_line(&mut self, needle: &str) -> String {
        if let Some(line) = self.stderr_seen.iter().find(|l| l.contains(needle)) {
            return line.clone();
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stderr.recv_timeout(left) {
                Ok(line) => {
                    self.stderr_seen.push(line.clone());
                    if line.contains(needle) {
                        return line;
                    }
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "no stderr line containing {needle:?}; stderr:\n{}",
                        self.stderr_seen.join("\n")
                    )
                }
            }
        }
    }

    /// Closes stdin and waits (bounded) for the process to exit; also
    /// checks stdout ends with no further line.
    pub fn close_and_wait(&mut self) -> ExitStatus {
        self.close_stdin();
        self.wait_exit()
    }

    /// Closes stdin: the client disconnects.
    pub fn close_stdin(&mut self) {
        drop(self.stdin.take());
    }

    /// Waits (bounded) for the process to exit; checks stdout then ends
    /// with no further line.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                if let Ok(line) = self.stdout.recv_timeout(Duration::from_millis(200)) {
                    panic!("unexpected stdout line: {}", String::from_utf8_lossy(&line));
                }
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit within {TIMEOUT:?} of stdin closing"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM (graceful shutdown).
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success());
    }

    /// Waits (bounded) for the process to exit, without checking stdout.
    pub fn wait_exit_status(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit within {TIMEOUT:?}"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// The `_meta` of a modern request declaring `caps`.
pub fn meta(caps: Value) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
    })
}

/// A modern request: `params` plus `_meta` declaring `caps`.
pub fn modern(id: u64, method: &str, mut params: Value, caps: Value) -> Value {
    params["_meta"] = meta(caps);
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// `serve --transport http --port 0 --preset PRESET`, with its port.
pub fn http_server(preset: &str) -> (Proc, u16) {
    http_server_with(preset, &[])
}

/// `serve --transport http --port 0 --preset PRESET EXTRA...`, with its port.
pub fn http_server_with(preset: &str, extra: &[&str]) -> (Proc, u16) {
    let mut args = vec![
        "serve",
        "--transport",
        "http",
        "--port",
        "0",
        "--preset",
        preset,
    ];
    args.extend_from_slice(extra);
    spawn_listening(&args)
}

/// A finished run of a guarded `mcp-lanes` command (see [`run_guarded`]).
pub struct Done {
    /// How it exited.
    pub status: ExitStatus,
    /// Everything it wrote to stdout.
    pub stdout: String,
    /// Everything it wrote to stderr.
    pub stderr: String,
    /// Wall-clock time from spawn to exit.
    pub elapsed: Duration,
}

/// Reads `source` to its end on a thread of its own (bytes that are not
/// UTF-8 become U+FFFD: hostile servers send them).
fn drain<R: Read + Send + 'static>(source: Option<R>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut s) = source {
            let _ = s.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Runs `cmd` (stdin closed, stdout and stderr captured) to its end, killing
/// it and failing the test after `guard`: a command that hangs fails the
/// test instead of hanging it. `what` names it in the failure.
pub fn run_guarded(mut cmd: Command, what: &str, guard: Duration) -> Done {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {what}: {e}"));
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > guard {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still running after {guard:?}");
        }
        thread::sleep(Duration::from_millis(20));
    };
    Done {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        elapsed: started.elapsed(),
    }
}

/// The loopback port in a line that names `http://127.0.0.1:PORT/…`.
pub fn port_in(line: &str) -> u16 {
    line.split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"))
}

/// The port an HTTP tap (`tap --upstream … --port 0`) says it passes on.
pub fn tap_port(tap: &mut Proc) -> u16 {
    port_in(&tap.stderr_line("passing http://127.0.0.1:"))
}

/// `serve --file PATH --server ID` over HTTP on a free port, and the port.
pub fn serve_file_http(path: &str, server: &str) -> (Proc, u16) {
    let args = [
        "serve",
        "--transport",
        "http",
        "--port",
        "0",
        "--file",
        path,
        "--server",
        server,
    ];
    spawn_listening(&args)
}

/// Starts `mcp-lanes ARGS` (a command that listens with `--port 0`) and
/// returns it with the port it prints on stderr.
pub fn spawn_listening(args: &[&str]) -> (Proc, u16) {
    let mut proc = Proc::spawn(args);
    let line = proc.stderr_line("listening on http://127.0.0.1:");
    let port = line
        .rsplit("http://127.0.0.1:")
        .next()
        .and_then(|rest| rest.strip_suffix("/mcp"))
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no port in {line:?}"));
    (proc, port)
}

/// An HTTP response as the tests see it.
#[derive(Debug)]
pub struct HttpReply {
    /// Status code.
    pub status: u16,
    /// Header fields in order.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpReply {
    /// A header by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    /// The JSON messages of an event-stream body, in order (the `data:`
    /// line of each event).
    pub fn events(&self) -> Vec<Value> {
        String::from_utf8_lossy(&self.body)
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| serde_json::from_str(d.trim()).unwrap_or_else(|e| panic!("{e}: {d:?}")))
            .collect()
    }
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|err| {
            panic!(
                "body is not JSON ({err}): {:?}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }
}

/// Sends one raw request (everything up to the end of the body) on a new
/// connection and reads the response up to the connection's close.
pub fn raw_http(port: u16, request: &[u8]) -> HttpReply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream.set_read_timeout(Some(TIMEOUT)).expect("timeout");
    stream.set_write_timeout(Some(TIMEOUT)).expect("timeout");
    // The server may answer (e.g. 413) and close before reading everything.
    let _ = stream.write_all(request);
    // Nothing more will come: a request with a short body gets an answer
    // (400) instead of a wait for bytes that never arrive.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut raw = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&chunk[..n]),
            Err(err) if !raw.is_empty() && err.kind() == std::io::ErrorKind::ConnectionReset => {
                break
            }
            Err(err) => panic!("reading the response failed: {err}"),
        }
    }
    parse_response(&raw)
}

/// Parses one `Content-Length` framed HTTP/1.1 response.
pub fn parse_response(raw: &[u8]) -> HttpReply {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no end of head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    assert!(status_line.starts_with("HTTP/1.1 "), "{status_line}");
    let status = status_line[9..12].parse().expect("status code");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    if let Some(len) = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Content-Length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
    {
        assert!(body.len() >= len, "body shorter than Content-Length");
        body.truncate(len);
    }
    HttpReply {
        status,
        headers,
        body,
    }
}

/// A response read as it arrives, on its own connection: the head first,
/// then the rest as a test asks for it.
pub struct Incoming {
    stream: TcpStream,
    /// Read and not taken yet.
    pub buf: Vec<u8>,
    /// The status line and header fields.
    pub head: String,
}

impl Incoming {
    /// Sends `request` (raw text) on a new connection and reads the
    /// response head.
    pub fn open(port: u16, request: &str) -> Incoming {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream.set_read_timeout(Some(TIMEOUT)).expect("timeout");
        stream.write_all(request.as_bytes()).expect("write");
        let mut incoming = Incoming {
            stream,
            buf: Vec::new(),
            head: String::new(),
        };
        let end = incoming.until(b"\r\n\r\n");
        let head: Vec<u8> = incoming.buf.drain(..end + 4).collect();
        incoming.head = String::from_utf8_lossy(&head).into_owned();
        incoming
    }

    /// Reads until `needle` is in the buffer; where it starts.
    pub fn until(&mut self, needle: &[u8]) -> usize {
        loop {
            if let Some(at) = self.buf.windows(needle.len()).position(|w| w == needle) {
                return at;
            }
            self.read_more("closed early");
        }
    }

    /// The next chunk of a chunked body; `None` at its end.
    pub fn chunk(&mut self) -> Option<String> {
        let line_end = self.until(b"\r\n");
        let size_line: Vec<u8> = self.buf.drain(..line_end + 2).collect();
        let size = usize::from_str_radix(String::from_utf8_lossy(&size_line).trim(), 16)
            .expect("chunk size");
        while self.buf.len() < size + 2 {
            self.read_more("closed inside a chunk");
        }
        let data: Vec<u8> = self.buf.drain(..size + 2).collect();
        (size > 0).then(|| String::from_utf8_lossy(&data[..size]).into_owned())
    }

    fn read_more(&mut self, closed: &str) {
        let mut chunk = [0u8; 4096];
        let n = self.stream.read(&mut chunk).expect("read");
        assert!(
            n > 0,
            "{closed}; so far {:?}",
            String::from_utf8_lossy(&self.buf)
        );
        self.buf.extend_from_slice(&chunk[..n]);
    }
}

/// POSTs a JSON body to `/mcp` as a legacy client does (no modern
/// headers), plus `extra` headers.
pub fn post_legacy(port: u16, body: &Value, extra: &[(&str, &str)]) -> HttpReply {
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    headers.extend_from_slice(extra);
    http(port, "POST", "/mcp", &headers, &body.to_string())
}

/// Sends `method path` with `headers` and `body` (and `Connection: close`).
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> HttpReply {
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let mut bytes = request.into_bytes();
    bytes.extend_from_slice(body.as_bytes());
    raw_http(port, &bytes)
}

/// POSTs a JSON body to `/mcp` with the modern headers for `method`
/// (protocol version `version`), plus `extra` headers.
pub fn post(port: u16, version: &str, message: &Value, extra: &[(&str, &str)]) -> HttpReply {
    let method = message["method"].as_str().unwrap_or("");
    let name = message["params"]["name"].as_str().unwrap_or("").to_string();
    let mut headers = vec![
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("MCP-Protocol-Version", version),
        ("Mcp-Method", method),
    ];
    if !name.is_empty() {
        headers.push(("Mcp-Name", &name));
    }
    headers.extend_from_slice(extra);
    http(port, "POST", "/mcp", &headers, &message.to_string())
}

// ---- the official SDK peers (tests/peers) ---------------------------------

/// `tests/peers`, or `MCP_LANES_PEERS_DIR` (the installed peers of the real
/// checkout when the tests run from a copy of the repository), when both
/// SDKs, TypeScript and Python, are installed there.
pub fn peers() -> Option<std::path::PathBuf> {
    peers_having(&[
        "node_modules/@modelcontextprotocol/server",
        ".venv/bin/python",
    ])
}

/// The peers' folder (as [`peers`]) when every one of `parts` is in it;
/// otherwise the test is skipped (`None`), or fails when
/// `MCP_LANES_REQUIRE_PEERS` says the peers must be there.
pub fn peers_having(parts: &[&str]) -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("MCP_LANES_PEERS_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers")
        });
    if parts.iter().all(|part| dir.join(part).exists()) {
        return Some(dir);
    }
    assert!(
        std::env::var_os("MCP_LANES_REQUIRE_PEERS").is_none(),
        "the real peers are not installed in {} (scripts/setup.sh peers)",
        dir.display()
    );
    eprintln!(
        "skipped: the real peers are not installed in {} (scripts/setup.sh peers)",
        dir.display()
    );
    None
}

/// A peer server process, killed when dropped; its stderr collected.
pub struct Peer {
    child: Child,
    /// The port it listens on.
    pub port: u16,
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Peer {
    /// Starts `program args` and waits for `http://127.0.0.1:PORT` to be
    /// printed on its stderr.
    pub fn start(program: &std::path::Path, args: &[&str]) -> Peer {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the peer server");
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut pipe = child.stderr.take().expect("stderr");
        let keep = stderr.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut text) = keep.lock() {
                    text.push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            }
        });
        let started = Instant::now();
        let port = loop {
            let text = stderr.lock().map(|t| t.clone()).unwrap_or_default();
            if let Some(port) = text
                .split("http://127.0.0.1:")
                .nth(1)
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|p| p.parse::<u16>().ok())
            {
                break port;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the peer never said where it listens: {text}"
            );
            thread::sleep(Duration::from_millis(50));
        };
        Peer {
            child,
            port,
            stderr,
        }
    }

    /// What it wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().map(|t| t.clone()).unwrap_or_default()
    }
}

/// A run of four or more plain English words in `text` (MCP terms carry
/// `/`, `_`, `.`, `-`, digits or inner capitals and do not count).
pub fn english_run(text: &str) -> Option<String> {
    let mut run: Vec<&str> = Vec::new();
    for raw in text.split(|c: char| !c.is_ascii_graphic() || "\"()".contains(c)) {
        let word = raw.trim_matches(|c: char| ",;:.!?".contains(c));
        let plain = !word.is_empty()
            && word
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '\'')
            && word
                .chars()
                .skip(1)
                .all(|c| c.is_ascii_lowercase() || c == '\'');
        if plain {
            run.push(word);
            if run.len() >= 4 {
                return Some(run.join(" "));
            }
        } else {
            run.clear();
        }
    }
    None
}
