//! The `reference` preset: the whole server side of both eras, with the
//! official conformance suite's fixtures. Tests are named after the rules
//! they exercise; every message the server sends is checked against the
//! official schema of its revision.

mod common;

use common::schema::schemas;
use common::*;
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::server::{ConnId, OutputKind, Server, ServerTrigger};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{self, HttpRequest, HttpResponse};
use serde_json::{json, Value};

const ALL_CAPS: fn() -> Value =
    || json!({"sampling": {}, "elicitation": {}, "roots": {"listChanged": true}});

fn reference() -> Server {
    server("reference")
}

/// Validates `message` against the schema of `rev` (`origin`: the method of
/// the request a result answers).
fn valid(rev: &str, message: &Value, origin: Option<&str>) {
    if let Err(failure) = schemas().validate_message(rev, message, origin) {
        panic!("{message} is not a valid {rev} message: {failure:?}");
    }
}

/// POSTs a modern request with the headers a conforming client sends and
/// returns the response and every JSON-RPC message of its body (SSE events
/// or the one JSON body), each validated.
fn exchange(server: &mut Server, message: &Value) -> (HttpResponse, Vec<Value>) {
    exchange_req(server, &post(message), message)
}

fn exchange_req(
    server: &mut Server,
    request: &HttpRequest,
    message: &Value,
) -> (HttpResponse, Vec<Value>) {
    let response = server.handle_http(SimTime::ZERO, request).response;
    let bodies: Vec<String> = if http::is_event_stream(&response) {
        http::sse_events(&response.body)
    } else if response.body.is_empty() {
        Vec::new()
    } else {
        vec![response.body.clone()]
    };
    let method = message["method"].as_str();
    let messages: Vec<Value> = bodies
        .iter()
        .map(|b| serde_json::from_str(b).unwrap_or_else(|e| panic!("{e}: {b}")))
        .collect();
    for m in &messages {
        valid("2026-07-28", m, method);
    }
    (response, messages)
}

/// The final response among `messages` (the one with an id).
fn response(messages: &[Value]) -> Value {
    messages
        .iter()
        .rev()
        .find(|m| m.get("id").is_some())
        .cloned()
        .unwrap_or_else(|| panic!("no response among {messages:?}"))
}

fn result(messages: &[Value]) -> Value {
    let r = response(messages);
    assert!(r.get("result").is_some(), "expected a result: {r}");
    r["result"].clone()
}

