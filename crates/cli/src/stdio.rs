//! `mcp-lanes serve --transport stdio`: the simulated server on real
//! stdin/stdout, one JSON-RPC message per line each way (newline-delimited,
//! as the MCP stdio transport frames them). The log goes to stderr.

use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use mcp_lanes_core::server::{ConnId, OutputKind, Server, ServerConfig, MAX_MESSAGE_BYTES};
use mcp_lanes_core::sim::served::{Due, ServedScript};
use mcp_lanes_core::sim::SimTime;
use serde_json::Value;

use crate::{edge, log, Failure};

/// Serves `config` on stdin/stdout until stdin closes, playing `script`
/// (a scenario file's scripted server events) on the wall clock.
pub fn serve(config: ServerConfig, mut script: ServedScript) -> Result<(), Failure> {
    let start = Instant::now();
    log::line(
        0,
        &format!(
            "serving {} on stdio: one JSON-RPC message per line on stdin, replies on stdout, this log on stderr",
            config.label()
        ),
    );
    let mut server = Server::new(config);
    server.set_state_key(&crate::state_key::random()?);
    let stdout = io::stdout().lock();
    if script.is_empty() {
        let stdin = io::stdin().lock();
        return serve_io(&mut server, stdin, stdout, || log::millis_since(start));
    }
    // Scripted events come at their time, also while stdin is quiet: a
    // thread reads the lines, this one waits for a line or the next event.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        loop {
            let line = read_line(&mut stdin, MAX_MESSAGE_BYTES);
            let last = !matches!(line, Ok(Some(_)));
            if tx.send(line).is_err() || last {
                break;
            }
        }
    });
    let next = |wait: Option<Duration>| match wait {
        Some(wait) => match rx.recv_timeout(wait) {
            Ok(line) => Some(line),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => Some(Ok(None)),
        },
        None => Some(rx.recv().unwrap_or(Ok(None))),
    };
    serve_lines(&mut server, &mut script, next, stdout, || {
        log::millis_since(start)
    })
}

/// One line read from the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its `\n`.
    Complete(Vec<u8>),
    /// A line longer than the limit, of this many bytes, skipped unread.
    TooLong(u64),
}

/// Reads one `\n`-terminated line (the last may lack it), keeping at most
/// `max` bytes in memory: a longer line is skipped to its end and reported
/// as [`Line::TooLong`]. `None` at end of input.
pub fn read_line<R: BufRead>(input: &mut R, max: usize) -> io::Result<Option<Line>> {
    let mut buf = Vec::new();
    let mut total: u64 = 0;
    let mut too_long = false;
    let mut seen_any = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if available.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let newline = available.iter().position(|&b| b == b'\n');
        let chunk = &available[..newline.unwrap_or(available.len())];
        total += chunk.len() as u64;
        if !too_long {
            if buf.len() + chunk.len() > max {
                too_long = true;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(chunk);
            }
        }
        let used = chunk.len() + usize::from(newline.is_some());
        input.consume(used);
        if newline.is_some() {
            break;
        }
    }
    Ok(Some(if too_long {
        Line::TooLong(total)
    } else {
        Line::Complete(buf)
    }))
}

/// Writes one message as one line and flushes it.
fn send<W: Write>(output: &mut W, message: &Value) -> Result<(), Failure> {
    let mut text = message.to_string();
    text.push('\n');
    output
        .write_all(text.as_bytes())
        .and_then(|()| output.flush())
        .map_err(Failure::stdout)
}

/// The serving loop over any line input and output; `clock` gives the
/// milliseconds since start handed to the core as its time.
pub fn serve_io<R: BufRead, W: Write>(
    server: &mut Server,
    mut input: R,
    output: W,
    clock: impl Fn() -> u64,
) -> Result<(), Failure> {
    let next = |_: Option<Duration>| Some(read_line(&mut input, MAX_MESSAGE_BYTES));
    serve_lines(server, &mut ServedScript::default(), next, output, clock)
}

/// The serving loop: `next(wait)` gives the next line, or `None` when
/// `wait` passed first; the script's events due go out at their time.
pub fn serve_lines<W: Write>(
    server: &mut Server,
    script: &mut ServedScript,
    mut next: impl FnMut(Option<Duration>) -> Option<io::Result<Option<Line>>>,
    mut output: W,
    clock: impl Fn() -> u64,
) -> Result<(), Failure> {
    let outcome = loop {
        if let Err(failure) = play_due(server, script, &mut output, clock()) {
            break Err(failure);
        }
        let wait = script
            .next_at()
            .map(|at| Duration::from_millis(at.as_millis().saturating_sub(clock())));
        let line = match next(wait) {
            None => continue,
            Some(Ok(Some(line))) => line,
            Some(Ok(None)) => break Ok(()),
            Some(Err(err)) => break Err(Failure::Io(format!("cannot read stdin: {err}"))),
        };
        if let Err(failure) = handle_line(server, script, line, &mut output, &clock) {
            break Err(failure);
        }
    };
    let now = clock();
    match &outcome {
        Ok(()) => log::line(now, "stdin closed: the client disconnected"),
        Err(Failure::StdoutClosed) => log::line(now, "stdout closed: the client went away"),
        Err(_) => {}
    }
    server.handle_disconnect(SimTime::from_millis(now), &ConnId::stdio());
    while let Some(out) = server.poll_output() {
        log::output(now, &out, "not sent: the connection is closed");
    }
    outcome
}

