//! The check proven by breaking things: two faulty servers written
//! independently (`tests/peers/faulty/server.py`, Python standard library,
//! and `server.mjs`, Node built-ins; their contract is
//! `tests/peers/faulty/FAULTS.md`), each with one switchable fault per
//! graded rule, over stdio and over HTTP. Every fault must fail exactly the
//! rule it breaks (plus S-SCHEMA where the official schema requires the
//! same field), every other rule passes or is n/a, and a check that finds a
//! fault exits 1. Processes that are not MCP servers (an echo, silence,
//! garbage, a crash after the first line, answers to the wrong id) fail
//! S-ANSWER and exit 1: never "Nothing to fix".
//!
//! The table of rule, faults and whether each was caught is written to
//! `target/mutation/table.md` (README's table is that table).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use common::{run_guarded, Done, Peer, BIN};
use mcp_lanes_core::check::{Outcome, Report};

/// The faults of FAULTS.md, each with the rules it must fail over stdio
/// and over HTTP. S-SCHEMA joins where the official schema requires the
/// field the fault drops.
const FAULTS: &[(&str, &[&str], &[&str])] = &[
    ("no-answer-unknown-method", &["S-ANSWER"], &["S-ANSWER"]),
    ("declared-unanswered", &["S-DECLARED"], &["S-DECLARED"]),
    ("bad-schema", &["S-SCHEMA"], &["S-SCHEMA"]),
    (
        "init-no-server-info",
        &["L-INIT", "S-SCHEMA"],
        &["L-INIT", "S-SCHEMA"],
    ),
    ("echo-any-version", &["L-VERSION"], &["L-VERSION"]),
    ("elicit-undeclared", &["L-CAP-SESSION"], &["L-CAP-SESSION"]),
    (
        "discover-no-capabilities",
        &["M-DISCOVER", "S-SCHEMA"],
        &["M-DISCOVER", "S-SCHEMA"],
    ),
    (
        "no-result-type",
        &["M-RESULT-TYPE", "S-SCHEMA"],
        &["M-RESULT-TYPE", "S-SCHEMA"],
    ),
    (
        "no-cache-hints",
        &["M-CACHE-HINTS", "S-SCHEMA"],
        &["M-CACHE-HINTS", "S-SCHEMA"],
    ),
    (
        "version-wrong-data",
        &["M-VERSION", "S-SCHEMA"],
        &["M-VERSION", "S-SCHEMA"],
    ),
    ("meta-lenient", &["M-META-REQUIRED"], &["M-META-REQUIRED"]),
    (
        "unknown-method-32602",
        &["M-UNKNOWN-METHOD"],
        &["M-UNKNOWN-METHOD"],
    ),
    (
        "unknown-tool-32601",
        &["M-UNKNOWN-TOOL"],
        &["M-UNKNOWN-TOOL"],
    ),
    ("cap-wrong-code", &["M-CAP-REQUIRED"], &["M-CAP-REQUIRED"]),
    ("stateful-caps", &["M-STATELESS"], &["M-STATELESS"]),
    ("elicit-without-cap", &["M-MRTR-CAP"], &["M-MRTR-CAP"]),
    ("init-unnamed", &["M-INIT-ON-MODERN"], &["M-INIT-ON-MODERN"]),
    // HTTP faults: over stdio the server is the correct one.
    ("status-200", &[], &["H-STATUS"]),
    ("no-header-check", &[], &["H-HEADERS"]),
];

/// Processes that are not MCP servers: each must fail S-ANSWER.
const NOT_MCP: &[&str] = &["echo", "silent", "garbage", "crash-after-first", "wrong-id"];

/// The tool the check may call: it needs the elicitation capability.
const PAGE: [&str; 4] = ["--tool", "page_oncall", "--args", r#"{"service":"api"}"#];

/// A faulty server's implementation.
#[derive(Debug, Clone, Copy)]
struct Server {
    name: &'static str,
    program: &'static str,
    script: &'static str,
}

const SERVERS: [Server; 2] = [
    Server {
        name: "python",
        program: "python3",
        script: "server.py",
    },
    Server {
        name: "node",
        program: "node",
        script: "server.mjs",
    },
];

fn script(server: &Server) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/peers/faulty")
        .join(server.script)
}

fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// One case: a server, a transport, its extra arguments (a fault, or
/// `--modern-only`).
#[derive(Debug, Clone)]
struct Case {
    server: Server,
    http: bool,
    args: Vec<&'static str>,
}

/// What a check of a case showed.
struct Seen {
    done: Done,
    failed: BTreeSet<String>,
}

fn check(case: &Case) -> Seen {
    let path = script(&case.server);
    let path = path.to_str().expect("utf-8 path");
    let mut args: Vec<String> = Vec::new();
    let _peer = if case.http {
        let mut peer_args = vec![path, "--http", "--port", "0"];
        peer_args.extend(case.args.iter().copied());
        let peer = Peer::start(Path::new(case.server.program), &peer_args);
        args.extend([
            "--url".into(),
            format!("http://127.0.0.1:{}/mcp", peer.port),
        ]);
        Some(peer)
    } else {
        let mut cmd = format!("{} '{path}'", case.server.program);
        for a in &case.args {
            cmd.push(' ');
            cmd.push_str(a);
        }
        args.extend(["--cmd".into(), cmd]);
        None
    };
    args.extend(PAGE.iter().map(|s| s.to_string()));
    args.extend(["--format", "json", "--timeout", "2500"].map(String::from));
    let mut cmd = Command::new(BIN);
    cmd.arg("check").args(&args);
    let done = run_guarded(cmd, &format!("check {case:?}"), Duration::from_secs(120));
    let report = Report::from_json(&done.stdout)
        .unwrap_or_else(|| panic!("{case:?}: not a report: {}\n{}", done.stdout, done.stderr));
    let failed = report
        .verdicts
        .iter()
        .filter(|v| v.verdict == Outcome::Fail)
        .map(|v| v.rule.clone())
        .collect();
    Seen { done, failed }
}

