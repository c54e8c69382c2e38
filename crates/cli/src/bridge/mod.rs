//! `mcp-lanes bridge --cmd "COMMAND" --port N [--allow-origin ORIGIN]
//! [--timeout MS]`: a stdio MCP server as a Streamable HTTP endpoint at
//! `http://127.0.0.1:N/mcp`, so the page (which can only `fetch`) can check
//! it.
//!
//! - The command is fixed on the bridge's own command line and started
//!   once, without a shell ([`StdioWire`], the `client` driver's child):
//!   nothing a page sends chooses what runs.
//! - Loopback only; `Host` and `Origin` are checked against DNS rebinding,
//!   and CORS names the one origin allowed ([`guard`]).
//! - Every POST body is one line on the child's stdin. A request waits for
//!   the answer with its id: sent as `application/json` when it is the
//!   first thing the server writes for it, else as an SSE stream (the
//!   server's own messages first, the answer last) when the request
//!   accepts one ([`child`] routes). Notifications and answers get 202.
//! - Deadlines: a request that gets nothing for `--timeout` gets 504 (or
//!   its stream ends); bodies and lines are bounded; when the child exits,
//!   the log and every answer (502) say how.
//!
//! The bridge decides nothing about MCP: it moves bytes. The one thing the
//! HTTP binding adds that a stdio server cannot, the status of a modern
//! request's error reply (H-STATUS), comes from the core
//! (`transport::http::modern_reply_status`). Checks of HTTP headers
//! (`Mcp-Method` against the body, …) grade the bridge through to a server
//! that never sees the headers.

pub mod child;
pub mod guard;

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http::{Method, Request, Response};
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::driver::stdio::StdioWire;
use crate::driver::{Limits, OpenError};
use crate::http::body::{self, Body};
use crate::http::{adapter, limits};
use crate::{log, Failure};
use child::{Busy, Delivery, Link};
use guard::Policy;
use mcp_lanes_core::transport::http::modern_reply_status_for as http_status;

/// The endpoint path, as `serve` has it.
pub use crate::http::ENDPOINT;

/// Default of `--timeout`: how long a request may get nothing from the
/// server.
pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;

/// What `bridge` was asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BridgeArgs {
    /// The server's program and arguments (`--cmd`, split without a shell).
    pub command: Vec<String>,
    /// The port (`--port`, 0 = any free port, printed on stderr).
    pub port: u16,
    /// The page's origin (`--allow-origin`), normalized.
    pub allow_origin: Option<String>,
    /// How long a request may get nothing from the server (`--timeout`).
    pub timeout_ms: u64,
}

/// What every request shares.
struct Shared {
    policy: Policy,
    link: Link,
    timeout: Duration,
}

/// Starts the command and serves it until SIGINT or SIGTERM.
pub fn bridge(args: &BridgeArgs) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(run(args))
}

