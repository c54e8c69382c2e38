//! `mcp-lanes tap --upstream URL --port N`: a reverse proxy for Streamable
//! HTTP on loopback, between a client and a server that speak HTTP. Each
//! request goes on to the upstream server with its method, path, query,
//! headers and body unchanged (but `Host`, which names the upstream); each
//! answer comes back with its status, headers and body unchanged, frame by
//! frame as it arrives (an SSE stream is never buffered), 401 and its
//! `WWW-Authenticate` included. The same Host and Origin checks as
//! `bridge` stop DNS rebinding (`bridge::guard`).
//!
//! What passes is recorded as it passes: each JSON-RPC message of a
//! request body, of a JSON answer and of each SSE event, with the status
//! and headers around it, into the tape the stdio tap uses (so `--out`,
//! `--log` and the grader are the same), and into the HAR capture of
//! `--har` ([`super::har`]). Tap decides nothing about MCP.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{mpsc, Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http::{Request, Response};
use http_body_util::{combinators::BoxBody, BodyExt, Full, Limited};
use hyper::body::{Frame, Incoming, SizeHint};
use hyper::client::conn::http1::SendRequest;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use mcp_lanes_core::import::MAX_BYTES;
use mcp_lanes_core::transport::sse::SseDecoder;
use serde_json::{json, Map, Value};

use super::gone::Watch;
use super::har::Exchange;
use super::log::Fed;
use super::tape::{Pipe, Tape};
use crate::bridge::guard::Policy;
use crate::driver::Endpoint;

/// The largest request body passed on (beyond: 413). Bodies over the
/// recording's [`MAX_BYTES`] pass on and are said, not recorded, as a
/// stdio line over its limit is.
pub const MAX_PASSED: usize = 64 * 1024 * 1024;

/// A body passed on: the upstream's, frame by frame, or one tap made.
type Body = BoxBody<Bytes, hyper::Error>;

/// What every connection shares.
pub struct Shared {
    /// Where requests go.
    pub upstream: Endpoint,
    /// Who may use the proxy.
    pub policy: Policy,
    /// The record.
    pub tape: Arc<Mutex<Tape>>,
    /// The log's feed.
    pub log: mpsc::Sender<Fed>,
    /// The HAR capture (`--har`), when asked for.
    pub har: Option<Mutex<Vec<Exchange>>>,
    /// The live view's hub (`--live`), when asked for.
    pub live: Option<Arc<super::live::Hub>>,
    /// The language of what tap says on stderr.
    pub lang: crate::i18n::Catalog,
}

impl Shared {
    /// Does `f` to exchange `at` of the HAR capture, if there is one.
    fn har(&self, at: Option<usize>, f: impl FnOnce(&mut Exchange)) {
        if let (Some(har), Some(at)) = (&self.har, at) {
            if let Some(ex) = har.lock().unwrap_or_else(|p| p.into_inner()).get_mut(at) {
                f(ex);
            }
        }
    }
}

/// Serves on `listener` until a stop signal (Ctrl-C, SIGTERM).
pub async fn serve(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    let signal = crate::http::stop_signal();
    tokio::pin!(signal);
    loop {
        let accepted = tokio::select! {
            _ = &mut signal => break,
            accepted = listener.accept() => accepted,
        };
        let Ok((stream, _)) = accepted else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let _ = stream.set_nodelay(true);
            let Ok((stream, watched)) = watched(stream) else {
                return;
            };
            // This client connection's own upstream connection, kept for
            // its next request (HTTP/1.1: one at a time).
            let kept: Arc<Kept> = Arc::default();
            let service = service_fn(move |request| {
                let (shared, kept) = (Arc::clone(&shared), Arc::clone(&kept));
                async move { Ok::<_, Infallible>(pass(&shared, &kept, request).await) }
            });
            let connection = crate::http::http1().serve_connection(TokioIo::new(stream), service);
            // A client that hangs up while its request waits or its answer
            // streams: what served it is dropped (and says so), and with
            // it the upstream request.
            tokio::select! {
                _ = connection => {}
                () = hangup(watched) => {}
            }
        });
    }
}

/// The client's connection, and a second handle on the same socket to
/// watch it with ([`hangup`]).
fn watched(
    stream: tokio::net::TcpStream,
) -> std::io::Result<(tokio::net::TcpStream, tokio::net::TcpStream)> {
    let stream = stream.into_std()?;
    let watch = stream.try_clone()?;
    Ok((
        tokio::net::TcpStream::from_std(stream)?,
        tokio::net::TcpStream::from_std(watch)?,
    ))
}

