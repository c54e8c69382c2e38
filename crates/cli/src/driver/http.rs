//! The Streamable HTTP driver: each message the client sends is a POST
//! (hyper's HTTP/1.1 client, connections kept alive while they are clean),
//! and the answer, a JSON body or an SSE stream, goes back to the client as
//! it arrives. Every await has a deadline; a body or event over the limit,
//! bytes that are not HTTP, or a connection that closes early become a
//! [`TransportFailure`] for the client (C-EXCHANGE-FAILED, C-SSE-READ).

use std::collections::VecDeque;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use mcp_lanes_core::client::TransportFailure;
use mcp_lanes_core::rules;
use mcp_lanes_core::sim::{EventKind, HttpInfo, Side};
use mcp_lanes_core::transport::http::HttpResponse;
use mcp_lanes_core::transport::sse::SseDecoder;
use mcp_lanes_core::transport::HttpRequest;
use tokio::net::TcpStream;
use tokio::time::{timeout_at, Instant};

use super::{Limits, OpenError, Outgoing, ProblemKind, Session};
use crate::i18n::Keyed;

/// A parsed `http://` endpoint URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// Host name or address (without IPv6 brackets).
    pub host: String,
    /// TCP port.
    pub port: u16,
    /// `host:port` as written, for the Host header.
    pub authority: String,
    /// Path and query, `/` at least.
    pub path: String,
}

impl Endpoint {
    /// Parses an `http://HOST[:PORT][/PATH]` URL. `https` is refused: this
    /// client speaks plain HTTP only (loopback and test servers). The error
    /// is a usage error of the catalogs (`cli.usage.url_*`), said in the
    /// language of `--lang` by the command that reports it.
    pub fn parse(url: &str) -> Result<Endpoint, Keyed> {
        let quoted = || ("url", format!("{url:?}"));
        let uri: http::Uri = url.parse().map_err(|e: http::uri::InvalidUri| {
            // The http crate's own words after ours.
            Keyed::new(
                "cli.usage.not_a_url",
                "{url} is not a URL: {why}",
                &[quoted(), ("why", e.to_string())],
            )
        })?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") => {
                return Err(Keyed::new(
                    "cli.usage.url_https",
                    "{url}: https is not supported, only plain http:// (TLS is not built in)",
                    &[quoted()],
                ))
            }
            _ => {
                return Err(Keyed::new(
                    "cli.usage.url_not_http",
                    "{url} is not an http:// URL",
                    &[quoted()],
                ))
            }
        }
        let no_host = || Keyed::new("cli.usage.url_no_host", "{url} names no host", &[quoted()]);
        let authority = uri.authority().ok_or_else(no_host)?;
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        if host.is_empty() {
            return Err(no_host());
        }
        if authority.as_str().contains('@') {
            return Err(Keyed::new(
                "cli.usage.url_credentials",
                "{url}: credentials in the URL are not supported",
                &[quoted()],
            ));
        }
        Ok(Endpoint {
            host,
            port: authority.port_u16().unwrap_or(80),
            authority: authority.as_str().to_string(),
            path: uri
                .path_and_query()
                .map_or_else(|| "/".to_string(), |p| p.as_str().to_string()),
        })
    }
}

/// Why a wait ended without what it waited for.
pub(super) enum Stop {
    /// The deadline passed.
    Deadline,
    /// The exchange failed below the protocol.
    Failed(TransportFailure),
}

type Sender = SendRequest<Full<Bytes>>;

/// A DPoP-bound access token, the key it is bound to, and the server's
/// nonce once it asked for one (A-DPOP-NONCE).
pub(super) struct DpopAuth {
    pub(super) key: std::sync::Arc<crate::dpop::Key>,
    pub(super) token: String,
    pub(super) nonce: Option<String>,
}

