//! `tap --live N`: the conversation as server-sent events on 127.0.0.1:N,
//! for the page (`/?tap=http://127.0.0.1:N/`), which reads them with the
//! core's importer and grader as it reads a recording.
//!
//! `GET /` answers `text/event-stream`: first an event `hello` (`data`:
//! `{"label": ...}`, what the run is called), then each recorded entry (the
//! transcript's wrapper: `message`, `from`, `at_ms`, over HTTP `http`) as a
//! `message` event whose `id` is its index, from the first one, so a page
//! that opens late sees the whole conversation; a client that left, an
//! event `closed` in the same sequence, its data the entry recorded for it
//! ([`super::gone`]); when the server
//! has exited, an event `end`. A reconnecting page sends `Last-Event-ID` and gets what
//! came after it. The same Host and Origin checks as `bridge` hold: a name
//! that is not loopback with this port, or a page other than
//! `--allow-origin`, gets 403 before anything is sent.
//!
//! What it keeps is what the tape keeps (the entries recorded, within a
//! recording's limits); at most [`MAX_WATCHERS`] pages watch at once, each
//! on a thread of its own: a slow page waits alone, the bytes never wait.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::bridge::guard::Policy;

/// How many pages may watch at once (more get 503).
pub const MAX_WATCHERS: usize = 16;

/// The longest request head read (more: the request is dropped).
const MAX_HEAD: u64 = 16 * 1024;

/// How long a request head may take to come.
const HEAD_WAIT: Duration = Duration::from_secs(5);

/// How often a quiet stream says it is alive (a comment line).
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long tap waits, at its end, for the pages to get the `end` event.
const END_WAIT: Duration = Duration::from_secs(1);

/// The conversation so far, shared with every page watching it.
pub struct Hub {
    state: Mutex<Recorded>,
    changed: Condvar,
    watchers: AtomicUsize,
    /// Secrets (credentials in headers and bodies) are redacted before a
    /// page sees them, as in `--out` (all but `--keep-secrets`).
    redact: bool,
}

/// What the hub holds.
struct Recorded {
    label: String,
    entries: Vec<Event>,
    ended: bool,
}

