//! A legacy client that declared sampling (or roots) at initialize answers
//! the server's `sampling/createMessage` (or `roots/list`) while a call
//! waits, and the call completes (L-SAMPLING, L-CAP-SESSION); it used to
//! answer -32601 as if it had declared nothing. Found by the course lesson
//! on the deprecated features (`tests/lessons/31-deprecated-sampling-roots.json`).

mod common;

use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::Side;
use serde_json::json;

#[test]
fn l_sampling_a_client_that_declared_sampling_answers_the_servers_request() {
    let value = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "clients": [{"id": "c", "era": "legacy", "legacyVersions": ["2025-11-25"], "capabilities": {"sampling": {}}}],
        "setups": [{"client": "c", "server": "reference",
                    "steps": [{"do": "call", "tool": "test_sampling", "arguments": {"prompt": "Hi"}}]}]
    });
    let loaded = file::load_value(&value).expect("a valid file");
    let timeline = scenarios::run_setups(&loaded.setups).remove(0);
    common::assert_timeline_valid(&timeline);
    let sent: Vec<_> = timeline
        .messages()
        .filter_map(|(_, m)| Some((m.from, m.json.clone()?)))
        .collect();
    let answer = sent
        .iter()
        .find(|(from, m)| {
            *from == Side::Client
                && m.get("result").is_some()
                && m.get("method").is_none()
                && m["result"].get("model").is_some()
        })
        .expect("the client answers sampling/createMessage");
    assert_eq!(answer.1["result"]["role"], "assistant");
    let last = sent
        .iter()
        .rev()
        .find(|(from, _)| *from == Side::Server)
        .expect("the call's result");
    assert_ne!(last.1["result"]["isError"], true, "{}", last.1);
    assert!(!sent
        .iter()
        .any(|(_, m)| m.pointer("/error/code") == Some(&json!(-32601))));
}
