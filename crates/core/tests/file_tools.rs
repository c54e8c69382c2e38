//! Tools, prompts and lists of scenario files behave as the spec says:
//! input validation (M-TOOL-INPUT, L-TOOL-INPUT), declared failures
//! (M-TOOL-ERROR), progress (M-PROGRESS), pagination (M-PAGINATION),
//! signed requestState (M-MRTR-STATE), `_meta` extras, and the fixes of
//! issue 27 (each test named after its rule). Every message of every run
//! validates against the official schema of its revision.

mod common;

use std::collections::HashMap;

use common::schema::schemas;
use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{Side, Timeline};
use serde_json::{json, Value};

/// A file with one server `srv` (era `era`, with these tools, prompts and
/// extra server keys) and one set-up of `steps` for client `client`.
fn scenario(server: Value, client: &str, steps: Value) -> Value {
    json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "servers": [server],
        "clients": [
            {"id": "bare", "capabilities": {}},
            {"id": "legacy-old", "era": "legacy", "legacyVersions": ["2025-06-18"]},
            {"id": "legacy-new", "era": "legacy", "legacyVersions": ["2025-11-25"]}
        ],
        "setups": [{"client": client, "server": "srv", "steps": steps}]
    })
}

fn weather(era: &str) -> Value {
    let legacy = if era == "legacy" {
        json!(["2025-11-25", "2025-06-18"])
    } else {
        Value::Null
    };
    let mut server = json!({
        "id": "srv",
        "era": era,
        "tools": [{
            "name": "forecast",
            "inputSchema": {"type": "object", "properties": {
                "city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 7}
            }, "required": ["city"]},
            "result": "{city}: rain for {days} days.",
            "errors": [{"when": {"city": "Atlantis"}, "message": "No weather station in {city}."}],
            "progress": [
                {"progress": 1, "total": 3, "message": "fetching"},
                {"progress": 2, "total": 3},
                {"progress": 3, "total": 3, "message": "done"}
            ]
        }],
        "prompts": [{
            "name": "trip",
            "description": "Plan a trip.",
            "arguments": [{"name": "city", "required": true}],
            "messages": [{"role": "user", "text": "Plan a trip to {city}."}]
        }]
    });
    if !legacy.is_null() {
        server["legacyVersions"] = legacy;
    }
    server
}

/// Runs a file, checks every message against its revision's schema, and
/// returns the timelines.
fn run(value: &Value) -> Vec<Timeline> {
    run_checking(value, true)
}

/// Runs a file whose steps send a request broken on purpose: only the
/// server's messages are checked against the schema.
fn run_server_checked(value: &Value) -> Vec<Timeline> {
    run_checking(value, false)
}

fn run_checking(value: &Value, check_client: bool) -> Vec<Timeline> {
    let loaded = match file::load_value(value) {
        Ok(f) => f,
        Err(errors) => panic!(
            "{:?}",
            errors.iter().map(ToString::to_string).collect::<Vec<_>>()
        ),
    };
    let timelines = scenarios::run_setups(&loaded.setups);
    let s = schemas();
    for timeline in &timelines {
        let mut origin: HashMap<(Side, String), String> = HashMap::new();
        for (_, m) in timeline.messages() {
            let Some(msg) = &m.json else { continue };
            let id = msg.get("id").map(Value::to_string);
            if let (Some(method), Some(id)) = (msg.get("method").and_then(Value::as_str), &id) {
                origin.insert((m.from, id.clone()), method.to_string());
            }
            if m.violation.is_some() || (!check_client && m.from == Side::Client) {
                continue;
            }
            let origin_method = if msg.get("method").is_none() {
                id.as_ref()
                    .and_then(|id| origin.get(&(m.from.peer(), id.clone())))
                    .map(String::as_str)
            } else {
                None
            };
            if let Err(failure) = s.validate_message(&m.revision, msg, origin_method) {
                panic!("{} does not validate: {failure}\n{msg}", m.label);
            }
        }
    }
    timelines
}

/// The messages `side` sent, in order.
fn sent(timeline: &Timeline, side: Side) -> Vec<Value> {
    timeline
        .messages()
        .filter(|(_, m)| m.from == side)
        .filter_map(|(_, m)| m.json.clone())
        .collect()
}

fn results(timeline: &Timeline) -> Vec<Value> {
    sent(timeline, Side::Server)
        .into_iter()
        .filter(|m| m.get("id").is_some() && m.get("method").is_none())
        .collect()
}

