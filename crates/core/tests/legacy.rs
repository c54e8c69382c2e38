//! The legacy era (initialize handshake) on the server side, and the
//! lessons' legacy scenarios end to end.

mod common;

use common::*;
use mcp_lanes_core::server::presets::{self, PURGE_FALLBACK};
use mcp_lanes_core::server::{ConnId, OutputKind, Server, ServerTrigger, UnknownMethodPolicy};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::sim::{EventKind, Side};
use serde_json::{json, Value};

const LEGACY_PRESETS: &[&str] = &["notes", "search-index", "dual-era"];

#[test]
fn l_init_notes_answers_the_lessons_handshake() {
    let mut s = server("notes");
    let r = send(
        &mut s,
        &initialize(
            json!(1),
            "2025-06-18",
            json!({"roots": {"listChanged": true}, "sampling": {}, "elicitation": {}}),
        ),
    )
    .expect("reply");
    assert_eq!(r.revision, "2025-06-18");
    // The result of lesson seed 002, field for field.
    assert_eq!(
        r.message["result"],
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {
                "tools": {"listChanged": true},
                "resources": {"subscribe": true, "listChanged": false},
                "prompts": {},
            },
            "serverInfo": {"name": "notes", "version": "0.1"},
            "instructions": "Read notes before writing them.",
        })
    );
    common::schema::schemas()
        .validate_message("2025-06-18", &r.message, Some("initialize"))
        .unwrap_or_else(|f| panic!("{f}"));
    assert!(
        send(&mut s, &initialized()).is_none(),
        "initialized is a notification"
    );
    let list = reply(&mut s, &plain(json!(2), "tools/list"));
    assert_eq!(
        list["result"]["tools"].as_array().map(Vec::len),
        Some(2),
        "{list}"
    );
}

#[test]
fn l_init_initialize_comes_first() {
    for preset in ["notes", "search-index"] {
        let mut s = server(preset);
        for method in ["tools/list", "tools/call", "resources/list", "prompts/list"] {
            let r = reply(&mut s, &plain(json!(1), method));
            assert!(
                r.get("error").is_some(),
                "{preset}: {method} before initialize was served: {r}"
            );
        }
        // ping is allowed before initialize.
        let r = reply(&mut s, &plain(json!(2), "ping"));
        assert_eq!(r["result"], json!({}), "{r}");
    }
}

