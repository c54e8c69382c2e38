//! The modern era (2026-07-28) on the server side, driven over stdio with
//! hand-written JSON: JSON-RPC basics, `_meta`, versions, capabilities,
//! discovery, cache hints and MRTR.

mod common;

use common::schema::schemas;
use common::*;
use mcp_lanes_core::protocol::capabilities::ElicitationCapability;
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::protocol::version::EraMode;
use mcp_lanes_core::protocol::ClientCapabilities;
use mcp_lanes_core::server::{presets, CacheScope, ConnId, OutputKind, Server, ServerConfig};
use mcp_lanes_core::sim::SimTime;
use serde_json::{json, Value};

const MODERN_PRESETS: &[&str] = &["deploy-console", "order-desk", "dual-era"];

/// The notes server upgraded to modern-only: tools, resources and prompts,
/// so every cacheable method has something to answer.
fn modern_notes() -> ServerConfig {
    let mut cfg = presets::notes();
    cfg.era = EraMode::ModernOnly;
    cfg.modern_versions = vec![MODERN.into()];
    cfg.legacy_versions = Vec::new();
    if let Some(resources) = cfg.capabilities.resources.as_mut() {
        resources.subscribe = None;
    }
    cfg
}

/// Every modern server the tests use.
fn modern_servers() -> Vec<(String, Server)> {
    let mut out: Vec<(String, Server)> = MODERN_PRESETS
        .iter()
        .map(|p| (p.to_string(), server(p)))
        .collect();
    out.push(("modern notes".into(), Server::new(modern_notes())));
    out
}

/// A battery of valid modern requests; each server answers what it can.
fn battery() -> Vec<Value> {
    let rich = json!({"elicitation": {"form": {}, "url": {}}});
    vec![
        modern(json!(1), "server/discover", json!({}), json!({})),
        modern(json!(2), "tools/list", json!({}), json!({})),
        call(json!(3), "list_incidents", json!({}), json!({})),
        call(
            json!(4),
            "notify_oncall",
            json!({"incident": "INC-1"}),
            json!({}),
        ),
        call(
            json!(5),
            "notify_oncall",
            json!({"incident": "INC-1"}),
            rich.clone(),
        ),
        call(
            json!(6),
            "confirm_order",
            json!({"order_id": "A-1042"}),
            json!({}),
        ),
        call(
            json!(7),
            "confirm_order",
            json!({"order_id": "A-1042"}),
            rich.clone(),
        ),
        call(
            json!(8),
            "read_note",
            json!({"title": "standup"}),
            json!({}),
        ),
        call(json!(9), "no_such_tool", json!({}), json!({})),
        modern(json!(10), "prompts/list", json!({}), json!({})),
        modern(json!(11), "resources/list", json!({}), json!({})),
        modern(json!(12), "resources/templates/list", json!({}), json!({})),
        modern(
            json!(13),
            "resources/read",
            json!({"uri": "note://standup"}),
            json!({}),
        ),
        modern(
            json!(14),
            "resources/read",
            json!({"uri": "note://missing"}),
            json!({}),
        ),
        modern(
            json!(15),
            "prompts/get",
            json!({"name": "summarize_notes"}),
            json!({}),
        ),
        modern(json!(16), "ping", json!({}), json!({})),
        modern(json!(17), "no/such/method", json!({}), json!({})),
        modern_v(json!(18), "tools/list", json!({}), "2025-11-25", json!({})),
        modern(json!("s-19"), "tools/list", json!({"cursor": "x"}), rich),
    ]
}

/// Every (request, reply) of the battery on every modern server, checked
/// against the schema on the way.
fn battery_replies() -> Vec<(String, Value, Value)> {
    let mut out = Vec::new();
    for (name, mut server) in modern_servers() {
        for request in battery() {
            let reply = send(&mut server, &request)
                .unwrap_or_else(|| panic!("{name}: no reply to {request}"));
            assert_eq!(reply.revision, MODERN, "{name}: {request}");
            let method = request["method"].as_str().expect("method");
            if let Err(f) = schemas().validate_message(MODERN, &reply.message, Some(method)) {
                panic!(
                    "{name}: reply to {request} does not validate {f}\n  {}",
                    reply.message
                );
            }
            // Modern servers never send requests to the client (M-MRTR).
            for out in drain(&mut server) {
                assert!(
                    !matches!(out.kind, OutputKind::Send { .. }),
                    "{name}: a modern server sent something on its own: {out:?}"
                );
            }
            out.push((name.clone(), request, reply.message));
        }
    }
    out
}

// ---- JSON-RPC basics -------------------------------------------------------