fn text_of(result: &Value) -> String {
    result
        .pointer("/result/content/0/text")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// Every note and narration of a timeline, with its rules.
fn notes(timeline: &Timeline) -> Vec<(String, Vec<&'static str>)> {
    timeline
        .events
        .iter()
        .map(|e| {
            let mut text = e.note.clone();
            if let Some(n) = &e.narration {
                text.push_str(" | ");
                text.push_str(n);
            }
            (text, e.rules.clone())
        })
        .collect()
}

fn call(arguments: Value) -> Value {
    json!({"do": "call", "tool": "forecast", "arguments": arguments})
}

#[test]
fn m_tool_input_invalid_arguments_are_a_tool_error_naming_the_field() {
    let file = scenario(
        weather("modern"),
        "bare",
        json!([
            call(json!({"city": "Oslo", "days": "two"})),
            call(json!({"city": "Oslo", "days": 9}))
        ]),
    );
    let t = &run(&file)[0];
    let r = results(t);
    assert_eq!(r.len(), 2, "{r:?}");
    for (answer, field) in r
        .iter()
        .zip(["days: expected an integer", "days: must be at most 7"])
    {
        assert_eq!(
            answer.pointer("/result/isError"),
            Some(&json!(true)),
            "{answer}"
        );
        assert!(text_of(answer).contains(field), "{answer}");
    }
    assert!(notes(t).iter().any(|(_, r)| r.contains(&"M-TOOL-INPUT")));
}

#[test]
fn m_tool_input_a_placeholder_is_never_left_unfilled() {
    // `days` is not required by the schema, but the result needs it.
    let file = scenario(
        weather("modern"),
        "bare",
        json!([call(json!({"city": "Oslo"}))]),
    );
    let t = &run(&file)[0];
    let r = results(t);
    assert_eq!(
        r[0].pointer("/result/isError"),
        Some(&json!(true)),
        "{}",
        r[0]
    );
    assert!(text_of(&r[0]).contains("days"));
    assert!(!text_of(&r[0]).contains('{'));
}

#[test]
fn m_tool_input_a_2025_11_25_session_gets_a_tool_error() {
    let file = scenario(
        weather("legacy"),
        "legacy-new",
        json!([call(json!({"days": 2}))]),
    );
    let t = &run(&file)[0];
    let answer = results(t).pop().unwrap_or_default();
    assert_eq!(
        answer.pointer("/result/isError"),
        Some(&json!(true)),
        "{answer}"
    );
    assert!(text_of(&answer).contains("city"));
}

#[test]
fn l_tool_input_a_2025_06_18_session_gets_32602() {
    let file = scenario(
        weather("legacy"),
        "legacy-old",
        json!([call(json!({"days": 2}))]),
    );
    let t = &run(&file)[0];
    let answer = results(t).pop().unwrap_or_default();
    assert_eq!(
        answer.pointer("/error/code"),
        Some(&json!(-32602)),
        "{answer}"
    );
    let message = answer
        .pointer("/error/message")
        .and_then(Value::as_str)
        .unwrap_or("");
    assert!(
        message.contains("forecast") && message.contains("city"),
        "{message}"
    );
    assert!(notes(t).iter().any(|(_, r)| r.contains(&"L-TOOL-INPUT")));
}

#[test]
fn m_tool_error_a_declared_failure_answers_is_error_with_its_message() {
    for (era, client) in [("modern", "bare"), ("legacy", "legacy-old")] {
        let file = scenario(
            weather(era),
            client,
            json!([
                call(json!({"city": "Atlantis", "days": 1})),
                call(json!({"city": "Oslo", "days": 1}))
            ]),
        );
        let t = &run(&file)[0];
        let r = results(t);
        let n = r.len();
        assert_eq!(
            r[n - 2].pointer("/result/isError"),
            Some(&json!(true)),
            "{era}"
        );
        assert_eq!(text_of(&r[n - 2]), "No weather station in Atlantis.");
        assert_eq!(text_of(&r[n - 1]), "Oslo: rain for 1 days.");
        assert!(notes(t).iter().any(|(_, r)| r.contains(&"M-TOOL-ERROR")));
        // A tool that fails at its work is not the elicitation fallback:
        // neither side cites L-FALLBACK for it.
        assert!(
            !notes(t).iter().any(|(_, r)| r.contains(&"L-FALLBACK")),
            "{era}: {:?}",
            notes(t)
        );
    }
}

#[test]
fn m_tool_input_presets_and_the_reference_server_validate_too() {
    let file = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "setups": [
            {"client": "rich", "server": "deploy-console", "steps": [{"do": "call", "tool": "notify_oncall", "arguments": {}}]},
            {"client": "rich", "server": "reference", "steps": [{"do": "call", "tool": "test_header_echo", "arguments": {"region": 5}}]}
        ]
    });
    for t in &run(&file) {
        let answer = results(t).pop().unwrap_or_default();
        assert_eq!(
            answer.pointer("/result/isError"),
            Some(&json!(true)),
            "{answer}"
        );
    }
}

