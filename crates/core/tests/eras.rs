//! Living with two eras: the dual-era client's probe on stdio and HTTP, the
//! era cache, and the compatibility matrix.

mod common;

use common::*;
use mcp_lanes_core::client::presets as clients;
use mcp_lanes_core::client::{ClientConfig, Step};
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::server::presets as servers;
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::sim::{self, EventKind, Setup, Side};
use mcp_lanes_core::transport::{ChannelConfig, HttpResponse, TransportKind};
use serde_json::{json, Value};

/// A dual-era client preferring a version no server speaks, then 2026-07-28,
/// so a -32022 to its probe has a mutual version to retry with.
fn picky_dual_era() -> ClientConfig {
    let mut c = clients::dual_era();
    c.modern_versions = vec!["2027-01-01".into(), MODERN.into()];
    c
}

fn probe(config: ClientConfig, transport: TransportKind) -> Driver {
    let d = Driver::start(config, vec![Step::request("tools/list")], transport);
    let first = d.last_sent();
    assert_eq!(first["method"], "server/discover", "the probe comes first");
    assert!(first["params"]["_meta"][meta::PROTOCOL_VERSION].is_string());
    d
}

fn is_modern_request(m: &Value, method: &str) -> bool {
    m["method"] == method && m["params"]["_meta"][meta::PROTOCOL_VERSION].is_string()
}

// ---- stdio ----------------------------------------------------------------------

#[test]
fn e_probe_stdio_discover_result_means_modern() {
    let mut d = probe(clients::dual_era(), TransportKind::Stdio);
    assert_eq!(
        d.last_sent()["params"]["_meta"][meta::PROTOCOL_VERSION],
        MODERN,
        "the preferred modern version"
    );
    d.answer(40, discover_result(Some(json!(60_000))));
    assert!(
        is_modern_request(&d.last_sent(), "tools/list"),
        "{}",
        d.last_sent()
    );
}

#[test]
fn e_probe_stdio_any_other_error_means_legacy() {
    // Never keyed to one code: every non-modern error falls back.
    for code in [
        -32601, -32600, -32602, -32603, -32000, -32001, -32002, -32700, -32099, 1, 404,
    ] {
        let mut d = probe(clients::dual_era(), TransportKind::Stdio);
        d.fail(40, code, "whatever the legacy SDK says", None);
        let next = d.last_sent();
        assert_eq!(next["method"], "initialize", "{code}: {next}");
        assert_eq!(next["params"]["protocolVersion"], "2025-06-18");
    }
}

#[test]
fn e_probe_stdio_recognized_modern_errors_mean_modern() {
    for code in [-32021, -32020] {
        let mut d = probe(clients::dual_era(), TransportKind::Stdio);
        d.fail(
            40,
            code,
            "modern",
            Some(json!({"requiredCapabilities": {"elicitation": {}}})),
        );
        let sent = d.sent();
        assert!(
            !sent.iter().any(|m| m["method"] == "initialize"),
            "{code}: no fallback: {sent:?}"
        );
        let next = d.last_sent();
        assert!(
            is_modern_request(&next, "tools/list") || is_modern_request(&next, "server/discover"),
            "{code}: the next request is modern: {next}"
        );
    }
    // -32022: modern; retry the probe with a mutual version, never fall back.
    let mut d = probe(picky_dual_era(), TransportKind::Stdio);
    assert_eq!(
        d.last_sent()["params"]["_meta"][meta::PROTOCOL_VERSION],
        "2027-01-01"
    );
    let first_id = d.last_sent()["id"].clone();
    d.fail(
        40,
        -32022,
        "Unsupported protocol version",
        Some(json!({"supported": [MODERN], "requested": "2027-01-01"})),
    );
    let retry = d.last_sent();
    assert!(is_modern_request(&retry, "server/discover"), "{retry}");
    assert_eq!(retry["params"]["_meta"][meta::PROTOCOL_VERSION], MODERN);
    assert_ne!(retry["id"], first_id);
    assert!(!d.sent().iter().any(|m| m["method"] == "initialize"));
}

#[test]
fn e_probe_stdio_silence_means_legacy_after_the_probe_timeout() {
    let mut d = probe(clients::dual_era(), TransportKind::Stdio);
    let timeout = clients::dual_era().probe_timeout_ms;
    assert_eq!(d.client.poll_timeout(), Some(SimTime::from_millis(timeout)));
    d.run_until(timeout - 1);
    assert_eq!(d.sent().len(), 1, "still waiting");
    d.run_until(timeout);
    assert_eq!(d.last_sent()["method"], "initialize");
    assert!(d
        .records()
        .iter()
        .any(|(k, r, _)| matches!(k, EventKind::Timeout { .. }) && r.contains(&"E-PROBE-STDIO")));
}

