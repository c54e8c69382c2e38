//! `list`, `run`, `--help`, `--version` and usage errors of the built binary.

mod common;

use common::run;
use serde_json::{json, Value};

const SCENARIOS: [&str; 31] = [
    "discover",
    "capability-per-request",
    "plain-vs-rich",
    "unknown-tool-vs-unknown-method",
    "version-retry",
    "missing-meta",
    "era-probe-stdio",
    "era-probe-http",
    "era-cache-and-upgrade",
    "compatibility-matrix",
    "legacy-handshake",
    "list-changed-debounce",
    "elicitation-unchecked",
    "elicitation-checked",
    "legacy-client-vs-modern-server",
    "http-header-mismatch",
    "resources-prompts-caching",
    "per-request-logging",
    "mrtr-sampling-roots",
    "subscriptions-listen",
    "tool-errors-pages-progress",
    "scripted-server",
    "tool-state",
    "auth-happy-path",
    "auth-registration",
    "auth-scope-step-up",
    "auth-audience",
    "auth-wrong-issuer",
    "auth-no-resource-metadata",
    "identities",
    "gateways",
];
const SERVERS: [&str; 6] = [
    "deploy-console",
    "order-desk",
    "notes",
    "search-index",
    "dual-era",
    "reference",
];
const CLIENTS: [&str; 6] = [
    "plain",
    "rich",
    "dual-era",
    "legacy-host",
    "orchestrator-runtime",
    "reference",
];

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn list_prints_scenarios_then_server_then_client_presets() {
    let out = run(&["list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    let expected: Vec<(&str, &str)> = SCENARIOS
        .iter()
        .map(|id| (*id, "scenario"))
        .chain(SERVERS.iter().map(|id| (*id, "server")))
        .chain(CLIENTS.iter().map(|id| (*id, "client")))
        .collect();
    let got: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[1])).collect();
    assert_eq!(got, expected);
    for row in &rows {
        assert_eq!(row.len(), 3, "id, kind, description: {row:?}");
        assert!(!row[2].trim().is_empty(), "a description for {}", row[0]);
    }
    assert!(text.contains("discover\tscenario\tOne server/discover"));
}

/// The entries of every set-up of a `run --format json` document, checked
/// against the transcript contract of DESIGN.md.
fn transcript_entries(doc: &Value, id: &str) -> Vec<Value> {
    assert_eq!(doc["scenario"], id);
    let setups = doc["setups"].as_array().expect("setups is an array");
    assert!(!setups.is_empty(), "{id}: at least one set-up");
    let mut all = Vec::new();
    for setup in setups {
        assert!(setup["label"].is_string(), "{id}: label");
        let transcript = setup["transcript"].as_array().expect("transcript array");
        assert!(!transcript.is_empty(), "{id}: a non-empty transcript");
        for entry in transcript {
            assert!(entry.get("message").is_some(), "{id}: {entry}");
            let direction = entry["direction"].as_str().unwrap_or("");
            assert!(
                direction == "client->server" || direction == "server->client",
                "{id}: {entry}"
            );
            assert!(entry["at_ms"].is_u64(), "{id}: {entry}");
            all.push(entry.clone());
        }
    }
    all
}

