//! `mcp-lanes serve --transport http`: the simulated server as a Streamable
//! HTTP endpoint at `http://127.0.0.1:N/mcp`, on loopback only.
//!
//! Layout: the accepting thread hands each connection to a thread of its
//! own (at most [`MAX_CONNECTIONS`]), which reads HTTP/1.1 requests with
//! bounded buffers and timeouts and turns each into the core's
//! [`HttpRequest`]. One server thread owns the [`Server`] and handles the
//! requests one at a time, in arrival order, so a slow client never holds
//! the simulation. The core decides every status and body for `/mcp`; this
//! module answers only framing problems (bad HTTP, other paths, oversized
//! bodies, bytes that are not UTF-8).

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, Shutdown, TcpListener, TcpStream};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use mcp_lanes_core::server::{HttpReply, OutputKind, Server, ServerConfig, MAX_MESSAGE_BYTES};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{self as core_http, HttpRequest, HttpResponse};
use serde_json::Value;

use crate::{edge, log, Failure};

/// The MCP endpoint path; every other path gets 404.
pub const ENDPOINT: &str = "/mcp";
/// Largest request body accepted (the core's message limit); larger: 413.
pub const MAX_BODY_BYTES: usize = MAX_MESSAGE_BYTES;
/// Largest request line plus headers; larger: 431.
const MAX_HEAD_BYTES: usize = 64 * 1024;
/// Most header fields in one request; more: 431.
const MAX_HEADERS: usize = 100;
/// Longest chunk-size line of a chunked body.
const MAX_CHUNK_LINE: usize = 1024;
/// Connections served at once; more get 503.
const MAX_CONNECTIONS: usize = 64;
/// How long a read or write may stall (also the keep-alive idle time).
const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// Serves `config` on `127.0.0.1:port` (0 = any free port) until the
/// process is stopped.
pub fn serve(config: ServerConfig, port: u16) -> Result<(), Failure> {
    // Loopback only, never 0.0.0.0: a simulator is no public server.
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))
        .map_err(|err| Failure::Io(format!("cannot listen on 127.0.0.1:{port}: {err}")))?;
    let port = listener
        .local_addr()
        .map_err(|err| Failure::Io(format!("cannot read the bound address: {err}")))?
        .port();
    let key = crate::state_key::random()?;
    let label = config.label();
    let start = Instant::now();
    let (jobs, queue) = mpsc::channel::<Job>();
    thread::Builder::new()
        .name("server".into())
        .spawn(move || {
            let mut server = Server::new(config);
            server.set_state_key(&key);
            run_server(server, queue, start)
        })
        .map_err(|err| Failure::Io(format!("cannot start the server thread: {err}")))?;
    log::line(0, &format!("serving {label} on Streamable HTTP"));
    log::line(
        0,
        &format!("listening on http://127.0.0.1:{port}{ENDPOINT}"),
    );

    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(err) => {
                log::line(log::millis_since(start), &format!("accept failed: {err}"));
                // E.g. out of file descriptors: back off instead of spinning.
                thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if active.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = write_text(&stream, "", 503, "Too many connections; try again.", true);
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let guard = ActiveGuard(Arc::clone(&active));
        let jobs = jobs.clone();
        let spawned = thread::Builder::new()
            .name("connection".into())
            .spawn(move || {
                let _guard = guard;
                connection(stream, &jobs, start);
            });
        if let Err(err) = spawned {
            log::line(
                log::millis_since(start),
                &format!("cannot start a connection thread: {err}"),
            );
        }
    }
    Ok(())
}

/// Counts a live connection; uncounts it when dropped.
struct ActiveGuard(Arc<AtomicUsize>);

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A request for the server thread and where to send its response.
struct Job {
    request: HttpRequest,
    reply: mpsc::Sender<HttpResponse>,
}

/// The server thread: handles requests one at a time, in arrival order.
fn run_server(mut server: Server, queue: mpsc::Receiver<Job>, start: Instant) {
    for job in queue {
        let now = log::millis_since(start);
        let response = handle(&mut server, now, &job.request);
        let _ = job.reply.send(response);
    }
}

