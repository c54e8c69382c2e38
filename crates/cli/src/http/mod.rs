//! `mcp-lanes serve --transport http`: the simulated server as a Streamable
//! HTTP endpoint at `http://127.0.0.1:N/mcp`, on loopback only.
//!
//! Layout: hyper (HTTP/1.1) on a tokio runtime with one worker thread per
//! core. The accepting task takes a connection slot before each accept, so
//! at most `--max-connections` connections are held and the rest wait in
//! the kernel's queue instead of being refused. Each connection is served
//! by hyper with the limits of [`limits`]; each request to `/mcp` is read
//! whole (bounded), turned into the core's `HttpRequest` by [`adapter`] and
//! handled by one of the [`pool`]'s server instances. The core decides every
//! status and body for `/mcp`; this module answers only framing problems
//! (other paths, oversized or slow bodies, bytes that are not UTF-8).
//! SIGINT or SIGTERM stops accepting, lets in-flight requests finish and
//! ends open streams, then exits.

pub mod adapter;
pub mod auth;
pub mod body;
pub mod fuzzing;
pub mod io;
pub mod limits;
pub mod pool;

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use mcp_lanes_core::server::{ServerConfig, ServerOutput};
use mcp_lanes_core::sim::served::{Due, ServedScript};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{events_first, HttpRequest, HttpResponse};
use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};

use crate::{edge, log, Failure};
use body::Body;
use pool::Pool;

/// The MCP endpoint path; every other path gets 404.
pub const ENDPOINT: &str = "/mcp";

/// What every connection task shares.
#[derive(Debug)]
pub struct Shared {
    pool: Pool,
    /// The scripted server events it plays (`serve --file`).
    script: std::sync::Mutex<ServedScript>,
    start: Instant,
    quiet: bool,
    large_bodies: Semaphore,
    keep_alive: std::time::Duration,
    /// The lab authorization set-up (`--auth`).
    lab: Option<std::sync::Mutex<mcp_lanes_core::auth::lab::Lab>>,
}

/// What the script does about one request.
#[derive(Default)]
struct Scripted {
    /// A reply armed for it, sent in the server's place.
    reply: Option<Response<Body>>,
    /// Notifications tied to its method, to go first on its response.
    tied: Vec<Value>,
}

impl Shared {
    /// The state for serving `config` with `instances` server instances,
    /// each signing requestState with `state_key`.
    pub fn new(
        config: &ServerConfig,
        instances: usize,
        state_key: &[u8],
        sessions: pool::Sessions,
        quiet: bool,
        mem: Option<u64>,
    ) -> Self {
        Self {
            pool: Pool::new(config, instances, state_key, sessions),
            script: std::sync::Mutex::new(ServedScript::default()),
            start: Instant::now(),
            quiet,
            large_bodies: Semaphore::new(limits::large_body_slots(mem)),
            keep_alive: body::KEEP_ALIVE,
            lab: None,
        }
    }

    /// Sets how long an open SSE stream stays silent before a keep-alive
    /// comment (`--keep-alive`).
    pub fn with_keep_alive(mut self, every: std::time::Duration) -> Self {
        self.keep_alive = every;
        self
    }

    /// Protects `/mcp` with `lab` (`serve --auth`); a policy reads its
    /// caller from the lab's tokens.
    pub fn with_lab(self, lab: std::sync::Mutex<mcp_lanes_core::auth::lab::Lab>) -> Self {
        self.pool
            .trust_tokens_of(lab.lock().unwrap_or_else(|p| p.into_inner()).protected());
        Self {
            lab: Some(lab),
            ..self
        }
    }

    /// Plays `script` (a scenario file's scripted server events).
    pub fn with_script(self, script: ServedScript) -> Self {
        Self {
            script: std::sync::Mutex::new(script),
            ..self
        }
    }

    fn now(&self) -> u64 {
        log::millis_since(self.start)
    }