/// Sends on `conn` whatever the server queued for it, validated.
fn sends_to(outputs: &[mcp_lanes_core::server::ServerOutput], conn: &ConnId) -> Vec<Value> {
    outputs
        .iter()
        .filter(|o| o.conn == *conn)
        .filter_map(|o| match &o.kind {
            OutputKind::Send {
                message, revision, ..
            } => {
                if message.get("method").is_some() {
                    valid(revision.as_str(), message, None);
                }
                Some(message.clone())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn m_mrtr_state_multi_round_carries_answers_and_rejects_tampering() {
    let mut s = reference();
    let tool = "test_input_required_result_multi_round";
    let (_, r1) = exchange(&mut s, &call(json!(1), tool, json!({}), ALL_CAPS()));
    let r1 = result(&r1);
    assert_eq!(r1["resultType"], "input_required");
    let state1 = r1["requestState"].as_str().expect("state").to_string();
    assert!(r1["inputRequests"]["user_name"].is_object());
    let retry = |id: i64, responses: Value, state: &str| {
        let mut msg = call(json!(id), tool, json!({}), ALL_CAPS());
        msg["params"]["inputResponses"] = responses;
        msg["params"]["requestState"] = json!(state);
        msg
    };
    let (_, r2) = exchange(
        &mut s,
        &retry(
            2,
            json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}}),
            &state1,
        ),
    );
    let r2 = result(&r2);
    assert_eq!(
        r2["resultType"], "input_required",
        "round two asks again: {r2}"
    );
    let state2 = r2["requestState"].as_str().expect("state").to_string();
    assert_ne!(state1, state2);
    assert!(r2["inputRequests"]["favorite_color"].is_object());
    let (_, r3) = exchange(
        &mut s,
        &retry(
            3,
            json!({"favorite_color": {"action": "accept", "content": {"color": "blue"}}}),
            &state2,
        ),
    );
    let r3 = result(&r3);
    assert_eq!(r3["resultType"], "complete");
    assert_eq!(
        r3["content"][0]["text"], "Alice likes blue.",
        "the first round's answer travelled in the state"
    );
    // Tampered, or another server's key: rejected with an error, nothing done.
    for bad in [format!("{state1}-TAMPERED"), "x.y".into(), "garbage".into()] {
        let (_, m) = exchange(
            &mut s,
            &retry(
                4,
                json!({"user_name": {"action": "accept", "content": {"name": "Eve"}}}),
                &bad,
            ),
        );
        assert_eq!(code(&response(&m)), Some(-32602), "{bad}");
    }
    let mut other = reference();
    other.set_state_key(b"another key");
    let (_, m) = exchange(
        &mut other,
        &retry(
            5,
            json!({"user_name": {"action": "accept", "content": {"name": "Eve"}}}),
            &state1,
        ),
    );
    assert_eq!(code(&response(&m)), Some(-32602));
    // A state bound to one tool does not open another.
    let mut msg = retry(
        6,
        json!({"confirm": {"action": "accept", "content": {"ok": true}}}),
        &state1,
    );
    msg["params"]["name"] = json!("test_input_required_result_tampered_state");
    let (_, m) = exchange(&mut s, &msg);
    assert_eq!(code(&response(&m)), Some(-32602));
    // A missing answer is asked for again, not an error.
    let (_, m) = exchange(
        &mut s,
        &retry(
            7,
            json!({"wrong_key": {"action": "accept", "content": {}}}),
            &state1,
        ),
    );
    assert_eq!(result(&m)["resultType"], "input_required");
}

#[test]
fn m_mrtr_state_basic_flows_and_capabilities() {
    let mut s = reference();
    // Sampling and roots round trips, no state.
    for (tool, key, answer, text) in [
        (
            "test_input_required_result_sampling",
            "capital_question",
            json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m", "stopReason": "endTurn"}),
            "The model says: Paris",
        ),
        (
            "test_input_required_result_list_roots",
            "client_roots",
            json!({"roots": [{"uri": "file:///test/root", "name": "Test Root"}]}),
            "Roots: file:///test/root",
        ),
    ] {
        let (_, r1) = exchange(&mut s, &call(json!(1), tool, json!({}), ALL_CAPS()));
        let r1 = result(&r1);
        assert!(r1["inputRequests"][key].is_object(), "{r1}");
        assert!(r1.get("requestState").is_none());
        let mut retry = call(json!(2), tool, json!({}), ALL_CAPS());
        retry["params"]["inputResponses"] = json!({key: answer});
        let (_, r2) = exchange(&mut s, &retry);
        assert_eq!(result(&r2)["content"][0]["text"], text);
    }
    // Only what the request declared (M-MRTR-CAP).
    let (_, m) = exchange(
        &mut s,
        &call(
            json!(3),
            "test_input_required_result_capabilities",
            json!({}),
            json!({"sampling": {}}),
        ),
    );
    let r = result(&m);
    let methods: Vec<&str> = r["inputRequests"]
        .as_object()
        .expect("map")
        .values()
        .filter_map(|v| v["method"].as_str())
        .collect();
    assert_eq!(methods, ["sampling/createMessage"]);
    let (resp, m) = exchange(
        &mut s,
        &call(
            json!(4),
            "test_input_required_result_elicitation",
            json!({}),
            json!({}),
        ),
    );
    assert_eq!((resp.status, code(&response(&m))), (400, Some(-32021)));
    // An answer of the wrong shape is a protocol error.
    let mut bad = call(
        json!(5),
        "test_input_required_result_elicitation",
        json!({}),
        ALL_CAPS(),
    );
    bad["params"]["inputResponses"] = json!({"user_name": 12345});
    let (_, m) = exchange(&mut s, &bad);
    assert_eq!(code(&response(&m)), Some(-32602));
    // MRTR on prompts/get.
    let get = |id: i64| {
        modern(
            json!(id),
            "prompts/get",
            json!({"name": "test_input_required_result_prompt"}),
            ALL_CAPS(),
        )
    };
    let (_, m) = exchange(&mut s, &get(6));
    assert_eq!(result(&m)["resultType"], "input_required");
    let mut retry = get(7);
    retry["params"]["inputResponses"] =
        json!({"user_context": {"action": "accept", "content": {"context": "ctx"}}});
    let (_, m) = exchange(&mut s, &retry);
    assert_eq!(result(&m)["messages"][0]["content"]["text"], "Context: ctx");
}

/// Opens a listen stream over HTTP: the response and its key.
fn listen(s: &mut Server, id: i64, filter: Value) -> (HttpResponse, Vec<Value>) {
    let msg = modern(
        json!(id),
        "subscriptions/listen",
        json!({"notifications": filter}),
        json!({}),
    );
    exchange(s, &msg)
}

fn trigger_tool(s: &mut Server, tool: &str) -> Vec<mcp_lanes_core::server::ServerOutput> {
    let (_, m) = exchange(s, &call(json!(900), tool, json!({}), json!({})));
    assert_eq!(result(&m)["resultType"], "complete");
    drain(s)
}

#[test]
fn m_listen_ack_comes_first_and_names_the_agreed_filter() {
    let mut s = reference();
    let (resp, events) = listen(
        &mut s,
        7,
        json!({"toolsListChanged": true, "resourceSubscriptions": ["test://watched-resource"], "bogus": true}),
    );
    assert_eq!(resp.status, 200);
    assert!(http::is_event_stream(&resp));
    let key = resp.stream.clone().expect("the response stays open");
    assert_eq!(events.len(), 1);
    assert_eq!(
        events[0]["method"],
        "notifications/subscriptions/acknowledged"
    );
    assert_eq!(
        events[0]["params"]["notifications"],
        json!({"toolsListChanged": true, "resourceSubscriptions": ["test://watched-resource"]})
    );
    assert!(drain(&mut s)
        .iter()
        .all(|o| !matches!(o.kind, OutputKind::Send { .. })));
    // A server with nothing to announce has no listen (-32601).
    let mut lesson = server("deploy-console");
    let (resp, m) = listen(&mut lesson, 8, json!({"toolsListChanged": true}));
    assert_eq!((resp.status, code(&response(&m))), (404, Some(-32601)));
    // On stdio the acknowledgement is an output; there is no response.
    let mut s = reference();
    let msg = modern(
        json!("sub"),
        "subscriptions/listen",
        json!({"notifications": {"promptsListChanged": true}}),
        json!({}),
    );
    assert!(send(&mut s, &msg).is_none());
    let acks = sends_to(&drain(&mut s), &ConnId::stdio());
    assert_eq!(acks[0]["params"]["_meta"][meta::SUBSCRIPTION_ID], "sub");
    let _ = key;
}

#[test]
fn m_listen_tag_every_notification_carries_the_subscription_id() {
    let mut s = reference();
    let (resp, events) = listen(&mut s, 41, json!({"toolsListChanged": true}));
    assert_eq!(events[0]["params"]["_meta"][meta::SUBSCRIPTION_ID], 41);
    let conn = ConnId::http_stream(&resp.stream.expect("stream"));
    let out = trigger_tool(&mut s, "test_trigger_tool_change");
    let sent = sends_to(&out, &conn);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["method"], "notifications/tools/list_changed");
    assert_eq!(sent[0]["params"]["_meta"][meta::SUBSCRIPTION_ID], 41);
    assert!(out
        .iter()
        .any(|o| matches!(o.kind, OutputKind::Broadcast(ServerTrigger::ToolsChanged))));
    // The one way a later message names its stream: the output's event
    // carries the response's stream key (no id: a listen stream is not
    // resumed, it is listened to again).
    let ConnId::HttpStream(key) = &conn else {
        panic!("a listen stream's connection is its stream");
    };
    let on_stream: Vec<_> = out
        .iter()
        .filter_map(|o| o.event.as_ref().filter(|e| e.stream == *key))
        .collect();
    assert_eq!(on_stream.len(), 1);
    assert_eq!(
        (on_stream[0].id.as_deref(), on_stream[0].closes),
        (None, false)
    );
    assert_eq!(
        on_stream[0].frame("{}"),
        "event: message\ndata: {}\n\n",
        "the same frame as the listen response's body"
    );
}