/// One request through the core, logged. A panic inside the core (a bug)
/// becomes a 500 for this request instead of stopping the server.
fn handle(server: &mut Server, now: u64, request: &HttpRequest) -> HttpResponse {
    let handled = panic::catch_unwind(AssertUnwindSafe(|| {
        server.handle_http(SimTime::from_millis(now), request)
    }));
    let input = if request.body.is_empty() {
        String::from("no body")
    } else {
        log::label_text(&request.body)
    };
    let HttpReply {
        response,
        rules,
        note,
        ..
    } = match handled {
        Ok(handled) => handled,
        Err(_) => {
            log::line(
                now,
                &format!(
                    "{} {} {input} -> 500: the simulated server failed (a bug); it keeps serving",
                    request.method, request.path
                ),
            );
            return internal_error();
        }
    };
    let output = match serde_json::from_str::<Value>(&response.body) {
        Ok(value) => format!(" {}", log::label(&value)),
        Err(_) => String::new(),
    };
    log::line(
        now,
        &format!(
            "{} {} {input} -> {}{output}{}: {note}",
            request.method,
            request.path,
            response.status,
            log::rules(&rules)
        ),
    );
    while let Some(out) = server.poll_output() {
        let fate = match out.kind {
            OutputKind::Send { .. } => {
                "not sent: this endpoint opens no SSE stream for server-initiated messages"
            }
            _ => "",
        };
        log::output(now, &out, fate);
    }
    response
}

/// The 500 sent when the simulated server failed on a request.
fn internal_error() -> HttpResponse {
    HttpResponse::json(500, edge::internal_error().message.to_string())
}

/// A problem with the HTTP framing of a request, answered here.
struct Refusal {
    status: u16,
    text: String,
}

/// A framing refusal with its status and plain-text explanation.
fn refuse(status: u16, text: impl Into<String>) -> Refusal {
    Refusal {
        status,
        text: text.into(),
    }
}

/// What was read of one request.
enum ReadOutcome {
    /// A complete request.
    Request(Incoming),
    /// The peer closed (or went quiet) between requests.
    Closed,
    /// The request cannot be served: answer and close.
    Refused(Refusal, String),
}

/// A request line and headers, read and checked.
struct Incoming {
    method: String,
    target: String,
    keep_alive: bool,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// Method, request target, HTTP minor version and header fields.
type Head = (String, String, u8, Vec<(String, String)>);

/// Buffered reading from a connection.
struct Conn<S> {
    stream: S,
    buf: Vec<u8>,
}

impl<S: Read> Conn<S> {
    /// Reads more bytes into the buffer; `Ok(0)` at end of stream.
    fn fill(&mut self) -> io::Result<usize> {
        let mut chunk = [0u8; 16 * 1024];
        loop {
            match self.stream.read(&mut chunk) {
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(n);
                }
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            }
        }
    }

