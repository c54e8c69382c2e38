//! Robustness: arbitrary bytes and arbitrary JSON fed to every server preset
//! over stdio and HTTP never panic; request-shaped input always gets a valid
//! JSON-RPC response (except the documented silent cases); notifications
//! and responses never do; and a valid discover/initialize still works
//! afterwards. Plus pathological sizes and nesting.

mod common;

use common::*;
use mcp_lanes_core::client::presets as clients;
use mcp_lanes_core::client::Step;
use mcp_lanes_core::protocol::jsonrpc::Envelope;
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::server::{
    presets, ConnId, OutputKind, Reply, Server, ServerConfig, UnknownMethodPolicy,
};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{self, HttpRequest};
use mcp_lanes_core::transport::TransportKind;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

const METHODS: &[&str] = &[
    "server/discover",
    "initialize",
    "notifications/initialized",
    "ping",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "logging/setLevel",
    "elicitation/create",
    "notifications/cancelled",
    "notifications/tools/list_changed",
    "completion/complete",
    "",
    "x/y",
];

const KEYS: &[&str] = &[
    "jsonrpc",
    "id",
    "method",
    "params",
    "_meta",
    "result",
    "error",
    "code",
    "message",
    "data",
    meta::PROTOCOL_VERSION,
    meta::CLIENT_CAPABILITIES,
    meta::CLIENT_INFO,
    "name",
    "arguments",
    "protocolVersion",
    "capabilities",
    "clientInfo",
    "elicitation",
    "form",
    "url",
    "uri",
    "inputResponses",
    "requestState",
    "retention_days",
    "index",
    "version",
    "action",
    "content",
];

const STRINGS: &[&str] = &[
    "2.0",
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "list_incidents",
    "notify_oncall",
    "confirm_order",
    "purge_index",
    "read_note",
    "note://standup",
    "accept",
    "prod-catalog",
    "",
];

