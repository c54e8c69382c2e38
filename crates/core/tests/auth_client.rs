//! The client's side of the authorization flow against a real server
//! (`auth::client`): each decision, with the answers a server gives.

use mcp_lanes_core::auth::client::{
    auth_method, dpop, query, resource_matches, select_scope, step_up_scope, Authorizer,
    Credentials, Extension, Next, ProofAsked, Setup, ASSERTION_TYPE, JWT_BEARER,
};
use mcp_lanes_core::check::protection::Answer;
use mcp_lanes_core::rules;
use serde_json::json;

fn setup() -> Setup {
    Setup {
        endpoint: "http://mcp.test/mcp".into(),
        redirect_uri: "http://127.0.0.1:1/cb".into(),
        verifier: "v".repeat(43),
        state: "s1".into(),
        metadata_url: "https://client.test/meta.json".into(),
        client_name: "t".into(),
        pre_registered: None,
        granted: Vec::new(),
        extension: None,
        now: 1_700_000_000,
        jti: "j1".into(),
        dpop: false,
    }
}

fn answer(
    status: u16,
    headers: &[(&str, &str)],
    body: serde_json::Value,
) -> Result<Answer, String> {
    Ok(Answer {
        status,
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: if body.is_null() {
            String::new()
        } else {
            body.to_string()
        },
    })
}

fn url(next: &Next) -> String {
    match next {
        Next::Send(call) => call.url.clone(),
        other => panic!("expected a request, got {other:?}"),
    }
}

fn as_meta(extra: serde_json::Value) -> serde_json::Value {
    let mut m = json!({
        "issuer": "http://as.test",
        "authorization_endpoint": "http://as.test/authorize",
        "token_endpoint": "http://as.test/token",
        "registration_endpoint": "http://as.test/register",
        "code_challenge_methods_supported": ["S256"],
        "authorization_response_iss_parameter_supported": true,
        "token_endpoint_auth_methods_supported": ["none"]
    });
    if let (Some(m), Some(e)) = (m.as_object_mut(), extra.as_object()) {
        m.extend(e.clone());
    }
    m
}

/// Runs the flow to the authorization request; returns it.
fn to_authorization(
    challenge: &str,
    prm: serde_json::Value,
    meta: serde_json::Value,
) -> (Authorizer, Next) {
    to_authorization_as(setup(), challenge, prm, meta)
}

/// [`to_authorization`] for the client of `setup`.
fn to_authorization_as(
    setup: Setup,
    challenge: &str,
    prm: serde_json::Value,
    meta: serde_json::Value,
) -> (Authorizer, Next) {
    let unauthorized = answer(401, &[("WWW-Authenticate", challenge)], json!(null)).unwrap();
    let (mut auth, next) = Authorizer::start(setup, &unauthorized);
    assert!(url(&next).contains("oauth-protected-resource"));
    let next = auth.answer(&answer(200, &[], prm));
    assert_eq!(
        url(&next),
        "http://as.test/.well-known/oauth-authorization-server"
    );
    let next = auth.answer(&answer(200, &[], meta));
    let next = if url(&next).ends_with("/register") {
        auth.answer(&answer(201, &[], json!({"client_id": "c1"})))
    } else {
        next
    };
    (auth, next)
}

fn prm() -> serde_json::Value {
    json!({"resource": "http://mcp.test/mcp", "authorization_servers": ["http://as.test"],
        "scopes_supported": ["a", "b"]})
}

#[test]
fn a_prm_the_named_metadata_first_then_the_well_known_uris_path_first() {
    let unauthorized = answer(401, &[("WWW-Authenticate", "Bearer")], json!(null)).unwrap();
    let (mut auth, next) = Authorizer::start(setup(), &unauthorized);
    assert_eq!(
        url(&next),
        "http://mcp.test/.well-known/oauth-protected-resource/mcp"
    );
    let next = auth.answer(&answer(404, &[], json!(null)));
    assert_eq!(
        url(&next),
        "http://mcp.test/.well-known/oauth-protected-resource"
    );
    assert_eq!(auth.answer(&answer(404, &[], json!(null))), Next::Refused);
    let named = r#"Bearer resource_metadata="http://mcp.test/custom.json""#;
    let unauthorized = answer(401, &[("WWW-Authenticate", named)], json!(null)).unwrap();
    let (_, next) = Authorizer::start(setup(), &unauthorized);
    assert_eq!(url(&next), "http://mcp.test/custom.json");
}