fn with_token(arguments: Value, token: Value) -> Value {
    json!({"do": "call", "tool": "forecast", "arguments": arguments, "_meta": {"progressToken": token}})
}

#[test]
fn m_progress_a_file_tool_reports_its_progress_before_its_result() {
    for (era, client, transport) in [
        ("modern", "bare", "stdio"),
        ("modern", "bare", "http"),
        ("legacy", "legacy-old", "stdio"),
        ("legacy", "legacy-new", "http"),
    ] {
        let mut file = scenario(
            weather(era),
            client,
            json!([
                with_token(json!({"city": "Oslo", "days": 2}), json!("p-1")),
                call(json!({"city": "Oslo", "days": 2}))
            ]),
        );
        file["setups"][0]["transport"] = json!(transport);
        let t = &run(&file)[0];
        let from_server = sent(t, Side::Server);
        let progress: Vec<&Value> = from_server
            .iter()
            .filter(|m| m["method"] == "notifications/progress")
            .collect();
        assert_eq!(progress.len(), 3, "{era} {transport}: {from_server:?}");
        assert_eq!(
            progress[0]["params"],
            json!({"progressToken": "p-1", "progress": 1, "total": 3, "message": "fetching"})
        );
        let first_result = from_server
            .iter()
            .position(|m| m.pointer("/result/content").is_some())
            .unwrap_or(0);
        let last_progress = from_server
            .iter()
            .rposition(|m| m["method"] == "notifications/progress")
            .unwrap_or(usize::MAX);
        assert!(
            last_progress < first_result,
            "{era}: progress after the result"
        );
        // The step's own `_meta` is on the wire, the protocol keys with it.
        let call = sent(t, Side::Client)
            .into_iter()
            .find(|m| m["method"] == "tools/call")
            .unwrap_or_default();
        assert_eq!(
            call.pointer("/params/_meta/progressToken"),
            Some(&json!("p-1")),
            "{call}"
        );
        if era == "modern" {
            assert!(call
                .pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                .is_some());
        }
        assert!(notes(t).iter().any(|(_, r)| r.contains(&"M-PROGRESS")));
    }
}