/// Every server the robustness tests use: the presets plus a legacy server
/// that stays silent on unknown methods.
fn all_servers() -> Vec<(String, ServerConfig)> {
    let mut out: Vec<(String, ServerConfig)> = presets::PRESETS
        .iter()
        .map(|(id, _)| (id.to_string(), presets::server(id).expect("preset")))
        .collect();
    let mut silent = presets::notes();
    silent.unknown_method = UnknownMethodPolicy::Silent;
    out.push(("notes (silent)".into(), silent));
    out
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (-3i64..10).prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        prop::sample::select(STRINGS).prop_map(|s| json!(s)),
        prop::sample::select(METHODS).prop_map(|s| json!(s)),
        ".{0,12}".prop_map(Value::String),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(KEYS).prop_map(str::to_string),
        1 => "[a-zA-Z_/.]{0,8}",
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Objects shaped like JSON-RPC messages, each member of a random type.
fn message_like() -> impl Strategy<Value = Value> {
    let jsonrpc =
        prop_oneof![4 => Just(Some(json!("2.0"))), 1 => Just(None), 1 => leaf().prop_map(Some)];
    let id = prop_oneof![
        3 => (0i64..20).prop_map(|n| Some(json!(n))),
        1 => prop::sample::select(STRINGS).prop_map(|s| Some(json!(s))),
        2 => Just(None),
        1 => leaf().prop_map(Some),
    ];
    let method = prop_oneof![
        5 => prop::sample::select(METHODS).prop_map(|m| Some(json!(m))),
        1 => Just(None),
        1 => leaf().prop_map(Some),
    ];
    let meta = prop_oneof![
        2 => (prop::sample::select(&["2026-07-28", "2025-11-25", "x"][..]), any_json(), any::<bool>()).prop_map(|(v, caps, object_caps)| {
            let caps = if object_caps { json!({"elicitation": {}}) } else { caps };
            Some(json!({meta::PROTOCOL_VERSION: v, meta::CLIENT_CAPABILITIES: caps}))
        }),
        1 => Just(None),
        1 => any_json().prop_map(Some),
    ];
    let params = prop_oneof![
        4 => (meta, prop::collection::btree_map(key(), any_json(), 0..4), prop::sample::select(STRINGS))
            .prop_map(|(meta, extra, name)| {
                let mut p: Map<String, Value> = extra.into_iter().collect();
                p.insert("name".into(), json!(name));
                p.insert("arguments".into(), json!({"index": "prod-catalog"}));
                if let Some(m) = meta {
                    p.insert("_meta".into(), m);
                }
                Some(Value::Object(p))
            }),
        1 => Just(None),
        1 => any_json().prop_map(Some),
    ];
    let extra = prop_oneof![3 => Just(None), 1 => (key(), any_json()).prop_map(Some)];
    (jsonrpc, id, method, params, extra).prop_map(|(jsonrpc, id, method, params, extra)| {
        let mut o = Map::new();
        for (k, v) in [
            ("jsonrpc", jsonrpc),
            ("id", id),
            ("method", method),
            ("params", params),
        ] {
            if let Some(v) = v {
                o.insert(k.into(), v);
            }
        }
        if let Some((k, v)) = extra {
            o.insert(k, v);
        }
        Value::Object(o)
    })
}

/// What a well-behaved server must do with `text`.
#[derive(Debug, PartialEq)]
enum Expect {
    /// A response (the id to echo, if it could be read).
    Reply(Option<Value>),
    /// Nothing: a notification or a response.
    Nothing,
}

fn expect_for(text: &str) -> Expect {
    let Ok(value) = serde_json::from_str::<Value>(text) else {
        return Expect::Reply(None);
    };
    match Envelope::classify(&value) {
        Ok(Envelope::Request { id, .. }) => Expect::Reply(Some(id.to_json())),
        Ok(_) => Expect::Nothing,
        Err(_) => Expect::Reply(None),
    }
}

/// A JSON-RPC response object: jsonrpc 2.0 and exactly one of result/error.
fn assert_response(who: &str, message: &Value, id: Option<&Value>) {
    let obj = message
        .as_object()
        .unwrap_or_else(|| panic!("{who}: not an object: {message}"));
    assert_eq!(obj.get("jsonrpc"), Some(&json!("2.0")), "{who}: {message}");
    assert!(
        obj.contains_key("result") ^ obj.contains_key("error"),
        "{who}: exactly one of result/error: {message}"
    );
    assert!(!obj.contains_key("method"), "{who}: {message}");
    if let Some(error) = obj.get("error") {
        assert!(
            error["code"].is_i64() && error["message"].is_string(),
            "{who}: {message}"
        );
    }
    if let Some(id) = id {
        assert_eq!(
            obj.get("id"),
            Some(id),
            "{who}: the id is echoed: {message}"
        );
    } else {
        let got = obj.get("id");
        assert!(
            got.is_none()
                || got == Some(&Value::Null)
                || got.is_some_and(|v| v.is_string() || v.is_i64()),
            "{who}: {message}"
        );
    }
}

/// Whether the server documented why it stayed silent on a request.
fn silent_on_purpose(server: &mut Server) -> bool {
    drain(server).iter().any(|o| match &o.kind {
        // A legacy server that drops unknown methods.
        OutputKind::Dropped(_) => true,
        // A legacy server that asked the client something and waits.
        OutputKind::Send { message, .. } => {
            message.get("method").is_some() && message.get("id").is_some()
        }
        _ => false,
    })
}

fn check_stdio(who: &str, server: &mut Server, conn: &ConnId, text: &str) {
    let reply: Option<Reply> = server.handle_text(SimTime::ZERO, conn, text);
    match (expect_for(text), reply) {
        (Expect::Nothing, None) => {
            drain(server);
        }
        (Expect::Nothing, Some(r)) => panic!(
            "{who}: answered a notification/response {text:?} with {}",
            r.message
        ),
        (Expect::Reply(id), Some(r)) => {
            assert_response(who, &r.message, id.as_ref());
            drain(server);
        }
        (Expect::Reply(_), None) => {
            assert!(
                silent_on_purpose(server),
                "{who}: no reply to the request {text:?}"
            );
        }
    }
}

fn check_http(who: &str, server: &mut Server, request: &HttpRequest) {
    let response = server.handle_http(SimTime::ZERO, request).response;
    drain(server);
    if response.status == 202 {
        assert!(response.body.is_empty(), "{who}: 202 with a body");
    }
    if response.body.is_empty() {
        assert!(
            matches!(response.status, 200 | 202 | 404 | 405),
            "{who}: an empty {} for {request:?}",
            response.status
        );
        return;
    }
    if http::is_event_stream(&response) {
        for data in http::sse_events(&response.body) {
            let v: Value = serde_json::from_str(&data)
                .unwrap_or_else(|e| panic!("{who}: SSE data is not JSON ({e}): {data}"));
            assert!(v.is_object(), "{who}: {v}");
        }
        return;
    }
    let body: Value = serde_json::from_str(&response.body)
        .unwrap_or_else(|e| panic!("{who}: HTTP body is not JSON ({e}): {}", response.body));
    let id = match expect_for(&request.body) {
        Expect::Reply(id) => id,
        Expect::Nothing => None,
    };
    assert_response(
        who,
        &body,
        if response.status == 403 {
            None
        } else {
            id.as_ref()
        },
    );
}

/// After any input, the server still does its basic job.
fn still_works(who: &str, name: &str, server: &mut Server) {
    let modern_ok = presets::server(name)
        .map(|c| c.era.speaks_modern())
        .unwrap_or(false);
    if modern_ok {
        let r = reply(
            server,
            &modern(json!("after"), "server/discover", json!({}), json!({})),
        );
        assert_eq!(
            r["result"]["resultType"], "complete",
            "{who}: discover after garbage: {r}"
        );
        let (resp, body) = common::http(
            server,
            &post(&modern(
                json!("after-http"),
                "server/discover",
                json!({}),
                json!({}),
            )),
        );
        assert_eq!(resp.status, 200, "{who}: {body}");
    } else {
        let r = reply(server, &initialize(json!("after"), "2025-06-18", json!({})));
        assert!(
            r["result"]["protocolVersion"].is_string(),
            "{who}: initialize after garbage: {r}"
        );
        let (resp, body) = common::http(
            server,
            &HttpRequest::post(
                http::legacy_headers(None, None),
                initialize(json!("after-http"), "2025-06-18", json!({})).to_string(),
            ),
        );
        assert_eq!(resp.status, 200, "{who}: {body}");
    }
}

fn headers() -> impl Strategy<Value = Vec<(String, String)>> {
    let name = prop_oneof![
        prop::sample::select(
            &[
                "MCP-Protocol-Version",
                "mcp-method",
                "Mcp-Name",
                "Origin",
                "Mcp-Session-Id",
                "Last-Event-ID",
                "Content-Type",
                "Accept"
            ][..]
        )
        .prop_map(str::to_string),
        "[A-Za-z-]{1,12}",
    ];
    let value = prop_oneof![
        prop::sample::select(
            &[
                "2026-07-28",
                "tools/call",
                "list_incidents",
                "http://localhost:1",
                "https://evil.example",
                "session-1",
                "=?base64?bGlzdF9pbmNpZGVudHM=?=",
                "=?base64?***?=",
                " padded ",
                ""
            ][..]
        )
        .prop_map(str::to_string),
        ".{0,16}",
    ];
    prop::collection::vec((name, value), 0..6)
}

fn http_method() -> impl Strategy<Value = String> {
    prop_oneof![8 => Just("POST".to_string()), 1 => Just("GET".to_string()), 1 => Just("DELETE".to_string()), 1 => "[A-Z]{0,7}"]
}

/// A server that has a legacy session on `stdio` (where it speaks legacy),
/// so garbage also reaches an operating session.
fn prepared(config: &ServerConfig, with_session: bool) -> Server {
    let mut s = Server::new(config.clone());
    if with_session && config.era.speaks_legacy() {
        handshake(&mut s, "2025-06-18", json!({"elicitation": {}}));
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn rpc_parse_arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200), with_session in any::<bool>()) {
        let text = String::from_utf8_lossy(&bytes).to_string();
        for (name, config) in all_servers() {
            let who = format!("{name} (stdio, bytes)");
            let mut s = prepared(&config, with_session);
            check_stdio(&who, &mut s, &ConnId::stdio(), &text);
            let mut request = post(&json!({}));
            request.body = text.clone();
            check_http(&format!("{name} (http, bytes)"), &mut s, &request);
            still_works(&who, &name, &mut s);
        }
    }

    #[test]
    fn rpc_invalid_arbitrary_json_gets_a_valid_response_or_none(values in prop::collection::vec(prop_oneof![any_json(), message_like(), message_like()], 1..5), with_session in any::<bool>()) {
        for (name, config) in all_servers() {
            let who = format!("{name} (stdio)");
            let mut s = prepared(&config, with_session);
            for v in &values {
                check_stdio(&who, &mut s, &ConnId::stdio(), &v.to_string());
            }
            still_works(&who, &name, &mut s);
        }
    }

    #[test]
    fn h_headers_arbitrary_http_requests_never_panic(value in message_like(), hdrs in headers(), method in http_method(), conforming in any::<bool>()) {
        for (name, config) in all_servers() {
            let mut s = Server::new(config.clone());
            let mut request = if conforming { post(&value) } else { HttpRequest::post(Vec::new(), value.to_string()) };
            request.method = method.clone();
            request.headers.extend(hdrs.iter().cloned());
            check_http(&format!("{name} (http)"), &mut s, &request);
            still_works(&name, &name, &mut s);
        }
    }

    #[test]
    fn rpc_parse_the_client_survives_arbitrary_input(values in prop::collection::vec(prop_oneof![any_json(), message_like()], 1..4), bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        for preset in ["plain", "rich", "dual-era", "legacy-host", "orchestrator-runtime"] {
            for transport in [TransportKind::Stdio, TransportKind::Http] {
                let config = clients::client(preset).expect("preset");
                let mut d = Driver::start(config, vec![Step::request("tools/list"), Step::call_tool("list_incidents", json!({}))], transport);
                let mut at = 10;
                for v in &values {
                    match transport {
                        TransportKind::Stdio => d.receive(at, v),
                        TransportKind::Http => d.receive_http(at, &mcp_lanes_core::transport::HttpResponse::json(200, v.to_string())),
                        other => unreachable!("the loop runs stdio and HTTP, not {other:?}"),
                    }
                    at += 10;
                }
                d.client.handle_text(SimTime::from_millis(at), &String::from_utf8_lossy(&bytes));
                d.run_until(700_000);
            }
        }
    }
}