#[test]
fn m_listen_filter_a_driver_closing_the_stream_ends_the_subscription() {
    let mut s = reference();
    let (resp, _) = listen(&mut s, 5, json!({"toolsListChanged": true}));
    let key = resp.stream.expect("the response stays open");
    assert!(s.stream_is_open(&key));
    s.stream_closed(SimTime::from_millis(10), &key);
    let out = drain(&mut s);
    assert!(out.iter().any(|o| o.kind == OutputKind::Decision
        && o.rules.contains(&"M-LISTEN-FILTER")
        && o.note.contains(&key)));
    assert!(!s.stream_is_open(&key));
    let out = trigger_tool(&mut s, "test_trigger_tool_change");
    assert!(sends_to(&out, &ConnId::http_stream(&key)).is_empty());
    assert!(out.iter().all(|o| o.event.is_none()));
    // Closing it again, or a stream that never was, changes nothing.
    s.stream_closed(SimTime::from_millis(20), &key);
    s.stream_closed(SimTime::from_millis(20), "listen-99");
    assert!(drain(&mut s).is_empty());
}

#[test]
fn m_listen_filter_only_what_was_asked_and_forgotten_when_closed() {
    let mut s = reference();
    let (a, _) = listen(&mut s, 1, json!({"toolsListChanged": true}));
    let (b, _) = listen(&mut s, 2, json!({"promptsListChanged": true}));
    let (c, _) = listen(
        &mut s,
        3,
        json!({"resourceSubscriptions": ["test://watched-resource"]}),
    );
    let [a, b, c] = [a, b, c].map(|r| ConnId::http_stream(&r.stream.expect("stream")));
    let out = trigger_tool(&mut s, "test_trigger_tool_change");
    assert_eq!(sends_to(&out, &a).len(), 1);
    assert!(sends_to(&out, &b).is_empty() && sends_to(&out, &c).is_empty());
    let out = trigger_tool(&mut s, "test_trigger_prompt_change");
    assert_eq!(
        sends_to(&out, &b)[0]["method"],
        "notifications/prompts/list_changed"
    );
    assert!(sends_to(&out, &a).is_empty());
    let out = trigger_tool(&mut s, "test_trigger_resource_update");
    let updated = sends_to(&out, &c);
    assert_eq!(updated[0]["method"], "notifications/resources/updated");
    assert_eq!(updated[0]["params"]["uri"], "test://watched-resource");
    // The stream closes: the subscription is gone.
    s.handle_disconnect(SimTime::ZERO, &a);
    let out = trigger_tool(&mut s, "test_trigger_tool_change");
    assert!(sends_to(&out, &a).is_empty());
    // stdio: notifications/cancelled ends it.
    let msg = modern(
        json!(9),
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
        json!({}),
    );
    send(&mut s, &msg);
    drain(&mut s);
    send(
        &mut s,
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}}),
    );
    drain(&mut s);
    s.trigger(SimTime::ZERO, ServerTrigger::ToolsChanged);
    assert!(sends_to(&drain(&mut s), &ConnId::stdio()).is_empty());
}