#[test]
fn l_init_initialize_needs_version_capabilities_and_client_info() {
    for params in [
        json!({}),
        json!({"capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}),
        json!({"protocolVersion": "2025-06-18", "clientInfo": {"name": "x", "version": "1"}}),
        json!({"protocolVersion": "2025-06-18", "capabilities": [], "clientInfo": {"name": "x", "version": "1"}}),
        json!({"protocolVersion": "2025-06-18", "capabilities": {}}),
        json!({"protocolVersion": 20250618, "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}),
    ] {
        for preset in LEGACY_PRESETS {
            let mut s = server(preset);
            let r = reply(
                &mut s,
                &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}),
            );
            assert_eq!(code(&r), Some(-32602), "{preset} {params}: {r}");
        }
    }
}

#[test]
fn l_init_client_sends_initialized_before_anything_else() {
    for id in [
        "legacy-handshake",
        "compatibility-matrix",
        "list-changed-debounce",
        "elicitation-checked",
    ] {
        for t in run(id) {
            let client = sent_by(&t, Side::Client);
            let m = methods(&client);
            let Some(init) = m.iter().position(|x| x == "initialize") else {
                continue;
            };
            let params = &client
                .iter()
                .filter(|(_, v)| v.get("method").is_some())
                .nth(init)
                .expect("init")
                .1["params"];
            assert!(
                params["protocolVersion"].is_string()
                    && params["capabilities"].is_object()
                    && params["clientInfo"]["name"].is_string(),
                "{params}"
            );
            if let Some(next) = m.get(init + 1) {
                assert_eq!(
                    next, "notifications/initialized",
                    "{id} / {}: {m:?}",
                    t.label
                );
            }
        }
    }
}

#[test]
fn l_version_echo_or_counter_offer_with_the_latest() {
    let cases = [
        ("notes", "2025-06-18", "2025-06-18"),
        ("notes", "2025-11-25", "2025-06-18"),
        ("notes", "2024-11-05", "2025-06-18"),
        ("notes", "2099-01-01", "2025-06-18"),
        ("dual-era", "2025-06-18", "2025-06-18"),
        ("dual-era", "2025-11-25", "2025-11-25"),
        ("dual-era", "2024-11-05", "2025-11-25"),
        ("dual-era", "2026-07-28", "2025-11-25"),
    ];
    for (preset, asked, answered) in cases {
        let mut s = server(preset);
        let r = send(&mut s, &initialize(json!(1), asked, json!({}))).expect("reply");
        assert_eq!(
            r.message["result"]["protocolVersion"], answered,
            "{preset} asked {asked}"
        );
        assert_eq!(r.revision, answered);
    }
}

#[test]
fn l_version_client_that_cannot_speak_the_answer_disconnects() {
    let timelines = run("legacy-handshake");
    let refused = timelines
        .iter()
        .find(|t| t.label == "counter-offer refused")
        .expect("set-up");
    let client = methods(&sent_by(refused, Side::Client));
    assert_eq!(
        client,
        vec!["initialize"],
        "nothing after the counter-offer"
    );
    assert!(refused.events.iter().any(|e| matches!(
        e.kind,
        EventKind::Disconnected { side: Side::Client }
    ) && e.rules.contains(&"L-VERSION")));
    let accepted = timelines
        .iter()
        .find(|t| t.label == "counter-offer accepted")
        .expect("set-up");
    assert_eq!(
        methods(&sent_by(accepted, Side::Client)),
        vec!["initialize", "notifications/initialized", "tools/list"]
    );
}

#[test]
fn l_cap_session_capabilities_are_fixed_at_initialize() {
    // Declared at initialize: the server may ask.
    let mut s = server("search-index");
    handshake(&mut s, "2025-06-18", json!({"elicitation": {}}));
    let r = send(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "purge_index", "arguments": {"index": "prod-catalog"}}}),
    );
    assert!(r.is_none(), "the call waits for the user's answer");
    let outs = drain(&mut s);
    let ask = outs
        .iter()
        .find_map(|o| match &o.kind {
            OutputKind::Send {
                message, violation, ..
            } => Some((message.clone(), violation.clone())),
            _ => None,
        })
        .expect("elicitation/create sent");
    assert_eq!(ask.0["method"], "elicitation/create");
    assert_eq!(
        ask.0["id"], 7,
        "search-index numbers its own requests from 7"
    );
    assert!(
        ask.1.is_none(),
        "asking a client that declared elicitation is no violation"
    );
    common::schema::schemas()
        .validate_message("2025-06-18", &ask.0, None)
        .unwrap_or_else(|f| panic!("{f}"));
    // The answer completes the call and releases the lock.
    assert!(send(&mut s, &json!({"jsonrpc": "2.0", "id": 7, "result": {"action": "accept", "content": {"retention_days": 30}}})).is_none());
    let done = drain(&mut s)
        .into_iter()
        .find_map(|o| match o.kind {
            OutputKind::Send { message, .. } => Some(message),
            _ => None,
        })
        .expect("the call's result");
    assert_eq!(done["id"], 1);
    assert_eq!(done["result"]["content"][0]["text"], "Purged prod-catalog.");
    assert!(s.locks_held().is_empty());

    // Not declared at initialize: a per-request _meta cannot add it later.
    let mut s = server("search-index");
    handshake(
        &mut s,
        "2025-06-18",
        json!({"roots": {"listChanged": true}, "sampling": {}}),
    );
    let r = reply(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "purge_index", "arguments": {"index": "prod-catalog"},
        "_meta": meta_of(MODERN, json!({"elicitation": {}}))}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(
        !drain(&mut s)
            .iter()
            .any(|o| matches!(o.kind, OutputKind::Send { .. })),
        "never elicit from a client that did not declare it"
    );
}

#[test]
fn l_cap_session_methods_not_offered_are_refused() {
    let mut s = server("search-index");
    handshake(&mut s, "2025-06-18", json!({}));
    for method in [
        "prompts/list",
        "resources/list",
        "resources/subscribe",
        "logging/setLevel",
        "completion/complete",
        "server/discover",
    ] {
        let r = reply(&mut s, &plain(json!(1), method));
        assert_eq!(code(&r), Some(-32601), "{method}: {r}");
    }
}