    /// The script's part in a request arriving at `now`: its list changes
    /// due are applied on every instance; a reply armed for this request
    /// answers in the server's place (the server never sees it).
    /// Notifications tied to the request's method, due at once, are
    /// returned to travel first on its own response (H-SSE-RESPONSE), as
    /// in the simulator. A timed notification, or a tied one whose response
    /// cannot carry it, goes on every session's or listen stream's stream,
    /// or is logged when there is none.
    fn scripted(&self, now: u64, request: &HttpRequest) -> Scripted {
        let mut script = self.script.lock().unwrap_or_else(|p| p.into_inner());
        if script.is_empty() {
            return Scripted::default();
        }
        let at = SimTime::from_millis(now);
        let mut notices = Vec::new();
        for due in script.due(at) {
            match due {
                Due::Notify(message) => notices.push(message),
                Due::Trigger(change) => {
                    let outputs = self.pool.trigger_all(now, &change);
                    if !self.quiet {
                        log_outputs(now, &outputs);
                    }
                }
            }
        }
        let (tied, replaced) = script.request(at, &request.body);
        drop(script);
        self.notify_all(now, notices);
        let Some(replaced) = replaced else {
            return Scripted { reply: None, tied };
        };
        self.log(
            now,
            &format!(
                "{} {} -> {} scripted reply, wrong on purpose: {}",
                request.method, request.path, replaced.status, replaced.violation
            ),
        );
        let mut reply = HttpResponse::json(replaced.status, replaced.text);
        self.tied_first(now, &mut reply, tied);
        Scripted {
            reply: Some(adapter::from_core(reply)),
            tied: Vec::new(),
        }
    }

    /// Sends scripted notifications on every session's or listen stream's
    /// stream, logging one that has none to travel on.
    fn notify_all(&self, now: u64, messages: Vec<Value>) {
        for message in messages {
            let outputs = self.pool.notify_all(now, &message);
            if outputs.is_empty() {
                self.log(
                    now,
                    &format!(
                        "scripted: {} not sent: no session or listen stream to carry it",
                        log::label(&message)
                    ),
                );
            } else if !self.quiet {
                log_outputs(now, &outputs);
            }
        }
    }

    /// Puts the notifications tied to a request first on its response; a
    /// response with no stream to carry them (an error status, a 202) lets
    /// them go as timed ones do.
    fn tied_first(&self, now: u64, response: &mut HttpResponse, tied: Vec<Value>) {
        if tied.is_empty() {
            return;
        }
        let texts: Vec<String> = tied.iter().map(Value::to_string).collect();
        if events_first(response, &texts) {
            for message in &tied {
                self.log(
                    now,
                    &format!(
                        "scripted: {} sent first on the response",
                        log::label(message)
                    ),
                );
            }
        } else {
            self.notify_all(now, tied);
        }
    }

    /// A request log line (left out with `--quiet`).
    fn log(&self, now: u64, text: &str) {
        if !self.quiet {
            log::line(now, text);
        }
    }
}

/// Settings of `serve --transport http`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpOptions {
    /// The port to bind (0 = any free port).
    pub port: u16,
    /// Connections held at once (`None`: derived from memory and the
    /// open-file limit).
    pub max_connections: Option<usize>,
    /// Worker threads (`None`: one per available core).
    pub threads: Option<usize>,
    /// Seconds a legacy session may stay idle before it expires.
    pub session_idle_secs: u64,
    /// Legacy sessions kept at once.
    pub max_sessions: usize,
    /// Seconds an open SSE stream may stay silent before a keep-alive
    /// comment.
    pub keep_alive_secs: u64,
    /// Log start, shutdown and failures only.
    pub quiet: bool,
    /// Protect `/mcp` with the lab authorization server (`--auth`).
    pub auth: bool,
}

/// Default of `--session-idle`: 30 minutes.
pub const DEFAULT_SESSION_IDLE_SECS: u64 = 1800;
/// Default of `--max-sessions`.
pub const DEFAULT_MAX_SESSIONS: usize = 10_000;
/// Default of `--keep-alive`.
pub const DEFAULT_KEEP_ALIVE_SECS: u64 = 15;

impl HttpOptions {
    /// The defaults for `port`.
    pub fn on_port(port: u16) -> Self {
        Self {
            port,
            max_connections: None,
            threads: None,
            session_idle_secs: DEFAULT_SESSION_IDLE_SECS,
            max_sessions: DEFAULT_MAX_SESSIONS,
            keep_alive_secs: DEFAULT_KEEP_ALIVE_SECS,
            quiet: false,
            auth: false,
        }
    }
}

