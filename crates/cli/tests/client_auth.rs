//! `mcp-lanes client` against a protected server: `serve --preset
//! reference --auth` (its lab authorization server consents at once).
//! The client meets HTTP 401, does the authorization flow the core
//! decides, and runs its flow again with the token. And against the
//! official conformance suite's DPoP scenario (tests/peers), whose
//! servers check every proof.

mod common;

use std::process::Command;
use std::time::Duration;

use common::{http_server_with, peers_having, run_guarded, BIN};

#[test]
fn a_bearer_mcp_lanes_client_authorizes_against_serve_auth_then_lists_with_its_token() {
    let (_server, port) = http_server_with("reference", &["--auth"]);
    let mut cmd = Command::new(BIN);
    cmd.args(["client", &format!("http://127.0.0.1:{port}/mcp")]);
    let done = run_guarded(cmd, "client against serve --auth", Duration::from_secs(60));
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}\n{}",
        done.stdout,
        done.stderr
    );
    let auth: Vec<&str> = done
        .stdout
        .lines()
        .filter(|l| l.starts_with("auth: "))
        .collect();
    for rule in [
        "A-PRM",
        "A-AS-METADATA",
        "A-REGISTER",
        "A-PKCE",
        "A-CLIENT-AUTH",
        "A-BEARER",
    ] {
        assert!(
            auth.iter().any(|l| l.contains(rule)),
            "no decision carries {rule}: {auth:#?}"
        );
    }
    // The flow ran again with the token: tools/list answered, no 401 left.
    let run = done
        .stdout
        .split("== ")
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(run.contains("POST tools/list"), "{run}");
    assert!(!run.contains(" 401 "), "{run}");
}

/// Every check of the suite's `scenario` run against `mcp-lanes client`,
/// as (id, status); `None` when the suite is not installed.
fn suite_checks(scenario: &str) -> Option<Vec<(String, String)>> {
    let suite = "node_modules/@modelcontextprotocol/conformance/dist/index.js";
    let dir = peers_having(&[suite, "node20/register.mjs"])?;
    let out = std::env::temp_dir().join(format!("mcp-lanes-dpop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let register = dir.join("node20/register.mjs");
    let mut cmd = Command::new("node");
    cmd.arg("--import")
        .arg(register.to_str().expect("path"))
        .arg(dir.join(suite))
        .args(["client", "--command", &format!("{BIN} client")])
        .args(["--scenario", scenario, "--timeout", "15000", "-o"])
        .arg(&out);
    let done = run_guarded(cmd, "the conformance suite", Duration::from_secs(120));
    let mut checks = Vec::new();
    let runs = std::fs::read_dir(out.join("auth")).expect("the suite's results");
    for run in runs.flatten() {
        let text = std::fs::read_to_string(run.path().join("checks.json")).unwrap_or_default();
        let list: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        for check in list.as_array().into_iter().flatten() {
            let field = |k: &str| check[k].as_str().unwrap_or_default().to_string();
            checks.push((field("id"), field("status")));
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(!checks.is_empty(), "{}\n{}", done.stdout, done.stderr);
    Some(checks)
}

#[test]
fn a_dpop_nonce_mcp_lanes_client_passes_the_suites_dpop_nonce_scenario() {
    let Some(checks) = suite_checks("auth/dpop-nonce") else {
        return;
    };
    let bad: Vec<&(String, String)> = checks
        .iter()
        .filter(|(_, status)| status == "FAILURE" || status == "WARNING")
        .collect();
    assert!(bad.is_empty(), "{bad:?}");
    for id in [
        "sep-1932-client-token-request-proof",
        "sep-1932-client-dpop-auth-scheme",
        "sep-1932-client-fresh-proof",
        "sep-1932-client-as-nonce",
        "sep-1932-client-rs-nonce",
    ] {
        assert!(
            checks.iter().any(|(i, s)| i == id && s == "SUCCESS"),
            "{id}: {checks:?}"
        );
    }
}
