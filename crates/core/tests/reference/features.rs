//! Logging, progress, resources, prompts, completion and tool schemas.

use crate::common::*;
use crate::fixtures::*;
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::transport::http;
use serde_json::{json, Value};

#[test]
fn m_log_level_no_messages_without_a_level() {
    let mut s = reference();
    let (resp, m) = exchange(
        &mut s,
        &call(json!(1), "test_logging_tool", json!({}), json!({})),
    );
    assert!(!http::is_event_stream(&resp));
    assert!(m.iter().all(|x| x["method"] != "notifications/message"));
    let mut with_level = call(json!(2), "test_tool_with_logging", json!({}), json!({}));
    with_level["params"]["_meta"][meta::LOG_LEVEL] = json!("debug");
    let (resp, m) = exchange(&mut s, &with_level);
    assert!(http::is_event_stream(&resp));
    let logs: Vec<&Value> = m
        .iter()
        .filter(|x| x["method"] == "notifications/message")
        .collect();
    assert_eq!(logs.len(), 3);
    assert!(
        logs.iter().all(|l| l["params"]["_meta"].is_null()),
        "no subscription id outside a stream"
    );
    with_level["params"]["_meta"][meta::LOG_LEVEL] = json!("error");
    let (_, m) = exchange(&mut s, &with_level);
    assert_eq!(m.len(), 1, "info is below error: {m:?}");
}

#[test]
fn m_progress_notifications_precede_the_result() {
    let mut s = reference();
    let mut msg = call(json!(1), "test_tool_with_progress", json!({}), json!({}));
    msg["params"]["_meta"]["progressToken"] = json!("progress-test-1");
    let (_, m) = exchange(&mut s, &msg);
    let progress: Vec<i64> = m
        .iter()
        .filter(|x| x["method"] == "notifications/progress")
        .map(|x| {
            assert_eq!(x["params"]["progressToken"], "progress-test-1");
            x["params"]["progress"].as_i64().expect("number")
        })
        .collect();
    assert_eq!(progress, [0, 50, 100]);
    assert!(
        m.last().is_some_and(|x| x.get("result").is_some()),
        "the result comes last"
    );
}

#[test]
fn h_sse_response_notifications_then_response() {
    // Without a progress token or a log level the same tools answer JSON.
    let mut s = reference();
    for tool in ["test_tool_with_progress", "test_tool_with_logging"] {
        let (resp, m) = exchange(&mut s, &call(json!(1), tool, json!({}), json!({})));
        assert!(!http::is_event_stream(&resp), "{tool}");
        assert_eq!(m.len(), 1);
    }
}

#[test]
fn m_resources_read_templates_and_unknown_uri() {
    let mut s = reference();
    let (_, m) = exchange(
        &mut s,
        &modern(json!(1), "resources/list", json!({}), json!({})),
    );
    assert_eq!(result(&m)["resources"][0]["uri"], "test://static-text");
    let (_, m) = exchange(
        &mut s,
        &modern(json!(2), "resources/templates/list", json!({}), json!({})),
    );
    assert_eq!(
        result(&m)["resourceTemplates"][0]["uriTemplate"],
        "test://template/{id}/data"
    );
    let read =
        |id: i64, uri: &str| modern(json!(id), "resources/read", json!({"uri": uri}), json!({}));
    let (_, m) = exchange(&mut s, &read(3, "test://template/123/data"));
    assert!(result(&m)["contents"][0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("123")));
    let (_, m) = exchange(&mut s, &read(4, "test://static-binary"));
    assert_eq!(result(&m)["contents"][0]["mimeType"], "image/png");
    let uri = "test://nonexistent-resource-for-conformance-testing";
    let (_, m) = exchange(&mut s, &read(5, uri));
    let err = response(&m);
    assert_eq!(code(&err), Some(-32602));
    assert_eq!(err["error"]["data"]["uri"], uri);
    // Legacy sessions read the same resources.
    let mut s = reference();
    handshake(&mut s, "2025-11-25", json!({}));
    let r = reply(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "test://template/7/data"}}),
    );
    valid("2025-11-25", &r, Some("resources/read"));
}

#[test]
fn m_prompts_get_fills_arguments() {
    let mut s = reference();
    let (_, m) = exchange(
        &mut s,
        &modern(json!(1), "prompts/list", json!({}), json!({})),
    );
    assert!(result(&m)["prompts"]
        .as_array()
        .is_some_and(|p| p.iter().all(|p| p["description"].is_string())));
    let get = modern(
        json!(2),
        "prompts/get",
        json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "testValue1", "arg2": "testValue2"}}),
        json!({}),
    );
    let (_, m) = exchange(&mut s, &get);
    let text = result(&m)["messages"].to_string();
    assert!(text.contains("testValue1") && text.contains("testValue2"));
    let missing = modern(
        json!(3),
        "prompts/get",
        json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "x"}}),
        json!({}),
    );
    let (_, m) = exchange(&mut s, &missing);
    assert_eq!(code(&response(&m)), Some(-32602));
    for name in ["test_simple_prompt", "test_prompt_with_image"] {
        let (_, m) = exchange(
            &mut s,
            &modern(json!(4), "prompts/get", json!({"name": name}), json!({})),
        );
        assert!(!result(&m)["messages"]
            .as_array()
            .expect("messages")
            .is_empty());
    }
}

#[test]
fn m_completion_suggests_values() {
    let mut s = reference();
    let msg = modern(
        json!(1),
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": "arg1", "value": "test"}}),
        json!({}),
    );
    let (_, m) = exchange(&mut s, &msg);
    assert_eq!(
        result(&m)["completion"]["values"],
        json!(["test", "test-value", "testing"])
    );
    let bad = modern(
        json!(2),
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "nope"}, "argument": {"name": "a", "value": ""}}),
        json!({}),
    );
    let (_, m) = exchange(&mut s, &bad);
    assert_eq!(code(&response(&m)), Some(-32602));
}

#[test]
fn m_schema_intact_2020_12_schema_listed_verbatim() {
    let mut s = reference();
    let (_, m) = exchange(
        &mut s,
        &modern(json!(1), "tools/list", json!({}), json!({})),
    );
    let tools = result(&m)["tools"].clone();
    let tool = tools
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == "json_schema_2020_12_tool")
        .expect("listed")
        .clone();
    assert_eq!(
        tool["inputSchema"],
        mcp_lanes_core::server::reference::schema_2020_12()
    );
    assert_eq!(
        tools[0]["name"], "test_simple_text",
        "the harmless tool comes first"
    );
}