// ---- sizes and nesting --------------------------------------------------------------

fn assert_clean_error(who: &str, reply: Option<Reply>) -> Value {
    let r = reply.unwrap_or_else(|| panic!("{who}: no reply"));
    assert!(r.message["error"]["code"].is_i64(), "{who}: {}", r.message);
    assert!(
        r.message["error"]["message"]
            .as_str()
            .is_some_and(|m| m.len() < 500),
        "{who}: the error stays short"
    );
    r.message
}

#[test]
fn rpc_parse_deep_nesting_is_a_clean_error() {
    let deep_arrays = "[".repeat(100_000);
    let deep_objects = "{\"a\":".repeat(100_000);
    let closed = format!("{}{}", "[".repeat(50_000), "]".repeat(50_000));
    let in_params = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{{\"name\":\"list_incidents\",\"arguments\":{{\"x\":{}1{}}}}}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    for (name, config) in all_servers() {
        for text in [&deep_arrays, &deep_objects, &closed, &in_params] {
            let mut s = Server::new(config.clone());
            let who = format!("{name}: {} bytes of nesting", text.len());
            let m = assert_clean_error(&who, s.handle_text(SimTime::ZERO, &ConnId::stdio(), text));
            assert_eq!(m["error"]["code"], -32700, "{who}");
            let mut request = post(&json!({}));
            request.body = text.to_string();
            let response = s.handle_http(SimTime::ZERO, &request).response;
            assert_eq!(response.status, 400, "{who} over HTTP");
            still_works(&who, &name, &mut s);
        }
    }
    // Nesting the parser accepts is handled too.
    let ok_depth = format!("{}1{}", "[".repeat(100), "]".repeat(100));
    let mut s = server("deploy-console");
    let request = call(
        json!(1),
        "list_incidents",
        json!({"deep": serde_json::from_str::<Value>(&ok_depth).expect("json")}),
        json!({}),
    );
    let r = reply(&mut s, &request);
    assert_eq!(r["result"]["resultType"], "complete", "{r}");
    // The client too.
    let mut d = Driver::start(
        clients::plain(),
        vec![Step::request("tools/list")],
        TransportKind::Stdio,
    );
    d.client.handle_text(SimTime::from_millis(10), &deep_arrays);
    d.client.handle_http(
        SimTime::from_millis(10),
        &mcp_lanes_core::transport::HttpResponse::json(200, deep_objects.clone()),
    );
}

#[test]
fn rpc_invalid_huge_messages_are_a_clean_error() {
    let five_mib = "x".repeat(5 * 1024 * 1024);
    let huge = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": five_mib, "_meta": meta_of(MODERN, json!({}))}}).to_string();
    let huge_notification = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"reason": "x".repeat(5 * 1024 * 1024)}}).to_string();
    for (name, config) in all_servers() {
        let mut s = Server::new(config.clone());
        let who = format!("{name}: 5 MiB");
        let m = assert_clean_error(&who, s.handle_text(SimTime::ZERO, &ConnId::stdio(), &huge));
        assert_eq!(m["error"]["code"], -32600, "{who}: {m}");
        let m = assert_clean_error(
            &who,
            s.handle_text(SimTime::ZERO, &ConnId::stdio(), &huge_notification),
        );
        assert_eq!(m["error"]["code"], -32600, "{who}: {m}");
        let mut request = post(&json!({}));
        request.body = huge.clone();
        let response = s.handle_http(SimTime::ZERO, &request).response;
        // (A silent legacy server answers every session-less POST with an
        // empty 404, its documented behaviour.)
        assert!(
            matches!(response.status, 400 | 413)
                || (name == "notes (silent)" && response.status == 404),
            "{who}: {}",
            response.status
        );
        assert!(
            response.body.len() < 1000,
            "{who}: the error does not echo the payload"
        );
        still_works(&who, &name, &mut s);
    }
    // Just under the limit: parsed and answered normally (an unknown tool).
    let big_name = "y".repeat(3 * 1024 * 1024);
    let mut s = server("deploy-console");
    let r = reply(&mut s, &call(json!(2), &big_name, json!({}), json!({})));
    assert_eq!(code(&r), Some(-32602));
}
