//! Response bodies: complete (framed with `Content-Length`) or a stream of
//! SSE chunks fed through a bounded channel (framed with chunked transfer
//! coding), which ends when its sender is dropped.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use hyper::body::{Frame, SizeHint};
use tokio::sync::mpsc;

/// A response body.
#[derive(Debug)]
pub enum Body {
    /// All of it at once; `None` once sent.
    Full(Option<Bytes>),
    /// A first chunk, then chunks as they come; ends when every sender is
    /// gone.
    Stream(Option<Bytes>, mpsc::Receiver<Bytes>),
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
            Body::Stream(first, rest) => match first.take() {
                Some(first) => Poll::Ready(Some(Ok(Frame::data(first)))),
                None => rest.poll_recv(cx).map(|c| c.map(|b| Ok(Frame::data(b)))),
            },
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
