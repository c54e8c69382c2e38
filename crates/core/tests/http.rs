//! Streamable HTTP (2026-07-28) on the server side: status codes, the
//! mirrored headers and sessions, driven with hand-written `HttpRequest`s.

mod common;

use common::schema::schemas;
use common::*;
use mcp_lanes_core::server::Server;
use mcp_lanes_core::transport::http::{self, HttpRequest};
use serde_json::{json, Value};

const CT: (&str, &str) = ("Content-Type", "application/json");
const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");

fn list_incidents() -> Value {
    call(json!(1), "list_incidents", json!({}), json!({}))
}

/// Headers of a tools/call of list_incidents, with overrides.
fn call_headers<'a>(pv: &'a str, method: &'a str, name: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        CT,
        ACCEPT,
        ("MCP-Protocol-Version", pv),
        ("Mcp-Method", method),
        ("Mcp-Name", name),
    ]
}

fn status_and_code(server: &mut Server, request: &HttpRequest) -> (u16, Option<i64>, Value) {
    let (response, body) = http(server, request);
    if !response.body.is_empty() {
        assert_eq!(
            response.header("Content-Type"),
            Some("application/json"),
            "a JSON body says so"
        );
        schemas()
            .validate_message(MODERN, &body, body_origin(request).as_deref())
            .unwrap_or_else(|f| panic!("HTTP body does not validate {f}\n  {body}"));
    }
    (response.status, code(&body), body)
}

fn body_origin(request: &HttpRequest) -> Option<String> {
    serde_json::from_str::<Value>(&request.body)
        .ok()
        .and_then(|v| v.get("method").and_then(Value::as_str).map(str::to_string))
}

#[test]
fn h_status_mapping_table() {
    let elicit = json!({"elicitation": {}});
    let notification =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
    let no_meta = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}});
    let mut no_meta_headers =
        http::modern_headers(&modern(json!(1), "tools/list", json!({}), json!({})));
    no_meta_headers.retain(|(k, _)| k != "MCP-Protocol-Version");
    let rows: Vec<(&str, HttpRequest, u16, Option<i64>)> = vec![
        (
            "a result",
            post(&modern(json!(1), "server/discover", json!({}), json!({}))),
            200,
            None,
        ),
        ("a tool result", post(&list_incidents()), 200, None),
        (
            "-32021",
            post(&call(
                json!(1),
                "notify_oncall",
                json!({"incident": "I"}),
                json!({}),
            )),
            400,
            Some(-32021),
        ),
        (
            "-32022",
            post(&modern_v(
                json!(1),
                "tools/list",
                json!({}),
                "2025-11-25",
                json!({}),
            )),
            400,
            Some(-32022),
        ),
        (
            "-32020",
            post_with(
                &call_headers("2025-11-25", "tools/call", "list_incidents"),
                &list_incidents(),
            ),
            400,
            Some(-32020),
        ),
        (
            "-32602 for malformed _meta",
            HttpRequest::post(no_meta_headers, no_meta.to_string()),
            400,
            Some(-32602),
        ),
        (
            "-32700",
            HttpRequest::post(vec![], "{oops".into()),
            400,
            Some(-32700),
        ),
        (
            "-32600",
            HttpRequest::post(vec![], "[]".into()),
            400,
            Some(-32600),
        ),
        (
            "-32600 wrong jsonrpc",
            HttpRequest::post(
                vec![],
                r#"{"jsonrpc": "1.0", "id": 1, "method": "tools/list"}"#.into(),
            ),
            400,
            Some(-32600),
        ),
        (
            "-32601",
            post(&modern(json!(1), "no/such/method", json!({}), json!({}))),
            404,
            Some(-32601),
        ),
        (
            "-32601 for removed ping",
            post(&modern(json!(1), "ping", json!({}), json!({}))),
            404,
            Some(-32601),
        ),
        (
            "-32601 for removed logging/setLevel",
            post(&modern(
                json!(1),
                "logging/setLevel",
                json!({"level": "info"}),
                json!({}),
            )),
            404,
            Some(-32601),
        ),
        (
            "-32601 for removed resources/subscribe",
            post(&modern(
                json!(1),
                "resources/subscribe",
                json!({"uri": "x://y"}),
                json!({}),
            )),
            404,
            Some(-32601),
        ),
        (
            "-32601 for removed resources/unsubscribe",
            post(&modern(
                json!(1),
                "resources/unsubscribe",
                json!({"uri": "x://y"}),
                json!({}),
            )),
            404,
            Some(-32601),
        ),
        (
            "an unknown tool's -32602",
            post(&call(json!(1), "close_all_incidents", json!({}), elicit)),
            200,
            Some(-32602),
        ),
        (
            "an accepted notification",
            post_with(
                &[
                    CT,
                    ACCEPT,
                    ("MCP-Protocol-Version", MODERN),
                    ("Mcp-Method", "notifications/cancelled"),
                ],
                &notification,
            ),
            202,
            None,
        ),
    ];
    for (what, request, status, want_code) in rows {
        let mut s = server("deploy-console");
        let (got_status, got_code, body) = status_and_code(&mut s, &request);
        assert_eq!(
            (got_status, got_code),
            (status, want_code),
            "{what}: {body}"
        );
        if status == 202 {
            let (response, _) = http(&mut server("deploy-console"), &request);
            assert!(response.body.is_empty(), "{what}: 202 has no body");
        }
    }
}

