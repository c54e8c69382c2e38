//! `serve --auth`: the reference server as an OAuth protected resource
//! with the lab authorization server on the same loopback origin. The
//! whole flow over real HTTP (401, metadata, registration, authorize with
//! PKCE, token, the MCP call with the token), `check --url` grading its
//! protection, and the official TypeScript SDK v1 (1.32.2) client completing the
//! flow on its own (tests/peers/smoke/oauth-client.mjs), and the v2
//! (2.4.0) and Python SDK (mcp 2.3.0) clients too (`oauth-client.py`).

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{http, http_server_with, peers_having, post_legacy, run_guarded, BIN};
use mcp_lanes_core::auth::pkce;
use mcp_lanes_core::check::{Outcome, Report};
use serde_json::{json, Value};

const CALLBACK: &str = "http://127.0.0.1:9/callback";

fn enc(s: &str) -> String {
    mcp_lanes_core::auth::form::encode(s)
}

fn query_param(url: &str, name: &str) -> Option<String> {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let pairs = mcp_lanes_core::auth::form::parse(query);
    mcp_lanes_core::auth::form::single(&pairs, name).map(str::to_string)
}

/// Registers, authorizes (asking `scope`) and exchanges the code on the
/// lab at `port`: its token response.
fn tokens(port: u16, scope: &str) -> Value {
    let origin = format!("http://127.0.0.1:{port}");
    let json_type = [("Content-Type", "application/json")];
    let registered = http(
        port,
        "POST",
        "/register",
        &json_type,
        &json!({"client_name": "test", "redirect_uris": [CALLBACK]}).to_string(),
    );
    assert_eq!(registered.status, 201);
    let client = registered.json()["client_id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let verifier = pkce::verifier("serve-auth");
    let target = format!(
        "/authorize?response_type=code&client_id={client}&redirect_uri={}&state=s1&code_challenge={}&code_challenge_method=S256&scope={scope}&resource={}",
        enc(CALLBACK),
        pkce::s256(&verifier),
        enc(&format!("{origin}/mcp"))
    );
    let authorized = http(port, "GET", &target, &[], "");
    assert_eq!(authorized.status, 302);
    let location = authorized
        .header("location")
        .unwrap_or_default()
        .to_string();
    assert!(location.starts_with(CALLBACK), "{location}");
    assert_eq!(
        query_param(&location, "iss").as_deref(),
        Some(origin.as_str())
    );
    assert_eq!(query_param(&location, "state").as_deref(), Some("s1"));
    let code = query_param(&location, "code").unwrap_or_default();
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    let body = format!(
        "grant_type=authorization_code&client_id={client}&code={}&code_verifier={verifier}&redirect_uri={}&resource={}",
        enc(&code),
        enc(CALLBACK),
        enc(&format!("{origin}/mcp"))
    );
    let token = http(port, "POST", "/token", &form, &body);
    assert_eq!(token.status, 200);
    assert_eq!(token.header("cache-control"), Some("no-store"));
    token.json()
}

fn access(tokens: &Value) -> String {
    tokens["access_token"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn initialize() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}})
}

#[test]
fn a_consent_serve_auth_whole_flow_over_http() {
    let (mut server, port) = http_server_with("reference", &["--auth"]);
    let refused = post_legacy(port, &initialize(), &[]);
    assert_eq!(refused.status, 401);
    let challenge = refused.header("www-authenticate").unwrap_or_default();
    assert!(
        challenge.contains(&format!(
            "resource_metadata=\"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp\""
        )),
        "{challenge}"
    );
    let prm = http(
        port,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        &[],
        "",
    )
    .json();
    assert_eq!(
        prm["authorization_servers"][0],
        format!("http://127.0.0.1:{port}")
    );
    let tokens = tokens(port, "mcp");
    let bearer = format!("Bearer {}", access(&tokens));
    let answered = post_legacy(port, &initialize(), &[("Authorization", &bearer)]);
    assert_eq!(answered.status, 200);
    assert_eq!(
        answered.json()["result"]["serverInfo"]["name"],
        "mcp-lanes-reference"
    );
    // A refresh gives a token the server takes too (A-REFRESH).
    let refresh = tokens["refresh_token"].as_str().unwrap_or_default();
    let renewed = http(
        port,
        "POST",
        "/token",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        &format!("grant_type=refresh_token&refresh_token={}", enc(refresh)),
    );
    assert_eq!(renewed.status, 200);
    let bearer = format!("Bearer {}", access(&renewed.json()));
    let again = post_legacy(port, &initialize(), &[("Authorization", &bearer)]);
    assert_eq!(again.status, 200);
    // The log names each step with its rules and keeps the secrets out.
    let line = server.stderr_line("/authorize");
    assert!(line.contains("code=[redacted]"), "{line}");
    assert!(line.contains("A-CONSENT"), "{line}");
    server.stderr_line("POST /token -> 200 [A-PKCE, A-RESOURCE]");
    let log = server.stderr_text();
    assert!(!log.contains(&access(&tokens)), "a token in the log");
}

