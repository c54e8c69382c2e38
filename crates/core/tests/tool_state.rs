//! State a scenario file's tool keeps between calls, in virtual time:
//! rate limits (M-TOOL-RATE-LIMIT), handles (M-TOOL-HANDLE), quarantine
//! (M-TOOL-QUARANTINE) and long-running work that is polled
//! (M-TOOL-POLL), in both eras. Every message of every run validates
//! against the official schema of its revision.

mod common;

use std::collections::HashMap;

use common::schema::schemas;
use mcp_lanes_core::scenarios::{self, file};
use mcp_lanes_core::sim::{Side, Timeline};
use serde_json::{json, Value};

/// A file with server `srv` (these tools, era `era`) and one set-up of
/// `steps` for a bare modern client, or a 2025-11-25 legacy one.
fn scenario(era: &str, tools: Value, steps: Value) -> Value {
    let client = if era == "legacy" { "old" } else { "bare" };
    json!({
        "format": "mcp-lanes-scenario/1",
        "id": "t",
        "servers": [{"id": "srv", "era": era, "tools": tools}],
        "clients": [
            {"id": "bare", "capabilities": {}},
            {"id": "old", "era": "legacy"}
        ],
        "setups": [{"client": client, "server": "srv", "steps": steps}]
    })
}

/// Runs a file and checks every message against its revision's schema.
fn run(value: &Value) -> Timeline {
    let loaded = common::load_file(value);
    let mut timelines = scenarios::run_setups(&loaded.setups);
    let s = schemas();
    let timeline = timelines.remove(0);
    let mut origin: HashMap<(Side, String), String> = HashMap::new();
    for (_, m) in timeline.messages() {
        let Some(msg) = &m.json else { continue };
        let id = msg.get("id").map(Value::to_string);
        if let (Some(method), Some(id)) = (msg.get("method").and_then(Value::as_str), &id) {
            origin.insert((m.from, id.clone()), method.to_string());
        }
        let origin_method = if msg.get("method").is_none() {
            id.as_ref()
                .and_then(|id| origin.get(&(m.from.peer(), id.clone())))
                .map(String::as_str)
        } else {
            None
        };
        if let Err(failure) = s.validate_message(&m.revision, msg, origin_method) {
            panic!("{} does not validate: {failure}\n{msg}", m.label);
        }
    }
    timeline
}

/// The tools/call answers the server sent: (text, isError).
fn answers(timeline: &Timeline) -> Vec<(String, bool)> {
    timeline
        .messages()
        .filter(|(_, m)| m.from == Side::Server)
        .filter_map(|(_, m)| m.json.clone())
        .filter(|m| m.pointer("/result/content").is_some())
        .map(|m| {
            let text = m
                .pointer("/result/content/0/text")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            (text, m.pointer("/result/isError") == Some(&json!(true)))
        })
        .collect()
}

/// Whether some event of the timeline carries `rule`.
fn shows(timeline: &Timeline, rule: &str) -> bool {
    timeline.events.iter().any(|e| e.rules.contains(&rule))
}

fn call(tool: &str, arguments: Value) -> Value {
    json!({"do": "call", "tool": tool, "arguments": arguments})
}

fn wait(ms: u64) -> Value {
    json!({"do": "wait", "ms": ms})
}

fn limited() -> Value {
    json!([{"name": "search", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
            "result": "Found {q}.", "rateLimit": {"calls": 2, "windowMs": 60000}}])
}

#[test]
fn m_tool_rate_limit_the_third_call_in_the_window_is_a_tool_error_naming_when_to_retry() {
    for era in ["modern", "legacy"] {
        let steps = json!([
            call("search", json!({"q": "a"})),
            call("search", json!({"q": "b"})),
            call("search", json!({"q": "c"})),
            wait(60_000),
            call("search", json!({"q": "d"})),
        ]);
        let t = run(&scenario(era, limited(), steps));
        let got = answers(&t);
        assert_eq!(got.len(), 4, "{era}: {got:?}");
        assert_eq!(got[0], ("Found a.".into(), false));
        assert_eq!(got[1], ("Found b.".into(), false));
        let (text, is_error) = &got[2];
        assert!(*is_error, "{era}: {text}");
        assert!(text.contains("2 calls per 60000 ms"), "{era}: {text}");
        assert!(text.contains("Retry in"), "{era}: {text}");
        // Once the window has passed, the tool answers again.
        assert_eq!(got[3], ("Found d.".into(), false), "{era}");
        assert!(shows(&t, "M-TOOL-RATE-LIMIT"), "{era}");
    }
}

fn jobs(runs_ms: Option<u64>) -> Value {
    let mut returns = json!({"handle": "job"});
    if let Some(ms) = runs_ms {
        returns["runsMs"] = json!(ms);
    }
    json!([
        {"name": "start", "result": "Started {handle}.", "returns": returns},
        {"name": "status",
         "inputSchema": {"type": "object", "properties": {"job": {"type": "string"}}, "required": ["job"]},
         "result": "{job} is done: 42 rows.",
         "uses": {"handle": "job", "argument": "job", "whileRunning": "{job} is still running."}}
    ])
}

#[test]
fn m_tool_handle_a_returned_handle_is_accepted_and_an_unknown_one_is_a_tool_error() {
    for era in ["modern", "legacy"] {
        let steps = json!([
            call("start", json!({})),
            call("status", json!({"job": "job-1"})),
            call("status", json!({"job": "job-9"})),
            call("start", json!({})),
        ]);
        let t = run(&scenario(era, jobs(None), steps));
        let got = answers(&t);
        assert_eq!(got[0], ("Started job-1.".into(), false), "{era}");
        assert_eq!(got[1], ("job-1 is done: 42 rows.".into(), false), "{era}");
        assert!(got[2].1, "{era}: {:?}", got[2]);
        assert!(got[2].0.contains("Unknown job handle: job-9"), "{era}");
        assert_eq!(got[3], ("Started job-2.".into(), false), "{era}");
        assert!(shows(&t, "M-TOOL-HANDLE"), "{era}");
    }
}

