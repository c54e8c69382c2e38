//! On Streamable HTTP a client cancels a request by closing its stream:
//! the simulator tells the server (`Server::stream_closed`), as the CLI's
//! HTTP server does when a client goes away, so a listen subscription
//! whose stream the client closed ends (M-LISTEN-FILTER).

use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{EventKind, Side, Timeline};
use serde_json::{json, Value};

fn run(steps: Value, client: Value) -> Timeline {
    let value = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "clients": [client],
        "setups": [{"client": "c", "server": "reference", "transport": "http", "steps": steps}]
    });
    let loaded = file::load_value(&value).unwrap_or_else(|e| {
        panic!(
            "{:?}",
            e.iter().map(ToString::to_string).collect::<Vec<_>>()
        )
    });
    scenarios::run_setups(&loaded.setups).remove(0)
}

fn listen(background: bool) -> Value {
    json!({"do": "request", "method": "subscriptions/listen",
           "params": {"notifications": {"promptsListChanged": true}}, "background": background})
}

/// The server's decisions that end a listen subscription.
fn ended(t: &Timeline) -> usize {
    t.events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Decision { side: Side::Server }))
        .filter(|e| e.rules.contains(&"M-LISTEN-FILTER") && e.note.contains("closed listen stream"))
        .count()
}

#[test]
fn m_listen_filter_a_background_listen_stream_the_client_closes_over_http_ends_at_the_server() {
    let steps = json!([listen(true), {"do": "call", "tool": "test_simple_text"}]);
    let t = run(steps, json!({"id": "c"}));
    assert_eq!(
        ended(&t),
        1,
        "{:#?}",
        t.events.iter().map(|e| &e.note).collect::<Vec<_>>()
    );
}

#[test]
fn m_listen_filter_a_listen_stream_closed_at_a_timeout_over_http_ends_at_the_server() {
    let t = run(
        json!([listen(false)]),
        json!({"id": "c", "requestTimeoutMs": 500}),
    );
    assert!(t.events.iter().any(|e| matches!(
        e.kind,
        EventKind::Timeout {
            side: Side::Client,
            ..
        }
    )));
    assert_eq!(
        ended(&t),
        1,
        "{:#?}",
        t.events.iter().map(|e| &e.note).collect::<Vec<_>>()
    );
}
