//! The simulated client's decisions: ids, version retries, cache freshness,
//! timeouts, undeclared requests, degrading and MRTR, driven by hand (the
//! test plays the server and the clock) and through `sim::run`.

mod common;

use common::*;
use mcp_lanes_core::client::presets as clients;
use mcp_lanes_core::client::{Step, UndeclaredPolicy};
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::server::presets as servers;
use mcp_lanes_core::server::UnknownMethodPolicy;
use mcp_lanes_core::sim::{self, EventKind, Setup, Side, SimTime};
use mcp_lanes_core::transport::{ChannelConfig, TransportKind};
use serde_json::{json, Value};

const STDIO: TransportKind = TransportKind::Stdio;

fn setup(
    client: mcp_lanes_core::client::ClientConfig,
    server: mcp_lanes_core::server::ServerConfig,
    script: Vec<Step>,
) -> Setup {
    Setup {
        label: "test".into(),
        client,
        server,
        channel: ChannelConfig::new(STDIO),
        script,
        server_events: Vec::new(),
        auth: None,
        gateway: None,
    }
}

// ---- ids ----------------------------------------------------------------------

#[test]
fn rpc_id_every_request_of_every_scenario_has_a_fresh_id() {
    for id in scenario_ids() {
        for t in run(id) {
            for side in [Side::Client, Side::Server] {
                let mut seen = Vec::new();
                for (_, m) in sent_by(&t, side) {
                    if m.get("method").is_none() {
                        continue;
                    }
                    let Some(rid) = m.get("id") else { continue };
                    assert!(
                        rid.is_string() || rid.is_i64(),
                        "{id} / {}: id {rid} is not a string or integer",
                        t.label
                    );
                    assert!(
                        !seen.contains(rid),
                        "{id} / {}: the {} reused id {rid}",
                        t.label,
                        side.name()
                    );
                    seen.push(rid.clone());
                }
            }
        }
    }
}

#[test]
fn rpc_id_retries_are_new_requests_with_new_ids() {
    // (scenario, set-up label, method retried)
    for (scenario, label, method) in [
        (
            "version-retry",
            "discover naming 2025-11-25",
            "server/discover",
        ),
        (
            "capability-per-request",
            "declare per request",
            "tools/call",
        ),
        ("plain-vs-rich", "rich client", "tools/call"),
        (
            "era-cache-and-upgrade",
            "server upgraded underneath",
            "tools/list",
        ),
    ] {
        let timelines = run(scenario);
        let t = timelines
            .iter()
            .find(|t| t.label == label)
            .unwrap_or_else(|| panic!("{scenario}: no {label}"));
        let ids: Vec<Value> = sent_by(t, Side::Client)
            .into_iter()
            .filter(|(_, m)| m["method"] == method)
            .map(|(_, m)| m["id"].clone())
            .collect();
        assert!(ids.len() >= 2, "{scenario}: {ids:?}");
        let mut unique = ids.clone();
        unique.dedup();
        assert_eq!(unique, ids, "{scenario}: a retry reused an id");
    }
}

// ---- versions -------------------------------------------------------------------

#[test]
fn m_version_retry_picks_a_mutual_version_and_a_new_id() {
    let mut client = clients::plain();
    client.modern_versions = vec!["2027-01-01".into(), MODERN.into()];
    let t = sim::run(&setup(
        client,
        servers::deploy_console(),
        vec![Step::request("tools/list")],
    ));
    assert_timeline_valid(&t);
    let client_msgs = sent_by(&t, Side::Client);
    let versions: Vec<Value> = client_msgs
        .iter()
        .map(|(_, m)| m["params"]["_meta"][meta::PROTOCOL_VERSION].clone())
        .collect();
    assert_eq!(versions, vec![json!("2027-01-01"), json!(MODERN)]);
    assert_ne!(client_msgs[0].1["id"], client_msgs[1].1["id"]);
    let server_msgs = sent_by(&t, Side::Server);
    assert_eq!(code(&server_msgs[0].1), Some(-32022));
    assert_eq!(server_msgs[1].1["result"]["resultType"], "complete");
}

