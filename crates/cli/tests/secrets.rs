//! Secrets stay secret (issue 28): tokens, authorization codes, code
//! verifiers and client secrets are redacted in what the CLI writes (`run
//! --format json`, tap's `--out` over stdio and HTTP, its `--har`) unless
//! `--keep-secrets` asks to keep them.

mod common;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use common::{http_server, modern, post, run, Proc, BIN};
use serde_json::Value;

const REDACTED: &str = "[redacted]";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-lanes-secrets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

/// Every transcript entry of a `run --format json` document.
fn entries(doc: &Value) -> Vec<Value> {
    doc["setups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|s| s["transcript"].as_array().cloned().unwrap_or_default())
        .collect()
}

#[test]
fn run_json_redacts_tokens_codes_and_verifiers_unless_kept() {
    let out = run(&["run", "--scenario", "auth-happy-path", "--format", "json"]);
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let all = entries(&doc);
    let tokens = all
        .iter()
        .find(|e| e["message"]["token_type"] == "Bearer")
        .expect("the token answer");
    assert_eq!(tokens["message"]["access_token"], REDACTED);
    assert_eq!(tokens["message"]["refresh_token"], REDACTED);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Bearer [redacted]"),
        "the retried call's header"
    );
    assert!(
        text.contains("code=[redacted]"),
        "the code in the redirect and the token request"
    );
    assert!(text.contains("code_verifier=[redacted]"));
    assert!(text.contains("code_challenge="), "a challenge is no secret");
    // Kept when asked.
    let kept = run(&[
        "run",
        "--scenario",
        "auth-happy-path",
        "--format",
        "json",
        "--keep-secrets",
    ]);
    let doc: Value = serde_json::from_slice(&kept.stdout).expect("JSON");
    let token = entries(&doc)
        .into_iter()
        .find(|e| e["message"]["token_type"] == "Bearer")
        .expect("the token answer");
    assert_ne!(token["message"]["access_token"], REDACTED);
    assert!(!String::from_utf8_lossy(&kept.stdout).contains(REDACTED));
}

fn tap_stdio(keep: bool, out: &str) {
    let mut args = vec!["tap", "--out", out];
    if keep {
        args.push("--keep-secrets");
    }
    args.extend(["--", BIN, "serve", "--preset", "reference"]);
    let mut child = Command::new(BIN)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tap runs");
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text","arguments":{"client_secret":"s3cr3t-value","url":"https://x/cb?code=c0de-value&state=1"}}}"#,
        "\n"
    );
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("written");
    drop(stdin);
    let done = child.wait_with_output().expect("tap ends");
    assert!(done.status.success(), "{done:?}");
}

#[test]
fn tap_out_over_stdio_redacts_unless_kept() {
    let out = scratch("stdio.json");
    let path = out.to_str().expect("UTF-8");
    tap_stdio(false, path);
    let text = std::fs::read_to_string(&out).expect("--out written");
    assert!(
        !text.contains("s3cr3t-value") && !text.contains("c0de-value"),
        "{text}"
    );
    assert!(text.contains(REDACTED));
    tap_stdio(true, path);
    let text = std::fs::read_to_string(&out).expect("--out written");
    assert!(text.contains("s3cr3t-value") && text.contains("c0de-value"));
}

#[test]
fn tap_out_and_har_over_http_redact_the_bearer_token() {
    let (_server, upstream) = http_server("reference");
    let url = format!("http://127.0.0.1:{upstream}/mcp");
    for keep in [false, true] {
        let out = scratch(&format!("http-{keep}.json"));
        let har = scratch(&format!("http-{keep}.har"));
        let (out_arg, har_arg) = (out.to_str().expect("UTF-8"), har.to_str().expect("UTF-8"));
        let mut args = vec![
            "tap",
            "--upstream",
            &url,
            "--port",
            "0",
            "--out",
            out_arg,
            "--har",
            har_arg,
        ];
        if keep {
            args.push("--keep-secrets");
        }
        let mut tap = Proc::spawn(&args);
        let port = common::tap_port(&mut tap);
        let discover = modern(
            1,
            "server/discover",
            serde_json::json!({}),
            serde_json::json!({}),
        );
        let answer = post(
            port,
            "2026-07-28",
            &discover,
            &[("Authorization", "Bearer tok-3n7-value")],
        );
        assert_eq!(answer.status, 200);
        tap.terminate();
        assert!(tap.wait_exit_status().success());
        for path in [&out, &har] {
            let text = std::fs::read_to_string(path).expect("written");
            assert_eq!(
                text.contains("tok-3n7-value"),
                keep,
                "{}: {text}",
                path.display()
            );
            assert_eq!(
                text.contains("Bearer [redacted]"),
                !keep,
                "{}",
                path.display()
            );
        }
    }
}
