//! The HTTP edge (parameter headers, Host, routing by header) and the
//! legacy era, then every fixture's reply validated in both eras.

use crate::common::*;
use crate::fixtures::*;
use mcp_lanes_core::server::ConnId;
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http;
use serde_json::{json, Value};

#[test]
fn h_param_headers_checked_against_the_body() {
    let mut s = reference();
    let msg = |region: &str| {
        call(
            json!(1),
            "test_header_echo",
            json!({"region": region}),
            json!({}),
        )
    };
    let with = |m: &Value, value: Option<&str>| {
        let mut req = post(m);
        if let Some(v) = value {
            req.headers.push(("Mcp-Param-Region".into(), v.into()));
        }
        req
    };
    for (body, header, ok) in [
        ("us-west1", Some("us-west1"), true),
        ("Hello", Some("=?base64?SGVsbG8=?="), true),
        ("SGVsbG8=", Some("SGVsbG8="), true),
        ("Hello", Some("=?base64?SGVsbG8?="), false),
        ("Hello", Some("=?base64?SGVs!!!bG8=?="), false),
        ("Hello", Some("Bye"), false),
        ("test-value", None, false),
    ] {
        let m = msg(body);
        let (resp, out) = exchange_req(&mut s, &with(&m, header), &m);
        if ok {
            assert_eq!(resp.status, 200, "{body} / {header:?}");
            assert_eq!(
                result(&out)["content"][0]["text"],
                format!("Region: {body}")
            );
        } else {
            assert_eq!(
                (resp.status, code(&response(&out))),
                (400, Some(-32020)),
                "{body} / {header:?}"
            );
        }
    }
}

#[test]
fn h_host_foreign_host_is_forbidden() {
    let mut s = reference();
    let msg = modern(json!(1), "server/discover", json!({}), json!({}));
    for (host, status) in [
        ("evil.example.com", 403),
        ("localhost:8811", 200),
        ("127.0.0.1", 200),
        ("[::1]:9", 200),
    ] {
        let mut req = post(&msg);
        req.headers.push(("Host".into(), host.into()));
        let (resp, _) = exchange_req(&mut s, &req, &msg);
        assert_eq!(resp.status, status, "{host}");
    }
}

#[test]
fn e_header_route_initialize_with_modern_header_is_404() {
    let mut s = reference();
    let mut init = initialize(json!(500), "2025-11-25", json!({}));
    init["params"]["_meta"] = meta_of("2026-07-28", json!({}));
    let (resp, m) = exchange(&mut s, &init);
    assert_eq!((resp.status, code(&response(&m))), (404, Some(-32601)));
    // Without the header it is a legacy handshake.
    let plain_init = initialize(json!(1), "2025-11-25", json!({}));
    let req = post_with(
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
        &plain_init,
    );
    let reply = s.handle_http(SimTime::ZERO, &req).response;
    assert_eq!(reply.status, 200);
    assert!(reply.header(http::SESSION_HEADER).is_some());
}

#[test]
fn l_logging_set_level_filters_messages() {
    let mut s = reference();
    handshake(&mut s, "2025-11-25", json!({}));
    // Every request of a legacy session has an id of its own (RPC-ID).
    let set = |id: i64, level: &str| json!({"jsonrpc": "2.0", "id": id, "method": "logging/setLevel", "params": {"level": level}});
    let r = reply(&mut s, &set(2, "debug"));
    assert_eq!(r["result"], json!({}), "exactly an empty result");
    let call_msg = |id: i64| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "test_tool_with_logging", "arguments": {}}});
    let r = reply(&mut s, &call_msg(3));
    valid("2025-11-25", &r, Some("tools/call"));
    let logs = sends_to(&drain(&mut s), &ConnId::stdio());
    assert_eq!(logs.len(), 3);
    reply(&mut s, &set(4, "error"));
    reply(&mut s, &call_msg(5));
    assert!(sends_to(&drain(&mut s), &ConnId::stdio()).is_empty());
    assert_eq!(code(&reply(&mut s, &set(6, "loud"))), Some(-32602));
    // ping is exactly {} too.
    assert_eq!(reply(&mut s, &plain(json!(9), "ping"))["result"], json!({}));
}