#[test]
fn h_status_405_for_get_and_delete_on_a_modern_only_endpoint() {
    for preset in ["deploy-console", "order-desk"] {
        for method in ["GET", "DELETE", "PUT"] {
            let mut s = server(preset);
            let request = HttpRequest {
                method: method.into(),
                path: "/mcp".into(),
                headers: vec![
                    ("Mcp-Session-Id".into(), "abc".into()),
                    ("Accept".into(), "text/event-stream".into()),
                ],
                body: String::new(),
            };
            let (response, _) = http(&mut s, &request);
            assert_eq!(response.status, 405, "{preset} {method}");
            assert!(response.body.is_empty());
            assert_eq!(response.header("allow"), Some("POST"));
        }
    }
}

#[test]
fn h_status_403_only_for_a_present_and_disallowed_origin() {
    let request = |origin: Option<&str>| {
        let mut r = post(&list_incidents());
        if let Some(o) = origin {
            r.headers.push(("Origin".into(), o.into()));
        }
        r
    };
    for origin in [
        "https://evil.example",
        "http://localhost.evil.example",
        "http://127.0.0.2:80",
    ] {
        let (status, c, _) = status_and_code(&mut server("deploy-console"), &request(Some(origin)));
        assert_eq!(status, 403, "{origin}: {c:?}");
    }
    for origin in [
        None,
        Some("http://localhost:5173"),
        Some("http://127.0.0.1:8080"),
        Some("http://localhost"),
    ] {
        let (status, _, body) = status_and_code(&mut server("deploy-console"), &request(origin));
        assert_eq!(status, 200, "{origin:?}: {body}");
    }
}

#[test]
fn h_status_ipv6_loopback_origin_is_allowed() {
    let mut request = post(&list_incidents());
    request
        .headers
        .push(("Origin".into(), "http://[::1]:3000".into()));
    let (status, _, body) = status_and_code(&mut server("deploy-console"), &request);
    assert_eq!(status, 200, "{body}");
}

