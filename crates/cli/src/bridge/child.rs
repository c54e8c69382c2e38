//! The bridge's child: one task owns the stdio server (the `client`
//! driver's [`StdioWire`]: bounded lines, write deadlines, the stderr tail,
//! the exit status) and routes what it writes to the HTTP requests waiting
//! for it.
//!
//! Routing: an answer (a message with an `id` and no `method`) goes to the
//! request that sent that id; anything else the server writes (its
//! notifications and requests) goes to the oldest request in flight that
//! accepts an SSE stream, or is dropped (logged) when there is none. A line
//! that is not JSON answers the oldest request in flight, as it is (the
//! client then sees what the server really said). When the child exits,
//! every request in flight and every later one is told how it ended.

use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};

use crate::driver::stdio::{Line, StdioWire};
use crate::log;

/// What a waiting request receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// The server's answer to it: the last thing it receives.
    Answer(String),
    /// A message of the server's own (a notification or a request), while
    /// it waits.
    Related(String),
    /// It will get no answer: the server is gone or wrote a line too long.
    Failed(String),
}

/// A request waiting for its answer.
#[derive(Debug)]
struct Waiter {
    serial: u64,
    /// The JSON text of the id it waits on (`null` for a body that is not a
    /// request object: the server's error answer carries `id: null`).
    key: String,
    /// It accepts an SSE stream, so the server's own messages may go to it.
    streams: bool,
    tx: mpsc::Sender<Delivery>,
}

/// The requests in flight, oldest first.
#[derive(Debug, Default)]
struct Routes {
    next: u64,
    waiting: Vec<Waiter>,
}

/// How many deliveries one request may have queued; more are dropped (a
/// flooding server cannot grow the bridge's memory).
const QUEUE: usize = 256;

/// A write for the child, with where to say how it went.
struct Write {
    text: String,
    done: oneshot::Sender<Result<(), String>>,
}

/// The handle HTTP requests use to reach the child.
#[derive(Clone)]
pub struct Link {
    writes: mpsc::Sender<Write>,
    routes: Arc<Mutex<Routes>>,
    exited: watch::Receiver<Option<String>>,
    started: std::time::Instant,
}

/// A registered request: receives its deliveries; unregisters when dropped.
pub struct Waiting {
    serial: u64,
    routes: Arc<Mutex<Routes>>,
    /// What the child sends this request.
    pub rx: mpsc::Receiver<Delivery>,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if let Ok(mut routes) = self.routes.lock() {
            routes.waiting.retain(|w| w.serial != self.serial);
        }
    }
}

/// Why a request cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Busy {
    /// The server is gone (how it ended).
    Exited(String),
    /// A request with the same id is already in flight.
    SameId(String),
}

impl Link {
    /// How the child ended, once it has.
    pub fn exited(&self) -> Option<String> {
        self.exited.borrow().clone()
    }

    /// Waits for the answer to the request id `key` (see [`Waiter::key`]).
    pub fn register(&self, key: String, streams: bool) -> Result<Waiting, Busy> {
        if let Some(why) = self.exited() {
            return Err(Busy::Exited(why));
        }
        let Ok(mut routes) = self.routes.lock() else {
            return Err(Busy::Exited("the bridge's routing table is broken".into()));
        };
        if routes.waiting.iter().any(|w| w.key == key) {
            return Err(Busy::SameId(key));
        }
        let (tx, rx) = mpsc::channel(QUEUE);
        routes.next += 1;
        let serial = routes.next;
        routes.waiting.push(Waiter {
            serial,
            key,
            streams,
            tx,
        });
        Ok(Waiting {
            serial,
            routes: Arc::clone(&self.routes),
            rx,
        })
    }

    /// Writes one line to the child (its deadline is the driver's).
    pub async fn write(&self, text: String) -> Result<(), String> {
        if let Some(why) = self.exited() {
            return Err(why);
        }
        let (done, result) = oneshot::channel();
        if self.writes.send(Write { text, done }).await.is_err() {
            return Err(self
                .exited()
                .unwrap_or_else(|| "the server process is gone".into()));
        }
        result.await.unwrap_or_else(|_| {
            Err(self
                .exited()
                .unwrap_or_else(|| "the server process is gone".into()))
        })
    }

    /// Milliseconds since the bridge started (for log lines).
    pub fn now(&self) -> u64 {
        log::millis_since(self.started)
    }
}

/// Starts the task that owns `wire`; it runs until `stop` turns true (then
/// it ends the child) or the child exits (then it reports how).
pub fn start(wire: StdioWire, stop: watch::Receiver<bool>) -> Link {
    let (writes, writes_rx) = mpsc::channel(64);
    let routes = Arc::new(Mutex::new(Routes::default()));
    let (exited_tx, exited) = watch::channel(None);
    let link = Link {
        writes,
        routes: Arc::clone(&routes),
        exited,
        started: std::time::Instant::now(),
    };
    tokio::spawn(own(wire, writes_rx, routes, exited_tx, stop, link.started));
    link
}

