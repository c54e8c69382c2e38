//! The protection grader (`check::protection`), fed observations by hand:
//! each broken observation fails exactly its rule, the correct one passes
//! every rule it observed, and what was not observed is never a pass.

use mcp_lanes_core::check::protection::{grade, Answer, Fetch, Observations};
use mcp_lanes_core::check::{Outcome, Verdict};

const URL: &str = "http://127.0.0.1:9/mcp";
const PRM: &str = "http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp";
const ISSUER: &str = "http://127.0.0.1:9";

fn got(status: u16, headers: &[(&str, &str)], body: &str) -> Result<Answer, String> {
    Ok(Answer {
        status,
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        body: body.to_string(),
    })
}

fn fetch(url: &str, answer: Result<Answer, String>) -> Option<Fetch> {
    Some(Fetch {
        url: url.to_string(),
        answer,
    })
}

fn correct() -> Observations {
    let challenge = format!("Bearer resource_metadata=\"{PRM}\", scope=\"mcp\"");
    Observations {
        endpoint: URL.into(),
        unauthenticated: fetch(URL, got(401, &[("WWW-Authenticate", &challenge)], "")),
        prm: vec![fetch(
            PRM,
            got(
                200,
                &[],
                &format!(r#"{{"resource":"{URL}","authorization_servers":["{ISSUER}"]}}"#),
            ),
        )
        .unwrap()],
        as_metadata: vec![fetch(
            "http://127.0.0.1:9/.well-known/oauth-authorization-server",
            got(
                200,
                &[],
                &format!(r#"{{"issuer":"{ISSUER}","code_challenge_methods_supported":["S256"]}}"#),
            ),
        )
        .unwrap()],
        token: fetch(URL, got(200, &[], "{}")),
        other_audience: fetch(URL, got(401, &[("WWW-Authenticate", &challenge)], "")),
        low_scope: fetch(
            URL,
            got(
                403,
                &[(
                    "WWW-Authenticate",
                    r#"Bearer error="insufficient_scope", scope="mcp:tools""#,
                )],
                "",
            ),
        ),
    }
}

fn outcomes(v: &[Verdict], rule: &str) -> Vec<Outcome> {
    v.iter()
        .filter(|v| v.rule == rule)
        .map(|v| v.verdict)
        .collect()
}

fn failed(v: &[Verdict]) -> Vec<&str> {
    let mut f: Vec<&str> = v
        .iter()
        .filter(|v| v.verdict == Outcome::Fail)
        .map(|v| v.rule.as_str())
        .collect();
    f.dedup();
    f
}

#[test]
fn a_challenge_correct_server_passes_every_protection_rule() {
    let v = grade(&correct());
    assert!(failed(&v).is_empty(), "{v:#?}");
    for rule in [
        "A-CHALLENGE",
        "A-PRM",
        "A-AS-METADATA",
        "A-AUDIENCE",
        "A-SCOPE-STEP-UP",
    ] {
        assert!(
            outcomes(&v, rule).iter().all(|o| *o == Outcome::Pass),
            "{rule}: {v:#?}"
        );
        assert!(!outcomes(&v, rule).is_empty(), "{rule}");
    }
}

#[test]
fn a_challenge_without_resource_metadata_or_not_bearer_fails_only_a_challenge() {
    for header in [r#"Bearer scope="mcp""#, r#"Basic realm="mcp""#, ""] {
        let mut obs = correct();
        let headers: &[(&str, &str)] = if header.is_empty() {
            &[]
        } else {
            &[("www-authenticate", header)]
        };
        obs.unauthenticated = fetch(URL, got(401, headers, ""));
        assert_eq!(failed(&grade(&obs)), vec!["A-CHALLENGE"], "{header}");
    }
    let mut obs = correct();
    obs.unauthenticated = fetch(
        URL,
        got(
            403,
            &[("www-authenticate", r#"Bearer resource_metadata="x""#)],
            "",
        ),
    );
    assert_eq!(failed(&grade(&obs)), vec!["A-CHALLENGE"]);
}

#[test]
fn a_prm_missing_or_naming_another_resource_fails_a_prm() {
    let mut obs = correct();
    obs.prm = vec![fetch(PRM, got(404, &[], "not found")).unwrap()];
    let v = grade(&obs);
    assert_eq!(failed(&v), vec!["A-PRM"]);
    // No issuer known: the metadata of an authorization server is n/a, not pass.
    assert_eq!(outcomes(&v, "A-AS-METADATA"), vec![Outcome::NotApplicable]);
    let mut obs = correct();
    obs.prm = vec![fetch(
        PRM,
        got(
            200,
            &[],
            r#"{"resource":"http://other/mcp","authorization_servers":["http://a"]}"#,
        ),
    )
    .unwrap()];
    assert_eq!(failed(&grade(&obs)), vec!["A-PRM"]);
    let mut obs = correct();
    obs.prm = vec![fetch(PRM, got(200, &[], "<html>hello</html>")).unwrap()];
    assert_eq!(failed(&grade(&obs)), vec!["A-PRM"]);
}

#[test]
fn a_as_metadata_without_s256_or_with_another_issuer_fails() {
    let mut obs = correct();
    obs.as_metadata =
        vec![fetch(ISSUER, got(200, &[], r#"{"issuer":"http://127.0.0.1:9"}"#)).unwrap()];
    assert_eq!(failed(&grade(&obs)), vec!["A-AS-METADATA"]);
    let mut obs = correct();
    obs.as_metadata = vec![fetch(
        ISSUER,
        got(
            200,
            &[],
            r#"{"issuer":"http://x","code_challenge_methods_supported":["S256"]}"#,
        ),
    )
    .unwrap()];
    assert_eq!(failed(&grade(&obs)), vec!["A-AS-METADATA"]);
    let mut obs = correct();
    obs.as_metadata = vec![fetch(ISSUER, got(404, &[], "")).unwrap()];
    assert_eq!(failed(&grade(&obs)), vec!["A-AS-METADATA"]);
}

#[test]
fn a_audience_token_for_another_resource_accepted_fails() {
    let mut obs = correct();
    obs.other_audience = fetch(URL, got(200, &[], "{}"));
    assert_eq!(failed(&grade(&obs)), vec!["A-AUDIENCE"]);
    // A refusal of the other token proves nothing when the good one was refused too.
    let mut obs = correct();
    obs.token = fetch(URL, got(401, &[], ""));
    let v = grade(&obs);
    assert_eq!(
        outcomes(&v, "A-AUDIENCE"),
        vec![Outcome::Fail, Outcome::NotApplicable]
    );
    let mut obs = correct();
    obs.token = None;
    assert_eq!(
        outcomes(&grade(&obs), "A-AUDIENCE"),
        vec![Outcome::NotApplicable]
    );
    // Without tokens: not applicable, never pass.
    let mut obs = correct();
    obs.token = None;
    obs.other_audience = None;
    obs.low_scope = None;
    let v = grade(&obs);
    assert_eq!(outcomes(&v, "A-AUDIENCE"), vec![Outcome::NotApplicable]);
    assert_eq!(
        outcomes(&v, "A-SCOPE-STEP-UP"),
        vec![Outcome::NotApplicable]
    );
    assert!(v
        .iter()
        .find(|v| v.rule == "A-AUDIENCE")
        .unwrap()
        .got
        .contains("no token given"));
}

#[test]
fn a_scope_step_up_401_or_no_scope_fails() {
    for (status, header) in [
        (401, r#"Bearer resource_metadata="x""#),
        (403, r#"Bearer error="insufficient_scope""#),
        (403, ""),
    ] {
        let mut obs = correct();
        let headers: &[(&str, &str)] = if header.is_empty() {
            &[]
        } else {
            &[("www-authenticate", header)]
        };
        obs.low_scope = fetch(URL, got(status, headers, ""));
        assert_eq!(
            failed(&grade(&obs)),
            vec!["A-SCOPE-STEP-UP"],
            "{status} {header}"
        );
    }
}

#[test]
fn an_open_or_silent_server_gets_no_pass() {
    for answer in [
        got(200, &[("content-type", "text/html")], "<html/>"),
        Err("connection reset".into()),
    ] {
        let obs = Observations {
            endpoint: URL.into(),
            unauthenticated: fetch(URL, answer),
            ..Observations::default()
        };
        let v = grade(&obs);
        assert_eq!(v.len(), 5);
        assert!(
            v.iter().all(|v| v.verdict == Outcome::NotApplicable),
            "{v:#?}"
        );
    }
}
