//! What a set-up scripts beyond its server's configuration (issue 27,
//! part B): wrong replies on purpose, drawn as violations with their
//! reasons; notifications at set times or tied to a request; requests that
//! run in the background while the script goes on (C-BACKGROUND). Every
//! message not marked as a violation validates against its revision's
//! official schema.

mod common;

use common::schema::schemas;
use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{MessageEvent, Timeline};
use serde_json::{json, Value};

fn scenario(transport: &str, steps: Value, events: Value) -> Value {
    json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "setups": [{"client": "plain", "server": "reference", "transport": transport,
            "steps": steps, "serverEvents": events}]
    })
}

fn run(value: &Value) -> Timeline {
    let loaded = common::load_file(value);
    let mut timelines = scenarios::run_setups(&loaded.setups);
    let timeline = timelines.remove(0);
    let s = schemas();
    for (_, m) in timeline.messages() {
        let Some(msg) = &m.json else { continue };
        if m.violation.is_some() || msg.get("method").is_none() {
            continue;
        }
        if let Err(failure) = s.validate_message(&m.revision, msg, None) {
            panic!("{} does not validate: {failure}\n{msg}", m.label);
        }
    }
    timeline
}

fn messages(t: &Timeline) -> Vec<&MessageEvent> {
    t.messages().map(|(_, m)| m).collect()
}

fn listen(background: bool) -> Value {
    json!({"do": "request", "method": "subscriptions/listen",
        "params": {"notifications": {"promptsListChanged": true}}, "background": background})
}

#[test]
fn c_background_a_listen_runs_alongside_calls_and_is_cancelled_when_the_script_ends() {
    let t = run(&scenario(
        "stdio",
        json!([listen(true), {"do": "call", "tool": "test_simple_text"}, {"do": "wait", "ms": 500},
            {"do": "call", "tool": "test_trigger_prompt_change"}]),
        json!([{"atMs": 200, "event": "prompts-changed"}]),
    ));
    let labels: Vec<&str> = messages(&t).iter().map(|m| m.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "subscriptions/listen",
            "tools/call",
            "notifications/subscriptions/acknowledged",
            "result",
            "notifications/prompts/list_changed",
            "tools/call",
            "notifications/prompts/list_changed",
            "result",
            "notifications/cancelled",
        ]
    );
    // The call went out at once, not after the listen's timeout.
    let call = t.messages().find(|(_, m)| m.label == "tools/call");
    assert_eq!(call.map(|(e, _)| e.at_ms), Some(0));
    let cancel = messages(&t)
        .into_iter()
        .find(|m| m.label == "notifications/cancelled")
        .and_then(|m| m.json.clone())
        .unwrap_or_default();
    assert_eq!(cancel["params"]["requestId"], json!(1));
    assert!(t.events.iter().any(|e| e.rules.contains(&"C-BACKGROUND")));
    assert!(!t.events.iter().any(|e| e.note.contains("timed out")));
}

#[test]
fn c_background_on_http_closing_the_stream_cancels_it() {
    let t = run(&scenario(
        "http",
        json!([listen(true), {"do": "call", "tool": "test_trigger_prompt_change"}]),
        json!([]),
    ));
    let labels: Vec<&str> = messages(&t).iter().map(|m| m.label.as_str()).collect();
    assert!(
        labels.contains(&"200 notifications/prompts/list_changed")
            || labels.iter().any(|l| l.contains("prompts/list_changed")),
        "{labels:?}"
    );
    assert!(!labels.contains(&"notifications/cancelled"), "{labels:?}");
    assert!(t
        .events
        .iter()
        .any(|e| e.note.contains("closes the stream")));
}

#[test]
fn a_scripted_reply_answers_once_in_the_servers_place_marked_as_a_violation() {
    for transport in ["stdio", "http"] {
        let t = run(&scenario(
            transport,
            json!([{"do": "call", "tool": "test_simple_text"}, {"do": "call", "tool": "test_simple_text"}]),
            json!([{"atMs": 0, "event": "reply", "method": "tools/call", "tool": "test_simple_text",
                "reply": {"jsonrpc": "2.0", "result": {"content": []}},
                "violation": "no resultType", "rules": ["M-RESULT-TYPE"]}]),
        ));
        let replies: Vec<&MessageEvent> = messages(&t)
            .into_iter()
            .filter(|m| m.label.ends_with("result"))
            .collect();
        assert_eq!(replies.len(), 2, "{transport}");
        assert_eq!(replies[0].violation.as_deref(), Some("no resultType"));
        let wire: Value = serde_json::from_str(&replies[0].wire).unwrap_or_default();
        assert_eq!(
            wire,
            json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}})
        );
        // The second call is the server's own, complete answer.
        assert_eq!(replies[1].violation, None);
        assert!(replies[1].wire.contains("\"resultType\":\"complete\""));
        let scripted = t
            .events
            .iter()
            .find(|e| e.message().is_some_and(|m| m.violation.is_some()));
        assert!(scripted.is_some_and(|e| e.rules.contains(&"M-RESULT-TYPE")));
    }
}