#[test]
fn e_probe_stdio_scenario_four_servers_side_by_side() {
    let timelines = run("era-probe-stdio");
    let outcome = |label: &str| {
        let t = timelines
            .iter()
            .find(|t| t.label == label)
            .unwrap_or_else(|| panic!("no set-up {label}"));
        assert_timeline_valid(t);
        (
            methods(&sent_by(t, Side::Client)),
            sent_by(t, Side::Server).last().cloned().map(|(_, m)| m),
        )
    };
    let (m, last) = outcome("modern server");
    assert_eq!(m, vec!["server/discover", "tools/list"]);
    assert_eq!(last.expect("reply")["result"]["resultType"], "complete");
    let (m, last) = outcome("legacy server, answers an error");
    assert_eq!(
        m,
        vec![
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/list"
        ]
    );
    assert!(last.expect("reply")["result"]["tools"].is_array());
    let (m, _) = outcome("legacy server, silent");
    assert_eq!(
        m,
        vec![
            "server/discover",
            "notifications/cancelled",
            "initialize",
            "notifications/initialized",
            "tools/list"
        ]
    );
    let t = timelines
        .iter()
        .find(|t| t.label == "legacy server, silent")
        .expect("set-up");
    let init_at = sent_by(t, Side::Client)
        .iter()
        .find(|(_, m)| m["method"] == "initialize")
        .map(|(at, _)| *at);
    assert_eq!(
        init_at,
        Some(clients::dual_era().probe_timeout_ms),
        "falls back when the probe times out"
    );
    let (m, _) = outcome("dual-era server");
    assert_eq!(
        m,
        vec!["server/discover", "tools/list"],
        "a dual-era server is spoken to in the modern era"
    );
}

// ---- HTTP ---------------------------------------------------------------------------

fn json_response(status: u16, body: Value) -> HttpResponse {
    HttpResponse::json(status, body.to_string())
}

#[test]
fn e_probe_http_modern_answers_mean_modern() {
    let mut d = probe(clients::dual_era(), TransportKind::Http);
    let id = d.last_sent()["id"].clone();
    d.receive_http(
        40,
        &json_response(
            200,
            json!({"jsonrpc": "2.0", "id": id, "result": discover_result(Some(json!(60_000)))}),
        ),
    );
    assert!(is_modern_request(&d.last_sent(), "tools/list"));
    for (status, code) in [(400, -32021), (400, -32020)] {
        let mut d = probe(clients::dual_era(), TransportKind::Http);
        let id = d.last_sent()["id"].clone();
        d.receive_http(
            40,
            &json_response(
                status,
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": "m"}}),
            ),
        );
        assert!(
            !d.sent().iter().any(|m| m["method"] == "initialize"),
            "{status} {code}"
        );
    }
    let mut d = probe(picky_dual_era(), TransportKind::Http);
    let id = d.last_sent()["id"].clone();
    d.receive_http(40, &json_response(400, json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32022, "message": "m", "data": {"supported": [MODERN], "requested": "2027-01-01"}}})));
    let retry = d.last_sent();
    assert!(is_modern_request(&retry, "server/discover"));
    assert_eq!(retry["params"]["_meta"][meta::PROTOCOL_VERSION], MODERN);
    // The retry carries the headers a modern POST needs.
    let request = d.sent_http().last().cloned().expect("an HTTP request");
    assert_eq!(request.header("MCP-Protocol-Version"), Some(MODERN));
    assert_eq!(request.header("Mcp-Method"), Some("server/discover"));
}

#[test]
fn e_probe_http_empty_or_unrecognized_bodies_mean_legacy() {
    let responses = |id: &Value| {
        vec![
            ("404 empty", HttpResponse::empty(404)),
            ("405 empty", HttpResponse::empty(405)),
            ("400 empty", HttpResponse::empty(400)),
            (
                "400 text",
                HttpResponse {
                    status: 400,
                    headers: vec![("Content-Type".into(), "text/plain".into())],
                    body: "Bad Request".into(),
                    stream: None,
                },
            ),
            (
                "400 -32000",
                json_response(
                    400,
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}}),
                ),
            ),
            (
                "400 -32000 no id",
                json_response(
                    400,
                    json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "Bad Request: Server not initialized"}}),
                ),
            ),
            (
                "404 -32601",
                json_response(
                    404,
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}),
                ),
            ),
            (
                "400 -32600",
                json_response(
                    400,
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32600, "message": "Invalid Request"}}),
                ),
            ),
        ]
    };
    let first = probe(clients::dual_era(), TransportKind::Http);
    for (what, response) in responses(&first.last_sent()["id"]) {
        let mut d = probe(clients::dual_era(), TransportKind::Http);
        d.receive_http(40, &response);
        let next = d.last_sent();
        assert_eq!(next["method"], "initialize", "{what}: {next}");
    }
}

#[test]
fn e_probe_http_scenario_decides_from_status_and_body() {
    let timelines = run("era-probe-http");
    for t in &timelines {
        assert_timeline_valid(t);
        let m = methods(&sent_by(t, Side::Client));
        let legacy = t.label.starts_with("legacy");
        let expected: Vec<&str> = if legacy {
            vec![
                "server/discover",
                "initialize",
                "notifications/initialized",
                "tools/list",
            ]
        } else {
            vec!["server/discover", "tools/list"]
        };
        assert_eq!(m, expected, "{}", t.label);
        let statuses: Vec<u16> = t
            .messages()
            .filter_map(|(_, m)| m.http.as_ref().and_then(|h| h.status))
            .collect();
        assert_eq!(statuses.last(), Some(&200), "{}: {statuses:?}", t.label);
        if legacy {
            assert!(
                matches!(statuses[0], 400 | 404 | 405),
                "{}: {statuses:?}",
                t.label
            );
        }
    }
}