#[test]
fn rpc_parse_text_that_is_not_json_gets_32700_without_an_id() {
    for preset in server_presets() {
        for text in [
            "{not json",
            "",
            "   ",
            "{\"jsonrpc\": \"2.0\", \"id\": 1,",
            "nul",
            "\u{0}",
        ] {
            let mut s = server(preset);
            let reply =
                send_text(&mut s, text).unwrap_or_else(|| panic!("{preset}: no reply to {text:?}"));
            assert_eq!(
                code(&reply.message),
                Some(-32700),
                "{preset} {text:?}: {}",
                reply.message
            );
            let id = reply.message.get("id");
            assert!(
                id.is_none() || id == Some(&Value::Null),
                "{preset}: id must be null/absent: {}",
                reply.message
            );
            assert_eq!(reply.message["jsonrpc"], "2.0");
            assert_eq!(reply.status, 400, "{preset}: H-STATUS for -32700");
            if reply.revision == MODERN {
                schemas()
                    .validate_message(MODERN, &reply.message, None)
                    .unwrap_or_else(|f| panic!("{f}"));
            }
        }
    }
}

#[test]
fn rpc_invalid_json_that_is_not_a_request_gets_32600() {
    let cases: Vec<(&str, Option<Value>)> = vec![
        (r#"{"id": 1, "method": "tools/list"}"#, Some(json!(1))),
        (
            r#"{"jsonrpc": "1.0", "id": 2, "method": "tools/list"}"#,
            Some(json!(2)),
        ),
        (
            r#"{"jsonrpc": 2.0, "id": 3, "method": "tools/list"}"#,
            Some(json!(3)),
        ),
        (r#"{"jsonrpc": "2.0", "id": 4}"#, Some(json!(4))),
        (
            r#"{"jsonrpc": "2.0", "id": 5, "method": 42}"#,
            Some(json!(5)),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": "six", "method": "tools/list", "params": [1]}"#,
            Some(json!("six")),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": null}"#,
            Some(json!(7)),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": null, "method": "tools/list"}"#,
            None,
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1.5, "method": "tools/list"}"#,
            None,
        ),
        (
            r#"{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}"#,
            None,
        ),
        (
            r#"{"jsonrpc": "2.0", "id": true, "method": "tools/list"}"#,
            None,
        ),
        ("[]", None),
        (
            r#"[{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]"#,
            None,
        ),
        ("42", None),
        ("\"text\"", None),
        ("null", None),
        ("{}", None),
    ];
    for preset in server_presets() {
        for (text, id) in &cases {
            let mut s = server(preset);
            let reply =
                send_text(&mut s, text).unwrap_or_else(|| panic!("{preset}: no reply to {text}"));
            assert_eq!(
                code(&reply.message),
                Some(-32600),
                "{preset} {text}: {}",
                reply.message
            );
            assert_eq!(
                reply.message.get("id"),
                id.as_ref(),
                "{preset} {text}: the id is echoed when readable"
            );
            assert_eq!(reply.status, 400, "{preset} {text}: H-STATUS for -32600");
            if reply.revision == MODERN {
                schemas()
                    .validate_message(MODERN, &reply.message, None)
                    .unwrap_or_else(|f| panic!("{text}: {f}"));
            }
        }
    }
}

#[test]
fn rpc_notify_notifications_never_get_a_response() {
    let notifications = [
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "x"}}),
        json!({"jsonrpc": "2.0", "method": "notifications/unknown/thing", "params": {"a": [1, 2]}}),
        json!({"jsonrpc": "2.0", "method": "tools/list", "params": {"_meta": meta_of(MODERN, json!({}))}}),
        json!({"jsonrpc": "2.0", "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "x", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "server/discover", "params": {}}),
    ];
    for preset in server_presets() {
        let mut s = server(preset);
        for n in &notifications {
            assert!(
                send(&mut s, n).is_none(),
                "{preset} answered the notification {n}"
            );
            for out in drain(&mut s) {
                assert!(
                    !matches!(out.kind, OutputKind::Send { .. }),
                    "{preset} sent something for the notification {n}: {out:?}"
                );
            }
        }
        // Responses the server did not ask for get no response either.
        for stray in [
            json!({"jsonrpc": "2.0", "id": 99, "result": {}}),
            json!({"jsonrpc": "2.0", "id": 99, "error": {"code": -32601, "message": "x"}}),
            json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "x"}}),
        ] {
            assert!(
                send(&mut s, &stray).is_none(),
                "{preset} answered the response {stray}"
            );
        }
    }
}

#[test]
fn rpc_unknown_field_extra_fields_are_ignored_everywhere() {
    let mut extra_meta = meta_of(
        MODERN,
        json!({
            "elicitation": {"form": {"future": true}, "url": {}, "someday": {}},
            "extensions": {"com.example/thing": {"x": 1}},
            "experimental": {"y": {}},
            "futureCapability": {"z": 1},
        }),
    );
    extra_meta["com.example/trace"] = json!("abc");
    extra_meta[meta::CLIENT_INFO] =
        json!({"name": "n", "version": "1", "title": "T", "icons": [], "vendorField": 1});
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": extra_meta.clone(), "futureParam": [1]}, "extraTop": {"a": 1}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": extra_meta.clone(), "cursor": "c", "filter": "x"}, "trace": "t"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"_meta": extra_meta.clone(), "name": "list_incidents", "arguments": {"unexpected": 1}, "task": {"ttl": 5}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"_meta": extra_meta, "name": "notify_oncall", "arguments": {"incident": "INC-1"}, "progressToken": 1}}),
    ];
    for preset in ["deploy-console", "dual-era"] {
        let mut s = server(preset);
        for r in &requests {
            let answer = reply(&mut s, r);
            assert!(
                answer.get("result").is_some(),
                "{preset}: extra fields must be ignored, got {answer} for {r}"
            );
            assert_eq!(answer["result"]["resultType"], "complete");
        }
    }
    // The legacy handshake tolerates them too.
    for preset in ["notes", "search-index", "dual-era"] {
        let mut s = server(preset);
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "extra": 1, "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {"roots": {"listChanged": true}, "futureCap": {}, "elicitation": {"someday": 1}},
            "clientInfo": {"name": "x", "version": "1", "title": "X", "vendor": "v"},
            "futureParam": true,
        }});
        let answer = reply(&mut s, &init);
        assert!(answer.get("result").is_some(), "{preset}: {answer}");
        assert!(send(
            &mut s,
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized", "params": {"x": 1}})
        )
        .is_none());
        let list = reply(
            &mut s,
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"cursor": "c", "future": 2}, "extra": 3}),
        );
        assert!(list.get("result").is_some(), "{preset}: {list}");
    }
}

