//! The grader (`check::grade`) against the simulator's own runs: the core's
//! server keeps the rules, so its timelines grade clean; a timeline edited
//! to carry one fault fails exactly that fault's rule.

use mcp_lanes_core::check::{self, Outcome, Report, Verdict};
use mcp_lanes_core::scenarios;
use mcp_lanes_core::sim::{self, EventKind, Side, Timeline};
use serde_json::{json, Value};

fn run(scenario: &str, setup: usize) -> Timeline {
    let setups = scenarios::setups(scenario).expect("scenario");
    sim::run(&setups[setup])
}

fn failed(verdicts: &[Verdict]) -> Vec<String> {
    let mut rules: Vec<String> = verdicts
        .iter()
        .filter(|v| v.verdict == Outcome::Fail)
        .map(|v| v.rule.clone())
        .collect();
    rules.dedup();
    rules
}

fn passed(verdicts: &[Verdict], rule: &str) -> bool {
    verdicts
        .iter()
        .any(|v| v.rule == rule && v.verdict == Outcome::Pass)
}

/// Rewrites the first server answer to a request of `method`: `edit` gets
/// the whole JSON-RPC message.
fn edit_answer(timeline: &mut Timeline, method: &str, edit: impl Fn(&mut Value)) {
    let mut id = None;
    for event in &mut timeline.events {
        let EventKind::Message(m) = &mut event.kind else {
            continue;
        };
        let Some(body) = m.json.as_mut() else {
            continue;
        };
        match (m.from, &id) {
            (Side::Client, None) if body.get("method") == Some(&json!(method)) => {
                id = body.get("id").cloned();
            }
            (Side::Server, Some(want)) if body.get("id") == Some(want) => {
                edit(body);
                m.wire = body.to_string();
                return;
            }
            _ => {}
        }
    }
    panic!("no answer to {method}");
}

#[test]
fn s_answer_every_catalog_run_grades_clean_but_the_unchecked_elicitation_servers() {
    for info in scenarios::CATALOG {
        for (n, setup) in scenarios::setups(info.id)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let verdicts = check::grade(&sim::run(setup));
            let fails = failed(&verdicts);
            if info.id == "elicitation-unchecked" {
                // The documented fault: elicitation/create to a client that
                // never declared it; a client that drops it leaves the call
                // unanswered.
                assert!(
                    fails.contains(&"L-CAP-SESSION".to_string()),
                    "{}: {fails:?}",
                    setup.label
                );
                assert!(fails
                    .iter()
                    .all(|r| r == "L-CAP-SESSION" || r == "S-ANSWER"));
                continue;
            }
            if info.id == "scripted-server" && n == 1 {
                // A server scripted to answer wrongly on purpose: the
                // grader sees what the set-up marked as violations.
                assert!(fails.contains(&"M-RESULT-TYPE".to_string()), "{fails:?}");
                assert!(fails
                    .iter()
                    .all(|r| ["M-RESULT-TYPE", "RPC-CODES", "M-LOG-LEVEL"].contains(&r.as_str())));
                continue;
            }
            assert!(
                fails.is_empty(),
                "{} #{n} {}: {fails:?}",
                info.id,
                setup.label
            );
        }
    }
}

#[test]
fn s_answer_a_request_left_unanswered_fails() {
    let mut t = run("discover", 0);
    // Drop every server message: nothing answers.
    t.events
        .retain(|e| e.message().is_none_or(|m| m.from == Side::Client));
    let verdicts = check::grade(&t);
    assert_eq!(failed(&verdicts), ["S-ANSWER"]);
    assert_eq!(check::era(&t), check::ServerEra::Unknown);
}

#[test]
fn grading_is_deterministic_and_sorted() {
    let t = run("resources-prompts-caching", 0);
    let a = check::grade(&t);
    assert_eq!(a, check::grade(&t));
    let mut sorted = a.clone();
    check::sort(&mut sorted);
    assert_eq!(a, sorted);
    assert!(passed(&a, "M-CACHE-HINTS") && passed(&a, "M-RESULT-TYPE"));
}

#[test]
fn m_cache_hints_a_discover_result_without_ttl_fails() {
    let mut t = run("discover", 0);
    edit_answer(&mut t, "server/discover", |m| {
        m["result"].as_object_mut().map(|r| r.remove("ttlMs"));
    });
    assert_eq!(failed(&check::grade(&t)), ["M-CACHE-HINTS"]);
}

#[test]
fn m_result_type_a_result_without_result_type_fails() {
    let mut t = run("resources-prompts-caching", 0);
    edit_answer(&mut t, "prompts/get", |m| {
        m["result"].as_object_mut().map(|r| r.remove("resultType"));
    });
    assert_eq!(failed(&check::grade(&t)), ["M-RESULT-TYPE"]);
}

#[test]
fn m_discover_a_discover_result_without_versions_fails() {
    let mut t = run("discover", 0);
    edit_answer(&mut t, "server/discover", |m| {
        m["result"]["supportedVersions"] = json!("2026-07-28");
    });
    assert!(failed(&check::grade(&t)).contains(&"M-DISCOVER".to_string()));
}