#[test]
fn m_version_retry_no_common_version_tells_the_user_instead() {
    let mut client = clients::plain();
    client.modern_versions = vec!["2027-01-01".into()];
    let t = sim::run(&setup(
        client,
        servers::deploy_console(),
        vec![Step::request("tools/list")],
    ));
    assert_eq!(
        sent_by(&t, Side::Client).len(),
        1,
        "no retry without a mutual version"
    );
    assert!(t.events.iter().any(
        |e| matches!(e.kind, EventKind::Decision { side: Side::Client })
            && e.rules.contains(&"M-VERSION-RETRY")
    ));
}

#[test]
fn m_version_retry_scenario_retries_the_same_request() {
    let t = &run("version-retry")[0];
    let client = sent_by(t, Side::Client);
    assert_eq!(client.len(), 2);
    assert_eq!(
        client[0].1["params"]["_meta"][meta::PROTOCOL_VERSION],
        "2025-11-25"
    );
    assert_eq!(
        client[1].1["params"]["_meta"][meta::PROTOCOL_VERSION],
        MODERN
    );
    assert_eq!(client[0].1["method"], client[1].1["method"]);
    let err = &sent_by(t, Side::Server)[0].1;
    assert_eq!(
        err["error"]["data"],
        json!({"supported": [MODERN], "requested": "2025-11-25"})
    );
}

// ---- cache freshness --------------------------------------------------------------