    /// Moves exactly `n` bytes into `out`.
    fn take(&mut self, n: usize, out: &mut Vec<u8>) -> io::Result<()> {
        while self.buf.len() < n {
            if self.fill()? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
        out.extend(self.buf.drain(..n));
        Ok(())
    }

    /// One CRLF- (or LF-) terminated line of at most `max` bytes, without
    /// its terminator; `None` if it is longer.
    fn line(&mut self, max: usize) -> io::Result<Option<Vec<u8>>> {
        loop {
            if let Some(pos) = self.buf.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=pos).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some(line));
            }
            if self.buf.len() > max {
                return Ok(None);
            }
            if self.fill()? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
    }

    /// Reads the next request. `on_continue` is called before reading a
    /// body when the client sent `Expect: 100-continue`.
    fn read_request(&mut self, mut on_continue: impl FnMut() -> io::Result<()>) -> ReadOutcome {
        let head = match self.read_head() {
            Ok(Some(head)) => head,
            Ok(None) => return ReadOutcome::Closed,
            Err(refusal) => return ReadOutcome::Refused(refusal, String::new()),
        };
        let (method, target, minor, headers) = head;
        let summary = format!("{method} {target}");
        let connection = header_tokens(&headers, "Connection");
        let keep_alive = if minor == 0 {
            connection.iter().any(|t| t == "keep-alive")
        } else {
            !connection.iter().any(|t| t == "close")
        };
        let body = match self.read_body(&headers, &mut on_continue) {
            Ok(body) => body,
            Err(Some(refusal)) => return ReadOutcome::Refused(refusal, summary),
            Err(None) => return ReadOutcome::Closed,
        };
        ReadOutcome::Request(Incoming {
            method,
            target,
            keep_alive,
            headers,
            body,
        })
    }

    /// The request line and headers; `Ok(None)` when the peer closed or
    /// went quiet before sending a byte of a new request.
    fn read_head(&mut self) -> Result<Option<Head>, Refusal> {
        loop {
            {
                let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
                let mut req = httparse::Request::new(&mut fields);
                match req.parse(&self.buf) {
                    Ok(httparse::Status::Complete(len)) => {
                        let method = req.method.unwrap_or("").to_string();
                        let target = req.path.unwrap_or("").to_string();
                        let minor = req.version.unwrap_or(1);
                        let headers = req
                            .headers
                            .iter()
                            .map(|h| {
                                (
                                    h.name.to_string(),
                                    String::from_utf8_lossy(h.value).into_owned(),
                                )
                            })
                            .collect();
                        self.buf.drain(..len);
                        return Ok(Some((method, target, minor, headers)));
                    }
                    Ok(httparse::Status::Partial) => {}
                    Err(httparse::Error::TooManyHeaders) => {
                        return Err(refuse(431, "Too many header fields."))
                    }
                    Err(_) => return Err(refuse(400, "Malformed HTTP request.")),
                }
            }
            if self.buf.len() > MAX_HEAD_BYTES {
                return Err(refuse(431, "Request line and headers are too large."));
            }
            match self.fill() {
                Ok(0) | Err(_) if self.buf.is_empty() => return Ok(None),
                Ok(0) => return Err(refuse(400, "Incomplete HTTP request.")),
                Ok(_) => {}
                Err(_) => return Ok(None),
            }
        }
    }

    /// The body per `Content-Length` or chunked `Transfer-Encoding`, at
    /// most [`MAX_BODY_BYTES`]. `Err(None)`: the connection failed.
    /// A body cut short by the client closing its side gets 400.
    fn read_body(
        &mut self,
        headers: &[(String, String)],
        on_continue: &mut impl FnMut() -> io::Result<()>,
    ) -> Result<Vec<u8>, Option<Refusal>> {
        let too_large = || {
            Some(refuse(
                413,
                format!(
                    "Request body too large: this server accepts at most {MAX_BODY_BYTES} bytes."
                ),
            ))
        };
        let transfer = header_tokens(headers, "Transfer-Encoding");
        let lengths: Vec<&str> = headers
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("Content-Length"))
            .flat_map(|(_, v)| v.split(','))
            .map(str::trim)
            .collect();
        let expects_continue = header_tokens(headers, "Expect")
            .iter()
            .any(|t| t == "100-continue");
        let failed = |err: io::Error| {
            (err.kind() == io::ErrorKind::UnexpectedEof)
                .then(|| refuse(400, "Incomplete request body."))
        };
        let mut body = Vec::new();
        if !transfer.is_empty() {
            if !lengths.is_empty() {
                return Err(Some(refuse(
                    400,
                    "Both Transfer-Encoding and Content-Length: refused (request smuggling).",
                )));
            }
            if transfer != ["chunked"] {
                return Err(Some(refuse(
                    501,
                    "Only the chunked transfer coding is supported.",
                )));
            }
            if expects_continue {
                on_continue().map_err(|_| None)?;
            }
            loop {
                let line = self.line(MAX_CHUNK_LINE).map_err(failed)?;
                let line = line.ok_or_else(|| Some(refuse(400, "Chunk size line too long.")))?;
                let text = String::from_utf8_lossy(&line);
                let size_text = text.split(';').next().unwrap_or("").trim();
                let size = usize::from_str_radix(size_text, 16)
                    .map_err(|_| Some(refuse(400, "Malformed chunk size.")))?;
                if size == 0 {
                    // Trailer fields, up to the empty line; ignored.
                    loop {
                        let trailer = self.line(MAX_CHUNK_LINE).map_err(failed)?;
                        match trailer {
                            Some(t) if t.is_empty() => return Ok(body),
                            Some(_) => {}
                            None => return Err(Some(refuse(400, "Trailer field too long."))),
                        }
                    }
                }
                if body.len().saturating_add(size) > MAX_BODY_BYTES {
                    return Err(too_large());
                }
                self.take(size, &mut body).map_err(failed)?;
                match self.line(2) {
                    Ok(Some(end)) if end.is_empty() => {}
                    Ok(_) => return Err(Some(refuse(400, "Malformed chunk."))),
                    Err(err) => return Err(failed(err)),
                }
            }
        }
        let Some(first) = lengths.first() else {
            return Ok(body);
        };
        if lengths.iter().any(|l| l != first)
            || first.is_empty()
            || !first.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(Some(refuse(400, "Malformed Content-Length.")));
        }
        // All digits: the only failure left is overflow, which is too large.
        let length = first.parse::<usize>().unwrap_or(usize::MAX);
        if length > MAX_BODY_BYTES {
            return Err(too_large());
        }
        if expects_continue && length > 0 {
            on_continue().map_err(|_| None)?;
        }
        self.take(length, &mut body).map_err(failed)?;
        Ok(body)
    }
}