#[test]
fn l_undeclared_three_client_behaviours_side_by_side() {
    let timelines = run("elicitation-unchecked");
    assert_eq!(timelines.len(), 3);
    for t in &timelines {
        assert_timeline_valid(t);
        let server_msgs = sent_by(t, Side::Server);
        let ask = server_msgs
            .iter()
            .find(|(_, m)| m["method"] == "elicitation/create")
            .expect("the server asks anyway");
        assert_eq!(ask.1["id"], 7);
        assert!(t
            .events
            .iter()
            .any(|e| matches!(e.kind, EventKind::LockTaken { .. })));
    }
    let by = |label: &str| {
        timelines
            .iter()
            .find(|t| t.label.contains(label))
            .unwrap_or_else(|| panic!("no set-up {label}"))
    };

    // -32601: the server catches it, releases the lock, answers a tool error.
    let t = by("-32601");
    let client = sent_by(t, Side::Client);
    assert!(
        client
            .iter()
            .any(|(_, m)| m["id"] == 7 && code(m) == Some(-32601)),
        "{client:?}"
    );
    let last = sent_by(t, Side::Server).last().cloned().expect("a reply").1;
    assert_eq!(
        (last["id"].clone(), last["result"]["isError"].clone()),
        (json!(1), json!(true)),
        "{last}"
    );
    assert_eq!(t.summary.leaked_locks, 0);

    // Silent drop: the server waits for id 7 forever; the host kills the run
    // at 600 s, which sends nothing; the lock leaks.
    let t = by("drop");
    assert!(
        !sent_by(t, Side::Client).iter().any(|(_, m)| m["id"] == 7),
        "the client never answers"
    );
    let kill = t
        .events
        .iter()
        .find(|e| matches!(e.kind, EventKind::HostKill))
        .expect("host kill");
    assert_eq!(kill.at_ms, 600_000);
    assert!(t.events.iter().all(|e| e.at_ms <= 600_000));
    assert!(
        !sent_by(t, Side::Server).iter().any(|(_, m)| m["id"] == 1),
        "the call never completes"
    );
    assert_eq!(t.summary.leaked_locks, 1, "{:?}", t.summary);
    assert!(
        t.summary.outcome.contains("leaked"),
        "{}",
        t.summary.outcome
    );

    // Disconnect: a different failure in a different place.
    let t = by("closes");
    assert!(t
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::Disconnected { side: Side::Client })));
    assert!(!sent_by(t, Side::Client).iter().any(|(_, m)| m["id"] == 7));
    assert!(
        !sent_by(t, Side::Server).iter().any(|(_, m)| m["id"] == 1),
        "no result after the disconnect"
    );
}

#[test]
fn l_undeclared_a_checking_server_never_probes() {
    for t in run("elicitation-checked") {
        assert_timeline_valid(&t);
        let server_methods = methods(&sent_by(&t, Side::Server));
        assert!(
            server_methods.is_empty(),
            "{}: the server sent {server_methods:?}",
            t.label
        );
        assert_eq!(t.summary.leaked_locks, 0, "{}", t.label);
        assert!(
            !t.events
                .iter()
                .any(|e| matches!(e.kind, EventKind::HostKill | EventKind::Disconnected { .. })),
            "{}",
            t.label
        );
    }
}

#[test]
fn l_fallback_tool_error_names_argument_legal_values_and_context() {
    let mut s = server("search-index");
    handshake(
        &mut s,
        "2025-06-18",
        json!({"roots": {"listChanged": true}, "sampling": {}}),
    );
    let r = reply(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "purge_index", "arguments": {"index": "prod-catalog"}}}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    let text = r["result"]["content"][0]["text"].as_str().expect("text");
    assert_eq!(text, PURGE_FALLBACK.replace("{index}", "prod-catalog"));
    // The lesson's message, word for word.
    assert_eq!(
        text,
        "Refusing to purge prod-catalog: this client cannot prompt for a retention choice, and purge_index requires one. Call purge_index with retention_days set explicitly (0 for a full purge, or a positive number of days to keep). Index size: 2,400,118 documents."
    );
    assert!(
        !drain(&mut s)
            .iter()
            .any(|o| matches!(o.kind, OutputKind::LockTaken(_))),
        "checked before the lock"
    );
    // Proceeding without asking is not the fallback: the re-call with the
    // argument is what completes.
    let r = reply(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "purge_index", "arguments": {"index": "prod-catalog", "retention_days": 0}}}),
    );
    assert_eq!(
        r["result"]["content"][0]["text"], "Purged prod-catalog.",
        "{r}"
    );
    assert!(r["result"].get("isError").is_none());
    assert!(s.locks_held().is_empty());
}