/// Serves `config` on `127.0.0.1:options.port` (0 = any free port) until
/// SIGINT or SIGTERM.
pub fn serve(
    config: ServerConfig,
    script: ServedScript,
    options: &HttpOptions,
) -> Result<(), Failure> {
    // One requestState key for every instance (M-MRTR-STATE): a state one
    // instance signed verifies on any other.
    let key = crate::state_key::random()?;
    let threads = options.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .map_err(|err| Failure::Io(format!("cannot start the runtime: {err}")))?;
    let mem = limits::mem_total();
    let max_connections = options
        .max_connections
        .unwrap_or_else(|| limits::default_max_connections(mem, limits::open_files()));
    if !pool::generator_works() {
        return Err(Failure::Io(
            "the operating system's random generator is not available: no session ids can be drawn"
                .into(),
        ));
    }
    let sessions = pool::Sessions {
        idle_ms: options.session_idle_secs.saturating_mul(1000),
        max: options.max_sessions,
    };
    let shared = Shared::new(&config, threads, &key, sessions, options.quiet, mem)
        .with_keep_alive(std::time::Duration::from_secs(options.keep_alive_secs))
        .with_script(script);
    let label = config.label();
    runtime.block_on(async move {
        // Loopback only, never 0.0.0.0: a simulator is no public server.
        let listener = TcpListener::bind(("127.0.0.1", options.port))
            .await
            .map_err(|err| {
                Failure::Io(format!("cannot listen on 127.0.0.1:{}: {err}", options.port))
            })?;
        let port = listener
            .local_addr()
            .map_err(|err| Failure::Io(format!("cannot read the bound address: {err}")))?
            .port();
        let shared = Arc::new(if options.auth {
            shared.with_lab(auth::lab(port)?)
        } else {
            shared
        });
        log::line(0, &format!("serving {label} on Streamable HTTP"));
        log::line(
            0,
            &format!(
                "{threads} worker thread(s), {} server instance(s), at most {max_connections} connections",
                shared.pool.len()
            ),
        );
        if config.era.speaks_legacy() {
            log::line(
                0,
                &format!(
                    "legacy sessions: random ids, expire after {} s unused, at most {} (the one idle longest goes first)",
                    options.session_idle_secs, options.max_sessions
                ),
            );
        }
        if let Some(lab) = &shared.lab {
            auth::announce(lab);
        }
        log::line(0, &format!("listening on http://127.0.0.1:{port}{ENDPOINT}"));
        let sweeper = tokio::spawn(sweep(Arc::clone(&shared), options.session_idle_secs));
        accept_until_signal(listener, shared, max_connections).await;
        sweeper.abort();
        Ok(())
    })
}

/// Resolves on SIGINT or SIGTERM (or never, if neither can be watched).
/// `serve` and `bridge` stop on it.
pub(crate) async fn stop_signal() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = int.recv() => "SIGINT",
        _ = term.recv() => "SIGTERM",
    }
}

