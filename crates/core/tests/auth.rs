//! Authorization over HTTP (issue 28): the simulated authorization
//! server, the MCP server's protected-resource checks and the client's
//! flow between three actors, one test per A- rule.

use mcp_lanes_core::auth::resource::ProtectedResource;
use mcp_lanes_core::auth::server::AuthorizationServer;
use mcp_lanes_core::auth::token::{Claims, Signer};
use mcp_lanes_core::auth::{pkce, Break, Registration, ISSUER, OTHER_RESOURCE, RESOURCE};
use mcp_lanes_core::sim::auth_flow::{run, FlowSetup};
use mcp_lanes_core::sim::{Actor, EventKind, MessageEvent, Timeline};
use mcp_lanes_core::transport::TransportKind;

const KEY: &[u8] = b"test key";

fn flow(registration: Registration, broken: Option<Break>, step_up: Option<&str>) -> Timeline {
    let mut setup = FlowSetup::new("auth", registration);
    setup.broken = broken;
    setup.step_up = step_up.map(str::to_string);
    run(&setup)
}

fn labels(t: &Timeline) -> Vec<String> {
    t.messages().map(|(_, m)| m.label.clone()).collect()
}

fn header<'a>(m: &'a MessageEvent, name: &str) -> Option<&'a str> {
    m.http
        .as_ref()?
        .headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn token(aud: &str, scope: &[&str], exp_ms: u64) -> String {
    Signer::new(KEY).seal(&Claims {
        iss: ISSUER.into(),
        aud: aud.into(),
        sub: "alice".into(),
        scope: scope.iter().map(|s| s.to_string()).collect(),
        exp_ms,
        kind: "access".into(),
    })
}

fn bearer(t: &str) -> Vec<(String, String)> {
    vec![("authorization".into(), format!("Bearer {t}"))]
}

#[test]
fn a_http_only_the_flow_is_an_http_run_and_no_stdio_run_sees_a_401() {
    let t = flow(Registration::MetadataDocument, None, None);
    assert_eq!(t.transport, TransportKind::Http);
    for id in ["discover", "slow-tool"] {
        for setup in mcp_lanes_core::scenarios::setups(id).unwrap_or_default() {
            let t = mcp_lanes_core::sim::run(&setup);
            if t.transport == TransportKind::Stdio {
                assert!(t.messages().all(|(_, m)| m.http.is_none()));
            }
        }
    }
}

#[test]
fn a_challenge_no_token_gets_401_naming_the_resource_metadata() {
    let mut server = ProtectedResource::new(KEY, &["files:read"]);
    let c = server.check(&[], &["files:read"], 0).unwrap_err();
    assert_eq!(c.status, 401);
    assert!(c.www_authenticate.starts_with("Bearer "));
    assert!(c.www_authenticate.contains(
        "resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\""
    ));
    assert!(c.www_authenticate.contains("scope=\"files:read\""));
    server.omit_metadata = true;
    let c = server.check(&[], &["files:read"], 0).unwrap_err();
    assert!(!c.www_authenticate.contains("resource_metadata"));
    // The client falls back to the well-known URI and still gets through.
    let t = flow(
        Registration::MetadataDocument,
        Some(Break::NoResourceMetadata),
        None,
    );
    assert!(t.events.iter().any(|e| e
        .note_msg
        .as_ref()
        .is_some_and(|m| m.to_string().contains("auth.fallback_well_known"))));
    assert_eq!(labels(&t).last().map(String::as_str), Some("200 result"));
}

#[test]
fn a_prm_names_the_resource_and_its_authorization_server() {
    let m = ProtectedResource::new(KEY, &["files:read"]).metadata();
    assert_eq!(m["resource"], RESOURCE);
    assert_eq!(m["authorization_servers"][0], ISSUER);
    let t = flow(Registration::MetadataDocument, None, None);
    let (_, prm) = t
        .messages()
        .find(|(_, m)| m.label == "200 resource metadata")
        .unwrap();
    assert_eq!(prm.ends(), (Actor::Server, Actor::Client));
}

#[test]
fn a_as_metadata_says_its_issuer_and_s256() {
    let m = AuthorizationServer::new(KEY).metadata();
    assert_eq!(m["issuer"], ISSUER);
    assert_eq!(m["code_challenge_methods_supported"][0], "S256");
    assert_eq!(m["authorization_response_iss_parameter_supported"], true);
    let t = flow(Registration::MetadataDocument, None, None);
    let (_, get) = t
        .messages()
        .find(|(_, m)| m.label == "GET AS metadata")
        .unwrap();
    assert_eq!(get.ends(), (Actor::Client, Actor::AuthServer));
}

