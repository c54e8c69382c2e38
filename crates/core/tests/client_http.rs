//! The client against real servers: what the reference client decides on
//! Streamable HTTP (custom headers from tool parameters, invalid tool
//! annotations, SSE responses, transport failures), in MRTR rounds, for
//! schemas and for version refusals. Driven by hand: the test plays the
//! server with the messages the official conformance suite's client
//! scenarios send.

mod common;

use common::schema::schemas;
use common::*;
use mcp_lanes_core::client::presets as clients;
use mcp_lanes_core::client::{ClientAction, Step, TransportFailure};
use mcp_lanes_core::rules;
use mcp_lanes_core::sim::EventKind;
use mcp_lanes_core::transport::http::{self, HttpResponse};
use mcp_lanes_core::transport::{param_headers, TransportKind};
use serde_json::{json, Value};

const HTTP: TransportKind = TransportKind::Http;

fn start(script: Vec<Step>) -> Driver {
    Driver::start(clients::reference(), script, HTTP)
}

fn ok(result: Value, id: &Value) -> HttpResponse {
    HttpResponse::json(
        200,
        json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string(),
    )
}

/// A 400 -32022 answer to request `id`: `supported` is all the server
/// speaks, `requested` what the request named.
fn unsupported(id: &Value, message: &str, supported: &str, requested: &str) -> HttpResponse {
    HttpResponse::json(
        400,
        json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32022, "message": message,
            "data": {"supported": [supported], "requested": requested}}})
        .to_string(),
    )
}

/// Answers the last request over HTTP with a JSON result.
fn answer_http(d: &mut Driver, at: u64, result: Value) {
    let id = d.last_sent()["id"].clone();
    d.receive_http(at, &ok(result, &id));
}

fn header(d: &Driver, index: usize, name: &str) -> Option<String> {
    d.sent_http()
        .get(index)
        .and_then(|r| r.header(name).map(str::to_string))
}

/// The tools of the suite's `http-custom-headers` scenario.
fn custom_header_tools() -> Value {
    json!({"resultType": "complete", "ttlMs": 0, "cacheScope": "private", "tools": [
        {"name": "test_custom_headers", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
            "debug": {"type": "boolean", "x-mcp-header": "Debug"},
            "empty_val": {"type": "string", "x-mcp-header": "EmptyVal"},
            "method_val": {"type": "string", "x-mcp-header": "Method"},
            "float_val": {"type": "number"},
            "non_ascii_val": {"type": "string", "x-mcp-header": "NonAscii"},
            "whitespace_val": {"type": "string", "x-mcp-header": "Whitespace"},
            "leading_space_val": {"type": "string", "x-mcp-header": "LeadingSpace"},
            "trailing_space_val": {"type": "string", "x-mcp-header": "TrailingSpace"},
            "internal_space_val": {"type": "string", "x-mcp-header": "InternalSpace"},
            "control_char_val": {"type": "string", "x-mcp-header": "ControlChar"},
            "crlf_val": {"type": "string", "x-mcp-header": "CrLf"},
            "tab_val": {"type": "string", "x-mcp-header": "Tab"},
            "query": {"type": "string"}
        }, "required": ["region", "priority", "query"]}},
        {"name": "test_custom_headers_null", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "priority": {"type": "integer", "x-mcp-header": "Priority"},
            "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
            "query": {"type": "string"}
        }, "required": ["region", "priority", "query"]}}
    ]})
}

fn b64(text: &str) -> String {
    use base64::Engine as _;
    format!(
        "=?base64?{}?=",
        base64::engine::general_purpose::STANDARD.encode(text)
    )
}