/// A recorded client event: what, the rules, the note.
type Record = (EventKind, Vec<&'static str>, String);

/// A discover-first modern client; the discover answer carries `ttl` and
/// arrives at 100 ms; after the first tools/list it waits `wait` ms. Returns
/// the method of the request it sends next.
fn next_after_wait(ttl: Option<Value>, wait: u64) -> (String, Vec<Record>) {
    let mut config = clients::plain();
    config.discover_first = true;
    let script = vec![
        Step::request("tools/list"),
        Step::Wait { ms: wait },
        Step::request("tools/list"),
    ];
    let mut d = Driver::start(config, script, STDIO);
    assert_eq!(d.last_sent()["method"], "server/discover");
    d.answer(100, discover_result(ttl));
    assert_eq!(d.last_sent()["method"], "tools/list");
    d.answer(100, json!({"resultType": "complete", "tools": []}));
    let before = d.sent().len();
    d.run_until(100 + wait);
    let sent = d.sent();
    assert_eq!(
        sent.len(),
        before + 1,
        "exactly one request after the wait: {sent:?}"
    );
    (
        sent[before]["method"].as_str().expect("method").to_string(),
        d.records(),
    )
}

#[test]
fn m_cache_fresh_while_now_is_before_received_plus_ttl() {
    assert_eq!(
        next_after_wait(Some(json!(1000)), 999).0,
        "tools/list",
        "fresh at 999 of 1000 ms"
    );
    assert_eq!(
        next_after_wait(Some(json!(1000)), 1000).0,
        "server/discover",
        "stale at exactly ttlMs"
    );
    assert_eq!(
        next_after_wait(Some(json!(3_600_000)), 600_000).0,
        "tools/list"
    );
}

#[test]
fn m_cache_fresh_zero_absent_or_negative_ttl_is_stored_as_zero() {
    for (ttl, why) in [
        (Some(json!(0)), "0"),
        (None, "absent"),
        (Some(json!(-5)), "negative"),
        (Some(json!("600")), "not a number"),
    ] {
        let mut config = clients::plain();
        config.discover_first = true;
        let mut d = Driver::start(config, vec![Step::request("tools/list")], STDIO);
        d.answer(100, discover_result(ttl));
        let stored: Vec<u64> = d
            .records()
            .iter()
            .filter_map(|(k, _, _)| match k {
                EventKind::CacheStored { ttl_ms, .. } => Some(*ttl_ms),
                _ => None,
            })
            .collect();
        assert_eq!(
            stored.first(),
            Some(&0),
            "ttlMs {why} is treated as 0: {stored:?}"
        );
    }
}

#[test]
fn m_cache_fresh_zero_ttl_is_stale_next_time_not_an_endless_loop() {
    // Stale at once means: fetch again *before relying on it next time*. The
    // result just received still answers the request at hand.
    for (ttl, why) in [
        (Some(json!(0)), "0"),
        (None, "absent"),
        (Some(json!(-5)), "negative"),
    ] {
        let (next, _) = next_after_wait(ttl, 1);
        assert_eq!(
            next, "server/discover",
            "ttlMs {why}: the next request re-discovers"
        );
    }
    for client in [
        {
            let mut c = clients::plain();
            c.discover_first = true;
            c
        },
        clients::dual_era(),
    ] {
        let mut server = servers::deploy_console();
        server.ttl_ms = 0;
        let t = sim::run(&setup(
            client,
            server,
            vec![Step::request("tools/list"), Step::request("tools/list")],
        ));
        let m = methods(&sent_by(&t, Side::Client));
        assert_eq!(
            m,
            vec![
                "server/discover",
                "tools/list",
                "server/discover",
                "tools/list"
            ],
            "{}",
            t.summary.outcome
        );
    }
}

// ---- result types ---------------------------------------------------------------

#[test]
fn m_result_type_client_treats_absent_as_complete_and_unknown_as_invalid() {
    let script = vec![Step::request("tools/list"), Step::request("prompts/list")];
    // Absent: complete, carry on.
    let mut d = Driver::start(clients::plain(), script.clone(), STDIO);
    d.answer(10, json!({"tools": []}));
    assert_eq!(d.last_sent()["method"], "prompts/list");
    assert!(d
        .records()
        .iter()
        .any(|(_, r, n)| r.contains(&"M-RESULT-TYPE") && n.contains("complete")));
    // Unknown: invalid, the step is given up (no retry of it).
    let mut d = Driver::start(clients::plain(), script, STDIO);
    d.answer(10, json!({"resultType": "partial", "tools": []}));
    assert!(
        d.records()
            .iter()
            .any(|(_, r, n)| r.contains(&"M-RESULT-TYPE") && n.contains("invalid")),
        "{:?}",
        d.records()
    );
    assert_eq!(
        d.sent()
            .iter()
            .filter(|m| m["method"] == "tools/list")
            .count(),
        1
    );
}

// ---- MRTR -----------------------------------------------------------------------

#[test]
fn m_mrtr_client_retries_with_a_new_id_and_the_state_echoed() {
    let timelines = run("plain-vs-rich");
    let rich = timelines
        .iter()
        .find(|t| t.label == "rich client")
        .expect("set-up");
    let client = sent_by(rich, Side::Client);
    let server = sent_by(rich, Side::Server);
    assert_eq!(client.len(), 2);
    let (first, retry) = (&client[0].1, &client[1].1);
    let asked = &server[0].1["result"];
    assert_eq!(asked["resultType"], "input_required");
    assert_ne!(first["id"], retry["id"]);
    assert_eq!(retry["params"]["name"], first["params"]["name"]);
    assert_eq!(retry["params"]["arguments"], first["params"]["arguments"]);
    assert_eq!(
        retry["params"]["requestState"], asked["requestState"],
        "echoed unchanged"
    );
    let asked_keys: Vec<&String> = asked["inputRequests"]
        .as_object()
        .expect("map")
        .keys()
        .collect();
    let answered_keys: Vec<&String> = retry["params"]["inputResponses"]
        .as_object()
        .expect("map")
        .keys()
        .collect();
    assert_eq!(asked_keys, answered_keys);
    assert_eq!(server[1].1["result"]["resultType"], "complete");
    // The plain client never gets an input request.
    let plain = timelines
        .iter()
        .find(|t| t.label == "plain client")
        .expect("set-up");
    assert_eq!(code(&sent_by(plain, Side::Server)[0].1), Some(-32021));
}

#[test]
fn m_discover_is_optional_for_clients() {
    let t = &run("capability-per-request")[0];
    assert!(!methods(&sent_by(t, Side::Client)).contains(&"server/discover".to_string()));
    let t = &run("discover")[0];
    let result = &sent_by(t, Side::Server)[0].1["result"];
    for field in [
        "supportedVersions",
        "capabilities",
        "instructions",
        "ttlMs",
        "cacheScope",
        "_meta",
    ] {
        assert!(
            result.get(field).is_some(),
            "discover result lacks {field}: {result}"
        );
    }
}

#[test]
fn m_cap_required_client_retries_declaring_what_it_has() {
    let t = &run("capability-per-request")[0];
    assert_timeline_valid(t);
    let client = sent_by(t, Side::Client);
    let caps: Vec<Value> = client
        .iter()
        .map(|(_, m)| m["params"]["_meta"][meta::CLIENT_CAPABILITIES].clone())
        .collect();
    assert_eq!(caps[0], json!({}));
    assert!(caps[1]["elicitation"].is_object(), "{caps:?}");
    assert_eq!(caps[2], json!({}));
    let server: Vec<Option<i64>> = sent_by(t, Side::Server)
        .iter()
        .map(|(_, m)| code(m))
        .collect();
    assert_eq!(server, vec![Some(-32021), None, Some(-32021)]);
}

// ---- timeouts -------------------------------------------------------------------

#[test]
fn l_timeout_the_client_cancels_after_the_deadline() {
    // Modern: the channel is slower than the client's patience.
    let mut client = clients::plain();
    client.request_timeout_ms = Some(1_000);
    let mut s = setup(
        client,
        servers::deploy_console(),
        vec![Step::request("tools/list")],
    );
    s.channel.latency_ms = 5_000;
    let t = sim::run(&s);
    assert_timeline_valid(&t);
    let timeout = t
        .events
        .iter()
        .find(|e| {
            matches!(
                e.kind,
                EventKind::Timeout {
                    side: Side::Client,
                    ..
                }
            )
        })
        .expect("a timeout");
    assert_eq!(timeout.at_ms, 1_000);
    let client = sent_by(&t, Side::Client);
    let cancel = client
        .iter()
        .find(|(_, m)| m["method"] == "notifications/cancelled")
        .expect("notifications/cancelled");
    assert!(
        cancel.0 >= 1_000,
        "cancelled at {} ms, before the deadline",
        cancel.0
    );
    assert_eq!(cancel.1["params"]["requestId"], client[0].1["id"]);
    assert!(cancel.1.get("id").is_none(), "a notification");

    // Legacy: a server that never answers.
    let mut client = clients::legacy_host();
    client.request_timeout_ms = Some(2_000);
    let mut server = servers::notes();
    server.unknown_method = UnknownMethodPolicy::Silent;
    let t = sim::run(&setup(
        client,
        server,
        vec![
            Step::request("resources/templates/list"),
            Step::request("tools/list"),
        ],
    ));
    assert_timeline_valid(&t);
    let client = sent_by(&t, Side::Client);
    let asked = client
        .iter()
        .find(|(_, m)| m["method"] == "resources/templates/list")
        .expect("asked");
    let cancel = client
        .iter()
        .find(|(_, m)| m["method"] == "notifications/cancelled")
        .expect("cancelled");
    assert_eq!(cancel.1["params"]["requestId"], asked.1["id"]);
    assert_eq!(cancel.0, asked.0 + 2_000);
    // It stops waiting and carries on with the next step.
    assert!(client
        .iter()
        .any(|(at, m)| m["method"] == "tools/list" && *at >= cancel.0));
}

// ---- undeclared requests ----------------------------------------------------------

fn orchestrator_after_handshake(policy: UndeclaredPolicy) -> Driver {
    let script = vec![Step::call_tool(
        "purge_index",
        json!({"index": "prod-catalog"}),
    )];
    let mut d = Driver::start(clients::orchestrator_runtime(policy), script, STDIO);
    let init = d.last_sent();
    assert_eq!(init["method"], "initialize");
    assert_eq!(init["id"], 0, "the lesson's runtime starts at id 0");
    assert!(init["params"]["capabilities"].get("elicitation").is_none());
    d.answer(20, initialize_result("2025-06-18"));
    assert_eq!(d.last_sent()["method"], "tools/call");
    let elicit = json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {
        "message": "How many days?", "requestedSchema": {"type": "object", "properties": {"retention_days": {"type": "integer"}}}}});
    d.receive(60, &elicit);
    d
}