#[test]
fn l_fallback_names_the_index_the_call_named() {
    let mut s = server("search-index");
    handshake(&mut s, "2025-06-18", json!({}));
    let r = reply(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "purge_index", "arguments": {"index": "staging-catalog"}}}),
    );
    let text = r["result"]["content"][0]["text"].as_str().expect("text");
    assert!(
        text.contains("staging-catalog") && !text.contains("prod-catalog"),
        "{text}"
    );
}

#[test]
fn l_fallback_client_reads_the_tool_error_and_re_calls() {
    for t in run("elicitation-checked") {
        let client = sent_by(&t, Side::Client);
        let calls: Vec<&Value> = client
            .iter()
            .map(|(_, m)| m)
            .filter(|m| m["method"] == "tools/call")
            .collect();
        assert_eq!(calls.len(), 2, "{}", t.label);
        assert_eq!(calls[1]["params"]["arguments"]["retention_days"], 0);
        assert_ne!(calls[0]["id"], calls[1]["id"]);
        let last = sent_by(&t, Side::Server).last().cloned().expect("reply").1;
        assert_eq!(
            last["result"]["content"][0]["text"], "Purged prod-catalog.",
            "{}",
            t.label
        );
    }
}

#[test]
fn l_list_changed_server_notifies_operating_sessions_only_when_declared() {
    let mut s = server("notes");
    handshake(&mut s, "2025-06-18", json!({}));
    // A second connection that has not finished its handshake.
    s.handle_text(
        SimTime::ZERO,
        &ConnId::stdio_named("other"),
        &initialize(json!(1), "2025-06-18", json!({})).to_string(),
    );
    drain(&mut s);
    s.trigger(SimTime::ZERO, ServerTrigger::ToolsChanged);
    let outs = drain(&mut s);
    let sent: Vec<(ConnId, &Value)> = outs
        .iter()
        .filter_map(|o| match &o.kind {
            OutputKind::Send { message, .. } => Some((o.conn.clone(), message)),
            _ => None,
        })
        .collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].0, ConnId::stdio());
    assert_eq!(
        sent[0].1,
        &json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    );
    // The dual-era server did not declare listChanged: no notice.
    let mut s = server("dual-era");
    handshake(&mut s, "2025-11-25", json!({}));
    s.trigger(SimTime::ZERO, ServerTrigger::ToolsChanged);
    assert!(!drain(&mut s)
        .iter()
        .any(|o| matches!(o.kind, OutputKind::Send { .. })));
}

#[test]
fn l_list_changed_burst_becomes_one_relist() {
    let timelines = run("list-changed-debounce");
    let relists = |label: &str| {
        let t = timelines
            .iter()
            .find(|t| t.label.contains(label))
            .expect("set-up");
        assert_timeline_valid(t);
        let client = sent_by(t, Side::Client);
        let notices: Vec<u64> = sent_by(t, Side::Server)
            .iter()
            .filter(|(_, m)| m["method"] == "notifications/tools/list_changed")
            .map(|(at, _)| *at)
            .collect();
        assert_eq!(notices.len(), 3, "{label}");
        let after: Vec<u64> = client
            .iter()
            .filter(|(at, m)| m["method"] == "tools/list" && *at >= notices[0])
            .map(|(at, _)| *at)
            .collect();
        (notices, after)
    };
    let (notices, after) = relists("debounced");
    assert_eq!(after.len(), 1, "one re-list for the burst: {after:?}");
    assert!(
        after[0] >= notices[2] + 200,
        "after the quiet period: {after:?} vs {notices:?}"
    );
    let (_, eager) = relists("every notice");
    assert_eq!(eager.len(), 3, "{eager:?}");
}