#[test]
fn rpc_codes_modern_servers_never_use_legacy_or_undefined_codes() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, request, reply) in battery_replies() {
        if let Some(c) = code(&reply) {
            seen.insert(c);
            assert!(
                c != -32002 && c != -32042,
                "{name}: {c} is gone in 2026-07-28 (reply to {request})"
            );
            assert!(
                !(-32019..=-32000).contains(&c),
                "{name}: legacy server-error range {c} (reply to {request})"
            );
            assert!(
                !(-32099..=-32023).contains(&c),
                "{name}: {c} is reserved for MCP but undefined (reply to {request})"
            );
        }
    }
    // An unknown resource is -32602 now, never the old -32002.
    let mut s = Server::new(modern_notes());
    let answer = reply(
        &mut s,
        &modern(
            json!(1),
            "resources/read",
            json!({"uri": "note://missing"}),
            json!({}),
        ),
    );
    assert_eq!(code(&answer), Some(-32602), "{answer}");
    for c in [-32021, -32022, -32601, -32602] {
        assert!(
            seen.contains(&c),
            "the battery never produced {c}: {seen:?}"
        );
    }
}

// ---- _meta -------------------------------------------------------------------

#[test]
fn m_meta_required_missing_or_malformed_meta_is_32602_with_400() {
    let pv = meta::PROTOCOL_VERSION;
    let caps = meta::CLIENT_CAPABILITIES;
    let metas: Vec<(&str, Option<Value>)> = vec![
        ("no _meta", None),
        ("_meta null", Some(Value::Null)),
        ("_meta array", Some(json!([]))),
        ("_meta string", Some(json!("2026-07-28"))),
        ("no PV", Some(json!({caps: {}}))),
        ("PV number", Some(json!({pv: 20260728, caps: {}}))),
        ("PV null", Some(json!({pv: null, caps: {}}))),
        ("no CAPS", Some(json!({pv: MODERN}))),
        (
            "CAPS array",
            Some(json!({pv: MODERN, caps: ["elicitation"]})),
        ),
        ("CAPS string", Some(json!({pv: MODERN, caps: "none"}))),
        ("CAPS null", Some(json!({pv: MODERN, caps: null}))),
        (
            "only CINFO",
            Some(json!({meta::CLIENT_INFO: {"name": "x", "version": "1"}})),
        ),
    ];
    for preset in MODERN_PRESETS {
        for method in [
            "server/discover",
            "tools/list",
            "tools/call",
            "no/such/method",
        ] {
            for (why, m) in &metas {
                let mut params = json!({"name": "list_incidents", "arguments": {}});
                if let Some(m) = m {
                    params["_meta"] = m.clone();
                }
                let request =
                    json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
                let mut s = server(preset);
                let r = send(&mut s, &request).expect("a reply");
                assert_eq!(
                    code(&r.message),
                    Some(-32602),
                    "{preset} {method} {why}: {}",
                    r.message
                );
                assert_eq!(
                    r.status, 400,
                    "{preset} {method} {why}: malformed _meta is HTTP 400"
                );
                assert!(
                    r.rules.contains(&"M-META-REQUIRED"),
                    "{preset} {method} {why}: {:?}",
                    r.rules
                );
            }
            // No params at all.
            let mut s = server(preset);
            let r = send(&mut s, &plain(json!(2), method)).expect("a reply");
            assert_eq!(
                code(&r.message),
                Some(-32602),
                "{preset} {method} without params: {}",
                r.message
            );
        }
    }
}

#[test]
fn m_meta_required_client_info_is_optional() {
    for preset in MODERN_PRESETS {
        let mut s = server(preset);
        // `modern` never adds clientInfo.
        let r = reply(
            &mut s,
            &modern(json!(1), "server/discover", json!({}), json!({})),
        );
        assert!(r.get("result").is_some(), "{preset}: {r}");
        let r = reply(
            &mut s,
            &modern(json!(2), "tools/list", json!({}), json!({})),
        );
        assert!(r.get("result").is_some(), "{preset}: {r}");
    }
}

// ---- statelessness -------------------------------------------------------------