#[test]
fn l_undeclared_client_answers_32601() {
    let d = orchestrator_after_handshake(UndeclaredPolicy::MethodNotFound);
    let last = d.last_sent();
    assert_eq!(last["id"], 7);
    assert_eq!(code(&last), Some(-32601), "{last}");
    assert!(!d.closed());
}

#[test]
fn l_undeclared_client_drops_it_silently() {
    let d = orchestrator_after_handshake(UndeclaredPolicy::Drop);
    assert_eq!(
        d.last_sent()["method"],
        "tools/call",
        "nothing sent for id 7"
    );
    assert!(d.records().iter().any(|(k, _, _)| matches!(
        k,
        EventKind::Dropped {
            side: Side::Client,
            ..
        }
    )));
    assert!(!d.closed());
}

#[test]
fn l_undeclared_client_closes_the_connection() {
    let d = orchestrator_after_handshake(UndeclaredPolicy::Close);
    assert_eq!(
        d.last_sent()["method"],
        "tools/call",
        "nothing sent for id 7"
    );
    assert!(d.closed());
    assert!(d.client.is_closed());
}

#[test]
fn l_cap_session_a_client_that_declared_elicitation_answers_it() {
    let script = vec![Step::call_tool(
        "purge_index",
        json!({"index": "prod-catalog"}),
    )];
    let mut d = Driver::start(clients::legacy_host(), script, STDIO);
    d.answer(20, initialize_result("2025-06-18"));
    d.receive(60, &json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": {
        "message": "How many days?", "requestedSchema": {"type": "object", "properties": {"retention_days": {"type": "integer"}}}}}));
    let answer = d.last_sent();
    assert_eq!(answer["id"], 7);
    assert_eq!(answer["result"]["action"], "accept", "{answer}");
    common::schema::schemas()
        .validate_message("2025-06-18", &answer, Some("elicitation/create"))
        .unwrap_or_else(|f| panic!("{f}"));
}