/// Connections to one endpoint.
pub(super) struct HttpWire {
    endpoint: Endpoint,
    limits: Limits,
    /// A clean connection ready for the next request.
    idle: Option<Sender>,
    /// `Authorization` sent with every request that has none (`check
    /// --token`).
    pub(super) authorization: Option<String>,
    /// A DPoP-bound token and its key: each request gets `Authorization:
    /// DPoP` and a fresh proof instead of `authorization` (A-DPOP-PRESENT).
    pub(super) dpop: Option<DpopAuth>,
    /// The legacy session's own stream (H-SSE-RESUME).
    pub(super) listen: super::listen::Listen,
}

impl HttpWire {
    /// Connects once, so that an unreachable server is told at once.
    pub(super) async fn open(endpoint: Endpoint, limits: Limits) -> Result<HttpWire, OpenError> {
        let mut wire = HttpWire {
            endpoint,
            limits,
            idle: None,
            authorization: None,
            dpop: None,
            listen: super::listen::Listen::default(),
        };
        let deadline = Instant::now() + limits.connect;
        match wire.connect(deadline).await {
            Ok(sender) => {
                wire.idle = Some(sender);
                Ok(wire)
            }
            Err(Stop::Deadline) => Err(OpenError::Unreachable(format!(
                "no connection to {} within {} ms",
                wire.endpoint.authority,
                limits.connect.as_millis()
            ))),
            Err(Stop::Failed(f)) => Err(OpenError::Unreachable(f.describe())),
        }
    }

    async fn connect(&self, deadline: Instant) -> Result<Sender, Stop> {
        let connect_by = deadline.min(Instant::now() + self.limits.connect);
        let host = (self.endpoint.host.as_str(), self.endpoint.port);
        let addrs: Vec<std::net::SocketAddr> =
            match timeout_at(connect_by, tokio::net::lookup_host(host)).await {
                Err(_) => return Err(Stop::Deadline),
                Ok(Err(e)) => {
                    return Err(Stop::Failed(TransportFailure::Closed(format!(
                        "cannot resolve {}: {e}",
                        self.endpoint.host
                    ))))
                }
                Ok(Ok(addrs)) => addrs.collect(),
            };
        let mut last = format!("{} resolves to no address", self.endpoint.host);
        for addr in addrs {
            match timeout_at(connect_by, TcpStream::connect(addr)).await {
                Err(_) => return Err(Stop::Deadline),
                Ok(Err(e)) => last = format!("cannot connect to {addr}: {e}"),
                Ok(Ok(stream)) => {
                    let _ = stream.set_nodelay(true);
                    let handshake = http1::Builder::new()
                        .max_buf_size(self.limits.max_message.max(8192))
                        .handshake::<_, Full<Bytes>>(TokioIo::new(stream));
                    return match timeout_at(connect_by, handshake).await {
                        Err(_) => Err(Stop::Deadline),
                        Ok(Err(e)) => Err(Stop::Failed(failure(&e))),
                        Ok(Ok((sender, connection))) => {
                            tokio::spawn(async move {
                                let _ = connection.await;
                            });
                            Ok(sender)
                        }
                    };
                }
            }
        }
        Err(Stop::Failed(TransportFailure::Closed(last)))
    }

    /// A ready connection: the idle one if it still is, else a new one.
    async fn sender(&mut self, deadline: Instant) -> Result<(Sender, bool), Stop> {
        if let Some(mut sender) = self.idle.take() {
            let ready = timeout_at(
                deadline.min(Instant::now() + self.limits.connect),
                sender.ready(),
            )
            .await;
            if matches!(ready, Ok(Ok(()))) {
                return Ok((sender, true));
            }
        }
        Ok((self.connect(deadline).await?, false))
    }

