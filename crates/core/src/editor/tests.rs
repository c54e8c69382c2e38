use super::*;
use crate::protocol::{meta, methods, ProtocolVersion};
use crate::rules;
use crate::server::presets;
use crate::settings::Capability;
use crate::sim::Event;
use crate::transport::TransportKind;
use serde_json::json;

fn template(method: &str) -> String {
    templates(ProtocolVersion::MODERN)
        .into_iter()
        .find(|t| t.method == method)
        .map(|t| t.text)
        .unwrap_or_default()
}

/// The tools/call template naming `tool`, with arguments that fit its
/// inputSchema (M-TOOL-INPUT) when a lesson preset has it.
fn call(tool: &str) -> String {
    let text = template(methods::TOOLS_CALL).replace("list_incidents", tool);
    let schema = [presets::deploy_console(), presets::order_desk()]
        .into_iter()
        .flat_map(|c| c.tools)
        .find(|t| t.name == tool)
        .map(|t| t.input_schema);
    let (Some(schema), Ok(mut value)) = (schema, serde_json::from_str::<Value>(&text)) else {
        return text;
    };
    value["params"]["arguments"] = crate::client::example_arguments(&schema);
    serde_json::to_string_pretty(&value).unwrap_or(text)
}

#[test]
fn m_meta_required_editor_request_without_meta_is_minus_32602() {
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Stdio);
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
    let warnings = lint_for(text, crate::protocol::version::EraMode::ModernOnly).warnings;
    assert!(
        warnings.iter().any(|w| w.path == "params._meta"),
        "{warnings:?}"
    );
    let ex = s.send(text, None);
    assert_eq!(ex.badge, Badge::Error(-32602));
    assert!(ex.rules.contains(&rules::M_META_REQUIRED));
}

#[test]
fn m_version_editor_old_version_then_suggested_version() {
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Stdio);
    let old = set_version(&template(methods::DISCOVER), "2025-11-25").unwrap();
    let ex = s.send(&old, None);
    assert_eq!(ex.badge, Badge::Error(-32022));
    let data = &ex.reply_json.as_ref().unwrap()["error"]["data"];
    assert_eq!(
        data,
        &json!({"supported": ["2026-07-28"], "requested": "2025-11-25"})
    );
    assert_eq!(lint(&old).version.as_deref(), Some("2025-11-25"));
    let fixed = set_version(&old, "2026-07-28").unwrap();
    assert_eq!(lint(&fixed).version.as_deref(), Some("2026-07-28"));
    assert_eq!(s.send(&fixed, None).badge, Badge::Result);
}

#[test]
fn m_cap_required_editor_toggle_turns_minus_32021_into_success() {
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Stdio);
    let text = call("notify_oncall");
    let ex = s.send(&text, None);
    assert_eq!(ex.badge, Badge::Error(-32021));
    assert_eq!(
        ex.reply_json.as_ref().unwrap()["error"]["data"]["requiredCapabilities"],
        json!({"elicitation": {}})
    );
    let with = set_capability(&text, Capability::ElicitationForm, true).unwrap();
    assert_eq!(declared(&with), vec![Capability::ElicitationForm]);
    assert_eq!(lint(&with).declared, vec![Capability::ElicitationForm]);
    assert!(lint(&text).declared.is_empty());
    assert_eq!(s.send(&with, None).badge, Badge::Result);
}

#[test]
fn m_unknown_tool_and_m_unknown_method_in_the_editor() {
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Stdio);
    assert_eq!(
        s.send(&call("close_all_incidents"), None).badge,
        Badge::Error(-32602)
    );
    let unknown = template(methods::TOOLS_LIST).replace("tools/list", "incidents/close");
    assert!(lint(&unknown).warnings.iter().any(|w| w.path == "method"));
    assert_eq!(s.send(&unknown, None).badge, Badge::Error(-32601));
}

