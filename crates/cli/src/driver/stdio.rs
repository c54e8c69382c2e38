//! The stdio driver: the server is a child process; every message the
//! client sends is one line on its stdin, every line on its stdout goes to
//! the client. Lines are bounded, writes have deadlines, stderr is kept
//! (its last few kilobytes) for the error message, and a child that exits
//! fails whatever the client waits on (C-EXCHANGE-FAILED).

use std::process::Stdio;

use mcp_lanes_core::client::TransportFailure;
use mcp_lanes_core::rules;
use mcp_lanes_core::sim::{EventKind, Side};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::time::{timeout_at, Instant};

use super::{Limits, OpenError, ProblemKind, Session};
use crate::i18n::Keyed;

/// How much of the child's stderr is kept.
const STDERR_TAIL: usize = 4096;

/// What the child wrote on stdout, a line at a time.
#[derive(Debug)]
pub(crate) enum Line {
    /// A line without its newline (lossy if it was not UTF-8).
    Text(String),
    /// A line longer than the limit, skipped; its length.
    TooLong(usize),
    /// stdout closed, or reading it failed.
    End(String),
}

/// A running server process.
pub(crate) struct StdioWire {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<Line>,
    stderr: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    /// The child's stderr has ended.
    stderr_done: std::sync::Arc<std::sync::atomic::AtomicBool>,
    limits: Limits,
    /// stdout has ended: the server is gone.
    ended: Option<String>,
}

impl StdioWire {
    /// Starts `command` (no shell) with piped stdin, stdout and stderr.
    pub(crate) fn spawn(command: &[String], limits: Limits) -> Result<StdioWire, OpenError> {
        let Some((program, args)) = command.split_first() else {
            return Err(OpenError::Usage(Keyed::new(
                "cli.usage.empty_command",
                "the command is empty",
                &[],
            )));
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| OpenError::Unreachable(format!("cannot start {program:?}: {e}")))?;
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel(64);
        if let Some(stdout) = child.stdout.take() {
            tokio::spawn(read_lines(BufReader::new(stdout), limits.max_message, tx));
        }
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let stderr_done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        if let Some(mut err) = child.stderr.take() {
            let keep = stderr.clone();
            let done = stderr_done.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                while let Ok(n) = err.read(&mut buf).await {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut kept) = keep.lock() {
                        kept.extend_from_slice(&buf[..n]);
                        let excess = kept.len().saturating_sub(STDERR_TAIL);
                        kept.drain(..excess);
                    }
                }
                done.store(true, std::sync::atomic::Ordering::Release);
            });
        }
        Ok(StdioWire {
            child,
            stdin,
            lines,
            stderr,
            stderr_done,
            limits,
            ended: None,
        })
    }

    /// The next line the child wrote on stdout (`None` once its reader
    /// stopped); used by the bridge, which reads while it writes.
    pub(crate) async fn next_line(&mut self) -> Option<Line> {
        self.lines.recv().await
    }

    /// The last lines the child wrote on stderr.
    pub(crate) fn stderr_tail(&self) -> Option<String> {
        let kept = self.stderr.lock().ok()?;
        let text = String::from_utf8_lossy(&kept).trim().to_string();
        (!text.is_empty()).then_some(text)
    }

    /// Writes one line, within the exchange limit.
    pub(crate) async fn write_line(&mut self, text: &str) -> Result<(), TransportFailure> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(TransportFailure::Closed(
                "the server's stdin is closed".into(),
            ));
        };
        let mut line = Vec::with_capacity(text.len() + 1);
        line.extend_from_slice(text.as_bytes());
        line.push(b'\n');
        let deadline = Instant::now() + self.limits.exchange;
        let write = async {
            stdin.write_all(&line).await?;
            stdin.flush().await
        };
        match timeout_at(deadline, write).await {
            Err(_) => Err(TransportFailure::Closed(format!(
                "the server did not read its stdin within {} ms",
                self.limits.exchange.as_millis()
            ))),
            Ok(Err(e)) => Err(TransportFailure::Closed(format!(
                "cannot write to the server's stdin: {e}"
            ))),
            Ok(Ok(())) => Ok(()),
        }
    }

    /// How the process ended, if it has (and, once it has, its stderr read
    /// to the end, a moment at most).
    pub(crate) async fn exit_status(&mut self) -> String {
        let status = match timeout_at(
            Instant::now() + std::time::Duration::from_millis(500),
            self.child.wait(),
        )
        .await
        {
            Ok(Ok(status)) => format!("the server process exited ({status})"),
            Ok(Err(e)) => format!("the server process is gone ({e})"),
            Err(_) => return "the server closed its stdout".to_string(),
        };
        let until = Instant::now() + std::time::Duration::from_millis(300);
        while !self.stderr_done.load(std::sync::atomic::Ordering::Acquire) && Instant::now() < until
        {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        status
    }

    /// Ends the child: end of input, a second to exit, then kill.
    pub(crate) async fn close(mut self) -> Option<String> {
        drop(self.stdin.take());
        let deadline = Instant::now() + std::time::Duration::from_secs(1);
        if timeout_at(deadline, self.child.wait()).await.is_err() {
            let _ = self.child.kill().await;
        }
        self.stderr_tail()
    }
}

