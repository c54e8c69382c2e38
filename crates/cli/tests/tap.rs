//! `mcp-lanes tap -- COMMAND ARGS`: the bytes pass unchanged and in order
//! both ways, tap writes nothing to the protocol stream, survives what is
//! not MCP (lines that are not JSON, a last line without its newline, a
//! line of 5 MB), exits with the server's status, and records the
//! conversation as timeline JSON that `check --transcript` grades. A real
//! client, the official Python SDK (mcp 2.3.0), talks to the reference
//! server through it.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::BIN;
use serde_json::Value;

/// Runs `args` with `input` on stdin to the end.
fn with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mcp-lanes runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().expect("it ends");
    writer.join().expect("the input was written");
    output
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-lanes-tap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

/// A client's side of a session, with what is not MCP in it.
fn session() -> Vec<u8> {
    let mut input = Vec::new();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tap-test","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "this is not JSON",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"test_simple_text\",\"arguments\":{\"pad\":\"");
    input.extend(std::iter::repeat_n(b'x', 5 * 1024 * 1024));
    input.extend_from_slice(b"\"}}}\n{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}");
    input
}

#[test]
fn tap_passes_every_byte_unchanged_both_ways_and_records_the_conversation() {
    let input = session();
    let direct = with_input(&["serve", "--preset", "reference"], &input);
    let out = scratch("session.json");
    let out_arg = out.to_str().expect("a UTF-8 path");
    let tapped = with_input(
        &[
            "tap",
            "--out",
            out_arg,
            "--",
            BIN,
            "serve",
            "--preset",
            "reference",
        ],
        &input,
    );
    assert!(tapped.status.success(), "{tapped:?}");
    assert!(!direct.stdout.is_empty());
    assert_eq!(
        tapped.stdout, direct.stdout,
        "the server's stdout, byte for byte"
    );
    let said = String::from_utf8_lossy(&tapped.stderr);
    // The server's own log passes through on stderr, with tap's notes.
    assert!(said.contains("serving mcp-lanes-reference"), "{said}");
    assert!(
        said.contains("mcp-lanes tap: line 3 from the client is not JSON"),
        "{said}"
    );
    assert!(
        said.contains("mcp-lanes tap: line 5 from the client is 5242"),
        "{said}"
    );
    assert!(
        said.contains("the client ended with 40 bytes after its last newline"),
        "{said}"
    );
    assert!(said.contains("messages written to"), "{said}");
    let timelines: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("--out written")).expect("JSON");
    let events = timelines[0]["events"]
        .as_array()
        .expect("one lane of events");
    let sides: Vec<&str> = events.iter().filter_map(|e| e["from"].as_str()).collect();
    assert_eq!(sides.first(), Some(&"client"), "{sides:?}");
    assert!(sides.contains(&"server"), "{sides:?}");
    // Graded offline by the check's grader: the reference server is clean.
    let graded = Command::new(BIN)
        .args(["check", "--transcript", out_arg])
        .output()
        .expect("check runs");
    assert!(
        graded.status.success(),
        "{}",
        String::from_utf8_lossy(&graded.stdout)
    );
}

#[test]
fn tap_exits_with_the_servers_status_and_survives_what_is_not_mcp() {
    let failing = with_input(
        &["tap", "--", "sh", "-c", "cat >/dev/null; exit 3"],
        b"{}\n",
    );
    assert_eq!(failing.status.code(), Some(3));
    // `cat` echoes: not MCP, and the bytes still pass unchanged.
    let echo = with_input(&["tap", "--", "cat"], b"hello\n\x00\xff binary\nno newline");
    assert!(echo.status.success());
    assert_eq!(echo.stdout, b"hello\n\x00\xff binary\nno newline");
    let said = String::from_utf8_lossy(&echo.stderr);
    assert!(
        said.contains("line 1 from the client is not JSON"),
        "{said}"
    );
    assert!(
        said.contains("line 1 from the server is not JSON"),
        "{said}"
    );
    let missing = with_input(&["tap", "--", "/nonexistent/server"], b"");
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot start /nonexistent/server"));
}