/// How long a client that closed its sending side still gets its answer
/// before it is taken as gone. A client that left and one that only
/// half-closed (it sent its request and waits) look the same until
/// something is written to them; an answer that comes within this time
/// reaches either.
const HALF_CLOSED: Duration = Duration::from_secs(1);

/// Resolves when the client has gone: its connection failed (reset), or
/// its side has been closed for [`HALF_CLOSED`]. It only peeks: hyper
/// reads what the client sends. hyper does not read while an answer is
/// pending or streaming, so without this a client that left would be
/// noticed only at the next write, which an idle stream may never make.
async fn hangup(watch: tokio::net::TcpStream) {
    let mut byte = [0u8; 1];
    loop {
        match watch.peek(&mut byte).await {
            Ok(0) => break,
            Err(_) => return,
            // A request hyper has not read yet: look again soon.
            Ok(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    tokio::time::sleep(HALF_CLOSED).await;
}

/// A header's value as text.
fn header<'a>(headers: &'a http::HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// Headers as the transcript's `http.headers` object (text values only).
fn headers_json(headers: &http::HeaderMap) -> Map<String, Value> {
    headers
        .iter()
        .filter_map(|(name, value)| {
            value
                .to_str()
                .ok()
                .map(|v| (name.as_str().to_string(), Value::from(v)))
        })
        .collect()
}

/// An answer tap makes itself (403, 502): plain text.
fn plain(status: u16, text: String) -> Response<Body> {
    let body = Full::new(Bytes::from(text + "\n"))
        .map_err(|never| match never {})
        .boxed();
    let mut response = Response::new(body);
    *response.status_mut() =
        http::StatusCode::from_u16(status).unwrap_or(http::StatusCode::BAD_GATEWAY);
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Records each JSON-RPC message of `body` (one, or a batch) from `pipe`
/// with `http` around it.
fn record(shared: &Shared, pipe: Pipe, body: &[u8], http: &Value) {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return;
    };
    let messages = match value {
        Value::Array(batch) => batch,
        one => vec![one],
    };
    for message in messages {
        let entry = {
            let mut tape = shared.tape.lock().unwrap_or_else(|p| p.into_inner());
            tape.record_message(pipe, message, Some(http.clone()))
        };
        if let Some(entry) = entry {
            if let Some(hub) = &shared.live {
                hub.push(&entry);
            }
            let _ = shared.log.send(Fed::Entry(entry));
        }
    }
}

/// One request: checked, passed on, its answer passed back.
async fn pass(shared: &Arc<Shared>, kept: &Kept, request: Request<Incoming>) -> Response<Body> {
    let (parts, body) = request.into_parts();
    let admitted = shared.policy.admit(
        header(&parts.headers, "host"),
        header(&parts.headers, "origin"),
    );
    if let Err(refusal) = admitted {
        return plain(403, refusal.explain());
    }
    // A request body is one JSON-RPC message (or a batch): read whole and
    // sent on as it came; recorded up to the recording's limit.
    let body = match Limited::new(body, MAX_PASSED).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => return plain(413, format!("the request body is over {MAX_PASSED} bytes")),
    };
    let exchange = shared.har.as_ref().map(|har| {
        let url = format!(
            "http://{}{}",
            header(&parts.headers, "host").unwrap_or(""),
            parts.uri.path_and_query().map_or("/", |p| p.as_str())
        );
        let mut har = har.lock().unwrap_or_else(|p| p.into_inner());
        har.push(Exchange::new(
            parts.method.as_str(),
            url,
            headers_json(&parts.headers),
            &body,
        ));
        har.len() - 1
    });
    if body.len() > MAX_BYTES {
        super::say(&shared.lang.fill(
            "cli.tap.body_too_long",
            "a request body of {bytes} bytes ({request}) is over what tap records; passed on, not recorded",
            &[
                ("bytes", body.len().to_string()),
                ("request", format!("{} {}", parts.method, parts.uri.path())),
            ],
        ));
    } else if !body.is_empty() {
        let http = json!({
            "method": parts.method.as_str(),
            "headers": headers_json(&parts.headers),
        });
        record(shared, Pipe::Client, &body, &http);
    }
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    let mut upstream = Request::builder().method(parts.method.clone()).uri(&path);
    for (name, value) in &parts.headers {
        if name != http::header::HOST {
            upstream = upstream.header(name, value);
        }
    }
    let upstream = upstream
        .header(http::header::HOST, shared.upstream.authority.as_str())
        .body(Full::new(body));
    let Ok(upstream) = upstream else {
        return plain(400, "the request cannot be passed on".into());
    };
    // Dropped before it is disarmed: the client left first.
    let session = header(&parts.headers, "mcp-session-id").map(str::to_string);
    let mut watch = Watch::new(shared, format!("{} {path}", parts.method), session);
    let answer = match send(&shared.upstream, kept, upstream).await {
        Ok(answer) => answer,
        Err(why) => {
            watch.disarm();
            shared.har(exchange, |ex| ex.answered(502, Map::new()));
            return plain(
                502,
                format!(
                    "the upstream server {} did not answer: {why}",
                    shared.upstream.authority
                ),
            );
        }
    };
    let (parts, body) = answer.into_parts();
    shared.har(exchange, |ex| {
        ex.answered(parts.status.as_u16(), headers_json(&parts.headers))
    });
    let http = json!({
        "status": parts.status.as_u16(),
        "headers": headers_json(&parts.headers),
    });
    let sse = header(&parts.headers, "content-type")
        .is_some_and(|c| c.to_ascii_lowercase().starts_with("text/event-stream"));
    watch.answered();
    let body = tee(Arc::clone(shared), body, sse, http, exchange, watch);
    Response::from_parts(parts, body)
}

/// A client connection's upstream connection, once it has one.
type Kept = tokio::sync::Mutex<Option<SendRequest<Full<Bytes>>>>;

/// The upstream's answer to `request`: on the connection `kept` (opened
/// for an earlier request of the same client connection), else on a new
/// one, kept for the next. A kept connection the upstream closed gives the
/// request back unsent, and it goes on a new one.
async fn send(
    upstream: &Endpoint,
    kept: &Kept,
    request: Request<Full<Bytes>>,
) -> Result<Response<Incoming>, String> {
    let mut kept = kept.lock().await;
    let mut request = request;
    if let Some(sender) = kept.as_mut() {
        if sender.ready().await.is_ok() {
            match sender.try_send_request(request).await {
                Ok(answer) => return Ok(answer),
                Err(mut failed) => match failed.take_message() {
                    Some(unsent) => request = unsent,
                    None => {
                        *kept = None;
                        return Err(failed.into_error().to_string());
                    }
                },
            }
        }
    }
    *kept = None;
    let stream = tokio::net::TcpStream::connect((upstream.host.as_str(), upstream.port))
        .await
        .map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let answer = sender
        .send_request(request)
        .await
        .map_err(|e| e.to_string());
    *kept = Some(sender);
    answer
}

/// The answer's body passed on frame by frame, each frame read as it
/// goes: an SSE stream's events are recorded as they complete, a JSON
/// body once it is whole. `watch` says it if the client leaves first.
fn tee(
    shared: Arc<Shared>,
    body: Incoming,
    sse: bool,
    http: Value,
    exchange: Option<usize>,
    watch: Watch,
) -> Body {
    let mut decoder = SseDecoder::new(MAX_BYTES);
    let mut whole: Vec<u8> = Vec::new();
    let read = move |data: &Bytes| -> usize {
        shared.har(exchange, |ex| ex.body(data));
        if sse {
            let events = decoder.feed(data).unwrap_or_default();
            for event in &events {
                record(&shared, Pipe::Server, event.data.as_bytes(), &http);
            }
            events.len()
        } else if whole.len() + data.len() <= MAX_BYTES {
            whole.extend_from_slice(data);
            // Parsed only when it can be whole (a JSON body ends with a
            // bracket or a brace, whitespace aside): a large body in many
            // frames is parsed once, not once per frame.
            let closes = whole
                .iter()
                .rev()
                .find(|b| !b.is_ascii_whitespace())
                .is_some_and(|b| matches!(b, b'}' | b']'));
            if closes && serde_json::from_slice::<Value>(&whole).is_ok() {
                record(&shared, Pipe::Server, &whole, &http);
                whole.clear();
                return 1;
            }
            0
        } else {
            0
        }
    };
    Teed {
        inner: body,
        read,
        watch,
    }
    .boxed()
}

/// The upstream's body as it passes: each data frame read by `read` (how
/// many messages it completed), the end disarming `watch`.
struct Teed<F> {
    inner: Incoming,
    read: F,
    watch: Watch,
}

impl<F: FnMut(&Bytes) -> usize + Unpin> hyper::body::Body for Teed<F> {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.watch.events += (this.read)(data);
                }
            }
            // Its end, or the upstream's failure: not the client's doing.
            Poll::Ready(None | Some(Err(_))) => this.watch.disarm(),
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        let end = self.inner.is_end_stream();
        if end {
            self.watch.disarm();
        }
        end
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