// ---- degrading ------------------------------------------------------------------

#[test]
fn l_degrade_client_carries_on_without_prompts_or_logging() {
    let mut d = Driver::start(
        clients::legacy_host(),
        vec![Step::request("tools/list")],
        STDIO,
    );
    d.answer(20, initialize_result("2025-06-18"));
    let notes: Vec<String> = d
        .records()
        .into_iter()
        .filter(|(_, r, _)| r.contains(&"L-DEGRADE"))
        .map(|(_, _, n)| n)
        .collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(
        d.sent()
            .iter()
            .map(|m| m["method"].clone())
            .collect::<Vec<_>>(),
        vec![
            json!("initialize"),
            json!("notifications/initialized"),
            json!("tools/list")
        ]
    );
}

// ---- list_changed ----------------------------------------------------------------

#[test]
fn l_list_changed_notices_further_apart_than_the_debounce_each_relist() {
    use mcp_lanes_core::sim::engine::ServerEvent;
    let mut s = setup(
        clients::legacy_host(),
        servers::notes(),
        vec![Step::request("tools/list")],
    );
    s.server_events = vec![
        (SimTime::from_millis(1_000), ServerEvent::ToolsChanged),
        (SimTime::from_millis(1_050), ServerEvent::ToolsChanged),
        (SimTime::from_millis(5_000), ServerEvent::ToolsChanged),
    ];
    let t = sim::run(&s);
    assert_timeline_valid(&t);
    let relists = sent_by(&t, Side::Client)
        .iter()
        .filter(|(at, m)| m["method"] == "tools/list" && *at > 1_000)
        .count();
    assert_eq!(relists, 2, "one per burst");
}

#[test]
fn rpc_unknown_field_client_ignores_extra_fields_in_answers() {
    let mut config = clients::plain();
    config.discover_first = true;
    let script = vec![
        Step::request("tools/list"),
        Step::call_tool("list_incidents", json!({})),
    ];
    let mut d = Driver::start(config, script, STDIO);
    let mut discover = discover_result(Some(json!(60_000)));
    discover["futureField"] = json!({"x": [1, 2]});
    discover["capabilities"]["futureCapability"] = json!({});
    discover["_meta"]["com.example/trace"] = json!("t");
    d.answer(10, discover);
    assert_eq!(d.last_sent()["method"], "tools/list");
    d.answer(20, json!({"resultType": "complete", "tools": [], "nextCursor": null, "future": 1, "ttlMs": 5, "cacheScope": "public"}));
    assert_eq!(d.last_sent()["method"], "tools/call");
    let id = d.last_sent()["id"].clone();
    d.receive(30, &json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "content": [], "structuredContent": {"a": 1}, "x": 2}, "extraTop": true}));
    assert!(
        !d.records().iter().any(|(_, r, _)| r.contains(&"RPC-PARSE")),
        "{:?}",
        d.records()
    );
}
