//! What a set-up's author scripts its server to do besides what its
//! configuration decides: a wrong reply to a given request, drawn as a
//! violation with its reason, and notifications the server sends on its
//! own, at a time or a delay after a given request arrives.
//!
//! The engine applies them ([`crate::sim::engine`]): a scripted reply takes
//! the place of the server's, and the server never sees that request.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::note::Note;
use crate::protocol::jsonrpc::{Envelope, RequestId};
use crate::rules::{self, RuleId};

/// A reply the server gives instead of its own, once: to the first request
/// of `method` (and, for `tools/call`, of `tool`) that arrives after the
/// time it was armed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptedReply {
    /// The method of the request it answers.
    pub method: String,
    /// For `tools/call`: the tool the call must name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The reply as sent; an object without `id` gets the request's.
    pub reply: Value,
    /// The HTTP status it travels with (HTTP only; default 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Why it is wrong: every scripted reply is a violation.
    pub violation: Note,
    /// What the reader should notice (empty: a sentence of the simulator's).
    #[serde(default)]
    pub note: Note,
    /// The rule IDs it breaks or shows.
    #[serde(default)]
    pub rules: Vec<String>,
}

/// A notification the server sends on its own, exactly as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScriptedNotice {
    /// The whole message (a JSON-RPC notification).
    pub message: Value,
    /// Set: it is sent this long after the first request of this method
    /// reaches the server, instead of at a time of the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// Why it is wrong, when the author means it to be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation: Option<Note>,
    /// What the reader should notice (empty: a sentence of the simulator's).
    #[serde(default)]
    pub note: Note,
    /// The rule IDs it shows.
    #[serde(default)]
    pub rules: Vec<String>,
}

/// The request a text carries: its id, method and params.
pub(crate) fn request_of(text: &str) -> Option<(RequestId, String, Value)> {
    let value: Value = serde_json::from_str(text).ok()?;
    match Envelope::classify(&value).ok()? {
        Envelope::Request { id, method, params } => Some((id, method, params)),
        _ => None,
    }
}

impl ScriptedReply {
    /// Whether it answers a request of `method` with `params`.
    pub(crate) fn answers(&self, method: &str, params: &Value) -> bool {
        self.method == method
            && self
                .tool
                .as_deref()
                .is_none_or(|tool| params.get("name").and_then(Value::as_str) == Some(tool))
    }

    /// The reply's text for the request `id`: the author's object with the
    /// request's id put in second place when it has none.
    pub(crate) fn text_for(&self, id: &RequestId) -> String {
        match &self.reply {
            Value::Object(obj) if !obj.contains_key("id") => {
                let mut out = Map::new();
                let mut rest = obj.clone();
                if let Some(v) = rest.shift_remove("jsonrpc") {
                    out.insert("jsonrpc".into(), v);
                }
                out.insert("id".into(), id.to_json());
                out.extend(rest);
                Value::Object(out).to_string()
            }
            other => other.to_string(),
        }
    }

    /// The rules it names, as catalog IDs (unknown ones are left out: a
    /// file's loader has refused them already).
    pub(crate) fn rule_ids(&self) -> Vec<RuleId> {
        known_rules(&self.rules, &[])
    }

    /// The lane's note: the simulator's sentence, then the author's.
    pub(crate) fn lane_note(&self) -> Note {
        let mut note = crate::note!(
            "sim.scripted.reply",
            "The set-up makes the server answer this {method} wrongly, on purpose: {why}.",
            method = self.method.as_str(),
            why = self.violation.clone()
        );
        if !self.note.text().is_empty() {
            note.push(self.note.clone());
        }
        note
    }
}

impl ScriptedNotice {
    /// The method of its message.
    pub(crate) fn method(&self) -> &str {
        self.message
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// Its rules: RPC-NOTIFY, then the author's.
    pub(crate) fn rule_ids(&self) -> Vec<RuleId> {
        known_rules(&self.rules, &[rules::RPC_NOTIFY])
    }

    /// The lane's note: the author's, or the simulator's sentence.
    pub(crate) fn lane_note(&self) -> Note {
        if !self.note.text().is_empty() {
            return self.note.clone();
        }
        match &self.after {
            Some(after) => crate::note!(
                "sim.scripted.notice_after",
                "The server sends {method} on its own while it works on {after}, as the set-up scheduled it; a notification gets no response.",
                method = self.method(),
                after = after.as_str()
            ),
            None => crate::note!(
                "sim.scripted.notice",
                "The server sends {method} on its own, at the time the set-up scheduled; a notification gets no response.",
                method = self.method()
            ),
        }
    }
}

fn known_rules(names: &[String], first: &[RuleId]) -> Vec<RuleId> {
    let mut out: Vec<RuleId> = first.to_vec();
    for id in names.iter().filter_map(|n| rules::find(n)).map(|r| r.id) {
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}