#[test]
fn c_param_headers_mirror_designated_arguments_and_omit_null_ones() {
    let args = json!({"region": "us-west1", "priority": 42, "verbose": false, "debug": true,
        "empty_val": "", "method_val": "test-method", "float_val": 2.5,
        "non_ascii_val": "Hello, 世界", "whitespace_val": " padded ", "leading_space_val": " us-west1",
        "trailing_space_val": "us-west1 ", "internal_space_val": "us west 1",
        "control_char_val": "line1\nline2", "crlf_val": "line1\r\nline2", "tab_val": "\tindented",
        "query": "SELECT * FROM users"});
    let mut d = start(vec![
        Step::request("tools/list"),
        Step::call_tool("test_custom_headers", args),
        Step::call_tool(
            "test_custom_headers_null",
            json!({"region": "us-east1", "priority": 1, "verbose": null, "query": "SELECT 1"}),
        ),
    ]);
    answer_http(&mut d, 10, custom_header_tools());
    let plain = [
        ("Mcp-Param-Region", "us-west1"),
        ("Mcp-Param-Priority", "42"),
        ("Mcp-Param-Verbose", "false"),
        ("Mcp-Param-Debug", "true"),
        ("Mcp-Param-EmptyVal", ""),
        ("Mcp-Param-Method", "test-method"),
        ("Mcp-Param-InternalSpace", "us west 1"),
    ];
    for (name, value) in plain {
        assert_eq!(header(&d, 1, name).as_deref(), Some(value), "{name}");
    }
    assert_eq!(header(&d, 1, "Mcp-Method").as_deref(), Some("tools/call"));
    assert_eq!(header(&d, 1, "Mcp-Param-FloatVal"), None);
    assert_eq!(header(&d, 1, "Mcp-Param-Query"), None);
    let out = &d.outputs;
    let call = out
        .iter()
        .rev()
        .find(|o| matches!(o.action, ClientAction::Send { .. }))
        .unwrap();
    assert!(
        call.rules.contains(&rules::C_PARAM_HEADERS),
        "{:?}",
        call.rules
    );
    answer_http(&mut d, 20, json!({"resultType": "complete", "content": []}));
    assert_eq!(
        header(&d, 2, "Mcp-Param-Region").as_deref(),
        Some("us-east1")
    );
    assert_eq!(header(&d, 2, "Mcp-Param-Verbose"), None, "null is omitted");
    // The body carries the arguments as given.
    assert_eq!(d.last_sent()["params"]["arguments"]["verbose"], Value::Null);
}

#[test]
fn c_param_headers_base64_for_values_that_are_not_plain_visible_ascii_h_headers_too() {
    let cases = [
        ("Hello, 世界", true),
        (" padded ", true),
        (" us-west1", true),
        ("us-west1 ", true),
        ("line1\nline2", true),
        ("line1\r\nline2", true),
        ("\tindented", true),
        ("in\tside", true),
        ("=?base64?literal?=", true),
        ("us west 1", false),
        ("", false),
        ("file:///path/to/file%20name.txt", false),
    ];
    for (value, encoded) in cases {
        let got = http::encode_header_value(value);
        if encoded {
            assert_eq!(got, b64(value), "{value:?}");
        } else {
            assert_eq!(got, value, "{value:?}");
        }
        assert_eq!(http::decode_header_value(&got).as_deref(), Some(value));
    }
    // Through a call: the Base64 values, and the rule on the message.
    let mut d = start(vec![
        Step::request("tools/list"),
        Step::call_tool(
            "test_custom_headers",
            json!({"region": "r", "priority": 1, "query": "q", "non_ascii_val": "Hello, 世界",
                "crlf_val": "line1\r\nline2", "tab_val": "\tindented"}),
        ),
    ]);
    answer_http(&mut d, 10, custom_header_tools());
    assert_eq!(
        header(&d, 1, "Mcp-Param-NonAscii"),
        Some("=?base64?SGVsbG8sIOS4lueVjA==?=".into())
    );
    assert_eq!(header(&d, 1, "Mcp-Param-CrLf"), Some(b64("line1\r\nline2")));
    assert_eq!(header(&d, 1, "Mcp-Param-Tab"), Some(b64("\tindented")));
    let call = d.outputs.last().unwrap();
    assert!(call.rules.contains(&rules::C_PARAM_HEADERS));
    // A tool name outside the safe set goes base64 in Mcp-Name too.
    let mut d = start(vec![Step::call_tool("météo", json!({}))]);
    assert_eq!(header(&d, 0, "Mcp-Name"), Some(b64("météo")));
    assert!(d.outputs.last().unwrap().rules.contains(&rules::H_HEADERS));
    d.run_until(1);
}