/// Reads stdout a line at a time into the channel, keeping at most `max`
/// bytes of a line.
async fn read_lines<R: tokio::io::AsyncBufRead + Unpin>(
    mut reader: R,
    max: usize,
    tx: mpsc::Sender<Line>,
) {
    loop {
        let mut line: Vec<u8> = Vec::new();
        let mut total = 0usize;
        let mut ended = false;
        let mut reported = false;
        loop {
            let available = match reader.fill_buf().await {
                Ok(bytes) => bytes,
                Err(e) => {
                    let _ = tx
                        .send(Line::End(format!("reading its stdout failed: {e}")))
                        .await;
                    return;
                }
            };
            if available.is_empty() {
                ended = true;
                break;
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            total = total.saturating_add(chunk.len());
            if total <= max {
                line.extend_from_slice(chunk);
            }
            let used = chunk.len() + usize::from(newline.is_some());
            reader.consume(used);
            if total > max && !reported {
                // Said at once: the rest of the line may never come.
                reported = true;
                line = Vec::new();
                if tx.send(Line::TooLong(total)).await.is_err() {
                    return;
                }
            }
            if newline.is_some() {
                break;
            }
        }
        if total > max {
            // Already reported; the rest of it was skipped.
        } else if !line.is_empty() || !ended {
            let text = String::from_utf8_lossy(&line)
                .trim_end_matches('\r')
                .to_string();
            if !text.trim().is_empty() && tx.send(Line::Text(text)).await.is_err() {
                return;
            }
        }
        if ended {
            let _ = tx.send(Line::End("it closed its stdout".into())).await;
            return;
        }
    }
}

/// Runs the client's script over the child's stdio.
pub(super) async fn run(wire: &mut StdioWire, session: &mut Session) {
    let now = session.now();
    session.client.start(now);
    loop {
        while let Some(out) = session.next_send() {
            if let Err(failure) = wire.write_line(&out.text).await {
                if wire.ended.is_none() && wire.child.try_wait().ok().flatten().is_some() {
                    // The write failed because the server is gone: say how.
                    server_gone(wire, session, failure.describe()).await;
                    let why = wire.ended.clone().unwrap_or_else(|| failure.describe());
                    fail(session, out.awaited, TransportFailure::Closed(why));
                    continue;
                }
                fail(session, out.awaited, failure);
            } else {
                session.rec.delivered(out.event);
            }
        }
        if session.closed {
            drop(wire.stdin.take());
        }
        if session.over_time() {
            session.stop_run();
            return;
        }
        if session.closed || session.client.is_done() {
            return;
        }
        if let Some(why) = wire.ended.clone() {
            // The server is gone: whatever the client waits on fails now,
            // and nothing else can arrive.
            if session.client.awaited().is_some() {
                let awaited = session.client.awaited().map(|a| a.serial);
                fail(session, awaited, TransportFailure::Closed(why));
                continue;
            }
            if session.client.poll_timeout().is_none() {
                return;
            }
        }
        if session.client.poll_timeout().is_none() && session.client.awaited().is_none() {
            session.stalled();
            return;
        }
        let deadline = session.next_deadline().unwrap_or(session.deadline);
        tokio::select! {
            line = wire.lines.recv(), if wire.ended.is_none() => match line {
                Some(Line::Text(text)) => {
                    if session.flooded() {
                        return;
                    }
                    session.received(
                        &text,
                        None,
                        mcp_lanes_core::note!("driver.stdout_line", "A line on the server's stdout."),
                    );
                    let now = session.now();
                    session.client.handle_text(now, &text);
                }
                Some(Line::TooLong(len)) => {
                    let limit = session.limits.max_message;
                    let failure = TransportFailure::TooLarge(format!(
                        "the server wrote a line of {len} bytes, over the {limit}-byte limit"
                    ));
                    let awaited = session.client.awaited().map(|a| a.serial);
                    fail(session, awaited, failure);
                }
                Some(Line::End(why)) => server_gone(wire, session, why).await,
                None => server_gone(wire, session, "its stdout reader stopped".into()).await,
            },
            _ = tokio::time::sleep_until(deadline) => {
                if session.over_time() {
                    session.stop_run();
                    return;
                }
                let now = session.now();
                session.client.handle_timeout(now);
            }
        }
    }
}

async fn server_gone(wire: &mut StdioWire, session: &mut Session, why: String) {
    let status = wire.exit_status().await;
    let mut detail = format!("{status}: {why}");
    if let Some(tail) = wire.stderr_tail() {
        let last: Vec<&str> = tail.lines().rev().take(3).collect();
        let last: Vec<&str> = last.into_iter().rev().collect();
        detail.push_str(&format!("; its stderr ends: {}", last.join(" | ")));
    }
    session.rec.push(
        EventKind::Disconnected { side: Side::Server },
        vec![rules::C_EXCHANGE_FAILED],
        mcp_lanes_core::note!(
            "driver.server_gone",
            "The server is gone: {detail}.",
            detail = detail
        ),
    );
    // The exit status and the server's words, as they came.
    session.problem(ProblemKind::ServerExited, detail.clone().into());
    wire.ended = Some(detail);
}

/// An exchange failed: the client hears of it if it waits on it.
fn fail(session: &mut Session, awaited: Option<u64>, failure: TransportFailure) {
    session.exchange_failed(
        awaited,
        failure,
        mcp_lanes_core::note!("driver.lost_undelivered", "could not be delivered"),
    );
}