#[test]
fn scheduled_notifications_come_at_their_time_or_tied_to_a_request() {
    let log = |data: &str| {
        json!({"jsonrpc": "2.0", "method": "notifications/message",
        "params": {"level": "info", "data": data}})
    };
    let t = run(&scenario(
        "stdio",
        json!([{"do": "wait", "ms": 300}, {"do": "call", "tool": "test_simple_text",
            "_meta": {"logLevel": "info"}}]),
        json!([{"atMs": 100, "event": "notify", "message": log("at 100")},
            {"atMs": 0, "event": "notify", "message": log("tied"), "after": "tools/call"}]),
    ));
    let at = |text: &str| {
        t.messages()
            .find(|(_, m)| m.wire.contains(text))
            .map(|(e, _)| e.at_ms)
    };
    assert_eq!(at("at 100"), Some(100));
    // Tied with no delay: sent when the call arrives, before its result.
    assert_eq!(at("tied"), Some(320));
    let labels: Vec<&str> = messages(&t).iter().map(|m| m.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "notifications/message",
            "tools/call",
            "notifications/message",
            "result"
        ]
    );
}

#[test]
fn a_scripted_reply_needs_a_reason_and_known_rules() {
    let bad = scenario(
        "stdio",
        json!([{"do": "call", "tool": "x"}]),
        json!([{"atMs": 0, "event": "reply", "method": "tools/call", "reply": {},
                "rules": ["NOT-A-RULE"]},
            {"atMs": 0, "event": "notify", "message": {"jsonrpc": "2.0", "id": 1, "method": "x"}}]),
    );
    let errors: Vec<String> = match file::load_value(&bad) {
        Ok(_) => panic!("loaded"),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    };
    assert!(
        errors
            .iter()
            .any(|e| e.contains("serverEvents[0].violation")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| e.contains("serverEvents[0].rules[0]")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("serverEvents[1].message")),
        "{errors:?}"
    );
}

#[test]
fn m_progress_spaced_over_the_tools_duration_with_the_result_at_its_end() {
    for transport in ["stdio", "http"] {
        let file = json!({
            "format": "mcp-lanes-scenario/1",
            "id": "t",
            "servers": [{"id": "srv", "tools": [{"name": "slow", "progress": 3, "durationMs": 900,
                "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}]}],
            "setups": [{"client": "plain", "server": "srv", "transport": transport, "steps": [
                {"do": "call", "tool": "slow", "_meta": {"progressToken": "p"}},
                {"do": "call", "tool": "slow", "arguments": {"n": "x"}}
            ]}]
        });
        let t = run(&file);
        let times: Vec<(u64, String)> = t
            .messages()
            .filter(|(_, m)| m.from == mcp_lanes_core::sim::Side::Server)
            .map(|(e, m)| (e.at_ms, m.label.clone()))
            .collect();
        let at = |i: usize| times[i].0;
        assert!(times[0].1.contains("notifications/progress"), "{times:?}");
        // Sent at 20 ms: progress at 245, 470, 695; the result at 920.
        assert_eq!(
            [at(0), at(1), at(2), at(3)],
            [245, 470, 695, 920],
            "{transport}: {times:?}"
        );
        assert!(times[3].1.ends_with("result"), "{times:?}");
        // A call refused by its inputSchema answers at once.
        let sent = t
            .messages()
            .filter(|(_, m)| m.label.ends_with("tools/call"))
            .map(|(e, _)| e.at_ms)
            .nth(1)
            .unwrap_or_default();
        assert_eq!(at(4), sent + 20, "{transport}: {times:?}");
        assert!(times[4].1.contains("isError"), "{times:?}");
    }
}
