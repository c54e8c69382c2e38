//! The official SDK clients against `serve --transport http`: the
//! TypeScript SDK v1 (1.32.2) and Python SDK (mcp 2.3.0) clients complete
//! search-index's `purge_index`, whose reply waits for an elicitation, over
//! Streamable HTTP: the result arrives on the POST's own SSE stream
//! (H-SSE-STREAM; issue 9's defect was a stream that ended before it).
//! Uses the pinned peers in tests/peers (`scripts/setup.sh peers`).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::http_server;
use serde_json::Value;

/// `tests/peers`, or `MCP_LANES_PEERS_DIR` (the installed peers of the real
/// checkout when the tests run from a copy of the repository).
fn peers() -> PathBuf {
    std::env::var_os("MCP_LANES_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers"))
}

/// Runs a smoke client and returns its JSON summary; fails if it did not
/// complete.
fn smoke(program: &Path, script: &str, url: &str) -> Value {
    let output = Command::new(program)
        .arg(peers().join("smoke").join(script))
        .args([
            url,
            "--tool",
            "purge_index",
            "--args",
            r#"{"index":"prod-catalog"}"#,
            "--elicit",
            r#"{"retention_days":30}"#,
            "--timeout",
            "15000",
        ])
        .output()
        .unwrap_or_else(|err| panic!("{} does not run: {err}", program.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{script} failed ({:?}):\n{stdout}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|err| panic!("{script} printed no JSON summary ({err}): {stdout}"))
}

fn check(summary: &Value) {
    assert_eq!(summary["ok"], true, "{summary}");
    assert_eq!(
        summary["elicitations"].as_array().map(Vec::len),
        Some(1),
        "{summary}"
    );
    let text = summary["call"]["result"]["content"][0]["text"].as_str();
    assert_eq!(text, Some("Purged prod-catalog."), "{summary}");
}

/// Whether the official SDK clients are installed. Without them the test
/// is skipped, unless `MCP_LANES_REQUIRE_PEERS` is set (as `scripts/test.sh`
/// does), where their absence fails it.
fn installed() -> bool {
    let dir = peers();
    let there = dir.join("node_modules/@modelcontextprotocol/sdk").is_dir()
        && dir.join(".venv/bin/python").is_file();
    assert!(
        there || std::env::var_os("MCP_LANES_REQUIRE_PEERS").is_none(),
        "the official SDKs are not installed in {} (scripts/setup.sh peers)",
        dir.display()
    );
    if !there {
        eprintln!(
            "skipped: the official SDKs are not installed in {} (scripts/setup.sh peers)",
            dir.display()
        );
    }
    there
}

#[test]
fn h_sse_stream_ts_sdk_v1_client_completes_purge_index_with_elicitation() {
    if !installed() {
        return;
    }
    let (mut server, port) = http_server("search-index");
    let summary = smoke(
        Path::new("node"),
        "client-v1.mjs",
        &format!("http://127.0.0.1:{port}/mcp"),
    );
    check(&summary);
    server.stderr_line("sent on its SSE stream as event 1-2");
}

#[test]
fn h_sse_stream_python_sdk_client_completes_purge_index_with_elicitation() {
    if !installed() {
        return;
    }
    let (mut server, port) = http_server("search-index");
    let summary = smoke(
        &peers().join(".venv/bin/python"),
        "client.py",
        &format!("http://127.0.0.1:{port}/mcp"),
    );
    check(&summary);
    server.stderr_line("sent on its SSE stream as event 1-2");
}
