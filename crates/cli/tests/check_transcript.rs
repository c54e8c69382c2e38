//! `mcp-lanes check --transcript FILE`: recorded conversations written by
//! hand (`tests/fixtures/import/`) graded offline, with the exit-code
//! contract of `check` (docs/src/exit-codes.md): 0 nothing failed, 1 a
//! rule failed, 2 unreadable or not a recording.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

fn fixture(name: &str) -> String {
    format!(
        "{}/../../tests/fixtures/import/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn code(out: &std::process::Output) -> i32 {
    out.status.code().unwrap_or(-1)
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn l_init_a_clean_legacy_transcript_exits_0() {
    let out = common::run(&["check", "--transcript", &fixture("legacy-2025-11-25.json")]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}");
    assert!(text.contains("Era: legacy"), "{text}");
    assert!(text.contains("pass L-INIT (1 exchange)"), "{text}");
    assert!(text.contains("Nothing to fix."), "{text}");
    assert!(!text.contains("Flows:"), "{text}");
}

#[test]
fn m_cache_hints_a_marked_violation_is_an_expected_failure_in_text_json_and_junit() {
    let file = fixture("violations.json");
    let out = common::run(&["check", "--transcript", &file]);
    let text = stdout(&out);
    // M-VERSION broke where nothing said it would: exit 1.
    assert_eq!(code(&out), 1, "{text}");
    assert!(text.contains("FAIL M-VERSION at exchange #7"), "{text}");
    assert!(
        text.contains("expected failure M-CACHE-HINTS at exchange #5"),
        "{text}"
    );
    assert!(!text.contains("FAIL M-CACHE-HINTS"), "{text}");
    assert!(!text.contains("FAIL S-SCHEMA at exchange #5"), "{text}");
    let out = common::run(&["check", "--transcript", &file, "--format", "json"]);
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["format"], "transcript");
    let verdicts = json["verdicts"].as_array().expect("verdicts");
    assert!(verdicts
        .iter()
        .any(|v| v["rule"] == "M-CACHE-HINTS" && v["verdict"] == "expected-failure"));
    // The page opens what --format json prints.
    let report = mcp_lanes_core::check::Report::from_json(&stdout(&out)).expect("a report");
    assert_eq!(report.verdicts.len(), verdicts.len());
    let out = common::run(&["check", "--transcript", &file, "--format", "junit"]);
    let xml = stdout(&out);
    assert!(
        xml.contains(
            "<skipped type=\"expected-failure\" message=\"expected failure at exchange #5"
        ),
        "{xml}"
    );
    assert!(xml.contains("failures=\"2\""), "{xml}");
}

#[test]
fn h_headers_a_chromium_har_exits_0_and_says_what_it_left_out() {
    let out = common::run(&[
        "check",
        "--transcript",
        &fixture("chromium-streamable-http.har"),
    ]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}");
    assert!(text.contains("pass H-HEADERS"), "{text}");
    assert!(
        text.contains("2 of the capture's 7 entries are not MCP"),
        "{text}"
    );
}

#[test]
fn undecided_messages_are_named_and_not_graded() {
    let out = common::run(&[
        "check",
        "--transcript",
        &fixture("undecided.json"),
        "--lang",
        "zh",
    ]);
    let text = stdout(&out);
    assert_eq!(code(&out), 0, "{text}");
    assert!(text.contains("acme/heartbeat"), "{text}");
    assert!(
        !text.contains("is drawn between the two sides"),
        "zh: {text}"
    );
}

#[test]
fn stdin_and_unrecognised_input_exit_2_with_one_sentence() {
    let mut child = Command::new(common::BIN)
        .args(["check", "--transcript", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/list\"}, 42]")
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    // Recognised, drawn up to the bad entry; the request has no answer.
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("Entry 1 of stdin does not fit (it is a number, not an object)"),
        "{}",
        stdout(&out)
    );
    for (args, says) in [
        (
            vec!["check", "--transcript", "/no/such/file.json"],
            "there is no such file",
        ),
        (
            vec!["check", "--transcript", &fixture("README.md")],
            "is not JSON",
        ),
    ] {
        let out = common::run(&args);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(code(&out), 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

#[test]
fn run_file_on_a_transcript_points_at_check_transcript() {
    let file = fixture("modern-2026-07-28.json");
    let out = common::run(&["run", "--file", &file]);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(code(&out), 2, "{err}");
    assert!(
        err.contains(&format!(
            "grade it with `mcp-lanes check --transcript {file}`"
        )),
        "{err}"
    );
}

#[test]
fn a_run_document_is_graded_lane_by_lane() {
    let out = common::run(&["run", "--scenario", "plain-vs-rich", "--format", "json"]);
    assert_eq!(code(&out), 0);
    let dir = std::env::temp_dir().join(format!("mcp-lanes-transcript-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("run.json");
    std::fs::write(&path, &out.stdout).expect("write");
    let report = dir.join("report.json");
    let path = path.to_string_lossy().into_owned();
    let out = common::run(&[
        "check",
        "--transcript",
        &path,
        "--out",
        &report.to_string_lossy(),
    ]);
    let text = stdout(&out);
    assert_ne!(code(&out), 2, "{text}");
    // One lane per set-up, each opened as a check's flows are.
    assert!(text.contains("Flows:\n  #0    Flow 1 of 2: "), "{text}");
    let written = std::fs::read_to_string(&report).expect("--out written");
    assert!(mcp_lanes_core::check::Report::from_json(&written).is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn s_schema_an_authorization_flow_grades_clean_and_its_oauth_documents_are_not_mcp_messages() {
    // The simulated OAuth flow between client, MCP server and
    // authorization server: the 401 challenge is no unanswered request,
    // and the metadata documents and token answers are not judged by the
    // MCP schema.
    let path = format!(
        "{}/../../tests/fixtures/actors/auth-flow.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = common::run(&["check", "--transcript", &path, "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&out)).expect("a report");
    let failed: Vec<&Value> = report["verdicts"]
        .as_array()
        .expect("verdicts")
        .iter()
        .filter(|v| v["verdict"] == "fail")
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(code(&out), 0);
    // An MCP result that breaks its schema in such a recording still fails.
    let mut flow: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the fixture")).expect("JSON");
    let broken = flow[0]["events"]
        .as_array_mut()
        .expect("events")
        .iter_mut()
        .rev()
        .find(|e| {
            e["from"] == "server"
                && e["wire"]
                    .as_str()
                    .is_some_and(|w| w.contains("\"result\"") && w.contains("jsonrpc"))
        })
        .expect("an MCP result");
    let wire = r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":"none"}}"#;
    broken["wire"] = Value::from(wire);
    let mut file = tempfile(&flow.to_string());
    let out = common::run(&["check", "--transcript", &file.path, "--format", "json"]);
    let report: Value = serde_json::from_str(&stdout(&out)).expect("a report");
    assert!(
        report["verdicts"]
            .as_array()
            .expect("verdicts")
            .iter()
            .any(|v| v["rule"] == "S-SCHEMA" && v["verdict"] == "fail"),
        "{report}"
    );
    file.remove();
}

/// A file of `text` in the temporary folder, removed by [`Temp::remove`].
struct Temp {
    path: String,
}

impl Temp {
    fn remove(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

fn tempfile(text: &str) -> Temp {
    let path = std::env::temp_dir().join(format!(
        "mcp-lanes-check-transcript-{}.json",
        std::process::id()
    ));
    std::fs::write(&path, text).expect("a temporary file");
    Temp {
        path: path.display().to_string(),
    }
}
