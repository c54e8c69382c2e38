//! Identities in a file: a client's `principal` and `token`, a server's
//! `policy` (`identity.rs` and `server/policy.rs` run them).

use super::*;
use crate::identity::{Identity, Token};
use crate::server::{CallerResult, Policy, ToolPolicy};

/// A list of names (principals or scopes) under `key`.
fn names(e: &mut Errors, f: &Fields, key: &str) -> Option<Vec<String>> {
    let what = note!("file.what.names", "names");
    let values = list(e, f, key, &what, MAX_LIST)?;
    let path = f.path(key);
    let mut out = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let what = note!("file.what.name", "a name");
        if let Some(n) = check_text(e, &item(&path, i), v, &what, MAX_NAME, true) {
            out.push(n);
        }
    }
    (out.len() == values.len()).then_some(out)
}

/// A client's identity: `principal`, and `token` (which needs it).
pub(super) fn identity(e: &mut Errors, f: &Fields) -> Option<Identity> {
    let principal = name(e, f, "principal", false);
    let token = f.get("token").and_then(|v| {
        let what = note!(
            "file.what.token",
            "a bearer token ({{\"scopes\": [\"notes:read\"]}})"
        );
        let g = fields(e, &f.path("token"), v, &what, &["scopes"])?;
        Some(Token {
            scopes: names(e, &g, "scopes").unwrap_or_default(),
        })
    });
    if token.is_some() && f.get("principal").is_none() {
        missing(
            e,
            f,
            "principal",
            &note!("file.what.principal", "the principal the token speaks for"),
        );
    }
    Some(Identity {
        principal: principal?,
        token,
    })
}

/// A server's `policy`: `{"tools": [{"tool", "visibleTo", "callableBy",
/// "scopes", "results"}]}`.
pub(super) fn policy(e: &mut Errors, path: &str, value: &Value) -> Option<Policy> {
    let what = note!(
        "file.what.policy",
        "a policy ({{\"tools\": [{{\"tool\": \"…\", \"visibleTo\": [\"alice\"]}}]}})"
    );
    let f = fields(e, path, value, &what, &["tools"])?;
    let tools = items(
        e,
        &f,
        "tools",
        &note!("file.what.tool_policies", "tool policies"),
        MAX_ITEMS,
        tool_policy,
    )?;
    Some(Policy {
        tools,
        launched_as: None,
    })
}

fn tool_policy(e: &mut Errors, path: &str, value: &Value) -> Option<ToolPolicy> {
    let what = note!("file.what.tool_policy", "a tool's policy");
    let keys = ["tool", "visibleTo", "callableBy", "scopes", "results"];
    let f = fields(e, path, value, &what, &keys)?;
    let before = e.0.len();
    let tool = tool_name(e, &f, "tool");
    let mut results = Vec::new();
    if let Some(v) = f.get("results") {
        let what = note!(
            "file.what.caller_results",
            "results by principal ({{\"alice\": \"…\"}})"
        );
        match v.as_object() {
            None => e.at(&f.path("results"), expected_object(&what, v)),
            Some(map) => {
                for (principal, text) in map {
                    let p = child(&f.path("results"), principal);
                    if let Some(result) = check_text(e, &p, text, &a_text(), MAX_TEXT, false) {
                        results.push(CallerResult {
                            principal: principal.clone(),
                            result,
                        });
                    }
                }
            }
        }
    }
    let policy = ToolPolicy {
        tool: tool?,
        visible_to: names(e, &f, "visibleTo"),
        callable_by: names(e, &f, "callableBy"),
        scopes: names(e, &f, "scopes").unwrap_or_default(),
        results,
    };
    (e.0.len() == before).then_some(policy)
}
