//! What crossed a wire, for the tap tests that compare both sides of tap:
//! a recording TCP relay (each connection's bytes, both ways, kept as they
//! passed) and a small HTTP/1.1 reader that turns those bytes back into
//! exchanges (request and answer: start line, headers, body without its
//! chunked framing), so that what a client sent can be set beside what
//! the server received.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

/// One connection's bytes: what the connecting side sent (`up`) and what
/// it was sent back (`down`).
#[derive(Debug, Clone, Default)]
pub struct Conn {
    /// From the side that connected.
    pub up: Vec<u8>,
    /// To the side that connected.
    pub down: Vec<u8>,
}

/// A relay on `listen` to `target` that keeps every byte it passes.
pub struct Relay {
    /// The port it listens on.
    pub port: u16,
    conns: Arc<Mutex<Vec<Arc<Mutex<Conn>>>>>,
}

impl Relay {
    /// Listens on `listen` (e.g. `127.0.0.1:0`) and passes each connection
    /// on to `target`, byte for byte, recording both ways.
    pub fn start(listen: &str, target: SocketAddr) -> Relay {
        let listener = TcpListener::bind(listen).expect("the relay listens");
        let port = listener.local_addr().expect("an address").port();
        let conns: Arc<Mutex<Vec<Arc<Mutex<Conn>>>>> = Arc::default();
        let all = Arc::clone(&conns);
        thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let Ok(server) = TcpStream::connect(target) else {
                    continue;
                };
                let _ = (client.set_nodelay(true), server.set_nodelay(true));
                let conn: Arc<Mutex<Conn>> = Arc::default();
                all.lock().expect("relay").push(Arc::clone(&conn));
                let (c2, s2) = (
                    client.try_clone().expect("clone"),
                    server.try_clone().expect("clone"),
                );
                let up = Arc::clone(&conn);
                thread::spawn(move || copy(client, server, &up, true));
                thread::spawn(move || copy(s2, c2, &conn, false));
            }
        });
        Relay { port, conns }
    }

    /// The connections so far, with what they carried.
    pub fn conns(&self) -> Vec<Conn> {
        self.conns
            .lock()
            .expect("relay")
            .iter()
            .map(|c| c.lock().expect("conn").clone())
            .collect()
    }
}

/// Copies `from` to `to`, recording into `conn` (`up`: which way); the end
/// of `from` is passed on as the end of `to`'s writing.
fn copy(mut from: TcpStream, mut to: TcpStream, conn: &Mutex<Conn>, up: bool) {
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        {
            let mut conn = conn.lock().expect("conn");
            let side = if up { &mut conn.up } else { &mut conn.down };
            side.extend_from_slice(&buf[..n]);
        }
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Write);
}

/// One HTTP message read back: its start line, its headers (names in
/// lower case, in order) and its body (chunked framing removed); `whole`:
/// the body ended as its framing says (not cut by the connection's end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// `POST /mcp HTTP/1.1` or `HTTP/1.1 200 OK`.
    pub start: String,
    /// Name (lower case) and value.
    pub headers: Vec<(String, String)>,
    /// The body's bytes.
    pub body: Vec<u8>,
    /// Whether the body ended as its framing says.
    pub whole: bool,
}

impl Message {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The status of an answer.
    pub fn status(&self) -> u16 {
        self.start
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0)
    }
}

/// Reads one message off `bytes` from `at`: `answer_to` is the request's
/// method when it is an answer. `None` when no head is there.
fn message(bytes: &[u8], at: &mut usize, answer_to: Option<&str>) -> Option<Message> {
    let rest = &bytes[*at..];
    let end = rest.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&rest[..end]).into_owned();
    *at += end + 4;
    let mut lines = head.split("\r\n");
    let start = lines.next().unwrap_or("").to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let find = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let mut msg = Message {
        start,
        headers: headers.clone(),
        body: Vec::new(),
        whole: true,
    };
    let status = msg.status();
    let bodiless = answer_to == Some("HEAD") || status == 204 || status == 304;
    if bodiless {
        return Some(msg);
    }
    let chunked = find("transfer-encoding").is_some_and(|t| t.contains("chunked"));
    if chunked {
        loop {
            let rest = &bytes[*at..];
            let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") else {
                msg.whole = false;
                *at = bytes.len();
                break;
            };
            let size_text = String::from_utf8_lossy(&rest[..eol]);
            let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
                .unwrap_or(0);
            *at += eol + 2;
            if size == 0 {
                // Trailers (none expected), then the blank line.
                let rest = &bytes[*at..];
                *at += rest
                    .windows(2)
                    .position(|w| w == b"\r\n")
                    .map_or(rest.len(), |p| p + 2);
                break;
            }
            let take = size.min(bytes.len() - *at);
            msg.body.extend_from_slice(&bytes[*at..*at + take]);
            *at += take;
            if take < size || bytes.len() < *at + 2 {
                msg.whole = false;
                *at = bytes.len();
                break;
            }
            *at += 2;
        }
    } else if let Some(length) = find("content-length").and_then(|l| l.parse::<usize>().ok()) {
        let take = length.min(bytes.len() - *at);
        msg.body.extend_from_slice(&bytes[*at..*at + take]);
        *at += take;
        msg.whole = take == length;
    } else if answer_to.is_some() {
        // An answer without a length: its body is the rest.
        msg.body.extend_from_slice(&bytes[*at..]);
        *at = bytes.len();
    }
    Some(msg)
}

