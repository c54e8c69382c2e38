//! Versions, capabilities, and unknown methods and tools.

use crate::common::schema::schemas;
use crate::common::*;
use crate::fixtures::*;
use mcp_lanes_core::protocol::capabilities::ElicitationCapability;
use mcp_lanes_core::protocol::ClientCapabilities;
use mcp_lanes_core::server::OutputKind;
use serde_json::json;

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