fn check(port: u16, extra: &[&str]) -> (Report, Option<i32>) {
    let mut cmd = Command::new(BIN);
    cmd.args([
        "check",
        "--url",
        &format!("http://127.0.0.1:{port}/mcp"),
        "--format",
        "json",
        "--timeout",
        "2500",
    ])
    .args(extra);
    let done = run_guarded(cmd, "check serve --auth", Duration::from_secs(120));
    let report = Report::from_json(&done.stdout)
        .unwrap_or_else(|| panic!("not a report: {}\n{}", done.stdout, done.stderr));
    (report, done.status.code())
}

/// No rule failed, and each of `rules` passed.
fn passes(report: &Report, rules: &[&str]) {
    assert!(
        with(report, Outcome::Fail).is_empty(),
        "{:#?}",
        report.verdicts
    );
    for rule in rules {
        assert!(
            with(report, Outcome::Pass).contains(rule),
            "{rule}: {:#?}",
            report.verdicts
        );
    }
}

fn with(report: &Report, outcome: Outcome) -> Vec<&str> {
    report
        .verdicts
        .iter()
        .filter(|v| v.verdict == outcome)
        .map(|v| v.rule.as_str())
        .collect()
}

#[test]
fn a_challenge_check_grades_serve_auth_as_correctly_protected() {
    let (_server, port) = http_server_with("reference", &["--auth"]);
    let (report, code) = check(port, &[]);
    passes(&report, &["A-CHALLENGE", "A-PRM", "A-AS-METADATA"]);
    assert_eq!(code, Some(0));
    // With a token, one for another server (another lab's) and one
    // without the scope, the token rules pass too.
    let (_other, other_port) = http_server_with("reference", &["--auth"]);
    let good = access(&tokens(port, "mcp"));
    let low = access(&tokens(port, ""));
    let foreign = access(&tokens(other_port, "mcp"));
    let (report, code) = check(
        port,
        &[
            "--token",
            &good,
            "--other-audience-token",
            &foreign,
            "--low-scope-token",
            &low,
        ],
    );
    passes(
        &report,
        &[
            "A-CHALLENGE",
            "A-PRM",
            "A-AS-METADATA",
            "A-AUDIENCE",
            "A-SCOPE-STEP-UP",
        ],
    );
    assert_eq!(code, Some(0));
}

#[test]
fn a_challenge_check_authorize_gets_a_token_from_the_servers_own_authorization_server() {
    let (_server, port) = http_server_with("reference", &["--auth"]);
    // Without a token the flows are skipped: only the probes are graded.
    let (without, _) = check(port, &[]);
    assert!(!with(&without, Outcome::Pass).contains(&"M-DISCOVER"));
    // With --authorize the check gets a token by the OAuth flow from the
    // lab server the metadata names, and runs the flows with it.
    let (report, code) = check(port, &["--authorize"]);
    passes(
        &report,
        &[
            "A-CHALLENGE",
            "A-PRM",
            "A-AS-METADATA",
            "M-DISCOVER",
            "S-ANSWER",
        ],
    );
    assert_eq!(code, Some(0));
}