#[test]
fn m_meta_required_a_step_s_own_meta_is_merged_and_the_protocol_keys_win() {
    let file = scenario(
        weather("modern"),
        "bare",
        json!([{"do": "request", "method": "tools/list", "params": {"_meta": {
            "com.example/trace": "t-1",
            "io.modelcontextprotocol/protocolVersion": "1999-01-01"
        }}}]),
    );
    let t = &run(&file)[0];
    let request = sent(t, Side::Client).pop().unwrap_or_default();
    let meta = &request["params"]["_meta"];
    assert_eq!(meta["com.example/trace"], "t-1");
    assert_eq!(
        meta["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert!(results(t)[0].get("result").is_some());
    assert!(notes(t)
        .iter()
        .any(|(n, _)| n.contains("com.example/trace")));
}

fn paged(era: &str) -> Value {
    let mut server = weather(era);
    server["pageSize"] = json!(2);
    server["tools"] = json!([
        {"name": "a"}, {"name": "b"}, {"name": "c"}, {"name": "d"}, {"name": "e"}
    ]);
    server
}

#[test]
fn m_pagination_lists_come_in_pages_and_the_client_follows_the_cursor() {
    for (era, client) in [("modern", "bare"), ("legacy", "legacy-new")] {
        let file = scenario(
            paged(era),
            client,
            json!([{"do": "list", "what": "tools", "follow": true}, {"do": "list", "what": "prompts"}]),
        );
        let t = &run(&file)[0];
        let lists: Vec<Value> = sent(t, Side::Client)
            .into_iter()
            .filter(|m| m["method"] == "tools/list")
            .collect();
        assert_eq!(lists.len(), 3, "{era}: {lists:?}");
        assert!(lists[0]["params"].get("cursor").is_none());
        let pages: Vec<Value> = results(t)
            .into_iter()
            .filter(|m| m.pointer("/result/tools").is_some())
            .collect();
        let names: Vec<String> = pages
            .iter()
            .flat_map(|p| p["result"]["tools"].as_array().cloned().unwrap_or_default())
            .map(|t| t["name"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(names, ["a", "b", "c", "d", "e"], "{era}");
        assert_eq!(
            lists[1]["params"]["cursor"],
            pages[0]["result"]["nextCursor"]
        );
        assert!(pages[2]["result"].get("nextCursor").is_none());
        assert!(notes(t).iter().any(|(_, r)| r.contains(&"M-PAGINATION")));
        // A list step without `follow` takes the first page only.
        assert!(results(t)
            .last()
            .and_then(|r| r.pointer("/result/prompts"))
            .is_some());
    }
}

#[test]
fn m_pagination_a_cursor_the_server_did_not_issue_is_32602() {
    let forged = json!({"do": "request", "method": "tools/list", "params": {"cursor": "eyJsIjoidG9vbHMvbGlzdCIsIm8iOjB9.AAAA"}});
    for (era, client) in [("modern", "bare"), ("legacy", "legacy-new")] {
        let file = scenario(
            paged(era),
            client,
            json!([forged.clone(), {"do": "list", "what": "tools"}]),
        );
        let t = &run(&file)[0];
        let r = results(t);
        let refused = &r[r.len() - 2];
        assert_eq!(
            refused.pointer("/error/code"),
            Some(&json!(-32602)),
            "{era}: {refused}"
        );
        assert_eq!(
            refused.pointer("/error/message"),
            Some(&json!("Invalid cursor"))
        );
        assert!(r[r.len() - 1].pointer("/result/nextCursor").is_some());
    }
}

/// A server whose tool asks the user but declares no `requires`.
fn asking() -> Value {
    json!({
        "id": "srv",
        "tools": [{
            "name": "reserve",
            "inputSchema": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
            "asks": {"message": "Reserve {sku}?", "requestedSchema": {"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]}},
            "result": "Reserved {sku}."
        }]
    })
}

#[test]
fn m_mrtr_cap_a_question_is_never_sent_to_a_request_that_did_not_declare_elicitation() {
    let file = scenario(
        asking(),
        "bare",
        json!([{"do": "call", "tool": "reserve", "arguments": {"sku": "A-7"}}]),
    );
    let t = &run(&file)[0];
    let answer = results(t).pop().unwrap_or_default();
    assert_eq!(
        answer.pointer("/error/code"),
        Some(&json!(-32021)),
        "{answer}"
    );
    assert_eq!(
        answer.pointer("/error/data/requiredCapabilities"),
        Some(&json!({"elicitation": {}}))
    );
    assert!(!sent(t, Side::Server)
        .iter()
        .any(|m| m.pointer("/result/inputRequests").is_some()));
    for (note, rules) in notes(t) {
        assert!(!note.contains("declared on this request"), "{note}");
        if rules.contains(&"M-MRTR-CAP") {
            assert!(note.contains("-32021"), "{note}");
        }
    }
    // The rich client declares elicitation: asked, answered, done.
    let file = scenario(
        asking(),
        "rich",
        json!([{"do": "call", "tool": "reserve", "arguments": {"sku": "A-7"}}]),
    );
    let t = &run(&file)[0];
    assert_eq!(
        text_of(&results(t).pop().unwrap_or_default()),
        "Reserved A-7."
    );
}

/// The server of a file, to talk to directly.
fn server_of(file: &Value) -> mcp_lanes_core::server::Server {
    let loaded = file::load_value(file).unwrap_or_else(|e| panic!("{e:?}"));
    mcp_lanes_core::server::Server::new(loaded.setups[0].server.clone())
}

fn reserve(id: i64, extra: Value) -> Value {
    let mut params = json!({
        "name": "reserve",
        "arguments": {"sku": "A-7"},
        "_meta": common::meta_of("2026-07-28", json!({"elicitation": {}}))
    });
    if let (Some(p), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        p.extend(extra.clone());
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

#[test]
fn m_mrtr_state_a_file_tool_s_request_state_is_signed_and_checked() {
    let file = scenario(asking(), "rich", json!([]));
    let mut server = server_of(&file);
    let first = common::reply(&mut server, &reserve(1, json!({})));
    let state = first["result"]["requestState"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(state.contains('.'), "a signed state has a tag: {first}");
    let answer = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    // What the client builds itself (the old unsigned form), a changed
    // state, and the state of another call: refused, nothing done.
    use base64::Engine as _;
    let built = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(r#"v1|reserve|{"sku":"A-7"}"#.as_bytes());
    let (body, tag) = state.split_once('.').unwrap_or_default();
    let changed = format!("{body}x.{tag}");
    for forged in [built, changed] {
        let reply = common::reply(
            &mut server,
            &reserve(2, json!({"inputResponses": answer, "requestState": forged})),
        );
        assert_eq!(
            reply.pointer("/error/code"),
            Some(&json!(-32602)),
            "{reply}"
        );
        let message = reply
            .pointer("/error/message")
            .and_then(Value::as_str)
            .unwrap_or("");
        assert!(
            message.starts_with("Invalid params: requestState"),
            "{message}"
        );
    }
    let mut other = reserve(3, json!({"inputResponses": answer, "requestState": state}));
    other["params"]["arguments"]["sku"] = json!("B-9");
    let reply = common::reply(&mut server, &other);
    assert_eq!(
        reply.pointer("/error/message"),
        Some(&json!(
            "Invalid params: requestState belongs to another request"
        ))
    );
    // The state as issued completes the call.
    let done = common::reply(
        &mut server,
        &reserve(4, json!({"inputResponses": answer, "requestState": state})),
    );
    assert_eq!(text_of(&done), "Reserved A-7.", "{done}");
}

fn send(text: &str) -> Value {
    json!({"do": "send", "text": text})
}

#[test]
fn rpc_notify_a_hand_written_notification_does_not_stall_the_lane() {
    for transport in ["stdio", "http"] {
        let mut file = scenario(
            weather("modern"),
            "bare",
            json!([
                send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}"#),
                {"do": "list", "what": "tools"}
            ]),
        );
        file["setups"][0]["transport"] = json!(transport);
        let t = &run(&file)[0];
        let methods: Vec<Value> = sent(t, Side::Client)
            .iter()
            .map(|m| m["method"].clone())
            .collect();
        assert_eq!(
            methods,
            [json!("notifications/cancelled"), json!("tools/list")],
            "{transport}"
        );
        assert!(results(t)
            .pop()
            .and_then(|r| r.pointer("/result/tools").cloned())
            .is_some());
    }
}

#[test]
fn rpc_id_a_hand_written_request_with_a_null_id_gets_32600_and_the_lane_goes_on() {
    let file = scenario(
        weather("modern"),
        "bare",
        json!([
            {"do": "send", "text": r#"{"jsonrpc":"2.0","id":null,"method":"tools/list","params":{}}"#, "violation": "a request id is never null"},
            {"do": "list", "what": "tools"}
        ]),
    );
    let t = &run(&file)[0];
    let from_server = sent(t, Side::Server);
    assert_eq!(
        from_server[0].pointer("/error/code"),
        Some(&json!(-32600)),
        "{from_server:?}"
    );
    assert_eq!(from_server[0]["id"], Value::Null);
    assert!(
        from_server[1].pointer("/result/tools").is_some(),
        "{from_server:?}"
    );
}

#[test]
fn rpc_id_a_send_step_s_id_is_skipped_by_the_client_and_a_reused_one_is_a_violation() {
    let file = scenario(
        weather("modern"),
        "bare",
        json!([
            {"do": "list", "what": "tools"},
            send(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#),
            {"do": "list", "what": "prompts"},
            send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#)
        ]),
    );
    let t = &run(&file)[0];
    let ids: Vec<Value> = sent(t, Side::Client)
        .iter()
        .map(|m| m["id"].clone())
        .collect();
    assert_eq!(ids, [json!(1), json!(2), json!(3), json!(1)]);
    let reused: Vec<_> = t
        .messages()
        .filter(|(_, m)| m.from == Side::Client && m.violation.is_some())
        .map(|(e, m)| (e.rules.clone(), m.violation.clone().unwrap_or_default()))
        .collect();
    assert_eq!(reused.len(), 1, "{reused:?}");
    assert!(
        reused[0].0.contains(&"RPC-ID") && reused[0].1.contains("id 1"),
        "{reused:?}"
    );
}

#[test]
fn m_version_retry_a_hand_written_request_is_sent_once_and_never_said_to_be_retried() {
    let file = scenario(
        weather("modern"),
        "bare",
        json!([
            send(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}"#),
            {"do": "list", "what": "tools"}
        ]),
    );
    let t = &run(&file)[0];
    let lists = sent(t, Side::Client);
    assert_eq!(
        lists.len(),
        2,
        "one hand-written request, then the step's own: {lists:?}"
    );
    assert_eq!(results(t)[0].pointer("/error/code"), Some(&json!(-32022)));
    let all = notes(t);
    for (note, _) in &all {
        let lower = note.to_lowercase();
        assert!(
            !lower.contains("retries") && !lower.contains("can retry"),
            "{all:#?}"
        );
    }
}

#[test]
fn m_log_level_an_unknown_level_is_refused_with_32602() {
    let file = scenario(
        weather("modern"),
        "bare",
        json!([
            {"do": "request", "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/logLevel": "verbose"}}},
            {"do": "request", "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/logLevel": "debug"}}}
        ]),
    );
    let t = &run_server_checked(&file)[0];
    let r = results(t);
    assert_eq!(
        r[0].pointer("/error/code"),
        Some(&json!(-32602)),
        "{}",
        r[0]
    );
    assert!(r[1].pointer("/result/tools").is_some(), "{}", r[1]);
    assert!(notes(t)
        .iter()
        .any(|(n, rules)| rules.contains(&"M-LOG-LEVEL") && n.contains("verbose")));
}

#[test]
fn m_prompts_a_legacy_session_serves_the_prompts_it_lists() {
    for client in ["legacy-old", "legacy-new", "bare"] {
        let era = if client == "bare" { "modern" } else { "legacy" };
        let file = scenario(
            weather(era),
            client,
            json!([
                {"do": "list", "what": "prompts"},
                {"do": "get-prompt", "name": "trip", "arguments": {"city": "Oslo"}},
                {"do": "get-prompt", "name": "trip"},
                {"do": "get-prompt", "name": "nope"}
            ]),
        );
        let t = &run(&file)[0];
        let r = results(t);
        let n = r.len();
        assert_eq!(
            r[n - 3].pointer("/result/messages/0/content/text"),
            Some(&json!("Plan a trip to Oslo.")),
            "{client}: {}",
            r[n - 3]
        );
        assert_eq!(
            r[n - 2].pointer("/error/code"),
            Some(&json!(-32602)),
            "{client}"
        );
        assert_eq!(
            r[n - 1].pointer("/error/code"),
            Some(&json!(-32602)),
            "{client}"
        );
        assert_eq!(
            r[n - 1].pointer("/error/message"),
            Some(&json!("Unknown prompt: nope"))
        );
    }
}

#[test]
fn m_tool_input_the_question_s_own_argument_is_filled_from_the_answer() {
    for (era, client) in [("modern", "rich"), ("legacy", "legacy-host")] {
        let server = json!({
            "id": "srv",
            "era": era,
            "tools": [{
                "name": "today",
                "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string"}}, "required": ["city"]},
                "asks": {
                    "message": "Which unit for {city}?",
                    "argument": "unit",
                    "requestedSchema": {"type": "object", "properties": {"unit": {"type": "string", "default": "celsius"}}}
                },
                "result": "{city}: 14 degrees {unit}."
            }]
        });
        let file = scenario(
            server,
            client,
            json!([{"do": "call", "tool": "today", "arguments": {"city": "Oslo"}}]),
        );
        let t = &run(&file)[0];
        let answer = results(t).pop().unwrap_or_default();
        // The simulated user answers the form (its own value for unit).
        let text = text_of(&answer);
        assert!(
            text.starts_with("Oslo: 14 degrees ") && !text.contains('{'),
            "{era}: {answer}"
        );
    }
}

#[test]
fn l_tool_input_2024_11_05_and_2025_03_26_sessions_get_32602_too() {
    for version in ["2024-11-05", "2025-03-26"] {
        let mut server = weather("legacy");
        server["legacyVersions"] = json!([version]);
        let mut file = scenario(server, "legacy-old", json!([call(json!({"city": 7}))]));
        file["clients"][1]["legacyVersions"] = json!([version]);
        let t = &run(&file)[0];
        let answer = results(t).pop().unwrap_or_default();
        assert_eq!(
            answer.pointer("/error/code"),
            Some(&json!(-32602)),
            "{version}: {answer}"
        );
    }
}
