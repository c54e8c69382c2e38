//! The scripted server events of a set-up: `"event": "reply"` (a wrong
//! reply to a given request, a violation with its reason) and
//! `"event": "notify"` (a notification the server sends as written).

use super::*;
use crate::sim::scripted::{ScriptedNotice, ScriptedReply};

/// The keys of a `reply` event.
pub(super) const REPLY_KEYS: &[&str] = &[
    "atMs",
    "event",
    "method",
    "tool",
    "reply",
    "status",
    "violation",
    "note",
    "rules",
];
/// The keys of a `notify` event.
pub(super) const NOTIFY_KEYS: &[&str] = &[
    "atMs",
    "event",
    "message",
    "after",
    "violation",
    "note",
    "rules",
];

/// Rule ids of `rules`, each one of `spec/RULES.md`.
pub(super) fn rule_ids(e: &mut Errors, f: &Fields) -> Vec<String> {
    let what = note!("file.what.rule_ids", "rule ids");
    let rule_id = note!(
        "file.what.rule_id",
        "a rule id of spec/RULES.md such as \"M-META-REQUIRED\""
    );
    items(e, f, "rules", &what, MAX_VERSIONS, |e, p, v| {
        match v.as_str().and_then(crate::rules::find) {
            Some(rule) => Some(rule.id.to_string()),
            None => {
                e.at(p, expected(&rule_id, v));
                None
            }
        }
    })
    .unwrap_or_default()
}

/// A `reply` event armed at `at_ms`.
pub(super) fn reply(e: &mut Errors, f: &Fields, at_ms: Option<u64>) -> Option<ServerEventDef> {
    let method = name(e, f, "method", true);
    let tool = f.get("tool").and_then(|_| tool_name(e, f, "tool"));
    let status = match f.get("status") {
        None => None,
        Some(v) => Some(integer(e, &f.path("status"), v, 100, 599)? as u16),
    };
    let violation = text(e, f, "violation", true);
    let note = text(e, f, "note", false);
    let rules = rule_ids(e, f);
    let reply = match f.get("reply") {
        Some(v) => Some(v.clone()),
        None => {
            let what = note!(
                "file.what.scripted_reply",
                "the reply as sent, such as {{\"jsonrpc\": \"2.0\", \"result\": {{}}}}"
            );
            missing(e, f, "reply", &what);
            None
        }
    };
    Some(ServerEventDef::Reply {
        at_ms: at_ms?,
        reply: ScriptedReply {
            method: method?,
            tool,
            reply: reply?,
            status,
            violation: crate::scenarios::catalog::catalog_note(&violation?),
            note: crate::scenarios::catalog::catalog_note(note.as_deref().unwrap_or_default()),
            rules,
        },
    })
}

/// A `notify` event at `at_ms` (after the request `after`, if named).
pub(super) fn notify(e: &mut Errors, f: &Fields, at_ms: Option<u64>) -> Option<ServerEventDef> {
    let after = name(e, f, "after", false);
    let violation = text(e, f, "violation", false);
    let note = text(e, f, "note", false);
    let rules = rule_ids(e, f);
    let what = note!(
        "file.what.scripted_notification",
        "a JSON-RPC notification, such as {{\"jsonrpc\": \"2.0\", \"method\": \"notifications/message\", \"params\": {{}}}}"
    );
    let message = match f.get("message") {
        None => {
            missing(e, f, "message", &what);
            None
        }
        Some(v) => {
            let is_notification = v.get("method").is_some_and(Value::is_string)
                && v.get("id").is_none()
                && v.is_object();
            if is_notification {
                Some(v.clone())
            } else {
                e.at(&f.path("message"), expected(&what, v));
                None
            }
        }
    };
    Some(ServerEventDef::Notify {
        at_ms: at_ms?,
        notice: ScriptedNotice {
            message: message?,
            after,
            violation: violation.map(|v| crate::scenarios::catalog::catalog_note(&v)),
            note: crate::scenarios::catalog::catalog_note(note.as_deref().unwrap_or_default()),
            rules,
        },
    })
}