#[test]
fn a_prm_metadata_for_another_resource_is_refused() {
    assert!(resource_matches(
        "http://mcp.test/mcp",
        "http://mcp.test/mcp"
    ));
    assert!(resource_matches("http://mcp.test", "http://mcp.test/mcp"));
    assert!(!resource_matches(
        "http://other.test/mcp",
        "http://mcp.test/mcp"
    ));
    assert!(!resource_matches(
        "http://mcp.test/mc",
        "http://mcp.test/mcp"
    ));
    let unauthorized = answer(401, &[("WWW-Authenticate", "Bearer")], json!(null)).unwrap();
    let (mut auth, _) = Authorizer::start(setup(), &unauthorized);
    let other =
        json!({"resource": "http://other.test/mcp", "authorization_servers": ["http://as.test"]});
    assert_eq!(auth.answer(&answer(200, &[], other)), Next::Refused);
}

#[test]
fn a_as_metadata_an_issuer_other_than_the_one_asked_is_not_used() {
    let unauthorized = answer(401, &[("WWW-Authenticate", "Bearer")], json!(null)).unwrap();
    let (mut auth, _) = Authorizer::start(setup(), &unauthorized);
    let _ = auth.answer(&answer(200, &[], prm()));
    let wrong = as_meta(json!({"issuer": "http://evil.test"}));
    assert_eq!(auth.answer(&answer(200, &[], wrong)), Next::Refused);
    let (mut auth, _) = Authorizer::start(setup(), &unauthorized);
    let _ = auth.answer(&answer(200, &[], prm()));
    let next = auth.answer(&answer(404, &[], json!(null)));
    assert_eq!(
        url(&next),
        "http://as.test/.well-known/openid-configuration"
    );
    let no_pkce = as_meta(json!({"code_challenge_methods_supported": ["plain"]}));
    assert_eq!(auth.answer(&answer(200, &[], no_pkce)), Next::Refused);
}

#[test]
fn a_register_pre_registered_then_metadata_document_then_dynamic() {
    let (_, next) = to_authorization("Bearer", prm(), as_meta(json!({})));
    assert!(url(&next).contains("client_id=c1"));
    let cimd = as_meta(json!({"client_id_metadata_document_supported": true}));
    let (_, next) = to_authorization("Bearer", prm(), cimd);
    assert!(url(&next).contains("client_id=https%3A%2F%2Fclient.test%2Fmeta.json"));
    let mut pre = setup();
    pre.pre_registered = Some(Credentials {
        client_id: "pre".into(),
        client_secret: Some("x".into()),
    });
    let unauthorized = answer(401, &[("WWW-Authenticate", "Bearer")], json!(null)).unwrap();
    let (mut auth, _) = Authorizer::start(pre, &unauthorized);
    let _ = auth.answer(&answer(200, &[], prm()));
    let next = auth.answer(&answer(200, &[], as_meta(json!({}))));
    assert!(url(&next).contains("client_id=pre"));
}

