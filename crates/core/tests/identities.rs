//! Identities (issue 27): a client's principal and bearer token, a
//! server's policy on who sees and calls which tools
//! (M-TOOL-POLICY-LIST, M-TOOL-POLICY-CALL), refused over HTTP with 401
//! and 403 (A-CHALLENGE, A-SCOPE-STEP-UP) and over stdio with the tool
//! error or JSON-RPC error the spec allows. Every message of every run
//! validates against the official schema of its revision.

mod common;

use mcp_lanes_core::scenarios::file;
use mcp_lanes_core::sim::{Side, Timeline};
use serde_json::{json, Value};

/// A notes server: `read_notes` for everyone (alice gets her own
/// result), `delete_note` seen by alice only, callable by nobody but
/// alice, needing the scope `notes:write` over HTTP.
fn server(era: &str) -> Value {
    json!({"id": "notes", "era": era,
    "tools": [
        {"name": "read_notes", "result": "3 shared notes."},
        {"name": "delete_note", "result": "Deleted."},
        {"name": "export_notes", "result": "Exported."}
    ],
    "policy": {"tools": [
        {"tool": "read_notes", "results": {"alice": "3 shared notes and 2 of alice's own."}},
        {"tool": "delete_note", "visibleTo": ["alice", "bob"], "callableBy": ["alice"], "scopes": ["notes:write"]},
        {"tool": "export_notes", "visibleTo": ["alice"]}
    ]}})
}

/// A file of one set-up: `client` against the notes server.
fn scenario(era: &str, transport: &str, client: Value, steps: Value) -> Value {
    let mut client = client;
    client["id"] = json!("c");
    if era == "legacy" {
        client["era"] = json!("legacy");
    }
    json!({
        "format": file::FORMAT,
        "id": "t",
        "servers": [server(era)],
        "clients": [client],
        "setups": [{"client": "c", "server": "notes", "transport": transport, "steps": steps}]
    })
}

/// Runs a file and checks every message against its revision's schema.
fn run(value: &Value) -> Timeline {
    common::run_file(value)
}

/// The server's replies: results and errors, as JSON.
fn replies(t: &Timeline) -> Vec<Value> {
    t.messages()
        .filter(|(_, m)| m.from == Side::Server)
        .filter_map(|(_, m)| m.json.clone())
        .filter(|m| m.get("id").is_some())
        .collect()
}

/// The names a tools/list result gave.
fn listed(t: &Timeline) -> Vec<String> {
    replies(t)
        .iter()
        .filter_map(|m| m.pointer("/result/tools")?.as_array().cloned())
        .flatten()
        .filter_map(|tool| tool.get("name")?.as_str().map(str::to_string))
        .collect()
}

/// The HTTP statuses of the server's responses.
fn statuses(t: &Timeline) -> Vec<u16> {
    t.messages()
        .filter(|(_, m)| m.from == Side::Server)
        .filter_map(|(_, m)| m.http.as_ref()?.status)
        .collect()
}

fn shows(t: &Timeline, rule: &str) -> bool {
    t.events.iter().any(|e| e.rules.contains(&rule))
}

fn call(tool: &str) -> Value {
    json!({"do": "call", "tool": tool, "arguments": {}})
}

fn list() -> Value {
    json!({"do": "list", "what": "tools"})
}

fn text_of(reply: &Value) -> (String, bool) {
    (
        reply
            .pointer("/result/content/0/text")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        reply.pointer("/result/isError") == Some(&json!(true)),
    )
}

#[test]
fn m_tool_policy_list_a_hidden_tool_is_left_out_and_its_call_is_an_unknown_tool() {
    for (era, transport) in [("modern", "stdio"), ("legacy", "stdio"), ("modern", "http")] {
        let bob = json!({"principal": "bob", "token": {"scopes": ["notes:read"]}});
        let t = run(&scenario(
            era,
            transport,
            bob,
            json!([list(), call("export_notes")]),
        ));
        let names = listed(&t);
        assert_eq!(names, ["read_notes", "delete_note"], "{era} {transport}");
        let refusal = replies(&t).into_iter().last().unwrap();
        assert_eq!(
            refusal.pointer("/error/code"),
            Some(&json!(-32602)),
            "{era} {transport}: {refusal}"
        );
        assert_eq!(
            refusal.pointer("/error/message"),
            Some(&json!("Unknown tool: export_notes"))
        );
        assert!(shows(&t, "M-TOOL-POLICY-LIST"), "{era} {transport}");
        // Alice sees all three.
        let alice = json!({"principal": "alice", "token": {"scopes": ["notes:write"]}});
        let t = run(&scenario(era, transport, alice, json!([list()])));
        assert_eq!(listed(&t).len(), 3, "{era} {transport}");
    }
}