#[test]
fn a_register_by_metadata_document_dynamic_or_beforehand() {
    let cimd = labels(&flow(Registration::MetadataDocument, None, None));
    assert!(
        cimd.contains(&"GET client metadata".to_string()),
        "{cimd:?}"
    );
    assert!(!cimd.contains(&"POST /register".to_string()));
    let t = flow(Registration::MetadataDocument, None, None);
    let (_, fetch) = t
        .messages()
        .find(|(_, m)| m.label == "GET client metadata")
        .unwrap();
    assert_eq!(fetch.ends(), (Actor::AuthServer, Actor::Client));
    let dcr = labels(&flow(Registration::Dynamic, None, None));
    assert!(dcr.contains(&"POST /register".to_string()), "{dcr:?}");
    assert!(!dcr.contains(&"GET client metadata".to_string()));
    let pre = labels(&flow(Registration::PreRegistered, None, None));
    assert!(
        !pre.contains(&"POST /register".to_string())
            && !pre.contains(&"GET client metadata".to_string())
    );
    assert_eq!(pre.last().map(String::as_str), Some("200 result"));
}

#[test]
fn a_pkce_s256_is_checked_and_required() {
    let v = pkce::verifier("seed");
    assert_eq!(v.len(), 43);
    assert!(pkce::verify(&v, &pkce::s256(&v), "S256"));
    assert!(!pkce::verify(&v, &pkce::s256(&v), "plain"));
    assert!(!pkce::verify("other", &pkce::s256(&v), "S256"));
    // Computed apart (Python hashlib and base64).
    assert_eq!(
        pkce::s256("dBjftJeZ4CVP-mJ92K1OS5H2kYdGXgZk"),
        "OENbsZIEQ9lamTen9ZSXdVQxmzl8SFLkTRFSrHo32-o"
    );
    let t = flow(Registration::MetadataDocument, None, None);
    let (_, authz) = t
        .messages()
        .find(|(_, m)| m.label == "GET /authorize")
        .unwrap();
    let path = header(authz, ":path").unwrap();
    assert!(path.contains("code_challenge_method=S256"), "{path}");
    let broken = flow(Registration::MetadataDocument, Some(Break::NoPkce), None);
    let l = labels(&broken);
    assert_eq!(
        l.last().map(String::as_str),
        Some("400 invalid_grant"),
        "{l:?}"
    );
    assert!(!l.contains(&"200 result".to_string()));
}

#[test]
fn a_resource_names_the_server_in_both_requests_and_binds_the_token() {
    let t = flow(Registration::MetadataDocument, None, None);
    let (_, authz) = t
        .messages()
        .find(|(_, m)| m.label == "GET /authorize")
        .unwrap();
    assert!(header(authz, ":path")
        .unwrap()
        .contains("resource=https%3A%2F%2Fmcp.example.com%2Fmcp"));
    let (_, tok) = t
        .messages()
        .find(|(_, m)| m.label == "POST /token")
        .unwrap();
    assert!(tok
        .wire
        .contains("resource=https%3A%2F%2Fmcp.example.com%2Fmcp"));
    // Asking for another resource gets a token the server refuses.
    let wrong = flow(
        Registration::MetadataDocument,
        Some(Break::WrongResource),
        None,
    );
    let l = labels(&wrong);
    assert_eq!(
        l.last().map(String::as_str),
        Some("401 invalid_token"),
        "{l:?}"
    );
}

#[test]
fn a_consent_is_a_step_of_the_authorization_server_before_the_code() {
    let t = flow(Registration::MetadataDocument, None, None);
    let consent = t
        .events
        .iter()
        .position(|e| {
            e.rules.contains(&"A-CONSENT") && matches!(e.kind, EventKind::Decision { .. })
        })
        .unwrap();
    assert_eq!(t.events[consent].actor, Some(Actor::AuthServer));
    let code = t
        .events
        .iter()
        .position(|e| e.message().is_some_and(|m| m.label == "302 code + iss"))
        .unwrap();
    assert!(consent < code);
}

#[test]
fn a_iss_mismatch_stops_before_the_token_endpoint() {
    let t = flow(
        Registration::MetadataDocument,
        Some(Break::WrongIssuer),
        None,
    );
    let l = labels(&t);
    assert!(!l.contains(&"POST /token".to_string()), "{l:?}");
    assert!(t.summary.outcome.contains("`iss`"));
    let ok = flow(Registration::MetadataDocument, None, None);
    let (_, code) = ok
        .messages()
        .find(|(_, m)| m.label == "302 code + iss")
        .unwrap();
    assert!(header(code, "location")
        .unwrap()
        .contains("iss=https%3A%2F%2Fauth.example.com"));
}