#[test]
fn tap_prints_a_hosts_entry_and_refuses_what_it_does_not_know() {
    let printed = with_input(
        &[
            "tap",
            "--print-config",
            "claude-desktop",
            "--",
            "python3",
            "server.py",
        ],
        b"",
    );
    assert!(printed.status.success());
    let entry: Value = serde_json::from_slice(&printed.stdout).expect("JSON on stdout");
    let server = &entry["mcpServers"]["tapped"];
    assert_eq!(server["args"][0], "tap");
    assert_eq!(server["args"][2], "python3");
    assert!(Path::new(server["command"].as_str().expect("a path")).is_absolute());
    for bad in [
        &["tap"][..],
        &["tap", "--print-config", "notepad", "--", "x"][..],
    ] {
        let refused = with_input(bad, b"");
        assert_eq!(refused.status.code(), Some(2), "{bad:?}");
    }
}

/// `tests/peers`, or `MCP_LANES_PEERS_DIR` (as `sdk_clients.rs` reads it).
fn peers() -> PathBuf {
    std::env::var_os("MCP_LANES_PEERS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/peers"))
}

#[test]
fn the_python_sdk_client_talks_to_the_reference_server_through_tap() {
    let python = peers().join(".venv/bin/python");
    if !python.is_file() {
        assert!(
            std::env::var_os("MCP_LANES_REQUIRE_PEERS").is_none(),
            "the Python SDK is not installed in {} (scripts/setup.sh peers)",
            peers().display()
        );
        eprintln!("skipped: the Python SDK is not installed");
        return;
    }
    let out = scratch("sdk.json");
    let command = format!(
        "stdio:{BIN} tap --out {} -- {BIN} serve --preset reference",
        out.display()
    );
    let run = Command::new(&python)
        .arg(peers().join("smoke/client.py"))
        .args([&command, "--tool", "test_simple_text", "--timeout", "20"])
        .output()
        .expect("the Python client runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let summary: Value =
        serde_json::from_str(stdout.lines().last().unwrap_or("")).expect("a summary");
    assert_eq!(
        summary["ok"],
        true,
        "{summary}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // tap writes --out once the server has exited: the SDK closes its stdin.
    let written = (0..50).find_map(|_| {
        std::thread::sleep(std::time::Duration::from_millis(100));
        std::fs::read_to_string(&out).ok()
    });
    let timelines: Value =
        serde_json::from_str(written.as_deref().expect("--out written")).expect("JSON");
    let labels: Vec<&str> = timelines[0]["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["label"].as_str())
        .collect();
    assert!(
        labels.iter().any(|l| l.contains("tools/call")),
        "{labels:?}"
    );
    let graded = Command::new(BIN)
        .args(["check", "--transcript", out.to_str().expect("UTF-8")])
        .output()
        .expect("check runs");
    assert!(
        graded.status.success(),
        "{}\n{}\n{}",
        String::from_utf8_lossy(&graded.stdout),
        String::from_utf8_lossy(&graded.stderr),
        written.unwrap_or_default()
    );
}

#[test]
fn rpc_id_tap_logs_a_line_per_message_with_the_rules_it_broke() {
    let mut input = Vec::new();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tap-test","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    let server = [BIN, "serve", "--preset", "reference"];
    // On stderr by default: one line per message, time and direction first.
    let tapped = with_input(&[&["tap", "--"][..], &server[..]].concat(), &input);
    assert!(tapped.status.success(), "{tapped:?}");
    let said = String::from_utf8_lossy(&tapped.stderr);
    let lines: Vec<&str> = said
        .lines()
        // (The server's own log shares stderr, and may write a line in
        // parts around one of tap's.)
        .filter(|l| l.contains("mcp-lanes tap:") && l.contains(" ms  C "))
        .collect();
    assert_eq!(
        lines.len(),
        7,
        "4 requests and notifications, 3 answers: {said}"
    );
    assert!(
        lines.iter().any(|l| l.contains("C ------> S  initialize")),
        "{said}"
    );
    assert!(
        lines.iter().any(|l| l.contains("C <------ S  -32600")),
        "{said}"
    );
    // The request that reuses an awaited id, and only it, breaks RPC-ID.
    let broken: Vec<&&str> = lines.iter().filter(|l| l.contains("breaks")).collect();
    assert_eq!(broken.len(), 1, "{said}");
    assert!(broken[0].contains("tools/list  breaks RPC-ID"), "{said}");
    // `--log FILE`, in Chinese: the same lines go there, not to stderr.
    let log = scratch("tap.log");
    let log_arg = log.to_str().expect("a UTF-8 path");
    let args = [
        &["tap", "--lang", "zh", "--log", log_arg, "--"][..],
        &server[..],
    ]
    .concat();
    let logged = with_input(&args, &input);
    assert!(logged.status.success(), "{logged:?}");
    assert!(!String::from_utf8_lossy(&logged.stderr).contains(" ms  C "));
    let text = std::fs::read_to_string(&log).expect("--log written");
    assert_eq!(
        text.lines().filter(|l| l.contains(" ms  C ")).count(),
        7,
        "{text}"
    );
    assert!(text.contains("违反 RPC-ID"), "{text}");
    // A log that cannot be written stops tap before the server starts.
    let bad = with_input(
        &["tap", "--log", "/nonexistent/dir/tap.log", "--", "cat"],
        b"",
    );
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("cannot write the log"));
}

#[test]
fn rpc_id_a_recording_replays_as_its_server() {
    let mut input = Vec::new();
    for line in [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tap-test","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}"#,
    ] {
        input.extend_from_slice(line.as_bytes());
        input.push(b'\n');
    }
    let out = scratch("replayed.json");
    let out_arg = out.to_str().expect("a UTF-8 path");
    let recorded = with_input(
        &[
            "tap",
            "--out",
            out_arg,
            "--",
            BIN,
            "serve",
            "--preset",
            "reference",
        ],
        &input,
    );
    assert!(recorded.status.success(), "{recorded:?}");
    // The same requests: the same bytes back, without the server.
    let replayed = with_input(&["tap", "--replay", out_arg], &input);
    assert!(replayed.status.success(), "{replayed:?}");
    assert_eq!(
        String::from_utf8_lossy(&replayed.stdout),
        String::from_utf8_lossy(&recorded.stdout)
    );
    // Other ids, another order: each answer carries its request's id; a
    // request the recording does not hold, and a line that is not JSON,
    // get errors.
    let other = concat!(
        r#"{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":"p","method":"prompts/list"}"#,
        "\nnot json\n"
    );
    let answers = with_input(&["tap", "--replay", out_arg], other.as_bytes());
    let answers: Vec<Value> = String::from_utf8_lossy(&answers.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert_eq!(answers[0]["id"], "c");
    assert!(answers[0]["result"]["content"].is_array(), "{answers:?}");
    assert_eq!(answers[1]["id"], "l");
    assert!(answers[1]["result"]["tools"].is_array(), "{answers:?}");
    assert_eq!(answers[2]["id"], "p");
    assert_eq!(answers[2]["error"]["code"], -32603);
    assert_eq!(answers[3]["error"]["code"], -32700);
    // A command besides --replay, or no recording: usage errors.
    let both = with_input(&["tap", "--replay", out_arg, "--", "cat"], b"");
    assert_eq!(both.status.code(), Some(2), "{both:?}");
    let missing = with_input(&["tap", "--replay", "/nonexistent.json"], b"");
    assert_eq!(missing.status.code(), Some(2), "{missing:?}");
    // `serve --replay` reads the same recording and serves it the same way;
    // it is the whole server, so it takes no preset and no HTTP option.
    let served = with_input(&["serve", "--replay", out_arg], &input);
    assert!(served.status.success(), "{served:?}");
    assert_eq!(
        String::from_utf8_lossy(&served.stdout),
        String::from_utf8_lossy(&recorded.stdout)
    );
    for extra in [
        &["--preset", "reference"][..],
        &["--transport", "http", "--port", "0"][..],
    ] {
        let mut args = vec!["serve", "--replay", out_arg];
        args.extend(extra);
        let refused = with_input(&args, b"");
        assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    }
}

#[test]
fn h_status_the_http_tap_passes_answers_unchanged_and_records_them() {
    use common::{http, http_server, modern, post, Proc};
    let (_server, upstream) = http_server("reference");
    let out = scratch("http.json");
    let out_arg = out.to_str().expect("a UTF-8 path");
    let url = format!("http://127.0.0.1:{upstream}/mcp");
    let har = scratch("http.har");
    let har_arg = har.to_str().expect("a UTF-8 path");
    let mut tap = Proc::spawn(&[
        "tap",
        "--upstream",
        &url,
        "--port",
        "0",
        "--out",
        out_arg,
        "--har",
        har_arg,
    ]);
    let port = common::tap_port(&mut tap);
    let discover = modern(
        1,
        "server/discover",
        serde_json::json!({}),
        serde_json::json!({}),
    );
    let direct = post(upstream, "2026-07-28", &discover, &[]);
    let proxied = post(port, "2026-07-28", &discover, &[]);
    assert_eq!(proxied.status, direct.status);
    assert_eq!(
        proxied.header("Content-Type"),
        direct.header("Content-Type")
    );
    assert_eq!(proxied.json(), direct.json());
    // An error status and its body pass unchanged too.
    let unknown = modern(
        2,
        "no/such_method",
        serde_json::json!({}),
        serde_json::json!({}),
    );
    let refused = post(port, "2026-07-28", &unknown, &[]);
    assert_eq!(refused.status, 404, "{:?}", refused.headers);
    assert_eq!(refused.json()["error"]["code"], -32601);
    // An SSE answer streams through (the tool's progress, then its result).
    let mut progress = modern(
        3,
        "tools/call",
        serde_json::json!({"name": "test_tool_with_progress", "arguments": {}}),
        serde_json::json!({}),
    );
    progress["params"]["_meta"]["progressToken"] = serde_json::json!("p1");
    let direct_stream = post(
        upstream,
        "2026-07-28",
        &progress,
        &[("Mcp-Name", "test_tool_with_progress")],
    );
    let streamed = post(
        port,
        "2026-07-28",
        &progress,
        &[("Mcp-Name", "test_tool_with_progress")],
    );
    assert_eq!(streamed.status, 200);
    assert_eq!(
        streamed.header("Content-Type"),
        direct_stream.header("Content-Type")
    );
    assert!(
        streamed
            .header("Content-Type")
            .is_some_and(|c| c.starts_with("text/event-stream")),
        "{:?}",
        streamed.headers
    );
    // The Host and Origin checks of bridge: another page's request gets 403.
    let foreign = http(
        port,
        "POST",
        "/mcp",
        &[
            ("Content-Type", "application/json"),
            ("Origin", "https://evil.example"),
        ],
        &discover.to_string(),
    );
    assert_eq!(foreign.status, 403);
    // Stopped, tap writes what passed, with the statuses around it.
    tap.terminate();
    assert!(tap.wait_exit_status().success());
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("--out written")).expect("JSON");
    let events = recorded[0]["events"].as_array().expect("events");
    let statuses: Vec<u64> = events
        .iter()
        .filter(|e| e["from"] == "server")
        .filter_map(|e| e["http"]["status"].as_u64())
        .collect();
    assert!(
        statuses.contains(&200) && statuses.contains(&404),
        "{statuses:?}"
    );
    let graded = Command::new(BIN)
        .args(["check", "--transcript", out_arg, "--format", "json"])
        .output()
        .expect("check runs");
    assert!(
        graded.stdout.starts_with(b"{"),
        "{}",
        String::from_utf8_lossy(&graded.stderr)
    );
    // The HAR capture: an entry per request (the 403 included), bodies
    // whole, read back by the importer as a capture from another tool is.
    let capture: Value =
        serde_json::from_str(&std::fs::read_to_string(&har).expect("--har written")).expect("JSON");
    let entries = capture["log"]["entries"].as_array().expect("entries");
    assert_eq!(
        entries.len(),
        3,
        "the 403 never reached the upstream: {capture}"
    );
    assert!(entries.iter().all(|e| e["startedDateTime"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z'))));
    let statuses: Vec<u64> = entries
        .iter()
        .filter_map(|e| e["response"]["status"].as_u64())
        .collect();
    assert_eq!(statuses, vec![200, 404, 200]);
    assert!(entries[2]["response"]["content"]["text"]
        .as_str()
        .is_some_and(|t| t.contains("data: ") && t.contains("notifications/progress")));
    let read_back = Command::new(BIN)
        .args(["check", "--transcript", har_arg, "--format", "json"])
        .output()
        .expect("check runs");
    let report: Value = serde_json::from_slice(&read_back.stdout).expect("a report");
    assert_eq!(report["format"], "har", "{report}");
}

/// Starts `tap --upstream` in front of `upstream` (a port), recording to
/// `out`: the process and the port it listens on.
fn http_tap(upstream: u16, out: &Path) -> (common::Proc, u16) {
    let url = format!("http://127.0.0.1:{upstream}/mcp");
    let out = out.to_str().expect("a UTF-8 path");
    let mut tap = common::Proc::spawn(&["tap", "--upstream", &url, "--port", "0", "--out", out]);
    let port = common::tap_port(&mut tap);
    (tap, port)
}

#[test]
fn h_sse_stream_the_official_sdk_clients_complete_an_elicitation_through_the_http_tap() {
    let dir = peers();
    let installed = dir.join("node_modules/@modelcontextprotocol/sdk").is_dir()
        && dir.join(".venv/bin/python").is_file();
    if !installed {
        assert!(
            std::env::var_os("MCP_LANES_REQUIRE_PEERS").is_none(),
            "the official SDKs are not installed in {} (scripts/setup.sh peers)",
            dir.display()
        );
        eprintln!("skipped: the official SDKs are not installed");
        return;
    }
    let python = dir.join(".venv/bin/python");
    for (program, script) in [
        (PathBuf::from("node"), "client-v1.mjs"),
        (python, "client.py"),
    ] {
        let (_server, upstream) = common::http_server("search-index");
        let out = scratch(&format!("{script}.json"));
        let (mut tap, port) = http_tap(upstream, &out);
        let run = Command::new(&program)
            .arg(dir.join("smoke").join(script))
            .args([
                &format!("http://127.0.0.1:{port}/mcp"),
                "--tool",
                "purge_index",
                "--args",
                r#"{"index":"prod-catalog"}"#,
                "--elicit",
                r#"{"retention_days":30}"#,
                "--timeout",
                "15000",
            ])
            .output()
            .unwrap_or_else(|e| panic!("{script} does not run: {e}"));
        let stdout = String::from_utf8_lossy(&run.stdout);
        let summary: Value = serde_json::from_str(stdout.lines().last().unwrap_or(""))
            .unwrap_or_else(|e| panic!("{script}: no summary ({e}): {stdout}"));
        assert_eq!(summary["ok"], true, "{script}: {summary}");
        assert_eq!(
            summary["call"]["result"]["content"][0]["text"], "Purged prod-catalog.",
            "{script}: the result came back on the elicitation's SSE stream: {summary}"
        );
        tap.terminate();
        assert!(tap.wait_exit_status().success(), "{script}");
        // What passed, graded offline: the elicitation and the result on
        // its stream are in the recording.
        let text = std::fs::read_to_string(&out).expect("--out written");
        assert!(text.contains("elicitation/create"), "{script}: {text}");
        let graded = Command::new(BIN)
            .args(["check", "--transcript", out.to_str().expect("UTF-8")])
            .output()
            .expect("check runs");
        assert!(
            graded.status.success(),
            "{script}: a clean server through tap grades clean:\n{}",
            String::from_utf8_lossy(&graded.stdout)
        );
    }
}