#[test]
fn h_status_initialize_on_a_modern_only_endpoint() {
    // A legacy client's initialize POST lacks the modern headers, so server
    // validation refuses it first: 400 -32020 (the spec's compatibility
    // matrix, Legacy client / Modern server over HTTP). With the headers a
    // conforming POST carries, initialize is a removed method: 404 -32601
    // (M-UNKNOWN-METHOD, H-STATUS). Both name the versions (M-INIT-ON-MODERN).
    let body = initialize(json!(1), "2025-06-18", json!({"roots": {}}));
    let request = HttpRequest::post(http::legacy_headers(None, None), body.to_string());
    let (status, c, reply) = status_and_code(&mut server("deploy-console"), &request);
    assert_eq!((status, c), (400, Some(-32020)), "{reply}");
    assert_eq!(reply["error"]["data"]["supported"], json!(["2026-07-28"]));
    let mut headers = http::legacy_headers(Some("2026-07-28"), None);
    headers.push(("Mcp-Method".into(), "initialize".into()));
    let request = HttpRequest::post(headers, body.to_string());
    let (status, c, reply) = status_and_code(&mut server("deploy-console"), &request);
    assert_eq!((status, c), (404, Some(-32601)), "{reply}");
    assert_eq!(reply["error"]["data"]["supported"], json!(["2026-07-28"]));
}

#[test]
fn m_init_on_modern_over_http_names_the_supported_versions() {
    let body = initialize(json!(1), "2025-06-18", json!({"roots": {}}));
    let request = HttpRequest::post(http::legacy_headers(None, None), body.to_string());
    let (status, _, body) = status_and_code(&mut server("deploy-console"), &request);
    assert!(status == 400 || status == 404, "{status}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("2026-07-28")),
        "{body}"
    );
    assert_eq!(
        body["error"]["data"]["supported"],
        json!(["2026-07-28"]),
        "{body}"
    );
}

#[test]
fn h_headers_missing_or_mismatched_is_32020() {
    let bodies = [
        ("tools/call", list_incidents(), "list_incidents"),
        (
            "resources/read",
            modern(
                json!(1),
                "resources/read",
                json!({"uri": "note://standup"}),
                json!({}),
            ),
            "note://standup",
        ),
        (
            "prompts/get",
            modern(
                json!(1),
                "prompts/get",
                json!({"name": "summarize_notes"}),
                json!({}),
            ),
            "summarize_notes",
        ),
    ];
    for (method, body, name) in &bodies {
        let upper_method = method.to_uppercase();
        let upper_name = name.to_uppercase();
        let cases: Vec<(&str, Vec<(&str, &str)>)> = vec![
            (
                "no MCP-Protocol-Version",
                vec![CT, ACCEPT, ("Mcp-Method", method), ("Mcp-Name", name)],
            ),
            (
                "no Mcp-Method",
                vec![
                    CT,
                    ACCEPT,
                    ("MCP-Protocol-Version", MODERN),
                    ("Mcp-Name", name),
                ],
            ),
            (
                "no Mcp-Name",
                vec![
                    CT,
                    ACCEPT,
                    ("MCP-Protocol-Version", MODERN),
                    ("Mcp-Method", method),
                ],
            ),
            ("version mismatch", call_headers("2025-11-25", method, name)),
            ("method mismatch", call_headers(MODERN, "tools/list", name)),
            (
                "name mismatch",
                call_headers(MODERN, method, "something_else"),
            ),
            (
                "values are case-sensitive (method)",
                call_headers(MODERN, &upper_method, name),
            ),
            (
                "values are case-sensitive (name)",
                call_headers(MODERN, method, &upper_name),
            ),
            (
                "not valid base64",
                call_headers(MODERN, method, "=?base64?%%%?="),
            ),
            (
                "base64 of another name",
                call_headers(MODERN, method, "=?base64?b3RoZXI=?="),
            ),
        ];
        for (why, headers) in cases {
            for preset in ["deploy-console", "dual-era"] {
                let (status, c, reply) =
                    status_and_code(&mut server(preset), &post_with(&headers, body));
                assert_eq!(
                    (status, c),
                    (400, Some(-32020)),
                    "{preset} {method} {why}: {reply}"
                );
                assert_eq!(reply["id"], 1);
            }
        }
    }
    // Requests without a name still need the version and method headers.
    let list = modern(json!(1), "tools/list", json!({}), json!({}));
    let (status, c, _) = status_and_code(
        &mut server("deploy-console"),
        &post_with(&[CT, ("Mcp-Method", "tools/list")], &list),
    );
    assert_eq!((status, c), (400, Some(-32020)));
}

