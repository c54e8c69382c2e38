//! `check --format junit` for a course's autograder: the XML validates
//! against a JUnit schema (`tests/peers/junit.xsd`, checked by the
//! `xmlschema` package of the peers' Python), one testcase per rule, a
//! failing rule's failure names expected, got, the exchange and the spec
//! link, n/a rules are skipped, and the exit codes stay those of the text
//! report.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::{peers_having, run_guarded, Done, BIN};

fn faulty(fault: &str) -> String {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/faulty/server.py");
    format!("python3 '{}' --fault {fault}", script.display())
}

fn junit(cmd: &str) -> Done {
    let mut command = Command::new(BIN);
    command.args([
        "check",
        "--cmd",
        cmd,
        "--tool",
        "page_oncall",
        "--args",
        r#"{"service":"api"}"#,
        "--format",
        "junit",
        "--timeout",
        "3000",
    ]);
    run_guarded(
        command,
        &format!("check --format junit {cmd}"),
        Duration::from_secs(120),
    )
}

/// Validates `xml` against the JUnit schema with the peers' Python.
fn validate(xml: &str) {
    let Some(peers) = peers_having(&[".venv/bin/python"]) else {
        return;
    };
    let xsd = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/junit.xsd");
    // One folder per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("mcp-lanes-junit-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("report.xml");
    std::fs::write(&file, xml).expect("write the report");
    let script = "import sys, xmlschema; xmlschema.XMLSchema(sys.argv[1]).validate(sys.argv[2]); print('valid')";
    let mut cmd = Command::new(peers.join(".venv/bin/python"));
    cmd.args(["-c", script]).arg(&xsd).arg(&file);
    let done = run_guarded(cmd, "xmlschema", Duration::from_secs(60));
    assert_eq!(done.status.code(), Some(0), "{}\n{xml}", done.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn s_answer_junit_of_a_faulty_server_validates_and_names_the_failure() {
    let done = junit(&faulty("cap-wrong-code"));
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    let xml = &done.stdout;
    validate(xml);
    assert!(xml.contains("<testsuites "), "{xml}");
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert!(xml.contains("<failure "), "{xml}");
    assert!(xml.contains("type=\"M-CAP-REQUIRED\""), "{xml}");
    for part in [
        "expected:",
        "got:",
        "at exchange #",
        "spec:     https://modelcontextprotocol.io/",
    ] {
        assert!(xml.contains(part), "{part}\n{xml}");
    }
    assert!(xml.contains("<skipped "), "n/a rules are skipped: {xml}");
    // One testcase per graded rule.
    assert_eq!(xml.matches("<testcase ").count(), 19, "{xml}");
}

#[test]
fn s_answer_junit_of_a_correct_server_has_no_failure_and_exits_0() {
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers/faulty/server.py");
    let done = junit(&format!("python3 '{}'", script.display()));
    assert_eq!(done.status.code(), Some(0), "{}", done.stdout);
    validate(&done.stdout);
    assert!(done.stdout.contains("failures=\"0\""), "{}", done.stdout);
    assert!(!done.stdout.contains("<failure"), "{}", done.stdout);
}

#[test]
fn m_cache_hints_junit_of_a_recording_with_an_expected_failure_validates() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/import/violations.json");
    let mut command = Command::new(BIN);
    command
        .args(["check", "--format", "junit", "--transcript"])
        .arg(&file);
    let done = run_guarded(command, "check --transcript", Duration::from_secs(60));
    // M-VERSION fails where nothing said it would; M-CACHE-HINTS only
    // where the recording marks a violation.
    assert_eq!(done.status.code(), Some(1), "{}", done.stderr);
    assert!(
        done.stdout.contains(
            "<skipped type=\"expected-failure\" message=\"expected failure at exchange #5"
        ),
        "{}",
        done.stdout
    );
    assert!(
        done.stdout.contains("type=\"M-VERSION\""),
        "{}",
        done.stdout
    );
    validate(&done.stdout);
}