async fn run(args: &BridgeArgs) -> Result<(), Failure> {
    let listener = TcpListener::bind(("127.0.0.1", args.port))
        .await
        .map_err(|e| Failure::Io(format!("cannot listen on 127.0.0.1:{}: {e}", args.port)))?;
    let port = listener
        .local_addr()
        .map_err(|e| Failure::Io(format!("cannot read the bound address: {e}")))?
        .port();
    let timeout = Duration::from_millis(args.timeout_ms.max(1));
    let limits = Limits {
        exchange: timeout,
        ..Limits::default()
    };
    let wire = StdioWire::spawn(&args.command, limits).map_err(|e| match e {
        // The bridge has no --lang: English.
        OpenError::Usage(msg) => Failure::Usage(msg.to_string()),
        OpenError::Unreachable(msg) => Failure::Usage(msg),
    })?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let link = child::start(wire, stop_rx);
    let shared = Arc::new(Shared {
        policy: Policy {
            port,
            origin: args.allow_origin.clone(),
        },
        link,
        timeout,
    });
    log::line(
        0,
        &format!("bridging the stdio server `{}`", args.command.join(" ")),
    );
    match &args.allow_origin {
        Some(origin) => log::line(0, &format!("the page at {origin} may use it (CORS)")),
        None => log::line(
            0,
            "no page may use it from a browser (--allow-origin ORIGIN to allow one)",
        ),
    }
    log::line(
        0,
        &format!("listening on http://127.0.0.1:{port}{ENDPOINT}"),
    );
    let signal = crate::http::stop_signal();
    tokio::pin!(signal);
    loop {
        let accepted = tokio::select! {
            name = &mut signal => {
                log::line(shared.link.now(), &format!("{name}: stopping the server and the bridge"));
                break;
            }
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                log::line(shared.link.now(), &format!("accept failed: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let _ = stream.set_nodelay(true);
            let service =
                service_fn(move |request| Box::pin(respond(Arc::clone(&shared), request)));
            let _ = crate::http::http1()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
    let _ = stop_tx.send(true);
    // A moment for the child to end (end of input, then killed).
    tokio::time::sleep(Duration::from_millis(1200)).await;
    Ok(())
}

/// A header's value as text.
fn header<'a>(request: &'a Request<Incoming>, name: &str) -> Option<&'a str> {
    request.headers().get(name).and_then(|v| v.to_str().ok())
}

/// A plain-text answer with the CORS headers.
fn text(status: u16, cors: &[(String, String)], text: &str) -> Response<Body> {
    let mut headers = cors.to_vec();
    headers.push(("Content-Type".into(), "text/plain; charset=utf-8".into()));
    adapter::response(status, &headers, Body::full(format!("{text}\n")))
}

/// What the bridge does with one POST body.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    /// A request: wait for the answer with this id (JSON text).
    Request(String),
    /// A notification, an answer or a batch: 202 once written.
    Accepted,
}

/// Whether a request body is a modern request (its `_meta` names a
/// protocol version): its error replies then get the status of the modern
/// HTTP binding (H-STATUS), which a stdio server cannot choose.
fn is_modern(body: Option<&Value>, headers: &[(String, String)]) -> bool {
    use mcp_lanes_core::protocol::{methods, version::Era, ProtocolVersion};
    use mcp_lanes_core::transport::http as core_http;
    let Some(v) = body else {
        return false;
    };
    if v.get("method").and_then(Value::as_str) == Some(methods::INITIALIZE) {
        return false;
    }
    let by_meta = v
        .get("params")
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(mcp_lanes_core::protocol::meta::PROTOCOL_VERSION))
        .is_some();
    let by_header = core_http::header(headers, core_http::PROTOCOL_VERSION_HEADER)
        .is_some_and(|h| ProtocolVersion::era_of(h.trim()) == Era::Modern);
    by_meta || by_header
}

/// The -32020 answer the bridge gives itself to a modern request whose
/// headers contradict its body (H-HEADERS): the stdio server behind it
/// never sees the headers, so the HTTP binding checks them here.
fn header_refusal(body: &Value, headers: &[(String, String)]) -> Option<String> {
    use mcp_lanes_core::protocol::jsonrpc::ErrorCode;
    let id = body.get("id")?;
    body.get("method")?;
    let found = mcp_lanes_core::transport::http::header_mismatch(headers, body)?;
    let message = match (found.header, found.body) {
        (Some(h), Some(b)) => format!(
            "Header mismatch: {} header value '{h}' does not match body value '{b}'",
            found.name
        ),
        (None, _) => format!("Header mismatch: required header {} is missing", found.name),
        (Some(h), None) => format!(
            "Header mismatch: {} header value '{h}' names nothing in the body",
            found.name
        ),
    };
    let reply = serde_json::json!({"jsonrpc": "2.0", "id": id,
        "error": {"code": ErrorCode::HEADER_MISMATCH.0, "message": message}});
    Some(reply.to_string())
}

/// Classifies a body. A body that is not a JSON object (or not JSON) waits
/// for the server's error, which carries `id: null`.
fn classify(body: &str) -> Kind {
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(m)) => match (m.contains_key("method"), m.get("id")) {
            (true, Some(id)) => Kind::Request(id.to_string()),
            _ => Kind::Accepted,
        },
        Ok(Value::Array(_)) => Kind::Accepted,
        _ => Kind::Request("null".into()),
    }
}