/// Accepts connections (each needing a slot) until a stop signal, then
/// shuts down gracefully.
async fn accept_until_signal(listener: TcpListener, shared: Arc<Shared>, max_connections: usize) {
    let slots = Arc::new(Semaphore::new(max_connections));
    let (stop_tx, stop_rx) = watch::channel(false);
    let signal = stop_signal();
    tokio::pin!(signal);
    loop {
        let slot = tokio::select! {
            name = &mut signal => {
                log::line(shared.now(), &format!("{name}: no new connections; finishing in-flight requests"));
                break;
            }
            slot = Arc::clone(&slots).acquire_owned() => slot,
        };
        let Ok(slot) = slot else { break };
        let accepted = tokio::select! {
            name = &mut signal => {
                log::line(shared.now(), &format!("{name}: no new connections; finishing in-flight requests"));
                break;
            }
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(err) => {
                log::line(shared.now(), &format!("accept failed: {err}"));
                // E.g. out of file descriptors: back off instead of spinning.
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        let shared = Arc::clone(&shared);
        let stop = stop_rx.clone();
        tokio::spawn(async move {
            connection(stream, shared, stop).await;
            drop(slot);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    // Open SSE streams end now (cleanly: the chunked body is finished), so
    // their connections can close; a client resumes them elsewhere.
    let open = shared.pool.open_streams();
    if open > 0 {
        log::line(shared.now(), &format!("ending {open} open SSE stream(s)"));
    }
    shared.pool.close_streams();
    // Every connection holds a slot until it is done: wait for all of them.
    let all = u32::try_from(max_connections).unwrap_or(u32::MAX);
    let drained = tokio::time::timeout(limits::SHUTDOWN_GRACE, slots.acquire_many(all)).await;
    let text = match drained {
        Ok(_) => "every connection closed; stopped".to_string(),
        Err(_) => format!(
            "stopped after {} s with connections still open",
            limits::SHUTDOWN_GRACE.as_secs()
        ),
    };
    log::line(shared.now(), &text);
}

/// Serves one connection until it closes, or until shutdown has let its
/// in-flight request finish; then closes it without a reset.
async fn connection(stream: TcpStream, shared: Arc<Shared>, stop: watch::Receiver<bool>) {
    let _ = stream.set_nodelay(true);
    let stream = serve_io(stream, shared, stop).await;
    io::linger(stream).await;
}

/// The HTTP/1.1 settings of every connection (see [`limits`]).
pub(crate) fn http1() -> hyper::server::conn::http1::Builder {
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits::HEADER_TIMEOUT)
        .max_headers(limits::MAX_HEADERS)
        .max_header_size(limits::MAX_HEAD_BYTES)
        .half_close(true)
        .title_case_headers(true)
        .auto_date_header(false);
    builder
}

/// Serves HTTP/1.1 on `stream` until the connection is done (closed by
/// either side, failed, or shut down after `stop`), and hands the stream
/// back.
async fn serve_io<S>(stream: S, shared: Arc<Shared>, mut stop: watch::Receiver<bool>) -> S
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let io = TokioIo::new(io::Guarded::new(stream, limits::WRITE_STALL));
    let service = {
        let shared = Arc::clone(&shared);
        service_fn(move |request| Box::pin(respond(Arc::clone(&shared), request)))
    };
    let mut conn = http1().serve_connection(io, service);
    let done = tokio::select! {
        done = std::future::poll_fn(|cx| conn.poll_without_shutdown(cx)) => done,
        () = stopped(&mut stop) => {
            std::pin::Pin::new(&mut conn).graceful_shutdown();
            std::future::poll_fn(|cx| conn.poll_without_shutdown(cx)).await
        }
    };
    let _ = done;
    conn.into_parts().io.into_inner().into_inner()
}

/// Every few seconds, ends the legacy sessions idle past the limit
/// (L-SESSION-IDLE) and drops streams that are no longer open.
async fn sweep(shared: Arc<Shared>, idle_secs: u64) {
    let every = std::time::Duration::from_secs(idle_secs.clamp(1, 10));
    loop {
        tokio::time::sleep(every).await;
        let now = shared.now();
        let outputs = shared.pool.expire(now);
        if !shared.quiet {
            log_outputs(now, &outputs);
        }
    }
}

/// Resolves once shutdown has begun (never, if its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|stopped| *stopped).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// A plain-text response decided here (framing problems).
fn text(status: u16, text: &str, close: bool) -> Response<Body> {
    let headers = [(
        "Content-Type".to_string(),
        "text/plain; charset=utf-8".to_string(),
    )];
    let mut response = adapter::response(status, &headers, Body::full(format!("{text}\n")));
    if close {
        response.headers_mut().append(
            http::header::CONNECTION,
            http::HeaderValue::from_static("close"),
        );
    }
    response
}

/// The 500 sent when the simulated server failed on a request.
fn internal_error() -> Response<Body> {
    adapter::from_core(HttpResponse::json(
        500,
        edge::internal_error().message.to_string(),
    ))
}

/// The declared `Content-Length`, if there is one that parses.
fn declared_length(request: &Request<Incoming>) -> Option<u64> {
    request
        .headers()
        .get(http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// Routes one request: other paths get 404, bodies that are too large get
/// 413, too slow 408, not UTF-8 -32700; everything else goes to the core.
async fn respond(
    shared: Arc<Shared>,
    request: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let now = shared.now();
    let method = request.method().as_str().to_string();
    let target = request.uri().to_string();
    if let Some(lab) = &shared.lab {
        if mcp_lanes_core::auth::lab::Lab::owns(request.uri().path()) {
            return Ok(auth::answer(&shared, lab, request).await);
        }
    }
    if request.uri().path() != ENDPOINT {
        shared.log(
            now,
            &format!("{method} {target} -> 404: not the MCP endpoint ({ENDPOINT})"),
        );
        return Ok(text(
            404,
            &format!("Not Found: the MCP endpoint is {ENDPOINT}."),
            false,
        ));
    }
    let too_large = || {
        let why = format!(
            "Request body too large: this server accepts at most {} bytes.",
            limits::MAX_BODY_BYTES
        );
        shared.log(now, &format!("{method} {target} -> 413: {why}"));
        text(413, &why, true)
    };
    let declared = declared_length(&request);
    if declared.is_some_and(|n| n > limits::MAX_BODY_BYTES as u64) {
        return Ok(too_large());
    }
    // A body that may be large needs a large-body slot (bounded memory).
    let _slot = if declared.is_none_or(|n| n > limits::SMALL_BODY_BYTES as u64) {
        shared.large_bodies.acquire().await.ok()
    } else {
        None
    };
    let (parts, body) = request.into_parts();
    let limited = Limited::new(body, limits::MAX_BODY_BYTES).collect();
    let bytes: Bytes = match tokio::time::timeout(limits::BODY_TIMEOUT, limited).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(err)) if err.downcast_ref::<LengthLimitError>().is_some() => return Ok(too_large()),
        Ok(Err(_)) => {
            shared.log(
                now,
                &format!("{method} {target} -> 400: Incomplete request body."),
            );
            return Ok(text(400, "Incomplete request body.", true));
        }
        Err(_) => {
            let why = format!(
                "Request body not received within {} s.",
                limits::BODY_TIMEOUT.as_secs()
            );
            shared.log(now, &format!("{method} {target} -> 408: {why}"));
            return Ok(text(408, &why, true));
        }
    };
    let request = match adapter::to_core(&parts, bytes) {
        Ok(request) => request,
        Err(bad) => {
            let reply = edge::not_utf8(&bad.error);
            shared.log(
                now,
                &format!(
                    "{method} {} {} bytes of invalid UTF-8 -> 400 {}{}: {}",
                    parts.uri.path(),
                    bad.len,
                    log::label(&reply.message),
                    log::rules(&reply.rules),
                    reply.note
                ),
            );
            return Ok(adapter::from_core(HttpResponse::json(
                400,
                reply.message.to_string(),
            )));
        }
    };
    let input = if request.body.is_empty() {
        String::from("no body")
    } else if shared.quiet {
        String::new()
    } else {
        log::label_text(&request.body)
    };
    if let Some(lab) = &shared.lab {
        if let Some(refused) = auth::guard(&shared, lab, now, &request) {
            return Ok(refused);
        }
    }
    let scripted = shared.scripted(now, &request);
    if let Some(reply) = scripted.reply {
        return Ok(reply);
    }
    let outcome = match shared.pool.handle(now, &request) {
        Ok(outcome) => outcome,
        Err(pool::Panicked) => {
            log::line(
                now,
                &format!(
                    "{} {} {input} -> 500: the simulated server failed (a bug); it keeps serving",
                    request.method, request.path
                ),
            );
            return Ok(internal_error());
        }
    };
    let pool::Outcome {
        mut handled,
        outputs,
        stream,
    } = outcome;
    shared.tied_first(now, &mut handled.response, scripted.tied);
    if !shared.quiet {
        let output = match serde_json::from_str::<Value>(&handled.response.body) {
            Ok(value) => format!(" {}", log::label(&value)),
            Err(_) => String::new(),
        };
        log::line(
            now,
            &format!(
                "{} {} {input} -> {}{output}{}: {}",
                request.method,
                request.path,
                handled.response.status,
                log::rules(&handled.rules),
                handled.note.text()
            ),
        );
        log_outputs(now, &outputs);
    }
    let response = match stream {
        // H-SSE-STREAM, M-LISTEN-ACK: the body so far, then whatever the
        // stream gets, until the server sends its last event or the client
        // goes away (chunked, no length).
        Some(open) => {
            let first = handled.response.body;
            let first = (!first.is_empty()).then(|| Bytes::from(first));
            let (gone, gone_rx) = tokio::sync::oneshot::channel();
            tokio::spawn(watch_stream(
                Arc::clone(&shared),
                open.shard,
                open.key,
                gone_rx,
            ));
            adapter::response(
                handled.response.status,
                &handled.response.headers,
                Body::Stream(body::Stream::new(first, open.rest, gone, shared.keep_alive)),
            )
        }
        None => adapter::from_core(handled.response),
    };
    Ok(response)
}

/// Waits until the response body of stream `key` is dropped (its last
/// event went out, or its client went away), then tells the instance that
/// holds it, so a listen subscription whose client left ends.
async fn watch_stream(
    shared: Arc<Shared>,
    shard: usize,
    key: String,
    gone: tokio::sync::oneshot::Receiver<()>,
) {
    let _ = gone.await;
    let now = shared.now();
    let outputs = shared.pool.stream_closed(now, shard, &key);
    if !shared.quiet {
        log_outputs(now, &outputs);
    }
}

/// Logs what the server did besides its reply.
fn log_outputs(now: u64, outputs: &[(ServerOutput, pool::Fate)]) {
    for (out, fate) in outputs {
        let fate = match fate {
            pool::Fate::NotSent => String::new(),
            pool::Fate::OnStream { id: Some(id), .. } => {
                format!("sent on its SSE stream as event {id}")
            }
            pool::Fate::OnStream { stream, id: None } => format!("sent on SSE stream {stream}"),
            pool::Fate::Lost(stream) => format!(
                "not sent: the client of {stream} is gone or too far behind, so that subscription ends"
            ),
            pool::Fate::Kept(id) => format!(
                "kept as event {id}: its stream's client is gone, it gets it by resuming with Last-Event-ID"
            ),
            pool::Fate::Undeliverable => "not sent: no open SSE stream carries it (a GET stream would)".into(),
        };
        log::output(now, out, &fate);
    }
}
