//! Authorization wired into set-ups (issue 28): a set-up whose server is
//! protected (`Setup::auth`, a scenario file's `"auth"`) runs, over HTTP,
//! the whole flow in three lanes; over stdio authorization does not apply
//! (A-HTTP-ONLY). The built-in authorization scenarios draw what they say.

use mcp_lanes_core::auth::{Break, Protection, Registration};
use mcp_lanes_core::rules;
use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{self, Actor, EventKind, Setup, Timeline};
use mcp_lanes_core::transport::TransportKind;
use serde_json::{json, Value};

fn protected(kind: TransportKind, protection: Protection) -> Setup {
    let mut s = scenarios::setups("auth-happy-path").expect("the scenario")[0].clone();
    s.channel.kind = kind;
    s.auth = Some(protection);
    s
}

fn labels(t: &Timeline) -> Vec<String> {
    t.messages().map(|(_, m)| m.label.clone()).collect()
}

fn file_with(auth: Value, transport: &str) -> Value {
    json!({
        "format": file::FORMAT,
        "id": "t",
        "setups": [{"client": "plain", "server": "deploy-console", "transport": transport,
            "auth": auth, "steps": [{"do": "call", "tool": "search_files"}]}]
    })
}

#[test]
fn a_http_only_a_protected_setup_over_stdio_runs_plainly_and_says_why() {
    let t = sim::run(&protected(TransportKind::Stdio, Protection::default()));
    assert!(t.actors.is_empty(), "two lanes only");
    assert!(t.messages().all(|(_, m)| m.http.is_none()));
    let last = t.events.last().expect("events");
    assert!(matches!(last.kind, EventKind::Decision { .. }));
    assert_eq!(last.rules, vec![rules::A_HTTP_ONLY]);
    // A file says so before anything runs.
    let errors = file::load_value(&file_with(json!({}), "stdio")).expect_err("refused");
    assert!(errors[0].to_string().contains("A-HTTP-ONLY"), "{errors:?}");
}

#[test]
fn a_challenge_a_protected_setup_over_http_draws_the_whole_flow_in_three_lanes() {
    let t = sim::run(&protected(TransportKind::Http, Protection::default()));
    assert_eq!(
        t.actors,
        vec![Actor::Client, Actor::Server, Actor::AuthServer]
    );
    let l = labels(&t);
    for want in [
        "tools/call",
        "401 Unauthorized",
        "GET resource metadata",
        "200 resource metadata",
        "GET AS metadata",
        "200 AS metadata",
        "GET client metadata",
        "GET /authorize",
        "302 code + iss",
        "POST /token",
        "200 tokens",
        "200 result",
    ] {
        assert!(l.iter().any(|x| x == want), "{want} missing from {l:?}");
    }
    // The user's consent is its own step, on the authorization server.
    assert!(t.events.iter().any(|e| e.rules.contains(&rules::A_CONSENT)
        && matches!(e.kind, EventKind::Decision { .. })
        && e.actor == Some(Actor::AuthServer)));
    // Every reply and every decision names its rules.
    for e in &t.events {
        let reply = matches!(&e.kind, EventKind::Message(m) if m.http.as_ref().is_some_and(|h| h.status.is_some()));
        if reply || matches!(e.kind, EventKind::Decision { .. }) {
            assert!(!e.rules.is_empty(), "event {} has no rule", e.index);
        }
    }
}

#[test]
fn a_register_a_files_auth_picks_the_registration_and_loads_back() {
    let f = file::load_value(&file_with(json!({"registration": "dynamic"}), "http"))
        .expect("a valid file");
    assert_eq!(
        f.setups[0].auth,
        Some(Protection {
            registration: Registration::Dynamic,
            ..Protection::default()
        })
    );
    let t = sim::run(&f.setups[0]);
    assert!(labels(&t).iter().any(|l| l == "POST /register"));
    // A break and a step-up by name; unknown names and keys are refused.
    let f = file::load_value(&file_with(
        json!({"break": "expired-token", "stepUp": "files:write"}),
        "http",
    ))
    .expect("a valid file");
    let auth = f.setups[0].auth.clone().expect("auth");
    assert_eq!(auth.broken, Some(Break::ExpiredToken));
    assert_eq!(auth.step_up.as_deref(), Some("files:write"));
    for bad in [
        json!({"break": "no-such-thing"}),
        json!({"registration": 3}),
        json!({"stepUp": "two words"}),
        json!({"tokens": true}),
        json!("yes"),
    ] {
        assert!(
            file::load_value(&file_with(bad.clone(), "http")).is_err(),
            "{bad} accepted"
        );
    }
}

#[test]
fn a_scope_step_up_scenario_goes_403_then_succeeds() {
    let t = &scenarios::run("auth-scope-step-up").expect("runs")[0];
    let l = labels(t);
    assert!(l.iter().any(|x| x == "403 insufficient_scope"), "{l:?}");
    assert_eq!(l.last().map(String::as_str), Some("200 result"));
}

#[test]
fn a_audience_scenario_refuses_the_other_resources_token() {
    let t = &scenarios::run("auth-audience").expect("runs")[0];
    let last = t.messages().last().expect("messages").1;
    assert_eq!(last.label, "401 invalid_token");
    assert!(t
        .events
        .iter()
        .any(|e| e.rules.contains(&rules::A_AUDIENCE)));
}

#[test]
fn a_iss_scenario_stops_before_the_token_endpoint() {
    let t = &scenarios::run("auth-wrong-issuer").expect("runs")[0];
    assert!(!labels(t).iter().any(|l| l.starts_with("POST /token")));
    assert!(t
        .events
        .last()
        .is_some_and(|e| e.rules == vec![rules::A_ISS]));
}

#[test]
fn a_prm_without_resource_metadata_the_client_falls_back_and_gets_through() {
    let t = &scenarios::run("auth-no-resource-metadata").expect("runs")[0];
    let first = t.messages().nth(1).expect("the 401").1;
    let www = &first.http.as_ref().expect("http").headers;
    assert!(www.iter().all(|(_, v)| !v.contains("resource_metadata")));
    assert_eq!(labels(t).last().map(String::as_str), Some("200 result"));
}

#[test]
fn the_registration_scenario_shows_both_ways_side_by_side() {
    let runs = scenarios::run("auth-registration").expect("runs");
    assert_eq!(runs.len(), 2);
    assert!(labels(&runs[0]).iter().any(|l| l == "GET client metadata"));
    assert!(labels(&runs[1]).iter().any(|l| l == "POST /register"));
}