#[test]
fn l_subscribe_is_accepted_when_declared() {
    let mut s = server("notes");
    handshake(&mut s, "2025-06-18", json!({}));
    for (id, method) in [(1, "resources/subscribe"), (2, "resources/unsubscribe")] {
        let r = reply(
            &mut s,
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"uri": "note://standup"}}),
        );
        assert_eq!(r["result"], json!({}), "{method}: {r}");
        common::schema::schemas()
            .validate_message("2025-06-18", &r, Some(method))
            .unwrap_or_else(|f| panic!("{f}"));
    }
    // A server that did not declare resources.subscribe does not accept it.
    let mut cfg = presets::notes();
    if let Some(resources) = cfg.capabilities.resources.as_mut() {
        resources.subscribe = Some(false);
    }
    let mut s = Server::new(cfg);
    handshake(&mut s, "2025-06-18", json!({}));
    let r = reply(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe", "params": {"uri": "note://standup"}}),
    );
    assert_eq!(code(&r), Some(-32601), "{r}");
}

#[test]
fn l_degrade_missing_prompts_and_logging_change_the_path_not_the_outcome() {
    let timelines = run("compatibility-matrix");
    let t = timelines
        .iter()
        .find(|t| t.label == "legacy client, dual-era server")
        .expect("set-up");
    let degrade: Vec<&str> = t
        .events
        .iter()
        .filter(|e| e.rules.contains(&"L-DEGRADE"))
        .map(|e| e.note.as_str())
        .collect();
    assert!(degrade.iter().any(|n| n.contains("prompt")), "{degrade:?}");
    assert!(degrade.iter().any(|n| n.contains("log")), "{degrade:?}");
    // And it carries on: the tool list is fetched and answered.
    let last = sent_by(t, Side::Server).last().cloned().expect("reply").1;
    assert!(last["result"]["tools"].is_array(), "{last}");
    // The notes server has prompts: no prompt-menu degradation there.
    let t = timelines
        .iter()
        .find(|t| t.label == "legacy client, legacy server")
        .expect("set-up");
    assert!(!t
        .events
        .iter()
        .any(|e| e.rules.contains(&"L-DEGRADE") && e.note.contains("prompt")));
}

#[test]
fn e_server_select_dual_era_serves_both_eras_on_one_connection() {
    let mut s = server("dual-era");
    let init = handshake(&mut s, "2025-11-25", json!({"elicitation": {}}));
    assert_eq!(init["protocolVersion"], "2025-11-25");
    // A legacy request in the session: legacy result (no resultType, no _meta).
    let legacy = send(&mut s, &plain(json!(1), "tools/list")).expect("reply");
    assert_eq!(legacy.revision, "2025-11-25");
    assert!(legacy.message["result"]["tools"].is_array());
    assert!(
        legacy.message["result"].get("resultType").is_none(),
        "{}",
        legacy.message
    );
    // A modern request on the same connection: served statelessly.
    let modern_reply = send(
        &mut s,
        &modern(json!(2), "tools/list", json!({}), json!({})),
    )
    .expect("reply");
    assert_eq!(modern_reply.revision, MODERN);
    assert_eq!(modern_reply.message["result"]["resultType"], "complete");
    // The session's elicitation does not leak into modern requests.
    let r = reply(
        &mut s,
        &call(
            json!(3),
            "notify_oncall",
            json!({"incident": "I"}),
            json!({}),
        ),
    );
    assert_eq!(code(&r), Some(-32021), "{r}");
    // Without a session, a request with _meta is modern.
    let mut fresh = server("dual-era");
    let r = reply(
        &mut fresh,
        &modern(json!(1), "server/discover", json!({}), json!({})),
    );
    assert_eq!(r["result"]["resultType"], "complete");
    // Never 2026-07-28 as a legacy version.
    let mut s = server("dual-era");
    let r = reply(&mut s, &initialize(json!(1), "2026-07-28", json!({})));
    assert_ne!(r["result"]["protocolVersion"], "2026-07-28", "{r}");
}