/// One event of the stream: its name (`None`: a recorded entry, sent as
/// `message`) and its data.
#[derive(Clone)]
struct Event(Option<&'static str>, Arc<str>);

impl Hub {
    /// An empty hub for the run called `label`; `redact`: secrets are
    /// redacted from what the pages get.
    pub fn new(label: &str, redact: bool) -> Arc<Hub> {
        Arc::new(Hub {
            state: Mutex::new(Recorded {
                label: label.to_string(),
                entries: Vec::new(),
                ended: false,
            }),
            changed: Condvar::new(),
            watchers: AtomicUsize::new(0),
            redact,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Recorded> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds a recorded entry; every page watching gets it.
    pub fn push(&self, entry: &Value) {
        let text = if self.redact {
            let mut entry = entry.clone();
            mcp_lanes_core::redact::json(&mut entry);
            entry.to_string()
        } else {
            entry.to_string()
        };
        self.lock().entries.push(Event(None, Arc::from(text)));
        self.changed.notify_all();
    }

    /// Adds an event `name` of tap's own in the entries' sequence (`closed`:
    /// the client left, its data the entry recorded for it, which the
    /// page adds to the conversation); every page watching gets it.
    pub fn note(&self, name: &'static str, data: &Value) {
        let text = data.to_string();
        self.lock().entries.push(Event(Some(name), Arc::from(text)));
        self.changed.notify_all();
    }

    /// The conversation is over: each page gets `end`. Waits a little for
    /// the pages watching to get it.
    pub fn end(&self) {
        self.lock().ended = true;
        self.changed.notify_all();
        let until = Instant::now() + END_WAIT;
        while self.watchers.load(Ordering::SeqCst) > 0 && Instant::now() < until {
            thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Listens on 127.0.0.1:`port` (0: any free port); the port it got.
pub fn listen(port: u16) -> io::Result<(TcpListener, u16)> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let port = listener.local_addr()?.port();
    Ok((listener, port))
}

/// Serves `hub` to the pages `origin` allows, on a thread of its own (and
/// one per page watching) until tap exits.
pub fn serve(listener: TcpListener, hub: Arc<Hub>, origin: Option<String>) {
    let port = listener.local_addr().map_or(0, |a| a.port());
    let policy = Arc::new(Policy { port, origin });
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let (hub, policy) = (Arc::clone(&hub), Arc::clone(&policy));
            if hub.watchers.fetch_add(1, Ordering::SeqCst) >= MAX_WATCHERS {
                hub.watchers.fetch_sub(1, Ordering::SeqCst);
                let _ = answer(&stream, "503 Service Unavailable", &[], "too many pages\n");
                continue;
            }
            thread::spawn(move || {
                let _ = watch(stream, &hub, &policy);
                hub.watchers.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
}

/// A request's head: method, and the headers this needs.
#[derive(Debug, Default, PartialEq, Eq)]
struct Head {
    method: String,
    host: Option<String>,
    origin: Option<String>,
    last_event_id: Option<usize>,
}

/// Reads a request head (up to [`MAX_HEAD`] bytes); `None` when it is not
/// one.
fn read_head(stream: &TcpStream) -> Option<Head> {
    stream.set_read_timeout(Some(HEAD_WAIT)).ok()?;
    let mut reader = BufReader::new(stream.take(MAX_HEAD));
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut head = Head {
        method: line.split_whitespace().next()?.to_string(),
        ..Head::default()
    };
    loop {
        line.clear();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let text = line.trim_end();
        if text.is_empty() {
            return Some(head);
        }
        let (name, value) = text.split_once(':')?;
        let value = value.trim().to_string();
        match name.trim().to_ascii_lowercase().as_str() {
            "host" => head.host = Some(value),
            "origin" => head.origin = Some(value),
            "last-event-id" => head.last_event_id = value.parse().ok(),
            _ => {}
        }
    }
}

/// Writes a whole short answer.
fn answer(
    mut stream: &TcpStream,
    status: &str,
    headers: &[(String, String)],
    body: &str,
) -> io::Result<()> {
    let mut text = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    text.push_str("\r\n");
    text.push_str(body);
    stream.write_all(text.as_bytes())
}

/// One page watching: checked, then every entry from where it is, until
/// the end or until it leaves.
fn watch(stream: TcpStream, hub: &Hub, policy: &Policy) -> io::Result<()> {
    let Some(head) = read_head(&stream) else {
        return Ok(());
    };
    if let Err(refusal) = policy.admit(head.host.as_deref(), head.origin.as_deref()) {
        return answer(&stream, "403 Forbidden", &[], &(refusal.explain() + "\n"));
    }
    let cors = policy.cors_headers(head.origin.as_deref());
    match head.method.as_str() {
        "GET" => {}
        "OPTIONS" => {
            let mut headers = policy.preflight_headers(head.origin.as_deref(), None);
            headers.push(("Allow".into(), "GET, OPTIONS".into()));
            return answer(&stream, "204 No Content", &headers, "");
        }
        _ => {
            let mut headers = cors;
            headers.push(("Allow".into(), "GET, OPTIONS".into()));
            return answer(&stream, "405 Method Not Allowed", &headers, "GET only\n");
        }
    }
    let mut out = io::BufWriter::new(&stream);
    let mut text = String::from(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\nConnection: close\r\n",
    );
    for (name, value) in &cors {
        text.push_str(&format!("{name}: {value}\r\n"));
    }
    let label = hub.lock().label.clone();
    text.push_str(&format!(
        "\r\nretry: 1000\nevent: hello\ndata: {}\n\n",
        json!({ "label": label })
    ));
    out.write_all(text.as_bytes())?;
    out.flush()?;
    let mut next = head.last_event_id.map_or(0, |id| id + 1);
    loop {
        let (batch, ended) = {
            let mut state = hub.lock();
            if state.entries.len() <= next && !state.ended {
                state = hub
                    .changed
                    .wait_timeout(state, KEEP_ALIVE)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            let batch: Vec<Event> = state.entries.iter().skip(next).cloned().collect();
            (batch, state.ended)
        };
        if batch.is_empty() && !ended {
            out.write_all(b": alive\n\n")?;
        }
        for Event(name, data) in &batch {
            let text = match name {
                Some(name) => format!("id: {next}\nevent: {name}\ndata: {data}\n\n"),
                None => format!("id: {next}\ndata: {data}\n\n"),
            };
            out.write_all(text.as_bytes())?;
            next += 1;
        }
        if ended && batch.is_empty() {
            out.write_all(b"event: end\ndata: {}\n\n")?;
            return out.flush();
        }
        out.flush()?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(port: u16, extra: &str) -> TcpStream {
        let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        let req = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}\r\n");
        s.write_all(req.as_bytes()).expect("write");
        s
    }

    fn read_all(mut s: TcpStream) -> String {
        s.set_read_timeout(Some(Duration::from_secs(5))).ok();
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        text
    }

    #[test]
    fn a_page_gets_every_entry_from_the_first_then_the_end() {
        let hub = Hub::new("python3 server.py", true);
        hub.push(&json!({"message": {"jsonrpc": "2.0", "id": 1, "method": "ping"}, "from": "client", "at_ms": 0}));
        let (listener, port) = listen(0).expect("listen");
        serve(
            listener,
            Arc::clone(&hub),
            Some("http://page.example".into()),
        );
        let early = get(port, "Origin: http://page.example\r\n");
        thread::sleep(Duration::from_millis(100));
        hub.push(&json!({"message": {"jsonrpc": "2.0", "id": 1, "result": {}}, "from": "server", "at_ms": 2}));
        let resumed = get(port, "Last-Event-ID: 0\r\n");
        thread::sleep(Duration::from_millis(100));
        hub.end();
        let text = read_all(early);
        assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
        assert!(text.contains("Access-Control-Allow-Origin: http://page.example"));
        assert!(text.contains("event: hello\ndata: {\"label\":\"python3 server.py\"}\n\n"));
        assert!(text.contains(
            "id: 0\ndata: {\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"
        ));
        assert!(text.contains("id: 1\ndata: "), "{text}");
        assert!(text.ends_with("event: end\ndata: {}\n\n"), "{text}");
        // From where it left off: the second entry only.
        let text = read_all(resumed);
        assert!(
            !text.contains("id: 0\n") && text.contains("id: 1\n"),
            "{text}"
        );
    }

    #[test]
    fn another_page_or_name_gets_403() {
        let hub = Hub::new("t", true);
        let (listener, port) = listen(0).expect("listen");
        serve(listener, Arc::clone(&hub), None);
        let text = read_all(get(port, "Origin: http://evil.example\r\n"));
        assert!(text.starts_with("HTTP/1.1 403"), "{text}");
        let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        s.write_all(b"GET / HTTP/1.1\r\nHost: rebound.example\r\n\r\n")
            .expect("write");
        assert!(read_all(s).starts_with("HTTP/1.1 403"));
        hub.end();
    }

    #[test]
    fn secrets_are_redacted_before_a_page_sees_them() {
        let hub = Hub::new("t", true);
        hub.push(
            &json!({"message": {"jsonrpc": "2.0", "id": 1, "method": "ping"},
            "from": "client", "at_ms": 0,
            "http": {"method": "POST", "headers": {"Authorization": "Bearer s3cr3t-token"}}}),
        );
        let kept = hub.lock().entries[0].1.to_string();
        assert!(!kept.contains("s3cr3t-token"), "{kept}");
    }
}