#[test]
fn m_log_level_no_messages_without_a_level() {
    let mut s = reference();
    let (resp, m) = exchange(
        &mut s,
        &call(json!(1), "test_logging_tool", json!({}), json!({})),
    );
    assert!(!http::is_event_stream(&resp));
    assert!(m.iter().all(|x| x["method"] != "notifications/message"));
    let mut with_level = call(json!(2), "test_tool_with_logging", json!({}), json!({}));
    with_level["params"]["_meta"][meta::LOG_LEVEL] = json!("debug");
    let (resp, m) = exchange(&mut s, &with_level);
    assert!(http::is_event_stream(&resp));
    let logs: Vec<&Value> = m
        .iter()
        .filter(|x| x["method"] == "notifications/message")
        .collect();
    assert_eq!(logs.len(), 3);
    assert!(
        logs.iter().all(|l| l["params"]["_meta"].is_null()),
        "no subscription id outside a stream"
    );
    with_level["params"]["_meta"][meta::LOG_LEVEL] = json!("error");
    let (_, m) = exchange(&mut s, &with_level);
    assert_eq!(m.len(), 1, "info is below error: {m:?}");
}

#[test]
fn m_progress_notifications_precede_the_result() {
    let mut s = reference();
    let mut msg = call(json!(1), "test_tool_with_progress", json!({}), json!({}));
    msg["params"]["_meta"]["progressToken"] = json!("progress-test-1");
    let (_, m) = exchange(&mut s, &msg);
    let progress: Vec<i64> = m
        .iter()
        .filter(|x| x["method"] == "notifications/progress")
        .map(|x| {
            assert_eq!(x["params"]["progressToken"], "progress-test-1");
            x["params"]["progress"].as_i64().expect("number")
        })
        .collect();
    assert_eq!(progress, [0, 50, 100]);
    assert!(
        m.last().is_some_and(|x| x.get("result").is_some()),
        "the result comes last"
    );
}

#[test]
fn h_sse_response_notifications_then_response() {
    // Without a progress token or a log level the same tools answer JSON.
    let mut s = reference();
    for tool in ["test_tool_with_progress", "test_tool_with_logging"] {
        let (resp, m) = exchange(&mut s, &call(json!(1), tool, json!({}), json!({})));
        assert!(!http::is_event_stream(&resp), "{tool}");
        assert_eq!(m.len(), 1);
    }
}