#[test]
fn h_headers_names_case_insensitive_values_trimmed_and_base64_decoded() {
    let ok: Vec<Vec<(&str, &str)>> = vec![
        vec![
            ("mcp-protocol-version", MODERN),
            ("mcp-method", "tools/call"),
            ("mcp-name", "list_incidents"),
        ],
        vec![
            ("MCP-PROTOCOL-VERSION", MODERN),
            ("MCP-METHOD", "tools/call"),
            ("MCP-NAME", "list_incidents"),
        ],
        vec![
            ("Mcp-Protocol-Version", " 2026-07-28 "),
            ("Mcp-Method", "\ttools/call"),
            ("Mcp-Name", "list_incidents \t"),
        ],
        vec![
            ("MCP-Protocol-Version", MODERN),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "=?base64?bGlzdF9pbmNpZGVudHM=?="),
        ],
        vec![
            ("MCP-Protocol-Version", MODERN),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", " =?base64?bGlzdF9pbmNpZGVudHM=?= "),
        ],
    ];
    for headers in ok {
        let (status, c, body) = status_and_code(
            &mut server("deploy-console"),
            &post_with(&headers, &list_incidents()),
        );
        assert_eq!((status, c), (200, None), "{headers:?}: {body}");
        assert_eq!(body["result"]["resultType"], "complete");
    }
    // A non-ASCII name travels base64-encoded and is compared decoded: the
    // headers pass and the tool is simply unknown (-32602, 200).
    let name = "närrisch werkzeug";
    let encoded = http::encode_header_value(name);
    assert!(
        encoded.starts_with("=?base64?") && encoded.ends_with("?="),
        "{encoded}"
    );
    assert_eq!(http::decode_header_value(&encoded).as_deref(), Some(name));
    let body = call(json!(1), name, json!({}), json!({}));
    let request = post(&body);
    assert_eq!(request.header("Mcp-Name"), Some(encoded.as_str()));
    let (status, c, reply) = status_and_code(&mut server("deploy-console"), &request);
    assert_eq!((status, c), (200, Some(-32602)), "{reply}");
    // Values that would otherwise be mangled are encoded too.
    for tricky in [
        " padded ",
        "=?base64?looks-like-it?=",
        "tab\tinside",
        "line\nbreak",
    ] {
        let e = http::encode_header_value(tricky);
        assert_eq!(
            http::decode_header_value(&e).as_deref(),
            Some(tricky),
            "{tricky:?} -> {e}"
        );
    }
    assert_eq!(http::encode_header_value("plain_name"), "plain_name");
}

#[test]
fn h_headers_conforming_client_headers_always_pass() {
    for body in [
        modern(json!(1), "server/discover", json!({}), json!({})),
        modern(json!(2), "tools/list", json!({}), json!({})),
        list_incidents(),
        call(
            json!(3),
            "notify_oncall",
            json!({"incident": "I"}),
            json!({"elicitation": {}}),
        ),
    ] {
        let (status, c, reply) = status_and_code(&mut server("deploy-console"), &post(&body));
        assert_eq!((status, c), (200, None), "{body}: {reply}");
    }
}