    /// POSTs `request`; returns the response head and the connection, to be
    /// given back with [`HttpWire::give_back`] once its body is read.
    pub(super) async fn post(
        &mut self,
        request: &HttpRequest,
        deadline: Instant,
    ) -> Result<(hyper::Response<Incoming>, Sender), Stop> {
        for attempt in 0..2 {
            let (mut sender, reused) = self.sender(deadline).await?;
            let req = self.build(request)?;
            match timeout_at(deadline, sender.send_request(req)).await {
                Err(_) => return Err(Stop::Deadline),
                // A kept-alive connection the server had closed: the request
                // never left, so it goes once more on a new connection.
                Ok(Err(e)) if reused && e.is_canceled() && attempt == 0 => continue,
                Ok(Err(e)) => return Err(Stop::Failed(failure(&e))),
                Ok(Ok(response)) => return Ok((response, sender)),
            }
        }
        Err(Stop::Failed(TransportFailure::Closed(
            "the connection closed before the request was sent".into(),
        )))
    }

    /// Sends `request` on a connection of its own (a stream kept open
    /// beside the others, [`super::listen`]); `None` when it failed.
    pub(super) async fn fresh(
        &self,
        request: &HttpRequest,
        deadline: Instant,
    ) -> Option<(hyper::Response<Incoming>, Sender)> {
        let mut sender = self.connect(deadline).await.ok()?;
        let req = self.build(request).ok()?;
        match timeout_at(deadline, sender.send_request(req)).await {
            Ok(Ok(response)) => Some((response, sender)),
            _ => None,
        }
    }

    /// The hyper request of `request` (with `authorization` when it has none).
    fn build(&self, request: &HttpRequest) -> Result<hyper::Request<Full<Bytes>>, Stop> {
        {
            let mut builder = hyper::Request::builder()
                .method(request.method.as_str())
                .uri(self.endpoint.path.as_str())
                .header(hyper::header::HOST, self.endpoint.authority.as_str());
            for (name, value) in &request.headers {
                builder = builder.header(name.as_str(), value.as_str());
            }
            let has_auth = request
                .headers
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("authorization"));
            if let (Some(dpop), false) = (&self.dpop, has_auth) {
                let url = format!("http://{}{}", self.endpoint.authority, self.endpoint.path);
                let proof = dpop.key.proof(
                    &request.method,
                    &url,
                    Some(&dpop.token),
                    dpop.nonce.as_deref(),
                );
                builder = builder
                    .header(hyper::header::AUTHORIZATION, format!("DPoP {}", dpop.token))
                    .header("DPoP", proof);
            } else if let (Some(auth), false) = (&self.authorization, has_auth) {
                builder = builder.header(hyper::header::AUTHORIZATION, auth.as_str());
            }
            builder
                .body(Full::new(Bytes::from(request.body.clone())))
                .map_err(|e| {
                    Stop::Failed(TransportFailure::Garbled(format!(
                        "the request cannot be written as HTTP: {e}"
                    )))
                })
        }
    }

    pub(super) fn give_back(&mut self, sender: Sender) {
        if self.idle.is_none() {
            self.idle = Some(sender);
        }
    }
}

/// What a hyper error means for the exchange.
pub(super) fn failure(e: &hyper::Error) -> TransportFailure {
    // The innermost cause says most (an I/O error, usually).
    let mut cause: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(e);
    let mut io_kind = None;
    let mut detail = None;
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            io_kind = Some(io.kind());
        }
        detail = Some(c.to_string());
        cause = c.source();
    }
    let detail = detail.map(|d| format!(" ({d})")).unwrap_or_default();
    let cut_short = matches!(
        io_kind,
        Some(
            std::io::ErrorKind::UnexpectedEof
                | std::io::ErrorKind::ConnectionReset
                | std::io::ErrorKind::ConnectionAborted
                | std::io::ErrorKind::BrokenPipe
        )
    );
    if e.is_parse() && e.to_string().contains("too large") {
        TransportFailure::TooLarge(format!("the server's HTTP head is too large: {e}"))
    } else if e.is_parse() || e.is_parse_status() {
        TransportFailure::Garbled(format!("what the server sent is not HTTP: {e}{detail}"))
    } else if e.is_incomplete_message() || cut_short {
        TransportFailure::Closed(format!(
            "the server closed the connection before its answer was complete{detail}"
        ))
    } else {
        TransportFailure::Closed(format!("the connection failed: {e}{detail}"))
    }
}