#[test]
fn m_stateless_capabilities_are_never_remembered() {
    let mut s = server("deploy-console");
    let elicit = json!({"elicitation": {}});
    // Declared on discover: says nothing about the next call.
    assert!(reply(
        &mut s,
        &modern(json!(1), "server/discover", json!({}), elicit.clone())
    )
    .get("result")
    .is_some());
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
    // Declared on the call: it completes.
    let r = reply(
        &mut s,
        &call(
            json!(3),
            "notify_oncall",
            json!({"incident": "INC-4211"}),
            elicit,
        ),
    );
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
    // Dropped again: refused again, on the same connection.
    let r = reply(
        &mut s,
        &call(
            json!(4),
            "notify_oncall",
            json!({"incident": "INC-4211"}),
            json!({}),
        ),
    );
    assert_eq!(code(&r), Some(-32021), "{r}");
    // Versions are not remembered either: a bad one after good ones is refused.
    let r = reply(
        &mut s,
        &modern_v(json!(5), "tools/list", json!({}), "2025-11-25", json!({})),
    );
    assert_eq!(code(&r), Some(-32022), "{r}");
    let r = reply(
        &mut s,
        &modern(json!(6), "tools/list", json!({}), json!({})),
    );
    assert!(r.get("result").is_some(), "{r}");
}

#[test]
fn m_stateless_same_request_same_answer_on_any_connection() {
    let mut s = server("order-desk");
    let request = call(
        json!(1),
        "confirm_order",
        json!({"order_id": "A-1042"}),
        json!({"elicitation": {}}),
    );
    let a = s
        .handle_text(
            SimTime::ZERO,
            &ConnId::stdio_named("conn-a"),
            &request.to_string(),
        )
        .expect("reply")
        .message;
    let b = s
        .handle_text(
            SimTime::from_millis(5),
            &ConnId::stdio_named("conn-b"),
            &request.to_string(),
        )
        .expect("reply")
        .message;
    let c = s
        .handle_text(
            SimTime::from_millis(10),
            &ConnId::stdio_named("conn-a"),
            &request.to_string(),
        )
        .expect("reply")
        .message;
    assert_eq!(a, b);
    assert_eq!(a, c);
}

// ---- results -------------------------------------------------------------------

#[test]
fn m_sinfo_every_modern_result_names_the_server() {
    let mut results = 0;
    for (name, request, reply) in battery_replies() {
        let Some(result) = reply.get("result") else {
            continue;
        };
        results += 1;
        let info = &result["_meta"][meta::SERVER_INFO];
        assert!(
            info["name"].is_string() && info["version"].is_string(),
            "{name}: no serverInfo in the reply to {request}: {reply}"
        );
    }
    assert!(results > 20, "only {results} results checked");
    for preset in MODERN_PRESETS {
        let cfg = presets::server(preset).expect("preset");
        let mut s = Server::new(cfg.clone());
        let r = reply(
            &mut s,
            &modern(json!(1), "server/discover", json!({}), json!({})),
        );
        assert_eq!(
            r["result"]["_meta"][meta::SERVER_INFO],
            json!({"name": cfg.info.name, "version": cfg.info.version}),
            "{preset}"
        );
    }
}

#[test]
fn m_sinfo_server_ignores_client_info_when_deciding() {
    // clientInfo is display-only: changing it changes nothing in the reply.
    for (caps, tool) in [
        (json!({}), "notify_oncall"),
        (json!({"elicitation": {}}), "notify_oncall"),
        (json!({}), "list_incidents"),
    ] {
        let mut answers = Vec::new();
        for info in [
            json!(null),
            json!({"name": "rich-desktop", "version": "4.1.0"}),
            json!({"name": "admin", "version": "999"}),
        ] {
            let mut request = call(json!(1), tool, json!({"incident": "INC-1"}), caps.clone());
            if !info.is_null() {
                request["params"]["_meta"][meta::CLIENT_INFO] = info;
            }
            let mut s = server("deploy-console");
            answers.push(reply(&mut s, &request));
        }
        assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
    }
}

#[test]
fn m_result_type_every_modern_result_says_complete_or_input_required() {
    for (name, request, reply) in battery_replies() {
        if let Some(result) = reply.get("result") {
            let rt = result.get("resultType").and_then(Value::as_str);
            assert!(
                matches!(rt, Some("complete") | Some("input_required")),
                "{name}: resultType {rt:?} in the reply to {request}"
            );
        }
    }
}

