//! Scenario files in the CLI: `run --file`, `serve --file --server` (stdio
//! and HTTP), `export`, and the errors of an invalid file (every problem on
//! stderr, exit status 2, nothing on stdout).

mod common;

use std::path::PathBuf;

use common::{english_run, modern, post, run, Proc};
use serde_json::{json, Value};

fn repo_file(path: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
        .display()
        .to_string()
}

fn weather() -> String {
    repo_file("www/scenarios/weather-forecast.json")
}

fn temp_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("mcp-lanes-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path.display().to_string()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn run_file_prints_the_transcript_with_narration() {
    let out = run(&["run", "--file", &weather()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    assert!(listing.starts_with("weather-forecast (file "), "{listing}");
    assert!(listing.contains("== set-up 1/2: dashboard (no model) =="));
    assert!(listing.contains("say: The dashboard has no model to lend"));
    assert!(listing.contains("-32021"));

    let out = run(&["run", "--file", &weather(), "--format", "json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(doc["scenario"], "weather-forecast");
    assert_eq!(doc["setups"].as_array().map(Vec::len), Some(2));
}

#[test]
fn run_file_lang_prints_the_authors_translation() {
    let out = run(&["run", "--file", &weather(), "--lang", "zh"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    assert!(listing.contains(": 天气预报需要 sampling"), "{listing}");
    assert!(
        listing.contains("== 配置 1/2：仪表盘（没有模型） =="),
        "{listing}"
    );
    assert!(listing.contains("旁白：仪表盘列出工具"), "{listing}");
    // JSON does not change with the language.
    let en = run(&["run", "--file", &weather(), "--format", "json"]);
    let zh = run(&[
        "run",
        "--file",
        &weather(),
        "--format",
        "json",
        "--lang",
        "zh",
    ]);
    assert_eq!(text(&en.stdout), text(&zh.stdout));
}

#[test]
fn an_exported_scenario_runs_from_its_file_exactly_as_the_builtin() {
    for id in [
        "elicitation-unchecked",
        "era-cache-and-upgrade",
        "http-header-mismatch",
    ] {
        let out = run(&["export", "--scenario", id]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let path = temp_file(&format!("{id}.json"), &text(&out.stdout));
        let from_file = run(&["run", "--file", &path, "--format", "json"]);
        let builtin = run(&["run", "--scenario", id, "--format", "json"]);
        assert!(from_file.status.success(), "{}", text(&from_file.stderr));
        assert_eq!(text(&from_file.stdout), text(&builtin.stdout), "{id}");
    }
}

/// `line` without its JSON path (before the first `: ` or `：`), the
/// list of the keys a place allows (field names, after "应为以下之一：")
/// and quoted text (the author's values, said as they are).
fn readers_words(line: &str) -> String {
    let line = line.trim_start();
    let line = line.split("应为以下之一：").next().unwrap_or_default();
    let rest = match (line.find(": "), line.find('：')) {
        (Some(a), Some(b)) => &line[a.min(b)..],
        (Some(a), None) | (None, Some(a)) => &line[a..],
        (None, None) => line,
    };
    rest.split('"').step_by(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn an_invalid_file_under_lang_zh_says_its_problems_in_chinese() {
    let bad = json!({
        "format": "mcp-lanes-scenario/0",
        "id": "Broken File",
        "titel": "typo",
        "servers": [{"id": "weather", "preset": "nope",
                     "tools": [{"name": "forecast", "requires": ["sampling"], "inputSchema": {"type": "array"}}]}],
        "clients": [{"id": "c", "capabilities": {"sampel": {}}}],
        "setups": [{"client": "plain", "server": "weather", "transport": "pigeon",
                    "steps": [{"do": "wait", "ms": -1}, {"do": "dance"}, {"do": "call"}, 7]}],
        "translations": {"not a tag": {}}
    });
    let dangling = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "dangling",
        "setups": [{"client": "nobody", "server": "wether", "steps": [{"do": "discover"}]}],
        "translations": {"zh": {"labels": {"no such label": "x"}}}
    });
    let cases = [
        ("broken-zh.json", bad.to_string()),
        ("dangling-zh.json", dangling.to_string()),
        ("not-json-zh.json", "{\"format\": ".to_string()),
        ("comma-zh.json", "[1,]".to_string()),
        ("deep-zh.json", "[".repeat(100)),
    ];
    for (name, body) in cases {
        let path = temp_file(name, &body);
        let out = run(&["run", "--file", &path, "--lang", "zh"]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(out.stdout.is_empty(), "{name}");
        let errors = text(&out.stderr);
        assert!(errors.contains("不是有效的场景文件"), "{errors}");
        let english: Vec<String> = errors
            .lines()
            .skip(1)
            .filter_map(|l| english_run(&readers_words(l)).map(|run| format!("{run:?} in {l:?}")))
            .collect();
        assert!(
            english.is_empty(),
            "English left:\n{}\n\n{errors}",
            english.join("\n")
        );
    }
    // The paths and the author's values stay as they are.
    let out = run(&[
        "run",
        "--file",
        &temp_file("b.json", &bad.to_string()),
        "--lang",
        "zh",
    ]);
    let errors = text(&out.stderr);
    for said in [
        "servers[0].tools[0].requires：应为能力对象，例如 {\"elicitation\": {}}，实际为 [\"sampling\"]",
        "setups[0].steps[0].ms：应为 0 到 86400000 之间的整数，实际为 -1",
        "titel：场景文件里有未知的键（是否想写 \"title\"？）",
    ] {
        assert!(errors.contains(said), "{said:?} missing from:\n{errors}");
    }
}

#[test]
fn an_invalid_file_gets_every_problem_and_exit_status_2() {
    let bad = json!({
        "format": "mcp-lanes-scenario/1",
        "id": "broken",
        "servers": [{"id": "weather", "tools": [{"name": "forecast", "requires": ["sampling"]}]}],
        "setups": [{"client": "plain", "server": "wether", "steps": [{"do": "wait", "ms": -1}]}]
    });
    let path = temp_file("broken.json", &bad.to_string());
    let out = run(&["run", "--file", &path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let errors = text(&out.stderr);
    assert!(
        errors.contains("is not a valid scenario file (2 problems):"),
        "{errors}"
    );
    assert!(errors.contains("servers[0].tools[0].requires: expected an object of capabilities such as {\"elicitation\": {}}, got [\"sampling\"]"), "{errors}");
    assert!(
        errors
            .contains("setups[0].steps[0].ms: expected a whole number from 0 to 86400000, got -1"),
        "{errors}"
    );

    // References are checked once the shapes are right.
    let dangling = bad
        .to_string()
        .replace("[\"sampling\"]", "{\"sampling\": {}}")
        .replace("-1", "5");
    let out = run(&["run", "--file", &temp_file("dangling.json", &dangling)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("setups[0].server: no server \"wether\""),
        "{}",
        text(&out.stderr)
    );

    for (name, body) in [
        ("not-json.json", "{\"format\": ".to_string()),
        ("deep.json", "[".repeat(100_000)),
        ("huge.json", format!("\"{}\"", "x".repeat(2 * 1024 * 1024))),
    ] {
        let out = run(&["run", "--file", &temp_file(name, &body)]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(
            text(&out.stderr).contains("(file): "),
            "{name}: {}",
            text(&out.stderr)
        );
    }
    let out = run(&["run", "--file", "/no/such/file.json"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn serve_file_serves_the_files_server_on_stdio() {
    let mut p = Proc::spawn(&["serve", "--file", &weather(), "--server", "weather"]);
    let reply = p.call(&modern(1, "tools/list", json!({}), json!({})));
    let names: Vec<&str> = reply["result"]["tools"]
        .as_array()
        .map(|t| t.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names, ["today", "forecast"]);
    let call = |id, caps| {
        modern(
            id,
            "tools/call",
            json!({"name": "forecast", "arguments": {"city": "Bergen"}}),
            caps,
        )
    };
    let refused = p.call(&call(2, json!({})));
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    let done = p.call(&call(3, json!({"sampling": {}})));
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert!(p.close_and_wait().success());
}

#[test]
fn serve_file_serves_the_files_server_on_http() {
    let (_proc, port) = common::serve_file_http(&weather(), "weather");
    let message = modern(1, "server/discover", json!({}), json!({}));
    let reply = post(port, "2026-07-28", &message, &[]);
    assert_eq!(reply.status, 200);
    let body = reply.json();
    assert_eq!(body["result"]["ttlMs"], 900_000);
    assert_eq!(
        body["result"]["_meta"]["io.modelcontextprotocol/serverInfo"],
        json!({"name": "weather", "version": "2.1.0"})
    );
}

#[test]
fn serve_file_names_the_servers_it_has() {
    let out = run(&["serve", "--file", &weather(), "--server", "sun"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("has no server \"sun\"; its servers: weather"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["serve", "--file", &weather()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("needs --server ID"));
}