/// Runs the client's script over HTTP until it is done or a limit is hit.
pub(super) async fn run(wire: &mut HttpWire, session: &mut Session) {
    let now = session.now();
    session.client.start(now);
    let mut queue: VecDeque<Outgoing> = VecDeque::new();
    loop {
        if session.over_time() {
            session.stop_run();
            return;
        }
        if session.flooded() {
            return;
        }
        if let Some(out) = queue.pop_front().or_else(|| session.next_send()) {
            exchange(wire, session, out, &mut queue).await;
            if session.stopped {
                return;
            }
            continue;
        }
        if session.closed || session.client.is_done() {
            return;
        }
        match session.next_deadline() {
            Some(deadline) => {
                tokio::time::sleep_until(deadline).await;
                let now = session.now();
                session.client.handle_timeout(now);
            }
            None => {
                session.stalled();
                return;
            }
        }
    }
}

/// How long to wait now for the answer to `out`: the client's own deadline
/// while it waits on it, else `fixed` (the exchange limit from the start of
/// the exchange); never past the run.
fn deadline_for(session: &Session, awaited: Option<u64>, fixed: Instant) -> Instant {
    let own = if session.still_awaits(awaited) {
        session.next_deadline()
    } else {
        None
    };
    own.unwrap_or(fixed).min(session.deadline)
}

/// A deadline passed during the exchange of `awaited`: the client's timers
/// decide. Returns whether the exchange is over.
fn on_deadline(session: &mut Session, awaited: Option<u64>, what: &str) -> bool {
    if session.over_time() {
        session.stop_run();
        return true;
    }
    if awaited.is_none() {
        let ms = session.limits.exchange.as_millis();
        session.rec.push(
            EventKind::Dropped {
                side: Side::Client,
                what: format!("the answer to {what}"),
            },
            vec![rules::C_EXCHANGE_FAILED],
            mcp_lanes_core::note!(
                "driver.no_answer_within",
                "No answer to {what} within {ms} ms: the driver stops waiting for it.",
                what = what,
                ms = ms
            ),
        );
        session.problem(
            ProblemKind::Timeout,
            mcp_lanes_core::note!(
                "driver.problem.timeout",
                "no answer to {what} within {ms} ms",
                what = what,
                ms = ms
            ),
        );
        return true;
    }
    let now = session.now();
    session.client.handle_timeout(now);
    !session.still_awaits(awaited)
}

/// The exchange of a failed awaited request is over; anything else failing
/// is recorded by the driver.
fn on_failure(session: &mut Session, awaited: Option<u64>, failure: TransportFailure) {
    session.exchange_failed(
        awaited,
        failure,
        mcp_lanes_core::note!("driver.lost_no_answer", "got no answer"),
    );
}