#[test]
fn m_discover_result_has_every_field() {
    let mut s = server("deploy-console");
    let r = reply(
        &mut s,
        &modern(json!("d-1"), "server/discover", json!({}), json!({})),
    );
    assert_eq!(r["id"], "d-1");
    let result = &r["result"];
    assert_eq!(
        result,
        &json!({
            "resultType": "complete",
            "supportedVersions": ["2026-07-28"],
            "capabilities": {"tools": {}},
            "instructions": "Check list_incidents before paging anyone; notify_oncall pages a human, so use it only for incidents that need one.",
            "ttlMs": 3600000,
            "cacheScope": "public",
            "_meta": {meta::SERVER_INFO: {"name": "deploy-console", "version": "2.4.0"}},
        })
    );
    schemas()
        .validate_message(MODERN, &r, Some("server/discover"))
        .unwrap_or_else(|f| panic!("{f}"));
    // Mandatory on every modern server, whatever the client declares.
    for preset in MODERN_PRESETS {
        for caps in [
            json!({}),
            json!({"elicitation": {"form": {}, "url": {}}, "sampling": {}}),
        ] {
            let mut s = server(preset);
            let r = reply(
                &mut s,
                &modern(json!(1), "server/discover", json!({}), caps),
            );
            let result = &r["result"];
            assert_eq!(result["resultType"], "complete", "{preset}: {r}");
            assert!(
                result["supportedVersions"]
                    .as_array()
                    .is_some_and(|v| v.contains(&json!(MODERN))),
                "{preset}: {r}"
            );
            assert!(result["capabilities"].is_object(), "{preset}: {r}");
            assert!(
                result["ttlMs"].is_u64() && result["cacheScope"].is_string(),
                "{preset}: {r}"
            );
        }
    }
}

// ---- versions --------------------------------------------------------------------

#[test]
fn m_version_unsupported_version_gets_32022_with_supported_and_requested() {
    for requested in [
        "2025-11-25",
        "2025-06-18",
        "2024-11-05",
        "2027-01-01",
        "",
        "banana",
    ] {
        for method in ["server/discover", "tools/list", "tools/call"] {
            let mut s = server("deploy-console");
            let request = modern_v(
                json!(7),
                method,
                json!({"name": "list_incidents"}),
                requested,
                json!({}),
            );
            let r = send(&mut s, &request).expect("reply");
            assert_eq!(r.status, 400, "{requested} {method}: HTTP 400");
            assert_eq!(r.message["id"], 7);
            assert_eq!(
                code(&r.message),
                Some(-32022),
                "{requested} {method}: {}",
                r.message
            );
            // Exactly these two fields: not `supportedVersions`.
            assert_eq!(
                r.message["error"]["data"],
                json!({"supported": ["2026-07-28"], "requested": requested}),
                "{requested} {method}"
            );
            schemas()
                .validate_message(MODERN, &r.message, None)
                .unwrap_or_else(|f| panic!("{f}"));
        }
    }
}

#[test]
fn m_version_dual_era_supported_never_lists_the_refused_version() {
    // A modern request naming 2025-11-25 is still a modern request (E-TERMS);
    // the dual-era server serves modern requests only at 2026-07-28, so it
    // refuses. data.supported must then list versions a modern retry can
    // use: a client picking 2025-11-25 from it would be refused again.
    let mut s = server("dual-era");
    let r = reply(
        &mut s,
        &modern_v(json!(1), "tools/list", json!({}), "2025-11-25", json!({})),
    );
    assert_eq!(code(&r), Some(-32022), "{r}");
    let supported = r["error"]["data"]["supported"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        !supported.contains(&json!("2025-11-25")),
        "data.supported {supported:?} contains the refused version 2025-11-25"
    );
    for v in &supported {
        let v = v.as_str().expect("string");
        let retry = reply(
            &mut s,
            &modern_v(json!(2), "tools/list", json!({}), v, json!({})),
        );
        assert!(
            retry.get("result").is_some(),
            "retrying with {v} from data.supported fails: {retry}"
        );
    }
}

// ---- capabilities ---------------------------------------------------------------

#[test]
fn m_cap_required_undeclared_capability_is_32021_with_an_object() {
    for caps in [
        json!({}),
        json!({"sampling": {}}),
        json!({"roots": {}}),
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}),
    ] {
        let mut s = server("deploy-console");
        let r = send(
            &mut s,
            &call(
                json!(5),
                "notify_oncall",
                json!({"incident": "INC-4211"}),
                caps.clone(),
            ),
        )
        .expect("reply");
        assert_eq!(r.status, 400, "{caps}");
        assert_eq!(r.message["id"], 5);
        assert_eq!(code(&r.message), Some(-32021), "{caps}: {}", r.message);
        assert_eq!(
            r.message["error"]["data"],
            json!({"requiredCapabilities": {"elicitation": {}}}),
            "{caps}"
        );
        schemas()
            .validate_message(MODERN, &r.message, None)
            .unwrap_or_else(|f| panic!("{f}"));
    }
    // The lesson's wording for confirm_order.
    let mut s = server("order-desk");
    let r = reply(
        &mut s,
        &call(
            json!(5),
            "confirm_order",
            json!({"order_id": "A-1042"}),
            json!({}),
        ),
    );
    assert_eq!(
        r,
        json!({"jsonrpc": "2.0", "id": 5, "error": {"code": -32021, "message": "confirm_order needs elicitation",
            "data": {"requiredCapabilities": {"elicitation": {}}}}})
    );
    // A tool that needs nothing never has to declare anything.
    let mut s = server("deploy-console");
    let r = reply(
        &mut s,
        &call(json!(6), "list_incidents", json!({}), json!({})),
    );
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
}

