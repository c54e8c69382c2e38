//! `mcp-lanes client` against a protected server: `serve --preset
//! reference --auth` (its lab authorization server consents at once).
//! The client meets HTTP 401, does the authorization flow the core
//! decides, and runs its flow again with the token.

mod common;

use std::process::Command;
use std::time::Duration;

use common::{http_server_with, run_guarded, BIN};

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
