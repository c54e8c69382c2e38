//! `check --url` grading a server's protection, proven by breaking it:
//! two protected servers written apart (`tests/peers/protected/server.py`,
//! Python standard library, and `server.mjs`, Node built-ins; the contract
//! is `tests/peers/protected/PROTECTED.md`), each with one switchable
//! fault per rule, and a process that is not MCP at all. Each broken
//! server must fail exactly its rule; the correct one passes everything.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{run_guarded, Done, Peer, BIN};
use mcp_lanes_core::check::{Outcome, Report};

const TOKENS: [&str; 6] = [
    "--token",
    "good-token",
    "--other-audience-token",
    "other-audience-token",
    "--low-scope-token",
    "low-scope-token",
];

const AUTH_RULES: [&str; 5] = [
    "A-AS-METADATA",
    "A-AUDIENCE",
    "A-CHALLENGE",
    "A-PRM",
    "A-SCOPE-STEP-UP",
];

/// The implementations present here (both required under
/// `MCP_LANES_REQUIRE_PEERS`).
fn servers() -> Vec<(&'static str, PathBuf)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/protected");
    let found: Vec<(&str, PathBuf)> = [("python3", "server.py"), ("node", "server.mjs")]
        .into_iter()
        .filter(|(program, _)| {
            Command::new(program)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .map(|(program, script)| (program, dir.join(script)))
        .collect();
    if std::env::var_os("MCP_LANES_REQUIRE_PEERS").is_some() {
        assert_eq!(found.len(), 2, "python3 and node are required");
    }
    found
}

/// What one check showed.
struct Seen {
    done: Done,
    report: Report,
}

impl Seen {
    fn failed(&self) -> BTreeSet<&str> {
        self.outcome(Outcome::Fail)
    }

    fn outcome(&self, outcome: Outcome) -> BTreeSet<&str> {
        self.report
            .verdicts
            .iter()
            .filter(|v| v.verdict == outcome)
            .map(|v| v.rule.as_str())
            .collect()
    }
}

fn check(program: &str, script: &Path, fault: Option<&str>, extra: &[&str]) -> Seen {
    let script = script.to_str().expect("utf-8 path");
    let mut peer_args = vec![script, "--port", "0"];
    if let Some(fault) = fault {
        peer_args.extend(["--fault", fault]);
    }
    let peer = Peer::start(Path::new(program), &peer_args);
    let url = format!("http://127.0.0.1:{}/mcp", peer.port);
    let mut cmd = Command::new(BIN);
    cmd.args([
        "check",
        "--url",
        &url,
        "--format",
        "json",
        "--timeout",
        "2500",
    ])
    .args(extra);
    let what = format!("check {program} {fault:?} {extra:?}");
    let done = run_guarded(cmd, &what, Duration::from_secs(120));
    let report = Report::from_json(&done.stdout)
        .unwrap_or_else(|| panic!("{what}: not a report: {}\n{}", done.stdout, done.stderr));
    Seen { done, report }
}

/// Each server with `fault` and every token fails exactly `rules`.
fn fails_exactly(fault: &str, rules: &[&str]) {
    for (program, script) in servers() {
        let seen = check(program, &script, Some(fault), &TOKENS);
        let want: BTreeSet<&str> = rules.iter().copied().collect();
        assert_eq!(
            seen.failed(),
            want,
            "{program} {fault}: {:#?}",
            seen.report.verdicts
        );
        assert_eq!(seen.done.status.code(), Some(1), "{program} {fault}");
    }
}

#[test]
fn a_challenge_correct_protected_server_passes_every_rule() {
    for (program, script) in servers() {
        let seen = check(program, &script, None, &TOKENS);
        assert!(
            seen.failed().is_empty(),
            "{program}: {:#?}",
            seen.report.verdicts
        );
        let passed = seen.outcome(Outcome::Pass);
        for rule in AUTH_RULES {
            assert!(passed.contains(rule), "{program}: {rule} not passed");
        }
        assert_eq!(
            seen.done.status.code(),
            Some(0),
            "{program}: {}",
            seen.done.stderr
        );
    }
}

#[test]
fn a_challenge_without_tokens_the_token_rules_are_not_applicable() {
    for (program, script) in servers() {
        let seen = check(program, &script, None, &[]);
        assert!(
            seen.failed().is_empty(),
            "{program}: {:#?}",
            seen.report.verdicts
        );
        for rule in ["A-AUDIENCE", "A-SCOPE-STEP-UP"] {
            let v = seen
                .report
                .verdicts
                .iter()
                .find(|v| v.rule == rule)
                .expect(rule);
            assert_eq!(v.verdict, Outcome::NotApplicable, "{program} {rule}");
            assert!(
                v.got.contains("no token given"),
                "{program} {rule}: {}",
                v.got
            );
        }
        assert!(!seen.outcome(Outcome::Pass).contains("A-AUDIENCE"));
        assert_eq!(seen.done.status.code(), Some(0), "{program}");
    }
}

#[test]
fn a_challenge_without_resource_metadata_fails_a_challenge() {
    fails_exactly("challenge-no-metadata", &["A-CHALLENGE"]);
}

#[test]
fn a_challenge_not_bearer_fails_a_challenge() {
    fails_exactly("challenge-not-bearer", &["A-CHALLENGE"]);
}

#[test]
fn a_prm_missing_metadata_fails_a_prm() {
    fails_exactly("no-metadata", &["A-PRM"]);
}

#[test]
fn a_audience_token_for_another_resource_accepted_fails_a_audience() {
    fails_exactly("any-audience", &["A-AUDIENCE"]);
}

#[test]
fn a_scope_step_up_401_instead_of_403_fails_a_scope_step_up() {
    fails_exactly("scope-401", &["A-SCOPE-STEP-UP"]);
}

#[test]
fn a_challenge_a_process_that_is_not_mcp_passes_nothing() {
    for (program, script) in servers() {
        let seen = check(program, &script, Some("not-mcp"), &TOKENS);
        let passed = seen.outcome(Outcome::Pass);
        for rule in AUTH_RULES {
            assert!(
                !passed.contains(rule),
                "{program}: {rule} passed for a non-MCP process"
            );
        }
        let failed = seen.failed();
        assert!(
            failed.contains("A-CHALLENGE") && failed.contains("A-PRM"),
            "{program}: {failed:?}"
        );
        assert_eq!(seen.done.status.code(), Some(1), "{program}");
    }
}

#[test]
fn a_challenge_check_authorize_says_why_it_got_no_token_and_skips_the_flows() {
    // The peers' authorization server has no registration endpoint and no
    // Client ID Metadata Documents: the flow cannot get a client ID.
    for (program, script) in servers() {
        let peer = Peer::start(
            Path::new(program),
            &[script.to_str().expect("utf-8 path"), "--port", "0"],
        );
        let mut cmd = Command::new(BIN);
        cmd.args([
            "check",
            "--url",
            &format!("http://127.0.0.1:{}/mcp", peer.port),
            "--authorize",
            "--timeout",
            "2500",
        ]);
        let done = run_guarded(cmd, "check --authorize", Duration::from_secs(120));
        assert!(
            done.stdout
                .contains("--authorize: the authorization flow gave no token"),
            "{program}: {}",
            done.stdout
        );
        assert!(
            done.stdout.contains("client ID"),
            "{program}: {}",
            done.stdout
        );
        assert!(
            !done.stdout.contains("fail A-"),
            "{program}: {}",
            done.stdout
        );
        assert_eq!(done.status.code(), Some(0), "{program}");
    }
}

#[test]
fn a_challenge_check_authorize_is_for_http_only() {
    let mut cmd = Command::new(BIN);
    cmd.args(["check", "--cmd", "cat", "--authorize"]);
    let done = run_guarded(cmd, "check --cmd --authorize", Duration::from_secs(30));
    assert_eq!(done.status.code(), Some(2), "{}", done.stderr);
    assert!(
        done.stderr.contains("--authorize applies to --url only"),
        "{}",
        done.stderr
    );
}

/// How the hostile server answers a GET of its metadata.
#[derive(Clone, Copy)]
enum Hostile {
    /// A JSON body that never ends (and claims 50 MB).
    Endless,
    /// Nothing at all: the connection stays open and silent.
    Silent,
}

/// A server that challenges correctly and then answers the metadata GET
/// in a hostile way; returns its port.
fn hostile(how: Hostile) -> u16 {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            std::thread::spawn(move || {
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && head.len() < 65536 {
                    match stream.read(&mut byte) {
                        Ok(1) => head.push(byte[0]),
                        _ => return,
                    }
                }
                if head.starts_with(b"POST") {
                    let text = String::from_utf8_lossy(&head).to_ascii_lowercase();
                    let length = text
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    let mut body = vec![0u8; length];
                    let _ = stream.read_exact(&mut body);
                    let answer = format!(
                        "HTTP/1.1 401 Unauthorized\r\nwww-authenticate: Bearer resource_metadata=\"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp\"\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                    );
                    let _ = stream.write_all(answer.as_bytes());
                    return;
                }
                match how {
                    Hostile::Endless => {
                        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 50000000\r\n\r\n{\"resource\":\"");
                        let chunk = [b'x'; 65536];
                        while stream.write_all(&chunk).is_ok() {}
                    }
                    Hostile::Silent => {
                        let mut sink = [0u8; 1024];
                        while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
                    }
                }
            });
        }
    });
    port
}