#[test]
fn s_declared_a_declared_capability_answered_with_method_not_found_fails() {
    let mut t = run("resources-prompts-caching", 0);
    edit_answer(&mut t, "prompts/list", |m| {
        m.as_object_mut().map(|o| o.remove("result"));
        m["error"] = json!({"code": -32601, "message": "Method not found"});
    });
    // The edit leaves the HTTP status at 200, which H-STATUS notices too.
    assert_eq!(failed(&check::grade(&t)), ["H-STATUS", "S-DECLARED"]);
}

#[test]
fn m_unknown_tool_a_tool_error_for_an_unknown_tool_fails() {
    let mut t = run("unknown-tool-vs-unknown-method", 0);
    let before = check::grade(&t);
    assert!(failed(&before).is_empty(), "{before:?}");
    edit_answer(&mut t, "tools/call", |m| {
        m.as_object_mut().map(|o| o.remove("error"));
        m["result"] = json!({"resultType": "complete", "isError": true,
            "content": [{"type": "text", "text": "Unknown tool"}]});
    });
    let after = check::grade(&t);
    // Graded only when the run listed the tools first.
    if passed(&before, "M-UNKNOWN-TOOL") {
        assert_eq!(failed(&after), ["M-UNKNOWN-TOOL"]);
    }
}

#[test]
fn m_version_a_refusal_without_data_supported_fails() {
    let mut t = run("version-retry", 0);
    let before = check::grade(&t);
    assert!(passed(&before, "M-VERSION"), "{before:?}");
    let mut edited = false;
    for event in &mut t.events {
        if let EventKind::Message(m) = &mut event.kind {
            if let Some(body) = m.json.as_mut() {
                if body["error"]["code"] == json!(-32022) {
                    body["error"]["data"] = json!({"supportedVersions": ["2026-07-28"]});
                    m.wire = body.to_string();
                    edited = true;
                }
            }
        }
    }
    assert!(edited);
    assert_eq!(failed(&check::grade(&t)), ["M-VERSION"]);
}

#[test]
fn l_version_an_initialize_answer_naming_the_modern_version_fails() {
    let mut t = run("legacy-handshake", 0);
    assert!(failed(&check::grade(&t)).is_empty());
    edit_answer(&mut t, "initialize", |m| {
        m["result"]["protocolVersion"] = json!("2026-07-28");
    });
    assert_eq!(failed(&check::grade(&t)), ["L-VERSION"]);
}

#[test]
fn l_init_an_initialize_answer_without_server_info_fails() {
    let mut t = run("legacy-handshake", 0);
    edit_answer(&mut t, "initialize", |m| {
        m["result"].as_object_mut().map(|r| r.remove("serverInfo"));
    });
    assert_eq!(failed(&check::grade(&t)), ["L-INIT"]);
}

#[test]
fn every_graded_rule_not_exercised_is_named_n_a() {
    let t = run("legacy-handshake", 0);
    let verdicts = check::grade(&t);
    let na: Vec<&Verdict> = verdicts
        .iter()
        .filter(|v| v.verdict == Outcome::NotApplicable)
        .collect();
    assert!(na
        .iter()
        .any(|v| v.rule == "M-DISCOVER" && v.exchange.is_none()));
    let s = check::summary(&verdicts);
    assert_eq!(s.failed, 0);
    assert!(s.passed >= 2 && s.not_applicable >= 5, "{s:?}");
}

