//! A protected server behind a gateway, and a protected lane's own script
//! (issue 28): the gateway is the resource the client sees
//! (G-AUTH-RESOURCE) and never passes the client's token on
//! (G-NO-PASSTHROUGH); after the token, the set-up's script runs in the
//! engine, every request with the token (A-BEARER). Every message of every
//! run validates against its revision's schema.

mod common;

use mcp_lanes_core::auth::{GATEWAY_PRM_URL, GATEWAY_RESOURCE, RESOURCE};
use mcp_lanes_core::rules;
use mcp_lanes_core::scenarios::file;
use mcp_lanes_core::sim::{Actor, MessageEvent, Timeline};
use serde_json::{json, Value};

use Actor::{AuthServer as A, Client as C, Gateway as G, Server as S};

/// A file of one protected set-up over HTTP: a files server, the
/// client's `steps`, `auth`, and `gateway` when not null.
fn scenario(auth: Value, gateway: Value, steps: Value) -> Value {
    let mut setup = json!({"client": "c", "server": "files", "transport": "http",
        "auth": auth, "steps": steps});
    if !gateway.is_null() {
        setup["gateway"] = gateway;
    }
    json!({
        "format": file::FORMAT,
        "id": "t",
        "title": "t",
        "summary": "t",
        "servers": [{"id": "files", "tools": [
            {"name": "search_files", "result": "3 files found."},
            {"name": "delete_file", "result": "Deleted."}
        ]}],
        "clients": [{"id": "c"}],
        "setups": [setup]
    })
}

fn steps() -> Value {
    json!([{"do": "list", "what": "tools"}, {"do": "call", "tool": "search_files"}])
}

fn header<'a>(m: &'a MessageEvent, name: &str) -> Option<&'a str> {
    m.http
        .as_ref()?
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The messages with their ends, in order.
fn hops(t: &Timeline) -> Vec<(Actor, Actor, &MessageEvent)> {
    t.messages()
        .map(|(_, m)| {
            let (from, to) = m.ends();
            (from, to, m)
        })
        .collect()
}

/// The access token in the body of the message labelled `label`.
fn token_in(t: &Timeline, label: &str) -> String {
    let m = t
        .messages()
        .map(|(_, m)| m)
        .find(|m| m.label == label)
        .unwrap_or_else(|| panic!("no {label}"));
    let body: Value = serde_json::from_str(&m.wire).expect("JSON tokens");
    body["access_token"].as_str().expect("a token").to_string()
}

#[test]
fn g_auth_resource_the_gateway_answers_the_401_and_is_the_resource_the_client_sees() {
    let t = common::run_file(&scenario(json!({}), json!({}), steps()));
    assert_eq!(t.actors, vec![C, G, S, A]);
    let h = hops(&t);
    // The request without a token reaches the gateway, which answers it.
    let (from, to, first) = h[0];
    assert_eq!((from, to), (C, G));
    assert!(header(first, "authorization").is_none());
    let (from, to, challenge) = h[1];
    assert_eq!((from, to), (G, C));
    assert_eq!(challenge.label, "401 Unauthorized");
    let www = header(challenge, "www-authenticate").expect("a challenge");
    assert!(www.contains(GATEWAY_PRM_URL), "{www}");
    // Its own metadata, naming its own URI.
    let prm = h
        .iter()
        .find(|(_, _, m)| m.label == "200 resource metadata")
        .expect("the metadata");
    assert_eq!((prm.0, prm.1), (G, C));
    let doc: Value = serde_json::from_str(&prm.2.wire).expect("JSON");
    assert_eq!(doc["resource"], GATEWAY_RESOURCE);
    // The client asks for a token for the gateway, straight at the
    // authorization server: that traffic never passes the gateway.
    let token_request = h
        .iter()
        .find(|(_, _, m)| m.label == "POST /token")
        .expect("the token request");
    assert_eq!((token_request.0, token_request.1), (C, A));
    assert!(token_request
        .2
        .wire
        .contains("resource=https%3A%2F%2Fgateway.example.com%2Fmcp"));
    // Nothing reaches the server before the token.
    let tokens_at = h
        .iter()
        .position(|(_, _, m)| m.label == "200 tokens")
        .expect("tokens");
    assert!(h[..tokens_at].iter().all(|(f, to, _)| *f != S && *to != S));
    assert!(t
        .events
        .iter()
        .any(|e| e.rules.contains(&rules::G_AUTH_RESOURCE)));
}

#[test]
fn g_no_passthrough_the_server_sees_the_gateways_own_token_never_the_clients() {
    let t = common::run_file(&scenario(
        json!({}),
        json!({"hide": ["delete_file"]}),
        steps(),
    ));
    let client_token = token_in(&t, "200 tokens");
    let own = token_in(&t, "200 token (gateway)");
    assert_ne!(client_token, own);
    let h = hops(&t);
    // The gateway gets its own token for the server's URI.
    let ask = h
        .iter()
        .find(|(_, _, m)| m.label == "POST /token (client credentials)")
        .expect("the gateway's token request");
    assert_eq!((ask.0, ask.1), (G, A));
    assert!(ask.2.wire.contains("grant_type=client_credentials"));
    assert!(ask
        .2
        .wire
        .contains("resource=https%3A%2F%2Fmcp.example.com%2Fmcp"));
    let to_server: Vec<_> = h.iter().filter(|(f, to, _)| (*f, *to) == (G, S)).collect();
    assert!(
        to_server.len() >= 2,
        "the script's requests reach the server"
    );
    for (_, _, m) in &to_server {
        let auth = header(m, "authorization").expect("a token");
        assert_eq!(auth, format!("Bearer {own}"));
        assert!(!m.wire.is_empty());
    }
    for (_, _, m) in h
        .iter()
        .filter(|(f, to, m)| (*f, *to) == (C, G) && !m.wire.is_empty())
        .skip(1)
    {
        assert_eq!(
            header(m, "authorization"),
            Some(format!("Bearer {client_token}").as_str())
        );
    }
    assert!(t
        .events
        .iter()
        .any(|e| e.rules == vec![rules::G_NO_PASSTHROUGH] && e.note.contains(RESOURCE)));
    // The server answers, and the gateway still filters what it passes back.
    assert!(h
        .iter()
        .any(|(f, to, m)| (*f, *to) == (S, G) && m.label.contains("result")));
    let last_list = h
        .iter()
        .rfind(|(f, to, m)| (*f, *to) == (G, C) && m.wire.contains("\"tools\""))
        .expect("the list passed back");
    assert!(!last_list.2.wire.contains("delete_file"));
}