async fn own(
    mut wire: StdioWire,
    mut writes: mpsc::Receiver<Write>,
    routes: Arc<Mutex<Routes>>,
    exited: watch::Sender<Option<String>>,
    mut stop: watch::Receiver<bool>,
    started: std::time::Instant,
) {
    let now = || log::millis_since(started);
    let why = loop {
        tokio::select! {
            write = writes.recv() => match write {
                Some(write) => {
                    let result = wire.write_line(&write.text).await.map_err(|f| f.describe());
                    let _ = write.done.send(result);
                }
                None => break None,
            },
            line = wire.next_line() => match line {
                Some(Line::Text(text)) => route(&routes, text, now()),
                Some(Line::TooLong(len)) => {
                    let why = format!("the server wrote a line of {len} bytes, over the bridge's limit");
                    log::line(now(), &why);
                    if let Some(tx) = oldest(&routes, false) {
                        let _ = tx.try_send(Delivery::Failed(why));
                    }
                }
                Some(Line::End(why)) => break Some(why),
                None => break Some("its stdout reader stopped".to_string()),
            },
            _ = stopped(&mut stop) => break None,
        }
    };
    let Some(why) = why else {
        if let Some(tail) = wire.close().await {
            log::line(
                now(),
                &format!("the server's stderr ends: {}", last_lines(&tail)),
            );
        }
        return;
    };
    let mut detail = format!("{}: {why}", wire.exit_status().await);
    if let Some(tail) = wire.stderr_tail() {
        detail.push_str(&format!("; its stderr ends: {}", last_lines(&tail)));
    }
    log::line(
        now(),
        &format!("{detail}; every request now gets 502 (restart the bridge)"),
    );
    let _ = exited.send(Some(detail.clone()));
    let waiting = match routes.lock() {
        Ok(mut routes) => std::mem::take(&mut routes.waiting),
        Err(_) => Vec::new(),
    };
    for waiter in waiting {
        let _ = waiter.tx.try_send(Delivery::Failed(detail.clone()));
    }
    // Writes racing with the exit hear of it too.
    while let Some(write) = writes.recv().await {
        let _ = write.done.send(Err(detail.clone()));
    }
}

/// Resolves once the bridge stops (never, if its sender is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|s| *s).await.map(|_| ()).is_err() {
        std::future::pending::<()>().await;
    }
}

/// The last three lines of the child's stderr, on one line.
fn last_lines(tail: &str) -> String {
    let last: Vec<&str> = tail.lines().rev().take(3).collect();
    last.into_iter().rev().collect::<Vec<_>>().join(" | ")
}

/// The oldest request in flight (that accepts a stream, if `streams`).
fn oldest(routes: &Mutex<Routes>, streams: bool) -> Option<mpsc::Sender<Delivery>> {
    let routes = routes.lock().ok()?;
    routes
        .waiting
        .iter()
        .find(|w| w.streams || !streams)
        .map(|w| w.tx.clone())
}

/// Sends one line of the child's stdout where it belongs.
fn route(routes: &Mutex<Routes>, text: String, now: u64) {
    let parsed = serde_json::from_str::<Value>(&text).ok();
    let answer_key = match &parsed {
        Some(Value::Object(m)) if !m.contains_key("method") => m.get("id").map(Value::to_string),
        _ => None,
    };
    if let Some(key) = answer_key {
        let tx = routes.lock().ok().and_then(|mut routes| {
            let at = routes.waiting.iter().position(|w| w.key == key)?;
            Some(routes.waiting.remove(at).tx)
        });
        match tx {
            Some(tx) => {
                let _ = tx.try_send(Delivery::Answer(text));
            }
            None => log::line(
                now,
                &format!("dropped an answer with id {key}: no request in flight has that id"),
            ),
        }
        return;
    }
    let Some(parsed) = parsed else {
        // Not JSON: the oldest request gets it as its answer.
        let tx = routes.lock().ok().and_then(|mut routes| {
            (!routes.waiting.is_empty()).then(|| routes.waiting.remove(0).tx)
        });
        match tx {
            Some(tx) => {
                let _ = tx.try_send(Delivery::Answer(text));
            }
            None => log::line(
                now,
                "dropped a line that is not JSON: no request in flight to answer",
            ),
        }
        return;
    };
    match oldest(routes, true) {
        Some(tx) => {
            if tx.try_send(Delivery::Related(text)).is_err() {
                log::line(
                    now,
                    &format!(
                        "dropped {}: its request's stream is full",
                        log::label(&parsed)
                    ),
                );
            }
        }
        None => log::line(
            now,
            &format!(
                "dropped {}: no request in flight accepts an SSE stream to carry it",
                log::label(&parsed)
            ),
        ),
    }
}
