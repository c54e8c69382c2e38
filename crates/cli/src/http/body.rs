//! Response bodies: complete (framed with `Content-Length`) or a stream of
//! SSE chunks fed through a bounded channel (framed with chunked transfer
//! coding), which ends when its sender is dropped. An open stream sends an
//! SSE comment after [`KEEP_ALIVE`] without events, so a client that went
//! away is noticed (the write fails and hyper drops the body), and dropping
//! a stream body reports it through its [`Gone`] signal.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use std::time::Duration;

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};
use tokio::sync::{mpsc, oneshot};
use tokio::time::{Instant, Interval, MissedTickBehavior};

/// How long an open SSE stream stays silent before a keep-alive comment
/// (the default of `--keep-alive`).
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The keep-alive comment: ignored by SSE parsers (it has no data).
const KEEP_ALIVE_COMMENT: &[u8] = b": keep-alive\n\n";

/// Dropped with its stream body: the receiving half resolves then, telling
/// whoever waits that the client's response is gone (finished or aborted).
pub type Gone = oneshot::Sender<()>;

/// The parts of a streaming body.
#[derive(Debug)]
pub struct Stream {
    first: Option<Bytes>,
    rest: mpsc::Receiver<Bytes>,
    ping: Interval,
    _gone: Gone,
}

impl Stream {
    /// `first`, then every chunk `rest` gets until its senders are gone,
    /// and a keep-alive comment after each `keep_alive` without one; `gone`
    /// is dropped with the body.
    pub fn new(
        first: Option<Bytes>,
        rest: mpsc::Receiver<Bytes>,
        gone: Gone,
        keep_alive: Duration,
    ) -> Self {
        let every = keep_alive.max(Duration::from_millis(100));
        let mut ping = tokio::time::interval_at(Instant::now() + every, every);
        ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Self {
            first,
            rest,
            ping,
            _gone: gone,
        }
    }
}

/// A response body.
#[derive(Debug)]
pub enum Body {
    /// All of it at once; `None` once sent.
    Full(Option<Bytes>),
    /// A first chunk, then chunks as they come; ends when every sender is
    /// gone.
    Stream(Stream),
}

impl Body {
    /// A complete body.
    pub fn full(text: impl Into<Bytes>) -> Self {
        Body::Full(Some(text.into()))
    }
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            Body::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Body::Stream(stream) => {
                if let Some(first) = stream.first.take() {
                    return Poll::Ready(Some(Ok(Frame::data(first))));
                }
                if let Poll::Ready(chunk) = stream.rest.poll_recv(cx) {
                    stream.ping.reset();
                    return Poll::Ready(chunk.map(|b| Ok(Frame::data(b))));
                }
                match stream.ping.poll_tick(cx) {
                    Poll::Ready(_) => Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(
                        KEEP_ALIVE_COMMENT,
                    ))))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Body::Full(bytes) => bytes.as_ref().is_none_or(Bytes::is_empty),
            Body::Stream(..) => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Body::Full(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64)),
            Body::Stream(..) => SizeHint::default(),
        }
    }
}