#[test]
fn e_server_select_http_sessions_are_scoped() {
    use mcp_lanes_core::transport::http;
    let mut s = server("dual-era");
    let init = initialize(json!(1), "2025-06-18", json!({}));
    let (response, body) = common::http(
        &mut s,
        &mcp_lanes_core::transport::HttpRequest::post(
            http::legacy_headers(None, None),
            init.to_string(),
        ),
    );
    assert_eq!(response.status, 200, "{body}");
    let session = response
        .header("Mcp-Session-Id")
        .expect("a dual-era server mints a legacy session")
        .to_string();
    let list = plain(json!(2), "tools/list");
    let (r, body) = common::http(
        &mut s,
        &mcp_lanes_core::transport::HttpRequest::post(
            http::legacy_headers(Some("2025-06-18"), Some(&session)),
            list.to_string(),
        ),
    );
    assert_eq!(r.status, 200);
    assert!(
        body["result"]["tools"].is_array() && body["result"].get("resultType").is_none(),
        "{body}"
    );
    // A modern request without a session is served statelessly meanwhile.
    let (r, body) = common::http(
        &mut s,
        &post(&modern(json!(3), "tools/list", json!({}), json!({}))),
    );
    assert_eq!(
        (r.status, body["result"]["resultType"].clone()),
        (200, json!("complete"))
    );
}

#[test]
fn l_undeclared_legacy_silent_server_answers_nothing() {
    let mut cfg = presets::notes();
    cfg.unknown_method = UnknownMethodPolicy::Silent;
    let mut s = Server::new(cfg);
    assert!(send(
        &mut s,
        &modern(json!(1), "server/discover", json!({}), json!({}))
    )
    .is_none());
    assert!(drain(&mut s)
        .iter()
        .any(|o| matches!(o.kind, OutputKind::Dropped(_))));
    // It still speaks its own era.
    handshake(&mut s, "2025-06-18", json!({}));
}

#[test]
fn l_cap_session_dual_era_legacy_session_without_elicitation_is_never_paged() {
    // notify_oncall requires elicitation. A legacy session that did not
    // declare it gets a tool error naming the capability, before any work;
    // the modern path refuses the same call with -32021.
    let mut s = server("dual-era");
    handshake(&mut s, "2025-11-25", json!({}));
    let legacy_call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "notify_oncall", "arguments": {"incident": "INC-4211"}}});
    let r = send(&mut s, &legacy_call).expect("reply");
    assert_eq!(r.revision, "2025-11-25");
    assert_eq!(r.message["result"]["isError"], json!(true), "{}", r.message);
    let text = r.message["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("elicitation"), "names the capability: {text}");
    assert!(!text.contains("Paged"), "never pages: {text}");
    assert!(r.rules.contains(&"L-CAP-SESSION") && r.rules.contains(&"M-CAP-BEFORE-WORK"));
    assert!(
        drain(&mut s)
            .iter()
            .all(|o| !matches!(o.kind, OutputKind::LockTaken(_) | OutputKind::Send { .. })),
        "nothing is done and nothing is sent"
    );
    common::schema::schemas()
        .validate_message("2025-11-25", &r.message, Some("tools/call"))
        .unwrap_or_else(|f| panic!("{f}"));
    // The same call in a session that declared elicitation completes.
    let mut s = server("dual-era");
    handshake(&mut s, "2025-11-25", json!({"elicitation": {}}));
    let r = reply(&mut s, &legacy_call);
    assert!(r["result"].get("isError").is_none(), "{r}");
    // Era parity: the modern path refuses the same call too.
    let r = reply(
        &mut s,
        &call(
            json!(2),
            "notify_oncall",
            json!({"incident": "INC-4211"}),
            json!({}),
        ),
    );
    assert_eq!(code(&r), Some(-32021), "{r}");
}

#[test]
fn l_cap_session_every_checking_legacy_preset_reads_required_capabilities() {
    // Every legacy-speaking preset that checks before work refuses a tool
    // whose required capabilities the session did not declare.
    for preset in LEGACY_PRESETS {
        let config = presets::server(preset).expect("preset");
        if !config.checks_capability_before_work {
            continue;
        }
        for tool in config.tools.iter().filter(|t| !t.requires.is_empty()) {
            let mut s = Server::new(config.clone());
            handshake(&mut s, &config.legacy_versions[0], json!({}));
            let r = reply(
                &mut s,
                &json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                    "params": {"name": tool.name, "arguments": {}}}),
            );
            assert_eq!(
                r["result"]["isError"],
                json!(true),
                "{preset} {}: {r}",
                tool.name
            );
        }
    }
}