#[test]
fn c_param_headers_integers_outside_the_safe_range_are_never_sent() {
    let mut d = start(vec![
        Step::request("tools/list"),
        Step::call_tool("count", json!({"n": 9_007_199_254_740_992_i64})),
        Step::call_tool("count", json!({"n": -7})),
    ]);
    answer_http(
        &mut d,
        10,
        json!({"tools": [{"name": "count", "inputSchema": {"type": "object", "properties": {
            "n": {"type": "integer", "x-mcp-header": "N"}}}}]}),
    );
    // The first call is not sent; the second one is, with its header.
    assert_eq!(d.sent_http().len(), 2);
    assert_eq!(header(&d, 1, "Mcp-Param-N").as_deref(), Some("-7"));
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r.contains(&rules::C_PARAM_HEADERS) && n.contains("safe integer range")));
    assert!(param_headers::header_value(&json!(3.0)).unwrap() == Some("3".into()));
}

/// The tools of the suite's `http-invalid-tool-headers` scenario.
fn invalid_header_tools() -> Value {
    let one = |name: &str, prop: Value| json!({"name": name, "inputSchema": {"type": "object", "properties": {"value": prop}, "required": ["value"]}});
    json!({"resultType": "complete", "tools": [
        one("valid_tool", json!({"type": "string", "x-mcp-header": "Region"})),
        one("invalid_empty_header", json!({"type": "string", "x-mcp-header": ""})),
        one("invalid_object_header", json!({"type": "object", "x-mcp-header": "Data"})),
        one("invalid_array_header", json!({"type": "array", "items": {"type": "string"}, "x-mcp-header": "Items"})),
        one("invalid_null_header", json!({"type": "null", "x-mcp-header": "Nil"})),
        one("invalid_number_header", json!({"type": "number", "x-mcp-header": "Score"})),
        {"name": "invalid_duplicate_same_case", "inputSchema": {"type": "object", "properties": {
            "field1": {"type": "string", "x-mcp-header": "Region"},
            "field2": {"type": "string", "x-mcp-header": "Region"}}}},
        {"name": "invalid_duplicate_diff_case", "inputSchema": {"type": "object", "properties": {
            "field1": {"type": "string", "x-mcp-header": "MyField"},
            "field2": {"type": "string", "x-mcp-header": "myfield"}}}},
        one("invalid_space_in_name", json!({"type": "string", "x-mcp-header": "My Region"})),
        one("invalid_colon_in_name", json!({"type": "string", "x-mcp-header": "Region:Primary"})),
        one("invalid_non_ascii_name", json!({"type": "string", "x-mcp-header": "Région"})),
        one("invalid_control_char_name", json!({"type": "string", "x-mcp-header": "Region\t1"})),
        {"name": "invalid_in_items", "inputSchema": {"type": "object", "properties": {
            "list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}}}}
    ]})
}

#[test]
fn c_param_invalid_tools_are_left_out_never_called_and_named_in_a_warning() {
    let mut d = start(vec![
        Step::request("tools/list"),
        Step::CallListed {
            list: "tools/list".into(),
            limit: None,
            arguments: json!({}),
        },
        Step::call_tool("invalid_number_header", json!({"value": 1.5})),
        Step::request("tools/list"),
    ]);
    answer_http(&mut d, 10, invalid_header_tools());
    // Only valid_tool is called, with its header.
    let calls: Vec<Value> = d.sent().into_iter().skip(1).collect();
    assert_eq!(calls.len(), 1, "{calls:?}");
    assert_eq!(calls[0]["params"]["name"], "valid_tool");
    assert_eq!(
        header(&d, 1, "Mcp-Param-Region").as_deref(),
        Some("example")
    );
    let warnings: Vec<String> = d
        .decisions()
        .into_iter()
        .filter(|(r, _)| r.contains(&rules::C_PARAM_INVALID))
        .map(|(_, n)| n)
        .collect();
    assert_eq!(warnings.len(), 12, "{warnings:#?}");
    for w in &warnings {
        assert!(
            w.starts_with("Warning: the client leaves out the tool"),
            "{w}"
        );
    }
    assert!(warnings
        .iter()
        .any(|w| w.contains("invalid_non_ascii_name") && w.contains("not an HTTP token")));
    assert!(warnings
        .iter()
        .any(|w| w.contains("invalid_duplicate_diff_case") && w.contains("used twice")));
    answer_http(&mut d, 20, json!({"resultType": "complete", "content": []}));
    // The explicit call of an invalid tool is refused without a message.
    let sent = d.sent();
    assert_eq!(sent.last().unwrap()["method"], "tools/list");
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r.contains(&rules::C_PARAM_INVALID)
            && n.contains("refuses to call \"invalid_number_header\"")));
}

#[test]
fn c_param_invalid_annotations_are_ignored_on_stdio() {
    let mut d = Driver::start(
        clients::reference(),
        vec![
            Step::request("tools/list"),
            Step::CallListed {
                list: "tools/list".into(),
                limit: Some(3),
                arguments: json!({}),
            },
        ],
        TransportKind::Stdio,
    );
    d.answer(10, invalid_header_tools());
    assert_eq!(d.last_sent()["params"]["name"], "valid_tool");
    d.answer(20, json!({"content": []}));
    assert_eq!(d.last_sent()["params"]["name"], "invalid_empty_header");
    assert!(!d
        .decisions()
        .iter()
        .any(|(r, _)| r.contains(&rules::C_PARAM_INVALID)));
}

fn sse(events: &[Value]) -> HttpResponse {
    let mut body = String::from(": stream opened\n\n");
    for e in events {
        body.push_str(&format!("event: message\nid: 1\ndata: {e}\n\n"));
    }
    let mut response = HttpResponse::json(200, body);
    response.headers = vec![("Content-Type".into(), "text/event-stream".into())];
    response
}

#[test]
fn c_sse_read_a_stream_answer_is_read_and_ends_the_exchange() {
    let mut d = start(vec![
        Step::request("tools/list"),
        Step::request("prompts/list"),
    ]);
    let req = &d.sent_http()[0];
    assert_eq!(
        req.header("Accept"),
        Some("application/json, text/event-stream")
    );
    let id = d.last_sent()["id"].clone();
    d.receive_http(
        10,
        &sse(&[
            json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}}),
            json!({"jsonrpc": "2.0", "id": id, "result": {"tools": []}}),
        ]),
    );
    assert_eq!(d.last_sent()["method"], "prompts/list");
    // A stream that ends without the response fails the request.
    d.receive_http(
        20,
        &sse(&[json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "x"}})]),
    );
    assert!(d.client.awaited().is_none());
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r.contains(&rules::C_SSE_READ) && n.contains("stream ended")));
    assert!(d.client.is_done());
}

