//! The socket under one connection, with a write-stall deadline: a client
//! that stops reading (a full send buffer for longer than the deadline,
//! e.g. one that never reads its SSE stream) gets its connection closed
//! instead of holding it forever.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{sleep, Instant, Sleep};

/// A stream (a TCP socket; in memory for the fuzz target) whose writes
/// fail after stalling for `limit`.
#[derive(Debug)]
pub struct Guarded<S> {
    stream: S,
    limit: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl<S> Guarded<S> {
    /// Wraps `stream`.
    pub fn new(stream: S, limit: Duration) -> Self {
        Self {
            stream,
            limit,
            stalled: None,
        }
    }

    /// The stream back, e.g. for a lingering close.
    pub fn into_inner(self) -> S {
        self.stream
    }

    /// Turns a pending write into an error once it has stalled too long;
    /// any progress clears the deadline.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let limit = self.limit;
        let timer = self.stalled.get_or_insert_with(|| Box::pin(sleep(limit)));
        if timer.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            )));
        }
        Poll::Pending
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.watch(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        this.watch(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_flush(cx);
        this.watch(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Closes without turning the close into a reset: stop sending, then drain
/// what the client still sends for a short while, so unread request bytes
/// (e.g. the body of a refused request) do not make the kernel discard the
/// answer before the client reads it (a "lingering close").
pub async fn linger(mut stream: TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = stream.shutdown().await;
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut sink = [0u8; 16 * 1024];
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut sink)).await {
            Ok(Ok(0)) | Ok(Err(_)) | Err(_) => return,
            Ok(Ok(_)) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncWriteExt;

    #[test]
    fn a_client_that_never_reads_fails_the_write_after_the_stall_limit() {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            panic!("no runtime")
        };
        runtime.block_on(async {
            // The other end never reads: the 1 KiB pipe fills up.
            let (_reader, writer) = tokio::io::duplex(1024);
            let mut guarded = Guarded::new(writer, Duration::from_millis(200));
            let began = Instant::now();
            let written = guarded.write_all(&vec![b'x'; 64 * 1024]).await;
            let err = written.expect_err("the write must fail, not hang");
            assert_eq!(err.kind(), io::ErrorKind::TimedOut);
            assert!(began.elapsed() >= Duration::from_millis(200));
            assert!(began.elapsed() < Duration::from_secs(5));
        });
    }
}
