//! `_meta`, statelessness, and what every modern result carries.

use crate::common::schema::schemas;
use crate::common::*;
use crate::fixtures::*;
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::server::{presets, ConnId, Server};
use mcp_lanes_core::sim::SimTime;
use serde_json::{json, Value};

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
    // requestState carries an expiry (M-MRTR-STATE), so it differs with
    // the time of the request; everything else is the same answer.
    let without_state = |m: &Value| {
        let mut m = m.clone();
        if let Some(result) = m.get_mut("result").and_then(Value::as_object_mut) {
            result.remove("requestState");
        }
        m
    };
    assert_eq!(without_state(&a), without_state(&b));
    assert_eq!(without_state(&a), without_state(&c));
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