/// Answers one request: Host and Origin first (403), then the path (404),
/// the preflight, and POST to the child; other methods get 405.
async fn respond(
    shared: Arc<Shared>,
    request: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let now = shared.link.now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let origin = header(&request, "origin").map(str::to_string);
    if let Err(refusal) = shared
        .policy
        .admit(header(&request, "host"), origin.as_deref())
    {
        let why = refusal.explain();
        log::line(now, &format!("{method} {path} -> 403: {why}"));
        return Ok(text(403, &[], &why));
    }
    let cors = shared.policy.cors_headers(origin.as_deref());
    if path != ENDPOINT {
        log::line(now, &format!("{method} {path} -> 404"));
        return Ok(text(
            404,
            &cors,
            &format!("Not Found: the MCP endpoint is {ENDPOINT}."),
        ));
    }
    if method == Method::OPTIONS {
        let headers = shared.policy.preflight_headers(
            origin.as_deref(),
            header(&request, "access-control-request-headers"),
        );
        log::line(now, &format!("OPTIONS {path} -> 204 (preflight)"));
        return Ok(adapter::response(204, &headers, Body::full(Bytes::new())));
    }
    if method != Method::POST {
        log::line(now, &format!("{method} {path} -> 405"));
        let mut response = text(
            405,
            &cors,
            "Method Not Allowed: the bridge carries POST only (no GET stream, no session to DELETE).",
        );
        response.headers_mut().insert(
            http::header::ALLOW,
            http::HeaderValue::from_static("POST, OPTIONS"),
        );
        return Ok(response);
    }
    let streams = header(&request, "accept").is_some_and(|a| a.contains("text/event-stream"));
    let request_headers: Vec<(String, String)> = request
        .headers()
        .iter()
        .filter_map(|(k, v)| Some((k.as_str().to_string(), v.to_str().ok()?.to_string())))
        .collect();
    let limited = Limited::new(request.into_body(), limits::MAX_BODY_BYTES).collect();
    let bytes = match tokio::time::timeout(limits::BODY_TIMEOUT, limited).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(_)) => {
            let why = format!(
                "Request body too large or incomplete: the bridge accepts at most {} bytes.",
                limits::MAX_BODY_BYTES
            );
            log::line(now, &format!("POST {path} -> 413: {why}"));
            return Ok(text(413, &cors, &why));
        }
        Err(_) => {
            log::line(now, &format!("POST {path} -> 408"));
            return Ok(text(408, &cors, "Request body not received in time."));
        }
    };
    let Ok(body) = String::from_utf8(Vec::from(bytes)) else {
        log::line(now, &format!("POST {path} -> 400: not UTF-8"));
        return Ok(text(400, &cors, "Bad Request: the body is not UTF-8."));
    };
    // One message, one line: JSON needs no raw line breaks.
    let line = body.replace(['\n', '\r'], " ");
    let label = log::label_text(&body);
    let kind = classify(&body);
    let parsed = serde_json::from_str::<Value>(&body).ok();
    let modern = is_modern(parsed.as_ref(), &request_headers);
    if let (true, Some(request)) = (modern, parsed.as_ref()) {
        if let Some(reply) = header_refusal(request, &request_headers) {
            log::line(
                now,
                &format!("POST {label} -> 400 -32020 (headers against the body)"),
            );
            let mut headers = cors.clone();
            headers.push(("Content-Type".into(), "application/json".into()));
            return Ok(adapter::response(400, &headers, Body::full(reply)));
        }
    }
    let waiting = match &kind {
        Kind::Request(key) => match shared.link.register(key.clone(), streams) {
            Ok(waiting) => Some(waiting),
            Err(Busy::SameId(key)) => {
                log::line(
                    now,
                    &format!("POST {label} -> 409: id {key} already in flight"),
                );
                return Ok(text(
                    409,
                    &cors,
                    &format!(
                        "Conflict: a request with id {key} is already waiting for its answer."
                    ),
                ));
            }
            Err(Busy::Exited(why)) => return Ok(gone(&cors, &label, now, &why)),
        },
        Kind::Accepted => None,
    };
    if let Err(why) = shared.link.write(line).await {
        return Ok(gone(&cors, &label, now, &why));
    }
    let Some(mut waiting) = waiting else {
        log::line(now, &format!("POST {label} -> 202"));
        return Ok(adapter::response(202, &cors, Body::full(Bytes::new())));
    };
    let first = tokio::time::timeout(shared.timeout, waiting.rx.recv()).await;
    let ms = shared.timeout.as_millis();
    match first {
        Err(_) => {
            let why = format!(
                "Gateway Timeout: the server wrote nothing for this request within {ms} ms."
            );
            log::line(shared.link.now(), &format!("POST {label} -> 504: {why}"));
            Ok(text(504, &cors, &why))
        }
        Ok(None) => Ok(gone(&cors, &label, now, "the bridge stopped waiting")),
        Ok(Some(Delivery::Failed(why))) => Ok(gone(&cors, &label, now, &why)),
        Ok(Some(Delivery::Answer(answer))) => {
            // H-STATUS: the status the modern binding gives the reply.
            let status = match (serde_json::from_str::<Value>(&answer), parsed.as_ref()) {
                (Ok(reply), Some(request)) if modern => http_status(request, &reply),
                _ => 200,
            };
            log::line(
                shared.link.now(),
                &format!("POST {label} -> {status} {}", log::label_text(&answer)),
            );
            let mut headers = cors.clone();
            headers.push(("Content-Type".into(), "application/json".into()));
            Ok(adapter::response(status, &headers, Body::full(answer)))
        }
        Ok(Some(Delivery::Related(message))) => {
            log::line(
                shared.link.now(),
                &format!(
                    "POST {label} -> 200 SSE stream, first {}",
                    log::label_text(&message)
                ),
            );
            let (tx, rx) = tokio::sync::mpsc::channel(16);
            let (gone_tx, gone_rx) = tokio::sync::oneshot::channel();
            let first = Bytes::from(sse(&message));
            tokio::spawn(stream(shared.clone(), waiting, tx, gone_rx, label));
            let mut headers = cors.clone();
            headers.push(("Content-Type".into(), "text/event-stream".into()));
            headers.push(("Cache-Control".into(), "no-cache".into()));
            let body = body::Stream::new(Some(first), rx, gone_tx, body::KEEP_ALIVE);
            Ok(adapter::response(200, &headers, Body::Stream(body)))
        }
    }
}

