//! Legacy Streamable HTTP sessions on the simulated server: deferred
//! replies on streams that stay open (H-SSE-STREAM), event ids and
//! resumption (H-SSE-RESUME), session ids from a policy (L-SESSION-ID),
//! idle expiry and the cap (L-SESSION-IDLE).

use mcp_lanes_core::server::{
    presets, HttpReply, OutputKind, Server, ServerConfig, ServerOutput, ServerTrigger, SessionIds,
    SessionPolicy,
};
use mcp_lanes_core::sim::SimTime;
use mcp_lanes_core::transport::http::{self, HttpRequest, HttpResponse};
use serde_json::{json, Value};

const V: &str = "2025-06-18";

fn t(ms: u64) -> SimTime {
    SimTime::from_millis(ms)
}

fn post(session: Option<&str>, body: Value) -> HttpRequest {
    let version = session.map(|_| V);
    HttpRequest::post(http::legacy_headers(version, session), body.to_string())
}

fn get(session: &str, last_event: Option<&str>) -> HttpRequest {
    let mut headers = vec![
        ("Accept".to_string(), "text/event-stream".to_string()),
        (http::SESSION_HEADER.to_string(), session.to_string()),
    ];
    if let Some(last) = last_event {
        headers.push((http::LAST_EVENT_ID_HEADER.to_string(), last.to_string()));
    }
    HttpRequest {
        method: "GET".into(),
        path: "/mcp".into(),
        headers,
        body: String::new(),
    }
}

fn outputs(server: &mut Server) -> Vec<ServerOutput> {
    std::iter::from_fn(|| server.poll_output()).collect()
}

/// initialize (declaring `caps`) and notifications/initialized at `now`;
/// the session id.
fn open_session(server: &mut Server, now: u64, caps: Value) -> String {
    open_session_of(server, now, V, caps)
}

/// [`open_session`] naming the protocol version `version`.
fn open_session_of(server: &mut Server, now: u64, version: &str, caps: Value) -> String {
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": caps,
        "clientInfo": {"name": "test", "version": "1"}}});
    let HttpReply { response, .. } = server.handle_http(t(now), &post(None, init));
    assert_eq!(response.status, 200, "{}", response.body);
    let session = response
        .header(http::SESSION_HEADER)
        .expect("a session id")
        .to_string();
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let headers = http::legacy_headers(Some(version), Some(&session));
    let HttpReply { response, .. } =
        server.handle_http(t(now), &HttpRequest::post(headers, done.to_string()));
    assert_eq!(response.status, 202);
    outputs(server);
    session
}

/// A server of `config` under the default session policy as `set` changes it.
fn with_policy(config: ServerConfig, set: impl FnOnce(&mut SessionPolicy)) -> Server {
    let mut policy = SessionPolicy::default();
    set(&mut policy);
    let mut server = Server::new(config);
    server.set_session_policy(policy);
    server
}

/// A ping with id `id`.
fn ping(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
}

/// The status of the answer to `body` posted on `session` at `now`.
fn status(server: &mut Server, now: u64, session: &str, body: Value) -> u16 {
    server
        .handle_http(t(now), &post(Some(session), body))
        .response
        .status
}

fn purge(id: u64) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "purge_index", "arguments": {"index": "docs"}}})
}

/// search-index with a session that declared elicitation and a purge
/// waiting for its answer: (server, session, the purge's response, the
/// elicitation request).
fn deferred_purge() -> (Server, String, HttpResponse, Value) {
    let mut server = Server::new(presets::search_index());
    let session = open_session(&mut server, 0, json!({"elicitation": {}}));
    let HttpReply {
        response, rules, ..
    } = server.handle_http(t(10), &post(Some(&session), purge(1)));
    assert!(rules.contains(&"H-SSE-STREAM"), "{rules:?}");
    let events = http::sse_events(&response.body);
    assert_eq!(events.len(), 1, "{}", response.body);
    let asked: Value = serde_json::from_str(&events[0]).expect("JSON event");
    assert_eq!(asked["method"], "elicitation/create");
    (server, session, response, asked)
}