#[test]
fn a_scope_select_challenge_then_scopes_supported_then_none() {
    assert_eq!(select_scope(Some("x y"), &["a".into()]), Some("x y".into()));
    assert_eq!(
        select_scope(None, &["a".into(), "b".into()]),
        Some("a b".into())
    );
    assert_eq!(select_scope(Some(" "), &[]), None);
    let (_, next) = to_authorization(r#"Bearer scope="mcp:basic""#, prm(), as_meta(json!({})));
    assert!(url(&next).contains("scope=mcp%3Abasic"));
    let (_, next) = to_authorization("Bearer", prm(), as_meta(json!({})));
    assert!(url(&next).contains("scope=a%20b"));
    let bare =
        json!({"resource": "http://mcp.test/mcp", "authorization_servers": ["http://as.test"]});
    let (_, next) = to_authorization("Bearer", bare, as_meta(json!({})));
    assert!(!url(&next).contains("scope="));
}

#[test]
fn a_pkce_and_a_resource_go_with_the_authorization_and_the_token_request() {
    let (mut auth, next) = to_authorization("Bearer", prm(), as_meta(json!({})));
    let q = query(&url(&next));
    let get = |k: &str| q.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    assert_eq!(get("code_challenge_method").as_deref(), Some("S256"));
    assert_eq!(get("resource").as_deref(), Some("http://mcp.test/mcp"));
    let back = "http://127.0.0.1:1/cb?code=k&state=s1&iss=http%3A%2F%2Fas.test";
    let next = auth.answer(&answer(302, &[("Location", back)], json!(null)));
    let Next::Send(call) = next else {
        panic!("a token request")
    };
    assert!(call.body.contains("code_verifier=vvvv"));
    assert!(call.body.contains("resource=http%3A%2F%2Fmcp.test%2Fmcp"));
    let token = auth.answer(&answer(200, &[], json!({"access_token": "T"})));
    assert_eq!(token, Next::Authorized("T".into()));
}

#[test]
fn a_iss_a_wrong_missing_or_normalized_iss_stops_the_flow() {
    for (location, advertised, ok) in [
        (
            "http://127.0.0.1:1/cb?code=k&state=s1&iss=http%3A%2F%2Fas.test",
            true,
            true,
        ),
        ("http://127.0.0.1:1/cb?code=k&state=s1", false, true),
        ("http://127.0.0.1:1/cb?code=k&state=s1", true, false),
        (
            "http://127.0.0.1:1/cb?code=k&state=s1&iss=http%3A%2F%2Fevil",
            false,
            false,
        ),
        (
            "http://127.0.0.1:1/cb?code=k&state=s1&iss=http%3A%2F%2Fas.test%2F",
            true,
            false,
        ),
        ("http://127.0.0.1:1/cb?code=k&state=other", false, false),
    ] {
        let meta = as_meta(json!({"authorization_response_iss_parameter_supported": advertised}));
        let (mut auth, _) = to_authorization("Bearer", prm(), meta);
        let next = auth.answer(&answer(302, &[("Location", location)], json!(null)));
        assert_eq!(
            matches!(next, Next::Send(_)),
            ok,
            "{location} advertised={advertised}"
        );
    }
}

#[test]
fn a_client_auth_basic_post_or_none_as_the_server_supports() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        auth_method(&s(&["client_secret_post"]), None, true),
        "client_secret_post"
    );
    assert_eq!(
        auth_method(&s(&["none", "client_secret_basic"]), None, true),
        "client_secret_basic"
    );
    assert_eq!(
        auth_method(&s(&["client_secret_basic"]), None, false),
        "none"
    );
    assert_eq!(auth_method(&[], None, true), "client_secret_basic");
    assert_eq!(
        auth_method(
            &s(&["client_secret_basic", "client_secret_post"]),
            Some("client_secret_post"),
            true
        ),
        "client_secret_post"
    );
    let meta = as_meta(json!({"token_endpoint_auth_methods_supported": ["client_secret_basic"]}));
    let (mut auth, _) = to_authorization("Bearer", prm(), meta);
    let back = "http://127.0.0.1:1/cb?code=k&state=s1&iss=http%3A%2F%2Fas.test";
    let Next::Send(call) = auth.answer(&answer(302, &[("Location", back)], json!(null))) else {
        panic!("a token request")
    };
    // Registered without a secret: a public client sends its id alone.
    assert!(call.body.contains("client_id=c1"));
    assert!(call.headers.iter().all(|(k, _)| k != "Authorization"));
}

#[test]
fn a_scope_step_up_asks_for_the_union_of_the_scopes_had_and_challenged() {
    let had = vec!["mcp:basic".to_string()];
    assert_eq!(
        step_up_scope(&had, Some("mcp:write")),
        Some("mcp:basic mcp:write".into())
    );
    assert_eq!(
        step_up_scope(&had, Some("mcp:basic")),
        Some("mcp:basic".into())
    );
    let mut s = setup();
    s.granted = had;
    let challenge = r#"Bearer error="insufficient_scope", scope="mcp:write""#;
    let forbidden = answer(403, &[("WWW-Authenticate", challenge)], json!(null)).unwrap();
    let (mut auth, _) = Authorizer::start(s, &forbidden);
    let _ = auth.answer(&answer(200, &[], prm()));
    let register = auth.answer(&answer(200, &[], as_meta(json!({}))));
    assert!(url(&register).ends_with("/register"));
    let authorize = auth.answer(&answer(201, &[], json!({"client_id": "c1"})));
    assert!(url(&authorize).contains("scope=mcp%3Abasic%20mcp%3Awrite"));
    assert_eq!(auth.scope(), Some("mcp:basic mcp:write"));
}

