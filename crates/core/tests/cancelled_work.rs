//! A cancelled request gets nothing more, even when its tool works for a
//! while (`durationMs`): on stdio the server stops at `notifications/cancelled`
//! (L-TIMEOUT, and 2026-07-28's cancellation pattern), on HTTP closing the
//! request's stream is the cancellation and nothing more is sent for it
//! (C-BACKGROUND). And a second background request on HTTP leaves the first
//! one's stream open: two listen streams run side by side (C-BACKGROUND).
//! Found by the course lessons of `tests/lessons/` (20, 17).

use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{Side, Timeline};
use serde_json::{json, Value};

fn run(transport: &str, client: Value, steps: Value) -> Timeline {
    let value = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "servers": [{
            "id": "srv",
            "capabilities": {"tools": {"listChanged": true}, "prompts": {"listChanged": true}},
            "tools": [
                {"name": "slow", "durationMs": 5000, "progress": 2, "result": "slow done"},
                {"name": "quick", "result": "quick done"}
            ],
            "prompts": [{"name": "p", "messages": [{"role": "user", "text": "x"}]}]
        }],
        "clients": [client],
        "setups": [{
            "client": "c", "server": "srv", "transport": transport, "steps": steps,
            "serverEvents": [{"atMs": 500, "event": "tools-changed"}, {"atMs": 600, "event": "prompts-changed"}]
        }]
    });
    let loaded = file::load_value(&value).unwrap_or_else(|e| {
        panic!(
            "{:?}",
            e.iter().map(ToString::to_string).collect::<Vec<_>>()
        )
    });
    scenarios::run_setups(&loaded.setups).remove(0)
}

/// What the server sent for request `id` (its response and, for a
/// request with a progress token, its progress).
fn server_sent_for(t: &Timeline, id: i64) -> Vec<Value> {
    t.messages()
        .filter(|(_, m)| m.from == Side::Server)
        .filter_map(|(_, m)| m.json.clone())
        .filter(|m| {
            m.get("id") == Some(&json!(id))
                || m.pointer("/params/progressToken") == Some(&json!("slow-1"))
        })
        .collect()
}

fn deadline_steps() -> Value {
    json!([
        {"do": "call", "tool": "slow", "arguments": {}, "_meta": {"progressToken": "slow-1"}},
        {"do": "call", "tool": "quick", "arguments": {}}
    ])
}

#[test]
fn l_timeout_a_call_cancelled_on_stdio_gets_no_result_from_a_tool_that_works_for_a_while() {
    let t = run(
        "stdio",
        json!({"id": "c", "requestTimeoutMs": 1000}),
        deadline_steps(),
    );
    let sent = server_sent_for(&t, 1);
    // Progress sent before the cancellation arrived stays; nothing after it.
    assert!(sent.iter().all(|m| m.get("method").is_some()), "{sent:#?}");
    assert!(
        t.events.iter().all(|e| e.at_ms <= 2000),
        "the run went on to the tool's end"
    );
}

#[test]
fn c_background_a_call_closed_over_http_at_its_deadline_gets_nothing_more() {
    let t = run(
        "http",
        json!({"id": "c", "requestTimeoutMs": 1000}),
        deadline_steps(),
    );
    let sent = server_sent_for(&t, 1);
    assert!(sent.iter().all(|m| m.get("method").is_some()), "{sent:#?}");
    let late: Vec<_> = t
        .messages()
        .filter(|(e, m)| {
            m.from == Side::Server
                && e.at_ms > 1000
                && m.json
                    .as_ref()
                    .is_some_and(|j| j.get("id") == Some(&json!(1)) || j.get("method").is_some())
        })
        .collect();
    assert!(late.is_empty(), "{late:#?}");
}

#[test]
fn c_background_a_background_call_cancelled_at_the_end_of_the_script_gets_no_result() {
    for transport in ["stdio", "http"] {
        let steps = json!([
            {"do": "call", "tool": "slow", "arguments": {}, "background": true},
            {"do": "call", "tool": "quick", "arguments": {}}
        ]);
        let t = run(transport, json!({"id": "c"}), steps);
        assert!(server_sent_for(&t, 1).is_empty(), "{transport}");
    }
}

#[test]
fn c_background_two_listen_streams_stay_open_side_by_side_over_http() {
    let steps = json!([
        {"do": "request", "method": "subscriptions/listen", "params": {"notifications": {"toolsListChanged": true}}, "background": true},
        {"do": "wait", "ms": 100},
        {"do": "request", "method": "subscriptions/listen", "params": {"notifications": {"promptsListChanged": true}}, "background": true},
        {"do": "wait", "ms": 1000}
    ]);
    let t = run("http", json!({"id": "c"}), steps);
    let methods: Vec<String> = t
        .messages()
        .filter(|(_, m)| m.from == Side::Server)
        .filter_map(|(_, m)| m.json.as_ref()?.get("method")?.as_str().map(str::to_string))
        .collect();
    assert!(
        methods.contains(&"notifications/tools/list_changed".to_string()),
        "{methods:?}"
    );
    assert!(
        methods.contains(&"notifications/prompts/list_changed".to_string()),
        "{methods:?}"
    );
}

#[test]
fn s_answer_a_request_the_client_cancelled_is_owed_no_answer_in_a_recording() {
    let t = run(
        "stdio",
        json!({"id": "c", "requestTimeoutMs": 1000}),
        deadline_steps(),
    );
    let document = mcp_lanes_core::transcript::scenario_document("t", &[t]);
    let imported =
        mcp_lanes_core::import::read("t.json", &document.to_string()).expect("a recording");
    let verdicts = mcp_lanes_core::check::grade_recorded(&imported.lanes[0]);
    let answers: Vec<_> = verdicts.iter().filter(|v| v.rule == "S-ANSWER").collect();
    assert!(
        answers
            .iter()
            .all(|v| v.verdict != mcp_lanes_core::check::Outcome::Fail),
        "{answers:#?}"
    );
    assert!(
        answers.iter().any(|v| v.got.contains("cancelled")),
        "{answers:#?}"
    );
}