/// One SSE event carrying `data`.
fn sse(data: &str) -> String {
    mcp_lanes_core::transport::http::sse_event(None, data)
}

/// Feeds a request's SSE stream until its answer, the deadline, the
/// child's end, or the client going away.
async fn stream(
    shared: Arc<Shared>,
    mut waiting: child::Waiting,
    tx: tokio::sync::mpsc::Sender<Bytes>,
    mut gone: tokio::sync::oneshot::Receiver<()>,
    label: String,
) {
    loop {
        let next = tokio::select! {
            next = tokio::time::timeout(shared.timeout, waiting.rx.recv()) => next,
            _ = &mut gone => return,
        };
        let now = shared.link.now();
        match next {
            Ok(Some(Delivery::Related(message))) => {
                if tx.send(Bytes::from(sse(&message))).await.is_err() {
                    return;
                }
            }
            Ok(Some(Delivery::Answer(answer))) => {
                log::line(
                    now,
                    &format!("{label}: its stream ends with {}", log::label_text(&answer)),
                );
                let _ = tx.send(Bytes::from(sse(&answer))).await;
                return;
            }
            Ok(Some(Delivery::Failed(why))) => {
                log::line(
                    now,
                    &format!("{label}: its stream ends without an answer: {why}"),
                );
                return;
            }
            Ok(None) => return,
            Err(_) => {
                log::line(
                    now,
                    &format!(
                        "{label}: its stream ends: the server wrote nothing more within {} ms",
                        shared.timeout.as_millis()
                    ),
                );
                return;
            }
        }
    }
}

/// The 502 of a request the server can no longer answer.
fn gone(cors: &[(String, String)], label: &str, now: u64, why: &str) -> Response<Body> {
    log::line(now, &format!("POST {label} -> 502: {why}"));
    text(
        502,
        cors,
        &format!("Bad Gateway: the stdio server cannot answer: {why}."),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_are_requests_or_accepted() {
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#),
            Kind::Request("7".into())
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#),
            Kind::Request("\"a\"".into())
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            Kind::Accepted
        );
        assert_eq!(
            classify(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Kind::Accepted
        );
        assert_eq!(classify("[]"), Kind::Accepted);
        assert_eq!(classify("not json"), Kind::Request("null".into()));
        assert_eq!(classify("42"), Kind::Request("null".into()));
    }
}