#[test]
fn m_cap_required_missing_capabilities_are_shaped_like_client_capabilities() {
    let required = ClientCapabilities {
        elicitation: Some(ElicitationCapability::default()),
        sampling: Some(Default::default()),
        ..Default::default()
    };
    let have = ClientCapabilities {
        sampling: Some(Default::default()),
        ..Default::default()
    };
    assert_eq!(
        have.missing(&required).to_json(),
        json!({"elicitation": {}})
    );
    assert!(ClientCapabilities::none()
        .missing(&ClientCapabilities::none())
        .is_empty());
    assert!(required.covers(&have));
}

#[test]
fn m_cap_before_work_refusal_comes_before_any_side_effect() {
    let mut s = server("order-desk");
    let r = reply(
        &mut s,
        &call(
            json!(1),
            "confirm_order",
            json!({"order_id": "A-1042"}),
            json!({}),
        ),
    );
    assert_eq!(code(&r), Some(-32021));
    let outs = drain(&mut s);
    assert!(
        !outs
            .iter()
            .any(|o| matches!(o.kind, OutputKind::LockTaken(_))),
        "a lock was taken before the capability check: {outs:?}"
    );
    assert!(s.locks_held().is_empty());
    // Asking (input_required) holds nothing across the round trip either.
    let caps = json!({"elicitation": {}});
    let first = reply(
        &mut s,
        &call(
            json!(2),
            "confirm_order",
            json!({"order_id": "A-1042"}),
            caps.clone(),
        ),
    );
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert!(!drain(&mut s)
        .iter()
        .any(|o| matches!(o.kind, OutputKind::LockTaken(_))));
    assert!(s.locks_held().is_empty());
    // The work happens on the completing retry, and is released.
    let mut retry = call(
        json!(3),
        "confirm_order",
        json!({"order_id": "A-1042"}),
        caps,
    );
    retry["params"]["inputResponses"] =
        json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    retry["params"]["requestState"] = first["result"]["requestState"].clone();
    let done = reply(&mut s, &retry);
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    let outs = drain(&mut s);
    let taken = outs
        .iter()
        .position(|o| matches!(o.kind, OutputKind::LockTaken(_)));
    let released = outs
        .iter()
        .position(|o| matches!(o.kind, OutputKind::LockReleased(_)));
    assert!(taken.is_some() && released > taken, "{outs:?}");
    assert!(s.locks_held().is_empty());
}

#[test]
fn m_cap_elicit_modes_form_is_only_sent_to_form_capable_requests() {
    // `elicitation: {}` and `elicitation.form` mean form mode.
    for caps in [
        json!({"elicitation": {}}),
        json!({"elicitation": {"form": {}}}),
        json!({"elicitation": {"form": {}, "url": {}}}),
    ] {
        let mut s = server("order-desk");
        let r = reply(
            &mut s,
            &call(
                json!(1),
                "confirm_order",
                json!({"order_id": "A-1042"}),
                caps.clone(),
            ),
        );
        assert_eq!(r["result"]["resultType"], "input_required", "{caps}: {r}");
        let ask = &r["result"]["inputRequests"]["confirm"];
        assert_eq!(ask["method"], "elicitation/create");
        assert_eq!(ask["params"]["mode"], "form", "{caps}: {r}");
    }
    let url_only: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {"url": {}}})).expect("caps");
    let elicitation = url_only.elicitation.expect("declared");
    assert!(!elicitation.supports_form() && elicitation.supports_url());
    let empty: ClientCapabilities =
        serde_json::from_value(json!({"elicitation": {}})).expect("caps");
    let elicitation = empty.elicitation.expect("declared");
    assert!(elicitation.supports_form() && !elicitation.supports_url());
}

#[test]
fn m_cap_elicit_modes_url_only_client_never_gets_a_form_elicitation() {
    // `{"elicitation": {"url": {}}}` declares URL mode only. confirm_order asks
    // through a form, so it must not send one: -32021 naming form mode.
    let mut s = server("order-desk");
    let r = reply(
        &mut s,
        &call(
            json!(1),
            "confirm_order",
            json!({"order_id": "A-1042"}),
            json!({"elicitation": {"url": {}}}),
        ),
    );
    let mode = r
        .pointer("/result/inputRequests/confirm/params/mode")
        .cloned();
    assert_ne!(
        mode,
        Some(json!("form")),
        "a form-mode elicitation went to a URL-only request: {r}"
    );
    assert_eq!(code(&r), Some(-32021), "{r}");
    let required = &r["error"]["data"]["requiredCapabilities"]["elicitation"];
    assert!(required.is_object(), "{r}");
}

// ---- unknown methods and tools ----------------------------------------------------

#[test]
fn m_unknown_method_is_32601_including_removed_legacy_methods() {
    for preset in ["deploy-console", "order-desk"] {
        for method in [
            "no/such/method",
            "ping",
            "logging/setLevel",
            "resources/subscribe",
            "resources/unsubscribe",
            "prompts/list",
            "resources/read",
            "completion/complete",
        ] {
            let mut s = server(preset);
            let r = send(
                &mut s,
                &modern(
                    json!(1),
                    method,
                    json!({"uri": "x://y", "level": "info"}),
                    json!({}),
                ),
            )
            .expect("reply");
            assert_eq!(
                code(&r.message),
                Some(-32601),
                "{preset} {method}: {}",
                r.message
            );
            assert_eq!(r.status, 404, "{preset} {method}: HTTP 404");
        }
    }
}

