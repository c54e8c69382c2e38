//! `subscriptions/listen`: the acknowledgement, tags and filters.

use crate::common::*;
use crate::fixtures::*;
use mcp_lanes_core::protocol::meta;
use mcp_lanes_core::server::{ConnId, OutputKind, Server, ServerTrigger};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{self, HttpResponse};
use serde_json::{json, Value};

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