#[test]
fn m_tool_poll_a_started_job_answers_running_then_done_in_virtual_time() {
    for era in ["modern", "legacy"] {
        let steps = json!([
            call("start", json!({})),
            call("status", json!({"job": "job-1"})),
            wait(1000),
            call("status", json!({"job": "job-1"})),
            wait(3000),
            call("status", json!({"job": "job-1"})),
        ]);
        let t = run(&scenario(era, jobs(Some(3000)), steps));
        let got = answers(&t);
        assert_eq!(got[0], ("Started job-1.".into(), false), "{era}");
        assert_eq!(got[1], ("job-1 is still running.".into(), false), "{era}");
        assert_eq!(got[2], ("job-1 is still running.".into(), false), "{era}");
        assert_eq!(got[3], ("job-1 is done: 42 rows.".into(), false), "{era}");
        assert!(shows(&t, "M-TOOL-POLL"), "{era}");
    }
}

fn guarded(scope: &str) -> Value {
    json!([
        {"name": "read_file",
         "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
         "result": "Contents of {path}.",
         "quarantine": {"when": {"path": "/etc/shadow"}, "violation": "reading {path} is not allowed", "scope": scope}},
        {"name": "list", "result": "a.txt, b.txt"}
    ])
}

#[test]
fn m_tool_quarantine_a_violation_shuts_the_tool_or_every_tool() {
    for era in ["modern", "legacy"] {
        for scope in ["tool", "all"] {
            let steps = json!([
                call("read_file", json!({"path": "a.txt"})),
                call("read_file", json!({"path": "/etc/shadow"})),
                call("read_file", json!({"path": "a.txt"})),
                call("list", json!({})),
            ]);
            let t = run(&scenario(era, guarded(scope), steps));
            let got = answers(&t);
            assert_eq!(got[0], ("Contents of a.txt.".into(), false));
            assert!(got[1].1 && got[1].0.contains("reading /etc/shadow is not allowed"));
            assert!(got[2].1 && got[2].0.contains("quarantined"), "{:?}", got[2]);
            if scope == "all" {
                assert!(got[3].1 && got[3].0.contains("quarantined"), "{:?}", got[3]);
            } else {
                assert_eq!(got[3], ("a.txt, b.txt".into(), false));
            }
            assert!(shows(&t, "M-TOOL-QUARANTINE"), "{era} {scope}");
        }
    }
}

#[test]
fn scenario_file_state_keys_are_checked_and_round_trip() {
    // A tool that returns a handle must name it in its result.
    let bad = scenario(
        "modern",
        json!([{"name": "start", "result": "Started.", "returns": {"handle": "job"}},
               {"name": "x", "rateLimit": {"calls": 0, "windowMs": 10}},
               {"name": "y", "uses": {"handle": "Job!", "argument": "j"}},
               {"name": "z", "quarantine": {"when": {}, "violation": "v", "scope": "room"}}]),
        json!([call("start", json!({}))]),
    );
    let errors: Vec<String> = file::load_value(&bad)
        .expect_err("invalid state keys")
        .iter()
        .map(ToString::to_string)
        .collect();
    for place in [
        "tools[0].result",
        "tools[1].rateLimit.calls",
        "tools[2].uses.handle",
        "tools[3].quarantine.scope",
    ] {
        assert!(
            errors.iter().any(|e| e.contains(place)),
            "{place}: {errors:?}"
        );
    }
    // Written back as a file, every state key survives.
    let good = scenario("modern", jobs(Some(500)), json!([call("start", json!({}))]));
    let mut tools = jobs(Some(500));
    tools[0]["rateLimit"] = json!({"calls": 1, "windowMs": 10});
    tools[1]["quarantine"] = json!({"when": {"job": "x"}, "violation": "v", "scope": "all"});
    let mut good = good;
    good["servers"][0]["tools"] = tools.clone();
    let loaded = file::load_value(&good).expect("valid");
    let written = file::export("t", "t", "", &loaded.setups);
    let again = file::load_value(&written).expect("the export loads");
    assert_eq!(
        scenarios::run_setups(&again.setups),
        scenarios::run_setups(&loaded.setups)
    );
    let text = written.to_string();
    for key in [
        "rateLimit",
        "returns",
        "runsMs",
        "uses",
        "whileRunning",
        "quarantine",
    ] {
        assert!(text.contains(key), "{key}: {text}");
    }
}

#[test]
fn m_tool_handle_a_handle_no_tool_of_the_server_returns_is_a_reader_error() {
    // `status` uses a "job" handle; the only tool that returns one makes
    // "export" handles: no call could ever pass a job.
    let bad = scenario(
        "modern",
        json!([{"name": "start", "result": "Started {handle}.", "returns": {"handle": "export"}},
               {"name": "status", "result": "Done.", "uses": {"handle": "job", "argument": "job"}}]),
        json!([call("start", json!({}))]),
    );
    let errors: Vec<String> = file::load_value(&bad)
        .expect_err("a handle no tool returns")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("tools[1].uses.handle")
            && errors[0].contains("the tool status uses a \"job\" handle")
            && errors[0].contains("no tool of this server returns"),
        "{errors:?}"
    );
    // Returned by a tool of the server: read.
    let good = scenario("modern", jobs(Some(500)), json!([call("start", json!({}))]));
    file::load_value(&good).expect("a handle a tool returns");
}