#[test]
fn h_headers_editor_header_disagreeing_with_body_is_400_minus_32020() {
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Http);
    let text = template(methods::TOOLS_LIST);
    let mut headers = headers_for(&text);
    assert!(headers
        .iter()
        .any(|(k, v)| k == "MCP-Protocol-Version" && v == "2026-07-28"));
    for h in headers
        .iter_mut()
        .filter(|(k, _)| k == "MCP-Protocol-Version")
    {
        h.1 = "2025-11-25".into();
    }
    let ex = s.send(&text, Some(headers));
    assert_eq!((ex.status, ex.badge), (Some(400), Badge::Error(-32020)));
}

#[test]
fn l_init_editor_initialize_then_tools_call_is_a_legacy_session() {
    for transport in [TransportKind::Stdio, TransportKind::Http] {
        let mut s = EditorSession::new(presets::notes(), transport);
        let legacy = templates("2025-06-18");
        let init = &legacy
            .iter()
            .find(|t| t.method == methods::INITIALIZE)
            .unwrap()
            .text;
        let before = legacy
            .iter()
            .find(|t| t.method == methods::TOOLS_CALL)
            .unwrap()
            .text
            .replace("list_incidents", "read_note")
            .replace("\"id\": 1", "\"id\": 2");
        // read_note needs its title (L-TOOL-INPUT: -32602 without it).
        let before = match serde_json::from_str::<Value>(&before) {
            Ok(mut v) => {
                v["params"]["arguments"] = json!({"title": "standup"});
                v.to_string()
            }
            Err(_) => before,
        };
        let ex = s.send(init, None);
        assert_eq!(ex.badge, Badge::Result, "{transport:?}");
        assert_eq!(
            ex.reply_json.unwrap()["result"]["instructions"],
            "Read notes before writing them."
        );
        assert_eq!(s.send(&before, None).badge, Badge::Result, "{transport:?}");
        s.new_connection();
        let again = s.send(&before, None).badge;
        assert!(
            matches!(again, Badge::Error(-32600) | Badge::Error(-32000)),
            "{transport:?}: a new connection needs initialize, got {again:?}"
        );
    }
}

#[test]
fn m_mrtr_editor_answer_and_retry_completes_the_round_trip() {
    let mut s = EditorSession::new(presets::order_desk(), TransportKind::Stdio);
    let text = set_capability(&call("confirm_order"), Capability::ElicitationForm, true).unwrap();
    let ex = s.send(&text, None);
    assert_eq!(ex.badge, Badge::InputRequired);
    let retry = answer_and_retry(&text, ex.reply_json.as_ref().unwrap(), 2).unwrap();
    let v: Value = serde_json::from_str(&retry).unwrap();
    assert_eq!(v["id"], 2);
    assert_eq!(
        v["params"]["requestState"],
        ex.reply_json.as_ref().unwrap()["result"]["requestState"]
    );
    assert_eq!(s.send(&retry, None).badge, Badge::Result);
}

#[test]
fn rpc_parse_editor_marks_line_and_column_and_server_answers_minus_32700() {
    let text = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": tools/list\n}";
    let problem = lint(text).parse.unwrap();
    assert_eq!(
        (problem.line, problem.column),
        (4, 14),
        "where the parser gave up"
    );
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Stdio);
    let ex = s.send(text, None);
    assert_eq!(ex.badge, Badge::Error(-32700));
    assert!(ex.reply_problems.is_empty());
}

#[test]
fn rpc_parse_editor_and_server_agree_on_where_a_missing_comma_is() {
    let text = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1\n  \"method\": \"tools/list\"\n}";
    let problem = lint(text).parse.unwrap();
    assert_eq!((problem.line, problem.column), (4, 3), "the lint's place");
    // stdio sends the text on one line: the server's place is mapped back.
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Stdio);
    let ex = s.send(text, None);
    assert_eq!(ex.badge, Badge::Error(-32700));
    let at = ex.wire_error.expect("mapped");
    assert_eq!(at.typed, (problem.line, problem.column));
    let said = ex.reply_json.unwrap()["error"]["message"].to_string();
    let (line, column) = at.sent;
    assert!(
        said.contains(&format!("line {line} column {column}")),
        "{said}"
    );
    // HTTP sends the text as typed: the server's place is the lint's.
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Http);
    let ex = s.send(text, None);
    assert_eq!(ex.wire_error, None);
    let said = ex.reply_json.unwrap()["error"]["message"].to_string();
    assert!(said.contains("line 4 column 3"), "{said}");
}

