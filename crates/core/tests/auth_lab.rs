//! `serve --auth`'s lab (`auth::lab`): the core's protected resource and
//! authorization server answering real HTTP requests on one origin, the
//! whole flow a real client makes, and the refusals on its way.

use mcp_lanes_core::auth::lab::{Lab, LabReply, LabRequest, SCOPE};
use mcp_lanes_core::auth::pkce;
use serde_json::Value;

const ORIGIN: &str = "http://127.0.0.1:4100";
const CALLBACK: &str = "http://127.0.0.1:5000/callback";

fn lab() -> Lab {
    Lab::new(ORIGIN, b"lab key")
}

fn ask(lab: &mut Lab, method: &str, target: &str, body: &str) -> LabReply {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    lab.handle(
        &LabRequest {
            method,
            path,
            query,
            body,
        },
        1_000,
    )
}

fn json(reply: &LabReply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or(Value::Null)
}

fn header<'a>(reply: &'a LabReply, name: &str) -> &'a str {
    reply
        .headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map_or("", |(_, v)| v.as_str())
}

fn register(lab: &mut Lab) -> String {
    let reply = ask(
        lab,
        "POST",
        "/register",
        &format!(r#"{{"client_name":"t","redirect_uris":["{CALLBACK}"]}}"#),
    );
    assert_eq!(reply.status, 201, "{}", reply.body);
    assert_eq!(reply.rules, vec!["A-REGISTER"]);
    json(&reply)["client_id"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn enc(s: &str) -> String {
    mcp_lanes_core::auth::form::encode(s)
}

fn authorize(lab: &mut Lab, client: &str, redirect: &str, scope: &str) -> LabReply {
    let challenge = pkce::s256(&pkce::verifier("t"));
    let target = format!(
        "/authorize?response_type=code&client_id={client}&redirect_uri={}&state=st&code_challenge={challenge}&code_challenge_method=S256&scope={scope}&resource={}",
        enc(redirect),
        enc(&format!("{ORIGIN}/mcp"))
    );
    ask(lab, "GET", &target, "")
}

fn code_of(reply: &LabReply) -> String {
    let location = header(reply, "location");
    let query = location.split_once('?').map_or("", |(_, q)| q);
    let pairs = mcp_lanes_core::auth::form::parse(query);
    assert_eq!(
        mcp_lanes_core::auth::form::single(&pairs, "iss"),
        Some(ORIGIN)
    );
    assert_eq!(
        mcp_lanes_core::auth::form::single(&pairs, "state"),
        Some("st")
    );
    mcp_lanes_core::auth::form::single(&pairs, "code")
        .unwrap_or_default()
        .to_string()
}

fn exchange(lab: &mut Lab, client: &str, code: &str, verifier: &str) -> LabReply {
    let body = format!(
        "grant_type=authorization_code&client_id={client}&code={code}&code_verifier={verifier}&redirect_uri={}&resource={}",
        enc(CALLBACK),
        enc(&format!("{ORIGIN}/mcp"))
    );
    ask(lab, "POST", "/token", &body)
}

fn bearer(token: &str) -> Vec<(String, String)> {
    vec![("Authorization".into(), format!("Bearer {token}"))]
}

#[test]
fn a_challenge_lab_names_its_metadata_on_its_own_origin() {
    let mut lab = lab();
    let Err(reply) = lab.guard(&[], 0) else {
        panic!("no token passed")
    };
    assert_eq!(reply.status, 401);
    assert_eq!(
        header(&reply, "www-authenticate"),
        format!("Bearer scope=\"{SCOPE}\", resource_metadata=\"{ORIGIN}/.well-known/oauth-protected-resource/mcp\"")
    );
    let prm = ask(
        &mut lab,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        "",
    );
    assert_eq!(prm.rules, vec!["A-PRM"]);
    assert_eq!(json(&prm)["resource"], format!("{ORIGIN}/mcp"));
    assert_eq!(json(&prm)["authorization_servers"][0], ORIGIN);
    let meta = ask(
        &mut lab,
        "GET",
        "/.well-known/oauth-authorization-server",
        "",
    );
    let meta = json(&meta);
    assert_eq!(meta["issuer"], ORIGIN);
    assert_eq!(meta["token_endpoint"], format!("{ORIGIN}/token"));
    assert_eq!(meta["code_challenge_methods_supported"][0], "S256");
    assert_eq!(meta["client_id_metadata_document_supported"], false);
    let wrong = ask(
        &mut lab,
        "POST",
        "/.well-known/oauth-authorization-server",
        "",
    );
    assert_eq!((wrong.status, header(&wrong, "allow")), (405, "GET"));
}

#[test]
fn a_consent_lab_flow_from_registration_to_refresh() {
    let mut lab = lab();
    let client = register(&mut lab);
    // A loopback redirect URI may change its port (OAuth 2.1 8.4.2).
    let reply = authorize(&mut lab, &client, "http://127.0.0.1:6001/callback", SCOPE);
    assert_eq!(reply.status, 302);
    assert_eq!(
        reply.rules,
        vec!["A-CONSENT", "A-PKCE", "A-RESOURCE", "A-ISS"]
    );
    assert!(header(&reply, "location").starts_with("http://127.0.0.1:6001/callback?code="));
    let code = code_of(&reply);
    let tokens = exchange(&mut lab, &client, &code, &pkce::verifier("t"));
    assert_eq!(tokens.status, 200, "{}", tokens.body);
    assert_eq!(header(&tokens, "cache-control"), "no-store");
    let tokens = json(&tokens);
    let access = tokens["access_token"].as_str().unwrap_or_default();
    let claims = lab.guard(&bearer(access), 2_000);
    assert!(claims.is_ok_and(|c| c.aud == format!("{ORIGIN}/mcp")));
    // The code is spent.
    let again = exchange(&mut lab, &client, &code, &pkce::verifier("t"));
    assert_eq!(json(&again)["error"], "invalid_grant");
    // Expired, then refreshed (A-REFRESH).
    let Err(expired) = lab.guard(&bearer(access), 10_000_000) else {
        panic!("an expired token passed")
    };
    assert_eq!(expired.status, 401);
    let refresh = tokens["refresh_token"].as_str().unwrap_or_default();
    let renewed = ask(
        &mut lab,
        "POST",
        "/token",
        &format!("grant_type=refresh_token&refresh_token={refresh}"),
    );
    assert_eq!(renewed.rules, vec!["A-REFRESH"]);
    assert_eq!(renewed.status, 200);
}

#[test]
fn a_pkce_lab_refuses_a_wrong_verifier() {
    let mut lab = lab();
    let client = register(&mut lab);
    let code = code_of(&authorize(&mut lab, &client, CALLBACK, SCOPE));
    let reply = exchange(&mut lab, &client, &code, &pkce::verifier("other"));
    assert_eq!(
        (reply.status, json(&reply)["error"].clone()),
        (400, "invalid_grant".into())
    );
}

#[test]
fn a_register_lab_knows_only_its_clients_and_their_redirects() {
    let mut lab = lab();
    let unknown = authorize(&mut lab, "client-9", CALLBACK, SCOPE);
    assert_eq!(
        (unknown.status, json(&unknown)["error"].clone()),
        (400, "invalid_client".into())
    );
    let client = register(&mut lab);
    let elsewhere = authorize(&mut lab, &client, "https://evil.example/callback", SCOPE);
    assert_eq!(elsewhere.status, 400, "no redirect to an unregistered URI");
    let bad = ask(
        &mut lab,
        "POST",
        "/register",
        r#"{"redirect_uris":["ftp://x"]}"#,
    );
    assert_eq!(json(&bad)["error"], "invalid_redirect_uri");
    let not_json = ask(&mut lab, "POST", "/register", "x");
    assert_eq!(json(&not_json)["error"], "invalid_client_metadata");
}

#[test]
fn a_scope_step_up_lab_answers_403_to_a_token_without_its_scope() {
    let mut lab = lab();
    let client = register(&mut lab);
    let code = code_of(&authorize(&mut lab, &client, CALLBACK, ""));
    let tokens = json(&exchange(&mut lab, &client, &code, &pkce::verifier("t")));
    let access = tokens["access_token"].as_str().unwrap_or_default();
    let Err(reply) = lab.guard(&bearer(access), 2_000) else {
        panic!("a token without the scope passed")
    };
    assert_eq!(reply.status, 403);
    assert!(header(&reply, "www-authenticate").contains("error=\"insufficient_scope\""));
    assert_eq!(reply.rules, vec!["A-SCOPE-STEP-UP"]);
}

#[test]
fn a_audience_lab_refuses_a_token_of_another_lab() {
    let mut other = Lab::new("http://127.0.0.1:4200", b"other key");
    let client = register(&mut other);
    let code = code_of_other(&authorize(&mut other, &client, CALLBACK, SCOPE));
    let tokens = json(&exchange(&mut other, &client, &code, &pkce::verifier("t")));
    let access = tokens["access_token"].as_str().unwrap_or_default();
    let Err(reply) = lab().guard(&bearer(access), 2_000) else {
        panic!("another server's token passed")
    };
    assert_eq!(reply.status, 401);
    assert!(header(&reply, "www-authenticate").contains("invalid_token"));
}

fn code_of_other(reply: &LabReply) -> String {
    let location = header(reply, "location");
    let pairs = mcp_lanes_core::auth::form::parse(location.split_once('?').map_or("", |(_, q)| q));
    mcp_lanes_core::auth::form::single(&pairs, "code")
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_consent_lab_codes_are_unique_unguessable_and_bounded() {
    let mut lab = lab();
    let client = register(&mut lab);
    let first = code_of(&authorize(&mut lab, &client, CALLBACK, SCOPE));
    let second = code_of(&authorize(&mut lab, &client, CALLBACK, SCOPE));
    assert!(first.starts_with("code-1.") && first.len() > 20, "{first}");
    // Spending the first, the next code is not the second one again.
    let spent = exchange(&mut lab, &client, &first, &pkce::verifier("t"));
    assert_eq!(spent.status, 200);
    let third = code_of(&authorize(&mut lab, &client, CALLBACK, SCOPE));
    assert_ne!(third.split('.').next(), second.split('.').next());
    let tokens = exchange(&mut lab, &client, &second, &pkce::verifier("t"));
    assert_eq!(tokens.status, 200, "{}", tokens.body);
    // A guessed code without its tag is nobody's.
    let guessed = exchange(&mut lab, &client, "code-3", &pkce::verifier("t"));
    assert_eq!(json(&guessed)["error"], "invalid_grant");
    // Clients that register without end do not grow the lab without end.
    for _ in 0..mcp_lanes_core::auth::lab::MAX_CLIENTS {
        register(&mut lab);
    }
    let forgotten = authorize(&mut lab, &client, CALLBACK, SCOPE);
    assert_eq!(json(&forgotten)["error"], "invalid_client");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    /// Whatever a client sends to the lab's paths, or as its bearer token,
    /// the lab answers (a status, never a panic).
    #[test]
    fn rpc_lab_arbitrary_requests_never_panic(
        query in "[a-z_=&%+.:/0-9A-F\u{e9}-]{0,120}",
        body in proptest::prelude::any::<String>(),
        token in proptest::prelude::any::<String>(),
        method in proptest::sample::select(vec!["GET", "POST", "HEAD", "PUT"]),
    ) {
        let mut lab = lab();
        register(&mut lab);
        for path in ["/register", "/authorize", "/token", "/.well-known/oauth-authorization-server"] {
            let reply = lab.handle(&LabRequest { method, path, query: &query, body: &body }, 5);
            proptest::prop_assert!((200..600).contains(&reply.status));
        }
        let form_body = format!("grant_type=authorization_code&client_id=client-1&{query}");
        let reply = ask(&mut lab, "POST", "/token", &form_body);
        proptest::prop_assert!(reply.status == 400 || reply.status == 200);
        let refused = lab.guard(&bearer(&token), 5);
        proptest::prop_assert!(refused.is_err());
    }
}
