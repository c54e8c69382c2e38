//! `mcp-lanes check`: the lesson flows against real servers, graded rule by
//! rule. Against correct servers nothing fails; against a server with one
//! known fault exactly that fault's rule fails; against hostile servers the
//! command ends on its own with a clear verdict. Every run has a wall-clock
//! guard: a check that hangs fails the test instead of hanging it.

mod common;

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

use common::{english_run, http_server, peers, run_guarded, Done, Peer, BIN};
use mcp_lanes_core::check::{Outcome, Report};

impl Done {
    /// The report (`--format json` was given).
    fn report(&self) -> Report {
        Report::from_json(&self.stdout)
            .unwrap_or_else(|| panic!("not a report: {}\n{}", self.stdout, self.stderr))
    }

    /// The rules that failed.
    fn failed(&self) -> BTreeSet<String> {
        self.report()
            .verdicts
            .iter()
            .filter(|v| v.verdict == Outcome::Fail)
            .map(|v| v.rule.clone())
            .collect()
    }
}

/// Runs `mcp-lanes check ARGS`, killing it (and failing) after `guard`.
fn check_with(args: &[&str], guard: Duration) -> Done {
    let mut cmd = Command::new(BIN);
    cmd.arg("check").args(args);
    run_guarded(cmd, &format!("mcp-lanes check {args:?}"), guard)
}

/// `check ARGS --format json` with a generous guard.
fn check_json(args: &[&str]) -> Done {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    check_with(&all, Duration::from_secs(180))
}

fn url(port: u16) -> String {
    format!("http://127.0.0.1:{port}/mcp")
}

fn set(rules: &[&str]) -> BTreeSet<String> {
    rules.iter().map(|r| r.to_string()).collect()
}

/// The command line of `serve` over stdio with `args`.
fn serve_cmd(args: &str) -> String {
    format!("'{BIN}' serve {args}")
}

// ---- the simulator's own presets ------------------------------------------

#[test]
fn s_answer_every_serve_preset_passes_over_stdio_and_http() {
    for preset in [
        "deploy-console",
        "order-desk",
        "notes",
        "search-index",
        "dual-era",
        "reference",
    ] {
        let stdio = check_json(&["--cmd", &serve_cmd(&format!("--preset {preset}"))]);
        assert_eq!(stdio.failed(), set(&[]), "{preset} stdio\n{}", stdio.stderr);
        assert_eq!(stdio.status.code(), Some(0), "{preset}: {}", stdio.stderr);
        let (_server, port) = http_server(preset);
        let http = check_json(&["--url", &url(port)]);
        assert_eq!(http.failed(), set(&[]), "{preset} http\n{}", http.stderr);
        let report = http.report();
        assert!(report
            .verdicts
            .iter()
            .any(|v| v.rule == "S-ANSWER" && v.verdict == Outcome::Pass));
    }
}

#[test]
fn m_stateless_deploy_console_refuses_again_once_the_capability_is_dropped() {
    let done = check_json(&[
        "--cmd",
        &serve_cmd("--preset deploy-console"),
        "--tool",
        "notify_oncall",
        "--args",
        r#"{"service":"api","message":"check"}"#,
    ]);
    assert_eq!(done.failed(), set(&[]), "{}", done.stderr);
    let report = done.report();
    for rule in ["M-STATELESS", "M-CAP-REQUIRED"] {
        assert!(
            report
                .verdicts
                .iter()
                .any(|v| v.rule == rule && v.verdict == Outcome::Pass),
            "{rule}"
        );
    }
}

