//! Course lessons written as scenario files from the book alone
//! (`tests/lessons/*.json`, see `tests/lessons/README.md`), run as an
//! author runs them: `mcp-lanes run --file F --format json`. Each run must
//! draw the outline kept next to its file (`F.expect.json`: per lane, the
//! messages that must appear in order, and those that must not), and its
//! transcript must pass the wire checks (`check --transcript`: no rule
//! fails, S-SCHEMA included). The core's `lessons` test validates every
//! message, the client's too, against its revision's schema.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

fn lessons_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/lessons")
}

/// Every lesson file (`NN-slug.json`, not an expectation), sorted.
fn lesson_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(lessons_dir())
        .expect("tests/lessons")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".json") && !name.ends_with(".expect.json")
        })
        .collect();
    files.sort();
    files
}

/// The tags of each message of a lane's transcript: `C` or `S` (who sent
/// it), its method (a response: the method of the request it answers),
/// `#ID`, `result`, `isError`, `input_required`, its error code, its HTTP
/// status, `violation`. A response with no body (a 401) has only the side
/// and status.
fn tags(transcript: &[Value]) -> Vec<Vec<String>> {
    let mut asked: Vec<(String, String, String)> = Vec::new();
    let mut out = Vec::new();
    for entry in transcript {
        let side = match entry["direction"].as_str().unwrap_or("") {
            d if d.starts_with("client") => "C",
            d if d.starts_with("server") => "S",
            _ => "?",
        };
        let mut t = vec![side.to_string()];
        if let Some(status) = entry.pointer("/http/status").and_then(Value::as_u64) {
            t.push(status.to_string());
        }
        if entry.get("violation").is_some_and(|v| !v.is_null()) {
            t.push("violation".into());
        }
        t.extend(http_tags(entry));
        let message = &entry["message"];
        let id = message.get("id").map(Value::to_string);
        if let Some(id) = &id {
            t.push(format!("#{}", id.trim_matches('"')));
        }
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            t.push(method.to_string());
            if let Some(id) = &id {
                asked.push((side.to_string(), id.clone(), method.to_string()));
            }
        } else if let Some(id) = &id {
            let peer = if side == "C" { "S" } else { "C" };
            if let Some((_, _, method)) = asked.iter().rev().find(|(s, i, _)| s == peer && i == id)
            {
                t.push(method.clone());
            }
        }
        if let Some(code) = message.pointer("/error/code").and_then(Value::as_i64) {
            t.push(code.to_string());
        }
        if let Some(result) = message.get("result").filter(|r| r.is_object()) {
            t.push("result".into());
            if result["isError"] == Value::Bool(true) {
                t.push("isError".into());
            }
            if result["resultType"] == "input_required" {
                t.push("input_required".into());
            }
        }
        out.push(t);
    }
    out
}

/// The tags of an entry's HTTP part: who else it is between (`AS`, `G`),
/// the request's method and path (`GET`, `/authorize`, the query left
/// out), what the query carries (`pkce`, `resource`), and what a
/// `WWW-Authenticate` header says (`resource_metadata`,
/// `insufficient_scope`, `invalid_token`).
fn http_tags(entry: &Value) -> Vec<String> {
    let mut t = Vec::new();
    let between = entry["between"].as_str().unwrap_or("");
    if between.contains("auth_server") {
        t.push("AS".to_string());
    }
    if between.contains("gateway") {
        t.push("G".to_string());
    }
    if let Some(method) = entry.pointer("/http/method").and_then(Value::as_str) {
        t.push(method.to_string());
    }
    let header = |name: &str| {
        entry
            .pointer("/http/headers")
            .and_then(Value::as_object)
            .and_then(|h| h.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)))
            .and_then(|(_, v)| v.as_str())
            .unwrap_or("")
    };
    let path = header(":path");
    if !path.is_empty() {
        let (bare, query) = path.split_once('?').unwrap_or((path, ""));
        t.push(bare.to_string());
        let has = |name: &str| query.split('&').any(|p| p.starts_with(&format!("{name}=")));
        if has("code_challenge") {
            t.push("pkce".into());
        }
        if has("resource") {
            t.push("resource".into());
        }
    }
    let challenge = header("www-authenticate");
    for word in ["resource_metadata", "insufficient_scope", "invalid_token"] {
        if challenge.contains(word) {
            t.push(word.to_string());
        }
    }
    t
}

fn matches(message: &[String], entry: &str) -> bool {
    entry
        .split_whitespace()
        .all(|want| message.iter().any(|t| t == want))
}

/// Checks one lane against its expectation; returns what does not hold.
fn lane_problems(label: &str, transcript: &[Value], expect: &Value) -> Vec<String> {
    let drawn = tags(transcript);
    let mut problems = Vec::new();
    let mut at = 0;
    for entry in expect["sequence"].as_array().into_iter().flatten() {
        let entry = entry.as_str().expect("an expectation entry is a string");
        match drawn[at..].iter().position(|m| matches(m, entry)) {
            Some(i) => at += i + 1,
            None => {
                problems.push(format!("lane {label:?}: no {entry:?} after message {at}"));
                break;
            }
        }
    }
    for entry in expect["absent"].as_array().into_iter().flatten() {
        let entry = entry.as_str().expect("an absent entry is a string");
        if let Some(i) = drawn.iter().position(|m| matches(m, entry)) {
            problems.push(format!(
                "lane {label:?}: message {i} is {:?}, which must not be drawn ({entry:?})",
                drawn[i].join(" ")
            ));
        }
    }
    for (entry, want) in expect["count"].as_object().into_iter().flatten() {
        let got = drawn.iter().filter(|m| matches(m, entry)).count();
        if Some(got as u64) != want.as_u64() {
            problems.push(format!(
                "lane {label:?}: {got} messages are {entry:?}, not {want}"
            ));
        }
    }
    problems
}

