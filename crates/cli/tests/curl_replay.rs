//! The curl export replays: for every HTTP set-up whose server is a plain
//! preset, the commands `export::curl` writes, run by `sh` against
//! `mcp-lanes serve --transport http`, get the same statuses and replies the
//! simulated run recorded.

mod common;

use common::http_server;
use mcp_lanes_core::export;
use mcp_lanes_core::scenarios::{self, CATALOG};
use mcp_lanes_core::server::presets;
use mcp_lanes_core::sim::{self, Side};
use mcp_lanes_core::transport::{http, TransportKind};
use serde_json::Value;

/// (status, body) pairs printed by the exported script: each command prints
/// the body, then a line `HTTP <code>`.
fn parse_output(stdout: &str) -> Vec<(u16, String)> {
    let mut out = Vec::new();
    let mut body = String::new();
    for line in stdout.lines() {
        match line
            .strip_prefix("HTTP ")
            .and_then(|c| c.trim().parse::<u16>().ok())
        {
            Some(status) => out.push((status, std::mem::take(&mut body).trim().to_string())),
            None => {
                body.push_str(line);
                body.push('\n');
            }
        }
    }
    out
}

#[test]
fn exported_curl_commands_replay_against_serve_with_the_same_replies() {
    if std::process::Command::new("curl")
        .arg("--version")
        .output()
        .is_err()
    {
        panic!("curl is needed for this test (Debian package curl)");
    }
    let mut replayed = 0;
    for info in CATALOG {
        for setup in scenarios::setups(info.id).unwrap_or_default() {
            let plain_preset =
                presets::server(&setup.server.preset).as_ref() == Some(&setup.server);
            if setup.channel.kind != TransportKind::Http
                || !plain_preset
                || !setup.server_events.is_empty()
                // A protected server's flow talks to an authorization
                // server too: `serve` is the MCP server alone.
                || setup.auth.is_some()
            {
                continue;
            }
            let timeline = sim::run(&setup);
            let expected: Vec<(u16, Option<Value>)> = timeline
                .messages()
                .filter(|(_, m)| m.from == Side::Server)
                .filter_map(|(_, m)| {
                    let h = m.http.as_ref()?;
                    let status = h.status?;
                    Some((status, m.json.clone()))
                })
                .collect();
            if timeline.messages().any(|(_, m)| {
                m.http.as_ref().is_some_and(|h| {
                    http::header(&h.headers, "Content-Type") == Some("text/event-stream")
                })
            }) {
                continue;
            }
            // A signed requestState (M-MRTR-STATE) carries the simulation's
            // key and clock: a served server has its own key, so a replayed
            // retry is rightly rejected. Such runs cannot be replayed.
            if timeline.messages().any(|(_, m)| {
                m.json
                    .as_ref()
                    .and_then(|j| j.get("result"))
                    .and_then(|r| r.get("requestState"))
                    .and_then(Value::as_str)
                    .is_some_and(|s| s.contains('.'))
            }) {
                continue;
            }
            let (_server, port) = http_server(&setup.server.preset);
            let script = export::curl(&timeline, &format!("http://127.0.0.1:{port}/mcp"))
                .expect("an HTTP run exports curl");
            let output = std::process::Command::new("sh")
                .arg("-c")
                .arg(&script)
                .output()
                .expect("sh runs");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let got = parse_output(&stdout);
            assert_eq!(
                got.len(),
                expected.len(),
                "{} / {}: {stdout}",
                info.id,
                setup.label
            );
            for ((status, body), (want_status, want_json)) in got.iter().zip(&expected) {
                assert_eq!(status, want_status, "{} / {}: {body}", info.id, setup.label);
                let got_json: Option<Value> = serde_json::from_str(body).ok();
                assert_eq!(&got_json, want_json, "{} / {}", info.id, setup.label);
            }
            replayed += 1;
        }
    }
    assert!(replayed >= 5, "only {replayed} set-ups replayed");
}