#[test]
fn l_cap_session_the_unchecked_elicitation_server_shows_exactly_its_fault() {
    // The lesson's unchecked server: the search-index preset with its
    // capability check turned off (scenario 13's server, from its export).
    let exported = common::run(&["export", "--scenario", "elicitation-unchecked"]);
    assert!(exported.status.success());
    let file = temp_file("unchecked.json");
    std::fs::write(&file, &exported.stdout).expect("write the scenario");
    let args = format!("--file '{}' --server search-index-2", file.display());
    let tool = [
        "--tool",
        "purge_index",
        "--args",
        r#"{"index":"prod-catalog"}"#,
    ];
    let mut stdio_args = vec!["--cmd".to_string(), serve_cmd(&args)];
    stdio_args.extend(tool.iter().map(|s| s.to_string()));
    let stdio = check_json(&stdio_args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(stdio.failed(), set(&["L-CAP-SESSION"]), "{}", stdio.stdout);
    assert_eq!(stdio.status.code(), Some(1));
    // Without --tool the destructive tool is never called: nothing to see.
    let safe = check_json(&["--cmd", &serve_cmd(&args)]);
    assert_eq!(safe.failed(), set(&[]));
    let calls = safe
        .report()
        .timeline
        .messages()
        .filter(|(_, m)| m.label == "tools/call")
        .count();
    assert_eq!(calls, 0);
}

#[test]
fn l_cap_session_a_check_in_chinese_says_what_to_fix_in_chinese() {
    // The text report follows --lang: headings, the flows' names, what
    // each failed rule expected and what came, the rules' summaries, the
    // n/a reasons. A server's own words stay as they are.
    let exported = common::run(&["export", "--scenario", "elicitation-unchecked"]);
    assert!(exported.status.success());
    let file = temp_file("unchecked-zh.json");
    std::fs::write(&file, &exported.stdout).expect("write the scenario");
    let server = serve_cmd(&format!(
        "--file '{}' --server search-index-2",
        file.display()
    ));
    let args = [
        "--cmd",
        server.as_str(),
        "--tool",
        "purge_index",
        "--args",
        r#"{"index":"prod-catalog"}"#,
        "--lang",
        "zh",
    ];
    let done = check_with(&args, Duration::from_secs(180));
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    let text = &done.stdout;
    for said in [
        "正在检查 ",
        "需要修复的：",
        "失败 L-CAP-SESSION",
        "期望：",
        "实际：",
        "服务器做对的：",
        "条规则通过",
    ] {
        assert!(text.contains(said), "{said:?} missing from:\n{text}");
    }
    // The flows' names are in Chinese too (their ids stay as they are).
    assert!(
        text.contains("个流程（共 ") && text.contains("discover：时代探测"),
        "{text}"
    );
    let english: Vec<String> = text
        .lines()
        // The server's stderr, its own words.
        .filter(|l| !l.starts_with("  | "))
        .filter_map(|l| english_run(l).map(|run| format!("{run:?} in {l:?}")))
        .collect();
    assert!(
        english.is_empty(),
        "English left:\n{}\n\n{text}",
        english.join("\n")
    );
    // The JSON report is the same in every language.
    let json = check_json(&args[..6]);
    assert!(json.stdout.contains("\"expected\":"));
    assert!(!json.stdout.contains("期望"));
}

// ---- deliberately faulty servers: tests/mutation.rs --------------------------

fn python3() -> Option<&'static str> {
    let ok = Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some("python3")
}

#[test]
fn s_schema_the_typescript_sdk_v2_server_passes_over_stdio_and_http() {
    let Some(dir) = peers() else { return };
    let script = dir.join("smoke/server-v2.mjs");
    let stdio = check_json(&["--cmd", &format!("node '{}'", script.display())]);
    assert_eq!(stdio.failed(), set(&[]), "{}", stdio.stdout);
    // The v2 SDK serves stdio as a legacy session.
    assert_eq!(stdio.report().era, "legacy");
    let peer = Peer::start(
        Path::new("node"),
        &[script.to_str().expect("path"), "--http", "--port", "0"],
    );
    let http = check_json(&["--url", &url(peer.port)]);
    assert_eq!(http.failed(), set(&[]), "{}", http.stdout);
    let report = http.report();
    assert_eq!(report.era, "dual-era");
    for rule in [
        "M-DISCOVER",
        "M-VERSION",
        "M-UNKNOWN-TOOL",
        "H-HEADERS",
        "S-SCHEMA",
    ] {
        assert!(
            report
                .verdicts
                .iter()
                .any(|v| v.rule == rule && v.verdict == Outcome::Pass),
            "{rule}"
        );
    }
    // Nothing was called that could page anyone.
    assert!(!peer.stderr().contains("paged"), "{}", peer.stderr());
}