fn answer(asked: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": asked["id"],
        "result": {"action": "accept", "content": {"retention_days": 30}}})
}

#[test]
fn h_sse_stream_deferred_reply_stays_open_and_ends_with_the_response() {
    let (mut server, session, response, asked) = deferred_purge();
    assert!(http::is_event_stream(&response));
    assert_eq!(
        response.header(http::SESSION_HEADER),
        Some(session.as_str())
    );
    let stream = response.stream.clone().expect("the stream stays open");
    assert_eq!(stream, format!("{session}/1"));
    assert_eq!(
        http::sse_event_ids(&response.body),
        vec![Some("1-1".to_string())]
    );
    assert!(server.stream_is_open(&stream));
    // The answer is accepted with 202; the result is the stream's last event.
    let HttpReply {
        response: accepted, ..
    } = server.handle_http(t(20), &post(Some(&session), answer(&asked)));
    assert_eq!(accepted.status, 202);
    let sent: Vec<ServerOutput> = outputs(&mut server)
        .into_iter()
        .filter(|o| matches!(o.kind, OutputKind::Send { .. }))
        .collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    let OutputKind::Send { message, .. } = &sent[0].kind else {
        unreachable!()
    };
    assert_eq!(message["id"], 1);
    assert_eq!(message["result"]["content"][0]["text"], "Purged docs.");
    let event = sent[0].event.clone().expect("an SSE event");
    assert_eq!(
        (
            event.stream.as_str(),
            event.id.as_deref().unwrap_or(""),
            event.closes
        ),
        (stream.as_str(), "1-2", true)
    );
    assert!(!server.stream_is_open(&stream));
}

#[test]
fn h_sse_resume_last_event_id_replays_the_rest_of_that_stream_only() {
    let (mut server, session, _response, asked) = deferred_purge();
    // The client lost the stream after event 1-1; the server goes on.
    server.handle_http(t(20), &post(Some(&session), answer(&asked)));
    outputs(&mut server);
    let HttpReply {
        response: resumed,
        rules,
        ..
    } = server.handle_http(t(30), &get(&session, Some("1-1")));
    assert!(rules.contains(&"H-SSE-RESUME"), "{rules:?}");
    assert_eq!(resumed.status, 200);
    assert!(http::is_event_stream(&resumed));
    let events = http::sse_events(&resumed.body);
    assert_eq!(events.len(), 1, "{}", resumed.body);
    let result: Value = serde_json::from_str(&events[0]).expect("JSON");
    assert_eq!(result["id"], 1);
    assert_eq!(
        http::sse_event_ids(&resumed.body),
        vec![Some("1-2".to_string())]
    );
    assert_eq!(resumed.stream, None, "the stream is complete");
    // From the start: both events again.
    let HttpReply {
        response: again, ..
    } = server.handle_http(t(31), &get(&session, Some("1-0")));
    assert_eq!(http::sse_events(&again.body).len(), 2);
    // A stream this session never had: 400, nothing replayed.
    let HttpReply {
        response: unknown, ..
    } = server.handle_http(t(32), &get(&session, Some("9-1")));
    assert_eq!(unknown.status, 400);
    let HttpReply {
        response: garbage, ..
    } = server.handle_http(t(33), &get(&session, Some("x")));
    assert_eq!(garbage.status, 400);
}

#[test]
fn h_sse_resume_a_stream_resumed_before_its_end_stays_open() {
    let (mut server, session, _response, asked) = deferred_purge();
    let HttpReply {
        response: resumed, ..
    } = server.handle_http(t(20), &get(&session, Some("1-1")));
    assert_eq!(resumed.status, 200);
    assert!(resumed.body.is_empty());
    assert_eq!(resumed.stream, Some(format!("{session}/1")));
    server.handle_http(t(30), &post(Some(&session), answer(&asked)));
    let closing = outputs(&mut server)
        .into_iter()
        .find_map(|o| o.event)
        .expect("the result as an event");
    assert_eq!(closing.id.as_deref(), Some("1-2"));
    assert!(closing.closes);
}