#[test]
fn a_client_credentials_a_server_granting_only_them_gets_no_authorization_request() {
    let mut pre = setup();
    pre.pre_registered = Some(Credentials {
        client_id: "m2m".into(),
        client_secret: Some("s".into()),
    });
    let unauthorized = answer(401, &[("WWW-Authenticate", "Bearer")], json!(null)).unwrap();
    let (mut auth, _) = Authorizer::start(pre, &unauthorized);
    let _ = auth.answer(&answer(200, &[], prm()));
    let meta = as_meta(json!({"grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic"]}));
    let Next::Send(call) = auth.answer(&answer(200, &[], meta)) else {
        panic!("a token request")
    };
    assert_eq!(call.url, "http://as.test/token");
    assert!(call.body.starts_with("grant_type=client_credentials"));
    assert!(call.body.contains("resource=http%3A%2F%2Fmcp.test%2Fmcp"));
    assert!(call
        .headers
        .iter()
        .any(|(k, v)| k == "Authorization" && v.starts_with("Basic ")));
    let token = auth.answer(&answer(200, &[], json!({"access_token": "T"})));
    assert_eq!(token, Next::Authorized("T".into()));
}

/// Runs a machine client (`client_id`, `secret`, `extension`) to its first
/// request after the authorization server's metadata (`meta` added).
fn machine(
    secret: Option<&str>,
    extension: Extension,
    meta: serde_json::Value,
) -> (Authorizer, Next) {
    let mut pre = setup();
    pre.pre_registered = Some(Credentials {
        client_id: "m2m".into(),
        client_secret: secret.map(str::to_string),
    });
    pre.extension = Some(extension);
    let unauthorized = answer(401, &[("WWW-Authenticate", "Bearer")], json!(null)).unwrap();
    let (mut auth, _) = Authorizer::start(pre, &unauthorized);
    let _ = auth.answer(&answer(200, &[], prm()));
    let next = auth.answer(&answer(200, &[], as_meta(meta)));
    (auth, next)
}

fn form_param(body: &str, name: &str) -> Option<String> {
    query(&format!("?{body}"))
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

fn jwt_part(part: &str) -> serde_json::Value {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part)
        .unwrap_or_default();
    serde_json::from_slice(&bytes).unwrap_or_default()
}

#[test]
fn a_client_jwt_assertion_the_client_signs_a_jwt_about_itself_for_the_issuer() {
    let key = Extension::SigningKey {
        alg: "ES256".into(),
    };
    let meta = json!({"grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["private_key_jwt"],
        "token_endpoint_auth_signing_alg_values_supported": ["ES256"]});
    let (mut auth, next) = machine(None, key, meta);
    let Next::Sign { alg, input } = next else {
        panic!("a signature to make, got {next:?}")
    };
    assert_eq!(alg, "ES256");
    let (header, claims) = input.split_once('.').unwrap_or_default();
    assert_eq!(jwt_part(header), json!({"alg": "ES256", "typ": "JWT"}));
    assert_eq!(
        jwt_part(claims),
        json!({"iss": "m2m", "sub": "m2m", "aud": "http://as.test",
            "iat": 1_700_000_000u64, "exp": 1_700_000_060u64, "jti": "j1"})
    );
    let Next::Send(call) = auth.signed(Ok("SIG".into())) else {
        panic!("the token request")
    };
    assert_eq!(call.url, "http://as.test/token");
    assert_eq!(
        form_param(&call.body, "grant_type").as_deref(),
        Some("client_credentials")
    );
    assert_eq!(
        form_param(&call.body, "client_assertion_type").as_deref(),
        Some(ASSERTION_TYPE)
    );
    assert_eq!(
        form_param(&call.body, "client_assertion"),
        Some(format!("{input}.SIG"))
    );
    assert!(!call.headers.iter().any(|(k, _)| k == "Authorization"));
    assert!(auth
        .decisions
        .iter()
        .any(|d| d.rules.contains(&"A-CLIENT-JWT-ASSERTION")));
    let token = auth.answer(&answer(200, &[], json!({"access_token": "T"})));
    assert_eq!(token, Next::Authorized("T".into()));
}