#[test]
fn m_init_on_modern_initialize_is_refused_naming_the_supported_versions() {
    for requested in ["2025-06-18", "2025-11-25", "2024-11-05"] {
        let mut s = server("deploy-console");
        let r = send(
            &mut s,
            &initialize(json!(1), requested, json!({"roots": {}})),
        )
        .expect("reply");
        assert_eq!(code(&r.message), Some(-32601), "{}", r.message);
        let message = r.message["error"]["message"].as_str().expect("message");
        assert!(
            message.contains("2026-07-28"),
            "the error must name the supported versions: {message}"
        );
        assert_eq!(
            r.message["error"]["data"],
            json!({"supported": ["2026-07-28"], "requested": requested})
        );
        assert_eq!(r.status, 404);
        // No legacy session was started: the next legacy request is not served.
        let next = reply(&mut s, &plain(json!(2), "tools/list"));
        assert!(next.get("error").is_some(), "{next}");
    }
}

#[test]
fn m_unknown_tool_is_32602_never_a_capability_or_method_error() {
    for caps in [json!({}), json!({"elicitation": {}})] {
        for preset in MODERN_PRESETS {
            let mut s = server(preset);
            let r = send(
                &mut s,
                &call(json!(1), "close_all_incidents", json!({}), caps.clone()),
            )
            .expect("reply");
            assert_eq!(
                r.message,
                json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Unknown tool: close_all_incidents"}}),
                "{preset}"
            );
            assert_eq!(
                r.status, 200,
                "{preset}: an unknown tool is an ordinary JSON-RPC error on HTTP"
            );
        }
    }
}

// ---- cache hints ---------------------------------------------------------------------

#[test]
fn m_cache_hints_on_cacheable_results_only() {
    let cacheable = [
        "server/discover",
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "resources/read",
    ];
    let mut seen = std::collections::BTreeSet::new();
    for (name, request, reply) in battery_replies() {
        let Some(result) = reply.get("result") else {
            continue;
        };
        let method = request["method"].as_str().expect("method");
        let input_required = result["resultType"] == "input_required";
        if cacheable.contains(&method) && !input_required {
            seen.insert(method.to_string());
            assert!(
                result["ttlMs"].is_u64(),
                "{name}: {method} needs an integer ttlMs >= 0: {reply}"
            );
            assert!(
                matches!(
                    result["cacheScope"].as_str(),
                    Some("public") | Some("private")
                ),
                "{name}: {method}: {reply}"
            );
        } else {
            assert!(
                result.get("ttlMs").is_none() && result.get("cacheScope").is_none(),
                "{name}: {method} (resultType {}) must not carry cache hints: {reply}",
                result["resultType"]
            );
        }
    }
    assert_eq!(
        seen.len(),
        cacheable.len(),
        "not every cacheable method was answered: {seen:?}"
    );
    // The configured scope and ttl come through.
    let mut cfg = modern_notes();
    cfg.cache_scope = CacheScope::Private;
    cfg.ttl_ms = 0;
    let mut s = Server::new(cfg);
    let r = reply(
        &mut s,
        &modern(json!(1), "tools/list", json!({}), json!({})),
    );
    assert_eq!(
        (
            r["result"]["ttlMs"].clone(),
            r["result"]["cacheScope"].clone()
        ),
        (json!(0), json!("private"))
    );
}

// ---- MRTR ---------------------------------------------------------------------------

fn confirm(id: Value, caps: Value) -> Value {
    call(id, "confirm_order", json!({"order_id": "A-1042"}), caps)
}

#[test]
fn m_mrtr_input_required_round_trip() {
    let caps = json!({"elicitation": {"form": {}, "url": {}}});
    let mut s = server("order-desk");
    let first = reply(&mut s, &confirm(json!(1), caps.clone()));
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required");
    let requests = result["inputRequests"]
        .as_object()
        .expect("inputRequests is a map");
    assert_eq!(requests.len(), 1);
    let (key, ask) = requests.iter().next().expect("one input request");
    assert_eq!(ask["method"], "elicitation/create");
    assert_eq!(ask["params"]["requestedSchema"]["type"], "object");
    let state = result["requestState"]
        .as_str()
        .expect("an opaque requestState string");
    schemas()
        .validate_message(MODERN, &first, Some("tools/call"))
        .unwrap_or_else(|f| panic!("{f}"));

    // The retry: a new id, inputResponses keyed the same, requestState echoed.
    let mut retry = confirm(json!(2), caps.clone());
    retry["params"]["inputResponses"] =
        json!({key.as_str(): {"action": "accept", "content": {"confirm": true}}});
    retry["params"]["requestState"] = json!(state);
    schemas()
        .validate_message(MODERN, &retry, None)
        .unwrap_or_else(|f| panic!("the retry itself: {f}"));
    let done = reply(&mut s, &retry);
    assert_eq!(done["id"], 2);
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "Order A-1042 placed.");

    // A requestState that is not the one handed out is refused.
    let mut forged = retry.clone();
    forged["id"] = json!(3);
    forged["params"]["requestState"] = json!("forged");
    assert_eq!(code(&reply(&mut s, &forged)), Some(-32602));
    // A declined answer ends the tool without acting.
    let mut declined = retry.clone();
    declined["id"] = json!(4);
    declined["params"]["inputResponses"] = json!({key.as_str(): {"action": "decline"}});
    let r = reply(&mut s, &declined);
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(s.locks_held().is_empty());
}