#[test]
fn rpc_invalid_editor_refuses_oversized_and_deeply_nested_input_cleanly() {
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{{\"pad\":\"{}\"}}}}",
        "a".repeat(2 * 1024 * 1024)
    );
    assert_eq!(lint(&huge).too_large, Some(huge.len()));
    let deep = "[".repeat(100_000);
    assert!(lint(&deep).parse.is_some());
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Stdio);
    assert_eq!(s.send(&deep, None).badge, Badge::Error(-32700));
}

#[test]
fn l_cap_session_editor_history_becomes_a_lane_timeline() {
    let mut s = EditorSession::new(presets::search_index(), TransportKind::Stdio);
    let legacy = templates("2025-06-18");
    let init = legacy
        .iter()
        .find(|t| t.method == methods::INITIALIZE)
        .map(|t| t.text.clone())
        .unwrap_or_default();
    let init = set_capability(&init, Capability::ElicitationForm, true).unwrap_or_default();
    s.send(&init, None);
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"purge_index","arguments":{"index":"prod-catalog"}}}"#;
    let ex = s.send(call, None);
    assert_eq!(
        ex.badge,
        Badge::NoReply,
        "the answer waits for the elicitation"
    );
    assert!(ex.side_effects.iter().any(|e| e
        .message
        .as_ref()
        .is_some_and(|m| m["method"] == "elicitation/create")));
    let t = s.timeline();
    let labels: Vec<&str> = t.messages().map(|(_, m)| m.label.as_str()).collect();
    assert_eq!(
        labels,
        ["initialize", "result", "tools/call", "elicitation/create"]
    );
    assert_eq!(
        t.summary.leaked_locks, 1,
        "the lock is held until the editor answers"
    );
    let answer =
        r#"{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"retention_days":0}}}"#;
    let ex = s.send(answer, None);
    assert!(ex
        .side_effects
        .iter()
        .any(|e| e.text.contains("Purged prod-catalog.")));
    assert_eq!(s.timeline().summary.leaked_locks, 0);
    assert_eq!(s.history().len(), 3);
}

#[test]
fn rpc_parse_editor_refuses_too_deep_and_too_large_but_sends_broken_json() {
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    let l = lint(&deep);
    assert_eq!(l.too_deep, Some(MAX_DEPTH + 1));
    assert!(l.refusal().is_some_and(|r| r.contains("129 levels")));
    let fine = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    assert_eq!(lint(&fine).too_deep, None);
    let in_string = format!("{{\"a\": \"{}\\\"\"}}", "[".repeat(500));
    assert_eq!(
        lint(&in_string).too_deep,
        None,
        "brackets in strings do not nest"
    );
    assert_eq!(lint(&in_string).parse, None);
    let huge = " ".repeat(MAX_REQUEST_BYTES + 1);
    assert!(lint(&huge).refusal().is_some_and(|r| r.contains("1 MiB")));
    assert_eq!(
        lint("{\"jsonrpc\": ").refusal(),
        None,
        "not JSON is still sent"
    );
}

#[test]
fn l_undeclared_editor_answers_a_server_request() {
    let mut s = EditorSession::new(presets::search_index(), TransportKind::Stdio);
    let init = templates("2025-06-18")
        .into_iter()
        .find(|t| t.method == methods::INITIALIZE)
        .map(|t| t.text)
        .unwrap_or_default();
    let init = set_capability(&init, Capability::ElicitationForm, true).unwrap_or_default();
    s.send(&init, None);
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"purge_index","arguments":{"index":"prod-catalog"}}}"#;
    let ex = s.send(call, None);
    let asked = ex
        .side_effects
        .iter()
        .find_map(|e| e.message.clone())
        .unwrap();
    let answer = answer_server_request(&asked).unwrap();
    let v: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(v["id"], asked["id"]);
    assert_eq!(v["result"]["action"], "accept");
    let done = s.send(&answer, None);
    assert!(done
        .side_effects
        .iter()
        .any(|e| e.text.contains("Purged prod-catalog.")));
    let sampling =
        json!({"jsonrpc": "2.0", "id": 9, "method": "sampling/createMessage", "params": {}});
    let refused: Value = serde_json::from_str(&answer_server_request(&sampling).unwrap()).unwrap();
    assert_eq!(refused["error"]["code"], -32601);
    assert_eq!(refused["id"], 9);
    assert_eq!(
        answer_server_request(&v),
        None,
        "a response is not a request"
    );
}