/// The lower-cased, comma-separated tokens of every field named `name`.
fn header_tokens(headers: &[(String, String)], name: &str) -> Vec<String> {
    headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case(name))
        .flat_map(|(_, v)| v.split(','))
        .map(|t| t.trim().to_ascii_lowercase())
        .filter(|t| !t.is_empty())
        .collect()
}

/// The path of a request target: origin form `/mcp?x` or absolute form
/// `http://host/mcp`, without query or fragment.
fn target_path(target: &str) -> &str {
    let rest = target
        .strip_prefix("http://")
        .or_else(|| target.strip_prefix("https://"))
        .map(|after| after.find('/').map_or("/", |i| &after[i..]))
        .unwrap_or(target);
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    &rest[..end]
}

/// Serves the requests of one connection until it closes.
fn connection(stream: TcpStream, jobs: &mpsc::Sender<Job>, start: Instant) {
    let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
    let _ = stream.set_nodelay(true);
    let writer = match stream.try_clone() {
        Ok(writer) => writer,
        Err(_) => return,
    };
    let mut conn = Conn {
        stream,
        buf: Vec::new(),
    };
    loop {
        let incoming = conn.read_request(|| {
            (&writer)
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .and_then(|()| (&writer).flush())
        });
        let request = match incoming {
            ReadOutcome::Request(request) => request,
            ReadOutcome::Closed => return,
            ReadOutcome::Refused(refusal, summary) => {
                let summary = if summary.is_empty() {
                    "request".to_string()
                } else {
                    summary
                };
                log::line(
                    log::millis_since(start),
                    &format!("{summary} -> {}: {}", refusal.status, refusal.text),
                );
                if write_text(&writer, "", refusal.status, &refusal.text, true).is_ok() {
                    linger(&writer);
                }
                return;
            }
        };
        let close = !request.keep_alive;
        let written = match respond(request, jobs, start) {
            (method, Reply::Core(response)) => write_response(
                &writer,
                &method,
                response.status,
                &response.headers,
                response.body.as_bytes(),
                close,
            ),
            (method, Reply::Text(status, text)) => {
                write_text(&writer, &method, status, &text, close)
            }
        };
        if written.is_err() || close {
            return;
        }
    }
}