/// One request and its answer (none when the connection ended first).
#[derive(Debug, Clone)]
pub struct Exchange {
    /// What the client sent.
    pub request: Message,
    /// What came back.
    pub answer: Option<Message>,
}

/// The exchanges of one connection, in order (HTTP/1.1 without
/// pipelining: one answer per request, in turn).
pub fn exchanges(conn: &Conn) -> Vec<Exchange> {
    let (mut up, mut down) = (0, 0);
    let mut out = Vec::new();
    while let Some(request) = message(&conn.up, &mut up, None) {
        let method = request.start.split(' ').next().unwrap_or("").to_string();
        // Interim answers (1xx) are passed over.
        let mut answer = message(&conn.down, &mut down, Some(&method));
        while answer
            .as_ref()
            .is_some_and(|a| (100..200).contains(&a.status()))
        {
            answer = message(&conn.down, &mut down, Some(&method));
        }
        out.push(Exchange { request, answer });
    }
    out
}

/// Headers that belong to one hop, not to the message: how it is framed
/// and carried, and `Host` (which tap sets to the upstream, as a reverse
/// proxy does).
const HOP: [&str; 8] = [
    "host",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "content-length",
    "te",
    "trailer",
    "upgrade",
];

/// A message as compared: start line (for an answer, its status code),
/// end-to-end headers sorted (names are case-insensitive, order across
/// names means nothing), body as text.
fn key(m: &Message, answer: bool) -> String {
    let start = if answer {
        m.status().to_string()
    } else {
        m.start.clone()
    };
    let mut headers: Vec<String> = m
        .headers
        .iter()
        .filter(|(n, _)| !HOP.contains(&n.as_str()))
        .map(|(n, v)| format!("{n}: {v}"))
        .collect();
    headers.sort();
    format!(
        "{start}\n{}\n\n{}",
        headers.join("\n"),
        String::from_utf8_lossy(&m.body)
    )
}

/// Checks that `near` (what the client side of tap carried) and `far`
/// (what the server side carried) hold the same exchanges: each request as
/// the client sent it reached the server, each answer as the server sent
/// it reached the client, bodies byte for byte, statuses and end-to-end
/// headers unchanged. An answer cut short (a client that left, a stream
/// still open) must be a beginning of the other side's. Returns how many
/// exchanges were compared; panics with both sides when they differ.
pub fn same_exchanges(near: &[Conn], far: &[Conn]) -> usize {
    let group = |conns: &[Conn]| {
        let mut by_request: BTreeMap<String, Vec<Exchange>> = BTreeMap::new();
        for ex in conns.iter().flat_map(exchanges) {
            by_request
                .entry(key(&ex.request, false))
                .or_default()
                .push(ex);
        }
        for list in by_request.values_mut() {
            list.sort_by_key(|ex| ex.answer.as_ref().map(|a| key(a, true)));
        }
        by_request
    };
    let (near, far) = (group(near), group(far));
    let requests = |g: &BTreeMap<String, Vec<Exchange>>| -> Vec<(String, usize)> {
        g.iter().map(|(k, v)| (k.clone(), v.len())).collect()
    };
    assert_eq!(
        requests(&near),
        requests(&far),
        "the requests the client sent are not those the server received"
    );
    let mut count = 0;
    for (request, pairs) in near.iter().map(|(k, v)| (k, v.iter().zip(&far[k]))) {
        for (client, server) in pairs {
            count += 1;
            let (Some(got), Some(sent)) = (&client.answer, &server.answer) else {
                assert!(
                    client.answer.is_none(),
                    "an answer the server never sent reached the client: {request}"
                );
                continue;
            };
            if got.whole && sent.whole {
                assert_eq!(key(got, true), key(sent, true), "the answer to {request}");
            } else {
                assert_eq!(got.status(), sent.status(), "{request}");
                let strip = |m: &Message| Message {
                    body: Vec::new(),
                    ..m.clone()
                };
                assert_eq!(key(&strip(got), true), key(&strip(sent), true), "{request}");
                assert!(
                    sent.body.starts_with(&got.body),
                    "the client got what the server did not send, to {request}:\n{}\n---\n{}",
                    String::from_utf8_lossy(&got.body),
                    String::from_utf8_lossy(&sent.body)
                );
            }
        }
    }
    count
}