#[test]
fn l_cap_session_editor_timeline_grows_one_exchange_at_a_time() {
    let mut s = EditorSession::new(presets::search_index(), TransportKind::Http);
    let legacy = templates("2025-06-18");
    let mut shown: Vec<Event> = Vec::new();
    for t in legacy.iter().take(5) {
        let before = s.history().len();
        s.send(&t.text, None);
        let part = s.timeline_from(before, shown.len());
        shown.extend(part.events);
        let whole = s.timeline();
        assert_eq!(shown, whole.events, "after {}", t.method);
        assert_eq!(part.summary, whole.summary);
    }
}

#[test]
fn rpc_parse_editor_sends_json_on_one_line_as_written() {
    let text = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"ping\",\n  \"params\": {\"note\": \"a \\\" b\\n c\", \"n\": 1.50}\n}";
    let mut s = EditorSession::new(presets::notes(), TransportKind::Stdio);
    let sent = s.send(text, None).sent;
    assert_eq!(
        sent,
        r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"note":"a \" b\n c","n":1.50}}"#
    );
    let parsed: Value = serde_json::from_str(&sent).unwrap();
    assert_eq!(parsed, serde_json::from_str::<Value>(text).unwrap());
}

#[test]
fn templates_cover_every_client_method_and_modern_ones_lint_clean() {
    for t in templates(ProtocolVersion::MODERN) {
        let l = lint(&t.text);
        assert!(l.is_clean(), "{}: {:?}", t.method, l.warnings);
        assert!(
            t.method == methods::CANCELLED || t.text.contains(meta::PROTOCOL_VERSION),
            "{}",
            t.method
        );
    }
    for t in templates("2025-11-25") {
        assert!(
            lint(&t.text).is_clean(),
            "{}: {:?}",
            t.method,
            lint(&t.text).warnings
        );
    }
    assert_eq!(
        templates("2025-06-18").len(),
        crate::protocol::methods::client_methods(crate::protocol::Era::Legacy).len()
    );
    for revision in crate::settings::known_versions() {
        let all = templates(revision);
        assert_eq!(
            all.iter().map(|t| t.method).collect::<Vec<_>>(),
            methods(revision)
        );
        for t in all {
            assert_eq!(template_for(revision, t.method), Some(t.text));
        }
    }
    assert_eq!(template_for("2026-07-28", "initialize"), None);
}

#[test]
fn rpc_id_editor_warns_before_sending_a_reused_id_and_marks_it_in_the_lane() {
    let mut s = EditorSession::new(presets::notes(), TransportKind::Stdio);
    let init = template_for_server("2025-11-25", methods::INITIALIZE, s.config(), 1).unwrap();
    s.send(&init, None);
    s.send(
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        None,
    );
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    assert!(!s
        .lint(list)
        .warnings
        .iter()
        .any(|w| w.rule == Some(rules::RPC_ID)));
    assert_eq!(s.fresh_id(), 2);
    s.send(list, None);
    assert_eq!(s.fresh_id(), 3);
    let warning = s
        .lint(list)
        .warnings
        .into_iter()
        .find(|w| w.rule == Some(rules::RPC_ID));
    assert!(warning.is_some_and(|w| w.path == "id" && w.message.contains("-32600")));
    let again = s.send(list, None);
    assert_eq!(again.badge, Badge::Error(-32600));
    assert!(again.reused_id && again.rules.contains(&rules::RPC_ID));
    let lane = s.timeline();
    let marked: Vec<&Event> = lane
        .events
        .iter()
        .filter(|e| e.rules.contains(&rules::RPC_ID))
        .collect();
    // The duplicate request and the server's refusal.
    assert_eq!(marked.len(), 2, "{marked:?}");
    assert!(marked[0].message().is_some_and(|m| m.violation.is_some()));
    // A new connection is a new session: the id is fresh again.
    s.new_connection();
    assert!(!s
        .lint(list)
        .warnings
        .iter()
        .any(|w| w.rule == Some(rules::RPC_ID)));
}