#[test]
fn m_unknown_tool_the_python_sdk_server_fails_only_the_unknown_tool_rule() {
    // FastMCP 2.3.0 answers an unknown tool with a tool error (isError)
    // where the spec lists unknown tools among protocol errors (-32602):
    // the one departure the check finds in it, on both transports.
    let Some(dir) = peers() else { return };
    let python = dir.join(".venv/bin/python");
    let script = dir.join("smoke/server.py");
    let stdio = check_json(&[
        "--cmd",
        &format!("'{}' '{}'", python.display(), script.display()),
    ]);
    assert_eq!(stdio.failed(), set(&["M-UNKNOWN-TOOL"]), "{}", stdio.stdout);
    let peer = Peer::start(
        &python,
        &[script.to_str().expect("path"), "--http", "--port", "0"],
    );
    let http = check_json(&["--url", &url(peer.port)]);
    assert_eq!(http.failed(), set(&["M-UNKNOWN-TOOL"]), "{}", http.stdout);
    assert!(!peer.stderr().contains("paged"), "{}", peer.stderr());
}

// ---- hostile servers ---------------------------------------------------------

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-lanes-check-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

/// Checks a hostile target with a 500 ms exchange deadline: it must end on
/// its own, within seconds, with exit status 1 and a failed S-ANSWER.
fn hostile_check(target: &[&str]) -> Done {
    let mut args = target.to_vec();
    args.extend(["--timeout", "500"]);
    let done = check_with(&args, Duration::from_secs(60));
    assert!(
        done.elapsed < Duration::from_secs(30),
        "took {:?}\n{}\n{}",
        done.elapsed,
        done.stdout,
        done.stderr
    );
    assert_eq!(
        done.status.code(),
        Some(1),
        "{}\n{}",
        done.stdout,
        done.stderr
    );
    assert!(done.stdout.contains("FAIL S-ANSWER"), "{}", done.stdout);
    done
}

fn hostile(serve: fn(TcpStream)) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || serve(stream));
        }
    });
    port
}

fn read_head(stream: &mut TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    while let Ok(n) = stream.read(&mut buf) {
        if n == 0 {
            return;
        }
        seen.extend_from_slice(&buf[..n]);
        if seen.windows(4).any(|w| w == b"\r\n\r\n") || seen.len() > 65536 {
            return;
        }
    }
}

#[test]
fn s_answer_a_silent_command_fails_within_its_deadlines() {
    let done = hostile_check(&["--cmd", "sleep 60"]);
    assert!(
        done.stdout.contains("no answer before the deadline"),
        "{}",
        done.stdout
    );
}

#[test]
fn s_answer_a_command_that_dies_is_named_with_its_stderr() {
    let done = hostile_check(&["--cmd", "sh -c 'echo cannot open the database >&2; exit 3'"]);
    assert!(
        done.stdout.contains("cannot open the database"),
        "{}",
        done.stdout
    );
}

#[test]
fn s_answer_a_command_flooding_garbage_is_stopped() {
    let done = hostile_check(&["--cmd", "yes garbage"]);
    assert!(done.stdout.contains("not JSON-RPC"), "{}", done.stdout);
}

#[test]
fn s_answer_a_command_writing_an_endless_line_is_cut_off() {
    hostile_check(&["--cmd", "sh -c 'head -c 20000000 /dev/zero; sleep 60'"]);
}

#[test]
fn s_answer_an_http_server_that_is_not_mcp_fails() {
    let port = hostile(|mut s| {
        read_head(&mut s);
        let body = "<html><body>Welcome to nginx!</body></html>";
        let _ = s.write_all(
            format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        );
    });
    let done = hostile_check(&["--url", &url(port)]);
    assert!(done.stdout.contains("Welcome to nginx"), "{}", done.stdout);
}

#[test]
fn s_answer_a_silent_http_server_and_garbage_bytes_fail() {
    let silent = hostile(|mut s| {
        read_head(&mut s);
        thread::sleep(Duration::from_secs(60));
    });
    hostile_check(&["--url", &url(silent)]);
    let garbage = hostile(|mut s| {
        read_head(&mut s);
        let _ = s.write_all(b"\x00\xff\xfeSSH-2.0-garbage\r\n\r\n not http at all");
    });
    hostile_check(&["--url", &url(garbage)]);
}