#[test]
fn h_session_modern_only_server_ignores_and_never_mints_session_ids() {
    let requests = [
        post(&modern(json!(1), "server/discover", json!({}), json!({}))),
        post(&list_incidents()),
        post(&call(
            json!(2),
            "notify_oncall",
            json!({"incident": "I"}),
            json!({}),
        )),
        HttpRequest::post(
            http::legacy_headers(None, None),
            initialize(json!(3), "2025-06-18", json!({})).to_string(),
        ),
        post_with(&[CT], &initialized()),
    ];
    for preset in ["deploy-console", "order-desk"] {
        let mut s = server(preset);
        for request in &requests {
            for extra in [
                None,
                Some(("Mcp-Session-Id", "session-from-elsewhere")),
                Some(("Last-Event-ID", "42")),
            ] {
                let mut request = request.clone();
                if let Some((k, v)) = extra {
                    request.headers.push((k.into(), v.into()));
                }
                let (response, body) = http(&mut s, &request);
                assert!(
                    response.header("Mcp-Session-Id").is_none(),
                    "{preset}: a modern-only server minted a session: {:?}",
                    response.headers
                );
                if extra.is_some() {
                    // The same answer as without the header.
                    let mut plain_request = request.clone();
                    plain_request.headers.pop();
                    let (again, again_body) = http(&mut s, &plain_request);
                    assert_eq!(
                        (response.status, &body),
                        (again.status, &again_body),
                        "{preset} {extra:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn rpc_codes_over_http_modern_servers_stay_in_the_defined_set() {
    let bodies = [
        modern(json!(1), "server/discover", json!({}), json!({})),
        list_incidents(),
        call(
            json!(2),
            "notify_oncall",
            json!({"incident": "I"}),
            json!({}),
        ),
        modern_v(json!(3), "tools/list", json!({}), "2024-11-05", json!({})),
        modern(json!(4), "ping", json!({}), json!({})),
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list"}),
    ];
    for preset in ["deploy-console", "order-desk", "dual-era"] {
        for body in &bodies {
            for request in [
                post(body),
                HttpRequest::post(vec![], body.to_string()),
                HttpRequest::post(
                    http::legacy_headers(Some("2025-06-18"), None),
                    body.to_string(),
                ),
            ] {
                let (_, reply) = http(&mut server(preset), &request);
                if let Some(c) = code(&reply) {
                    assert!(
                        [-32700, -32600, -32601, -32602, -32603, -32020, -32021, -32022]
                            .contains(&c),
                        "{preset}: {c} for {body}: {reply}"
                    );
                }
            }
        }
    }
}

#[test]
fn h_status_every_scenario_http_response_follows_the_table() {
    let mut checked = 0;
    for id in scenario_ids() {
        for t in run(id) {
            for (_, m) in t.messages() {
                let Some(status) = m.http.as_ref().and_then(|h| h.status) else {
                    continue;
                };
                // An authorization flow's answers that are not MCP (a
                // challenge, a metadata document, a redirect, a token
                // answer) follow OAuth's statuses, not this table.
                let json_rpc = m.json.as_ref().is_some_and(|j| j.get("jsonrpc").is_some());
                if !m.carries_mcp() || (!t.actors.is_empty() && !json_rpc) {
                    continue;
                }
                checked += 1;
                // A server with a policy refuses a token before it reads
                // the request: 401 or 403 with a challenge (A-CHALLENGE,
                // A-SCOPE-STEP-UP), as the authorization spec says.
                let challenged = m.http.as_ref().is_some_and(|h| {
                    h.headers
                        .iter()
                        .any(|(k, _)| k.eq_ignore_ascii_case("WWW-Authenticate"))
                });
                let Some(body) = &m.json else {
                    assert!(
                        matches!(status, 202 | 404 | 405)
                            || (challenged && matches!(status, 401 | 403)),
                        "{id} / {}: an empty {status}",
                        t.label
                    );
                    continue;
                };
                let expected: &[u16] = match code(body) {
                    None => &[200],
                    Some(-32601) if m.revision == MODERN => &[404],
                    Some(-32020 | -32021 | -32022 | -32700 | -32600) => &[400],
                    Some(-32602) => &[200, 400],
                    // Legacy SDK errors (e.g. -32000 without a session).
                    Some(_) => &[400, 404, 200],
                };
                assert!(
                    expected.contains(&status),
                    "{id} / {}: {status} for {body}",
                    t.label
                );
            }
        }
    }
    assert!(
        checked >= 20,
        "only {checked} HTTP responses in the catalog"
    );
}

#[test]
fn h_headers_notification_posts_are_not_header_checked() {
    // 2026-07-28 streamable-http: "header requirements for notification POSTs
    // are not defined by this revision", so an accepted notification is 202.
    let notification =
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}});
    let (response, body) = http(
        &mut server("deploy-console"),
        &post_with(&[CT, ACCEPT], &notification),
    );
    assert_eq!(response.status, 202, "{body}");
}