// ---- the era cache -------------------------------------------------------------------

#[test]
fn e_cache_the_era_is_probed_once_per_server() {
    for (server, kind) in [
        (servers::deploy_console(), TransportKind::Stdio),
        (servers::notes(), TransportKind::Stdio),
        (servers::deploy_console(), TransportKind::Http),
        (servers::notes(), TransportKind::Http),
    ] {
        let label = server.label();
        let t = sim::run(&Setup {
            label: "cache".into(),
            client: clients::dual_era(),
            server,
            channel: ChannelConfig::new(kind),
            script: vec![
                Step::request("tools/list"),
                Step::Wait { ms: 1_000 },
                Step::request("tools/list"),
                Step::request("tools/list"),
            ],
            server_events: Vec::new(),
            auth: None,
            gateway: None,
        });
        assert_timeline_valid(&t);
        let m = methods(&sent_by(&t, Side::Client));
        assert_eq!(
            m.iter().filter(|x| *x == "server/discover").count(),
            1,
            "{label} {kind:?}: {m:?}"
        );
        assert!(
            m.iter().filter(|x| *x == "initialize").count() <= 1,
            "{label} {kind:?}: {m:?}"
        );
        assert_eq!(
            m.iter().filter(|x| *x == "tools/list").count(),
            3,
            "{label} {kind:?}: {m:?}"
        );
    }
}

#[test]
fn e_cache_reprobe_when_ttl_expires_and_when_the_server_is_upgraded() {
    let timelines = run("era-cache-and-upgrade");
    let ttl = timelines
        .iter()
        .find(|t| t.label == "ttlMs expiry")
        .expect("set-up");
    assert_timeline_valid(ttl);
    let discovers: Vec<u64> = sent_by(ttl, Side::Client)
        .iter()
        .filter(|(_, m)| m["method"] == "server/discover")
        .map(|(at, _)| *at)
        .collect();
    assert_eq!(discovers.len(), 2, "{discovers:?}");
    assert!(
        discovers[1] - discovers[0] >= 3_600_000,
        "re-probed only after ttlMs: {discovers:?}"
    );
    assert!(
        ttl.events
            .iter()
            .any(|e| matches!(e.kind, EventKind::CacheHit { .. }) && e.at_ms > 500_000),
        "the 10-minute call reuses the cache"
    );

    let upgrade = timelines
        .iter()
        .find(|t| t.label == "server upgraded underneath")
        .expect("set-up");
    assert_timeline_valid(upgrade);
    let m = methods(&sent_by(upgrade, Side::Client));
    assert_eq!(
        m,
        vec![
            "server/discover",
            "initialize",
            "notifications/initialized",
            "tools/list",
            "tools/list",
            "server/discover",
            "tools/list"
        ],
        "probe, legacy session, a call that used to work fails, probe again, modern"
    );
    let server = sent_by(upgrade, Side::Server);
    assert!(
        server.iter().any(|(_, m)| code(m) == Some(-32022)),
        "the upgraded server answers with a version error"
    );
    let last = server.last().expect("reply").1.clone();
    assert_eq!(last["result"]["resultType"], "complete", "{last}");
}

// ---- the matrix -----------------------------------------------------------------------

#[test]
fn e_matrix_every_client_server_era_pair() {
    let timelines = run("compatibility-matrix");
    assert_eq!(timelines.len(), 7);
    for t in &timelines {
        assert_timeline_valid(t);
        let last = sent_by(t, Side::Server)
            .last()
            .cloned()
            .expect("the server answered something")
            .1;
        let works = last.get("result").is_some_and(|r| r.get("tools").is_some());
        let expected = !matches!(
            t.label.as_str(),
            "modern client, legacy server" | "legacy client, modern server"
        );
        assert_eq!(works, expected, "{}: {last}", t.label);
    }
    let by = |label: &str| timelines.iter().find(|t| t.label == label).expect("set-up");
    // Modern client vs legacy server: deterministic failure, no fallback.
    let m = methods(&sent_by(by("modern client, legacy server"), Side::Client));
    assert_eq!(m, vec!["server/discover"]);
    // Legacy client vs modern-only server: refused, naming the versions.
    let t = by("legacy client, modern server");
    let last = sent_by(t, Side::Server).last().cloned().expect("reply").1;
    assert_eq!(
        last["error"]["data"]["supported"],
        json!([MODERN]),
        "{last}"
    );
    assert_eq!(methods(&sent_by(t, Side::Client)), vec!["initialize"]);
    // Legacy client vs dual-era server: a legacy version, never 2026-07-28.
    let t = by("legacy client, dual-era server");
    let init = &sent_by(t, Side::Server)[0].1;
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
}