#[test]
fn m_unknown_tool_tools_call_template_calls_a_tool_of_the_target() {
    for (id, _) in presets::PRESETS {
        let config = presets::server(id).unwrap();
        let revision = if config.era.speaks_modern() {
            ProtocolVersion::MODERN
        } else {
            "2025-11-25"
        };
        let Some(text) = template_for_server(revision, methods::TOOLS_CALL, &config, 7) else {
            continue;
        };
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["id"], json!(7));
        // Its arguments fit the tool's inputSchema (M-TOOL-INPUT).
        let session = EditorSession::new(config.clone(), TransportKind::Stdio);
        assert!(
            session
                .lint(&text)
                .warnings
                .iter()
                .all(|w| w.rule != Some(rules::M_TOOL_INPUT)),
            "{id}: {text}"
        );
        if let Some(first) = config.tools.first() {
            let name = value["params"]["name"].as_str().unwrap();
            assert!(config.tools.iter().any(|t| t.name == name), "{id}: {name}");
            assert!(
                first.name == name
                    || config
                        .tools
                        .iter()
                        .any(|t| t.name == name && t.requires.is_empty())
            );
        }
    }
    // order-desk: the first Send of the template is not "Unknown tool".
    let mut s = EditorSession::new(presets::order_desk(), TransportKind::Stdio);
    let text = template_for_server(
        ProtocolVersion::MODERN,
        methods::TOOLS_CALL,
        s.config(),
        s.fresh_id(),
    )
    .unwrap();
    let ex = s.send(&text, None);
    assert_ne!(ex.badge, Badge::Error(-32602), "{}", ex.reply);
}

#[test]
fn m_version_editor_exchange_keeps_the_version_asked_apart_from_the_one_spoken() {
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Stdio);
    let old = set_version(&template(methods::DISCOVER), "2025-11-25").unwrap();
    let ex = s.send(&old, None);
    assert_eq!(ex.asked, "2025-11-25");
    let lane = s.timeline();
    let request = lane.events[0].message().unwrap();
    assert_eq!(request.revision, "2025-11-25");
}

#[test]
fn a_real_servers_answer_is_recorded_as_it_came_json_sse_or_nothing() {
    let mut s = EditorSession::remote("http://127.0.0.1:9/mcp", presets::deploy_console());
    assert_eq!(s.remote_url(), Some("http://127.0.0.1:9/mcp"));
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
    let post = s.remote_request(text, None);
    assert_eq!(post.body, text);
    assert!(!post.headers.is_empty());
    // JSON, with a session id the next request carries.
    let body = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#.to_string();
    let headers = vec![
        ("Content-Type".to_string(), "application/json".to_string()),
        ("Mcp-Session-Id".to_string(), "abc".to_string()),
    ];
    let ex = s.record_remote(&post, Ok((200, headers, body)));
    assert_eq!(ex.status, Some(200));
    assert_eq!(
        ex.reply_json.as_ref().unwrap()["result"]["tools"],
        json!([])
    );
    assert!(
        ex.rules.is_empty(),
        "the page judges nothing the server did"
    );
    let next = s.remote_request(text, None);
    assert!(next
        .headers
        .iter()
        .any(|(k, v)| k == "Mcp-Session-Id" && v == "abc"));
    // SSE: a notification first, then the reply.
    let sse = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,\"message\":\"no\"}}\n\n";
    let headers = vec![("Content-Type".to_string(), "text/event-stream".to_string())];
    let ex = s.record_remote(&next, Ok((200, headers, sse.to_string())));
    assert_eq!(
        ex.reply_json.as_ref().unwrap()["error"]["code"],
        json!(-32601)
    );
    assert_eq!(ex.side_effects.len(), 1);
    assert!(ex.reused_id);
    // Garbage and failures: no reply, no panic.
    let ex = s.record_remote(&next, Ok((500, Vec::new(), "\u{0}not json".into())));
    assert!(ex.reply_json.is_none());
    let ex = s.record_remote(&next, Err("TypeError: Failed to fetch".into()));
    assert!(ex.status.is_none() && ex.note.contains("Failed to fetch"));
    let lane = s.timeline();
    assert_eq!(lane.server_label, "http://127.0.0.1:9/mcp");
    assert!(lane.events.len() >= 6);
}