#[test]
fn h_sse_resume_get_opens_the_standalone_stream_for_unrelated_messages() {
    let mut server = Server::new(presets::notes());
    let session = open_session(&mut server, 0, json!({}));
    // Before any GET, a list_changed notice has no stream to travel on.
    server.trigger(t(1), ServerTrigger::ToolsChanged);
    let before = outputs(&mut server);
    assert!(before
        .iter()
        .any(|o| matches!(o.kind, OutputKind::Send { .. }) && o.event.is_none()));
    let HttpReply {
        response: opened, ..
    } = server.handle_http(t(2), &get(&session, None));
    assert_eq!(opened.status, 200);
    assert_eq!(opened.stream, Some(format!("{session}/0")));
    server.trigger(t(3), ServerTrigger::ToolsChanged);
    let event = outputs(&mut server)
        .into_iter()
        .find_map(|o| o.event)
        .expect("an event on the GET stream");
    assert_eq!((event.id.as_deref(), event.closes), (Some("0-1"), false));
    // GET on a modern-only server stays 405 (H-STATUS).
    let mut modern = Server::new(presets::deploy_console());
    let HttpReply {
        response: refused, ..
    } = modern.handle_http(t(0), &get("x", None));
    assert_eq!(refused.status, 405);
    // GET naming no known session: 404.
    let HttpReply { response: gone, .. } =
        server.handle_http(t(4), &get("session-99", Some("1-1")));
    assert_eq!(gone.status, 404);
}

#[test]
fn l_session_id_comes_from_the_policy_and_the_simulation_numbers_them() {
    let mut simulated = Server::new(presets::notes());
    assert_eq!(open_session(&mut simulated, 0, json!({})), "session-1");
    assert_eq!(open_session(&mut simulated, 0, json!({})), "session-2");
    let counter = std::sync::atomic::AtomicU32::new(0);
    let mut real = with_policy(presets::notes(), |p| {
        p.ids = Some(SessionIds::new(move || {
            let n = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            format!("0123456789abcdef0123456789abcde{n}")
        }))
    });
    assert_eq!(
        open_session(&mut real, 0, json!({})),
        "0123456789abcdef0123456789abcde0"
    );
    assert_eq!(real.session_count(), 1);
}

#[test]
fn l_session_idle_expired_session_gets_404_cancels_its_call_and_can_start_again() {
    let mut server = with_policy(presets::search_index(), |p| p.idle_ms = Some(1_000));
    let session = open_session(&mut server, 0, json!({"elicitation": {}}));
    let HttpReply { response, .. } = server.handle_http(t(500), &post(Some(&session), purge(1)));
    assert!(response.stream.is_some());
    assert_eq!(
        server.locks_held().len(),
        1,
        "the purge holds its index lock"
    );
    outputs(&mut server);
    // Used at 500 ms: still there at 1,400 ms.
    assert_eq!(status(&mut server, 1_400, &session, ping(2)), 200);
    // Unused for more than 1,000 ms: expired.
    let HttpReply {
        response: gone,
        rules,
        ..
    } = server.handle_http(t(2_500), &post(Some(&session), ping(2)));
    assert_eq!(gone.status, 404);
    assert!(rules.contains(&"L-SESSION-IDLE"), "{rules:?}");
    let effects = outputs(&mut server);
    assert!(effects
        .iter()
        .any(|o| matches!(o.kind, OutputKind::LockReleased(_))));
    assert!(
        server.locks_held().is_empty(),
        "no side effect is left behind"
    );
    assert!(!effects
        .iter()
        .any(|o| matches!(o.kind, OutputKind::Send { .. })));
    // The client starts again.
    let again = open_session(&mut server, 2_600, json!({}));
    assert_ne!(again, session);
    // The sweep ends idle sessions without a request naming them.
    assert_eq!(server.expire_sessions(t(10_000)), 1);
    assert_eq!(server.session_count(), 0);
}