#[test]
fn m_mrtr_only_call_get_and_read_may_need_input() {
    for (name, request, reply) in battery_replies() {
        let method = request["method"].as_str().expect("method");
        if reply.pointer("/result/resultType") == Some(&json!("input_required")) {
            assert!(
                ["tools/call", "prompts/get", "resources/read"].contains(&method),
                "{name}: {method} returned input_required"
            );
        }
    }
}

#[test]
fn m_mrtr_cap_input_request_needs_the_capability_on_this_request() {
    let mut s = server("order-desk");
    for caps in [json!({}), json!({"sampling": {}, "roots": {}})] {
        let r = send(&mut s, &confirm(json!(1), caps.clone())).expect("reply");
        assert_eq!(code(&r.message), Some(-32021), "{caps}: {}", r.message);
        assert!(r.rules.contains(&"M-MRTR-CAP"), "{:?}", r.rules);
    }
    // The answer-carrying retry must declare it again (stateless).
    let first = reply(&mut s, &confirm(json!(2), json!({"elicitation": {}})));
    let mut retry = confirm(json!(3), json!({}));
    retry["params"]["inputResponses"] =
        json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    retry["params"]["requestState"] = first["result"]["requestState"].clone();
    assert_eq!(code(&reply(&mut s, &retry)), Some(-32021));
}

// ---- eras ------------------------------------------------------------------------------

#[test]
fn e_terms_era_is_the_message_shape_not_the_version_string() {
    // A modern request naming a legacy version is still modern: -32022, not
    // a legacy answer and not -32601.
    for preset in ["deploy-console", "dual-era"] {
        let mut s = server(preset);
        let r = reply(
            &mut s,
            &modern_v(json!(1), "tools/list", json!({}), "2025-06-18", json!({})),
        );
        assert_eq!(code(&r), Some(-32022), "{preset}: {r}");
    }
    // A legacy-shaped request to a modern-only server is a malformed modern
    // request (no _meta), not a legacy session.
    let mut s = server("deploy-console");
    let r = reply(&mut s, &plain(json!(2), "tools/list"));
    assert_eq!(code(&r), Some(-32602), "{r}");
    use mcp_lanes_core::protocol::{Era, ProtocolVersion};
    assert_eq!(ProtocolVersion::era_of("2026-07-28"), Era::Modern);
    assert_eq!(ProtocolVersion::era_of("2025-11-25"), Era::Legacy);
    assert_eq!(ProtocolVersion::era_of("2024-11-05"), Era::Legacy);
}

/// Every server result of the 2026-07-28 revision in every scenario, with
/// the method of the request it answers.
fn scenario_modern_results() -> Vec<(String, String, Value)> {
    use mcp_lanes_core::sim::Side;
    use std::collections::HashMap;
    let mut out = Vec::new();
    for id in scenario_ids() {
        for t in run(id) {
            let mut asked: HashMap<String, String> = HashMap::new();
            for (_, m) in t.messages() {
                let Some(json) = &m.json else { continue };
                if m.from == Side::Client {
                    if let (Some(method), Some(rid)) = (json["method"].as_str(), json.get("id")) {
                        asked.insert(rid.to_string(), method.to_string());
                    }
                } else if m.revision == MODERN && json.get("result").is_some() {
                    let method = asked
                        .get(&json["id"].to_string())
                        .cloned()
                        .unwrap_or_default();
                    out.push((
                        format!("{id} / {}", t.label),
                        method,
                        json["result"].clone(),
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn m_sinfo_and_m_result_type_on_every_modern_result_of_every_scenario() {
    let results = scenario_modern_results();
    assert!(results.len() > 20, "{}", results.len());
    for (where_, method, result) in results {
        assert!(
            result["_meta"][meta::SERVER_INFO]["name"].is_string(),
            "{where_}: {method} result without serverInfo: {result}"
        );
        assert!(
            matches!(
                result["resultType"].as_str(),
                Some("complete") | Some("input_required")
            ),
            "{where_}: {method}: {result}"
        );
    }
}

#[test]
fn m_cache_hints_in_every_scenario_only_where_cacheable() {
    use mcp_lanes_core::protocol::methods;
    for (where_, method, result) in scenario_modern_results() {
        let complete = result["resultType"] == "complete";
        let has_hints = result.get("ttlMs").is_some() || result.get("cacheScope").is_some();
        if methods::is_cacheable(&method) && complete {
            assert!(
                result["ttlMs"].is_u64() && result["cacheScope"].is_string(),
                "{where_}: {method}: {result}"
            );
        } else {
            assert!(
                !has_hints,
                "{where_}: {method} must not carry cache hints: {result}"
            );
        }
    }
}