#[test]
fn m_resources_read_templates_and_unknown_uri() {
    let mut s = reference();
    let (_, m) = exchange(
        &mut s,
        &modern(json!(1), "resources/list", json!({}), json!({})),
    );
    assert_eq!(result(&m)["resources"][0]["uri"], "test://static-text");
    let (_, m) = exchange(
        &mut s,
        &modern(json!(2), "resources/templates/list", json!({}), json!({})),
    );
    assert_eq!(
        result(&m)["resourceTemplates"][0]["uriTemplate"],
        "test://template/{id}/data"
    );
    let read =
        |id: i64, uri: &str| modern(json!(id), "resources/read", json!({"uri": uri}), json!({}));
    let (_, m) = exchange(&mut s, &read(3, "test://template/123/data"));
    assert!(result(&m)["contents"][0]["text"]
        .as_str()
        .is_some_and(|t| t.contains("123")));
    let (_, m) = exchange(&mut s, &read(4, "test://static-binary"));
    assert_eq!(result(&m)["contents"][0]["mimeType"], "image/png");
    let uri = "test://nonexistent-resource-for-conformance-testing";
    let (_, m) = exchange(&mut s, &read(5, uri));
    let err = response(&m);
    assert_eq!(code(&err), Some(-32602));
    assert_eq!(err["error"]["data"]["uri"], uri);
    // Legacy sessions read the same resources.
    let mut s = reference();
    handshake(&mut s, "2025-11-25", json!({}));
    let r = reply(
        &mut s,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "resources/read", "params": {"uri": "test://template/7/data"}}),
    );
    valid("2025-11-25", &r, Some("resources/read"));
}

#[test]
fn m_prompts_get_fills_arguments() {
    let mut s = reference();
    let (_, m) = exchange(
        &mut s,
        &modern(json!(1), "prompts/list", json!({}), json!({})),
    );
    assert!(result(&m)["prompts"]
        .as_array()
        .is_some_and(|p| p.iter().all(|p| p["description"].is_string())));
    let get = modern(
        json!(2),
        "prompts/get",
        json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "testValue1", "arg2": "testValue2"}}),
        json!({}),
    );
    let (_, m) = exchange(&mut s, &get);
    let text = result(&m)["messages"].to_string();
    assert!(text.contains("testValue1") && text.contains("testValue2"));
    let missing = modern(
        json!(3),
        "prompts/get",
        json!({"name": "test_prompt_with_arguments", "arguments": {"arg1": "x"}}),
        json!({}),
    );
    let (_, m) = exchange(&mut s, &missing);
    assert_eq!(code(&response(&m)), Some(-32602));
    for name in ["test_simple_prompt", "test_prompt_with_image"] {
        let (_, m) = exchange(
            &mut s,
            &modern(json!(4), "prompts/get", json!({"name": name}), json!({})),
        );
        assert!(!result(&m)["messages"]
            .as_array()
            .expect("messages")
            .is_empty());
    }
}

#[test]
fn m_completion_suggests_values() {
    let mut s = reference();
    let msg = modern(
        json!(1),
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"}, "argument": {"name": "arg1", "value": "test"}}),
        json!({}),
    );
    let (_, m) = exchange(&mut s, &msg);
    assert_eq!(
        result(&m)["completion"]["values"],
        json!(["test", "test-value", "testing"])
    );
    let bad = modern(
        json!(2),
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "nope"}, "argument": {"name": "a", "value": ""}}),
        json!({}),
    );
    let (_, m) = exchange(&mut s, &bad);
    assert_eq!(code(&response(&m)), Some(-32602));
}

#[test]
fn m_schema_intact_2020_12_schema_listed_verbatim() {
    let mut s = reference();
    let (_, m) = exchange(
        &mut s,
        &modern(json!(1), "tools/list", json!({}), json!({})),
    );
    let tools = result(&m)["tools"].clone();
    let tool = tools
        .as_array()
        .expect("tools")
        .iter()
        .find(|t| t["name"] == "json_schema_2020_12_tool")
        .expect("listed")
        .clone();
    assert_eq!(
        tool["inputSchema"],
        mcp_lanes_core::server::reference::schema_2020_12()
    );
    assert_eq!(
        tools[0]["name"], "test_simple_text",
        "the harmless tool comes first"
    );
}

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