#[test]
fn a_prm_a_hostile_metadata_answer_fails_a_prm_within_the_limits() {
    for (how, timeout) in [(Hostile::Endless, "10000"), (Hostile::Silent, "1000")] {
        let port = hostile(how);
        let url = format!("http://127.0.0.1:{port}/mcp");
        let mut cmd = Command::new(BIN);
        cmd.args([
            "check",
            "--url",
            &url,
            "--format",
            "json",
            "--timeout",
            timeout,
        ]);
        let done = run_guarded(cmd, "check a hostile server", Duration::from_secs(60));
        let report = Report::from_json(&done.stdout)
            .unwrap_or_else(|| panic!("not a report: {}\n{}", done.stdout, done.stderr));
        let prm = report
            .verdicts
            .iter()
            .find(|v| v.rule == "A-PRM")
            .expect("an A-PRM verdict");
        assert_eq!(prm.verdict, Outcome::Fail, "{prm:?}");
        assert!(
            prm.got.contains("limit") || prm.got.contains("within"),
            "{}",
            prm.got
        );
        // Its challenge is right; nothing else may pass.
        assert!(
            report
                .verdicts
                .iter()
                .all(|v| v.verdict != Outcome::Pass || v.rule == "A-CHALLENGE"),
            "{:#?}",
            report.verdicts
        );
        assert_eq!(done.status.code(), Some(1));
    }
}