#[test]
fn l_session_idle_the_cap_drops_the_session_idle_longest() {
    let mut server = with_policy(presets::notes(), |p| p.max_sessions = Some(2));
    let first = open_session(&mut server, 0, json!({}));
    let second = open_session(&mut server, 10, json!({}));
    // The first is used again, so the second is now idle longest.
    status(&mut server, 20, &first, ping(2));
    let third = open_session(&mut server, 30, json!({}));
    assert_eq!(server.session_count(), 2);
    // (A new id: an id may not come twice in one session, RPC-ID.)
    assert_eq!(status(&mut server, 40, &first, ping(3)), 200);
    assert_eq!(status(&mut server, 40, &second, ping(2)), 404);
    assert_eq!(status(&mut server, 40, &third, ping(2)), 200);
}

/// A session of `version` on the reference preset; its id.
fn reference_session(server: &mut Server, version: &str) -> String {
    open_session_of(server, 0, version, json!({}))
}

#[test]
fn h_sse_poll_the_stream_is_primed_ended_early_and_the_result_waits_for_resumption() {
    let config = presets::server("reference").expect("the reference preset");
    let mut server = Server::new(config);
    let session = reference_session(&mut server, "2025-11-25");
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "test_reconnection", "arguments": {}}});
    let reply = server.handle_http(
        t(10),
        &HttpRequest::post(
            http::legacy_headers(Some("2025-11-25"), Some(&session)),
            call.to_string(),
        ),
    );
    assert!(reply.rules.contains(&"H-SSE-POLL"), "{:?}", reply.rules);
    let response = reply.response;
    assert_eq!(response.status, 200);
    assert!(http::is_event_stream(&response));
    // Priming: an id, the reconnection delay, empty data; then the
    // response ends without the result (no stream left open).
    assert_eq!(response.body, "id: 1-1\nretry: 500\ndata: \n\n");
    assert_eq!(response.stream, None);
    assert!(outputs(&mut server)
        .iter()
        .all(|o| !matches!(o.kind, OutputKind::Send { .. })));
    // The client reconnects after the primed event: the result follows,
    // and the stream is complete.
    let resumed = server
        .handle_http(t(600), &get(&session, Some("1-1")))
        .response;
    assert_eq!(resumed.status, 200);
    assert_eq!(resumed.stream, None);
    assert_eq!(
        http::sse_event_ids(&resumed.body),
        vec![Some("1-2".to_string())]
    );
    let result: Value = serde_json::from_str(&http::sse_events(&resumed.body)[0]).expect("JSON");
    assert_eq!(result["id"], 1);
    assert_eq!(
        result["result"]["content"][0]["text"],
        "Reconnection test completed."
    );
    // Resuming again replays the same result: nothing is lost or repeated
    // as work.
    let again = server
        .handle_http(t(700), &get(&session, Some("1-1")))
        .response;
    assert_eq!(again.body, resumed.body);

    // Sessions of earlier revisions have no priming events: the result comes
    // at once.
    let older = reference_session(&mut server, "2025-06-18");
    let reply = server.handle_http(
        t(800),
        &HttpRequest::post(
            http::legacy_headers(Some("2025-06-18"), Some(&older)),
            call.to_string(),
        ),
    );
    assert!(!reply.rules.contains(&"H-SSE-POLL"));
    assert!(!http::is_event_stream(&reply.response));
    let result: Value = serde_json::from_str(&reply.response.body).expect("JSON");
    assert_eq!(result["id"], 1);
}
