//! A side that leaves: what tap says when the client closes its end or
//! stops reading (stdio), or drops its connection before an answer has
//! come or ended (HTTP), and what tap then does as a proxy does. Over
//! stdio the server's stdin is closed and tap waits for the server to exit
//! (its status is tap's), ending it after [`GRACE`] if it does not; over
//! HTTP the proxy stays up for the next client.
//!
//! Each departure is recorded as an entry of the transcript, `{"left":
//! "client", "why": ..., "at_ms": ...}` (over HTTP with `request`, the
//! request it left during, `events`, the messages of its answer passed,
//! and `http` naming its session), which the importer reads as the client
//! disconnecting: `--out`, `check --transcript` and the page draw and
//! grade it as a simulated client leaving. It is one line in the log
//! (stderr or `--log`), after the messages before it, and an event
//! `closed` on the live stream whose `data` is that entry (with its `id`
//! in the entries' sequence), which the page adds to the conversation.

use std::io;
use std::process::{Child, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::json;

use super::live::Hub;
use super::log::Fed;
use super::proxy::Shared;
use super::tape::Tape;
use crate::i18n::Catalog;

/// How long the server has to exit once the client has closed its stdin
/// before tap ends it (the MCP stdio shutdown: close the input, wait,
/// then stop the process).
pub const GRACE: Duration = Duration::from_secs(5);

/// How a client left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gone {
    /// Stdio: the client closed tap's stdin (or was killed).
    ClosedStdin,
    /// Stdio: the client no longer reads tap's stdout.
    StoppedReading,
    /// HTTP: the client dropped its connection before the upstream
    /// answered its request (`method path`).
    BeforeAnswer(String),
    /// HTTP: the client dropped its connection while an answer's body (an
    /// SSE stream) was passing, after `events` messages of it.
    MidStream(String, usize),
}

impl Gone {
    /// The word on the live stream.
    fn why(&self) -> &'static str {
        match self {
            Gone::ClosedStdin => "closed_stdin",
            Gone::StoppedReading => "stopped_reading",
            Gone::BeforeAnswer(_) => "before_answer",
            Gone::MidStream(..) => "mid_stream",
        }
    }

    /// The recorded entry's words on how it left: `why`, and over HTTP
    /// `request` (`method path`) and, mid-stream, `events`.
    pub fn fields(&self) -> serde_json::Value {
        match self {
            Gone::ClosedStdin | Gone::StoppedReading => json!({"why": self.why()}),
            Gone::BeforeAnswer(request) => json!({"why": self.why(), "request": request}),
            Gone::MidStream(request, events) => {
                json!({"why": self.why(), "request": request, "events": events})
            }
        }
    }

    /// The log's line, in `lang`.
    pub fn words(&self, lang: &Catalog) -> String {
        match self {
            Gone::ClosedStdin => lang.text(
                "cli.tap.client_closed",
                "the client closed its end (stdin): the server's stdin is closed, tap waits for the server to exit",
            ),
            Gone::StoppedReading => lang.text(
                "cli.tap.client_stopped_reading",
                "the client no longer reads: what the server sends now is recorded, not passed on",
            ),
            Gone::BeforeAnswer(request) => lang.fill(
                "cli.tap.client_left_before_answer",
                "the client dropped its connection before the answer to {request} came: the request to the upstream is dropped, the proxy goes on",
                &[("request", request.clone())],
            ),
            Gone::MidStream(request, events) => lang.fill(
                "cli.tap.client_left_mid_stream",
                "the client dropped its connection during the answer to {request} ({events} messages passed): the upstream stream is closed, the proxy goes on",
                &[("request", request.clone()), ("events", events.to_string())],
            ),
        }
    }
}

/// Says that the client left (`session`: the HTTP session it left):
/// recorded, a line in the log (after the messages before it), an event
/// on the live stream.
pub(super) fn said(
    tape: &Mutex<Tape>,
    log: &Sender<Fed>,
    live: Option<&Hub>,
    gone: Gone,
    session: Option<&str>,
) {
    let (entry, recorded) = tape
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .record_departure(gone.fields(), session);
    if let Some(hub) = live {
        hub.note("closed", &entry);
    }
    let _ = log.send(Fed::Gone(gone, recorded.then_some(entry)));
}

/// Armed while a request waits for its answer, or while an answer's body
/// passes; dropped armed (the client's connection went first, and hyper
/// dropped what served it), it says how the client left.
pub(super) struct Watch {
    shared: Arc<Shared>,
    request: String,
    /// The request's `Mcp-Session-Id`, if it had one.
    session: Option<String>,
    /// Messages of the answer passed so far.
    pub events: usize,
    /// Whether the answer came (its body is passing).
    body: bool,
    /// Cleared when it ended as it should (set from `&self` too: a body
    /// asked whether it is at its end).
    armed: AtomicBool,
}

impl Watch {
    /// Watches `request` (`method path`, of the session `session`) from
    /// before it is passed on.
    pub fn new(shared: &Arc<Shared>, request: String, session: Option<String>) -> Watch {
        Watch {
            shared: Arc::clone(shared),
            request,
            session,
            events: 0,
            body: false,
            armed: AtomicBool::new(true),
        }
    }

    /// The answer came: from now on, its body is watched.
    pub fn answered(&mut self) {
        self.body = true;
    }

    /// It ended as it should: nothing to say.
    pub fn disarm(&self) {
        self.armed.store(false, Ordering::Relaxed);
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if !self.armed.load(Ordering::Relaxed) {
            return;
        }
        let request = std::mem::take(&mut self.request);
        let gone = if self.body {
            Gone::MidStream(request, self.events)
        } else {
            Gone::BeforeAnswer(request)
        };
        let shared = &self.shared;
        said(
            &shared.tape,
            &shared.log,
            shared.live.as_deref(),
            gone,
            self.session.as_deref(),
        );
    }
}

/// Waits for the server to exit; once the client has left (`client_left`
/// says so), for at most [`GRACE`], then ends it (said on stderr).
pub(super) fn wait_server(
    child: &mut Child,
    client_left: &Receiver<()>,
    lang: &Catalog,
) -> io::Result<ExitStatus> {
    let mut deadline: Option<Instant> = None;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        match deadline {
            None => match client_left.recv_timeout(Duration::from_millis(50)) {
                Ok(()) => deadline = Some(Instant::now() + GRACE),
                Err(RecvTimeoutError::Timeout) => {}
                // The pump is gone without a word: wait as before.
                Err(RecvTimeoutError::Disconnected) => return child.wait(),
            },
            Some(at) if Instant::now() >= at => {
                super::say(&lang.fill(
                    "cli.tap.server_ended",
                    "the server did not exit within {seconds} s of the client leaving: tap ends it",
                    &[("seconds", GRACE.as_secs().to_string())],
                ));
                let _ = child.kill();
                return child.wait();
            }
            Some(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}