#[test]
fn rpc_id_legacy_session_refuses_an_id_used_before_in_the_session() {
    for preset in LEGACY_PRESETS {
        let mut s = server(preset);
        handshake(&mut s, "2025-11-25", json!({}));
        let first = reply(&mut s, &plain(json!(2), "tools/list"));
        assert!(first.get("result").is_some(), "{preset}: {first}");
        // The same id again: refused before any work, naming RPC-ID.
        let again = send(&mut s, &plain(json!(2), "tools/list")).expect("reply");
        assert_eq!(
            code(&again.message),
            Some(-32600),
            "{preset}: {}",
            again.message
        );
        assert_eq!(again.message["id"], json!(2));
        assert!(
            again.rules.contains(&"RPC-ID"),
            "{preset}: {:?}",
            again.rules
        );
        // initialize's id counts too (handshake uses id 0).
        let init_id = send(&mut s, &plain(json!(0), "ping")).expect("reply");
        assert_eq!(code(&init_id.message), Some(-32600), "{preset}");
        // A new id is served as usual.
        let fresh = reply(&mut s, &plain(json!(3), "tools/list"));
        assert!(fresh.get("result").is_some(), "{preset}: {fresh}");
    }
}

#[test]
fn rpc_id_a_new_connection_is_a_new_session_with_fresh_ids() {
    let mut s = server("notes");
    handshake(&mut s, "2025-11-25", json!({}));
    assert!(reply(&mut s, &plain(json!(2), "tools/list"))
        .get("result")
        .is_some());
    s.handle_disconnect(SimTime::ZERO, &ConnId::stdio());
    drain(&mut s);
    handshake(&mut s, "2025-11-25", json!({}));
    let list = reply(&mut s, &plain(json!(2), "tools/list"));
    assert!(list.get("result").is_some(), "{list}");
}

/// The server's decision notes, in order.
fn decision_notes(outs: &[mcp_lanes_core::server::ServerOutput]) -> Vec<String> {
    outs.iter()
        .filter(|o| matches!(o.kind, OutputKind::Decision))
        .map(|o| o.note.to_string())
        .collect()
}

#[test]
fn l_timeout_a_cancelled_call_waiting_for_its_elicitation_is_dropped_and_a_late_answer_gets_nothing(
) {
    let mut s = server("search-index");
    handshake(&mut s, "2025-06-18", json!({"elicitation": {}}));
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "purge_index", "arguments": {"index": "prod-catalog"}}});
    assert!(
        send(&mut s, &call).is_none(),
        "the call waits for the user's answer"
    );
    drain(&mut s);
    assert!(
        !s.locks_held().is_empty(),
        "the waiting call holds its lock"
    );
    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "user gave up"}});
    assert!(
        send(&mut s, &cancel).is_none(),
        "a notification gets no response"
    );
    let outs = drain(&mut s);
    assert!(
        s.locks_held().is_empty(),
        "the cancelled call released its lock"
    );
    assert!(
        outs.iter()
            .all(|o| !matches!(o.kind, OutputKind::Send { .. })),
        "nothing is sent for a cancelled call"
    );
    let notes = decision_notes(&outs).join("\n");
    assert!(notes.contains("purge_index"), "{notes}");
    // The user's answer comes after the cancellation: it matches nothing,
    // and the cancelled call never gets a result.
    assert!(send(&mut s, &json!({"jsonrpc": "2.0", "id": 7, "result": {"action": "accept", "content": {"retention_days": 30}}})).is_none());
    let late = drain(&mut s);
    assert!(
        late.iter()
            .all(|o| !matches!(o.kind, OutputKind::Send { .. })),
        "a late answer revives nothing: {late:?}"
    );
}

#[test]
fn l_timeout_a_cancellation_for_an_id_the_client_never_used_is_ignored_not_narrated_as_stopping_work(
) {
    let mut s = server("notes");
    handshake(&mut s, "2025-06-18", json!({}));
    reply(&mut s, &plain(json!(2), "tools/list"));
    drain(&mut s);
    for (id, known) in [(json!(99), false), (json!(2), true)] {
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}});
        assert!(send(&mut s, &cancel).is_none());
        let notes = decision_notes(&drain(&mut s)).join("\n");
        // An id the client never used: nothing to stop. One it used: the
        // server stops what may still run, and says an answered one is
        // left as it is.
        assert_eq!(notes.contains("never sent"), !known, "{id}: {notes}");
        assert_eq!(notes.contains("stops any work"), known, "{id}: {notes}");
    }
}
