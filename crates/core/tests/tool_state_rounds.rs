//! A tool that asks the user (`asks`) and returns a handle (`returns`)
//! mints its handle on the round that completes the call, never on the
//! round that only asks (M-TOOL-HANDLE), in both eras.

mod common;

use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{EventKind, Side, Timeline};
use serde_json::{json, Value};

fn run(era: &str, client: &str) -> Timeline {
    let value = json!({
        "format": file::FORMAT,
        "id": "t",
        "servers": [{"id": "srv", "era": era, "tools": [{
            "name": "start",
            "inputSchema": {"type": "object", "properties": {"label": {"type": "string"}}},
            "asks": {
                "message": "Label for the export?",
                "argument": "label",
                "requestedSchema": {"type": "object", "properties": {"label": {"type": "string", "default": "weekly"}}}
            },
            "result": "Started {handle} ({label}).",
            "returns": {"handle": "job"}
        }]}],
        "setups": [{"client": client, "server": "srv", "steps": [
            {"do": "call", "tool": "start"},
            {"do": "call", "tool": "start"}
        ]}]
    });
    played(&value)
}

/// Runs a scenario file's one set-up; every message valid.
fn played(value: &Value) -> Timeline {
    let loaded = file::load_value(value).unwrap_or_else(|e| {
        panic!(
            "{:?}",
            e.iter().map(ToString::to_string).collect::<Vec<_>>()
        )
    });
    let t = scenarios::run_setups(&loaded.setups).remove(0);
    common::assert_timeline_valid(&t);
    t
}

/// The texts of the tool's completed results.
fn results(t: &Timeline) -> Vec<String> {
    t.messages()
        .filter(|(_, m)| m.from == Side::Server)
        .filter_map(|(_, m)| m.json.clone())
        .filter_map(|m: Value| {
            m.pointer("/result/content/0/text")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn m_tool_handle_a_tool_that_asks_mints_its_handle_only_when_it_completes() {
    for (era, client) in [("modern", "rich"), ("legacy", "legacy-host")] {
        let t = run(era, client);
        let texts = results(&t);
        assert_eq!(texts.len(), 2, "{era}: {texts:?}");
        for (n, text) in texts.iter().enumerate() {
            assert!(
                text.starts_with(&format!("Started job-{} (", n + 1)) && !text.contains('{'),
                "{era}: call {n}: {text}"
            );
        }
        // One handle decision per completed call, none for a question.
        let minted = t
            .events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Decision { side: Side::Server }))
            .filter(|e| e.rules.contains(&"M-TOOL-HANDLE"))
            .count();
        assert_eq!(minted, 2, "{era}");
    }
}

/// A tool that asks, whose result the server's policy gives per caller:
/// over HTTP with alice's token, in both eras.
fn run_policy(era: &str, preset: &str) -> Timeline {
    let value = json!({
        "format": file::FORMAT,
        "id": "t",
        "servers": [{"id": "srv", "era": era, "tools": [{
            "name": "export",
            "inputSchema": {"type": "object", "properties": {"label": {"type": "string"}}},
            "asks": {
                "message": "Label for the export?",
                "argument": "label",
                "requestedSchema": {"type": "object", "properties": {"label": {"type": "string", "default": "weekly"}}}
            },
            "result": "Exported ({label})."
        }],
        "policy": {"tools": [
            {"tool": "export", "results": {"alice": "Exported alice's notes ({label})."}}
        ]}}],
        "clients": [{"id": "c", "preset": preset, "principal": "alice", "token": {"scopes": []}}],
        "setups": [{"client": "c", "server": "srv", "transport": "http", "steps": [
            {"do": "call", "tool": "export"}
        ]}]
    });
    played(&value)
}

#[test]
fn m_tool_policy_call_a_callers_own_result_holds_on_the_round_that_completes_after_an_answer() {
    for (era, preset) in [("modern", "rich"), ("legacy", "legacy-host")] {
        let t = run_policy(era, preset);
        let texts = results(&t);
        assert_eq!(
            texts,
            vec!["Exported alice's notes (weekly).".to_string()],
            "{era}"
        );
    }
}