#[test]
fn a_report_survives_its_json_and_merges_flows() {
    let a = run("discover", 0);
    let b = run("legacy-handshake", 0);
    let merged = check::merge("check", &[a.clone(), b.clone()]).expect("flows");
    assert_eq!(merged.events.len(), a.events.len() + b.events.len() + 2);
    assert!(merged.events.iter().enumerate().all(|(i, e)| e.index == i));
    assert!(merged.events.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    let report = Report::new("stdio: demo", merged);
    assert_eq!(report.era, check::DUAL_ERA);
    let text = report.to_json();
    let value: Value = serde_json::from_str(&text).expect("json");
    assert!(value["verdicts"][0]["verdict"].is_string());
    assert!(value["timeline"]["events"].is_array());
    assert_eq!(Report::from_json(&text), Some(report));
    assert!(text.contains("\"n/a\""));
}

#[test]
fn merged_flows_named_by_notes_say_their_names_in_any_language() {
    let a = run("discover", 0);
    let b = run("legacy-handshake", 0);
    let (a_said, b_said) = (a.summary.outcome.clone(), b.summary.outcome.clone());
    let label = mcp_lanes_core::note!("t.flow", "discover: {what}", what = "the probe");
    let merged = check::merge_labelled("check", &[a.clone(), b.clone()], &[label]).expect("flows");
    let opening = &merged.events[0];
    assert_eq!(opening.note, "Flow 1 of 2: discover: the probe");
    let zh = |key: &str| match key {
        "check.flow" => Some("第 {n} 个流程（共 {count} 个）：{label}".to_string()),
        "t.flow" => Some("discover：{what}".to_string()),
        _ => None,
    };
    let said = opening
        .note_msg
        .as_ref()
        .and_then(|m| mcp_lanes_core::note::render(m, &zh, ""));
    assert_eq!(
        said.as_deref(),
        Some("第 1 个流程（共 2 个）：discover：the probe")
    );
    // A flow without a note is named by its timeline's label, as before.
    let second = &merged.events[a.events.len() + 1];
    assert_eq!(second.note, format!("Flow 2 of 2: {}", b.label));
    assert_eq!(
        check::merge("check", &[a, b]).map(|m| m.events.len()),
        Some(merged.events.len())
    );
    // The flows' outcomes, one after the other (a sentence both end with
    // once), in any language.
    let outcome = merged
        .summary
        .outcome_msg
        .as_ref()
        .and_then(Value::as_array);
    let distinct = if a_said == b_said { 1 } else { 2 };
    assert_eq!(outcome.map(Vec::len), Some(distinct));
}

#[test]
fn s_schema_is_left_to_native_code_the_grader_never_judges_it() {
    // Full schema validation needs a JSON Schema validator, too big for the
    // page: `mcp-lanes check` adds S-SCHEMA verdicts of its own.
    for info in scenarios::CATALOG {
        for setup in scenarios::setups(info.id).unwrap_or_default() {
            let verdicts = check::grade(&sim::run(&setup));
            assert!(verdicts.iter().all(|v| v.rule != "S-SCHEMA"));
        }
    }
}

#[test]
fn merged_flows_that_end_alike_say_their_outcome_once() {
    let a = run("discover", 0);
    let mut b = run("legacy-handshake", 0);
    b.summary.outcome = a.summary.outcome.clone();
    b.summary.outcome_msg = a.summary.outcome_msg.clone();
    let merged = check::merge("check", &[a.clone(), b, a.clone()]).expect("flows");
    assert_eq!(merged.summary.outcome, a.summary.outcome);
    let said = merged
        .summary
        .outcome_msg
        .as_ref()
        .and_then(Value::as_array);
    assert_eq!(
        said.map(Vec::len),
        a.summary.outcome_msg.as_ref().map(|_| 1)
    );
}

#[test]
fn m_cache_hints_an_input_required_tools_call_result_with_cache_hints_fails() {
    // tools/call is not cacheable, but an input_required result of any
    // method never carries cache hints.
    let mut t = run("mrtr-sampling-roots", 0);
    edit_answer(&mut t, "tools/call", |m| {
        assert_eq!(m["result"]["resultType"], "input_required", "{m}");
        m["result"]["ttlMs"] = json!(60000);
        m["result"]["cacheScope"] = json!("public");
    });
    assert_eq!(failed(&check::grade(&t)), ["M-CACHE-HINTS"]);
}

/// A recording's verdicts on `rule`, with their outcomes.
fn recorded_on(t: &Timeline, rule: &str) -> Vec<Outcome> {
    check::grade_recorded(t)
        .into_iter()
        .filter(|v| v.rule == rule)
        .map(|v| v.verdict)
        .collect()
}

/// The 401s and 403s the server answered in `t`, as event indexes.
fn refusals(t: &Timeline, status: u16) -> Vec<usize> {
    t.messages()
        .filter(|(_, m)| {
            m.from == Side::Server && m.http.as_ref().and_then(|h| h.status) == Some(status)
        })
        .map(|(e, _)| e.index)
        .collect()
}

#[test]
fn a_challenge_a_recordings_401_without_resource_metadata_fails_unless_marked() {
    // The flow's 401 names its metadata: pass.
    let t = run("auth-happy-path", 0);
    assert_eq!(recorded_on(&t, "A-CHALLENGE"), [Outcome::Pass]);
    // The scenario's server forgets resource_metadata on purpose: the
    // lane marks it, so the failure is expected...
    let mut t = run("auth-no-resource-metadata", 0);
    assert_eq!(recorded_on(&t, "A-CHALLENGE"), [Outcome::ExpectedFailure]);
    // ...and the same answer in a recording that does not mark it fails.
    for i in refusals(&t, 401) {
        if let EventKind::Message(m) = &mut t.events[i].kind {
            m.violation = None;
        }
    }
    assert_eq!(recorded_on(&t, "A-CHALLENGE"), [Outcome::Fail]);
    // A run that never met a 401 says nothing of authorization.
    assert!(recorded_on(&run("discover", 0), "A-CHALLENGE").is_empty());
}

#[test]
fn a_scope_step_up_a_recordings_403_must_name_insufficient_scope_and_the_scope() {
    let mut t = run("auth-scope-step-up", 0);
    assert_eq!(recorded_on(&t, "A-SCOPE-STEP-UP"), [Outcome::Pass]);
    for i in refusals(&t, 403) {
        if let EventKind::Message(m) = &mut t.events[i].kind {
            for (name, value) in &mut m.http.as_mut().expect("http").headers {
                if name.eq_ignore_ascii_case("www-authenticate") {
                    *value = "Bearer error=\"insufficient_scope\"".into();
                }
            }
        }
    }
    assert_eq!(recorded_on(&t, "A-SCOPE-STEP-UP"), [Outcome::Fail]);
}