#[test]
fn c_exchange_failed_the_client_gives_up_on_that_request_and_goes_on() {
    let mut d = start(vec![
        Step::request("tools/list"),
        Step::request("prompts/list"),
    ]);
    let first = d.client.awaited().expect("waits for tools/list");
    d.transport_failure(
        5,
        &TransportFailure::Closed("connection refused by 127.0.0.1:9".into()),
    );
    let second = d.client.awaited().expect("waits for prompts/list");
    assert_ne!(first.serial, second.serial);
    assert_eq!(d.last_sent()["method"], "prompts/list");
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r.contains(&rules::C_EXCHANGE_FAILED) && n.contains("connection refused")));
    d.transport_failure(6, &TransportFailure::TooLarge("over 4 MiB".into()));
    assert!(d.client.is_done());
    // With nothing awaited, a failure is recorded, never acted on.
    d.transport_failure(7, &TransportFailure::Garbled("not HTTP".into()));
    assert!(d
        .records()
        .iter()
        .any(|(k, r, _)| matches!(k, EventKind::Dropped { .. })
            && r.contains(&rules::C_EXCHANGE_FAILED)));
}

fn elicit(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message,
        "requestedSchema": {"type": "object", "properties": {"confirmed": {"type": "boolean"}}}}})
}

#[test]
fn c_mrtr_rounds_request_state_is_echoed_exactly_or_left_out() {
    let mut d = start(vec![
        Step::call_tool("test_mrtr_echo_state", json!({})),
        Step::call_tool("test_mrtr_no_state", json!({})),
        Step::call_tool("test_mrtr_unrelated", json!({})),
    ]);
    let state = r#"{"nonce":"a\u00e9/b","originalId":1}"#;
    let first_id = d.last_sent()["id"].clone();
    answer_http(
        &mut d,
        10,
        json!({"resultType": "input_required", "inputRequests": {"confirm": elicit("Please confirm")},
            "requestState": state}),
    );
    let retry = d.last_sent();
    assert_ne!(retry["id"], first_id);
    assert_eq!(retry["params"]["requestState"], json!(state));
    assert_eq!(
        retry["params"]["inputResponses"]["confirm"],
        json!({"action": "accept", "content": {"confirmed": true}})
    );
    answer_http(&mut d, 20, json!({"resultType": "complete", "content": []}));
    answer_http(
        &mut d,
        30,
        json!({"resultType": "input_required", "inputRequests": {"confirm": elicit("again")}}),
    );
    let retry = d.last_sent();
    assert!(retry["params"].get("requestState").is_none(), "{retry}");
    assert!(retry["params"].get("inputResponses").is_some());
    assert!(d
        .outputs
        .last()
        .unwrap()
        .rules
        .contains(&rules::C_MRTR_ROUNDS));
    answer_http(&mut d, 40, json!({"content": []}));
    // Never carried over to another request.
    let unrelated = d.last_sent();
    assert_eq!(unrelated["params"]["name"], "test_mrtr_unrelated");
    assert!(unrelated["params"].get("inputResponses").is_none());
    assert!(unrelated["params"].get("requestState").is_none());
}