#[test]
fn a_bearer_a_protected_lane_runs_its_own_script_with_the_token() {
    let t = common::run_file(&scenario(json!({}), Value::Null, steps()));
    assert_eq!(t.actors, vec![C, S, A]);
    let token = token_in(&t, "200 tokens");
    let h = hops(&t);
    let after = h
        .iter()
        .position(|(_, _, m)| m.label == "200 tokens")
        .expect("tokens");
    let sent: Vec<_> = h[after + 1..]
        .iter()
        .filter(|(f, to, _)| (*f, *to) == (C, S))
        .collect();
    let labels: Vec<&str> = sent.iter().map(|(_, _, m)| m.label.as_str()).collect();
    assert!(
        labels.contains(&"tools/list") && labels.contains(&"tools/call"),
        "{labels:?}"
    );
    for (_, _, m) in &sent {
        assert_eq!(
            header(m, "authorization"),
            Some(format!("Bearer {token}").as_str())
        );
    }
    // The server's own answers, not the flow's fixed one.
    assert!(t.messages().any(|(_, m)| m.wire.contains("3 files found.")));
    assert!(h
        .iter()
        .any(|(f, _, m)| *f == S && m.label.contains("result")));
}

#[test]
fn a_scope_step_up_behind_a_gateway_is_the_gateways_403_then_the_script_runs() {
    let t = common::run_file(&scenario(
        json!({"stepUp": "files:write"}),
        json!({}),
        steps(),
    ));
    let h = hops(&t);
    let refusal = h
        .iter()
        .find(|(_, _, m)| m.label == "403 insufficient_scope")
        .expect("a step-up");
    assert_eq!((refusal.0, refusal.1), (G, C));
    assert!(h
        .iter()
        .any(|(f, to, m)| (*f, *to) == (G, S) && m.label == "tools/call"));
}

/// The first set-up of scenario file `file`, run after the flow with a
/// token that neither the gateway nor the server accepts.
fn with_refused_token(file: Value) -> Timeline {
    use mcp_lanes_core::auth::resource::ProtectedResource;
    use mcp_lanes_core::sim::engine::{run_authorized, Bearer};
    let f = common::load_file(&file);
    let mut gateway = ProtectedResource::new(b"key", &["files:read"]);
    gateway.resource = GATEWAY_RESOURCE.into();
    gateway.metadata_url = GATEWAY_PRM_URL.into();
    run_authorized(
        &f.setups[0],
        Bearer {
            token: "not-a-token".into(),
            first_id: 1,
            server: ProtectedResource::new(b"key", &["files:read"]),
            needed: vec!["files:read".into()],
            offset_ms: 0,
            gateway: Some((gateway, "also-not-a-token".into())),
        },
    )
}

#[test]
fn g_auth_resource_a_token_the_gateway_refuses_never_reaches_the_server() {
    let t = with_refused_token(scenario(json!({}), json!({}), steps()));
    let h = hops(&t);
    assert!(
        h.iter().all(|(f, to, _)| *f != S && *to != S),
        "nothing reaches the server"
    );
    let refusal = h
        .iter()
        .find(|(f, to, _)| (*f, *to) == (G, C))
        .expect("the gateway answers");
    assert_eq!(refusal.2.label, "401 Unauthorized");
    let www = header(refusal.2, "www-authenticate").expect("a challenge");
    assert!(
        www.contains("invalid_token") && www.contains(GATEWAY_PRM_URL),
        "{www}"
    );
    assert!(t.events.iter().any(
        |e| e.message().is_some_and(|m| m.label == "401 Unauthorized")
            && e.rules.contains(&rules::G_AUTH_RESOURCE)
    ));
}

#[test]
fn g_auth_resource_the_token_is_checked_before_a_hidden_tool_is_refused() {
    let t = with_refused_token(scenario(
        json!({}),
        json!({"hide": ["delete_file"]}),
        json!([{"do": "call", "tool": "delete_file"}]),
    ));
    let answers: Vec<&str> = hops(&t)
        .into_iter()
        .filter(|(f, to, _)| (*f, *to) == (G, C))
        .map(|(_, _, m)| m.label.as_str())
        .collect();
    // A resource checks the token before anything else: a request with a
    // token it refuses learns nothing about the tools, hidden or not.
    assert_eq!(answers, ["401 Unauthorized"], "{answers:?}");
    assert!(!t
        .events
        .iter()
        .any(|e| e.message().is_some_and(|m| m.wire.contains("Unknown tool"))));
}