#[test]
fn m_tool_policy_call_a_visible_tool_the_caller_may_not_call_is_a_tool_error() {
    for era in ["modern", "legacy"] {
        let bob = json!({"principal": "bob"});
        let t = run(&scenario(era, "stdio", bob, json!([call("delete_note")])));
        let (text, is_error) = text_of(replies(&t).last().unwrap());
        assert!(is_error, "{era}: {text}");
        assert!(text.contains("not permitted for bob"), "{era}: {text}");
        assert!(shows(&t, "M-TOOL-POLICY-CALL"), "{era}");
        // The client carries its principal on the lane.
        assert!(t.client_label.ends_with("· bob"), "{}", t.client_label);
    }
}

#[test]
fn m_tool_policy_call_each_caller_gets_its_own_result() {
    for transport in ["stdio", "http"] {
        let alice = json!({"principal": "alice", "token": {"scopes": []}});
        let t = run(&scenario(
            "modern",
            transport,
            alice,
            json!([call("read_notes")]),
        ));
        let (text, is_error) = text_of(replies(&t).last().unwrap());
        assert_eq!(text, "3 shared notes and 2 of alice's own.", "{transport}");
        assert!(!is_error);
        let carol = json!({"principal": "carol", "token": {"scopes": []}});
        let t = run(&scenario(
            "modern",
            transport,
            carol,
            json!([call("read_notes")]),
        ));
        assert_eq!(text_of(replies(&t).last().unwrap()).0, "3 shared notes.");
        assert!(shows(&t, "M-TOOL-POLICY-CALL"), "{transport}");
    }
}

#[test]
fn a_challenge_a_request_without_a_token_gets_401_with_www_authenticate() {
    let anonymous = json!({"principal": "alice"});
    let t = run(&scenario("modern", "http", anonymous, json!([list()])));
    assert_eq!(statuses(&t), [401]);
    let (_, m) = t.messages().find(|(_, m)| m.from == Side::Server).unwrap();
    let header = m
        .http
        .as_ref()
        .unwrap()
        .headers
        .iter()
        .find(|(k, _)| k == "WWW-Authenticate");
    assert!(header.unwrap().1.starts_with("Bearer "), "{header:?}");
    assert!(shows(&t, "A-CHALLENGE"));
    // No tool was listed or run.
    assert!(listed(&t).is_empty());
}

#[test]
fn a_scope_step_up_a_token_short_of_the_tools_scope_gets_403_naming_it() {
    let alice = json!({"principal": "alice", "token": {"scopes": ["notes:read"]}});
    let t = run(&scenario(
        "modern",
        "http",
        alice,
        json!([call("delete_note")]),
    ));
    assert_eq!(statuses(&t), [403]);
    let (_, m) = t.messages().find(|(_, m)| m.from == Side::Server).unwrap();
    let (_, header) = m
        .http
        .as_ref()
        .unwrap()
        .headers
        .iter()
        .find(|(k, _)| k == "WWW-Authenticate")
        .unwrap();
    assert!(header.contains("error=\"insufficient_scope\""), "{header}");
    assert!(header.contains("scope=\"notes:write\""), "{header}");
    assert!(shows(&t, "A-SCOPE-STEP-UP"));
    // With the scope, alice deletes.
    let alice = json!({"principal": "alice", "token": {"scopes": ["notes:write"]}});
    let t = run(&scenario(
        "modern",
        "http",
        alice,
        json!([call("delete_note")]),
    ));
    assert_eq!(
        text_of(replies(&t).last().unwrap()),
        ("Deleted.".into(), false)
    );
    // Every request carried the bearer token (A-BEARER).
    for (_, m) in t.messages().filter(|(_, m)| m.from == Side::Client) {
        let headers = &m.http.as_ref().unwrap().headers;
        assert!(headers
            .iter()
            .any(|(k, v)| k == "Authorization" && v.starts_with("Bearer ")));
    }
}

#[test]
fn a_file_with_identities_writes_back_what_it_read() {
    let alice = json!({"principal": "alice", "token": {"scopes": ["notes:write"]}});
    let value = scenario("modern", "http", alice, json!([list()]));
    let loaded = file::load_value(&value).unwrap_or_else(|_| panic!("loads"));
    let written = file::export("t", "t", "", &loaded.setups);
    let again = file::load_value(&written).unwrap_or_else(|_| panic!("loads again: {written}"));
    assert_eq!(loaded.setups, again.setups);
}

#[test]
fn a_token_without_a_principal_is_an_error_in_the_file() {
    let value = scenario(
        "modern",
        "http",
        json!({"token": {"scopes": []}}),
        json!([list()]),
    );
    let Err(errors) = file::load_value(&value) else {
        panic!("a token without a principal is refused");
    };
    assert!(
        errors.iter().any(|e| e.to_string().contains("principal")),
        "{errors:?}"
    );
}