#[test]
fn c_mrtr_rounds_sampling_and_roots_are_answered_over_several_rounds() {
    let mut d = start(vec![Step::call_tool("multi", json!({}))]);
    answer_http(
        &mut d,
        10,
        json!({"resultType": "input_required", "requestState": "s1", "inputRequests": {
            "user_name": elicit("name?"),
            "capital": {"method": "sampling/createMessage", "params": {"messages": [
                {"role": "user", "content": {"type": "text", "text": "Capital of France?"}}], "maxTokens": 100}},
            "where": {"method": "roots/list", "params": {}}
        }}),
    );
    let r2 = d.last_sent();
    assert_eq!(r2["params"]["requestState"], "s1");
    let responses = &r2["params"]["inputResponses"];
    assert_eq!(responses["capital"]["role"], "assistant");
    assert_eq!(responses["where"]["roots"][0]["uri"], "file:///workspace");
    answer_http(
        &mut d,
        20,
        json!({"resultType": "input_required", "requestState": "s2", "inputRequests": {"user_name": elicit("colour?")}}),
    );
    let r3 = d.last_sent();
    assert_eq!(r3["params"]["requestState"], "s2");
    assert_eq!(
        r3["params"]["inputResponses"].as_object().unwrap().len(),
        1,
        "only this round's answers"
    );
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r.contains(&rules::C_MRTR_ROUNDS) && n.contains("round 2")));
    // Every message validates against the 2026-07-28 schema.
    for message in d.sent() {
        schemas()
            .validate_message(MODERN, &message, None)
            .unwrap_or_else(|e| panic!("{message}: {e}"));
    }
    // Rounds are bounded.
    for round in 3..=8 {
        answer_http(
            &mut d,
            20 + round,
            json!({"resultType": "input_required", "requestState": format!("s{round}")}),
        );
    }
    let sent = d.sent().len();
    answer_http(
        &mut d,
        40,
        json!({"resultType": "input_required", "requestState": "s9"}),
    );
    assert_eq!(d.sent().len(), sent, "no ninth retry");
    assert!(d.client.is_done());
}