#[test]
fn a_bearer_token_in_the_header_never_the_query() {
    let t = flow(Registration::MetadataDocument, None, None);
    let calls: Vec<&MessageEvent> = t
        .messages()
        .map(|(_, m)| m)
        .filter(|m| m.label == "tools/call")
        .collect();
    assert_eq!(calls.len(), 2);
    assert!(header(calls[0], "authorization").is_none());
    assert!(header(calls[1], "authorization")
        .unwrap()
        .starts_with("Bearer "));
    assert!(!header(calls[1], ":path").unwrap().contains('?'));
}

#[test]
fn a_audience_other_resource_forged_or_expired_tokens_get_401() {
    let server = ProtectedResource::new(KEY, &["files:read"]);
    let ok = token(RESOURCE, &["files:read"], 1_000);
    assert!(server.check(&bearer(&ok), &["files:read"], 10).is_ok());
    let other = token(OTHER_RESOURCE, &["files:read"], 1_000);
    assert_eq!(
        server
            .check(&bearer(&other), &["files:read"], 10)
            .unwrap_err()
            .status,
        401
    );
    assert_eq!(
        server
            .check(&bearer(&ok), &["files:read"], 1_000)
            .unwrap_err()
            .status,
        401
    );
    let forged = Signer::new(b"another key").seal(&Claims {
        iss: ISSUER.into(),
        aud: RESOURCE.into(),
        sub: "mallory".into(),
        scope: vec!["files:read".into()],
        exp_ms: 1_000,
        kind: "access".into(),
    });
    let c = server
        .check(&bearer(&forged), &["files:read"], 10)
        .unwrap_err();
    assert_eq!(c.status, 401);
    assert!(c.www_authenticate.contains("invalid_token"));
}

#[test]
fn a_scope_step_up_403_then_the_union_of_scopes() {
    let server = ProtectedResource::new(KEY, &["files:read"]);
    let read = token(RESOURCE, &["files:read"], 1_000);
    let c = server
        .check(&bearer(&read), &["files:read", "files:write"], 10)
        .unwrap_err();
    assert_eq!(c.status, 403);
    assert!(c.www_authenticate.contains("error=\"insufficient_scope\""));
    assert!(c
        .www_authenticate
        .contains("scope=\"files:read files:write\""));
    let t = flow(Registration::MetadataDocument, None, Some("files:write"));
    let l = labels(&t);
    assert!(l.contains(&"403 insufficient_scope".to_string()), "{l:?}");
    assert_eq!(l.iter().filter(|x| *x == "GET /authorize").count(), 2);
    let (_, second) = t
        .messages()
        .filter(|(_, m)| m.label == "GET /authorize")
        .nth(1)
        .unwrap();
    assert!(header(second, ":path")
        .unwrap()
        .contains("scope=files%3Aread%20files%3Awrite"));
    assert_eq!(l.last().map(String::as_str), Some("200 result"));
}

#[test]
fn a_refresh_an_expired_token_without_asking_the_user_again() {
    let t = flow(
        Registration::MetadataDocument,
        Some(Break::ExpiredToken),
        None,
    );
    let l = labels(&t);
    assert!(l.contains(&"401 invalid_token".to_string()), "{l:?}");
    assert!(l.contains(&"POST /token (refresh)".to_string()), "{l:?}");
    assert_eq!(l.iter().filter(|x| *x == "GET /authorize").count(), 1);
    assert_eq!(l.last().map(String::as_str), Some("200 result"));
}

#[test]
fn the_flow_is_deterministic_and_reads_back() {
    let a = flow(Registration::Dynamic, None, Some("files:write"));
    assert_eq!(a, flow(Registration::Dynamic, None, Some("files:write")));
    let text = serde_json::to_string(&[&a]).unwrap();
    assert_eq!(Timeline::from_json(&text).unwrap()[0], a);
}

/// The happy path with a metadata document, as the page draws it
/// (`tests/fixtures/actors/auth-flow.json`, opened by the browser test
/// `tests/e2e/actors.test.mjs`); `UPDATE_GOLDEN=1` rewrites it.
#[test]
fn the_happy_path_is_the_recorded_fixture() {
    let t = flow(Registration::MetadataDocument, None, None);
    let text = serde_json::to_string_pretty(&[&t]).unwrap() + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/actors/auth-flow.json");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == text,
        "{} differs: UPDATE_GOLDEN=1 rewrites it",
        path.display()
    );
}
