//! Secrets stay secret (issue 28): what `redact` takes out of a run, and
//! what it leaves alone.

use mcp_lanes_core::redact::{self, REDACTED};
use mcp_lanes_core::scenarios::{self, CATALOG};
use mcp_lanes_core::share::{EditorState, ShareState};
use mcp_lanes_core::transcript;
use mcp_lanes_core::transport::TransportKind;

#[test]
fn a_run_without_secrets_is_unchanged() {
    let secret = |id: &str| id.starts_with("auth-") || id == "identities";
    for info in CATALOG.iter().filter(|i| !secret(i.id)) {
        for t in scenarios::run(info.id).expect("runs") {
            assert_eq!(redact::timeline(&t), t, "{}: {}", info.id, t.label);
        }
    }
}

#[test]
fn a_bearer_every_token_code_and_verifier_of_the_flow_is_redacted() {
    for info in CATALOG.iter().filter(|i| i.id.starts_with("auth-")) {
        for t in scenarios::run(info.id).expect("runs") {
            let raw = serde_json::to_string(&transcript::transcript(&t)).expect("JSON");
            let clean = serde_json::to_string(&transcript::transcript(&redact::timeline(&t)))
                .expect("JSON");
            // Every token the run issued, and every code, is gone.
            let doc: serde_json::Value = serde_json::from_str(&raw).expect("JSON");
            for entry in doc.as_array().expect("entries") {
                for key in ["access_token", "refresh_token"] {
                    if let Some(secret) = entry["message"][key].as_str() {
                        assert!(!clean.contains(secret), "{}: {key} kept", info.id);
                    }
                }
            }
            assert!(!clean.contains("code=code-"), "{}: a code kept", info.id);
            assert!(
                !clean.contains("code_verifier=") || clean.contains("code_verifier=[redacted]")
            );
            assert!(
                !clean.contains("Bearer ey"),
                "{}: a bearer token kept",
                info.id
            );
            // The lanes still show which step carried what.
            if raw.contains("access_token") {
                assert!(clean.contains(&format!("\"access_token\":\"{REDACTED}\"")));
            }
            assert!(
                clean.contains("code_challenge="),
                "a challenge is no secret"
            );
        }
    }
}

#[test]
fn a_bearer_the_tokens_identities_carry_are_redacted() {
    for t in scenarios::run("identities").expect("runs") {
        let raw = serde_json::to_string(&transcript::transcript(&t)).expect("JSON");
        let clean =
            serde_json::to_string(&transcript::transcript(&redact::timeline(&t))).expect("JSON");
        assert!(
            !clean.contains("Bearer ey"),
            "{}: a bearer token kept",
            t.label
        );
        if raw.contains("Bearer ey") {
            assert!(clean.contains(&format!("Bearer {REDACTED}")), "{}", t.label);
        }
    }
}

#[test]
fn a_permalinks_editor_loses_its_credentials() {
    let state = ShareState {
        scenario: "discover".into(),
        lanes: Vec::new(),
        step: 0,
        editor: Some(EditorState {
            target: "reference".into(),
            transport: TransportKind::Http,
            text: r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"client_secret":"cs"}}"#.into(),
            headers: vec![
                ("Authorization".into(), "Bearer abc".into()),
                ("X-Trace".into(), "t-1".into()),
            ],
        }),
    };
    let clean = redact::share_state(&state);
    let editor = clean.editor.expect("the editor");
    assert_eq!(editor.headers[0].1, "Bearer [redacted]");
    assert_eq!(editor.headers[1].1, "t-1");
    assert!(
        editor.text.contains("\"client_secret\":\"[redacted]\""),
        "{}",
        editor.text
    );
}
