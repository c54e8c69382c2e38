//! The engine's own tests: channel losses, stdio framing, SSE streams,
//! the stress load and determinism.

use super::*;
use crate::client::presets as clients;
use crate::server::presets as servers;

fn setup(kind: TransportKind, script: Vec<Step>) -> Setup {
    Setup {
        label: "t".into(),
        client: clients::plain(),
        server: servers::deploy_console(),
        channel: ChannelConfig::new(kind),
        script,
        server_events: Vec::new(),
        auth: None,
        gateway: None,
    }
}

#[test]
fn l_timeout_a_reply_lost_in_transit_ends_in_a_timeout_and_a_cancel() {
    let mut s = setup(TransportKind::Stdio, vec![Step::Discover { version: None }]);
    s.channel.lose_from_server = vec![1];
    let t = run(&s);
    let kinds: Vec<String> = t
        .events
        .iter()
        .map(|e| match &e.kind {
            EventKind::Message(m) => m.label.clone(),
            other => format!("{other:?}")
                .split([' ', '{'])
                .next()
                .unwrap_or("")
                .to_string(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "server/discover",
            "result",
            "Dropped",
            "Timeout",
            "notifications/cancelled",
            "Decision"
        ]
    );
    assert_eq!(t.events[1].message().and_then(|m| m.delivered_at_ms), None);
    assert_eq!(t.events[3].at_ms, 30_000);
}

#[test]
fn rpc_parse_stdio_text_with_embedded_newlines_is_a_framing_error() {
    let text =
        "{\n\"jsonrpc\": \"2.0\", \"id\": 1,\n\"method\": \"tools/list\"}".replace("\\n", "\n");
    let s = setup(
        TransportKind::Stdio,
        vec![Step::Raw {
            text,
            headers: None,
            violation: Some("pretty-printed over stdio".into()),
            note: Note::default(),
            rules: vec![],
        }],
    );
    let t = run(&s);
    let errors = t.messages().filter(|(_, m)| m.label == "-32700").count();
    assert_eq!(errors, 3, "one -32700 per line");
    assert!(t.events.iter().any(|e| e.note.starts_with("Framing error")));
}

#[test]
fn l_cap_session_legacy_http_elicitation_travels_on_an_sse_stream() {
    let mut s = setup(
        TransportKind::Http,
        vec![Step::call_tool(
            "purge_index",
            serde_json::json!({"index": "prod-catalog"}),
        )],
    );
    s.client = clients::legacy_host();
    s.server = servers::search_index();
    let t = run(&s);
    let labels: Vec<&str> = t.messages().map(|(_, m)| m.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "initialize",
            "200 result",
            "notifications/initialized",
            "tools/call",
            "202 Accepted",
            "200 elicitation/create",
            "result",
            "202 Accepted",
            "result"
        ]
    );
    assert_eq!(t.summary.leaked_locks, 0);
    let last = t
        .messages()
        .last()
        .map(|(_, m)| m.wire.clone())
        .unwrap_or_default();
    assert!(last.contains("Purged prod-catalog."), "{last}");
}

#[test]
fn the_stress_load_has_the_requested_size() {
    let lanes = crate::scenarios::stress(3, 200);
    assert_eq!(lanes.len(), 3);
    for setup in &lanes {
        let t = run(setup);
        assert_eq!(t.messages().count(), 200, "{}", setup.label);
    }
}

#[test]
fn runs_are_deterministic() {
    for info in crate::scenarios::CATALOG {
        let a = crate::scenarios::run(info.id).unwrap_or_default();
        let b = crate::scenarios::run(info.id).unwrap_or_default();
        assert_eq!(a, b, "{}", info.id);
    }
}