/// Sends the script's notifications due at `now` and applies its list
/// changes (whose notifications the server sends).
fn play_due<W: Write>(
    server: &mut Server,
    script: &mut ServedScript,
    output: &mut W,
    now: u64,
) -> Result<(), Failure> {
    for due in script.due(SimTime::from_millis(now)) {
        match due {
            Due::Notify(message) => {
                log::line(
                    now,
                    &format!("scripted: {} sent on its own", log::label(&message)),
                );
                send(output, &message)?;
            }
            Due::Trigger(change) => {
                server.trigger(SimTime::from_millis(now), change);
                while let Some(out) = server.poll_output() {
                    log::output(now, &out, "written to stdout");
                    if let OutputKind::Send { message, .. } = &out.kind {
                        send(output, message)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Handles one input line: the core's reply (or an edge reply) and any
/// messages the server sends on its own go to `output`, in the order the
/// simulation uses (the server's own messages first, then the reply).
fn handle_line<W: Write>(
    server: &mut Server,
    script: &mut ServedScript,
    line: Line,
    output: &mut W,
    clock: &impl Fn() -> u64,
) -> Result<(), Failure> {
    let now = clock();
    let bytes = match line {
        Line::TooLong(len) => {
            let reply = edge::line_too_long(len);
            log::line(
                now,
                &format!(
                    "{len}-byte line -> {}{}: {}",
                    log::label(&reply.message),
                    log::rules(&reply.rules),
                    reply.note
                ),
            );
            return send(output, &reply.message);
        }
        Line::Complete(bytes) => bytes,
    };
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(err) => {
            let reply = edge::not_utf8(&err);
            log::line(
                now,
                &format!(
                    "{} bytes of invalid UTF-8 -> {}{}: {}",
                    bytes.len(),
                    log::label(&reply.message),
                    log::rules(&reply.rules),
                    reply.note
                ),
            );
            return send(output, &reply.message);
        }
    };
    let text = text.strip_suffix('\r').unwrap_or(text);
    if text.trim().is_empty() {
        log::line(now, "blank line ignored");
        return Ok(());
    }
    let input = log::label_text(text);
    // The script first: notifications tied to this request, and a reply
    // that takes the server's place (the server never sees the request).
    let (notices, replaced) = script.request(SimTime::from_millis(now), text);
    for message in notices {
        log::line(
            now,
            &format!("scripted: {} sent on its own", log::label(&message)),
        );
        send(output, &message)?;
    }
    if let Some(replaced) = replaced {
        log::line(
            now,
            &format!(
                "{input} -> scripted reply, wrong on purpose: {}",
                replaced.violation
            ),
        );
        let mut text = replaced.text;
        text.push('\n');
        return output
            .write_all(text.as_bytes())
            .and_then(|()| output.flush())
            .map_err(Failure::stdout);
    }
    // A panic inside the core is a bug; it costs this message, not the server.
    let handled = panic::catch_unwind(AssertUnwindSafe(|| {
        server.handle_text(SimTime::from_millis(now), &ConnId::stdio(), text)
    }));
    let Ok(reply) = handled else {
        let reply = edge::internal_error();
        log::line(
            now,
            &format!("{input} -> {}: {}", log::label(&reply.message), reply.note),
        );
        return send(output, &reply.message);
    };
    match &reply {
        Some(r) => log::line(
            now,
            &format!(
                "{input} -> {}{}: {}",
                log::label(&r.message),
                log::rules(&r.rules),
                r.note.text()
            ),
        ),
        None => log::line(now, &format!("{input} -> no reply")),
    }
    while let Some(out) = server.poll_output() {
        log::output(now, &out, "written to stdout");
        if let OutputKind::Send { message, .. } = &out.kind {
            send(output, message)?;
        }
    }
    match reply {
        Some(r) => send(output, &r.message),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut out = Vec::new();
        while let Ok(Some(line)) = read_line(&mut reader, max) {
            out.push(line);
        }
        out
    }

    #[test]
    fn reads_lines_within_the_limit_and_skips_longer_ones() {
        assert_eq!(
            lines(b"ab\n\nabcdefgh\nxyz", 5),
            vec![
                Line::Complete(b"ab".to_vec()),
                Line::Complete(Vec::new()),
                Line::TooLong(8),
                Line::Complete(b"xyz".to_vec()),
            ]
        );
        assert!(lines(b"", 5).is_empty());
    }

    fn serve_text(preset: &str, input: &[u8]) -> Vec<Value> {
        let mut server = match mcp_lanes_core::server::presets::server(preset) {
            Some(config) => Server::new(config),
            None => return Vec::new(),
        };
        let mut out = Vec::new();
        let done = serve_io(&mut server, input, &mut out, || 0);
        assert!(done.is_ok());
        String::from_utf8_lossy(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
            .collect()
    }

    #[test]
    fn rpc_parse_bad_bytes_get_a_reply_and_serving_goes_on() {
        let mut input = b"not json\n\xff\xfe\n\n".to_vec();
        input.extend_from_slice(
            br#"{"jsonrpc":"2.0","id":1,"method":"nope","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
        );
        let replies = serve_text("deploy-console", &input);
        assert_eq!(replies.len(), 3, "{replies:?}");
        assert_eq!(replies[0]["error"]["code"], -32700);
        assert_eq!(replies[1]["error"]["code"], -32700);
        assert_eq!(replies[2]["error"]["code"], -32601);
        assert_eq!(replies[2]["id"], 1);
    }
}