#[test]
fn usage_errors_and_unreachable_servers_exit_2() {
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    };
    for args in [
        vec!["--url", &url(port) as &str],
        vec!["--cmd", "/nonexistent/server"],
        vec![],
        vec!["--url", "http://a/mcp", "--cmd", "x"],
        vec!["--cmd", "x", "--flow", "nope"],
        vec!["--cmd", "x", "--args", "{}"],
        vec!["--cmd", "x", "--tool", "t", "--args", "[1]"],
        vec!["--cmd", "x", "--format", "yaml"],
    ] {
        let done = check_with(&args, Duration::from_secs(30));
        assert_eq!(done.status.code(), Some(2), "{args:?}: {}", done.stderr);
        assert!(!done.stderr.is_empty());
    }
}

#[test]
fn the_report_is_the_page_s_format_and_out_writes_it() {
    let out = temp_file("report.json");
    let done = check_with(
        &[
            "--cmd",
            &serve_cmd("--preset deploy-console"),
            "--out",
            out.to_str().expect("path"),
        ],
        Duration::from_secs(60),
    );
    assert_eq!(done.status.code(), Some(0), "{}", done.stderr);
    // Text reads like feedback.
    assert!(
        done.stdout.contains("What the server got right:"),
        "{}",
        done.stdout
    );
    assert!(done.stdout.contains("Nothing to fix."), "{}", done.stdout);
    assert!(done.stdout.contains("Skipped:"), "{}", done.stdout);
    let text = std::fs::read_to_string(&out).expect("the report");
    let value: serde_json::Value = serde_json::from_str(&text).expect("json");
    for key in ["target", "era", "verdicts", "timeline"] {
        assert!(value.get(key).is_some(), "{key}");
    }
    let report = Report::from_json(&text).expect("a report");
    assert_eq!(report.era, "modern");
    for v in &report.verdicts {
        if let Some(at) = v.exchange {
            assert!(at < report.timeline.events.len());
        }
    }
}

// ---- the README's example: lesson 07's DeployServer ------------------------

#[test]
fn m_init_on_modern_the_lesson_deploy_server_fails_exactly_its_mistake() {
    let Some(python) = python3() else { return };
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/lesson/deploy_server.py");
    let tool = [
        "--tool",
        "notify_oncall",
        "--args",
        r#"{"service":"checkout","message":"p99 over 2 s"}"#,
    ];
    let run = |extra: &str| {
        let cmd = format!("{python} '{}' {extra}", script.display());
        let mut args = vec!["--cmd", cmd.as_str()];
        args.extend(tool);
        // A hang guard, not a timing: the check takes about 1.5 s, but a
        // 10 s guard failed on a loaded 2-core machine. A flow that waited
        // on nothing would end in a timed-out verdict, which the exact set
        // of failed rules below rejects.
        let text = check_with(&args, Duration::from_secs(60));
        (text, check_json(&args))
    };
    let (text, json) = run("");
    assert_eq!(json.failed(), set(&["M-INIT-ON-MODERN"]), "{}", json.stdout);
    assert_eq!(text.status.code(), Some(1));
    // It paged once: the call that declared elicitation and confirmed.
    assert_eq!(
        text.stdout.matches("| paged checkout").count(),
        1,
        "{}",
        text.stdout
    );
    for rule in ["M-MRTR-CAP", "M-STATELESS", "M-CAP-REQUIRED", "S-SCHEMA"] {
        assert!(
            text.stdout.contains(&format!("pass {rule} (")),
            "{rule}\n{}",
            text.stdout
        );
    }
    let (fixed, fixed_json) = run("--fixed");
    assert_eq!(fixed_json.failed(), set(&[]), "{}", fixed_json.stdout);
    assert_eq!(fixed.status.code(), Some(0));
    assert!(
        fixed
            .stdout
            .contains("14 rule(s) passed, 0 failed, 5 not exercised. Nothing to fix."),
        "{}",
        fixed.stdout
    );
}