/// Runs an SDK client script (with `extra` arguments) against `serve
/// --preset reference --auth` and checks that it went through every step
/// of the flow and called a tool.
fn sdk_client_completes_the_flow(program: &Path, script: &Path, extra: &[&str]) {
    let (mut server, port) = http_server_with("reference", &["--auth"]);
    let mut cmd = Command::new(program);
    cmd.arg(script)
        .args([&format!("http://127.0.0.1:{port}/mcp"), "--timeout", "15"])
        .args(extra);
    let done = run_guarded(cmd, "an SDK OAuth client", Duration::from_secs(60));
    let summary: Value = serde_json::from_str(done.stdout.lines().last().unwrap_or(""))
        .unwrap_or_else(|err| panic!("no summary ({err}): {}\n{}", done.stdout, done.stderr));
    assert_eq!(summary["ok"], true, "{summary}");
    let requests: Vec<&str> = summary["requests"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let steps = [
        "POST /mcp -> 401",
        "GET /.well-known/oauth-protected-resource/mcp -> 200",
        "GET /.well-known/oauth-authorization-server -> 200",
        "POST /register -> 201",
        "GET /authorize -> 302",
        "POST /token -> 200",
        "POST /mcp -> 200",
    ];
    let mut at = 0;
    for step in steps {
        let found = requests[at..].iter().position(|r| *r == step);
        let Some(k) = found else {
            panic!("{step} missing or out of order: {summary}")
        };
        at += k + 1;
    }
    let asked = &summary["authorization"]["asked"];
    assert_eq!(asked["code_challenge_method"], "S256", "{summary}");
    assert_eq!(asked["response_type"], "code", "{summary}");
    assert_eq!(
        asked["resource"],
        format!("http://127.0.0.1:{port}/mcp"),
        "{summary}"
    );
    assert_eq!(summary["authorization"]["state_returned"], true);
    assert_eq!(
        summary["authorization"]["iss"],
        format!("http://127.0.0.1:{port}")
    );
    assert_eq!(
        summary["call"]["result"]["content"][0]["text"],
        "This is a simple text response for testing."
    );
    server.stderr_line("tools/call id");
    assert!(!done.stdout.contains("access_token"), "a token printed");
}

#[test]
fn a_consent_ts_sdk_v1_client_completes_the_oauth_flow() {
    let Some(peers) = peers_having(&["node_modules/@modelcontextprotocol/sdk"]) else {
        return;
    };
    let script = peers.join("smoke/oauth-client.mjs");
    sdk_client_completes_the_flow(Path::new("node"), &script, &["--sdk", "v1"]);
}

#[test]
fn a_consent_ts_sdk_v2_client_completes_the_oauth_flow() {
    let Some(peers) = peers_having(&["node_modules/@modelcontextprotocol/client"]) else {
        return;
    };
    let script = peers.join("smoke/oauth-client.mjs");
    sdk_client_completes_the_flow(Path::new("node"), &script, &["--sdk", "v2"]);
}

#[test]
fn a_consent_python_sdk_client_completes_the_oauth_flow() {
    let Some(peers) = peers_having(&[".venv/bin/python"]) else {
        return;
    };
    sdk_client_completes_the_flow(
        &peers.join(".venv/bin/python"),
        &peers.join("smoke/oauth-client.py"),
        &[],
    );
}

#[test]
fn a_bearer_serve_auth_with_a_policy_server_reads_the_caller_from_the_labs_token() {
    // Found by lesson 38 in the simulator: a server with a policy read the
    // caller from the identities' pre-issued tokens only, and refused the
    // lab's with 401 although the lab had just issued it.
    let file = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "policy-lab",
        "servers": [{"id": "srv", "tools": [{"name": "search", "result": "3 files."}],
            "policy": {"tools": [{"tool": "search", "results": {}}]}}],
        "setups": [{"client": "plain", "server": "srv", "transport": "http",
            "steps": [{"do": "call", "tool": "search"}]}]
    });
    let dir = std::env::temp_dir().join(format!("mcp-lanes-policy-lab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("policy.json");
    std::fs::write(&path, file.to_string()).expect("write the file");
    let (_server, port) = common::spawn_listening(&[
        "serve",
        "--transport",
        "http",
        "--port",
        "0",
        "--auth",
        "--file",
        &path.display().to_string(),
        "--server",
        "srv",
    ]);
    let bearer = format!("Bearer {}", access(&tokens(port, "mcp")));
    let call = common::modern(
        1,
        "tools/call",
        json!({"name": "search", "arguments": {}}),
        json!({}),
    );
    let answered = common::post(port, "2026-07-28", &call, &[("Authorization", &bearer)]);
    assert_eq!(
        answered.status,
        200,
        "{:?}",
        String::from_utf8_lossy(&answered.body)
    );
    assert_eq!(answered.json()["result"]["content"][0]["text"], "3 files.");
}