fn drawn_lanes(run: &Value) -> String {
    let mut text = String::new();
    for setup in run["setups"].as_array().into_iter().flatten() {
        text.push_str(&format!("== {}\n", setup["label"]));
        let transcript = setup["transcript"].as_array().cloned().unwrap_or_default();
        for t in tags(&transcript) {
            text.push_str(&format!("   {}\n", t.join(" ")));
        }
    }
    text
}

#[test]
fn every_lesson_draws_its_outline_and_passes_the_wire_checks() {
    let files = lesson_files();
    assert!(files.len() >= 20, "only {} lesson files", files.len());
    let scratch = std::env::temp_dir().join(format!("mcp-lanes-lessons-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let mut problems = Vec::new();
    for file in &files {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let out = common::run(&[
            "run",
            "--file",
            file.to_str().expect("utf-8 path"),
            "--format",
            "json",
        ]);
        if !out.status.success() {
            problems.push(format!(
                "{name}: run failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let run: Value = serde_json::from_slice(&out.stdout).expect("run --format json");
        let expect_path = file.with_extension("expect.json");
        let expect: Value = match std::fs::read_to_string(&expect_path) {
            Ok(text) => serde_json::from_str(&text).expect("an expectation file is JSON"),
            Err(_) => {
                problems.push(format!("{name}: no {}", expect_path.display()));
                continue;
            }
        };
        let setups = run["setups"].as_array().cloned().unwrap_or_default();
        let lanes = expect["lanes"].as_object().cloned().unwrap_or_default();
        let left_out = expect["leftOut"].as_object().cloned().unwrap_or_default();
        let mut lane_problems_here = Vec::new();
        for setup in &setups {
            let label = setup["label"].as_str().unwrap_or("");
            let transcript = setup["transcript"].as_array().cloned().unwrap_or_default();
            match lanes.get(label) {
                Some(lane) => lane_problems_here.extend(lane_problems(label, &transcript, lane)),
                None if left_out.contains_key(label) => {}
                None => lane_problems_here.push(format!("lane {label:?} has no expectation")),
            }
        }
        for label in lanes.keys() {
            if !setups.iter().any(|s| s["label"] == label.as_str()) {
                lane_problems_here.push(format!("no lane {label:?} was drawn"));
            }
        }
        if !lane_problems_here.is_empty() {
            problems.push(format!(
                "{name}:\n  {}\n  drawn:\n{}",
                lane_problems_here.join("\n  "),
                drawn_lanes(&run)
            ));
        }
        // The wire checks, as `check --transcript` grades the recording.
        let recording = scratch.join(&name);
        std::fs::write(&recording, &out.stdout).expect("write the recording");
        let check = common::run(&[
            "check",
            "--transcript",
            recording.to_str().expect("utf-8 path"),
            "--format",
            "json",
        ]);
        let report: Value = serde_json::from_slice(&check.stdout).unwrap_or(Value::Null);
        let failed: Vec<&Value> = report["verdicts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|v| v["verdict"] == "fail")
            .collect();
        // A failure a recording cannot avoid is declared, with its count
        // and why, in `wireFailures`; any other fails the lesson.
        let declared = expect["wireFailures"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        let mut unexpected: Vec<String> = Vec::new();
        let mut rules: Vec<&str> = failed.iter().filter_map(|v| v["rule"].as_str()).collect();
        rules.sort_unstable();
        rules.dedup();
        for rule in rules
            .iter()
            .copied()
            .chain(declared.keys().map(String::as_str))
        {
            let got = failed.iter().filter(|v| v["rule"] == rule).count() as u64;
            let allowed = declared
                .get(rule)
                .and_then(|d| d["count"].as_u64())
                .unwrap_or(0);
            if got != allowed {
                let at: Vec<String> = failed
                    .iter()
                    .filter(|v| v["rule"] == rule)
                    .map(|v| format!("exchange {}: {}", v["exchange"], v["got"]))
                    .collect();
                unexpected.push(format!(
                    "{rule} failed {got} times, {allowed} declared ({})",
                    at.join("; ")
                ));
            }
        }
        unexpected.dedup();
        let exit_ok = if failed.is_empty() {
            check.status.code() == Some(0)
        } else {
            check.status.code() == Some(1)
        };
        if !exit_ok || !unexpected.is_empty() {
            problems.push(format!(
                "{name}: check --transcript exits {:?}: {}",
                check.status.code(),
                unexpected.join("; ")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_expectation_names_a_lesson() {
    for entry in std::fs::read_dir(lessons_dir()).expect("tests/lessons") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if let Some(stem) = name.strip_suffix(".expect.json") {
            assert!(
                lessons_dir().join(format!("{stem}.json")).is_file(),
                "{name} has no lesson {stem}.json"
            );
        }
    }
}
