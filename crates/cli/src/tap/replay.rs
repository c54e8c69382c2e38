//! `mcp-lanes tap --replay FILE`: a recorded conversation served back over
//! stdio as the server that recorded it, for regression tests of a client.
//! The core decides what answers what (`import::replay::Replay`); this
//! reads the client's lines from stdin and writes the answers on stdout, a
//! line each. A line that is not JSON gets the parse error a server sends.

use std::io::{self, BufWriter, Read, Write};

use mcp_lanes_core::import::replay::Replay;
use serde_json::Value;

use super::lines::{Line, Lines};
use crate::i18n::Catalog;
use crate::Failure;

/// What a server answers to a line that is not JSON (JSON-RPC -32700).
const PARSE_ERROR: &str = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not JSON"}}"#;

/// Serves the recording at `path` on stdin and stdout until stdin ends.
pub fn replay(path: &str, lang: &Catalog) -> Result<(), Failure> {
    let (source, imported) = crate::check::transcript::read_recording(path, lang)?;
    let mut replay = Replay::new(&imported.lanes);
    if replay.is_empty() {
        return Err(Failure::Usage(lang.fill(
            "cli.tap.replay_empty",
            "{path} holds no client message: nothing to replay",
            &[("path", source)],
        )));
    }
    super::say(&lang.fill(
        "cli.tap.replaying",
        "replaying {path}: {count} client messages recorded",
        &[
            ("path", source.clone()),
            ("count", replay.len().to_string()),
        ],
    ));
    let mut out = BufWriter::new(io::stdout().lock());
    let send = |out: &mut BufWriter<io::StdoutLock>, lines: &[String]| -> io::Result<()> {
        for line in lines {
            out.write_all(line.as_bytes())?;
            out.write_all(b"\n")?;
        }
        out.flush()
    };
    let gone = |e: io::Error| Failure::Io(e.to_string());
    send(&mut out, &replay.opening()).map_err(gone)?;
    let mut input = io::stdin().lock();
    let mut lines = Lines::default();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(gone(e)),
        };
        for line in lines.feed(&buf[..n]) {
            let answers = match line {
                Line::TooLong(_) => vec![PARSE_ERROR.to_string()],
                Line::Text(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => Vec::new(),
                Line::Text(bytes) => match serde_json::from_slice::<Value>(&bytes) {
                    Ok(Value::Array(batch)) => {
                        batch.iter().flat_map(|m| replay.answer(m)).collect()
                    }
                    Ok(message) => replay.answer(&message),
                    Err(_) => vec![PARSE_ERROR.to_string()],
                },
            };
            // A client that went away ends the replay.
            if send(&mut out, &answers).is_err() {
                return Ok(());
            }
        }
    }
    Ok(())
}
