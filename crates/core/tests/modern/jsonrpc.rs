//! JSON-RPC basics: parse errors, invalid requests, notifications,
//! unknown fields and the codes a modern server may use.

use crate::common::schema::schemas;
use crate::common::*;
use crate::fixtures::*;
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::server::{OutputKind, Server};
use serde_json::{json, Value};

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
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": extra_meta.clone(), "filter": "x"}, "trace": "t"}),
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
            &json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"future": 2}, "extra": 3}),
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