#[test]
fn a_challenge_tokens_are_refused_for_a_stdio_server() {
    let mut cmd = Command::new(BIN);
    cmd.args(["check", "--cmd", "cat", "--token", "t"]);
    let done = run_guarded(cmd, "check --cmd with --token", Duration::from_secs(30));
    assert_eq!(done.status.code(), Some(2), "{}", done.stderr);
    assert!(
        done.stderr.contains("--token applies to --url only"),
        "{}",
        done.stderr
    );
}

#[test]
fn a_challenge_an_open_server_gets_no_auth_verdict_unless_a_token_was_given() {
    let faulty =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/faulty/server.py");
    let faulty = faulty.to_str().expect("utf-8 path");
    let peer = Peer::start(Path::new("python3"), &[faulty, "--http", "--port", "0"]);
    let url = format!("http://127.0.0.1:{}/mcp", peer.port);
    for (extra, expect_auth) in [(&[][..], false), (&["--token", "t"][..], true)] {
        let mut cmd = Command::new(BIN);
        cmd.args([
            "check",
            "--url",
            &url,
            "--format",
            "json",
            "--timeout",
            "2500",
        ])
        .args(extra);
        let done = run_guarded(cmd, "check an open server", Duration::from_secs(120));
        let report = Report::from_json(&done.stdout).expect("a report");
        let auth: Vec<_> = report
            .verdicts
            .iter()
            .filter(|v| v.rule.starts_with("A-"))
            .collect();
        if expect_auth {
            assert_eq!(auth.len(), 5, "{auth:#?}");
            assert!(
                auth.iter().all(|v| v.verdict == Outcome::NotApplicable),
                "{auth:#?}"
            );
        } else {
            assert!(auth.is_empty(), "{auth:#?}");
        }
        assert_eq!(done.status.code(), Some(0), "{extra:?}: {}", done.stderr);
    }
}
