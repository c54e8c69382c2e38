//! Cache hints and multi round-trip requests (MRTR).

use crate::common::schema::schemas;
use crate::common::*;
use crate::fixtures::*;
use mcp_lanes_core::server::{CacheScope, Server};
use serde_json::{json, Value};

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