/// Runs `cases` two at a time (the machines have two cores).
fn run_all(cases: Vec<Case>) -> Vec<(Case, Seen)> {
    let queue = Mutex::new(cases.into_iter().enumerate().collect::<Vec<_>>());
    let results = Mutex::new(Vec::new());
    thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let next = queue.lock().ok().and_then(|mut q| q.pop());
                let Some((n, case)) = next else { break };
                let outcome = check(&case);
                if let Ok(mut r) = results.lock() {
                    r.push((n, case, outcome));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(n, _, _)| *n);
    results.into_iter().map(|(_, c, o)| (c, o)).collect()
}

fn servers() -> Vec<Server> {
    let found: Vec<Server> = SERVERS
        .iter()
        .copied()
        .filter(|s| available(s.program))
        .collect();
    if std::env::var_os("MCP_LANES_REQUIRE_PEERS").is_some() {
        assert_eq!(found.len(), SERVERS.len(), "python3 and node are required");
    }
    found
}

fn name(case: &Case) -> String {
    format!(
        "{} {} {}",
        case.server.name,
        if case.http { "http" } else { "stdio" },
        case.args.join(" ")
    )
}

#[test]
fn s_answer_every_fault_is_caught_by_exactly_its_rule_on_both_transports() {
    let mut cases = Vec::new();
    for server in servers() {
        for http in [false, true] {
            for (fault, _, _) in FAULTS {
                cases.push(Case {
                    server,
                    http,
                    args: vec!["--fault", fault],
                });
            }
        }
    }
    let results = run_all(cases);
    let mut problems = Vec::new();
    let mut table: Vec<(String, String, bool)> = Vec::new();
    for (case, outcome) in &results {
        let fault = case.args[1];
        let (_, on_stdio, on_http) = FAULTS
            .iter()
            .find(|(f, _, _)| *f == fault)
            .expect("a fault of the table");
        let want: BTreeSet<String> = (if case.http { on_http } else { on_stdio })
            .iter()
            .map(|r| r.to_string())
            .collect();
        let exit = outcome.done.status.code();
        let want_exit = if want.is_empty() { Some(0) } else { Some(1) };
        let caught = outcome.failed == want && exit == want_exit;
        if !caught {
            problems.push(format!(
                "{}: failed {:?}, expected {:?}; exit {exit:?}, expected {want_exit:?}",
                name(case),
                outcome.failed,
                want
            ));
        }
        if let Some(rule) = want
            .iter()
            .find(|r| r.as_str() != "S-SCHEMA")
            .or(want.first())
        {
            table.push((rule.clone(), format!("{fault} ({})", name(case)), caught));
        }
    }
    write_table(&table);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn s_answer_correct_servers_pass_clean_on_both_transports() {
    let mut cases = Vec::new();
    for server in servers() {
        for http in [false, true] {
            for args in [vec![], vec!["--modern-only"]] {
                cases.push(Case { server, http, args });
            }
        }
    }
    for (case, outcome) in run_all(cases) {
        assert!(
            outcome.failed.is_empty() && outcome.done.status.code() == Some(0),
            "{}: {:?}\n{}",
            name(&case),
            outcome.failed,
            outcome.done.stderr
        );
    }
}

#[test]
fn s_answer_processes_that_are_not_mcp_fail_and_exit_1() {
    let mut cases = Vec::new();
    for server in servers() {
        for http in [false, true] {
            for mode in NOT_MCP {
                cases.push(Case {
                    server,
                    http,
                    args: vec!["--fault", mode],
                });
            }
        }
    }
    for (case, outcome) in run_all(cases) {
        assert!(
            outcome.failed.contains("S-ANSWER") && outcome.done.status.code() == Some(1),
            "{}: failed {:?}, exit {:?}\n{}",
            name(&case),
            outcome.failed,
            outcome.done.status.code(),
            outcome.done.stdout
        );
    }
}

#[test]
fn s_answer_cat_is_not_an_mcp_server() {
    let mut cmd = Command::new(BIN);
    cmd.args(["check", "--cmd", "cat", "--timeout", "2000"]);
    let done = run_guarded(cmd, "check --cmd cat", Duration::from_secs(60));
    assert_eq!(done.status.code(), Some(1), "{}", done.stdout);
    assert!(!done.stdout.contains("Nothing to fix"), "{}", done.stdout);
    assert!(done.stdout.contains("FAIL S-ANSWER"), "{}", done.stdout);
}

/// `target/mutation/table.md`: rule, the faults that break it, caught.
fn write_table(rows: &[(String, String, bool)]) {
    let mut by_rule: Vec<(String, Vec<String>, bool)> = Vec::new();
    for (rule, fault, caught) in rows {
        match by_rule.iter_mut().find(|(r, _, _)| r == rule) {
            Some((_, faults, all)) => {
                faults.push(fault.clone());
                *all &= *caught;
            }
            None => by_rule.push((rule.clone(), vec![fault.clone()], *caught)),
        }
    }
    by_rule.sort();
    let mut out = String::from("| rule | faults that break it | caught |\n|---|---|---|\n");
    for (rule, faults, caught) in by_rule {
        out.push_str(&format!(
            "| {rule} | {} | {} |\n",
            faults.join("<br>"),
            if caught { "yes" } else { "no" }
        ));
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/mutation");
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(dir.join("table.md"), out);
}