#[test]
fn l_sampling_legacy_server_request_then_result() {
    let mut s = reference();
    handshake(
        &mut s,
        "2025-11-25",
        json!({"sampling": {}, "elicitation": {}}),
    );
    let call_msg = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "test_sampling", "arguments": {"prompt": "Test prompt"}}});
    assert!(
        send(&mut s, &call_msg).is_none(),
        "the answer waits for the client"
    );
    let asked = sends_to(&drain(&mut s), &ConnId::stdio());
    assert_eq!(asked[0]["method"], "sampling/createMessage");
    assert_eq!(
        asked[0]["params"]["messages"][0]["content"]["text"],
        "Test prompt"
    );
    let answer = json!({"jsonrpc": "2.0", "id": asked[0]["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "Hi"}, "model": "m", "stopReason": "endTurn"}});
    assert!(send(&mut s, &answer).is_none());
    let done = sends_to(&drain(&mut s), &ConnId::stdio());
    assert_eq!(done[0]["id"], 3);
    assert_eq!(
        done[0]["result"]["content"][0]["text"],
        "The model answered: Hi"
    );
    valid("2025-11-25", &done[0], Some("tools/call"));
    // Elicitation fixtures ask with their schemas.
    let call_msg = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "test_elicitation_sep1034_defaults", "arguments": {}}});
    send(&mut s, &call_msg);
    let asked = sends_to(&drain(&mut s), &ConnId::stdio());
    assert_eq!(
        asked[0]["params"]["requestedSchema"]["properties"]["score"]["default"],
        95.5
    );
    // Without the capability: a tool error, no request.
    let mut s = reference();
    handshake(&mut s, "2025-11-25", json!({}));
    let r = reply(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "test_sampling", "arguments": {"prompt": "x"}}}),
    );
    assert_eq!(r["result"]["isError"], true);
}

#[test]
fn every_reference_reply_validates_in_both_eras() {
    let mut s = reference();
    let caps = ALL_CAPS();
    let mut modern_msgs = vec![
        modern(json!(1), "server/discover", json!({}), caps.clone()),
        modern(json!(2), "tools/list", json!({}), caps.clone()),
        modern(json!(3), "prompts/list", json!({}), caps.clone()),
    ];
    for (i, tool) in [
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_error_handling",
        "test_missing_capability",
        "test_streaming_elicitation",
        "json_schema_2020_12_tool",
        "test_reconnection",
        "test_input_required_result_multiple_inputs",
        "test_input_required_result_request_state",
        "test_sampling",
        "test_elicitation",
    ]
    .iter()
    .enumerate()
    {
        modern_msgs.push(call(
            json!(10 + i),
            tool,
            json!({"prompt": "p", "message": "m"}),
            caps.clone(),
        ));
    }
    for m in &modern_msgs {
        let (resp, out) = exchange(&mut s, m);
        assert_eq!(resp.status, 200, "{m}");
        assert!(response(&out).get("result").is_some(), "{m}: {out:?}");
    }
    // Legacy: the same fixtures in a session.
    let mut s = reference();
    handshake(
        &mut s,
        "2025-11-25",
        json!({"sampling": {}, "elicitation": {}}),
    );
    for (i, (method, params)) in [
        ("tools/list", json!({})), ("prompts/list", json!({})), ("resources/list", json!({})),
        ("resources/templates/list", json!({})), ("resources/subscribe", json!({"uri": "test://watched-resource"})),
        ("resources/unsubscribe", json!({"uri": "test://watched-resource"})),
        ("prompts/get", json!({"name": "test_prompt_with_embedded_resource", "arguments": {"resourceUri": "test://x"}})),
        ("completion/complete", json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": "arg1", "value": "t"}})),
        ("tools/call", json!({"name": "test_multiple_content_types", "arguments": {}})),
        ("tools/call", json!({"name": "test_error_handling", "arguments": {}})),
    ].into_iter().enumerate() {
        let msg = json!({"jsonrpc": "2.0", "id": 100 + i, "method": method, "params": params});
        let r = reply(&mut s, &msg);
        assert!(r.get("result").is_some(), "{method}: {r}");
        valid("2025-11-25", &r, Some(method));
    }
}
