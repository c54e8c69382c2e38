//! Entry points for the fuzz targets in `fuzz/` (and their regression
//! test): the request conversion alone, and a whole connection served in
//! memory. Not used by the server itself.

use std::sync::{Arc, OnceLock};

use bytes::Bytes;
use mcp_lanes_core::server::{presets, SIMULATION_KEY};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::watch;

use super::{adapter, pool::Pool, serve_io, Shared};

/// Session limits for fuzzing: small, so the cap is exercised.
const SESSIONS: super::pool::Sessions = super::pool::Sessions {
    idle_ms: 60_000,
    max: 4,
};

/// The presets a fuzz input picks from with its first byte.
const PRESETS: &[&str] = &[
    "deploy-console",
    "order-desk",
    "notes",
    "search-index",
    "dual-era",
];

/// Splits a fuzz input into a preset pick and the rest.
fn pick(data: &[u8]) -> Option<(&'static str, &[u8])> {
    let (&first, rest) = data.split_first()?;
    Some((PRESETS[usize::from(first) % PRESETS.len()], rest))
}

/// Builds an `http` request from `data` (lines: `METHOD TARGET`, then
/// `name: value` fields up to an empty line, then the body; fields `http`
/// refuses are left out, as hyper would never deliver them), converts it
/// and hands it to a pool of the picked preset.
pub fn request(data: &[u8]) {
    let Some((preset, rest)) = pick(data) else {
        return;
    };
    let split = rest.windows(2).position(|w| w == b"\n\n");
    let (head, body) = match split {
        Some(at) => (&rest[..at], &rest[at + 2..]),
        None => (rest, &[][..]),
    };
    let mut lines = head.split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let mut words = first.splitn(2, |&b| b == b' ');
    let method = words.next().unwrap_or_default();
    let target = words.next().unwrap_or(b"/mcp");
    let mut builder = http::Request::builder().method(method).uri(target);
    for line in lines {
        if let Some(colon) = line.iter().position(|&b| b == b':') {
            let (name, value) = (&line[..colon], &line[colon + 1..]);
            if let (Ok(name), Ok(value)) = (
                http::header::HeaderName::from_bytes(name),
                http::header::HeaderValue::from_bytes(value),
            ) {
                builder = builder.header(name, value);
            }
        }
    }
    let Ok(request) = builder.body(()) else {
        return;
    };
    let (parts, ()) = request.into_parts();
    let Ok(request) = adapter::to_core(&parts, Bytes::copy_from_slice(body)) else {
        return;
    };
    let Some(config) = presets::server(preset) else {
        return;
    };
    let pool = Pool::new(&config, 1, SIMULATION_KEY, SESSIONS);
    if let Ok(outcome) = pool.handle(0, &request) {
        let _ = adapter::from_core(outcome.handled.response);
    }
}

/// A runtime for [`connection`]. The client half-closes after its bytes,
/// so every input ends well before any of the server's timeouts; one that
/// does not shows up as a libFuzzer timeout.
fn runtime() -> Option<&'static tokio::runtime::Runtime> {
    static RUNTIME: OnceLock<Option<tokio::runtime::Runtime>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()
        })
        .as_ref()
}

/// Serves one in-memory connection whose client sends `data` (after the
/// preset pick) and then closes its sending side; returns what the server
/// sent back.
pub fn connection(data: &[u8]) -> Vec<u8> {
    let (Some(runtime), Some((preset, rest))) = (runtime(), pick(data)) else {
        return Vec::new();
    };
    let Some(config) = presets::server(preset) else {
        return Vec::new();
    };
    let shared = Arc::new(Shared::new(
        &config,
        1,
        SIMULATION_KEY,
        SESSIONS,
        true,
        Some(1 << 30),
    ));
    let bytes = rest.to_vec();
    runtime.block_on(async move {
        let (client, server) = tokio::io::duplex(64 * 1024);
        let (_stop_tx, stop) = watch::channel(false);
        // The server's end is closed once the connection is done, as the
        // TCP path does (there with a lingering close).
        let served = tokio::spawn(async move {
            let mut stream = serve_io(server, shared, stop).await;
            let _ = stream.shutdown().await;
        });
        let (mut from_server, mut to_server) = tokio::io::split(client);
        // Both at once: a server answering early must not block the writer.
        let writing = async move {
            let _ = to_server.write_all(&bytes).await;
            let _ = to_server.shutdown().await;
        };
        let mut out = Vec::new();
        let reading = async {
            let mut chunk = [0u8; 16 * 1024];
            loop {
                match from_server.read(&mut chunk).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => out.extend_from_slice(&chunk[..n]),
                }
            }
        };
        tokio::join!(writing, reading);
        let _ = served.await;
        out
    })
}