#[test]
fn c_mrtr_rounds_an_input_request_without_its_capability_ends_the_request() {
    let mut config = clients::reference();
    config.capabilities.sampling = None;
    let mut d = Driver::start(config, vec![Step::call_tool("ask", json!({}))], HTTP);
    answer_http(
        &mut d,
        10,
        json!({"resultType": "input_required", "inputRequests": {
            "q": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 1}}}}),
    );
    assert_eq!(d.sent().len(), 1);
    assert!(d
        .decisions()
        .iter()
        .any(|(r, n)| r.contains(&rules::M_MRTR_CAP) && n.contains("no sampling capability")));
}

fn schema_2020_12() -> Value {
    json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
        "$defs": {"address": {"$anchor": "addressDef", "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
        "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
            "profile": {"$ref": "http://localhost:1/canary/profile-schema.json"}},
        "allOf": [{"anyOf": [{"required": ["name"]}, {"required": ["address"]}]}],
        "if": {"properties": {"name": {"const": "x"}}, "required": ["name"]},
        "then": {"required": ["address"]}, "else": {"required": ["name"]},
        "additionalProperties": false})
}

#[test]
fn c_schema_no_deref_schemas_are_kept_and_passed_on_as_listed() {
    let mut d = start(vec![
        Step::request("tools/list"),
        Step::EchoSchema {
            tool: "json_schema_echo".into(),
            argument: "schema".into(),
            schema_of: "json_schema_2020_12_tool".into(),
        },
    ]);
    answer_http(
        &mut d,
        10,
        json!({"tools": [
            {"name": "json_schema_2020_12_tool", "inputSchema": schema_2020_12()},
            {"name": "json_schema_echo", "inputSchema": {"type": "object",
                "properties": {"schema": {"type": "object"}}, "required": ["schema"]}}
        ]}),
    );
    let echo = d.last_sent();
    assert_eq!(echo["params"]["name"], "json_schema_echo");
    assert_eq!(echo["params"]["arguments"]["schema"], schema_2020_12());
    let notes = d.decisions();
    assert!(notes
        .iter()
        .any(|(r, n)| r.contains(&rules::C_SCHEMA_NO_DEREF)
            && n.contains("http://localhost:1/canary/profile-schema.json")));
    // Arguments made up from a schema never follow a $ref either.
    let made = mcp_lanes_core::client::example_arguments(&json!({"type": "object", "properties": {
        "id": {"$ref": "#/$defs/userId"}, "n": {"type": "integer"}}, "required": ["id", "n"]}));
    assert_eq!(made, json!({"id": "example", "n": 1}));
}

#[test]
fn c_version_retry_once_when_supported_names_the_version_sent() {
    let mut d = start(vec![Step::Discover { version: None }]);
    let first = d.last_sent();
    let refusal = |id: &Value| unsupported(id, "Unsupported protocol version", MODERN, MODERN);
    d.receive_http(10, &refusal(&first["id"]));
    let retry = d.last_sent();
    assert_ne!(retry["id"], first["id"]);
    assert_eq!(
        retry["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"],
        MODERN
    );
    assert_eq!(
        header(&d, 1, "MCP-Protocol-Version").as_deref(),
        Some(MODERN)
    );
    assert!(d
        .decisions()
        .iter()
        .any(|(r, _)| r.contains(&rules::C_VERSION_RETRY_ONCE)));
    // A second refusal ends the request: no third attempt.
    d.receive_http(20, &refusal(&retry["id"]));
    assert_eq!(d.sent().len(), 2);
    assert!(d.client.is_done());
}

#[test]
fn c_version_retry_once_bounds_retries_between_contradicting_answers() {
    let mut config = clients::reference();
    config.modern_versions = vec![MODERN.into(), "2027-01-01".into()];
    let mut d = Driver::start(config, vec![Step::request("tools/list")], HTTP);
    for (at, other) in [
        (10, "2027-01-01"),
        (20, MODERN),
        (30, "2027-01-01"),
        (40, MODERN),
    ] {
        let id = d.last_sent()["id"].clone();
        d.receive_http(at, &unsupported(&id, "no", other, "x"));
    }
    assert_eq!(d.sent().len(), 4, "the first try and three retries");
}
