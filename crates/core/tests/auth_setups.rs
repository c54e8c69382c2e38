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
    // Every step names its rules: requests, replies and decisions.
    for e in &t.events {
        assert!(!e.rules.is_empty(), "event {} has no rule", e.index);
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

/// A protected server with a policy, its script's two calls, each with a `say`.
fn policy_file() -> Value {
    json!({
        "format": file::FORMAT,
        "id": "t",
        "servers": [{"id": "files", "name": "files-server", "version": "1.0.0",
            "tools": [{"name": "search_files", "result": "3 files."}, {"name": "write_file", "result": "Wrote."}],
            "policy": {"tools": [{"tool": "write_file", "scopes": ["files:write"]}]}}],
        "clients": [{"id": "c", "name": "web-host", "version": "1.0.0"}],
        "setups": [{"client": "c", "server": "files", "transport": "http", "auth": {},
            "steps": [
                {"do": "call", "tool": "search_files", "say": "First, a search."},
                {"do": "call", "tool": "write_file", "say": "Then a write."}
            ]}]
    })
}

#[test]
fn a_scope_step_up_a_policy_behind_the_flow_takes_the_flows_token() {
    // Found by lesson 38: the server's policy read the caller from the
    // identities' pre-issued tokens only, and refused the flow's with 401.
    let loaded = file::load_value(&policy_file()).expect("loads");
    let t = scenarios::run_setups(&loaded.setups).remove(0);
    let statuses: Vec<u16> = t
        .messages()
        .filter(|(_, m)| m.from == mcp_lanes_core::sim::Side::Server)
        .filter_map(|(_, m)| m.http.as_ref().and_then(|h| h.status))
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 401).count(),
        1,
        "{statuses:?}"
    );
    let results: Vec<String> = t
        .messages()
        .filter_map(|(_, m)| {
            m.json
                .as_ref()?
                .pointer("/result/content/0/text")?
                .as_str()
                .map(str::to_string)
        })
        .collect();
    assert!(
        results.iter().any(|r| r == "3 files."),
        "the search passes: {results:?}"
    );
    assert_eq!(
        statuses.last(),
        Some(&403),
        "the write lacks files:write: {statuses:?}"
    );
    let refused = t.events.iter().rev().find(|e| {
        e.message()
            .is_some_and(|m| m.http.as_ref().and_then(|h| h.status) == Some(403))
    });
    assert!(refused.is_some_and(|e| e.rules.contains(&rules::A_SCOPE_STEP_UP)));
}

#[test]
fn a_challenge_a_protected_run_keeps_its_files_names_and_says_the_first_step_with_the_first_request(
) {
    let loaded = file::load_value(&policy_file()).expect("loads");
    let t = scenarios::run_setups(&loaded.setups).remove(0);
    assert!(
        t.client_label.starts_with("web-host 1.0.0"),
        "{}",
        t.client_label
    );
    assert!(
        t.server_label.starts_with("files-server 1.0.0"),
        "{}",
        t.server_label
    );
    let said: Vec<(usize, &str)> = t
        .events
        .iter()
        .filter_map(|e| Some((e.index, e.narration.as_deref()?)))
        .collect();
    assert_eq!(
        said.iter().map(|(_, s)| *s).collect::<Vec<_>>(),
        ["First, a search.", "Then a write."]
    );
    let first = t
        .events
        .iter()
        .position(|e| e.message().is_some())
        .expect("a message");
    assert_eq!(
        said[0].0, first,
        "the first say comes with the request that meets the 401"
    );
    // A flow that stops early keeps the names too.
    let mut broken = policy_file();
    broken["setups"][0]["auth"] = json!({"break": "wrong-issuer"});
    let t = scenarios::run_setups(&file::load_value(&broken).expect("loads").setups).remove(0);
    assert!(
        t.client_label.starts_with("web-host 1.0.0"),
        "{}",
        t.client_label
    );
    assert_eq!(
        t.events
            .iter()
            .filter_map(|e| e.narration.as_deref())
            .collect::<Vec<_>>(),
        ["First, a search."]
    );
}

#[test]
fn a_scope_select_each_setting_that_breaks_the_authorization_request_draws_it_as_a_violation() {
    let authorize = |t: &Timeline| -> Vec<(Option<String>, Vec<&'static str>)> {
        t.events
            .iter()
            .filter_map(|e| {
                let m = e.message()?;
                (m.label == "GET /authorize").then(|| (m.violation.clone(), e.rules.clone()))
            })
            .collect()
    };
    for (broken, rule, words) in [
        (Break::NoPkce, rules::A_PKCE, "no PKCE"),
        (Break::WrongResource, rules::A_RESOURCE, "resource"),
        (
            Break::MissingScope,
            rules::A_SCOPE_SELECT,
            "the 401 challenge named",
        ),
    ] {
        let t = sim::run(&protected(
            TransportKind::Http,
            Protection {
                broken: Some(broken),
                ..Protection::default()
            },
        ));
        let asked = authorize(&t);
        let (violation, rules) = &asked[0];
        let violation = violation
            .as_deref()
            .unwrap_or_else(|| panic!("{broken:?}: not marked"));
        assert!(violation.contains(words), "{broken:?}: {violation}");
        assert!(rules.contains(&rule), "{broken:?}: {rules:?}");
        // Asking again after a step-up, for what the 403 named, is right.
        assert!(asked[1..].iter().all(|(v, _)| v.is_none()), "{broken:?}");
    }
    let t = sim::run(&protected(TransportKind::Http, Protection::default()));
    assert!(
        authorize(&t).iter().all(|(v, _)| v.is_none()),
        "the happy path is right"
    );
}

#[test]
fn a_consent_the_user_who_consents_is_the_clients_principal_and_the_policy_reads_it() {
    // A client acting for bob: bob signs in, the token names bob, and a
    // tool only alice may call is refused to him (M-TOOL-POLICY-CALL).
    let mut file = policy_file();
    file["clients"][0]["principal"] = json!("bob");
    file["servers"][0]["policy"] =
        json!({"tools": [{"tool": "search_files", "callableBy": ["alice"]}]});
    file["setups"][0]["steps"] = json!([{"do": "call", "tool": "search_files"}]);
    let t = scenarios::run_setups(&file::load_value(&file).expect("loads").setups).remove(0);
    let refusal = t
        .messages()
        .filter_map(|(e, m)| Some((e, m.json.as_ref()?)))
        .find(|(_, m)| m.pointer("/result/isError") == Some(&json!(true)))
        .map(|(e, _)| e)
        .expect("a tool error");
    assert!(
        refusal.rules.contains(&rules::M_TOOL_POLICY_CALL),
        "{:?}",
        refusal.rules
    );
    assert!(refusal.note.contains("bob"), "{}", refusal.note);
}