#[test]
fn a_client_jwt_assertion_no_signature_no_request_and_no_key_use_without_private_key_jwt() {
    let key = || Extension::SigningKey {
        alg: "ES256".into(),
    };
    let meta = json!({"grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["private_key_jwt"]});
    let (mut auth, _) = machine(None, key(), meta);
    assert_eq!(auth.signed(Err("bad key".into())), Next::Refused);
    // A server that does not take the key's algorithm gets no assertion.
    let meta = json!({"grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["private_key_jwt", "client_secret_basic"],
        "token_endpoint_auth_signing_alg_values_supported": ["RS256"]});
    let (_, next) = machine(Some("s"), key(), meta);
    let Next::Send(call) = next else {
        panic!("a token request with the secret")
    };
    assert!(form_param(&call.body, "client_assertion").is_none());
    assert!(call.headers.iter().any(|(k, _)| k == "Authorization"));
}

#[test]
fn a_jwt_bearer_grant_the_workload_jwt_is_the_assertion_and_a_refusal_is_final() {
    let meta = json!({"grant_types_supported": [JWT_BEARER],
        "token_endpoint_auth_methods_supported": ["none"]});
    let (mut auth, next) = machine(None, Extension::WorkloadJwt("W.J.T".into()), meta.clone());
    let Next::Send(call) = next else {
        panic!("the token request")
    };
    assert_eq!(call.url, "http://as.test/token");
    assert_eq!(
        form_param(&call.body, "grant_type").as_deref(),
        Some(JWT_BEARER)
    );
    assert_eq!(
        form_param(&call.body, "assertion").as_deref(),
        Some("W.J.T")
    );
    assert_eq!(
        form_param(&call.body, "resource").as_deref(),
        Some("http://mcp.test/mcp")
    );
    assert_eq!(form_param(&call.body, "client_id").as_deref(), Some("m2m"));
    let token = auth.answer(&answer(200, &[], json!({"access_token": "T"})));
    assert_eq!(token, Next::Authorized("T".into()));

    let (mut auth, _) = machine(None, Extension::WorkloadJwt("W.J.T".into()), meta);
    let refused = auth.answer(&answer(400, &[], json!({"error": "invalid_grant"})));
    assert_eq!(refused, Next::Refused);
    let last = auth.decisions.last().expect("a decision");
    assert_eq!(last.rules, vec!["A-JWT-BEARER-GRANT"]);
    assert_eq!(
        auth.answer(&answer(200, &[], json!({"access_token": "T"}))),
        Next::Refused
    );
}

#[test]
fn a_id_jag_the_id_token_is_exchanged_at_the_idp_then_granted_at_the_server() {
    let idp = Extension::IdToken {
        id_token: "I.D.T".into(),
        token_endpoint: "http://idp.test/token".into(),
        client_id: "idp-client".into(),
    };
    let meta = json!({"grant_types_supported": [JWT_BEARER],
        "token_endpoint_auth_methods_supported": ["client_secret_basic"]});
    let (mut auth, next) = machine(Some("s"), idp.clone(), meta.clone());
    let Next::Send(exchange) = next else {
        panic!("the token exchange")
    };
    assert_eq!(exchange.url, "http://idp.test/token");
    let p = |name: &str| form_param(&exchange.body, name);
    assert_eq!(
        p("grant_type").as_deref(),
        Some("urn:ietf:params:oauth:grant-type:token-exchange")
    );
    assert_eq!(
        p("requested_token_type").as_deref(),
        Some("urn:ietf:params:oauth:token-type:id-jag")
    );
    assert_eq!(
        p("subject_token_type").as_deref(),
        Some("urn:ietf:params:oauth:token-type:id_token")
    );
    assert_eq!(p("subject_token").as_deref(), Some("I.D.T"));
    assert_eq!(p("audience").as_deref(), Some("http://as.test"));
    assert_eq!(p("resource").as_deref(), Some("http://mcp.test/mcp"));
    assert_eq!(p("client_id").as_deref(), Some("idp-client"));
    assert!(!exchange.headers.iter().any(|(k, _)| k == "Authorization"));

    let jag = json!({"access_token": "J.A.G", "token_type": "N_A",
        "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag"});
    let Next::Send(grant) = auth.answer(&answer(200, &[], jag)) else {
        panic!("the JWT-bearer grant")
    };
    assert_eq!(grant.url, "http://as.test/token");
    assert_eq!(
        form_param(&grant.body, "grant_type").as_deref(),
        Some(JWT_BEARER)
    );
    assert_eq!(
        form_param(&grant.body, "assertion").as_deref(),
        Some("J.A.G")
    );
    assert!(grant
        .headers
        .iter()
        .any(|(k, v)| k == "Authorization" && v.starts_with("Basic ")));
    assert_eq!(
        auth.answer(&answer(200, &[], json!({"access_token": "T"}))),
        Next::Authorized("T".into())
    );

    // Anything but an ID-JAG from the identity provider stops the flow.
    let (mut auth, _) = machine(Some("s"), idp, meta);
    let other = json!({"access_token": "X", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token"});
    assert_eq!(auth.answer(&answer(200, &[], other)), Next::Refused);
    assert_eq!(
        auth.decisions.last().map(|d| d.rules.clone()),
        Some(vec!["A-ID-JAG"])
    );
}

/// A client that signs DPoP proofs, through the authorization to its
/// token request, against an authorization server with `meta`'s extras.
fn dpop_token_request(can_sign: bool, extra: serde_json::Value) -> (Authorizer, Next) {
    let mut s = setup();
    s.dpop = can_sign;
    let challenge =
        r#"DPoP resource_metadata="http://mcp.test/.well-known/oauth-protected-resource/mcp""#;
    let (mut auth, _) = to_authorization_as(s, challenge, prm(), as_meta(extra));
    let back = "http://127.0.0.1:1/cb?code=k&state=s1&iss=http%3A%2F%2Fas.test";
    let next = auth.answer(&answer(302, &[("Location", back)], json!(null)));
    (auth, next)
}

fn proof_asked(next: &Next) -> Option<ProofAsked> {
    match next {
        Next::Send(call) => call.dpop.clone(),
        other => panic!("expected a request, got {other:?}"),
    }
}

#[test]
fn a_dpop_proof_asked_at_the_token_endpoint_when_es256_is_listed() {
    let es256 = json!({"dpop_signing_alg_values_supported": ["ES256"]});
    let (auth, next) = dpop_token_request(true, es256.clone());
    assert_eq!(url(&next), "http://as.test/token");
    assert_eq!(proof_asked(&next), Some(ProofAsked { nonce: None }));
    assert!(auth
        .decisions
        .iter()
        .any(|d| d.rules.contains(&rules::A_DPOP_PROOF)));
    // Not listed, another algorithm only, or a client that cannot sign: a
    // plain token request.
    assert_eq!(proof_asked(&dpop_token_request(true, json!({})).1), None);
    let rs = json!({"dpop_signing_alg_values_supported": ["RS256"]});
    assert_eq!(proof_asked(&dpop_token_request(true, rs).1), None);
    assert_eq!(proof_asked(&dpop_token_request(false, es256).1), None);
}

#[test]
fn a_dpop_proof_signs_the_rfc_header_and_claims() {
    let key = dpop::PublicKey {
        x: "xx".into(),
        y: "yy".into(),
    };
    let proof = dpop::Proof {
        method: "POST",
        url: "http://as.test/token?x=1#f",
        jti: "j-1",
        iat: 1_700_000_000,
        nonce: None,
        access_token: None,
    };
    let input = dpop::signing_input(&key, &proof);
    let decode = |part: &str| -> serde_json::Value {
        use base64::Engine as _;
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(part)
            .unwrap_or_default();
        serde_json::from_slice(&bytes).unwrap_or_default()
    };
    let (header, claims) = input.split_once('.').unwrap_or_default();
    assert_eq!(
        decode(header),
        json!({"typ": "dpop+jwt", "alg": "ES256",
            "jwk": {"kty": "EC", "crv": "P-256", "x": "xx", "y": "yy"}})
    );
    assert_eq!(
        decode(claims),
        json!({"jti": "j-1", "htm": "POST", "htu": "http://as.test/token", "iat": 1_700_000_000})
    );
    // RFC 9449 §7.1's example token and its `ath`.
    let token = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU";
    assert_eq!(
        dpop::ath(token),
        "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
    );
    let at_resource = dpop::Proof {
        access_token: Some(token),
        nonce: Some("n-1"),
        ..proof
    };
    let input = dpop::signing_input(&key, &at_resource);
    let claims = decode(input.split_once('.').unwrap_or_default().1);
    assert_eq!(claims["ath"], "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo");
    assert_eq!(claims["nonce"], "n-1");
}

#[test]
fn a_dpop_nonce_the_token_request_goes_again_once_with_the_nonce() {
    let es256 = json!({"dpop_signing_alg_values_supported": ["ES256"]});
    let (mut auth, _) = dpop_token_request(true, es256);
    let ask = answer(
        400,
        &[("DPoP-Nonce", "as-n1")],
        json!({"error": "use_dpop_nonce"}),
    );
    let next = auth.answer(&ask);
    assert_eq!(url(&next), "http://as.test/token");
    assert_eq!(
        proof_asked(&next),
        Some(ProofAsked {
            nonce: Some("as-n1".into())
        })
    );
    assert!(auth
        .decisions
        .iter()
        .any(|d| d.rules.contains(&rules::A_DPOP_NONCE)));
    // Asked again: no second retry.
    assert_eq!(auth.answer(&ask), Next::Refused);
}

#[test]
fn a_dpop_present_a_dpop_token_is_bound_a_bearer_one_is_not() {
    let es256 = json!({"dpop_signing_alg_values_supported": ["ES256"]});
    let (mut auth, _) = dpop_token_request(true, es256.clone());
    let issued = json!({"access_token": "t1", "token_type": "DPoP"});
    assert_eq!(
        auth.answer(&answer(200, &[], issued)),
        Next::Authorized("t1".into())
    );
    assert!(auth.dpop_bound());
    assert!(auth
        .decisions
        .iter()
        .any(|d| d.rules.contains(&rules::A_DPOP_PRESENT)));
    let (mut auth, _) = dpop_token_request(true, es256);
    let bearer = json!({"access_token": "t2", "token_type": "Bearer"});
    assert_eq!(
        auth.answer(&answer(200, &[], bearer)),
        Next::Authorized("t2".into())
    );
    assert!(!auth.dpop_bound());
}

#[test]
fn a_dpop_nonce_a_resource_401_gives_its_nonce_once() {
    let challenge = r#"DPoP error="use_dpop_nonce", resource_metadata="http://mcp.test/x""#;
    let asked = answer(
        401,
        &[("WWW-Authenticate", challenge), ("DPoP-Nonce", "rs-n1")],
        json!({"error": "use_dpop_nonce"}),
    )
    .unwrap();
    let (nonce, decision) = dpop::resource_nonce(&asked, None).expect("a nonce");
    assert_eq!(nonce, "rs-n1");
    assert_eq!(decision.rules, vec![rules::A_DPOP_NONCE]);
    assert!(dpop::resource_nonce(&asked, Some("rs-n1")).is_none());
    let quoted = answer(
        401,
        &[("WWW-Authenticate", challenge), ("DPoP-Nonce", "a\"b")],
        json!(null),
    )
    .unwrap();
    assert!(dpop::resource_nonce(&quoted, None).is_none());
    let plain = answer(
        401,
        &[("WWW-Authenticate", "DPoP"), ("DPoP-Nonce", "rs-n1")],
        json!(null),
    )
    .unwrap();
    assert!(dpop::resource_nonce(&plain, None).is_none());
}

#[test]
fn a_prm_a_dpop_challenge_names_the_metadata_as_a_bearer_one_does() {
    let named = r#"DPoP algs="ES256", resource_metadata="http://mcp.test/custom.json""#;
    let unauthorized = answer(401, &[("WWW-Authenticate", named)], json!(null)).unwrap();
    let (_, next) = Authorizer::start(setup(), &unauthorized);
    assert_eq!(url(&next), "http://mcp.test/custom.json");
}