#[test]
fn m_tool_input_editor_marks_arguments_that_break_the_schema_by_path() {
    let s = EditorSession::new(presets::notes(), TransportKind::Stdio);
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_note","arguments":{"title":3}}}"#;
    let warnings: Vec<(String, String)> = s
        .lint(text)
        .warnings
        .into_iter()
        .filter(|w| w.rule == Some(rules::M_TOOL_INPUT))
        .map(|w| (w.path, w.message.text().to_string()))
        .collect();
    assert_eq!(
        warnings,
        vec![
            (
                "params.arguments.body".to_string(),
                "required, but missing".to_string()
            ),
            (
                "params.arguments.title".to_string(),
                "expected type string, got 3".to_string()
            ),
        ]
    );
    let fine = text.replace(r#"{"title":3}"#, r#"{"title":"a","body":"b"}"#);
    assert!(s
        .lint(&fine)
        .warnings
        .iter()
        .all(|w| w.rule != Some(rules::M_TOOL_INPUT)));
}

#[test]
fn rpc_id_editor_bumps_only_the_request_id_keeping_the_text() {
    let text = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\" : 7,\n  \"method\": \"tools/call\",\n  \"params\": {\"id\": 1, \"name\": \"a,}\\\"id\"}\n}";
    let bumped = with_id(text, 8).unwrap();
    assert_eq!(bumped, text.replace("\"id\" : 7", "\"id\" : 8"));
    let text = r#"{"params":{"id":"x"},"id":"abc","jsonrpc":"2.0","method":"ping"}"#;
    assert_eq!(
        with_id(text, 3).unwrap(),
        r#"{"params":{"id":"x"},"id":3,"jsonrpc":"2.0","method":"ping"}"#
    );
    // A notification, a response or broken text: nothing to bump.
    assert_eq!(
        with_id(
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            2
        ),
        None
    );
    assert_eq!(with_id(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, 2), None);
    assert_eq!(with_id(r#"{"jsonrpc":"2.0","id":1,"#, 2), None);
}

#[test]
fn m_version_a_real_servers_refusal_names_the_versions_each_side_named_and_is_linted() {
    let mut s = EditorSession::remote("http://127.0.0.1:9/mcp", presets::deploy_console());
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let post = s.remote_request(text, None);
    let body = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}"#;
    let ex = s.record_remote(&post, Ok((400, Vec::new(), body.into())));
    assert_eq!(ex.asked, "2025-11-25");
    assert_eq!(ex.offered, ["2026-07-28"]);
    assert_eq!(
        ex.revision, "",
        "an error is not written in the version asked for"
    );
    assert!(ex.rules.contains(&crate::rules::M_VERSION));
    assert!(ex.lint.is_empty(), "{:?}", ex.lint);
    // A refusal that contradicts the request, with the wrong status.
    let body = r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"no","data":{"supported":["2025-11-25"],"requested":"2024-11-05"}}}"#;
    let next = s.remote_request(&text.replace("\"id\":1", "\"id\":2"), None);
    let ex = s.record_remote(&next, Ok((200, Vec::new(), body.into())));
    let said: Vec<&str> = ex.lint.iter().map(|(n, _)| n.text()).collect();
    assert_eq!(said, [
        "data.requested says 2024-11-05, but the request asked for 2025-11-25.",
        "data.supported lists 2025-11-25, the version the request asked for: the refusal contradicts itself.",
        "HTTP 200 for error -32022, where the spec says HTTP 400.",
    ]);
}

#[test]
fn m_discover_a_simulated_discover_result_names_the_servers_versions() {
    let mut s = EditorSession::new(presets::deploy_console(), TransportKind::Http);
    let text = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let ex = s.send(text, None);
    assert_eq!(ex.offered, ["2026-07-28"]);
    assert!(ex.lint.is_empty());
}