pub(super) fn headers_of(response: &hyper::Response<Incoming>) -> Vec<(String, String)> {
    response
        .headers()
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_string(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect()
}

/// One POST and its answer. While the answer streams, messages the client
/// sends that nobody waits on (an answer to a legacy server request) go
/// out at once on another connection.
async fn exchange(
    wire: &mut HttpWire,
    session: &mut Session,
    out: Outgoing,
    queue: &mut VecDeque<Outgoing>,
) {
    let Some(request) = out.http.clone() else {
        return;
    };
    let awaited = out.awaited;
    if awaited.is_some() {
        super::listen::open(wire, session, &request).await;
    }
    let fixed = Instant::now() + session.limits.exchange;
    let what = request_label(&out.text);
    let (response, sender) = loop {
        let deadline = deadline_for(session, awaited, fixed);
        match wire.post(&request, deadline).await {
            Ok(found) => break found,
            Err(Stop::Deadline) => {
                if on_deadline(session, awaited, &what) {
                    return;
                }
            }
            Err(Stop::Failed(f)) => {
                on_failure(session, awaited, f);
                return;
            }
        }
    };
    session.rec.delivered(out.event);
    let status = response.status().as_u16();
    let headers = headers_of(&response);
    let info = HttpInfo {
        method: None,
        status: Some(status),
        headers: headers.clone(),
        event_id: None,
    };
    let is_stream = response
        .headers()
        .get(hyper::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/event-stream"));
    let mut body = response.into_body();
    if is_stream {
        let mut started = HttpResponse::event_stream(String::new());
        started.status = status;
        started.headers = headers.clone();
        session.client.handle_http_headers(&started);
        let exchange = Exchange {
            awaited,
            fixed,
            what: &what,
            request: &request,
            resumed: 0,
        };
        read_stream(wire, session, &mut body, sender, &info, &exchange, queue).await;
        return;
    }
    // A JSON (or any other) body: read it whole, within the limit.
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        let deadline = deadline_for(session, awaited, fixed);
        match timeout_at(deadline, body.frame()).await {
            Err(_) => {
                if on_deadline(session, awaited, &what) {
                    return;
                }
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                on_failure(session, awaited, failure(&e));
                return;
            }
            Ok(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    if bytes.len() + data.len() > session.limits.max_message {
                        let limit = session.limits.max_message;
                        on_failure(
                            session,
                            awaited,
                            TransportFailure::TooLarge(format!(
                                "the answer to {what} is larger than the {limit}-byte limit"
                            )),
                        );
                        return;
                    }
                    bytes.extend_from_slice(data);
                }
            }
        }
    }
    wire.give_back(sender);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let content = content_type(&headers);
    session.received(
        &text,
        Some(info),
        mcp_lanes_core::note!(
            "driver.servers_answer",
            "The server's answer: HTTP {status}{content}.",
            status = status,
            content = content
        ),
    );
    // Built through a constructor, so fields the core adds stay defaulted.
    let mut response = HttpResponse::json(status, text);
    response.headers = headers;
    let now = session.now();
    session.client.handle_http(now, &response);
}

/// One exchange's bookkeeping: the wait it answers, its own deadline, and
/// how notes name it.
pub(super) struct Exchange<'a> {
    pub(super) awaited: Option<u64>,
    pub(super) fixed: Instant,
    pub(super) what: &'a str,
    /// The POST that opened the stream (its headers are the resumption's).
    pub(super) request: &'a HttpRequest,
    /// How many times this stream was resumed already (H-SSE-POLL).
    pub(super) resumed: u32,
}