#[test]
fn m_version_retry_json_transcript_has_the_contract_shape() {
    let out = run(&["run", "--scenario", "version-retry", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let entries = transcript_entries(&doc, "version-retry");
    let pv = |e: &Value| {
        e["message"]["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"].clone()
    };
    let first = entries
        .iter()
        .find(|e| e["direction"] == "client->server" && pv(e) == "2025-11-25")
        .expect("a request naming 2025-11-25");
    let error = entries
        .iter()
        .find(|e| e["message"]["error"]["code"] == -32022)
        .expect("a -32022 reply");
    assert_eq!(error["direction"], "server->client");
    assert_eq!(error["message"]["id"], first["message"]["id"]);
    assert_eq!(
        error["message"]["error"]["data"],
        json!({"supported": ["2026-07-28"], "requested": "2025-11-25"})
    );
    let retry = entries
        .iter()
        .find(|e| {
            e["direction"] == "client->server"
                && pv(e) == "2026-07-28"
                && e["message"]["method"] == first["message"]["method"]
        })
        .expect("a retry naming 2026-07-28");
    assert_ne!(
        retry["message"]["id"], first["message"]["id"],
        "RPC-ID: the retry is a new request with a new id"
    );
    let answered = entries.iter().any(|e| {
        e["direction"] == "server->client"
            && e["message"]["id"] == retry["message"]["id"]
            && e["message"].get("result").is_some()
    });
    assert!(answered, "the retry gets a result");
}

#[test]
fn run_json_for_every_scenario_and_by_catalog_number() {
    for (n, id) in SCENARIOS.iter().enumerate() {
        let out = run(&["run", "--scenario", id, "--format", "json"]);
        assert!(out.status.success(), "{id}: {}", stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
        transcript_entries(&doc, id);
        if n == 0 {
            let by_number = run(&["run", "--scenario", "1", "--format", "json"]);
            assert_eq!(by_number.stdout, out.stdout);
        }
    }
}

#[test]
fn g_forward_run_text_draws_each_hop_through_the_gateway() {
    let out = run(&["run", "--scenario", "gateways"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        "C ------> G  POST tools/list",
        "G ------> S  POST tools/list  [G-FORWARD]",
        "G <------ S  200 result",
        "C <------ G  200 result  [G-FILTER, G-REWRITE]",
        "C <------ G  200 -32602  [G-FILTER, M-UNKNOWN-TOOL]",
        "C <------ G  -32602  [G-REWRITE, M-UNKNOWN-TOOL]",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    // The lane that goes straight keeps its two columns.
    assert!(text.contains("C ------> S  POST tools/list"), "{text}");
}

#[test]
fn a_consent_run_text_puts_the_authorization_servers_marker_on_its_column() {
    let out = run(&["run", "--scenario", "auth-happy-path"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in [
        "C ------> S  GET resource metadata  [A-PRM]",
        "C ------> A  GET AS metadata  [A-AS-METADATA]",
        "        * A  decides  [A-CONSENT]",
    ] {
        assert!(text.contains(line), "{line} in {text}");
    }
    assert!(
        !text.contains("GET GET") && !text.contains("POST POST"),
        "{text}"
    );
}

#[test]
fn run_text_is_the_default_sequence_listing() {
    let out = run(&["run", "--scenario", "capability-per-request"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("C ------> S  tools/call"), "{text}");
    assert!(text.contains("C <------ S  -32021"), "{text}");
    assert!(text.contains("M-CAP-REQUIRED"), "{text}");
    assert!(text.contains("summary: "), "{text}");
    let explicit = run(&[
        "run",
        "--scenario",
        "capability-per-request",
        "--format",
        "text",
    ]);
    assert_eq!(explicit.stdout, out.stdout);
}

#[test]
fn unknown_scenario_lists_valid_ids_and_exits_2() {
    let out = run(&["run", "--scenario", "no-such-thing"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(err.contains("no-such-thing"), "{err}");
    for id in SCENARIOS {
        assert!(err.contains(id), "{id} missing from: {err}");
    }
}

#[test]
fn unknown_preset_lists_valid_presets_and_exits_2() {
    for transport in [
        &["--transport", "stdio"][..],
        &["--transport", "http", "--port", "0"],
    ] {
        let mut args = vec!["serve", "--preset", "no-such-preset"];
        args.extend_from_slice(transport);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        for id in SERVERS {
            assert!(err.contains(id), "{id} missing from: {err}");
        }
    }
}

#[test]
fn help_and_version() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag]);
        assert!(out.status.success());
        let text = stdout(&out);
        assert!(text.contains("Usage:"), "{text}");
        assert!(text.contains("serve --transport http --port N --preset ID"));
    }
    let out = run(&["--version"]);
    assert!(out.status.success());
    assert_eq!(
        stdout(&out).trim(),
        format!("mcp-lanes {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn unknown_arguments_print_usage_on_stderr_and_exit_2() {
    for args in [
        &[][..],
        &["frobnicate"],
        &["list", "--bogus"],
        &["list", "extra"],
        &["run"],
        &["run", "--scenario", "discover", "--format", "yaml"],
        &["serve", "--transport", "http", "--preset", "notes"],
        &[
            "serve",
            "--transport",
            "http",
            "--port",
            "99999",
            "--preset",
            "notes",
        ],
        &["serve", "--transport", "pigeon", "--preset", "notes"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(stderr(&out).contains("Usage:"), "{args:?}");
    }
}

#[test]
fn usage_errors_under_lang_zh_are_in_chinese() {
    // The error line follows --lang (the usage text below it stays
    // English); option names, ids and values stay as they are.
    for (args, said) in [
        (
            &["run", "--lang", "zh", "--scenario", "a", "--file", "b"][..],
            "不能两者都给",
        ),
        (&["run", "--lang", "zh", "--format", "yaml"], "run 需要"),
        (&["list", "--lang=zh", "--bogus"], "无效的选项 '--bogus'"),
        (&["serve", "--lang", "zh", "--preset", "notes"], "不适用于"),
        (
            &["check", "--lang", "zh", "--url", "u", "--format", "xml"],
            "不是 text、json 或 junit",
        ),
        (
            &["run", "--lang", "zh", "--scenario", "no-such"],
            "未知的场景",
        ),
        (
            &["run", "--lang", "zh", "--file", "/no/such/file.json"],
            "没有这个文件",
        ),
        (
            &[
                "check",
                "--lang",
                "zh",
                "--flow",
                "nope",
                "--url",
                "http://127.0.0.1:1/mcp",
            ],
            "未知的流程 \"nope\"",
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        let line = err.lines().next().unwrap_or_default();
        assert!(line.contains(said), "{args:?}: {err}");
        // (A list of valid ids after "；" is a list of terms.)
        let words = line.split('；').next().unwrap_or_default();
        assert_eq!(common::english_run(words), None, "{args:?}: {line}");
    }
    // Without --lang, English as before.
    let out = run(&["run", "--scenario", "a", "--file", "b"]);
    assert!(stderr(&out).starts_with("error: run takes --scenario ID or --file PATH, not both"));
}

#[test]
fn usage_errors_of_the_parser_under_lang_zh_are_in_chinese_too() {
    // clap's errors (a typo, a missing value, an option of another
    // command), the tip under them, and a URL the client refuses.
    for (args, said) in [
        (&["chek", "--lang", "zh"][..], "未知的命令 \"chek\""),
        (&["run", "--lang", "zh", "--scenario"], "缺少参数"),
        (&["list", "--lang", "zh", "--transport", "http"], "不适用于"),
        (&["list", "--lang", "zh", "--threads", "2"], "只适用于"),
        (
            &["client", "--lang", "zh", "https://example.com/mcp"],
            "不支持 https",
        ),
        (&["bridge", "--lang", "zh", "--cmd", "x"], "不适用于"),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = stderr(&out);
        let line = err.lines().next().unwrap_or_default();
        assert!(line.contains(said), "{args:?}: {err}");
        let words = line.split('；').next().unwrap_or_default();
        assert_eq!(common::english_run(words), None, "{args:?}: {line}");
        if args[0] != "client" {
            // (The client refuses the URL when it connects: no usage lines.)
            assert!(err.contains("更多信息请见 'mcp-lanes "), "{args:?}: {err}");
        }
    }
    let out = run(&["chek", "--lang", "zh"]);
    assert!(
        stderr(&out).contains("提示：有一个相似的命令：'check'"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn every_command_has_its_own_help() {
    for (command, flags) in [
        ("list", &["--lang"][..]),
        ("run", &["--scenario", "--file", "--format", "--lang"]),
        (
            "serve",
            &[
                "--transport",
                "--port",
                "--preset",
                "--file",
                "--server",
                "--max-connections",
                "--threads",
                "--session-idle",
                "--max-sessions",
                "--keep-alive",
                "--quiet",
            ],
        ),
        ("export", &["--scenario"]),
        (
            "client",
            &["--flow", "--out", "--timeout", "--cmd", "--lang", "URL"],
        ),
        (
            "check",
            &[
                "--url",
                "--cmd",
                "--flow",
                "--tool",
                "--args",
                "--format",
                "--out",
                "--timeout",
                "--lang",
            ],
        ),
        (
            "bridge",
            &["--cmd", "--port", "--allow-origin", "--timeout"],
        ),
        ("completions", &["SHELL", "bash", "zsh", "fish"]),
    ] {
        for help in ["--help", "-h"] {
            let out = run(&[command, help]);
            assert_eq!(out.status.code(), Some(0), "{command} {help}");
            assert!(out.stderr.is_empty(), "{command} {help}");
            let text = stdout(&out);
            assert!(
                text.contains(&format!("Usage: mcp-lanes {command}")),
                "{command} {help}: {text}"
            );
            for flag in flags {
                assert!(text.contains(flag), "{command} {help} names {flag}: {text}");
            }
        }
    }
    // The top level lists every command.
    let text = stdout(&run(&["--help"]));
    for command in [
        "list",
        "run",
        "serve",
        "export",
        "client",
        "check",
        "bridge",
        "completions",
    ] {
        assert!(
            text.contains(&format!("\n  {command} ")),
            "{command}: {text}"
        );
    }
}

#[test]
fn a_typo_gets_did_you_mean_and_exits_2() {
    let out = run(&["chek"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(err.starts_with("error: unknown command \"chek\""), "{err}");
    assert!(
        err.contains("tip: a similar command exists: 'check'"),
        "{err}"
    );
    assert!(err.contains("Usage:"), "{err}");
    let out = run(&["run", "--scenario", "discover", "--formt", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("error: invalid option '--formt'"), "{err}");
    assert!(
        err.contains("tip: a similar option exists: '--format'"),
        "{err}"
    );
    assert!(err.contains("Usage: mcp-lanes run"), "{err}");
    assert!(
        err.contains("For more information, try 'mcp-lanes run --help'."),
        "{err}"
    );
}

#[test]
fn completions_print_a_script_per_shell() {
    for (shell, marks) in [
        ("bash", &["complete -F", "mcp-lanes", "--allow-origin"][..]),
        ("zsh", &["#compdef mcp-lanes", "--allow-origin"]),
        ("fish", &["complete -c mcp-lanes", "allow-origin"]),
        ("elvish", &["mcp-lanes", "--allow-origin"]),
        ("powershell", &["mcp-lanes", "--allow-origin"]),
    ] {
        let out = run(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{shell}");
        let script = stdout(&out);
        for mark in marks {
            assert!(script.contains(mark), "{shell} script has {mark}");
        }
    }
    // bash completes a command's options too (a hyphen in the program's
    // name once broke that): `run`'s options have their own branch.
    let bash = stdout(&run(&["completions", "bash"]));
    assert!(bash.contains("cmd=\"mcp_lanes__subcmd__run\""), "{bash}");
    assert!(bash.contains("\n        mcp_lanes__subcmd__run)"), "{bash}");
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("possible values: bash, elvish, fish, powershell, zsh"));
}