/// Closes after an early answer without resetting the connection: stop
/// sending, then drain what the client still sends for a short while, so
/// its unread bytes do not turn the close into a reset that can discard the
/// answer before the client reads it (a "lingering close").
fn linger(mut stream: &TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut sink = [0u8; 16 * 1024];
    while Instant::now() < deadline {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

/// What to send back for one complete request.
enum Reply {
    /// The core's response.
    Core(HttpResponse),
    /// A plain-text answer decided here.
    Text(u16, String),
}

/// Routes one complete request: other paths get 404, bodies that are not
/// UTF-8 get -32700, everything else goes to the server thread.
fn respond(request: Incoming, jobs: &mpsc::Sender<Job>, start: Instant) -> (String, Reply) {
    let Incoming {
        method,
        target,
        headers,
        body,
        ..
    } = request;
    let path = target_path(&target).to_string();
    let now = log::millis_since(start);
    if path != ENDPOINT {
        log::line(
            now,
            &format!("{method} {target} -> 404: not the MCP endpoint ({ENDPOINT})"),
        );
        return (
            method,
            Reply::Text(404, format!("Not Found: the MCP endpoint is {ENDPOINT}.")),
        );
    }
    let body = match String::from_utf8(body) {
        Ok(body) => body,
        Err(err) => {
            let reply = edge::not_utf8(&err.utf8_error());
            log::line(
                now,
                &format!(
                    "{method} {path} {} bytes of invalid UTF-8 -> 400 {}{}: {}",
                    err.as_bytes().len(),
                    log::label(&reply.message),
                    log::rules(&reply.rules),
                    reply.note
                ),
            );
            let response = HttpResponse::json(400, reply.message.to_string());
            return (method, Reply::Core(response));
        }
    };
    let (reply, answer) = mpsc::channel();
    let job = Job {
        request: HttpRequest {
            method: method.clone(),
            path,
            headers,
            body,
        },
        reply,
    };
    let response = match jobs.send(job) {
        Ok(()) => answer.recv().unwrap_or_else(|_| internal_error()),
        Err(_) => internal_error(),
    };
    (method, Reply::Core(response))
}

/// The reason phrase of a status code.
fn reason(status: u16) -> &'static str {
    match core_http::reason(status) {
        "" => match status {
            431 => "Request Header Fields Too Large",
            501 => "Not Implemented",
            503 => "Service Unavailable",
            _ => "",
        },
        known => known,
    }
}

/// Writes a plain-text response.
fn write_text(
    writer: &TcpStream,
    method: &str,
    status: u16,
    text: &str,
    close: bool,
) -> io::Result<()> {
    let headers = [(
        "Content-Type".to_string(),
        "text/plain; charset=utf-8".to_string(),
    )];
    write_response(
        writer,
        method,
        status,
        &headers,
        format!("{text}\n").as_bytes(),
        close,
    )
}

/// Writes a response with a `Content-Length` (and `Connection: close` when
/// the connection ends after it). A HEAD request gets the headers only.
fn write_response(
    mut writer: &TcpStream,
    method: &str,
    status: u16,
    headers: &[(String, String)],
    body: &[u8],
    close: bool,
) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        let framing = ["content-length", "transfer-encoding", "connection"]
            .iter()
            .any(|f| name.eq_ignore_ascii_case(f));
        let unsafe_text = |s: &str| s.contains(['\r', '\n']);
        if framing || unsafe_text(name) || unsafe_text(value) {
            continue;
        }
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    if close {
        head.push_str("Connection: close\r\n");
    }
    head.push_str("\r\n");
    writer.write_all(head.as_bytes())?;
    if method != "HEAD" {
        writer.write_all(body)?;
    }
    writer.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(raw: &[u8]) -> ReadOutcome {
        let mut conn = Conn {
            stream: raw,
            buf: Vec::new(),
        };
        conn.read_request(|| Ok(()))
    }

    fn status(read: ReadOutcome) -> Option<u16> {
        match read {
            ReadOutcome::Refused(refusal, _) => Some(refusal.status),
            _ => None,
        }
    }

    #[test]
    fn reads_content_length_and_chunked_bodies() {
        let raw = b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}";
        assert!(matches!(read(raw), ReadOutcome::Request(r) if r.body == b"{}" && r.keep_alive));
        let raw = b"POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n1\r\n{\r\n1;x=y\r\n}\r\n0\r\nA: b\r\n\r\n";
        assert!(matches!(read(raw), ReadOutcome::Request(r) if r.body == b"{}" && !r.keep_alive));
        assert!(matches!(read(b""), ReadOutcome::Closed));
    }

    #[test]
    fn h_status_framing_problems_are_refused() {
        let huge = b"POST /mcp HTTP/1.1\r\nContent-Length: 999999999999999999999999\r\n\r\n";
        assert_eq!(status(read(huge)), Some(413));
        let big = format!(
            "POST /mcp HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY_BYTES + 1
        );
        assert_eq!(status(read(big.as_bytes())), Some(413));
        let chunked = b"POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFF\r\n";
        assert_eq!(status(read(chunked)), Some(413));
        let bad_size = b"POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n";
        assert_eq!(status(read(bad_size)), Some(400));
        let both = b"POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n";
        assert_eq!(status(read(both)), Some(400));
        let gzip = b"POST /mcp HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n";
        assert_eq!(status(read(gzip)), Some(501));
        let negative = b"POST /mcp HTTP/1.1\r\nContent-Length: -1\r\n\r\n";
        assert_eq!(status(read(negative)), Some(400));
        let differ = b"POST /mcp HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n";
        assert_eq!(status(read(differ)), Some(400));
        assert_eq!(status(read(b"NOT HTTP\r\n\r\n")), Some(400));
        let mut long = b"POST /mcp HTTP/1.1\r\nX: ".to_vec();
        long.extend(std::iter::repeat_n(b'a', MAX_HEAD_BYTES + 10));
        assert_eq!(status(read(&long)), Some(431));
    }

    #[test]
    fn target_paths() {
        assert_eq!(target_path("/mcp"), "/mcp");
        assert_eq!(target_path("/mcp?session=1"), "/mcp");
        assert_eq!(target_path("http://127.0.0.1:3000/mcp"), "/mcp");
        assert_eq!(target_path("http://127.0.0.1:3000"), "/");
        assert_eq!(target_path("/other#x"), "/other");
    }
}