/// Reads an SSE answer event by event until the client stops waiting on it
/// (its response came), the stream ends, or a deadline or limit is hit.
pub(super) async fn read_stream(
    wire: &mut HttpWire,
    session: &mut Session,
    body: &mut Incoming,
    sender: Sender,
    info: &HttpInfo,
    exchange_of: &Exchange<'_>,
    queue: &mut VecDeque<Outgoing>,
) {
    let Exchange {
        awaited,
        fixed,
        what,
        ..
    } = *exchange_of;
    let mut decoder = SseDecoder::new(session.limits.max_message);
    let mut count = 0usize;
    let status = info.status.unwrap_or(0);
    loop {
        if awaited.is_some() && !session.still_awaits(awaited) {
            // The response came: the exchange is over. Dropping the
            // connection ends the stream (on HTTP, the cancellation).
            return;
        }
        let deadline = deadline_for(session, awaited, fixed);
        let got = tokio::select! {
            frame = timeout_at(deadline, body.frame()) => Ok(frame),
            text = wire.listen.recv() => Err(text),
        };
        let frame = match got {
            Err(text) => {
                session.received(
                    &text,
                    None,
                    mcp_lanes_core::note!(
                        "driver.listen_event",
                        "An event of the session's GET stream, while the client waits on {what}.",
                        what = what
                    ),
                );
                let now = session.now();
                session.client.handle_text(now, &text);
                flush(wire, session, awaited, queue).await;
                continue;
            }
            Ok(frame) => frame,
        };
        let frame = match frame {
            Err(_) => {
                if on_deadline(session, awaited, what) {
                    return;
                }
                continue;
            }
            Ok(frame) => frame,
        };
        let data = match frame {
            None => {
                let _ = decoder.finish();
                wire.give_back(sender);
                if session.still_awaits(awaited)
                    && !Box::pin(super::resume::resume(
                        wire,
                        session,
                        &decoder,
                        exchange_of,
                        queue,
                    ))
                    .await
                {
                    on_failure(session, awaited, TransportFailure::StreamEnded);
                }
                return;
            }
            Some(Err(e)) => {
                on_failure(session, awaited, failure(&e));
                return;
            }
            Some(Ok(frame)) => match frame.into_data() {
                Ok(data) => data,
                Err(_) => continue,
            },
        };
        let events = match decoder.feed(&data) {
            Ok(events) => events,
            Err(e) => {
                on_failure(
                    session,
                    awaited,
                    TransportFailure::Garbled(format!("the SSE answer to {what}: {e}")),
                );
                return;
            }
        };
        for event in events {
            count += 1;
            if session.flooded() {
                return;
            }
            session.received(
                &event.data,
                Some(info.clone()),
                mcp_lanes_core::note!(
                    "driver.sse_event",
                    "SSE event {count} of the HTTP {status} stream answering {what}.",
                    count = count,
                    status = status,
                    what = what
                ),
            );
            let now = session.now();
            session.client.handle_text(now, &event.data);
            flush(wire, session, awaited, queue).await;
        }
    }
}

/// Messages nobody waits on go out now, on another connection, while the
/// stream answering `awaited` stays open; a new request waits its turn.
async fn flush(
    wire: &mut HttpWire,
    session: &mut Session,
    awaited: Option<u64>,
    queue: &mut VecDeque<Outgoing>,
) {
    while session.still_awaits(awaited) {
        let Some(side) = session.next_send() else {
            break;
        };
        if side.awaited.is_some() {
            queue.push_back(side);
            break;
        }
        Box::pin(exchange(wire, session, side, queue)).await;
    }
}

fn request_label(text: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let method = value.get("method").and_then(serde_json::Value::as_str);
    match (method, value.get("id")) {
        (Some(m), Some(id)) => format!("{m} (id {id})"),
        (Some(m), None) => m.to_string(),
        (None, Some(id)) => format!("the response to id {id}"),
        (None, None) => "the message".to_string(),
    }
}

fn content_type(headers: &[(String, String)]) -> String {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        .map(|(_, v)| format!(", {v}"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoints_parse_host_port_and_path() {
        let e = Endpoint::parse("http://localhost:8931/mcp?x=1").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (
                e.host.as_str(),
                e.port,
                e.authority.as_str(),
                e.path.as_str()
            ),
            ("localhost", 8931, "localhost:8931", "/mcp?x=1")
        );
        let e = Endpoint::parse("http://[::1]:9/").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((e.host.as_str(), e.port, e.path.as_str()), ("::1", 9, "/"));
        let e = Endpoint::parse("http://example.com").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((e.port, e.path.as_str()), (80, "/"));
        for bad in [
            "https://example.com/mcp",
            "ftp://example.com",
            "localhost:8931",
            "http://user:pw@example.com/",
            "not a url",
        ] {
            let Err(err) = Endpoint::parse(bad) else {
                panic!("{bad} parses");
            };
            // Keyed as en.json says it, and said in Chinese under zh.
            let en = crate::i18n::Catalog::load("en").expect("en");
            let zh = crate::i18n::Catalog::load("zh").expect("zh");
            assert_eq!(en.text(err.key, ""), err.template, "{bad}");
            assert_ne!(err.say(Some(&zh)), err.to_string(), "{bad}");
        }
    }
}
